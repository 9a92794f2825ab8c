"""A fixed-size njit event log that engines fill only when a game is traced.

Row 0 holds the number of events written; each later row is ``(code, a, b, c)``. A game
package maps its codes to sentences in the rulebook's words. Engines take a log of shape
``(0, 4)`` when playing for results, so logging costs one shape test per event.
"""

import numpy as np
from numba import njit

WIDTH = 4


def new_log(capacity: int = 4096) -> np.ndarray:
    return np.zeros((capacity + 1, WIDTH), dtype=np.int64)


def no_log() -> np.ndarray:
    return np.zeros((0, WIDTH), dtype=np.int64)


@njit(cache=True, nogil=True)
def log_event(log, code, a=0, b=0, c=0):
    if log.shape[0] == 0:
        return
    n = log[0, 0] + 1
    if n >= log.shape[0]:
        return  # full: a trace longer than its capacity is cut, never overrun
    log[0, 0] = n
    log[n, 0] = code
    log[n, 1] = a
    log[n, 2] = b
    log[n, 3] = c


def events(log: np.ndarray) -> np.ndarray:
    """The events written, one row each: ``(code, a, b, c)``."""
    return log[1 : log[0, 0] + 1]
