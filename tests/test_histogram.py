"""The library's shared-bin histogram, checked by hand and by counting every value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privacy_explorer.compute import histogram

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)
any_values = st.lists(
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=60
)


def test_common_histogram_shares_edges_and_counts_overflow():
    counted = histogram.common_histogram([0.0, 0.5, 9.99, 10.0, 250.0], [3.0, 11.0, 1e9], 4, 30.0)
    np.testing.assert_array_equal(counted.edges, [0.0, 10.0, 20.0, 30.0])
    assert counted.upper == 30.0
    assert counted.counts_a.tolist() == [3, 1, 0, 1]  # 10.0 opens the second bin
    assert counted.counts_b.tolist() == [1, 1, 0, 1]  # 1e9 lands in the last bin


@HYPOTHESIS
@given(a=any_values, b=any_values, bins=st.integers(2, 20), upper=st.floats(0.5, 1e5))
def test_common_histogram_keeps_every_value(a: list[float], b: list[float], bins: int, upper):
    counted = histogram.common_histogram(a, b, bins, upper)
    assert counted.edges.size == bins
    assert counted.counts_a.sum() == len(a) and counted.counts_b.sum() == len(b)
    assert counted.counts_a[-1] == sum(v >= counted.upper for v in a)
    assert counted.counts_b[-1] == sum(v >= counted.upper for v in b)


def test_common_histogram_refuses_bad_input():
    with pytest.raises(ValueError, match="bins must be at least 2"):
        histogram.common_histogram([1.0], [1.0], 1, 10.0)
    with pytest.raises(ValueError, match=r"upper must be a finite number above lower=0\.0"):
        histogram.common_histogram([1.0], [1.0], 4, 0.0)
    with pytest.raises(ValueError, match=r"sample b has values below 0\.0 or NaN"):
        histogram.common_histogram([1.0], [-1.0], 4, 10.0)


@pytest.mark.parametrize(
    "value, expected", [(0.7, 1.0), (1.0, 1.0), (1.2, 2.0), (2.2, 2.5), (3.0, 5.0), (6.0, 10.0)]
)
def test_nice_ceiling(value: float, expected: float):
    assert histogram.nice_ceiling(value) == expected
    assert histogram.nice_ceiling(value * 100) == expected * 100


def test_histogram_upper_reaches_the_quantile_with_nice_bins():
    losses = np.arange(1.0, 101.0)
    upper = histogram.histogram_upper(losses, bins=11, quantile=0.9)
    assert upper >= np.quantile(losses, 0.9)
    assert upper == 100.0  # width 10, the nice ceiling of 90.1 / 10


def test_histogram_upper_from_a_negative_lower_edge():
    scores = np.array([-2.0, -1.5, 0.0, 0.5, 7.0])
    upper = histogram.histogram_upper(scores, bins=5, quantile=0.8, lower=-2.0)
    assert upper == -2.0 + 4 * 1.0  # the 80th percentile 1.8 lies 3.8 above lower: width 1
    counted = histogram.common_histogram(scores[:2], scores[2:], 5, upper, lower=-2.0)
    assert counted.counts_a.sum() + counted.counts_b.sum() == scores.size
    assert counted.counts_b[-1] == 1  # 7.0 in the overflow bin
    with pytest.raises(ValueError, match="lower must be a finite number"):
        histogram.histogram_upper(scores, bins=5, quantile=0.8, lower=float("nan"))


# --- Counts on given edges, closed on the right ----------------------------------------


@settings(database=None, deadline=None, max_examples=200)
@given(
    values=st.lists(st.floats(-10, 10, allow_nan=False), max_size=40),
    cut=st.sampled_from([-3.0, 0.0, 0.5, 2.0]),
)
def test_counts_up_to_an_edge_are_the_values_at_or_below_it(values: list[float], cut: float):
    edges = [-3.0, -1.0, 0.0, 0.5, 2.0, 4.0]
    counts = histogram.counts_up_to_edges(values, edges)
    assert counts.sum() == len(values)  # values outside the edges join the end bins
    array = np.asarray(values)
    up_to = edges.index(cut)
    inside = np.sum(array <= cut) if up_to > 0 else 0
    if up_to > 0:
        assert counts[:up_to].sum() == inside
    # Each inner bin holds exactly the values in (lower, upper].
    for i in range(1, len(edges) - 2):
        assert counts[i] == np.sum((array > edges[i]) & (array <= edges[i + 1]))


def test_counts_up_to_edges_refuse_bad_edges():
    with pytest.raises(ValueError, match="edges must be at least two increasing numbers"):
        histogram.counts_up_to_edges([1.0], [2.0, 1.0])
    with pytest.raises(ValueError, match="values must not be NaN"):
        histogram.counts_up_to_edges([float("nan")], [0.0, 1.0])
