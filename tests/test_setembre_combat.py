"""11 de Setembre's combat system: exact answers, the rulebook's worked examples, and
the assault scenario's Monte Carlo against its exact distribution.

Sources: rulebook sections 7 (Royal Breach), 9 (artillery) and 11 (combat) with their
worked examples (Example of artillery fire, Example of combat). Expected values are
written as fractions worked out by hand from the rules, or as six-decimal tables of the
closed forms computed independently of simkit.
"""

import itertools
import re
from fractions import Fraction as F
from functools import cache
from math import comb

import numpy as np
import pytest
from loaded_dice import advanced, loaded

import simkit
from simkit import prob as P
from simkit.eventlog import events, new_log, no_log
from simkit.games.setembre1714_assault import GAME as ASSAULT
from simkit.games.setembre1714_assault import combat_system as CS
from simkit.games.setembre1714_assault import engine
from simkit.games.setembre1714_assault import events as EV
from simkit.games.setembre1714_assault import layout as L
from simkit.games.setembre1714_assault import prob as SP
from simkit.games.setembre1714_assault.rules import Rules
from simkit.stats import clopper_pearson

GAME = "setembre1714-assault"
REASONS = ("taken", "withdrew", "cleared", "repulsed", "breach_closed")
POLICIES = ("stand", "withdraw", "cautious")
SIXTH = F(1, 6)


def two_dice_beats(delta: int) -> F:
    """P(X - Y > delta) for two fair d6, by counting the 36 pairs (independent of simkit)."""
    wins = sum(1 for x in range(1, 7) for y in range(1, 7) if x - y > delta)
    return F(wins, 36)


def two_dice_tie(delta: int) -> F:
    """P(X - Y == delta) for two fair d6, by counting the 36 pairs."""
    return F(sum(1 for x in range(1, 7) for y in range(1, 7) if x - y == delta), 36)


# -- exact values ------------------------------------------------------------------------

# rule 7, 1 - (5/6)^t: t, P(assured by t), P(first on t)
BREACH_TABLE = [
    (1, 0.166667, 0.166667),
    (2, 0.305556, 0.138889),
    (3, 0.421296, 0.115741),
    (4, 0.517747, 0.096451),
    (5, 0.598122, 0.080376),
    (6, 0.665102, 0.066980),
    (8, 0.767432, 0.046514),
    (10, 0.838494, 0.032301),
    (12, 0.887843, 0.022431),
]


@pytest.mark.parametrize(("t", "by", "first_on"), BREACH_TABLE)
def test_breach_by_matches_closed_form_and_table(t, by, first_on):
    assert SP.breach_by(t) == 1 - F(5, 6) ** t
    assert round(float(SP.breach_by(t)), 6) == by
    first = P.geometric_on(SIXTH, t)
    assert first == F(5, 6) ** (t - 1) * SIXTH
    assert first == SP.breach_by(t) - (SP.breach_by(t - 1) if t > 1 else 0)
    assert round(float(first), 6) == first_on


def test_breach_by_first_values_and_other_breach_rolls():
    assert SP.breach_by(1) == F(1, 6)
    assert SP.breach_by(2) == F(11, 36)
    assert SP.breach_by(3) == F(91, 216)
    # a 5-or-6 variant: 1 - (2/3)^t; a 1-or-more variant: assured at once
    assert SP.breach_by(2, breach_roll=5) == F(5, 9)
    assert SP.breach_by(1, breach_roll=1) == 1


@pytest.mark.parametrize(("turns", "expected"), [
    (4, 2.588735), (6, 3.325510), (8, 3.837160), (10, 4.192472), (12, 4.439217)])
def test_expected_turns_with_breach_closed(turns, expected):
    closed = sum((1 - SP.breach_by(t) for t in range(1, turns + 1)), F(0))
    assert closed == 5 * (1 - F(5, 6) ** turns)
    assert round(float(closed), 6) == expected


# rule 11.2, Binomial(n, 1/6): n, P(K=0..3), P(K>=1), P(K>=2)
SALVO_TABLE = [
    (1, (0.833333, 0.166667, 0, 0), 0.166667, 0),
    (2, (0.694444, 0.277778, 0.027778, 0), 0.305556, 0.027778),
    (3, (0.578704, 0.347222, 0.069444, 0.004630), 0.421296, 0.074074),
    (4, (0.482253, 0.385802, 0.115741, 0.015432), 0.517747, 0.131944),
    (5, (0.401878, 0.401878, 0.160751, 0.032150), 0.598122, 0.196245),
    (10, (0.161506, 0.323011, 0.290710, 0.155045), 0.838494, 0.515483),
]


@pytest.mark.parametrize(("n", "pmf", "at_least_1", "at_least_2"), SALVO_TABLE)
def test_salvo_kills_pmf_matches_table(n, pmf, at_least_1, at_least_2):
    dist = SP.salvo_kills(n, 10)  # 10 defenders: the cap never binds
    assert sum(dist.values()) == 1
    for k in range(n + 1):
        assert dist[k] == F(comb(n, k) * 5 ** (n - k), 6**n)
    for k, expected in enumerate(pmf):
        assert round(float(dist.get(k, F(0))), 6) == expected
    assert round(float(P.prob(dist, lambda x: x >= 1)), 6) == at_least_1
    assert round(float(P.prob(dist, lambda x: x >= 2)), 6) == at_least_2
    assert sum(k * p for k, p in dist.items()) == F(n, 6)


def test_salvo_kills_capped_at_defenders():
    assert SP.salvo_kills(4, 1) == {0: F(5, 6) ** 4, 1: 1 - F(5, 6) ** 4}
    assert SP.salvo_kills(4, 1)[1] == F(671, 1296)
    capped = SP.salvo_kills(10, 3)
    assert set(capped) == {0, 1, 2, 3}
    assert capped[3] == sum(F(comb(10, k) * 5 ** (10 - k), 6**10) for k in range(3, 11))
    assert SP.salvo_kills(0, 5) == {0: 1}
    # the Example of combat's salvo: 4 units on 5 defenders, never capped
    assert SP.salvo_kills(4, 5) == {0: F(625, 1296), 1: F(500, 1296), 2: F(150, 1296),
                                    3: F(20, 1296), 4: F(1, 1296)}


def test_artillery_hit_chances():
    assert SP.artillery_kills(1, 0, 5) == {0: F(1, 2), 1: F(1, 2)}
    assert SP.artillery_kills(0, 1, 5) == {0: F(2, 3), 1: F(1, 3)}
    assert P.success_chance(4) == F(1, 2)
    assert P.success_chance(5) == F(1, 3)


@pytest.mark.parametrize(("m", "adjacent", "range_2"), [
    (1, 0.5, 0.333333), (2, 0.75, 0.555556), (3, 0.875, 0.703704), (4, 0.9375, 0.802469)])
def test_artillery_at_least_one_hit(m, adjacent, range_2):
    near = SP.artillery_kills(m, 0, 10)
    far = SP.artillery_kills(0, m, 10)
    assert 1 - near[0] == 1 - F(1, 2) ** m
    assert 1 - far[0] == 1 - F(2, 3) ** m
    assert round(float(1 - near[0]), 6) == adjacent
    assert round(float(1 - far[0]), 6) == range_2
    assert sum(k * p for k, p in near.items()) == F(m, 2)
    assert sum(k * p for k, p in far.items()) == F(m, 3)


def test_artillery_mixed_guns_capped_at_defenders():
    # 3 adjacent guns (1/2) and 2 at range 2 (1/3) on a zone of 2: worked by hand
    dist = SP.artillery_kills(3, 2, 2)
    assert dist == {0: F(1, 18), 1: F(2, 9), 2: F(13, 18)}


# rule 11.3, two d6, ties to the defender: delta -> P(A > D)
ATTACK_TABLE = {-6: F(1), -5: F(35, 36), -4: F(33, 36), -3: F(30, 36), -2: F(26, 36),
                -1: F(21, 36), 0: F(15, 36), 1: F(10, 36), 2: F(6, 36), 3: F(3, 36),
                4: F(1, 36), 5: F(0), 6: F(0)}


@pytest.mark.parametrize("delta", sorted(ATTACK_TABLE))
def test_attacker_wins_for_every_difference(delta):
    expected = ATTACK_TABLE[delta]
    assert expected == two_dice_beats(delta)
    for attack in (5, 9, 14):
        assert SP.attacker_wins(attack, attack + delta) == expected
    tie = P.prob(P.difference(SP.D6, SP.D6), lambda k: k == delta)
    assert tie == (F(6 - abs(delta), 36) if abs(delta) <= 5 else 0)
    assert tie == two_dice_tie(delta)


def test_attacker_wins_at_zero_difference_is_15_of_36():
    assert SP.attacker_wins(9, 9) == F(15, 36)
    assert SP.attacker_wins(9, 9) != F(21, 36)  # ties go to the defender


def test_commander_loss():
    assert SP.commanders_lost(1) == {0: F(5, 6), 1: F(1, 6)}
    both = SP.commanders_lost(2)
    assert both == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}
    assert both[1] + both[2] == 1 - F(5, 6) ** 2 == F(11, 36)
    assert round(float(both[1] + both[2]), 6) == 0.305556


def test_example_first_assault_exact():
    rules = ASSAULT.presets["example_first_assault"].rules
    assert rules.attack_value == 9  # grenadiers 5 + 4 additional units
    assert rules.defence_value(5) == 13  # before the salvo: 5 defenders
    assert rules.defence_value(4) == 12  # fusiliers 5 + 3 units + commander + barricade 3
    assert SP.attacker_wins(9, 12) == F(1, 12)
    assert two_dice_tie(12 - 9) == F(3, 36)  # the 14-14 tie seen in the example
    table = SP.answer_assault(SP.AssaultQuestion(attacker=9, defender=12))
    rows, tie = assault_rows(table, "stand")
    assert sorted(v for v in rows if v) == [F(1, 12), F(11, 12)]
    assert tie == F(3, 36)


def test_example_second_assault_exact():
    rules = ASSAULT.presets["example_second_assault"].rules
    assert rules.attack_value == 9
    assert rules.defence_value(4) == 11  # fusiliers 5 + 3 units + blue line 3
    assert rules.defence_value(4, withdrawal=True) == 13
    assert SP.attacker_wins(9, 13) == F(1, 36)  # the attacker keeps its lead
    assert SP.attacker_wins(9, 11) == F(1, 6)  # had the defender stood
    given_breach = {k: v / SP.breach_by(rules.max_turns)
                    for k, v in SP.scenario_outcome(rules, "withdraw").items()
                    if k != "breach_closed"}
    assert given_breach == {"taken": 0, "withdrew": 1, "cleared": 0, "repulsed": 0}
    stood = SP.scenario_outcome(rules, "stand")
    assert stood["taken"] / SP.breach_by(rules.max_turns) == F(1, 6)


def test_salvo_then_assault_on_the_same_zone():
    # by composition: 4 dice of salvo then the assault, 9 against 13 - k
    composed = sum((p * SP.attacker_wins(9, 13 - k) for k, p in SP.salvo_kills(4, 4).items()),
                   F(0))
    assert composed == F(5, 72)
    assert SP.attacker_wins(9, 13) == F(1, 36)  # without the salvo
    # through the scenario: defaults are the pre-salvo situation (5 defenders, Δ0 = 4)
    rules = Rules()
    assert rules.defence_value(5) - rules.attack_value == 4
    out = SP.scenario_outcome(rules, "stand")
    assert out["taken"] / SP.breach_by(rules.max_turns) == F(5, 72)
    sure = Rules(max_turns=60, breach_roll=1)
    assert SP.scenario_outcome(sure, "stand")["taken"] == F(5, 72)
    no_salvo = Rules(max_turns=60, breach_roll=1, salvo_units=0)
    assert SP.scenario_outcome(no_salvo, "stand")["taken"] == F(1, 36)


# -- scenario_outcome against a brute-force enumeration of every die --------------------

TERRAIN = {"open": 0, "urban": 2, "convent": 3, "blue_line": 3, "barricade": 3}
# 11.1: the zone's own defence value (a blue line or a barricade stands in an ochre zone)
ZONE_VALUE = {"open": 0, "urban": 2, "convent": 3, "blue_line": 0, "barricade": 0}


def salvo_fires(rules: Rules) -> bool:
    """11.2, written from the rulebook: no salvo at a zone of higher defence value than
    the firing zone's; blocked in an ochre zone by a blue line covering the side it
    comes across (a barricade faces the assaulting zone only, 12)."""
    if ZONE_VALUE[rules.terrain] > ZONE_VALUE[rules.salvo_from]:
        return False
    return not (rules.terrain == "blue_line" and rules.blue_line_covers_salvo)


def enumerate_given_breach(rules: Rules, catalans: str) -> dict[str, F]:
    """End reasons once the breach is assured, by listing every die the scenario uses.

    Written from the rulebook: adjacent guns hit on 4+, range-2 guns on 5+, each salvo 6
    kills, every kill needs a defender left; the assault adds 1d6 a side, ties to the
    defender. Unused dice (no target left) cannot change the distribution.
    """
    n_dice = rules.guns_adjacent + rules.guns_at_range_2 + rules.salvo_units + 2
    counts = dict.fromkeys(REASONS[:4], 0)
    for dice in itertools.product(range(1, 7), repeat=n_dice):
        it = iter(dice)
        left = rules.defender_units
        lead = rules.defender_lead  # the guns aim at it (9: the firer chooses)
        for _ in range(rules.guns_adjacent):
            if next(it) >= 4 and left:
                left -= 1
        for _ in range(rules.guns_at_range_2):
            if next(it) >= 5 and left:
                left -= 1
        if left < rules.defender_units:
            lead = rules.defender_others
        sixes = sum(1 for _ in range(rules.salvo_units) if next(it) == 6)
        left -= min(sixes, left) if salvo_fires(rules) else 0
        attack_die, defence_die = next(it), next(it)
        if left == 0:
            counts["cleared"] += 1
            continue
        attack = rules.attacker_lead + rules.attacker_units - 1 + rules.attacker_commander
        defence = (lead + TERRAIN[rules.terrain] + left - 1
                   + rules.defender_commander + rules.santa_eulalia_flag)
        if catalans == "withdraw" or (catalans == "cautious" and attack > defence):
            counts["withdrew"] += 1
        elif attack + attack_die > defence + defence_die:
            counts["taken"] += 1
        else:
            counts["repulsed"] += 1
    return {k: F(v, 6**n_dice) for k, v in counts.items()}


ENUM_SETTINGS = {
    "standard": {},
    "guns_urban": {"guns_adjacent": 1, "guns_at_range_2": 1, "salvo_units": 2,
                   "defender_units": 2, "terrain": "urban"},
    "lone_defender": {"salvo_units": 3, "defender_units": 1, "terrain": "open",
                      "attacker_commander": True, "defender_commander": False},
    "flag_convent": {"salvo_units": 2, "defender_units": 3, "terrain": "convent",
                     "santa_eulalia_flag": True, "attacker_lead": 3, "max_turns": 3},
    "salvo_from_the_convent": {"salvo_units": 2, "defender_units": 3, "terrain": "convent",
                               "salvo_from": "convent"},
    "blue_line_open_side": {"salvo_units": 3, "defender_units": 2, "terrain": "blue_line",
                            "blue_line_covers_salvo": False},
    "guns_weaker_others": {"guns_adjacent": 1, "guns_at_range_2": 1, "salvo_units": 1,
                           "defender_units": 3, "defender_others": 3},
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("setting", sorted(ENUM_SETTINGS))
def test_scenario_outcome_matches_enumeration(setting, policy):
    rules = Rules(**ENUM_SETTINGS[setting])
    exact = SP.scenario_outcome(rules, policy)
    breach = SP.breach_by(rules.max_turns)
    assert exact["breach_closed"] == 1 - breach
    assert sum(exact.values()) == 1
    enumerated = enumerate_given_breach(rules, policy)
    assert {k: exact[k] for k in enumerated} == {k: breach * v for k, v in enumerated.items()}


# -- the rulebook's worked examples, with the dice of the text ---------------------

def dice(breach=None, artillery=(), salvo=(), assault=(), commander=()):
    """Streams whose dice are the example's: ``breach`` maps a turn to its check's die."""
    return loaded(L.N_STREAMS, rolls={L.ST_ARTILLERY: artillery, L.ST_SALVO: salvo,
                                      L.ST_ASSAULT: assault, L.ST_COMMANDER: commander},
                  per_counter={L.ST_BREACH: breach or {}})


def same_but_breach(a, b):
    """Equal streams but the breach die's (restarted each turn: the log shows its dice)."""
    return np.array_equal(np.delete(a, L.ST_BREACH, 0), np.delete(b, L.ST_BREACH, 0))


def breach_turns(*faces):
    return {turn + 1: face for turn, face in enumerate(faces)}


def inputs(rules, policy=None):
    """The kernel's ``p`` and ``pol`` for ``rules`` and ``policy``, as the Game builds them."""
    return ASSAULT.kernel_inputs(rules, ASSAULT.policy_choices(policy))


def logged(log) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in row) for row in events(log)]


def test_royal_breach_check_assured_only_by_a_six():
    for face in range(1, 7):
        log = new_log()
        assert bool(CS.royal_breach_check(dice({3: face}), 6, 3, log)) == (face == 6)
        assert logged(log) == [(CS.EV_BREACH_CHECK, 3, face, int(face == 6))]
    for max_turns, assured in ((12, 6), (5, 0)):
        log = new_log()
        out = np.zeros(L.N_OUT, np.int16)
        p, pol = inputs(Rules(max_turns=max_turns))
        rolled = engine.turn_breach_assured(dice(breach_turns(1, 2, 3, 4, 5, 6)), p, pol, out,
                                            log)
        assert rolled == out[L.O_BREACH_TURN] == assured
        assert out[L.O_TURNS] == (assured or max_turns)
        checks = [row for row in logged(log) if row[0] == CS.EV_BREACH_CHECK]
        assert [row[2] for row in checks] == [1, 2, 3, 4, 5, 6][:assured or max_turns]
    assert logged(log)[-1] == (EV.EV_BREACH_NEVER, 5, 0, 0)


def test_example_of_artillery_fire():
    # Bourbon gun two zones away, die 4: a miss (range 2 needs 5 or 6)
    log = new_log()
    assert CS.artillery_fire(dice(artillery=(4,)), 1, 2, 5, log) == 0
    assert logged(log) == [(CS.EV_ARTILLERY, 2, 4, 0)]
    # Catalan gun in the Bastion of Llevant on the adjacent grenadiers, die 5: eliminated
    log = new_log()
    assert CS.artillery_fire(dice(artillery=(5,)), 1, 1, 1, log) == 1
    assert logged(log) == [(CS.EV_ARTILLERY, 1, 5, 1)]


@pytest.mark.parametrize("face", range(1, 7))
def test_artillery_hit_faces(face):
    assert CS.artillery_fire(dice(artillery=(face,)), 1, 1, 5, no_log()) == int(face >= 4)
    assert CS.artillery_fire(dice(artillery=(face,)), 1, 2, 5, no_log()) == int(face >= 5)


def test_artillery_needs_a_target_for_each_shot():
    state = dice(artillery=(4, 5, 6))
    log = new_log()
    assert CS.artillery_fire(state, 3, 1, 1, log) == 1  # one unit: one kill
    assert logged(log) == [(CS.EV_ARTILLERY, 1, 4, 1)]
    state = dice(artillery=(6,))
    before = state.copy()
    assert CS.artillery_fire(state, 2, 1, 0, no_log()) == 0
    assert np.array_equal(state, before)  # nothing to fire at: no die rolled


def test_example_of_combat_salvo():
    log = new_log()
    kills = CS.salvo_fire(dice(salvo=(4, 1, 3, 6)), 4, 5, log)
    assert kills == 1
    assert 5 - kills == 4  # the defending zone goes from 5 units to 4
    assert logged(log) == [(CS.EV_SALVO, 4, 1, 1)]


def test_salvo_kills_capped_at_targets():
    log = new_log()
    assert CS.salvo_fire(dice(salvo=(6, 6, 6, 2)), 4, 2, log) == 2
    assert logged(log) == [(CS.EV_SALVO, 4, 3, 2)]
    assert CS.salvo_fire(dice(salvo=(6,)), 0, 5, no_log()) == 0


def test_example_of_combat_first_assault_pieces():
    rules = ASSAULT.resolve_rules("example_first_assault")
    p, pol = inputs(rules)
    attack, defence, commander = engine.assault_values(p, pol[L.SIDE_BOURBONS], 4, 5)
    assert not commander  # none adjacent to the attacked zone
    assert (attack, defence) == (9, 12) == (rules.attack_value, rules.defence_value(4))
    state = dice(assault=(5, 2), commander=(6,))
    log = new_log()
    attack_die, defence_die, attacker_wins = CS.resolve_assault(state, attack, defence, log)
    assert (attack_die, defence_die) == (5, 2)
    assert attack + attack_die == defence + defence_die == 14
    assert not attacker_wins  # a tie: the defender wins
    assert CS.commander_casualty(state, L.SIDE_CATALANS, log)  # a 6
    assert logged(log) == [(CS.EV_ASSAULT_ROLL, 5, 2, 0), (CS.EV_COMMANDER_ROLL, 1, 6, 1)]


def test_commander_casualty_faces():
    for face in range(1, 7):
        dies = CS.commander_casualty(dice(commander=(face,)), L.SIDE_BOURBONS,
                                         no_log())
        assert bool(dies) == (face == 6)


def play(rules, catalans: str, state: np.ndarray, log=None):
    out = np.zeros(L.N_OUT, dtype=np.int16)
    engine.play_assault(state, *inputs(rules, {"catalans": catalans}), out,
                        no_log() if log is None else log)
    return out


def test_example_of_combat_salvo_and_first_assault_as_a_scenario():
    # breach assured, salvo 4 1 3 6, assault 5 v 2, commander 6
    state = dice({1: 6}, salvo=(4, 1, 3, 6), assault=(5, 2), commander=(6,))
    end = advanced(state, {L.ST_SALVO: 4, L.ST_ASSAULT: 2, L.ST_COMMANDER: 1})
    log = new_log()
    out = play(ASSAULT.resolve_rules("example_first_assault"), "stand", state, log)
    assert same_but_breach(state, end)  # exactly the example's dice were rolled
    assert out[L.O_BREACH_TURN] == out[L.O_TURNS] == 1
    assert out[L.O_ARTILLERY_KILLS] == 0
    assert out[L.O_SALVO_KILLS] == 1
    assert out[L.O_DEFENDERS_ASSAULTED] == 4
    assert (out[L.O_ATTACK_VALUE], out[L.O_DEFENCE_VALUE]) == (9, 12)
    assert (out[L.O_ATTACK_ROLL], out[L.O_DEFENCE_ROLL]) == (5, 2)
    assert out[L.O_WITHDREW] == 0
    assert out[L.O_ATTACKER_LEAD_LOST] == 1  # the grenadiers are eliminated
    assert out[L.O_DEFENDER_LEAD_LOST] == 0
    assert out[L.O_DEFENDER_COMMANDER_LOST] == 1
    assert out[L.O_ATTACKER_COMMANDER_LOST] == 0
    assert out[L.O_END_REASON] == L.END_REPULSED
    assert out[L.O_WINNER] == L.WIN_CATALANS
    assert logged(log) == [
        (CS.EV_BREACH_CHECK, 1, 6, 1),
        (CS.EV_SALVO, 4, 1, 1),
        (CS.EV_ASSAULT_VALUES, 9, 12, 0),
        (CS.EV_ASSAULT_ROLL, 5, 2, 0),
        (CS.EV_COMMANDER_ROLL, L.SIDE_CATALANS, 6, 1),
    ]


def test_example_of_combat_second_assault():
    rules = ASSAULT.resolve_rules("example_second_assault")
    p, pol = inputs(rules)
    assert engine.assault_values(p, pol[L.SIDE_BOURBONS], 4, 5) == (9, 11, False)
    state = dice({1: 6}, assault=(5, 6))  # breach assured, attacker 5, defender 6
    end = advanced(state, {L.ST_ASSAULT: 2})
    log = new_log()
    out = play(rules, "withdraw", state, log)
    assert same_but_breach(state, end)  # no commander: no casualty roll
    assert out[L.O_DEFENDERS_ASSAULTED] == 4
    assert out[L.O_SALVO_KILLS] == 0
    assert (out[L.O_ATTACK_VALUE], out[L.O_DEFENCE_VALUE]) == (9, 13)
    assert (out[L.O_ATTACK_ROLL], out[L.O_DEFENCE_ROLL]) == (5, 6)  # 14 against 19
    assert out[L.O_WITHDREW] == 1
    assert out[L.O_ATTACKER_LEAD_LOST] == 1
    assert out[L.O_DEFENDER_LEAD_LOST] == 0  # retreat with no losses
    assert out[L.O_DEFENDER_COMMANDER_LOST] == 0
    assert out[L.O_END_REASON] == L.END_WITHDREW
    assert out[L.O_WINNER] == L.WIN_BOURBONS  # the attacker advances into the zone
    assert logged(log) == [
        (CS.EV_BREACH_CHECK, 1, 6, 1),
        (CS.EV_ASSAULT_VALUES, 9, 13, 1),
        (CS.EV_ASSAULT_ROLL, 5, 6, 0),
    ]


def test_second_assault_without_withdrawal_is_repulsed():
    out = play(ASSAULT.resolve_rules("example_second_assault"), "stand",
               dice({1: 6}, assault=(5, 6)))
    assert (out[L.O_ATTACK_VALUE], out[L.O_DEFENCE_VALUE]) == (9, 11)
    assert out[L.O_END_REASON] == L.END_REPULSED
    assert out[L.O_WINNER] == L.WIN_CATALANS
    # cautious withdraws only when the attacker is higher before the dice: 9 < 11
    out = play(ASSAULT.resolve_rules("example_second_assault"), "cautious",
               dice({1: 6}, assault=(5, 6)))
    assert out[L.O_WITHDREW] == 0


# (terrain, salvo zone, blue line covers the salvo's side) -> does the salvo fire (11.2)
SALVO_CASES = {
    ("barricade", "urban", True): True,  # the Example of combat's salvo from the grey zone
    ("convent", "urban", True): False,  # "He can't shoot against Santa Clara"
    ("convent", "convent", True): True,  # equal defence values
    ("blue_line", "urban", True): False,  # the blue line covers the line of contact
    ("blue_line", "urban", False): True,
    ("urban", "open", True): False,  # grey (2) against ochre (0)
    ("urban", "urban", True): True,
    ("open", "open", True): True,
}


@pytest.mark.parametrize(("terrain", "salvo_from", "covers"), sorted(SALVO_CASES))
def test_salvo_obeys_11_2(terrain, salvo_from, covers):
    """11.2: "A combat with salvo fire cannot be done against opponents who are placed in
    a zone with higher defence value ... salvo fire is blocked by barricades and blue
    lines inside ochre and green attacked zones if these defences are covering the line
    of contact"; the Example of combat: "He can't shoot against Santa Clara, since the
    convent is a zone with a higher defence value (blue zone against grey zone)"."""
    fires = SALVO_CASES[(terrain, salvo_from, covers)]
    rules = Rules(terrain=terrain, salvo_from=salvo_from, blue_line_covers_salvo=covers)
    assert rules.salvo_permitted == fires == salvo_fires(rules)
    state = dice({1: 6}, salvo=(6, 6, 6, 6), assault=(1, 6))
    log = new_log()
    out = play(rules, "stand", state, log)
    assert out[L.O_SALVO_KILLS] == (4 if fires else 0)
    assert out[L.O_DEFENDERS_ASSAULTED] == (1 if fires else 5)
    assert any(code == CS.EV_SALVO for code, *_ in logged(log)) == fires


def test_convent_blue_line_and_barricade_play_different_games():
    """The three +3 terrains differ in the salvo they allow (11.2): the barricade lets the
    Example's salvo from the grey zone through, the convent and a covering blue line do
    not; fired from a blue zone, a salvo reaches the convent and not the blue line."""
    def play_all(**rules):
        frame = simkit.simulate(GAME, 3000, seed=5, rules=rules)
        return frame.to_numpy()
    barricade = play_all(terrain="barricade")
    convent = play_all(terrain="convent")
    blue_line = play_all(terrain="blue_line")
    assert not np.array_equal(barricade, convent)
    assert not np.array_equal(barricade, blue_line)
    assert not np.array_equal(play_all(terrain="convent", salvo_from="convent"),
                              play_all(terrain="blue_line", salvo_from="convent"))
    frame = simkit.simulate(GAME, 3000, seed=5, rules={"terrain": "convent"})
    assert (frame["salvo_kills"] == 0).all()


@pytest.mark.parametrize(("die", "defence"), [(4, 3 + 3 + 3 + 1), (3, 5 + 3 + 4 + 1)])
def test_the_guns_aim_at_the_defending_lead(die, defence):
    """9: "the active player defines what his target is" (the Example of artillery fire
    aims at the strength-5 regulars). Five defenders, a lead of 5 and four of 3, behind
    the barricade with their commander; one adjacent gun: a 4 eliminates the lead and a
    unit of 3 leads the four left (3 + 3 barricade + 3 units + 1 commander), a 3 misses
    (5 + 3 + 4 + 1); the salvo's losses stay the defender's (11.2), here none."""
    rules = Rules(guns_adjacent=1, defender_others=3)
    out = play(rules, "stand", dice({1: 6}, artillery=(die,), salvo=(1, 1, 1, 1),
                                    assault=(1, 6)))
    assert out[L.O_ARTILLERY_KILLS] == (die >= 4)
    assert out[L.O_DEFENCE_VALUE] == defence
    assert rules.defence_value(5 - (die >= 4), artillery_kills=int(die >= 4)) == defence


def test_attacker_wins_only_when_strictly_higher():
    # open ground, 5 v 5, no commanders: 9 v 9 before the dice
    rules = ASSAULT.resolve_rules("open_ground")
    for rolls, reason in (((4, 3), L.END_TAKEN), ((3, 3), L.END_REPULSED),
                          ((3, 4), L.END_REPULSED)):
        out = play(rules, "stand", dice({1: 6}, assault=rolls))
        assert (out[L.O_ATTACK_VALUE], out[L.O_DEFENCE_VALUE]) == (9, 9)
        assert out[L.O_END_REASON] == reason
        assert out[L.O_DEFENDER_LEAD_LOST] == (reason == L.END_TAKEN)
        assert out[L.O_ATTACKER_LEAD_LOST] == (reason == L.END_REPULSED)


# -- exact against Monte Carlo -------------------------------------------------------------

N_MC = 200_000
MC_SETTINGS = {
    "standard": None,
    "example_first_assault": "example_first_assault",
    "example_second_assault": "example_second_assault",
    "open_ground": "open_ground",
    "bombarded_bastion": "bombarded_bastion",
    "guns_clear": {"guns_adjacent": 2, "guns_at_range_2": 2, "defender_units": 3},
    "commanders_flag": {"attacker_commander": True, "santa_eulalia_flag": True},
    "convent": {"terrain": "convent"},  # 11.2: no salvo from the grey zone
    "blue_line": {"terrain": "blue_line"},  # 11.2: the line covers the salvo's side
    "blue_line_open_side": {"terrain": "blue_line", "blue_line_covers_salvo": False},
    "guns_weaker_others": {"guns_adjacent": 2, "guns_at_range_2": 1, "defender_others": 3},
}
MC_CASES = [(s, p) for s in MC_SETTINGS for p in POLICIES]


@cache
def mc_run(setting: str, policy: str):
    seed = 9000 + MC_CASES.index((setting, policy))
    rules = ASSAULT.resolve_rules(MC_SETTINGS[setting])
    frame = simkit.simulate(GAME, N_MC, seed=seed, rules=MC_SETTINGS[setting],
                            policy={"catalans": policy})
    assert len(frame) == N_MC
    return rules, frame


def assert_rate(k: int, n: int, exact: F, what: str):
    """``exact`` inside the 99.9% Clopper-Pearson interval of k/n (0 and 1 must be exact)."""
    if exact == 0:
        assert k == 0, f"{what}: {k} of {n} for an impossible event"
        return
    if exact == 1:
        assert k == n, f"{what}: {k} of {n} for a sure event"
        return
    ci = clopper_pearson(k, n, 0.999)
    assert ci.low <= float(exact) <= ci.high, f"{what}: exact {exact} = {float(exact):.6f}, " \
                                              f"Monte Carlo {ci}"


@pytest.mark.parametrize(("setting", "policy"), MC_CASES)
def test_end_reasons_match_exact(setting, policy):
    rules, frame = mc_run(setting, policy)
    exact = SP.scenario_outcome(rules, policy)
    assert set(exact) == set(REASONS)
    assert sum(exact.values()) == 1
    counts = frame["end_reason"].value_counts()
    for reason in REASONS:
        assert_rate(int(counts.get(reason, 0)), N_MC, exact[reason], f"{setting}/{policy} {reason}")
    winners = frame["winner"].value_counts()
    assert_rate(int(winners["catalans"]), N_MC, exact["repulsed"] + exact["breach_closed"],
                f"{setting}/{policy} catalans win")


def test_mc_settings_reach_every_end_reason():
    """The settings above exercise every end reason (so the checks above are not vacuous)."""
    seen = set()
    for setting, policy in MC_CASES:
        rules, _ = mc_run(setting, policy)
        seen |= {r for r, p in SP.scenario_outcome(rules, policy).items() if p > F(1, 100)}
    assert seen == set(REASONS)


@pytest.mark.parametrize("policy", POLICIES)
def test_breach_turn_is_geometric(policy):
    rules, frame = mc_run("standard", policy)
    turns = frame["breach_turn"].to_numpy()
    counts = np.bincount(turns, minlength=rules.max_turns + 1)
    assert counts.size == rules.max_turns + 1
    for t in range(1, rules.max_turns + 1):
        assert_rate(int(counts[t]), N_MC, P.geometric_on(SIXTH, t), f"breach on turn {t}")
    assert_rate(int(counts[0]), N_MC, 1 - SP.breach_by(rules.max_turns), "never assured")
    closed = (frame["end_reason"] == "breach_closed").to_numpy()
    assert np.array_equal(closed, turns == 0)
    expected_turns = np.where(closed, rules.max_turns, turns)
    assert np.array_equal(frame["turns"].to_numpy(), expected_turns)


@pytest.mark.parametrize("setting", ["standard", "guns_clear", "bombarded_bastion",
                                     "commanders_flag", "convent", "blue_line",
                                     "blue_line_open_side"])
def test_fire_kills_match_exact(setting):
    rules, frame = mc_run(setting, "stand")
    fired = frame[frame["breach_turn"] > 0]
    n = len(fired)
    artillery = fired["artillery_kills"].to_numpy()
    salvo = fired["salvo_kills"].to_numpy()
    art_dist = SP.artillery_kills(rules.guns_adjacent, rules.guns_at_range_2,
                                  rules.defender_units)
    for a in range(rules.defender_units + 1):
        assert_rate(int((artillery == a).sum()), n, art_dist.get(a, F(0)), f"artillery {a}")
        # the salvo, conditioned on the defenders still present after the artillery
        present = artillery == a
        if present.sum() < 1000:
            continue
        salvo_dist = SP.salvo_kills(rules.salvo_units if salvo_fires(rules) else 0,
                                    rules.defender_units - a)
        for s in range(rules.defender_units + 1):
            assert_rate(int((salvo[present] == s).sum()), int(present.sum()),
                        salvo_dist.get(s, F(0)), f"salvo {s} after artillery {a}")
    left = rules.defender_units - artillery - salvo
    assaulted = fired["defenders_assaulted"].to_numpy()
    assert np.array_equal(assaulted, left)
    assert np.array_equal(fired["end_reason"].to_numpy() == "cleared", left == 0)


@pytest.mark.parametrize(("setting", "policy"), MC_CASES)
def test_assault_values_and_results_follow_the_rules(setting, policy):
    rules, frame = mc_run(setting, policy)
    rows = frame[frame["attack_roll"] > 0]
    rest = frame[frame["attack_roll"] == 0]
    assert len(rows) > N_MC // 2
    assert set(rest["end_reason"]) <= {"cleared", "breach_closed"}
    assert (rest[["defence_roll", "attack_value", "defence_value"]] == 0).all().all()
    defenders = rows["defenders_assaulted"].to_numpy()
    shot = rows["artillery_kills"].to_numpy()
    withdrew = rows["withdrew"].to_numpy()
    attack = rows["attack_value"].to_numpy()
    assert (attack == rules.attack_value).all()
    expected_withdraw = [SP.defender_withdraws(policy, rules.attack_value,
                                               rules.defence_value(int(d), False, int(k)))
                         for d, k in zip(defenders, shot, strict=True)]
    assert withdrew.tolist() == expected_withdraw
    expected_defence = [rules.defence_value(int(d), bool(w), int(k))
                        for d, w, k in zip(defenders, withdrew, shot, strict=True)]
    assert rows["defence_value"].tolist() == expected_defence
    a_roll, d_roll = rows["attack_roll"].to_numpy(), rows["defence_roll"].to_numpy()
    assert set(np.unique(a_roll)) == set(range(1, 7)) == set(np.unique(d_roll))
    wins = attack + a_roll > rows["defence_value"].to_numpy() + d_roll
    assert np.array_equal(rows["attacker_lead_lost"].to_numpy(), ~wins)
    assert np.array_equal(rows["defender_lead_lost"].to_numpy(), wins & ~withdrew)
    reason = rows["end_reason"].astype(str).to_numpy()
    expected_reason = np.where(withdrew, "withdrew", np.where(wins, "taken", "repulsed"))
    assert np.array_equal(reason, expected_reason)


@pytest.mark.parametrize("setting", ["standard", "commanders_flag", "example_second_assault"])
def test_commander_loss_rate(setting):
    rules, frame = mc_run(setting, "stand")
    assaulted = frame[frame["attack_roll"] > 0]
    n = len(assaulted)
    not_assaulted = frame[frame["attack_roll"] == 0]
    assert not not_assaulted["attacker_commander_lost"].any()
    assert not not_assaulted["defender_commander_lost"].any()
    for present, column in ((rules.attacker_commander, "attacker_commander_lost"),
                            (rules.defender_commander, "defender_commander_lost")):
        k = int(assaulted[column].sum())
        assert_rate(k, n, SIXTH if present else F(0), f"{setting} {column}")
    if rules.attacker_commander and rules.defender_commander:
        either = assaulted["attacker_commander_lost"] | assaulted["defender_commander_lost"]
        assert_rate(int(either.sum()), n, 1 - F(5, 6) ** 2, "either commander lost")


# -- trace narrates the simulated game -------------------------------------------------------

TRACE_SEED = 77


def check_trace(rules, policy, index, row, max_turns):
    lines = ASSAULT.trace(rules, policy, int(index), TRACE_SEED)
    game = simkit.games.get(GAME)
    assert game.trace(rules, policy, int(index), TRACE_SEED) == lines  # deterministic
    assert lines[0].endswith(f"game {index} of seed {TRACE_SEED}")
    assert lines[-1] == game.result_line(row["winner"], row["end_reason"], row["turns"])
    assert lines[-2].endswith(f"held by the {row['winner'].capitalize()}.")
    checks = [ln for ln in lines if re.match(r"Turn \d+: Royal Breach check, die [1-6]", ln)]
    assert len(checks) == (row["breach_turn"] or max_turns)
    assert sum("assured!" in ln for ln in checks) == int(row["breach_turn"] > 0)
    never = [ln for ln in lines if "never assured" in ln]
    assert len(never) == int(row["end_reason"] == "breach_closed")
    dice = [ln.strip() for ln in lines if ln.strip().startswith("Dice:")]
    if row["attack_roll"]:
        assert dice == [f"Dice: attacker {row['attack_roll']}, defender {row['defence_roll']}: "
                        + ("the attacker wins" if not row["attacker_lead_lost"]
                           else "the defender wins (ties to the defender)")]
        values = [ln for ln in lines if "Assault: attacker value" in ln]
        assert values == [f"  Assault: attacker value {row['attack_value']} against defender "
                          f"value {row['defence_value']}; the defender "
                          + ("declares a withdrawal (included)" if row["withdrew"]
                             else "stands")]
    else:
        assert dice == []
    cleared = [ln for ln in lines if "No defender is left" in ln]
    assert len(cleared) == int(row["end_reason"] == "cleared")
    salvo = [ln for ln in lines if "Salvo fire by" in ln]
    if salvo:
        assert salvo[0].endswith(f"{row['salvo_kills']} defenders eliminated")


@pytest.mark.parametrize(("rules", "policy"), [
    (None, None),
    ({"guns_adjacent": 2, "guns_at_range_2": 2, "defender_units": 3}, {"catalans": "cautious"}),
    ("example_second_assault", {"catalans": "withdraw"}),
])
def test_trace_narrates_the_simulated_game(rules, policy):
    frame = simkit.simulate(GAME, 400, seed=TRACE_SEED, rules=rules, policy=policy)
    max_turns = ASSAULT.resolve_rules(rules).max_turns
    indices = list(range(5))
    for reason in REASONS:  # one game of every end reason this setting produced
        hits = frame.index[frame["end_reason"] == reason]
        if len(hits):
            indices.append(int(hits[0]))
    assert len(set(frame.loc[indices, "end_reason"])) >= 2
    for index in indices:
        check_trace(rules, policy, index, frame.loc[index], max_turns)


# -- the exact questions ---------------------------------------------------------------------


def chances(table, **where) -> list[F]:
    """The exact chances of the rows matching ``where`` (column=value), in order; each row's
    float ``p`` is its ``fraction``."""
    rows = table
    for column, value in where.items():
        rows = rows[rows[column] == value]
    values = list(rows["fraction"])
    assert all(isinstance(v, F) for v in values)
    assert rows["p"].tolist() == [float(v) for v in values]
    return values


def test_questions_are_the_six_topics():
    assert set(SP.QUESTIONS) == {"breach", "salvo", "artillery", "assault", "commander",
                                 "scenario"}
    assert simkit.games.questions("setembre1714") is SP.QUESTIONS


def test_question_breach():
    q = SP.QUESTIONS["breach"]
    table = q.answer(q.params())
    by, first = chances(table, event="assured by"), chances(table, event="first on")
    assert table["turn"].tolist() == list(range(1, 13)) * 2
    assert by == [SP.breach_by(t) for t in range(1, 13)]
    assert sum(first) + (1 - by[-1]) == 1
    table = q.answer(q.params(turns=3, breach_roll=5))
    assert chances(table, event="first on") == [F(1, 3), F(2, 9), F(4, 27)]


@pytest.mark.parametrize(("units", "defenders"), [(4, 5), (10, 3), (1, 1), (6, 10)])
def test_question_salvo(units, defenders):
    q = SP.QUESTIONS["salvo"]
    table = q.answer(q.params(units=units, defenders=defenders))
    p, at_least = chances(table, event="exactly"), chances(table, event="at least")
    assert sum(p) == 1
    assert table["kills"].tolist() == list(range(min(units, defenders) + 1)) * 2
    assert at_least[0] == 1
    assert at_least == [sum(p[k:]) for k in range(len(p))]
    assert p[-1] == sum(F(comb(units, k) * 5 ** (units - k), 6**units)
                        for k in range(min(units, defenders), units + 1))


@pytest.mark.parametrize(("adjacent", "range_2", "defenders"), [(1, 0, 5), (3, 2, 2), (0, 0, 1)])
def test_question_artillery(adjacent, range_2, defenders):
    q = SP.QUESTIONS["artillery"]
    table = q.answer(q.params(adjacent=adjacent, range_2=range_2, defenders=defenders))
    p = chances(table, event="exactly")
    assert sum(p) == 1
    expected = SP.artillery_kills(adjacent, range_2, defenders)
    kills = table.loc[table["event"] == "exactly", "kills"]
    assert dict(zip(kills, p, strict=True)) == expected
    assert chances(table, event="at least") == [sum(p[k:]) for k in range(len(p))]


def assault_rows(table, column: str) -> tuple[list[F], F]:
    """The outcome rows of the assault answer (a distribution) and its exact-tie row."""
    values = chances(table, defender=column)
    rows = table[table["defender"] == column]
    sub = rows["outcome"].str.contains("of which").tolist()
    ties = [v for v, s in zip(values, sub, strict=True) if s]
    assert len(ties) == 1
    return [v for v, s in zip(values, sub, strict=True) if not s], ties[0]


@pytest.mark.parametrize(("attacker", "defender", "bonus"), [(9, 12, 2), (9, 11, 2), (12, 9, 0)])
def test_question_assault(attacker, defender, bonus):
    q = SP.QUESTIONS["assault"]
    table = q.answer(q.params(attacker=attacker, defender=defender, withdrawal_bonus=bonus))
    stand, stand_tie = assault_rows(table, "stand")
    withdraw, withdraw_tie = assault_rows(table, "withdraw")
    assert sum(stand) == 1 and sum(withdraw) == 1
    win = two_dice_beats(defender - attacker)
    win_withdrawn = two_dice_beats(defender + bonus - attacker)
    assert sorted(v for v in stand if v) == sorted({win, 1 - win} - {0})
    assert sorted(v for v in withdraw if v) == sorted({win_withdrawn, 1 - win_withdrawn} - {0})
    assert stand_tie == two_dice_tie(defender - attacker)
    assert withdraw_tie in (0, two_dice_tie(defender + bonus - attacker))


def test_question_commander():
    q = SP.QUESTIONS["commander"]
    assert chances(q.answer(q.params())) == [F(25, 36), F(10, 36), F(1, 36)]
    assert chances(q.answer(q.params(commanders=1))) == [F(5, 6), F(1, 6)]


@pytest.mark.parametrize("policy", POLICIES)
def test_question_scenario(policy):
    q = SP.QUESTIONS["scenario"]
    params = q.params(catalans=policy, guns_adjacent=1, terrain="urban")
    table = q.answer(params)
    p = chances(table)
    assert sum(p) == 1
    rules = Rules(guns_adjacent=1, terrain="urban")
    assert dict(zip(table["end_reason"], p, strict=True)) == SP.scenario_outcome(rules, policy)


def _range_cases():
    cases = []
    for name, q in SP.QUESTIONS.items():
        for knob in q.params.knobs():
            if knob.range is not None:
                low, high = knob.range
                cases += [(name, knob.name, low - 1), (name, knob.name, high + 1)]
            elif knob.choices is not None:
                cases.append((name, knob.name, "sometimes"))
    return cases


RANGE_CASES = _range_cases()


def test_every_question_has_checked_params():
    assert {name for name, _, _ in RANGE_CASES} == set(SP.QUESTIONS)
    assert ("scenario", "catalans", "sometimes") in RANGE_CASES


@pytest.mark.parametrize(("question", "knob", "value"), RANGE_CASES)
def test_question_params_reject_out_of_range(question, knob, value):
    params = SP.QUESTIONS[question].params
    params()  # the defaults are valid
    with pytest.raises(simkit.RulesError, match=re.escape(repr(knob))):
        params(**{knob: value})
    with pytest.raises(simkit.RulesError, match=re.escape(repr(knob))):
        params().parse_overrides([f"{knob}={value}"])


def artillery_lines(index: int) -> list[str]:
    rules = {"guns_adjacent": 1, "guns_at_range_2": 1}
    lines = simkit.games.get(GAME).trace(rules, None, index, TRACE_SEED)
    return [ln.strip() for ln in lines if "Artillery fire" in ln]


def test_trace_narrates_range_2_artillery():
    lines = artillery_lines(0)
    assert len(lines) == 2
    assert re.fullmatch(r"Artillery fire from a zone two zones away: die [1-6], "
                        r"(a unit eliminated|a miss)", lines[1])


def test_trace_narrates_adjacent_artillery_as_a_sentence():
    assert re.fullmatch(r"Artillery fire from an adjacent zone: die [1-6], "
                        r"(a unit eliminated|a miss)", artillery_lines(0)[0])


def test_the_scripts_weights_decide_the_commander_and_the_withdrawal():
    """11.3: "the player can choose not to use any commander in the assault ... in order
    not to risk him", then "the defender can declare a withdrawal": the Bourbons' weight
    spares their commander when the attack leads by enough, the cautious Catalans' weight
    moves the lead they withdraw above."""
    rules = {"attacker_commander": True, "terrain": "open", "salvo_units": 0}
    # attack 5 + 4 = 9 (10 with the commander) against 5 + 4 + 1 = 10 before the dice
    def assaults(n, seed, policy=None):
        frame = simkit.simulate(GAME, n, seed=seed, rules=rules, policy=policy)
        return frame[frame["attack_roll"] > 0]  # the breach was assured

    used = assaults(3000, 11)
    spared = assaults(3000, 11, {"bourbons": "assault:spare_commander_from=-1"})
    assert (used["attack_value"] == 10).all() and (spared["attack_value"] == 9).all()
    assert used["attacker_commander_lost"].any() and not spared["attacker_commander_lost"].any()
    assert (used["winner"] == "bourbons").mean() > (spared["winner"] == "bourbons").mean()
    kept = assaults(3000, 11, {"bourbons": "assault:spare_commander_from=0"})
    assert (kept["attack_value"] == 10).all()  # -1 behind: not yet leading by 0
    cautious = {"catalans": "cautious"}
    assert len(assaults(2000, 12)) > 1000
    assert not assaults(2000, 12, cautious)["withdrew"].any()  # 10 against 10: not higher
    eager = assaults(2000, 12, {"catalans": "cautious:withdraw_above=-1"})
    assert eager["withdrew"].all() and (eager["defence_value"] == 12).all()
