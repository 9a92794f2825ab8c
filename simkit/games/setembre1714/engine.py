"""The whole game of 11 de Setembre as njit kernels: set-up (4), the sequence of play (5),
reinforcements (10.1), random events (8), movement (10, 12), stacking (6) and victory (13).

A turn: the Two Crowns' half (Royal Breach check, event, artillery, movement with
reinforcements, combat, discard), then the Catalan half (the same without the breach
check), then the turn's end (automatic victory; after the last turn the VP count, and
one more turn on a draw). Fire and combat are in ``combat``, on the combat system's
rule functions (``setembre1714_assault.combat_system``), which also checks the Royal
Breach.
"""

import numpy as np

from simkit.checks import at_game, checking, failed
from simkit.eventlog import log_event
from simkit.games.setembre1714_assault.combat_system import royal_breach_check
from simkit.rng import game_streams, restart, shuffle
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import layout as L
from . import policies as POL
from .board import (
    count,
    count_action,
    enemy_enters,
    holds,
    place_unit,
    units_on_map,
    zone_limit,
)
from .checks import check_state, check_victory
from .combat import (
    artillery_phase,
    begin_combat_phase,
    carry_out_combat,
    fight_answered,
    lose_units,
    next_combat,
)
from .events import (
    CAUSE_OVERSTACK,
    EV_AUTOMATIC,
    EV_BREACH_BY_EVENT,
    EV_CARD,
    EV_EXTRA_TURN,
    EV_HALF,
    EV_LEADER_ENTERS,
    EV_RECOVERY,
    EV_REINFORCE,
    EV_TURN,
    EV_TURN_END,
    EV_VP,
)
from .movement import (
    PIECE_BARRICADE,
    PIECE_LEADER,
    PIECE_UNIT,
    move_leader,
    move_unit,
    place_barricade,
    reachable,
    stop_zones,
)


@allocating
def set_up(rng, s, b, p):
    """Rule 4: the Catalans deploy, then the Two Crowns; leaders, guns and barricades
    take their places; the event deck is shuffled (its own stream, once)."""
    s[:] = 0
    for u in range(b.unit.shape[0]):
        s[L.S_UNIT_ZONE + u] = L.NOT_ARRIVED
        if b.unit[u, L.U_START] >= 0:
            place_unit(s, b, u, b.unit[u, L.U_START])
    for k in range(L.MAX_LEADERS):
        s[L.S_LEADER_ZONE + k] = L.NOT_ARRIVED
    for k in range(b.leader.shape[0]):
        s[L.S_LEADER_ZONE + k] = b.leader[k, L.L_START]
    for g in range(L.MAX_GUNS):
        s[L.S_GUN_ZONE + g] = L.ELIMINATED
    for g in range(b.gun.shape[0]):
        s[L.S_GUN_ZONE + g] = b.gun[g, L.G_START]
    for k in range(L.MAX_BARRICADES):
        s[L.S_BARRICADE_ZONE + k] = L.ELIMINATED
        s[L.S_BARRICADE_FACES + k] = L.ELIMINATED
    if p[L.P_BARRICADES]:
        for k in range(b.barricade.shape[0]):
            s[L.S_BARRICADE_ZONE + k] = b.barricade[k, L.BR_START]
            s[L.S_BARRICADE_FACES + k] = b.barricade[k, L.BR_FACES]
    n_cards = b.card.shape[0]
    deck = np.arange(n_cards)
    restart(rng, L.ST_EVENTS, 0)
    shuffle(rng, L.ST_EVENTS, deck)
    s[L.S_DECK:L.S_DECK + n_cards] = deck
    s[L.S_AT] = L.AT_TURN  # the first turn begins (S_TURN is 0 until it does)
    s[L.S_LAST_TURN] = p[L.P_TURNS]
    s[L.S_END_REASON] = -1


@allocating
def restart_half_turn(rng, side, turn):
    """Each half-turn's dice and choices come from sub-streams keyed on the half-turn, so
    a variant that rolls one die more now rolls the same dice later."""
    key = 2 * turn + side
    for purpose in range(L.ST_ARTILLERY, L.ST_COMMANDER + 1):
        restart(rng, purpose, key)
    restart(rng, POL.stream(side), key)


@allocating
def reshuffle_deck(rng, s, b, key):
    """Reading ``exhausted_deck = reshuffle``: every discarded card back in the deck,
    shuffled on the events stream keyed on the half-turn (set-up used key 0)."""
    n_cards = b.card.shape[0]
    deck = np.arange(n_cards)
    restart(rng, L.ST_EVENTS, key)
    shuffle(rng, L.ST_EVENTS, deck)
    s[L.S_DECK:L.S_DECK + n_cards] = deck
    s[L.S_DECK_TOP] = 0


@borrowing
def breach_card_rank(b, card):
    """How many breach cards events.toml lists before ``card`` (the knob breach_cards
    keeps the first ones)."""
    rank = 0
    for k in range(card):
        rank += b.card[k, L.BOURBONS, L.C_EFFECT] == L.EFF_BREACH
    return rank


@allocating
def event_phase(rng, s, b, p, pol, side, turn, log):
    """Rule 8: draw the top card; its effect lasts the drawing side's half-turn."""
    s[L.S_EV_MOVEMENT] = 0
    s[L.S_EV_ARTILLERY] = 1
    s[L.S_EV_SALVO] = 0
    s[L.S_EV_ASSAULT] = 0
    if not p[L.P_EVENTS]:
        return 0
    if s[L.S_DECK_TOP] >= b.card.shape[0]:
        if not p[L.P_DECK_RESHUFFLED]:
            return 0  # the deck is spent: every card was removed from the game (5.1.6)
        reshuffle_deck(rng, s, b, 2 * turn + side)
    card = s[L.S_DECK + s[L.S_DECK_TOP]]
    s[L.S_DECK_TOP] += 1
    effect, value = b.card[card, side, L.C_EFFECT], b.card[card, side, L.C_VALUE]
    log_event(log, EV_CARD, card, side, value)
    if effect == L.EFF_BREACH and breach_card_rank(b, card) >= p[L.P_BREACH_CARDS]:
        effect = L.EFF_NONE  # the knob breach_cards: a breach card beyond it is a blank
    if effect == L.EFF_BREACH and s[L.S_BREACH_TURN] == 0 and p[L.P_BREACH_ROLL] <= 6:
        s[L.S_BREACH_TURN] = turn  # breach_roll = 7 is "never": no card assures it either
        log_event(log, EV_BREACH_BY_EVENT, turn)
    elif effect == L.EFF_NO_ARTILLERY:
        s[L.S_EV_ARTILLERY] = 0
    elif effect == L.EFF_DOUBLE_ARTILLERY:
        s[L.S_EV_ARTILLERY] = 2
    elif effect == L.EFF_MOVEMENT:
        s[L.S_EV_MOVEMENT] = value
    elif effect == L.EFF_SALVO:
        s[L.S_EV_SALVO] = value
    elif effect == L.EFF_ASSAULT:
        s[L.S_EV_ASSAULT] = value
    elif effect == L.EFF_REINFORCE:
        return value
    return 0


@allocating
def catalan_reinforcements(rng, s, b, p, w, turn, returning, field, log):
    """Rule 10.1: the turn's Catalan reinforcements enter R zones not held by the enemy
    (a unit with no such zone waits); an event may return eliminated units the same way."""
    side = L.CATALANS
    for u in range(b.unit.shape[0]):
        if b.unit[u, L.U_SIDE] != side or s[L.S_UNIT_ZONE + u] != L.NOT_ARRIVED:
            continue
        if not p[L.P_CATALAN_REINFORCEMENTS] or b.unit[u, L.U_ARRIVES] > turn:
            continue
        enter_reinforcement(rng, s, b, p, w, side, u, field, log)
    for u in range(b.unit.shape[0]):
        if returning <= 0:
            break
        if b.unit[u, L.U_SIDE] == side and s[L.S_UNIT_ZONE + u] == L.ELIMINATED:
            if enter_reinforcement(rng, s, b, p, w, side, u, field, log):
                returning -= 1
    for k in range(b.leader.shape[0]):
        if b.leader[k, L.L_SIDE] != side or s[L.S_LEADER_ZONE + k] != L.NOT_ARRIVED:
            continue
        if b.leader[k, L.L_ARRIVES] > turn or (b.leader[k, L.L_FLAG] and not p[L.P_FLAG]):
            continue
        z = POL.reinforcement_zone(s, b, p, w, side, field, rng)
        if z >= 0:
            s[L.S_LEADER_ZONE + k] = z
            log_event(log, EV_LEADER_ENTERS, k, z)


@allocating
def enter_reinforcement(rng, s, b, p, w, side, u, field, log):
    """Rule 10.1: unit ``u`` enters where its player places it (Catalans: an R zone not
    controlled by enemy units; Two Crowns: a deployment zone); False if there is none.
    It enters like any combat unit: an enemy gun there is captured "if enemy combat
    units enter their zone for any reason" (9), and a lone enemy leader falls back or
    is captured (11.3). Placed over the stacking limit, it is marked: it "can infringe
    stacking limits" until it can move out (``enforce_stacking``)."""
    z = POL.reinforcement_zone(s, b, p, w, side, field, rng)
    if z < 0:
        return False
    place_unit(s, b, u, z)
    s[L.S_NEWCOMER + u] = count(s, side, z) > zone_limit(p, b, z)
    count_action(s, side, L.A_REINFORCEMENTS)
    log_event(log, EV_REINFORCE, u, z, side)
    enemy_enters(s, b, side, z, log)
    return True


@allocating
def bourbon_recovery(rng, s, b, p, w, turn, extra, field, log):
    """Rule 10.1: on a reinforcement turn the Two Crowns recreate eliminated units up to
    the turn's allowance into their deployment zones; the remainder are lost. An event
    (``extra``) recreates units without losing the rest."""
    allowance = b.recovery[turn] * p[L.P_RECOVERY_PERCENT] // 100
    scheduled = b.recovery[turn] > 0
    made = 0
    for _ in range(allowance + extra):
        u = POL.recovery_pick(s, b, w, rng)
        if u < 0 or not enter_reinforcement(rng, s, b, p, w, L.BOURBONS, u, field, log):
            break
        made += 1
    if scheduled:
        lost = 0
        for u in range(b.unit.shape[0]):
            if b.unit[u, L.U_SIDE] == L.BOURBONS and s[L.S_UNIT_ZONE + u] == L.ELIMINATED:
                s[L.S_UNIT_ZONE + u] = L.LOST
                lost += 1
        log_event(log, EV_RECOVERY, made, allowance, lost)


@allocating
def movement_phase(rng, s, b, p, pol, side, turn, returning, log):
    """Rule 10/12: reinforcements enter, and the side's player draws its plan for the
    phase (``POL.prepare_movement``: kept in the state, with greedy's plan ``S_PLAN``,
    so that the phase can be carried out from a copy, ``carry_out_movement``)."""
    n = b.zone.shape[0]
    w = pol[side]
    field = s[L.S_FIELD:L.S_FIELD + n]
    want = s[L.S_WANT:L.S_WANT + n]
    field[:] = -1
    want[:] = 0
    if side == L.CATALANS:  # their R zones are chosen without the plan; it counts them
        catalan_reinforcements(rng, s, b, p, w, turn, returning, field, log)
        POL.prepare_movement(s, b, p, w, side, field, want)
    else:  # recreated units enter deployment zones, which change no Two Crowns goal
        POL.prepare_movement(s, b, p, w, side, field, want)
        bourbon_recovery(rng, s, b, p, w, turn, returning, field, log)
    s[L.S_PLAN + L.PLAN_KIND] = L.PLAN_GREEDY
    s[L.S_PLAN + L.PLAN_ZONE] = -1
    s[L.S_PLAN + L.PLAN_DESTINATION] = -1
    if checking(log):
        check_state(s, b, p, log, L.STEP_REINFORCEMENTS, turn)


@borrowing
def carry_out_movement(rng, s, b, p, pol, log):
    """Rule 10/12/6: every unit, leader and barricade may move, to the phase's plan
    (``S_PLAN``); zones still over the stacking limit lose the excess; the combat phase
    begins."""
    side, turn = s[L.S_SIDE], s[L.S_TURN]
    n = b.zone.shape[0]
    w = pol[side]
    move_pieces(rng, s, b, p, w, side, s[L.S_FIELD:L.S_FIELD + n], s[L.S_WANT:L.S_WANT + n],
                log)
    enforce_stacking(rng, s, b, p, w, side, log)
    if checking(log):
        check_state(s, b, p, log, L.STEP_MOVEMENT, turn)
    if failed(log):
        return
    begin_combat_phase(s, b)


@borrowing
def planned_destination(s, z0, dest, reach):
    """Where a unit in ``z0`` that greedy sends to ``dest`` goes under the phase's
    plan (``S_PLAN``); ``reach``: the zones it can reach now (>0: a move)."""
    kind, zone = s[L.S_PLAN + L.PLAN_KIND], s[L.S_PLAN + L.PLAN_ZONE]
    if kind == L.PLAN_HOLD_ALL or (kind == L.PLAN_HOLD and z0 == zone):
        return z0  # moving is optional (10: "may move")
    if kind == L.PLAN_REDIRECT and z0 == zone and dest != z0:
        y = s[L.S_PLAN + L.PLAN_DESTINATION]
        if reach[y] > 0:  # still open to it (the stacking limit), else greedy's
            return y
    return dest


@allocating
def move_pieces(rng, s, b, p, w, side, field, want, log):
    """Rule 10/12: every unit, then every leader, then (Catalans) every barricade may
    move up to the movement allowance (an event may change it, never below 1 zone), to
    the plan ``field`` and ``want`` that ``POL.prepare_movement`` drew once this phase."""
    n = b.zone.shape[0]
    stop = np.empty(n, np.int64)
    dist = np.empty(n, np.int64)
    parent = np.empty(n, np.int64)
    allowance = p[L.P_MOVEMENT] + s[L.S_EV_MOVEMENT]
    if allowance < 1:
        allowance = 1
    stop_zones(s, b, p, side, stop)
    # units starting in one zone share its reachable set until a zone fills or frees up
    dists = np.empty((n, n), np.int64)
    parents = np.empty((n, n), np.int64)
    version = np.full(n, -1, np.int64)
    changes = 0
    for u in range(b.unit.shape[0]):
        z0 = s[L.S_UNIT_ZONE + u]
        if b.unit[u, L.U_SIDE] != side or z0 < 0:
            continue
        if version[z0] != changes:
            reachable(s, b, p, side, z0, PIECE_UNIT, allowance, stop, dists[z0], parents[z0])
            version[z0] = changes
        dest = POL.unit_destination(s, b, p, w, side, u, dists[z0], field, want, stop,
                                    rng)
        if s[L.S_PLAN + L.PLAN_KIND] != L.PLAN_GREEDY:
            dest = planned_destination(s, z0, dest, dists[z0])
        if dest != z0 and dest >= 0 and dists[z0, dest] > 0:
            move_unit(s, b, u, dest, parents[z0], log)
            count_action(s, side, L.A_MOVES)
            if count(s, side, z0) == zone_limit(p, b, z0) - 1 or \
                    count(s, side, dest) == zone_limit(p, b, dest):
                changes += 1
    for k in range(b.leader.shape[0]):
        z0 = s[L.S_LEADER_ZONE + k]
        if b.leader[k, L.L_SIDE] != side or z0 < 0:
            continue
        reachable(s, b, p, side, z0, PIECE_LEADER, allowance, stop, dist, parent)
        dest = POL.leader_destination(s, b, p, w, side, k, dist, rng)
        if dest != z0 and dest >= 0 and dist[dest] > 0:
            move_leader(s, b, k, dest, log)
    if side == L.CATALANS:
        barricade_moves(rng, s, b, p, w, allowance, stop, dist, parent, log)


@allocating
def barricade_moves(rng, s, b, p, w, allowance, stop, dist, parent, log):
    """Rule 12: each barricade may move up to 3 ochre/green zones and is set facing an
    adjacent ochre/green zone (no blue or red line on that side)."""
    choice = np.empty(2, np.int64)
    for k in range(L.MAX_BARRICADES):
        z0 = s[L.S_BARRICADE_ZONE + k]
        if z0 < 0:
            continue
        reachable(s, b, p, L.CATALANS, z0, PIECE_BARRICADE, allowance, stop, dist, parent)
        POL.barricade_choice(s, b, p, w, k, dist, rng, choice)
        if choice[0] != z0 or choice[1] != s[L.S_BARRICADE_FACES + k]:
            place_barricade(s, k, choice[0], choice[1], log)
            count_action(s, L.CATALANS, L.A_BARRICADES)


@allocating
def enforce_stacking(rng, s, b, p, w, side, log):
    """Rule 6.1: a zone found over the limit loses the excess, chosen by its owner; 10.1:
    reinforcements placed over it "have to comply to them as fast as he can move", so
    the ones that could not move out of the zone this phase (no zone with room within
    reach) stay over the limit, and those that could have are eliminated."""
    n = b.zone.shape[0]
    stop = np.empty(n, np.int64)
    dist = np.empty(n, np.int64)
    parent = np.empty(n, np.int64)
    stop_zones(s, b, p, side, stop)
    allowance = max(1, p[L.P_MOVEMENT] + s[L.S_EV_MOVEMENT])
    for z in range(n):
        if b.zone[z, L.Z_DEPLOYMENT]:
            continue
        excess = count(s, side, z) - p[L.P_STACKING]
        if excess <= 0:
            continue
        stuck = newcomers_in(s, b, side, z)
        if stuck > 0:
            reachable(s, b, p, side, z, PIECE_UNIT, allowance, stop, dist, parent)
            for y in range(n):
                if dist[y] > 0:
                    stuck = 0  # they could have got out
                    break
        excess -= min(stuck, excess)
        if excess > 0:
            lose_units(s, b, w, side, z, excess, CAUSE_OVERSTACK, rng, log)
            s[L.S_OVERSTACK + side] += excess
    for u in range(b.unit.shape[0]):  # a newcomer within the limit is an ordinary unit
        z = s[L.S_UNIT_ZONE + u]
        if s[L.S_NEWCOMER + u] and (z < 0 or count(s, side, z) <= zone_limit(p, b, z)) and \
                b.unit[u, L.U_SIDE] == side:
            s[L.S_NEWCOMER + u] = 0


@allocating
def newcomers_in(s, b, side, z):
    """Reinforcements of ``side`` placed over the stacking limit still in ``z`` (10.1)."""
    k = 0
    for u in range(b.unit.shape[0]):
        if s[L.S_NEWCOMER + u] and s[L.S_UNIT_ZONE + u] == z and b.unit[u, L.U_SIDE] == side:
            k += 1
    return k


@borrowing
def half_turn(rng, s, b, p, pol, side, turn, log):
    """Rule 5.1/5.2: one side's half of a turn (the steps ``play_from`` plays)."""
    s[L.S_TURN] = turn
    s[L.S_SIDE] = side
    s[L.S_AT] = L.AT_HALF_TURN
    while s[L.S_AT] != L.AT_HALF_TURN_OVER and not failed(log):
        step(rng, s, b, p, pol, log)


@borrowing
def begin_half_turn(rng, s, b, p, pol, log):
    """Rule 5.1/5.2: the active side's half-turn up to its combat phase: the Royal Breach
    check (the Two Crowns), the event, artillery, reinforcements and movement."""
    side, turn = s[L.S_SIDE], s[L.S_TURN]
    restart_half_turn(rng, side, turn)
    log_event(log, EV_HALF, side)
    if side == L.BOURBONS and s[L.S_BREACH_TURN] == 0:
        if royal_breach_check(rng, p[L.P_BREACH_ROLL], turn, log):
            s[L.S_BREACH_TURN] = turn
        if checking(log):
            check_state(s, b, p, log, L.STEP_BREACH, turn)
    returning = event_phase(rng, s, b, p, pol, side, turn, log)
    if checking(log):
        check_state(s, b, p, log, L.STEP_EVENTS, turn)
    if s[L.S_EV_ARTILLERY] > 0 and not failed(log):
        artillery_phase(rng, s, b, p, pol, side, log)
        if checking(log):
            check_state(s, b, p, log, L.STEP_ARTILLERY, turn)
    if failed(log):
        return
    movement_phase(rng, s, b, p, pol, side, turn, returning, log)
    s[L.S_AT] = L.AT_MOVEMENT


@allocating
def objectives_held(s, b, side):
    """Section-13 objectives ``side`` holds (Pla de Palau apart)."""
    held = 0
    for o in range(L.N_OBJECTIVES):
        if o != L.PALAU and holds(s, b, side, o):
            held += 1
    return held


@allocating
def annihilated(s, b, p):
    """Rule 13: the Two Crowns win if they "Annihilates all the Catalan units": none on
    the map, and none still to come (4: "Some Catalan units don't start the game on the
    map, as they enter on later turns as reinforcements"; those have not been
    annihilated). Not a reading knob: the other reading (the units on the map only)
    never decides a game here, as the map was never empty while reinforcements were
    still to come (under the 2025 reconstruction 0 of 20,000 games of the greedy players,
    0 of 4,000 with random Catalans, seed 3; under the calibration no greedy game of
    100,000 ends in annihilation at all)."""
    if units_on_map(s, b, L.CATALANS) > 0:
        return False
    if not p[L.P_CATALAN_REINFORCEMENTS]:
        return True
    for u in range(b.unit.shape[0]):
        if b.unit[u, L.U_SIDE] == L.CATALANS and s[L.S_UNIT_ZONE + u] == L.NOT_ARRIVED:
            return False
    return True


@allocating
def eliminated_units(s, b, side):
    """Rule 13 (reading ``recreated_units_score``): the enemy units that score, ``side``'s
    eliminated every time (``yes``) or those in its eliminated pile now, the units lost
    beyond the recovery allowance of 10.1 included (``no``)."""
    pile = 0
    for u in range(b.unit.shape[0]):
        if b.unit[u, L.U_SIDE] == side and (s[L.S_UNIT_ZONE + u] == L.ELIMINATED or
                                            s[L.S_UNIT_ZONE + u] == L.LOST):
            pile += 1
    return pile


@allocating
def victory_points(s, b, p, side):
    """Rule 13: 1 per eliminated enemy unit, 2 per enemy commander, 2 per bastion or
    redoubt, 4 per convent or monastery, 4 for Pla de Palau (knob values)."""
    foe = 1 - side
    units = s[L.S_UNITS_LOST + foe] if p[L.P_RECREATED_SCORE] else eliminated_units(s, b, foe)
    vp = p[L.P_VP_UNIT] * units + p[L.P_VP_COMMANDER] * s[L.S_LEADERS_LOST + foe]
    for o in range(L.N_OBJECTIVES):
        if holds(s, b, side, o):
            vp += p[L.P_VP_OBJECTIVE + L.OBJECTIVE_KIND[o]]
    return vp


@borrowing
def play_turn(rng, s, b, p, pol, turn, log):
    """One turn (the steps ``play_from`` plays); returns the automatic-victory end
    reason, or -1 (5.3, 13)."""
    s[L.S_TURN] = turn - 1
    s[L.S_AT] = L.AT_TURN
    while s[L.S_AT] != L.AT_TURN_OVER:
        if failed(log):
            return -1
        step(rng, s, b, p, pol, log)
    return turn_end(s, b, p, log)


@borrowing
def turn_end(s, b, p, log):
    """Rule 5.3 and 13: the turn's end: the automatic victories (every Catalan unit
    annihilated, or every objective held); returns its end reason, or -1."""
    turn = s[L.S_TURN]
    held = objectives_held(s, b, L.BOURBONS)
    if held > 0 and s[L.S_FIRST_TAKEN] == 0:
        s[L.S_FIRST_TAKEN] = turn
    log_event(log, EV_TURN_END, turn, held, units_on_map(s, b, L.CATALANS))
    if checking(log):
        check_state(s, b, p, log, L.STEP_TURN_END, turn)
    if annihilated(s, b, p):
        log_event(log, EV_AUTOMATIC, turn, 0)
        return L.END_ANNIHILATION
    if held == L.N_OBJECTIVES - 1:
        log_event(log, EV_AUTOMATIC, turn, 1)
        return L.END_OBJECTIVES
    return -1


@borrowing
def game_goes_on(s, b, p, log):
    """Rule 13 after a turn: an automatic victory, else after the last turn the VP count
    (a draw plays one more turn, once); the game is over (``AT_GAME_OVER``, its end
    reason in ``S_END_REASON``) or the next turn begins (``AT_TURN``)."""
    reason = turn_end(s, b, p, log)
    if failed(log):
        return
    turn = s[L.S_TURN]
    if reason < 0 and turn >= s[L.S_LAST_TURN]:
        bvp, cvp = victory_points(s, b, p, L.BOURBONS), victory_points(s, b, p, L.CATALANS)
        log_event(log, EV_VP, bvp, cvp, turn)
        if bvp != cvp:
            reason = L.END_VP if turn == p[L.P_TURNS] else L.END_VP_EXTRA
        elif turn > p[L.P_TURNS] or not p[L.P_EXTRA_TURN]:
            reason = L.END_DRAW
        else:
            s[L.S_LAST_TURN] += 1
            log_event(log, EV_EXTRA_TURN, turn + 1)
    s[L.S_END_REASON] = reason
    s[L.S_AT] = L.AT_GAME_OVER if reason >= 0 else L.AT_TURN


@borrowing
def step(rng, s, b, p, pol, log):
    """Carry out the step of the sequence of play (5) the state is at (``S_AT``) and move
    it to the next; returns the decision the next step carries out (``D_ASSAULT``: the
    player's next combat, ``D_WITHDRAWAL``: the defender's answer, ``D_PLAN``: the active
    side's movement plan, each chosen by the side's policy and written in the state) or
    ``D_NONE``."""
    at = s[L.S_AT]
    if at == L.AT_COMBAT:
        return next_combat(rng, s, b, p, pol)
    if at == L.AT_COMBAT_CHOSEN:
        return carry_out_combat(rng, s, b, p, pol, log)
    if at == L.AT_ASSAULT_ANSWERED:
        fight_answered(rng, s, b, p, pol, log)
    elif at == L.AT_HALF_TURN:
        begin_half_turn(rng, s, b, p, pol, log)
        if s[L.S_AT] == L.AT_MOVEMENT and not failed(log):
            return L.D_PLAN
    elif at == L.AT_MOVEMENT:
        carry_out_movement(rng, s, b, p, pol, log)
    elif at == L.AT_HALF_TURN_OVER:
        if s[L.S_SIDE] == L.BOURBONS:
            s[L.S_SIDE] = L.CATALANS
            s[L.S_AT] = L.AT_HALF_TURN
        else:
            s[L.S_AT] = L.AT_TURN_OVER
    elif at == L.AT_TURN:
        s[L.S_TURN] += 1
        s[L.S_SEARCHED] = 0
        log_event(log, EV_TURN, s[L.S_TURN])
        s[L.S_SIDE] = L.BOURBONS
        s[L.S_AT] = L.AT_HALF_TURN
    elif at == L.AT_TURN_OVER:
        game_goes_on(s, b, p, log)
    return L.D_NONE


@borrowing
def play_from(rng, s, b, p, pol, searched, log):
    """Play the game on from the position the state holds, every choice by the sides'
    policies (``pol``), to its end (``AT_GAME_OVER``) or to the first decision
    ``searched`` names (bit ``side * N_DECISIONS + decision``: the side that decides),
    before that decision is carried out, its policy's choice written in the state (a
    look-ahead may change it, then play on). Returns that decision, or ``D_NONE`` at the
    end of the game (or at a state check that failed). With ``searched`` 0 it plays the
    whole game as the policies would: the default kernel's loop."""
    while s[L.S_AT] != L.AT_GAME_OVER and not failed(log):
        decision = step(rng, s, b, p, pol, log)
        if searched != 0 and decision >= 0:
            side = 1 - s[L.S_SIDE] if decision == L.D_WITHDRAWAL else s[L.S_SIDE]
            if searched & (1 << (side * L.N_DECISIONS + decision)):
                return decision
    return L.D_NONE


@borrowing
def play_game(rng, s, b, p, pol, out, log):
    """One whole game: turns until an automatic victory or the last turn, then the VP
    count (one more turn on a draw, 13)."""
    set_up(rng, s, b, p)
    if checking(log):
        check_state(s, b, p, log, L.STEP_SET_UP, 0)
    if failed(log):
        return
    play_from(rng, s, b, p, pol, 0, log)
    if failed(log):
        return
    end_game(s, b, p, out, log)


@borrowing
def end_game(s, b, p, out, log):
    """The game's outcome row, checked (13)."""
    write_outcome(s, b, p, s[L.S_TURN], s[L.S_END_REASON], out)
    if checking(log):
        check_victory(s, b, p, out, log, s[L.S_TURN])


@borrowing
def winner(s, b, p, reason):
    """Rule 13: who won a game that ended for ``reason`` (``WIN_*``): the Two Crowns by
    an automatic victory, else the side with more VP (a tie: neither)."""
    if reason == L.END_ANNIHILATION or reason == L.END_OBJECTIVES:
        return L.WIN_BOURBONS
    bvp, cvp = victory_points(s, b, p, L.BOURBONS), victory_points(s, b, p, L.CATALANS)
    if bvp > cvp:
        return L.WIN_BOURBONS
    return L.WIN_CATALANS if cvp > bvp else L.WIN_TIE


@allocating
def write_outcome(s, b, p, turn, reason, out):
    bvp, cvp = victory_points(s, b, p, L.BOURBONS), victory_points(s, b, p, L.CATALANS)
    out[L.O_WINNER] = winner(s, b, p, reason)
    out[L.O_END_REASON] = reason
    out[L.O_TURNS] = turn
    out[L.O_BREACH_TURN] = s[L.S_BREACH_TURN]
    out[L.O_BOURBON_VP] = bvp
    out[L.O_CATALAN_VP] = cvp
    out[L.O_VP_MARGIN] = bvp - cvp
    out[L.O_BOURBON_UNITS_LOST] = s[L.S_UNITS_LOST + L.BOURBONS]
    out[L.O_CATALAN_UNITS_LOST] = s[L.S_UNITS_LOST + L.CATALANS]
    out[L.O_BOURBON_COMMANDERS_LOST] = s[L.S_LEADERS_LOST + L.BOURBONS]
    out[L.O_CATALAN_COMMANDERS_LOST] = s[L.S_LEADERS_LOST + L.CATALANS]
    bastions, convents = 0, 0
    for o in range(L.N_OBJECTIVES):
        held = holds(s, b, L.BOURBONS, o)
        out[L.O_HOLDS + o] = held
        if held and L.OBJECTIVE_KIND[o] == L.OBJ_BASTION:
            bastions += 1
        elif held and L.OBJECTIVE_KIND[o] == L.OBJ_CONVENT:
            convents += 1
    out[L.O_OBJECTIVES_HELD] = bastions + convents
    out[L.O_BASTIONS_HELD] = bastions
    out[L.O_CONVENTS_HELD] = convents
    out[L.O_PLA_DE_PALAU] = holds(s, b, L.BOURBONS, L.PALAU)
    out[L.O_FIRST_OBJECTIVE_TURN] = s[L.S_FIRST_TAKEN]
    out[L.O_FLAG_LOST] = s[L.S_FLAG_LOST]
    out[L.O_BARRICADES_LOST] = s[L.S_BARRICADES_LOST]
    out[L.O_BOURBON_GUNS_LOST] = s[L.S_GUNS_LOST + L.BOURBONS]
    out[L.O_CATALAN_GUNS_LOST] = s[L.S_GUNS_LOST + L.CATALANS]
    out[L.O_OVERSTACK] = s[L.S_OVERSTACK] + s[L.S_OVERSTACK + 1]
    out[L.O_CAPTURED] = s[L.S_CAPTURED] + s[L.S_CAPTURED + 1]
    for k in range(2 * L.N_ACTIONS):
        out[L.O_ACTIONS + k] = s[L.S_ACTIONS + k]
    for k in range(2 * L.N_BLUNDERS):
        out[L.O_BLUNDERS + k] = s[L.S_BLUNDERS + k]


@allocating
def play_games(b, p, pol, game_indices, root_seed, log):
    """Play one whole game per index; returns the ``(n, N_OUT)`` outcome table. ``pol``:
    each side's row (``rules.POLICY_ROWS``), its policy's id and weights; the policy
    functions take their side's row."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    s = np.zeros(L.N_STATE, dtype=np.int64)
    board = unmanaged(b)  # the caller owns the components for the whole call
    rows = unmanaged(pol)  # and the policy rows: their views need no counting either
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        play_unmanaged(rng, s, board, p, rows, out[row], log)
        if failed(log):
            break
    return out


@allocating
def play_unmanaged(rng, s, b, p, pol, out, log):
    """``play_game`` on views that need no reference counting: its caller owns the
    arrays for the whole call (they are this function's parameters), and the steps pass
    them down many calls deep each combat."""
    play_game(unmanaged(rng), unmanaged(s), b, unmanaged(p), pol, unmanaged(out),
              unmanaged(log))
