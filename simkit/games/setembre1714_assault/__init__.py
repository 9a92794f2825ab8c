"""11 de Setembre. Setge 1714: an assault through the Royal Breach (the combat system alone).

``GAME`` (registered as ``setembre1714-assault``) plays one defended zone attacked
through the Royal Breach: Royal Breach checks until assured (rule 7), the artillery phase
(9), a salvo (11.2), then an assault with withdrawal choice and commander casualties
(11.3, with the flag of 13). It relies on no reconstructed component: every number is
the rulebook's. The whole game (``simkit.games.setembre1714``) resolves its combats with
this package's ``combat_system``.

Modules by rulebook section: ``combat_system`` (the rule functions and events both games
share: 7, 9, 11.2, 11.3, 13), ``rules`` (the knobs: 7, 9, 11, 13; the policies' weights),
``layout`` (offsets, codes, outcome columns, random streams, invariants, steps),
``events`` (the trace's sentences), ``engine`` (the scenario's sequence: 7, then 9 and
11.2, then 11.3), ``checks`` (the state invariants: 6.1, 7, 9, 11.2, 11.3, 13),
``policies`` (the choices of 11.3: the Bourbon commander's use and the Catalan
withdrawal), ``components`` (no reconstruction: the presets file), ``prob`` (exact
answers: 7, 9, 11.2, 11.3), ``data/presets.toml``.
"""

from simkit.games.base import Game

from . import layout as L
from .components import DATA
from .engine import play_assault_games
from .events import EVENTS
from .policies import BOURBON_POLICIES, CATALAN_POLICIES
from .rules import PARAMETERS, POLICY_ROWS, POLICY_WEIGHTS, Rules


class AssaultScenario(Game):
    name = "setembre1714-assault"
    title = "11 de Setembre. Setge 1714: an assault through the Royal Breach"
    sides = L.SIDES
    Rules = Rules
    rule_parameters = PARAMETERS
    data = DATA
    policies = {"bourbons": BOURBON_POLICIES, "catalans": CATALAN_POLICIES}
    policy_weights = POLICY_WEIGHTS
    policy_rows = POLICY_ROWS
    outcome_columns = L.OUTCOMES
    invariants = L.INVARIANTS
    steps = L.STEPS
    compile_seconds = 3  # measured: 2.9 s of CPU for a cold compile (2026-12-07)

    def kernel(self, rules, policies, game_indices, root_seed, log):
        return play_assault_games(*self.kernel_inputs(rules, policies), game_indices,
                                  root_seed, log)

    def narration(self, rules, log):
        return EVENTS.narrate(log)

    def closing_lines(self, rules, row):
        return [f"The zone is held by the {L.WINNERS[row[L.O_WINNER]].capitalize()}."]


GAME = AssaultScenario()
