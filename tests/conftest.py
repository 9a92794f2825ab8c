"""Fixtures shared by several test modules.

The tests call hundreds of engine functions from Python. ``SIMKIT_TEST_COMPILE=light``
compiles each of them without optimising its whole call tree again (see
``simkit/_numba_link.py``); the kernels played through ``simulate`` are the whole, cached
ones ``make test`` compiles first.
"""

import os

os.environ.setdefault("SIMKIT_TEST_COMPILE", "light")  # before any engine compiles

import pytest  # noqa: E402


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
