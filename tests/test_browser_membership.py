"""Lesson 02 in headless Chromium: controls by keyboard, the highlighted epoch, shared states,
and the threshold dragged across the linked figure by mouse and by touch.

Tests of what a loaded page does run each language once, over ``file://`` or ``http`` by turns
(``lessonpage.by_turns``), like the other browser tests.
"""

from __future__ import annotations

import re

import pytest
from lessonpage import (
    CHART_TEXT_CLASHES,
    TIMEOUT_MS,
    LessonPage,
    Site,
    by_turns,
    on_one_transport,
    touch_drag,
)
from playwright.sync_api import Browser, BrowserContext, Page
from test_browser_accessibility import PHONE, WIDE

from privacy_explorer.compute.lessons import membership as mi
from privacy_explorer.lesson import LANGUAGES

SLUG = "02-membership-inference"
MI = LessonPage(mi, SLUG)

STEPS: list[tuple[str, str, int]] = [
    # (parameter, key or "click", the value index it leads to); the page opens at 200 epochs.
    ("epochs", "ArrowRight", 8),
    ("epochs", "End", 10),
    ("seed", "ArrowRight", 1),
    ("epochs", "Home", 0),
    ("epochs", "ArrowRight", 1),
    ("seed", "click", 2),
    ("epochs", "ArrowLeft", 0),
    # The threshold opens at 30 MPa² (index 5) and the compared ε at 1 (index 2).
    ("threshold", "ArrowLeft", 4),
    ("dp_epsilon", "click", 0),
    ("threshold", "End", 8),
    ("dp_epsilon", "ArrowRight", 1),
]


def chart_texts(page: Page, chart: str) -> list[str]:
    """The texts drawn in a live chart's SVG (labels, axis ticks, titles)."""
    return page.evaluate(
        """name => Array.from(document.querySelectorAll(
             `figure[data-chart='${name}'] .chart-live svg text`)).map(t => t.textContent)""",
        chart,
    )


def number_of(readout_text: str) -> str:
    """The number of a readout text, without its unit ("7.18 MPa" -> "7.18")."""
    match = re.match(r"[−\d.,]+", readout_text)
    assert match, readout_text
    return match.group(0)


def assert_highlight_follows(page: Page, state: dict[str, int], lang: str) -> None:
    """The AUC and RMSE charts label the current epochs' values, as the readouts give them."""
    readouts = MI.python_readouts(state, lang)
    assert number_of(readouts["auc"]) in chart_texts(page, "auc")
    rmse_labels = chart_texts(page, "rmse")
    assert number_of(readouts["member_rmse"]) in rmse_labels
    assert number_of(readouts["nonmember_rmse"]) in rmse_labels


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_controls_move_every_chart_and_the_highlighted_epoch(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = MI.open(context, site, lang)
    assert {name for name, _, _ in STEPS} == set(mi.GRID.names), "every control is moved"
    state = MI.default_state()
    assert_highlight_follows(page, state, lang)
    for name, key, index in STEPS:
        MI.move(page, name, key, index)
        state = {**state, name: index}
        MI.wait_for_point(page, state)
        shown = MI.assert_shows(page, state, lang)
        epochs = mi.GRID.param("epochs").values[state["epochs"]]
        for chart in ("rmse", "auc"):
            assert shown["views"][chart]["signals"] == {"epochs": epochs}
        assert_highlight_follows(page, state, lang)
    watch.assert_clean("controls")


@pytest.mark.browser
@on_one_transport("file")
def test_drive_redraws_exactly_the_charts_that_change(context: BrowserContext, site: Site):
    lang = LANGUAGES[0]
    page, watch = MI.open(context, site, lang)
    last = MI.drive(page, site, lang, STEPS)
    assert last["views"]["auc"]["signals"] == {"epochs": mi.EPOCHS[0]}
    watch.assert_clean("drive")


@pytest.mark.browser
def test_a_shared_hash_opens_that_point(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    # A shared link names every control (a partial hash stays as given in the address bar).
    page, watch = MI.open(context, site, lang, "epochs=2000&seed=2&threshold=30&dp_epsilon=1")
    state = {
        "epochs": mi.EPOCHS.index(2000),
        "seed": mi.SEEDS.index(2),
        "threshold": mi.THRESHOLDS.index(30.0),
        "dp_epsilon": mi.DP_EPSILONS.index(1.0),
    }
    MI.wait_for_point(page, state)
    MI.assert_shows(page, state, lang)
    assert_highlight_follows(page, state, lang)
    assert page.locator("output[data-output=epochs]").first.inner_text() == "2000"
    assert page.locator("input[data-param=seed][value='1']").first.is_checked()
    watch.assert_clean("hash")


@pytest.mark.browser
@on_one_transport("http")
def test_every_point_of_the_page_data_matches_compute(context: BrowserContext, site: Site):
    for lang in LANGUAGES:
        page, watch = MI.open(context, site, lang)
        points = page.evaluate("slug => window.EXPLORER_DATA[slug].points", SLUG)
        assert len(points) == len(mi.GRID)
        for point in mi.GRID:
            state = {p.name: p.values.index(point[p.name]) for p in mi.GRID.params}
            shown = points[MI.key_of(state)]["r"]
            assert shown == MI.python_readouts(state, lang), (lang, point)
        watch.assert_clean("page data")
        page.close()


# --- The threshold, dragged across the linked figure (issue 22 section 3) ---------------------

DRAWN = """([chart, prefix]) => {
  // The rows a chart's named layer draws, read from Vega's scenegraph.
  const rows = [];
  (function visit(node) {
    if (node.marktype && (node.name || "").startsWith(prefix)) {
      node.items.forEach(item => rows.push(item.datum));
    } else {
      (node.items || []).forEach(visit);
    }
  })(window.explorerLesson.views[chart].scenegraph().root);
  return JSON.parse(JSON.stringify(rows));
}"""

STOPS = """prefix => Array.from(document.querySelectorAll(
  `figure[data-chart=attack] .chart-live g[class*='${prefix}'][class*='_marks'] path`))
  .map(stop => {
  const box = stop.getBoundingClientRect();
  return [box.x + box.width / 2, box.y + box.height / 2];
})"""
"""Where on the screen each stop of t is drawn (the histogram's ticks, the curve's circles)."""


def stops(page: Page, layer: str) -> list[tuple[float, float]]:
    page.locator("figure[data-chart=attack]").scroll_into_view_if_needed()
    found = [(x, y) for x, y in page.evaluate(STOPS, layer)]
    assert len(found) == len(mi.THRESHOLDS), layer
    return found


INSIDE = 60
"""How far (CSS px) below its stops a drag presses into the histogram: among the bars, not on a
stop, so that the nearest stop is picked."""


def assert_threshold_shown(page: Page, state: dict[str, int], lang: str) -> None:
    """Every part of the page shows t at ``state``: the page, the slider, the hash, the cut on
    the histogram and the diamond on the ROC curve at t's counted rates."""
    MI.wait_for_point(page, state)
    shown = MI.assert_shows(page, state, lang)
    threshold = mi.THRESHOLDS[state["threshold"]]
    assert shown["views"]["attack"]["signals"] == {"threshold": threshold}
    (cut,) = page.evaluate(DRAWN, ["attack", "threshold_cut"])
    assert cut["threshold"] == threshold
    (point,) = page.evaluate(DRAWN, ["attack", "threshold_point"])
    readouts = MI.python_result(state)["readouts"]
    assert point["fpr"] == pytest.approx(readouts["threshold_fpr"], abs=1e-6)
    assert point["tpr"] == pytest.approx(readouts["threshold_tpr"], abs=1e-6)


def said(page: Page, state: dict[str, int]) -> str:
    """What the page's polite region says once it describes ``state``."""
    page.wait_for_function(
        "key => document.querySelector('[data-announcer]').dataset.point === key",
        arg=MI.key_of(state),
        timeout=TIMEOUT_MS,
    )
    text: str = page.evaluate("document.querySelector('[data-announcer]').textContent")
    return text


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_dragging_across_the_histogram_moves_the_cut_and_the_roc_point_together(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = MI.open(context, site, lang)
    state = MI.default_state()
    label = mi.GRID.param("threshold").label[lang]
    ticks = stops(page, "loss_stops")
    middle = ticks[0][1] + INSIDE
    # Pressed in the plot (not on a tick) above the second stop, then dragged to the eighth:
    # t follows the pointer from stop to stop, the ROC point with it.
    page.mouse.move(ticks[1][0], middle)
    page.mouse.down()
    state = {**state, "threshold": 1}
    assert_threshold_shown(page, state, lang)
    page.mouse.move(ticks[7][0], middle, steps=8)
    state = {**state, "threshold": 7}
    assert_threshold_shown(page, state, lang)
    page.mouse.up()
    # Said once the drag settles, as for the slider: the control and its new value.
    assert said(page, state).startswith(f"{label}: 300.")
    # The slider takes over from where the drag left t.
    MI.move(page, "threshold", "ArrowLeft", 6)
    state = {**state, "threshold": 6}
    assert_threshold_shown(page, state, lang)
    # A click on a point of the curve picks its t.
    circles = stops(page, "roc_stops")
    page.mouse.click(*circles[2])
    state = {**state, "threshold": 2}
    assert_threshold_shown(page, state, lang)
    watch.assert_clean("threshold dragged by mouse")


STATES = (
    "",
    "epochs=1&seed=1&threshold=0.1&dp_epsilon=0.1",
    "epochs=2000&seed=3&threshold=0.1&dp_epsilon=2",
    "epochs=2000&seed=2&threshold=1000&dp_epsilon=0.5",
    "epochs=20&seed=2&threshold=3&dp_epsilon=1",
)
"""Settings whose labels sit at the figure's edges and corners: t at each end, the ROC point
by the axes, a curve near the diagonal and one far from it, every ε."""


def assert_chart_text_reads(page: Page, where: str) -> None:
    """No chart text is cut by its box or overprints another, in each of :data:`STATES`."""
    for hash_ in STATES:
        if hash_:
            page.evaluate("hash => { location.hash = hash; }", hash_)
            values = dict(pair.split("=") for pair in hash_.split("&"))
            state = {p.name: p.value_texts.index(values[p.name]) for p in mi.GRID.params}
            MI.wait_for_point(page, state)
        for chart in page.evaluate(CHART_TEXT_CLASHES):
            assert not chart["cut"], f"{where} #{hash_}: {chart['chart']}: cut {chart['cut']}"
            assert not chart["overprinted"], (
                f"{where} #{hash_}: {chart['chart']}: overprinted {chart['overprinted']}"
            )


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_a_finger_drags_the_threshold_on_a_phone_and_no_chart_text_is_cut(
    browser: Browser, site: Site, lang: str
):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = MI.open(context, site, lang)
        view = page.locator("figure[data-chart=attack] .chart-live svg")
        assert view.evaluate("svg => getComputedStyle(svg).touchAction") == "pan-y pinch-zoom"
        ticks = stops(page, "loss_stops")
        middle = ticks[0][1] + INSIDE
        # A sideways drag from the third stop to the seventh, past the ones between.
        (start, _), (end, _) = ticks[2], ticks[6]
        touch_drag(page, [(start + (end - start) * step / 8, middle) for step in range(9)])
        state = {**MI.default_state(), "threshold": 6}
        assert_threshold_shown(page, state, lang)
        # A tap on a point of the curve picks its t.
        page.touchscreen.tap(*stops(page, "roc_stops")[8])
        state = {**state, "threshold": 8}
        assert_threshold_shown(page, state, lang)
        assert_chart_text_reads(page, f"{lang} at {PHONE['width']} px")
        watch.assert_clean("threshold dragged by touch")
    finally:
        context.close()


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_no_chart_text_is_cut_or_overprinted_on_a_wide_screen(
    browser: Browser, site: Site, lang: str
):
    context = browser.new_context(viewport=WIDE)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = MI.open(context, site, lang)
        # Side by side on a wide screen: the histogram and the curve share one view.
        assert page.evaluate(
            "() => !document.querySelector('figure[data-chart=attack] [data-chart-view]')"
            ".classList.contains('is-refitted')"
        )
        assert_chart_text_reads(page, f"{lang} at {WIDE['width']} px")
        watch.assert_clean("wide screen")
    finally:
        context.close()
