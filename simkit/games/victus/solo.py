"""The solo game: Villarroel (seat 0, the real player) and Casanova (seat 1, fictional)
(rulebook "Solo Game: Villarroel and Casanova", Examples 30-31).

Casanova's pile of cards to play is kept in his hand slots: it is reshuffled whenever
cards join it, so its top card is a uniform draw among the cards in it. Villarroel's
resignation tiles cancel Casanova's cards, which are set aside for Stage IV's pool.

Readings of what the rulebook leaves open:
- resignation tiles arrive at the start of each stage (the set-up text, Examples 30 and 31,
  and the 3 tiles in the box); the Note's "at the start of each round" is the knob
  ``resignation_tiles = "per_round"``;
- Change 1 card gives Casanova one more card shuffled into his pile and takes none from it
  (he has no hand to discard from; "Each time Casanova receives new cards (... from the
  change-a-card action, etc.), they are shuffled with the ones already in his pile");
- Villarroel never cancels Casanova's last card (the rulebook does not say what an empty
  pile would play).
"""


from simkit.eventlog import log_event
from simkit.rng import restart, uniform_int
from simkit.unmanaged import borrowing

from . import layout as L
from .events import EV_CASANOVA_CARD, EV_RESIGNATION
from .hands import pile_count, take_from_hand
from .policies import unwanted

VILLARROEL, CASANOVA = L.VILLARROEL, L.CASANOVA



@borrowing
def receive_resignation_tile(K, p, g, start_of_stage):
    """Villarroel's resignation tile: at the start of each stage, or of each round, while
    the 3 printed tiles last (a spent tile stays beside Casanova's pile with its card)."""
    printed = K[L.K_COUNTS][L.COUNT_RESIGNATION]
    if (p[L.P_SOLO] and p[L.P_RESIGN_PER_ROUND] != start_of_stage
            and g[L.G_RESIGNATION] + g[L.G_CARDS_CANCELLED] < printed):
        g[L.G_RESIGNATION] += 1


@borrowing
def draw_from_pile(g, rng):
    """The top card of Casanova's shuffled pile (a uniform draw), 0 if it is empty."""
    n = pile_count(g)
    if n == 0:
        return 0
    pick = uniform_int(rng, L.ST_CASANOVA, n)
    for slot in range(L.PILE_SLOTS):
        if g[L.G_HAND + CASANOVA * L.HAND_SIZE + slot]:
            if pick == 0:
                return take_from_hand(g, CASANOVA, slot)
            pick -= 1
    return 0


@borrowing
def cancel(g, card, log):
    """Spend a resignation tile: the card lies face up beside the pile with the tile."""
    g[L.G_RESIGNATION] -= 1
    g[L.G_CANCELLED_CARDS + g[L.G_CANCELLED]] = card
    g[L.G_CANCELLED] += 1
    g[L.G_CARDS_CANCELLED] += 1
    log_event(log, EV_RESIGNATION, card, g[L.G_RESIGNATION])


@borrowing
def may_cancel(g):
    """A tile left, another card in the pile, and no effect forcing a random card."""
    return (g[L.G_RESIGNATION] > 0 and not g[L.G_RANDOM_ROUND]
            and pile_count(g) > 0 and g[L.G_CANCELLED] < L.MAX_CANCELLED)


@borrowing
def casanova_card(CARDS, p, w, g, rng, log):
    """Casanova's card this turn: the top of his pile, cancelled with resignation tiles
    (several in a row if need be) while Villarroel's policy finds it ``unwanted``."""
    restart(rng, L.ST_CASANOVA, g[L.G_TURN])
    card = draw_from_pile(g, rng)
    log_event(log, EV_CASANOVA_CARD, card)
    while card and may_cancel(g) and unwanted(CARDS, p, w, g, rng, card):
        cancel(g, card, log)
        card = draw_from_pile(g, rng)
        log_event(log, EV_CASANOVA_CARD, card)
    return card
