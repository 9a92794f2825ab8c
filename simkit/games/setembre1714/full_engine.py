"""The whole game of 11 de Setembre as njit kernels: set-up (4), the sequence of play (5),
reinforcements (10.1), random events (8), movement (10, 12), stacking (6) and victory (13).

A turn: the Two Crowns' half (Royal Breach check, event, artillery, movement with
reinforcements, combat, discard), then the Catalan half (the same without the breach
check), then the turn's end (automatic victory; after the last turn the VP count, and
one more turn on a draw). Fire and combat are in ``combat`` on the assault scenario's
rule functions (``engine``).
"""

import numpy as np
from numba import njit

from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, shuffle
from simkit.unmanaged import unmanaged

from . import full_layout as F
from . import full_policies as POL
from . import layout as L
from .board import (
    count,
    count_action,
    holds,
    place_unit,
    units_on_map,
    zone_limit,
)
from .combat import artillery_phase, combat_phase, lose_units
from .engine import royal_breach_check
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


@njit(cache=True, nogil=True)
def set_up(rng, s, b, p):
    """Rule 4: the Catalans deploy, then the Two Crowns; leaders, guns and barricades
    take their places; the event deck is shuffled (its own stream, once)."""
    s[:] = 0
    for u in range(b.unit.shape[0]):
        s[F.S_UNIT_ZONE + u] = F.NOT_ARRIVED
        if b.unit[u, F.U_START] >= 0:
            place_unit(s, b, u, b.unit[u, F.U_START])
    for k in range(F.MAX_LEADERS):
        s[F.S_LEADER_ZONE + k] = F.NOT_ARRIVED
    for k in range(b.leader.shape[0]):
        s[F.S_LEADER_ZONE + k] = b.leader[k, F.L_START]
    for g in range(F.MAX_GUNS):
        s[F.S_GUN_ZONE + g] = F.ELIMINATED
    for g in range(b.gun.shape[0]):
        s[F.S_GUN_ZONE + g] = b.gun[g, F.G_START]
    for k in range(F.MAX_BARRICADES):
        s[F.S_BARRICADE_ZONE + k] = F.ELIMINATED
        s[F.S_BARRICADE_FACES + k] = F.ELIMINATED
    if p[F.P_BARRICADES]:
        for k in range(b.barricade.shape[0]):
            s[F.S_BARRICADE_ZONE + k] = b.barricade[k, F.BR_START]
            s[F.S_BARRICADE_FACES + k] = b.barricade[k, F.BR_FACES]
    n_cards = b.card.shape[0]
    deck = np.arange(n_cards)
    restart(rng, F.ST_EVENTS, 0)
    shuffle(rng, F.ST_EVENTS, deck)
    s[F.S_DECK:F.S_DECK + n_cards] = deck


@njit(cache=True, nogil=True)
def restart_half_turn(rng, side, turn):
    """Each half-turn's dice and choices come from sub-streams keyed on the half-turn, so
    a variant that rolls one die more now rolls the same dice later."""
    key = 2 * turn + side
    for purpose in range(L.ST_ARTILLERY, L.ST_COMMANDER + 1):
        restart(rng, purpose, key)
    restart(rng, POL.stream(side), key)


@njit(cache=True, nogil=True)
def event_phase(rng, s, b, p, pids, side, turn, log):
    """Rule 8: draw the top card; its effect lasts the drawing side's half-turn."""
    s[F.S_EV_MOVEMENT] = 0
    s[F.S_EV_ARTILLERY] = 1
    s[F.S_EV_SALVO] = 0
    s[F.S_EV_ASSAULT] = 0
    if not p[F.P_EVENTS] or s[F.S_DECK_TOP] >= b.card.shape[0]:
        return 0
    card = s[F.S_DECK + s[F.S_DECK_TOP]]
    s[F.S_DECK_TOP] += 1
    effect, value = b.card[card, side, F.C_EFFECT], b.card[card, side, F.C_VALUE]
    log_event(log, EV_CARD, card, side, value)
    if effect == F.EFF_BREACH and s[F.S_BREACH_TURN] == 0:
        s[F.S_BREACH_TURN] = turn
        log_event(log, EV_BREACH_BY_EVENT, turn)
    elif effect == F.EFF_NO_ARTILLERY:
        s[F.S_EV_ARTILLERY] = 0
    elif effect == F.EFF_DOUBLE_ARTILLERY:
        s[F.S_EV_ARTILLERY] = 2
    elif effect == F.EFF_MOVEMENT:
        s[F.S_EV_MOVEMENT] = value
    elif effect == F.EFF_SALVO:
        s[F.S_EV_SALVO] = value
    elif effect == F.EFF_ASSAULT:
        s[F.S_EV_ASSAULT] = value
    elif effect == F.EFF_REINFORCE:
        return value
    return 0


@njit(cache=True, nogil=True)
def catalan_reinforcements(rng, s, b, p, pid, turn, returning, field, log):
    """Rule 10.1: the turn's Catalan reinforcements enter R zones not held by the enemy
    (a unit with no such zone waits); an event may return eliminated units the same way."""
    side = F.CATALANS
    for u in range(b.unit.shape[0]):
        if b.unit[u, F.U_SIDE] != side or s[F.S_UNIT_ZONE + u] != F.NOT_ARRIVED:
            continue
        if not p[F.P_CATALAN_REINFORCEMENTS] or b.unit[u, F.U_ARRIVES] > turn:
            continue
        _enter(rng, s, b, p, pid, side, u, field, log)
    for u in range(b.unit.shape[0]):
        if returning <= 0:
            break
        if b.unit[u, F.U_SIDE] == side and s[F.S_UNIT_ZONE + u] == F.ELIMINATED:
            if _enter(rng, s, b, p, pid, side, u, field, log):
                returning -= 1
    for k in range(b.leader.shape[0]):
        if b.leader[k, F.L_SIDE] != side or s[F.S_LEADER_ZONE + k] != F.NOT_ARRIVED:
            continue
        if b.leader[k, F.L_ARRIVES] > turn or (b.leader[k, F.L_FLAG] and not p[F.P_FLAG]):
            continue
        z = POL.reinforcement_zone(s, b, p, pid, side, field, rng)
        if z >= 0:
            s[F.S_LEADER_ZONE + k] = z
            log_event(log, EV_LEADER_ENTERS, k, z)


@njit(cache=True, nogil=True)
def _enter(rng, s, b, p, pid, side, u, field, log):
    z = POL.reinforcement_zone(s, b, p, pid, side, field, rng)
    if z < 0:
        return False
    place_unit(s, b, u, z)
    count_action(s, side, F.A_REINFORCEMENTS)
    log_event(log, EV_REINFORCE, u, z, side)
    return True


@njit(cache=True, nogil=True)
def bourbon_recovery(rng, s, b, p, pid, turn, extra, field, log):
    """Rule 10.1: on a reinforcement turn the Two Crowns recreate eliminated units up to
    the turn's allowance into their deployment zones; the remainder are lost. An event
    (``extra``) recreates units without losing the rest."""
    allowance = b.recovery[turn] * p[F.P_RECOVERY_PERCENT] // 100
    scheduled = b.recovery[turn] > 0
    made = 0
    for _ in range(allowance + extra):
        u = POL.recovery_pick(s, b, pid, rng)
        if u < 0:
            break
        z = POL.reinforcement_zone(s, b, p, pid, F.BOURBONS, field, rng)
        place_unit(s, b, u, z)
        count_action(s, F.BOURBONS, F.A_REINFORCEMENTS)
        log_event(log, EV_REINFORCE, u, z, F.BOURBONS)
        made += 1
    if scheduled:
        lost = 0
        for u in range(b.unit.shape[0]):
            if b.unit[u, F.U_SIDE] == F.BOURBONS and s[F.S_UNIT_ZONE + u] == F.ELIMINATED:
                s[F.S_UNIT_ZONE + u] = F.LOST
                lost += 1
        log_event(log, EV_RECOVERY, made, allowance, lost)


@njit(cache=True, nogil=True)
def movement_phase(rng, s, b, p, pids, side, turn, returning, log):
    """Rule 10/12/6: reinforcements enter, then every unit, leader and barricade may
    move; zones still over the stacking limit lose the excess."""
    n = b.zone.shape[0]
    pid = pids[side]
    field = np.empty(n, np.int64)
    want = np.zeros(n, np.int64)
    stop = np.empty(n, np.int64)
    dist = np.empty(n, np.int64)
    parent = np.empty(n, np.int64)
    POL.prepare_movement(s, b, p, pid, side, field, want)
    if side == F.CATALANS:
        catalan_reinforcements(rng, s, b, p, pid, turn, returning, field, log)
    else:
        bourbon_recovery(rng, s, b, p, pid, turn, returning, field, log)
    allowance = p[F.P_MOVEMENT] + s[F.S_EV_MOVEMENT]
    if allowance < 1:
        allowance = 1
    stop_zones(s, b, side, stop)
    POL.prepare_movement(s, b, p, pid, side, field, want)
    # units starting in one zone share its reachable set until a zone fills or frees up
    dists = np.empty((n, n), np.int64)
    parents = np.empty((n, n), np.int64)
    version = np.full(n, -1, np.int64)
    changes = 0
    for u in range(b.unit.shape[0]):
        z0 = s[F.S_UNIT_ZONE + u]
        if b.unit[u, F.U_SIDE] != side or z0 < 0:
            continue
        if version[z0] != changes:
            reachable(s, b, p, side, z0, PIECE_UNIT, allowance, stop, dists[z0], parents[z0])
            version[z0] = changes
        dest = POL.unit_destination(s, b, p, pid, side, u, dists[z0], field, want, rng)
        if dest != z0 and dest >= 0 and dists[z0, dest] > 0:
            move_unit(s, b, u, dest, parents[z0], log)
            count_action(s, side, F.A_MOVES)
            if count(s, side, z0) == zone_limit(p, b, z0) - 1 or \
                    count(s, side, dest) == zone_limit(p, b, dest):
                changes += 1
    for k in range(b.leader.shape[0]):
        z0 = s[F.S_LEADER_ZONE + k]
        if b.leader[k, F.L_SIDE] != side or z0 < 0:
            continue
        reachable(s, b, p, side, z0, PIECE_LEADER, allowance, stop, dist, parent)
        dest = POL.leader_destination(s, b, p, pid, side, k, dist, rng)
        if dest != z0 and dest >= 0 and dist[dest] > 0:
            move_leader(s, b, k, dest, log)
    if side == F.CATALANS:
        barricade_moves(rng, s, b, p, pid, allowance, stop, dist, parent, log)
    enforce_stacking(rng, s, b, p, pid, side, log)


@njit(cache=True, nogil=True)
def barricade_moves(rng, s, b, p, pid, allowance, stop, dist, parent, log):
    """Rule 12: each barricade may move up to 3 ochre/green zones and is set facing an
    adjacent ochre/green zone (no blue or red line on that side)."""
    choice = np.empty(2, np.int64)
    for k in range(F.MAX_BARRICADES):
        z0 = s[F.S_BARRICADE_ZONE + k]
        if z0 < 0:
            continue
        reachable(s, b, p, F.CATALANS, z0, PIECE_BARRICADE, allowance, stop, dist, parent)
        POL.barricade_choice(s, b, p, pid, k, dist, rng, choice)
        if choice[0] != z0 or choice[1] != s[F.S_BARRICADE_FACES + k]:
            place_barricade(s, k, choice[0], choice[1], log)
            count_action(s, F.CATALANS, F.A_BARRICADES)


@njit(cache=True, nogil=True)
def enforce_stacking(rng, s, b, p, pid, side, log):
    """Rule 6.1: a zone found over the limit loses the excess, chosen by its owner."""
    for z in range(b.zone.shape[0]):
        if b.zone[z, F.Z_DEPLOYMENT]:
            continue
        excess = count(s, side, z) - p[F.P_STACKING]
        if excess > 0:
            lose_units(s, b, pid, side, z, excess, CAUSE_OVERSTACK, rng, log)
            s[F.S_OVERSTACK + side] += excess


@njit(cache=True, nogil=True)
def half_turn(rng, s, b, p, pids, side, turn, log):
    """Rule 5.1/5.2: one side's half of a turn."""
    restart_half_turn(rng, side, turn)
    log_event(log, EV_HALF, side)
    if side == F.BOURBONS and s[F.S_BREACH_TURN] == 0:
        if royal_breach_check(rng, p[F.P_BREACH_ROLL], turn, log):
            s[F.S_BREACH_TURN] = turn
    returning = event_phase(rng, s, b, p, pids, side, turn, log)
    if s[F.S_EV_ARTILLERY] > 0:
        artillery_phase(rng, s, b, p, pids, side, log)
    movement_phase(rng, s, b, p, pids, side, turn, returning, log)
    combat_phase(rng, s, b, p, pids, side, log)


@njit(cache=True, nogil=True)
def objectives_held(s, b, side):
    """Section-13 objectives ``side`` holds (Pla de Palau apart)."""
    held = 0
    for o in range(F.N_OBJECTIVES):
        if o != F.PALAU and holds(s, b, side, o):
            held += 1
    return held


@njit(cache=True, nogil=True)
def annihilated(s, b, p):
    """Rule 13: no Catalan combat unit on the map, and none still to come."""
    if units_on_map(s, b, F.CATALANS) > 0:
        return False
    if not p[F.P_CATALAN_REINFORCEMENTS]:
        return True
    for u in range(b.unit.shape[0]):
        if b.unit[u, F.U_SIDE] == F.CATALANS and s[F.S_UNIT_ZONE + u] == F.NOT_ARRIVED:
            return False
    return True


@njit(cache=True, nogil=True)
def victory_points(s, b, p, side):
    """Rule 13: 1 per eliminated enemy unit, 2 per enemy commander, 2 per bastion or
    redoubt, 4 per convent or monastery, 4 for Pla de Palau (knob values)."""
    foe = 1 - side
    vp = p[F.P_VP_UNIT] * s[F.S_UNITS_LOST + foe] + \
        p[F.P_VP_COMMANDER] * s[F.S_LEADERS_LOST + foe]
    for o in range(F.N_OBJECTIVES):
        if holds(s, b, side, o):
            vp += p[F.P_VP_OBJECTIVE + F.OBJECTIVE_KIND[o]]
    return vp


@njit(cache=True, nogil=True)
def play_turn(rng, s, b, p, pids, turn, log):
    """One turn; returns the automatic-victory end reason, or -1 (5.3, 13)."""
    s[F.S_TURN] = turn
    log_event(log, EV_TURN, turn)
    half_turn(rng, s, b, p, pids, F.BOURBONS, turn, log)
    half_turn(rng, s, b, p, pids, F.CATALANS, turn, log)
    held = objectives_held(s, b, F.BOURBONS)
    if held > 0 and s[F.S_FIRST_TAKEN] == 0:
        s[F.S_FIRST_TAKEN] = turn
    log_event(log, EV_TURN_END, turn, held, units_on_map(s, b, F.CATALANS))
    if annihilated(s, b, p):
        log_event(log, EV_AUTOMATIC, turn, 0)
        return F.END_ANNIHILATION
    if held == F.N_OBJECTIVES - 1:
        log_event(log, EV_AUTOMATIC, turn, 1)
        return F.END_OBJECTIVES
    return -1


@njit(cache=True, nogil=True)
def play_full(rng, s, b, p, pids, out, log):
    """One whole game: turns until an automatic victory or the last turn, then the VP
    count (one more turn on a draw, 13)."""
    set_up(rng, s, b, p)
    last = p[F.P_TURNS]
    reason = -1
    turn = 0
    while reason < 0:
        turn += 1
        reason = play_turn(rng, s, b, p, pids, turn, log)
        if reason >= 0 or turn < last:
            continue
        bvp, cvp = victory_points(s, b, p, F.BOURBONS), victory_points(s, b, p, F.CATALANS)
        log_event(log, EV_VP, bvp, cvp, turn)
        if bvp != cvp:
            reason = F.END_VP if turn == p[F.P_TURNS] else F.END_VP_EXTRA
        elif turn > p[F.P_TURNS] or not p[F.P_EXTRA_TURN]:
            reason = F.END_DRAW
        else:
            last += 1
            log_event(log, EV_EXTRA_TURN, turn + 1)
    write_outcome(s, b, p, turn, reason, out)


@njit(cache=True, nogil=True)
def write_outcome(s, b, p, turn, reason, out):
    bvp, cvp = victory_points(s, b, p, F.BOURBONS), victory_points(s, b, p, F.CATALANS)
    if reason == F.END_ANNIHILATION or reason == F.END_OBJECTIVES:
        winner = F.WIN_BOURBONS
    elif bvp > cvp:
        winner = F.WIN_BOURBONS
    elif cvp > bvp:
        winner = F.WIN_CATALANS
    else:
        winner = F.WIN_TIE
    out[F.O_WINNER] = winner
    out[F.O_END_REASON] = reason
    out[F.O_TURNS] = turn
    out[F.O_BREACH_TURN] = s[F.S_BREACH_TURN]
    out[F.O_BOURBON_VP] = bvp
    out[F.O_CATALAN_VP] = cvp
    out[F.O_VP_MARGIN] = bvp - cvp
    out[F.O_BOURBON_UNITS_LOST] = s[F.S_UNITS_LOST + F.BOURBONS]
    out[F.O_CATALAN_UNITS_LOST] = s[F.S_UNITS_LOST + F.CATALANS]
    out[F.O_BOURBON_COMMANDERS_LOST] = s[F.S_LEADERS_LOST + F.BOURBONS]
    out[F.O_CATALAN_COMMANDERS_LOST] = s[F.S_LEADERS_LOST + F.CATALANS]
    bastions, convents = 0, 0
    for o in range(F.N_OBJECTIVES):
        held = holds(s, b, F.BOURBONS, o)
        out[F.O_HOLDS + o] = held
        if held and F.OBJECTIVE_KIND[o] == F.OBJ_BASTION:
            bastions += 1
        elif held and F.OBJECTIVE_KIND[o] == F.OBJ_CONVENT:
            convents += 1
    out[F.O_OBJECTIVES_HELD] = bastions + convents
    out[F.O_BASTIONS_HELD] = bastions
    out[F.O_CONVENTS_HELD] = convents
    out[F.O_PLA_DE_PALAU] = holds(s, b, F.BOURBONS, F.PALAU)
    out[F.O_FIRST_OBJECTIVE_TURN] = s[F.S_FIRST_TAKEN]
    out[F.O_FLAG_LOST] = s[F.S_FLAG_LOST]
    out[F.O_BARRICADES_LOST] = s[F.S_BARRICADES_LOST]
    out[F.O_BOURBON_GUNS_LOST] = s[F.S_GUNS_LOST + F.BOURBONS]
    out[F.O_CATALAN_GUNS_LOST] = s[F.S_GUNS_LOST + F.CATALANS]
    out[F.O_OVERSTACK] = s[F.S_OVERSTACK] + s[F.S_OVERSTACK + 1]
    out[F.O_CAPTURED] = s[F.S_CAPTURED] + s[F.S_CAPTURED + 1]
    for k in range(2 * F.N_ACTIONS):
        out[F.O_ACTIONS + k] = s[F.S_ACTIONS + k]


@njit(cache=True, nogil=True)
def play_full_games(b, p, pids, game_indices, root_seed, log):
    """Play one whole game per index; returns the ``(n, N_OUT)`` outcome table."""
    out = np.zeros((game_indices.shape[0], F.N_OUT), dtype=np.int16)
    s = np.zeros(F.N_STATE, dtype=np.int64)
    board = unmanaged(b)  # the caller owns the components for the whole call
    for row in range(game_indices.shape[0]):
        rng = game_streams(root_seed, game_indices[row], F.N_STREAMS)
        play_full(rng, s, board, p, pids, out[row], log)
    return out
