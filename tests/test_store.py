"""Tests for simkit.store: results folders, resuming, refusing other runs, corruption."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import simkit
from simkit import StoreError
from simkit.games.setembre1714_assault import layout as L
from simkit.runner import RunInfo
from simkit.store import missing_ranges, part_name

GAME = "setembre1714-assault"


def parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def part_range(path: Path) -> tuple[int, int]:
    m = re.fullmatch(r"part-(\d{12})-(\d{12})\.parquet", path.name)
    assert m, path.name
    return int(m.group(1)), int(m.group(2))


def snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file's bytes, mtime and inode (the writers' lock file aside: it is not
    results, and each writer records its pid there)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns, p.stat().st_ino)
            for p in sorted(folder.iterdir()) if p.name != ".simkit.lock"}


def assert_same_rows(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """assert_frame_equal for big frames: categoricals compared by categories and codes
    (pandas compares categorical values one by one, minutes for a million rows)."""
    assert list(a.columns) == list(b.columns)
    assert a.dtypes.to_dict() == b.dtypes.to_dict()
    cats = [c for c in a.columns if isinstance(a[c].dtype, pd.CategoricalDtype)]
    assert cats == ["winner", "end_reason"]
    for col in cats:
        assert list(a[col].cat.categories) == list(b[col].cat.categories)
        np.testing.assert_array_equal(a[col].cat.codes.to_numpy(), b[col].cat.codes.to_numpy())
    pd.testing.assert_frame_equal(a.drop(columns=cats), b.drop(columns=cats))


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# -- a results folder holds what simulate returns ----------------------------------------
def test_out_returns_the_in_memory_frame_and_load_reads_it(tmp_path):
    out = tmp_path / "run"
    memory = simkit.simulate(GAME, 2500, seed=5, chunk_size=1000)
    stored = simkit.simulate(GAME, 2500, seed=5, chunk_size=1000, out=out)
    pd.testing.assert_frame_equal(stored, memory)
    loaded = simkit.load(out)
    pd.testing.assert_frame_equal(loaded, memory)
    assert [part_range(p) for p in parts(out)] == [(0, 1000), (1000, 2000), (2000, 2500)]
    # categoricals carry the game's full category list, also categories never seen
    assert set(loaded["end_reason"]) == {"taken", "repulsed", "breach_closed"}
    assert list(loaded["end_reason"].cat.categories) == list(L.END_REASONS)
    assert list(loaded["winner"].cat.categories) == ["bourbons", "catalans"]
    one = simkit.load(out, n_games=1)
    assert len(one) == 1
    assert list(one["end_reason"].cat.categories) == list(L.END_REASONS)
    pd.testing.assert_frame_equal(simkit.load(out, n_games=1500), memory.iloc[:1500])
    meta = pq.ParquetFile(parts(out)[0]).metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"


def test_out_with_two_jobs(tmp_path):
    out = tmp_path / "run"
    stored = simkit.simulate(GAME, 3000, seed=6, chunk_size=700, n_jobs=2, out=out,
                             policy={"catalans": "withdraw"})
    memory = simkit.simulate(GAME, 3000, seed=6, policy={"catalans": "withdraw"})
    pd.testing.assert_frame_equal(stored, memory)
    pd.testing.assert_frame_equal(simkit.load(out), memory)
    assert len(parts(out)) == 5


def test_manifest_records_the_run(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 1200, seed=5, rules={"breach_roll": 5}, chunk_size=500, out=out)
    m = manifest(out)
    game = simkit.games.get(GAME)
    rules = game.Rules(breach_roll=5).to_dict()
    assert rules["breach_roll"] == 5 and rules["max_turns"] == 12
    assert m["spec"] == {"game": GAME, "rules": rules,
                         "policy": {"bourbons": "assault", "catalans": "stand"}, "seed": 5}
    assert m["schema"]["game_index"] == {"dtype": "int64", "categories": []}
    assert m["schema"]["seed"] == {"dtype": "uint64", "categories": []}
    assert m["schema"]["winner"] == {"dtype": "category", "categories": ["bourbons", "catalans"]}
    assert m["schema"]["end_reason"]["categories"] == list(L.END_REASONS)
    assert m["schema"]["turns"] == {"dtype": "int16", "categories": []}
    assert list(m["schema"]) == ["game_index", "seed", *game.outcome_columns]
    assert sorted((p["start"], p["stop"], p["rows"], p["file"]) for p in m["parts"]) == [
        (0, 500, 500, part_name(0, 500)), (500, 1000, 500, part_name(500, 1000)),
        (1000, 1200, 200, part_name(1000, 1200))]
    assert m["simkit_version"] == simkit.__version__
    assert "git_commit" in m
    assert m["git_commit"] is None or re.fullmatch(r"[0-9a-f]{40}", m["git_commit"])
    for key in ("created", "updated"):
        datetime.fromisoformat(m[key])
    assert m["runs"][-1]["n_games"] == 1200
    assert m["runs"][-1]["games_played"] == 1200


# -- reruns ------------------------------------------------------------------------------
def test_rerun_plays_nothing_and_rewrites_no_part(tmp_path):
    out = tmp_path / "run"
    first = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)
    before = {name: v for name, v in snapshot(out).items() if name.startswith("part-")}
    assert len(before) == 3
    info = RunInfo()
    again = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out, info=info)
    assert info.games_played == 0
    after = {name: v for name, v in snapshot(out).items() if name.startswith("part-")}
    assert after == before
    pd.testing.assert_frame_equal(again, first)
    # a smaller run from the same folder plays nothing and returns the first games
    info = RunInfo()
    fewer = simkit.simulate(GAME, 1234, seed=5, out=out, info=info)
    assert info.games_played == 0
    pd.testing.assert_frame_equal(fewer, first.iloc[:1234])


def test_rerun_with_more_games_plays_only_the_extra(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)
    before = snapshot(out)
    info = RunInfo()
    more = simkit.simulate(GAME, 3500, seed=5, chunk_size=1000, out=out, info=info)
    assert info.games_played == 1500
    assert [part_range(p) for p in parts(out)] == [(0, 1000), (1000, 2000), (2000, 3000),
                                                   (3000, 3500)]
    after = snapshot(out)
    for name in (part_name(0, 1000), part_name(1000, 2000)):
        assert after[name] == before[name]
    pd.testing.assert_frame_equal(more, simkit.simulate(GAME, 3500, seed=5))


def test_equivalent_rules_spelling_is_the_same_run(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 500, seed=5, rules="open_ground", out=out)
    info = RunInfo()
    simkit.simulate(GAME, 500, seed=5, out=out, info=info,
                    rules={"salvo_units": 0, "terrain": "open", "defender_commander": False})
    assert info.games_played == 0


@pytest.mark.parametrize("change, word", [
    ({"seed": 6}, "seed"),
    ({"rules": {"breach_roll": 5}}, "rules"),
    ({"rules": "open_ground"}, "rules"),
    ({"policy": {"catalans": "withdraw"}}, "policy"),
])
def test_rerun_of_another_run_is_refused_and_touches_nothing(tmp_path, change, word):
    out = tmp_path / "run"
    simkit.simulate(GAME, 1500, seed=5, chunk_size=500, out=out)
    before = snapshot(out)
    kwargs = {"seed": 5, "chunk_size": 500, "out": out, **change}
    with pytest.raises(StoreError, match=rf"holds a different run \({word}: stored"):
        simkit.simulate(GAME, 3000, **kwargs)
    assert snapshot(out) == before


# -- resuming after a kill ---------------------------------------------------------------
N_KILL = 1_000_000
CHUNK_KILL = 5_000
_KILLED_RUN = f"""
import sys
import simkit
simkit.simulate("{GAME}", {N_KILL}, seed=3, out=sys.argv[1], chunk_size={CHUNK_KILL}, n_jobs=1)
"""


def test_resume_after_sigkill(tmp_path):
    out = tmp_path / "run"
    errors = tmp_path / "stderr.txt"
    with open(errors, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(out)],
                                stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 300  # a safety net only, not a timing assertion
        while not (out.is_dir() and len(parts(out)) >= 2):
            if proc.poll() is not None:
                pytest.fail(f"the run ended ({proc.returncode}) before writing two parts:\n"
                            + errors.read_text())
            assert time.monotonic() < deadline, "no part written in time"
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    survivors = parts(out)
    assert 2 <= len(survivors) < N_KILL // CHUNK_KILL  # some parts, not all
    done = []
    for path in survivors:  # every finished part is whole
        start, stop = part_range(path)
        table = pq.read_table(path)
        assert table.num_rows == stop - start
        assert table.column("game_index").to_pylist() == list(range(start, stop))
        done.append((start, stop))
    assert done == [(i * CHUNK_KILL, (i + 1) * CHUNK_KILL) for i in range(len(done))]
    kept = {p.name: (p.stat().st_mtime_ns, p.stat().st_ino) for p in survivors}

    strays = [out / ".part-x.tmp", out / f".{part_name(0, CHUNK_KILL)}.k1ll3d.tmp"]
    for stray in strays:
        stray.write_bytes(b"half a part")
    info = RunInfo()
    resumed = simkit.simulate(GAME, N_KILL, seed=3, out=out, chunk_size=CHUNK_KILL, n_jobs=1,
                              info=info)
    assert info.games_played == N_KILL - len(done) * CHUNK_KILL
    assert strays[0].exists()  # not a name simkit writes: a user's file is kept
    assert not strays[1].exists()  # the killed writer's temporary part is cleared
    assert list(out.glob(".*.tmp")) == [strays[0]]
    for path in survivors:
        assert (path.stat().st_mtime_ns, path.stat().st_ino) == kept[path.name]
    assert missing_ranges([(p["start"], p["stop"]) for p in manifest(out)["parts"]],
                          N_KILL) == []
    assert sum(p["rows"] for p in manifest(out)["parts"]) == N_KILL

    whole = simkit.simulate(GAME, N_KILL, seed=3)
    assert_same_rows(resumed, whole)
    assert_same_rows(simkit.load(out), whole)
    pd.testing.assert_frame_equal(resumed.iloc[-1000:], whole.iloc[-1000:])


def test_deleted_part_is_replayed(tmp_path):
    out = tmp_path / "run"
    first = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)
    (out / part_name(1000, 2000)).unlink()
    info = RunInfo()
    again = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out, info=info)
    assert info.games_played == 1000
    pd.testing.assert_frame_equal(again, first)


# -- broken folders ----------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "deleted"])
def test_damaged_part_makes_load_name_the_file_or_the_missing_games(tmp_path, damage):
    out = tmp_path / "run"
    simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)
    bad = out / part_name(1000, 2000)
    if damage == "garbage":
        bad.write_bytes(b"this is not parquet" * 50)
    elif damage == "truncated":
        bad.write_bytes(bad.read_bytes()[: bad.stat().st_size // 2])
    elif damage == "empty":
        bad.write_bytes(b"")
    else:
        bad.unlink()
    named = "games 1000..1999 are missing" if damage == "deleted" else str(bad)
    with pytest.raises(StoreError, match=re.escape(named)):
        simkit.load(out)
    pd.testing.assert_frame_equal(simkit.load(out, n_games=1000),
                                  simkit.simulate(GAME, 1000, seed=5))


def test_corrupt_part_stops_a_rerun(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)
    bad = out / part_name(0, 1000)
    bad.write_bytes(b"\x00garbage\xff" * 100)
    with pytest.raises(StoreError, match=re.escape(bad.name)):
        simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)


def test_folder_without_manifest(tmp_path):
    with pytest.raises(StoreError, match="no manifest.json"):
        simkit.load(tmp_path)
    with pytest.raises(StoreError, match="no manifest.json"):
        simkit.load(tmp_path / "missing")


def test_unreadable_manifest(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 100, seed=5, out=out)
    (out / "manifest.json").write_text("{not json")
    with pytest.raises(StoreError, match="unreadable manifest"):
        simkit.load(out)
    (out / "manifest.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(StoreError, match="not a simkit manifest"):
        simkit.load(out)


def test_parts_without_manifest_are_not_adopted(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 1000, seed=5, chunk_size=500, out=out)
    (out / "manifest.json").unlink()
    before = snapshot(out)
    with pytest.raises(StoreError, match="is not empty and is not a results folder"):
        simkit.simulate(GAME, 1000, seed=5, out=out)
    assert snapshot(out) == before


def test_out_must_be_a_folder(tmp_path):
    file = tmp_path / "file.txt"
    file.write_text("x")
    with pytest.raises(StoreError, match="is not a folder"):
        simkit.simulate(GAME, 10, out=file)
    assert file.read_text() == "x"


def test_unexpected_part_name(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 100, seed=5, out=out)
    (out / "part-7.parquet").write_bytes(b"")
    with pytest.raises(StoreError, match=re.escape("part-7.parquet")):
        simkit.simulate(GAME, 100, seed=5, out=out)


# -- missing_ranges ----------------------------------------------------------------------
@pytest.mark.parametrize("done, n, gaps", [
    ([], 10, [(0, 10)]),
    ([], 0, []),
    ([(0, 10)], 10, []),
    ([(2, 5)], 10, [(0, 2), (5, 10)]),
    ([(0, 3), (3, 6)], 6, []),  # adjacent
    ([(5, 7), (0, 2)], 10, [(2, 5), (7, 10)]),  # unsorted
    ([(0, 5), (3, 8)], 10, [(8, 10)]),  # overlapping
    ([(0, 8), (2, 4)], 10, [(8, 10)]),  # contained
    ([(1, 4), (1, 4)], 5, [(0, 1), (4, 5)]),  # duplicated
    ([(0, 3), (12, 20)], 10, [(3, 10)]),  # beyond n
    ([(5, 15)], 10, [(0, 5)]),  # straddling n
    ([(0, 20)], 10, []),
    ([(15, 20)], 10, [(0, 10)]),
    ([(10, 20)], 10, [(0, 10)]),
    ([(0, 2), (4, 6), (8, 9)], 10, [(2, 4), (6, 8), (9, 10)]),
])
def test_missing_ranges(done, n, gaps):
    assert missing_ranges(done, n) == gaps


def test_missing_ranges_against_brute_force():
    import random

    rnd = random.Random(1714)
    for _ in range(2000):
        n = rnd.randrange(0, 40)
        done = []
        for _ in range(rnd.randrange(0, 6)):
            a = rnd.randrange(0, 50)
            done.append((a, a + rnd.randrange(1, 15)))
        covered = {i for a, b in done for i in range(a, b)}
        gaps = missing_ranges(done, n)
        assert {i for a, b in gaps for i in range(a, b)} == set(range(n)) - covered
        assert all(a < b for a, b in gaps)
        assert all(b1 < a2 for (_, b1), (a2, _) in zip(gaps, gaps[1:], strict=False))


# -- one writer per folder ------------------------------------------------------------------
def test_a_second_writer_is_refused_naming_the_first(tmp_path):
    import os

    from simkit.store import ResultStore

    spec, schema = {"game": "g", "seed": 1}, {}
    first = ResultStore.open(tmp_path / "run", spec, schema)
    with pytest.raises(StoreError, match=rf"being written by another simkit process \(pid "
                                         rf"{os.getpid()}\)"):
        ResultStore.open(tmp_path / "run", spec, schema)
    first.close()
    ResultStore.open(tmp_path / "run", spec, schema).close()  # free again


def test_cli_run_into_a_locked_folder_is_one_line_and_exit_2(tmp_path, capsys):
    from simkit.cli import main
    from simkit.store import FolderLock

    folder = tmp_path / "busy"
    folder.mkdir()
    lock = FolderLock(folder).acquire()
    try:
        code = main(["run", "setembre1714-assault", "--games", "100", "--out", str(folder),
                     "--no-progress"])
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "being written by another simkit process" in err
    assert not (folder / "manifest.json").exists()  # nothing written


def test_opening_removes_only_simkits_own_temporary_files(tmp_path):
    from simkit.store import ResultStore

    folder = tmp_path / "run"
    ResultStore.open(folder, {"game": "g"}, {}).close()  # a results folder, then a kill
    ours = folder / ".part-000000000000-000000000010.parquet.abc123.tmp"
    mine = folder / ".notes.tmp"
    ours.write_text("half a part")
    mine.write_text("a user's file")
    ResultStore.open(folder, {"game": "g"}, {}).close()
    assert not ours.exists() and mine.read_text() == "a user's file"


# -- verified parts -------------------------------------------------------------------------
def _flip_a_bit(file: Path, offset: int) -> None:
    data = bytearray(file.read_bytes())
    data[offset % len(data)] ^= 0x10
    file.write_bytes(bytes(data))


def test_a_corrupted_part_is_refused_naming_it(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)
    victim = sorted(out.glob("part-*.parquet"))[1]
    for offset in (100, 999, 2024):  # anywhere in the file
        original = victim.read_bytes()
        _flip_a_bit(victim, offset)
        with pytest.raises(StoreError, match=re.escape(f"{victim}: its checksum does not")):
            simkit.load(out)
        victim.write_bytes(original)
    assert len(simkit.load(out)) == 2000


def test_an_overlapping_stray_part_is_refused(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)
    other = tmp_path / "other"
    simkit.simulate(GAME, 1500, seed=5, chunk_size=1500, out=other)
    stray = next(other.glob("part-*.parquet"))  # games 0..1499: overlaps 1000..1999
    (out / stray.name).write_bytes(stray.read_bytes())
    with pytest.raises(StoreError, match="overlaps"):
        simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)


def test_a_part_of_another_seed_is_refused(tmp_path):
    out = tmp_path / "run"
    simkit.simulate(GAME, 1000, seed=5, chunk_size=1000, out=out)
    other = tmp_path / "other"
    simkit.simulate(GAME, 2000, seed=6, chunk_size=1000, out=other)
    foreign = sorted(other.glob("part-*.parquet"))[1]  # games 1000..1999 of seed 6
    (out / foreign.name).write_bytes(foreign.read_bytes())
    with pytest.raises(StoreError, match="another seed than this run's 5"):
        simkit.simulate(GAME, 2000, seed=5, chunk_size=1000, out=out)
