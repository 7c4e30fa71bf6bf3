"""The rival attacks against direct computations with SciPy and scikit-learn; the registry."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist
from sklearn.ensemble import RandomForestClassifier
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from privacy_explorer.compute.attacks import (
    ATTACKS,
    classifier_scores,
    dcr_diff_scores,
    dcr_scores,
    density_scores,
    domias_scores,
    dpi_scores,
    logan_scores,
    monte_carlo_scores,
    rivals,
)


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread() -> Iterator[None]:
    """Run BLAS on one thread: the references make thousands of tiny BLAS calls, which
    threads only slow down (twentyfold on a busy machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@pytest.fixture
def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Targets, reference and synthetic tables of correlated columns."""
    rng = np.random.default_rng(0)
    mixing = np.array([[1.0, 0.3, 0.0], [0.0, 1.0, 0.5], [0.2, 0.0, 1.0]])
    targets, reference, synthetic = (rng.normal(size=(rows, 3)) @ mixing for rows in (41, 60, 50))
    return targets, reference, synthetic


def test_dcr_is_minus_the_closest_synthetic_distance(tables) -> None:
    targets, reference, synthetic = tables
    expected = -cdist(targets, synthetic).min(axis=1)
    np.testing.assert_allclose(dcr_scores(targets, reference, synthetic), expected, atol=1e-12)


def test_dcr_diff_subtracts_the_closest_synthetic_from_the_closest_reference_distance(
    tables,
) -> None:
    targets, reference, synthetic = tables
    expected = cdist(targets, reference).min(axis=1) - cdist(targets, synthetic).min(axis=1)
    np.testing.assert_allclose(dcr_diff_scores(targets, reference, synthetic), expected, atol=1e-12)


def test_domias_is_the_log_density_ratio(tables) -> None:
    targets, reference, synthetic = tables
    synthetic_kde = stats.gaussian_kde(synthetic.T, bw_method="silverman")
    reference_kde = stats.gaussian_kde(reference.T, bw_method="silverman")
    expected = synthetic_kde.logpdf(targets.T) - reference_kde.logpdf(targets.T)
    np.testing.assert_allclose(domias_scores(targets, reference, synthetic), expected, atol=1e-10)


def test_domias_with_a_floor_is_the_log_of_the_testbeds_ratio(tables) -> None:
    targets, reference, synthetic = tables
    ratio = stats.gaussian_kde(synthetic.T, "scott").evaluate(targets.T) / (
        stats.gaussian_kde(reference.T, "scott").evaluate(targets.T) + 0.01
    )
    scores = domias_scores(targets, reference, synthetic, bw_method="scott", density_floor=0.01)
    np.testing.assert_allclose(scores, np.log(ratio), atol=1e-10)


def test_density_is_the_synthetic_log_density(tables) -> None:
    targets, reference, synthetic = tables
    expected = stats.gaussian_kde(synthetic.T, bw_method=0.5).logpdf(targets.T)
    scores = density_scores(targets, reference, synthetic, bw_method=0.5)
    np.testing.assert_allclose(scores, expected, atol=1e-10)


def test_monte_carlo_counts_synthetic_records_inside_the_median_closest_distance(tables) -> None:
    targets, reference, synthetic = tables
    squared = cdist(targets, synthetic, "sqeuclidean")
    radius_squared = np.median(squared.min(axis=1))
    expected = (squared < radius_squared).sum(axis=1) / len(synthetic)
    np.testing.assert_allclose(monte_carlo_scores(targets, reference, synthetic), expected)
    assert 0 < expected.mean() < 1


def test_monte_carlo_with_a_given_radius(tables) -> None:
    targets, reference, synthetic = tables
    expected = (cdist(targets, synthetic) < 1.2).mean(axis=1)
    scores = monte_carlo_scores(targets, reference, synthetic, radius=1.2)
    np.testing.assert_allclose(scores, expected)


def all_pairs_monte_carlo(
    targets: np.ndarray, synthetic: np.ndarray, radius: float | None = None
) -> np.ndarray:
    """The Monte Carlo attack by comparing every pair (its implementation before the KD-tree)."""
    squared = np.sum((targets[:, None, :] - synthetic[None, :, :]) ** 2, axis=-1)
    threshold = float(np.median(squared.min(axis=1))) if radius is None else radius**2
    return np.asarray((squared < threshold).mean(axis=1))


def monte_carlo_cases() -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(4)
    for columns in (1, 3, 8, 10, 13, 17):  # below and above numpy's 8-wide summation blocks
        yield (
            f"gaussian-{columns}",
            rng.normal(size=(300, columns)),
            rng.normal(size=(250, columns)),
        )
    # Integer grids: squared distances are whole numbers, so many equal the threshold exactly.
    grid = rng.integers(0, 10, size=(400, 3)).astype(float)
    yield "integer-grid", grid[:200], grid[200:]
    # Copies: many targets at distance 0, and duplicated synthetic records.
    synthetic = np.repeat(rng.normal(size=(60, 4)), 3, axis=0)
    yield "copies", np.vstack([synthetic[:100], rng.normal(size=(100, 4))]), synthetic


@pytest.mark.parametrize("through_every_pair", [False, True])
@pytest.mark.parametrize(
    ("name", "targets", "synthetic"), list(monte_carlo_cases()), ids=lambda v: str(v)[:14]
)
def test_monte_carlo_through_the_tree_is_the_all_pairs_comparison_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    targets: np.ndarray,
    synthetic: np.ndarray,
    through_every_pair: bool,
) -> None:
    if through_every_pair:  # more candidate pairs than the budget: every pair, in chunks
        monkeypatch.setattr(rivals, "_CANDIDATE_PAIRS", 0)
    reference = synthetic[:10]
    for radius in (None, 0.7, 2.0):
        expected = all_pairs_monte_carlo(targets, synthetic, radius)
        found = monte_carlo_scores(targets, reference, synthetic, radius=radius)
        assert np.array_equal(found, expected), (name, radius)
        if radius is None:  # the median radius: some targets have records inside, some none
            assert 0 < np.mean(expected > 0) < 1, name


def test_dpi_is_the_share_of_synthetic_neighbours(tables) -> None:
    targets, reference, synthetic = tables
    pooled = np.vstack([reference, synthetic])
    _, neighbours = NearestNeighbors(n_neighbors=7).fit(pooled).kneighbors(targets)
    expected = (neighbours >= len(reference)).mean(axis=1)
    np.testing.assert_allclose(dpi_scores(targets, reference, synthetic, k=7), expected)


def test_dpi_ranks_targets_as_the_testbeds_sigmoid_of_counts(tables) -> None:
    targets, reference, synthetic = tables
    shares = dpi_scores(targets, reference, synthetic)
    synthetic_counts = np.round(shares * 20)
    testbed = 1 / (1 + np.exp(-synthetic_counts / (20 - synthetic_counts + 1e-20)))
    assert np.array_equal(np.argsort(shares, kind="stable"), np.argsort(testbed, kind="stable"))
    assert np.array_equal(
        np.unique(shares, return_inverse=True)[1], np.unique(testbed, return_inverse=True)[1]
    )


def test_classifier_is_a_seeded_random_forest(tables) -> None:
    targets, reference, synthetic = tables
    forest = RandomForestClassifier(random_state=3).fit(
        np.vstack([reference, synthetic]), np.r_[np.zeros(60), np.ones(50)]
    )
    expected = forest.predict_proba(targets)[:, 1]
    scores = classifier_scores(targets, reference, synthetic, random_state=3)
    np.testing.assert_array_equal(scores, expected)


def test_logan_is_deterministic_for_a_seed_and_returns_probabilities(tables) -> None:
    targets, reference, synthetic = tables
    first = logan_scores(targets, reference, synthetic, random_state=1, max_iter=20)
    again = logan_scores(targets, reference, synthetic, random_state=1, max_iter=20)
    np.testing.assert_array_equal(first, again)
    assert first.shape == (41,)
    assert ((first >= 0) & (first <= 1)).all()


def test_logan_separates_a_copied_cluster() -> None:
    rng = np.random.default_rng(4)
    reference = rng.normal(size=(200, 2))
    members = rng.normal(size=(20, 2))
    synthetic = np.repeat(members, 10, axis=0) + 0.01 * rng.normal(size=(200, 2))
    targets = np.vstack([members, rng.normal(size=(20, 2))])
    scores = logan_scores(
        targets, reference, synthetic, random_state=0, hidden_units=32, max_iter=60
    )
    assert scores[:20].mean() > scores[20:].mean()


def test_the_registry_names_every_attack_in_order() -> None:
    assert list(ATTACKS) == [
        "gen_lra",
        "dcr",
        "dcr_diff",
        "domias",
        "density",
        "mc",
        "dpi",
        "classifier",
        "logan",
    ]
    for key, spec in ATTACKS.items():
        assert spec.key == key
        assert spec.name and spec.name_ko and spec.reference
        assert any("\uac00" <= character <= "\ud7a3" for character in spec.name_ko)
        parameters = list(inspect.signature(spec.function).parameters)
        assert parameters[:3] == ["targets", "reference", "synthetic"]


@pytest.mark.parametrize("key", list(ATTACKS))
def test_every_attack_scores_each_target_once(key: str, tables) -> None:
    targets, reference, synthetic = tables
    options = {"max_iter": 5} if key == "logan" else {}
    scores = ATTACKS[key](targets, reference, synthetic, **options)
    assert scores.shape == (41,)
    assert scores.dtype == np.float64
    assert np.isfinite(scores).all()


@pytest.mark.parametrize("key", list(ATTACKS))
def test_every_attack_refuses_tables_of_different_widths(key: str, tables) -> None:
    targets, reference, synthetic = tables
    with pytest.raises(ValueError, match="all tables must have the same columns"):
        ATTACKS[key](targets[:, :2], reference, synthetic)


def test_invalid_rival_options_raise_clear_errors(tables) -> None:
    targets, reference, synthetic = tables
    with pytest.raises(ValueError, match="k must be between 1 and the 110 pooled rows"):
        dpi_scores(targets, reference, synthetic, k=111)
    with pytest.raises(ValueError, match="radius must be a positive number"):
        monte_carlo_scores(targets, reference, synthetic, radius=0.0)
    with pytest.raises(ValueError, match="density_floor"):
        domias_scores(targets, reference, synthetic, density_floor=0.0)
