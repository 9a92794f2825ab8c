"""Victus's 150 event/leader cards: load ``data/cards.toml``, validate it, compile it.

The rulebook prints no card texts ("Event/Leader Card Anatomy" names the fields only);
``data/cards.toml`` is a reconstruction (its header says what it honours). This module
defines the small language its effects are written in, checks a card file against it
and compiles it into flat arrays that ``card_effects.py`` interprets inside the njit
engine.

A card
======

``[[card]]`` tables with these keys (``number``, ``stage``, ``title``, ``kind``,
``war_council`` and exactly one of ``sense``/``fury`` are required)::

    number       1..150; 1-50 are Stage I "Pópoli", 51-100 II "Berwick", 101-150 III
    stage        "I" | "II" | "III" (must match the number)
    title        short title
    first_game   true: the "•" mark (first-game deck; events only)
    kind         "event" | "barcelonan_leader" | "bourbon_leader"
    leader       the character (leaders only): "Antoni de Villarroel", "Duke of Pópoli", ...
    war_council  "movement" | "markers" | "artillery" | "defense" | "all"
    sense, fury  competitive points, 1..5
    almanac      { generalitat = -1, hospital = -2 }: pin steps, + clockwise
                 (keys: generalitat, port, gunpowder_store, hospital)
    effect       ops resolved when the card is played (step 2; the almanac is step 3)
    start_of_turn, end_of_turn, end_of_round, next_round_start
                 timed ops. An event's lists run once: ``end_of_turn`` at the end of the turn
                 it is played, ``end_of_round`` at the end of that round, ``start_of_turn``
                 at its player's next turn, ``next_round_start`` at the start of the next
                 round. A leader's lists run every time while it is active (its owner's
                 turns for the turn lists; every round for the round lists).
    modifiers    leaders only: persistent modifiers (below)

Space sets
==========

Where an op names spaces it takes a string or a list of strings, each a term of the
rulebook's notation; a term starting with "-" removes spaces. Terms: board ids ("12",
"montjuic", "port", "beach", "redoubt", "A0", "expedition", "reserve", "wounded",
"captured", camp ids ...); "1X".."5X" (Barcelona spaces whose number starts with that
digit: "4X" = 41..48); "barcelona"; "walls" (wall spaces in the Glossary's sense: bastions,
red, and the blue wall spaces); "wall_spaces" (the blue ones only); "bastions"; "inner";
"hospitals" (14, 34); "marker_spaces" (32, 36, Port, 14, 34); "outside" (outside spaces
that are neither camps nor trench); "camps"; "trench_camps" (A0-F0); "other_camps";
"trench" (A1-F3). Example 2's "Barcelona spaces that are neither Montjuïc nor Beach" is
``["barcelona", "-montjuic", "-beach"]``. Sets are expanded once into ``space_sets``.

Operations
==========

Each op is an inline table ``{ op = "...", ... }``; unknown keys are errors. n is an
integer; "X" below is the rulebook's notation.

``advance n``           Advance X (as a die result: reinforce the camps, draw a chance card)
``bombard hits``        Bombardment X (spaces = batteries value, with leaders' modifiers)
``trench n``            Trench +X (n > 0) or Trench -X (n < 0)
``disc disc n | to``    Reinforcements/Batteries/Mine +/-X (the reinforcements disc
                        resolves the icon it ends on); ``to = "min" | "max"`` sets it
``marker marker n | to`` Marker +/-X (clockwise +), or ``to = "min" | "max"``
``temp target n``       ↑ (n = 1) / ↓ (n = -1): this turn only, the value of a marker or disc
                        is read n higher; no pin or disc moves
``move_troops from to [piece n each partial else]``
                        take n pieces (``piece`` = troops | infantry | coronela | cannon) from
                        the ``from`` spaces and place them on the ``to`` spaces, at most
                        ``each`` per space (0/absent: no limit; n absent: each x |to|). If
                        fewer than n can be taken: with ``partial = true`` ("as many as
                        possible") move those; otherwise run the ``else`` ops (or nothing).
                        Troops arriving where Bourbons stand fight at once (not at the
                        Expedition). Sources and the filling order are policy choices.
``place piece where [n mode]``
                        put organ_gun | barricade | bastion_defense | rubble | ruined | battery
                        tiles: ``mode = "choose"`` (default: n tiles on spaces the policy
                        picks), ``"each"`` (n on every space), ``"chance"`` (draw a chance card:
                        1 tile on each of its first n spaces of the stage row). Supplies are
                        the component counts; rubble placed where there is rubble flips it.
``remove piece where [n mode]``
                        take away organ_gun | barricade | bastion_defense | rubble (a rubble or
                        ruined tile) | battery (batteries disc -1 each) | bourbon (n points)
``capture n from [piece]``  Barcelonan troops to the CAPTURED box
``free n to``           troops from CAPTURED to a space (full game)
``eliminate n from [piece]`` troops or cannons to WOUNDED / RESERVE, as in combat
``bourbons where value`` add a Bourbon troop tile of ``value`` (an integer or
                        "reinforcements", the disc's value) to each space; combat at once
                        where troops stand, except at the Expedition
``expedition_combat``   "Combat at the Military Deputy's Expedition"
``heal``                resolve a Healing (Port, then Saint Cross/Saint Mary)
``mine_explodes``       "the mine explodes" (full game)
``chance_hits n hits``  draw a chance card: its first n spaces take ``hits`` hits each
``grant_ap group n``    "Movement (X AP)", "Artillery (X AP)", ... for this turn
``random_card_choice_next_round``  next round every player chooses their card at random
``deactivate_leader side [whose]``  "a Barcelonan/Bourbon leader must be deactivated";
                        ``whose`` = any (default, Example 20) | own | others
``rubble_on_marker n``  put (n > 0) or take back (n < 0) rubble/ruined tiles on the markers
``if cond then [else]`` ``cond`` = a subject and one of ``at_least``/``at_most``/``equals``:
                        ``{ count = "troops", in = "walls", at_least = 5 }`` (any piece name,
                        "bourbon" counts value, "rubble" counts rubble and ruined tiles),
                        ``{ marker = "port", at_most = 0 }``, ``{ disc = "mine", ... }``,
                        ``{ rubble_on_board = true, ... }``, ``{ parallel = true, ... }``
                        (the highest completed Parallel), ``{ leaders = "bourbon", ... }``

Modifiers (leaders)
===================

``{ mod = NAME, n = 1, max = 5, stages = ["I", "II"] }``; ``n`` defaults to 1, ``max`` (a
cap, bombard_spaces only) and ``stages`` are optional. Names (``card_layout.MOD_*``):
bombard_spaces, advance_die, trench_die, bombard_die, reinforcements_die, ap, all_priority,
priority_movement, priority_markers, priority_artillery, priority_defense.

Compiled form
=============

``Cards.ops`` int32[n, OP_WIDTH]: opcode and arguments (``card_layout.OP_*`` documents each
column). ``starts`` is a CSR over (card, timing): the ops of card c at timing t are
``ops[starts[c * N_TIMINGS + t] : starts[c * N_TIMINGS + t + 1]]``. ``if`` compiles to
``IF cond, jump-if-false`` + then-ops (+ ``JUMP end`` + else-ops); ``move_troops`` with an
``else`` stores the else block's start and is followed by ``JUMP end``. Jumps only go
forward, so every list ends. Modifier rows use the modifier code as opcode.

A bad file raises ``ComponentError`` naming the file, the card and the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from simkit.datafile import DataFile, DataFolder, as_folder, frozen
from simkit.errors import ComponentError

from . import card_layout as CL
from . import layout as L
from .components import DATA, Components, load_components

FILE = "cards.toml"
STAGE_SPANS = ((1, 50), (51, 100), (101, 150))
MIN_FIRST_GAME = 12  # the first game deals at most 12 cards per stage (3x4, 4x3)
CARD_KEYS = ("number", "stage", "title", "first_game", "kind", "leader", "war_council",
             "sense", "fury", "almanac", "effect", "start_of_turn", "end_of_turn",
             "end_of_round", "next_round_start", "modifiers")
TIMED_KEYS = CL.TIMING_NAMES[1:5]
# full-game components and rules a first-game ("•") card may not use
FULL_ONLY_OPS = ("capture", "free", "expedition_combat", "deactivate_leader", "mine_explodes")
FULL_ONLY_PIECES = ("organ_gun", "barricade")



def check_battery_tiles(ops: list, where: str) -> None:
    """Bourbon battery tiles are batteries ("represented abstractly by the batteries
    disc, and also by the Bourbon battery tiles", Glossary): removing one moves the disc
    back a space (rulebook, Bourbon Battery Tiles), so an op list that places k tiles must
    also move the batteries disc +k, or a tile won back would be a free Batteries -1."""
    placed = sum(op.get("n", 1) for op in ops  # "each" and "chance" place a varying number
                 if op.get("op") == "place" and op.get("piece") == "battery"
                 and op.get("mode", "choose") == "choose")
    raised = sum(op.get("n", 0) for op in ops
                 if op.get("op") == "disc" and op.get("disc") == "batteries"
                 and "to" not in op)
    if placed and raised != placed:
        raise _Bad(f"{where}: places {placed} Bourbon battery tile(s) but moves the "
                   f"batteries disc {raised:+d}; a battery tile comes with Batteries "
                   f"+{placed}")

class _Bad(Exception):
    """A problem inside one card; the loader adds the file and the card."""


@dataclass(frozen=True, eq=False)
class Cards:
    """The compiled deck. Arrays are read-only; row/card numbers are the printed ones."""

    path: Path
    titles: tuple[str, ...]  # [number] -> title ("" at 0)
    leader_names: tuple[str, ...]  # index = meta[:, M_LEADER]
    meta: np.ndarray  # int16[151, N_META]
    ops: np.ndarray  # int32[n_ops, OP_WIDTH]
    starts: np.ndarray  # int32[151 * N_TIMINGS + 1]
    space_sets: np.ndarray  # int16[n_sets, n_spaces + 1]: size, then space indices
    set_specs: tuple[str, ...]  # each set as written (for traces)
    limits: np.ndarray  # int16[N_LIMITS]
    sense_fury: np.ndarray  # int8[2, 9]: the Sense/Fury track's groups and colours

    def as_tuple(self) -> tuple:
        """The arrays the njit kernels take, in the order of ``card_layout.C_*``."""
        return (self.meta, self.ops, self.starts, self.space_sets, self.limits,
                self.sense_fury)

    def stage(self, stage: int, first_game: bool = False) -> np.ndarray:
        """Card numbers of a stage (0..2), only the "•" ones if ``first_game``."""
        rows = np.flatnonzero(self.meta[:, CL.M_STAGE] == stage)
        rows = rows[rows > 0]
        if first_game:
            rows = rows[self.meta[rows, CL.M_FIRST_GAME] == 1]
        return rows

    def program(self, card: int, timing: int) -> np.ndarray:
        i = card * CL.N_TIMINGS + timing
        return self.ops[self.starts[i]:self.starts[i + 1]]


def card_tuple(data_dir: DataFolder | Path | str = DATA) -> tuple:
    return load_cards(data_dir).as_tuple()


def load_cards(data_dir: DataFolder | Path | str = DATA) -> Cards:
    """The deck in ``data_dir/cards.toml`` (board from the same folder), cached."""
    return _load(as_folder(data_dir))


@lru_cache(maxsize=8)
def _load(data_dir: DataFolder) -> Cards:
    comps = load_components(data_dir)
    doc = DataFile(data_dir / FILE)
    return _Compiler(doc.path, comps).compile(doc.data)


# -- the compiler ---------------------------------------------------------------------------


class _Compiler:
    def __init__(self, path: Path, comps: Components):
        self.path = path
        self.c = comps
        self.rows: list[list[int]] = []
        self.sets: list[tuple[int, ...]] = []
        self.set_index: dict[tuple[int, ...], int] = {}
        self.set_specs: list[str] = []
        self.leaders: list[str] = []
        self.first_game = False

    def fail(self, where: str, problem: str) -> ComponentError:
        return ComponentError(f"{self.path}: {where}: {problem}")

    def compile(self, data: Mapping) -> Cards:
        unknown = sorted(set(data) - {"card"})
        if unknown:
            raise self.fail("file", f"unknown keys {unknown}; the file holds [[card]] tables")
        entries = data.get("card")
        if not isinstance(entries, list) or not entries:
            raise self.fail("[[card]]", "no cards")
        meta = np.zeros((L.N_CARDS + 1, CL.N_META), np.int16)
        meta[0, CL.M_LEADER] = -1
        starts = np.zeros(((L.N_CARDS + 1) * CL.N_TIMINGS + 1), np.int32)
        titles = [""] * (L.N_CARDS + 1)
        by_number: dict[int, Mapping] = {}
        for k, entry in enumerate(entries):
            number = entry.get("number") if isinstance(entry, dict) else None
            if not isinstance(number, int) or isinstance(number, bool):
                raise self.fail(f"[[card]] #{k + 1}", f"'number' must be an integer, "
                                                      f"got {number!r}")
            if not 1 <= number <= L.N_CARDS:
                raise self.fail(f"card {number}", f"card numbers are 1..{L.N_CARDS}")
            if number in by_number:
                raise self.fail(f"card {number}", "duplicate card number")
            by_number[number] = entry
        missing = [n for n in range(1, L.N_CARDS + 1) if n not in by_number]
        if missing:
            raise self.fail("[[card]]", f"missing cards {missing[:10]}"
                                        f"{' ...' if len(missing) > 10 else ''}")
        for number in range(1, L.N_CARDS + 1):
            try:
                titles[number] = self.card(number, by_number[number], meta, starts)
            except _Bad as exc:
                raise self.fail(f"card {number}", str(exc)) from None
        starts[-1] = len(self.rows)
        self.check_first_game(meta)
        width = self.c.n_spaces + 1
        sets = np.full((max(1, len(self.sets)), width), L.NO_SPACE, np.int16)
        sets[:, 0] = 0
        for i, members in enumerate(self.sets):
            sets[i, 0] = len(members)
            sets[i, 1:1 + len(members)] = members
        ops = np.array(self.rows, np.int32).reshape(-1, CL.OP_WIDTH)
        counts = self.c.counts
        limits = np.array([counts["organ_gun"], counts["barricade"], counts["bastion_defense"],
                           counts["bourbon_battery"]], np.int16)
        return Cards(path=self.path, titles=tuple(titles), leader_names=tuple(self.leaders),
                     meta=frozen(meta), ops=frozen(ops), starts=frozen(starts),
                     space_sets=frozen(sets), set_specs=tuple(self.set_specs),
                     limits=frozen(limits), sense_fury=frozen(np.stack(
                         [self.c.sense_fury_group, self.c.sense_fury_colour]).astype(np.int8)))

    def check_first_game(self, meta: np.ndarray) -> None:
        for s, (lo, hi) in enumerate(STAGE_SPANS):
            n = int(meta[lo:hi + 1, CL.M_FIRST_GAME].sum())
            if n < MIN_FIRST_GAME:
                raise self.fail("[[card]]", f"stage {L.STAGE_NAMES[s]} has {n} first-game "
                                            f"cards; the first game deals up to "
                                            f"{MIN_FIRST_GAME}")

    # -- one card ------------------------------------------------------------------------

    def card(self, number: int, e: Mapping, meta: np.ndarray, starts: np.ndarray) -> str:
        unknown = sorted(set(e) - set(CARD_KEYS))
        if unknown:
            raise _Bad(f"unknown keys {unknown}; allowed: {sorted(CARD_KEYS)}")
        stage = _choice(e, "stage", L.STAGE_NAMES[:3])
        expected = next(s for s, (lo, hi) in enumerate(STAGE_SPANS) if lo <= number <= hi)
        if stage != expected:
            raise _Bad(f"wrong stage {L.STAGE_NAMES[stage]}: cards "
                       f"{STAGE_SPANS[expected][0]}-{STAGE_SPANS[expected][1]} are Stage "
                       f"{L.STAGE_NAMES[expected]}")
        title = _get(e, "title", str)
        if not title.strip():
            raise _Bad("empty title")
        kind = _choice(e, "kind", CL.KIND_NAMES)
        first = _get(e, "first_game", bool, False)
        self.first_game = first
        if first and kind != CL.KIND_EVENT:
            raise _Bad("a first-game card must be an event (the first game has no leaders)")
        row = meta[number]
        row[CL.M_STAGE], row[CL.M_KIND], row[CL.M_FIRST_GAME] = stage, kind, first
        row[CL.M_WAR_COUNCIL] = _choice(e, "war_council", L.WAR_COUNCIL_NAMES)
        row[CL.M_SENSE_FURY] = self.points(e)
        row[CL.M_ALMANAC:CL.M_ALMANAC + L.N_MARKERS] = self.almanac(e)
        row[CL.M_LEADER] = self.leader(e, kind)
        base = number * CL.N_TIMINGS
        timed, rank = 0, 0
        for t, key in enumerate(CL.TIMING_NAMES):
            starts[base + t] = len(self.rows)
            if key == "modifiers":
                n = self.modifiers(e, kind)
            else:
                n = self.op_list(_get(e, key, list, []), key)
            if n:
                timed |= 1 << t
            if t > CL.T_PLAY:
                rank += n
        row[CL.M_TIMED] = timed
        row[CL.M_RANK] = rank if kind != CL.KIND_EVENT else 0
        return title

    def points(self, e: Mapping) -> int:
        if ("sense" in e) == ("fury" in e):
            raise _Bad("needs exactly one of 'sense' and 'fury' (1..5 points)")
        key = "sense" if "sense" in e else "fury"
        value = _get(e, key, int)
        if not 1 <= value <= 5:
            raise _Bad(f"bad value: {key} = {value}; points are 1..5")
        return -value if key == "sense" else value

    def almanac(self, e: Mapping) -> list[int]:
        table = _get(e, "almanac", dict, {})
        out = [0] * L.N_MARKERS
        for key, value in table.items():
            if key not in L.MARKER_KEYS:
                raise _Bad(f"almanac: unknown marker {key!r}; markers: "
                           f"{', '.join(L.MARKER_KEYS)}")
            if not isinstance(value, int) or isinstance(value, bool) or not value or \
                    abs(value) > 5:
                raise _Bad(f"almanac: bad value {key} = {value!r}; pin steps are -5..5, not 0")
            out[L.MARKER_KEYS.index(key)] = value
        return out

    def leader(self, e: Mapping, kind: int) -> int:
        if kind == CL.KIND_EVENT:
            if "leader" in e or "modifiers" in e:
                raise _Bad("an event has no 'leader' or 'modifiers' (leaders only)")
            return -1
        name = _get(e, "leader", str)
        if not name.strip():
            raise _Bad("a leader card names its character in 'leader'")
        if name not in self.leaders:
            self.leaders.append(name)
        return self.leaders.index(name)

    def modifiers(self, e: Mapping, kind: int) -> int:
        mods = _get(e, "modifiers", list, [])
        for k, m in enumerate(mods):
            where = f"modifiers #{k + 1}"
            if not isinstance(m, dict):
                raise _Bad(f"{where}: must be an inline table {{ mod = ... }}")
            _only(m, ("mod", "n", "max", "stages"), where)
            code = _choice(m, "mod", CL.MOD_NAMES, where)
            n = _get(m, "n", int, 1, where)
            if not n or abs(n) > 5:
                raise _Bad(f"{where}: bad value n = {n}; -5..5, not 0")
            cap = _count(m, "max", 0, MAX_COUNT, where, 0)
            if cap and code != CL.MOD_BOMBARD_SPACES:
                raise _Bad(f"{where}: 'max' is for bombard_spaces only")
            stages = _get(m, "stages", list, list(L.STAGE_NAMES), where)
            mask = 0
            for s in stages:
                if s not in L.STAGE_NAMES:
                    raise _Bad(f"{where}: bad value: unknown stage {s!r}; stages: "
                               f"{', '.join(L.STAGE_NAMES)}")
                mask |= 1 << L.STAGE_NAMES.index(s)
            self.emit(code, n, cap, mask)
        return len(mods)

    # -- op lists ------------------------------------------------------------------------

    def emit(self, *args: int) -> int:
        row = [int(a) for a in args] + [0] * (CL.OP_WIDTH - len(args))
        self.rows.append(row)
        return len(self.rows) - 1

    def op_list(self, ops: list, where: str) -> int:
        """Compile a list of ops; returns the number of rows emitted."""
        first = len(self.rows)
        for k, op in enumerate(ops):
            w = f"{where} op #{k + 1}"
            if not isinstance(op, dict):
                raise _Bad(f"{w}: must be an inline table {{ op = ... }}")
            name = _choice(op, "op", CL.OP_NAMES[:-1], w)  # "jump" is internal
            w = f"{w} ({CL.OP_NAMES[name]})"
            if self.first_game and CL.OP_NAMES[name] in FULL_ONLY_OPS:
                raise _Bad(f"{w}: a first-game card cannot use a full-game rule")
            getattr(self, "op_" + CL.OP_NAMES[name])(op, w)
        check_battery_tiles(ops, where)
        return len(self.rows) - first

    def op_advance(self, op, w):
        _only(op, ("op", "n"), w)
        self.emit(CL.OP_ADVANCE, _count(op, "n", 1, 5, w))

    def op_bombard(self, op, w):
        _only(op, ("op", "hits"), w)
        self.emit(CL.OP_BOMBARD, _count(op, "hits", 1, 5, w))

    def op_trench(self, op, w):
        _only(op, ("op", "n"), w)
        self.emit(CL.OP_TRENCH, _signed(op, "n", 6, w))

    def op_disc(self, op, w):
        self.set_or_step(op, w, "disc", L.DISC_NAMES, CL.OP_DISC)

    def op_marker(self, op, w):
        self.set_or_step(op, w, "marker", L.MARKER_KEYS, CL.OP_MARKER)

    def set_or_step(self, op, w, key, names, code):
        _only(op, ("op", key, "n", "to"), w)
        what = _choice(op, key, names, w)
        if ("n" in op) == ("to" in op):
            raise _Bad(f"{w}: give exactly one of 'n' (steps) and 'to' (min or max)")
        if "n" in op:
            self.emit(code, what, _signed(op, "n", 15, w), CL.SET_RELATIVE)
        else:
            self.emit(code, what, 0, _choice(op, "to", CL.SET_NAMES[1:], w) + 1)

    def op_temp(self, op, w):
        _only(op, ("op", "target", "n"), w)
        self.emit(CL.OP_TEMP, _choice(op, "target", CL.TEMP_NAMES, w), _signed(op, "n", 2, w))

    def op_move_troops(self, op, w):
        _only(op, ("op", "from", "to", "piece", "n", "each", "partial", "else"), w)
        piece = _choice(op, "piece", CL.PIECE_NAMES, w, "troops")
        if piece not in CL.MOVABLE_PIECES:
            raise _Bad(f"{w}: bad value: move_troops moves troops, infantry, coronela or "
                       "cannon")
        allowed = ("barcelona", "box", "expedition")
        src = self.space_set(op, "from", w, allowed)
        dst = self.space_set(op, "to", w, allowed)
        n = _count(op, "n", 0, MAX_COUNT, w, 0)
        each = _count(op, "each", 0, MAX_COUNT, w, 0)
        if n == 0 and each == 0:
            raise _Bad(f"{w}: bad value: give n > 0, or each > 0 (n = each x destinations)")
        partial = _get(op, "partial", bool, False, w)
        alternative = _get(op, "else", list, None, w)
        if alternative is not None and partial:
            raise _Bad(f"{w}: 'else' never runs with partial = true")
        at = self.emit(CL.OP_MOVE_TROOPS, src, dst, piece, n, each, partial, -1)
        if alternative is not None:
            jump = self.emit(CL.OP_JUMP, 0)
            self.rows[at][CL.O_G] = len(self.rows)
            self.op_list(alternative, f"{w} else")
            self.rows[jump][CL.O_A] = len(self.rows)

    def op_place(self, op, w):
        self.place_or_remove(op, w, CL.OP_PLACE, CL.PLACEABLE_PIECES)

    def op_remove(self, op, w):
        self.place_or_remove(op, w, CL.OP_REMOVE, CL.REMOVABLE_PIECES)

    def place_or_remove(self, op, w, code, pieces):
        _only(op, ("op", "piece", "where", "n", "mode"), w)
        piece = _choice(op, "piece", CL.PIECE_NAMES, w)
        if piece not in pieces:
            raise _Bad(f"{w}: bad value: piece must be one of "
                       f"{', '.join(CL.PIECE_NAMES[p] for p in pieces)}")
        if self.first_game and CL.PIECE_NAMES[piece] in FULL_ONLY_PIECES:
            raise _Bad(f"{w}: a first-game card cannot use {CL.PIECE_NAMES[piece]} tiles")
        mode = _choice(op, "mode", CL.WHERE_NAMES, w, "choose")
        n = _count(op, "n", 1, 12, w, 1)
        if mode == CL.WHERE_CHANCE:
            if code != CL.OP_PLACE or piece not in (CL.PIECE_RUBBLE, CL.PIECE_RUINED):
                raise _Bad(f"{w}: bad value: mode 'chance' places rubble or ruined tiles")
            if "where" in op:
                raise _Bad(f"{w}: mode 'chance' takes its spaces from the chance card")
            self.emit(code, piece, -1, n, mode)
            return
        kinds = {CL.PIECE_BATTERY: ("camp",), CL.PIECE_BOURBON: ("barcelona", "outside",
                                                                   "camp", "trench",
                                                                   "expedition"),
                 CL.PIECE_DEFENSE: ("bastion",)}.get(piece, ("barcelona",))
        self.emit(code, piece, self.space_set(op, "where", w, kinds), n, mode)

    def op_capture(self, op, w):
        self.lose(op, w, CL.OP_CAPTURE, (CL.PIECE_TROOP, CL.PIECE_INFANTRY, CL.PIECE_CORONELA))

    def op_eliminate(self, op, w):
        self.lose(op, w, CL.OP_ELIMINATE, CL.MOVABLE_PIECES)

    def lose(self, op, w, code, pieces):
        _only(op, ("op", "n", "from", "piece"), w)
        piece = _choice(op, "piece", CL.PIECE_NAMES, w, "troops")
        if piece not in pieces:
            raise _Bad(f"{w}: bad value: piece must be one of "
                       f"{', '.join(CL.PIECE_NAMES[p] for p in pieces)}")
        src = self.space_set(op, "from", w, ("barcelona", "expedition", "outside"))
        self.emit(code, src, piece, _count(op, "n", 1, 10, w))

    def op_free(self, op, w):
        _only(op, ("op", "n", "to"), w)
        self.emit(CL.OP_FREE, self.space_set(op, "to", w, ("barcelona", "expedition")),
                  _count(op, "n", 1, 10, w))

    def op_bourbons(self, op, w):
        _only(op, ("op", "where", "value"), w)
        where = self.space_set(op, "where", w, ("barcelona", "outside", "expedition"))
        if self.c.beach in self.sets[where]:
            raise _Bad(f"{w}: bad value: Bourbon tiles on the Beach end the game; a card "
                       "does not put them there")
        value = op.get("value")
        if value == "reinforcements":
            self.emit(CL.OP_BOURBONS, where, 0, CL.VALUE_REINFORCEMENTS)
        else:
            self.emit(CL.OP_BOURBONS, where, _count(op, "value", 1, 12, w),
                      CL.VALUE_FIXED)

    def op_expedition_combat(self, op, w):
        _only(op, ("op",), w)
        self.emit(CL.OP_EXPEDITION_COMBAT)

    def op_heal(self, op, w):
        _only(op, ("op",), w)
        self.emit(CL.OP_HEAL)

    def op_mine_explodes(self, op, w):
        _only(op, ("op",), w)
        self.emit(CL.OP_MINE_EXPLODES)

    def op_chance_hits(self, op, w):
        _only(op, ("op", "n", "hits"), w)
        self.emit(CL.OP_CHANCE_HITS, _count(op, "n", 1, 6, w), _count(op, "hits", 1, 5, w))

    def op_grant_ap(self, op, w):
        _only(op, ("op", "group", "n"), w)
        self.emit(CL.OP_GRANT_AP, _choice(op, "group", L.WAR_COUNCIL_NAMES[:4], w),
                  _count(op, "n", 1, 9, w))

    def op_random_card_choice_next_round(self, op, w):
        _only(op, ("op",), w)
        self.emit(CL.OP_RANDOM_CHOICE)

    def op_deactivate_leader(self, op, w):
        _only(op, ("op", "side", "whose"), w)
        self.emit(CL.OP_DEACTIVATE, _choice(op, "side", CL.SIDE_NAMES, w),
                  _choice(op, "whose", CL.WHOSE_NAMES, w, "any"))

    def op_rubble_on_marker(self, op, w):
        _only(op, ("op", "n"), w)
        self.emit(CL.OP_RUBBLE_ON_MARKER, _signed(op, "n", 5, w))

    def op_if(self, op, w):
        _only(op, ("op", "cond", "then", "else"), w)
        cond = self.condition(_get(op, "cond", dict, _MISSING, w), f"{w} cond")
        then = _get(op, "then", list, _MISSING, w)
        alternative = _get(op, "else", list, None, w)
        at = self.emit(CL.OP_IF, *cond, -1)
        self.op_list(then, f"{w} then")
        if alternative is None:
            self.rows[at][CL.O_F] = len(self.rows)
            return
        jump = self.emit(CL.OP_JUMP, 0)
        self.rows[at][CL.O_F] = len(self.rows)
        self.op_list(alternative, f"{w} else")
        self.rows[jump][CL.O_A] = len(self.rows)

    def condition(self, cond: dict, w: str) -> tuple[int, int, int, int, int]:
        cmps = [k for k in CL.CMP_NAMES if k in cond]
        if len(cmps) != 1:
            raise _Bad(f"{w}: give exactly one of {', '.join(CL.CMP_NAMES)}")
        cmp = CL.CMP_NAMES.index(cmps[0])
        n = _count(cond, cmps[0], -MAX_COUNT, MAX_COUNT, w)
        subjects = [k for k in CL.COND_NAMES if k in cond]
        if len(subjects) != 1:
            raise _Bad(f"{w}: give exactly one subject: {', '.join(CL.COND_NAMES)}")
        test = CL.COND_NAMES.index(subjects[0])
        b = c = 0
        keys = {CL.COND_COUNT: ("count", "in")}.get(test, (subjects[0],))
        _only(cond, keys + (cmps[0],), w)
        if test == CL.COND_COUNT:
            b = _choice(cond, "count", CL.PIECE_NAMES, w)
            c = self.space_set(cond, "in", w, None)
        elif test == CL.COND_MARKER:
            b = _choice(cond, "marker", L.MARKER_KEYS, w)
        elif test == CL.COND_DISC:
            b = _choice(cond, "disc", L.DISC_NAMES, w)
        elif test == CL.COND_LEADERS:
            b = _choice(cond, "leaders", CL.SIDE_NAMES, w)
        elif _get(cond, subjects[0], bool, _MISSING, w) is not True:
            raise _Bad(f"{w}: bad value: write {subjects[0]} = true")
        return test, b, c, cmp, n

    # -- space sets ----------------------------------------------------------------------

    def space_set(self, op: Mapping, key: str, w: str, kinds) -> int:
        """Expand ``op[key]`` into a set index; ``kinds`` limits where it may point."""
        spec = op.get(key)
        if spec is None:
            raise _Bad(f"{w}: missing key {key!r}")
        terms = [spec] if isinstance(spec, str) else spec
        if not isinstance(terms, list) or not terms or \
                not all(isinstance(t, str) for t in terms):
            raise _Bad(f"{w}: {key!r} must be a space or a list of spaces, got {spec!r}")
        members: list[int] = []
        for term in terms:
            drop = term.startswith("-")
            found = self.term(term[1:] if drop else term, w)
            if drop:
                members = [m for m in members if m not in found]
            else:
                members += [m for m in found if m not in members]
        if not members:
            raise _Bad(f"{w}: {key!r} = {spec!r} names no space")
        if self.first_game and {self.c.expedition, self.c.captured} & set(members):
            raise _Bad(f"{w}: a first-game card cannot use the Expedition or CAPTURED "
                       "(full game)")
        if kinds is not None:
            for m in members:
                if not self.kind_words(m) & set(kinds):
                    raise _Bad(f"{w}: bad value: {key!r} may name only {'/'.join(kinds)} "
                               f"spaces, not {self.c.space_ids[m]!r}")
        members_t = tuple(members)
        if members_t not in self.set_index:
            self.set_index[members_t] = len(self.sets)
            self.sets.append(members_t)
            self.set_specs.append(str(spec))
        return self.set_index[members_t]

    def kind_words(self, s: int) -> set[str]:
        """The words a space answers to in a ``kinds`` limit."""
        kind = int(self.c.space_info[s, L.S_KIND])
        if kind == L.KIND_BASTION:
            return {"bastion", "barcelona"}
        if kind in L.BARCELONA_KINDS:
            return {"barcelona"}
        return {L.KIND_NAMES[kind]}

    def term(self, word: str, w: str) -> list[int]:
        c, info = self.c, self.c.space_info
        every = range(c.n_spaces)
        kind, number = info[:, L.S_KIND], info[:, L.S_NUMBER]
        barcelona = info[:, L.S_BARCELONA] == 1
        words = {
            "barcelona": [s for s in every if barcelona[s]],
            "bastions": [s for s in every if kind[s] == L.KIND_BASTION],
            "walls": [s for s in every if kind[s] in (L.KIND_BASTION, L.KIND_WALL)],
            "wall_spaces": [s for s in every if kind[s] == L.KIND_WALL],
            "inner": [s for s in every if kind[s] == L.KIND_INNER],
            "hospitals": [int(h) for h in c.hospital],
            "marker_spaces": [int(s) for s in c.marker_spaces.ravel() if s >= 0],
            "outside": [s for s in every if kind[s] == L.KIND_OUTSIDE],
            "camps": [int(s) for s in c.camps],
            "trench_camps": [int(s) for s in c.trench[:, 0]],
            "other_camps": [int(s) for s in c.camps if s not in c.trench[:, 0]],
            "trench": [s for s in every if kind[s] == L.KIND_TRENCH],
        }
        if word in words:
            return words[word]
        if len(word) == 2 and word[0] in "12345" and word[1] == "X":
            return [s for s in every if barcelona[s] and number[s] // 10 == int(word[0])]
        if word in c.index:
            return [c.index[word]]
        raise _Bad(f"{w}: unknown space {word!r}")


# -- small readers (errors name the key; the caller adds the file and card) ----------------


def _kind_name(kind: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false", list: "a list",
            dict: "a table"}.get(kind, kind.__name__)


_MISSING: Any = object()


def _get(t: Mapping, key: str, kind: type, default=_MISSING, where: str = ""):
    prefix = f"{where}: " if where else ""
    if key not in t:
        if default is _MISSING:
            raise _Bad(f"{prefix}missing key {key!r}")
        return default
    value = t[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Bad(f"{prefix}bad value: {key!r} must be {_kind_name(kind)}, got {value!r}")
    return value


def _choice(t: Mapping, key: str, names, where: str = "", default: str | None = None) -> int:
    value = _get(t, key, str, default if default is not None else _MISSING, where)
    if value not in names:
        prefix = f"{where}: " if where else ""
        what = "unknown op" if key == "op" else f"bad value: unknown {key}"
        raise _Bad(f"{prefix}{what} {value!r}; allowed: {', '.join(names)}")
    return names.index(value)


def _only(t: Mapping, allowed, where: str) -> None:
    unknown = sorted(set(t) - set(allowed))
    if unknown:
        raise _Bad(f"{where}: unknown argument {unknown[0]!r}; allowed: "
                   f"{', '.join(a for a in allowed if a != 'op')}")


#: the largest count a card's numbers may name (pieces moved, spaces, a condition's count):
#: more than any box holds (the Coronela's 32, the 33 bombardment targets)
MAX_COUNT = 60


def _count(t: Mapping, key: str, lo: int, hi: int, where: str, default=_MISSING) -> int:
    value = _get(t, key, int, default, where)
    if not lo <= value <= hi:
        raise _Bad(f"{where}: bad value {key} = {value}; allowed {lo}..{hi}")
    return value


def _signed(t: Mapping, key: str, hi: int, where: str) -> int:
    value = _get(t, key, int, _MISSING, where)
    if not value or abs(value) > hi:
        raise _Bad(f"{where}: bad value {key} = {value}; allowed -{hi}..{hi}, not 0")
    return value
