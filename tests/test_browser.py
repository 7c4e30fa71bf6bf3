"""The built course in headless Chromium, opened from disk and served under a sub-path.

Every test runs twice: once on the folder opened with ``file://`` (a learner's USB
stick) and once on ``http://127.0.0.1/.../course-repo/`` (GitHub Pages). The
expected numbers come from two places that must agree with the page: the page
data the build wrote, and the lesson module's own ``compute()`` run here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Response

from compute import differential_privacy as dp
from explorer.build import BuildReport
from explorer.lesson import LANGUAGES

SLUG = "03-differential-privacy"
"""The lesson whose controls are driven; its module is :mod:`compute.differential_privacy`."""
PREFIX = {lang: "" if i == 0 else f"{lang}/" for i, lang in enumerate(LANGUAGES)}
"""Where each language's pages sit, relative to the site root."""
TIMEOUT_MS = 15_000
READY = "article[data-lesson][data-ready='true']"


# --- Fixtures -----------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """The built course as the browser reaches it."""

    base: str
    """URL of the site root, ending in ``/``; every request must start with it."""
    folder: Path
    """The built folder on disk."""

    def url(self, path: str) -> str:
        """The URL of ``path`` (relative to the site root)."""
        return self.base + path


@pytest.fixture(params=["file", "http"])
def site(request: pytest.FixtureRequest, course_site: tuple[Path, BuildReport]) -> Site:
    """The course opened from disk, or served at /course-repo/ on 127.0.0.1."""
    folder = course_site[0]
    if request.param == "file":
        return Site(base=folder.as_uri() + "/", folder=folder)
    return Site(base=request.getfixturevalue("site_server"), folder=folder)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (no shared cache, storage or history) for one test."""
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


class Watch:
    """Collects what the site must never do: console errors, page errors, bad requests."""

    def __init__(self, page: Page, base: str) -> None:
        self.base = base
        self.problems: list[str] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        page.on("response", self._response)
        page.on("request", lambda request: self.requests.append(request.url))
        # The browser's own requests (e.g. /favicon.ico) reach Playwright only through CDP.
        cdp = page.context.new_cdp_session(page)
        cdp.on(
            "Network.requestWillBeSent", lambda event: self.requests.append(event["request"]["url"])
        )
        cdp.send("Network.enable")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            where = message.location.get("url", "")
            self.problems.append(f"console {message.type}: {message.text} ({where})")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def assert_clean(self, what: str) -> None:
        outside = sorted({url for url in self.requests if not url.startswith((self.base, "data:"))})
        assert not outside, f"{what}: requests outside the site {self.base}: {outside}"
        assert not self.problems, f"{what}: " + "\n".join(self.problems)


def open_page(context: BrowserContext, site: Site, path: str) -> tuple[Page, Watch]:
    """Open ``path`` in a new tab, watching it from the first request on."""
    page = context.new_page()
    watch = Watch(page, site.base)
    page.goto(site.url(path))
    return page, watch


def settle(page: Page) -> None:
    """Wait until fonts and images have finished loading."""
    page.wait_for_function(
        "Array.from(document.images).every(image => image.complete)", timeout=TIMEOUT_MS
    )
    page.evaluate("async () => { await document.fonts.ready; }")


# --- What the lesson module says the page must show ---------------------------

State = dict[str, int]
"""A grid point as value indices by parameter name, as the page keys it."""


def key_of(state: State) -> str:
    return "-".join(str(state[p.name]) for p in dp.GRID.params)


def point_of(state: State) -> dict[str, Any]:
    return {p.name: p.values[state[p.name]] for p in dp.GRID.params}


@functools.cache
def _python_result(key: str) -> dict[str, Any]:
    indices = [int(i) for i in key.split("-")]
    point = {p.name: p.values[i] for p, i in zip(dp.GRID.params, indices, strict=True)}
    return dp.compute(**point)


def python_result(state: State) -> dict[str, Any]:
    """``compute()`` of the lesson module at ``state``, run here rather than read from the page."""
    return _python_result(key_of(state))


def python_readouts(state: State, lang: str) -> dict[str, str]:
    readouts = python_result(state)["readouts"]
    return {r.name: r.text(readouts[r.name], lang) for r in dp.READOUTS}


def default_state() -> State:
    return {p.name: p.default_index for p in dp.GRID.params}


def assert_rows_close(actual: list[dict[str, Any]], expected: list[dict[str, Any]], what: str):
    assert len(actual) == len(expected), f"{what}: {len(actual)} rows, expected {len(expected)}"
    for number, (row, want) in enumerate(zip(actual, expected, strict=True)):
        assert row.keys() == want.keys(), f"{what} row {number}: fields {sorted(row)}"
        for field_name, value in want.items():
            got = row[field_name]
            if isinstance(value, float) or isinstance(got, float):
                assert math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12), (
                    f"{what} row {number} {field_name}: {got!r} != {value!r}"
                )
            else:
                assert got == value, f"{what} row {number} {field_name}: {got!r} != {value!r}"


# --- What the page shows ------------------------------------------------------

PAGE_STATE = """slug => {
  const article = document.querySelector("article[data-lesson]");
  const lesson = window.explorerLesson;
  const data = window.EXPLORER_DATA[slug];
  const key = article.dataset.point;
  const views = {};
  for (const [name, chart] of Object.entries(data.charts)) {
    const view = lesson.views[name];
    views[name] = {
      // A JSON round trip drops the symbols Vega tags its rows with.
      data: Object.fromEntries(
        chart.datasets.map(d => [d, JSON.parse(JSON.stringify(view.data(d)))])),
      signals: Object.fromEntries(chart.signals.map(s => [s, view.signal(s)])),
    };
  }
  const figures = Array.from(document.querySelectorAll("figure[data-chart]"));
  return {
    key,
    hash: window.location.hash,
    point: data.points[key],
    rows: Object.fromEntries(Object.values(data.points[key].d).map(id => [id, data.datasets[id]])),
    views,
    // Vega tags the rows it is handed; the page data must only ever hand it copies.
    tagged: Object.values(data.datasets).flat()
      .filter(row => Object.getOwnPropertySymbols(row).length > 0).length,
    svg: Object.fromEntries(
      figures.map(f => [f.dataset.chart, f.querySelector(".chart-live svg").outerHTML])),
    readouts: Array.from(article.querySelectorAll("[data-readout]"))
      .map(e => [e.dataset.readout, e.textContent]),
    sliders: Array.from(article.querySelectorAll("input[type=range][data-param]")).map(i => ({
      name: i.dataset.param, value: i.value, valuetext: i.getAttribute("aria-valuetext"),
      output: i.parentNode.querySelector("[data-output]").textContent,
    })),
    radios: Array.from(article.querySelectorAll("input[type=radio][data-param]")).map(i => ({
      name: i.dataset.param, value: i.value, checked: i.checked,
    })),
  };
}"""


def wait_for_point(page: Page, state: State) -> None:
    page.wait_for_function(
        "key => document.querySelector('article[data-lesson]').dataset.point === key",
        arg=key_of(state),
        timeout=TIMEOUT_MS,
    )


def assert_shows(page: Page, state: State, lang: str) -> dict[str, Any]:
    """Controls, readouts, chart rows, signals and the hash show ``state``; returns what it read."""
    shown = page.evaluate(PAGE_STATE, SLUG)
    key = key_of(state)
    assert shown["key"] == key

    # Controls: slider positions and their visible texts, the checked radio.
    for slider in shown["sliders"]:
        param = dp.GRID.param(slider["name"])
        index = state[param.name]
        assert slider["value"] == str(index), slider
        assert slider["output"] == slider["valuetext"] == param.display(index, lang), slider
    for radio in shown["radios"]:
        assert radio["checked"] == (int(radio["value"]) == state[radio["name"]]), radio
    placed = {s["name"] for s in shown["sliders"]} | {r["name"] for r in shown["radios"]}
    assert placed == set(dp.GRID.names)

    # (a) Readouts: the page data's texts, and the module's own compute() and formats.
    expected_texts = python_readouts(state, lang)
    assert shown["readouts"], "no readouts on the page"
    for name, text in shown["readouts"]:
        assert text == shown["point"]["r"][name], f"readout {name} at {key}"
        assert text == expected_texts[name], f"readout {name} at {key} (compute)"

    # (b) Each chart's Vega view holds this point's rows; (e) its signals hold the grid values.
    assert shown["tagged"] == 0, "Vega was handed the page data's own rows, not fresh copies"
    datasets = python_result(state)["datasets"]
    for name, view in shown["views"].items():
        assert view["data"], f"chart {name} reads no dataset"
        for dataset, rows in view["data"].items():
            page_rows = shown["rows"][shown["point"]["d"][dataset]]
            assert len(rows) == len(page_rows), f"chart {name}: dataset {dataset} at {key}"
            # Vega may add fields to the rows it holds; compare the page data's fields only.
            fields = [
                {field: row.get(field) for field in want}
                for row, want in zip(rows, page_rows, strict=True)
            ]
            assert fields == page_rows, f"chart {name}: dataset {dataset} at {key}"
            assert_rows_close(fields, datasets[dataset], f"chart {name}: {dataset} at {key}")
        for signal, value in view["signals"].items():
            assert value == point_of(state)[signal], f"chart {name}: signal {signal} at {key}"
    assert shown["views"]["budget"]["signals"] == {"releases": point_of(state)["releases"]}

    # (d) The URL hash names the state in the parameters' canonical texts.
    # A page opened without a hash keeps it empty until a control moves.
    if shown["hash"] or state != default_state():
        pairs = unquote(shown["hash"]).removeprefix("#").split("&")
        texts = {p.name: p.value_texts[state[p.name]] for p in dp.GRID.params}
        assert dict(pair.partition("=")[::2] for pair in pairs) == texts, shown["hash"]
    return shown


def charts_that_change(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """Charts whose rows or signals differ between two points."""
    return {
        name
        for name, view in after["views"].items()
        if view["signals"] != before["views"][name]["signals"]
        or any(after["point"]["d"][d] != before["point"]["d"][d] for d in view["data"])
    }


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
                  const image = f.querySelector("img.chart-fallback");
                  const svg = f.querySelector(".chart-live svg");
                  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
                  return {
                    name: f.dataset.chart,
                    live: f.querySelectorAll(".chart-live svg").length,
                    marks: svg ? svg.querySelectorAll(".role-mark").length : 0,
                    width: box.width, height: box.height,
                    loaded: image.complete && image.naturalWidth > 0,
                    hidden: image.hidden && image.getClientRects().length === 0,
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
                assert figure["loaded"], f"{path}: static fallback did not load: {figure}"
                assert figure["hidden"], f"{path}: static fallback still shown: {figure}"
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
]


@pytest.mark.browser
def test_controls_switch_charts_and_readouts_to_precomputed_points(
    context: BrowserContext, site: Site
):
    lang = LANGUAGES[0]
    page, watch = open_page(context, site, f"{PREFIX[lang]}{SLUG}.html")
    page.wait_for_selector(READY, state="attached")

    params = page.evaluate("slug => window.EXPLORER_DATA[slug].params", SLUG)
    assert [(p["name"], p["values"], p["texts"], p["default"]) for p in params] == [
        (p.name, list(p.values), list(p.value_texts), p.default_index) for p in dp.GRID.params
    ]
    state = default_state()
    before = assert_shows(page, state, lang)
    assert {name for name, _, _ in STEPS} == set(dp.GRID.names), "every control is moved"

    for name, key, index in STEPS:
        if dp.GRID.param(name).resolved_widget == "slider":
            page.locator(f"input[type=range][data-param={name}]").focus()
            page.keyboard.press(key)
        elif key == "click":
            page.locator(f"input[type=radio][data-param={name}][value='{index}']").click()
        else:
            page.locator(f"input[type=radio][data-param={name}]:checked").focus()
            page.keyboard.press(key)
        state = {**state, name: index}
        wait_for_point(page, state)
        after = assert_shows(page, state, lang)
        value = dp.GRID.param(name).value_texts[index]
        assert f"{name}={value}" in after["hash"]
        assert page.url.split("#")[0] == site.url(f"{PREFIX[lang]}{SLUG}.html")
        # (c) Exactly the charts whose rows or signals changed were drawn anew.
        changing = charts_that_change(before, after)
        assert changing, f"{name} {key}: no chart depends on it"
        redrawn = {chart for chart, svg in after["svg"].items() if svg != before["svg"][chart]}
        assert redrawn == changing, f"{name} {key}: charts redrawn {redrawn}, expected {changing}"
        before = after

    watch.assert_clean("controls")


# --- 3. State from the URL hash -----------------------------------------------


@pytest.mark.browser
def test_hash_opens_and_follows_a_shared_state(context: BrowserContext, site: Site):
    lang = LANGUAGES[-1]
    page, watch = open_page(
        context, site, f"{PREFIX[lang]}{SLUG}.html#query=mean&epsilon=0.2&releases=12"
    )
    page.wait_for_selector(READY, state="attached")
    state = {"query": 1, "epsilon": 2, "releases": 11}
    assert point_of(state) == {"query": "mean", "epsilon": 0.2, "releases": 12}
    wait_for_point(page, state)
    assert_shows(page, state, lang)
    assert page.locator("input[data-param=query][value='1']").is_checked()
    assert page.locator("output[data-output=epsilon]").inner_text() == "0.2"
    assert page.locator("output[data-output=releases]").inner_text() == "12"

    # Editing the hash by hand (or following a shared link on the same page) moves everything.
    page.evaluate("location.hash = 'query=count&epsilon=5&releases=1'")
    state = {"query": 0, "epsilon": 6, "releases": 0}
    wait_for_point(page, state)
    assert_shows(page, state, lang)
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
        assert readouts["answer_unit"] == python_readouts(default_state(), lang)["answer_unit"]
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
        expected = python_readouts(default_state(), lang)
        readouts = page.locator("[data-readout]")
        assert readouts.count() > 0
        for readout in readouts.all():
            name = readout.get_attribute("data-readout")
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
          return {mathml: m instanceof MathMLElement, width: box.width, height: box.height};
        })"""
    )
    assert maths, "no <math> on the lesson page"
    for number, math_box in enumerate(maths):
        assert math_box["mathml"], f"<math> #{number} is not a MathML element"
        assert math_box["width"] > 0 and math_box["height"] > 0, f"<math> #{number}: {math_box}"
    faces = page.evaluate(
        """async () => {
          await document.fonts.ready;
          return Array.from(document.fonts).map(f => [f.family.replace(/["']/g, ""), f.status]);
        }"""
    )
    assert ["Noto Sans Math", "loaded"] in faces, faces
    watch.assert_clean("MathML")
