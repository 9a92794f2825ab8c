"""11 de Setembre. Setge 1714: the combat system, played as an assault scenario.

``ASSAULT`` (registered as ``setembre1714-assault``) plays one defended zone attacked
through the Royal Breach: Royal Breach checks until assured (rule 7), the artillery phase
(9), a salvo (11.2), then an assault with withdrawal choice and commander casualties
(11.3). It relies on no reconstructed component: every number is the rulebook's.

Modules: ``rules`` (the knobs), ``layout`` (offsets, codes, outcome columns, random
streams), ``events`` (the trace's sentences), ``engine`` (one njit function per rule),
``policies`` (the scripted choices), ``prob`` (exact answers), ``components`` (presets).
"""

import numpy as np

from simkit.eventlog import new_log, no_log
from simkit.games.base import Game

from . import layout as L
from .components import assault_presets
from .engine import play_assault_games
from .events import EVENTS
from .policies import BOURBON_POLICIES, CATALAN_POLICIES
from .rules import AssaultRules, assault_params


class AssaultScenario(Game):
    name = "setembre1714-assault"
    title = "11 de Setembre. Setge 1714: an assault through the Royal Breach"
    sides = L.SIDES
    Rules = AssaultRules
    presets = assault_presets()
    policies = {"bourbons": BOURBON_POLICIES, "catalans": CATALAN_POLICIES}
    outcome_columns = L.OUTCOMES
    compile_seconds = 7

    def play(self, rules, policies, game_indices, root_seed):
        table = play_assault_games(assault_params(rules), _ids(policies), game_indices,
                                   root_seed, no_log())
        return L.OUTCOMES.columns(table)

    def narrate(self, rules, policies, game_index, root_seed):
        log = new_log()
        table = play_assault_games(assault_params(rules), _ids(policies),
                                   np.array([game_index], dtype=np.int64), root_seed, log)
        lines = [f"{self.title} - game {game_index} of seed {root_seed}"]
        lines += EVENTS.narrate(log)
        row = table[0]
        winner = L.WINNERS[row[L.O_WINNER]]
        lines.append(f"The zone is held by the {winner.capitalize()}.")
        lines.append(self.result_line(winner, L.END_REASONS[row[L.O_END_REASON]],
                                      row[L.O_TURNS]))
        return lines


def _ids(policies) -> np.ndarray:
    return np.array([choice.id for choice in policies], dtype=np.int64)


ASSAULT = AssaultScenario()
