"""Victus rules fixed after the review of issue 13 (rule deviations), each test quoting the
rulebook text it follows: the Military Deputy's Expedition fights only when a card says
so; cannons are lost only to Bourbon tiles; a fight in a trench space adds the camp's tile
to the tiles there; reinforcements skip a camp holding a combat's survivors; Trench -X
skips tiles sharing a space with troops and fights there afterwards; a camp tile with
troops in its camp cannot advance; at most 6 razed camp tiles; and both readings of a
fight for a camp while the reinforcements disc shows 0 (rule ``empty_reinforcements``)."""

import pytest
from victus_support import C, K, S, W, params, rules_vector, streams

from simkit.errors import RulesError
from simkit.eventlog import events, new_log, no_log
from simkit.games.victus import GAME
from simkit.games.victus import barcelonans as A
from simkit.games.victus import bourbons as B
from simkit.games.victus import card_effects as E
from simkit.games.victus import combat as CB
from simkit.games.victus import events as EV
from simkit.games.victus import layout as L
from simkit.games.victus.cards import load_cards
from simkit.games.victus.state import empty_state

CARDS = load_cards().as_tuple()
WOUNDED, RESERVE, CAPTURED = C.wounded, C.reserve, C.captured
A_COLUMN, C_COLUMN, D_COLUMN = 0, 2, 3


def combats(log):
    return [(a, b, c) for code, a, b, c in events(log) if code == EV.EV_COMBAT]


def front_of(space):
    """A space outside the trench from which troops step into ``space``."""
    return next(s for s in range(C.n_spaces) if A.can_step(K, None, s, space)
                and C.space_info[s, L.S_TRENCH] < 0 and s != space)


def trench(g):
    return list(g[L.G_TRENCH:L.G_TRENCH + 6])


# -- the Military Deputy's Expedition -------------------------------------------------------


def test_the_expedition_does_not_fight_after_an_advance_only_when_a_card_says_so():
    """"Even if there are Bourbon tiles and Barcelonan troops at the MILITARY DEPUTY'S
    EXPEDITION, the combat is not resolved; it is only resolved when the effect of an event
    or leader card states "Combat at the Military Deputy's Expedition." (Full Game)"""
    sp, g = empty_state(C)
    p = params(full=True)
    sp[C.expedition, [L.SP_INFANTRY, L.SP_CORONELA, L.SP_BOURBON]] = (1, 2, 3)
    log = new_log()
    B.advance_bourbons(K, p, W, sp, g, streams(), 1, False, log)
    assert combats(log) == []
    assert tuple(sp[C.expedition, [L.SP_INFANTRY, L.SP_CORONELA, L.SP_BOURBON]]) == (1, 2, 3)
    E.op_expedition_combat(K, p, W, sp, g, False, log)  # the card's "Combat at the ..."
    assert combats(log) == [(C.expedition, 3, 5)]  # 1 infantry + 2 Coronela, outside
    assert sp[C.expedition, L.SP_BOURBON] == 0


# -- cannons --------------------------------------------------------------------------------


def test_cannons_stay_when_a_tie_leaves_no_bourbon_tile():
    """"if Bourbon troop tiles enter a space with cannons and no Barcelonan troops present
    (or, as the result of a combat, only Bourbon troops and Barcelonan cannons remain in a
    space), the cannons are eliminated immediately": a tie leaves no Bourbon tile."""
    sp, g = empty_state(C)
    g[L.G_MARKER + L.MARKER_GUNPOWDER_STORE] = list(C.marker_values[2]).index(4)
    sp[S(12), [L.SP_CORONELA, L.SP_CANNON, L.SP_BOURBON]] = (2, 1, 6)
    assert CB.resolve_combat(K, params(), W, sp, g, S(12), False, no_log()) == CB.BOTH_LOSE
    assert sp[S(12), L.SP_CORONELA] == 0 and sp[S(12), L.SP_BOURBON] == 0
    assert sp[S(12), L.SP_CANNON] == 1 and sp[WOUNDED, L.SP_CANNON] == 0


def test_cannons_are_lost_when_only_bourbons_and_cannons_remain():
    sp, g = empty_state(C)
    space = S(45)
    sp[space, [L.SP_CORONELA, L.SP_CANNON, L.SP_BOURBON]] = (1, 2, 9)
    assert CB.resolve_combat(K, params(), W, sp, g, space, False, no_log()) == CB.BOURBONS_WIN
    assert sp[space, L.SP_CANNON] == 0 and sp[WOUNDED, L.SP_CANNON] == 2


def test_troops_leaving_a_cannon_alone_do_not_lose_it():
    """"Cannons can fire even if there is no Barcelonan troop in the same space." """
    p, (sp, g) = params(), empty_state(C)
    sp[S(44), [L.SP_CORONELA, L.SP_CANNON]] = (1, 1)
    A.move_troops(K, p, W, sp, g, S(44), S(45), 1, 0, no_log())
    assert sp[S(44), L.SP_CANNON] == 1 and sp[WOUNDED, L.SP_CANNON] == 0


# -- combats in trench spaces and camps -------------------------------------------------------


def test_a_trench_space_fight_adds_the_camps_tile_to_the_tiles_already_there():
    """"place a Bourbon troop tile at the combat space with the same value shown by the
    reinforcements disc": placed, not replacing the Bourbon tiles that stand there; the
    Bourbons who win go back to the camp ("leave the resulting Bourbon troop tile from the
    combat at the camp space (position 0)")."""
    sp, g = empty_state(C)
    g[L.G_TRENCH + A_COLUMN] = 2
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 4  # value 2
    sp[S("A2"), [L.SP_INFANTRY, L.SP_BOURBON]] = (1, 3)
    log = new_log()
    B.trench_space_combat(K, params(), W, sp, g, A_COLUMN, False, log)
    assert combats(log) == [(S("A2"), 3 + 2, 3)]
    assert sp[S("A2"), L.SP_BOURBON] == 0 and sp[S("A0"), L.SP_BOURBON] == 5 - 3
    assert sp[RESERVE, L.SP_INFANTRY] == 1 and trench(g)[A_COLUMN] == 2


def test_an_advance_into_troops_on_a_trench_tile_fights_as_at_the_camp():
    """"combats in spaces containing a trench tile are resolved as if they occurred at their
    camp in position 0": a Barcelonan win after an advance razes the camp and pushes the
    trench tile back."""
    sp, g = empty_state(C)
    p = params()
    g[L.G_TRENCH + A_COLUMN] = 1
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[S("A1"), L.SP_INFANTRY] = 2
    sp[S("A0"), L.SP_BOURBON] = 4  # jumps to A1, where the troops stop it
    B.advance_bourbons(K, p, W, sp, g, streams(), 1, False, no_log())
    assert sp[S("A0"), L.SP_RAZED] == 1 and trench(g)[A_COLUMN] == 0
    assert g[L.G_DISC + L.DISC_BATTERIES] == 5 and sp[S("A1"), L.SP_INFANTRY] == 2


def test_an_advance_does_not_reinforce_a_camp_holding_a_combats_survivors():
    """"If the Bourbons won: leave the resulting Bourbon troop tile from the combat in this
    space. If an advance occurs later this turn, do not add a Bourbon troop tile to this
    camp and instead advance this resulting Bourbon troop tile." (Combats in Camps)"""
    p, (sp, g) = params(), empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 8  # value 3
    camp = C.camps[7]
    source = front_of(camp)
    sp[source, L.SP_CORONELA] = 1
    A.move_troops(K, p, W, sp, g, source, camp, 1, 0, no_log())  # 3 against 1: 2 survive
    assert sp[camp, L.SP_BOURBON] == 2 and sp[camp, L.SP_RAZED] == 0
    log = new_log()
    B.reinforce_camps(K, sp, g, log)
    placed = {a: b for code, a, b, _ in events(log) if code == EV.EV_CAMP_PLACED}
    assert camp not in placed and len(placed) == 14 and set(placed.values()) == {3}
    assert sp[camp, L.SP_BOURBON] == 2  # the survivors advance, no more


def test_the_razed_camp_tiles_run_out_after_six():
    """Components: "6 razed Bourbon camp tiles" for fifteen camps. A seventh win still
    moves the batteries back, but finds no razed tile to place."""
    p, (sp, g) = params(full=True), empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1  # value 1
    g[L.G_DISC + L.DISC_BATTERIES] = 10
    for camp in C.camps[6:13]:  # camps off the trench
        sp[front_of(camp), L.SP_INFANTRY] = 1
        A.move_troops(K, p, W, sp, g, front_of(camp), camp, 0, 1, no_log())
    assert sp[C.camps[6:12], L.SP_RAZED].tolist() == [1] * 6
    assert sp[C.camps[12], L.SP_RAZED] == 0
    assert g[L.G_DISC + L.DISC_BATTERIES] == 10 - 7


# -- the trench -------------------------------------------------------------------------------


def test_trench_minus_skips_a_tile_sharing_a_space_with_troops_then_fights_there():
    """Trench -X: "If a trench tile is in the same space as Barcelonan troops, it cannot
    be taken to resolve this trench action; at the end of the action, the combat in that
    space must be resolved." Example 9's position with an infantry on C3."""
    sp, g = empty_state(C)
    g[L.G_TRENCH:L.G_TRENCH + 6] = [3, 2, 3, 0, 2, 2]
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 4  # value 2
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[S("C3"), L.SP_INFANTRY] = 1
    B.trench_back(K, params(), W, sp, g, 1, False, no_log())
    # A, not C, goes back; then the infantry wins at C3: camp C razed, C back to C2
    assert trench(g) == [2, 2, 2, 0, 2, 2]
    assert sp[S("C0"), L.SP_RAZED] == 1 and g[L.G_DISC + L.DISC_BATTERIES] == 5


def test_a_camp_tile_with_troops_in_its_camp_cannot_advance():
    """"If there are Barcelonan troops in the same space as a trench/camp tile, it cannot
    be taken to resolve the Bourbon die's trench action" (a camp tile is in its camp)."""
    sp, g = empty_state(C)
    p = params(full=True)
    g[L.G_TRENCH:L.G_TRENCH + 6] = [1, 1, 1, 0, 1, 1]
    sp[S("D0"), [L.SP_CORONELA, L.SP_RAZED]] = (1, 1)  # Example 17: stayed in a razed camp
    B.trench_forward(K, p, W, sp, g, streams(), 1, False, no_log())
    assert trench(g) == [2, 1, 1, 0, 1, 1] and g[L.G_DISC + L.DISC_MINE] == 0
    assert sp[S("D0"), L.SP_CORONELA] == 1  # a razed camp: no combat
    sp[S("D0"), L.SP_RAZED] = 0
    g[L.G_TRENCH:L.G_TRENCH + 6] = [3, 3, 3, 0, 3, 3]  # only D could move: a mine symbol
    B.trench_forward(K, p, W, sp, g, streams(), 1, False, no_log())
    assert trench(g)[D_COLUMN] == 0 and g[L.G_DISC + L.DISC_MINE] == 1


# -- the reinforcements disc at 0: rule empty_reinforcements ----------------------------------


def test_empty_reinforcements_knob_default_and_bad_value():
    assert GAME.Rules().empty_reinforcements == "no_combat"
    with pytest.raises(RulesError, match="empty_reinforcements"):
        GAME.Rules(empty_reinforcements="free_win")


def reading(name):
    return rules_vector(GAME.presets["full"].rules.replace({"empty_reinforcements": name}))


@pytest.mark.parametrize("name, razed, batteries, freed", [
    ("no_combat", 0, 6, 0),  # "no combat occurs (since no Bourbon troops remain there)"
    ("barcelonans_win", 1, 5, 1),  # a Bourbon side of value 0 loses the combat
])
def test_a_camp_attacked_while_the_reinforcements_disc_shows_0(name, razed, batteries, freed):
    """"place a Bourbon troop tile in the camp space with the same value shown by the
    reinforcements disc": at 0 there is no tile (values 1-12) and no Bourbon troop."""
    p, (sp, g) = reading(name), empty_state(C)
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[CAPTURED, L.SP_CORONELA] = 2
    camp = C.camps[7]
    sp[front_of(camp), L.SP_INFANTRY] = 1
    log = new_log()
    A.move_troops(K, p, W, sp, g, front_of(camp), camp, 0, 1, log)
    assert combats(log) == []
    assert sp[camp, L.SP_RAZED] == razed and g[L.G_DISC + L.DISC_BATTERIES] == batteries
    assert sp[camp, L.SP_CORONELA] == freed and sp[camp, L.SP_INFANTRY] == 1


@pytest.mark.parametrize("name, position, razed", [("no_combat", 2, 0),
                                                    ("barcelonans_win", 1, 1)])
def test_a_trench_space_entered_while_the_reinforcements_disc_shows_0(name, position, razed):
    p, (sp, g) = reading(name), empty_state(C)
    g[L.G_TRENCH + A_COLUMN] = 2
    sp[front_of(S("A2")), L.SP_INFANTRY] = 1
    A.move_troops(K, p, W, sp, g, front_of(S("A2")), S("A2"), 0, 1, no_log())
    assert trench(g)[A_COLUMN] == position and sp[S("A0"), L.SP_RAZED] == razed


# -- labels: only the first_game preset is the First Game --------------------------------------


def test_a_level_first_game_cell_is_labelled_as_not_the_first_game():
    """The rulebook's First Game also loses "if ... fewer than three Coronela pieces remain"
    and resolves the dice "in the same order in which they appear on the table": a cell
    that sets only ``level = "first_game"`` keeps the Full Game's 5 and free order."""
    from simkit.experiment import parse_experiment

    text = """
[experiment]
name = "t"
game = "victus"
preset = "full"
games = 10
[[sweep]]
kind = "presets"
presets = ["first_game"]
[[sweep]]
kind = "one_at_a_time"
[sweep.knobs]
level = ["first_game"]
coronela_threshold = [3]
"""
    cells = {c.knob: c for c in parse_experiment(text).cells}
    assert cells["preset"].label == "preset first_game"
    knob = cells["level"]
    assert (knob.description or knob.label) == (
        "level=first_game (not the First Game: coronela_threshold=5 and dice_order=free)")
    assert GAME.resolve_rules("first_game").value_notes() == {}
    almost = GAME.resolve_rules({"level": "first_game", "coronela_threshold": 3})
    assert almost.played_changes_text().startswith(
        "level=first_game (not the First Game: dice_order=free), coronela_threshold=3")
    assert GAME.resolve_rules({"players": 3}).played_changes_text().startswith("players=3")
