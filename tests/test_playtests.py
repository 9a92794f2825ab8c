"""Players matched to human playtests (simkit.playtests): a log of games played by one
known player is matched to that player, and bad logs are one clear error."""

import numpy as np
import pytest

import simkit
from simkit.cli import main
from simkit.errors import UsageError
from simkit.playtests import fit_mix, match, read_log


def _log(tmp_path, policy: str, games: int = 150):
    path = tmp_path / "log.csv"
    lines = ["# simulated, for the test", "preset,set,winner"]
    for preset in ("full", "first_game"):
        frame = simkit.simulate("victus", games, seed=99, rules=preset, policy=policy)
        lines += [f"{preset},,{w}" for w in frame["winner"]]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_log_of_random_players_is_matched_to_random(tmp_path):
    table = match("victus", _log(tmp_path, "random"), n_games=400, resamples=30)
    assert table.attrs["best"] == "players=random" and table.attrs["games"] == 300
    random = table.set_index("player").loc["players=random"]
    assert random["weight"] > 0.8 and random["weight_high"] >= random["weight"]
    full = next(r for r in table.attrs["predicted"] if r["setting"] == "preset full")
    assert abs(full["mix_players"] - full["human_players"]) < 0.05


def test_the_mix_is_fitted_on_the_simplex():
    probs = np.array([[[0.9, 0.1]], [[0.1, 0.9]]])
    weights = fit_mix(probs, np.array([[50.0, 50.0]]))
    assert weights.sum() == pytest.approx(1) and weights == pytest.approx([0.5, 0.5], abs=0.01)


def test_bad_logs_are_one_clear_error(tmp_path, capsys):
    game = simkit.games.get("victus")
    bad = tmp_path / "bad.csv"
    for text, words in [("preset,winner\nfull,nobody\n", "winner 'nobody' is not one of"),
                        ("preset,who\nfull,game\n", "needs a 'winner' column"),
                        ("preset,set,winner\nfull,no_knob=1,game\n", "no_knob")]:
        bad.write_text(text)
        with pytest.raises(UsageError, match=words):
            read_log(game, bad)
    assert main(["playtests", "victus", str(tmp_path / "none.csv")]) == 2
    assert "no such file" in capsys.readouterr().err
