"""The assault scenario's components: none reconstructed.

Every number the scenario plays is the rulebook's own (the Example of combat of "11.
Combat" and the values of sections 7, 9, 11 and 13), held by the knobs of ``rules.py``;
its one data file is ``data/presets.toml``, the presets (read by ``Game.presets``).
"""

from pathlib import Path

DATA = Path(__file__).parent / "data"
