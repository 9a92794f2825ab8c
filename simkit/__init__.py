"""simkit: Monte Carlo balance and difficulty toolkit for historical board games.

Public API: ``simulate`` (play seeded games in parallel, optionally into a results
folder), ``load`` (read a results folder), ``games`` (the registry), ``stats``.
"""

from simkit._numba_cache import configure as _configure_numba_cache

NUMBA_CACHE_DIR = _configure_numba_cache()

from simkit import games, stats  # noqa: E402
from simkit.errors import (  # noqa: E402
    ComponentError,
    RulesError,
    SimkitError,
    StoreError,
    UsageError,
)
from simkit.runner import simulate  # noqa: E402
from simkit.store import load  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "ComponentError",
    "RulesError",
    "SimkitError",
    "StoreError",
    "UsageError",
    "games",
    "load",
    "simulate",
    "stats",
]
