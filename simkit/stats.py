"""Statistics for Monte Carlo balance results, built on :mod:`scipy.stats`.

What this module offers:

* :class:`Interval` - a point estimate with confidence limits.
* :func:`wilson` and :func:`clopper_pearson` - intervals for one proportion
  (scipy's ``binomtest(...).proportion_ci``).
* :class:`Comparison`, :func:`paired_difference` (and :func:`paired_from_counts`) -
  the paired difference of two proportions on common random numbers with one coherent
  method: the McNemar test and Tango's score interval, which inverts it, with the
  discordant counts;
  :func:`unpaired_difference` - independent samples (Newcombe's hybrid score interval,
  pooled z test).
* :func:`holm` - Holm-Bonferroni step-down adjustment; :func:`holm_confidences` - the
  per-comparison levels whose intervals agree with the Holm verdicts.
* :func:`mean_interval` (Student t) and :func:`bootstrap_mean` (BCa, refusing
  degenerate input) - intervals for a mean.
* :func:`games_needed` - games for a wanted Wilson (or exact) half-width, right near 0
  and 1; :func:`paired_games_needed` and :func:`paired_games_to_separate` - games for a
  paired difference from an expected discordance (interval width, or McNemar power).
* :func:`rate_table` - a pandas table of category counts and rates with Wilson limits.

The tests and intervals a library offers come from it: proportion intervals from scipy,
the McNemar test, Newcombe's unpaired interval and the pooled z test from statsmodels.
Only what neither offers is written here: Tango's paired score interval (roots by
``scipy.optimize.brentq``), Connor's paired sample size and the sample-size searches;
and Holm's step-down, whose statsmodels version collects garbage on every call (see
``holm``). The module knows nothing about games.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

__all__ = [
    "Comparison",
    "Interval",
    "bootstrap_mean",
    "clopper_pearson",
    "games_needed",
    "holm",
    "holm_confidences",
    "mcnemar_p",
    "mean_interval",
    "paired_difference",
    "paired_limits",
    "paired_from_counts",
    "paired_games_needed",
    "paired_games_to_separate",
    "rate_table",
    "tango_score",
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
    a_only: int = 0  # paired: games only the first variant scored (discordant)
    b_only: int = 0  # paired: games only the second variant scored


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


def _paired_counts(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int, int]:
    """Counts (both, a only, b only, neither) of two equal-length boolean arrays."""
    both = int(np.count_nonzero(a & b))
    a_only = int(np.count_nonzero(a & ~b))
    b_only = int(np.count_nonzero(~a & b))
    return both, a_only, b_only, a.size - both - a_only - b_only


def _mcnemar_one(a_only: float, b_only: float) -> float:
    """statsmodels' McNemar p-value for one pair of discordant counts (asymptotic chi-square,
    no continuity correction); 1 when no pair is discordant (statsmodels divides by 0)."""
    if a_only + b_only == 0:
        return 1.0
    table = [[0.0, float(a_only)], [float(b_only), 0.0]]  # only the discordant cells count
    return float(mcnemar(table, exact=False, correction=False).pvalue)


def mcnemar_p(a_only, b_only) -> np.ndarray | float:
    """Two-sided McNemar p-value (asymptotic, no continuity correction:
    ``statsmodels.stats.contingency_tables.mcnemar(exact=False, correction=False)``, the
    chi-square of z = (a_only - b_only) / sqrt(a_only + b_only)); 1 when no pair is
    discordant. Vectorised over arrays of counts. Fagerland, Lydersen & Laake (2013)
    recommend it over the exact conditional test, whose actual size is far below the
    nominal."""
    a, b = np.broadcast_arrays(np.asarray(a_only, dtype=float), np.asarray(b_only, dtype=float))
    p = np.array([_mcnemar_one(x, y) for x, y in zip(a.ravel(), b.ravel(), strict=True)],
                 dtype=float).reshape(a.shape)
    return float(p) if p.ndim == 0 else p


def tango_score(delta: float, a_only: float, b_only: float, n: float) -> float:
    """Tango's (1998) score statistic for the paired difference ``delta`` = p(A only) -
    p(B only): (a - b - n delta) / sqrt(n (2 q + delta (1 - delta))), q the maximum
    likelihood p(B only) under ``delta``. At delta = 0 it is McNemar's z."""
    w = -a_only - b_only + (2 * n - a_only + b_only) * delta
    q = (math.sqrt(max(w * w + 8 * n * b_only * delta * (1 - delta), 0.0)) - w) / (4 * n)
    variance = n * (2 * q + delta * (1 - delta))
    excess = a_only - b_only - n * delta
    if variance <= 0:  # delta at -1 or 1: no spread left, only the sign counts
        return 0.0 if excess == 0 else math.copysign(math.inf, excess)
    return excess / math.sqrt(variance)


def _tango_limit(a_only, b_only, n, z, estimate, upper: bool) -> float:
    """The Tango limit on one side of ``estimate``: where the score equals -z (upper)
    or +z (lower); the score falls as delta rises."""
    from scipy.optimize import brentq

    edge = 1.0 - 1e-12 if upper else -1.0 + 1e-12
    goal = -z if upper else z
    if (upper and estimate >= edge) or (not upper and estimate <= edge):
        return 1.0 if upper else -1.0
    f = lambda d: tango_score(d, a_only, b_only, n) - goal  # noqa: E731
    if f(edge) * f(estimate) > 0:
        return 1.0 if upper else -1.0
    lo, hi = (estimate, edge) if upper else (edge, estimate)
    return float(brentq(f, lo, hi, xtol=1e-14, rtol=1e-14))


def paired_limits(a_only, b_only, n, confidence=0.95):
    """Tango's (1998) score interval for the paired difference (a_only - b_only) / n:
    every difference its score test does not reject. It inverts the McNemar test: it
    excludes 0 exactly when ``mcnemar_p < 1 - confidence``; with no discordant pair it
    is +/- z^2 / (n + z^2). Vectorised; ``confidence`` may be an array (one level per
    comparison)."""
    a, b, n, conf = np.broadcast_arrays(np.asarray(a_only, dtype=float),
                                        np.asarray(b_only, dtype=float),
                                        np.asarray(n, dtype=float),
                                        np.asarray(confidence, dtype=float))
    low, high = np.empty(a.shape), np.empty(a.shape)
    for i in np.ndindex(a.shape):
        z = float(stats.norm.ppf(1 - (1 - conf[i]) / 2))
        estimate = (a[i] - b[i]) / n[i]
        low[i] = _tango_limit(a[i], b[i], n[i], z, estimate, upper=False)
        high[i] = _tango_limit(a[i], b[i], n[i], z, estimate, upper=True)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def paired_from_counts(a_only: int, b_only: int, n: int,
                       confidence: float = 0.95) -> Comparison:
    """The paired comparison from its discordant counts (see ``paired_difference``)."""
    _check_confidence(confidence)
    if not 0 <= a_only + b_only <= n or min(a_only, b_only) < 0 or n <= 0:
        raise ValueError(f"discordant counts {a_only} + {b_only} must lie in [0, n={n}]")
    low, high = paired_limits(a_only, b_only, n, confidence)
    diff = Interval((a_only - b_only) / n, float(low), float(high), confidence)
    return Comparison(diff, float(mcnemar_p(a_only, b_only)), PAIRED_METHOD, int(n),
                      int(a_only), int(b_only))


PAIRED_METHOD = "McNemar / Tango score interval"


def paired_difference(a, b, confidence: float = 0.95) -> Comparison:
    """Compare paired boolean outcomes (variants A and B on the same seeds).

    Difference mean(a) - mean(b) with one coherent method: the McNemar p-value
    (``mcnemar_p``) and Tango's score interval (``paired_limits``), which inverts the
    same test, so the interval excludes 0 exactly when p < 1 - confidence (unlike
    Newcombe's interval beside an exact test). ``a_only``/``b_only`` count the games
    only A / only B scored (the discordant pairs).
    """
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError(
            f"a and b must be non-empty 1-D arrays of equal length, got {a.shape} and {b.shape}"
        )
    _, a_only, b_only, _ = _paired_counts(a, b)
    return paired_from_counts(a_only, b_only, a.size, confidence)


def _pooled_z_pvalue(successes1: int, n1: int, successes2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z test
    (``statsmodels.stats.proportion.proportions_ztest``); 1.0 if the pool is 0 or 1."""
    if successes1 + successes2 in (0, n1 + n2):
        return 1.0
    _, p = proportions_ztest([successes1, successes2], [n1, n2])
    return float(p)


def unpaired_difference(
    successes1: int, n1: int, successes2: int, n2: int, confidence: float = 0.95
) -> Comparison:
    """Compare two independent proportions p1 = successes1/n1 and p2 = successes2/n2.

    Difference p1 - p2 with Newcombe's (1998) hybrid score interval (method 10:
    ``statsmodels.stats.proportion.confint_proportions_2indep(method="newcomb")``) and the
    two-sided pooled two-proportion z test p-value.
    """
    _check_confidence(confidence)
    _check_counts(successes1, n1)
    _check_counts(successes2, n2)
    k1, n1, k2, n2 = int(successes1), int(n1), int(successes2), int(n2)
    low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff",
                                           alpha=1 - confidence)
    diff = Interval(k1 / n1 - k2 / n2, max(float(low), -1.0), min(float(high), 1.0),
                    confidence)
    return Comparison(diff, _pooled_z_pvalue(k1, n1, k2, n2), "two-proportion z / Newcombe",
                      n1 + n2)


def holm(p_values: Sequence[float], alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm-Bonferroni step-down adjustment.

    Returns (adjusted p-values, reject flags) in the input order: the same values as
    ``statsmodels.stats.multitest.multipletests(method="holm")`` (a test checks it),
    written here because statsmodels calls ``gc.collect()`` on every Holm call, which
    takes 0.3 s in a process holding compiled engines (4 s of one report). Adjusted
    values are monotone in the sorted order and clipped to 1; reject means adjusted <=
    alpha.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p_values must be a 1-D sequence of numbers in [0, 1]")
    if p.size == 0:
        return np.empty(0), np.empty(0, dtype=bool)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    adjusted = np.empty(p.size)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted, adjusted <= alpha


def holm_confidences(p_values: Sequence[float], alpha: float = 0.05) -> np.ndarray:
    """The confidence level of each comparison's interval that agrees with its Holm
    verdict: a comparison Holm rejects at step j (of m, p-values ascending) gets
    1 - alpha / (m - j + 1), the level it was tested at; every comparison not rejected
    gets 1 - alpha / (m - r), the level at which the step-down stopped (r rejections).
    An interval that inverts its test at these levels excludes 0 exactly when Holm
    rejects (``paired_limits`` with ``mcnemar_p``)."""
    _, reject = holm(p_values, alpha)
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    ranks = np.empty(p.size, dtype=int)
    ranks[order] = np.arange(1, p.size + 1)
    rejected = int(reject.sum())
    step = np.where(reject, p.size - ranks + 1, max(p.size - rejected, 1))
    return 1 - alpha / step


def _rng_keyword(generator: np.random.Generator) -> dict[str, np.random.Generator]:
    """Pass a Generator to scipy.stats.bootstrap as ``rng`` (new) or ``random_state`` (old)."""
    if "rng" in inspect.signature(stats.bootstrap).parameters:
        return {"rng": generator}
    return {"random_state": generator}


def bootstrap_mean(
    values, confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0
) -> Interval:
    """BCa bootstrap interval for the mean of ``values`` (seeded, reproducible).

    Refuses (ValueError) fewer than two values or identical values: every resample
    would have the same mean, and a zero-width interval would claim a certainty the
    sample cannot give (use ``mean_interval``, which says so, or more games)."""
    _check_confidence(confidence)
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0 or not np.all(np.isfinite(x)):
        raise ValueError("values must be a non-empty array of finite numbers")
    if x.size < 2 or np.all(x == x[0]):
        raise ValueError(f"all {x.size} values equal {x[0]:g}: a bootstrap interval would "
                         "have zero width; it cannot say how the mean varies")
    result = stats.bootstrap(
        (x,),
        np.mean,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method="BCa",
        **_rng_keyword(np.random.default_rng(seed)),
    )
    ci = result.confidence_interval
    return Interval(float(np.mean(x)), float(ci.low), float(ci.high), confidence)


def mean_interval(values, confidence: float = 0.95) -> Interval | None:
    """Student t interval for the mean of ``values`` (``scipy.stats.t``); None when the
    values are all equal (or fewer than two): no interval can be estimated."""
    _check_confidence(confidence)
    x = np.asarray(values, dtype=float).ravel()
    if x.size < 2 or np.all(x == x[0]):
        return None
    mean, sem = float(np.mean(x)), float(stats.sem(x))
    low, high = stats.t.interval(confidence, x.size - 1, loc=mean, scale=sem)
    return Interval(mean, float(low), float(high), confidence)


def _z(confidence: float) -> float:
    return float(stats.norm.ppf(1 - (1 - confidence) / 2))


def wilson_half_width(n, p: float, confidence: float = 0.95):
    """The Wilson interval's half-width (the larger side) at rate ``p`` over ``n``
    games, with the expected count p * n (vectorised over n)."""
    n = np.asarray(n, dtype=float)
    z2 = _z(confidence) ** 2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = math.sqrt(z2) / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n**2))
    return np.maximum(p - (centre - half), centre + half - p)


def exact_half_width(n, p: float, confidence: float = 0.95):
    """The Clopper-Pearson interval's half-width (the larger side) at rate ``p`` over
    ``n`` games, with the expected count p * n (vectorised over n)."""
    n = np.asarray(n, dtype=float)
    k, tail = p * n, (1 - confidence) / 2
    with np.errstate(invalid="ignore"):
        low = np.where(k > 0, stats.beta.ppf(tail, k, n - k + 1), 0.0)
        high = np.where(k < n, stats.beta.ppf(1 - tail, k + 1, n - k), 1.0)
    return np.maximum(p - low, high - p)


def _smallest_n(width, margin: float, limit: int = 10**12) -> int:
    """Smallest n >= 1 with width(n) <= margin, width decreasing in n (doubling, then
    bisection)."""
    hi = 1
    while float(width(hi)) > margin:
        hi *= 2
        if hi > limit:
            raise ValueError(f"no sample size up to {limit:,} reaches the margin {margin}")
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if float(width(mid)) <= margin else (mid, hi)
    return hi


GAMES_NEEDED_METHODS = ("wilson", "exact", "normal")


def games_needed(margin: float, p: float = 0.5, confidence: float = 0.95,
                 method: str = "wilson") -> int:
    """Smallest number of games whose interval for a rate near ``p`` has a half-width
    (the larger side) of at most ``margin``.

    ``method``: "wilson" (the intervals the reports show) or "exact" (Clopper-Pearson),
    both right at p near 0 or 1 (at p = 0 the interval is [0, upper], not zero-width);
    "normal" is z * sqrt(p (1 - p) / n), which is wrong there (it gives 1 game at p = 0).
    """
    if not margin > 0:
        raise ValueError(f"margin must be positive, got {margin!r}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p!r}")
    _check_confidence(confidence)
    if method == "normal":
        z = _z(confidence)
        # Rounding guards against 9604.000000000002-style float noise pushing n up by one.
        return max(1, math.ceil(round(z**2 * p * (1 - p) / margin**2, 6)))
    if method == "wilson":
        return _smallest_n(lambda n: wilson_half_width(n, p, confidence), margin)
    if method == "exact":
        return _smallest_n(lambda n: exact_half_width(n, p, confidence), margin)
    raise ValueError(f"method must be one of {', '.join(GAMES_NEEDED_METHODS)}, got "
                     f"{method!r}")


def _check_paired_plan(discordance: float, difference: float) -> None:
    if not 0 < discordance <= 1:
        raise ValueError(f"discordance (the share of games the two settings end "
                         f"differently) must be in (0, 1], got {discordance!r}")
    if not abs(difference) <= discordance:
        raise ValueError(f"a paired difference ({difference!r}) cannot exceed the "
                         f"discordance ({discordance!r}) in size")


def paired_games_needed(margin: float, discordance: float, difference: float = 0.0,
                        confidence: float = 0.95) -> int:
    """Games for the paired interval (``paired_limits``) of a difference near
    ``difference`` to have a half-width (larger side) of at most ``margin``, when a
    share ``discordance`` of the games end differently in the two settings."""
    if not margin > 0:
        raise ValueError(f"margin must be positive, got {margin!r}")
    _check_confidence(confidence)
    _check_paired_plan(discordance, difference)
    a_share, b_share = (discordance + difference) / 2, (discordance - difference) / 2

    def width(n):
        low, high = paired_limits(a_share * n, b_share * n, n, confidence)
        return max(difference - float(low), float(high) - difference)

    return _smallest_n(width, margin)


def paired_games_to_separate(difference: float, discordance: float, alpha: float = 0.05,
                             power: float = 0.8) -> int:
    """Games for a two-sided McNemar test at level ``alpha`` to find a paired difference
    of ``difference`` with probability ``power``, when a share ``discordance`` of the
    games end differently (Connor 1987):
    n = (z_(1-alpha/2) sqrt(psi) + z_power sqrt(psi - d^2))^2 / d^2."""
    if difference == 0:
        raise ValueError("difference must be non-zero: no sample size separates equal "
                         "settings")
    _check_paired_plan(discordance, difference)
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(f"alpha and power must lie in (0, 1), got {alpha!r}, {power!r}")
    za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    d2 = difference**2
    n = (za * math.sqrt(discordance) + zb * math.sqrt(discordance - d2)) ** 2 / d2
    return max(1, math.ceil(round(n, 6)))


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
