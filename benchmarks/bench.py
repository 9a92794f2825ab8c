"""Benchmarks: games/s per core and on 2 workers, numba compile time cold vs cached, memory.

Run with ``make bench``. Each kernel is measured three ways:
- compile: a fresh process compiles the kernels into an empty numba cache (cold), then
  a second fresh process loads them from that cache (cached);
- kernel: ``game.simulate`` (the bare engine) in this process, after warm-up, best of 3;
- 1 thread and 2 threads: ``simkit.simulate(..., n_jobs=1 or 2)`` end to end (chunking,
  counting and DataFrame assembly included), and their ratio (2.0 is perfect scaling).
Cold compiles are given in wall seconds and in CPU seconds (the wall time of a busy
machine says little; the CPU time does not depend on what else runs).
Then every rollout (look-ahead) player's games per CPU-second, and peak memory: the
resident set of this process and of its largest worker.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

import simkit

#: (game, rules preset or None, policy, games for the timed runs)
KERNELS = [
    ("setembre1714-assault", None, None, 2_000_000),
    ("setembre1714-assault", "bombarded_bastion", {"catalans": "cautious"}, 2_000_000),
    ("setembre1714", None, None, 20_000),
    ("victus", "full", "greedy", 100_000),
    ("victus", "first_game", "greedy", 50_000),
    ("victus", "competitive", "greedy", 50_000),
    ("victus", "solo", "greedy", 50_000),
    ("victus", "mode2", "greedy", 50_000),
    ("victus", "full", "random", 50_000),
    ("king_in_the_north", None, None, 20_000),
    ("verrix", None, "greedy", 20_000),
]

_COMPILE_SNIPPET = """
import json, time
t0 = time.perf_counter()
import simkit
game = simkit.games.get({game!r})
t1 = time.perf_counter()
game.warm_up()
print(json.dumps({{"import": t1 - t0, "warm_up": time.perf_counter() - t1}}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@functools.cache
def compile_times(game: str) -> tuple[float, float, float]:
    """Warm-up seconds in a fresh process with an empty cache (wall and CPU), then the
    wall seconds to load from that cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "SIMKIT_CACHE_DIR": cache}
        runs, cpu = [], []
        for _ in range(2):
            before = _children_cpu()
            out = subprocess.run([sys.executable, "-c", _COMPILE_SNIPPET.format(game=game)],
                                 env=env, capture_output=True, text=True, check=True)
            cpu.append(_children_cpu() - before)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1])["warm_up"])
    return runs[0], cpu[0], runs[1]


def one_core(game_name: str, rules, policy, n: int) -> float:
    game = simkit.games.get(game_name)
    game.warm_up()
    indices = np.arange(n, dtype=np.int64)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        game.simulate(rules, policy, indices, 0)
        best = min(best, time.perf_counter() - start)
    return n / best


def end_to_end(game_name: str, rules, policy, n: int, jobs: int) -> float:
    simkit.simulate(game_name, 1_000, rules=rules, policy=policy, n_jobs=jobs)  # warm
    start = time.perf_counter()
    simkit.simulate(game_name, n, rules=rules, policy=policy, n_jobs=jobs)
    return n / (time.perf_counter() - start)


def rollout_players(n: int) -> str:
    """Every player with its own kernel (a look-ahead): games per CPU-second of this
    process over ``n`` games of seed 0, the other sides at their defaults, after a first
    game that compiles it."""
    lines = [f"rollout players ({n} games each, one thread):"]
    for name in simkit.games.names():
        game = simkit.games.get(name)
        for side, policy in sorted(game.policy_kernels):
            simkit.simulate(game, 1, seed=99, policy={side: policy})  # compiled
            started = time.process_time()
            simkit.simulate(game, n, policy={side: policy})
            cpu = time.process_time() - started
            lines.append(f"  {name} {side}={policy}: {n / cpu:,.2f} games per CPU-second")
    return "\n".join(lines)


def peak_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply game counts")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="run only the kernels whose label contains TEXT (repeatable)")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip the cold/cached compile timings (each compiles afresh)")
    parser.add_argument("--no-workers", action="store_true",
                        help="skip the 2-thread runs")
    args = parser.parse_args(argv)
    print(f"simkit {simkit.__version__} benchmarks on {os.cpu_count()} cores")
    header = (f"{'kernel':60} {'cold s':>7} {'cold cpu s':>10} {'cached s':>8} "
              f"{'kernel games/s':>15} {'run 1 thread':>13} {'run 2 threads':>14} "
              f"{'ratio':>6}")
    print(header)
    print("-" * len(header))
    for game, preset, policy, n in KERNELS:
        n = max(1_000, int(n * args.scale))
        label = f"{game} [{preset or 'standard'}]"
        if isinstance(policy, dict):
            label += " " + ",".join(f"{k}={v}" for k, v in policy.items())
        elif policy:
            label += f" {policy}"
        if args.only and not any(text in label for text in args.only):
            continue
        cold, cold_cpu, cached = ((math.nan,) * 3 if args.no_compile
                                  else compile_times(game))
        kernel = one_core(game, preset, policy, n)
        single, double = ((math.nan, math.nan) if args.no_workers else
                          (end_to_end(game, preset, policy, n, 1),
                           end_to_end(game, preset, policy, n, 2)))
        print(f"{label:60} {cold:7.2f} {cold_cpu:10.2f} {cached:8.2f} {kernel:15,.0f} "
              f"{single:13,.0f} {double:14,.0f} {double / single:6.2f}", flush=True)
    if not args.only:
        print(rollout_players(max(4, int(20 * args.scale))))
    print(f"peak memory: this process {peak_mib(resource.RUSAGE_SELF):,.0f} MiB, "
          f"largest child {peak_mib(resource.RUSAGE_CHILDREN):,.0f} MiB")


if __name__ == "__main__":
    main()
