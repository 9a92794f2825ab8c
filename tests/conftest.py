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


#: the games whose rule tests share one xdist worker (``make test`` runs ``--dist
#: loadgroup``), each group about half the engines' compile: the group's first test
#: (``test_engines_compile.py``) compiles its games' kernels whole into numba's cache in
#: that worker, and the group's rule tests then compile each engine function they call
#: from Python on top of the functions the kernels typed (a fresh Verrix checks test: 28
#: CPU-s alone, 5 after the kernel's 34), instead of typing the engine a second time
ENGINE_GROUPS = {"engines_a": ("victus", "setembre1714", "setembre1714-assault"),
                 "engines_b": ("king_in_the_north", "verrix")}
#: test modules that call a game's engine functions from Python, by name prefix
MODULE_GROUPS = {"test_victus_": "engines_a", "test_prob_victus": "engines_a",
                 "test_setembre_": "engines_a", "test_king_in_the_north": "engines_b",
                 "test_verrix_": "engines_b"}
#: the test that compiles a group's kernels, run first in it
COMPILE_MODULE = "test_engines_compile"


def _group(item) -> str | None:
    module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
    if module == COMPILE_MODULE:
        return item.callspec.params["group"]
    return next((g for prefix, g in MODULE_GROUPS.items() if module.startswith(prefix)),
                None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if group := _group(item):
            item.add_marker(pytest.mark.xdist_group(group))
    # the compiles first: in a group a worker runs its tests in this order, and every
    # other test then finds the kernels in the cache
    items.sort(key=lambda item: _group(item) is None or not item.nodeid.startswith(
        f"tests/{COMPILE_MODULE}.py"))
