"""The Game contract every game package fulfils (docs/architecture.md, "The Game contract").

A game declares its rule knobs as a frozen ``RulesBase`` dataclass whose fields carry a
doc string and an allowed range or choice set, its presets, its policies per side and its
outcome columns; it implements ``play`` (the njit forward model over many games) and
``narrate`` (one game told in the rulebook's words). The runner only ever calls
``simulate`` and ``trace``, which resolve user input before delegating.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Self

import numba
import numpy as np

from simkit import _numba_cache, _numba_patches, checks
from simkit.datafile import DataFile, DataFolder
from simkit.errors import RulesError, StateError, UsageError
from simkit.eventlog import CAPACITY, dropped, new_log, no_log
from simkit.layout import Fields
from simkit.rng import check_seed

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def knob(default, doc: str, *, range: tuple | None = None, choices: tuple | None = None,
         step: float | None = None):
    """A rule knob: a dataclass field with its doc string and its allowed values.
    ``step``: a float knob the kernel reads in whole steps (a weight stored as tenths or
    hundredths) takes only multiples of it, so a value shown is the value played."""
    return field(default=default, metadata={"doc": doc, "range": range, "choices": choices,
                                            "step": step})


def sight(default, doc: str, *, range: tuple | None = None):
    """A player option that lets a policy see what a player at the table cannot (hidden
    blocks, hands): declared to measure what the hidden information is worth, never
    searched by ``simkit tune`` or ``simkit balance`` (a best response must not cheat)."""
    return field(default=default, metadata={"doc": doc, "range": range, "choices": None,
                                            "role": "sight"})


def reading(default, doc: str, *, values: Mapping[Any, str], why: str):
    """A rule the rulebook leaves open or states ambiguously, as a knob: ``values`` maps
    every allowed reading to the rulebook's words it rests on (section and a short
    quote); ``why`` says why the default was chosen. ``simkit robustness`` plays every
    value."""
    return field(default=default, metadata={
        "doc": doc, "range": None, "choices": tuple(values), "role": "reading",
        "words": dict(values), "why": why})


def reconstruction(default, doc: str, *, alternatives: Mapping[Any, str], why: str,
                   range: tuple | None = None, choices: tuple | None = None):
    """A reconstructed number that matters (the rulebook does not print it), as a knob:
    ``alternatives`` maps other values that fit every printed fact to why each is
    plausible; ``why`` says why the default was chosen. ``simkit robustness`` plays every
    alternative."""
    return field(default=default, metadata={
        "doc": doc, "range": range, "choices": choices, "role": "reconstruction",
        "words": dict(alternatives), "why": why})


@dataclass(frozen=True)
class Knob:
    """One rule knob as users see it (``simkit games GAME`` lists these)."""

    name: str
    type: type
    default: Any
    doc: str
    range: tuple | None
    choices: tuple | None
    kind: str = "rule"  # "rule", or "policy weight" for a policy's tunable weights
    #: "rule", "reading" (the rulebook leaves it open) or "reconstruction" (not printed)
    role: str = "rule"
    #: a reading: value -> the rulebook's words; a reconstruction: alternative -> why
    words: Mapping | None = None
    #: why the default was chosen (readings and reconstructions)
    why: str = ""
    #: a float knob's resolution: only multiples of it are allowed (``knob(step=)``)
    step: float | None = None

    @property
    def alternatives(self) -> tuple:
        """The values ``simkit robustness`` plays besides the default: every other
        reading, or the declared alternatives of a reconstruction."""
        if self.role == "rule" or not self.words:
            return ()
        return tuple(v for v in self.words if v != self.default)

    @property
    def allowed(self) -> str:
        if self.choices is not None:
            return " | ".join(str(c) for c in self.choices)
        if self.type is bool:
            return "true | false"
        if self.range is not None:
            steps = f" in steps of {self.step:g}" if self.step else ""
            return f"{self.range[0]}..{self.range[1]}{steps}"
        return self.type.__name__

    def check(self, value) -> Any:
        """Return ``value`` if it is allowed for this knob, else raise RulesError."""
        if self.type is bool:
            ok_type = isinstance(value, (bool, np.bool_))
        elif self.type is int:
            ok_type = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        elif self.type is float:
            ok_type = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        else:
            ok_type = isinstance(value, self.type)
        if not ok_type:
            raise RulesError(
                f"{self.kind} {self.name!r} must be {self.type.__name__} ({self.allowed}), "
                f"got {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            raise RulesError(f"{self.kind} {self.name!r} = {value!r} is not one of: {self.allowed}")
        if self.range is not None and not self.range[0] <= value <= self.range[1]:
            raise RulesError(f"{self.kind} {self.name!r} = {value!r} is out of range "
                             f"{self.allowed}")
        if self.step and abs(value / self.step - round(value / self.step)) > 1e-6:
            raise RulesError(f"{self.kind} {self.name!r} = {value!r} is not a multiple of "
                             f"{self.step:g} (the engine reads it in steps of {self.step:g}; "
                             f"allowed: {self.allowed})")
        return self.type(value)

    def parse(self, text: str) -> Any:
        """Parse a command-line value (``--set name=text``) and check it."""
        raw = text.strip()
        if self.type is bool:
            if raw.lower() not in _TRUE | _FALSE:
                raise RulesError(f"{self.kind} {self.name!r} must be true or false, got {text!r}")
            return raw.lower() in _TRUE
        if self.type in (int, float):
            try:
                value = self.type(raw)
            except ValueError:
                raise RulesError(
                    f"{self.kind} {self.name!r} must be {self.type.__name__} "
                    f"({self.allowed}), got {text!r}"
                ) from None
            return self.check(value)
        return self.check(raw)


@dataclass(frozen=True)
class RulesBase:
    """Base of every game's ``Rules``: typed knobs with ranges, validated on creation.

    A game's policy weights (``Game.policy_weights``) are RulesBase subclasses too, with
    ``KIND = "policy weight"`` so that errors name them as such."""

    KIND: ClassVar[str] = "rule"

    def __post_init__(self):
        for k in self.knobs():
            object.__setattr__(self, k.name, k.check(getattr(self, k.name)))
        self.check()

    def check(self) -> None:
        """Cross-knob constraints; a game overrides this and raises RulesError."""

    def validate(self) -> Self:
        """Raise RulesError if any knob is out of range (done on creation too)."""
        self.__post_init__()
        return self

    @classmethod
    def knobs(cls) -> list[Knob]:
        return list(cls._knobs_by_name().values())

    @classmethod
    def knob(cls, name: str) -> Knob:
        by_name = cls._knobs_by_name()
        if name in by_name:
            return by_name[name]
        allowed = ", ".join(by_name)
        raise RulesError(f"unknown {cls.KIND} {name!r}; allowed: {allowed or '(none)'}")

    @classmethod
    def _knobs_by_name(cls) -> dict[str, Knob]:
        """The class's knobs, read from its fields once (every policy row and every
        set of rules built looks them up: rebuilding them each time was most of what
        building a Verrix kernel's inputs cost)."""
        cached = cls.__dict__.get("_knob_cache")
        if cached is None:
            cached = {}
            for f in dataclasses.fields(cls):
                meta = f.metadata
                cached[f.name] = Knob(f.name, type(f.default), f.default, meta.get("doc", ""),
                                      meta.get("range"), meta.get("choices"), cls.KIND,
                                      meta.get("role", "rule"), meta.get("words"),
                                      meta.get("why", ""), meta.get("step"))
            cls._knob_cache = cached
        return cached

    def replace(self, overrides: Mapping[str, Any] | None = None, **more) -> Self:
        """A copy with some knobs changed; unknown names are errors."""
        changes = {**(overrides or {}), **more}
        for name in changes:
            self.knob(name)
        return dataclasses.replace(self, **changes)

    def parse_overrides(self, assignments: list[str], option: str = "--set") -> Self:
        """Apply ``name=value`` strings (the CLI's ``--set``, or a policy's weights after
        its colon: ``option`` names where they came from); each name at most once."""
        changes = {}
        for text in assignments:
            name, sep, value = text.partition("=")
            if not sep or not name.strip():
                raise RulesError(f"{option} expects name=value, got {text!r}")
            if name.strip() in changes:
                raise RulesError(f"{option} sets {name.strip()!r} more than once; set each "
                                 f"{self.KIND} once")
            changes[name.strip()] = self.knob(name.strip()).parse(value)
        return self.replace(changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def changes(self) -> dict[str, Any]:
        """The knobs that differ from the standard rules."""
        base = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}

    def played_changes(self, data=None) -> dict[str, Any]:
        """The knobs whose value as played (on ``data``) differs from the standard rules'
        as played (a preset that only states the standard's placeholders changes
        nothing)."""
        standard = type(self)().effective(data).to_dict()
        return {k: v for k, v in self.effective(data).to_dict().items() if standard[k] != v}

    def value_notes(self) -> dict[str, str]:
        """Knob -> what its stated value does not bring with it here, for labels: a knob
        value that names a rule set (Victus: ``level = "first_game"``) while other knobs
        keep values that rule set changes. A game overrides this; the default has none."""
        return {}

    def labelled(self, knob: str, text: str) -> str:
        """``text`` (a knob's value as a label shows it) with its note, if any."""
        note = self.value_notes().get(knob)
        return f"{text} ({note})" if note else text

    def played_changes_text(self) -> str:
        """``played_changes`` as ``knob=value`` labels, each with its note; "none"."""
        return ", ".join(f"{k}={self.labelled(k, str(v))}"
                         for k, v in self.played_changes().items()) or "none"

    def effective(self, data=None) -> Self:
        """These rules with every knob at the value actually played on ``data`` (the
        game's data folder; None: the package's files; ``Game.effective`` passes the
        game's own).

        A knob whose value stands for another knob's table (Victus: ``start_generalitat
        = 0``, "the level's set-up", read from the data's markers.toml) is resolved here,
        in one place, by the game's ``resolved(data)``; the result plays the same games.
        Curves, calibration, ladders, cell labels and experiment files use these values.
        Derive other rules from the stated rules, not from these: a resolved value no
        longer follows the knob it was taken from (``players`` for Victus's cards per stage)."""
        resolved = self.resolved(data)
        return self if not resolved else dataclasses.replace(self, **resolved)

    def resolved(self, data=None) -> dict[str, Any]:
        """The knobs whose stated value is a placeholder, at the value played on ``data``
        (a game with such knobs overrides this; the default has none)."""
        return {}

    def plays_as(self, other: RulesBase, data=None) -> bool:
        """Whether these rules and ``other`` play the same game on ``data`` (same
        effective values)."""
        return self.effective(data).to_dict() == other.effective(data).to_dict()


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    rules: RulesBase


def load_presets(path: Path, rules_cls: type[RulesBase]) -> dict[str, Preset]:
    """Read ``presets.toml``: one table per preset with ``description`` and ``rules``."""
    doc = DataFile(path)
    presets = {}
    for name, entry in doc.data.items():
        where = f"preset [{name}]"
        if not isinstance(entry, dict):
            raise doc.error(where, "must be a table with description and rules")
        doc.only(entry, ("description", "rules"), where)
        description = doc.get(entry, "description", str, where)
        overrides = doc.get(entry, "rules", dict, where, default={})
        try:
            rules = rules_cls().replace(overrides)
        except RulesError as exc:
            raise doc.error(where, str(exc)) from None
        presets[name] = Preset(name, description, rules)
    return presets


@dataclass(frozen=True)
class PolicyChoice:
    """One side's resolved policy: its name, the integer id kernels select it by, and
    its weights (None for a policy without weights)."""

    name: str
    id: int
    weights: RulesBase | None

    def __str__(self) -> str:
        if self.weights is None or not self.weights.changes():
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.weights.changes().items())


class Parameters:
    """A kernel's parameter vector, declared once.

    ``fields`` is the layout's ``Fields`` of the vector; each field takes the value of
    the attribute of the same name of what it is built from (a ``Rules``: the knob), or
    ``convert[name](source)`` where the field declares a converter (a choice knob read
    as a code), or ``from_data[name](data)`` for a value the game's data files give. A
    field with none of these is an error when the game is imported, and the contract
    test checks that every knob reaches the kernel, so no knob can be silently dead."""

    def __init__(self, fields: Fields, source: type, *,
                 from_data: Mapping[str, Callable[[DataFolder], Any]] | None = None,
                 package_data: Path | None = None, **convert: Callable[[Any], Any]):
        self.fields, self.convert, self.from_data = fields, convert, dict(from_data or {})
        if self.from_data and package_data is None:
            raise TypeError(f"{fields.array}: from_data needs the package's data folder")
        self.package_data = package_data
        missing = [name for name in fields.fields if name not in convert
                   and name not in self.from_data and not hasattr(source, name)]
        unknown = [name for name in [*convert, *self.from_data] if name not in fields.fields]
        if missing or unknown:
            raise TypeError(f"{fields.array}: fields without a {source.__name__} attribute "
                            f"or converter: {missing}; converters of no field: {unknown}")

    def build(self, source, data: DataFolder | None = None) -> np.ndarray:
        """The vector for ``source``; the fields ``from_data`` declares are read from the
        data files ``data`` (default: the package's)."""
        if data is None and self.from_data:
            data = DataFolder(self.package_data)
        start = self.fields.start  # the fields' part of an array another part begins
        vector = np.zeros(self.fields.size - start, dtype=np.int64)
        for name, (offset, size) in self.fields.fields.items():
            if name in self.from_data:
                value = self.from_data[name](data)
            elif name in self.convert:
                value = self.convert[name](source)
            else:
                value = getattr(source, name)
            vector[offset - start:offset - start + size] = value
        return vector


class PolicyRows:
    """Each side's (or seat's) policy as every kernel reads it, declared once: an int64
    array of shape ``(rows, fields.size)``, a row per side in ``sides`` order (``rows``:
    more, for a game whose kernel has a row for every seat it could seat), the policy's
    id in column 0 (the field ``policy``), then each field the weight of the same name,
    in the kernel's units (``encode``).

    A field the side's policy has no weight for takes ``fixed[policy name][field]`` (a
    value, or a function of the policy's weights: a sentinel such as "never", or another
    weight's value), else ``defaults``' weight of that name (the weights a policy without
    weights plays, e.g. ``random`` using greedy's margins), else 0 (read by no policy).
    A field that no weights class, ``fixed`` entry or ``defaults`` names is an error when
    the game is imported."""

    def __init__(self, fields: Fields, weights: Mapping[str, Mapping[str, type[RulesBase]]],
                 *, defaults: RulesBase | None = None, rows: int | None = None,
                 fixed: Mapping[str, Mapping[str, Any]] | None = None):
        if next(iter(fields.fields), None) != "policy":
            raise TypeError(f"{fields.array}: the first field must be the policy id")
        self.fields, self.defaults, self.rows = fields, defaults, rows
        self.fixed = {name: dict(values) for name, values in (fixed or {}).items()}
        named = {k.name for by_policy in weights.values() for cls in by_policy.values()
                 for k in cls.knobs()}
        named |= {f for values in self.fixed.values() for f in values}
        named |= {k.name for k in type(defaults).knobs()} if defaults is not None else set()
        unread = sorted(named - set(fields.fields))
        unfed = [f for f in fields.fields if f != "policy" and f not in named]
        if unread or unfed:
            raise TypeError(f"{fields.array}: weights without a field: {unread}; fields no "
                            f"weight fills: {unfed}")

    def build(self, policies) -> np.ndarray:
        """The rows for ``policies`` (each side's ``PolicyChoice``, in ``sides`` order);
        rows beyond them (seats not in play) hold ``defaults`` and id 0."""
        out = np.zeros((self.rows or len(policies), self.fields.size), dtype=np.int64)
        for row in range(out.shape[0]):
            choice = policies[row] if row < len(policies) else None
            for name, (offset, size) in self.fields.fields.items():
                out[row, offset:offset + size] = self._value(choice, name)
        return out

    def _value(self, choice: PolicyChoice | None, name: str):
        if name == "policy":
            return choice.id if choice is not None else 0
        weights = choice.weights if choice is not None else None
        if weights is not None and hasattr(weights, name):
            return encode(weights.knob(name), getattr(weights, name))
        fixed = self.fixed.get(choice.name, {}) if choice is not None else {}
        if name in fixed:
            value = fixed[name]  # a field of several slots takes a sequence
            return value(weights) if callable(value) else value
        if self.defaults is not None and hasattr(self.defaults, name):
            return encode(self.defaults.knob(name), getattr(self.defaults, name))
        return 0


def encode(knob: Knob, value) -> int:
    """A weight (or knob) in a kernel's integer units: a float in whole steps of its
    ``knob(step=)`` (0.35 with step 0.01 is 35), a choice as its position among the
    choices, a bool as 0 or 1, an int as it is."""
    if knob.choices is not None and not isinstance(value, (int, float)):
        return knob.choices.index(value)
    if knob.type is float:
        if not knob.step:
            raise TypeError(f"{knob.kind} {knob.name!r}: a float the kernel reads needs "
                            f"knob(step=...), the units it reads it in")
        return round(value / knob.step)
    return int(value)


@dataclass(frozen=True)
class Column:
    """One outcome column: its numpy dtype (or ``category``), meaning and categories.

    ``derived`` columns are computed in Python from the kernel's row (``Outcomes``);
    the others are written by the kernel at the offset their declaration gives them.
    ``when``: for a column that has no value in some games (a seat or tribe not in play,
    a rule not played, an outcome that did not happen), when it has one, in words; the
    game's ``has_values`` says which games those are, from the rules played (never from
    the value itself: no number a real outcome can take stands for "none"), and the
    results hold a missing value (NaN, the column as float64) in the others."""

    dtype: str
    description: str
    categories: tuple[str, ...] = ()
    derived: bool = False
    when: str | None = None

    @property
    def numpy_dtype(self) -> str:
        """The dtype of the column's array (a category's codes are int8)."""
        return "int8" if self.dtype == "category" else self.dtype

    @property
    def frame_dtype(self) -> str:
        """The dtype of the column in the results (float64 where ``when`` may leave it
        missing)."""
        return "float64" if self.when is not None else self.dtype


class Outcomes(Mapping):
    """A game's outcome columns, declared once, and the kernel's output row derived from
    them: the columns the kernel writes (in declaration order), then the extra ``raw``
    fields (name -> size) that derived columns are computed from.

    ``offset(name)`` gives a layout constant; ``columns(table)`` turns the kernel's
    ``(n_games, size)`` table into the typed columns (the derived ones excepted)."""

    def __init__(self, columns: Mapping[str, Column], raw: Mapping[str, int] | None = None):
        from simkit.layout import Fields

        self._columns = dict(columns)
        self.row = Fields("outcome row")
        for name, col in self._columns.items():
            if not col.derived:
                self.row(name)
        for name, size in (raw or {}).items():
            self.row(name, size)
        self.size = self.row.size

    def __getitem__(self, name: str) -> Column:
        return self._columns[name]

    def __iter__(self):
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def offset(self, name: str) -> int:
        return self.row.fields[name][0]

    def columns(self, table: np.ndarray) -> dict[str, np.ndarray]:
        """The typed columns; a value its dtype cannot hold is an engine bug (a column
        sized too small for a legal setting) and raises rather than wraps."""
        out = {}
        for name, col in self._columns.items():
            if not col.derived:
                values = table[:, self.offset(name)]
                _check_fits(name, values, col.numpy_dtype)
                out[name] = values.astype(col.numpy_dtype)
        return out


def _check_fits(name: str, values: np.ndarray, dtype: str) -> None:
    if values.size == 0 or not np.issubdtype(np.dtype(dtype), np.integer):
        return
    limits = np.iinfo(dtype)
    low, high = int(values.min()), int(values.max())
    if low < limits.min or high > limits.max:
        raise StateError(f"outcome column {name!r} holds {low}..{high}, beyond its dtype "
                         f"{dtype} ({limits.min}..{limits.max}): an engine bug, the column "
                         f"is sized too small for this setting")


@dataclass(frozen=True)
class QuestionParams(RulesBase):
    """A question's parameters: knobs with ranges like rules, named "parameter" in errors."""

    KIND: ClassVar[str] = "parameter"


@dataclass(frozen=True)
class Question:
    """A rules-probability question answered exactly (a game's ``prob.py``).

    ``params`` is a ``QuestionParams`` subclass: its knobs are the question's arguments, with
    the same validation as rules. ``answer(params)`` returns a table in the layout of
    ``simkit.prob.answer_table`` (event columns, then ``p`` and ``fraction``), or, for a
    ``deterministic`` question, a rules table without chances.
    """

    name: str
    description: str
    params: type[RulesBase]
    answer: Callable[[Any], Any]
    notes: str = ""
    deterministic: bool = False


@cache
def read_presets(path: Path, rules_cls: type[RulesBase]) -> dict[str, Preset]:
    """A presets file, read once per process (``Game.presets``, and a game's own rules
    where a knob's label names a preset)."""
    return load_presets(path, rules_cls)


class _Presets:
    """``Game.presets``: the game's ``presets.toml`` (the user's, if their data folder
    holds one), read on first use."""

    def __get__(self, game, cls) -> Mapping[str, Preset]:
        folder = game.data if game is not None else DataFolder(cls.data)
        return read_presets(folder / cls.presets_file, cls.Rules)


class Game(ABC):
    """A playable game: rules, presets, policies, outcome columns and the engine."""

    name: ClassVar[str]
    title: ClassVar[str]
    sides: ClassVar[tuple[str, ...]]
    Rules: ClassVar[type[RulesBase]]
    #: the package's data folder (components and presets); on the Game object, ``data``
    #: is the ``DataFolder`` played: these files, or the user's where ``with_data`` says
    data: ClassVar[Path]
    presets_file: ClassVar[str] = "presets.toml"
    #: name -> Preset, from ``data/presets.toml``
    presets = _Presets()
    #: side -> {policy name: description}; the first name of each side is its default
    policies: ClassVar[Mapping[str, Mapping[str, str]]]
    #: side -> {policy name: its tunable weights (a RulesBase with KIND "policy weight")}
    policy_weights: ClassVar[Mapping[str, Mapping[str, type[RulesBase]]]] = {}
    outcome_columns: ClassVar[Mapping[str, Column]]
    #: what the results rest on that the rulebook does not print (shown with results)
    caveat: ClassVar[str] = ""
    #: the package's data files that hold reconstructions, each with what it reconstructs
    #: (the caveat of a game played on a designer's files names only the others)
    reconstructions: ClassVar[dict[str, str]] = {}
    #: cold numba compile of the engine, seconds on a 2-core machine (``make bench``)
    compile_seconds: ClassVar[int] = 0
    #: (side, policy) -> cold compile seconds, for a policy played by its own kernel
    #: (compiled on first use, or by ``simkit compile``), e.g. a rollout player, right
    #: after the engine's in the same process. In a process that did not compile the
    #: engine, numba types the engine's functions again (typing is never cached), and
    #: the notice adds ``compile_seconds``.
    policy_kernels: ClassVar[Mapping[tuple[str, str], int]] = {}
    #: a game whose seats hold tribes gives ``rotate_seats(rules, shift)`` (the rules with
    #: the seated tribes rotated by ``shift``), ``seats_in_play(rules)`` and
    #: ``seated(rules)`` (the tribes by seat); simkit.seats plays every rotation
    rotate_seats: ClassVar[Any] = None
    seats_in_play: ClassVar[Any] = None
    #: whether this process compiled the engine (rather than loading it from the cache)
    _engine_compiled_here: bool = False
    #: the kernel's parameter vector built from the Rules (``Parameters``)
    rule_parameters: ClassVar[Parameters]
    #: each side's policy id and weights, the kernels' ``pol`` array (``PolicyRows``)
    policy_rows: ClassVar[PolicyRows]
    #: the names of the invariants ``check_state`` asserts, and of the rule steps after
    #: which the kernels call it (the game's ``layout.INVARIANTS`` and ``layout.STEPS``)
    invariants: ClassVar[tuple[str, ...]] = ()
    steps: ClassVar[tuple[str, ...]] = ()

    def __init__(self, user_data: Path | str | None = None):
        self.data = DataFolder(type(self).data, user_data)

    def with_data(self, user_data: Path | str | None) -> Self:
        """This game playing the data files of ``user_data`` (a folder holding any of the
        game's files) instead of the package's; every file is validated now, and a bad
        one raises ComponentError naming it."""
        if user_data is None:
            return self
        game = type(self)(user_data)
        game.load_data()
        if game.data.edited_files:
            game.caveat = self.caveat_with(game.data.edited_files, game.data.user)
        return game

    def caveat_with(self, edited: list[str], folder) -> str:
        """The caveat of this game played on a designer's ``edited`` files (from
        ``folder``): those files are theirs; the reconstructions named are only those of
        the package's files still played."""
        left = [f"{what} ({name})" for name, what in type(self).reconstructions.items()
                if name not in edited]
        knobs = [k.name for k in self.Rules.knobs() if k.role == "reconstruction"]
        if knobs:
            left.append(f"the reconstructed rule knobs {', '.join(knobs)}")
        theirs = f"these results play your {', '.join(edited)} (from {folder})"
        if not left:
            return f"{theirs}; no package file they play is a reconstruction"
        return (f"{theirs}; the package's files they also play hold reconstructions: "
                f"{'; '.join(left)}: rates describe your files with these, not the printed "
                "game")

    def effective(self, rules: RulesBase) -> RulesBase:
        """``rules`` at the values played on this game's data (``RulesBase.effective``):
        a user's markers.toml, say, changes what "the level's set-up" is."""
        return rules.effective(self.data)

    def load_data(self) -> None:
        """Load and validate every data file of ``self.data`` (a game whose kernel reads
        components overrides this to load them)."""
        _ = self.presets

    # -- user input -> validated objects -------------------------------------------------
    def resolve_rules(self, rules=None) -> RulesBase:
        """``rules``: None (standard), a preset name, a dict of overrides, or a Rules;
        checked against the data played (``check_rules``)."""
        resolved = self._rules_from(rules)
        self.check_rules(resolved)
        return resolved

    def check_rules(self, rules: RulesBase) -> None:
        """Refuse, with RulesError naming the knob, rules the data played cannot set up
        (a game whose components bound a knob overrides this); the rules' own checks
        already ran when they were made."""
        return None

    def _rules_from(self, rules) -> RulesBase:
        if rules is None:
            return self.Rules()
        if isinstance(rules, self.Rules):
            return rules.validate()
        if isinstance(rules, str):
            if rules not in self.presets:
                allowed = ", ".join(self.presets) or "(none)"
                raise RulesError(f"unknown preset {rules!r} for {self.name}; presets: {allowed}")
            return self.presets[rules].rules
        if isinstance(rules, Mapping):
            return self.Rules().replace(rules)
        raise RulesError(f"rules must be a preset name, a dict or {self.name} Rules, "
                         f"got {type(rules).__name__}")

    def resolve_policy(self, policy=None) -> dict[str, str]:
        """``policy``: None (defaults), one policy for every side, or {side: policy}.

        A policy is a name, optionally with weights: ``"greedy:greed=0.5,coronela_weight=2"``
        (the weights a side's policy takes are in ``policy_weights``). Returns the canonical
        text per side: the name, then only the weights that differ from their defaults."""
        return {side: str(choice) for side, choice in self._policies(policy).items()}

    def sides_in_play(self, rules) -> tuple[str, ...]:
        """The sides that play under ``rules`` (a game with seats left empty narrows it)."""
        if self.seats_in_play is None:
            return tuple(self.sides)
        return tuple(self.sides[:self.seats_in_play(self.resolve_rules(rules))])

    def check_sides_in_play(self, rules, policy) -> None:
        """Refuse a policy other than the default named for a side that does not play
        under ``rules``: it would be accepted and never used (a resolved policy, which
        names every side's default, passes)."""
        if not isinstance(policy, Mapping):
            return
        playing = self.sides_in_play(rules)
        idle = [side for side, text in policy.items() if side in self.sides
                and side not in playing and self._policy(side, text) != self._policy(side, None)]
        if idle:
            raise UsageError(f"{self.name}: a policy for {', '.join(idle)}, which "
                             f"{'does' if len(idle) == 1 else 'do'} not play under these "
                             f"rules; sides in play: {', '.join(playing)}")

    def policy_choices(self, policy=None) -> tuple[PolicyChoice, ...]:
        """Each side's policy (name, id, weights), in ``sides`` order."""
        return tuple(self._policies(policy).values())

    def _policies(self, policy) -> dict[str, PolicyChoice]:
        if policy is None:
            chosen = {}
        elif isinstance(policy, str):
            chosen = dict.fromkeys(self.sides, policy)
        elif isinstance(policy, Mapping):
            chosen = dict(policy)
        else:
            raise UsageError(f"policy must be a name or a {{side: name}} dict, got {policy!r}")
        for side in chosen:
            if side not in self.sides:
                raise UsageError(f"unknown side {side!r} for {self.name}; "
                                 f"sides: {', '.join(self.sides)}")
        return {side: self._policy(side, chosen.get(side)) for side in self.sides}

    def _policy(self, side: str, text) -> PolicyChoice:
        names = list(self.policies[side])
        if text is None:
            text = names[0]
        if not isinstance(text, str):
            raise UsageError(f"a policy is a name (text), got {text!r}")
        name, _, assignments = text.partition(":")
        name = name.strip()
        if name not in names:
            raise UsageError(f"unknown policy {name!r} for {self.name} side {side!r}; "
                             f"policies: {', '.join(names)}")
        weights_cls = self.policy_weights.get(side, {}).get(name)
        if weights_cls is None:
            if assignments.strip():
                raise UsageError(f"policy {name!r} of {self.name} takes no weights, "
                                 f"got {assignments!r}")
            return PolicyChoice(name, names.index(name), None)
        parts = [a for a in assignments.split(",") if a.strip()]
        try:
            weights = weights_cls().parse_overrides(parts, option=f"--policy {name}:")
        except RulesError as exc:
            raise UsageError(f"{self.name}: {exc}") from None
        return PolicyChoice(name, names.index(name), weights)

    # -- the contract ----------------------------------------------------------------
    def simulate(self, rules, policy, game_indices, root_seed: int, *,
                 check_state: bool | None = None) -> dict[str, np.ndarray]:
        """Play the games ``game_indices`` of run ``root_seed``; one array per column.
        ``check_state``: assert the invariants after every rule step (default: the
        ``SIMKIT_CHECK_STATE`` variable); StateError at the first broken one."""
        indices = np.ascontiguousarray(game_indices, dtype=np.int64)
        check = checks.requested() if check_state is None else bool(check_state)
        columns = self.play(self.resolve_rules(rules), self.policy_choices(policy), indices,
                            np.uint64(check_seed(root_seed)), check_state=check)
        if self._mark_compiled():  # however it was compiled (warm_up, a worker, a test)
            self._engine_compiled_here = True
        return columns

    def trace(self, rules, policy, game_index: int, root_seed: int, *,
              check_state: bool | None = None) -> list[str]:
        """The same game as ``simulate`` plays, narrated in the rulebook's words."""
        check = checks.requested() if check_state is None else bool(check_state)
        return self.narrate(self.resolve_rules(rules), self.policy_choices(policy),
                            int(game_index), np.uint64(check_seed(root_seed)),
                            check_state=check)

    def play(self, rules, policies: tuple[PolicyChoice, ...], game_indices: np.ndarray,
             root_seed, check_state: bool = False) -> dict[str, np.ndarray]:
        """The games' columns (validated input): the kernel's rows, typed, and the
        derived columns."""
        log = no_log(check_state=check_state)
        table = self.kernel(rules, policies, game_indices, root_seed, log)
        self._raise_if_broken(log, game_indices, root_seed)
        return self._columns(rules, policies, table)

    def narrate(self, rules, policies: tuple[PolicyChoice, ...], game_index: int, root_seed,
                check_state: bool = False) -> list[str]:
        """One game narrated (validated input): a heading, the events in the rulebook's
        words, the game's last lines, then the row ``simulate`` gives for it."""
        log = new_log(check_state=check_state)
        indices = np.array([game_index], dtype=np.int64)
        table = self.kernel(rules, policies, indices, root_seed, log)
        self._raise_if_broken(log, indices, root_seed)
        lines = [f"{self.title} - game {game_index} of seed {root_seed}"
                 f"{self.trace_heading(rules)}"]
        lines += self.narration(rules, log)
        if dropped(log):
            lines.append(f"(The trace is cut: {dropped(log)} later events did not fit in "
                         f"its {CAPACITY:,} lines.)")
        lines += self.closing_lines(rules, table[0])
        row = {name: values[0] for name, values in self._columns(rules, policies, table).items()}
        lines.append(self.result_line(self._category(row, "winner"),
                                      self._category(row, "end_reason"), int(row["turns"])))
        return lines

    def _columns(self, rules, policies, table) -> dict[str, np.ndarray]:
        columns = self.outcome_columns.columns(table)
        columns.update(self.derived_columns(rules, policies, table))
        return {name: columns[name] for name in self.outcome_columns}

    def categories_in_play(self, rules, column: str) -> tuple[str, ...]:
        """The categories ``column`` can hold under ``rules`` (a run's results keep only
        these): every declared one, unless the game says fewer are in play."""
        return tuple(self.outcome_columns[column].categories)

    def has_values(self, rules, columns: Mapping[str, np.ndarray]) -> dict[str, Any]:
        """For every outcome column declared with ``when``: whether it holds a value, one
        bool for the whole run (a seat or tribe in play under ``rules``) or one per game
        (from the games' other ``columns``, as ``simulate`` returns them). A game with
        such columns answers for each of them."""
        return {}

    def _category(self, row, column: str) -> str:
        return self.outcome_columns[column].categories[int(row[column])]

    def _raise_if_broken(self, log, game_indices, root_seed) -> None:
        checks.raise_if_broken(self.name, log, game_indices, root_seed, self.invariants,
                               self.steps)

    def result_line(self, winner: str, end_reason: str, turns: int) -> str:
        """The last line of every trace: the row ``simulate`` gives for the same game."""
        return f"Result: winner {winner}, end reason {end_reason}, {turns} turns."

    # -- what a game gives: its kernel, its parameters and its trace ---------------------
    def parameters(self, rules) -> np.ndarray:
        """The kernel's parameter vector, from the game's one declaration
        (``rule_parameters``): rules and data only, no policy."""
        return self.rule_parameters.build(rules, self.data)

    def kernel_inputs(self, rules, policies: tuple[PolicyChoice, ...]) -> tuple:
        """Every array the kernel takes that the rules or policies decide: the parameter
        vector, each side's policy row (``policy_rows``), then any set-up a game builds
        from its knobs (the contract test checks that each knob changes one of them)."""
        return (self.parameters(rules), self.policy_rows.build(policies))

    @abstractmethod
    def kernel(self, rules, policies: tuple[PolicyChoice, ...], game_indices: np.ndarray,
               root_seed, log: np.ndarray) -> np.ndarray:
        """Run the njit kernel on ``game_indices``: its ``(n, OUTCOMES.size)`` rows."""

    @abstractmethod
    def narration(self, rules, log: np.ndarray) -> list[str]:
        """The logged events as the trace's lines."""

    def derived_columns(self, rules, policies, table: np.ndarray) -> dict[str, np.ndarray]:
        """The ``derived`` outcome columns, computed from the kernel's rows."""
        return {}

    def trace_heading(self, rules) -> str:
        """What the trace's first line adds after the game and seed (e.g. the level)."""
        return ""

    def closing_lines(self, rules, row: np.ndarray) -> list[str]:
        """The trace's lines after the events, before the result line (final scores)."""
        return []

    def warm_up(self) -> float:
        """Compile (or load from numba's cache) every kernel ``simulate`` uses; returns
        the seconds it took. The first time on a machine (for these engine sources) it
        says so on stderr before compiling, since that takes a while."""
        if not self.is_compiled():
            self._announce_compile("engine", "first run", self.compile_seconds)
        started = time.perf_counter()
        self.simulate(None, None, np.arange(2), 0)
        return time.perf_counter() - started

    def warm_up_policy(self, side: str, policy: str) -> float:
        """``warm_up`` for a policy with its own kernel (``policy_kernels``): the kernel
        compiled or loaded by a call that plays no game (a look-ahead's game costs about a
        second, and one kernel may serve several seats: Verrix's five)."""
        started = time.perf_counter()
        self.simulate(None, {side: policy}, np.arange(0), 0)
        return time.perf_counter() - started

    def is_policy_compiled(self, side: str, policy: str) -> bool:
        return self._compiled_marker(f"{side}-{policy}").exists()

    @contextmanager
    def compiling_policy(self, side: str, policy: str):
        """Around a call of a policy's own kernel: the first time on a machine (for these
        engine sources) says on stderr that it compiles, as ``warm_up`` does."""
        if not self.is_policy_compiled(side, policy):
            seconds = self.policy_kernels[(side, policy)]
            if not self._engine_compiled_here:
                seconds += self.compile_seconds
            self._announce_compile(f"{side}={policy} player", "first use", seconds)
        yield
        self._mark_compiled(f"{side}-{policy}")

    def _announce_compile(self, what: str, when: str, seconds: int) -> None:
        """The notice on stderr before a first compile (none in plain Python)."""
        if numba.config.DISABLE_JIT:
            return
        _numba_patches.tell_if_off(sys.stderr)
        about = f"about {seconds} s on a 2-core machine" if seconds else "this takes a while"
        print(f"simkit: compiling the {self.name} {what} ({when} only, {about})...",
              file=sys.stderr, flush=True)

    def is_compiled(self) -> bool:
        """Whether numba's cache holds this engine for the current sources."""
        return self._compiled_marker().exists()

    def _compiled_marker(self, kernel: str = "") -> Path:
        """A file in the numba cache folder saying this engine (or one of its policy
        kernels) has been compiled there, for this checkout (numba keys its cache files
        on the source folder's path: another checkout of the same sources compiles its
        own)."""
        return (_numba_cache.cache_dir() / f"compiled-{_numba_cache.checkout_key()}-"
                f"{self.name}{'-' if kernel else ''}{kernel}")

    def _mark_compiled(self, kernel: str = "") -> bool:
        """Leave the engine's (or a policy kernel's) compiled marker; whether this call
        left it (else it was there already, or plain Python compiled nothing)."""
        if numba.config.DISABLE_JIT:
            return False
        marker = self._compiled_marker(kernel)
        if marker.exists():
            return False
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        return True
