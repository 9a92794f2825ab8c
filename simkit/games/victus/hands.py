"""Event cards in play: the three shuffled stage piles and the players' hands (rulebook
"Setup", "Start of the Stage", "Change 1 card"). Hands live in ``g`` (``layout.G_HAND``)."""


from simkit.rng import restart, uniform_int
from simkit.unmanaged import borrowing

from . import card_layout as CL
from . import layout as L


@borrowing
def build_piles(CARDS, p, g, rng):
    """Shuffle each stage's cards (first game: only those with the "•" mark)."""
    meta = CARDS[CL.C_META]
    for stage in range(3):
        count = 0
        for card in range(1, L.N_CARDS + 1):
            if meta[card, CL.M_STAGE] == stage and (p[L.P_FULL] or meta[card, CL.M_FIRST_GAME]):
                g[L.G_PILE + stage * L.PILE_SIZE + count] = card
                count += 1
        pile = g[L.G_PILE + stage * L.PILE_SIZE:L.G_PILE + stage * L.PILE_SIZE + count]
        restart(rng, L.ST_EVENT_PILES, stage)  # each pile's order its own: sizes may vary
        for i in range(count - 1, 0, -1):
            j = uniform_int(rng, L.ST_EVENT_PILES, i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        g[L.G_PILE_COUNT + stage] = count
        g[L.G_PILE_NEXT + stage] = 0


@borrowing
def draw_event(g, stage):
    """The top card of a stage pile, 0 if it is empty."""
    if g[L.G_PILE_NEXT + stage] >= g[L.G_PILE_COUNT + stage]:
        return 0
    card = g[L.G_PILE + stage * L.PILE_SIZE + g[L.G_PILE_NEXT + stage]]
    g[L.G_PILE_NEXT + stage] += 1
    return card


@borrowing
def hand_slots(p, seat):
    """The slots a seat's cards lie in: its hand's, or in the solo game Casanova's pile,
    which runs on through the empty seats' slots ("Each time Casanova receives new cards
    ... they are shuffled with the ones already in his pile")."""
    return L.PILE_SLOTS if p[L.P_SOLO] and seat == L.CASANOVA else L.HAND_SIZE


@borrowing
def add_to_hand(g, seat, card, slots):
    """``card`` into the first empty one of the seat's ``slots`` (``hand_slots``)."""
    for slot in range(slots):
        if g[L.G_HAND + seat * L.HAND_SIZE + slot] == 0:
            g[L.G_HAND + seat * L.HAND_SIZE + slot] = card
            return


@borrowing
def cards_in(g, seat, slots):
    count = 0
    for slot in range(slots):
        if g[L.G_HAND + seat * L.HAND_SIZE + slot] != 0:
            count += 1
    return count


@borrowing
def hand_count(g, seat):
    return cards_in(g, seat, L.HAND_SIZE)


@borrowing
def pile_count(g):
    """Solo: the cards in Casanova's pile of cards to play."""
    return cards_in(g, L.CASANOVA, L.PILE_SLOTS)


@borrowing
def take_from_hand(g, seat, slot):
    card = g[L.G_HAND + seat * L.HAND_SIZE + slot]
    g[L.G_HAND + seat * L.HAND_SIZE + slot] = 0
    return card


@borrowing
def deal(CARDS, p, g, stage, per_seat):
    for _ in range(per_seat):
        for seat in range(g[L.G_SEATS]):
            card = draw_event(g, stage)
            if card:
                add_to_hand(g, seat, card, hand_slots(p, seat))


@borrowing
def put_face_down(g, seat, slot):
    """The card in ``slot`` becomes the seat's card for its turn, face down until the
    turn reveals it (rulebook "Start of Round"); returns it."""
    card = take_from_hand(g, seat, slot)
    g[L.G_FACE_DOWN + seat] = card
    return card


@borrowing
def to_the_box(g, n):
    """``n`` cards leave the game: "discard ... and return them to the box" (End of Round,
    a replaced or deactivated leader, Change 1 card; Stage IV's cards not drawn)."""
    g[L.G_CARDS_BOXED] += n


@borrowing
def replace_card(g, seat, slot, stage):
    """Change 1 card: discard the card in ``slot`` (to the box) and draw from the pile."""
    take_from_hand(g, seat, slot)
    to_the_box(g, 1)
    card = draw_event(g, stage)
    if card:
        add_to_hand(g, seat, card, L.HAND_SIZE)


@borrowing
def stage_iv_pool(g, pool):
    """Stage IV's cards: every hand (solo: Villarroel's hand and Casanova's pile), then
    the cards cancelled with resignation tiles (solo only), which leave their place beside
    Casanova's pile. Fills ``pool`` and returns how many cards it holds."""
    n = 0
    for slot in range(L.N_SEATS * L.HAND_SIZE):  # every hand, and Casanova's whole pile
        card = take_from_hand(g, 0, slot)
        if card:
            pool[n] = card
            n += 1
    for k in range(g[L.G_CANCELLED]):
        pool[n] = g[L.G_CANCELLED_CARDS + k]
        g[L.G_CANCELLED_CARDS + k] = 0
        n += 1
    g[L.G_CANCELLED] = 0
    return n
