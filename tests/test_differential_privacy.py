"""Lesson 03: its dataset and neighbour, its two queries, and every grid point's result.

The Laplace mechanism and the queries themselves are tested in ``test_laplace.py``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
import vl_convert
from hypothesis import settings
from scipy import stats

from privacy_explorer.charts import named_datasets
from privacy_explorer.compute import laplace
from privacy_explorer.compute.datasets import load_concrete
from privacy_explorer.compute.dp_bounds import tpr_bound
from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.compute.lessons import differential_privacy_charts
from privacy_explorer.compute.lessons.style import HEIGHT, WIDTH
from privacy_explorer.lesson import Chart
from privacy_explorer.runner import json_ready

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)
finite = {"allow_nan": False, "allow_infinity": False}


# --- The data and the queries -------------------------------------------------


def test_dataset_d_is_the_documented_sample():
    d = dp.dataset_d()
    assert d.shape == (dp.RECORD_COUNT,)
    assert ((d >= dp.CLIP_LOWER) & (d <= dp.CLIP_UPPER)).all()
    assert not d.flags.writeable
    assert np.array_equal(d, dp.sample_strengths(load_concrete(), dp.SEED))


def test_removed_record_is_the_strongest_and_changes_both_queries():
    d = dp.dataset_d()
    removed = laplace.strongest_record(d)
    assert d[removed] == d.max() >= dp.THRESHOLD
    d_prime = laplace.without_record(d, removed)
    assert dp.answer("count", d) - dp.answer("count", d_prime) == 1
    assert dp.answer("mean", d) - dp.answer("mean", d_prime) == pytest.approx(d[removed] / dp.SLOTS)


@pytest.mark.parametrize("query", dp.QUERIES)
def test_sensitivity_bounds_every_removal_from_d(query: str):
    d = dp.dataset_d()
    true_answer = dp.answer(query, d)
    changes = [
        abs(true_answer - dp.answer(query, laplace.without_record(d, i))) for i in range(d.size)
    ]
    assert max(changes) <= dp.sensitivity(query) + 1e-12


def test_unknown_query_is_refused():
    with pytest.raises(ValueError, match="query must be one of count, mean, got 'median'"):
        dp.sensitivity("median")


@pytest.mark.parametrize("epsilon", [0.05, 1.0, 5.0])
@pytest.mark.parametrize("query", dp.QUERIES)
def test_answer_grid_is_even_and_contains_both_peaks(query: str, epsilon: float):
    d = dp.dataset_d()
    loc_d = dp.answer(query, d)
    loc_d_prime = dp.answer(query, laplace.without_record(d, laplace.strongest_record(d)))
    scale = dp.sensitivity(query) / epsilon
    x = laplace.answer_grid(loc_d, loc_d_prime, scale, dp.DENSITY_POINTS, dp.TAIL_SCALES)
    steps = np.diff(x)
    assert np.allclose(steps, steps[0], rtol=1e-9)
    assert 200 <= x.size <= 400
    for loc in (loc_d, loc_d_prime):
        assert np.min(np.abs(x - loc)) <= 1e-9 * max(1.0, abs(loc))
    assert x[0] <= min(loc_d, loc_d_prime) - dp.TAIL_SCALES * scale + 1e-9
    assert x[-1] >= max(loc_d, loc_d_prime) + dp.TAIL_SCALES * scale - 1e-9


def test_moving_epsilon_rescales_the_same_draws():
    at_one = dp.release_answers(0.0, 1.0, dp.MAX_RELEASES)
    at_a_fifth = dp.release_answers(0.0, 5.0, dp.MAX_RELEASES)
    np.testing.assert_allclose(at_a_fifth, 5.0 * at_one, rtol=1e-12)


# --- Every grid point -----------------------------------------------------------


@pytest.fixture(scope="module")
def every_result() -> dict[tuple[str, float, int, float], dict[str, Any]]:
    points: list[dict[str, Any]] = list(dp.GRID)  # compute() takes a point's values by name
    return {(p["query"], p["epsilon"], p["releases"], p["clip"]): dp.compute(**p) for p in points}


@pytest.fixture(scope="module")
def results(every_result) -> dict[tuple[str, float, int], dict[str, Any]]:
    """The points at the clip bound the page opens with (the mechanism's own)."""
    return {key[:3]: result for key, result in every_result.items() if key[3] == dp.CLIP_UPPER}


def test_grid_is_the_documented_one():
    assert dp.GRID.names == ("query", "epsilon", "releases", "clip")
    assert dp.GRID.default == {"query": "count", "epsilon": 1.0, "releases": 5, "clip": 100.0}
    assert dp.GRID.param("epsilon").values == (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
    assert dp.GRID.param("releases").values == tuple(range(1, 21))
    assert dp.GRID.param("clip").values == (40.0, 60.0, 80.0, 100.0, 150.0)
    assert dp.GRID.param("query").display(0, "en") == "Count (≥ 40 MPa)"
    assert dp.GRID.param("clip").display(0, "ko") == "40 MPa"
    assert len(dp.GRID) == 1400


def test_every_result_is_finite_json(every_result):
    for result in every_result.values():
        assert json_ready(result, "result") == result  # the build's own check: finite JSON


def test_every_result_has_the_declared_readouts_and_datasets(every_result):
    readout_names = {readout.name for readout in dp.READOUTS}
    for result in every_result.values():
        assert set(result) == {"readouts", "datasets"}
        assert set(result["readouts"]) == readout_names
        assert set(result["datasets"]) == {
            "densities",
            "log_ratio",
            "bounds",
            "releases",
            "budget",
            "release_histogram",
            "clip_tradeoff",
            "optimal_test",
        }


def test_the_clip_control_changes_only_the_clip_readouts_and_rows(every_result):
    clip_only = {name for name in every_result[("count", 1.0, 5, 100.0)]["readouts"]}
    clip_only = {name for name in clip_only if name.startswith("clip_") or name == "best_clip"}
    for (query, epsilon, k, clip), result in every_result.items():
        mechanism = every_result[(query, epsilon, k, dp.CLIP_UPPER)]
        for name, value in result["readouts"].items():
            if name not in clip_only:
                assert value == mechanism["readouts"][name], (query, epsilon, k, clip, name)
        assert result["datasets"] == mechanism["datasets"]


def test_readouts_obey_the_mechanism(results):
    uniforms = np.random.default_rng(dp.NOISE_SEED).random(dp.MAX_RELEASES)
    assert (uniforms > 0).all()  # so the guard in seeded_uniforms never fired
    standard_noise = stats.laplace.ppf(uniforms)
    for (query, epsilon, k), result in results.items():
        readouts = result["readouts"]
        delta = dp.sensitivity(query)
        assert readouts["max_log_ratio"] <= epsilon + 1e-12
        assert readouts["epsilon_total"] == k * epsilon
        assert readouts["mae_theory"] == delta / epsilon == readouts["scale"]
        assert readouts["sensitivity"] == delta
        noise = standard_noise[:k] * delta / epsilon
        assert readouts["mae_empirical"] == pytest.approx(np.mean(np.abs(noise)), rel=1e-12)
        latest = readouts["true_answer"] + noise[-1]
        assert readouts["latest_release"] == pytest.approx(latest, rel=1e-12, abs=1e-12)
        assert readouts["record_count"] == dp.RECORD_COUNT
        assert readouts["removed_record"] >= dp.THRESHOLD
        if query == "count":
            assert readouts["at_or_above_threshold"] == readouts["true_answer"]
            assert readouts["max_log_ratio"] == pytest.approx(epsilon, rel=1e-12)


def test_readouts_read_well_in_both_languages(every_result):
    for result in every_result.values():
        for readout in dp.READOUTS:
            value = result["readouts"][readout.name]
            for lang in ("ko", "en"):
                text = readout.text(value, lang)
                assert text and "nan" not in text.lower()
                if isinstance(value, int | float):
                    assert "e" not in format(value, readout.format), (readout.name, value)


def test_releases_for_k_are_a_prefix_of_those_for_k_plus_one(results):
    for (query, epsilon, k), result in results.items():
        rows = result["datasets"]["releases"]
        assert [row["release"] for row in rows] == list(range(1, k + 1))
        if k < dp.MAX_RELEASES:
            assert rows == results[(query, epsilon, k + 1)]["datasets"]["releases"][:k]


def test_chart_rows_match_the_readouts(results):
    for (_, epsilon, _), result in results.items():
        readouts, datasets = result["readouts"], result["datasets"]
        assert {row["dataset"] for row in datasets["densities"]} == {"D", "D\u2032"}
        assert len(datasets["densities"]) == 2 * len(datasets["log_ratio"])
        assert sorted(row["bound"] for row in datasets["bounds"]) == [-epsilon, epsilon]
        assert max(abs(row["log_ratio"]) for row in datasets["log_ratio"]) <= epsilon
        assert [row["k"] for row in datasets["budget"]] == list(range(1, 21))
        last = datasets["releases"][-1]["answer"]
        assert last == pytest.approx(readouts["latest_release"], rel=1e-5, abs=1e-5)


# --- Charts -----------------------------------------------------------------------


@pytest.mark.parametrize("chart", dp.CHARTS, ids=lambda chart: chart.name)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_chart_names_only_datasets_the_result_provides(chart: Chart, lang: str, results):
    spec = chart.build(lang).to_dict()
    provided = set(results[("count", 1.0, 5)]["datasets"]) | set(dp.summarize({}))
    assert not set(dp.LAZY) & set(dp.summarize({}))
    names = set(named_datasets(spec))
    assert names and names <= provided
    if chart.name == "optimal_test":  # square, as lesson 02's ROC
        size = differential_privacy_charts.OPTIMAL_TEST_SIZE
        assert spec["width"] == spec["height"] == size
    else:
        assert spec["width"] == WIDTH and spec["height"] == HEIGHT
    assert "param_" not in json.dumps(spec)  # no auto-generated, run-dependent names
    assert chart.description["ko"] and chart.description["en"]


def test_budget_chart_follows_the_releases_param():
    for lang in ("ko", "en"):
        spec = dp.budget_chart(lang).to_dict()
        assert {"name": "releases", "value": dp.DEFAULT_RELEASES} in spec["params"]
        assert "datum.k <= releases" in json.dumps(spec)


@pytest.mark.parametrize("chart", dp.CHARTS, ids=lambda chart: chart.name)
def test_chart_titles_follow_the_language(chart: Chart):
    ko, en = chart.build("ko").to_dict(), chart.build("en").to_dict()
    assert ko["title"] != en["title"]


@pytest.mark.parametrize("chart", dp.CHARTS, ids=lambda chart: chart.name)
def test_chart_renders_with_real_rows(chart: Chart, results):
    spec = chart.build("en").to_dict()
    spec["datasets"] = {**results[("mean", 1.0, 5)]["datasets"], **dp.summarize({})}
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


# --- What ε means to an attacker -------------------------------------------------


@pytest.mark.parametrize("query", dp.QUERIES)
def test_the_densities_narrow_as_epsilon_grows(query: str, results):
    """The density chart's takeaway: the larger ε, the narrower (and taller) both curves; a
    Laplace density peaks at ε / (2Δ), Δ the query's sensitivity."""
    sensitivity = dp.sensitivity(query)
    for epsilon in dp.EPSILONS:
        rows = results[(query, epsilon, 1)]["datasets"]["densities"]
        for dataset in ("D", "D\u2032"):
            peak = max(row["density"] for row in rows if row["dataset"] == dataset)
            assert peak == pytest.approx(epsilon / (2 * sensitivity), rel=1e-4), dataset


def test_posterior_rows_are_the_closed_form_bound_over_epsilon():
    rows = dp.summarize({})["posterior"]
    priors = {dp.prior_label(prior): prior for prior in dp.POSTERIOR_PRIORS}
    assert [row["prior"] for row in rows[:: len(dp.posterior_epsilons())]] == list(priors)
    for row in rows:
        prior, epsilon = priors[row["prior"]], row["epsilon"]
        closed_form = prior * np.exp(epsilon) / (prior * np.exp(epsilon) + 1 - prior)
        assert row["posterior_high"] == pytest.approx(closed_form, rel=1e-5)
    epsilons = dp.posterior_epsilons()
    assert set(dp.EPSILONS) <= set(epsilons)  # the current ε always lies on the lines
    assert epsilons[0] == dp.POSTERIOR_EPSILON_RANGE[0] and epsilons[-1] == 10.0
    assert list(epsilons) == sorted(epsilons)
    for prior, label in ((p, dp.prior_label(p)) for p in dp.POSTERIOR_PRIORS):
        line = [row["posterior_high"] for row in rows if row["prior"] == label]
        assert line[0] == pytest.approx(prior, rel=0.02) and line == sorted(line)


def test_posterior_readouts_follow_bayes_rule_on_the_actual_releases(results):
    uniforms = np.random.default_rng(dp.NOISE_SEED).random(dp.MAX_RELEASES)
    d = dp.dataset_d()
    d_prime = laplace.without_record(d, laplace.strongest_record(d))
    prior = dp.ATTACKER_PRIOR
    for (query, epsilon, k), result in results.items():
        readouts = result["readouts"]
        scale = dp.sensitivity(query) / epsilon
        q_d, q_d_prime = dp.answer(query, d), dp.answer(query, d_prime)
        releases = q_d + stats.laplace.ppf(uniforms[:k]) * scale
        # Likelihoods of all k releases under D and D′, from SciPy, then Bayes' rule.
        on_d = np.prod(stats.laplace.pdf(releases, loc=q_d, scale=scale))
        on_d_prime = np.prod(stats.laplace.pdf(releases, loc=q_d_prime, scale=scale))
        posterior = prior * on_d / (prior * on_d + (1 - prior) * on_d_prime)
        assert readouts["posterior_after_releases"] == pytest.approx(posterior, rel=1e-9)
        bound = np.exp(k * epsilon) / (np.exp(k * epsilon) + 1)  # prior 1/2: odds 1 → e^{kε}
        assert readouts["posterior_bound_total"] == pytest.approx(bound, rel=1e-12)
        assert readouts["posterior_after_releases"] <= readouts["posterior_bound_total"] + 1e-12
        assert readouts["posterior_bound"] == pytest.approx(
            np.exp(epsilon) / (np.exp(epsilon) + 1), rel=1e-12
        )
        rare = 0.01 * np.exp(epsilon) / (0.01 * np.exp(epsilon) + 0.99)
        assert readouts["posterior_bound_rare"] == pytest.approx(rare, rel=1e-12)
        assert readouts["attacker_prior"] == prior


@pytest.mark.parametrize("epsilon", dp.EPSILONS)
def test_one_count_release_above_the_truth_reaches_the_bound_and_the_mean_does_not(
    epsilon: float, results
):
    # The page says so for k = 1: the first release lands at or above q(D) for every ε.
    count = results[("count", epsilon, 1)]["readouts"]
    assert count["latest_release"] >= count["true_answer"]
    assert count["posterior_after_releases"] == pytest.approx(count["posterior_bound"], rel=1e-12)
    mean = results[("mean", epsilon, 1)]["readouts"]
    assert mean["posterior_after_releases"] < mean["posterior_bound"]


def test_posterior_chart_marks_the_current_epsilon():
    for lang in ("ko", "en"):
        spec = dp.posterior_chart(lang).to_dict()
        assert {"name": "epsilon", "value": 1.0} in spec["params"]
        assert "datum.epsilon === epsilon" in json.dumps(spec)


def test_compute_refuses_points_outside_the_grid():
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0, got 0"):
        dp.compute(query="count", epsilon=0, releases=5)
    with pytest.raises(ValueError, match="releases must be between 1 and 20, got 21"):
        dp.compute(query="count", epsilon=1.0, releases=21)
    with pytest.raises(ValueError, match="query must be one of count, mean"):
        dp.compute(query="median", epsilon=1.0, releases=5)


def test_the_clip_never_binds_on_this_sample_and_the_page_says_so():
    strengths = load_concrete()["compressive_strength"].to_numpy(dtype=float)
    drawn = strengths[
        np.random.default_rng(dp.SEED).choice(strengths.size, size=dp.RECORD_COUNT, replace=False)
    ]
    effect = dp.clipping_effect()
    assert effect.sample_max == drawn.max() < dp.CLIP_UPPER
    assert effect.table_max == strengths.max() < dp.CLIP_UPPER
    assert effect.changed == 0 and drawn.min() >= dp.CLIP_LOWER
    # Nothing clipped, so no bias: the bounded mean of the raw draw is the page's answer.
    assert dp.answer("mean", drawn) == dp.answer("mean", dp.dataset_d())
    readouts = dp.compute(query="mean", epsilon=1.0, releases=1)["readouts"]
    assert readouts["max_strength"] == effect.sample_max
    assert readouts["table_max_strength"] == effect.table_max
    assert readouts["clipped_records"] == 0 and readouts["slots"] == dp.SLOTS
    shown = {r.name: r for r in dp.READOUTS}
    assert shown["clipped_records"].text(0, "en") == "0 records"
    assert shown["clipped_records"].text(0, "ko") == "0개"
    assert shown["max_strength"].text(effect.sample_max, "en").endswith(" MPa")


# --- Many sampled releases against the exact density -------------------------------


def _sampled(query: str, epsilon: float) -> tuple[float, float, np.ndarray]:
    """q(D), the scale and the sampled releases, redrawn here with SciPy's inverse CDF."""
    uniforms = np.random.default_rng(dp.NOISE_SEED).random(dp.SAMPLED_RELEASES)
    assert (uniforms > 0).all()  # so seeded_uniforms never skipped a draw
    true_answer = dp.answer(query, dp.dataset_d())
    scale = dp.sensitivity(query) / epsilon
    return true_answer, scale, true_answer + stats.laplace.ppf(uniforms) * scale


@pytest.mark.parametrize("epsilon", dp.EPSILONS)
@pytest.mark.parametrize("query", dp.QUERIES)
def test_the_sampled_histogram_is_a_density_that_follows_the_exact_one(query, epsilon, results):
    result = results[(query, epsilon, 5)]
    rows = result["datasets"]["release_histogram"]
    true_answer, scale, sampled = _sampled(query, epsilon)
    starts = np.array([row["start"] for row in rows])
    ends = np.array([row["end"] for row in rows])
    densities = np.array([row["density"] for row in rows])
    # The bins integrate to 1 and hold every sampled release.
    assert float(np.sum(densities * (ends - starts))) == pytest.approx(1.0, abs=1e-4)
    assert starts[0] <= sampled.min() and sampled.max() <= ends[-1]
    rounding = 1e-5 * np.max(np.abs(ends))  # chart rows keep six significant digits
    np.testing.assert_allclose(ends - starts, dp.HISTOGRAM_BIN_SCALES * scale, atol=2 * rounding)
    np.testing.assert_allclose(starts[1:], ends[:-1])
    assert np.min(np.abs(starts - true_answer)) <= 1e-5 * max(1.0, true_answer)  # peak on an edge
    # NumPy's own histogram of SciPy's draws on the same edges.
    edges = np.append(starts, ends[-1])
    reference, _ = np.histogram(sampled, bins=edges, density=True)
    np.testing.assert_allclose(densities, reference, rtol=2e-3, atol=1e-6 / scale)
    # The line is SciPy's Laplace density at the left edges.
    exact = stats.laplace.pdf(starts, loc=true_answer, scale=scale)
    np.testing.assert_allclose([row["exact"] for row in rows], exact, rtol=1e-4)
    # Each bar within four binomial standard errors of the exact probability of its bin.
    probability = stats.laplace.cdf(edges[1:], true_answer, scale) - stats.laplace.cdf(
        edges[:-1], true_answer, scale
    )
    counts = densities * (ends - starts) * dp.SAMPLED_RELEASES
    spread = np.sqrt(dp.SAMPLED_RELEASES * probability * (1 - probability))
    assert np.all(np.abs(counts - dp.SAMPLED_RELEASES * probability) <= 4 * spread + 1)


def test_the_sampled_share_within_one_scale_is_binomially_close_to_the_exact_one(every_result):
    exact = stats.laplace.cdf(1.0) - stats.laplace.cdf(-1.0)
    n = dp.SAMPLED_RELEASES
    standard_error = np.sqrt(exact * (1 - exact) / n)
    for (query, epsilon, _, _), result in every_result.items():
        readouts = result["readouts"]
        true_answer, scale, sampled = _sampled(query, epsilon)
        assert readouts["sampled_share"] == np.mean(np.abs(sampled - true_answer) <= scale)
        assert readouts["exact_share"] == pytest.approx(exact, rel=1e-14)
        assert readouts["sampled_releases"] == n
        assert abs(readouts["sampled_share"] - exact) <= 4 * standard_error
        assert readouts["share_standard_error"] == pytest.approx(standard_error, rel=1e-12)
        gap = abs(readouts["sampled_share"] - exact) / standard_error
        assert readouts["share_gap_chance"] == pytest.approx(2 * stats.norm.sf(gap), rel=1e-9)
    # The normal approximation against the exact binomial tail, as the page says "about".
    count = round(readouts["sampled_share"] * n)
    tail = stats.binomtest(count, n, exact).pvalue
    assert readouts["share_gap_chance"] == pytest.approx(tail, abs=0.01)
    # Issue 23: the page reads the chance as "one sample in N", and as one draw shared by
    # every setting, so the share, the gap and N must be the same at every grid point.
    assert readouts["share_gap_one_in"] == round(1 / readouts["share_gap_chance"])
    shared = {
        (r["readouts"]["sampled_share"], r["readouts"]["share_gap_one_in"])
        for r in every_result.values()
    }
    assert len(shared) == 1


def test_the_first_quiz_names_an_epsilon_the_grid_offers(results):
    """Issue 23: the hint may not ask for half of ε where the grid has none (0.05, 0.5, 5)."""
    for (query, epsilon, _), result in results.items():
        readouts = result["readouts"]
        neighbour = readouts["neighbour_epsilon"]
        assert neighbour in dp.EPSILONS and neighbour != epsilon
        smaller = [value for value in dp.EPSILONS if value < epsilon]
        assert neighbour == (max(smaller) if smaller else min(dp.EPSILONS[1:]))
        assert readouts["neighbour_scale"] == pytest.approx(dp.sensitivity(query) / neighbour)
        assert readouts["scale_factor"] == pytest.approx(
            readouts["neighbour_scale"] / readouts["scale"], rel=1e-12
        )
    assert dp.neighbour_epsilon(1.0) == 0.5 and dp.neighbour_epsilon(0.5) == 0.2
    assert dp.neighbour_epsilon(min(dp.EPSILONS)) == sorted(dp.EPSILONS)[1]


def test_the_sampled_releases_are_seeded_and_byte_identical(monkeypatch):
    point: dict[str, Any] = {"query": "mean", "epsilon": 0.5, "releases": 7, "clip": 60.0}
    first = json.dumps(dp.compute(**point), sort_keys=True)
    dp._sampled_releases.cache_clear()
    dp._mechanism.cache_clear()
    assert json.dumps(dp.compute(**point), sort_keys=True) == first
    # The seed is what fixes them: another seed draws other releases.
    monkeypatch.setattr(dp, "NOISE_SEED", dp.NOISE_SEED + 1)
    dp._sampled_releases.cache_clear()
    try:
        rows = dp._sampled_releases("mean", 0.5)[0]
        assert rows != json.loads(first)["datasets"]["release_histogram"]
    finally:
        dp._sampled_releases.cache_clear()


def test_the_releases_of_section_3_are_the_first_of_the_sample(results):
    _, _, sampled = _sampled("count", 1.0)
    rows = results[("count", 1.0, dp.MAX_RELEASES)]["datasets"]["releases"]
    np.testing.assert_allclose(
        [row["answer"] for row in rows], sampled[: dp.MAX_RELEASES], rtol=1e-5
    )


# --- The clip bound -----------------------------------------------------------------


def _drawn_strengths() -> np.ndarray:
    """The 100 strengths of D before clipping, drawn here from the data file."""
    strengths = load_concrete()["compressive_strength"].to_numpy(dtype=float)
    rows = np.random.default_rng(dp.SEED).choice(
        strengths.size, size=dp.RECORD_COUNT, replace=False
    )
    return strengths[rows]


def _rmse(drawn: np.ndarray, epsilon: float, bound: float) -> float:
    bias = np.mean(np.minimum(drawn, bound)) - np.mean(drawn)
    return float(np.sqrt(bias**2 + 2 * (bound / dp.SLOTS / epsilon) ** 2))


def test_the_clip_readouts_are_the_closed_forms_on_the_data(every_result):
    drawn = _drawn_strengths()
    for (_, epsilon, _, bound), result in every_result.items():
        readouts = result["readouts"]
        bias = np.mean(np.minimum(drawn, bound)) - np.mean(drawn)
        scale = bound / dp.SLOTS / epsilon
        assert readouts["clip_bound"] == bound
        assert readouts["clip_sensitivity"] == pytest.approx(bound / 100, rel=1e-12)
        assert readouts["clip_scale"] == pytest.approx(scale, rel=1e-12)
        assert readouts["clip_bias"] == pytest.approx(bias, abs=1e-12)
        assert readouts["clip_rmse"] == pytest.approx(np.sqrt(bias**2 + 2 * scale**2), rel=1e-12)
        assert readouts["clip_changed"] == np.count_nonzero(drawn > bound)
        assert readouts["true_mean"] == pytest.approx(drawn.mean(), rel=1e-12)
        best = min(dp.CLIP_BOUNDS, key=lambda c: _rmse(drawn, epsilon, c))
        assert readouts["best_clip"] == best
        # The bounded mean over the public slots is the clipped mean: D fills every slot.
        bounded = laplace.bounded_mean_query(drawn, dp.SLOTS, bound)
        assert bounded - drawn.mean() == pytest.approx(bias, abs=1e-12)


@pytest.mark.parametrize("epsilon, bound", [(0.05, 40.0), (1.0, 60.0), (5.0, 80.0), (1.0, 150.0)])
def test_the_clip_rmse_is_the_simulated_error_of_the_release(epsilon, bound, every_result):
    drawn = _drawn_strengths()
    scale = bound / dp.SLOTS / epsilon
    releases = np.mean(np.minimum(drawn, bound)) + stats.laplace(scale=scale).rvs(
        size=400_000, random_state=np.random.default_rng(11)
    )
    simulated = np.sqrt(np.mean((releases - drawn.mean()) ** 2))
    readouts = every_result[("mean", epsilon, 1, bound)]["readouts"]
    assert readouts["clip_rmse"] == pytest.approx(simulated, rel=1e-2)
    # The noise's expected absolute error is the scale.
    assert np.mean(np.abs(releases - np.mean(np.minimum(drawn, bound)))) == pytest.approx(
        readouts["clip_scale"], rel=1e-2
    )


def test_the_clip_bounds_span_the_data_and_the_page_claims_hold(every_result):
    drawn = _drawn_strengths()
    bounds = dp.CLIP_BOUNDS
    assert dp.CLIP_UPPER in bounds and list(bounds) == sorted(bounds)
    assert sum(bound < drawn.max() for bound in bounds) >= 2  # the clip binds on some
    assert sum(bound >= drawn.max() for bound in bounds) >= 2  # and clips nothing on others
    assert set(bounds) <= set(dp.CLIP_CURVE)  # the chart has a point at every bound
    # Section 6: at ε = 0.05 the best bound lies below the maximum; at ε = 5 it clips nothing.
    low = every_result[("mean", 0.05, 5, 100.0)]["readouts"]
    assert low["best_clip"] < drawn.max()
    high = every_result[("mean", 5.0, 5, 100.0)]["readouts"]
    assert np.count_nonzero(drawn > high["best_clip"]) == 0
    # The quiz: the best bound depends on ε.
    best = {every_result[("mean", e, 5, 100.0)]["readouts"]["best_clip"] for e in dp.EPSILONS}
    assert len(best) > 1


@pytest.mark.parametrize("epsilon", dp.EPSILONS)
def test_the_clip_chart_rows_are_the_closed_forms(epsilon, results):
    drawn = _drawn_strengths()
    rows = results[("mean", epsilon, 1)]["datasets"]["clip_tradeoff"]
    assert [row["clip"] for row in rows] == list(dp.CLIP_CURVE)
    for row in rows:
        bound = row["clip"]
        bias = np.mean(np.minimum(drawn, bound)) - np.mean(drawn)
        scale = bound / dp.SLOTS / epsilon
        assert row["bias"] == pytest.approx(abs(bias), rel=1e-5, abs=1e-9)
        assert row["noise"] == pytest.approx(np.sqrt(2) * scale, rel=1e-5)
        assert row["rmse"] == pytest.approx(np.sqrt(bias**2 + 2 * scale**2), rel=1e-5)
    assert dp.summarize({})["clip_sample_max"] == [{"clip": drawn.max()}]


def test_the_clip_chart_marks_the_current_bound():
    for lang in ("ko", "en"):
        spec = dp.clip_tradeoff_chart(lang).to_dict()
        assert {"name": "clip", "value": dp.CLIP_UPPER} in spec["params"]
        assert "datum.clip === clip" in json.dumps(spec)


# --- The best test between D and D′ -------------------------------------------


def test_optimal_test_rows_are_the_threshold_test_on_the_two_releases(results):
    """Each row is a threshold on the release: SciPy's Laplace tails on D′ (FPR) and D (TPR)."""
    for (query, epsilon, k), result in results.items():
        if k != 1:
            continue
        readouts = result["readouts"]
        scale = readouts["scale"]
        rows = result["datasets"]["optimal_test"]
        fpr = np.array([row["fpr"] for row in rows])
        assert fpr[0] == 0.0 and fpr[-1] == 1.0 and np.all(np.diff(fpr) > 0)
        inner = (fpr > 0) & (fpr < 1)
        # The threshold c with P(X ≥ c) = FPR on D′, then the chance D's release passes it.
        thresholds = stats.laplace.isf(fpr[inner], loc=readouts["neighbour_answer"], scale=scale)
        power = stats.laplace.sf(thresholds, loc=readouts["true_answer"], scale=scale)
        tpr = np.array([row["tpr"] for row in rows])[inner]
        assert tpr == pytest.approx(power, rel=1e-5, abs=1e-6), (query, epsilon)
        bound = np.array([row["bound"] for row in rows])
        assert np.all(np.array([row["tpr"] for row in rows]) <= bound + 1e-6)


def test_the_count_touches_the_bound_and_the_mean_stays_inside(results):
    for (query, epsilon, _releases), result in results.items():
        readouts = result["readouts"]
        touch = readouts["optimal_touch_fpr"]
        assert readouts["optimal_mirror_fpr"] == 0.5
        if query == "count":
            assert readouts["optimal_loss"] == pytest.approx(epsilon, rel=1e-12)
            rows = result["datasets"]["optimal_test"]
            # The rows are rounded to six digits: the touch point may round just above itself.
            near = touch * (1 + 1e-5)
            on_bound = [row for row in rows if row["fpr"] <= near or row["fpr"] >= 0.5]
            assert len(on_bound) >= 4
            assert all(row["tpr"] == pytest.approx(row["bound"], abs=2e-6) for row in on_bound)
        else:
            assert readouts["optimal_loss"] < epsilon
            assert readouts["optimal_tpr"] < readouts["optimal_bound_tpr"]
        expected = tpr_bound(dp.OPTIMAL_TEST_FPR, epsilon)
        assert readouts["optimal_bound_tpr"] == pytest.approx(expected, rel=1e-12)
