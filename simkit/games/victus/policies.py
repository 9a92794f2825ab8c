"""Scripted choices of the Barcelonan players inside the Bourbon actions, selected by
integer id: which piece absorbs a bombardment hit, how a winning side spreads casualty
points, which marker "Given Half a Bomb" costs. (Card choice, dice order and action
spending are in ``players.py``.)
"""


from simkit.rng import uniform_int
from simkit.unmanaged import borrowing

from . import layout as L

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
def casualty_split(p, coronela, infantry, points):
    """Troops a winning Barcelonan side loses to ``points`` casualty points.

    A troop is eliminated when its points reach its value (Coronela 1, infantry 3); a
    surviving infantry can take up to 2. Returns (Coronela lost, infantry lost) with the
    least weighted loss, a Coronela weighing ``P_CORONELA_LOSS_WEIGHT``/10 of an infantry's 3.
    """
    if points >= coronela + 3 * infantry:
        return coronela, infantry
    best_c, best_i, best = coronela, infantry, 1 << 30
    for lost_i in range(infantry + 1):
        for lost_c in range(coronela + 1):
            taken = lost_c + 3 * lost_i
            if taken > points or points - taken > 2 * (infantry - lost_i):
                continue
            cost = lost_c * p[L.P_CORONELA_LOSS_WEIGHT] + lost_i * 30
            if cost < best:
                best_c, best_i, best = lost_c, lost_i, cost
    return best_c, best_i


@borrowing
def half_a_bomb_marker(p, g, rng):
    """The marker whose pin moves 1 space counter-clockwise, -1 if every pin is at its
    lowest: ``random`` any movable one; otherwise Port, hospitals, Gunpowder Store, and
    the Generalitat last."""
    movable = 0
    for marker in HALF_A_BOMB_ORDER:
        if g[L.G_MARKER + marker] > 0:
            movable += 1
    if movable == 0:
        return -1
    pick = uniform_int(rng, L.ST_POLICY, movable) if p[L.P_POLICY] == L.RANDOM else 0
    for marker in HALF_A_BOMB_ORDER:
        if g[L.G_MARKER + marker] > 0:
            if pick == 0:
                return marker
            pick -= 1
    return -1
