"""Load and validate The King in the North's reconstructed components.

``data/map.toml`` (Locations and paths), ``data/blocks.toml`` (roster, bags, set-up,
historical reinforcements), ``data/cards.toml`` (both decks) and ``data/campaign.toml``
(calendar, Reinforcement Track) are reconstructions (each file says so);
every fact the rulebook prints is checked here on load, so a replacement file that
breaks one is refused with the file, the entry and the problem.
"""

import dataclasses
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from simkit.datafile import DataFile, DataFolder, as_folder, frozen
from simkit.errors import RulesError

from . import layout as L

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Components:
    loc_ids: tuple[str, ...]
    loc: np.ndarray  # (n_loc, N_LC)
    adj: np.ndarray  # (n_loc, n_loc) road kind
    fac_home: np.ndarray  # faction -> recruitment location
    any2: np.ndarray  # the side's "any 2 blocks" location (Castro Urdiales, Elizondo)
    block_names: tuple[str, ...]
    blk: np.ndarray  # (n_blocks, N_BK)
    card: np.ndarray  # (n_cards, N_CD)
    track: np.ndarray  # (2, N_YEARS) blocks from the bag per Year
    first_year_semester: str
    last_year_semester: str
    #: (n_blocks, 2): the Capital whose Carlist set-up moves the block (blocks.toml
    #: ``rising``) and where it then starts; -1 for the others
    rising: np.ndarray

    def loc_index(self, name: str) -> int:
        return self.loc_ids.index(name)


def _side(f: DataFile, row, entry):
    return L.SIDES.index(f.choice(row, "side", L.SIDES, entry))


def load_map(path=DATA / "map.toml"):
    f = DataFile(path)
    rows = f.tables("location")
    ids = []
    loc = np.zeros((len(rows), L.N_LC), dtype=np.int64)
    fac_home = np.full(L.N_FACTIONS, -1, dtype=np.int64)
    any2 = np.full(2, -1, dtype=np.int64)
    allowed = {"id", "kind", "vp", "resource", "fortified_house", "port", "mountain",
               "trail_only", "star", "owner", "recruit", "factions", "estuary"}
    if len(rows) > L.MAX_LOC:
        raise f.error("[[location]]", f"{len(rows)} Locations, at most {L.MAX_LOC}")
    for i, row in enumerate(rows):
        entry = f"[[location]] #{i + 1}"
        f.only(row, allowed, entry)
        name = f.get(row, "id", str, entry)
        entry = f"location {name!r}"
        if name in ids:
            raise f.error(entry, "declared twice")
        ids.append(name)
        kind = L.LOC_KINDS.index(f.choice(row, "kind", L.LOC_KINDS, entry))
        loc[i, L.LC_KIND] = kind
        loc[i, L.LC_RESOURCE] = kind == L.RESOURCE or f.get(row, "resource", bool, entry,
                                                             False)
        loc[i, L.LC_VP] = f.number(row, "vp", entry, 0, 3, 0)
        for key, col in (("fortified_house", L.LC_FH), ("port", L.LC_PORT),
                         ("mountain", L.LC_MOUNTAIN), ("trail_only", L.LC_TRAIL_ONLY),
                         ("star", L.LC_STAR)):
            loc[i, col] = f.get(row, key, bool, entry, False)
        owner = f.choice(row, "owner", L.SIDES + ("none",), entry, "none")
        loc[i, L.LC_OWNER] = L.SIDES.index(owner) if owner in L.SIDES else L.NOBODY
        loc[i, L.LC_RECRUIT_SIDE] = L.NOBODY
        if "recruit" in row:
            side = L.SIDES.index(f.choice(row, "recruit", L.SIDES, entry))
            loc[i, L.LC_RECRUIT_SIDE] = side
            for fac in f.items(row, "factions", str, entry):
                if fac == "any2":
                    any2[side] = i
                    loc[i, L.LC_RECRUIT_ANY2] = 1
                    continue
                if fac not in L.FACTIONS or L.FACTION_SIDE[L.FACTIONS.index(fac)] != side:
                    raise f.error(entry, f"faction {fac!r} is not a {L.SIDES[side]} faction")
                fac_home[L.FACTIONS.index(fac)] = i
        _check_location(f, entry, loc[i], kind)
    loc[:, L.LC_ESTUARY] = -1
    for i, row in enumerate(rows):
        if "estuary" in row:
            entry = f"location {ids[i]!r}"
            other = ids.index(f.choice(row, "estuary", ids, entry))
            if not loc[i, L.LC_PORT] or not loc[other, L.LC_PORT]:
                raise f.error(entry, "an estuary links two Ports (rulebook 11.5)")
            loc[i, L.LC_ESTUARY] = other
    adj = np.zeros((len(rows), len(rows)), dtype=np.int64)
    for r, road in enumerate(f.tables("road")):
        entry = f"[[road]] #{r + 1}"
        f.only(road, {"kind", "links"}, entry)
        kind = L.ROADS.index(f.choice(road, "kind", L.ROADS[1:], entry))
        for link in f.items(road, "links", list, entry):
            if len(link) != 2 or any(x not in ids for x in link):
                raise f.error(entry, f"link {link!r} must name two known Locations")
            a, b = ids.index(link[0]), ids.index(link[1])
            if a == b or adj[a, b]:
                raise f.error(entry, f"link {link!r} is a loop or declared twice")
            adj[a, b] = adj[b, a] = kind
    for i in range(len(rows)):
        linked = np.flatnonzero(adj[i])  # map order: the searches' order
        loc[i, L.LC_DEGREE] = len(linked)
        loc[i, L.LC_NEIGHBOURS:L.LC_NEIGHBOURS + len(linked)] = linked
    _check_map(f, ids, loc, adj, fac_home, any2)
    return tuple(ids), loc, adj, fac_home, any2


def _check_location(f, entry, row, kind):
    if row[L.LC_STAR] and kind != L.CAPITAL:
        raise f.error(entry, "only a Capital can be one of the 4 starred Capitals")
    if row[L.LC_RECRUIT_SIDE] != L.NOBODY and kind == L.TOWN and not row[L.LC_RESOURCE]:
        raise f.error(entry, "Recruitment Locations are Cities/Capitals or Resource "
                             "Locations (rulebook 4.5)")


def _check_map(f, ids, loc, adj, fac_home, any2):
    """The rulebook's printed map facts (2.2, 4.2.1, 4.4, 7.2.1, 7.3.5, 7.5)."""
    where = "the map"
    if int((loc[:, L.LC_KIND] == L.CAPITAL).sum()) != 5:
        raise f.error(where, "needs exactly 5 Capitals (rulebook 4.2.1)")
    if int(loc[:, L.LC_STAR].sum()) != 4:
        raise f.error(where, "needs exactly 4 starred Capitals (rulebook 2.2)")
    if int(loc[:, L.LC_PORT].sum()) != 7:
        raise f.error(where, "needs exactly 7 Ports (rulebook 4.4)")
    for side in (0, 1):
        n = int((loc[:, L.LC_RECRUIT_SIDE] == side).sum())
        if n != 4:
            raise f.error(where, f"{L.SIDES[side]} need 4 Recruitment Locations, got {n}")
        if any2[side] < 0:
            raise f.error(where, f"{L.SIDES[side]} need an 'any2' Recruitment Location")
    for fac in range(L.N_FACTIONS):
        if fac_home[fac] < 0:
            raise f.error(where, f"faction {L.FACTIONS[fac]!r} has no Recruitment Location")
    for i, name in enumerate(ids):
        roads = adj[i][adj[i] > 0]
        if roads.size == 0:
            raise f.error(f"location {name!r}", "has no path")
        if loc[i, L.LC_TRAIL_ONLY] and (roads != L.TRAIL).any():
            raise f.error(f"location {name!r}", "is trail-only but has a road")
    for name in ("san_sebastian", "bilbao"):
        if name in ids and not loc[ids.index(name), L.LC_PORT]:
            raise f.error(f"location {name!r}", "is a Port Capital (rulebook 2.2)")
    _printed_map(f, ids, loc, adj, fac_home, any2)


#: where each side's recruits enter (rulebook 7.2.1), the "any 2 blocks" Locations (7.2.1)
PRINTED_RECRUITMENT = {
    "legion": "san_sebastian", "royal_guard": "miranda", "regular": "miranda",
    "chapelgorris": "pamplona", "militia": "pamplona", "guipuzcoa": "onate",
    "alava": "amezcoas", "navarra": "amezcoas", "castilla": "amezcoas",
    "vizcaya": "amurrio"}
PRINTED_ANY2 = ("elizondo", "castro_urdiales")  # by side: carlists, liberals
#: the movement example (7.3.5): main-road steps from San Sebastián
PRINTED_MAIN_ROAD_STEPS = {"tolosa": 2, "bergara": 3}


def _printed_map(f, ids, loc, adj, fac_home, any2):
    """Every map fact the rulebook prints, on the Locations it names."""
    def at(name):
        if name not in ids:
            raise f.error("the map", f"has no location {name!r}; the rulebook prints it "
                                     "(4.2, 7.2.1, 7.3.5, 7.5, 11.5)")
        return ids.index(name)

    for fac, name in PRINTED_RECRUITMENT.items():
        home = ids[fac_home[L.FACTIONS.index(fac)]]
        f.printed(f"faction {fac!r}", "its Recruitment Location", home, name, "7.2.1")
    for side, name in enumerate(PRINTED_ANY2):
        f.printed(f"the {L.SIDES[side]}", "'any2' Recruitment Location", ids[any2[side]],
                  name, "7.2.1")
    onate, amurrio, bilbao = at("onate"), at("amurrio"), at("bilbao")
    f.printed("location 'onate'", "kind", L.LOC_KINDS[loc[onate, L.LC_KIND]],
              "a City and a Resource Location", "4.2",
              holds=loc[onate, L.LC_KIND] == L.CITY and bool(loc[onate, L.LC_RESOURCE]))
    for name in ("pamplona", "miranda"):
        f.printed(f"location {name!r}", "kind", L.LOC_KINDS[loc[at(name), L.LC_KIND]],
                  "a City or Capital", "7.2.1", holds=loc[at(name), L.LC_KIND] >= L.CITY)
    f.printed("location 'amurrio'", "fortified_house", bool(loc[amurrio, L.LC_FH]), True,
              "7.5's example")
    estuary = loc[bilbao, L.LC_ESTUARY]
    f.printed("location 'bilbao'", "estuary", ids[estuary] if estuary >= 0 else None,
              "portugalete", "11.5")
    steps = _main_road_steps(adj, at("san_sebastian"))
    for name, n in PRINTED_MAIN_ROAD_STEPS.items():
        f.printed(f"location {name!r}", "main-road steps from San Sebastián",
                  steps.get(at(name)), n, "7.3.5's example")
    _printed_vp(f, ids, loc)
    f.printed("location 'lecumberri'", "main-road steps from San Sebastián",
              steps.get(at("lecumberri")), "more than 3 (reached by a secondary road)",
              "7.3.5's example", holds=steps.get(at("lecumberri"), 99) > 3)


#: 2.2: the 4 starred Capitals (3 VP each); 2 VP for Logroño, every other City, Amezcoas
#: and Elizondo; 1 VP for every other Resource Location; none for a town
PRINTED_STARRED = ("san_sebastian", "bilbao", "vitoria", "pamplona")
PRINTED_TWO_VP = ("amezcoas", "elizondo")


def _printed_vp(f, ids, loc):
    starred = sorted(ids[i] for i in np.flatnonzero(loc[:, L.LC_STAR]))
    f.printed("the map", "the starred Capitals", starred, sorted(PRINTED_STARRED), "2.2")
    for i, name in enumerate(ids):
        kind = loc[i, L.LC_KIND]
        vp = (3 if name in PRINTED_STARRED else
              2 if kind >= L.CITY or name in PRINTED_TWO_VP else
              1 if kind == L.RESOURCE or loc[i, L.LC_RESOURCE] else 0)
        f.printed(f"location {name!r}", "vp", int(loc[i, L.LC_VP]), vp, "2.2")


def _main_road_steps(adj, start: int) -> dict[int, int]:
    """Fewest main-road steps from ``start`` to each Location reached by main roads."""
    steps, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for i in frontier:
            for j in np.flatnonzero(adj[i] == L.MAIN):
                if int(j) not in steps:
                    steps[int(j)] = steps[i] + 1
                    nxt.append(int(j))
        frontier = nxt
    return steps


#: blocks that do not fight by diamonds (Partisans, Customs Officers, Decoys, Naval
#: Squadrons: 7.3.7, 7.4): the only ones that may show none
UNRATED = (L.PARTISANS, L.CUSTOMS, L.DECOY, L.NAVAL)


def load_blocks(ids, path=DATA / "blocks.toml", kinds=None):
    """The roster: block names and their rows, and each block's ``rising`` (the Capital
    that moves it when the Carlists hold it at set-up, and where it then starts; -1 for
    the others). ``kinds``: each Location's kind (map.toml), to check that ``rising``
    names a Capital."""
    f = DataFile(path)
    names, rows, entry_of, singles = [], [], {}, set()  # entry_of: name -> entries
    risings = []
    allowed = {"name", "side", "faction", "type", "diamonds", "special", "start", "count",
               "arrives", "at", "rising"}
    for i, row in enumerate(f.tables("block")):
        entry = f"[[block]] #{i + 1}"
        f.only(row, allowed, entry)
        name = f.get(row, "name", str, entry)
        entry = f"block {name!r} (#{i + 1})"
        entry_of.setdefault(name, []).append(i + 1)
        side = _side(f, row, entry)
        btype = L.BLOCK_TYPES.index(f.choice(row, "type", L.BLOCK_TYPES, entry))
        fac = L.NO_FACTION
        if "faction" in row:
            fac = L.FACTIONS.index(f.choice(row, "faction", L.FACTIONS, entry))
            if L.FACTION_SIDE[fac] != side:
                raise f.error(entry, f"faction {L.FACTIONS[fac]!r} is not a "
                                     f"{L.SIDES[side]} faction")
        special = L.SPECIALS.index(f.choice(row, "special", L.SPECIALS, entry, "none"))
        if fac == L.NO_FACTION and btype in (L.INFANTRY, L.CAVALRY, L.LANCER, L.LEADER) \
                and special not in (L.SP_REQUETE, L.SP_HUSSARS, L.SP_CARABINEERS):
            raise f.error(entry, "infantry, cavalry and leaders need a faction (except "
                                 "Requetés, Hussars and Carabineers)")
        start = f.get(row, "start", str, entry)
        arrives, start_loc = -1, -1
        if start in ("bag", "event", "defectors"):
            start_kind = L.STARTS.index(start)
        elif start == "reinforcement":
            start_kind = L.START_REINFORCEMENT
            text = f.get(row, "arrives", str, entry)
            year, sem = text[:-1], text[-1:]
            last = L.FIRST_YEAR + L.N_YEARS - 1
            if not (len(year) == 4 and year.isdigit() and sem in L.SEMESTERS
                    and L.FIRST_YEAR <= int(year) <= last):
                raise f.error(entry, f"arrives = {text!r} must be a Semester of the game "
                                     f"(6.1), {L.FIRST_YEAR}A..{last}B, such as '1834A'")
            arrives = L.semester_index(int(year), sem)
            start_loc = ids.index(f.choice(row, "at", ids, entry))
        else:
            start_kind = L.START_MAP
            start_loc = ids.index(f.choice(row, "start", ids + ("bag", "event", "defectors",
                                                                 "reinforcement"), entry))
        count = f.number(row, "count", entry, 1, 20, 1)
        if btype == L.LEADER or special != L.SP_NONE:
            singles.add(name)
            if count > 1:
                raise f.error(entry, "a Leader or special block is one block: count 1")
        low = 0 if btype in UNRATED else 1  # 3.2: a block's strength is 1-4 diamonds
        diamonds = f.number(row, "diamonds", entry, low, 4)
        rising = _rising(f, row, entry, ids, kinds, start_kind)
        for _ in range(count):
            names.append(name)
            rows.append((side, fac, btype, diamonds, special, start_kind, start_loc, arrives))
            risings.append(rising)
    for name in sorted(singles):
        if len(entry_of[name]) > 1:
            raise f.error(f"block {name!r}", "a Leader or special block is one block, but "
                                             f"entries #{entry_of[name]} share its name")
    if len(rows) > L.MAX_BLOCKS:
        raise f.error("[[block]]", f"{len(rows)} blocks, at most {L.MAX_BLOCKS}")
    blk = np.array(rows, dtype=np.int64).reshape(-1, L.N_BK)
    _check_roster(f, blk)
    return tuple(names), blk, np.array(risings, dtype=np.int64).reshape(-1, 2)


def _rising(f, row, entry, ids, kinds, start_kind):
    """A block's ``rising = [capital, location]``: it starts at ``location`` when the
    reconstruction knob ``carlist_capitals_at_set_up`` gives the Carlists ``capital``."""
    if "rising" not in row:
        return (-1, -1)
    pair = f.items(row, "rising", str, entry)
    if len(pair) != 2 or any(name not in ids for name in pair):
        raise f.error(entry, f"rising = {pair!r} must be [a Capital, a Location] of map.toml")
    capital, where = ids.index(pair[0]), ids.index(pair[1])
    if kinds is not None and kinds[capital] != L.CAPITAL:
        raise f.error(entry, f"rising names {pair[0]!r}, which is not a Capital")
    if start_kind not in (L.START_MAP, L.START_BAG):
        raise f.error(entry, "rising moves a block the set-up places on the map or in the "
                             "bag")
    return (capital, where)


#: the values of the reconstruction knob carlist_capitals_at_set_up: the Capitals the
#: Carlists hold at set-up
RISEN_CAPITALS = {"none": (), "vitoria": ("vitoria",), "bilbao": ("bilbao",),
                  "vitoria_and_bilbao": ("vitoria", "bilbao")}


def set_up(data: DataFolder | Path | str = DATA, capitals: str = "none",
           militia: str = "garrisons") -> Components:
    """The components in ``data`` with the set-up the reconstruction knobs choose
    (``carlist_capitals_at_set_up``, ``liberal_militia_at_set_up``): the Carlists hold the
    Capitals ``capitals`` names (each one's Liberal blocks and the Carlist blocks whose
    ``rising`` names it start where ``rising`` says, its control is the Carlists'), and
    with ``militia`` = "bag" the Liberal Militia blocks the set-up places on the map start
    in the Liberal bag instead. Raises RulesError when the map has no such Capital or a
    Liberal block set up in it has nowhere to go."""
    if capitals == "none" and militia == "garrisons":
        return components(data)
    return _set_up(as_folder(data), capitals, militia)


@cache
def _set_up(data: DataFolder, capitals: str, militia: str) -> Components:
    c = components(data)
    loc, blk = c.loc.copy(), c.blk.copy()
    for name in RISEN_CAPITALS[capitals]:
        if name not in c.loc_ids or loc[c.loc_index(name), L.LC_KIND] != L.CAPITAL:
            raise RulesError(f"carlist_capitals_at_set_up = {capitals!r}: map.toml has no "
                             f"Capital {name!r}")
        i = c.loc_index(name)
        loc[i, L.LC_OWNER] = L.CARLISTS
        moved = c.rising[:, 0] == i
        blk[moved, L.BK_START] = L.START_MAP
        blk[moved, L.BK_START_LOC] = c.rising[moved, 1]
        left = (blk[:, L.BK_START] == L.START_MAP) & (blk[:, L.BK_START_LOC] == i) \
            & (blk[:, L.BK_SIDE] == L.LIBERALS)
        if left.any():
            raise RulesError(f"carlist_capitals_at_set_up = {capitals!r}: the Liberal "
                             f"blocks blocks.toml sets up in {name} need rising = "
                             f"[{name!r}, a Location] to start elsewhere")
    if militia == "bag":
        raised = (blk[:, L.BK_SIDE] == L.LIBERALS) & (blk[:, L.BK_START] == L.START_MAP) \
            & (blk[:, L.BK_FACTION] == L.FACTIONS.index("militia"))
        blk[raised, L.BK_START] = L.START_BAG
        blk[raised, L.BK_START_LOC] = -1
    return dataclasses.replace(c, loc=frozen(loc), blk=frozen(blk))


def _check_roster(f, blk):
    """The counts rulebook 3.2 prints."""
    def count(side, btype=None, special=None):
        m = blk[:, L.BK_SIDE] == side
        if btype is not None:
            m &= blk[:, L.BK_TYPE] == btype
        if special is not None:
            m &= blk[:, L.BK_SPECIAL] == special
        return int(m.sum())
    for side, btype, n, what in ((0, L.PARTISANS, 2, "Partisans"),
                                 (0, L.CUSTOMS, 2, "Customs Officers"),
                                 (0, L.GUERRILLA, 3, "Guerrillas"),
                                 (1, L.DECOY, 2, "Decoys"), (1, L.NAVAL, 2, "Naval Squadrons")):
        if count(side, btype) != n:
            raise f.error("the roster", f"needs {n} {what} (rulebook 3.2)")
    for special in (L.SP_DON_CARLOS, L.SP_EL_ABUELO, L.SP_ZUMALACARREGUI, L.SP_ESPARTERO,
                    L.SP_CEBALLOS, L.SP_DIEGO, L.SP_HUSSARS, L.SP_CARABINEERS):
        if int((blk[:, L.BK_SPECIAL] == special).sum()) != 1:
            raise f.error("the roster", f"needs exactly one {L.SPECIALS[special]} block")
    for side in (0, 1):
        if count(side, L.DEFECTORS) < 1:
            raise f.error("the roster", f"{L.SIDES[side]} need Defectors blocks")
    _printed_blocks(f, blk)


#: blocks the Example of a Battle (8.5) and the Loyalty Challenge example (8.6.1) show:
#: (what, side, faction, types, special, diamonds, how many at least)
PRINTED_BLOCKS = (
    ("Zumalacárregui", None, None, None, L.SP_ZUMALACARREGUI, 4, 1),
    ("Requeté", None, None, None, L.SP_REQUETE, 4, 1),
    ("a Navarra block", 0, "navarra", (L.INFANTRY, L.CAVALRY, L.LANCER), L.SP_NONE, 2, 2),
    ("a Guardia Real cavalry block", 1, "royal_guard", (L.CAVALRY,), L.SP_NONE, 1, 1),
    ("a Legión Auxiliar Extranjera cavalry block", 1, "legion", (L.CAVALRY, L.LANCER),
     L.SP_NONE, 1, 1),
    ("a Chapelgorris / Legión Extranjera block", 1, "legion", (L.INFANTRY,), L.SP_NONE, 3,
     1),
    ("a Vizcaya block", 0, "vizcaya", (L.INFANTRY, L.CAVALRY, L.LANCER), L.SP_NONE, 3, 1,
     "the Loyalty Challenge example (8.6.1)"),
)


def _printed_blocks(f, blk):
    """The diamonds the rulebook prints: the examples' blocks (8.5, 8.6.1) and the Leaders
    with "two or more" (3.2)."""
    for what, side, fac, types, special, diamonds, at_least, *source in PRINTED_BLOCKS:
        m = blk[:, L.BK_SPECIAL] == special
        if side is not None:
            m &= (blk[:, L.BK_SIDE] == side) & (blk[:, L.BK_FACTION] == L.FACTIONS.index(fac))
            m &= np.isin(blk[:, L.BK_TYPE], types)
        found = int((blk[m, L.BK_DIAMONDS] == diamonds).sum())
        f.printed("the roster", f"blocks of {what} with {diamonds} diamonds", found,
                  f"{'one' if at_least == 1 else at_least} or more",
                  source[0] if source else "the Example of a Battle (8.5)",
                  holds=found >= at_least)
    for special in (L.SP_DON_CARLOS, L.SP_ESPARTERO, L.SP_ZUMALACARREGUI):
        diamonds = int(blk[blk[:, L.BK_SPECIAL] == special, L.BK_DIAMONDS][0])
        f.printed(f"block {L.SPECIALS[special]!r}", "diamonds", diamonds, "2 or more",
                  "3.2: the most prominent Leaders", holds=diamonds >= 2)


def load_cards(path=DATA / "cards.toml"):
    f = DataFile(path)
    rows = []
    allowed = {"side", "bid", "faction", "factions", "double", "bugle", "shield6", "special"}
    for i, row in enumerate(f.tables("card")):
        entry = f"[[card]] #{i + 1}"
        f.only(row, allowed, entry)
        side = _side(f, row, entry)
        fac1 = fac2 = L.NO_FACTION
        if "faction" in row:
            fac1 = L.FACTIONS.index(f.choice(row, "faction", L.FACTIONS, entry))
        if "factions" in row:
            pair = f.items(row, "factions", str, entry)
            if len(pair) != 2 or any(x not in L.FACTIONS for x in pair):
                raise f.error(entry, f"factions {pair!r} must be two Factions")
            fac1, fac2 = L.FACTIONS.index(pair[0]), L.FACTIONS.index(pair[1])
        for fac in (fac1, fac2):
            if fac != L.NO_FACTION and L.FACTION_SIDE[fac] != side:
                raise f.error(entry, f"{L.FACTIONS[fac]!r} is not a {L.SIDES[side]} faction")
        special = L.CARD_SPECIALS.index(f.choice(row, "special", L.CARD_SPECIALS, entry,
                                                 "none"))
        if (special == L.CS_NONE) == (fac1 == L.NO_FACTION):
            raise f.error(entry, "a card is either a Faction card or a special card")
        shield = f.get(row, "shield6", bool, entry, False)
        if shield and side != L.CARLISTS:
            raise f.error(entry, "only Carlist cards carry the shield-6 (rulebook 8.4.7)")
        rows.append((side, fac1, fac2, f.get(row, "double", bool, entry, False),
                     f.get(row, "bugle", bool, entry, False), f.number(row, "bid", entry, 1, 200),
                     shield, special))
    card = np.array(rows, dtype=np.int64).reshape(-1, L.N_CD)
    _check_decks(f, card)
    return card


def _check_decks(f, card):
    """Rulebook 3.3, 8.6.1, 11.1: the special cards each deck holds."""
    if card.shape[0] > L.MAX_CARDS:
        raise f.error("the decks", f"{card.shape[0]} cards, at most {L.MAX_CARDS}")
    for side, loyalty in ((0, 3), (1, 2)):
        deck = card[card[:, L.CD_SIDE] == side]
        if deck.shape[0] > L.MAX_DECK:
            raise f.error("the decks", f"{L.SIDES[side]}: {deck.shape[0]} cards, at most "
                                       f"{L.MAX_DECK}")
        sp = deck[:, L.CD_SPECIAL]
        if int((sp == L.CS_LOYALTY).sum()) != loyalty:
            raise f.error("the decks", f"{L.SIDES[side]} need {loyalty} Loyalty Challenges")
        if int((sp == L.CS_HQ).sum()) != 1:
            raise f.error("the decks", f"{L.SIDES[side]} need 1 Headquarters card")
        if int((sp == L.CS_BREACH).sum()) != 1:
            raise f.error("the decks", f"{L.SIDES[side]} need 1 «Breach in the Walls» "
                                       "(kept out unless the breach knob adds it)")
        events = sp[sp >= L.FIRST_EVENT]
        if events.size != 8 or np.unique(events).size != 8:
            raise f.error("the decks", f"{L.SIDES[side]} need 8 different Special Events")
    bids = card[:, L.CD_BID]
    if np.unique(bids).size != bids.size:
        raise f.error("the decks", "bid numbers must all differ (the rulebook has no tie "
                                   "rule)")


def load_campaign(path=DATA / "campaign.toml"):
    f = DataFile(path)
    f.only(f.data, {"first_year", "years", "first_year_semester", "last_year_semester",
                    "reinforcement_track"}, "the file")
    if f.number(f.data, "first_year", "first_year", 1833, 1833) != L.FIRST_YEAR:
        raise f.error("first_year", "must be 1833")
    f.number(f.data, "years", "years", L.N_YEARS, L.N_YEARS)
    first = f.choice(f.data, "first_year_semester", L.SEMESTERS, "first_year_semester")
    last = f.choice(f.data, "last_year_semester", L.SEMESTERS, "last_year_semester")
    track = np.zeros((2, L.N_YEARS), dtype=np.int64)
    table = f.table("reinforcement_track")
    for side, name in enumerate(L.SIDES):
        values = f.items(table, name, int, f"reinforcement_track.{name}")
        if len(values) != L.N_YEARS - 1 or not 0 <= min(values) <= max(values) <= 40:
            raise f.error(f"reinforcement_track.{name}", "needs 6 numbers of blocks drawn, "
                                                         "0..40 each (1833-1838)")
        track[side, :L.N_YEARS - 1] = values
    return track, first, last


def components(data: DataFolder | Path | str = DATA) -> Components:
    """The components in ``data`` (a DataFolder, or a folder holding every file; default:
    the package's data), loaded once per folder."""
    return _components(as_folder(data))


@cache
def _components(data: DataFolder) -> Components:
    ids, loc, adj, fac_home, any2 = load_map(data / "map.toml")
    names, blk, rising = load_blocks(ids, data / "blocks.toml", loc[:, L.LC_KIND])
    card = load_cards(data / "cards.toml")
    track, first, last = load_campaign(data / "campaign.toml")
    return Components(ids, frozen(loc), frozen(adj), frozen(fac_home), frozen(any2), names,
                      frozen(blk), frozen(card), frozen(track), first, last, frozen(rising))

