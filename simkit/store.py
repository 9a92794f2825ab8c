"""Results folders: ``manifest.json`` plus zstd parquet parts, atomic and resumable.

A part holds the rows of games ``[start, stop)`` and is named after that range, so the
files themselves say which games are done. Every file is written under a temporary name
and renamed into place: a killed run loses at most the parts in flight, never leaves a
half-written part, and rerunning the same command fills only the gaps. The manifest
records what was asked (game, rules, policy, seed), simkit's version, git commit and engine
(a hash of the engine sources), the outcome schema, times and the parts, each with its
sha256; parquet page checksums are written and verified too. A folder holding another run is
never overwritten, and one written by another engine is extended only when asked to
(``allow_other_engine``), since its games could differ. The manifest is saved at most once a
second while parts are written (a kill loses only entries the part files still prove), so
a run's bookkeeping grows linearly with its parts.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simkit import _numba_cache
from simkit.datafile import describe_files
from simkit.errors import StoreError

MANIFEST = "manifest.json"
LOCK = ".simkit.lock"
FORMAT = 1
_PART = re.compile(r"^part-(\d{12,19})-(\d{12,19})\.parquet$")
#: game indices are int64 (the rows' ``game_index`` column and the kernels' index vector)
MAX_GAMES = int(np.iinfo(np.int64).max)
SAVE_EVERY = 1.0  # seconds between manifest saves while parts are written


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()  # what open() would give; mkstemp's own is 0600


def _write_atomic(path: Path, write) -> None:
    """Call ``write(tmp_path)``, then rename the file over ``path`` in one step."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def part_name(start: int, stop: int) -> str:
    return f"part-{start:012d}-{stop:012d}.parquet"


def missing_ranges(done: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The gaps of ``[0, n)`` not covered by the sorted ``done`` ranges."""
    gaps, cursor = [], 0
    for start, stop in sorted(done):
        if start > cursor:
            gaps.append((cursor, min(start, n)))
        cursor = max(cursor, stop)
        if cursor >= n:
            break
    if cursor < n:
        gaps.append((cursor, n))
    return [(a, b) for a, b in gaps if a < b]


class FolderLock:
    """One writer per folder: an exclusive ``flock`` on ``LOCK`` inside it, held until
    ``release`` (or the process ends, which the OS releases even on a kill)."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / LOCK
        self.fd: int | None = None

    def acquire(self) -> FolderLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, _FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise StoreError(f"{self.path.parent} is being written by another simkit "
                             f"process (pid {holder}); wait for it to finish or choose "
                             "another folder") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


#: the temporary files simkit itself writes (``_write_atomic``), and only those
_OWN_TEMP = (".part-*.parquet.*.tmp", f".{MANIFEST}.*.tmp")


class ResultStore:
    """One results folder, opened for one run specification by one writer at a time."""

    def __init__(self, path: Path, manifest: dict, lock: FolderLock | None = None):
        self.path = path
        self.manifest = manifest
        self.lock = lock
        self.read_only: str | None = None  # why the folder cannot be written, if it cannot
        self.allow_other_engine = False
        self._saved = time.monotonic()
        self._unsaved = False

    @classmethod
    def open(cls, path, spec: dict, schema: dict, data: dict | None = None) -> ResultStore:
        """Open ``path`` for ``spec``, creating it, and lock it for this writer until
        ``close``; StoreError if it holds another run or another writer holds it, or games
        played with other data files (``data``: ``DataFolder.record()``)."""
        path = Path(path)
        if str(path) == "":
            raise StoreError("the results folder name is empty")
        if path.exists() and not path.is_dir():
            raise StoreError(f"results path {path} exists and is not a folder")
        path.mkdir(parents=True, exist_ok=True)
        try:
            lock = FolderLock(path).acquire()
        except OSError as exc:  # read-only media: a finished run can still be read
            if not (path / MANIFEST).exists():
                raise StoreError(f"cannot write results into {path}: "
                                 f"{exc.strerror or exc}") from None
            store = cls(path, read_manifest(path))
            _check_same_run(path, store.manifest["spec"], spec)
            _check_same_data(path, store.manifest, data)
            verify_parts(path, store.manifest)
            store.read_only = f"{exc.strerror or exc}"
            store._reconcile()
            return store
        try:
            return cls._open_locked(path, spec, schema, lock, data)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _open_locked(cls, path: Path, spec: dict, schema: dict, lock: FolderLock,
                     data: dict | None):
        new = not (path / MANIFEST).exists()
        if not new:  # everything checked before anything is written
            manifest = read_manifest(path)
            _check_same_run(path, manifest["spec"], spec)
            _check_same_data(path, manifest, data)
            verify_parts(path, manifest)
        for pattern in _OWN_TEMP:  # left by a killed writer (no other writer is running)
            for stray in path.glob(pattern):
                stray.unlink(missing_ok=True)
        if new:
            others = sorted(p.name for p in path.iterdir() if p.name != LOCK)
            if others:
                raise StoreError(f"{path} is not empty and is not a results folder (it holds "
                                 f"{', '.join(others[:3])}{' ...' if len(others) > 3 else ''})"
                                 "; choose an empty or new folder")
            manifest = {"format": FORMAT, "spec": spec, "schema": schema, "parts": [],
                        **provenance(), "created": _now(), "updated": _now()}
        recorded = data is not None and manifest.get("data") != data
        if recorded:  # the data of a new folder, or of one from before data was recorded
            manifest["data"] = data
        store = cls(path, manifest, lock)
        if store._reconcile() or new or recorded:  # nothing is rewritten when nothing changed
            store._save()
        return store

    def check_engine(self) -> None:
        """Before adding games: refuse a read-only folder, and one whose games were played
        by another engine (unless ``allow_other_engine``: then the new engine is recorded
        too)."""
        if self.read_only is not None:
            held = sum(p["stop"] - p["start"] for p in self.manifest["parts"])
            raise StoreError(f"{self.path} cannot be written ({self.read_only}); it holds "
                             f"{held:,} games: ask for at most those, or copy it elsewhere")
        ours, theirs = _numba_cache.source_hash(), self.manifest.get("engine")
        if not self.manifest["parts"] or theirs == ours:
            return
        if not self.allow_other_engine:
            raise StoreError(
                f"{self.path} was played by engine {theirs or 'unknown'} (simkit "
                f"{self.manifest.get('simkit_version')}, commit "
                f"{self.manifest.get('git_commit') or 'unknown'}) and this simkit's engine "
                f"is {ours}: new games could differ from the old ones. Use another folder, "
                "or allow the other engine (--allow-other-engine) to extend it anyway")
        engines = self.manifest.setdefault("other_engines", [])
        if ours not in engines:
            engines.append(ours)

    def close(self) -> None:
        """Save what is not saved yet and let another writer in."""
        try:
            if self._unsaved:
                self._save()
        finally:
            if self.lock is not None:
                self.lock.release()

    def done_ranges(self) -> list[tuple[int, int]]:
        return sorted((p["start"], p["stop"]) for p in self.manifest["parts"])

    def missing(self, n_games: int) -> list[tuple[int, int]]:
        return missing_ranges(self.done_ranges(), n_games)

    def write_part(self, start: int, stop: int, frame: pd.DataFrame,
                   counts: dict | None = None) -> None:
        """Write the rows of games ``[start, stop)`` atomically, then record the part.

        ``counts`` (outcome column -> {value: games}) is kept in the manifest so that a
        reopened folder knows its rates without reading every part.
        """
        table = pa.Table.from_pandas(frame, preserve_index=False)
        target = self.path / part_name(start, stop)
        _write_atomic(target, lambda tmp: pq.write_table(
            table, tmp, compression="zstd", write_page_checksum=True))
        entry = {"file": target.name, "start": start, "stop": stop, "rows": len(frame),
                 "sha256": _sha256(target), "written": _now()}
        if counts is not None:
            entry["counts"] = counts
        self.manifest["parts"].append(entry)
        self._unsaved = True
        if time.monotonic() - self._saved >= SAVE_EVERY:
            self._save()

    def _part(self, start: int) -> dict:
        return next(p for p in self.manifest["parts"] if p["start"] == start)

    def part_counts(self, start: int) -> dict | None:
        """The outcome counts recorded for the part beginning at ``start``, if any."""
        return self._part(start).get("counts")

    def read_part(self, start: int) -> pd.DataFrame:
        """The rows of the part that begins at game ``start``."""
        return _read_table(self.path / self._part(start)["file"]).to_pandas()

    def finish(self, **info) -> None:
        """Record a run that played games (a run that played none changes nothing)."""
        if info.get("games_played"):
            self.manifest.setdefault("runs", []).append(
                {"finished": _now(), "engine": _numba_cache.source_hash(),
                 "git_commit": _git_commit(), **info})
            self._save()
        elif self._unsaved:
            self._save()

    def _reconcile(self) -> bool:
        """Trust the part files: a part renamed into place before a kill still counts.
        True if the manifest changed."""
        before = [p["file"] for p in self.manifest["parts"]]
        for file in _unlisted_parts(self.path, self.manifest):
            m = _PART.match(file.name)
            if m is None:
                raise StoreError(f"{file}: unexpected file name in a results folder")
            start, stop = int(m.group(1)), int(m.group(2))
            _check_part_rows(file, start, stop, self.manifest["spec"].get("seed"),
                             whole=True)
            self.manifest["parts"].append({"file": file.name, "start": start,
                                           "stop": stop, "rows": stop - start,
                                           "sha256": _sha256(file),
                                           "written": "recovered"})
        present = {f.name for f in self.path.glob("part-*.parquet")}
        self.manifest["parts"] = [p for p in self.manifest["parts"] if p["file"] in present]
        return [p["file"] for p in self.manifest["parts"]] != before

    def _save(self) -> None:
        self._saved, self._unsaved = time.monotonic(), False
        self.manifest["updated"] = _now()
        self.manifest["checksum"] = manifest_checksum(self.manifest)
        text = json.dumps(self.manifest, indent=2)
        _write_atomic(self.path / MANIFEST, lambda tmp: Path(tmp).write_text(text))


def _version() -> str:
    from simkit import __version__

    return __version__


def provenance() -> dict:
    """What made a folder's games: simkit's version, git commit and engine source hash."""
    return {"simkit_version": _version(), "git_commit": _git_commit(),
            "engine": _numba_cache.source_hash()}


def manifest_checksum(manifest: dict) -> str:
    """sha256 of the manifest's content (every key but the checksum, keys sorted)."""
    content = {k: v for k, v in manifest.items() if k != "checksum"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def read_manifest(path) -> dict:
    """The folder's manifest, checked like its parts: its checksum (a manifest without
    one, edited or older than checksums, is refused: nothing else can tell an edited
    rule or count), its keys, and each part's games and counts adding up; StoreError
    naming the problem otherwise."""
    file = Path(path) / MANIFEST
    try:
        manifest = json.loads(file.read_text())
    except FileNotFoundError:
        raise StoreError(f"{path} is not a results folder (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StoreError(f"{file}: unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StoreError(f"{file}: not a simkit manifest of format {FORMAT}")
    if "checksum" not in manifest:
        raise StoreError(f"{file}: has no checksum (edited, or written by a simkit from "
                         "before manifests had one), so its rules and counts cannot be "
                         f"trusted; rebuild the folder: move {path} aside and rerun the "
                         "command that made it into a new folder")
    if manifest["checksum"] != manifest_checksum(manifest):
        raise StoreError(f"{file}: its content does not match its checksum (edited or "
                         "corrupted); its parts are intact: move the folder aside and "
                         "rerun into a new one")
    _check_manifest_keys(file, manifest)
    return manifest


_MANIFEST_KEYS = {"spec": dict, "schema": dict, "parts": list}
_PART_KEYS = {"file": str, "start": int, "stop": int, "rows": int}


def _check_manifest_keys(file: Path, manifest: dict) -> None:
    for key, kind in _MANIFEST_KEYS.items():
        if not isinstance(manifest.get(key), kind):
            raise StoreError(f"{file}: {'lacks' if key not in manifest else 'has a bad'} "
                             f"'{key}' ({kind.__name__} expected); the folder cannot be "
                             "trusted: move it aside and rerun into a new one")
    for part in manifest["parts"]:
        _check_part_entry(file, part)


def _check_part_entry(file: Path, part) -> None:
    """A part entry's keys, and its games and outcome counts adding up."""
    bad = not isinstance(part, dict) or any(
        not isinstance(part.get(k), t) or isinstance(part.get(k), bool)
        for k, t in _PART_KEYS.items())
    if bad:
        raise StoreError(f"{file}: a part entry lacks one of {', '.join(_PART_KEYS)}: "
                         f"{str(part)[:80]}")
    name, games = part["file"], part["stop"] - part["start"]
    if part["rows"] != games or games <= 0:
        raise StoreError(f"{file}: part {name} records {part['rows']} rows for games "
                         f"{part['start']}..{part['stop'] - 1}")
    for column, counts in (part.get("counts") or {}).items():
        values = list(counts.values()) if isinstance(counts, dict) else [None]
        if not all(isinstance(v, int) and v >= 0 for v in values) or sum(values) != games:
            raise StoreError(f"{file}: part {name}'s '{column}' counts do not add up to its "
                             f"{games} games")


def _check_same_run(path: Path, stored: dict, spec: dict) -> None:
    differ = sorted(k for k in set(stored) | set(spec) if stored.get(k) != spec.get(k))
    if differ:
        details = "; ".join(f"{k}: stored {stored.get(k)!r}, asked {spec.get(k)!r}"
                            for k in differ)
        raise StoreError(f"{path} holds a different run ({details}); "
                         "choose another folder or delete this one")


def _edited(data: dict) -> list[str]:
    """The user's files that differ from the package's (folders from before edited files
    were recorded: every user file)."""
    return data.get("edited_files", data.get("user_files")) or []


def _describe_data(data: dict) -> str:
    return describe_files(_edited(data), data.get("user_folder"))


def _check_same_data(path: Path, manifest: dict, data: dict | None) -> None:
    """Refuse to add games played with other data files than the folder's: a folder
    from before data was recorded is taken to hold the package's files."""
    theirs = manifest.get("data")
    if data is None or not manifest.get("parts"):
        return
    if theirs is None:
        if _edited(data):
            raise StoreError(f"{path} was played with the package's data files (before "
                             "their digest was recorded) and this run plays "
                             f"{_describe_data(data)}; use another folder")
        return
    if theirs.get("digest") != data.get("digest"):
        raise StoreError(
            f"{path} was played with data {theirs.get('digest')} ({_describe_data(theirs)}) "
            f"and this run's data is {data.get('digest')} ({_describe_data(data)}): its "
            "games would differ; use another folder")


def _sha256(file: Path) -> str:
    digest = hashlib.sha256()
    with open(file, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_part_rows(file: Path, start: int, stop: int, seed, whole: bool = False) -> None:
    """A part holds exactly games ``[start, stop)`` of the run's seed, or is refused.
    ``whole``: read every column (every page's checksum verified), not only those two."""
    table = _read_table(file, None if whole else ["game_index", "seed"])
    index = table.column("game_index").to_numpy()
    if len(index) != stop - start or (index != np.arange(start, stop)).any():
        raise StoreError(f"{file}: its games are not exactly {start}..{stop - 1} as its name "
                         "says; delete it and rerun to replay them")
    if seed is not None and (table.column("seed").to_numpy() != np.uint64(seed)).any():
        raise StoreError(f"{file}: holds games of another seed than this run's {seed}; "
                         "delete it and rerun to replay them")


def held_games(manifest: dict) -> int:
    """The games a folder's manifest says it holds: as many as its finished runs asked
    for, and every game of the parts it lists (a part deleted since is still counted:
    the folder is then refused as damaged, never read as a smaller one)."""
    asked = [r["n_games"] for r in manifest.get("runs") or []
             if isinstance(r, dict) and isinstance(r.get("n_games"), int)]
    return max([*asked, *(p["stop"] for p in manifest["parts"])], default=0)


def _sorted_parts(path: Path, manifest: dict) -> list[dict]:
    """The manifest's parts in game order, none overlapping another."""
    parts = sorted(manifest["parts"], key=lambda p: (p["start"], p["stop"]))
    for before, part in zip(parts, parts[1:], strict=False):
        if part["start"] < before["stop"]:
            raise StoreError(f"{path / part['file']} overlaps {before['file']}: one of "
                             "them is stray; delete it (the other keeps its games)")
    return parts


def _check_part_file(path: Path, part: dict, seed) -> None:
    """A listed part's file is the one written: its sha256 as recorded (a part
    recorded without one: every page readable and exactly its games of ``seed``)."""
    file = path / part["file"]
    if "sha256" not in part:
        _check_part_rows(file, part["start"], part["stop"], seed, whole=True)
    elif _sha256(file) != part["sha256"]:
        raise StoreError(f"{file}: its checksum does not match the manifest (the file "
                         "is corrupted); delete it and rerun to replay its games")


def verify_parts(path: Path, manifest: dict) -> None:
    """Every part file the manifest lists and the folder holds is intact (a part
    deleted since is a gap a rerun replays): checked before a run adds anything, so a
    corrupted folder is refused with nothing written."""
    seed = manifest["spec"].get("seed")
    for part in _sorted_parts(path, manifest):
        if (path / part["file"]).exists():
            _check_part_file(path, part, seed)


def _verified_parts(path: Path, manifest: dict, n_games: int | None) -> list[dict]:
    """The manifest's parts (of the first ``n_games`` games) in game order, each checked
    against its recorded sha256, none overlapping another: a corrupted, stray,
    overlapping or deleted part is refused."""
    parts = _sorted_parts(path, manifest)
    if n_games is not None:
        parts = [p for p in parts if p["start"] < n_games]
    gone = [p for p in parts if not (path / p["file"]).exists()]
    if gone:
        games = ", ".join(f"{p['start']}..{p['stop'] - 1}" for p in gone[:3])
        raise StoreError(f"{path}: games {games} are missing{' ...' if len(gone) > 3 else ''}"
                         f" ({sum(p['stop'] - p['start'] for p in gone):,} games): its "
                         f"manifest lists {gone[0]['file']}"
                         f"{f' and {len(gone) - 1} more part(s)' if len(gone) > 1 else ''}"
                         ", deleted or moved since; rerun its command to replay them")
    for part in parts:
        if "sha256" in part:
            _check_part_file(path, part, None)
    return parts


def _seeds(file: Path) -> set[int]:
    """The seeds a part's rows carry, from its column statistics (no data read), or from
    the column itself when a row group has none."""
    try:
        meta = pq.ParquetFile(file).metadata
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{file}: unreadable part: {exc}") from None
    column = meta.schema.names.index("seed") if "seed" in meta.schema.names else None
    if column is None:
        return set()
    found: set[int] = set()
    for group in range(meta.num_row_groups):
        stats = meta.row_group(group).column(column).statistics
        if stats is None or not stats.has_min_max:
            return {int(v) for v in np.unique(_read_table(file, ["seed"]).column(0))}
        found |= {int(stats.min), int(stats.max)}
    return found


def _read_table(file: Path, columns: list[str] | None = None) -> pa.Table:
    """A part's table without the pandas metadata of its footer: the manifest's schema
    and arrow's own types say all simkit needs, and the footer has no checksum (a
    flipped bit there once made pandas raise UnicodeDecodeError)."""
    try:
        table = pq.read_table(file, columns=columns, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise StoreError(f"{file}: unreadable part: {exc}") from None
    return table.replace_schema_metadata(None)


def _check_complete(path: Path, index: np.ndarray, n_games: int | None) -> None:
    """The rows are games ``0..n-1``, each once, in order (``n`` = ``n_games`` or as many
    as the folder holds); otherwise a StoreError names what is missing."""
    n = len(index) if n_games is None else n_games
    if len(index) == n and (n == 0 or (index[0] == 0 and index[-1] == n - 1
                                       and (np.diff(index) == 1).all())):
        return
    held = np.unique(index)
    if len(held) != len(index):
        raise StoreError(f"{path} holds some games twice; delete its stray parts")
    want = max(n, int(index.max()) + 1 if len(index) else 0)
    gaps = missing_ranges(_runs(held), want)
    shown = ", ".join(f"{a}..{b - 1}" for a, b in gaps[:3]) + (" ..." if len(gaps) > 3 else "")
    raise StoreError(f"{path} is unfinished: games {shown} are missing "
                     f"({sum(b - a for a, b in gaps):,} games); rerun its command to play them")


def _unlisted_note(path: Path, manifest: dict) -> str:
    """Finished parts on disk that the manifest does not list (its last save failed, on
    a full disk say): named, since a rerun recovers them without replaying their games."""
    unlisted = [f.name for f in _unlisted_parts(path, manifest)]
    if not unlisted:
        return ""
    shown = ", ".join(unlisted[:3]) + (" ..." if len(unlisted) > 3 else "")
    return (f"; {len(unlisted)} finished part(s) on disk are not in its manifest yet "
            f"({shown}): rerun its command to recover them")


def _unlisted_parts(path: Path, manifest: dict) -> list[Path]:
    """Part files in the folder that its manifest does not list, by name."""
    listed = {p["file"] for p in manifest["parts"]}
    return sorted(f for f in path.glob("part-*.parquet") if f.name not in listed)


def _runs(index: np.ndarray) -> list[tuple[int, int]]:
    """Sorted unique indices as ``[start, stop)`` runs."""
    breaks = np.flatnonzero(np.diff(index) != 1) + 1
    return [(int(chunk[0]), int(chunk[-1]) + 1) for chunk in np.split(index, breaks)]


def load(path, n_games: int | None = None, columns: list[str] | None = None) -> pd.DataFrame:
    """All rows of a results folder (or of its first ``n_games`` games), in game order:
    every game exactly once, as many as its manifest says it holds (``held_games``: an
    unfinished or damaged folder is refused, naming the missing games).

    Outcome columns declared categorical come back as pandas categoricals with the
    game's full category list, whichever categories occurred. ``columns`` reads only
    those columns (``game_index`` is always read).
    """
    path = Path(path)
    manifest = read_manifest(path)
    if columns is not None:
        unknown = sorted(set(columns) - set(manifest["schema"]))
        if unknown:
            raise StoreError(f"{path} has no column(s) {', '.join(unknown)}; columns: "
                             f"{', '.join(manifest['schema'])}")
        columns = ["game_index", *(c for c in columns if c != "game_index")]
    parts = _verified_parts(path, manifest, n_games)
    tables = [_read_table(path / part["file"], columns) for part in parts]
    expected = columns or list(manifest["schema"])
    seed = manifest["spec"].get("seed")
    for part, table in zip(parts, tables, strict=True):
        if table.column_names != expected:
            raise StoreError(f"{path / part['file']}: its columns ({', '.join(table.column_names)})"
                             f" are not the run's ({', '.join(expected)}); it is foreign: "
                             "delete it and rerun to replay its games")
        seeds = _seeds(path / part["file"]) if seed is not None else {seed}
        if seeds != {seed}:
            raise StoreError(f"{path / part['file']}: holds games of seed(s) "
                             f"{sorted(seeds)}, not the run's {seed} "
                             "(was the manifest edited?); the folder cannot be trusted")
    if not tables:
        raise StoreError(f"{path} holds no finished games yet{_unlisted_note(path, manifest)}")
    frame = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    if n_games is not None:
        frame = frame[frame["game_index"] < n_games].reset_index(drop=True)
    try:
        _check_complete(path, frame["game_index"].to_numpy(),
                        held_games(manifest) if n_games is None else n_games)
    except StoreError as exc:
        raise StoreError(f"{exc}{_unlisted_note(path, manifest)}") from None
    for name, column in manifest["schema"].items():
        if column.get("dtype") == "category" and name in frame:
            values = frame[name].astype("category")
            unknown = sorted(set(values.cat.categories) - set(column.get("categories", [])))
            if unknown:
                raise StoreError(f"{path}: column {name!r} holds {', '.join(map(str, unknown))}"
                                 f", not among the manifest's categories; the folder cannot "
                                 "be trusted")
            frame[name] = values.cat.set_categories(column["categories"])
    return frame
