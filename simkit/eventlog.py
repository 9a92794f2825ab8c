"""A fixed-size njit event log that engines fill only when a game is traced or checked.

The first ``HEADER`` rows are the header:

- row 0: ``(events written, state checks on, broken invariant + 1, its detail)``;
- row 1: ``(step after which it broke, turn, row of the game in the chunk, events
  dropped because the log was full)``.

Each later row is an event ``(code, a, b, c)``; a game package maps its codes to sentences
in the rulebook's words. Engines take a log of shape ``(0, 4)`` when playing for results,
so logging costs one shape test per event. A checking log without room for events
(``no_log(check_state=True)``) records nothing but the header: see ``simkit.checks``.
"""

import numpy as np
from numba import njit

from simkit import _numba_cache

_numba_cache.install()  # before any cached function is defined here

WIDTH = 4
HEADER = 2
#: events one trace holds; a longer game's trace says it was cut
CAPACITY = 50_000


def new_log(capacity: int = CAPACITY, *, check_state: bool = False) -> np.ndarray:
    log = np.zeros((HEADER + capacity, WIDTH), dtype=np.int64)
    log[0, 1] = check_state
    return log


def no_log(*, check_state: bool = False) -> np.ndarray:
    """The log of a run for results: none, or only the state checks' header."""
    return new_log(0, check_state=True) if check_state else np.zeros((0, WIDTH), np.int64)


@njit(cache=True, nogil=True)
def log_event(log, code, a=0, b=0, c=0):
    if log.shape[0] == 0:
        return
    n = log[0, 0]
    if HEADER + n >= log.shape[0]:
        log[1, 3] += 1  # full: a trace longer than its capacity is cut, and says so
        return
    log[0, 0] = n + 1
    row = HEADER + n
    log[row, 0] = code
    log[row, 1] = a
    log[row, 2] = b
    log[row, 3] = c


def events(log: np.ndarray) -> np.ndarray:
    """The events written, one row each: ``(code, a, b, c)``."""
    return log[HEADER : HEADER + log[0, 0]]


def dropped(log: np.ndarray) -> int:
    """How many events did not fit in the log (0 unless the trace was cut)."""
    return int(log[1, 3]) if log.shape[0] else 0


class EventTable:
    """A game's trace events, one table: each event's code, the meaning of its arguments
    and the sentence that tells it. Codes are allocated in order (``add`` returns it);
    the engine logs ``(code, a, b, c)`` and ``narrate`` dispatches on the code.

    A sentence is a format string over ``a``, ``b``, ``c`` and the context's attributes
    passed as ``x`` (``"{x.label[a]} takes {b} hits"``), or a function
    ``(x, a, b, c) -> str | None``; None (or an empty string) leaves the event out of the
    trace (an event that changed nothing).
    """

    def __init__(self, game: str):
        self.game = game
        self.rows: list[tuple[int, str, str, object]] = []  # code, name, args, sentence

    def add(self, name: str, args: str, sentence) -> int:
        if any(row[1] == name for row in self.rows):
            raise ValueError(f"{self.game}: event {name!r} is declared twice")
        code = len(self.rows) + 1  # 0 is never logged: a zeroed row is no event
        self.rows.append((code, name, args, sentence))
        return code

    def sentence(self, x, code: int, a: int, b: int, c: int) -> str | None:
        if not 1 <= code <= len(self.rows):
            return f"(unknown event {code}: {a} {b} {c})"
        text = self.rows[code - 1][3]
        if callable(text):
            return text(x, a, b, c) or None
        return text.format(x=x, a=a, b=b, c=c)

    def narrate(self, log: np.ndarray, x=None) -> list[str]:
        """Every logged event as a line of the trace (events that changed nothing left
        out)."""
        lines = (self.sentence(x, *(int(v) for v in event)) for event in events(log))
        return [line for line in lines if line]
