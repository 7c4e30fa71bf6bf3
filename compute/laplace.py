"""The Laplace mechanism: its distribution, seeded noise, neighbouring datasets and two queries.

The mechanism releases ``q(D) + Z`` with ``Z ~ Lap(0, b)`` and ``b = Δ / ε``,
where ``Δ`` is the query's global sensitivity: the most that adding or removing
one record can move its answer. For every answer ``x`` the log ratio of the
release densities on neighbouring datasets ``D`` and ``D′`` is then at most
``ε`` in absolute value (:func:`log_density_ratio`).

Noise is drawn by the inverse CDF from uniforms (:func:`laplace_noise`), so
that seeded uniforms (:func:`seeded_uniforms`) give the same draws for every
scale: changing ``ε`` rescales the noise rather than redrawing it.

Two queries come with their sensitivities: :func:`count_query` (Δ = 1 record)
and :func:`bounded_mean_query`, a mean with a public denominator (Δ =
``upper / slots``, see :func:`bounded_mean_sensitivity`). The clip that bounds
the mean costs bias (:func:`clip_bias`), its bound costs noise; the release's
root mean squared error adds both (:func:`release_rmse`).

Many sampled releases can be checked against the exact distribution: a
histogram drawn as a density (:func:`density_histogram`) and the probability of
landing within a few scales of the true answer (:func:`within_scales_probability`).

>>> float(laplace_density(0.0, loc=0.0, scale=2.0))  # 1 / (2b) at the centre
0.25
>>> noise = laplace_noise([0.25, 0.75], scale=2.0)  # the quartiles: ∓ b·ln 2
>>> [round(float(z), 4) for z in noise]
[-1.3863, 1.3863]

The sampling uses floating point and public seeds: it illustrates the
mechanism and protects no real data.
"""

from __future__ import annotations

import math
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "COUNT_SENSITIVITY",
    "DensityHistogram",
    "answer_grid",
    "bounded_mean_query",
    "bounded_mean_sensitivity",
    "clip_bias",
    "count_query",
    "density_histogram",
    "laplace_cdf",
    "laplace_density",
    "laplace_noise",
    "log_density_ratio",
    "mean_absolute_error",
    "nonzero_uniforms",
    "release_rmse",
    "seeded_uniforms",
    "strongest_record",
    "within_scales_probability",
    "without_record",
]

FloatArray = npt.NDArray[np.float64]

COUNT_SENSITIVITY = 1.0
"""Adding or removing one record moves a count by at most one."""


# --- The Laplace distribution -------------------------------------------------------


def _check_scale(scale: float) -> None:
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"the Laplace scale must be a finite number > 0, got {scale!r}")


@overload
def laplace_density(x: float, loc: float, scale: float) -> float: ...
@overload
def laplace_density(x: npt.ArrayLike, loc: float, scale: float) -> FloatArray: ...
def laplace_density(x: npt.ArrayLike, loc: float, scale: float) -> FloatArray | float:
    """Probability density of ``Lap(loc, scale)`` at ``x``.

    Parameters
    ----------
    x
        One answer or an array of answers.
    loc
        Centre of the distribution (the true answer).
    scale
        Scale ``b > 0``; the density at ``loc`` is ``1 / (2b)``.

    Returns
    -------
    float or numpy.ndarray
        ``exp(-|x - loc| / b) / (2b)``, shaped like ``x``.
    """
    _check_scale(scale)
    distance = np.abs(np.asarray(x, dtype=float) - loc)
    density: FloatArray = np.exp(-distance / scale) / (2.0 * scale)
    return density


@overload
def laplace_cdf(x: float, loc: float, scale: float) -> float: ...
@overload
def laplace_cdf(x: npt.ArrayLike, loc: float, scale: float) -> FloatArray: ...
def laplace_cdf(x: npt.ArrayLike, loc: float, scale: float) -> FloatArray | float:
    """Cumulative distribution function of ``Lap(loc, scale)`` at ``x``.

    Parameters
    ----------
    x
        One answer or an array of answers.
    loc
        Centre of the distribution.
    scale
        Scale ``b > 0``.

    Returns
    -------
    float or numpy.ndarray
        ``exp((x - loc) / b) / 2`` below ``loc`` and ``1 - exp(-(x - loc) / b) / 2``
        from ``loc`` on, shaped like ``x``.
    """
    _check_scale(scale)
    z = (np.asarray(x, dtype=float) - loc) / scale
    half_tail = 0.5 * np.exp(-np.abs(z))
    cdf: FloatArray = np.where(z < 0, half_tail, 1.0 - half_tail)
    return cdf


def laplace_noise(uniforms: npt.ArrayLike, scale: float) -> FloatArray:
    """Turn uniforms in (0, 1) into ``Lap(0, scale)`` noise by the inverse CDF.

    The inverse CDF is ``-b·sgn(u − ½)·ln(1 − 2|u − ½|)``. It is evaluated as
    ``b·ln(2u)`` below ½ and ``−b·ln(2(1 − u))`` from ½ on, which is the same
    function without the cancellation in ``1 − 2|u − ½|`` near 0 and 1.

    Parameters
    ----------
    uniforms
        Values strictly between 0 and 1; at 0 or 1 the noise would be infinite.
    scale
        Scale ``b > 0``.

    Returns
    -------
    numpy.ndarray
        One noise value per uniform, in the same shape. The same uniforms with
        another scale give the same noise multiplied by the ratio of the scales.

    Raises
    ------
    ValueError
        If a uniform is not strictly between 0 and 1 (the message names the
        first such value and its position), or the scale is not a number > 0.
    """
    _check_scale(scale)
    u = np.asarray(uniforms, dtype=float)
    outside = ~((u > 0.0) & (u < 1.0))  # also catches NaN
    if outside.any():
        position = int(np.flatnonzero(outside)[0])
        raise ValueError(
            f"uniforms must lie strictly between 0 and 1, got {float(u.flat[position])!r} "
            f"at position {position}"
        )
    lower = u < 0.5
    tail = np.where(lower, 2.0 * u, 2.0 * (1.0 - u))  # in (0, 1]
    noise: FloatArray = scale * np.where(lower, np.log(tail), -np.log(tail))
    return noise


def nonzero_uniforms(rng: np.random.Generator, size: int) -> FloatArray:
    """The first ``size`` values of ``rng.random()`` that are not 0.

    ``Generator.random`` draws from [0, 1), and 0 would make Laplace noise
    infinite. A 0 is skipped and the next draw takes its place (rejection
    sampling), which leaves the values exactly uniform on (0, 1). Because
    skipped draws are only replaced from later in the stream, the result for
    ``size`` is always a prefix of the result for a larger size.

    Parameters
    ----------
    rng
        The generator to draw from (anything with a ``random(n)`` method).
    size
        How many uniforms to return, at least 0.

    Returns
    -------
    numpy.ndarray
        ``size`` floats in (0, 1).
    """
    if size < 0:
        raise ValueError(f"size must be a whole number >= 0, got {size!r}")
    kept: FloatArray = np.empty(0, dtype=float)
    while kept.size < size:
        drawn = np.asarray(rng.random(size - kept.size), dtype=float)
        kept = np.concatenate([kept, drawn[drawn > 0.0]])
    return kept


def seeded_uniforms(seed: int, size: int) -> FloatArray:
    """``size`` uniforms in (0, 1) from ``numpy.random.default_rng(seed)``.

    A drawn 0 is skipped, see :func:`nonzero_uniforms`.
    """
    return nonzero_uniforms(np.random.default_rng(seed), size)


@overload
def log_density_ratio(x: float, loc_d: float, loc_d_prime: float, scale: float) -> float: ...
@overload
def log_density_ratio(
    x: npt.ArrayLike, loc_d: float, loc_d_prime: float, scale: float
) -> FloatArray: ...
def log_density_ratio(
    x: npt.ArrayLike, loc_d: float, loc_d_prime: float, scale: float
) -> FloatArray | float:
    """``ln(p_D(x) / p_D′(x))`` for ``Lap(loc_d, scale)`` against ``Lap(loc_d_prime, scale)``.

    Computed in closed form, ``(|x − loc_d_prime| − |x − loc_d|) / scale``, so it
    stays exact where both densities underflow to 0. The ratio is constant
    outside the two centres, so ``x`` is first clipped to the interval between
    them; far from the centres that avoids subtracting two large, nearly equal
    distances. By the triangle inequality the absolute value never exceeds
    ``|loc_d − loc_d_prime| / scale``.
    """
    _check_scale(scale)
    nearest = np.clip(np.asarray(x, dtype=float), min(loc_d, loc_d_prime), max(loc_d, loc_d_prime))
    ratio: FloatArray = (np.abs(nearest - loc_d_prime) - np.abs(nearest - loc_d)) / scale
    return ratio


def answer_grid(
    loc_d: float,
    loc_d_prime: float,
    scale: float,
    points: int = 300,
    tail_scales: float = 6.0,
) -> FloatArray:
    """Evenly spaced answers on which to draw the densities around two true answers.

    The grid reaches ``tail_scales`` scales beyond the smaller and the larger
    true answer (the density there is ``e^−tail_scales`` of its peak). Its step
    divides the gap between the two true answers, so both peaks are grid points;
    that makes the spacing differ slightly from the target and the number of
    points lie near ``points``.

    Returns
    -------
    numpy.ndarray
        Increasing answers; the smaller true answer is one of them.
    """
    _check_scale(scale)
    if points < 2:
        raise ValueError(f"points must be at least 2, got {points!r}")
    if not (math.isfinite(tail_scales) and tail_scales > 0):
        raise ValueError(f"tail_scales must be a finite number > 0, got {tail_scales!r}")
    low, high = min(loc_d, loc_d_prime), max(loc_d, loc_d_prime)
    gap = high - low
    margin = tail_scales * scale
    step = (gap + 2.0 * margin) / (points - 1)
    steps_between = round(gap / step) if gap > 0 else 0
    if steps_between > 0:
        step = gap / steps_between
    steps_outside = math.ceil(margin / step)
    offsets = np.arange(-steps_outside, steps_between + steps_outside + 1, dtype=float)
    grid: FloatArray = low + step * offsets
    return grid


def within_scales_probability(multiple: float) -> float:
    """The probability that ``Lap(loc, b)`` lands within ``multiple`` scales of ``loc``.

    ``P(|Z| ≤ t·b) = 1 − e^{−t}``, the same for every scale ``b``: within one
    scale of the true answer ``1 − 1/e`` ≈ 63.2 % of releases land.

    >>> round(within_scales_probability(1.0), 6)
    0.632121
    """
    if not (math.isfinite(multiple) and multiple >= 0):
        raise ValueError(f"multiple must be a finite number >= 0, got {multiple!r}")
    return -math.expm1(-multiple)


class DensityHistogram(NamedTuple):
    """Sampled values counted in bins of equal width and scaled to a density."""

    edges: FloatArray
    """The bin edges, increasing; one more than the bins."""
    counts: npt.NDArray[np.int64]
    """How many values fall in each bin (the last bin includes its right edge)."""
    densities: FloatArray
    """``counts / (number of values · bin width)``: the bars integrate to 1."""


def density_histogram(values: npt.ArrayLike, centre: float, width: float) -> DensityHistogram:
    """A histogram of ``values`` as a density, with bins of ``width`` and an edge at ``centre``.

    The bins reach from the smallest to the largest value, so every value is
    counted and the bars integrate to exactly 1. Putting an edge at ``centre``
    (the true answer) keeps the Laplace density's peak on a bin edge, so the
    bins on either side of it are mirror images.

    Parameters
    ----------
    values
        The sampled values, at least one, all finite.
    centre
        A value every bin edge is a whole number of widths away from.
    width
        The bin width, > 0.
    """
    if not (math.isfinite(width) and width > 0):
        raise ValueError(f"width must be a finite number > 0, got {width!r}")
    records = np.asarray(values, dtype=float).ravel()
    if records.size == 0 or not np.isfinite(records).all():
        raise ValueError("values must be at least one finite number")
    # Every value is placed by the same arithmetic that places the edges, so none is lost
    # to rounding at the ends: the bin of v is floor((v − centre) / width).
    position = np.floor((records - centre) / width)
    first, last = int(position.min()), int(position.max())
    edges: FloatArray = centre + width * np.arange(first, last + 2, dtype=float)
    counts = np.bincount((position - first).astype(np.int64), minlength=last - first + 1)
    densities: FloatArray = counts / (records.size * width)
    return DensityHistogram(edges, counts.astype(np.int64), densities)


# --- Datasets, neighbours and queries ---------------------------------------------------


def _records(values: npt.ArrayLike) -> FloatArray:
    """``values`` as a flat array of finite floats: one number per record."""
    records = np.asarray(values, dtype=float).ravel()
    if not np.isfinite(records).all():
        raise ValueError("every record must be a finite number")
    return records


def strongest_record(values: npt.ArrayLike) -> int:
    """Position of the largest value (the first one if several tie).

    Of all single removals, removing it moves the bounded mean the most, and it
    moves a count whenever any record reaches the count's threshold.
    """
    records = _records(values)
    if records.size == 0:
        raise ValueError("there are no records")
    return int(np.argmax(records))


def without_record(values: npt.ArrayLike, position: int) -> FloatArray:
    """The neighbouring dataset: ``values`` with the record at ``position`` removed."""
    records = _records(values)
    if not 0 <= position < records.size:
        raise ValueError(f"position {position} is outside 0…{records.size - 1}")
    return np.delete(records, position)


def count_query(values: npt.ArrayLike, threshold: float) -> int:
    """Number of records at or above ``threshold``; its sensitivity is :data:`COUNT_SENSITIVITY`."""
    return int(np.count_nonzero(_records(values) >= threshold))


def _check_bounds(slots: int, upper: float) -> None:
    if slots < 1:
        raise ValueError(f"slots must be a whole number >= 1, got {slots!r}")
    if not (math.isfinite(upper) and upper > 0):
        raise ValueError(f"upper must be a finite number > 0, got {upper!r}")


def bounded_mean_query(values: npt.ArrayLike, slots: int, upper: float) -> float:
    """Sum of the values clipped to [0, ``upper``], divided by the public number of ``slots``.

    A slot without a record counts as 0, so a dataset with fewer records than
    slots is still divided by ``slots``: the denominator reveals nothing.

    Raises
    ------
    ValueError
        If there are more records than slots.
    """
    _check_bounds(slots, upper)
    clipped = np.clip(_records(values), 0.0, upper)
    if clipped.size > slots:
        raise ValueError(f"{clipped.size} records do not fit in {slots} slots")
    return float(clipped.sum() / slots)


def bounded_mean_sensitivity(slots: int, upper: float) -> float:
    """Global sensitivity of :func:`bounded_mean_query` under add/remove-one neighbours.

    One record turns one slot from 0 into a clipped value or back, so the mean
    moves by at most ``upper / slots``.
    """
    _check_bounds(slots, upper)
    return upper / slots


def clip_bias(values: npt.ArrayLike, upper: float) -> float:
    """How far clipping to [0, ``upper``] moves the mean of ``values``: clipped mean − mean.

    Never positive for values ≥ 0, and exactly 0 when no value exceeds ``upper``.
    The bounded mean with as many slots as records is the clipped mean, so this
    is also its bias against the plain mean of the data.
    """
    _check_bounds(1, upper)
    records = _records(values)
    if records.size == 0:
        raise ValueError("there are no records")
    # Summing the changes (0 for every unclipped value) keeps "no clip" at exactly 0.
    return float(np.sum(np.clip(records, 0.0, upper) - records) / records.size)


def release_rmse(bias: float, scale: float) -> float:
    """Root mean squared error of ``answer + bias + Lap(0, scale)`` against ``answer``.

    The Laplace noise has mean 0 and variance ``2·scale²``, so the squared
    error splits into ``bias² + 2·scale²``.
    """
    _check_scale(scale)
    if not math.isfinite(bias):
        raise ValueError(f"bias must be a finite number, got {bias!r}")
    return math.sqrt(bias * bias + 2.0 * scale * scale)


def mean_absolute_error(noisy: npt.ArrayLike, true_answer: float) -> float:
    """Mean of ``|noisy − true_answer|``; its expectation under Laplace noise is the scale."""
    return float(np.mean(np.abs(np.asarray(noisy, dtype=float) - true_answer)))
