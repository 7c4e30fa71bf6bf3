"""The built course in headless Chromium, opened from disk and served under a sub-path.

Every test runs twice: once on the folder opened with ``file://`` (a learner's USB
stick) and once on ``http://127.0.0.1/.../course-repo/`` (GitHub Pages). The
expected numbers come from two places that must agree with the page: the page
data the build wrote, and the lesson module's own ``compute()`` run here.
"""

from __future__ import annotations

import pytest
from lessonpage import (
    PREFIX,
    READY,
    TIMEOUT_MS,
    LessonPage,
    Site,
    on_one_transport,
    open_page,
    settle,
)
from playwright.sync_api import Browser, BrowserContext

from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.lesson import LANGUAGES

SLUG = "03-differential-privacy"
"""The lesson whose controls are driven (module :mod:`compute.lessons.differential_privacy`)."""
DP = LessonPage(dp, SLUG)


# --- 1. Every page loads cleanly ----------------------------------------------


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
@on_one_transport("file")
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
    assert page.locator("input[data-param=query][value='1']").first.is_checked()
    assert page.locator("output[data-output=epsilon]").first.inner_text() == "0.2"
    assert page.locator("output[data-output=releases]").first.inner_text() == "12"
    assert page.locator("output[data-output=clip]").first.inner_text() == "60 MPa"

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
        units = [name for name in readouts if name.endswith("_unit")]  # words, in this language
        assert units, readouts
        assert all(readouts[name] == expected[name] for name in units), (lang, readouts)
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
