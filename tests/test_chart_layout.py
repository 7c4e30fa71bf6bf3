"""Charts that read on a phone: readable text sizes, the container's width, and the fixes of
issue 14 to lessons 01–03 (legend dashes, the releases and log-ratio axes, the ROC labels)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import altair as alt
import pytest

from privacy_explorer.charts import (
    MIN_FONT_SIZE,
    TEXT_SIZES,
    chart_spec,
    is_responsive,
    responsive,
)
from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.compute.lessons import licenses, membership, membership_charts, memorization
from privacy_explorer.compute.lessons.style import across, fixed_width, on_narrow_screens
from privacy_explorer.errors import ModuleError
from privacy_explorer.lesson import LANGUAGES, Chart, Grid, Param

REPO = Path(__file__).resolve().parent.parent
LESSONS = (dp, membership, memorization)


def spec_of(module: Any, name: str, lang: str) -> dict[str, Any]:
    chart = next(chart for chart in module.CHARTS if chart.name == name)
    return chart_spec(chart, lang, module.GRID, Path(module.__file__), REPO).spec


def walk(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def encodings(spec: dict[str, Any]):
    """Every channel definition of every layer: (channel, definition)."""
    for node in walk(spec):
        for channel, definition in (node.get("encoding") or {}).items():
            for item in definition if isinstance(definition, list) else [definition]:
                if isinstance(item, dict):
                    yield channel, item


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("module", "name"), [(m, c.name) for m in LESSONS for c in m.CHARTS], ids=str
)
def test_every_chart_text_is_at_least_eleven_pixels(module, name, lang):
    spec = spec_of(module, name, lang)
    config = spec["config"]
    for part, sizes in TEXT_SIZES.items():
        for key in sizes:
            assert config[part][key] >= MIN_FONT_SIZE, (part, key)
    for node in walk(spec):
        for key, value in node.items():
            if key.endswith(("fontSize", "FontSize")) and isinstance(value, int | float):
                assert value >= MIN_FONT_SIZE, (name, key, value)


def tiny_chart(lang: str) -> alt.Chart:
    return alt.Chart(alt.Data(name="rows")).mark_text(fontSize=9).encode(x="x:Q", text="t:N")


TAKEAWAY_LESSONS = (memorization, dp, licenses)
"""Lessons whose every chart states its takeaway (issue 22 §4; lessons 02, 05, 06: theirs)."""


@pytest.mark.parametrize(
    ("module", "name"), [(m, c.name) for m in TAKEAWAY_LESSONS for c in m.CHARTS], ids=str
)
def test_every_chart_states_its_takeaway_in_words_in_each_language(module, name):
    """A subtitle of its own under the title, in its narrow layout too; without digits: a number
    the reader should see comes from the chart's data, never typed into a sentence."""
    takeaways = {}
    for lang in LANGUAGES:
        spec = spec_of(module, name, lang)
        layouts = [spec, spec.get("usermeta", {}).get("narrow") or spec]
        for layout in layouts:
            title = layout["title"]
            assert isinstance(title, dict) and title.get("subtitle"), (name, lang, title)
            assert title["subtitle"] == spec["title"]["subtitle"] != title["text"]
        takeaways[lang] = spec["title"]["subtitle"]
        assert "\n" not in takeaways[lang] and not any(c.isdigit() for c in takeaways[lang])
    assert len(set(takeaways.values())) == len(LANGUAGES), takeaways


def test_a_chart_with_smaller_text_is_refused_with_the_fix():
    chart = Chart("tiny", tiny_chart, {"ko": "작은 글자", "en": "Tiny text"})
    grid = Grid((Param("n", (1, 2), 1, {"ko": "n", "en": "n"}),))
    with pytest.raises(ModuleError, match="fontSize=9 is too small to read on a phone; use at"):
        chart_spec(chart, "en", grid, REPO / "compute/lessons/tiny.py", REPO)


def test_a_single_or_layered_chart_takes_its_containers_width_on_the_page():
    spec = spec_of(dp, "densities", "en")
    page = responsive(spec)
    assert page["width"] == "container" and page["autosize"]["type"] == "fit-x"
    assert spec["width"] == 560  # the static SVG keeps its own width
    side_by_side = {"hconcat": [{"width": 200}, {"width": 200}]}
    assert not is_responsive(side_by_side) and responsive(side_by_side) == side_by_side


@pytest.mark.parametrize("name", ["verdict_map", "merge_map"])
def test_a_narrow_layout_is_styled_and_set_to_the_default_like_its_chart(name):
    """Lesson 04's maps carry a layout for phones: the engine gives it the shipped font and
    readable sizes, sets its params to the default point, and lets it take the box's width."""
    spec = spec_of(licenses, name, "en")
    narrow = spec["usermeta"]["narrow"]
    assert narrow["config"]["font"] == spec["config"]["font"]
    assert narrow["config"]["legend"]["labelFontSize"] >= MIN_FONT_SIZE
    assert narrow["description"] == spec["description"] and "datasets" not in narrow
    values = lambda s: {p["name"]: p["value"] for p in s["params"]}  # noqa: E731
    assert (
        values(narrow)
        == values(spec)
        == {name: value for name, value in licenses.GRID.default.items() if name in values(spec)}
    )
    assert "$schema" not in narrow
    assert responsive(spec)["usermeta"]["narrow"] == responsive(narrow)


def other_rows_when_narrow(lang: str) -> alt.Chart:
    wide = alt.Chart(alt.Data(name="rows")).mark_point().encode(x="x:Q")
    narrow = alt.Chart(alt.Data(name="other")).mark_point().encode(x="x:Q")
    return on_narrow_screens(fixed_width(wide), narrow)


def test_a_narrow_layout_reading_other_rows_is_refused_with_the_fix():
    chart = Chart("split", other_rows_when_narrow, {"ko": "두 모양", "en": "Two shapes"})
    grid = Grid((Param("n", (1, 2), 1, {"ko": "n", "en": "n"}),))
    with pytest.raises(
        ModuleError, match="the narrow layout reads other, which the chart does not"
    ):
        chart_spec(chart, "en", grid, REPO / "compute/lessons/split.py", REPO)


def test_a_position_on_the_plot_follows_the_width_it_is_given():
    assert across(0.5).to_dict() == {"expr": "width * 0.5 + 0"}
    spec = spec_of(dp, "log_ratio", "en")
    positions = [node["mark"].get("x") for node in walk(spec) if isinstance(node.get("mark"), dict)]
    assert {"expr": "width * 1 + 0"} in positions
    assert not any(isinstance(x, int | float) for x in positions)


# --- Lesson 03 ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", [c.name for c in dp.CHARTS])
def test_lesson_03_titles_name_epsilon_never_a_field(name, lang):
    spec = spec_of(dp, name, lang)
    titles = [d.get("title") for _, d in encodings(spec) if "field" in d]
    assert all(isinstance(title, str) and title for title in titles), (name, titles)
    assert not any("eps" in title or "_" in title.replace("p_D", "") for title in titles), titles


def test_lesson_03_budget_axis_uses_the_letter_epsilon():
    for lang in LANGUAGES:
        spec = spec_of(dp, "budget", lang)
        y_titles = {d["title"] for channel, d in encodings(spec) if channel == "y"}
        assert y_titles == {dp._TEXT["budget"]["y"][lang]} and "ε" in y_titles.pop()


@pytest.mark.parametrize("name", ["releases", "log_ratio"])
def test_lesson_03_leaves_room_between_the_data_and_the_plots_edge(name):
    """q(D′) at the bottom of the releases, and the ±ε band, no longer sit on the frame."""
    spec = spec_of(dp, name, "en")
    scales = [d.get("scale", {}) for channel, d in encodings(spec) if channel == "y"]
    assert scales and all(scale.get("padding") == dp.BAND_MARGIN > 0 for scale in scales)


# --- Lesson 01 ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lesson_01_legend_draws_each_lines_dash(lang):
    spec = spec_of(memorization, "exposure", lang)
    dashes = [d for channel, d in encodings(spec) if channel == "strokeDash"]
    assert dashes and all(d["scale"]["range"] == list(memorization.REPEAT_DASHES) for d in dashes)
    assert len({json.dumps(dash) for dash in memorization.REPEAT_DASHES}) == len(
        memorization.REPEATS
    )
    legends = [d["legend"] for channel, d in encodings(spec) if channel in ("color", "strokeDash")]
    assert all(legend["symbolType"] == "stroke" for legend in legends)
    assert all(legend["symbolStrokeWidth"] >= 2 for legend in legends)


# --- Lesson 02 ---------------------------------------------------------------------


def test_lesson_02_roc_stays_square_and_fits_a_phone():
    spec = spec_of(membership, "attack", "en")
    roc = spec["hconcat"][1]
    assert roc["width"] == roc["height"] == membership_charts.ROC_SIZE <= 300
    assert not is_responsive(spec)
    assert fixed_width(alt.Chart().mark_point().properties(width=10)).to_dict()["usermeta"] == {
        "fixedWidth": True
    }
