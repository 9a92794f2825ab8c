"""Tests for simkit.report on small real runs: every section, embedded figures, and the
numbers equal what simkit.load and simkit.stats give for the results folders."""

import json
import re
from html import unescape

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit import stats
from simkit.analysis import RESTS_ON_GAMES, collect, curves, ladder, sensitivity
from simkit.cli import main
from simkit.experiment import cell_folders
from simkit.report import SECTIONS, write_report
from simkit.store import manifest_checksum

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


def squeeze(markdown: str) -> str:
    """The Markdown with tabulate's column padding collapsed to one space."""
    return re.sub(r" {2,}", " ", markdown)


def h2s(html: str) -> list[str]:
    return re.findall(r"<h2>(.*?)</h2>", html)


def bourbons(frame):
    return (frame["winner"] == "bourbons").to_numpy()


def test_report_files_sections_and_embedded_figures(experiment):
    out, report = experiment
    assert report.markdown == out / "report.md" and report.html == out / "report.html"
    html = report.html.read_text()
    md = report.markdown.read_text()
    headings = h2s(html)
    assert headings[0] == "Key findings"  # the report opens on the answer
    assert headings == [h for h in SECTIONS if h in headings]  # in order, nothing unknown
    for heading in ["Win rates", "Differences from the base", "Sensitivity",
                    "Difficulty ladder", "Planning", "Cells"]:
        assert heading in headings and f"\n## {heading}\n" in md
    assert "Grids" not in headings and "Seat balance" not in headings  # none here
    assert "Not applicable" not in html and "Not applicable" not in md
    names = sorted(f.name for f in report.figures)
    assert names == ["curve_salvo_units.png", "differences.png", "end_reasons.png",
                     "game_length.png", "ladder.png", "policy_differences.png",
                     "rests_on.png", "survival.png", "tornado.png", "win_rates.png"]
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
        assert "| " + " | ".join(cells) + " |" in squeeze(md)
        assert re.search(r"\s*".join(f"<td>{re.escape(c)}</td>" for c in cells), html)


def test_paired_differences_match_stats_on_loaded_games(experiment, frames):
    out, report = experiment
    data = collect(out)
    base = frames["base"]
    p_values, expected = [], []
    for label in LABELS[1:]:
        frame = frames[label]
        assert (frame["game_index"] == base["game_index"]).all()
        expected.append(stats.paired_difference(bourbons(frame), bourbons(base)))
        p_values.append(expected[-1].p_value)
    adjusted, reject = stats.holm(p_values)
    levels = stats.holm_confidences(p_values)
    table = data.differences.set_index("cell")
    for label, cmp, level, rejected in zip(LABELS[1:], expected, levels, reject, strict=True):
        row = table.loc[label]
        assert (row["gained"], row["lost"], row["p_value"]) == (cmp.a_only, cmp.b_only,
                                                                cmp.p_value)
        # the interval shown is the exact paired interval at the Holm-consistent level
        d = stats.paired_difference(bourbons(frames[label]), bourbons(base), level).difference
        assert row["confidence"] == level
        assert (row["difference"], row["low"], row["high"]) == pytest.approx(
            (d.estimate, d.low, d.high), abs=1e-12)
        assert (row["low"] > 0 or row["high"] < 0) == rejected == row["significant"]
        assert f"<td>{d.estimate * 100:+.2f}</td>" in report.html.read_text()
    np.testing.assert_array_equal(data.differences["p_holm"], adjusted)
    # policy cautious withdraws only when outmatched: never here, so no game changed
    cautious = table.loc["policy catalans=cautious"]
    assert cautious["difference"] == 0 and cautious["no_game_changed"]
    assert not table.loc["terrain=open", "no_game_changed"]
    assert "changed no game" in report.markdown.read_text()


def test_findings_name_the_largest_effect_with_its_interval(experiment, frames):
    _, report = experiment
    row = collect(experiment[0]).differences.set_index("cell").loc["policy catalans=withdraw"]
    d = stats.paired_difference(bourbons(frames["policy catalans=withdraw"]),
                                bourbons(frames["base"]), row["confidence"]).difference
    assert d.estimate > 0.5  # withdrawing always gives the zone up: the largest effect
    sentence = (f"Switching to policy catalans=withdraw raises the bourbons' win rate by "
                f"{d.estimate * 100:.1f} points (Holm-adjusted {row['confidence']:.2%} "
                f"interval {d.low * 100:.1f} to {d.high * 100:.1f}) against the base.")
    base_rate = bourbons(frames["base"]).mean()
    assert report.findings.startswith(f"In the base cell, the bourbons win {base_rate:.2%} "
                                      f"of {N:,} games")
    # the rules first (their settings nearest the base first), the players apart after
    said = "Of the policy cells (the scripted players, not the rules): s" + sentence[1:]
    assert report.findings.index("Setting terrain=open") < report.findings.index(said)
    import html

    assert report.findings in html.unescape(report.html.read_text())


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
    md = squeeze(report.markdown.read_text())
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
    # one run: nothing to compare, so no comparison section and no "Not applicable"
    assert h2s(html) == ["Key findings", "What this rests on", "Win rates", "End reasons",
                         "Game length", "Survival", "Outcome means", "Side balance",
                         "Cells"]
    assert "Not applicable" not in html and "only one cell" not in html
    rate = (frame["winner"] == "bourbons").mean()
    assert report.findings.startswith(f"In the base cell, the bourbons win {rate:.2%} of "
                                      "1,500 games")
    assert "terrain=urban" in report.markdown.read_text()  # the rules it ran
    assert sorted(f.name for f in report.figures) == ["end_reasons.png", "game_length.png",
                                                      "rests_on.png", "survival.png",
                                                      "win_rates.png"]


def test_cli_report(experiment, capsys, tmp_path):
    out, _ = experiment
    assert main(["report", str(out), "--out", str(tmp_path / "r")]) == 0
    text = " ".join(capsys.readouterr().out.split())  # the paragraph is wrapped
    assert "report.html and 10 figure(s)" in text and "switching to policy" in text
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


def test_report_of_an_experiment_file_says_to_sweep_it_first(tmp_path, capsys):
    """Issue 45, item 7: ``report exp.toml`` said "File exists"; it names the file and
    the sweep to run, and writes nothing."""
    (tmp_path / "exp.toml").write_text(EXPERIMENT)
    code = main(["report", str(tmp_path / "exp.toml")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert (f"{tmp_path / 'exp.toml'} is a file, not a results or experiment folder; run "
            f"it first (simkit sweep {tmp_path / 'exp.toml'} --out DIR)") in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exp.toml"]


# -- the difficulty ladder -----------------------------------------------------------------
def test_ladder_orders_every_cell_by_the_summary_win_rate(experiment, frames):
    out, _ = experiment
    data = collect(out)
    table = ladder(out)
    summary = data.summary.set_index("cell")
    assert sorted(table["cell"]) == sorted(LABELS) and list(table["rung"]) == list(
        range(1, len(LABELS) + 1))
    rates = table["rate"].to_numpy()
    assert np.all(np.diff(rates) <= 0) and rates[0] > rates[-1]  # highest first
    for row in table.itertuples():
        wins = int(bourbons(frames[row.cell]).sum())
        ci = stats.wilson(wins, N)
        assert (row.rate, row.low, row.high, row.games) == (ci.estimate, ci.low, ci.high, N)
        assert row.rate == summary.loc[row.cell, "winner_bourbons"]
    # ties keep the experiment's order: cautious never withdraws here, so it equals base
    order = list(table["cell"])
    assert order.index("base") + 1 == order.index("policy catalans=cautious")
    base = table.set_index("cell").loc["base"]
    assert base["also"] == "salvo_units=4" and base["vs_base"] == 0.0
    diffs = data.differences.set_index("cell")
    for row in table[table["cell"] != "base"].itertuples():
        assert (row.vs_base, row.vs_base_low, row.vs_base_high) == tuple(
            diffs.loc[row.cell, ["difference", "low", "high"]])


def test_ladder_gaps_and_tiers_come_from_all_pairs_with_holm(experiment, frames):
    out, _ = experiment
    table = ladder(out)
    labels = list(table["cell"])
    pairs = [(i, j) for i in range(len(labels)) for j in range(i + 1, len(labels))]
    p_values = [stats.paired_difference(bourbons(frames[labels[i]]),
                                        bourbons(frames[labels[j]])).p_value
                for i, j in pairs]
    adjusted, reject = stats.holm(p_values)
    levels = stats.holm_confidences(p_values)
    result = {pair: (p, a, r, c) for pair, p, a, r, c in
              zip(pairs, p_values, adjusted, reject, levels, strict=True)}
    for i, row in enumerate(table.iloc[:-1].itertuples()):
        p, a, r, level = result[(i, i + 1)]
        d = stats.paired_difference(bourbons(frames[labels[i]]),
                                    bourbons(frames[labels[i + 1]]), level).difference
        assert (row.gap, row.gap_low, row.gap_high) == pytest.approx(
            (d.estimate, d.low, d.high), abs=1e-12)
        assert (row.gap_p_value, row.gap_p_holm, row.separated) == (p, a, r)
        assert row.gap >= 0
    # cells sharing a tier letter are never separated; each pair that shares none is
    for (i, j), (_, _, r, _) in result.items():
        shared = set(table["tier"].iloc[i]) & set(table["tier"].iloc[j])
        if shared:
            assert not r
    last = table.iloc[-1]
    assert np.isnan(last["gap"]) and np.isnan(last["gap_p_holm"]) and pd.isna(last["separated"])
    # base and cautious play identical games: their gap is 0 and not separated
    row = table.set_index("cell").loc["base"]
    assert row["gap"] == 0 and row["gap_p_value"] == 1.0 and not row["separated"]
    # withdrawing hands the zone over: far above the rest, clearly separated, its own tier
    assert table.iloc[0]["cell"] == "policy catalans=withdraw" and table.iloc[0]["separated"]
    assert table.iloc[0]["tier"] == "a" and "a" not in "".join(table["tier"].iloc[1:])


def test_ladder_in_the_report(experiment):
    out, report = experiment
    md = squeeze(report.markdown.read_text())
    section = md.split("## Difficulty ladder\n")[1].split("\n## ")[0]
    table = ladder(out)
    rows = [line for line in section.splitlines() if line.startswith("| ") and
            line[2].isdigit()]
    assert len(rows) == len(table)
    for line, row in zip(rows, table.itertuples(), strict=True):
        label = f"{row.cell} (= {row.also})" if row.also else row.cell
        assert line.startswith(f"| {row.rung} | {row.tier} | {label} | {N:,} | "
                               f"{row.rate:.2%} | "
                               f"[{row.low:.2%}, {row.high:.2%}] | {row.vs_base * 100:+.2f} |")
    assert "![ladder](ladder.png)" in section


def test_ladder_of_one_cell_and_for_the_other_side(tmp_path, experiment):
    run = tmp_path / "run"
    frame = simkit.simulate(GAME, 500, seed=3, out=run)
    table = ladder(run)
    assert list(table["cell"]) == ["base"] and np.isnan(table.iloc[0]["gap"])
    assert table.iloc[0]["rate"] == (frame["winner"] == "bourbons").mean()
    out, _ = experiment
    catalans = ladder(out, side="catalans")
    bourbon_order = list(ladder(out)["cell"])
    assert catalans.iloc[0]["cell"] == bourbon_order[-1]  # two sides: the ladder turns over
    assert catalans.iloc[-1]["cell"] == "policy catalans=withdraw"
    with pytest.raises(simkit.UsageError, match="unknown side 'french'.*bourbons, catalans"):
        ladder(out, side="french")


def test_cli_ladder(experiment, capsys):
    out, _ = experiment
    assert main(["ladder", str(out)]) == 0
    text = capsys.readouterr().out
    table = ladder(out)
    lines = text.splitlines()
    assert lines[0] == (f"difficulty ladder of report_test ({GAME}): {len(LABELS)} cells by "
                        "bourbons win rate, highest first")
    for line, row in zip(lines[2:], table.itertuples(), strict=False):
        assert re.match(rf"\s*{row.rung}\s+{re.escape(row.cell)}\b.*\s{N:,}\s+"
                        rf"{row.rate:.2%}\s+\[{row.low:.2%}, {row.high:.2%}\]", line)
    not_separated = int((table["separated"] == False).sum())  # noqa: E712
    assert f"{not_separated} gap(s) not significant at 5%" in lines[-1]
    assert "not separated" in text  # base and cautious are the same games
    for argv, message in [(["ladder", str(out), "--side", "french"], "unknown side 'french'"),
                          (["ladder", str(out / "nothing")], "neither an experiment folder")]:
        code = main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0]


# -- unfinished and large sweeps ---------------------------------------------------------
def test_a_cell_short_of_its_games_is_reported_as_unfinished(experiment, tmp_path):
    import shutil

    out, _ = experiment
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    _, cells = cell_folders(copy)
    cell, folder = cells[3]
    last = sorted(folder.glob("part-*.parquet"))[-1]
    # a sweep killed before its last part was written: the manifest does not list it
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["parts"] = [p for p in manifest["parts"] if p["file"] != last.name]
    manifest.pop("runs")
    manifest["checksum"] = manifest_checksum(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    last.unlink()
    report = write_report(copy)
    held = int(last.name.split("-")[1])
    note = (f"Unfinished: {cell['label']} ({held:,} of {N:,}) games; the numbers use the "
            "games held")
    assert note in report.markdown.read_text()
    from simkit.cli import ladder_summary
    data = collect(copy)
    assert note in ladder_summary(data, ladder(data))  # the ladder says so too


def test_a_large_sweep_draws_its_extreme_cells_and_compares_adjacent_rungs(
        experiment, monkeypatch):
    import simkit.report as report

    out, _ = experiment
    data = report.collect(out)
    monkeypatch.setattr(report, "FIGURE_CELLS", 5)
    shown = report.shown_cells(data)
    rates = data.summary.set_index("cell")["winner_bourbons"]
    ranked = rates.sort_values(ascending=False, kind="stable").index.tolist()
    assert len(shown) == 5 and shown[0] == "base"
    assert set(ranked[:2]) <= set(shown) and set(ranked[-2:]) <= set(shown)
    fig = report.win_rate_figure(data)
    assert len(fig.axes[0].get_yticks()) == 5
    left_out = [c for c in data.summary["cell"] if c not in shown]
    assert fig.simkit_note.startswith("5 of 8 cells drawn")  # said, not silent
    assert all(c in fig.simkit_note for c in left_out)
    html = report._html_block(("win_rates", fig), {"win_rates": b""})
    assert fig.simkit_note in html.replace("&#x27;", "'")
    monkeypatch.setattr(report, "MAX_PAIRWISE", 3)
    table = report.ladder(data)
    assert len(table) == 8 and table["gap"].iloc[:-1].notna().all()
    assert "only adjacent rungs are compared" in " ".join(
        b for h, blocks in report.sections(data) if h == "Difficulty ladder"
        for b in blocks if isinstance(b, str))


# -- the structure of the new report -------------------------------------------------------
def report_module():
    import simkit.report as report

    return report


def test_the_first_screen_gives_the_answer_and_the_contents_resolve(experiment):
    out, report = experiment
    html = report.html.read_text()
    first = html.split("<h2>Key findings</h2>")[1].split("<h2>")[0]
    assert "Question:" in first
    assert "near the base" in first and "extremes" in first  # the per-knob headline table
    assert 'alt="tornado"' in first and "Robustness" in first
    assert "simkit robustness setembre1714-assault" in first
    # the robustness figures say which games they come from, beside the cell's own rate
    data = collect(out)
    base_rate = data.summary.iloc[0]["winner_bourbons"]
    assert data.summary.iloc[0]["games"] == N > RESTS_ON_GAMES
    said = unescape(first)
    assert f"the base cell's first {RESTS_ON_GAMES} games replayed" in said
    assert f"on all {N:,} of the cell's {100 * base_rate:.2f}%" in said
    # wide tables wrap instead of widening the page
    assert "overflow-wrap: anywhere" in html and "max-width: 100%" in html
    # the contents: every link resolves to a section, every section is linked
    links = re.findall(r"<nav>.*?</nav>", html, re.S)[0]
    anchors = re.findall(r'href="#([^"]+)"', links)
    ids = re.findall(r'<section id="([^"]+)">', html)
    assert anchors == ids and len(ids) == len(h2s(html))
    md = report.markdown.read_text()
    assert all(f'<a id="{a}"></a>' in md and f"(#{a})" in md for a in anchors)
    # the policy cells are apart from the rule cells and do not set their figures' scale
    rule = report_module().difference_figure(data)
    ticks = [t.get_text() for t in rule.axes[0].get_yticklabels()]
    assert not any(t.startswith("policy") for t in ticks) and len(ticks) == 5
    assert "policy" not in [t.get_text() for t in report_module().tornado_figure(
        data).axes[0].get_yticklabels()]
    # the ladder names the test the code computes
    assert "asymptotic McNemar" in html and "exact McNemar" not in html


def test_long_tables_collapse_and_keep_their_headline(experiment, monkeypatch):
    report = report_module()
    out, _ = experiment
    monkeypatch.setattr(report, "LONG_TABLE", 4)
    data = collect(out)
    table = report.Table(report.win_rate_table(data), report._headline_cells(data), "kept")
    assert table.collapsed
    html = report._html_block(table, {})
    md = report._md_block(table, {})
    assert html.count("<details>") == 1 and "All 8 rows" in html
    assert "| base" in md and f"{len(table.head_rows)} of 8 rows: kept" in md
    assert len(re.findall(r"^\| ", md, re.M)) == len(table.head_rows) + 1  # + the header


def test_the_complement_column_is_dropped(experiment):
    out, report = experiment
    data = collect(out)
    s = data.summary
    assert np.allclose(s["winner_bourbons"] + s["winner_catalans"], 1)
    assert "catalans win" not in report_module().win_rate_table(data).columns
    assert "'catalans win' is left out" in report.markdown.read_text()


def test_heatmap_text_is_readable_and_shows_intervals():
    from matplotlib.colors import to_rgb

    report = report_module()
    table = pd.DataFrame([[0.1, 0.9], [0.5, 0.3]], index=pd.Index([1, 2], name="a"),
                         columns=pd.Index(["x", "y"], name="b"))
    intervals = [[(8.0, 12.0), (88.0, 92.0)], [(48.0, 52.0), (28.0, 32.0)]]
    data = type("D", (), {"side": "players"})()
    fig = report.heatmap_figure(data, {"knobs": ["a", "b"]}, table, intervals)
    ax = fig.axes[0]
    image = ax.images[0]
    for text in ax.texts:
        value = float(text.get_text().split("\n")[0])
        r, g, b, _ = image.cmap(image.norm(value))
        background = 0.2126 * r + 0.7152 * g + 0.0722 * b
        foreground = sum(w * c for w, c in zip((0.2126, 0.7152, 0.0722),
                                               to_rgb(text.get_color()), strict=True))
        assert abs(background - foreground) > 0.4  # black on light, white on dark
        assert "[" in text.get_text()


def test_seats_are_named_as_the_game_seats_them(experiment):
    report = report_module()
    out, _ = experiment
    data = collect(out)

    class Named:  # a game that names its seats (seat 1 first)
        def __init__(self, game):
            self.Rules = game.Rules

        def seat_names(self, rules):
            return ["Villarroel", "Casanova"]

    name = report._seat_namer(data)
    assert name("base", "seat1") == "seat1"  # the assault game names none
    data.game = Named(data.game)
    name = report._seat_namer(data)
    assert name("base", "seat1") == "Villarroel (seat1)"
    assert name("base", "seat2") == "Casanova (seat2)"
    assert name("base", "seat3") == "seat3"  # beyond the seats it names
