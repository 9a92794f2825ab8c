"""The one reader of every game's TOML data files (components, decks, presets).

``DataFile(path)`` parses a file and offers typed look-ups whose errors all read
``<file>: <entry>: <problem>`` and name what is allowed, raised as ``ComponentError``.
Components the rulebooks do not print are reconstructions; a designer who owns the printed
components replaces the files, so every check a replacement must pass is made on load.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from simkit.errors import ComponentError

_MISSING = object()


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
        value = self.get(table, key, kind, entry, default)
        if not lo <= value <= hi:
            raise self.error(entry, f"{key!r} = {value!r} is out of range {lo}..{hi}")
        return value

    def choice(self, table: Mapping, key: str, allowed: Iterable[str], entry: str,
               default=_MISSING) -> str:
        """``table[key]``, one of the names ``allowed``."""
        value = self.get(table, key, str, entry, default)
        allowed = tuple(allowed)
        if value not in allowed:
            raise self.error(entry, f"{key!r} = {value!r} is not one of: {', '.join(allowed)}")
        return value

    def items(self, table: Mapping, key: str, kind: type, entry: str, default=_MISSING):
        """``table[key]`` checked to be a list whose items are all of ``kind``."""
        values = self.get(table, key, list, entry, default)
        for v in values:
            if not _is(v, kind):
                raise self.error(entry, f"{key!r} must hold {kind_name(kind)} items, "
                                        f"got {v!r}")
        return values

    def table(self, key: str, entry: str | None = None, within: Mapping | None = None) -> dict:
        """The table ``[key]`` (of the file, or of ``within``)."""
        return self.get(self.data if within is None else within, key, dict,
                        entry or f"[{key}]")

    def tables(self, key: str) -> list[dict]:
        """The array of tables ``[[key]]``."""
        rows = self.get(self.data, key, list, f"[[{key}]]")
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise self.error(f"[[{key}]] #{i + 1}", f"must be a table, got {row!r}")
        return rows

    def only(self, table: Mapping, allowed, entry: str) -> None:
        """Refuse keys outside ``allowed`` (a misspelt key must not be silently ignored)."""
        unknown = sorted(set(table) - set(allowed))
        if unknown:
            raise self.error(entry, f"unknown keys {unknown}; allowed: {sorted(allowed)}")


def frozen(a) -> np.ndarray:
    """A contiguous read-only copy of ``a``: static components are never written."""
    a = np.array(a, copy=True, order="C")
    a.setflags(write=False)
    return a
