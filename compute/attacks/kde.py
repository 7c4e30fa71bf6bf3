"""A Gaussian kernel density estimate with the exact semantics of ``scipy.stats.gaussian_kde``.

For records ``x_1 … x_n`` in ``d`` dimensions, ``gaussian_kde(data.T, bw_method)``
(without weights) estimates ::

    p̂(y) = (1/n) Σ_j N(y; x_j, H),    H = f² Σ

where ``Σ`` is the unbiased sample covariance of the records (``np.cov``,
divisor ``n − 1``) and ``f`` the bandwidth *factor*:

* ``"scott"``: ``f = n^(−1/(d+4))``;
* ``"silverman"``: ``f = (n (d + 2) / 4)^(−1/(d+4))``;
* a positive number: ``f`` is that number, whatever ``n`` is;
* a callable: ``f = bw_method(kde)``, called with the fitted estimate.

(SciPy writes ``n_eff = 1 / Σ w_j²`` with weights ``w_j = 1/n`` where we
write ``n``; the two differ by rounding only.)

Here every point is first *whitened*: with the lower Cholesky factor ``L`` of
``Σ`` (``Σ = L Lᵀ``) and the records' mean ``μ``, ``z = L⁻¹ (y − μ)``. The
kernel exponent is then ``−|z_y − z_j|² / (2 f²)`` and ::

    log p̂(y) = logsumexp_j(−|z_y − z_j|² / (2 f²)) − log n − ½ log det(2π f² Σ)

The squared distances come from one matrix product per chunk of points
(``|a − b|² = |a|² + |b|² − 2 a·b``), and the sum from a log-sum-exp, so the
log density stays finite where ``gaussian_kde.evaluate`` underflows to 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import linalg

from .validation import FloatArray, SingularCovarianceError, as_records, column_names

BandwidthMethod = str | float | Callable[[Any], float]
"""What ``gaussian_kde`` accepts as ``bw_method`` (``None`` excepted)."""

# Chunks of kernel exponents hold about this many numbers (8 MB), small enough for the cache.
KERNEL_CHUNK_ELEMENTS = 1 << 20

# Columns whose correlation matrix has an eigenvalue ratio below this count as collinear.
_COLLINEAR_TOLERANCE = 1e-12


class KDESample:
    """The records a bandwidth callable is shown, shaped like a ``gaussian_kde``.

    A callable ``bw_method`` receives the fitted ``gaussian_kde`` in SciPy; it
    receives one of these here. It offers what such callables use: ``n``,
    ``d``, ``neff``, ``dataset`` (``d × n``, as in SciPy), ``weights``,
    ``scotts_factor()`` and ``silverman_factor()``. ``dataset`` is built only
    when read, so a callable that needs only ``n`` and ``d`` costs nothing.
    """

    def __init__(self, records: FloatArray, extra_record: FloatArray | None = None) -> None:
        self._records = records
        self._extra_record = extra_record
        self.n = records.shape[0] + (0 if extra_record is None else 1)
        self.d = records.shape[1]

    @property
    def neff(self) -> float:
        """The effective number of records (``n``: every record has the same weight)."""
        return float(self.n)

    @property
    def weights(self) -> FloatArray:
        """The weight of each record, ``1/n``."""
        return np.full(self.n, 1.0 / self.n)

    @property
    def dataset(self) -> FloatArray:
        """The records as columns (``d × n``), the layout of ``gaussian_kde.dataset``."""
        if self._extra_record is None:
            return self._records.T
        return np.vstack([self._records, self._extra_record]).T

    def scotts_factor(self) -> float:
        """Scott's factor ``n^(−1/(d+4))``."""
        return float(self.neff ** (-1.0 / (self.d + 4)))

    def silverman_factor(self) -> float:
        """Silverman's factor ``(n (d + 2) / 4)^(−1/(d+4))``."""
        return float((self.neff * (self.d + 2.0) / 4.0) ** (-1.0 / (self.d + 4)))


def validate_bandwidth(bw_method: BandwidthMethod) -> None:
    """Raise ``ValueError`` unless ``bw_method`` is a rule, a positive number or a callable."""
    if isinstance(bw_method, str):
        if bw_method not in ("scott", "silverman"):
            raise ValueError(
                f"bw_method must be 'scott', 'silverman', a positive number or a callable, "
                f"got {bw_method!r}"
            )
    elif isinstance(bw_method, bool) or not (callable(bw_method) or np.isscalar(bw_method)):
        raise ValueError(
            f"bw_method must be 'scott', 'silverman', a positive number or a callable, "
            f"got {bw_method!r}"
        )
    elif not callable(bw_method):
        _positive_factor(float(bw_method), "bw_method")


def _positive_factor(factor: float, source: str) -> float:
    if not (math.isfinite(factor) and factor > 0):
        raise ValueError(
            f"the bandwidth factor from {source} must be a positive number, got {factor}"
        )
    return factor


def bandwidth_factor(bw_method: BandwidthMethod, sample: KDESample) -> float:
    """The factor ``f`` that ``gaussian_kde`` would use for ``sample`` (see module docstring)."""
    if bw_method == "silverman":
        return sample.silverman_factor()
    if bw_method == "scott":
        return sample.scotts_factor()
    if callable(bw_method):
        return _positive_factor(float(bw_method(sample)), "the bw_method callable")
    return _positive_factor(float(bw_method), "bw_method")


def _singular_covariance_error(records: FloatArray, what: str, names: list[str]) -> str:
    """Why the covariance of ``records`` is singular, and what to do, in one sentence."""
    rows, columns = records.shape
    constant = np.flatnonzero(np.ptp(records, axis=0) == 0)
    if constant.size:
        listed = ", ".join(f"{names[i]} (always {records[0, i]:g})" for i in constant)
        return (
            f"{what}: cannot fit a Gaussian KDE because its covariance matrix is singular: "
            f"constant column {listed}; drop the constant column(s) first"
        )
    if rows <= columns:
        return (
            f"{what}: cannot fit a Gaussian KDE to {rows} rows of {columns} columns: the "
            f"covariance matrix of n rows has rank at most n − 1, so it needs more rows than "
            f"columns; reduce dimensions first, e.g. PCA, or use a larger sample"
        )
    correlation = np.corrcoef(records, rowvar=False)
    eigenvalues, eigenvectors = np.linalg.eigh(correlation)
    weights = np.abs(eigenvectors[:, 0])
    involved = np.flatnonzero(weights > 0.1 * weights.max())
    listed = ", ".join(names[i] for i in involved)
    return (
        f"{what}: cannot fit a Gaussian KDE because its covariance matrix is singular: "
        f"columns {listed} are (nearly) linear combinations of each other "
        f"(smallest correlation eigenvalue {max(eigenvalues[0], 0.0):.1e}); drop one of them "
        f"or reduce dimensions first, e.g. PCA"
    )


def covariance_cholesky(records: FloatArray, what: str, data: object = None) -> FloatArray:
    """Lower Cholesky factor of the unbiased covariance of ``records`` (rows = records).

    Raises
    ------
    SingularCovarianceError
        If the covariance is singular or so close to it that a KDE would be
        meaningless; the message names the cause (a constant column, too few
        rows, or collinear columns, named from ``data``'s columns if it has
        them) and the fix.
    """
    names = column_names(data, records.shape[1])
    if records.shape[0] <= records.shape[1] or np.any(np.ptp(records, axis=0) == 0):
        raise SingularCovarianceError(_singular_covariance_error(records, what, names))
    if records.shape[1] > 1:
        eigenvalues = np.linalg.eigvalsh(np.corrcoef(records, rowvar=False))
        if eigenvalues[0] < _COLLINEAR_TOLERANCE * eigenvalues[-1]:
            raise SingularCovarianceError(_singular_covariance_error(records, what, names))
    covariance = np.atleast_2d(np.cov(records, rowvar=False))
    try:
        return np.asarray(linalg.cholesky(covariance, lower=True), dtype=np.float64)
    except linalg.LinAlgError as error:
        raise SingularCovarianceError(_singular_covariance_error(records, what, names)) from error


@dataclass(frozen=True)
class GaussianKDE:
    """A fitted Gaussian KDE, equivalent to ``scipy.stats.gaussian_kde(records.T, bw_method)``."""

    records: FloatArray
    """The ``n × d`` records the kernels sit on."""
    mean: FloatArray
    """The records' mean, the origin of the whitened coordinates."""
    cholesky: FloatArray
    """Lower Cholesky factor ``L`` of the records' unbiased covariance ``Σ``."""
    factor: float
    """The bandwidth factor ``f``: the kernels' covariance is ``f² Σ``."""
    whitened: FloatArray
    """The records in whitened coordinates, ``L⁻¹ (x − mean)``, one per row."""

    @property
    def log_det_covariance(self) -> float:
        """``log det Σ`` of the data covariance (without the factor)."""
        return float(2.0 * np.log(np.diag(self.cholesky)).sum())

    def log_normalizer(self, factor: float | None = None) -> float:
        """``log n + ½ log det(2π f² Σ)``: what is subtracted from a kernel log-sum-exp."""
        f = self.factor if factor is None else factor
        n, d = self.records.shape
        return float(
            math.log(n)
            + 0.5 * (d * math.log(2 * math.pi) + 2 * d * math.log(f) + self.log_det_covariance)
        )

    def whiten(self, points: FloatArray) -> FloatArray:
        """``L⁻¹ (y − mean)`` for each row ``y`` of ``points``."""
        centred = points - self.mean
        return np.asarray(
            linalg.solve_triangular(self.cholesky, centred.T, lower=True).T, dtype=np.float64
        )


def fit_kde(
    records: npt.ArrayLike, bw_method: BandwidthMethod = "silverman", *, what: str = "data"
) -> GaussianKDE:
    """Fit a Gaussian KDE to ``records`` (rows = records), as ``gaussian_kde(records.T)`` does.

    Parameters
    ----------
    records
        The ``n × d`` sample, finite numbers, more rows than columns.
    bw_method
        ``"silverman"``, ``"scott"``, a positive number (the factor itself) or
        a callable receiving a :class:`KDESample` (see the module docstring).
    what
        How error messages name the sample.

    Raises
    ------
    SingularCovarianceError
        If the covariance of ``records`` is singular (see
        :func:`covariance_cholesky`).
    """
    validate_bandwidth(bw_method)
    array = as_records(records, what, min_rows=2)
    cholesky = covariance_cholesky(array, what, records)
    mean = array.mean(axis=0)
    factor = bandwidth_factor(bw_method, KDESample(array))
    whitened = linalg.solve_triangular(cholesky, (array - mean).T, lower=True).T
    return GaussianKDE(array, mean, cholesky, factor, np.asarray(whitened, dtype=np.float64))


EXPONENT_FLOOR = -700.0
"""Shifted exponents are raised to this before ``exp``: ``e^-700`` ≈ 1e-304 is still a normal
double, while ``exp`` of anything below about -708 (a subnormal or 0) runs ten to a hundred
times slower. After the shift the largest term is 1, so even a million floored terms change a
sum by less than 1e-298 of it."""


def logsumexp_rows(exponents: FloatArray) -> FloatArray:
    """``log Σ_j exp(e_ij)`` for each row ``i``, in place (``exponents`` is overwritten)."""
    largest = exponents.max(axis=-1)
    exponents -= largest[..., None]
    np.maximum(exponents, EXPONENT_FLOOR, out=exponents)
    np.exp(exponents, out=exponents)
    return np.asarray(np.log(exponents.sum(axis=-1)) + largest, dtype=np.float64)


def kernel_log_sums(
    whitened_points: FloatArray, whitened_centres: FloatArray, factor: float
) -> FloatArray:
    """``logsumexp_j(−|p − c_j|² / (2 f²))`` for each whitened point ``p``, in chunks."""
    centre_norms = np.einsum("ij,ij->i", whitened_centres, whitened_centres)
    point_norms = np.einsum("ij,ij->i", whitened_points, whitened_points)
    scale = 1.0 / (2.0 * factor**2)
    rows = max(1, KERNEL_CHUNK_ELEMENTS // whitened_centres.shape[0])
    sums = np.empty(whitened_points.shape[0])
    for start in range(0, whitened_points.shape[0], rows):
        chunk = slice(start, start + rows)
        # −|p − c|²/(2f²) = (2 p·c − |c|²)·s − |p|²·s; the last term is constant along a row.
        exponents = (2.0 * scale * whitened_points[chunk]) @ whitened_centres.T
        exponents -= scale * centre_norms
        sums[chunk] = logsumexp_rows(exponents) - scale * point_norms[chunk]
    return sums


def kde_logpdf(kde: GaussianKDE, points: npt.ArrayLike) -> FloatArray:
    """Log density of ``kde`` at each row of ``points``; equals ``gaussian_kde.logpdf(points.T)``.

    Parameters
    ----------
    kde
        A fitted estimate (:func:`fit_kde`).
    points
        An ``m × d`` table with the KDE's number of columns.

    Returns
    -------
    ndarray
        ``m`` log densities (finite even where the density underflows to 0).
    """
    array = as_records(points, "points")
    if array.shape[1] != kde.records.shape[1]:
        raise ValueError(
            f"points have {array.shape[1]} columns, the KDE's records {kde.records.shape[1]}"
        )
    return kernel_log_sums(kde.whiten(array), kde.whitened, kde.factor) - kde.log_normalizer()


def floored_log(log_density: FloatArray, density_floor: float | None) -> FloatArray:
    """``log p``, or ``log(p + floor)`` on the *linear* density ``p = exp(log p)`` with a floor.

    The Synth-MIA testbed adds ``1e-20`` to the densities that
    ``gaussian_kde.evaluate`` returns before taking logs; ``density_floor``
    reproduces that (a density below about 1e-36 then counts as the floor).
    """
    if density_floor is None:
        return log_density
    return np.asarray(np.log(np.exp(log_density) + density_floor), dtype=np.float64)


def validate_floor(density_floor: float | None) -> None:
    """Raise ``ValueError`` unless ``density_floor`` is ``None`` or a positive number."""
    if density_floor is not None and not (math.isfinite(density_floor) and density_floor > 0):
        raise ValueError(f"density_floor must be None or a positive number, got {density_floor!r}")
