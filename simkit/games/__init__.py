"""The game registry: ``get(name)`` returns a Game, ``names()`` lists them.

Games are imported on first use so that listing them does not import every engine.
A game still being built is listed in ``_IN_PROGRESS``: the contract test and its own
tests play it, but users do not see it (``names()``, ``get()`` and the CLI ignore it)
until every rule section is in and it moves to ``_GAMES``.
"""

from __future__ import annotations

import importlib
from functools import cache

from simkit import _numba_cache, _numba_dispatch, _numba_link
from simkit.errors import UsageError

_numba_cache.install()  # before any engine is imported

# before any engine compiles (each on a tested numba release only: simkit._numba_patches)
_numba_dispatch.install()
_numba_link.install()

# name -> "module:attribute" of the Game object
_GAMES = {
    "victus": "simkit.games.victus:GAME",
    "setembre1714-assault": "simkit.games.setembre1714_assault:GAME",
    "setembre1714": "simkit.games.setembre1714:GAME",
    "king_in_the_north": "simkit.games.king_in_the_north:GAME",
    "verrix": "simkit.games.verrix:GAME",
}

# games whose engines are not finished: tested, not offered
_IN_PROGRESS: dict[str, str] = {
}

# game family -> "module:attribute" of its exact rules-probability questions
_QUESTIONS = {
    "setembre1714": "simkit.games.setembre1714_assault.prob:QUESTIONS",
    "king_in_the_north": "simkit.games.king_in_the_north.prob:QUESTIONS",
    "verrix": "simkit.games.verrix.prob:QUESTIONS",
    "victus": "simkit.games.victus.prob:QUESTIONS",
}


def _load(spec: str):
    module, attr = spec.split(":")
    return getattr(importlib.import_module(module), attr)


def names() -> list[str]:
    return list(_GAMES)


def in_progress() -> list[str]:
    """Games being built (not offered to users): the contract test plays them too."""
    return list(_IN_PROGRESS)


@cache
def get_in_progress(name: str):
    return _load(_IN_PROGRESS[name])


@cache
def get(name: str):
    """The Game registered as ``name``; UsageError naming the known games otherwise."""
    if name not in _GAMES:
        raise UsageError(f"unknown game {name!r}; games: {', '.join(_GAMES)}")
    return _load(_GAMES[name])


def question_sets() -> list[str]:
    return list(_QUESTIONS)


def question_module(family: str):
    """The module that answers a family's questions (its ``with_data``, if it has one,
    answers from a designer's data files)."""
    questions(family)  # an unknown family: one clear error
    return importlib.import_module(_QUESTIONS[family].split(":")[0])


@cache
def questions(family: str):
    """The exact questions of a game family, name -> Question."""
    if family not in _QUESTIONS:
        raise UsageError(f"no probability questions for {family!r}; "
                         f"available: {', '.join(_QUESTIONS)}")
    return _load(_QUESTIONS[family])
