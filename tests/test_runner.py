"""Tests for simkit.runner: parallel determinism, input resolution, the stopping rule, errors."""

import math
import re

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit import RulesError, UsageError
from simkit.runner import RunInfo, TimedChunks

GAME = "setembre1714-assault"
Z95 = 1.959963984540054
# every end reason occurs: cleared by fire, withdrew, taken, repulsed, breach_closed
RULES = {"guns_adjacent": 2, "guns_at_range_2": 1, "defender_units": 3, "terrain": "urban",
         "attacker_commander": True}
POLICY = {"catalans": "cautious"}
N = 3000


def wilson_half_width(k: int, n: int) -> float:
    """The larger distance from k/n to a limit of its 95% Wilson interval (closed form)."""
    centre = (k + Z95**2 / 2) / (n + Z95**2)
    half = Z95 / (n + Z95**2) * math.sqrt(k * (n - k) / n + Z95**2 / 4)
    return max(k / n - (centre - half), centre + half - k / n)


def worst_half_width(frame: pd.DataFrame) -> float:
    n = len(frame)
    return max(wilson_half_width(int(k), n) for col in ("winner", "end_reason")
               for k in frame[col].value_counts().values)


@pytest.fixture(scope="module")
def baseline():
    """3000 varied games played serially in one chunk."""
    frame = simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY, chunk_size=N)
    assert frame["game_index"].tolist() == list(range(N))
    assert (frame["seed"] == np.uint64(11)).all()
    assert frame["end_reason"].nunique() == 5  # a varied run: the comparisons can fail
    return frame


@pytest.fixture(scope="module")
def standard():
    """4000 games under the standard rules and default policies."""
    return simkit.simulate(GAME, 4000, seed=2)


# -- the same rows whatever the workers, chunks and backend ---------------------------------
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("chunk_size", [None, 997, 5000])
def test_rows_independent_of_jobs_and_chunks(baseline, n_jobs, chunk_size):
    frame = simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY, n_jobs=n_jobs,
                            chunk_size=chunk_size)
    pd.testing.assert_frame_equal(frame, baseline)


def test_worker_processes_give_the_rows_of_threads(baseline):
    frame = simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY, n_jobs=2,
                            chunk_size=2500, backend="loky")
    pd.testing.assert_frame_equal(frame, baseline)


def test_a_run_keeping_no_rows_counts_every_categorical_column_and_turns(baseline):
    info = RunInfo()
    assert simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY, n_jobs=2,
                           chunk_size=997, keep_rows=False, info=info) is None
    assert info.n_games == N and info.games_played == N
    for column in ("winner", "end_reason", "turns"):
        expected = baseline[column].value_counts().to_dict()
        assert info.counts[column] == expected


def test_chunks_are_generated_as_they_are_consumed():
    chunks = iter(TimedChunks([(0, 10**15)], 100_000, fixed=True))
    assert next(chunks) == (0, 100_000) and next(chunks) == (100_000, 200_000)


def test_more_games_than_the_index_holds_is_refused():
    with pytest.raises(UsageError, match="at most 9,223,372,036,854,775,807 games"):
        simkit.simulate(GAME, 2**63, seed=1)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_chunks_of_one_game(baseline, n_jobs):
    frame = simkit.simulate(GAME, 50, seed=11, rules=RULES, policy=POLICY, n_jobs=n_jobs,
                            chunk_size=1)
    pd.testing.assert_frame_equal(frame, baseline.iloc[:50])


def test_other_seed_gives_other_rows(baseline):
    other = simkit.simulate(GAME, N, seed=12, rules=RULES, policy=POLICY)
    assert not other.drop(columns="seed").equals(baseline.drop(columns="seed"))
    assert (other["attack_roll"] != baseline["attack_roll"]).sum() > N // 2


@pytest.fixture(scope="module")
def dask_client():
    """Two in-process workers, so chunks may finish out of order (worker processes are
    played through by test_faults's TLS cluster; each would start its own interpreter
    and load the engine, about 4 s of CPU)."""
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def _no_global_dask_client() -> bool:
    from distributed import get_client

    try:
        get_client()
    except ValueError:
        return True
    return False


def test_dask_without_a_client_is_a_usage_error():
    pytest.importorskip("dask.distributed")
    if not _no_global_dask_client():
        pytest.skip("another test left a default dask client")
    with pytest.raises(UsageError, match="needs a running dask.distributed Client"):
        simkit.simulate(GAME, 10, backend="dask")


@pytest.mark.parametrize("chunk_size", [None, 997])
def test_dask_backend_gives_the_same_rows(baseline, dask_client, chunk_size):
    with dask_client.as_current():  # the current client, as after `Client(...)`
        frame = simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY, backend="dask",
                                chunk_size=chunk_size)
        explicit = simkit.simulate(GAME, N, seed=11, rules=RULES, policy=POLICY,
                                   backend="dask", chunk_size=chunk_size, client=dask_client)
    pd.testing.assert_frame_equal(frame, baseline)
    pd.testing.assert_frame_equal(explicit, baseline)


def test_dask_backend_with_an_explicit_non_default_client(baseline, dask_client):
    # regression: as_completed(futures) looked up a default client and raised ValueError
    if not _no_global_dask_client():
        pytest.skip("another test left a default dask client")
    frame = simkit.simulate(GAME, 500, seed=11, rules=RULES, policy=POLICY, backend="dask",
                            chunk_size=250, client=dask_client)
    pd.testing.assert_frame_equal(frame, baseline.iloc[:500])


# -- rules and policy resolution ---------------------------------------------------------
def test_standard_rules_values(standard):
    assaulted = standard[standard["breach_turn"] > 0]
    assert len(assaulted) > 3000
    assert (assaulted["attack_value"] == 9).all()  # lead 5 + 4 more units
    # lead 5 + barricade 3 + (defenders - 1) + commander 1
    assert (assaulted["defence_value"] == 8 + assaulted["defenders_assaulted"]).all()
    assert not standard["withdrew"].any()
    closed = standard[standard["breach_turn"] == 0]
    assert (closed["end_reason"] == "breach_closed").all()
    assert (closed["turns"] == 12).all()


def test_preset_dict_and_rules_object_agree(standard):
    preset = simkit.simulate(GAME, 4000, seed=2, rules="open_ground")
    overrides = {"salvo_units": 0, "terrain": "open", "defender_commander": False}
    as_dict = simkit.simulate(GAME, 4000, seed=2, rules=overrides)
    game = simkit.games.get(GAME)
    as_object = simkit.simulate(GAME, 4000, seed=2, rules=game.Rules(**overrides))
    pd.testing.assert_frame_equal(as_dict, preset)
    pd.testing.assert_frame_equal(as_object, preset)
    assaulted = preset[preset["breach_turn"] > 0]
    assert (assaulted["defence_value"] == 9).all()  # 5 + open 0 + 4 more units
    assert (assaulted["defenders_assaulted"] == 5).all()
    assert (preset["salvo_kills"] == 0).all()
    assert not preset["defender_commander_lost"].any()
    assert standard["defender_commander_lost"].any()
    # the rules change the outcome, the breach checks stay the same (common random numbers)
    assert not preset["winner"].equals(standard["winner"])
    assert preset["breach_turn"].equals(standard["breach_turn"])


def test_dict_overrides_apply(standard):
    first_turn = simkit.simulate(GAME, 4000, seed=2, rules={"breach_roll": 1})
    assert (first_turn["breach_turn"] == 1).all()
    assert (first_turn["turns"] == 1).all()
    assert (standard["breach_turn"] != 1).sum() > 2000
    short = simkit.simulate(GAME, 4000, seed=2, rules={"max_turns": 1})
    assert set(short["breach_turn"]) == {0, 1}
    # game i rolls the same first die: the breach on turn 1 happens in the same games
    assert ((short["breach_turn"] == 1) == (standard["breach_turn"] == 1)).all()


def test_withdraw_policy_ends_every_assault_in_withdrawal(standard):
    frame = simkit.simulate(GAME, 4000, seed=2, policy={"catalans": "withdraw"})
    assaulted = frame["breach_turn"] > 0
    assert assaulted.sum() > 3000
    assert (frame.loc[assaulted, "end_reason"] == "withdrew").all()
    assert (frame.loc[assaulted, "winner"] == "bourbons").all()
    assert frame.loc[assaulted, "withdrew"].all()
    assert not frame["defender_lead_lost"].any()
    assert (frame.loc[assaulted, "defence_value"]
            == 10 + frame.loc[assaulted, "defenders_assaulted"]).all()  # +2 withdrawal
    assert (frame.loc[~assaulted, "end_reason"] == "breach_closed").all()
    assert frame["breach_turn"].equals(standard["breach_turn"])
    assert (standard.loc[assaulted, "end_reason"] != "withdrew").all()


def test_explicit_default_policies_equal_none(standard):
    for policy in ({"bourbons": "assault"}, {"catalans": "stand"},
                   {"bourbons": "assault", "catalans": "stand"}):
        pd.testing.assert_frame_equal(simkit.simulate(GAME, 4000, seed=2, policy=policy),
                                      standard)


def test_cautious_policy_withdraws_only_when_outmatched():
    rules = {"attacker_units": 10, "salvo_units": 0}  # attack 14 against defence 13
    frame = simkit.simulate(GAME, 2000, seed=2, rules=rules, policy={"catalans": "cautious"})
    assaulted = frame["breach_turn"] > 0
    assert (frame.loc[assaulted, "end_reason"] == "withdrew").all()
    even = simkit.simulate(GAME, 2000, seed=2, rules="open_ground",  # 9 against 9
                           policy={"catalans": "cautious"})
    assert not even["withdrew"].any()


# -- stopping rule -----------------------------------------------------------------------
def test_until_ci_stops_at_target_half_width():
    info = RunInfo()
    frame = simkit.simulate(GAME, 1000, seed=5, until_ci=0.01, info=info)
    assert info.n_games > 1000
    assert len(frame) == info.n_games == info.games_played
    assert worst_half_width(frame) <= 0.01
    assert info.worst_half_width == pytest.approx(worst_half_width(frame), rel=1e-9)
    assert worst_half_width(frame.iloc[:1000]) > 0.01  # the first batch was not enough
    pd.testing.assert_frame_equal(frame, simkit.simulate(GAME, info.n_games, seed=5))
    assert info.counts["winner"] == frame["winner"].value_counts().to_dict()
    assert info.counts["end_reason"] == frame["end_reason"].value_counts().to_dict()


def test_until_ci_already_met_plays_only_the_first_batch():
    info = RunInfo()
    frame = simkit.simulate(GAME, 20_000, seed=5, until_ci=0.05, info=info)
    assert info.n_games == len(frame) == 20_000
    assert info.worst_half_width <= 0.05


def test_max_games_caps_until_ci():
    info = RunInfo()
    frame = simkit.simulate(GAME, 1000, seed=5, until_ci=0.002, max_games=4000, info=info)
    assert info.n_games == len(frame) == 4000
    assert info.worst_half_width > 0.002
    pd.testing.assert_frame_equal(frame, simkit.simulate(GAME, 4000, seed=5))


def test_until_ci_default_cap_is_100_batches():
    info = RunInfo()
    frame = simkit.simulate(GAME, 10, seed=5, until_ci=0.001, info=info)
    assert info.n_games == len(frame) == 1000
    assert frame["game_index"].tolist() == list(range(1000))


def test_until_ci_with_a_fuller_results_folder(tmp_path):
    # regression: the stored games past n_games were counted, so until_ci stopped on games
    # it did not return and RunInfo.counts described other games
    out = tmp_path / "run"
    simkit.simulate(GAME, 20_000, seed=5, out=out)
    info = RunInfo()
    frame = simkit.simulate(GAME, 1000, seed=5, out=out, until_ci=0.02, info=info)
    assert len(frame) == info.n_games
    assert sum(info.counts["winner"].values()) == len(frame)
    assert worst_half_width(frame) <= 0.02
    assert info.worst_half_width == pytest.approx(worst_half_width(frame), rel=1e-9)
    assert 1000 < info.n_games <= 20_000  # 1000 games were not enough
    assert info.games_played == 0  # every game needed was already stored
    pd.testing.assert_frame_equal(frame, simkit.simulate(GAME, info.n_games, seed=5))


# -- bad input ---------------------------------------------------------------------------
BAD_INPUT = [
    pytest.param({"game": "chess"}, UsageError, ["'chess'", GAME], id="unknown-game"),
    pytest.param({"rules": {"breach_rol": 6}}, RulesError, ["'breach_rol'", "breach_roll"],
                 id="unknown-rule"),
    pytest.param({"rules": {"breach_roll": 7}}, RulesError, ["'breach_roll'", "7", "1..6"],
                 id="rule-out-of-range"),
    pytest.param({"rules": {"defender_units": 0}}, RulesError, ["'defender_units'", "1..5"],
                 id="rule-below-range"),
    pytest.param({"rules": {"breach_roll": "6"}}, RulesError, ["'breach_roll'", "int"],
                 id="rule-wrong-type-str"),
    pytest.param({"rules": {"breach_roll": 5.0}}, RulesError, ["'breach_roll'", "int"],
                 id="rule-wrong-type-float"),
    pytest.param({"rules": {"max_turns": True}}, RulesError, ["'max_turns'", "int"],
                 id="rule-wrong-type-bool"),
    pytest.param({"rules": {"defender_commander": 1}}, RulesError,
                 ["'defender_commander'", "bool"], id="rule-wrong-type-int-for-bool"),
    pytest.param({"rules": {"terrain": "swamp"}}, RulesError, ["'terrain'", "'swamp'",
                                                                "barricade"], id="bad-choice"),
    pytest.param({"rules": {"attacker_units": 6, "salvo_units": 6}}, RulesError,
                 ["attacker_units=6", "salvo_units=6"], id="cross-knob"),
    pytest.param({"rules": "nightmare"}, RulesError, ["'nightmare'", "open_ground"],
                 id="unknown-preset"),
    pytest.param({"rules": 3}, RulesError, ["rules must be"], id="rules-wrong-type"),
    pytest.param({"policy": {"catalans": "flee"}}, UsageError,
                 ["'flee'", "'catalans'", "stand, withdraw, cautious"], id="unknown-policy"),
    pytest.param({"policy": "withdraw"}, UsageError, ["'withdraw'", "'bourbons'"],
                 id="policy-unknown-for-one-side"),
    pytest.param({"policy": {"austrians": "stand"}}, UsageError,
                 ["'austrians'", "bourbons, catalans"], id="unknown-side"),
    pytest.param({"policy": 3}, UsageError, ["policy must be"], id="policy-wrong-type"),
    pytest.param({"n_games": 0}, UsageError, ["n_games", "0"], id="zero-games"),
    pytest.param({"n_games": -5}, UsageError, ["n_games", "-5"], id="negative-games"),
    pytest.param({"n_games": 2.5}, UsageError, ["n_games", "2.5"], id="float-games"),
    pytest.param({"backend": "spark"}, UsageError, ["'spark'", "loky, dask"], id="bad-backend"),
    pytest.param({"seed": -1}, UsageError, ["seed", "-1", "0..18446744073709551615"],
                 id="negative-seed"),
    pytest.param({"seed": 2**64}, UsageError, ["seed", "18446744073709551616"],
                 id="seed-too-large"),
    pytest.param({"seed": 1.5}, UsageError, ["seed", "1.5"], id="float-seed"),
    pytest.param({"seed": True}, UsageError, ["seed", "True"], id="bool-seed"),
    pytest.param({"n_jobs": 0}, UsageError, ["n_jobs", "0"], id="zero-jobs"),
    pytest.param({"chunk_size": 0}, UsageError, ["chunk_size", "0"], id="zero-chunk"),
    pytest.param({"until_ci": 0.5}, UsageError, ["until_ci", "0.5"], id="until-ci-range"),
    pytest.param({"until_ci": 0.01, "max_games": 10}, UsageError, ["max_games", "10"],
                 id="max-games-below-n"),
]


@pytest.mark.parametrize("kwargs, error, words", BAD_INPUT)
def test_bad_input_raises_naming_the_problem(tmp_path, kwargs, error, words):
    kwargs = {"game": GAME, "n_games": 100, **kwargs}
    out = tmp_path / "never"
    with pytest.raises(error) as excinfo:
        simkit.simulate(kwargs.pop("game"), kwargs.pop("n_games"), out=out, **kwargs)
    message = str(excinfo.value)
    for word in words:
        assert word in message, (word, message)
    assert "\n" not in message
    assert not out.exists()  # rejected before anything was written


def test_errors_are_simkit_and_value_errors():
    with pytest.raises(simkit.SimkitError):
        simkit.simulate(GAME, 10, rules={"nope": 1})
    with pytest.raises(ValueError, match=re.escape("unknown game 'x'")):
        simkit.simulate("x", 10)


def test_bool_n_games_is_rejected():
    # regression: True was accepted and played one game
    with pytest.raises(UsageError, match="n_games"):
        simkit.simulate(GAME, True)


def test_more_workers_than_cores_are_capped_and_said(capsys):
    from simkit.runner import local_workers, usable_cores

    cores = usable_cores()
    assert local_workers(-1) == cores
    assert local_workers(1) == 1
    assert local_workers(cores + 998) == cores
    assert f"{cores + 998} workers asked, {cores} usable core(s): using {cores}" in \
        capsys.readouterr().err


def test_a_worker_with_an_edited_engine_is_refused():
    # a worker process started after the engine's sources were edited would play the
    # edited engine for the rest of the run: play_chunk refuses it before playing
    from simkit.runner import engine_version, play_chunk

    game = simkit.games.get("setembre1714-assault")
    other = "0" * len(engine_version())
    with pytest.raises(UsageError, match="sources changed during the run"):
        play_chunk(game.name, game.resolve_rules(None), game.resolve_policy(None), 0, 0, 1,
                   False, None, other)
