"""The look-ahead player: its rollouts leave the game untouched, do not see the face-down
cards or the dice to come, and its decisions are legal and reproducible."""

import numpy as np
import pytest
from victus_support import K, W, params, streams

from simkit.errors import UsageError
from simkit.eventlog import no_log
from simkit.games.victus import GAME, _start, _static
from simkit.games.victus import layout as L
from simkit.games.victus.engine import (
    begin_turn,
    roll_bourbon_dice,
    set_up_game,
    start_of_round,
    start_of_stage,
)
from simkit.games.victus.engine import (
    choose_cards as engine_choose_cards,
)
from simkit.games.victus.lookahead import (
    choose_cards,
    choose_dice_order,
    forget_future,
    repeats_a_die,
    rollout_streams,
    with_die_at,
)
from simkit.games.victus.policies import order_dice

SEED = 2026


def opening(game_index=0):
    """The full game's position at the start of its first round, with the greedy rules."""
    _, _, dice, cards = _static()
    q = params(full=True)
    sp, g = _start(GAME.presets["full"].rules)
    rng = streams(SEED, game_index)
    set_up_game(cards.as_tuple(), q, g, rng)
    start_of_stage(K, cards.as_tuple(), q, W, g, rng, 0, no_log())
    start_of_round(K, cards.as_tuple(), q, W, sp, g, rng, no_log())
    return dice, cards.as_tuple(), q, sp, g, rng


def hand(g, seat):
    return g[L.G_HAND + seat * L.HAND_SIZE:L.G_HAND + (seat + 1) * L.HAND_SIZE].copy()


def test_card_choice_takes_one_card_from_each_hand_and_touches_nothing_else():
    dice, cards, q, sp, g, rng = opening()
    before_sp, before_g = sp.copy(), g.copy()
    hands = [hand(g, seat) for seat in range(2)]
    chosen = choose_cards(K, dice, cards, 2, q, W, sp, g, rng)
    assert (sp == before_sp).all(), "the rollouts played on copies"
    for seat in range(2):
        assert chosen[seat] in hands[seat], "a seat plays a card of its own hand"
        assert sorted(hand(g, seat)) == sorted(np.where(hands[seat] == chosen[seat], 0,
                                                        hands[seat]))
    assert list(g[L.G_FACE_DOWN:L.G_FACE_DOWN + 2]) == list(chosen[:2]), "face down"
    rest = np.ones(g.shape[0], dtype=bool)
    rest[L.G_HAND:L.G_HAND + L.N_SEATS * L.HAND_SIZE] = False
    rest[L.G_FACE_DOWN:L.G_FACE_DOWN + L.N_SEATS] = False
    assert (g[rest] == before_g[rest]).all(), "only the hands and the cards face down changed"


def test_dice_order_is_a_permutation_and_the_rollouts_touch_nothing():
    dice, cards, q, sp, g, rng = opening()
    chosen = choose_cards(K, dice, cards, 2, q, W, sp, g, rng)
    seat = g[L.G_FLAG]
    begin_turn(K, cards, q, W, sp, g, rng, seat, chosen[seat], no_log())
    faces = roll_bourbon_dice(dice, cards, g, rng, no_log())
    before = sp.copy(), g.copy(), rng.copy()
    order = choose_dice_order(K, dice, cards, 2, q, W, sp, g, rng, chosen, 0, seat, faces)
    assert sorted(order) == list(range(faces.shape[0]))
    assert (sp == before[0]).all() and (g == before[1]).all() and (rng == before[2]).all()


def test_rollouts_reshuffle_only_what_is_face_down():
    _, _, q, sp, g, rng = opening()
    stage_0 = L.G_PILE
    dealt = g[L.G_PILE_NEXT]
    count = g[L.G_PILE_COUNT]
    g[L.G_CHANCE_NEXT] = 5
    forgotten = g.copy()
    forget_future(forgotten, rollout_streams(rng, g, 0, 0))
    pile, new_pile = g[stage_0:stage_0 + count], forgotten[stage_0:stage_0 + count]
    assert (new_pile[:dealt] == pile[:dealt]).all(), "dealt cards stay where they are"
    assert sorted(new_pile[dealt:]) == sorted(pile[dealt:])
    assert (new_pile[dealt:] != pile[dealt:]).any(), "the undealt cards are reshuffled"
    deck = slice(L.G_CHANCE_DECK, L.G_CHANCE_DECK + L.N_CHANCE)
    assert (forgotten[deck][:5] == g[deck][:5]).all(), "drawn chance cards stay drawn"
    assert sorted(forgotten[deck][5:]) == sorted(g[deck][5:])
    outside = np.ones(g.shape[0], dtype=bool)
    outside[L.G_PILE:L.G_PILE + 3 * L.PILE_SIZE] = False
    outside[deck] = False
    assert (forgotten[outside] == g[outside]).all()


def test_rollout_streams_are_their_own_and_reproducible():
    _, _, _, _, g, rng = opening()
    first = rollout_streams(rng, g, 3, 0)
    assert (first == rollout_streams(rng, g, 3, 0)).all()
    assert not (first == rollout_streams(rng, g, 3, 1)).all()
    assert not (first == rollout_streams(rng, g, 4, 0)).all()
    assert not np.isin(first[:, :4], rng[:, :4]).any(), "never the game's own streams"


def test_a_lookahead_game_is_the_same_alone_or_in_a_batch():
    policy = "lookahead:rollouts=1"
    batch = GAME.simulate(None, policy, np.arange(3), SEED)
    alone = GAME.simulate(None, policy, np.array([2]), SEED)
    for name in batch:
        assert batch[name][2] == alone[name][0], name


def test_rollouts_weight_is_checked():
    with pytest.raises(UsageError, match="rollouts"):
        GAME.simulate(None, "lookahead:rollouts=0", np.arange(1), SEED)
    with pytest.raises(UsageError, match="rollouts"):
        GAME.simulate(None, "greedy:rollouts=4", np.arange(1), SEED)


def test_a_die_moved_forward_keeps_the_others_in_their_order():
    order = np.array([3, 1, 0, 2, 4])
    assert list(with_die_at(order, 1, 3)) == [3, 2, 1, 0, 4]
    assert list(with_die_at(order, 0, 0)) == list(order), "the die already there: the same"
    assert list(with_die_at(order, 2, 4)) == [3, 1, 4, 0, 2]


def test_identical_dice_are_one_option():
    faces = np.array([[L.ACT_ADVANCE, 2], [L.ACT_TRENCH, 1], [L.ACT_ADVANCE, 2],
                      [L.ACT_ADVANCE, 1]])
    order = np.arange(4)
    assert repeats_a_die(faces, order, 0, 2), "the same action and amount as die 0"
    assert not repeats_a_die(faces, order, 0, 3), "another amount"
    assert not repeats_a_die(faces, order, 1, 2), "die 0 is already placed"


def test_without_rollouts_every_decision_is_greedys():
    dice, cards, q, sp, g, rng = opening()
    g_greedy, rng_greedy = g.copy(), rng.copy()
    expected = engine_choose_cards(cards, q, W, g_greedy, rng_greedy)
    chosen = choose_cards(K, dice, cards, 0, q, W, sp, g, rng)
    assert list(chosen) == list(expected) and (g == g_greedy).all()
    seat = g[L.G_FLAG]
    begin_turn(K, cards, q, W, sp, g, rng, seat, chosen[seat], no_log())
    faces = roll_bourbon_dice(dice, cards, g, rng, no_log())
    greedy = order_dice(K, cards, q, W, sp, g, rng.copy(), faces, faces.shape[0])
    order = choose_dice_order(K, dice, cards, 0, q, W, sp, g, rng, chosen, 0, seat, faces)
    assert list(order) == list(greedy)


@pytest.mark.parametrize("decides", ["cards", "dice"])
def test_a_lookahead_on_one_kind_of_decision_plays(decides):
    cols = GAME.simulate(None, f"lookahead:rollouts=1,decides={decides}", np.arange(2), SEED)
    assert cols["turns"].min() > 0


def test_lookahead_games_are_played_with_its_own_rules_vector_alive():
    """Regression: the kernel once freed its greedy rules vector before playing (a local
    array handed on as an ``unmanaged`` view), so every game read freed memory and most
    ended in turn 1. The look-ahead is at least as strong as greedy (90% on the Full
    Game): most of a few fixed games must be won, twice over in one process."""
    for _ in range(2):
        cols = GAME.simulate(None, "lookahead:rollouts=1", np.arange(8), SEED)
        assert (cols["turns"] > 1).all()
        assert (cols["winner"] == 0).sum() >= 5
