"""Victus traces: the engine's event log told in the rulebook's words (``events.py``)."""

from .cards import Cards
from .components import Components
from .events import EVENTS, Context


def narrate_log(log, c: Components, cards: Cards) -> list[str]:
    return EVENTS.narrate(log, Context(c, cards))
