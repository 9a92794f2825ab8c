"""Victus's reconstructed components: every board, marker, dice, chance and tile fact the
rulebook gives (its worked examples, "Components", "Setup", the Board Description and the
Glossary) checked against the loaded data, and the loader's errors on broken files.

The rulebook often says only that *some* space has a property ("some outside space -Y-> 52");
those facts are checked as "there exists", so the tests keep holding when a designer
replaces the reconstruction with the printed components.
"""

import re
import shutil
from collections import Counter

import numpy as np
import pytest
from numba import njit

from simkit.errors import ComponentError
from simkit.games.victus import layout as L
from simkit.games.victus.components import DATA, Components, load_components

NUMBERED = [*range(11, 16), *range(21, 27), *range(31, 37), *range(41, 49), *range(51, 59)]
BASTIONS = {"montjuic", "41", "44", "46", "48", "51", "52", "53", "55", "56"}
Y, R, B = "Y", "R", "B"


@pytest.fixture(scope="module")
def c() -> Components:
    return load_components()


# -- helpers ------------------------------------------------------------------------------

def ix(c, sid) -> int:
    return c.space(str(sid).upper() if re.fullmatch(r"[a-f][0-3]", str(sid)) else sid)


def ids(c, indices) -> set[str]:
    return {c.space_ids[int(i)] for i in indices}


def neighbours(c, sid, *, move=False) -> set[str]:
    m = c.move_adjacent if move else c.adjacent
    return ids(c, np.nonzero(m[ix(c, sid)])[0])


def adjacent(c, a, b) -> bool:
    return bool(c.adjacent[ix(c, a), ix(c, b)])


def arrow(c, sid, colour) -> str | None:
    t = c.arrows[ix(c, sid), {Y: L.YELLOW, R: L.RED}[colour]]
    return c.space_ids[t] if t >= 0 else None


def info(c, sid, col) -> int:
    return int(c.space_info[ix(c, sid), col])


def barcelona(c, sid) -> bool:
    return bool(info(c, sid, L.S_BARCELONA))


def kind(c, sid) -> str:
    return L.KIND_NAMES[info(c, sid, L.S_KIND)]


def outside_spaces(c) -> list[str]:
    return [s for s in c.space_ids
            if not barcelona(c, s) and kind(c, s) not in ("box", "expedition")]


def walks(c, start, colours) -> list[list[str]]:
    """Every walk from ``start`` following the colour sequence (B = any blue icon)."""
    out = [[start]]
    for col in colours:
        nxt = []
        for w in out:
            i = ix(c, w[-1])
            targets = [t for t in c.blue[i] if t >= 0] if col == B else [
                c.arrows[i, {Y: L.YELLOW, R: L.RED}[col]]]
            nxt += [w + [c.space_ids[t]] for t in targets if t >= 0]
        out = nxt
    return out


def fire_walks(c, start, colours, bastion) -> list[list[str]]:
    """Walks ending at ``bastion`` whose intermediate spaces are all outside Barcelona."""
    return [w for w in walks(c, start, colours)
            if w[-1] == bastion and not any(barcelona(c, s) for s in w[:-1])]


# -- B3, B15: the spaces and their counts --------------------------------------------------

def test_barcelona_counts_reconcile(c):
    barca = [s for s in c.space_ids if barcelona(c, s)]
    bastions = {s for s in barca if kind(c, s) == "bastion"}
    assert len(barca) == 37
    assert bastions == BASTIONS  # the 10 bastions the text names (B3)
    assert len(barca) - len(bastions) == 27
    numbered = sorted(info(c, s, L.S_NUMBER) for s in barca if info(c, s, L.S_NUMBER))
    assert numbered == NUMBERED  # 33 = the rubble variant's maximum
    assert {s for s in barca if not info(c, s, L.S_NUMBER)} == {
        "montjuic", "port", "beach", "redoubt"}
    assert "redoubt" not in bastions  # the Saint Eulalia Redoubt is not a bastion
    # 4X = 41..48 (Glossary), and the "Spaces 1X-5X" groups are the first digit
    assert [n for n in numbered if n // 10 == 4] == list(range(41, 49))
    for n in NUMBERED:
        assert c.number_to_space[n] == c.space(n)
        assert c.space_ids[c.number_to_space[n]] == str(n)


@pytest.mark.parametrize("sid, name", [
    ("14", "Saint Cross"), ("22", "Hort d'en Favà"), ("32", "Generalitat"),
    ("34", "Saint Mary of the Sea"), ("36", "Gunpowder Store"),
    ("41", "Bastion of Santa Madrona"), ("44", "Bastion of Sant Antoni"),
    ("46", "Bastion of Tallers"), ("48", "Bastion of the Àngel"),
    ("51", "Bastion of Jonqueres"), ("52", "Bastion of Sant Pere"),
    ("55", "Bastion of Santa Clara"), ("56", "Bastion of Llevant"),
    ("montjuic", "Montjuïc"), ("port", "Port"), ("beach", "Beach"),
    ("redoubt", "Saint Eulalia Redoubt"), ("mas_guinardo", "Mas Guinardó"),
    ("expedition", "Military Deputy's Expedition"),
])
def test_named_spaces(c, sid, name):
    assert c.space_names[ix(c, sid)] == name


def test_labels_in_the_rulebooks_words(c):
    assert c.label(c.space(52)) == "Bastion of Sant Pere-52"
    assert c.label(c.space(14)) == "Saint Cross-14"
    assert c.label(c.space(13)) == "13"
    assert c.label(c.beach) == "Beach"


def test_kinds_the_examples_state(c):
    assert kind(c, 45) == "wall" and kind(c, 47) == "wall"  # Example 10, B15
    assert kind(c, 53) == "bastion"  # Example 18: a bastion defense on 53
    for sid in (44, 46, 48, 52, 55):  # Examples 8, 10, 14, 16, 18, 24, 29
        assert kind(c, sid) == "bastion"
    assert kind(c, 21) != "bastion"  # Example 14: "Since it is not in a bastion space"
    for sid in (12, 21, 25, 26, 35, 45, 11, 25, "montjuic", "beach"):  # Examples 1, 2, 4
        assert barcelona(c, sid)
    assert kind(c, "montjuic") == "bastion"  # "the Montjuïc bastion"
    for sid in ("mas_guinardo", "expedition", "A2", "E1"):  # Examples 17, 19, 22
        assert not barcelona(c, sid)
    assert kind(c, "expedition") == "expedition"
    for box in ("reserve", "wounded", "captured"):
        assert kind(c, box) == "box"
        assert not c.adjacent[ix(c, box)].any() and not c.move_adjacent[ix(c, box)].any()
    assert not c.adjacent[c.expedition].any()


def test_setup_uses_every_piece(c):
    """B3: the setup arithmetic only works with 10 bastions and 27 other spaces."""
    n_bastions = sum(kind(c, s) == "bastion" for s in c.space_ids)
    n_other = sum(barcelona(c, s) for s in c.space_ids) - n_bastions
    assert n_bastions + 2 == c.counts["cannon"]  # first game
    assert n_bastions + 3 == c.counts["infantry"]
    assert n_other + 5 == c.counts["coronela"]
    assert kind(c, 41) == "bastion" and kind(c, 56) == "bastion"  # full game: no cannon there
    assert (n_bastions - 2) + 2 + 2 == c.counts["cannon"]
    assert n_bastions + 2 + 1 == c.counts["infantry"]
    assert n_other + 3 + 2 == c.counts["coronela"]


# -- adjacency, the Rambla (Examples 10, 11, 14, 16, 29; B8, B15) -------------------------

def test_example_11_space_15(c):
    assert neighbours(c, 15) == {"14", "13", "42", "41", "31", "25"}
    assert neighbours(c, 15, move=True) - neighbours(c, 15) == {"58", "12", "47", "48", "21"}
    assert c.move_adjacent[c.space(15), c.space(48)]  # "to the Bastion of the Àngel-48"
    # one troop, two moves for 1 AP: 15 -> 21 (Rambla) -> 22
    assert c.move_adjacent[c.space(15), c.space(21)] and adjacent(c, 21, 22)


def test_rambla(c):
    rambla = {s for s in c.space_ids if info(c, s, L.S_RAMBLA)}
    assert rambla == {"12", "14", "15", "21", "47", "48", "58"}  # 14: inferred from Example 14
    for a in rambla:  # mutually adjacent for movement, not for the shared-side rules
        assert neighbours(c, a, move=True) >= rambla - {a}
    assert not adjacent(c, 15, 58) and not adjacent(c, 15, 48)


@pytest.mark.parametrize("a, b", [
    ("21", "22"), ("12", "45"), ("12", "46"), ("12", "47"), ("45", "44"), ("22", "51"),
    ("A1", "B1"), ("e3", "d2"), ("d2", "C2"), ("C2", "C1"), ("C1", "D1"), ("D1", "E1"),
    ("E1", "F1"),
])
def test_shared_sides(c, a, b):
    assert adjacent(c, a, b) and adjacent(c, b, a)


def test_rambla_moves_in_the_examples(c):
    assert c.move_adjacent[c.space(58), c.space(47)]  # Example 29: Coronela 58 -> 47
    assert c.move_adjacent[c.space(14), c.space(48)]  # Example 14: cannon "24"(=14) -> 48
    assert c.move_adjacent[c.space(22), c.space(51)]  # Example 14, AP 6


def test_example_16_rubble_removal_neighbours(c):
    assert {"45", "46", "47"} <= neighbours(c, 12)


def test_adjacency_is_symmetric_and_csr_matches(c):
    a = c.adjacent
    assert (a == a.T).all() and not a.diagonal().any()
    assert (c.move_adjacent == c.move_adjacent.T).all()
    for i in range(c.n_spaces):
        row = c.adj_list[c.adj_start[i]:c.adj_start[i + 1]]
        assert set(row) == set(np.nonzero(a[i])[0])


# -- arrows (Examples 5, 7, 8, 14, 15; B7, B15) ----------------------------------------------

@pytest.mark.parametrize("src, colour, dst", [
    ("52", Y, "24"), ("24", R, "33"), ("33", R, "26"), ("26", R, "34"),  # Example 5
    ("51", Y, "22"),  # Example 7
    ("44", R, "11"), ("11", Y, "13"),  # Example 8
])
def test_known_arrows(c, src, colour, dst):
    assert arrow(c, src, colour) == dst


@pytest.mark.parametrize("target", ["51", "52", "44"])
def test_some_outside_space_sends_yellow_to(c, target):
    """Examples 5, 7 (-> 52), 7 (-> 51) and 8 (-> 44)."""
    assert any(arrow(c, s, Y) == target for s in outside_spaces(c))


def test_example_5_walk(c):
    """YELLOW, RED with ruined tiles on 52, 33 and 26: the tile stops at 34."""
    start = next(s for s in outside_spaces(c) if arrow(c, s, Y) == "52")
    ruined = {"52", "33", "26"}
    pos, trail = start, []
    for colour in (Y, R):
        pos = arrow(c, pos, colour)
        trail.append(pos)
        while pos in ruined:
            pos = arrow(c, pos, colour)
            trail.append(pos)
    assert trail == ["52", "24", "33", "26", "34"]


def test_example_7_and_8_walks(c):
    assert any(w[1:] == ["51", "22"] for s in outside_spaces(c) for w in walks(c, s, [Y, Y]))
    assert any(w[1:] == ["44", "11", "13"]
               for s in outside_spaces(c) for w in walks(c, s, [Y, R, Y]))


def test_example_14_fire_from_the_angel(c):
    b = "48"
    # the value-6 tile: 4 spaces away, YELLOW-RED-RED-YELLOW, outside Barcelona only
    far = [s for s in outside_spaces(c) if fire_walks(c, s, [Y, R, R, Y], b)]
    assert far
    assert any(c.fire_distance[c.space(b), ix(c, s)] == 4
               and c.side_distance[ix(c, s), c.space(b)] == 4 for s in far)
    # the value-3 tile: 3 spaces away, YELLOW-YELLOW-YELLOW through 47, so out of reach
    near = [s for s in outside_spaces(c)
            if any(w[-1] == b and "47" in w[1:-1] for w in walks(c, s, [Y, Y, Y]))]
    assert any(c.side_distance[ix(c, s), c.space(b)] == 3
               and not 0 <= c.fire_distance[c.space(b), ix(c, s)] <= 4 for s in near)


def test_example_15_fire_from_santa_madrona(c):
    b = "41"
    both = [s for s in outside_spaces(c)
            if fire_walks(c, s, [R, Y, Y, B], b) and fire_walks(c, s, [R, B, Y, B], b)]
    assert any(c.fire_distance[c.space(b), ix(c, s)] == 4
               and c.side_distance[ix(c, s), c.space(b)] == 4 for s in both)


def test_blue_cannon_icons_only_for_montjuic_and_41(c):
    assert ids(c, c.blue_fire_from) == {"montjuic", "41"}
    assert (c.blue >= 0).any()
    for bastion in BASTIONS - {"montjuic", "41"}:  # other bastions trace arrows only
        t = c.space(bastion)
        for s in outside_spaces(c):
            d = c.fire_distance[t, ix(c, s)]
            if d >= 0:
                assert any(fire_walks(c, s, seq, bastion) for seq in _sequences(int(d)))


def _sequences(n):
    out = [[]]
    for _ in range(n):
        out = [q + [col] for q in out for col in (Y, R)]
    return out


def test_blue_icons_add_links_the_arrows_lack(c):
    for i in range(c.n_spaces):
        for t in c.blue[i]:
            if t >= 0:
                assert t not in c.arrows[i], c.space_ids[i]


def test_fire_distance_sources_are_outside(c):
    for t in range(c.n_spaces):
        srcs = np.nonzero(c.fire_distance[t] > 0)[0]
        if len(srcs):
            assert kind(c, c.space_ids[t]) == "bastion"
            assert not any(barcelona(c, c.space_ids[s]) for s in srcs)


def test_arrows_follow_shared_sides_and_never_loop(c):
    n = c.n_spaces
    for i in range(n):
        for t in [*c.arrows[i], *c.blue[i]]:
            if t >= 0:
                assert c.adjacent[i, t]
    # every space that holds Bourbon tiles has both arrows or is an end (the Beach)
    assert ids(c, c.advance_ends) == {"beach"}
    for s in outside_spaces(c) + [s for s in c.space_ids if barcelona(c, s)]:
        assert (arrow(c, s, Y) is None) == (s == "beach")
        assert (arrow(c, s, R) is None) == (s == "beach")
    # following any colours from any space reaches the Beach in fewer than n steps
    for s in outside_spaces(c):
        frontier = {ix(c, s)}
        for _ in range(n):
            frontier = {int(t) for i in frontier for t in c.arrows[i] if t >= 0}
            if not frontier:
                break
        assert not frontier


def test_arrows_never_enter_camps(c):
    camps = set(c.camps.tolist())
    assert not camps & set(c.arrows[c.arrows >= 0].tolist())


# -- camps and the trench (Examples 9, 12, 17, 19, 22, 25; B7, B10, B15, Glossary) ---------

def test_fifteen_camps(c):
    assert len(c.camps) == 15
    camps = set(c.camps.tolist())
    for i in c.camps:
        sid = c.space_ids[i]
        assert kind(c, sid) == "camp" and not barcelona(c, sid)
        assert info(c, sid, L.S_BATTERY_ICON) == 1  # "All have a Bourbon battery icon"
        y, r = c.arrows[i]
        assert y >= 0 and r >= 0 and y != r  # two arrows out
        assert set(np.nonzero(c.adjacent[i])[0]) == {y, r}  # entered through those spaces
        assert not camps & set(np.nonzero(c.move_adjacent[i])[0])  # no camp-to-camp move
    assert c.space_ids[c.captured_next_to] == "mas_guinardo"  # Glossary, Example 17
    assert "mas_guinardo" in ids(c, c.camps)


def test_trench_grid(c):
    assert c.trench.shape == (6, 4)
    for col, letter in enumerate("ABCDEF"):
        assert c.space_ids[c.trench[col, 0]] == f"{letter}0"
        assert kind(c, f"{letter}0") == "camp"  # six of the 15 camps
        for p in (1, 2, 3):  # Parallels: 1st = A1-F1, 2nd = A2-F2, 3rd = A3-F3
            sid = c.space_ids[c.trench[col, p]]
            assert sid == f"{letter}{p}" and kind(c, sid) == "trench"
            assert info(c, sid, L.S_TRENCH) == col and info(c, sid, L.S_PARALLEL) == p
    # position 0 -> 1 -> 2 -> 3 follows shared sides (Examples 19, 22, 25)
    for col in range(6):
        for p in range(3):
            assert c.adjacent[c.trench[col, p], c.trench[col, p + 1]]


def test_example_12_camps_and_trench(c):
    # "in front of camps C and D": a space both camps point to; camp to camp takes 3 moves
    fronts = set(c.arrows[ix(c, "C0")]) & set(c.arrows[ix(c, "D0")])
    assert fronts
    assert not c.move_adjacent[ix(c, "C0"), ix(c, "D0")]
    # "in front of trench tiles A and B" at the 1st Parallel: one space next to both; 2 moves
    assert adjacent(c, "A1", "B1")
    both = set(np.nonzero(c.adjacent[ix(c, "A1")] & c.adjacent[ix(c, "B1")])[0])
    assert both and not any(barcelona(c, c.space_ids[s]) for s in both)


def test_example_19_trench_a2_and_b(c):
    assert adjacent(c, "A2", "A1")  # the infantry may move back to A1
    assert any(adjacent(c, "A2", f"B{p}") for p in (1, 2, 3))  # 1 AP to trench tile B


def test_trench_is_north_east_against_the_1714_front(c):
    """Plausibility: the 3rd Parallel faces Portal Nou (53), Santa Clara (55), Llevant (56);
    Montjuïc and the Raval wall are far from it."""
    third = {c.space_ids[c.trench[col, 3]] for col in range(6)}
    walls = set().union(*(neighbours(c, s) for s in third))
    assert {"53", "55", "56"} <= walls
    assert not walls & {"montjuic", "41", "42", "43", "44", "45", "46", "47", "48"}


def _arrows_to_beach(c, start) -> int:
    frontier, steps = {start}, 0
    while c.beach not in frontier:
        frontier = {int(t) for i in frontier for t in c.arrows[i] if t >= 0}
        steps += 1
    return steps


def test_the_trench_is_the_decisive_front(c):
    """Plausibility (1714): the trench camps are the Bourbons' shortest way to the Beach."""
    trench_camps = set(c.trench[:, 0].tolist())
    near = min(_arrows_to_beach(c, int(i)) for i in trench_camps)
    far = min(_arrows_to_beach(c, int(i)) for i in c.camps if int(i) not in trench_camps)
    assert near < far


# -- hospitals, marker spaces, the Expedition (Examples 3, 13; B5, B10) ----------------------

def test_hospitals_and_marker_spaces(c):
    assert c.space_ids[c.hospital[L.HOSPITAL_INFANTRY]] == "14"
    assert c.space_ids[c.hospital[L.HOSPITAL_CORONELA]] == "34"
    expect = {L.MARKER_GENERALITAT: {"32"}, L.MARKER_PORT: {"port"},
              L.MARKER_GUNPOWDER_STORE: {"36"}, L.MARKER_HOSPITAL: {"14", "34"}}
    for m, spaces in expect.items():
        assert ids(c, c.marker_spaces[m][c.marker_spaces[m] >= 0]) == spaces
        for s in spaces:
            assert info(c, s, L.S_MARKER) == m


def test_expedition(c):
    assert not c.space_info[c.expedition, L.S_BARCELONA]
    assert len(c.expedition_links) > 0
    assert all(kind(c, c.space_ids[s]) not in ("box", "expedition") for s in c.expedition_links)


# -- markers (Examples 1, 3, 14, 18, 21, 26, 27, 29; B3, B5) ---------------------------------

def marker(c, m):
    return list(c.marker_values[m, :c.marker_len[m]])


def start(c, which, m):
    return int(c.marker_values[m, c.marker_start[which, m]])


def test_marker_dials(c):
    assert marker(c, L.MARKER_PORT) == [-2, -1, 0, 1]
    assert marker(c, L.MARKER_HOSPITAL) == [0, 1, 2, 3]
    assert max(marker(c, L.MARKER_GENERALITAT)) >= 6  # Examples 14, 24: 6 AP
    assert {3, 4} <= set(marker(c, L.MARKER_GUNPOWDER_STORE))  # Examples 14, 18
    for m in range(L.N_MARKERS):  # first game: the highest value
        assert start(c, L.START_FIRST_GAME, m) == max(marker(c, m))
    assert start(c, L.START_FULL, L.MARKER_GENERALITAT) == 5  # Example 29, red values
    assert start(c, L.START_FULL, L.MARKER_PORT) == 0
    assert start(c, L.START_FULL, L.MARKER_HOSPITAL) == 2
    # Example 1: the minimum values the card sets; Example 29: 6 - 1 = 5 and 2 - 2 = 0
    assert min(marker(c, L.MARKER_PORT)) == -2 and min(marker(c, L.MARKER_HOSPITAL)) == 0


def test_sense_fury(c):
    g = c.sense_fury_group
    assert len(g) == 9 and c.sense_fury_start == 4  # "R", the centre of 9
    assert Counter(g.tolist()) == {0: 3, 1: 3, 2: 3}
    assert L.SENSE_FURY_GROUPS[g[4]] == "centre"
    # Example 27 (1-based spaces): 5->7 scores, 7->3 scores, 3->1 does not;
    # Example 29: 5->8 scores, 8->9 does not
    for a, b, scores in ((5, 7, True), (7, 3, True), (3, 1, False), (5, 8, True),
                         (8, 9, False)):
        assert (g[a - 1] != g[b - 1]) == scores
    col = c.sense_fury_colour  # Moderating: 7 -> 3 is ochre to ochre, so no score
    assert col[6] == col[2] and col[4] != col[6]
    assert [L.SENSE_FURY_COLOURS[x] for x in col[3:6]] == ["red"] * 3


def test_bourbon_marker_known_positions(c):
    v, icons = c.track_value, c.track_icons
    assert list(v[:5]) == [0, 1, 2, 2, 2]
    assert icons[0] == 0 and icons[1] == 0
    assert icons[2] == L.ICON_BATTERIES  # "the first space 2" (Example 3)
    assert icons[3] == L.ICON_HEALING  # Examples 3, 29
    assert icons[4] == L.ICON_MINE  # Example 29: value 2 and a mine icon
    assert list(c.track_start) == [0, 1, 0]  # reinforcements, batteries, mine
    assert c.batteries_minimum == 1 and v[c.batteries_minimum] == 1  # never 0
    assert (np.diff(v.astype(int)) >= 0).all()
    assert 3 in v  # Example 4: batteries on a value-3 space
    assert v.max() >= 5  # Duke of Pópoli: "+1 to Batteries (max. 5)"


def test_example_3_21_29_disc_moves(c):
    v, icons = c.track_value, c.track_icons
    # Example 3: disc on 1; +1 -> batteries icon; +1 -> healing icon
    assert icons[1 + 1] & L.ICON_BATTERIES and icons[1 + 2] & L.ICON_HEALING
    # Example 21: disc 0, +2 -> batteries icon; batteries on the last value-2 space, +1 -> 3
    assert icons[2] & L.ICON_BATTERIES
    last2 = int(np.nonzero(v == 2)[0].max())
    assert v[last2 + 1] == 3
    # Example 29: disc 0, +3 -> healing; +1 -> mine explodes with reinforcements value 2
    assert icons[3] & L.ICON_HEALING and icons[4] & L.ICON_MINE and v[4] == 2
    # advance icons carry their number of symbols
    assert ((c.track_advance > 0) == ((icons & L.ICON_ADVANCE) > 0)).all()


# -- dice (Examples 3, 4, 9, 21, 22, 29; B1, B6) ---------------------------------------------

def faces(c, colour) -> set[tuple[str, int]]:
    d = c.die_colours.index(colour)
    return {(L.ACTION_NAMES[a], int(n)) for a, n in zip(c.die_action[d], c.die_amount[d],
                                                        strict=True)}


def test_dice(c):
    assert len(c.die_colours) == 6 and len(set(c.die_colours)) == 6
    assert {"white", "gray", "blue", "yellow", "red"} <= set(c.die_colours)
    assert c.die_action.shape == (6, 6)
    assert ((c.die_amount >= 1) & (c.die_amount <= 3)).all()


def stage(c, s) -> list[str]:
    return [c.die_colours[d] for d in c.stage_dice[s, :c.stage_n_dice[s]]]


def test_bourbon_action_table(c):
    assert stage(c, L.STAGE_I) == ["white", "gray"]
    assert stage(c, L.STAGE_II) == ["blue", "yellow", "red"]  # "blue ... yellow ... red"
    for s in (L.STAGE_III, L.STAGE_IV):
        assert 1 <= c.stage_n_dice[s] <= 6
    assert (c.stage_dice[c.stage_dice >= 0] < 6).all()


@pytest.mark.parametrize("colour, face", [
    ("white", ("Reinforcements", 1)), ("white", ("Reinforcements", 2)),
    ("white", ("Reinforcements", 3)), ("white", ("Bombardment", 2)),
    ("gray", ("Reinforcements", 1)), ("gray", ("Bombardment", 1)), ("gray", ("Advance", 1)),
    ("blue", ("Trench", 1)), ("yellow", ("Bombardment", 2)), ("red", ("Trench", 3)),
])
def test_faces_seen_in_the_examples(c, colour, face):
    assert face in faces(c, colour)


def test_intensities_seen(c):
    seen = set().union(*(faces(c, col) for col in c.die_colours))
    for face in [("Reinforcements", n) for n in (1, 2, 3)] + [
            ("Bombardment", 1), ("Bombardment", 2)] + [("Advance", n) for n in (1, 2, 3)] + [
            ("Trench", 1), ("Trench", 3)]:
        assert face in seen


# -- chance cards (Examples 4-8, 29; B1, B7, B13) ---------------------------------------------

def rows(c, r) -> list[list[int]]:
    return [[int(c.space_info[s, L.S_NUMBER]) for s in row] for row in c.chance_bombard[:, r]]


def test_chance_cards(c):
    assert list(c.chance_number) == list(range(1, 15))
    assert c.chance_bombard.shape[:2] == (14, 3)
    assert set(c.chance_advance.ravel().tolist()) <= {L.YELLOW, L.RED}
    # every box may be read: the row is as long as the highest batteries or mine value
    assert c.chance_bombard.shape[2] >= c.track_value.max()
    assert c.chance_advance.shape[1] >= 3  # Advance 3 (Examples 5, 8)
    assert list(c.stage_row[:3]) == [0, 1, 2] and 0 <= c.stage_row[3] <= 2


@pytest.mark.parametrize("prefix", [[11, 45, 46], [21, 48, 25], [51, 22]])
def test_stage_i_rows_seen(c, prefix):
    assert any(row[:len(prefix)] == prefix for row in rows(c, 0))


def test_stage_i_rows_are_different_cards(c):
    heads = [[11, 45, 46], [21, 48, 25], [51, 22]]
    cards = {next(k for k, row in enumerate(rows(c, 0)) if row[:len(h)] == h) for h in heads}
    assert len(cards) == 3


@pytest.mark.parametrize("prefix", [[Y, R, R], [Y, Y], [Y, R, Y], [R]])
def test_advance_rows_seen(c, prefix):
    code = [{Y: L.YELLOW, R: L.RED}[p] for p in prefix]
    assert any(list(row[:len(code)]) == code for row in c.chance_advance)


def test_bombardment_targets_are_the_33_numbered_spaces(c):
    everything = set()
    for r in range(3):
        for row in rows(c, r):
            assert len(set(row)) == len(row)
            assert set(row) <= set(NUMBERED)
            everything |= set(row)
    assert everything == set(NUMBERED)  # rubble variant: 33 targetable spaces


# -- tiles and counts (B1) --------------------------------------------------------------------

def test_tile_mixes(c):
    assert list(c.troop_values) == [1, 2, 3, 4, 5, 6, 8, 9, 10, 12]
    assert c.troop_counts.sum() == 160 and (c.troop_counts >= 0).all()
    assert list(c.vp_values) == [1, 3, 5, 10]
    assert c.vp_counts.sum() == 48
    assert (c.vp_values * c.vp_counts).sum() >= 80  # enough for Mode 2's 80 VP


def test_given_counts(c):
    expect = {"cannon": 12, "infantry": 13, "coronela": 32, "rubble_ruined": 28,
              "bastion_defense": 10, "barricade": 10, "organ_gun": 5, "bourbon_battery": 10,
              "razed_camp": 6, "trench_camp": 6, "resignation": 3, "starting_player": 1,
              "mine": 1, "reinforcements": 1, "batteries": 1, "event_cards": 150,
              "chance_cards": 14, "bourbon_dice": 6, "marker_pins": 5}
    assert dict(c.counts) == expect
    assert c.event_stages.tolist() == [[1, 50], [51, 100], [101, 150]]
    assert c.counts["trench_camp"] == c.trench.shape[0]
    assert c.counts["chance_cards"] == len(c.chance_number)
    assert c.counts["bourbon_dice"] == len(c.die_colours)
    # B16: 6 razed tiles for 15 camps; the rubble variant's maximum 33 fits 28 tiles + markers
    assert c.counts["razed_camp"] < len(c.camps)


# -- the arrays as the engine sees them ----------------------------------------------------------

def test_arrays_are_read_only_and_cached(c):
    assert load_components() is c
    assert load_components(str(DATA)) is c
    arrays = [v for v in vars(c).values() if isinstance(v, np.ndarray)]
    assert len(arrays) > 30
    for a in arrays:
        assert not a.flags.writeable
        assert a.dtype.kind in "iub"
    with pytest.raises(ValueError):
        c.arrows[0, 0] = 1
    with pytest.raises(TypeError):
        c.index["x"] = 1


@njit(cache=False)
def _advance(arrows, start, colours):
    pos = start
    for k in range(colours.shape[0]):
        nxt = arrows[pos, colours[k]]
        if nxt >= 0:
            pos = nxt
    return pos


def test_arrays_work_in_njit(c):
    colours = np.array([L.YELLOW, L.RED, L.RED], np.int8)
    assert _advance(c.arrows, c.space(52), colours) == c.space(26)


def test_data_files_say_what_is_reconstructed():
    for path in sorted(DATA.glob("*.toml")):
        head = path.read_text(encoding="utf-8").split("\n\n")[0]
        assert head.startswith("#") and "RECONSTRUCTION" in head.upper(), path.name


# -- broken files ---------------------------------------------------------------------------

def broken(tmp_path, name, old, new):
    """A copy of the data folder with one exact edit in ``name``."""
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    path = tmp_path / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"edit target not unique in {name}: {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path


ADJ_15 = 'adjacent = ["13", "14", "25", "31", "41", "42"]'
BROKEN = [
    # (file, old, new, entry, problem)
    ("board.toml", ADJ_15, ADJ_15.replace('"42"', '"nowhere"'),
     "space '15'", "unknown space 'nowhere'"),
    ("board.toml", ADJ_15, ADJ_15.replace(', "42"', ""),
     "space '42'", "does not list it"),
    ("board.toml", 'id = "52"\nkind = "bastion"\nname = "Bastion of Sant Pere"\n',
     'id = "52"\nkind = "bastion"\nname = "Bastion of Sant Pere"\nblue = ["53", "99"]\n',
     "space '52'", "unknown space '99'"),
    ("board.toml", 'yellow = "24"\nred = "23"', 'yellow = "240"\nred = "23"',
     "space '52'", "unknown space '240'"),
    ("board.toml", 'yellow = "24"\nred = "23"', 'yellow = "34"\nred = "23"',
     "space '52'", "does not share a side"),
    ("board.toml", 'yellow = "57"\nred = "36"', 'yellow = "57"\nred = "26"',
     "space '", "arrows loop"),
    ("board.toml", 'id = "23"', 'id = "24"', "space '24'", "duplicate id"),
    ("board.toml", 'id = "53"\nkind = "bastion"', 'id = "53"\nkind = "wall"',
     "[[space]]", "9 bastions"),
    ("board.toml", 'id = "13"\nkind = "inner"\n', 'id = "13"\n',
     "space '13'", "missing key 'kind'"),
    ("board.toml", 'id = "13"\nkind = "inner"\n', 'id = "13"\nkind = "inner"\ncolour = 1\n',
     "space '13'", "unknown keys ['colour']"),
    ("board.toml", 'id = "13"\nkind = "inner"\n', 'id = "13"\nkind = "street"\n',
     "space '13'", "unknown kind 'street'"),
    ("board.toml", 'id = "13"\nkind = "inner"\n', 'id = "13"\nkind = inner\n',
     "not valid TOML", "line"),
    ("board.toml", 'next_to = "mas_guinardo"', 'next_to = "o1-1"',
     "[captured]", "not a camp"),
    ("markers.toml", "full_start = 0\n", "full_start = 3\n",
     "[port]", "full_start = 3 is not one of the values"),
    ("markers.toml", "full_start = 0\n", "",
     "[port]", "missing key 'full_start'"),
    ("markers.toml", "first_game_start = 6\n", "first_game_start = 5\n",
     "[generalitat]", "highest value"),
    ("markers.toml", 'spaces = ["32"]', 'spaces = ["A1"]',
     "[generalitat]", "not a Barcelona space"),
    ("markers.toml", "start = { reinforcements = 0, batteries = 1, mine = 0 }",
     "start = { reinforcements = 0, batteries = 99, mine = 0 }",
     "[bourbon_marker] start", "off the track"),
    ("markers.toml", '{ value = 2, icons = ["healing"] },',
     '{ value = 2, icons = ["bombardment"] },',
     "track position 3", "unknown icon 'bombardment'"),
    ("markers.toml", '{ value = 2, icons = ["healing"] },', '{ value = 1, icons = ["healing"] },',
     "track position 3", "not below the previous one"),
    ("dice.toml", '"Advance 3"]', '"Advance 7"]', "die 'red'", "1..3"),
    ("dice.toml", 'colour = "black"', 'colour = "red"', "die 'red'", "two dice of one colour"),
    ("dice.toml", 'II = ["blue", "yellow", "red"]', 'II = ["blue", "green"]',
     "[stages]", "unknown die 'green'"),
    ("chance.toml", "stage_I = [11, 45, 46,", "stage_I = [10, 45, 46,",
     "card 1", "10 is not a numbered Barcelona space"),
    ("chance.toml", "number = 14\n", "number = 13\n", "card 13", "duplicate card number"),
    ("chance.toml", 'advance = ["YELLOW", "RED", "RED", "YELLOW", "RED"]',
     'advance = ["YELLOW", "BLUE", "RED", "YELLOW", "RED"]', "card 1", "YELLOW or RED"),
    ("chance.toml", "bombardment_boxes = 6", "bombardment_boxes = 4",
     "bombardment_boxes", "the Bourbon marker reaches 6"),
    ("tiles.toml", "1 = 30, 2 = 30", "1 = 31, 2 = 30", "[bourbon_troops]", "add up to 161"),
    ("tiles.toml", "total = 48", "total = 49", "[victory_points]", "the rulebook has 48"),
    ("tiles.toml", "cannon = 12", "cannon = 11", "[pieces] cannon", "the rulebook has 12"),
    ("tiles.toml", "organ_gun = 5 ", "", "file", "missing counts ['organ_gun']"),
]


@pytest.mark.parametrize("name, old, new, entry, problem", BROKEN,
                         ids=[f"{b[0]}:{b[4]}" for b in BROKEN])
def test_broken_file_names_file_entry_and_problem(tmp_path, name, old, new, entry, problem):
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(ComponentError) as err:
        load_components(folder)
    msg = str(err.value)
    assert str(folder / name) in msg
    assert entry in msg and problem in msg, msg


def test_missing_file(tmp_path):
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    (tmp_path / "dice.toml").unlink()
    with pytest.raises(ComponentError, match=r"dice\.toml: cannot read"):
        load_components(tmp_path)


def test_a_good_copy_loads(tmp_path):
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    other = load_components(tmp_path)
    assert other is not load_components()
    assert (other.arrows == load_components().arrows).all()


def test_a_broken_action_cost_table_names_the_file_and_the_entry(tmp_path):
    from simkit.games.victus.state import action_costs

    text = (DATA / "actions.toml").read_text(encoding="utf-8")
    (tmp_path / "actions.toml").write_text(text.replace("[worm]", "[wurm]"), encoding="utf-8")
    with pytest.raises(ComponentError, match=r"actions\.toml: file: unknown keys \['wurm'\]"):
        action_costs(tmp_path)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "actions.toml").write_text(text.replace("priority = 1", "priority = 12", 1),
                                      encoding="utf-8")
    with pytest.raises(ComponentError, match=r"actions\.toml: \[\w+\]: 'priority' = 12 is out "
                                             r"of range 0\.\.9"):
        action_costs(bad)
