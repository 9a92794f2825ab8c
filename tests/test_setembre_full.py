"""11 de Setembre, the whole game: the rulebook's worked examples on the reconstructed
map, one test per rule, the reconstruction's printed facts, and property tests over
whole games (stacking, conservation of units, red lines).

Sources: rulebook sections 4-13 and their worked examples (artillery fire, movement,
combat, the reinforcement illustration of 10.1).
"""

import numpy as np
import pytest
from loaded_dice import loaded

from simkit import games, simulate
from simkit.errors import ComponentError, RulesError
from simkit.eventlog import events, new_log, no_log
from simkit.games.setembre1714 import GAME as FULL
from simkit.games.setembre1714 import board as B
from simkit.games.setembre1714 import checks as CK
from simkit.games.setembre1714 import combat as C
from simkit.games.setembre1714 import engine as E
from simkit.games.setembre1714 import layout as L
from simkit.games.setembre1714 import movement as M
from simkit.games.setembre1714 import policies as POL
from simkit.games.setembre1714.components import (
    DATA,
    _distances,
    behind_royal_breach,
    breach_cards_in,
    load_board,
    wall_zones,
)
from simkit.games.setembre1714.events import (
    CAUSE_SALVO,
    EV_ADVANCE,
    EV_ASSAULT_DECLARED,
    EV_CARD,
    EV_SALVO_DECLARED,
    EV_UNIT_LOST,
    EVENTS,
)
from simkit.games.setembre1714.rules import Rules
from simkit.games.setembre1714_assault import combat_system as CS

BOARD, NAMES = load_board()
#: the kernels' ``pol`` for both greedy players (a side's row is what its policy
#: functions take)
GREEDY = FULL.policy_rows.build(FULL.policy_choices(None))
N = BOARD.zone.shape[0]


def rules_vector(rules):
    """The kernels' ``p`` (the rules alone), as the Game builds it."""
    return FULL.kernel_inputs(rules, FULL.policy_choices(None))[0]


def policy_rows(policy):
    """The kernels' ``pol`` for ``policy`` (a name or {side: policy}), as the Game builds it."""
    return FULL.policy_rows.build(FULL.policy_choices(policy))


def zone(zid):
    return NAMES.zone_ids.index(zid)


def units_of(side, kind=None):
    return [u for u in range(len(NAMES.units)) if BOARD.unit[u, L.U_SIDE] == side
            and (kind is None or NAMES.unit_kinds[u] == kind)]


def blank(rules=None, breach=True):
    """A state with nothing on the map (no unit, leader, gun or barricade)."""
    p = rules_vector(rules or Rules())
    s = np.zeros(L.N_STATE, np.int64)
    s[L.S_UNIT_ZONE:L.S_UNIT_ZONE + L.MAX_UNITS] = L.NOT_ARRIVED
    s[L.S_LEADER_ZONE:L.S_LEADER_ZONE + L.MAX_LEADERS] = L.NOT_ARRIVED
    s[L.S_GUN_ZONE:L.S_GUN_ZONE + L.MAX_GUNS] = L.ELIMINATED
    s[L.S_BARRICADE_ZONE:L.S_BARRICADE_ZONE + L.MAX_BARRICADES] = L.ELIMINATED
    s[L.S_EV_ARTILLERY] = 1
    s[L.S_TURN] = 1
    s[L.S_BREACH_TURN] = 1 if breach else 0
    return s, p


def put(s, units, zid):
    for u in units:
        B.place_unit(s, BOARD, u, zone(zid))


def lost_units(log):
    return [(NAMES.units[a], NAMES.zone_ids[b]) for code, a, b, c in events(log)
            if code == EV_UNIT_LOST]


# -- the reconstruction honours the printed facts ----------------------------------------------

def test_map_printed_facts():
    colour = {NAMES.zone_ids[z]: L.COLOURS[BOARD.zone[z, L.Z_COLOUR]] for z in range(N)}
    blue = sorted(z for z, c in colour.items() if c == "blue")
    assert blue == sorted(["convent_jonqueres", "monastery_sant_pere", "santa_clara_cloister",
                           "santa_clara_church", "sant_agusti_cloister", "sant_agusti_church",
                           "convent_santa_caterina"])
    for o, name in enumerate(L.OBJECTIVES):
        zones = [NAMES.zone_ids[z] for z in range(N) if BOARD.zone[z, L.Z_OBJECTIVE] == o]
        assert 1 <= len(zones) <= 2, name
    assert BOARD.objective_zones.tolist().count(2) == 2  # two convents of two zones
    assert [NAMES.zones[z] for z in range(N) if BOARD.zone[z, L.Z_DEPLOYMENT]] == [
        "Left Two Crowns", "Centre Two Crowns", "Right Two Crowns"]
    assert (BOARD.pair[L.PAIR_LINE] == L.LINE_ROYAL).sum() == 2
    lines = BOARD.pair[L.PAIR_LINE]
    assert (lines == L.LINE_RED).sum() > 0 and (lines == L.LINE_BREACH).sum() > 0
    assert BOARD.zone[:, L.Z_REINFORCEMENT].sum() >= 1
    # the Travessera: a blue line protects born against pla_llull (Example of combat)
    assert BOARD.pair[L.PAIR_BLUE, zone("born"), zone("pla_llull")] == 1
    assert BOARD.pair[L.PAIR_BLUE, zone("pla_llull"), zone("born")] == 0
    assert sum(BOARD.objective_zones[o] for o in range(L.N_OBJECTIVES) if o != L.PALAU) == 13


def test_forces_printed_facts():
    strength = dict(zip(NAMES.unit_kinds, BOARD.unit[:, L.U_STRENGTH], strict=True))
    for kind in ("regulars", "mountain_fusiliers", "french_grenadiers"):
        assert strength[kind] == 5
    assert sum(BOARD.leader[:, L.L_FLAG]) == 1
    assert BOARD.leader[list(BOARD.leader[:, L.L_FLAG]).index(1), L.L_SIDE] == L.CATALANS
    # reinforcements: Catalan new counters into R zones, Bourbon recreated units
    assert all(BOARD.unit[u, L.U_SIDE] == L.CATALANS for u in range(len(NAMES.units))
               if BOARD.unit[u, L.U_ARRIVES] > 0)
    assert BOARD.recovery.sum() > 0
    s, _ = blank()
    rng = loaded(L.N_STREAMS)
    E.set_up(rng, s, BOARD, rules_vector(Rules()))
    for z in range(N):
        assert not (B.count(s, 0, z) and B.count(s, 1, z))
        if not BOARD.zone[z, L.Z_DEPLOYMENT]:
            assert B.count(s, 0, z) <= 5 and B.count(s, 1, z) <= 5


def test_loader_names_file_entry_and_problem(tmp_path):
    for name in ("map.toml", "forces.toml", "events.toml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    text = (DATA / "map.toml").read_text().replace('colour = "blue"\nobjective = '
                                                   '"convent_jonqueres"',
                                                   'colour = "grey"\nobjective = '
                                                   '"convent_jonqueres"')
    (tmp_path / "map.toml").write_text(text)
    with pytest.raises(ComponentError, match=r"map.toml: \[\[zone\]\] convent_jonqueres: "):
        load_board(tmp_path)
    (tmp_path / "map.toml").write_text((DATA / "map.toml").read_text())
    forces = (DATA / "forces.toml").read_text().replace('regulars = ["catalans", 5]',
                                                        'regulars = ["catalans", 4]')
    (tmp_path / "forces.toml").write_text(forces)
    with pytest.raises(ComponentError, match=r"regulars: strength = 4; the rulebook prints 5"):
        load_board(tmp_path)
    forces = (DATA / "forces.toml").read_text().replace('coronela = ["catalans", 3]',
                                                        'coronela = ["catalans", true]')
    (tmp_path / "forces.toml").write_text(forces)  # a bool is not a strength
    with pytest.raises(ComponentError, match=r"\[kinds\] coronela: must be \[side, strength"):
        load_board(tmp_path)


def test_the_wall_and_the_royal_breach_as_the_map_draws_them():
    """2.2.1 (red lines are walls, breaches the only way across), 7 (the Royal Breach,
    closed until assured) and 12 (barricades on open ground), read from map.toml."""
    lines = BOARD.pair[L.PAIR_LINE]
    outside, wall = wall_zones(BOARD.zone[:, L.Z_DEPLOYMENT], lines)
    ids = NAMES.zone_ids
    assert {ids[z] for z in np.flatnonzero(outside)} >= {
        "left_two_crowns", "trenches_santa_clara", "moat_santa_clara", "moat_portal_nou"}
    assert all(BOARD.zone[z, L.Z_COLOUR] == L.GREY for z in np.flatnonzero(wall)
               if ids[z] != "breach_terreplein")
    out, inner = behind_royal_breach(lines)
    assert {ids[out], ids[inner]} == {"moat_santa_clara", "breach_terreplein"}
    crossable = [ids[z] for z in range(N) if lines[zone("breach_terreplein"), z]
                 not in (L.NO_SIDE, L.LINE_RED)]
    assert sorted(crossable) == ["moat_santa_clara", "portal_nou_street", "rec_comtal",
                                 "santa_clara_cloister"]
    # with the breach closed the Two Crowns come in through the city: a breach, a bastion
    # and a street at least, four zones from the moat in front of the Royal Breach
    for breach, far in ((False, 5), (True, 1)):
        s, p = blank(breach=breach)
        put(s, units_of(L.BOURBONS)[:1], "moat_santa_clara")
        dist, _, _ = reach(s, p, L.BOURBONS, "moat_santa_clara", allowance=9)
        assert dist[zone("breach_terreplein")] == far
    # behind it, open ground where a barricade can face the breach zone
    s, _ = blank()
    for zid in ("rec_comtal", "portal_nou_street"):
        assert M.barricade_side_ok(s, BOARD, zone(zid), zone("breach_terreplein"))


@pytest.mark.parametrize("old, new, message", [
    ('zones = ["bastion_portal_nou", "breach_terreplein"]\nline = "red"',
     'zones = ["bastion_portal_nou", "breach_terreplein"]',
     "'breach_terreplein', behind the Royal Breach, is entered from 'bastion_portal_nou' "
     "along the wall"),
    ('id = "curtain_sant_pere"\nname = "Curtain of Sant Pere"\ncolour = "grey"',
     'id = "curtain_sant_pere"\nname = "Curtain of Sant Pere"\ncolour = "ochre"',
     r"curtain_sant_pere: a zone of the wall .* grey"),
    ('id = "boria"\nname = "Boria"\ncolour = "ochre"',
     'id = "boria"\nname = "Boria"\ncolour = "green"', "boria: green zones are outside"),
    ('zones = ["moat_santa_clara", "moat_llevant"]',
     'zones = ["moat_santa_clara", "moat_llevant"]\nline = "breach"',
     "does not cross the wall"),
])
def test_a_map_whose_wall_breaks_the_rules_is_refused(tmp_path, old, new, message):
    for name in ("map.toml", "forces.toml", "events.toml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    text = (DATA / "map.toml").read_text()
    assert old in text
    (tmp_path / "map.toml").write_text(text.replace(old, new))
    with pytest.raises(ComponentError, match=message):
        load_board(tmp_path)


def test_a_stacking_limit_below_the_set_up_s_stacks_is_refused():
    """6.1 holds from the set-up on: forces.toml stacks 3 units in a zone, so a limit of
    2 could not be set up (it once started over the limit and broke the state check)."""
    with pytest.raises(RulesError, match=r"stacking_limit = 2: .* stacks 3 units in "
                                         r"\w+, so with these forces the limit can be 3..10"):
        simulate("setembre1714", 2, rules={"stacking_limit": 2})
    assert len(simulate("setembre1714", 2, rules={"stacking_limit": 3})) == 2


# -- Example of artillery fire (rule 9) ----------------------------------------------------------

def test_example_of_artillery_fire():
    s, p = blank()
    regulars = units_of(L.CATALANS, "regulars")[0]
    grenadiers = units_of(L.BOURBONS, "french_grenadiers")[0]
    put(s, [regulars], "bastion_llevant")
    put(s, [grenadiers], "moat_llevant")
    bourbon_gun = [g for g in range(BOARD.gun.shape[0])
                   if BOARD.gun[g, L.G_START] == zone("trenches_llevant")][0]
    catalan_gun = [g for g in range(BOARD.gun.shape[0])
                   if BOARD.gun[g, L.G_START] == zone("bastion_llevant")][0]
    s[L.S_GUN_ZONE + bourbon_gun] = zone("trenches_llevant")
    s[L.S_GUN_ZONE + catalan_gun] = zone("bastion_llevant")
    assert BOARD.pair[L.PAIR_RANGE, zone("trenches_llevant"), zone("bastion_llevant")] == 2
    # the Bourbon gun, two zones away, rolls a 4: a miss (5-6 needed)
    rng = loaded(L.N_STREAMS, rolls={L.ST_ARTILLERY: [4]})
    C.artillery_phase(rng, s, BOARD, p, GREEDY, L.BOURBONS, no_log())
    assert s[L.S_UNIT_ZONE + regulars] == zone("bastion_llevant")
    assert s[L.S_ACTIONS + L.A_SHOTS] == 1
    # the Catalan gun in the bastion fires at the adjacent grenadiers: a 5 eliminates them
    rng = loaded(L.N_STREAMS, rolls={L.ST_ARTILLERY: [5]})
    log = new_log()
    C.artillery_phase(rng, s, BOARD, p, GREEDY, L.CATALANS, log)
    assert s[L.S_UNIT_ZONE + grenadiers] == L.ELIMINATED
    assert lost_units(log) == [(NAMES.units[grenadiers], "moat_llevant")]


def test_catalan_guns_fire_only_at_adjacent_zones_bourbon_guns_at_two():
    s, p = blank()
    put(s, units_of(L.BOURBONS)[:1], "trenches_llevant")  # two zones from the bastion
    gun = [g for g in range(BOARD.gun.shape[0])
           if BOARD.gun[g, L.G_START] == zone("bastion_llevant")][0]
    s[L.S_GUN_ZONE + gun] = zone("bastion_llevant")
    assert POL.choose_gun_target(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, gun, 1,
                                 loaded(L.N_STREAMS)) == -1
    assert POL.choose_gun_target(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, gun, 2,
                                 loaded(L.N_STREAMS)) == zone("trenches_llevant")


def test_each_gun_fires_once_or_twice_with_the_event_or_not_at_all():
    s, p = blank()
    put(s, units_of(L.CATALANS)[:5], "bastion_llevant")
    for g in range(BOARD.gun.shape[0]):
        if BOARD.gun[g, L.G_SIDE] == L.BOURBONS:
            s[L.S_GUN_ZONE + g] = BOARD.gun[g, L.G_START]
    guns = int((BOARD.gun[:, L.G_SIDE] == L.BOURBONS).sum())
    for shots_per_gun in (0, 1, 2):
        t = s.copy()
        t[L.S_EV_ARTILLERY] = shots_per_gun
        C.artillery_phase(loaded(L.N_STREAMS), t, BOARD, p, GREEDY, L.BOURBONS, no_log())
        # only the two Llevant trench guns are within range of the bastion
        ranges = BOARD.pair[L.PAIR_RANGE, :, zone("bastion_llevant")]
        in_range = sum(1 for side, start in BOARD.gun
                       if side == L.BOURBONS and ranges[start] <= 2)
        assert t[L.S_ACTIONS + L.A_SHOTS] == shots_per_gun * in_range
        assert in_range < guns


# -- Example of movement (rule 10) ----------------------------------------------------------------

def reach(s, p, side, zid, piece=M.PIECE_UNIT, allowance=3):
    stop = np.zeros(N, np.int64)
    dist = np.zeros(N, np.int64)
    parent = np.zeros(N, np.int64)
    M.stop_zones(s, BOARD, p, side, stop)
    M.reachable(s, BOARD, p, side, zone(zid), piece, allowance, stop, dist, parent)
    return dist, parent, stop


def test_example_of_movement():
    s, p = blank()
    unit = units_of(L.BOURBONS)[0]
    put(s, [unit], "bastion_portal_nou")
    put(s, units_of(L.CATALANS)[:2], "carders")
    gun = [g for g in range(BOARD.gun.shape[0]) if BOARD.gun[g, L.G_SIDE] == L.CATALANS][0]
    s[L.S_GUN_ZONE + gun] = zone("portal_nou_street")
    dist, parent, stop = reach(s, p, L.BOURBONS, "bastion_portal_nou")
    # the gun alone does not stop the unit; the zone next to Catalan units does
    assert dist[zone("portal_nou_street")] == 1 and not stop[zone("portal_nou_street")]
    assert dist[zone("rec_comtal")] == 2 and stop[zone("rec_comtal")]
    assert dist[zone("sant_agusti_cloister")] == -1  # beyond the stop
    assert dist[zone("carders")] == -1  # an enemy zone is entered only by assault
    M.move_unit(s, BOARD, unit, zone("rec_comtal"), parent, no_log())
    assert s[L.S_GUN_ZONE + gun] == L.ELIMINATED  # captured on the way
    assert s[L.S_GUNS_LOST + L.CATALANS] == 1
    assert s[L.S_UNIT_ZONE + unit] == zone("rec_comtal")


def test_three_zones_and_a_unit_starting_next_to_the_enemy_moves_freely():
    s, p = blank()
    put(s, units_of(L.BOURBONS)[:1], "moat_portal_nou")
    put(s, units_of(L.CATALANS)[:1], "bastion_portal_nou")
    dist, _, _ = reach(s, p, L.BOURBONS, "moat_portal_nou")
    assert dist[zone("moat_jonqueres")] == 1  # the start next to the enemy does not matter
    assert dist[zone("trenches_jonqueres")] == 2
    assert dist.max() <= 3
    dist4, _, _ = reach(s, p, L.BOURBONS, "moat_portal_nou", allowance=4)
    assert dist4.max() == 4


def test_deployment_zones_stop_movement_and_have_no_stacking_limit():
    s, p = blank()
    put(s, units_of(L.BOURBONS)[:12], "centre_two_crowns")  # more than 5: allowed (6.2)
    put(s, units_of(L.BOURBONS)[12:13], "trenches_portal_nou")
    dist, parent, stop = reach(s, p, L.BOURBONS, "trenches_portal_nou")
    assert stop[zone("centre_two_crowns")] and dist[zone("centre_two_crowns")] == 1
    assert all(z < 0 or not BOARD.zone[z, L.Z_DEPLOYMENT] for z in parent)  # never through one
    E.enforce_stacking(loaded(L.N_STREAMS), s, BOARD, p, GREEDY[L.BOURBONS], L.BOURBONS, no_log())
    assert B.count(s, L.BOURBONS, zone("centre_two_crowns")) == 12


def test_red_lines_are_never_crossed_and_the_royal_breach_only_once_assured():
    for breach in (False, True):
        s, p = blank(breach=breach)
        put(s, units_of(L.BOURBONS)[:1], "moat_santa_clara")
        dist, parent, _ = reach(s, p, L.BOURBONS, "moat_santa_clara")
        assert (dist[zone("breach_terreplein")] == 1) == breach
        for z in range(N):
            if parent[z] >= 0:
                line = BOARD.pair[L.PAIR_LINE, parent[z], z]
                assert line != L.LINE_RED
                assert line != L.LINE_ROYAL or breach
        # the redoubt's walls: red towards the bastions
        redoubt, bastion = zone("redoubt_santa_eulalia"), zone("bastion_portal_nou")
        assert BOARD.pair[L.PAIR_LINE, redoubt, bastion] == L.LINE_RED


@pytest.mark.parametrize("reading", ["yes", "no"])
def test_a_unit_stops_next_to_enemies_across_a_wall_under_the_yes_reading(reading):
    """10: "when a moving unit enters a zone adjacent to enemy combat units it must stop";
    9 fires at "adjacent zones (bordering)", across walls too. The Two Crowns hold the
    Bastion of Santa Clara, whose flanks are red lines towards the terreplein behind the
    Royal Breach and the Santa Clara cloister: under the reading ``stop_across_walls =
    yes`` a Catalan unit from Rec Comtal stops on entering either; under ``no`` (2.2.1:
    "there cannot be movement or combat through them") it moves on."""
    s, p = blank(Rules(stop_across_walls=reading), breach=False)
    put(s, units_of(L.BOURBONS)[:1], "bastion_santa_clara")
    put(s, units_of(L.CATALANS)[:1], "rec_comtal")
    dist, _, stop = reach(s, p, L.CATALANS, "rec_comtal")
    for zid in ("breach_terreplein", "santa_clara_cloister"):
        assert stop[zone(zid)] == (reading == "yes")
    assert dist[zone("breach_terreplein")] == 1
    # beyond the terreplein: the moat's side is the closed Royal Breach; through it, no
    # unit moves (7) under either reading
    assert dist[zone("moat_santa_clara")] == -1


def test_salvos_are_fired_through_the_closed_royal_breach_but_no_assault_crosses_it():
    """7: "None of the units can cross the Royal Breach until it has been assured": the
    closed breach forbids crossing, not fire; 2.2.1 forbids "movement or combat" only
    through red lines. Two Crowns in the Santa Clara moat and Catalans on the terreplein
    (both open ground, 11.2's equal defence) may fire salvos at each other through the
    closed breach; neither may assault; nor may anyone fire through the red flank of the
    Bastion of Portal Nou."""
    s, p = blank(breach=False)
    put(s, units_of(L.BOURBONS)[:3], "moat_santa_clara")
    put(s, units_of(L.CATALANS)[:2], "breach_terreplein")
    put(s, units_of(L.BOURBONS)[3:4], "bastion_portal_nou")
    moat, terreplein = zone("moat_santa_clara"), zone("breach_terreplein")
    assert B.salvo_allowed(s, BOARD, p, L.BOURBONS, moat, terreplein)
    assert B.salvo_allowed(s, BOARD, p, L.CATALANS, terreplein, moat)
    assert not B.assault_allowed(s, BOARD, L.BOURBONS, moat, terreplein)
    assert not B.assault_allowed(s, BOARD, L.CATALANS, terreplein, moat)
    bastion = zone("bastion_portal_nou")
    assert not B.salvo_allowed(s, BOARD, p, L.BOURBONS, bastion, terreplein)  # red flank
    out = np.zeros(4, np.int64)
    POL.next_combat(s, BOARD, p, GREEDY[L.BOURBONS], L.BOURBONS, loaded(L.N_STREAMS), out)
    assert (out[0], out[1], out[2]) == (POL.K_SALVO, moat, terreplein)
    s[L.S_BREACH_TURN] = 1  # assured: the breach may be crossed as well
    assert B.assault_allowed(s, BOARD, L.BOURBONS, moat, terreplein)


def test_stacking_limit_blocks_full_zones_and_overstack_is_eliminated():
    s, p = blank()
    put(s, units_of(L.CATALANS)[:5], "born")
    put(s, units_of(L.CATALANS)[5:6], "montcada")
    dist, _, _ = reach(s, p, L.CATALANS, "montcada")
    assert dist[zone("born")] == -1  # full
    assert dist[zone("santa_maria_del_mar")] == 1
    put(s, units_of(L.CATALANS)[6:8], "born")  # reinforcements may overstack (10.1) ...
    weakest = min(units_of(L.CATALANS)[:5] + units_of(L.CATALANS)[6:8],
                  key=lambda u: BOARD.unit[u, L.U_STRENGTH])
    E.enforce_stacking(loaded(L.N_STREAMS), s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, no_log())
    assert B.count(s, L.CATALANS, zone("born")) == 5  # ... but the excess is eliminated
    assert s[L.S_UNIT_ZONE + weakest] == L.ELIMINATED
    assert s[L.S_OVERSTACK + L.CATALANS] == 2


def test_barricades_move_on_open_ground_and_face_open_zones():
    s, p = blank()
    put(s, units_of(L.CATALANS)[:1], "rec_comtal")
    s[L.S_BARRICADE_ZONE] = zone("born")
    s[L.S_BARRICADE_FACES] = zone("carders")
    dist, _, _ = reach(s, p, L.CATALANS, "born", piece=M.PIECE_BARRICADE)
    assert dist[zone("carders")] == 1 and dist[zone("rec_comtal")] == 2
    assert dist[zone("ribera_upper")] == -1  # grey
    assert M.barricade_side_ok(s, BOARD, zone("rec_comtal"), zone("carders"))
    assert not M.barricade_side_ok(s, BOARD, zone("born"), zone("pla_llull"))  # blue line
    assert not M.barricade_side_ok(s, BOARD, zone("born"), zone("ribera_upper"))  # grey
    assert not M.barricade_side_ok(s, BOARD, zone("moat_santa_clara"),
                                   zone("breach_terreplein"))  # a breach in a red line


@pytest.mark.parametrize("reading", ["yes", "no"])
def test_barricades_stop_next_to_the_enemy_only_under_the_yes_reading(reading):
    """10: "when a moving unit enters a zone adjacent to enemy combat units it must stop"
    (barricades are special units, 2.1); 12: "They can move 3 ochre or green zones". A
    barricade in Pla de Palau reaches Carders through Born, which borders the Two Crowns
    in the upper Ribera: it stops in Born under ``barricades_stop = yes``, not under
    ``no``."""
    s, p = blank(Rules(barricades_stop=reading))
    put(s, units_of(L.BOURBONS)[:1], "ribera_upper")
    dist, _, stop = reach(s, p, L.CATALANS, "pla_de_palau", piece=M.PIECE_BARRICADE)
    assert stop[zone("born")] and dist[zone("born")] == 1
    assert dist[zone("carders")] == (-1 if reading == "yes" else 2)


# -- Example of combat (rule 11): salvo, then two assaults -----------------------------------------

def combat_example():
    """Figure A: French units in the upper grey zone (ribera_upper), five Catalans in the
    big ochre zone (born) behind a barricade facing carders, a Catalan unit and commander
    in the adjacent grey zone (ribera_lower), a Catalan unit in the Santa Clara convent."""
    s, p = blank()
    french = units_of(L.BOURBONS, "french_line")
    grenadiers = units_of(L.BOURBONS, "french_grenadiers")
    put(s, french[:4], "ribera_upper")
    put(s, [grenadiers[0]] + french[4:8], "carders")
    put(s, [grenadiers[1]] + french[8:12], "pla_llull")
    fusiliers = units_of(L.CATALANS, "mountain_fusiliers")
    coronela = units_of(L.CATALANS, "coronela")
    put(s, fusiliers[:4] + coronela[:1], "born")
    put(s, coronela[1:2], "ribera_lower")
    put(s, coronela[2:3], "santa_clara_church")
    commander = [k for k in range(len(NAMES.leaders)) if BOARD.leader[k, L.L_SIDE] == L.CATALANS
                 and not BOARD.leader[k, L.L_FLAG]][0]
    s[L.S_LEADER_ZONE + commander] = zone("ribera_lower")
    s[L.S_BARRICADE_ZONE] = zone("born")
    s[L.S_BARRICADE_FACES] = zone("carders")
    return s, p, grenadiers, fusiliers, coronela, commander


def test_example_of_combat_salvo():
    s, p, _, _, coronela, _ = combat_example()
    up = zone("ribera_upper")
    assert not B.salvo_allowed(s, BOARD, p, L.BOURBONS, up, zone("santa_clara_church"))
    assert B.salvo_allowed(s, BOARD, p, L.BOURBONS, up, zone("ribera_lower"))
    assert B.salvo_allowed(s, BOARD, p, L.BOURBONS, up, zone("born"))
    # the barricade and the Travessera block salvoes across the sides they cover
    assert not B.salvo_allowed(s, BOARD, p, L.BOURBONS, zone("carders"), zone("born"))
    assert not B.salvo_allowed(s, BOARD, p, L.BOURBONS, zone("pla_llull"), zone("born"))
    rng = loaded(L.N_STREAMS, rolls={L.ST_SALVO: [4, 1, 3, 6]})
    C.salvo(rng, s, BOARD, p, GREEDY, L.BOURBONS, up, zone("born"), no_log())
    assert B.count(s, L.CATALANS, zone("born")) == 4
    assert s[L.S_UNIT_ZONE + coronela[0]] == L.ELIMINATED  # the defender's choice


def test_example_of_combat_first_assault():
    s, p, grenadiers, fusiliers, coronela, commander = combat_example()
    B.eliminate_unit(s, BOARD, coronela[0], 1, no_log())  # the salvo's casualty
    born, carders = zone("born"), zone("carders")
    attack, defence = C.assault_totals(s, BOARD, p, L.BOURBONS, carders, born, grenadiers[0],
                                       fusiliers[0], -1, commander, -1)
    assert (attack, defence) == (9, 12)
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [5, 2], L.ST_COMMANDER: [6]})
    log = new_log()
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, carders, born, grenadiers[0],
                    fusiliers[0], -1, commander, -1, False, log)
    assert s[L.S_UNIT_ZONE + grenadiers[0]] == L.ELIMINATED  # 14 to 14: the defender wins
    assert B.count(s, L.BOURBONS, carders) == 4
    assert B.count(s, L.CATALANS, born) == 4
    assert s[L.S_LEADER_ZONE + commander] == L.ELIMINATED  # the casualty roll of 6
    assert s[L.S_LEADERS_LOST + L.CATALANS] == 1


def test_example_of_combat_first_assault_as_the_players_choose():
    """The same assault through the policies: the Catalan greedy player uses the adjacent
    commander and does not withdraw (9 against 12)."""
    s, p, grenadiers, fusiliers, coronela, commander = combat_example()
    B.eliminate_unit(s, BOARD, coronela[0], 1, no_log())
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [5, 2], L.ST_COMMANDER: [6]})
    log = new_log()
    C.assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("carders"), zone("born"), False, log)
    values = [e for e in events(log) if e[0] == EVENTS.rows[[r[1] for r in EVENTS.rows]
                                                           .index("assault_values")][0]]
    assert [tuple(v[1:]) for v in values] == [(9, 12, 0)]
    assert s[L.S_UNIT_ZONE + grenadiers[0]] == L.ELIMINATED


def test_example_of_combat_second_assault_with_withdrawal():
    s, p, grenadiers, fusiliers, coronela, commander = combat_example()
    B.eliminate_unit(s, BOARD, coronela[0], 1, no_log())
    B.eliminate_unit(s, BOARD, grenadiers[0], 2, no_log())
    B.eliminate_leader(s, BOARD, commander, no_log())
    born, llull = zone("born"), zone("pla_llull")
    attack, defence = C.assault_totals(s, BOARD, p, L.BOURBONS, llull, born, grenadiers[1],
                                       fusiliers[0], -1, -1, -1)
    assert (attack, defence) == (9, 11)  # fusiliers 5 + 3 units + 3 behind the Travessera
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [5, 6]})
    log = new_log()
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, llull, born, grenadiers[1],
                    fusiliers[0], -1, -1, -1, True, log)
    assert s[L.S_UNIT_ZONE + grenadiers[1]] == L.ELIMINATED  # 14 against 19
    assert B.count(s, L.CATALANS, born) == 0  # the defenders withdrew ...
    assert all(s[L.S_UNIT_ZONE + u] >= 0 for u in fusiliers[:4])  # ... without losses
    empty_or_friendly = ("ribera_lower", "montcada", "pla_de_palau", "santa_maria_del_mar")
    assert all(s[L.S_UNIT_ZONE + u] in [zone(z) for z in empty_or_friendly]
               for u in fusiliers[:4])
    assert B.count(s, L.BOURBONS, born) >= 1  # the attacker advances
    assert s[L.S_BARRICADE_ZONE] == L.ELIMINATED  # the barricade cannot retreat
    assert s[L.S_ACTIONS + L.CATALANS * L.N_ACTIONS + L.A_WITHDRAWALS] == 1
    # Born is no objective (13): the Two Crowns lost their lead and killed nobody
    used = {a: s[L.S_ACTIONS + L.BOURBONS * L.N_ACTIONS + k] for k, a in enumerate(L.ACTIONS)}
    assert (used["objective_assaults"], used["other_zone_assaults"], used["other_zone_taken"],
            used["other_zone_withdrawn"], used["other_zone_leads_lost"],
            used["other_zone_kills"]) == (0, 1, 1, 1, 1, 0)
    assert s[L.S_BLUNDERS + L.BOURBONS * L.N_BLUNDERS + L.B_FOR_NOTHING] == 1


@pytest.mark.parametrize(("defenders", "room", "overstacked", "lone"),
                         [(4, 5, 0, 0), (4, 1, 3, 0), (1, 5, 0, 1)])
def test_a_withdrawal_s_overstacked_units_are_the_defender_s_blunders(
        defenders, room, overstacked, lone):
    """11.3: withdrawing units "have to go to adjacent zones without enemy units on them
    ... If he is forced to retreat towards a friendly zone where the stacking limit is
    infringed he must eliminate enough units". Four Catalans withdraw from the Bastion of
    Migdia, whose only open neighbour is Pla de Palau: with room for 5 nobody is lost,
    with room for 1 three are; a single defender retreating into an empty Pla de Palau is
    left there alone, next to the zone the enemy takes."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, cat[:defenders], "bastion_migdia")
    put(s, cat[10:10 + 5 - room], "pla_de_palau")
    put(s, bour[:5], "bastion_llevant")
    put(s, bour[5:6], "ribera_lower")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("bastion_llevant"),
                    zone("bastion_migdia"), bour[0], cat[0], -1, -1, -1, True, no_log())
    blunders = s[L.S_BLUNDERS + L.CATALANS * L.N_BLUNDERS:][:L.N_BLUNDERS]
    assert blunders[L.B_OVERSTACKED_WITHDRAWAL] == overstacked
    assert s[L.S_ACTIONS + L.CATALANS * L.N_ACTIONS + L.A_LONE_WITHDRAWALS] == lone
    assert s[L.S_OVERSTACK + L.CATALANS] == overstacked
    assert s[L.S_ACTIONS + L.BOURBONS * L.N_ACTIONS + L.A_OBJECTIVE_ASSAULTS] == 1


def test_defender_surrounded_is_captured_and_gun_taken():
    s, p = blank()
    cat = units_of(L.CATALANS)
    bour = units_of(L.BOURBONS)
    put(s, cat[:2], "redoubt_santa_eulalia")
    put(s, bour[:5], "moat_portal_nou")
    put(s, bour[5:6], "moat_santa_clara")
    put(s, bour[6:7], "trenches_portal_nou")
    put(s, bour[7:8], "trenches_santa_clara")
    gun = [g for g in range(BOARD.gun.shape[0])
           if BOARD.gun[g, L.G_START] == zone("redoubt_santa_eulalia")][0]
    s[L.S_GUN_ZONE + gun] = zone("redoubt_santa_eulalia")
    lead = max(cat[:2], key=lambda u: BOARD.unit[u, L.U_STRENGTH])
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("moat_portal_nou"),
                    zone("redoubt_santa_eulalia"), bour[0], lead, -1, -1, -1, False, no_log())
    assert all(s[L.S_UNIT_ZONE + u] == L.ELIMINATED for u in cat[:2])
    assert s[L.S_CAPTURED + L.CATALANS] == 1
    assert s[L.S_GUN_ZONE + gun] == L.ELIMINATED
    assert B.count(s, L.BOURBONS, zone("redoubt_santa_eulalia")) >= 1


def test_flag_adds_to_a_commander_and_never_rolls():
    s, p, grenadiers, fusiliers, coronela, commander = combat_example()
    flag = list(BOARD.leader[:, L.L_FLAG]).index(1)
    s[L.S_LEADER_ZONE + flag] = zone("born")
    attack, defence = C.assault_totals(s, BOARD, p, L.BOURBONS, zone("carders"), zone("born"),
                                       grenadiers[0], fusiliers[0], -1, commander, flag)
    assert defence == 5 + 4 + 1 + 1 + 3
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [1, 6], L.ST_COMMANDER: [2]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("carders"), zone("born"),
                    grenadiers[0], fusiliers[0], -1, commander, flag, False, no_log())
    assert s[L.S_LEADER_ZONE + flag] == zone("born")
    assert s[L.S_LEADER_ZONE + commander] == zone("ribera_lower")


def test_terrain_is_the_best_of_zone_blue_line_and_barricade():
    s, p = blank()
    put(s, units_of(L.CATALANS)[:1], "born")
    put(s, units_of(L.CATALANS)[1:2], "santa_clara_church")
    assert B.terrain_bonus(s, BOARD, p, zone("born"), zone("carders")) == 0
    assert B.terrain_bonus(s, BOARD, p, zone("born"), zone("pla_llull")) == 3  # blue line
    assert B.terrain_bonus(s, BOARD, p, zone("santa_clara_church"), zone("rec_comtal")) == 3
    assert B.terrain_bonus(s, BOARD, p, zone("bastion_llevant"), zone("moat_llevant")) == 2
    s[L.S_BARRICADE_ZONE] = zone("born")
    s[L.S_BARRICADE_FACES] = zone("carders")
    assert B.terrain_bonus(s, BOARD, p, zone("born"), zone("carders")) == 3
    assert B.terrain_bonus(s, BOARD, p, zone("born"), zone("ribera_upper")) == 0


# -- reinforcements (10.1) ------------------------------------------------------------------------

@pytest.mark.parametrize(("eliminated", "recreated", "lost"), [(16, 16, 0), (25, 20, 5)])
def test_reinforcement_illustration(eliminated, recreated, lost):
    board = BOARD._replace(recovery=np.where(np.arange(BOARD.recovery.shape[0]) == 5, 20, 0))
    s, p = blank(Rules(bourbon_recovery_percent=100))  # the schedule as written: 20
    for u in units_of(L.BOURBONS)[:eliminated]:
        s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    field = np.zeros(N, np.int64)
    E.bourbon_recovery(loaded(L.N_STREAMS), s, board, p, GREEDY[L.BOURBONS], 5, 0, field, no_log())
    zones = s[L.S_UNIT_ZONE:L.S_UNIT_ZONE + len(NAMES.units)]
    assert sum(1 for z in zones if z >= 0 and BOARD.zone[z, L.Z_DEPLOYMENT]) == recreated
    assert (zones == L.LOST).sum() == lost


def test_catalan_reinforcements_enter_r_zones_not_held_by_the_enemy():
    s, p = blank()
    put(s, units_of(L.BOURBONS)[:1], "pla_de_palau")
    field = np.zeros(N, np.int64)
    E.catalan_reinforcements(loaded(L.N_STREAMS), s, BOARD, p, GREEDY[L.CATALANS], 2, 0, field,
                             no_log())
    arrived = [u for u in units_of(L.CATALANS) if BOARD.unit[u, L.U_ARRIVES] == 2]
    assert arrived
    for u in arrived:
        z = s[L.S_UNIT_ZONE + u]
        assert BOARD.zone[z, L.Z_REINFORCEMENT] and z != zone("pla_de_palau")
    later = [u for u in units_of(L.CATALANS) if BOARD.unit[u, L.U_ARRIVES] > 2]
    assert all(s[L.S_UNIT_ZONE + u] == L.NOT_ARRIVED for u in later)


# -- sequence, events, victory (5, 7, 8, 13) -------------------------------------------------------

def test_royal_breach_check_each_bourbon_turn_until_assured():
    rules = Rules(events=False)
    p = rules_vector(rules)
    s = np.zeros(L.N_STATE, np.int64)
    rng = loaded(L.N_STREAMS, per_counter={L.ST_BREACH: {1: 3, 2: 6}})
    E.set_up(rng, s, BOARD, p)
    E.play_turn(rng, s, BOARD, p, GREEDY, 1, no_log())
    assert s[L.S_BREACH_TURN] == 0
    E.play_turn(rng, s, BOARD, p, GREEDY, 2, no_log())
    assert s[L.S_BREACH_TURN] == 2


def test_events_off_draws_no_card_and_a_breach_card_assures_the_breach():
    p = rules_vector(Rules(events=False))
    s, _ = blank()
    assert E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, 0, 1, no_log()) == 0
    assert s[L.S_DECK_TOP] == 0
    p = rules_vector(Rules(breach_cards=2))
    breach_card = [k for k in range(len(NAMES.cards))
                   if BOARD.card[k, L.BOURBONS, L.C_EFFECT] == L.EFF_BREACH][0]
    s, _ = blank(breach=False)
    s[L.S_DECK] = breach_card
    E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, L.BOURBONS, 3, no_log())
    assert s[L.S_BREACH_TURN] == 3 and s[L.S_DECK_TOP] == 1


def test_a_breach_card_does_nothing_when_the_breach_is_never_assured():
    """breach_roll = 7 reads "never" (the breach_never preset): events.toml declares that
    no breach card assures it then, so the setting plays the game without the breach."""
    breach_card = [k for k in range(len(NAMES.cards))
                   if BOARD.card[k, L.BOURBONS, L.C_EFFECT] == L.EFF_BREACH][0]
    p = rules_vector(Rules(breach_roll=7, breach_cards=2))
    s, _ = blank(breach=False)
    s[L.S_DECK] = breach_card
    E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, L.BOURBONS, 3, no_log())
    assert s[L.S_BREACH_TURN] == 0 and s[L.S_DECK_TOP] == 1


def test_a_breach_card_after_the_breach_is_assured_does_nothing():
    """events.toml declares it from rule 7: "Once it has happened the rule has no effect
    on the game"."""
    breach_card = [k for k in range(len(NAMES.cards))
                   if BOARD.card[k, L.BOURBONS, L.C_EFFECT] == L.EFF_BREACH][0]
    s, p = blank(Rules(breach_cards=2), breach=False)
    s[L.S_BREACH_TURN] = 2
    s[L.S_DECK] = breach_card
    log = new_log(64)
    E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, L.BOURBONS, 5, log)
    assert s[L.S_BREACH_TURN] == 2 and s[L.S_DECK_TOP] == 1
    assert [code for code, *_ in events(log)] == [EV_CARD]


@pytest.mark.parametrize("kept", [0, 1, 2])
def test_breach_cards_keeps_the_first_breach_cards_of_the_deck(kept):
    """The reconstruction knob breach_cards: the first ``kept`` breach cards of
    events.toml assure the Royal Breach (8, 7); the others are drawn as blanks."""
    breach = list(breach_cards_in(BOARD))
    assert len(breach) == 2
    p = rules_vector(Rules(breach_cards=kept))
    for rank, card in enumerate(breach):
        s, _ = blank(breach=False)
        s[L.S_DECK] = card
        E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, L.BOURBONS, 3, no_log())
        assert s[L.S_DECK_TOP] == 1
        assert s[L.S_BREACH_TURN] == (3 if rank < kept else 0)


def test_breach_cards_beyond_the_deck_s_are_refused():
    with pytest.raises(RulesError, match="holds 2 breach cards, so it can be 0..2"):
        FULL.resolve_rules({"breach_cards": 3})
    with pytest.raises(RulesError, match="breach_cards"):
        FULL.resolve_rules({"breach_cards": -1})


@pytest.mark.parametrize(("knob", "value"), [("breach_cards", 2),
                                             ("bourbon_recovery_percent", 100)])
def test_the_calibrated_reconstruction_knobs_change_games(knob, value):
    """Each declared reconstruction changes games; the calibration's defaults (17%: 1
    unit at each scheduled turn, no breach card) and reconstruction_2025 (the data files'
    full schedule and both breach cards) are declared as such."""
    assert Rules.knob("breach_cards").default == 0
    assert Rules.knob("bourbon_recovery_percent").default == 17
    assert 6 * Rules().bourbon_recovery_percent // 100 == 1
    assert Rules.knob(knob).role == "reconstruction" and value in Rules.knob(knob).alternatives
    before = FULL.presets["reconstruction_2025"].rules
    assert (before.breach_cards, before.bourbon_recovery_percent) == (
        len(breach_cards_in(BOARD)), 100)
    columns = ["winner", "breach_turn", "bourbon_vp", "catalan_vp"]
    base = simulate(FULL, 200, seed=5)[columns].to_numpy()
    other = simulate(FULL, 200, seed=5, rules={knob: value})[columns].to_numpy()
    assert (base != other).any()


@pytest.mark.parametrize("reading", ["no_events", "reshuffle"])
def test_an_exhausted_deck_draws_nothing_or_is_reshuffled(reading):
    """The exhausted_deck reading: 8 and 5.1.6 remove used cards from the game
    (no_events); 5.1.2 draws a card every half-turn (reshuffle)."""
    n_cards = BOARD.card.shape[0]
    s, p = blank(Rules(exhausted_deck=reading))
    s[L.S_DECK:L.S_DECK + n_cards] = np.arange(n_cards)
    s[L.S_DECK_TOP] = n_cards
    log = new_log(64)
    E.event_phase(loaded(L.N_STREAMS), s, BOARD, p, GREEDY, L.CATALANS, 10, log)
    drawn = [code for code, *_ in events(log)].count(EV_CARD)
    assert drawn == (reading == "reshuffle")
    assert s[L.S_DECK_TOP] == (1 if reading == "reshuffle" else n_cards)
    assert sorted(s[L.S_DECK:L.S_DECK + n_cards]) == list(range(n_cards))
    # over a whole 12-turn game (the first of seed 1 that lasts them): 18 cards, or one
    # every half-turn
    rules = FULL.resolve_rules("long_day").replace(exhausted_deck=reading)
    for game in range(40):
        lines = FULL.trace(rules, None, game, 1)
        half_turns = sum(1 for line in lines if line.startswith("-- "))
        if half_turns >= 24:
            break
    assert half_turns >= 24
    cards = sum(1 for line in lines if line.lstrip().startswith("Event:"))
    assert cards == (half_turns if reading == "reshuffle" else n_cards)


def test_annihilation_counts_the_catalan_units_still_to_come():
    """13: the Two Crowns win automatically if they "Annihilates all the Catalan units";
    4: "Some Catalan units don't start the game on the map, as they enter on later turns
    as reinforcements". With the map empty of Catalans but one reinforcement still to
    come, not every Catalan unit has been annihilated; once it is gone too, they all
    have (and without reinforcements, an empty map is enough)."""
    s, p = blank()
    cat = units_of(L.CATALANS)
    late = [u for u in cat if BOARD.unit[u, L.U_ARRIVES] > 0][0]
    for u in cat:
        s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    s[L.S_UNIT_ZONE + late] = L.NOT_ARRIVED
    assert not E.annihilated(s, BOARD, p)
    assert E.annihilated(s, BOARD, rules_vector(Rules(catalan_reinforcements=False)))
    s[L.S_UNIT_ZONE + late] = L.ELIMINATED
    assert E.annihilated(s, BOARD, p)


def test_objectives_automatic_victory_and_vp_count():
    s, p = blank()
    bour = units_of(L.BOURBONS)
    i = 0
    for z in range(N):
        if BOARD.zone[z, L.Z_OBJECTIVE] >= 0 and BOARD.zone[z, L.Z_OBJECTIVE] != L.PALAU:
            B.place_unit(s, BOARD, bour[i], z)
            i += 1
    put(s, units_of(L.CATALANS)[:1], "pla_de_palau")
    assert E.objectives_held(s, BOARD, L.BOURBONS) == 11
    for u in units_of(L.CATALANS)[1:4]:  # three in the eliminated pile
        s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    s[L.S_UNITS_LOST + L.CATALANS] = 3
    s[L.S_LEADERS_LOST + L.CATALANS] = 1
    assert E.victory_points(s, BOARD, p, L.BOURBONS) == 3 + 2 + 6 * 2 + 5 * 4
    assert E.victory_points(s, BOARD, p, L.CATALANS) == 4  # Pla de Palau
    # a convent of two zones needs both
    B.eliminate_unit(s, BOARD, bour[[z for z in range(N) if BOARD.zone[z, L.Z_OBJECTIVE] >= 0
                                     and BOARD.zone[z, L.Z_OBJECTIVE] != L.PALAU]
                                    .index(zone("santa_clara_church"))], 0, no_log())
    assert not B.holds(s, BOARD, L.BOURBONS, L.OBJECTIVES.index("convent_santa_clara"))


@pytest.mark.parametrize("extra_turn", [True, False])
def test_a_draw_extends_the_game_one_turn(extra_turn):
    zero = {k: 0 for k in ("vp_unit", "vp_commander", "vp_bastion", "vp_convent",
                           "vp_pla_de_palau")}
    cols = FULL.simulate({**zero, "extra_turn": extra_turn, "turns": 3}, None, np.arange(6), 5)
    for reason, turns, winner in zip(cols["end_reason"], cols["turns"], cols["winner"],
                                     strict=True):
        if L.END_REASONS[reason] == "draw":
            assert turns == (4 if extra_turn else 3)
            assert L.WINNERS[winner] == "tie"


# -- whole games: properties ---------------------------------------------------------------

@pytest.mark.parametrize("policy", ["greedy", "random", {"bourbons": "cautious",
                                                          "catalans": "fallback"}])
def test_properties_hold_after_every_half_turn(policy):
    pol = policy_rows(policy)
    p = rules_vector(Rules())
    total = len(NAMES.units)
    for game in range(6):
        s = np.zeros(L.N_STATE, np.int64)
        rng = loaded(L.N_STREAMS, seed=game)
        E.set_up(rng, s, BOARD, p)
        for turn in range(1, 9):
            s[L.S_TURN] = turn
            for side in (L.BOURBONS, L.CATALANS):
                E.half_turn(rng, s, BOARD, p, pol, side, turn, no_log())
                zones = s[L.S_UNIT_ZONE:L.S_UNIT_ZONE + total]
                for z in range(N):
                    b_here = ((zones == z) & (BOARD.unit[:, L.U_SIDE] == 0)).sum()
                    c_here = ((zones == z) & (BOARD.unit[:, L.U_SIDE] == 1)).sum()
                    assert B.count(s, 0, z) == b_here and B.count(s, 1, z) == c_here
                    assert not (b_here and c_here), "one side a zone (6.1)"
                    if not BOARD.zone[z, L.Z_DEPLOYMENT]:
                        assert b_here <= 5 and c_here <= 5, "stacking (6.1)"
                assert ((zones >= 0) | (zones == L.NOT_ARRIVED) | (zones == L.ELIMINATED)
                        | (zones == L.LOST)).all()
                lost = (zones == L.ELIMINATED).sum() + (zones == L.LOST).sum()
                assert lost <= s[L.S_UNITS_LOST] + s[L.S_UNITS_LOST + 1]


def test_no_move_crosses_a_red_line_in_traced_games():
    move = [r[0] for r in EVENTS.rows if r[1] == "move"][0]
    lines = BOARD.pair[L.PAIR_LINE]
    no_red = _distances((lines != L.NO_SIDE) & (lines != L.LINE_RED))
    for game in range(3):
        log = new_log(50000)
        E.play_games(BOARD, rules_vector(Rules()), GREEDY, np.array([game]), 7, log)
        moves = [(a, b) for code, _, a, b in events(log) if code == move]
        assert moves
        for a, b in moves:
            assert 1 <= no_red[a, b] <= 4  # 3 zones, 4 with the forced-march event


def test_registered_and_rules_knobs():
    assert games.get("setembre1714") is FULL
    assert "setembre1714" in games.names() and "setembre1714" not in games.in_progress()
    with pytest.raises(RulesError):
        Rules(turns=0)
    with pytest.raises(RulesError):
        Rules(stacking_limit=11)
    assert FULL.presets["no_events"].rules.events is False
    assert FULL.presets["all_rules"].rules == Rules()


def test_trace_tells_the_game_and_ends_with_the_row():
    cols = FULL.simulate(None, None, np.arange(2), 3)
    lines = FULL.trace(None, None, 1, 3)
    assert lines[-1] == FULL.result_line(L.WINNERS[cols["winner"][1]],
                                         L.END_REASONS[cols["end_reason"][1]],
                                         cols["turns"][1])
    assert any("Royal Breach check" in line for line in lines)
    assert any("Assault from" in line for line in lines)


@pytest.mark.parametrize("surrounded", [False, True])
def test_a_lone_flag_falls_back_before_moving_enemies_and_is_lost_only_when_surrounded(
        surrounded):
    """13: the flag "moves ... exactly as a commander" and "cannot be eliminated during
    assaults ... The only way of being eliminated is during a retreat, if it is
    surrounded by enemies (in the same manner that the rest of units)"; 11.3: commanders
    "must retreat if their troops do the same ... If the leader is surrounded he is
    captured". Alone in Carders, the flag retreats when Two Crowns units move in (the
    Example of movement: they may enter a zone without enemy combat units); it goes to
    the Catalans in Born, or, with every zone around Carders in enemy hands, it is lost.
    The rulebook gives a leader no other way out of a zone enemy units enter, so this
    fall-back is the retreat of 13."""
    s, p = blank()
    flag = list(BOARD.leader[:, L.L_FLAG]).index(1)
    s[L.S_LEADER_ZONE + flag] = zone("carders")
    bour = units_of(L.BOURBONS)
    put(s, bour[:2], "rec_comtal")  # one moves, one stays
    if surrounded:
        for k, zid in enumerate(("sant_agusti_church", "convent_santa_caterina", "born")):
            put(s, bour[2 + k:3 + k], zid)
    else:
        put(s, units_of(L.CATALANS)[:1], "born")
    _, parent, _ = reach(s, p, L.BOURBONS, "rec_comtal")
    M.move_unit(s, BOARD, bour[0], zone("carders"), parent, no_log())
    if surrounded:
        assert s[L.S_LEADER_ZONE + flag] == L.ELIMINATED and s[L.S_FLAG_LOST] == 1
    else:
        assert s[L.S_LEADER_ZONE + flag] == zone("born") and s[L.S_FLAG_LOST] == 0


def test_flag_is_lost_only_when_surrounded_in_a_retreat():
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    flag = list(BOARD.leader[:, L.L_FLAG]).index(1)
    put(s, cat[:1], "redoubt_santa_eulalia")
    s[L.S_LEADER_ZONE + flag] = zone("redoubt_santa_eulalia")
    put(s, bour[:5], "moat_portal_nou")
    put(s, bour[5:6], "moat_santa_clara")
    put(s, bour[6:7], "trenches_portal_nou")
    put(s, bour[7:8], "trenches_santa_clara")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("moat_portal_nou"),
                    zone("redoubt_santa_eulalia"), bour[0], cat[0], -1, -1, flag, False,
                    no_log())
    assert s[L.S_LEADER_ZONE + flag] == L.ELIMINATED and s[L.S_FLAG_LOST] == 1
    assert s[L.S_LEADERS_LOST + L.CATALANS] == 0  # the flag is not a commander's 2 VP


def test_catalans_retreat_into_an_empty_two_crowns_deployment_zone():
    """11.3: retreating units "have to go to adjacent zones without enemy units on them";
    "If the units can't retreat because they are surrounded by enemy units they are
    captured". Two Catalan units in the trenches before Llevant lose an assault; the Two
    Crowns hold every zone around but the empty Right Two Crowns deployment zone (6.2:
    no stacking limit there), so the survivor and the commander with them retreat into
    it rather than being captured."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, cat[:2], "trenches_llevant")
    put(s, bour[:5], "trenches_santa_clara")
    put(s, bour[5:6], "shore_llevant")
    put(s, bour[6:7], "moat_llevant")
    commander = commander_of(L.CATALANS)
    s[L.S_LEADER_ZONE + commander] = zone("trenches_llevant")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("trenches_santa_clara"),
                    zone("trenches_llevant"), bour[0], cat[0], -1, -1, -1, False, no_log())
    assert s[L.S_UNIT_ZONE + cat[1]] == zone("right_two_crowns")
    assert s[L.S_CAPTURED + L.CATALANS] == 0
    assert s[L.S_LEADER_ZONE + commander] == zone("right_two_crowns")


def test_reinforce_event_returns_eliminated_catalans_into_r_zones():
    s, p = blank()
    gone = units_of(L.CATALANS)[:3]
    for u in gone:
        s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    field = np.zeros(N, np.int64)
    E.catalan_reinforcements(loaded(L.N_STREAMS), s, BOARD, p, GREEDY[L.CATALANS], 1, 2, field,
                             no_log())
    back = [u for u in gone if s[L.S_UNIT_ZONE + u] >= 0]
    assert len(back) == 2
    assert all(BOARD.zone[s[L.S_UNIT_ZONE + u], L.Z_REINFORCEMENT] for u in back)


def test_bourbon_commander_adjacent_adds_one_and_rolls_for_casualty():
    s, p = blank()
    cat, bour = units_of(L.CATALANS, "coronela"), units_of(L.BOURBONS, "french_line")
    put(s, cat[:2], "born")
    put(s, bour[:3], "carders")
    cmdr = [k for k in range(BOARD.leader.shape[0]) if BOARD.leader[k, L.L_SIDE] == L.BOURBONS][0]
    s[L.S_LEADER_ZONE + cmdr] = zone("carders")
    attack, defence = C.assault_totals(s, BOARD, p, L.BOURBONS, zone("carders"), zone("born"),
                                       bour[0], cat[0], cmdr, -1, -1)
    assert (attack, defence) == (4 + 2 + 1, 3 + 0 + 1)
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [3, 3], L.ST_COMMANDER: [6]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("carders"), zone("born"),
                    bour[0], cat[0], cmdr, -1, -1, False, no_log())
    assert s[L.S_UNIT_ZONE + cat[0]] == L.ELIMINATED  # 10 against 7
    assert B.count(s, L.BOURBONS, zone("born")) >= 1  # the advance
    assert s[L.S_LEADER_ZONE + cmdr] == L.ELIMINATED
    assert s[L.S_LEADERS_LOST + L.BOURBONS] == 1


# -- entering a zone "for any reason" (9, 11.3), found by the state checks ----------------------

def commander_of(side):
    return next(k for k in range(BOARD.leader.shape[0]) if BOARD.leader[k, L.L_SIDE] == side
                and not BOARD.leader[k, L.L_FLAG])


def test_a_retreat_into_a_zone_with_an_enemy_gun_captures_it():
    """Rule 9: "if enemy combat units enter their zone for any reason the artillery unit
    is captured and eliminated from the game"; the retreat of 11.3 is such a reason.
    The redoubt's defenders withdraw; the one zone open to them, the trenches before
    Portal Nou, holds two Bourbon guns and no Bourbon combat unit."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, cat[:2], "redoubt_santa_eulalia")
    put(s, bour[:5], "moat_portal_nou")
    put(s, bour[5:6], "moat_santa_clara")
    put(s, bour[6:7], "trenches_santa_clara")
    trenches = zone("trenches_portal_nou")
    guns = [g for g in range(BOARD.gun.shape[0]) if BOARD.gun[g, L.G_START] == trenches]
    assert len(guns) == 2 and all(BOARD.gun[g, L.G_SIDE] == L.BOURBONS for g in guns)
    for g in guns:
        s[L.S_GUN_ZONE + g] = trenches
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [1, 6]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("moat_portal_nou"),
                    zone("redoubt_santa_eulalia"), bour[0], cat[0], -1, -1, -1, True, no_log())
    assert all(s[L.S_UNIT_ZONE + u] == trenches for u in cat[:2])  # withdrew, no losses
    assert all(s[L.S_GUN_ZONE + g] == L.ELIMINATED for g in guns)
    assert s[L.S_GUNS_LOST + L.BOURBONS] == 2


def test_a_commander_captured_in_the_combat_does_not_roll_as_well():
    """Rule 11.3: "players roll a die for each commander involved in the combat" and "If
    the leader is surrounded he is captured and eliminated from the game"; 13 counts
    "2 VP for each eliminated enemy commander". The Bourbon commander supporting the
    assault on Boria from Montcada stands alone there; the withdrawing Catalans retreat
    into Montcada, every zone around it Catalan: he is captured, once, and does not roll
    (a 6 was waiting)."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, cat[:2], "boria")
    put(s, cat[2:7], "convent_santa_caterina")  # full: no room to retreat into
    put(s, cat[7:8], "born")
    put(s, cat[8:9], "santa_maria_del_mar")
    put(s, bour[:5], "sant_pere_streets")
    put(s, bour[5:6], "convent_jonqueres")
    commander = commander_of(L.BOURBONS)
    s[L.S_LEADER_ZONE + commander] = zone("montcada")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [1, 6], L.ST_COMMANDER: [6]})
    log = new_log()
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("sant_pere_streets"),
                    zone("boria"), bour[0], cat[0], commander, -1, -1, True, log)
    assert all(s[L.S_UNIT_ZONE + u] == zone("montcada") for u in cat[:2])
    assert s[L.S_LEADER_ZONE + commander] == L.ELIMINATED
    assert s[L.S_LEADERS_LOST + L.BOURBONS] == 1
    assert not any(e[0] == CS.EV_COMMANDER_ROLL for e in events(log))


def test_reinforcements_entering_a_zone_make_a_lone_enemy_commander_fall_back():
    """Rule 10.1: Catalan reinforcements are "placed inside zones marked with an R and
    not controlled by enemy units", and 6.1: "On each given zone there can be only units
    belonging to one of the sides". The one R zone without Bourbon combat units, Santa
    Maria del Mar, holds a Bourbon commander alone: he falls back to the adjacent zone
    with his troops (11.3), Pla de Palau."""
    s, p = blank()
    bour = units_of(L.BOURBONS)
    put(s, bour[:1], "pla_de_palau")
    put(s, bour[1:2], "montcada")
    put(s, bour[2:3], "boria")
    commander = commander_of(L.BOURBONS)
    s[L.S_LEADER_ZONE + commander] = zone("santa_maria_del_mar")
    log = new_log()
    E.catalan_reinforcements(loaded(L.N_STREAMS), s, BOARD, p, GREEDY[L.CATALANS], 2, 0,
                             np.zeros(N, np.int64), log)
    assert B.count(s, L.CATALANS, zone("santa_maria_del_mar")) > 0
    assert s[L.S_LEADER_ZONE + commander] == zone("pla_de_palau")
    falls_back = [r[0] for r in EVENTS.rows if r[1] == "leader_falls_back"][0]
    assert [tuple(e[1:]) for e in events(log) if e[0] == falls_back] == [
        (commander, zone("santa_maria_del_mar"), zone("pla_de_palau"))]


def test_no_unit_is_recreated_when_the_enemy_holds_every_deployment_zone():
    """Rule 10.1: recreated units "must be deployed into one of the 3 special deployment
    zones"; with Catalan units in all three (6.1: one side a zone) none can be, and the
    turn's remainder is lost as usual."""
    board = BOARD._replace(recovery=np.where(np.arange(BOARD.recovery.shape[0]) == 5, 3, 0))
    s, p = blank(Rules(bourbon_recovery_percent=100))
    cat = units_of(L.CATALANS)
    for i, zid in enumerate(("left_two_crowns", "centre_two_crowns", "right_two_crowns")):
        put(s, cat[i:i + 1], zid)
    gone = units_of(L.BOURBONS)[:2]
    for u in gone:
        s[L.S_UNIT_ZONE + u] = L.ELIMINATED
    s[L.S_UNITS_LOST + L.BOURBONS] = 2
    before = s.copy()
    E.bourbon_recovery(loaded(L.N_STREAMS), s, board, p, GREEDY[L.BOURBONS], 5, 0,
                       np.zeros(N, np.int64), no_log())
    assert all(s[L.S_UNIT_ZONE + u] == L.LOST for u in gone)
    changed = np.flatnonzero(s != before)
    assert set(changed) == {L.S_UNIT_ZONE + u for u in gone}  # no count or slot written


def test_leaders_retreat_on_their_own_when_their_troops_fell():
    """Rule 13: the flag "cannot be eliminated during assaults ... The only way of being
    eliminated is during a retreat, if it is surrounded by enemies"; 11.3: commanders
    "must retreat if their troops do the same. If the leader is surrounded he is
    captured". The one Catalan unit in Carders falls to the assault; the flag and the
    commander with it are not surrounded (Born is Catalan) and retreat there."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS, "coronela"), units_of(L.BOURBONS)
    put(s, cat[:1], "carders")
    put(s, cat[1:3], "born")
    put(s, bour[:5], "rec_comtal")
    flag = list(BOARD.leader[:, L.L_FLAG]).index(1)
    commander = commander_of(L.CATALANS)
    for k in (flag, commander):
        s[L.S_LEADER_ZONE + k] = zone("carders")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1]})
    C.fight_assault(rng, s, BOARD, p, GREEDY, L.BOURBONS, zone("rec_comtal"), zone("carders"),
                    bour[0], cat[0], -1, -1, flag, False, no_log())
    assert s[L.S_UNIT_ZONE + cat[0]] == L.ELIMINATED
    assert B.count(s, L.BOURBONS, zone("carders")) >= 1  # the attacker advances
    assert s[L.S_LEADER_ZONE + flag] == zone("born") and s[L.S_FLAG_LOST] == 0
    assert s[L.S_LEADER_ZONE + commander] == zone("born")
    assert s[L.S_LEADERS_LOST + L.CATALANS] == 0


# -- the readings of 11 and 13 (advanced_units_attack, recreated_units_score) ---------------

@pytest.mark.parametrize("reading", ["no", "yes"])
def test_units_that_advanced_attack_again_only_under_the_yes_reading(reading):
    """11: "One combat can be declared for each zone with friendly troops. Units of the
    same zone must do the same action, and each friendly zone can declare only one
    action"; 11.3: an assault is announced from a zone "which have not made any attack
    yet". The Two Crowns in Rec Comtal take Carders; Catalans stand next to Carders.
    Under "no" the stack that took Carders declares nothing more in the phase; under
    "yes" it attacks again from Carders, and on from each zone it takes."""
    s, p = blank(Rules(advanced_units_attack=reading))
    cat, bour = units_of(L.CATALANS, "coronela"), units_of(L.BOURBONS, "french_line")
    put(s, cat[:1], "carders")
    put(s, cat[1:2], "born")
    put(s, bour[:5], "rec_comtal")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [6, 1, 6, 1]})
    log = new_log()
    # Two Crowns that value the streets (greedy leaves zones that score nothing alone)
    pol = policy_rows({"bourbons": "greedy:zone_value=6"})
    C.combat_phase(rng, s, BOARD, p, pol, L.BOURBONS, log)
    declared = [(a, b) for code, a, b, c in events(log)
                if code in (EV_ASSAULT_DECLARED, EV_SALVO_DECLARED)]
    assert declared[0] == (zone("rec_comtal"), zone("carders"))
    assert any(code == EV_ADVANCE and c == zone("carders")
               for code, a, b, c in events(log))  # taken
    again = [d for d in declared if d[0] == zone("carders")]
    assert (len(again) > 0) == (reading == "yes")
    if reading == "no":
        assert declared == [(zone("rec_comtal"), zone("carders"))]
    else:  # the stack chains on through the zones it takes
        assert declared[1] == (zone("carders"), zone("born"))
        assert len(declared) > 2


@pytest.mark.parametrize(("reading", "vp"), [("no", 1), ("yes", 4)])
def test_recreated_units_score_only_under_the_yes_reading(reading, vp):
    """13: "1 VP for each eliminated enemy combat unit"; 10.1: "he can recover as many
    eliminated units as the number that is given in the rules for this turn. These
    recreated units must be deployed into one of the 3 special deployment zones". Three
    Bourbon units fall, all three are recreated on turn 3, and one falls again: four
    eliminations, one unit in the eliminated pile at the count."""
    s, p = blank(Rules(recreated_units_score=reading, bourbon_recovery_percent=100))
    bour = units_of(L.BOURBONS, "french_line")[:3]
    put(s, bour, "moat_llevant")
    rng = loaded(L.N_STREAMS)
    C.lose_units(s, BOARD, GREEDY[L.BOURBONS], L.BOURBONS, zone("moat_llevant"), 3, CAUSE_SALVO,
                 rng, no_log())
    assert BOARD.recovery[3] >= 3
    E.bourbon_recovery(rng, s, BOARD, p, GREEDY[L.BOURBONS], 3, 0, np.zeros(N, np.int64), no_log())
    assert all(BOARD.zone[s[L.S_UNIT_ZONE + u], L.Z_DEPLOYMENT] for u in bour)
    C.lose_units(s, BOARD, GREEDY[L.BOURBONS], L.BOURBONS, s[L.S_UNIT_ZONE + bour[0]], 1,
                 CAUSE_SALVO, rng, no_log())
    assert s[L.S_UNITS_LOST + L.BOURBONS] == 4
    assert E.victory_points(s, BOARD, p, L.CATALANS) == vp


# -- misreadings fixed (9, 10.1, 13) ---------------------------------------------------------

def test_the_firer_chooses_the_artillery_target():
    """9: "the active player defines what his target is and rolls a die"; the Example of
    artillery fire: "he decides to bombard the Catalan regular soldiers present at the
    bastion (which have combat strength of 5)". A Coronela unit (3) stands beside them;
    the Two Crowns' gun two zones away rolls a 5: the regulars fall, not the weaker unit
    the defender would give up."""
    s, p = blank()
    regulars = units_of(L.CATALANS, "regulars")[0]
    coronela = units_of(L.CATALANS, "coronela")[0]
    put(s, [regulars, coronela], "bastion_llevant")
    gun = [g for g in range(BOARD.gun.shape[0])
           if BOARD.gun[g, L.G_START] == zone("trenches_llevant")][0]
    s[L.S_GUN_ZONE + gun] = zone("trenches_llevant")
    rng = loaded(L.N_STREAMS, rolls={L.ST_ARTILLERY: [5]})
    C.artillery_phase(rng, s, BOARD, p, GREEDY, L.BOURBONS, no_log())
    assert s[L.S_UNIT_ZONE + regulars] == L.ELIMINATED
    assert s[L.S_UNIT_ZONE + coronela] == zone("bastion_llevant")


@pytest.mark.parametrize(("reading", "flag_zone", "bonus"), [
    ("next_to_attacked_zone", "born", 1), ("next_to_attacked_zone", "pla_de_palau", 0),
    ("next_to_attacked_zone", "convent_santa_caterina", 1),
    ("next_to_attacked_zone", None, 0),
    ("at_or_next_to_attacking_zone", "born", 1),
    ("at_or_next_to_attacking_zone", "pla_de_palau", 1),
    ("at_or_next_to_attacking_zone", "convent_santa_caterina", 0)])
def test_the_flag_adds_to_a_catalan_assault(reading, flag_zone, bonus):
    """13: the flag "moves and affects combat exactly as a commander, contributing its
    bonus in any assault started at the zone where it is placed, or at any adjacent
    zone"; 11.3: the attacker adds "+1 if there is a friendly commander adjacent to the
    attacked zone". Five mountain fusiliers in Born assault the Two Crowns in Carders:
    5 + 4, and 1 more with the flag in Born (next to Carders, and where the assault
    starts). Under ``flag_in_catalan_assaults = next_to_attacked_zone`` (a commander's
    place) the flag also counts in Santa Caterina, next to Carders, and not in Pla de
    Palau; under ``at_or_next_to_attacking_zone`` it counts in Pla de Palau, next to
    Born, and not in Santa Caterina."""
    s, p = blank(Rules(flag_in_catalan_assaults=reading))
    put(s, units_of(L.CATALANS, "mountain_fusiliers")[:5], "born")
    put(s, units_of(L.BOURBONS, "french_line")[:2], "carders")
    flag = list(BOARD.leader[:, L.L_FLAG]).index(1)
    s[L.S_LEADER_ZONE + flag] = zone(flag_zone) if flag_zone else L.ELIMINATED
    rng = loaded(L.N_STREAMS, rolls={L.ST_ASSAULT: [1, 6]})
    log = new_log()
    C.assault(rng, s, BOARD, p, GREEDY, L.CATALANS, zone("born"), zone("carders"), False, log)
    values = [e for e in events(log) if e[0] == CS.EV_ASSAULT_VALUES]
    assert values[0][1] == 5 + 4 + bonus
    if flag_zone:
        assert s[L.S_LEADER_ZONE + flag] == zone(flag_zone)  # it never rolls (13)


@pytest.mark.parametrize(("born", "stays"), [(5, True), (4, False)])
def test_over_stacked_reinforcements_leave_as_fast_as_they_can(born, stays):
    """10.1: "When reinforcements are deployed on the map they can infringe stacking
    limits, but they have to comply to them as fast as he can move (in other words,
    units must exit of the overstacked zones as soon as they can)"; 6.1: otherwise "the
    owning player must eliminate enough combat units". Montcada is the one R zone the
    Two Crowns do not hold; it and its Catalan neighbours are full, and a sixth unit
    arrives there. Boxed in, it stays over the limit; with room in Born it could have
    moved out, and the excess is eliminated."""
    s, p = blank()
    cat = units_of(L.CATALANS)
    put(s, cat[:5], "montcada")
    put(s, cat[5:10], "convent_santa_caterina")
    put(s, cat[10:10 + born], "born")
    bour = units_of(L.BOURBONS)
    for i, zid in enumerate(("santa_maria_del_mar", "pla_de_palau", "boria")):
        put(s, bour[i:i + 1], zid)
    newcomer = cat[20]
    rng = loaded(L.N_STREAMS)
    field = np.zeros(N, np.int64)
    assert E.enter_reinforcement(rng, s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, newcomer, field,
                                 no_log())
    assert s[L.S_UNIT_ZONE + newcomer] == zone("montcada")
    assert B.count(s, L.CATALANS, zone("montcada")) == 6
    E.enforce_stacking(rng, s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, no_log())
    assert B.count(s, L.CATALANS, zone("montcada")) == (6 if stays else 5)
    assert s[L.S_OVERSTACK + L.CATALANS] == (0 if stays else 1)
    assert CK.within_stacking_limit(s, BOARD, p) == -1
    s[L.S_NEWCOMER + newcomer] = 0  # an ordinary unit six in a zone breaks the limit
    assert CK.within_stacking_limit(s, BOARD, p) == (zone("montcada") if stays else -1)


# -- the scripted commanders' standing orders ------------------------------------------------------

POL_NAMES = (tuple(POL.BOURBON_POLICIES), tuple(POL.CATALAN_POLICIES))


def test_the_greedy_commanders_make_almost_no_blunders():
    """Greedy v greedy: units lost to overstacking after their own withdrawal (11.3, 6.1),
    assaults on zones that are no objective (13 scores none) that cost the lead and
    killed nobody, objectives given up in the last half-turn. Before the Two Crowns
    weighed the defender's answer and the Catalans withdrew only with room: 0.84 Catalan
    units a game overstacked, and 2.8 Two Crowns assaults for nothing."""
    cols = FULL.simulate(None, None, np.arange(400), 43)
    for side in L.SIDES:
        assert cols[f"{side}_withdrawal_overstack_losses"].mean() == 0
        assert cols[f"{side}_assaults_for_nothing"].mean() < 0.05
        assert cols[f"{side}_objectives_given_up_at_the_end"].mean() == 0
    assert cols["bourbons_other_zone_assaults"].mean() < 0.2


@pytest.mark.parametrize("turn", [1, 7, 8])
def test_the_odds_players_never_assault_at_one_in_six_or_worse(turn):
    """At 6/36 the attacking lead (1 VP to the enemy, 13) is lost five times in six: the
    players that assault on odds (cautious Two Crowns, greedy or fallback Catalans) never
    do at those odds, early, late or in the last turn, on an objective or not, with the
    default weights."""
    s, p = blank()
    s[L.S_TURN] = turn
    for side, pids in ((L.BOURBONS, (POL.CAUTIOUS,)),
                       (L.CATALANS, (POL.C_GREEDY, POL.FALLBACK))):
        for pid in pids:
            for worth in (0.0, 2.0, 4.0):
                w = policy_rows({L.SIDES[side]: POL_NAMES[side][pid]})[side]
                assert POL.go_threshold(s, p, w, side, worth) > 1000 * POL.win_chance(2)
    assert POL.win_chance(2) == pytest.approx(6 / 36)


def _two_crowns_next_to(target, defenders, surrounded=False):
    """Five French line units (4) in the zone next to ``target``, which two Coronela
    companies (3) hold; with ``surrounded`` the Two Crowns hold every other zone around
    Carders too (those have acted: only the five decide)."""
    s, p = blank()
    bour = units_of(L.BOURBONS, "french_line")
    attacker = {"carders": "rec_comtal", "bastion_llevant": "moat_llevant"}[target]
    put(s, bour[:5], attacker)
    put(s, units_of(L.CATALANS, "coronela")[:defenders], target)
    if surrounded:
        for k, zid in enumerate(("sant_agusti_church", "convent_santa_caterina", "born")):
            put(s, bour[5 + k:6 + k], zid)
            s[L.S_ACTED + zone(zid)] = 1
    return s, p, zone(attacker), zone(target)


@pytest.mark.parametrize(("target", "surrounded", "gain", "kind"), [
    ("carders", False, -10 / 36 * 2, POL.K_SALVO),
    ("carders", True, 2 * 33 / 36 - 3 / 36 * 2, POL.K_ASSAULT),
    ("bastion_llevant", False, 4 - 21 / 36 * 2, POL.K_ASSAULT)])
def test_the_two_crowns_weigh_the_defender_s_better_answer(target, surrounded, gain, kind):
    """11.3: a defender that withdraws adds +2 and loses nobody, and the zone is taken
    either way; 13 scores 1 VP a unit and nothing for a zone that is no objective. Five
    French line (4 + 4 = 8) against two Coronela (3 + 1): in Carders (ochre, no
    objective, 4) a stand loses 33/36 of the time, but the Catalans withdraw (26/36), and
    an assault that gains no VP costs the lead 10/36 of the time (the Two Crowns' own
    unit at their ``unit_value``, 2): they fire a salvo instead. With Carders surrounded
    (no zone to retreat to) the defender must stand and its other unit is captured when
    the lead falls: 2 units 33/36 of the time, the lead 3/36. On the Bastion of Llevant
    (grey, 3 + 2 + 1 = 6) the bastion is worth 2 VP to whoever holds it, 4 when it
    changes hands; the withdrawal (the bastion for sure, the lead lost 21/36 of the
    time) leaves the attacker less than the stand (a unit and the bastion 26/36 of the
    time, the lead lost 10/36), so the gain is the withdrawal's."""
    s, p, a, t = _two_crowns_next_to(target, 2, surrounded)
    w = GREEDY[L.BOURBONS]
    delta = POL.assault_delta(s, BOARD, p, L.BOURBONS, a, t, True)
    work, values = np.zeros(2 * BOARD.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64), np.zeros(5)
    assert POL.assault_gain(s, BOARD, p, w, L.BOURBONS, t, delta, work, values) == \
        pytest.approx(gain)
    out = np.zeros(4, np.int64)
    POL.next_combat(s, BOARD, p, w, L.BOURBONS, loaded(L.N_STREAMS), out)
    assert (out[0], out[1], out[2]) == (kind, a, t)


@pytest.mark.parametrize(("turn", "surrounded", "assaults"), [
    (1, False, False), (7, False, True), (1, True, True)])
def test_the_catalans_counter_attack_at_the_odds_the_defender_leaves_them(turn, surrounded,
                                                                          assaults):
    """11.3: a defender that withdraws adds +2 and loses nobody; the attacker's lead is
    eliminated unless it is still higher. Five strength-5 Catalan units in Pla d'en Llull
    (5 + 4 = 9) against two French line in the Bastion of Llevant (4 + 2 + 1 = 7): a
    stand is beaten 26/36 of the time, over the greedy Catalans' 70% for an objective,
    but the Two Crowns can give the bastion up to the moat, and then the lead is kept
    only 15/36 of the time; giving the bastion up leaves the Catalans less, so they do
    not counter-attack on turn 1. In the last two turns (40%) they do: holding the
    bastion at the end scores (13). Surrounded, the Two Crowns must stand: 26/36."""
    s, p = blank()
    s[L.S_TURN] = turn
    fives = [u for u in units_of(L.CATALANS) if BOARD.unit[u, L.U_STRENGTH] == 5]
    put(s, fives[:5], "pla_llull")
    put(s, units_of(L.BOURBONS, "french_line")[:2], "bastion_llevant")
    if surrounded:
        for k, zid in enumerate(("moat_llevant", "bastion_santa_clara", "bastion_migdia")):
            put(s, fives[5 + k:6 + k], zid)
            s[L.S_ACTED + zone(zid)] = 1
    a, t = zone("pla_llull"), zone("bastion_llevant")
    delta = POL.assault_delta(s, BOARD, p, L.CATALANS, a, t, True)
    assert POL.win_chance(delta) == pytest.approx(26 / 36)
    work, values = np.zeros(2 * BOARD.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64), np.zeros(5)
    chance = POL.answered_chance(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, t, delta, work,
                                 values)
    assert chance == pytest.approx(26 / 36 if surrounded else 15 / 36)
    out = np.zeros(4, np.int64)
    POL.next_combat(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, loaded(L.N_STREAMS), out)
    assert (out[0], out[1], out[2]) == ((POL.K_ASSAULT, a, t) if assaults else
                                        (POL.K_NONE, -1, -1))


def test_commanders_are_risked_only_where_their_one_point_matters():
    """11.3: a commander adds +1 and dies on a 6. Greedy commits him when the +1 moves
    the attacker's chance by at least 5/36 (Two Crowns: a difference of -2 to 0 before
    his point) or 3/36 (Catalans: -4 to +2)."""
    s, p = blank()
    for side, helping in ((L.BOURBONS, range(-2, 1)), (L.CATALANS, range(-4, 3))):
        helps = [d for d in range(-8, 8) if POL.commander_helps(GREEDY[side], d)]
        assert helps == list(helping)
    rng = loaded(L.N_STREAMS)
    # the defender's delta counts his own point: +3 with him is +2 without, where it helps
    assert POL.defender_commander(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, 3, rng)
    assert not POL.defender_commander(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, 5, rng)
    assert not POL.defender_commander(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, -4, rng)
    # the weight: a step of 6 36ths asks for an even fight before his point
    w6 = policy_rows({"catalans": "greedy:commander_step=6"})[L.CATALANS]
    assert [d for d in range(-8, 8) if POL.commander_helps(w6, d)] == [-1]


@pytest.mark.parametrize(("turn", "withdraws"), [(7, True), (8, False)])
def test_the_two_crowns_keep_an_objective_in_the_last_half_turn(turn, withdraws):
    """13 counts what each side holds at the end of the last turn: in the Catalans' half
    of it a Two Crowns garrison that withdraws loses the objective for sure, one that
    fights keeps it some of the time, and no turn is left to retake it."""
    s, p = blank()
    s[L.S_TURN] = turn
    rng = loaded(L.N_STREAMS)
    work, values = np.zeros(2 * BOARD.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64), np.zeros(5)
    w = GREEDY[L.BOURBONS]
    for zid in ("bastion_llevant", "rec_comtal"):
        put(s, units_of(L.BOURBONS, "french_line")[:2], zid) if zid == "bastion_llevant" else \
            put(s, units_of(L.BOURBONS, "french_line")[2:4], zid)
    # at delta -3 the attacker wins 30/36 of the time: giving the bastion up (+2: 21/36)
    # leaves it less, except at the end
    assert POL.withdraws(s, BOARD, p, w, L.BOURBONS, zone("bastion_llevant"), -3, True, rng,
                         work, values) == withdraws
    assert POL.withdraws(s, BOARD, p, w, L.BOURBONS, zone("rec_comtal"), -3, True, rng, work,
                         values)  # not an objective: giving ground costs nothing at the end


@pytest.mark.parametrize(("room", "alone", "alone_cost", "withdraws"), [
    (5, False, 0, True), (1, False, 0, False), (5, True, 0, True), (5, True, 4, False)])
def test_the_greedy_catalans_withdraw_only_when_every_unit_has_room(room, alone, alone_cost,
                                                                    withdraws):
    """11.3: withdrawing units "have to go to adjacent zones without enemy units on them.
    ... If he is forced to retreat towards a friendly zone where the stacking limit is
    infringed he must eliminate enough units". The Catalans in the Bastion of Migdia,
    whose only open neighbour is Pla de Palau, face an assault they would lose 30/36 of
    the time (-3): they give the bastion up when all of them fit in Pla de Palau, not
    when some would be lost to the stacking limit. A lone defender withdraws too, to
    stand alone next to the zone the enemy takes, unless ``alone_cost`` prices that."""
    s, p = blank()
    cat, bour = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, cat[:1 if alone else 3], "bastion_migdia")
    put(s, cat[10:10 + 5 - room], "pla_de_palau")
    put(s, bour[:5], "bastion_llevant")
    put(s, bour[5:6], "ribera_lower")
    work, values = np.zeros(2 * BOARD.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64), np.zeros(5)
    w = policy_rows({"catalans": f"greedy:alone_cost={alone_cost}"})[L.CATALANS]
    assert POL.withdraws(s, BOARD, p, w, L.CATALANS, zone("bastion_migdia"), -3, True,
                         loaded(L.N_STREAMS), work, values) == withdraws


@pytest.mark.parametrize("assured", [False, True])
def test_the_catalans_hold_the_ground_behind_the_royal_breach_once_it_is_open(assured):
    """7: once the Royal Breach is assured the Two Crowns may cross it; the greedy
    Catalans then want 3 units behind it while the enemy is within reach (before, the zone
    is out of the enemy's way and they leave it for the threatened objectives)."""
    behind = zone("breach_terreplein")
    assert [NAMES.zone_ids[z] for z in range(N) if BOARD.zone[z, L.Z_BEHIND_BREACH]] == [
        "breach_terreplein"]
    s, p = blank(breach=assured)
    put(s, units_of(L.BOURBONS)[:5], "moat_santa_clara")
    put(s, units_of(L.CATALANS)[:2], "breach_terreplein")
    field = np.zeros(N, np.int64)
    want = np.zeros(N, np.int64)
    POL.prepare_movement(s, BOARD, p, GREEDY[L.CATALANS], L.CATALANS, field, want)
    assert want[behind] == (3 if assured else 0)


def _terreplein_choice(fire_points, in_cloister):
    """A Two Crowns unit in the Santa Clara moat with the Royal Breach assured, every
    bastion and the redoubt theirs, the Santa Clara convent and Pla d'en Llull Catalan:
    the terreplein is one zone from the convent, the moat two. Returns (its destination,
    the Catalan units that could fire into the terreplein unanswered)."""
    s, p = blank()
    w = policy_rows({"bourbons": f"greedy:unanswered_fire_points={fire_points}"})[L.BOURBONS]
    catalans, bourbons = units_of(L.CATALANS), units_of(L.BOURBONS)
    put(s, catalans[:in_cloister], "santa_clara_cloister")
    put(s, catalans[5:7], "santa_clara_church")
    put(s, catalans[7:9], "pla_llull")
    for k, zid in enumerate(("redoubt_santa_eulalia", "bastion_santa_clara", "bastion_llevant",
                             "bastion_portal_nou", "bastion_migdia")):
        put(s, bourbons[1 + k:2 + k], zid)
    put(s, bourbons[:1], "moat_santa_clara")
    field, want = np.zeros(N, np.int64), np.zeros(N, np.int64)
    POL.prepare_movement(s, BOARD, p, w, L.BOURBONS, field, want)
    dist, _, stop = reach(s, p, L.BOURBONS, "moat_santa_clara")
    to = POL.unit_destination(s, BOARD, p, w, L.BOURBONS, bourbons[0], dist, field, want,
                              stop, loaded(L.N_STREAMS))
    return NAMES.zone_ids[to], POL.unanswered_fire(s, BOARD, p, L.BOURBONS,
                                                   zone("breach_terreplein"))


@pytest.mark.parametrize(("fire_points", "in_cloister", "goes_in"),
                         [(0, 5, True), (3, 1, True), (3, 3, False), (3, 5, False)])
def test_the_two_crowns_price_the_terreplein_under_the_cloister_s_salvos(
        fire_points, in_cloister, goes_in):
    """11.2: the blue cloister (defence 3) fires salvos into the open terreplein behind
    the Royal Breach (0), which cannot fire back. Without a price (0) the greedy mover
    takes the shortest way, through the breach; at 3 tenths of a zone per unit, 3 or more
    units in the cloister send it through the bastion's breach instead, as near to the
    convent by the field's count but under no salvo it cannot answer."""
    to, fire = _terreplein_choice(fire_points, in_cloister)
    assert fire == in_cloister
    assert to == ("breach_terreplein" if goes_in else "bastion_santa_clara")
