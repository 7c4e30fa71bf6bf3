"""Lesson 02 in headless Chromium: controls by keyboard, the highlighted epoch, shared states.

Every test runs on the built course opened from disk (``file://``) and served
under a sub-path (``http``), like the other browser tests.
"""

from __future__ import annotations

import re

import pytest
from lessonpage import LessonPage, Site, by_turns
from playwright.sync_api import BrowserContext, Page

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
    # The last histogram bar is the open-ended one.
    assert f"≥ {number_of(readouts['histogram_upper'])}".replace(",", "") in [
        text.replace(",", "") for text in chart_texts(page, "histogram")
    ]


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
