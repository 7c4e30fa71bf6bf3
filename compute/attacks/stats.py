"""Statistics for attack results: how sure a number is, and how sure a verdict is.

:mod:`~compute.attacks.metrics` measures one attack on one sample; this module
says what those measurements support. It is shared by ``explorer audit`` and
the lessons that compare attacks across seeds, so that both draw their
intervals and verdicts from one place.

Exact intervals
    :func:`tpr_at_fpr_exact`: the TPR of the best threshold allowed a given
    FPR, with a Clopper–Pearson interval, or ``None`` when the non-members are
    too few to measure that FPR at all.
Comparisons across seeds
    :func:`paired_comparison`: per-seed differences of two attacks, their mean
    with a t interval, an optional paired bootstrap interval, and the sign count.
Many attacks at once
    :func:`holm_adjusted` and :func:`benjamini_hochberg_adjusted` adjust
    p-values for multiplicity; :func:`paired_verdicts` says which of many
    paired comparisons, corrected together, lie beyond the noise and which
    way; :func:`label_permutation_test` tests every
    attack together by permuting who is a member, which gives a family-wise
    p-value for the best attack and max-T adjusted p-values for each.
Records closer to the members than fresh ones
    :func:`closer_than_fresh_test`: an exact test of whether released records
    lie closer to their nearest member than fresh records of the population do.
The coverage ceiling
    :func:`copy_coverage` (which members have an exact or near copy in a
    release) and :func:`coverage_ceiling` (from any record of which members
    were copied): the share ``P`` of members copied bounds every attack,
    ``AUC ≤ ½ + ½·P`` (:func:`auc_ceiling`) and ``TPR ≤ P + (1 − P)·FPR``
    (:func:`tpr_ceiling`), when the release says nothing about the members
    it did not copy.
ROC curves of several runs
    :func:`vertical_average_roc`: the mean TPR at each FPR over runs (one
    release and its targets each), the curve to set beside a bound that holds
    for every run.
What a release is at least as bad as
    :func:`epsilon_lower_bound`: the empirical ε of DP auditing (Jagielski et
    al. 2020; Nasr et al. 2021), with the threshold chosen on one half of the
    targets and the bound measured on the other.

Score arrays follow :mod:`~compute.attacks.metrics`: higher means "more
likely a member". Functions over several attacks take one row per attack.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy import stats
from scipy.spatial import cKDTree

from .metrics import chance_auc_spread, clopper_pearson, tpr_at_fpr
from .validation import FloatArray, as_probability, as_records, as_scores, same_columns

__all__ = [
    "MULTIPLICITY_METHODS",
    "CloserThanFresh",
    "CoverageCeiling",
    "EpsilonLowerBound",
    "PairedComparison",
    "PairedVerdicts",
    "PermutationTest",
    "TprAtFpr",
    "auc_ceiling",
    "benjamini_hochberg_adjusted",
    "ceiling_clears_chance",
    "clopper_pearson",
    "closer_than_fresh_test",
    "copy_coverage",
    "coverage_ceiling",
    "epsilon_lower_bound",
    "holm_adjusted",
    "label_permutation_test",
    "paired_comparison",
    "paired_verdicts",
    "rank_sum_auc",
    "tpr_at_fpr_exact",
    "tpr_ceiling",
    "vertical_average_roc",
]

Seed = int | tuple[int, ...]
"""A seed of ``numpy.random.default_rng``: an int, or a tuple of ints for a separate stream."""

MIN_PERMUTATIONS = 100
"""Fewer permutations cannot give a p-value below 0.01."""

# Permuted label rows are drawn in batches holding about this many labels at once.
_PERMUTATION_BATCH_ELEMENTS = 1 << 21


# ---------------------------------------------------------------------------------------------
# TPR at a fixed FPR, exactly


@dataclass(frozen=True)
class TprAtFpr:
    """The TPR of the best threshold whose FPR is at most a target, with an exact interval."""

    fpr: float
    """The target false-positive rate."""
    tpr: float
    """``true_positives / members``."""
    interval: tuple[float, float]
    """Clopper–Pearson interval of the TPR at :attr:`confidence`."""
    confidence: float
    """Coverage of :attr:`interval`."""
    true_positives: int
    """Members flagged."""
    false_positives: int
    """Non-members flagged (at most ``fpr · nonmembers``)."""
    members: int
    """Number of members."""
    nonmembers: int
    """Number of non-members."""
    threshold: float
    """The rule is "member if score > ``threshold``"."""


def tpr_at_fpr_exact(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    fpr: float,
    *,
    confidence: float = 0.95,
) -> TprAtFpr | None:
    """The TPR at FPR ``fpr`` of an actual threshold, with a Clopper–Pearson interval.

    With ``n`` non-members, a threshold may flag ``⌊fpr · n⌋`` of them. The
    rule "member if score > ``v``", where ``v`` is the non-members'
    ``(⌊fpr · n⌋ + 1)``-th highest score, flags no more than that and as many
    members as any such threshold (the conservative reading,
    :func:`~compute.attacks.metrics.max_tpr_at_fpr`, which it equals). The
    interval treats the number of members it flags as binomial; it is exact
    given the threshold, which is set from the non-members alone.

    When ``fpr < 1/n`` no threshold is allowed a single false positive and the
    question cannot be answered with these non-members: the result is ``None``
    rather than an interpolated number. This includes ``fpr = 0``.

    Parameters
    ----------
    member_scores, nonmember_scores
        Scores of each group (1-D, finite, at least one each).
    fpr
        The target false-positive rate, between 0 and 1.
    confidence
        Coverage of the interval, strictly between 0 and 1.
    """
    members = as_scores(member_scores, "member_scores")
    nonmembers = as_scores(nonmember_scores, "nonmember_scores")
    target = as_probability(fpr, "fpr", open_interval=False)
    as_probability(confidence, "confidence")
    # The slack keeps 0.29 · 100 = 28.999… from rounding down to 28.
    allowed = math.floor(target * nonmembers.size + 1e-9)
    if allowed == 0:
        return None
    ordered = np.sort(nonmembers)[::-1]
    threshold = float(ordered[allowed]) if allowed < ordered.size else -math.inf
    true_positives = int(np.sum(members > threshold))
    return TprAtFpr(
        fpr=target,
        tpr=true_positives / members.size,
        interval=clopper_pearson(true_positives, members.size, confidence),
        confidence=confidence,
        true_positives=true_positives,
        false_positives=int(np.sum(nonmembers > threshold)),
        members=members.size,
        nonmembers=nonmembers.size,
        threshold=threshold,
    )


# ---------------------------------------------------------------------------------------------
# Paired comparison across seeds


@dataclass(frozen=True, eq=False)
class PairedComparison:
    """How attack (or setting) A differs from B when both ran on the same seeds."""

    differences: FloatArray
    """``a − b`` per seed, in the order given."""
    mean: float
    """Mean of :attr:`differences`."""
    interval: tuple[float, float]
    """Student t interval of the mean difference at :attr:`confidence`."""
    p_value: float
    """Two-sided paired t-test of "the mean difference is 0"."""
    confidence: float
    """Coverage of the intervals."""
    bootstrap_interval: tuple[float, float] | None
    """Percentile interval of the mean from resampled seeds, or ``None`` when not asked for."""
    wins: int
    """Seeds on which A is higher."""
    losses: int
    """Seeds on which B is higher."""
    ties: int
    """Seeds on which they are equal."""
    sign_p_value: float
    """Two-sided sign test (ties left out) of "A and B are each higher equally often"."""


def paired_comparison(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    bootstrap: int = 0,
    seed: int = 0,
) -> PairedComparison:
    """Compare two measurements made on the same seeds (e.g. the AUCs of two attacks).

    The difference ``d_i = a_i − b_i`` of each seed removes what the seed does
    to both, which is usually most of the spread. The t interval is
    ``mean ± t_{(1+c)/2, s−1} · sd / √s`` over ``s`` seeds, as
    ``scipy.stats.ttest_rel(a, b).confidence_interval(c)``; when every
    difference is the same it shrinks to that value, with p-value 0 (or 1
    when the difference is 0).

    Parameters
    ----------
    a, b
        One finite value per seed each, at least two seeds, paired by position.
    confidence
        Coverage of the intervals, strictly between 0 and 1.
    bootstrap
        Number of paired bootstrap replicates (seeds resampled with
        replacement, each keeping its pair); 0 leaves the interval out.
    seed
        Seed of ``numpy.random.default_rng`` for the bootstrap.
    """
    first = as_scores(a, "a")
    second = as_scores(b, "b")
    if first.size != second.size:
        raise ValueError(
            f"a and b must hold one value per seed each, got {first.size} and {second.size}"
        )
    if first.size < 2:
        raise ValueError(f"a paired comparison needs at least 2 seeds, got {first.size}")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be 0 or more, got {bootstrap}")
    level = as_probability(confidence, "confidence")
    differences = first - second
    seeds = differences.size
    mean = float(differences.mean())
    spread = float(differences.std(ddof=1))
    if spread == 0.0:
        interval = (mean, mean)
        p_value = 1.0 if mean == 0.0 else 0.0
    else:
        error = spread / math.sqrt(seeds)
        half = float(stats.t.ppf((1 + level) / 2, seeds - 1)) * error
        interval = (mean - half, mean + half)
        p_value = float(2 * stats.t.sf(abs(mean / error), seeds - 1))
    bootstrap_interval = None
    if bootstrap:
        rng = np.random.default_rng(seed)
        means = differences[rng.integers(0, seeds, (bootstrap, seeds))].mean(axis=1)
        lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
        bootstrap_interval = (float(lo), float(hi))
    wins, losses = int(np.sum(differences > 0)), int(np.sum(differences < 0))
    decided = wins + losses
    sign_p = 1.0 if decided == 0 else float(stats.binomtest(wins, decided).pvalue)
    return PairedComparison(
        differences=differences,
        mean=mean,
        interval=interval,
        p_value=p_value,
        confidence=level,
        bootstrap_interval=bootstrap_interval,
        wins=wins,
        losses=losses,
        ties=seeds - decided,
        sign_p_value=sign_p,
    )


# ---------------------------------------------------------------------------------------------
# Multiplicity


def _as_p_values(p_values: npt.ArrayLike) -> FloatArray:
    values = as_scores(p_values, "p_values")
    if values.min() < 0 or values.max() > 1:
        raise ValueError("p_values must lie between 0 and 1")
    return values


def holm_adjusted(p_values: npt.ArrayLike) -> FloatArray:
    """Holm's step-down adjusted p-values: reject those ≤ α to keep the family-wise error ≤ α.

    With the ``m`` p-values sorted ascending, the ``i``-th (from 0) becomes
    ``max_{j ≤ i} min(1, (m − j) · p_(j))``; the result is in the input order.
    Valid under any dependence between the tests.
    """
    values = _as_p_values(p_values)
    order = np.argsort(values, kind="stable")
    scaled = np.minimum(1.0, (values.size - np.arange(values.size)) * values[order])
    adjusted = np.empty_like(values)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def benjamini_hochberg_adjusted(p_values: npt.ArrayLike) -> FloatArray:
    """Benjamini–Hochberg adjusted p-values: reject those ≤ q to keep the false discovery rate ≤ q.

    With the ``m`` p-values sorted ascending, the ``i``-th (from 1) becomes
    ``min_{j ≥ i} min(1, m · p_(j) / j)``; the result is in the input order.
    Equal to ``scipy.stats.false_discovery_control(p, method="bh")``. Valid for
    independent or positively dependent tests.
    """
    values = _as_p_values(p_values)
    order = np.argsort(values, kind="stable")
    scaled = values[order] * values.size / np.arange(1, values.size + 1)
    adjusted = np.empty_like(values)
    adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return adjusted


MULTIPLICITY_METHODS = {"holm": holm_adjusted, "bh": benjamini_hochberg_adjusted}
"""The corrections :func:`paired_verdicts` knows: Holm (family-wise error), Benjamini–Hochberg
(false discovery rate)."""

Verdict = Literal["higher", "lower", "inside"]
"""What one corrected comparison of A with B says: A higher, A lower, or inside the noise."""


@dataclass(frozen=True, eq=False)
class PairedVerdicts:
    """Many paired comparisons judged together, after a correction for how many there are."""

    adjusted: FloatArray
    """Each comparison's adjusted p-value (of its paired t-test), in the order given."""
    verdicts: tuple[Verdict, ...]
    """``"higher"`` (A above B beyond the noise), ``"lower"``, or ``"inside"`` the noise."""
    method: str
    """The correction: a key of :data:`MULTIPLICITY_METHODS`."""
    alpha: float
    """The level the adjusted p-values are held to."""


def paired_verdicts(
    comparisons: Sequence[PairedComparison], *, alpha: float = 0.05, method: str = "holm"
) -> PairedVerdicts:
    """Which of ``comparisons`` show a difference beyond the noise, corrected for all of them.

    Each comparison's two-sided paired t-test p-value is adjusted together with
    the others' (``method``: ``"holm"`` keeps the chance of any false verdict
    at most ``alpha`` under any dependence between the tests; ``"bh"`` keeps
    the expected share of false verdicts among all verdicts at most
    ``alpha``). A comparison whose adjusted p-value is at most ``alpha`` says
    "higher" or "lower" by the sign of its mean difference; every other one
    says "inside". For a t-test, an adjusted p-value at most ``alpha`` means
    the comparison's t interval at level ``1 − α'`` excludes 0, where ``α'``
    is the level Holm's or BH's step gives it (at least ``alpha / m``).
    """
    if method not in MULTIPLICITY_METHODS:
        raise ValueError(f"method must be one of {', '.join(MULTIPLICITY_METHODS)}, got {method!r}")
    level = as_probability(alpha, "alpha")
    if not comparisons:
        raise ValueError("paired_verdicts needs at least one comparison")
    adjusted = MULTIPLICITY_METHODS[method]([c.p_value for c in comparisons])
    verdicts: list[Verdict] = []
    for comparison, p in zip(comparisons, adjusted, strict=True):
        if p > level or comparison.mean == 0.0:
            verdicts.append("inside")
        else:
            verdicts.append("higher" if comparison.mean > 0 else "lower")
    return PairedVerdicts(adjusted, tuple(verdicts), method, level)


# ---------------------------------------------------------------------------------------------
# ROC curves of several runs


def vertical_average_roc(
    runs: Iterable[tuple[npt.ArrayLike, npt.ArrayLike]], fprs: npt.ArrayLike
) -> FloatArray:
    """The mean over ``runs`` of each run's TPR at every FPR of ``fprs`` (vertical averaging).

    Each run is ``(member_scores, nonmember_scores)`` of one release; its TPR at
    an FPR is read with the testbed's interpolation
    (:func:`~compute.attacks.metrics.tpr_at_fpr`), which a randomized mix of
    two thresholds achieves. A linear bound that every run's ROC obeys at each
    FPR, such as the ε-DP region ``TPR ≤ e^ε·FPR``, holds for the mean too
    (Fawcett 2006 calls this vertical averaging).
    """
    rates = np.asarray(fprs, dtype=np.float64)
    if rates.ndim != 1 or rates.size == 0 or rates.min() < 0 or rates.max() > 1:
        raise ValueError("fprs must be a non-empty 1-D array of rates in [0, 1]")
    curves = [
        [tpr_at_fpr(members, nonmembers, float(rate)) for rate in rates]
        for members, nonmembers in runs
    ]
    if not curves:
        raise ValueError("vertical_average_roc needs at least one run")
    return np.asarray(np.mean(curves, axis=0))


# ---------------------------------------------------------------------------------------------
# The label-permutation test


def _score_rows(scores: npt.ArrayLike, what: str) -> FloatArray:
    """Scores as a 2-D array, one row per attack (a 1-D array is one attack)."""
    array = np.asarray(scores, dtype=np.float64)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(
            f"{what} must be one row of scores per attack (at least one of each), "
            f"got shape {array.shape}"
        )
    if not np.isfinite(array).all():
        raise ValueError(f"{what} must be finite numbers")
    return array


def _paired_rows(
    member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    members = _score_rows(member_scores, "member_scores")
    nonmembers = _score_rows(nonmember_scores, "nonmember_scores")
    if members.shape[0] != nonmembers.shape[0]:
        raise ValueError(
            f"member_scores and nonmember_scores must have one row per attack each, got "
            f"{members.shape[0]} and {nonmembers.shape[0]}"
        )
    return members, nonmembers


def rank_sum_auc(member_scores: npt.ArrayLike, nonmember_scores: npt.ArrayLike) -> FloatArray:
    """The AUC of each attack (row) from the rank sum of its members.

    ``AUC = (R − m(m+1)/2) / (m·n)`` with ``R`` the members' sum of average
    ranks among all ``m + n`` targets: the Mann–Whitney U statistic over the
    number of pairs. Equal to :func:`~compute.attacks.metrics.auc` and to
    ``sklearn.metrics.roc_auc_score`` row by row.
    """
    members, nonmembers = _paired_rows(member_scores, nonmember_scores)
    m, n = members.shape[1], nonmembers.shape[1]
    ranks = stats.rankdata(np.hstack([members, nonmembers]), axis=1)
    return np.asarray((ranks[:, :m].sum(axis=1) - m * (m + 1) / 2) / (m * n))


@dataclass(frozen=True, eq=False)
class PermutationTest:
    """Whether any attack separates members from non-members better than chance, all at once."""

    auc: FloatArray
    """Each attack's observed AUC."""
    p_values: FloatArray
    """Each attack's own one-sided permutation p-value (no correction for the others)."""
    p_values_adjusted: FloatArray
    """Each attack's max-T (Westfall–Young single-step) p-value: corrected for every attack."""
    family_p_value: float
    """The p-value of the best attack's AUC against the best AUC under permuted labels."""
    permutations: int
    """Number of label permutations drawn."""


def label_permutation_test(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    *,
    permutations: int = 1000,
    seed: Seed = 0,
) -> PermutationTest:
    """Test "members and non-members are exchangeable" against every attack together.

    An attack's scores depend on the target records and the release, never on
    which targets are labelled members. If members and non-members were drawn
    the same way (exchangeable given the release), every relabelling with the
    same group sizes is as likely as the true one. So the AUCs under
    ``permutations`` random relabellings are the null distribution, for every
    attack at once and keeping the dependence between attacks.

    The test is one-sided (an AUC above 0.5 is evidence of a leak) and counts
    the observed labelling as one of the permutations, which makes each
    p-value valid (``P(p ≤ α) ≤ α`` under the null) for any number of
    permutations:

    * ``p_values[j] = (1 + #{AUC*_j ≥ AUC_j}) / (B + 1)``, attack ``j`` alone;
    * ``p_values_adjusted[j] = (1 + #{max_k AUC*_k ≥ AUC_j}) / (B + 1)``, the
      single-step max-T adjustment of Westfall and Young (1993), which keeps
      the family-wise error rate at most α;
    * ``family_p_value``, their minimum: the p-value of the best attack.

    Vectorized through ranks: each attack's average ranks are computed once,
    and a relabelling's AUC is a sum of ranks, so a batch of permutations is
    one matrix product (comparisons are made on exact rank sums).

    Parameters
    ----------
    member_scores, nonmember_scores
        One row per attack (a 1-D array is one attack) of finite scores, the
        same attacks in the same order in both.
    permutations
        Number of random relabellings ``B``, at least :data:`MIN_PERMUTATIONS`.
    seed
        Seed of ``numpy.random.default_rng`` for the relabellings.
    """
    members, nonmembers = _paired_rows(member_scores, nonmember_scores)
    if permutations < MIN_PERMUTATIONS:
        raise ValueError(f"permutations must be at least {MIN_PERMUTATIONS}, got {permutations}")
    m, n = members.shape[1], nonmembers.shape[1]
    targets = m + n
    ranks = stats.rankdata(np.hstack([members, nonmembers]), axis=1)
    observed = ranks[:, :m].sum(axis=1)
    labels = np.r_[np.ones(m), np.zeros(n)]
    rng = np.random.default_rng(seed)
    above = np.zeros(observed.size, dtype=np.int64)
    max_above = np.zeros(observed.size, dtype=np.int64)
    batch = max(1, _PERMUTATION_BATCH_ELEMENTS // targets)
    for start in range(0, permutations, batch):
        rows = min(batch, permutations - start)
        shuffled = rng.permuted(np.tile(labels, (rows, 1)), axis=1)
        sums = shuffled @ ranks.T  # one row per permutation, one column per attack
        above += (sums >= observed).sum(axis=0)
        max_above += (sums.max(axis=1)[:, None] >= observed[None, :]).sum(axis=0)
    p_values = (1.0 + above) / (permutations + 1.0)
    adjusted = (1.0 + max_above) / (permutations + 1.0)
    return PermutationTest(
        auc=np.asarray((observed - m * (m + 1) / 2) / (m * n)),
        p_values=p_values,
        p_values_adjusted=adjusted,
        family_p_value=float(adjusted.min()),
        permutations=permutations,
    )


# ---------------------------------------------------------------------------------------------
# The empirical ε lower bound


@dataclass(frozen=True)
class EpsilonLowerBound:
    """An empirical lower bound on the ε of any ε-DP mechanism that could have made the release."""

    value: float
    """``ε ≥ value`` with probability at least :attr:`confidence` (0 when nothing is shown)."""
    confidence: float
    """Joint coverage of the two Clopper–Pearson bounds behind :attr:`value`."""
    attack: int
    """Row of the attack chosen on the selection half."""
    threshold: float
    """The rule splits targets into "score ≥ ``threshold``" and the rest."""
    event: str
    """Which side of the threshold is the event: ``"above"`` (score ≥ threshold) or ``"below"``."""
    more_likely_for: str
    """``"members"`` or ``"nonmembers"``: whose rate is the numerator."""
    numerator: tuple[int, int]
    """(targets in the event, targets) of the numerator's group on the evaluation half."""
    denominator: tuple[int, int]
    """The same for the other group."""


def _ratio_bounds(
    numerator: FloatArray,
    numerator_size: int,
    denominator: FloatArray,
    denominator_size: int,
    confidence: float,
) -> FloatArray:
    """``ln(lower(p₁) / upper(p₂))`` from Clopper–Pearson bounds, −inf when the lower bound is 0."""
    alpha = 1.0 - confidence
    lower = np.zeros(numerator.shape)
    some = numerator > 0
    lower[some] = stats.beta.ppf(alpha / 2, numerator[some], numerator_size - numerator[some] + 1)
    upper = np.ones(denominator.shape)
    short = denominator < denominator_size
    upper[short] = stats.beta.ppf(
        1 - alpha / 2, denominator[short] + 1, denominator_size - denominator[short]
    )
    with np.errstate(divide="ignore"):
        return np.asarray(np.log(lower) - np.log(upper))


_EVENTS = (
    ("above", "members"),
    ("above", "nonmembers"),
    ("below", "members"),
    ("below", "nonmembers"),
)


def _event_bounds(
    members: FloatArray,
    nonmembers: FloatArray,
    thresholds: FloatArray,
    confidence: float,
) -> FloatArray:
    """Bounds of every (threshold, event) pair: one row per threshold, one column per event."""
    m, n = members.size, nonmembers.size
    member_above = (m - np.searchsorted(np.sort(members), thresholds, side="left")).astype(float)
    nonmember_above = (n - np.searchsorted(np.sort(nonmembers), thresholds, side="left")).astype(
        float
    )
    counts = {
        ("above", "members"): (member_above, m, nonmember_above, n),
        ("above", "nonmembers"): (nonmember_above, n, member_above, m),
        ("below", "members"): (m - member_above, m, n - nonmember_above, n),
        ("below", "nonmembers"): (n - nonmember_above, n, m - member_above, m),
    }
    return np.column_stack([_ratio_bounds(*counts[event], confidence) for event in _EVENTS])


def epsilon_lower_bound(
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    seed: Seed = 0,
) -> EpsilonLowerBound:
    """The empirical ε of DP auditing (Jagielski et al. 2020; Nasr et al. 2021) for these attacks.

    If the release came from an ε-DP mechanism and membership was assigned at
    random, then for any event ``E`` decided from the release and a target,
    ``P(E | member) ≤ e^ε · P(E | non-member)`` and the same with the roles
    swapped. Each threshold ``t`` of an attack gives two events (score ≥ t and
    score < t), and each event two ratios, so four bounds: for "score ≥ t"
    they read ``ε ≥ ln(TPR / FPR)`` and ``ε ≥ ln(FPR / TPR)``, for its
    complement ``ε ≥ ln((1 − FPR) / (1 − TPR))`` and its mirror (the
    "mirror" cases cover an attack whose scores run the wrong way).

    Steps, so that choosing the best never inflates the bound:

    1. members and non-members are each split at random (``seed``) into a
       selection half and an evaluation half (the extra target of an odd
       count goes to evaluation);
    2. on the selection half, the attack (row), threshold and event with the
       largest bound are chosen;
    3. on the evaluation half, that one choice gives ``ln(p₁,lower / p₂,upper)``
       where ``p₁,lower`` is the lower end of the two-sided Clopper–Pearson
       interval (at ``confidence``) of the numerator's rate and ``p₂,upper`` the
       upper end of the denominator's. Each end holds with probability
       ``1 − (1 − confidence)/2``, so both do (union bound) with probability
       at least ``confidence``. A bound that is not positive is reported as 0.

    The intervals treat the evaluation targets as independent draws, as DP
    auditing with many canaries does; the bound means nothing if membership
    was not assigned at random (members chosen for being typical, say).

    Parameters
    ----------
    member_scores, nonmember_scores
        One row per attack (a 1-D array is one attack), at least two members
        and two non-members.
    confidence
        Joint confidence of the bound, strictly between 0 and 1.
    seed
        Seed of ``numpy.random.default_rng`` for the split.
    """
    members, nonmembers = _paired_rows(member_scores, nonmember_scores)
    level = as_probability(confidence, "confidence")
    m, n = members.shape[1], nonmembers.shape[1]
    if m < 2 or n < 2:
        raise ValueError(f"an ε bound needs at least 2 members and 2 non-members, got {m} and {n}")
    rng = np.random.default_rng(seed)
    member_order, nonmember_order = rng.permutation(m), rng.permutation(n)
    select_m, select_n = member_order[: m // 2], nonmember_order[: n // 2]
    check_m, check_n = member_order[m // 2 :], nonmember_order[n // 2 :]

    best: tuple[float, int, float, int] | None = None
    for row in range(members.shape[0]):
        chosen_members, chosen_nonmembers = members[row, select_m], nonmembers[row, select_n]
        thresholds = np.unique(np.concatenate([chosen_members, chosen_nonmembers]))
        bounds = _event_bounds(chosen_members, chosen_nonmembers, thresholds, level)
        flat = int(np.argmax(bounds))
        value = float(bounds.flat[flat])
        if best is None or value > best[0]:
            best = (value, row, float(thresholds[flat // len(_EVENTS)]), flat % len(_EVENTS))
    assert best is not None  # at least one attack row
    _, row, threshold, event_index = best
    event, group = _EVENTS[event_index]
    evaluated = _event_bounds(
        members[row, check_m], nonmembers[row, check_n], np.array([threshold]), level
    )
    value = float(evaluated[0, event_index])

    def in_event(scores: FloatArray) -> tuple[int, int]:
        inside = scores >= threshold if event == "above" else scores < threshold
        return int(inside.sum()), scores.size

    member_counts, nonmember_counts = (
        in_event(members[row, check_m]),
        in_event(nonmembers[row, check_n]),
    )
    return EpsilonLowerBound(
        value=max(0.0, value) if math.isfinite(value) else 0.0,
        confidence=level,
        attack=row,
        threshold=threshold,
        event=event,
        more_likely_for=group,
        numerator=member_counts if group == "members" else nonmember_counts,
        denominator=nonmember_counts if group == "members" else member_counts,
    )


# ---------------------------------------------------------------------------------------------
# Records closer to the members than fresh records are


@dataclass(frozen=True)
class CloserThanFresh:
    """Are released records closer to the members than fresh records of the population are?"""

    threshold: float
    """The distance at rank ⌈share × pooled⌉ of released and fresh distances together."""
    share: float
    """The share of the pooled distances the threshold is drawn at."""
    released_below: int
    """Released records at a distance of at most :attr:`threshold`."""
    fresh_below: int
    """Fresh records at a distance of at most :attr:`threshold`."""
    released: int
    """Released records."""
    fresh: int
    """Fresh records."""
    expected: float
    """Released records expected at most :attr:`threshold` if they were fresh records."""
    p_value: float
    """One-sided exact (hypergeometric) p-value of :attr:`released_below` or more."""
    closest: npt.NDArray[np.intp]
    """Indices of the released records at most :attr:`threshold`, closest first."""


def closer_than_fresh_test(
    released_distances: npt.ArrayLike, fresh_distances: npt.ArrayLike, *, share: float = 0.01
) -> CloserThanFresh:
    """Test whether released records lie closer to the members than fresh records do.

    Each released (synthetic) and each fresh (reference) record comes with its
    distance to the nearest member. The threshold is the distance at rank
    ⌈``share`` × N⌉ of all N distances pooled, which does not depend on which
    record is which. If the released records were drawn like the fresh ones
    without regard to the members (a generator that never saw them), every
    assignment of the pooled distances to the two groups is equally likely, so
    given the pooled distances the count of released records at or below the
    threshold is hypergeometric: the p-value is exact, ties included.
    """
    released = as_scores(released_distances, "released_distances")
    fresh = as_scores(fresh_distances, "fresh_distances")
    if not 0.0 < share < 1.0:
        raise ValueError(f"share must be strictly between 0 and 1, got {share!r}")
    pooled = np.sort(np.concatenate([released, fresh]))
    threshold = float(pooled[math.ceil(share * pooled.size) - 1])
    below = int(np.count_nonzero(pooled <= threshold))
    hits = released <= threshold
    found = int(np.count_nonzero(hits))
    indices = np.flatnonzero(hits)
    return CloserThanFresh(
        threshold=threshold,
        share=share,
        released_below=found,
        fresh_below=below - found,
        released=released.size,
        fresh=fresh.size,
        expected=below * released.size / pooled.size,
        p_value=float(stats.hypergeom.sf(found - 1, pooled.size, released.size, below)),
        closest=indices[np.argsort(released[indices], kind="stable")],
    )


# ---------------------------------------------------------------------------------------------
# The coverage ceiling


def auc_ceiling(coverage: float) -> float:
    """The highest AUC any attack can expect when a share ``coverage`` of the members is copied.

    Suppose the release depends on the members it did not copy in no way at
    all (true of :func:`compute.synthetic.memorizing_release` and of any
    generator whose records are each a copy of a member, noisy or not, or
    independent of the members). Given the release, an uncopied member is then
    one more draw from the population, exchangeable with a non-member: any
    score ranks it above a non-member with probability ½ on average. A copied
    member can at best always win. So

        ``E[AUC] ≤ P · 1 + (1 − P) · ½ = ½ + ½·P``.

    The bound is on the expected AUC; an observed AUC can exceed it by the
    sampling error of the uncopied members against the non-members: about
    ``(1 − P) · chance_auc_spread(uncopied members, non-members)``
    (:func:`~compute.attacks.metrics.chance_auc_spread`). For a generator whose
    records depend on every member (a fitted mixture, a network of counts)
    there is no such ceiling: this one must not be drawn for it.
    """
    share = as_probability(coverage, "coverage", open_interval=False)
    return 0.5 + 0.5 * share


def ceiling_clears_chance(
    coverage: float, members: int, nonmembers: int, *, spreads: float = 2.0
) -> bool:
    """Whether the AUC ceiling lies above the chance band ``½ + spreads · σ₀``.

    ``σ₀`` is :func:`~compute.attacks.metrics.chance_auc_spread` for the
    group sizes (the band lesson 05 draws uses two of them). Where the ceiling
    is inside the band, no attack can be told from a coin at that setting, so
    ranking attacks there ranks noise.
    """
    if not (math.isfinite(spreads) and spreads >= 0):
        raise ValueError(f"spreads must be a finite number ≥ 0, got {spreads!r}")
    band = 0.5 + spreads * chance_auc_spread(members, nonmembers)
    return auc_ceiling(coverage) > band


def tpr_ceiling(coverage: float, fpr: float) -> float:
    """The highest TPR any attack can expect at false-positive rate ``fpr``: ``P + (1 − P)·FPR``.

    Under the assumption of :func:`auc_ceiling`, the members' scores are a
    mixture: with weight ``P`` those of copied members, with weight ``1 − P``
    the non-members' own distribution. A threshold that flags a share ``FPR``
    of non-members flags the same share of uncopied members on average and at
    most all copied ones. At ``FPR = 0`` the ceiling is ``P``; integrating
    over ``FPR`` from 0 to 1 gives :func:`auc_ceiling`.
    """
    share = as_probability(coverage, "coverage", open_interval=False)
    rate = as_probability(fpr, "fpr", open_interval=False)
    return share + (1.0 - share) * rate


@dataclass(frozen=True, eq=False)
class CoverageCeiling:
    """Which members a release copied, and what that lets any attack reach at best."""

    copied: npt.NDArray[np.bool_]
    """For each member, whether it was copied (at least once)."""
    coverage: float
    """The share of members copied, ``P``."""
    auc_ceiling: float
    """``½ + ½·P`` (:func:`auc_ceiling`)."""

    def tpr_ceiling(self, fpr: float) -> float:
        """``P + (1 − P)·FPR`` (:func:`tpr_ceiling`)."""
        return tpr_ceiling(self.coverage, fpr)


def coverage_ceiling(copied: npt.ArrayLike) -> CoverageCeiling:
    """The ceiling from a per-member record of who was copied (at least one member).

    ``copied`` is one boolean per member, e.g. from the sources of a simulated
    release (:meth:`compute.synthetic.Release.members_copied`) or from
    :func:`copy_coverage`.
    """
    flags = np.asarray(copied)
    if flags.ndim != 1 or flags.size == 0 or flags.dtype != np.bool_:
        raise ValueError("copied must be a non-empty 1-D array of booleans, one per member")
    share = float(flags.mean())
    return CoverageCeiling(copied=flags.copy(), coverage=share, auc_ceiling=auc_ceiling(share))


def copy_coverage(
    members: npt.ArrayLike, synthetic: npt.ArrayLike, *, tolerance: float = 0.0
) -> CoverageCeiling:
    """Which members have a record of ``synthetic`` within ``tolerance`` in every coordinate.

    A member counts as copied when some synthetic record ``s`` has
    ``max_j |x_j − s_j| ≤ tolerance`` (Chebyshev distance, in the units of the
    tables as given: standardize both first for a tolerance in standard
    deviations). ``tolerance = 0`` asks for an exact copy, equal in every
    coordinate. With a tolerance, nearness stands in for copying: a fresh
    record can land near a member by chance, and a noisy copy can land
    farther away, so the ceiling is then an estimate; from a simulation's own
    sources use :func:`coverage_ceiling`.
    """
    member_rows = as_records(members, "members")
    synthetic_rows = as_records(synthetic, "synthetic")
    same_columns(members=member_rows, synthetic=synthetic_rows)
    if not (math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance must be a finite number ≥ 0, got {tolerance!r}")
    distances, _ = cKDTree(synthetic_rows).query(member_rows, k=1, p=math.inf)
    return coverage_ceiling(np.asarray(distances) <= tolerance)
