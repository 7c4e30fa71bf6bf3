"""The loss attack's scores and chance level, and the attack metrics lesson 02 uses.

The metrics are checked against scikit-learn on scores ``−ℓ``; the chance level
against the exact null distribution of the Mann–Whitney statistic, by brute force.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sklearn_roc_curve

from compute import mlp as metrics  # TEMPORARY: compute.attacks.metrics once it is merged
from compute.loss_attack import chance_auc_spread, loss_scores

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)

# Few distinct values, so that ties between and within the groups are common.
tied_losses = st.lists(
    st.sampled_from([0.0, 0.5, 1.0, 2.0, 2.5, 7.0, 100.0]), min_size=1, max_size=40
)
any_losses = st.lists(
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=60
)


def sklearn_auc(members: list[float], nonmembers: list[float]) -> float:
    labels = [1] * len(members) + [0] * len(nonmembers)
    return float(roc_auc_score(labels, -np.asarray(members + nonmembers)))


# --- The chance level ---------------------------------------------------------


@pytest.mark.parametrize(("members", "nonmembers"), [(1, 1), (2, 3), (4, 4), (5, 3)])
def test_chance_spread_is_the_exact_null_standard_deviation(members: int, nonmembers: int):
    """Every way to place the members' ranks among all ranks is equally likely without signal."""
    total = members + nonmembers
    aucs = []
    for ranks in itertools.combinations(range(1, total + 1), members):
        u = sum(ranks) - members * (members + 1) / 2
        aucs.append(u / (members * nonmembers))
    assert chance_auc_spread(members, nonmembers) == pytest.approx(float(np.std(aucs)), rel=1e-12)


def test_chance_spread_for_the_lesson_and_bad_sizes():
    assert chance_auc_spread(160, 160) == pytest.approx(math.sqrt(321 / (12 * 160 * 160)))
    with pytest.raises(ValueError, match="both groups need at least one sample"):
        chance_auc_spread(0, 5)


def test_scores_are_the_negated_losses():
    assert loss_scores([[0.5], [2.0]]).tolist() == [-0.5, -2.0]


# --- The AUC ------------------------------------------------------------------


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_auc_equals_scikit_learn_with_many_ties(members: list[float], nonmembers: list[float]):
    assert metrics.auc(loss_scores(members), loss_scores(nonmembers)) == pytest.approx(
        sklearn_auc(members, nonmembers), abs=1e-12
    )


@HYPOTHESIS
@given(members=any_losses, nonmembers=any_losses)
def test_auc_equals_scikit_learn(members: list[float], nonmembers: list[float]):
    assert metrics.auc(loss_scores(members), loss_scores(nonmembers)) == pytest.approx(
        sklearn_auc(members, nonmembers), abs=1e-12
    )


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_auc_is_the_pairwise_probability(members: list[float], nonmembers: list[float]):
    pairs = [(m, n) for m in members for n in nonmembers]
    expected = sum((m < n) + 0.5 * (m == n) for m, n in pairs) / len(pairs)
    assert metrics.auc(loss_scores(members), loss_scores(nonmembers)) == pytest.approx(
        expected, abs=1e-12
    )


def test_auc_boundary_cases():
    assert metrics.auc(loss_scores([0.1, 0.2, 0.3]), loss_scores([1.0, 2.0])) == 1.0
    assert metrics.auc(loss_scores([1.0, 2.0]), loss_scores([0.1, 0.2, 0.3])) == 0.0
    assert metrics.auc(loss_scores([4.0, 4.0]), loss_scores([4.0, 4.0, 4.0])) == 0.5
    assert metrics.auc(loss_scores([1.0]), loss_scores([1.0])) == 0.5
    # One tie among four pairs: (3 wins + ½) / 4.
    assert metrics.auc(loss_scores([1.0, 2.0]), loss_scores([2.0, 3.0])) == 0.875


def test_loss_scores_refuse_empty_or_non_finite_losses():
    with pytest.raises(ValueError, match="losses must not be empty"):
        loss_scores([])
    with pytest.raises(ValueError, match="losses must be finite numbers"):
        loss_scores([1.0, math.nan])


@HYPOTHESIS
@given(values=st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=1, max_size=30))
def test_average_ranks_agree_with_scipy(values: list[float]):
    from scipy.stats import rankdata

    np.testing.assert_array_equal(
        metrics._average_ranks(np.asarray(values, dtype=float)), rankdata(values, method="average")
    )


# --- ROC and TPR at low FPR ---------------------------------------------------


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_roc_curve_matches_scikit_learn(members: list[float], nonmembers: list[float]):
    fpr, tpr = metrics.roc_curve(loss_scores(members), loss_scores(nonmembers))
    labels = [1] * len(members) + [0] * len(nonmembers)
    reference_fpr, reference_tpr, _ = sklearn_roc_curve(
        labels, -np.asarray(members + nonmembers), drop_intermediate=False
    )
    np.testing.assert_allclose(fpr, reference_fpr, atol=1e-12)
    np.testing.assert_allclose(tpr, reference_tpr, atol=1e-12)
    # The trapezoids under the exact curve give the AUC, ties included.
    assert np.trapezoid(tpr, fpr) == pytest.approx(
        metrics.auc(loss_scores(members), loss_scores(nonmembers))
    )


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses, tries=st.integers(1, 5))
def test_tpr_at_fpr_matches_scikit_learn(members: list[float], nonmembers: list[float], tries):
    labels = [1] * len(members) + [0] * len(nonmembers)
    fpr, tpr, _ = sklearn_roc_curve(
        labels, -np.asarray(members + nonmembers), drop_intermediate=False
    )
    level = tries / len(nonmembers)
    assert (
        metrics.max_tpr_at_fpr(loss_scores(members), loss_scores(nonmembers), level)
        == tpr[fpr <= level + 1e-12].max()
    )


def test_tpr_at_one_false_positive_by_hand():
    # Non-member losses 1 and 5: a threshold between them lets exactly one non-member in.
    members = [0.5, 0.7, 2.0, 3.0, 9.0]
    nonmembers = [1.0, 5.0]
    assert (
        metrics.max_tpr_at_fpr(loss_scores(members), loss_scores(nonmembers), 0.0) == 0.4
    )  # 0.5 and 0.7 only
    assert (
        metrics.max_tpr_at_fpr(loss_scores(members), loss_scores(nonmembers), 0.5) == 0.8
    )  # up to 3.0, before 5.0


def test_best_accuracy_and_the_zero_false_positive_bound():
    assert metrics.best_threshold_accuracy(loss_scores([0.1, 0.2]), loss_scores([1.0, 2.0])) == 1.0
    assert metrics.best_threshold_accuracy([1.0, 1.0], [1.0, 1.0]) == 0.5
    bound = metrics.zero_fpr_upper_bound(160)
    assert (1 - bound) ** 160 == pytest.approx(0.05)
    assert 2.9 / 160 < bound < 3.0 / 160
