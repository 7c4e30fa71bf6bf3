"""The loss attack: membership scores from per-sample losses, and what chance looks like.

A model fitted to its members tends to have lower loss on them than on data it
never saw. The loss attack (Yeom et al., 2018) turns that into a score, ``s = −ℓ``:
the lower a sample's loss, the more it looks like a member. The scores feed the
metrics of :mod:`compute.attacks.metrics` (higher means "member").

How far from 0.5 an AUC must be before it says anything depends on the group
sizes: :func:`chance_auc_spread` is the AUC's standard deviation when the scores
carry no information at all.

>>> loss_scores([0.5, 2.0]).tolist()
[-0.5, -2.0]
>>> round(chance_auc_spread(160, 160), 4)
0.0323
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

__all__ = ["chance_auc_spread", "loss_scores"]

FloatArray = npt.NDArray[np.float64]


def loss_scores(losses: npt.ArrayLike) -> FloatArray:
    """Attack scores ``s = −ℓ`` of per-sample losses ``ℓ`` (finite, at least one).

    Raises ``ValueError`` for an empty or non-finite loss, naming the problem.
    """
    values = np.asarray(losses, dtype=float).ravel()
    if values.size == 0:
        raise ValueError("losses must not be empty")
    if not np.isfinite(values).all():
        raise ValueError("losses must be finite numbers")
    scores: FloatArray = -values
    return scores


def chance_auc_spread(members: int, nonmembers: int) -> float:
    """Standard deviation of the AUC when the scores carry no information (and have no ties).

    ``sqrt((m + n + 1) / (12 m n))``: the null variance of the Mann–Whitney ``U``
    statistic, ``m n (m + n + 1) / 12``, divided by ``(m n)²``.
    """
    if members < 1 or nonmembers < 1:
        raise ValueError(f"both groups need at least one sample, got {members} and {nonmembers}")
    return math.sqrt((members + nonmembers + 1) / (12.0 * members * nonmembers))
