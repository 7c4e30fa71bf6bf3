"""Reading the page: no JavaScript, the live region, print; and the axe-core helper.

axe-core (pinned in tests/axe/package-lock.json, installed by ``make test``) is injected into
every page of the built course, over ``file://`` and over HTTP, by tests/test_browser_pages.py,
and must find nothing at all; the wide-screen and phone checks of every page are there too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from lessonpage import PREFIX, READY, Site, by_turns, on_one_transport, open_page
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from privacy_explorer.build import BuildReport
from privacy_explorer.lesson import LANGUAGES

REPO = Path(__file__).resolve().parent.parent
AXE = REPO / "tests" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
STRINGS = yaml.safe_load((REPO / "site_templates" / "strings.yml").read_text("utf-8"))
DP = "03-differential-privacy"
LICENCES = "04-licenses"
WIDE: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def lesson_paths(report: BuildReport) -> list[str]:
    return [f"{PREFIX[lang]}{slug}.html" for slug in report.lessons for lang in LANGUAGES]


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of any impact on the page as it is now, its target-size rule on.

    No preload: axe would fetch the stylesheets again by XHR, which file:// pages refuse.
    """
    assert AXE.exists(), f"{AXE} is missing: run 'make test' (npm ci in tests/axe) first"
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async () => (await window.axe.run(document, {
            resultTypes: ["violations"], preload: false,
            // WCAG 2.2 SC 2.5.8, targets of at least 24 px (or spaced as if), is off by default.
            rules: { "target-size": { enabled: true } } }))
          .violations.map(v => ({
            id: v.id, impact: v.impact,
            nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary),
          }))"""
    )


NO_SCRIPT_STATE = """() => ({
  disabled: Array.from(document.querySelectorAll("[data-param]"), i => i.disabled),
  opacity: getComputedStyle(document.querySelector("[data-param]")).opacity,
  // Visible as Playwright means it: a non-empty box, and not visibility: hidden.
  pictures: Array.from(document.querySelectorAll("figure[data-chart] img.chart-fallback"), img => {
    const box = img.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(img).visibility !== "hidden";
  }),
})"""
"""Every control's disabled state, the first one's opacity, and each static chart's visibility,
read in one call rather than one round trip per element."""


@pytest.mark.browser
def test_without_javascript_a_note_says_the_page_shows_the_default_setting(
    browser: Browser, course_site: tuple[Path, BuildReport]
):
    folder, report = course_site
    site = Site(base=folder.as_uri() + "/", folder=folder)
    context = browser.new_context(java_script_enabled=False)
    try:
        for slug in report.lessons:
            for lang in LANGUAGES:
                page = context.new_page()
                page.goto(site.url(f"{PREFIX[lang]}{slug}.html"))
                note = page.locator(".noscript-note")
                assert note.count() == 1 and note.is_visible(), slug
                assert note.inner_text() == STRINGS["noscript_note"][lang]
                shown = page.evaluate(NO_SCRIPT_STATE)
                assert shown["disabled"] and all(shown["disabled"]), slug
                # Visibly so: a disabled control is faded.
                assert float(shown["opacity"]) < 0.6, slug
                assert all(shown["pictures"]), f"{slug}: a static chart is hidden"
                page.close()
    finally:
        context.close()


PAGE_DATA = """slug => {
  // Counted here: handing every point of lesson 04's 65,856 to Python costs a minute.
  const data = window.EXPLORER_DATA[slug];
  const points = Object.values(data.points);
  const distinct = name => new Set(points.map(p => p.r[name])).size;
  return {
    params: data.params.map(p => p.name),
    charts: data.charts,
    live: Array.from(document.querySelectorAll("[data-readout]"))
      .map(e => [e.dataset.readout, e.classList.contains("is-live"),
                 getComputedStyle(e).backgroundColor, distinct(e.dataset.readout)]),
    placed: Array.from(document.querySelectorAll("figure[data-chart]")).map(f => f.dataset.chart),
  };
}"""

POINTS = """([slug, keys]) => Object.fromEntries(keys.map(key => {
  const point = window.EXPLORER_DATA[slug].points[key];
  return [key, {readouts: point.r, datasets: point.d}];
}))"""


def announced(page: Page, key: str) -> str:
    page.wait_for_function(
        "key => document.querySelector('[data-announcer]').dataset.point === key", arg=key
    )
    return page.locator("[data-announcer]").inner_text()


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_one_polite_region_says_what_a_control_changed(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = open_page(context, site, f"{PREFIX[lang]}{DP}.html")
    page.wait_for_selector(READY, state="attached")
    live = page.evaluate(
        """() => Array.from(document.querySelectorAll("[aria-live]"))
          .map(e => e.getAttribute("aria-live"))"""
    )
    assert live.count("polite") == 1 and set(live) == {"polite", "off"}, live
    # Every <output> (a live status by default) is silenced; the region speaks for them.
    assert page.evaluate(
        """Array.from(document.querySelectorAll("output"))
          .every(o => o.getAttribute("aria-live") === "off")"""
    )
    data = page.evaluate(PAGE_DATA, DP)
    before = page.evaluate("document.querySelector('article').dataset.point")
    # A burst of two steps in one task (as a held key gives them), so that it is one burst
    # however busy the machine is; the region must speak once, when the burst has settled.
    page.evaluate(
        """() => {
          const region = document.querySelector("[data-announcer]");
          window.__announcements = 0;
          new MutationObserver(() => { window.__announcements += 1; })
            .observe(region, { childList: true, characterData: true, subtree: true });
          const slider = document.querySelector("input[data-param=epsilon]");
          slider.focus();
          for (let step = 0; step < 2; step += 1) {
            slider.value = String(Number(slider.value) + 1);
            slider.dispatchEvent(new Event("input", { bubbles: true }));
          }
        }"""
    )
    after = page.evaluate("window.explorerLesson.key()")
    assert after != before
    text = announced(page, after)
    assert page.evaluate("window.__announcements") == 1, "a burst is said once"
    shown = page.evaluate(POINTS, [DP, [before, after]])

    label = page.locator("label[for=control-epsilon]").inner_text()
    value = page.locator("output[data-output=epsilon]").first.inner_text()
    placed_readouts = {entry[0] for entry in data["live"]}
    numbers = sum(
        shown[before]["readouts"][name] != shown[after]["readouts"][name]
        for name in placed_readouts
    )
    moved = {"epsilon"}
    charts = sum(
        any(
            shown[before]["datasets"].get(d) != shown[after]["datasets"].get(d)
            for d in chart["datasets"]
        )
        or bool(moved & set(chart["signals"]))
        for name, chart in data["charts"].items()
        if name in data["placed"]
    )
    assert charts > 0 and numbers > 0
    expected_counts = (
        STRINGS["announce_changed"][lang]
        .replace("{charts}", str(charts))
        .replace("{numbers}", str(numbers))
    )
    assert text == f"{label}: {value}. {expected_counts}", text
    watch.assert_clean("announce")


@pytest.mark.browser
@on_one_transport("http")
def test_the_announcement_names_the_readouts_marked_announce(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    page, watch = open_page(context, site, f"{PREFIX[lang]}{LICENCES}.html")
    page.wait_for_selector(READY, state="attached")
    select = page.locator("select[data-param]").first
    options = select.locator("option")
    select.select_option(options.nth(options.count() - 1).get_attribute("value"))
    text = announced(page, page.evaluate("window.explorerLesson.key()"))
    verdict = page.locator("[data-readout][data-announce]").first
    assert f"{verdict.get_attribute('title')}: {verdict.inner_text()}." in text, text
    watch.assert_clean("licence announce")


@pytest.mark.browser
@on_one_transport("file")
def test_print_shows_the_current_setting_with_its_live_charts(context: BrowserContext, site: Site):
    lang = LANGUAGES[0]
    page, watch = open_page(
        context, site, f"{PREFIX[lang]}{DP}.html#query=mean&epsilon=0.2&releases=12"
    )
    page.wait_for_selector(READY, state="attached")
    page.emulate_media(media="print")
    shown = page.evaluate(
        """() => ({
          figures: Array.from(document.querySelectorAll("figure[data-chart]")).map(f => ({
            live: f.querySelector(".chart-live svg").getBoundingClientRect().height,
            // The static picture waits in a <noscript> (no element) unless the chart failed.
            fallback: Array.from(f.querySelectorAll("img.chart-fallback"))
              .reduce((shown, img) => shown + img.getClientRects().length, 0),
            note: f.querySelector(".print-note").getClientRects().length,
          })),
          summaries: Array.from(document.querySelectorAll(".controls-summary"))
            .map(p => getComputedStyle(p).display === "none" ? null : p.innerText),
          controls: Array.from(document.querySelectorAll(".controls > .control"))
            .map(c => c.getClientRects().length),
          positions: Array.from(document.querySelectorAll("form.controls"))
            .map(f => getComputedStyle(f).position),
          readouts: Array.from(document.querySelectorAll("[data-readout]")).map(r => r.textContent),
        })"""
    )
    assert shown["figures"]
    for figure in shown["figures"]:
        assert figure["live"] > 0 and figure["fallback"] == 0 and figure["note"] == 0, figure
    assert set(shown["controls"]) == {0}, "the controls themselves are not printed"
    assert set(shown["positions"]) == {"static"}, "on paper the settings stay in the text"
    epsilon = page.locator("label[for=control-epsilon]").inner_text()
    releases = page.locator("label[for=control-releases]").inner_text()
    assert any(s and f"{epsilon}: 0.2" in s for s in shown["summaries"]), shown["summaries"]
    assert any(s and f"{releases}: 12" in s for s in shown["summaries"]), shown["summaries"]
    point = page.evaluate(f"window.EXPLORER_DATA['{DP}'].points[window.explorerLesson.key()].r")
    names = page.evaluate(
        "Array.from(document.querySelectorAll('[data-readout]')).map(r => r.dataset.readout)"
    )
    assert shown["readouts"] == [point[name] for name in names]
    watch.assert_clean("print")


STICKY_STATE = """() => Array.from(document.querySelectorAll(".control-scope")).map(scope => {
  const form = scope.querySelector("form.controls");
  const driven = scope.querySelectorAll("figure[data-chart], [data-table][data-live]");
  return Array.from(driven).map(f => {
    f.scrollIntoView({ block: "start" });
    const bar = form.getBoundingClientRect();
    const box = f.getBoundingClientRect();
    return { name: f.id, barTop: Math.round(bar.top), barBottom: Math.round(bar.bottom),
             top: Math.round(box.top), position: getComputedStyle(form).position };
  });
})"""
