"""The chart style every lesson shares: its helpers give what Altair itself would."""

from __future__ import annotations

import altair as alt
import pytest

from privacy_explorer.compute.lessons import style


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
