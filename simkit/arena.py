"""Where a side's candidate policies are played, and how two candidates compare.

A search scores a candidate policy of one side (a side of a two-sided game, a seat, or
a tribe that moves with the seat rotation) by its wins on the same games as every other
candidate. An ``Arena`` holds those games' settings: one ``Entry`` per opponent (a mix of
policies weighs each by its probability) and per seating (a rotated game weighs each
rotation alike), each with the rules, the other sides' policies and the seat the
candidate takes. ``scores`` plays a candidate on any range of game indices of a seed and
gives each game's weighted wins, so every candidate meets the same dice and two
candidates' scores are paired game by game (``paired_gain``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

from simkit import stats
from simkit.errors import UsageError
from simkit.runner import local_workers
from simkit.sides import resolve_side, seatings, winner_categories


@dataclass(frozen=True)
class Entry:
    """One setting a candidate plays in: ``weight`` of its score, the rules (a seating),
    the other sides' policies, and the side (seat) the candidate plays."""

    weight: float
    rules: object
    others: dict
    side: str


@dataclass(frozen=True)
class Arena:
    """The settings a candidate of one side is scored in, and what counts as its win
    (an outcome column and its category: a side, a seat, a tribe)."""

    game: object
    entries: tuple[Entry, ...]
    target: tuple[str, str]
    n_jobs: int = 1

    @property
    def binary(self) -> bool:
        """Each game's score is a win or not (one entry), not a weighted mean."""
        return len(self.entries) == 1

    @property
    def label(self) -> str:
        return self.target[1]

    def policies(self, candidate: str) -> list[dict]:
        """Every side's policy in each entry, the candidate in its seat."""
        return [{**e.others, e.side: candidate} for e in self.entries]

    def scores(self, candidate: str, seed: int, start: int, stop: int) -> np.ndarray:
        """Each game's score in ``[start, stop)`` of run ``seed``: the candidate's wins,
        weighted over the entries (1 or 0 with one entry)."""
        total = np.zeros(stop - start)
        column, category = self.target
        for entry, policy in zip(self.entries, self.policies(candidate), strict=True):
            columns = play_range(self.game, entry.rules, policy, seed, start, stop,
                                 self.n_jobs)
            winner = self.game.outcome_columns[column].categories.index(category)
            total += entry.weight * (columns[column] == winner)
        return total


def play_range(game, rules, policy: dict, seed: int, start: int, stop: int,
               n_jobs: int = 1) -> dict[str, np.ndarray]:
    """The outcome columns (categories as codes) of games ``[start, stop)`` of run
    ``seed``, split over ``n_jobs`` threads (the kernels release the GIL): what a search
    needs of its many small runs, without rows or a store."""
    workers = min(local_workers(n_jobs), max(1, (stop - start) // 50))
    if workers == 1:
        return _play(game, rules, policy, seed, start, stop)
    cuts = np.linspace(start, stop, workers + 1).astype(int)
    with ThreadPoolExecutor(workers, thread_name_prefix="simkit-arena") as pool:
        parts = list(pool.map(lambda ab: _play(game, rules, policy, seed, *ab),
                              zip(cuts[:-1], cuts[1:], strict=True)))
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def _play(game, rules, policy, seed, start, stop) -> dict[str, np.ndarray]:
    indices = np.arange(start, stop, dtype=np.int64)
    return game.simulate(rules, policy, indices, seed)


# -- the arenas a search plays in -------------------------------------------------------
def against(game, side: str, rules, others: dict, n_jobs: int = 1) -> Arena:
    """``side`` (a side or seat) against fixed policies of the others."""
    return Arena(game, (Entry(1.0, rules, dict(others), side),), _target(game, side), n_jobs)


def against_mix(game, side: str, rules, mix: list[tuple[float, dict]],
                n_jobs: int = 1) -> Arena:
    """``side`` against a mix of the others' policies: ``[(probability, {side:
    policy}), ...]``; each game's score weighs the candidate's win against each."""
    total = sum(p for p, _ in mix)
    entries = tuple(Entry(p / total, rules, dict(o), side) for p, o in mix if p > 0)
    return Arena(game, entries, _target(game, side), n_jobs)


def rotated(game, tribe: str, rules, by_tribe: dict, n_jobs: int = 1) -> Arena:
    """A seated game's ``tribe`` under every cyclic rotation of the seats, its policy
    moving with it; every other tribe plays ``by_tribe``'s policy (else its seat's
    default) wherever it sits. The score of a game is the tribe's wins averaged over
    the rotations."""
    seated_rules = seatings(game, rules)
    if tribe not in game.seated(rules):
        raise UsageError(f"tribe {tribe!r} is not seated in {game.name} under these rules; "
                         f"seated: {', '.join(game.seated(rules))}")
    entries = []
    for turned in seated_rules:
        tribes = game.seated(turned)
        seats = game.sides[:len(tribes)]
        others = {seat: by_tribe.get(t, next(iter(game.policies[seat])))
                  for seat, t in zip(seats, tribes, strict=True) if t != tribe}
        entries.append(Entry(1 / len(seated_rules), turned, others,
                             seats[tribes.index(tribe)]))
    return Arena(game, tuple(entries), ("winner", tribe), n_jobs)


def _target(game, side: str) -> tuple[str, str]:
    """A side's wins: the side itself where it is a winner category (a side, a seat),
    else the game's first winner."""
    named = any(side in cats for cats in winner_categories(game).values())
    return resolve_side(game, side if named else None)


# -- comparing two candidates on the same games ----------------------------------------
def paired_gain(new: np.ndarray, old: np.ndarray, confidence: float = 0.95) -> stats.Comparison:
    """``mean(new) - mean(old)`` over the same games with its interval: McNemar and
    Tango's interval for wins (0/1 scores); a paired t interval (``scipy.stats.ttest_1samp``
    on the differences) for weighted scores."""
    new, old = np.asarray(new, dtype=float), np.asarray(old, dtype=float)
    if np.isin(new, (0.0, 1.0)).all() and np.isin(old, (0.0, 1.0)).all():
        return stats.paired_difference(new.astype(bool), old.astype(bool), confidence)
    d = new - old
    if np.all(d == d[0]):
        interval = stats.Interval(float(d[0]), float(d[0]), float(d[0]), confidence)
        return stats.Comparison(interval, 1.0 if d[0] == 0 else 0.0, "paired t", d.size)
    test = scipy_stats.ttest_1samp(d, 0.0)
    ci = test.confidence_interval(confidence)
    interval = stats.Interval(float(d.mean()), float(ci.low), float(ci.high), confidence)
    return stats.Comparison(interval, float(test.pvalue), "paired t", d.size)
