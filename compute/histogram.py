"""Two samples counted on the same bins, the last bin open to the right.

Comparing two distributions by eye needs shared bins: :func:`common_histogram`
counts both samples on ``bins − 1`` bins of equal width and one overflow bin that
holds every larger value, so a long tail does not squeeze the rest into one bar.
:func:`histogram_upper` picks where the overflow bin starts: the smallest round
width (see :func:`nice_ceiling`) whose equal bins reach a given quantile.

>>> histogram = common_histogram([0.5, 1.5, 9.0], [2.5, 40.0], bins=4, upper=3.0)
>>> histogram.edges.tolist(), histogram.counts_a.tolist(), histogram.counts_b.tolist()
([0.0, 1.0, 2.0, 3.0], [1, 1, 0, 1], [0, 0, 1, 1])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "NICE_STEPS",
    "Histogram",
    "common_histogram",
    "counts_up_to_edges",
    "histogram_upper",
    "nice_ceiling",
]

FloatArray = npt.NDArray[np.float64]
CountArray = npt.NDArray[np.int64]

NICE_STEPS: tuple[float, ...] = (1.0, 2.0, 2.5, 5.0)
"""Round numbers, times a power of ten, that a bin width may take."""


@dataclass(frozen=True)
class Histogram:
    """Counts of two samples on shared bins; the last bin is open to the right."""

    edges: FloatArray
    """Lower edges of the bins: bin ``i`` is ``[edges[i], edges[i+1])``; the last is
    ``[edges[-1], ∞)``."""
    counts_a: CountArray
    """How many values of the first sample fall in each bin."""
    counts_b: CountArray
    """How many values of the second sample fall in each bin."""

    @property
    def upper(self) -> float:
        """Where the overflow bin starts: it holds every value ``≥ upper``."""
        return float(self.edges[-1])


def common_histogram(
    a: npt.ArrayLike, b: npt.ArrayLike, bins: int, upper: float, lower: float = 0.0
) -> Histogram:
    """Histogram two samples on the same bins, every value ≥ ``upper`` in the last one.

    Parameters
    ----------
    a, b
        The two samples (e.g. member and non-member losses); values below
        ``lower`` are refused.
    bins
        Number of bins, at least 2: ``bins − 1`` of equal width covering
        ``[lower, upper)`` and one more for ``[upper, ∞)``.
    upper
        Where the overflow bin starts, greater than ``lower``.
    lower
        Lower edge of the first bin.

    Returns
    -------
    Histogram
        Shared lower edges and one count per bin for each sample; the counts of
        each sample add up to its size.
    """
    if bins < 2:
        raise ValueError(f"bins must be at least 2 (equal bins and the overflow bin), got {bins}")
    if not (math.isfinite(upper) and math.isfinite(lower) and upper > lower):
        raise ValueError(f"upper must be a finite number above lower={lower}, got {upper!r}")
    edges = np.linspace(lower, upper, bins)
    counts = []
    for name, sample in (("a", a), ("b", b)):
        values = np.asarray(sample, dtype=float).ravel()
        if np.isnan(values).any() or (values < lower).any():
            raise ValueError(f"sample {name} has values below {lower} or NaN")
        # searchsorted(side="right") - 1 puts v in the bin whose lower edge is the last one <= v.
        index = np.minimum(np.searchsorted(edges, values, side="right") - 1, bins - 1)
        counts.append(np.bincount(index, minlength=bins).astype(np.int64))
    return Histogram(edges=edges, counts_a=counts[0], counts_b=counts[1])


def counts_up_to_edges(values: npt.ArrayLike, edges: Sequence[float]) -> CountArray:
    """Counts of ``values`` in the bins ``(edges[i], edges[i+1]]``, closed on the right.

    Closed on the right so that a rule "at most ``t``" with ``t`` on an edge
    takes whole bins: the counts of the bins up to that edge add up to the
    values ``≤ t``. Values at or below ``edges[0]`` count in the first bin and
    values above ``edges[-1]`` in the last, so every value is counted.

    >>> counts_up_to_edges([0.5, 1.0, 1.5, 3.0, 9.0], [1.0, 2.0, 3.0]).tolist()
    [3, 2]
    """
    bounds = np.asarray(edges, dtype=float)
    if bounds.ndim != 1 or bounds.size < 2 or not np.all(np.diff(bounds) > 0):
        raise ValueError("edges must be at least two increasing numbers")
    array = np.asarray(values, dtype=float).ravel()
    if np.isnan(array).any():
        raise ValueError("values must not be NaN")
    # searchsorted(side="left") - 1: a value equal to an edge joins the bin that ends there.
    index = np.clip(np.searchsorted(bounds, array, side="left") - 1, 0, bounds.size - 2)
    counts: CountArray = np.bincount(index, minlength=bounds.size - 1).astype(np.int64)
    return counts


def nice_ceiling(value: float, steps: Sequence[float] = NICE_STEPS) -> float:
    """The smallest number ``step · 10^k`` (``step`` from ``steps``) that is ≥ ``value`` > 0.

    >>> nice_ceiling(0.31), nice_ceiling(7.0), nice_ceiling(120.0)
    (0.5, 10.0, 200.0)
    """
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"value must be a finite number > 0, got {value!r}")
    exponent = math.floor(math.log10(value))
    for power in (exponent, exponent + 1):
        for step in steps:
            candidate = float(step * 10.0**power)
            if candidate >= value * (1 - 1e-12):
                return float(f"{candidate:.12g}")
    raise AssertionError("unreachable: 10^(k+1) >= value")


def histogram_upper(values: npt.ArrayLike, bins: int, quantile: float, lower: float = 0.0) -> float:
    """Start of the overflow bin: ``bins − 1`` bins of a nice width from ``lower`` reaching the
    ``quantile``.

    The width is the smallest :func:`nice_ceiling` that puts at least the
    ``quantile`` share of ``values`` inside the equal bins ``[lower, upper)``.
    For values that may be negative (attack scores), pass their minimum as
    ``lower``: the first bin then starts there and no value falls below it.

    >>> histogram_upper([-1.0, 0.0, 3.0], bins=5, quantile=1.0, lower=-1.0)
    3.0
    """
    if bins < 2:
        raise ValueError(f"bins must be at least 2, got {bins}")
    if not 0 < quantile <= 1:
        raise ValueError(f"quantile must be in (0, 1], got {quantile!r}")
    if not math.isfinite(lower):
        raise ValueError(f"lower must be a finite number, got {lower!r}")
    reach = float(np.quantile(np.asarray(values, dtype=float), quantile)) - lower
    width = nice_ceiling(max(reach, 1e-9) / (bins - 1))
    return float(f"{lower + width * (bins - 1):.12g}")
