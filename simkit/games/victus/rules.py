"""Victus rule knobs (rulebook "First Game", "Full Game", "End of the Game"; digest B2,
B11) and the parameter vector the kernels read.

The standard rules are the Full Game for 2 players. The competitive, solo and difficulty
variants of the rulebook extend this dataclass.
"""

from dataclasses import dataclass

import numpy as np

from simkit.games.base import RulesBase, knob

from . import layout as L

LEVELS = ("first_game", "full")


@dataclass(frozen=True)
class Rules(RulesBase):
    level: str = knob("full", "first_game (simplified costs, only the \u2022 cards, no "
                      "leaders) or full", choices=LEVELS)
    players: int = knob(2, "players at the table (cards dealt and rounds per stage follow "
                        "the rulebook's table)", range=(2, 4))
    coronela_threshold: int = knob(
        5, "defeat when fewer Coronela than this stand in Barcelona (first game 3, full 5)",
        range=(1, 27))
    rubble_threshold: int = knob(
        15, "defeat when this many rubble/ruined tiles are on the board", range=(1, 33))
    coronela_weight: float = knob(
        1.5, "scripted players: how dear a Coronela is against an infantry when casualty "
        "points are spread (an infantry weighs 3)", range=(0.0, 6.0))

    @property
    def full(self) -> bool:
        return self.level != "first_game"


def params(rules: Rules, policy_id: int) -> np.ndarray:
    """The rules as the integer vector ``p`` (offsets ``layout.P_*``)."""
    p = np.zeros(L.N_P, dtype=np.int64)
    p[L.P_FULL] = rules.full
    p[L.P_PLAYERS] = rules.players
    p[L.P_CORONELA_THRESHOLD] = rules.coronela_threshold
    p[L.P_RUBBLE_THRESHOLD] = rules.rubble_threshold
    p[L.P_POLICY] = policy_id
    p[L.P_CORONELA_LOSS_WEIGHT] = round(10 * rules.coronela_weight)
    return p
