"""A run killed with ``kill -9`` leaves no worker process behind: loky's workers (and
with them loky's resource trackers) end with the process that started them."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: a Victus run long enough to be killed mid-chunk
RUN = ("import simkit; simkit.simulate('victus', 2_000_000, seed=1, n_jobs=2, "
       "backend='loky', chunk_size=20_000, keep_rows=False, progress=False)")


def children(pid: int) -> set[int]:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_a_killed_loky_run_leaves_no_worker_behind():
    run = subprocess.Popen([sys.executable, "-c", RUN], env=os.environ.copy())
    try:
        assert wait_for(lambda: len(children(run.pid)) >= 3, 180), "the workers never started"
        time.sleep(3)  # the workers are playing their first chunks
        left = children(run.pid) | {g for c in children(run.pid) for g in children(c)}
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    assert wait_for(lambda: not any(alive(p) for p in left), 20), \
        f"still running 20 s after the kill: {[p for p in left if alive(p)]}"
