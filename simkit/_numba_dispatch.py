"""One compiled version of each engine function per argument *kind*, not per constant.

numba compiles a jitted function again for every distinct tuple of argument types its
callers pass, and from a jitted caller a constant argument keeps its literal type: each
event code given to ``log_event`` (57 of them in Victus), each ``-1`` or ``False`` passed
to a helper, and each omitted default made one more compilation of the function and of
everything it calls. Small integers read from ``int16`` arrays did the same against
``int64`` values. Measured on Victus: 380 compilations for 221 functions.

For simkit's own functions, calls from compiled code are therefore typed with literals
made plain, omitted defaults given their value's type, and every integer narrower than 64
bits (or signed) widened to ``int64``: the caller casts, as numba does for any call, so the
arithmetic is that of the wider type (numba computes small integers as ``int64`` anyway)
and the games are the same (the golden playthroughs check it). ``uint64`` stays, since
random words use its full range.
"""

from numba import typeof, types

from simkit._numba_patches import enabled, owned

_original = None


def _one_kind(t):
    t = types.unliteral(t)
    if isinstance(t, types.Omitted):
        t = types.unliteral(typeof(t.value))
    if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
        return types.int64
    return t


def _get_call_template(self, args, kws):
    if not owned(self.py_func):
        return _original(self, args, kws)
    _, folded = self._compiler.fold_argument_types(args, kws)
    return _original(self, tuple(_one_kind(t) for t in folded), {})


def install() -> None:
    """Type calls between simkit's compiled functions as above (idempotent; called by
    ``simkit.games``; nothing unless ``_numba_patches.enabled()``). Nothing is patched if
    an attribute it relies on is missing."""
    global _original
    if not enabled():
        return
    try:
        from numba.core.dispatcher import Dispatcher, _FunctionCompiler

        original = Dispatcher.get_call_template
        _FunctionCompiler.fold_argument_types  # noqa: B018 (it must exist)
    except (ImportError, AttributeError):
        return
    if original is not _get_call_template:
        _original = original
        Dispatcher.get_call_template = _get_call_template
