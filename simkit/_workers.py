"""Worker processes (the loky backend) that end with the process that started them.

loky keeps its workers for the next run, and a worker busy with a chunk does not notice
that its parent was killed (``kill -9``): it and loky's resource trackers lived on. Each
worker therefore watches its parent from a daemon thread (the kernels release the GIL,
so the thread runs while a chunk plays) and exits once it has been orphaned.
"""

from __future__ import annotations

import os
import threading
import time

from joblib.externals.loky import get_reusable_executor

#: seconds between two looks at the parent
WATCH_EVERY = 0.5


def worker_pool(n_workers: int):
    """loky's reusable executor of ``n_workers`` processes that die with this one."""
    return get_reusable_executor(n_workers, initializer=_watch_parent)


def _watch_parent() -> None:
    parent = os.getppid()
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True,
                     name="simkit-parent-watch").start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)  # orphaned: no one will take this worker's results
