"""The built course in headless Chromium, opened from disk and served under a sub-path.

Every test runs twice: once on the folder opened with ``file://`` (a learner's USB
stick) and once on ``http://127.0.0.1/.../course-repo/`` (GitHub Pages). The
expected numbers come from two places that must agree with the page: the page
data the build wrote, and the lesson module's own ``compute()`` run here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lessonpage import PREFIX, READY, TIMEOUT_MS, LessonPage, Site, open_page, settle
from playwright.sync_api import Browser, BrowserContext

from compute.lessons import differential_privacy as dp
from privacy_explorer.build import BuildReport
from privacy_explorer.lesson import LANGUAGES

SLUG = "03-differential-privacy"
"""The lesson whose controls are driven (module :mod:`compute.lessons.differential_privacy`)."""
DP = LessonPage(dp, SLUG)


# --- 1. Every page loads cleanly ----------------------------------------------


@pytest.mark.browser
def test_every_page_loads_without_errors_or_outside_requests(
    context: BrowserContext, site: Site, course_site: tuple[Path, BuildReport]
):
    report = course_site[1]
    pages = sorted(path.relative_to(site.folder).as_posix() for path in site.folder.rglob("*.html"))
    lesson_pages = {f"{PREFIX[lang]}{slug}.html" for slug in report.lessons for lang in LANGUAGES}
    assert {"404.html"} | {f"{PREFIX[lang]}index.html" for lang in LANGUAGES} <= set(pages)
    assert SLUG in report.lessons and lesson_pages <= set(pages)

    for path in pages:
        page, watch = open_page(context, site, path)
        # Without a declared icon, browsers fetch /favicon.ico from the server root: outside.
        icon = page.evaluate("document.querySelector('link[rel~=icon]')?.href ?? null")
        assert icon is not None and icon.startswith((site.base, "data:")), f"{path}: icon {icon}"
        if path in lesson_pages:
            page.wait_for_selector(READY, state="attached")
            figures = page.evaluate(
                """() => Array.from(document.querySelectorAll("figure[data-chart]")).map(f => {
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
            )
            charts = page.evaluate(
                "slug => Object.keys(window.EXPLORER_DATA[slug].charts).sort()",
                path.rsplit("/", 1)[-1].removesuffix(".html"),
            )
            assert sorted(f["name"] for f in figures) == charts, path
            for figure in figures:
                assert figure["live"] == 1, f"{path}: no live Vega SVG in {figure}"
                assert figure["marks"] > 0 and figure["width"] > 0 and figure["height"] > 0, figure
                assert figure["pictures"] == 0, f"{path}: a static picture beside {figure}"
                # vega-embed labels the live chart with the spec's description: the fallback's text.
                assert figure["role"] == "graphics-document", figure
                assert figure["label"] == figure["alt"] != "", figure
        settle(page)
        watch.assert_clean(path)
        page.close()


# --- 2. Controls, driven by keyboard ------------------------------------------

STEPS: list[tuple[str, str, int]] = [
    # (parameter, key or "click", the value index it leads to)
    ("epsilon", "ArrowRight", 5),
    ("epsilon", "End", 6),
    ("epsilon", "Home", 0),
    ("releases", "End", 19),
    ("releases", "Home", 0),
    ("releases", "ArrowRight", 1),
    ("query", "ArrowRight", 1),
    ("query", "click", 0),
    ("clip", "ArrowLeft", 2),
    ("clip", "Home", 0),
    ("clip", "End", 4),
]


@pytest.mark.browser
def test_controls_switch_charts_and_readouts_to_precomputed_points(
    context: BrowserContext, site: Site
):
    lang = LANGUAGES[0]
    page, watch = DP.open(context, site, lang)
    assert {name for name, _, _ in STEPS} == set(dp.GRID.names), "every control is moved"
    last = DP.drive(page, site, lang, STEPS)
    # The budget chart follows the number of releases through its signal.
    assert last["views"]["budget"]["signals"] == {"releases": dp.GRID.param("releases").values[1]}
    watch.assert_clean("controls")


# --- 3. State from the URL hash -----------------------------------------------


@pytest.mark.browser
def test_hash_opens_and_follows_a_shared_state(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    page, watch = open_page(
        context, site, f"{PREFIX[lang]}{SLUG}.html#query=mean&epsilon=0.2&releases=12&clip=60"
    )
    page.wait_for_selector(READY, state="attached")
    state = {"query": 1, "epsilon": 2, "releases": 11, "clip": 1}
    assert DP.point_of(state) == {"query": "mean", "epsilon": 0.2, "releases": 12, "clip": 60.0}
    DP.wait_for_point(page, state)
    DP.assert_shows(page, state, lang)
    assert page.locator("input[data-param=query][value='1']").is_checked()
    assert page.locator("output[data-output=epsilon]").inner_text() == "0.2"
    assert page.locator("output[data-output=releases]").inner_text() == "12"
    assert page.locator("output[data-output=clip]").inner_text() == "60 MPa"

    # Editing the hash by hand (or following a shared link on the same page) moves everything.
    page.evaluate("location.hash = 'query=count&epsilon=5&releases=1&clip=150'")
    state = {"query": 0, "epsilon": 6, "releases": 0, "clip": 4}
    DP.wait_for_point(page, state)
    DP.assert_shows(page, state, lang)
    watch.assert_clean("hash")


# --- 4. Language switch -------------------------------------------------------


@pytest.mark.browser
def test_language_switch_goes_to_the_same_lesson_and_back(context: BrowserContext, site: Site):
    first, second = LANGUAGES
    page, watch = open_page(context, site, f"{PREFIX[first]}{SLUG}.html")
    assert page.evaluate("document.documentElement.lang") == first
    for lang in (second, first):
        page.locator("[data-lang-switch]").click()
        page.wait_for_url(site.url(f"{PREFIX[lang]}{SLUG}.html"))
        assert page.evaluate("document.documentElement.lang") == lang
        page.wait_for_selector(READY, state="attached")
        readouts = page.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('[data-readout]'))"
            ".map(e => [e.dataset.readout, e.textContent]))"
        )
        expected = DP.python_readouts(DP.default_state(), lang)
        assert readouts["answer_unit"] == expected["answer_unit"]
    watch.assert_clean("language switch")


# --- 5. Without JavaScript ----------------------------------------------------


@pytest.mark.browser
def test_without_javascript_the_static_charts_and_default_readouts_show(
    browser: Browser, site: Site
):
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        lang = LANGUAGES[0]
        page, watch = open_page(context, site, f"{PREFIX[lang]}{SLUG}.html")
        page.wait_for_load_state("load")
        images = page.locator("figure[data-chart] img.chart-fallback")
        assert images.count() == len(dp.CHARTS)
        for image in images.all():
            assert image.is_visible()
            assert image.evaluate("image => image.complete && image.naturalWidth > 0")
        assert page.locator(".chart-live").count() == 0
        expected = DP.python_readouts(DP.default_state(), lang)
        readouts = page.locator("[data-readout]")
        assert readouts.count() > 0
        for readout in readouts.all():
            name = readout.get_attribute("data-readout")
            assert name is not None
            assert readout.text_content() == expected[name], name
        watch.assert_clean("no JavaScript")
    finally:
        context.close()


# --- 6. MathML and its font ---------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_mathml_renders_with_the_shipped_math_font(context: BrowserContext, site: Site, lang: str):
    page, watch = open_page(context, site, f"{PREFIX[lang]}{SLUG}.html")
    settle(page)
    maths = page.evaluate(
        """() => Array.from(document.querySelectorAll("math")).map(m => {
          const box = m.getBoundingClientRect();
          return {mathml: m instanceof MathMLElement, width: box.width, height: box.height,
                  answer: m.closest(".quiz-reveal") !== null};
        })"""
    )
    assert maths, "no <math> on the lesson page"
    for number, math_box in enumerate(maths):
        assert math_box["mathml"], f"<math> #{number} is not a MathML element"
        if math_box["answer"]:
            continue  # a question's explanation stays hidden until the learner answers
        assert math_box["width"] > 0 and math_box["height"] > 0, f"<math> #{number}: {math_box}"
    assert not all(math_box["answer"] for math_box in maths)
    faces = page.evaluate(
        """async () => {
          await document.fonts.ready;
          return Array.from(document.fonts).map(f => [f.family.replace(/["']/g, ""), f.status]);
        }"""
    )
    assert ["Noto Sans Math", "loaded"] in faces, faces
    watch.assert_clean("MathML")
