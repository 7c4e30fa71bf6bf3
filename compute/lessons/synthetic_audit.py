"""Lesson 05, Gen-LRA: the attack and its exact computation, on one simulated release.

The whole lesson looks at one draw: seed :data:`PICTURE_SEED` of the 2-D simulation
(:func:`~compute.synthetic.simulation_split`: members, non-members, a reference sample and
a release of a generator that copies members with probability ε and noise ρ). What an audit
of many such draws can conclude is lesson 06's subject; this one shows how the attack works.

The grid
    ε × ρ × ``k`` × bandwidth × ``target``. ``target`` is one of five candidate records
    (:func:`candidates`), chosen by a rule that does not look at any score: three members
    (copied at least twice, once, never, in the release at the largest ε) and two
    non-members (none, and the most, of the release's copies among its :data:`DEFAULT_K`
    nearest synthetic records). Within each group the record whose reference density is
    nearest the median of all members' and non-members' is taken, at least
    :data:`CANDIDATE_GAP` from the candidates already chosen, so that each can be
    clicked in the release picture.
One draw per (ε, ρ)
    :func:`draw` computes, once per (ε, ρ) and memoized (the grid is grouped by ε), Gen-LRA
    for every member and non-member at every bandwidth and every ``k`` at once
    (:func:`~compute.attacks.gen_lra_scores`) and the candidates' per-neighbour terms
    (:func:`~compute.attacks.gen_lra_terms`). With common random numbers the release at
    ε = 0 is the same for every ρ, so one draw serves them all.
The score field
    :func:`field_rows`: ``log p̂_{R∪{x*}}(s) − log p̂_R(s)`` on a square of
    :data:`FIELD_CELLS` × :data:`FIELD_CELLS` cells around a candidate
    (:func:`~compute.attacks.gen_lra_field`, the same rank-one refit as the scores). The
    field chart shows a member and a non-member side by side: the current target on its
    own side, the first candidate of the other kind on the other.
Checks
    ``STUDY`` runs, for three seeds, the invariance demonstration
    (:func:`~compute.invariance.demonstrate_invariance`) and Gen-LRA's shortcut against
    SciPy refits (:func:`~compute.attacks.gen_lra.refitted_gen_lra_scores`); every grid
    point also refits SciPy's KDE for its target (the ``refit_difference`` readout).
Page weight
    Every per-point dataset is ``LAZY``, and each follows as few parameters as it can (the
    release only ε and ρ, the field only the bandwidth and the target), so that the
    deduplicated rows stay small. Chart rows carry :data:`CHART_DIGITS` significant digits,
    the field :data:`FIELD_DIGITS`, coordinates 3 decimals.
Cost
    About 5 s of CPU for the whole grid and 1.5 s for the study (measured on the 2-core
    machine: the draws, the fields and each point's SciPy refit), with BLAS on one thread
    (:func:`_threads`): on several, these small products run ten times slower.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import ThreadpoolController

from privacy_explorer.compute.attacks import (
    auc,
    chance_auc_spread,
    fit_kde,
    gen_lra_field,
    gen_lra_scores,
    gen_lra_terms,
    kde_logpdf,
)
from privacy_explorer.compute.attacks.gen_lra import NeighbourTerms, refitted_gen_lra_scores
from privacy_explorer.compute.attacks.neighbours import nearest
from privacy_explorer.compute.audit_experiments import (
    BANDWIDTH_MULTIPLES,
    SIMULATION_RHOS,
    SilvermanMultiple,
)
from privacy_explorer.compute.histogram import common_histogram, histogram_upper
from privacy_explorer.compute.invariance import demonstrate_invariance
from privacy_explorer.compute.lessons import synthetic_audit_charts as charts
from privacy_explorer.compute.synthetic import (
    Release,
    SimulationSplit,
    simulation_split,
    two_d_population,
)
from privacy_explorer.lesson import Column, Grid, Param, Readout, Table, chart_number

FloatArray = npt.NDArray[np.float64]

EPSILONS: tuple[float, ...] = (0.0, 0.1, 0.4)
RHOS = SIMULATION_RHOS
KS: tuple[int, ...] = (1, 5, 10, 20)
BANDWIDTHS = BANDWIDTH_MULTIPLES
TARGETS: tuple[str, ...] = charts.TARGETS
DEFAULT_EPSILON = 0.4
DEFAULT_RHO = 0.1
DEFAULT_K = 5
DEFAULT_BANDWIDTH = 1.0
DEFAULT_TARGET = TARGETS[0]
PICTURE_SEED = 1
"""The seed of the one draw the lesson shows."""
CANDIDATE_GAP = 1.0
"""Least distance between two candidate targets (data units), so that each can be clicked."""
FIELD_HALF_WIDTH = charts.FIELD_HALF_WIDTH
FIELD_CELLS = charts.FIELD_CELLS
"""The score field is drawn on ``FIELD_CELLS²`` cells over ``±FIELD_HALF_WIDTH`` around the
target, whose cell is the middle one."""
FIELD_DIGITS = 3
CHART_DIGITS = 4
HISTOGRAM_BINS = 16
HISTOGRAM_QUANTILE = 0.95
"""The score histogram: equal bins from the smallest score to this quantile, then an open bin."""
ELLIPSE_POINTS = 32
"""Vertices of the kernel ellipse and the noise circle."""
CHECK_SEEDS: tuple[int, ...] = (1, 2, 3)
CHECK_EPSILON, CHECK_RHO = 0.4, 0.2
"""The release of the invariance demonstration and of the shortcut check."""
CHECK_TARGETS = 40
"""Targets (half members, half non-members) refitted with SciPy per seed and bandwidth."""
CHECK_BANDWIDTHS: tuple[float, ...] = (min(BANDWIDTHS), 1.0)
ROUNDING = 1e-9
"""A change this small (relative to the values compared) is rounding, not a change."""


def _text(ko: str, en: str) -> dict[str, str]:
    return {"ko": ko, "en": en}


def _number(value: float, digits: int = CHART_DIGITS) -> float:
    rounded: float = chart_number(float(value), digits)
    return rounded


def _coordinate(value: float) -> float:
    """A coordinate to 0.001 (a hundredth of a pixel of the pictures)."""
    return round(float(value), 3) + 0.0


@functools.cache
def _threads() -> ThreadpoolController:
    """The BLAS libraries this process loaded: the lesson's small products run on one thread
    (several threads make them ten times slower, measured)."""
    return ThreadpoolController()


# --- The draw and its candidate targets --------------------------------------------------


@functools.cache
def picture_split() -> SimulationSplit:
    """Members, non-members and reference of :data:`PICTURE_SEED` (the simulation's own draw)."""
    return simulation_split(two_d_population(), seed=PICTURE_SEED)


@dataclass(frozen=True)
class Candidate:
    """One record the learner can make the target."""

    name: str
    """Its value of the ``target`` parameter (:data:`TARGETS`)."""
    member: bool
    """Whether the generator was trained on it."""
    row: int
    """Its row among the members or the non-members."""
    record: tuple[float, float]
    """Its coordinates."""


@functools.cache
def candidates() -> tuple[Candidate, ...]:
    """The five candidate targets, by the rule of the module docstring."""
    split = picture_split()
    release = split.release(epsilon=max(EPSILONS), rho=0.0)
    copies = np.bincount(release.source[release.copied], minlength=split.members.shape[0])
    _, near = nearest(release.records, split.nonmembers, DEFAULT_K)
    copies_near = (release.source[near] >= 0).sum(axis=1)
    kde = fit_kde(split.reference)
    member_density = kde_logpdf(kde, split.members)
    nonmember_density = kde_logpdf(kde, split.nonmembers)
    typical = float(np.median(np.r_[member_density, nonmember_density]))
    groups: list[tuple[bool, npt.NDArray[np.bool_]]] = [
        (True, copies >= 2),
        (True, copies == 1),
        (True, copies == 0),
        (False, copies_near == 0),
        (False, copies_near == copies_near.max()),
    ]
    chosen: list[Candidate] = []
    for name, (member, allowed) in zip(TARGETS, groups, strict=True):
        records = split.members if member else split.nonmembers
        density = member_density if member else nonmember_density
        rows = sorted(np.flatnonzero(allowed), key=lambda r: (abs(density[r] - typical), r))
        row = next(
            int(r)
            for r in rows
            if all(math.dist(records[r], c.record) >= CANDIDATE_GAP for c in chosen)
        )
        x, y = (float(v) for v in records[row])
        chosen.append(Candidate(name, member, row, (x, y)))
    return tuple(chosen)


def candidate(name: str) -> Candidate:
    """The candidate called ``name``."""
    return next(c for c in candidates() if c.name == name)


def panel_targets(target: str) -> tuple[Candidate, Candidate]:
    """The member and the non-member the field chart shows: the target and the other kind's
    first candidate."""
    chosen = candidate(target)
    first_member = next(c for c in candidates() if c.member)
    first_nonmember = next(c for c in candidates() if not c.member)
    return (chosen, first_nonmember) if chosen.member else (first_member, chosen)


@dataclass(frozen=True)
class Draw:
    """Everything the grid points of one (ε, ρ) read."""

    release: Release
    """The release of the picture seed at this (ε, ρ)."""
    member_scores: dict[float, FloatArray]
    """Per bandwidth multiple: every member's score, one column per ``k`` of :data:`KS`."""
    nonmember_scores: dict[float, FloatArray]
    """The same for the non-members."""
    terms: dict[float, NeighbourTerms]
    """Per bandwidth multiple: the candidates' neighbours and terms, up to the largest ``k``."""


@functools.cache
def draw(epsilon: float, rho: float) -> Draw:
    """Gen-LRA on the picture seed's release at (ε, ρ), at every bandwidth and ``k``."""
    if epsilon == 0 and rho != RHOS[0]:
        return draw(0.0, RHOS[0])  # nothing is copied: the same release for every ρ
    split = picture_split()
    release = split.release(epsilon=epsilon, rho=rho)
    targets = np.vstack([split.members, split.nonmembers])
    chosen = np.array([c.record for c in candidates()])
    members = split.members.shape[0]
    member_scores, nonmember_scores, terms = {}, {}, {}
    for bandwidth in BANDWIDTHS:
        method = SilvermanMultiple(bandwidth)
        scores = gen_lra_scores(targets, split.reference, release.records, k=KS, bw_method=method)
        member_scores[bandwidth], nonmember_scores[bandwidth] = scores[:members], scores[members:]
        terms[bandwidth] = gen_lra_terms(
            chosen, split.reference, release.records, k=max(KS), bw_method=method
        )
    return Draw(release, member_scores, nonmember_scores, terms)


@functools.cache
def kernel_scale(bandwidth: float) -> float:
    """The reference KDE's kernel width at ``bandwidth`` × Silverman, in units of the spread.

    The kernel's covariance is ``(m f)² Σ_R``; its root mean variance per coordinate,
    ``m f √(tr Σ_R / d)``, over the population's spread, can be set beside ρ.
    """
    split = picture_split()
    kde = fit_kde(split.reference, SilvermanMultiple(bandwidth))
    covariance = kde.cholesky @ kde.cholesky.T
    width = kde.factor * math.sqrt(float(np.trace(covariance)) / covariance.shape[0])
    return width / split.population.spread


# --- Rows of the charts ------------------------------------------------------------------


@functools.cache
def release_rows(epsilon: float, rho: float) -> list[dict[str, Any]]:
    """The synthetic records: position, and ``copy`` 1 for a copy of a member (absent: fresh)."""
    release = draw(epsilon, rho).release
    rows: list[dict[str, Any]] = []
    for (x, y), copied in zip(release.records, release.copied, strict=True):
        row: dict[str, Any] = {"x": _coordinate(x), "y": _coordinate(y)}
        if copied:
            row["copy"] = 1
        rows.append(row)
    return rows


def _copies_of(release: Release, chosen: Candidate) -> npt.NDArray[np.bool_]:
    """Which records of the release copy ``chosen`` (never, for a non-member)."""
    if not chosen.member:
        return np.zeros(release.records.shape[0], dtype=bool)
    return np.asarray(release.source == chosen.row)


def _neighbours(epsilon: float, rho: float, chosen: Candidate) -> npt.NDArray[np.intp]:
    """Rows of the largest-``k`` nearest synthetic records of ``chosen``, nearest first."""
    index = candidates().index(chosen)
    rows: npt.NDArray[np.intp] = draw(epsilon, rho).terms[DEFAULT_BANDWIDTH].neighbours[index]
    return rows


@functools.cache
def nearest_rows(epsilon: float, rho: float, target: str) -> list[dict[str, Any]]:
    """The target's nearest synthetic records (up to the largest ``k``), by rank."""
    chosen = candidate(target)
    release = draw(epsilon, rho).release
    rows = _neighbours(epsilon, rho, chosen)
    copies = _copies_of(release, chosen)
    return [
        {
            "rank": rank,
            "x": _coordinate(release.records[row, 0]),
            "y": _coordinate(release.records[row, 1]),
            "copy": int(copies[row]),
        }
        for rank, row in enumerate(rows, start=1)
    ]


@functools.cache
def terms_rows(epsilon: float, rho: float, bandwidth: float, target: str) -> list[dict[str, Any]]:
    """Each of the target's nearest synthetic records: its term and whether it copies the target."""
    chosen = candidate(target)
    current = draw(epsilon, rho)
    terms = current.terms[bandwidth].terms[candidates().index(chosen)]
    copies = _copies_of(current.release, chosen)[_neighbours(epsilon, rho, chosen)]
    return [
        {"rank": rank, "term": _number(term), "copy": int(copied)}
        for rank, (term, copied) in enumerate(zip(terms, copies, strict=True), start=1)
    ]


def target_score(epsilon: float, rho: float, k: int, bandwidth: float, target: str) -> float:
    """The candidate's Gen-LRA score: its first ``k`` terms summed."""
    terms = draw(epsilon, rho).terms[bandwidth].terms[candidates().index(candidate(target))]
    return float(terms[:k].sum())


@functools.cache
def scores_rows(epsilon: float, rho: float, k: int, bandwidth: float) -> list[dict[str, Any]]:
    """Member and non-member scores on shared bins (the last one open), and the candidates.

    A bin row has ``low``, ``high``, ``open`` and both counts; a candidate row (``c``) has
    its score and ``at``, where the chart marks it (the score, or the middle of the open
    bin for a score beyond it).
    """
    current = draw(epsilon, rho)
    column = KS.index(k)
    members = current.member_scores[bandwidth][:, column]
    nonmembers = current.nonmember_scores[bandwidth][:, column]
    lower = float(min(members.min(), nonmembers.min()))
    upper = histogram_upper(
        np.concatenate([members, nonmembers]), HISTOGRAM_BINS, HISTOGRAM_QUANTILE, lower=lower
    )
    histogram = common_histogram(members, nonmembers, HISTOGRAM_BINS, upper, lower=lower)
    width = float(histogram.edges[1] - histogram.edges[0])
    rows: list[dict[str, Any]] = [
        {
            "low": _number(edge, 6),
            "high": _number(edge + width, 6),
            "open": int(index == HISTOGRAM_BINS - 1),
            "member": int(histogram.counts_a[index]),
            "nonmember": int(histogram.counts_b[index]),
        }
        for index, edge in enumerate(histogram.edges)
    ]
    last = float(histogram.edges[-1])
    for chosen in candidates():
        score = target_score(epsilon, rho, k, bandwidth, chosen.name)
        at = score if score < last + width else last + width / 2
        rows.append({"c": chosen.name, "score": _number(score), "at": _number(at, 6)})
    return rows


def field_offsets() -> FloatArray:
    """The cell centres' offsets from the target along one axis (the middle one is 0)."""
    step = 2 * FIELD_HALF_WIDTH / FIELD_CELLS
    return np.asarray((np.arange(FIELD_CELLS) - FIELD_CELLS // 2) * step, dtype=np.float64)


@functools.cache
def field_values(bandwidth: float, target: str) -> FloatArray:
    """The score field of ``target`` on the cell centres, ``FIELD_CELLS²`` values, row by row
    (``j`` is the row, along x₂; ``i`` the column, along x₁)."""
    chosen = candidate(target)
    offsets = field_offsets()
    across, up = np.meshgrid(offsets, offsets)
    points = np.column_stack([across.ravel(), up.ravel()]) + np.array(chosen.record)
    return gen_lra_field(
        chosen.record, picture_split().reference, points, bw_method=SilvermanMultiple(bandwidth)
    )


@functools.cache
def field_rows(bandwidth: float, target: str) -> list[dict[str, Any]]:
    """The score field of ``target`` as cells ``i`` (column), ``j`` (row) and value ``v``."""
    values = field_values(bandwidth, target)
    return [
        {"i": index % FIELD_CELLS, "j": index // FIELD_CELLS, "v": _number(value, FIELD_DIGITS)}
        for index, value in enumerate(values)
    ]


@functools.cache
def field_nearest_rows(epsilon: float, rho: float, target: str) -> list[dict[str, Any]]:
    """The nearest synthetic records of both panels' targets, as offsets from each target.

    ``p`` is the panel (``member`` or ``nonmember``), ``c`` its candidate; ``copy`` 1 for a
    copy of that candidate.
    """
    rows = []
    release = draw(epsilon, rho).release
    for panel, chosen in zip(("member", "nonmember"), panel_targets(target), strict=True):
        copies = _copies_of(release, chosen)
        for rank, row in enumerate(_neighbours(epsilon, rho, chosen), start=1):
            dx, dy = release.records[row] - np.array(chosen.record)
            rows.append(
                {
                    "p": panel,
                    "c": chosen.name,
                    "rank": rank,
                    "x": _coordinate(dx),
                    "y": _coordinate(dy),
                    "copy": int(copies[row]),
                }
            )
    return rows


@functools.cache
def outline_rows(rho: float, bandwidth: float) -> list[dict[str, Any]]:
    """Around a target (as offsets): the kernel's 1σ ellipse and the copy noise's 1σ circle.

    The reference KDE's kernel at ``bandwidth`` × Silverman has covariance
    ``(m f)² Σ_R = (m f L)(m f L)ᵀ``: its ellipse is the unit circle mapped by ``m f L``.
    The copy noise is isotropic with standard deviation ``ρ · spread``, absent at ρ = 0.
    """
    split = picture_split()
    angles = np.linspace(0.0, 2 * math.pi, ELLIPSE_POINTS + 1)
    unit = np.vstack([np.cos(angles), np.sin(angles)])
    kde = fit_kde(split.reference, SilvermanMultiple(bandwidth))
    shapes = [("kernel", kde.factor * kde.cholesky @ unit)]
    if rho > 0:
        shapes.append(("noise", rho * split.population.spread * unit))
    return [
        {"shape": shape, "order": i, "x": _coordinate(x), "y": _coordinate(y)}
        for shape, outline in shapes
        for i, (x, y) in enumerate(outline.T)
    ]


# --- One grid point ----------------------------------------------------------------------


def chance_range() -> tuple[float, float]:
    """``0.5 ± 2σ₀``: the AUCs that scores without any information give as often as not."""
    split = picture_split()
    spread = chance_auc_spread(split.members.shape[0], split.nonmembers.shape[0])
    return 0.5 - 2 * spread, 0.5 + 2 * spread


def power_of_ten_above(value: float) -> str:
    """The smallest power of ten at least ``value`` (above 1e-16), as the page writes it.

    >>> power_of_ten_above(3.2e-14), power_of_ten_above(0.0)
    ('10⁻¹³', '10⁻¹⁶')
    """
    exponent = max(-16, math.ceil(math.log10(value))) if value > 0 else -16
    digits = str(abs(exponent)).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"10{'⁻' if exponent < 0 else ''}{digits}"


def refit_difference(epsilon: float, rho: float, k: int, bandwidth: float, target: str) -> float:
    """How far the target's score lies from SciPy's KDE refitted with the target added."""
    split = picture_split()
    chosen = candidate(target)
    refit = refitted_gen_lra_scores(
        np.array([chosen.record]),
        split.reference,
        draw(epsilon, rho).release.records,
        k=k,
        bw_method=SilvermanMultiple(bandwidth),
    )
    return abs(float(refit[0]) - target_score(epsilon, rho, k, bandwidth, target))


def compute(*, epsilon: float, rho: float, k: int, bandwidth: float, target: str) -> dict[str, Any]:
    """Every readout and dataset at one grid point; see the module docstring."""
    with _threads().limit(limits=1, user_api="blas"):
        return _compute(epsilon, rho, k, bandwidth, target)


def _compute(epsilon: float, rho: float, k: int, bandwidth: float, target: str) -> dict[str, Any]:
    current = draw(epsilon, rho)
    chosen = candidate(target)
    column = KS.index(k)
    members = current.member_scores[bandwidth][:, column]
    nonmembers = current.nonmember_scores[bandwidth][:, column]
    score = target_score(epsilon, rho, k, bandwidth, target)
    neighbours = _neighbours(epsilon, rho, chosen)[:k]
    copies = _copies_of(current.release, chosen)
    member_panel, nonmember_panel = panel_targets(target)
    low, high = chance_range()
    measured = auc(members, nonmembers)
    readouts: dict[str, Any] = {
        "copy_count": int(current.release.copied.sum()),
        "target_kind": _text("포함 표본", "member")
        if chosen.member
        else _text("미포함 표본", "non-member"),
        "target_copies": int(copies.sum()),
        "neighbour_copies": int(copies[neighbours].sum()),
        "kernel_scale": kernel_scale(bandwidth),
        "field_peak": float(field_values(bandwidth, target)[FIELD_CELLS**2 // 2]),
        "target_score": score,
        "member_panel_score": target_score(epsilon, rho, k, bandwidth, member_panel.name),
        "nonmember_panel_score": target_score(epsilon, rho, k, bandwidth, nonmember_panel.name),
        "target_tpr": float(np.mean(members >= score)),
        "target_fpr": float(np.mean(nonmembers >= score)),
        "auc": measured,
        "chance_place": _text("안", "inside")
        if low <= measured <= high
        else _text("밖", "outside"),
        "chance_range": f"{low:.3f}–{high:.3f}",
        "refit_difference": power_of_ten_above(
            refit_difference(epsilon, rho, k, bandwidth, target)
        ),
    }
    datasets = {
        "release": release_rows(epsilon, rho),
        "nearest": nearest_rows(epsilon, rho, target),
        "terms": terms_rows(epsilon, rho, bandwidth, target),
        "scores": scores_rows(epsilon, rho, k, bandwidth),
        "field_member": field_rows(bandwidth, member_panel.name),
        "field_nonmember": field_rows(bandwidth, nonmember_panel.name),
        "field_nearest": field_nearest_rows(epsilon, rho, target),
        "outline": outline_rows(rho, bandwidth),
    }
    return {"readouts": readouts, "datasets": datasets}


# --- The checks: invariance and the shortcut, on three seeds -----------------------------


def checks_study(seed: int) -> dict[str, Any]:
    """The invariance demonstration and Gen-LRA's shortcut against SciPy refits, on one seed."""
    shown = demonstrate_invariance(seed=seed, epsilon=CHECK_EPSILON, rho=CHECK_RHO)
    split = simulation_split(two_d_population(), seed=seed)
    half = CHECK_TARGETS // 2
    targets = np.vstack([split.members[:half], split.nonmembers[:half]])
    reference = split.reference
    synthetic = split.release(epsilon=CHECK_EPSILON, rho=CHECK_RHO).records
    shortcut = []
    for bandwidth in CHECK_BANDWIDTHS:
        method = SilvermanMultiple(bandwidth)
        fast = gen_lra_scores(targets, reference, synthetic, k=max(KS), bw_method=method)
        refit = refitted_gen_lra_scores(targets, reference, synthetic, k=max(KS), bw_method=method)
        shortcut.append(
            {
                "bandwidth": bandwidth,
                "difference": float(np.max(np.abs(fast - refit))),
                "largest": float(np.max(np.abs(refit))),
            }
        )
    neighbours = shown.neighbours_unit_change
    return {
        "true_ratio_change": shown.true_ratio_exp.max_ratio_change,
        "true_density_change": shown.true_ratio_exp.max_density_change,
        "bracket_affine_change": shown.bracket_affine.max_abs_change,
        "bracket_exp_change": shown.bracket_exp.max_abs_change,
        "bracket_scale": shown.bracket_affine.max_abs_bracket,
        "changed_neighbour_sets": neighbours.changed_neighbour_sets,
        "auc_before": neighbours.auc_before,
        "auc_after": neighbours.auc_after,
        "score_change": neighbours.max_abs_score_change,
        "shortcut": shortcut,
    }


def study(*, experiment: str, seed: int) -> dict[str, Any]:
    """One point of ``STUDY`` (its only experiment is ``checks``)."""
    if experiment != "checks":
        raise ValueError(f"unknown experiment {experiment!r}; the study runs 'checks'")
    with _threads().limit(limits=1, user_api="blas"):
        return checks_study(seed)


# --- Whole-lesson datasets ---------------------------------------------------------------


def _checks(study_values: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [study_values[STUDY.key({"experiment": "checks", "seed": s})] for s in CHECK_SEEDS]


def shortcut_rows(study_values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """How far Gen-LRA's shortcut lies from SciPy refits, per seed and bandwidth."""
    return [
        {
            "seed": seed,
            "bandwidth": f"{row['bandwidth']:g}×",
            "targets": CHECK_TARGETS,
            "difference": row["difference"],
            "largest": row["largest"],
        }
        for seed, check in zip(CHECK_SEEDS, _checks(study_values), strict=True)
        for row in check["shortcut"]
    ]


def _verdict(change: float, size: float) -> dict[str, str]:
    if change <= ROUNDING * max(1.0, size):
        return _text("불변 (반올림 오차 수준)", "invariant (rounding only)")
    return _text("변함", "changes")


def invariance_rows(study_values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the invariance claim covers: the largest change over the seeds, case by case."""
    checks = _checks(study_values)

    def largest(field: str) -> float:
        return float(max(c[field] for c in checks))

    scale = min(c["bracket_scale"] for c in checks)
    changed = 100 * largest("changed_neighbour_sets")
    before, after = checks[0]["auc_before"], checks[0]["auc_after"]
    return [
        {
            "case": _text("참 밀도의 로그 비, 좌표마다 exp", "True densities' log ratio, exp"),
            "change": largest("true_ratio_change"),
            "compare": _text(
                f"밀도 하나는 최대 {largest('true_density_change'):.2f} 변함",
                f"one density alone moves by up to {largest('true_density_change'):.2f}",
            ),
            "verdict": _verdict(largest("true_ratio_change"), largest("true_density_change")),
        },
        {
            "case": _text(
                "KDE 괄호, 이웃 고정, 아핀 사상", "KDE bracket, fixed neighbours, affine"
            ),
            "change": largest("bracket_affine_change"),
            "compare": _text(f"괄호 크기 최대 {scale:.3f}", f"brackets up to {scale:.3f}"),
            "verdict": _verdict(largest("bracket_affine_change"), scale),
        },
        {
            "case": _text("KDE 괄호, 이웃 고정, exp", "KDE bracket, fixed neighbours, exp"),
            "change": largest("bracket_exp_change"),
            "compare": _text(f"괄호 크기 최대 {scale:.3f}", f"brackets up to {scale:.3f}"),
            "verdict": _verdict(largest("bracket_exp_change"), scale),
        },
        {
            "case": _text("Gen-LRA 전체, 첫 좌표만 10배", "Whole Gen-LRA, first coordinate × 10"),
            "change": largest("score_change"),
            "compare": _text(
                f"이웃이 바뀐 표적 최대 {changed:.0f} %, AUC {before:.3f} → {after:.3f} (시드 1)",
                f"neighbours changed for up to {changed:.0f} % of targets, AUC "
                f"{before:.3f} → {after:.3f} (seed 1)",
            ),
            "verdict": _verdict(largest("score_change"), scale),
        },
    ]


def setup_rows() -> list[dict[str, Any]]:
    """The sizes of the simulated draw."""
    split = picture_split()
    return [
        {"quantity": _text("포함 표본 (생성기의 학습 데이터)", "Members (training data)"),
         "count": split.members.shape[0]},
        {"quantity": _text("미포함 표본", "Non-members"), "count": split.nonmembers.shape[0]},
        {"quantity": _text("참조 표본 (감사자의 것)", "Reference sample (the auditor's)"),
         "count": split.reference.shape[0]},
        {"quantity": _text("합성 기록 (공개본)", "Synthetic records (the release)"),
         "count": split.synthetic_size},
    ]  # fmt: skip


def candidate_rows() -> list[dict[str, Any]]:
    """Where each candidate target sits (the release picture draws and labels them)."""
    return [
        {"c": c.name, "x": _coordinate(c.record[0]), "y": _coordinate(c.record[1])}
        for c in candidates()
    ]


def summarize(
    results: Mapping[str, dict[str, Any]], study_values: Mapping[str, Any]
) -> dict[str, list[dict[str, Any]]]:
    """The datasets that are the same at every point: the candidates and the three tables."""
    del results  # every per-point dataset is the point's own
    return {
        "candidates": candidate_rows(),
        "setup": setup_rows(),
        "shortcut": shortcut_rows(study_values),
        "invariance": invariance_rows(study_values),
    }


# --- What the page shows -----------------------------------------------------------------

GRID = Grid(
    (
        Param("epsilon", EPSILONS, DEFAULT_EPSILON, _text("과적합 강도 ε", "Overfitting ε")),
        Param("rho", RHOS, DEFAULT_RHO, _text("기억 규모 ρ", "Memorization scale ρ")),
        Param("k", KS, DEFAULT_K, _text("이웃 수 k", "Neighbours k")),
        Param(
            "bandwidth",
            BANDWIDTHS,
            DEFAULT_BANDWIDTH,
            _text("대역폭 (실버먼 배수)", "Bandwidth (× Silverman)"),
            value_labels={
                "ko": tuple(f"{m:g}×" for m in BANDWIDTHS),
                "en": tuple(f"{m:g}×" for m in BANDWIDTHS),
            },
        ),
        Param(
            "target",
            TARGETS,
            DEFAULT_TARGET,
            _text("표적", "Target"),
            value_labels={
                "ko": tuple(charts.TARGET_NAMES[t]["ko"] for t in TARGETS),
                "en": tuple(charts.TARGET_NAMES[t]["en"] for t in TARGETS),
            },
        ),
    ),
    # a worker draws every ρ of one ε once (memoized)
    group_by=("epsilon",),
)

STUDY = Grid(
    (
        Param("experiment", ("checks",), "checks", _text("실험", "Experiment")),
        Param("seed", CHECK_SEEDS, CHECK_SEEDS[0], _text("시드", "Seed")),
    )
)

LAZY: tuple[str, ...] = (
    "field_member",
    "field_nearest",
    "field_nonmember",
    "nearest",
    "outline",
    "release",
    "scores",
    "terms",
)
"""Per-point rows loaded when a control first needs them, not with the page."""

COPIES, COPY = _text("개", "copies"), _text("개", "copy")

READOUTS: tuple[Readout, ...] = (
    Readout("copy_count", _text("공개본 속 복사본 수", "Copies in the release"), "d", COPIES,
            unit_one=COPY),
    Readout("target_kind", _text("표적의 종류", "What the target is")),
    Readout("target_copies", _text("표적의 복사본 수", "Copies of the target"), "d", COPIES,
            unit_one=COPY),
    Readout(
        "neighbour_copies",
        _text("k개 이웃 가운데 표적의 복사본", "Copies of the target among its k nearest"),
        "d",
        COPIES,
        unit_one=COPY,
    ),
    Readout("kernel_scale", _text("커널 폭 (퍼짐 단위)", "Kernel width (spread units)"), ".2f"),
    Readout("field_peak", _text("표적 자리의 점수장 값", "Score field at the target"), ".3f"),
    Readout("target_score", _text("표적의 Gen-LRA 점수", "Target's Gen-LRA score"), ".3f",
            announce=True),
    Readout("member_panel_score", _text("포함 표본 쪽 점수", "Member panel's score"), ".3f"),
    Readout("nonmember_panel_score", _text("미포함 표본 쪽 점수", "Non-member panel's score"),
            ".3f"),
    Readout("target_tpr", _text("표적 점수 이상인 포함 표본", "Members scoring as high"), ".0%"),
    Readout("target_fpr", _text("표적 점수 이상인 미포함 표본", "Non-members scoring as high"),
            ".0%"),
    Readout("auc", _text("이 공개본에서 Gen-LRA의 AUC", "Gen-LRA's AUC on this release"), ".3f"),
    Readout("chance_place", _text("AUC가 우연 범위 안인지", "Whether the AUC is within chance")),
    Readout("chance_range", _text("AUC의 우연 범위", "The AUC's chance range")),
    Readout(
        "refit_difference",
        _text("SciPy 재적합과의 차이 (상한)", "Difference from a SciPy refit (at most)"),
    ),
)  # fmt: skip


def _column(field: str, ko: str, en: str, format: str = "") -> Column:
    return Column(field, _text(ko, en), format)


TABLES: tuple[Table, ...] = (
    Table(
        "setup",
        (_column("quantity", "무엇", "What"), _column("count", "기록 수", "Records", ",d")),
        _text("시뮬레이션 한 벌의 크기", "The sizes of the simulated draw"),
        row_headers=True,
    ),
    Table(
        "shortcut",
        (
            _column("seed", "시드", "Seed", "d"),
            _column("bandwidth", "대역폭", "Bandwidth"),
            _column("targets", "표적", "Targets", "d"),
            _column("difference", "가장 큰 차이", "Largest difference", ".1e"),
            _column("largest", "가장 큰 점수", "Largest score", ".3g"),
        ),
        _text(
            f"지름길과 표적마다 다시 적합한 SciPy (ε = {CHECK_EPSILON:g}, ρ = {CHECK_RHO:g}, "
            f"k = {max(KS)})",
            f"The shortcut against SciPy refitted per target (ε = {CHECK_EPSILON:g}, "
            f"ρ = {CHECK_RHO:g}, k = {max(KS)})",
        ),
    ),
    Table(
        "invariance",
        (
            _column("case", "무엇을 어떻게 바꿨나", "What, under which map"),
            _column("change", "가장 큰 변화", "Largest change", ".2g"),
            _column("compare", "비교할 크기", "For comparison"),
            _column("verdict", "결론", "Verdict"),
        ),
        _text(
            "불변성 주장이 성립하는 범위 (세 시드 가운데 가장 큰 변화)",
            "How far the invariance claim holds (largest change over three seeds)",
        ),
        row_headers=True,
    ),
)


def picture_facts() -> charts.PictureFacts:
    """What the charts are built around: the candidates' places and the chance range."""
    return charts.PictureFacts(
        candidates={c.name: c.record for c in candidates()},
        members=tuple(c.name for c in candidates() if c.member),
    )


CHARTS = charts.make_charts(picture_facts())
