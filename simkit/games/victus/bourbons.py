"""The Bourbon side (rulebook "4. Bourbon Actions": Reinforcements, Bombardment, Advance,
Trench; "Component Descriptions": the discs, Chance Cards; "Mine explodes"; "Special
Combats": Combats in Camps and in Spaces with a Trench Tile, Bourbon Battery Tiles).

One function per rule: ``move_reinforcements_disc`` and the icon it ends on (batteries,
``heal``, ``mine_explodes``, advance), ``bombard``, ``advance_bourbons``, ``trench_forward``
and ``trench_back``, ``trench_space_combat``, and ``roll_bourbon_dice``.

Readings the rulebook leaves open:
- Trench +N takes, at each symbol, the rearmost tile that may move (not sharing a space
  with Barcelonan troops, not already on the 3rd Parallel), alphabetically first among
  equals; a symbol no tile can take adds 1 to the mine disc in the full game (Example 22).
  Trench -N mirrors it: the most advanced tile not sharing a space with troops,
  alphabetically last among equals. Whether a tile that cannot be taken passes the
  symbol to the next tile, or the symbol, naming that tile, is lost, is the
  ``trench_blocked_tile`` reading (rules.py).
- Bourbon tiles that advance into troops standing on a trench tile fight there as at the
  camp (the camp's tile, if a combat left one, joins them); survivors go to the camp.
- A reinforcements value of 0 places no tile on the camps (no tile has value 0). A fight
  for a camp or its trench space with no Bourbon tile is the ``empty_reinforcements``
  knob (rules.py): no combat occurs (default), or the Barcelonans win it.
- With all 6 razed Bourbon camp tiles on the board, a further win (or tie) at a camp
  places none: its other effects (batteries, battery tiles, a captive freed, the trench
  tile back) still happen.
- Bourbon tiles on a camp whose trench tile stands on a Parallel first jump to that
  trench space (not a step), then follow the arrows from there.
"""

import numpy as np

from simkit.eventlog import log_event
from simkit.rng import restart, uniform_int
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .combat import BARCELONANS_WIN, BOTH_LOSE, BOURBONS_WIN, needs_combat, resolve_combat
from .events import (
    EV_ADVANCE,
    EV_BOMBARD_SPACE,
    EV_CAMP_PLACED,
    EV_DISC,
    EV_HALF_A_BOMB,
    EV_HEAL,
    EV_HIT,
    EV_TRENCH,
)
from .judgement import choose_hit, half_a_bomb_marker
from .pieces import (
    at_expedition,
    disc_value,
    eliminate,
    is_barcelona,
    marker_value,
    trench_column_at,
    troops_in,
)

N_CHANCE = 14
NO_COMBAT = 0  # a fight for a camp with no Bourbon troops (empty_reinforcements)


# -- discs on the Bourbon marker --------------------------------------------------------------


@borrowing
def set_disc(K, g, disc, position, log):
    track_len = K[L.K_TRACK].shape[1]
    lowest = K[L.K_SPECIAL][L.SPECIAL_BATTERIES_MIN] if disc == L.DISC_BATTERIES else 0
    position = max(lowest, min(track_len - 1, position))
    if position != g[L.G_DISC + disc]:
        log_event(log, EV_DISC, disc, g[L.G_DISC + disc], position)
    g[L.G_DISC + disc] = position


@borrowing
def move_batteries(K, g, steps, log):
    set_disc(K, g, L.DISC_BATTERIES, g[L.G_DISC + L.DISC_BATTERIES] + steps, log)


@borrowing
def move_mine(K, g, steps, log):
    set_disc(K, g, L.DISC_MINE, g[L.G_DISC + L.DISC_MINE] + steps, log)


@borrowing
def move_reinforcements_disc(K, p, w, sp, g, rng, steps, flag_turn, log):
    """Reinforcements +/-X: only the space the disc ends on triggers its icon."""
    set_disc(K, g, L.DISC_REINFORCEMENTS, g[L.G_DISC + L.DISC_REINFORCEMENTS] + steps, log)
    position = g[L.G_DISC + L.DISC_REINFORCEMENTS]
    icons = K[L.K_TRACK][1, position]
    if icons & L.ICON_BATTERIES:
        move_batteries(K, g, 1, log)
    if icons & L.ICON_HEALING:
        heal(K, p, w, sp, g, flag_turn, log)
    if icons & L.ICON_MINE:
        mine_explodes(K, p, w, sp, g, rng, log)
    if icons & L.ICON_ADVANCE:
        advance_bourbons(K, p, w, sp, g, rng, K[L.K_TRACK][2, position], flag_turn, log)


# -- healing ---------------------------------------------------------------------------------


@borrowing
def move_troop(sp, source, target, field, n):
    n = min(n, sp[source, field])
    sp[source, field] -= n
    sp[target, field] += n
    return n


@borrowing
def port_healing(K, p, w, sp, g, flag_turn, log):
    """Port +1: a troop from Reserve to the Port (first game) or the Expedition (full);
    Port -1/-2: that many troops leave Barcelona for Reserve (infantry first, from the
    most crowded space, to keep the Coronela that hold the city). A troop placed on the
    Port where Bourbon tiles stand fights them at once, as healed troops do in a hospital
    (Combats in Hospitals; Combat: "there are both Barcelonan and Bourbon troops in the
    same space, the combat there must be resolved"); the Expedition's combats wait for a
    card."""
    port = marker_value(K, g, L.MARKER_PORT)
    special = K[L.K_SPECIAL]
    reserve = special[L.SPECIAL_RESERVE]
    if port > 0:
        target = special[L.SPECIAL_EXPEDITION] if p[L.P_FULL] else special[L.SPECIAL_PORT]
        field = L.SP_CORONELA if sp[reserve, L.SP_CORONELA] > 0 else L.SP_INFANTRY
        if move_troop(sp, reserve, target, field, 1):
            log_event(log, EV_HEAL, target, field, 1)
            if sp[target, L.SP_BOURBON] > 0 and not at_expedition(K, target):
                resolve_combat(K, p, w, sp, g, target, flag_turn, log)
    for _ in range(-port):
        source = most_crowded_barcelona_space(K, sp)
        if source < 0:
            return
        field = L.SP_INFANTRY if sp[source, L.SP_INFANTRY] > 0 else L.SP_CORONELA
        move_troop(sp, source, reserve, field, 1)
        log_event(log, EV_HEAL, reserve, field, 1)


@borrowing
def most_crowded_barcelona_space(K, sp):
    best, most = -1, 0
    for s in range(sp.shape[0]):
        if is_barcelona(K, s) and troops_in(sp, s) > most:
            best, most = s, troops_in(sp, s)
    return best


@borrowing
def heal(K, p, w, sp, g, flag_turn, log):
    """The Healing icon: the Port's effect, then the hospitals take up to the Saint
    Cross/Saint Mary value of infantry (to 14) and of Coronela (to 34) from WOUNDED."""
    port_healing(K, p, w, sp, g, flag_turn, log)
    special = K[L.K_SPECIAL]
    wounded = special[L.SPECIAL_WOUNDED]
    value = marker_value(K, g, L.MARKER_HOSPITAL)
    for field, hospital in ((L.SP_INFANTRY, special[L.SPECIAL_SAINT_CROSS]),
                            (L.SP_CORONELA, special[L.SPECIAL_SAINT_MARY])):
        healed = move_troop(sp, wounded, hospital, field, value)
        if healed:
            log_event(log, EV_HEAL, hospital, field, healed)
            if sp[hospital, L.SP_BOURBON] > 0:  # healed troops fight at once
                resolve_combat(K, p, w, sp, g, hospital, flag_turn, log)


# -- chance cards, bombardment, mine ----------------------------------------------------------


@borrowing
def draw_chance(g, rng):
    """The top chance card; an exhausted deck is reshuffled from the discards. The
    k-th shuffle is the same whenever it comes: the k-th card drawn in a game does not
    depend on when it is drawn."""
    if g[L.G_CHANCE_NEXT] >= N_CHANCE:
        deck = g[L.G_CHANCE_DECK:L.G_CHANCE_DECK + N_CHANCE]
        restart(rng, L.ST_CHANCE, g[L.G_CHANCE_DRAWN] // N_CHANCE)
        for i in range(N_CHANCE):
            deck[i] = i
        for i in range(N_CHANCE - 1, 0, -1):
            j = uniform_int(rng, L.ST_CHANCE, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        g[L.G_CHANCE_NEXT] = 0
    card = g[L.G_CHANCE_DECK + g[L.G_CHANCE_NEXT]]
    g[L.G_CHANCE_NEXT] += 1
    g[L.G_CHANCE_DRAWN] += 1
    return card


@borrowing
def apply_hit(K, p, sp, g, space, log):
    """One hit: a piece of the defenders' choice, else rubble -> ruined -> ignored."""
    absorb_hit(K, sp, g, space, choose_hit(p, sp, space), log)


@borrowing
def absorb_hit(K, sp, g, space, what, log):
    """Apply one hit to the piece ``what`` (HIT_*), or to the space if ``what`` < 0."""
    if what == L.HIT_DEFENSE:
        sp[space, L.SP_DEFENSE] -= 1
    elif what == L.HIT_BARRICADE:
        sp[space, L.SP_BARRICADES] -= 1
    elif what == L.HIT_CORONELA:
        eliminate(K, sp, space, L.SP_CORONELA, 1)
    elif what == L.HIT_INFANTRY:
        eliminate(K, sp, space, L.SP_INFANTRY, 1)
    elif what == L.HIT_CANNON:
        eliminate(K, sp, space, L.SP_CANNON, 1)
    elif what == L.HIT_ORGAN_GUN:
        sp[space, L.SP_ORGAN_GUNS] -= 1
    elif sp[space, L.SP_RUBBLE] == L.RUBBLE_NONE:
        sp[space, L.SP_RUBBLE] = L.RUBBLE
        g[L.G_RUBBLE_SUPPLY] -= 1  # below 0: "use any other marker"
        what = L.HIT_RUBBLE
    elif sp[space, L.SP_RUBBLE] == L.RUBBLE:
        sp[space, L.SP_RUBBLE] = L.RUINED
        what = L.HIT_RUINED
    else:
        what = L.HIT_IGNORED
    log_event(log, EV_HIT, space, what)


@borrowing
def hit_spaces(K, p, w, sp, g, rng, n_spaces, hits, log):
    """Draw a chance card and give ``hits`` hits to each of its first ``n_spaces``
    spaces on the current stage's row."""
    card = draw_chance(g, rng)
    row = K[L.K_STAGE_ROW][g[L.G_STAGE]]
    targets = K[L.K_CHANCE_BOMBARD][card, row]
    for k in range(min(n_spaces, targets.shape[0])):
        space = targets[k]
        if space < 0:
            break
        log_event(log, EV_BOMBARD_SPACE, space, hits)
        if p[L.P_HALF_A_BOMB] and hits > 0:
            given_half_a_bomb(p, w, sp, g, rng, space, log)
        for _ in range(hits):
            apply_hit(K, p, sp, g, space, log)


@borrowing
def given_half_a_bomb(p, w, sp, g, rng, space, log):
    """"Given Half a Bomb": hits on a space that already has a ruined tile and nothing
    else that could take any of them move one marker's pin 1 space counter-clockwise
    (one space per bombarded space, not per hit)."""
    if sp[space, L.SP_RUBBLE] != L.RUINED or choose_hit(p, sp, space) >= 0:
        return
    marker = half_a_bomb_marker(w, g, rng)
    if marker >= 0:
        g[L.G_MARKER + marker] -= 1
        log_event(log, EV_HALF_A_BOMB, marker, g[L.G_MARKER + marker])


@borrowing
def bombard(K, p, w, sp, g, rng, hits, log):
    """Bombardment X: as many spaces as the batteries value (and a leader's bonus, up to
    its cap: the Duke of Pópoli's "+1 to Batteries (max. 5)") take X hits each."""
    hit_spaces(K, p, w, sp, g, rng, bombard_spaces(K, g), hits, log)


@borrowing
def bombard_spaces(K, g):
    """The batteries value plus the leaders' bonus, which never raises it above the
    bonus's cap (nor lowers it)."""
    base = disc_value(K, g, L.DISC_BATTERIES)
    bonus, cap = g[L.G_BOMBARD_BONUS], g[L.G_BOMBARD_CAP]
    value = base + bonus
    if bonus > 0 and cap > 0:
        value = max(base, min(value, cap))
    return max(0, value)


@borrowing
def mine_explodes(K, p, w, sp, g, rng, log):
    """Mine explodes: mine-value spaces take reinforcements-value hits; the disc goes to 0."""
    spaces = disc_value(K, g, L.DISC_MINE)
    if spaces == 0:
        return  # at 0 an explosion affects nothing
    g[L.G_MINE_EXPLOSIONS] += 1
    hit_spaces(K, p, w, sp, g, rng, spaces, disc_value(K, g, L.DISC_REINFORCEMENTS), log)
    set_disc(K, g, L.DISC_MINE, 0, log)


# -- advance --------------------------------------------------------------------------------


@borrowing
def reinforce_camps(K, sp, g, log):
    """Advance, step 1: a tile of the reinforcements value on each camp, except razed
    camps and camps holding the tile a combat left there this turn: "If an advance
    occurs later this turn, do not add a Bourbon troop tile to this camp and instead
    advance this resulting Bourbon troop tile" (Combats in Camps)."""
    value = disc_value(K, g, L.DISC_REINFORCEMENTS)
    if value > 0:
        for camp in K[L.K_CAMPS]:
            if not sp[camp, L.SP_RAZED] and sp[camp, L.SP_BOURBON] == 0:
                sp[camp, L.SP_BOURBON] = value
                log_event(log, EV_CAMP_PLACED, camp, value)
    set_disc(K, g, L.DISC_REINFORCEMENTS, 0, log)


@borrowing
def stops_advance(p, sp, space):
    """Barcelonan troops (and, in the full game, an organ-gun) end a tile's move."""
    return troops_in(sp, space) > 0 or (p[L.P_FULL] and sp[space, L.SP_ORGAN_GUNS] > 0)


@borrowing
def march(K, p, sp, start, colours, n_steps):
    """Where a tile starting at ``start`` ends after following ``colours``."""
    arrows = K[L.K_ARROWS]
    here = start
    for step in range(n_steps):
        while True:
            ahead = arrows[here, colours[step]]
            if ahead < 0:
                return here  # no arrow out: the end of the route
            here = ahead
            if stops_advance(p, sp, here):
                return here  # the remaining steps are lost
            eliminate(K, sp, here, L.SP_CANNON, sp[here, L.SP_CANNON])  # undefended cannons
            if sp[here, L.SP_RUBBLE] != L.RUINED:
                break  # an empty ruined space is not counted: keep following the colour
    return here


@borrowing
def starting_space(K, sp, g, space):
    """A tile on a trench camp whose trench tile is forward starts from that trench space.
    (One basic block, so that numba inlines it: see ``barcelonans``; column A stands in
    for spaces off the trench, whose answer is ``space``.)"""
    info = K[L.K_INFO]
    on_trench_camp = (info[space, L.S_TRENCH] >= 0) & (info[space, L.S_PARALLEL] == 0)
    column = max(np.int64(info[space, L.S_TRENCH]), 0)
    position = g[L.G_TRENCH + column]
    forward = K[L.K_TRENCH][column, position]
    return forward if on_trench_camp & (position > 0) else space


@allocating
def advance_bourbons(K, p, w, sp, g, rng, steps, flag_turn, log):
    """Advance X: reinforce the camps, draw a chance card, move every tile along its first
    X colour boxes (all tiles from where they stood), then fight where both sides meet."""
    if steps <= 0:
        return
    reinforce_camps(K, sp, g, log)
    card = draw_chance(g, rng)
    colours = K[L.K_CHANCE_ADVANCE][card]
    n_steps = min(steps, colours.shape[0])
    moving = sp[:, L.SP_BOURBON].copy()
    sp[:, L.SP_BOURBON] = 0
    for space in range(sp.shape[0]):
        if moving[space] > 0:
            start = starting_space(K, sp, g, space)
            end = start if stops_advance(p, sp, start) else march(K, p, sp, start, colours,
                                                                   n_steps)
            sp[end, L.SP_BOURBON] += moving[space]
            log_event(log, EV_ADVANCE, space, end, moving[space])
    combats_after_advance(K, p, w, sp, g, flag_turn, log)


@borrowing
def combats_after_advance(K, p, w, sp, g, flag_turn, log):
    """"A combat takes place in every space where there are both Bourbon troop tiles and
    Barcelonan troops": in a space with a trench tile as if at its camp; never at the
    Military Deputy's Expedition, whose combat "is only resolved when the effect of an
    event or leader card states" so."""
    for space in range(sp.shape[0]):
        if not needs_combat(sp, space) or at_expedition(K, space):
            continue
        column = trench_column_at(K, g, space)
        if column >= 0:
            trench_space_combat(K, p, w, sp, g, column, flag_turn, log)
        else:
            resolve_combat(K, p, w, sp, g, space, flag_turn, log)


# -- trench ---------------------------------------------------------------------------------


@borrowing
def trench_space(K, g, column):
    return K[L.K_TRENCH][column, g[L.G_TRENCH + column]]


@borrowing
def set_trench(K, g, column, position, log):
    log_event(log, EV_TRENCH, column, g[L.G_TRENCH + column], position)
    g[L.G_TRENCH + column] = position


@borrowing
def tile_to_advance(K, p, sp, g):
    """The trench tile a + symbol takes: rearmost that may move, alphabetically first
    (-1: none). Under ``trench_blocked_tile = symbol_lost`` the symbol names one tile,
    the rearmost position's alphabetically first, and is lost if it cannot be taken."""
    if p[L.P_TRENCH_BLOCKED_TILE] == L.TRENCH_SYMBOL_LOST:
        return named_tile_if_free(K, sp, g, True)
    best, best_position = -1, L.N_POSITIONS
    for column in range(L.N_TRENCH):
        position = g[L.G_TRENCH + column]
        if position >= L.N_POSITIONS - 1 or position >= best_position:
            continue
        if troops_in(sp, trench_space(K, g, column)) > 0:
            continue  # it shares a space (its camp, at 0) with troops: it cannot be taken
        best, best_position = column, position
    return best


@borrowing
def named_tile_if_free(K, sp, g, forward):
    """The tile a trench symbol names, read literally: the rearmost position's
    alphabetically first (``forward``) or the most advanced trench position's last;
    -1 if it shares a space with Barcelonan troops or cannot move that way."""
    named, named_position = -1, L.N_POSITIONS if forward else 1
    for column in range(L.N_TRENCH):
        position = g[L.G_TRENCH + column]
        # strictly lower keeps the first among equals; at least as high, the last
        if (forward and position < named_position) or (
                not forward and position >= named_position):
            named, named_position = column, position
    if named < 0 or (forward and named_position >= L.N_POSITIONS - 1):
        return -1
    if troops_in(sp, trench_space(K, g, named)) > 0:
        return -1
    return named


@borrowing
def tile_to_retreat(K, p, sp, g):
    """The trench tile a - symbol takes: most advanced, alphabetically last, among the
    tiles not sharing a space with Barcelonan troops ("If a trench tile is in the same
    space as Barcelonan troops, it cannot be taken to resolve this trench action").
    Under ``trench_blocked_tile = symbol_lost`` the symbol names one tile and is lost if
    that tile cannot be taken."""
    if p[L.P_TRENCH_BLOCKED_TILE] == L.TRENCH_SYMBOL_LOST:
        return named_tile_if_free(K, sp, g, False)
    best, best_position = -1, 0
    for column in range(L.N_TRENCH):
        position = g[L.G_TRENCH + column]
        if position <= 0 or position < best_position:
            continue
        if troops_in(sp, trench_space(K, g, column)) > 0:
            continue
        best, best_position = column, position
    return best


@borrowing
def trench_forward(K, p, w, sp, g, rng, symbols, flag_turn, log):
    """Trench +X (die or card); combats in trench spaces come after all symbols."""
    for _ in range(symbols):
        column = tile_to_advance(K, p, sp, g)
        if column < 0:
            if p[L.P_FULL]:
                move_mine(K, g, 1, log)
            continue
        set_trench(K, g, column, g[L.G_TRENCH + column] + 1, log)
    trench_combats(K, p, w, sp, g, flag_turn, log)


@borrowing
def trench_back(K, p, w, sp, g, symbols, flag_turn, log):
    """Trench -X (cards only): never touches the mine; tiles sharing a space with troops
    stay, and their combats come after all symbols."""
    for _ in range(symbols):
        column = tile_to_retreat(K, p, sp, g)
        if column < 0:
            break
        set_trench(K, g, column, g[L.G_TRENCH + column] - 1, log)
    trench_combats(K, p, w, sp, g, flag_turn, log)


@borrowing
def trench_combats(K, p, w, sp, g, flag_turn, log):
    """The end of a trench action: "the combat in that space must be resolved" wherever
    a trench/camp tile shares a space with Barcelonan troops."""
    for column in range(L.N_TRENCH):
        if troops_in(sp, trench_space(K, g, column)) > 0:
            trench_space_combat(K, p, w, sp, g, column, flag_turn, log)


@borrowing
def place_razed_tile(K, sp, camp):
    """A razed Bourbon camp tile on ``camp``, if one of the 6 is left in the supply."""
    if sp[:, L.SP_RAZED].sum() < K[L.K_SPECIAL][L.SPECIAL_RAZED_TILES]:
        sp[camp, L.SP_RAZED] = 1


@borrowing
def raze_camp(K, p, sp, g, camp, space, log):
    """A Barcelonan win at a camp: razed tile, batteries -1, battery tiles removed
    (batteries -1 each), and in the full game 1 troop freed from CAPTURED."""
    place_razed_tile(K, sp, camp)
    move_batteries(K, g, -1 - sp[camp, L.SP_BATTERY_TILES], log)
    sp[camp, L.SP_BATTERY_TILES] = 0
    if p[L.P_FULL]:
        captured = K[L.K_SPECIAL][L.SPECIAL_CAPTURED]
        field = L.SP_INFANTRY if sp[captured, L.SP_INFANTRY] > 0 else L.SP_CORONELA
        move_troop(sp, captured, space, field, 1)


@borrowing
def trench_space_combat(K, p, w, sp, g, column, flag_turn, log):
    """Troops and a trench tile share a space: fight as at the camp; a Barcelonan win
    pushes the trench tile back 1. At a razed camp "no combat occurs (since no Bourbon
    troops remain there) ... but the trench tile ... does automatically move back one
    position"; tiles that advanced into the space still fight there. At position 0 the
    space is the camp itself ("Combats in Spaces with a Trench Tile")."""
    camp = K[L.K_TRENCH][column, 0]
    space = trench_space(K, g, column)
    if sp[camp, L.SP_RAZED] == 0:
        result = fight_for_camp(K, p, w, sp, g, camp, space, flag_turn, log)
    elif sp[space, L.SP_BOURBON] > 0:
        result = resolve_combat(K, p, w, sp, g, space, flag_turn, log)
    else:
        result = BARCELONANS_WIN
    if result == BARCELONANS_WIN and g[L.G_TRENCH + column] > 0:
        set_trench(K, g, column, g[L.G_TRENCH + column] - 1, log)


@borrowing
def fight_for_camp(K, p, w, sp, g, camp, space, flag_turn, log):
    """Troops in ``space`` (a camp not razed, or its trench tile's space) fight the tile a
    previous combat left at the camp, else "a Bourbon troop tile ... with the same value
    shown by the reinforcements disc", added to any tile already there. Bourbons who win
    go back to the camp; a Barcelonan win razes it; a tie places a razed tile. Returns
    the result, or ``NO_COMBAT`` (no Bourbon troops, rule ``empty_reinforcements``)."""
    tile = sp[camp, L.SP_BOURBON]
    if tile == 0:
        tile = disc_value(K, g, L.DISC_REINFORCEMENTS)
    sp[camp, L.SP_BOURBON] = 0
    sp[space, L.SP_BOURBON] += tile
    if sp[space, L.SP_BOURBON] > 0:
        result = resolve_combat(K, p, w, sp, g, space, flag_turn, log)
    elif p[L.P_EMPTY_REINFORCEMENTS] == L.EMPTY_BARCELONANS_WIN:
        result = BARCELONANS_WIN
    else:
        return NO_COMBAT
    if result == BOURBONS_WIN:
        survivors = sp[space, L.SP_BOURBON]
        sp[space, L.SP_BOURBON] = 0
        sp[camp, L.SP_BOURBON] = survivors  # at position 0, camp and space are one
    elif result == BARCELONANS_WIN:
        raze_camp(K, p, sp, g, camp, space, log)
    elif result == BOTH_LOSE:
        place_razed_tile(K, sp, camp)
    return result


# -- the dice ---------------------------------------------------------------------------------


@borrowing
def resolve_die(K, p, w, sp, g, rng, action, amount, flag_turn, log):
    if action == L.ACT_REINFORCEMENTS:
        move_reinforcements_disc(K, p, w, sp, g, rng, amount, flag_turn, log)
    elif action == L.ACT_BOMBARDMENT:
        bombard(K, p, w, sp, g, rng, amount, log)
    elif action == L.ACT_ADVANCE:
        advance_bourbons(K, p, w, sp, g, rng, amount, flag_turn, log)
    else:
        trench_forward(K, p, w, sp, g, rng, amount, flag_turn, log)
