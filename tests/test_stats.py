"""compute.attacks.stats against SciPy, scikit-learn, closed forms and seeded null data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_auc_score

from privacy_explorer.compute.attacks import metrics
from privacy_explorer.compute.attacks.stats import (
    benjamini_hochberg_adjusted,
    clopper_pearson,
    closer_than_fresh_test,
    epsilon_lower_bound,
    holm_adjusted,
    label_permutation_test,
    paired_comparison,
    paired_verdicts,
    rank_sum_auc,
    tpr_at_fpr_exact,
    vertical_average_roc,
)

HYPOTHESIS = settings(database=None, deadline=None, max_examples=150)
tied_scores = st.lists(st.sampled_from([-3.0, 0.0, 0.5, 1.0, 2.0, 7.0]), min_size=1, max_size=30)
p_value_lists = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=25)


def binomial_band(trials: int, rate: float, tail: float = 0.0005) -> tuple[int, int]:
    """Counts a Binomial(trials, rate) falls outside of with probability at most 2 · tail."""
    return int(stats.binom.ppf(tail, trials, rate)), int(stats.binom.isf(tail, trials, rate))


# ---------------------------------------------------------------------------------------------
# Exact intervals and TPR at FPR


@pytest.mark.parametrize(("successes", "trials"), [(0, 50), (50, 50), (7, 50), (1, 3)])
def test_clopper_pearson_is_scipys_exact_interval(successes: int, trials: int) -> None:
    expected = stats.binomtest(successes, trials).proportion_ci(0.95, method="exact")
    assert clopper_pearson(successes, trials) == pytest.approx(
        (expected.low, expected.high), abs=1e-12
    )


@HYPOTHESIS
@given(tied_scores, tied_scores, st.sampled_from([0.001, 0.01, 0.1, 0.25, 1 / 3, 0.5, 1.0]))
def test_tpr_at_fpr_exact_is_the_conservative_reading_with_scipys_interval(
    members: list[float], nonmembers: list[float], fpr: float
) -> None:
    found = tpr_at_fpr_exact(members, nonmembers, fpr)
    if fpr < 1 / len(nonmembers):
        assert found is None
        return
    assert found is not None
    assert found.tpr == pytest.approx(metrics.max_tpr_at_fpr(members, nonmembers, fpr), abs=1e-12)
    assert found.false_positives <= math.floor(fpr * len(nonmembers) + 1e-9)
    assert found.true_positives == sum(score > found.threshold for score in members)
    expected = stats.binomtest(found.true_positives, len(members)).proportion_ci(
        0.95, method="exact"
    )
    assert found.interval == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_tpr_at_fpr_is_not_measurable_below_one_over_the_nonmembers() -> None:
    members, nonmembers = np.arange(200.0) + 0.5, np.arange(200.0)
    assert tpr_at_fpr_exact(members, nonmembers, 0.0) is None
    assert tpr_at_fpr_exact(members, nonmembers, 0.001) is None  # 200 · 0.001 < 1
    at_one_percent = tpr_at_fpr_exact(members, nonmembers, 0.01)
    assert at_one_percent is not None
    # Two false positives allowed: the threshold is the third-highest non-member, 197.
    assert (at_one_percent.threshold, at_one_percent.false_positives) == (197.0, 2)
    assert at_one_percent.true_positives == 3  # 197.5, 198.5, 199.5


# ---------------------------------------------------------------------------------------------
# Paired comparison


@pytest.mark.parametrize("seeds", [2, 5, 20])
def test_paired_comparison_equals_scipys_paired_t_test(seeds: int) -> None:
    rng = np.random.default_rng(seeds)
    b = rng.normal(0.7, 0.05, seeds)
    a = b + rng.normal(0.02, 0.01, seeds)
    compared = paired_comparison(a, b, confidence=0.9)
    reference = stats.ttest_rel(a, b)
    interval = reference.confidence_interval(0.9)
    assert compared.mean == pytest.approx(float(np.mean(a - b)), abs=1e-15)
    assert compared.p_value == pytest.approx(reference.pvalue, rel=1e-10)
    assert compared.interval == pytest.approx((interval.low, interval.high), rel=1e-10)
    # The closed form, too: mean ± t quantile · sd / √s.
    half = stats.t.ppf(0.95, seeds - 1) * np.std(a - b, ddof=1) / math.sqrt(seeds)
    assert compared.interval[1] - compared.mean == pytest.approx(half, rel=1e-12)


def test_paired_comparison_counts_signs_and_bootstraps_with_its_seed() -> None:
    a = np.array([0.8, 0.7, 0.9, 0.6, 0.75, 0.8])
    b = np.array([0.7, 0.7, 0.8, 0.65, 0.7, 0.6])
    compared = paired_comparison(a, b, bootstrap=2000, seed=3)
    assert (compared.wins, compared.losses, compared.ties) == (4, 1, 1)
    assert compared.sign_p_value == pytest.approx(stats.binomtest(4, 5).pvalue)
    assert compared.bootstrap_interval is not None
    lo, hi = compared.bootstrap_interval
    assert lo < compared.mean < hi
    assert paired_comparison(a, b, bootstrap=2000, seed=3).bootstrap_interval == (lo, hi)
    assert paired_comparison(a, b).bootstrap_interval is None


def test_identical_differences_give_a_point_interval() -> None:
    compared = paired_comparison([1.0, 2.0, 3.0], [0.5, 1.5, 2.5])
    assert compared.interval == (0.5, 0.5) and compared.p_value == 0.0
    assert paired_comparison([1.0, 2.0], [1.0, 2.0]).p_value == 1.0


# ---------------------------------------------------------------------------------------------
# Multiplicity


def holm_by_hand(p_values: list[float]) -> list[float]:
    """Holm's adjusted p-values straight from the definition (Wright 1992, eq. 3)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda index: p_values[index])
    adjusted = [0.0] * m
    for rank, index in enumerate(order):
        adjusted[index] = min(
            1.0, max((m - earlier) * p_values[order[earlier]] for earlier in range(rank + 1))
        )
    return adjusted


def test_holm_on_a_worked_example() -> None:
    # Sorted: 0.01·4 = 0.04, 0.02·3 = 0.06, 0.03·2 = 0.06, 0.5·1 = 0.5.
    assert holm_adjusted([0.03, 0.5, 0.01, 0.02]).tolist() == pytest.approx([0.06, 0.5, 0.04, 0.06])


@HYPOTHESIS
@given(p_value_lists)
def test_holm_equals_the_definition(p_values: list[float]) -> None:
    assert holm_adjusted(p_values).tolist() == pytest.approx(holm_by_hand(p_values), abs=1e-15)


@HYPOTHESIS
@given(p_value_lists)
def test_benjamini_hochberg_equals_scipy(p_values: list[float]) -> None:
    expected = stats.false_discovery_control(p_values, method="bh")
    assert benjamini_hochberg_adjusted(p_values) == pytest.approx(expected, abs=1e-15)


# ---------------------------------------------------------------------------------------------
# The label-permutation test


@HYPOTHESIS
@given(st.integers(1, 4), st.integers(1, 25), st.integers(1, 25), st.integers(0, 2**32 - 1))
def test_rank_sum_auc_equals_scikit_learn(attacks: int, m: int, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    members = rng.integers(0, 5, (attacks, m)).astype(float)
    nonmembers = rng.integers(0, 5, (attacks, n)).astype(float)
    labels = np.r_[np.ones(m), np.zeros(n)]
    for row, auc in enumerate(rank_sum_auc(members, nonmembers)):
        scores = np.r_[members[row], nonmembers[row]]
        assert auc == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
        assert auc == pytest.approx(metrics.auc(members[row], nonmembers[row]), abs=1e-12)


@pytest.mark.parametrize(
    ("m", "n", "shift", "method"),
    [(9, 11, 0.6, "exact"), (12, 10, 0.0, "exact"), (80, 120, 0.3, "asymptotic")],
)
def test_one_attack_agrees_with_mann_whitney(m: int, n: int, shift: float, method: str) -> None:
    rng = np.random.default_rng(m * n)
    members, nonmembers = rng.normal(shift, 1, m), rng.normal(0, 1, n)
    permutations = 4000
    tested = label_permutation_test(members, nonmembers, permutations=permutations, seed=1)
    expected = stats.mannwhitneyu(members, nonmembers, alternative="greater", method=method).pvalue
    monte_carlo_error = math.sqrt(expected * (1 - expected) / permutations)
    assert abs(tested.p_values[0] - expected) <= 4 * monte_carlo_error + 2 / permutations
    # With one attack nothing is adjusted.
    assert tested.p_values_adjusted[0] == tested.p_values[0] == tested.family_p_value


def test_adjusted_p_values_bound_the_raw_ones_and_repeat_with_the_seed() -> None:
    rng = np.random.default_rng(5)
    members, nonmembers = rng.normal(0, 1, (4, 60)), rng.normal(0, 1, (4, 70))
    members[0] += 1.0
    members[3] = members[2]  # two identical attacks get identical p-values
    nonmembers[3] = nonmembers[2]
    tested = label_permutation_test(members, nonmembers, permutations=500, seed=2)
    assert np.all(tested.p_values_adjusted >= tested.p_values)
    assert tested.family_p_value == tested.p_values_adjusted.min() == tested.p_values_adjusted[0]
    assert tested.p_values[2] == tested.p_values[3]
    assert tested.auc == pytest.approx(rank_sum_auc(members, nonmembers), abs=1e-15)
    again = label_permutation_test(members, nonmembers, permutations=500, seed=2)
    assert np.array_equal(again.p_values_adjusted, tested.p_values_adjusted)
    assert tested.family_p_value < 0.01  # a shift of one standard deviation


def test_a_perfect_attack_gets_the_smallest_possible_p_value() -> None:
    tested = label_permutation_test(np.arange(50.0) + 100, np.arange(50.0), permutations=999)
    assert tested.family_p_value == pytest.approx(1 / 1000)


def test_fewer_than_one_hundred_permutations_are_refused() -> None:
    with pytest.raises(ValueError, match="permutations must be at least 100, got 99"):
        label_permutation_test([1.0, 2.0], [0.0, 1.0], permutations=99)


def null_attacks(rng: np.random.Generator, targets: int, attacks: int) -> np.ndarray:
    """Scores of correlated attacks that carry no membership signal (a shared latent + noise)."""
    latent = rng.normal(size=targets)
    return np.asarray(latent + rng.normal(scale=1.5, size=(attacks, targets)))


def test_the_family_wise_false_alarm_rate_is_alpha_on_null_data() -> None:
    """200 seeded null data sets, 9 attacks: the verdict errs at rate α, the raw best far more."""
    alpha, datasets, attacks = 0.05, 200, 9
    rng = np.random.default_rng(2026)
    family_alarms = uncorrected_alarms = 0
    for index in range(datasets):
        m, n = int(rng.integers(25, 250)), int(rng.integers(25, 250))
        scores = null_attacks(rng, m + n, attacks)
        tested = label_permutation_test(scores[:, :m], scores[:, m:], permutations=499, seed=index)
        family_alarms += tested.family_p_value <= alpha
        uncorrected_alarms += tested.p_values.min() <= alpha
    low, high = binomial_band(datasets, alpha)
    assert low <= family_alarms <= high, family_alarms
    # The same data with the best of nine attacks taken uncorrected alarms far too often:
    # the band above would catch a verdict that forgot the correction.
    assert uncorrected_alarms > high, uncorrected_alarms


# ---------------------------------------------------------------------------------------------
# The empirical ε lower bound


def test_a_perfect_attack_gives_the_closed_form_bound() -> None:
    """Evaluation half: all 50 members flagged, no non-member: ε ≥ ln(lower(50/50)/upper(0/50))."""
    bound = epsilon_lower_bound(np.ones(100), np.zeros(100), confidence=0.95, seed=4)
    tail = 0.025  # each Clopper–Pearson end at 1 − 0.05/2
    lower, upper = tail ** (1 / 50), 1 - tail ** (1 / 50)
    assert bound.value == pytest.approx(math.log(lower / upper), rel=1e-9)
    assert bound.numerator == (50, 50) and bound.denominator == (0, 50)
    assert bound.confidence == 0.95
    # Scores running the wrong way are just as informative (the mirrored events).
    assert epsilon_lower_bound(np.zeros(100), np.ones(100), seed=4).value == pytest.approx(
        bound.value, rel=1e-12
    )


def test_the_bound_is_measured_on_the_half_the_threshold_was_not_chosen_on() -> None:
    rng = np.random.default_rng(0)
    members, nonmembers = rng.normal(1.5, 1, 301), rng.normal(0, 1, 200)
    bound = epsilon_lower_bound(members, nonmembers, seed=9)
    generator = np.random.default_rng(9)
    order_m, order_n = generator.permutation(301), generator.permutation(200)
    held_m, held_n = members[order_m[150:]], nonmembers[order_n[100:]]
    flagged = (
        (held_m >= bound.threshold, held_n >= bound.threshold)
        if bound.event == "above"
        else (held_m < bound.threshold, held_n < bound.threshold)
    )
    member_count = (int(flagged[0].sum()), 151)
    nonmember_count = (int(flagged[1].sum()), 100)
    first, second = (
        (member_count, nonmember_count)
        if bound.more_likely_for == "members"
        else (nonmember_count, member_count)
    )
    assert (bound.numerator, bound.denominator) == (first, second)
    lo = stats.binomtest(*first).proportion_ci(0.95, method="exact").low
    hi = stats.binomtest(*second).proportion_ci(0.95, method="exact").high
    assert bound.value == pytest.approx(max(0.0, math.log(lo / hi)), rel=1e-9)
    assert bound.value > 0.5


def test_the_bound_does_not_exceed_the_epsilon_of_randomized_response() -> None:
    """An ε-DP mechanism (randomized response, ε = 1): the bound stays below 1 but gets close."""
    epsilon, size = 1.0, 20_000
    keep = math.exp(epsilon) / (1 + math.exp(epsilon))
    rng = np.random.default_rng(1)
    members = (rng.random(size) < keep).astype(float)
    nonmembers = (rng.random(size) < 1 - keep).astype(float)
    bound = epsilon_lower_bound(members, nonmembers, seed=1)
    assert 0.85 < bound.value <= epsilon


def test_null_data_rarely_give_a_positive_bound() -> None:
    datasets, positive = 200, 0
    rng = np.random.default_rng(7)
    for seed in range(datasets):
        scores = null_attacks(rng, 240, 3)
        positive += epsilon_lower_bound(scores[:, :120], scores[:, 120:], seed=seed).value > 0
    assert positive <= binomial_band(datasets, 0.05)[1], positive


# ---------------------------------------------------------------------------------------------
# Records closer to the members than fresh records


@given(
    st.lists(st.sampled_from([0.0, 0.1, 0.5, 1.0, 2.0]), min_size=1, max_size=40),
    st.lists(st.sampled_from([0.0, 0.1, 0.5, 1.0, 2.0]), min_size=1, max_size=40),
    st.sampled_from([0.01, 0.1, 0.5]),
)
@HYPOTHESIS
def test_closer_than_fresh_is_scipys_hypergeometric_tail(
    released: list[float], fresh: list[float], share: float
) -> None:
    found = closer_than_fresh_test(released, fresh, share=share)
    pooled = sorted(released + fresh)
    threshold = pooled[math.ceil(share * len(pooled)) - 1]
    hits = sum(distance <= threshold for distance in released)
    below = sum(distance <= threshold for distance in pooled)
    assert found.threshold == threshold and found.released_below == hits
    assert found.fresh_below == below - hits
    # P(X >= hits) for X ~ Hypergeom: drawing `below` of len(pooled), len(released) of them marked.
    tail = sum(
        stats.hypergeom.pmf(count, len(pooled), len(released), below)
        for count in range(hits, below + 1)
    )
    assert found.p_value == pytest.approx(tail, abs=1e-12)
    assert found.expected == pytest.approx(below * len(released) / len(pooled))
    assert sorted(found.closest.tolist()) == [i for i, d in enumerate(released) if d <= threshold]
    assert [released[i] for i in found.closest] == sorted(released[i] for i in found.closest)


def test_closer_than_fresh_holds_its_false_alarm_rate_and_finds_copies() -> None:
    rng = np.random.default_rng(11)
    releases = 2000
    alarms = sum(
        closer_than_fresh_test(rng.exponential(size=200), rng.exponential(size=200)).p_value <= 0.05
        for _ in range(releases)
    )
    assert alarms <= binomial_band(releases, 0.05)[1]  # exact but discrete: at most α
    copies = np.concatenate([np.zeros(10), rng.exponential(size=190)])
    found = closer_than_fresh_test(copies, rng.exponential(size=200))
    assert found.p_value < 0.001 and found.closest[:10].tolist() == list(range(10))


# ---------------------------------------------------------------------------------------------
# Verdicts of many paired comparisons, and the mean ROC of several runs


def seeded_comparisons(shifts: list[float], seeds: int = 20) -> list:
    """Paired comparisons of seeded AUC-like values whose true mean differences are ``shifts``."""
    rng = np.random.default_rng(6)
    found = []
    for shift in shifts:
        common = rng.normal(0.7, 0.05, seeds)  # what a seed does to both attacks
        found.append(paired_comparison(common + shift + rng.normal(0, 0.01, seeds), common))
    return found


@pytest.mark.parametrize("method", ["holm", "bh"])
def test_paired_verdicts_follow_scipys_paired_t_tests_and_adjustments(method: str) -> None:
    shifts = [0.0, 0.03, -0.03, 0.001, -0.002, 0.0, 0.02, 0.0]
    comparisons = seeded_comparisons(shifts)
    raw = np.array(
        [
            stats.ttest_rel(c.differences + 1.0, np.ones(c.differences.size)).pvalue
            for c in comparisons
        ]
    )
    found = paired_verdicts(comparisons, alpha=0.05, method=method)
    if method == "bh":
        expected = stats.false_discovery_control(raw, method="bh")
    else:  # Holm from its definition: step down through the sorted p-values
        order = np.argsort(raw)
        expected = np.empty_like(raw)
        running = 0.0
        for rank, index in enumerate(order):
            running = max(running, min(1.0, (raw.size - rank) * raw[index]))
            expected[index] = running
    np.testing.assert_allclose(found.adjusted, expected, rtol=1e-10)
    for comparison, p, verdict in zip(comparisons, expected, found.verdicts, strict=True):
        if p > 0.05:
            assert verdict == "inside"
        else:
            assert verdict == ("higher" if comparison.mean > 0 else "lower")
    # The clear shifts are found, both ways; the null ones are not.
    assert [found.verdicts[i] for i in (1, 2, 6)] == ["higher", "lower", "higher"]
    assert [found.verdicts[i] for i in (0, 5, 7)] == ["inside"] * 3


def test_holm_verdicts_mean_an_interval_that_excludes_zero_at_holms_level() -> None:
    comparisons = seeded_comparisons([0.03, 0.004, -0.01, 0.0, 0.006])
    found = paired_verdicts(comparisons, method="holm")
    order = np.argsort([c.p_value for c in comparisons])
    for rank, index in enumerate(order):
        level = 1 - 0.05 / (len(comparisons) - rank)
        differences = comparisons[index].differences
        low, high = stats.ttest_rel(differences, np.zeros(differences.size)).confidence_interval(
            level
        )
        if found.verdicts[index] != "inside":
            assert low > 0 or high < 0


def test_paired_verdicts_refuse_an_unknown_correction_and_an_empty_family() -> None:
    with pytest.raises(ValueError, match="method must be one of holm, bh, got 'bonferroni'"):
        paired_verdicts(seeded_comparisons([0.0]), method="bonferroni")
    with pytest.raises(ValueError, match="at least one comparison"):
        paired_verdicts([])


def test_vertical_average_roc_is_the_mean_of_scikit_learns_interpolated_curves() -> None:
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(11)
    runs = [(rng.normal(0.4, 1, 31), rng.normal(0, 1, 37)) for _ in range(4)]
    fprs = np.linspace(0, 1, 51)[1:-1]  # no multiple of 1/37: each FPR falls between points
    found = vertical_average_roc(runs, fprs)
    curves = []
    for members, nonmembers in runs:
        labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
        curve_fpr, curve_tpr, _ = roc_curve(labels, np.r_[members, nonmembers])
        curves.append(np.interp(fprs, curve_fpr, curve_tpr))
    np.testing.assert_allclose(found, np.mean(curves, axis=0), atol=1e-12)
    with pytest.raises(ValueError, match="at least one run"):
        vertical_average_roc([], fprs)
    with pytest.raises(ValueError, match="rates in"):
        vertical_average_roc(runs, [1.5])
