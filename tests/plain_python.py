"""Run a snippet in a fresh interpreter with numba's JIT off (NUMBA_DISABLE_JIT=1), or
compiled by plain numba (SIMKIT_NUMBA_PATCHES=0)."""

import json
import os
import subprocess
import sys


def run_without_jit(code: str, timeout: float = 600) -> dict:
    """The JSON the snippet prints as its last line of output."""
    return run_with(code, {"NUMBA_DISABLE_JIT": "1"}, timeout)


def run_without_patches(code: str, timeout: float = 600) -> dict:
    """The same, compiled by numba without simkit's patches."""
    return run_with(code, {"SIMKIT_NUMBA_PATCHES": "0"}, timeout)


def run_with(code: str, variables: dict, timeout: float, *, stderr: list | None = None) -> dict:
    """``stderr``: a list the snippet's standard error lines are appended to."""
    env = {**os.environ, **variables}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    if stderr is not None:
        stderr += proc.stderr.splitlines()
    return json.loads(proc.stdout.strip().splitlines()[-1])
