"""Victus whole games: the sequence of play, Example 17's clean-up, Change 1 card,
determinism, invariants over random seeds (hypothesis), traces, and the scripted players
against each other."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from victus_support import W, rules_vector, streams, weights

import simkit
from simkit.eventlog import no_log
from simkit.games.victus import _static, engine, policies
from simkit.games.victus import layout as L
from simkit.games.victus.hands import hand_count
from simkit.games.victus.rules import Rules
from simkit.games.victus.state import set_up, starting_position

GAME = simkit.games.get("victus")
C, K, DICE, CARDS_OBJ = _static()
CARDS = CARDS_OBJ.as_tuple()
PIECES = [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]


def start(rules):
    return starting_position(C, rules)


def test_example_17_end_of_turn_clean_up_of_camps():
    sp, g = set_up(C, full=False)
    camps = C.camps[6:9]
    sp[camps, L.SP_RAZED] = 1
    sp[camps[0], L.SP_CORONELA] = 1  # the Coronela that could not come back
    sp[C.camps[10], L.SP_BOURBON] = 4
    reserve_before = sp[C.reserve, L.SP_CORONELA]
    engine.clean_camps(K, sp)
    assert sp[C.camps, L.SP_RAZED].sum() == 0 and sp[C.camps, L.SP_BOURBON].sum() == 0
    assert sp[C.camps, L.SP_CORONELA].sum() == 0
    assert sp[C.reserve, L.SP_CORONELA] == reserve_before + 1  # camps are outside Barcelona


@pytest.mark.parametrize("full, seats, dealt, rounds", [(False, 2, 5, 4), (False, 3, 4, 3),
                                                         (False, 4, 3, 2), (True, 2, 7, 6),
                                                         (True, 3, 5, 4), (True, 4, 4, 3)])
def test_cards_dealt_and_rounds_per_stage_follow_the_table(full, seats, dealt, rounds):
    rules = Rules(level="full" if full else "first_game", players=seats)
    p = rules_vector(rules)
    assert (p[L.P_CARDS], p[L.P_ROUNDS]) == (dealt, rounds)
    assert (dealt - rounds) * 3 == 3  # three cards left for Stage IV


def test_the_solo_game_is_dealt_as_two_players_and_the_table_can_be_overridden():
    assert Rules(players=1).deal() == (7, 6) and Rules(players=1).seats == 2
    assert Rules(cards_per_stage=9, rounds_per_stage=7).deal() == (9, 7)
    with pytest.raises(simkit.RulesError, match="rounds_per_stage"):
        Rules(cards_per_stage=5, rounds_per_stage=5)
    with pytest.raises(simkit.RulesError, match="solo"):
        Rules(level="first_game", players=1)


def test_a_surviving_game_plays_every_turn_and_stage_iv():
    rules = GAME.presets["full"].rules
    frame = simkit.simulate(GAME, 60, seed=5, rules=rules)
    survived = frame[frame["end_reason"] == "survived"]
    assert len(survived) > 0
    assert (survived["turns"] == 37).all() and (survived["stage_reached"] == 4).all()
    assert (survived["cards_played"] == 37).all()
    assert (frame["winner"] == "players").sum() == len(survived)


def test_the_longest_deal_counts_every_card_played():
    # 4 players dealt 12 cards for 11 rounds a stage play up to 133 cards, which an int8
    # column once wrapped to -123
    frame = simkit.simulate(GAME, 40, seed=1, rules=dict(players=4, cards_per_stage=12,
                                                          rounds_per_stage=11))
    assert frame["cards_played"].max() > 127
    assert (frame["cards_played"] == frame["turns"]).all()


@pytest.mark.parametrize("level, knob, value, allowed", [
    ("full", "reserve_infantry", 3, "0..2"), ("full", "reserve_coronela", 4, "0..3")])
def test_the_reserve_holds_only_pieces_the_box_has_left(level, knob, value, allowed):
    # the First Game's Reserve of 3 infantry fits the 13 printed; the Full Game's
    # set-up already places 11 (bastions and the Expedition), so it leaves 2
    assert (start(Rules(level="first_game", reserve_infantry=3))[0][:, L.SP_INFANTRY].sum()
            == 13)
    with pytest.raises(simkit.RulesError, match=rf"{knob} = {value}: .*Reserve can take "
                                                rf"{allowed}"):
        simkit.simulate(GAME, 2, rules={"level": level, knob: value})


def test_change_a_card_swaps_one_card_in_every_hand():
    rules = Rules(players=3)
    sp, g = start(rules)
    rng = streams(1, 1)
    p = rules_vector(rules)
    engine.build_piles(CARDS, p, g, rng)
    engine.deal(CARDS, p, g, 0, 5)
    before = [set(g[L.G_HAND + s * L.HAND_SIZE:L.G_HAND + (s + 1) * L.HAND_SIZE]) - {0}
              for s in range(3)]
    g[L.G_SEAT_AP] = 5
    assert policies.change_a_card(K, CARDS, p, W, g, rng, no_log())
    assert g[L.G_SEAT_AP] == 5 - 3  # general cost
    for seat in range(3):
        after = set(g[L.G_HAND + seat * L.HAND_SIZE:L.G_HAND + (seat + 1) * L.HAND_SIZE]) - {0}
        assert hand_count(g, seat) == 5 and len(after - before[seat]) == 1
    g[L.G_STAGE] = L.STAGE_IV
    assert not policies.change_a_card(K, CARDS, p, W, g, rng, no_log())  # not in Stage IV


def test_simulate_is_deterministic_whatever_the_chunking():
    a = simkit.simulate(GAME, 40, seed=3, rules="first_game")
    b = simkit.simulate(GAME, 40, seed=3, rules="first_game", chunk_size=7)
    pd.testing.assert_frame_equal(a, b)
    c = simkit.simulate(GAME, 40, seed=4, rules="first_game")
    assert not a.drop(columns="seed").equals(c.drop(columns="seed"))


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.sampled_from(["first_game", "full", "competitive"]),
       players_=st.integers(1, 4), policy=st.sampled_from([0, 1, 2]),
       half_a_bomb=st.booleans(), dice_order=st.sampled_from(["free", "sequential", "partial"]))
def test_whole_games_keep_every_invariant(seed, level, players_, policy, half_a_bomb,
                                          dice_order):
    if level == "first_game" and players_ == 1:
        players_ = 2
    rules = Rules(level=level, players=players_, given_half_a_bomb=half_a_bomb,
                  dice_order=dice_order, coronela_threshold=3 if level == "first_game" else 5)
    sp, g = start(rules)
    totals = sp[:, PIECES].sum(axis=0)
    p, w = rules_vector(rules), weights(policy)
    reason = engine.play_game(K, DICE, CARDS, p, w, sp, g, streams(seed, 0), no_log())
    assert reason in (L.END_SURVIVED, L.END_CORONELA, L.END_BEACH, L.END_RUBBLE,
                      L.END_VICTORY_POINTS)
    assert 1 <= g[L.G_SENSE_FURY] <= 9 and (g[L.G_VP:L.G_VP + 4] >= 0).all()
    if not rules.competitive:
        assert g[L.G_SENSE_FURY] == 5 and (g[L.G_VP:L.G_VP + 4] == 0).all()
    if reason == L.END_VICTORY_POINTS:
        assert g[L.G_VP:L.G_VP + 4].sum() < rules.victory_level
    if not rules.solo:
        assert g[L.G_CANCELLED] == 0
    assert (sp >= 0).all()
    assert (sp[:, PIECES].sum(axis=0) == totals).all()  # pieces move, never vanish
    assert (g[L.G_DISC:L.G_DISC + 3] < C.track_value.shape[0]).all()
    assert g[L.G_DISC + L.DISC_BATTERIES] >= C.batteries_minimum
    assert ((g[L.G_TRENCH:L.G_TRENCH + 6] >= 0) & (g[L.G_TRENCH:L.G_TRENCH + 6] <= 3)).all()
    for m in range(L.N_MARKERS):
        assert 0 <= g[L.G_MARKER + m] < C.marker_len[m]
    rubble = int((sp[:, L.SP_RUBBLE] > 0).sum()) + g[L.G_RUBBLE_ON_MARKERS]
    if reason == L.END_RUBBLE:
        assert rubble >= rules.rubble_threshold
    elif reason == L.END_SURVIVED:
        assert rubble < rules.rubble_threshold
        assert g[L.G_STAGE] == L.STAGE_IV


@pytest.mark.parametrize("rules, policy", [("full", "greedy"), ("full", "random"),
                                           ("full", "fortify"), ("solo", "greedy"),
                                           ("competitive", "greedy"), ("mode2", "greedy")])
def test_games_free_every_array_they_allocate(rules, policy):
    """A ``borrowing`` function that took a callee's new array would leak it."""
    from numba.core.runtime import _nrt_python, rtsys

    GAME.simulate(rules, policy, np.arange(2), 1)  # compiled before counting
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        GAME.simulate(rules, policy, np.arange(30), 1)  # result dropped: freed
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    assert after.mi_alloc - before.mi_alloc > 30  # the counting sees the games
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free


def test_trace_replays_the_simulated_game():
    frame = simkit.simulate(GAME, 6, seed=2, rules="first_game")
    for i in (0, 5):
        lines = GAME.trace("first_game", None, i, 2)
        assert lines[0].startswith("Victus") and lines[-1].startswith("Result:")
        reason = frame.loc[i, "end_reason"]
        assert ("Barcelona holds" in lines[-2]) == (reason == "survived")
        assert lines[-1] == GAME.result_line(frame.loc[i, "winner"], reason,
                                             frame.loc[i, "turns"])
        assert any("die:" in line for line in lines) and any("Stage I" in x for x in lines)


def greedy_gain_over(policy, n=300):
    """greedy's win rate minus ``policy``'s on the same Full Games (paired interval)."""
    wins = {name: (simkit.simulate(GAME, n, seed=11, rules="full", policy=name)["winner"]
                   == "players").to_numpy() for name in ("greedy", policy)}
    return simkit.stats.paired_difference(wins["greedy"], wins[policy]).difference


def test_greedy_clearly_beats_random():
    assert greedy_gain_over("random").low > 0.2


def test_greedy_beats_the_naive_greedy():
    """The strong greedy (effect-aware cards, every useful AP, sorties, the dice order
    tried on copies) against the session-4 greedy kept as ``naive``, on the same games."""
    assert greedy_gain_over("naive").low > 0.05


def test_rules_knobs_reach_the_engine():
    loose = simkit.simulate(GAME, 150, seed=8, rules={"rubble_threshold": 33,
                                                      "coronela_threshold": 1})
    strict = simkit.simulate(GAME, 150, seed=8, rules={"rubble_threshold": 8})
    assert (loose["end_reason"] == "rubble").sum() == 0
    assert (strict["end_reason"] == "rubble").sum() > (loose["end_reason"] == "rubble").sum()
    assert (strict["rubble_tiles"][strict["end_reason"] == "rubble"] >= 8).all()


def test_victus_is_listed_with_its_knobs(capsys):
    from simkit.cli import main

    assert main(["games", "victus"]) == 0
    out = capsys.readouterr().out
    for knob in ("level", "players", "coronela_threshold", "rubble_threshold"):
        assert knob in out
    assert "reconstruction" in out and "first_game" in out
    assert np.all([name in out for name in ("greedy", "random", "fortify", "naive")])
