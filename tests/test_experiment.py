"""Tests for simkit.experiment: experiment files -> cells, validation errors, sweep, resume."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit import ExperimentError, StoreError, stats
from simkit.cli import main
from simkit.experiment import (
    SweepInfo,
    cell_folders,
    load_experiment,
    parse_experiment,
    summarize,
)

GAME = "setembre1714-assault"

EXAMPLE = f"""\
[experiment]
name = "assault_terrain"
game = "{GAME}"
preset = "example_first_assault"
rules = {{ max_turns = 20 }}
policy = {{ catalans = "stand" }}
games = 2000
seed = 1

[[sweep]]
kind = "one_at_a_time"
knobs = {{ terrain = ["open", "urban"], salvo_units = [0, 4, 6] }}

[[sweep]]
kind = "grid"
knobs = {{ defender_units = [4, 5], santa_eulalia_flag = [false, true] }}

[[sweep]]
kind = "presets"
presets = ["open_ground"]

[[sweep]]
kind = "policies"
policies = [{{ catalans = "withdraw" }}, {{ catalans = "stand" }}]
"""

EXPECTED_LABELS = [
    "base", "terrain=open", "terrain=urban", "salvo_units=0", "salvo_units=6",
    "du=4 sef=false", "du=4 sef=true",  # grid labels over 32 characters: short names
    "du=5 sef=true", "preset open_ground",
    "policy catalans=withdraw",
]


@pytest.fixture
def example(tmp_path):
    path = tmp_path / "assault.toml"
    path.write_text(EXAMPLE)
    return path


# -- parsing ---------------------------------------------------------------------------------
def test_example_parses_into_cells(example):
    experiment = load_experiment(example)
    assert experiment.name == "assault_terrain" and experiment.game == GAME
    assert (experiment.games, experiment.seed, experiment.until_ci) == (2000, 1, None)
    assert experiment.policy == {"bourbons": "assault", "catalans": "stand"}
    assert [c.label for c in experiment.cells] == EXPECTED_LABELS
    base = experiment.cells[0]
    game = simkit.games.get(GAME)
    assert base.rules == game.resolve_rules("example_first_assault").replace(max_turns=20)
    by_label = {c.label: c for c in experiment.cells}
    # one knob changes, the rest is the base
    assert by_label["terrain=open"].rules == base.rules.replace(terrain="open")
    assert (by_label["terrain=open"].knob, by_label["terrain=open"].value) == ("terrain", "open")
    grid = by_label["du=4 sef=true"]
    assert grid.description == "defender_units=4, santa_eulalia_flag=true"
    assert grid.to_dict()["description"] == grid.description
    assert grid.rules == base.rules.replace(defender_units=4, santa_eulalia_flag=True)
    assert (grid.knob, grid.value) == ("defender_units, santa_eulalia_flag", "4, true")
    # a preset cell: the preset, then the base overrides on top
    assert by_label["preset open_ground"].rules == (
        game.resolve_rules("open_ground").replace(max_turns=20))
    assert by_label["policy catalans=withdraw"].policy == {"bourbons": "assault",
                                                           "catalans": "withdraw"}
    # duplicates of the base are merged into it, keeping the first label
    assert [a[0] for a in base.aliases] == ["salvo_units=4", "du=5 sef=false",
                                            "policy catalans=stand"]
    slugs = [c.slug for c in experiment.cells]
    assert len(set(slugs)) == len(slugs)
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", s) for s in slugs)


def test_until_ci_budget_and_defaults():
    experiment = parse_experiment(f'[experiment]\nname = "x"\ngame = "{GAME}"\n'
                                  "until_ci = 0.01\nmax_games = 50000\n")
    assert (experiment.games, experiment.until_ci, experiment.max_games) == (10_000, 0.01,
                                                                              50_000)
    assert experiment.seed == 0 and [c.label for c in experiment.cells] == ["base"]


def test_one_policy_name_must_suit_every_side():
    text = (f'[experiment]\nname = "x"\ngame = "{GAME}"\ngames = 10\n'
            '[[sweep]]\nkind = "policies"\npolicies = ["assault"]\n')
    with pytest.raises(ExperimentError, match="line 7: .*unknown policy 'assault' for "
                       f"{GAME} side 'catalans'; policies: stand, withdraw, cautious"):
        parse_experiment(text)


HEAD = f"""\
[experiment]
name = "t"
game = "{GAME}"
games = 100
"""

# (text, substrings of the message); "# <-" marks the line the message must name
BAD = [
    ("[experiment]\nname = \"t\"\ngames = # <-\n", ["malformed TOML"]),
    (HEAD + "[extra] # <-\nx = 1\n", ["unknown top-level key 'extra'", "[experiment]"]),
    ("title = 'x'\n", ["unknown top-level key 'title'"]),
    ('[[sweep]]\nkind = "grid"\nknobs = { terrain = ["open"] }\n',
     ["missing [experiment] table"]),
    (HEAD + "gmaes = 10 # <-\n", ["unknown key 'gmaes'", "allowed: name, game"]),
    ('[experiment]\nname = "t"\ngames = 10\n', ["needs game"]),
    ('[experiment] # <-\ngame = "' + GAME + '"\ngames = 10\n', ["needs name"]),
    ('[experiment]\nname = "a/b" # <-\ngame = "' + GAME + '"\ngames = 10\n',
     ["name 'a/b'", "letters, digits"]),
    ('[experiment]\nname = "t"\ngame = "nogame" # <-\ngames = 10\n',
     ["unknown game 'nogame'", GAME]),
    (HEAD + 'preset = "nope" # <-\n', ["unknown preset 'nope'", "example_first_assault"]),
    (HEAD + "rules = { foo = 1 } # <-\n", ["unknown rule 'foo'", "salvo_units"]),
    (HEAD + "# rules = { salvo_units = 11 } was too many\nrules = { salvo_units = 11 } # <-\n",
     ["'salvo_units' = 11"]),
    (HEAD + "rules = { salvo_units = 11 } # <-\n", ["'salvo_units' = 11", "0..10"]),
    (HEAD + 'rules = { salvo_units = "four" } # <-\n', ["'salvo_units' must be int"]),
    (HEAD + "[experiment.rules]\nmax_turns = 5\nterrain = 'swamp' # <-\n",
     ["'terrain' = 'swamp'", "barricade"]),
    (HEAD + "rules = { attacker_units = 6, salvo_units = 6 } # <-\n",
     ["cannot both exceed 5"]),
    (HEAD + "rules = 3 # <-\n", ["rules must be a table"]),
    (HEAD + 'policy = { catalans = "flee" } # <-\n', ["unknown policy 'flee'", "cautious"]),
    (HEAD + 'policy = { french = "stand" } # <-\n', ["unknown side 'french'", "bourbons"]),
    (HEAD + "policy = 3 # <-\n", ["a policy is a name or a table"]),
    (HEAD.replace("games = 100", "games = 0 # <-"), ["games must be a positive integer"]),
    (HEAD.replace("games = 100", 'games = "many" # <-'), ["games must be a positive"]),
    (HEAD.replace("games = 100", "games = true # <-"), ["games must be a positive"]),
    (HEAD.replace("games = 100\n", ""), ["needs games = N", "until_ci"]),
    (HEAD + "until_ci = 0.7 # <-\n", ["until_ci must be", "between 0 and 0.5"]),
    (HEAD + "max_games = 1000 # <-\n", ["max_games caps until_ci"]),
    (HEAD + "until_ci = 0.01\nmax_games = 50 # <-\n", ["max_games (50)", "at least games"]),
    (HEAD + "seed = -1 # <-\n", ["seed"]),
    (HEAD + "seed = 1.5 # <-\n", ["seed must be an integer"]),
    ("sweep = 3 # <-\n" + HEAD, ["array of tables"]),
    (HEAD + "sweep = 3 # <-\n", ["unknown key 'sweep' in [experiment]"]),
    (HEAD + '[[sweep]]\nkind = "zigzag" # <-\n', ["[[sweep]] 1", "kind must be one of",
                                                  "one_at_a_time, grid, presets, policies"]),
    (HEAD + '[[sweep]] # <-\nknobs = { terrain = ["open"] }\n', ["kind must be one of"]),
    (HEAD + '[[sweep]]\nkind = "grid"\nknobs = { terrain = ["open"] }\nvalues = 1 # <-\n',
     ["unknown key 'values'", "allowed: kind, knobs"]),
    (HEAD + '[[sweep]]\nkind = "grid"\nknobs = {} # <-\n', ["[[sweep]] 1 (grid) is empty"]),
    (HEAD + '[[sweep]] # <-\nkind = "grid"\n', ["needs knobs = a table"]),
    (HEAD + '[[sweep]]\nkind = "grid"\nknobs = ["terrain"] # <-\n', ["needs knobs"]),
    (HEAD + '[[sweep]]\nkind = "one_at_a_time"\nknobs = { terrain = [] } # <-\n',
     ["terrain needs a non-empty array", "terrain = [barricade, ...]"]),
    (HEAD + '[[sweep]]\nkind = "one_at_a_time"\nknobs = { terrain = "open" } # <-\n',
     ["terrain needs a non-empty array"]),
    (HEAD + '[[sweep]]\nkind = "presets"\npresets = [] # <-\n'
            '[[sweep]]\nkind = "one_at_a_time"\nknobs = { salvo = [1] }\n',
     ["[[sweep]] 1 (presets) is empty"]),
    (HEAD + '[[sweep]]\nkind = "presets"\npresets = ["open_ground"]\n'
            '[[sweep]]\nkind = "one_at_a_time"\nknobs = { salvo = [1] } # <-\n',
     ["[[sweep]] 2 (one_at_a_time)", "unknown rule 'salvo'", "salvo_units"]),
    (HEAD + '[[sweep]]\nkind = "one_at_a_time"\n[sweep.knobs]\nterrain = ["open"]\n'
            "salvo_units = [\n  0,\n  2,\n  12, # <-\n]\n",
     ["'salvo_units' = 12 is out of range 0..10"]),
    (HEAD + '[[sweep]]\nkind = "grid"\nknobs = { defender_units = [3, 4.5] } # <-\n',
     ["'defender_units' must be int"]),
    (HEAD + '[[sweep]]\nkind = "grid"\n'
            "knobs = { attacker_units = [6], salvo_units = [6] } # <-\n",
     ["[[sweep]] 1 (grid)", "cannot both exceed 5"]),
    (HEAD + '[[sweep]]\nkind = "grid"\nknobs = { max_turns = [' + ", ".join(
        str(i) for i in range(1, 61)) + "], salvo_units = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
        "guns_adjacent = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], attacker_commander = [true, "
        "false] } # <-\n", ["the grid has 14,520 cells", "at most 10,000"]),
    (HEAD + '[[sweep]]\nkind = "presets"\npresets = [] # <-\n', ["(presets) is empty"]),
    (HEAD + '[[sweep]]\nkind = "presets"\npresets = [\n  "open_ground",\n  "nope", # <-\n]\n',
     ["unknown preset 'nope'", "open_ground"]),
    (HEAD + '[[sweep]]\nkind = "presets"\npresets = [3] # <-\n', ["presets are names"]),
    (HEAD + '[[sweep]]\nkind = "policies"\npolicies = [] # <-\n', ["(policies) is empty"]),
    (HEAD + '[[sweep]]\nkind = "policies"\npolicies = [{ catalans = "flee" }] # <-\n',
     ["[[sweep]] 1 (policies)", "unknown policy 'flee'", "cautious"]),
    (HEAD + '[[sweep]]\nkind = "policies"\npolicies = [{ turks = "stand" }] # <-\n',
     ["unknown side 'turks'"]),
    (HEAD + '[[sweep]]\nkind = "policies"\npolicies = [7] # <-\n',
     ["a policy is a name or a table"]),
    (HEAD + '[[sweep]]\nkind = "policies"\npolicies = [{}] # <-\n', ["changes nothing"]),
]


@pytest.mark.parametrize("text, names", BAD)
def test_validation_errors_name_file_line_and_problem(tmp_path, text, names):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ExperimentError) as info:
        load_experiment(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    for name in names:
        assert name in message
    marked = [i + 1 for i, line in enumerate(text.splitlines()) if "# <-" in line]
    if marked:
        assert f"{path}, line {marked[0]}:" in message
    assert isinstance(info.value, ValueError)


def test_unreadable_file(tmp_path):
    with pytest.raises(ExperimentError, match="cannot read the experiment file"):
        load_experiment(tmp_path / "missing.toml")


def test_cli_bad_experiment_is_one_line_and_status_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(HEAD + 'rules = { salvo_units = 11 }\n')
    code = main(["sweep", str(path), "--out", str(tmp_path / "out"), "--no-progress"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == (f"simkit: error: {path}, line 5: rule 'salvo_units' = 11 is out "
                           "of range 0..10")
    assert not (tmp_path / "out").exists()  # validated before anything ran


# -- running ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The example experiment run once at 2,000 games per cell."""
    root = tmp_path_factory.mktemp("sweep")
    path = root / "assault.toml"
    path.write_text(EXAMPLE)
    info = SweepInfo()
    summary = simkit.sweep(path, root / "out", info=info)
    return path, root / "out", summary, info


def test_sweep_layout_and_info(swept):
    _, out, summary, info = swept
    assert (info.cells, info.games_played) == (10, 20_000)
    assert sorted(p.name for p in out.iterdir()) == [".simkit.lock", "cells", "experiment.json",
                                                     "summary.csv"]
    spec = json.loads((out / "experiment.json").read_text())
    assert [c["label"] for c in spec["cells"]] == EXPECTED_LABELS
    assert spec["experiment"]["seed"] == 1 and spec["cells"][0]["rules"]["max_turns"] == 20
    assert sorted(p.name for p in (out / "cells").iterdir()) == sorted(
        c["slug"] for c in spec["cells"])
    pd.testing.assert_frame_equal(pd.read_csv(out / "summary.csv", keep_default_na=False),
                                  summary, check_dtype=False)


def test_summary_numbers_equal_simkit_load(swept):
    _, out, summary, _ = swept
    assert list(summary["cell"]) == EXPECTED_LABELS
    for cell, folder in cell_folders(out)[1]:
        frame = simkit.load(folder)
        row = summary.set_index("cell").loc[cell["label"]]
        assert row["games"] == len(frame) == 2000
        for side in ("bourbons", "catalans"):
            wins = int((frame["winner"] == side).sum())
            ci = stats.wilson(wins, len(frame))
            assert row[f"winner_{side}"] == wins / 2000
            assert (row[f"winner_{side}_low"], row[f"winner_{side}_high"]) == (ci.low, ci.high)
        for reason in frame["end_reason"].cat.categories:
            assert row[f"end_reason_{reason}"] == (frame["end_reason"] == reason).mean()
        assert row["turns_mean"] == pytest.approx(frame["turns"].mean(), abs=1e-12)
        # each cell is exactly what simulate plays for its rules and policy
        again = simkit.simulate(GAME, 2000, seed=1, rules=cell["rules"],
                                policy=cell["policy"])
        pd.testing.assert_frame_equal(frame, again)


def test_cells_share_common_random_numbers(swept):
    _, out, summary, _ = swept
    frames = [simkit.load(folder) for _, folder in cell_folders(out)[1]]
    for frame in frames[1:]:
        assert (frame["game_index"] == frames[0]["game_index"]).all()
        assert (frame["seed"] == np.uint64(1)).all()
    # the Royal Breach is the first roll of every game: the same in every cell
    assert all((f["breach_turn"] == frames[0]["breach_turn"]).all() for f in frames)
    # withdrawing always gives the zone up once the breach is assured
    row = summary.set_index("cell").loc["policy catalans=withdraw"]
    assert row["winner_bourbons"] == 1 - row["end_reason_breach_closed"]


def test_rerun_resumes_and_plays_nothing_new(swept):
    path, out, summary, _ = swept
    info = SweepInfo()
    again = simkit.sweep(path, out, info=info)
    assert info.games_played == 0
    pd.testing.assert_frame_equal(again, summary)


def test_killed_sweep_resumes_only_the_missing_games(tmp_path, example):
    out = tmp_path / "out"
    first = simkit.sweep(example, out)
    parts = sorted((out / "cells" / "terrain-open").glob("part-*.parquet"))
    start, stop = map(int, re.findall(r"\d+", parts[-1].name))
    parts[-1].unlink()  # as if killed before the last part of one cell was renamed
    (out / "cells" / "preset_open_ground" / "manifest.json").unlink()
    for part in (out / "cells" / "preset_open_ground").glob("part-*"):
        part.unlink()  # a cell never started
    info = SweepInfo()
    again = simkit.sweep(example, out, info=info)
    assert 0 < stop - start < 2000
    assert info.games_played == 2000 + (stop - start)
    pd.testing.assert_frame_equal(again, first)


def test_more_games_extends_the_run(tmp_path, example):
    out = tmp_path / "out"
    simkit.sweep(example, out)
    example.write_text(EXAMPLE.replace("games = 2000", "games = 2500"))
    info = SweepInfo()
    summary = simkit.sweep(example, out, info=info)
    assert info.games_played == 10 * 500 and (summary["games"] == 2500).all()


def test_folder_of_another_experiment_is_refused(tmp_path, example):
    out = tmp_path / "out"
    simkit.sweep(example, out)
    example.write_text(EXAMPLE.replace("seed = 1", "seed = 2"))
    with pytest.raises(StoreError, match=r"different experiment \(differs in: seed\)"):
        simkit.sweep(example, out)
    example.write_text(EXAMPLE.replace('presets = ["open_ground"]',
                                       'presets = ["open_ground", "bombarded_bastion"]'))
    with pytest.raises(StoreError, match="differs in: cells"):
        simkit.sweep(example, out)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty and holds no experiment.json"):
        simkit.sweep(example, other)


def test_default_out_is_results_name(tmp_path, example, monkeypatch):
    monkeypatch.chdir(tmp_path)
    info = SweepInfo()
    simkit.sweep(example, info=info)
    assert info.out == tmp_path.joinpath("results", "assault_terrain").relative_to(tmp_path)
    assert (tmp_path / "results" / "assault_terrain" / "experiment.json").exists()


def test_until_ci_cells(tmp_path):
    path = tmp_path / "ci.toml"
    path.write_text(f'[experiment]\nname = "ci"\ngame = "{GAME}"\ngames = 1000\n'
                    "until_ci = 0.02\nmax_games = 4000\n[[sweep]]\nkind = \"one_at_a_time\"\n"
                    'knobs = { terrain = ["open"] }\n')
    summary = simkit.sweep(path, tmp_path / "out")
    for _, row in summary.iterrows():
        assert 1000 < row["games"] <= 4000
        assert row["winner_bourbons_high"] - row["winner_bourbons"] <= 0.02 or (
            row["games"] == 4000)


def test_cli_sweep_prints_every_cell_then_resumes(tmp_path, example, capsys):
    out = tmp_path / "out"
    assert main(["sweep", str(example), "--out", str(out), "--no-progress"]) == 0
    text, _ = capsys.readouterr()
    summary = summarize(out)
    assert "10 cells, 2,000 games per cell, seed 1" in text
    for row in summary.itertuples():
        assert re.search(rf"{re.escape(row.cell)}\s+2,000\s+{row.winner_bourbons:.2%}", text)
    assert main(["sweep", str(example), "--out", str(out), "--no-progress"]) == 0
    assert "played no new game" in capsys.readouterr()[0]


def test_one_progress_bar_over_the_whole_experiment(tmp_path, example, capsys):
    simkit.sweep(example, tmp_path / "out", progress=True)
    err = capsys.readouterr().err
    assert "assault_terrain" in err and "20.0k/20.0k" in err
    assert "setembre1714-assault" not in err  # no per-cell bars


def test_shipped_experiment_files_are_valid():
    files = sorted((Path(__file__).parents[1] / "experiments").glob("*.toml"))
    assert files
    for path in files:
        experiment = load_experiment(path)
        assert len(experiment.cells) > 1 and experiment.cells[0].label == "base"


# -- a smaller (or larger) run of the same file -------------------------------------------
def test_games_override_is_played_recorded_and_never_mixed(tmp_path, example):
    out = tmp_path / "out"
    info = SweepInfo()
    small = simkit.sweep(example, out, games=300, info=info)
    assert (small["games"] == 300).all() and info.games == 300 and info.games_played == 3000
    assert info.extended_from is None
    head = json.loads((out / "experiment.json").read_text())["experiment"]
    assert (head["games"], head["file_games"]) == (300, 2000)
    cell, folder = cell_folders(out)[1][1]
    pd.testing.assert_frame_equal(simkit.load(folder), simkit.simulate(
        GAME, 300, seed=1, rules=cell["rules"], policy=cell["policy"]))
    # fewer games than the folder was run with: refused, nothing played
    with pytest.raises(StoreError, match=r"was run with 300 games per cell; this run asks "
                       r"for 200: ask for 300 or more \(e.g. --games 300\)"):
        simkit.sweep(example, out, games=200)
    # the file's size extends it, and says so
    info = SweepInfo()
    full = simkit.sweep(example, out, info=info)
    assert info.extended_from == 300 and info.games_played == 10 * 1700
    assert (full["games"] == 2000).all()
    head = json.loads((out / "experiment.json").read_text())["experiment"]
    assert (head["games"], head["file_games"]) == (2000, None)
    with pytest.raises(StoreError, match="was run with 2,000 games per cell; this run asks "
                       "for 300"):
        simkit.sweep(example, out, games=300)
    # the same folder at its own size resumes without playing
    info = SweepInfo()
    simkit.sweep(example, out, games=2000, info=info)
    assert info.games_played == 0 and info.extended_from is None


@pytest.mark.parametrize("games, message", [
    (0, "games per cell must be a positive integer, got 0"),
    (-5, "games per cell must be a positive integer, got -5"),
    (True, "got True"),
    ("500", "got '500'"),
])
def test_bad_games_override(tmp_path, example, games, message):
    with pytest.raises(simkit.UsageError, match=message):
        simkit.sweep(example, tmp_path / "out", games=games)
    assert not (tmp_path / "out").exists()


def test_games_override_within_max_games(tmp_path):
    path = tmp_path / "ci.toml"
    path.write_text(f'[experiment]\nname = "ci"\ngame = "{GAME}"\ngames = 1000\n'
                    "until_ci = 0.02\nmax_games = 4000\n")
    with pytest.raises(simkit.UsageError, match=r"games per cell \(5,000\) exceeds the "
                       r"file's max_games \(4,000\)"):
        simkit.sweep(path, tmp_path / "out", games=5000)
    summary = simkit.sweep(path, tmp_path / "out", games=4000)  # a first batch of 4000
    assert summary["games"].iloc[0] == 4000


def test_cli_sweep_games_override(tmp_path, example, capsys):
    out = tmp_path / "out"
    args = ["sweep", str(example), "--out", str(out), "--no-progress"]
    assert main([*args, "--games", "200"]) == 0
    text = capsys.readouterr().out
    assert "10 cells, 200 games per cell (the file asks for 2,000), seed 1" in text
    assert re.search(r"\n  base\s+200\s", text)
    assert main([*args, "--games", "400"]) == 0
    text = capsys.readouterr().out
    assert f"extending {out} from 200 to 400 games per cell" in text
    assert "played 2,000 games" in text
    for extra, message in [
            (["--games", "100"], f"simkit: error: {out} was run with 400 games per cell; "
                                 "this run asks for 100"),
            (["--games", "0"], "simkit: error: games per cell must be a positive integer"),
            (["--games", "many"], "argument --games: 'many' is not a whole number"),
            (["--backend", "spark"], "argument --backend: invalid choice: 'spark'"),
            (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --backend dask"),
            (["--jobs", "0"], "--jobs must be a positive integer or -1")]:
        code = main([*args, *extra])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0], (extra, err)
    assert len(simkit.load(out / "cells" / "base")) == 400  # nothing was played


# -- the dask backend ---------------------------------------------------------------------
def test_sweep_on_dask_gives_the_loky_results(tmp_path, example, dask_cluster):
    _, client = dask_cluster
    loky = simkit.sweep(example, tmp_path / "loky", games=300)
    info = SweepInfo()
    dask = simkit.sweep(example, tmp_path / "dask", games=300, backend="dask", client=client,
                        info=info)
    assert info.games_played == 3000
    pd.testing.assert_frame_equal(dask, loky)
    for (_, a), (_, b) in zip(cell_folders(tmp_path / "loky")[1],
                              cell_folders(tmp_path / "dask")[1], strict=True):
        pd.testing.assert_frame_equal(simkit.load(a), simkit.load(b))
    with pytest.raises(simkit.UsageError,
                       match="unknown backend 'spark'; backends: threads, loky, dask"):
        simkit.sweep(example, tmp_path / "spark", backend="spark")
    assert not (tmp_path / "spark").exists()


def test_cli_sweep_on_a_dask_scheduler(tmp_path, example, dask_cluster, capsys):
    cluster, _ = dask_cluster
    out = tmp_path / "out"
    assert main(["sweep", str(example), "--out", str(out), "--games", "200", "--backend",
                 "dask", "--scheduler", cluster.scheduler_address, "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "played 2,000 games" in text
    pd.testing.assert_frame_equal(summarize(out), simkit.sweep(example, tmp_path / "loky",
                                                               games=200))


CROSSED = """\
[experiment]
name = "crossed"
game = "victus"
games = 100

[[sweep]]
kind = "grid"
presets = ["mode2", "full"]
knobs = { players = [1, 2, 3, 4] }

[[sweep]]
kind = "one_at_a_time"
presets = ["first_game"]
knobs = { start_generalitat = [4, 6] }
"""


def test_presets_cross_with_knobs_and_labels_stay_short():
    experiment = parse_experiment(CROSSED)
    game = simkit.games.get("victus")
    by_label = {c.label: c for c in experiment.cells}
    for players in (1, 2, 3, 4):
        cell = by_label[f"mode2: players={players}"]
        assert cell.rules == game.resolve_rules("mode2").replace(players=players).effective()
        assert (cell.kind, cell.knob, cell.value) == ("grid", "preset, players",
                                                      f"mode2, {players}")
    # full with 2 players is the base (standard rules): merged into it
    assert "full: players=2" in [a[0] for a in experiment.cells[0].aliases]
    # first_game with start_generalitat=6 plays the first game's own set-up
    first = [c for c in experiment.cells if c.label.startswith("first_game")]
    assert [c.label for c in first] == ["first_game: start_generalitat=4",
                                        "first_game: start_generalitat=6"]
    assert first[1].rules.plays_as(game.resolve_rules("first_game"))
    assert all(len(c.label) <= 32 for c in experiment.cells)


def test_crossed_presets_are_validated():
    bad = CROSSED.replace('"mode2", "full"', '"mode9"')
    with pytest.raises(ExperimentError, match="unknown preset 'mode9' for victus"):
        parse_experiment(bad)


def test_more_games_than_the_index_holds_is_refused_in_the_file(tmp_path):
    from simkit.experiment import parse_experiment

    text = ('[experiment]\nname = "huge"\ngame = "setembre1714-assault"\n'
            'games = 100000000000000000000\n')
    with pytest.raises(ExperimentError, match="games must be at most 9,223,372,036,854,775,807"):
        parse_experiment(text)


def test_a_cell_the_data_cannot_set_up_is_refused_in_the_file():
    """A Reserve beyond what the box has left is refused when the file is read, naming
    the line and the value, not when the sweep reaches the cell."""
    text = ('[experiment]\nname = "t"\ngame = "victus"\ngames = 10\n[[sweep]]\n'
            'kind = "one_at_a_time"\nknobs = { reserve_coronela = [0, 5] }\n')
    with pytest.raises(ExperimentError, match=r"line 7: .*reserve_coronela = 5: .*0\.\.3"):
        parse_experiment(text)
