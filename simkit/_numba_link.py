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
  optimisation: it keeps only its own functions (after numba's per-function passes);
* it gets no machine code unless a function that runs its code is finished (only in the
  tests' light mode, below), then under private names, so that a kernel's own copies of
  its functions are never replaced by these unoptimised ones (emitting every callee's
  code cost about 5 s of a cold Victus compile for code nothing ran);
* it is not written to the disk cache.

A function compiled from Python (a kernel, or a rule function a test calls) is compiled
as numba does, except that it links the own modules of every callee it reaches (callers
before callees, since LLVM's linker takes a ``linkonce`` body only once it is referenced)
and optimises the whole with numba's passes. A small kernel (at most
``SECOND_ROUND_LIBRARIES`` callee libraries) gets numba's full pipeline once more, since
its callees were never optimised on their own: without it the assault kernel (32
libraries) ran at 2.0 million games/s instead of 2.8, for 0.2 s of compile. The large
kernels (145 to 308 libraries) gained nothing beyond noise from it and it cost them 0.4
to 1.7 s each (games/s without/with it: Victus 3,862/3,986, Setembre 2,777/2,803, King
in the North 1,272/1,231, Verrix 918/908). Its machine code is complete, so its cache
entry loads on its own in any process. If Python later calls a function first compiled
as a callee, it is compiled again, whole. The games are the same: only where LLVM
optimises changes (the golden playthroughs check it), and the kernels run as fast as
before.

**For the test suite only**, ``SIMKIT_TEST_COMPILE=light`` (set by ``tests/conftest.py``)
finishes a function compiled from Python like a callee too, keeping its Python wrapper:
its machine code calls its callees' unoptimised code, and it is not cached. The rule
tests call hundreds of engine functions from Python, each whole tree once per process;
this spares them optimising and emitting it again each time (a fresh pytest run after
``simkit compile``: 191 s instead of 252 s). The kernels the tests play through
``simulate`` are still the whole, cached ones ``simkit compile`` made before the tests.

This patches numba internals (``Dispatcher``, ``JITCodeLibrary``,
``JITCPUCodegen.set_env``, the disk cache), and acts only on a compile that begins with one
of simkit's own functions (``_numba_patches.owned``), and on what that compile needs
(numba's own overloads of the functions it calls): a user's or a library's jitted
function compiled from Python, and any simkit function it calls, compile as numba
compiles them. It is
installed only on the numba releases it was tested on and only if every attribute it
replaces is there (``_numba_patches``); otherwise numba compiles as usual: the same
games, only a slower first compile.
"""

from __future__ import annotations

import os
import threading

from simkit._frame_stack import on_one_chunk
from simkit._numba_patches import enabled, owned

#: kernels linking at most this many callee libraries are optimised twice (see above)
SECOND_ROUND_LIBRARIES = 64
#: prefix of the machine-code names of functions compiled as callees
PRIVATE = "simkit.callee."

_state = threading.local()
_private_names: set[str] = set()
#: prefix of the globals numba points at a function's environment
ENV_PREFIX = "_ZN08NumbaEnv"
#: environment globals defined only in callee modules not emitted yet
_unemitted_envs: set[str] = set()
#: the environments to set in them once emitted, by global name
_pending_envs: dict = {}
_set_env = None
_installed = False


def _depth() -> int:
    return getattr(_state, "depth", 0)


def _ours() -> bool:
    """Whether the compile under way began with one of simkit's own functions (then
    what it needs, numba's own overloads included, is compiled the simkit way; a foreign
    function compiled from Python, and the simkit functions it calls, as numba does)."""
    compiling = getattr(_state, "compiling", None)
    return bool(compiling) and compiling[0]


def _is_callee(library) -> bool:
    """Whether a library was finished as a callee (its own functions only)."""
    return getattr(library, "_simkit_callee", False)


def _has_wrapper(cres) -> bool:
    """Whether a compiled function can be called from Python."""
    return not _is_callee(cres.library) or \
        cres.fndesc.llvm_cpython_wrapper_name in cres.library._simkit_own


def _light() -> bool:
    return os.environ.get("SIMKIT_TEST_COMPILE") == "light"


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
    """Finish a callee's library: its own functions only, no whole-module optimisation,
    no machine code until something runs it from Python (``_emit``)."""
    from numba.core import codegen

    codegen.require_global_compiler_lock()
    library._raise_if_finalized()
    library._simkit_callee = True
    library._simkit_emitted = False
    for callee in library._linking_libraries:
        library._reload_init.update(callee._reload_init)
    own = {fn.name for fn in library._final_module.functions
           if not fn.is_declaration and fn.name.startswith("_ZN")}
    _private_names.update(own)
    library._simkit_own = own
    library._simkit_envs = {gv.name for gv in library._final_module.global_variables
                            if gv.name.startswith(ENV_PREFIX) and not gv.is_declaration}
    _unemitted_envs.update(library._simkit_envs)
    library._finalized = True


def _emit(library) -> None:
    """Emit the machine code of a callee library and of every callee it reaches, under
    private names (only light-mode functions run callee code)."""
    codegen = library._codegen
    pending = [lib for lib in _reachable([library])
               if _is_callee(lib) and not lib._simkit_emitted]
    for lib in pending:
        emitted = lib._final_module.clone()
        for fn in emitted.functions:
            if fn.name in _private_names:
                fn.name = PRIVATE + fn.name
        codegen._add_module(emitted)
        codegen._scan_and_fix_unresolved_refs(emitted)
        lib._simkit_emitted = True
    codegen._engine.finalize_object()
    for lib in pending:
        _unemitted_envs.difference_update(lib._simkit_envs)
        for name in lib._simkit_envs & _pending_envs.keys():
            _set_env(codegen, name, _pending_envs.pop(name))


def install() -> None:
    """Compile callees as above (idempotent; nothing unless
    ``_numba_patches.enabled()``). Nothing is patched if an attribute it replaces is
    missing."""
    global _installed
    if _installed or not enabled():
        return
    try:
        patches = _patches()
    except (ImportError, AttributeError):
        return
    for owner, name, replacement in patches:
        setattr(owner, name, replacement)
    _installed = True


def _patches() -> list:
    """(class, attribute, replacement) for every numba method replaced; raises
    AttributeError (or ImportError) before anything is patched if one is missing."""
    global _set_env
    from numba.core import caching, codegen, sigutils
    from numba.core.dispatcher import Dispatcher, _FunctionCompiler

    get_call_template = Dispatcher.get_call_template

    def typed_from_a_caller(self, args, kws):
        counted = _ours()  # only simkit's callers make a callee
        _state.depth = _depth() + counted
        try:
            return get_call_template(self, args, kws)
        finally:
            _state.depth -= counted

    customize_flags = _FunctionCompiler._customize_flags

    def without_wrappers(self, flags):
        flags = customize_flags(self, flags)
        if _depth() > 0:  # typed from a simkit caller (only they count depth)
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags

    finalize = codegen.JITCodeLibrary.finalize

    def finish(self):
        if not _ours():
            if any(_is_callee(lib) for lib in self._linking_libraries):
                # a foreign function calling a simkit function compiled as a callee
                # earlier: link that callee's own callees too, or its code is incomplete
                self._linking_libraries = _reachable(self._linking_libraries)
            return finalize(self)
        if _depth() > 0 or _light():
            return _finish_callee(self)
        self._linking_libraries = _reachable(self._linking_libraries)
        self._simkit_second_round = len(self._linking_libraries) <= SECOND_ROUND_LIBRARIES
        return finalize(self)

    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def optimize_small_twice(self):
        optimize(self)
        if getattr(self, "_simkit_second_round", False):
            passes, builder = self._codegen._module_pass_manager()
            passes.run(self._final_module, builder)

    get_pointer = codegen.JITCodeLibrary.get_pointer_to_function

    def pointer(self, name):
        self._ensure_finalized()  # a callee's own names are known once finished
        if name not in getattr(self, "_simkit_own", (name,)):
            return 0  # not defined here: a callee's missing wrapper
        if _is_callee(self):
            if not self._simkit_emitted:
                _emit(self)
            name = PRIVATE + name
        return get_pointer(self, name)

    _set_env = codegen.JITCPUCodegen.set_env

    def set_env_once_emitted(self, env_name, env):
        if env_name in _unemitted_envs and not self._engine.is_symbol_defined(env_name):
            _pending_envs[env_name] = env  # LLVM aborts on an unknown symbol
        else:
            _set_env(self, env_name, env)

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

    def compile_noting_whose(self, sig):
        compiling = _state.__dict__.setdefault("compiling", [])
        compiling.append(owned(self.py_func))
        try:
            if not _ours() or _depth() > 0:
                return compile_(self, sig)
            return compile_whole_from_python(self, sig)
        finally:
            compiling.pop()

    def compile_whole_from_python(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        existing = self.overloads.get(tuple(args))
        if existing is not None and not _has_wrapper(existing):
            del self.overloads[tuple(args)]
        return on_one_chunk(compile_, self, sig)  # numba's recursion thrashes the stack

    return [(Dispatcher, "get_call_template", typed_from_a_caller),
            (_FunctionCompiler, "_customize_flags", without_wrappers),
            (codegen.JITCodeLibrary, "finalize", finish),
            (codegen.CPUCodeLibrary, "_optimize_final_module", optimize_small_twice),
            (codegen.JITCodeLibrary, "get_pointer_to_function", pointer),
            (codegen.JITCPUCodegen, "set_env", set_env_once_emitted),
            (caching.Cache, "save_overload", save_whole_only),
            (Dispatcher, "add_overload", add),
            (Dispatcher, "compile", compile_noting_whose)]
