"""Calibrate a numeric rule knob against a target win rate.

``calibrate(game, knob, target)`` finds the adjacent pair of knob values whose win rate
(of ``side``: a side, a seat or a winner category such as a Verrix tribe; by default
the game's first side that can win, the first tribe in Verrix) lies on either side of
``target``, by bisection over the knob's declared integer range (or a grid of ``steps``
values over a float range, or the ``values`` given). Every evaluation is a
``simulate`` on the same seed and game indices (common random numbers), so neighbouring
values differ only by the knob. Values are searched as played (``Rules.effective``): a
placeholder such as "0 = the level's set-up" is the value it stands for. The search
assumes the win rate is monotone in the knob; if it is not, the bracket found is one
crossing of the target. When both ends of the
range lie on the same side of the target, the target is reported as not reachable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit import games, stats
from simkit.errors import RulesError, UsageError
from simkit.sides import resolve_side


@dataclass(frozen=True)
class Evaluation:
    """One knob value played: the side's win rate with its Wilson 95% interval."""

    value: int | float
    rate: stats.Interval
    games: int


@dataclass(frozen=True)
class Calibration:
    """The result: the bracketing pair (lower knob value first), or None if unreachable."""

    game: str
    knob: str
    side: str
    target: float
    values: tuple  # every candidate value the rules allow, ascending
    excluded: tuple  # candidate values the rules' constraints do not allow
    evaluations: tuple[Evaluation, ...]  # in the order played
    bracket: tuple[Evaluation, Evaluation] | None

    @property
    def reachable(self) -> bool:
        return self.bracket is not None

    @property
    def certain(self) -> bool:
        """Neither bracket value's 95% interval contains the target."""
        return self.reachable and all(not e.rate.low <= self.target <= e.rate.high
                                      for e in self.bracket)

    def describe(self) -> str:
        """The result in one or two sentences."""
        def show(e: Evaluation) -> str:
            return (f"{self.knob}={_text(e.value)} gives {e.rate.estimate:.2%} "
                    f"[{e.rate.low:.2%}, {e.rate.high:.2%}]")

        if not self.reachable:
            ends = sorted(self.evaluations, key=lambda e: e.value)
            low, high = ends[0], ends[-1]
            return (f"the target {self.target:.2%} is not reachable for {self.knob} in "
                    f"{_text(low.value)}..{_text(high.value)}: the {self.side} win "
                    f"{low.rate.estimate:.2%} at {self.knob}={_text(low.value)} and "
                    f"{high.rate.estimate:.2%} at {self.knob}={_text(high.value)}")
        a, b = self.bracket
        text = (f"bracket: {show(a)} and {show(b)}; the target {self.target:.2%} lies "
                "between them")
        if not self.certain:
            text += (" (the target is inside a 95% interval: play more games, or use "
                     "until_ci, to be sure of the bracket)")
        return text


def _text(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def candidates(knob, steps: int = 21, values=None) -> list:
    """The values to search: ``values`` if given, else every integer of the knob's range,
    else ``steps`` evenly spaced values over a float range."""
    if values is not None:
        out = sorted({knob.check(v) for v in values})
    elif knob.type is int and knob.range is not None:
        out = list(range(knob.range[0], knob.range[1] + 1))
    elif knob.type is float and knob.range is not None:
        if steps < 2:
            raise UsageError(f"steps must be at least 2, got {steps}")
        out = [round(float(v), 12) for v in np.linspace(*knob.range, steps)]
    else:
        raise UsageError(f"calibrate needs a numeric knob with a range; {knob.name!r} is "
                         f"{knob.type.__name__} ({knob.allowed})")
    if len(out) < 2:
        raise UsageError(f"calibrate needs at least two values of {knob.name!r}, got {out}")
    return out


def calibrate(game, knob: str, target: float = 0.5, *, side: str | None = None, rules=None,
              policy=None, n_games: int = 20_000, seed: int = 0, until_ci: float | None = None,
              max_games: int | None = None, n_jobs: int = 1, values=None,
              steps: int = 21, backend: str = "threads", client=None) -> Calibration:
    """Find the adjacent values of ``knob`` whose ``side`` win rate brackets ``target``.

    ``rules`` (a preset name, a dict of overrides or a Rules) and ``policy`` fix
    everything else; each value plays ``n_games`` games of ``seed`` (or until the side's
    rate has a 95% half-width below ``until_ci``). ``n_jobs``, ``backend`` and ``client``
    are passed to ``simkit.simulate`` (``backend="dask"`` runs on ``client`` or the
    current dask.distributed client).
    """
    from simkit.runner import simulate

    game = games.get(game) if isinstance(game, str) else game
    base = game.resolve_rules(rules)
    spec = game.Rules.knob(knob)
    column, side = _side(game, side)
    if not isinstance(target, (int, float)) or not 0 < target < 1:
        raise UsageError(f"target must be a win rate strictly between 0 and 1, got {target!r}")
    every = candidates(spec, steps, values)
    allowed = played_values(base, knob, [v for v in every if _valid(base, knob, v)],
                            game.data)
    if len(allowed) < 2:
        raise RulesError(f"fewer than two values of {knob!r} are allowed with these rules")
    played: dict[int, Evaluation] = {}

    def evaluate(i: int) -> Evaluation:
        if i not in played:
            rules = game.effective(base.replace({knob: allowed[i]}))
            frame = simulate(game, n_games, seed=seed, rules=rules,
                             policy=policy, n_jobs=n_jobs, until_ci=until_ci,
                             max_games=max_games, backend=backend, client=client,
                             until_ci_side=None if until_ci is None else side)
            wins = int((frame[column] == side).sum())
            played[i] = Evaluation(allowed[i], stats.wilson(wins, len(frame)), len(frame))
        return played[i]

    bracket = _bisect(evaluate, len(allowed), target)
    return Calibration(game.name, knob, side, float(target), tuple(allowed),
                       tuple(v for v in every if not _valid(base, knob, v)),
                       tuple(played.values()),
                       bracket)


def _side(game, side: str | None) -> tuple[str, str]:
    """The outcome column and category a side names (a side, a seat, a tribe)."""
    return resolve_side(game, side)


def played_values(base, knob: str, values, data=None) -> list:
    """The distinct values of ``knob`` the ``values`` play on ``data``, ascending: a
    placeholder (Victus ``start_generalitat = 0``, "the level's set-up") is searched as
    the value it plays (5 in the full game on the package's files), once."""
    return sorted({getattr(base.replace({knob: v}).effective(data), knob) for v in values})


def _valid(base, knob: str, value) -> bool:
    try:
        base.replace({knob: value})
    except RulesError:
        return False
    return True


def _bisect(evaluate, n: int, target: float):
    """Bisection over indices 0..n-1 on "rate >= target"; None if both ends agree."""
    lo, hi = 0, n - 1
    above_lo = evaluate(lo).rate.estimate >= target
    if (evaluate(hi).rate.estimate >= target) == above_lo:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if (evaluate(mid).rate.estimate >= target) == above_lo:
            lo = mid
        else:
            hi = mid
    return evaluate(lo), evaluate(hi)

