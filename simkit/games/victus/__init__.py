"""Victus: Barcelona 1714 (work in progress: not yet registered as a playable game).

Components the rulebook references but does not print are reconstructed as data files
under ``data/`` (each says which values are the rulebook's and which to replace with the
printed components): ``board.toml`` (spaces, adjacency, the Rambla, advance arrows, blue
cannon icons, camps, the trench, hospitals, the Expedition), ``markers.toml`` (the dials
and the Bourbon marker), ``dice.toml`` (the six Bourbon dice and the Action Table),
``chance.toml`` (the 14 chance cards), ``tiles.toml`` (counts and tile mixes) and
``cards.toml`` (the 150 event/leader cards in the event-card language of ``cards.py``).
``actions.toml`` and ``presets.toml`` are the rulebook's own tables.

Modules, by rulebook section: ``components`` and ``cards`` load and validate the data;
``layout`` and ``card_layout`` name the state arrays' fields; ``state`` builds the set-up;
``bourbons`` (Bourbon actions, marker, chance cards, trench), ``combat`` (combat and its
casualties), ``barcelonans`` (Barcelonan actions), ``card_effects`` (the card
interpreter), ``engine`` (the sequence of play); ``policies`` and ``players`` are the
scripted choices; ``rules`` the knobs.
"""
