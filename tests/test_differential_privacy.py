"""Lesson 03: the Laplace mechanism, the queries, and every grid point's result."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
import vl_convert
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from compute import differential_privacy as dp
from compute.datasets import load_concrete
from privacy_explorer.charts import named_datasets
from privacy_explorer.lesson import Chart
from privacy_explorer.runner import json_ready

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)
finite = {"allow_nan": False, "allow_infinity": False}


# --- The Laplace distribution -------------------------------------------------


@pytest.mark.parametrize("loc", [-3.0, 0.0, 34.2314, 37.0])
@pytest.mark.parametrize("scale", [0.2, 1.0, 20.0])
def test_density_integrates_to_one(loc: float, scale: float):
    x = np.linspace(loc - 60 * scale, loc + 60 * scale, 400_001)  # odd: the peak is a node
    assert np.trapezoid(dp.laplace_density(x, loc, scale), x) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("loc, scale", [(0.0, 1.0), (37.0, 0.2), (-5.0, 20.0)])
def test_density_and_cdf_agree_with_scipy(loc: float, scale: float):
    x = np.linspace(loc - 30 * scale, loc + 30 * scale, 1001)
    reference = stats.laplace(loc=loc, scale=scale)
    np.testing.assert_allclose(dp.laplace_density(x, loc, scale), reference.pdf(x), rtol=1e-12)
    np.testing.assert_allclose(dp.laplace_cdf(x, loc, scale), reference.cdf(x), rtol=1e-12)


@HYPOTHESIS
@given(
    x=st.floats(-1e4, 1e4, **finite),
    loc_d=st.floats(-100, 100, **finite),
    loc_d_prime=st.floats(-100, 100, **finite),
    scale=st.floats(0.01, 100, **finite),
)
def test_log_density_ratio_never_exceeds_the_gap_over_the_scale(
    x: float, loc_d: float, loc_d_prime: float, scale: float
):
    ratio = dp.log_density_ratio(x, loc_d, loc_d_prime, scale)
    assert abs(ratio) <= abs(loc_d - loc_d_prime) / scale * (1 + 1e-12) + 1e-12


@HYPOTHESIS
@given(
    x=st.floats(-50, 50, **finite),
    loc_d=st.floats(-10, 10, **finite),
    loc_d_prime=st.floats(-10, 10, **finite),
    scale=st.floats(0.5, 10, **finite),
)
def test_log_density_ratio_is_the_log_of_the_density_ratio(
    x: float, loc_d: float, loc_d_prime: float, scale: float
):
    direct = math.log(
        dp.laplace_density(x, loc_d, scale) / dp.laplace_density(x, loc_d_prime, scale)
    )
    assert dp.log_density_ratio(x, loc_d, loc_d_prime, scale) == pytest.approx(direct, abs=1e-9)


@pytest.mark.parametrize("scale", [0.2, 1.0, 20.0])
def test_laplace_noise_is_the_inverse_cdf(scale: float):
    tiny = np.nextafter(0.0, 1.0)
    u = np.concatenate(
        [[tiny, 1e-300, 1e-12, 0.5, np.nextafter(0.5, 0.0), np.nextafter(1.0, 0.0)],
         np.linspace(1e-6, 1 - 1e-6, 2001)]
    )  # fmt: skip
    expected = stats.laplace.ppf(u, loc=0.0, scale=scale)
    np.testing.assert_allclose(dp.laplace_noise(u, scale), expected, rtol=1e-12, atol=1e-15)


def test_laplace_noise_has_the_laplace_distribution():
    noise = dp.laplace_noise(dp.seeded_uniforms(20240601, 5000), 2.0)
    assert stats.kstest(noise, stats.laplace(loc=0.0, scale=2.0).cdf).pvalue > 0.01
    assert np.mean(np.abs(noise)) == pytest.approx(2.0, rel=0.05)


@pytest.mark.parametrize(
    "bad, shown",
    [(0.0, "0.0"), (1.0, "1.0"), (-0.25, "-0.25"), (1.5, "1.5"), (math.nan, "nan")],
)
def test_laplace_noise_rejects_uniforms_outside_the_open_interval(bad: float, shown: str):
    message = f"uniforms must lie strictly between 0 and 1, got {shown} at position 1"
    with pytest.raises(ValueError, match=message):
        dp.laplace_noise([0.3, bad, 0.7], 1.0)


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf])
def test_laplace_noise_rejects_a_bad_scale(scale: float):
    with pytest.raises(ValueError, match="scale must be a finite number > 0"):
        dp.laplace_noise([0.5], scale)


class ScriptedGenerator:
    """Stands in for ``numpy.random.Generator``: ``random(n)`` returns the next n scripted draws."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = iter(draws)

    def random(self, size: int) -> np.ndarray:
        return np.array([next(self.draws) for _ in range(size)])


def test_zero_draws_are_skipped():
    generator = ScriptedGenerator([0.0, 0.25, 0.0, 0.5, 0.75, 0.0, 0.125])
    assert dp.nonzero_uniforms(generator, 4).tolist() == [0.25, 0.5, 0.75, 0.125]


def test_seeded_uniforms_guards_against_zero(monkeypatch: pytest.MonkeyPatch):
    seeds = []

    def scripted_rng(seed: int) -> ScriptedGenerator:
        seeds.append(seed)
        return ScriptedGenerator([0.0, 0.0, 0.5, 0.0, 0.9])

    monkeypatch.setattr(dp.np.random, "default_rng", scripted_rng)
    assert dp.seeded_uniforms(7, 2).tolist() == [0.5, 0.9]
    assert seeds == [7]


def test_seeded_uniforms_are_reproducible_prefixes():
    long = dp.seeded_uniforms(dp.NOISE_SEED, 50)
    assert np.array_equal(dp.seeded_uniforms(dp.NOISE_SEED, 7), long[:7])
    assert ((long > 0) & (long < 1)).all()


# --- The data and the queries -------------------------------------------------


def test_dataset_d_is_the_documented_sample():
    d = dp.dataset_d()
    assert d.shape == (dp.RECORD_COUNT,)
    assert ((d >= dp.CLIP_LOWER) & (d <= dp.CLIP_UPPER)).all()
    assert not d.flags.writeable
    assert np.array_equal(d, dp.sample_strengths(load_concrete(), dp.SEED))


def test_removed_record_is_the_strongest_and_changes_both_queries():
    d = dp.dataset_d()
    removed = dp.strongest_record(d)
    assert d[removed] == d.max() >= dp.THRESHOLD
    d_prime = dp.without_record(d, removed)
    assert dp.count_query(d) - dp.count_query(d_prime) == 1
    assert dp.bounded_mean_query(d) - dp.bounded_mean_query(d_prime) == pytest.approx(
        d[removed] / dp.SLOTS
    )


@pytest.mark.parametrize("query", dp.QUERIES)
def test_sensitivity_bounds_every_removal_from_d(query: str):
    d = dp.dataset_d()
    true_answer = dp.answer(query, d)
    changes = [abs(true_answer - dp.answer(query, dp.without_record(d, i))) for i in range(d.size)]
    assert max(changes) <= dp.sensitivity(query) + 1e-12


@HYPOTHESIS
@given(
    values=st.lists(st.floats(-1e6, 1e6, **finite), min_size=1, max_size=dp.SLOTS),
    data=st.data(),
)
def test_sensitivity_bounds_every_removal_from_any_dataset(values: list[float], data):
    removed = data.draw(st.integers(0, len(values) - 1))
    neighbour = dp.without_record(values, removed)
    for query in dp.QUERIES:
        change = abs(dp.answer(query, values) - dp.answer(query, neighbour))
        assert change <= dp.sensitivity(query) + 1e-9


def test_bounded_mean_refuses_more_records_than_slots():
    with pytest.raises(ValueError, match="101 records do not fit in 100 slots"):
        dp.bounded_mean_query(np.ones(101))


def test_unknown_query_is_refused():
    with pytest.raises(ValueError, match="query must be one of count, mean, got 'median'"):
        dp.sensitivity("median")


@pytest.mark.parametrize("epsilon", [0.05, 1.0, 5.0])
@pytest.mark.parametrize("query", dp.QUERIES)
def test_answer_grid_is_even_and_contains_both_peaks(query: str, epsilon: float):
    d = dp.dataset_d()
    loc_d = dp.answer(query, d)
    loc_d_prime = dp.answer(query, dp.without_record(d, dp.strongest_record(d)))
    scale = dp.sensitivity(query) / epsilon
    x = dp.answer_grid(loc_d, loc_d_prime, scale)
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
def results() -> dict[tuple[str, float, int], dict[str, Any]]:
    return {(p["query"], p["epsilon"], p["releases"]): dp.compute(**p) for p in dp.GRID}


def test_grid_is_the_documented_one():
    assert dp.GRID.names == ("query", "epsilon", "releases")
    assert dp.GRID.default == {"query": "count", "epsilon": 1.0, "releases": 5}
    assert dp.GRID.param("epsilon").values == (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
    assert dp.GRID.param("releases").values == tuple(range(1, 21))
    assert dp.GRID.param("query").display(0, "en") == "Count (≥ 40 MPa)"
    assert len(dp.GRID) == 280


def test_every_result_is_finite_json(results):
    for result in results.values():
        assert json_ready(result, "result") == result  # the build's own check: finite JSON


def test_every_result_has_the_declared_readouts_and_datasets(results):
    readout_names = {readout.name for readout in dp.READOUTS}
    for result in results.values():
        assert set(result) == {"readouts", "datasets"}
        assert set(result["readouts"]) == readout_names
        assert set(result["datasets"]) == {"densities", "log_ratio", "bounds", "releases", "budget"}


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


def test_readouts_read_well_in_both_languages(results):
    for result in results.values():
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
    provided = set(results[("count", 1.0, 5)]["datasets"])
    names = set(named_datasets(spec))
    assert names and names <= provided
    assert spec["width"] == dp.WIDTH and spec["height"] == dp.HEIGHT
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
    spec["datasets"] = results[("mean", 1.0, 5)]["datasets"]
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


def test_compute_refuses_points_outside_the_grid():
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0, got 0"):
        dp.compute(query="count", epsilon=0, releases=5)
    with pytest.raises(ValueError, match="releases must be between 1 and 20, got 21"):
        dp.compute(query="count", epsilon=1.0, releases=21)
    with pytest.raises(ValueError, match="query must be one of count, mean"):
        dp.compute(query="median", epsilon=1.0, releases=5)
