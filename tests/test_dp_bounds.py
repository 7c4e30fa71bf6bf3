"""What ε-DP promises an attacker, against closed forms, exact fractions and real mechanisms."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from compute import dp_bounds

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)
priors = st.floats(0.001, 0.999, allow_nan=False, allow_infinity=False)
epsilons = st.floats(0.0, 10.0, allow_nan=False, allow_infinity=False)


# --- Beliefs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prior, ratio", [(Fraction(1, 2), Fraction(3)), (Fraction(1, 100), Fraction(7, 3))]
)
def test_posterior_is_bayes_rule_in_exact_arithmetic(prior: Fraction, ratio: Fraction):
    exact = prior * ratio / (prior * ratio + (1 - prior))
    posterior = dp_bounds.bayes_posterior(float(prior), math.log(ratio))
    assert posterior == pytest.approx(float(exact), rel=1e-12)


@HYPOTHESIS
@given(prior=priors, epsilon=epsilons)
def test_bounds_move_the_odds_by_exactly_e_to_the_epsilon(prior: float, epsilon: float):
    low, high = dp_bounds.posterior_bounds(prior, epsilon)
    assert 0.0 < low <= prior * (1 + 1e-15) and prior <= high * (1 + 1e-15) and high < 1.0
    odds = prior / (1 - prior)
    closed_high = prior * math.exp(epsilon) / (prior * math.exp(epsilon) + 1 - prior)
    assert high == pytest.approx(closed_high, rel=1e-12)
    if high < 0.999:  # nearer 1, 1 − high keeps too few digits for a relative check
        assert high / (1 - high) == pytest.approx(odds * math.exp(epsilon), rel=1e-9)
    assert low / (1 - low) == pytest.approx(odds * math.exp(-epsilon), rel=1e-9)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("prior", [0.01, 0.5, 0.9])
def test_no_output_of_the_laplace_count_leaves_the_bounds(prior: float, epsilon: float):
    # Counts 10 and 9 (one record removed), scale 1/ε: the posterior at every output,
    # from SciPy's densities, stays inside the bounds and reaches the upper one.
    x = np.linspace(-10, 30, 4001)
    on_d = stats.laplace.pdf(x, loc=10, scale=1 / epsilon)
    on_d_prime = stats.laplace.pdf(x, loc=9, scale=1 / epsilon)
    posterior = prior * on_d / (prior * on_d + (1 - prior) * on_d_prime)
    low, high = dp_bounds.posterior_bounds(prior, epsilon)
    assert posterior.min() >= low - 1e-12 and posterior.max() <= high + 1e-12
    assert posterior.max() == pytest.approx(high, rel=1e-9)
    assert posterior.min() == pytest.approx(low, rel=1e-9)


def test_without_privacy_loss_the_belief_does_not_move():
    assert dp_bounds.posterior_bounds(0.3, 0.0) == pytest.approx((0.3, 0.3), rel=1e-15)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: dp_bounds.posterior_bounds(0.0, 1.0), "prior must be a probability"),
        (lambda: dp_bounds.posterior_bounds(1.0, 1.0), "prior must be a probability"),
        (lambda: dp_bounds.posterior_bounds(0.5, -1.0), "epsilon must be a finite number ≥ 0"),
        (lambda: dp_bounds.bayes_posterior(0.5, math.inf), "log_likelihood_ratio must be finite"),
        (lambda: dp_bounds.tpr_bound(1.5, 1.0), r"fpr must lie in \[0, 1\]"),
    ],
)
def test_bad_inputs_are_refused(call, message: str):
    with pytest.raises(ValueError, match=message):
        call()


def test_large_evidence_neither_overflows_nor_loses_the_small_side():
    assert dp_bounds.bayes_posterior(0.5, 800.0) == 1.0
    assert dp_bounds.bayes_posterior(0.5, -700.0) == pytest.approx(math.exp(-700.0), rel=1e-9)


# --- Tests (ROC) ----------------------------------------------------------------------


@HYPOTHESIS
@given(fpr=st.floats(0.0, 1.0), epsilon=epsilons)
def test_tpr_bound_is_the_smaller_of_the_two_inequalities(fpr: float, epsilon: float):
    bound = dp_bounds.tpr_bound(fpr, epsilon)
    growth = math.exp(epsilon)
    assert bound <= growth * fpr + 1e-12
    assert 1 - fpr <= growth * (1 - bound) * (1 + 1e-9) + 1e-9  # the symmetric inequality
    assert bound == pytest.approx(min(growth * fpr, 1 - (1 - fpr) / growth, 1.0), abs=1e-12)
    assert fpr - 1e-12 <= bound <= 1.0


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_randomized_response_reaches_the_bound_and_laplace_stays_under_it(epsilon: float):
    # Randomized response answers truthfully with probability e^ε / (1 + e^ε): the test
    # "member if it says member" has FPR 1/(1+e^ε) and reaches the corner of the region.
    fpr = 1 / (1 + math.exp(epsilon))
    assert dp_bounds.tpr_bound(fpr, epsilon) == pytest.approx(1 - fpr, rel=1e-12)
    # Threshold tests on the Laplace count (10 vs 9, scale 1/ε): every (FPR, TPR) is inside.
    thresholds = np.linspace(0, 20, 2001)
    tpr = stats.laplace.sf(thresholds, loc=10, scale=1 / epsilon)
    fprs = stats.laplace.sf(thresholds, loc=9, scale=1 / epsilon)
    assert np.all(tpr <= dp_bounds.tpr_bound(fprs, epsilon) + 1e-12)


def test_tpr_bound_keeps_the_shape_of_an_array():
    rates = np.array([[0.0, 0.1], [0.5, 1.0]])
    bound = dp_bounds.tpr_bound(rates, 1.0)
    assert isinstance(bound, np.ndarray) and bound.shape == (2, 2)
    assert bound[0, 0] == 0.0 and bound[1, 1] == 1.0


# --- Which neighbours: a replacement is two add/remove steps -------------------------


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0])
def test_a_replacement_costs_twice_epsilon_and_a_laplace_histogram_pays_it(epsilon: float):
    """Two counts with Laplace noise of scale 1/ε each are add/remove ε-DP (one record moves
    one count by 1). Moving one record from the first count to the second, a replacement,
    reaches the ratio e^{2ε}: the test "first count high and second low" lands exactly on the
    e^{2ε} bound, beyond the e^ε one."""
    assert dp_bounds.REPLACEMENT_STEPS == 2
    doubled = dp_bounds.group_epsilon(epsilon, dp_bounds.REPLACEMENT_STEPS)
    assert doubled == 2 * epsilon
    scale = 1 / epsilon
    member_world, swapped_world = (6, 3), (5, 4)  # the record in the first bin, or the second
    removed_world = (5, 3)  # the record simply left out: one add/remove step
    outputs = np.random.default_rng(0).uniform(0, 10, (2000, 2))

    def log_density(world: tuple[int, int]) -> np.ndarray:
        return stats.laplace.logpdf(outputs, loc=world, scale=scale).sum(axis=1)

    one_step = log_density(member_world) - log_density(removed_world)
    two_steps = log_density(member_world) - log_density(swapped_world)
    assert np.abs(one_step).max() <= epsilon + 1e-12
    assert np.abs(two_steps).max() <= doubled + 1e-12
    # The region {first ≥ 6, second ≤ 3}: probability ¼ in the member world, e^{−2ε}/4 swapped.
    tpr = stats.laplace.sf(6, loc=6, scale=scale) * stats.laplace.cdf(3, loc=3, scale=scale)
    fpr = stats.laplace.sf(6, loc=5, scale=scale) * stats.laplace.cdf(3, loc=4, scale=scale)
    assert tpr == pytest.approx(0.25) and fpr == pytest.approx(math.exp(-doubled) / 4)
    assert tpr == pytest.approx(dp_bounds.tpr_bound(fpr, doubled), rel=1e-12)
    assert tpr > dp_bounds.tpr_bound(fpr, epsilon) + 1e-3


def test_group_epsilon_refuses_what_is_not_a_number_of_steps():
    with pytest.raises(ValueError, match="steps must be a whole number"):
        dp_bounds.group_epsilon(1.0, -1)
    with pytest.raises(ValueError, match="epsilon must be a finite number"):
        dp_bounds.group_epsilon(-1.0, 2)
    assert dp_bounds.group_epsilon(1.5, 0) == 0.0


# --- The optimal test between two Laplace releases ----------------------------------


@pytest.mark.parametrize("shift, scale", [(1.0, 1.0), (1.0, 0.2), (0.37, 2.0), (3.0, 0.5)])
def test_laplace_optimal_tpr_is_the_threshold_test_scipy_computes(shift: float, scale: float):
    # Thresholds c across both centres: α = P(X ≥ c) on Lap(0, b), power = P(X ≥ c) on Lap(s, b).
    thresholds = np.linspace(-6.0 * scale, shift + 6.0 * scale, 401)
    fpr = stats.laplace.sf(thresholds, loc=0.0, scale=scale)
    power = stats.laplace.sf(thresholds, loc=shift, scale=scale)
    assert dp_bounds.laplace_optimal_tpr(fpr, shift, scale) == pytest.approx(power, abs=1e-12)


def test_laplace_optimal_tpr_matches_a_monte_carlo_test():
    rng = np.random.default_rng(20150601)
    shift, scale, size = 1.0, 1.0, 200_000
    null = rng.laplace(0.0, scale, size)
    alternative = rng.laplace(shift, scale, size)
    for threshold in (-1.0, 0.3, 2.5):
        fpr = float(np.mean(null >= threshold))
        power = float(np.mean(alternative >= threshold))
        # Binomial standard errors of both estimates; 5 of them leave room for the plug-in FPR.
        slack = 5.0 * math.sqrt(0.25 / size) * (1.0 + math.exp(shift / scale))
        assert dp_bounds.laplace_optimal_tpr(fpr, shift, scale) == pytest.approx(power, abs=slack)


@HYPOTHESIS
@given(st.floats(0.0, 1.0), st.floats(0.01, 8.0))
def test_laplace_at_shift_epsilon_stays_under_the_bound_and_touches_it(fpr: float, epsilon: float):
    power = dp_bounds.laplace_optimal_tpr(fpr, epsilon, 1.0)
    bound = dp_bounds.tpr_bound(fpr, epsilon)
    assert power <= bound + 1e-12
    first, second = dp_bounds.laplace_roc_breaks(epsilon, 1.0)
    if fpr <= first or fpr >= second:
        assert power == pytest.approx(bound, abs=1e-12)
    else:
        assert power < bound


def test_laplace_optimal_tpr_is_concave_and_breaks_where_it_says():
    fpr = np.linspace(0.0, 1.0, 2001)
    power = dp_bounds.laplace_optimal_tpr(fpr, 1.0, 1.0)
    assert np.all(np.diff(power, 2) <= 1e-12)
    assert power[0] == 0.0 and power[-1] == 1.0
    first, second = dp_bounds.laplace_roc_breaks(1.0, 1.0)
    assert first == pytest.approx(math.exp(-1.0) / 2.0) and second == 0.5
    assert dp_bounds.laplace_optimal_tpr(first, 1.0, 1.0) == pytest.approx(0.5)
    # No shift, no test: the diagonal.
    assert dp_bounds.laplace_optimal_tpr(fpr, 0.0, 1.0) == pytest.approx(fpr)


@pytest.mark.parametrize(
    "fpr, shift, scale, message",
    [(0.5, -1.0, 1.0, "shift"), (0.5, 1.0, 0.0, "scale"), (1.5, 1.0, 1.0, "fpr")],
)
def test_laplace_optimal_tpr_refuses_bad_input(fpr: float, shift: float, scale: float, message):
    with pytest.raises(ValueError, match=message):
        dp_bounds.laplace_optimal_tpr(fpr, shift, scale)
