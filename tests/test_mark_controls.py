"""Chart marks as controls (issue 22 section 3): a chart's point selection ``<param>_by_mark``
sets a lesson parameter through its ordinary control, by mouse, touch and keyboard.

The browser tests run on a copy of the sample project whose bar chart lets a click, a drag or
a tap on a bar set the threshold to that face (the nearest grid value: face 1 gives 2); the
threshold's slider, the keyboard's way to the same setting, stays on the page.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import altair as alt
import pytest
from conftest import SAMPLE
from lessonpage import PREFIX, READY, TIMEOUT_MS, Site, open_page, touch_drag
from playwright.sync_api import Browser, BrowserContext, Page

from privacy_explorer.build import build
from privacy_explorer.charts import chart_spec
from privacy_explorer.compute.lessons import style
from privacy_explorer.errors import ExplorerError, ModuleError
from privacy_explorer.lesson import LANGUAGES, Chart, Grid, Param
from privacy_explorer.project import load_project

GRID = Grid(
    (
        Param("threshold", (2, 3, 4, 5, 6), 4, {"ko": "기준 눈", "en": "Threshold"}),
        Param("prior", ("none", "add_one"), "none", {"ko": "평활", "en": "Smoothing"}),
    )
)
SLUG = "01-dice"
SELECTION = """
        .add_params(
            alt.selection_point(
                name="threshold_by_mark", fields=["face"], toggle=False, clear=False,
                on="pointerdown, pointermove[event.buttons]",
            )
        )
"""
"""What the sample's bar chart gains: a bar picked by a click or a drag sets the threshold. (A
bar is picked where the pointer is, not by ``nearest``, which measures to a bar's corner.)"""
BARS = '.encode(x=alt.X("face:O"), y=alt.Y("count:Q"), color=alt.Color("hit:N"))\n'


def spec_with(*params: alt.Parameter) -> Chart:
    def build_chart(lang: str) -> alt.Chart:
        return (
            alt.Chart(alt.Data(name="faces"))
            .mark_point()
            .encode(x="face:Q", y="count:Q")
            .add_params(*params)
        )

    return Chart("faces", build_chart, {"ko": "눈.", "en": "Faces."})


def test_a_mark_control_names_the_parameter_its_marks_set_and_the_field_that_sets_it(
    tmp_path: Path,
):
    marked = spec_with(style.mark_control("threshold", field="face", drag=True))
    spec = chart_spec(marked, "en", GRID, tmp_path / "dice.py", tmp_path)
    assert spec.marks == (("threshold", "face"),)
    assert spec.signals == ()
    plain = spec_with(alt.param(name="threshold", value=4))
    assert chart_spec(plain, "en", GRID, tmp_path / "dice.py", tmp_path).marks == ()
    clicked = style.mark_control("prior").param
    assert isinstance(clicked, alt.SelectionParameter)
    assert clicked.to_dict()["select"] == {
        "type": "point",
        "fields": ["prior"],
        "nearest": True,
        "on": "click",
        "toggle": False,
        "clear": False,
    }


def test_a_mark_control_of_an_unknown_parameter_or_without_one_field_is_refused(tmp_path: Path):
    module = tmp_path / "dice.py"
    unknown = spec_with(style.mark_control("thresold", field="face"))
    with pytest.raises(ModuleError) as failure:
        chart_spec(unknown, "ko", GRID, module, tmp_path)
    assert str(failure.value.message) == (
        "dice.py: chart 'faces' (ko): the mark control 'thresold_by_mark' sets 'thresold', "
        "which is not a parameter of GRID; name it after one: 'threshold_by_mark', "
        "'prior_by_mark'"
    )
    for wrong in (
        alt.selection_point(name="threshold_by_mark", encodings=["x"]),
        alt.selection_point(name="threshold_by_mark", fields=["face", "count"]),
        alt.selection_interval(name="threshold_by_mark", fields=["face"]),
    ):
        with pytest.raises(ModuleError, match="must be a point selection of one field"):
            chart_spec(spec_with(wrong), "en", GRID, module, tmp_path)


def marked_sample(project: Path, controls: str = "{{< controls >}}") -> Path:
    """``project`` (a copy of the sample) with the bar chart as a control of the threshold and,
    on both pages, ``controls`` in place of the page's controls."""
    module = project / "compute" / "dice.py"
    source = module.read_text("utf-8")
    assert BARS in source
    module.write_text(source.replace(BARS, BARS.rstrip("\n") + SELECTION), "utf-8")
    for lang in LANGUAGES:
        page = project / "content" / lang / f"{SLUG}.md"
        page.write_text(page.read_text("utf-8").replace("{{< controls >}}", controls), "utf-8")
    return project


def test_a_chart_whose_marks_set_a_parameter_needs_its_control_on_the_page(
    sample_project: Path,
):
    project = load_project(marked_sample(sample_project, "{{< controls prior >}}"))
    saved_path = list(sys.path)  # the build makes the copy importable
    try:
        with pytest.raises(ExplorerError) as failure:
            build(project, jobs=1)
    finally:
        sys.path[:] = saved_path
    assert str(failure.value.message) == (
        "content/ko/01-dice.md:15: the marks of chart 'faces' set 'threshold', but the page "
        "has no control for it, the keyboard's way to the same change; add "
        "'{{< controls threshold >}}' beside the chart"
    )
    assert not (sample_project / "build" / "site").exists()


# --- In the browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def marked_site(tmp_path_factory: pytest.TempPathFactory, sample_assets: Path) -> Iterator[Site]:
    """The sample course with its bar chart as a control, built once for this module."""
    project = tmp_path_factory.mktemp("marked") / "course"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("build"))
    shutil.copytree(sample_assets, project / "build" / "assets-cache")
    marked_sample(project)
    saved_path = list(sys.path)
    try:
        build(load_project(project), jobs=1)
    finally:
        sys.path[:] = saved_path
    folder = project / "build" / "site"
    data = (folder / "assets" / "data" / f"{SLUG}.en.js").read_text("utf-8")
    assert '"marks":{"threshold":"face"}' in data
    yield Site(base=folder.as_uri() + "/", folder=folder)


def bar_centres(page: Page) -> list[tuple[float, float]]:
    """Where each face's bar is on the screen, faces 1 to 6 (after scrolling the chart in)."""
    page.locator("figure[data-chart=faces]").scroll_into_view_if_needed()
    centres: list[list[float]] = page.evaluate(
        """() => Array.from(document.querySelectorAll(
             "figure[data-chart=faces] .mark-rect.role-mark path")).map(bar => {
           const box = bar.getBoundingClientRect();
           return [box.x + box.width / 2, box.y + box.height / 2];
         })"""
    )
    assert len(centres) == 6
    return [(x, y) for x, y in centres]


def wait_for_threshold(page: Page, threshold: int) -> None:
    """The page shows the threshold everywhere: the point, the slider, the hash, the chart."""
    index = GRID.param("threshold").values.index(threshold)
    page.wait_for_function(
        "key => document.querySelector('article[data-lesson]').dataset.point === key",
        arg=f"{index}-0",
        timeout=TIMEOUT_MS,
    )
    shown = page.evaluate(
        """() => ({
          sliders: Array.from(document.querySelectorAll("input[data-param=threshold]"))
            .map(input => input.value),
          hash: location.hash,
          hits: window.explorerLesson.views.faces.data("faces").map(row => row.hit),
        })"""
    )
    assert shown["sliders"] == [str(index)]
    assert shown["hash"] == f"#threshold={threshold}&prior=none"
    assert shown["hits"] == [face >= threshold for face in range(1, 7)]


def said(page: Page, key: str) -> str:
    """What the page's polite region says once it describes the point ``key``."""
    page.wait_for_function(
        "key => document.querySelector('[data-announcer]').dataset.point === key", arg=key
    )
    text: str = page.evaluate("document.querySelector('[data-announcer]').textContent")
    return text


@pytest.mark.browser
def test_a_click_and_a_drag_set_the_parameter_and_the_keyboard_goes_on_from_there(
    context: BrowserContext, marked_site: Site
):
    lang = LANGUAGES[0]
    page, watch = open_page(context, marked_site, f"{PREFIX[lang]}{SLUG}.html")
    page.wait_for_selector(READY, state="attached")
    assert (
        page.evaluate(
            "getComputedStyle(document.querySelector('figure[data-chart=faces] svg')).touchAction"
        )
        == "pan-y pinch-zoom"
    )
    bars = bar_centres(page)
    page.mouse.click(*bars[5])
    wait_for_threshold(page, 6)
    assert said(page, "4-0").startswith("기준 눈: 6.")
    # Pressed on face 2 and dragged across to face 5: the threshold follows the pointer.
    page.mouse.move(*bars[1])
    page.mouse.down()
    wait_for_threshold(page, 2)
    page.mouse.move(*bars[4], steps=6)
    wait_for_threshold(page, 5)
    page.mouse.up()
    page.mouse.move(*bars[0])  # a move without a button pressed sets nothing
    # The face the grid lacks (1) sets the nearest threshold there is (2).
    page.mouse.click(*bars[0])
    wait_for_threshold(page, 2)
    # The slider shows the value the marks set, and the keyboard goes on from it.
    page.locator("input[data-param=threshold]").focus()
    page.keyboard.press("ArrowRight")
    wait_for_threshold(page, 3)
    watch.assert_clean("mark control by mouse and keyboard")


@pytest.mark.browser
def test_a_touch_drag_and_a_tap_set_the_parameter_in_an_embed_page(
    browser: Browser, marked_site: Site
):
    lang = LANGUAGES[-1]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = open_page(context, marked_site, f"{PREFIX[lang]}embed/{SLUG}.html")
        page.wait_for_selector(READY, state="attached")
        bars = bar_centres(page)
        (start, y), (end, _) = bars[2], bars[4]
        touch_drag(page, [(start + (end - start) * step / 6, y) for step in range(7)])
        wait_for_threshold(page, 5)
        assert said(page, "3-0").startswith("Threshold: 5.")
        page.touchscreen.tap(*bars[1])
        wait_for_threshold(page, 2)
        watch.assert_clean("mark control by touch")
    finally:
        context.close()
