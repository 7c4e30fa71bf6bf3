"""Lesson 02, membership inference: a loss attack on an overfitting MLP.

The data are the UCI concrete table. A row is one mixture tested at one age:
eight inputs (seven components and the age) and the compressive strength in MPa.

Deduplication
    The table repeats some rows exactly, and some input combinations occur with
    more than one strength (repeated tests of one mixture at one age). If the
    same inputs sat on both sides, a "non-member" would be the very point the
    model was fitted on, as far as the model can tell. So exact duplicate rows
    are dropped first, then the rows sharing all eight inputs are merged into
    one whose strength is the mean of their tests (see
    :func:`compute.mlp.deduplicate`).
    Every input combination then occurs once, and no non-member can share its
    inputs with a member. The same mixture may still appear at another age on
    the other side: that is a different input, and a different test.
Split
    A permutation drawn by ``numpy.random.default_rng(SPLIT_SEED)`` orders the
    deduplicated rows; the first half (rounded down) is the training pool, the
    rest the evaluation pool. Members are the first :data:`MEMBER_COUNT` rows
    of the training pool in that order, non-members the first
    :data:`NONMEMBER_COUNT` rows of the evaluation pool. Non-members are never
    trained on. The split is fixed; the grid's ``seed`` only changes the model.
Model
    ``sklearn.neural_network.MLPRegressor`` with one hidden layer of
    :data:`HIDDEN_UNITS` ReLU units, Adam with learning rate
    :data:`LEARNING_RATE`, mini-batches of :data:`BATCH_SIZE`, L2 penalty
    :data:`ALPHA`. Inputs are standardized with the members' mean and standard
    deviation; the target is the strength in MPa, unscaled. The grid's ``seed``
    sets the initial weights and the order of the mini-batches.
Snapshots
    Each seed is trained once, one epoch per ``partial_fit`` call, and the
    per-sample losses are recorded when the epoch count reaches a grid value
    (:func:`compute.mlp.train_with_snapshots`, memoized per process and seed by
    :func:`training_trajectory`, so a joblib worker trains a seed at most once).
    A snapshot after ``e`` epochs is identical to a fresh model trained the same
    way for ``e`` epochs (tested); :mod:`compute.mlp` says why.
Timing
    Measured on the 2-core build machine while other work was running
    (``python -m compute.lessons.membership`` measures again): the three seeds trained
    once each to 2,000 epochs, with snapshots at the 11 grid values, take
    7.5 s; retraining from scratch for every grid value (1 + 2 + 5 + ... +
    2,000 = 3,888 epochs per seed) takes 14.2 s. ``GRID`` groups the points by
    seed (``group_by``), so each seed is trained in exactly one worker: the
    lesson builds in about 10 s with one job and 9 s with two (3 seeds on 2
    workers), where ungrouped points made both workers train every seed.
Attack
    The per-sample squared loss is ``ℓ = (y − f(x))²`` in MPa²; the attack
    score is ``s = −ℓ`` (:func:`compute.mlp.loss_scores`: a lower loss looks
    more like a member), judged by :mod:`compute.attacks.metrics`. The AUC
    counts ties as one half; the ROC curve uses the rule "member if ``s ≥ t``"
    for every threshold ``t``. With :data:`NONMEMBER_COUNT` non-members the
    smallest false-positive rate above zero is ``1 / NONMEMBER_COUNT``; the TPR
    there is the highest TPR of any threshold with no more false positives
    (``max_tpr_at_fpr``, the conservative reading).

Constants
---------
``SPLIT_SEED``
    Seed of the split: the year of Shokri et al.'s attack paper, otherwise arbitrary.
``MEMBER_COUNT``, ``NONMEMBER_COUNT``
    160 members and 160 non-members.
``HIDDEN_UNITS``, ``LEARNING_RATE``, ``BATCH_SIZE``, ``ALPHA``
    The MLP: 32 hidden units, Adam at 0.02, batches of 32 rows, L2 penalty 1e-5.
    Chosen so that the members' error keeps falling well below the
    non-members' over 2,000 epochs within a few seconds per seed.
``EPOCHS``, ``SEEDS``
    The grid: 1, 2, 5, ..., 2,000 epochs (1–2–5 steps) and seeds 1, 2, 3.
``ROC_POINTS``
    The ROC panel draws at most 100 corners of the curve; the AUC and the TPR
    readouts use every score.
``TARGET_FPR``
    0.1 %, the false-positive rate at which Carlini et al. report TPRs.
``THRESHOLDS``, ``LOSS_EDGES``
    The threshold control: the rule "member if ``ℓ ≤ t``" for ``t`` from 0.1
    to 1,000 MPa² in 1–3 steps, drawn on a histogram whose log-loss axis is
    the same for every setting (bins between the 1–3 edges from 10⁻⁶ to
    10⁴ MPa², closed on the right, so that the bars left of ``t`` are exactly
    the losses it calls members; see :func:`compute.histogram.counts_up_to_edges`).
    Its TPR and FPR are a direct count (:func:`compute.attacks.metrics.rates_at_threshold`);
    the ROC panel draws every threshold's pair as a point on the curve
    (``threshold_choices``), so that dragging ``t`` moves along them.
``DP_EPSILONS``
    The ε whose bound is drawn on the ROC panel: any membership test
    between two worlds one neighbour step apart, against an ε-DP training, has
    ``TPR ≤ e^ε·FPR`` and ``1 − FPR ≤ e^ε·(1 − TPR)``
    (:func:`compute.dp_bounds.tpr_bound`). The split here has a fixed number
    of members, so "this record out" means another record in its place: under
    add/remove neighbours the two worlds are two steps apart and the bound is
    the same with ``2ε`` (``DP_RELATIONS``). Both are drawn. This model was
    trained without DP; the readouts count the ROC corners above each bound.
Chart rows
    carry 6 significant digits (:func:`privacy_explorer.lesson.chart_number`);
    readouts keep full precision.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from privacy_explorer.compute.attacks.auc_error import auc_standard_error
from privacy_explorer.compute.attacks.metrics import (
    auc,
    best_threshold_accuracy,
    chance_auc_spread,
    max_tpr_at_fpr,
    rates_at_threshold,
    roc_curve,
    zero_fpr_upper_bound,
)
from privacy_explorer.compute.datasets import CONCRETE_INPUTS, CONCRETE_TARGET, load_concrete
from privacy_explorer.compute.dp_bounds import REPLACEMENT_STEPS, group_epsilon, tpr_bound
from privacy_explorer.compute.histogram import counts_up_to_edges
from privacy_explorer.compute.lessons import membership_charts
from privacy_explorer.compute.lessons.membership_charts import GROUPS
from privacy_explorer.compute.lessons.membership_noise import AucStep, auc_drop_readouts, auc_steps
from privacy_explorer.compute.mlp import (
    MembershipData,
    MLPSettings,
    Snapshot,
    loss_scores,
    membership_data,
    parameter_count,
    rmse,
    train_with_snapshots,
)
from privacy_explorer.lesson import Chart, Column, Grid, Param, Readout, Table, chart_number

DATA_FILES: tuple[str, ...] = ("concrete.csv",)

SPLIT_SEED = 2017
MEMBER_COUNT = 160
NONMEMBER_COUNT = 160
HIDDEN_UNITS = 32
LEARNING_RATE = 0.02
BATCH_SIZE = 32
ALPHA = 1e-5
EPOCHS: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000)
SEEDS: tuple[int, ...] = (1, 2, 3)
DEFAULT_EPOCHS = 200
DEFAULT_SEED = 1
ROC_POINTS = 100
TARGET_FPR = 0.001
CONFIDENCE = 0.95

THRESHOLDS: tuple[float, ...] = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
DEFAULT_THRESHOLD = 30.0
LOSS_EDGES: tuple[float, ...] = (
    *(float(f"{step}e{power}") for power in range(-6, 4) for step in (1, 3)),
    1e4,
)
DP_EPSILONS: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0)
DEFAULT_DP_EPSILON = 1.0


FloatArray = npt.NDArray[np.float64]


# --- The lesson's data and model --------------------------------------------------------

SETTINGS = MLPSettings(
    hidden_units=HIDDEN_UNITS, learning_rate=LEARNING_RATE, batch_size=BATCH_SIZE, alpha=ALPHA
)


@functools.cache
def lesson_data() -> MembershipData:
    """The members and non-members this lesson uses (read and split once per process)."""
    return membership_data(
        load_concrete(),
        CONCRETE_INPUTS,
        CONCRETE_TARGET,
        seed=SPLIT_SEED,
        members=MEMBER_COUNT,
        nonmembers=NONMEMBER_COUNT,
    )


@functools.lru_cache(maxsize=len(SEEDS))
def training_trajectory(seed: int) -> tuple[Snapshot, ...]:
    """The lesson model for ``seed`` at every grid epoch (trained once per process and seed)."""
    return train_with_snapshots(lesson_data(), seed, EPOCHS, SETTINGS)


@functools.lru_cache(maxsize=len(SEEDS))
def seed_auc_steps(seed: int) -> tuple[AucStep, ...]:
    """The paired change of the AUC at every step between grid epochs, for ``seed``."""
    return auc_steps(training_trajectory(seed))


def thin_curve(fpr: FloatArray, tpr: FloatArray, max_points: int = ROC_POINTS) -> list[int]:
    """Indices of at most ``max_points`` evenly spread points of a curve, both ends kept."""
    if max_points < 2:
        raise ValueError(f"max_points must be at least 2, got {max_points}")
    if fpr.size <= max_points:
        return list(range(fpr.size))
    return sorted({round(i) for i in np.linspace(0, fpr.size - 1, max_points)})


# --- One grid point ---------------------------------------------------------------


def _snapshot(seed: int, epochs: int) -> Snapshot:
    if seed not in SEEDS:
        raise ValueError(f"seed must be one of {', '.join(map(str, SEEDS))}, got {seed!r}")
    for snapshot in training_trajectory(seed):
        if snapshot.epochs == epochs:
            return snapshot
    raise ValueError(f"epochs must be one of {', '.join(map(str, EPOCHS))}, got {epochs!r}")


def loss_bin_rows(member_losses: FloatArray, nonmember_losses: FloatArray) -> list[dict[str, Any]]:
    """Chart rows of the fixed log-loss histogram: one per bin and group, with both edges."""
    rows = []
    for group, losses in zip(GROUPS, (member_losses, nonmember_losses), strict=True):
        counts = counts_up_to_edges(losses, LOSS_EDGES)
        for lower, upper, count in zip(LOSS_EDGES[:-1], LOSS_EDGES[1:], counts, strict=True):
            rows.append({"lower": lower, "upper": upper, "group": group, "count": int(count)})
    return rows


def threshold_choice_rows(
    member_losses: FloatArray, nonmember_losses: FloatArray
) -> list[dict[str, Any]]:
    """Chart rows of every threshold of the grid: ``t`` and the (FPR, TPR) of the rule "member
    if ``ℓ ≤ t``", where the ROC panel draws it (and where a drag along the curve stops)."""
    member_scores, nonmember_scores = loss_scores(member_losses), loss_scores(nonmember_losses)
    rows = []
    for threshold in THRESHOLDS:
        tpr, fpr = rates_at_threshold(member_scores, nonmember_scores, -threshold)
        rows.append({"threshold": threshold, "fpr": chart_number(fpr), "tpr": chart_number(tpr)})
    return rows


DP_RELATIONS: tuple[str, str] = ("one_step", "two_steps")
"""The two readings of the ε-DP bound drawn on the ROC panel, by the neighbour steps between the
worlds "record in" and "record out": one (replace-one ε-DP, or add/remove ε-DP with Poisson
membership) or two (add/remove ε-DP with this fixed-size split, a replacement)."""


def _inside_verdict(tpr: float, allowed: float) -> dict[str, str]:
    if tpr > allowed + 1e-12:
        return {"ko": "허용 영역 밖", "en": "outside the allowed region"}
    return {"ko": "허용 영역 안", "en": "inside the allowed region"}


def _bound_rows(relation: str, epsilon: float) -> list[dict[str, Any]]:
    """tpr_bound is piecewise linear: its two ends and the corner where the inequalities meet."""
    corner = 1.0 / (1.0 + math.exp(epsilon))
    return [
        {"fpr": fpr, "tpr": tpr, "epsilon": epsilon, "relation": relation}
        for fpr, tpr in ((0.0, 0.0), (chart_number(corner), chart_number(1.0 - corner)), (1.0, 1.0))
    ]


def threshold_view(
    member_losses: FloatArray, nonmember_losses: FloatArray, threshold: float, dp_epsilon: float
) -> dict[str, dict[str, Any]]:
    """The readouts and rows of one threshold and one ε: the rule "member if ``ℓ ≤ threshold``"
    as a (FPR, TPR) pair, and where the ROC curve stands against the ε-DP bound.

    The bound is given twice: for worlds one neighbour step apart (``e^ε``) and for worlds
    two add/remove steps apart, as this fixed-size split makes them (``e^{2ε}``, group
    privacy: :func:`compute.dp_bounds.group_epsilon`).
    """
    member_scores, nonmember_scores = loss_scores(member_losses), loss_scores(nonmember_losses)
    tpr, fpr = rates_at_threshold(member_scores, nonmember_scores, -threshold)
    fpr_points, tpr_points = roc_curve(member_scores, nonmember_scores)
    two_steps = group_epsilon(dp_epsilon, REPLACEMENT_STEPS)
    allowed = tpr_bound(fpr, dp_epsilon)
    allowed_two_steps = tpr_bound(fpr, two_steps)
    readouts: dict[str, Any] = {
        "threshold": threshold,
        "threshold_tpr": tpr,
        "threshold_fpr": fpr,
        "threshold_members": round(tpr * member_losses.size),
        "threshold_nonmembers": round(fpr * nonmember_losses.size),
        "dp_epsilon": dp_epsilon,
        "dp_ratio": math.exp(dp_epsilon),
        "dp_ratio_two_steps": math.exp(two_steps),
        "dp_bound_tpr": allowed,
        "dp_bound_tpr_two_steps": allowed_two_steps,
        "dp_threshold_verdict": _inside_verdict(tpr, allowed),
        "dp_threshold_verdict_two_steps": _inside_verdict(tpr, allowed_two_steps),
        "roc_points": int(fpr_points.size),
        "roc_points_above_bound": int(
            np.sum(tpr_points > tpr_bound(fpr_points, dp_epsilon) + 1e-12)
        ),
        "roc_points_above_two_step_bound": int(
            np.sum(tpr_points > tpr_bound(fpr_points, two_steps) + 1e-12)
        ),
    }
    datasets: dict[str, list[dict[str, Any]]] = {
        "dp_bound": [
            *_bound_rows(DP_RELATIONS[0], dp_epsilon),
            *_bound_rows(DP_RELATIONS[1], two_steps),
        ],
    }
    return {"readouts": readouts, "datasets": datasets}


def compute(
    *,
    epochs: int,
    seed: int,
    threshold: float = DEFAULT_THRESHOLD,
    dp_epsilon: float = DEFAULT_DP_EPSILON,
) -> dict[str, dict[str, Any]]:
    """Everything the lesson page shows for one grid point.

    The model's part (:func:`model_view`) is computed once per ``(epochs,
    seed)`` and shared by every threshold and ε; :func:`threshold_view` adds
    the rule at ``threshold`` (MPa²) and the ε-DP bound at ``dp_epsilon``.
    """
    if threshold not in THRESHOLDS:
        raise ValueError(
            f"threshold must be one of {', '.join(map(str, THRESHOLDS))}, got {threshold!r}"
        )
    if dp_epsilon not in DP_EPSILONS:
        raise ValueError(
            f"dp_epsilon must be one of {', '.join(map(str, DP_EPSILONS))}, got {dp_epsilon!r}"
        )
    model = model_view(epochs, seed)
    snapshot = _snapshot(seed, epochs)
    extra = threshold_view(snapshot.member_losses, snapshot.nonmember_losses, threshold, dp_epsilon)
    return {
        "readouts": {**model["readouts"], **extra["readouts"]},
        "datasets": {**model["datasets"], **extra["datasets"]},
    }


@functools.lru_cache(maxsize=len(EPOCHS) * len(SEEDS))
def model_view(epochs: int, seed: int) -> dict[str, dict[str, Any]]:
    """What the lesson page shows after ``epochs`` epochs of the model for ``seed``.

    Memoized: every threshold and ε of the grid share it (treat the result as
    read-only; :func:`compute` copies the two mappings before adding to them).

    Returns
    -------
    dict
        ``{"readouts": ..., "datasets": ...}``. Readouts are full-precision
        numbers; chart rows are rounded to six digits
        (:func:`~privacy_explorer.lesson.chart_number`). The datasets ``curves`` and
        ``auc_curve`` cover every grid epoch of this seed, so the page draws
        them once per seed and highlights ``epochs``.
    """
    snapshot = _snapshot(seed, epochs)
    data = lesson_data()
    members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
    member_scores, nonmember_scores = loss_scores(members), loss_scores(nonmembers)
    member_count, nonmember_count = members.size, nonmembers.size
    smallest_fpr = 1.0 / nonmember_count
    attack_auc = auc(member_scores, nonmember_scores)
    tpr = max_tpr_at_fpr(member_scores, nonmember_scores, smallest_fpr)
    fpr_points, tpr_points = roc_curve(member_scores, nonmember_scores)
    kept = thin_curve(fpr_points, tpr_points)

    trajectory = training_trajectory(seed)
    aucs = [auc(loss_scores(s.member_losses), loss_scores(s.nonmember_losses)) for s in trajectory]
    low_tprs = [low_fpr_tpr(s) for s in trajectory]
    best_low = int(np.argmax(low_tprs))
    spread = chance_auc_spread(member_count, nonmember_count)
    best = int(np.argmax(aucs))
    report = data.deduplication

    readouts: dict[str, Any] = {
        "raw_rows": report.raw_rows,
        "exact_duplicates": report.exact_duplicates,
        "merged_rows": report.merged_rows,
        "merged_groups": report.merged_groups,
        "distinct_rows": report.rows,
        "training_pool": data.training_pool,
        "evaluation_pool": data.evaluation_pool,
        "member_count": member_count,
        "nonmember_count": nonmember_count,
        "input_count": len(CONCRETE_INPUTS),
        "hidden_units": HIDDEN_UNITS,
        "parameter_count": parameter_count(len(CONCRETE_INPUTS), HIDDEN_UNITS),
        "max_epochs": max(EPOCHS),
        "epochs": epochs,
        "member_rmse": rmse(members),
        "nonmember_rmse": rmse(nonmembers),
        "rmse_gap": rmse(nonmembers) - rmse(members),
        "mse_gap": float(np.mean(nonmembers) - np.mean(members)),
        "member_median_loss": float(np.median(members)),
        "nonmember_median_loss": float(np.median(nonmembers)),
        "auc": attack_auc,
        "auc_se": auc_standard_error(member_scores, nonmember_scores),
        "chance_spread": spread,
        "chance_low": 0.5 - 2 * spread,
        "chance_high": 0.5 + 2 * spread,
        "best_accuracy": best_threshold_accuracy(member_scores, nonmember_scores),
        "smallest_fpr": smallest_fpr,
        "tpr_at_smallest_fpr": tpr,
        "members_caught": round(tpr * member_count),
        "target_fpr": TARGET_FPR,
        "nonmembers_needed": math.ceil(1.0 / TARGET_FPR - 1e-9),
        "zero_fpr_bound": zero_fpr_upper_bound(nonmember_count, CONFIDENCE),
        "confidence": CONFIDENCE,
        "zero_fp_chance": 1.0 - CONFIDENCE,
        "seed": seed,
        "seed_best_low_tpr": low_tprs[best_low],
        "seed_best_low_tpr_epochs": trajectory[best_low].epochs,
        "seed_low_tpr_after_one_epoch": low_tprs[0],
        "peak_auc": aucs[best],
        "peak_epochs": trajectory[best].epochs,
        "final_auc": aucs[-1],
        **auc_drop_readouts(seed_auc_steps(seed)),
    }
    datasets: dict[str, list[dict[str, Any]]] = {
        "loss_bins": loss_bin_rows(members, nonmembers),
        "threshold_choices": threshold_choice_rows(members, nonmembers),
        "roc": [
            {"fpr": chart_number(fpr_points[i]), "tpr": chart_number(tpr_points[i])} for i in kept
        ],
        "diagonal": [{"fpr": 0.0, "tpr": 0.0}, {"fpr": 1.0, "tpr": 1.0}],
        "operating_point": [{"fpr": chart_number(smallest_fpr), "tpr": chart_number(tpr)}],
        "curves": [
            {"epochs": s.epochs, "group": group, "rmse": chart_number(rmse(losses))}
            for s in trajectory
            for group, losses in zip(GROUPS, (s.member_losses, s.nonmember_losses), strict=True)
        ],
        "auc_curve": [
            {
                "epochs": s.epochs,
                "auc": chart_number(value),
                "chance_low": chart_number(0.5 - 2 * spread),
                "chance_high": chart_number(0.5 + 2 * spread),
            }
            for s, value in zip(trajectory, aucs, strict=True)
        ],
    }
    return {"readouts": readouts, "datasets": datasets}


def low_fpr_tpr(snapshot: Snapshot) -> float:
    """The loss attack's TPR at the smallest measurable FPR, one non-member over all."""
    members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
    return max_tpr_at_fpr(loss_scores(members), loss_scores(nonmembers), 1.0 / nonmembers.size)


def summarize(results: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The TPR at the smallest FPR for every number of epochs (rows) and seed (columns), and
    every (epochs, seed) model's MSE gap beside its AUC (the generalization scatter)."""
    by_point = {
        (r["readouts"]["epochs"], r["readouts"]["seed"]): r["readouts"]["tpr_at_smallest_fpr"]
        for r in results.values()
    }
    rows = [
        {"epochs": epochs, **{f"seed_{seed}": by_point[epochs, seed] for seed in SEEDS}}
        for epochs in EPOCHS
    ]
    gaps = {
        (r["readouts"]["epochs"], r["readouts"]["seed"]): (
            r["readouts"]["mse_gap"],
            r["readouts"]["auc"],
        )
        for r in results.values()
    }
    generalization = [
        {
            "epochs": epochs,
            "seed": seed,
            "mse_gap": chart_number(gaps[epochs, seed][0]),
            "auc": chart_number(gaps[epochs, seed][1]),
        }
        for seed in SEEDS
        for epochs in EPOCHS
    ]
    return {"low_fpr_grid": rows, "generalization": generalization}


# --- What the page shows ------------------------------------------------------

GRID = Grid(
    (
        Param("epochs", EPOCHS, DEFAULT_EPOCHS, {"ko": "학습 에포크 수", "en": "Training epochs"}),
        Param(
            "seed",
            SEEDS,
            DEFAULT_SEED,
            {"ko": "시드 (초깃값·배치 순서)", "en": "Seed (start and batch order)"},
        ),
        Param(
            "threshold",
            THRESHOLDS,
            DEFAULT_THRESHOLD,
            {"ko": "기준 손실 t (MPa²)", "en": "Threshold loss t (MPa²)"},
        ),
        Param(
            "dp_epsilon",
            DP_EPSILONS,
            DEFAULT_DP_EPSILON,
            {"ko": "비교할 ε", "en": "ε to compare with"},
            widget="choice",
        ),
    ),
    # every epoch of one seed comes from one training run: compute them in one worker
    group_by=("seed",),
)

_MPA = {"ko": "MPa", "en": "MPa"}
_MPA2 = {"ko": "MPa²", "en": "MPa²"}

READOUTS: tuple[Readout, ...] = (
    Readout("raw_rows", {"ko": "원본 행 수", "en": "Rows in the file"}, ",d"),
    Readout(
        "exact_duplicates",
        {"ko": "완전히 같은 중복 행", "en": "Exact duplicate rows"},
        ",d",
    ),
    Readout(
        "merged_rows",
        {"ko": "입력이 같아 합친 행", "en": "Rows merged for sharing inputs"},
        ",d",
    ),
    Readout(
        "merged_groups",
        {"ko": "강도가 여러 개인 입력 조합", "en": "Input combinations with several strengths"},
        ",d",
    ),
    Readout("distinct_rows", {"ko": "중복 제거 후 행 수", "en": "Rows after deduplication"}, ",d"),
    Readout("training_pool", {"ko": "학습 풀의 행 수", "en": "Rows in the training pool"}, ",d"),
    Readout(
        "evaluation_pool",
        {"ko": "평가 풀의 행 수", "en": "Rows in the evaluation pool"},
        ",d",
    ),
    Readout("member_count", {"ko": "포함 표본 수", "en": "Members"}, ",d"),
    Readout("nonmember_count", {"ko": "미포함 표본 수", "en": "Non-members"}, ",d"),
    Readout("input_count", {"ko": "입력 변수 수", "en": "Inputs"}, "d"),
    Readout("hidden_units", {"ko": "은닉 유닛 수", "en": "Hidden units"}, "d"),
    Readout("parameter_count", {"ko": "가중치와 편향의 수", "en": "Weights and biases"}, ",d"),
    Readout(
        "max_epochs",
        {"ko": "가장 긴 학습", "en": "Longest training"},
        ",d",
        {"ko": "에포크", "en": "epochs"},
        unit_one={"ko": "에포크", "en": "epoch"},
    ),
    Readout(
        "epochs",
        {"ko": "지금의 에포크 수", "en": "Current epochs"},
        ",d",
        {"ko": "에포크", "en": "epochs"},
        unit_one={"ko": "에포크", "en": "epoch"},
    ),
    Readout("member_rmse", {"ko": "포함 표본의 RMSE", "en": "Member RMSE"}, ".2f", _MPA),
    Readout("nonmember_rmse", {"ko": "미포함 표본의 RMSE", "en": "Non-member RMSE"}, ".2f", _MPA),
    Readout(
        "rmse_gap",
        {"ko": "RMSE 차이 (미포함 − 포함)", "en": "RMSE gap (non-members − members)"},
        ".2f",
        _MPA,
    ),
    Readout(
        "member_median_loss",
        {"ko": "포함 표본 손실의 중앙값", "en": "Median member loss"},
        ",.1f",
        _MPA2,
    ),
    Readout(
        "nonmember_median_loss",
        {"ko": "미포함 표본 손실의 중앙값", "en": "Median non-member loss"},
        ",.1f",
        _MPA2,
    ),
    Readout("auc", {"ko": "공격 AUC", "en": "Attack AUC"}, ".3f"),
    Readout(
        "chance_spread",
        {"ko": "정보가 없을 때 AUC의 표준편차", "en": "Standard deviation of the AUC by chance"},
        ".3f",
    ),
    Readout(
        "chance_low", {"ko": "우연 범위의 아래 끝", "en": "Lower end of the chance range"}, ".3f"
    ),
    Readout(
        "chance_high", {"ko": "우연 범위의 위 끝", "en": "Upper end of the chance range"}, ".3f"
    ),
    Readout(
        "best_accuracy",
        {"ko": "가장 좋은 기준값의 정확도", "en": "Accuracy at the best threshold"},
        ".1%",
    ),
    Readout(
        "smallest_fpr",
        {"ko": "잴 수 있는 가장 작은 FPR", "en": "Smallest measurable FPR"},
        ".3%",
    ),
    Readout(
        "tpr_at_smallest_fpr",
        {"ko": "가장 작은 FPR에서의 TPR", "en": "TPR at the smallest FPR"},
        ".3%",  # a multiple of 1/160 = 0.625 %, shown exactly like the FPR
    ),
    Readout(
        "members_caught",
        {"ko": "그때 맞힌 포함 표본 수", "en": "Members caught there"},
        ",d",
    ),
    Readout("target_fpr", {"ko": "논문에서 흔한 FPR 기준", "en": "FPR common in papers"}, ".1%"),
    Readout(
        "nonmembers_needed",
        {"ko": "그 FPR을 재는 데 필요한 최소 미포함 표본", "en": "Non-members needed to reach it"},
        ",d",
    ),
    Readout(
        "zero_fpr_bound",
        {
            "ko": "거짓 양성 0회와 양립하는 FPR의 상한",
            "en": "Upper bound on the FPR after 0 false positives",
        },
        ".1%",
    ),
    Readout("confidence", {"ko": "신뢰 수준", "en": "Confidence level"}, ".0%"),
    Readout(
        "zero_fp_chance",
        {
            "ko": "그 상한의 FPR에서 거짓 양성이 0번일 확률",
            "en": "Chance of 0 false positives at that bound",
        },
        ".0%",
    ),
    Readout(
        "mse_gap",
        {"ko": "MSE의 차이 (미포함 − 포함)", "en": "MSE gap (non-members − members)"},
        ",.4g",
        _MPA2,
    ),
    Readout("seed", {"ko": "지금의 시드", "en": "Current seed"}, "d"),
    Readout(
        "seed_best_low_tpr",
        {
            "ko": "이 시드의 가장 작은 FPR에서 가장 높은 TPR",
            "en": "Highest TPR at the smallest FPR for this seed",
        },
        ".3%",
    ),
    Readout(
        "seed_best_low_tpr_epochs",
        {"ko": "그때의 에포크 수", "en": "Epochs at that TPR"},
        ",d",
        {"ko": "에포크", "en": "epochs"},
        unit_one={"ko": "에포크", "en": "epoch"},
    ),
    Readout(
        "seed_low_tpr_after_one_epoch",
        {
            "ko": "1 에포크 뒤 가장 작은 FPR에서의 TPR",
            "en": "TPR at the smallest FPR after 1 epoch",
        },
        ".3%",
    ),
    Readout(
        "peak_auc", {"ko": "이 시드의 가장 높은 AUC", "en": "Highest AUC for this seed"}, ".3f"
    ),
    Readout(
        "peak_epochs",
        {"ko": "그때의 에포크 수", "en": "Epochs at the highest AUC"},
        ",d",
        {"ko": "에포크", "en": "epochs"},
        unit_one={"ko": "에포크", "en": "epoch"},
    ),
    Readout("final_auc", {"ko": "마지막 에포크의 AUC", "en": "AUC after the last epoch"}, ".3f"),
    Readout(
        "epoch_steps",
        {"ko": "격자에서 에포크를 늘리는 단계 수", "en": "Steps between grid values of epochs"},
        "d",
    ),
    Readout("threshold", {"ko": "기준 손실 t", "en": "Threshold loss t"}, ",.4g", _MPA2),
    Readout("threshold_tpr", {"ko": "기준 t의 참 양성률", "en": "True-positive rate at t"}, ".1%"),
    Readout(
        "threshold_fpr", {"ko": "기준 t의 거짓 양성률", "en": "False-positive rate at t"}, ".1%"
    ),
    Readout(
        "threshold_members",
        {"ko": "기준 t가 포함으로 판정한 포함 표본", "en": "Members judged members at t"},
        ",d",
    ),
    Readout(
        "threshold_nonmembers",
        {"ko": "기준 t가 포함으로 판정한 미포함 표본", "en": "Non-members judged members at t"},
        ",d",
    ),
    Readout("dp_epsilon", {"ko": "비교할 ε", "en": "ε compared with"}, ".4g"),
    Readout("dp_ratio", {"ko": "배율 e^ε", "en": "Factor e^ε"}, ".4g"),
    Readout(
        "dp_bound_tpr",
        {
            "ko": "기준 t의 FPR에서 ε-차등 개인정보보호가 허용하는 가장 큰 TPR",
            "en": "Largest TPR that ε-DP allows at the FPR of t",
        },
        ".1%",
    ),
    Readout(
        "dp_threshold_verdict",
        {"ko": "기준 t의 점과 경계의 관계", "en": "Where the point of t lies against the bound"},
    ),
    Readout("dp_ratio_two_steps", {"ko": "배율 e^2ε", "en": "Factor e^2ε"}, ".4g"),
    Readout(
        "dp_bound_tpr_two_steps",
        {
            "ko": "기준 t의 FPR에서 e^2ε 경계가 허용하는 가장 큰 TPR",
            "en": "Largest TPR that the e^2ε bound allows at the FPR of t",
        },
        ".1%",
    ),
    Readout(
        "dp_threshold_verdict_two_steps",
        {
            "ko": "기준 t의 점과 e^2ε 경계의 관계",
            "en": "Where the point of t lies against the e^2ε bound",
        },
    ),
    Readout(
        "roc_points_above_two_step_bound",
        {"ko": "e^2ε 경계 위에 있는 꼭짓점 수", "en": "Corners above the e^2ε bound"},
        ",d",
    ),
    Readout("roc_points", {"ko": "ROC 곡선의 꼭짓점 수", "en": "Corners of the ROC curve"}, ",d"),
    Readout(
        "roc_points_above_bound",
        {"ko": "경계 위에 있는 꼭짓점 수", "en": "Corners above the bound"},
        ",d",
    ),
    Readout(
        "auc_drops",
        {
            "ko": "에포크를 늘렸는데 AUC가 내려간 횟수",
            "en": "Steps where more epochs lowered the AUC",
        },
        "d",
    ),
    Readout(
        "auc_se",
        {"ko": "공격 AUC의 표준오차", "en": "Standard error of the attack AUC"},
        ".3f",
    ),
    Readout(
        "auc_real_drops",
        {
            "ko": "표준오차의 기준 배수보다 크게 AUC가 내려간 횟수",
            "en": "Falls of the AUC beyond the chosen number of standard errors",
        },
        "d",
    ),
    Readout(
        "noise_multiple",
        {
            "ko": "하락으로 셀 표준오차의 배수",
            "en": "Standard errors a fall must exceed to count",
        },
        "d",
    ),
    Readout(
        "auc_drop_verdict",
        {"ko": "AUC 하락이 잡음을 넘는지", "en": "Whether the AUC falls exceed the noise"},
    ),
)


# --- Tables and charts -----------------------------------------------------------

TABLES: tuple[Table, ...] = (
    Table(
        "low_fpr_grid",
        (
            Column("epochs", {"ko": "에포크", "en": "Epochs"}, ",d"),
            *(
                Column(f"seed_{seed}", {"ko": f"시드 {seed}", "en": f"Seed {seed}"}, ".2%")
                for seed in SEEDS
            ),
        ),
        {
            "ko": "가장 작은 FPR(미포함 표본 하나)에서의 TPR: 모든 에포크와 시드",
            "en": "TPR at the smallest FPR (one non-member): every number of epochs and seed",
        },
        row_headers=True,
    ),
)

CHARTS: tuple[Chart, ...] = (
    Chart(
        "attack",
        functools.partial(
            membership_charts.attack_figure,
            loss_range=(LOSS_EDGES[0], LOSS_EDGES[-1]),
            threshold=DEFAULT_THRESHOLD,
        ),
        {
            "ko": "히스토그램: 포함 표본(위)과 미포함 표본(아래)의 제곱 손실을 모든 설정에서 "
            "같은 로그 눈금 구간에 세고, 기준 손실 t를 세로선으로, 그 왼쪽(포함으로 판정하는 "
            "쪽)을 음영으로 나타낸다. 위쪽 눈금은 t가 설 수 있는 자리다. ROC 패널: 지금 모델의 "
            "ROC 곡선, 그 위에 각 t가 만드는 점(지금의 t는 초록 마름모), FPR = 1/n의 주황 점, "
            "무작위 추측의 회색 대각선, 그리고 고른 ε에서 ε-차등 개인정보보호가 허용하지 않는 "
            "음영 영역과 그 두 경계. 히스토그램이나 곡선 위를 누른 채 끌면 t가 움직인다.",
            "en": "The histogram: the squared losses of members (above) and non-members (below) "
            "counted on log-scale bins that are the same for every setting, with the threshold "
            "loss t as a vertical rule and the side it calls members shaded; the ticks at the top "
            "are where t can stop. The ROC panel: the current model's ROC curve with the point of "
            "every t on it (the current t a green diamond), the orange point at FPR = 1/n, the "
            "grey diagonal of random guessing, and the shaded regions that ε-differential privacy "
            "rules out at the chosen ε, with their two bounds. Press on the histogram or the curve "
            "and drag to move t.",
        },
    ),
    Chart(
        "rmse",
        functools.partial(membership_charts.rmse_chart, epochs=EPOCHS, default=DEFAULT_EPOCHS),
        {
            "ko": "학습 에포크 수에 따라 포함 표본(실선)과 미포함 표본(점선)의 RMSE가 "
            "어떻게 변하는지 그리고, 지금의 에포크를 표시한다.",
            "en": "The RMSE of members (solid) and non-members (dashed) as training goes on, "
            "with the current number of epochs marked.",
        },
    ),
    Chart(
        "generalization",
        functools.partial(membership_charts.generalization_chart, epochs=DEFAULT_EPOCHS),
        {
            "ko": "격자의 모든 (에포크, 시드) 모델마다 MSE의 차이(미포함 − 포함)를 가로축에, "
            "공격 AUC를 세로축에 점으로 찍고, 지금 고른 모델을 크게 표시한다.",
            "en": "For every (epochs, seed) model of the grid, the MSE gap (non-members − "
            "members) across and the attack's AUC up, one point each, with the current model "
            "drawn larger.",
        },
    ),
    Chart(
        "auc",
        functools.partial(membership_charts.auc_chart, epochs=EPOCHS, default=DEFAULT_EPOCHS),
        {
            "ko": "학습 에포크 수에 따른 손실 공격의 AUC를 우연 범위 띠와 함께 그리고, "
            "지금의 에포크를 강조한다.",
            "en": "The AUC of the loss attack across training epochs, with the band of chance "
            "values and the current number of epochs highlighted.",
        },
    ),
)


def _time_training() -> None:
    """Print how long snapshot training and retraining from scratch take for every seed."""
    data = lesson_data()
    started = time.perf_counter()
    for seed in SEEDS:
        train_with_snapshots(data, seed, EPOCHS, SETTINGS)
    snapshots = time.perf_counter() - started
    started = time.perf_counter()
    for seed in SEEDS:
        for epochs in EPOCHS:
            train_with_snapshots(data, seed, (epochs,), SETTINGS)
    retrain = time.perf_counter() - started
    print(f"{len(SEEDS)} seeds, epochs {EPOCHS}")
    print(f"snapshots: {snapshots:.1f} s ({max(EPOCHS)} epochs per seed)")
    print(f"retraining from scratch: {retrain:.1f} s ({sum(EPOCHS)} epochs per seed)")


if __name__ == "__main__":
    _time_training()
