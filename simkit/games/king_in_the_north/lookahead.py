"""The ``lookahead`` commander: the skill ceiling the scripted commanders are measured
against (issue 41's player headroom, ``simkit skill king_in_the_north``).

It plays as ``greedy`` does (with greedy's weights, which it takes), except where each
of its stacks goes (7.1, 7.3: the decision a Movement Phase turns on): before each of
its turns it plans them one by one. For the turn's ``k``-th stack move it tries
greedy's destination and the next best ``width - 1`` by greedy's score (staying is one:
``plan.destination_options``) by rollouts, each playing the rest of the game with
greedy for both sides from a copy of the position at that decision, and keeps the
destination whose rollouts win most; the engine then plays the turn with the
destinations chosen. The engine's own loop (``engine.play_step``, ``play_from``) plays
the real game and every rollout: there is no second copy of it.

The search is ``simkit.search``'s, as every game's: the ``rollouts`` weight is a
decision's budget, spread over its options by successive halving, on common random
numbers (the options of a decision are played on the same rollout streams), greedy's
choice first so that it wins ties. A rollout scores 1 if the side wins (2.1-2.2) and 0
if not (a tie is no win, as the win rates count it); the ``ties`` weight may add
(``margin``), below any difference of one rollout, the side's final VP lead (2.2), so
that a side whose rollouts all lose still prefers the destination that loses by less.
It is off by default: with it the Carlists won 5.5 points [0.2, 11.1] fewer games (200
games): losing by less is not winning, and greedy's choice keeps the ties.

It does not see the future or the hidden: a rollout replays the turn from its start on
the game's own streams up to the decision (what the table has played, the side's
present), then deals again what the side cannot see (``plan.own_world``: the enemy's
unseen blocks on the map, Recruitment Box and bag, its unseen hand, draw pile and
discards, ``view.resample``; the side's own draw pile order) and plays on with the
rollout's own streams (``simkit.search.rollout_streams``: dice, draws, bags and
tie-breaks). The turn's probes, which list a decision's options, play the real game's
turn on a copy up to that decision, and no further than the present either.

It has its own kernel (``play_lookahead_games``), compiled on first use: the default
kernel does not contain the search.
"""

from collections import namedtuple

import numpy as np

from simkit.checks import at_game, failed
from simkit.rng import WIDTH, game_streams
from simkit.search import (
    halving_best,
    halving_cut,
    halving_per_option,
    halving_rounds,
    halving_start,
    rollout_streams,
)
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import layout as L
from . import policies as P
from .engine import play_from, play_step, turn_side
from .movement import workspace
from .state import victory_points

#: below one rollout's difference in a decision's mean score (budgets stay under 1 / TIE)
TIE = 1e-4
#: ``ties = margin``: the final VP lead counted from -MARGIN to +MARGIN
MARGIN = 40

#: What the probes and rollouts play on: a copy of the position (``state``), of its
#: streams for a probe (``rng``; a rollout's are its own), an outcome row (``out``)
Scratch = namedtuple("Scratch", ("state", "rng", "out"))


def greedy_rows(pol):
    """The policy rows the look-ahead kernel plays with, and which sides search: a
    ``lookahead`` row becomes greedy's id with its own weights (greedy's, its budget and
    width), so that every choice it does not search, and every choice in its rollouts,
    is greedy's. Built here, in Python, so that the caller owns it for the whole kernel
    call (``unmanaged`` views do not own arrays)."""
    rows = pol.copy()
    searching = (rows[:, L.W_ID] == P.LOOKAHEAD).astype(np.int64)
    rows[searching == 1, L.W_ID] = P.GREEDY
    return rows, searching


# -- the game loop ----------------------------------------------------------------------------


@allocating
def play_lookahead_games(p, loc, adj, fac_home, any2, blk, card, pol, searching, game_indices,
                         root_seed, log):
    """``engine.play_games`` with the sides in ``searching`` planning their turns
    (``pol``: ``greedy_rows``): one outcome row per game."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    s = np.zeros(L.N_STATE, dtype=np.int64)
    ws = workspace(loc, card)
    scratch = Scratch(np.empty(L.N_STATE, dtype=np.int64),
                      np.empty((L.N_STREAMS, WIDTH), dtype=np.uint64),
                      np.zeros(L.N_OUT, dtype=np.int32))
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        s[L.S_NEXT] = L.NEXT_SET_UP
        play_searched(unmanaged(p), unmanaged(loc), unmanaged(adj), unmanaged(fac_home),
                      unmanaged(any2), unmanaged(blk), unmanaged(card), unmanaged(s), rng,
                      unmanaged(pol), searching, ws, scratch, out[row], unmanaged(log))
        if failed(log):
            break  # the state checks stop at the first broken invariant
    return out


@allocating
def play_searched(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, searching, ws, scratch,
                  out, log):
    """A whole game from the position ``s``, each turn of a side in ``searching`` planned
    (``plan_turn``) before the engine plays it with the destinations chosen."""
    plan = ws.plan
    while s[L.S_NEXT] != L.NEXT_OVER:
        side = turn_side(s)
        if side >= 0 and searching[side] and pol[side, L.W_WIDTH] > 1:
            n = plan_turn(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws,
                          scratch)
            set_plan(plan, L.PLAN_REPLAY, side, n, 0)
        play_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log)
        plan[L.PL_MODE] = L.PLAN_OFF


@borrowing
def set_plan(plan, mode, side, at, choice):
    """``ws.plan`` for a copy of ``side``'s turn: ``mode``, the decision ``at`` (the
    ``at`` before it forced), the option ``choice`` a rollout takes there."""
    plan[L.PL_MODE] = mode
    plan[L.PL_SIDE] = side
    plan[L.PL_COUNT] = 0
    plan[L.PL_AT] = at
    plan[L.PL_CHOICE] = choice
    plan[L.PL_FOUND] = 0
    plan[L.PL_N_OPTIONS] = 0


# -- one turn, decision by decision -----------------------------------------------------------


@allocating
def plan_turn(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch):
    """``side``'s destinations for the turn about to be played from ``s``, chosen one
    by one (``PL_FORCE``); their number. ``s`` and ``rng`` are left as they were."""
    plan = ws.plan
    turn = 2 * s[L.S_TURN] + side
    for k in range(L.MAX_TURN_DECISIONS):
        n = probe(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k)
        if n == 0:
            return k
        width = min(n, pol[side, L.W_WIDTH])
        options = plan[L.PL_OPTIONS:L.PL_OPTIONS + width].copy()
        plan[L.PL_FORCE + k] = search(p, loc, adj, fac_home, any2, blk, card, s, rng, pol,
                                      side, ws, scratch, k, options, turn)
    return L.MAX_TURN_DECISIONS


@borrowing
def probe(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k):
    """The turn played on a copy with the ``k`` destinations chosen so far: the legal
    destinations of its ``k``-th stack move, greedy's first (``ws.plan``'s options), how
    many (0: the turn makes no ``k``-th move)."""
    sw, rw = copy_position(s, rng, ws, scratch)
    set_plan(ws.plan, L.PLAN_PROBE, side, k, 0)
    play_step(p, loc, adj, fac_home, any2, blk, card, sw, rw, pol, ws, scratch.out, ws.quiet)
    return ws.plan[L.PL_N_OPTIONS] if ws.plan[L.PL_FOUND] else 0


@borrowing
def copy_position(s, rng, ws, scratch):
    """``s`` and ``rng`` copied into the scratch a probe or a rollout plays on."""
    sw, rw = scratch.state, scratch.rng  # not ws.shadow_rng: a commander's rehearsal's
    for i in range(s.shape[0]):
        sw[i] = s[i]
    for i in range(rng.shape[0]):
        for j in range(rng.shape[1]):
            rw[i, j] = rng[i, j]
    return sw, rw


@allocating
def search(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k,
           options, turn):
    """The destination of the ``k``-th stack move: successive halving over ``options``
    with a budget of ``rollouts`` (``simkit.search``)."""
    n = options.shape[0]
    if n == 1:
        return options[0]
    budget = pol[side, L.W_ROLLOUTS]
    alive, total, played = halving_start(n)
    rounds = halving_rounds(n)
    rrng = np.empty_like(rng)  # a rollout's copy of the game's streams
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n):
            if alive[o]:
                for r in range(played[o], played[o] + per):
                    total[o] += rollout(p, loc, adj, fac_home, any2, blk, card, s, rng, pol,
                                        side, ws, scratch, k, options[o], turn, r, rrng)
                played[o] += per
        halving_cut(alive, total, played)
    return options[halving_best(alive, total, played)]


@allocating
def rollout(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k, choice,
            turn, r, rrng):
    """Rollout ``r`` of ``choice`` at the turn's ``k``-th stack move: the turn replayed
    on a copy to that decision, the world dealt again there from the rollout's own
    streams (``plan.own_world``), ``choice`` taken, the rest of the game played by
    greedy; 1 if ``side`` won."""
    streams = rollout_streams(rng, turn, k, r, L.N_STREAMS)
    for i in range(streams.shape[0]):
        for j in range(streams.shape[1]):
            ws.plan_rng[i, j] = streams[i, j]
    sw = scratch.state
    for i in range(s.shape[0]):
        sw[i] = s[i]
    for i in range(rng.shape[0]):
        for j in range(rng.shape[1]):
            rrng[i, j] = rng[i, j]
    set_plan(ws.plan, L.PLAN_ROLLOUT, side, k, choice)
    play_from(p, loc, adj, fac_home, any2, blk, card, sw, rrng, pol, ws, scratch.out, ws.quiet)
    return rollout_score(loc, sw, side, pol[side, L.W_TIES])


@borrowing
def rollout_score(loc, s, side, ties):
    """1 if ``side`` won, 0 if not; with ``ties = margin``, plus less than one rollout's
    worth for its final VP lead (``TIE`` times a number in [0, 1])."""
    won = 1.0 if s[L.S_WINNER] == side else 0.0
    if ties == L.TIES_NONE:
        return won
    lead = victory_points(s, loc, side) - victory_points(s, loc, 1 - side)
    return won + TIE * (min(max(lead, -MARGIN), MARGIN) + MARGIN) / (2.0 * MARGIN)
