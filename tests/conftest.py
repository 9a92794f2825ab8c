"""Fixtures shared by several test modules.

The tests call hundreds of engine functions from Python. ``SIMKIT_TEST_COMPILE=light``
compiles each of them without optimising its whole call tree again (see
``simkit/_numba_link.py``); the kernels played through ``simulate`` are the whole, cached
ones ``make test`` compiles first.
"""

import gc
import os
import threading
import time

os.environ.setdefault("SIMKIT_TEST_COMPILE", "light")  # before any engine compiles

import pytest  # noqa: E402

#: threads a library keeps for the whole process by design, idle between uses: tqdm's
#: monitor, dask's offload pool, joblib's (loky's) executor and multiprocessing queues
PERSISTENT_THREADS = ("tqdm_monitor", "Dask-Offload", "ExecutorManagerThread",
                      "QueueManagerThread", "QueueFeederThread", "IO loop")
#: gc callbacks a library keeps by design (hypothesis's gc timing)
PERSISTENT_CALLBACKS = ("gc_cumulative_time",)


#: child processes kept for the whole process by design: joblib's (loky's) reusable
#: workers and multiprocessing's resource tracker
PERSISTENT_PROCESSES = ("loky", "resource_tracker")


def _children() -> set:
    """This process's child processes (pid and command line), but the persistent ones."""
    try:
        import psutil
    except ImportError:
        return set()
    out = set()
    for child in psutil.Process().children(recursive=True):
        try:
            command = " ".join(child.cmdline())
        except psutil.Error:  # it ended while looked at
            continue
        if not any(name in command for name in PERSISTENT_PROCESSES):
            out.add((child.pid, command[:120]))
    return out


def _left_running(threads: set, callbacks: list, children: set) -> list[str]:
    new_threads = [t for t in threading.enumerate() if t.ident not in threads
                   and not t.name.startswith(PERSISTENT_THREADS)]
    new_callbacks = [cb for cb in gc.callbacks if cb not in callbacks
                     and not getattr(cb, "__qualname__", "").startswith(PERSISTENT_CALLBACKS)]
    new_children = _children() - children
    return ([f"thread {t.name!r}" for t in new_threads]
            + [f"gc callback {cb!r}" for cb in new_callbacks]
            + [f"child process {pid} ({command})" for pid, command in sorted(new_children)])


@pytest.fixture(scope="module", autouse=True)
def nothing_left_running():
    """A test module leaves no cluster, client, thread, process or gc hook running: one
    left behind taxes every later test in its worker (a dask cluster's gc callback made
    one statistics test 50x slower)."""
    threads = {t.ident for t in threading.enumerate()}
    callbacks, children = list(gc.callbacks), _children()
    yield
    deadline = time.monotonic() + 10  # a closed cluster's threads take a moment to end
    while (left := _left_running(threads, callbacks, children)) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"left running after the module's tests: {', '.join(left)}"


@pytest.fixture(scope="module")
def dask_cluster():
    """An in-process dask LocalCluster of one worker and a client on it."""
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield cluster, client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(autouse=True)
def _freeze_the_heap():
    """Each test starts with the objects before it moved out of the collector's view
    (``gc.freeze``): the engines' compiled code is millions of long-lived objects, and a
    full collection walking them made a pure-Python statistics test 5x slower after the
    rule tests had compiled two engines in its worker."""
    gc.freeze()
    yield


#: test modules that call one game's engine functions from Python, by name prefix: each
#: game's run in one xdist worker (``make test`` runs ``--dist loadgroup``), so only that
#: worker compiles the game's functions (light-mode builds are not cached: about 20 s a
#: game in each worker that calls them)
ENGINE_GROUPS = {"test_victus_": "victus", "test_prob_victus": "victus",
                 "test_king_in_the_north": "king_in_the_north", "test_verrix_": "verrix",
                 "test_setembre_": "setembre1714"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        group = next((g for prefix, g in ENGINE_GROUPS.items() if module.startswith(prefix)),
                     None)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
