"""Victus: Barcelona 1714 -- groundwork for the engine: the reconstructed components.

So far this package holds only the static components the rulebook references but does
not print (digest 1.D), as data files under ``data/`` with their loader:

- ``data/board.toml``: spaces, shared-side adjacency, the Rambla, yellow and red advance
  arrows, blue cannon icons, the 15 camps, the trench A0-F3, hospitals, the Expedition;
- ``data/markers.toml``: the Generalitat, Port, Gunpowder Store, Saint Cross/Saint Mary of
  the Sea and Sense/Fury dials, and the Bourbon marker track;
- ``data/dice.toml``: the six Bourbon action dice and the Bourbon Action Table;
- ``data/chance.toml``: the 14 chance cards;
- ``data/tiles.toml``: piece, tile and card counts, and the Bourbon troop / VP tile mixes.

``components.load_components()`` validates them and returns read-only numpy arrays for
njit kernels; ``layout.py`` defines the integer codes. Each data file says which values
are the rulebook's and which are reconstructions to replace with the printed components.

The 150 event/leader cards are NOT reconstructed here: their effect language (opcodes
for "Advance X", "Trench -X", "Batteries +X", captures, organ-guns, leaders...) is designed
together with the engine. The engine, rules, policies and the Game object come later.
"""
