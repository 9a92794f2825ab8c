"""The ``lookahead`` player of the whole game: the skill ceiling each side's script is
measured against (``simkit skill setembre1714``).

It plays as ``greedy`` does, except at the decisions it searches (its ``decides``
weight): each half-turn's movement plan (10, 12: where its units go), its own assaults
(11: which assault its combat phase declares next, or none) and, when the enemy assaults
one of its zones and it could withdraw, its answer (11.3: stand or withdraw for +2). The
engine (``engine.play_from``) plays the game and stops before such a decision is carried
out, greedy's choice written in the state; the search tries greedy's choice and the best
few others (``plan_options``, ``assault_options``, ``withdrawal_options``) by rollouts,
each playing the rest of the game from a copy of the position with greedy's players,
writes its choice and lets the engine play on. The engine's loop plays the real game and
every rollout: there is no second copy of it.

The options of a movement plan, greedy's first: greedy's plan (``policies.
prepare_movement``, then each unit's ``unit_destination``); no combat unit moving (10:
a unit "may move"); a stack greedy moves that it values least holding its zone; a stack
it values most sent to its next-best destination by greedy's own order
(``policies.destination_score``). Leaders and barricades move as greedy's in every plan.

The options of an assault decision, greedy's first (a tie goes to it): greedy's own
choice; not assaulting from its zone this phase and going on with the others (11: a
zone may declare no combat); declaring no more combats; and the other legal assaults
(11.3: from a zone that has not acted, into an adjacent enemy zone) that greedy values
most (``policies.assault_score``), ``MAX_OTHER_ASSAULTS`` of them, each with greedy's
use of the commander.

The search is ``simkit.search``'s, as every game's: the ``rollouts`` weight is a
decision's budget, spread over its options by successive halving, on common random
numbers (the options of a decision are played on the same rollout streams). A rollout
scores 1 if the deciding side wins (13), 1/2 on a draw, 0 if it loses (and, with a
``margin_weight``, that much per VP of its final margin). With a ``confidence`` above 0,
an option that beats greedy's is played only if it beats it on the same rollouts by
more than that many standard errors of the paired difference (``surely_better``; greedy's
choice is played on the rollouts it missed): with a win rate near 93%, most options tie
on a few dozen rollouts and the best of several noisy means is often no better.

It does not see the future or the hidden (``resample_hidden``): the only thing hidden in
this game is the order of the undrawn event cards (8: "the deck of cards is shuffled,
putting them face down"; the drawn ones are discarded in sight); each rollout puts the
undrawn cards in a canonical order and shuffles them from its own streams, and draws
every die (the Royal Breach check, fire, assaults, commanders) from its own streams
(``simkit.search.rollout_streams``), so its choice depends on neither the hidden order
nor the game's future dice. It has its own kernel (``play_lookahead_games``), compiled
on first use: the default kernel does not contain the search.
"""

import numpy as np

from simkit.checks import at_game, checking, failed
from simkit.rng import game_streams, restart, shuffle
from simkit.search import (
    MAX_DECISIONS,
    halving_best,
    halving_cut,
    halving_per_option,
    halving_rounds,
    halving_start,
    rollout_streams,
)
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import layout as L
from . import policies as POL
from .board import BIG, assault_allowed, count, zone_limit
from .checks import check_state
from .engine import end_game, move_pieces, play_from, set_up, victory_points, winner
from .movement import PIECE_UNIT, reachable, stop_zones

assert (L.WIN_BOURBONS, L.WIN_CATALANS) == (L.BOURBONS, L.CATALANS)  # a side's win, its code

#: the other assaults an assault decision tries beside greedy's, not assaulting from
#: greedy's zone and declaring no more: those greedy values most
MAX_OTHER_ASSAULTS = 4
#: an assault decision's options at most (a row each: ``S_COMBAT``'s four fields)
MAX_OPTIONS = 3 + MAX_OTHER_ASSAULTS
#: a movement plan's options beside greedy's and "no unit moves": the stacks greedy's
#: plan moves that it values least, each held; those it values most, each sent on to its
#: next-best destination
MAX_PLAN_HOLDS = 2
MAX_PLAN_REDIRECTS = 2
assert 2 + MAX_PLAN_HOLDS + MAX_PLAN_REDIRECTS <= MAX_OPTIONS


def searched_decisions(pol):
    """``engine.play_from``'s ``searched`` bits for the sides ``pol`` seats as
    ``lookahead`` (bit ``side * N_DECISIONS + decision``, by each one's ``decides``)."""
    bits = 0
    for side in range(len(L.SIDES)):
        if pol[side, L.W_ID] == POL.LOOKAHEAD:
            bits |= L.DECIDES_BITS[pol[side, L.W_DECIDES]] << (side * L.N_DECISIONS)
    return bits


def greedy_rows(pol):
    """The policy rows the kernel plays with: each look-ahead's row (its weights: its
    budget, what it decides and greedy's weights for everything else) under greedy's id,
    so that every choice it does not search, and every choice in its rollouts, is
    greedy's with those weights. Built here, in Python, so that the caller owns it for
    the whole kernel call (``unmanaged`` views do not own arrays)."""
    rows = pol.copy()
    for side in range(len(L.SIDES)):
        if rows[side, L.W_ID] == POL.LOOKAHEAD:
            rows[side, L.W_ID] = POL.GREEDY
    return rows


# -- the game loop ----------------------------------------------------------------------------


@allocating
def play_lookahead_games(b, p, pol, searched, game_indices, root_seed, log):
    """``engine.play_games`` with the decisions in ``searched`` (``searched_decisions``)
    made by rollouts (``pol``: ``greedy_rows``): one outcome row per game."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    s = np.zeros(L.N_STATE, dtype=np.int64)
    rs = np.zeros(L.N_STATE, dtype=np.int64)
    board = unmanaged(b)  # the caller owns the components and the rows for the whole call
    rows = unmanaged(pol)
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        play_searched(rng, s, board, p, rows, searched, rs, log)
        if failed(log):
            break  # the state checks stop at the first broken invariant
        end_game(s, b, p, out[row], log)
        if failed(log):
            break
    return out


@allocating
def play_searched(rng, s, b, p, pol, searched, rs, log):
    """A whole game from the set-up, the decisions in ``searched`` made by ``search``
    (``rs``: scratch for the rollouts' positions)."""
    set_up(rng, s, b, p)
    if checking(log):
        check_state(s, b, p, log, L.STEP_SET_UP, 0)
    if failed(log):
        return
    decision = play_from(rng, s, b, p, pol, searched, log)
    while decision != L.D_NONE:
        search(rng, s, b, p, pol, decision, rs)
        decision = play_from(rng, s, b, p, pol, searched, log)


# -- one decision -----------------------------------------------------------------------------


@borrowing
def decider(s, decision):
    """The side that makes ``decision``: the active side moves and assaults, the other
    withdraws."""
    return 1 - s[L.S_SIDE] if decision == L.D_WITHDRAWAL else s[L.S_SIDE]


@allocating
def search(rng, s, b, p, pol, decision, rs):
    """Make the decision the engine stopped at: successive halving over its options with
    a budget of the decider's ``rollouts`` (``simkit.search``), the choice written in the
    state. The game's streams are not drawn from."""
    options = np.empty((MAX_OPTIONS, 4), dtype=np.int64)
    index = s[L.S_SEARCHED]  # the decision's number within its turn: its rollouts' streams
    if decision == L.D_ASSAULT:
        n = assault_options(s, b, p, pol, options)
    elif decision == L.D_PLAN:
        n = plan_options(rollout_streams(rng, s[L.S_TURN], index, 0, L.N_STREAMS), s, b, p,
                         pol, options)
    else:
        n = withdrawal_options(s, options)
    s[L.S_SEARCHED] = min(index + 1, MAX_DECISIONS - 1)
    if n == 1:
        return
    side = decider(s, decision)
    budget = pol[side, L.W_ROLLOUTS]
    alive, total, played = halving_start(n)
    rounds = halving_rounds(n)
    scores = np.zeros((n, budget + rounds), dtype=np.float64)  # per option and rollout
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n):
            if alive[o]:
                for r in range(played[o], played[o] + per):
                    scores[o, r] = rollout(rng, s, b, p, pol, rs, decision, options[o], index,
                                           r)
                    total[o] += scores[o, r]
                played[o] += per
        halving_cut(alive, total, played)
    best = halving_best(alive, total, played)
    if best > 0 and pol[side, L.W_CONFIDENCE] > 0:
        for r in range(played[0], played[best]):  # greedy's choice on the same rollouts
            scores[0, r] = rollout(rng, s, b, p, pol, rs, decision, options[0], index, r)
        if not surely_better(scores[best], scores[0], played[best],
                             pol[side, L.W_CONFIDENCE] / 10.0):
            best = 0
    write_option(s, decision, options[best])


@borrowing
def surely_better(scores, greedys, m, z):
    """Is the option whose rollout scores are ``scores`` better than greedy's choice on
    the same ``m`` rollouts (common random numbers) by more than ``z`` standard errors
    of their paired difference?"""
    total, squares = 0.0, 0.0
    for r in range(m):
        d = scores[r] - greedys[r]
        total += d
        squares += d * d
    mean = total / m
    spread = max(squares / m - mean * mean, 0.0) * m / max(m - 1, 1)
    return mean > z * np.sqrt(spread / m)


@borrowing
def write_option(s, decision, option):
    """Make ``option`` the decision's choice in the state: the next combat (kind,
    attacking zone, target, commander), the movement plan (``PLAN_FIELDS``) or the
    defender's answer (1: withdraw)."""
    if decision == L.D_ASSAULT:
        for k in range(4):
            s[L.S_COMBAT + k] = option[k]
    elif decision == L.D_PLAN:
        for k in range(L.N_PLAN):
            s[L.S_PLAN + k] = option[k]
    else:
        s[L.S_ASSAULT + L.AS_WITHDREW] = option[0]


@allocating
def assault_options(s, b, p, pol, options):
    """The choices open where the active side declares its next combat, greedy's
    (``S_COMBAT``) first, one row each (kind, attacking zone, target, commander): not
    assaulting from greedy's zone (a pass: the zone declares nothing this phase, the
    others go on), no more combats, and the ``MAX_OTHER_ASSAULTS`` other legal assaults
    greedy values most (``policies.assault_score``; a tie to the lower zones), each
    with greedy's use of the commander; their number."""
    side = s[L.S_SIDE]
    w = pol[side]
    for k in range(4):
        options[0, k] = s[L.S_COMBAT + k]
    kind, a0, t0 = options[0, 0], options[0, 1], options[0, 2]
    n = 1
    if kind == POL.K_ASSAULT:
        options[n, 0], options[n, 1], options[n, 2], options[n, 3] = POL.K_PASS, a0, -1, 0
        n += 1
    if kind != POL.K_NONE:
        options[n, 0], options[n, 1], options[n, 2], options[n, 3] = POL.K_NONE, -1, -1, 0
        n += 1
    zones = b.zone.shape[0]
    leads = np.empty(2 * zones, np.int64)
    POL.lead_strengths(s, b, leads)
    work = np.empty(2 * b.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64)
    values = np.empty(5, np.float64)
    best = np.full(MAX_OTHER_ASSAULTS, -np.inf)
    pick = np.full((MAX_OTHER_ASSAULTS, 2), -1, np.int64)
    for a in range(zones):
        if s[L.S_ACTED + a] or count(s, side, a) == 0:
            continue
        for i in range(b.neighbours.shape[1]):
            t = b.neighbours[a, i]
            if t < 0:
                break
            if (a == a0 and t == t0 and kind == POL.K_ASSAULT) or \
                    not assault_allowed(s, b, side, a, t):
                continue
            score = POL.assault_score(s, b, p, w, side, a, t, leads, work, values)
            place = MAX_OTHER_ASSAULTS
            while place > 0 and score > best[place - 1]:
                place -= 1
            if place == MAX_OTHER_ASSAULTS:
                continue
            for k in range(MAX_OTHER_ASSAULTS - 1, place, -1):
                best[k], pick[k, 0], pick[k, 1] = best[k - 1], pick[k - 1, 0], pick[k - 1, 1]
            best[place], pick[place, 0], pick[place, 1] = score, a, t
    for k in range(MAX_OTHER_ASSAULTS):
        a, t = pick[k, 0], pick[k, 1]
        if a < 0:
            break
        options[n, 0], options[n, 1], options[n, 2] = POL.K_ASSAULT, a, t
        options[n, 3] = POL.assault_commander(s, b, p, w, side, a, t)
        n += 1
    return n


@allocating
def plan_options(rng, s, b, p, pol, options):
    """The movement plans open to the active side (10: each unit "may move" up to its
    allowance, or stay), greedy's (``S_PLAN``) first, one row each (``PLAN_FIELDS``):
    no combat unit moves (where greedy's plan moves more than one stack); each of the
    ``MAX_PLAN_HOLDS`` stacks greedy's plan moves that it values least (by its own
    ``destination_score``: where they stand against where it sends them) holds its
    zone; each of the ``MAX_PLAN_REDIRECTS`` it values most goes to its next-best
    destination instead (not one greedy sends any of them to, and with room for the
    units greedy moves out of it; they go there while it has room as they move,
    ``engine.planned_destination``). Greedy's plan is played on a copy of the position
    (``rng``: the search's own streams) to see which stacks it moves and where. Their
    number."""
    side = s[L.S_SIDE]
    w = pol[side]
    zones = b.zone.shape[0]
    for k in range(L.N_PLAN):
        options[0, k] = s[L.S_PLAN + k]
    after = s.copy()
    move_pieces(rng, after, b, p, w, side, after[L.S_FIELD:L.S_FIELD + zones],
                after[L.S_WANT:L.S_WANT + zones], np.zeros((0, 4), dtype=np.int64))
    dest = np.full(zones, -1, np.int64)  # where greedy sends the stack of each zone
    leaving = np.zeros(zones, np.int64)  # and how many of its units
    sent = np.zeros((zones, zones), np.bool_)  # every zone greedy sends them to
    for u in range(b.unit.shape[0]):
        z0, z1 = s[L.S_UNIT_ZONE + u], after[L.S_UNIT_ZONE + u]
        if b.unit[u, L.U_SIDE] == side and z0 >= 0 and z1 >= 0 and z1 != z0:
            leaving[z0] += 1
            sent[z0, z1] = True
            if dest[z0] < 0:
                dest[z0] = z1
    field = s[L.S_FIELD:L.S_FIELD + zones]
    want = s[L.S_WANT:L.S_WANT + zones]
    stop = np.empty(zones, np.int64)
    dist = np.empty(zones, np.int64)
    parent = np.empty(zones, np.int64)
    stop_zones(s, b, p, side, stop)
    allowance = max(1, p[L.P_MOVEMENT] + s[L.S_EV_MOVEMENT])
    gain = np.full(zones, np.inf)
    next_best = np.full(zones, -1, np.int64)
    moved = 0
    for z0 in range(zones):
        if dest[z0] < 0:
            continue
        moved += 1
        reachable(s, b, p, side, z0, PIECE_UNIT, allowance, stop, dist, parent)
        gain[z0] = POL.destination_score(s, b, p, w, side, z0, z0, dist, field, want, stop) \
            - POL.destination_score(s, b, p, w, side, z0, dest[z0], dist, field, want, stop)
        best = BIG
        for y in range(zones):
            if y == z0 or sent[z0, y] or dist[y] <= 0 or \
                    count(s, side, y) + leaving[z0] > zone_limit(p, b, y):
                continue  # room for the stack, as the phase begins (6.1)
            score = POL.destination_score(s, b, p, w, side, z0, y, dist, field, want, stop)
            if score < best:
                next_best[z0], best = y, score
    n = 1
    if moved > 1:
        options[n, 0], options[n, 1], options[n, 2] = L.PLAN_HOLD_ALL, -1, -1
        n += 1
    order = np.argsort(gain, kind="mergesort")  # least valued first; a tie: lower zone
    for i in range(min(moved, MAX_PLAN_HOLDS)):
        options[n, 0], options[n, 1], options[n, 2] = L.PLAN_HOLD, order[i], -1
        n += 1
    redirected = 0
    for i in range(moved - 1, -1, -1):
        z0 = order[i]
        if redirected == MAX_PLAN_REDIRECTS:
            break
        if next_best[z0] >= 0:
            options[n, 0], options[n, 1], options[n, 2] = L.PLAN_REDIRECT, z0, next_best[z0]
            n += 1
            redirected += 1
    return n


@borrowing
def withdrawal_options(s, options):
    """The defender's answers (11.3), greedy's (``AS_WITHDREW``) first: stand (0) or
    withdraw (1); the engine stops here only where it can withdraw. Their number."""
    options[0, 0] = s[L.S_ASSAULT + L.AS_WITHDREW]
    options[1, 0] = 1 - options[0, 0]
    return 2


@allocating
def rollout(rng, s, b, p, pol, rs, decision, option, index, r):
    """Rollout ``r`` of ``option``: the decision's position copied into ``rs``, the
    hidden cards dealt afresh and every die drawn from the rollout's own streams, the
    option chosen, and the rest of the game played by greedy; its score for the side
    that decides (1 a win, 1/2 a draw, 0 a loss: 13), plus its ``margin_weight`` per VP
    of its final margin."""
    rs[:] = s
    rrng = rollout_streams(rng, s[L.S_TURN], index, r, L.N_STREAMS)
    resample_hidden(rrng, rs, b)
    write_option(rs, decision, option)
    play_from(rrng, rs, b, p, pol, 0, np.zeros((0, 4), dtype=np.int64))
    side = decider(s, decision)
    won = winner(rs, b, p, rs[L.S_END_REASON])
    score = 0.5 if won == L.WIN_TIE else (1.0 if won == side else 0.0)
    margin = victory_points(rs, b, p, side) - victory_points(rs, b, p, 1 - side)
    return score + pol[side, L.W_MARGIN_WEIGHT] / 1000.0 * margin


# -- what the players cannot see ----------------------------------------------------------------


@allocating
def resample_hidden(rng, s, b):
    """Deal afresh, from ``rng``, what the players cannot see: the order of the event
    cards not yet drawn (8). They are first put in a canonical order (sorted), so what
    comes out depends on ``rng`` and on the cards drawn so far, never on the hidden
    order."""
    first, last = L.S_DECK + s[L.S_DECK_TOP], L.S_DECK + b.card.shape[0]
    if first >= last:
        return
    cards = np.sort(s[first:last])
    restart(rng, L.ST_EVENTS, 0)
    shuffle(rng, L.ST_EVENTS, cards)
    s[first:last] = cards
