"""Helpers for browser tests of lesson pages: open a page, watch it, compare it with compute().

A :class:`LessonPage` wraps one lesson module and its slug. It knows what the page
must show at a grid point from two sources that must agree: the page data the build
wrote (read in the browser) and the module's own ``compute()``, run here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Frame, Page, Response

from privacy_explorer.lesson import LANGUAGES, Grid
from privacy_explorer.plan import plan
from privacy_explorer.project import Project
from privacy_explorer.provenance import verify_data_files
from privacy_explorer.runner import run_grid, run_study

PREFIX = {lang: "" if i == 0 else f"{lang}/" for i, lang in enumerate(LANGUAGES)}
"""Where each language's pages sit, relative to the site root."""
TIMEOUT_MS = 15_000
READY = "article[data-lesson][data-ready='true']"

TRANSPORTS = ("file", "http")
"""How the ``site`` fixture reaches the course: from disk, or served on 127.0.0.1."""


def by_turns(name: str, values: Sequence[str]) -> pytest.MarkDecorator:
    """Parametrize ``name`` over ``values``, each with one transport (``site``) by turns.

    For a test of what a page does once it is loaded (controls, charts, layout, the
    announcer), which the transport cannot change: every value runs once rather than once
    per transport, and both transports still run. Loading, links, requests and lazy chunks
    keep the whole file:// × http matrix (the ``site`` fixture's own parameters). Over
    lesson pages (``ko``, ``en`` of each lesson) the turns alternate by lesson too, so each
    lesson and each language meets both.
    """
    pairs = [(value, TRANSPORTS[(i + i // 2) % 2]) for i, value in enumerate(values)]
    return pytest.mark.parametrize((name, "site"), pairs, indirect=["site"])


def on_one_transport(transport: str) -> pytest.MarkDecorator:
    """Run a test over ``transport`` alone (``"file"`` or ``"http"``), not both.

    For a test of what a loaded page does that has no parameter to take turns over (see
    :func:`by_turns`): the transport cannot change it, so one run checks all of it. Spread
    the tests over both transports, so that each still meets file:// and http.
    """
    assert transport in TRANSPORTS, transport
    return pytest.mark.parametrize("site", [transport], indirect=True)


State = dict[str, int]
"""A grid point as value indices by parameter name, as the page keys it."""


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


def touch_drag(page: Page, points: Sequence[tuple[float, float]]) -> None:
    """A finger pressed at the first of ``points`` (CSS px in the window), moved through the
    others and lifted, as a touch screen sends it (the context needs ``has_touch``)."""
    session = page.context.new_cdp_session(page)
    try:
        for number, (x, y) in enumerate(points):
            kind = "touchMove" if number else "touchStart"
            session.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]}
            )
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        session.detach()


def settle(page: Page) -> None:
    """Wait until fonts and images have finished loading."""
    page.wait_for_function(
        "Array.from(document.images).every(image => image.complete)", timeout=TIMEOUT_MS
    )
    page.evaluate("async () => { await document.fonts.ready; }")


def assert_rows_close(actual: list[dict[str, Any]], expected: list[dict[str, Any]], what: str):
    """Rows equal field by field, floats to 1e-9 relative."""
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
    selects: Array.from(article.querySelectorAll("select[data-param]")).map(s => ({
      name: s.dataset.param, value: s.value,
    })),
    // Tables that follow the controls: the cell texts of each body row.
    tables: Object.fromEntries(Array.from(article.querySelectorAll("[data-table][data-live]"))
      .map(t => [t.dataset.table, Array.from(t.querySelectorAll("tbody tr:not(.empty-row)"))
        .map(tr => Array.from(tr.cells).map(cell => cell.textContent))])),
  };
}"""


CHART_TEXT_CLASHES = """() => Array.from(document.querySelectorAll("figure[data-chart]")).map(f => {
  // Text a reader cannot read whole: cut by the chart's visible box (or its own SVG), or
  // overprinting another chart text by more than a fifth of the smaller one's area.
  const svg = f.querySelector(".chart-live svg");
  if (!svg) return { chart: f.dataset.chart, cut: [], overprinted: [] };
  const view = f.querySelector("[data-chart-view]").getBoundingClientRect();
  const drawn = svg.getBoundingClientRect();
  const left = Math.max(view.left, drawn.left), right = Math.min(view.right, drawn.right);
  const top = drawn.top, bottom = drawn.bottom;
  const texts = Array.from(svg.querySelectorAll("text"))
    .filter(t => t.textContent.trim() && t.getClientRects().length)
    .map(t => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const cut = texts.filter(({ box }) => box.left < left - 0.5 || box.right > right + 0.5
    || box.top < top - 0.5 || box.bottom > bottom + 0.5).map(t => t.text);
  const overprinted = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
    const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
    const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
    const smaller = Math.min(a.box.width * a.box.height, b.box.width * b.box.height);
    if (w > 0 && h > 0 && w * h > smaller / 5) overprinted.push([a.text, b.text]);
  }));
  return { chart: f.dataset.chart, cut, overprinted };
})"""
"""Per chart of a page: its texts cut by the chart's box, and the pairs of texts that overprint."""


# One control change, as a learner makes it: the next value of control number `step` (taken in
# turn), then its event. Returns the parameter's name. The browser tests and `make bench` use it.
MOVE_CONTROL = """step => {
  const article = document.querySelector("article[data-lesson]");
  const names = Array.from(new Set(
    Array.from(article.querySelectorAll("[data-param]")).map(i => i.dataset.param)));
  const name = names[step % names.length];
  const inputs = Array.from(article.querySelectorAll(`[data-param="${name}"]`));
  const input = inputs[0];
  if (input.type === "radio") {
    const now = inputs.findIndex(i => i.checked);
    const next = inputs[(now + 1) % inputs.length];
    next.checked = true;
    next.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (input.tagName === "SELECT") {
    input.selectedIndex = (input.selectedIndex + 1) % input.options.length;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  } else {
    const top = Number(input.max);
    const next = Number(input.value) >= top ? Number(input.min) : Number(input.value) + 1;
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  return name;
}"""


@dataclass(frozen=True)
class BuiltResults:
    """Every grid (and study) point's result of one lesson, as the session's build stored them."""

    grid: dict[str, Any]
    """Grid key -> result."""
    study: dict[str, Any] | None
    """Study key -> value, for a module with a ``STUDY``."""


_BUILT_IN: list[Project] = []


def use_built_results(project: Project) -> None:
    """Let :class:`LessonPage` read whole-grid results from ``project``'s result cache.

    Called by the ``course_site`` fixture once the session's build has filled the cache.
    """
    _BUILT_IN[:] = [project]


@functools.cache
def built_results(slug: str) -> BuiltResults:
    """The lesson's results from the session build's cache, each checked as the build checks it.

    Recomputing a whole grid here would repeat the build's work (minutes for lesson 02's
    1,188 trainings) in every test process; the points a test visits are still computed
    afresh by ``compute()`` and compared with what the page shows.
    """
    assert _BUILT_IN, "built_results needs the course_site fixture"
    project = _BUILT_IN[0]
    (item,) = plan(project, slug).lessons
    module = item.module
    assert module is not None, slug
    checksums = verify_data_files(project.data_dir, module.data_files, project.root)
    arguments = (slug, module, checksums, project.build_dir / "results", project.root)
    run = run_grid(*arguments)
    assert run.computed == 0, f"{slug}: {run.computed} points were not in the session's cache"
    study = run_study(*arguments).results if module.study_grid is not None else None
    return BuiltResults(run.results, study)


class LessonPage:
    """One lesson: its module (the reference) and its page (what the learner sees)."""

    def __init__(self, module: ModuleType, slug: str) -> None:
        self.module = module
        self.slug = slug
        self.grid: Grid = module.GRID
        self._results = functools.cache(self._compute)

    def path(self, lang: str) -> str:
        """The page's path relative to the site root."""
        return f"{PREFIX[lang]}{self.slug}.html"

    def open(
        self, context: BrowserContext, site: Site, lang: str, hash_: str = ""
    ) -> tuple[Page, Watch]:
        """Open the page in ``lang`` (at ``#hash_`` if given) and wait until it is interactive."""
        path = self.path(lang) + (f"#{hash_}" if hash_ else "")
        page, watch = open_page(context, site, path)
        page.wait_for_selector(READY, state="attached")
        return page, watch

    def key_of(self, state: State) -> str:
        return "-".join(str(state[p.name]) for p in self.grid.params)

    def point_of(self, state: State) -> dict[str, Any]:
        return {p.name: p.values[state[p.name]] for p in self.grid.params}

    def default_state(self) -> State:
        return {p.name: p.default_index for p in self.grid.params}

    def _compute(self, key: str) -> dict[str, Any]:
        indices = [int(i) for i in key.split("-")]
        point = {p.name: p.values[i] for p, i in zip(self.grid.params, indices, strict=True)}
        return self.module.compute(**point)

    def python_result(self, state: State) -> dict[str, Any]:
        """``compute()`` of the module at ``state``, run here rather than read from the page."""
        return self._results(self.key_of(state))

    @functools.cached_property
    def summary(self) -> dict[str, list[dict[str, Any]]]:
        """The module's whole-grid datasets: its own ``summarize``, run here over every point.

        The points' results (and a ``STUDY``'s values) are the ones the session's build
        computed and cached (:func:`built_results`); ``summarize`` itself runs here.
        """
        summarize = getattr(self.module, "summarize", None)
        if summarize is None:
            return {}
        built = built_results(self.slug)
        if built.study is None:
            return summarize(built.grid)
        return summarize(built.grid, built.study)

    def python_readouts(self, state: State, lang: str) -> dict[str, str]:
        readouts = self.python_result(state)["readouts"]
        return {r.name: r.text(readouts[r.name], lang) for r in self.module.READOUTS}

    def wait_for_point(self, page: Page | Frame, state: State) -> None:
        page.wait_for_function(
            "key => document.querySelector('article[data-lesson]').dataset.point === key",
            arg=self.key_of(state),
            timeout=TIMEOUT_MS,
        )

    def read(self, page: Page | Frame) -> dict[str, Any]:
        """Everything the page shows: controls, readouts, chart views and their SVGs.

        A chart over a whole-grid dataset (from ``summarize``) gets it once with its
        spec, so the page data has no per-point id for it; such datasets are listed
        under ``summary:NAME`` with the rows ``summarize`` gives here, so that every
        check below treats them like the per-point ones.
        """
        shown = page.evaluate(PAGE_STATE, self.slug)
        whole_grid = {
            dataset
            for view in shown["views"].values()
            for dataset in view["data"]
            if dataset not in shown["point"]["d"]
        }
        for name in sorted(whole_grid):
            shown["point"]["d"][name] = f"summary:{name}"
            shown["rows"][f"summary:{name}"] = self.summary[name]
        return shown

    def assert_shows(self, page: Page | Frame, state: State, lang: str) -> dict[str, Any]:
        """Controls, readouts, chart rows, signals and hash show ``state``; returns what it read."""
        shown = self.read(page)
        key = self.key_of(state)
        assert shown["key"] == key

        # Controls: slider positions and their visible texts, the checked radio, the selection.
        for slider in shown["sliders"]:
            param = self.grid.param(slider["name"])
            index = state[param.name]
            assert slider["value"] == str(index), slider
            assert slider["output"] == slider["valuetext"] == param.display(index, lang), slider
        for radio in shown["radios"]:
            assert radio["checked"] == (int(radio["value"]) == state[radio["name"]]), radio
        for select in shown["selects"]:
            assert select["value"] == str(state[select["name"]]), select
        placed = {c["name"] for kind in ("sliders", "radios", "selects") for c in shown[kind]}
        assert placed == set(self.grid.names)

        # Readouts: the page data's texts, and the module's own compute() and formats.
        expected_texts = self.python_readouts(state, lang)
        for name, text in shown["readouts"]:
            assert text == shown["point"]["r"][name], f"readout {name} at {key}"
            assert text == expected_texts[name], f"readout {name} at {key} (compute)"

        # Live tables show this point's rows, as the module's own compute() gives them.
        tables = {t.name: t for t in getattr(self.module, "TABLES", ())}
        for name, rows in shown["tables"].items():
            expected_rows = self.python_result(state)["datasets"][name]
            assert rows == [tables[name].cells(row, lang) for row in expected_rows], (
                f"table {name} at {key}"
            )

        # Each chart's Vega view holds this point's rows; its signals hold the grid values.
        assert shown["tagged"] == 0, "Vega was handed the page data's own rows, not fresh copies"
        datasets = {**self.python_result(state)["datasets"]}
        for view in shown["views"].values():
            for dataset in view["data"]:
                if dataset not in datasets:
                    datasets[dataset] = self.summary[dataset]  # a whole-grid dataset
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
                assert value == self.point_of(state)[signal], f"chart {name}: {signal} at {key}"

        # The URL hash names the state in the parameters' canonical texts.
        # A page opened without a hash keeps it empty until a control moves.
        if shown["hash"] or state != self.default_state():
            pairs = unquote(shown["hash"]).removeprefix("#").split("&")
            texts = {p.name: p.value_texts[state[p.name]] for p in self.grid.params}
            assert dict(pair.partition("=")[::2] for pair in pairs) == texts, shown["hash"]
        return shown

    def instances(self, page: Page, name: str) -> int:
        """How many instances of control ``name`` the page places (one per figure it sits by)."""
        count: int = page.evaluate(
            """name => new Set(Array.from(document.querySelectorAll(`[data-param='${name}']`))
              .map(input => input.closest(".control"))).size""",
            name,
        )
        return count

    def move(self, page: Page, name: str, key: str, index: int, instance: int = 0) -> None:
        """Move control ``name`` by keyboard ``key`` (or ``"click"`` the value ``index``),
        through its instance number ``instance`` (0: the first on the page).

        A drop-down list is always set to ``index`` with ``select_option``, whatever ``key``.
        """
        widget = self.grid.param(name).resolved_widget
        if widget == "slider":
            page.locator(f"input[type=range][data-param={name}]").nth(instance).focus()
            page.keyboard.press(key)
        elif widget == "select":
            page.locator(f"select[data-param={name}]").nth(instance).select_option(str(index))
        elif key == "click":
            page.locator(f"input[type=radio][data-param={name}][value='{index}']").nth(
                instance
            ).click()
        else:
            page.locator(f"input[type=radio][data-param={name}]:checked").nth(instance).focus()
            page.keyboard.press(key)

    def drive(
        self,
        page: Page,
        site: Site,
        lang: str,
        steps: list[tuple[str, str, int]],
        *,
        every_step_redraws: bool = True,
    ) -> dict[str, Any]:
        """Apply ``steps`` (parameter, key or "click", resulting index) and check every point.

        After each step the page must show the new point on every instance of every
        control, name it in the hash, and redraw exactly the charts whose rows or signals
        changed (and, unless ``every_step_redraws`` is false, at least one chart). The
        steps of a control placed beside several figures go through its instances in turn,
        so a change made at a later figure is seen to move the first instance too.
        Returns the last view.
        """
        params = page.evaluate("slug => window.EXPLORER_DATA[slug].params", self.slug)
        assert [(p["name"], p["values"], p["texts"], p["default"]) for p in params] == [
            (p.name, list(p.values), list(p.value_texts), p.default_index) for p in self.grid.params
        ]
        state = self.default_state()
        before = self.assert_shows(page, state, lang)
        taken: dict[str, int] = {}
        for name, key, index in steps:
            count = self.instances(page, name)
            assert count >= 1, f"control {name} is not on the page"
            self.move(page, name, key, index, taken.get(name, 0) % count)
            taken[name] = taken.get(name, 0) + 1
            state = {**state, name: index}
            self.wait_for_point(page, state)
            after = self.assert_shows(page, state, lang)
            value = self.grid.param(name).value_texts[index]
            assert f"{name}={value}" in after["hash"]
            assert page.url.split("#")[0] == site.url(self.path(lang))
            changing = charts_that_change(before, after)
            if every_step_redraws:
                assert changing, f"{name} {key}: no chart depends on it"
            redrawn = {c for c, svg in after["svg"].items() if svg != before["svg"][c]}
            assert redrawn == changing, f"{name} {key}: charts redrawn {redrawn}, not {changing}"
            before = after
        return before


def charts_that_change(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """Charts whose rows or signals differ between two points."""
    return {
        name
        for name, view in after["views"].items()
        if view["signals"] != before["views"][name]["signals"]
        or any(after["point"]["d"][d] != before["point"]["d"][d] for d in view["data"])
    }
