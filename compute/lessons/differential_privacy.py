"""Lesson 03, differential privacy: the Laplace mechanism on concrete strengths.

The private data ``D`` is a fixed sample of :data:`RECORD_COUNT` compressive
strengths from the UCI concrete table, each clipped to [:data:`CLIP_LOWER`,
:data:`CLIP_UPPER`] MPa. One strength plays the part of one person's record.
The neighbour ``D′`` is ``D`` without its strongest record (the first one in
sample order if several tie), so neighbours differ by adding or removing one
record.

Two queries can be asked of ``D``:

``count``
    How many records are at or above :data:`THRESHOLD` MPa. One record moves
    the answer by at most 1, so the sensitivity is 1 record.
``mean``
    The bounded mean: the clipped strengths sit in :data:`SLOTS` public slots,
    an empty slot counts as 0, and the sum is divided by :data:`SLOTS`. The
    denominator is public and fixed, so adding or removing one record moves
    the answer by at most ``CLIP_UPPER / SLOTS`` = 1 MPa.

The mechanism (the library's :mod:`compute.laplace`) releases ``q(D) + Z``
with ``Z ~ Lap(0, b)`` and ``b = Δ / ε``.
For every answer ``x`` the log ratio of the densities on ``D`` and ``D′`` is
``(|x − q(D′)| − |x − q(D)|) / b``, which never exceeds ``ε`` in absolute value;
for the count query it reaches ``ε`` exactly, for the mean it stays below,
because the removed record is weaker than :data:`CLIP_UPPER`.

Releases use common random numbers: the noise of release ``i`` is the inverse
Laplace CDF of the ``i``-th of :data:`MAX_RELEASES` uniforms drawn once from
:data:`NOISE_SEED`. The same uniforms serve every query, every ``ε`` and every
``k``, so moving ``ε`` only rescales the same draws, and the releases for ``k``
are the first ``k`` of those for ``k + 1``. Both queries have sensitivity 1,
so at equal ``ε`` they receive identical noise.

Constants
---------
``SEED``
    Seed of ``numpy.random.default_rng`` that draws ``D`` (without replacement)
    from the 1,030 rows; the year of Yeh's paper, otherwise arbitrary.
``NOISE_SEED``
    Seed of the uniforms behind the releases; the year the Laplace mechanism
    was published (Dwork et al. 2006), otherwise arbitrary.
``RECORD_COUNT``, ``SLOTS``
    ``|D|`` = 100, and the 100 public slots of the bounded mean.
``CLIP_LOWER``, ``CLIP_UPPER``
    Every strength is clipped to [0, 100] MPa before any query sees it.
``THRESHOLD``
    The count query counts records at or above 40 MPa.
``QUERIES``, ``EPSILONS``, ``MAX_RELEASES``, ``DEFAULT_RELEASES``
    The grid: the two queries, ε per release, and k from 1 to 20 (5 when the
    page opens).
``DENSITY_POINTS``, ``TAIL_SCALES``
    The density charts use about 300 evenly spaced answers reaching 6 Laplace
    scales beyond both true answers (the density there is e⁻⁶ ≈ 0.25 % of
    its peak); see :func:`compute.laplace.answer_grid`.
Chart rows
    carry numbers rounded by :func:`privacy_explorer.lesson.chart_number` (6
    significant digits), which keeps the page data small and stable; readouts
    keep full precision and are rounded for display by their format.
Charts
    take their size and colours from :mod:`compute.lessons.style`: ``D`` is
    drawn solid in blue and ``D′`` dashed in vermillion, so they differ
    without colour too.

What ε means to an attacker
    An attacker who believes, before any release, that the data are ``D``
    (the strongest record is in) with probability ``p`` can, after one
    release, believe it at most ``p·e^ε / (p·e^ε + 1 − p)``
    (:func:`compute.dp_bounds.posterior_bounds`). :func:`summarize` draws that
    bound over ε for the priors :data:`POSTERIOR_PRIORS`, on
    :data:`POSTERIOR_EPSILON_POINTS` log-spaced values of ε between
    :data:`POSTERIOR_EPSILON_RANGE` plus the grid's own ``EPSILONS``. Each grid
    point adds what a Bayes attacker with prior :data:`ATTACKER_PRIOR` actually
    believes after seeing all ``k`` releases (the product of their exact
    density ratios), next to the bound ``e^{kε}`` allows.

Many releases against the exact density
    Each grid point also draws :data:`SAMPLED_RELEASES` releases on ``D`` from
    the same stream of uniforms (its first :data:`MAX_RELEASES` are the
    releases above) and counts them in bins of :data:`HISTOGRAM_BIN_SCALES`
    Laplace scales, scaled to a density (:func:`compute.laplace.density_histogram`),
    so that the chart can lay them over the exact density. The readout
    ``sampled_share`` is the share that landed within one scale of ``q(D)``;
    the exact probability is ``1 − e^{−1}``. As the draws are common random
    numbers, that share is the same at every grid point.

The clip bound
    The mechanism above clips at :data:`CLIP_UPPER`. The grid parameter ``clip``
    asks, for the bounded mean at the current ε, what another public bound
    ``C`` from :data:`CLIP_BOUNDS` would give: sensitivity ``C / SLOTS``,
    scale ``b = C / (SLOTS·ε)`` (also the expected absolute error of the
    noise), the bias of the clip (clipped mean − mean of the drawn strengths,
    :func:`compute.laplace.clip_bias`) and the root mean squared error
    ``sqrt(bias² + 2b²)`` (:func:`compute.laplace.release_rmse`). It changes
    only those ``clip_*`` readouts; the dataset ``clip_tradeoff`` draws the
    same numbers over :data:`CLIP_CURVE` at the current ε. The candidate
    bounds are round public numbers, as a real bound must be fixed without
    looking at the private data; some lie below the largest strength drawn, so
    the clip binds there.

Readouts measured in the answer's unit (``true_answer``, ``neighbour_answer``,
``answer_change``, ``sensitivity``, ``scale``, ``mae_theory``,
``mae_empirical``, ``latest_release``) are plain numbers without a unit,
because the unit depends on the query: records for ``count``, MPa for
``mean``. The readout ``answer_unit`` gives that unit in both languages.

This is a teaching simulation: the seeds are public and the sampling uses
floating point, so it offers no protection to real data.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import altair as alt
import numpy as np
import numpy.typing as npt
import pandas as pd

from privacy_explorer.compute.datasets import CONCRETE_TARGET, DATA_DIR, load_concrete
from privacy_explorer.compute.dp_bounds import (
    bayes_posterior,
    laplace_optimal_tpr,
    laplace_roc_breaks,
    posterior_bounds,
    tpr_bound,
)
from privacy_explorer.compute.laplace import (
    COUNT_SENSITIVITY,
    answer_grid,
    bounded_mean_query,
    bounded_mean_sensitivity,
    clip_bias,
    count_query,
    density_histogram,
    laplace_density,
    laplace_noise,
    log_density_ratio,
    mean_absolute_error,
    release_rmse,
    seeded_uniforms,
    strongest_record,
    within_scales_probability,
    without_record,
)
from privacy_explorer.compute.lessons import differential_privacy_charts
from privacy_explorer.compute.lessons.style import (
    BLUE,
    GREEN,
    GREY,
    GUIDE_DASH,
    INK,
    LIGHT_GREY,
    VALUE_SIZE,
    VERMILLION,
    Baseline,
    across,
    in_language,
    integer_axis,
    layered,
    legend_above,
    legend_inside,
    pair_scales,
    titled,
)
from privacy_explorer.lesson import Chart, Grid, Param, Readout, chart_number

DATA_FILES: tuple[str, ...] = ("concrete.csv",)

SEED = 1998
NOISE_SEED = 2006
RECORD_COUNT = 100
SLOTS = 100
CLIP_LOWER = 0.0
CLIP_UPPER = 100.0
THRESHOLD = 40.0
QUERIES: tuple[str, ...] = ("count", "mean")
EPSILONS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
MAX_RELEASES = 20
DEFAULT_RELEASES = 5
DEFAULT_EPSILON = 1.0
DENSITY_POINTS = 300
TAIL_SCALES = 6.0

SAMPLED_RELEASES = 5_000
"""Releases drawn for the histogram: enough that its bars follow the density closely."""
HISTOGRAM_BIN_SCALES = 0.25
"""The histogram's bin width, in Laplace scales ``b``."""

CLIP_BOUNDS: tuple[float, ...] = (40.0, 60.0, 80.0, 100.0, 150.0)
"""The public clip bounds ``C`` (MPa) the clip control offers; :data:`CLIP_UPPER` opens the page."""
CLIP_CURVE: tuple[float, ...] = tuple(float(bound) for bound in range(30, 161, 5))
"""The bounds (MPa) at which the clip chart draws bias and error: every 5 MPa, the grid's too."""

POSTERIOR_PRIORS: tuple[float, ...] = (0.01, 0.1, 0.5)
"""The attacker's prior beliefs that the record is in the data, one line each in the chart."""
POSTERIOR_EPSILON_RANGE: tuple[float, float] = (0.01, 10.0)
POSTERIOR_EPSILON_POINTS = 61
ATTACKER_PRIOR = 0.5
"""The prior of the attacker whose actual posterior after the k releases is a readout."""

DATASET_LABELS: tuple[str, str] = ("D", "D\u2032")
"""How the two datasets are named in chart rows: ``D`` and ``D′`` (U+2032 prime)."""

ANSWER_UNITS: dict[str, dict[str, str]] = {
    "count": {"ko": "기록 수", "en": "records"},
    "mean": {"ko": "MPa", "en": "MPa"},
}
"""The unit of the answers, which depends on the query (readout ``answer_unit``)."""
ANSWER_UNITS_ONE: dict[str, dict[str, str]] = {
    "count": {"ko": "기록 수", "en": "record"},
    "mean": ANSWER_UNITS["mean"],
}
"""The unit after a number shown as exactly 1: English counts one record, not 1 records."""
COUNTED_READOUTS = (
    "true_answer",
    "neighbour_answer",
    "sensitivity",
    "scale",
    "neighbour_scale",
    "mae_theory",
    "mae_empirical",
    "latest_release",
)
"""Readouts in the answer's unit: each has a ``<name>_unit`` readout that agrees with it."""

FloatArray = npt.NDArray[np.float64]


# --- The data and the queries -------------------------------------------------


def sample_strengths(
    data: pd.DataFrame, seed: int, size: int = RECORD_COUNT, upper: float = CLIP_UPPER
) -> FloatArray:
    """Draw ``size`` strengths without replacement and clip them to [0, ``upper``].

    Parameters
    ----------
    data
        The concrete table (see :func:`compute.datasets.load_concrete`).
    seed
        Seed of ``numpy.random.default_rng``, whose ``choice`` picks the rows.
    size
        Number of records in the sample.
    upper
        Clipping bound in MPa.

    Returns
    -------
    numpy.ndarray
        The clipped strengths in MPa, in the order they were drawn.
    """
    clipped: FloatArray = np.clip(raw_strengths(data, seed, size), CLIP_LOWER, upper)
    return clipped


def raw_strengths(data: pd.DataFrame, seed: int, size: int = RECORD_COUNT) -> FloatArray:
    """The ``size`` strengths :func:`sample_strengths` draws, before they are clipped (MPa)."""
    strengths = data[CONCRETE_TARGET].to_numpy(dtype=float)
    rows = np.random.default_rng(seed).choice(strengths.size, size=size, replace=False)
    drawn: FloatArray = strengths[rows]
    return drawn


class ClipEffect(NamedTuple):
    """How much the clip to [:data:`CLIP_LOWER`, :data:`CLIP_UPPER`] changes the data."""

    sample_max: float
    """The largest strength drawn into ``D``, before clipping (MPa)."""
    table_max: float
    """The largest strength in the whole concrete table (MPa)."""
    changed: int
    """Drawn strengths outside the clip range: the records whose value the clip changes."""


@functools.cache
def clipping_effect(data_dir: Path = DATA_DIR) -> ClipEffect:
    """How much the clip changes ``D`` (nothing, when every strength lies inside it)."""
    data = load_concrete(data_dir)
    drawn = raw_strengths(data, SEED)
    outside = int(np.sum((drawn < CLIP_LOWER) | (drawn > CLIP_UPPER)))
    return ClipEffect(float(drawn.max()), float(data[CONCRETE_TARGET].max()), outside)


@functools.cache
def drawn_strengths(data_dir: Path = DATA_DIR) -> FloatArray:
    """The strengths of ``D`` before any clip, read once per process (read-only)."""
    values = raw_strengths(load_concrete(data_dir), SEED)
    values.flags.writeable = False
    return values


@functools.cache
def dataset_d(data_dir: Path = DATA_DIR) -> FloatArray:
    """The lesson's private data ``D``: the clipped strengths drawn by :data:`SEED`.

    Read once per process; the returned array is read-only.
    """
    values = sample_strengths(load_concrete(data_dir), SEED)
    values.flags.writeable = False
    return values


def _check_query(query: str) -> None:
    if query not in QUERIES:
        raise ValueError(f"query must be one of {', '.join(QUERIES)}, got {query!r}")


def answer(query: str, values: npt.ArrayLike) -> float:
    """The true answer of ``query`` on ``values``: the count at or above :data:`THRESHOLD`,
    or the mean bounded by :data:`CLIP_UPPER` over :data:`SLOTS` slots."""
    _check_query(query)
    if query == "count":
        return float(count_query(values, THRESHOLD))
    return bounded_mean_query(values, SLOTS, CLIP_UPPER)


def sensitivity(query: str) -> float:
    """Global sensitivity of ``query`` under add/remove-one neighbours (1 for both queries)."""
    _check_query(query)
    return COUNT_SENSITIVITY if query == "count" else bounded_mean_sensitivity(SLOTS, CLIP_UPPER)


def release_answers(
    true_answer: float, scale: float, releases: int, seed: int = NOISE_SEED
) -> FloatArray:
    """The first ``releases`` noisy answers ``true_answer + Lap(0, scale)``.

    The noise comes from the same :data:`MAX_RELEASES` seeded uniforms whatever
    the scale and the number of releases (common random numbers).
    """
    if not 1 <= releases <= MAX_RELEASES:
        raise ValueError(f"releases must be between 1 and {MAX_RELEASES}, got {releases!r}")
    uniforms = seeded_uniforms(seed, MAX_RELEASES)[:releases]
    return true_answer + laplace_noise(uniforms, scale)


# --- One grid point -----------------------------------------------------------


def compute(
    *, query: str, epsilon: float, releases: int, clip: float = CLIP_UPPER
) -> dict[str, dict[str, Any]]:
    """Everything the lesson page shows for one grid point.

    Parameters
    ----------
    query
        ``"count"`` or ``"mean"``.
    epsilon
        Privacy budget per release, > 0.
    releases
        Number of releases ``k``, from 1 to :data:`MAX_RELEASES`.
    clip
        The clip bound ``C`` (MPa) whose effect on the bounded mean the
        ``clip_*`` readouts show; the mechanism itself clips at :data:`CLIP_UPPER`.

    Returns
    -------
    dict
        ``{"readouts": ..., "datasets": ...}`` as described by ``READOUTS`` and
        the charts. Readouts are plain numbers at full precision (except the
        unit string ``answer_unit``); chart rows are rounded to
        six significant digits (:func:`~privacy_explorer.lesson.chart_number`).
    """
    _check_query(query)
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    if not (math.isfinite(clip) and clip > 0):
        raise ValueError(f"clip must be a finite number > 0, got {clip!r}")
    readouts, datasets = _mechanism(query, float(epsilon), releases)
    histogram_rows, sampled_share = _sampled_releases(query, float(epsilon))
    exact_share = within_scales_probability(1.0)
    # The count within one scale is binomial(N, 1 − 1/e): its share's standard error, and
    # (normal approximation) how often chance alone lands at least this far from 1 − 1/e.
    standard_error = math.sqrt(exact_share * (1.0 - exact_share) / SAMPLED_RELEASES)
    gap = abs(sampled_share - exact_share) / standard_error
    return {
        "readouts": {
            **readouts,
            "sampled_releases": SAMPLED_RELEASES,
            "sampled_share": sampled_share,
            "exact_share": exact_share,
            "share_standard_error": standard_error,
            "share_gap_chance": math.erfc(gap / math.sqrt(2.0)),
            "share_gap_one_in": round(1.0 / math.erfc(gap / math.sqrt(2.0))),
            **clip_readouts(float(epsilon), float(clip)),
        },
        "datasets": {
            **datasets,
            "release_histogram": histogram_rows,
            "clip_tradeoff": clip_tradeoff_rows(float(epsilon)),
            "optimal_test": optimal_test_rows(query, float(epsilon)),
        },
    }


def _noise_scale(query: str, epsilon: float) -> tuple[float, float]:
    """The true answer on ``D`` and the Laplace scale of ``query`` at ``epsilon``."""
    return answer(query, dataset_d()), sensitivity(query) / epsilon


@functools.cache
def _sampled_releases(query: str, epsilon: float) -> tuple[list[dict[str, Any]], float]:
    """The histogram rows of :data:`SAMPLED_RELEASES` releases on ``D``, and their share
    within one scale of ``q(D)``; they depend on the query and ε only.

    Each row is a bin from ``start`` to ``end`` with the sampled ``density`` and the
    exact density of the release at ``start``.
    """
    true_answer, scale = _noise_scale(query, epsilon)
    uniforms = seeded_uniforms(NOISE_SEED, SAMPLED_RELEASES)
    sampled = true_answer + laplace_noise(uniforms, scale)
    histogram = density_histogram(sampled, true_answer, HISTOGRAM_BIN_SCALES * scale)
    # The exact density at each bin's left edge draws the curve over the bars: the edges are a
    # quarter scale apart and q(D), the peak, is one of them.
    exact = laplace_density(histogram.edges[:-1], true_answer, scale)
    rows = [
        {
            "start": chart_number(start),
            "end": chart_number(end),
            "density": chart_number(density),
            "exact": chart_number(at_start),
        }
        for start, end, density, at_start in zip(
            histogram.edges[:-1], histogram.edges[1:], histogram.densities, exact, strict=True
        )
    ]
    share = float(np.mean(np.abs(sampled - true_answer) <= scale))
    return rows, share


def clip_readouts(epsilon: float, clip: float) -> dict[str, Any]:
    """What the bounded mean at ``epsilon`` would give with the public clip bound ``clip``."""
    drawn = drawn_strengths()
    scale = bounded_mean_sensitivity(SLOTS, clip) / epsilon
    bias = clip_bias(drawn, clip)
    rmse_by_bound = {bound: clip_rmse(drawn, epsilon, bound) for bound in CLIP_BOUNDS}
    return {
        "clip_bound": clip,
        "clip_sensitivity": bounded_mean_sensitivity(SLOTS, clip),
        "clip_scale": scale,
        "clip_bias": bias,
        "clip_rmse": release_rmse(bias, scale),
        "clip_changed": int(np.count_nonzero(drawn > clip)),
        "true_mean": float(np.mean(drawn)),
        "best_clip": min(rmse_by_bound, key=lambda bound: rmse_by_bound[bound]),
    }


def clip_rmse(drawn: npt.ArrayLike, epsilon: float, clip: float) -> float:
    """Root mean squared error of the bounded mean of ``drawn``, clipped at ``clip``, at ε."""
    return release_rmse(clip_bias(drawn, clip), bounded_mean_sensitivity(SLOTS, clip) / epsilon)


@functools.cache
def _mechanism(
    query: str, epsilon: float, releases: int
) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The readouts and chart rows of the mechanism, which do not depend on the clip control.

    Cached: the five clip bounds of a grid point share them. Callers must not change them.
    """
    d = dataset_d()
    removed = strongest_record(d)
    true_answer = answer(query, d)
    neighbour_answer = answer(query, without_record(d, removed))
    delta = sensitivity(query)
    scale = delta / epsilon
    noisy = release_answers(true_answer, scale, releases)

    x = answer_grid(true_answer, neighbour_answer, scale, DENSITY_POINTS, TAIL_SCALES)
    density_d = laplace_density(x, true_answer, scale)
    density_d_prime = laplace_density(x, neighbour_answer, scale)
    log_ratio = log_density_ratio(x, true_answer, neighbour_answer, scale)
    # The k releases are independent, so their density ratios multiply: the log ratios add.
    evidence = float(np.sum(log_density_ratio(noisy, true_answer, neighbour_answer, scale)))

    readouts: dict[str, Any] = {
        "true_answer": true_answer,
        "neighbour_answer": neighbour_answer,
        "answer_change": abs(true_answer - neighbour_answer),
        "answer_unit": ANSWER_UNITS[query],
        "sensitivity": delta,
        "scale": scale,
        "epsilon": float(epsilon),
        "epsilon_total": releases * epsilon,
        "ratio_bound": math.exp(epsilon),
        "neighbour_epsilon": neighbour_epsilon(epsilon),
        "neighbour_scale": delta / neighbour_epsilon(epsilon),
        "scale_factor": epsilon / neighbour_epsilon(epsilon),
        "mae_theory": scale,
        # The standard deviation of the empirical error is b/sqrt(k): relative to b, 1/sqrt(k).
        "error_spread": 1.0 / math.sqrt(releases),
        "mae_empirical": mean_absolute_error(noisy, true_answer),
        "max_log_ratio": float(np.max(np.abs(log_ratio))),
        "removed_record": float(d[removed]),
        "latest_release": float(noisy[-1]),
        "record_count": int(d.size),
        "at_or_above_threshold": count_query(d, THRESHOLD),
        "threshold": THRESHOLD,
        "clip_upper": CLIP_UPPER,
        "slots": SLOTS,
        "max_strength": clipping_effect().sample_max,
        "table_max_strength": clipping_effect().table_max,
        "clipped_records": clipping_effect().changed,
        "attacker_prior": ATTACKER_PRIOR,
        "posterior_bound": posterior_bounds(ATTACKER_PRIOR, epsilon)[1],
        "posterior_bound_rare": posterior_bounds(POSTERIOR_PRIORS[0], epsilon)[1],
        "posterior_bound_total": posterior_bounds(ATTACKER_PRIOR, releases * epsilon)[1],
        "posterior_after_releases": bayes_posterior(ATTACKER_PRIOR, evidence),
        **optimal_test_readouts(true_answer, neighbour_answer, scale, epsilon),
    }
    readouts |= {
        f"{name}_unit": unit_after(query, readouts[name], name) for name in COUNTED_READOUTS
    }
    datasets: dict[str, list[dict[str, Any]]] = {
        "densities": [
            {"x": chart_number(at), "density": chart_number(density), "dataset": label}
            for label, densities in zip(DATASET_LABELS, (density_d, density_d_prime), strict=True)
            for at, density in zip(x, densities, strict=True)
        ],
        "log_ratio": [
            {"x": chart_number(at), "log_ratio": chart_number(ratio)}
            for at, ratio in zip(x, log_ratio, strict=True)
        ],
        "bounds": [{"bound": chart_number(-epsilon)}, {"bound": chart_number(epsilon)}],
        "releases": [
            {
                "release": number,
                "answer": chart_number(value),
                "true_answer": chart_number(true_answer),
                "neighbour_answer": chart_number(neighbour_answer),
            }
            for number, value in enumerate(noisy, start=1)
        ],
        "budget": [
            {"k": k, "epsilon_total": chart_number(k * epsilon)} for k in range(1, MAX_RELEASES + 1)
        ],
    }
    return readouts, datasets


def unit_after(query: str, value: float, readout: str) -> dict[str, str]:
    """The answer's unit after readout ``readout`` showing ``value``: singular in English
    when the page shows the number as exactly 1 (``1 record``), plural otherwise."""
    shown = {r.name: r for r in READOUTS}[readout].text(value, "en")
    return (ANSWER_UNITS_ONE if shown == "1" else ANSWER_UNITS)[query]


OPTIMAL_TEST_FPR = 0.1
"""The false-positive rate at which the page compares the optimal test's TPR with the bound."""

OPTIMAL_TEST_POINTS = 24
"""Points of the optimal test's ROC on its curved piece (log-spaced); the two straight pieces
need only their ends."""


def optimal_test_readouts(
    true_answer: float, neighbour_answer: float, scale: float, epsilon: float
) -> dict[str, float]:
    """Where the ROC of the best test of ``D`` against ``D′`` meets the ε bound, and its TPR
    at :data:`OPTIMAL_TEST_FPR` beside the bound's."""
    shift = abs(true_answer - neighbour_answer)
    first, second = laplace_roc_breaks(shift, scale)
    return {
        "optimal_loss": shift / scale,
        "optimal_touch_fpr": first,
        "optimal_mirror_fpr": second,
        "optimal_fpr": OPTIMAL_TEST_FPR,
        "optimal_tpr": laplace_optimal_tpr(OPTIMAL_TEST_FPR, shift, scale),
        "optimal_bound_tpr": tpr_bound(OPTIMAL_TEST_FPR, epsilon),
    }


@functools.cache
def optimal_test_rows(query: str, epsilon: float) -> list[dict[str, Any]]:
    """The exact ROC of the likelihood-ratio test between the releases on ``D`` and ``D′``,
    with the ε-DP bound at each of its false-positive rates.

    The curve is straight up to ``FPR = e^−s/b / 2`` and from ``FPR = 1/2`` on, curved in
    between; the bound bends at ``1/(1 + e^ε)``. Rows sit at all three breaks and log-spaced
    over the curved piece. Cached: the releases and the clip bound do not change them.
    """
    d = dataset_d()
    true_answer = answer(query, d)
    shift = abs(true_answer - answer(query, without_record(d, strongest_record(d))))
    scale = sensitivity(query) / epsilon
    first, second = laplace_roc_breaks(shift, scale)
    kink = 1.0 / (1.0 + math.exp(epsilon))
    curved = np.geomspace(first, second, OPTIMAL_TEST_POINTS)
    rates = np.array(sorted({0.0, 1.0, kink, *map(float, curved)}))
    power = laplace_optimal_tpr(rates, shift, scale)
    bound = tpr_bound(rates, epsilon)
    return [
        {"fpr": chart_number(rate), "tpr": chart_number(tpr), "bound": chart_number(limit)}
        for rate, tpr, limit in zip(rates, power, bound, strict=True)
    ]


def neighbour_epsilon(epsilon: float) -> float:
    """The grid's ε next to ``epsilon``: the nearest one below, or above at the smallest.

    The first quiz asks the learner to move ε and watch ``b = Δ/ε`` grow in
    inverse proportion; the grid offers no half of every ε, so the page
    names this neighbour and the scale there.
    """
    below = [value for value in EPSILONS if value < epsilon]
    if below:
        return max(below)
    return min(value for value in EPSILONS if value > epsilon)


def posterior_epsilons() -> tuple[float, ...]:
    """The ε values of the posterior chart: log-spaced over :data:`POSTERIOR_EPSILON_RANGE`,
    plus the grid's ``EPSILONS`` so that the current ε lies exactly on every line."""
    low, high = POSTERIOR_EPSILON_RANGE
    spaced = np.geomspace(low, high, POSTERIOR_EPSILON_POINTS)
    return tuple(sorted({chart_number(float(value)) for value in spaced} | set(EPSILONS)))


def prior_label(prior: float) -> str:
    """How a prior is named in the chart's legend: ``0.1`` → ``"10%"``."""
    return f"{prior:.0%}"


@functools.cache
def clip_tradeoff_rows(epsilon: float) -> list[dict[str, Any]]:
    """Bias, noise and total error of the bounded mean over :data:`CLIP_CURVE` at ``epsilon``.

    One row per bound: ``bias`` is the size of the clip's bias (MPa, ≥ 0),
    ``noise`` the standard deviation ``√2·b`` of the Laplace noise, ``rmse`` both
    together. Cached: every grid point with this ε shares the rows (callers must
    not change them).
    """
    drawn = drawn_strengths()
    rows = []
    for bound in CLIP_CURVE:
        scale = bounded_mean_sensitivity(SLOTS, bound) / epsilon
        bias = clip_bias(drawn, bound)
        rows.append(
            {
                "clip": bound,
                "bias": chart_number(abs(bias)),
                "noise": chart_number(math.sqrt(2.0) * scale),
                "rmse": chart_number(release_rmse(bias, scale)),
            }
        )
    return rows


def summarize(results: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Datasets that are the same on every grid point: the posterior bound over ε, and the
    largest strength drawn (marked on the clip chart).

    ``results`` (every point's result) is not needed: the bound is a closed
    form of the prior and ε alone.
    """
    del results
    rows = []
    for prior in POSTERIOR_PRIORS:
        for epsilon in posterior_epsilons():
            high = posterior_bounds(prior, epsilon)[1]
            rows.append(
                {
                    "epsilon": epsilon,
                    "prior": prior_label(prior),
                    "posterior_high": chart_number(high),
                }
            )
    return {
        "posterior": rows,
        "clip_sample_max": [{"clip": chart_number(clipping_effect().sample_max)}],
    }


# --- What the page shows ------------------------------------------------------

GRID = Grid(
    (
        Param(
            "query",
            QUERIES,
            "count",
            {"ko": "질의", "en": "Query"},
            value_labels={
                "ko": ("개수 (40 MPa 이상)", "제한 평균"),
                "en": ("Count (≥ 40 MPa)", "Bounded mean"),
            },
        ),
        Param(
            "epsilon",
            EPSILONS,
            DEFAULT_EPSILON,
            {"ko": "ε (질의당 예산)", "en": "ε (budget per query)"},
        ),
        Param(
            "releases",
            tuple(range(1, MAX_RELEASES + 1)),
            DEFAULT_RELEASES,
            {"ko": "공개 횟수 k", "en": "Releases k"},
        ),
        Param(
            "clip",
            CLIP_BOUNDS,
            CLIP_UPPER,
            {"ko": "자르기 상한 C", "en": "Clip bound C"},
            value_labels={
                lang: tuple(f"{bound:g} MPa" for bound in CLIP_BOUNDS) for lang in ("ko", "en")
            },
        ),
    )
)

LAZY: tuple[str, ...] = (
    "clip_tradeoff",
    "densities",
    "log_ratio",
    "optimal_test",
    "release_histogram",
    "releases",
)
"""Per-point chart rows (600 density points, the histogram bins, the releases, the error over
the clip bound) loaded when a control first needs them: with the page they would be most of its
first-load weight. Points that share rows (the clip rows depend on ε alone) share one copy."""

_RECORDS = {"ko": "개", "en": "records"}
_RECORD = {"ko": "개", "en": "record"}
_MPA = {"ko": "MPa", "en": "MPa"}

# Readouts measured in the query's unit (true_answer ... latest_release) carry
# no unit of their own: the prose adds {{< readout answer_unit >}} where needed.
READOUTS: tuple[Readout, ...] = (
    Readout("true_answer", {"ko": "참값 q(D)", "en": "True answer q(D)"}, ".4g"),
    Readout(
        "neighbour_answer",
        {"ko": "이웃 데이터의 참값 q(D′)", "en": "True answer on the neighbour q(D′)"},
        ".4g",
    ),
    Readout(
        "answer_change",
        {"ko": "두 참값의 차이 |q(D) − q(D′)|", "en": "Change of the true answer |q(D) − q(D′)|"},
        ".4g",
    ),
    Readout("answer_unit", {"ko": "답의 단위", "en": "Unit of the answer"}),
    *(
        Readout(f"{name}_unit", {"ko": "답의 단위", "en": "Unit of the answer"})
        for name in COUNTED_READOUTS
    ),
    Readout("sensitivity", {"ko": "민감도 Δ", "en": "Sensitivity Δ"}, ".4g"),
    Readout("scale", {"ko": "라플라스 척도 b", "en": "Laplace scale b"}, ".4g"),
    Readout("epsilon", {"ko": "질의당 예산 ε", "en": "Budget per query ε"}, ".4g"),
    Readout(
        "neighbour_epsilon",
        {"ko": "격자에서 이웃한 ε", "en": "The neighbouring ε on the grid"},
        ".4g",
    ),
    Readout(
        "neighbour_scale",
        {"ko": "이웃한 ε에서의 라플라스 척도 b", "en": "Laplace scale b at the neighbouring ε"},
        ".4g",
    ),
    Readout(
        "scale_factor",
        {"ko": "이웃한 ε에서 b가 커지는 배수", "en": "How many times b grows there"},
        ".4g",
    ),
    Readout("epsilon_total", {"ko": "누적 예산 kε", "en": "Total budget kε"}, ".4g"),
    Readout(
        "ratio_bound",
        {"ko": "확률비의 상한 e^ε", "en": "Bound on the probability ratio e^ε"},
        ".4g",
    ),
    Readout(
        "mae_theory",
        {"ko": "이론적 평균 절대 오차 Δ/ε", "en": "Theoretical mean absolute error Δ/ε"},
        ".4g",
    ),
    Readout(
        "error_spread",
        {
            "ko": "경험적 오차의 상대적 흔들림 1/√k",
            "en": "Relative spread of the empirical error 1/√k",
        },
        ".0%",
    ),
    Readout(
        "mae_empirical",
        {"ko": "경험적 평균 절대 오차", "en": "Empirical mean absolute error"},
        ".4g",
    ),
    Readout(
        "max_log_ratio",
        {"ko": "로그 밀도비의 최대 절댓값", "en": "Largest absolute log density ratio"},
        ".4g",
    ),
    Readout(
        "removed_record",
        {"ko": "D′에서 뺀 기록의 강도", "en": "Strength of the record missing from D′"},
        ".2f",
        _MPA,
    ),
    Readout("latest_release", {"ko": "k번째 공개값", "en": "The k-th release"}, ".4g"),
    Readout("record_count", {"ko": "D의 기록 수", "en": "Records in D"}, "d", _RECORDS),
    Readout(
        "at_or_above_threshold",
        {"ko": "40 MPa 이상인 기록 수", "en": "Records at or above 40 MPa"},
        "d",
        _RECORDS,
    ),
    Readout(
        "threshold", {"ko": "개수 질의의 기준", "en": "Threshold of the count query"}, ".4g", _MPA
    ),
    Readout("clip_upper", {"ko": "자르기 상한", "en": "Clipping bound"}, ".4g", _MPA),
    Readout(
        "slots", {"ko": "공개된 자리 수 (기록 수 상한)", "en": "Public slots (cap on records)"}, "d"
    ),
    Readout(
        "max_strength",
        {"ko": "뽑은 강도의 최댓값 (자르기 전)", "en": "Largest strength drawn (before clipping)"},
        ".1f",
        _MPA,
    ),
    Readout(
        "table_max_strength",
        {"ko": "전체 표의 최대 강도", "en": "Largest strength in the whole table"},
        ".1f",
        _MPA,
    ),
    Readout(
        "clipped_records",
        {"ko": "자르기로 값이 바뀐 기록 수", "en": "Records the clip changes"},
        "d",
        _RECORDS,
        unit_one=_RECORD,
    ),
    Readout(
        "attacker_prior",
        {"ko": "공격자의 사전 믿음", "en": "The attacker's prior belief"},
        ".0%",
    ),
    Readout(
        "posterior_bound",
        {
            "ko": "공개값 하나를 본 뒤 사후 믿음의 상한 (사전 50%)",
            "en": "Largest posterior belief after one release (prior 50%)",
        },
        ".2%",
    ),
    Readout(
        "posterior_bound_rare",
        {
            "ko": "공개값 하나를 본 뒤 사후 믿음의 상한 (사전 1%)",
            "en": "Largest posterior belief after one release (prior 1%)",
        },
        ".2%",
    ),
    Readout(
        "posterior_bound_total",
        {
            "ko": "공개값 k개를 본 뒤 사후 믿음의 상한 (사전 50%, 누적 kε)",
            "en": "Largest posterior belief after k releases (prior 50%, total kε)",
        },
        ".2%",
    ),
    Readout(
        "posterior_after_releases",
        {
            "ko": "실제 공개값 k개를 본 공격자의 사후 믿음 (사전 50%)",
            "en": "The attacker's posterior belief after the actual k releases (prior 50%)",
        },
        ".2%",
    ),
    Readout(
        "sampled_releases",
        {"ko": "표본으로 뽑은 공개값", "en": "Sampled releases"},
        ",d",
        {"ko": "개", "en": "releases"},
    ),
    Readout(
        "sampled_share",
        {
            "ko": "참값에서 b 이내에 떨어진 표본의 비율",
            "en": "Share of sampled releases within b of the true answer",
        },
        ".1%",
    ),
    Readout(
        "exact_share",
        {"ko": "그 정확한 확률 1 − e⁻¹", "en": "Its exact probability 1 − e⁻¹"},
        ".1%",
    ),
    Readout(
        "share_standard_error",
        {"ko": "그 비율의 표준오차", "en": "Standard error of that share"},
        ".2%",
    ),
    Readout(
        "share_gap_one_in",
        {
            "ko": "그만큼 벗어나는 표본이 몇 번에 한 번꼴인지",
            "en": "One sample in how many strays that far",
        },
        ",d",
    ),
    Readout(
        "share_gap_chance",
        {
            "ko": "우연만으로 이만큼 이상 벗어날 확률",
            "en": "Chance of a gap at least this large by sampling alone",
        },
        ".1%",
    ),
    Readout("clip_bound", {"ko": "자르기 상한 C", "en": "Clip bound C"}, ".4g", _MPA),
    Readout(
        "clip_sensitivity",
        {
            "ko": "상한 C에서 제한 평균의 민감도 C/100",
            "en": "Sensitivity of the bounded mean, C/100",
        },
        ".3g",
        _MPA,
    ),
    Readout(
        "clip_scale",
        {
            "ko": "상한 C에서 잡음 척도 b (= 잡음의 평균 절대 오차)",
            "en": "Noise scale b at C (= the noise's expected absolute error)",
        },
        ".3g",
        _MPA,
    ),
    Readout(
        "clip_bias",
        {
            "ko": "자르기의 편향 (자른 평균 − 참평균)",
            "en": "Bias of the clip (clipped − true mean)",
        },
        ".3g",
        _MPA,
    ),
    Readout(
        "clip_rmse",
        {"ko": "평균제곱근 오차 √(편향² + 2b²)", "en": "Root mean squared error √(bias² + 2b²)"},
        ".3g",
        _MPA,
    ),
    Readout(
        "clip_changed",
        {"ko": "상한 C가 값을 바꾸는 기록 수", "en": "Records the bound C changes"},
        "d",
        _RECORDS,
        unit_one=_RECORD,
    ),
    Readout(
        "true_mean",
        {"ko": "뽑은 강도의 참평균", "en": "True mean of the drawn strengths"},
        ".4g",
        _MPA,
    ),
    Readout(
        "best_clip",
        {
            "ko": "이 ε에서 오차가 가장 작은 후보 상한",
            "en": "The candidate bound with the smallest error at this ε",
        },
        ".4g",
        _MPA,
    ),
    Readout(
        "optimal_loss",
        {
            "ko": "두 참값의 거리를 척도로 나눈 값 |q(D) − q(D′)|/b",
            "en": "Distance of the true answers over the scale |q(D) − q(D′)|/b",
        },
        ".4g",
    ),
    Readout(
        "optimal_touch_fpr",
        {
            "ko": "최적 검정이 직선 TPR = e^(s/b)·FPR을 떠나는 FPR",
            "en": "FPR where the best test leaves the line TPR = e^(s/b)·FPR",
        },
        ".3g",
    ),
    Readout(
        "optimal_mirror_fpr",
        {
            "ko": "최적 검정이 대칭 직선에 닿는 FPR",
            "en": "FPR where the best test joins the mirror",
        },
        ".3g",
    ),
    Readout("optimal_fpr", {"ko": "비교하는 FPR", "en": "The FPR compared"}, ".0%"),
    Readout(
        "optimal_tpr",
        {"ko": "그 FPR에서 최적 검정의 TPR", "en": "TPR of the best test at that FPR"},
        ".1%",
    ),
    Readout(
        "optimal_bound_tpr",
        {"ko": "그 FPR에서 ε 경계의 TPR", "en": "TPR the ε bound allows at that FPR"},
        ".1%",
    ),
)


# --- Charts -------------------------------------------------------------------

BAND_MARGIN = 24
"""Pixels of room between the outermost data (or the ±ε band) and the plot's top and bottom."""

_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "densities": {
        "title": {
            "ko": "D와 D′에서 공개되는 답의 확률 밀도",
            "en": "Density of the released answer on D and D′",
        },
        "takeaway": {
            "ko": "ε이 클수록 두 곡선이 좁아져 답 하나로 D와 D′를 가려내기 쉬워진다",
            "en": "The larger ε, the narrower both curves "
            "and the easier one answer tells D from D′",
        },
        "x": {"ko": "공개되는 답 x", "en": "Released answer x"},
        "y": {"ko": "확률 밀도", "en": "Probability density"},
        "legend": {"ko": "데이터", "en": "Data"},
    },
    "log_ratio": {
        "title": {
            "ko": "두 밀도의 로그 비는 ±ε 띠를 벗어나지 않는다",
            "en": "The log ratio of the two densities stays within ±ε",
        },
        "takeaway": {
            "ko": "어떤 답이 나와도 D와 D′에서의 확률 밀도는 e^ε 배 넘게 벌어지지 않는다",
            "en": "Whatever the answer, its density on D and on D′ differs by at most a factor e^ε",
        },
        "x": {"ko": "공개되는 답 x", "en": "Released answer x"},
        "y": {"ko": "ln(p_D(x) / p_D′(x))", "en": "ln(p_D(x) / p_D′(x))"},
    },
    "releases": {
        "title": {"ko": "잡음 섞인 답 k개", "en": "The k noisy releases"},
        "takeaway": {
            "ko": "공개된 답은 참값 주위에 흩어지며, ε이 작을수록 더 넓게 흩어진다",
            "en": "The releases scatter around the true answer, the wider the smaller ε",
        },
        "x": {"ko": "공개 순번", "en": "Release"},
        "y": {"ko": "공개된 답", "en": "Released answer"},
        "legend": {"ko": "참값", "en": "True answer"},
    },
    "budget": {
        "title": {
            "ko": "기본 합성으로 쌓이는 누적 예산 kε",
            "en": "Total budget kε under basic composition",
        },
        "takeaway": {
            "ko": "공개할 때마다 ε이 더해져 k번 공개하면 kε을 쓴다",
            "en": "Each release adds ε: k releases spend kε",
        },
        "x": {"ko": "공개 횟수 k", "en": "Releases k"},
        "y": {"ko": "누적 ε", "en": "Total ε"},
    },
    "posterior": {
        "title": {
            "ko": "공개값 하나가 공격자의 믿음을 끌어올릴 수 있는 한계",
            "en": "How far one release can raise an attacker's belief",
        },
        "takeaway": {
            "ko": "ε이 작을수록 공개값 하나가 믿음을 사전 믿음 위로 끌어올릴 여지가 작다",
            "en": "The smaller ε, the less one release can lift a belief above its prior",
        },
        "x": {"ko": "ε (로그 눈금)", "en": "ε (log scale)"},
        "y": {
            "ko": "기록이 D에 있다는 사후 믿음의 상한",
            "en": "Largest posterior that the record is in D",
        },
        "legend": {"ko": "사전 믿음", "en": "Prior belief"},
    },
}


def densities_chart(lang: str) -> alt.Chart:
    """The Laplace densities of the release on ``D`` and on ``D′``."""
    text = in_language(_TEXT["densities"], lang)
    colour, dash = pair_scales(DATASET_LABELS)
    legend = legend_inside(text["legend"])
    lines: alt.Chart = (
        alt.Chart(alt.Data(name="densities"))
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("x:Q", title=text["x"], scale=alt.Scale(zero=False, nice=False)),
            y=alt.Y("density:Q", title=text["y"]),
            color=alt.Color("dataset:N", title=text["legend"], scale=colour, legend=legend),
            strokeDash=alt.StrokeDash("dataset:N", title=text["legend"], scale=dash, legend=legend),
        )
    )
    return titled(lines, text["title"], takeaway=text["takeaway"])


def log_ratio_chart(lang: str) -> alt.LayerChart:
    """The log density ratio over the answers, inside the shaded ±ε band."""
    text = in_language(_TEXT["log_ratio"], lang)
    y_title = text["y"]
    # Room above and below the band, so that it reads as a band inside the plot and the
    # curve that runs along its edges stays clear of the plot's frame.
    y_scale = alt.Scale(padding=BAND_MARGIN)
    bounds = alt.Chart(alt.Data(name="bounds"))
    band = (
        bounds.transform_aggregate(lower="min(bound)", upper="max(bound)")
        .mark_rect(color=GREY, opacity=0.25)
        .encode(
            y=alt.Y("lower:Q", title=y_title, scale=y_scale), y2=alt.Y2("upper:Q", title=y_title)
        )
    )
    edges = bounds.mark_rule(color=INK, strokeDash=GUIDE_DASH).encode(
        y=alt.Y("bound:Q", title=y_title, scale=y_scale)
    )
    # Each edge is labelled just inside the band, at the right end of the plot.
    placements: tuple[tuple[str, str, Baseline, int], ...] = (
        (">", "+ε", "top", 3),
        ("<", "−ε", "bottom", -3),
    )
    edge_labels = [
        bounds.transform_filter(f"datum.bound {side} 0")
        .mark_text(
            align="right",
            baseline=baseline,
            dx=-4,
            dy=offset,
            x=across(1),
            color=INK,
            fontSize=VALUE_SIZE,
        )
        .encode(y=alt.Y("bound:Q", title=y_title, scale=y_scale), text=alt.value(label))
        for side, label, baseline, offset in placements
    ]
    curve = (
        alt.Chart(alt.Data(name="log_ratio"))
        .mark_line(color=BLUE, strokeWidth=2)
        .encode(
            x=alt.X("x:Q", title=text["x"], scale=alt.Scale(zero=False, nice=False)),
            y=alt.Y("log_ratio:Q", title=y_title, scale=y_scale),
        )
    )
    return titled(
        layered(band, edges, *edge_labels, curve), text["title"], takeaway=text["takeaway"]
    )


def releases_chart(lang: str) -> alt.LayerChart:
    """The k noisy answers, each joined to the true answer, with q(D) and q(D′) as lines."""
    text = in_language(_TEXT["releases"], lang)
    y_title = text["y"]
    labels = ("q(D)", "q(D\u2032)")
    colour, dash = pair_scales(labels)
    legend = legend_inside(text["legend"])
    x = alt.X(
        "release:Q",
        title=text["x"],
        scale=alt.Scale(domain=[0.5, MAX_RELEASES + 0.5], nice=False, zero=False),
        axis=integer_axis(range(1, MAX_RELEASES + 1)),
    )
    # Room below and above the data, so that a true answer at the edge of the data (q(D′)
    # below every release, say) is drawn as a line of its own, not over the axis.
    y_scale = alt.Scale(zero=False, padding=BAND_MARGIN)
    base = alt.Chart(alt.Data(name="releases"))
    truth = (
        base.transform_aggregate(q_d="max(true_answer)", q_d_prime="max(neighbour_answer)")
        .transform_fold(["q_d", "q_d_prime"], as_=["which", "value"])
        .transform_calculate(line=f"datum.which === 'q_d' ? '{labels[0]}' : '{labels[1]}'")
        .mark_rule(strokeWidth=1.5)
        .encode(
            y=alt.Y("value:Q", title=y_title, scale=y_scale),
            color=alt.Color("line:N", title=text["legend"], scale=colour, legend=legend),
            strokeDash=alt.StrokeDash("line:N", title=text["legend"], scale=dash, legend=legend),
        )
    )
    errors = base.mark_rule(color=GREY).encode(
        x=x,
        y=alt.Y("true_answer:Q", title=y_title, scale=y_scale),
        y2=alt.Y2("answer:Q", title=y_title),
    )
    points = base.mark_point(filled=True, color=INK, size=50, opacity=1).encode(
        x=x,
        y=alt.Y("answer:Q", title=y_title, scale=y_scale),
        tooltip=[
            alt.Tooltip("release:Q", title=text["x"]),
            alt.Tooltip("answer:Q", title=y_title, format=".4g"),
        ],
    )
    return titled(layered(truth, errors, points), text["title"], takeaway=text["takeaway"])


def budget_chart(lang: str) -> alt.LayerChart:
    """Total ε after each number of releases; the releases made so far are highlighted.

    The chart declares the Vega-Lite parameter ``releases``, which the page keeps
    equal to the current number of releases.
    """
    text = in_language(_TEXT["budget"], lang)
    current = alt.param(name="releases", value=DEFAULT_RELEASES)
    x = alt.X("k:O", title=text["x"], axis=alt.Axis(labelAngle=0))
    y = alt.Y("epsilon_total:Q", title=text["y"])
    base = alt.Chart(alt.Data(name="budget"))
    bars = base.mark_bar().encode(
        x=x,
        y=y,
        color=alt.condition(alt.datum.k <= current, alt.value(BLUE), alt.value(LIGHT_GREY)),
        tooltip=[
            alt.Tooltip("k:O", title=text["x"]),
            alt.Tooltip("epsilon_total:Q", title=text["y"], format=".4g"),
        ],
    )
    total = (
        base.transform_filter(alt.datum.k == current)
        .mark_text(dy=-6, baseline="bottom", color=INK, fontSize=VALUE_SIZE)
        .encode(x=x, y=y, text=alt.Text("epsilon_total:Q", title=text["y"], format=".4~g"))
    )
    return titled(
        layered(bars, total).add_params(current), text["title"], takeaway=text["takeaway"]
    )


def posterior_chart(lang: str) -> alt.LayerChart:
    """The largest posterior over ε, one line per prior, with the current ε marked.

    The chart declares the Vega-Lite parameter ``epsilon``, which the page keeps
    equal to the current ε; the current value of each line is printed beside it.
    """
    text = in_language(_TEXT["posterior"], lang)
    current = alt.param(name="epsilon", value=1.0)
    low, high = POSTERIOR_EPSILON_RANGE
    x = alt.X(
        "epsilon:Q",
        title=text["x"],
        scale=alt.Scale(type="log", domain=[low, high], nice=False),
        axis=alt.Axis(values=[0.01, 0.1, 1, 10], format="~g"),
    )
    y = alt.Y(
        "posterior_high:Q",
        title=text["y"],
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format=".0%"),
    )
    priors = [prior_label(prior) for prior in POSTERIOR_PRIORS]
    colour = alt.Scale(domain=priors, range=[VERMILLION, GREEN, BLUE])
    colour_by_prior = alt.Color(
        "prior:N",
        title=text["legend"],
        scale=colour,
        sort=priors,
        legend=legend_above(text["legend"]),
    )
    base = alt.Chart(alt.Data(name="posterior"))
    lines = base.mark_line(strokeWidth=2).encode(
        x=x,
        y=y,
        color=colour_by_prior,
        tooltip=[
            alt.Tooltip("prior:N", title=text["legend"]),
            alt.Tooltip("epsilon:Q", title="ε", format=".3g"),
            alt.Tooltip("posterior_high:Q", title=text["y"], format=".2%"),
        ],
    )
    at_current = base.transform_filter(alt.datum.epsilon == current)
    rule = (
        at_current.transform_filter(alt.datum.prior == priors[-1])
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=x)
    )
    # The same colour encoding (legend included) in both layers, so Vega merges one legend.
    points = at_current.mark_point(filled=True, size=50, opacity=1).encode(
        x=x, y=y, color=colour_by_prior
    )
    values = at_current.mark_text(align="left", dx=6, dy=-6, color=INK, fontSize=VALUE_SIZE).encode(
        x=x, y=y, text=alt.Text("posterior_high:Q", title=text["y"], format=".1%")
    )
    return titled(
        layered(lines, rule, points, values).add_params(current),
        text["title"],
        takeaway=text["takeaway"],
    )


def sampled_histogram_chart(lang: str) -> alt.LayerChart:
    """The sampled releases' histogram with the exact density on ``D`` over it."""
    return differential_privacy_charts.sampled_histogram_chart(lang, SAMPLED_RELEASES)


def optimal_test_chart(lang: str) -> alt.LayerChart:
    """The best test's ROC between ``D`` and ``D′`` at the current query and ε, under its bound."""
    return differential_privacy_charts.optimal_test_chart(lang)


def clip_tradeoff_chart(lang: str) -> alt.LayerChart:
    """Bias, noise and total error over the clip bound at the current ε, the bound marked."""
    return differential_privacy_charts.clip_tradeoff_chart(
        lang, (CLIP_CURVE[0], CLIP_CURVE[-1]), CLIP_UPPER
    )


CHARTS: tuple[Chart, ...] = (
    Chart(
        "optimal_test",
        optimal_test_chart,
        {
            "ko": "공개값 하나로 D와 D′를 가려내는 가장 강력한 검정(가능도비 검정)의 정확한 "
            "ROC 곡선을 실선으로, ε-차등 개인정보보호가 허용하는 한계를 점선으로 그리고, "
            "그 위의 어떤 검정도 닿지 못하는 영역을 회색으로 칠한다.",
            "en": "The exact ROC curve of the most powerful test (the likelihood-ratio test) "
            "that tells D from D′ from one release, as a solid line, with the limit ε-DP "
            "allows as a dashed line and the region above it, which no test reaches, in grey.",
        },
    ),
    Chart(
        "densities",
        densities_chart,
        {
            "ko": "잡음 섞인 답의 확률 밀도를 데이터 D(실선)와 "
            "기록 하나를 뺀 D′(점선)에 대해 겹쳐 그린다.",
            "en": "The probability density of the noisy answer on D (solid) and on D′, "
            "which lacks one record (dashed).",
        },
    ),
    Chart(
        "log_ratio",
        log_ratio_chart,
        {
            "ko": "모든 답 x에서 두 밀도의 로그 비가 회색 ±ε 띠 안에 머무는 모습을 보여 준다.",
            "en": "The log ratio of the two densities at every answer x, "
            "which stays inside the grey ±ε band.",
        },
    ),
    Chart(
        "releases",
        releases_chart,
        {
            "ko": "k번 공개한 잡음 섞인 답을 점으로, 참값 q(D)와 q(D′)를 가로선으로 나타낸다.",
            "en": "The k noisy answers as points, with the true answers q(D) and q(D′) "
            "as horizontal lines.",
        },
    ),
    Chart(
        "budget",
        budget_chart,
        {
            "ko": "공개 횟수 k마다 기본 합성으로 쌓이는 누적 예산 kε을 막대로 그리고, "
            "지금까지 공개한 횟수까지를 진하게 칠한다.",
            "en": "The total budget kε after each number of releases k under basic "
            "composition, with the releases made so far highlighted.",
        },
    ),
    Chart(
        "posterior",
        posterior_chart,
        {
            "ko": "사전 믿음 1%, 10%, 50%에서 출발한 공격자가 공개값 하나를 본 뒤 "
            "가질 수 있는 사후 믿음의 상한을 ε에 따라 선으로 그리고, 지금의 ε을 세로 점선으로 "
            "표시한다.",
            "en": "The largest posterior belief an attacker can reach after one release, "
            "starting from a prior of 1%, 10% or 50%, as lines over ε, with the current ε "
            "marked by a dotted vertical rule.",
        },
    ),
    Chart(
        "release_histogram",
        sampled_histogram_chart,
        {
            "ko": f"D에서 뽑은 공개값 {SAMPLED_RELEASES:,}개의 히스토그램을 확률 밀도로 나타내고, "
            "그 위에 같은 메커니즘의 정확한 라플라스 밀도를 선으로 겹쳐 그린다.",
            "en": f"A histogram of {SAMPLED_RELEASES:,} releases sampled on D, drawn as a "
            "density, with the mechanism's exact Laplace density as a line over it.",
        },
    ),
    Chart(
        "clip_tradeoff",
        clip_tradeoff_chart,
        {
            "ko": "지금의 ε에서 자르기 상한 C에 따라 제한 평균의 자르기 편향, 잡음의 표준편차, "
            "둘을 합친 평균제곱근 오차를 선으로 그리고, 지금의 C를 세로 점선으로, "
            "뽑은 강도의 최댓값을 회색 세로선으로 표시한다.",
            "en": "The bounded mean's clip bias, noise standard deviation and their combined "
            "root mean squared error over the clip bound C at the current ε, with the current C "
            "marked by a dotted vertical rule and the largest strength drawn by a grey one.",
        },
    ),
)
