"""Victus variants: the competitive game (Examples 27-29, the Sense/Fury table that End of
Round 2.1-2.2 give, fame per Example 28 and Mode 2), the solo game (Examples 30-31), every
difficulty knob taking effect in the engine, the presets, and the policies' weights."""

import numpy as np
import pandas as pd
import pytest
from plain_python import run_without_jit
from victus_support import C, K, W, params, rules_vector, streams, weights

import simkit
from simkit.eventlog import no_log
from simkit.games.victus import _static, engine, policies, scoring, solo
from simkit.games.victus import barcelonans as A
from simkit.games.victus import bourbons as B
from simkit.games.victus import card_layout as CL
from simkit.games.victus import layout as L
from simkit.games.victus.hands import build_piles, hand_count, stage_iv_pool
from simkit.games.victus.rules import POLICY_ROWS, Rules
from simkit.games.victus.state import empty_state, starting_position

GAME = simkit.games.get("victus")
CARDS_OBJ = _static()[3]
CARDS = CARDS_OBJ.as_tuple()
META = CARDS_OBJ.meta


def card_with(points, kind=None):
    """A card number whose Sense/Fury points are ``points`` (negative = Sense)."""
    for card in range(1, L.N_CARDS + 1):
        if META[card, CL.M_SENSE_FURY] == points and (kind is None
                                                       or META[card, CL.M_KIND] == kind):
            return card
    raise LookupError(points)


def competitive(**changes):
    return rules_vector(Rules(level="competitive", **changes))


def round_of(cards, pin=5):
    """A g with the pin on ``pin`` and seat s having played ``cards[s]``."""
    _, g = empty_state(C)
    g[L.G_SEATS] = len(cards)
    g[L.G_SENSE_FURY] = pin
    for seat, card in enumerate(cards):
        g[L.G_ROUND_CARD + seat] = card
    return g


# -- competitive scoring ----------------------------------------------------------------------

# Competitive Game Rules, End of Round 2.1-2.2 (and Moderating Sense and Fury), worked out:
# start | -5 .. -1, +1 .. +5 -> end space and S (standard) / M (moderating)
SENSE_FURY_TABLE = """
1 | 1-- 1-- 1-- 1-- 1-- 2-- 3-- 4SM 5SM 6SM
2 | 1-- 1-- 1-- 1-- 1-- 3-- 4SM 5SM 6SM 7S-
3 | 1-- 1-- 1-- 1-- 2-- 4SM 5SM 6SM 7S- 8S-
4 | 1SM 1SM 1SM 2SM 3SM 5-- 6-- 7SM 8SM 9SM
5 | 1SM 1SM 2SM 3SM 4-- 6-- 7SM 8SM 9SM 9SM
6 | 1SM 2SM 3SM 4-- 5-- 7SM 8SM 9SM 9SM 9SM
7 | 2S- 3S- 4SM 5SM 6SM 8-- 9-- 9-- 9-- 9--
8 | 3S- 4SM 5SM 6SM 7-- 9-- 9-- 9-- 9-- 9--
9 | 4SM 5SM 6SM 7-- 8-- 9-- 9-- 9-- 9-- 9--
"""


def test_sense_fury_moves_and_scoring_match_the_end_of_round_table_cell_by_cell():
    standard, moderating = competitive(), competitive(moderating_sense_fury=True)
    moves = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)
    for line in SENSE_FURY_TABLE.strip().splitlines():
        start, cells = line.split("|")
        for move, cell in zip(moves, cells.split(), strict=True):
            end = scoring.move_pin(CARDS, int(start), move)
            assert end == int(cell[0])
            assert scoring.card_scores(CARDS, standard, int(start), end) == (cell[1] == "S")
            assert scoring.card_scores(CARDS, moderating, int(start), end) == (cell[2] == "M")


def test_the_sense_fury_track_is_checked_against_the_printed_one(tmp_path):
    """markers.toml [sense_fury]'s colours are printed (three groups of three, the red
    centre): a designer's file that moves the red group is refused, naming the rulebook's,
    rather than played as Victus."""
    import shutil

    from simkit.errors import ComponentError
    from simkit.games.victus.cards import load_cards
    from simkit.games.victus.components import DATA

    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    markers = folder / "markers.toml"
    text = markers.read_text(encoding="utf-8")
    old = 'colours = ["ochre", "ochre", "ochre", "red", "red", "red",'
    assert old in text
    markers.write_text(text.replace(old, 'colours = ["ochre", "ochre", "red", "red", "red", '
                                         '"red",'), encoding="utf-8")
    with pytest.raises(ComponentError, match=r"\[sense_fury\]: colours = .*the rulebook "
                                             r"prints \['ochre', 'ochre', 'ochre', 'red'"):
        load_cards(folder)
    moderating = competitive(moderating_sense_fury=True)
    assert scoring.card_scores(CARDS, moderating, 5, 3)  # the printed space 3 is ochre


def test_example_27_end_of_round_scoring_and_the_next_starting_player():
    victor, victoria, eulalia = card_with(2), card_with(-4), card_with(-5)
    g = round_of([victor, victoria, eulalia])
    scoring.score_round(CARDS, competitive(), g, 0, no_log())
    assert g[L.G_SENSE_FURY] == 1  # 5 -> 7 -> 3 -> 1 (clamped)
    assert list(g[L.G_VP:L.G_VP + 3]) == [2, 4, 0]
    assert scoring.next_starting_player(CARDS, g, 0) == 0  # Víctor's 2 is the lowest


def test_example_27_under_moderating_sense_and_fury_victoria_does_not_score():
    g = round_of([card_with(2), card_with(-4), card_with(-5)])
    scoring.score_round(CARDS, competitive(moderating_sense_fury=True), g, 0, no_log())
    assert list(g[L.G_VP:L.G_VP + 3]) == [2, 0, 0]  # ochre Fury -> ochre Sense: same colour


def test_example_29_end_of_round_victor_scores_3_victoria_nothing_victor_keeps_the_flag():
    g = round_of([card_with(3), card_with(5)])
    scoring.score_round(CARDS, competitive(), g, 0, no_log())
    assert g[L.G_SENSE_FURY] == 9 and list(g[L.G_VP:L.G_VP + 2]) == [3, 0]
    assert scoring.next_starting_player(CARDS, g, 0) == 0


def test_scoring_starts_with_the_starting_player():
    g = round_of([card_with(-4), card_with(2), card_with(-5)])
    scoring.score_round(CARDS, competitive(), g, 1, no_log())  # seat 1 started the round
    # seat 1: 5 -> 7 scores 2; seat 2: 7 -> 2 (Fury group to Sense group) scores 5;
    # seat 0: 2 -> 1, same group, nothing
    assert list(g[L.G_VP:L.G_VP + 3]) == [0, 2, 5] and g[L.G_SENSE_FURY] == 1


def test_a_tie_for_the_lowest_card_goes_counter_clockwise_from_the_starting_player():
    two = [card for card in range(1, 151) if abs(META[card, CL.M_SENSE_FURY]) == 2][:4]
    g = round_of(two)  # four seats, all value 2
    assert scoring.next_starting_player(CARDS, g, 2) == 1  # seat 1 is 2's right-hand side
    g[L.G_ROUND_CARD + 1] = card_with(5)
    assert scoring.next_starting_player(CARDS, g, 2) == 0
    g[L.G_ROUND_CARD + 0] = card_with(5)
    g[L.G_ROUND_CARD + 3] = card_with(5)
    assert scoring.next_starting_player(CARDS, g, 2) == 2  # the starting player keeps it


def test_example_28_fame_is_59():
    p = competitive()
    assert int(scoring.fame(p, 13 + 17 + 25, 3, 6, 13)) == 59


def test_mode_2_difficulty_fame_is_38_and_its_coronela_term_10():
    p = rules_vector(GAME.presets["mode2"].rules)
    assert int(scoring.difficulty_fame(p, 0)) == 5 + 8 + 15 + 10 == 38
    assert int(scoring.fame(p, 0, 0, 0, 0)) == 38 + 10


@pytest.mark.parametrize("changes, bonus", [
    ({"rubble_threshold": 20}, -5), ({"given_half_a_bomb": True}, 8),
    ({"always_priority_cost": True}, -15), ({"moderating_sense_fury": True}, 10),
    ({"victory_level": 59}, 3), ({"victory_level": 41}, -3), ({"victory_level": 52}, 0),
    ({"dice_order": "sequential"}, 15)])
def test_each_difficulty_adjustment_has_its_fame_bonus_or_penalty(changes, bonus):
    assert int(scoring.difficulty_fame(competitive(**changes), 0)) == bonus


def test_partial_dice_order_fame_is_minus_stage_when_choosing_plus_when_not():
    p = competitive(dice_order="partial")
    assert int(scoring.difficulty_fame(p, 0b0000)) == 1 + 2 + 3 + 4
    assert int(scoring.difficulty_fame(p, 0b1111)) == -10
    assert int(scoring.difficulty_fame(p, 0b1100)) == 1 + 2 - 3 - 4


def test_the_competitive_flag_goes_to_the_lowest_card_and_the_full_game_flag_to_the_left():
    for p, expected in ((competitive(), 1), (params(full=True), 1)):
        g = round_of([card_with(5), card_with(-1), card_with(3)])
        g[L.G_FLAG] = 0
        engine.end_of_round(K, CARDS, p, W, np.zeros((C.n_spaces, L.N_SP), np.int16), g,
                            streams(0, 0), no_log())
        assert g[L.G_FLAG] == expected
    g = round_of([card_with(5), card_with(3), card_with(-1)])
    engine.end_of_round(K, CARDS, competitive(), W, np.zeros((C.n_spaces, L.N_SP), np.int16), g,
                        streams(0, 0), no_log())
    assert g[L.G_FLAG] == 2  # not to the left: to the lowest card


# -- solo -------------------------------------------------------------------------------------


def solo_start(**changes):
    rules = Rules(level="competitive", players=1, **changes)
    sp, g = starting_position(C, rules)
    p = rules_vector(rules)
    rng = streams(3, 0)
    build_piles(CARDS, p, g, rng)
    return p, sp, g, rng


def test_example_30_casanova_pile_of_8_and_2_resignation_tiles_at_stage_ii():
    p, sp, g, rng = solo_start()
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_I, no_log())
    assert hand_count(g, solo.VILLARROEL) == 7 and hand_count(g, solo.CASANOVA) == 7
    assert g[L.G_RESIGNATION] == 1
    for _ in range(6):  # six rounds, no resignation used
        assert solo.draw_from_pile(g, rng) > 0
    assert hand_count(g, solo.CASANOVA) == 1
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_II, no_log())
    assert hand_count(g, solo.CASANOVA) == 8 and g[L.G_RESIGNATION] == 2


def test_example_31_two_cancellations_in_a_row_then_the_third_card_is_played():
    p, sp, g, rng = solo_start()
    w = weights()
    w[L.W_RESIGN_BELOW] = 99  # Villarroel dislikes every card
    g[L.G_RESIGNATION] = 3
    pile = [card_with(-3), card_with(2), card_with(4)]
    for slot, card in enumerate(pile):
        g[L.G_HAND + solo.CASANOVA * L.HAND_SIZE + slot] = card
    played = solo.casanova_card(CARDS, p, w, g, rng, no_log())
    assert g[L.G_RESIGNATION] == 1 and g[L.G_CANCELLED] == 2
    cancelled = set(g[L.G_CANCELLED_CARDS:L.G_CANCELLED_CARDS + 2])
    assert cancelled | {played} == set(pile) and played not in cancelled
    pool = np.zeros(4 * L.HAND_SIZE + L.MAX_CANCELLED, dtype=np.int64)
    assert set(pool[:stage_iv_pool(g, pool)]) >= cancelled  # Stage IV's pool


def test_no_resignation_when_the_round_card_is_chosen_at_random():
    p, sp, g, rng = solo_start()
    w = weights()
    w[L.W_RESIGN_BELOW] = 99
    g[L.G_RESIGNATION], g[L.G_RANDOM_ROUND] = 3, 1
    for slot, card in enumerate([card_with(-3), card_with(2)]):
        g[L.G_HAND + solo.CASANOVA * L.HAND_SIZE + slot] = card
    solo.casanova_card(CARDS, p, w, g, rng, no_log())
    assert g[L.G_RESIGNATION] == 3 and g[L.G_CANCELLED] == 0


@pytest.mark.parametrize("reading, per_stage, per_round", [("per_stage", 1, 0),
                                                            ("per_round", 0, 1)])
def test_resignation_tiles_per_stage_or_per_round(reading, per_stage, per_round):
    p, sp, g, rng = solo_start(resignation_tiles=reading)
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_I, no_log())
    assert g[L.G_RESIGNATION] == per_stage
    engine.start_of_round(K, CARDS, p, W, sp, g, rng, no_log())
    assert g[L.G_RESIGNATION] == per_stage + per_round


def test_a_tile_each_round_stops_at_the_three_printed():
    # the components list 3 Villarroel resignation tiles; a spent one stays beside
    # Casanova's pile, so "a tile at the start of each round" gives 3 in all
    p, sp, g, rng = solo_start(resignation_tiles="per_round")
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_I, no_log())
    for _ in range(2):
        engine.start_of_round(K, CARDS, p, W, sp, g, rng, no_log())
    solo.cancel(g, 1, no_log())
    for _ in range(3):
        engine.start_of_round(K, CARDS, p, W, sp, g, rng, no_log())
    assert g[L.G_RESIGNATION] + g[L.G_CARDS_CANCELLED] == 3


def test_the_solo_seats_are_named_villarroel_and_casanova():
    assert GAME.seat_names(GAME.resolve_rules("solo")) == ["Villarroel", "Casanova"]
    assert GAME.seat_names(GAME.Rules()) == []  # players 1-4 are their seats


def test_solo_games_start_with_casanova_and_end_with_villarroel_on_stage_iv():
    frame = simkit.simulate(GAME, 200, seed=11, rules="solo")
    assert (frame["cards_cancelled"] <= 3).all() and frame["cards_cancelled"].sum() > 0
    won = frame[frame["end_reason"] == "survived"]
    assert (won["fame_winner"].isin(["seat1", "seat2", "shared"])).all()
    assert frame[["vp_seat3", "vp_seat4"]].isna().all().all()  # beyond the table


# -- difficulty knobs in the engine -----------------------------------------------------------


def ruined_empty(space):
    sp, g = empty_state(C)
    sp[space, L.SP_RUBBLE] = L.RUINED
    return sp, g


def test_given_half_a_bomb_moves_one_pin_once_per_space_port_first():
    space = C.space(22)
    sp, g = ruined_empty(space)
    before = g[L.G_MARKER:L.G_MARKER + L.N_MARKERS].copy()
    B.given_half_a_bomb(params(full=True, given_half_a_bomb=True), W, sp, g, streams(0, 0),
                        space, no_log())
    after = g[L.G_MARKER:L.G_MARKER + L.N_MARKERS]
    assert (before - after).sum() == 1 and before[L.MARKER_PORT] - after[L.MARKER_PORT] == 1


def test_given_half_a_bomb_needs_a_ruined_space_with_nothing_to_absorb_a_hit():
    space = C.space(22)
    p = params(full=True, given_half_a_bomb=True)
    for field, value in ((L.SP_BARRICADES, 1), (L.SP_RUBBLE, L.RUBBLE), (L.SP_CORONELA, 1)):
        sp, g = ruined_empty(space)
        sp[space, field] = value
        before = g[L.G_MARKER:L.G_MARKER + L.N_MARKERS].copy()
        B.given_half_a_bomb(p, W, sp, g, streams(0, 0), space, no_log())
        assert (g[L.G_MARKER:L.G_MARKER + L.N_MARKERS] == before).all()


@pytest.mark.parametrize("on", [False, True])
def test_a_bombardment_on_ruined_spaces_costs_pins_only_under_given_half_a_bomb(on):
    sp, g = empty_state(C)
    sp[C.space_info[:, L.S_BARCELONA] == 1, L.SP_RUBBLE] = L.RUINED
    g[L.G_DISC + L.DISC_BATTERIES] = 1  # batteries value 1: one space per bombardment
    before = g[L.G_MARKER:L.G_MARKER + L.N_MARKERS].sum()
    B.bombard(K, params(full=True, given_half_a_bomb=on), W, sp, g, streams(4, 0), 3,
              no_log())
    spaces = B.bombard_spaces(K, g)
    lost = before - g[L.G_MARKER:L.G_MARKER + L.N_MARKERS].sum()
    assert lost == (spaces if on else 0)  # one pin step per space, not per hit (3 hits)


def test_always_priority_cost_knob_makes_every_action_cost_its_priority_cost():
    p, (_, g) = params(full=True, always_priority_cost=True), empty_state(C)
    priority = list(K[L.K_ACTION_COSTS][:, L.COST_PRIORITY])
    for council in (L.WAR_MOVEMENT, L.WAR_MARKERS, L.WAR_ARTILLERY, L.WAR_DEFENSE):
        g[L.G_WAR_COUNCIL] = council  # the card's War Council is ignored
        assert [A.action_cost(K, p, g, a) for a in range(L.N_ACTIONS)] == priority
    standard = params(full=True)
    assert [A.action_cost(K, standard, g, a) for a in range(L.N_ACTIONS)] != priority


@pytest.mark.parametrize("order, chooses", [
    ("free", [1, 1, 1, 1]), ("sequential", [0, 0, 0, 0]), ("partial", [0, 0, 1, 1])])
def test_dice_order_knob_sets_who_orders_the_dice_each_stage(order, chooses):
    rules = Rules(dice_order=order)
    p, w = rules_vector(rules), weights(dice_choice_from_stage=3)
    sp, g = starting_position(C, rules)
    rng = streams(0, 0)
    build_piles(CARDS, p, g, rng)
    seen = []
    for stage in range(4):
        engine.start_of_stage(K, CARDS, p, w, g, rng, stage, no_log())
        seen.append(int(g[L.G_DICE_ORDER_FREE]))
    assert seen == chooses
    assert g[L.G_DICE_CHOSEN] == (0b1100 if order == "partial" else 0)


def test_sequential_dice_resolve_in_table_order():
    _, g = empty_state(C)
    faces = np.array([[L.ACT_REINFORCEMENTS, 1], [L.ACT_BOMBARDMENT, 2]], dtype=np.int64)
    g[L.G_DICE_ORDER_FREE] = 0
    assert list(policies.dice_order(W, g, streams(0, 0), faces, 2)) == [0, 1]
    g[L.G_DICE_ORDER_FREE] = 1
    assert list(policies.dice_order(W, g, streams(0, 0), faces, 2)) == [1, 0]


def test_victory_level_turns_surviving_games_short_of_vp_into_defeats():
    base = simkit.simulate(GAME, 150, seed=9, rules="competitive")
    high = simkit.simulate(GAME, 150, seed=9, rules={"level": "competitive",
                                                      "victory_level": 300})
    survived = base["end_reason"] == "survived"
    assert survived.any() and (base["vp_seat1"] + base["vp_seat2"] < 300).all()
    assert (high.loc[survived, "end_reason"] == "victory_points").all()
    pd.testing.assert_series_equal(high.loc[~survived, "end_reason"],
                                   base.loc[~survived, "end_reason"])
    assert high["fame"].isna().all() and (high["fame_winner"] == "none").all()


def test_fame_column_is_the_formula_over_the_other_columns():
    frame = simkit.simulate(GAME, 150, seed=9, rules="competitive")
    won = frame[frame["end_reason"] == "survived"]
    vp = won[["vp_seat1", "vp_seat2"]]
    assert (won["fame"] - vp.sum(axis=1) - 5 - won["coronela_in_barcelona"]
            + won["rubble_tiles"]).between(0, 10).all()  # + the Stage IV card's 0-10
    best = np.where(vp["vp_seat1"] == vp["vp_seat2"], "shared",
                    np.where(vp["vp_seat1"] > vp["vp_seat2"], "seat1", "seat2"))
    assert (won["fame_winner"].astype(str).to_numpy() == best).all()


def test_start_and_reserve_knobs_change_the_set_up():
    sp, g = starting_position(C, Rules(start_generalitat=3, start_gunpowder_store=2,
                                       reserve_coronela=0, reserve_infantry=1))
    assert C.marker_values[L.MARKER_GENERALITAT][g[L.G_MARKER + L.MARKER_GENERALITAT]] == 3
    assert C.marker_values[L.MARKER_GUNPOWDER_STORE][
        g[L.G_MARKER + L.MARKER_GUNPOWDER_STORE]] == 2
    assert sp[C.reserve, L.SP_CORONELA] == 0 and sp[C.reserve, L.SP_INFANTRY] == 1
    frame = simkit.simulate(GAME, 1, seed=0, rules={"start_generalitat": 1})
    assert len(frame) == 1


def test_cards_and_rounds_per_stage_knobs_change_the_number_of_turns():
    frame = simkit.simulate(GAME, 60, seed=1, rules={"level": "first_game",
                                                      "coronela_threshold": 1,
                                                      "rubble_threshold": 33,
                                                      "cards_per_stage": 4,
                                                      "rounds_per_stage": 2})
    won = frame[frame["end_reason"] == "survived"]
    assert len(won) and (won["turns"] == 3 * 2 * 2 + 1).all()


# -- presets ----------------------------------------------------------------------------------


def test_presets_are_the_rulebooks_lists():
    r = {name: preset.rules for name, preset in GAME.presets.items()}
    assert set(r) == {"first_game", "full", "competitive", "solo", "mode1", "mode2"}
    assert r["mode1"].changes() == {"coronela_threshold": 1, "rubble_threshold": 18,
                                    "always_priority_cost": True}
    assert r["mode2"].changes() == {"level": "competitive", "coronela_threshold": 10,
                                    "rubble_threshold": 10, "given_half_a_bomb": True,
                                    "dice_order": "sequential", "victory_level": 80}
    assert r["solo"].solo and r["solo"].competitive and r["competitive"].competitive
    assert r["first_game"].dice_order == "sequential"


@pytest.mark.parametrize("knob, value", [("moderating_sense_fury", True),
                                         ("victory_level", 60),
                                         ("resignation_tiles", "per_round")])
def test_variant_knobs_outside_their_game_are_errors(knob, value):
    with pytest.raises(simkit.RulesError, match=knob):
        Rules(**{knob: value})


# -- policy weights ---------------------------------------------------------------------------


def test_policy_weights_parse_to_canonical_text_and_reach_the_kernel():
    assert GAME.resolve_policy("greedy:greed=0.5, coronela_weight=1.5") == \
        {"players": "greedy:greed=0.5"}
    assert GAME.resolve_policy("fortify") == {"players": "fortify"}
    choice = GAME.policy_choices("fortify:greed=2,resign_below=1")[0]
    w = POLICY_ROWS.build((choice,))[L.PLAYERS]
    assert (w[L.W_POLICY], w[L.W_GREED], w[L.W_RESIGN_BELOW]) == (policies.FORTIFY, 20, 1)


@pytest.mark.parametrize("policy, words", [
    ("greedy:nope=1", ["unknown policy weight 'nope'", "greed"]),
    ("greedy:greed=99", ["policy weight 'greed'", "0.0..10.0"]),
    ("greedy:greed", ["name=value"]),
    ("random:greed=1", ["takes no weights"])])
def test_bad_policy_weights_are_usage_errors(policy, words):
    with pytest.raises(simkit.errors.UsageError) as info:
        GAME.resolve_policy(policy)
    for word in words:
        assert word in str(info.value)


def test_greed_weight_trades_the_citys_safety_for_points():
    games = 300
    modest = simkit.simulate(GAME, games, seed=2, rules="competitive", policy="greedy:greed=0")
    greedy = simkit.simulate(GAME, games, seed=2, rules="competitive", policy="greedy:greed=8")
    vp = lambda f: (f["vp_seat1"] + f["vp_seat2"]).mean()  # noqa: E731
    assert vp(greedy) > vp(modest) + 5


@pytest.mark.parametrize("threshold, lost", [(1, False), (3, False), (4, True), (10, True)])
def test_coronela_threshold_knob_sets_the_defeat_check(threshold, lost):
    sp, g = starting_position(C, Rules())
    barcelona = np.flatnonzero(C.space_info[:, L.S_BARCELONA] == 1)
    sp[barcelona, L.SP_CORONELA] = 0
    sp[barcelona[:3], L.SP_CORONELA] = 1
    reason = engine.defeat(K, params(full=True, coronela_threshold=threshold), sp, g)
    assert (reason == L.END_CORONELA) == lost


@pytest.mark.parametrize("threshold, lost", [(12, True), (13, False), (33, False)])
def test_rubble_threshold_knob_sets_the_defeat_check(threshold, lost):
    sp, g = starting_position(C, Rules())
    barcelona = np.flatnonzero(C.space_info[:, L.S_BARCELONA] == 1)
    sp[barcelona[:12], L.SP_RUBBLE] = L.RUBBLE
    reason = engine.defeat(K, params(full=True, rubble_threshold=threshold), sp, g)
    assert (reason == L.END_RUBBLE) == lost


def test_cli_lists_policy_weights_and_rejects_bad_ones(capsys):
    from simkit.cli import main
    assert main(["games", "victus"]) in (0, None)
    out = capsys.readouterr().out
    assert "policy weights of players: greedy, fortify" in out and "resign_below" in out
    naive = out[out.index("policy weights of players: naive"):].split("policy weights")[1]
    assert "resign_below" in naive and "card_effects" not in naive  # naive never reads it
    assert "given_half_a_bomb" in out and "mode2" in out
    assert main(["run", "victus", "--games", "2", "--policy", "greedy:nope=1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown policy weight 'nope'" in err[0]
    assert main(["run", "victus", "--games", "2", "--no-progress", "--policy",
                 "players=fortify:greed=2,coronela_weight=2"]) == 0
    assert "policy players=fortify:coronela_weight=2.0,greed=2.0" in capsys.readouterr().out


def test_an_experiment_grid_may_combine_knobs_that_need_each_other():
    from simkit.experiment import parse_experiment
    text = ('[experiment]\nname = "x"\ngame = "victus"\ngames = 10\n\n[[sweep]]\n'
            'kind = "grid"\nknobs = { level = ["competitive"], '
            'moderating_sense_fury = [false, true] }\n')
    cells = parse_experiment(text, "x.toml").cells
    assert cells[-1].description == "level=competitive, moderating_sense_fury=true"
    assert cells[-1].label == "l=competitive msf=true"  # over 32 characters: short name
    bad = text.replace("grid", "one_at_a_time")
    with pytest.raises(simkit.errors.ExperimentError, match="needs level = competitive"):
        parse_experiment(bad, "x.toml")


_PLAIN_PYTHON = """
import json, numba, numpy as np, simkit
game = simkit.games.get("victus")
print(json.dumps({"jit": not numba.config.DISABLE_JIT, "runs": {
    preset: {k: v.tolist() for k, v in game.simulate(preset, policy, np.arange(4), 5).items()}
    for preset, policy in (("full", "greedy"), ("solo", "greedy"), ("mode2", "random"))}}))
"""


def test_disable_jit_plays_the_same_games_unmanaged_views_included():
    plain = run_without_jit(_PLAIN_PYTHON)
    assert plain["jit"] is False
    for preset, policy in (("full", "greedy"), ("solo", "greedy"), ("mode2", "random")):
        compiled = GAME.simulate(preset, policy, np.arange(4), 5)
        assert plain["runs"][preset] == {k: v.tolist() for k, v in compiled.items()}
