"""Scripted choices of the Barcelonan players inside the Bourbon actions, selected by
integer id: which piece absorbs a bombardment hit, how a winning side spreads casualty
points, which marker "Given Half a Bomb" costs. (Card choice, dice order and action
spending are in ``policies.py``.)

Also the strong players' judgement, read by ``policies.py`` and by any look-ahead player:
``evaluate_position`` (a static score of a position for the Barcelonans, built on the
three defeats of "End of the Game": Coronela in Barcelona, a Bourbon tile on the Beach,
rubble/ruined tiles on the board) and ``card_effect_score`` (what a card's compiled ops
do: Advance, Bombardment, Trench, discs, markers, pieces placed, removed or captured, AP
granted).
"""


from simkit.rng import uniform_int
from simkit.unmanaged import borrowing

from . import card_layout as CL
from . import layout as L
from .pieces import disc_value, marker_value

# Given Half a Bomb: the pin the greedy players give up first (the Generalitat, the AP, last)
HALF_A_BOMB_ORDER = (L.MARKER_PORT, L.MARKER_HOSPITAL, L.MARKER_GUNPOWDER_STORE,
                     L.MARKER_GENERALITAT)


@borrowing
def choose_hit(p, sp, space):
    """The piece that absorbs one bombardment hit (HIT_*), or -1 if none can.

    Defense tiles and barricades are cheapest to replace; then Coronela while several
    stand in the space, cannons, infantry, organ-guns and the last Coronela.
    """
    if sp[space, L.SP_DEFENSE] > 0:
        return L.HIT_DEFENSE
    if p[L.P_FULL] and sp[space, L.SP_BARRICADES] > 0:
        return L.HIT_BARRICADE
    if sp[space, L.SP_CORONELA] > 1:
        return L.HIT_CORONELA
    if sp[space, L.SP_CANNON] > 0 and sp[space, L.SP_INFANTRY] + sp[space, L.SP_CORONELA] > 1:
        return L.HIT_CANNON
    if sp[space, L.SP_INFANTRY] > 0:
        return L.HIT_INFANTRY
    if sp[space, L.SP_CORONELA] > 0:
        return L.HIT_CORONELA
    if sp[space, L.SP_CANNON] > 0:
        return L.HIT_CANNON
    if p[L.P_FULL] and sp[space, L.SP_ORGAN_GUNS] > 0:
        return L.HIT_ORGAN_GUN
    return -1


@borrowing
def casualty_split(w, coronela, infantry, points):
    """Troops a winning Barcelonan side loses to ``points`` casualty points.

    A troop is eliminated when its points reach its value (Coronela 1, infantry 3); a
    surviving infantry can take up to 2. Returns (Coronela lost, infantry lost) with the
    least weighted loss, a Coronela weighing ``W_CORONELA_WEIGHT``/10 of an infantry's 3.
    """
    if points >= coronela + 3 * infantry:
        return coronela, infantry
    best_c, best_i, best = coronela, infantry, 1 << 30
    for lost_i in range(infantry + 1):
        for lost_c in range(coronela + 1):
            taken = lost_c + 3 * lost_i
            if taken > points or points - taken > 2 * (infantry - lost_i):
                continue
            cost = lost_c * w[L.W_CORONELA_WEIGHT] + lost_i * 30
            if cost < best:
                best_c, best_i, best = lost_c, lost_i, cost
    return best_c, best_i


@borrowing
def half_a_bomb_marker(w, g, rng):
    """The marker whose pin moves 1 space counter-clockwise, -1 if every pin is at its
    lowest: ``random`` any movable one; otherwise Port, hospitals, Gunpowder Store, and
    the Generalitat last."""
    movable = 0
    for marker in HALF_A_BOMB_ORDER:
        if g[L.G_MARKER + marker] > 0:
            movable += 1
    if movable == 0:
        return -1
    pick = uniform_int(rng, L.ST_POLICY, movable) if w[L.W_POLICY] == L.RANDOM else 0
    for marker in HALF_A_BOMB_ORDER:
        if g[L.G_MARKER + marker] > 0:
            if pick == 0:
                return marker
            pick -= 1
    return -1


# -- the strong players' static evaluation ---------------------------------------------------

DEFEAT_SCORE = -1_000_000  # a position that loses at the end-of-turn defeat check


@borrowing
def evaluate_position(K, CARDS, p, sp, g):
    """How good ``sp``/``g`` look to the Barcelonans (higher = better), in tenths of a
    marker step. A position past a defeat threshold scores ``DEFEAT_SCORE``; otherwise the
    margins to the Coronela and rubble thresholds (each lost unit dearer as the margin
    shrinks), the Bourbon value inside and around Barcelona, the troops, cannons and
    defenses that stand, the four markers and the three discs, and the trench. (One pass
    over the spaces: the strong players call it for every die they try.)"""
    info = K[L.K_INFO]
    coronela, rubble, board = 0, g[L.G_RUBBLE_ON_MARKERS], 0
    for space in range(sp.shape[0]):
        if sp[space, L.SP_RUBBLE] != L.RUBBLE_NONE:
            rubble += 1
        board -= 12 * sp[space, L.SP_BATTERY_TILES]
        if info[space, L.S_BARCELONA] == 1:
            coronela += sp[space, L.SP_CORONELA]
            board += (6 * sp[space, L.SP_CORONELA] + 20 * sp[space, L.SP_INFANTRY]
                      + 8 * sp[space, L.SP_CANNON] + 8 * sp[space, L.SP_DEFENSE]
                      + 4 * sp[space, L.SP_BARRICADES] + 12 * sp[space, L.SP_ORGAN_GUNS]
                      - 25 * sp[space, L.SP_BOURBON])
        elif info[space, L.S_KIND] == L.KIND_OUTSIDE or info[space, L.S_KIND] == L.KIND_TRENCH:
            board += (10 * sp[space, L.SP_INFANTRY] + 3 * sp[space, L.SP_CORONELA]
                      - 4 * sp[space, L.SP_BOURBON])
    special = K[L.K_SPECIAL]
    if (coronela < p[L.P_CORONELA_THRESHOLD] or rubble >= p[L.P_RUBBLE_THRESHOLD]
            or sp[special[L.SPECIAL_BEACH], L.SP_BOURBON] > 0):
        return DEFEAT_SCORE
    spare_coronela = coronela - p[L.P_CORONELA_THRESHOLD]
    spare_rubble = p[L.P_RUBBLE_THRESHOLD] - rubble
    score = board + 30 * spare_coronela - 600 // (spare_coronela + 1)
    score += -12 * rubble - 900 // spare_rubble
    score += 40 * marker_value(K, g, L.MARKER_GENERALITAT)
    score += 15 * marker_value(K, g, L.MARKER_GUNPOWDER_STORE)
    score += 8 * marker_value(K, g, L.MARKER_HOSPITAL)
    score += 8 * marker_value(K, g, L.MARKER_PORT)
    score -= 10 * disc_value(K, g, L.DISC_REINFORCEMENTS)
    score -= 30 * disc_value(K, g, L.DISC_BATTERIES)
    score -= 8 * disc_value(K, g, L.DISC_MINE)
    for column in range(L.N_TRENCH):
        score -= 8 * g[L.G_TRENCH + column]
    wounded = special[L.SPECIAL_WOUNDED]
    return score + 4 * (sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY])


# -- what a card does, from its compiled ops ------------------------------------------------

# per piece placed (PIECE_* order: troops, infantry, Coronela, cannon, organ-gun, barricade,
# bastion defense, rubble, ruined, battery, Bourbon value); removing one scores the opposite
PIECE_WORTH = (3, 3, 2, 2, 4, 1, 1, -2, -3, -3, -1)
MARKER_WORTH = (3, 1, 1, 1)  # per pin step: the Generalitat is AP every turn
DISC_WORTH = (-1, -3, -1)  # per disc step: reinforcements, batteries, mine


@borrowing
def card_effect_score(CARDS, card):
    """What a card's ops do to the city, in the units of an Almanac step: every op of
    every timing counted once (both arms of an ``if``), a grant of X AP worth X."""
    starts, ops = CARDS[CL.C_STARTS], CARDS[CL.C_OPS]
    score = 0
    for timing in range(CL.T_MODIFIERS):
        row = card * CL.N_TIMINGS + timing
        for k in range(starts[row], starts[row + 1]):
            score += op_score(CARDS, ops[k])
    return score


@borrowing
def op_score(CARDS, op):
    code, a, b, c = op[CL.O_CODE], op[CL.O_A], op[CL.O_B], op[CL.O_C]
    if code == CL.OP_ADVANCE:
        return -3 * a
    if code == CL.OP_BOMBARD:
        return -2 * a
    if code == CL.OP_TRENCH:
        return -2 * a
    if code == CL.OP_DISC:
        return DISC_WORTH[a] * (b if c == CL.SET_RELATIVE else (-3 if c == CL.SET_MIN else 3))
    if code == CL.OP_MARKER:
        return MARKER_WORTH[a] * (b if c == CL.SET_RELATIVE else (-3 if c == CL.SET_MIN else 3))
    if code == CL.OP_TEMP:
        return b * (MARKER_WORTH[a] if a < L.N_MARKERS else DISC_WORTH[a - L.N_MARKERS])
    if code == CL.OP_PLACE or code == CL.OP_REMOVE:
        n = max(c, 1)
        if op[CL.O_D] == CL.WHERE_EACH:
            n *= max(1, CARDS[CL.C_SETS][b, 0])
        worth = PIECE_WORTH[a] * n
        return worth if code == CL.OP_PLACE else -worth
    if code == CL.OP_CAPTURE:
        return -3 * max(c, 1)
    if code == CL.OP_FREE:
        return 3 * max(b, 1)
    if code == CL.OP_ELIMINATE:
        return -2 * max(c, 1)
    if code == CL.OP_BOURBONS:
        return -2 if c == CL.VALUE_REINFORCEMENTS else -b
    if code == CL.OP_HEAL:
        return 2
    if code == CL.OP_MINE_EXPLODES:
        return -3
    if code == CL.OP_CHANCE_HITS:
        return -a * b
    if code == CL.OP_GRANT_AP:
        return b
    if code == CL.OP_DEACTIVATE:
        return 2 if a == CL.SIDE_BOURBON else -2
    if code == CL.OP_RUBBLE_ON_MARKER:
        return -2 * a
    if code == CL.OP_RANDOM_CHOICE:
        return -1
    return 0
