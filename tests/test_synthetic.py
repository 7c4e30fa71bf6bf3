"""The memorizing generator of lesson 05's simulation: population, splits and releases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from privacy_explorer.compute.synthetic import (
    Population,
    high_d_population,
    memorizing_release,
    release_log_density,
    simulation_split,
    two_d_population,
)

POPULATIONS = [two_d_population(), high_d_population(), high_d_population(5)]


def scipy_log_density(population: Population, points: np.ndarray) -> np.ndarray:
    """The mixture's log density from SciPy's multivariate normal, an independent reference."""
    density = sum(
        weight * multivariate_normal(mean, covariance).pdf(points)
        for weight, mean, covariance in zip(
            population.weights, population.means, population.covariances, strict=True
        )
    )
    return np.log(density)


@pytest.mark.parametrize("population", POPULATIONS, ids=["2d", "8d", "5d"])
def test_log_density_matches_scipy(population: Population) -> None:
    points = population.sample(50, np.random.default_rng(0))
    np.testing.assert_allclose(
        population.log_density(points), scipy_log_density(population, points), rtol=1e-12
    )


@pytest.mark.parametrize("population", POPULATIONS, ids=["2d", "8d", "5d"])
def test_sample_moments_and_spread(population: Population) -> None:
    draws = population.sample(200_000, np.random.default_rng(1))
    assert draws.shape == (200_000, population.dimensions)
    np.testing.assert_allclose(draws.mean(axis=0), population.mean, atol=0.02)
    np.testing.assert_allclose(np.cov(draws, rowvar=False), population.covariance, atol=0.04)
    empirical_spread = math.sqrt(draws.var(axis=0).mean())
    assert empirical_spread == pytest.approx(population.spread, rel=0.01)


def test_two_d_population_is_the_documented_mixture() -> None:
    population = two_d_population()
    assert population.dimensions == 2
    np.testing.assert_array_equal(population.weights, [0.5, 0.3, 0.2])
    assert population.spread == pytest.approx(1.8, abs=0.01)


def test_high_d_population_shape_and_limits() -> None:
    population = high_d_population(8)
    assert population.means.shape == (4, 8)
    np.testing.assert_array_equal(population.means[:, :4], 3.0 * np.eye(4))
    with pytest.raises(ValueError, match="d >= 4"):
        high_d_population(3)


@pytest.mark.parametrize(
    ("weights", "message"),
    [([0.5, 0.6], "sum to 1"), ([1.0, 0.0], "positive"), ([1.0], "means must be 1")],
)
def test_population_rejects_bad_weights(weights: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Population(np.array(weights), np.zeros((2, 2)), np.array([np.eye(2)] * 2))


def test_population_rejects_a_covariance_that_is_not_positive_definite() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        Population(np.array([1.0]), np.zeros((1, 2)), np.array([[[1.0, 2.0], [2.0, 1.0]]]))


def test_population_arrays_are_read_only() -> None:
    population = two_d_population()
    with pytest.raises(ValueError, match="read-only"):
        population.means[0, 0] = 1.0


def test_copy_share_is_epsilon_and_noise_is_rho_spread() -> None:
    population = two_d_population()
    members = population.sample(50, np.random.default_rng(2))
    epsilon, rho, size = 0.3, 0.25, 40_000
    release = memorizing_release(
        members, population, epsilon=epsilon, rho=rho, size=size, rng=np.random.default_rng(3)
    )
    assert release.records.shape == (size, 2)
    # Within four binomial standard deviations.
    assert abs(release.copy_share - epsilon) < 4 * math.sqrt(epsilon * (1 - epsilon) / size)
    copies = release.copied
    noise = release.records[copies] - members[release.source[copies]]
    assert release.noise_scale == pytest.approx(rho * population.spread)
    np.testing.assert_allclose(noise.std(axis=0), release.noise_scale, rtol=0.02)
    np.testing.assert_allclose(noise.mean(axis=0), 0.0, atol=0.02)
    # Every member is chosen about equally often.
    counts = np.bincount(release.source[copies], minlength=50)
    assert counts.min() > 0.7 * counts.mean()
    # The fresh draws follow the population.
    fresh = release.records[~copies]
    np.testing.assert_allclose(fresh.mean(axis=0), population.mean, atol=0.05)


def test_extreme_settings() -> None:
    population = two_d_population()
    members = population.sample(20, np.random.default_rng(4))
    exact = memorizing_release(
        members, population, epsilon=1.0, rho=0.0, size=100, rng=np.random.default_rng(5)
    )
    assert exact.copied.all()
    np.testing.assert_array_equal(exact.records, members[exact.source])
    none = memorizing_release(
        members, population, epsilon=0.0, rho=0.5, size=100, rng=np.random.default_rng(5)
    )
    assert not none.copied.any()
    assert (none.source == -1).all()


def test_releases_share_random_numbers_across_epsilon_and_rho() -> None:
    split = simulation_split(two_d_population(), members=30, reference=40, synthetic=500, seed=7)
    small = split.release(epsilon=0.1, rho=0.2)
    large = split.release(epsilon=0.4, rho=0.2)
    assert (large.copied | ~small.copied).all()  # every copy at ε = 0.1 is a copy at ε = 0.4
    np.testing.assert_array_equal(small.source[small.copied], large.source[small.copied])
    wider = split.release(epsilon=0.4, rho=0.4)
    copies = large.copied
    offsets = large.records[copies] - split.members[large.source[copies]]
    wider_offsets = wider.records[copies] - split.members[wider.source[copies]]
    np.testing.assert_allclose(wider_offsets, 2 * offsets, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(large.records[~copies], wider.records[~copies])


def test_splits_are_deterministic_disjoint_and_sized() -> None:
    population = two_d_population()
    split = simulation_split(
        population, members=200, nonmembers=150, reference=400, synthetic=300, seed=11
    )
    again = simulation_split(
        population, members=200, nonmembers=150, reference=400, synthetic=300, seed=11
    )
    other = simulation_split(
        population, members=200, nonmembers=150, reference=400, synthetic=300, seed=12
    )
    assert split.members.shape == (200, 2)
    assert split.nonmembers.shape == (150, 2)
    assert split.reference.shape == (400, 2)
    for name in ("members", "nonmembers", "reference"):
        np.testing.assert_array_equal(getattr(split, name), getattr(again, name))
        assert not np.array_equal(getattr(split, name), getattr(other, name))
    rows = [tuple(row) for row in np.vstack([split.members, split.nonmembers, split.reference])]
    assert len(set(rows)) == len(rows)
    release = split.release(epsilon=0.2, rho=0.1)
    assert release.records.shape == (300, 2)
    np.testing.assert_array_equal(release.records, split.release(epsilon=0.2, rho=0.1).records)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"epsilon": 1.5, "rho": 0.1, "size": 10}, "epsilon"),
        ({"epsilon": 0.5, "rho": -1.0, "size": 10}, "rho"),
        ({"epsilon": 0.5, "rho": 0.1, "size": 0}, "size"),
    ],
)
def test_release_rejects_bad_parameters(options: dict[str, float], message: str) -> None:
    population = two_d_population()
    members = population.sample(5, np.random.default_rng(0))
    with pytest.raises(ValueError, match=message):
        memorizing_release(members, population, rng=np.random.default_rng(0), **options)  # type: ignore[arg-type]


def test_release_rejects_members_of_the_wrong_width() -> None:
    with pytest.raises(ValueError, match="m × 2"):
        memorizing_release(
            np.zeros((5, 3)),
            two_d_population(),
            epsilon=0.1,
            rho=0.1,
            size=3,
            rng=np.random.default_rng(0),
        )


def test_split_needs_a_reference_larger_than_the_dimension() -> None:
    with pytest.raises(ValueError, match="more rows than the 8 dimensions"):
        simulation_split(high_d_population(), reference=8, seed=0)


def test_release_log_density_matches_scipy() -> None:
    population = two_d_population()
    rng = np.random.default_rng(9)
    members = population.sample(4, rng)
    points = population.sample(30, rng)
    epsilon, rho = 0.3, 0.2
    scale = rho * population.spread
    copies = np.mean(
        [multivariate_normal(member, scale**2 * np.eye(2)).pdf(points) for member in members],
        axis=0,
    )
    expected = np.log(
        (1 - epsilon) * np.exp(scipy_log_density(population, points)) + epsilon * copies
    )
    np.testing.assert_allclose(
        release_log_density(points, members, population, epsilon=epsilon, rho=rho),
        expected,
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        release_log_density(points, members, population, epsilon=0.0, rho=rho),
        population.log_density(points),
    )
    with pytest.raises(ValueError, match="rho must be > 0"):
        release_log_density(points, members, population, epsilon=0.3, rho=0.0)
