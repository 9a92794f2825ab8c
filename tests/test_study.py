"""The whole question in one command (simkit.study): every step within the budget, one
report that opens on the answer, and a rerun that resumes."""

import json

import pytest

from simkit.cli import main
from simkit.errors import UsageError
from simkit.study import study

ASSAULT = "setembre1714-assault"


def test_a_study_answers_every_step_and_resumes(tmp_path, capsys):
    assert main(["study", ASSAULT, "--target", "0.3", "--budget", "10", "--out",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("As played") and "s CPU (this process), budget 10 s" in out
    text = (tmp_path / "study.md").read_text()
    first = text.split("## ")[1]
    assert first.startswith("The answer") and "As played" in first
    assert "under the best play found" in first and "Near the design" in first
    assert "To reach 30.0%" in first
    assert (tmp_path / "study.html").stat().st_size > 0
    kept = json.loads((tmp_path / "study.json").read_text())
    assert kept["question"]["target"] == 0.3
    assert set(kept["seconds"]) == {"robustness", "screen", "best play", "target"}
    said = []
    again = study(ASSAULT, target=0.3, budget=10, out=tmp_path, say=said.append)
    assert said == [f"{step}: kept from an earlier run" for step in kept["seconds"]]
    assert again.best_play == kept["best_play"]
    with pytest.raises(UsageError, match="holds a study of another question"):
        study(ASSAULT, target=0.4, budget=10, out=tmp_path)


def test_bad_studies_are_one_line(tmp_path, capsys):
    for argv, words in [(["--target", "1.5"], "--target is a win rate"),
                        (["--budget", "0"], "--budget must be a positive")]:
        assert main(["study", ASSAULT, "--out", str(tmp_path / "x"), *argv]) == 2
        assert words in capsys.readouterr().err
