"""Conventions every game's ``layout.py`` builds on: offsets and codes with one home each.

- ``Fields``: the offsets of a flat state or output array, allocated in declaration order
  from each field's size, so no offset is numbered by hand and no two fields overlap.
- ``codes(names)``: the integer codes of a tuple of names (a category, a kind of piece,
  a policy, a random stream's purpose): the code is the name's position, so the names
  tuple is the only list and ``NAME_A, NAME_B = codes(NAMES)`` fails on a count mismatch.

The constants a layout module defines from these are plain module-level ints, which numba
freezes into the compiled kernels.
"""

from __future__ import annotations


class Fields:
    """Offsets into one flat array, allocated in order from each field's size."""

    def __init__(self, array: str, start: int = 0):
        """``start``: the first offset, for fields that follow another declaration's in
        the same array (``size`` is then the array's whole size)."""
        self.array = array
        self.start = self.size = start
        self.fields: dict[str, tuple[int, int]] = {}

    def __call__(self, name: str, size: int = 1) -> int:
        """Allocate ``size`` slots for ``name`` and return the first one's offset."""
        if name in self.fields:
            raise ValueError(f"{self.array}: field {name!r} is declared twice")
        if size < 1:
            raise ValueError(f"{self.array}: field {name!r} needs a size of 1 or more")
        offset = self.size
        self.fields[name] = (offset, size)
        self.size += size
        return offset

    def name_of(self, offset: int) -> str:
        """The field holding ``offset`` (``name`` or ``name[k]``), for dumps and errors."""
        for name, (start, size) in self.fields.items():
            if start <= offset < start + size:
                return name if size == 1 else f"{name}[{offset - start}]"
        raise IndexError(f"{self.array}: no field at offset {offset}")

    def describe(self, values) -> dict[str, object]:
        """The array's values by field name (a debugging view of one state vector)."""
        return {name: (values[start] if size == 1 else list(values[start:start + size]))
                for name, (start, size) in self.fields.items()}


def codes(names: tuple[str, ...]) -> range:
    """The codes of ``names``: their positions (unpack them into named constants)."""
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate names in {names}")
    return range(len(names))
