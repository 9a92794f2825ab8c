"""Victus worked examples on the Bourbon side and combat (rulebook Examples 3-9, 18, 19,
21, 22, 26, 29), each as a scenario: the example's state, the rule, the example's numbers.
Positions the examples leave to the board come from the reconstructed board (data/)."""

import numpy as np
import pytest
from victus_support import C, K, S, W, params, set_marker, streams

from simkit.eventlog import events, new_log, no_log
from simkit.games.victus import bourbons as B
from simkit.games.victus import combat as CB
from simkit.games.victus import events as EV
from simkit.games.victus import layout as L
from simkit.games.victus.pieces import coronela_in_barcelona, disc_value, marker_value
from simkit.games.victus.state import empty_state, set_up

Y, R = L.YELLOW, L.RED
WOUNDED, RESERVE = C.wounded, C.reserve


def put_chance_on_top(g, *cards):
    """The next chance cards drawn are ``cards`` (indices in card-number order)."""
    rest = [c for c in range(14) if c not in cards]
    g[L.G_CHANCE_DECK:L.G_CHANCE_DECK + 14] = list(cards) + rest
    g[L.G_CHANCE_NEXT] = 0


def entering(space_id, colour=Y):
    """A space whose ``colour`` arrow leads into ``space_id``."""
    return int(np.flatnonzero(C.arrows[:, colour] == S(space_id))[0])


def rng():
    return streams(0, 0)


# -- Example 3: reinforcements die and the marker's icons ---------------------------------


def test_example_3_reinforcements_die_icons_batteries_then_healing():
    sp, g = empty_state(C)
    p = params(full=False)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1
    set_marker(g, L.MARKER_PORT, 1)
    set_marker(g, L.MARKER_HOSPITAL, 2)
    sp[WOUNDED, L.SP_CORONELA] = 6
    sp[RESERVE, L.SP_CORONELA] = 5
    batteries_before = g[L.G_DISC + L.DISC_BATTERIES]
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_REINFORCEMENTS, 1, False, no_log())  # white
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 2  # "the first space 2": batteries icon
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries_before + 1
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_REINFORCEMENTS, 1, False, no_log())  # gray
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 3  # healing icon
    assert sp[C.port, L.SP_CORONELA] == 1  # Port +1: 1 troop from Reserve to the Port
    assert sp[S(34), L.SP_CORONELA] == 2  # hospital 2: 2 Coronela to Saint Mary-34
    assert sp[S(14), L.SP_INFANTRY] == 0  # no infantry in Wounded
    assert sp[WOUNDED, L.SP_CORONELA] == 4


def test_example_3_full_game_port_sends_the_troop_to_the_expedition():
    sp, g = empty_state(C)
    set_marker(g, L.MARKER_PORT, 1)
    sp[RESERVE, L.SP_INFANTRY] = 1
    B.heal(K, params(full=True), W, sp, g, False, no_log())
    assert sp[C.expedition, L.SP_INFANTRY] == 1 and sp[C.port].sum() == 0


def test_port_minus_two_sends_two_barcelona_troops_to_reserve():
    sp, g = empty_state(C)
    set_marker(g, L.MARKER_PORT, -2)
    set_marker(g, L.MARKER_HOSPITAL, 0)
    sp[S(12), L.SP_CORONELA] = 3
    B.heal(K, params(), W, sp, g, False, no_log())
    assert sp[S(12), L.SP_CORONELA] == 1 and sp[RESERVE, L.SP_CORONELA] == 2


# -- Example 4: bombardment --------------------------------------------------------------


def example_4_state():
    sp, g = empty_state(C)
    g[L.G_DISC + L.DISC_BATTERIES] = list(C.track_value).index(3)  # a value-3 space
    sp[S(45), L.SP_INFANTRY] = 1
    sp[S(46), [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON, L.SP_DEFENSE]] = (1, 1, 1, 2)
    sp[S(21), L.SP_RUBBLE] = L.RUBBLE
    sp[S(48), [L.SP_CANNON, L.SP_CORONELA, L.SP_DEFENSE]] = (1, 1, 1)
    sp[S(25), L.SP_RUBBLE] = L.RUINED
    return sp, g


def test_example_4_hits_absorbed_as_the_players_chose():
    sp, g = example_4_state()
    log = new_log()
    B.absorb_hit(K, sp, g, S(11), -1, log)  # empty: rubble
    B.absorb_hit(K, sp, g, S(11), -1, log)  # rubble flips to ruined
    B.absorb_hit(K, sp, g, S(45), L.HIT_INFANTRY, log)
    B.absorb_hit(K, sp, g, S(45), -1, log)
    B.absorb_hit(K, sp, g, S(46), L.HIT_DEFENSE, log)
    B.absorb_hit(K, sp, g, S(46), L.HIT_CORONELA, log)
    assert sp[S(11), L.SP_RUBBLE] == L.RUINED
    assert sp[S(45), L.SP_RUBBLE] == L.RUBBLE and sp[S(45), L.SP_INFANTRY] == 0
    assert sp[WOUNDED, L.SP_INFANTRY] == 1  # one hit eliminates an infantry, to Wounded
    assert tuple(sp[S(46), [L.SP_DEFENSE, L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]]) == (
        1, 0, 1, 1)


def test_example_4_white_bombardment_2_then_gray_bombardment_1():
    sp, g = example_4_state()
    p = params()
    put_chance_on_top(g, 0, 1)  # Stage I rows (11, 45, 46, ...) then (21, 48, 25, ...)
    rubble_before = int((sp[:, L.SP_RUBBLE] > 0).sum())
    log = new_log()
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_BOMBARDMENT, 2, False, log)
    bombarded = [(a, b) for code, a, b, _ in events(log) if code == EV.EV_BOMBARD_SPACE]
    assert bombarded == [(S(11), 2), (S(45), 2), (S(46), 2)]  # batteries value 3
    assert sp[S(11), L.SP_RUBBLE] == L.RUINED and sp[S(45), L.SP_RUBBLE] == L.RUBBLE
    assert sp[S(46), L.SP_DEFENSE] + sp[S(46), L.SP_CORONELA] + sp[S(46), L.SP_INFANTRY] \
        + sp[S(46), L.SP_CANNON] == 5 - 2  # two hits absorbed by pieces, no rubble
    assert sp[S(46), L.SP_RUBBLE] == L.RUBBLE_NONE
    log = new_log()
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_BOMBARDMENT, 1, False, log)
    assert sp[S(21), L.SP_RUBBLE] == L.RUINED
    assert sp[S(48), L.SP_DEFENSE] == 0 and sp[S(48), L.SP_CORONELA] == 1  # defense removed
    assert sp[S(25), L.SP_RUBBLE] == L.RUINED
    hits = [b for code, _, b, _ in events(log) if code == EV.EV_HIT]
    assert hits == [L.HIT_RUINED, L.HIT_DEFENSE, L.HIT_IGNORED]
    assert int((sp[:, L.SP_RUBBLE] > 0).sum()) == rubble_before + 2  # new tiles on 11, 45


def test_chance_deck_reshuffles_when_empty_and_deals_every_card_once_per_cycle():
    sp, g = empty_state(C)
    state = rng()
    first_cycle = [B.draw_chance(g, state) for _ in range(14)]
    second_cycle = [B.draw_chance(g, state) for _ in range(14)]
    assert sorted(first_cycle) == list(range(14)) == sorted(second_cycle)
    assert g[L.G_CHANCE_DRAWN] == 28


# -- Examples 5, 7, 8: advance ------------------------------------------------------------


def test_example_5_advance_through_ruined_spaces_stops_at_troops():
    sp, g = empty_state(C)
    sp[S(52), L.SP_RUBBLE] = L.RUINED
    sp[S(24), L.SP_RUBBLE] = L.RUBBLE
    sp[S(33), L.SP_RUBBLE] = L.RUINED
    sp[S(26), L.SP_RUBBLE] = L.RUINED
    sp[S(34), L.SP_CORONELA] = 4
    start = entering(52)
    colours = np.array([Y, R, R], dtype=np.int8)
    assert B.march(K, params(), sp, start, colours, 1) == S(24)  # YELLOW: 52 ruined, on to 24
    assert B.march(K, params(), sp, start, colours, 3) == S(34)  # RED: 33, 26 skipped; stop


def test_example_5_advance_3_moves_the_value_8_tile_then_fights():
    sp, g = empty_state(C)
    for space_id, rubble in ((52, L.RUINED), (24, L.RUBBLE), (33, L.RUINED), (26, L.RUINED)):
        sp[S(space_id), L.SP_RUBBLE] = rubble
    sp[S(34), L.SP_CORONELA] = 4
    sp[entering(52), L.SP_BOURBON] = 8
    put_chance_on_top(g, 0)  # advance boxes YELLOW, RED, RED, ...
    log = new_log()
    B.advance_bourbons(K, params(), W, sp, g, rng(), 3, False, log)
    moves = [(a, b, c) for code, a, b, c in events(log) if code == EV.EV_ADVANCE]
    assert moves == [(entering(52), S(34), 8)]
    combats = [(a, b, c) for code, a, b, c in events(log) if code == EV.EV_COMBAT]
    gunpowder = marker_value(K, g, L.MARKER_GUNPOWDER_STORE)
    assert combats == [(S(34), 8, 4 + gunpowder)]


def test_example_7_yellow_yellow_and_a_tile_stopped_by_two_troops():
    sp, g = empty_state(C)
    sp[S(52), L.SP_CORONELA] = 2
    colours = np.array([Y, Y], dtype=np.int8)
    assert B.march(K, params(), sp, entering(51), colours, 2) == S(22)
    assert B.march(K, params(), sp, entering(52), colours, 2) == S(52)


def test_example_8_undefended_cannons_are_eliminated_and_the_tile_moves_on():
    sp, g = empty_state(C)
    sp[S(44), [L.SP_CANNON, L.SP_DEFENSE]] = (2, 2)
    colours = np.array([Y, R, Y], dtype=np.int8)
    assert B.march(K, params(), sp, entering(44), colours, 3) == S(13)
    assert sp[S(44), L.SP_CANNON] == 0 and sp[WOUNDED, L.SP_CANNON] == 2
    assert sp[S(44), L.SP_DEFENSE] == 2  # a bastion defense does not stop an advance


def test_example_6_two_value_6_tiles_meet_and_make_one_value_12_tile():
    """Example 6, Advance 1 following red arrows: "They advance the Bourbon troop tile of
    value 6 ... following the red arrow, and it lands on a space where there is already
    another Bourbon troop tile of value 6. Players decide to remove both from the board and
    replace them with a Bourbon troop tile of value 12 ... The Bourbon troop tile of value 4
    advances following the red arrow to the empty space". Every tile moves once, from where
    it stood: the other value-6 tile is the one that already reached the space."""
    sp, g = empty_state(C)
    sp[S(21), L.SP_BOURBON] = 6  # 21 and 48 both lead RED into 22
    sp[S(48), L.SP_BOURBON] = 6
    sp[S(14), L.SP_BOURBON] = 4  # 14 leads RED into the empty 15
    assert C.arrows[S(21), R] == C.arrows[S(48), R] == S(22) and C.arrows[S(14), R] == S(15)
    put_chance_on_top(g, [c for c in range(14) if C.chance_advance[c, 0] == R][0])
    log = new_log()
    B.advance_bourbons(K, params(), W, sp, g, rng(), 1, False, log)
    assert sp[S(22), L.SP_BOURBON] == 12 and sp[S(15), L.SP_BOURBON] == 4
    assert np.flatnonzero(sp[:, L.SP_BOURBON]).tolist() == sorted([S(22), S(15)])
    moves = sorted((a, b, c) for code, a, b, c in events(log) if code == EV.EV_ADVANCE)
    assert moves == sorted([(S(21), S(22), 6), (S(48), S(22), 6), (S(14), S(15), 4)])


def test_advance_places_reinforcements_on_every_camp_not_razed_and_resets_the_disc():
    sp, g = empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 4  # value 2
    sp[C.camps[0], L.SP_RAZED] = 1
    log = new_log()
    B.reinforce_camps(K, sp, g, log)
    placed = [a for code, a, _, _ in events(log) if code == EV.EV_CAMP_PLACED]
    assert len(placed) == 14 and C.camps[0] not in placed
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 0


# -- Example 9: trench +3 and trench -4 ---------------------------------------------------


def trench_state(positions):
    sp, g = empty_state(C)
    g[L.G_TRENCH:L.G_TRENCH + 6] = positions
    return sp, g


TRENCH_READINGS = ("next_tile", "symbol_lost")


@pytest.mark.parametrize("reading", TRENCH_READINGS)
def test_example_9_trench_plus_3(reading):
    sp, g = trench_state([3, 2, 3, 0, 2, 2])
    B.trench_forward(K, params(trench_blocked_tile=reading), W, sp, g, rng(), 3, False, no_log())
    assert list(g[L.G_TRENCH:L.G_TRENCH + 6]) == [3, 3, 3, 2, 2, 2]


@pytest.mark.parametrize("reading", TRENCH_READINGS)
def test_example_9_trench_minus_4(reading):
    sp, g = trench_state([3, 2, 3, 0, 2, 2])
    B.trench_back(K, params(trench_blocked_tile=reading), W, sp, g, 4, False, no_log())
    assert list(g[L.G_TRENCH:L.G_TRENCH + 6]) == [2, 2, 2, 0, 1, 1]


@pytest.mark.parametrize("reading, after, mine", [
    ("next_tile", [1, 3, 3, 3, 3, 3], 0),  # B, the next tile that can, moves twice
    ("symbol_lost", [1, 1, 3, 3, 3, 3], 2),  # both symbols name A, which cannot be taken
])
def test_trench_blocked_tile_reading_when_the_named_tile_shares_troops_space(
        reading, after, mine):
    """Trench: "take, from the rearmost position ... the one earliest in alphabetical
    order"; "If there are Barcelonan troops in the same space as a trench/camp tile, it
    cannot be taken". A and B on the 1st Parallel, an infantry on A1, Trench +2 (full
    game): the symbol passes to B, or is lost and advances the mine. The combat at A1
    comes after the symbols; the troop wins it against a reinforcements disc of 0."""
    sp, g = trench_state([1, 1, 3, 3, 3, 3])
    sp[S("A1"), L.SP_CORONELA] = 1
    p = params(full=True, trench_blocked_tile=reading, empty_reinforcements="no_combat")
    B.trench_forward(K, p, W, sp, g, rng(), 2, False, no_log())
    assert list(g[L.G_TRENCH + 1:L.G_TRENCH + 6]) == after[1:]
    assert g[L.G_DISC + L.DISC_MINE] == mine


def test_unapplicable_trench_symbols_do_nothing_in_the_first_game():
    sp, g = trench_state([3, 3, 3, 3, 3, 3])
    B.trench_forward(K, params(full=False), W, sp, g, rng(), 2, False, no_log())
    assert g[L.G_DISC + L.DISC_MINE] == 0


# -- Example 18 and 26: combat ------------------------------------------------------------


def test_example_18_combat_1_outside_barcelona_bourbons_win():
    sp, g = empty_state(C)
    space = entering(52)
    sp[space, [L.SP_INFANTRY, L.SP_BOURBON]] = (1, 4)
    assert CB.resolve_combat(K, params(), W, sp, g, space, False, no_log()) == CB.BOURBONS_WIN
    assert sp[space, L.SP_BOURBON] == 1 and sp[RESERVE, L.SP_INFANTRY] == 1


@pytest.fixture
def gunpowder_4():
    sp, g = empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 4)
    return sp, g


def test_example_18_combat_2_bastion_of_sant_pere(gunpowder_4):
    sp, g = gunpowder_4
    sp[S(52), [L.SP_INFANTRY, L.SP_CORONELA, L.SP_BOURBON]] = (1, 1, 9)
    assert CB.barcelonan_value(K, sp, g, S(52), False) == 8
    assert CB.resolve_combat(K, params(), W, sp, g, S(52), False, no_log()) == CB.BOURBONS_WIN
    assert sp[S(52), L.SP_BOURBON] == 1
    assert sp[WOUNDED, L.SP_INFANTRY] == 1 and sp[WOUNDED, L.SP_CORONELA] == 1


def test_example_18_combat_3_barcelonans_win_and_take_2_points_on_the_infantry(gunpowder_4):
    sp, g = gunpowder_4
    sp[S(53), [L.SP_INFANTRY, L.SP_CORONELA, L.SP_DEFENSE, L.SP_BOURBON]] = (1, 2, 2, 8)
    assert CB.barcelonan_value(K, sp, g, S(53), False) == 11
    assert CB.resolve_combat(K, params(), W, sp, g, S(53), False, no_log()) == CB.BARCELONANS_WIN
    assert sp[S(53), L.SP_BOURBON] == 0
    assert sp[S(53), L.SP_INFANTRY] == 1 and sp[S(53), L.SP_CORONELA] == 2  # 8 - 4 - 2 = 2


@pytest.mark.parametrize("reading, kept", [("gunpowder_and_bastion", (0, 0)),
                                            ("every_defence", (1, 1))])
def test_winner_casualties_reading_decides_what_barricades_and_organ_guns_discount(
        gunpowder_4, reading, kept):
    """Combat: a Barcelonan winner's casualties are the Bourbon value minus "the value of
    the GUNPOWDER STORE marker and that of the bastion defenses"; read with "Barricade
    tiles have the same effect as bastion defenses" and an organ-gun's "adds 5 to the value
    given by the GUNPOWDER STORE marker", they discount those too. 11 Bourbons against a
    Coronela, an infantry, GS 4, a barricade and an organ-gun (value 14): 11 - 4 = 7 points
    lose both troops; 11 - 4 - 1 - 5 = 1 point is spent on the infantry."""
    sp, g = gunpowder_4
    sp[S(45), [L.SP_CORONELA, L.SP_INFANTRY, L.SP_BARRICADES, L.SP_ORGAN_GUNS,
               L.SP_BOURBON]] = (1, 1, 1, 1, 11)
    p = params(full=True, winner_casualties=reading)
    assert CB.barcelonan_value(K, sp, g, S(45), False) == 14
    assert CB.resolve_combat(K, p, W, sp, g, S(45), False, no_log()) == CB.BARCELONANS_WIN
    assert (sp[S(45), L.SP_CORONELA], sp[S(45), L.SP_INFANTRY]) == kept
    assert sp[S(45), L.SP_ORGAN_GUNS] == 0 and sp[S(45), L.SP_BARRICADES] == 1


def test_flag_holder_adds_1_to_the_gunpowder_store(gunpowder_4):
    sp, g = gunpowder_4
    sp[S(53), L.SP_CORONELA] = 1
    assert CB.barcelonan_value(K, sp, g, S(53), True) == 1 + 4 + 1


def test_a_tie_eliminates_both_sides(gunpowder_4):
    """"The side with the lower combat value (or both sides, if tied) loses the combat."
    No Bourbon tile remains, so the cannon stays: it is eliminated only when "only
    Bourbon troops and Barcelonan cannons remain in a space" (Cannon Pieces)."""
    sp, g = gunpowder_4
    sp[S(12), [L.SP_CORONELA, L.SP_CANNON, L.SP_BOURBON]] = (2, 1, 6)
    assert CB.resolve_combat(K, params(), W, sp, g, S(12), False, no_log()) == CB.BOTH_LOSE
    assert sp[S(12), L.SP_BOURBON] == 0 and sp[S(12), L.SP_CORONELA] == 0
    assert sp[WOUNDED, L.SP_CORONELA] == 2
    assert sp[S(12), L.SP_CANNON] == 1 and sp[WOUNDED, L.SP_CANNON] == 0


@pytest.mark.parametrize("coronela, infantry, points, lost", [
    (2, 1, 2, (0, 0)),  # Example 18: both points on the infantry
    (2, 1, 3, (1, 0)),  # a third point must eliminate something: the cheaper Coronela
    (0, 2, 5, (0, 1)),
    (1, 1, 9, (1, 1)),  # more points than the troops are worth: all eliminated
])
def test_casualty_points_are_spread_to_lose_least(coronela, infantry, points, lost):
    from simkit.games.victus.judgement import casualty_split

    assert casualty_split(W, coronela, infantry, points) == lost


def test_example_26_organ_gun_stops_the_advance_and_is_removed_after_combat():
    sp, g = empty_state(C)
    p = params(full=True)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 4)
    start = entering(52)
    sp[start, L.SP_BOURBON] = 12
    sp[S(52), [L.SP_RUBBLE, L.SP_ORGAN_GUNS, L.SP_BARRICADES]] = (L.RUINED, 1, 1)
    yellow_first = [c for c in range(14) if C.chance_advance[c, 0] == Y][0]
    put_chance_on_top(g, yellow_first)
    log = new_log()
    B.advance_bourbons(K, p, W, sp, g, rng(), 1, False, log)
    combats = [(a, b, c) for code, a, b, c in events(log) if code == EV.EV_COMBAT]
    assert combats == [(S(52), 12, 10)]  # GS 4 + organ-gun 5 + barricade 1
    assert sp[S(52), L.SP_BOURBON] == 2 and sp[S(52), L.SP_ORGAN_GUNS] == 0
    assert sp[S(52), L.SP_BARRICADES] == 1 and sp[S(52), L.SP_RUBBLE] == L.RUINED


# -- Examples 19 and 22: combats in trench spaces ------------------------------------------


def test_example_19_infantry_wins_in_a2_then_the_trench_goes_back():
    sp, g = trench_state([2, 0, 0, 0, 0, 0])
    p = params(full=False)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 2  # value 2
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[S("A0"), L.SP_BATTERY_TILES] = 1
    sp[S("A2"), L.SP_INFANTRY] = 1
    B.trench_space_combat(K, p, W, sp, g, 0, False, no_log())
    assert sp[S("A2"), L.SP_INFANTRY] == 1  # 2 points against an infantry of 3: unharmed
    assert sp[S("A0"), L.SP_RAZED] == 1 and sp[S("A0"), L.SP_BATTERY_TILES] == 0
    assert g[L.G_DISC + L.DISC_BATTERIES] == 6 - 2  # -1 for the win, -1 for the battery
    assert g[L.G_TRENCH + 0] == 1
    sp[S("A1"), L.SP_INFANTRY], sp[S("A2"), L.SP_INFANTRY] = 1, 0  # 1 AP left: into A1
    B.trench_space_combat(K, p, W, sp, g, 0, False, no_log())
    assert g[L.G_TRENCH + 0] == 0 and g[L.G_DISC + L.DISC_BATTERIES] == 4  # razed: no fight


@pytest.mark.parametrize("reading", TRENCH_READINGS)
def test_example_22_trench_symbols_that_cannot_be_applied_advance_the_mine(reading):
    sp, g = trench_state([3, 3, 3, 3, 1, 3])
    p = params(full=True, trench_blocked_tile=reading)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 4  # value 2
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[S("E2"), L.SP_INFANTRY] = 1
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_TRENCH, 1, False, no_log())  # blue Trench +1
    assert g[L.G_TRENCH + 4] == 1 and sp[S("E0"), L.SP_RAZED] == 1
    assert g[L.G_DISC + L.DISC_BATTERIES] == 5 and sp[S("E2"), L.SP_INFANTRY] == 1
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_TRENCH, 3, False, no_log())  # red Trench +3
    assert g[L.G_DISC + L.DISC_MINE] == 2  # points 2 and 3: no tile can be taken
    assert g[L.G_TRENCH + 4] == 1  # camp E razed: no combat, trench back to E1
    assert g[L.G_DISC + L.DISC_BATTERIES] == 5


def test_mine_explodes_hits_mine_value_spaces_with_reinforcements_value_hits():
    sp, g = empty_state(C)
    g[L.G_DISC + L.DISC_MINE] = 2  # value 2
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1  # value 1
    put_chance_on_top(g, 0)
    log = new_log()
    B.mine_explodes(K, params(full=True), W, sp, g, rng(), log)
    assert [(a, b) for code, a, b, _ in events(log) if code == EV.EV_BOMBARD_SPACE] == [
        (S(11), 1), (S(45), 1)]
    assert g[L.G_DISC + L.DISC_MINE] == 0 and g[L.G_MINE_EXPLOSIONS] == 1


# -- Examples 21 and 29: the order of the dice, the marker's icons -------------------------


@pytest.mark.parametrize("order, spaces", [(("gray", "white"), 2), (("white", "gray"), 3)])
def test_example_21_dice_order_changes_the_spaces_bombarded(order, spaces):
    sp, g = empty_state(C)
    p = params(full=True)
    g[L.G_DISC + L.DISC_BATTERIES] = 5  # the last space of value 2
    assert disc_value(K, g, L.DISC_BATTERIES) == 2 and C.track_value[6] == 3
    faces = {"white": (L.ACT_REINFORCEMENTS, 2), "gray": (L.ACT_BOMBARDMENT, 1)}
    log = new_log()
    for die in order:
        B.resolve_die(K, p, W, sp, g, rng(), *faces[die], False, log)
    assert sum(1 for e in events(log) if e[0] == EV.EV_BOMBARD_SPACE) == spaces


def test_example_29_healing_with_nobody_wounded_and_a_mine_at_zero():
    sp, g = set_up(C, full=True)
    p = params(full=True)
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_REINFORCEMENTS, 3, False, no_log())  # white +3
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 3
    assert sp[S(14)].sum() == sp[S(14), L.SP_CORONELA] and sp[S(34), L.SP_CORONELA] == 1
    assert sp[WOUNDED, L.SP_CANNON] == 2  # cannons are not troops: nobody healed
    B.resolve_die(K, p, W, sp, g, rng(), L.ACT_REINFORCEMENTS, 1, False, no_log())  # gray +1
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 4
    assert g[L.G_MINE_EXPLOSIONS] == 0 and disc_value(K, g, L.DISC_REINFORCEMENTS) == 2


# -- set-up and conservation -------------------------------------------------------------


@pytest.mark.parametrize("full", [False, True])
def test_set_up_uses_every_piece(full):
    sp, g = set_up(C, full)
    assert sp[:, L.SP_CANNON].sum() == 12
    assert sp[:, L.SP_INFANTRY].sum() == 13
    assert sp[:, L.SP_CORONELA].sum() == 32
    assert coronela_in_barcelona(K, sp) == 27


@pytest.mark.parametrize("seed", range(6))
def test_random_bourbon_dice_conserve_pieces_and_keep_discs_in_range(seed):
    sp, g = set_up(C, full=True)
    p = params(full=True)
    state = streams(seed, 0)
    total = sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0)
    from simkit.rng import uniform_int

    for turn in range(60):
        g[L.G_STAGE] = min(turn // 20, 2)
        action = uniform_int(state, 0, 4)
        amount = uniform_int(state, 0, 3) + 1
        B.resolve_die(K, p, W, sp, g, state, action, amount, False, no_log())
        assert (sp >= 0).all()
        assert (sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0) == total).all()
        assert (g[L.G_DISC:L.G_DISC + 3] < C.track_value.shape[0]).all()
        assert g[L.G_DISC + L.DISC_BATTERIES] >= C.batteries_minimum
        assert ((0 <= g[L.G_TRENCH:L.G_TRENCH + 6]) & (g[L.G_TRENCH:L.G_TRENCH + 6] <= 3)).all()
        assert (sp[:, L.SP_RUBBLE] <= L.RUINED).all()
