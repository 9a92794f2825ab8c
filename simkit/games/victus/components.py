"""Load and validate Victus's components (``data/*.toml``) into read-only numpy arrays.

Rulebook sections covered: "Components" (every count), "Component Descriptions" (chance
cards, Bourbon action dice, trench/camp tiles, the three discs on the Bourbon marker),
"Board Description" (markers, Bourbon marker, camps, advance arrows, Rambla, bastions,
Military Deputy's Expedition, boxes), the first-game "Bourbon Actions" (the Action Table,
Reinforcements icons, Bombardment and Advance read from chance cards, Trench positions),
"Movement Actions" (shared sides, the Rambla, camps), "Marker Actions" (marker spaces),
"Fire 1 cannon" (fire paths along arrows and blue cannon icons) and the Glossary (Camp,
Parallel, Hospital, Box, Barcelona space, "Spaces 1X-5X").

What the data rests on (each file's header says it in detail): the rulebook does not print
the board graph, the marker dials beyond a few values, the Bourbon marker after position 4,
the dice faces, the Stage III and IV dice, the 6th die's colour, the chance cards or the
tile mixes. Those are reconstructions consistent with every fact the rulebook gives
(counts, set-up, named spaces, worked examples); the loader re-checks the facts a
replacement file must keep (counts, the marker rules, the graph's consistency) and
tests/test_victus_components.py re-checks the worked examples. Where the text contradicts
itself the reading that fits the other examples is followed: Example 14's "Saint
Cross-24" and "Àngel-18" are spaces 14 and 48.

``load_components()`` returns one cached, frozen ``Components``; a broken file raises
``ComponentError`` naming the file, the entry and the problem. Codes and column offsets
are in ``layout.py``.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from simkit.datafile import DataFile, DataFolder, as_folder, frozen

from . import layout as L

DATA = Path(__file__).parent / "data"

# Facts the rulebook fixes ("Components", "Setup", "Board Description", the Glossary's
# Barcelona space and Camp, the rubble variant's 33 spaces): every replacement file must
# keep them.
N_BASTIONS = 10
N_OTHER_BARCELONA = 27
N_NUMBERED = 33
UNNUMBERED_BARCELONA = ("montjuic", "port", "beach", "redoubt")
N_CAMPS = 15
BOXES = ("reserve", "wounded", "captured")
N_CHANCE = 14
N_DICE = L.N_DICE
N_FACES = 6
N_SENSE_FURY = 9
TROOP_VALUES = (1, 2, 3, 4, 5, 6, 8, 9, 10, 12)
VP_VALUES = (1, 3, 5, 10)
GIVEN_COUNTS = {
    "bourbon_troops": 160, "victory_points": 48,
    "cannon": 12, "infantry": 13, "coronela": 32,
    "rubble_ruined": 28, "bastion_defense": 10, "barricade": 10, "organ_gun": 5,
    "bourbon_battery": 10, "razed_camp": 6, "trench_camp": 6, "resignation": 3,
    "starting_player": 1, "mine": 1, "reinforcements": 1, "batteries": 1,
    "event_cards": 150, "chance_cards": 14, "bourbon_dice": 6, "marker_pins": 5,
}
EVENT_STAGES = {"I": (1, 50), "II": (51, 100), "III": (101, 150)}
#: a marker dial's values: the printed ones are -2..6; a replacement stays near them (the
#: kernels hold a dial's value and its temporary changes as small integers)
DIAL_VALUES = (-20, 20)

_FACE = re.compile(r"^(\w+) (\d+)$")
# -- the components -----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Components:
    """Victus's static components as read-only arrays (space indices are 0..n_spaces-1)."""

    data_dir: DataFolder
    # board: spaces
    space_ids: tuple[str, ...]  # board.toml ids: printed numbers ("15") or codes ("A1")
    space_names: tuple[str, ...]  # rulebook or reconstructed name, "" if none
    index: Mapping[str, int]  # id -> space index
    space_info: np.ndarray  # int16[n, N_SPACE_INFO], columns layout.S_*
    number_to_space: np.ndarray  # int16[100]: printed number -> space, NO_SPACE if none
    # board: graph
    adjacent: np.ndarray  # uint8[n, n]: share a side (a camp: the 2 spaces it points to)
    adj_start: np.ndarray  # int32[n + 1]: CSR of `adjacent`
    adj_list: np.ndarray  # int32[...]
    move_adjacent: np.ndarray  # uint8[n, n]: `adjacent` plus the Rambla (troop/cannon moves)
    arrows: np.ndarray  # int16[n, 2]: [YELLOW, RED] target, NO_SPACE if none
    blue: np.ndarray  # int16[n, k]: blue cannon icon targets, NO_SPACE padded
    blue_fire_from: np.ndarray  # int16[...]: bastions whose fire may use blue icons
    side_distance: np.ndarray  # int16[n, n]: fewest shared-side steps, -1 if unreachable
    fire_distance: np.ndarray  # int16[n, n]: [bastion, source] shortest Bourbon path (see
    #   _fire_distances), -1 if none or the row is not a bastion
    # board: special spaces
    camps: np.ndarray  # int16[15]
    trench: np.ndarray  # int16[6, 4]: [column A..F, position 0..3] -> space
    advance_ends: np.ndarray  # int16[...]: spaces with no arrows out (the Beach)
    hospital: np.ndarray  # int16[2]: [HOSPITAL_INFANTRY, HOSPITAL_CORONELA] -> space
    expedition: int
    expedition_links: np.ndarray  # int16[...]
    reserve: int
    wounded: int
    captured: int
    captured_next_to: int  # the Mas Guinardó camp
    montjuic: int
    port: int
    beach: int
    redoubt: int
    # markers
    marker_names: tuple[str, ...]
    marker_values: np.ndarray  # int8[4, k]: value at each pin position (padded with the max)
    marker_len: np.ndarray  # int8[4]
    marker_start: np.ndarray  # int8[2, 4]: [START_FIRST_GAME | START_FULL, marker] -> position
    marker_spaces: np.ndarray  # int16[4, 2]: spaces tied to each marker, NO_SPACE padded
    sense_fury_group: np.ndarray  # int8[9]: index into layout.SENSE_FURY_GROUPS
    sense_fury_colour: np.ndarray  # int8[9]: index into layout.SENSE_FURY_COLOURS
    sense_fury_start: int  # 0-based position of "R"
    track_value: np.ndarray  # int8[t]: Bourbon marker value per position
    track_icons: np.ndarray  # int8[t]: ICON_* bit flags
    track_advance: np.ndarray  # int8[t]: number of Advance symbols
    track_start: np.ndarray  # int8[3]: [DISC_*] starting position
    batteries_minimum: int  # lowest position of the batteries disc
    # dice
    die_colours: tuple[str, ...]
    die_action: np.ndarray  # int8[6, 6]: ACT_* per face
    die_amount: np.ndarray  # int8[6, 6]: flags / hits / symbols per face
    stage_dice: np.ndarray  # int8[4, 6]: dice of each stage in table order, -1 padded
    stage_n_dice: np.ndarray  # int8[4]
    # chance cards (in card-number order)
    chance_number: np.ndarray  # int16[14]
    chance_advance: np.ndarray  # int8[14, a]: YELLOW / RED per box
    chance_bombard: np.ndarray  # int16[14, 3, b]: [card, row I..III, box] -> space
    stage_row: np.ndarray  # int8[4]: bombardment row read in each stage (IV: reconstructed)
    # tiles
    troop_values: np.ndarray  # int16[10]
    troop_counts: np.ndarray  # int16[10]
    vp_values: np.ndarray  # int16[4]
    vp_counts: np.ndarray  # int16[4]
    counts: Mapping[str, int]  # every other given count (tiles.toml), by key
    event_stages: np.ndarray  # int16[3, 2]: first and last event card number per stage

    @property
    def n_spaces(self) -> int:
        return len(self.space_ids)

    def space(self, space_id: str | int) -> int:
        """The index of a space by board id or printed number (KeyError if unknown)."""
        return self.index[str(space_id)]

    def label(self, i: int) -> str:
        """A space as the rulebook writes it: "Bastion of Sant Pere-52", "13", "Beach"."""
        name, number = self.space_names[i], int(self.space_info[i, L.S_NUMBER])
        if name and number:
            return f"{name}-{number}"
        return name or self.space_ids[i]


@lru_cache(maxsize=8)
def _load(data_dir: DataFolder) -> Components:
    board = _board(DataFile(data_dir / "board.toml"))
    markers = _markers(DataFile(data_dir / "markers.toml"), board)
    dice = _dice(DataFile(data_dir / "dice.toml"))
    chance = _chance(DataFile(data_dir / "chance.toml"), board, markers)
    tiles = _tiles(DataFile(data_dir / "tiles.toml"))
    info = board["space_info"]
    for m, row in enumerate(markers["marker_spaces"]):
        info[row[row >= 0], L.S_MARKER] = m
    board["space_info"] = frozen(info)
    return Components(data_dir=data_dir, **board, **markers, **dice, **chance, **tiles)


def load_components(data_dir: DataFolder | Path | str = DATA) -> Components:
    """Victus's components from ``data_dir`` (a DataFolder, or a folder holding every
    file; default: the package's data), cached."""
    return _load(as_folder(data_dir))


# -- board.toml ---------------------------------------------------------------------------

_SPACE_KEYS = ("id", "kind", "name", "adjacent", "rambla", "yellow", "red", "blue",
               "trench", "parallel")


def _board(doc: DataFile) -> dict[str, Any]:
    """board.toml: the spaces, then the tables that name them, then the arrays."""
    doc.only(doc.data, ("space", "advance", "blue_cannon", "hospitals", "expedition",
                        "captured"), "file")
    spaces, index = _spaces(doc)
    n = len(spaces)

    def ref(where: str, what: str, target: str) -> int:
        if target not in index:
            raise doc.error(where, f"{what} names unknown space {target!r}")
        return index[target]

    adj = _shared_sides(doc, spaces, ref)
    arrows, blue = _arrows_and_blue_icons(doc, spaces, adj, ref)
    _no_loops(doc, spaces, arrows)
    kinds, barcelona = _fixed_counts(doc, spaces)
    camps, trench = _camps_and_trench(doc, spaces, adj, arrows)
    tables = _board_tables(doc, spaces, kinds, barcelona, arrows, ref)
    ends, fire_from, hospital = tables["ends"], tables["fire_from"], tables["hospital"]
    info = _space_info(spaces, kinds, barcelona, arrows, trench, hospital, camps)
    number_to_space = np.full(100, L.NO_SPACE, np.int16)
    for i, s in enumerate(spaces):
        if s["number"]:
            number_to_space[s["number"]] = i
    rambla = info[:, L.S_RAMBLA].astype(bool)
    move = adj.copy()
    move[np.ix_(rambla, rambla)] = 1
    np.fill_diagonal(move, 0)
    starts = np.zeros(n + 1, np.int32)
    starts[1:] = np.cumsum(adj.sum(axis=1))
    lists = np.concatenate([np.nonzero(adj[i])[0] for i in range(n)]).astype(np.int32)
    _printed_board(doc, spaces, index, adj, arrows, kinds, rambla, tables)

    return {
        "space_ids": tuple(s["id"] for s in spaces),
        "space_names": tuple(s["name"] for s in spaces),
        "index": MappingProxyType(dict(index)),
        "space_info": info,  # _load fills in S_MARKER, then freezes it
        "number_to_space": frozen(number_to_space),
        "adjacent": frozen(adj),
        "adj_start": frozen(starts),
        "adj_list": frozen(lists),
        "move_adjacent": frozen(move),
        "arrows": frozen(arrows),
        "blue": frozen(blue),
        "blue_fire_from": frozen(np.array(fire_from, np.int16)),
        "side_distance": frozen(_side_distances(adj)),
        "fire_distance": frozen(_fire_distances(kinds, barcelona, arrows, blue, fire_from)),
        "camps": frozen(np.array(camps, np.int16)),
        "trench": frozen(trench),
        "advance_ends": frozen(np.array(ends, np.int16)),
        "hospital": frozen(hospital),
        "expedition": tables["expedition"],
        "expedition_links": frozen(np.array(tables["links"], np.int16)),
        "reserve": index["reserve"],
        "wounded": index["wounded"],
        "captured": index["captured"],
        "captured_next_to": tables["next_to"],
        **{key: index[key] for key in UNNUMBERED_BARCELONA},
    }


def _space_info(spaces, kinds, barcelona, arrows, trench, hospital, camps) -> np.ndarray:
    """``Components.space_info``: one row per space (columns ``layout.S_*``)."""
    n = len(spaces)
    info = np.full((n, L.N_SPACE_INFO), -1, np.int16)
    info[:, L.S_KIND] = kinds
    info[:, L.S_NUMBER] = [s["number"] for s in spaces]
    info[:, L.S_BARCELONA] = barcelona
    info[:, L.S_RAMBLA] = [s["rambla"] for s in spaces]
    info[:, L.S_YELLOW] = arrows[:, L.YELLOW]
    info[:, L.S_RED] = arrows[:, L.RED]
    info[:, L.S_BATTERY_ICON] = kinds == L.KIND_CAMP
    for c in range(L.N_TRENCH):
        for p in range(L.N_POSITIONS):
            info[trench[c, p], L.S_TRENCH] = c
            info[trench[c, p], L.S_PARALLEL] = p
    for h in range(2):
        info[hospital[h], L.S_HOSPITAL] = h
    for k, j in enumerate(camps):
        info[j, L.S_CAMP] = k
    return info


def _spaces(doc: DataFile) -> tuple[list[dict], dict[str, int]]:
    """The [[space]] entries, each checked, and the index of each id."""
    entries = doc.get(doc.data, "space", list, "[[space]]")
    if not entries:
        raise doc.error("[[space]]", "no spaces")
    spaces: list[dict] = []
    index: dict[str, int] = {}
    for k, entry in enumerate(entries):
        where = f"[[space]] #{k + 1}"
        if not isinstance(entry, dict):
            raise doc.error(where, "must be a table")
        sid = doc.get(entry, "id", str, where)
        where = f"space {sid!r}"
        if not sid:
            raise doc.error(f"[[space]] #{k + 1}", "empty id")
        if sid in index:
            raise doc.error(where, "duplicate id")
        doc.only(entry, _SPACE_KEYS, where)
        kind = doc.get(entry, "kind", str, where)
        if kind not in L.KIND_NAMES:
            raise doc.error(where, f"unknown kind {kind!r}; kinds: {', '.join(L.KIND_NAMES)}")
        s = {
            "id": sid, "where": where, "kind": L.KIND_NAMES.index(kind),
            "name": doc.get(entry, "name", str, where, ""),
            "adjacent": doc.items(entry, "adjacent", str, where, []),
            "rambla": doc.get(entry, "rambla", bool, where, False),
            "yellow": doc.get(entry, "yellow", str, where, None),
            "red": doc.get(entry, "red", str, where, None),
            "blue": doc.items(entry, "blue", str, where, []),
            "trench": doc.get(entry, "trench", str, where, None),
            "parallel": doc.get(entry, "parallel", int, where, None),
        }
        s["barcelona"] = s["kind"] in L.BARCELONA_KINDS
        s["number"] = int(sid) if sid.isdigit() else 0
        index[sid] = len(spaces)
        spaces.append(s)
    return spaces, index


def _shared_sides(doc: DataFile, spaces: list[dict], ref) -> np.ndarray:
    """Shared sides: known, not itself, no repeats, listed at both ends."""
    n = len(spaces)
    adj = np.zeros((n, n), np.uint8)
    for i, s in enumerate(spaces):
        for t in s["adjacent"]:
            j = ref(s["where"], "adjacent", t)
            if j == i:
                raise doc.error(s["where"], "is listed as adjacent to itself")
            if adj[i, j]:
                raise doc.error(s["where"], f"lists {t!r} as adjacent twice")
            adj[i, j] = 1
    for i, j in zip(*np.nonzero(adj), strict=True):
        if not adj[j, i]:
            raise doc.error(spaces[i]["where"], f"lists {spaces[j]['id']!r} as adjacent, but "
                                                f"space {spaces[j]['id']!r} does not list it")

    return adj


def _arrows_and_blue_icons(doc: DataFile, spaces: list[dict], adj: np.ndarray, ref):
    """Arrows and blue cannon icons: known targets that share a side."""
    n = len(spaces)
    arrows = np.full((n, 2), L.NO_SPACE, np.int16)
    for i, s in enumerate(spaces):
        if (s["yellow"] is None) != (s["red"] is None):
            raise doc.error(s["where"], "needs both a yellow and a red arrow, or neither")
        for c, colour in enumerate(("yellow", "red")):
            if s[colour] is None:
                continue
            if s["kind"] in (L.KIND_BOX, L.KIND_EXPEDITION):
                raise doc.error(s["where"], f"a {L.KIND_NAMES[s['kind']]} has no arrows")
            j = ref(s["where"], f"the {colour} arrow", s[colour])
            if not adj[i, j]:
                raise doc.error(s["where"], f"the {colour} arrow points to {s[colour]!r}, "
                                            "which does not share a side with it")
            if spaces[j]["kind"] in (L.KIND_CAMP, L.KIND_BOX, L.KIND_EXPEDITION):
                raise doc.error(s["where"], f"the {colour} arrow points into "
                                            f"{L.KIND_NAMES[spaces[j]['kind']]} {s[colour]!r}")
            arrows[i, c] = j
    k_blue = max(1, max(len(s["blue"]) for s in spaces))
    blue = np.full((n, k_blue), L.NO_SPACE, np.int16)
    for i, s in enumerate(spaces):
        for k, t in enumerate(s["blue"]):
            j = ref(s["where"], "a blue cannon icon", t)
            if not adj[i, j]:
                raise doc.error(s["where"], f"its blue cannon icon points to {t!r}, which "
                                            "does not share a side with it")
            blue[i, k] = j

    return arrows, blue


def _fixed_counts(doc: DataFile, spaces: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Counts and kinds the rulebook fixes."""
    kinds = np.array([s["kind"] for s in spaces], np.int16)
    barcelona = np.array([s["barcelona"] for s in spaces], bool)
    n_bastions = int((kinds == L.KIND_BASTION).sum())
    if n_bastions != N_BASTIONS:
        raise doc.error("[[space]]", f"{n_bastions} bastions; the rulebook has {N_BASTIONS}")
    n_other = int(barcelona.sum()) - n_bastions
    if n_other != N_OTHER_BARCELONA:
        raise doc.error("[[space]]", f"{n_other} non-bastion Barcelona spaces; the rulebook "
                                     f"has {N_OTHER_BARCELONA}")
    for s in spaces:
        if s["number"] and not s["barcelona"]:
            raise doc.error(s["where"], "a numbered space must be a Barcelona space "
                                        "(bastion, wall or inner)")
        if s["number"] and not 11 <= s["number"] <= 99:
            raise doc.error(s["where"], "printed numbers are two digits, 11..99")
        if s["rambla"] and not s["barcelona"]:
            raise doc.error(s["where"], "only Barcelona spaces touch the Rambla")
    numbered = [s for s in spaces if s["number"]]
    if len(numbered) != N_NUMBERED:
        raise doc.error("[[space]]", f"{len(numbered)} numbered spaces; the rulebook has "
                                     f"{N_NUMBERED} (the rubble variant's maximum)")
    unnumbered = sorted(s["id"] for s in spaces if s["barcelona"] and not s["number"])
    if unnumbered != sorted(UNNUMBERED_BARCELONA):
        raise doc.error("[[space]]", f"the unnumbered Barcelona spaces are {unnumbered}; the "
                                     f"rulebook has {sorted(UNNUMBERED_BARCELONA)}")
    boxes = sorted(s["id"] for s in spaces if s["kind"] == L.KIND_BOX)
    if boxes != sorted(BOXES):
        raise doc.error("[[space]]", f"the boxes are {boxes}; the rulebook has {sorted(BOXES)}")
    for s in spaces:
        if s["kind"] in (L.KIND_BOX, L.KIND_EXPEDITION) and s["adjacent"]:
            raise doc.error(s["where"], f"a {L.KIND_NAMES[s['kind']]} is adjacent to nothing")

    return kinds, barcelona


def _board_tables(doc: DataFile, spaces, kinds, barcelona, arrows, ref) -> dict[str, Any]:
    """The board-wide tables: advance ends, blue-cannon bastions, hospitals, the Military
    Deputy's Expedition, the Captured box."""
    adv = doc.table("advance")
    doc.only(adv, ("ends",), "[advance]")
    ends = [ref("[advance] ends", "ends", t)
            for t in doc.items(adv, "ends", str, "[advance]")]
    for i, s in enumerate(spaces):
        holds_tiles = s["kind"] not in (L.KIND_BOX, L.KIND_EXPEDITION)
        if holds_tiles and arrows[i, 0] == L.NO_SPACE and i not in ends:
            raise doc.error(s["where"], "has no advance arrows and is not in [advance] ends")
        if i in ends and arrows[i, 0] != L.NO_SPACE:
            raise doc.error("[advance] ends", f"{s['id']!r} has arrows out")

    bc = doc.table("blue_cannon")
    doc.only(bc, ("fire_from",), "[blue_cannon]")
    fire_from = [ref("[blue_cannon] fire_from", "fire_from", t)
                 for t in doc.items(bc, "fire_from", str, "[blue_cannon]")]
    for j in fire_from:
        if kinds[j] != L.KIND_BASTION:
            raise doc.error("[blue_cannon] fire_from", f"{spaces[j]['id']!r} is not a bastion")

    hosp = doc.table("hospitals")
    doc.only(hosp, L.HOSPITAL_NAMES, "[hospitals]")
    hospital = np.zeros(2, np.int16)
    for h, key in enumerate(L.HOSPITAL_NAMES):
        j = ref("[hospitals]", key, doc.get(hosp, key, str, "[hospitals]"))
        if not barcelona[j]:
            raise doc.error("[hospitals]", f"{key} hospital {spaces[j]['id']!r} is not a "
                                           "Barcelona space")
        hospital[h] = j

    exp = doc.table("expedition")
    doc.only(exp, ("space", "links"), "[expedition]")
    expedition = ref("[expedition]", "space",
                     doc.get(exp, "space", str, "[expedition]"))
    if kinds[expedition] != L.KIND_EXPEDITION:
        raise doc.error("[expedition]", f"space {spaces[expedition]['id']!r} is not of kind "
                                        "'expedition'")
    if int((kinds == L.KIND_EXPEDITION).sum()) != 1:
        raise doc.error("[[space]]", "there must be exactly one space of kind 'expedition'")
    links = [ref("[expedition] links", "links", t)
             for t in doc.items(exp, "links", str, "[expedition]")]
    for j in links:
        if kinds[j] in (L.KIND_BOX, L.KIND_EXPEDITION):
            raise doc.error("[expedition] links", f"cannot link to {spaces[j]['id']!r}")

    cap = doc.table("captured")
    doc.only(cap, ("next_to",), "[captured]")
    next_to = ref("[captured]", "next_to", doc.get(cap, "next_to", str, "[captured]"))
    if kinds[next_to] != L.KIND_CAMP:
        raise doc.error("[captured]", f"next_to {spaces[next_to]['id']!r} is not a camp")

    return {"ends": ends, "fire_from": fire_from, "hospital": hospital,
            "expedition": expedition, "links": links, "next_to": next_to}


def _no_loops(doc: DataFile, spaces: list[dict], arrows: np.ndarray) -> None:
    """The arrows (yellow and red together) must not loop: advancing always ends."""
    state = np.zeros(len(spaces), np.int8)  # 0 new, 1 on the path, 2 done
    for root in range(len(spaces)):
        if state[root]:
            continue
        path, stack = [root], [iter(int(t) for t in arrows[root] if t >= 0)]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state[nxt] == 1:
                loop = path[path.index(nxt):] + [nxt]
                ids = " -> ".join(spaces[i]["id"] for i in loop)
                raise doc.error(spaces[nxt]["where"], f"the advance arrows loop: {ids}")
            elif state[nxt] == 0:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(int(t) for t in arrows[nxt] if t >= 0))


def _camps_and_trench(doc, spaces, adj, arrows):
    """15 camps (2 arrows each, adjacent only to their targets) and the 6 x 4 trench grid."""
    camps = [i for i, s in enumerate(spaces) if s["kind"] == L.KIND_CAMP]
    if len(camps) != N_CAMPS:
        raise doc.error("[[space]]", f"{len(camps)} camps; the rulebook has {N_CAMPS}")
    for i in camps:
        s = spaces[i]
        if arrows[i, 0] == L.NO_SPACE or arrows[i, 0] == arrows[i, 1]:
            raise doc.error(s["where"], "a camp needs two arrows to two different spaces")
        if set(np.nonzero(adj[i])[0]) != {int(arrows[i, 0]), int(arrows[i, 1])}:
            raise doc.error(s["where"], "a camp is adjacent to exactly the two spaces its "
                                        "arrows point to")
    trench = np.full((L.N_TRENCH, L.N_POSITIONS), L.NO_SPACE, np.int16)
    for i, s in enumerate(spaces):
        has = s["trench"] is not None or s["parallel"] is not None
        if s["kind"] == L.KIND_TRENCH and not has:
            raise doc.error(s["where"], "a trench space needs 'trench' and 'parallel'")
        if not has:
            continue
        if s["trench"] not in L.TRENCH_NAMES:
            raise doc.error(s["where"], f"trench must be one of {', '.join(L.TRENCH_NAMES)}, "
                                        f"got {s['trench']!r}")
        if s["parallel"] is None or not 0 <= s["parallel"] < L.N_POSITIONS:
            raise doc.error(s["where"], f"parallel must be 0..{L.N_POSITIONS - 1}, "
                                        f"got {s['parallel']!r}")
        want = L.KIND_CAMP if s["parallel"] == 0 else L.KIND_TRENCH
        if s["kind"] != want:
            raise doc.error(s["where"], f"position {s['parallel']} of the trench must be of "
                                        f"kind {L.KIND_NAMES[want]!r}")
        c = L.TRENCH_NAMES.index(s["trench"])
        if trench[c, s["parallel"]] != L.NO_SPACE:
            raise doc.error(s["where"], f"a second space for trench {s['trench']}"
                                        f"{s['parallel']}")
        trench[c, s["parallel"]] = i
    for c in range(L.N_TRENCH):
        for p in range(L.N_POSITIONS):
            if trench[c, p] == L.NO_SPACE:
                raise doc.error("[[space]]", f"no space for trench {L.TRENCH_NAMES[c]}{p}")
    return camps, trench


def _side_distances(adj: np.ndarray) -> np.ndarray:
    n = len(adj)
    dist = np.full((n, n), -1, np.int16)
    nbrs = [np.nonzero(adj[i])[0] for i in range(n)]
    for src in range(n):
        dist[src, src] = 0
        queue = deque([src])
        while queue:
            u = queue.popleft()
            for v in nbrs[u]:
                if dist[src, v] < 0:
                    dist[src, v] = dist[src, u] + 1
                    queue.append(v)
    return dist


def _fire_distances(kinds, barcelona, arrows, blue, fire_from) -> np.ndarray:
    """[bastion, source]: fewest steps from ``source`` to the bastion following advance
    arrows (and blue cannon icons for Montjuïc and Santa Madrona-41) through spaces outside
    Barcelona only ("Fire 1 cannon"). Sources are outside Barcelona. The engine compares it
    with the range (4, or 6 from Montjuïc); whether "spaces away" also means shared-side
    distance is the engine's reading (``side_distance``).
    """
    n = len(kinds)
    dist = np.full((n, n), -1, np.int16)
    for target in np.nonzero(kinds == L.KIND_BASTION)[0]:
        links = [arrows[:, 0], arrows[:, 1]]
        if target in fire_from:
            links += [blue[:, k] for k in range(blue.shape[1])]
        preds: dict[int, list[int]] = {}
        for col in links:
            for s, t in enumerate(col):
                if t >= 0:
                    preds.setdefault(int(t), []).append(s)
        dist[target, target] = 0
        queue = deque([int(target)])
        while queue:
            u = queue.popleft()
            for s in preds.get(u, ()):
                if barcelona[s] or dist[target, s] >= 0:
                    continue
                dist[target, s] = dist[target, u] + 1
                queue.append(s)
    return dist


# -- markers.toml -------------------------------------------------------------------------

def _markers(doc: DataFile, board: dict) -> dict[str, Any]:
    doc.only(doc.data, L.MARKER_KEYS + ("sense_fury", "bourbon_marker"), "file")
    index, info = board["index"], board["space_info"]  # read only here
    names, lens, starts = [], [], np.zeros((2, L.N_MARKERS), np.int8)
    values_list, spaces = [], np.full((L.N_MARKERS, 2), L.NO_SPACE, np.int16)
    for m, key in enumerate(L.MARKER_KEYS):
        where = f"[{key}]"
        t = doc.table(key)
        doc.only(t, ("name", "spaces", "values", "first_game_start", "full_start"), where)
        names.append(doc.get(t, "name", str, where))
        ids = doc.items(t, "spaces", str, where)
        if not 1 <= len(ids) <= 2:
            raise doc.error(where, "'spaces' names 1 or 2 Barcelona spaces")
        for k, sid in enumerate(ids):
            if sid not in index:
                raise doc.error(where, f"'spaces' names unknown space {sid!r}")
            if not info[index[sid], L.S_BARCELONA]:
                raise doc.error(where, f"space {sid!r} is not a Barcelona space")
            spaces[m, k] = index[sid]
        values = doc.items(t, "values", int, where)
        if len(values) < 2 or any(b <= a for a, b in zip(values, values[1:], strict=False)):
            raise doc.error(where, f"'values' must rise clockwise (at least 2), got {values}")
        low, high = DIAL_VALUES
        if not low <= values[0] <= values[-1] <= high:
            raise doc.error(where, f"'values' run {values[0]}..{values[-1]}; a dial's "
                                   f"values lie within {low}..{high} (the printed ones are "
                                   "-2..6)")
        for r, skey in ((L.START_FIRST_GAME, "first_game_start"), (L.START_FULL, "full_start")):
            v = doc.get(t, skey, int, where)
            if v not in values:
                raise doc.error(where, f"{skey} = {v} is not one of the values {values}")
            starts[r, m] = values.index(v)
        if starts[L.START_FIRST_GAME, m] != len(values) - 1:
            raise doc.error(where, "first_game_start must be the highest value (first-game "
                                   "setup: the pins point to their highest value)")
        _printed_marker(doc, key, names[-1], ids, values, values[starts[L.START_FULL, m]])
        lens.append(len(values))
        values_list.append(values)
    width = max(lens)
    mvalues = np.array([v + [v[-1]] * (width - len(v)) for v in values_list], np.int8)

    sf = doc.table("sense_fury")
    where = "[sense_fury]"
    doc.only(sf, ("name", "groups", "colours", "labels", "start"), where)
    doc.get(sf, "name", str, where)
    groups = doc.items(sf, "groups", str, where)
    colours = doc.items(sf, "colours", str, where)
    labels = doc.items(sf, "labels", str, where)
    for key, seq, allowed in (("groups", groups, L.SENSE_FURY_GROUPS),
                              ("colours", colours, L.SENSE_FURY_COLOURS),
                              ("labels", labels, None)):
        if len(seq) != N_SENSE_FURY:
            raise doc.error(where, f"{key!r} needs {N_SENSE_FURY} spaces, got {len(seq)}")
        bad = [x for x in seq if allowed is not None and x not in allowed]
        if bad:
            raise doc.error(where, f"{key!r}: {bad[0]!r} is not one of {', '.join(allowed)}")
    for g in L.SENSE_FURY_GROUPS:
        if groups.count(g) != 3:
            raise doc.error(where, f"group {g!r} must have 3 spaces (three groups of three)")
    start = doc.get(sf, "start", int, where)
    if not 1 <= start <= N_SENSE_FURY or labels[start - 1] != "R":
        raise doc.error(where, f"start = {start} must be the space labelled 'R' (1..9)")
    _printed_sense_fury(doc, groups, colours, start)

    bm = doc.table("bourbon_marker")
    where = "[bourbon_marker]"
    doc.only(bm, ("track", "start", "batteries_minimum"), where)
    track = doc.items(bm, "track", dict, where)
    if len(track) < 2:
        raise doc.error(where, "the track needs positions")
    t_value = np.zeros(len(track), np.int8)
    t_icons = np.zeros(len(track), np.int8)
    t_adv = np.zeros(len(track), np.int8)
    for p, pos in enumerate(track):
        pw = f"[bourbon_marker] track position {p}"
        doc.only(pos, ("value", "icons", "advance"), pw)
        value = doc.get(pos, "value", int, pw)
        if not 0 <= value <= 99 or (p and value < t_value[p - 1]):
            raise doc.error(pw, f"value {value} must be 0..99 and not below the previous one")
        t_value[p] = value
        icons = doc.items(pos, "icons", str, pw, [])
        for icon in icons:
            if icon not in L.ICON_NAMES:
                raise doc.error(pw, f"unknown icon {icon!r}; icons: {', '.join(L.ICON_NAMES)}")
            bit = 1 << L.ICON_NAMES.index(icon)
            if t_icons[p] & bit:
                raise doc.error(pw, f"icon {icon!r} twice")
            t_icons[p] |= bit
        advance = doc.get(pos, "advance", int, pw, 0)
        if ("advance" in icons) != (advance > 0) or not 0 <= advance <= L.MAX_INTENSITY:
            raise doc.error(pw, f"an 'advance' icon needs advance = 1..{L.MAX_INTENSITY} "
                                f"symbols (and only it), got {advance}")
        t_adv[p] = advance
    st = doc.get(bm, "start", dict, where)
    doc.only(st, L.DISC_NAMES, f"{where} start")
    t_start = np.zeros(len(L.DISC_NAMES), np.int8)
    for d, disc in enumerate(L.DISC_NAMES):
        v = doc.get(st, disc, int, f"{where} start")
        if not 0 <= v < len(track):
            raise doc.error(f"{where} start", f"{disc} = {v} is off the track "
                                              f"(0..{len(track) - 1})")
        t_start[d] = v
    bmin = doc.get(bm, "batteries_minimum", int, where)
    if not 0 <= bmin <= t_start[L.DISC_BATTERIES] or t_value[bmin] < 1:
        raise doc.error(where, f"batteries_minimum = {bmin} must be a position of value >= 1 "
                               "at or before the batteries disc's start")
    _printed_bourbon_marker(doc, t_value, t_icons, t_start, bmin)

    return {
        "marker_names": tuple(names),
        "marker_values": frozen(mvalues),
        "marker_len": frozen(np.array(lens, np.int8)),
        "marker_start": frozen(starts),
        "marker_spaces": frozen(spaces),
        "sense_fury_group": frozen(np.array([L.SENSE_FURY_GROUPS.index(g) for g in groups],
                                             np.int8)),
        "sense_fury_colour": frozen(np.array([L.SENSE_FURY_COLOURS.index(c) for c in colours],
                                              np.int8)),
        "sense_fury_start": start - 1,
        "track_value": frozen(t_value),
        "track_icons": frozen(t_icons),
        "track_advance": frozen(t_adv),
        "track_start": frozen(t_start),
        "batteries_minimum": bmin,
    }


# -- dice.toml ----------------------------------------------------------------------------

def _dice(doc: DataFile) -> dict[str, Any]:
    doc.only(doc.data, ("die", "stages"), "file")
    dice = doc.items(doc.data, "die", dict, "[[die]]")
    if len(dice) != N_DICE:
        raise doc.error("[[die]]", f"{len(dice)} dice; the rulebook has {N_DICE}")
    colours: list[str] = []
    action = np.zeros((N_DICE, N_FACES), np.int8)
    amount = np.zeros((N_DICE, N_FACES), np.int8)
    for d, die in enumerate(dice):
        where = f"[[die]] #{d + 1}"
        colour = doc.get(die, "colour", str, where)
        where = f"die {colour!r}"
        if colour in colours:
            raise doc.error(where, "two dice of one colour (each die is a different colour)")
        doc.only(die, ("colour", "faces"), where)
        colours.append(colour)
        faces = doc.items(die, "faces", str, where)
        if len(faces) != N_FACES:
            raise doc.error(where, f"{len(faces)} faces; a die has {N_FACES}")
        for f, face in enumerate(faces):
            m = _FACE.match(face)
            if not m or m.group(1) not in L.ACTION_NAMES:
                raise doc.error(where, f"face {face!r} must be '<Action> <N>' with Action one "
                                       f"of {', '.join(L.ACTION_NAMES)}")
            n = int(m.group(2))
            if not 1 <= n <= L.MAX_INTENSITY:
                raise doc.error(where, f"face {face!r}: the number must be "
                                       f"1..{L.MAX_INTENSITY}")
            action[d, f] = L.ACTION_NAMES.index(m.group(1))
            amount[d, f] = n
    stages = doc.table("stages")
    doc.only(stages, L.STAGE_NAMES, "[stages]")
    stage_dice = np.full((len(L.STAGE_NAMES), N_DICE), -1, np.int8)
    n_dice = np.zeros(len(L.STAGE_NAMES), np.int8)
    for s, name in enumerate(L.STAGE_NAMES):
        rolled = doc.items(stages, name, str, "[stages]")
        if not rolled or len(set(rolled)) != len(rolled):
            raise doc.error("[stages]", f"stage {name} must roll one or more different dice")
        for k, colour in enumerate(rolled):
            if colour not in colours:
                raise doc.error("[stages]", f"stage {name} rolls unknown die {colour!r}")
            stage_dice[s, k] = colours.index(colour)
        n_dice[s] = len(rolled)
    _printed_dice(doc, colours, action, amount, stage_dice, n_dice)
    return {
        "die_colours": tuple(colours),
        "die_action": frozen(action),
        "die_amount": frozen(amount),
        "stage_dice": frozen(stage_dice),
        "stage_n_dice": frozen(n_dice),
    }


# -- chance.toml --------------------------------------------------------------------------

def _chance(doc: DataFile, board: dict, markers: dict) -> dict[str, Any]:
    doc.only(doc.data, ("advance_boxes", "bombardment_boxes", "stage_iv_row", "card"), "file")
    n_adv = doc.get(doc.data, "advance_boxes", int, "advance_boxes")
    n_bomb = doc.get(doc.data, "bombardment_boxes", int, "bombardment_boxes")
    if not 1 <= n_adv <= 20:
        raise doc.error("advance_boxes", f"must be 1..20, got {n_adv}")
    top = int(markers["track_value"].max())
    if not top <= n_bomb <= 33:
        raise doc.error("bombardment_boxes", f"must be {top}..33 (the Bourbon marker reaches "
                                              f"{top}), got {n_bomb}")
    iv = doc.get(doc.data, "stage_iv_row", str, "stage_iv_row")
    if iv not in L.STAGE_NAMES[:3]:
        raise doc.error("stage_iv_row", f"must be I, II or III, got {iv!r}")
    cards = doc.items(doc.data, "card", dict, "[[card]]")
    if len(cards) != N_CHANCE:
        raise doc.error("[[card]]", f"{len(cards)} cards; the rulebook has {N_CHANCE}")
    number_to_space = board["number_to_space"]
    info = board["space_info"]
    numbers = np.zeros(N_CHANCE, np.int16)
    advance = np.zeros((N_CHANCE, n_adv), np.int8)
    bombard = np.zeros((N_CHANCE, 3, n_bomb), np.int16)
    seen: dict[int, int] = {}
    for k, card in enumerate(cards):
        where = f"[[card]] #{k + 1}"
        number = doc.get(card, "number", int, where)
        where = f"card {number}"
        if not 1 <= number <= N_CHANCE:
            raise doc.error(where, f"card numbers are 1..{N_CHANCE}")
        if number in seen:
            raise doc.error(where, "duplicate card number")
        seen[number] = k
        doc.only(card, ("number", "advance", "stage_I", "stage_II", "stage_III"), where)
        boxes = doc.items(card, "advance", str, where)
        if len(boxes) != n_adv:
            raise doc.error(where, f"advance has {len(boxes)} boxes, not {n_adv}")
        for b, colour in enumerate(boxes):
            if colour not in L.COLOUR_NAMES:
                raise doc.error(where, f"advance box {colour!r} must be YELLOW or RED")
            advance[k, b] = L.COLOUR_NAMES.index(colour)
        for r, stage in enumerate(L.STAGE_NAMES[:3]):
            row = doc.items(card, f"stage_{stage}", int, where)
            if len(row) != n_bomb:
                raise doc.error(where, f"stage_{stage} has {len(row)} boxes, not {n_bomb}")
            if len(set(row)) != len(row):
                raise doc.error(where, f"stage_{stage} names a space twice")
            for b, num in enumerate(row):
                j = number_to_space[num] if 0 <= num < len(number_to_space) else L.NO_SPACE
                if j == L.NO_SPACE or not info[j, L.S_BARCELONA]:
                    raise doc.error(where, f"stage_{stage}: {num} is not a numbered Barcelona "
                                           "space")
                bombard[k, r, b] = j
        numbers[k] = number
    _printed_chance(doc, numbers, advance, bombard, info)
    order = np.argsort(numbers)
    stage_row = np.array([0, 1, 2, L.STAGE_NAMES.index(iv)], np.int8)
    return {
        "chance_number": frozen(numbers[order]),
        "chance_advance": frozen(advance[order]),
        "chance_bombard": frozen(bombard[order]),
        "stage_row": frozen(stage_row),
    }


# -- tiles.toml ---------------------------------------------------------------------------

def _tiles(doc: DataFile) -> dict[str, Any]:
    sections = ("bourbon_troops", "victory_points", "pieces", "tiles", "discs", "components",
                "event_stages")
    doc.only(doc.data, sections, "file")
    mixes = {}
    for key, values in (("bourbon_troops", TROOP_VALUES), ("victory_points", VP_VALUES)):
        where = f"[{key}]"
        t = doc.table(key)
        doc.only(t, ("total", "counts"), where)
        total = doc.get(t, "total", int, where)
        if total != GIVEN_COUNTS[key]:
            raise doc.error(where, f"total = {total}; the rulebook has {GIVEN_COUNTS[key]}")
        counts = doc.get(t, "counts", dict, where)
        keys = sorted(counts, key=lambda x: int(x) if x.isdigit() else -1)
        if keys != [str(v) for v in values]:
            raise doc.error(where, f"counts must be given for the values {list(values)}, "
                                   f"got {keys}")
        n = [doc.get(counts, str(v), int, where) for v in values]
        if min(n) < 0 or sum(n) != total:
            raise doc.error(where, f"counts add up to {sum(n)}, not total = {total}")
        mixes[key] = (np.array(values, np.int16), np.array(n, np.int16))
    counts: dict[str, int] = {}
    for section in ("pieces", "tiles", "discs", "components"):
        t = doc.table(section)
        for key, value in t.items():
            where = f"[{section}] {key}"
            if key not in GIVEN_COUNTS or key in mixes:
                raise doc.error(f"[{section}]", f"unknown key {key!r}")
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise doc.error(where, f"must be a count, got {value!r}")
            if value != GIVEN_COUNTS[key]:
                raise doc.error(where, f"{value}; the rulebook has {GIVEN_COUNTS[key]}")
            counts[key] = value
    missing = sorted(set(GIVEN_COUNTS) - set(counts) - set(mixes))
    if missing:
        raise doc.error("file", f"missing counts {missing}")
    ev = doc.table("event_stages")
    doc.only(ev, EVENT_STAGES, "[event_stages]")
    stages = np.zeros((3, 2), np.int16)
    for s, (name, given) in enumerate(EVENT_STAGES.items()):
        span = doc.items(ev, name, int, "[event_stages]")
        if tuple(span) != given:
            raise doc.error("[event_stages]", f"stage {name} is cards {span}; the rulebook "
                                              f"has {list(given)}")
        stages[s] = span
    return {
        "troop_values": frozen(mixes["bourbon_troops"][0]),
        "troop_counts": frozen(mixes["bourbon_troops"][1]),
        "vp_values": frozen(mixes["victory_points"][0]),
        "vp_counts": frozen(mixes["victory_points"][1]),
        "counts": MappingProxyType(counts),
        "event_stages": frozen(stages),
    }


# -- what the rulebook prints: a replacement file that says otherwise is refused ------------
# (each file's header lists these facts; worked examples that follow from several files at
# once, the fire paths of Examples 14 and 15, are checked by tests/test_victus_components.py)

#: per marker: its printed name, spaces, values (or what is known of them) and red value
PRINTED_MARKERS = {
    "generalitat": {"name": "Generalitat", "spaces": ["32"], "red": 5,
                    "highest": 6, "source": "Examples 14, 24 and 29: 6 AP; red value 5"},
    "port": {"name": "Port", "spaces": ["port"], "values": [-2, -1, 0, 1], "red": 0,
             "source": 'Healing "+1" and "-1/-2", Example 1\'s minimum, Example 29: 0'},
    "gunpowder_store": {"name": "Gunpowder Store", "spaces": ["36"], "has": (3, 4),
                        "source": "Examples 14, 18 and 26: values 3 and 4"},
    "hospital": {"name": "Saint Cross/Saint Mary of the Sea", "spaces": ["14", "34"],
                 "values": [0, 1, 2, 3], "red": 2,
                 "source": "Healing, Example 13; Example 29: red value 2"},
}


def _printed_marker(doc: DataFile, key: str, name: str, spaces: list[str],
                    values: list[int], red: int) -> None:
    fact, where = PRINTED_MARKERS[key], f"[{key}]"
    source = fact["source"]
    doc.printed(where, "name", name, repr(fact["name"]), "Board Description",
                holds=name == fact["name"])
    doc.printed(where, "spaces", spaces, fact["spaces"], "Board Description, Example 13")
    if "values" in fact:
        doc.printed(where, "values", values, fact["values"], source)
    if "highest" in fact:
        doc.printed(where, "values", values, f"a highest value of at least {fact['highest']}",
                    source, holds=max(values) >= fact["highest"])
    if "has" in fact:
        doc.printed(where, "values", values, f"values {fact['has'][0]} and {fact['has'][1]}",
                    source, holds=set(fact["has"]) <= set(values))
    if "red" in fact:
        doc.printed(where, "full_start", red, fact["red"], source)


def _printed_sense_fury(doc: DataFile, groups, colours, start: int) -> None:
    source = ("Competitive Game: three groups of three, ochre Sense, the red centre with R "
              "on its central space, ochre Fury")
    doc.printed("[sense_fury]", "groups", groups, ["sense"] * 3 + ["centre"] * 3
                + ["fury"] * 3, source)
    doc.printed("[sense_fury]", "colours", colours, ["ochre"] * 3 + ["red"] * 3
                + ["ochre"] * 3, source)
    doc.printed("[sense_fury]", "start", start, 5, source)


#: the Bourbon marker's first five positions: (value, icons) ("Component Descriptions",
#: Examples 3, 21 and 29)
PRINTED_TRACK = ((0, ()), (1, ()), (2, ("batteries",)), (2, ("healing",)), (2, ("mine",)))


def _printed_bourbon_marker(doc: DataFile, value, icons, start, minimum: int) -> None:
    source = "Component Descriptions, Examples 3, 21 and 29"
    for p, (printed, marks) in enumerate(PRINTED_TRACK):
        where = f"[bourbon_marker] track position {p}"
        if p >= len(value):
            raise doc.error("[bourbon_marker]", f"the track needs positions 0..{p}")
        doc.printed(where, "value", int(value[p]), printed, source)
        shown = [name for k, name in enumerate(L.ICON_NAMES) if icons[p] >> k & 1]
        doc.printed(where, "icons", shown, list(marks), source)
    last_two = int(np.nonzero(value == 2)[0].max())
    doc.printed("[bourbon_marker]", "the value after the last value-2 space",
                int(value[last_two + 1]) if last_two + 1 < len(value) else None, 3,
                "Examples 4 and 21")
    doc.printed("[bourbon_marker] start", "start",
                dict(zip(L.DISC_NAMES, map(int, start), strict=True)),
                {"reinforcements": 0, "batteries": 1, "mine": 0}, "Setup")
    doc.printed("[bourbon_marker]", "batteries_minimum", minimum, 1,
                'the batteries disc "can never drop to 0"')


#: the faces the examples show on each die, and the dice each stage rolls
PRINTED_FACES = {"white": (("Reinforcements", 1), ("Reinforcements", 2),
                           ("Reinforcements", 3), ("Bombardment", 2)),
                 "gray": (("Reinforcements", 1), ("Bombardment", 1), ("Advance", 1)),
                 "blue": (("Trench", 1),), "yellow": (("Bombardment", 2),),
                 "red": (("Trench", 3),)}
PRINTED_STAGES = {"I": ["white", "gray"], "II": ["blue", "yellow", "red"]}


def _printed_dice(doc: DataFile, colours, action, amount, stage_dice, n_dice) -> None:
    for colour, shown in PRINTED_FACES.items():
        if colour not in colours:
            raise doc.error("[[die]]", f"no {colour} die; the rulebook prints white, gray, "
                                       "blue, yellow and red dice (Components, Examples)")
        d = colours.index(colour)
        faces = {(L.ACTION_NAMES[a], int(n)) for a, n in zip(action[d], amount[d],
                                                               strict=True)}
        for face in shown:
            doc.printed(f"die {colour!r}", "faces", sorted(f"{a} {n}" for a, n in faces),
                        f"a face {face[0]} {face[1]}", "Examples 3, 4, 9, 21, 22 and 29",
                        holds=face in faces)
    for s, name in enumerate(L.STAGE_NAMES):
        if name in PRINTED_STAGES:
            rolled = [colours[d] for d in stage_dice[s, :n_dice[s]]]
            doc.printed("[stages]", name, rolled, PRINTED_STAGES[name],
                        "the Bourbon Action Table, Examples 3 and 22")


#: the Stage I rows and advance rows the examples read, each a card's first boxes
PRINTED_STAGE_I = ((11, 45, 46), (21, 48, 25), (51, 22))
PRINTED_ADVANCE = (("YELLOW", "RED", "RED"), ("YELLOW", "YELLOW"),
                   ("YELLOW", "RED", "YELLOW"), ("RED",))


def _printed_chance(doc: DataFile, numbers, advance, bombard, info) -> None:
    rows = [[int(info[j, L.S_NUMBER]) for j in row] for row in bombard[:, 0]]
    cards = set()
    for head in PRINTED_STAGE_I:
        found = [k for k, row in enumerate(rows) if tuple(row[:len(head)]) == head]
        doc.printed("[[card]] stage_I", "the rows", "none" if not found else "a card",
                    f"a Stage I row beginning {', '.join(map(str, head))}",
                    "Examples 4 and 29", holds=bool(found))
        cards.add(found[0])
    doc.printed("[[card]] stage_I", "the cards of the three rows seen", len(cards), 3,
                "Examples 4 and 29: three draws of different cards")
    for head in PRINTED_ADVANCE:
        code = [L.COLOUR_NAMES.index(c) for c in head]
        doc.printed("[[card]] advance", "the rows", "none",
                    f"an advance row beginning {'-'.join(head)}", "Examples 5-8",
                    holds=any(list(row[:len(code)]) == code for row in advance))
    named = {int(info[j, L.S_NUMBER]) for j in bombard.ravel()}
    every = {int(n) for n in info[:, L.S_NUMBER] if n}
    doc.printed("[[card]]", "the spaces the rows name", len(named), f"all {len(every)} "
                "numbered spaces", 'Chance Cards: "the number of Barcelona spaces that can '
                'be targeted by bombardments"', holds=named == every)


#: board facts the rulebook prints (named spaces, the bastions, examples' shared sides,
#: arrows and the Rambla); ids are board.toml's
PRINTED_NAMES = {
    "14": "Saint Cross", "22": "Hort d'en Favà", "32": "Generalitat",
    "34": "Saint Mary of the Sea", "36": "Gunpowder Store",
    "41": "Bastion of Santa Madrona", "44": "Bastion of Sant Antoni",
    "46": "Bastion of Tallers", "48": "Bastion of the Àngel", "51": "Bastion of Jonqueres",
    "52": "Bastion of Sant Pere", "55": "Bastion of Santa Clara", "56": "Bastion of Llevant",
    "montjuic": "Montjuïc", "port": "Port", "beach": "Beach",
    "redoubt": "Saint Eulalia Redoubt", "mas_guinardo": "Mas Guinardó",
    "expedition": "Military Deputy's Expedition"}
PRINTED_BASTIONS = ("41", "44", "46", "48", "51", "52", "53", "55", "56", "montjuic")
PRINTED_WALLS = ("45", "47")
PRINTED_SIDES = (("15", ("13", "14", "25", "31", "41", "42")),)  # Example 11: exactly these
PRINTED_SHARED = (("21", "22"), ("12", "45"), ("12", "46"), ("12", "47"), ("45", "44"),
                  ("22", "51"), ("A1", "B1"), ("E3", "D2"), ("D2", "C2"), ("C2", "C1"),
                  ("C1", "D1"), ("D1", "E1"), ("E1", "F1"))
PRINTED_RAMBLA = ("12", "14", "15", "21", "47", "48", "58")
PRINTED_ARROWS = (("52", "yellow", "24"), ("24", "red", "33"), ("33", "red", "26"),
                  ("26", "red", "34"), ("51", "yellow", "22"), ("44", "red", "11"),
                  ("11", "yellow", "13"))
PRINTED_FROM_OUTSIDE = ("51", "52", "44")  # some outside space's yellow arrow (Ex. 5, 7, 8)


def _printed_board(doc: DataFile, spaces, index, adj, arrows, kinds, rambla, tables):
    def space(sid):
        if sid not in index:
            raise doc.error("[[space]]", f"no space {sid!r}; the rulebook prints it "
                                         "(Board Description, Examples)")
        return index[sid]

    for sid, name in PRINTED_NAMES.items():
        doc.printed(f"space {sid!r}", "name", spaces[space(sid)]["name"], repr(name),
                    "Board Description, Glossary", holds=spaces[space(sid)]["name"] == name)
    bastions = sorted(s["id"] for s in spaces if s["kind"] == L.KIND_BASTION)
    doc.printed("[[space]]", "the bastions", bastions, sorted(PRINTED_BASTIONS),
                "Board Description, Setup")
    for sid in PRINTED_WALLS:
        doc.printed(f"space {sid!r}", "kind", L.KIND_NAMES[kinds[space(sid)]], "wall",
                    "Example 10")
    for sid, sides in PRINTED_SIDES:
        found = sorted(spaces[j]["id"] for j in np.nonzero(adj[space(sid)])[0])
        doc.printed(f"space {sid!r}", "adjacent", found, sorted(sides), "Example 11")
    for a, b in PRINTED_SHARED:
        doc.printed(f"space {a!r}", "adjacent", "without " + b, f"{b} among them",
                    "Examples 10, 12, 14, 16 and 25", holds=bool(adj[space(a), space(b)]))
    found = sorted(s["id"] for i, s in enumerate(spaces) if rambla[i])
    doc.printed("[[space]]", "the spaces touching the Rambla", found, sorted(PRINTED_RAMBLA),
                "Example 11 (14: Example 14)")
    for sid, colour, target in PRINTED_ARROWS:
        j = arrows[space(sid), L.COLOUR_NAMES.index(colour.upper())]
        doc.printed(f"space {sid!r}", colour, spaces[j]["id"] if j >= 0 else None, target,
                    "Examples 5, 7 and 8")
    outside = [i for i, s in enumerate(spaces) if not s["barcelona"]]
    for target in PRINTED_FROM_OUTSIDE:
        doc.printed("[[space]]", "the yellow arrows from outside Barcelona",
                    f"none into {target}", f"one into {target}", "Examples 5, 7 and 8",
                    holds=any(arrows[i, L.YELLOW] == space(target) for i in outside))
    hospital = {key: spaces[int(j)]["id"] for key, j in zip(L.HOSPITAL_NAMES,
                                                             tables["hospital"], strict=True)}
    doc.printed("[hospitals]", "hospitals", hospital,
                dict(zip(L.HOSPITAL_NAMES, ("14", "34"), strict=True)), "Glossary: Hospital")
    doc.printed("[captured]", "next_to", spaces[tables["next_to"]]["id"], "mas_guinardo",
                "Glossary, Example 17")
    doc.printed("[blue_cannon]", "fire_from",
                sorted(spaces[j]["id"] for j in tables["fire_from"]), ["41", "montjuic"],
                "Fire 1 cannon")
