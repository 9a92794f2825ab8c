"""Load and validate 11 de Setembre's data files.

``load_board`` reads the reconstructed components of the whole game (``data/map.toml``,
``data/forces.toml``, ``data/events.toml``), checks them against every printed fact and
the capacities of ``layout`` and returns them as read-only arrays in a ``Board``
(a named tuple the kernels take). Errors name the file, the entry and the problem.
"""

from collections import namedtuple
from functools import cache
from pathlib import Path

import numpy as np

from simkit.datafile import DataFile, DataFolder, as_folder, frozen

from . import layout as L

DATA = Path(__file__).parent / "data"



# -- the static components the kernels read: few arrays (each array a function takes costs
# compile time), their columns named in layout
Board = namedtuple("Board", [
    "zone",  # zone x ZONE_COLUMNS: colour code, deployment (6.2), R zone (10.1), objective,
             # the zone behind the Royal Breach (7; 1 there, 0 elsewhere)
    "pair",  # PAIR_TABLES x zone x zone: side line (LINES, NO_SIDE when none), blue line
             # protecting the first zone against the second, gun range over every side (9)
    "neighbours",  # zone -> the zones it shares a side with (any line), padded with -1
    "unit",  # combat unit x UNIT_COLUMNS
    "leader",  # leader x LEADER_COLUMNS
    "gun",  # gun x GUN_COLUMNS
    "barricade",  # barricade x BARRICADE_COLUMNS
    "card",  # card x side x CARD_COLUMNS (EFFECTS code, number)
    "recovery",  # turn -> Bourbon units recreated at its start (10.1)
    "objective_zones",  # objective -> number of zones it spans
])

# names for traces and tests (not read by the kernels)
Names = namedtuple("Names", ["zone_ids", "zones", "units", "unit_kinds", "unit_commands",
                             "leaders", "cards"])

_OBJ = {name: i for i, name in enumerate(L.OBJECTIVES)}


def largest_set_up_stack(board: Board, names: Names) -> tuple[str, int]:
    """The zone outside the deployment zones where one side deploys most combat units at
    set-up, and how many (the least stacking limit the set-up obeys, 6.1)."""
    best = ("", 0)
    unit = board.unit
    for side in range(len(L.SIDES)):
        zones = unit[(unit[:, L.U_SIDE] == side) & (unit[:, L.U_START] >= 0), L.U_START]
        zones = zones[board.zone[zones, L.Z_DEPLOYMENT] == 0]
        if len(zones):
            counts = np.bincount(zones)
            if counts.max() > best[1]:
                best = (names.zone_ids[int(counts.argmax())], int(counts.max()))
    return best


def load_board(data_dir: DataFolder | Path | str = DATA) -> tuple[Board, Names]:
    """The board of ``data_dir`` (a DataFolder, or a folder holding every file; default:
    the package's data), loaded once per folder."""
    return _load_board(as_folder(data_dir))


@cache
def _load_board(data_dir: DataFolder) -> tuple[Board, Names]:
    zmap = _map(DataFile(data_dir / "map.toml"))
    forces = _forces(DataFile(data_dir / "forces.toml"), zmap)
    deck = _events(DataFile(data_dir / "events.toml"))
    board = Board(
        zone=frozen(np.stack([zmap["colour"], zmap["deployment"], zmap["reinforcement"],
                              zmap["objective"], zmap["behind_breach"]], axis=1)),
        pair=frozen(np.stack([zmap["line"], zmap["blue"], zmap["gun_range"]])),
        neighbours=zmap["neighbours"],
        unit=frozen(np.stack([forces["unit_side"], forces["unit_strength"],
                              forces["unit_start"], forces["unit_arrives"]], axis=1)),
        leader=frozen(np.stack([forces["leader_side"], forces["leader_flag"],
                                forces["leader_start"], forces["leader_arrives"]], axis=1)),
        gun=frozen(np.stack([forces["gun_side"], forces["gun_start"]], axis=1)),
        barricade=frozen(np.stack([forces["barricade_start"], forces["barricade_faces"]],
                                  axis=1).reshape(-1, 2)),
        card=frozen(np.stack([deck["effect"], deck["value"]], axis=2)),
        recovery=forces["recovery"], objective_zones=zmap["objective_zones"])
    names = Names(zone_ids=zmap["ids"], zones=zmap["names"], units=forces["unit_names"],
                  unit_kinds=forces["unit_kinds"], unit_commands=forces["unit_commands"],
                  leaders=forces["leader_names"], cards=deck["names"])
    return board, names


def breach_cards_in(board: Board) -> np.ndarray:
    """The cards (in events.toml's order) whose Two Crowns effect assures the Royal
    Breach (7, 8)."""
    return np.flatnonzero(board.card[:, L.BOURBONS, L.C_EFFECT] == L.EFF_BREACH)


def _map(doc: DataFile) -> dict:
    zones = doc.tables("zone")
    if not 1 <= len(zones) <= L.MAX_ZONES:
        raise doc.error("[[zone]]", f"{len(zones)} zones; between 1 and {L.MAX_ZONES} allowed")
    ids, names = [], []
    n = len(zones)
    colour = np.zeros(n, np.int64)
    deployment = np.zeros(n, np.int64)
    reinforcement = np.zeros(n, np.int64)
    objective = np.full(n, -1, np.int64)
    for i, z in enumerate(zones):
        entry = f"[[zone]] #{i + 1}"
        doc.only(z, {"id", "name", "colour", "objective", "deployment", "reinforcement"}, entry)
        zid = doc.get(z, "id", str, entry)
        if zid in ids:
            raise doc.error(entry, f"zone id {zid!r} is used twice")
        ids.append(zid)
        entry = f"[[zone]] {zid}"
        names.append(doc.get(z, "name", str, entry))
        colour[i] = L.COLOURS.index(doc.choice(z, "colour", L.COLOURS, entry))
        deployment[i] = doc.get(z, "deployment", bool, entry, False)
        reinforcement[i] = doc.get(z, "reinforcement", bool, entry, False)
        if "objective" in z:
            objective[i] = _OBJ[doc.choice(z, "objective", L.OBJECTIVES, entry)]
    index = {zid: i for i, zid in enumerate(ids)}
    line = np.full((n, n), L.NO_SIDE, np.int64)
    blue = np.zeros((n, n), np.int64)
    for k, side in enumerate(doc.tables("side")):
        entry = f"[[side]] #{k + 1}"
        doc.only(side, {"zones", "line", "protects"}, entry)
        pair = doc.items(side, "zones", str, entry)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise doc.error(entry, f"'zones' must name two different zones, got {pair}")
        for zid in pair:
            if zid not in index:
                raise doc.error(entry, f"unknown zone {zid!r}")
        a, b = index[pair[0]], index[pair[1]]
        if line[a, b] != L.NO_SIDE:
            raise doc.error(entry, f"the side {pair} is listed twice")
        kind = doc.choice(side, "line", L.LINES[1:], entry, "none")
        line[a, b] = line[b, a] = L.LINES.index(kind)
        protects = doc.items(side, "protects", str, entry, [])
        if (kind == "blue") != bool(protects):
            raise doc.error(entry, "a blue line names the zones it protects in 'protects' "
                                   "(and only a blue line does)")
        for zid in protects:
            if zid not in pair:
                raise doc.error(entry, f"'protects' names {zid!r}, not one of {pair}")
            d = index[zid]
            blue[d, b if d == a else a] = 1
    _check_map(doc, ids, colour, deployment, reinforcement, objective, line)
    objective_zones = np.array([(objective == o).sum() for o in range(L.N_OBJECTIVES)],
                               np.int64)
    degree = (line != L.NO_SIDE).sum(axis=1)
    neighbours = np.full((n, degree.max()), -1, np.int64)
    for z in range(n):
        near = np.flatnonzero(line[z] != L.NO_SIDE)
        neighbours[z, :len(near)] = near
    outside, _ = wall_zones(deployment, line)
    behind = np.zeros(n, np.int64)
    behind[[z for z in behind_royal_breach(line) if not outside[z]]] = 1
    return {"ids": tuple(ids), "names": tuple(names), "colour": frozen(colour),
            "behind_breach": frozen(behind),
            "neighbours": frozen(neighbours),
            "deployment": frozen(deployment), "reinforcement": frozen(reinforcement),
            "objective": frozen(objective), "line": frozen(line), "blue": frozen(blue),
            "gun_range": frozen(_distances(line != L.NO_SIDE)),
            "objective_zones": frozen(objective_zones)}


def _check_map(doc, ids, colour, deployment, reinforcement, objective, line):
    """The printed facts (2.2.1, 6.2, 7, 10.1, 11.1, 13) a map must honour."""
    where = "the map"
    if deployment.sum() != 3:
        raise doc.error(where, f"{deployment.sum()} deployment zones; rule 6.2 has three "
                               "(Left, Centre and Right Two Crowns)")
    for o, name in enumerate(L.OBJECTIVES):
        zones = np.flatnonzero(objective == o)
        if len(zones) == 0:
            raise doc.error(where, f"no zone is the section-13 objective {name!r}")
        want = L.OBJECTIVE_KIND[o]
        for z in zones:
            c = colour[z]
            ok = (c == L.GREY if want == L.OBJ_BASTION else c == L.BLUE if want == L.OBJ_CONVENT
                  else c in (L.OCHRE, L.GREEN))
            if not ok:
                raise doc.error(f"[[zone]] {ids[z]}", f"objective {name!r} has colour "
                                f"{L.COLOURS[c]}: bastions and the redoubt are grey, "
                                "convents and the monastery blue (2.2.1)")
        if len(zones) > 2:
            raise doc.error(where, f"objective {name!r} spans {len(zones)} zones; at most 2")
    for z in np.flatnonzero(colour == L.BLUE):
        if objective[z] < 0 or L.OBJECTIVE_KIND[objective[z]] != L.OBJ_CONVENT:
            raise doc.error(f"[[zone]] {ids[z]}", "a blue zone must be a convent or the "
                                                  "monastery (2.2.1)")
    if (line == L.LINE_ROYAL).sum() != 2:
        raise doc.error(where, "the map needs exactly one Royal Breach side (rule 7)")
    if not reinforcement.any():
        raise doc.error(where, "no zone is marked R for Catalan reinforcements (10.1)")
    if (deployment & reinforcement).any():
        raise doc.error(where, "a deployment zone cannot be an R zone")
    for z in np.flatnonzero(deployment):
        if colour[z] != L.GREEN:
            raise doc.error(f"[[zone]] {ids[z]}", "deployment zones are outside the wall "
                                                  "(green)")
    _check_wall(doc, ids, colour, deployment, line)
    # every zone reachable from every other through sides that allow movement
    passable = (line != L.NO_SIDE) & (line != L.LINE_RED)
    dist = _distances(passable)
    if (dist < 0).any():
        i, j = np.argwhere(dist < 0)[0]
        raise doc.error(where, f"no path from {ids[i]!r} to {ids[j]!r} without crossing a red "
                               "line")


def wall_zones(deployment, line) -> tuple[np.ndarray, np.ndarray]:
    """The zones outside the wall (reached from a deployment zone without crossing a red
    line or a breach: camps, trenches, moats, outworks) and the zones of the wall itself
    (inside zones on the far side of a red line or breach from an outside zone: bastions
    and curtains, 2.2.1), as boolean arrays over the zones."""
    walled = (line == L.LINE_RED) | (line == L.LINE_BREACH) | (line == L.LINE_ROYAL)
    open_side = (line != L.NO_SIDE) & ~walled
    dist = _distances(open_side)
    outside = (dist[np.flatnonzero(deployment)] >= 0).any(axis=0)
    wall = ~outside & (walled & outside[:, None]).any(axis=0)
    return outside, wall


def behind_royal_breach(line) -> tuple[int, int]:
    """The Royal Breach's side as (the zone outside it, the zone behind it) (7)."""
    a, b = np.argwhere(line == L.LINE_ROYAL)[0]
    return int(a), int(b)


def _check_wall(doc, ids, colour, deployment, line):
    """The wall the reconstruction must draw (2.2.1: red lines are "walls and bastions",
    breaches "the only way to cross walls"; 7: the Royal Breach, "the wider breach", the
    attackers could not cross until assured; 12: barricades on open ground)."""
    where = "the map"
    outside, wall = wall_zones(deployment, line)
    crossable = (line != L.NO_SIDE) & (line != L.LINE_RED)
    for a, b in np.argwhere((line == L.LINE_BREACH) | (line == L.LINE_ROYAL)):
        if outside[a] == outside[b]:
            raise doc.error(where, f"the breach between {ids[a]!r} and {ids[b]!r} does not "
                                   "cross the wall: one side must be outside it (2.2.1)")
    for z in np.flatnonzero(colour == L.GREEN):
        if not outside[z]:
            raise doc.error(f"[[zone]] {ids[z]}", "green zones are outside the wall "
                                                  "(2.2.1), but this one is inside it")
    out, inner = behind_royal_breach(line)
    if outside[inner]:
        out, inner = inner, out
    for z in np.flatnonzero(wall):
        if z != inner and colour[z] != L.GREY:
            raise doc.error(f"[[zone]] {ids[z]}", "a zone of the wall (across a red line or "
                                                  "breach from outside) is a bastion or "
                                                  "curtain: grey (2.2.1)")
    for z in np.flatnonzero(crossable[inner]):
        if outside[z] and line[inner, z] != L.LINE_ROYAL or wall[z] and z != inner:
            raise doc.error(where, f"{ids[inner]!r}, behind the Royal Breach, is entered "
                                   f"from {ids[z]!r} along the wall: the Two Crowns must "
                                   "come through the Royal Breach or through the city (7)")
    for a, b in np.argwhere((line == L.LINE_BREACH) | (line == L.LINE_ROYAL)):
        royal = line[a, b] == L.LINE_ROYAL
        if not outside[b] and not _defensible(colour, line, outside, b, royal):
            raise doc.error(where, f"behind the breach into {ids[b]!r} no side within two "
                                   "zones can hold a barricade facing the way in (12)"
                                   + ("" if royal else ", and no blue line covers it"))


def _defensible(colour, line, outside, entry, barricades_only) -> bool:
    """Within two zones of ``entry`` (inside the wall), a side where a barricade can stand
    facing back towards the breach (12), or, unless ``barricades_only``, a blue line
    on such a side."""
    dist = _distances((line != L.NO_SIDE) & (line != L.LINE_RED) & ~outside[:, None]
                      & ~outside[None, :])[entry]
    for y in np.flatnonzero((dist >= 1) & (dist <= 2)):
        for f in np.flatnonzero((line[y] != L.NO_SIDE) & (dist == dist[y] - 1)):
            if barricade_side_ok(colour, line, y, f):
                return True
            if not barricades_only and line[y, f] == L.LINE_BLUE:
                return True
    return False


def _distances(adj: np.ndarray) -> np.ndarray:
    """Zones apart over the sides in ``adj`` (-1 when unreachable)."""
    n = adj.shape[0]
    dist = np.full((n, n), -1, np.int64)
    for s in range(n):
        dist[s, s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for a in frontier:
                for b in np.flatnonzero(adj[a]):
                    if dist[s, b] < 0:
                        dist[s, b] = dist[s, a] + 1
                        nxt.append(b)
            frontier = nxt
    return dist


#: the kinds of combatant the rulebook names, by side, with the strength it prints (2.1,
#: Example of combat: regulars, grenadiers and mountain fusiliers 5)
PRINTED_KINDS = {"regulars": (L.CATALANS, 5), "mountain_fusiliers": (L.CATALANS, 5),
                 "coronela": (L.CATALANS, None), "armed_citizens": (L.CATALANS, None),
                 "french_grenadiers": (L.BOURBONS, 5), "spanish_grenadiers": (L.BOURBONS, 5)}


def _forces(doc: DataFile, zmap: dict) -> dict:
    index = {zid: i for i, zid in enumerate(zmap["ids"])}
    sides = L.SIDES

    def zone_of(table, key, entry):
        zid = doc.get(table, key, str, entry)
        if zid not in index:
            raise doc.error(entry, f"{key} {zid!r} is not a zone of map.toml")
        return index[zid]

    kinds = {}
    for kind, spec in doc.table("kinds").items():
        entry = f"[kinds] {kind}"
        if (not isinstance(spec, list) or len(spec) != 2 or spec[0] not in sides
                or not isinstance(spec[1], int) or isinstance(spec[1], bool)
                or not 1 <= spec[1] <= 9):
            raise doc.error(entry, "must be [side, strength 1..9]")
        kinds[kind] = (sides.index(spec[0]), spec[1])
    for kind, (side, strength) in PRINTED_KINDS.items():
        if kind not in kinds:
            raise doc.error("[kinds]", f"no kind {kind!r}; the rulebook prints it (2.1, "
                                       "Example of combat)")
        doc.printed(f"[kinds] {kind}", "side", sides[kinds[kind][0]], sides[side], "2.1")
        if strength is not None:
            doc.printed(f"[kinds] {kind}", "strength", kinds[kind][1], strength,
                        "Example of combat")
    u_side, u_str, u_start, u_arr, u_names, u_kinds, u_cmd = [], [], [], [], [], [], []
    for g, group in enumerate(doc.tables("group")):
        entry = f"[[group]] #{g + 1}"
        doc.only(group, {"side", "kind", "command", "zone", "arrives", "names"}, entry)
        side = sides.index(doc.choice(group, "side", sides, entry))
        kind = doc.choice(group, "kind", tuple(kinds), entry)
        if kinds[kind][0] != side:
            raise doc.error(entry, f"kind {kind!r} belongs to the {sides[kinds[kind][0]]}")
        command = doc.get(group, "command", str, entry)
        if ("zone" in group) == ("arrives" in group):
            raise doc.error(entry, "give either 'zone' (set-up) or 'arrives' (a turn)")
        if "zone" in group:
            start, arrives = zone_of(group, "zone", entry), 0
            if side == L.CATALANS and zmap["deployment"][start]:
                raise doc.error(entry, "Catalan units cannot set up in a deployment zone")
        else:
            if side == L.BOURBONS:
                raise doc.error(entry, "Bourbon reinforcements are recreated units (10.1), "
                                       "not new counters")
            start, arrives = L.NOT_ARRIVED, doc.number(group, "arrives", entry, 2,
                                                       L.MAX_TURNS)
        for name in doc.items(group, "names", str, entry):
            if name in u_names:
                raise doc.error(entry, f"counter name {name!r} is given twice; each counter "
                                       "has its own name (traces tell them apart by it)")
            u_side.append(side)
            u_str.append(kinds[kind][1])
            u_start.append(start)
            u_arr.append(arrives)
            u_names.append(name)
            u_kinds.append(kind)
            u_cmd.append(command)
    if len(u_side) > L.MAX_UNITS:
        raise doc.error("[[group]]", f"{len(u_side)} combat units; at most {L.MAX_UNITS}")
    u_side = np.array(u_side, np.int64)
    u_start = np.array(u_start, np.int64)
    for side in (L.BOURBONS, L.CATALANS):
        if not (u_side == side).any():
            raise doc.error("[[group]]", f"the {sides[side]} have no combat unit")
    for z in range(len(index)):
        for side in (L.BOURBONS, L.CATALANS):
            n = ((u_start == z) & (u_side == side)).sum()
            if n and ((u_start == z) & (u_side != side)).any():
                raise doc.error("[[group]]", f"both sides set up in {zmap['ids'][z]!r} (6.1)")
            if n > 5 and not zmap["deployment"][z]:
                raise doc.error("[[group]]", f"{n} {sides[side]} units set up in "
                                             f"{zmap['ids'][z]!r}; the limit is 5 (6.1)")
    if zmap["deployment"][u_start[(u_side == L.BOURBONS) & (u_start >= 0)]].sum() == 0:
        raise doc.error("[[group]]", "the Bourbons set up in their deployment zones")
    l_side, l_flag, l_start, l_arr, l_names = [], [], [], [], []
    for k, leader in enumerate(doc.tables("leader")):
        entry = f"[[leader]] #{k + 1}"
        doc.only(leader, {"name", "side", "flag", "zone", "arrives"}, entry)
        name = doc.get(leader, "name", str, entry)
        if name in l_names or name in u_names:
            raise doc.error(entry, f"name {name!r} is given twice; each counter has its own "
                                   "name (traces tell them apart by it)")
        l_names.append(name)
        l_side.append(sides.index(doc.choice(leader, "side", sides, entry)))
        l_flag.append(doc.get(leader, "flag", bool, entry, False))
        if "zone" in leader:
            l_start.append(zone_of(leader, "zone", entry))
            l_arr.append(0)
        else:
            l_start.append(L.NOT_ARRIVED)
            l_arr.append(doc.number(leader, "arrives", entry, 2, L.MAX_TURNS))
    if not 1 <= len(l_names) <= L.MAX_LEADERS:
        raise doc.error("[[leader]]", f"between 1 and {L.MAX_LEADERS} leaders")
    if sum(1 for s, f in zip(l_side, l_flag, strict=True) if f and s == L.CATALANS) != 1 or \
            sum(l_flag) != 1:
        raise doc.error("[[leader]]", "exactly one Santa Eulalia flag, Catalan (13)")
    for side in (L.BOURBONS, L.CATALANS):
        commanders = sum(1 for s_, f in zip(l_side, l_flag, strict=True) if s_ == side and not f)
        doc.printed("[[leader]]", f"{sides[side]} commanders", commanders, "one or more",
                    "2.1: commanders for both sides", holds=commanders > 0)
    g_side, g_start = [], []
    for k, gun in enumerate(doc.tables("gun")):
        entry = f"[[gun]] #{k + 1}"
        doc.only(gun, {"side", "zone", "count"}, entry)
        side = sides.index(doc.choice(gun, "side", sides, entry))
        zone = zone_of(gun, "zone", entry)
        for _ in range(doc.number(gun, "count", entry, 1, L.MAX_GUNS)):
            g_side.append(side)
            g_start.append(zone)
    if len(g_side) > L.MAX_GUNS:
        raise doc.error("[[gun]]", f"{len(g_side)} guns; at most {L.MAX_GUNS}")
    for side in (L.BOURBONS, L.CATALANS):
        guns = g_side.count(side)
        doc.printed("[[gun]]", f"{sides[side]} guns", guns, "one or more",
                    "9: artillery for both sides", holds=guns > 0)
    b_start, b_faces = [], []
    colour, line = zmap["colour"], zmap["line"]
    for k, bar in enumerate(doc.tables("barricade")):
        entry = f"[[barricade]] #{k + 1}"
        doc.only(bar, {"zone", "faces"}, entry)
        z, f = zone_of(bar, "zone", entry), zone_of(bar, "faces", entry)
        if not barricade_side_ok(colour, line, z, f):
            raise doc.error(entry, "a barricade stands in an ochre or green zone, facing an "
                                   "adjacent ochre or green zone across a side without a blue "
                                   "or red line (12)")
        if z in b_start:
            raise doc.error(entry, "only one barricade a zone (12)")
        b_start.append(z)
        b_faces.append(f)
    if len(b_start) > L.MAX_BARRICADES:
        raise doc.error("[[barricade]]", f"at most {L.MAX_BARRICADES} barricades")
    recovery = np.zeros(L.MAX_TURNS + 2, np.int64)
    for k, row in enumerate(doc.tables("bourbon_recovery")):
        entry = f"[[bourbon_recovery]] #{k + 1}"
        doc.only(row, {"turn", "units"}, entry)
        turn = doc.number(row, "turn", entry, 1, L.MAX_TURNS)
        recovery[turn] = doc.number(row, "units", entry, 0, L.MAX_UNITS)
    return {
        "unit_side": frozen(u_side), "unit_strength": frozen(np.array(u_str, np.int64)),
        "unit_start": frozen(u_start), "unit_arrives": frozen(np.array(u_arr, np.int64)),
        "unit_names": tuple(u_names), "unit_kinds": tuple(u_kinds),
        "unit_commands": tuple(u_cmd),
        "leader_side": frozen(np.array(l_side, np.int64)),
        "leader_flag": frozen(np.array(l_flag, np.int64)),
        "leader_start": frozen(np.array(l_start, np.int64)),
        "leader_arrives": frozen(np.array(l_arr, np.int64)), "leader_names": tuple(l_names),
        "gun_side": frozen(np.array(g_side, np.int64)),
        "gun_start": frozen(np.array(g_start, np.int64)),
        "barricade_start": frozen(np.array(b_start, np.int64)),
        "barricade_faces": frozen(np.array(b_faces, np.int64)),
        "recovery": frozen(recovery)}


def barricade_side_ok(colour, line, zone, faces) -> bool:
    """Rule 12: ochre/green zone, facing an adjacent ochre/green zone, no blue or red line."""
    open_ground = (L.OCHRE, L.GREEN)
    return bool(colour[zone] in open_ground and colour[faces] in open_ground
                and line[zone, faces] == L.LINE_NONE)


def _events(doc: DataFile) -> dict:
    cards = doc.tables("card")
    if not 1 <= len(cards) <= L.MAX_CARDS:
        raise doc.error("[[card]]", f"between 1 and {L.MAX_CARDS} cards")
    effect = np.zeros((len(cards), 2), np.int64)
    value = np.zeros((len(cards), 2), np.int64)
    names = []
    for k, card in enumerate(cards):
        entry = f"[[card]] #{k + 1}"
        doc.only(card, {"name", "bourbons", "catalans"}, entry)
        names.append(doc.get(card, "name", str, entry))
        for side, side_name in enumerate(L.SIDES):
            spec = doc.get(card, side_name, list, entry)
            if (len(spec) != 2 or spec[0] not in L.EFFECTS or not isinstance(spec[1], int)
                    or isinstance(spec[1], bool)):
                raise doc.error(entry, f"{side_name} must be [effect, number]; effects: "
                                       f"{', '.join(L.EFFECTS)}")
            if spec[0] == "breach" and side_name != "bourbons":
                raise doc.error(entry, "only the Bourbons can assure the Royal Breach")
            low, high = L.EVENT_VALUES
            if not low <= spec[1] <= high:
                raise doc.error(entry, f"{side_name}: number {spec[1]} out of range "
                                       f"{low}..{high}")
            effect[k, side] = L.EFFECTS.index(spec[0])
            value[k, side] = spec[1]
    return {"effect": frozen(effect), "value": frozen(value), "names": tuple(names)}
