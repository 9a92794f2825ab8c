"""simkit.analysis on a small real competitive Victus experiment: every outcome column,
driven by the game's declaration, checked against simkit.load and scipy by hand."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import simkit
from simkit import analysis, games, stats
from simkit.analysis import Frames, collect
from simkit.cli import main
from simkit.experiment import cell_folders
from simkit.report import write_report

N = 600

EXPERIMENT = f"""\
[experiment]
name = "competitive_test"
game = "victus"
preset = "competitive"
policy = "greedy"
games = {N}
seed = 14

[[sweep]]
kind = "policies"
policies = ["greedy:greed=0", "greedy:greed=0.5", "greedy:greed=2"]

[[sweep]]
kind = "grid"
knobs = {{ moderating_sense_fury = [false, true], victory_level = [50, 80] }}

[[sweep]]
kind = "grid"
presets = ["mode2"]
knobs = {{ players = [1, 2] }}
"""


def _game(name: str):
    """An offered game, or one still being built."""
    return games.get(name) if name in games.names() else games.get_in_progress(name)


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    root = tmp_path_factory.mktemp("analysis")
    (root / "exp.toml").write_text(EXPERIMENT)
    simkit.sweep(root / "exp.toml", root / "out")
    return root / "out"


@pytest.fixture(scope="module")
def loaded(experiment):
    _, cells = cell_folders(experiment)
    return cells, Frames(cells), {c["label"]: simkit.load(f) for c, f in cells}


def test_per_seat_columns_come_from_the_declarations():
    victus = games.get("victus")
    assert analysis.seat_columns(victus) == {"vp": {f"seat{s}": f"vp_seat{s}"
                                                    for s in range(1, 5)}}
    assert analysis.seat_winner_columns(victus) == ["fame_winner"]
    kitn = _game("king_in_the_north")
    groups = analysis.seat_columns(kitn)
    assert groups["vp"] == {"carlists": "carlist_vp", "liberals": "liberal_vp"}
    assert groups["blocks_lost"] == {"carlists": "carlists_blocks_lost",
                                     "liberals": "liberals_blocks_lost"}
    verrix = _game("verrix")
    assert "winner_seat" in analysis.seat_winner_columns(verrix)
    assert len(analysis.seat_columns(verrix)["vp"]) >= 2
    assert analysis.seat_columns(games.get("setembre1714-assault")) == {}


def test_competitive_seat_balance_matches_load(loaded):
    cells, frames, by_label = loaded
    wins, measures = analysis.seat_balance(games.get("victus"), frames)
    base = by_label["base"]
    counts = base["fame_winner"].value_counts()
    rows = wins[(wins["cell"] == "base")].set_index("seat")
    assert list(rows.index) == ["seat1", "seat2"]  # two seats at the table
    for seat in ("seat1", "seat2"):
        ci = stats.wilson(int(counts[seat]), N)
        assert (rows.loc[seat, "share"], rows.loc[seat, "low"]) == (ci.estimate, ci.low)
    shares = [counts["seat1"] / N, counts["seat2"] / N]
    assert rows["balance"].iloc[0] == pytest.approx(1 - abs(shares[0] - shares[1]))
    seat2 = measures[(measures["cell"] == "base") & (measures["seat"] == "seat2")].iloc[0]
    expected = sps.ttest_rel(base["vp_seat2"], base["vp_seat1"])
    assert seat2["mean"] == pytest.approx((base["vp_seat2"] - base["vp_seat1"]).mean())
    assert seat2["p_value"] == pytest.approx(expected.pvalue, rel=1e-9)
    assert seat2["seat_mean"] == pytest.approx(base["vp_seat2"].mean())
    # excludes zero exactly when Holm says significant
    tested = measures[measures["p_value"].notna()]
    assert ((tested["low"] > 0) | (tested["high"] < 0)).tolist() == tested["significant"].tolist()
    # seats 3 and 4 are not at a 2-player table; the solo Mode 2 cell has Casanova as seat 2
    assert not measures["seat"].isin(["seat3", "seat4"]).any()


def test_end_reason_shifts_are_paired_exact_tests(loaded):
    _, frames, by_label = loaded
    shifts = analysis.end_reason_shifts(games.get("victus"), frames)
    base = by_label["base"]
    row = shifts[(shifts["cell"] == "mode2: players=1") & (shifts["reason"] == "rubble")].iloc[0]
    a = (by_label["mode2: players=1"]["end_reason"] == "rubble").to_numpy()
    b = (base["end_reason"] == "rubble").to_numpy()
    assert (row["gained"], row["lost"]) == (np.sum(a & ~b), np.sum(~a & b))
    assert row["difference"] == pytest.approx(a.mean() - b.mean())
    assert row["p_value"] == stats.mcnemar_p(row["gained"], row["lost"])
    np.testing.assert_array_equal(shifts["p_holm"], stats.holm(shifts["p_value"])[0])
    excludes = (shifts["low"] > 0) | (shifts["high"] < 0)
    assert excludes.tolist() == shifts["significant"].tolist()


def test_length_by_outcome_and_survival_match_load(loaded):
    _, frames, by_label = loaded
    game = games.get("victus")
    base = by_label["base"]
    table = analysis.length_by_outcome(game, frames).set_index(["cell", "end_reason"])
    rubble = base.loc[base["end_reason"] == "rubble", "turns"].to_numpy(dtype=float)
    row = table.loc[("base", "rubble")]
    low, high = sps.t.interval(0.95, rubble.size - 1, loc=rubble.mean(), scale=sps.sem(rubble))
    assert (row["games"], row["mean"]) == (rubble.size, pytest.approx(rubble.mean()))
    assert (row["low"], row["high"]) == pytest.approx((low, high))
    curve = analysis.survival(game, frames, "players")
    lost = base.loc[base["winner"] != "players", "turns"]
    for turn in (10, 20, 30, int(base["turns"].max())):
        assert curve.loc["base", turn] == pytest.approx(1 - (lost <= turn).sum() / N)
    assert curve.loc["base"].is_monotonic_decreasing


def test_outcome_means_and_paired_mean_differences(loaded):
    _, frames, by_label = loaded
    game = games.get("victus")
    means = analysis.outcome_means(game, frames).set_index(["cell", "column"])
    assert means.loc[("base", "rubble_tiles"), "mean"] == pytest.approx(
        by_label["base"]["rubble_tiles"].mean())
    diffs = analysis.mean_differences(game, frames).set_index(["cell", "column"])
    cell = by_label["mode2: players=1"]
    expected = sps.ttest_rel(cell["rubble_tiles"], by_label["base"]["rubble_tiles"])
    row = diffs.loc[("mode2: players=1", "rubble_tiles")]
    assert row["p_value"] == pytest.approx(expected.pvalue, rel=1e-9)
    assert ((diffs["low"] > 0) | (diffs["high"] < 0)).tolist() == diffs["significant"].tolist()


def test_grid_table_comparisons_and_interaction(loaded):
    cells, frames, by_label = loaded
    found = analysis.grids(cells)
    knobs = [g["knobs"] for g in found]
    # one preset crossed with players: the preset does not vary, players does
    assert knobs == [["moderating_sense_fury", "victory_level"], ["players"]]
    grid = found[0]
    # the plain competitive cell (false, 50) is the base, merged into the grid
    assert grid["cells"][("false", "50")] == "base"
    table = analysis.grid_table(grid, lambda label: (by_label[label]["winner"] ==
                                                     "players").mean())
    assert table.loc["true", "80"] == (by_label[grid["cells"][("true", "80")]]["winner"]
                                       == "players").mean()
    comparisons = analysis.grid_comparisons(grid, frames, "players")
    y = {key: (by_label[label]["winner"] == "players").to_numpy().astype(float)
         for key, label in grid["cells"].items()}
    contrast = (y[("true", "80")] - y[("false", "80")]) - (y[("true", "50")] - y[("false", "50")])
    row = comparisons[comparisons["comparison"].str.startswith("interaction")].iloc[0]
    assert row["difference"] == pytest.approx(contrast.mean())
    assert row["p_value"] == pytest.approx(sps.ttest_1samp(contrast, 0).pvalue, rel=1e-9)
    simple = comparisons[(comparisons["comparison"] == "moderating_sense_fury=true vs false")
                         & (comparisons["at"] == "victory_level=80")].iloc[0]
    assert simple["difference"] == pytest.approx(y[("true", "80")].mean()
                                                 - y[("false", "80")].mean())


def test_policy_weight_sweep_is_a_curve_with_the_base_at_its_weight(experiment):
    data = collect(experiment)
    summary = data.summary.set_index("cell")
    curves = analysis.policy_curves(data.game, data.cells, lambda label: (
        summary.loc[label, "winner_players"], summary.loc[label, "winner_players_low"],
        summary.loc[label, "winner_players_high"]))
    points = curves["players greedy:greed"]
    assert list(points["value"]) == [0.0, 0.5, 1.0, 2.0]  # 1.0: the default, the base
    assert points.loc[points["value"] == 1.0, "cell"].item() == "base"


def test_plan_uses_the_observed_discordance(experiment):
    data = collect(experiment)
    table = analysis.plan(data.differences, effects=(0.02,))
    row = table.set_index("cell").loc["mode2: players=1"]
    d = data.differences.set_index("cell").loc["mode2: players=1"]
    psi = (d["gained"] + d["lost"]) / d["games"]
    assert row["separate 2 points"] == stats.paired_games_to_separate(
        0.02, psi, 0.05 / len(table), 0.8)


def test_competitive_report_shows_seat_balance_grids_and_other_side(experiment, tmp_path):
    report = write_report(experiment, tmp_path / "r")
    md = report.markdown.read_text()
    seats = md.split("## Seat balance\n")[1].split("\n## ")[0]
    assert "Not applicable" not in seats and "| base | fame_winner | seat1 |" in seats
    assert "Played by: simkit version" in md  # the provenance the manifests record
    assert "engine source hash" in md
    assert "interaction: effect of moderating_sense_fury=true" in md
    names = {f.name for f in report.figures}
    assert {"grid_1.png", "grid_2.png", "survival.png",
            "policy_curve_players_greedy_greed.png"} <= names
    assert main(["report", str(experiment), "--out", str(tmp_path / "g"),
                 "--side", "game"]) == 0
    assert "the game win" in (tmp_path / "g" / "report.md").read_text()
    assert main(["plan", str(experiment), "--effect", "2"]) == 0
    assert main(["report", str(experiment), "--side", "french"]) == 2


def test_plan_command_without_a_folder(capsys):
    assert main(["plan", "--discordance", "0.1", "--effect", "2", "--margin", "1"]) == 0
    out = capsys.readouterr().out
    assert f"separate 2 points: {stats.paired_games_to_separate(0.02, 0.1):,}" in out
    assert main(["plan", "--rate", "0", "--margin", "1"]) == 0
    assert "381 games" in capsys.readouterr().out
    assert main(["plan"]) == 2
    assert "plan needs RESULTS_DIR" in capsys.readouterr().err
    assert main(["plan", "--discordance", "0.01", "--effect", "5"]) == 0
    assert "cannot be shown" in capsys.readouterr().out


def test_frames_refuse_unpaired_cells(loaded):
    _, frames, _ = loaded
    a = frames["base"]
    frames._frames["shifted"] = a.assign(game_index=a["game_index"] + 1)
    with pytest.raises(ValueError, match="same games"):
        frames.paired("shifted", "base")
    del frames._frames["shifted"]
    assert isinstance(frames["base"], pd.DataFrame)


# -- the players' skill ------------------------------------------------------------------

SKILL_GAME = "setembre1714-assault"


def test_skill_sensitivity_pairs_each_policy_with_the_reference_on_the_same_games():
    policies = ["stand", "withdraw", "cautious"]
    table = analysis.skill_sensitivity(SKILL_GAME, "catalans", policies,
                                       ["open_ground", None], 3000, seed=4,
                                       policy_games={"cautious": 1000})
    assert list(table["preset"]) == ["open_ground"] * 3 + ["standard"] * 3
    assert table.attrs["reference"] == "stand"
    for preset in ("open_ground", None):
        rows = table[table["preset"] == (preset or "standard")].set_index("policy")
        wins = {p: (simkit.simulate(SKILL_GAME, rows.loc[p, "games"], seed=4, rules=preset,
                                    policy={"catalans": p})["winner"] == "catalans").to_numpy()
                for p in policies}
        assert rows.loc["cautious", "games"] == 1000 and rows.loc["stand", "games"] == 3000
        for p in policies:
            assert rows.loc[p, "win_rate"] == pytest.approx(wins[p].mean())
        for p in ("withdraw", "cautious"):
            n = wins[p].size
            expected = stats.paired_difference(wins[p], wins["stand"][:n])
            assert rows.loc[p, "paired_games"] == n
            assert rows.loc[p, "reference_rate"] == pytest.approx(wins["stand"][:n].mean())
            assert rows.loc[p, "vs_reference"] == pytest.approx(expected.difference.estimate)
            assert rows.loc[p, "vs_low"] == pytest.approx(expected.difference.low)
            assert rows.loc[p, "p_value"] == pytest.approx(expected.p_value)
        assert pd.isna(rows.loc["stand", "vs_reference"])


def test_skill_command_prints_every_preset_and_policy(capsys):
    code = main(["skill", SKILL_GAME, "--side", "catalans", "--games", "2000", "--preset",
                 "open_ground", "--policy", "stand", "--policy", "withdraw",
                 "--policy-games", "withdraw=500"])
    out = capsys.readouterr().out
    assert code == 0
    assert "preset open_ground" in out and "vs stand (paired, 95%)" in out
    assert "on its 500 games (stand" in out and "caveat" not in out.split("preset")[0]


@pytest.mark.parametrize(("argv", "message"), [
    (["--side", "nobody"], "unknown side 'nobody'"),
    (["--side", "catalans", "--policy", "hide"], "hide"),
    (["--side", "catalans", "--preset", "nowhere"], "unknown preset 'nowhere'"),
    (["--side", "catalans", "--policy-games", "lookahead=5"], "--policy-games lookahead=5"),
])
def test_skill_command_refuses_bad_input_in_one_line(capsys, argv, message):
    code = main(["skill", SKILL_GAME, "--games", "10", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
