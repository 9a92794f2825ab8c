"""The ``lookahead`` tribe: the skill ceiling each seat's script is measured against
(issue 41's player headroom, ``simkit skill verrix``).

It plays as ``greedy`` does (with greedy's weights, which it takes), except where it
chooses its action in the Action Phase ("engages their tribe's units to play a
Development, Trade or Raid Action Card or to declare a Battle", or passes): the engine
(``engine.play_from``) plays the game and stops there, greedy's choice written in the
state; the search tries greedy's choice and the next best ``width - 1`` by greedy's own
score (``action_options``: every legal card by target, Battle declaration and the pass,
as ``engine.candidates`` lists and scores them) by rollouts, each playing the rest of
the game from a copy of the position with greedy's players, writes its choice and lets
the engine play on. The engine's loop plays the real game and every rollout: there is
no second copy of it.

Not searched, greedy's as in the script: the set-up (hostage, first village), the Event
Phase (drawing, Benevolence, which delayed Event it keeps, when it plays it, The Gift's
source, Arianrhod's order), how an action is carried out (the units it engages, a
trade's goods, a raid's loot and Mórrígan draws, Learning's Special card, a Clan Pact's
site), the Battle's details (supporters, deployment, Battle cards, hold-backs), its
Reactions and Supports to the others' Raids and Battles, and Cleanup's equipment.

The search is ``simkit.search``'s, as every game's: the ``rollouts`` weight is a
decision's budget, spread over its options by successive halving, on common random
numbers (the options of a decision are played on the same rollout streams), greedy's
choice first so that it wins ties. A rollout scores 1 if the tribe is VERRIX at the end
(End of the Game, with its tie-breaks) and 0 if not, plus ``margin_weight`` per VP of its
final margin over the best other tribe.

It does not see the future or the hidden (``resample_hidden``): a player cannot see the
order of the Event deck ("shuffled and covered") nor the delayed Event cards the others
hold ("without revealing it to the other players and places the card, covered"); it
sees its own held card, which tribes hold one (a covered card in a playing area), every
card read aloud or discarded (the discard pile is taken as face up), and, if it played
Arianrhod, the top cards it looked at until they are drawn. Each rollout deals the cards
it cannot see again from its own streams: the others' held cards from the delayed Events
it has not seen (what they can be), the rest into the deck below what it saw, from a
canonical order, so that what comes out depends on the rollout's streams and on what the
player has seen only. Every Mórrígan token and random choice is drawn from the
rollout's own streams (``simkit.search.rollout_streams``). It does not read anything
into the others' choices (an Arianrhod holder's order, which card a player kept).

It has its own kernel (``play_lookahead_games``), compiled on first use: the default
kernel does not contain the search.
"""

import numpy as np

from simkit.checks import at_game, failed
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
from . import policies as PO
from .checks import step_checked
from .engine import (
    KIND_PASS,
    MAX_CANDIDATES,
    acting_seat,
    candidates,
    pass_score,
    play_from,
    setup,
    winner,
    write_choice,
    write_outcome,
)
from .state import pl

#: the policy's line in ``simkit games verrix`` (its id: ``layout.POL_LOOKAHEAD``)
LOOKAHEAD_POLICY = {
    "lookahead": "greedy, except its action choices: greedy's choice and the next best by "
                 "greedy's score, each played out by rollouts of the rest of the game "
                 "(weights: rollouts, width, margin_weight)",
}


def searched_seats(pol):
    """``engine.play_from``'s ``searched`` bits: the seats ``pol`` seats as
    ``lookahead`` whose ``width`` leaves something to choose (bit ``seat``)."""
    bits = 0
    for seat in range(pol.shape[0]):
        if pol[seat, L.W_ID] == L.POL_LOOKAHEAD and pol[seat, L.W_WIDTH] > 1:
            bits |= 1 << seat
    return bits


def greedy_rows(pol):
    """The policy rows the kernel plays with: each look-ahead's row (its weights:
    greedy's, its budget and width) under greedy's id, so that every choice it does not
    search, and every choice in its rollouts, is greedy's with those weights. Built
    here, in Python, so that the caller owns it for the whole kernel call (``unmanaged``
    views do not own arrays)."""
    rows = pol.copy()
    rows[rows[:, L.W_ID] == L.POL_LOOKAHEAD, L.W_ID] = L.POL_GREEDY
    return rows


# -- the game loop ----------------------------------------------------------------------------


@allocating
def play_lookahead_games(S, p, pol, searched, game_indices, root_seed, log):
    """``engine.play_games`` with the action choices of the seats in ``searched``
    (``searched_seats``) made by rollouts (``pol``: ``greedy_rows``): one outcome row
    per game."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int64)
    g = np.zeros(L.N_STATE, dtype=np.int64)
    rs = np.zeros(L.N_STATE, dtype=np.int64)
    tables = unmanaged(S)  # the caller owns the tables and the rows for the whole call
    rows = unmanaged(pol)
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        restart(rng, L.ST_EVENT_DECK, 0)
        play_searched(tables, p, rows, rng, g, searched, rs, log)
        if failed(log):
            break  # the state checks stop at the first broken invariant
        write_outcome(tables, p, g, out[row], log)
    return out


@allocating
def play_searched(S, p, pol, rng, g, searched, rs, log):
    """A whole game from the set-up, the action choices of the seats in ``searched``
    made by ``search`` (``rs``: scratch for the rollouts' positions)."""
    setup(S, p, pol, g, rng, log)
    if step_checked(S, p, g, log, L.STEP_SETUP):
        return
    decision = play_from(S, p, pol, g, rng, searched, log)
    while decision != L.D_NONE:
        search(S, p, pol, g, rng, rs)
        decision = play_from(S, p, pol, g, rng, searched, log)


# -- one decision -----------------------------------------------------------------------------


@allocating
def search(S, p, pol, g, rng, rs):
    """Make the action choice the engine stopped at: successive halving over its options
    with a budget of the seat's ``rollouts`` (``simkit.search``), the choice written in
    the state. The game's streams are not drawn from."""
    seat = acting_seat(g)
    options = np.empty((pol[seat, L.W_WIDTH], 3), dtype=np.int64)
    n = action_options(S, p, pol, g, seat, options)
    index = g[L.G_SEARCHED]  # the decision's number within its turn: its rollouts' streams
    g[L.G_SEARCHED] = min(index + 1, MAX_DECISIONS - 1)
    if n == 1:
        return
    budget = pol[seat, L.W_ROLLOUTS]
    alive, total, played = halving_start(n)
    rounds = halving_rounds(n)
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n):
            if alive[o]:
                for r in range(played[o], played[o] + per):
                    total[o] += rollout(S, p, pol, g, rng, rs, seat, options[o], index, r)
                played[o] += per
        halving_cut(alive, total, played)
    best = halving_best(alive, total, played)
    write_choice(g, options[best, 0], options[best, 1], options[best, 2])


@allocating
def action_options(S, p, pol, g, seat, options):
    """The seat's options where it chooses its action, one row each (kind, card,
    target; a pass is ``KIND_PASS``): greedy's choice (``G_CHOICE``) first, then the
    others by greedy's own score (``engine.candidates``, the pass at its first-pass
    value), best first, a tie to the pass and then to the earlier candidate, as many as
    ``options`` holds (the seat's ``width``); their number."""
    kind = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    card = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    target = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    score = np.zeros(MAX_CANDIDATES + 1, dtype=np.int64)
    n = candidates(S, p, pol, g, seat, kind, card, target, score[1:])
    score[0] = pass_score(p, pol, g, seat)  # the pass, before the candidates
    for k in range(3):
        options[0, k] = g[L.G_CHOICE + k]
    m = 1
    order = np.argsort(-score[:n + 1], kind="mergesort")  # stable: a tie to the earlier
    for j in order:
        if m == options.shape[0]:
            break
        if j == 0:
            o0, o1, o2 = KIND_PASS, -1, -1
        else:
            o0, o1, o2 = kind[j - 1], card[j - 1], target[j - 1]
        if o0 == options[0, 0] and o1 == options[0, 1] and o2 == options[0, 2]:
            continue  # greedy's own choice, already first
        options[m, 0], options[m, 1], options[m, 2] = o0, o1, o2
        m += 1
    return m


@allocating
def rollout(S, p, pol, g, rng, rs, seat, option, index, r):
    """Rollout ``r`` of ``option``: the decision's position copied into ``rs``, the cards
    the seat cannot see dealt afresh and every draw from the rollout's own streams, the
    option chosen, and the rest of the game played by greedy; 1 if the seat is VERRIX,
    0 if not, plus its ``margin_weight`` per VP of its final margin."""
    rs[:] = g
    rrng = rollout_streams(rng, g[L.G_TURN], index, r, L.N_STREAMS)
    resample_hidden(rrng, S, p, rs, seat)
    write_choice(rs, option[0], option[1], option[2])
    play_from(S, p, pol, rs, rrng, 0, np.zeros((0, 4), dtype=np.int64))
    won, _ = winner(S, p, rs)
    score = 1.0 if won == seat else 0.0
    return score + pol[seat, L.W_MARGIN_WEIGHT] / 1000.0 * vp_margin(p, rs, seat)


@borrowing
def vp_margin(p, g, seat):
    """The seat's VP less the best other seat's."""
    best = -(1 << 30)
    for s in range(p[L.P_PLAYERS]):
        if s != seat:
            best = max(best, g[pl(s) + L.PL_VP])
    return g[pl(seat) + L.PL_VP] - best


# -- what the player cannot see -----------------------------------------------------------------


@allocating
def resample_hidden(rng, S, p, g, seat):
    """Deal afresh, from ``rng``, the Event cards ``seat`` cannot see: the deck below
    what it saw with Arianrhod (``G_SEEN_BY``, ``G_SEEN_END``) and the delayed cards the
    other seats hold. They are put in a canonical order (sorted) and shuffled; each other
    holder takes, in seat order, the first delayed Event of the shuffle (a covered card
    in a playing area is a delayed one), the deck the rest in that order. What comes out
    depends on ``rng`` and on what the seat has seen only."""
    top = PO.first_unseen(p, g, seat)
    hidden = np.empty(p[L.P_N_EVENTS] - top + L.MAX_PLAYERS, dtype=np.int64)
    n = PO.hidden_events(p, g, seat, hidden)
    if n == 0:
        return
    cards = np.sort(hidden[:n])
    restart(rng, L.ST_EVENT_DECK, 0)
    shuffle(rng, L.ST_EVENT_DECK, cards)
    taken = np.zeros(n, dtype=np.bool_)
    for s in range(p[L.P_PLAYERS]):
        if s != seat and g[pl(s) + L.PL_HELD_EVENT] >= 0:
            for k in range(n):
                if not taken[k] and \
                        S[L.S_EVENTS][cards[k], L.EV_TIMING] == L.TIMING_DELAYED:
                    taken[k] = True
                    g[pl(s) + L.PL_HELD_EVENT] = cards[k]
                    break
    i = top
    for k in range(n):
        if not taken[k]:
            g[L.G_DECK + i] = cards[k]
            i += 1
