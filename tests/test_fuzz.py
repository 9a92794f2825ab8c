"""Fuzzing: random legal settings of every game's rule knobs and policies, played at test
sizes with the state checks on. A setting is refused only with ``RulesError`` (the
cross-knob checks); a legal one plays, its categories are among the declared ones, no
integer column reaches its dtype's limit, and the trace of a game ends on its row.

``make fuzz`` runs many more settings (``SIMKIT_FUZZ_EXAMPLES`` per game, drawn afresh
each time); ``make test`` runs a few, the same ones every time.
"""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from test_contract import assert_valid_columns, row_result_line

from simkit import games
from simkit.errors import RulesError

GAMES = games.names()
EXAMPLES = int(os.environ.get("SIMKIT_FUZZ_EXAMPLES", "6"))
FRESH = "SIMKIT_FUZZ_EXAMPLES" in os.environ  # make fuzz: new draws every run
N_GAMES = 3


def knob_values(knob):
    """Every value ``knob`` allows (its range or its choices)."""
    if knob.type is bool:
        return st.booleans()
    if knob.choices is not None:
        return st.sampled_from(knob.choices)
    lo, hi = knob.range
    if knob.type is int:
        return st.integers(lo, hi)
    if knob.step:  # multiples of the step only
        return st.integers(round(lo / knob.step), int(hi / knob.step)).map(
            lambda k: round(k * knob.step, 9))
    return st.floats(lo, hi, allow_nan=False)


@st.composite
def settings_of(draw, game):
    """(rules, {side: policy}, seed): each knob changed with even odds, each side in play
    given any of its policies but those with their own slow kernels."""
    changes = {k.name: draw(knob_values(k)) for k in game.Rules.knobs()
               if draw(st.booleans())}
    try:
        rules = game.resolve_rules(changes)  # with what the data played cannot set up
    except RulesError:
        reject()
    policy = {}
    for side in game.sides_in_play(rules):
        quick = [p for p in game.policies[side] if (side, p) not in game.policy_kernels]
        policy[side] = draw(st.sampled_from(quick))
    return rules, policy, draw(st.integers(0, 2**32))


def assert_sound(game, cols, n):
    assert_valid_columns(game, cols, n)
    for name, col in game.outcome_columns.items():
        values = cols[name]
        if col.dtype != "category" and np.issubdtype(values.dtype, np.integer):
            limits = np.iinfo(values.dtype)
            assert limits.min < values.min() and values.max() < limits.max, name
        elif col.dtype != "category":
            assert np.isfinite(values).all(), name


@pytest.mark.parametrize("name", GAMES)
def test_random_legal_settings_play_soundly(name):
    game = games.get(name)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not FRESH,
              database=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                    HealthCheck.too_slow])
    @given(settings_of(game))
    def plays(setting):
        rules, policy, seed = setting
        cols = game.simulate(rules, policy, np.arange(N_GAMES), seed, check_state=True)
        assert_sound(game, cols, N_GAMES)
        last = game.trace(rules, policy, N_GAMES - 1, seed)[-1]
        assert last == row_result_line(game, cols, N_GAMES - 1)

    plays()
