"""Route the disk cache of simkit's own engines to a folder keyed on their sources.

numba's ``cache=True`` notices edits to a function's own file but not to a callee in
another file, so a stale kernel could be loaded after an edit. Keying the folder on every
engine source file makes any engine edit start a fresh cache; the folder is keyed on the
numba patches' switch too (``_numba_patches``), since they change the compiled code.
Worker processes import simkit too and compute the same folder, so they load what the
parent compiled.

The folder ``numba-<hash>`` goes under ``SIMKIT_CACHE_DIR``, else under the user's own
``NUMBA_CACHE_DIR``, else under ``~/.cache/simkit``. Only simkit's functions are routed
there (``install`` puts a cache locator for them first in numba's list); the user's own
jitted functions cache where numba puts them, and no environment variable or numba
setting is changed. If a numba release drops the locator list, numba's settings are
still left alone (they are the user's): a warning says the engines then cache where
numba puts them, unkeyed. Every simkit module that defines cached functions calls
``install`` before it defines them.
"""

import functools
import hashlib
import os
import warnings
from pathlib import Path

from simkit import _numba_patches

PACKAGE = Path(__file__).parent


#: the engine sources: every njit function and every constant one reads lives here
ENGINE_SOURCES = ("rng.py", "eventlog.py", "checks.py", "unmanaged.py", "layout.py",
                  "_numba_dispatch.py", "_numba_link.py", "_numba_patches.py", "games/**/*.py")

_installed = False


@functools.cache  # once a process: it runs the sources it imported, and every
def source_hash() -> str:  # simulate call (a tuning trial) asks for it several times
    digest = hashlib.sha256()
    paths = {p for pattern in ENGINE_SOURCES for p in PACKAGE.glob(pattern)}
    for path in sorted(paths):
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def checkout_key() -> str:
    """This checkout's key: numba files each function's cache under a subfolder named for
    the source folder's absolute path, so two checkouts of the same sources share
    ``cache_dir()`` but not its compiled kernels. The compiled markers carry this key."""
    return hashlib.sha256(str(PACKAGE.resolve()).encode()).hexdigest()[:12]


def cache_dir() -> Path:
    base = (os.environ.get("SIMKIT_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
            or Path.home() / ".cache" / "simkit")
    plain = "" if _numba_patches.enabled() else "-plain"
    return Path(base) / f"numba-{source_hash()}{plain}"


def install() -> Path:
    """Route simkit's cached functions to ``cache_dir()`` (idempotent); the folder."""
    global _installed
    folder = cache_dir()
    if _installed:
        return folder
    import numba
    from numba.core import caching

    try:
        locators = caching.CacheImpl._locator_classes
        user_provided = caching.UserProvidedCacheLocator
    except AttributeError:  # numba's own settings are the user's: leave them as they are
        warnings.warn(f"numba {numba.__version__} has no cache locator list: simkit's "
                      f"engines cache where numba caches by default, not keyed on their "
                      f"sources (after editing an engine, delete its __pycache__)",
                      RuntimeWarning, stacklevel=2)
    else:
        locators.insert(0, _locator(user_provided, str(folder)))
    _installed = True
    return folder


def _locator(user_provided, folder: str):
    class SimkitCacheLocator(user_provided):
        """numba's user-provided-folder locator, for simkit's functions and its folder."""

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _numba_patches.owned(py_func):
                return None
            return super(user_provided, cls).from_function(py_func, py_file)

    return SimkitCacheLocator
