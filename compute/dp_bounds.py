"""What ε-differential privacy promises an attacker: bounds on beliefs and on membership tests.

An ε-DP mechanism ``M`` makes every output at most ``e^ε`` times more likely on
one of two neighbouring datasets ``D`` and ``D′`` than on the other. Two
consequences follow for anyone who sees an output and wants to tell ``D`` from
``D′`` (say, whether one person's record is in the data):

Beliefs (Bayes)
    With a prior probability ``p`` that the data are ``D``, the posterior after
    seeing one output is ``p·L / (p·L + 1 − p)``, where ``L`` is the likelihood
    ratio of the output (:func:`bayes_posterior`). As ``e^−ε ≤ L ≤ e^ε``, the
    posterior odds are the prior odds times at most ``e^ε``
    (:func:`posterior_bounds`). ``k`` independent outputs multiply their
    ratios, so they are bounded by ``e^{kε}``: pass ``k·ε``.
Tests (ROC)
    A membership test that says "``D``" with false-positive rate ``α`` (it says
    "``D``" on ``D′`` with probability ``α``) has a true-positive rate of at
    most ``e^ε·α``, and by the same bound applied to its "``D′``" answers,
    ``1 − α ≤ e^ε·(1 − TPR)``. :func:`tpr_bound` is the smaller of the two,
    the region of Kairouz, Oh and Viswanath (2015) with δ = 0.
Which neighbours (group privacy)
    The two datasets must be neighbours under the relation the guarantee was
    stated for. Under add/remove neighbours (one record more or fewer), two
    datasets of the same size that differ by swapping one record for another
    are two steps apart, and a mechanism that is ε-DP for one step is
    ``k·ε``-DP for ``k`` steps (:func:`group_epsilon`; Dwork & Roth 2014,
    Theorem 2.2). A membership test against a fixed-size training set compares
    such swapped worlds, so add/remove ε-DP bounds it by ``e^{2ε}``.
The optimal test (Laplace)
    Between ``Lap(μ, b)`` and ``Lap(μ + s, b)`` the likelihood ratio grows with
    the output, so the best tests are thresholds on it (Neyman–Pearson) and
    their ROC is :func:`laplace_optimal_tpr`: the trade-off curve of Dong, Roth
    and Su (2022). With ``s/b = ε`` it runs along ``TPR = e^ε·FPR`` near the
    origin and along its mirror near (1, 1): the Laplace mechanism is as
    distinguishable as ε-DP allows, and no more.

>>> round(posterior_bounds(0.5, math.log(3.0))[1], 6)  # odds 1:1 at most tripled
0.75
>>> round(float(tpr_bound(0.1, math.log(2.0))), 6)  # twice the FPR, below the symmetric bound
0.2
"""

from __future__ import annotations

import math
from typing import overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "REPLACEMENT_STEPS",
    "bayes_posterior",
    "group_epsilon",
    "laplace_optimal_tpr",
    "laplace_roc_breaks",
    "posterior_bounds",
    "tpr_bound",
]

REPLACEMENT_STEPS = 2
"""Add/remove steps between two datasets that differ by replacing one record: remove, then add."""

FloatArray = npt.NDArray[np.float64]


def _check_prior(prior: float) -> None:
    if not (math.isfinite(prior) and 0.0 < prior < 1.0):
        raise ValueError(f"prior must be a probability strictly between 0 and 1, got {prior!r}")


def _check_epsilon(epsilon: float) -> None:
    if not (math.isfinite(epsilon) and epsilon >= 0.0):
        raise ValueError(f"epsilon must be a finite number ≥ 0, got {epsilon!r}")


def group_epsilon(epsilon: float, steps: int) -> float:
    """The ε that an ε-DP mechanism guarantees between datasets ``steps`` neighbours apart.

    Chaining the definition along a path of ``steps`` neighbours multiplies
    the ratios, so the bound is ``steps·ε`` (group privacy). It can be
    attained: a Laplace histogram of two bins, with add/remove sensitivity 1,
    moves its answer by 2 in L1 when one record changes bins (tested).

    >>> group_epsilon(0.5, REPLACEMENT_STEPS)
    1.0
    """
    _check_epsilon(epsilon)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps must be a whole number ≥ 0, got {steps!r}")
    return steps * epsilon


def bayes_posterior(prior: float, log_likelihood_ratio: float) -> float:
    """The probability of ``D`` after an output whose likelihood ratio ``p_D / p_D′`` is
    ``exp(log_likelihood_ratio)``, from a prior probability ``prior`` of ``D``.

    Only ``exp`` of a non-positive number is ever taken, so that no ratio
    overflows, and a ratio of 1 returns the prior unchanged.

    >>> round(bayes_posterior(0.5, 0.0), 6), round(bayes_posterior(0.2, math.log(4.0)), 6)
    (0.5, 0.5)
    """
    _check_prior(prior)
    if not math.isfinite(log_likelihood_ratio):
        raise ValueError(f"log_likelihood_ratio must be finite, got {log_likelihood_ratio!r}")
    if log_likelihood_ratio >= 0:
        return prior / (prior + (1.0 - prior) * math.exp(-log_likelihood_ratio))
    weighted = prior * math.exp(log_likelihood_ratio)
    return weighted / (weighted + 1.0 - prior)


def posterior_bounds(prior: float, epsilon: float) -> tuple[float, float]:
    """The smallest and the largest posterior of ``D`` that one output of an ε-DP
    mechanism can lead to, from a prior probability ``prior`` of ``D``.

    Parameters
    ----------
    prior
        The attacker's belief, before the output, that the data are ``D``
        (strictly between 0 and 1).
    epsilon
        The mechanism's ε (≥ 0). For ``k`` independent outputs at ε each,
        pass ``k·ε`` (basic composition).

    Returns
    -------
    (float, float)
        ``(low, high)``: the posteriors at the likelihood ratios ``e^−ε`` and
        ``e^ε``. No output of any ε-DP mechanism moves the belief outside them;
        a mechanism whose ratio reaches ``e^ε`` (the Laplace count) attains ``high``.
    """
    _check_epsilon(epsilon)
    return bayes_posterior(prior, -epsilon), bayes_posterior(prior, epsilon)


@overload
def tpr_bound(fpr: float, epsilon: float) -> float: ...
@overload
def tpr_bound(fpr: npt.ArrayLike, epsilon: float) -> FloatArray: ...
def tpr_bound(fpr: npt.ArrayLike, epsilon: float) -> FloatArray | float:
    """The largest true-positive rate any membership test can reach at false-positive
    rate ``fpr`` against an ε-DP mechanism.

    ``min(e^ε·fpr, 1 − e^−ε·(1 − fpr))``: the first term bounds the test's
    "member" answers, the second its "non-member" answers (``1 − fpr ≤
    e^ε·(1 − tpr)``). The two meet at ``fpr = 1 / (1 + e^ε)``.

    Parameters
    ----------
    fpr
        One false-positive rate or an array of them, each in [0, 1].
    epsilon
        The mechanism's ε (≥ 0).

    Returns
    -------
    float or numpy.ndarray
        The bound at each ``fpr``, in [0, 1]; a float for a scalar ``fpr``.
    """
    _check_epsilon(epsilon)
    rates = np.asarray(fpr, dtype=float)
    if not np.all((rates >= 0.0) & (rates <= 1.0)):
        raise ValueError("fpr must lie in [0, 1]")
    growth = math.exp(epsilon)
    bound: FloatArray = np.minimum(growth * rates, 1.0 - (1.0 - rates) / growth)
    bound = np.clip(bound, 0.0, 1.0)
    if bound.ndim == 0:
        return float(bound)
    return bound


def _check_shift(shift: float, scale: float) -> None:
    if not (math.isfinite(shift) and shift >= 0.0):
        raise ValueError(f"shift must be a finite number ≥ 0, got {shift!r}")
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError(f"scale must be a finite number > 0, got {scale!r}")


@overload
def laplace_optimal_tpr(fpr: float, shift: float, scale: float) -> float: ...
@overload
def laplace_optimal_tpr(fpr: npt.ArrayLike, shift: float, scale: float) -> FloatArray: ...
def laplace_optimal_tpr(fpr: npt.ArrayLike, shift: float, scale: float) -> FloatArray | float:
    """The true-positive rate of the most powerful test of ``Lap(μ, b)`` against
    ``Lap(μ + s, b)`` at false-positive rate ``fpr``: the exact ROC of the likelihood-ratio test.

    The test says "``μ + s``" when the output exceeds a threshold ``c``; with
    ``t = s/b`` and ``α = fpr`` its power is, piece by piece,

    - ``e^t·α`` for ``α ≤ e^−t/2`` (threshold above ``μ + s``, where the ratio is ``e^t``),
    - ``1 − e^−t/(4α)`` for ``e^−t/2 ≤ α ≤ 1/2`` (threshold between the two centres),
    - ``1 − e^−t·(1 − α)`` for ``α ≥ 1/2`` (threshold below ``μ``, the ratio ``e^−t``).

    The output has no atoms, so thresholds reach every ``α`` and no
    randomised test does better (Neyman–Pearson lemma). With ``t = ε`` the
    first and last pieces are the two lines of :func:`tpr_bound`.

    Parameters
    ----------
    fpr
        One false-positive rate or an array of them, each in [0, 1].
    shift
        The distance ``s ≥ 0`` between the two centres (``|q(D) − q(D′)|``).
    scale
        The Laplace scale ``b > 0``.

    Returns
    -------
    float or numpy.ndarray
        The power at each ``fpr``; a float for a scalar ``fpr``.

    >>> round(laplace_optimal_tpr(0.5, math.log(4.0), 1.0), 6)  # 1 − (1/4)/(4·0.5)
    0.875
    """
    _check_shift(shift, scale)
    rates = np.asarray(fpr, dtype=float)
    if not np.all((rates >= 0.0) & (rates <= 1.0)):
        raise ValueError("fpr must lie in [0, 1]")
    ratio = shift / scale
    shrink = math.exp(-ratio)
    low = rates <= shrink / 2.0
    high = rates >= 0.5
    # Guard the middle piece's division: it is used only where α > e^−t/2 > 0.
    middle = 1.0 - shrink / (4.0 * np.where(low, 1.0, rates))
    power: FloatArray = np.where(
        low, rates / shrink, np.where(high, 1.0 - shrink * (1.0 - rates), middle)
    )
    power = np.clip(power, 0.0, 1.0)
    if power.ndim == 0:
        return float(power)
    return power


def laplace_roc_breaks(shift: float, scale: float) -> tuple[float, float]:
    """The false-positive rates where :func:`laplace_optimal_tpr` changes piece:
    ``e^−s/b / 2`` (it leaves the line ``TPR = e^{s/b}·FPR``) and ``1/2`` (it joins the mirror)."""
    _check_shift(shift, scale)
    return math.exp(-shift / scale) / 2.0, 0.5
