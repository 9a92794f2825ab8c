"""The game between the players (``simkit balance GAME``): the balance under the best
play found, not under one pair of scripts.

A two-sided game is a zero-sum game between its commanders (every game has a winner, so
one side's win rate is the other's loss). Each side keeps a population of policies: every
scripted policy it has, then each best response the tuner finds. Every pairing plays the
same fresh games (the cross-table, common random numbers); the linear program of the
matrix game (``scipy.optimize.linprog``) gives each side's equilibrium mixture and the
value, whose interval is a bootstrap over the games (the same resampled games for every
cell). Then each side's best response to the other's mixture is tuned (``simkit.tune``,
restarted and raced) and added, and the table is solved again, until neither side's best
response beats the mixture by more than its interval, or the rounds end: the double
oracle, or PSRO with a tuner as the oracle.

A seated game (Verrix, 2-5 tribes) is no two-player matrix: each tribe in turn tunes a
best response against the others' current policies, seats rotated (the tribe's policy
moves with it), until no tribe gains or the rounds end; each tribe's rate under the final
profile is reported with the largest gain any tribe still found, which says how far the
profile is from an equilibrium.

With ``out`` every cell's games and every search are kept: a rerun resumes where it
stopped, and a finished run prints its answer at once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from simkit import stats
from simkit.arena import against_mix, paired_gain, play_range, rotated
from simkit.errors import UsageError
from simkit.timing import TRIAL_OVERHEAD, trials_within
from simkit.tune import player, tunable, tune

#: opponents weighing less than this in a mixture are left out of a best response's games
MIN_WEIGHT = 0.02
#: bootstrap resamples of the games for the value's interval
RESAMPLES = 500


# -- the matrix game ----------------------------------------------------------------------------
def solve(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The row player's maximin mixture, the column player's minimax mixture and the
    value of the zero-sum game whose payoffs to the row player are ``matrix``."""
    m = np.asarray(matrix, dtype=float)
    x, value = _maximin(m)
    y, _ = _maximin(1 - m.T)  # the column player maximises its own payoff, 1 - M
    return x, y, value


def _maximin(m: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's mixture maximising v subject to x'M[:, j] >= v for every column,
    sum x = 1, x >= 0 (a linear program, ``scipy.optimize.linprog``)."""
    rows, cols = m.shape
    res = linprog(np.r_[np.zeros(rows), -1.0],
                  A_ub=np.c_[-m.T, np.ones(cols)], b_ub=np.zeros(cols),
                  A_eq=np.r_[np.ones(rows), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * rows + [(None, None)], method="highs")
    if not res.success:
        raise RuntimeError(f"the matrix game's linear program failed: {res.message}")
    return _clean(res.x[:rows]), float(-res.fun)


def _clean(mixture: np.ndarray) -> np.ndarray:
    """A mixture with the solver's round-off removed (tiny weights to 0, sum 1)."""
    mixture = np.where(mixture < 1e-9, 0.0, mixture)
    return mixture / mixture.sum()


def value_interval(wins: np.ndarray, confidence: float = 0.95, resamples: int = RESAMPLES,
                   seed: int = 0) -> stats.Interval:
    """The value of the matrix game of ``wins`` (rows x columns x games, the row side's
    wins on the same games in every cell), with a percentile bootstrap interval that
    resamples the games (every cell the same games)."""
    n = wins.shape[2]
    value = solve(wins.mean(axis=2))[2]
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        counts = np.bincount(rng.integers(0, n, n), minlength=n)
        draws.append(_maximin(wins @ counts / n)[1])
    tail = (1 - confidence) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return stats.Interval(value, float(min(low, value)), float(max(high, value)), confidence)


# -- two sides ----------------------------------------------------------------------------------
@dataclass
class Round:
    """One round: the value before it, and each side's best response to the other's
    mixture with its paired gain over the mixture's best pure answer."""

    round: int
    value: float
    low: float
    high: float
    table: str  # the table's size, "rows x columns"
    responses: dict = field(default_factory=dict)  # side -> {policy, gain, low, high, added}


@dataclass
class Balance:
    """``simkit balance`` on a two-sided game: the final cross-table, each side's
    equilibrium mixture, the value with its interval, and the rounds."""

    game: str
    sides: tuple[str, str]
    population: dict
    table: pd.DataFrame  # the first side's win rate, rows its policies, columns the other's
    mixtures: dict
    value: float
    low: float
    high: float
    scripted: float  # the default pairing's rate on the same games
    n_games: int
    rounds: list[Round]
    converged: bool

    def headline(self) -> str:
        first = self.sides[0]
        r, c = self.table.shape
        return (f"{first.capitalize()} {100 * self.scripted:.1f}% as scripted; "
                f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] "
                f"under the best play found (equilibrium of {r}x{c} policies)")

    def text(self) -> str:
        first, second = self.sides
        lines = [f"{self.game}: {first} win rate, {self.n_games:,} games per pairing (the "
                 f"same games in every cell); rows {first}, columns {second}:",
                 _matrix_text(self.table)]
        for side in self.sides:
            mix = ", ".join(f"{w:.2f} {p}" for p, w in self.mixtures[side].items() if w > 0)
            lines.append(f"{side} equilibrium mixture: {mix}")
        for r in self.rounds:
            lines.append(f"round {r.round}: value {100 * r.value:.2f}% [{100 * r.low:.2f}, "
                         f"{100 * r.high:.2f}] over {r.table} policies")
            for side, br in r.responses.items():
                lines.append(f"  {side} best response: {br['policy']}  gain "
                             f"{100 * br['gain']:+.2f} [{100 * br['low']:+.2f}, "
                             f"{100 * br['high']:+.2f}] over the mixture's best answer"
                             f"{'' if br['added'] else ' (not added: no gain)'}")
        lines.append("converged: neither best response gains more than its interval"
                      if self.converged else "not converged: the last round still found a "
                      "gain (more --rounds)")
        lines.append(self.headline())
        return "\n".join(lines)


def _matrix_text(table: pd.DataFrame) -> str:
    return (100 * table).round(1).to_string()


class _Cells:
    """Each pairing's games on the table's seed: the first side's wins, kept in memory
    and, with ``out``, as files (a rerun reads them)."""

    def __init__(self, game, rules, sides, n_games, seed, n_jobs, out: Path | None):
        self.game, self.rules, self.sides = game, rules, sides
        self.n_games, self.seed, self.n_jobs = n_games, seed, n_jobs
        self.out = None if out is None else out / "cells"
        self.memory: dict[tuple[str, str], np.ndarray] = {}

    def wins(self, a: str, b: str) -> np.ndarray:
        key = (a, b)
        if key in self.memory:
            return self.memory[key]
        path = self._path(a, b)
        if path is not None and path.exists():
            wins = np.unpackbits(np.load(path))[:self.n_games].astype(bool)
        else:
            first, second = self.sides
            columns = play_range(self.game, self.rules, {first: a, second: b}, self.seed, 0,
                                 self.n_games, self.n_jobs)
            code = self.game.outcome_columns["winner"].categories.index(first)
            wins = columns["winner"] == code
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                np.save(path.with_suffix(".tmp.npy"), np.packbits(wins))
                path.with_suffix(".tmp.npy").replace(path)
        self.memory[key] = wins
        return wins

    def _path(self, a: str, b: str) -> Path | None:
        if self.out is None:
            return None
        key = json.dumps([a, b, self.n_games, self.seed])
        return self.out / f"{hashlib.sha1(key.encode()).hexdigest()[:16]}.npy"

    def cube(self, rows: list[str], cols: list[str]) -> np.ndarray:
        return np.array([[self.wins(a, b) for b in cols] for a in rows], dtype=float)


def scripted_population(game, side: str) -> list[str]:
    """A side's scripted policies: every policy but those with a kernel of their own
    (the look-ahead players, thousands of times slower)."""
    return [p for p in game.policies[side] if (side, p) not in game.policy_kernels]


def _planned(game, rules, arenas, rounds: int, cells: int, n_games: int, trials: int,
             restarts: int, tune_games: int, scan_points: int) -> int:
    """The games a balance will play, about: its table's cells and, each round, a best
    response tuned in each arena (``arenas``: (arena, player) pairs)."""
    from simkit.tune import games_planned

    searches = sum(games_planned(arena, who, trials=trials, restarts=restarts,
                                 n_games=tune_games, check_games=2 * tune_games,
                                 scan_points=scan_points) for arena, who in arenas)
    return int(cells * n_games + rounds * searches)


def _fitted(game, rules, policy, games: int, n_games: int, tune_games: int, n_jobs: int,
            budget, say, overhead: float = 0.0) -> tuple[int, int, str | None]:
    """The table's and the searches' games cut in proportion to fit ``budget``, the
    estimate told first."""
    from simkit.timing import Plan, announce, check_budget, fit, speed

    check_budget(budget)
    if say is None and budget is None:
        return n_games, tune_games, None
    plan = Plan(games, speed(game, rules, policy, n_jobs), overhead)
    announce("the balance", plan, say or (lambda text: None))
    fitted, cut = fit(budget, plan, n_games, "games a pairing (and a search's in proportion)")
    return fitted, max(20, tune_games * fitted // n_games), cut


def balance(game, *, rules=None, rounds: int = 3, n_games: int = 2000, trials: int = 20,
            restarts: int = 2, tune_games: int = 1000, scan_points: int = 3, seed: int = 0,
            n_jobs: int = 1, out=None, data=None, progress=None,
            budget: float | None = None) -> Balance:
    """The double oracle between a two-sided game's commanders: see the module's
    docstring. ``n_games``: games per cell of the cross-table (seed ``seed``); each best
    response is tuned (``trials`` x ``restarts``, ``tune_games`` training games, seeds
    ``seed + 1000 * round``) against the other side's equilibrium mixture."""
    from simkit import games as registry

    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    sides = game.sides_in_play(rules)
    if len(sides) != 2 or getattr(game, "seated", None):
        raise UsageError(f"{game.name} is not a two-sided game; balance_seated plays a "
                         "seated one, and a one-sided game has no opponent")
    _check_sizes(rounds, n_games)
    for side in sides:
        tuned_policy(game, side)  # a side without weights: one line naming the tunable
    say = progress or (lambda text: None)
    out = None if out is None else Path(out)
    game.warm_up()
    if out is None or not (out / "balance.json").exists():
        start = {s: scripted_population(game, s) for s in sides}
        arenas = [(against_mix(game, side, rules, [(1.0, {o: start[o][0]})], n_jobs),
                   player(game, side, tuned_policy(game, side)))
                  for side, o in ((sides[0], sides[1]), (sides[1], sides[0]))]
        size = len(start[sides[0]]) * len(start[sides[1]]) + rounds * (
            len(start[sides[0]]) + len(start[sides[1]]) + 2)
        games = _planned(game, rules, arenas, rounds, size, n_games, trials, restarts,
                         tune_games, scan_points)
        per_trial = TRIAL_OVERHEAD * rounds * 2 * restarts
        trials, cut_trials = trials_within(budget, trials, per_trial)
        n_games, tune_games, cut = _fitted(game, rules, None, games, n_games, tune_games,
                                           n_jobs, budget, progress, per_trial * trials)
        for line in (cut_trials, cut):
            if line:
                (progress or (lambda text: None))(line)
    kept = _read_state(out, rules, n_games, seed)
    population = kept["population"] if kept else {s: scripted_population(game, s)
                                                  for s in sides}
    history = [Round(**r) for r in kept["rounds"]] if kept else []
    cells = _Cells(game, rules, sides, n_games, seed, n_jobs, out)
    converged = bool(kept and kept.get("converged"))
    for r in range(len(history) + 1, rounds + 1):
        if converged:
            break
        say(f"round {r}: the cross-table of {len(population[sides[0]])}x"
            f"{len(population[sides[1]])} policies on {n_games:,} games")
        wins = cells.cube(population[sides[0]], population[sides[1]])
        x, y, _ = solve(wins.mean(axis=2))
        interval = value_interval(wins, seed=seed)
        record = Round(r, interval.estimate, interval.low, interval.high,
                       f"{wins.shape[0]}x{wins.shape[1]}")
        added = {}
        for side, mixture in ((sides[0], y), (sides[1], x)):
            say(f"round {r}: the {side}' best response to the other side's mixture")
            response = _best_response(game, rules, sides, side, population, mixture, wins,
                                      trials=trials, restarts=restarts, n_games=tune_games,
                                      scan_points=scan_points, seed=seed + 1000 * r,
                                      cells=cells, n_jobs=n_jobs,
                                      out=None if out is None else out / f"round{r}-{side}")
            record.responses[side] = response
            if response["added"]:
                added[side] = response["policy"]
        history.append(record)
        for side, policy in added.items():
            population[side].append(policy)
        converged = not added
        _write_state(out, rules, n_games, seed, population, history, converged)
    result = _result(game, sides, population, cells, history, converged, n_games, seed)
    _write_result(out, rules, result)
    return result


def _best_response(game, rules, sides, side, population, mixture, wins, *, trials,
                   restarts, n_games, scan_points, seed, cells, n_jobs, out) -> dict:
    """``side``'s tuned best response to the other side's ``mixture``, and its paired
    gain (on the table's games) over the population's best answer to that mixture."""
    other = sides[1] if side == sides[0] else sides[0]
    mix = [(w, {other: p}) for p, w in zip(population[other], mixture, strict=True)
           if w >= MIN_WEIGHT]
    arena = against_mix(game, side, rules, mix, n_jobs)
    # each of the side's policies' score per game against the mixture (its wins)
    if side == sides[0]:
        payoff = np.tensordot(wins, mixture, axes=(1, 0))
    else:
        payoff = 1 - np.tensordot(mixture, wins, axes=(0, 0))
    best = int(np.argmax(payoff.mean(axis=1)))
    start = population[side][best]
    start = start if _weighted(game, side, start) else tuned_policy(game, side)
    result = tune(arena, player(game, side, start), trials=trials, restarts=restarts,
                  n_games=n_games, seed=seed, scan_points=scan_points, out=out)
    policy = result.policy
    if policy in population[side]:
        return {"policy": policy, "gain": 0.0, "low": 0.0, "high": 0.0, "added": False}
    first_wins = np.array([cells.wins(a, b) for a, b in _pairs(side, sides, population,
                                                                policy)], dtype=float)
    scores = mixture @ (first_wins if side == sides[0] else 1 - first_wins)
    gain = paired_gain(scores, payoff[best]).difference
    return {"policy": policy, "gain": gain.estimate, "low": gain.low, "high": gain.high,
            "added": bool(gain.low > 0)}


def _pairs(side, sides, population, policy):
    """The cells of a new policy's row (first side) or column (second side)."""
    if side == sides[0]:
        return [(policy, b) for b in population[sides[1]]]
    return [(a, policy) for a in population[sides[0]]]


def tuned_policy(game, side: str) -> str:
    """The policy a side's best responses are tuned from: its first with weights."""
    names = list(game.policy_weights.get(side, {}))
    if not names:
        return tunable(game, side, None)[0]  # raises, naming the policies with weights
    return names[0]


def _weighted(game, side: str, policy: str) -> bool:
    return game.policy_weights.get(side, {}).get(policy.partition(":")[0]) is not None


def _result(game, sides, population, cells, history, converged, n_games, seed) -> Balance:
    rows, cols = population[sides[0]], population[sides[1]]
    wins = cells.cube(rows, cols)
    x, y, _ = solve(wins.mean(axis=2))
    interval = value_interval(wins, seed=seed)
    table = pd.DataFrame(wins.mean(axis=2), index=pd.Index(rows, name=sides[0]),
                         columns=pd.Index(cols, name=sides[1]))
    default = (rows[0], cols[0])  # each side's first policy: its default script
    return Balance(game.name, sides, population, table,
                   {sides[0]: dict(zip(rows, x.round(4), strict=True)),
                    sides[1]: dict(zip(cols, y.round(4), strict=True))},
                   interval.estimate, interval.low, interval.high,
                   float(cells.wins(*default).mean()), n_games, history, converged)


def _read_state(out: Path | None, rules, n_games: int, seed: int) -> dict | None:
    path = None if out is None else out / "balance.json"
    if path is None or not path.exists():
        return None
    kept = json.loads(path.read_text())
    question = _question(rules, n_games, seed)
    if kept["question"] != question:
        raise UsageError(f"{out} holds the balance of another question ({kept['question']}); "
                         "give --out another folder")
    return kept


def _write_state(out, rules, n_games, seed, population, history, converged) -> None:
    if out is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    state = {"question": _question(rules, n_games, seed), "population": population,
             "rounds": [asdict(r) for r in history], "converged": converged}
    temporary = out / "balance.tmp"
    temporary.write_text(json.dumps(state, indent=1, default=float))
    temporary.replace(out / "balance.json")


def _write_result(out: Path | None, rules, result) -> None:
    """The finished answer, for ``read`` (``simkit robustness --balance DIR``)."""
    if out is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(result, Balance):
        data = {"kind": "two sides", **asdict(result),
                "table": {"index": list(result.table.index),
                          "columns": list(result.table.columns),
                          "values": result.table.to_numpy().tolist()}}
    else:
        data = {"kind": "seated", **asdict(result), "rates": result.rates.to_dict("index"),
                "scripted": result.scripted.to_dict("index")}
    data["rules"] = rules.changes()
    temporary = out / "result.tmp"
    temporary.write_text(json.dumps(data, indent=1, default=float))
    temporary.replace(out / "result.json")


def read(out, rules=None) -> Balance | SeatedBalance:
    """The answer of a finished ``simkit balance --out DIR`` (a UsageError if the folder
    holds none, or one of other rules than ``rules``)."""
    path = Path(out) / "result.json"
    if not path.exists():
        raise UsageError(f"{out} holds no finished balance (result.json); run simkit "
                         f"balance GAME --out {out} first")
    data = json.loads(path.read_text())
    wanted = None if rules is None else json.loads(json.dumps(rules.changes(), default=float))
    if wanted is not None and data["rules"] != wanted:
        held = data["rules"] or "the standard rules"
        raise UsageError(f"{out} holds the balance of other rules ({held}), not "
                         f"{wanted or 'the standard rules'}")
    kind = data.pop("kind")
    data.pop("rules")
    if kind == "seated":
        data["rates"] = pd.DataFrame(data["rates"]).T
        data["scripted"] = pd.DataFrame(data["scripted"]).T
        return SeatedBalance(**data)
    t = data.pop("table")
    data["table"] = pd.DataFrame(t["values"], index=t["index"], columns=t["columns"])
    data["table"].index.name, data["table"].columns.name = data["sides"]
    data["sides"] = tuple(data["sides"])
    data["rounds"] = [Round(**r) for r in data["rounds"]]
    return Balance(**data)


def _question(rules, n_games: int, seed: int) -> str:
    changed = ", ".join(f"{k}={v}" for k, v in rules.changes().items()) or "standard"
    return f"{changed} rules, {n_games} games a cell, seed {seed}"


# -- a seated game ------------------------------------------------------------------------------
@dataclass
class SeatedBalance:
    """``simkit balance`` on a seated game: each tribe's policy and its seat-rotated win
    rate under the final profile, and the largest gain a tribe still found."""

    game: str
    profile: dict
    rates: pd.DataFrame  # tribe -> rate, low, high (seat-rotated)
    scripted: pd.DataFrame  # the same under the default policies
    rounds: list[dict]
    largest_gain: float
    n_games: int

    def text(self) -> str:
        lines = [f"{self.game}: each tribe's win rate, seats rotated ({self.n_games:,} games "
                 "under each rotation), as scripted and under the best play found:"]
        for tribe, r in self.rates.iterrows():
            s = self.scripted.loc[tribe]
            lines.append(f"  {tribe:8} scripted {100 * s['rate']:6.2f}% [{100 * s['low']:.2f}, "
                         f"{100 * s['high']:.2f}]   best found {100 * r['rate']:6.2f}% "
                         f"[{100 * r['low']:.2f}, {100 * r['high']:.2f}]   "
                         f"{self.profile[tribe]}")
        for r in self.rounds:
            lines.append(f"round {r['round']}: " + ", ".join(
                f"{t} {100 * g['gain']:+.2f} [{100 * g['low']:+.2f}, {100 * g['high']:+.2f}]"
                for t, g in r["gains"].items()))
        lines.append(f"the largest gain a tribe still found in the last round: "
                     f"{100 * self.largest_gain:+.2f} points (0 at an equilibrium)")
        return "\n".join(lines)


def tribe_rates(game, rules, profile: dict, n_games: int, seed: int,
                n_jobs: int = 1) -> pd.DataFrame:
    """Each seated tribe's win rate over every rotation of the seats, its policy moving
    with it (``profile``: tribe -> policy), with a 95% interval over the games."""
    rows = {}
    for tribe in game.seated(rules):
        arena = rotated(game, tribe, rules, profile, n_jobs)
        scores = arena.scores(profile.get(tribe, "greedy"), seed, 0, n_games)
        interval = stats.mean_interval(scores) or stats.Interval(
            float(scores.mean()), float(scores.mean()), float(scores.mean()), 0.95)
        rows[tribe] = {"rate": interval.estimate, "low": interval.low, "high": interval.high}
    return pd.DataFrame(rows).T


def _check_sizes(rounds: int, n_games: int) -> None:
    """A balance searches best responses: at least one round (the scripts' own table is
    ``simkit robustness``'s policy matrix), on at least 2 games."""
    if rounds < 1 or n_games < 2:
        raise UsageError(f"balance needs --rounds 1 or more and --games 2 or more, got "
                         f"--rounds {rounds} and --games {n_games} (the scripts' own "
                         "cross-table without a search: simkit robustness)")


def balance_seated(game, *, rules=None, rounds: int = 2, n_games: int = 1000,
                   trials: int = 12, restarts: int = 2, tune_games: int = 300,
                   scan_points: int = 3, seed: int = 0, n_jobs: int = 1, out=None,
                   data=None, progress=None, budget: float | None = None) -> SeatedBalance:
    """Iterated best responses of a seated game's tribes, seats rotated: see the
    module's docstring."""
    from simkit import games as registry

    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    if not getattr(game, "seated", None):
        raise UsageError(f"{game.name} has no seated tribes; balance plays its two sides")
    _check_sizes(rounds, n_games)
    say = progress or (lambda text: None)
    game.warm_up()
    tribes = game.seated(rules)
    default = {t: next(iter(game.policies[game.sides[0]])) for t in tribes}
    profile = dict(default)
    arenas = [(rotated(game, t, rules, profile, n_jobs), None) for t in tribes]
    arenas = [(a, player(game, a.entries[0].side, profile[t]))
              for (a, _), t in zip(arenas, tribes, strict=True)]
    games = _planned(game, rules, arenas, rounds, 2 * len(tribes) ** 2, n_games, trials,
                     restarts, tune_games, scan_points)
    per_trial = TRIAL_OVERHEAD * rounds * len(tribes) * restarts * len(tribes)
    trials, cut_trials = trials_within(budget, trials, per_trial)
    n_games, tune_games, cut = _fitted(game, rules, None, games, n_games, tune_games,
                                       n_jobs, budget, progress, per_trial * trials)
    for line in (cut_trials, cut):
        if line:
            say(line)
    history = []
    for r in range(1, rounds + 1):
        gains = {}
        for tribe in tribes:
            say(f"round {r}: {tribe}'s best response, seats rotated")
            arena = rotated(game, tribe, rules, profile, n_jobs)
            where = None if out is None else Path(out) / f"round{r}-{tribe}"
            seat = arena.entries[0].side
            result = tune(arena, player(game, seat, profile[tribe]), trials=trials,
                          restarts=restarts, n_games=tune_games, seed=seed + 1000 * r,
                          scan_points=scan_points, out=where)
            gains[tribe] = {"policy": result.policy, "gain": result.gain,
                            "low": result.low, "high": result.high}
            if result.low > 0:
                profile[tribe] = result.policy
        history.append({"round": r, "gains": gains})
        if all(g["low"] <= 0 for g in gains.values()):
            break
    largest = max((g["gain"] for g in history[-1]["gains"].values()), default=0.0) \
        if history else 0.0
    result = SeatedBalance(game.name, profile,
                           tribe_rates(game, rules, profile, n_games, seed, n_jobs),
                           tribe_rates(game, rules, default, n_games, seed, n_jobs),
                           history, largest, n_games)
    _write_result(None if out is None else Path(out), rules, result)
    return result


def figure(result: Balance, path: Path) -> None:
    """The cross-table as a heat map beside the value (with its interval) per round."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = result.table
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained",
                                      gridspec_kw={"width_ratios": [3, 2]})
    image = left.imshow(100 * table.to_numpy(), cmap="RdBu_r", vmin=0, vmax=100)
    left.set_xticks(range(table.shape[1]), [_short(c) for c in table.columns], rotation=30,
                    ha="right", fontsize=7)
    left.set_yticks(range(table.shape[0]), [_short(r) for r in table.index], fontsize=7)
    for (i, j), v in np.ndenumerate(100 * table.to_numpy()):
        left.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7)
    left.set(xlabel=result.sides[1], ylabel=result.sides[0],
             title=f"{result.sides[0]} win rate (%)")
    fig.colorbar(image, ax=left, shrink=0.8)
    rounds = [r.round for r in result.rounds] + [len(result.rounds) + 1]
    values = [r.value for r in result.rounds] + [result.value]
    lows = [r.low for r in result.rounds] + [result.low]
    highs = [r.high for r in result.rounds] + [result.high]
    right.errorbar(rounds, 100 * np.array(values),
                   yerr=100 * np.abs(np.array([lows, highs]) - np.array(values)), fmt="o-")
    right.axhline(100 * result.scripted, ls="--", color="grey", label="as scripted")
    right.set(xlabel="round (the last: the final table)", ylabel=f"{result.sides[0]} win (%)",
              title="value of the game under the best play found")
    right.legend()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _short(policy: str, width: int = 28) -> str:
    return policy if len(policy) <= width else policy[:width - 3] + "..."
