"""Shared set-up for the Victus tests: components, the kernels' static tuple, the rules
vector for the first game or the full game, and the players' row of policy weights."""

from simkit.games.base import PolicyChoice
from simkit.games.victus import GAME
from simkit.games.victus import layout as L
from simkit.games.victus.components import load_components
from simkit.games.victus.rules import POLICY_ROWS, POLICY_WEIGHTS, RULE_PARAMETERS
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


def params(full=False, **changes):
    """The rules vector of the 2-player ``first_game`` or ``full`` preset (plus changes)."""
    return rules_vector(GAME.presets["full" if full else "first_game"].rules.replace(changes))


def rules_vector(rules):
    return RULE_PARAMETERS.build(rules)


def weights(policy=L.GREEDY, **changes):
    """The players' row of the kernels' ``pol`` for the policy of id ``policy``: its
    default weights with ``changes``."""
    name = L.POLICY_NAMES[policy]
    cls = POLICY_WEIGHTS["players"].get(name)
    choice = PolicyChoice(name, policy, cls(**changes) if cls else None)
    return POLICY_ROWS.build((choice,))[L.PLAYERS]


#: greedy's row with its default weights: what the tests play unless they need another
#: (shared, so never written: a test that changes a weight builds its own ``weights()``)
W = weights()


def set_marker(g, marker, value):
    """Point a marker's pin at ``value``."""
    g[L.G_MARKER + marker] = list(C.marker_values[marker]).index(value)
