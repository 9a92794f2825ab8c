"""The errors simkit raises for bad input: each names what is wrong and what is allowed.

The CLI turns any ``SimkitError`` into one line on stderr and exit status 2.
"""


class SimkitError(Exception):
    """Base class for every input error simkit reports to the user."""


class RulesError(SimkitError, ValueError):
    """An unknown rule knob, a value of the wrong type, or a value out of its range."""


class ComponentError(SimkitError, ValueError):
    """A broken data file (board, deck, presets): names the file, the entry and the problem."""


class StoreError(SimkitError):
    """A results folder that cannot be used as asked (holds another run, is corrupt)."""


class UsageError(SimkitError, ValueError):
    """Any other bad argument: unknown game, policy, seed out of range, bad option."""


class ExperimentError(SimkitError, ValueError):
    """A bad experiment file: names the file, the line where possible, the problem and
    what is allowed."""


class StateError(SimkitError, RuntimeError):
    """A game state that breaks one of the game's invariants (``SIMKIT_CHECK_STATE=1``):
    an engine bug. Names the game index, the turn, the rule step and the invariant."""
