"""Tests for simkit.report on small real runs: every section, embedded figures, and the
numbers equal what simkit.load and simkit.stats give for the results folders."""

import re

import numpy as np
import pytest

import simkit
from simkit import stats
from simkit.cli import main
from simkit.experiment import cell_folders
from simkit.report import SECTIONS, collect, curves, sensitivity, write_report

GAME = "setembre1714-assault"
N = 2000

EXPERIMENT = f"""\
[experiment]
name = "report_test"
game = "{GAME}"
preset = "example_first_assault"
games = {N}
seed = 7

[[sweep]]
kind = "one_at_a_time"
knobs = {{ terrain = ["open", "urban"], salvo_units = [0, 2, 4, 6] }}

[[sweep]]
kind = "policies"
policies = [{{ catalans = "withdraw" }}, {{ catalans = "cautious" }}]
"""
LABELS = ["base", "terrain=open", "terrain=urban", "salvo_units=0", "salvo_units=2",
          "salvo_units=6", "policy catalans=withdraw", "policy catalans=cautious"]


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    (root / "exp.toml").write_text(EXPERIMENT)
    simkit.sweep(root / "exp.toml", root / "out")
    report = write_report(root / "out")
    return root / "out", report


@pytest.fixture(scope="module")
def frames(experiment):
    out, _ = experiment
    return {cell["label"]: simkit.load(folder) for cell, folder in cell_folders(out)[1]}


def bourbons(frame):
    return (frame["winner"] == "bourbons").to_numpy()


def test_report_files_sections_and_embedded_figures(experiment):
    out, report = experiment
    assert report.markdown == out / "report.md" and report.html == out / "report.html"
    html = report.html.read_text()
    md = report.markdown.read_text()
    for heading in SECTIONS:
        assert f"<h2>{heading}</h2>" in html and f"\n## {heading}\n" in md
    names = sorted(f.name for f in report.figures)
    assert names == ["curve_salvo_units.png", "differences.png", "end_reasons.png",
                     "game_length.png", "tornado.png", "win_rates.png"]
    for figure in report.figures:
        assert figure.parent == out and figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({figure.name})" in md
    sources = re.findall(r'<img [^>]*src="([^"]*)"', html)
    assert len(sources) == len(report.figures)
    assert all(s.startswith("data:image/png;base64,") for s in sources)  # self-contained


def test_win_rates_in_the_report_match_simkit_load(experiment, frames):
    _, report = experiment
    html, md = report.html.read_text(), report.markdown.read_text()
    assert list(frames) == LABELS
    for label, frame in frames.items():
        wins = int(bourbons(frame).sum())
        ci = stats.wilson(wins, len(frame))
        cells = [label, f"{len(frame):,}", f"{wins / len(frame):.2%}",
                 f"[{ci.low:.2%}, {ci.high:.2%}]"]
        assert "| " + " | ".join(cells) + " |" in md
        assert re.search(r"\s*".join(f"<td>{re.escape(c)}</td>" for c in cells), html)


def test_paired_differences_match_stats_on_loaded_games(experiment, frames):
    out, report = experiment
    data = collect(out)
    base = frames["base"]
    p_values = []
    for label in LABELS[1:]:
        frame = frames[label]
        assert (frame["game_index"] == base["game_index"]).all()
        expected = stats.paired_difference(bourbons(frame), bourbons(base))
        row = data.differences.set_index("cell").loc[label]
        d = expected.difference
        assert (row["difference"], row["low"], row["high"], row["p_value"]) == (
            d.estimate, d.low, d.high, expected.p_value)
        p_values.append(expected.p_value)
        assert f"<td>{d.estimate * 100:+.2f}</td>" in report.html.read_text()
    adjusted, reject = stats.holm(p_values)
    np.testing.assert_array_equal(data.differences["p_holm"], adjusted)
    np.testing.assert_array_equal(data.differences["significant"], reject)
    # policy cautious withdraws only when outmatched: never here, so no discordant pair
    assert data.differences.set_index("cell").loc["policy catalans=cautious",
                                                  "difference"] == 0


def test_findings_name_the_largest_effect_with_its_interval(experiment, frames):
    _, report = experiment
    d = stats.paired_difference(bourbons(frames["policy catalans=withdraw"]),
                                bourbons(frames["base"])).difference
    assert d.estimate > 0.5  # withdrawing always gives the zone up: the largest effect
    sentence = (f"Switching to policy catalans=withdraw raises the bourbons' win rate by "
                f"{d.estimate * 100:.1f} points (95% CI {d.low * 100:.1f} to "
                f"{d.high * 100:.1f}) against the base.")
    base_rate = bourbons(frames["base"]).mean()
    assert report.findings.startswith(f"In the base cell, the bourbons win {base_rate:.2%} "
                                      f"of {N:,} games")
    assert sentence in report.findings
    assert report.findings.index(sentence) < report.findings.index("Setting terrain=open")
    assert report.findings in report.html.read_text().replace("&#x27;", "'")


def test_sensitivity_and_curve_come_from_the_cells(experiment, frames):
    out, _ = experiment
    data = collect(out)
    diffs = data.differences.set_index("cell")["difference"]
    tornado = sensitivity(data).set_index("knob")
    # salvo_units=4 is the base (an alias of it): its difference is 0
    salvo = [diffs["salvo_units=0"], diffs["salvo_units=2"], 0.0, diffs["salvo_units=6"]]
    assert (tornado.loc["salvo_units", "low"], tornado.loc["salvo_units", "high"]) == (
        min(salvo), max(salvo))
    assert tornado.loc["salvo_units", "cells"] == 4
    assert tornado.index[0] == "policy"  # the widest range first
    curve = curves(data)
    assert list(curve) == ["salvo_units"]  # terrain is not numeric
    points = curve["salvo_units"]
    assert list(points["value"]) == [0, 2, 4, 6]
    for value, cell in zip([0, 2, 4, 6], ["salvo_units=0", "salvo_units=2", "base",
                                           "salvo_units=6"], strict=True):
        wins = int(bourbons(frames[cell]).sum())
        ci = stats.wilson(wins, N)
        row = points.set_index("value").loc[value]
        assert (row["rate"], row["low"], row["high"]) == (ci.estimate, ci.low, ci.high)
    assert np.all(np.diff(points["rate"]) > 0)  # more salvo fire, more assaults won


def test_side_balance_is_one_minus_the_gap(experiment, frames):
    out, report = experiment
    md = report.markdown.read_text()
    for label, frame in frames.items():
        p1 = bourbons(frame).mean()
        p2 = (frame["winner"] == "catalans").mean()
        assert (f"| {label} | {1 - abs(p1 - p2):.3f} | {p1 + p2:.3f} | "
                f"{frame['turns'].mean():.2f} |") in md


def test_report_of_a_single_results_folder(tmp_path):
    run = tmp_path / "run"
    frame = simkit.simulate(GAME, 1500, seed=3, rules={"terrain": "urban"}, out=run)
    report = write_report(run, out=tmp_path / "report")
    html = report.html.read_text()
    for heading in SECTIONS:
        assert f"<h2>{heading}</h2>" in html
    assert "only one cell" in html
    rate = (frame["winner"] == "bourbons").mean()
    assert report.findings.startswith(f"In the base cell, the bourbons win {rate:.2%} of "
                                      "1,500 games")
    assert "terrain=urban" in report.markdown.read_text()  # the rules it ran
    assert sorted(f.name for f in report.figures) == ["end_reasons.png", "game_length.png",
                                                      "win_rates.png"]


def test_cli_report(experiment, capsys, tmp_path):
    out, _ = experiment
    assert main(["report", str(out), "--out", str(tmp_path / "r")]) == 0
    text = " ".join(capsys.readouterr().out.split())  # the paragraph is wrapped
    assert "report.html and 6 figure(s)" in text and "Switching to policy" in text
    assert (tmp_path / "r" / "report.html").exists()
    code = main(["report", str(tmp_path / "nothing")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "neither an experiment folder" in err[0]


def test_report_of_an_unfinished_experiment_says_so(tmp_path, capsys):
    from simkit.experiment import load_experiment, prepare_folder

    (tmp_path / "exp.toml").write_text(EXPERIMENT)
    prepare_folder(tmp_path / "out", load_experiment(tmp_path / "exp.toml"))  # nothing run
    code = main(["report", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "has no results yet; run the experiment (simkit sweep)" in err[0]
