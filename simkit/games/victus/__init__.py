"""Victus: Barcelona 1714, registered as ``victus``: the first game, the full game, the
competitive game with its fame, the solo game and every difficulty adjustment (``rules``).

Components the rulebook references but does not print are reconstructed as data files
under ``data/`` (each says which values are the rulebook's and which to replace with the
printed components): ``board.toml`` (spaces, adjacency, the Rambla, advance arrows, blue
cannon icons, camps, the trench, hospitals, the Expedition), ``markers.toml`` (the dials
and the Bourbon marker), ``dice.toml`` (the six Bourbon dice and the Action Table),
``chance.toml`` (the 14 chance cards), ``tiles.toml`` (counts and tile mixes) and
``cards.toml`` (the 150 event/leader cards in the event-card language of ``cards.py``).
``actions.toml`` and ``presets.toml`` are the rulebook's own tables.

Modules, by rulebook section: ``components`` and ``cards`` load and validate the data;
``layout`` and ``card_layout`` name the state arrays' fields; ``state`` builds the set-up;
``bourbons`` (Bourbon actions, marker, chance cards, trench), ``combat`` (combat and its
casualties), ``barcelonans`` (Barcelonan actions), ``card_effects`` (the card
interpreter), ``engine`` (the sequence of play), ``scoring`` (competitive VP and fame), ``solo``
(Casanova's pile and the resignation tiles), ``checks`` (the state invariants, from
"Components" and the rules that move pieces, asserted after every rule step on request);
``policies`` (with ``judgement``) are the scripted choices; ``rules`` the knobs and the
policies' weights.
"""

from functools import cache

import numpy as np

from simkit.datafile import DataFolder
from simkit.games.base import Game

from . import card_layout as CL
from . import layout as L
from .cards import load_cards
from .components import DATA, load_components
from .engine import play_games
from .lookahead import greedy_rows, play_lookahead_games
from .narrate import narrate_log
from .policies import POLICIES
from .rules import POLICY_ROWS, POLICY_WEIGHTS, RULE_PARAMETERS, Rules
from .scoring import fame, fame_winners
from .state import board_tuple, starting_position


@cache
def _static(data: DataFolder | None = None):
    """The read-only component arrays the kernels take, from ``data`` (default: the
    package's files), loaded once per process."""
    data = data or DataFolder(DATA)
    c = load_components(data)
    dice = tuple(np.ascontiguousarray(a, dtype=np.int64)
                 for a in (c.die_action, c.die_amount, c.stage_dice))
    return c, board_tuple(c), dice, load_cards(data)


def _start(rules: Rules, data: DataFolder | None = None):
    return starting_position(_static(data)[0], rules)


class Victus(Game):
    name = "victus"
    title = "Victus: Barcelona 1714 (cooperative, competitive or solo; 1-4 players)"
    sides = ("players",)
    Rules = Rules
    rule_parameters = RULE_PARAMETERS
    data = DATA
    policies = {"players": POLICIES}
    policy_weights = POLICY_WEIGHTS
    policy_rows = POLICY_ROWS
    outcome_columns = L.OUTCOMES
    invariants = L.INVARIANTS
    steps = L.STEPS
    compile_seconds = 38  # measured: 38 s of CPU for a cold compile (2026-12-07)
    # measured: 9 s after the engine; 39 s in a process that loaded the engine (2026-12-01)
    policy_kernels = {("players", "lookahead"): 11}
    reconstructions = {"board.toml": "the board graph",
                       "markers.toml": "marker dials beyond the printed values",
                       "dice.toml": "dice faces", "chance.toml": "the chance cards",
                       "cards.toml": "all 150 event/leader cards",
                       "tiles.toml": "the mix of Bourbon troop and victory point tiles"}
    caveat = ("the board graph, marker dials beyond the printed values, dice faces, chance "
              "cards and all 150 event/leader cards are reconstructions (the rulebook does "
              "not print them): rates describe this reconstruction, not the printed game")

    def kernel_inputs(self, rules, policies):
        return (self.parameters(rules), self.policy_rows.build(policies),
                *_start(rules, self.data))

    def seat_names(self, rules) -> list[str]:
        """The seats as the rulebook names them: the solo game's Villarroel (you) and
        Casanova (the automa); the other games' seats are players 1-4."""
        return ["Villarroel", "Casanova"] if rules.solo else []

    def check_rules(self, rules):
        """The set-up the rules ask for fits the box (a Reserve beyond the pieces left,
        a pin value the dial lacks): refused before anything plays."""
        _start(rules, self.data)

    def load_data(self):
        super().load_data()
        _static(self.data)

    def kernel(self, rules, policies, game_indices, root_seed, log):
        _, K, dice, cards = _static(self.data)
        p, pol, sp, g = self.kernel_inputs(rules, policies)
        if pol[L.PLAYERS, L.W_POLICY] != L.LOOKAHEAD:
            return play_games(K, dice, cards.as_tuple(), p, pol, sp, g, game_indices,
                              root_seed, log)
        with self.compiling_policy("players", "lookahead"):
            return play_lookahead_games(K, dice, cards.as_tuple(), p, greedy_rows(pol), sp, g,
                                        game_indices, root_seed, log)

    def derived_columns(self, rules, policies, table):
        return _derived_columns(rules, self.parameters(rules), table,
                                _static(self.data)[3])

    def categories_in_play(self, rules, column):
        """The fame winner is one of the seats at the competitive table, or none."""
        if column == "fame_winner":
            seats = L.FAME_WINNERS[1:1 + rules.seats] if rules.competitive else ()
            return ("none", *seats, "shared") if rules.competitive else ("none",)
        return super().categories_in_play(rules, column)

    def has_values(self, rules, columns):
        """A seat's VP only in the competitive game and at the table (solo: two seats),
        the fame only on a players' victory there."""
        won = rules.competitive & (columns["winner"] == L.WIN_PLAYERS)
        return {**{f"vp_seat{s + 1}": rules.competitive and s < rules.seats
                   for s in range(L.N_SEATS)}, "fame": won}

    def trace_heading(self, rules):
        return f" ({rules.level}, {rules.players} players)"

    def narration(self, rules, log):
        c, _, _, cards = _static(self.data)
        return narrate_log(log, c, cards)

    def closing_lines(self, rules, row):
        reason = L.END_NAMES[row[L.O_END_REASON]]
        return ["Barcelona holds: the players win." if reason == "survived"
                else f"Defeat ({reason})."]


def _derived_columns(rules: Rules, p: np.ndarray, out: np.ndarray, cards) -> dict:
    """The fame winner and the fame (rulebook: the competitive game's fame), and the
    stages whose dice order the players chose, from the kernel's rows."""
    vp = out[:, L.O_VP:L.O_VP + L.N_SEATS]
    won = out[:, L.O_END_REASON] == L.END_SURVIVED
    competitive = rules.competitive & won
    columns = {"fame_winner": np.where(competitive, fame_winners(vp), 0).astype(np.int8)}
    points = cards.meta[out[:, L.O_STAGE_IV_CARD], CL.M_SENSE_FURY].astype(np.int64)
    total = fame(p, vp.sum(axis=1), points, out[:, L.O_CORONELA], out[:, L.O_RUBBLE],
                 out[:, L.O_DICE_CHOSEN])
    columns["fame"] = np.where(competitive, total, 0).astype(np.int16)
    chosen = out[:, L.O_DICE_CHOSEN]
    columns["dice_order_chosen_stages"] = sum(chosen >> s & 1 for s in range(4)).astype(np.int8)
    return columns


GAME = Victus()
