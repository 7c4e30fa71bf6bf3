"""Lesson 05 in headless Chromium: every control by keyboard, lazy chunks, shared links.

The page is compared with the results of the module's own ``compute()`` and ``summarize()``
as the session's build cached them, and the points the tests visit are computed here afresh
and compared with those.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from lessonpage import (
    PREFIX,
    READY,
    TIMEOUT_MS,
    LessonPage,
    Site,
    Watch,
    built_results,
    by_turns,
    on_one_transport,
    open_page,
)
from playwright.sync_api import Browser, BrowserContext, Page

from privacy_explorer.build import BuildReport
from privacy_explorer.compute.lessons import synthetic_audit as sa
from privacy_explorer.compute.lessons import synthetic_audit_charts as charts
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.runner import dumps, json_ready

SLUG = "05-synthetic-data-audit"

STEPS: list[tuple[str, str, int]] = [
    # (parameter, key or "click", the value index it leads to); the page opens at
    # ε = 0.4, ρ = 0.1, k = 5, Silverman's bandwidth (1×) and member A.
    ("bandwidth", "ArrowLeft", 2),
    ("target", "click", 4),
    ("bandwidth", "ArrowLeft", 1),
    ("k", "ArrowRight", 2),
    ("rho", "ArrowLeft", 1),
    ("target", "ArrowLeft", 3),
    ("rho", "Home", 0),
    ("epsilon", "ArrowLeft", 1),
    ("k", "click", 3),
    ("epsilon", "click", 0),
    ("rho", "End", 6),
    ("bandwidth", "End", 4),
    ("target", "click", 2),
]


class AuditPage(LessonPage):
    """Lesson 05's page, compared with the results the session's build computed and cached.

    The build's workers have just computed the 2,100 grid points; every result is read back
    from that cache (checked as the build checks it), and a sample of the points is computed
    here afresh by :func:`test_points_computed_here_equal_the_build_s`.
    """

    def _compute(self, key: str) -> dict[str, Any]:
        return built_results(self.slug).grid[key]


AUDIT = AuditPage(sa, SLUG)


def chart_texts(page: Page, chart: str) -> list[str]:
    """The texts drawn in a live chart's SVG (labels, axis ticks, titles)."""
    return page.evaluate(
        """name => Array.from(document.querySelectorAll(
             `figure[data-chart='${name}'] .chart-live svg text`)).map(t => t.textContent)""",
        chart,
    )


def is_chunk(url: str) -> bool:
    return re.search(rf"/assets/data/{SLUG}\.\d+\.js$", url) is not None


CANDIDATES = """() => {
  // Where each candidate target is drawn on the screen, from the release view's own scales.
  const view = window.explorerLesson.views.release;
  const svg = document.querySelector("figure[data-chart=release] .chart-live svg");
  const box = svg.getBoundingClientRect();
  const [left, top] = view.origin();
  return Object.fromEntries(view.data("candidates").map(row =>
    [row.c, [box.x + left + view.scale("x")(row.x), box.y + top + view.scale("y")(row.y)]]));
}"""


def candidate_places(page: Page) -> dict[str, tuple[float, float]]:
    """Each candidate's place on the screen, once the release picture is scrolled into view."""
    page.locator("figure[data-chart=release]").scroll_into_view_if_needed()
    places: dict[str, list[float]] = page.evaluate(CANDIDATES)
    assert sorted(places) == sorted(sa.TARGETS)
    return {name: (x, y) for name, (x, y) in places.items()}


def chunks_asked(watch: Watch) -> list[str]:
    return list(dict.fromkeys(url.rsplit("/", 1)[1] for url in watch.requests if is_chunk(url)))


def assert_highlights_follow(page: Page, state: dict[str, int]) -> None:
    """The release picture rings the current target, and the field labels its panels' targets."""
    point = AUDIT.point_of(state)
    shown = page.evaluate(
        """() => { const view = window.explorerLesson.views.release;
             return view.data("candidates").filter(d => d.c === view.signal("target"))
               .map(d => d.c); }"""
    )
    assert shown == [point["target"]]
    member, nonmember = sa.panel_targets(point["target"])
    lang = page.evaluate("document.documentElement.lang")
    names = [charts.TARGET_NAMES[c.name][lang] for c in (member, nonmember)]
    texts = chart_texts(page, "field")
    assert all(name in texts for name in names), (names, texts)


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_every_control_moves_the_charts_readouts_and_highlights(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = AUDIT.open(context, site, lang)
    assert chunks_asked(watch) == [], "the default point's rows travel in the chart specs"
    assert {name for name, _, _ in STEPS} == set(sa.GRID.names), "every control is moved"
    assert_highlights_follow(page, AUDIT.default_state())
    last = AUDIT.drive(page, site, lang, STEPS)
    state = AUDIT.default_state()
    for name, _, index in STEPS:
        state[name] = index
    assert last["key"] == AUDIT.key_of(state)
    assert_highlights_follow(page, state)
    # A click on a candidate in the release picture makes it the target, as its control does,
    # and the keyboard goes on from there through that control.
    target = sa.GRID.param("target")
    page.mouse.click(*candidate_places(page)["e"])
    state["target"] = target.values.index("e")
    AUDIT.wait_for_point(page, state)
    AUDIT.assert_shows(page, state, lang)
    assert_highlights_follow(page, state)
    AUDIT.move(page, "target", "ArrowLeft", target.values.index("d"))
    state["target"] = target.values.index("d")
    AUDIT.wait_for_point(page, state)
    AUDIT.assert_shows(page, state, lang)
    assert chunks_asked(watch), "moving the controls loaded lazy rows"
    assert all(url.startswith(site.base) for url in watch.requests if is_chunk(url))
    watch.assert_clean(f"controls ({lang})")


@pytest.mark.browser
def test_a_shared_hash_opens_that_point(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    page, watch = AUDIT.open(context, site, lang, "epsilon=0.1&rho=0&k=20&bandwidth=0.25&target=e")
    state = {"epsilon": 1, "rho": 0, "k": 3, "bandwidth": 1, "target": 4}
    AUDIT.wait_for_point(page, state)
    shown = AUDIT.assert_shows(page, state, lang)
    assert shown["views"]["release"]["signals"] == {"k": 20, "target": "e"}
    assert shown["views"]["scores"]["signals"] == {"target": "e"}
    assert page.locator("output[data-output=rho]").first.inner_text() == "0"
    assert page.locator("input[data-param=target][value='4']").first.is_checked()
    assert_highlights_follow(page, state)
    watch.assert_clean("hash")


@pytest.mark.browser
@on_one_transport("http")
def test_a_tap_on_a_candidate_makes_it_the_target_in_an_embed_page_on_a_phone(
    browser: Browser, site: Site
):
    lang = LANGUAGES[-1]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = open_page(context, site, f"{PREFIX[lang]}embed/{SLUG}.html")
        page.wait_for_selector(READY, state="attached")
        places = candidate_places(page)
        for name in ("b", "d"):
            page.touchscreen.tap(*places[name])
            state = {**AUDIT.default_state(), "target": sa.TARGETS.index(name)}
            AUDIT.wait_for_point(page, state)
            checked = page.locator("input[data-param=target]:checked").first
            assert checked.get_attribute("value") == str(state["target"])
        assert_highlights_follow(page, state)
        watch.assert_clean("a tap on a candidate")
    finally:
        context.close()


@pytest.mark.browser
@on_one_transport("file")
def test_every_point_of_the_page_data_matches_compute(context: BrowserContext, site: Site):
    for lang in LANGUAGES:
        page, watch = AUDIT.open(context, site, lang)
        points = page.evaluate("slug => window.EXPLORER_DATA[slug].points", SLUG)
        assert len(points) == len(sa.GRID)
        for point in sa.GRID:
            state = {p.name: p.values.index(point[p.name]) for p in sa.GRID.params}
            assert points[AUDIT.key_of(state)]["r"] == AUDIT.python_readouts(state, lang), point
        watch.assert_clean("page data")
        page.close()


@pytest.mark.browser
@on_one_transport("http")
def test_the_whole_lesson_tables_show_the_summary(context: BrowserContext, site: Site):
    lang = LANGUAGES[0]
    page, watch = AUDIT.open(context, site, lang)
    tables = {table.name: table for table in sa.TABLES}
    for name in ("setup", "shortcut", "invariance"):
        shown = page.evaluate(
            """name => Array.from(document.querySelectorAll(`#table-${name} tbody tr`))
                 .map(tr => Array.from(tr.cells).map(cell => cell.textContent))""",
            name,
        )
        expected = [tables[name].cells(row, lang) for row in AUDIT.summary[name]]
        assert shown == expected, name
    watch.assert_clean("tables")


def test_points_computed_here_equal_the_build_s(course_site: tuple[Path, BuildReport]):
    """``compute()`` run in this process gives exactly the result the build's workers computed
    and cached, at every k, bandwidth and target of the default release (ε, ρ): Gen-LRA on the
    release is computed once per (ε, ρ), which is what a point costs."""
    default = AUDIT.default_state()
    same_release = [
        point
        for point in sa.GRID
        if (point["epsilon"], point["rho"])
        == (AUDIT.point_of(default)["epsilon"], AUDIT.point_of(default)["rho"])
    ]
    assert len(same_release) == len(sa.KS) * len(sa.BANDWIDTHS) * len(sa.TARGETS)
    compute: Any = sa.compute  # called with grid points, whose values the grid checks
    for point in same_release:
        key = sa.GRID.key(point)
        fresh = json.loads(dumps(json_ready(compute(**point), key)))
        assert fresh == built_results(SLUG).grid[key], key
