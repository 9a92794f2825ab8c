"""Issue 45, items 6 and 7: command lines that gave a traceback, or were accepted though
they contradict themselves or would be ignored, each refused in one line on stderr with
exit status 2, before anything is played or written."""

import pytest

import simkit
from simkit.cli import main

GAME = "setembre1714-assault"


def refused(capsys, argv) -> str:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert code == 2, (captured.out[-400:], err)
    assert len(err) == 1 and err[0].startswith("simkit: error: "), err
    return err[0]


@pytest.mark.parametrize("argv, words", [
    # item 6: tracebacks
    (["skill", GAME, "--games", "20"],
     "setembre1714-assault has no lookahead player for any side"),
    (["skill", GAME, "--side", "catalans", "--policy", "stand", "--games", "20"],
     "one --policy given (stand)"),
    (["skill", GAME, "--side", "catalans", "--policy", "stand", "--policy", "stand"],
     "--policy stand given more than once"),
    (["plan", "--effect", "1e-300", "--discordance", "0.3"],
     "--effect 1e-300 needs more games than simkit can play"),
    (["plan", "--margin", "1e-300", "--discordance", "0.3"],
     "--margin 1e-300 needs more games than simkit can play"),
    (["plan", "--margin", "1e-300", "--rate", "0.5"],
     "--margin 1e-300 needs more games than simkit can play"),
    (["screen", GAME, "--knobs", "salvo_units,salvo_units"],
     "--knobs names salvo_units more than once"),
    (["tune", GAME, "--knobs", "salvo_units,salvo_units=2..4", "--target", "0.5"],
     "--knobs names salvo_units more than once"),
    # item 7: accepted, contradictory or ignored
    (["run", GAME, "--games", "10", "--progress", "--no-progress"],
     "--progress and --no-progress contradict each other"),
    (["run", GAME, "--games", "10", "--backend", "dask", "--scheduler", ""],
     "--scheduler: the address is empty"),
    (["run", GAME, "--games", "10", "--backend", "dask", "--scheduler", "  "],
     "--scheduler: the address is empty"),
    (["calibrate", GAME, "--knob", "salvo_units", "--steps", "0"],
     "--steps is the grid of a float knob's values: 2 or more, got 0"),
    (["calibrate", GAME, "--knob", "salvo_units", "--steps", "-4"],
     "2 or more, got -4"),
    (["calibrate", GAME, "--knob", "salvo_units", "--steps", "5"],
     "salvo_units is an integer knob, bisected over its range: leave --steps out"),
    (["compile", GAME, "--jobs", "0"], "--jobs must be a positive integer or -1"),
    (["compile", GAME, "--jobs", "-9"], "--jobs must be a positive integer or -1"),
    (["prob", "setembre1714", "salvo", "--units", "2", "--units", "3"],
     "--units given more than once; give each parameter once"),
    (["plan", "--rate", "0.5", "--margin", "1", "--discordance", "0.3"],
     "--rate (one rate's interval) and --discordance (paired comparisons)"),
    (["plan", "--rate", "0.5", "--margin", "1", "--effect", "2"],
     "--effect is for paired comparisons"),
    # refused only after a cross-table of 2,000 games had been played
    (["balance", GAME, "--trials", "0"], "--trials must be 1 or more, got 0"),
    (["balance", GAME, "--restarts", "0"], "--restarts must be 1 or more, got 0"),
    (["balance", GAME, "--tune-games", "0"], "--tune-games must be 1 or more, got 0"),
])
def test_refused_in_one_line(capsys, argv, words):
    assert words in refused(capsys, argv)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("refusals") / "run"
    simkit.simulate(GAME, 20, seed=1, out=out)
    return out


@pytest.mark.parametrize("option", ["--discordance", "--rate", "--margin", "--comparisons"])
def test_a_plan_of_a_folder_refuses_the_options_it_would_ignore(capsys, results, option):
    """``plan DIR --discordance 0.3`` used the folder's own discordance and said nothing."""
    value = "2" if option == "--comparisons" else "0.3"
    line = refused(capsys, ["plan", results, option, value])
    assert f"{option}: not for a plan of RESULTS_DIR" in line


@pytest.mark.parametrize("command", [["tune", GAME, "--side", "catalans"],
                                     ["balance", GAME]])
def test_a_search_is_not_kept_in_a_results_or_experiment_folder(capsys, results, command,
                                                                tmp_path):
    before = sorted(p.name for p in results.iterdir())
    line = refused(capsys, [*command, "--out", results])
    assert "is a results folder (it holds manifest.json)" in line
    assert sorted(p.name for p in results.iterdir()) == before
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    (sweep / "experiment.json").write_text("{}")
    assert "is an experiment folder" in refused(capsys, [*command, "--out", sweep])
    assert "is a file" in refused(capsys, [*command, "--out", sweep / "experiment.json"])


def test_an_empty_data_folder_is_refused_not_played_as_the_package_s(capsys, tmp_path):
    (tmp_path / "data").mkdir()
    line = refused(capsys, ["run", "victus", "--games", "5", "--data", tmp_path / "data"])
    assert "holds none of the game's data files (actions.toml" in line
    assert "simkit data GAME --export DIR" in line


def test_a_data_file_that_is_a_folder_is_one_line(capsys, tmp_path):
    (tmp_path / "data" / "markers.toml").mkdir(parents=True)
    line = refused(capsys, ["run", "victus", "--games", "5", "--data", tmp_path / "data"])
    assert "markers.toml: not a file (a folder?)" in line
