"""Lesson 01 in headless Chromium: controls, hash state and the ringed point, in both languages.

Every test runs on the built course opened from disk (``file://``) and served under a
sub-path (``http://``), see the ``site`` fixture.
"""

from __future__ import annotations

from typing import Any

import pytest
from lessonpage import READY, LessonPage, Site, by_turns, open_page
from playwright.sync_api import BrowserContext, Page

from privacy_explorer.compute.lessons import memorization as mem
from privacy_explorer.compute.lessons.style import VERMILLION
from privacy_explorer.lesson import LANGUAGES

SLUG = "01-memorization"
RING_COLOUR = VERMILLION.lower()


LESSON = LessonPage(mem, SLUG)

STEPS: list[tuple[str, str, int]] = [
    # (parameter, key or "click", the value index it leads to); the page opens at n=3, r=5.
    ("n", "ArrowRight", 3),
    ("n", "End", 7),
    ("repeats", "ArrowRight", 3),
    ("n", "Home", 0),
    ("repeats", "click", 0),
    ("n", "ArrowRight", 1),
    ("repeats", "ArrowRight", 1),
]

RING_POSITION = r"""colour => {
  const view = window.explorerLesson.views.exposure;
  const n = view.signal("n"), repeats = view.signal("repeats");
  const row = view.data("exposure_grid").find(r => r.n === n && r.repeats === repeats);
  const svg = document.querySelector("figure[data-chart=exposure] .chart-live svg");
  const rings = Array.from(svg.querySelectorAll("path[role=graphics-symbol]"))
    .filter(p => (p.getAttribute("stroke") || "").toLowerCase() === colour);
  const at = rings.map(p => p.getAttribute("transform").match(/translate\(([^,]+),([^)]+)\)/))
    .map(m => [Number(m[1]), Number(m[2])]);
  const expected = row ? [view.scale("x")(row.n), view.scale("y")(row.exposure)] : null;
  return {n, repeats, expected, rings: at};
}"""
"""The ringed point of the exposure chart, and where the current grid point is drawn."""


def assert_ring_on_current_point(page: Page, point: dict[str, Any]) -> None:
    """Exactly one orange ring, drawn where the current (n, r) sits on the exposure chart."""
    ring = page.evaluate(RING_POSITION, RING_COLOUR)
    assert (ring["n"], ring["repeats"]) == (point["n"], point["repeats"])
    assert ring["expected"] is not None, ring
    assert len(ring["rings"]) == 1, ring
    (x, y), (want_x, want_y) = ring["rings"][0], ring["expected"]
    assert abs(x - want_x) < 0.5 and abs(y - want_y) < 0.5, ring


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_keyboard_controls_move_readouts_charts_and_hash(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = LESSON.open(context, site, lang)
    assert {name for name, _, _ in STEPS} == set(mem.GRID.names), "every control is moved"
    assert page.evaluate("window.location.hash") == ""
    assert_ring_on_current_point(page, mem.GRID.default)
    last = LESSON.drive(page, site, lang, STEPS)
    state = {name: index for name, _, index in STEPS}
    assert last["hash"] == "#" + "&".join(
        f"{p.name}={p.value_texts[state[p.name]]}" for p in mem.GRID.params
    )
    assert_ring_on_current_point(page, LESSON.point_of(state))
    watch.assert_clean(f"controls ({lang})")


# (n, repeats) -> what the learner should see there: the lesson's key contrasts.
VISITS: list[tuple[int, int]] = [(1, 20), (2, 5), (8, 0), (8, 20), (4, 1)]


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_hash_opens_each_point_and_the_ring_follows(
    context: BrowserContext, site: Site, lang: str
):
    n, repeats = VISITS[0]
    page, watch = LESSON.open(context, site, lang, f"n={n}&repeats={repeats}")
    for n, repeats in VISITS:
        page.evaluate("hash => { location.hash = hash; }", f"n={n}&repeats={repeats}")
        state = {"n": mem.CONTEXT_LENGTHS.index(n), "repeats": mem.REPEATS.index(repeats)}
        LESSON.wait_for_point(page, state)
        shown = LESSON.assert_shows(page, state, lang)
        assert_ring_on_current_point(page, {"n": n, "repeats": repeats})
        readouts = dict(shown["readouts"])
        slider = page.locator("output[data-output=n]").first.inner_text()
        assert slider == str(n)
        checked = page.locator("input[data-param=repeats]:checked").first.get_attribute("value")
        assert checked == str(state["repeats"])
        # The contrasts the hands-on section talks about, as the learner reads them.
        continuation = readouts["continuation"]
        if (n, repeats) == (1, 20):
            assert readouts["rank"] == "1" and not any(c.isdigit() for c in continuation)
        if (n, repeats) == (8, 0):
            assert continuation == "↵↵↵↵" and readouts["rank"] == "1,000"
        if (n, repeats) == (8, 20):
            assert continuation == mem.SECRET_CODE
    watch.assert_clean(f"hash ({lang})")


@pytest.mark.browser
def test_language_switch_keeps_the_lesson(context: BrowserContext, site: Site):
    first, second = LANGUAGES
    page, watch = open_page(context, site, LESSON.path(first))
    for lang in (second, first):
        page.locator("[data-lang-switch]").click()
        page.wait_for_url(site.url(LESSON.path(lang)))
        page.wait_for_selector(READY, state="attached")
        assert page.evaluate("document.documentElement.lang") == lang
        LESSON.assert_shows(page, LESSON.default_state(), lang)
    watch.assert_clean("language switch")
