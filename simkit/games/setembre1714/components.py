"""Load and validate 11 de Setembre's data files.

So far the combat system needs only its presets (``data/presets.toml``); the map graph,
counter manifest and deployment the rulebook does not print will be reconstructed here.
"""

from pathlib import Path

from simkit.games.base import load_presets

from .rules import AssaultRules

DATA = Path(__file__).parent / "data"


def assault_presets():
    return load_presets(DATA / "presets.toml", AssaultRules)
