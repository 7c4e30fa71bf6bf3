"""How uncertain an AUC is: DeLong's standard error, of one AUC and of a paired change.

An AUC measured on ``m`` members and ``n`` non-members would come out
differently on other records drawn from the same two populations. DeLong,
DeLong and Clarke-Pearson (1988) estimate that spread from each record's
*placement*, its own share of wins against the other group
(:func:`auc_placements`); the AUC is the mean of either group's placements.

Two attacks scored on the same records (one model after two numbers of
training epochs, say) share much of that chance error, so their difference is
far surer than two independent AUCs would be: :func:`paired_auc_difference`
takes the variance of the records' placement changes instead.

:func:`compute.attacks.metrics.chance_auc_spread` is the other yardstick: the
spread of the AUC when the scores carry no information at all, which these
estimates approach on such scores (tested).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .validation import FloatArray, as_scores

__all__ = ["auc_placements", "auc_standard_error", "paired_auc_difference"]


def auc_placements(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """DeLong's structural components of the AUC: each record's own share of wins.

    For each member, the share of non-members it outscores; for each
    non-member, the share of members that outscore it (a tie counts one half
    in both). Either array's mean is the AUC.

    Returns
    -------
    member_placements, nonmember_placements : ndarray
        One value in [0, 1] per member, in the order given, and one per non-member.
    """
    members = as_scores(member_scores, "member_scores")
    nonmembers = as_scores(nonmember_scores, "nonmember_scores")
    sorted_members, sorted_nonmembers = np.sort(members), np.sort(nonmembers)
    below = np.searchsorted(sorted_nonmembers, members, side="left")
    at_most = np.searchsorted(sorted_nonmembers, members, side="right")
    member_placements = (below + 0.5 * (at_most - below)) / nonmembers.size
    below = np.searchsorted(sorted_members, nonmembers, side="left")
    at_most = np.searchsorted(sorted_members, nonmembers, side="right")
    nonmember_placements = (members.size - at_most + 0.5 * (at_most - below)) / members.size
    return member_placements, nonmember_placements


def _placement_variance(member_placements: FloatArray, nonmember_placements: FloatArray) -> float:
    if member_placements.size < 2 or nonmember_placements.size < 2:
        raise ValueError(
            "a standard error needs at least two scores in each group, got "
            f"{member_placements.size} and {nonmember_placements.size}"
        )
    return float(
        np.var(member_placements, ddof=1) / member_placements.size
        + np.var(nonmember_placements, ddof=1) / nonmember_placements.size
    )


def auc_standard_error(member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike) -> float:
    """The standard error of the AUC (DeLong, DeLong & Clarke-Pearson 1988).

    ``sqrt(var(V_mem) / m + var(V_non) / n)`` over the placements of
    :func:`auc_placements` (sample variances): how much the AUC would move if
    other members and non-members had been drawn from the same two
    populations. Unlike :func:`~compute.attacks.metrics.chance_auc_spread` it
    does not assume that the scores carry no information; without information
    it is about that spread.
    """
    return math.sqrt(_placement_variance(*auc_placements(member_scores, nonmember_scores)))


def paired_auc_difference(
    before: tuple[npt.ArrayLike, npt.ArrayLike], after: tuple[npt.ArrayLike, npt.ArrayLike]
) -> tuple[float, float]:
    """The change of the AUC between two attacks on the same records, and its standard error.

    ``before`` and ``after`` are ``(member_scores, nonmember_scores)`` of the
    same members and the same non-members, in the same order (say, one model
    after two numbers of training epochs). Both AUCs are measured on the same
    records, so much of their chance error is shared and cancels in the
    difference: DeLong et al. (1988) take the variance of the difference of
    each record's placements, ``var(V_after − V_before)``, per group.

    Returns
    -------
    change, standard_error : float
        ``AUC(after) − AUC(before)`` and its standard error.
    """
    member_before, nonmember_before = auc_placements(*before)
    member_after, nonmember_after = auc_placements(*after)
    if member_before.size != member_after.size or nonmember_before.size != nonmember_after.size:
        raise ValueError(
            "before and after must score the same records: got "
            f"{member_before.size} and {member_after.size} members, "
            f"{nonmember_before.size} and {nonmember_after.size} non-members"
        )
    change = float(np.mean(member_after) - np.mean(member_before))
    variance = _placement_variance(member_after - member_before, nonmember_after - nonmember_before)
    return change, math.sqrt(variance)
