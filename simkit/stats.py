"""Statistics for Monte Carlo balance results, built on :mod:`scipy.stats`.

What this module offers:

* :class:`Interval` - a point estimate with confidence limits.
* :func:`wilson` and :func:`clopper_pearson` - intervals for one proportion
  (scipy's ``binomtest(...).proportion_ci``).
* :class:`Comparison`, :func:`paired_difference` and :func:`unpaired_difference` -
  the difference of two proportions with a Newcombe (1998) score interval and a
  p-value (exact McNemar test for paired outcomes on common random numbers,
  pooled two-proportion z test for independent samples).
* :func:`holm` - Holm-Bonferroni step-down adjustment for multiple comparisons.
* :func:`bootstrap_mean` - BCa bootstrap interval for a mean (``scipy.stats.bootstrap``).
* :func:`games_needed` - sample size for a wanted normal-approximation margin.
* :func:`rate_table` - a pandas table of category counts and rates with Wilson limits.

Only what scipy lacks is written by hand: Newcombe's difference intervals and Holm's
adjustment. The module knows nothing about games.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

__all__ = [
    "Comparison",
    "Interval",
    "bootstrap_mean",
    "clopper_pearson",
    "games_needed",
    "holm",
    "paired_difference",
    "rate_table",
    "unpaired_difference",
    "wilson",
]


@dataclass(frozen=True)
class Interval:
    """A point estimate with the limits of a two-sided confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float

    @property
    def half_width(self) -> float:
        """The larger distance from the estimate to either limit."""
        return max(self.estimate - self.low, self.high - self.estimate)

    def __str__(self) -> str:
        return f"{self.estimate:.4f} [{self.low:.4f}, {self.high:.4f}]"


@dataclass(frozen=True)
class Comparison:
    """The difference between two proportions, its interval and a test p-value."""

    difference: Interval
    p_value: float
    method: str
    n: int


def _check_confidence(confidence: float) -> None:
    """Raise ValueError unless 0 < confidence < 1."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")


def _check_counts(successes: int, n: int) -> None:
    """Raise ValueError unless n >= 1 and 0 <= successes <= n, both whole numbers."""
    if int(n) != n or n <= 0:
        raise ValueError(f"n must be a positive whole number, got {n!r}")
    if int(successes) != successes or not 0 <= successes <= n:
        raise ValueError(f"successes must be a whole number in [0, n={n}], got {successes!r}")


def _proportion_interval(successes: int, n: int, confidence: float, method: str) -> Interval:
    """Validate the inputs and ask scipy's binomtest for a proportion interval."""
    _check_confidence(confidence)
    _check_counts(successes, n)
    k, n = int(successes), int(n)
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method=method)
    return Interval(k / n, float(ci.low), float(ci.high), confidence)


def wilson(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for the proportion successes / n."""
    return _proportion_interval(successes, n, confidence, "wilson")


def clopper_pearson(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """Clopper-Pearson ("exact") interval for the proportion successes / n."""
    return _proportion_interval(successes, n, confidence, "exact")


def _newcombe(p1: Interval, p2: Interval, phi: float = 0.0) -> tuple[float, float]:
    """Newcombe's square-and-add limits for p1 - p2 from the two Wilson intervals.

    ``phi`` is the correlation between the two estimates (0 for independent samples).
    """
    d1_low, d1_high = p1.estimate - p1.low, p1.high - p1.estimate
    d2_low, d2_high = p2.estimate - p2.low, p2.high - p2.estimate
    diff = p1.estimate - p2.estimate
    below = math.sqrt(max(d1_low**2 - 2 * phi * d1_low * d2_high + d2_high**2, 0.0))
    above = math.sqrt(max(d1_high**2 - 2 * phi * d1_high * d2_low + d2_low**2, 0.0))
    return max(diff - below, -1.0), min(diff + above, 1.0)


def _newcombe_phi(both: int, a_only: int, b_only: int, neither: int) -> float:
    """Newcombe's (1998) corrected phi for a paired 2x2 table.

    phi = (AD - BC - N/2) / sqrt(EFGH) when AD - BC > N/2, 0 when 0 <= AD - BC <= N/2,
    (AD - BC) / sqrt(EFGH) when AD - BC < 0, and 0 when any margin E, F, G, H is 0.
    """
    n = both + a_only + b_only + neither
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    if margins == 0:
        return 0.0
    cross = both * neither - a_only * b_only
    if cross > n / 2:
        cross -= n / 2
    elif cross >= 0:
        cross = 0
    return cross / math.sqrt(margins)


def _paired_counts(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int, int]:
    """Counts (both, a only, b only, neither) of two equal-length boolean arrays."""
    both = int(np.count_nonzero(a & b))
    a_only = int(np.count_nonzero(a & ~b))
    b_only = int(np.count_nonzero(~a & b))
    return both, a_only, b_only, a.size - both - a_only - b_only


def paired_difference(a, b, confidence: float = 0.95) -> Comparison:
    """Compare paired boolean outcomes (variants A and B on the same seeds).

    Difference mean(a) - mean(b), Newcombe's (1998) paired method 10 interval (Wilson
    intervals of the two margins with the phi correction) and the exact McNemar p-value
    on the discordant pairs (1.0 when there are none).
    """
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError(
            f"a and b must be non-empty 1-D arrays of equal length, got {a.shape} and {b.shape}"
        )
    both, a_only, b_only, neither = _paired_counts(a, b)
    n = a.size
    ci_a, ci_b = wilson(both + a_only, n, confidence), wilson(both + b_only, n, confidence)
    low, high = _newcombe(ci_a, ci_b, _newcombe_phi(both, a_only, b_only, neither))
    discordant = a_only + b_only
    p_value = stats.binomtest(a_only, discordant, 0.5).pvalue if discordant else 1.0
    diff = Interval(ci_a.estimate - ci_b.estimate, low, high, confidence)
    return Comparison(diff, float(p_value), "McNemar exact / Newcombe paired", n)


def _pooled_z_pvalue(successes1: int, n1: int, successes2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z test (1.0 if the pool is 0 or 1)."""
    pooled = (successes1 + successes2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (successes1 / n1 - successes2 / n2) / se
    return float(2 * stats.norm.sf(abs(z)))


def unpaired_difference(
    successes1: int, n1: int, successes2: int, n2: int, confidence: float = 0.95
) -> Comparison:
    """Compare two independent proportions p1 = successes1/n1 and p2 = successes2/n2.

    Difference p1 - p2 with Newcombe's (1998) hybrid score interval (method 10) and the
    two-sided pooled two-proportion z test p-value.
    """
    ci1, ci2 = wilson(successes1, n1, confidence), wilson(successes2, n2, confidence)
    low, high = _newcombe(ci1, ci2)
    diff = Interval(ci1.estimate - ci2.estimate, low, high, confidence)
    p_value = _pooled_z_pvalue(int(successes1), int(n1), int(successes2), int(n2))
    return Comparison(diff, p_value, "two-proportion z / Newcombe", int(n1) + int(n2))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm-Bonferroni step-down adjustment.

    Returns (adjusted p-values, reject flags) in the input order; adjusted values are
    monotone in the sorted order and clipped to 1; reject means adjusted <= alpha.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p_values must be a 1-D sequence of numbers in [0, 1]")
    order = np.argsort(p, kind="stable")
    steps = p[order] * (p.size - np.arange(p.size))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.maximum.accumulate(steps), 1.0)
    return adjusted, adjusted <= alpha


def _rng_keyword(generator: np.random.Generator) -> dict[str, np.random.Generator]:
    """Pass a Generator to scipy.stats.bootstrap as ``rng`` (new) or ``random_state`` (old)."""
    if "rng" in inspect.signature(stats.bootstrap).parameters:
        return {"rng": generator}
    return {"random_state": generator}


def bootstrap_mean(
    values, confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0
) -> Interval:
    """BCa bootstrap interval for the mean of ``values`` (seeded, reproducible).

    Identical values give the degenerate interval [m, m] without resampling.
    """
    _check_confidence(confidence)
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0 or not np.all(np.isfinite(x)):
        raise ValueError("values must be a non-empty array of finite numbers")
    mean = float(np.mean(x))
    if np.all(x == x[0]):
        return Interval(mean, mean, mean, confidence)
    result = stats.bootstrap(
        (x,),
        np.mean,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method="BCa",
        **_rng_keyword(np.random.default_rng(seed)),
    )
    ci = result.confidence_interval
    return Interval(mean, float(ci.low), float(ci.high), confidence)


def games_needed(margin: float, p: float = 0.5, confidence: float = 0.95) -> int:
    """Smallest n whose normal-approximation half-width z*sqrt(p(1-p)/n) is <= margin."""
    if not margin > 0:
        raise ValueError(f"margin must be positive, got {margin!r}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p!r}")
    _check_confidence(confidence)
    z = stats.norm.ppf(1 - (1 - confidence) / 2)
    # Rounding guards against 9604.000000000002-style float noise pushing n up by one.
    return max(1, math.ceil(round(z**2 * p * (1 - p) / margin**2, 6)))


def rate_table(counts: Mapping[str, int], n: int, confidence: float = 0.95) -> pd.DataFrame:
    """One row per category (in the given order): count, rate and Wilson low/high."""
    _check_counts(0, n)
    intervals = {name: wilson(count, n, confidence) for name, count in counts.items()}
    return pd.DataFrame(
        {
            "count": [int(c) for c in counts.values()],
            "rate": [ci.estimate for ci in intervals.values()],
            "low": [ci.low for ci in intervals.values()],
            "high": [ci.high for ci in intervals.values()],
        },
        index=pd.Index(list(counts), name="outcome"),
    )
