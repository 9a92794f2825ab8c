"""Exact answers to 11 de Setembre's rules-probability questions (the ``setembre1714``
question family: ``simkit prob setembre1714 QUESTION``).

Royal Breach timing ("7. The mine under the Royal Breach"), salvo kills ("11.2. Salvo
fire"), artillery kills ("9. Artillery fire"), assault outcomes with and without
withdrawal and commander casualties ("11.3. Assault"), and the whole assault scenario
the Monte Carlo kernel plays (``scenario_outcome``), all in exact fractions.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import pandas as pd

from simkit import prob as P
from simkit.games.base import Question, QuestionParams, knob

from .policies import CATALAN_POLICIES
from .rules import Rules

D6 = P.die(6)
SIX = P.success_chance(6)


def breach_by(turn: int, breach_roll: int = 6) -> Fraction:
    """P(the Royal Breach is assured by the Bourbon check of ``turn``)."""
    return P.geometric_by(P.success_chance(breach_roll), turn)


def salvo_kills(units: int, defenders: int) -> P.Dist:
    """Kills of a salvo by ``units``: Binomial(units, 1/6), at most ``defenders``."""
    return P.cap(P.binomial(units, SIX), defenders)


def artillery_kills(adjacent: int, range_2: int, defenders: int) -> P.Dist:
    """Kills of the artillery phase: hits at 1/2 and 1/3 per gun, at most ``defenders``."""
    hits = P.convolve(P.binomial(adjacent, P.success_chance(4)),
                      P.binomial(range_2, P.success_chance(5)))
    return P.cap(hits, defenders)


def attacker_wins(attack_value: int, defence_value: int) -> Fraction:
    """P(attack + d6 > defence + d6): ties go to the defender."""
    return P.prob(P.difference(D6, D6), lambda k: k > defence_value - attack_value)


def commanders_lost(commanders: int) -> P.Dist:
    """Number of commanders eliminated when ``commanders`` each roll for casualty."""
    return P.binomial(commanders, SIX)


def defender_withdraws(policy: str, attack_value: int, defence_value: int) -> bool:
    """The Catalan policies' withdrawal choice (mirrors ``policies.catalans_withdraw``)."""
    return policy == "withdraw" or (policy == "cautious" and attack_value > defence_value)


def scenario_outcome(rules: Rules, catalans: str = "stand") -> dict[str, Fraction]:
    """Exact end-reason distribution of the assault scenario the kernel plays."""
    out = dict.fromkeys(("taken", "withdrew", "cleared", "repulsed"), Fraction(0))
    p_breach = breach_by(rules.max_turns, rules.breach_roll)
    fire = artillery_kills(rules.guns_adjacent, rules.guns_at_range_2, rules.defender_units)
    for artillery, p_art in fire.items():
        left = rules.defender_units - artillery
        salvo_units = rules.salvo_units if rules.salvo_permitted else 0  # 11.2
        for salvo, p_salvo in salvo_kills(salvo_units, left).items():
            weight = p_breach * p_art * p_salvo
            defenders = left - salvo
            if defenders == 0:
                out["cleared"] += weight
                continue
            attack = rules.attack_value
            stands = rules.defence_value(defenders, artillery_kills=artillery)
            withdraw = defender_withdraws(catalans, attack, stands)
            p_win = attacker_wins(attack, rules.defence_value(defenders, withdraw, artillery))
            if withdraw:
                out["withdrew"] += weight
            else:
                out["taken"] += weight * p_win
                out["repulsed"] += weight * (1 - p_win)
    out["breach_closed"] = 1 - p_breach
    return out


def kills_rows(dist: P.Dist) -> list[dict]:
    """Kills exactly k, then kills at least k, for each k (a salvo, the artillery)."""
    exactly = [{"kills": k, "event": "exactly", "p": p} for k, p in sorted(dist.items())]
    at_least = [{"kills": k, "event": "at least", "p": P.prob(dist, lambda x, k=k: x >= k)}
                for k in sorted(dist)]
    return exactly + at_least


# -- the questions the CLI and notebooks ask ------------------------------------------


@dataclass(frozen=True)
class BreachQuestion(QuestionParams):
    turns: int = knob(12, "last Bourbon turn to tabulate", range=(1, 60))
    breach_roll: int = knob(6, "lowest die that assures the breach", range=(1, 6))


def answer_breach(q: BreachQuestion) -> pd.DataFrame:
    p = P.success_chance(q.breach_roll)
    turns = range(1, q.turns + 1)
    return P.answer_table(
        [{"turn": t, "event": "assured by", "p": P.geometric_by(p, t)} for t in turns]
        + [{"turn": t, "event": "first on", "p": P.geometric_on(p, t)} for t in turns])


@dataclass(frozen=True)
class SalvoQuestion(QuestionParams):
    units: int = knob(4, "combat units firing (one die each)", range=(1, 10))
    defenders: int = knob(5, "defending combat units (kills cannot exceed them)", range=(1, 10))


def answer_salvo(q: SalvoQuestion) -> pd.DataFrame:
    return P.answer_table(kills_rows(salvo_kills(q.units, q.defenders)))


@dataclass(frozen=True)
class ArtilleryQuestion(QuestionParams):
    adjacent: int = knob(1, "guns firing at an adjacent zone (hit on 4-6)", range=(0, 10))
    range_2: int = knob(0, "Bourbon guns firing two zones away (hit on 5-6)", range=(0, 10))
    defenders: int = knob(5, "combat units in the target zone", range=(1, 10))


def answer_artillery(q: ArtilleryQuestion) -> pd.DataFrame:
    return P.answer_table(kills_rows(artillery_kills(q.adjacent, q.range_2, q.defenders)))


@dataclass(frozen=True)
class AssaultQuestion(QuestionParams):
    attacker: int = knob(9, "attacker's assault value before the die (lead + modifiers)",
                         range=(1, 40))
    defender: int = knob(12, "defender's assault value before the die, without withdrawal",
                         range=(1, 40))
    withdrawal_bonus: int = knob(2, "bonus for declaring a withdrawal (rulebook: +2)",
                                 range=(0, 6))


def answer_assault(q: AssaultQuestion) -> pd.DataFrame:
    d6_difference = P.difference(D6, D6)
    rows = []
    for declared, defence in (("stand", q.defender),
                              ("withdraw", q.defender + q.withdrawal_bonus)):
        win = attacker_wins(q.attacker, defence)
        tie = d6_difference.get(defence - q.attacker, Fraction(0))
        rows += [{"defender": declared, "outcome": "attacker higher", "p": win},
                 {"defender": declared, "outcome": "attacker not higher", "p": 1 - win},
                 {"defender": declared, "outcome": "  of which a tie", "p": tie}]
    return P.answer_table(rows)


ASSAULT_NOTES = """\
stand:    attacker higher -> the defender's lead is eliminated, the rest retreat, the zone
          is taken; not higher (ties included) -> the attacker's lead is eliminated.
withdraw: the defender adds the withdrawal bonus and always retreats without losses, the
          zone is taken; not higher -> the attacker's lead is eliminated as well."""


@dataclass(frozen=True)
class CommanderQuestion(QuestionParams):
    commanders: int = knob(2, "commanders involved in the assault (each rolls)", range=(1, 2))


def answer_commander(q: CommanderQuestion) -> pd.DataFrame:
    return P.answer_table(P.dist_rows(commanders_lost(q.commanders), "commanders_lost"))


@dataclass(frozen=True)
class ScenarioQuestion(Rules):
    KIND: ClassVar[str] = "parameter"

    catalans: str = knob("stand", "the Catalan policy: " + ", ".join(CATALAN_POLICIES),
                         choices=tuple(CATALAN_POLICIES))


def answer_scenario(q: ScenarioQuestion) -> pd.DataFrame:
    rules = Rules(**{k: v for k, v in q.to_dict().items() if k != "catalans"})
    dist = scenario_outcome(rules, q.catalans)
    return P.answer_table({"end_reason": reason, "p": p} for reason, p in dist.items())


QUESTIONS = {
    q.name: q
    for q in (
        Question("breach", "Royal Breach assured by turn t / first on turn t (rule 7)",
                 BreachQuestion, answer_breach),
        Question("salvo", "kills of a salvo: Binomial(units, 1/6), capped (rule 11.2)",
                 SalvoQuestion, answer_salvo),
        Question("artillery", "kills of the artillery phase (rule 9)",
                 ArtilleryQuestion, answer_artillery),
        Question("assault", "assault outcome for given values, standing or withdrawing "
                            "(rule 11.3)", AssaultQuestion, answer_assault, ASSAULT_NOTES),
        Question("commander", "commanders eliminated by casualty rolls (rule 11.3)",
                 CommanderQuestion, answer_commander),
        Question("scenario", "end-reason distribution of the whole assault scenario "
                             "(the setembre1714-assault game)", ScenarioQuestion,
                 answer_scenario),
    )
}
