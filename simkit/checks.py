"""State checks: each game's invariants, asserted after every rule step when asked.

A game declares, in its ``layout.py``, the names of its invariants (``INVARIANTS``) and of
the rule steps after which its kernels check them (``STEPS``), and in its ``checks.py``
an njit ``check_state`` that tests each invariant in turn and calls ``broken`` for the
first one that does not hold. Its kernels call it through ``checking``::

    if checking(log):
        check_state(..., log, L.STEP_MOVEMENT, turn)
    if failed(log):
        return            # stop the game at the first broken invariant

With ``SIMKIT_CHECK_STATE=1`` (or ``simulate(..., check_state=True)``) the kernels get a
log whose header says to check (``eventlog.no_log(check_state=True)``); the normal log of
shape ``(0, 4)`` makes ``checking`` false at the cost of one shape test per step, so a
run for results does no check. After the kernel, ``broken_state`` reads the header and
the game raises ``StateError`` naming the game index, turn, step and invariant.
"""

import os

from numba import njit

from simkit import _numba_cache
from simkit.errors import StateError

_numba_cache.install()  # before any cached function is defined here

#: the environment variable that turns the state checks on for every run
ENV = "SIMKIT_CHECK_STATE"


def requested() -> bool:
    """Whether ``SIMKIT_CHECK_STATE`` asks for the state checks."""
    return os.environ.get(ENV, "").strip().lower() in {"1", "true", "yes", "on"}


@njit(cache=True, nogil=True)
def checking(log):
    """Whether this run checks the state after every rule step."""
    return log.shape[0] > 0 and log[0, 1] != 0


@njit(cache=True, nogil=True)
def broken(log, invariant, detail, step, turn):
    """Record that ``invariant`` (a code of the game's INVARIANTS) does not hold after
    ``step`` on ``turn``; only the first broken invariant of a run is kept."""
    if log[0, 2] == 0:
        log[0, 2] = invariant + 1
        log[0, 3] = detail
        log[1, 0] = step
        log[1, 1] = turn


@njit(cache=True, nogil=True)
def failed(log):
    """Whether a state check failed in this run (the kernels stop at once)."""
    return log.shape[0] > 0 and log[0, 2] != 0


@njit(cache=True, nogil=True)
def at_game(log, row):
    """Note which game of the chunk is being played (for the error's game index)."""
    if log.shape[0] > 0:
        log[1, 2] = row


def broken_state(log) -> tuple[int, int, int, int, int] | None:
    """``(invariant, detail, step, turn, row)`` of the failed check, or None."""
    if log.shape[0] == 0 or log[0, 2] == 0:
        return None
    return (int(log[0, 2]) - 1, int(log[0, 3]), int(log[1, 0]), int(log[1, 1]),
            int(log[1, 2]))


def raise_if_broken(game: str, log, game_indices, root_seed, invariants, steps) -> None:
    """Raise StateError if a check failed, naming what broke, where and when."""
    found = broken_state(log)
    if found is None:
        return
    invariant, detail, step, turn, row = found
    raise StateError(
        f"{game}: game index {int(game_indices[row])} of seed {int(root_seed)}, turn {turn}, "
        f"after {steps[step]}: invariant broken: {invariants[invariant]} (detail {detail})")
