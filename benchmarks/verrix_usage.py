"""Verrix: how often each scripted policy uses every action type and card, per tribe.

Plays ``--games`` game indices per policy under each cyclic rotation of the seated
tribes (the same games under every seating, so that a tribe's counts pool over the seats
it sat in; every seat the same policy, ``traits``: each tribe its own trait's style) with
the trace on, and counts per tribe and per game: each Action card played (Battle cards in
Battle rounds included), Battles declared, Support given and refused, Events drawn,
delayed events played, trades (goods and hostages), raids (and their success), passes,
and the wins. Prints one Markdown table per policy (rows: actions, columns: tribes), then
the win rate by seat and each seat's effect (its rate minus seat 1's, paired over the
same games and rotations, 95% interval).

    .venv/bin/python benchmarks/verrix_usage.py --games 300 [--policies greedy,traits]
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from simkit.eventlog import events, new_log
from simkit.games.verrix import GAME
from simkit.games.verrix import events as EV
from simkit.games.verrix import layout as L
from simkit.games.verrix.components import load_components
from simkit.games.verrix.policies import POLICIES
from simkit.games.verrix.rules import Rules

TRAITS = {"blue": "battle", "orange": "raid", "purple": "mysticism", "green": "trade",
          "yellow": "craftsmanship"}


def tally(rules: Rules, policy: str, games: int, seed: int):
    """Per tribe: Counter of action -> total uses and wins, and per seat the wins of
    every (game, rotation) (0/1 arrays), over every rotation of ``rules``' seats.
    ``policy`` "traits": each tribe plays its own trait's style."""
    use = {t: Counter() for t in rules.seat_tribes}
    wins = Counter()
    seat_won = {s: [] for s in L.SEATS[:rules.players]}
    comp = load_components()
    for shift in range(rules.players):
        seated = GAME.rotate_seats(rules, shift)
        seats = seated.seat_tribes
        if policy == "traits":
            pols = GAME.policy_choices({L.SEATS[k]: TRAITS[t] for k, t in enumerate(seats)})
        else:
            pols = GAME.policy_choices(dict.fromkeys(L.SEATS, policy))
        for i in range(games):
            log = new_log(20000)
            table = GAME.kernel(seated, pols, np.array([i], dtype=np.int64), seed, log)
            winner = L.TRIBES[table[0][L.O_WINNER]]
            wins[winner] += 1
            for k, s in enumerate(seat_won):
                seat_won[s].append(float(seats[k] == winner))
            for t in seats:  # every Action card, Battle cards included (the kernel's counts)
                row = table[0][L.O_CARD_USES + L.TRIBES.index(t) * L.MAX_CARDS:]
                for c, title in enumerate(comp.card_titles):
                    use[t]["card: " + title] += int(row[c])
            for code, a, b, c in events(log):
                count(use, seats, comp, code, a, b, c)
    return use, wins, {s: np.array(v) for s, v in seat_won.items()}


def count(use, seats, comp, code, a, b, c):
    """One trace event into the per-tribe counters."""
    if code == EV.EV_BATTLE:
        use[seats[a]]["Battle declared"] += 1
        use[seats[b]]["Battle defended"] += 1
    elif code == EV.EV_SUPPORT:
        use[seats[a]]["Support given (" + ("attackers)" if b == 1 else "defenders)")] += 1
    elif code == EV.EV_REFUSED:
        use[seats[a]]["Support refused"] += 1
    elif code == EV.EV_DRAW:
        use[seats[a]]["Event drawn (3 Divine Will)"] += 1
        if c:
            use[seats[a]]["Benevolence redraw"] += 1
    elif code == EV.EV_DELAYED:
        use[seats[a]]["delayed Event played"] += 1
    elif code == EV.EV_TRADE:
        use[seats[a]]["trade: goods bought"] += c
    elif code == EV.EV_HOSTAGE_TRADE:
        use[seats[a]]["trade: hostages bought"] += c
    elif code == EV.EV_PASS:
        use[seats[a]]["pass first" if b else "pass"] += 1


def table(use, wins, games: int) -> str:
    tribes = list(use)
    rows = sorted({k for t in tribes for k in use[t]})
    head = "| action (per game) | " + " | ".join(tribes) + " |"
    lines = [head, "|" + "---|" * (len(tribes) + 1)]
    lines.append("| **win rate** | " + " | ".join(f"{wins[t] / games:.1%}" for t in tribes)
                 + " |")
    for r in rows:
        lines.append(f"| {r} | " + " | ".join(f"{use[t][r] / games:.2f}" for t in tribes)
                     + " |")
    return "\n".join(lines)


def seat_lines(seat_won) -> str:
    """Each seat's win rate and its effect: its rate minus seat 1's, paired over the same
    (game, rotation) pairs (percentage points, normal 95% interval)."""
    first = seat_won["seat1"]
    lines = []
    for s, won in seat_won.items():
        line = f"- {s}: {won.mean():.1%}"
        if s != "seat1":
            d = won - first
            half = 1.96 * d.std(ddof=1) / len(d) ** 0.5
            line += (f", seat effect {100 * d.mean():+.1f} [{100 * (d.mean() - half):+.1f}, "
                     f"{100 * (d.mean() + half):+.1f}]")
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--policies", default=",".join([*POLICIES, "traits"]),
                    help="policies to tabulate, every seat the same; 'traits': each tribe "
                         "its own trait's style")
    args = ap.parse_args(argv)
    rules = Rules(players=args.players)
    for policy in args.policies.split(","):
        use, wins, seat_won = tally(rules, policy, args.games, args.seed)
        played = args.games * args.players
        print(f"\n### {policy}: {args.games} game indices under each of the {args.players} "
              f"rotations of the seats ({played} games, seed {args.seed}), {args.players} "
              "players\n")
        print(table(use, wins, played))
        print("\nwin rate by seat, pooled over the tribes seated there:\n")
        print(seat_lines(seat_won))


if __name__ == "__main__":
    main()
