"""The game between the players (simkit.balance): the matrix game's solution, its
bootstrap interval, and the double oracle on the assault scenario, whose Catalans' best
answer is known."""

import numpy as np
import pytest

from simkit.balance import balance, balance_seated, scripted_population, solve, value_interval
from simkit.errors import UsageError

ASSAULT = "setembre1714-assault"
#: the Bourbon commander adjacent in an ochre street: the default cautious Catalans
#: withdraw from an attack of 10 against 9 and give the zone up; standing is their best
STREET = {"terrain": "open", "defender_commander": False, "salvo_units": 0,
          "attacker_commander": True}


@pytest.mark.parametrize("matrix, x, y, value", [
    ([[1, 0], [0, 1]], [0.5, 0.5], [0.5, 0.5], 0.5),  # matching pennies
    ([[0.5, 0, 1], [1, 0.5, 0], [0, 1, 0.5]], [1 / 3] * 3, [1 / 3] * 3, 0.5),  # RPS
    ([[0.7, 0.6], [0.4, 0.3]], [1, 0], [0, 1], 0.6),  # a saddle point
    ([[0.9, 0.2], [0.3, 0.6]], [0.3 / 1.0, 0.7], [0.4, 0.6], 0.48),
])
def test_the_linear_program_solves_known_matrix_games(matrix, x, y, value):
    got_x, got_y, got_value = solve(np.array(matrix))
    assert got_value == pytest.approx(value, abs=1e-9)
    assert got_x == pytest.approx(x, abs=1e-9) and got_y == pytest.approx(y, abs=1e-9)


def test_the_bootstrap_interval_covers_a_noisy_game_s_value():
    """A 2x2 game with a known mixed equilibrium (value 0.48), each cell's payoff drawn
    as wins on 4,000 games: the interval holds the true value in most of 10 draws and
    its width matches the noise."""
    truth = np.array([[0.9, 0.2], [0.3, 0.6]])
    covered, widths = 0, []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        wins = rng.random((2, 2, 4000)) < truth[:, :, None]
        interval = value_interval(wins.astype(float), resamples=100, seed=seed)
        covered += interval.low <= 0.48 <= interval.high
        widths.append(interval.high - interval.low)
    assert covered >= 7
    assert 0.01 < np.mean(widths) < 0.06


def test_the_double_oracle_finds_the_catalans_stand(tmp_path):
    """Under STREET the Catalans' withdrawing scripts give the zone away (88%) and
    standing holds it half the time: the equilibrium puts the Catalans on standing, the
    value is the rate against it, and no best response beats the mixture."""
    from simkit import games

    result = balance(ASSAULT, rules=STREET, rounds=1, n_games=1500, trials=4, restarts=1,
                     tune_games=400, seed=2, out=tmp_path)
    assert list(result.table.columns[:3]) == scripted_population(games.get(ASSAULT),
                                                                 "catalans")
    row = result.table.loc["assault"]
    assert row["withdraw"] > 0.8 and row["cautious"] > 0.8 and row["stand"] < 0.6
    assert result.mixtures["catalans"]["stand"] == 1.0
    assert result.value == pytest.approx(row["stand"])
    assert result.low <= result.value <= result.high and result.high - result.low < 0.08
    assert len(result.rounds) == 1 and set(result.rounds[0].responses) == {"bourbons",
                                                                           "catalans"}
    assert result.converged
    text = result.text()
    assert "under the best play found (equilibrium of" in text and "round 1:" in text
    again = balance(ASSAULT, rules=STREET, rounds=1, n_games=1500, trials=4, restarts=1,
                    tune_games=400, seed=2, out=tmp_path)  # read back
    assert again.value == result.value and again.table.equals(result.table)
    with pytest.raises(UsageError, match="balance of another question"):
        balance(ASSAULT, rounds=1, n_games=1500, seed=2, out=tmp_path)


def test_balance_refuses_what_it_cannot_play():
    with pytest.raises(UsageError, match="not a two-sided game"):
        balance("victus")
    with pytest.raises(UsageError, match="--games 2 or more"):
        balance(ASSAULT, n_games=1)
    for call in (lambda: balance(ASSAULT, rounds=0), lambda: balance_seated("verrix", rounds=0)):
        with pytest.raises(UsageError, match="--rounds 1 or more .* simkit robustness"):
            call()


def test_the_command_prints_the_table_and_the_headline(capsys, tmp_path):
    from simkit.cli import main

    argv = ["balance", ASSAULT, "--rounds", "1", "--games", "600", "--trials", "3",
            "--restarts", "1", "--tune-games", "200", "--out", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "bourbons win rate, 600 games per pairing" in out
    assert "Bourbons" in out and "under the best play found" in out
    assert (tmp_path / "balance.png").stat().st_size > 0
    assert main(["balance", ASSAULT, "--policy", "catalans=stand"]) == 2
    assert "takes no --policy" in capsys.readouterr().err


def test_a_finished_balance_is_read_back_and_joins_the_robustness_table(capsys, tmp_path):
    from simkit.balance import read
    from simkit.cli import main

    result = balance(ASSAULT, rounds=1, n_games=400, trials=2, restarts=1, tune_games=100,
                     seed=3, out=tmp_path)
    kept = read(tmp_path)
    assert kept.value == result.value and kept.table.equals(result.table)
    assert kept.headline() == result.headline()
    assert main(["robustness", ASSAULT, "--games", "200", "--slow-games", "10",
                 "--balance", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"bourbons {100 * result.value:.0f}% [" in out
    assert "under the best play found (equilibrium of 1x3 policies, 400 games" in out
    assert main(["robustness", ASSAULT, "--preset", "open_ground", "--balance",
                 str(tmp_path)]) == 2
    assert "holds the balance of other rules" in capsys.readouterr().err
    assert main(["robustness", ASSAULT, "--balance", str(tmp_path / "none")]) == 2
    assert "holds no finished balance" in capsys.readouterr().err


def test_the_report_gives_the_headline_under_the_best_play_found(capsys, tmp_path):
    from simkit.cli import main

    balance(ASSAULT, rounds=1, n_games=300, trials=2, restarts=1, tune_games=100, seed=3,
            out=tmp_path / "balance")
    assert main(["run", ASSAULT, "--games", "300", "--out", str(tmp_path / "run"),
                 "--no-progress"]) == 0
    assert main(["report", str(tmp_path / "run"), "--balance", str(tmp_path / "balance")]) == 0
    text = (tmp_path / "run" / "report.md").read_text()
    assert "Under the best play found (`simkit balance`): bourbons" in text
    capsys.readouterr()
