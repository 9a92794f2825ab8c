"""What a headline number rests on: the same games played under every open reading,
every reconstruction alternative and every pairing of the scripted players.

A win rate's interval covers the dice, not the choices behind it. ``robustness`` plays
the headline outcome (each side's, seat's or tribe's win rate) of one rule set under

* the base: the rules as given, each side's default policy;
* every alternative value of every ``reading`` knob (a rule the rulebook leaves open)
  and of every ``reconstruction`` knob (a reconstructed number that matters), one knob
  at a time;
* every pairing of the sides' scripted policies (for a game of more than two seats,
  every policy played by every seat: the pairings would be too many); a policy with its
  own slow kernel (a rollout player) plays ``slow_games`` games only;

all on the same seed and game indices, so each setting's difference from the base is
paired. ``range_of`` gives, per kind of setting, the lowest and highest rate of a
category; random players are shown but left out of the players' range (they are a
floor, not a way to play).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit import stats
from simkit.errors import RulesError

GROUPS = ("as played", "reading", "reconstruction", "players")
#: seconds a setting's run costs beyond its games (building its rows), for a budget
OVERHEAD = 0.2
#: policies shown for reference but left out of the players' range
BASELINE_POLICIES = ("random",)


#: the fewest games a budget leaves a slow (rollout) player's setting
SLOW_FLOOR = 20


@dataclass(frozen=True)
class Setting:
    group: str
    label: str
    rules: object
    policy: dict
    games: int
    baseline: bool = False  # a random player: shown, left out of the range


def headline_categories(game, rules=None) -> list[str]:
    """The winner categories a headline reports: the sides that can win, or (a game
    whose winners are not its seats, such as Verrix's tribes) every winner but a tie;
    with ``rules``, only those in play (``Game.categories_in_play``)."""
    categories = list(game.outcome_columns["winner"].categories if rules is None else
                      game.categories_in_play(rules, "winner"))
    sides = [c for c in categories if c in game.sides]
    return sides or [c for c in categories if c != "tie"]


def settings(game, rules, n_games: int, slow_games: int | None
             ) -> tuple[list[Setting], list[str]]:
    """Every setting to play, and a note for each alternative the rules refuse;
    ``slow_games=None`` leaves out the policies with their own kernels."""
    default = game.resolve_policy(None)
    out = [Setting("as played", "as played: " + _policy_label(default), rules, default,
                   n_games)]
    refused = []
    for knob in game.Rules.knobs():
        if knob.role == "rule":
            continue
        for value in knob.alternatives:
            label = f"{knob.name}={value}"
            try:
                changed = rules.replace({knob.name: value})
            except RulesError as exc:
                refused.append(f"{label}: {exc}")
                continue
            out.append(Setting(knob.role, label, changed, default, n_games))
    out += _pairings(game, rules, default, n_games, slow_games)
    return out, refused


def _slow(game, policy: dict) -> bool:
    return any((side, name) in game.policy_kernels for side, name in policy.items())


def _pairings(game, rules, default: dict, n_games: int, slow_games: int | None
              ) -> list[Setting]:
    def size(side_policy: dict) -> int:
        return min(slow_games, n_games) if _slow(game, side_policy) else n_games

    def setting(policy: dict) -> Setting:
        label = _policy_label(policy)
        baseline = any(name in BASELINE_POLICIES for name in policy.values())
        return Setting("players", label, rules, policy, size(policy), baseline)

    if len(game.sides) <= 2:
        combos = itertools.product(*(list(game.policies[side]) for side in game.sides))
        pairings = [dict(zip(game.sides, combo, strict=True)) for combo in combos]
    else:  # every seat in play the same policy (a seat not in play takes none)
        playing = game.sides_in_play(rules)
        names = list(dict.fromkeys(n for side in playing for n in game.policies[side]))
        pairings = [dict.fromkeys(playing, name) for name in names]
    # a look-ahead at every seat measures no seat's headroom (each searches against the
    # others' scripts) at five times a look-ahead game's cost: `simkit skill` gives a
    # seated game's headroom, seats rotated
    if slow_games is None or len(game.sides) > 2:
        pairings = [p for p in pairings if not _slow(game, p)]
    return [setting(p) for p in pairings if p != {side: default[side] for side in p}]


def _policy_label(policy: dict) -> str:
    names = set(policy.values())
    if len(policy) > 2 and len(names) == 1:
        return f"every seat {names.pop()}"
    return ", ".join(f"{side}={name}" for side, name in policy.items())


def robustness(game, rules=None, n_games: int = 2000, *, seed: int = 0,
               slow_games: int | None = 200, n_jobs: int = 1, progress=None,
               data=None, best_play=None, budget: float | None = None,
               say=None) -> pd.DataFrame:
    """The robustness table of ``rules`` (a preset name, a dict or Rules): one row per
    setting (``settings``) with each headline category's win rate and Wilson 95%
    interval, and the paired difference of the first category from the base with the
    McNemar/Tango 95% interval on the games both played. ``table.attrs`` holds the
    categories, the refused alternatives and the game count. ``slow_games=None`` leaves
    out the policies with their own (slow to compile) kernels; ``data``: a data folder
    to play instead of the package's. ``best_play``: a finished ``simkit.balance``
    answer of the same rules, whose figures ``table.attrs["best_play"]`` carries.
    ``say``: told the time the settings will take before they start; ``budget``
    (seconds): the games cut to fit it, and said."""
    from simkit import games as registry
    from simkit.runner import simulate

    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    categories = headline_categories(game, rules)
    todo, refused = settings(game, rules, n_games, slow_games)
    todo, cut = _sized(game, rules, todo, budget, n_jobs, say)
    winners, rows = {}, []
    for setting in todo:
        frame = simulate(game, setting.games, seed=seed, rules=setting.rules,
                         policy=setting.policy, n_jobs=n_jobs)
        winners[setting.label] = frame["winner"].to_numpy()
        rows.append(_row(setting, winners, categories))
        if progress is not None:
            progress(setting.label)
    table = pd.DataFrame(rows)
    table.attrs.update(categories=categories, refused=refused, games=todo[0].games,
                       seed=seed, cut=cut,
                       slow_left_out=slow_games is None,
                       best_play=None if best_play is None else best_play_figures(best_play))
    return table


def _sized(game, rules, todo: list[Setting], budget, n_jobs: int, say
           ) -> tuple[list[Setting], str | None]:
    """The settings with their games cut to fit ``budget`` (each in the same proportion),
    after telling ``say`` the estimate; and the line saying what was cut."""
    from dataclasses import replace

    from simkit.timing import Plan, announce, check_budget, duration, speed

    check_budget(budget)
    if say is None and budget is None:
        return todo, None
    started = time.perf_counter()
    cost = [s.games / speed(game, rules, s.policy, n_jobs) for s in todo]
    seconds = sum(cost)
    games = sum(s.games for s in todo)
    plan = Plan(games, games / seconds)
    announce(f"{len(todo)} settings", plan, say or (lambda text: None))
    # what is left of the budget after the probes, less each run's own overhead
    left = None if budget is None else budget - (time.perf_counter() - started) \
        - OVERHEAD * len(todo)
    if left is None or seconds <= left:
        return todo, None
    # a slow (rollout) player's games go first, down to SLOW_FLOOR, so that one look-ahead
    # row does not cut every scripted setting to a few dozen games
    slow = [_slow(game, s.policy) for s in todo]
    fast_seconds = sum(c for c, x in zip(cost, slow, strict=True) if not x)
    slow_least = sum(c * min(1.0, SLOW_FLOOR / s.games)
                     for c, s, x in zip(cost, todo, slow, strict=True) if x)
    if fast_seconds + slow_least <= left:
        fast_share = 1.0
        slow_share = (left - fast_seconds) / max(seconds - fast_seconds, 1e-9)
    else:
        fast_share = max(left - slow_least, 0.0) / max(fast_seconds, 1e-9)
        slow_share = 0.0
    floors = [SLOW_FLOOR if x else 20 for x in slow]
    sized = [replace(s, games=max(min(f, s.games), min(s.games, int(
        s.games * (slow_share if x else fast_share)))))
        for s, x, f in zip(todo, slow, floors, strict=True)]
    kept = [s.games for s, x in zip(sized, slow, strict=True) if not x]
    slow_kept = [s.games for s, x in zip(sized, slow, strict=True) if x]
    said = (f"budget {duration(budget)}: the {len(todo)} settings would take about "
            f"{duration(seconds)}; games a setting cut from {todo[0].games:,} to "
            f"{kept[0] if kept else sized[0].games:,}")
    if slow_kept:
        said += (f", a slow player's to {min(slow_kept):,} (cut first)"
                 if fast_share >= 1.0 else f", a slow player's to {min(slow_kept):,}")
    return sized, said


def best_play_figures(result) -> dict:
    """Each headline category's rate under the best play found, from a ``simkit.balance``
    answer: {category: (rate, low, high)} and how it was found."""
    if hasattr(result, "profile"):  # a seated game: each tribe under the final profile
        rates = {t: (r["rate"], r["low"], r["high"]) for t, r in result.rates.iterrows()}
        how = (f"each tribe's best response in turn, seats rotated, {len(result.rounds)} "
               f"round(s); the largest gain still found {100 * result.largest_gain:+.1f}")
        return {"rates": rates, "how": how}
    first, second = result.sides
    r, c = result.table.shape
    rates = {first: (result.value, result.low, result.high),
             second: (1 - result.value, 1 - result.high, 1 - result.low)}
    how = (f"equilibrium of {r}x{c} policies, {result.n_games:,} games a pairing, "
           f"{'converged' if result.converged else 'not converged'}")
    return {"rates": rates, "how": how}


def headroom_lines(table: pd.DataFrame, game) -> list[str]:
    """The player headroom of each side with a look-ahead in the players' group: its
    look-ahead against its script, the other sides at their defaults, paired (a side
    other than the first: the first side's difference with its sign turned, every game
    having one winner)."""
    first = table.attrs["categories"][0]
    base = table[table["group"] == "as played"].iloc[0]
    lines = []
    for side in game.sides:
        column = f"policy_{side}"
        if column not in table:
            continue
        others = [c for c in table.columns if c.startswith("policy_") and c != column]
        rows = table[(table["group"] == "players") & (table[column] == "lookahead")]
        rows = rows[(rows[others] == base[others]).all(axis=1)] if others else rows
        if rows.empty:
            continue
        r = rows.iloc[0]
        sign = 1 if side == first else -1
        low, high = sorted((sign * r["difference_low"], sign * r["difference_high"]))
        gain = 100 * sign * r["difference"]
        lines.append(f"player headroom of the {side}: lookahead {gain:+.1f} "
                     f"[{100 * low:+.1f}, {100 * high:+.1f}] points over {base[column]} "
                     f"({r['games']:,} games, paired)")
    return lines


def best_play_lines(table: pd.DataFrame) -> list[str]:
    """The headline under the best play found, one line per category, if given."""
    best = table.attrs.get("best_play")
    if not best:
        return []
    return [f"{c} {100 * rate:.0f}% [{100 * low:.0f}, {100 * high:.0f}] under the best play "
            f"found ({best['how']})"
            for c, (rate, low, high) in best["rates"].items()
            if c in table.attrs["categories"]]


def _row(setting: Setting, winners: dict, categories: list[str]) -> dict:
    won = winners[setting.label]
    row = {"group": setting.group, "setting": setting.label, "games": won.size,
           "baseline": setting.baseline,
           **{f"policy_{side}": name for side, name in setting.policy.items()}}
    for c in categories:
        rate = stats.wilson(int((won == c).sum()), won.size)
        row.update({c: rate.estimate, f"{c}_low": rate.low, f"{c}_high": rate.high})
    base = next(iter(winners.values()))  # the base is played first
    n = min(base.size, won.size)
    if setting.group != "as played":
        diff = stats.paired_difference(won[:n] == categories[0], base[:n] == categories[0])
        row.update(difference=diff.difference.estimate, difference_low=diff.difference.low,
                   difference_high=diff.difference.high)
    return row


def policy_matrix(table: pd.DataFrame, category: str, sides) -> pd.DataFrame | None:
    """For a game of two sides: ``category``'s win rate with its interval for every
    pairing of the sides' policies (rows: the first side's, columns: the second's), as
    text; None for a game of more seats."""
    if len(sides) != 2:
        return None
    rows = table[table["group"].isin(["as played", "players"])]
    first, second = (f"policy_{side}" for side in sides)
    cells = {(r[first], r[second]): f"{100 * r[category]:.1f}% [{100 * r[category + '_low']:.1f}, "
                                    f"{100 * r[category + '_high']:.1f}]"
             for _, r in rows.iterrows()}
    index = list(dict.fromkeys(rows[first]))
    columns = list(dict.fromkeys(rows[second]))
    matrix = pd.DataFrame([[cells.get((a, b), "") for b in columns] for a in index],
                          index=pd.Index(index, name=f"{sides[0]} \\ {sides[1]}"),
                          columns=columns)
    return matrix


def range_of(table: pd.DataFrame, category: str, group: str) -> tuple[float, float] | None:
    """The lowest and highest rate of ``category`` over the settings of ``group`` and
    the base (random players left out); None if the group has no setting."""
    rows = table[(table["group"] == group) & ~table["baseline"]]
    if rows.empty:
        return None
    rates = np.append(rows[category].to_numpy(), table.loc[table["group"] == "as played",
                                                           category].to_numpy())
    return float(rates.min()), float(rates.max())


def headline(table: pd.DataFrame, category: str) -> str:
    """One line: the rate as played, then its range over each kind of setting."""
    base = table.loc[table["group"] == "as played", category].iloc[0]
    parts = [f"{category} {100 * base:.0f}% as played"]
    words = {"reading": "the open readings", "reconstruction": "the reconstructions",
             "players": "the scripted players"}
    for group, text in words.items():
        found = range_of(table, category, group)
        if found is not None:
            parts.append(f"{100 * found[0]:.0f}% to {100 * found[1]:.0f}% over {text}")
    return "; ".join(parts)
