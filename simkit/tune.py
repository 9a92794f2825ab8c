"""The best play found for one side: a scan of each policy weight alone, then restarted,
raced searches, checked on fresh games (``scan_weights``, ``tune_policy``).

A tuned policy is only worth what its search could find, and a search whose answer
depends on its own seed finds luck. So:

1. **scan**: each weight alone at the ends of its range and a few points between, every
   other weight at the start's, on the same games as the start: every one-weight lever
   shows with its paired interval (``simkit tune GAME --side S --scan``);
2. **search**: ``restarts`` independent optuna studies, each with its own sampler seed
   (derived from the seed, the side, the round and the restart), each trying first the
   start, the scan's levers together and each lever alone; every trial plays a prefix of
   the same training games and goes on to the next rung only while it is among the best
   third of the trials that reached that rung (successive halving, optuna's pruner);
3. **check**: each restart's best is played on validation games (the next seed) against
   the start, paired; the best there is confirmed on fresh games (the seed after), so the
   figure printed is not the one it was chosen on. Every restart's result is printed:
   their spread says how sure the answer is.

With ``out`` each restart's study is kept (``out/restartK.db``, SQLite) with the scan and
the result (``out/result.json``): a rerun of a finished search prints its answer without
searching again unless ``trials`` asks for more; a trial a killed run left unfinished is
marked failed and not counted. Rule knobs towards a target win rate live in
``simkit.difficulty``.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simkit import stats
from simkit.arena import Arena, against, paired_gain, rotated
from simkit.errors import UsageError

#: points on a weight's range the scan plays (its ends and the points between)
SCAN_POINTS = 5
#: the samplers a search may use (optuna's TPE, or CMA-ES from the cmaes package)
SAMPLERS = ("tpe", "cmaes")
#: successive halving keeps the best 1 in REDUCTION trials at each rung
REDUCTION = 3


# -- the weights searched -----------------------------------------------------------------
def weight_values(knob, points: int = SCAN_POINTS) -> list:
    """The values a scan plays for ``knob``: both booleans, every choice, or ``points``
    evenly spaced values of its range (its ends included) in the knob's own steps."""
    if knob.type is bool:
        return [False, True]
    if knob.choices is not None:
        return list(knob.choices)
    lo, hi = knob.range
    raw = np.linspace(lo, hi, points)
    if knob.type is int:
        return list(dict.fromkeys(int(round(v)) for v in raw))
    step = knob.step or (hi - lo) / 100
    return list(dict.fromkeys(round(round(v / step) * step, 10) for v in raw))


def suggest(trial, knob):
    """A trial's value for ``knob`` within its range, in its own steps."""
    if knob.type is bool:
        return trial.suggest_categorical(knob.name, [False, True])
    if knob.choices is not None:
        return trial.suggest_categorical(knob.name, list(knob.choices))
    lo, hi = knob.range
    if knob.type is int:
        return trial.suggest_int(knob.name, lo, hi)
    return trial.suggest_float(knob.name, lo, hi, step=knob.step)


def policy_text(name: str, weights, values: dict) -> str:
    """``name`` with the ``values`` that differ from the weights' defaults (a --policy)."""
    default = weights()
    rounded = {k: round(v, 6) if isinstance(v, float) else v for k, v in values.items()}
    changed = {k: v for k, v in rounded.items() if v != getattr(default, k)}
    return name + (":" + ",".join(f"{k}={v}" for k, v in changed.items()) if changed else "")


def start_values(game, side: str, text: str, weights) -> dict:
    """Every weight ``text`` (a policy of ``side``, with or without weights) sets."""
    chosen = game.policy_choices({side: text})[game.sides.index(side)].weights
    return {k.name: getattr(chosen, k.name) for k in weights.knobs()}


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


@dataclass(frozen=True)
class Player:
    """The policy a search tunes: its side (seat) and name, its weights' class, and the
    start as a ``--policy`` text (the default weights unless given)."""

    side: str
    name: str
    weights: type
    start: str

    @property
    def knobs(self) -> list:
        """The weights searched and scanned: every one but a sight option (a policy that
        sees hidden information is no player's best response)."""
        return [k for k in self.weights.knobs() if k.role != "sight"]

    def text(self, values: dict) -> str:
        return policy_text(self.name, self.weights, values)


def player(game, side: str, start: str | None = None) -> Player:
    """The player of ``side`` a search tunes, from ``start`` (a policy text: its name
    and any weights; default the side's first policy with its default weights)."""
    name, weights = tunable(game, side, (start or "").partition(":")[0] or None)
    text = start if start and ":" in start else name
    game.resolve_policy({side: text})  # bad weights: one line naming what is allowed
    return Player(side, name, weights, text)


def check_sizes(trials: int, n_games: int) -> None:
    if trials < 1 or n_games < 1:
        raise UsageError(f"tuning needs --trials 1 or more and --games 1 or more, got "
                         f"--trials {trials} and --games {n_games}")


# -- 1. the scan ----------------------------------------------------------------------------
def scan_weights(arena: Arena, who: Player, n_games: int, seed: int,
                 points: int = SCAN_POINTS, replay: int = 0) -> pd.DataFrame:
    """Each weight of ``who`` alone at ``weight_values``, every other at the start's, on
    games ``0..n_games-1`` of ``seed``, against the start on the same games: one row per
    (weight, value) with the rate, the paired gain, its 95% interval, the p-value and
    Holm's adjusted p over the whole table (a lever: ``holm_p < 0.05`` and a gain).

    ``replay``: the largest gains (that many rows, each a gain) played again against the
    start on fresh games, ``n_games..2*n_games-1`` of the same seed (columns ``replay_*``,
    empty for the rest): the best of many values on the same games is partly the pick's
    luck; a gain that comes back on games it was not picked on is the player's."""
    start = start_values(arena.game, who.side, who.start, who.weights)
    reference = arena.scores(who.start, seed, 0, n_games)
    rows = []
    for knob in who.knobs:
        for value in weight_values(knob, points):
            if value == start[knob.name]:
                continue
            scores = arena.scores(who.text({**start, knob.name: value}), seed, 0, n_games)
            gain = paired_gain(scores, reference)
            d = gain.difference
            rows.append({"weight": knob.name, "value": value, "start": start[knob.name],
                         "rate": float(scores.mean()), "gain": d.estimate, "low": d.low,
                         "high": d.high, "p_value": gain.p_value})
    table = pd.DataFrame(rows, columns=["weight", "value", "start", "rate", "gain", "low",
                                        "high", "p_value"])
    if len(table):
        table["holm_p"] = stats.holm(table["p_value"].to_numpy())[0]
    else:
        table["holm_p"] = []
    table.attrs.update(side=arena.label, policy=who.start, games=n_games, seed=seed,
                       start_rate=float(reference.mean()), replayed=0)
    table = table.sort_values("gain", ascending=False, kind="stable").reset_index(drop=True)
    return _replay(table, arena, who, start, replay) if replay > 0 else table


REPLAY_COLUMNS = ("replay_gain", "replay_low", "replay_high", "replay_p")


def _replay(table: pd.DataFrame, arena: Arena, who: Player, start: dict,
            replay: int) -> pd.DataFrame:
    """``table`` with its ``replay`` largest gains played again on fresh games."""
    n_games, seed = table.attrs["games"], table.attrs["seed"]
    for column in REPLAY_COLUMNS:
        table[column] = float("nan")
    chosen = table.index[table["gain"] > 0][:replay]
    if len(chosen):
        reference = arena.scores(who.start, seed, n_games, 2 * n_games)
        for row in chosen:
            weight, value = table.at[row, "weight"], table.at[row, "value"]
            scores = arena.scores(who.text({**start, weight: value}), seed, n_games,
                                  2 * n_games)
            gain = paired_gain(scores, reference)
            d = gain.difference
            table.loc[row, list(REPLAY_COLUMNS)] = [d.estimate, d.low, d.high, gain.p_value]
    table.attrs["replayed"] = len(chosen)
    return table


def levers(scan: pd.DataFrame) -> dict:
    """Each weight's best value where the scan found it a gain (Holm's p below 0.05)."""
    found = scan[(scan["gain"] > 0) & (scan["holm_p"] < 0.05)]
    return {r.weight: _plain(r.value) for r in found.drop_duplicates("weight").itertuples()}


def scan_summary(scan: pd.DataFrame, shown: int = 12) -> str:
    """The scan as ``simkit tune --scan`` prints it: the largest gains and losses."""
    a = scan.attrs
    lines = [f"{a['side']}: each weight of {a['policy']} alone, {a['games']:,} games of "
             f"seed {a['seed']} (the same games for every value); the start wins "
             f"{100 * a['start_rate']:.2f}%",
             f"  {'weight':28} {'value':>8} {'start':>8} {'rate':>8}   "
             f"{'gain (paired, 95%)':>24}  Holm p"]
    for r in _shown(scan, shown).itertuples():
        lines.append(f"  {r.weight:28} {_fmt(r.value):>8} {_fmt(r.start):>8} "
                     f"{100 * r.rate:7.2f}%   {100 * r.gain:+7.2f} [{100 * r.low:+6.2f}, "
                     f"{100 * r.high:+6.2f}]  {r.holm_p:.3g}")
    found = levers(scan)
    best = scan.iloc[0] if len(scan) else None
    if found:
        lines.append("levers (a gain, Holm p < 0.05): "
                     + ", ".join(f"{k}={_fmt(v)}" for k, v in found.items()))
    elif best is not None:
        lines.append(f"no single weight beats the start (largest gain {100 * best.gain:+.2f} "
                     f"points, {best.weight}={_fmt(best.value)}, Holm p {best.holm_p:.3g})")
    return "\n".join(lines + _replay_lines(scan))


def _replay_lines(scan: pd.DataFrame) -> list[str]:
    """The replayed gains as the summary prints them, each with whether it came back."""
    a = scan.attrs
    if not a.get("replayed"):
        return []
    lines = [f"the {a['replayed']} largest gains played again on fresh games "
             f"({a['games']:,}-{2 * a['games'] - 1:,} of seed {a['seed']}), paired with the "
             "start there:"]
    for r in scan.dropna(subset=["replay_gain"]).itertuples():
        back = ("comes back" if r.replay_low > 0 else "gone: its interval reaches 0 or below"
                if r.replay_high >= 0 else "reversed")
        lines.append(f"  {r.weight + '=' + _fmt(r.value):37} {100 * r.replay_gain:+7.2f} "
                     f"[{100 * r.replay_low:+6.2f}, {100 * r.replay_high:+6.2f}] "
                     f"(picked at {100 * r.gain:+.2f}): {back}")
    return lines


def _shown(scan: pd.DataFrame, shown: int) -> pd.DataFrame:
    if len(scan) <= shown:
        return scan
    half = shown // 2
    return pd.concat([scan.head(shown - half), scan.tail(half)])


def _fmt(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _plain(value):
    """A numpy scalar as the Python value a weight takes."""
    return value.item() if hasattr(value, "item") else value


# -- 2. the search ------------------------------------------------------------------------
def sampler_seed(seed: int, side: str, round_: int, restart: int) -> int:
    """A restart's own sampler seed, from (seed, side, round, restart)."""
    key = [seed, zlib.crc32(side.encode()), round_, restart]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def rungs(n_games: int) -> list[int]:
    """The game counts a trial is judged at: a ninth, a third, all (successive halving
    with a reduction of ``REDUCTION``)."""
    first = max(1, math.ceil(n_games / REDUCTION ** 2))
    return sorted({first, min(n_games, first * REDUCTION), n_games})


class Race:
    """One restart's objective: a trial's weights played on growing prefixes of the
    training games, pruned at a rung where it is not among the best third. Scores of a
    policy already played are kept (a sampler may propose the same weights again)."""

    def __init__(self, arena: Arena, who: Player, n_games: int, seed: int, cache: dict):
        self.arena, self.who, self.n_games, self.seed = arena, who, n_games, seed
        self.cache = cache  # policy text -> scores of the games played so far

    def __call__(self, trial) -> float:
        import optuna

        text = self.who.text({k.name: suggest(trial, k) for k in self.who.knobs})
        trial.set_user_attr("policy", text)
        for rung in rungs(self.n_games):
            scores = self.played(text, rung)
            trial.report(float(scores.mean()), rung)
            if rung < self.n_games and trial.should_prune():
                raise optuna.TrialPruned()
        return float(self.played(text, self.n_games).mean())

    def played(self, text: str, games: int) -> np.ndarray:
        have = self.cache.get(text, np.zeros(0))
        if have.size < games:
            more = self.arena.scores(text, self.seed, have.size, games)
            have = self.cache[text] = np.concatenate([have, more])
        return have[:games]


def _sampler(kind: str, seed: int, trials: int, start: dict, who: Player):
    import optuna

    if kind == "cmaes":
        numeric = {k.name: start[k.name] for k in who.knobs
                   if k.type is not bool and k.choices is None}
        return optuna.samplers.CmaEsSampler(x0=numeric or None, seed=seed, n_startup_trials=0,
                                            with_margin=True, warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                      n_startup_trials=min(10, max(3, trials // 4)))


def _study(where: Path | None, sampler, n_games: int):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = None if where is None else f"sqlite:///{where}"
    study = optuna.create_study(
        study_name="simkit", storage=storage, direction="maximize", sampler=sampler,
        pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=rungs(n_games)[0],
                                                      reduction_factor=REDUCTION),
        load_if_exists=True)
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(t.number, state=optuna.trial.TrialState.FAIL)  # a killed run's trial
    return study


def finished(study) -> list:
    """The trials a search counts: completed or pruned (not failed, not killed)."""
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return study.get_trials(deepcopy=False, states=done)


def search(arena: Arena, who: Player, *, trials: int, n_games: int, seed: int,
           restart: int, round_: int = 0, sampler: str = "tpe", first: list[dict] = (),
           where: Path | None = None, cache: dict | None = None):
    """One restart: an optuna study of ``who``'s weights, ``trials`` counted trials in
    all (a kept study is topped up), the first ones ``first`` (the start, the levers)."""
    start = start_values(arena.game, who.side, who.start, who.weights)
    kind = _sampler(sampler, sampler_seed(seed, who.side, round_, restart), trials, start, who)
    study = _study(where, kind, n_games)
    if not study.trials:
        for values in [start, *first]:
            study.enqueue_trial({**start, **values}, skip_if_exists=True)
    todo = trials - len(finished(study))
    if todo > 0:
        study.optimize(Race(arena, who, n_games, seed, {} if cache is None else cache),
                       n_trials=todo)
    return study


# -- 3. the check on fresh games -------------------------------------------------------------
@dataclass
class Restart:
    """One restart's best: its policy, its training rate, and its validation rate and
    paired gain over the start (the next seed's games)."""

    restart: int
    sampler_seed: int
    policy: str
    trials: int
    pruned: int
    training_rate: float
    validation_rate: float = float("nan")
    gain: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")


@dataclass
class TunedPolicy:
    """A search's answer: the chosen policy, confirmed on fresh games against the start
    (paired), every restart's best, and the scan."""

    side: str
    start: str
    policy: str
    start_rate: float
    tuned_rate: float
    gain: float
    low: float
    high: float
    p_value: float
    fresh_games: int
    trials: int
    restarts: list[Restart] = field(default_factory=list)
    scan: pd.DataFrame | None = None
    settings: dict = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        return ("a gain" if self.low > 0 else "a loss" if self.high < 0 else
                "no difference the fresh games can tell")

    def record(self) -> dict:
        """One flat row (``--format csv|json``)."""
        return {k: v for k, v in asdict(self).items() if k not in ("restarts", "scan",
                                                                      "settings")}

    def to_json(self) -> dict:
        out = {**self.record(), "settings": self.settings,
               "restarts": [asdict(r) for r in self.restarts]}
        if self.scan is not None:
            out["scan"] = {"rows": self.scan.to_dict("records"), "attrs": self.scan.attrs}
        return out

    @classmethod
    def from_json(cls, data: dict) -> TunedPolicy:
        data = dict(data)
        restarts = [Restart(**r) for r in data.pop("restarts")]
        scan = data.pop("scan", None)
        table = None
        if scan is not None:
            table = pd.DataFrame(scan["rows"])
            table.attrs.update(scan["attrs"])
        return cls(**data, restarts=restarts, scan=table)


def check_restarts(arena: Arena, who: Player, studies: list, seeds: list[int],
                   n_games: int, seed: int) -> tuple[list[Restart], dict]:
    """Each restart's best played on ``n_games`` validation games of ``seed`` against the
    start, paired; the scores of each policy played."""
    reference = arena.scores(who.start, seed, 0, n_games)
    played = {who.start: reference}
    out = []
    for i, (study, sampler_seed_) in enumerate(zip(studies, seeds, strict=True)):
        best = study.best_trial
        text = best.user_attrs.get("policy") or who.text(best.params)
        if text not in played:
            played[text] = arena.scores(text, seed, 0, n_games)
        gain = paired_gain(played[text], reference).difference
        done = finished(study)
        out.append(Restart(i + 1, sampler_seed_, text, len(done),
                           sum(t.state.name == "PRUNED" for t in done), float(best.value),
                           float(played[text].mean()), gain.estimate, gain.low, gain.high))
    return out, played


#: the share of a trial's games successive halving plays on average (measured: 28-34 of
#: 40 trials pruned, most at the first rung)
RACED_SHARE = 0.4


def games_planned(arena: Arena, who: Player, *, trials: int, restarts: int, n_games: int,
                  check_games: int, scan_points: int) -> int:
    """The games a search will play (every entry of the arena counted): the scan, the
    raced trials, each restart's best and the start on the validation games, and the
    confirmation."""
    values = sum(len(weight_values(k, scan_points)) - 1 for k in who.knobs) if scan_points \
        else 0
    per_policy = len(arena.entries)
    scan = (values + 1) * n_games
    search = restarts * trials * RACED_SHARE * n_games
    checks = (restarts + 1) * check_games + 2 * check_games
    return int(per_policy * (scan + search + checks))


def _sized(arena, who, trials, restarts, n_games, check_games, scan_points, budget, say):
    """Trials, training and check games cut to fit ``budget`` (``timing.size_search``)."""
    from simkit.timing import TRIAL_OVERHEAD, check_budget, size_search, speed

    check_budget(budget)
    if say is None and budget is None:
        return trials, n_games, check_games, []
    entry = arena.entries[0]
    rate = speed(arena.game, entry.rules, {**entry.others, entry.side: who.start},
                 arena.n_jobs)
    return size_search(
        f"the search of {who.side}", budget, trials,
        TRIAL_OVERHEAD * restarts * len(arena.entries), rate,
        lambda t: games_planned(arena, who, trials=t, restarts=restarts, n_games=n_games,
                                check_games=check_games, scan_points=scan_points),
        n_games, check_games, say)


def tune(arena: Arena, who: Player, *, trials: int = 40, restarts: int = 3,
         n_games: int = 2000, check_games: int | None = None, seed: int = 0,
         round_: int = 0, sampler: str = "tpe", scan_points: int = SCAN_POINTS,
         out: Path | None = None, progress=None, budget: float | None = None) -> TunedPolicy:
    """The whole search for ``who`` in ``arena``: scan, ``restarts`` raced searches of
    ``trials`` trials on ``n_games`` training games of ``seed``, each restart's best on
    ``check_games`` validation games (seed + 1), the best confirmed on as many fresh
    games (seed + 2) against the start, paired. ``scan_points`` 0: no scan. ``progress``
    is told the estimated time first and each step; ``budget`` (seconds) cuts the games
    to fit it."""
    check_sizes(trials, n_games)
    if restarts < 1:
        raise UsageError(f"--restarts must be 1 or more, got {restarts}")
    if sampler not in SAMPLERS:
        raise UsageError(f"--sampler {sampler!r} is not one of: {', '.join(SAMPLERS)}")
    check_games = check_games or 2 * n_games
    trials, n_games, check_games, cuts = _sized(arena, who, trials, restarts, n_games,
                                                check_games, scan_points, budget, progress)
    for cut in cuts:
        (progress or (lambda text: None))(cut)
    settings = {"side": arena.label, "start": who.start, "trials": trials,
                "restarts": restarts, "games": n_games, "check_games": check_games,
                "seed": seed, "round": round_, "sampler": sampler,
                "question": _question(arena)}
    kept = _kept(out, settings)
    if kept is not None:
        return kept
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
    say = progress or (lambda text: None)
    scan = _kept_scan(out, settings)
    if scan is None and scan_points:
        say(f"scan: each weight alone on {n_games:,} games")
        scan = scan_weights(arena, who, n_games, seed, scan_points)
        _keep_scan(out, settings, scan)
    found = levers(scan) if scan is not None else {}
    first = ([found] if len(found) > 1 else []) + [{k: v} for k, v in found.items()]
    studies, seeds, cache = [], [], {}
    for r in range(restarts):
        say(f"search: restart {r + 1} of {restarts} ({trials} trials)")
        seeds.append(sampler_seed(seed, who.side, round_, r))
        where = None if out is None else Path(out) / f"restart{r + 1}.db"
        studies.append(search(arena, who, trials=trials, n_games=n_games, seed=seed,
                              restart=r, round_=round_, sampler=sampler, first=first,
                              where=where, cache=cache))
    say(f"check: each restart's best on {check_games:,} validation games")
    rows, played = check_restarts(arena, who, studies, seeds, check_games, seed + 1)
    chosen = max(rows, key=lambda r: (r.validation_rate, -len(r.policy))).policy
    say(f"confirm: the best on {check_games:,} fresh games")
    new = arena.scores(chosen, seed + 2, 0, check_games)
    old = arena.scores(who.start, seed + 2, 0, check_games)
    gain = paired_gain(new, old)
    d = gain.difference
    result = TunedPolicy(arena.label, who.start, chosen, float(old.mean()), float(new.mean()),
                         d.estimate, d.low, d.high, gain.p_value, check_games,
                         sum(r.trials for r in rows), rows, scan, settings)
    _keep(out, result)
    return result


def _question(arena: Arena) -> str:
    """What a kept search answered: the rules and the others' policies of each entry."""
    parts = []
    for e in arena.entries:
        changed = ", ".join(f"{k}={v}" for k, v in e.rules.changes().items()) or "standard"
        others = ", ".join(f"{s}={p}" for s, p in sorted(e.others.items()))
        parts.append(f"{e.weight:.4g} x {e.side} against {others or 'no one'} under {changed}")
    return "; ".join(parts)


def _kept(out: Path | None, settings: dict) -> TunedPolicy | None:
    """A finished search kept in ``out`` for the same question and at least as many
    trials: its answer (a rerun prints it without searching again)."""
    if out is None or not (Path(out) / "result.json").exists():
        return None
    kept = json.loads((Path(out) / "result.json").read_text())
    were = kept.get("settings", {})
    same = {k: v for k, v in settings.items() if k != "trials"}
    if {k: were.get(k) for k in same} != same:
        raise UsageError(f"{out} holds a search of another question ({were.get('question')}, "
                         f"seed {were.get('seed')}, {were.get('games')} games); give --out "
                         "another folder")
    if were.get("trials", 0) >= settings["trials"]:
        return TunedPolicy.from_json(kept)
    return None


def _kept_scan(out: Path | None, settings: dict) -> pd.DataFrame | None:
    path = None if out is None else Path(out) / "scan.json"
    if path is None or not path.exists():
        return None
    kept = json.loads(path.read_text())
    if kept["question"] != settings["question"] or kept["seed"] != settings["seed"]:
        return None
    table = pd.DataFrame(kept["rows"])
    table.attrs.update(kept["attrs"])
    return table


def _keep_scan(out: Path | None, settings: dict, scan: pd.DataFrame) -> None:
    if out is None:
        return
    Path(out).mkdir(parents=True, exist_ok=True)
    _write(Path(out) / "scan.json", {"question": settings["question"],
                                     "seed": settings["seed"],
                                     "rows": scan.to_dict("records"), "attrs": scan.attrs})


def _keep(out: Path | None, result: TunedPolicy) -> None:
    if out is not None:
        _write(Path(out) / "result.json", result.to_json())


def _write(path: Path, data: dict) -> None:
    """Write atomically: a killed run leaves the old file or the new one."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1, default=_plain))
    temporary.replace(path)


def summary(result: TunedPolicy) -> str:
    """A policy search as ``simkit tune`` prints it."""
    s = result.settings
    lines = [f"{result.side}: from {result.start}, {s['restarts']} restarts of "
             f"{s['trials']} trials ({s['sampler']}, successive halving) on {s['games']:,} "
             f"training games of seed {s['seed']}"]
    if result.scan is not None and len(result.scan):
        found = levers(result.scan)
        lines.append("  scan: " + (", ".join(f"{k}={_fmt(v)}" for k, v in found.items())
                                   if found else "no single weight beats the start"))
    lines.append(f"  each restart's best on {result.fresh_games:,} validation games "
                 f"(seed {s['seed'] + 1}), against the start, paired:")
    for r in result.restarts:
        lines.append(f"    restart {r.restart}: {100 * r.validation_rate:6.2f}%  gain "
                     f"{100 * r.gain:+6.2f} [{100 * r.low:+.2f}, {100 * r.high:+.2f}]  "
                     f"({r.trials} trials, {r.pruned} pruned)  {r.policy}")
    rates = [r.validation_rate for r in result.restarts]
    lines += [f"  spread of the restarts: {100 * (max(rates) - min(rates)):.2f} points",
              f"  --policy {_seat(result)}={result.policy}",
              f"  on {result.fresh_games:,} fresh games (seed {s['seed'] + 2}), paired: start "
              f"{100 * result.start_rate:.2f}%, tuned {100 * result.tuned_rate:.2f}%, "
              f"difference {100 * result.gain:+.2f} [{100 * result.low:+.2f}, "
              f"{100 * result.high:+.2f}] points (p = {result.p_value:.3g}): {result.verdict}"]
    return "\n".join(lines)


def _seat(result: TunedPolicy) -> str:
    return result.settings.get("seat", result.side)


# -- the commands' entry points ---------------------------------------------------------------
def arena_for(game, side: str, rules, others: dict | None = None, *, rotate: bool = False,
              n_jobs: int = 1) -> tuple[Arena, str]:
    """The arena a side (a side, a seat, or a tribe) is tuned in, and the seat it plays:
    a tribe with ``rotate`` in every seating, its policy moving with it (``others``
    then name tribes); otherwise at its seat against ``others``."""
    if rotate:
        if not getattr(game, "seated", None) or side not in game.seated(rules):
            raise UsageError(f"--rotate-seats tunes a tribe of a seated game; {side!r} is "
                             f"not one in {game.name}")
        arena = rotated(game, side, rules, dict(others or {}), n_jobs)
        return arena, policy_side(game, side, rules)
    seat = policy_side(game, side, rules)
    arena = against(game, seat, rules, {s: p for s, p in (others or {}).items() if s != seat},
                    n_jobs)
    if side != seat:  # a tribe at its seat: its wins, as a tribe
        arena = Arena(game, arena.entries, ("winner", side), n_jobs)
    return arena, seat


def tune_policy(game, side: str, *, start: str | None = None, against_: dict | None = None,
                rules=None, trials: int = 40, restarts: int = 3, n_games: int = 2000,
                check_games: int | None = None, seed: int = 0, n_jobs: int = 1,
                sampler: str = "tpe", rotate: bool = False, out=None, data=None,
                progress=None, budget: float | None = None) -> TunedPolicy:
    """Tune ``side``'s policy (``start``: a policy text, default the side's first policy
    with its default weights) against ``against_`` (the other sides' policies, default
    theirs): see the module's docstring. ``side``: a side, a seat or a tribe (with
    ``rotate``, the tribe in every seating)."""
    from simkit import games as registry

    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    game.warm_up()
    arena, seat = arena_for(game, side, rules, against_, rotate=rotate, n_jobs=n_jobs)
    who = player(game, seat, start)
    result = tune(arena, who, trials=trials, restarts=restarts, n_games=n_games,
                  check_games=check_games, seed=seed, sampler=sampler,
                  out=None if out is None else Path(out), progress=progress, budget=budget)
    result.settings["seat"] = seat
    return result


def scan_policy(game, side: str, *, start: str | None = None, against_: dict | None = None,
                rules=None, n_games: int = 2000, seed: int = 0, n_jobs: int = 1,
                points: int = SCAN_POINTS, rotate: bool = False, data=None,
                budget: float | None = None, progress=None, replay: int = 0) -> pd.DataFrame:
    """``scan_weights`` for ``side`` (as ``tune_policy`` takes it), its games told to
    ``progress`` first and, given ``budget`` seconds, cut to fit it; ``replay``: its
    largest gains played again on fresh games (``scan_weights``)."""
    from simkit import games as registry
    from simkit.timing import Plan, announce, check_budget, fit, speed

    if n_games < 1:
        raise UsageError(f"the scan needs --games 1 or more, got {n_games}")
    if replay < 0:
        raise UsageError(f"--replay is how many gains to play again, 0 or more; got {replay}")
    check_budget(budget)
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    game.warm_up()
    arena, seat = arena_for(game, side, rules, against_, rotate=rotate, n_jobs=n_jobs)
    who = player(game, seat, start)
    say = progress or (lambda text: None)
    values = 1 + sum(len(weight_values(k, points)) - 1 for k in who.knobs)
    replays = min(replay, values - 1) + 1 if replay else 0  # the start's too
    rotations = len(arena.entries)
    rate = speed(game, rules, None, n_jobs)
    plan = Plan((values + replays) * rotations * n_games, rate)
    announce(f"the scan of {len(who.knobs)} weights ({values} settings of {n_games:,} games"
             + (f" under each of {rotations} rotations" if rotations > 1 else "")
             + (f", then up to {replays - 1} of them and the start again on as many fresh "
                "games" if replays else "") + ")", plan, say)
    n_games, cut = fit(budget, plan, n_games, "games a setting")
    if cut:
        say(cut)
    return scan_weights(arena, who, n_games, seed, points, replay)
