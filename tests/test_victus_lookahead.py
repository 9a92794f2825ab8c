"""The resumable engine and the look-ahead player: stopping at decisions changes no game,
a copied position plays on like the original, the searched decisions list every option
with greedy's first, the rollouts leave the game untouched, and no decision depends on
the order of what the players cannot see."""

import numpy as np
import pytest
from victus_support import K, streams, weights

from simkit.errors import UsageError
from simkit.eventlog import no_log
from simkit.games.victus import GAME, _static
from simkit.games.victus import card_layout as CL
from simkit.games.victus import layout as L
from simkit.games.victus.engine import play_game, play_until
from simkit.games.victus.lookahead import (
    decision_options,
    play_searched,
    resample_hidden,
    search,
)
from simkit.search import rollout_streams

SEED = 2026
_, _, DICE, CARDS_OBJ = _static()
CARDS = CARDS_OBJ.as_tuple()
DECISIONS = L.STOP_CARD | L.STOP_DIE
EVERY_STOP = DECISIONS | L.STOP_ROUND


def game(preset="full", game_index=0):
    """The rules vector and the set-up position of ``preset``, with its streams."""
    rules = GAME.resolve_rules(preset)
    p, _, sp, g = GAME.kernel_inputs(rules, GAME.policy_choices("greedy"))
    return p, sp.copy(), g.copy(), streams(SEED, game_index)


def searcher(**changes):
    """The look-ahead's row as its kernel plays it: its weights under greedy's id."""
    w = weights(L.LOOKAHEAD, **changes)
    w[L.W_POLICY] = L.GREEDY
    return w


W = searcher(rollouts=8)


def hand(g, seat):
    return g[L.G_HAND + seat * L.HAND_SIZE:L.G_HAND + (seat + 1) * L.HAND_SIZE]


@pytest.mark.parametrize("preset", ["full", "solo", "competitive", "first_game"])
def test_stopping_at_every_decision_and_round_changes_nothing(preset):
    p, sp, g, rng = game(preset)
    sp_whole, g_whole = sp.copy(), g.copy()
    reason = play_game(K, DICE, CARDS, p, W, sp_whole, g_whole, rng.copy(), no_log())
    stops = 0
    while play_until(K, DICE, CARDS, p, W, sp, g, rng, EVERY_STOP, no_log()):
        stops += 1  # G_CHOICE keeps greedy's choice
    assert stops > 20
    assert g[L.G_END_REASON] == reason
    assert (sp == sp_whole).all() and (g == g_whole).all()


def test_a_copied_position_plays_on_as_the_original():
    p, sp, g, rng = game()
    for _ in range(30):
        play_until(K, DICE, CARDS, p, W, sp, g, rng, DECISIONS, no_log())
    copy = sp.copy(), g.copy(), rng.copy()
    play_until(K, DICE, CARDS, p, W, sp, g, rng, 0, no_log())
    play_until(K, DICE, CARDS, p, W, *copy, 0, no_log())
    assert g[L.G_NEXT] == L.NEXT_OVER
    assert (copy[0] == sp).all() and (copy[1] == g).all()


def first_stop(kind, preset="full"):
    """The first stop of ``kind`` in game 0 of ``preset`` (greedy choosing before it)."""
    p, sp, g, rng = game(preset)
    while play_until(K, DICE, CARDS, p, W, sp, g, rng, kind, no_log()) != kind:
        pass
    return p, sp, g, rng


def test_a_card_choice_lists_every_card_in_hand_greedys_first():
    p, sp, g, rng = first_stop(L.STOP_CARD)
    seat = g[L.G_CHOOSER]
    options = decision_options(p, g)
    slots = [s for s in range(L.HAND_SIZE) if hand(g, seat)[s]]
    assert options[0] == g[L.G_CHOICE], "greedy's own choice first (ties go to it)"
    assert sorted(options) == slots and len(slots) == p[L.P_CARDS], "each card dealt, once"


def test_villarroel_chooses_his_card_at_his_turn():
    p, sp, g, rng = first_stop(L.STOP_CARD, "solo")
    assert g[L.G_NEXT] == L.NEXT_PLACE_SOLO_CARD
    options = decision_options(p, g)
    assert sorted(options) == [s for s in range(L.HAND_SIZE) if hand(g, L.VILLARROEL)[s]]
    assert options[0] == g[L.G_CHOICE]


def test_a_die_choice_lists_each_face_left_once():
    p, sp, g, rng = first_stop(L.STOP_DIE)
    g[L.G_ROLLED], g[L.G_RESOLVED] = 5, 1
    faces = [(L.ACT_TRENCH, 1), (L.ACT_ADVANCE, 2), (L.ACT_BOMBARDMENT, 0), (L.ACT_ADVANCE, 2),
             (L.ACT_REINFORCEMENTS, 1)]
    for die, (action, amount) in enumerate(faces):
        g[L.G_FACES + 2 * die], g[L.G_FACES + 2 * die + 1] = action, amount
    g[L.G_DIE_ORDER:L.G_DIE_ORDER + 5] = [0, 3, 2, 1, 4]  # die 0 resolved
    g[L.G_CHOICE] = 3
    assert list(decision_options(p, g)) == [3, 4], (
        "greedy's die first; die 1 shows its face, die 2 was brought to 0 by a leader")


def test_the_chosen_die_goes_first_and_the_others_keep_their_order():
    p, sp, g, rng = first_stop(L.STOP_DIE)
    n, place = g[L.G_ROLLED], g[L.G_RESOLVED]
    order = list(g[L.G_DIE_ORDER:L.G_DIE_ORDER + n])
    last = order[-1]
    g[L.G_CHOICE] = last
    play_until(K, DICE, CARDS, p, W, sp, g, rng, L.STOP_DIE | L.STOP_CARD, no_log())
    assert list(g[L.G_DIE_ORDER:L.G_DIE_ORDER + n]) == (
        order[:place] + [last] + order[place:-1])


@pytest.mark.parametrize("kind", [L.STOP_CARD, L.STOP_DIE])
def test_a_search_leaves_the_position_and_the_streams_untouched(kind):
    p, sp, g, rng = first_stop(kind)
    before = sp.copy(), g.copy(), rng.copy()
    choice = search(K, DICE, CARDS, p, W, sp, g, rng)
    assert choice in decision_options(p, g)
    assert (sp == before[0]).all() and (g == before[1]).all() and (rng == before[2]).all()


# -- what the players cannot see -----------------------------------------------------------


def hidden_places(p, g):
    """Where ``g`` holds what the players cannot see: each stage's undrawn cards (solo:
    with that stage's cards in Casanova's face-down pile) and the chance cards not
    drawn; one array of places per set whose cards may trade places."""
    stage_of = CARDS[CL.C_META][:, CL.M_STAGE]
    sets = []
    for stage in range(3):
        start = L.G_PILE + stage * L.PILE_SIZE
        places = list(range(start + g[L.G_PILE_NEXT + stage], start + g[L.G_PILE_COUNT + stage]))
        if p[L.P_SOLO]:
            pile = L.G_HAND + L.CASANOVA * L.HAND_SIZE
            places += [pile + s for s in range(L.PILE_SLOTS)
                       if g[pile + s] and stage_of[g[pile + s]] == stage]
        sets.append(np.array(places, dtype=np.int64))
    sets.append(np.arange(L.G_CHANCE_DECK + g[L.G_CHANCE_NEXT], L.G_CHANCE_DECK + L.N_CHANCE))
    return sets


def hidden_order_changed(p, g, rng):
    """``g`` with only what the players cannot see in another order."""
    g = g.copy()
    for places in hidden_places(p, g):
        g[places] = rng.permutation(g[places])
    return g


@pytest.mark.parametrize("preset", ["full", "solo"])
def test_resampling_keeps_what_is_seen_and_forgets_the_hidden_order(preset):
    p, sp, g, rng = first_stop(L.STOP_CARD, preset)
    g[L.G_CHANCE_NEXT] = 5
    shuffled = hidden_order_changed(p, g, np.random.default_rng(1))
    assert (shuffled != g).any()
    own = rollout_streams(rng, g[L.G_TURN], 0, 0, L.N_STREAMS)
    dealt, dealt_again = g.copy(), shuffled.copy()
    resample_hidden(CARDS, p, dealt, own.copy())
    resample_hidden(CARDS, p, dealt_again, own.copy())
    assert (dealt == dealt_again).all(), "the same deal whatever the hidden order was"
    assert (dealt != g).any(), "a deal of its own"
    seen = np.ones(g.shape[0], dtype=bool)
    for places in hidden_places(p, g):
        seen[places] = False
        assert sorted(dealt[places]) == sorted(g[places]), "the same cards in each set"
    assert (dealt[seen] == g[seen]).all(), "what the players see stays"


def test_a_resampled_solo_pile_holds_as_many_cards_of_each_stage():
    """Villarroel knows how many cards of each stage Casanova's pile holds (he dealt
    them and saw each card played), not which."""
    p, sp, g, rng = game("solo")
    while play_until(K, DICE, CARDS, p, W, sp, g, rng, L.STOP_ROUND, no_log()):
        if g[L.G_STAGE] == L.STAGE_II:
            break
    stage_of = CARDS[CL.C_META][:, CL.M_STAGE]
    start = L.G_HAND + L.CASANOVA * L.HAND_SIZE

    def by_stage(g):
        pile = g[start:start + L.PILE_SLOTS]
        return np.bincount(stage_of[pile[pile > 0]], minlength=3)

    dealt = g.copy()
    resample_hidden(CARDS, p, dealt, rollout_streams(rng, 0, 0, 0, L.N_STREAMS))
    assert by_stage(g)[L.STAGE_I] > 0 and by_stage(g)[L.STAGE_II] > 0, "Stage I's left, II's"
    assert (by_stage(dealt) == by_stage(g)).all()
    assert (dealt[start:start + L.PILE_SLOTS] != g[start:start + L.PILE_SLOTS]).any()


@pytest.mark.parametrize("preset", ["full", "solo"])
def test_no_decision_depends_on_the_order_of_the_hidden_cards(preset):
    """Every searched decision of a whole game, made again on the same position with the
    undrawn piles, the chance deck (and Casanova's face-down pile) in two other orders:
    the same choice every time."""
    p, sp, g, rng = game(preset, game_index=3)
    shuffler = np.random.default_rng(7)
    decisions = changed = 0
    while play_until(K, DICE, CARDS, p, W, sp, g, rng, DECISIONS, no_log()):
        choice = search(K, DICE, CARDS, p, W, sp, g, rng)
        for _ in range(2):
            other = hidden_order_changed(p, g, shuffler)
            assert search(K, DICE, CARDS, p, W, sp, other, rng) == choice
        decisions += len(decision_options(p, g)) > 1
        changed += choice != g[L.G_CHOICE]
        g[L.G_CHOICE] = choice
    assert decisions > 20 and changed > 0, "real decisions, some of them not greedy's"


# -- the player -----------------------------------------------------------------------------


def test_a_searched_game_is_the_same_alone_or_in_a_batch():
    policy = "lookahead:rollouts=1"
    batch = GAME.simulate(None, policy, np.arange(3), SEED)
    alone = GAME.simulate(None, policy, np.array([2]), SEED)
    for name in batch:
        assert batch[name][2] == alone[name][0], name


def test_the_kernel_plays_what_the_search_chooses():
    rows = GAME.policy_rows.build(GAME.policy_choices("lookahead:rollouts=2"))
    cols = GAME.simulate(None, "lookahead:rollouts=2", np.array([0]), SEED)
    p, sp, g, _ = game()
    w = rows[L.PLAYERS].copy()
    w[L.W_POLICY] = L.GREEDY
    reason = play_searched(K, DICE, CARDS, p, w, sp, g, streams(SEED, 0), DECISIONS, no_log())
    assert reason == cols["end_reason"][0] and g[L.G_TURN] == cols["turns"][0]


def test_rollouts_weight_is_checked():
    with pytest.raises(UsageError, match="rollouts"):
        GAME.simulate(None, "lookahead:rollouts=0", np.arange(1), SEED)
    with pytest.raises(UsageError, match="rollouts"):
        GAME.simulate(None, "greedy:rollouts=4", np.arange(1), SEED)


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
