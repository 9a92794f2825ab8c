"""Fixtures shared by several test modules."""

import pytest


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
