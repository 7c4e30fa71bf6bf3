"""compute.attacks.kde against scipy.stats.gaussian_kde, and its singular-covariance errors."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from threadpoolctl import threadpool_limits

from privacy_explorer.compute.attacks import SingularCovarianceError, fit_kde, kde_logpdf
from privacy_explorer.compute.attacks.kde import KDESample, bandwidth_factor, floored_log


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread() -> Iterator[None]:
    """Run BLAS on one thread: the references make thousands of tiny BLAS calls, which
    threads only slow down (twentyfold on a busy machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def correlated(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    return rng.normal(size=(rows, columns)) @ rng.normal(size=(columns, columns)) + 3.0


BANDWIDTHS = ["silverman", "scott", 0.4, lambda kde: 0.8 * kde.silverman_factor()]


@pytest.mark.parametrize("bw_method", BANDWIDTHS, ids=["silverman", "scott", "0.4", "callable"])
@pytest.mark.parametrize(("rows", "columns"), [(2, 1), (40, 1), (60, 3), (300, 8)])
def test_logpdf_equals_scipy(bw_method, rows: int, columns: int) -> None:
    rng = np.random.default_rng(rows + columns)
    records = correlated(rng, rows, columns)
    points = np.vstack([correlated(rng, 50, columns), records[:5], records[:5] + 40.0])
    scipy_kde = stats.gaussian_kde(records.T, bw_method=bw_method)
    ours = fit_kde(records, bw_method)
    assert ours.factor == pytest.approx(scipy_kde.factor, rel=1e-14)
    np.testing.assert_allclose(
        kde_logpdf(ours, points), scipy_kde.logpdf(points.T), rtol=1e-11, atol=1e-9
    )


def test_logpdf_stays_finite_where_scipy_evaluate_underflows() -> None:
    rng = np.random.default_rng(0)
    records = rng.normal(size=(100, 2))
    far = np.array([[60.0, -60.0]])
    assert stats.gaussian_kde(records.T).evaluate(far.T)[0] == 0.0
    log_density = kde_logpdf(fit_kde(records, "scott"), far)
    assert np.isfinite(log_density).all()
    assert log_density[0] == pytest.approx(stats.gaussian_kde(records.T).logpdf(far.T)[0])


def test_the_callable_sees_what_a_gaussian_kde_offers() -> None:
    rng = np.random.default_rng(1)
    records = rng.normal(size=(30, 2))
    scipy_kde = stats.gaussian_kde(records.T)
    sample = KDESample(records[:-1], records[-1])
    assert (sample.n, sample.d) == (scipy_kde.n, scipy_kde.d)
    assert sample.neff == pytest.approx(30.0)
    np.testing.assert_array_equal(sample.dataset, scipy_kde.dataset)
    np.testing.assert_allclose(sample.weights, scipy_kde.weights)
    assert sample.scotts_factor() == pytest.approx(scipy_kde.scotts_factor(), rel=1e-14)
    assert sample.silverman_factor() == pytest.approx(scipy_kde.silverman_factor(), rel=1e-14)
    assert bandwidth_factor(lambda kde: kde.dataset.shape[1] / 100, sample) == 0.3


def test_density_floor_adds_to_linear_densities() -> None:
    log_densities = np.log(np.array([1e-300, 1e-20, 0.5]))
    floored = floored_log(log_densities, 1e-20)
    np.testing.assert_allclose(floored, np.log(np.array([1e-20, 2e-20, 0.5 + 1e-20])), rtol=1e-14)
    assert floored_log(log_densities, None) is log_densities


@pytest.mark.parametrize("bw_method", ["silver", 0.0, -1.0, float("nan"), True, [0.3]], ids=repr)
def test_invalid_bandwidths_are_refused(bw_method) -> None:
    with pytest.raises(ValueError, match=r"bw_method|bandwidth factor"):
        fit_kde(np.random.default_rng(0).normal(size=(20, 2)), bw_method)


def test_a_constant_column_is_named() -> None:
    rng = np.random.default_rng(2)
    frame = pd.DataFrame(
        {"age": rng.normal(size=30), "country": 1.0, "income": rng.normal(size=30)}
    )
    with pytest.raises(SingularCovarianceError) as caught:
        fit_kde(frame, what="reference")
    message = str(caught.value)
    assert "constant column 'country' (always 1)" in message
    assert "drop the constant column" in message
    assert isinstance(caught.value, ValueError)


def test_more_columns_than_rows_suggests_reducing_dimensions() -> None:
    records = np.random.default_rng(3).normal(size=(5, 5))
    with pytest.raises(SingularCovarianceError, match=r"5 rows of 5 columns.*e\.g\. PCA"):
        fit_kde(records, what="reference")


def test_collinear_columns_are_named() -> None:
    rng = np.random.default_rng(4)
    records = rng.normal(size=(50, 4))
    records[:, 3] = 2.0 * records[:, 0] - records[:, 2]
    with pytest.raises(SingularCovarianceError) as caught:
        fit_kde(records, what="reference")
    message = str(caught.value)
    assert "columns column 0, column 2, column 3 are (nearly) linear combinations" in message
    assert "column 1" not in message
    assert "e.g. PCA" in message


def test_exact_collinearity_is_refused_where_scipy_returns_rounding_noise() -> None:
    records = np.random.default_rng(5).normal(size=(30, 3))
    records[:, 2] = records[:, 0] + records[:, 1]
    with pytest.raises(SingularCovarianceError):
        fit_kde(records)
    # SciPy's Cholesky succeeds on a pivot made of rounding errors: the "density" is a spike
    # on the plane (log densities above 10 for data of unit scale).
    assert (stats.gaussian_kde(records.T).logpdf(records.T) > 10).all()
