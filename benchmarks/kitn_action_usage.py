"""The King in the North: how often each scripted commander uses each action and choice.

For each policy (both sides playing it) the table gives, per side, the mean number of
times per campaign each action kind (``layout.ACTIONS``) and each Special Event card
(``layout.CARD_SPECIALS``, counted when played for its effect) is used, over the same
games, under ``rules``' set-up (the calibrated one by default). A kind used 0 times needs
a reason (see the game's notes). The look-ahead, which plays in a kernel of its own, is
left out: this table counts the scripts' choices.

Run: ``python benchmarks/kitn_action_usage.py [--games 400] [--seed 1]``; ``usage()``
gives the table as a DataFrame (the tests use it).
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from simkit.eventlog import no_log
from simkit.games.king_in_the_north import GAME, engine, movement
from simkit.games.king_in_the_north import components as C
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.policies import CARLIST_POLICIES
from simkit.games.king_in_the_north.rules import PARAMETERS, POLICY_ROWS, Rules
from simkit.rng import game_streams

#: the special cards that are not events (they have their own action kinds)
NOT_EVENTS = ("none", "loyalty", "headquarters", "fortified_house", "breach")


def _games(policy: str, games: int, seed: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the action counts (2, N_ACTIONS) and the events played per kind."""
    comp = GAME.set_up(rules)  # the Locations and blocks the set-up knobs choose
    pol = POLICY_ROWS.build(GAME.policy_choices(policy))  # each side's id and default weights
    p = PARAMETERS.build(rules)
    s = np.zeros(L.N_STATE, dtype=np.int64)
    out = np.zeros(L.N_OUT, dtype=np.int32)
    ws = movement.workspace(comp.loc, comp.card)
    actions = np.zeros((games, 2, L.N_ACTIONS), dtype=np.int64)
    events = np.zeros((games, len(L.CARD_SPECIALS)), dtype=np.int64)
    for g in range(games):
        rng = game_streams(seed, g, L.N_STREAMS)
        engine.play_game(p, comp.loc, comp.adj, comp.fac_home, comp.any2, comp.blk, comp.card,
                         s, rng, pol, ws, out, no_log())
        actions[g] = s[L.S_ACTIONS:L.S_ACTIONS + 2 * L.N_ACTIONS].reshape(2, L.N_ACTIONS)
        events[g] = s[L.S_EVENTS_PLAYED:L.S_EVENTS_PLAYED + len(L.CARD_SPECIALS)]
    return actions, events


def usage(games: int = 400, seed: int = 1, rules: Rules | None = None) -> pd.DataFrame:
    """Mean uses per campaign: rows are action kinds then events, columns
    (policy, side)."""
    rules = GAME.resolve_rules(rules or Rules())
    table = {}
    card_side = {}
    comp = C.components()
    for c in range(comp.card.shape[0]):
        card_side[int(comp.card[c, L.CD_SPECIAL])] = int(comp.card[c, L.CD_SIDE])
    scripts = [name for name in CARLIST_POLICIES if ("carlists", name) not in GAME.policy_kernels]
    for policy in scripts:
        actions, events = _games(policy, games, seed, rules)
        for side, side_name in enumerate(L.SIDES):
            col = {f"action: {a}": actions[:, side, k].mean()
                   for k, a in enumerate(L.ACTIONS)}
            for k, name in enumerate(L.CARD_SPECIALS):
                if name in NOT_EVENTS or card_side.get(k) != side:
                    continue
                col[f"event: {name}"] = events[:, k].mean()
            table[(policy, side_name)] = col
    return pd.DataFrame(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    df = usage(args.games, args.seed)
    with pd.option_context("display.max_rows", 200, "display.width", 200):
        print(f"mean uses per campaign, {args.games} games per policy (both sides "
              f"playing it), seed {args.seed}")
        print(df.round(2).astype(object).fillna("-").to_string())


if __name__ == "__main__":
    main()
