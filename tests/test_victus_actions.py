"""Victus Barcelonan actions: the rulebook's Examples 10-14, 16, 17, 19, 23-25 as
scenarios (the example's state, the action, the example's numbers), AP costs, and the
scripted players keeping every piece on the board."""

import pytest
from victus_support import C, K, S, params, set_marker, streams

from simkit.eventlog import no_log
from simkit.games.victus import barcelonans as A
from simkit.games.victus import layout as L
from simkit.games.victus import players
from simkit.games.victus.cards import load_cards
from simkit.games.victus.state import empty_state, set_up

CARDS = load_cards().as_tuple()


# -- costs ------------------------------------------------------------------------------------


def test_first_game_costs_are_the_priority_column():
    p, (_, g) = params(), empty_state(C)
    costs = [A.action_cost(K, p, g, a) for a in range(L.N_ACTIONS)]
    assert costs == [1, 3, 0, 1, 2, 0, 1, 1, 3, 1, 1, 0]


def test_example_23_artillery_war_council_makes_cannon_actions_priority():
    p, (_, g) = params(full=True), empty_state(C)
    g[L.G_WAR_COUNCIL] = L.WAR_ARTILLERY
    cost = {a: A.action_cost(K, p, g, a) for a in range(L.N_ACTIONS)}
    assert (cost[L.A_MOVE_CANNON], cost[L.A_FIRE_CANNON], cost[L.A_REPAIR_CANNON]) == (1, 1, 3)
    assert cost[L.A_MOVE_TROOPS] == 2 and cost[L.A_REMOVE_RUBBLE] == 2  # general elsewhere


def test_example_24_defense_priority_worm_change_card_barricade_cost_6():
    p, (_, g) = params(full=True), empty_state(C)
    g[L.G_WAR_COUNCIL] = L.WAR_DEFENSE
    assert sum(A.action_cost(K, p, g, a) for a in (L.A_WORM, L.A_CHANGE_CARD,
                                                     L.A_BARRICADE)) == 2 + 3 + 1
    g[L.G_WAR_COUNCIL] = L.WAR_MOVEMENT
    assert A.action_cost(K, p, g, L.A_WORM) == 1


@pytest.mark.parametrize("switch", ["rule", "leader", "all"])
def test_always_priority_cost_rule_card_39_leader_and_all_council(switch):
    p, (_, g) = params(full=True), empty_state(C)
    g[L.G_WAR_COUNCIL] = L.WAR_DEFENSE
    if switch == "rule":
        p[L.P_ALWAYS_PRIORITY] = 1
    elif switch == "leader":
        g[L.G_ALL_PRIORITY] = 1
    else:
        g[L.G_WAR_COUNCIL] = L.WAR_ALL
    assert A.action_cost(K, p, g, L.A_MOVE_TROOPS) == 1
    assert A.action_cost(K, p, g, L.A_HEALING) == 3


# -- Examples 10-12: movement -------------------------------------------------------------


def test_example_10_four_moves_for_4_ap():
    p, (sp, g) = params(), empty_state(C)
    sp[S(12), [L.SP_INFANTRY, L.SP_CORONELA]] = (2, 5)
    sp[S(45), L.SP_INFANTRY] = 1
    sp[S(44), [L.SP_CANNON, L.SP_DEFENSE]] = (2, 2)
    g[L.G_SEAT_AP] = 4
    for source, target, coronela, infantry in ((12, 45, 2, 2), (45, 44, 2, 1), (12, 46, 1, 0),
                                               (12, 47, 1, 0)):
        assert A.can_step(K, sp, S(source), S(target))
        A.pay(K, p, g, L.A_MOVE_TROOPS, S(source), S(target), no_log())
        A.move_troops(K, p, sp, g, S(source), S(target), coronela, infantry, no_log())
    assert g[L.G_SEAT_AP] == 0
    assert tuple(sp[S(12), [L.SP_CORONELA, L.SP_INFANTRY]]) == (1, 0)
    assert tuple(sp[S(45), [L.SP_CORONELA, L.SP_INFANTRY]]) == (0, 2)
    assert tuple(sp[S(44), [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON, L.SP_DEFENSE]]) == (
        2, 1, 2, 2)
    assert sp[S(46), L.SP_CORONELA] == 1 and sp[S(47), L.SP_CORONELA] == 1


def test_example_11_rambla_destinations_of_15():
    destinations = {C.space_ids[s] for s in range(C.n_spaces) if A.can_step(K, None, S(15), s)}
    assert destinations == {"14", "13", "42", "41", "31", "25", "58", "12", "47", "48", "21"}
    assert A.can_step(K, None, S(21), S(22))  # 15 -> 21 -> 22: a single troop's two moves


def test_example_12_camps_are_not_adjacent_but_trench_spaces_are():
    front = [s for s in range(C.n_spaces)
             if A.can_step(K, None, s, S("C0")) and A.can_step(K, None, s, S("D0"))]
    assert front  # a space in front of both camps
    assert not A.can_step(K, None, S("C0"), S("D0"))
    assert A.can_step(K, None, S("A1"), S("B1"))


# -- Example 13: marker improvement ---------------------------------------------------------


def test_example_13_marker_costs_depend_on_a_troop_on_the_marker_space():
    p, (sp, g) = params(), empty_state(C)
    sp[S(32), L.SP_CORONELA] = 1
    sp[S(34), L.SP_CORONELA] = 1
    cost = {m: A.action_cost(K, p, g, A.improve_action(K, sp, m)) for m in range(4)}
    assert cost[L.MARKER_PORT] == 2 and cost[L.MARKER_GUNPOWDER_STORE] == 2
    assert cost[L.MARKER_GENERALITAT] == 1
    assert cost[L.MARKER_HOSPITAL] == 1  # a troop on either hospital is enough


# -- Example 14: cannon fire ----------------------------------------------------------------


def test_example_14_gunpowder_store_shots():
    p, (sp, g) = params(), empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 3)
    sp[S(36), L.SP_CORONELA] = 1
    g[L.G_SEAT_AP] = 6
    A.pay(K, p, g, A.improve_action(K, sp, L.MARKER_GUNPOWDER_STORE), 0, 0, no_log())
    A.improve_marker(K, g, L.MARKER_GUNPOWDER_STORE)
    assert C.marker_values[L.MARKER_GUNPOWDER_STORE][g[L.G_MARKER + 2]] == 4
    assert g[L.G_SEAT_AP] == 5  # a Coronela on 36: 1 AP
    # AP 2: the cannon at 21 (not a bastion) fires at an adjacent space
    sp[S(21), L.SP_CANNON] = 1
    sp[S(22), L.SP_BOURBON] = 4
    assert A.can_fire(K, sp, S(21), S(22))
    A.fire_cannon(K, sp, g, S(21), S(22))
    assert sp[S(22), L.SP_BOURBON] == 0
    assert not A.can_fire(K, sp, S(21), S(22))  # each cannon fires once per turn
    # AP 4: from the Bastion of the Àngel-48 at a value-6 tile 4 spaces away
    sp[S(48), L.SP_CANNON] = 2
    far = [s for s in range(C.n_spaces) if C.fire_distance[S(48), s] == 4][0]
    sp[far, L.SP_BOURBON] = 6
    assert A.can_fire(K, sp, S(48), far)
    A.fire_cannon(K, sp, g, S(48), far)
    assert sp[far, L.SP_BOURBON] == 2  # 6 - 4


def test_fire_range_is_4_from_a_bastion_and_6_from_montjuic():
    sp, g = empty_state(C)
    for bastion, reach in ((S(48), 4), (C.montjuic, 6)):
        sp[bastion, L.SP_CANNON] = 1
        for s in range(C.n_spaces):
            d = C.fire_distance[bastion, s]
            if d > 0:
                assert A.can_fire(K, sp, bastion, s) == (d <= reach)


def test_firing_at_a_camp_has_no_effect():
    sp, g = empty_state(C)
    camp = C.camps[6]
    source = [s for s in range(C.n_spaces) if C.adjacent[s, camp]][0]
    sp[source, L.SP_CANNON] = 1
    sp[camp, L.SP_BOURBON] = 3
    A.fire_cannon(K, sp, g, source, camp)
    assert sp[camp, L.SP_BOURBON] == 3


# -- Example 16: defense actions ------------------------------------------------------------


def test_example_16_remove_rubble_and_bastion_defenses():
    sp, g = empty_state(C)
    sp[S(45), [L.SP_INFANTRY, L.SP_RUBBLE]] = (1, L.RUINED)
    sp[S(46), L.SP_CORONELA] = 1
    sp[S(47), L.SP_CORONELA] = 1
    sp[S(12), L.SP_RUBBLE] = L.RUBBLE
    sp[S(44), L.SP_DEFENSE] = 1
    assert A.can_remove_rubble(K, sp, S(45))  # a troop in the space
    A.remove_rubble(sp, g, S(45))
    assert A.can_remove_rubble(K, sp, S(12))  # next to troops in 45, 46, 47
    A.remove_rubble(sp, g, S(12))
    for space in (44, 46, 46):
        assert A.can_add_bastion_defense(K, sp, S(space))
        A.add_bastion_defense(sp, S(space))
    assert sp[S(44), L.SP_DEFENSE] == 2 and sp[S(46), L.SP_DEFENSE] == 2
    assert not A.can_add_bastion_defense(K, sp, S(46))  # +2 is the most
    assert not A.can_add_bastion_defense(K, sp, S(12))  # only bastions
    assert sp[:, L.SP_RUBBLE].sum() == 0


def test_rubble_far_from_troops_cannot_be_removed():
    sp, g = empty_state(C)
    sp[S(33), L.SP_RUBBLE] = L.RUBBLE
    assert not A.can_remove_rubble(K, sp, S(33))


# -- Examples 19 and 25: attacking the trench -------------------------------------------


def test_example_19_moving_infantry_into_a2_fights_a_reinforcements_tile():
    p, (sp, g) = params(), empty_state(C)
    g[L.G_TRENCH + 0] = 2
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 2
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    source = [s for s in range(C.n_spaces) if A.can_step(K, sp, s, S("A2"))
              and C.space_info[s, L.S_TRENCH] < 0][0]
    sp[source, L.SP_INFANTRY] = 1
    A.move_troops(K, p, sp, g, source, S("A2"), 0, 1, no_log())
    assert sp[S("A2"), L.SP_INFANTRY] == 1 and sp[S("A0"), L.SP_RAZED] == 1
    assert g[L.G_TRENCH + 0] == 1 and g[L.G_DISC + L.DISC_BATTERIES] == 5


def test_example_25_pushing_the_trench_back():
    p, (sp, g) = params(full=True), empty_state(C)
    g[L.G_TRENCH:L.G_TRENCH + 6] = [1, 0, 2, 2, 1, 1]
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1  # value 1
    g[L.G_DISC + L.DISC_BATTERIES] = 10
    sp[C.captured, [L.SP_INFANTRY, L.SP_CORONELA]] = (1, 5)
    sp[S("E3"), L.SP_INFANTRY] = 3
    moves = [("E3", "D2", 0, 1), ("D2", "C2", 0, 2), ("C2", "C1", 1, 2), ("C1", "D1", 1, 2),
             ("D1", "E1", 1, 2), ("E1", "F1", 2, 2)]
    for source, target, coronela, infantry in moves:
        A.move_troops(K, p, sp, g, S(source), S(target), coronela, infantry, no_log())
    assert list(g[L.G_TRENCH:L.G_TRENCH + 6]) == [1, 0, 0, 0, 0, 0]
    assert tuple(sp[C.captured, [L.SP_INFANTRY, L.SP_CORONELA]]) == (0, 2)
    assert tuple(sp[S("F1"), [L.SP_INFANTRY, L.SP_CORONELA]]) == (2, 3)
    assert g[L.G_DISC + L.DISC_BATTERIES] == 10 - 4


def test_entering_a_razed_camp_means_no_fight_and_winning_a_camp_razes_it():
    p, (sp, g) = params(full=False), empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 2  # value 2
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    camp = C.camps[7]
    source = [s for s in range(C.n_spaces) if A.can_step(K, sp, s, camp)][0]
    sp[source, L.SP_INFANTRY] = 2
    A.move_troops(K, p, sp, g, source, camp, 0, 1, no_log())
    assert sp[camp, L.SP_RAZED] == 1 and g[L.G_DISC + L.DISC_BATTERIES] == 5
    A.move_troops(K, p, sp, g, source, camp, 0, 1, no_log())
    assert g[L.G_DISC + L.DISC_BATTERIES] == 5 and sp[camp, L.SP_INFANTRY] == 2


# -- the scripted players -------------------------------------------------------------


@pytest.mark.parametrize("policy", [players.GREEDY, players.RANDOM, players.FORTIFY])
@pytest.mark.parametrize("full", [False, True])
def test_players_spend_ap_legally_and_keep_every_piece(policy, full):
    p = params(full=full, policy=policy)
    for seed in range(4):
        sp, g = set_up(C, full)
        rng = streams(seed, 1)
        sp[C.space("o1-7"), L.SP_BOURBON] = 5  # something to shoot at and fear
        sp[S(33), L.SP_RUBBLE] = L.RUBBLE
        sp[C.wounded, L.SP_CORONELA] = 3
        totals = sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0)
        g[L.G_SEAT_AP] = 6
        players.spend_action_points(K, CARDS, p, sp, g, rng, no_log())
        assert 0 <= g[L.G_SEAT_AP] < 6
        assert (sp >= 0).all()
        assert (sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0) == totals).all()
        assert (sp[:, L.SP_CANNON_FIRED] <= sp[:, L.SP_CANNON]).all()


def test_greedy_fires_at_the_tile_threatening_the_city():
    p, (sp, g) = params(), set_up(C, False)
    target = C.space("o1-7")  # its yellow arrow leads into Jonqueres-51
    sp[target, L.SP_BOURBON] = 5
    g[L.G_SEAT_AP] = 1
    players.spend_action_points(K, CARDS, p, sp, g, streams(0, 0), no_log())
    assert sp[target, L.SP_BOURBON] == 0  # first-game Gunpowder Store 5


def test_example_11_a_single_troop_makes_two_moves_for_one_action():
    p, (sp, g) = params(), empty_state(C)
    sp[S(15), L.SP_CORONELA] = 1
    A.move_one_troop_twice(K, p, sp, g, S(15), S(21), S(22), L.SP_CORONELA, no_log())
    assert sp[S(22), L.SP_CORONELA] == 1 and sp[S(21), L.SP_CORONELA] == 0


def test_a_fight_on_the_first_step_ends_the_double_move():
    p, (sp, g) = params(), empty_state(C)
    sp[S(15), L.SP_INFANTRY] = 1
    sp[S(21), L.SP_BOURBON] = 1
    A.move_one_troop_twice(K, p, sp, g, S(15), S(21), S(22), L.SP_INFANTRY, no_log())
    assert sp[S(21), L.SP_INFANTRY] == 1 and sp[S(22), L.SP_INFANTRY] == 0
