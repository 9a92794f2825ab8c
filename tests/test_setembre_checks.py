"""State checks of both 11 de Setembre games (``simkit.checks``): each invariant can fail,
and no preset or policy of either game breaks one.

For every invariant of ``layout.INVARIANTS`` a real state (the rulebook's Example of
combat played by the assault scenario; two turns of the whole game after its set-up) is
corrupted in one way, and ``checks.check_state`` must name that invariant; then every
preset and every policy of each side is played with ``check_state=True``.
"""

import numpy as np
import pytest
from loaded_dice import loaded

from simkit import checks, games
from simkit.errors import StateError
from simkit.eventlog import new_log, no_log
from simkit.games.setembre1714 import GAME as FULL
from simkit.games.setembre1714 import board as B
from simkit.games.setembre1714 import checks as FC
from simkit.games.setembre1714 import engine as E
from simkit.games.setembre1714 import layout as F
from simkit.games.setembre1714.components import load_board
from simkit.games.setembre1714_assault import GAME as ASSAULT
from simkit.games.setembre1714_assault import checks as AC
from simkit.games.setembre1714_assault import engine as AE
from simkit.games.setembre1714_assault import layout as A
from simkit.rng import game_streams

BOARD, NAMES = load_board()
N_ZONES = BOARD.zone.shape[0]
GREEDY = FULL.policy_rows.build(FULL.policy_choices(None))  # the kernels' pol
N_GAMES = 30


def reported(log):
    """The broken invariant's name and its detail, or None."""
    found = checks.broken_state(log)
    return None if found is None else found[:2]


# -- the assault scenario -----------------------------------------------------------------

STAND = ASSAULT.policy_choices({"catalans": "stand"})


def example_first_assault():
    """The Example of combat's salvo (4, 1, 3, 6) and first assault (5 against 2, the
    commander's 6), as the scenario plays it: repulsed, 4 defenders left in the zone."""
    rules = ASSAULT.resolve_rules("example_first_assault")
    p, pol = ASSAULT.kernel_inputs(rules, STAND)
    rng = loaded(A.N_STREAMS, rolls={A.ST_SALVO: (4, 1, 3, 6), A.ST_ASSAULT: (5, 2),
                                     A.ST_COMMANDER: (6,)},
                 per_counter={A.ST_BREACH: {1: 6}})
    out = np.zeros(A.N_OUT, np.int16)
    AE.play_assault(rng, p, pol, out, no_log())
    assert out[A.O_END_REASON] == A.END_REPULSED
    return p, out, 4


def assault_report(p, out, defenders, step=A.STEP_END):
    log = no_log(check_state=True)
    AC.check_state(p, ASSAULT.policy_rows.build(STAND), out, defenders, log, step,
                   int(out[A.O_TURNS]))
    return reported(log)


def breach_after_the_turn(p, out, defenders):
    out[A.O_BREACH_TURN] = out[A.O_TURNS] + 1
    return defenders


def defender_appears(p, out, defenders):
    return defenders + 1


def six_defenders(p, out, defenders):
    p[A.P_DEFENDER_UNITS] = 7  # a zone set up with 7, one lost to the salvo
    return 6


def a_shot_without_a_gun(p, out, defenders):
    out[A.O_ARTILLERY_KILLS] = 1
    return defenders - 1


def more_kills_than_dice(p, out, defenders):
    out[A.O_SALVO_KILLS] = p[A.P_SALVO_UNITS] + 1
    return defenders - p[A.P_SALVO_UNITS]


def attack_value_off_by_one(p, out, defenders):
    out[A.O_ATTACK_VALUE] += 1
    return defenders


def attacker_higher_yet_repulsed(p, out, defenders):
    out[A.O_ATTACK_ROLL] = 6  # 9 + 6 against 12 + 2: the attacker was higher
    return defenders


def zone_held_by_the_wrong_side(p, out, defenders):
    out[A.O_WINNER] = A.WIN_BOURBONS
    return defenders


def absent_commander_lost(p, out, defenders):
    out[A.O_ATTACKER_COMMANDER_LOST] = 1  # the example has no Bourbon commander
    return defenders


ASSAULT_CORRUPTIONS = {
    "turn and breach on their tracks": breach_after_the_turn,
    "defenders conserved": defender_appears,
    "stacking limit": six_defenders,
    "one shot per gun": a_shot_without_a_gun,
    "one die per firing unit": more_kills_than_dice,
    "assault values": attack_value_off_by_one,
    "assault result": attacker_higher_yet_repulsed,
    "zone control follows the occupants": zone_held_by_the_wrong_side,
    "commander casualties": absent_commander_lost,
}


def test_every_assault_invariant_has_a_corruption():
    assert set(ASSAULT_CORRUPTIONS) == set(A.INVARIANTS)
    assert ASSAULT.invariants == A.INVARIANTS and ASSAULT.steps == A.STEPS


def test_the_example_of_combat_breaks_no_assault_invariant():
    p, out, defenders = example_first_assault()
    for step in range(len(A.STEPS)):
        assert assault_report(p, out, defenders, step) is None, A.STEPS[step]


@pytest.mark.parametrize("invariant", A.INVARIANTS)
def test_each_assault_invariant_can_fail(invariant):
    p, out, defenders = example_first_assault()
    defenders = ASSAULT_CORRUPTIONS[invariant](p, out, defenders)
    found = assault_report(p, out, defenders)
    assert found is not None and A.INVARIANTS[found[0]] == invariant


# -- the whole game -----------------------------------------------------------------------

def played(turns=2, game=3, seed=1714):
    """The state after set-up and ``turns`` turns of greedy play."""
    p = FULL.kernel_inputs(FULL.Rules(), FULL.policy_choices(None))[0]
    s = np.zeros(F.N_STATE, np.int64)
    rng = game_streams(np.uint64(seed), game, F.N_STREAMS)
    E.set_up(rng, s, BOARD, p)
    for turn in range(1, turns + 1):
        assert E.play_turn(rng, s, BOARD, p, GREEDY, turn, no_log()) < 0
    return s, p


def full_report(s, p, step=F.STEP_TURN_END, turn=None):
    log = no_log(check_state=True)
    FC.check_state(s, BOARD, p, log, step, s[F.S_TURN] if turn is None else turn)
    return reported(log)


def zones_of(s, side):
    return [z for z in range(N_ZONES) if B.count(s, side, z) > 0]


def leaders_in(s, z):
    return [k for k in range(BOARD.leader.shape[0]) if s[F.S_LEADER_ZONE + k] == z]


def elimination_not_in_a_pile(s, p):
    s[F.S_UNITS_LOST + F.CATALANS] += 1


def commander_among_the_enemy(s, p):
    k = next(k for k in range(BOARD.leader.shape[0]) if BOARD.leader[k, F.L_SIDE] == F.CATALANS
             and not BOARD.leader[k, F.L_FLAG] and s[F.S_LEADER_ZONE + k] >= 0)
    s[F.S_LEADER_ZONE + k] = zones_of(s, F.BOURBONS)[0]


def catalan_unit_in_a_bourbon_zone(s, p):
    z = next(z for z in zones_of(s, F.BOURBONS) if not leaders_in(s, z))
    u = next(u for u in range(BOARD.unit.shape[0]) if BOARD.unit[u, F.U_SIDE] == F.CATALANS
             and s[F.S_UNIT_ZONE + u] >= 0)
    B.lift_unit(s, BOARD, u)
    B.place_unit(s, BOARD, u, z)


def six_in_a_zone(s, p):
    z = next(z for z in zones_of(s, F.CATALANS) if not BOARD.zone[z, F.Z_DEPLOYMENT])
    for u in range(BOARD.unit.shape[0]):
        if B.count(s, F.CATALANS, z) > p[F.P_STACKING]:
            break
        if BOARD.unit[u, F.U_SIDE] == F.CATALANS and s[F.S_UNIT_ZONE + u] not in (z, -1, -2):
            B.lift_unit(s, BOARD, u)
            B.place_unit(s, BOARD, u, z)


def count_off_the_map(s, p):
    s[F.S_COUNT + F.CATALANS * F.MAX_ZONES + F.MAX_ZONES - 1] = 1  # beyond the map's zones


def gun_gone_uncounted(s, p):
    g = next(g for g in range(BOARD.gun.shape[0]) if s[F.S_GUN_ZONE + g] >= 0)
    s[F.S_GUN_ZONE + g] = F.ELIMINATED


def barricade_facing_a_far_zone(s, p):
    k = next(k for k in range(BOARD.barricade.shape[0]) if s[F.S_BARRICADE_ZONE + k] >= 0)
    s[F.S_BARRICADE_FACES + k] = 0  # Left Two Crowns, outside the wall


def flag_lost_yet_not_eliminated(s, p):
    s[F.S_FLAG_LOST] = 1


def breach_after_the_turn_full(s, p):
    s[F.S_BREACH_TURN] = s[F.S_TURN] + 1


def card_twice_in_the_deck(s, p):
    s[F.S_DECK + 1] = s[F.S_DECK]


FULL_CORRUPTIONS = {
    "combat units conserved": elimination_not_in_a_pile,
    "commanders conserved": commander_among_the_enemy,
    "one side a zone": catalan_unit_in_a_bourbon_zone,
    "stacking limit": six_in_a_zone,
    "zone control follows the occupants": count_off_the_map,
    "guns never move": gun_gone_uncounted,
    "barricades where the rules allow": barricade_facing_a_far_zone,
    "the flag where the rules allow": flag_lost_yet_not_eliminated,
    "turn and breach on their tracks": breach_after_the_turn_full,
    "event deck": card_twice_in_the_deck,
}


def test_every_full_invariant_has_a_corruption():
    assert set(FULL_CORRUPTIONS) | {"victory points"} == set(F.INVARIANTS)
    assert FULL.invariants == F.INVARIANTS and FULL.steps == F.STEPS


def test_a_played_state_breaks_no_invariant():
    s, p = played()
    assert full_report(s, p) is None
    assert full_report(*played(turns=0), step=F.STEP_SET_UP, turn=0) is None


@pytest.mark.parametrize("invariant", sorted(FULL_CORRUPTIONS))
def test_each_full_invariant_can_fail(invariant):
    s, p = played()
    FULL_CORRUPTIONS[invariant](s, p)
    found = full_report(s, p)
    assert found is not None and F.INVARIANTS[found[0]] == invariant


def test_reinforcements_may_overstack_until_they_move():
    """10.1: reinforcements "can infringe stacking limits, but they have to comply to
    them as fast as he can move"; 6.3: the limit applies at all other times."""
    s, p = played()
    six_in_a_zone(s, p)
    assert full_report(s, p, step=F.STEP_REINFORCEMENTS) is None
    assert F.INVARIANTS[full_report(s, p, step=F.STEP_MOVEMENT)[0]] == "stacking limit"


def finished_game(seed=5):
    p = FULL.kernel_inputs(FULL.Rules(), FULL.policy_choices(None))[0]
    s = np.zeros(F.N_STATE, np.int64)
    out = np.zeros(F.N_OUT, np.int16)
    E.play_game(game_streams(np.uint64(seed), 0, F.N_STREAMS), s, BOARD, p, GREEDY, out,
                no_log())
    return s, p, out


def victory_report(s, p, out):
    log = no_log(check_state=True)
    FC.check_victory(s, BOARD, p, out, log, int(out[F.O_TURNS]))
    return reported(log)


def test_victory_points_are_the_sum_of_section_13():
    s, p, out = finished_game()
    assert victory_report(s, p, out) is None
    out[F.O_CATALAN_VP] += 1
    assert victory_report(s, p, out) == (F.INV_VP, F.CATALANS)
    out[F.O_CATALAN_VP] -= 1
    out[F.O_WINNER] = F.WIN_TIE if out[F.O_WINNER] != F.WIN_TIE else F.WIN_BOURBONS
    assert victory_report(s, p, out) == (F.INV_VP, 4)


# -- every preset and every policy, checked at every rule step --------------------------------

def cases(game):
    """Every preset under every policy; a rollout player (a kernel of its own, a game a
    second) under the standard rules only: its rollouts are the script's games."""
    rules = [None, *game.presets]
    policies = [None] + [{side: policy} for side in game.sides
                         for policy in list(game.policies[side])[1:]]
    return [(game.name, r, pol) for r in rules for pol in policies
            if r is None or not is_search(game, pol)]


def is_search(game, policy) -> bool:
    return bool(policy) and any(item in game.policy_kernels for item in policy.items())


#: games a rollout player plays with the checks on
SEARCH_GAMES = 2


@pytest.mark.parametrize(("name", "rules", "policy"), cases(ASSAULT) + cases(FULL))
def test_no_invariant_breaks_in_any_preset_or_policy(name, rules, policy):
    game = games.get(name)
    n = SEARCH_GAMES if is_search(game, policy) else N_GAMES
    game.simulate(rules, policy, np.arange(n), 1714, check_state=True)


def test_a_broken_state_raises_naming_game_turn_step_and_invariant(monkeypatch):
    """SIMKIT_CHECK_STATE turns the checks on for every run; a broken invariant raises
    StateError in the game's words (its INVARIANTS and STEPS)."""
    monkeypatch.setenv(checks.ENV, "1")
    assert checks.requested()
    FULL.simulate(None, None, np.arange(2), 3)  # checked, and clean
    log = new_log(check_state=True)
    checks.at_game(log, 1)
    checks.broken(log, F.INV_STACKING, 33, F.STEP_MOVEMENT, 4)
    with pytest.raises(StateError, match=r"game index 8 of seed 3, turn 4, after movement "
                                         r"phase: invariant broken: stacking limit"):
        checks.raise_if_broken(FULL.name, log, np.array([7, 8]), 3, FULL.invariants,
                               FULL.steps)
