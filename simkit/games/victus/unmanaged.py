"""``unmanaged``: an array (or tuple of arrays) as a view numba does not reference-count.

Every call between the njit rule functions increments and decrements the reference count
of each array it passes, each an atomic instruction; with the component tuples that was
about 70% of a Victus game's run time. ``engine.play_unmanaged`` hands the rules views
without an owner, which is safe because its caller owns every array for the whole call
and no view outlives it.

The view is built with numba internals (an ``intrinsic`` that nulls the array's meminfo
and parent). If a numba release moves them, ``unmanaged`` falls back to the identity:
the same results, only slower. Under NUMBA_DISABLE_JIT it is the identity too.
"""

import numba


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
