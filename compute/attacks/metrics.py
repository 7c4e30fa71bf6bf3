"""How well attack scores separate members from non-members.

Every function takes the scores of the members and of the non-members as two
arrays; a higher score means "more likely a member". An attack is the rule
"say *member* when the score is at least ``t``", one rule per threshold ``t``.
A threshold's true-positive rate (TPR) is the share of members it flags, its
false-positive rate (FPR) the share of non-members it flags.

The AUC and the ROC curve equal scikit-learn's (tested); :func:`tpr_at_fpr`
follows the Synth-MIA testbed's rule and :func:`max_tpr_at_fpr` the
conservative one, so that both readings of "TPR at a given FPR" are available
under honest names.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt
from scipy import stats

from .validation import FloatArray, IndexArray, as_probability, as_scores

# Bootstrap replicates are drawn in batches holding about this many counts at once.
_BOOTSTRAP_BATCH_ELEMENTS = 1 << 22


def _groups(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike
) -> tuple[IndexArray, IndexArray, int]:
    """Each score's tie group (0 = the highest distinct score), and the number of groups."""
    members = as_scores(member_scores, "member_scores")
    nonmembers = as_scores(nonmember_scores, "nonmember_scores")
    distinct, group = np.unique(-np.concatenate([members, nonmembers]), return_inverse=True)
    return group[: members.size], group[members.size :], distinct.size


def _curves(
    member_counts: FloatArray, nonmember_counts: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """ROC curves, one per row of per-group counts (groups from the highest score down).

    Row ``i`` of the result starts at (0, 0) and has one point per group, so a
    group without any draws repeats the previous point (harmless for every
    reading below).
    """
    rows = member_counts.shape[0]
    zeros = np.zeros((rows, 1))
    tpr = np.cumsum(member_counts, axis=1) / member_counts.sum(axis=1, keepdims=True)
    fpr = np.cumsum(nonmember_counts, axis=1) / nonmember_counts.sum(axis=1, keepdims=True)
    return np.hstack([zeros, fpr]), np.hstack([zeros, tpr])


def _tpr_on_curves(
    fpr: FloatArray, tpr: FloatArray, target: float, interpolate: bool
) -> FloatArray:
    """The TPR of each curve (row) at FPR ``target``.

    Let ``i`` be the last point whose FPR is at most ``target``; since both
    rates only grow along a curve, its TPR is the highest among those points.
    Without ``interpolate`` that TPR is the answer. With it, when the FPR of
    point ``i`` is below ``target``, the answer lies on the straight line to
    point ``i + 1``.
    """
    last = (fpr <= target).sum(axis=1, keepdims=True) - 1
    fpr_below = np.take_along_axis(fpr, last, axis=1)[:, 0]
    tpr_below = np.take_along_axis(tpr, last, axis=1)[:, 0]
    if not interpolate:
        return tpr_below
    following = np.minimum(last + 1, fpr.shape[1] - 1)
    fpr_above = np.take_along_axis(fpr, following, axis=1)[:, 0]
    tpr_above = np.take_along_axis(tpr, following, axis=1)[:, 0]
    between = fpr_below < target
    slope = np.divide(
        tpr_above - tpr_below,
        fpr_above - fpr_below,
        out=np.zeros_like(tpr_below),
        where=between,
    )
    return np.where(between, tpr_below + slope * (target - fpr_below), tpr_below)


def _counts(groups: IndexArray, group_count: int) -> FloatArray:
    """Per-group counts, one row per row of ``groups``."""
    rows = groups.shape[0]
    offsets = np.arange(rows)[:, None] * group_count
    flat = np.bincount((groups + offsets).ravel(), minlength=rows * group_count)
    return flat.reshape(rows, group_count).astype(np.float64)


def roc_curve(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """False- and true-positive rates of the rule "member if score ≥ ``t``" for every ``t``.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each); higher means
        more likely a member.

    Returns
    -------
    fpr, tpr : ndarray
        The point (0, 0), then one point per distinct score, from the highest
        threshold to the lowest, ending at (1, 1). Tied scores move both rates
        at once. Equal to ``sklearn.metrics.roc_curve(labels, scores,
        drop_intermediate=False)`` with members labelled 1.
    """
    member_groups, nonmember_groups, group_count = _groups(member_scores, nonmember_scores)
    member_counts = np.bincount(member_groups, minlength=group_count).astype(np.float64)
    nonmember_counts = np.bincount(nonmember_groups, minlength=group_count).astype(np.float64)
    fpr, tpr = _curves(member_counts[None, :], nonmember_counts[None, :])
    return fpr[0], tpr[0]


def _average_ranks(values: FloatArray) -> FloatArray:
    """Ranks from 1 (smallest) upward, tied values sharing the mean of their ranks."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], values.size]
    ranks = np.empty(values.size)
    ranks[order] = np.repeat((starts + 1 + ends) / 2.0, ends - starts)
    return ranks


def auc(member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike) -> float:
    """Area under the ROC curve: how often a member outscores a non-member.

    ``AUC = P(s_member > s_non) + ½ · P(s_member = s_non)``, computed from
    average ranks (the Mann–Whitney U statistic divided by the number of
    member/non-member pairs). Equal to ``sklearn.metrics.roc_auc_score`` with
    members labelled 1.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).

    Returns
    -------
    float
        1 when every member outscores every non-member, 0 in the reverse case,
        0.5 when all scores are equal.
    """
    members = as_scores(member_scores, "member_scores")
    nonmembers = as_scores(nonmember_scores, "nonmember_scores")
    ranks = _average_ranks(np.concatenate([members, nonmembers]))
    u = float(ranks[: members.size].sum()) - members.size * (members.size + 1) / 2.0
    return u / (members.size * nonmembers.size)


def tpr_at_fpr(member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike, fpr: float) -> float:
    """TPR at FPR ``fpr`` read off the ROC curve by linear interpolation (the testbed's rule).

    This is what the Synth-MIA testbed reports as ``tpr_at_fpr_<fpr>``:
    ``np.interp(fpr, fprs, tprs)`` on scikit-learn's ROC curve. Precisely:

    * if some thresholds have exactly this FPR, the highest of their TPRs;
    * otherwise the TPR on the straight line between the last curve point with
      a lower FPR and the first with a higher one.

    At ``fpr=0`` this is the share of members that score strictly above every
    non-member: all points with FPR 0 count, and the highest wins. When the top
    score is tied between a member and a non-member, that point already has
    FPR > 0, so only the start (0, 0) has FPR 0 and the answer is 0. Between
    curve points the interpolated value belongs to no actual threshold (it is
    what a randomized mix of two thresholds achieves); see
    :func:`max_tpr_at_fpr` for the TPR of a real threshold.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).
    fpr
        The target false-positive rate, between 0 and 1.

    Returns
    -------
    float
        A TPR between 0 and 1.
    """
    target = as_probability(fpr, "fpr", open_interval=False)
    rates, tprs = roc_curve(member_scores, nonmember_scores)
    return float(_tpr_on_curves(rates[None, :], tprs[None, :], target, interpolate=True)[0])


def max_tpr_at_fpr(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike, fpr: float
) -> float:
    """The highest TPR of any threshold whose FPR is at most ``fpr`` (the conservative rule).

    Every value is achieved by an actual threshold, so it never exceeds
    :func:`tpr_at_fpr`. The comparison of rates is exact: with ``n``
    non-members, a threshold with ``j`` false positives has FPR ``j / n``.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).
    fpr
        The largest acceptable false-positive rate, between 0 and 1.

    Returns
    -------
    float
        A TPR between 0 and 1.
    """
    target = as_probability(fpr, "fpr", open_interval=False)
    rates, tprs = roc_curve(member_scores, nonmember_scores)
    return float(_tpr_on_curves(rates[None, :], tprs[None, :], target, interpolate=False)[0])


def rates_at_threshold(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike, threshold: float
) -> tuple[float, float]:
    """The (TPR, FPR) of the single rule "member if score ≥ ``threshold``".

    A direct count: the share of members and of non-members whose score is at
    least ``threshold``. The pair is a point of :func:`roc_curve` (the corner
    of the lowest ROC threshold not below ``threshold``), or ``(0, 0)`` when
    every score is below it.

    >>> rates_at_threshold([3.0, 2.0, 1.0, 0.0], [1.5, -1.0], 1.0)
    (0.75, 0.5)
    """
    members = as_scores(member_scores, "member_scores")
    nonmembers = as_scores(nonmember_scores, "nonmember_scores")
    if not math.isfinite(threshold):
        raise ValueError(f"threshold must be finite, got {threshold!r}")
    return float(np.mean(members >= threshold)), float(np.mean(nonmembers >= threshold))


def best_threshold_accuracy(member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike) -> float:
    """The best balanced accuracy ``(TPR + 1 − FPR) / 2`` over all thresholds.

    The threshold is chosen knowing who is a member, so this is an optimistic
    figure; with groups of equal size it is the plain accuracy.
    """
    fpr, tpr = roc_curve(member_scores, nonmember_scores)
    return float(np.max((tpr + 1.0 - fpr) / 2.0))


def clopper_pearson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) two-sided confidence interval for a binomial proportion.

    The bounds are quantiles of Beta distributions: ``lo = B(α/2; x, n − x + 1)``
    and ``hi = B(1 − α/2; x + 1, n − x)`` with ``α = 1 − confidence``, and
    ``lo = 0`` when ``x = 0``, ``hi = 1`` when ``x = n``. Equal to
    ``scipy.stats.binomtest(x, n).proportion_ci(confidence, method="exact")``.

    Parameters
    ----------
    successes
        Number of successes ``x``, between 0 and ``trials``.
    trials
        Number of trials ``n`` (at least 1).
    confidence
        Coverage of the interval, strictly between 0 and 1.

    Returns
    -------
    lo, hi : float
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials={trials}, got {successes}")
    alpha = 1.0 - as_probability(confidence, "confidence")
    lo = 0.0 if successes == 0 else stats.beta.ppf(alpha / 2, successes, trials - successes + 1)
    hi = (
        1.0
        if successes == trials
        else stats.beta.ppf(1 - alpha / 2, successes + 1, trials - successes)
    )
    return float(lo), float(hi)


def zero_fpr_upper_bound(nonmembers: int, confidence: float = 0.95) -> float:
    """The largest true FPR still consistent with 0 false positives among ``nonmembers``.

    ``1 − (1 − confidence)^(1/n)``: the exact one-sided binomial (Clopper–Pearson)
    upper bound, about ``3 / n`` at 95 %. An observed FPR of 0 on ``n``
    non-members therefore only shows that the true FPR is probably below this.
    """
    if nonmembers < 1:
        raise ValueError(f"nonmembers must be at least 1, got {nonmembers}")
    level = as_probability(confidence, "confidence")
    return float(1.0 - (1.0 - level) ** (1.0 / nonmembers))


def _bootstrap_counts(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    n_boot: int,
    seed: int,
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """Per-group member and non-member counts of ``n_boot`` stratified resamples, in batches.

    Members are resampled with replacement among members, non-members among
    non-members, so each replicate keeps both group sizes. The batches are yielded one by
    one (drawn in the same order as a list of them would be), so only one is in memory.
    """
    if n_boot < 1:
        raise ValueError(f"n_boot must be at least 1, got {n_boot}")
    member_groups, nonmember_groups, group_count = _groups(member_scores, nonmember_scores)
    rng = np.random.default_rng(seed)
    per_replicate = group_count + member_groups.size + nonmember_groups.size
    batch = max(1, _BOOTSTRAP_BATCH_ELEMENTS // per_replicate)
    for start in range(0, n_boot, batch):
        rows = min(batch, n_boot - start)
        drawn_members = member_groups[
            rng.integers(0, member_groups.size, (rows, member_groups.size))
        ]
        drawn_nonmembers = nonmember_groups[
            rng.integers(0, nonmember_groups.size, (rows, nonmember_groups.size))
        ]
        yield _counts(drawn_members, group_count), _counts(drawn_nonmembers, group_count)


def _percentile_interval(values: FloatArray, confidence: float) -> tuple[float, float]:
    alpha = 1.0 - as_probability(confidence, "confidence")
    lo, hi = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def bootstrap_auc_ci(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval for the :func:`auc`.

    Members and non-members are resampled separately (stratified), each with
    replacement and at its own size, ``n_boot`` times; the interval is the
    central ``confidence`` share of the replicate AUCs. A replicate's AUC is
    computed from how often each distinct score was drawn, so no replicate is
    sorted again. The same inputs and ``seed`` always give the same interval.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).
    n_boot
        Number of bootstrap replicates.
    confidence
        Coverage of the interval, strictly between 0 and 1.
    seed
        Seed of ``numpy.random.default_rng`` for the resampling.

    Returns
    -------
    lo, hi : float
    """
    as_probability(confidence, "confidence")
    aucs = []
    for member_counts, nonmember_counts in _bootstrap_counts(
        member_scores, nonmember_scores, n_boot, seed
    ):
        # Non-members strictly below each group (groups run from the highest score down).
        below = nonmember_counts[:, ::-1].cumsum(axis=1)[:, ::-1] - nonmember_counts
        wins = (member_counts * (below + 0.5 * nonmember_counts)).sum(axis=1)
        pairs = member_counts.sum(axis=1) * nonmember_counts.sum(axis=1)
        aucs.append(wins / pairs)
    return _percentile_interval(np.concatenate(aucs), confidence)


def bootstrap_tpr_ci(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    fpr: float,
    *,
    interpolate: bool = True,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval for the TPR at FPR ``fpr``.

    The resampling is that of :func:`bootstrap_auc_ci` (the same ``seed``
    draws the same replicates). Each replicate's TPR is read with the rule of
    :func:`tpr_at_fpr` (``interpolate=True``, the testbed's) or of
    :func:`max_tpr_at_fpr` (``interpolate=False``).

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).
    fpr
        The target false-positive rate, between 0 and 1.
    interpolate
        Which reading of "TPR at FPR" to use, see above.
    n_boot, confidence, seed
        As for :func:`bootstrap_auc_ci`.

    Returns
    -------
    lo, hi : float
    """
    target = as_probability(fpr, "fpr", open_interval=False)
    as_probability(confidence, "confidence")
    tprs = [
        _tpr_on_curves(*_curves(member_counts, nonmember_counts), target, interpolate)
        for member_counts, nonmember_counts in _bootstrap_counts(
            member_scores, nonmember_scores, n_boot, seed
        )
    ]
    return _percentile_interval(np.concatenate(tprs), confidence)


def bootstrap_intervals(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    fprs: Sequence[float],
    *,
    interpolate: bool = True,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[tuple[float, float], dict[float, tuple[float, float]]]:
    """:func:`bootstrap_auc_ci` and :func:`bootstrap_tpr_ci` at every FPR in ``fprs``, at once.

    The same numbers, bit for bit, as the separate calls with the same ``seed``
    (they draw the same replicates), for the cost of one: the replicates are drawn,
    counted and turned into ROC curves once, and every interval is read off them.

    Returns
    -------
    auc_ci, tpr_ci
        ``(lo, hi)`` of the AUC, and ``{fpr: (lo, hi)}`` of the TPR at each FPR.
    """
    targets = [as_probability(fpr, "fpr", open_interval=False) for fpr in fprs]
    as_probability(confidence, "confidence")
    aucs = []
    tprs: list[list[FloatArray]] = [[] for _ in targets]
    for member_counts, nonmember_counts in _bootstrap_counts(
        member_scores, nonmember_scores, n_boot, seed
    ):
        below = nonmember_counts[:, ::-1].cumsum(axis=1)[:, ::-1] - nonmember_counts
        wins = (member_counts * (below + 0.5 * nonmember_counts)).sum(axis=1)
        pairs = member_counts.sum(axis=1) * nonmember_counts.sum(axis=1)
        aucs.append(wins / pairs)
        del below
        fpr_curves, tpr_curves = _curves(member_counts, nonmember_counts)
        for found, target in zip(tprs, targets, strict=True):
            found.append(_tpr_on_curves(fpr_curves, tpr_curves, target, interpolate))
    auc_ci = _percentile_interval(np.concatenate(aucs), confidence)
    return auc_ci, {
        fpr: _percentile_interval(np.concatenate(found), confidence)
        for fpr, found in zip(fprs, tprs, strict=True)
    }


def chance_auc_spread(members: int, nonmembers: int) -> float:
    """Standard deviation of the AUC when scores carry no information (no ties).

    ``sqrt((m + n + 1) / (12 m n))``, from the null distribution of the
    Mann–Whitney U statistic: an AUC within about two of these of 0.5 is
    what a coin would also produce.
    """
    if members < 1 or nonmembers < 1:
        raise ValueError(f"both groups need at least one score, got {members} and {nonmembers}")
    return math.sqrt((members + nonmembers + 1) / (12.0 * members * nonmembers))
