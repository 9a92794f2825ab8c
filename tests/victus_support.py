"""Shared set-up for the Victus tests: components, the kernels' static tuple, and the
rules vector for the first game or the full game."""

from simkit.games.victus import GAME
from simkit.games.victus import layout as L
from simkit.games.victus.components import load_components
from simkit.games.victus.rules import params as rules_params
from simkit.games.victus.state import board_tuple
from simkit.rng import game_streams

C = load_components()
K = board_tuple(C)


def streams(seed=0, game_index=0):
    """Game ``game_index``'s random streams (one per purpose of ``layout.STREAMS``)."""
    return game_streams(seed, game_index, L.N_STREAMS)


def S(space_id):
    """A space index by board id or printed number."""
    return C.space(space_id)


def params(full=False, policy=0, **changes):
    """The rules vector of the 2-player ``first_game`` or ``full`` preset (plus changes)."""
    rules = GAME.presets["full" if full else "first_game"].rules.replace(changes)
    return rules_params(rules, policy, None)


def set_marker(g, marker, value):
    """Point a marker's pin at ``value``."""
    g[L.G_MARKER + marker] = list(C.marker_values[marker]).index(value)
