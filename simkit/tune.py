"""Searches with optuna on common random numbers: a side's policy weights for its best
play (``tune_policy``), every side's in turn against the others' best
(``tune_alternate``), and rule knobs for a target win rate (``tune_rules``).

Every trial plays the same game indices of the same seed, so trials differ only by what
they set, not by their dice. What a search finds fits those games: the best settings are
checked again on fresh games (the next seed) with intervals, so a gain that only fits the
training games shows as such. With ``out``, the study is kept in ``out/study.db``
(SQLite) and a rerun continues it; the search's figure is ``out/search.png``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit import stats
from simkit.errors import RulesError, UsageError
from simkit.screen import Factor, levels_of, screenable
from simkit.sides import resolve_side, winner_categories

#: win-rate points a setting pays for each knob it changes from the base, so that of
#: two settings as close to the target, the one changing fewer knobs wins
POINTS_PER_KNOB = 0.2
#: settings checked on fresh games after a rules search
CHECKED = 3


def _study(out: Path | None, direction: str, seed: int):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        storage = f"sqlite:///{out / 'study.db'}"
    return optuna.create_study(study_name="simkit", storage=storage, direction=direction,
                               sampler=optuna.samplers.TPESampler(seed=seed),
                               load_if_exists=True)


def _suggest(trial, knob):
    """A trial's value for ``knob`` within its range (integers as integers)."""
    if knob.type is bool:
        return trial.suggest_categorical(knob.name, [False, True])
    if knob.choices is not None:
        return trial.suggest_categorical(knob.name, list(knob.choices))
    lo, hi = knob.range
    if knob.type is int:
        return trial.suggest_int(knob.name, lo, hi)
    return trial.suggest_float(knob.name, lo, hi, step=knob.step)


def _check_sizes(trials: int, n_games: int) -> None:
    if trials < 1 or n_games < 1:
        raise UsageError(f"tuning needs --trials 1 or more and --games 1 or more, got "
                         f"--trials {trials} and --games {n_games}")


def _wins(game, rules, policy, target: tuple[str, str], n_games: int, seed: int,
          n_jobs: int) -> np.ndarray:
    """Whether each game's ``target`` (an outcome column and its category: a side, a
    seat) won."""
    from simkit.runner import simulate

    column, category = target
    frame = simulate(game, n_games, seed=seed, rules=rules, policy=policy, n_jobs=n_jobs,
                     progress=False)
    return (frame[column] == category).to_numpy()


def _figure(study, out: Path | None, label: str) -> None:
    if out is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    done = [t for t in study.trials if t.value is not None]
    fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    ax.plot([t.number for t in done], [t.value for t in done], "o", ms=3, alpha=0.6)
    best = np.minimum.accumulate if study.direction.name == "MINIMIZE" else \
        np.maximum.accumulate
    ax.plot([t.number for t in done], best([t.value for t in done]), "-", lw=1.5)
    ax.set(xlabel="trial", ylabel=label, title="optuna search (the same games each trial)")
    fig.savefig(out / "search.png", dpi=120)
    plt.close(fig)


# -- rule knobs towards a target ------------------------------------------------------
def tune_rules(game, knobs: list[str], target: float, *, side: str | None = None,
               rules=None, policy=None, trials: int = 60, n_games: int = 2000,
               seed: int = 0, n_jobs: int = 1, out=None, data=None) -> pd.DataFrame:
    """Settings of ``knobs`` (within their ranges) whose ``side`` win rate comes closest
    to ``target`` (0-1), each knob changed from ``rules`` costing ``POINTS_PER_KNOB``.
    Returns the ``CHECKED`` best, each replayed on ``4 * n_games`` fresh games (seed + 1)
    with its Wilson 95% interval and whether the interval holds the target."""
    from simkit import games as registry

    _check_sizes(trials, n_games)
    if not 0 < target < 1:
        raise UsageError(f"--target is a win rate between 0 and 1 (exclusive), got {target}")
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    base = game.resolve_rules(rules)
    winning = resolve_side(game, side)
    chosen = [game.Rules.knob(name) for name in knobs]  # unknown: RulesError naming all
    for knob in chosen:
        _check_movable(game, base, knob)
    study = _study(None if out is None else Path(out), "minimize", seed)

    def objective(trial):
        import optuna

        try:
            candidate = game.resolve_rules(
                base.replace({k.name: _suggest(trial, k) for k in chosen}))
        except RulesError as exc:
            raise optuna.TrialPruned(str(exc)) from None
        rate = _wins(game, candidate, policy, winning, n_games, seed, n_jobs).mean()
        changed = sum(getattr(candidate, k.name) != getattr(base, k.name) for k in chosen)
        trial.set_user_attr("rate", float(rate))
        trial.set_user_attr("changed", int(changed))
        return 100 * abs(rate - target) + POINTS_PER_KNOB * changed

    study.optimize(objective, n_trials=trials)
    _figure(study, None if out is None else Path(out), "|rate - target| (points) + knobs")
    return _checked_settings(game, base, chosen, study, target, winning, policy,
                             n_games, seed, n_jobs)


def _check_movable(game, base, knob) -> None:
    """A knob searched must have a range (or choices) and some value other than the
    base's that the rules admit with the other knobs as they are: else a UsageError
    before any trial."""
    if not screenable(knob):
        raise UsageError(f"knob {knob.name!r} of {game.name} has no range or choices")
    values = [v for v in levels_of(Factor(knob), 4) if v != getattr(base, knob.name)]
    for value in values:
        try:
            game.resolve_rules(base.replace({knob.name: value}))
            return
        except RulesError:
            continue
    raise UsageError(f"knob {knob.name!r} of {game.name} cannot be tuned from these rules: "
                     f"its values {values} are refused with the other knobs as they are")


def _checked_settings(game, base, chosen, study, target, winning, policy, n_games, seed,
                      n_jobs) -> pd.DataFrame:
    done = sorted((t for t in study.trials if t.value is not None), key=lambda t: t.value)
    if not done:
        raise UsageError("no trial passed the rules' checks; widen the knobs searched")
    rows, seen = [], set()
    for trial in done:
        setting = {k.name: trial.params[k.name] for k in chosen}
        if tuple(setting.values()) in seen:
            continue
        seen.add(tuple(setting.values()))
        wins = _wins(game, base.replace(setting), policy, winning, 4 * n_games, seed + 1,
                     n_jobs)
        interval = stats.wilson(int(wins.sum()), wins.size)
        rows.append({**setting,
                     "knobs_changed": trial.user_attrs["changed"],
                     "training_rate": trial.user_attrs["rate"],
                     "holdout_rate": interval.estimate, "low": interval.low,
                     "high": interval.high,
                     "on_target": bool(interval.low <= target <= interval.high)})
        if len(rows) == CHECKED:
            break
    table = pd.DataFrame(rows)
    table.attrs.update(side=winning[1], target=target, trials=len(study.trials),
                       games=n_games, holdout_games=4 * n_games, seed=seed)
    return table


# -- a side's policy weights ------------------------------------------------------------
@dataclass(frozen=True)
class TunedPolicy:
    """A search's result: the policy as a ``--policy`` text, its training rate, and the
    holdout comparison with the default weights on fresh games (paired)."""

    side: str
    policy: str
    training_rate: float
    default_rate: float
    tuned_rate: float
    gain: stats.Comparison
    holdout_games: int
    trials: int

    def record(self) -> dict:
        """One flat row (``--format csv|json``)."""
        d = self.gain.difference
        return {"side": self.side, "policy": self.policy, "trials": self.trials,
                "training_rate": self.training_rate, "default_rate": self.default_rate,
                "tuned_rate": self.tuned_rate, "gain": d.estimate, "gain_low": d.low,
                "gain_high": d.high, "p_value": self.gain.p_value,
                "holdout_games": self.holdout_games}


def policy_summary(result: TunedPolicy) -> str:
    """A policy search as ``simkit tune`` prints it."""
    d = result.gain.difference
    verdict = ("a gain" if d.low > 0 else "a loss" if d.high < 0 else
               "no difference the holdout can tell")
    return "\n".join([
        f"{result.side}: {result.trials} trials; best on the training games "
        f"{100 * result.training_rate:.2f}%",
        f"  --policy {result.side}={result.policy}",
        f"  on {result.holdout_games:,} fresh games (next seed), paired: default "
        f"{100 * result.default_rate:.2f}%, tuned {100 * result.tuned_rate:.2f}%, "
        f"difference {100 * d.estimate:+.2f} [{100 * d.low:+.2f}, {100 * d.high:+.2f}] "
        f"points (McNemar p = {result.gain.p_value:.3g}): {verdict}"])


def rules_summary(game, table: pd.DataFrame) -> str:
    """A rules search as ``simkit tune --knobs`` prints it."""
    a = table.attrs
    knobs = [c for c in table.columns if c not in
             ("knobs_changed", "training_rate", "holdout_rate", "low", "high", "on_target")]
    lines = [f"{game.name}: {a['trials']} trials towards {a['side']} {100 * a['target']:.1f}% "
             f"({a['games']:,} games a trial; each knob changed costs {POINTS_PER_KNOB} "
             f"points); the best {len(table)} on {a['holdout_games']:,} fresh games:"]
    for _, r in table.iterrows():
        setting = ", ".join(f"{k}={r[k]}" for k in knobs)
        lines.append(f"  {setting}  ({r['knobs_changed']} changed): training "
                     f"{100 * r['training_rate']:.2f}%, fresh {100 * r['holdout_rate']:.2f}% "
                     f"[{100 * r['low']:.2f}, {100 * r['high']:.2f}]"
                     f"{'  holds the target' if r['on_target'] else ''}")
    return "\n".join(lines)


def policy_side(game, side: str, rules) -> str:
    """The side whose weights ``side`` names: a side of the game, or a tribe seated
    under ``rules`` (a Verrix tribe: its seat); else a UsageError naming both."""
    if side in game.sides:
        return side
    seated = list(game.seated(rules)) if getattr(game, "seated", None) else []
    if side in seated:
        return game.sides[seated.index(side)]
    tribes = f"; or a tribe seated: {', '.join(seated)}" if seated else ""
    raise UsageError(f"unknown side {side!r} for {game.name}; sides: "
                     f"{', '.join(game.sides)}{tribes}")


def tunable(game, side: str, name: str | None):
    """``(name, Weights)`` of ``side``'s policy ``name`` (default: the side's first), or a
    UsageError naming the policies with weights."""
    if side not in game.sides:
        raise UsageError(f"unknown side {side!r} for {game.name}; sides: "
                         f"{', '.join(game.sides)}")
    name = name or next(iter(game.policies[side]))
    weights = game.policy_weights.get(side, {}).get(name)
    if weights is None:
        found = ", ".join(f"{s}={p}" for s, ps in game.policy_weights.items() for p in ps)
        raise UsageError(f"policy {name!r} of {game.name} side {side!r} has no tunable "
                         f"weights; tunable: {found or '(none)'}")
    return name, weights


def _policy_text(name: str, weights, values: dict) -> str:
    """``name`` with the ``values`` that differ from the weights' defaults (a --policy)."""
    default = weights()
    rounded = {k: round(v, 3) if isinstance(v, float) else v for k, v in values.items()}
    changed = {k: v for k, v in rounded.items() if v != getattr(default, k)}
    return name + (":" + ",".join(f"{k}={v}" for k, v in changed.items()) if changed else "")


def _start_values(game, side: str, text: str, weights) -> dict:
    """The weights ``text`` (a resolved policy of ``side``) sets, every one named."""
    chosen = game.policy_choices({side: text})[game.sides.index(side)].weights
    return {k.name: getattr(chosen, k.name) for k in weights.knobs()}


def _search(game, side, name, weights, *, start: str, others: dict, rules, target,
            trials: int, n_games: int, seed: int, n_jobs: int, out: Path | None,
            top_up: bool = False):
    """An optuna study of ``side``'s ``name`` weights against ``others`` on the same
    ``n_games``, its first trial the weights of ``start``. ``top_up``: run only the
    trials a kept study lacks (a resumed --alternate), else ``trials`` more."""
    study = _study(out, "maximize", seed)
    if top_up:
        _same_question(study, others, rules, n_games, seed, out)
    if not study.trials:  # the search starts from the weights it is to beat
        study.enqueue_trial(_start_values(game, side, start, weights))

    def objective(trial):
        values = {k.name: _suggest(trial, k) for k in weights.knobs()}
        policy = {**others, side: _policy_text(name, weights, values)}
        return float(_wins(game, rules, policy, target, n_games, seed, n_jobs).mean())

    done = sum(t.value is not None for t in study.trials)
    study.optimize(objective, n_trials=max(trials - done, 0) if top_up else trials)
    _figure(study, out, f"{target[1]} win rate")
    return study


def _weights_target(game, side: str) -> tuple[str, str]:
    """What a policy search of ``side`` maximises: the side's own wins where it is a
    winner category (a side, a seat), else the game's first."""
    named = any(side in cats for cats in winner_categories(game).values())
    return resolve_side(game, side if named else None)


def tune_policy(game, side: str, *, policy: str | None = None, against=None, rules=None,
                trials: int = 40, n_games: int = 2000, holdout_games: int | None = None,
                seed: int = 0, n_jobs: int = 1, out=None, data=None) -> TunedPolicy:
    """The weights of ``side``'s ``policy`` (default: its first) that win most on the
    same ``n_games``, then checked against the default weights on ``holdout_games``
    fresh games (seed + 1; default ``2 * n_games``), paired (McNemar / Tango).
    ``side``: a side, or a tribe (its seat plays, the tribe's wins count).
    ``against``: the other sides' policies (default: theirs)."""
    from simkit import games as registry

    _check_sizes(trials, n_games)
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    target = _weights_target(game, side)  # a tribe: its wins, from the seat it holds
    side = policy_side(game, side, rules)
    name, weights = tunable(game, side, policy)
    others = dict(against or {})
    study = _search(game, side, name, weights, start=name, others=others, rules=rules,
                    target=target, trials=trials, n_games=n_games, seed=seed, n_jobs=n_jobs,
                    out=None if out is None else Path(out))
    tuned = _policy_text(name, weights, study.best_params)
    holdout = holdout_games or 2 * n_games
    new = _wins(game, rules, {**others, side: tuned}, target, holdout, seed + 1, n_jobs)
    old = _wins(game, rules, {**others, side: name}, target, holdout, seed + 1, n_jobs)
    return TunedPolicy(side, tuned, float(study.best_value), float(old.mean()),
                       float(new.mean()), stats.paired_difference(new, old), holdout,
                       len(study.trials))


# -- both sides in turn -----------------------------------------------------------------
def _alternating(game, rules, policy) -> dict[str, tuple[str, type]]:
    """Each side's policy to tune (``policy[side]``'s name, else the side's first with
    weights): a one-sided game, or a side with none, is a UsageError."""
    game.resolve_policy(policy)  # an unknown side or policy: one line naming the allowed
    playing = game.sides_in_play(rules)
    if len(playing) < 2:
        raise UsageError(f"--alternate tunes each side against the others; {game.name} "
                         f"has one side in play ({', '.join(playing)}): use --side")
    chosen = {}
    for side in playing:
        named = (policy or {}).get(side)
        if named is None:
            with_weights = list(game.policy_weights.get(side, {}))
            if not with_weights:
                found = ", ".join(f"{s}={p}" for s, ps in game.policy_weights.items()
                                  for p in ps)
                raise UsageError(f"--alternate needs weights for every side; {game.name} "
                                 f"side {side!r} has no policy with tunable weights "
                                 f"(tunable: {found or 'none'})")
            named = with_weights[0]
        chosen[side] = tunable(game, side, named.partition(":")[0])
    return chosen


@dataclass(frozen=True)
class Alternation:
    """``tune --alternate``: each side's tuned policy, and the balance on fresh games
    under the default weights and under the tuned ones (one row a side)."""

    table: pd.DataFrame
    rounds: int
    trials: int
    n_games: int
    holdout_games: int

    def text(self, game) -> str:
        lines = [f"{game.name}: {self.rounds} round(s) of tuning each side in turn against "
                 f"the others' best so far ({self.trials} trials a side a round, the same "
                 f"{self.n_games:,} games every trial); balance on {self.holdout_games:,} "
                 "fresh games (next seed), the same games for both:"]
        for r in self.table.itertuples():
            lines += [f"  {r.side}: --policy {r.side}={r.policy}",
                      f"    default weights {100 * r.default_rate:6.2f}% "
                      f"[{100 * r.default_low:.2f}, {100 * r.default_high:.2f}]   tuned "
                      f"{100 * r.tuned_rate:6.2f}% [{100 * r.tuned_low:.2f}, "
                      f"{100 * r.tuned_high:.2f}]   change {100 * r.change:+.2f} "
                      f"[{100 * r.change_low:+.2f}, {100 * r.change_high:+.2f}] points "
                      f"(paired, McNemar p = {r.p_value:.3g})"]
        return "\n".join(lines)


def tune_alternate(game, rounds: int, *, policy: dict | None = None, rules=None,
                   trials: int = 40, n_games: int = 2000, holdout_games: int | None = None,
                   seed: int = 0, n_jobs: int = 1, out=None, data=None) -> Alternation:
    """Tune each side's weights in turn against the others' current best, ``rounds``
    times: every trial of every study plays the same ``n_games`` of ``seed``, and each
    study starts from the side's current weights, so a side's best never falls on those
    games. Then both balances on ``holdout_games`` fresh games (seed + 1; default
    ``2 * n_games``): every side at its default weights, and every side tuned; each
    side's win rate with its Wilson interval and the paired change.

    ``policy``: {side: policy name} to tune (default: each side's first policy with
    weights). ``out``: one study a side a round, ``out/roundR-SIDE/study.db``; a rerun
    tops each up to ``trials`` and goes on (a finished run replays only the holdout)."""
    from simkit import games as registry

    _check_sizes(trials, n_games)
    if rounds < 1:
        raise UsageError(f"--alternate needs 1 round or more, got {rounds}")
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    chosen = _alternating(game, rules, policy)
    default = {side: name for side, (name, _) in chosen.items()}
    current = dict(default)
    for r in range(1, rounds + 1):
        for side, (name, weights) in chosen.items():
            where = None if out is None else Path(out) / f"round{r}-{side}"
            others = {s: p for s, p in current.items() if s != side}
            study = _search(game, side, name, weights, start=current[side], others=others,
                            rules=rules, target=_weights_target(game, side), trials=trials,
                            n_games=n_games, seed=seed, n_jobs=n_jobs, out=where,
                            top_up=True)
            current[side] = _policy_text(name, weights, study.best_params)
    holdout = holdout_games or 2 * n_games
    return Alternation(_balance(game, rules, default, current, holdout, seed + 1, n_jobs),
                       rounds, trials, n_games, holdout)


def _same_question(study, others: dict, rules, n_games: int, seed: int, where) -> None:
    """A kept study searched against these opponents under these rules on these games
    (a rerun with other rules, sizes or policies would resume a search of another
    question): else a UsageError."""
    changed = ", ".join(f"{k}={v}" for k, v in rules.changes().items()) or "standard"
    question = (", ".join(f"{s}={p}" for s, p in sorted(others.items()))
                + f" under {changed} rules on {n_games} games of seed {seed}")
    kept = study.user_attrs.get("question")
    if kept is None:
        study.set_user_attr("question", question)
    elif kept != question:
        raise UsageError(f"{where} holds a search against {kept}, not {question}; give "
                         "--out another folder")


def _balance(game, rules, default: dict, tuned: dict, n_games: int, seed: int,
             n_jobs: int) -> pd.DataFrame:
    from simkit.runner import simulate

    frames = {label: simulate(game, n_games, seed=seed, rules=rules, policy=policy,
                              n_jobs=n_jobs, progress=False)
              for label, policy in (("default", default), ("tuned", tuned))}
    rows = []
    for side in default:
        column, category = _weights_target(game, side)
        old, new = (frames[k][column].to_numpy() == category for k in ("default", "tuned"))
        before = stats.wilson(int(old.sum()), n_games)
        after = stats.wilson(int(new.sum()), n_games)
        change = stats.paired_difference(new, old)
        rows.append({"side": side, "policy": tuned[side],
                     "default_rate": before.estimate, "default_low": before.low,
                     "default_high": before.high, "tuned_rate": after.estimate,
                     "tuned_low": after.low, "tuned_high": after.high,
                     "change": change.difference.estimate,
                     "change_low": change.difference.low,
                     "change_high": change.difference.high, "p_value": change.p_value})
    return pd.DataFrame(rows)
