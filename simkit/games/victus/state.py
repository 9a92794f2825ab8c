"""Build Victus's state arrays: the static-component tuple the kernels read, an empty
state, and the set-up positions of the First Game and Full Game (rulebook "Setup",
"Modifications to the First-Game Setup").

Set-up relies on the reconstructed board (which spaces are bastions) and marker dials
(the full game's Gunpowder Store red value) of ``data/``.
"""

from functools import cache
from pathlib import Path

import numpy as np

from simkit.datafile import DataFile, DataFolder, as_folder, frozen
from simkit.errors import RulesError

from . import layout as L
from .components import DATA, Components

N_CHANCE = 14
# the Reserve at set-up (cannon, infantry, Coronela) by level: full game, first game
RESERVE = {True: (2, 2, 3), False: (2, 3, 5)}


def board_tuple(c: Components) -> tuple:
    """The static components in the order of ``layout.K_*``."""
    special = np.zeros(L.N_SPECIAL, dtype=np.int16)
    special[L.SPECIAL_RESERVE] = c.reserve
    special[L.SPECIAL_WOUNDED] = c.wounded
    special[L.SPECIAL_CAPTURED] = c.captured
    special[L.SPECIAL_BEACH] = c.beach
    special[L.SPECIAL_PORT] = c.port
    special[L.SPECIAL_EXPEDITION] = c.expedition
    special[L.SPECIAL_SAINT_CROSS] = c.hospital[L.HOSPITAL_INFANTRY]
    special[L.SPECIAL_SAINT_MARY] = c.hospital[L.HOSPITAL_CORONELA]
    special[L.SPECIAL_MONTJUIC] = c.montjuic
    special[L.SPECIAL_BATTERIES_MIN] = c.batteries_minimum
    special[L.SPECIAL_RAZED_TILES] = c.counts["razed_camp"]  # "6 razed Bourbon camp tiles"
    track = np.stack([c.track_value, c.track_icons, c.track_advance]).astype(np.int16)
    return (
        np.ascontiguousarray(c.space_info, dtype=np.int16),
        np.ascontiguousarray(c.arrows, dtype=np.int16),
        np.ascontiguousarray(c.trench, dtype=np.int16),
        np.ascontiguousarray(c.camps, dtype=np.int16),
        track,
        np.ascontiguousarray(c.chance_advance, dtype=np.int8),
        np.ascontiguousarray(c.chance_bombard, dtype=np.int16),
        np.ascontiguousarray(c.stage_row, dtype=np.int8),
        np.ascontiguousarray(c.marker_values, dtype=np.int8),
        special,
        np.ascontiguousarray(c.move_adjacent, dtype=np.uint8),
        np.ascontiguousarray(c.adjacent, dtype=np.uint8),
        np.ascontiguousarray(c.fire_distance, dtype=np.int16),
        action_costs(c.data_dir),
        printed_counts(c),
    )


def printed_counts(c: Components) -> np.ndarray:
    """``layout.K_COUNTS``: the component counts the state checks hold the state to."""
    counts = np.zeros(L.N_COUNTS, dtype=np.int16)
    for code, key in enumerate(L.COUNT_NAMES[:L.COUNT_BOURBON_TILES]):
        counts[code] = c.counts[key]  # tiles.toml's keys
    counts[L.COUNT_BOURBON_TILES] = c.troop_counts.sum()
    counts[L.COUNT_BOURBON_VALUE] = (c.troop_values * c.troop_counts).sum()
    return counts


#: the rulebook's action tables ("5. Barcelonan Actions", first game and full game): the
#: full game's group, then the first-game cost (0: not in the first game), the General and
#: the Priority Cost; actions.toml holds them, and a file that says otherwise is refused
PRINTED_ACTION_COSTS = {
    "move_troops": ("movement", 1, 2, 1), "healing": ("movement", 3, 4, 3),
    "worm": ("movement", 0, 2, 1), "improve_marker_troop_present": ("markers", 1, 2, 1),
    "improve_marker_no_troop": ("markers", 2, 3, 2), "change_card": ("markers", 0, 3, 2),
    "move_cannon": ("artillery", 1, 2, 1), "fire_cannon": ("artillery", 1, 2, 1),
    "repair_cannon": ("artillery", 3, 4, 3), "remove_rubble": ("defense", 1, 2, 1),
    "bastion_defense": ("defense", 1, 2, 1), "barricade": ("defense", 0, 2, 1),
}


@cache
def action_costs(data_dir: DataFolder | Path = DATA) -> np.ndarray:
    """``data/actions.toml`` as int8[N_ACTIONS, 4]: group, first, general, priority, each
    the rulebook's (``PRINTED_ACTION_COSTS``)."""
    doc = DataFile(as_folder(data_dir) / "actions.toml")
    names = L.BARCELONAN_ACTION_NAMES
    doc.only(doc.data, names, "file")
    costs = np.zeros((L.N_ACTIONS, 4), dtype=np.int8)
    for a, name in enumerate(names):
        entry = doc.table(name)
        group = doc.choice(entry, "group", L.WAR_COUNCIL_NAMES[:4], f"[{name}]")
        printed = PRINTED_ACTION_COSTS[name]
        doc.printed(f"[{name}]", "group", group, printed[0],
                    "the full game's action table, 5. Barcelonan Actions")
        costs[a, L.COST_GROUP] = L.WAR_COUNCIL_NAMES.index(group)
        for k, (col, key) in enumerate(((L.COST_FIRST, "first"), (L.COST_GENERAL, "general"),
                                        (L.COST_PRIORITY, "priority")), start=1):
            costs[a, col] = doc.number(entry, key, f"[{name}]", 0, 9)
            doc.printed(f"[{name}]", key, int(costs[a, col]), printed[k],
                        "the first game's action table" if key == "first" else
                        "the full game's action table, 5. Barcelonan Actions")
    return frozen(costs)


def empty_state(c: Components) -> tuple[np.ndarray, np.ndarray]:
    """No piece anywhere; markers, discs and trench tiles at their set-up positions."""
    sp = np.zeros((c.n_spaces, L.N_SP), dtype=np.int16)
    g = np.zeros(L.N_G, dtype=np.int32)
    g[L.G_MARKER:L.G_MARKER + L.N_MARKERS] = c.marker_start[L.START_FULL]
    g[L.G_DISC:L.G_DISC + 3] = c.track_start
    g[L.G_CHANCE_DECK:L.G_CHANCE_DECK + N_CHANCE] = np.arange(N_CHANCE)
    g[L.G_CHANCE_NEXT] = N_CHANCE  # empty: the first draw shuffles
    g[L.G_RUBBLE_SUPPLY] = c.counts["rubble_ruined"]
    g[L.G_END_REASON] = L.END_NONE
    g[L.G_NEXT] = L.NEXT_SET_UP  # the game has not begun
    g[L.G_AP_GROUP] = -1
    return sp, g


def set_up(c: Components, full: bool) -> tuple[np.ndarray, np.ndarray]:
    """The starting position of the First Game (``full=False``) or the Full Game."""
    sp, g = empty_state(c)
    start = L.START_FULL if full else L.START_FIRST_GAME
    g[L.G_MARKER:L.G_MARKER + L.N_MARKERS] = c.marker_start[start]
    g[L.G_DICE_ORDER_FREE] = full  # first game: the Bourbon Action Table's order
    info = c.space_info
    barcelona = np.flatnonzero(info[:, L.S_BARCELONA] == 1)
    bastions = barcelona[info[barcelona, L.S_KIND] == L.KIND_BASTION]
    others = barcelona[info[barcelona, L.S_KIND] != L.KIND_BASTION]
    sp[bastions, L.SP_INFANTRY] = 1
    sp[others, L.SP_CORONELA] = 1
    sp[bastions, L.SP_CANNON] = 1
    if full:  # no cannon on Santa Madrona-41 and Llevant-56; 2 more in WOUNDED
        sp[[c.space(41), c.space(56)], L.SP_CANNON] = 0
        sp[c.wounded, L.SP_CANNON] = 2
        sp[c.reserve, [L.SP_CANNON, L.SP_INFANTRY, L.SP_CORONELA]] = RESERVE[True]
        sp[c.expedition, [L.SP_INFANTRY, L.SP_CORONELA]] = (1, 2)
    else:
        sp[c.reserve, [L.SP_CANNON, L.SP_INFANTRY, L.SP_CORONELA]] = RESERVE[False]
    count_in_play(sp, g)
    return sp, g


def count_in_play(sp: np.ndarray, g: np.ndarray) -> None:
    """The Barcelonan pieces the set-up put on the board and in its boxes: the pieces
    conserved from then on (a component not placed stays in the game box)."""
    for k, field in enumerate(L.PLAY_FIELDS):
        g[L.G_IN_PLAY + k] = sp[:, field].sum()


def level_set_up(c: Components, full: bool) -> dict[str, int]:
    """The set-up values a level plays that the rules' placeholder knobs stand for: the
    Generalitat and Gunpowder Store pins' starting values and the Reserve's Coronela and
    infantry (``Rules.resolved``)."""
    start = c.marker_start[L.START_FULL if full else L.START_FIRST_GAME]
    _, infantry, coronela = RESERVE[full]
    return {"start_generalitat": int(c.marker_values[L.MARKER_GENERALITAT][
                start[L.MARKER_GENERALITAT]]),
            "start_gunpowder_store": int(c.marker_values[L.MARKER_GUNPOWDER_STORE][
                start[L.MARKER_GUNPOWDER_STORE]]),
            "reserve_coronela": coronela, "reserve_infantry": infantry}


def _pin_position(c: Components, marker: int, value: int) -> int:
    """Where a pin stands to show ``value`` on markers.toml's dial."""
    dial = [int(v) for v in c.marker_values[marker]]
    if value not in dial:
        name = L.MARKER_KEYS[marker]
        raise RulesError(f"the {name} dial (markers.toml) has no value {value}; its values: "
                         f"{', '.join(map(str, sorted(set(dial))))}")
    return dial.index(value)


def starting_position(c: Components, rules) -> tuple[np.ndarray, np.ndarray]:
    """The set-up of ``rules``: the level's position, then the seats, the Sense/Fury pin on
    R, and the starting marker values and Reserve the rules override."""
    sp, g = set_up(c, rules.full)
    g[L.G_SEATS] = rules.seats
    g[L.G_SENSE_FURY] = c.sense_fury_start + 1  # the space labelled R (1-based)
    for marker, value in ((L.MARKER_GENERALITAT, rules.start_generalitat),
                          (L.MARKER_GUNPOWDER_STORE, rules.start_gunpowder_store)):
        if value:
            g[L.G_MARKER + marker] = _pin_position(c, marker, value)
    for field, count, knob, piece in ((L.SP_CORONELA, rules.reserve_coronela,
                                       "reserve_coronela", "coronela"),
                                      (L.SP_INFANTRY, rules.reserve_infantry,
                                       "reserve_infantry", "infantry")):
        if count >= 0:
            sp[c.reserve, field] = count
            _check_box_holds(c, sp, field, knob, piece, rules.full)
    count_in_play(sp, g)
    return sp, g


def _check_box_holds(c: Components, sp: np.ndarray, field: int, knob: str, piece: str,
                     full: bool) -> None:
    """The Reserve is filled from the game box: no more pieces than tiles.toml prints
    beside those the level's set-up has already placed."""
    printed, reserve = int(c.counts[piece]), int(sp[c.reserve, field])
    placed = int(sp[:, field].sum()) - reserve
    if placed + reserve > printed:
        level = "Full Game" if full else "First Game"
        raise RulesError(f"{knob} = {reserve}: the box holds {printed} "
                         f"{piece} pieces and the {level}'s set-up places {placed} of them, "
                         f"so the Reserve can take 0..{printed - placed}")
