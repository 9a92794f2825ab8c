"""The ``lookahead`` player: the skill ceiling the scripted players are measured against.

It plays the game as ``greedy`` does, except at two kinds of decision, where it tries
every option by rollouts: the card each seat puts face down (solo: Villarroel's card at
the start of his turn) and, when the players order the Bourbon dice, the order. For each
option it copies the position and plays ``rollouts`` games from it to the end with the
greedy players, then keeps the option that survives most often; ties (most often, all
rollouts survive or none do) go to the option whose lost rollouts lasted longest, then to
greedy's own choice, which is tried first.

It does not see the future: each rollout has its own random streams (new dice, chance
cards and tie-breaks) and reshuffles what is still face down, the undrawn event piles and
chance deck. The options of one decision share their rollouts' streams (common random
numbers), so they are compared on the same dice.

The dice order is chosen one die at a time: which die to resolve first, the rest in
greedy's order; then which second, and so on; greedy's own order is tried first. That
evaluates at most 5 + 4 + 3 + 2 orders of five dice instead of 5! = 120, and identical
dice are one option.

The look-ahead has its own turn loop (``play_lookahead_game``) built from the engine's
steps, so that the rollouts can call the engine's ``play_from`` without the engine ever
calling back into the look-ahead: the default kernel does not contain it and compiles as
fast as before. Its ``decides`` weight limits the rollouts to the card choices or to the
dice orders, to measure which of greedy's decisions lose games. It is slow by design
(about a thousand times slower than ``greedy``): use it on a few thousand games to
measure how far the scripted players are from better play.
"""

import numpy as np

from simkit.checks import at_game, failed
from simkit.rng import game_streams, restart, shuffle, splitmix64
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import layout as L
from .checks import checked
from .engine import (
    begin_stage,
    begin_turn,
    end_of_game,
    end_of_round,
    end_turn,
    finish_round,
    play_from,
    play_turn,
    record,
    resolve_bourbon_dice,
    roll_bourbon_dice,
    seat_at,
    set_up_game,
    solo_card_step,
    stage_iv_turn_card,
    start_of_round,
    turn_card,
)
from .hands import put_face_down
from .policies import choose_card, order_dice
from .solo import VILLARROEL

ROLLOUT_SALT = np.uint64(0x6C6F6F6B61686561)  # keeps rollout streams apart from the game's
MAX_ROLLOUTS = 256  # rollouts per option (the ``rollouts`` weight's range)
LOST_TURN = 1  # a lost rollout scores its turns; a survived one scores above any turn count
SURVIVED = 1 << 20


# -- the game loop --------------------------------------------------------------------------


def greedy_rows(pol):
    """The policy rows the look-ahead plays with: its own weights (rollouts, what it
    decides, and greedy's weights for everything else), under greedy's id, so that every
    choice it does not make by rollouts, and every choice in its rollouts, is greedy's
    with those weights. Built here, in Python, so that the caller owns it for the whole
    kernel call (``unmanaged`` views do not own arrays)."""
    rows = pol.copy()
    rows[:, L.W_POLICY] = L.GREEDY
    return rows


@allocating
def play_lookahead_games(K, DICE, CARDS, p, pol, sp0, g0, game_indices, root_seed, log):
    """``engine.play_games`` for the look-ahead player (``pol``: ``greedy_rows``): one
    outcome row per game."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    w = pol[L.PLAYERS]
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        sp, g = sp0.copy(), g0.copy()
        reason = play_lookahead_unmanaged(K, DICE, CARDS, p, w, sp, g, rng, log)
        if failed(log):
            break  # the state checks stop at the first broken invariant
        record(K, sp, g, reason, out[row])
    return out


@allocating
def play_lookahead_unmanaged(K, DICE, CARDS, p, w, sp, g, rng, log):
    decides = w[L.W_DECIDES]
    card_rollouts = 0 if decides == L.DECIDES_DICE else w[L.W_ROLLOUTS]
    dice_rollouts = 0 if decides == L.DECIDES_CARDS else w[L.W_ROLLOUTS]
    return play_lookahead_game(unmanaged(K), unmanaged(DICE), unmanaged(CARDS), card_rollouts,
                               dice_rollouts, unmanaged(p), unmanaged(w), unmanaged(sp),
                               unmanaged(g), unmanaged(rng), unmanaged(log))


@allocating
def play_lookahead_game(K, DICE, CARDS, card_rollouts, dice_rollouts, p, w, sp, g, rng, log):
    """``engine.play_game`` with the look-ahead's card choices and dice orders (with no
    rollouts, a decision is greedy's), checking the state after the same steps."""
    set_up_game(CARDS, p, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_SETUP):
        return L.END_NONE
    for stage in range(3):
        if begin_stage(K, CARDS, p, w, sp, g, rng, stage, log):
            return L.END_NONE
        for rnd in range(p[L.P_ROUNDS]):
            g[L.G_ROUND] = rnd
            reason = lookahead_round(K, DICE, CARDS, card_rollouts, dice_rollouts, p, w, sp, g,
                                     rng, log)
            if reason != L.END_NONE or failed(log):
                return reason
    if begin_stage(K, CARDS, p, w, sp, g, rng, L.STAGE_IV, log):
        return L.END_NONE
    card = stage_iv_turn_card(p, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_STAGE_IV_CARD):
        return L.END_NONE
    if card != 0:
        reason = lookahead_turn(K, DICE, CARDS, dice_rollouts, p, w, sp, g, rng,
                                np.zeros(4, np.int64), 0, g[L.G_FLAG], card, log)
        if reason != L.END_NONE or failed(log):
            return reason
    reason = end_of_game(p, g, log)
    checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_GAME)
    return reason


@allocating
def lookahead_round(K, DICE, CARDS, card_rollouts, dice_rollouts, p, w, sp, g, rng, log):
    """``engine.play_round`` with the look-ahead's choices; returns the end reason."""
    start_of_round(K, CARDS, p, w, sp, g, rng, log)
    if checked(K, CARDS, p, sp, g, log, L.STEP_START_OF_ROUND):
        return L.END_NONE
    chosen = choose_cards(K, DICE, CARDS, card_rollouts, p, w, sp, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_CARDS_CHOSEN):
        return L.END_NONE
    for k in range(g[L.G_SEATS]):
        seat = seat_at(g, k)
        if p[L.P_SOLO] and seat == VILLARROEL:
            card = solo_card(K, DICE, CARDS, card_rollouts, p, w, sp, g, rng, chosen, k)
        else:
            card = turn_card(CARDS, p, w, g, rng, seat, chosen, log)
        if p[L.P_SOLO] and checked(K, CARDS, p, sp, g, log, solo_card_step(seat)):
            return L.END_NONE
        reason = lookahead_turn(K, DICE, CARDS, dice_rollouts, p, w, sp, g, rng, chosen,
                                k, seat, card, log)
        if reason != L.END_NONE or failed(log):
            return reason
    end_of_round(K, CARDS, p, w, sp, g, rng, log)
    checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_ROUND)
    return L.END_NONE


@allocating
def lookahead_turn(K, DICE, CARDS, rollouts, p, w, sp, g, rng, chosen, k, seat, card, log):
    """``engine.play_turn`` with the dice order chosen by rollouts."""
    begin_turn(K, CARDS, p, w, sp, g, rng, seat, card, log)
    if failed(log):
        return L.END_NONE
    faces = roll_bourbon_dice(DICE, CARDS, g, rng, log)
    if g[L.G_DICE_ORDER_FREE] and rollouts > 0:
        order = choose_dice_order(K, DICE, CARDS, rollouts, p, w, sp, g, rng, chosen, k, seat,
                                  faces)
    else:
        order = order_dice(K, CARDS, p, w, sp, g, rng, faces, faces.shape[0])
    resolve_bourbon_dice(K, CARDS, p, w, sp, g, rng, faces, order, log)
    if failed(log):
        return L.END_NONE
    return end_turn(K, CARDS, p, w, sp, g, rng, seat, log)


# -- rollouts -------------------------------------------------------------------------------


@allocating
def rollout_streams(rng, g, decision, r):
    """Rollout ``r``'s own streams for one decision: a function of the game, the turn and
    the decision, never a stream of the game itself."""
    root = splitmix64(rng[0, 4] ^ ROLLOUT_SALT)
    index = (g[L.G_TURN] * 64 + decision) * MAX_ROLLOUTS + r
    return game_streams(root, index, L.N_STREAMS)


@borrowing
def forget_future(g, rng):
    """Reshuffle what the players cannot see: the undrawn event piles and chance cards."""
    restart(rng, L.ST_EVENT_PILES, 0)
    for stage in range(3):
        start = L.G_PILE + stage * L.PILE_SIZE
        shuffle(rng, L.ST_EVENT_PILES, g[start + g[L.G_PILE_NEXT + stage]:
                                         start + g[L.G_PILE_COUNT + stage]])
    restart(rng, L.ST_CHANCE, 0)
    shuffle(rng, L.ST_CHANCE, g[L.G_CHANCE_DECK + g[L.G_CHANCE_NEXT]:
                                L.G_CHANCE_DECK + L.N_CHANCE])


@borrowing
def finish_game(K, DICE, CARDS, p, w, sp, g, rng, chosen, k, log):
    """The game after the ``k``-th turn of the current round (-1: before the first), to
    its end; returns the end reason."""
    stage = g[L.G_STAGE]
    if stage == L.STAGE_IV:
        return end_of_game(p, g, log)
    reason = finish_round(K, DICE, CARDS, p, w, sp, g, rng, chosen, k + 1, log)
    if reason != L.END_NONE:
        return reason
    return play_from(K, DICE, CARDS, p, w, sp, g, rng, stage, g[L.G_ROUND] + 1, log)


@borrowing
def rollout_score(g, reason):
    return SURVIVED if reason == L.END_SURVIVED else LOST_TURN * g[L.G_TURN]


# -- the card choices -------------------------------------------------------------------------


@allocating
def choose_cards(K, DICE, CARDS, rollouts, p, w, sp, g, rng):
    """``engine.choose_cards`` by rollouts: greedy's cards first, then each seat in turn
    keeps the card of its hand whose rollouts (the other seats playing the cards chosen
    so far) score best. Solo: nothing to choose here."""
    restart(rng, L.ST_POLICY, 2 * g[L.G_TURN] + 1)
    seats = g[L.G_SEATS]
    slots = np.full(4, -1, dtype=np.int64)
    chosen = np.zeros(4, dtype=np.int64)
    if p[L.P_SOLO]:
        return chosen
    for seat in range(seats):
        slots[seat] = choose_card(CARDS, p, w, g, rng, seat)
    if rollouts > 0 and not g[L.G_RANDOM_ROUND]:  # (a card may make the choice random)
        for seat in range(seats):
            slots[seat] = best_slot(K, DICE, CARDS, rollouts, p, w, sp, g, rng, slots, seat)
    for seat in range(seats):
        chosen[seat] = put_face_down(g, seat, slots[seat])
    return chosen


@borrowing
def option_slot(g, seat, default, option):
    """The hand slot a card choice tries as ``option`` (-1: greedy's ``default``, tried
    first so that it wins ties; then every other slot), or -1 if it holds no card."""
    slot = default if option < 0 else option
    if g[L.G_HAND + seat * L.HAND_SIZE + slot] == 0 or (option >= 0 and slot == default):
        return -1
    return slot


@allocating
def best_slot(K, DICE, CARDS, rollouts, p, w, sp, g, rng, slots, seat):
    """The hand slot of ``seat`` whose rollouts score best, the others' slots fixed."""
    best, best_score = slots[seat], -1
    trial = slots.copy()
    for option in range(-1, L.HAND_SIZE):
        slot = option_slot(g, seat, slots[seat], option)
        if slot < 0:
            continue
        trial[seat] = slot
        score = 0
        for r in range(rollouts):
            score += card_rollout(K, DICE, CARDS, p, w, sp, g, rng, trial, seat, r)
        if score > best_score:
            best, best_score = slot, score
    return best


@allocating
def card_rollout(K, DICE, CARDS, p, w, sp, g, rng, slots, seat, r):
    """One rollout of the round from its first turn with the seats' cards in ``slots``."""
    rsp, rg = sp.copy(), g.copy()
    rrng = rollout_streams(rng, g, seat, r)
    forget_future(rg, rrng)
    chosen = np.zeros(4, dtype=np.int64)
    for s in range(g[L.G_SEATS]):
        chosen[s] = put_face_down(rg, s, slots[s])
    return rollout_score(rg, finish_game(K, DICE, CARDS, p, w, rsp, rg, rrng, chosen, -1,
                                          np.zeros((0, 4), dtype=np.int64)))


@allocating
def solo_card(K, DICE, CARDS, rollouts, p, w, sp, g, rng, chosen, k):
    """Villarroel's card at the start of his turn, by rollouts of the whole turn."""
    default = choose_card(CARDS, p, w, g, rng, VILLARROEL)
    best, best_score = default, -1
    for option in range(-1, L.HAND_SIZE):
        slot = option_slot(g, VILLARROEL, default, option)
        if slot < 0:
            continue
        score = 0
        for r in range(rollouts):
            score += solo_rollout(K, DICE, CARDS, p, w, sp, g, rng, chosen, k, slot, r)
        if score > best_score:
            best, best_score = slot, score
    return put_face_down(g, VILLARROEL, best)


@allocating
def solo_rollout(K, DICE, CARDS, p, w, sp, g, rng, chosen, k, slot, r):
    """One rollout of Villarroel's turn with the card in ``slot``, then of the game."""
    rsp, rg = sp.copy(), g.copy()
    rrng = rollout_streams(rng, g, 4, r)
    forget_future(rg, rrng)
    card = put_face_down(rg, VILLARROEL, slot)
    log = np.zeros((0, 4), dtype=np.int64)
    reason = play_turn(K, DICE, CARDS, p, w, rsp, rg, rrng, VILLARROEL, card, log)
    if reason == L.END_NONE:
        reason = finish_game(K, DICE, CARDS, p, w, rsp, rg, rrng, chosen, k, log)
    return rollout_score(rg, reason)


# -- the dice order ---------------------------------------------------------------------------


@allocating
def choose_dice_order(K, DICE, CARDS, rollouts, p, w, sp, g, rng, chosen, k, seat, faces):
    """The dice order by rollouts, one die at a time: at each place, the die (among the
    distinct ones left) whose order (the places fixed so far, this die, then the rest in
    greedy's order) scores best."""
    n = faces.shape[0]
    order = order_dice(K, CARDS, p, w, sp, g, rng, faces, n)
    for place in range(n - 1):
        best, best_score = place, -1
        for option in range(place, n):
            if option > place and repeats_a_die(faces, order, place, option):
                continue
            trial = with_die_at(order, place, option)
            score = 0
            for r in range(rollouts):
                score += dice_rollout(K, DICE, CARDS, p, w, sp, g, rng, chosen, k, seat, faces,
                                      trial, 8 + place, r)
            if score > best_score:
                best, best_score = option, score
        order = with_die_at(order, place, best)
    return order


@borrowing
def repeats_a_die(faces, order, place, option):
    """Is the die at ``option`` the same (action and amount) as one tried before it?"""
    die = order[option]
    for other in range(place, option):
        if (faces[order[other], 0] == faces[die, 0]
                and faces[order[other], 1] == faces[die, 1]):
            return True
    return False


@allocating
def with_die_at(order, place, option):
    """``order`` with the die at ``option`` moved to ``place``, the others after it in
    their order so far (at first greedy's)."""
    trial = order.copy()
    die = order[option]
    for j in range(option, place, -1):
        trial[j] = trial[j - 1]
    trial[place] = die
    return trial


@allocating
def dice_rollout(K, DICE, CARDS, p, w, sp, g, rng, chosen, k, seat, faces, order, decision, r):
    """One rollout of the turn's dice in ``order``, the rest of the turn and the game."""
    rsp, rg = sp.copy(), g.copy()
    rrng = rollout_streams(rng, g, decision, r)
    forget_future(rg, rrng)
    log = np.zeros((0, 4), dtype=np.int64)
    resolve_bourbon_dice(K, CARDS, p, w, rsp, rg, rrng, faces, order, log)
    reason = end_turn(K, CARDS, p, w, rsp, rg, rrng, seat, log)
    if reason == L.END_NONE:
        reason = finish_game(K, DICE, CARDS, p, w, rsp, rg, rrng, chosen, k, log)
    return rollout_score(rg, reason)
