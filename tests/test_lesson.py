"""The lesson contract's small pieces: grids, canonical values, readout formatting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privacy_explorer.lesson import (
    SELECT_ABOVE,
    Column,
    Grid,
    Param,
    Readout,
    Table,
    canonical_text,
    chart_number,
)

LABEL = {"ko": "값", "en": "Value"}


def test_grid_iterates_like_a_product_with_the_last_parameter_fastest():
    grid = Grid((Param("a", (1, 2), 1, LABEL), Param("b", ("x", "y", "z"), "y", LABEL)))
    points = list(grid)
    assert len(grid) == len(points) == 6
    assert points[:3] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"}]
    assert grid.default == {"a": 1, "b": "y"}
    assert [grid.key(p) for p in points] == ["0-0", "0-1", "0-2", "1-0", "1-1", "1-2"]


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_canonical_text_of_a_float_reads_back_as_the_same_number(value):
    assert float(canonical_text(value)) == value


def test_canonical_text_drops_a_trailing_zero_and_spells_booleans():
    assert canonical_text(1.0) == "1"
    assert canonical_text(0.05) == "0.05"
    assert canonical_text(True) == "true"


def test_widget_choice_follows_the_values():
    assert Param("e", (0.1, 0.2, 0.5, 1.0, 2.0), 1.0, LABEL).resolved_widget == "slider"
    assert Param("q", ("count", "mean"), "count", LABEL).resolved_widget == "choice"
    assert Param("r", (0, 1, 5, 20), 0, LABEL).resolved_widget == "choice"
    assert Param("r", (0, 1, 5, 20), 0, LABEL, widget="slider").resolved_widget == "slider"


def test_a_long_list_of_words_gets_a_drop_down_list():
    words = tuple(f"w{i}" for i in range(SELECT_ABOVE + 1))
    assert Param("w", words, "w0", LABEL).resolved_widget == "select"
    assert Param("w", words[:SELECT_ABOVE], "w0", LABEL).resolved_widget == "choice"
    assert Param("w", (True, False), True, LABEL, widget="select").resolved_widget == "select"
    numbers = tuple(range(SELECT_ABOVE + 5))
    assert Param("n", numbers, 0, LABEL).resolved_widget == "slider"


def test_index_of_keeps_booleans_and_numbers_apart():
    param = Param("p", (1, True, 0.5, "a"), 1, LABEL)
    assert [param.index_of(v) for v in (1, True, 0.5, "a", 1.0)] == [0, 1, 2, 3, 0]
    with pytest.raises(ValueError):
        param.index_of("b")


@pytest.mark.parametrize(
    ("column", "value", "lang", "expected"),
    [
        (Column("n", LABEL, ",d"), 21952, "en", "21,952"),
        (Column("x", LABEL, ".1f"), -0.25, "ko", "−0.2"),
        (Column("s", LABEL), {"ko": "허용", "en": "allowed"}, "en", "allowed"),
        (Column("s", LABEL), ["MIT", {"ko": "없음", "en": "none"}], "ko", "MIT, 없음"),
        (Column("s", LABEL), None, "en", ""),
        (Column("s", LABEL), "<b>", "en", "<b>"),
    ],
)
def test_table_cell_text(column, value, lang, expected):
    assert column.text(value, lang) == expected


def test_a_bool_cell_is_refused():
    with pytest.raises(TypeError, match="column 'flag' holds a bool"):
        Column("flag", LABEL).text(True, "en")


def test_table_cells_follow_the_column_order_and_ignore_other_fields():
    table = Table("t", (Column("b", LABEL), Column("a", LABEL, ".2f")), LABEL)
    assert table.cells({"a": 0.5, "b": "x", "c": "unused"}, "en") == ["x", "0.50"]


@pytest.mark.parametrize(
    ("readout", "value", "lang", "expected"),
    [
        (Readout("m", LABEL, ".2f", {"ko": "MPa", "en": "MPa"}), 34.231, "ko", "34.23 MPa"),
        (Readout("m", LABEL, ".2f"), -0.001, "en", "0.00"),
        (Readout("m", LABEL, ".1f"), -2.5, "en", "−2.5"),
        (Readout("n", LABEL, ",d", {"ko": "개", "en": "records"}), 1030, "en", "1,030 records"),
        (Readout("s", LABEL), {"ko": "허용", "en": "allowed"}, "ko", "허용"),
        (Readout("s", LABEL), "7391", "en", "7391"),
    ],
)
def test_readout_text(readout, value, lang, expected):
    assert readout.text(value, lang) == expected


def test_a_readout_is_silent_unless_it_is_announced():
    assert Readout("m", LABEL).announce is False
    assert Readout("status", LABEL, announce=True).announce is True


def test_chart_numbers_keep_six_significant_digits_and_drop_negative_zero():
    assert chart_number(0.1 + 0.2) == 0.3
    assert chart_number(2 / 3) == 0.666667
    assert chart_number(123456789.0) == 123457000.0
    assert str(chart_number(-1e-300 * 1e-300)) == "0.0"  # −0.0 would print as "-0"
    assert chart_number(2 / 3, digits=2) == 0.67


def test_units_follow_the_language_korean_counters_attach_and_english_inflects():
    records = Readout(
        "n", {"ko": "수", "en": "n"}, "d", {"ko": "개", "en": "records"}, unit_one=READOUT_ONE
    )
    assert records.text(37, "ko") == "37개" and records.text(37, "en") == "37 records"
    assert records.text(1, "en") == "1 record" and records.text(1, "ko") == "1개"
    epochs = Readout("e", {"ko": "에", "en": "e"}, ",d", {"ko": "에포크", "en": "epochs"})
    assert epochs.text(2000, "ko") == "2,000 에포크"  # a loanword unit keeps its space
    strength = Readout("s", {"ko": "강도", "en": "strength"}, ".1f", {"ko": "MPa", "en": "MPa"})
    assert strength.text(74.5, "ko") == "74.5 MPa"


READOUT_ONE = {"ko": "개", "en": "record"}
