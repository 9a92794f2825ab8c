"""11 de Setembre. Setge 1714: the whole game and its combat system as an assault scenario.

``ASSAULT`` (registered as ``setembre1714-assault``) plays one defended zone attacked
through the Royal Breach: Royal Breach checks until assured (rule 7), the artillery phase
(9), a salvo (11.2), then an assault with withdrawal choice and commander casualties
(11.3). It relies on no reconstructed component: every number is the rulebook's.

``FULL`` (registered as ``setembre1714``) plays the whole game on a reconstructed map,
order of battle and event deck: the turn sequence (5), stacking (6), the Royal Breach
(7), events (8), artillery (9), movement and reinforcements (10), salvo and assault (11,
on the scenario's own rule functions), barricades (12), the flag (13) and victory (13).

Modules: ``rules`` (the knobs), ``layout`` (offsets, codes, outcome columns, random
streams), ``events`` (the trace's sentences), ``engine`` (one njit function per rule),
``policies`` (the scripted choices), ``prob`` (exact answers), ``components`` (presets
and the whole game's data files). The whole game: ``full_rules`` (knobs), ``full_layout``
(offsets, codes, outcome columns, streams), ``board`` (the map and its pieces: 2.2, 6,
11.1, 13), ``movement`` (10, 12, 6), ``combat`` (9, 11, 12, 13), ``full_engine`` (4, 5,
8, 10.1, 13), ``full_policies`` (every player choice), ``data/map.toml``,
``data/forces.toml``, ``data/events.toml`` (reconstructions).
"""

from simkit.games.base import Game

from . import full_layout as F
from . import layout as L
from .components import DATA, load_board
from .engine import play_assault_games
from .events import EVENTS
from .full_engine import play_full_games
from .full_policies import BOURBON_POLICIES as FULL_BOURBON_POLICIES
from .full_policies import CATALAN_POLICIES as FULL_CATALAN_POLICIES
from .full_rules import PARAMETERS as FULL_PARAMETERS
from .full_rules import FullRules
from .policies import BOURBON_POLICIES, CATALAN_POLICIES
from .rules import PARAMETERS, AssaultRules


class AssaultScenario(Game):
    name = "setembre1714-assault"
    title = "11 de Setembre. Setge 1714: an assault through the Royal Breach"
    sides = L.SIDES
    Rules = AssaultRules
    rule_parameters = PARAMETERS
    data = DATA
    policies = {"bourbons": BOURBON_POLICIES, "catalans": CATALAN_POLICIES}
    outcome_columns = L.OUTCOMES
    compile_seconds = 2  # measured: 2.3 s of CPU for a cold compile (2026-12-01)

    def kernel(self, rules, policies, game_indices, root_seed, log):
        return play_assault_games(*self.kernel_inputs(rules, policies), game_indices,
                                  root_seed, log)

    def narration(self, rules, log):
        return EVENTS.narrate(log)

    def closing_lines(self, rules, row):
        return [f"The zone is held by the {L.WINNERS[row[L.O_WINNER]].capitalize()}."]


ASSAULT = AssaultScenario()


class FullGame(Game):
    name = "setembre1714"
    title = "11 de Setembre. Setge 1714: the assault on Barcelona, zone by zone"
    sides = F.SIDES
    Rules = FullRules
    rule_parameters = FULL_PARAMETERS
    data = DATA
    presets_file = "full_presets.toml"
    policies = {"bourbons": FULL_BOURBON_POLICIES, "catalans": FULL_CATALAN_POLICIES}
    outcome_columns = F.OUTCOMES
    compile_seconds = 13  # measured: 13 s of CPU for a cold compile (2026-12-01)
    caveat = ("The rulebook prints no map, counter manifest, deployment, game length, "
              "reinforcement schedule or event cards: results describe the reconstruction "
              "in setembre1714/data (map.toml, forces.toml, events.toml), 8 turns by "
              "default, played by scripted policies.")

    def kernel(self, rules, policies, game_indices, root_seed, log):
        board, _ = load_board()
        return play_full_games(board, *self.kernel_inputs(rules, policies), game_indices,
                               root_seed, log)

    def narration(self, rules, log):
        return EVENTS.narrate(log, load_board()[1])

    def closing_lines(self, rules, row):
        return [f"Two Crowns {row[F.O_BOURBON_VP]} VP, Catalans {row[F.O_CATALAN_VP]} VP; "
                f"the Two Crowns hold {row[F.O_OBJECTIVES_HELD]} of 11 objectives."]


FULL = FullGame()
