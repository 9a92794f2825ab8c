"""The ``lookahead`` commander: the skill ceiling the scripted commanders are measured
against (issue 41's player headroom, ``simkit skill king_in_the_north``).

It plays as ``greedy`` does (with greedy's weights, which it takes), except at the
decisions its ``decides`` weight names (``layout.LOOKAHEAD_DECIDES``; default ``all``):
where each of its stacks goes (7.1, 7.3), its bids (the Turn Order bid and who moves
first, 6.2; the Initiative Challenge and its acceptance, 6.3.1) and each of its
deployments in a battle or siege, or its pass (8.2-8.4, 8.9.3), as the attacker in its
own turn and as the defender in the enemy's. Before each step of the campaign with such
a decision (a Year's Turn Order, a Semester's start, either side's turn:
``engine.play_step``) it plans the step's decisions one by one. For the step's ``k``-th
it tries greedy's choice and the next best ``width - 1`` by greedy's score
(``plan.destination_options``, ``plan.card_options``, ``plan.planned_first``,
``combat.planned_deployment``) by rollouts, each playing the rest of the game with the
game's players (greedy for a ``lookahead`` side) from a copy of the position at that
decision, and keeps the option whose rollouts win most; the engine then plays the step
with the choices made. The engine's own loop (``engine.play_step``, ``play_from``) plays
the real game and every rollout: there is no second copy of it. One side plans a step:
when both sides search, the side whose turn it is plans it (the enemy's deployments in
it are greedy's) and the Carlists plan a Year's or Semester's start (the Liberals' bids
are greedy's).

The search is ``simkit.search``'s, as every game's: the ``rollouts`` weight is a
decision's budget, spread over its options by successive halving, on common random
numbers (the options of a decision are played on the same rollout streams), greedy's
choice first so that it wins ties. A rollout scores 1 if the side wins (2.1-2.2) and 0
if not (a tie is no win, as the win rates count it); the ``ties`` weight may add
(``margin``), below any difference of one rollout, the side's final VP lead (2.2), so
that a side whose rollouts all lose still prefers the option that loses by less.
It is off by default: with it the Carlists won 5.5 points [0.2, 11.1] fewer games (200
games): losing by less is not winning, and greedy's choice keeps the ties.

It does not see the future or the hidden: a rollout replays the step from its start on
the game's own streams up to the decision (what the table has played, the side's
present), then deals again what the side cannot see (``plan.own_world``: the enemy's
unseen blocks on the map, Recruitment Box and bag, its unseen hand, draw pile and
discards, ``view.resample``; the side's own draw pile order; in a battle, the blocks
deployed so far are known, 8.2.3) and plays on with the rollout's own streams
(``simkit.search.rollout_streams``: dice, draws, bags and tie-breaks). The Turn Order's
bids are made face up but together: the searching side bids first (``engine.turn_order``)
so that no enemy bid stands in the world it deals; an Initiative Challenge is made face
down: the holder's world holds the challenger's card it would bid there
(``engine.challenge_card``). The step's probes, which list a decision's options, play the
real game's step on a copy up to that decision, and no further than the present either.

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
    """``engine.play_games`` with the sides in ``searching`` planning their decisions
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
    """A whole game from the position ``s``, each step with a decision a side in
    ``searching`` searches planned (``plan_step``) before the engine plays it with the
    choices made."""
    plan = ws.plan
    while s[L.S_NEXT] != L.NEXT_OVER:
        side = planner(s, pol, searching)
        if side >= 0:
            n = plan_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws,
                          scratch)
            set_plan(plan, L.PLAN_REPLAY, side, kinds_of(pol, side), n, 0)
        play_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log)
        plan[L.PL_MODE] = L.PLAN_OFF


@borrowing
def kinds_of(pol, side):
    """The kinds of decision ``side`` searches (``layout.D_*`` bits, its ``decides``)."""
    return L.DECIDES_BITS[pol[side, L.W_DECIDES]]


@borrowing
def planner(s, pol, searching):
    """The side whose decisions of the next step are planned, -1 if none: a side's turn
    by that side (its destinations and deployments), else by the enemy (its deployments
    as the defender); a Year's Turn Order and a Semester's start (the bids) by the
    Carlists before the Liberals. One plan a step: when both sides search, the enemy's
    deployments in a side's turn, and the Liberals' bids, are greedy's."""
    step = s[L.S_NEXT]
    if step == L.NEXT_SIDE_TURN:
        turn = turn_side(s)
        for side in (turn, 1 - turn):
            need = (1 << L.D_DEPLOYMENT) | ((1 << L.D_DESTINATION) if side == turn else 0)
            if searches(pol, searching, side, need):
                return side
    elif step == L.NEXT_YEAR or step == L.NEXT_SEMESTER:
        for side in range(2):
            if searches(pol, searching, side, 1 << L.D_BID):
                return side
    return -1


@borrowing
def searches(pol, searching, side, need):
    """Does ``side`` search a decision of a kind in ``need`` (bits)?"""
    return searching[side] == 1 and pol[side, L.W_WIDTH] > 1 and kinds_of(pol, side) & need != 0


@borrowing
def set_plan(plan, mode, side, kinds, at, choice):
    """``ws.plan`` for a copy of a step ``side`` plans the decisions of ``kinds`` (bits)
    of: ``mode``, the decision ``at`` (the ``at`` before it forced), the option
    ``choice`` a rollout takes there."""
    plan[L.PL_MODE] = mode
    plan[L.PL_SIDE] = side
    plan[L.PL_KINDS] = kinds
    plan[L.PL_COUNT] = 0
    plan[L.PL_AT] = at
    plan[L.PL_CHOICE] = choice
    plan[L.PL_FOUND] = 0
    plan[L.PL_KIND] = -1
    plan[L.PL_DEALT] = 0
    plan[L.PL_N_OPTIONS] = 0


# -- one step, decision by decision -----------------------------------------------------------


@borrowing
def step_key(s, side):
    """The step's number among the game's, for its rollouts' streams: a side's turn is
    ``2 * S_TURN`` plus the side whose turn it is, a Year's Turn Order and a Semester's
    start are numbered apart."""
    if s[L.S_NEXT] == L.NEXT_SIDE_TURN:
        return 2 * s[L.S_TURN] + turn_side(s)
    return (s[L.S_NEXT] << 20) + 2 * s[L.S_TURN] + side


@allocating
def plan_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch):
    """``side``'s choices at its searched decisions of the step about to be played from
    ``s``, chosen one by one (``PL_FORCE``); their number. ``s`` and ``rng`` are left as
    they were."""
    plan = ws.plan
    key = step_key(s, side)
    for k in range(L.MAX_STEP_DECISIONS):
        n = probe(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k)
        if n == 0:
            return k
        width = min(n, pol[side, L.W_WIDTH])
        options = plan[L.PL_OPTIONS:L.PL_OPTIONS + width].copy()
        plan[L.PL_FORCE + k] = search(p, loc, adj, fac_home, any2, blk, card, s, rng, pol,
                                      side, ws, scratch, k, options, key)
    return L.MAX_STEP_DECISIONS


@borrowing
def probe(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k):
    """The step played on a copy with the ``k`` choices made so far: the legal options
    of its ``k``-th searched decision, greedy's first (``ws.plan``'s options), how many
    (0: the step makes no ``k``-th decision)."""
    sw, rw = copy_position(s, rng, ws, scratch)
    set_plan(ws.plan, L.PLAN_PROBE, side, kinds_of(pol, side), k, 0)
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
           options, key):
    """The choice at the step's ``k``-th searched decision: successive halving over
    ``options`` with a budget of ``rollouts`` (``simkit.search``)."""
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
                                        side, ws, scratch, k, options[o], key, r, rrng)
                played[o] += per
        halving_cut(alive, total, played)
    return options[halving_best(alive, total, played)]


@allocating
def rollout(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, scratch, k, choice,
            key, r, rrng):
    """Rollout ``r`` of ``choice`` at the step's ``k``-th searched decision: the step
    replayed on a copy to that decision, the world dealt again there from the rollout's
    own streams (``plan.own_world``), ``choice`` taken, the rest of the game played by
    greedy; 1 if ``side`` won."""
    streams = rollout_streams(rng, key, k, r, L.N_STREAMS)
    for i in range(streams.shape[0]):
        for j in range(streams.shape[1]):
            ws.plan_rng[i, j] = streams[i, j]
    sw = scratch.state
    for i in range(s.shape[0]):
        sw[i] = s[i]
    for i in range(rng.shape[0]):
        for j in range(rng.shape[1]):
            rrng[i, j] = rng[i, j]
    set_plan(ws.plan, L.PLAN_ROLLOUT, side, kinds_of(pol, side), k, choice)
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
