"""The command line of issue 29: compare, --format, seats as sides, progress and quiet,
one error prefix, a silent broken pipe, compiled markers per checkout, chunks sized by
time, and dask workers that play another engine."""

import argparse
import io
import json

import pandas as pd
import pytest

import simkit
from simkit import _numba_cache, stats
from simkit.cli import main, show_progress
from simkit.errors import UsageError
from simkit.runner import FIRST_CHUNK, TimedChunks, check_dask_engines, engine_version

GAME = "setembre1714-assault"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- basics -------------------------------------------------------------------------


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"simkit {simkit.__version__}"


@pytest.mark.parametrize("argv", [("run", GAME, "--games", "x"), ("frobnicate",),
                                  ("run", GAME, "--format", "xml")])
def test_an_argparse_error_says_simkit_once(capsys, argv):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err.count("simkit") == 1 and err.startswith("simkit: error: ")


def test_a_broken_pipe_is_silent(capsys, monkeypatch):
    def closed(args, extra):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("simkit.cli.cmd_games", closed)
    code, _, err = run_cli(capsys, "games")
    assert code == 0 and err == ""


def test_quiet_prints_no_notice_but_errors(capsys):
    code, out, err = run_cli(capsys, "run", GAME, "--games", "200", "--jobs", "64",
                             "--quiet")
    assert code == 0 and err == "" and "bourbons" in out
    code, _, err = run_cli(capsys, "--quiet", "run", GAME, "--set", "max_turns=0")
    assert code == 2 and err.startswith("simkit: error: rule 'max_turns'")
    code, _, err = run_cli(capsys, "run", GAME, "--quiet", "--progress")
    assert code == 2 and "--quiet and --progress" in err


def test_the_bar_shows_on_a_terminal_or_when_asked(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    plain = argparse.Namespace(no_progress=False)
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert not show_progress(plain)
    assert show_progress(argparse.Namespace(progress=True, no_progress=False))
    monkeypatch.setattr("sys.stderr", Terminal())
    assert show_progress(plain)
    assert not show_progress(argparse.Namespace(no_progress=True))
    assert not show_progress(argparse.Namespace(quiet=True, no_progress=False))


def test_the_compiled_marker_is_this_checkouts(monkeypatch, tmp_path):
    game = simkit.games.get(GAME)
    here = game._compiled_marker()
    assert _numba_cache.checkout_key() in here.name
    monkeypatch.setattr(_numba_cache, "PACKAGE", tmp_path / "other" / "simkit")
    assert game._compiled_marker() != here  # another checkout compiles its own kernels


# -- compare ------------------------------------------------------------------------


def test_compare_pairs_two_settings_on_the_same_games(capsys):
    code, out, _ = run_cli(capsys, "compare", GAME, "--games", "3000", "--seed", "2",
                           "--preset", "example_second_assault", "--format", "json",
                           "--vs", "--set", "santa_eulalia_flag=true")
    assert code == 0
    [row] = json.loads(out)
    base = simkit.games.get(GAME).resolve_rules("example_second_assault")
    a = simkit.simulate(GAME, 3000, seed=2, rules=base)["winner"] == "bourbons"
    b = simkit.simulate(GAME, 3000, seed=2, rules=base.replace(santa_eulalia_flag=True))
    b = b["winner"] == "bourbons"
    d = stats.paired_difference(b.to_numpy(), a.to_numpy())
    assert row["side"] == "bourbons" and row["games"] == 3000
    assert row["first"] == pytest.approx(a.mean()) and row["second"] == pytest.approx(b.mean())
    assert row["difference"] == pytest.approx(d.difference.estimate)
    assert row["difference_low"] == pytest.approx(d.difference.low)
    assert (row["only_second"], row["only_first"]) == (d.a_only, d.b_only)
    assert row["separated"] is True and row["games_to_separate"] is None
    assert isinstance(row["p_value"], float)


def test_compare_says_the_games_that_would_separate_a_small_difference(capsys):
    code, out, _ = run_cli(capsys, "compare", GAME, "--games", "2000", "--vs", "--set",
                           "max_turns=13")
    assert code == 0
    assert "second - first (paired, 95%)" in out and "McNemar p" in out
    code, out, _ = run_cli(capsys, "compare", GAME, "--games", "2000", "--format", "csv",
                           "--vs", "--set", "max_turns=13")
    header, row = out.strip().splitlines()
    record = dict(zip(header.split(","), row.split(","), strict=True))
    if record["separated"] == "False":
        assert int(record["games_to_separate"]) > 2000
        text = run_cli(capsys, "compare", GAME, "--games", "2000", "--vs", "--set",
                       "max_turns=13")[1]
        assert f"about {int(record['games_to_separate']):,} games would separate" in text


def test_compare_vs_may_change_the_policy(capsys):
    code, out, _ = run_cli(capsys, "compare", GAME, "--games", "500", "--vs", "--policy",
                           "catalans=withdraw")
    assert code == 0
    assert "second: preset (standard), rules changed from standard: none; policy " \
           "bourbons=assault catalans=withdraw" in out


@pytest.mark.parametrize("argv, words", [
    ((), ["--vs"]),
    (("--vs",), ["--vs"]),
    (("--vs", "--games", "3"), ["--set, --preset, --policy, --data and --no-data", "--games 3"]),
    (("--set", "max_turns=12", "--vs", "--set", "max_turns=12"), ["the same rules"]),
    (("--vs", "--set", "terrain=swamp"), ["terrain", "blue_line"]),
    (("--side", "french", "--vs", "--set", "max_turns=3"), ["unknown side 'french'",
                                                            "bourbons, catalans"]),
])
def test_compare_bad_input_is_one_line(capsys, argv, words):
    code, _, err = run_cli(capsys, "compare", GAME, "--games", "100", *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("simkit: error: ")
    for word in words:
        assert word in err


# -- --format -----------------------------------------------------------------------


def test_run_json_and_csv_are_the_rates(capsys):
    code, out, _ = run_cli(capsys, "run", GAME, "--games", "1000", "--format", "json")
    assert code == 0
    records = json.loads(out)
    frame = simkit.simulate(GAME, 1000)
    taken = next(r for r in records if r["column"] == "end_reason"
                 and r["outcome"] == "taken")
    assert taken["games"] == int((frame["end_reason"] == "taken").sum())
    assert isinstance(taken["rate"], float) and taken["of"] == 1000
    code, out, _ = run_cli(capsys, "run", GAME, "--games", "1000", "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns) == ["column", "outcome", "games", "of", "rate", "low", "high"]
    assert len(table) == len(records)


def test_plan_formats(capsys):
    code, out, _ = run_cli(capsys, "plan", "--discordance", "0.1", "--effect", "2",
                           "--effect", "20", "--margin", "1", "--format", "json")
    assert code == 0
    separate, impossible, interval = json.loads(out)
    assert separate["games"] == stats.paired_games_to_separate(0.02, 0.1, 0.05, 0.8)
    assert impossible["games"] is None and interval["goal"] == "interval"
    code, out, _ = run_cli(capsys, "plan", "--rate", "0.5", "--margin", "1", "--format",
                           "csv")
    assert out.splitlines() == ["rate,margin_points,confidence,games", "0.5,1.0,0.95,9600"]


def test_robustness_and_ladder_json(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "robustness", GAME, "--games", "200", "--format", "json")
    assert code == 0
    records = json.loads(out)
    assert records[0]["group"] == "as played" and isinstance(records[0]["games"], int)
    experiment = tmp_path / "e.toml"
    experiment.write_text('[experiment]\nname = "e"\ngame = "setembre1714-assault"\n'
                          'games = 300\nseed = 1\n\n[[sweep]]\nkind = "one_at_a_time"\n\n'
                          '[sweep.knobs]\nterrain = ["open", "urban"]\n')
    assert main(["sweep", str(experiment), "--out", str(tmp_path / "out"),
                 "--quiet"]) == 0
    capsys.readouterr()
    code, out, _ = run_cli(capsys, "ladder", str(tmp_path / "out"), "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert code == 0 and len(table) == 3 and {"cell", "rate", "low", "high"} <= set(table)


# -- chunks sized by time ------------------------------------------------------------


def test_chunks_start_small_then_last_about_a_second():
    chunks = TimedChunks([(0, 10**9)], cap=100_000)
    it = iter(chunks)
    assert next(it) == (0, FIRST_CHUNK)
    chunks.played(FIRST_CHUNK, 0.01)  # 1,600 games/s
    assert next(it) == (FIRST_CHUNK, FIRST_CHUNK + 1600)
    chunks.played(1600, 0.0001)  # very fast: capped
    start, stop = next(it)
    assert stop - start == 100_000
    fixed = TimedChunks([(0, 10)], cap=4, fixed=True)
    fixed.played(4, 100.0)
    assert list(fixed) == [(0, 4), (4, 8), (8, 10)]


def test_timed_chunks_do_not_change_the_rows(tmp_path):
    out = tmp_path / "run"
    timed = simkit.simulate(GAME, 5000, seed=9, n_jobs=2, out=out)
    assert timed.equals(simkit.simulate(GAME, 5000, seed=9, chunk_size=5000))
    manifest = json.loads((out / "manifest.json").read_text())
    sizes = sorted(p["stop"] - p["start"] for p in manifest["parts"])
    assert sizes[0] <= FIRST_CHUNK and len(sizes) > 1  # small first chunks, then larger


# -- dask workers on another engine ----------------------------------------------------


class FakeClient:
    def __init__(self, engines=None, error=None):
        self.engines, self.error = engines, error

    def run(self, function):
        if self.error is not None:
            raise self.error
        return self.engines

    def submit(self, *args, **kwargs):  # never reached: the check refuses first
        raise AssertionError("submitted work to workers of another engine")


def test_dask_workers_of_another_engine_are_refused():
    mine = engine_version()
    check_dask_engines(FakeClient({"tls://a:1": mine, "tls://b:2": mine}))
    with pytest.raises(UsageError, match=rf"tls://b:2 \(engine 0123\).*client's \(engine "
                                         rf"{mine}\)"):
        simkit.simulate(GAME, 100, backend="dask",
                        client=FakeClient({"tls://a:1": mine, "tls://b:2": "0123"}))
    with pytest.raises(UsageError, match="cannot run simkit.*ModuleNotFoundError"):
        check_dask_engines(FakeClient(error=ModuleNotFoundError("No module named 'simkit'")))


# -- seats and winner categories (verrix) --------------------------------------------


def test_verrix_calibrate_compare_and_sweep_take_a_tribe_or_a_seat(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "calibrate", "verrix", "--knob", "start_vp", "--games",
                           "20", "--side", "seat2")
    assert code == 0 and "for the seat2 to win" in out
    code, _, err = run_cli(capsys, "calibrate", "verrix", "--knob", "start_vp", "--side",
                           "seat9")
    assert code == 2 and "allowed: blue, orange, purple, green, yellow (winner); seat1" in err
    code, out, _ = run_cli(capsys, "compare", "verrix", "--games", "20", "--format", "json",
                           "--vs", "--set", "start_vp=1")
    assert code == 0
    assert [r["side"] for r in json.loads(out)] == ["blue", "orange", "purple", "green",
                                                    "yellow"]
    experiment = tmp_path / "v.toml"
    experiment.write_text('[experiment]\nname = "v"\ngame = "verrix"\ngames = 20\nseed = 1\n'
                          '\n[[sweep]]\nkind = "one_at_a_time"\n\n[sweep.knobs]\n'
                          'start_vp = [1]\n')
    code, out, _ = run_cli(capsys, "sweep", str(experiment), "--out", str(tmp_path / "o"))
    assert code == 0 and "yellow win" in out and "blue win" in out and "%" in out
    code, out, _ = run_cli(capsys, "sweep", str(experiment), "--out", str(tmp_path / "o"),
                           "--side", "seat1")
    assert code == 0 and "seat1 win   95% interval (Wilson)" in out
    _report_and_ladder_take_a_seat(capsys, tmp_path / "o")


def _report_and_ladder_take_a_seat(capsys, folder):
    """report and ladder compare a seat (winner_seat) or a tribe (winner); their rates are
    the share of games that column names them."""
    from simkit.analysis import cell_folders, collect, ladder

    frames = [simkit.load(f) for _, f in cell_folders(folder)[1]]
    for side, column in (("seat2", "winner_seat"), ("green", "winner")):
        table = ladder(folder, side=side).set_index("cell")
        rates = {round(float((f[column] == side).mean()), 12) for f in frames}
        assert {round(r, 12) for r in table["rate"]} == rates
        code, out, err = run_cli(capsys, "ladder", str(folder), "--side", side)
        assert code == 0 and f"by {side} win rate" in out, err
    data = collect(folder, side="seat2")
    assert data.side_column == "winner_seat" and "seat2 (winner_seat)" in data.summary
    code, _, err = run_cli(capsys, "report", str(folder), "--side", "seat2", "--out",
                           str(folder / "report"))
    assert code == 0, err
    assert "the seat2 win" in (folder / "report" / "report.md").read_text()
    code, _, err = run_cli(capsys, "ladder", str(folder), "--side", "seat9")
    assert code == 2 and "allowed: blue, orange, purple, green, yellow (winner); seat1" in err


def test_prob_takes_quiet(capsys):
    code, out, err = run_cli(capsys, "prob", "setembre1714", "breach", "--turns", "3",
                             "--quiet", "--format", "csv")
    assert code == 0 and err == "" and "91/216" in out


def test_a_closed_pipe_prints_nothing(tmp_path):
    import subprocess
    import sys

    script = ("import sys, simkit.cli as c\n"
              "def many(args, extra):\n"
              "    for i in range(200_000):\n"
              "        print('line', i)\n"
              "c.cmd_games = many\n"
              "sys.exit(c.main(['games']))\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "line 0\n"
    child.stdout.close()  # the reader goes away, as head does
    assert child.wait(timeout=60) == 0
    assert child.stderr.read() == ""


def test_run_until_ci_on_one_side(capsys):
    code, out, _ = run_cli(capsys, "run", GAME, "--games", "1000", "--until-ci", "0.01",
                           "--side", "bourbons", "--format", "json")
    assert code == 0
    bourbons = next(r for r in json.loads(out) if r["outcome"] == "bourbons")
    assert (bourbons["high"] - bourbons["low"]) / 2 <= 0.01
    # every rate would need more: repulsed (~79%) is wider than the Bourbons' ~6%
    everything = simkit.runner.RunInfo()
    simkit.simulate(GAME, 1000, until_ci=0.01, info=everything, keep_rows=False)
    assert everything.n_games > bourbons["of"]
    code, _, err = run_cli(capsys, "run", GAME, "--side", "bourbons")
    assert code == 2 and "--until-ci" in err
    code, _, err = run_cli(capsys, "run", "verrix", "--until-ci", "0.01", "--side", "seat7")
    assert code == 2 and "seat1, seat2" in err


def test_a_long_run_grows_its_chunks_to_a_few_seconds():
    """A slow engine (100 games/s): 1 s chunks at first, then a twentieth of the time
    played, at most 10 s; the parts of 100,000 games number about 200, not 1,000."""
    chunks = TimedChunks([(0, 100_000)], cap=100_000, measured=(100, 1.0))
    sizes = []
    for start, stop in chunks:
        sizes.append(stop - start)
        chunks.played(stop - start, (stop - start) / 100)
    assert sizes[0] == 100 and 990 <= max(sizes) <= 1000 and sum(sizes) == 100_000
    assert len(sizes) < 200


def test_a_later_batch_starts_at_the_measured_speed():
    chunks = TimedChunks([(0, 10**6)], cap=50_000, measured=(1000, 0.5))
    assert next(iter(chunks)) == (0, 2000)  # 2,000 games/s: a second's worth
