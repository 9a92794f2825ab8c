"""Exact answers to Verrix's rules-probability questions (rulebook: Raid, Battle).

Raid success for given STRENGTHs with one Mórrígan token or the best of two (the
defender's Divine Will; tokens drawn without replacement from the bag), and the battle
disc's distribution over three rounds for given round STRENGTHs (tokens kept out of the
bag until the Battle ends; the disc clamped to the track, as the engine plays it).
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

import pandas as pd

from simkit.games.base import Question, QuestionParams, knob
from simkit.prob import answer_table

from . import layout as L
from .rules import MORRIGAN_SETS, Rules, _ints


def tokens(rules: Rules | None = None) -> list[int]:
    return _ints((rules or Rules()).morrigan_tokens, "morrigan_tokens", L.N_TOKENS, 0, 9)


def raid_success(attack: int, defence: int, best_of_two: bool = False,
                 bag: list[int] | None = None) -> Fraction:
    """P(attack > defence + token): one token, or the higher of two drawn without
    replacement (ties and lower fail)."""
    bag = tokens() if bag is None else bag
    n = len(bag)
    if not best_of_two:
        return Fraction(sum(attack > defence + t for t in bag), n)
    wins = sum(attack > defence + max(bag[i], bag[j])
               for i in range(n) for j in range(n) if i != j)
    return Fraction(wins, n * (n - 1))


def battle_disc(rounds: list[tuple[int, int, int]], bag: list[int] | None = None,
                reach: int = L.BATTLE_REACH) -> dict[int, Fraction]:
    """Distribution of the battle disc after the rounds ``(attack, defence, drawer)``:
    STRENGTHs before the token, ``drawer`` 1 if the attackers draw (the defenders play
    the card), 2 if the defenders draw. One token per round, without replacement; the
    disc moves by the difference and stays within ``reach`` of the centre."""
    bag = tokens() if bag is None else bag
    out: dict[int, Fraction] = {}
    draws = list(permutations(range(len(bag)), len(rounds)))
    for seq in draws:
        disc = 0
        for (a, d, drawer), i in zip(rounds, seq, strict=True):
            t = bag[i]
            disc += (a + t - d) if drawer == 1 else (a - d - t)
            disc = max(-reach, min(reach, disc))
        out[disc] = out.get(disc, Fraction(0)) + Fraction(1, len(draws))
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class RaidQuestion(QuestionParams):
    attack: int = knob(6, "the raider's STRENGTH (units and card bonuses)", range=(0, 30))
    defence: int = knob(4, "the defender's STRENGTH before the token", range=(0, 30))
    morrigan_tokens: str = knob(Rules().morrigan_tokens, "the 7 token values",
                                choices=MORRIGAN_SETS)


def answer_raid(q: RaidQuestion) -> pd.DataFrame:
    bag = _ints(q.morrigan_tokens, "morrigan_tokens", L.N_TOKENS, 0, 9)
    return answer_table([
        {"draw": "one token", "event": "raid succeeds",
         "p": raid_success(q.attack, q.defence, False, bag)},
        {"draw": "best of two (1 Divine Will)", "event": "raid succeeds",
         "p": raid_success(q.attack, q.defence, True, bag)}])


@dataclass(frozen=True)
class BattleQuestion(QuestionParams):
    attack1: int = knob(7, "round 1 attack STRENGTH (the attackers play the card)",
                        range=(0, 40))
    defence1: int = knob(5, "round 1 defence STRENGTH before the defenders' token",
                         range=(0, 40))
    attack2: int = knob(6, "round 2 attack STRENGTH before the attackers' token",
                        range=(0, 40))
    defence2: int = knob(8, "round 2 defence STRENGTH (the defenders play the card)",
                         range=(0, 40))
    attack3: int = knob(8, "round 3 attack STRENGTH (the attackers play the card)",
                        range=(0, 40))
    defence3: int = knob(5, "round 3 defence STRENGTH before the defenders' token",
                         range=(0, 40))
    morrigan_tokens: str = knob(Rules().morrigan_tokens, "the 7 token values",
                                choices=MORRIGAN_SETS)


def answer_battle(q: BattleQuestion) -> pd.DataFrame:
    bag = _ints(q.morrigan_tokens, "morrigan_tokens", L.N_TOKENS, 0, 9)
    rounds = [(q.attack1, q.defence1, 2), (q.attack2, q.defence2, 1),
              (q.attack3, q.defence3, 2)]
    return answer_table({"disc": k, "p": p} for k, p in battle_disc(rounds, bag).items())


QUESTIONS = {
    q.name: q
    for q in (
        Question("raid", "raid success with one Mórrígan token or the best of two",
                 RaidQuestion, answer_raid),
        Question("battle", "distribution of the battle disc after three rounds (+: toward "
                           "the attackers)", BattleQuestion, answer_battle),
    )
}
