"""The ``lookahead`` player: the skill ceiling the scripted players are measured against.

It plays as ``greedy`` does, except at the decisions it searches: the card each seat puts
face down (solo: Villarroel's card at the start of his turn) and, when the players order
the Bourbon dice, which die to resolve next (after seeing what the ones before it did).
The engine (``engine.play_until``) plays the game and stops at those decisions with
greedy's choice in ``G_CHOICE``; the search tries greedy's choice and every other
(``decision_options``) by rollouts, playing the rest of the game from copies of the
position with greedy's players, writes its choice and lets the engine play on. The
engine's loop plays the real game and every rollout: there is no second copy of it.

The search is ``simkit.search``'s, as every game's: the ``rollouts`` weight is a
decision's budget of rollouts, spread over its options by successive halving (every
option on a few rollouts, the better half on more, ...), on common random numbers (the
options of a decision are played on the same rollout streams), greedy's choice first so
that it wins ties. A rollout scores 1 if Barcelona holds to the end and 0 if not; the
``ties`` weight may add, below any difference of one rollout, how well the game ended
(``margin``: the end position's ``judgement.evaluate_position`` if won, the turns
lasted if lost).

It does not see the future or the hidden (``resample_hidden``): each rollout puts what the
players cannot see, the undrawn event piles and chance deck (solo: with Casanova's face
down pile, stage by stage), in a canonical order and shuffles it from its own streams,
and draws its dice, chance reshuffles and Casanova's and Stage IV's cards from its own
streams (``simkit.search.rollout_streams``), so its choice does not depend on the order
of any hidden card. The players of a cooperative table share their hands (they may talk);
in the competitive game the search, playing for the table's survival, also reads the
other hands' Sense/Fury values, which the rulebook forbids players to tell each other.

Its ``decides`` weight limits the search to the card choices or to the dice, to measure
which of greedy's decisions lose games. It has its own kernel (``play_lookahead_games``),
compiled on first use: the default kernel does not contain the search.
"""

import numpy as np

from simkit.checks import at_game, failed
from simkit.rng import game_streams, restart, shuffle
from simkit.search import (
    halving_best,
    halving_cut,
    halving_per_option,
    halving_rounds,
    halving_start,
    rollout_streams,
)
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import card_layout as CL
from . import layout as L
from .engine import play_until, record
from .judgement import evaluate_position
from .policies import restore

#: below one rollout's difference in a decision's mean score (budgets stay under 1 / TIE)
TIE = 1e-6
#: ``ties = margin``: the end position's score, squashed into [0, 1) by this scale
MARGIN_SCALE = 1000.0
#: the stops the ``decides`` weight asks for (index: ``DECIDES_*``)
DECIDES_STOPS = np.array([L.STOP_CARD | L.STOP_DIE, L.STOP_CARD, L.STOP_DIE])


def greedy_rows(pol):
    """The policy rows the look-ahead plays with: its own weights (budget, what it
    decides, and greedy's weights for everything else), under greedy's id, so that every
    choice it does not search, and every choice in its rollouts, is greedy's with those
    weights. Built here, in Python, so that the caller owns it for the whole kernel call
    (``unmanaged`` views do not own arrays)."""
    rows = pol.copy()
    rows[:, L.W_POLICY] = L.GREEDY
    return rows


# -- the game loop ----------------------------------------------------------------------------


@allocating
def play_lookahead_games(K, DICE, CARDS, p, pol, sp0, g0, game_indices, root_seed, log):
    """``engine.play_games`` for the look-ahead player (``pol``: ``greedy_rows``): one
    outcome row per game."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    w = pol[L.PLAYERS]
    stop = DECIDES_STOPS[w[L.W_DECIDES]]
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        sp, g = sp0.copy(), g0.copy()
        reason = play_searched(unmanaged(K), unmanaged(DICE), unmanaged(CARDS), unmanaged(p),
                               unmanaged(w), unmanaged(sp), unmanaged(g), unmanaged(rng), stop,
                               unmanaged(log))
        if failed(log):
            break  # the state checks stop at the first broken invariant
        record(K, sp, g, reason, out[row])
    return out


@allocating
def play_searched(K, DICE, CARDS, p, w, sp, g, rng, stop, log):
    """A whole game from the set-up position, the decisions in ``stop`` searched; the end
    reason."""
    reached = play_until(K, DICE, CARDS, p, w, sp, g, rng, stop, log)
    while reached:
        g[L.G_CHOICE] = search(K, DICE, CARDS, p, w, sp, g, rng)
        reached = play_until(K, DICE, CARDS, p, w, sp, g, rng, stop, log)
    return g[L.G_END_REASON]


# -- one decision -----------------------------------------------------------------------------


@allocating
def search(K, DICE, CARDS, p, w, sp, g, rng):
    """The choice of the decision the engine stopped at: successive halving over its
    options with a budget of ``rollouts`` (``simkit.search``)."""
    options = decision_options(p, g)
    n = options.shape[0]
    if n == 1:
        return options[0]
    budget, ties = w[L.W_ROLLOUTS], w[L.W_TIES]
    decision = decision_index(g)
    rsp, rg = sp.copy(), g.copy()  # every rollout's position, reset from the decision's
    alive, total, played = halving_start(n)
    rounds = halving_rounds(n)
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n):
            if alive[o]:
                for r in range(played[o], played[o] + per):
                    total[o] += rollout(K, DICE, CARDS, p, w, sp, g, rng, rsp, rg, options[o],
                                        decision, r, ties)
                played[o] += per
        halving_cut(alive, total, played)
    return options[halving_best(alive, total, played)]


@allocating
def decision_options(p, g):
    """The choices open at the decision the engine stopped at, greedy's (``G_CHOICE``)
    first: each card of the seat's hand (hand slots), or each die left to resolve whose
    face (action and amount) differs from those listed before it (dice indices; a die a
    leader brought to 0 does nothing and is no option)."""
    default = g[L.G_CHOICE]
    options = np.empty(L.HAND_SIZE, dtype=np.int64)
    options[0] = default
    n = 1
    if g[L.G_NEXT] == L.NEXT_RESOLVE_DIE:
        for place in range(g[L.G_RESOLVED], g[L.G_ROLLED]):
            die = g[L.G_DIE_ORDER + place]
            if g[L.G_FACES + 2 * die + 1] > 0 and not face_listed(g, options, n, die):
                options[n] = die
                n += 1
    else:
        seat = g[L.G_CHOOSER] if g[L.G_NEXT] == L.NEXT_PLACE_CARD else L.VILLARROEL
        for slot in range(L.HAND_SIZE):
            if slot != default and g[L.G_HAND + seat * L.HAND_SIZE + slot] != 0:
                options[n] = slot
                n += 1
    return options[:n]


@borrowing
def face_listed(g, options, n, die):
    """Does one of the first ``n`` options show ``die``'s face?"""
    for k in range(n):
        other = options[k]
        if (g[L.G_FACES + 2 * other] == g[L.G_FACES + 2 * die]
                and g[L.G_FACES + 2 * other + 1] == g[L.G_FACES + 2 * die + 1]):
            return True
    return False


@borrowing
def decision_index(g):
    """The decision's number within its turn (its rollouts' streams): a seat's card
    choice 0-3, Villarroel's card 4, the die at place k 8 + k."""
    if g[L.G_NEXT] == L.NEXT_RESOLVE_DIE:
        return 8 + g[L.G_RESOLVED]
    if g[L.G_NEXT] == L.NEXT_PLACE_CARD:
        return g[L.G_CHOOSER]
    return 4


@allocating
def rollout(K, DICE, CARDS, p, w, sp, g, rng, rsp, rg, choice, decision, r, ties):
    """Rollout ``r`` of ``choice``: the decision's position copied into ``rsp``/``rg``,
    the hidden cards resampled from the rollout's own streams, the choice made, and the
    rest of the game played by greedy; its score."""
    restore(rsp, sp)
    restore(rg, g)
    rrng = rollout_streams(rng, g[L.G_TURN], decision, r, L.N_STREAMS)
    resample_hidden(CARDS, p, rg, rrng)
    rg[L.G_CHOICE] = choice
    play_until(K, DICE, CARDS, p, w, rsp, rg, rrng, 0, np.zeros((0, 4), dtype=np.int64))
    return rollout_score(K, CARDS, p, rsp, rg, ties)


@borrowing
def rollout_score(K, CARDS, p, sp, g, ties):
    """1 if Barcelona held, 0 if not; with ``ties = margin``, plus less than one
    rollout's worth for how well it ended (``TIE`` times a number in [0, 1))."""
    won = g[L.G_END_REASON] == L.END_SURVIVED
    if ties == L.TIES_NONE:
        return 1.0 if won else 0.0
    if won:
        margin = max(evaluate_position(K, CARDS, p, sp, g), 0) / MARGIN_SCALE
        return 1.0 + TIE * margin / (1.0 + margin)
    return TIE * g[L.G_TURN] / (g[L.G_TURN] + 1.0)


# -- what the players cannot see ----------------------------------------------------------------


@allocating
def resample_hidden(CARDS, p, g, rng):
    """Deal afresh, from ``rng``, what the players cannot see: each stage's undrawn event
    cards (solo: with the cards of that stage in Casanova's face-down pile, which
    Villarroel has not seen either) and the chance cards not yet drawn. Each set is first
    put in a canonical order (sorted), so what comes out depends on ``rng`` and on what
    the players know, never on the hidden order."""
    stage_of = CARDS[CL.C_META][:, CL.M_STAGE]
    solo = p[L.P_SOLO]
    for stage in range(3):
        start = L.G_PILE + stage * L.PILE_SIZE
        first, count = start + g[L.G_PILE_NEXT + stage], start + g[L.G_PILE_COUNT + stage]
        unseen = np.empty(count - first + L.PILE_SLOTS, dtype=np.int64)
        n = 0
        if solo:
            for slot in range(L.PILE_SLOTS):
                card = g[L.G_HAND + L.CASANOVA * L.HAND_SIZE + slot]
                if card != 0 and stage_of[card] == stage:
                    unseen[n] = card
                    n += 1
        for i in range(first, count):
            unseen[n] = g[i]
            n += 1
        cards = np.sort(unseen[:n])
        restart(rng, L.ST_SET_UP, 1 + stage)  # the rollout's own deal of the hidden cards
        shuffle(rng, L.ST_SET_UP, cards)
        n = 0
        if solo:
            for slot in range(L.PILE_SLOTS):
                card = g[L.G_HAND + L.CASANOVA * L.HAND_SIZE + slot]
                if card != 0 and stage_of[card] == stage:
                    g[L.G_HAND + L.CASANOVA * L.HAND_SIZE + slot] = cards[n]
                    n += 1
        for i in range(first, count):
            g[i] = cards[n]
            n += 1
    deck = np.sort(g[L.G_CHANCE_DECK + g[L.G_CHANCE_NEXT]:L.G_CHANCE_DECK + L.N_CHANCE])
    restart(rng, L.ST_SET_UP, 0)
    shuffle(rng, L.ST_SET_UP, deck)
    for k in range(deck.shape[0]):
        g[L.G_CHANCE_DECK + g[L.G_CHANCE_NEXT] + k] = deck[k]
