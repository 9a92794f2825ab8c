"""Whether simkit's numba patches are on, and installing them.

simkit changes how numba compiles its own engines in three places: calls between its
functions are typed once per argument kind (``_numba_dispatch``), each kernel's callees
are compiled once and the kernel optimised whole (``_numba_link``, with
``_frame_stack``), and rule functions skip reference counting (``unmanaged``). Each
acts only on simkit's own functions (their module is under ``simkit.``), never on a
user's or a library's, and only on the numba releases in ``TESTED``: on any other, or
with ``SIMKIT_NUMBA_PATCHES=0``, or under ``NUMBA_DISABLE_JIT``, numba compiles as it
always does: the same games, a slower first compile (measured on numba 0.68.1 with the
patches off: see ``docs/architecture.md``). An install that finds a numba attribute it
needs missing patches nothing.

``simkit.games`` installs the patches before any engine is imported; each ``install``
checks ``enabled()``. The compiled code differs with the patches on or off, so
``_numba_cache`` keys the cache folder on this switch too.
"""

from __future__ import annotations

import os

#: numba releases the patches were tested on (major, minor), inclusive
TESTED = ((0, 68), (0, 68))
#: set to 0 to compile with plain numba
ENV = "SIMKIT_NUMBA_PATCHES"
#: module prefixes whose jitted functions are simkit's own
OWNED = ("simkit.",)


def supported(version: str | None = None) -> bool:
    """Whether this numba release (or ``version``) is one the patches were tested on."""
    if version is None:
        import numba

        version = numba.__version__
    try:
        major_minor = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        return False
    return TESTED[0] <= major_minor <= TESTED[1]


def enabled() -> bool:
    """Whether the patches apply in this process (a tested release, not switched off,
    compiling at all)."""
    import numba

    switched_off = os.environ.get(ENV, "1").strip().lower() in {"0", "false", "no", "off"}
    return not switched_off and not numba.config.DISABLE_JIT and supported()


#: what compiling without the patches costs (measured on numba 0.68.1, docs/architecture.md)
COST = "the same games, compiled 2-5x and played 10-130x slower"


def off_reason() -> str | None:
    """Why the patches are off in this process, or None if they are on (or nothing
    compiles, under ``NUMBA_DISABLE_JIT``)."""
    import numba

    if numba.config.DISABLE_JIT or enabled():
        return None
    if not supported():
        tested = ", ".join(f"{major}.{minor}" for major, minor in sorted(set(TESTED)))
        return f"numba {numba.__version__} is not a release they were tested on ({tested})"
    return f"{ENV}={os.environ.get(ENV)}"


_told = False


def tell_if_off(stream) -> None:
    """Once a process, before its first compile: one line on ``stream`` saying the
    patches are off, why and what it costs."""
    global _told
    reason = off_reason()
    if _told or reason is None:
        return
    _told = True
    print(f"simkit: numba patches off ({reason}): {COST}", file=stream, flush=True)


def owned(py_func) -> bool:
    """Whether a jitted function is simkit's own (the patches touch no other)."""
    return getattr(py_func, "__module__", "").startswith(OWNED)
