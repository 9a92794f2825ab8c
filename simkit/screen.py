"""Which knobs matter, all at once: Morris elementary effects (SALib) over a game's rule
knobs, on common random numbers.

Each knob is put on ``levels`` evenly spaced points of its range (an integer knob on the
nearest integers, a boolean on false/true, a choice knob on its choices in order). SALib
draws ``trajectories`` one-knob-at-a-time walks through that grid; every point plays the
same game indices of the same seed, so the difference between two consecutive points is
the knob's effect on the same dice. For each knob, ``mu_star`` is the mean absolute
elementary effect (win-rate points per the knob's whole range), with SALib's bootstrap
interval, and ``sigma`` their spread: a large sigma beside mu_star says the knob acts
non-linearly or through other knobs (interactions).

Some combinations are refused by a game's cross-knob checks (Victus's 12 cards a stage
need more rounds); walks through a refused point are drawn again, and a knob that no walk
can move is named as not screenable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit import games as registry
from simkit.errors import RulesError, UsageError
from simkit.runner import simulate
from simkit.sides import resolve_side

#: walks drawn for each one kept, before the search for legal walks gives up
DRAWS_PER_WALK = 20


@dataclass(frozen=True)
class Factor:
    """One knob as a Morris factor: unit coordinate -> the knob's value."""

    knob: object

    def value(self, x: float):
        k = self.knob
        if k.type is bool:
            return bool(x >= 0.5)
        if k.choices is not None:
            return k.choices[min(int(x * len(k.choices)), len(k.choices) - 1)]
        lo, hi = k.range
        value = lo + x * (hi - lo)
        return int(round(value)) if k.type is int else float(value)


def screenable(knob) -> bool:
    """A knob Morris can move: a boolean, a choice, or a number with a range."""
    return knob.type is bool or knob.choices is not None or knob.range is not None


def levels_of(factor: Factor, levels: int) -> list:
    """The values the factor takes on a grid of ``levels`` points."""
    return list(dict.fromkeys(factor.value(i / (levels - 1)) for i in range(levels)))


def movable(game, base, factor: Factor, levels: int) -> bool:
    """Whether the rules admit the knob at each of its grid values, the others as in
    ``base`` (Victus's solo seat needs the Full Game, so ``players`` is not, from the
    First Game)."""
    for value in levels_of(factor, levels):
        try:
            game.resolve_rules(base.replace({factor.knob.name: value}))
        except RulesError:
            return False
    return True


def factors(game, base, names: list[str] | None, levels: int) -> list[Factor]:
    """The knobs to screen: ``names`` (each checked), or every knob the rules admit at
    each grid value from ``base``."""
    if names is None:
        chosen = [Factor(k) for k in game.Rules.knobs() if screenable(k)]
        chosen = [f for f in chosen if movable(game, base, f, levels)]
    else:
        chosen = [_named(game, base, name, levels) for name in names]
    if len(chosen) < 2:
        raise UsageError("screening needs two knobs or more; for one, use simkit sweep")
    return chosen


def _named(game, base, name: str, levels: int) -> Factor:
    knob = game.Rules.knob(name)  # an unknown name: RulesError naming the allowed
    if not screenable(knob):
        raise UsageError(f"knob {name!r} of {game.name} has no range or choices to screen")
    factor = Factor(knob)
    if not movable(game, base, factor, levels):
        raise UsageError(f"knob {name!r} of {game.name} cannot be screened from these rules: "
                         f"some of its values {levels_of(factor, levels)} are refused with "
                         "the other knobs as they are")
    return factor


def legal_walks(game, base, chosen: list[Factor], trajectories: int, levels: int,
                seed: int) -> tuple[np.ndarray, list]:
    """``trajectories`` Morris walks (SALib) whose every point the rules admit, stacked
    as SALib lays them out, and the rules of each point."""
    from SALib.sample import morris

    problem = _problem(chosen)
    d = len(chosen)
    draws = morris.sample(problem, trajectories * DRAWS_PER_WALK, num_levels=levels,
                          seed=seed)
    kept_x, kept_rules = [], []
    for walk in draws.reshape(-1, d + 1, d):
        rules = [_rules_at(game, base, chosen, point) for point in walk]
        if all(r is not None for r in rules):
            kept_x.append(walk)
            kept_rules += rules
            if len(kept_x) == trajectories:
                break
    if len(kept_x) < trajectories:
        raise UsageError(f"only {len(kept_x)} of {trajectories} Morris walks pass the "
                         f"rules' checks in {len(draws) // (d + 1)} drawn; screen fewer "
                         "knobs (--knobs) or from another preset")
    return np.concatenate(kept_x), kept_rules


def _rules_at(game, base, chosen: list[Factor], point: np.ndarray):
    changes = {f.knob.name: f.value(x) for f, x in zip(chosen, point, strict=True)}
    try:
        return game.resolve_rules(base.replace(changes))
    except RulesError:
        return None


def _problem(chosen: list[Factor]) -> dict:
    return {"num_vars": len(chosen), "names": [f.knob.name for f in chosen],
            "bounds": [[0.0, 1.0]] * len(chosen)}


def check_sizes(trajectories: int, levels: int, n_games: int = 1) -> None:
    if trajectories < 2 or n_games < 1 or levels < 2 or levels % 2:
        raise UsageError("screening needs --trajectories 2 or more, --games 1 or more "
                         "and an even number of levels (2 or more)")


def design(game, base, knobs: list[str] | None, trajectories: int, levels: int,
           seed: int) -> tuple[list[Factor], np.ndarray, list]:
    """The knobs screened, the Morris walks (SALib's layout, unit coordinates) and the
    rules of each point, every point admitted by the rules (``legal_walks``)."""
    check_sizes(trajectories, levels)
    chosen = factors(game, base, knobs, levels)
    x, points = legal_walks(game, base, chosen, trajectories, levels, seed)
    return chosen, x, points


def analyze(names: list[str], x: np.ndarray, y: np.ndarray, levels: int,
            seed: int) -> pd.DataFrame:
    """The Morris effects of ``y`` (win-rate points at the points ``x``): one row per
    knob, ranked by ``mu_star`` with SALib's 95% bootstrap interval, ``sigma`` and
    ``mu``."""
    from SALib.analyze import morris

    problem = {"num_vars": len(names), "names": list(names),
               "bounds": [[0.0, 1.0]] * len(names)}
    found = morris.analyze(problem, np.asarray(x, dtype=float), np.asarray(y, dtype=float),
                           num_levels=levels, seed=seed)
    table = pd.DataFrame({
        "knob": found["names"], "mu_star": found["mu_star"],
        "mu_star_low": np.maximum(found["mu_star"] - found["mu_star_conf"], 0.0),
        "mu_star_high": found["mu_star"] + found["mu_star_conf"],
        "sigma": found["sigma"], "mu": found["mu"]})
    return table.sort_values("mu_star", ascending=False, ignore_index=True)


def screen(game, *, rules=None, knobs: list[str] | None = None, policy=None,
           side: str | None = None, trajectories: int = 10, levels: int = 4,
           n_games: int = 1000, seed: int = 0, n_jobs: int = 1, data=None,
           progress=None, budget: float | None = None, say=None) -> pd.DataFrame:
    """Morris screening of ``knobs`` (default: every screenable knob) around ``rules``:
    one row per knob, ranked by ``mu_star`` (points of ``side``'s win rate per the knob's
    whole range) with its 95% bootstrap interval, ``sigma`` and ``mu`` (the signed mean
    effect). ``side``: a side, a seat or a winner category (``sides.resolve_side``).
    ``say`` is told the estimated time first; ``budget`` (seconds) cuts the games per
    point to fit. ``table.attrs`` holds the side, the points played, the games per point
    and what the budget cut."""
    check_sizes(trajectories, levels, n_games)
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    base = game.resolve_rules(rules)
    column, side = resolve_side(game, side)  # a side, a seat or a winner category
    chosen, x, points = design(game, base, knobs, trajectories, levels, seed)
    n_games, cut = _sized(game, base, policy, len(points), n_games, n_jobs, budget, say)
    y = np.empty(len(points))
    for i, rules_i in enumerate(points):
        frame = simulate(game, n_games, seed=seed, rules=rules_i, policy=policy,
                         n_jobs=n_jobs, progress=False)
        y[i] = 100.0 * (frame[column] == side).mean()
        if progress is not None:
            progress(i + 1, len(points))
    table = analyze([f.knob.name for f in chosen], x, y, levels, seed)
    table.attrs.update(side=side, points=len(points), games=n_games, seed=seed,
                       trajectories=trajectories, levels=levels, cut=cut)
    return table


def _sized(game, base, policy, points: int, n_games: int, n_jobs: int, budget, say):
    """The games per point that fit ``budget`` (the estimate told to ``say`` first)."""
    from simkit.timing import Plan, announce, check_budget, fit, speed

    check_budget(budget)
    if say is None and budget is None:
        return n_games, None
    plan = Plan(points * n_games, speed(game, base, policy, n_jobs))
    announce(f"{points} points of {n_games:,} games", plan, say or (lambda text: None))
    return fit(budget, plan, n_games, "games a point")


def screen_summary(game, table: pd.DataFrame) -> str:
    """The ranking as ``simkit screen`` prints it."""
    a = table.attrs
    width = max(8, *(len(k) for k in table["knob"]))
    lines = [f"{game.name}: Morris screening of {len(table)} knobs, {a['trajectories']} walks "
             f"on {a['levels']} levels, {a['games']:,} games a point (seed {a['seed']}, the "
             f"same games at every point); {a['side']} win rate, points per knob's range",
             f"  {'knob':{width}}  {'mu*':>7}  {'95% interval':>17}  {'sigma':>7}  {'mu':>7}"]
    for _, r in table.iterrows():
        lines.append(f"  {r['knob']:{width}}  {r['mu_star']:7.2f}  "
                     f"[{r['mu_star_low']:6.2f}, {r['mu_star_high']:6.2f}]  "
                     f"{r['sigma']:7.2f}  {r['mu']:+7.2f}")
    if a.get("cut"):
        lines.append(a["cut"])
    lines.append("mu*: mean absolute effect; sigma: its spread (large beside mu*: the knob "
                 "acts non-linearly or through other knobs); mu: the signed mean")
    return "\n".join(lines)
