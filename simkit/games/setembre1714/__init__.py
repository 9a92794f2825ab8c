"""11 de Setembre. Setge 1714: the whole game, the assault on Barcelona zone by zone.

``GAME`` (registered as ``setembre1714``) plays the whole game on a reconstructed map,
order of battle and event deck: the set-up (4), the sequence of play (5), stacking (6),
the Royal Breach (7), events (8), artillery (9), movement and reinforcements (10), salvo
and assault (11, on the combat system the assault scenario plays alone:
``simkit.games.setembre1714_assault.combat_system``), barricades (12), the flag (13) and
victory (13, "How to win").

Modules by rulebook section: ``rules`` (the knobs), ``layout`` (offsets, codes, outcome
columns, random streams, invariants, steps), ``events`` (the trace's sentences),
``components`` (the reconstructed data files, checked against 2.2, 6, 7, 10.1, 11.1, 12
and 13), ``board`` (the map and its pieces: 2.2, 6, 11.1, 12, 13), ``movement`` (10, 12,
6), ``combat`` (9, 11, 12, 13), ``engine`` (4, 5, 7, 8, 10.1, 6.1, 13), ``checks`` (the
state invariants: 4, 6, 9, 10.1, 11.3, 12, 13), ``policies`` (every player choice),
``data/map.toml``, ``data/forces.toml``, ``data/events.toml`` (reconstructions) and
``data/presets.toml``.
"""

from simkit.errors import RulesError
from simkit.games.base import Game

from . import layout as L
from .components import DATA, breach_cards_in, largest_set_up_stack, load_board
from .engine import play_games
from .events import EVENTS
from .lookahead import greedy_rows, play_lookahead_games, searched_decisions
from .policies import BOURBON_POLICIES, CATALAN_POLICIES, LOOKAHEAD
from .rules import PARAMETERS, POLICY_ROWS, POLICY_WEIGHTS, Rules


class Setembre1714(Game):
    name = "setembre1714"
    title = "11 de Setembre. Setge 1714: the assault on Barcelona, zone by zone"
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
    compile_seconds = 19  # measured: 19 s of CPU for a cold compile (2026-12-07)
    policy_kernels = {("bourbons", "lookahead"): 8, ("catalans", "lookahead"): 8}
    reconstructions = {"map.toml": "the map",
                       "forces.toml": "the counter manifest, deployment and reinforcement "
                                      "schedules",
                       "events.toml": "the event cards"}
    caveat = ("The rulebook prints no map, counter manifest, deployment, game length, "
              "reinforcement schedule or event cards: results describe the reconstruction "
              "in setembre1714/data (map.toml, forces.toml, events.toml), 8 turns by "
              "default, calibrated (the Bourbon recovery and the breach cards) so that "
              "each side wins 30-70% under greedy play, played by scripted policies.")

    def load_data(self):
        super().load_data()
        load_board(self.data)

    def check_rules(self, rules):
        """6.1 holds from the set-up on: a stacking limit below a stack forces.toml
        deploys outside the deployment zones could not be set up; ``breach_cards``
        keeps at most the breach cards events.toml holds."""
        board, names = load_board(self.data)
        held = len(breach_cards_in(board))
        if rules.breach_cards > held:
            raise RulesError(f"breach_cards = {rules.breach_cards}: the event deck "
                             f"(events.toml) holds {held} breach cards, so it can be "
                             f"0..{held}")
        zone, units = largest_set_up_stack(board, names)
        if rules.stacking_limit < units:
            raise RulesError(f"stacking_limit = {rules.stacking_limit}: the set-up "
                             f"(forces.toml) stacks {units} units in {zone}, so with these "
                             f"forces the limit can be {units}.."
                             f"{Rules.knob('stacking_limit').range[1]}")

    def kernel(self, rules, policies, game_indices, root_seed, log):
        board, _ = load_board(self.data)
        p, pol = self.kernel_inputs(rules, policies)
        searched = searched_decisions(pol)
        if not searched:
            return play_games(board, p, pol, game_indices, root_seed, log)
        side = next(s for s, row in zip(L.SIDES, pol, strict=True) if row[L.W_ID] == LOOKAHEAD)
        with self.compiling_policy(side, "lookahead"):
            return play_lookahead_games(board, p, greedy_rows(pol), searched, game_indices,
                                        root_seed, log)

    def narration(self, rules, log):
        return EVENTS.narrate(log, load_board(self.data)[1])

    def closing_lines(self, rules, row):
        return [f"Two Crowns {row[L.O_BOURBON_VP]} VP, Catalans {row[L.O_CATALAN_VP]} VP; "
                f"the Two Crowns hold {row[L.O_OBJECTIVES_HELD]} of 11 objectives."]


GAME = Setembre1714()
