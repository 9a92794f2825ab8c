"""The Verrix sequence of play as njit kernels (rulebook: Setup, How to Play, End of the
Game).

``setup`` (Common and Player Area Setup, Playing Order and End of Setup), then 12 turns:
Month Turns (``event_phase``, ``action_phase``, ``cleanup``) and a Festival Turn after
every 2 Month Turns (``festival``); then ``final_delayed_events`` and ``winner`` with the
tie-breaks. ``play_from`` plays them as steps (``step``, the state's ``G_NEXT``) from any
position, and may stop where a player has chosen its action before it is carried out
(``choose_action``, ``carry_out``): the default kernel and the look-ahead's rollouts play
the same loop. Actions are in ``actions`` and ``battle``; choices in ``policies`` and
``appraisal``.
"""

import numpy as np
from numba import njit

from simkit.checks import at_game, failed
from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, shuffle
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import appraisal as PL
from . import layout as L
from . import policies as PO
from .actions import (
    TARGET_NONE,
    destination,
    find_op,
    play_card,
    playable,
    trip_engagement,
    vp,
)
from .battle import declare_battle
from .checks import step_checked
from .events import (
    EV_CLEANUP_VP,
    EV_DECK_OUT,
    EV_DELAYED,
    EV_DRAW,
    EV_DW,
    EV_FESTIVAL,
    EV_FINAL,
    EV_GAIN,
    EV_PASS,
    EV_SETUP,
    EV_TURN,
)
from .state import (
    add_vp,
    animals,
    gain_dw,
    gain_goods,
    goods_types,
    held,
    hostages,
    leader_bonus,
    lose_goods,
    move_price,
    pl,
    place_village,
    trophies,
    trophy_holder,
)


# -- set-up ------------------------------------------------------------------------------------
@borrowing
def setup(S, p, pol, g, rng, log):
    """Common Area Setup and Player Area Setup; the first player takes the Kings' Ring
    and 1 VP; in playing order each tribe takes its hostage, if its Setup Card entitles
    it to one, and places its first village token on one of the 3 territories of its
    Setup Card (``PO.hostage_pick``, ``PO.setup_site``)."""
    g[:] = 0
    n = p[L.P_PLAYERS]
    for good in range(L.N_GOODS):
        g[L.G_MARKET + good] = S[L.S_GOODS][good, L.GD_COUNT]
    for v in range(L.MAX_NODES):
        g[L.G_VILLAGE + v] = -1
    for t in range(L.N_TROPHIES):
        g[L.G_TROPHY_OWNER + t] = -1
    for t in range(L.N_TOKENS):
        g[L.G_BAG + t] = 1
    g[L.G_NEXT] = L.NEXT_TURN
    g[L.G_SEEN_BY] = -1
    g[L.G_GREY_MEEPLES] = n
    g[L.G_POOL_DW] = p[L.P_DIVINE_WILL]
    # the reading vp_past_110: one '55' token per tribe marks a lap, or the last space
    g[L.G_VP_CAP] = 2 * L.VP_TRACK if p[L.P_VP_PAST_110] == L.VP_PAST_CAPPED else L.NO_VP_CAP
    for i in range(p[L.P_N_EVENTS]):
        g[L.G_DECK + i] = i
    shuffle(rng, L.ST_EVENT_DECK, g[L.G_DECK:L.G_DECK + p[L.P_N_EVENTS]])
    for s in range(n):
        tribe = p[L.P_TRIBE + s]
        # the tribesmen not available from the start wait in the market
        g[L.G_MARKET_MEN + tribe] = L.TRIBESMEN - L.TRIBESMEN_AVAILABLE
        setup_player(S, p, g, s, tribe)
    for s in range(n):
        g[L.G_ORDER + s] = s
        colour = -1
        if S[L.S_TRIBES][g[pl(s) + L.PL_TRIBE], L.TR_HOSTAGE]:
            colour = PO.hostage_pick(pol, g, rng, s, g[pl(s) + L.PL_TRIBE])
            if colour >= 0:
                g[L.G_MARKET_MEN + colour] -= 1
                g[pl(s) + L.PL_HOSTAGES + colour] += 1
        site = PO.setup_site(S, p, pol, g, rng, s)
        place_village(g, s, site)
        log_event(log, EV_SETUP, s, site, colour)
    add_vp(g, 0, p[L.P_FIRST_PLAYER_VP])
    for s in range(n):
        PL.keep_reserve(S, p, pol, g, s)


@borrowing
def setup_player(S, p, g, s, tribe):
    """A tribe's cards and units: 5 tribesmen and its leader available, the Setup Card's
    goods and Divine Will (from the finite pool), Basic cards in hand, Special aside."""
    b = pl(s)
    g[b + L.PL_TRIBE] = tribe
    g[b + L.PL_VP] = p[L.P_START_VP]
    g[b + L.PL_MEN] = L.TRIBESMEN_AVAILABLE
    for good in range(L.N_GOODS):
        n = S[L.S_TRIBES][tribe, L.TR_GOODS + good]
        if good == L.PROVISIONS:
            n += p[L.P_EXTRA_PROVISIONS]
        gain_goods(g, s, good, n)
    gain_dw(g, s, S[L.S_TRIBES][tribe, L.TR_DW] + p[L.P_EXTRA_DW])
    g[b + L.PL_LEADER] = S[L.S_TRIBES][tribe, L.TR_LEADER]
    g[b + L.PL_LEADER_AT] = L.AT_AVAILABLE
    g[b + L.PL_LEADER + 1] = -1
    for j in range(L.MAX_LEADERS * L.MAX_SLOTS):
        g[b + L.PL_EQUIP + j] = -1
    g[b + L.PL_HELD_EVENT] = -1
    g[b + L.PL_LEARN_CHOICE] = -1
    for c in range(p[L.P_N_CARDS]):
        if (S[L.S_CARDS][c, L.CD_OWNERS] >> tribe) & 1:
            g[b + L.PL_CARD + c] = L.CARD_HAND if S[L.S_CARDS][c, L.CD_BASIC] \
                else L.CARD_UNLEARNED


# -- events ------------------------------------------------------------------------------------
@borrowing
def event_op(S, p, pol, g, rng, seat, ev, k, log):
    """One operation of an Event card (events take priority over the rules)."""
    o = L.EV_OPS + k * L.OP_WIDTH
    op = S[L.S_EVENTS][ev, o]
    a = S[L.S_EVENTS][ev, o + 1]
    b = S[L.S_EVENTS][ev, o + 2]
    if op == L.EO_GAIN:
        log_event(log, EV_GAIN, seat, a, gain_goods(g, seat, a, b))
    elif op == L.EO_THE_GIFT:
        the_gift(p, pol, g, rng, seat, a, log)
    elif op == L.EO_DIVINE_WILL:
        log_event(log, EV_DW, seat, gain_dw(g, seat, a))
    elif op == L.EO_VP:
        vp(g, seat, a, log)
    elif op == L.EO_TILE:
        g[L.G_TILE] = a
    elif op == L.EO_EVERYONE_LOSES:
        for s in range(p[L.P_PLAYERS]):
            lose_goods(g, s, a, b)
    elif op == L.EO_LOSE:
        lose_goods(g, seat, a, b)
    elif op == L.EO_RESCUE:
        tribe = g[pl(seat) + L.PL_TRIBE]
        r = min(a, g[L.G_MARKET_MEN + tribe])
        g[L.G_MARKET_MEN + tribe] -= r
        g[pl(seat) + L.PL_MEN] += r
    elif op == L.EO_VP_PER:
        vp(g, seat, min(held(g, seat, a), b), log)
    elif op == L.EO_FREE_MOVE:
        g[pl(seat) + L.PL_FREE_MOVE] = 1
    elif op == L.EO_REORDER:
        arianrhod(S, p, pol, g, seat)


@borrowing
def the_gift(p, pol, g, rng, seat, good, log):
    """The Gift (Event Phase: its example): a Cow "from the Portum Itium market or, if
    available, from another player's Village Card", where the drawer chooses
    (``PO.gift_source``); it and one of the drawer's tribesmen go to the Travel Card."""
    b = pl(seat)
    source = PO.gift_source(p, pol, g, rng, seat, good)
    if source == PO.NO_SOURCE:
        return
    if source == PO.TAKE_FROM_MARKET:
        g[L.G_MARKET + good] -= 1
    else:
        g[pl(source) + L.PL_GOODS + good] -= 1
    g[b + L.PL_TRAVEL_GOODS + good] += 1
    log_event(log, EV_GAIN, seat, good, 1)
    if g[b + L.PL_MEN] > 0:
        g[b + L.PL_MEN] -= 1
        g[b + L.PL_MEN_TRAVEL] += 1


@borrowing
def arianrhod(S, p, pol, g, seat):
    """Arianrhod (Event Phase: its example): look at the top 3 Event cards and put them back in the
    order the holder prefers (the best for it on top)."""
    top = g[L.G_EVENT_TOP]
    n = min(3, p[L.P_N_EVENTS] - top)
    g[L.G_SEEN_BY] = seat  # what it saw, the others did not (the look-ahead's view)
    g[L.G_SEEN_END] = top + n
    for i in range(n):
        for j in range(n - 1 - i):
            x = g[L.G_DECK + top + j]
            y = g[L.G_DECK + top + j + 1]
            if PO.event_value(S, p, pol, g, seat, y) > PO.event_value(S, p, pol, g, seat, x):
                g[L.G_DECK + top + j] = y
                g[L.G_DECK + top + j + 1] = x


@borrowing
def apply_event(S, p, pol, g, rng, seat, ev, log):
    for k in range(S[L.S_EVENTS][ev, L.EV_N_OPS]):
        event_op(S, p, pol, g, rng, seat, ev, k, log)


@borrowing
def draw_event(p, g, log):
    """The top Event card, or -1 when the deck has run out (Event Phases end for good)."""
    top = g[L.G_EVENT_TOP]
    if top >= p[L.P_N_EVENTS]:
        g[L.G_EVENTS_OVER] = 1
        log_event(log, EV_DECK_OUT)
        return -1
    g[L.G_EVENT_TOP] = top + 1
    return g[L.G_DECK + top]


@borrowing
def event_phase(S, p, pol, g, rng, log):
    """Event Phase: in playing order each player may pay 3 Divine Will and draw an Event;
    immediate ones apply at once, delayed ones are kept face down (one at a time).
    Purple's Benevolence discards a drawn card for a second draw."""
    for i in range(p[L.P_PLAYERS]):
        if g[L.G_EVENTS_OVER]:
            return
        s = g[L.G_ORDER + i]
        if g[pl(s) + L.PL_DW] < p[L.P_EVENT_COST]:
            continue
        if not PO.draws_event(p, g, rng, s, pol[s, L.W_ID]):
            continue
        if g[L.G_EVENT_TOP] >= p[L.P_N_EVENTS]:
            draw_event(p, g, log)
            step_checked(S, p, g, log, L.STEP_EVENT_DRAW)
            return
        event_draw(S, p, pol, g, rng, s, log)
        if step_checked(S, p, g, log, L.STEP_EVENT_DRAW):
            return


@borrowing
def event_draw(S, p, pol, g, rng, s, log):
    """One player's draw in the Event Phase: 3 Divine Will to the Common Pool, the card
    (Benevolence: maybe discarded for a second), applied at once or kept face down."""
    b = pl(s)
    g[b + L.PL_DW] -= p[L.P_EVENT_COST]
    g[L.G_POOL_DW] += p[L.P_EVENT_COST]
    ev = draw_event(p, g, log)
    g[b + L.PL_N_EVENTS] += 1
    redrawn = 0
    if p[L.P_BENEVOLENCE] and S[L.S_TRIBES][g[b + L.PL_TRIBE], L.TR_REDRAW] and \
            PO.redraws(S, p, pol, g, s, ev) and g[L.G_EVENT_TOP] < p[L.P_N_EVENTS]:
        ev = draw_event(p, g, log)
        redrawn = 1
    log_event(log, EV_DRAW, s, ev, redrawn)
    if S[L.S_EVENTS][ev, L.EV_TIMING] == L.TIMING_IMMEDIATE:
        apply_event(S, p, pol, g, rng, s, ev, log)
    elif g[b + L.PL_HELD_EVENT] < 0 or \
            PO.keeps_new_delayed(S, p, pol, g, s, g[b + L.PL_HELD_EVENT], ev):
        g[b + L.PL_HELD_EVENT] = ev


# -- the Action Phase ------------------------------------------------------------------------
MAX_CANDIDATES = 256
KIND_CARD, KIND_BATTLE, KIND_PASS = 0, 1, 2


@borrowing
def play_delayed(S, p, pol, g, rng, seat, log):
    ev = g[pl(seat) + L.PL_HELD_EVENT]
    g[pl(seat) + L.PL_HELD_EVENT] = -1
    log_event(log, EV_DELAYED, seat, ev)
    apply_event(S, p, pol, g, rng, seat, ev, log)


@borrowing
def candidates(S, p, pol, g, seat, kind, card, target, score):
    """Every legal action of the seat (cards by target, Battle declarations) with the
    greedy appraisal of each (a trait style's bonus added, ``policies.style_score``); a
    card's units cost at least what the best Battle the seat could declare loses by
    them (``PL.battle_loss``)."""
    n = 0
    best_battle = PL.best_battle(S, p, pol, g, seat)
    for c in range(p[L.P_N_CARDS]):
        if not playable(S, p, g, seat, c):
            continue
        raid = find_op(S, c, L.OP_RAID) >= 0
        # the units depend on the target only in a Raid (``legal_engagement``, in steps)
        men0, lmask0 = PO.action_units(S, p, pol, g, seat, c, TARGET_NONE)
        for t in range(-2, p[L.P_PLAYERS]):
            if not PL.listed_target(S, seat, c, t):
                continue
            if raid:
                men0, lmask0 = PO.action_units(S, p, pol, g, seat, c, t)
            men, lmask = trip_engagement(S, p, pol, g, seat, c, t, men0, lmask0)
            if men < 0:
                continue
            kind[n] = KIND_CARD
            card[n] = c
            target[n] = t
            score[n] = PO.style_score(S, pol, seat, c,
                                      PL.card_value(S, p, pol, g, seat, c, t, men, lmask)) - \
                PL.battle_loss(S, p, pol, g, seat, men, lmask, best_battle)
            n += 1
    for t in range(p[L.P_PLAYERS]):
        if t == seat:
            continue
        v = PL.battle_value(S, p, pol, g, seat, t)
        if v > -(1 << 20):
            kind[n] = KIND_BATTLE
            card[n] = -1
            target[n] = t
            score[n] = PO.style_score(S, pol, seat, -1, v)
            n += 1
    return n


@allocating
def choose_action(S, p, pol, g, rng, seat, log):
    """The first half of a player's turn in the Action Phase: maybe a delayed event, then
    the action its policy chooses among the candidates, or a pass, written in the state
    (``G_CHOICE``: kind, card, target) for ``carry_out`` (a look-ahead may change it
    first). Returns False if a checked run found a broken invariant."""
    b = pl(seat)
    ev = g[b + L.PL_HELD_EVENT]
    if ev >= 0 and PO.plays_delayed_now(S, p, g, seat, ev):
        play_delayed(S, p, pol, g, rng, seat, log)
        if step_checked(S, p, g, log, L.STEP_DELAYED_EVENT):
            return False
    PL.keep_reserve(S, p, pol, g, seat)
    kind = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    card = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    target = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    score = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    n = candidates(S, p, pol, g, seat, kind, card, target, score)
    i = PO.choose(score, n, rng, seat, pol[seat, L.W_ID], pass_score(p, pol, g, seat))
    if i < 0:
        write_choice(g, KIND_PASS, -1, -1)
    else:
        write_choice(g, kind[i], card[i], target[i])
    return True


@borrowing
def pass_score(p, pol, g, seat):
    """What passing is worth to the seat's appraisal: the first pass's VP."""
    return pol[seat, L.W_VP_POINTS] * p[L.P_FIRST_PASS_VP] if g[L.G_N_PASSED] == 0 else 0


@borrowing
def write_choice(g, kind, card, target):
    """The action chosen, before it is carried out (``G_CHOICE``)."""
    g[L.G_CHOICE] = kind
    g[L.G_CHOICE + 1] = card
    g[L.G_CHOICE + 2] = target


@allocating
def carry_out(S, p, pol, g, rng, seat, log):
    """The second half of a player's turn: the action written in the state (a Battle, a
    card, or a pass). Returns True if the seat passed."""
    b = pl(seat)
    kind, c, t = g[L.G_CHOICE], g[L.G_CHOICE + 1], g[L.G_CHOICE + 2]
    if kind == KIND_PASS:
        return True
    if kind == KIND_BATTLE:
        support_prices(S, p, pol, g, seat, t, True)
        declare_battle(S, p, pol, g, rng, seat, t, log)
        support_prices(S, p, pol, g, seat, t, False)
        return False
    if S[L.S_CARDS][c, L.CD_N_OPS] > 0 and \
            S[L.S_CARDS][c, L.CD_OPS] == L.OP_LEARN and pol[seat, L.W_ID] != L.POL_RANDOM:
        g[b + L.PL_LEARN_CHOICE] = PL.best_special(S, p, pol, g, seat)
    ev = g[b + L.PL_HELD_EVENT]
    if ev >= 0:
        dest = destination(S, p, g, seat, c, t)
        if dest >= 0 and move_price(S, p, g, seat, dest, 0)[0] >= 2:
            play_delayed(S, p, pol, g, rng, seat, log)  # Hidden Path: this trip is free
            if step_checked(S, p, g, log, L.STEP_DELAYED_EVENT):
                return False
    play_card(S, p, pol, g, rng, seat, c, t, log)
    return False


@borrowing
def support_prices(S, p, pol, g, attacker, defender, on):
    """Before a Battle (``on``): each greedy player who may Support it prices its
    Support's STRENGTH by what its best action loses (``PL.support_price``), above
    ``unit_points``; after it, the price is ``unit_points`` again."""
    for s in range(p[L.P_PLAYERS]):
        at = pl(s) + L.PL_UNIT_PRICE
        g[at] = 0
        if on and s != attacker and s != defender and not g[pl(s) + L.PL_PASSED] and \
                pol[s, L.W_ID] != L.POL_RANDOM:
            g[at] = PL.support_price(S, p, pol, g, s)


@borrowing
def pass_turn(p, g, seat, log):
    """Passing: the disc moves to the first free space of the other order column; the
    first to pass plays first next Month Turn and gains 1 VP at once."""
    b = pl(seat)
    g[b + L.PL_PASSED] = 1
    first = g[L.G_N_PASSED] == 0
    g[L.G_NEXT_ORDER + g[L.G_N_PASSED]] = seat
    g[L.G_N_PASSED] += 1
    log_event(log, EV_PASS, seat, first)
    if first:
        g[b + L.PL_FIRST_PASS] += 1
        vp(g, seat, p[L.P_FIRST_PASS_VP], log)


@borrowing
def begin_action_phase(p, g, rng):
    """Action Phase: nobody has passed; the first in playing order is to play."""
    g[L.G_N_PASSED] = 0
    for s in range(p[L.P_PLAYERS]):
        restart(rng, L.ST_POLICY + s, g[L.G_TURN])
    g[L.G_ACTOR] = 0
    g[L.G_NEXT] = L.NEXT_ACTION


@borrowing
def next_action(S, p, pol, g, rng, log):
    """Action Phase, the next player in playing order who has not passed chooses its
    action (``choose_action``: ``D_ACTION``); once all have passed, the pass order is the
    next Month Turn's playing order and Cleanup comes. Returns the decision made."""
    n = p[L.P_PLAYERS]
    if g[L.G_N_PASSED] >= n:
        for i in range(n):
            g[L.G_ORDER + i] = g[L.G_NEXT_ORDER + i]
        g[L.G_NEXT] = L.NEXT_CLEANUP
        return L.D_NONE
    i = g[L.G_ACTOR]
    s = g[L.G_ORDER + i]
    if g[pl(s) + L.PL_PASSED]:
        g[L.G_ACTOR] = (i + 1) % n
        return L.D_NONE
    if not choose_action(S, p, pol, g, rng, s, log):
        return L.D_NONE
    g[L.G_NEXT] = L.NEXT_CHOSEN
    return L.D_ACTION


@borrowing
def acting_seat(g):
    """The seat whose turn of the Action Phase it is."""
    return g[L.G_ORDER + g[L.G_ACTOR]]


@borrowing
def chosen_action(S, p, pol, g, rng, log):
    """The chosen action carried out, the state checked, the turn to the next player."""
    i = g[L.G_ACTOR]
    s = g[L.G_ORDER + i]
    passes = carry_out(S, p, pol, g, rng, s, log)
    if failed(log):
        return
    if passes:
        pass_turn(p, g, s, log)
    if step_checked(S, p, g, log, L.STEP_PASS if passes else L.STEP_ACTION):
        return
    g[L.G_ACTOR] = (i + 1) % p[L.P_PLAYERS]
    g[L.G_NEXT] = L.NEXT_ACTION


@njit(cache=True, nogil=True)
def action_phase(S, p, pol, g, rng, log):
    """Action Phase: in playing order, each player plays one action or passes, until all
    have passed; the pass order is the next Month Turn's playing order. Stops at the
    first broken invariant of a checked run."""
    begin_action_phase(p, g, rng)
    while (g[L.G_NEXT] == L.NEXT_ACTION or g[L.G_NEXT] == L.NEXT_CHOSEN) and \
            not failed(log):
        step(S, p, pol, g, rng, log)


# -- Cleanup --------------------------------------------------------------------------------
@borrowing
def cleanup_player(S, p, g, seat, log):
    """Cleanup for one tribe: Travel Card to Village Card (rescued tribesmen join again),
    units available, the action deck rebuilt, leaders equipped, then the VP for hostages,
    Fibulas, the Spear of Gorias and the Ability Card."""
    b = pl(seat)
    tribe = g[b + L.PL_TRIBE]
    for good in range(L.N_GOODS):
        g[b + L.PL_GOODS + good] += g[b + L.PL_TRAVEL_GOODS + good]
        g[b + L.PL_TRAVEL_GOODS + good] = 0
    for c in range(L.N_TRIBES):
        n = g[b + L.PL_TRAVEL_HOSTAGES + c]
        g[b + L.PL_TRAVEL_HOSTAGES + c] = 0
        if c == tribe:
            g[b + L.PL_MEN] += n
        else:
            g[b + L.PL_HOSTAGES + c] += n
    own = g[b + L.PL_HOSTAGES + tribe]  # own tribesmen bought or held: free again
    g[b + L.PL_HOSTAGES + tribe] = 0
    g[b + L.PL_MEN] += own + g[b + L.PL_MEN_VILLAGE] + g[b + L.PL_MEN_TRAVEL]
    g[b + L.PL_MEN_VILLAGE] = 0
    g[b + L.PL_MEN_TRAVEL] = 0
    for k in range(L.MAX_LEADERS):
        if g[b + L.PL_LEADER + k] >= 0:
            g[b + L.PL_LEADER_AT + k] = L.AT_AVAILABLE
    for c in range(p[L.P_N_CARDS]):
        if g[b + L.PL_CARD + c] == L.CARD_DISCARD:
            g[b + L.PL_CARD + c] = L.CARD_HAND
    g[b + L.PL_PASSED] = 0
    g[b + L.PL_FREE_MOVE] = 0
    PO.cleanup_equip(S, p, g, seat)
    gain = hostages(g, seat)
    rich = False
    for k in range(L.MAX_LEADERS):
        if g[b + L.PL_LEADER + k] >= 0:
            if leader_bonus(S, g, seat, k, L.BONUS_VP) > 0:
                gain += 1  # one VP per leader equipped with a Fibula, not per Fibula
            if goods_on(g, seat, k) >= 2:
                rich = True
    if trophy_holder(S, g, L.TP_CLEANUP_VP) == seat:
        gain += 1
    if rich:
        gain += S[L.S_TRIBES][tribe, L.TR_CLEANUP_VP_EQUIPPED]
    if trophy_holder(S, g, L.TP_CLEANUP_DW) == seat:
        gain_dw(g, seat, 1)
    log_event(log, EV_CLEANUP_VP, seat, add_vp(g, seat, gain))


@borrowing
def goods_on(g, seat, k):
    n = 0
    for j in range(L.MAX_SLOTS):
        if g[pl(seat) + L.PL_EQUIP + k * L.MAX_SLOTS + j] >= 0:
            n += 1
    return n


@borrowing
def cleanup(S, p, g, log):
    """Cleanup Phase (all players), then the Movement Cost tile back to A and the battle
    disc on the centre ("check that the other black disc on the Battle Board Track is
    placed in the space with the value 3")."""
    for t in range(L.N_TROPHIES):
        g[L.G_TROPHY_TRAVEL + t] = 0
    for s in range(p[L.P_PLAYERS]):
        cleanup_player(S, p, g, s, log)
    g[L.G_TILE] = L.TILE_A
    g[L.G_BATTLE_DISC] = 0


# -- Festivals and the end ---------------------------------------------------------------------
@borrowing
def objective_vp(S, g, seat, row, k):
    """VP one Festival objective gives the seat (goods equipped count)."""
    o = L.FE_OBJ + 4 * k
    kind = S[L.S_FESTIVALS][row, o]
    a = S[L.S_FESTIVALS][row, o + 1]
    b = S[L.S_FESTIVALS][row, o + 2]
    c = S[L.S_FESTIVALS][row, o + 3]
    if kind == L.OB_PER_GOOD:
        return b * min(held(g, seat, a), c)
    if kind == L.OB_GOOD_AT_LEAST:
        return c if held(g, seat, a) >= b else 0
    if kind == L.OB_DW_AT_LEAST:
        return b if g[pl(seat) + L.PL_DW] >= a else 0
    if kind == L.OB_PER_HOSTAGE:
        return a * min(hostages(g, seat), b)
    if kind == L.OB_VILLAGES_AT_LEAST:
        return b if g[pl(seat) + L.PL_VILLAGES] >= a else 0
    if kind == L.OB_TYPES_AT_LEAST:
        return b if goods_types(g, seat) >= a else 0
    if kind == L.OB_PER_EQUIPPED_LEADER:
        n = 0
        for j in range(L.MAX_LEADERS):
            if g[pl(seat) + L.PL_LEADER + j] >= 0 and goods_on(g, seat, j) > 0:
                n += 1
        return a * n
    return a * trophies(g, seat)


@borrowing
def festival(S, p, g, tile, log):
    """Festival Turn: every player gains the VP of each objective it reaches."""
    for s in range(p[L.P_PLAYERS]):
        gain = 0
        for k in range(S[L.S_FESTIVALS][tile, L.FE_N]):
            gain += objective_vp(S, g, s, tile, k)
        g[pl(s) + L.PL_FESTIVAL_VP] += add_vp(g, s, gain)
        log_event(log, EV_FESTIVAL, s, gain, tile)


@borrowing
def final_delayed_events(S, p, pol, g, rng, log):
    """End of the Game: delayed events still held are played."""
    for i in range(p[L.P_PLAYERS]):
        s = g[L.G_ORDER + i]
        if g[pl(s) + L.PL_HELD_EVENT] >= 0:
            play_delayed(S, p, pol, g, rng, s, log)


@borrowing
def tie_key(S, g, seat, level):
    if level == 0:
        return g[pl(seat) + L.PL_DW]
    if level == 1:
        return trophies(g, seat)
    return animals(S, g, seat)


@njit(cache=True, nogil=True)
def winner(S, p, g):
    """End of the Game: most VP; ties by Divine Will, trophies, animals (equipped
    included), then the disc lowest on the Play Order track (the reading ``tie_order``:
    the bottom one, the last to pass in the last Month Turn). Returns (seat, reason)."""
    n = p[L.P_PLAYERS]
    tied = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    best = 0
    for s in range(n):
        best = max(best, g[pl(s) + L.PL_VP])
    count = 0
    for s in range(n):
        tied[s] = g[pl(s) + L.PL_VP] == best
        count += tied[s]
    if count == 1:
        return np.argmax(tied), L.END_MOST_VP
    reasons = (L.END_TB_DW, L.END_TB_TROPHIES, L.END_TB_ANIMALS)
    for level in range(3):
        top = -1
        for s in range(n):
            if tied[s]:
                top = max(top, tie_key(S, g, s, level))
        count = 0
        for s in range(n):
            if tied[s] and tie_key(S, g, s, level) != top:
                tied[s] = 0
            count += tied[s]
        if count == 1:
            return np.argmax(tied), reasons[level]
    for j in range(n):  # the reading tie_order: the bottom disc, or the top one
        i = n - 1 - j if p[L.P_TIE_ORDER] == L.ORDER_BOTTOM else j
        s = g[L.G_ORDER + i]
        if tied[s]:
            return s, L.END_TB_ORDER
    return 0, L.END_TB_ORDER


@njit(cache=True, nogil=True)
def play_game(S, p, pol, rng, g, out, log):
    """One game: set-up, the turns, the end. A checked run checks the state after each
    rule step and stops the game at the first broken invariant."""
    setup(S, p, pol, g, rng, log)
    if step_checked(S, p, g, log, L.STEP_SETUP):
        return
    play_from(S, p, pol, g, rng, 0, log)
    if failed(log):
        return
    write_outcome(S, p, g, out, log)


@borrowing
def play_from(S, p, pol, g, rng, searched, log):
    """Play the game on from the position the state holds (``G_NEXT``), every choice by
    the seats' policies (``pol``), to its end (``NEXT_OVER``) or to the first action
    choice of a seat in ``searched`` (bit ``seat``), before it is carried out, its
    policy's choice written in the state (``G_CHOICE``: a look-ahead may change it, then
    play on). Returns that decision (``D_ACTION``), or ``D_NONE`` at the end of the game
    (or at a state check that failed). With ``searched`` 0 it plays the whole game as
    the policies would: the default kernel's loop."""
    while g[L.G_NEXT] != L.NEXT_OVER and not failed(log):
        decision = step(S, p, pol, g, rng, log)
        if searched != 0 and decision == L.D_ACTION and (searched >> acting_seat(g)) & 1:
            return decision
    return L.D_NONE


@borrowing
def step(S, p, pol, g, rng, log):
    """Carry out the step of the sequence of play the state is at (``G_NEXT``) and move
    it to the next; returns ``D_ACTION`` when a player's action was chosen (written in
    the state, carried out by the next step), else ``D_NONE``."""
    at = g[L.G_NEXT]
    if at == L.NEXT_ACTION:
        return next_action(S, p, pol, g, rng, log)
    if at == L.NEXT_CHOSEN:
        chosen_action(S, p, pol, g, rng, log)
    elif at == L.NEXT_TURN:
        begin_turn(S, p, pol, g, rng, log)
    elif at == L.NEXT_CLEANUP:
        cleanup(S, p, g, log)
        step_checked(S, p, g, log, L.STEP_CLEANUP)
        g[L.G_NEXT] = L.NEXT_TURN
    elif at == L.NEXT_END:
        final_delayed_events(S, p, pol, g, rng, log)
        step_checked(S, p, g, log, L.STEP_END)
        g[L.G_NEXT] = L.NEXT_OVER
    return L.D_NONE


@borrowing
def begin_turn(S, p, pol, g, rng, log):
    """The next turn: a Festival Turn (then the next turn), or a Month Turn's Event
    Phase and the start of its Action Phase; after the last turn, the End of the Game."""
    turn = g[L.G_TURN] + 1
    if turn > p[L.P_TURNS]:
        g[L.G_NEXT] = L.NEXT_END
        return
    g[L.G_TURN] = turn
    g[L.G_SEARCHED] = 0
    is_festival = turn % p[L.P_FESTIVAL_EVERY] == 0
    log_event(log, EV_TURN, turn, is_festival)
    if is_festival:
        festival(S, p, g, turn // p[L.P_FESTIVAL_EVERY] - 1, log)
        step_checked(S, p, g, log, L.STEP_FESTIVAL)
        return
    restart(rng, L.ST_MORRIGAN, turn)
    event_phase(S, p, pol, g, rng, log)
    if failed(log):
        return
    begin_action_phase(p, g, rng)


@njit(cache=True, nogil=True)
def write_outcome(S, p, g, out, log):
    n = p[L.P_PLAYERS]
    seat, reason = winner(S, p, g)
    out[L.O_WINNER] = g[pl(seat) + L.PL_TRIBE]
    out[L.O_WINNER_SEAT] = seat
    out[L.O_END_REASON] = reason
    out[L.O_TURNS] = p[L.P_TURNS]
    out[L.O_PLAYERS] = n
    second = 0
    for s in range(n):
        if s != seat:
            second = max(second, g[pl(s) + L.PL_VP])
    out[L.O_MARGIN] = g[pl(seat) + L.PL_VP] - second
    for s in range(L.MAX_PLAYERS):
        out[L.O_VP_SEAT + s] = g[pl(s) + L.PL_VP] if s < n else -1
    for t in range(L.N_TRIBES):  # a tribe not in play: -1, a missing value in the results
        for k in range(L.N_PER_TRIBE):
            out[L.O_TRIBE + t * L.N_PER_TRIBE + k] = -1
    for s in range(n):
        b = pl(s)
        t = g[b + L.PL_TRIBE]
        o = L.O_TRIBE + t * L.N_PER_TRIBE
        out[o] = g[b + L.PL_VP]
        k = 1
        for f in L.TRIBE_COUNTERS:
            out[o + k] = g[b + f]
            k += 1
        for c in range(L.MAX_CARDS):
            out[L.O_CARD_USES + t * L.MAX_CARDS + c] = g[b + L.PL_USES + c]
        log_event(log, EV_FINAL, s, g[b + L.PL_VP], g[b + L.PL_DW])


@njit(cache=True, nogil=True)
def play_games(S, p, pol, game_indices, root_seed, log):
    """Play one game per index; returns the ``(n, N_OUT)`` outcome table."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int64)
    g = np.zeros(L.N_STATE, dtype=np.int64)
    for row in range(game_indices.shape[0]):
        at_game(log, row)  # a broken invariant names its game
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        restart(rng, L.ST_EVENT_DECK, 0)
        play_unmanaged(S, p, pol, rng, g, out[row], log)
        if failed(log):
            break
    return out


@njit(cache=True, nogil=True)
def play_unmanaged(S, p, pol, rng, g, out, log):
    """``play_game`` on views numba does not reference-count (``simkit.unmanaged``): the
    caller owns every array for the whole call and no view outlives it, so the rules'
    calls skip the atomic reference counting of the component tables (the same games)."""
    play_game(unmanaged(S), unmanaged(p), unmanaged(pol), unmanaged(rng), unmanaged(g),
              unmanaged(out), unmanaged(log))
