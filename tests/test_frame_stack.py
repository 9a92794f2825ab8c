"""``on_one_chunk``: calls below it never map and unmap a frame-stack chunk per call."""

import resource
import sys

import pytest

from simkit._frame_stack import on_one_chunk

CALLS = 1000


def leaf():
    return 1


def faults_calling_leaf(depth):
    """Page faults while calling ``leaf`` CALLS times from ``depth`` frames down."""
    if depth:
        return faults_calling_leaf(depth - 1)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(CALLS):
        leaf()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def worst_depth_faults():
    # 400 depths span several 16 KiB chunks, so some depth puts leaf on a boundary
    return max(faults_calling_leaf(depth) for depth in range(400))


@pytest.mark.skipif(sys.version_info >= (3, 13), reason="CPython 3.13+ keeps one chunk")
def test_a_call_on_a_chunk_boundary_maps_a_chunk_each_time_without_it():
    assert worst_depth_faults() >= CALLS // 2


def test_no_call_below_it_maps_a_chunk():
    assert on_one_chunk(worst_depth_faults) < CALLS // 10


def test_it_passes_arguments_and_returns_the_result():
    assert on_one_chunk(divmod, 17, 5) == (3, 2)
