"""Random streams loaded with the dice a worked example rolls (for any game's tests).

A rule function draws each die from a named purpose's stream (``simkit.rng``). To replay
a rulebook example, ``loaded(n_streams, rolls={purpose: dice}, per_counter={purpose:
{counter: die}})`` searches keys whose streams roll exactly those dice: ``rolls`` for a
stream read straight on, ``per_counter`` for one restarted at each counter (a turn) and
read once there. Rows are independent, so each is searched alone (about 6**k keys for k
dice) and the rows are put together.
"""

import numpy as np
from numba import njit

from simkit.rng import WIDTH, game_streams, restart, uniform_int

SEARCH_ROOT = 1714


@njit(cache=True)
def _find_row(purpose, n_purposes, sides, dice, counters, stop):
    for i in range(stop):
        rng = game_streams(SEARCH_ROOT, i, n_purposes)
        ok = True
        for k in range(dice.shape[0]):
            if counters.shape[0]:
                restart(rng, purpose, counters[k])
            if uniform_int(rng, purpose, sides) + 1 != dice[k]:
                ok = False
                break
        if ok:
            row = game_streams(SEARCH_ROOT, i, n_purposes)[purpose]
            return row
    return np.zeros(0, dtype=np.uint64)


def _row(purpose, n_streams, sides, dice, counters):
    dice = np.asarray(dice, dtype=np.int64)
    counters = np.asarray(counters, dtype=np.int64)
    row = _find_row(purpose, n_streams, sides, dice, counters, sides ** len(dice) * 60)
    assert row.shape[0] == WIDTH, f"no stream of purpose {purpose} rolls {list(dice)}"
    return row


def loaded(n_streams, rolls=None, per_counter=None, sides=6, seed=0):
    """Streams of game 0 of ``seed``, except the purposes given, which roll the dice
    asked (``rolls``: in order; ``per_counter``: ``{counter: die}`` after each restart)."""
    rng = game_streams(seed, 0, n_streams)
    for purpose, dice in (rolls or {}).items():
        rng[purpose] = _row(purpose, n_streams, sides, dice, ())
    for purpose, by_counter in (per_counter or {}).items():
        counters = sorted(by_counter)
        rng[purpose] = _row(purpose, n_streams, sides, [by_counter[c] for c in counters],
                            counters)
    return rng


def advanced(rng, rolls, sides=6):
    """A copy of ``rng`` after ``rolls[purpose]`` more dice of each purpose."""
    copy = rng.copy()
    for purpose, n in rolls.items():
        for _ in range(n):
            uniform_int(copy, purpose, sides)
    return copy
