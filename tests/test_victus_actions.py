"""Victus Barcelonan actions: the rulebook's Examples 10-14, 16, 17, 19, 23-25 as
scenarios (the example's state, the action, the example's numbers), AP costs, and the
scripted players keeping every piece on the board."""

import pytest
from victus_support import C, K, S, W, params, set_marker, streams, weights

from simkit.eventlog import no_log
from simkit.games.victus import GAME, engine, policies
from simkit.games.victus import barcelonans as A
from simkit.games.victus import layout as L
from simkit.games.victus.cards import load_cards
from simkit.games.victus.state import empty_state, set_up, starting_position

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


def hands(g, seats):
    return [set(g[L.G_HAND + s * L.HAND_SIZE:L.G_HAND + (s + 1) * L.HAND_SIZE]) - {0}
            for s in range(seats)]


def test_example_24_the_worm_the_card_change_and_the_barricade():
    """Example 24: 6 AP, Defense at priority cost. "he uses 2 AP to send a "worm" to
    counter-mine ...: he sends a Coronela piece to WOUNDED and takes the mine disc and
    places it on space 0"; "Then he uses 3 AP to change a card ... All players discard one
    of the cards in their hand ... and draw a new one"; "he has 1 AP left and ... uses it to
    place a barricade tile at Bastion of Tallers-46"."""
    p, (sp, g) = params(full=True), starting_position(C, GAME.presets["full"].rules)
    g[L.G_WAR_COUNCIL] = L.WAR_DEFENSE
    g[L.G_DISC + L.DISC_MINE] = 4
    engine.build_piles(CARDS, p, g, streams(0, 0))
    engine.deal(CARDS, p, g, 0, 6)  # six left in hand: the round's card is on the table
    before, coronela = hands(g, 2), sp[S(33), L.SP_CORONELA]
    g[L.G_SEAT_AP] = 6
    A.pay(K, p, g, L.A_WORM, S(33), 0, no_log())
    A.send_worm(K, sp, g, S(33), no_log())
    assert g[L.G_SEAT_AP] == 6 - 2 and g[L.G_DISC + L.DISC_MINE] == 0
    assert sp[S(33), L.SP_CORONELA] == coronela - 1 and sp[C.wounded, L.SP_CORONELA] == 1
    assert policies.change_a_card(K, CARDS, p, W, g, streams(0, 0), no_log())
    assert g[L.G_SEAT_AP] == 4 - 3
    for seat, after in enumerate(hands(g, 2)):
        assert len(after) == 6 and len(after - before[seat]) == 1
    assert A.can_add_barricade(K, sp, S(46))
    A.pay(K, p, g, L.A_BARRICADE, S(46), 0, no_log())
    sp[S(46), L.SP_BARRICADES] += 1
    assert g[L.G_SEAT_AP] == 0 and sp[S(46), L.SP_BARRICADES] == 1


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
        A.move_troops(K, p, W, sp, g, S(source), S(target), coronela, infantry, no_log())
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


def moves(p, sp, g, path):
    """Move the infantry along ``path``, one move action (paid) per step."""
    for source, target in zip(path, path[1:], strict=False):
        assert A.can_step(K, sp, source, target)
        A.pay(K, p, g, L.A_MOVE_TROOPS, source, target, no_log())
        A.move_troops(K, p, W, sp, g, source, target, 0, 1, no_log())


def test_example_12_attacking_two_camps_costs_3_ap_two_trench_tiles_2_ap():
    """Example 12: camps C and D: "move the infantry to one of the two camps, then move it
    back to the space it's currently in, and then move it to the other camp ... This would
    cost him 3 AP"; trench tiles A and B in position 1: "move the infantry to one of the two
    spaces and then move it back to the other; this would cost him 2 AP"."""
    p, (sp, g) = params(), empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1  # value 1: the infantry wins every fight
    g[L.G_DISC + L.DISC_BATTERIES] = 10
    front = next(s for s in range(C.n_spaces)
                 if A.can_step(K, None, s, S("C0")) and A.can_step(K, None, s, S("D0")))
    sp[front, L.SP_INFANTRY] = 1
    g[L.G_SEAT_AP] = 3
    moves(p, sp, g, [front, S("C0"), front, S("D0")])
    assert g[L.G_SEAT_AP] == 0
    assert sp[S("C0"), L.SP_RAZED] == 1 and sp[S("D0"), L.SP_RAZED] == 1
    p, (sp, g) = params(), empty_state(C)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1
    g[L.G_DISC + L.DISC_BATTERIES] = 10
    g[L.G_TRENCH:L.G_TRENCH + 2] = [1, 1]
    start = next(s for s in range(C.n_spaces) if A.can_step(K, None, s, S("A1"))
                 and C.space_info[s, L.S_TRENCH] < 0)
    sp[start, L.SP_INFANTRY] = 1
    g[L.G_SEAT_AP] = 2
    moves(p, sp, g, [start, S("A1"), S("B1")])
    assert g[L.G_SEAT_AP] == 0 and list(g[L.G_TRENCH:L.G_TRENCH + 2]) == [0, 0]
    assert sp[S("A0"), L.SP_RAZED] == 1 and sp[S("B0"), L.SP_RAZED] == 1


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


def arrow_walk(start, colours):
    """The spaces a tile visits from ``start`` following ``colours`` (no rubble, no stop)."""
    out = [start]
    for colour in colours:
        out.append(C.arrows[out[-1], colour])
        if out[-1] < 0:
            return []
    return out


def outside(s):
    return C.space_info[s, L.S_BARCELONA] == 0 and C.space_info[s, L.S_KIND] < L.KIND_EXPEDITION


def test_example_14_six_ap_of_markers_fire_and_moves():
    """Example 14: 6 AP, the Gunpowder Store at 3; each action costs 1 AP (first game)."""
    Y, R = L.YELLOW, L.RED
    p, (sp, g) = params(), empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 3)
    g[L.G_SEAT_AP] = 6
    sp[S(36), L.SP_CORONELA] = 1
    sp[S(21), L.SP_CANNON] = 1
    sp[S(14), L.SP_CANNON] = 1  # "Saint Cross-24" in the text: the hospital is 14
    sp[S(48), L.SP_CANNON] = 1
    sp[S(22), [L.SP_CORONELA, L.SP_BOURBON]] = (1, 4)
    far = next(s for s in range(C.n_spaces) if outside(s)
               and (w := arrow_walk(s, [Y, R, R, Y])) and w[-1] == S(48)
               and all(outside(t) for t in w[:-1]) and C.fire_distance[S(48), s] == 4)
    near = next(s for s in range(C.n_spaces) if outside(s)
                and (w := arrow_walk(s, [Y, Y, Y])) and w[-1] == S(48) and S(47) in w)
    fours = [s for s in range(C.n_spaces)
             if 0 < C.fire_distance[S(48), s] <= 4 and s != far and s != near]
    sp[far, L.SP_BOURBON], sp[near, L.SP_BOURBON], sp[fours[0], L.SP_BOURBON] = 6, 3, 4

    def paid(action, ap_left):
        A.pay(K, p, g, action, 0, 0, no_log())
        assert g[L.G_SEAT_AP] == ap_left

    # 1st AP: a Coronela on 36, so the Gunpowder Store goes up for 1 AP: 3 -> 4
    paid(A.improve_action(K, sp, L.MARKER_GUNPOWDER_STORE), 5)
    A.improve_marker(K, g, L.MARKER_GUNPOWDER_STORE)
    assert C.marker_values[L.MARKER_GUNPOWDER_STORE][g[L.G_MARKER + 2]] == 4
    # 2nd AP: the cannon at 21 (not a bastion) fires at the adjacent tile: eliminated
    assert A.can_fire(K, sp, S(21), S(22))
    paid(L.A_FIRE_CANNON, 4)
    A.fire_cannon(K, sp, g, S(21), S(22))
    assert sp[S(22), L.SP_BOURBON] == 0 and not A.can_fire(K, sp, S(21), S(22))
    # 3rd AP: the cannon from Saint Cross-14 to the Bastion of the Àngel-48 by the Rambla
    assert A.can_step(K, sp, S(14), S(48))
    paid(L.A_MOVE_CANNON, 3)
    A.move_cannon(sp, S(14), S(48))
    assert sp[S(48), L.SP_CANNON] == 2
    # 4th AP: from the bastion, the value-6 tile 4 spaces away (YELLOW-RED-RED-YELLOW): 6 -> 2
    assert A.can_fire(K, sp, S(48), far)
    paid(L.A_FIRE_CANNON, 2)
    A.fire_cannon(K, sp, g, S(48), far)
    assert sp[far, L.SP_BOURBON] == 2
    # 5th AP: the second cannon cannot reach the value-3 tile (its path passes 47) ...
    assert not (0 < C.fire_distance[S(48), near] <= 4)
    assert A.can_fire(K, sp, S(48), fours[0])  # ... so it fires at the value-4 tile
    paid(L.A_FIRE_CANNON, 1)
    A.fire_cannon(K, sp, g, S(48), fours[0])
    assert sp[fours[0], L.SP_BOURBON] == 0 and sp[near, L.SP_BOURBON] == 3
    assert not A.can_fire(K, sp, S(48), near)  # both cannons at 48 have fired
    # 6th AP: the Coronela from Hort d'en Favà-22 to the Bastion of Jonqueres-51
    assert A.can_step(K, sp, S(22), S(51))
    paid(L.A_MOVE_TROOPS, 0)
    A.move_troops(K, p, W, sp, g, S(22), S(51), 1, 0, no_log())
    assert sp[S(51), L.SP_CORONELA] == 1


def test_example_15_santa_madrona_reaches_the_value_3_tiles_not_the_value_6():
    """Example 15: from Bastion of Santa Madrona-41 "The most distant Bourbon troop tile of
    value 3 is four spaces away and a movement can be traced leading to the bastion
    (RED-YELLOW-YELLOW-BLUE CANNON ...)"; a cannon fires once: 1 AP, and the Gunpowder
    Store's value comes off the tile."""
    p, (sp, g) = params(), empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 3)
    sp[S(41), L.SP_CANNON] = 1
    reach = [s for s in range(C.n_spaces) if C.fire_distance[S(41), s] == 4]
    beyond = [s for s in range(C.n_spaces) if outside(s) and not
              (0 < C.fire_distance[S(41), s] <= 4) and C.space_info[s, L.S_KIND] != L.KIND_CAMP]
    assert reach and beyond
    sp[reach[0], L.SP_BOURBON], sp[beyond[0], L.SP_BOURBON] = 3, 6
    assert A.can_fire(K, sp, S(41), reach[0]) and not A.can_fire(K, sp, S(41), beyond[0])
    g[L.G_SEAT_AP] = 1
    A.pay(K, p, g, L.A_FIRE_CANNON, S(41), reach[0], no_log())
    A.fire_cannon(K, sp, g, S(41), reach[0])
    assert g[L.G_SEAT_AP] == 0 and sp[reach[0], L.SP_BOURBON] == 0


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
    A.move_troops(K, p, W, sp, g, source, S("A2"), 0, 1, no_log())
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
        A.move_troops(K, p, W, sp, g, S(source), S(target), coronela, infantry, no_log())
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
    A.move_troops(K, p, W, sp, g, source, camp, 0, 1, no_log())
    assert sp[camp, L.SP_RAZED] == 1 and g[L.G_DISC + L.DISC_BATTERIES] == 5
    A.move_troops(K, p, W, sp, g, source, camp, 0, 1, no_log())
    assert g[L.G_DISC + L.DISC_BATTERIES] == 5 and sp[camp, L.SP_INFANTRY] == 2


# -- the scripted players -------------------------------------------------------------


@pytest.mark.parametrize("policy", [policies.GREEDY, policies.RANDOM, policies.FORTIFY])
@pytest.mark.parametrize("full", [False, True])
def test_players_spend_ap_legally_and_keep_every_piece(policy, full):
    p, w = params(full=full), weights(policy)
    for seed in range(4):
        sp, g = set_up(C, full)
        rng = streams(seed, 1)
        sp[C.space("o1-7"), L.SP_BOURBON] = 5  # something to shoot at and fear
        sp[S(33), L.SP_RUBBLE] = L.RUBBLE
        sp[C.wounded, L.SP_CORONELA] = 3
        totals = sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0)
        g[L.G_SEAT_AP] = 6
        policies.spend_action_points(K, CARDS, p, w, sp, g, rng, no_log())
        assert 0 <= g[L.G_SEAT_AP] < 6
        assert (sp >= 0).all()
        assert (sp[:, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON]].sum(axis=0) == totals).all()
        assert (sp[:, L.SP_CANNON_FIRED] <= sp[:, L.SP_CANNON]).all()


def test_greedy_fires_at_the_tile_threatening_the_city():
    p, (sp, g) = params(), set_up(C, False)
    target = C.space("o1-7")  # its yellow arrow leads into Jonqueres-51
    sp[target, L.SP_BOURBON] = 5
    g[L.G_SEAT_AP] = 1
    policies.spend_action_points(K, CARDS, p, W, sp, g, streams(0, 0), no_log())
    assert sp[target, L.SP_BOURBON] == 0  # first-game Gunpowder Store 5


def test_example_11_a_single_troop_makes_two_moves_for_one_action():
    p, (sp, g) = params(), empty_state(C)
    sp[S(15), L.SP_CORONELA] = 1
    A.move_one_troop_twice(K, p, W, sp, g, S(15), S(21), S(22), L.SP_CORONELA, no_log())
    assert sp[S(22), L.SP_CORONELA] == 1 and sp[S(21), L.SP_CORONELA] == 0


def test_a_fight_on_the_first_step_ends_the_double_move():
    p, (sp, g) = params(), empty_state(C)
    sp[S(15), L.SP_INFANTRY] = 1
    sp[S(21), L.SP_BOURBON] = 1
    A.move_one_troop_twice(K, p, W, sp, g, S(15), S(21), S(22), L.SP_INFANTRY, no_log())
    assert sp[S(21), L.SP_INFANTRY] == 1 and sp[S(22), L.SP_INFANTRY] == 0
