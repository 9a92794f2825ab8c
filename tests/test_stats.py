"""Tests for simkit.stats against published or independently hand-computed values."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from simkit.stats import (
    PAIRED_METHOD,
    Comparison,
    Interval,
    bootstrap_mean,
    clopper_pearson,
    games_needed,
    holm,
    holm_confidences,
    mcnemar_p,
    mean_interval,
    paired_difference,
    paired_from_counts,
    paired_games_needed,
    paired_games_to_separate,
    paired_limits,
    rate_table,
    tango_score,
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


def hand_tango_q(delta: float, a_only: int, b_only: int, n: int) -> float:
    """The maximum likelihood p(B only) given the difference delta, found numerically
    from the multinomial log-likelihood (no closed form)."""
    from scipy.optimize import minimize_scalar

    m = n - a_only - b_only

    def minus_loglik(q):
        return -(a_only * math.log(q + delta) + b_only * math.log(q)
                 + m * math.log(1 - 2 * q - delta))

    lo, hi = max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12
    return minimize_scalar(minus_loglik, bounds=(lo, hi), method="bounded",
                           options={"xatol": 1e-13}).x


def test_paired_mcnemar_published_example_and_tango_by_hand():
    # Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91, airway
    # hyper-responsiveness: n = 21 pairs, discordant 1 and 7; the asymptotic McNemar
    # test (no continuity correction) gives z = -6 / sqrt(8) = -2.12, p = 0.034.
    cmp = paired_difference(*paired_arrays(1, 1, 7, 12))
    assert cmp.p_value == pytest.approx(2 * sps.norm.sf(6 / math.sqrt(8)), rel=1e-12)
    assert round(cmp.p_value, 3) == 0.034
    assert (cmp.a_only, cmp.b_only, cmp.n) == (1, 7, 21)
    assert cmp.difference.estimate == pytest.approx(-6 / 21)
    assert cmp.method == PAIRED_METHOD
    # Tango (1998): at each limit the score statistic, with the constrained maximum
    # likelihood p(B only) computed numerically here, equals -+1.96
    for limit, z in ((cmp.difference.low, Z95), (cmp.difference.high, -Z95)):
        q = hand_tango_q(limit, 1, 7, 21)
        score = (1 - 7 - 21 * limit) / math.sqrt(21 * (2 * q + limit * (1 - limit)))
        assert score == pytest.approx(z, abs=1e-6)
        assert tango_score(limit, 1, 7, 21) == pytest.approx(z, abs=1e-9)
    assert cmp.difference.high < 0  # excludes 0, as p < 0.05 says
    # at delta = 0 the score statistic is McNemar's z
    assert tango_score(0.0, 1, 7, 21) == pytest.approx(-6 / math.sqrt(8))


def test_paired_interval_and_pvalue_agree_on_every_table():
    """The interval excludes 0 exactly when p < 1 - confidence (the issue-14 table had a
    Newcombe interval [+0.01, +1.99] points beside p = 0.057)."""
    rng = np.random.default_rng(14)
    for _ in range(400):
        n = int(rng.integers(5, 3000))
        a_only, b_only = (int(x) for x in rng.multinomial(n, [0.03, 0.02, 0.95])[:2])
        for confidence in (0.95, 0.99, 1 - 0.05 / 7):
            cmp = paired_from_counts(a_only, b_only, n, confidence)
            excludes = cmp.difference.low > 0 or cmp.difference.high < 0
            assert excludes == (cmp.p_value < 1 - confidence), (a_only, b_only, n)


def test_paired_no_discordant_pair_interval_is_the_discordance_bound():
    cmp = paired_from_counts(0, 0, 100)
    bound = Z95**2 / (100 + Z95**2)  # as the Wilson upper limit of 0/100
    assert cmp.p_value == 1.0
    assert (cmp.difference.low, cmp.difference.high) == pytest.approx((-bound, bound))


def test_mcnemar_pvalue_by_hand():
    # Discordant b = 10 (A only), c = 2 (B only): z = (10 - 2) / sqrt(12) = 2.309,
    # two-sided normal p = 0.0209 (the uncorrected McNemar chi-square 64/12 = 5.33, 1 df)
    cmp = paired_difference(*paired_arrays(20, 10, 2, 8))
    assert cmp.p_value == pytest.approx(sps.chi2.sf(64 / 12, 1), rel=1e-12)
    assert round(cmp.p_value, 4) == 0.0209
    assert cmp.difference.estimate == pytest.approx(8 / 40)
    # The test is symmetric in the discordant counts.
    assert paired_difference(*paired_arrays(20, 2, 10, 8)).p_value == pytest.approx(
        cmp.p_value)


def test_paired_no_discordant_pairs_gives_p_one():
    a = np.array([True, False, True, True])
    cmp = paired_difference(a, a.copy())
    assert cmp.p_value == 1.0
    assert cmp.difference.estimate == 0.0
    assert cmp.a_only == cmp.b_only == 0


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


def test_holm_gives_statsmodels_values():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 40):
        p = np.round(rng.random(size) ** 3, 3)  # ties too
        expected = multipletests(p, alpha=0.05, method="holm")[1]
        assert holm(p)[0] == pytest.approx(np.minimum(expected, 1.0), abs=1e-12)


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


def test_bootstrap_mean_refuses_degenerate_and_bad_input():
    with pytest.raises(ValueError, match="zero width"):
        bootstrap_mean([3.0] * 50)
    with pytest.raises(ValueError):
        bootstrap_mean([])
    with pytest.raises(ValueError):
        bootstrap_mean([1.0, float("nan")])


def test_mean_interval_is_the_student_t_interval():
    x = np.array([2.0, 4.0, 4.0, 5.0, 7.0, 9.0])
    ci = mean_interval(x)
    half = sps.t.ppf(0.975, 5) * x.std(ddof=1) / math.sqrt(6)  # t_{0.975,5} = 2.5706
    assert round(sps.t.ppf(0.975, 5), 4) == 2.5706
    assert (ci.low, ci.high) == pytest.approx((x.mean() - half, x.mean() + half))
    assert mean_interval([1.0] * 9) is None


# --- Holm-consistent intervals ------------------------------------------------


def test_holm_confidences_agree_with_the_verdicts():
    # the Holm example above: p = 0.01, 0.04, 0.03, 0.005 -> reject the 1st and 4th
    # (levels 1 - 0.05/3 and 1 - 0.05/4); the others keep 1 - 0.05/2, where Holm stopped
    levels = holm_confidences([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(levels, [1 - 0.05 / 3, 1 - 0.05 / 2, 1 - 0.05 / 2,
                                        1 - 0.05 / 4])
    # 30 families of 2-39 comparisons (each interval is a root search: 200 families took
    # 24 s for no more cases of disagreement), both verdicts met many times
    rng = np.random.default_rng(5)
    verdicts = []
    for _ in range(30):
        m = int(rng.integers(2, 40))
        n = 2000
        tables = [rng.multinomial(n, [a, b, 1 - a - b])[:2]
                  for a, b in rng.uniform(0.0, 0.03, size=(m, 2))]
        p = [paired_from_counts(int(a), int(b), n).p_value for a, b in tables]
        _, reject = holm(p)
        for (a, b), level, rejected in zip(tables, holm_confidences(p), reject, strict=True):
            d = paired_from_counts(int(a), int(b), n, level).difference
            assert (d.low > 0 or d.high < 0) == rejected
            verdicts.append(bool(rejected))
    assert 50 < sum(verdicts) < len(verdicts) - 50


# --- sample size --------------------------------------------------------------


def test_games_needed_normal_known_values():
    # ceil(1.959964**2 * p(1-p) / margin**2)
    assert games_needed(0.01, method="normal") == 9604
    assert games_needed(0.01, p=0.1, method="normal") == 3458
    assert games_needed(0.005, method="normal") == 38415


def test_games_needed_wilson_by_enumeration():
    # at p = 1/2 the Wilson half-width is (z/2) / sqrt(n + z^2): n >= (z/0.02)^2 - z^2
    assert games_needed(0.01) == math.ceil((Z95 / 0.02) ** 2 - Z95**2) == 9600
    assert games_needed(0.01, confidence=0.99) > 9600
    # p = 0: the Wilson interval of 0/n is [0, z^2 / (n + z^2)], not zero-width
    n = games_needed(0.01, p=0)
    assert n == math.ceil(Z95**2 * 0.99 / 0.01) == 381
    assert wilson(0, n).half_width <= 0.01 < wilson(0, n - 1).half_width
    # p = 0.001, +-0.5 points (the normal formula said 154 games, real half-width 2.4)
    n = games_needed(0.005, p=0.001)
    assert wilson(round(0.001 * n), n).half_width <= 0.0051
    assert wilson(0, 154).half_width > 0.02
    # exact: Clopper-Pearson 0/n has upper limit 1 - 0.025^(1/n)
    n = games_needed(0.01, p=0, method="exact")
    assert n == math.ceil(math.log(0.025) / math.log(0.99)) == 368
    assert clopper_pearson(0, n).half_width <= 0.01 < clopper_pearson(0, n - 1).half_width


def test_paired_games_needed_from_the_discordance():
    # no expected difference, 10% discordant: the paired interval at n games
    n = paired_games_needed(0.01, discordance=0.1)
    assert paired_limits(0.05 * n, 0.05 * n, n)[1] <= 0.01
    assert paired_limits(0.05 * (n - 1), 0.05 * (n - 1), n - 1)[1] > 0.01  # the smallest
    # near the Wald approximation z^2 psi / margin^2 = 3,842 (the score interval's
    # variance at its limit also counts the limit itself: a little wider)
    assert 1.0 <= n / math.ceil(Z95**2 * 0.1 / 0.01**2) < 1.01
    with pytest.raises(ValueError, match="discordance"):
        paired_games_needed(0.01, discordance=0.0)


def test_paired_games_to_separate_connor_and_exact_power():
    # Connor (1987): n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2; psi = 0.1, d = 0.02
    za, zb = sps.norm.ppf(0.975), sps.norm.ppf(0.8)
    expected = math.ceil((za * math.sqrt(0.1) + zb * math.sqrt(0.1 - 0.0004)) ** 2 / 0.0004)
    n = paired_games_to_separate(0.02, discordance=0.1)
    assert n == expected
    # exact enumeration of the McNemar test's power at that n: about 80%
    d = np.arange(n + 1)
    weight = sps.binom.pmf(d, n, 0.1)
    theta = (0.1 + 0.02) / 0.2
    power = 0.0
    for discordant, w in zip(d, weight, strict=True):
        if w < 1e-12:
            continue
        k = np.arange(discordant + 1)
        reject = mcnemar_p(k, discordant - k) < 0.05
        power += w * sps.binom.pmf(k[reject], discordant, theta).sum()
    assert 0.75 < power < 0.85


def test_until_ci_grows_geometrically_when_every_game_had_one_outcome():
    from collections import Counter

    from simkit.runner import _next_target

    counts = {"winner": Counter({"players": 100}), "end_reason": Counter({"survived": 100})}
    target = _next_target(counts, 100, 0.01)
    assert target >= 1.1 * games_needed(0.01, p=1.0) > 150


@pytest.mark.parametrize(
    "kwargs",
    [
        {"margin": 0.0},
        {"margin": -0.01},
        {"margin": 0.01, "p": -0.1},
        {"margin": 0.01, "p": 1.1},
        {"margin": 0.01, "confidence": 1.0},
        {"margin": 0.01, "confidence": 0.0},
        {"margin": 0.01, "method": "guess"},
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


def test_tango_interval_coverage_simulation():
    # 3,000 paired tables of n = 150 with p(A only) = 0.06, p(B only) = 0.02: the 95%
    # score interval should cover the true difference 0.04 about 95% of the time
    rng = np.random.default_rng(1998)
    tables = rng.multinomial(150, [0.06, 0.02, 0.92], size=3000)
    low, high = paired_limits(tables[:, 0], tables[:, 1], 150)
    coverage = np.mean((low <= 0.04) & (0.04 <= high))
    assert 0.935 < coverage < 0.965


# -- the statsmodels-backed functions give the values simkit's own code gave -------------
# (computed from the hand-written code before it called statsmodels, on these inputs)

_HOLM_P = [0.001, 0.04, 0.03, 0.2, 0.0, 1.0, 0.01]


def test_holm_matches_the_hand_written_step_down():
    adjusted, reject = holm(_HOLM_P)
    np.testing.assert_allclose(adjusted, [0.006, 0.12, 0.12, 0.4, 0.0, 1.0, 0.05],
                               rtol=1e-12, atol=1e-15)
    assert reject.tolist() == [True, False, False, False, True, False, True]
    np.testing.assert_allclose(holm_confidences(_HOLM_P), [
        0.9916666666666667, 0.9875, 0.9875, 0.9875, 0.9928571428571429, 0.9875, 0.99],
        rtol=1e-12)
    assert holm([])[0].size == 0


def test_mcnemar_matches_the_hand_written_z_test():
    p = mcnemar_p(np.array([30, 5, 0, 12, 100]), np.array([20, 5, 0, 3, 60]))
    np.testing.assert_allclose(p, [0.15729920705028516, 1.0, 1.0, 0.02013675155034634,
                                   0.001565402258002548], rtol=1e-12)
    assert mcnemar_p(7, 1) == pytest.approx(0.03389485352468927, rel=1e-12)
    assert isinstance(mcnemar_p(0, 0), float) and mcnemar_p(0, 0) == 1.0
    assert paired_from_counts(30, 20, 200).p_value == pytest.approx(0.15729920705028516,
                                                                    rel=1e-12)


@pytest.mark.parametrize(("counts", "confidence", "expected"), [
    ((45, 100, 30, 100), 0.95, (0.15, 0.015852195068122715, 0.27683085391962486,
                                0.02845973691631055)),
    ((0, 50, 3, 60), 0.95, (-0.05, -0.13700516476348518, 0.028547024833162807,
                            0.10890129793272194)),
    ((500, 1000, 480, 1000), 0.95, (0.02, -0.023778887683289583, 0.063670693863384,
                                    0.37099767373660797)),
    ((10, 10, 0, 10), 0.95, (1.0, 0.6075093504305242, 1.0, 7.74421643104407e-06)),
    ((45, 100, 30, 100), 0.99, (0.15, -0.0257395909419795, 0.3134186825674924,
                                0.02845973691631055)),
])
def test_unpaired_matches_the_hand_written_newcombe_and_pooled_z(counts, confidence, expected):
    c = unpaired_difference(*counts, confidence=confidence)
    got = (c.difference.estimate, c.difference.low, c.difference.high, c.p_value)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    assert c.method == "two-proportion z / Newcombe" and c.n == counts[1] + counts[3]


def test_unpaired_pool_at_zero_or_one_has_p_one():
    assert unpaired_difference(0, 10, 0, 20).p_value == 1.0
    assert unpaired_difference(10, 10, 20, 20).p_value == 1.0
