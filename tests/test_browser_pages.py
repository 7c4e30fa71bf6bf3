"""Every page of the course, checked in one load per page and transport.

Each page is opened once over ``file://`` and once over HTTP in a 1280 × 800 window, and every
check that reads a page as it opens runs on that one load: no console error, no failed or
outside request, a declared icon, one live chart per figure labelled like its static picture,
zero axe-core violations (targets of 24 px included), controls enabled by the runtime, live
readouts marked as such, the page fitting the window with chart text at least 11 px, and the
sticky control bars beside the charts they drive. A second pass opens each page on a 390 px
phone (from disk: layout does not depend on how a page is served): no chart text cut or
overprinted, every target at least 44 px, each control within a screen of the charts it moves.
Checks that need a page in another state (no JavaScript, a hostile hash, a control moved) live
beside the feature they test.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from lessonpage import PREFIX, READY, Site, Watch, open_page, settle
from phone_measures import (
    CHART_TEXTS,
    CUT_TOLERANCE_PX,
    OVERPRINT_SHARE,
    PAGE_FILL,
    PRINT_BREAKS,
    TARGETS,
    THUMB_PX,
)
from playwright.sync_api import Browser, Page
from test_browser_accessibility import PAGE_DATA, PHONE, STICKY_STATE, WIDE, axe_violations
from test_browser_instances import check_groups_unpin
from test_browser_phone import LAYOUT

from privacy_explorer import fonts, page_fonts
from privacy_explorer.build import BuildReport
from privacy_explorer.charts import MIN_FONT_SIZE
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import builtin_templates_dir

REPO = Path(__file__).resolve().parent.parent
SLUGS = sorted(path.stem for path in (REPO / "content" / LANGUAGES[0]).glob("[0-9][0-9]-*.md"))
LESSONS = [f"{PREFIX[lang]}{slug}.html" for slug in SLUGS for lang in LANGUAGES]
EMBEDS = [f"{PREFIX[lang]}embed/{slug}.html" for slug in SLUGS for lang in LANGUAGES]
PAGES = sorted(
    ["404.html", *(f"{PREFIX[lang]}index.html" for lang in LANGUAGES), *LESSONS, *EMBEDS]
)
"""Every page of the site, known before the build from the lessons in ``content/``."""

FIGURES = """() => Array.from(document.querySelectorAll("figure[data-chart]")).map(f => {
  // The static picture stays in its <noscript>, never fetched by a live page.
  const template = document.createElement("template");
  template.innerHTML = f.querySelector("noscript").textContent;
  const image = template.content.querySelector("img.chart-fallback");
  const svg = f.querySelector(".chart-live svg");
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  return {
    name: f.dataset.chart,
    live: f.querySelectorAll(".chart-live svg").length,
    marks: svg ? svg.querySelectorAll(".role-mark").length : 0,
    width: box.width, height: box.height,
    pictures: f.querySelectorAll("img").length,
    role: f.querySelector(".chart-live")?.getAttribute("role") ?? null,
    label: f.querySelector(".chart-live")?.getAttribute("aria-label") ?? null,
    alt: image.alt,
  };
})"""

LIVE_LOOK = """() => {
  // How the style sheet draws a readout that follows the controls, on this page.
  const probe = document.createElement("span");
  probe.dataset.readout = "probe";
  probe.className = "readout is-live";
  document.querySelector("article[data-lesson]").appendChild(probe);
  const look = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return look;
}"""


def slug_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".html")


def test_the_passes_cover_every_page_of_the_site(course_site: tuple[Path, BuildReport]):
    folder, report = course_site
    built = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))
    assert built == PAGES
    assert report.lessons == SLUGS


def check_loads_cleanly(page: Page, site: Site, path: str) -> None:
    """A declared icon, and on lesson and embed pages one live, labelled chart per figure."""
    # Without a declared icon, browsers fetch /favicon.ico from the server root: outside.
    icon = page.evaluate("document.querySelector('link[rel~=icon]')?.href ?? null")
    assert icon is not None and icon.startswith((site.base, "data:")), f"{path}: icon {icon}"
    if path not in LESSONS and path not in EMBEDS:
        return
    figures = page.evaluate(FIGURES)
    charts = page.evaluate(
        "slug => Object.keys(window.EXPLORER_DATA[slug].charts).sort()", slug_of(path)
    )
    assert sorted(f["name"] for f in figures) == charts, path
    for figure in figures:
        assert figure["live"] == 1, f"{path}: no live Vega SVG in {figure}"
        assert figure["marks"] > 0 and figure["width"] > 0 and figure["height"] > 0, figure
        assert figure["pictures"] == 0, f"{path}: a static picture beside {figure}"
        # vega-embed labels the live chart with the spec's description: the fallback's text.
        assert figure["role"] == "graphics-document", figure
        assert figure["label"] == figure["alt"] != "", figure


def check_controls_come_alive(page: Page, path: str) -> None:
    """The runtime enables every control, hides the no-JavaScript note, and marks live readouts.

    A readout is marked live exactly when its text differs between grid points, and live
    readouts look different from every fixed one.
    """
    assert (
        page.locator(".noscript-note").count() == 0
        or not page.locator(".noscript-note").is_visible()
    ), path
    states = page.evaluate(
        """() => Array.from(document.querySelectorAll("[data-param]"))
          .map(i => [i.disabled, getComputedStyle(i).opacity])"""
    )
    assert states and all(not disabled and opacity == "1" for disabled, opacity in states), path
    data = page.evaluate(PAGE_DATA, slug_of(path))
    live_look = page.evaluate(LIVE_LOOK)
    for name, live, background, texts in data["live"]:
        assert live == (texts > 1), f"{path}: readout {name} ({texts} texts)"
        assert (background == live_look) == live, f"{path}: readout {name} looks {background}"
    if slug_of(path) == "03-differential-privacy":
        assert any(live for _, live, _, _ in data["live"]), f"{path}: no live readout"


def check_layout(page: Page, where: str) -> int:
    """No sideways page scroll, every chart fits its box with text ≥ 11 px; returns the charts."""
    layout = page.evaluate(LAYOUT)
    assert layout["scrollWidth"] <= layout["clientWidth"], (
        f"{where}: the page scrolls sideways ({layout['scrollWidth']} > {layout['clientWidth']} px)"
    )
    for chart in layout["charts"]:
        assert chart["texts"] > 0, f"{where}: chart {chart['chart']} shows no text"
        assert chart["drawn"] > 0 and (chart["fixed"] or chart["drawn"] <= chart["box"]), (
            f"{where}: chart {chart['chart']} is {chart['drawn']} px wide in a "
            f"{chart['box']} px box"
        )
        assert chart["smallest"] >= MIN_FONT_SIZE - 0.01, (
            f"{where}: chart {chart['chart']} draws text at {chart['smallest']:.1f} px"
        )
    for box in layout["boxes"]:
        assert box["role"] == "region" and box["label"] and box["focusable"], (
            f"{where}: a table box is not a labelled, focusable region: {box}"
        )
    return len(layout["charts"])


def check_sticky_controls(page: Page, path: str) -> None:
    """On a wide screen each control bar stays in the window above the charts it drives."""
    scopes = page.evaluate(STICKY_STATE)
    assert scopes, f"{path}: no controls"
    for scope in scopes:
        for target in scope:
            # Pinned only when the bar takes at most a quarter of the window (issue 22).
            quarter = (target["barBottom"] - target["barTop"]) * 4 <= WIDE["height"]
            assert (target["position"] == "sticky") == quarter, f"{path}: {target}"
            if not quarter:
                continue
            # The whole bar is in the window (stuck at its top once scrolled past), and the
            # chart or table it drives right below it, not under it.
            assert target["barTop"] >= 0 and target["barBottom"] <= WIDE["height"], (
                f"{path}: {target}"
            )
            assert target["top"] >= target["barBottom"] - 1, f"{path}: {target}"
            assert target["top"] < WIDE["height"], f"{path}: {target}"
    # Still driven by the keyboard while it sticks.
    slider = page.locator("input[type=range][data-param]").first
    if slider.count():
        key = page.evaluate("window.explorerLesson.key()")
        slider.focus()
        page.keyboard.press("End" if slider.input_value() == "0" else "Home")
        page.wait_for_function(
            "key => document.querySelector('article').dataset.point !== key", arg=key
        )
        bar_top = slider.evaluate("s => s.closest('form').getBoundingClientRect().top")
        assert 0 <= bar_top < WIDE["height"], f"{path}: the bar left the window"


def _cmap(name: str) -> frozenset[int]:
    with TTFont(FONTS / name, lazy=True) as font:
        return frozenset(font.getBestCmap())


FONTS = builtin_templates_dir() / "static" / "fonts"
SHIPPED_FACES = {
    "Noto Sans Math": _cmap(fonts.MATH_FACE),
    fonts.TEXT_FAMILY: _cmap(fonts.TEXT_FACES[0]),
}
"""The faces the site ships, by family, with the code points each draws."""


def check_formulas_use_shipped_faces(page: Page, where: str) -> int:
    """Every character of every formula is drawn by a face the site ships that has it: never
    by a face of the machine, and never as a blank box (a Korean word inside a formula, on
    a machine without Korean fonts). Chromium says which faces drew each element's text
    (DevTools ``CSS.getPlatformFontsForNode``); a one-letter ``<mi>`` shows its mathematical
    italic form. Returns the number of formula elements checked."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        # Formulas the page shows now (not those in a closed <details>, say) get a mark.
        page.evaluate(
            """() => document.querySelectorAll("math mi, math mn, math mo, math mtext")
              .forEach(e => { if (e.getClientRects().length) e.dataset.fontProbe = ""; })"""
        )
        selector = "[data-font-probe]"
        nodes = session.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})
        wrong = set()
        for node in nodes["nodeIds"]:
            html = session.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
            text = unescape(re.sub(r"<[^>]*>", "", html))
            if html.startswith("<mi") and len(text) == 1 and 'mathvariant="normal"' not in html:
                text = page_fonts.math_italic(text) or text
            faces = [
                font["familyName"]
                for font in session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            ]
            drawable: set[int] = set()
            for face in faces:
                drawable |= SHIPPED_FACES.get(face, frozenset())
            missing = [c for c in text if not c.isspace() and ord(c) not in drawable]
            if missing or not set(faces) <= SHIPPED_FACES.keys():
                wrong.add(f"{html[:60]} drawn with {faces}, lacking {''.join(missing)!r}")
        assert not wrong, f"{where}: formula text not drawn by the shipped faces: {sorted(wrong)}"
        return len(nodes["nodeIds"])
    finally:
        session.detach()
        page.evaluate(
            "() => document.querySelectorAll('[data-font-probe]')"
            ".forEach(e => e.removeAttribute('data-font-probe'))"
        )


def check_chart_text(page: Page, where: str) -> None:
    """Issue 22 §4: no chart text (title, takeaway, axis labels and titles, legend, text on the
    plot) is cut by its chart's box, the box it scrolls in or a clip, and no two texts of a
    chart overprint by more than a fifth of the smaller one's area (tests/phone_measures.py)."""
    charts = page.evaluate(CHART_TEXTS, [OVERPRINT_SHARE, CUT_TOLERANCE_PX])
    cut = [
        f"{chart['chart']}: {text['text']!r} ({text['role']})"
        for chart in charts
        for text in chart["cut"]
    ]
    overprinted = [
        f"{chart['chart']}: {pair['a']!r} over {pair['b']!r} ({pair['share']:.0%})"
        for chart in charts
        for pair in chart["overprints"]
    ]
    assert not cut and not overprinted, (
        f"{where}: {len(cut)} chart texts cut, {len(overprinted)} pairs overprinted: "
        + "; ".join(cut + overprinted)
    )


def check_targets(page: Page, where: str) -> int:
    """Issue 22 §4: on a phone every target (a choice with its label, a slider, a list, a
    button, a navigation link, a quiz answer) is at least 44 × 44 CSS px (WCAG 2.2 SC 2.5.5);
    returns how many there are."""
    targets = page.evaluate(TARGETS)
    small = [
        f"{t['kind']} {t['name']!r} {t['width']:.0f}×{t['height']:.0f}"
        for t in targets
        if min(t["width"], t["height"]) < THUMB_PX - 0.01
    ]
    assert not small, f"{where}: {len(small)} of {len(targets)} targets under 44 px: {small}"
    return len(targets)


PRINTED = f"{PREFIX[LANGUAGES[-1]]}03-differential-privacy.html"
"""The lesson printed to PDF in the wide pass (one is enough: the print rules are the site's)."""
A4_MM = (210.0, 297.0)
CSS_PX_PER_MM = 96 / 25.4


def page_margins_mm() -> tuple[float, float, float, float]:
    """The ``@page`` margins of the site's style sheet (top, right, bottom, left), in mm."""
    css = (builtin_templates_dir() / "static" / "style.css").read_text(encoding="utf-8")
    rule = re.search(r"@page\s*\{\s*margin:\s*([\d.]+)mm\s+([\d.]+)mm\s*;\s*\}", css)
    assert rule, "style.css: no '@page { margin: Vmm Hmm; }' rule"
    vertical, horizontal = float(rule[1]), float(rule[2])
    return vertical, horizontal, vertical, horizontal


def check_print(page: Page, path: str) -> None:
    """Issue 22 §4, print: under print media no heading ends a page, a figure's settings line
    (the controls' summary) stays with its figure, which prints whole, and the footer keeps
    with the last words; printed to A4, the lesson's text fills at least :data:`PAGE_FILL` of
    its pages (kept-together blocks never leave half a page empty)."""
    page.emulate_media(media="print")
    try:
        problems = page.evaluate(PRINT_BREAKS)
        assert not problems, f"{path} printed: {problems}"
        if path != PRINTED:
            return
        top, right, bottom, left = page_margins_mm()
        width, height = A4_MM[0] - left - right, A4_MM[1] - top - bottom
        # Laid out on the page's width, the text runs this many pages without any break.
        page.set_viewport_size(
            {"width": round(width * CSS_PX_PER_MM), "height": round(height * CSS_PX_PER_MM)}
        )
        content = page.evaluate("document.documentElement.scrollHeight") / (height * CSS_PX_PER_MM)
        pdf = page.pdf(format="A4")
        pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
        assert pages >= content > 1, (pages, content)
        assert content / pages >= PAGE_FILL, (
            f"{path} prints on {pages} A4 pages what {content:.1f} pages hold: "
            f"{1 - content / pages:.0%} of the paper is left empty by the breaks"
        )
    finally:
        page.emulate_media(media="screen")


def open_ready(browser: Browser, site: Site, path: str, viewport: Any) -> tuple[Page, Watch]:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    page, watch = open_page(context, site, path)
    if path in LESSONS or path in EMBEDS:
        page.wait_for_selector(READY, state="attached")
    settle(page)
    return page, watch


@pytest.mark.browser
@pytest.mark.parametrize("path", PAGES)
def test_every_page_on_a_wide_screen(browser: Browser, site: Site, path: str):
    """Each page over file:// and http loads cleanly and lays out; what the loaded page does
    (axe-core, its controls, the sticky bars) is the same document either way, checked once."""
    page, watch = open_ready(browser, site, path, WIDE)
    try:
        check_loads_cleanly(page, site, path)
        check_layout(page, f"{path} at {WIDE['width']} px")
        if site.base.startswith("file:"):
            violations = axe_violations(page)
            assert not violations, f"{path}: axe-core: {violations}"
            if path in LESSONS:
                check_controls_come_alive(page, path)
                check_sticky_controls(page, path)
                check_groups_unpin(page, path)
            if path in LESSONS or path in EMBEDS:
                check_print(page, path)
        watch.assert_clean(path)
    finally:
        page.context.close()


CONTROL_CHART_PAIRS = """() => {
  const data = window.EXPLORER_DATA[document.querySelector("[data-lesson]").dataset.lesson];
  const base = data.params.map(p => p.default);
  const start = data.points[base.join("-")].d;
  const pairs = [];
  const page = el => {
    const r = el.getBoundingClientRect();
    return [r.top + scrollY, r.bottom + scrollY];
  };
  data.params.forEach((p, i) => Object.keys(data.charts).forEach(name => {
    const chart = data.charts[name];
    const figure = document.querySelector(`figure[data-chart='${name}']`);
    if (!figure) return;
    // The chart changes when this control moves (from the default setting).
    const moves = chart.signals.includes(p.name) || p.values.some((_, v) => {
      const at = base.slice(); at[i] = v;
      const point = data.points[at.join("-")];
      return point && chart.datasets.some(d => point.d[d] !== start[d]);
    });
    if (!moves) return;
    const [top] = page(figure);
    const instances = Array.from(document.querySelectorAll(`[data-param='${p.name}']`))
      .map(input => page(input.closest(".control")));
    // Some instance and the chart's first 48 px are on one screen.
    const fits = instances.some(([cTop, cBottom]) =>
      Math.max(cBottom, top + 48) - Math.min(cTop, top) <= innerHeight);
    pairs.push({ param: p.name, chart: name, fits });
  }));
  return pairs;
}"""
"""Every (control, chart it moves) pair of a lesson page, and whether they share a screen."""


def check_controls_beside_charts(page: Page, path: str) -> None:
    """Issue 22: on a phone, some instance of each control shares a screen with each chart
    that it moves, so no change needs a scroll down and back up."""
    pairs = page.evaluate(CONTROL_CHART_PAIRS)
    assert pairs, f"{path}: no control moves a chart"
    apart = [f"{pair['param']} / {pair['chart']}" for pair in pairs if not pair["fits"]]
    assert not apart, (
        f"{path}: {len(apart)} of {len(pairs)} control–chart pairs are a scroll apart: {apart}"
    )


@pytest.mark.browser
@pytest.mark.parametrize("path", PAGES)
def test_every_page_on_a_phone(browser: Browser, course_site: tuple[Path, BuildReport], path: str):
    folder = course_site[0]
    site = Site(base=folder.as_uri() + "/", folder=folder)
    page, watch = open_ready(browser, site, path, PHONE)
    try:
        charts = check_layout(page, f"{path} at {PHONE['width']} px")
        check_formulas_use_shipped_faces(page, path)
        check_chart_text(page, f"{path} at {PHONE['width']} px")
        targets = check_targets(page, f"{path} at {PHONE['width']} px")
        assert targets > 0, f"{path}: no target measured"
        figures = page.locator("figure[data-chart]").count()
        assert charts == figures, f"{path}: {charts} of {figures} live charts were measured"
        if path in LESSONS:
            assert figures > 0, f"{path}: no chart"
        if path in LESSONS:
            # On a phone the control bars stay in the text rather than stick.
            positions = page.evaluate(
                """Array.from(document.querySelectorAll("form.controls"))
                  .map(f => getComputedStyle(f).position)"""
            )
            assert positions and set(positions) == {"static"}, path
        if path in LESSONS or path in EMBEDS:
            check_controls_beside_charts(page, path)
        watch.assert_clean(f"{path} on a phone")
    finally:
        page.context.close()
