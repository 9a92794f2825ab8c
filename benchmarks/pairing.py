"""How well common random numbers pair a rule change with the base rules.

For each change, both rule sets play the same games (same root seed and game indices);
per game the outcome moves up (a loss becomes a win), down, or not at all. With ``d``
the net difference in win rate and ``u``, ``v`` the fractions of games flipping up and
down, the paired variance per game is ``u + v - d**2``; no pairing can do better than
``|d| - d**2`` (every game moving only in the net direction). The pairing efficiency is
the ratio of the unpaired to the paired 95% interval width divided by the largest ratio
any pairing could reach: ``sqrt((|d| - d**2) / (u + v - d**2))``, 1 for a perfect pairing.

Run: ``python benchmarks/pairing.py`` (Victus, the eight changes below, 20,000 games).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pandas as pd

import simkit

Z = 1.959963984540054

#: the eight Victus changes of the engine-conventions issue, against the Full Game
VICTUS_CHANGES = [
    {"rubble_threshold": 14},
    {"rubble_threshold": 16},
    {"coronela_threshold": 16},
    {"start_generalitat": 4},
    {"start_gunpowder_store": 3},
    {"players": 3},
    {"given_half_a_bomb": True},
    {"always_priority_cost": True},
]


def wins(game: str, rules: dict, n: int, seed: int, jobs: int) -> np.ndarray:
    frame = simkit.simulate(game, n, seed=seed, rules=rules, n_jobs=jobs, progress=False)
    first = simkit.games.get(game).outcome_columns["winner"].categories[0]
    return (frame.sort_values("game_index")["winner"] == first).to_numpy()


def pairing_row(base: np.ndarray, changed: np.ndarray) -> dict:
    n = base.size
    p0, p1 = base.mean(), changed.mean()
    up = int((changed & ~base).sum())
    down = int((base & ~changed).sum())
    d = p1 - p0
    paired_var = (up + down) / n - d * d
    unpaired = 2 * Z * math.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n)
    paired = 2 * Z * math.sqrt(max(paired_var, 0.0) / n)
    best_var = abs(d) - d * d
    efficiency = math.sqrt(best_var / paired_var) if paired_var > 0 else 1.0
    return {"difference (points)": 100 * d, "flips up": up, "flips down": down,
            "width ratio": unpaired / paired if paired > 0 else math.inf,
            "efficiency": efficiency}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)

    game, base_rules = "victus", {"level": "full", "coronela_threshold": 5}
    start = time.perf_counter()
    base = wins(game, base_rules, args.games, args.seed, args.jobs)
    ci = simkit.stats.wilson(int(base.sum()), base.size)
    print(f"{game} full game, {args.games:,} games, seed {args.seed}: players win "
          f"{100 * base.mean():.2f}% [{100 * ci.low:.2f}, {100 * ci.high:.2f}]")
    rows = {}
    for change in VICTUS_CHANGES:
        label = " ".join(f"{k}={v}" for k, v in change.items())
        rows[label] = pairing_row(base, wins(game, {**base_rules, **change}, args.games,
                                             args.seed, args.jobs))
    table = pd.DataFrame(rows).T
    print(table.to_string(float_format=lambda x: f"{x:.2f}"))
    print(f"mean pairing efficiency: {table['efficiency'].mean():.2f} "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
