"""The library's Laplace mechanism and queries, against SciPy and brute force."""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privacy_explorer.compute import laplace

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)


def finite(low: float, high: float) -> st.SearchStrategy[float]:
    """Floats in [low, high], neither NaN nor infinite."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


# --- The Laplace distribution -------------------------------------------------


@pytest.mark.parametrize("loc", [-3.0, 0.0, 34.2314, 37.0])
@pytest.mark.parametrize("scale", [0.2, 1.0, 20.0])
def test_density_integrates_to_one(loc: float, scale: float):
    x = np.linspace(loc - 60 * scale, loc + 60 * scale, 400_001)  # odd: the peak is a node
    assert np.trapezoid(laplace.laplace_density(x, loc, scale), x) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("loc, scale", [(0.0, 1.0), (37.0, 0.2), (-5.0, 20.0)])
def test_density_and_cdf_agree_with_scipy(loc: float, scale: float):
    x = np.linspace(loc - 30 * scale, loc + 30 * scale, 1001)
    reference = stats.laplace(loc=loc, scale=scale)
    np.testing.assert_allclose(laplace.laplace_density(x, loc, scale), reference.pdf(x), rtol=1e-12)
    np.testing.assert_allclose(laplace.laplace_cdf(x, loc, scale), reference.cdf(x), rtol=1e-12)


@HYPOTHESIS
@given(
    x=finite(-1e4, 1e4),
    loc_d=finite(-100, 100),
    loc_d_prime=finite(-100, 100),
    scale=finite(0.01, 100),
)
def test_log_density_ratio_never_exceeds_the_gap_over_the_scale(
    x: float, loc_d: float, loc_d_prime: float, scale: float
):
    ratio = laplace.log_density_ratio(x, loc_d, loc_d_prime, scale)
    assert abs(ratio) <= abs(loc_d - loc_d_prime) / scale * (1 + 1e-12) + 1e-12


@HYPOTHESIS
@given(
    x=finite(-50, 50),
    loc_d=finite(-10, 10),
    loc_d_prime=finite(-10, 10),
    scale=finite(0.5, 10),
)
def test_log_density_ratio_is_the_log_of_the_density_ratio(
    x: float, loc_d: float, loc_d_prime: float, scale: float
):
    direct = math.log(
        laplace.laplace_density(x, loc_d, scale) / laplace.laplace_density(x, loc_d_prime, scale)
    )
    assert laplace.log_density_ratio(x, loc_d, loc_d_prime, scale) == pytest.approx(
        direct, abs=1e-9
    )


@pytest.mark.parametrize("scale", [0.2, 1.0, 20.0])
def test_laplace_noise_is_the_inverse_cdf(scale: float):
    tiny = np.nextafter(0.0, 1.0)
    u = np.concatenate(
        [[tiny, 1e-300, 1e-12, 0.5, np.nextafter(0.5, 0.0), np.nextafter(1.0, 0.0)],
         np.linspace(1e-6, 1 - 1e-6, 2001)]
    )  # fmt: skip
    expected = stats.laplace.ppf(u, loc=0.0, scale=scale)
    np.testing.assert_allclose(laplace.laplace_noise(u, scale), expected, rtol=1e-12, atol=1e-15)


def test_laplace_noise_has_the_laplace_distribution():
    noise = laplace.laplace_noise(laplace.seeded_uniforms(20240601, 5000), 2.0)
    assert stats.kstest(noise, stats.laplace(loc=0.0, scale=2.0).cdf).pvalue > 0.01
    assert np.mean(np.abs(noise)) == pytest.approx(2.0, rel=0.05)


@pytest.mark.parametrize(
    "bad, shown",
    [(0.0, "0.0"), (1.0, "1.0"), (-0.25, "-0.25"), (1.5, "1.5"), (math.nan, "nan")],
)
def test_laplace_noise_rejects_uniforms_outside_the_open_interval(bad: float, shown: str):
    message = f"uniforms must lie strictly between 0 and 1, got {shown} at position 1"
    with pytest.raises(ValueError, match=message):
        laplace.laplace_noise([0.3, bad, 0.7], 1.0)


@pytest.mark.parametrize("scale", [0.0, -1.0, math.inf])
def test_laplace_noise_rejects_a_bad_scale(scale: float):
    with pytest.raises(ValueError, match="scale must be a finite number > 0"):
        laplace.laplace_noise([0.5], scale)


class ScriptedGenerator:
    """Stands in for ``numpy.random.Generator``: ``random(n)`` returns the next n scripted draws."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = iter(draws)

    def random(self, size: int) -> np.ndarray:
        return np.array([next(self.draws) for _ in range(size)])


def test_zero_draws_are_skipped():
    generator = cast(
        np.random.Generator, ScriptedGenerator([0.0, 0.25, 0.0, 0.5, 0.75, 0.0, 0.125])
    )
    assert laplace.nonzero_uniforms(generator, 4).tolist() == [0.25, 0.5, 0.75, 0.125]


def test_seeded_uniforms_guards_against_zero(monkeypatch: pytest.MonkeyPatch):
    seeds = []

    def scripted_rng(seed: int) -> ScriptedGenerator:
        seeds.append(seed)
        return ScriptedGenerator([0.0, 0.0, 0.5, 0.0, 0.9])

    monkeypatch.setattr(np.random, "default_rng", scripted_rng)  # the numpy laplace uses
    assert laplace.seeded_uniforms(7, 2).tolist() == [0.5, 0.9]
    assert seeds == [7]


def test_seeded_uniforms_are_reproducible_prefixes():
    long = laplace.seeded_uniforms(2006, 50)
    assert np.array_equal(laplace.seeded_uniforms(2006, 7), long[:7])
    assert ((long > 0) & (long < 1)).all()


# --- Queries and their sensitivities -------------------------------------------


@HYPOTHESIS
@given(
    values=st.lists(finite(-1e6, 1e6), min_size=1, max_size=100),
    data=st.data(),
)
def test_sensitivity_bounds_every_removal_from_any_dataset(values: list[float], data):
    removed = data.draw(st.integers(0, len(values) - 1))
    neighbour = laplace.without_record(values, removed)
    count_change = laplace.count_query(values, 40.0) - laplace.count_query(neighbour, 40.0)
    assert abs(count_change) <= laplace.COUNT_SENSITIVITY
    mean_change = laplace.bounded_mean_query(values, 100, 100.0) - laplace.bounded_mean_query(
        neighbour, 100, 100.0
    )
    assert abs(mean_change) <= laplace.bounded_mean_sensitivity(100, 100.0) + 1e-9


def test_bounded_mean_refuses_more_records_than_slots():
    with pytest.raises(ValueError, match="101 records do not fit in 100 slots"):
        laplace.bounded_mean_query(np.ones(101), 100, 100.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: laplace.count_query([1.0, math.nan], 0.5), "every record must be a finite number"),
        (lambda: laplace.bounded_mean_query([1.0], 0, 100.0), "slots must be a whole number >= 1"),
        (lambda: laplace.bounded_mean_sensitivity(10, -1.0), "upper must be a finite number > 0"),
        (lambda: laplace.without_record([1.0, 2.0], 2), "position 2 is outside 0…1"),
        (lambda: laplace.strongest_record([]), "there are no records"),
        (lambda: laplace.answer_grid(0.0, 1.0, 1.0, points=1), "points must be at least 2"),
        (lambda: laplace.seeded_uniforms(1, -1), "size must be a whole number >= 0"),
    ],
)
def test_inputs_are_checked_with_a_message_that_names_the_problem(call, message: str):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_neighbour_lacks_exactly_the_strongest_record():
    values = [3.0, 9.0, 1.0, 9.0]
    assert laplace.strongest_record(values) == 1  # the first of two equal maxima
    assert laplace.without_record(values, 1).tolist() == [3.0, 1.0, 9.0]


# --- Sampled releases against the exact distribution --------------------------------


@pytest.mark.parametrize("multiple", [0.0, 0.25, 1.0, 3.0])
def test_within_scales_probability_is_scipys(multiple: float):
    for scale in (0.2, 1.0, 20.0):
        exact = stats.laplace(scale=scale)
        reference = exact.cdf(multiple * scale) - exact.cdf(-multiple * scale)
        assert laplace.within_scales_probability(multiple) == pytest.approx(reference, abs=1e-14)
    with pytest.raises(ValueError, match="multiple must be a finite number >= 0, got -1"):
        laplace.within_scales_probability(-1)


@HYPOTHESIS
@given(
    values=st.lists(finite(-1e4, 1e4), min_size=1, max_size=80),
    centre=finite(-100, 100),
    width=finite(0.01, 50),
)
def test_density_histogram_counts_every_value_and_integrates_to_one(
    values: list[float], centre: float, width: float
):
    histogram = laplace.density_histogram(values, centre, width)
    assert histogram.counts.sum() == len(values)
    assert histogram.edges.size == histogram.counts.size + 1
    widths = np.diff(histogram.edges)
    np.testing.assert_allclose(widths, width, rtol=1e-9, atol=1e-9)
    assert float(np.sum(histogram.densities * width)) == pytest.approx(1.0, rel=1e-12)
    # Every edge is a whole number of widths from the centre.
    steps = (histogram.edges - centre) / width
    np.testing.assert_allclose(steps, np.round(steps), atol=1e-6)


def test_density_histogram_matches_numpy_on_its_own_edges():
    values = laplace.laplace_noise(laplace.seeded_uniforms(7, 2_000), 3.0) + 10.0
    histogram = laplace.density_histogram(values, 10.0, 0.75)
    assert histogram.edges[0] <= values.min() and values.max() < histogram.edges[-1]
    reference, _ = np.histogram(values, bins=histogram.edges, density=True)
    np.testing.assert_allclose(histogram.densities, reference, rtol=1e-12)
    assert 10.0 in histogram.edges  # the peak sits on an edge


def test_density_histogram_refuses_bad_input():
    with pytest.raises(ValueError, match="width must be a finite number > 0, got 0"):
        laplace.density_histogram([1.0], 0.0, 0)
    with pytest.raises(ValueError, match="values must be at least one finite number"):
        laplace.density_histogram([], 0.0, 1.0)
    with pytest.raises(ValueError, match="values must be at least one finite number"):
        laplace.density_histogram([1.0, math.nan], 0.0, 1.0)


# --- The clip's bias and the release's error ---------------------------------------


def test_clip_bias_is_the_clipped_mean_minus_the_mean():
    values = np.array([10.0, 55.0, 80.0, 120.0])
    assert laplace.clip_bias(values, 100.0) == pytest.approx(-20.0 / 4)
    assert laplace.clip_bias(values, 50.0) == pytest.approx((np.minimum(values, 50).mean()) - 66.25)
    assert laplace.clip_bias(values, 120.0) == 0.0  # nothing clipped: exactly no bias
    assert math.copysign(1.0, laplace.clip_bias(values, 500.0)) == 1.0  # +0, not −0
    with pytest.raises(ValueError, match="upper must be a finite number > 0"):
        laplace.clip_bias(values, 0.0)


@HYPOTHESIS
@given(
    values=st.lists(finite(0, 200), min_size=1, max_size=50),
    upper=finite(0.5, 300),
)
def test_clip_bias_never_raises_the_mean(values: list[float], upper: float):
    bias = laplace.clip_bias(values, upper)
    assert bias <= 0.0
    assert bias == pytest.approx(np.mean(np.clip(values, 0, upper)) - np.mean(values), abs=1e-9)
    assert (bias == 0.0) == (max(values) <= upper)


def test_release_rmse_matches_the_simulated_error():
    bias, scale = -0.8, 0.6
    assert laplace.release_rmse(bias, scale) == pytest.approx(math.sqrt(0.64 + 2 * 0.36))
    assert laplace.release_rmse(0.0, scale) == pytest.approx(stats.laplace(scale=scale).std())
    noise = stats.laplace(scale=scale).rvs(size=400_000, random_state=np.random.default_rng(3))
    simulated = math.sqrt(np.mean((bias + noise) ** 2))
    assert laplace.release_rmse(bias, scale) == pytest.approx(simulated, rel=5e-3)
    with pytest.raises(ValueError, match="bias must be a finite number, got nan"):
        laplace.release_rmse(math.nan, 1.0)
