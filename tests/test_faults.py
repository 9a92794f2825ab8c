"""Fault injection: what a hostile or careless user, a full or read-only disk, a flipped
bit or an unreachable scheduler does to a run. Each case gives the right result, or one
line on stderr and exit status 2 with nothing already written lost or changed."""

import errno
import json
import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import simkit
from simkit import StoreError, store
from simkit.cli import main
from simkit.runner import RunInfo

GAME = "setembre1714-assault"


def snapshot(folder):
    """Every file's bytes and mtime (the writers' lock file aside: it is not results)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir()) if p.name != store.LOCK}


def one_line_error(capsys, argv) -> str:
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith("simkit: error: "), err
    return err[0]


def run(out, games=3000, *extra):
    return ["run", GAME, "--games", games, "--chunk-size", 1000, "--seed", 5, "--out", out,
            "--no-progress", *extra]


@pytest.fixture
def finished(tmp_path):
    """A finished 3,000-game run in three parts, and its rows."""
    out = tmp_path / "run"
    rows = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)
    return out, rows


# -- bit flips --------------------------------------------------------------------------
def _data_region(file) -> tuple[int, int]:
    """Byte offsets of a parquet file's pages (between the magic and the footer)."""
    size = file.stat().st_size
    footer = int.from_bytes(file.read_bytes()[-8:-4], "little")
    return 4, size - 8 - footer


def write_signed(folder, manifest) -> None:
    """Write ``manifest`` with its checksum recomputed: a consistent state that simkit
    could have written itself (another engine, a recovered part), not an edit."""
    manifest["checksum"] = store.manifest_checksum(manifest)
    (folder / store.MANIFEST).write_text(json.dumps(manifest))


def refused_flips(finished, seed: int, trials: int, region, prefix: str) -> int:
    """Flip one random bit of ``region(part)`` (a byte range) in one part of a copy of
    the finished folder, ``trials`` times, its parts as if recovered after a kill (no
    recorded sha256): each load gives the rows unchanged or a StoreError naming that
    part. Returns how many were refused."""
    out, rows = finished
    rng = np.random.default_rng(seed)
    manifest = json.loads((out / store.MANIFEST).read_text())
    for part in manifest["parts"]:
        part.pop("sha256")  # as if recovered: only the file itself can tell
    refused = 0
    for trial in range(trials):
        folder = out.parent / f"{prefix}{trial}"
        shutil.copytree(out, folder)
        write_signed(folder, manifest)
        victim = sorted(folder.glob("part-*.parquet"))[trial % 3]
        start, stop = region(victim)
        data = bytearray(victim.read_bytes())
        position = int(rng.integers(start, stop))
        data[position] ^= 1 << int(rng.integers(8))
        victim.write_bytes(bytes(data))
        try:
            loaded = simkit.load(folder)
        except StoreError as exc:
            assert victim.name in str(exc)
            refused += 1
            continue
        pd.testing.assert_frame_equal(loaded, rows)  # the flip hit nothing read
    return refused


def test_a_flipped_bit_in_a_part_the_manifest_has_no_checksum_for_never_loads_silently(
        finished):
    """A part recovered after a kill has no recorded sha256: parquet page checksums still
    refuse a flipped bit in its pages (or the rows come back unchanged)."""
    assert refused_flips(finished, 7, 24, _data_region, "flip") >= 12  # most flips land
    # in a checksummed page


def _footer_region(file) -> tuple[int, int]:
    """Byte offsets of a parquet file's footer (before its length and magic)."""
    return _data_region(file)[1], file.stat().st_size - 8


def test_a_flipped_bit_in_a_recovered_part_s_footer_is_one_store_error_naming_it(finished):
    """The footer (schema, pandas metadata, statistics) has no page checksum: a flip
    there gives the rows unchanged or a StoreError naming the part, never another
    exception (a flip in the pandas metadata once raised UnicodeDecodeError)."""
    assert refused_flips(finished, 11, 40, _footer_region, "footer") >= 1


def test_parts_carry_page_checksums(finished):
    out, _ = finished
    for part in out.glob("part-*.parquet"):
        pq.read_table(part, page_checksum_verification=True)  # would raise if absent-bad
        meta = pq.ParquetFile(part).metadata
        assert meta.num_rows == 1000


# -- resuming into a corrupted folder -------------------------------------------------------
def _damage(part, how: str, rng) -> None:
    data = bytearray(part.read_bytes())
    if how == "flipped byte":
        start, stop = _data_region(part)
        data[int(rng.integers(start, stop))] ^= 0xFF
    elif how == "truncated":
        del data[len(data) // 2:]
    elif how == "garbage":
        data = bytearray(b"not parquet" * 40)
    else:  # "emptied"
        data = bytearray()
    part.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped byte", "truncated", "garbage", "emptied"])
@pytest.mark.parametrize("victim", [0, 2])
def test_resuming_into_a_corrupted_folder_writes_nothing(finished, capsys, how, victim):
    """Issue 45, item 4: a rerun into a folder with a corrupted part wrote its new parts
    and manifest first, then raised (the CLI printed a full summary, exit 0). Every part
    is verified before anything is written: the rerun (more games or the same) is one
    line naming the part, exit 2, and every file is as it was."""
    out, _ = finished
    part = sorted(out.glob("part-*.parquet"))[victim]
    _damage(part, how, np.random.default_rng(victim))
    before = snapshot(out)
    for games in (3000, 4000):
        with pytest.raises(StoreError, match=part.name):
            simkit.simulate(GAME, games, seed=5, chunk_size=1000, out=out)
        assert part.name in one_line_error(capsys, run(out, games))
        assert snapshot(out) == before


def test_a_recovered_part_corrupted_in_any_column_is_not_adopted(finished, capsys):
    """A part on disk that the manifest does not list (its writer was killed before the
    save) is read whole before it is adopted: a flipped byte in a column other than
    the game indices is refused, not recorded with the checksum of the damage."""
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["parts"] = manifest["parts"][:2]
    manifest.pop("runs")
    write_signed(out, manifest)
    part = out / "part-000000002000-000000003000.parquet"
    meta = pq.ParquetFile(part).metadata
    column = meta.schema.names.index("attack_value")
    chunk = meta.row_group(0).column(column)
    data = bytearray(part.read_bytes())
    data[chunk.data_page_offset + chunk.total_compressed_size - 3] ^= 0xFF
    part.write_bytes(bytes(data))
    before = snapshot(out)
    assert part.name in one_line_error(capsys, run(out, 3000))
    assert snapshot(out) == before


def test_a_corrupted_part_on_read_only_media_is_refused(finished, read_only, capsys):
    out, _ = finished
    part = sorted(out.glob("part-*.parquet"))[1]
    _damage(part, "flipped byte", np.random.default_rng(1))
    assert part.name in one_line_error(capsys, run(out))


# -- read-only media ----------------------------------------------------------------------
@pytest.fixture
def read_only(monkeypatch):
    """Make every write into a results folder fail as on read-only media (root ignores
    permission bits, so the writer is patched)."""
    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(store.FolderLock, "acquire", refuse)
    monkeypatch.setattr(store, "_write_atomic", refuse)


def test_a_finished_run_on_read_only_media_prints_its_summary(finished, read_only, capsys):
    out, rows = finished
    before = snapshot(out)
    assert main([str(a) for a in run(out)]) == 0
    text = capsys.readouterr().out
    assert "played no new game" in text
    assert f"{(rows['winner'] == 'bourbons').sum():,}" in text
    assert snapshot(out) == before


def test_more_games_on_read_only_media_is_one_line(finished, read_only, capsys):
    out, _ = finished
    before = snapshot(out)
    line = one_line_error(capsys, run(out, 4000))
    assert "cannot be written (Read-only file system)" in line and "3,000 games" in line
    assert snapshot(out) == before


# -- full disk ------------------------------------------------------------------------------
def test_a_full_disk_is_one_line_and_keeps_the_parts_written(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    real_write = pq.write_table
    written = []

    def write_until_full(table, where, **kwargs):
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(where)
        real_write(table, where, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_until_full)
    line = one_line_error(capsys, [*run(out), "--jobs", 1])
    assert "No space left on device" in line
    monkeypatch.undo()
    assert len(list(out.glob("part-*.parquet"))) == 1
    assert not list(out.glob(".*.tmp"))  # the failed part left no temporary file
    resumed = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out)
    pd.testing.assert_frame_equal(resumed, simkit.simulate(GAME, 3000, seed=5))


def test_load_names_finished_parts_the_manifest_missed_and_a_rerun_recovers_them(
        finished, capsys):
    """A full disk can fail the manifest's last save after parts were renamed into
    place: load names those parts and says to rerun, and the rerun plays nothing."""
    out, rows = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["parts"] = []
    write_signed(out, manifest)
    parts = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*.parquet")}
    with pytest.raises(StoreError, match=r"holds no finished games yet; 3 finished part"
                                         r"\(s\) on disk .*part-0+-0+1000\.parquet"
                                         r".*rerun its command to recover them"):
        simkit.load(out)
    assert main([str(a) for a in run(out)]) == 0
    capsys.readouterr()
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("part-*.parquet")} == parts
    pd.testing.assert_frame_equal(simkit.load(out), rows)


# -- paths ---------------------------------------------------------------------------------
def test_out_under_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    line = one_line_error(capsys, run(tmp_path / "file" / "run"))
    assert "Not a directory" in line


def test_report_into_a_path_under_a_file_is_one_line(finished, capsys):
    out, _ = finished
    (out.parent / "file").write_text("x")
    one_line_error(capsys, ["report", out, "--out", out.parent / "file" / "report"])


def test_an_empty_out_is_refused(capsys):
    assert "folder name is empty" in one_line_error(capsys, run(""))


# -- numbers and repeated options ------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["run", GAME, "--games", "\u0663"], ["--games", "not a whole number"]),
    (["run", GAME, "--games", "1_0"], ["--games", "not a whole number"]),
    (["run", GAME, "--games", str(2**64)], ["at most 9,223,372,036,854,775,807 games"]),
    (["trace", GAME, "--game-index", str(2**63)], ["--game-index", "between 0 and"]),
    (["run", GAME, "--set", "breach_roll=5", "--set", "breach_roll=6"],
     ["--set breach_roll given more than once"]),
    (["run", GAME, "--policy", "greedy", "--policy", "random"], ["both name every side"]),
    (["run", GAME, "--policy", "catalans=cautious", "--policy", "catalans=greedy"],
     ["--policy catalans= given twice"]),
    (["run", GAME, "--scheduler", "tcp://127.0.0.1:8786"], ["--scheduler needs --backend dask"]),
    (["run", GAME, "--max-games", "100"], ["--max-games caps --until-ci"]),
    (["calibrate", GAME, "--knob", "breach_roll", "--set", "breach_roll=5"],
     ["conflicts with --knob breach_roll"]),
])
def test_ambiguous_or_out_of_range_input_is_one_line(capsys, argv, words):
    line = one_line_error(capsys, argv)
    for word in words:
        assert word in line


def test_a_side_policy_may_refine_an_every_side_policy(capsys):
    assert main(["run", "setembre1714", "--games", "20", "--policy", "random", "--policy",
                 "catalans=greedy", "--no-progress"]) == 0
    assert "policy bourbons=random catalans=greedy" in capsys.readouterr().out


# -- schedulers ----------------------------------------------------------------------------
def test_an_unreachable_scheduler_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr("simkit.cli.DASK_TIMEOUT", "2s")
    line = one_line_error(capsys, ["run", GAME, "--games", "10", "--backend", "dask",
                                   "--scheduler", "tcp://127.0.0.1:1"])
    assert "cannot use the dask scheduler 'tcp://127.0.0.1:1'" in line


def test_a_malformed_scheduler_address_is_one_line(capsys):
    line = one_line_error(capsys, ["run", GAME, "--games", "10", "--backend", "dask",
                                   "--scheduler", "nonsense://here"])
    assert "nonsense://here" in line


# -- engines and bookkeeping ---------------------------------------------------------------
def test_a_folder_of_another_engine_is_extended_only_when_allowed(finished, capsys):
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["engine"] = "0123456789abcdef"
    write_signed(out, manifest)
    before = snapshot(out)
    line = one_line_error(capsys, run(out, 4000))
    assert "played by engine 0123456789abcdef" in line and "--allow-other-engine" in line
    assert snapshot(out) == before
    assert main([str(a) for a in run(out, 4000, "--allow-other-engine")]) == 0
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["engine"] == "0123456789abcdef"  # what played the first games
    assert manifest["other_engines"] == [store.provenance()["engine"]]
    assert manifest["runs"][-1]["engine"] == store.provenance()["engine"]


def test_a_finished_run_resumed_rewrites_nothing(finished):
    out, rows = finished
    before = snapshot(out)
    info = RunInfo()
    again = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out, info=info)
    assert info.games_played == 0 and snapshot(out) == before
    pd.testing.assert_frame_equal(again, rows)


def test_one_game_chunks_save_the_manifest_a_few_times_not_once_a_chunk(tmp_path,
                                                                          monkeypatch):
    saves = []
    real_save = store.ResultStore._save
    monkeypatch.setattr(store.ResultStore, "_save",
                        lambda self: saves.append(1) or real_save(self))
    out = tmp_path / "run"
    rows = simkit.simulate(GAME, 400, seed=5, chunk_size=1, out=out)
    assert len(list(out.glob("part-*.parquet"))) == 400
    assert len(saves) < 40  # once a second at most while writing, then at the end
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert len(manifest["parts"]) == 400  # the last save holds every part
    pd.testing.assert_frame_equal(simkit.load(out), rows)


def test_the_manifest_records_what_made_the_games(finished):
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["engine"] == store.provenance()["engine"]
    assert manifest["simkit_version"] == simkit.__version__
    assert len(manifest["engine"]) == 16


def test_the_local_dask_cluster_is_tls_on_this_machine_only(capsys):
    assert main(["run", GAME, "--games", "300", "--no-progress"]) == 0
    threads = capsys.readouterr().out.split("\nplayed")[0]
    assert main(["run", GAME, "--games", "300", "--no-progress", "--backend", "dask"]) == 0
    assert capsys.readouterr().out.split("\nplayed")[0] == threads
    from simkit.cli import local_dask_cluster

    with local_dask_cluster(1) as cluster:
        assert cluster.scheduler_address.startswith("tls://127.0.0.1:")
        assert all(w.startswith("tls://127.0.0.1:") for w in cluster.scheduler_info["workers"])


def test_load_refuses_an_unfinished_folder_naming_the_missing_games(finished):
    """A run killed before its middle part was recorded: the manifest does not list it."""
    out, rows = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["parts"] = [p for p in manifest["parts"] if p["start"] != 1000]
    manifest.pop("runs")
    write_signed(out, manifest)
    (out / "part-000000001000-000000002000.parquet").unlink()
    with pytest.raises(StoreError, match=r"unfinished: games 1000\.\.1999 are missing "
                                         r"\(1,000 games\)"):
        simkit.load(out)
    pd.testing.assert_frame_equal(simkit.load(out, n_games=1000), rows.iloc[:1000])
    with pytest.raises(StoreError, match=r"games 1000\.\.1999 are missing"):
        simkit.load(out, n_games=2500)


@pytest.mark.parametrize("deleted", [0, 1, 2])
def test_a_deleted_part_is_refused_never_read_as_a_smaller_folder(finished, capsys, deleted):
    """Issue 45, item 3: deleting the last part shrank the folder without a word (load
    gave 2,000 rows, the ladder 2,000 games, exit 0). The manifest's games count: every
    deleted part, the last one too, is refused naming its games; a rerun replays it."""
    out, rows = finished
    part = sorted(out.glob("part-*.parquet"))[deleted]
    part.unlink()
    games = f"games {deleted * 1000}..{deleted * 1000 + 999} are missing"
    with pytest.raises(StoreError, match=games):
        simkit.load(out)
    for argv in (["ladder", out], ["report", out, "--out", out.parent / "report"]):
        assert games in one_line_error(capsys, argv)
    assert not (out.parent / "report").exists()
    info = RunInfo()
    again = simkit.simulate(GAME, 3000, seed=5, chunk_size=1000, out=out, info=info)
    assert info.games_played == 1000
    pd.testing.assert_frame_equal(again, rows)
    pd.testing.assert_frame_equal(simkit.load(out), rows)


def test_a_manifest_saved_without_a_replayed_part_still_counts_its_games(finished):
    """A rerun that dropped a deleted part from the manifest and was killed before
    replaying it: its finished runs still say 3,000 games, so load refuses 2,000."""
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["parts"] = [p for p in manifest["parts"] if p["start"] != 2000]
    write_signed(out, manifest)
    (out / "part-000000002000-000000003000.parquet").unlink()
    with pytest.raises(StoreError, match=r"unfinished: games 2000\.\.2999 are missing"):
        simkit.load(out)


def test_a_run_into_a_folder_holding_other_files_is_refused(tmp_path, capsys):
    experiment_folder = tmp_path / "sweep"
    experiment_folder.mkdir()
    (experiment_folder / "experiment.json").write_text("{}")
    line = one_line_error(capsys, run(experiment_folder))
    assert "is not empty and is not a results folder (it holds experiment.json)" in line
    assert sorted(p.name for p in experiment_folder.iterdir()) == sorted(
        ["experiment.json", store.LOCK])


def test_a_part_with_other_columns_is_refused_naming_it(finished):
    out, rows = finished
    victim = out / "part-000000002000-000000003000.parquet"
    frame = pq.read_table(victim).to_pandas().drop(columns="turns")
    manifest = json.loads((out / store.MANIFEST).read_text())
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), victim)
    for part in manifest["parts"]:
        if part["file"] == victim.name:
            part["sha256"] = store._sha256(victim)  # a consistent, foreign part
    write_signed(out, manifest)
    with pytest.raises(StoreError, match=rf"{victim.name}: its columns .* are not the run's"):
        simkit.load(out)


def test_an_edited_manifest_seed_is_refused(finished):
    """Edited by hand: its checksum refuses it; edited and re-signed: the parts' seeds."""
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest["spec"]["seed"] = 6
    (out / store.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(StoreError, match="does not match its checksum"):
        simkit.load(out)
    write_signed(out, manifest)
    with pytest.raises(StoreError, match=r"holds games of seed\(s\) \[5\], not the run's 6"):
        simkit.load(out)


# -- the manifest is checked like the parts ------------------------------------------------
def _counts_moved(manifest) -> dict:
    """Five wins moved from one winner to another in the first part's counts."""
    counts = manifest["parts"][0]["counts"]["winner"]
    loser, gainer = sorted(counts, key=counts.get)[-1], sorted(counts, key=counts.get)[0]
    counts[loser] -= 5
    counts[gainer] += 5
    return manifest


@pytest.mark.parametrize("edit", ["counts moved", "stop raised", "category removed",
                                  "no parts", "no spec", "no schema", "counts too large"])
def test_an_edited_manifest_is_refused_in_one_line_and_kept(finished, capsys, edit):
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    if edit == "counts moved":
        _counts_moved(manifest)
    elif edit == "stop raised":
        manifest["parts"][0]["stop"] += 20
    elif edit == "category removed":
        manifest["schema"]["winner"]["categories"].pop(0)
    elif edit == "counts too large":
        first = manifest["parts"][0]["counts"]["winner"]
        first[next(iter(first))] += 10_000
    else:
        manifest.pop(edit.split()[1])
    (out / store.MANIFEST).write_text(json.dumps(manifest))
    before = snapshot(out)
    line = one_line_error(capsys, run(out, 4000))
    assert "manifest.json" in line
    assert snapshot(out) == before
    with pytest.raises(StoreError):
        simkit.load(out)


@pytest.mark.parametrize("edit, words", [
    ("counts moved", "'winner' counts do not add up|do not add up"),
    ("stop raised", "records 1000 rows for games 0..1019"),
    ("no parts", "lacks 'parts'"),
])
def test_a_manifest_signed_again_is_still_checked_for_sense(finished, edit, words):
    """A manifest whose checksum was recomputed after an edit passes the checksum, but
    its keys and each part's rows and counts must still add up."""
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    if edit == "counts moved":
        manifest["parts"][0]["counts"]["winner"][next(iter(
            manifest["parts"][0]["counts"]["winner"]))] += 5
    elif edit == "stop raised":
        manifest["parts"][0]["stop"] += 20
    else:
        manifest.pop("parts")
    write_signed(out, manifest)
    with pytest.raises(StoreError, match=words):
        simkit.load(out)


def test_a_category_missing_from_a_signed_manifest_is_refused_not_read_as_missing(finished):
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    won = simkit.load(out)["winner"].astype(str).value_counts().index[0]
    manifest["schema"]["winner"]["categories"].remove(won)
    write_signed(out, manifest)
    with pytest.raises(StoreError, match=f"holds {won}, not among the manifest's categories"):
        simkit.load(out)


def _rules_edited(manifest) -> dict:
    """The run's rules changed: the games were played at salvo_units 6, the manifest
    now says 4 (a rerun would add games at 4 and report them all as 4)."""
    manifest["spec"]["rules"]["salvo_units"] = 4
    return manifest


@pytest.mark.parametrize("edit", ["none", "counts moved", "rules edited"])
def test_a_manifest_without_its_checksum_is_refused_naming_the_folder_and_the_rebuild(
        finished, capsys, edit):
    """Issue 45, item 2: a manifest whose checksum line is deleted was read unchecked
    (edited counts printed as the truth, games at another rule mixed in). It is refused
    in one line naming the folder and how to rebuild it, by load and by a rerun, and
    nothing in the folder changes."""
    out, _ = finished
    manifest = json.loads((out / store.MANIFEST).read_text())
    manifest.pop("checksum")
    {"none": dict, "counts moved": _counts_moved, "rules edited": _rules_edited}[edit](
        manifest)
    (out / store.MANIFEST).write_text(json.dumps(manifest))
    before = snapshot(out)
    with pytest.raises(StoreError, match="has no checksum") as refused:
        simkit.load(out)
    assert f"move {out} aside and rerun the command that made it" in str(refused.value)
    rules = ["--set", "salvo_units=4"] if edit == "rules edited" else []
    for argv in (run(out, 3000, *rules), run(out, 4000, *rules), ["ladder", out],
                 ["report", out, "--out", out.parent / "report"]):
        line = one_line_error(capsys, argv)
        assert "manifest.json: has no checksum" in line and str(out) in line
    assert snapshot(out) == before
