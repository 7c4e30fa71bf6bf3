"""Layout on a phone (390 px) and on a desktop (1280 px), and Korean particles in the browser.

At either width no page scrolls sideways (measured on every page by tests/test_browser_pages.py
with :data:`LAYOUT`) (wide tables scroll inside their own labelled box;
side-by-side chart panels too wide for a phone are stacked, their legends wrapped and their
plots narrowed until they fit), and no chart text is drawn smaller than 11 CSS pixels. A readout's
Korean particle follows its value as the controls move, on the same line as the value.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lessonpage import READY, TIMEOUT_MS, Site, open_page, settle
from playwright.sync_api import Browser, BrowserContext
from test_korean import READINGS

from privacy_explorer.build import BuildReport
from privacy_explorer.charts import MIN_FONT_SIZE
from privacy_explorer.fonts import TEXT_FAMILY
from privacy_explorer.korean import (
    GREEK_READINGS,
    LETTER_READINGS,
    SIGN_READINGS,
    UNIT_READINGS,
    final_sound,
    particle,
)

WIDTHS = (390, 1280)

LAYOUT = """() => {
  const root = document.documentElement;
  const charts = Array.from(document.querySelectorAll(".chart-live svg")).map(svg => {
    const drawn = svg.getBoundingClientRect().width;
    const scale = drawn / svg.width.baseVal.value;
    const sizes = Array.from(svg.querySelectorAll("text"))
      .filter(text => text.textContent.trim() && text.getClientRects().length)
      .map(text => parseFloat(getComputedStyle(text).fontSize) * scale);
    return {
      chart: svg.closest("[data-chart]").dataset.chart,
      smallest: Math.min(...sizes),
      texts: sizes.length,
      drawn,
      box: svg.closest("[data-chart-view]").clientWidth,
      // Side-by-side panels keep their width and scroll in their own (labelled) box.
      fixed: svg.closest("[data-chart-view]").classList.contains("is-fixed"),
      scrolls: svg.closest("[data-chart-view]").scrollWidth
        > svg.closest("[data-chart-view]").clientWidth,
      refitted: svg.closest("[data-chart-view]").classList.contains("is-refitted"),
    };
  });
  const boxes = Array.from(document.querySelectorAll(".data-table, .table-scroll")).map(box => ({
    label: box.getAttribute("aria-label"),
    role: box.getAttribute("role"),
    focusable: box.tabIndex === 0,
    scrolls: box.scrollWidth > box.clientWidth,
  }));
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, charts, boxes};
}"""


@pytest.fixture
def phone_site(course_site: tuple[Path, BuildReport]) -> Site:
    """The course opened from disk (layout does not depend on how the page is served)."""
    folder = course_site[0]
    return Site(base=folder.as_uri() + "/", folder=folder)


@pytest.mark.browser
@pytest.mark.parametrize(
    "path", ["05-synthetic-data-audit.html", "en/05-synthetic-data-audit.html"]
)
def test_side_by_side_panels_of_lesson_05_reflow_on_a_phone(
    browser: Browser, phone_site: Site, path: str
):
    context = browser.new_context(viewport={"width": 390, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = open_page(context, phone_site, path)
        page.wait_for_selector(READY, state="attached")
        settle(page)
        charts = page.evaluate(LAYOUT)["charts"]
        for chart in charts:
            assert not chart["scrolls"] and chart["drawn"] <= chart["box"], (
                f"{path}: chart {chart['chart']} needs sideways scrolling in its box at 390 px "
                f"({chart['drawn']:.0f} px in {chart['box']} px)"
            )
            assert chart["smallest"] >= MIN_FONT_SIZE - 0.01, chart
        # The panels that stand side by side on a wide screen were laid out again to fit.
        assert [chart["refitted"] for chart in charts if chart["chart"] == "field"] == [True]
        # The controls still drive the refitted charts (their views were kept).
        before = page.evaluate("Object.keys(window.explorerLesson.views).length")
        assert before == len(charts)
        page.locator("[data-param='rho']").first.evaluate(
            "i => { i.value = '0'; i.dispatchEvent(new Event('input', {bubbles: true})); }"
        )
        page.wait_for_function(
            "() => document.querySelector('[data-lesson]').dataset.point.split('-')[1] === '0'"
        )
        assert not any(chart["scrolls"] for chart in page.evaluate(LAYOUT)["charts"])
        watch.assert_clean(path)
    finally:
        context.close()


@pytest.mark.browser
def test_a_wide_table_scrolls_in_its_box_on_a_phone(browser: Browser, phone_site: Site):
    context = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        # Lesson 01's table of the canary's digits is wider than a phone.
        page, _ = open_page(context, phone_site, "01-memorization.html")
        page.wait_for_selector(READY, state="attached")
        boxes = page.evaluate(LAYOUT)["boxes"]
        assert any(box["scrolls"] for box in boxes), "no table is wider than a phone: test nothing"
    finally:
        context.close()


EDGES = """(box) => {
  // The formula's own ink hidden, so only the box's background is drawn at its edges.
  box.querySelectorAll("math").forEach(m => { m.style.color = "transparent"; });
  const r = box.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height,
          scrolls: box.scrollWidth > box.clientWidth + 1};
}"""


def png_gray(data: bytes) -> np.ndarray:
    """A screenshot (8-bit RGB or RGBA PNG, as Chromium writes them) as gray levels 0-255."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + data[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
    channels = 3 if color == 2 else 4
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), dtype=np.uint8).reshape(height, -1)
    pixels = np.zeros((height, stride), dtype=np.int32)
    for row in range(height):
        kind, line = raw[row, 0], raw[row, 1:].astype(np.int32)
        above = pixels[row - 1] if row else np.zeros(stride, dtype=np.int32)
        if kind in (0, 2):
            pixels[row] = (line + (above if kind == 2 else 0)) % 256
        else:  # Sub, Average, Paeth: each byte depends on the one to its left
            out = np.zeros(stride, dtype=np.int32)
            for i in range(stride):
                left = out[i - channels] if i >= channels else 0
                up_left = above[i - channels] if i >= channels else 0
                if kind == 1:
                    guess = left
                elif kind == 3:
                    guess = (left + above[i]) // 2
                else:
                    base = left + above[i] - up_left
                    options = (abs(base - left), abs(base - above[i]), abs(base - up_left))
                    guess = (left, above[i], up_left)[options.index(min(options))]
                out[i] = (line[i] + guess) % 256
            pixels[row] = out
    rgb = pixels.reshape(height, width, channels)[:, :, :3]
    return rgb.mean(axis=2)


def edge_darkness(box: Any) -> tuple[float, float, bool]:
    """How much darker than white the left and right 4 px of ``box`` are (0-255), with the
    formula's own ink hidden, and whether the box scrolls."""
    place = box.evaluate(EDGES)
    gray = png_gray(box.screenshot(animations="disabled"))
    return 255 - gray[:, :4].mean(), 255 - gray[:, -4:].mean(), place["scrolls"]


@pytest.mark.browser
def test_a_formula_wider_than_a_phone_shows_the_side_it_goes_on_past(
    browser: Browser, phone_site: Site
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page, watch = open_page(context, phone_site, "03-differential-privacy.html")
        page.wait_for_selector(READY, state="attached")
        settle(page)
        boxes = page.locator(".math-display")
        widths = boxes.evaluate_all("bs => bs.map(b => b.scrollWidth > b.clientWidth + 1)")
        wide = boxes.nth(widths.index(True))
        narrow = boxes.nth(widths.index(False))
        assert wide.get_attribute("tabindex") == "0"  # reachable to scroll by keyboard
        wide.scroll_into_view_if_needed()
        left, right, scrolls = edge_darkness(wide)
        assert scrolls and right > 8 and left < 1, (left, right)
        wide.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        left, right, _ = edge_darkness(wide)
        assert left > 8 and right < 1, (left, right)
        narrow.scroll_into_view_if_needed()
        left, right, scrolls = edge_darkness(narrow)
        assert not scrolls and left < 1 and right < 1, (left, right)
        # D′ reads as D-prime: the prime is drawn at its letter's size, not shrunk to a speck.
        sizes = page.evaluate(
            """() => Array.from(document.querySelectorAll("math mi, math mo"))
              .filter(e => e.textContent === "\u2032" && e.getClientRects().length)
              .map(e => {
                // Its letter: the one before it, or the base of the superscript it sits in.
                const script = e.closest("msup, msubsup");
                const letter = e.previousElementSibling || (script && script.firstElementChild);
                return [getComputedStyle(e).fontSize, getComputedStyle(letter).fontSize];
              })"""
        )
        assert sizes and all(prime == letter for prime, letter in sizes), sizes
        watch.assert_clean("formulas on a phone")
    finally:
        context.close()


@pytest.mark.browser
def test_the_runtime_reads_values_as_the_build_does(context: BrowserContext, phone_site: Site):
    page, _ = open_page(context, phone_site, "03-differential-privacy.html")
    page.wait_for_selector(READY, state="attached")
    values = [row[0] for row in READINGS] + ["greedy", "", "↵↵", "1,234,560", "0.125"]
    # Every reading the build knows, alone, after a letter and after a digit: a table entry
    # the runtime lacks, or reads differently, shows here.
    tables = (LETTER_READINGS, GREEK_READINGS, SIGN_READINGS, UNIT_READINGS)
    values += [
        f"{before}{name}" for table in tables for name in table for before in ("", "k", "2 ")
    ]
    in_browser = page.evaluate("values => values.map(v => window.explorerFinalSound(v))", values)
    for value, sound in zip(values, in_browser, strict=True):
        try:
            expected = final_sound(value)
        except ValueError:
            expected = None
        assert sound == expected, f"{value!r}: runtime {sound!r}, build {expected!r}"


PARTICLE = """() => Array.from(document.querySelectorAll(".readout-join")).map(join => ({
  readout: join.querySelector("[data-readout]").dataset.readout,
  value: join.querySelector("[data-readout]").textContent,
  particle: join.querySelector("[data-particle]").textContent,
  written: join.querySelector("[data-particle]").dataset.afterConsonant,
  lines: new Set(Array.from(join.getClientRects()).map(r => Math.round(r.top))).size,
  nowrap: getComputedStyle(join).whiteSpace,
}))"""


@pytest.mark.browser
def test_a_readouts_particle_follows_its_value_and_never_wraps_away(
    browser: Browser, phone_site: Site
):
    context = browser.new_context(viewport={"width": 390, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = open_page(context, phone_site, "03-differential-privacy.html")
        page.wait_for_selector(READY, state="attached")
        seen: dict[str, set[str]] = {}
        # Total budget kε: 1 × 1 = "1" (일 → 이다) ... 4 × 0.5 = "2" (이 → 다).
        for epsilon in range(page.locator("#control-epsilon").evaluate("i => +i.max") + 1):
            page.locator("#control-epsilon").fill(str(epsilon))
            page.wait_for_function(
                "k => document.querySelector('[data-lesson]').dataset.point.split('-')[1] == k",
                arg=str(epsilon),
            )
            joins = page.evaluate(PARTICLE)
            # Those in an unanswered question's explanation are hidden (no line at all).
            assert any(join["lines"] == 1 for join in joins)
            for join in joins:
                assert join["nowrap"] == "nowrap" and join["lines"] <= 1, join
                assert join["particle"] == particle(join["written"]).after(join["value"]), join
                seen.setdefault(join["readout"], set()).add(join["particle"])
        assert len(seen["epsilon_total"]) == 2, seen  # both forms of 이다/다 were shown
        watch.assert_clean("particles")
    finally:
        context.close()


@pytest.mark.browser
def test_korean_text_is_set_in_the_shipped_face_with_a_real_bold(
    context: BrowserContext, phone_site: Site
):
    page, _ = open_page(context, phone_site, "03-differential-privacy.html")
    page.wait_for_selector(READY, state="attached")
    settle(page)
    family = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert family.split(",")[0].strip("\"' ") == TEXT_FAMILY
    faces = page.evaluate(
        """family => Array.from(document.fonts)
          .filter(face => face.family.replace(/"/g, "") === family && face.status === "loaded")
          .map(face => face.weight)""",
        TEXT_FAMILY,
    )
    assert {"400", "700"} <= set(faces), faces  # bold is drawn from its own face, not faked
