"""Barcelonan actions (rulebook "5. Barcelonan Actions", first game and full game: Movement,
Marker, Artillery and Defense Actions and their AP tables).

Each action is one function that checks nothing about AP: ``action_cost`` says what it
costs, the policy decides what to buy, ``pay`` spends the AP. Costs come from
data/actions.toml: the first-game cost, or in the full game the priority cost when the
played card's Twenty-Fourth War Council names the action's group (or "all", or card 39's
leader, or the "Always Priority Cost" rule), else the general cost.

The small rule tests that the players call in their scans (``action_cost``, ``available``,
``can_step``) are written without early returns or short-circuits: a function of one
basic block lets numba drop the reference counting of the component tuple ``K`` and
inline it, while a call that passes ``K`` costs about 0.3 microseconds.

Readings the rulebook leaves open: "Repair 1 cannon" (never defined) brings a cannon from
WOUNDED to a Barcelona space; cannons move and fire between spaces sharing a side (the
Rambla counts for moves, as for troops); barricades and bastion defenses come from a
supply of 10 each.
"""


from simkit.eventlog import log_event
from simkit.unmanaged import borrowing

from . import layout as L
from .bourbons import fight_for_camp, heal, set_disc, trench_space_combat
from .combat import BARCELONANS_WIN, resolve_combat
from .events import EV_ACTION
from .pieces import (
    defense_tiles_on_board,
    eliminate,
    is_barcelona,
    marker_value,
    remove_undefended_cannons,
    trench_column_at,
    troops_in,
)

SUPPLY_DEFENSE = 10
SUPPLY_BARRICADES = 10
FIRE_RANGE = 4
FIRE_RANGE_MONTJUIC = 6



@borrowing
def action_cost(K, p, g, action):
    costs = K[L.K_ACTION_COSTS][action]
    council, group = g[L.G_WAR_COUNCIL], costs[L.COST_GROUP]
    priority = ((p[L.P_ALWAYS_PRIORITY] != 0) | (g[L.G_ALL_PRIORITY] != 0)
                | (council == L.WAR_ALL) | (council == group)
                | (((g[L.G_PRIORITY_MASK] >> group) & 1) == 1))
    full = costs[L.COST_PRIORITY] if priority else costs[L.COST_GENERAL]
    return full if p[L.P_FULL] else costs[L.COST_FIRST]


@borrowing
def available(K, p, g, action):
    """The action exists in this game, belongs to the group the AP are granted for (if
    any), and its cost fits the AP left."""
    group = g[L.G_AP_GROUP]
    in_group = (group < 0) | (K[L.K_ACTION_COSTS][action, L.COST_GROUP] == group)
    cost = action_cost(K, p, g, action)
    return in_group & (cost > 0) & (cost <= g[L.G_SEAT_AP])


@borrowing
def pay(K, p, g, action, a, b, log):
    g[L.G_SEAT_AP] -= action_cost(K, p, g, action)
    log_event(log, EV_ACTION, action, a, b)


# -- movement ---------------------------------------------------------------------------------


@borrowing
def can_step(K, sp, source, target):
    """Troops may step between spaces sharing a side or both touching the Rambla; camps
    are entered and left through the 2 spaces their arrows point to."""
    return (source != target) & (K[L.K_MOVE_ADJ][source, target] == 1)


@borrowing
def move_troops(K, p, w, sp, g, source, target, coronela, infantry, log):
    """Move troops one step, then fight whatever the target holds."""
    sp[source, L.SP_CORONELA] -= coronela
    sp[source, L.SP_INFANTRY] -= infantry
    sp[target, L.SP_CORONELA] += coronela
    sp[target, L.SP_INFANTRY] += infantry
    remove_undefended_cannons(K, sp, source)
    enter_space(K, p, w, sp, g, target, log)


@borrowing
def move_one_troop_twice(K, p, w, sp, g, source, middle, target, field, log):
    """The other form of the move action: a single troop makes up to 2 consecutive
    moves (Example 11: 15 -> 21 -> 22). A fight on the first step ends the move."""
    fights = (sp[middle, L.SP_BOURBON] > 0 or trench_column_at(K, g, middle) >= 0
              or K[L.K_INFO][middle, L.S_KIND] == L.KIND_CAMP)
    coronela = 1 if field == L.SP_CORONELA else 0
    move_troops(K, p, w, sp, g, source, middle, coronela, 1 - coronela, log)
    if not fights and sp[middle, field] > 0:
        move_troops(K, p, w, sp, g, middle, target, coronela, 1 - coronela, log)


@borrowing
def enter_space(K, p, w, sp, g, space, log):
    """Troops arrived: fight in a camp, a trench tile's space or a space with Bourbons;
    Bourbon battery tiles go when troops win there or stand there undefended."""
    flag_turn = g[L.G_FLAG_TURN] == 1
    if K[L.K_INFO][space, L.S_KIND] == L.KIND_CAMP:
        camp_combat(K, p, w, sp, g, space, log)
        return
    column = trench_column_at(K, g, space)
    if column >= 0:
        trench_space_combat(K, p, w, sp, g, column, flag_turn, log)
        return
    result = BARCELONANS_WIN
    if sp[space, L.SP_BOURBON] > 0:
        result = resolve_combat(K, p, w, sp, g, space, flag_turn, log)
    if result == BARCELONANS_WIN and sp[space, L.SP_BATTERY_TILES] > 0:
        set_disc(K, g, L.DISC_BATTERIES,
                 g[L.G_DISC + L.DISC_BATTERIES] - sp[space, L.SP_BATTERY_TILES], log)
        sp[space, L.SP_BATTERY_TILES] = 0


@borrowing
def camp_combat(K, p, w, sp, g, camp, log):
    """Troops entering a camp fight a tile left there this turn or a new tile of the
    reinforcements value; a win razes the camp (a razed camp means no fight)."""
    if not sp[camp, L.SP_RAZED]:
        fight_for_camp(K, p, w, sp, g, camp, camp, False, log)


# -- markers, healing, worm ------------------------------------------------------------------


@borrowing
def troop_on_marker(K, sp, marker):
    """A troop stands on one of the marker's spaces (either hospital counts)."""
    info = K[L.K_INFO]
    for space in range(sp.shape[0]):
        if info[space, L.S_MARKER] == marker and troops_in(sp, space) > 0:
            return True
    return False


@borrowing
def improve_action(K, sp, marker):
    return L.A_IMPROVE_PRESENT if troop_on_marker(K, sp, marker) else L.A_IMPROVE_ABSENT


@borrowing
def marker_at_best(K, g, marker):
    values = K[L.K_MARKER_VALUES][marker]
    return values[g[L.G_MARKER + marker]] == values[values.shape[0] - 1]


@borrowing
def improve_marker(K, g, marker):
    """One step clockwise (up the dial)."""
    if not marker_at_best(K, g, marker):
        g[L.G_MARKER + marker] += 1


@borrowing
def healing(K, p, w, sp, g, log):
    heal(K, p, w, sp, g, g[L.G_FLAG_TURN] == 1, log)


@borrowing
def send_worm(K, sp, g, space, log):
    """Counter-mine: a troop in Barcelona goes to WOUNDED and the mine disc to 0."""
    field = L.SP_CORONELA if sp[space, L.SP_CORONELA] > 0 else L.SP_INFANTRY
    eliminate(K, sp, space, field, 1)
    set_disc(K, g, L.DISC_MINE, 0, log)


# -- artillery --------------------------------------------------------------------------------


@borrowing
def can_fire(K, sp, source, target):
    """An unfired cannon at ``source`` can reach ``target``: a space sharing a side, or
    from a bastion an outside space within 4 (Montjuïc 6) along a Bourbon path."""
    if sp[source, L.SP_CANNON] - sp[source, L.SP_CANNON_FIRED] <= 0:
        return False
    if K[L.K_ADJ][source, target] == 1:
        return True
    distance = K[L.K_FIRE_DISTANCE][source, target]
    reach = FIRE_RANGE_MONTJUIC if source == K[L.K_SPECIAL][L.SPECIAL_MONTJUIC] else FIRE_RANGE
    return 0 < distance <= reach


@borrowing
def fire_cannon(K, sp, g, source, target):
    """The shot removes Gunpowder Store (+1 Flag holder) Bourbon value; camps are immune."""
    sp[source, L.SP_CANNON_FIRED] += 1
    if K[L.K_INFO][target, L.S_KIND] == L.KIND_CAMP:
        return
    shot = marker_value(K, g, L.MARKER_GUNPOWDER_STORE) + g[L.G_FLAG_TURN]
    sp[target, L.SP_BOURBON] = max(0, sp[target, L.SP_BOURBON] - shot)


@borrowing
def move_cannon(sp, source, target):
    sp[source, L.SP_CANNON] -= 1
    sp[target, L.SP_CANNON] += 1
    if sp[source, L.SP_CANNON_FIRED] > sp[source, L.SP_CANNON]:
        sp[source, L.SP_CANNON_FIRED] -= 1  # a cannon that fired keeps its shot spent
        sp[target, L.SP_CANNON_FIRED] += 1


@borrowing
def repair_cannon(K, sp, target):
    wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
    sp[wounded, L.SP_CANNON] -= 1
    sp[target, L.SP_CANNON] += 1


# -- defense ----------------------------------------------------------------------------------


@borrowing
def can_remove_rubble(K, sp, space):
    """The tile must be in a space with a troop or sharing a side with one."""
    if sp[space, L.SP_RUBBLE] == L.RUBBLE_NONE:
        return False
    if troops_in(sp, space) > 0:
        return True
    adj = K[L.K_ADJ]
    for other in range(sp.shape[0]):
        if adj[space, other] and troops_in(sp, other) > 0:
            return True
    return False


@borrowing
def remove_rubble(sp, g, space):
    sp[space, L.SP_RUBBLE] = L.RUBBLE_NONE
    g[L.G_RUBBLE_SUPPLY] += 1


@borrowing
def can_add_bastion_defense(K, sp, space):
    if K[L.K_INFO][space, L.S_KIND] != L.KIND_BASTION or sp[space, L.SP_DEFENSE] >= 2:
        return False
    return sp[space, L.SP_DEFENSE] == 1 or defense_tiles_on_board(sp) < SUPPLY_DEFENSE


@borrowing
def bastion_defense_fits(K, sp, space, tiles_left):
    """``can_add_bastion_defense`` for a scan of every space: ``tiles_left`` (a new +1
    tile is in the supply) is counted once for the scan, not once per space."""
    if K[L.K_INFO][space, L.S_KIND] != L.KIND_BASTION or sp[space, L.SP_DEFENSE] >= 2:
        return False
    return sp[space, L.SP_DEFENSE] == 1 or tiles_left


@borrowing
def add_bastion_defense(sp, space):
    sp[space, L.SP_DEFENSE] += 1  # a new +1 tile, or the +1 flipped to +2


@borrowing
def can_add_barricade(K, sp, space):
    return is_barcelona(K, space) and sp[:, L.SP_BARRICADES].sum() < SUPPLY_BARRICADES


@borrowing
def barricades_left(sp):
    """A barricade is left in the supply (``can_add_barricade`` for every Barcelona space)."""
    return sp[:, L.SP_BARRICADES].sum() < SUPPLY_BARRICADES
