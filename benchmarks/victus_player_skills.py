"""Victus: what each piece of the strong players' skill is worth, on paired games.

Every piece of ``greedy`` (``layout.SKILL_*``) is priced twice on the same games (pairs
by game index), with McNemar's test and Tango's 95% interval
(``simkit.stats.paired_difference``): alone (``greedy`` with only that piece, minus
``greedy`` with none, which plays ``naive``'s games) and last (``greedy`` minus
``greedy`` without the piece; for a piece off by default, ``greedy`` with it minus
``greedy``). Then the dice-order search (``dice_search_from_stage=1``, one die at a
time and every order) against the default fixed ranking, every policy against
``greedy``, and each policy's dice order against the table order.

Run: ``python benchmarks/victus_player_skills.py [--games 2000] [--seed 2026]
[--rules full] [--players 2]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simkit.eventlog import no_log
from simkit.games.base import PolicyChoice
from simkit.games.victus import GAME, _static
from simkit.games.victus import layout as L
from simkit.games.victus.engine import play_games
from simkit.games.victus.rules import Rules, Weights
from simkit.stats import paired_difference


def wins(rules: Rules, policy: str, games: int, seed: int, skills: int | None = None,
         dice_order: str | None = None, weights: Weights | None = None
         ) -> tuple[np.ndarray, float]:
    """Per game: did the players win; and the CPU seconds the games took."""
    if dice_order is not None:
        rules = rules.replace(dice_order=dice_order)
    choice = PolicyChoice(policy, L.POLICY_NAMES.index(policy), weights)
    p, pol, sp, g = GAME.kernel_inputs(rules, (choice,))
    if skills is not None:
        pol[L.PLAYERS, L.W_SKILLS] = skills
    _, K, dice, cards = _static()
    indices = np.arange(games, dtype=np.int64)
    t0 = time.process_time()
    out = play_games(K, dice, cards.as_tuple(), p, pol, sp, g, indices, seed, no_log())
    return out[:, L.O_WINNER] == L.WIN_PLAYERS, time.process_time() - t0


def line(label: str, a: np.ndarray, b: np.ndarray) -> str:
    c = paired_difference(a, b)
    d = c.difference
    return (f"{label:<44} {100 * a.mean():5.1f}% vs {100 * b.mean():5.1f}%  "
            f"{100 * d.estimate:+5.1f} [{100 * d.low:+5.1f}, {100 * d.high:+5.1f}]  "
            f"p={c.p_value:.2g}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rules", default="full")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--only", default="",
                    help="comma-separated sections: alone,skills,search,policies,dice")
    args = ap.parse_args()
    rules = Rules(level=args.rules, players=args.players)
    n, seed = args.games, args.seed
    every = {"alone", "skills", "search", "policies", "dice"}
    sections = set(args.only.split(",")) if args.only else every
    wins(rules, "greedy", 10, seed)  # compile
    full, cpu = wins(rules, "greedy", n, seed)
    print(f"{args.rules}, {args.players} players, {n} games, seed {seed}: greedy wins "
          f"{100 * full.mean():.1f}% ({n / cpu:.0f} games per CPU second)")
    print("difference = first minus second, points, 95% interval (Tango), McNemar p")
    none, cpu0 = wins(rules, "greedy", n, seed, 0)
    print(f"greedy with no skill (naive's games): {n / cpu0:.0f} games per CPU second")
    if "alone" in sections:
        for bit, name in enumerate(L.SKILL_NAMES):
            if bit != L.SKILL_DICE_EVERY_ORDER:
                alone, _ = wins(rules, "greedy", n, seed, 1 << bit)
                print(line(f"skill {name} alone: with vs none", alone, none), flush=True)
    if "skills" in sections:
        for bit, name in enumerate(L.SKILL_NAMES):
            if bit == L.SKILL_DICE_EVERY_ORDER:
                continue  # (the "search" section)
            if L.DEFAULT_SKILLS >> bit & 1:
                other, _ = wins(rules, "greedy", n, seed, L.DEFAULT_SKILLS & ~(1 << bit))
                print(line(f"skill {name}: greedy vs greedy without it", full, other),
                      flush=True)
            else:
                other, cpu1 = wins(rules, "greedy", n, seed, L.DEFAULT_SKILLS | 1 << bit)
                print(line(f"skill {name} (off): greedy with it vs greedy", other, full)
                      + f"  ({n / cpu1:.0f} games per CPU second)", flush=True)
    if "search" in sections:
        search = Weights(dice_search_from_stage=1)
        one, cpu1 = wins(rules, "greedy", n, seed, weights=search)
        print(line(f"dice searched one die at a time ({n / cpu1:.0f} games/CPU s) vs greedy",
                   one, full), flush=True)
        every, cpu2 = wins(rules, "greedy", n, seed,
                           L.DEFAULT_SKILLS | 1 << L.SKILL_DICE_EVERY_ORDER, weights=search)
        print(line(f"every order ({n / cpu2:.0f} games/CPU s) vs one at a time", every, one),
              flush=True)
    if "policies" in sections:
        naive, _ = wins(rules, "naive", n, seed)
        print(f"greedy with no skill plays naive's games: {bool((naive == none).all())}")
        for policy in ("naive", "fortify", "random"):
            other, _ = wins(rules, policy, n, seed)
            print(line(f"greedy vs {policy}", full, other), flush=True)
    if "dice" in sections:
        naive, _ = wins(rules, "naive", n, seed)
        for order in ("sequential",):
            fixed, _ = wins(rules, "greedy", n, seed, dice_order=order)
            print(line(f"greedy: chosen order vs table order ({order})", full, fixed))
            fixed, _ = wins(rules, "naive", n, seed, dice_order=order)
            print(line(f"naive: its order vs table order ({order})", naive, fixed))


if __name__ == "__main__":
    main()
