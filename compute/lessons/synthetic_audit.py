"""Lesson 05, auditing a synthetic data release: Gen-LRA and its rivals.

Two experiments, both run by the library (:mod:`compute.audit_experiments`,
:mod:`compute.generator_audit`, :mod:`compute.invariance`); this module only
picks the points, memoizes the draws and shapes the results for the page.

The grid: a generator that memorizes
    For every (ε, ρ) of the grid and each of the three :data:`SEEDS`,
    :func:`~compute.audit_experiments.run_simulation` draws members,
    non-members and a reference sample from the 2-D population
    (:func:`~compute.synthetic.two_d_population`) and a release of 400
    records, each a copy of a member plus ``N(0, (ρ · spread)² I)`` noise with
    probability ε and a fresh draw otherwise. Every attack of
    :data:`compute.attacks.ATTACKS` runs on it; Gen-LRA and the KDE rivals
    (DOMIAS, density) at every bandwidth multiple, Gen-LRA at every ``k``.
    A grid point (ε, ρ, k, bandwidth) reads the variants it names from the
    three draws of its (ε, ρ): the mean and the range over the seeds.
    At ε = 0 nothing is copied and the release is the same for every ρ
    (common random numbers), so one draw per seed serves them all
    (:func:`~compute.audit_experiments.relabel_rho`).
Grouping
    ``GRID`` groups the points by ε (``group_by``): a worker draws every ρ of
    one ε once (:func:`simulation`, memoized), which the curves against ρ
    (``sweep``) and the heat map over ρ and bandwidth (``advantage``) need at
    every point. The five groups split evenly over two workers (ε = 0 needs
    three draws, every other ε twenty-one). The score gap against ε crosses
    the groups: each point returns its gap (``score_gap``, not drawn) and
    :func:`summarize` fits the line per (ρ, k, bandwidth) (:func:`gap_rows`).
The picture
    Seed :data:`PICTURE_SEED` is drawn in 2-D: its release at the current
    (ε, ρ) and one target, the member copied most often at the largest ε
    (:func:`picture_target`); with common random numbers its copies at a
    smaller ε are a subset of those. Its ``k`` nearest synthetic records are
    those Gen-LRA sums over. The zoomed panel draws the kernel of the
    reference KDE (covariance ``(m f)² Σ_R``, its 1-standard-deviation
    ellipse) and the circle of radius ``ρ · spread`` of the copying noise.
The study: real generators, a higher dimension, two checks
    ``STUDY`` runs each of the 16 :data:`~compute.generators.GENERATOR_SETTINGS`
    on the deduplicated concrete data for seeds 1–3
    (:func:`~compute.generator_audit.run_generator_setting`: disjoint
    member, non-member, reference and test splits; Gen-LRA at ``k`` = 5 and
    Silverman's bandwidth; utility as test R²); the 8-D simulation at
    ε = :data:`HIGH_D_EPSILON` for three ρ; and ``checks``: the invariance
    demonstration and Gen-LRA's exact shortcut against SciPy refits.
Page weight
    Readouts are only what changes with the controls; everything that is the
    same on every point (sizes, resolutions of the FPR, the study, what the
    build found) is in tables from :func:`summarize`, which cost the page data
    nothing per point. The per-point rows of the charts are ``LAZY``: the page
    loads them in chunks when a control first needs them. The whole-grid rows
    that ship with the page (the gap lines) carry :data:`SUMMARY_DIGITS`.
Chart rows
    carry 4 significant digits (:func:`privacy_explorer.lesson.chart_number`),
    the picture's coordinates 3 decimals; readouts keep full precision.
Sentences
    The verdicts the page prints (:func:`comparison`, the ``findings`` and
    ``claims`` tables) are written from the measured numbers, so that they
    stay true whatever a rebuild measures.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from privacy_explorer.compute.attacks import (
    ATTACKS,
    chance_auc_spread,
    fit_kde,
    zero_fpr_upper_bound,
)
from privacy_explorer.compute.attacks.gen_lra import gen_lra_scores, refitted_gen_lra_scores
from privacy_explorer.compute.audit_experiments import (
    BANDWIDTH_MULTIPLES,
    FPR_LEVELS,
    GEN_LRA,
    KDE_RIVALS,
    SIMULATION_EPSILONS,
    SIMULATION_KS,
    SIMULATION_RHOS,
    SIMULATION_SEEDS,
    AttackOutcome,
    SeedSummary,
    SilvermanMultiple,
    SimulationResult,
    first_place_shares,
    fit_line,
    most_copied_member,
    relabel_rho,
    run_simulation,
    seed_summary,
    synthetic_neighbours,
)
from privacy_explorer.compute.generator_audit import (
    GENERATOR_SEEDS,
    concrete_split,
    run_generator_setting,
)
from privacy_explorer.compute.generators import GENERATOR_SETTINGS, setting_by_key
from privacy_explorer.compute.histogram import common_histogram, histogram_upper
from privacy_explorer.compute.invariance import demonstrate_invariance
from privacy_explorer.compute.lessons import synthetic_audit_charts as charts
from privacy_explorer.compute.synthetic import SimulationSplit, simulation_split, two_d_population
from privacy_explorer.lesson import Column, Grid, Param, Readout, Table, Text, chart_number

DATA_FILES: tuple[str, ...] = ("concrete.csv",)

FloatArray = npt.NDArray[np.float64]

EPSILONS = SIMULATION_EPSILONS
RHOS = SIMULATION_RHOS
KS = SIMULATION_KS
BANDWIDTHS = BANDWIDTH_MULTIPLES
SEEDS = SIMULATION_SEEDS
DEFAULT_EPSILON = 0.4
DEFAULT_RHO = 0.1
DEFAULT_K = 5
DEFAULT_BANDWIDTH = 1.0
PICTURE_SEED = 1
"""The seed whose release, scores and target the pictures show."""
SWEEP_FPR = 0.01
"""The FPR at which the curves against ρ read each attack's TPR."""
HISTOGRAM_BINS = 16
HISTOGRAM_QUANTILE = 0.95
"""The score histogram: 15 equal bins from the smallest score, reaching this quantile, and an
overflow bin."""
CHART_DIGITS = 4
"""Significant digits of a point's chart rows (AUCs and TPRs to 0.0001, coordinates to 0.001)."""
SUMMARY_DIGITS = 3
"""Significant digits of the whole-grid rows, which ship with the page: the eye needs no more."""
RANGE_DIGITS = 2
"""Significant digits of the ends of a seed range drawn as a line (its ends only)."""
ELLIPSE_POINTS = 24
"""Vertices of the kernel ellipse and the noise circle in the zoomed picture."""
HIGH_D = 8
HIGH_D_EPSILON = 0.4
HIGH_D_RHOS: tuple[float, ...] = (0.0, 0.1, 0.4)
HIGH_D_KS: tuple[int, ...] = (5, 20)
HIGH_D_BANDWIDTHS: tuple[float, ...] = (0.25, 1.0)
HIGH_D_ATTACKS: tuple[str, ...] = (GEN_LRA, "dcr", "domias")
"""The attacks the 8-D table compares (the others are not run there)."""
CHECK_EPSILON, CHECK_RHO = 0.4, 0.2
"""The release of the invariance demonstration and of the shortcut check."""
CHECK_TARGETS = 40
"""Targets (the first half members, the second non-members) refitted with SciPy per check."""
R2_STRAIGHT = 0.9
"""A score-gap line with at least this R² is called straight on the page."""
CONFIDENCE = 0.95

AUTHORS_REPORT: dict[str, float] = {
    "datasets": 35,
    "generators": 9,
    "rivals": 9,
    "configurations": 1525,
    "first_auc": 0.38,
    "first_tpr0": 0.42,
}
"""Numbers Ward, Wang and Cheng (2025) report for their benchmark (not verified here)."""

ATTACK_KEYS: tuple[str, ...] = tuple(ATTACKS)
SHORT_NAMES: Mapping[str, Text] = charts.ATTACK_NAMES
"""The attacks' names on this page (the registry holds the long ones)."""


def _text(ko: str, en: str) -> dict[str, str]:
    return {"ko": ko, "en": en}


def _number(value: float, digits: int = CHART_DIGITS) -> float:
    rounded: float = chart_number(float(value), digits)
    return rounded


def _coordinate(value: float) -> float:
    """A coordinate of the picture, to 0.001: a hundredth of a pixel of the zoomed panel."""
    return round(float(value), 3) + 0.0


# --- The simulation draws, memoized per worker ----------------------------------------


@functools.cache
def simulation(epsilon: float, rho: float, seed: int) -> SimulationResult:
    """Every attack on the draw (ε, ρ, seed); at ε = 0 the draw at the first ρ, relabelled."""
    if epsilon == 0 and rho != RHOS[0]:
        return relabel_rho(simulation(0.0, RHOS[0], seed), rho)
    return run_simulation(epsilon, rho, seed=seed)


def variant(attack: str, k: int, bandwidth: float) -> dict[str, Any]:
    """Which variant of ``attack`` a grid point reads: ``k`` and bandwidth where it has them."""
    if attack == GEN_LRA:
        return {"k": k, "bandwidth_multiple": bandwidth}
    if attack in KDE_RIVALS:
        return {"bandwidth_multiple": bandwidth}
    return {}


@functools.cache
def picture_split() -> SimulationSplit:
    """The split of :data:`PICTURE_SEED` (the members and reference every picture shows).

    The same draw as :func:`~compute.audit_experiments.run_simulation`'s for that
    seed (the same population, sizes and seed), without running any attack.
    """
    return simulation_split(two_d_population(), seed=PICTURE_SEED)


@functools.cache
def picture_target() -> int:
    """The member row copied most often by the release at the largest ε (seed 1)."""
    return most_copied_member(picture_split().release(epsilon=EPSILONS[-1], rho=RHOS[0]))


@functools.cache
def kernel_scale(bandwidth: float) -> float:
    """The reference KDE's kernel width at ``bandwidth`` × Silverman, in units of the spread.

    The kernel's covariance is ``(m f)² Σ_R``; its root mean variance per
    coordinate, ``m f √(tr Σ_R / d)``, divided by the population's spread, can
    be set beside ρ (the copying noise in the same unit).
    """
    split = picture_split()
    kde = fit_kde(split.reference, SilvermanMultiple(bandwidth))
    covariance = kde.cholesky @ kde.cholesky.T
    width = kde.factor * math.sqrt(float(np.trace(covariance)) / covariance.shape[0])
    return width / split.population.spread


# --- One grid point -------------------------------------------------------------------


def _summaries(
    outcomes: Sequence[AttackOutcome],
) -> tuple[SeedSummary, dict[float, SeedSummary]]:
    auc = seed_summary(o.auc for o in outcomes)
    tpr = {fpr: seed_summary(o.tpr[fpr] for o in outcomes) for fpr in FPR_LEVELS}
    return auc, tpr


def board_rows(
    aucs: Mapping[str, SeedSummary], tprs: Mapping[str, Mapping[float, SeedSummary]]
) -> list[dict[str, Any]]:
    """One row per attack: mean AUC and its range over the seeds, mean TPR at each FPR, and the
    range of the TPR at :data:`SWEEP_FPR`."""
    rows = []
    for attack in ATTACK_KEYS:
        auc, tpr = aucs[attack], tprs[attack]
        rows.append(
            {
                "attack": attack,
                "auc": _number(auc.mean),
                "auc_low": _number(auc.low),
                "auc_high": _number(auc.high),
                "tpr_at_0": _number(tpr[0.0].mean),
                "tpr_at_0_001": _number(tpr[0.001].mean),
                "tpr_at_0_01": _number(tpr[0.01].mean),
                "tpr_at_0_1": _number(tpr[0.1].mean),
                "tpr_low": _number(tpr[SWEEP_FPR].low),
                "tpr_high": _number(tpr[SWEEP_FPR].high),
            }
        )
    return rows


def score_histogram(
    members: FloatArray, nonmembers: FloatArray, target: float
) -> list[dict[str, Any]]:
    """Member and non-member scores on shared bins from the lowest score; the last bin is open.

    Each row is a bin ``[low, high)`` with both counts; ``target`` marks the bin
    holding the target's score.
    """
    lower = float(min(members.min(), nonmembers.min()))
    scores = np.concatenate([members, nonmembers])
    upper = histogram_upper(scores, HISTOGRAM_BINS, HISTOGRAM_QUANTILE, lower=lower)
    histogram = common_histogram(members, nonmembers, HISTOGRAM_BINS, upper, lower=lower)
    width = float(histogram.edges[1] - histogram.edges[0])
    target_bin = min(int((target - lower) // width), HISTOGRAM_BINS - 1)
    return [
        {
            "low": _number(edge, 6),
            "high": _number(edge + width, 6),
            "open": int(index == HISTOGRAM_BINS - 1),
            "member": int(histogram.counts_a[index]),
            "nonmember": int(histogram.counts_b[index]),
            "target": int(index == target_bin),
        }
        for index, edge in enumerate(histogram.edges)
    ]


@functools.cache
def release_rows(epsilon: float, rho: float) -> list[dict[str, Any]]:
    """Seed 1's synthetic records: position, whether a copy, and their rank near the target.

    ``copy`` is 1 for a copy of a member and ``rank`` 1 for the nearest
    synthetic record to the target, up to the largest ``k`` of the grid
    (Gen-LRA's order: distance, then row); rows without them are fresh draws
    farther away.
    The same at every ``k`` and bandwidth, so it is built once per (ε, ρ).
    """
    draw = simulation(epsilon, rho, PICTURE_SEED)
    release = draw.release
    order = synthetic_neighbours(release, draw.split.members[picture_target()], max(KS))[0]
    rank = np.zeros(release.records.shape[0], dtype=int)
    rank[order] = np.arange(1, order.size + 1)
    rows: list[dict[str, Any]] = []
    for (x, y), copied, r in zip(release.records, release.copied, rank, strict=True):
        row: dict[str, Any] = {"x": _coordinate(x), "y": _coordinate(y)}
        if copied:  # absent means a fresh draw (most rows): the page data stays small
            row["copy"] = 1
        if r:  # absent means farther than the largest k
            row["rank"] = int(r)
        rows.append(row)
    return rows


@functools.cache
def outline_rows(rho: float, bandwidth: float) -> list[dict[str, Any]]:
    """The zoomed picture's outlines around the target: the kernel and the copy noise.

    The kernel of the reference KDE at ``bandwidth`` × Silverman has covariance
    ``(m f)² Σ_R = (m f L)(m f L)ᵀ``; its 1-standard-deviation ellipse is the
    unit circle mapped by ``m f L``. The copy noise is isotropic with standard
    deviation ``ρ · spread``: a circle, absent at ρ = 0 (exact copies).
    """
    split = picture_split()
    target = split.members[picture_target()]
    angles = np.linspace(0.0, 2 * math.pi, ELLIPSE_POINTS + 1)
    unit = np.vstack([np.cos(angles), np.sin(angles)])
    kde = fit_kde(split.reference, SilvermanMultiple(bandwidth))
    shapes = [("kernel", target[:, None] + kde.factor * kde.cholesky @ unit)]
    if rho > 0:
        shapes.append(("noise", target[:, None] + rho * split.population.spread * unit))
    return [
        {"shape": shape, "order": i, "x": _coordinate(x), "y": _coordinate(y)}
        for shape, outline in shapes
        for i, (x, y) in enumerate(outline.T)
    ]


def _best(values: Mapping[str, float]) -> str:
    """The attack with the highest value (the first in registry order on a tie)."""
    return max(ATTACK_KEYS, key=lambda attack: (values[attack], -ATTACK_KEYS.index(attack)))


def comparison(aucs: Mapping[str, SeedSummary], chance_high: float) -> dict[str, Any]:
    """Gen-LRA against the strongest rival here, as short readouts the page's sentence joins.

    ``rival_attack`` and ``rival_auc`` name the rival with the highest mean AUC;
    ``gen_lra_lead`` is Gen-LRA's mean AUC minus the rival's (negative when
    Gen-LRA trails); ``seed_overlap`` says whether the two ranges over the
    seeds overlap, and ``chance_place`` whether the highest mean AUC of all
    lies inside the chance range (below ``chance_high``).
    """
    rival = strongest_rival(aucs)
    gen, other = aucs[GEN_LRA], aucs[rival]
    overlap = other.low <= gen.high and gen.low <= other.high
    inside = max(summary.mean for summary in aucs.values()) < chance_high
    return {
        "rival_attack": SHORT_NAMES[rival],
        "rival_auc": other.mean,
        "gen_lra_lead": gen.mean - other.mean,
        "seed_overlap": _text("겹친다", "overlap")
        if overlap
        else _text("겹치지 않는다", "do not overlap"),
        "chance_place": _text("안에", "inside") if inside else _text("밖에", "outside"),
    }


@functools.cache
def attack_summaries(
    epsilon: float, rho: float, k: int, bandwidth: float
) -> tuple[dict[str, SeedSummary], dict[str, dict[float, SeedSummary]]]:
    """Each attack's AUC and TPRs over the seeds at one grid point (the variant it names)."""
    draws = [simulation(epsilon, rho, seed) for seed in SEEDS]
    aucs: dict[str, SeedSummary] = {}
    tprs: dict[str, dict[float, SeedSummary]] = {}
    for attack in ATTACK_KEYS:
        chosen = variant(attack, k, bandwidth)
        aucs[attack], tprs[attack] = _summaries([d.outcome(attack, **chosen) for d in draws])
    return aucs, tprs


def sweep_rows(epsilon: float, k: int, bandwidth: float) -> list[dict[str, Any]]:
    """Every attack's mean AUC and TPR at :data:`SWEEP_FPR` at each ρ (Gen-LRA with its range).

    The rows are the board's (:func:`board_rows`) at every ρ of the grid; the
    draws of every ρ at this ε are in this worker (the grid is grouped by ε).
    """
    rows = []
    for rho in RHOS:
        for row in board_rows(*attack_summaries(epsilon, rho, k, bandwidth)):
            fields = {"attack": row["attack"], "rho": rho, "auc": row["auc"]}
            fields["tpr"] = row["tpr_at_0_01"]
            if row["attack"] == GEN_LRA:
                fields.update(
                    auc_low=row["auc_low"],
                    auc_high=row["auc_high"],
                    tpr_low=row["tpr_low"],
                    tpr_high=row["tpr_high"],
                )
            rows.append(fields)
    return rows


def strongest_rival(aucs: Mapping[str, SeedSummary]) -> str:
    """The rival (any attack but Gen-LRA) with the highest mean AUC, the first on a tie."""
    return _best({a: (s.mean if a != GEN_LRA else -math.inf) for a, s in aucs.items()})


def advantage_rows(epsilon: float, k: int) -> list[dict[str, Any]]:
    """Gen-LRA's mean AUC minus the strongest rival's, at every ρ and bandwidth (this ε and k)."""
    rows = []
    for rho in RHOS:
        for bandwidth in BANDWIDTHS:
            aucs, _ = attack_summaries(epsilon, rho, k, bandwidth)
            rival = strongest_rival(aucs)
            rows.append(
                {
                    "rho": rho,
                    "bandwidth": bandwidth,
                    "gen_lra": _number(aucs[GEN_LRA].mean),
                    "rival": rival,
                    "advantage": _number(aucs[GEN_LRA].mean - aucs[rival].mean),
                }
            )
    return rows


def compute(*, epsilon: float, rho: float, k: int, bandwidth: float) -> dict[str, Any]:
    """Every readout and per-point dataset at (ε, ρ, k, bandwidth); see the module docstring."""
    aucs, tprs = attack_summaries(epsilon, rho, k, bandwidth)
    draws = [simulation(epsilon, rho, seed) for seed in SEEDS]
    gaps = seed_summary(
        d.outcome(GEN_LRA, **variant(GEN_LRA, k, bandwidth)).score_gap for d in draws
    )
    picture = draws[SEEDS.index(PICTURE_SEED)]
    target = picture_target()
    gen_lra = picture.outcome(GEN_LRA, **variant(GEN_LRA, k, bandwidth))
    target_score = float(gen_lra.member_scores[target])
    nearest = synthetic_neighbours(picture.release, picture.split.members[target], k)[0]
    chance_high = 0.5 + 2 * chance_auc_spread(
        picture.split.members.shape[0], picture.split.nonmembers.shape[0]
    )
    best_auc = _best({a: s.mean for a, s in aucs.items()})
    best_tpr = _best({a: t[SWEEP_FPR].mean for a, t in tprs.items()})

    readouts: dict[str, Any] = {
        "copy_count": int(picture.release.copied.sum()),
        "target_copies": int((picture.release.source == target).sum()),
        "neighbour_copies": int((picture.release.source[nearest] == target).sum()),
        "kernel_scale": kernel_scale(bandwidth),
        "gen_lra_auc": aucs[GEN_LRA].mean,
        "gen_lra_range": f"{aucs[GEN_LRA].low:.3f}–{aucs[GEN_LRA].high:.3f}",
        "dcr_auc": aucs["dcr"].mean,
        "best_auc_attack": SHORT_NAMES[best_auc],
        "best_auc": aucs[best_auc].mean,
        **comparison(aucs, chance_high),
        "gen_lra_tpr": tprs[GEN_LRA][SWEEP_FPR].mean,
        "dcr_tpr": tprs["dcr"][SWEEP_FPR].mean,
        "best_tpr_attack": SHORT_NAMES[best_tpr],
        "best_tpr": tprs[best_tpr][SWEEP_FPR].mean,
    }
    datasets = {
        "board": board_rows(aucs, tprs),
        "sweep": sweep_rows(epsilon, k, bandwidth),
        "advantage": advantage_rows(epsilon, k),
        "scores": score_histogram(gen_lra.member_scores, gen_lra.nonmember_scores, target_score),
        "release": release_rows(epsilon, rho),
        "outline": outline_rows(rho, bandwidth),
        # not drawn: summarize() fits the gap against ε from every point's row
        "score_gap": [{"gap": gaps.mean, "low": gaps.low, "high": gaps.high}],
    }
    return {"readouts": readouts, "datasets": datasets}


# --- The study: real generators, 8 dimensions, the invariance and the shortcut ---------


def _metrics(outcome: AttackOutcome) -> dict[str, Any]:
    return {"auc": outcome.auc, "tpr": {f"{fpr:g}": outcome.tpr[fpr] for fpr in FPR_LEVELS}}


def generator_study(key: str, seed: int) -> dict[str, Any]:
    """Every attack and the utility of one generator setting on one seed's split."""
    result = run_generator_setting(setting_by_key(key), seed)
    return {
        "attacks": {attack: _metrics(result.outcome(attack)) for attack in ATTACK_KEYS},
        "utility": result.utility_r2,
        "baseline": result.baseline_r2,
    }


def high_d_study(rho: float, seed: int) -> dict[str, Any]:
    """The 8-D simulation at ε = :data:`HIGH_D_EPSILON`: every attack, Gen-LRA's variants."""
    result = run_simulation(
        HIGH_D_EPSILON,
        rho,
        seed=seed,
        dims=HIGH_D,
        ks=HIGH_D_KS,
        bandwidth_factors=HIGH_D_BANDWIDTHS,
        attacks=HIGH_D_ATTACKS,
    )
    return {
        "variants": [
            {
                "attack": o.attack,
                "k": o.k,
                "bandwidth": o.bandwidth_multiple,
                "auc": o.auc,
                "tpr": o.tpr[SWEEP_FPR],
            }
            for o in result.outcomes
        ]
    }


def checks_study(seed: int) -> dict[str, Any]:
    """The invariance demonstration and Gen-LRA's shortcut against SciPy refits, on one seed."""
    shown = demonstrate_invariance(seed=seed, epsilon=CHECK_EPSILON, rho=CHECK_RHO)
    draw = run_simulation(CHECK_EPSILON, CHECK_RHO, seed=seed, attacks=())
    half = CHECK_TARGETS // 2
    targets = np.vstack([draw.split.members[:half], draw.split.nonmembers[:half]])
    differences = []
    reference, synthetic = draw.split.reference, draw.release.records
    for bandwidth in (1.0, min(BANDWIDTHS)):
        method = SilvermanMultiple(bandwidth)
        shortcut = gen_lra_scores(targets, reference, synthetic, k=max(KS), bw_method=method)
        refit = refitted_gen_lra_scores(targets, reference, synthetic, k=max(KS), bw_method=method)
        differences.append(float(np.max(np.abs(shortcut - refit))))
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
        "shortcut_difference": max(differences),
    }


def _high_d_runner(rho: float) -> Callable[[int], dict[str, Any]]:
    return lambda seed: high_d_study(rho, seed)


EXPERIMENTS: dict[str, Callable[[int], dict[str, Any]]] = {
    **{
        setting.key: functools.partial(generator_study, setting.key)
        for setting in GENERATOR_SETTINGS
    },
    **{f"high-d-{rho:g}": _high_d_runner(rho) for rho in HIGH_D_RHOS},
    "checks": checks_study,
}
"""Every study experiment by name: one function of the seed each."""


def study(*, experiment: str, seed: int) -> dict[str, Any]:
    """One experiment of ``STUDY`` on one seed (see :data:`EXPERIMENTS`)."""
    return EXPERIMENTS[experiment](seed)


# --- Whole-lesson datasets ---------------------------------------------------------------


def _points(
    results: Mapping[str, dict[str, Any]],
) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
    for point in GRID:
        yield point, results[GRID.key(point)]


def gap_rows(results: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The mean score gap against ε, and its least-squares line, for every (ρ, k, bandwidth).

    One row per (ρ, k, bandwidth) with the gaps as lists in the order of
    ``epsilon`` (the chart flattens them) and the line through the seed means
    (:func:`~compute.audit_experiments.fit_line`).
    """
    rows = []
    for rho in RHOS:
        for k in KS:
            for bandwidth in BANDWIDTHS:
                gaps = [
                    results[GRID.key({"epsilon": e, "rho": rho, "k": k, "bandwidth": bandwidth})][
                        "datasets"
                    ]["score_gap"][0]
                    for e in EPSILONS
                ]
                line = fit_line(EPSILONS, [g["gap"] for g in gaps])
                rows.append(
                    {
                        "rho": rho,
                        "k": k,
                        "bandwidth": bandwidth,
                        "epsilon": list(EPSILONS),
                        "gap": [_number(g["gap"], SUMMARY_DIGITS) for g in gaps],
                        "low": [_number(g["low"], RANGE_DIGITS) for g in gaps],
                        "high": [_number(g["high"], RANGE_DIGITS) for g in gaps],
                        "slope": _number(line.slope, SUMMARY_DIGITS),
                        "intercept": _number(line.intercept, SUMMARY_DIGITS),
                        "r2": _number(line.r_squared, SUMMARY_DIGITS),
                        "straight": int(line.r_squared >= R2_STRAIGHT),
                    }
                )
    return rows


def wins_rows(results: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Per bandwidth: how often Gen-LRA has the highest mean AUC or TPR (ε > 0 points)."""
    rows = []
    for bandwidth in BANDWIDTHS:
        points = [
            (point, result)
            for point, result in _points(results)
            if point["bandwidth"] == bandwidth and point["epsilon"] > 0
        ]
        first_auc = first_tpr = 0
        for _, result in points:
            board = {row["attack"]: row for row in result["datasets"]["board"]}
            first_auc += _best({a: board[a]["auc"] for a in ATTACK_KEYS}) == GEN_LRA
            first_tpr += _best({a: board[a]["tpr_at_0_01"] for a in ATTACK_KEYS}) == GEN_LRA
        rows.append(
            {
                "bandwidth": f"{bandwidth:g}×",
                "kernel": kernel_scale(bandwidth),
                "points": len(points),
                "first_auc": first_auc,
                "first_tpr": first_tpr,
            }
        )
    return rows


def picture_rows() -> dict[str, list[dict[str, Any]]]:
    """Seed 1's target: the same at every point, so it ships once with the page."""
    x, y = picture_split().members[picture_target()]
    return {"target": [{"x": _coordinate(x), "y": _coordinate(y)}]}


def _mean(values: Iterable[float]) -> float:
    return float(np.mean(list(values)))


def generator_rows(study: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The real generators: a table per setting, every attack's metrics, first places."""
    seeds = GENERATOR_SEEDS
    table, heat, utility = [], [], []
    runs_auc, runs_tpr0 = [], []
    for setting in GENERATOR_SETTINGS:
        values = [study[STUDY.key({"experiment": setting.key, "seed": s})] for s in seeds]
        auc = {a: _mean(v["attacks"][a]["auc"] for v in values) for a in ATTACK_KEYS}
        tpr0 = {a: _mean(v["attacks"][a]["tpr"]["0"] for v in values) for a in ATTACK_KEYS}
        tpr01 = {a: _mean(v["attacks"][a]["tpr"]["0.01"] for v in values) for a in ATTACK_KEYS}
        for v in values:
            runs_auc.append({a: v["attacks"][a]["auc"] for a in ATTACK_KEYS})
            runs_tpr0.append({a: v["attacks"][a]["tpr"]["0"] for a in ATTACK_KEYS})
        r2 = _mean(v["utility"] for v in values)
        best_auc, best_tpr0 = _best(auc), _best(tpr0)
        label = _text(setting.label_ko, setting.label_en)
        table.append(
            {
                "setting": label,
                "utility": r2,
                "best_auc_attack": SHORT_NAMES[best_auc],
                "best_auc": auc[best_auc],
                "gen_lra_auc": auc[GEN_LRA],
                "dcr_auc": auc["dcr"],
                "best_tpr0_attack": SHORT_NAMES[best_tpr0],
                "best_tpr0": tpr0[best_tpr0],
                "gen_lra_tpr0": tpr0[GEN_LRA],
                "gen_lra_tpr01": tpr01[GEN_LRA],
            }
        )
        heat += [
            {
                "setting": setting.key,
                "attack": a,
                "auc": _number(auc[a]),
                "tpr": _number(tpr01[a]),
            }
            for a in ATTACK_KEYS
        ]
        utility.append(
            {
                "setting": setting.key,
                "family": setting.family,
                "short": setting.key.split("-", 1)[-1] if setting.parameter is not None else "",
                "utility": _number(r2),
                "utility_low": _number(min(v["utility"] for v in values)),
                "utility_high": _number(max(v["utility"] for v in values)),
                "risk": _number(auc[best_auc]),
                "risk_attack": best_auc,
                "baseline": _number(_mean(v["baseline"] for v in values)),
            }
        )
    shares_auc = first_place_shares(runs_auc)
    shares_tpr0 = first_place_shares(runs_tpr0)
    runs = len(runs_auc)
    first = [
        {
            "attack": SHORT_NAMES[a],
            "auc_share": shares_auc[a],
            "auc_runs": _number(shares_auc[a] * runs, 6),
            "tpr0_share": shares_tpr0[a],
            "tpr0_runs": _number(shares_tpr0[a] * runs, 6),
        }
        for a in ATTACK_KEYS
    ]
    return {
        "generators": table,
        "generator_heat": heat,
        "utility": utility,
        "first_place": first,
        "_shares": [{"auc": shares_auc, "tpr0": shares_tpr0, "runs": runs}],
    }


def claims_rows(shares: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The authors' benchmark beside this site's measurement, row by row."""
    auc, tpr0, runs = shares["auc"], shares["tpr0"], shares["runs"]
    most_auc, most_tpr0 = _best(auc), _best(tpr0)
    families = len({setting.family for setting in GENERATOR_SETTINGS})

    def percent(value: float) -> str:
        return f"{100 * value:.0f} %"

    report = AUTHORS_REPORT
    return [
        {
            "quantity": _text("데이터 세트", "Data sets"),
            "authors": f"{report['datasets']:.0f}",
            "site": _text("1 (콘크리트)", "1 (concrete)"),
        },
        {
            "quantity": _text("생성기", "Generators"),
            "authors": _text(
                f"{report['generators']:.0f}종 (GAN, VAE, 확산, 트랜스포머 등)",
                f"{report['generators']:.0f} (GANs, VAEs, diffusion, transformers, …)",
            ),
            "site": _text(
                f"{families}종, 설정 {len(GENERATOR_SETTINGS)}개",
                f"{families} families, {len(GENERATOR_SETTINGS)} settings",
            ),
        },
        {
            "quantity": _text("비교한 경쟁 공격", "Rival attacks"),
            "authors": f"{report['rivals']:.0f}",
            "site": f"{len(ATTACK_KEYS) - 1}",
        },
        {
            "quantity": _text("공격한 합성 데이터 구성", "Synthetic data configurations attacked"),
            "authors": f"{report['configurations']:,.0f}",
            "site": _text(
                f"{runs} (설정 {len(GENERATOR_SETTINGS)}개 × 시드 {len(GENERATOR_SEEDS)}개)",
                f"{runs} ({len(GENERATOR_SETTINGS)} settings × {len(GENERATOR_SEEDS)} seeds)",
            ),
        },
        {
            "quantity": _text(
                "Gen-LRA가 AUC 1위인 비율", "Share of runs Gen-LRA ranks first by AUC"
            ),
            "authors": _text(
                f"{percent(report['first_auc'])} 이상", f"over {percent(report['first_auc'])}"
            ),
            "site": percent(auc[GEN_LRA]),
        },
        {
            "quantity": _text(
                "Gen-LRA가 FPR 0에서의 TPR 1위인 비율",
                "Share of runs Gen-LRA ranks first by TPR at FPR 0",
            ),
            "authors": percent(report["first_tpr0"]),
            "site": percent(tpr0[GEN_LRA]),
        },
        {
            "quantity": _text("AUC 1위를 가장 자주 한 공격", "Attack most often first by AUC"),
            "authors": "Gen-LRA",
            "site": _text(
                f"{SHORT_NAMES[most_auc]['ko']} ({percent(auc[most_auc])})",
                f"{SHORT_NAMES[most_auc]['en']} ({percent(auc[most_auc])})",
            ),
        },
        {
            "quantity": _text(
                "FPR 0에서의 TPR 1위를 가장 자주 한 공격",
                "Attack most often first by TPR at FPR 0",
            ),
            "authors": "Gen-LRA",
            "site": _text(
                f"{SHORT_NAMES[most_tpr0]['ko']} ({percent(tpr0[most_tpr0])})",
                f"{SHORT_NAMES[most_tpr0]['en']} ({percent(tpr0[most_tpr0])})",
            ),
        },
    ]


ROUNDING = 1e-9
"""A change this small (relative to the values compared) is rounding, not a change."""


def _verdict(change: float, size: float) -> dict[str, str]:
    if change <= ROUNDING * max(1.0, size):
        return _text("불변 (반올림 오차 수준)", "invariant (rounding only)")
    return _text("변함", "changes")


def invariance_rows(study: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the invariance claim covers: the largest change over the seeds, case by case."""
    checks = [study[STUDY.key({"experiment": "checks", "seed": s})] for s in GENERATOR_SEEDS]

    def largest(field: str) -> float:
        return float(max(c[field] for c in checks))

    scale = min(c["bracket_scale"] for c in checks)
    return [
        {
            "case": _text(
                "참 밀도의 로그 비, 모든 좌표에 exp",
                "Log ratio of the true densities, exp on every coordinate",
            ),
            "change": largest("true_ratio_change"),
            "compare": _text(
                f"밀도 하나는 최대 {largest('true_density_change'):.2f} 변함 (야코비안)",
                f"one density alone moves by up to {largest('true_density_change'):.2f} "
                "(the Jacobian)",
            ),
            "verdict": _verdict(largest("true_ratio_change"), largest("true_density_change")),
        },
        {
            "case": _text(
                "KDE 괄호, 이웃 고정, 가역 아핀 사상",
                "KDE bracket, fixed neighbours, invertible affine map",
            ),
            "change": largest("bracket_affine_change"),
            "compare": _text(
                f"괄호 값의 크기는 최대 {scale:.3f}", f"brackets are up to {scale:.3f} in size"
            ),
            "verdict": _verdict(largest("bracket_affine_change"), scale),
        },
        {
            "case": _text(
                "KDE 괄호, 이웃 고정, 모든 좌표에 exp", "KDE bracket, fixed neighbours, exp"
            ),
            "change": largest("bracket_exp_change"),
            "compare": _text(
                f"괄호 값의 크기는 최대 {scale:.3f}", f"brackets are up to {scale:.3f} in size"
            ),
            "verdict": _verdict(largest("bracket_exp_change"), scale),
        },
        {
            "case": _text(
                "Gen-LRA 전체 (유클리드 이웃), 첫 좌표만 10배",
                "Whole Gen-LRA (Euclidean neighbours), first coordinate × 10",
            ),
            "change": largest("score_change"),
            "compare": _text(
                f"이웃 집합이 바뀐 표적 비율 최대 {100 * largest('changed_neighbour_sets'):.0f} %, "
                f"AUC {checks[0]['auc_before']:.3f} → {checks[0]['auc_after']:.3f} (시드 1)",
                f"neighbour sets changed for up to "
                f"{100 * largest('changed_neighbour_sets'):.0f} % of targets, AUC "
                f"{checks[0]['auc_before']:.3f} → {checks[0]['auc_after']:.3f} (seed 1)",
            ),
            "verdict": _verdict(largest("score_change"), scale),
        },
    ]


def high_d_rows(
    results: Mapping[str, dict[str, Any]], study: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each attack variant in 8-D beside the same variant in 2-D, ε = 0.4, mean over seeds."""
    rows = []
    for rho in HIGH_D_RHOS:
        values = [
            study[STUDY.key({"experiment": f"high-d-{rho:g}", "seed": s})]["variants"]
            for s in GENERATOR_SEEDS
        ]
        for index, first in enumerate(values[0]):
            attack, k, bandwidth = first["attack"], first["k"], first["bandwidth"]
            two_d = results[
                GRID.key(
                    {
                        "epsilon": HIGH_D_EPSILON,
                        "rho": rho,
                        "k": k or DEFAULT_K,
                        "bandwidth": bandwidth or DEFAULT_BANDWIDTH,
                    }
                )
            ]
            board = {row["attack"]: row for row in two_d["datasets"]["board"]}
            name = SHORT_NAMES[attack]
            if k is not None:
                name = _text(
                    f"{name['ko']} (k = {k}, {bandwidth:g}×)",
                    f"{name['en']} (k = {k}, {bandwidth:g}×)",
                )
            elif bandwidth is not None:
                name = _text(f"{name['ko']} ({bandwidth:g}×)", f"{name['en']} ({bandwidth:g}×)")
            rows.append(
                {
                    "rho": rho,
                    "attack": name,
                    "auc_2d": board[attack]["auc"],
                    "auc_8d": _mean(v[index]["auc"] for v in values),
                }
            )
    return rows


def _count(part: int, whole: int) -> dict[str, str]:
    return _text(f"{whole}개 가운데 {part}개", f"{part} of {whole}")


def findings_rows(
    results: Mapping[str, dict[str, Any]],
    gaps: Sequence[Mapping[str, Any]],
    generators: Sequence[Mapping[str, Any]],
    high_d: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """What this build found, each answer computed from the results (never typed in prose)."""
    points = [(p, r) for p, r in _points(results) if p["epsilon"] > 0]
    boards = [(p, {row["attack"]: row for row in r["datasets"]["board"]}) for p, r in points]

    def first(board: Mapping[str, Mapping[str, float]], field: str) -> str:
        return _best({a: board[a][field] for a in ATTACK_KEYS})

    silverman = [b for p, b in boards if p["bandwidth"] == 1.0]
    exact = [b for p, b in boards if p["rho"] == 0]
    winners_exact = [first(b, "auc") for b in exact]
    most_exact = max(ATTACK_KEYS, key=lambda a: (winners_exact.count(a), -ATTACK_KEYS.index(a)))
    leads = [(b[GEN_LRA]["auc"] - max(b[a]["auc"] for a in ATTACK_KEYS[1:]), p) for p, b in boards]
    lead, at = max(leads, key=lambda item: item[0])
    where = f"ε = {at['epsilon']:g}, ρ = {at['rho']:g}, k = {at['k']}, {at['bandwidth']:g}×"
    fits = {(row["rho"], row["k"], row["bandwidth"]): row["r2"] for row in gaps}
    small = [r2 for (rho, _, _), r2 in fits.items() if rho <= 0.2]
    large = [r2 for (rho, _, _), r2 in fits.items() if rho > 0.2]
    straight_small = sum(r2 >= R2_STRAIGHT for r2 in small)
    straight_large = sum(r2 >= R2_STRAIGHT for r2 in large)
    gen_lra_settings = [
        row["setting"] for row in generators if row["best_auc_attack"] == SHORT_NAMES[GEN_LRA]
    ]
    return [
        {
            "question": _text(
                "실버먼 대역폭(1×)에서 Gen-LRA가 평균 AUC 1위인 격자 점 (ε > 0)",
                "Grid points (ε > 0) where Gen-LRA at Silverman's bandwidth (1×) has the "
                "highest mean AUC",
            ),
            "answer": _count(sum(first(b, "auc") == GEN_LRA for b in silverman), len(silverman)),
        },
        {
            "question": _text(
                "모든 대역폭에서 Gen-LRA가 평균 AUC 1위인 격자 점 (ε > 0)",
                "Grid points (ε > 0), any bandwidth, where Gen-LRA has the highest mean AUC",
            ),
            "answer": _count(sum(first(b, "auc") == GEN_LRA for _, b in boards), len(boards)),
        },
        {
            "question": _text(
                "Gen-LRA가 FPR 1 %에서의 평균 TPR 1위인 격자 점 (ε > 0)",
                "Grid points (ε > 0) where Gen-LRA has the highest mean TPR at FPR 1 %",
            ),
            "answer": _count(
                sum(first(b, "tpr_at_0_01") == GEN_LRA for _, b in boards), len(boards)
            ),
        },
        {
            "question": _text(
                "정확한 복사본(ρ = 0)에서 평균 AUC 1위를 가장 자주 한 공격",
                "The attack most often first by mean AUC on exact copies (ρ = 0)",
            ),
            "answer": _text(
                f"{SHORT_NAMES[most_exact]['ko']} ({len(exact)}개 가운데 "
                f"{winners_exact.count(most_exact)}개)",
                f"{SHORT_NAMES[most_exact]['en']} ({winners_exact.count(most_exact)} of "
                f"{len(exact)})",
            ),
        },
        {
            "question": _text(
                "Gen-LRA가 가장 강한 경쟁 공격을 가장 크게 앞선 곳",
                "Where Gen-LRA leads the strongest rival by the most",
            ),
            "answer": _text(f"AUC {lead:+.3f} ({where})", f"AUC {lead:+.3f} ({where})"),
        },
        {
            "question": _text(
                f"점수 차이 직선의 R²가 {R2_STRAIGHT:g} 이상인 (ρ, k, 대역폭) 조합: ρ ≤ 0.2",
                f"(ρ, k, bandwidth) whose score-gap line has R² ≥ {R2_STRAIGHT:g}: ρ ≤ 0.2",
            ),
            "answer": _count(straight_small, len(small)),
        },
        {
            "question": _text("같은 조합: ρ > 0.2", "The same: ρ > 0.2"),
            "answer": _count(straight_large, len(large)),
        },
        {
            "question": _text(
                f"{HIGH_D}차원에서 AUC가 2차원보다 높은 공격 변형 (ε = {HIGH_D_EPSILON:g})",
                f"Attack variants with a higher AUC in {HIGH_D}-D than in 2-D "
                f"(ε = {HIGH_D_EPSILON:g})",
            ),
            "answer": _count(sum(row["auc_8d"] > row["auc_2d"] for row in high_d), len(high_d)),
        },
        {
            "question": _text(
                "실제 생성기에서 Gen-LRA가 평균 AUC 1위인 설정",
                "Real generator settings where Gen-LRA has the highest mean AUC",
            ),
            "answer": _text(
                ", ".join(t["ko"] for t in gen_lra_settings) or "없음",
                ", ".join(t["en"] for t in gen_lra_settings) or "none",
            ),
        },
    ]


def shortcut_rows(study: Mapping[str, Any]) -> list[dict[str, Any]]:
    """How far Gen-LRA's shortcut lies from SciPy refits on the lesson's own draws."""
    return [
        {
            "seed": seed,
            "targets": CHECK_TARGETS,
            "difference": study[STUDY.key({"experiment": "checks", "seed": seed})][
                "shortcut_difference"
            ],
        }
        for seed in GENERATOR_SEEDS
    ]


def fixed_rows() -> dict[str, list[dict[str, Any]]]:
    """Sizes of the simulation and the real data, and how finely each can read a low FPR."""
    split = picture_split()
    members, nonmembers = split.members.shape[0], split.nonmembers.shape[0]
    real = concrete_split(GENERATOR_SEEDS[0])
    setup = [
        (
            _text("포함 표본 (생성기의 학습 데이터)", "Members (the generator's training data)"),
            members,
            real.members.shape[0],
        ),
        (_text("미포함 표본", "Non-members"), nonmembers, real.nonmembers.shape[0]),
        (
            _text("참조 표본 (감사자가 가진 것)", "Reference sample (the auditor's)"),
            split.reference.shape[0],
            real.reference.shape[0],
        ),
        (
            _text("합성 기록 (공개본)", "Synthetic records (the release)"),
            split.synthetic_size,
            real.members.shape[0],
        ),
        (_text("효용 시험용 기록", "Records kept to test utility"), None, real.test.shape[0]),
        (_text("열의 수", "Columns"), split.population.dimensions, real.members.shape[1]),
        (_text("시드", "Seeds"), len(SEEDS), len(GENERATOR_SEEDS)),
    ]
    resolution = []
    for what, count in (
        (_text("시뮬레이션", "Simulation"), nonmembers),
        (_text("실제 생성기 (콘크리트)", "Real generators (concrete)"), real.nonmembers.shape[0]),
    ):
        resolution.append(
            {
                "setting": what,
                "nonmembers": count,
                "smallest": 1.0 / count,
                "bound": zero_fpr_upper_bound(count, CONFIDENCE),
                "chance": 2 * chance_auc_spread(count, count),
            }
        )
    return {
        "setup": [
            {"quantity": quantity, "simulation": sim, "real": real_count}
            for quantity, sim, real_count in setup
        ],
        "resolution": resolution,
    }


def summarize(
    results: Mapping[str, dict[str, Any]], study: Mapping[str, Any]
) -> dict[str, list[dict[str, Any]]]:
    """Every dataset that is the same on every point: the curves against ρ, the heat map, the
    picture's fixed parts, the study's tables and charts."""
    real = generator_rows(study)
    shares = real.pop("_shares")[0]
    gaps = gap_rows(results)
    high_d = high_d_rows(results, study)
    return {
        "gap": gaps,
        "wins": wins_rows(results),
        **picture_rows(),
        **real,
        "claims": claims_rows(shares),
        "findings": findings_rows(results, gaps, real["generators"], high_d),
        "shortcut": shortcut_rows(study),
        "invariance": invariance_rows(study),
        "high_d": high_d,
        **fixed_rows(),
    }


# --- What the page shows -----------------------------------------------------------------

GRID = Grid(
    (
        Param("epsilon", EPSILONS, DEFAULT_EPSILON, {"ko": "과적합 강도 ε", "en": "Overfitting ε"}),
        Param("rho", RHOS, DEFAULT_RHO, {"ko": "기억 규모 ρ", "en": "Memorization scale ρ"}),
        Param("k", KS, DEFAULT_K, {"ko": "이웃 수 k", "en": "Neighbours k"}),
        Param(
            "bandwidth",
            BANDWIDTHS,
            DEFAULT_BANDWIDTH,
            {"ko": "대역폭 (실버먼 배수)", "en": "Bandwidth (× Silverman)"},
            value_labels={
                "ko": tuple(f"{m:g}×" for m in BANDWIDTHS),
                "en": tuple(f"{m:g}×" for m in BANDWIDTHS),
            },
        ),
    ),
    # the curves against ρ need every ρ of one ε: one worker draws them all, once
    group_by=("epsilon",),
)

STUDY = Grid(
    (
        Param("experiment", tuple(EXPERIMENTS), "checks", {"ko": "실험", "en": "Experiment"}),
        Param("seed", GENERATOR_SEEDS, GENERATOR_SEEDS[0], {"ko": "시드", "en": "Seed"}),
    )
)

LAZY: tuple[str, ...] = ("advantage", "board", "outline", "release", "scores", "sweep")
"""Per-point rows loaded when a control first needs them, not with the page."""

READOUTS: tuple[Readout, ...] = (
    Readout(
        "copy_count", _text("공개본 속 복사본 수 (시드 1)", "Copies in the release (seed 1)"), "d"
    ),
    Readout("target_copies", _text("표적의 복사본 수", "Copies of the target"), "d"),
    Readout(
        "neighbour_copies",
        _text(
            "표적의 k개 이웃 가운데 표적의 복사본", "Copies of the target among its k neighbours"
        ),
        "d",
    ),
    Readout(
        "kernel_scale",
        _text("커널 폭 (분포의 퍼짐 단위)", "Kernel width (in units of the spread)"),
        ".2f",
    ),
    Readout("gen_lra_auc", _text("Gen-LRA의 평균 AUC", "Gen-LRA's mean AUC"), ".3f"),
    Readout(
        "gen_lra_range", _text("Gen-LRA AUC의 시드별 범위", "Range of Gen-LRA's AUC over seeds")
    ),
    Readout("dcr_auc", _text("DCR의 평균 AUC", "DCR's mean AUC"), ".3f"),
    Readout(
        "best_auc_attack", _text("평균 AUC가 가장 높은 공격", "Attack with the highest mean AUC")
    ),
    Readout("best_auc", _text("가장 높은 평균 AUC", "Highest mean AUC"), ".3f"),
    Readout(
        "rival_attack",
        _text("평균 AUC가 가장 높은 경쟁 공격", "Rival with the highest mean AUC"),
    ),
    Readout("rival_auc", _text("그 경쟁 공격의 평균 AUC", "That rival's mean AUC"), ".3f"),
    Readout(
        "gen_lra_lead",
        _text("Gen-LRA의 평균 AUC − 경쟁 공격의 평균 AUC", "Gen-LRA's mean AUC − the rival's"),
        "+.3f",
        announce=True,
    ),
    Readout(
        "seed_overlap",
        _text("두 공격의 시드별 범위가 겹치는지", "Whether the two ranges over seeds overlap"),
    ),
    Readout(
        "chance_place",
        _text("가장 높은 평균 AUC가 우연 범위 안인지", "Whether the highest mean AUC is by chance"),
    ),
    Readout("gen_lra_tpr", _text("Gen-LRA의 FPR 1 %에서 TPR", "Gen-LRA's TPR at FPR 1 %"), ".1%"),
    Readout("dcr_tpr", _text("DCR의 FPR 1 %에서 TPR", "DCR's TPR at FPR 1 %"), ".1%"),
    Readout(
        "best_tpr_attack",
        _text("FPR 1 %에서 TPR이 가장 높은 공격", "Attack with the highest TPR at FPR 1 %"),
    ),
    Readout("best_tpr", _text("FPR 1 %에서 가장 높은 TPR", "Highest TPR at FPR 1 %"), ".1%"),
)


def _column(field: str, ko: str, en: str, format: str = "") -> Column:
    return Column(field, _text(ko, en), format)


TABLES: tuple[Table, ...] = (
    Table(
        "setup",
        (
            _column("quantity", "무엇", "What"),
            _column("simulation", "시뮬레이션", "Simulation", ",d"),
            _column("real", "실제 생성기 (콘크리트)", "Real generators (concrete)", ",d"),
        ),
        _text("두 실험의 크기", "The sizes of the two experiments"),
        row_headers=True,
    ),
    Table(
        "resolution",
        (
            _column("setting", "실험", "Experiment"),
            _column("nonmembers", "미포함 표본 수", "Non-members", ",d"),
            _column("smallest", "0보다 큰 가장 작은 FPR", "Smallest FPR above 0", ".2%"),
            _column(
                "bound",
                "거짓 양성 0회일 때 FPR의 95 % 상한",
                "95 % bound on the FPR after 0 false positives",
                ".1%",
            ),
            _column(
                "chance", "우연 범위의 반폭 (2σ₀)", "Half-width of the chance range (2σ₀)", ".3f"
            ),
        ),
        _text("낮은 FPR을 얼마나 잘게 잴 수 있는가", "How finely a low FPR can be measured"),
        row_headers=True,
    ),
    Table(
        "wins",
        (
            _column("bandwidth", "대역폭", "Bandwidth"),
            _column("kernel", "커널 폭 (퍼짐 단위)", "Kernel width (spread units)", ".2f"),
            _column("points", "격자 점 (ε > 0)", "Grid points (ε > 0)", "d"),
            _column("first_auc", "Gen-LRA가 AUC 1위", "Gen-LRA first by AUC", "d"),
            _column(
                "first_tpr", "Gen-LRA가 FPR 1 % TPR 1위", "Gen-LRA first by TPR at FPR 1 %", "d"
            ),
        ),
        _text(
            "대역폭마다 Gen-LRA가 아홉 공격 가운데 1위인 격자 점의 수",
            "At each bandwidth, the grid points where Gen-LRA ranks first of the nine attacks",
        ),
        row_headers=True,
    ),
    Table(
        "generators",
        (
            _column("setting", "생성기 설정", "Generator setting"),
            _column("utility", "효용 R²", "Utility R²", ".2f"),
            _column("best_auc_attack", "AUC 1위", "First by AUC"),
            _column("best_auc", "그 AUC", "Its AUC", ".3f"),
            _column("gen_lra_auc", "Gen-LRA AUC", "Gen-LRA AUC", ".3f"),
            _column("dcr_auc", "DCR AUC", "DCR AUC", ".3f"),
            _column("best_tpr0_attack", "FPR 0 TPR 1위", "First by TPR at FPR 0"),
            _column("best_tpr0", "그 TPR", "Its TPR", ".1%"),
            _column("gen_lra_tpr0", "Gen-LRA TPR (FPR 0)", "Gen-LRA TPR (FPR 0)", ".1%"),
            _column("gen_lra_tpr01", "Gen-LRA TPR (FPR 1 %)", "Gen-LRA TPR (FPR 1 %)", ".1%"),
        ),
        _text(
            "생성기 설정마다 세 시드의 평균: 효용과 공격 성능",
            "Each generator setting, mean of three seeds: utility and attack performance",
        ),
        row_headers=True,
    ),
    Table(
        "first_place",
        (
            _column("attack", "공격", "Attack"),
            _column("auc_share", "AUC 1위 비율", "First by AUC", ".0%"),
            _column("auc_runs", "(실행 수)", "(runs)", ".3g"),
            _column("tpr0_share", "FPR 0 TPR 1위 비율", "First by TPR at FPR 0", ".0%"),
            _column("tpr0_runs", "(실행 수)", "(runs)", ".3g"),
        ),
        _text(
            "실제 생성기의 실행마다 1위를 한 공격 (동점은 나누어 셈)",
            "Which attack ranks first in each run on the real generators (ties shared)",
        ),
        row_headers=True,
    ),
    Table(
        "findings",
        (
            _column("question", "물음", "Question"),
            _column("answer", "이 빌드의 답", "This build's answer"),
        ),
        _text("이 빌드가 측정한 것", "What this build measured"),
        row_headers=True,
    ),
    Table(
        "shortcut",
        (
            _column("seed", "시드", "Seed", "d"),
            _column("targets", "비교한 표적", "Targets compared", "d"),
            _column("difference", "점수의 가장 큰 차이", "Largest score difference", ".1e"),
        ),
        _text(
            "Gen-LRA의 지름길과 SciPy로 표적마다 다시 적합한 결과의 차이 "
            f"(ε = {CHECK_EPSILON:g}, ρ = {CHECK_RHO:g}, k = {max(KS)}, "
            f"대역폭 1×와 {min(BANDWIDTHS):g}×)",
            "Gen-LRA's shortcut against a SciPy refit per target "
            f"(ε = {CHECK_EPSILON:g}, ρ = {CHECK_RHO:g}, k = {max(KS)}, "
            f"bandwidths 1× and {min(BANDWIDTHS):g}×)",
        ),
    ),
    Table(
        "claims",
        (
            _column("quantity", "항목", "Quantity"),
            _column(
                "authors", "저자들의 보고 (검증하지 않음)", "The authors report (not verified here)"
            ),
            _column("site", "이 사이트의 측정", "This site measured"),
        ),
        _text(
            "저자들의 벤치마크와 이 사이트의 측정",
            "The authors' benchmark and this site's measurement",
        ),
        row_headers=True,
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
    Table(
        "high_d",
        (
            _column("rho", "ρ", "ρ", "g"),
            _column("attack", "공격", "Attack"),
            _column("auc_2d", "AUC (2차원)", "AUC (2-D)", ".3f"),
            _column("auc_8d", "AUC (8차원)", "AUC (8-D)", ".3f"),
        ),
        _text(
            "같은 공격을 2차원과 8차원 시뮬레이션에서 (ε = 0.4, 세 시드 평균)",
            "The same attacks on the 2-D and the 8-D simulation (ε = 0.4, mean of three seeds)",
        ),
    ),
)


def picture_facts() -> charts.PictureFacts:
    """What the charts are built around: seed 1's target and the AUC's chance range."""
    split = picture_split()
    spread = chance_auc_spread(split.members.shape[0], split.nonmembers.shape[0])
    x, y = (float(v) for v in split.members[picture_target()])
    return charts.PictureFacts(
        target=(x, y), chance_low=0.5 - 2 * spread, chance_high=0.5 + 2 * spread
    )


CHARTS = charts.make_charts(picture_facts())
