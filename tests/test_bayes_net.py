"""The Chow–Liu Bayesian-network synthesizer against SciPy and scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.sparse.csgraph import minimum_spanning_tree
from sklearn.metrics import mutual_info_score

from privacy_explorer.compute import bayes_net as bn

ALPHA = 1e-3
"""Family-wise level of the goodness-of-fit tests below (Bonferroni over each test's checks)."""


def correlated_table(rows: int, seed: int) -> np.ndarray:
    """Five columns with a chain of dependence of distinct strengths, one integer-valued."""
    rng = np.random.default_rng(seed)
    first = rng.standard_normal(rows)
    second = 0.9 * first + 0.4 * rng.standard_normal(rows)
    third = 0.6 * second + 0.8 * rng.standard_normal(rows)
    fourth = rng.exponential(size=rows) + 0.3 * first
    fifth = np.round(2 * rng.random(rows) + 0.5 * third)
    return np.column_stack([first, second, third, fourth, fifth])


@pytest.fixture(scope="module")
def members() -> np.ndarray:
    return correlated_table(400, seed=3)


@pytest.fixture(scope="module")
def model(members: np.ndarray) -> bn.BayesNet:
    return bn.fit_bayes_net(members, bn.quantile_bins(members, 6))


def test_quantile_bins_are_member_values_and_never_empty(members: np.ndarray) -> None:
    discretization = bn.quantile_bins(members, 6)
    codes = discretization.codes(members)
    for column, levels in enumerate(discretization.levels):
        assert 1 <= levels <= 6
        counts = np.bincount(codes[:, column], minlength=levels)
        assert counts.size == levels and np.all(counts > 0)
        assert set(discretization.edges[column]) <= set(members[:, column])
    # The integer column has few distinct values, so its repeated quantiles merge.
    assert discretization.levels[4] < 6 and discretization.levels[0] == 6
    constant = np.column_stack([members[:, 0], np.full(len(members), 2.5)])
    assert bn.quantile_bins(constant, 4).levels == (4, 1)


def test_mutual_information_equals_scikit_learn_and_scipy_entropies(
    members: np.ndarray,
) -> None:
    discretization = bn.quantile_bins(members, 6)
    codes = discretization.codes(members)
    for a, b in bn.pairs(members.shape[1]):
        joint = bn.pair_counts(codes, discretization.levels, a, b)
        ours = bn.mutual_information(joint)
        assert ours == pytest.approx(mutual_info_score(codes[:, a], codes[:, b]), abs=1e-12)
        # I(A; B) = H(A) + H(B) − H(A, B), each entropy from scipy.stats.entropy.
        by_entropies = (
            stats.entropy(joint.sum(axis=1))
            + stats.entropy(joint.sum(axis=0))
            - stats.entropy(joint.ravel())
        )
        assert ours == pytest.approx(by_entropies, abs=1e-12)
    independent = np.outer([1.0, 3.0], [2.0, 5.0, 1.0])
    assert bn.mutual_information(independent) == pytest.approx(0.0, abs=1e-15)
    assert bn.mutual_information(np.zeros((2, 3))) == 0.0


def test_the_tree_is_scipys_minimum_spanning_tree_of_minus_mi(model: bn.BayesNet) -> None:
    information = model.mutual_information
    assert np.all(information[np.triu_indices_from(information, 1)] > 0)
    reference = minimum_spanning_tree(-np.triu(information, 1)).tocoo()
    expected = {
        frozenset((int(a), int(b))) for a, b in zip(reference.row, reference.col, strict=True)
    }
    ours = {
        frozenset((column, int(parent)))
        for column, parent in enumerate(model.parents)
        if parent >= 0
    }
    assert ours == expected
    assert model.parents[0] == -1 and model.order[0] == 0
    for position, column in enumerate(model.order[1:], start=1):
        assert model.parents[column] in model.order[:position]


def test_prim_against_scipy_on_random_weights() -> None:
    rng = np.random.default_rng(11)
    for _ in range(20):
        size = int(rng.integers(2, 9))
        weights = rng.random((size, size)) + 0.01
        weights = np.triu(weights, 1) + np.triu(weights, 1).T
        parents, _ = bn.chow_liu_tree(weights)
        reference = minimum_spanning_tree(-np.triu(weights, 1)).tocoo()
        expected = {
            frozenset(map(int, edge)) for edge in zip(reference.row, reference.col, strict=True)
        }
        ours = {frozenset((c, int(p))) for c, p in enumerate(parents) if p >= 0}
        assert ours == expected


def test_the_fitted_tables_are_the_empirical_ones(members: np.ndarray, model: bn.BayesNet) -> None:
    codes = model.discretization.codes(members)
    levels = model.discretization.levels
    for column in range(members.shape[1]):
        empirical = np.bincount(codes[:, column], minlength=levels[column]) / len(members)
        np.testing.assert_allclose(model.marginal(column), empirical, atol=1e-12)
        parent = int(model.parents[column])
        if parent >= 0:
            joint = model.edge_joint(column)
            counts = bn.pair_counts(codes, levels, parent, column) / len(members)
            np.testing.assert_allclose(joint, counts, atol=1e-12)


def chi_square_p(observed: np.ndarray, probabilities: np.ndarray) -> float:
    """Pearson's goodness-of-fit p-value; cells of probability 0 must be empty."""
    observed, probabilities = observed.ravel(), probabilities.ravel()
    possible = probabilities > 0
    assert observed[~possible].sum() == 0
    expected = probabilities[possible] * observed.sum()
    return float(
        stats.chisquare(observed[possible], expected / expected.sum() * observed.sum()).pvalue
    )


def test_sampled_bins_follow_the_fitted_marginals_and_edge_tables(model: bn.BayesNet) -> None:
    size = 20_000
    codes = model.sample_codes(size, np.random.default_rng(5))
    levels = model.discretization.levels
    columns = len(levels)
    edges = [(int(model.parents[c]), c) for c in range(columns) if model.parents[c] >= 0]
    checks = columns + len(edges)
    for column in range(columns):
        observed = np.bincount(codes[:, column], minlength=levels[column])
        assert chi_square_p(observed, model.marginal(column)) > ALPHA / checks
    for parent, column in edges:
        pair = bn.pair_counts(codes, levels, parent, column)
        assert chi_square_p(pair, model.edge_joint(column)) > ALPHA / checks


def test_a_wrong_table_is_rejected_by_the_same_check(model: bn.BayesNet) -> None:
    # The check can fail: the sampled root against a distorted marginal.
    codes = model.sample_codes(20_000, np.random.default_rng(5))
    root = model.order[0]
    observed = np.bincount(codes[:, root], minlength=model.discretization.levels[root])
    distorted = model.root_marginal + 0.02 * np.sign(np.arange(observed.size) % 2 - 0.5)
    assert chi_square_p(observed, distorted / distorted.sum()) < ALPHA


def test_same_seed_same_records_and_values_from_the_right_bins(members: np.ndarray) -> None:
    first = bn.bayes_net(members, 6, 300, np.random.default_rng(8))
    again = bn.bayes_net(members, 6, 300, np.random.default_rng(8))
    other = bn.bayes_net(members, 6, 300, np.random.default_rng(9))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    assert first.shape == (300, members.shape[1])
    # Every released value of a column is a member value of that column.
    for column in range(members.shape[1]):
        assert set(first[:, column]) <= set(members[:, column])


def test_decoded_values_lie_in_their_bins(members: np.ndarray, model: bn.BayesNet) -> None:
    discretization = model.discretization
    codes = model.sample_codes(500, np.random.default_rng(1))
    for mode in ("members", "uniform"):
        values = bn.decode(codes, discretization, np.random.default_rng(2), mode, members)
        np.testing.assert_array_equal(discretization.codes(values), codes)


def test_uniform_bins_clip_values_outside_the_interval() -> None:
    discretization = bn.uniform_bins(-1.0, 1.0, 4, 2)
    codes = discretization.codes(np.array([[-5.0, 0.2], [0.99, 7.0], [-0.5, 0.5]]))
    np.testing.assert_array_equal(codes, [[0, 2], [3, 3], [1, 3]])


def test_bad_parameters_are_refused(members: np.ndarray) -> None:
    with pytest.raises(ValueError, match="whole number of bins"):
        bn.bayes_net(members, 1, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="whole number of bins"):
        bn.bayes_net(members, None, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least 1 row and 2 columns"):
        bn.quantile_bins(members[:, :1], 4)
