"""Victus: Barcelona 1714 (work in progress: not yet registered as a playable game).

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
interpreter), ``engine`` (the sequence of play); ``policies`` and ``players`` are the
scripted choices; ``rules`` the knobs.
"""

from functools import cache

import numpy as np

from simkit.eventlog import new_log, no_log
from simkit.games.base import Column, Game, load_presets

from . import layout as L
from .cards import load_cards
from .components import DATA, load_components
from .engine import (
    O_BOURBON_STRENGTH,
    O_CARDS_PLAYED,
    O_CORONELA,
    O_END_REASON,
    O_MINE_EXPLOSIONS,
    O_RUBBLE,
    O_STAGE,
    O_TRENCH,
    O_TURNS,
    play_games,
)
from .narrate import narrate_log
from .players import POLICIES
from .rules import Rules, params
from .state import board_tuple, set_up

_OUTCOMES = {
    "winner": Column("category", "players (Barcelona held to the end of Stage IV) or game",
                     ("players", "game")),
    "end_reason": Column("category", "survived, or the defeat: coronela (too few Coronela "
                         "in Barcelona), beach (a Bourbon tile on the Beach), rubble (too "
                         "many rubble/ruined tiles)", L.END_NAMES),
    "turns": Column("int16", "turns played (Stage IV's included)"),
    "stage_reached": Column("int8", "the stage the game ended in (1-4)"),
    "coronela_in_barcelona": Column("int8", "Coronela in Barcelona spaces at the end"),
    "rubble_tiles": Column("int8", "rubble/ruined tiles on the board at the end"),
    "bourbon_strength_on_board": Column("int16", "total value of the Bourbon troop tiles"),
    "trench_progress": Column("int8", "sum of the six trench tiles' positions (0-18)"),
    "mine_explosions": Column("int8", "mine explosions that hit something"),
    "cards_played": Column("int8", "event/leader cards played"),
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
    c = _static()[0]
    sp, g = set_up(c, rules.full)
    g[L.G_SEATS] = rules.players
    return sp, g


class Victus(Game):
    name = "victus"
    title = "Victus: Barcelona 1714 (cooperative, 2-4 players)"
    sides = ("players",)
    Rules = Rules
    presets = load_presets(DATA / "presets.toml", Rules)
    policies = {"players": POLICIES}
    outcome_columns = _OUTCOMES
    caveat = ("the board graph, marker dials beyond the printed values, dice faces, chance "
              "cards and all 150 event/leader cards are reconstructions (the rulebook does "
              "not print them): rates describe this reconstruction, not the printed game")

    def _play(self, rules, policy_ids, game_indices, root_seed, log):
        c, K, dice, cards = _static()
        sp, g = _start(rules)
        return play_games(K, dice, cards.as_tuple(), params(rules, int(policy_ids[0])), sp, g,
                          game_indices, root_seed, log)

    def play(self, rules, policy_ids, game_indices, root_seed):
        out = self._play(rules, policy_ids, game_indices, root_seed, no_log())
        reason = out[:, O_END_REASON]
        columns = {"winner": (reason != L.END_SURVIVED).astype(np.int8),
                   "end_reason": reason.astype(np.int8)}
        for name, offset in _COLUMN_OF.items():
            columns[name] = out[:, offset].astype(self.outcome_columns[name].dtype)
        return columns

    def narrate(self, rules, policy_ids, game_index, root_seed):
        log = new_log(20_000)
        out = self._play(rules, policy_ids, np.array([game_index], dtype=np.int64),
                         root_seed, log)
        c, _, _, cards = _static()
        lines = [f"{self.title} - game {game_index} of seed {root_seed} ({rules.level}, "
                 f"{rules.players} players)"]
        lines += narrate_log(log, c, cards)
        reason = L.END_NAMES[out[0, O_END_REASON]]
        verdict = ("Barcelona holds: the players win" if reason == "survived"
                   else f"defeat ({reason})")
        lines.append(f"Result: {verdict} after {out[0, O_TURNS]} turns.")
        return lines


GAME = Victus()
