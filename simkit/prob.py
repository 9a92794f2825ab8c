"""Exact discrete distributions for rules-probability questions, in exact fractions, and
the one layout every ``simkit prob`` answer takes.

A distribution is a ``dict`` mapping an integer outcome to its ``Fraction``. Games build
their closed-form answers from these pieces (``games/<game>/prob.py``).

The layout (``answer_table``): one row per event, the columns that say what the event is
(in the rulebook's words), then ``p`` (the chance as a float) and ``fraction`` (the same
chance exactly, a ``fractions.Fraction``). A question whose answer does not depend on
chance (a rules table: losses, scores, fame) is marked ``deterministic`` and has no ``p``.
"""

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import comb

import pandas as pd

Dist = dict[int, Fraction]
CHANCE_COLUMNS = ("p", "fraction")


def answer_table(rows: Iterable[dict]) -> pd.DataFrame:
    """The answer layout: each row's describing columns, then ``p`` and ``fraction``.
    Each row gives its chance exactly under the key ``"p"``."""
    out = []
    for row in rows:
        chance = Fraction(row["p"])
        described = {k: v for k, v in row.items() if k != "p"}
        out.append({**described, "p": float(chance), "fraction": chance})
    return pd.DataFrame(out)


def dist_rows(dist: Dist, outcome: str) -> list[dict]:
    """A distribution as answer rows: one per outcome, in order."""
    return [{outcome: k, "p": p} for k, p in sorted(dist.items())]


def mean(dist: Dist) -> Fraction:
    """The expected value of a distribution, exactly."""
    return sum((k * p for k, p in dist.items()), Fraction(0))


def die(sides: int = 6) -> Dist:
    """One fair die: 1..sides, each 1/sides."""
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def success_chance(target: int, sides: int = 6) -> Fraction:
    """P(one die shows ``target`` or more)."""
    return Fraction(max(0, min(sides, sides + 1 - target)), sides)


def binomial(n: int, p: Fraction) -> Dist:
    """Number of successes among ``n`` independent trials of chance ``p``."""
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent outcomes."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def difference(a: Dist, b: Dist) -> Dist:
    """Distribution of ``A - B`` for independent A and B."""
    return convolve(a, {-y: p for y, p in b.items()})


def cap(dist: Dist, most: int) -> Dist:
    """Distribution of ``min(X, most)``: the tail above ``most`` lands on ``most``."""
    out: Dist = {}
    for x, p in dist.items():
        key = min(x, most)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def prob(dist: Dist, event: Callable[[int], bool]) -> Fraction:
    """P(event) under ``dist``."""
    return sum((p for x, p in dist.items() if event(x)), Fraction(0))


def geometric_by(p: Fraction, t: int) -> Fraction:
    """P(the first success of chance ``p`` per trial comes by trial ``t``)."""
    return 1 - (1 - p) ** t


def geometric_on(p: Fraction, t: int) -> Fraction:
    """P(the first success of chance ``p`` per trial comes exactly on trial ``t``)."""
    return (1 - p) ** (t - 1) * p
