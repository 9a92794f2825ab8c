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
and parent). If a numba release moves them, ``unmanaged`` falls back to the identity:
the same results, only slower. Under NUMBA_DISABLE_JIT it is the identity too.

The rule functions are compiled by ``borrowing`` (no reference counting at all) or, when
they allocate arrays, ``allocating``: see their comments.
"""

import numba
from numba import njit


def _same(value):
    return value


def _build():
    try:
        from numba import types
        from numba.core import cgutils
        from numba.extending import intrinsic
        from numba.np.arrayobj import make_array
    except ImportError:
        return _same

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
unmanaged = _same if numba.config.DISABLE_JIT else _build()


def _rule_njit(nrt):
    options = dict(cache=True, nogil=True)
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
