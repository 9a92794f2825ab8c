"""Exact answers to The King in the North's closed-form rules questions (rulebook 8.7.1
losses, 8.3-8.4 Impact, 8.9.3 siege kills, 8.10 and 6.4 card draws).

The game has no dice: combat is deterministic given the deployments, so the exact
answers are formulas (losses from Impact, Impact of a deployment sequence, siege kills,
card draws) and one probability, the hypergeometric chance that a hand holds a card
(a second Faction card to refute a Loyalty Challenge, a Loyalty Challenge itself).
"""

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import pandas as pd

from simkit.errors import RulesError
from simkit.games.base import Question, QuestionParams, knob
from simkit.prob import answer_table


def battle_losses(impact_received: int, rate: int = 7, loser: bool = False,
                  night: bool = False) -> int:
    """Blocks lost (8.7.1): one per ``rate`` Impact received, +1 for the loser unless
    Under Cover of Night ended the battle (12.2)."""
    return impact_received // rate + (1 if loser and not night else 0)


def deployment_impact(diamonds: int, same_faction_before: int = 0, charge_index: int = 0,
                      cumulative: bool = False) -> int:
    """Impact of one block (8.3-8.4.1): diamonds, +1 per same-Faction block already
    deployed, and for the k-th charging cavalry block (k = charge_index >= 1) +2, then
    +4 (flat reading) or +2k (cumulative reading)."""
    charge = 0
    if charge_index >= 1:
        charge = 2 * charge_index if cumulative else (2 if charge_index == 1 else 4)
    return diamonds + same_faction_before + charge


def double_card_impact(diamonds: int, already: int = 0) -> int:
    """A Double card deploying two blocks of ``diamonds`` of one Faction that has
    ``already`` blocks deployed: 2b + 2j + 1 (8.4.5)."""
    return 2 * diamonds + 2 * already + 1


def siege_kills(attacker_impact: int, rate: int, defender_artillery: int = 0,
                battery: bool = False, mortar: bool = False, blockade: bool = False) -> int:
    """Defending blocks a siege eliminates (8.9.3, 7.4, 12.1-12.2)."""
    impact = attacker_impact + 4 * mortar + blockade - 3 * defender_artillery - 3 * battery
    return max(0, impact) // rate


def cards_after_battle(cards_used: int, blocks_lost: int) -> int:
    """Cards drawn after a battle (8.10): the cards used + 1 per 2 blocks lost."""
    return cards_used + blocks_lost // 2


def cards_after_siege_defence(cards_used: int, blocks_lost: int) -> int:
    """The besieged side draws its cards used + 1 per block lost (8.9.3 H)."""
    return cards_used + blocks_lost


def hand_after_reinforcement(hand: int, draw: int = 7, more_cities: bool = False) -> int:
    """Reinforcement Phase (6.4): discard floor(hand/2), draw 7 (+1)."""
    return hand - hand // 2 + draw + (1 if more_cities else 0)


def p_holds(deck: int, copies: int, hand: int) -> Fraction:
    """P(a hand of ``hand`` cards drawn from ``deck`` holds at least 1 of ``copies``)."""
    if hand > deck or copies > deck:
        raise RulesError(f"a hand of {hand} with {copies} copies needs a deck of at least "
                         f"{max(hand, copies)} cards, got {deck}")
    return 1 - Fraction(comb(deck - copies, hand), comb(deck, hand))


@dataclass(frozen=True)
class LossParams(QuestionParams):
    rate: int = knob(7, "Impact per block (7; 8 mountains; 6 shield; 9 snow)", range=(1, 20))
    max_impact: int = knob(28, "largest Impact in the table", range=(0, 100))


def loss_table(q: LossParams) -> pd.DataFrame:
    rows = [{"impact_received": i, "winner_loses": battle_losses(i, q.rate),
             "loser_loses": battle_losses(i, q.rate, loser=True)}
            for i in range(q.max_impact + 1)]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class HoldParams(QuestionParams):
    deck: int = knob(49, "cards in the deck the hand comes from (reconstructed Carlist "
                         "deck: 49 with «Breach in the Walls»; 48 without)", range=(1, 200))
    copies: int = knob(3, "copies of the wanted card (Carlist Loyalty Challenges 3, "
                          "Liberal 2, Headquarters 1)", range=(0, 200))
    hand: int = knob(7, "hand size", range=(0, 200))

    def check(self) -> None:
        # the hand and the copies both come out of the deck
        for name in ("copies", "hand"):
            if getattr(self, name) > self.deck:
                raise RulesError(f"parameter {name!r} = {getattr(self, name)} is more than "
                                 f"the deck: allowed 0..{self.deck} (parameter 'deck')")


def hold_table(q: HoldParams) -> pd.DataFrame:
    p = p_holds(q.deck, q.copies, q.hand)
    return answer_table([{"event": "holds at least one", "p": p},
                         {"event": "holds none", "p": 1 - p}])


@dataclass(frozen=True)
class DeploymentParams(QuestionParams):
    diamonds: int = knob(2, "diamonds of each block deployed (all alike)", range=(1, 4))
    blocks: int = knob(4, "blocks of one Faction deployed one after another",
                       range=(1, 10))
    charges: bool = knob(False, "cavalry deployed with a bugle card (each charges)")
    cumulative: bool = knob(False, "repeated charges +2k (cumulative) rather than +4 "
                                   "after the first (the Battle example's flat reading)")


def deployment_table(q: DeploymentParams) -> pd.DataFrame:
    """Impact of each block of a one-Faction deployment sequence and the running total
    (8.3.3: +1 per same-Faction block already deployed; 8.4.1 charges)."""
    rows, total = [], 0
    for k in range(q.blocks):
        v = deployment_impact(q.diamonds, k, k + 1 if q.charges else 0, q.cumulative)
        total += v
        rows.append({"block": k + 1, "impact": v, "total": total})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class CardsParams(QuestionParams):
    cards_used: int = knob(3, "cards used to deploy in the battle", range=(0, 30))
    max_lost: int = knob(8, "largest number of blocks lost in the table", range=(0, 30))


def cards_table(q: CardsParams) -> pd.DataFrame:
    """Cards drawn after a battle (8.10) and by a besieged defender (8.9.3 H) for each
    number of blocks lost (Decoys, Customs Officers and Partisans not counted)."""
    rows = [{"blocks_lost": n, "after_battle": cards_after_battle(q.cards_used, n),
             "besieged_defender": cards_after_siege_defence(q.cards_used, n)}
            for n in range(q.max_lost + 1)]
    return pd.DataFrame(rows)


QUESTIONS = {
    "losses": Question("losses", "blocks lost for each Impact received (8.7.1)",
                       LossParams, loss_table, deterministic=True),
    "deployment": Question("deployment", "Impact of a one-Faction deployment sequence, "
                           "block by block (8.3.3, 8.4.1)", DeploymentParams,
                           deployment_table, deterministic=True),
    "cards": Question("cards", "cards drawn after a battle or a siege defence for each "
                      "number of blocks lost (8.10, 8.9.3 H)", CardsParams, cards_table,
                      deterministic=True),
    "holds_card": Question("holds_card", "chance a hand holds at least one of a card "
                           "(hypergeometric)", HoldParams, hold_table),
}
