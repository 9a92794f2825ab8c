"""Tests for simkit.stats against published or independently hand-computed values."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from simkit.stats import (
    Comparison,
    Interval,
    bootstrap_mean,
    clopper_pearson,
    games_needed,
    holm,
    paired_difference,
    rate_table,
    unpaired_difference,
    wilson,
)

Z95 = 1.959963984540054  # standard normal 97.5% quantile


def paired_arrays(both: int, a_only: int, b_only: int, neither: int):
    """Boolean outcome arrays with the given 2x2 paired counts."""
    a = [True] * both + [True] * a_only + [False] * b_only + [False] * neither
    b = [True] * both + [False] * a_only + [True] * b_only + [False] * neither
    return np.array(a), np.array(b)


def hand_wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score limits from the closed form (no scipy)."""
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    return centre - half, centre + half


def hand_newcombe_paired(both: int, a_only: int, b_only: int, neither: int):
    """Newcombe (1998) paired method 10, written out step by step."""
    n = both + a_only + b_only + neither
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = hand_wilson(both + a_only, n)
    l2, u2 = hand_wilson(both + b_only, n)
    # phi with Newcombe's correction: AD - BC shrunk by N/2 towards 0 when positive.
    e, f = both + a_only, b_only + neither
    g, h = both + b_only, a_only + neither
    cross = both * neither - a_only * b_only
    if e * f * g * h == 0:
        phi = 0.0
    elif cross > n / 2:
        phi = (cross - n / 2) / math.sqrt(e * f * g * h)
    elif cross >= 0:
        phi = 0.0
    else:
        phi = cross / math.sqrt(e * f * g * h)
    delta = math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    epsilon = math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return p1 - p2, p1 - p2 - delta, p1 - p2 + epsilon


# --- Interval -----------------------------------------------------------------


def test_interval_str_half_width_and_frozen():
    ci = Interval(0.41666, 0.41020, 0.42321, 0.95)
    assert str(ci) == "0.4167 [0.4102, 0.4232]"
    assert ci.half_width == pytest.approx(0.42321 - 0.41666)
    assert Interval(0.1, 0.0, 0.5, 0.95).half_width == pytest.approx(0.4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ci.low = 0.0


# --- single proportions -------------------------------------------------------


def test_wilson_newcombe_example_81_of_263():
    # Newcombe (1998) / Wikipedia worked example: 81/263 -> 0.2553 to 0.3662.
    ci = wilson(81, 263)
    assert ci.estimate == pytest.approx(81 / 263)
    assert round(ci.low, 4) == 0.2553
    assert round(ci.high, 4) == 0.3662
    assert ci.confidence == 0.95
    assert (ci.low, ci.high) == pytest.approx(hand_wilson(81, 263), abs=1e-12)


def test_clopper_pearson_known_values():
    zero = clopper_pearson(0, 10)
    assert zero.low == 0.0
    assert round(zero.high, 4) == 0.3085
    assert zero.high == pytest.approx(1 - 0.025 ** (1 / 10))  # closed form for k = 0
    half = clopper_pearson(5, 10)
    assert (round(half.low, 4), round(half.high, 4)) == (0.1871, 0.8129)


def test_wilson_narrower_than_clopper_pearson_and_confidence_matters():
    assert wilson(5, 10).high - wilson(5, 10).low < clopper_pearson(5, 10).high - (
        clopper_pearson(5, 10).low
    )
    assert wilson(5, 10, 0.99).half_width > wilson(5, 10, 0.90).half_width


@pytest.mark.parametrize("func", [wilson, clopper_pearson])
@pytest.mark.parametrize(
    ("successes", "n", "confidence", "match"),
    [
        (0, 0, 0.95, "n must"),
        (1, -5, 0.95, "n must"),
        (-1, 10, 0.95, "successes"),
        (11, 10, 0.95, "successes"),
        (5, 10, 0.0, "confidence"),
        (5, 10, 1.0, "confidence"),
        (5, 10, 95, "confidence"),
    ],
)
def test_proportion_intervals_reject_bad_input(func, successes, n, confidence, match):
    with pytest.raises(ValueError, match=match):
        func(successes, n, confidence)


def test_wilson_coverage_simulation():
    rng = np.random.default_rng(12345)
    n, p = 200, 0.3
    draws = rng.binomial(n, p, size=2000)
    covers = {k: (ci := wilson(int(k), n)).low <= p <= ci.high for k in np.unique(draws)}
    coverage = np.mean([covers[k] for k in draws])
    assert 0.93 <= coverage <= 0.97


# --- unpaired differences -----------------------------------------------------


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2", "diff", "low", "high"),
    [
        (56, 70, 48, 80, 0.2000, 0.0524, 0.3339),  # Newcombe (1998) Table II, method 10
        (9, 10, 3, 10, 0.6000, 0.1705, 0.8090),  # Newcombe (1998) Table II, method 10
    ],
)
def test_unpaired_newcombe_published(x1, n1, x2, n2, diff, low, high):
    cmp = unpaired_difference(x1, n1, x2, n2)
    assert isinstance(cmp, Comparison)
    assert round(cmp.difference.estimate, 4) == diff
    assert round(cmp.difference.low, 4) == low
    assert round(cmp.difference.high, 4) == high
    assert cmp.n == n1 + n2
    assert cmp.method == "two-proportion z / Newcombe"


def test_unpaired_pvalue_matches_hand_pooled_z():
    x1, n1, x2, n2 = 56, 70, 48, 80
    pooled = (x1 + x2) / (n1 + n2)
    z = (x1 / n1 - x2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    expected = math.erfc(abs(z) / math.sqrt(2))  # two-sided normal tail
    assert unpaired_difference(x1, n1, x2, n2).p_value == pytest.approx(expected, rel=1e-9)
    # Swapping the groups flips the sign of the difference, not the p-value.
    swapped = unpaired_difference(x2, n2, x1, n1)
    assert swapped.difference.estimate == pytest.approx(-0.2)
    assert swapped.p_value == pytest.approx(expected, rel=1e-9)


def test_unpaired_equal_extremes_give_p_one():
    cmp = unpaired_difference(0, 50, 0, 60)
    assert cmp.p_value == 1.0
    assert cmp.difference.estimate == 0.0
    assert cmp.difference.low < 0 < cmp.difference.high


def test_unpaired_rejects_bad_input():
    with pytest.raises(ValueError):
        unpaired_difference(5, 4, 1, 10)
    with pytest.raises(ValueError):
        unpaired_difference(1, 10, 1, 0)


# --- paired differences -------------------------------------------------------


@pytest.mark.parametrize(
    "table",
    [
        (12, 2, 1, 0),  # Newcombe (1998) paired example: both, A only, B only, neither
        (14, 5, 0, 22),  # Altman et al. (2000) Table 6.2; AD - BC > N/2 (corrected phi)
        (1, 1, 1, 1),  # 0 <= AD - BC <= N/2 -> phi = 0
        (30, 9, 4, 7),
        (5, 0, 0, 5),  # no discordant pairs
    ],
)
def test_paired_newcombe_matches_hand_computation(table):
    diff, low, high = hand_newcombe_paired(*table)
    cmp = paired_difference(*paired_arrays(*table))
    assert cmp.difference.estimate == pytest.approx(diff, abs=1e-12)
    assert cmp.difference.low == pytest.approx(low, abs=1e-9)
    assert cmp.difference.high == pytest.approx(high, abs=1e-9)
    assert cmp.n == sum(table)
    assert cmp.method == "McNemar exact / Newcombe paired"


def test_paired_newcombe_example_values():
    # 12/2/1/0, n = 15: difference 1/15. phi = (0*12 - 2*1)/sqrt(14*1*13*2) < 0, so no
    # correction applies. Values below are from the step-by-step hand computation above
    # (the published -0.2061/0.3481 pair could not be reproduced, so it is not asserted).
    cmp = paired_difference(*paired_arrays(12, 2, 1, 0))
    assert round(cmp.difference.estimate, 4) == 0.0667
    assert round(cmp.difference.low, 4) == -0.1931
    assert round(cmp.difference.high, 4) == 0.3237


def test_paired_correlation_narrows_interval():
    # Same margins (40/50 vs 30/50); strong positive correlation should narrow the interval.
    correlated = paired_difference(*paired_arrays(30, 10, 0, 10)).difference
    independent = unpaired_difference(40, 50, 30, 50).difference
    assert correlated.estimate == pytest.approx(independent.estimate)
    assert correlated.high - correlated.low < independent.high - independent.low


def test_mcnemar_exact_pvalue():
    # Discordant b = 10 (A only), c = 2 (B only): under H0 b ~ Binomial(12, 1/2).
    # P(b >= 10) = (C(12,10) + C(12,11) + C(12,12)) / 2**12 = 79/4096; two-sided doubles it:
    # 158/4096 = 0.03857..., i.e. 0.0386 (scipy.stats.binomtest gives the same).
    expected = 2 * sum(math.comb(12, k) for k in range(10, 13)) / 2**12
    cmp = paired_difference(*paired_arrays(20, 10, 2, 8))
    assert cmp.p_value == pytest.approx(expected, rel=1e-12)
    assert round(cmp.p_value, 4) == 0.0386
    assert cmp.difference.estimate == pytest.approx(8 / 40)
    # The test is symmetric in the discordant counts.
    assert paired_difference(*paired_arrays(20, 2, 10, 8)).p_value == pytest.approx(expected)


def test_paired_no_discordant_pairs_gives_p_one():
    a = np.array([True, False, True, True])
    cmp = paired_difference(a, a.copy())
    assert cmp.p_value == 1.0
    assert cmp.difference.estimate == 0.0


def test_paired_accepts_int_arrays_and_rejects_bad_shapes():
    ints = paired_difference([1, 0, 1, 1], [0, 0, 1, 0])
    bools = paired_difference(*paired_arrays(1, 2, 0, 1))
    assert ints.difference == bools.difference
    with pytest.raises(ValueError, match="equal length"):
        paired_difference([True, False], [True])
    with pytest.raises(ValueError, match="equal length"):
        paired_difference([], [])
    with pytest.raises(ValueError, match="confidence"):
        paired_difference([True], [False], confidence=1.5)


# --- Holm ---------------------------------------------------------------------


def test_holm_known_example():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max-accumulate 0.06.
    adjusted, reject = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    assert reject.tolist() == [True, False, False, True]


def test_holm_clips_to_one_and_handles_edge_cases():
    adjusted, reject = holm([0.5, 0.6, 0.001])
    np.testing.assert_allclose(adjusted, [1.0, 1.0, 0.003])
    assert reject.tolist() == [False, False, True]
    empty_adj, empty_rej = holm([])
    assert empty_adj.size == 0 and empty_rej.size == 0
    with pytest.raises(ValueError):
        holm([0.1, 1.5])
    with pytest.raises(ValueError):
        holm([0.1], alpha=0.0)


# --- bootstrap ----------------------------------------------------------------


def test_bootstrap_mean_close_to_t_interval():
    true_mean = 10.0
    x = np.random.default_rng(2024).normal(true_mean, 2.0, size=500)
    ci = bootstrap_mean(x)
    assert ci.estimate == pytest.approx(x.mean())
    assert ci.low <= true_mean <= ci.high
    t_low, t_high = sps.t.interval(0.95, df=x.size - 1, loc=x.mean(), scale=sps.sem(x))
    assert (ci.high - ci.low) == pytest.approx(t_high - t_low, rel=0.2)
    assert bootstrap_mean(x) == ci  # seeded: reproducible


def test_bootstrap_mean_degenerate_and_bad_input():
    ci = bootstrap_mean([3.0] * 50)
    assert (ci.estimate, ci.low, ci.high) == (3.0, 3.0, 3.0)
    assert ci.half_width == 0.0
    with pytest.raises(ValueError):
        bootstrap_mean([])
    with pytest.raises(ValueError):
        bootstrap_mean([1.0, float("nan")])


# --- sample size --------------------------------------------------------------


def test_games_needed_known_values():
    # ceil(1.959964**2 * p(1-p) / margin**2)
    assert games_needed(0.01) == 9604
    assert games_needed(0.01, p=0.1) == 3458
    assert games_needed(0.005) == 38415
    assert games_needed(0.01, confidence=0.99) > 9604


@pytest.mark.parametrize(
    "kwargs",
    [
        {"margin": 0.0},
        {"margin": -0.01},
        {"margin": 0.01, "p": -0.1},
        {"margin": 0.01, "p": 1.1},
        {"margin": 0.01, "confidence": 1.0},
        {"margin": 0.01, "confidence": 0.0},
    ],
)
def test_games_needed_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        games_needed(**kwargs)


# --- rate table ---------------------------------------------------------------


def test_rate_table_rows_and_values():
    counts = {"white": 45, "draw": 10, "black": 25}
    table = rate_table(counts, 80)
    assert isinstance(table, pd.DataFrame)
    assert table.index.name == "outcome"
    assert table.index.tolist() == ["white", "draw", "black"]
    assert table.columns.tolist() == ["count", "rate", "low", "high"]
    assert table["count"].tolist() == [45, 10, 25]
    np.testing.assert_allclose(table["rate"], [45 / 80, 10 / 80, 25 / 80])
    for name, count in counts.items():
        ci = wilson(count, 80)
        assert table.loc[name, "low"] == pytest.approx(ci.low)
        assert table.loc[name, "high"] == pytest.approx(ci.high)
    with pytest.raises(ValueError):
        rate_table({"a": 5}, 4)
    with pytest.raises(ValueError):
        rate_table({}, 0)
