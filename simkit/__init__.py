"""simkit: Monte Carlo balance and difficulty toolkit for historical board games.

Public API: ``simulate`` (play seeded games in parallel, optionally into a results
folder), ``load`` (read a results folder), ``sweep`` (run an experiment file),
``calibrate`` (the knob values whose win rate brackets a target), ``rotated_rates``
(win rates by seat and by tribe over every rotation of the seats), ``games`` (the
registry), ``stats``.
They are imported on first use, so that worker processes, which need only the engines,
start quickly.
"""

import importlib

from simkit.errors import (
    ComponentError,
    ExperimentError,
    RulesError,
    SimkitError,
    StoreError,
    UsageError,
)

__version__ = "0.1.0"

_LAZY = {
    "simulate": ("simkit.runner", "simulate"),
    "load": ("simkit.store", "load"),
    "sweep": ("simkit.experiment", "sweep"),
    "calibrate": ("simkit.calibration", "calibrate"),
    "rotated_rates": ("simkit.seats", "rotated_rates"),
    "games": ("simkit.games", None),
    "stats": ("simkit.stats", None),
}

__all__ = ["ComponentError", "ExperimentError", "RulesError", "SimkitError", "StoreError",
           "UsageError", *_LAZY]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'simkit' has no attribute {name!r}")
    module, attr = _LAZY[name]
    value = importlib.import_module(module)
    return value if attr is None else getattr(value, attr)
