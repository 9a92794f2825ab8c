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
#: screening methods: Morris elementary effects, or Sobol indices (variance shares)
METHODS = ("morris", "sobol")


@dataclass(frozen=True)
class Factor:
    """One knob as a Morris factor: unit coordinate -> the knob's value, over its whole
    range or over ``bounds`` (a neighbourhood of the design, ``around``)."""

    knob: object
    bounds: tuple | None = None

    def value(self, x: float):
        k = self.knob
        if k.type is bool:
            return bool(x >= 0.5)
        if k.choices is not None:
            return k.choices[min(int(x * len(k.choices)), len(k.choices) - 1)]
        lo, hi = self.bounds or k.range
        value = lo + x * (hi - lo)
        return int(round(value)) if k.type is int else float(value)


def around(knob, base_value, steps: int) -> Factor | None:
    """``knob`` screened within ``steps`` steps of its value in the design (an integer's
    step is 1, a float's its own step or a twentieth of its range); a switch or a
    choice keeps every value; None if the neighbourhood holds one value only."""
    if knob.type is bool or knob.choices is not None:
        return Factor(knob)
    lo, hi = knob.range
    unit = 1 if knob.type is int else (knob.step or (hi - lo) / 20)
    bounds = (max(lo, base_value - steps * unit), min(hi, base_value + steps * unit))
    return Factor(knob, bounds) if bounds[0] < bounds[1] else None


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


def factors(game, base, names: list[str] | None, levels: int,
            steps: int | None = None) -> list[Factor]:
    """The knobs to screen: ``names`` (each checked), or every knob the rules admit at
    each grid value from ``base``; with ``steps``, each within that many steps of its
    value in ``base`` (``around``)."""
    if names is None:
        chosen = [Factor(k) for k in game.Rules.knobs() if screenable(k)]
        if steps is not None:
            chosen = [around(f.knob, getattr(base, f.knob.name), steps) for f in chosen]
            chosen = [f for f in chosen if f is not None]
        chosen = [f for f in chosen if movable(game, base, f, levels)]
    else:
        chosen = [_named(game, base, name, levels, steps) for name in names]
    if len(chosen) < 2:
        raise UsageError("screening needs two knobs or more; for one, use simkit sweep")
    return chosen


def _named(game, base, name: str, levels: int, steps: int | None = None) -> Factor:
    knob = game.Rules.knob(name)  # an unknown name: RulesError naming the allowed
    if not screenable(knob):
        raise UsageError(f"knob {name!r} of {game.name} has no range or choices to screen")
    factor = Factor(knob) if steps is None else around(knob, getattr(base, name), steps)
    if factor is None:
        raise UsageError(f"knob {name!r} of {game.name} has one value within {steps} steps "
                         "of the design: nothing to screen")
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
           seed: int, steps: int | None = None) -> tuple[list[Factor], np.ndarray, list]:
    """The knobs screened, the Morris walks (SALib's layout, unit coordinates) and the
    rules of each point, every point admitted by the rules (``legal_walks``)."""
    check_sizes(trajectories, levels)
    chosen = factors(game, base, knobs, levels, steps)
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
           progress=None, budget: float | None = None, say=None,
           around_default: int | None = None, method: str = "morris") -> pd.DataFrame:
    """Morris screening of ``knobs`` (default: every screenable knob) around ``rules``:
    one row per knob, ranked by ``mu_star`` (points of ``side``'s win rate per the knob's
    whole range) with its 95% bootstrap interval, ``sigma`` and ``mu`` (the signed mean
    effect). ``side``: a side, a seat or a winner category (``sides.resolve_side``).
    ``say`` is told the estimated time first; ``budget`` (seconds) cuts the games per
    point to fit. ``around_default``: each numeric knob within that many steps of its
    value in ``rules`` (the design's neighbourhood) instead of its whole range.
    ``method="sobol"``: Sobol indices (SALib, Saltelli's sampling of ``trajectories``
    base points) instead of Morris effects. ``table.attrs`` holds the side, the points
    played, the games per point, what the budget cut and whether the leading two
    knobs' intervals separate."""
    check_sizes(trajectories, levels, n_games)
    if method not in METHODS:
        raise UsageError(f"--method {method!r} is not one of: {', '.join(METHODS)}")
    if around_default is not None and around_default < 1:
        raise UsageError(f"--around-default must be 1 step or more, got {around_default}")
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    base = game.resolve_rules(rules)
    column, side = resolve_side(game, side)  # a side, a seat or a winner category
    if method == "sobol":
        chosen = factors(game, base, knobs, levels, around_default)
        x, points = sobol_points(game, base, chosen, trajectories)
    else:
        chosen, x, points = design(game, base, knobs, trajectories, levels, seed,
                                   around_default)
    n_games, cut = _sized(game, base, policy, len(points), n_games, n_jobs, budget, say)
    y = np.empty(len(points))
    for i, rules_i in enumerate(points):
        frame = simulate(game, n_games, seed=seed, rules=rules_i, policy=policy,
                         n_jobs=n_jobs, progress=False)
        y[i] = 100.0 * (frame[column] == side).mean()
        if progress is not None:
            progress(i + 1, len(points))
    names = [f.knob.name for f in chosen]
    table = analyze_sobol(names, y, seed) if method == "sobol" else \
        analyze(names, x, y, levels, seed)
    table.attrs.update(side=side, points=len(points), games=n_games, seed=seed,
                       trajectories=trajectories, levels=levels, cut=cut, method=method,
                       around=around_default, separated=_separated(table, method),
                       bounds={f.knob.name: f.bounds for f in chosen if f.bounds})
    return table


def _separated(table: pd.DataFrame, method: str) -> bool | None:
    """Whether the first knob's interval lies above the second's (None: fewer knobs)."""
    if len(table) < 2:
        return None
    key = "mu_star" if method == "morris" else "total"
    return bool(table.iloc[0][f"{key}_low"] > table.iloc[1][f"{key}_high"])


def sobol_points(game, base, chosen: list[Factor], n_base: int) -> tuple[np.ndarray, list]:
    """Saltelli's sample (SALib) of ``n_base`` base points, first-order and total
    indices only: ``n_base * (k + 2)`` points, each the rules it plays; a point the
    rules refuse cannot be left out of the design, so it is an error naming it."""
    from SALib.sample import sobol

    problem = _problem(chosen)
    x = sobol.sample(problem, n_base, calc_second_order=False, scramble=True, seed=0)
    points = []
    for point in x:
        rules = _rules_at(game, base, chosen, point)
        if rules is None:
            changes = {f.knob.name: f.value(v) for f, v in zip(chosen, point, strict=True)}
            raise UsageError(f"a Sobol point the rules refuse: {changes}; screen fewer "
                             "knobs (--knobs) or with --method morris, which skips them")
        points.append(rules)
    return x, points


def analyze_sobol(names: list[str], y: np.ndarray, seed: int) -> pd.DataFrame:
    """First-order and total Sobol indices of ``y`` with SALib's 95% bootstrap
    intervals, one row per knob, ranked by the total index."""
    from SALib.analyze import sobol

    problem = {"num_vars": len(names), "names": list(names),
               "bounds": [[0.0, 1.0]] * len(names)}
    found = sobol.analyze(problem, np.asarray(y, dtype=float), calc_second_order=False,
                          seed=seed)
    table = pd.DataFrame({
        "knob": names, "first": found["S1"],
        "first_low": found["S1"] - found["S1_conf"],
        "first_high": found["S1"] + found["S1_conf"],
        "total": found["ST"], "total_low": np.maximum(found["ST"] - found["ST_conf"], 0.0),
        "total_high": found["ST"] + found["ST_conf"]})
    return table.sort_values("total", ascending=False, ignore_index=True)


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
    where = (f"within {a['around']} steps of the design" if a.get("around") else
             "over each knob's whole range")
    if a.get("method") == "sobol":
        lines = [f"{game.name}: Sobol indices of {len(table)} knobs {where}, "
                 f"{a['points']} points ({a['trajectories']} base points, Saltelli), "
                 f"{a['games']:,} games a point (seed {a['seed']}, the same games at every "
                 f"point); {a['side']} win rate's variance",
                 f"  {'knob':{width}}  {'total':>6}  {'95% interval':>15}  "
                 f"{'first-order':>11}  {'95% interval':>15}"]
        for _, r in table.iterrows():
            lines.append(f"  {r['knob']:{width}}  {r['total']:6.3f}  [{r['total_low']:5.3f}, "
                         f"{r['total_high']:5.3f}]  {r['first']:11.3f}  "
                         f"[{r['first_low']:+.3f}, {r['first_high']:+.3f}]")
        notes = ["total: the share of the rate's variance the knob takes part in; "
                 "first-order: the share it makes alone"]
    else:
        lines = [f"{game.name}: Morris screening of {len(table)} knobs {where}, "
                 f"{a['trajectories']} walks on {a['levels']} levels, {a['games']:,} games a "
                 f"point (seed {a['seed']}, the same games at every point); {a['side']} win "
                 f"rate, points per knob's screened range",
                 f"  {'knob':{width}}  {'mu*':>7}  {'95% interval':>17}  {'sigma':>7}  "
                 f"{'mu':>7}"]
        for _, r in table.iterrows():
            lines.append(f"  {r['knob']:{width}}  {r['mu_star']:7.2f}  "
                         f"[{r['mu_star_low']:6.2f}, {r['mu_star_high']:6.2f}]  "
                         f"{r['sigma']:7.2f}  {r['mu']:+7.2f}")
        notes = ["mu*: mean absolute effect; sigma: its spread (large beside mu*: the knob "
                 "acts non-linearly or through other knobs); mu: the signed mean"]
    if a.get("bounds"):
        lines.append("screened ranges: " + ", ".join(f"{k} {lo:g}..{hi:g}" for k, (lo, hi)
                                                      in a["bounds"].items()))
    if a.get("separated") is False:
        lines.append(f"the leading two knobs' intervals overlap: which matters more is not "
                     f"settled; more {'base points' if a.get('method') == 'sobol' else 'walks'}"
                     " (--trajectories) or games would separate them")
    elif a.get("separated"):
        lines.append(f"{table.iloc[0]['knob']} leads: its interval lies above the next "
                     "knob's")
    if a.get("cut"):
        lines.append(a["cut"])
    return "\n".join(lines + notes)
