"""Time up front and as an input (simkit.timing): every long command says how long its
games will take before it starts, and --budget cuts them to fit, saying what it cut."""

import pytest

from simkit import games
from simkit.cli import main
from simkit.timing import FLOOR, Plan, duration, fit, speed


def test_fit_cuts_only_what_the_budget_cannot_hold():
    plan = Plan(100_000, 1_000.0)  # 100 s
    assert fit(None, plan, 2000) == (2000, None)
    assert fit(200.0, plan, 2000) == (2000, None)
    games, cut = fit(25.0, plan, 2000)
    assert games == 500 and "budget 25 s: 2,000 games a setting would take about 1.7 min" \
        in cut and cut.endswith("cut to 500")
    assert fit(0.001, plan, 2000)[0] == FLOOR
    assert [duration(s) for s in (42, 600, 7200)] == ["42 s", "10.0 min", "2.0 h"]


def test_speed_is_measured_once_per_setting():
    assault = games.get("setembre1714-assault")
    first = speed(assault)
    assert first > 1000 and speed(assault) == first


def test_long_commands_say_their_time_and_fit_a_budget(capsys):
    game = "setembre1714"
    # Victus's robustness has one look-ahead setting, the 11 de Setembre's eight (each
    # probed and played: about 40 s of look-ahead games for nothing this test reads)
    for argv, cut_words in [
            (["robustness", "victus", "--slow-games", "2", "--budget", "1"],
             "settings would take about"),
            (["screen", game, "--knobs", "turns,barricades", "--trajectories", "2",
              "--games", "4000", "--budget", "1"], "4,000 games a point would take"),
            (["tune", game, "--knobs", "turns", "--target", "0.5", "--trials", "4",
              "--budget", "1"], "2,000 training games a trial would take")]:
        assert main(argv) == 0, argv
        captured = capsys.readouterr()
        assert "games at" in captured.err and ", so about " in captured.err
        assert cut_words in captured.out + captured.err, argv


@pytest.mark.parametrize("command", [["robustness"], ["screen"], ["balance"], ["sweep"],
                                     ["tune", "--side", "bourbons"]])
def test_a_budget_must_be_a_positive_number_of_seconds(capsys, command):
    target = "experiments/setembre_assault.toml" if command == ["sweep"] else \
        "setembre1714-assault"
    assert main([command[0], target, *command[1:], "--budget", "-3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--budget must be a positive number of seconds" in err[0]
