"""Point numba's on-disk cache at a folder keyed on a hash of simkit's sources.

numba's ``cache=True`` notices edits to a function's own file but not to a callee in
another file, so a stale kernel could be loaded after an edit. Keying the folder on every
engine source file makes any engine edit start a fresh cache. Worker processes import
simkit too and compute the same folder, so they load what the parent compiled.
Set ``SIMKIT_CACHE_DIR`` to move the cache (default ``~/.cache/simkit``).
"""

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).parent


#: the engine sources: every njit function and every constant one reads lives here
ENGINE_SOURCES = ("rng.py", "eventlog.py", "unmanaged.py", "layout.py", "_numba_dispatch.py",
                  "_numba_link.py", "games/**/*.py")


def source_hash() -> str:
    digest = hashlib.sha256()
    paths = {p for pattern in ENGINE_SOURCES for p in PACKAGE.glob(pattern)}
    for path in sorted(paths):
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("SIMKIT_CACHE_DIR") or Path.home() / ".cache" / "simkit"
    return Path(base) / f"numba-{source_hash()}"


def configure() -> Path:
    folder = cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # numba read its config already: set it directly too
        sys.modules["numba"].config.CACHE_DIR = str(folder)
    return folder
