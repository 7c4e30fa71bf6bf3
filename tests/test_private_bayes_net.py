"""The ε-DP Bayesian network: its accounting, its noise, and its limit as ε grows."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privacy_explorer.compute import bayes_net as bn
from privacy_explorer.compute.laplace import nonzero_uniforms


def correlated_table(rows: int, seed: int) -> np.ndarray:
    """Four standardized-looking columns, a chain of dependence with distinct strengths."""
    rng = np.random.default_rng(seed)
    first = rng.standard_normal(rows)
    second = 0.9 * first + 0.4 * rng.standard_normal(rows)
    third = 0.5 * second + 0.9 * rng.standard_normal(rows)
    fourth = 0.3 * first + rng.standard_normal(rows)
    return np.column_stack([first, second, third, fourth])


MEMBERS = correlated_table(500, seed=4)


@pytest.mark.parametrize("epsilon", bn.PRIVATE_EPSILONS)
@pytest.mark.parametrize("columns", [2, 4, 9])
def test_shares_sum_to_epsilon_and_scales_are_sensitivity_over_share(
    epsilon: float, columns: int
) -> None:
    account = bn.account_for(columns, epsilon)
    tables = math.comb(columns, 2)  # computed here, not taken from the library
    assert len(account.tables) == tables == len(set(account.tables))
    assert account.spent == pytest.approx(epsilon, rel=1e-15)
    assert account.sensitivity == 1.0  # one record moves one cell of a table by one
    for share, scale in zip(account.shares, account.scales, strict=True):
        assert share == pytest.approx(epsilon / tables, rel=1e-15)
        assert scale == pytest.approx(1.0 / (epsilon / tables), rel=1e-15)
    assert account.neighbouring == "add or remove one record"
    assert account.replace_one_epsilon == pytest.approx(2 * epsilon)


def test_the_noise_added_is_laplace_of_the_accounted_scale_from_the_same_uniforms() -> None:
    # Reproduce the release independently: the same uniforms through SciPy's Laplace
    # quantile function at scale K / ε, added to counts made by NumPy's histogram2d.
    discretization = bn.private_discretization(MEMBERS.shape[1])
    codes = discretization.codes(MEMBERS)
    levels = discretization.levels
    epsilon = 1.0
    released = bn.noisy_pair_tables(codes, levels, epsilon, np.random.default_rng(21))
    tables = math.comb(MEMBERS.shape[1], 2)
    cells = sum(levels[a] * levels[b] for a, b in bn.pairs(MEMBERS.shape[1]))
    uniforms = nonzero_uniforms(np.random.default_rng(21), cells)
    start = 0
    for a, b in bn.pairs(MEMBERS.shape[1]):
        size = levels[a] * levels[b]
        noise = stats.laplace.ppf(uniforms[start : start + size], scale=tables / epsilon)
        counts, _, _ = np.histogram2d(
            codes[:, a], codes[:, b], bins=[np.arange(levels[a] + 1), np.arange(levels[b] + 1)]
        )
        expected = counts + noise.reshape(levels[a], levels[b])
        np.testing.assert_allclose(released.noisy[(a, b)], expected, rtol=1e-9, atol=1e-9)
        start += size


def test_one_noisy_count_follows_the_laplace_cdf() -> None:
    # Monte Carlo of the mechanism on one cell: many releases of the same data.
    codes = np.array([[0, 0], [0, 1], [1, 1], [0, 0], [1, 0]])
    levels = (2, 2)
    epsilon = 0.5
    true_count = 2.0  # records with bins (0, 0)
    scale = 1.0 / epsilon  # one table: it gets the whole budget
    rng = np.random.default_rng(7)
    draws = np.array(
        [bn.noisy_pair_tables(codes, levels, epsilon, rng).noisy[(0, 1)][0, 0] for _ in range(4000)]
    )
    errors = draws - true_count
    assert stats.kstest(errors, stats.laplace(scale=scale).cdf).pvalue > 1e-3
    # The same check rejects a scale 25 % off, and a shifted centre.
    assert stats.kstest(errors, stats.laplace(scale=1.25 * scale).cdf).pvalue < 1e-3
    assert stats.kstest(errors, stats.laplace(loc=0.5, scale=scale).cdf).pvalue < 1e-3


def test_with_a_huge_epsilon_the_private_network_is_the_exact_one() -> None:
    discretization = bn.private_discretization(MEMBERS.shape[1])
    exact = bn.fit_bayes_net(MEMBERS, discretization)
    private, released = bn.fit_private_bayes_net(
        MEMBERS, discretization, 1e12, np.random.default_rng(3)
    )
    assert max(released.account.scales) < 1e-10
    np.testing.assert_array_equal(private.parents, exact.parents)
    assert private.order == exact.order
    np.testing.assert_allclose(private.mutual_information, exact.mutual_information, atol=1e-9)
    np.testing.assert_allclose(private.root_marginal, exact.root_marginal, atol=1e-12)
    for column in exact.order[1:]:
        np.testing.assert_allclose(private.edge_joint(column), exact.edge_joint(column), atol=1e-12)


def test_error_of_the_tables_shrinks_with_epsilon() -> None:
    discretization = bn.private_discretization(MEMBERS.shape[1])
    exact = bn.fit_bayes_net(MEMBERS, discretization)
    errors = []
    for epsilon in (*bn.PRIVATE_EPSILONS, 1000.0):
        gaps = []
        for seed in range(5):
            private, _ = bn.fit_private_bayes_net(
                MEMBERS, discretization, epsilon, np.random.default_rng(seed)
            )
            gaps.append(np.abs(private.root_marginal - exact.root_marginal).sum())
        errors.append(float(np.mean(gaps)))
    assert errors == sorted(errors, reverse=True)
    assert errors[-1] < 0.01


def test_post_processing_reads_only_the_released_tables() -> None:
    # Two member sets with the same released tables give the same network: the fit
    # sees nothing else. Here the second set is the first in another row order.
    discretization = bn.private_discretization(MEMBERS.shape[1])
    first, released = bn.fit_private_bayes_net(
        MEMBERS, discretization, 1.0, np.random.default_rng(5)
    )
    second, again = bn.fit_private_bayes_net(
        MEMBERS[::-1], discretization, 1.0, np.random.default_rng(5)
    )
    for pair in released.noisy:
        np.testing.assert_array_equal(released.noisy[pair], again.noisy[pair])
        assert np.all(released.post_processed()[pair] >= 0)
    np.testing.assert_array_equal(first.parents, second.parents)
    np.testing.assert_array_equal(first.root_marginal, second.root_marginal)


@pytest.mark.parametrize("epsilon", bn.PRIVATE_EPSILONS)
def test_the_family_is_seeded_and_stays_in_the_domain(epsilon: float) -> None:
    first = bn.private_bayes_net(MEMBERS, epsilon, 200, np.random.default_rng(1))
    again = bn.private_bayes_net(MEMBERS, epsilon, 200, np.random.default_rng(1))
    np.testing.assert_array_equal(first, again)
    low, high = bn.PRIVATE_DOMAIN
    assert first.shape == (200, MEMBERS.shape[1])
    assert np.all((first >= low) & (first <= high))


def test_bad_budgets_are_refused() -> None:
    for epsilon in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="epsilon"):
            bn.account_for(3, epsilon)
    with pytest.raises(ValueError, match="epsilon > 0"):
        bn.private_bayes_net(MEMBERS, None, 10, np.random.default_rng(0))
