"""Run a snippet in a fresh interpreter with numba's JIT off (NUMBA_DISABLE_JIT=1)."""

import json
import os
import subprocess
import sys


def run_without_jit(code: str, timeout: float = 600) -> dict:
    """The JSON the snippet prints as its last line of output."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])
