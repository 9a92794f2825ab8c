"""Time up front and as an input: how long a command's games will take, and how many
games fit a budget.

A long command (robustness, screen, tune, balance, sweep) knows how many games it will
play of which settings before it starts. The engine's speed is measured on the spot: a
probe of games of the command's own kind (its game, rules and players) is timed after
the compile, so the estimate includes this machine's load. The command says the
estimate on stderr before it starts; given ``--budget SECONDS`` it scales its games down
to fit (never up) and says what it cut.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from simkit.errors import UsageError

#: a probe plays at least this many games, and for at least this long
PROBE_GAMES, PROBE_SECONDS = 32, 0.15
#: fewest games a budget may leave a command per setting
FLOOR = 20
#: seconds a search's trial costs beyond its games (the sampler, the pruner, a run's set-up)
TRIAL_OVERHEAD = 0.06

_SPEEDS: dict = {}
_LOAD: list = []


def speed(game, rules=None, policy=None, n_jobs: int = 1) -> float:
    """Games per second of ``game`` under ``rules`` and ``policy`` on ``n_jobs`` threads
    (measured once per process, a probe of at least ``PROBE_GAMES`` games after the
    compile)."""
    from simkit.arena import play_range
    from simkit.runner import local_workers

    game.warm_up()
    rules = game.resolve_rules(rules)
    key = (game.name, repr(rules), repr(policy), game.data.digest)
    if key not in _SPEEDS:
        play_range(game, rules, policy, 987_654, 0, 0)  # any policy kernel loaded, no game
        # batches of 1, 2, 4... games: a look-ahead (about a game a second) stops after 3
        started, cpu, played, n = time.perf_counter(), time.thread_time(), 0, 1
        while played < PROBE_GAMES or time.perf_counter() - started < PROBE_SECONDS:
            play_range(game, rules, policy, 987_654, played, played + n)
            played, n = played + n, min(2 * n, 4096)
            if time.perf_counter() - started > 5 * PROBE_SECONDS and played >= 2:
                break  # a slow player: its speed is known well enough
        wall = time.perf_counter() - started
        _SPEEDS[key] = played / wall
        _LOAD.append(wall / max(time.thread_time() - cpu, 1e-6))
    return _SPEEDS[key] * local_workers(n_jobs)


def load() -> float:
    """How much slower than its CPU time this machine ran the last probe (1 when the
    probe had a core to itself): the factor a search's fixed costs are taken at."""
    return max(1.0, _LOAD[-1]) if _LOAD else 1.0


@dataclass(frozen=True)
class Plan:
    """What a command will play: ``games`` in all at ``rate`` games/s, and ``overhead``
    seconds that do not scale with the games (a search's trials, a run's set-up)."""

    games: int
    rate: float
    overhead: float = 0.0

    @property
    def seconds(self) -> float:
        return self.games / max(self.rate, 1e-9) + self.overhead * load()


def duration(seconds: float) -> str:
    """``42 s``, ``3.5 min`` or ``1.2 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def check_budget(budget: float | None) -> None:
    if budget is not None and not (np.isfinite(budget) and budget > 0):
        raise UsageError(f"--budget must be a positive number of seconds, got {budget:g}")


def fit(budget: float | None, plan: Plan, n_games: int,
        unit: str = "games a setting") -> tuple[int, str | None]:
    """The games per setting (``unit``) that fit ``budget`` (at most ``n_games``, at
    least ``FLOOR``), and a line saying what was cut (None if nothing was)."""
    if budget is None or plan.seconds <= budget:
        return n_games, None
    fixed = plan.overhead * load()
    playing = plan.seconds - fixed  # only the games' share can be cut
    scaled = max(FLOOR, int(n_games * max(budget - fixed, 0.0) / max(playing, 1e-9)))
    if scaled >= n_games:
        return n_games, None
    return scaled, (f"budget {duration(budget)}: {n_games:,} {unit} would take about "
                    f"{duration(plan.seconds)} in all; cut to {scaled:,} (checks in the same "
                    "proportion)" if "trial" in unit else
                    f"budget {duration(budget)}: {n_games:,} {unit} would take about "
                    f"{duration(plan.seconds)} in all; cut to {scaled:,}")


def trials_within(budget: float | None, trials: int, per_trial: float,
                  least: int = 4) -> tuple[int, str | None]:
    """A search's trials cut so that their fixed costs (``per_trial`` seconds each, at
    this machine's load) take at most half of ``budget`` (at least ``least``)."""
    if budget is None or trials * per_trial * load() <= budget / 2:
        return trials, None
    fitted = max(least, int(budget / 2 / (per_trial * load())))
    if fitted >= trials:
        return trials, None
    return fitted, (f"budget {duration(budget)}: {trials} trials' fixed costs alone would "
                    f"take about {duration(trials * per_trial * load())}; cut to {fitted}")


def size_search(what: str, budget: float | None, trials: int, per_trial: float, rate: float,
                games_for, n_games: int, check_games: int, say
                ) -> tuple[int, int, int, list[str]]:
    """A search's trials, training games a trial and check games, cut to fit ``budget``
    (the trials first, if their fixed costs alone would take half of it; then the games
    in proportion), after the estimate is told to ``say``; and the lines saying what was
    cut. ``games_for(trials)``: the games the search plays with that many trials."""
    trials, cut_trials = trials_within(budget, trials, per_trial)
    plan = Plan(int(games_for(trials)), rate, per_trial * trials)
    announce(what, plan, say or (lambda text: None))
    games, cut = fit(budget, plan, n_games, "training games a trial")
    return (trials, games, max(1, check_games * games // n_games),
            [c for c in (cut_trials, cut) if c])


def announce(what: str, plan: Plan, say) -> None:
    """The estimate, before the work starts."""
    say(f"{what}: about {plan.games:,} games at {plan.rate:,.0f} games/s, so about "
        f"{duration(plan.seconds)}")
