"""Victus scripted players (``policies.py``, ``judgement.py``): the random player's legal
double move, the strong players' pieces (no healing into a negative Port, sorties,
counter-mines, the dice order chosen on copies), the static evaluation and the card
evaluation from the compiled ops."""

import numpy as np
import pytest
from victus_support import C, K, S, W, params, set_marker, streams, weights

from simkit.eventlog import no_log
from simkit.games.victus import barcelonans as A
from simkit.games.victus import card_layout as CL
from simkit.games.victus import judgement, policies
from simkit.games.victus import layout as L
from simkit.games.victus.cards import load_cards
from simkit.games.victus.hands import hand_count
from simkit.games.victus.state import empty_state, set_up

CARDS = load_cards().as_tuple()


def test_random_double_move_stays_inside_barcelona():
    """"a single Barcelonan troop from one Barcelona space to another adjacent Barcelona
    space, up to two consecutive times, or one or more Barcelonan troops from one space to
    another adjacent space": a move that leaves Barcelona is a single step."""
    p, w = params(full=True), weights(L.RANDOM)
    inside = [s for s in range(C.n_spaces) if C.space_info[s, L.S_BARCELONA] == 1]
    exits = [(a, b) for a in inside for b in range(C.n_spaces)
             if A.can_step(K, None, a, b) and C.space_info[b, L.S_KIND] == L.KIND_OUTSIDE]
    assert exits
    for seed, (a, b) in enumerate(exits[:40]):
        _, g = empty_state(C)
        sp = np.zeros((C.n_spaces, L.N_SP), dtype=np.int16)
        sp[a, L.SP_CORONELA] = 1
        policies.apply_target(K, p, w, sp, g, streams(seed), L.A_MOVE_TROOPS, a, b, no_log())
        assert sp[b, L.SP_CORONELA] == 1  # one step, never onwards from outside


def test_random_double_move_inside_barcelona_ends_in_barcelona():
    p, w = params(full=True), weights(L.RANDOM)
    moved_twice = 0
    for seed in range(60):
        sp, g = empty_state(C)
        sp[S(15), L.SP_CORONELA] = 1
        policies.apply_target(K, p, w, sp, g, streams(seed), L.A_MOVE_TROOPS, S(15), S(21),
                             no_log())
        where = np.flatnonzero(sp[:, L.SP_CORONELA])
        assert len(where) == 1 and C.space_info[where[0], L.S_BARCELONA] == 1
        moved_twice += where[0] != S(21)
    assert 0 < moved_twice < 60  # the second move is a coin flip


def strong_setup(policy=L.GREEDY):
    p, w, (sp, g) = params(full=True), weights(policy), set_up(C, True)
    g[L.G_AP_GROUP] = -1
    return p, w, sp, g


def test_greedy_does_not_heal_into_a_negative_port_but_naive_does():
    """"Port -1/-2: 1 or 2 troops from Barcelona spaces go to Reserve" (Healing effect):
    healing then exports troops."""
    for policy, heals in ((L.GREEDY, False), (L.NAIVE, True)):
        p, w, sp, g = strong_setup(policy)
        set_marker(g, L.MARKER_PORT, -1)
        sp[C.wounded, L.SP_CORONELA] = 3
        g[L.G_SEAT_AP] = 4
        assert policies.heal_wounded(K, p, w, sp, g, no_log()) is True  # it could heal
        p, w, sp, g = strong_setup(policy)
        set_marker(g, L.MARKER_PORT, -1)
        sp[C.wounded, L.SP_CORONELA] = 3
        g[L.G_SEAT_AP] = 4
        policies.spend_action_points(K, CARDS, p, w, sp, g, streams(1), no_log())
        assert (sp[C.wounded, L.SP_CORONELA] < 3) == heals


def trench_tile_next_to_barcelona(sp, g):
    """Put a trench tile in a space a Barcelona space steps to: (column, its position,
    that Barcelona space)."""
    trench = K[L.K_TRENCH]
    column, position, source = next(
        (c, k, s) for c in range(L.N_TRENCH) for k in range(1, L.N_POSITIONS)
        for s in range(C.n_spaces)
        if C.space_info[s, L.S_BARCELONA] == 1 and A.can_step(K, sp, s, trench[c, k]))
    g[L.G_TRENCH + column] = position
    return column, position, source


def test_greedy_sorties_into_a_trench_space_it_can_win():
    """Example 19: infantry entering a trench tile's space fight a tile of the
    reinforcements value (2); the win razes the camp (batteries -1) and the trench tile
    goes back one position."""
    p, w, sp, g = strong_setup()
    column, position, source = trench_tile_next_to_barcelona(sp, g)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 2
    g[L.G_DISC + L.DISC_BATTERIES] = batteries = 5
    sp[:, L.SP_BOURBON] = 0
    sp[source, L.SP_INFANTRY] = 3
    g[L.G_SEAT_AP] = 2
    danger = np.zeros(C.n_spaces, dtype=np.int64)
    assert policies.sortie(K, p, w, sp, g, danger, no_log())
    camp = K[L.K_TRENCH][column, 0]
    assert sp[camp, L.SP_RAZED] == 1 and g[L.G_TRENCH + column] == position - 1
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries - 1
    assert sp[source, L.SP_INFANTRY] == 2  # 1 infantry (3) beats 2 and survives 2 points


@pytest.mark.parametrize(("reading", "sorties"), [("no_combat", False),
                                                   ("barcelonans_win", True)])
def test_greedy_sorties_against_an_empty_reinforcements_disc_only_for_a_free_win(
        reading, sorties):
    """With the disc at 0 and no tile in the camp there are no Bourbon troops to fight:
    under ``no_combat`` a sortie wins nothing, under ``barcelonans_win`` it razes the camp."""
    p, w, sp, g = strong_setup()
    p[L.P_EMPTY_REINFORCEMENTS] = L.EMPTY_REINFORCEMENTS_NAMES.index(reading)
    column, position, source = trench_tile_next_to_barcelona(sp, g)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 0
    sp[:, L.SP_BOURBON] = 0
    sp[source, L.SP_INFANTRY] = 3
    g[L.G_SEAT_AP] = 2
    danger = np.zeros(C.n_spaces, dtype=np.int64)
    assert policies.sortie(K, p, w, sp, g, danger, no_log()) == sorties
    assert (sp[source, L.SP_INFANTRY] == 2) == sorties


def test_greedy_counter_mines_a_mine_that_would_hit_two_spaces():
    """Example 24: a worm sends a troop to WOUNDED and the mine disc to 0."""
    p, w, sp, g = strong_setup()
    mine = [k for k in range(K[L.K_TRACK].shape[1]) if K[L.K_TRACK][0, k] >= 2][0]
    g[L.G_DISC + L.DISC_MINE] = mine
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = mine
    sp[S(12), L.SP_CORONELA] = 4
    g[L.G_SEAT_AP] = 2
    wounded = sp[C.wounded, L.SP_CORONELA] + sp[C.wounded, L.SP_INFANTRY]
    assert policies.counter_mine(K, p, sp, g, no_log())
    assert g[L.G_DISC + L.DISC_MINE] == 0
    assert sp[C.wounded, L.SP_CORONELA] + sp[C.wounded, L.SP_INFANTRY] == wounded + 1


def test_next_permutation_gives_each_distinct_order_once():
    a = np.array([0, 0, 1, 2])
    seen = {tuple(a)}
    while policies.next_permutation(a):
        seen.add(tuple(a))
    assert len(seen) == 12  # 4! / 2!


def test_dice_order_on_copies_leaves_the_game_and_its_streams_untouched():
    p, w, sp, g = strong_setup()
    g[L.G_STAGE] = L.STAGE_III
    faces = np.array([[L.ACT_REINFORCEMENTS, 3], [L.ACT_ADVANCE, 2], [L.ACT_BOMBARDMENT, 2],
                      [L.ACT_TRENCH, 1]])
    rng = streams(5)
    # by default (no search) the strong ranking: Trench, Advance, Bombardment, Reinforcements
    assert list(policies.order_dice(K, CARDS, p, w, sp, g, rng, faces, 4)) == [3, 1, 2, 0]
    w[L.W_DICE_SEARCH_FROM_STAGE] = 1
    before = (sp.copy(), g.copy(), rng.copy())
    order = policies.order_dice(K, CARDS, p, w, sp, g, rng, faces, 4)
    assert sorted(order) == [0, 1, 2, 3]
    assert (sp == before[0]).all() and (g == before[1]).all() and (rng == before[2]).all()
    # naive keeps its fixed ranking: Bombardment, Advance, Trench, Reinforcements
    w[L.W_POLICY] = L.NAIVE
    assert list(policies.order_dice(K, CARDS, p, w, sp, g, rng, faces, 4)) == [2, 1, 3, 0]


def test_the_chosen_dice_order_is_the_best_scored_order():
    p, w, sp, g = strong_setup()
    w[L.W_SKILLS] |= 1 << L.SKILL_DICE_EVERY_ORDER
    w[L.W_DICE_SEARCH_FROM_STAGE] = 1
    g[L.G_STAGE] = L.STAGE_II
    faces = np.array([[L.ACT_REINFORCEMENTS, 3], [L.ACT_ADVANCE, 2], [L.ACT_BOMBARDMENT, 2]])
    rng = streams(7)
    chosen = policies.order_dice(K, CARDS, p, w, sp, g, rng, faces, 3)
    g_guess, rng_guess = g.copy(), rng.copy()
    policies.shuffle_unseen_chance(g_guess, rng_guess)

    def score(order):
        sp2, g2, rng2 = sp.copy(), g_guess.copy(), rng_guess.copy()
        for k in order:
            policies.resolve_die(K, p, w, sp2, g2, rng2, faces[k, 0], faces[k, 1], False,
                                 no_log())
        return judgement.evaluate_position(K, CARDS, p, sp2, g2)

    import itertools
    assert score(chosen) == max(score(o) for o in itertools.permutations(range(3)))


@pytest.mark.parametrize("every_order", [False, True])
def test_the_dice_search_does_not_depend_on_the_hidden_chance_order(every_order):
    """The copies shuffle the chance cards a player has not seen from a canonical order:
    reordering only those cards leaves the chosen order as it was."""
    p, w, sp, g = strong_setup()
    w[L.W_DICE_SEARCH_FROM_STAGE] = 1
    if every_order:
        w[L.W_SKILLS] |= 1 << L.SKILL_DICE_EVERY_ORDER
    g[L.G_STAGE] = L.STAGE_III
    g[L.G_CHANCE_NEXT] = 3
    faces = np.array([[L.ACT_BOMBARDMENT, 2], [L.ACT_ADVANCE, 2], [L.ACT_BOMBARDMENT, 1],
                      [L.ACT_ADVANCE, 1]])
    shuffler = np.random.default_rng(0)
    orders = set()
    for _ in range(8):
        other = g.copy()
        deck = slice(L.G_CHANCE_DECK + 3, L.G_CHANCE_DECK + L.N_CHANCE)
        other[deck] = shuffler.permutation(other[deck])
        orders.add(tuple(policies.order_dice(K, CARDS, p, w, sp, other, streams(5), faces, 4)))
    assert len(orders) == 1


def test_evaluate_position_prices_the_defeats_and_the_threats():
    """End of the Game: fewer Coronela than the threshold, a Bourbon tile on the Beach or
    too many rubble tiles lose."""
    p, w, sp, g = strong_setup()
    base = judgement.evaluate_position(K, CARDS, p, sp, g)
    assert base > judgement.DEFEAT_SCORE
    worse = sp.copy()
    worse[S(12), L.SP_RUBBLE] = L.RUBBLE
    assert judgement.evaluate_position(K, CARDS, p, worse, g) < base
    worse = sp.copy()
    worse[S(12), L.SP_BOURBON] = 3
    assert judgement.evaluate_position(K, CARDS, p, worse, g) < base
    beach = sp.copy()
    beach[C.beach if hasattr(C, "beach") else K[L.K_SPECIAL][L.SPECIAL_BEACH], L.SP_BOURBON] = 1
    assert judgement.evaluate_position(K, CARDS, p, beach, g) == judgement.DEFEAT_SCORE


def op(code, *args):
    row = np.zeros(CL.OP_WIDTH, dtype=np.int32)
    row[0] = code
    row[1:1 + len(args)] = args
    return row


def test_card_ops_are_priced_by_what_they_do():
    assert judgement.op_score(CARDS, op(CL.OP_ADVANCE, 2)) == -6
    assert judgement.op_score(CARDS, op(CL.OP_TRENCH, -1)) == 2  # Trench -1 helps
    assert judgement.op_score(CARDS, op(CL.OP_GRANT_AP, L.WAR_MOVEMENT, 3)) == 3
    assert judgement.op_score(CARDS, op(CL.OP_DISC, L.DISC_BATTERIES, 1, CL.SET_RELATIVE)) == -3
    assert judgement.op_score(CARDS, op(CL.OP_REMOVE, CL.PIECE_RUBBLE, 0, 2,
                                       CL.WHERE_CHOOSE)) == 4


def test_greedy_judges_cards_by_their_effects_naive_by_their_almanac():
    meta = CARDS[CL.C_META]
    effects = [judgement.card_effect_score(CARDS, c) for c in range(1, L.N_CARDS + 1)]
    assert min(effects) < -5 and max(effects) > 3
    card = 1 + int(np.argmin(effects))
    p = params(full=True)
    greedy, naive = weights(L.GREEDY, card_effects=1.0), weights(L.NAIVE)
    assert policies.card_eval(CARDS, p, naive, card) == policies.card_score(CARDS, card)
    assert policies.card_eval(CARDS, p, greedy, card) == \
        policies.card_score(CARDS, card) + effects[card - 1]  # card_effects weight 1
    assert list(p[L.P_CARD_EFFECT + 1:L.P_CARD_EFFECT + L.N_CARDS + 1]) == effects
    greedy[L.W_CARD_EFFECTS] = 0
    assert policies.card_eval(CARDS, p, greedy, card) == policies.card_score(CARDS, card)
    assert meta[card, CL.M_KIND] >= 0


def test_dice_one_at_a_time_is_a_permutation_and_touches_nothing():
    p, w, sp, g = strong_setup()  # the search's default: one die at a time
    w[L.W_DICE_SEARCH_FROM_STAGE] = 1
    faces = np.array([[L.ACT_REINFORCEMENTS, 3], [L.ACT_ADVANCE, 2], [L.ACT_ADVANCE, 2],
                      [L.ACT_TRENCH, 1], [L.ACT_BOMBARDMENT, 1]])
    rng = streams(9)
    before = (sp.copy(), g.copy(), rng.copy())
    order = policies.order_dice(K, CARDS, p, w, sp, g, rng, faces, 5)
    assert sorted(order) == [0, 1, 2, 3, 4]
    assert list(order).index(1) < list(order).index(2)  # equal faces keep table order
    assert (sp == before[0]).all() and (g == before[1]).all() and (rng == before[2]).all()


def test_action_usage_table_counts_every_action_and_the_unspent_ap():
    """benchmarks/victus_action_usage.py: every Barcelonan action is bought by some policy
    (``random`` tries them all), the traced AP add up (unspent <= received), and the strong
    greedy leaves fewer Generalitat AP unspent than the naive one."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).parents[1] / "benchmarks" / "victus_action_usage.py"
    spec = importlib.util.spec_from_file_location("victus_action_usage", path)
    usage = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(usage)
    table = usage.usage(games=40, seed=1)
    assert list(table.columns) == ["naive", "greedy", "fortify", "random"]
    for name in L.BARCELONAN_ACTION_NAMES:
        if name != "improve_marker_no_troop":  # (a troop usually stands on the marker)
            assert table.loc[f"action: {name}"].max() > 0, name
    assert (table.loc["AP: Generalitat unspent"] <= table.loc["AP: Generalitat received"]).all()
    assert (table.loc["AP: granted, unspent"] <= table.loc["AP: granted by cards"]).all()
    assert table.loc["AP: Generalitat unspent", "greedy"] < \
        table.loc["AP: Generalitat unspent", "naive"]
    assert table.loc["timing: effect"].min() > 0


def test_no_card_change_when_the_pile_cannot_replace_every_discard():
    """Change 1 card: "every player discards one card from hand and draws one from the
    stage's pile": with fewer cards left in the pile than players, hands would shrink (and
    could empty before the stage's last round), so no player buys it."""
    p = params(full=True)
    _, g = empty_state(C)
    g[L.G_SEATS] = 2
    g[L.G_STAGE] = L.STAGE_I
    g[L.G_HAND:L.G_HAND + 2] = (1, 2)
    g[L.G_HAND + L.HAND_SIZE:L.G_HAND + L.HAND_SIZE + 2] = (3, 4)
    g[L.G_PILE_COUNT] = 50
    g[L.G_PILE] = 5
    g[L.G_PILE + 1] = 6
    g[L.G_SEAT_AP] = 10
    g[L.G_PILE_NEXT] = 49  # 1 card left for 2 players
    assert not policies.change_a_card(K, CARDS, p, W, g, streams(0), no_log())
    g[L.G_PILE_NEXT] = 0
    assert policies.change_a_card(K, CARDS, p, W, g, streams(0), no_log())
    assert hand_count(g, 0) == 2 and hand_count(g, 1) == 2
