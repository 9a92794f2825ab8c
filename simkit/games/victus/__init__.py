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
(Casanova's pile and the resignation tiles); ``policies`` and ``players`` are the
scripted choices; ``rules`` the knobs and the policies' weights.
"""

from functools import cache

import numpy as np

from simkit.eventlog import new_log, no_log
from simkit.games.base import Column, Game, load_presets

from . import card_layout as CL
from . import layout as L
from .cards import load_cards
from .components import DATA, load_components
from .engine import (
    O_BOURBON_STRENGTH,
    O_CANCELLED,
    O_CARDS_PLAYED,
    O_CORONELA,
    O_DICE_CHOSEN,
    O_END_REASON,
    O_MINE_EXPLOSIONS,
    O_RUBBLE,
    O_STAGE,
    O_STAGE_IV_CARD,
    O_TRENCH,
    O_TURNS,
    O_VP,
    play_games,
)
from .narrate import narrate_log
from .players import POLICIES
from .rules import Rules, Weights, params
from .scoring import fame, fame_winners
from .state import board_tuple, starting_position

_OUTCOMES = {
    "winner": Column("category", "players (Barcelona held to the end of Stage IV) or game",
                     ("players", "game")),
    "end_reason": Column("category", "survived, or the defeat: coronela (too few Coronela "
                         "in Barcelona), beach (a Bourbon tile on the Beach), rubble (too "
                         "many rubble/ruined tiles), victory_points (competitive: too few VP "
                         "among all players after Stage IV)", L.END_NAMES),
    "turns": Column("int16", "turns played (Stage IV's included)"),
    "stage_reached": Column("int8", "the stage the game ended in (1-4)"),
    "coronela_in_barcelona": Column("int8", "Coronela in Barcelona spaces at the end"),
    "rubble_tiles": Column("int8", "rubble/ruined tiles on the board at the end"),
    "bourbon_strength_on_board": Column("int16", "total value of the Bourbon troop tiles"),
    "trench_progress": Column("int8", "sum of the six trench tiles' positions (0-18)"),
    "mine_explosions": Column("int8", "mine explosions that hit something"),
    "cards_played": Column("int8", "event/leader cards played"),
    **{f"vp_seat{s + 1}": Column("int16", f"competitive: seat {s + 1}'s VP (solo: seat 1 "
                                 "Villarroel, seat 2 Casanova; 0 beyond the table)")
       for s in range(4)},
    "fame_winner": Column("category", "competitive: the seat with the most VP (the fame), "
                          "shared on a tie, none outside the competitive game",
                          ("none", "seat1", "seat2", "seat3", "seat4", "shared")),
    "fame": Column("int16", "competitive: the fame of a players' victory (0 on a defeat)"),
    "dice_order_chosen_stages": Column("int8", "partial dice order: stages (I-IV) in which "
                                       "the players chose the order"),
    "cards_cancelled": Column("int8", "solo: Casanova cards cancelled with resignation "
                              "tiles"),
}
_COLUMN_OF = {"turns": O_TURNS, "stage_reached": O_STAGE, "coronela_in_barcelona": O_CORONELA,
              "rubble_tiles": O_RUBBLE, "bourbon_strength_on_board": O_BOURBON_STRENGTH,
              "trench_progress": O_TRENCH, "mine_explosions": O_MINE_EXPLOSIONS,
              "cards_played": O_CARDS_PLAYED}


@cache
def _static():
    """The read-only component arrays the kernels take (loaded once per process)."""
    c = load_components()
    dice = tuple(np.ascontiguousarray(a, dtype=np.int64)
                 for a in (c.die_action, c.die_amount, c.stage_dice))
    return c, board_tuple(c), dice, load_cards()


def _start(rules: Rules):
    return starting_position(_static()[0], rules)


def _params(rules: Rules, policies) -> np.ndarray:
    choice = policies[0]
    return params(rules, choice.id, choice.weights)


class Victus(Game):
    name = "victus"
    title = "Victus: Barcelona 1714 (cooperative, competitive or solo; 1-4 players)"
    sides = ("players",)
    Rules = Rules
    presets = load_presets(DATA / "presets.toml", Rules)
    policies = {"players": POLICIES}
    policy_weights = {"players": {"greedy": Weights, "fortify": Weights}}
    outcome_columns = _OUTCOMES
    caveat = ("the board graph, marker dials beyond the printed values, dice faces, chance "
              "cards and all 150 event/leader cards are reconstructions (the rulebook does "
              "not print them): rates describe this reconstruction, not the printed game")

    def _play(self, rules, p, game_indices, root_seed, log):
        c, K, dice, cards = _static()
        sp, g = _start(rules)
        return play_games(K, dice, cards.as_tuple(), p, sp, g, game_indices, root_seed, log)

    def play(self, rules, policies, game_indices, root_seed):
        p = _params(rules, policies)
        out = self._play(rules, p, game_indices, root_seed, no_log())
        reason = out[:, O_END_REASON]
        columns = {"winner": (reason != L.END_SURVIVED).astype(np.int8),
                   "end_reason": reason.astype(np.int8)}
        for name, offset in _COLUMN_OF.items():
            columns[name] = out[:, offset].astype(self.outcome_columns[name].dtype)
        columns.update(_competitive_columns(rules, p, out))
        return columns

    def narrate(self, rules, policies, game_index, root_seed):
        log = new_log(20_000)
        out = self._play(rules, _params(rules, policies),
                         np.array([game_index], dtype=np.int64), root_seed, log)
        c, _, _, cards = _static()
        lines = [f"{self.title} - game {game_index} of seed {root_seed} ({rules.level}, "
                 f"{rules.players} players)"]
        lines += narrate_log(log, c, cards)
        reason = L.END_NAMES[out[0, O_END_REASON]]
        verdict = ("Barcelona holds: the players win" if reason == "survived"
                   else f"defeat ({reason})")
        lines.append(f"Result: {verdict} after {out[0, O_TURNS]} turns.")
        return lines


def _competitive_columns(rules: Rules, p: np.ndarray, out: np.ndarray) -> dict:
    """Per-seat VP, the fame winner and the fame (digest B12), from the kernel's rows."""
    vp = out[:, O_VP:O_VP + 4].astype(np.int16)
    columns = {f"vp_seat{s + 1}": vp[:, s] for s in range(4)}
    won = out[:, O_END_REASON] == L.END_SURVIVED
    competitive = rules.competitive & won
    columns["fame_winner"] = np.where(competitive, fame_winners(vp), 0).astype(np.int8)
    points = _static()[3].meta[out[:, O_STAGE_IV_CARD], CL.M_SENSE_FURY].astype(np.int64)
    total = fame(p, vp.sum(axis=1), points, out[:, O_CORONELA], out[:, O_RUBBLE],
                 out[:, O_DICE_CHOSEN])
    columns["fame"] = np.where(competitive, total, 0).astype(np.int16)
    chosen = out[:, O_DICE_CHOSEN]
    columns["dice_order_chosen_stages"] = sum(chosen >> s & 1 for s in range(4)).astype(np.int8)
    columns["cards_cancelled"] = out[:, O_CANCELLED].astype(np.int8)
    return columns


GAME = Victus()
