"""Tests for simkit.calibration: brackets checked against the exact scenario probabilities."""

import math

import pytest

import simkit
from simkit import RulesError, UsageError
from simkit.calibration import calibrate, candidates
from simkit.cli import main
from simkit.games.base import Knob
from simkit.games.setembre1714_assault.prob import scenario_outcome

GAME = "setembre1714-assault"
N = 20_000


def exact_bourbon_win(rules) -> float:
    """P(the Bourbons hold the zone at the end): taken, withdrew or cleared."""
    out = scenario_outcome(rules, "stand")
    return float(out["taken"] + out["withdrew"] + out["cleared"])


def exact_curve(knob: str, rules=None) -> dict:
    game = simkit.games.get(GAME)
    base = game.resolve_rules(rules)
    lo, hi = game.Rules.knob(knob).range
    return {v: exact_bourbon_win(base.replace({knob: v})) for v in range(lo, hi + 1)}


def crossings(curve: dict, min_gap: float = 0.04):
    """(target, lower value, upper value): targets midway between neighbours' exact rates."""
    values = sorted(curve)
    return [((curve[a] + curve[b]) / 2, a, b) for a, b in zip(values, values[1:],
                                                                strict=False)
            if abs(curve[a] - curve[b]) >= min_gap]


ATTACKER_LEAD = exact_curve("attacker_lead")
DEFENDER_UNITS = exact_curve("defender_units")


@pytest.mark.parametrize("knob, curve", [("attacker_lead", ATTACKER_LEAD),
                                         ("defender_units", DEFENDER_UNITS)])
def test_brackets_match_the_exact_threshold(knob, curve):
    cases = crossings(curve)
    assert len(cases) >= 3
    for target, a, b in cases:
        result = calibrate(GAME, knob, target, n_games=N, seed=5)
        assert result.reachable and result.certain
        low, high = result.bracket
        assert (low.value, high.value) == (a, b)
        assert min(low.rate.estimate, high.rate.estimate) < target < max(
            low.rate.estimate, high.rate.estimate)
        assert len(result.evaluations) <= math.ceil(math.log2(len(curve))) + 2
        for e in result.evaluations:  # each rate agrees with the exact probability
            se = math.sqrt(curve[e.value] * (1 - curve[e.value]) / N) + 1e-4
            assert abs(e.rate.estimate - curve[e.value]) < 5 * se
            assert e.rate.low <= e.rate.estimate <= e.rate.high and e.games == N


def test_rates_are_simulate_on_common_random_numbers():
    result = calibrate(GAME, "attacker_lead", 0.3, n_games=3000, seed=9)
    for e in result.evaluations:
        frame = simkit.simulate(GAME, 3000, seed=9, rules={"attacker_lead": e.value})
        assert e.rate.estimate == (frame["winner"] == "bourbons").mean()


def test_side_and_base_rules():
    # the Catalans' rate falls as the attacker's lead grows: the bracket is the same pair
    target = (ATTACKER_LEAD[6] + ATTACKER_LEAD[7]) / 2
    result = calibrate(GAME, "attacker_lead", 1 - target, side="catalans", n_games=N)
    assert [e.value for e in result.bracket] == [6, 7]
    assert result.bracket[0].rate.estimate > 1 - target > result.bracket[1].rate.estimate
    # on open ground without preparatory fire, 50% falls between leads 5 and 6
    open_ground = exact_curve("attacker_lead", "open_ground")
    assert open_ground[5] < 0.5 < open_ground[6]
    result = calibrate(GAME, "attacker_lead", 0.5, rules="open_ground", n_games=N)
    assert [e.value for e in result.bracket] == [5, 6]


def test_unreachable_target_is_reported():
    assert max(ATTACKER_LEAD.values()) < 0.6
    result = calibrate(GAME, "attacker_lead", 0.6, n_games=N)
    assert not result.reachable and not result.certain and result.bracket is None
    assert sorted(e.value for e in result.evaluations) == [1, 9]  # only the ends played
    assert result.describe().startswith("the target 60.00% is not reachable for "
                                        "attacker_lead in 1..9")


def test_values_the_rules_forbid_are_skipped():
    result = calibrate(GAME, "attacker_units", 0.05, rules={"salvo_units": 6}, n_games=N)
    assert result.values == (1, 2, 3, 4, 5) and result.excluded == (6, 7, 8, 9, 10)
    assert [e.value for e in result.bracket] == [4, 5]


def test_until_ci_plays_each_value_to_the_wanted_precision():
    result = calibrate(GAME, "defender_units", 0.3, n_games=1000, until_ci=0.01)
    assert all(e.games > 1000 for e in result.evaluations)
    assert [e.value for e in result.bracket] == [2, 3]


def test_candidates_for_int_float_and_explicit_values():
    assert candidates(Knob("k", int, 3, "", (2, 5), None)) == [2, 3, 4, 5]
    grid = candidates(Knob("x", float, 0.5, "", (0.0, 1.0), None), steps=5)
    assert grid == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert candidates(Knob("k", int, 3, "", (0, 9), None), values=[7, 2, 2]) == [2, 7]
    with pytest.raises(RulesError, match="out of range"):
        candidates(Knob("k", int, 3, "k", (0, 9), None), values=[10, 2])
    with pytest.raises(UsageError, match="numeric knob with a range"):
        candidates(Knob("flag", bool, False, "", None, None))


def test_simkit_calibrate_is_the_public_function():
    assert simkit.calibrate is calibrate
    result = simkit.calibrate(GAME, "defender_units", 0.3, n_games=2000)
    assert result.knob == "defender_units" and result.side == "bourbons"


@pytest.mark.parametrize("kwargs, message", [
    ({"knob": "terrain"}, "numeric knob with a range; 'terrain' is str"),
    ({"knob": "defender_commander"}, "'defender_commander' is bool"),
    ({"knob": "nope"}, "unknown rule 'nope'"),
    ({"knob": "attacker_lead", "target": 1.5}, "strictly between 0 and 1"),
    ({"knob": "attacker_lead", "side": "french"}, "unknown side 'french'"),
    ({"knob": "attacker_lead", "rules": "nope"}, "unknown preset 'nope'"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises((UsageError, RulesError), match=message):
        calibrate(GAME, **{"n_games": 100, **kwargs})


def test_cli_calibrate(capsys):
    target = (DEFENDER_UNITS[3] + DEFENDER_UNITS[4]) / 2
    code = main(["calibrate", GAME, "--knob", "defender_units", "--target", f"{target:.4f}",
                 "--games", "20000", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"calibrating defender_units (1..5) for the bourbons to win {target:.2%}" in out
    assert "bracket: defender_units=3 gives" in out and "and defender_units=4 gives" in out
    code = main(["calibrate", GAME, "--knob", "terrain"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "numeric knob" in err[0]
    assert main(["calibrate", GAME]) == 2  # --knob is required
    assert "--knob" in capsys.readouterr().err


def test_calibrate_on_dask_gives_the_loky_result(dask_cluster):
    _, client = dask_cluster
    loky = calibrate(GAME, "defender_units", 0.3, n_games=2000, seed=4)
    dask = calibrate(GAME, "defender_units", 0.3, n_games=2000, seed=4, backend="dask",
                     client=client)
    assert dask == loky and dask.reachable
    with pytest.raises(UsageError, match="unknown backend 'spark'"):
        calibrate(GAME, "defender_units", 0.3, n_games=100, backend="spark")


def test_cli_calibrate_on_a_dask_scheduler(dask_cluster, capsys):
    cluster, _ = dask_cluster
    args = ["calibrate", GAME, "--knob", "defender_units", "--target", "0.3", "--games",
            "2000", "--seed", "4"]
    assert main(args) == 0
    loky = capsys.readouterr().out
    assert main([*args, "--backend", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == loky
    for extra, message in [(["--scheduler", cluster.scheduler_address],
                            "--scheduler needs --backend dask"),
                           (["--backend", "spark"], "invalid choice: 'spark'")]:
        code = main([*args, *extra])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0]
