"""Load and validate Verrix's reconstructed components (``data/*.toml``) into read-only
int64 tables the njit engine reads (``layout.S_*``).

Every file is read with ``simkit.datafile.DataFile``; a bad entry raises ``ComponentError``
naming the file, the entry and the problem. The checks are what a replacement with the
printed components must pass too: 67 goods tiles, 5 tribes with 3 setup territories each,
70 action cards (14 per tribe: 9 Basic + 5 Special) with rarities that agree with their
owners, 20 events, 4 festivals, 4 trophies, 7 grey leaders, a connected symmetric map.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from simkit.datafile import REQUIRED, DataFile, DataFolder, as_folder, frozen

from . import layout as L

DATA = Path(__file__).parent / "data"
N_GOODS_TILES = 67
N_ACTION_CARDS = 70
BASIC_PER_TRIBE = 9
SPECIAL_PER_TRIBE = 5
N_EVENT_CARDS = 20
N_FESTIVAL_TILES = 4
N_GREY_LEADERS = 7
INF = 10**6
#: units needed to declare a Battle ("Battle": 4), a tribe's unless its Ability Card says
BATTLE_UNITS = 4


@dataclass(frozen=True)
class Components:
    node_names: tuple[str, ...]
    leader_names: tuple[str, ...]
    card_titles: tuple[str, ...]
    event_titles: tuple[str, ...]
    festival_names: tuple[str, ...]
    trophy_names: tuple[str, ...]
    abilities: tuple[str, ...]
    tiles: dict  # name -> (territory, sea) for B and C
    goods: np.ndarray
    tribes: np.ndarray
    leaders: np.ndarray
    trophies: np.ndarray
    cards: np.ndarray
    events: np.ndarray
    festivals: np.ndarray
    nodes: np.ndarray
    adjacency: np.ndarray  # bool [n, n]


def _ops(f: DataFile, entry: str, effect: list, spec: dict, names: tuple, resolve) -> list:
    """Compile a list of ops ``{op = name, key = value}`` to rows of OP_WIDTH ints.
    ``spec[name]`` lists the op's keys in argument order as (key, kind, default)."""
    if len(effect) > L.MAX_OPS:
        raise f.error(entry, f"at most {L.MAX_OPS} operations, got {len(effect)}")
    rows = []
    for i, op in enumerate(effect):
        where = f"{entry} effect #{i + 1}"
        if not isinstance(op, dict):
            raise f.error(where, f"an operation is a table {{ op = ... }}, got {op!r}")
        name = f.choice(op, "op", names, where)
        keys = spec[name]
        f.only(op, {"op"} | {k for k, _, _ in keys}, where)
        row = [names.index(name)]
        for key, kind, default in keys:
            row.append(resolve(f, op, key, kind, default, where))
        rows.extend(row + [0] * (L.OP_WIDTH - len(row)))
    return rows


def _resolve(f: DataFile, op, key, kind, default, where):
    default = REQUIRED if default is None else default  # None in CARD_SPEC: no default
    if kind == "good":
        return L.GOODS.index(f.choice(op, key, L.GOODS, where, default))
    if kind == "goods":  # a bit mask of goods
        mask = 0
        for g in f.items(op, key, str, where, default):
            if g not in L.GOODS:
                raise f.error(where, f"{key!r}: unknown good {g!r}; goods: {', '.join(L.GOODS)}")
            mask |= 1 << L.GOODS.index(g)
        return mask
    if kind == "steal":
        return L.STEALS.index(f.choice(op, key, L.STEALS, where, default))
    if kind == "tile":
        return L.MOVE_TILES.index(f.choice(op, key, L.MOVE_TILES[1:], where, default))
    if kind == "count":  # a number of tiles, tribesmen or goods given or taken
        return f.number(op, key, where, 1, 10, default)
    return f.number(op, key, where, -5, 10, default)


CARD_SPEC = {
    "gain": [("good", "good", None), ("n", "count", 1)],
    "gain_choice": [("goods", "goods", None)],
    "divine_will": [("n", "int", None)],
    "vp": [("n", "int", None)],
    "pay": [("good", "good", None), ("n", "count", 1)],
    "learn": [], "promote": [],
    "trade": [("capacity", "int", 0), ("vp", "int", 0)],
    "raid": [("strength", "int", 0), ("defence", "int", 0), ("capacity", "int", 0),
             ("steal", "steal", "any"), ("vp_per_hostage", "int", 0)],
    "types_vp": [("n", "int", None)],
    "clan_pact": [],
    "trophy": [("value", "count", None)],
    "battle": [("strength", "int", 0), ("spear", "int", 0), ("enemy", "int", 0)],
}
EVENT_SPEC = {
    "gain": [("good", "good", None), ("n", "count", 1)],
    "the_gift": [("good", "good", None)],
    "divine_will": [("n", "int", None)],
    "vp": [("n", "int", None)],
    "tile": [("name", "tile", None)],
    "everyone_loses": [("good", "good", None), ("n", "count", 1)],
    "lose": [("good", "good", None), ("n", "count", 1)],
    "rescue": [("n", "count", 1)],
    "vp_per": [("good", "good", None), ("cap", "int", 10)],
    "free_move": [], "reorder": [],
}
assert tuple(CARD_SPEC) == L.CARD_OPS and tuple(EVENT_SPEC) == L.EVENT_OPS


def load_map(path: Path):
    f = DataFile(path)
    rows = f.tables("node")
    names = [f.get(r, "name", str, f"[[node]] #{i + 1}") for i, r in enumerate(rows)]
    if len(set(names)) != len(names) or len(names) > L.MAX_NODES:
        raise f.error("[[node]]", f"names must be unique and at most {L.MAX_NODES}")
    kinds = np.zeros((len(names), 1), dtype=np.int64)
    adj = np.zeros((len(names), len(names)), dtype=bool)
    for i, r in enumerate(rows):
        entry = f"[[node]] {names[i]!r}"
        f.only(r, {"name", "kind", "adjacent"}, entry)
        kinds[i, 0] = L.NODE_KINDS.index(f.choice(r, "kind", L.NODE_KINDS, entry))
        for other in f.items(r, "adjacent", str, entry):
            if other not in names:
                raise f.error(entry, f"unknown adjacent node {other!r}")
            adj[i, names.index(other)] = True
    for i in range(len(names)):
        for j in range(len(names)):
            if adj[i, j] != adj[j, i]:
                raise f.error(f"[[node]] {names[i]!r}",
                              f"adjacency with {names[j]!r} must be listed on both nodes")
    if list(kinds[:, 0]).count(L.NODE_HARBOUR) != 1:
        raise f.error("[[node]]", "exactly one harbour (Portum Itium) is needed")
    tiles = {}
    tt = f.table("tiles")
    for name in L.MOVE_TILES[1:]:
        t = f.table(name, f"[tiles.{name}]", tt)
        f.only(t, {"territory", "sea"}, f"[tiles.{name}]")
        tiles[name] = (f.number(t, "territory", f"[tiles.{name}]", 0, 9),
                       f.number(t, "sea", f"[tiles.{name}]", 0, 9))
    comp = shortest_paths(kinds[:, 0], adj, *PRINTED_TILE_A)[0]
    if (comp >= INF).any():
        raise f.error("[[node]]", "the map is not connected")
    for start, end, cost, source in PRINTED_COSTS:
        for name in (start, end):
            if name not in names:
                raise f.error("[[node]]", f"no node {name!r}; the rulebook prints it ({source})")
        f.printed(f"[[node]] {start!r}", f"the Movement Cost on tile A to {end}",
                  int(comp[names.index(start), names.index(end)]), cost, source)
    return tuple(names), kinds, adj, tiles


def shortest_paths(kinds, adj, territory, sea):
    """Cheapest Movement Cost between nodes (the start not counted, the destination is;
    Portum Itium adds nothing) and the next node on one cheapest path (Floyd-Warshall)."""
    n = len(kinds)
    enter = np.where(kinds == L.NODE_TERRITORY, territory,
                     np.where(kinds == L.NODE_SEA, sea, 0))
    dist = np.full((n, n), INF, dtype=np.int64)
    nxt = np.full((n, n), -1, dtype=np.int64)
    for i in range(n):
        dist[i, i] = 0
        nxt[i, i] = i
        for j in range(n):
            if adj[i, j]:
                dist[i, j] = enter[j]
                nxt[i, j] = j
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if dist[i, k] + dist[k, j] < dist[i, j]:
                    dist[i, j] = dist[i, k] + dist[k, j]
                    nxt[i, j] = nxt[i, k]
    return dist, nxt


#: tile A's Movement Costs per territory and per sea area ("Movement")
PRINTED_TILE_A = (1, 2)
#: the examples' Movement Costs on tile A: (from, to, Provisions, where)
PRINTED_COSTS = (("Iceni", "Atrebates", 2, "the Celebration example, Trade"),
                 ("Atrebates", "Cantiaci", 1, "the Clan Pact example, Trade"),
                 ("Caledonii", "Brigantes", 3, "the Pillage example, Raid"),
                 ("Brigantes", "Portum Itium", 5, "the Sack example, Raid"))


def load_goods(path: Path) -> np.ndarray:
    f = DataFile(path)
    rows = f.tables("good")
    names = tuple(f.get(r, "name", str, f"[[good]] #{i + 1}") for i, r in enumerate(rows))
    if names != L.GOODS:
        raise f.error("[[good]]", f"the goods must be, in order: {', '.join(L.GOODS)}")
    t = np.zeros((len(rows), L.N_GD), dtype=np.int64)
    for i, r in enumerate(rows):
        entry = f"[[good]] {names[i]!r}"
        f.only(r, {"name", "value", "count", "bonus", "animal"}, entry)
        t[i, L.GD_VALUE] = f.number(r, "value", entry, 1, 20)
        t[i, L.GD_COUNT] = f.number(r, "count", entry, 0, 67)
        t[i, L.GD_BONUS] = L.BONUSES.index(f.choice(r, "bonus", L.BONUSES, entry))
        t[i, L.GD_ANIMAL] = f.get(r, "animal", bool, entry, False)
    if t[:, L.GD_COUNT].sum() != N_GOODS_TILES:
        raise f.error("[[good]]", f"the counts must sum to {N_GOODS_TILES} tiles, got "
                                  f"{t[:, L.GD_COUNT].sum()}")
    _printed_goods(f, t)
    return t


def load_hostage_value(path: Path) -> int:
    """The ``[hostage]`` table: the trade value of a tribesman sold or bought as a hostage."""
    f = DataFile(path)
    h = f.table("hostage")
    f.only(h, {"value"}, "[hostage]")
    return f.number(h, "value", "[hostage]", 1, 20)


def load_tribes(path: Path, node_names):
    f = DataFile(path)
    leaders = f.tables("leader")
    leader_names = tuple(f.get(r, "name", str, f"[[leader]] #{i + 1}")
                         for i, r in enumerate(leaders))
    ld = np.zeros((len(leaders), L.N_LD), dtype=np.int64)
    for i, r in enumerate(leaders):
        entry = f"[[leader]] {leader_names[i]!r}"
        f.only(r, {"name", "tribe", "class", "strength", "slots"}, entry)
        tribe = f.choice(r, "tribe", L.TRIBES + ("grey",), entry)
        ld[i, L.LD_TRIBE] = -1 if tribe == "grey" else L.TRIBES.index(tribe)
        ld[i, L.LD_CLASS] = L.CLASSES.index(f.choice(r, "class", L.CLASSES[1:], entry))
        ld[i, L.LD_STR] = f.number(r, "strength", entry, 0, 6)
        ld[i, L.LD_SLOTS] = f.number(r, "slots", entry, 0, L.MAX_SLOTS - 1)
    if (ld[:, L.LD_TRIBE] == -1).sum() != N_GREY_LEADERS:
        raise f.error("[[leader]]", f"{N_GREY_LEADERS} grey Common Leader Cards are needed")
    rows = f.tables("tribe")
    if tuple(f.get(r, "name", str, "[[tribe]]") for r in rows) != L.TRIBES:
        raise f.error("[[tribe]]", f"the tribes must be, in order: {', '.join(L.TRIBES)}")
    tr = np.zeros((len(rows), L.N_TR), dtype=np.int64)
    abilities = []
    for i, r in enumerate(rows):
        entry = f"[[tribe]] {L.TRIBES[i]!r}"
        f.only(r, {"name", "trait", "leader", "divine_will", "goods", "hostage",
                   "territories", "ability"} | set(L.ABILITY_KEYS), entry)
        f.get(r, "trait", str, entry)
        abilities.append(f.get(r, "ability", str, entry))
        leader = f.choice(r, "leader", leader_names, entry)
        if ld[leader_names.index(leader), L.LD_TRIBE] != i:
            raise f.error(entry, f"leader {leader!r} belongs to another tribe")
        tr[i, L.TR_LEADER] = leader_names.index(leader)
        tr[i, L.TR_DW] = f.number(r, "divine_will", entry, 0, 20)
        for good, n in f.get(r, "goods", dict, entry).items():
            if good not in L.GOODS:
                raise f.error(entry, f"goods: unknown good {good!r}; goods: "
                                     f"{', '.join(L.GOODS)}")
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= N_GOODS_TILES:
                raise f.error(entry, f"goods: {good} = {n!r} must be a whole number of "
                                     f"tiles, 0..{N_GOODS_TILES}")
            tr[i, L.TR_GOODS + L.GOODS.index(good)] = n
        tr[i, L.TR_HOSTAGE] = f.get(r, "hostage", bool, entry)
        terr = f.items(r, "territories", str, entry)
        if len(terr) != 3 or any(t not in node_names for t in terr):
            raise f.error(entry, "territories: 3 territories of the map are needed")
        for k, t in enumerate(terr):
            tr[i, L.TR_TERRITORIES + k] = node_names.index(t)
        for k, key in enumerate(L.ABILITY_KEYS):
            low, default = (1, BATTLE_UNITS) if key == "battle_units" else (0, 0)
            tr[i, L.TR_BATTLE_UNITS + k] = f.number(r, key, entry, low, 5, default)
    _printed_tribes(f, leader_names, ld, tr, node_names)
    trophies = f.tables("trophy")
    tp = np.zeros((len(trophies), 1), dtype=np.int64)
    names = []
    for i, r in enumerate(trophies):
        entry = f"[[trophy]] #{i + 1}"
        f.only(r, {"name", "power"}, entry)
        names.append(f.get(r, "name", str, entry))
        tp[i, 0] = L.TROPHY_POWERS.index(f.choice(r, "power", L.TROPHY_POWERS, entry))
    if len(trophies) != L.N_TROPHIES:
        raise f.error("[[trophy]]", f"{L.N_TROPHIES} trophy tiles are needed")
    return leader_names, ld, tr, tuple(abilities), tuple(names), tp


def load_cards(path: Path):
    f = DataFile(path)
    rows = f.tables("card")
    if len(rows) > L.MAX_CARDS:
        raise f.error("[[card]]", f"at most {L.MAX_CARDS} different cards")
    t = np.zeros((len(rows), L.N_CD), dtype=np.int64)
    titles = []
    basic_count = np.zeros(L.N_TRIBES, dtype=np.int64)
    special_count = np.zeros(L.N_TRIBES, dtype=np.int64)
    for i, r in enumerate(rows):
        title = f.get(r, "title", str, f"[[card]] #{i + 1}")
        entry = f"[[card]] {title!r}"
        titles.append(title)
        f.only(r, {"title", "type", "basic", "owners", "rarity", "cost", "units",
                   "location", "effect"}, entry)
        t[i, L.CD_TYPE] = L.CARD_TYPES.index(f.choice(r, "type", L.CARD_TYPES, entry))
        basic = f.get(r, "basic", bool, entry)
        t[i, L.CD_BASIC] = basic
        owners = f.items(r, "owners", str, entry)
        mask = 0
        for o in owners:
            if o not in L.TRIBES:
                raise f.error(entry, f"owners: unknown tribe {o!r}")
            mask |= 1 << L.TRIBES.index(o)
            (basic_count if basic else special_count)[L.TRIBES.index(o)] += 1
        rarity = 1 if len(owners) == L.N_TRIBES else (3 if len(owners) == 1 else 2)
        if f.number(r, "rarity", entry, 1, 3) != rarity:
            raise f.error(entry, f"rarity must be {rarity} for {len(owners)} owner(s)")
        t[i, L.CD_OWNERS] = mask
        t[i, L.CD_COST] = f.number(r, "cost", entry, 0, 12)
        units = 0
        for u in f.items(r, "units", str, entry):
            if u not in L.CLASSES:
                raise f.error(entry, f"units: unknown class {u!r}")
            units |= 1 << L.CLASSES.index(u)
        t[i, L.CD_UNITS] = units
        t[i, L.CD_LOCATION] = L.LOCATIONS.index(f.choice(r, "location", L.LOCATIONS, entry))
        ops = _ops(f, entry, f.get(r, "effect", list, entry), CARD_SPEC, L.CARD_OPS,
                   _resolve)
        t[i, L.CD_N_OPS] = len(ops) // L.OP_WIDTH
        t[i, L.CD_OPS:L.CD_OPS + len(ops)] = ops
        kinds = [ops[k * L.OP_WIDTH] for k in range(len(ops) // L.OP_WIDTH)]
        if (t[i, L.CD_TYPE] == L.CT_BATTLE) != (L.OP_BATTLE in kinds):
            raise f.error(entry, "a battle card has one battle operation, other cards none")
        if L.OP_LEARN not in kinds and units == 0:
            raise f.error(entry, "units: at least one class (only Learning takes none)")
    _printed_cards(f, titles, rows)
    for k, tribe in enumerate(L.TRIBES):
        if basic_count[k] != BASIC_PER_TRIBE or special_count[k] != SPECIAL_PER_TRIBE:
            raise f.error("[[card]]", f"{tribe} owns {basic_count[k]} Basic and "
                                      f"{special_count[k]} Special cards; "
                                      f"{BASIC_PER_TRIBE} and {SPECIAL_PER_TRIBE} are needed")
    return tuple(titles), t


def load_events(path: Path):
    f = DataFile(path)
    rows = f.tables("event")
    if len(rows) != N_EVENT_CARDS:
        raise f.error("[[event]]", f"{N_EVENT_CARDS} event cards are needed, got {len(rows)}")
    t = np.zeros((len(rows), L.N_EV), dtype=np.int64)
    titles = []
    for i, r in enumerate(rows):
        title = f.get(r, "title", str, f"[[event]] #{i + 1}")
        entry = f"[[event]] {title!r}"
        titles.append(title)
        f.only(r, {"title", "timing", "effect"}, entry)
        t[i, L.EV_TIMING] = L.TIMINGS.index(f.choice(r, "timing", L.TIMINGS, entry))
        ops = _ops(f, entry, f.get(r, "effect", list, entry), EVENT_SPEC, L.EVENT_OPS,
                   _resolve)
        t[i, L.EV_N_OPS] = len(ops) // L.OP_WIDTH
        t[i, L.EV_OPS:L.EV_OPS + len(ops)] = ops
    return tuple(titles), t


def load_festivals(path: Path):
    f = DataFile(path)
    rows = f.tables("festival")
    if len(rows) != N_FESTIVAL_TILES:
        raise f.error("[[festival]]", f"{N_FESTIVAL_TILES} festival tiles are needed")
    t = np.zeros((len(rows), L.N_FE), dtype=np.int64)
    names = []
    keys = {"per_good": ("good", "vp", "cap"), "good_at_least": ("good", "n", "vp"),
            "divine_will_at_least": ("n", "vp"), "per_hostage": ("vp", "cap"),
            "villages_at_least": ("n", "vp"), "types_at_least": ("n", "vp"),
            "per_equipped_leader": ("vp",), "per_trophy": ("vp",)}
    assert tuple(keys) == L.OBJECTIVES
    for i, r in enumerate(rows):
        name = f.get(r, "name", str, f"[[festival]] #{i + 1}")
        names.append(name)
        objs = f.get(r, "objectives", list, f"[[festival]] {name!r}")
        if len(objs) > L.MAX_OBJECTIVES:
            raise f.error(f"[[festival]] {name!r}", f"at most {L.MAX_OBJECTIVES} objectives")
        t[i, L.FE_N] = len(objs)
        for k, o in enumerate(objs):
            entry = f"[[festival]] {name!r} objective #{k + 1}"
            kind = f.choice(o, "kind", L.OBJECTIVES, entry)
            f.only(o, {"kind", *keys[kind]}, entry)
            base = L.FE_OBJ + 4 * k
            t[i, base] = L.OBJECTIVES.index(kind)
            for j, key in enumerate(keys[kind]):
                if key == "good":
                    t[i, base + 1 + j] = L.GOODS.index(f.choice(o, key, L.GOODS, entry))
                else:
                    t[i, base + 1 + j] = f.number(o, key, entry, 0, 20)
    return tuple(names), t


def load_components(data: DataFolder | Path | str = DATA) -> Components:
    """The components in ``data`` (a DataFolder, or a folder holding every file; default:
    the package's data), loaded once per folder."""
    return _load_components(as_folder(data))


def check_setup_goods(f: DataFile, tr: np.ndarray, goods: np.ndarray) -> None:
    """Player Area Setup: each player "takes all the depicted resources from the Common
    Pool", so the five tribes together cannot start with more of a good than goods.toml
    has tiles of."""
    for good, name in enumerate(L.GOODS):
        wanted = int(tr[:, L.TR_GOODS + good].sum())
        if wanted > goods[good, L.GD_COUNT]:
            raise f.error("[[tribe]]", f"goods: the tribes start with {wanted} {name} "
                                       f"together, but goods.toml has "
                                       f"{goods[good, L.GD_COUNT]} {name} tiles")


@cache
def _load_components(data: DataFolder) -> Components:
    node_names, kinds, adj, tiles = load_map(data / "map.toml")
    goods = load_goods(data / "goods.toml")
    leader_names, ld, tr, abilities, trophy_names, tp = load_tribes(data / "tribes.toml",
                                                                   node_names)
    tr[:, L.TR_HOSTAGE_VALUE] = load_hostage_value(data / "goods.toml")
    for i in range(L.N_TRIBES):
        for k in range(3):
            if kinds[tr[i, L.TR_TERRITORIES + k], 0] != L.NODE_TERRITORY:
                raise DataFile(data / "tribes.toml").error(
                    f"[[tribe]] {L.TRIBES[i]!r}", "setup territories must be territories")
    check_setup_goods(DataFile(data / "tribes.toml"), tr, goods)
    titles, cards = load_cards(data / "cards.toml")
    event_titles, events = load_events(data / "events.toml")
    fest_names, fest = load_festivals(data / "festivals.toml")
    return Components(node_names, leader_names, titles, event_titles, fest_names,
                      trophy_names, abilities, tiles, frozen(goods), frozen(tr), frozen(ld),
                      frozen(tp), frozen(cards), frozen(events), frozen(fest),
                      frozen(kinds), frozen(adj))


def tables(comp: Components, territory_cost: int, sea_cost: int) -> tuple:
    """The static tables for the kernel (``layout.TABLES`` order); tile A from the rules."""
    n = len(comp.node_names)
    cost = np.full((3 * L.MAX_NODES, L.MAX_NODES), INF, dtype=np.int64)
    nxt = np.full((3 * L.MAX_NODES, L.MAX_NODES), -1, dtype=np.int64)
    costs = ((territory_cost, sea_cost), comp.tiles["B"], comp.tiles["C"])
    for tile, (terr, sea) in enumerate(costs):
        d, x = shortest_paths(comp.nodes[:, 0], comp.adjacency, terr, sea)
        cost[tile * L.MAX_NODES:tile * L.MAX_NODES + n, :n] = d
        nxt[tile * L.MAX_NODES:tile * L.MAX_NODES + n, :n] = x
    return (comp.goods, comp.tribes, comp.leaders, comp.trophies, comp.cards, comp.events,
            comp.festivals, comp.nodes, frozen(cost), frozen(nxt),
            frozen(cheapest_nodes(cost, n)))


def cheapest_nodes(cost: np.ndarray, n: int) -> np.ndarray:
    """For each tile, start and destination: the nodes on a cheapest trip (the start's
    cost to the node plus the node's to the destination is the trip's), the destination
    first, then by cost to the destination (``layout.S_CHEAPEST``). Precomputed once so
    that choosing the route with fewest tributes walks these nodes, not the map."""
    out = np.zeros((3 * L.MAX_NODES * L.MAX_NODES, L.MAX_NODES + 1), dtype=np.int64)
    for tile in range(3):
        d = cost[tile * L.MAX_NODES:tile * L.MAX_NODES + n, :n]
        for start in range(n):
            for dest in range(n):
                total = d[start, dest]
                on = [w for w in range(n) if w != dest and d[start, w] + d[w, dest] == total]
                on.sort(key=lambda w, dest=dest: d[w, dest])
                row = out[(tile * L.MAX_NODES + start) * L.MAX_NODES + dest]
                row[0] = len(on) + 1
                row[1:len(on) + 2] = [dest, *on]
    return out


# -- what the rulebook prints: a replacement file that says otherwise is refused ------------

def _printed_goods(f: DataFile, t: np.ndarray) -> None:
    """The Trade example's values (Sword 5, Cart 5, Hammer and Belladonna 6), the
    Celebration example's Horse worth two Belladonna or more, the Clan Pact example's
    Hammer (+1 STRENGTH) and the Sack example's Horse (-1 Movement Cost)."""
    value = {name: int(t[i, L.GD_VALUE]) for i, name in enumerate(L.GOODS)}
    source = "the Trade example"
    f.printed("[[good]] 'Sword'", "value", value["Sword"], 5, source)
    f.printed("[[good]] 'Cart'", "value", value["Cart"], 5, source)
    f.printed("[[good]] 'Hammer'", "value + Belladonna's", value["Hammer"]
              + value["Belladonna"], 6, source)
    f.printed("[[good]] 'Horse'", "value", value["Horse"], f"at least two Belladonna's "
              f"({2 * value['Belladonna']})", "the Celebration example, Trade",
              holds=value["Horse"] >= 2 * value["Belladonna"])
    for good, bonus, source in (("Hammer", "strength", "the Clan Pact example, Trade"),
                                ("Horse", "movement", "the Sack example, Raid")):
        f.printed(f"[[good]] {good!r}", "bonus",
                  L.BONUSES[t[L.GOODS.index(good), L.GD_BONUS]], bonus, source)


#: the leaders the rulebook prints: (tribe or None, class, STRENGTH, where)
PRINTED_LEADERS = {"Niamh": ("blue", "warrior", 2), "Artghal": ("orange", "warrior", 2),
                   "Lindsay": ("purple", "mystic", 3), "Murchad": ("green", "merchant", 2),
                   "Ygerna": ("yellow", "craftsman", 2), "Sive": (None, "warrior", 1),
                   "Ambigath": ("grey", None, None)}
#: a setup territory of each tribe the examples show
PRINTED_TERRITORIES = (("blue", "Caledonii", "the Pillage example, Raid"),
                       ("purple", "Brigantes", "the Pillage example, Raid"),
                       ("orange", "Brigantes", "the Sack example, Raid"),
                       ("green", "Iceni", "the Celebration example, Trade"),
                       ("yellow", "Atrebates", "the Clan Pact example, Trade"))


def _printed_tribes(f: DataFile, names, ld, tr, node_names) -> None:
    tribes = (*L.TRIBES, "grey")
    for name, (tribe, cls, strength) in PRINTED_LEADERS.items():
        if name not in names:
            raise f.error("[[leader]]", f"no leader {name!r}; the rulebook prints it (Leader "
                                        "Cards, the examples)")
        row, entry = ld[names.index(name)], f"[[leader]] {name!r}"
        if tribe is not None:
            f.printed(entry, "tribe", tribes[row[L.LD_TRIBE]], tribe, "Leader Cards")
        if cls is not None:
            f.printed(entry, "class", L.CLASSES[row[L.LD_CLASS]], cls, "Leader Cards")
        if strength is not None:
            f.printed(entry, "strength", int(row[L.LD_STR]), strength,
                      "Leader Cards (Ygerna: 3 with her Hammer)")
    for tribe, territory, source in PRINTED_TERRITORIES:
        held = [node_names[j] for j in tr[L.TRIBES.index(tribe),
                                          L.TR_TERRITORIES:L.TR_TERRITORIES + 3]]
        f.printed(f"[[tribe]] {tribe!r}", "territories", held, f"{territory} among them",
                  source, holds=territory in held)
    f.printed("[[tribe]] 'purple'", "redraw_event",
              int(tr[L.TRIBES.index("purple"), L.TR_BATTLE_UNITS
                     + L.ABILITY_KEYS.index("redraw_event")]), "1 (Benevolence)",
              "Purple's Ability Card", holds=tr[L.TRIBES.index("purple"), L.TR_BATTLE_UNITS
                                                + L.ABILITY_KEYS.index("redraw_event")] > 0)


#: what the rulebook prints of named cards: fields, a cost below a bound, operations
#: the effect must hold (keys not named are the reconstruction's), keys they must not
PRINTED_CARDS = {
    "Cooking": {"type": "development", "location": "village", "cost": 2,
                "ops": [{"op": "gain", "good": "Provisions", "n": 3}]},
    "Learning": {"cost": 0, "ops": [{"op": "learn"}]},
    "Promote Tribesman": {"ops": [{"op": "promote"}]},
    "Celebration": {"type": "trade", "basic": True, "location": "away", "cost": 3,
                    "owner": "green", "ops": [{"op": "trade", "vp": 1}],
                    "without": ("trade", "capacity")},
    "Clan Pact": {"type": "trade", "basic": False, "location": "away", "cost": 4,
                  "owners": list(L.TRIBES), "ops": [{"op": "clan_pact"}]},
    "Pillage": {"type": "raid", "basic": True, "location": "away", "owner": "blue",
                "below": 6},
    "Sack": {"type": "raid", "basic": False, "location": "portum", "owner": "orange",
             "below": 5, "ops": [{"op": "types_vp", "n": 1}], "without": ("raid", "capacity")},
    "Consecrated Ground": {"basic": False, "owner": "purple", "below": 3},
    "Supremacy": {"type": "battle", "units": ["tribesman"],
                  "ops": [{"op": "battle", "strength": 1}]},
    "Agonizing Wail": {"type": "battle", "units": ["tribesman", "mystic"]},
    "Onslaught": {"type": "battle", "units": ["tribesman", "warrior"]},
}


def _printed_cards(f: DataFile, titles, rows) -> None:
    source = "Action Cards and the examples of Development, Trade, Raid and Battle"
    for title, fact in PRINTED_CARDS.items():
        if title not in titles:
            raise f.error("[[card]]", f"no card {title!r}; the rulebook prints it ({source})")
        row, entry = rows[titles.index(title)], f"[[card]] {title!r}"
        for key in ("type", "basic", "location", "cost", "owners"):
            if key in fact:
                f.printed(entry, key, row.get(key), fact[key], source)
        if "units" in fact:
            f.printed(entry, "units", sorted(row.get("units", [])), sorted(fact["units"]),
                      source)
        if "owner" in fact:
            f.printed(entry, "owners", row.get("owners"), f"{fact['owner']} among them",
                      source, holds=fact["owner"] in row.get("owners", []))
        if "below" in fact:
            f.printed(entry, "cost", row.get("cost"), f"below {fact['below']}", source,
                      holds=row.get("cost", 99) < fact["below"])
        effect = [op for op in row.get("effect", []) if isinstance(op, dict)]
        for want in fact.get("ops", []):
            f.printed(entry, "effect", effect, f"an operation {want}", source,
                      holds=any(all(op.get(k) == v for k, v in want.items())
                                for op in effect))
        if "without" in fact:
            op_name, key = fact["without"]
            f.printed(entry, "effect", effect, f"a {op_name} operation without {key}",
                      source, holds=all(key not in op for op in effect
                                        if op.get("op") == op_name))
