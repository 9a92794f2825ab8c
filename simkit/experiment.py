"""Experiment files (TOML) -> cells; ``sweep`` runs them; ``summarize`` tabulates them.

An experiment file has one ``[experiment]`` table and any number of ``[[sweep]]`` tables::

    [experiment]
    name = "assault_terrain"         # results go to results/<name>/ unless --out
    game = "setembre1714-assault"    # a registered game (simkit games)
    description = "..."              # optional, free text
    preset = "example_first_assault" # optional base preset
    rules = { max_turns = 20 }       # optional base overrides, on top of the preset
    policy = { catalans = "stand" }  # optional base policy: one name, or {side = name}
    games = 200000                   # games per cell ...
    # until_ci = 0.005               # ... or play each cell until every winner and
    # max_games = 2000000            # end-reason rate's 95% half-width is below this
    #                                # (first batch: games, default 10000; cap:
    #                                # max_games, default 100 x games)
    seed = 1                         # root seed shared by every cell [0]
    # rotate_seats = true            # every cell under each cyclic rotation of the
    #                                # seated tribes (games whose seats hold tribes)

    [[sweep]]                        # each value of each knob varies alone from the base
    kind = "one_at_a_time"
    knobs = { terrain = ["open", "urban", "convent"], salvo_units = [0, 2, 4, 6] }

    [[sweep]]                        # full factorial over the listed knobs
    kind = "grid"
    knobs = { defender_units = [3, 4, 5], santa_eulalia_flag = [false, true] }

    [[sweep]]                        # each named preset as a cell; the base rules
    kind = "presets"                 # overrides and policy still apply on top
    presets = ["open_ground", "bombarded_bastion"]

    [[sweep]]                        # policy pairings, each on top of the base policy
    kind = "policies"
    policies = [{ catalans = "withdraw" }, { catalans = "cautious" }]

    [[sweep]]                        # Morris screening (simkit.screen), one a file: its
    kind = "screen"                  # walks' points as cells, labelled screen W.P
    knobs = ["attacker_lead", "defender_units"]  # optional [every screenable knob]
    trajectories = 10                # optional [10]; levels = 4, optional, even

The cells are the base (label ``base``: preset + rules + policy) followed by every
sweep's cells in file order, labelled ``terrain=open``, ``defender_units=3,
santa_eulalia_flag=false``, ``preset open_ground``, ``policy catalans=withdraw``. With
``rotate_seats = true`` each of them is followed by its cyclic rotations of the seated
tribes (``simkit.seats``), labelled ``base`` (the stated seating), ``base [rotation
2]``, ...; ``simkit.seats.experiment_rates`` pools them into each
cell's win rates by seat and by tribe. Every
cell plays the same games (seed and game indices 0..n-1): common random numbers, so each
cell's difference from the base is a paired comparison. Cells with the same rules and
policy are merged: the first label is kept and the others are recorded as its aliases.

Everything is validated before any game is played: unknown keys, games, presets, knobs,
policies or sides, values of the wrong type or out of range (by the game's own Rules
validation), empty sweeps and malformed TOML raise ``ExperimentError`` naming the file,
the line where it can be found, the problem and what is allowed.

``sweep(path)`` runs every cell into ``<out>/cells/<slug>/`` (a results folder each, so
a rerun resumes), writes ``<out>/experiment.json`` (the spec and cell list) and
``<out>/summary.csv`` (``summarize``). ``sweep(path, games=N)`` plays N games per cell
instead of the file's ``games`` (a smaller run of the same experiment); the folder
records the size played and the file's. A folder holding another experiment is refused;
changing only ``games``, ``until_ci``, ``max_games`` or ``description`` extends the run,
but a rerun asking for fewer games per cell than the folder was run with is refused (it
would report a subset of the folder's games as if it were the whole run).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
import time
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from simkit import games, screen, stats
from simkit.errors import ComponentError, ExperimentError, RulesError, StoreError, UsageError
from simkit.rng import check_seed
from simkit.runner import BACKENDS, RunInfo, simulate
from simkit.sides import seatings
from simkit.store import (
    LOCK,
    MANIFEST,
    MAX_GAMES,
    FolderLock,
    _write_atomic,
    load,
    missing_ranges,
    read_manifest,
)

EXPERIMENT_FILE = "experiment.json"
SUMMARY_FILE = "summary.csv"
CELLS_DIR = "cells"
FORMAT = 1
MAX_CELLS = 10_000
DEFAULT_FIRST_BATCH = 10_000
# identity of an experiment folder: everything but these may not change between runs
_EXTENDABLE = ("games", "file_games", "until_ci", "max_games", "description")

_EXPERIMENT_KEYS = {
    "name": "results folder name (letters, digits, _ . -)",
    "game": "a registered game",
    "description": "free text",
    "preset": "base preset",
    "rules": "base rule overrides { knob = value }",
    "policy": "base policy: a name or { side = name }",
    "games": "games per cell",
    "until_ci": "95% half-width to play each cell down to",
    "max_games": "cap on games per cell with until_ci",
    "seed": "root seed",
    "data": "a folder of the game's data files to play instead of the package's "
            "(relative to this file)",
    "rotate_seats": "true: play every cell under each cyclic rotation of the seated tribes "
                    "(games whose seats hold tribes)",
}
_SWEEP_ITEMS = {"one_at_a_time": "knobs", "grid": "knobs", "presets": "presets",
                "policies": "policies"}
#: a screen sweep's keys (simkit.screen: Morris walks over the knobs' ranges)
_SCREEN_KEYS = ("kind", "knobs", "trajectories", "levels")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Cell:
    """One variant to play: a label, what it varies, the full rules and policy."""

    label: str
    kind: str  # base, one_at_a_time, grid, presets or policies
    knob: str  # the knob(s) varied ("a, b" for a grid), "preset", "policy" or "" (base)
    value: str  # their value(s) as written in TOML ("3, false" for a grid)
    rules: Any  # the game's Rules
    policy: dict
    slug: str = ""
    aliases: tuple = ()  # (label, kind, knob, value) of merged duplicates
    description: str = ""  # the full setting when the label is a generated short name
    rotation: int = 0  # with rotate_seats: 1 the stated seating, 2.. its rotations

    def to_dict(self) -> dict:
        out = {"label": self.label, "slug": self.slug, "kind": self.kind,
               "knob": self.knob, "value": self.value,
               "description": self.description or self.label, "rules": self.rules.to_dict(),
               "policy": dict(self.policy),
               "aliases": [dict(zip(("label", "kind", "knob", "value"), a, strict=True))
                           for a in self.aliases]}
        if self.rotation:  # folders of experiments without rotation keep their identity
            out["rotation"] = self.rotation
        return out


@dataclass(frozen=True)
class Experiment:
    """A parsed, validated experiment file."""

    path: Path
    name: str
    game: str
    description: str
    preset: str | None
    rules: dict  # the base overrides as written
    policy: dict  # the base policy, every side resolved
    games: int
    until_ci: float | None
    max_games: int | None
    seed: int
    sweeps: list[dict] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    file_games: int | None = None  # the file's games when ``games`` was overridden
    data: str | None = None  # the user's data folder (resolved), None: the package's
    rotate_seats: bool = False  # every cell under each cyclic rotation of the seats

    def with_games(self, n_games: int | None) -> Experiment:
        """This experiment played at ``n_games`` per cell instead of the file's ``games``
        (``None``: unchanged). UsageError unless a positive integer within max_games."""
        if n_games is None:
            return self
        if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
            raise UsageError(f"games per cell must be a positive integer, got {n_games!r}")
        if n_games > MAX_GAMES:
            raise UsageError(f"games per cell must be at most {MAX_GAMES:,}, got {n_games:,}")
        if self.max_games is not None and n_games > self.max_games:
            raise UsageError(f"games per cell ({n_games:,}) exceeds the file's max_games "
                             f"({self.max_games:,})")
        return replace(self, games=n_games, file_games=self.file_games or self.games)

    def spec(self) -> dict:
        """What ``experiment.json`` holds (JSON types only)."""
        head = {k: getattr(self, k) for k in ("name", "game", "description", "preset",
                                             "rules", "policy", "games", "file_games",
                                             "until_ci", "max_games", "seed", "data",
                                             "rotate_seats")}
        if head["data"] is None:  # folders from before data folders keep their identity
            del head["data"]
        if not head["rotate_seats"]:  # and those from before rotation
            del head["rotate_seats"]
        return _jsonable({"format": FORMAT, "experiment": head, "sweeps": self.sweeps,
                          "cells": [c.to_dict() for c in self.cells]})


def _jsonable(value):
    return json.loads(json.dumps(value))


def format_value(value) -> str:
    """A knob value as written in TOML (true/false for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def played_text(stated, played) -> str:
    """A knob setting as a label shows it: the value written, and the value played when
    the written one is a placeholder (``start_generalitat=0 (plays 5)``)."""
    if stated == played:
        return format_value(stated)
    return f"{format_value(stated)} (plays {format_value(played)})"


# -- finding the line of a key in the file text -----------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?\s*(#.*)?$")


class _Lines:
    """Best-effort line numbers for semantic errors, found by searching the file text."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers = []  # (index, is_array, dotted name)
        for i, line in enumerate(self.lines):
            m = _HEADER.match(line)
            if m:
                name = m.group(2).replace('"', "").replace("'", "").replace(" ", "")
                self.headers.append((i, m.group(1) == "[[", name))

    def block(self, table: str, index: int | None) -> tuple[int, int] | None:
        """Line range [start, stop) of ``[table]`` (or the index-th ``[[table]]``)."""
        if table == "":
            return 0, self.headers[0][0] if self.headers else len(self.lines)
        starts = [(i, arr) for i, arr, name in self.headers if name == table]
        if index is not None:
            starts = [s for s in starts if s[1]]
        pick = index or 0
        if pick >= len(starts):
            return None
        start = starts[pick][0]
        for i, arr, name in self.headers:
            if i > start and (name.split(".")[0] != table or (arr and name == table)):
                return start, i
        return start, len(self.lines)

    def find(self, table: str, index: int | None = None, key: str | None = None,
             sub: str | None = None, token=None) -> int | None:
        """1-based line of the most precise thing found: token, sub-key, key, header."""
        if table == "" and key is not None:
            hit = next((i for i, _, name in self.headers if name.split(".")[0] == key), None)
            if hit is not None:
                return hit + 1
        block = self.block(table, index)
        start, stop = block or (0, len(self.lines))
        best = start if table and block else None
        for pattern in (_key_pattern(key), _key_pattern(sub), _token_pattern(token)):
            if pattern is None:
                continue
            begin = best if best is not None else start
            hit = next((i for i in range(begin, stop) if pattern.search(self.lines[i])
                        and not self.lines[i].lstrip().startswith("#")), None)
            if hit is not None:
                best = hit
        return None if best is None else best + 1


def _key_pattern(key):
    if key is None:
        return None
    k = re.escape(key)
    return re.compile(rf"(^|[\s{{,.\[])[\"']?{k}[\"']?\s*(=|\])")


def _token_pattern(token):
    if token is None or isinstance(token, (dict, list)):
        return None
    if isinstance(token, str):
        return re.compile(rf"[\"']{re.escape(token)}[\"']")
    text = format_value(token)
    return re.compile(rf"(?<![\w.]){re.escape(text)}(?![\w.])")


# -- parsing -----------------------------------------------------------------------------


def bundled(name: str) -> Path:
    """The experiment file ``name`` (``victus_difficulty``) that comes with simkit: from
    the folder ``SIMKIT_EXPERIMENTS`` names, else the ``experiments/`` folder of the
    checkout simkit is installed from, so a notebook copied anywhere still finds it."""
    folders = [Path(os.environ["SIMKIT_EXPERIMENTS"])] if os.environ.get(
        "SIMKIT_EXPERIMENTS") else []
    folders.append(Path(__file__).resolve().parents[1] / "experiments")
    for folder in folders:
        path = folder / f"{name}.toml"
        if path.is_file():
            return path
    found = sorted(p.stem for f in folders if f.is_dir() for p in f.glob("*.toml"))
    raise UsageError(f"no experiment file {name!r} in {', '.join(map(str, folders))}"
                     + (f"; there: {', '.join(found)}" if found else "; set "
                        "SIMKIT_EXPERIMENTS to the folder of simkit's experiments/"))


def load_experiment(path) -> Experiment:
    """Read and validate an experiment file; ExperimentError on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExperimentError(f"{path}: cannot read the experiment file: {exc}") from None
    return parse_experiment(text, path)


def parse_experiment(text: str, path="<experiment>") -> Experiment:
    """Validate the TOML ``text`` of an experiment file (``path`` names it in errors)."""
    path = Path(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        where = f", line {m.group(1)}" if m else ""
        raise ExperimentError(f"{path}{where}: malformed TOML: {exc}") from None
    return _Parser(path, text).parse(data)


class _Parser:
    def __init__(self, path: Path, text: str):
        self.path = path
        self.where = _Lines(text)
        self.data = None  # the game's data folder, once [experiment] names the game
        self.played = None  # the game on that folder (its resolve_rules checks cells)

    def fail(self, problem: str, table: str = "experiment", index: int | None = None,
             key: str | None = None, sub: str | None = None, token=None):
        line = self.where.find(table, index, key, sub, token)
        at = f", line {line}" if line else ""
        raise ExperimentError(f"{self.path}{at}: {problem}")

    # -- [experiment] ----------------------------------------------------------------
    def parse(self, data: dict) -> Experiment:
        for key in data:
            if key not in ("experiment", "sweep"):
                self.fail(f"unknown top-level key {key!r}; an experiment file has one "
                          "[experiment] table and [[sweep]] tables", table="", key=key)
        head = data.get("experiment")
        if not isinstance(head, dict):
            self.fail("missing [experiment] table (with name, game and games)", table="")
        for key in head:
            if key not in _EXPERIMENT_KEYS:
                self.fail(f"unknown key {key!r} in [experiment]; allowed: "
                          + ", ".join(_EXPERIMENT_KEYS), key=key)
        name = self.text_value(head, "name", required=True)
        if not _NAME.match(name):
            self.fail(f"name {name!r} must be letters, digits, '_', '.' or '-' (it names "
                      "the results folder)", key="name")
        game = self.game(head)
        folder = self.data_folder(game, head)
        self.played = game.with_data(folder)  # the game on the files it plays
        self.data = self.played.data  # placeholders resolve on these files
        description = self.text_value(head, "description") or ""
        preset = self.text_value(head, "preset")
        base = self.base_rules(game, preset, head.get("rules", {}))
        policy = self.policy(game, head.get("policy"), {}, key="policy")
        n_games, until_ci, max_games = self.budget(head)
        seed = self.seed(head)
        sweeps = data.get("sweep", [])
        if not isinstance(sweeps, list):
            self.fail("sweep must be an array of tables: write each as [[sweep]]",
                      table="", key="sweep")
        overrides = dict(head.get("rules", {}))
        cells = [Cell("base", "base", "", "", base.effective(self.data), policy)]
        self.screen_seed, self.designs = seed, {}
        for i, entry in enumerate(sweeps):
            cells += self.sweep(game, base, overrides, policy, entry, i)
        cells = [short_label(game, cell) for cell in cells]
        rotate = self.rotate_flag(head)
        if rotate:
            cells = [c for cell in cells for c in self.rotated(cell)]
        sweeps = [{**entry, "design": self.designs[i]} if i in self.designs else entry
                  for i, entry in enumerate(sweeps)]
        return Experiment(self.path, name, game.name, description, preset, overrides,
                          policy, n_games, until_ci, max_games, seed, sweeps,
                          _dedupe(cells), data=folder, rotate_seats=rotate)

    def rotate_flag(self, head: dict) -> bool:
        """``rotate_seats``: a boolean, for a game whose seats hold tribes."""
        value = head.get("rotate_seats", False)
        if not isinstance(value, bool):
            self.fail(f"rotate_seats must be true or false, got {value!r}",
                      key="rotate_seats")
        if value and getattr(self.played, "rotate_seats", None) is None:
            self.fail(f"rotate_seats: {self.played.name} has no seats to rotate (its sides "
                      "play different roles); allowed only for games whose seats hold "
                      "tribes", key="rotate_seats")
        return value

    def rotated(self, cell: Cell) -> list[Cell]:
        """The cell under every cyclic rotation of its seated tribes, rotation 1 the
        stated seating under the cell's own label (``simkit.sides.seatings``)."""
        out = []
        for k, rules in enumerate(seatings(self.played, cell.rules), start=1):
            rules = rules.effective(self.data)
            seated = ", ".join(self.played.seated(rules))
            label = cell.label if k == 1 else f"{cell.label} [rotation {k}]"
            out.append(replace(cell, label=label, rules=rules,
                               rotation=k, description=f"{cell.description or cell.label}"
                                                       f"; seated {seated}"))
        return out

    def data_folder(self, game, head: dict) -> str | None:
        """The ``data`` folder, relative to the file, with its files validated."""
        text = self.text_value(head, "data")
        if text is None:
            return None
        folder = (self.path.parent / text).resolve()
        try:
            game.with_data(folder)
        except ComponentError as exc:
            self.fail(str(exc), key="data")
        return str(folder)

    def text_value(self, head: dict, key: str, required: bool = False) -> str | None:
        if key not in head:
            if required:
                self.fail(f"[experiment] needs {key} = \"...\" ({_EXPERIMENT_KEYS[key]})")
            return None
        value = head[key]
        if not isinstance(value, str) or not value:
            self.fail(f"{key} must be a non-empty string, got {value!r}", key=key)
        return value

    def game(self, head: dict):
        name = self.text_value(head, "game", required=True)
        try:
            return games.get(name)
        except UsageError as exc:
            self.fail(str(exc), key="game")

    def base_rules(self, game, preset, overrides):
        try:
            rules = game.resolve_rules(preset)
        except RulesError as exc:
            self.fail(str(exc), key="preset")
        if not isinstance(overrides, dict):
            self.fail(f"rules must be a table {{ knob = value }}, got {overrides!r}",
                      key="rules")
        for knob, value in overrides.items():
            self.check_knob(game, knob, value, key="rules", sub=knob)
        try:
            return rules.replace(overrides)
        except RulesError as exc:
            self.fail(str(exc), key="rules")

    def check_knob(self, game, knob, value, **where) -> None:
        try:
            game.Rules.knob(knob).check(value)
        except RulesError as exc:
            self.fail(str(exc), **where)

    def policy(self, game, entry, base: dict, prefix: str = "", **where) -> dict:
        if entry is None:
            return game.resolve_policy(None)
        if not isinstance(entry, (str, dict)):
            self.fail(f"{prefix}a policy is a name or a table {{ side = name }}, got "
                      f"{entry!r}", **where)
        try:
            return game.resolve_policy(entry if isinstance(entry, str) else {**base, **entry})
        except UsageError as exc:
            bad = next((v for v in ([entry] if isinstance(entry, str) else entry.values())
                        if isinstance(v, str) and v in str(exc)), None)
            self.fail(f"{prefix}{exc}", token=bad, **where)

    def budget(self, head: dict) -> tuple[int, float | None, int | None]:
        until_ci = head.get("until_ci")
        if until_ci is not None and (isinstance(until_ci, bool)
                                     or not isinstance(until_ci, (int, float))
                                     or not 0 < until_ci < 0.5):
            self.fail(f"until_ci must be a 95% half-width between 0 and 0.5 (e.g. 0.005), "
                      f"got {until_ci!r}", key="until_ci")
        if "games" not in head and until_ci is None:
            self.fail("[experiment] needs games = N (games per cell) or until_ci = "
                      "HALF_WIDTH")
        n_games = self.count(head, "games", DEFAULT_FIRST_BATCH)
        max_games = self.count(head, "max_games", None)
        if max_games is not None and until_ci is None:
            self.fail("max_games caps until_ci: give until_ci too, or drop max_games",
                      key="max_games")
        if max_games is not None and max_games < n_games:
            self.fail(f"max_games ({max_games}) must be at least games ({n_games})",
                      key="max_games")
        return n_games, (None if until_ci is None else float(until_ci)), max_games

    def count(self, head: dict, key: str, default):
        if key not in head:
            return default
        value = head[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.fail(f"{key} must be a positive integer, got {value!r}", key=key)
        if value > MAX_GAMES:
            self.fail(f"{key} must be at most {MAX_GAMES:,} (a game index is a 64-bit "
                      f"integer), got {value:,}", key=key)
        return value

    def seed(self, head: dict) -> int:
        value = head.get("seed", 0)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"seed must be an integer, got {value!r}", key="seed")
        try:
            return check_seed(value)
        except UsageError as exc:
            self.fail(str(exc), key="seed")

    # -- [[sweep]] -------------------------------------------------------------------
    def sweep(self, game, base, overrides, policy, entry, i) -> list[Cell]:
        where = {"table": "sweep", "index": i}
        label = f"[[sweep]] {i + 1}"
        if not isinstance(entry, dict):
            self.fail(f"{label} must be a table", **where)
        kind = entry.get("kind")
        if kind not in _SWEEP_ITEMS and kind != "screen":
            self.fail(f"{label}: kind must be one of {', '.join(_SWEEP_ITEMS)} or screen, "
                      f"got {kind!r}", key="kind", **where)
        if kind == "screen":
            return self.screen_cells(base, policy, entry, i, f"{label} (screen)", where)
        items = _SWEEP_ITEMS[kind]
        allowed = ("kind", items, "presets") if items == "knobs" else ("kind", items)
        for key in entry:
            if key not in allowed:
                self.fail(f"{label} ({kind}): unknown key {key!r}; allowed: "
                          + ", ".join(allowed), key=key, **where)
        value = entry.get(items)
        expected = "a table { knob = [values] }" if items == "knobs" else "an array"
        if not isinstance(value, dict if items == "knobs" else list):
            self.fail(f"{label} ({kind}) needs {items} = {expected}, got {value!r}",
                      key=items if items in entry else None, **where)
        if not value:
            self.fail(f"{label} ({kind}) is empty: {items} lists nothing to vary",
                      key=items, **where)
        context = {"label": f"{label} ({kind})", "where": {**where, "key": items}}
        if kind == "presets":
            return self.preset_cells(game, overrides, policy, value, **context)
        if kind == "policies":
            return self.policy_cells(base, policy, game, value, **context)
        if "presets" in entry:
            return self.crossed_cells(game, overrides, policy, kind, entry["presets"], value,
                                      **context)
        for knob, values in value.items():  # a grid's values may need each other
            self.knob_values(game, base, knob, values, alone=kind == "one_at_a_time",
                             **context)
        if kind == "one_at_a_time":
            return [self.rules_cell(base, policy, kind, {knob: v}, **context)
                    for knob, values in value.items() for v in values]
        size = math.prod(len(v) for v in value.values())
        if size > MAX_CELLS:
            self.fail(f"{context['label']}: the grid has {size:,} cells; at most "
                      f"{MAX_CELLS:,}", **context["where"])
        return [self.rules_cell(base, policy, kind, dict(zip(value, combo, strict=True)),
                                **context)
                for combo in itertools.product(*value.values())]

    def knob_values(self, game, base, knob, values, alone, label, where) -> None:
        try:
            game.Rules.knob(knob)
        except RulesError as exc:
            self.fail(f"{label}: {exc}", sub=knob, **where)
        if not isinstance(values, list) or not values:
            self.fail(f"{label}: {knob} needs a non-empty array of values, e.g. {knob} = "
                      f"[{format_value(base.to_dict()[knob])}, ...]; got {values!r}",
                      sub=knob, **where)
        for v in values:
            try:
                game.Rules.knob(knob).check(v)
                if alone:
                    self.played.resolve_rules(base.replace({knob: v}))
            except RulesError as exc:
                self.fail(f"{label}: {exc}", sub=knob, token=v, **where)

    def crossed_cells(self, game, overrides, policy, kind, names, knobs, label,
                      where) -> list[Cell]:
        """Presets crossed with knobs (``presets = [...]`` in a knob sweep): each preset
        (with the base rule overrides) with each knob setting - every value of each knob
        alone (one_at_a_time) or every combination (grid). The cells form a grid whose
        first dimension is the preset."""
        if not isinstance(names, list) or not names:
            self.fail(f"{label}: presets needs a non-empty array of preset names", **where)
        cells = []
        for name in names:
            if not isinstance(name, str) or name not in game.presets:
                self.fail(f"{label}: unknown preset {name!r} for {game.name}; presets: "
                          + ", ".join(game.presets), token=name, **where)
            try:
                base = game.resolve_rules(name).replace(overrides)
            except RulesError as exc:
                self.fail(f"{label}: preset {name}: {exc}", token=name, **where)
            for knob, values in knobs.items():
                self.knob_values(game, base, knob, values, alone=kind == "one_at_a_time",
                                 label=f"{label}, preset {name}", where=where)
            if kind == "one_at_a_time":
                combos = [{knob: v} for knob, values in knobs.items() for v in values]
            else:
                combos = [dict(zip(knobs, combo, strict=True))
                          for combo in itertools.product(*knobs.values())]
            for changes in combos:
                c = self.rules_cell(base, policy, "grid", changes, label, where)
                cells.append(replace(c, label=f"{name}: {c.label}", knob=f"preset, {c.knob}",
                                     value=f"{name}, {c.value}"))
        return cells

    def screen_cells(self, base, policy, entry, i, label, where) -> list[Cell]:
        """A Morris screening's points as cells (``simkit.screen.design`` from the base
        and the experiment's seed), labelled ``screen W.P`` (walk W, point P); the
        design is kept in the sweep's entry for the report (``design``)."""
        for key in entry:
            if key not in _SCREEN_KEYS:
                self.fail(f"{label}: unknown key {key!r}; allowed: "
                          + ", ".join(_SCREEN_KEYS), key=key, **where)
        if self.designs:
            self.fail(f"{label}: one screen sweep per experiment file", **where)
        knobs = entry.get("knobs")
        if knobs is not None and (not isinstance(knobs, list) or not knobs
                                  or not all(isinstance(k, str) for k in knobs)):
            self.fail(f"{label}: knobs must be an array of knob names (or left out: every "
                      f"knob that can be screened), got {knobs!r}", key="knobs", **where)
        sizes = {key: entry.get(key, default) for key, default in
                 (("trajectories", 10), ("levels", 4))}
        for key, value in sizes.items():
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(f"{label}: {key} must be an integer, got {value!r}", key=key,
                          **where)
        try:
            chosen, x, points = screen.design(self.played, base, knobs,
                                              sizes["trajectories"], sizes["levels"],
                                              self.screen_seed)
        except (RulesError, UsageError) as exc:
            bad = next((k for k in knobs or [] if repr(k) in str(exc)), None)
            self.fail(f"{label}: {exc}", key="knobs" if bad else None, token=bad, **where)
        names = [f.knob.name for f in chosen]
        self.designs[i] = {"knobs": names, "levels": sizes["levels"],
                           "trajectories": sizes["trajectories"], "x": x.tolist()}
        cells = []
        for k, rules in enumerate(points):
            rules = rules.effective(self.data)
            values = [format_value(getattr(rules, n)) for n in names]
            cells.append(Cell(f"screen {k // (len(names) + 1) + 1}.{k % (len(names) + 1)}",
                              "screen", ", ".join(names), ", ".join(values), rules, policy,
                              description=", ".join(f"{n}={v}" for n, v in
                                                    zip(names, values, strict=True))))
        return cells

    def rules_cell(self, base, policy, kind, changes, label, where) -> Cell:
        try:
            # what the data files cannot set up is refused too
            stated = self.played.resolve_rules(base.replace(changes))
        except RulesError as exc:
            self.fail(f"{label}: {exc}", **where)
        rules = stated.effective(self.data)
        text = {k: rules.labelled(k, played_text(v, getattr(rules, k)))
                for k, v in changes.items()}
        return Cell(", ".join(f"{k}={v}" for k, v in text.items()), kind, ", ".join(text),
                    ", ".join(text.values()), rules, policy)

    def preset_cells(self, game, overrides, policy, names, label, where) -> list[Cell]:
        cells = []
        for name in names:
            if not isinstance(name, str):
                self.fail(f"{label}: presets are names (strings), got {name!r}", **where)
            try:
                rules = game.resolve_rules(name).replace(overrides).effective(self.data)
            except RulesError as exc:
                self.fail(f"{label}: {exc}", token=name, **where)
            cells.append(Cell(f"preset {name}", "presets", "preset", name, rules, policy))
        return cells

    def policy_cells(self, base, policy, game, entries, label, where) -> list[Cell]:
        cells = []
        for entry in entries:
            chosen = self.policy(game, entry, policy, prefix=f"{label}: ", **where)
            text = entry if isinstance(entry, str) else " ".join(
                f"{side}={name}" for side, name in entry.items())
            if not text:
                self.fail(f"{label}: an empty policy table changes nothing", **where)
            cells.append(Cell(f"policy {text}", "policies", "policy", text,
                              base.effective(self.data), chosen))
        return cells


LABEL_LIMIT = 32


def short_label(game, cell: Cell) -> Cell:
    """A knob cell whose label is longer than ``LABEL_LIMIT`` gets a generated short
    name - each knob by its initials (``moderating_sense_fury`` -> ``msf``) unless two
    of the game's knobs share them - and keeps the full setting as its description."""
    if len(cell.label) <= LABEL_LIMIT or cell.kind not in ("one_at_a_time", "grid"):
        return cell
    names = [k.name for k in game.Rules.knobs()]
    initials = {n: "".join(w[0] for w in n.split("_")) for n in names}
    clash = {a for a in initials.values() if list(initials.values()).count(a) > 1}
    parts = []
    for knob, value in zip(cell.knob.split(", "), cell.value.split(", "), strict=True):
        if knob == "preset":
            parts.append(value)
            continue
        short = initials.get(knob, knob)
        parts.append(f"{knob if short in clash or short in names else short}={value}")
    return replace(cell, label=" ".join(parts), description=cell.label)


def _dedupe(cells: list[Cell]) -> list[Cell]:
    """Merge cells with the same rules and policy (first label kept); give unique slugs."""
    kept: dict[str, Cell] = {}
    for cell in cells:
        key = json.dumps([cell.rules.to_dict(), cell.policy], sort_keys=True)
        if key in kept:
            first = kept[key]
            alias = (cell.label, cell.kind, cell.knob, cell.value)
            kept[key] = Cell(**{**first.__dict__, "aliases": (*first.aliases, alias)})
        else:
            kept[key] = cell
    out, slugs = [], set()
    for cell in kept.values():
        slug = _slug(cell.label, slugs)
        slugs.add(slug)
        out.append(Cell(**{**cell.__dict__, "slug": slug}))
    if len(out) > MAX_CELLS:
        raise ExperimentError(f"the experiment has {len(out):,} cells; at most {MAX_CELLS:,}")
    return out


def _slug(label: str, taken: set) -> str:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", label.replace("=", "-")).strip("_.")[:100]
    slug = slug or "cell"
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


# -- running -----------------------------------------------------------------------------


@dataclass
class SweepInfo:
    """What ``sweep`` did: cells, games played now (0 when everything was there), time."""

    out: Path | None = None
    cells: int = 0
    games_played: int = 0
    seconds: float = 0.0
    games: int = 0  # games per cell asked (the first batch with until_ci)
    extended_from: int | None = None  # the folder's games per cell before, if fewer


def sweep(path, out=None, *, games: int | None = None, n_jobs: int = 1,
          progress: bool = False, backend: str = "threads", client=None,
          info: SweepInfo | None = None, allow_other_engine: bool = False,
          data=None) -> pd.DataFrame:
    """Run every cell of the experiment file ``path`` into ``out`` (default
    ``results/<name>``); returns ``summarize(out)``, also written to ``summary.csv``.

    ``games``: games per cell instead of the file's (a smaller or larger run of the same
    experiment, recorded in the folder). ``backend``/``client``: as for
    ``simkit.simulate`` (``"dask"`` runs the chunks on ``client``, or the current
    dask.distributed client). ``allow_other_engine``: as for ``simkit.simulate``.
    ``data``: a data folder to play instead of the file's ``data`` (or the package's).
    Rerunning resumes: cells and games already in the folder
    are not played again; asking for more games per cell extends them
    (``info.extended_from``); asking for fewer than the folder was run with is refused.
    """
    experiment = load_experiment(path).with_games(games)
    if data is not None:
        from simkit.games import get as get_game  # ``games`` is the games per cell here

        get_game(experiment.game).with_data(data)  # bad files: one line now
        experiment = replace(experiment, data=str(Path(data).resolve()))
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    out = Path(out) if out is not None else Path("results") / experiment.name
    info = info if info is not None else SweepInfo()
    info.out, info.cells, info.games = out, len(experiment.cells), experiment.games
    if out.exists() and not out.is_dir():
        raise StoreError(f"experiment folder {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    lock = FolderLock(out).acquire()  # one sweep per experiment folder at a time
    try:
        info.extended_from = prepare_folder(out, experiment)
        return _play_cells(experiment, out, n_jobs, progress, backend, client, info,
                           allow_other_engine)
    finally:
        lock.release()


def _play_cells(experiment, out, n_jobs, progress, backend, client, info,
                allow_other_engine) -> pd.DataFrame:
    """Every cell into its results folder (those already complete are skipped)."""
    folders = [out / CELLS_DIR / cell.slug for cell in experiment.cells]
    total = experiment.games * len(folders)
    done = sum(_games_done(f, experiment.games) for f in folders)
    started = time.perf_counter()
    with tqdm(total=total, initial=done, unit=" games", unit_scale=True,
              desc=experiment.name, disable=not progress, file=sys.stderr,
              smoothing=0.1) as bar:
        def advance(games_done: int) -> None:
            if bar.n + games_done > bar.total:  # until_ci asked for more games
                bar.total = bar.n + games_done
            bar.update(games_done)

        for cell, folder in zip(experiment.cells, folders, strict=True):
            bar.set_postfix_str(cell.label, refresh=False)
            run = RunInfo()
            simulate(experiment.game, experiment.games, seed=experiment.seed,
                     rules=cell.rules, policy=cell.policy, n_jobs=n_jobs,
                     progress=advance if progress else False, out=folder,
                     until_ci=experiment.until_ci, max_games=experiment.max_games,
                     backend=backend, client=client, info=run, keep_rows=False,
                     allow_other_engine=allow_other_engine, data=experiment.data)
            info.games_played += run.games_played
    info.seconds = time.perf_counter() - started
    summary = summarize(out)
    _write_atomic(out / SUMMARY_FILE, lambda tmp: summary.to_csv(tmp, index=False))
    return summary


def _games_done(folder: Path, n_games: int) -> int:
    if not (folder / MANIFEST).exists():
        return 0
    done = [(p["start"], p["stop"]) for p in read_manifest(folder)["parts"]]
    return n_games - sum(b - a for a, b in missing_ranges(done, n_games))


def prepare_folder(out: Path, experiment: Experiment) -> int | None:
    """Create ``out`` with ``experiment.json``, or check it holds this experiment at no
    more games per cell than asked. Returns the folder's previous games per cell when
    this run asks for more (the run extends it), else None."""
    extended_from = check_folder(out, experiment)
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(experiment.spec(), indent=2)
    _write_atomic(out / EXPERIMENT_FILE, lambda tmp: Path(tmp).write_text(text))
    return extended_from


def check_folder(out: Path, experiment: Experiment) -> int | None:
    """Refuse a folder this run cannot write to (another experiment, fewer games per cell
    than it was run with, a stranger's files), writing nothing; the previous games per
    cell when this run extends the folder, else None."""
    spec = experiment.spec()
    extended_from = None
    if out.exists() and not out.is_dir():
        raise StoreError(f"experiment folder {out} exists and is not a folder")
    if (out / EXPERIMENT_FILE).exists():
        stored = read_experiment(out)
        _check_same_experiment(out, stored, spec)
        before = stored["experiment"].get("games")
        if isinstance(before, int) and before > experiment.games:
            raise StoreError(f"{out} was run with {before:,} games per cell; this run asks "
                             f"for {experiment.games:,}: ask for {before:,} or more (e.g. "
                             f"--games {before}) to resume or extend it, or choose another "
                             "--out folder")
        if isinstance(before, int) and before < experiment.games:
            extended_from = before
    elif out.exists() and any(p.name != LOCK for p in out.iterdir()):
        raise StoreError(f"{out} is not empty and holds no {EXPERIMENT_FILE}; choose an "
                         "empty or new folder for the experiment")
    return extended_from


def _check_same_experiment(out: Path, stored: dict, spec: dict) -> None:
    def identity(s: dict) -> dict:
        head = {k: v for k, v in s.get("experiment", {}).items() if k not in _EXTENDABLE}
        return {"experiment": head, "cells": s.get("cells")}

    old, new = identity(stored), identity(spec)
    if old == new:
        return
    differ = sorted(k for k in set(old["experiment"]) | set(new["experiment"])
                    if old["experiment"].get(k) != new["experiment"].get(k))
    if old["cells"] != new["cells"]:
        differ.append("cells")
    raise StoreError(f"{out} holds a different experiment (differs in: {', '.join(differ)}); "
                     "choose another --out folder or delete this one")


def read_experiment(out) -> dict:
    file = Path(out) / EXPERIMENT_FILE
    try:
        spec = json.loads(file.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise StoreError(f"{file}: unreadable experiment file: {exc}") from None
    if not isinstance(spec, dict) or spec.get("format") != FORMAT:
        raise StoreError(f"{file}: not a simkit experiment file of format {FORMAT}")
    return spec


# -- reading results back ----------------------------------------------------------------


def cell_folders(path) -> tuple[dict, list[tuple[dict, Path]]]:
    """(experiment head, [(cell entry, results folder)]) of an experiment folder, or of a
    single results folder seen as a one-cell experiment (its cell is ``base``)."""
    path = Path(path)
    if (path / EXPERIMENT_FILE).exists():
        spec = read_experiment(path)
        return spec["experiment"], [(c, path / CELLS_DIR / c["slug"]) for c in spec["cells"]]
    if (path / MANIFEST).exists():
        run = read_manifest(path)["spec"]
        standard = games.get(run["game"]).Rules().to_dict()
        changed = {k: v for k, v in run["rules"].items() if standard.get(k) != v}
        head = {"name": path.name, "game": run["game"], "seed": run["seed"],
                "preset": None, "rules": changed, "policy": run["policy"]}
        cell = {"label": "base", "slug": "", "kind": "base", "knob": "", "value": "",
                "rules": run["rules"], "policy": run["policy"], "aliases": []}
        return head, [(cell, path)]
    raise StoreError(f"{path} is neither an experiment folder (no {EXPERIMENT_FILE}) nor a "
                     f"results folder (no {MANIFEST})")


def games_in(folder: Path) -> int:
    """Games [0, n) a results folder's manifest lists without a gap (capped at the most
    games any of its runs asked for: a later, smaller run does not hide games). A part
    it lists counts even if its file was deleted since: loading the cell then refuses
    the folder, naming the missing games, instead of reading fewer."""
    manifest = read_manifest(folder)
    done = sorted((p["start"], p["stop"]) for p in manifest["parts"])
    gaps = missing_ranges(done, max((b for _, b in done), default=0))
    n = gaps[0][0] if gaps else max((b for _, b in done), default=0)
    asked = [r["n_games"] for r in manifest.get("runs") or [] if "n_games" in r]
    return min(n, max(asked)) if asked else n


def cell_schema(folder: Path) -> dict:
    """The outcome schema of a cell's results folder (StoreError if it has none yet)."""
    if not (folder / MANIFEST).exists():
        raise StoreError(f"{folder} has no results yet; run the experiment (simkit sweep) "
                         "to finish it")
    return read_manifest(folder)["schema"]


def load_cell(folder: Path, columns: list[str] | None = None) -> pd.DataFrame:
    """The games of one cell (``simkit.load`` of its first ``games_in`` games)."""
    cell_schema(folder)
    n = games_in(folder)
    if n == 0:
        raise StoreError(f"{folder} holds no finished games yet; rerun simkit sweep")
    return load(folder, n_games=n, columns=columns)


def summarize(path) -> pd.DataFrame:
    """One row per cell: cell, knob, value, games, then for each winner category its
    rate with Wilson 95% low/high (``winner_<c>``, ``_low``, ``_high``), each end reason's
    rate (``end_reason_<r>``; a category a cell cannot hold, such as a tribe not
    in play, is missing there) and the mean of ``turns`` (``turns_mean``), every number
    from ``simkit.load`` of the cell's results folder."""
    _, cells = cell_folders(path)
    rows = []
    for cell, folder in cells:
        schema = cell_schema(folder)  # its own: cells of other player counts differ
        frame = load_cell(folder, [c for c in ("winner", "end_reason", "turns")
                                   if c in schema])
        rows.append(_summary_row(cell, frame, schema))
    return pd.DataFrame(rows)


def _summary_row(cell: dict, frame: pd.DataFrame, schema: dict) -> dict:
    n = len(frame)
    row = {"cell": cell["label"], "knob": cell["knob"], "value": cell["value"], "games": n}
    if "winner" in frame:
        counts = frame["winner"].value_counts()
        for category in schema["winner"]["categories"]:
            ci = stats.wilson(int(counts.get(category, 0)), n)
            row |= {f"winner_{category}": ci.estimate, f"winner_{category}_low": ci.low,
                    f"winner_{category}_high": ci.high}
    if "end_reason" in frame:
        counts = frame["end_reason"].value_counts()
        for reason in schema["end_reason"]["categories"]:
            row[f"end_reason_{reason}"] = int(counts.get(reason, 0)) / n
    if "turns" in frame:
        row["turns_mean"] = float(frame["turns"].mean())
    return row
