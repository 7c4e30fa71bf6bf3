"""The chart style every lesson shares: its helpers give what Altair itself would."""

from __future__ import annotations

import re

import altair as alt
import pytest
import vl_convert
from fontTools.ttLib import TTFont

from privacy_explorer import fonts
from privacy_explorer.charts import VEGA_LITE_VERSION
from privacy_explorer.compute.lessons import style
from privacy_explorer.project import builtin_templates_dir


def test_texts_are_read_in_one_language_and_a_missing_one_is_named():
    texts = {"title": {"ko": "제목", "en": "Title"}, "x": {"ko": "가로", "en": "Across"}}
    assert style.in_language(texts, "ko") == {"title": "제목", "x": "가로"}
    with pytest.raises(ValueError, match="the chart text 'x' has no 'en' version"):
        style.in_language({"x": {"ko": "가로", "en": ""}}, "en")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        style.in_language(texts, "fr")


def test_pair_scales_draw_the_first_group_solid_blue_and_the_second_dashed_vermillion():
    colour, dash = style.pair_scales(("D", "D′"))
    assert colour.to_dict() == {"domain": ["D", "D′"], "range": [style.BLUE, style.VERMILLION]}
    assert dash.to_dict() == {"domain": ["D", "D′"], "range": [style.SOLID, style.DASHED]}
    with pytest.raises(ValueError, match="compares two groups, got 3"):
        style.pair_scales(("a", "b", "c"))


def test_axes_and_legends_are_the_altair_objects_they_stand_for():
    assert style.integer_axis(range(1, 4)).to_dict() == {
        "values": [1, 2, 3],
        "format": "d",
        "grid": False,
    }
    assert style.fixed_axis(34).to_dict() == {"minExtent": 34, "maxExtent": 34}
    assert style.fixed_axis(64, label_angle=-40).to_dict() == {
        "labelAngle": -40,
        "minExtent": 64,
        "maxExtent": 64,
    }
    assert style.legend_above("Group").to_dict() == {
        "title": "Group",
        "orient": "top",
        "direction": "horizontal",
    }
    assert style.legend_inside("Data").to_dict() == {"title": "Data", "orient": "top-right"}


def test_layered_and_titled_give_what_alt_layer_and_properties_give():
    base = alt.Chart(alt.Data(name="rows"))
    lines, points = base.mark_line().encode(x="x:Q"), base.mark_point().encode(x="x:Q")
    assert style.layered(lines, points).to_dict() == alt.layer(lines, points).to_dict()
    chart = style.titled(style.layered(lines, points), "Title")
    assert (
        chart.to_dict()
        == alt.layer(lines, points)
        .properties(width=style.WIDTH, height=style.HEIGHT, title="Title")
        .to_dict()
    )


def test_a_takeaway_is_drawn_as_the_subtitle_of_the_title():
    plain = style.titled(alt.Chart().mark_point(), "Loss").to_dict()
    assert plain["title"] == "Loss"
    assert (plain["width"], plain["height"]) == (style.WIDTH, style.HEIGHT)
    point = alt.Chart().mark_point()
    taken = style.titled(point, "Loss", takeaway="Members lose less.", width=200).to_dict()
    assert taken["title"] == {"text": "Loss", "subtitle": "Members lose less."}
    assert taken["width"] == 200


HEAT_ROWS = [
    {"row": row, "column": column, "value": value}
    for row in range(3)
    for column, value in enumerate([0.5, -12.25, 0.125, 3.0])
]


def printed_values(chart: alt.TopLevelMixin) -> list[str]:
    """The cell values a chart's SVG draws visibly (Vega writes opacity 0 on hidden ones)."""
    spec = chart.to_dict()
    spec["datasets"] = {"cells": HEAT_ROWS}
    svg = vl_convert.vegalite_to_svg(spec, vl_version=VEGA_LITE_VERSION)
    texts = re.findall(r"<text([^>]*)>([^<]*)</text>", svg)
    return sorted(
        text
        for attributes, text in texts
        if 'opacity="0"' not in attributes and re.fullmatch(r"−?[\d.]+%?", text)
    )


def heat(width: int, height: int = 60, value_format: str = ".2f") -> alt.LayerChart:
    cells = alt.Chart(alt.Data(name="cells"))
    return style.heat_map(
        cells,
        x=alt.X("column:O", axis=None),
        y=alt.Y("row:O", axis=None),
        color=alt.Color("value:Q", legend=None),
        value="value",
        value_format=value_format,
    ).properties(width=width, height=height)


def test_a_heat_map_prints_a_value_only_where_its_cell_holds_it():
    # 4 columns: 240 px gives 60 px cells, room for "−12.25" (6 characters at 0.56 em of 11
    # px plus 3 px each side: 43 px); 160 px gives 40 px, room for "0.50" (30.6 px) only.
    every = sorted(["0.50", "−12.25", "0.13", "3.00"] * 3)
    assert printed_values(heat(240)) == every
    assert printed_values(heat(160)) == sorted(["0.50", "0.13", "3.00"] * 3)
    assert printed_values(heat(60)) == []  # 15 px cells hold none
    assert printed_values(heat(240, height=30)) == []  # 10 px rows hold no line of 11 px
    # A per cent sign is wider than a digit: 30 px cells hold "50%" (28.5 px), not "300%".
    assert printed_values(heat(120, value_format=".0%")) == sorted(["50%", "13%"] * 3)
    # The same rule inside side-by-side and stacked panels (a page may stack them).
    assert printed_values(alt.hconcat(heat(240), heat(60))) == every
    assert printed_values(alt.vconcat(heat(160), heat(240))) == sorted(
        every + ["0.50", "0.13", "3.00"] * 3
    )


def test_value_widths_bound_every_character_of_a_number_in_the_shipped_face():
    path = builtin_templates_dir() / "static" / "fonts" / fonts.TEXT_FACES[0]
    with TTFont(path, lazy=True) as face:
        per_em = face["head"].unitsPerEm
        advances = face["hmtx"]
        cmap = face.getBestCmap()
        width = {c: advances[cmap[ord(c)]][0] / per_em for c in "0123456789.,−-+e%"}
    assert max(w for c, w in width.items() if c != "%") <= style.VALUE_CHAR_WIDTH, width
    assert width["%"] <= style.PERCENT_WIDTH, width


def test_a_narrow_layout_rides_in_usermeta_beside_a_fixed_width():
    base = alt.Chart(alt.Data(name="rows")).mark_point().encode(x="x:Q")
    narrow = alt.vconcat(base, base)
    for chart in (
        style.on_narrow_screens(style.fixed_width(base), narrow),
        style.fixed_width(style.on_narrow_screens(base, narrow)),
    ):
        meta = chart.to_dict()["usermeta"]
        assert meta[style.FIXED_WIDTH] is True
        assert "$schema" not in meta[style.NARROW]
        assert meta[style.NARROW]["vconcat"] == narrow.to_dict()["vconcat"]
