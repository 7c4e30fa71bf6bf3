"""compute.attacks.metrics and auc_error against scikit-learn, SciPy and brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sklearn_roc_curve

from privacy_explorer.compute.attacks import auc_error, metrics

HYPOTHESIS = settings(database=None, deadline=None, max_examples=200)

# Few distinct values, so that ties within and between the groups are common.
tied_scores = st.lists(st.sampled_from([-3.0, 0.0, 0.5, 1.0, 2.0, 7.0]), min_size=1, max_size=30)
any_scores = st.lists(
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=40
)
fprs = st.sampled_from([0.0, 0.001, 0.01, 0.1, 0.25, 1 / 3, 0.5, 0.9, 1.0])


def labelled(members: list[float], nonmembers: list[float]) -> tuple[np.ndarray, np.ndarray]:
    labels = np.r_[np.ones(len(members)), np.zeros(len(nonmembers))]
    return labels, np.asarray(members + nonmembers, dtype=float)


def interpolated_sklearn_tpr(members: list[float], nonmembers: list[float], fpr: float) -> float:
    """The Synth-MIA testbed's reading: np.interp on scikit-learn's (default) ROC curve."""
    labels, scores = labelled(members, nonmembers)
    fprs_, tprs_, _ = sklearn_roc_curve(labels, scores)
    return float(np.interp(fpr, fprs_, tprs_))


def threshold_rates(members: list[float], nonmembers: list[float]) -> list[tuple[float, float]]:
    """(FPR, TPR) of "member if score ≥ t" for every score t, and for t above them all."""
    thresholds = [*sorted(set(members + nonmembers)), np.inf]
    return [
        (float(np.mean(np.asarray(nonmembers) >= t)), float(np.mean(np.asarray(members) >= t)))
        for t in thresholds
    ]


@HYPOTHESIS
@given(members=tied_scores, nonmembers=tied_scores)
def test_auc_equals_scikit_learn_with_ties(members: list[float], nonmembers: list[float]) -> None:
    labels, scores = labelled(members, nonmembers)
    assert metrics.auc(members, nonmembers) == pytest.approx(
        roc_auc_score(labels, scores), abs=1e-12
    )


@HYPOTHESIS
@given(members=any_scores, nonmembers=any_scores)
def test_auc_equals_scikit_learn(members: list[float], nonmembers: list[float]) -> None:
    labels, scores = labelled(members, nonmembers)
    assert metrics.auc(members, nonmembers) == pytest.approx(
        roc_auc_score(labels, scores), abs=1e-12
    )


@HYPOTHESIS
@given(members=tied_scores, nonmembers=tied_scores)
def test_roc_curve_equals_scikit_learn_without_dropping(
    members: list[float], nonmembers: list[float]
) -> None:
    labels, scores = labelled(members, nonmembers)
    expected_fpr, expected_tpr, _ = sklearn_roc_curve(labels, scores, drop_intermediate=False)
    fpr, tpr = metrics.roc_curve(members, nonmembers)
    np.testing.assert_allclose(fpr, expected_fpr, atol=1e-15)
    np.testing.assert_allclose(tpr, expected_tpr, atol=1e-15)
    assert fpr.size == len(set(members + nonmembers)) + 1


@HYPOTHESIS
@given(members=tied_scores, nonmembers=tied_scores, fpr=fprs)
def test_tpr_at_fpr_is_the_testbeds_interpolation(
    members: list[float], nonmembers: list[float], fpr: float
) -> None:
    assert metrics.tpr_at_fpr(members, nonmembers, fpr) == pytest.approx(
        interpolated_sklearn_tpr(members, nonmembers, fpr), abs=1e-12
    )


@HYPOTHESIS
@given(members=any_scores, nonmembers=any_scores, fpr=fprs)
def test_tpr_at_fpr_is_the_testbeds_interpolation_without_ties(
    members: list[float], nonmembers: list[float], fpr: float
) -> None:
    assert metrics.tpr_at_fpr(members, nonmembers, fpr) == pytest.approx(
        interpolated_sklearn_tpr(members, nonmembers, fpr), abs=1e-12
    )


@HYPOTHESIS
@given(members=tied_scores, nonmembers=tied_scores, fpr=fprs)
def test_max_tpr_at_fpr_is_the_best_real_threshold(
    members: list[float], nonmembers: list[float], fpr: float
) -> None:
    allowed = [tpr for rate, tpr in threshold_rates(members, nonmembers) if rate <= fpr]
    result = metrics.max_tpr_at_fpr(members, nonmembers, fpr)
    assert result == pytest.approx(max(allowed), abs=1e-12)
    assert result <= metrics.tpr_at_fpr(members, nonmembers, fpr) + 1e-12


@HYPOTHESIS
@given(members=tied_scores, nonmembers=tied_scores)
def test_best_threshold_accuracy_is_the_best_balanced_accuracy(
    members: list[float], nonmembers: list[float]
) -> None:
    best = max((tpr + 1 - rate) / 2 for rate, tpr in threshold_rates(members, nonmembers))
    assert metrics.best_threshold_accuracy(members, nonmembers) == pytest.approx(best, abs=1e-12)


def test_tpr_at_zero_fpr_counts_members_above_every_nonmember() -> None:
    members = [9.0, 8.0, 8.0, 5.0, 1.0]
    nonmembers = [7.0, 5.0, 0.0, -1.0]
    assert metrics.tpr_at_fpr(members, nonmembers, 0.0) == pytest.approx(3 / 5)
    assert metrics.max_tpr_at_fpr(members, nonmembers, 0.0) == pytest.approx(3 / 5)


def test_tpr_at_zero_fpr_is_zero_when_the_top_score_is_tied_across_groups() -> None:
    members = [9.0, 9.0, 3.0]
    nonmembers = [9.0, 1.0]
    assert metrics.tpr_at_fpr(members, nonmembers, 0.0) == 0.0
    assert interpolated_sklearn_tpr(members, nonmembers, 0.0) == 0.0


def test_tpr_at_fpr_interpolates_between_thresholds() -> None:
    # Curve points (0, 0), (0, 1/2), (1/2, 1/2), (1/2, 1), (1, 1): at FPR 1/4 the line from
    # (0, 1/2) to (1/2, 1/2) gives 1/2; the conservative rule also 1/2.
    members, nonmembers = [4.0, 2.0], [3.0, 1.0]
    assert metrics.tpr_at_fpr(members, nonmembers, 0.25) == pytest.approx(0.5)
    # Tied pair: (0, 0) to (1, 1) in one step; the line gives 0.3 at FPR 0.3, a real threshold 0.
    assert metrics.tpr_at_fpr([1.0], [1.0], 0.3) == pytest.approx(0.3)
    assert metrics.max_tpr_at_fpr([1.0], [1.0], 0.3) == 0.0


@pytest.mark.parametrize(
    ("successes", "trials", "confidence"),
    [(0, 1, 0.95), (0, 200, 0.95), (44, 200, 0.95), (200, 200, 0.9), (3, 7, 0.5), (1, 1, 0.99)],
)
def test_clopper_pearson_equals_scipy(successes: int, trials: int, confidence: float) -> None:
    expected = stats.binomtest(successes, trials).proportion_ci(confidence, method="exact")
    lo, hi = metrics.clopper_pearson(successes, trials, confidence)
    assert lo == pytest.approx(expected.low, abs=1e-12)
    assert hi == pytest.approx(expected.high, abs=1e-12)


@pytest.mark.parametrize(("nonmembers", "confidence"), [(1, 0.95), (200, 0.95), (1000, 0.99)])
def test_zero_fpr_upper_bound_is_the_one_sided_exact_bound(
    nonmembers: int, confidence: float
) -> None:
    one_sided = stats.binomtest(0, nonmembers, alternative="less").proportion_ci(
        confidence, method="exact"
    )
    assert metrics.zero_fpr_upper_bound(nonmembers, confidence) == pytest.approx(
        one_sided.high, rel=1e-10
    )
    assert metrics.zero_fpr_upper_bound(200) == pytest.approx(1 - 0.05 ** (1 / 200))


def test_chance_auc_spread_matches_random_scores() -> None:
    rng = np.random.default_rng(0)
    aucs = [metrics.auc(rng.normal(size=30), rng.normal(size=50)) for _ in range(2000)]
    assert np.std(aucs) == pytest.approx(metrics.chance_auc_spread(30, 50), rel=0.1)


def reference_bootstrap(
    members: np.ndarray, nonmembers: np.ndarray, n_boot: int, seed: int, statistic
) -> np.ndarray:
    """The same stratified draws as the library (one batch), each scored by ``statistic``."""
    rng = np.random.default_rng(seed)
    member_draws = rng.integers(0, members.size, (n_boot, members.size))
    nonmember_draws = rng.integers(0, nonmembers.size, (n_boot, nonmembers.size))
    return np.array(
        [
            statistic(list(members[m]), list(nonmembers[n]))
            for m, n in zip(member_draws, nonmember_draws, strict=True)
        ]
    )


def tied_sample(rng: np.random.Generator, size: int, shift: float) -> np.ndarray:
    return np.round(rng.normal(shift, 1.0, size), 1)


def test_bootstrap_auc_ci_equals_scikit_learn_on_the_same_draws() -> None:
    rng = np.random.default_rng(5)
    members, nonmembers = tied_sample(rng, 40, 0.5), tied_sample(rng, 60, 0.0)

    def sklearn_auc(m: list[float], n: list[float]) -> float:
        return float(roc_auc_score(*labelled(m, n)))

    replicates = reference_bootstrap(members, nonmembers, 300, 11, sklearn_auc)
    expected = np.quantile(replicates, [0.05, 0.95])
    lo, hi = metrics.bootstrap_auc_ci(members, nonmembers, n_boot=300, confidence=0.9, seed=11)
    assert (lo, hi) == pytest.approx(tuple(expected), abs=1e-12)
    assert lo < metrics.auc(members, nonmembers) < hi


@pytest.mark.parametrize("fpr", [0.0, 0.05, 0.1])
def test_bootstrap_tpr_ci_equals_the_testbed_rule_on_the_same_draws(fpr: float) -> None:
    rng = np.random.default_rng(6)
    members, nonmembers = tied_sample(rng, 50, 1.0), tied_sample(rng, 40, 0.0)
    replicates = reference_bootstrap(
        members, nonmembers, 200, 3, lambda m, n: interpolated_sklearn_tpr(m, n, fpr)
    )
    expected = np.quantile(replicates, [0.025, 0.975])
    result = metrics.bootstrap_tpr_ci(members, nonmembers, fpr, n_boot=200, seed=3)
    assert result == pytest.approx(tuple(expected), abs=1e-12)


def test_bootstrap_tpr_ci_conservative_rule() -> None:
    rng = np.random.default_rng(7)
    members, nonmembers = tied_sample(rng, 30, 1.0), tied_sample(rng, 30, 0.0)
    replicates = reference_bootstrap(
        members, nonmembers, 100, 4, lambda m, n: metrics.max_tpr_at_fpr(m, n, 0.1)
    )
    expected = np.quantile(replicates, [0.025, 0.975])
    result = metrics.bootstrap_tpr_ci(
        members, nonmembers, 0.1, interpolate=False, n_boot=100, seed=4
    )
    assert result == pytest.approx(tuple(expected), abs=1e-12)


@pytest.mark.parametrize("interpolate", [True, False])
@pytest.mark.parametrize("batch_elements", [1 << 22, 500])  # one batch, then many small ones
def test_bootstrap_intervals_at_once_equal_the_separate_intervals_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch, interpolate: bool, batch_elements: int
) -> None:
    monkeypatch.setattr(metrics, "_BOOTSTRAP_BATCH_ELEMENTS", batch_elements)
    rng = np.random.default_rng(9)
    members, nonmembers = tied_sample(rng, 70, 0.4), tied_sample(rng, 90, 0.0)
    rates = (0.0, 0.001, 0.01, 0.1, 0.5)
    auc_ci, tpr_ci = metrics.bootstrap_intervals(
        members, nonmembers, rates, interpolate=interpolate, n_boot=250, confidence=0.9, seed=12
    )
    assert auc_ci == metrics.bootstrap_auc_ci(
        members, nonmembers, n_boot=250, confidence=0.9, seed=12
    )
    assert tpr_ci == {
        rate: metrics.bootstrap_tpr_ci(
            members,
            nonmembers,
            rate,
            interpolate=interpolate,
            n_boot=250,
            confidence=0.9,
            seed=12,
        )
        for rate in rates
    }
    assert list(tpr_ci) == list(rates)


def test_bootstrap_is_deterministic_for_a_seed_and_batches_large_inputs() -> None:
    rng = np.random.default_rng(8)
    members, nonmembers = rng.normal(0.3, 1, 3000), rng.normal(0, 1, 3000)
    first = metrics.bootstrap_auc_ci(members, nonmembers, n_boot=1000, seed=2)
    assert metrics.bootstrap_auc_ci(members, nonmembers, n_boot=1000, seed=2) == first
    assert metrics.bootstrap_auc_ci(members, nonmembers, n_boot=1000, seed=3) != first
    assert first[0] < metrics.auc(members, nonmembers) < first[1]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: metrics.auc([], [1.0]), "member_scores must not be empty"),
        (lambda: metrics.auc([1.0], [np.nan]), "nonmember_scores must be finite numbers"),
        (lambda: metrics.auc([[1.0, 2.0]], [1.0]), "member_scores must be one-dimensional"),
        (lambda: metrics.tpr_at_fpr([1.0], [0.0], 1.5), "fpr must be between 0 and 1"),
        (lambda: metrics.clopper_pearson(5, 4), "successes must be between 0 and trials=4"),
        (lambda: metrics.clopper_pearson(1, 4, 1.0), "confidence must be strictly between"),
        (lambda: metrics.zero_fpr_upper_bound(0), "nonmembers must be at least 1"),
        (lambda: metrics.bootstrap_auc_ci([1.0], [0.0], n_boot=0), "n_boot must be at least 1"),
    ],
)
def test_invalid_inputs_raise_clear_errors(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# --- The rates of one threshold ------------------------------------------------------


@settings(database=None, deadline=None, max_examples=200)
@given(
    members=st.lists(st.integers(-5, 5), min_size=1, max_size=30),
    nonmembers=st.lists(st.integers(-5, 5), min_size=1, max_size=30),
    threshold=st.integers(-6, 6),
)
def test_rates_at_threshold_are_a_point_of_sklearns_roc_curve(
    members: list[int], nonmembers: list[int], threshold: int
):
    tpr, fpr = metrics.rates_at_threshold(members, nonmembers, float(threshold))
    assert tpr == np.mean(np.asarray(members) >= threshold)
    assert fpr == np.mean(np.asarray(nonmembers) >= threshold)
    labels = np.r_[np.ones(len(members)), np.zeros(len(nonmembers))]
    roc_fpr, roc_tpr, cut = sklearn_roc_curve(
        labels, np.r_[members, nonmembers].astype(float), drop_intermediate=False
    )
    corner = np.flatnonzero(cut >= threshold)[-1]  # cut[0] is +inf: (0, 0)
    assert (fpr, tpr) == pytest.approx((roc_fpr[corner], roc_tpr[corner]), abs=1e-12)


def test_rates_at_threshold_refuse_a_threshold_that_is_not_finite():
    with pytest.raises(ValueError, match="threshold must be finite, got nan"):
        metrics.rates_at_threshold([1.0], [0.0], float("nan"))


# --- DeLong: the AUC's standard error and that of a paired change --------------------


def pairwise_wins(members: np.ndarray, nonmembers: np.ndarray) -> np.ndarray:
    """ψ(member i, non-member j): 1 if the member scores higher, ½ on a tie, else 0."""
    return (members[:, None] > nonmembers[None, :]) + 0.5 * (
        members[:, None] == nonmembers[None, :]
    )


def brute_force_delong_variance(
    before: tuple[np.ndarray, np.ndarray], after: tuple[np.ndarray, np.ndarray] | None = None
) -> float:
    """DeLong et al.'s (1988) variance from the full m × n matrix of wins, written out."""
    wins = pairwise_wins(*before)
    if after is not None:
        wins = pairwise_wins(*after) - wins
    m, n = wins.shape
    member_parts, nonmember_parts = wins.mean(axis=1), wins.mean(axis=0)
    s10 = sum((v - member_parts.mean()) ** 2 for v in member_parts) / (m - 1)
    s01 = sum((v - nonmember_parts.mean()) ** 2 for v in nonmember_parts) / (n - 1)
    return float(s10 / m + s01 / n)


@HYPOTHESIS
@given(tied_scores, tied_scores)
def test_the_placements_average_to_the_auc(members: list[float], nonmembers: list[float]) -> None:
    member_parts, nonmember_parts = auc_error.auc_placements(members, nonmembers)
    wins = pairwise_wins(np.asarray(members), np.asarray(nonmembers))
    np.testing.assert_allclose(member_parts, wins.mean(axis=1), atol=1e-12)
    np.testing.assert_allclose(nonmember_parts, wins.mean(axis=0), atol=1e-12)
    expected = metrics.auc(members, nonmembers)
    assert float(np.mean(member_parts)) == pytest.approx(expected, abs=1e-12)
    assert float(np.mean(nonmember_parts)) == pytest.approx(expected, abs=1e-12)


@HYPOTHESIS
@given(
    st.lists(st.sampled_from([-3.0, 0.0, 0.5, 1.0, 2.0, 7.0]), min_size=2, max_size=30),
    st.lists(st.sampled_from([-3.0, 0.0, 0.5, 1.0, 2.0, 7.0]), min_size=2, max_size=30),
)
def test_the_auc_standard_error_is_delongs(members: list[float], nonmembers: list[float]) -> None:
    expected = brute_force_delong_variance((np.asarray(members), np.asarray(nonmembers)))
    assert auc_error.auc_standard_error(members, nonmembers) ** 2 == pytest.approx(
        expected, abs=1e-12
    )


def test_the_auc_standard_error_follows_the_spread_of_resampled_aucs() -> None:
    """Against the other estimate of the same thing: the stratified bootstrap's spread."""
    rng = np.random.default_rng(3)
    members, nonmembers = rng.normal(0.8, 1.0, 150), rng.normal(0.0, 1.0, 200)
    draws = [
        metrics.auc(rng.choice(members, members.size), rng.choice(nonmembers, nonmembers.size))
        for _ in range(3000)
    ]
    assert auc_error.auc_standard_error(members, nonmembers) == pytest.approx(
        float(np.std(draws)), rel=0.08
    )


def test_without_information_the_standard_error_is_about_the_chance_spread() -> None:
    """σ₀ is Hanley and McNeil's standard error at AUC = ½ (a closed form), and DeLong's
    estimate scatters around it on scores without information."""
    m, n, area = 160, 160, 0.5
    q1, q2 = area / (2 - area), 2 * area**2 / (1 + area)
    hanley_mcneil = math.sqrt(
        (area * (1 - area) + (m - 1) * (q1 - area**2) + (n - 1) * (q2 - area**2)) / (m * n)
    )
    assert metrics.chance_auc_spread(m, n) == pytest.approx(hanley_mcneil, rel=1e-12)
    rng = np.random.default_rng(5)
    errors = [
        auc_error.auc_standard_error(rng.normal(size=m), rng.normal(size=n)) for _ in range(200)
    ]
    assert float(np.mean(errors)) == pytest.approx(hanley_mcneil, rel=0.02)


def correlated_attacks(seed: int) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Two attacks on the same 120 members and 140 non-members: the second adds noise."""
    rng = np.random.default_rng(seed)
    members, nonmembers = rng.normal(0.6, 1.0, 120), rng.normal(0.0, 1.0, 140)
    after = (members + rng.normal(0, 0.5, 120), nonmembers + rng.normal(0, 0.5, 140))
    return (members, nonmembers), after


def test_a_paired_change_matches_brute_force_and_the_two_aucs() -> None:
    before, after = correlated_attacks(0)
    change, error = auc_error.paired_auc_difference(before, after)
    assert change == pytest.approx(metrics.auc(*after) - metrics.auc(*before), abs=1e-12)
    assert error**2 == pytest.approx(brute_force_delong_variance(before, after), abs=1e-12)
    # Sharing the records makes the change far surer than two independent AUCs would be.
    independent = math.hypot(
        auc_error.auc_standard_error(*before), auc_error.auc_standard_error(*after)
    )
    assert error < 0.6 * independent


def test_a_paired_change_follows_the_spread_of_paired_resamples() -> None:
    (members, nonmembers), (members_after, nonmembers_after) = correlated_attacks(1)
    rng = np.random.default_rng(2)
    changes = []
    for _ in range(3000):
        i, j = (
            rng.integers(0, members.size, members.size),
            rng.integers(0, nonmembers.size, nonmembers.size),
        )
        changes.append(
            metrics.auc(members_after[i], nonmembers_after[j])
            - metrics.auc(members[i], nonmembers[j])
        )
    _, error = auc_error.paired_auc_difference(
        (members, nonmembers), (members_after, nonmembers_after)
    )
    assert error == pytest.approx(float(np.std(changes)), rel=0.08)


def test_a_paired_change_of_one_attack_with_itself_is_exactly_zero() -> None:
    before, _ = correlated_attacks(4)
    assert auc_error.paired_auc_difference(before, before) == (0.0, 0.0)


def test_a_paired_change_refuses_different_records() -> None:
    before, (members, nonmembers) = correlated_attacks(4)
    with pytest.raises(ValueError, match="same records"):
        auc_error.paired_auc_difference(before, (members[:-1], nonmembers))
    with pytest.raises(ValueError, match="at least two scores"):
        auc_error.auc_standard_error([1.0], [0.0, 2.0])
