"""Rule knobs towards a target win rate (``simkit tune GAME --knobs A,B --target R``).

A designer asks for a setting whose win rate is the target, changed as little as
possible from the rules searched from (the rulebook's standard rules, or a preset). So a
setting's cost is its distance from the target in win-rate points plus, for each knob it
changes, ``CHANGE_POINTS`` and ``DISTANCE_POINTS`` per whole range moved: of two settings
equally near the target, the one nearer the book wins. Knob ranges can be narrowed
(``rubble_threshold=10..18``).

The search is optuna's TPE on the same training games, raced (successive halving, as in
``simkit.tune``); then the best distinct settings are played on validation games (the
next seed), the best there is polished one knob at a time on the same games (a pattern
search, halving its step), and the chosen setting and the runners-up are confirmed on
fresh games (the seed after) with intervals and the share of each way the games end. A
target the knobs cannot reach within their ranges is said so, with the rates the search
saw.

A target may also be a band, ``0.10..0.30``: every side (every tribe, in a game whose seats
hold tribes) within it, a setting's distance the win-rate points outside the band summed
over the sides; a seated game's settings are played under every rotation of the seats, so
that no tribe's rate is its seat's.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from simkit import stats
from simkit.arena import play_range
from simkit.errors import RulesError, UsageError
from simkit.screen import screenable
from simkit.sides import resolve_side, seatings
from simkit.tune import REDUCTION, check_sizes, rungs, suggest

#: win-rate points a setting pays for each knob it changes
CHANGE_POINTS = 0.1
#: and per whole range (of the knob as searched) it moves that knob
DISTANCE_POINTS = 1.0
#: settings played on the validation games, and the runners-up confirmed beside the best
VALIDATED, CONFIRMED = 5, 3
#: how near the target counts as reached (points), for the verdict line
NEAR = 3.0


@dataclass(frozen=True)
class Searched:
    """A knob as searched: its declaration and the range (or values) searched."""

    knob: object
    low: object = None
    high: object = None

    @property
    def name(self) -> str:
        return self.knob.name

    @property
    def numeric(self) -> bool:
        return self.knob.type is not bool and self.knob.choices is None

    @property
    def span(self) -> float:
        return float(self.high - self.low) if self.numeric else 1.0

    def suggest(self, trial):
        if not self.numeric:
            return suggest(trial, self.knob)
        if self.knob.type is int:
            return trial.suggest_int(self.name, int(self.low), int(self.high))
        return trial.suggest_float(self.name, self.low, self.high, step=self.knob.step)

    def clip(self, value):
        """``value`` moved into the range searched (the search's first trial)."""
        return min(max(value, self.low), self.high) if self.numeric else value

    def distance(self, value, base) -> float:
        if value == base:
            return 0.0
        if not self.numeric:
            return 1.0
        return abs(float(value) - float(base)) / self.span if self.span else 0.0


def parse_knobs(game, specs: list[str]) -> list[Searched]:
    """``["rubble_threshold=10..18", "coronela_threshold"]`` -> the knobs searched, a
    range narrowed where given (within the declared one); one clear error otherwise."""
    out = []
    for spec in specs:
        name, _, narrowed = spec.partition("=")
        knob = game.Rules.knob(name.strip())  # unknown: RulesError naming the knobs
        if not screenable(knob):
            raise UsageError(f"knob {knob.name!r} of {game.name} has no range or choices")
        if not narrowed:
            low, high = knob.range if knob.range is not None else (None, None)
            out.append(Searched(knob, low, high))
            continue
        if knob.range is None:
            raise UsageError(f"--knobs {spec}: {knob.name} takes {knob.allowed}; only a knob "
                             "with a range can be narrowed (NAME=LOW..HIGH)")
        low_text, dots, high_text = narrowed.partition("..")
        if not dots:
            raise UsageError(f"--knobs {spec}: a narrowed range is NAME=LOW..HIGH, within "
                             f"{knob.allowed}")
        low, high = knob.parse(low_text), knob.parse(high_text)
        if low >= high:
            raise UsageError(f"--knobs {spec}: LOW must be below HIGH (within {knob.allowed})")
        out.append(Searched(knob, low, high))
    names = [s.name for s in out]
    if len(set(names)) != len(names) or not names:
        raise UsageError(f"--knobs names each knob once, got {', '.join(names) or 'none'}")
    return out


def cost(setting: dict, base, searched: list[Searched]) -> float:
    """The points a setting pays for its changes from ``base``."""
    total = 0.0
    for s in searched:
        moved = s.distance(setting[s.name], getattr(base, s.name))
        if moved:
            total += CHANGE_POINTS + DISTANCE_POINTS * moved
    return total


@dataclass(frozen=True)
class Target:
    """What settings are searched towards: one category's win rate at ``low`` (a point,
    ``low == high``), or every category's within ``[low, high]`` (a band)."""

    column: str
    categories: tuple[str, ...]
    low: float
    high: float

    @property
    def band(self) -> bool:
        return self.low < self.high

    def miss(self, rates: dict[str, float]) -> float:
        """Win-rate points outside the target, summed over the categories."""
        return 100 * sum(max(self.low - r, r - self.high, 0.0) for r in rates.values())

    def text(self) -> str:
        if self.band:
            return (f"every {self.column.replace('winner', 'side')} within "
                    f"{100 * self.low:.1f}%-{100 * self.high:.1f}%")
        return f"{self.categories[0]} {100 * self.low:.1f}%"


def parse_target(text: str) -> float | tuple[float, float]:
    """``--target``: a win rate (``0.35``) or a band every side is to lie in
    (``0.10..0.30``)."""
    low_text, dots, high_text = text.partition("..")
    try:
        if not dots:
            return float(text)
        return float(low_text), float(high_text)
    except ValueError:
        raise UsageError(f"--target is a win rate (0.35) or a band LOW..HIGH (0.10..0.30), "
                         f"got {text!r}") from None


def _target(game, base, target, side: str | None) -> Target:
    """The Target for ``target`` (a rate or a (low, high) band) and ``side``."""
    if isinstance(target, tuple):
        low, high = target
        if not 0 <= low < high <= 1:
            raise UsageError(f"--target LOW..HIGH is a band of win rates with 0 <= LOW < "
                             f"HIGH <= 1, got {low}..{high}")
        if side is not None:
            raise UsageError("a band (--target LOW..HIGH) is over every side; leave out "
                             "--side")
        return Target("winner", tuple(game.categories_in_play(base, "winner")), low, high)
    if not 0 < target < 1:
        raise UsageError(f"--target is a win rate between 0 and 1 (exclusive), got {target}")
    column, category = resolve_side(game, side)
    return Target(column, (category,), target, target)


class _Played:
    """The games played so far per setting (training, validation, fresh), so a setting
    met again is not played again: each game's target column and end reason, under each
    seating played (``rotate``: every rotation of the seats; else the stated one)."""

    def __init__(self, game, policy, target: Target, n_jobs: int, rotate: bool = False):
        self.game, self.policy, self.target, self.n_jobs = game, policy, target, n_jobs
        self.rotate = rotate
        self.games: dict[tuple, list[dict[str, np.ndarray]]] = {}

    def seatings(self, rules) -> list:
        return seatings(self.game, rules) if self.rotate else [rules]

    def columns(self, rules, seed: int, n: int) -> dict[str, np.ndarray]:
        """Games ``0..n-1`` of ``seed`` under each seating, one after the other."""
        key = (tuple(sorted(rules.to_dict().items())), seed)
        have = self.games.setdefault(key, [])
        for k, seated in enumerate(self.seatings(rules)):
            done = have[k]["code"].size if k < len(have) else 0
            if done >= n:
                continue
            more = play_range(self.game, seated, self.policy, seed, done, n, self.n_jobs)
            part = {"code": more[self.target.column], "end": more["end_reason"]}
            if k < len(have):
                have[k] = {c: np.concatenate([have[k][c], part[c]]) for c in part}
            else:
                have.append(part)
        return {c: np.concatenate([h[c][:n] for h in have]) for c in ("code", "end")}

    def wins(self, rules, seed: int, n: int) -> dict[str, np.ndarray]:
        """Each target category's wins over the games (booleans)."""
        codes = self.columns(rules, seed, n)["code"]
        every = self.game.outcome_columns[self.target.column].categories
        return {c: codes == every.index(c) for c in self.target.categories}

    def rates(self, rules, seed: int, n: int) -> dict[str, float]:
        return {c: float(w.mean()) for c, w in self.wins(rules, seed, n).items()}

    def rate(self, rules, seed: int, n: int) -> float:
        """The single target category's rate (a point target)."""
        return self.rates(rules, seed, n)[self.target.categories[0]]

    def miss(self, rules, seed: int, n: int) -> float:
        return self.target.miss(self.rates(rules, seed, n))


def tune_rules(game, knobs: list[str], target, *, side: str | None = None,
               rules=None, policy=None, trials: int = 60, n_games: int = 2000,
               check_games: int | None = None, seed: int = 0, n_jobs: int = 1, out=None,
               data=None, budget: float | None = None, say=None) -> pd.DataFrame:
    """Settings of ``knobs`` (``NAME`` or ``NAME=LOW..HIGH``) whose ``side`` win rate
    comes closest to ``target`` (0-1), or, ``target`` a ``(low, high)`` band, whose every
    side's rate lies nearest the band (a seated game's under every rotation of the seats,
    ``n_games`` game indices each), at the least cost of change: see the module's
    docstring. Returns the chosen setting, then the runners-up, confirmed on
    ``check_games`` fresh games (default ``4 * n_games``). ``say`` is told the estimated
    time first; ``budget`` (seconds) cuts the games in proportion to fit it."""
    from simkit import games as registry

    check_sizes(trials, n_games)
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    base = game.resolve_rules(rules)
    aim = _target(game, base, target, side)
    searched = parse_knobs(game, knobs)
    for s in searched:
        _check_movable(game, base, s)
    game.warm_up()
    rotate = aim.band and getattr(game, "rotate_seats", None) is not None
    played = _Played(game, policy, aim, n_jobs, rotate)
    seated = len(played.seatings(base))
    check_games = check_games or 4 * n_games
    trials, n_games, check_games, cut = _sized(game, base, policy, searched, trials, n_games,
                                               check_games, n_jobs, budget, say, seated)
    study = _search(game, base, searched, played, trials, n_games, seed, out)
    seen = [t.user_attrs["miss"] for t in study.trials if "miss" in t.user_attrs]
    chosen = _validated(game, base, searched, study, played, check_games, seed + 1)
    polished = _polish(game, base, searched, chosen[0], played, check_games, seed + 1)
    rows = [polished] + [c for c in chosen if c != polished][:CONFIRMED - 1]
    table = _confirmed(game, base, searched, rows, played, check_games, (seed + 1, seed + 2))
    table.attrs.update(side=aim.categories[0], target=aim.low if not aim.band else
                       (aim.low, aim.high), aim=asdict(aim), seatings=seated,
                       trials=len(study.trials), games=n_games, check_games=check_games,
                       seed=seed, nearest=min(seen, default=math.nan),
                       seen=_seen_rates(study, aim), knobs=[s.name for s in searched],
                       ranges={s.name: (s.low, s.high) for s in searched if s.numeric},
                       cut=cut)
    if out is not None:
        _figure(study, out)
    return table


def _seen_rates(study, aim: Target) -> tuple[float, float]:
    """The lowest and highest rate of the point target's side the search saw."""
    seen = [t.user_attrs["rates"][aim.categories[0]] for t in study.trials
            if "rates" in t.user_attrs]
    return min(seen, default=math.nan), max(seen, default=math.nan)


#: pattern-search moves the polish plays per numeric knob, about
POLISH_MOVES = 6


def _sized(game, base, policy, searched, trials, n_games, check_games, n_jobs, budget, say,
           seated: int = 1):
    """Trials, training and check games cut to fit ``budget`` (``timing.size_search``);
    each game index is played under ``seated`` seatings."""
    from simkit.timing import TRIAL_OVERHEAD, check_budget, size_search, speed
    from simkit.tune import RACED_SHARE

    check_budget(budget)
    if say is None and budget is None:
        return trials, n_games, check_games, None
    checks = VALIDATED + POLISH_MOVES * sum(s.numeric for s in searched) + CONFIRMED
    trials, games, check_games, cuts = size_search(
        f"the search of {len(searched)} knobs", budget, trials, TRIAL_OVERHEAD,
        speed(game, base, policy, n_jobs),
        lambda t: seated * (t * RACED_SHARE * n_games + checks * check_games),
        n_games, check_games, say)
    return trials, games, check_games, "; ".join(cuts) or None


def _check_movable(game, base, searched: Searched) -> None:
    """A knob searched must admit some other value than the base's with the other knobs
    as they are: else a UsageError before any trial."""
    knob = searched.knob
    if searched.numeric:
        values = list(np.linspace(searched.low, searched.high, 4))
        values = [knob.type(round(v)) if knob.type is int else float(v) for v in values]
    else:
        values = [False, True] if knob.type is bool else list(knob.choices)
    values = [v for v in values if v != getattr(base, knob.name)]
    for value in values:
        try:
            game.resolve_rules(base.replace({knob.name: value}))
            return
        except RulesError:
            continue
    raise UsageError(f"knob {knob.name!r} of {game.name} cannot be tuned from these rules: "
                     f"its values {values} are refused with the other knobs as they are")


def _search(game, base, searched, played, trials, n_games, seed, out):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = None
    if out is not None:
        from pathlib import Path

        Path(out).mkdir(parents=True, exist_ok=True)
        storage = f"sqlite:///{Path(out) / 'study.db'}"
    study = optuna.create_study(
        study_name="simkit", storage=storage, direction="minimize", load_if_exists=True,
        sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                           n_startup_trials=min(10, max(3, trials // 4))),
        pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=rungs(n_games)[0],
                                                      reduction_factor=REDUCTION))
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(t.number, state=optuna.trial.TrialState.FAIL)  # a killed run's trial
    if not study.trials:
        study.enqueue_trial({s.name: s.clip(getattr(base, s.name)) for s in searched})

    def objective(trial):
        setting = {s.name: s.suggest(trial) for s in searched}
        try:
            candidate = game.resolve_rules(base.replace(setting))
        except RulesError as exc:
            raise optuna.TrialPruned(str(exc)) from None
        price = cost(setting, base, searched)
        for rung in rungs(n_games):
            rates = played.rates(candidate, seed, rung)
            miss = played.target.miss(rates)
            trial.set_user_attr("rates", rates)
            trial.set_user_attr("miss", miss)
            trial.report(miss + price, rung)
            if rung < n_games and trial.should_prune():
                raise optuna.TrialPruned()
        return miss + price

    counted = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    done = len(study.get_trials(deepcopy=False, states=counted))
    study.optimize(objective, n_trials=max(trials - done, 0) if out is not None else trials)
    return study


def _distinct(game, base, searched, settings) -> list[dict]:
    """Settings that play differently (by the rules as played), in the order given."""
    out, seen = [], set()
    for setting in settings:
        try:
            played = game.effective(game.resolve_rules(base.replace(setting)))
        except RulesError:
            continue
        key = tuple(sorted(played.to_dict().items()))
        if key not in seen:
            seen.add(key)
            out.append(setting)
    return out


def _score(game, base, searched, setting, played, n, seed) -> float:
    miss = played.miss(game.resolve_rules(base.replace(setting)), seed, n)
    return miss + cost(setting, base, searched)


def _validated(game, base, searched, study, played, n, seed) -> list[dict]:
    """The best distinct settings of the search, ranked again on ``n`` validation games."""
    done = sorted((t for t in study.trials if t.state.name == "COMPLETE"),
                  key=lambda t: t.value)
    if not done:
        raise UsageError("no trial passed the rules' checks; widen the knobs searched")
    settings = _distinct(game, base, searched, [t.params for t in done])[:VALIDATED]
    return sorted(settings, key=lambda s: _score(game, base, searched, s, played, n, seed))


def _polish(game, base, searched, setting, played, n, seed) -> dict:
    """A pattern search from ``setting`` on the validation games: each numeric knob up
    and down by a step (a quarter of its range, halved while no move helps, down to the
    knob's own step), a move kept when it lowers the cost."""
    best = dict(setting)
    best_score = _score(game, base, searched, best, played, n, seed)
    for s in (s for s in searched if s.numeric):
        unit = 1 if s.knob.type is int else (s.knob.step or s.span / 100)
        step = max(1, int(s.span // 4)) if s.knob.type is int else max(unit, s.span / 4)
        while step >= unit:
            moved = False
            for sign in (1, -1):
                value = best[s.name] + sign * step
                value = int(round(value)) if s.knob.type is int else \
                    round(round(value / unit) * unit, 10)
                if not s.low <= value <= s.high:
                    continue
                trial = {**best, s.name: value}
                try:
                    score = _score(game, base, searched, trial, played, n, seed)
                except RulesError:
                    continue
                if score < best_score - 1e-9:
                    best, best_score, moved = trial, score, True
                    break
            if not moved:
                step = step / 2 if s.knob.type is not int else step // 2
    return best


def _confirmed(game, base, searched, settings, played, n, seeds) -> pd.DataFrame:
    """Each setting on ``n`` fresh games (``seeds``: the validation seed, the fresh one):
    a point target's rate, or each side's of a band, with Wilson intervals."""
    validation, seed = seeds
    aim = played.target
    rows = []
    ends = game.outcome_columns["end_reason"].categories
    for setting in settings:
        rules = game.resolve_rules(base.replace(setting))
        end = played.columns(rules, seed, n)["end"]
        shares = np.bincount(end, minlength=len(ends)) / end.size
        row = {**setting,
               "knobs_changed": sum(s.distance(setting[s.name], getattr(base, s.name))
                                    > 0 for s in searched),
               "cost": cost(setting, base, searched)}
        wins = played.wins(rules, seed, n)
        if aim.band:
            row["validation_miss"] = played.miss(rules, validation, n)
            row["miss"] = played.miss(rules, seed, n)
            for c, w in wins.items():
                interval = stats.wilson(int(w.sum()), w.size)
                row |= {f"rate_{c}": interval.estimate, f"low_{c}": interval.low,
                        f"high_{c}": interval.high}
            row["on_target"] = row["miss"] == 0
        else:
            w = wins[aim.categories[0]]
            interval = stats.wilson(int(w.sum()), w.size)
            row |= {"validation_rate": played.rate(rules, validation, n),
                    "rate": interval.estimate, "low": interval.low, "high": interval.high,
                    "on_target": bool(interval.low <= aim.low <= interval.high)}
        row["end_reasons"] = ", ".join(f"{e} {100 * s:.0f}%" for e, s in
                                       zip(ends, shares, strict=True) if s > 0)
        rows.append(row)
    return pd.DataFrame(rows)  # the chosen first (on the validation games), then the rest


def reach(table: pd.DataFrame) -> str:
    """Whether the target was reached, and if not, whether it is within the knobs' reach."""
    a = table.attrs
    aim, best = Target(**a["aim"]), table.iloc[0]
    if aim.band:
        if best["on_target"]:
            return f"reached: {aim.text()} on fresh games"
        if a["nearest"] > 0:
            return (f"out of reach: no setting the search saw had {aim.text()} (the nearest "
                    f"{a['nearest']:.2f} points outside, summed); widen the ranges or search "
                    "other knobs")
        return (f"not reached: the chosen setting is {best['miss']:.2f} points outside the "
                "band on fresh games (summed over the sides); search on more games")
    target = aim.low
    low, high = a["seen"]
    if best["on_target"] or abs(best["rate"] - target) * 100 <= NEAR:
        return (f"reached: {100 * best['rate']:.2f}% on fresh games, "
                f"{100 * abs(best['rate'] - target):.2f} points from the target")
    if not low <= target <= high:
        return (f"out of reach: the target {100 * target:.1f}% lies outside every rate the "
                f"search saw within these ranges ({100 * low:.1f}% to {100 * high:.1f}%); "
                "widen the ranges or search other knobs")
    return (f"not reached: the nearest setting is {100 * abs(best['rate'] - target):.2f} "
            "points away on fresh games; search longer (--trials) or on more games")


def rules_summary(game, table: pd.DataFrame) -> str:
    """A rules search as ``simkit tune --knobs`` prints it."""
    a = table.attrs
    aim = Target(**a["aim"])
    ranges = ", ".join(f"{k} {lo}..{hi}" for k, (lo, hi) in a["ranges"].items())
    seated = (f" under each of {a['seatings']} seatings" if a["seatings"] > 1 else "")
    lines = [f"{game.name}: {a['trials']} trials towards {aim.text()} ({a['games']:,} "
             f"training games a trial{seated}, raced; each change costs {CHANGE_POINTS} "
             f"points and {DISTANCE_POINTS} per whole range moved"
             f"{'; ranges ' + ranges if ranges else ''})",
             f"the chosen setting and the runners-up on {a['check_games']:,} fresh games"
             f"{seated} (seed {a['seed'] + 2}):"]
    for _, r in table.iterrows():
        setting = ", ".join(f"{k}={r[k]}" for k in a["knobs"])
        head = f"  {setting}  ({r['knobs_changed']} changed, cost {r['cost']:.2f}): "
        if aim.band:
            lines.append(head + f"validation {r['validation_miss']:.2f} points outside, "
                         f"fresh {r['miss']:.2f}{'  holds the band' if r['on_target'] else ''}")
            lines.append("      " + ", ".join(
                f"{c} {100 * r[f'rate_{c}']:.1f}% [{100 * r[f'low_{c}']:.1f}, "
                f"{100 * r[f'high_{c}']:.1f}]" for c in aim.categories))
        else:
            lines.append(head + f"validation {100 * r['validation_rate']:.2f}%, fresh "
                         f"{100 * r['rate']:.2f}% [{100 * r['low']:.2f}, "
                         f"{100 * r['high']:.2f}]{'  holds the target' if r['on_target'] else ''}")
        lines.append(f"      ends: {r['end_reasons']}")
    lines.append(reach(table))
    if a.get("cut"):
        lines.append(a["cut"])
    return "\n".join(lines)


def _figure(study, out) -> None:
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    done = [t for t in study.trials if t.value is not None]
    fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    ax.plot([t.number for t in done], [t.value for t in done], "o", ms=3, alpha=0.6)
    ax.plot([t.number for t in done], np.minimum.accumulate([t.value for t in done]), "-")
    ax.set(xlabel="trial", ylabel="points off the target + cost",
           title="optuna search (the same games each trial)")
    fig.savefig(Path(out) / "search.png", dpi=120)
    plt.close(fig)
