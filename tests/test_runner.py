"""The grid runner's pure helpers: what a result may hold and how it is serialised."""

from __future__ import annotations

import hashlib
import math
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest

from privacy_explorer.lesson import Grid, Param, Readout
from privacy_explorer.modules import LessonModule
from privacy_explorer.runner import (
    BATCH_ABOVE,
    BATCH_SIZE,
    _read_cached,
    batch_name,
    check_result,
    dumps,
    json_ready,
    plan_batches,
)

# Stand-ins for a lesson module: the result checks read nothing but its readouts.
MODULE = cast(
    LessonModule,
    SimpleNamespace(readouts={"scale": Readout("scale", {"ko": "척도", "en": "Scale"})}),
)
COUNTED = cast(
    LessonModule,
    SimpleNamespace(readouts={"rolls": Readout("rolls", {"ko": "횟수", "en": "Rolls"}, "d")}),
)


def test_numpy_scalars_become_python_numbers():
    ready = json_ready({"a": np.float64(0.5), "b": [np.int64(3)], "c": np.bool_(True)}, "result")
    assert ready == {"a": 0.5, "b": [3], "c": True}
    assert type(ready["b"][0]) is int


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"x": math.nan}, "result.x is nan; results must be finite numbers"),
        ({"rows": [{"y": -math.inf}]}, "result.rows[0].y is -inf; results must be finite numbers"),
        (
            {"m": np.zeros(2)},
            "result.m is a numpy.ndarray, which JSON cannot hold; "
            "convert it to a number, text, list or dict (e.g. array.tolist())",
        ),
        ({1: "a"}, "result has a non-text key 1"),
    ],
)
def test_values_a_page_cannot_show_are_refused_with_their_path(value, message):
    with pytest.raises(ValueError) as caught:
        json_ready(value, "result")
    assert str(caught.value) == message


def test_canonical_json_is_sorted_compact_and_keeps_unicode():
    assert dumps({"b": 1, "a": "D′", "c": 0.1}) == '{"a":"D′","b":1,"c":0.1}'


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"datasets": {}}, "the result must be a dict with 'readouts' and 'datasets' dicts"),
        ({"readouts": {}}, "result['readouts'] lacks scale, declared in READOUTS"),
        (
            {"readouts": {"scale": 1}, "datasets": {"d": [1, 2]}},
            "result['datasets']['d'] must be a list of row dicts",
        ),
        (
            {"readouts": {"scale": {"ko": "일"}}},
            "readout 'scale' must be a number, a text or {'ko': ..., 'en': ...}",
        ),
        (
            {"readouts": {"scale": 1}, "extra": 2},
            "the result has unexpected keys ['extra']; use 'readouts' and 'datasets'",
        ),
    ],
)
def test_malformed_results_are_explained(result, message):
    with pytest.raises(ValueError) as caught:
        check_result(result, MODULE)
    assert str(caught.value) == message


def test_a_well_formed_result_passes():
    check_result({"readouts": {"scale": {"ko": "일", "en": "one"}}, "datasets": {"d": []}}, MODULE)


def test_a_batch_is_named_by_its_keys_and_a_single_point_by_its_own_key():
    assert batch_name(["a" * 64]) == "a" * 64
    assert batch_name(["a", "b"]) == hashlib.sha256(b"a\nb").hexdigest()
    assert batch_name(["a", "b"]) != batch_name(["b", "a"])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "readout 'scale' is None; return a number, a text or {'ko': ..., 'en': ...}"),
        (
            True,
            "readout 'scale' is True, a bool; return a number or a text "
            "({'ko': ..., 'en': ...} gives a word per language)",
        ),
    ],
)
def test_a_readout_the_page_would_show_as_none_or_true_is_refused(value, message):
    with pytest.raises(ValueError) as caught:
        check_result({"readouts": {"scale": value}}, MODULE)
    assert str(caught.value) == message


def test_a_readout_its_format_cannot_show_is_refused():
    with pytest.raises(ValueError) as caught:
        check_result({"readouts": {"rolls": 9.5}}, COUNTED)
    assert str(caught.value) == (
        "readout 'rolls' is 9.5, which its format 'd' cannot show (Unknown format code 'd' for "
        "object of type 'float'); return a whole number (int(...)), or change the format in "
        "READOUTS"
    )
    check_result({"readouts": {"rolls": 9}}, COUNTED)


def _result(scale):
    return {"readouts": {"scale": scale}, "datasets": {}}


def test_a_batch_is_read_only_when_every_key_is_there(tmp_path):
    path = tmp_path / "batch.json"
    entries = [{"key": "k1", "result": _result(1)}, {"key": "k2", "result": _result(2)}]
    path.write_text(dumps({"entries": entries}), "utf-8")
    assert _read_cached(path, ["k2", "k1"], MODULE) == ([_result(2), _result(1)], None)
    assert _read_cached(path, ["k1", "k3"], MODULE) == (
        None,
        "it lacks the result of a grid point of its batch",
    )
    single = tmp_path / "single.json"
    single.write_text(dumps({"key": "k1", "result": _result(1)}), "utf-8")
    assert _read_cached(single, ["k1"], MODULE) == ([_result(1)], None)
    assert _read_cached(tmp_path / "missing.json", ["k1"], MODULE) == (None, None)


@pytest.mark.parametrize(
    ("stored", "problem"),
    [
        (b'{"key": "k1", "result": {"readouts"', "it is not valid JSON; it may be truncated"),
        (b"\xff\xfe", "it is not UTF-8 text"),
        (b"[1, 2]", "it is not a result cache entry"),
        (
            b'{"key": "k2", "result": {"readouts": {"scale": 1}}}',
            "it holds the result of another grid point",
        ),
        (
            b'{"key": "k1", "result": {"readouts": {"scale": NaN}}}',
            "result.readouts.scale is nan; results must be finite numbers",
        ),
        (
            b'{"key": "k1", "result": {"readouts": {}}}',
            "result['readouts'] lacks scale, declared in READOUTS",
        ),
    ],
    ids=["truncated", "not-utf8", "not-an-entry", "swapped", "nan", "fails-the-contract"],
)
def test_a_damaged_cache_entry_says_what_is_wrong(tmp_path, stored, problem):
    path = tmp_path / "k1.json"
    path.write_bytes(stored)
    assert _read_cached(path, ["k1"], MODULE) == (None, problem)


def _grid(*sizes: int, group_by: tuple[str, ...] = ()) -> Grid:
    params = tuple(
        Param(f"p{i}", tuple(range(size)), 0, {"ko": f"p{i}", "en": f"p{i}"})
        for i, size in enumerate(sizes)
    )
    return Grid(params, group_by=group_by)


def test_a_small_grid_runs_one_point_per_task():
    grid = _grid(3, 2)
    assert plan_batches(grid, list(grid)) == [[i] for i in range(6)]


def test_a_large_grid_runs_in_consecutive_batches():
    grid = _grid(BATCH_ABOVE + 1)
    batches = plan_batches(grid, list(grid))
    assert [len(b) for b in batches] == [BATCH_SIZE] * (len(batches) - 1) + [
        (BATCH_ABOVE + 1) % BATCH_SIZE or BATCH_SIZE
    ]
    assert [i for batch in batches for i in batch] == list(range(BATCH_ABOVE + 1))


def test_grouped_points_share_a_task_in_order_of_first_appearance():
    grid = _grid(4, 3, group_by=("p1",))  # p1 varies fastest: its groups interleave
    points = list(grid)
    batches = plan_batches(grid, points)
    assert batches == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    for batch in batches:
        assert len({points[i]["p1"] for i in batch}) == 1
