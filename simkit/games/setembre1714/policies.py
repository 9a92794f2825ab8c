"""Scripted players of the whole game. Each policy function takes its side's row of the
kernels' ``pol`` (``w``: the policy's id at ``layout.W_ID``, then the weights it reads,
``rules.POLICY_ROWS``), so a player reads its own weights and never the other side's.

Every choice the rules leave to a player is made here (never in the rule modules): gun
targets (the zone and the unit), casualties, moves of units, leaders and barricades,
where reinforcements enter, which units the Two Crowns recreate, each zone's combat
action (salvo, assault or none), the use of commanders, withdrawal, retreat and advance
after combat.

Policies per side (the first is the default):
- ``greedy``: reads what every action does. Two Crowns: move towards the nearest
  objective they do not hold (through the Royal Breach once assured, the ground behind it
  priced by the salvos it would take and cannot answer), concentrate stacks
  of 5 next to it, pound the zones they mean to assault, fire salvos from every zone that
  will not assault, assault where the expected gain in VP (13: the zone's VP to both
  sides, the units eliminated, less the lead unit risked; exact two-dice odds,
  commanders included) reaches a threshold that falls in the last turns, reckoned
  against the defender's better answer, stand or withdraw (11.3: +2, no losses, the
  zone lost), as a player at the table sees it on the board (a surrounded defender
  cannot withdraw, a retreat into full zones loses units), and keep garrisons in taken
  objectives. Catalans: garrison every objective, reinforce the threatened ones to 5,
  hold the ground behind the Royal Breach with 3 once it is assured and the enemy near,
  put commanders and the flag where they cover most threatened zones, turn barricades
  towards the enemy, fire every legal salvo, counter-attack objectives the enemy holds at
  good odds (fair ones in the last turns), reckoned against the defender's better answer
  (one that withdraws gives the zone up, and the attacking lead is kept only if it still
  wins with the defender's +2). As defenders both weigh standing against
  withdrawing by the same reckoning (their own units, a zone that is no objective and a
  barricade at what their weights say), and withdraw only when every unit has room and
  none is left alone to be assaulted again.
- ``cautious`` (Two Crowns): the greedy mover, but no assault before the Royal Breach is
  assured and only at better odds; ``fallback`` (Catalans): the greedy defender that
  gives ground (withdraws) unless it holds at least 65% of the time and never
  counter-attacks.
- ``random``: a uniformly random legal choice at every decision.
- ``lookahead`` (both sides): greedy, except at the decisions it searches (its movement
  plans, its assaults, the defender's withdrawals: its ``decides`` weight) by rollouts of
  the rest of the game (``lookahead``).
"""

import numpy as np

from simkit.games.setembre1714_assault.combat_system import attack_value, defence_value
from simkit.layout import codes
from simkit.rng import uniform_int
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .board import (
    BIG,
    assault_allowed,
    barricade_in,
    can_cross,
    can_fight_across,
    count,
    in_contact,
    leader_near,
    salvo_allowed,
    salvo_reaches,
    santa_eulalia_flag,
    terrain_bonus,
    zone_defence,
    zone_limit,
)
from .movement import barricade_can_stand, barricade_side_ok

BOURBON_POLICIES = {
    "greedy": "head for the nearest objective not held, stack 5 next to it, fire at what "
              "it will assault, salvo from every zone that will not assault, assault where "
              "the expected VP gain against the defender's better answer (stand or "
              "withdraw) is high enough (lower as time runs out), garrison what it takes",
    "cautious": "the greedy plan, but no assault before the Royal Breach is assured and "
                "only at good odds (waits for the breach)",
    "random": "a uniformly random legal choice at every decision",
    "lookahead": "greedy, but chooses its movement plan, its assaults and its withdrawals "
                 "by playing rollouts of the rest of the game (the undrawn event cards "
                 "reshuffled)",
}
CATALAN_POLICIES = {
    "greedy": "garrison every objective, reinforce threatened ones to 5, leaders and flag "
              "where they cover most, barricades facing the enemy, every salvo, "
              "counter-attack lost objectives at good odds against the defender's better "
              "answer, withdraw where it pays and "
              "every unit has room",
    "fallback": "the greedy garrison, but give ground (withdraw) from any fight it does "
                "not hold 65% of the time and never counter-attack",
    "random": "a uniformly random legal choice at every decision",
    "lookahead": "greedy, but chooses its movement plan, its counter-attacks and its "
                 "withdrawals by playing rollouts of the rest of the game (the undrawn "
                 "event cards reshuffled)",
}
GREEDY, CAUTIOUS, B_RANDOM, B_LOOKAHEAD = codes(tuple(BOURBON_POLICIES))
C_GREEDY, FALLBACK, C_RANDOM, C_LOOKAHEAD = codes(tuple(CATALAN_POLICIES))
RANDOM, LOOKAHEAD = B_RANDOM, B_LOOKAHEAD
assert (B_RANDOM, B_LOOKAHEAD) == (C_RANDOM, C_LOOKAHEAD)
assert GREEDY == C_GREEDY  # the look-ahead plays its rollouts with greedy's id (lookahead.py)

COMBAT_KINDS = ("none", "pass", "salvo", "assault")
K_NONE, K_PASS, K_SALVO, K_ASSAULT = codes(COMBAT_KINDS)


@borrowing
def stream(side):
    return L.ST_BOURBON_POLICY + side


@borrowing
def is_random(w):
    """Whether ``w``, a side's row of ``pol``, is the random player's."""
    return w[L.W_ID] == RANDOM


@borrowing
def win_chance(delta):
    """P(attacker's d6 - defender's d6 > delta): the attacker wins only if strictly
    higher (11.3)."""
    if delta <= -6:
        return 1.0
    if delta >= 5:
        return 0.0
    wins = 0
    for k in range(delta + 1, 6):
        wins += 6 - abs(k)
    return wins / 36.0


# -- casualties and leads ------------------------------------------------------------------------
@borrowing
def choose_casualty(s, b, w, side, z, rng):
    """The unit ``side`` loses in ``z`` (fire, overstacking): greedy keeps its strongest
    as the lead and loses the weakest; random picks any."""
    pick, best, seen = -1, BIG, 0
    for u in range(b.unit.shape[0]):
        if s[L.S_UNIT_ZONE + u] != z or b.unit[u, L.U_SIDE] != side:
            continue
        seen += 1
        if is_random(w):
            if uniform_int(rng, stream(side), seen) == 0:
                pick = u
        elif b.unit[u, L.U_STRENGTH] < best:
            pick, best = u, b.unit[u, L.U_STRENGTH]
    return pick


@borrowing
def strongest_unit(s, b, w, chooser, owner, z, rng):
    """``owner``'s strongest combat unit in ``z``, as ``chooser`` picks it (random: any,
    drawn from the chooser's stream); -1 if none."""
    pick, best, seen = -1, -1, 0
    for u in range(b.unit.shape[0]):
        if s[L.S_UNIT_ZONE + u] != z or b.unit[u, L.U_SIDE] != owner:
            continue
        seen += 1
        if is_random(w):
            if uniform_int(rng, stream(chooser), seen) == 0:
                pick = u
        elif b.unit[u, L.U_STRENGTH] > best:
            pick, best = u, b.unit[u, L.U_STRENGTH]
    return pick


@borrowing
def choose_lead(s, b, w, side, z, rng):
    """The lead unit of an assault (11.3): the strongest (random: any)."""
    return strongest_unit(s, b, w, side, side, z, rng)


@borrowing
def lead_strength(s, b, side, z):
    best = 0
    for u in range(b.unit.shape[0]):
        if s[L.S_UNIT_ZONE + u] == z and b.unit[u, L.U_SIDE] == side and \
                b.unit[u, L.U_STRENGTH] > best:
            best = b.unit[u, L.U_STRENGTH]
    return best


# -- what a zone is worth ------------------------------------------------------------------------
@borrowing
def threat(s, b, side, z):
    """Enemy combat units next to ``z`` (across sides units may cross)."""
    total = 0
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if can_cross(s, b, z, y):
            total += count(s, 1 - side, y)
    return total


@borrowing
def zone_worth(p, b, z):
    """VP an objective zone is worth (split over its zones), 0 for other zones."""
    o = b.zone[z, L.Z_OBJECTIVE]
    if o < 0:
        return 0.0
    return p[L.P_VP_OBJECTIVE + L.OBJECTIVE_KIND[o]] / b.objective_zones[o]


@borrowing
def last_half_turn(s, p, defender):
    """The game's last half-turn (the Catalans' half of the last turn), with ``defender``
    the Two Crowns: whatever they hold now counts (13)."""
    return defender == L.BOURBONS and s[L.S_TURN] >= p[L.P_TURNS]


@borrowing
def late(s, p):
    """In the last two turns (or the extra turn)."""
    return s[L.S_TURN] >= p[L.P_TURNS] - 1


# -- artillery (9) -------------------------------------------------------------------------------
@borrowing
def choose_gun_target(s, b, p, w, side, g, max_range, rng):
    """The zone gun ``g`` fires at (one enemy combat unit there), or -1 to hold fire."""
    gz = s[L.S_GUN_ZONE + g]
    foe = 1 - side
    pick, best, seen = -1, 0.0, 0
    for t in range(b.zone.shape[0]):
        r = b.pair[L.PAIR_RANGE, gz, t]
        if r < 1 or r > max_range or count(s, foe, t) == 0:
            continue
        seen += 1
        if is_random(w):
            if uniform_int(rng, stream(side), seen) == 0:
                pick = t
            continue
        hit = 0.5 if r == 1 else 1.0 / 3.0
        value = 1.0 + zone_worth(p, b, t) + 0.5 * threat(s, b, foe, t)
        if side == L.CATALANS:
            # units about to assault a Catalan objective are the ones to hit
            for i in range(b.neighbours.shape[1]):
                y = b.neighbours[t, i]
                if y < 0:
                    break
                if count(s, side, y) > 0 and b.zone[y, L.Z_OBJECTIVE] >= 0 and \
                        can_cross(s, b, t, y):
                    value += 2.0 + 0.2 * count(s, foe, t)
        if hit * value > best:
            pick, best = t, hit * value
    return pick


@borrowing
def choose_gun_victim(s, b, w, side, t, rng):
    """The enemy combat unit in ``t`` a gun of ``side`` aims at (9: "the active player
    defines what his target is"): greedy the strongest, the lead of the next assault
    (the Example of artillery fire aims at the strength-5 regulars); random any."""
    return strongest_unit(s, b, w, side, 1 - side, t, rng)


# -- movement (10, 12) ---------------------------------------------------------------------------
@allocating
def prepare_movement(s, b, p, w, side, field, want):
    """Once per movement phase. Two Crowns: ``field`` = zones from the nearest objective
    zone they do not hold. Catalans: ``want`` = units each zone should hold, ``field`` =
    zones from the nearest zone short of them."""
    n = b.zone.shape[0]
    if side == L.BOURBONS:
        for z in range(n):
            goal = b.zone[z, L.Z_OBJECTIVE] >= 0 and count(s, side, z) == 0
            field[z] = 0 if goal else -1
        _spread(s, b, field)
        return
    for z in range(n):  # zones from the nearest enemy combat unit
        field[z] = 0 if count(s, 1 - side, z) > 0 else -1
    _spread(s, b, field)
    reach = p[L.P_MOVEMENT] + 1  # an enemy that can move next to it and assault
    for z in range(n):
        near = 0 <= field[z] <= reach
        if count(s, 1 - side, z) > 0:
            want[z] = 0
        elif b.zone[z, L.Z_OBJECTIVE] >= 0:
            want[z] = p[L.P_STACKING] if near else (2 if b.zone[z, L.Z_OBJECTIVE] == L.PALAU else 1)
        elif near and barricade_in(s, z) >= 0:
            want[z] = 3  # man the barricades in the enemy's way (12)
        elif near and b.zone[z, L.Z_BEHIND_BREACH] and s[L.S_BREACH_TURN] > 0:
            want[z] = 3  # the Royal Breach is open: hold the ground behind it (7)
        elif threat(s, b, side, z) > 0 and count(s, side, z) > 0:
            want[z] = count(s, side, z)  # hold the line where it stands
        else:
            want[z] = 0
        if want[z] > p[L.P_STACKING]:
            want[z] = p[L.P_STACKING]
    for z in range(n):
        field[z] = 0 if want[z] > count(s, side, z) else -1
    _spread(s, b, field)


@allocating
def _spread(s, b, field):
    """Multi-source breadth-first distances from the zones where ``field`` is 0."""
    n = b.zone.shape[0]
    queue = np.empty(n, np.int64)
    tail = 0
    for z in range(n):
        if field[z] == 0:
            queue[tail] = z
            tail += 1
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        for i in range(b.neighbours.shape[1]):
            y = b.neighbours[x, i]
            if y < 0:
                break
            if field[y] < 0 and can_cross(s, b, x, y):
                field[y] = field[x] + 1
                queue[tail] = y
                tail += 1


@borrowing
def _random_zone(rng, side, dist):
    pick, seen = -1, 0
    for z in range(dist.shape[0]):
        if dist[z] >= 0:
            seen += 1
            if uniform_int(rng, stream(side), seen) == 0:
                pick = z
    return pick


@borrowing
def unit_destination(s, b, p, w, side, u, dist, field, want, stop, rng):
    """Where combat unit ``u`` moves (its own zone to stay). ``stop``: the phase's zones
    where a moving unit must stop (``movement.stop_zones``: next to the enemy, or a
    deployment zone), fixed while ``side`` moves."""
    z0 = s[L.S_UNIT_ZONE + u]
    if is_random(w):
        return _random_zone(rng, side, dist)
    if side == L.BOURBONS:
        return _bourbon_destination(s, b, p, w, z0, dist, field, stop)
    return _catalan_destination(s, b, p, z0, dist, field, want)


@borrowing
def _bourbon_destination(s, b, p, w, z0, dist, field, stop):
    side = L.BOURBONS
    if b.zone[z0, L.Z_OBJECTIVE] >= 0:
        keep = 2 if stop[z0] and not b.zone[z0, L.Z_DEPLOYMENT] else 1
        if count(s, side, z0) <= keep:
            return z0  # garrison what was taken
    pick, best = z0, BIG
    for y in range(b.zone.shape[0]):
        if dist[y] < 0 or field[y] < 0:
            continue
        score = _bourbon_score(s, b, p, w, z0, y, field, stop)
        if score < best:
            pick, best = y, score
    return pick


@borrowing
def _bourbon_score(s, b, p, w, z0, y, field, stop):
    """How greedy rates ``y`` for a Two Crowns unit in ``z0`` (lower is better; ``y``
    within reach and on the way to a goal, ``field[y] >= 0``)."""
    side = L.BOURBONS
    here = 0  # join a stack that can assault next to the enemy
    if not b.zone[y, L.Z_DEPLOYMENT] and stop[y]:  # next to the enemy
        here = count(s, side, y) - (1 if y == z0 else 0)
        if here > p[L.P_STACKING] - 1:
            here = p[L.P_STACKING] - 1
    score = field[y] * 10 - 2 * here + (0 if y == z0 else 1)
    if b.zone[y, L.Z_BEHIND_BREACH] and s[L.S_BREACH_TURN] > 0:
        score += w[L.W_UNANSWERED_FIRE] * unanswered_fire(s, b, p, side, y)
    return score


@borrowing
def destination_score(s, b, p, w, side, z0, y, dist, field, want, stop):
    """Greedy's own order of the places a unit of ``side`` in ``z0`` may end its move
    (``dist``: the zones it reaches, ``z0`` itself at 0), lower first, ``BIG`` where
    greedy never sends it: the Two Crowns' score (``_bourbon_destination``); the
    Catalans', the zone short of the most units it wants, a nearer one first, then the
    zone nearest one that is (``_catalan_destination``). The look-ahead's movement plans
    use it to tell which moves greedy values least and where a stack would go next."""
    if dist[y] < 0 or (field[y] < 0 and side == L.BOURBONS):
        return BIG
    if side == L.BOURBONS:
        return _bourbon_score(s, b, p, w, z0, y, field, stop)
    if b.zone[y, L.Z_DEPLOYMENT] and y != z0:
        return BIG
    short = want[y] - count(s, side, y) + (1 if y == z0 else 0)
    if short > 0:
        return -1000 * short + dist[y]
    if field[y] >= 0:
        return 1000 + 10 * field[y] + dist[y]
    return BIG


@borrowing
def unanswered_fire(s, b, p, side, y):
    """Enemy combat units that could fire salvos into ``y`` (11.2) from an adjacent zone
    of higher defence value, at which ``y`` cannot fire back."""
    foe = 1 - side
    total = 0
    for i in range(b.neighbours.shape[1]):
        x = b.neighbours[y, i]
        if x < 0:
            break
        if count(s, foe, x) == 0 or not can_fight_across(b, x, y):
            continue
        if zone_defence(p, b, x) > zone_defence(p, b, y) and salvo_reaches(s, b, p, x, y):
            total += count(s, foe, x)
    return total


@borrowing
def _catalan_destination(s, b, p, z0, dist, field, want):
    side = L.CATALANS
    if count(s, side, z0) <= want[z0] and count(s, side, z0) <= zone_limit(p, b, z0):
        return z0
    pick, best = z0, 0
    for y in range(b.zone.shape[0]):  # the neediest zone within reach
        if dist[y] <= 0 or b.zone[y, L.Z_DEPLOYMENT]:
            continue
        short = want[y] - count(s, side, y)
        if short > best or (short == best and short > 0 and dist[y] < dist[pick]):
            pick, best = y, short
    if best > 0:
        return pick
    if count(s, side, z0) > zone_limit(p, b, z0):
        for y in range(b.zone.shape[0]):  # overstacked: any zone with room
            if dist[y] > 0 and not b.zone[y, L.Z_DEPLOYMENT]:
                return y
    pick = z0
    for y in range(b.zone.shape[0]):  # else closer to one
        if dist[y] > 0 and field[y] >= 0 and not b.zone[y, L.Z_DEPLOYMENT] and \
                (field[pick] < 0 or field[y] < field[pick]):
            pick = y
    return pick


@borrowing
def leader_destination(s, b, p, w, side, k, dist, rng):
    """Where leader ``k`` moves: greedy, to a zone with friendly troops whose
    surroundings it helps most (11.3: +1 in or next to the attacked zone)."""
    if is_random(w):
        return _random_zone(rng, side, dist)
    pick, best = s[L.S_LEADER_ZONE + k], -1.0
    for y in range(b.zone.shape[0]):
        if dist[y] < 0 or count(s, side, y) == 0:
            continue
        score = 0.01 * count(s, side, y)
        for j in range(b.leader.shape[0]):  # one commander (and the flag) a place
            if j != k and s[L.S_LEADER_ZONE + j] == y and b.leader[j, L.L_SIDE] == side and \
                    b.leader[j, L.L_FLAG] == b.leader[k, L.L_FLAG]:
                score -= 50.0
        for i in range(-1, b.neighbours.shape[1]):
            z = y if i < 0 else b.neighbours[y, i]
            if z < 0:
                break
            if i >= 0 and not can_cross(s, b, y, z):
                continue
            if side == L.CATALANS:
                if count(s, side, z) > 0:  # defending: the threatened zones
                    score += threat(s, b, side, z) * (1.0 + zone_worth(p, b, z))
            elif i >= 0 and count(s, 1 - side, z) > 0:  # attacking: next to targets
                score += 1.0 + zone_worth(p, b, z)
        if score > best:
            pick, best = y, score
    return pick


@borrowing
def barricade_choice(s, b, p, w, k, dist, rng, out):
    """Where barricade ``k`` goes and which side it covers (12): ``out`` = zone, faces.
    Greedy: a zone with Catalan troops, facing the open zone with most enemies."""
    side = L.CATALANS
    z0 = s[L.S_BARRICADE_ZONE + k]
    out[0], out[1] = z0, s[L.S_BARRICADE_FACES + k]
    best, seen = -1.0, 0
    for y in range(b.zone.shape[0]):
        if dist[y] < 0 or not barricade_can_stand(s, k, y):
            continue
        for i in range(b.neighbours.shape[1]):
            f = b.neighbours[y, i]
            if f < 0:
                break
            if not barricade_side_ok(s, b, y, f):
                continue
            if is_random(w):
                seen += 1
                if uniform_int(rng, stream(side), seen) == 0:
                    out[0], out[1] = y, f
                continue
            if count(s, side, y) == 0:
                continue
            score = count(s, 1 - side, f) * 10.0 + threat(s, b, side, f) + \
                count(s, side, y) * 0.1 + (0.05 if y == z0 and f == out[1] else 0.0)
            if score > best:
                out[0], out[1], best = y, f, score


# -- reinforcements (10.1) -----------------------------------------------------------------------
@borrowing
def reinforcement_zone(s, b, p, w, side, field, rng):
    """Where an arriving unit of ``side`` is placed. Catalans: an R zone without enemy
    units (-1 if none); Two Crowns: a deployment zone. Greedy: the R zone with the most
    room, the deployment zone nearest the objectives."""
    pick, best, seen = -1, BIG, 0
    for z in range(b.zone.shape[0]):
        ok = b.zone[z, L.Z_REINFORCEMENT] if side == L.CATALANS else b.zone[z, L.Z_DEPLOYMENT]
        if not ok or count(s, 1 - side, z) > 0:
            continue
        seen += 1
        if is_random(w):
            if uniform_int(rng, stream(side), seen) == 0:
                pick = z
            continue
        score = count(s, side, z) * 10 - threat(s, b, side, z)
        if side == L.BOURBONS:
            score = field[z] if field[z] >= 0 else BIG - 1
        if score < best:
            pick, best = z, score
    return pick


@borrowing
def recovery_pick(s, b, w, rng):
    """Which eliminated Bourbon unit is recreated next: greedy the strongest."""
    pick, best, seen = -1, -1, 0
    for u in range(b.unit.shape[0]):
        if b.unit[u, L.U_SIDE] != L.BOURBONS or s[L.S_UNIT_ZONE + u] != L.ELIMINATED:
            continue
        seen += 1
        if is_random(w):
            if uniform_int(rng, stream(L.BOURBONS), seen) == 0:
                pick = u
        elif b.unit[u, L.U_STRENGTH] > best:
            pick, best = u, b.unit[u, L.U_STRENGTH]
    return pick


# -- combat (11) ---------------------------------------------------------------------------------
@borrowing
def assault_delta(s, b, p, side, a, t, commander):
    """Defence minus attack before the dice, both commanders used, no withdrawal."""
    return _delta(s, b, p, side, a, t, commander, lead_strength(s, b, side, a),
                  lead_strength(s, b, 1 - side, t))


@borrowing
def _delta(s, b, p, side, a, t, commander, att_lead, def_lead):
    foe = 1 - side
    cmdr = commander and leader_near(s, b, side, t, 0, False) >= 0
    flag = santa_eulalia_flag(s, b, p, side, a, t) >= 0  # 13
    attack = attack_value(att_lead, count(s, side, a), cmdr, side == L.CATALANS and flag) + \
        s[L.S_EV_ASSAULT]
    dcmdr = leader_near(s, b, foe, t, 0, True) >= 0
    defence = defence_value(def_lead, terrain_bonus(s, b, p, t, a), count(s, foe, t), dcmdr,
                            foe == L.CATALANS and flag)
    return defence - attack


@borrowing
def lead_strengths(s, b, leads):
    """``leads[side * n + z]``: the strongest unit of each side in each zone."""
    n = b.zone.shape[0]
    leads[:] = 0
    for u in range(b.unit.shape[0]):
        z = s[L.S_UNIT_ZONE + u]
        if z >= 0:
            k = b.unit[u, L.U_SIDE] * n + z
            if b.unit[u, L.U_STRENGTH] > leads[k]:
                leads[k] = b.unit[u, L.U_STRENGTH]


@borrowing
def commander_helps(w, delta):
    """Does a commander's +1 change the odds enough to risk him (he dies on a 6)?
    ``delta`` is defence minus attack before the dice with the +1 on the attacker's side
    (an attacking commander's counted, a defending one's not); his +1 moves it by one.
    By default, at least 5 in 36 for the greedy Two Crowns (a difference of -2 to 0) and
    3 in 36 for the others (-4 to +2)."""
    step = win_chance(delta) - win_chance(delta + 1)
    return 36.0 * step >= w[L.W_COMMANDER_STEP] - 1e-6


@borrowing
def go_threshold(s, p, w, side, t_worth):
    """The lowest chance at which the Catalans (greedy, fallback) or the cautious Two
    Crowns assault (in thousandths, from their weights); the greedy Two Crowns weigh the
    gain instead (``assault_gain``). Ids are per side (the Catalans' fallback has
    cautious's), so the side is tested too."""
    if side == L.BOURBONS and w[L.W_ID] == CAUTIOUS:
        return w[L.W_BREACH_ODDS] if s[L.S_BREACH_TURN] > 0 else 2000
    if t_worth > 0:
        return w[L.W_OBJECTIVE_ODDS_LATE if late(s, p) else L.W_OBJECTIVE_ODDS]
    return w[L.W_OTHER_ODDS]


@borrowing
def weighs_gains(w, side):
    """The greedy Two Crowns choose their assaults by the gain (``assault_gain``)."""
    return side == L.BOURBONS and w[L.W_ID] == GREEDY


@borrowing
def may_retreat_into(s, b, side, z, y):
    """Rule 11.3: units leaving ``z`` "have to go to adjacent zones without enemy units on
    them" (across a side units may cross): a Two Crowns deployment zone too."""
    return can_cross(s, b, z, y) and count(s, 1 - side, y) == 0


@borrowing
def retreat_score(s, b, p, side, y, there):
    """Greedy's preference for retreating into ``y`` holding ``there`` of its units: room
    first, then an objective, then friends, then fewer enemies next to it."""
    room = zone_limit(p, b, y) - there
    return (1000 if room > 0 else 0) + (100 if b.zone[y, L.Z_OBJECTIVE] >= 0 else 0) + \
        (10 if there > 0 else 0) - threat(s, b, side, y)


#: the scratch ``retreat_plan`` and ``answer_values`` take: ``2 m + PLAN_EXTRA`` int64,
#: m the neighbours a zone may have (``b.neighbours.shape[1]``)
PLAN_EXTRA = 5


@borrowing
def retreat_plan(s, b, p, side, z, n, work):
    """Where ``n`` units of ``side`` leaving ``z`` would go, one after the other, as the
    greedy retreat sends them (``retreat_destination``), read from the board alone
    (the first ``n - 1`` go where ``n - 1`` units would: the units are alike): ``work[k]``
    the units into the zone's k-th neighbour, then, m being the neighbours a zone may
    have, at ``work[m]`` and ``work[m + 1]`` the units lost to overstacking (6.1) and
    those with nowhere to go (captured, 11.3), at ``work[m + 2]`` 1 if a unit would stand
    alone where it went, at ``work[m + 3]`` and ``work[m + 4]`` the first two for the
    first ``n - 1`` units; ``work[m + 5:]`` holds each neighbour's fixed part of the
    score (-1 where no unit may go)."""
    m = b.neighbours.shape[1]
    for i in range(m + PLAN_EXTRA):
        work[i] = 0
    fixed = m + PLAN_EXTRA
    for i in range(m):
        y = b.neighbours[z, i]
        work[fixed + i] = -BIG
        if y >= 0 and may_retreat_into(s, b, side, z, y):
            work[fixed + i] = retreat_score(s, b, p, side, y, 0)
    for k in range(n):
        if k == n - 1:
            work[m + 3], work[m + 4] = work[m], work[m + 1]
        pick, best = -1, -BIG
        for i in range(m):
            if work[fixed + i] == -BIG:
                continue
            y = b.neighbours[z, i]
            there = count(s, side, y) + work[i]
            score = work[fixed + i] + retreat_score_change(p, b, y, there)
            if score > best:
                pick, best = i, score
        if pick < 0:
            work[m + 1] += 1
        elif count(s, side, b.neighbours[z, pick]) + work[pick] >= \
                zone_limit(p, b, b.neighbours[z, pick]):
            work[m] += 1
        else:
            work[pick] += 1
    for i in range(m):
        if work[i] == 1 and count(s, side, b.neighbours[z, i]) == 0:
            work[m + 2] = 1


@borrowing
def retreat_score_change(p, b, y, there):
    """``retreat_score`` with ``there`` units in ``y`` minus with none: the room and
    friends terms."""
    room = zone_limit(p, b, y) - there
    return (0 if room > 0 else -1000) + (10 if there > 0 else 0)


@borrowing
def answer_values(s, b, p, side, t, delta, gain, lead, unit, work, out):
    """What an assault by ``side`` on ``t`` gains the attacker, in VP at the game's end
    (13), under each answer of the defender (11.3), read from the board: ``out[0]`` if
    it stands (the attacker wins with ``win_chance(delta)``: the defending lead and the
    units its retreat would lose, and the zone; else the attacking lead is lost),
    ``out[1]`` if it withdraws (+2: the zone and the units its retreat would lose for
    sure, the attacking lead lost unless the attacker still wins); ``out[2]`` 1 if it can
    withdraw (a zone to retreat to), ``out[3]`` 1 if its withdrawal loses nobody (every
    unit has room, 6.1), ``out[4]`` 1 if it leaves a unit alone where it went, next to
    the zone the enemy takes. ``delta``: defence minus attack before the dice, without the
    withdrawal; ``gain``: what the zone changing hands is worth to the attacker;
    ``lead``: what the attacking lead unit is worth, ``unit`` each defending unit;
    ``work``: scratch (``PLAN_EXTRA``)."""
    m = b.neighbours.shape[1]
    units = count(s, 1 - side, t)
    win = win_chance(delta)
    retreat_plan(s, b, p, 1 - side, t, units, work)
    out[0] = win * (unit * (1.0 + work[m + 3] + work[m + 4]) + gain) - (1.0 - win) * lead
    keep = win_chance(delta + p[L.P_WITHDRAWAL_BONUS])
    out[1] = gain + unit * work[m] - (1.0 - keep) * lead
    out[2] = 1.0 if units > 0 and work[m + 1] == 0 else 0.0
    out[3] = 1.0 if out[2] > 0 and work[m] == 0 else 0.0
    out[4] = 1.0 if work[m + 2] > 0 else 0.0


@borrowing
def zone_gain(p, b, w, t):
    """What ``t`` changing hands is worth to the side whose weights are ``w``: its VP to
    both sides (13: 2 for a bastion, 4 for a convent, split over its zones; the holder
    scores them, so the swing is twice), else the side's ``zone_value``."""
    worth = zone_worth(p, b, t)
    if worth > 0:
        return 2.0 * worth
    return w[L.W_ZONE_VALUE] / 100.0


@borrowing
def assault_gain(s, b, p, w, side, t, delta, work, out):
    """The greedy Two Crowns' value of assaulting ``t``: the gain against the defender's
    better answer (``answer_values``: an enemy unit at the 1 VP it scores, 13, their own
    lead at their ``unit_value``), as a player at the table reckons it from the board:
    the enemy's answer is whichever leaves the attacker less, a surrounded defender
    cannot withdraw (11.3), and a retreat into a full zone loses units (6.1)."""
    answer_values(s, b, p, side, t, delta, zone_gain(p, b, w, t), w[L.W_UNIT_VALUE] / 100.0,
                  1.0, work, out)
    if out[2] > 0 and out[1] < out[0]:
        return out[1]
    return out[0]


@borrowing
def weighs_answers(w, side):
    """The greedy Catalans (and their look-ahead, which assaults as greedy does) judge an
    assault by its chance against the defender's better answer (``answered_chance``)."""
    return side == L.CATALANS and w[L.W_ID] != FALLBACK


@borrowing
def answered_chance(s, b, p, w, side, t, delta, work, out):
    """The chance that ``side``'s assault on ``t`` takes the zone and keeps its lead unit,
    against the defender's better answer as a player at the table reckons it from the
    board (``answer_values``: the zone at what it is worth to the attacker, an enemy unit
    at the 1 VP it scores, 13, the attacker's lead at its ``unit_value``): whichever
    answer leaves the attacker less. A defender who stands is beaten with
    ``win_chance(delta)``; one who withdraws (11.3: "+2", no losses) gives the zone up,
    and the attacker keeps its lead only if it still wins, ``win_chance(delta + 2)``."""
    answer_values(s, b, p, side, t, delta, zone_gain(p, b, w, t), w[L.W_UNIT_VALUE] / 100.0,
                  1.0, work, out)
    if out[2] > 0 and out[1] < out[0]:
        return win_chance(delta + p[L.P_WITHDRAWAL_BONUS])
    return win_chance(delta)


@borrowing
def assault_score(s, b, p, w, side, a, t, leads, work, values):
    """How the script values assaulting ``t`` from ``a`` (``leads``: ``lead_strengths``):
    the greedy Two Crowns, the gain (``assault_gain``); the others, the chance of taking
    the zone (left in ``values[0]``; the greedy Catalans', against the defender's better
    answer: ``answered_chance``) times one plus the zone's worth."""
    n = b.zone.shape[0]
    delta = _delta(s, b, p, side, a, t, True, leads[side * n + a], leads[(1 - side) * n + t])
    if weighs_gains(w, side):
        return assault_gain(s, b, p, w, side, t, delta, work, values)
    chance = win_chance(delta)
    if weighs_answers(w, side):
        chance = answered_chance(s, b, p, w, side, t, delta, work, values)
    values[0] = chance
    return chance * (1.0 + zone_worth(p, b, t))


@borrowing
def assault_commander(s, b, p, w, side, a, t):
    """Does the attacker add his commander's +1 (11.3), risking him on a 6? Only where
    one is near and his +1 changes the odds enough (``commander_helps``)."""
    if leader_near(s, b, side, t, 0, False) < 0:
        return 0
    return 1 if commander_helps(w, assault_delta(s, b, p, side, a, t, True)) else 0


@allocating
def next_combat(s, b, p, w, side, rng, out):
    """The next combat of ``side``'s combat phase: ``out`` = (kind, attacking zone, target,
    commander used). Each zone acts once (11): the engine marks it."""
    out[0], out[1], out[2], out[3] = K_NONE, -1, -1, 0
    if is_random(w):
        _random_combat(s, b, p, side, rng, out)
        return
    n = b.zone.shape[0]
    leads = np.empty(2 * n, np.int64)
    lead_strengths(s, b, leads)
    work = np.empty(2 * b.neighbours.shape[1] + PLAN_EXTRA, np.int64)
    values = np.empty(5, np.float64)
    gains = weighs_gains(w, side)
    bar = w[L.W_MIN_GAIN_LATE if late(s, p) else L.W_MIN_GAIN] / 100.0
    best_assault, best_salvo = -1.0 * BIG, -1.0
    aa, at, sa, st = -1, -1, -1, -1
    for a in range(n):
        if s[L.S_ACTED + a] or count(s, side, a) == 0 or not in_contact(s, b, a, side):
            continue
        plan_t, plan_score = -1, -1.0 * BIG
        for i in range(b.neighbours.shape[1]):
            t = b.neighbours[a, i]
            if t < 0:
                break
            if not assault_allowed(s, b, side, a, t):
                continue
            worth = zone_worth(p, b, t)
            if side == L.CATALANS and worth == 0 and b.zone[a, L.Z_OBJECTIVE] >= 0:
                continue  # a garrison does not sally out of its objective
            score = assault_score(s, b, p, w, side, a, t, leads, work, values)
            if gains:
                go = score >= bar - 1e-9
            else:
                go = 1000.0 * values[0] >= go_threshold(s, p, w, side, worth)
            if go and score > plan_score:
                plan_t, plan_score = t, score
        if plan_t >= 0:
            if plan_score > best_assault:
                best_assault, aa, at = plan_score, a, plan_t
            continue
        for i in range(b.neighbours.shape[1]):  # a zone that will not assault fires
            t = b.neighbours[a, i]
            if t < 0:
                break
            if not salvo_allowed(s, b, p, side, a, t):
                continue
            score = count(s, side, a) * (1.0 + zone_worth(p, b, t)
                                         + threat(s, b, 1 - side, t))
            if score > best_salvo:
                best_salvo, sa, st = score, a, t
    if sa >= 0:  # salvos first: they weaken the zones the assaults will strike
        out[0], out[1], out[2] = K_SALVO, sa, st
    elif aa >= 0:
        out[0], out[1], out[2] = K_ASSAULT, aa, at
        out[3] = assault_commander(s, b, p, w, side, aa, at)


@borrowing
def _random_combat(s, b, p, side, rng, out):
    n = b.zone.shape[0]
    pick, seen = -1, 0
    for a in range(n):
        if s[L.S_ACTED + a] or count(s, side, a) == 0:
            continue
        for i in range(b.neighbours.shape[1]):
            t = b.neighbours[a, i]
            if t < 0:
                break
            if assault_allowed(s, b, side, a, t) or salvo_allowed(s, b, p, side, a, t):
                seen += 1
                if uniform_int(rng, stream(side), seen) == 0:
                    pick = a
                break
    if pick < 0:
        return
    kind = uniform_int(rng, stream(side), 3)  # pass, salvo, assault
    target, seen = -1, 0
    for i in range(b.neighbours.shape[1]):
        t = b.neighbours[pick, i]
        if t < 0:
            break
        ok = salvo_allowed(s, b, p, side, pick, t) if kind == 1 else \
            assault_allowed(s, b, side, pick, t)
        if kind > 0 and ok:
            seen += 1
            if uniform_int(rng, stream(side), seen) == 0:
                target = t
    out[1] = pick
    if target < 0:
        out[0] = K_PASS
        return
    out[0] = K_SALVO if kind == 1 else K_ASSAULT
    out[2] = target
    out[3] = uniform_int(rng, stream(side), 2)


@borrowing
def defender_commander(s, b, p, w, side, delta, rng):
    """Does the defender use an available commander (risking him on a 6)? ``delta`` is
    defence minus attack with him: greedy uses him where his +1 changes the odds."""
    if is_random(w):
        return uniform_int(rng, stream(side), 2) == 1
    return commander_helps(w, delta - 1)


@borrowing
def withdraws(s, b, p, w, side, t, delta, can_retreat, rng, work, values):
    """Rule 11.3: does the defender declare a withdrawal (+2, no losses, zone lost)?
    ``delta`` is defence minus attack before the dice and the withdrawal. Greedy (and
    cautious) weigh both answers (``answer_values``, the zone at what it is worth to
    them, a barricade there too: 12, a withdrawal loses it; a unit left alone to be
    assaulted again at ``alone_cost``) and withdraw only when every unit has room;
    fallback gives ground whenever it would keep the zone less often than its
    threshold."""
    if not can_retreat:
        return False
    if is_random(w):
        return uniform_int(rng, stream(side), 2) == 1
    if last_half_turn(s, p, side) and b.zone[t, L.Z_OBJECTIVE] >= 0:
        return False  # the zone is lost for sure, and no turn is left to retake it
    if side == L.CATALANS and w[L.W_ID] == FALLBACK:
        holding = 1000.0 * (1.0 - win_chance(delta))  # keeps the zone without withdrawing
        return holding < w[L.W_WITHDRAW_BELOW]
    gain = zone_gain(p, b, w, t)
    if barricade_in(s, t) >= 0:
        gain += w[L.W_BARRICADE_VALUE] / 100.0
    answer_values(s, b, p, 1 - side, t, delta, gain, 1.0, w[L.W_UNIT_VALUE] / 100.0, work,
                  values)
    withdrawal = values[1] + values[4] * w[L.W_ALONE_COST] / 100.0
    return values[3] > 0 and withdrawal < values[0]


@borrowing
def retreat_destination(s, b, p, w, side, z, rng):
    """Where a retreating unit of ``side`` goes from ``z`` (11.3): an adjacent zone
    without enemy units (``may_retreat_into``), greedy's by ``retreat_score``. A full
    zone means the unit is lost to overstacking; -1 when surrounded (captured)."""
    pick, best, seen = -1, -BIG, 0
    for i in range(b.neighbours.shape[1]):
        y = b.neighbours[z, i]
        if y < 0:
            break
        if not may_retreat_into(s, b, side, z, y):
            continue
        if is_random(w):
            seen += 1
            if uniform_int(rng, stream(side), seen) == 0:
                pick = y
            continue
        score = retreat_score(s, b, p, side, y, count(s, side, y))
        if score > best:
            pick, best = y, score
    return pick


@borrowing
def advance_extra(s, b, p, w, side, a, t, available, rng):
    """How many more units follow the first into the taken zone (11.3)."""
    if available <= 0:
        return 0
    if is_random(w):
        return uniform_int(rng, stream(side), available + 1)
    keep = 0
    if b.zone[a, L.Z_OBJECTIVE] >= 0 and not b.zone[a, L.Z_DEPLOYMENT]:
        keep = 2 if side == L.CATALANS else 1
    n = count(s, side, a) - 1 - keep  # the first unit is already moving
    if n > available:
        n = available
    return n if n > 0 else 0
