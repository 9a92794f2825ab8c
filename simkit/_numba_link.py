"""Optimise and emit each kernel's machine code once, not once per call level.

numba compiles every jitted function a kernel calls as a finished program of its own:
it lowers the function, links in the finished module of every function it calls, runs
LLVM's full optimisation over the result and emits machine code for it, plus a Python
wrapper and a C wrapper. A rule function at depth *d* below a kernel is therefore
optimised and emitted *d* times, and the kernel's callees are never run on their own.
Measured on a cold Victus compile (148 s of CPU): 54 s of whole-module optimisation and
50 s of machine code, nearly all of it the same engine again at each level
(``play_games``, ``play_unmanaged``, ``play_game``, ``play_from``... each about 5 s),
and 88% of the callees' own code was their two wrappers.

Here a function compiled because another jitted function calls it (its *caller* is
being typed) is compiled as a **callee**:

* without the Python and C wrappers (numba's ``no_cpython_wrapper`` and
  ``no_cfunc_wrapper`` flags);
* its library is finished without linking its callees in and without the whole-module
  optimisation: it keeps only its own functions (after numba's per-function passes), and
  their machine code is emitted under private names, so that a kernel's own copies of
  them are never replaced by these unoptimised ones;
* it is not written to the disk cache.

A function compiled from Python (a kernel, or a rule function a test calls) is compiled
as numba does, except that it links the own modules of every callee it reaches (callers
before callees, since LLVM's linker takes a ``linkonce`` body only once it is referenced)
and optimises the whole: numba's passes, then its full pipeline once more, since the
callees were never optimised on their own (without the second round the small assault
kernel ran at 2.05 million games/s instead of 2.8; it adds about 2.4 s to a Victus
compile). Its machine code is complete, so its cache entry loads on its own in any
process. If Python later calls a function first compiled as a callee, it is compiled
again, whole. The games are the same: only where LLVM optimises changes (the golden
playthroughs check it), and the kernels run as fast as before.

**For the test suite only**, ``SIMKIT_TEST_COMPILE=light`` (set by ``tests/conftest.py``)
finishes a function compiled from Python like a callee too, keeping its Python wrapper:
its machine code calls its callees' unoptimised code, and it is not cached. The rule
tests call hundreds of engine functions from Python, each whole tree once per process;
this spares them optimising and emitting it again each time (a fresh pytest run after
``simkit compile``: 191 s instead of 252 s). The kernels the tests play through
``simulate`` are still the whole, cached ones ``simkit compile`` made before the tests.

This patches numba internals (``Dispatcher``, ``JITCodeLibrary``, the disk cache). It is
installed only for the numba release it was tested on (0.68); on any other, numba
compiles as usual: the same games, only a slower first compile.
"""

from __future__ import annotations

import os
import threading

import numba

#: numba releases this was tested on (major, minor), inclusive
TESTED = ((0, 68), (0, 68))
#: prefix of the machine-code names of functions compiled as callees
PRIVATE = "simkit.callee."

_state = threading.local()
_private_names: set[str] = set()
_installed = False


def _depth() -> int:
    return getattr(_state, "depth", 0)


def _is_callee(library) -> bool:
    """Whether a library was finished as a callee (its own functions only)."""
    return getattr(library, "_simkit_callee", False)


def _has_wrapper(cres) -> bool:
    """Whether a compiled function can be called from Python."""
    return not _is_callee(cres.library) or \
        cres.fndesc.llvm_cpython_wrapper_name in cres.library._simkit_own


def _light() -> bool:
    return os.environ.get("SIMKIT_TEST_COMPILE") == "light"


def supported(version: str = numba.__version__) -> bool:
    """Whether this numba release is one the patch was tested on."""
    try:
        major_minor = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        return False
    return TESTED[0] <= major_minor <= TESTED[1]


def _reachable(libraries) -> list:
    """Every library linked through callee libraries, each once, callers first."""
    seen, order = set(), []

    def visit(library):
        if id(library) in seen:
            return
        seen.add(id(library))
        if _is_callee(library):
            for callee in library._linking_libraries:
                visit(callee)
        order.append(library)

    for library in libraries:
        visit(library)
    return order[::-1]


def _finish_callee(library) -> None:
    """Finish a callee's library: its own functions only, machine code under private
    names, no whole-module optimisation."""
    from numba.core import codegen

    codegen.require_global_compiler_lock()
    library._raise_if_finalized()
    library._simkit_callee = True
    for callee in library._linking_libraries:
        library._reload_init.update(callee._reload_init)
    emitted = library._final_module.clone()
    own = {fn.name for fn in emitted.functions
           if not fn.is_declaration and fn.name.startswith("_ZN")}
    _private_names.update(own)
    for fn in emitted.functions:
        if fn.name in _private_names:
            fn.name = PRIVATE + fn.name
    library._simkit_own = own
    library._codegen._add_module(emitted)
    library._codegen._scan_and_fix_unresolved_refs(emitted)
    library._codegen._engine.finalize_object()
    library._finalized = True


def install() -> None:
    """Compile callees as above (idempotent; nothing on an untested numba)."""
    global _installed
    if _installed or numba.config.DISABLE_JIT or not supported():
        return
    from numba.core import caching, codegen, sigutils
    from numba.core.dispatcher import Dispatcher, _FunctionCompiler

    get_call_template = Dispatcher.get_call_template

    def typed_from_a_caller(self, args, kws):
        _state.depth = _depth() + 1
        try:
            return get_call_template(self, args, kws)
        finally:
            _state.depth -= 1

    customize_flags = _FunctionCompiler._customize_flags

    def without_wrappers(self, flags):
        flags = customize_flags(self, flags)
        if _depth() > 0:
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags

    finalize = codegen.JITCodeLibrary.finalize

    def finish(self):
        if _depth() > 0 or _light():
            return _finish_callee(self)
        self._linking_libraries = _reachable(self._linking_libraries)
        self._simkit_whole = True
        return finalize(self)

    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def optimize_whole_twice(self):
        optimize(self)
        if getattr(self, "_simkit_whole", False):
            passes, builder = self._codegen._module_pass_manager()
            passes.run(self._final_module, builder)

    get_pointer = codegen.JITCodeLibrary.get_pointer_to_function

    def pointer(self, name):
        self._ensure_finalized()  # a callee's private names are known once finished
        if name in getattr(self, "_simkit_own", ()):
            name = PRIVATE + name
        return get_pointer(self, name)

    save_overload = caching.Cache.save_overload

    def save_whole_only(self, sig, data):
        if not _is_callee(data.library):
            save_overload(self, sig, data)

    add_overload = Dispatcher.add_overload

    def add(self, cres):
        if not _has_wrapper(cres):  # typed and linked, never called from Python
            self.overloads[tuple(cres.signature.args)] = cres
        else:
            add_overload(self, cres)

    compile_ = Dispatcher.compile

    def compile_whole_from_python(self, sig):
        if _depth() == 0:
            args, _ = sigutils.normalize_signature(sig)
            existing = self.overloads.get(tuple(args))
            if existing is not None and not _has_wrapper(existing):
                del self.overloads[tuple(args)]
        return compile_(self, sig)

    Dispatcher.get_call_template = typed_from_a_caller
    _FunctionCompiler._customize_flags = without_wrappers
    codegen.JITCodeLibrary.finalize = finish
    codegen.CPUCodeLibrary._optimize_final_module = optimize_whole_twice
    codegen.JITCodeLibrary.get_pointer_to_function = pointer
    caching.Cache.save_overload = save_whole_only
    Dispatcher.add_overload = add
    Dispatcher.compile = compile_whole_from_python
    _installed = True
