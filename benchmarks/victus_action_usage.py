"""Victus: how often each scripted Barcelonan policy buys each action, uses each card
timing and leaves AP unspent.

For each policy (``naive``, ``greedy``, ``fortify``, ``random``) the table gives the mean
per game, over the same games (same seeds), of: each Barcelonan action bought
(``layout.BARCELONAN_ACTION_NAMES``); the cards resolved at each timing (played for their
effect, then the timed lists: start/end of turn, end of round, start of the next round);
the AP the step received and the AP left unspent, the Generalitat AP and the AP a card
granted to one group counted apart. It reads the game's trace (``events.py``: EV_ACTION,
EV_CARD, EV_TIMED, EV_ACTION_POINTS, EV_AP_GRANTED, EV_AP_LEFT), so the games are played
with a log, one at a time: the untraced kernels pay nothing for it. An action used 0 times
needs a reason.

Run: ``python benchmarks/victus_action_usage.py [--games 300] [--seed 1] [--rules full]``;
``usage()`` gives the table as a DataFrame (the tests use it).
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from simkit.eventlog import events, new_log
from simkit.games.victus import GAME, _static
from simkit.games.victus import card_layout as CL
from simkit.games.victus import layout as L
from simkit.games.victus.engine import play_games
from simkit.games.victus.events import (
    EV_ACTION,
    EV_ACTION_POINTS,
    EV_AP_GRANTED,
    EV_AP_LEFT,
    EV_CARD,
    EV_TIMED,
)
from simkit.games.victus.rules import Rules

POLICIES = ("naive", "greedy", "fortify", "random")
TIMINGS = ("effect", "start_of_turn", "end_of_turn", "end_of_round", "next_round_start")


def _counts(ev: np.ndarray) -> dict[str, float]:
    """One game's trace as counts (the table's rows)."""
    code, a, b = ev[:, 0], ev[:, 1], ev[:, 2]
    row = {}
    actions = np.bincount(a[code == EV_ACTION], minlength=L.N_ACTIONS)
    for k, name in enumerate(L.BARCELONAN_ACTION_NAMES):
        row[f"action: {name}"] = actions[k]
    row["timing: effect"] = np.count_nonzero(code == EV_CARD)
    timed = np.bincount(ev[code == EV_TIMED, 3], minlength=CL.N_TIMINGS)
    for name in TIMINGS[1:]:
        row[f"timing: {name}"] = timed[CL.TIMING_NAMES.index(name)]
    left = code == EV_AP_LEFT
    row["AP: Generalitat received"] = a[code == EV_ACTION_POINTS].sum()
    row["AP: Generalitat unspent"] = a[left & (b < 0)].sum()
    row["AP: granted by cards"] = b[code == EV_AP_GRANTED].sum()
    row["AP: granted, unspent"] = a[left & (b >= 0)].sum()
    return row


def _games(policy: str, games: int, seed: int, rules: Rules) -> pd.DataFrame:
    p, pol, sp, g = GAME.kernel_inputs(rules, GAME.policy_choices(policy))
    _, K, dice, cards = _static()
    log = new_log(40_000)
    rows = []
    for game in range(games):
        log[0, 0] = 0
        play_games(K, dice, cards.as_tuple(), p, pol, sp, g, np.array([game], dtype=np.int64),
                   seed, log)
        rows.append(_counts(events(log)))
    return pd.DataFrame(rows)


def usage(games: int = 300, seed: int = 1, rules: Rules | None = None) -> pd.DataFrame:
    """Mean per game: rows are actions, card timings and AP; columns the policies."""
    rules = rules or Rules()
    return pd.DataFrame({policy: _games(policy, games, seed, rules).mean()
                         for policy in POLICIES})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="full", help="level: first_game, full, competitive")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    df = usage(args.games, args.seed, Rules(level=args.rules, players=args.players))
    with pd.option_context("display.max_rows", 200, "display.width", 200):
        print(f"Victus {args.rules}, {args.players} players: mean per game, {args.games} "
              f"games per policy, seed {args.seed}")
        print(df.round(2).to_string())


if __name__ == "__main__":
    main()
