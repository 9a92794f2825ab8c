"""``unmanaged``: an array (or tuple of arrays) as a view numba does not reference-count.

Every call between the njit rule functions increments and decrements the reference count
of each array it passes, each an atomic instruction; with the component tuples that was
about 70% of a Victus game's run time. A game's top kernel (Victus:
``engine.play_unmanaged``) hands the rules views without an owner, which is safe because
its caller owns every array for the whole call and no view outlives it. Any engine may
use it. Only wrap arrays the caller owns (the function's parameters): numba frees a local
array after its last use, and handing on ``unmanaged(local)`` is not a use that keeps it
alive, so the callee would read freed memory.

The view is built with numba internals (an ``intrinsic`` that nulls the array's meminfo
and parent), so it is one of simkit's numba patches (``_numba_patches``): on an untested
numba release, with ``SIMKIT_NUMBA_PATCHES=0``, under NUMBA_DISABLE_JIT, or if a numba
release moves any of those internals, ``unmanaged`` is the identity and the rule
functions are plain ``njit``: the same results, only slower.

The rule functions are compiled by ``borrowing`` (no reference counting at all) or, when
they allocate arrays, ``allocating``: see their comments.
"""

from numba import njit

from simkit import _numba_cache, _numba_patches

_numba_cache.install()  # before any cached function is defined here


@njit(cache=True, nogil=True)
def _identity(value):
    """The fallback: the array itself, reference-counted as usual."""
    return value


def _build():
    if not _numba_patches.enabled():
        return _identity
    try:
        from numba import types
        from numba.core import cgutils
        from numba.core.datamodel import default_manager
        from numba.extending import intrinsic
        from numba.np.arrayobj import make_array

        cgutils.get_null_value  # noqa: B018 (what the view's code calls must exist)
        members = set(default_manager.lookup(types.int64[:])._fields)
    except (ImportError, AttributeError):
        return _identity
    if not {"meminfo", "parent"} <= members:
        return _identity

    def strip(context, builder, ty, value):
        if isinstance(ty, types.Array):
            array = make_array(ty)(context, builder, value=value)
            array.meminfo = cgutils.get_null_value(array.meminfo.type)
            array.parent = cgutils.get_null_value(array.parent.type)
            return array._getvalue()
        if isinstance(ty, types.BaseTuple):
            for k, item in enumerate(ty):
                stripped = strip(context, builder, item, builder.extract_value(value, k))
                value = builder.insert_value(value, stripped, k)
        return value

    @intrinsic
    def unmanaged_view(typingctx, value):
        def codegen(context, builder, signature, args):
            return strip(context, builder, signature.args[0], args[0])
        return value(value), codegen

    return unmanaged_view


#: the same array (or tuple of arrays) as a view numba does not reference-count
unmanaged = _build()


def _rule_njit(nrt, **inline):
    options = dict(cache=True, nogil=True, **inline)
    if not _numba_patches.enabled():
        return njit(**options)
    try:
        from numba.core.options import DefaultOptions
    except ImportError:
        return njit(**options)
    if hasattr(DefaultOptions, "_nrt"):
        options["_nrt"] = nrt
    return njit(**options)


#: ``njit`` for a rule function that only borrows arrays: it allocates none and takes
#: none a callee allocated, so it needs no reference counting, and numba emits none
#: (its private ``_nrt`` option; plain ``njit`` if that goes). In the other functions
#: the counting calls, on ``unmanaged`` views, only find a null pointer, yet they took
#: about 15% of a game's time and kept LLVM from inlining small helpers: without them
#: the full greedy game runs about 1.8x faster. An allocation in a ``borrowing``
#: function fails to compile; taking a callee's new array would leak it
#: (``tests/test_victus_game.py`` counts the allocations).
borrowing = _rule_njit(False)

#: ``njit`` for a rule function that allocates arrays or takes a callee's new ones. It
#: must say so: a callee that does not inherits its first caller's setting.
allocating = _rule_njit(True)

#: ``borrowing``, and inlined into its callers by numba: for the steps of a game's
#: resumable play loop (Victus: ``engine.play_until``), so that the loop calls the rule
#: functions directly. Each call between rule functions passes every array of the
#: component tuples as its fields (about 250 words for Victus); the steps as calls cost
#: the full greedy game about 17% of its speed.
stepping = _rule_njit(False, inline="always")
