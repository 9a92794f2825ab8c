"""The King in the North: the First Carlist War, 1833-1839 (Carlists against Liberals).

Modules by rulebook section: ``engine`` (6 the yearly cycle: Turn Order and the
Initiative Challenge, Semesters, Reinforcement Phase, Siege Attrition; 8.1 the Combat
Phase; 2 victory), ``movement`` (7: cards for movement, stack moves with their bonuses and
caps, trails, cavalry, Forced March, stacking, Garrisons, Overruns, recruitment, naval
moves, movement events), ``combat`` (8: deployment and Initiative, Impact, special
attacks, Loyalty Challenges, losses, retreats, card replenishment, sieges; 10 supply; 11
Headquarters and Fortified House cards; 12 battle events; 13.1-13.4), ``policies`` (the
scripted commanders), ``lookahead`` (the rollout commander, its own kernel) with
``plan`` (what the engine does at a decision it searches), ``state`` (blocks, cards,
control and VP helpers), ``rules`` (the knobs), ``layout`` (offsets, codes, outcome
columns, random streams), ``events`` (the trace), ``components`` (the reconstructed map,
roster, decks and calendar), ``prob`` (exact answers), ``checks`` (the state invariants
a checking run asserts after every rule step: control, Garrisons, blocks, Defectors,
stacking, sieges, decks, markers).

Readings where the rulebook is silent (each in its function's docstring): «Under Cover
of Night» may be played before any deployment once both sides have played 2 cards (it
ends the battle) or at its end; Leaders and cavalry take a 2-Location retreat only to
escape a forced retreat's extra loss; «Cavalry Charge» lets one Liberal cavalry block be
deployed, charging, with any Faction card; a historical reinforcement whose Location is
full (7.1) joins a friendly stack with room, as one whose Location the enemy holds;
«Blown Bridge» stops a stack only where it has room to end its move (7.1); a retreat may
leave more blocks in a Location than 7.1 allows (8.8.1: "There is no limit to the size
of the force that may be moved together when retreating"). The readings a designer may
switch are knobs (``rules.Rules``, each value with the rulebook's words).

Player options the engine does not offer (declared, not played): a stack dividing on its
way to end in two Locations as one stack move, or picking up and dropping blocks as it
goes (7.1: "Once a stack has been chosen to move, it may be divided and moved in two
different directions"; 7.3.1: "A stack may pick up and drop additional blocks as it
moves"): the blocks it leaves behind may move later as another stack move; relocating
Garrison cubes (7.5: "During their turn, players may remove any Garrison cubes and
relocate them to other Locations"): cubes are dropped as stacks move, at most 12 on the
map, and lost to enemy entries; Barrels as ammunition (10.1: "the player who controls
it may take one of the last 3 Faction-specific cards in their discard pile"): Barrels
only supply the Liberals on Trails; hiding Don Carlos (7.1 A: "Don Carlos' Block can be
exchanged with 2 other blocks from different Locations"). The commanders recruit after
their stack moves (7.1 allows any order; recruits cannot move that turn, 7.2). After a
lost relief battle (8.9.5) the originally besieged blocks always stay inside (the rule
says they "may"; staying keeps the City).
"""

import numpy as np

from simkit.games.base import Game

from . import components as _components
from . import layout as L
from .engine import play_games
from .events import EVENTS
from .lookahead import greedy_rows, play_lookahead_games
from .policies import CARLIST_POLICIES, LIBERAL_POLICIES
from .rules import PARAMETERS, POLICY_ROWS, POLICY_WEIGHTS, Rules


class _Names:
    def __init__(self, data):
        c = _components.components(data)
        self.loc = [name.replace("_", " ").title() for name in c.loc_ids]
        self.block = list(c.block_names)
        self.card = [_card_name(row) for row in c.card]


def _card_name(row) -> str:
    sp = row[L.CD_SPECIAL]
    if sp != L.CS_NONE:
        return "«" + L.CARD_SPECIALS[sp].replace("_", " ") + "»"
    name = L.FACTIONS[row[L.CD_FAC1]]
    if row[L.CD_FAC2] != L.NO_FACTION:
        name += "/" + L.FACTIONS[row[L.CD_FAC2]]
    if row[L.CD_DOUBLE]:
        name += " Double"
    if row[L.CD_BUGLE]:
        name += " (bugle)"
    return f"a {name} card"


class KingInTheNorth(Game):
    name = "king_in_the_north"
    title = "The King in the North: the First Carlist War, 1833-1839"
    sides = L.SIDES
    Rules = Rules
    rule_parameters = PARAMETERS
    data = _components.DATA
    policies = {"carlists": CARLIST_POLICIES, "liberals": LIBERAL_POLICIES}
    policy_weights = POLICY_WEIGHTS
    policy_rows = POLICY_ROWS
    outcome_columns = L.OUTCOMES
    invariants = L.INVARIANTS
    steps = L.STEPS
    compile_seconds = 36  # measured: 36 s of CPU for a cold compile (2026-12-07)
    # measured: 20 s of CPU after the engine (whose cold compile took 56 s that day, a
    # busy machine), one kernel for both sides (2026-12-07)
    policy_kernels = {("carlists", "lookahead"): 11, ("liberals", "lookahead"): 11}
    reconstructions = {"map.toml": "the map",
                       "blocks.toml": "the block roster, bags, initial deployment and "
                                      "historical reinforcements",
                       "campaign.toml": "the Reinforcement Track",
                       "cards.toml": "the decks"}
    caveat = ("The map, block roster, bags, decks, Reinforcement Track, initial deployment "
              "and historical reinforcements are reconstructions (the rulebook prints none "
              "of them and its Playbook is not available): results describe the "
              "reconstruction, not the published game; its set-up (Vitoria Carlist, the "
              "Liberal Militia in the bag) is calibrated so that each side wins 30-70% "
              "under the best play found.")

    def check_rules(self, rules):
        """The set-up knobs need what they move in the data files: the Capitals they
        give the Carlists (map.toml) and a ``rising`` start for each Liberal block set up
        in one (blocks.toml)."""
        self.set_up(rules)

    def load_data(self):
        super().load_data()
        _components.components(self.data)

    def kernel_inputs(self, rules, policies):
        """The parameter vector and policy rows, then the Locations and blocks of the
        set-up the knobs carlist_capitals_at_set_up and liberal_militia_at_set_up
        choose (their control and where each block starts)."""
        c = self.set_up(rules)
        return (*super().kernel_inputs(rules, policies), (c.loc, c.blk))

    def set_up(self, rules):
        """The components with the set-up ``rules`` choose (``components.set_up``)."""
        return _components.set_up(self.data, rules.carlist_capitals_at_set_up,
                                  rules.liberal_militia_at_set_up)

    def kernel(self, rules, policies, game_indices, root_seed, log):
        c = self.set_up(rules)
        p, pol, _ = self.kernel_inputs(rules, policies)
        rows, searching = greedy_rows(pol)
        if not searching.any():
            return play_games(p, c.loc, c.adj, c.fac_home, c.any2, c.blk, c.card, pol,
                              game_indices, root_seed, log)
        side = L.SIDES[int(np.flatnonzero(searching)[0])]
        with self.compiling_policy(side, "lookahead"):
            return play_lookahead_games(p, c.loc, c.adj, c.fac_home, c.any2, c.blk, c.card,
                                        rows, searching, game_indices, root_seed, log)

    def narration(self, rules, log):
        return EVENTS.narrate(log, _Names(self.data))

    def closing_lines(self, rules, row):
        return [f"Final VP: Carlists {row[L.O_CARLIST_VP]}, Liberals {row[L.O_LIBERAL_VP]} "
                f"(ended {row[L.O_END_YEAR]} {L.END_SEMESTERS[row[L.O_END_SEMESTER]]})."]


GAME = KingInTheNorth()
