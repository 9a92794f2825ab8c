"""The map and its pieces during the whole game: who is where, what a side may cross, who
holds what (rulebook 2.2, 6, 7, 11.1, 12, 13). Small njit queries and the few state
changes every other rule module shares (placing and eliminating pieces, captures).

State offsets are in ``layout`` (``L``); the static map is a ``components.Board``.
"""

from simkit.eventlog import log_event
from simkit.games.setembre1714_assault.combat_system import salvo_permitted
from simkit.unmanaged import borrowing

from . import layout as L
from .events import (
    EV_BARRICADE_LOST,
    EV_GUN_CAPTURED,
    EV_LEADER_CAPTURED,
    EV_LEADER_FALLS_BACK,
    EV_UNIT_LOST,
)

BIG = 1 << 20  # no stacking limit (a deployment zone, 6.2)


@borrowing
def n_zones(b):
    return b.zone.shape[0]


@borrowing
def count(s, side, z):
    """Combat units of ``side`` in zone ``z`` (leaders, guns and barricades never count)."""
    return s[L.S_COUNT + side * L.MAX_ZONES + z]


@borrowing
def zone_limit(p, b, z):
    """Rule 6.1/6.2: the stacking limit, none in a Bourbon deployment zone."""
    return BIG if b.zone[z, L.Z_DEPLOYMENT] else p[L.P_STACKING]


@borrowing
def can_cross(s, b, a, z):
    """Rule 2.2.1/7: may a unit go from ``a`` to ``z``? Sides without a line, blue lines
    and breaches, the Royal Breach once assured; never a red line."""
    line = b.pair[L.PAIR_LINE, a, z]
    if line == L.LINE_NONE or line == L.LINE_BLUE or line == L.LINE_BREACH:
        return True
    return line == L.LINE_ROYAL and s[L.S_BREACH_TURN] > 0


@borrowing
def can_fight_across(b, a, z):
    """Rule 2.2.1/7/11: may ``a`` salvo into ``z``? Any side but a red line ("there cannot
    be movement or combat through them, apart from artillery fire"): the Royal Breach
    too before it is assured, which 7 closes only to crossing ("None of the units can
    cross the Royal Breach until it has been assured")."""
    line = b.pair[L.PAIR_LINE, a, z]
    return line != L.NO_SIDE and line != L.LINE_RED


@borrowing
def next_to_enemy(s, b, z, side):
    """Is ``z`` adjacent (across a side units may cross) to enemy combat units?"""
    foe = 1 - side
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if count(s, foe, y) > 0 and can_cross(s, b, z, y):
            return True
    return False


@borrowing
def in_contact(s, b, z, side):
    """Can ``side`` in ``z`` fight enemy combat units next to it (a salvo, 11.2, or an
    assault, 11.3; ``can_fight_across``)?"""
    foe = 1 - side
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if count(s, foe, y) > 0 and can_fight_across(b, z, y):
            return True
    return False


@borrowing
def bordering_enemy(s, b, p, z, side):
    """Rule 10: is ``z`` "adjacent to enemy combat units"? Under the reading
    ``stop_across_walls = yes`` any bordering zone counts, a red line or the closed Royal
    Breach between them or not; under ``no`` only across a side units may cross."""
    if not p[L.P_STOP_ACROSS_WALLS]:
        return next_to_enemy(s, b, z, side)
    foe = 1 - side
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if count(s, foe, y) > 0:
            return True
    return False


@borrowing
def zone_defence(p, b, z):
    """Rule 11.1: the defence value of a zone from its colour."""
    return p[L.P_ZONE_DEFENCE + b.zone[z, L.Z_COLOUR]]


@borrowing
def barricade_in(s, z):
    """The barricade standing in zone ``z`` (at most one, 12), or -1."""
    for k in range(L.MAX_BARRICADES):
        if s[L.S_BARRICADE_ZONE + k] == z:
            return k
    return -1


@borrowing
def barricade_faces(s, z, attacker_zone):
    """Does a barricade in ``z`` cover the side towards ``attacker_zone``? (12)"""
    k = barricade_in(s, z)
    return k >= 0 and s[L.S_BARRICADE_FACES + k] == attacker_zone


@borrowing
def open_ground(b, z):
    """Ochre or green: where barricades move and stand (12)."""
    return b.zone[z, L.Z_COLOUR] == L.OCHRE or b.zone[z, L.Z_COLOUR] == L.GREEN


@borrowing
def holds(s, b, side, objective):
    """Rule 13: a side holds an objective when its combat units stand in every zone of it
    (a convent of two zones needs both)."""
    for z in range(n_zones(b)):
        if b.zone[z, L.Z_OBJECTIVE] == objective and count(s, side, z) == 0:
            return False
    return True


@borrowing
def units_on_map(s, b, side):
    total = 0
    for z in range(n_zones(b)):
        total += count(s, side, z)
    return total


@borrowing
def place_unit(s, b, u, z):
    s[L.S_UNIT_ZONE + u] = z
    s[L.S_COUNT + b.unit[u, L.U_SIDE] * L.MAX_ZONES + z] += 1


@borrowing
def lift_unit(s, b, u):
    z = s[L.S_UNIT_ZONE + u]
    s[L.S_COUNT + b.unit[u, L.U_SIDE] * L.MAX_ZONES + z] -= 1
    return z


@borrowing
def eliminate_unit(s, b, u, cause, log):
    """A combat unit is eliminated: off the map, one more VP for the enemy (13)."""
    z = lift_unit(s, b, u)
    s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    s[L.S_UNITS_LOST + b.unit[u, L.U_SIDE]] += 1
    log_event(log, EV_UNIT_LOST, u, z, cause)


@borrowing
def eliminate_leader(s, b, k, log):
    """A leader is eliminated (a 6 in an assault, or captured when surrounded)."""
    z = s[L.S_LEADER_ZONE + k]
    s[L.S_LEADER_ZONE + k] = L.ELIMINATED
    if b.leader[k, L.L_FLAG]:
        s[L.S_FLAG_LOST] = 1
    else:
        s[L.S_LEADERS_LOST + b.leader[k, L.L_SIDE]] += 1
    log_event(log, EV_LEADER_CAPTURED, k, z)


@borrowing
def leader_refuge(s, b, side, z):
    """Where a leader of ``side`` leaving ``z`` goes: an adjacent zone with friendly combat
    units, else one without enemy units (a Two Crowns deployment zone too, 11.3); -1 when
    surrounded (11.3). The flag falls back the same way: enemy units entering its zone
    make it retreat, and 13 loses it "during a retreat, if it is surrounded by enemies
    (in the same manner that the rest of units)"."""
    best = -1
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if not can_cross(s, b, z, y) or count(s, 1 - side, y) > 0:
            continue
        if count(s, side, y) > 0:
            return y
        if best < 0:
            best = y
    return best


@borrowing
def enemy_enters(s, b, side, z, log):
    """Rule 9/11.3/12: combat units of ``side`` enter ``z``: enemy guns and barricades
    there are captured; enemy leaders left without troops fall back, or are captured
    when surrounded."""
    foe = 1 - side
    for g in range(b.gun.shape[0]):
        if s[L.S_GUN_ZONE + g] == z and b.gun[g, L.G_SIDE] == foe:
            s[L.S_GUN_ZONE + g] = L.ELIMINATED
            s[L.S_GUNS_LOST + foe] += 1
            log_event(log, EV_GUN_CAPTURED, g, z)
    if foe == L.CATALANS:
        k = barricade_in(s, z)
        if k >= 0:
            remove_barricade(s, k, log)
    for k in range(b.leader.shape[0]):
        if s[L.S_LEADER_ZONE + k] == z and b.leader[k, L.L_SIDE] == foe:
            y = leader_refuge(s, b, foe, z)
            if y < 0:
                eliminate_leader(s, b, k, log)
            else:
                s[L.S_LEADER_ZONE + k] = y
                log_event(log, EV_LEADER_FALLS_BACK, k, z, y)


@borrowing
def remove_barricade(s, k, log):
    """A barricade that must retreat or is overrun is eliminated (12)."""
    log_event(log, EV_BARRICADE_LOST, k, s[L.S_BARRICADE_ZONE + k])
    s[L.S_BARRICADE_ZONE + k] = L.ELIMINATED
    s[L.S_BARRICADES_LOST] += 1


@borrowing
def leader_near(s, b, side, z, flag, same_zone_ok):
    """A leader of ``side`` (the flag if ``flag``, else a commander) in a zone adjacent to
    ``z`` (or in ``z`` itself if ``same_zone_ok``), or -1 (11.3, 13)."""
    for k in range(b.leader.shape[0]):
        if b.leader[k, L.L_SIDE] != side or b.leader[k, L.L_FLAG] != flag:
            continue
        y = s[L.S_LEADER_ZONE + k]
        if y < 0:
            continue
        if y == z:
            if same_zone_ok:
                return k
        elif can_cross(s, b, z, y):
            return k
    return -1


@borrowing
def strongest_unit(s, b, side, z):
    """The strongest combat unit of ``side`` in ``z`` (the lead unit), or -1."""
    best, best_str = -1, -1
    for u in range(b.unit.shape[0]):
        if s[L.S_UNIT_ZONE + u] == z and b.unit[u, L.U_SIDE] == side and \
                b.unit[u, L.U_STRENGTH] > best_str:
            best, best_str = u, b.unit[u, L.U_STRENGTH]
    return best


@borrowing
def count_action(s, side, action, n=1):
    s[L.S_ACTIONS + side * L.N_ACTIONS + action] += n


@borrowing
def count_blunder(s, side, blunder, n=1):
    s[L.S_BLUNDERS + side * L.N_BLUNDERS + blunder] += n


@borrowing
def terrain_bonus(s, b, p, t, a):
    """Rule 11.3/12: the defender's terrain in ``t`` against an assault from ``a``: the
    zone's defence value, or the blue-line bonus, or the barricade bonus (the best)."""
    bonus = zone_defence(p, b, t)
    if b.pair[L.PAIR_BLUE, t, a] and p[L.P_LINE_BONUS] > bonus:
        bonus = p[L.P_LINE_BONUS]
    if barricade_faces(s, t, a) and p[L.P_BARRICADE_BONUS] > bonus:
        bonus = p[L.P_BARRICADE_BONUS]
    return bonus


@borrowing
def assault_allowed(s, b, side, a, t):
    """Rule 11.3: from a zone with units into an adjacent zone with enemy combat units,
    across a side units may cross."""
    return count(s, side, a) > 0 and count(s, 1 - side, t) > 0 and can_cross(s, b, a, t)


@borrowing
def salvo_allowed(s, b, p, side, a, t):
    """Rule 11.2: from a zone with units at an adjacent zone with enemy combat units, not
    across a red line (the closed Royal Breach may be fired through, 7:
    ``can_fight_across``), of equal or lower defence value; blocked by a blue line or a
    barricade covering the side of contact in an ochre or green target."""
    return count(s, side, a) > 0 and count(s, 1 - side, t) > 0 and \
        can_fight_across(b, a, t) and salvo_reaches(s, b, p, a, t)


@borrowing
def santa_eulalia_flag(s, b, p, side, a, t):
    """Rule 13 (reading ``flag_in_catalan_assaults``): the flag "affects combat exactly as
    a commander, contributing its bonus in any assault started at the zone where it is
    placed, or at any adjacent zone": defending, in the attacked zone ``t`` or next to
    it; in a Catalan assault from ``a``, next to ``t`` (as an attacker's commander,
    11.3), or, under ``at_or_next_to_attacking_zone``, in ``a`` or next to it; -1 if it
    does not count."""
    if side == L.BOURBONS:
        return leader_near(s, b, L.CATALANS, t, 1, True)
    if p[L.P_FLAG_AT_ATTACKING_ZONE]:
        return leader_near(s, b, L.CATALANS, a, 1, True)
    return leader_near(s, b, L.CATALANS, t, 1, False)


@borrowing
def salvo_reaches(s, b, p, a, t):
    """Whether a salvo from ``a`` may strike the adjacent zone ``t`` (11.2), whoever stands
    in them: ``t``'s defence value no higher than ``a``'s, and no blue line or barricade
    covering the side of contact in an ochre or green ``t``."""
    return salvo_permitted(zone_defence(p, b, t), zone_defence(p, b, a), open_ground(b, t),
                           b.pair[L.PAIR_BLUE, t, a] or barricade_faces(s, t, a))
