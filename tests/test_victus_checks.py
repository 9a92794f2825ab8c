"""Victus's state checks: each invariant of ``layout.INVARIANTS`` fails on a real state
corrupted to break it (so every check can fail), every preset and policy plays with the
checks on and breaks none, and the bugs the checks found stay fixed (each through the
real code path, quoting the rulebook)."""

import numpy as np
import pytest
from victus_support import W, streams

import simkit
from simkit.checks import broken_state, raise_if_broken
from simkit.errors import StateError
from simkit.eventlog import events, new_log, no_log
from simkit.games.victus import (
    _static,
    bourbons,
    card_effects,
    checks,
    engine,
    hands,
    policies,
    rules,
)
from simkit.games.victus import card_layout as CL
from simkit.games.victus import events as EV
from simkit.games.victus import layout as L
from simkit.games.victus.pieces import marker_value

GAME = simkit.games.get("victus")
SCRIPTED = [name for name in GAME.policies["players"] if name != "lookahead"]
C, K, DICE, CARDS_OBJ = _static()
CARDS = CARDS_OBJ.as_tuple()


def position(preset="full", seed=1):
    """A real state: ``preset``'s set-up, the piles formed and Stage I dealt."""
    rules = GAME.resolve_rules(preset)
    p, _, sp, g = GAME.kernel_inputs(rules, GAME.policy_choices("greedy"))
    sp, g = sp.copy(), g.copy()
    rng = streams(seed, 0)
    engine.set_up_game(CARDS, p, g, rng)
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_I, no_log())
    return p, sp, g, rng


def mid_game(preset="full", rounds=2):
    """``position`` after ``rounds`` rounds of Stage I played by the greedy players."""
    p, sp, g, rng = position(preset)
    g[L.G_NEXT] = L.NEXT_ROUND  # the position stands at the first round's start
    for _ in range(rounds):
        reached = engine.play_until(K, DICE, CARDS, p, W, sp, g, rng, L.STOP_ROUND, no_log())
        assert reached == L.STOP_ROUND, "the game goes on to the next round"
    return p, sp, g


def broken_invariant(p, sp, g, step=L.STEP_CARD_ACTION):
    """The name of the first invariant ``check_state`` finds broken, or None."""
    log = no_log(check_state=True)
    checks.check_state(K, CARDS, p, sp, g, log, step, g[L.G_TURN])
    found = broken_state(log)
    return None if found is None else L.INVARIANTS[found[0]]


def space(number):
    return C.space(number)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_real_states_keep_every_invariant(preset):
    p, sp, g, _ = position(preset)
    assert broken_invariant(p, sp, g, L.STEP_START_OF_STAGE) is None
    p, sp, g = mid_game(preset)
    assert broken_invariant(p, sp, g, L.STEP_END_OF_ROUND) is None


# -- each invariant can fail ----------------------------------------------------------------------
# A corruption takes a real state (p, sp, g) and breaks one invariant only; it returns the
# step to check after (most invariants hold after every step).


def lose_a_coronela(p, sp, g):
    sp[np.flatnonzero(sp[:, L.SP_CORONELA])[0], L.SP_CORONELA] -= 1  # gone, to nowhere


def infantry_from_nowhere(p, sp, g):
    sp[C.wounded, L.SP_INFANTRY] += 1


def a_thirteenth_cannon(p, sp, g):
    sp[space(44), L.SP_CANNON] += 1


def a_cannon_fires_twice(p, sp, g):
    sp[space(44), L.SP_CANNON_FIRED] = sp[space(44), L.SP_CANNON] + 1


def cannons_still_fired_after_the_turn(p, sp, g):
    sp[space(44), L.SP_CANNON_FIRED] = 1
    return L.STEP_END_OF_TURN


def negative_bourbons(p, sp, g):
    sp[C.camps[0], L.SP_BOURBON] = -1


def more_bourbons_than_tiles(p, sp, g):
    sp[C.camps[0], L.SP_BOURBON] = 1000


def trench_tile_past_the_3rd_parallel(p, sp, g):
    g[L.G_TRENCH + 2] = L.N_POSITIONS


def rubble_from_nowhere(p, sp, g):
    sp[space(11), L.SP_RUBBLE] = L.RUBBLE  # placed without taking it from the pile


def rubble_outside_barcelona(p, sp, g):
    sp[C.camps[0], L.SP_RUBBLE] = L.RUBBLE
    g[L.G_RUBBLE_SUPPLY] -= 1


def bastion_defense_off_a_bastion(p, sp, g):
    sp[space(45), L.SP_DEFENSE] = 1  # a wall space


def bastion_defense_plus_three(p, sp, g):
    sp[space(44), L.SP_DEFENSE] = 3


def barricade_outside_barcelona(p, sp, g):
    sp[C.camps[0], L.SP_BARRICADES] = 1


def eleven_barricades(p, sp, g):
    sp[space(12), L.SP_BARRICADES] = 11


def six_organ_guns(p, sp, g):
    sp[space(12), L.SP_ORGAN_GUNS] = 6


def a_barricade(p, sp, g):  # First Game: "Leave the rest of the components in the box"
    sp[space(12), L.SP_BARRICADES] = 1


def an_organ_gun(p, sp, g):
    sp[space(12), L.SP_ORGAN_GUNS] = 1


def the_mine_disc_moved(p, sp, g):
    g[L.G_DISC + L.DISC_MINE] = 1


def battery_tile_in_barcelona(p, sp, g):
    sp[space(12), L.SP_BATTERY_TILES] = 1


def razed_tile_off_a_camp(p, sp, g):
    sp[space(12), L.SP_RAZED] = 1


def seven_razed_camps(p, sp, g):
    sp[C.camps[:7], L.SP_RAZED] = 1


def bourbons_on_a_razed_camp(p, sp, g):
    sp[C.camps[4], L.SP_RAZED] = 1
    sp[C.camps[4], L.SP_BOURBON] = 2


def a_captured_cannon(p, sp, g):
    sp[np.flatnonzero(sp[:, L.SP_CANNON])[0], L.SP_CANNON] -= 1
    sp[C.captured, L.SP_CANNON] += 1  # capture takes troops only


def an_unfought_combat(p, sp, g):
    sp[space(44), L.SP_BOURBON] = 2  # beside its infantry and cannon


def troops_left_in_a_camp(p, sp, g):
    source = np.flatnonzero(sp[:, L.SP_CORONELA])[0]
    sp[source, L.SP_CORONELA] -= 1
    sp[C.camps[3], L.SP_CORONELA] += 1
    return L.STEP_END_OF_TURN


def pin_off_its_dial(p, sp, g):
    g[L.G_MARKER + L.MARKER_GENERALITAT] = C.marker_len[L.MARKER_GENERALITAT]


def batteries_disc_on_0(p, sp, g):
    g[L.G_DISC + L.DISC_BATTERIES] = 0


def sense_fury_moved_in_the_full_game(p, sp, g):
    g[L.G_SENSE_FURY] = 6


def vp_in_the_full_game(p, sp, g):
    g[L.G_VP] = 3


def a_card_lost(p, sp, g):
    g[L.G_HAND] = 0  # seat 0's first card, to nowhere


def a_card_twice(p, sp, g):
    g[L.G_HAND + 1] = g[L.G_HAND]


def a_hand_short_of_a_card(p, sp, g):
    slot = next(k for k in range(L.HAND_SIZE) if g[L.G_HAND + L.HAND_SIZE + k])
    g[L.G_HAND + L.HAND_SIZE + slot] = 0  # seat 1's card back in the box
    g[L.G_CARDS_BOXED] += 1


def a_chance_card_twice(p, sp, g):
    g[L.G_CHANCE_DECK + 1] = g[L.G_CHANCE_DECK]


def an_event_as_leader(p, sp, g):
    meta = CARDS_OBJ.meta
    slot = next(k for k in range(L.HAND_SIZE)
                if meta[g[L.G_HAND + k], CL.M_KIND] == CL.KIND_EVENT and g[L.G_HAND + k])
    # seat 0's active leader (if any) and an event of its hand change places
    g[L.G_LEADER], g[L.G_HAND + slot] = g[L.G_HAND + slot], g[L.G_LEADER]


def a_fourth_resignation_tile(p, sp, g):
    g[L.G_RESIGNATION] = 4


def ap_overspent(p, sp, g):
    g[L.G_SEAT_AP] = -1


def flag_at_an_empty_seat(p, sp, g):
    g[L.G_FLAG] = L.N_SEATS


CORRUPTIONS = [
    (L.INV_CORONELA, "full", lose_a_coronela),
    (L.INV_INFANTRY, "full", infantry_from_nowhere),
    (L.INV_CANNON, "first_game", a_thirteenth_cannon),
    (L.INV_CANNON_FIRED, "full", a_cannon_fires_twice),
    (L.INV_CANNON_FIRED, "full", cannons_still_fired_after_the_turn),
    (L.INV_BOURBON, "full", negative_bourbons),
    (L.INV_BOURBON, "full", more_bourbons_than_tiles),
    (L.INV_TRENCH, "full", trench_tile_past_the_3rd_parallel),
    (L.INV_RUBBLE, "full", rubble_from_nowhere),
    (L.INV_RUBBLE, "full", rubble_outside_barcelona),
    (L.INV_DEFENSE, "full", bastion_defense_off_a_bastion),
    (L.INV_DEFENSE, "full", bastion_defense_plus_three),
    (L.INV_BARRICADE, "full", barricade_outside_barcelona),
    (L.INV_BARRICADE, "full", eleven_barricades),
    (L.INV_BARRICADE, "first_game", a_barricade),
    (L.INV_ORGAN_GUN, "full", six_organ_guns),
    (L.INV_ORGAN_GUN, "first_game", an_organ_gun),
    (L.INV_BATTERY, "full", battery_tile_in_barcelona),
    (L.INV_RAZED, "full", razed_tile_off_a_camp),
    (L.INV_RAZED, "full", seven_razed_camps),
    (L.INV_RAZED, "full", bourbons_on_a_razed_camp),
    (L.INV_BOXES, "full", a_captured_cannon),
    (L.INV_COMBATS, "full", an_unfought_combat),
    (L.INV_CAMPS, "full", troops_left_in_a_camp),
    (L.INV_MARKERS, "full", pin_off_its_dial),
    (L.INV_DISCS, "full", batteries_disc_on_0),
    (L.INV_DISCS, "first_game", the_mine_disc_moved),
    (L.INV_SENSE_FURY, "full", sense_fury_moved_in_the_full_game),
    (L.INV_VP, "full", vp_in_the_full_game),
    (L.INV_CARDS, "full", a_card_lost),
    (L.INV_CARDS, "competitive", a_card_twice),
    (L.INV_HANDS, "competitive", a_hand_short_of_a_card),
    (L.INV_CHANCE, "full", a_chance_card_twice),
    (L.INV_LEADERS, "full", an_event_as_leader),
    (L.INV_RESIGNATION, "solo", a_fourth_resignation_tile),
    (L.INV_AP, "full", ap_overspent),
    (L.INV_SEQUENCE, "full", flag_at_an_empty_seat),
]


@pytest.mark.parametrize("invariant, preset, corrupt", CORRUPTIONS,
                         ids=[c[2].__name__ for c in CORRUPTIONS])
def test_each_invariant_fails_on_a_corrupted_real_state(invariant, preset, corrupt):
    p, sp, g = mid_game(preset)
    step = corrupt(p, sp, g) or L.STEP_CARD_ACTION
    assert broken_invariant(p, sp, g, step) == L.INVARIANTS[invariant]


def test_every_invariant_has_a_corruption():
    assert {c[0] for c in CORRUPTIONS} == set(range(L.N_INVARIANTS))


# -- whole games with the checks on ---------------------------------------------------------------


@pytest.mark.parametrize("policy", SCRIPTED)
@pytest.mark.parametrize("preset", list(GAME.presets))
def test_every_preset_and_policy_keeps_every_invariant(preset, policy):
    GAME.simulate(preset, policy, range(20), 1714, check_state=True)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_the_lookahead_player_keeps_every_invariant(preset):
    GAME.simulate(preset, "lookahead:rollouts=1", range(2), 1714, check_state=True)


def test_a_broken_invariant_names_the_game_turn_step_and_invariant():
    """Two Coronela more in the Reserve than the box holds (the full game's set-up has
    27 + 3 + 2, and 34 of the 32 printed): the message names the game index, turn, step,
    invariant and detail. The reserve knobs that once did this are refused now."""
    p, sp, g, _ = position()
    sp[C.reserve, L.SP_CORONELA] += 2
    g[L.G_IN_PLAY + L.PLAY_CORONELA] += 2  # as if the set-up had placed them
    log = no_log(check_state=True)
    checks.check_state(K, CARDS, p, sp, g, log, L.STEP_SETUP, 0)
    with pytest.raises(StateError, match=r"victus: game index 7 of seed 3, turn 0, after "
                       r"setup: invariant broken: Coronela pieces conserved \(detail 34\)"):
        raise_if_broken("victus", log, np.array([7]), 3, L.INVARIANTS, L.STEPS)
    with pytest.raises(simkit.RulesError, match="reserve_coronela = 5"):
        GAME.simulate({"reserve_coronela": 5}, None, range(3), 3)


# -- the bugs the checks found ------------------------------------------------------------------


def logged(log, code):
    return [tuple(int(v) for v in e[1:]) for e in events(log) if e[0] == code]


def draw_face_down(g, seat, card):
    """``card`` drawn from its stage's pile and placed face down for ``seat``."""
    stage = CARDS_OBJ.meta[card, CL.M_STAGE]
    pile = L.G_PILE + stage * L.PILE_SIZE
    top = pile + g[L.G_PILE_NEXT + stage]
    where = pile + list(g[pile:pile + L.PILE_SIZE]).index(card)
    g[top], g[where] = g[where], g[top]
    g[L.G_PILE_NEXT + stage] += 1
    g[L.G_FACE_DOWN + seat] = card


def test_organ_guns_a_card_places_on_bourbon_tiles_fight_them():
    """Card 75, "Organ-Guns on the Breach", places 2 organ-guns on 53, 55 or 56. The
    Organ-Guns: "when present in a space, they ... trigger a combat there (even if there
    are no Barcelonan troops)"; "after resolving a combat in a space with organ-guns, all
    organ-gun tiles are eliminated from the space". Combat: "If, after resolving ... a
    card text action, there are both Barcelonan and Bourbon troops in the same space, the
    combat there must be resolved." Before, the tiles stood beside the Bourbons unfought."""
    p, sp, g, rng = position("full")
    breach = [space(n) for n in (53, 55, 56)]
    for s in breach:  # the defenders gone to WOUNDED, 3 Bourbons in each space
        for field in (L.SP_CORONELA, L.SP_INFANTRY, L.SP_CANNON):
            sp[C.wounded, field] += sp[s, field]
            sp[s, field] = 0
        sp[s, L.SP_BOURBON] = 3
    draw_face_down(g, 0, 75)
    log = new_log()
    card_effects.resolve_card(K, CARDS, p, W, sp, g, rng, 0, 75, log)
    placed = [s for s, piece, _ in logged(log, EV.EV_PLACED) if piece == CL.PIECE_ORGAN_GUN]
    assert len(placed) == 2
    # organ-gun 5 + Gunpowder Store 4 against 3: the Barcelonans win, the tile goes
    assert sorted(s for s, _, _ in logged(log, EV.EV_COMBAT)) == sorted(placed)
    assert [sp[s, L.SP_BOURBON] for s in placed] == [0, 0]
    assert sp[:, L.SP_ORGAN_GUNS].sum() == 0
    assert broken_invariant(p, sp, g) is None


def test_casanovas_pile_keeps_every_card_it_receives():
    """Solo Game: "Each time Casanova receives new cards (at the start of the round, from
    the change-a-card action, etc.), they are shuffled with the ones already in his pile of
    cards to play" (Example 30: the Stage I card left joins the seven of Stage II). Each
    Change 1 card gives him one more, so his pile can outgrow a hand: it held 24 cards and
    the 25th was lost (the stage's deal) or never given (Change 1 card)."""
    p, sp, g, rng = position("solo")
    while hands.pile_count(g) < 24:  # Stage I's Change 1 cards, bought over the rounds
        hands.add_to_hand(g, L.CASANOVA, hands.draw_event(g, L.STAGE_I), L.PILE_SLOTS)
    g[L.G_SEAT_AP] = 3
    assert policies.change_a_card(K, CARDS, p, W, g, rng, no_log())
    assert hands.pile_count(g) == 25
    engine.start_of_stage(K, CARDS, p, W, g, rng, L.STAGE_II, no_log())  # he is dealt 7 more
    assert hands.pile_count(g) == 32
    assert broken_invariant(p, sp, g, L.STEP_START_OF_STAGE) is None


def test_the_solo_deal_knobs_keep_casanovas_pile_within_the_engine():
    assert rules.casanova_pile_at_most(7, 6) == 63 <= L.PILE_SLOTS  # the rulebook's deal
    with pytest.raises(simkit.RulesError, match="Casanova's pile"):
        rules.Rules(level="full", players=1, cards_per_stage=7, rounds_per_stage=1)


def test_a_troop_healed_to_the_port_fights_the_bourbons_there():
    """First Game, Healing: "Port: +1: take one Barcelonan troop from Reserve and place it
    in the Port space" (Example 3). Combat: "If, after resolving a Bourbon advance action,
    ... there are both Barcelonan and Bourbon troops in the same space, the combat there
    must be resolved"; as in Combats in Hospitals, the troops healed fight at once. The
    troop stood beside the Bourbons unfought."""
    p, sp, g, rng = position("first_game")
    port = C.port
    sp[C.reserve, L.SP_CORONELA] += sp[port, L.SP_CORONELA]  # the Port emptied, ...
    sp[port, L.SP_CORONELA] = 0
    sp[port, L.SP_BOURBON] = 2  # ... and Bourbons in it
    assert marker_value(K, g, L.MARKER_PORT) == 1
    log = new_log()
    # Reinforcements 3: the disc ends on position 3, a Healing icon (Example 3)
    bourbons.resolve_die(K, p, W, sp, g, rng, L.ACT_REINFORCEMENTS, 3, False, log)
    assert C.track_icons[g[L.G_DISC + L.DISC_REINFORCEMENTS]] & L.ICON_HEALING
    # a Coronela (1) and the Gunpowder Store (5) against 2: the Bourbons are eliminated
    assert (port, 2, 6) in logged(log, EV.EV_COMBAT)
    assert sp[port, L.SP_BOURBON] == 0 and sp[port, L.SP_CORONELA] == 1
    assert broken_invariant(p, sp, g, L.STEP_BOURBON_DIE) is None


def test_the_first_game_deal_knobs_fit_in_its_piles():
    """First Game, Setup: "From each pile, find the cards that have a • ... Return the
    rest of the cards without a • to the box": a stage pile holds the • cards only (20 in
    the reconstruction), not 50, so 3 players x 7 cards left the third player short
    ("every player holds as many cards" broke at the first deal)."""
    assert rules.stage_pile(False) == 20 and rules.stage_pile(True) == 50
    with pytest.raises(simkit.RulesError, match="First Game's"):
        rules.Rules(level="first_game", players=3, cards_per_stage=7, rounds_per_stage=6)
    fits = {"level": "first_game", "players": 4, "cards_per_stage": 5, "rounds_per_stage": 4}
    GAME.simulate(fits, "greedy", range(10), 1714, check_state=True)
