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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit import stats
from simkit.arena import play_range
from simkit.errors import RulesError, UsageError
from simkit.screen import screenable
from simkit.sides import resolve_side
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


class _Played:
    """The games played so far per setting (training, validation, fresh), so a setting
    met again is not played again; each game's win of the side and its end reason."""

    def __init__(self, game, policy, target: tuple[str, str], n_jobs: int):
        self.game, self.policy, self.target, self.n_jobs = game, policy, target, n_jobs
        self.games: dict[tuple, dict[str, np.ndarray]] = {}

    def columns(self, rules, seed: int, n: int) -> dict[str, np.ndarray]:
        key = (tuple(sorted(rules.to_dict().items())), seed)
        have = self.games.get(key)
        done = 0 if have is None else have["win"].size
        if done < n:
            more = play_range(self.game, rules, self.policy, seed, done, n, self.n_jobs)
            column, category = self.target
            code = self.game.outcome_columns[column].categories.index(category)
            part = {"win": more[column] == code, "end": more["end_reason"]}
            have = part if have is None else {k: np.concatenate([have[k], part[k]])
                                              for k in part}
            self.games[key] = have
        return {k: v[:n] for k, v in have.items()}

    def rate(self, rules, seed: int, n: int) -> float:
        return float(self.columns(rules, seed, n)["win"].mean())


def tune_rules(game, knobs: list[str], target: float, *, side: str | None = None,
               rules=None, policy=None, trials: int = 60, n_games: int = 2000,
               check_games: int | None = None, seed: int = 0, n_jobs: int = 1, out=None,
               data=None, budget: float | None = None, say=None) -> pd.DataFrame:
    """Settings of ``knobs`` (``NAME`` or ``NAME=LOW..HIGH``) whose ``side`` win rate
    comes closest to ``target`` (0-1), at the least cost of change: see the module's
    docstring. Returns the chosen setting, then the runners-up, confirmed on
    ``check_games`` fresh games (default ``4 * n_games``). ``say`` is told the estimated
    time first; ``budget`` (seconds) cuts the games in proportion to fit it."""
    from simkit import games as registry

    check_sizes(trials, n_games)
    if not 0 < target < 1:
        raise UsageError(f"--target is a win rate between 0 and 1 (exclusive), got {target}")
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    base = game.resolve_rules(rules)
    searched = parse_knobs(game, knobs)
    for s in searched:
        _check_movable(game, base, s)
    game.warm_up()
    played = _Played(game, policy, resolve_side(game, side), n_jobs)
    check_games = check_games or 4 * n_games
    trials, n_games, check_games, cut = _sized(game, base, policy, searched, trials, n_games,
                                               check_games, n_jobs, budget, say)
    study = _search(game, base, searched, target, played, trials, n_games, seed, out)
    seen = [t.user_attrs["rate"] for t in study.trials if "rate" in t.user_attrs]
    chosen = _validated(game, base, searched, study, target, played, check_games, seed + 1)
    polished = _polish(game, base, searched, chosen[0], target, played, check_games, seed + 1)
    rows = [polished] + [c for c in chosen if c != polished][:CONFIRMED - 1]
    table = _confirmed(game, base, searched, rows, target, played, check_games,
                       (seed + 1, seed + 2))
    table.attrs.update(side=played.target[1], target=target, trials=len(study.trials),
                       games=n_games, check_games=check_games, seed=seed,
                       seen=(min(seen, default=math.nan), max(seen, default=math.nan)),
                       knobs=[s.name for s in searched],
                       ranges={s.name: (s.low, s.high) for s in searched if s.numeric},
                       cut=cut)
    if out is not None:
        _figure(study, out)
    return table


#: pattern-search moves the polish plays per numeric knob, about
POLISH_MOVES = 6


def _sized(game, base, policy, searched, trials, n_games, check_games, n_jobs, budget, say):
    """Trials, training and check games cut to fit ``budget`` (``timing.size_search``)."""
    from simkit.timing import TRIAL_OVERHEAD, check_budget, size_search, speed
    from simkit.tune import RACED_SHARE

    check_budget(budget)
    if say is None and budget is None:
        return trials, n_games, check_games, None
    checks = VALIDATED + POLISH_MOVES * sum(s.numeric for s in searched) + CONFIRMED
    trials, games, check_games, cuts = size_search(
        f"the search of {len(searched)} knobs", budget, trials, TRIAL_OVERHEAD,
        speed(game, base, policy, n_jobs),
        lambda t: t * RACED_SHARE * n_games + checks * check_games,
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


def _search(game, base, searched, target, played, trials, n_games, seed, out):
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
            rate = played.rate(candidate, seed, rung)
            trial.set_user_attr("rate", rate)
            trial.report(100 * abs(rate - target) + price, rung)
            if rung < n_games and trial.should_prune():
                raise optuna.TrialPruned()
        return 100 * abs(rate - target) + price

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


def _score(game, base, searched, setting, target, played, n, seed) -> float:
    rate = played.rate(game.resolve_rules(base.replace(setting)), seed, n)
    return 100 * abs(rate - target) + cost(setting, base, searched)


def _validated(game, base, searched, study, target, played, n, seed) -> list[dict]:
    """The best distinct settings of the search, ranked again on ``n`` validation games."""
    done = sorted((t for t in study.trials if t.state.name == "COMPLETE"),
                  key=lambda t: t.value)
    if not done:
        raise UsageError("no trial passed the rules' checks; widen the knobs searched")
    settings = _distinct(game, base, searched, [t.params for t in done])[:VALIDATED]
    return sorted(settings, key=lambda s: _score(game, base, searched, s, target, played,
                                                 n, seed))


def _polish(game, base, searched, setting, target, played, n, seed) -> dict:
    """A pattern search from ``setting`` on the validation games: each numeric knob up
    and down by a step (a quarter of its range, halved while no move helps, down to the
    knob's own step), a move kept when it lowers the cost."""
    best = dict(setting)
    best_score = _score(game, base, searched, best, target, played, n, seed)
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
                    score = _score(game, base, searched, trial, target, played, n, seed)
                except RulesError:
                    continue
                if score < best_score - 1e-9:
                    best, best_score, moved = trial, score, True
                    break
            if not moved:
                step = step / 2 if s.knob.type is not int else step // 2
    return best


def _confirmed(game, base, searched, settings, target, played, n, seeds) -> pd.DataFrame:
    """Each setting on ``n`` fresh games (``seeds``: the validation seed, the fresh one)."""
    validation, seed = seeds
    rows = []
    ends = game.outcome_columns["end_reason"].categories
    for setting in settings:
        rules = game.resolve_rules(base.replace(setting))
        columns = played.columns(rules, seed, n)
        wins = columns["win"]
        interval = stats.wilson(int(wins.sum()), wins.size)
        shares = np.bincount(columns["end"], minlength=len(ends)) / wins.size
        rows.append({**setting,
                     "knobs_changed": sum(s.distance(setting[s.name], getattr(base, s.name))
                                          > 0 for s in searched),
                     "cost": cost(setting, base, searched),
                     "validation_rate": played.rate(rules, validation, n),
                     "rate": interval.estimate, "low": interval.low, "high": interval.high,
                     "on_target": bool(interval.low <= target <= interval.high),
                     "end_reasons": ", ".join(f"{e} {100 * s:.0f}%" for e, s in
                                              zip(ends, shares, strict=True) if s > 0)})
    return pd.DataFrame(rows)  # the chosen first (on the validation games), then the rest


def reach(table: pd.DataFrame) -> str:
    """Whether the target was reached, and if not, whether it is within the knobs' reach."""
    a = table.attrs
    target, best = a["target"], table.iloc[0]
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
    ranges = ", ".join(f"{k} {lo}..{hi}" for k, (lo, hi) in a["ranges"].items())
    lines = [f"{game.name}: {a['trials']} trials towards {a['side']} "
             f"{100 * a['target']:.1f}% ({a['games']:,} training games a trial, raced; "
             f"each change costs {CHANGE_POINTS} points and {DISTANCE_POINTS} per whole "
             f"range moved{'; ranges ' + ranges if ranges else ''})",
             f"the chosen setting and the runners-up on {a['check_games']:,} fresh games "
             f"(seed {a['seed'] + 2}):"]
    for _, r in table.iterrows():
        setting = ", ".join(f"{k}={r[k]}" for k in a["knobs"])
        lines.append(f"  {setting}  ({r['knobs_changed']} changed, cost {r['cost']:.2f}): "
                     f"validation {100 * r['validation_rate']:.2f}%, fresh "
                     f"{100 * r['rate']:.2f}% [{100 * r['low']:.2f}, {100 * r['high']:.2f}]"
                     f"{'  holds the target' if r['on_target'] else ''}")
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
    ax.set(xlabel="trial", ylabel="|rate - target| (points) + cost",
           title="optuna search (the same games each trial)")
    fig.savefig(Path(out) / "search.png", dpi=120)
    plt.close(fig)
