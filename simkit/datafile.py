"""The one reader of every game's TOML data files (components, decks, presets).

``DataFile(path)`` parses a file and offers typed look-ups whose errors all read
``<file>: <entry>: <problem>`` and name what is allowed, raised as ``ComponentError``.
Components the rulebooks do not print are reconstructions; a designer who owns the printed
components replaces the files, so every check a replacement must pass is made on load.

``with recording() as log:`` makes every typed look-up append a ``Check`` (file, entry,
key, kind, allowed range or names, optional and default) to ``log``; docs/data/generate.py
writes each game's data reference from it. Outside such a block a look-up costs one test
of ``_log`` and behaves exactly as without the recorder.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import ComponentError

_MISSING = object()
#: the ``default`` of a look-up whose key must be present
REQUIRED = _MISSING


# -- the recorder ---------------------------------------------------------------------------

#: the list look-ups append to while ``recording()`` is active; None otherwise
_log: list[Check] | None = None


@dataclass(frozen=True)
class Check:
    """One look-up a validator made: in ``file``, ``entry`` (normalised: the id or index
    of a repeated entry stripped, so one row stands for every space or card), ``key`` of
    ``kind`` (``list`` with ``item`` for a list; ``None`` for the allowed-keys check of
    ``only``, whose names are ``choices``), within ``range`` or one of ``choices``;
    ``optional`` with ``default`` when the key may be left out; ``value`` is what the
    file holds there."""

    file: str
    entry: str
    key: str | None
    kind: type | None
    item: type | None = None
    range: tuple | None = None
    choices: tuple | None = None
    optional: bool = False
    default: Any = None
    top: bool = False  # the key is one of the file's own (top-level) keys
    value: Any = None  # the value found (None if absent), to tell entries apart


@contextmanager
def recording() -> Iterator[list[Check]]:
    """Record every typed look-up made inside the block (nested blocks each get their
    own list; the outer one resumes after)."""
    global _log
    outer, _log = _log, []
    try:
        yield _log
    finally:
        _log = outer


_ARRAY_ID = re.compile(r"^(\[\[\w+\]\]) [A-Za-z_][\w\-]*$")  # "[[zone]] ribera"
_QUOTED = re.compile(r"""\s*(?:'[^']*'|"[^"]*")""")  # "space '15'", "[[card]] 'Sack'"
_INDEX = re.compile(r"\s*\(?#\d+\)?|\s+\d+\b")  # "[[space]] #3", "(#2)", "position 4"
_NAMED = re.compile(r"^(\w+) \[[^\]]+\]$")  # "preset [standard]"


def normalise_entry(entry: str) -> str:
    """``entry`` as one row for every repeated entry: "space '15'" and "[[space]] #3" are
    "[[space]]", "[[festival]] 'Imbolc' objective #2" is "[[festival]] objective",
    "preset [standard]" is "[<preset>]"."""
    named = _NAMED.match(entry)
    if named:
        return f"[<{named.group(1)}>]"
    stripped = _ARRAY_ID.sub(r"\1", entry)
    stripped = _INDEX.sub("", _QUOTED.sub("", stripped)).strip()
    if stripped != entry and re.fullmatch(r"\w+", stripped):
        return f"[[{stripped}]]"  # "card 5", "die 'white'": one [[card]], [[die]] each
    return stripped


def _record(doc: DataFile, table, key, kind, entry, default, **allowed) -> None:
    _log.append(Check(doc.path.name, normalise_entry(entry), key, kind,
                      optional=default is not _MISSING,
                      default=None if default is _MISSING else default,
                      top=table is doc.data,
                      value=table.get(key) if key is not None and isinstance(table, Mapping)
                      else None, **allowed))


def kind_name(kind: type) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false",
            list: "a list", dict: "a table"}.get(kind, kind.__name__)


def _is(value, kind: type) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


class DataFile:
    """One data file: its parsed TOML and look-ups whose errors name the file and entry."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        try:
            self.data = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ComponentError(f"{self.path}: cannot read the file: {exc}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ComponentError(f"{self.path}: not valid TOML: {exc}") from None

    def error(self, entry: str, problem: str) -> ComponentError:
        return ComponentError(f"{self.path}: {entry}: {problem}")

    def get(self, table: Mapping, key: str, kind: type, entry: str, default=_MISSING):
        """``table[key]`` checked to be of ``kind`` (int excludes bool)."""
        if _log is not None:
            _record(self, table, key, kind, entry, default)
        return self._get(table, key, kind, entry, default)

    def _get(self, table: Mapping, key: str, kind: type, entry: str, default=_MISSING):
        if key not in table:
            if default is _MISSING:
                raise self.error(entry, f"missing key {key!r}")
            return default
        value = table[key]
        if not _is(value, kind):
            raise self.error(entry, f"{key!r} must be {kind_name(kind)}, got {value!r}")
        return value

    def number(self, table: Mapping, key: str, entry: str, lo, hi, default=_MISSING,
               kind: type = int):
        """``table[key]``, a number of ``kind`` within ``lo..hi``."""
        if _log is not None:
            _record(self, table, key, kind, entry, default, range=(lo, hi))
        value = self._get(table, key, kind, entry, default)
        if not lo <= value <= hi:
            raise self.error(entry, f"{key!r} = {value!r} is out of range {lo}..{hi}")
        return value

    def choice(self, table: Mapping, key: str, allowed: Iterable[str], entry: str,
               default=_MISSING) -> str:
        """``table[key]``, one of the names ``allowed``."""
        allowed = tuple(allowed)
        if _log is not None:
            _record(self, table, key, str, entry, default, choices=allowed)
        value = self._get(table, key, str, entry, default)
        if value not in allowed:
            raise self.error(entry, f"{key!r} = {value!r} is not one of: {', '.join(allowed)}")
        return value

    def items(self, table: Mapping, key: str, kind: type, entry: str, default=_MISSING):
        """``table[key]`` checked to be a list whose items are all of ``kind``."""
        if _log is not None:
            _record(self, table, key, list, entry, default, item=kind)
        values = self._get(table, key, list, entry, default)
        for v in values:
            if not _is(v, kind):
                raise self.error(entry, f"{key!r} must hold {kind_name(kind)} items, "
                                        f"got {v!r}")
        return values

    def table(self, key: str, entry: str | None = None, within: Mapping | None = None) -> dict:
        """The table ``[key]`` (of the file, or of ``within``)."""
        table = self.data if within is None else within
        if _log is not None:
            _record(self, table, key, dict, entry or f"[{key}]", _MISSING)
        return self._get(table, key, dict, entry or f"[{key}]")

    def tables(self, key: str) -> list[dict]:
        """The array of tables ``[[key]]``."""
        if _log is not None:
            _record(self, self.data, key, list, f"[[{key}]]", _MISSING, item=dict)
        rows = self._get(self.data, key, list, f"[[{key}]]")
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise self.error(f"[[{key}]] #{i + 1}", f"must be a table, got {row!r}")
        return rows

    def printed(self, entry: str, what: str, found, rulebook, source: str,
                holds: bool | None = None) -> None:
        """Refuse a value that contradicts the rulebook: ``found`` must equal ``rulebook``
        (or, for a printed fact that is not one value, ``holds`` must be true, with
        ``rulebook`` saying it in words: "at least 6"); the error names the file, the
        entry, the value found, the rulebook's and where it prints it (``source``)."""
        if not (found == rulebook if holds is None else holds):
            raise self.error(entry, f"{what} = {found!r}; the rulebook prints {rulebook} "
                                    f"({source})")

    def only(self, table: Mapping, allowed, entry: str) -> None:
        """Refuse keys outside ``allowed`` (a misspelt key must not be silently ignored)."""
        if _log is not None:
            _record(self, table, None, None, entry, _MISSING, choices=tuple(sorted(allowed)))
        unknown = sorted(set(table) - set(allowed))
        if unknown:
            raise self.error(entry, f"unknown keys {unknown}; allowed: {sorted(allowed)}")


def frozen(a) -> np.ndarray:
    """A contiguous read-only copy of ``a``: static components are never written."""
    a = np.array(a, copy=True, order="C")
    a.setflags(write=False)
    return a


class DataFolder:
    """A game's data files: the package's, each replaced by the user's file of the same
    name where the user's folder (``simkit run --data DIR``) holds one.

    ``folder / "board.toml"`` is the path to read. The user's folder may hold any subset
    of the game's files and nothing else (a file the game does not have is an error
    naming the files it has). ``digest`` hashes the name and bytes of every file played,
    for the manifest; ``user_files`` names the files taken from the user's folder and
    ``edited_files`` those of them that differ from the package's (an exported file left
    as it was is still the package's component)."""

    def __init__(self, package: Path, user: Path | str | None = None):
        self.package = Path(package)
        self.user = None if user is None else Path(user)
        self.names = sorted(p.name for p in self.package.glob("*.toml"))
        self.user_files = self._check_user() if self.user is not None else []
        self.edited_files = [name for name in self.user_files if (self.user / name)
                             .read_bytes() != (self.package / name).read_bytes()]
        self.digest = self._digest()

    def _check_user(self) -> list[str]:
        if not self.user.is_dir():
            what = "is not a folder" if self.user.exists() else "does not exist"
            raise ComponentError(f"--data {self.user}: {what}")
        found = sorted(p.name for p in self.user.iterdir() if not p.name.startswith("."))
        unknown = [name for name in found if name not in self.names]
        if unknown:
            raise ComponentError(f"--data {self.user}: {', '.join(unknown)}: not a data file "
                                 f"of this game; its files: {', '.join(self.names)}")
        folders = [name for name in found if not (self.user / name).is_file()]
        if folders:
            raise ComponentError(f"--data {self.user}: {', '.join(folders)}: not a file (a "
                                 "folder?); a data file is a TOML file")
        if not found:  # it would play the package's files without a word
            raise ComponentError(f"--data {self.user}: holds none of the game's data files "
                                 f"({', '.join(self.names)}); put the files to play there "
                                 "(simkit data GAME --export DIR writes them), or leave "
                                 "--data out to play the package's")
        return found

    def __truediv__(self, name: str) -> Path:
        if name in self.user_files:
            return self.user / name
        return self.package / name

    def _digest(self) -> str:
        import hashlib

        digest = hashlib.sha256()
        for name in self.names:
            digest.update(name.encode())
            digest.update((self / name).read_bytes())
        return digest.hexdigest()[:16]

    def record(self) -> dict:
        """What a manifest records of the data played."""
        return {"digest": self.digest, "user_folder": None if self.user is None else
                str(self.user.resolve()), "user_files": list(self.user_files),
                "edited_files": list(self.edited_files)}

    def describe(self) -> str:
        copied = f" (copied in {self.user})" if self.user_files and not self.edited_files else ""
        return describe_files(self.edited_files, self.user) + copied

    def __eq__(self, other) -> bool:
        return isinstance(other, DataFolder) and (self.package, self.user, self.digest) == (
            other.package, other.user, other.digest)

    def __hash__(self) -> int:
        return hash((self.package, self.user, self.digest))

    def __repr__(self) -> str:
        where = f", user={str(self.user)!r} ({', '.join(self.user_files)})" if self.user else ""
        return f"DataFolder({str(self.package)!r}{where})"


def as_folder(data) -> DataFolder:
    """A DataFolder as is; a plain folder (a path) as one holding every file itself."""
    return data if isinstance(data, DataFolder) else DataFolder(Path(data).resolve())


def describe_files(edited: list[str], user) -> str:
    """Which data files a game plays, in words: the user's edited files from their
    folder, the package's for the rest (a DataFolder's, or one a manifest records)."""
    if not edited:
        return "the package's data files"
    return f"{', '.join(edited)} from {user}, the other files the package's"
