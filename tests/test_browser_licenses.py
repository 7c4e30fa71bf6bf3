"""Lesson 04 in headless Chromium: drop-down lists, live verdict tables, hash, no JavaScript.

Every test runs on the built course opened from disk and served under a sub-path
(the ``site`` fixture). What the page shows is checked against the page data and
against :func:`compute.licensing.evaluate`, run here.
"""

from __future__ import annotations

import pytest
from lessonpage import PREFIX, TIMEOUT_MS, LessonPage, Site, open_page
from playwright.sync_api import Browser, BrowserContext, Page

from compute import licensing
from compute.lessons import licenses as lic
from privacy_explorer.lesson import LANGUAGES

SLUG = "04-licenses"
LICENSES = LessonPage(lic, SLUG)
INDEX = {name: {v: i for i, v in enumerate(lic.GRID.param(name).values)} for name in lic.GRID.names}


def shown_verdict(page: Page) -> dict[str, object]:
    """The verdict as the learner reads it: status, conditions, reasons, adaptation licences."""
    return page.evaluate(
        """() => {
          const rows = name => Array.from(
            document.querySelectorAll(`[data-table="${name}"] tbody tr:not(.empty-row)`))
            .map(tr => Array.from(tr.cells).map(cell => cell.textContent));
          return {
            status: document.querySelector("[data-readout=status]").textContent,
            conditions: rows("conditions").map(row => row[0]),
            reasons: rows("reasons").map(row => row[1]),
            adaptation: rows("adaptation").map(row => row[1]),
          };
        }"""
    )


def expected_verdict(state: dict[str, int], lang: str) -> dict[str, object]:
    v = licensing.evaluate(**LICENSES.point_of(state))
    return {
        "status": lic.STATUS_LABELS[v.status][lang],
        "conditions": [licensing.CONDITIONS[c.code][lang] for c in v.conditions],
        "reasons": [r.text[lang] for r in v.reasons],
        "adaptation": list(v.adaptation_licenses + v.code_licenses),
    }


# (parameter, key or "click", the value index it leads to); selects are set by value.
STEPS: list[tuple[str, str, int]] = [
    ("data", "click", INDEX["data"]["CC-BY-NC-4.0"]),  # NC with commercial use: not allowed
    ("commercial", "click", 0),  # the same, non-commercial: the data question needs review
    ("data", "click", INDEX["data"]["CC0-1.0"]),
    ("model", "click", INDEX["model"]["CC-BY-SA-4.0"]),
    ("code", "click", INDEX["code"]["GPL-3.0-only"]),  # BY-SA into GPLv3: allowed, GPL only
    ("code", "click", INDEX["code"]["CC-BY-NC-4.0"]),  # BY-SA weights, NC code: two works, allowed
    ("combination", "ArrowLeft", 0),  # the same two in a collection: allowed
    ("share", "click", 0),
    ("code", "click", INDEX["code"]["NOASSERTION"]),  # unknown: needs permission
]


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_selectors_switch_the_verdict_to_what_evaluate_says(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = LICENSES.open(context, site, lang)
    # The verdict map is the page's one chart; assert_shows checks that its params follow.
    assert page.evaluate("typeof window.vegaEmbed") == "function", "the verdict map needs Vega"
    assert {name for name, _, _ in STEPS} == set(lic.GRID.names), "every control is moved"
    # Three labelled drop-down lists holding every licence; the rest are radio buttons.
    for name in ("data", "model", "code"):
        assert page.locator(f"select[data-param={name}] option").count() == len(licensing.LICENSES)
        label = page.locator(f"label[for=control-{name}]").inner_text()
        assert label == lic.GRID.param(name).label[lang]
    state = LICENSES.default_state()
    LICENSES.assert_shows(page, state, lang)
    assert shown_verdict(page) == expected_verdict(state, lang)
    statuses = {licensing.evaluate(**LICENSES.point_of(state)).status}
    for name, key, index in STEPS:
        LICENSES.move(page, name, key, index)
        state = {**state, name: index}
        LICENSES.wait_for_point(page, state)
        shown = LICENSES.assert_shows(page, state, lang)  # controls, readouts, tables, hash
        assert f"{name}={lic.GRID.param(name).value_texts[index]}" in shown["hash"]
        assert shown_verdict(page) == expected_verdict(state, lang), (name, index)
        statuses.add(licensing.evaluate(**LICENSES.point_of(state)).status)
    assert statuses == set(licensing.STATUSES), "the steps reach every verdict"
    # The last point has no conditions: the table says so instead of showing an empty body.
    assert not licensing.evaluate(**LICENSES.point_of(state)).conditions
    empty = {t.name: t.empty for t in lic.TABLES}["conditions"]
    assert empty is not None
    assert page.locator("[data-table=conditions] tr.empty-row").inner_text() == empty[lang]
    watch.assert_clean("selectors")


@pytest.mark.browser
def test_a_licence_list_works_by_keyboard(context: BrowserContext, site: Site):
    lang = LANGUAGES[0]
    page, watch = LICENSES.open(context, site, lang)
    state = LICENSES.default_state()
    page.locator("select[data-param=model]").focus()
    page.keyboard.press("ArrowDown")
    state = {**state, "model": state["model"] + 1}
    LICENSES.wait_for_point(page, state)
    LICENSES.assert_shows(page, state, lang)
    assert shown_verdict(page) == expected_verdict(state, lang)
    watch.assert_clean("keyboard")


@pytest.mark.browser
def test_a_shared_link_opens_its_verdict(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    hash_ = (
        "data=CC-BY-ND-4.0&model=Apache-2.0&code=MIT&commercial=false&share=true&combination=adapt"
    )
    page, watch = LICENSES.open(context, site, lang, hash_)
    state = {
        "data": INDEX["data"]["CC-BY-ND-4.0"],
        "model": INDEX["model"]["Apache-2.0"],
        "code": INDEX["code"]["MIT"],
        "commercial": 0,
        "share": 1,
        "combination": 1,
    }
    LICENSES.wait_for_point(page, state)
    LICENSES.assert_shows(page, state, lang)
    assert shown_verdict(page) == expected_verdict(state, lang)
    assert licensing.evaluate(**LICENSES.point_of(state)).status == "needs_review"
    page.evaluate("location.hash = 'data=NONE&model=MIT&code=MIT'")  # a partial hash
    state = {**state, "data": INDEX["data"]["NONE"], "model": INDEX["model"]["MIT"]}
    LICENSES.wait_for_point(page, state)
    assert shown_verdict(page) == expected_verdict(state, lang)
    watch.assert_clean("hash")


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_javascript_the_default_verdict_and_the_rule_table_show(
    browser: Browser, site: Site, lang: str
):
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, watch = open_page(context, site, f"{PREFIX[lang]}{SLUG}.html")
        page.wait_for_load_state("load")
        expected = expected_verdict(LICENSES.default_state(), lang)
        status = page.locator("[data-readout=status]").text_content()
        assert status == expected["status"]
        for name in ("conditions", "reasons", "adaptation"):
            column = 1 if name in ("reasons", "adaptation") else 0
            cells = page.locator(f"[data-table={name}] tbody tr:not(.empty-row)").all()
            texts = [row.locator("th, td").nth(column).text_content() for row in cells]
            assert texts == expected[name], name
        assert page.locator("[data-table=conditions] table").is_visible()
        rules = page.locator("[data-table=rules] tbody th[scope=row]")
        assert rules.all_inner_texts() == list(licensing.LICENSES)
        assert page.locator("[data-table=rules]").is_visible()
        examples = page.locator("[data-table=examples] tbody tr")
        assert examples.count() == len(lic.EXAMPLES)
        watch.assert_clean("no JavaScript")
    finally:
        context.close()
