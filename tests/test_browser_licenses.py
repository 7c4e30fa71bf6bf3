"""Lesson 04 in headless Chromium: drop-down lists, live verdict tables, hash, no JavaScript.

Every test runs on the built course opened from disk and served under a sub-path
(the ``site`` fixture). What the page shows is checked against the page data and
against :func:`compute.licensing.evaluate`, run here.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from lessonpage import PREFIX, TIMEOUT_MS, LessonPage, Site, by_turns, open_page
from playwright.sync_api import Browser, BrowserContext, Page

from privacy_explorer.compute import licensing
from privacy_explorer.compute.lessons import licenses as lic
from privacy_explorer.compute.lessons import licenses_charts
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import builtin_templates_dir

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
        "adaptation": list(v.adaptation_licenses + v.code_licenses + v.data_licenses),
    }


# (parameter, key or "click", the value index it leads to); selects are set by value.
STEPS: list[tuple[str, str, int]] = [
    ("data", "click", INDEX["data"]["CC-BY-NC-4.0"]),  # NC with commercial use: not allowed
    ("commercial", "click", 0),  # the same, non-commercial: NC weights fit either reading
    ("data", "click", INDEX["data"]["CC-BY-ND-4.0"]),  # ND data adapted: needs review
    ("data", "click", INDEX["data"]["CC0-1.0"]),
    ("model", "click", INDEX["model"]["CC-BY-SA-4.0"]),
    ("code", "click", INDEX["code"]["GPL-3.0-only"]),  # BY-SA into GPLv3: allowed, GPL only
    ("code", "click", INDEX["code"]["CC-BY-NC-4.0"]),  # BY-SA weights, NC code: two works, allowed
    ("combination", "click", 2),  # the data adapted and shared: licences for the data
    ("combination", "ArrowLeft", 1),
    ("combination", "ArrowLeft", 0),  # the same two in a collection: allowed
    ("share", "click", 0),
    ("model", "click", INDEX["model"]["LicenseRef-Llama-3-Community"]),
    ("over_700m_users", "click", 1),  # Llama 3 §2 above 700M users: needs permission
    ("model", "click", INDEX["model"]["CC-BY-SA-4.0"]),  # without Llama the threshold is moot
    ("code", "click", INDEX["code"]["NOASSERTION"]),  # unknown: needs permission
]


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_selectors_switch_the_verdict_to_what_evaluate_says(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = LICENSES.open(context, site, lang)
    # The verdict map is the page's one chart; assert_shows checks that its params follow.
    assert page.evaluate("typeof window.vegaEmbed") == "function", "the verdict map needs Vega"
    assert {name for name, _, _ in STEPS} == set(lic.GRID.names), "every control is moved"
    # Three labelled drop-down lists holding every licence; the rest are radio buttons.
    for name in ("data", "model", "code"):
        assert page.locator(f"select[data-param={name}]").first.locator("option").count() == len(
            licensing.LICENSES
        )
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
    page.locator("select[data-param=model]").first.focus()
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
        "&over_700m_users=false"
    )
    page, watch = LICENSES.open(context, site, lang, hash_)
    state = {
        "data": INDEX["data"]["CC-BY-ND-4.0"],
        "model": INDEX["model"]["Apache-2.0"],
        "code": INDEX["code"]["MIT"],
        "commercial": 0,
        "share": 1,
        "combination": 1,
        "over_700m_users": 0,
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


# --- "What changed" and the table chunks ----------------------------------------------------

STRINGS = yaml.safe_load((builtin_templates_dir() / "strings.yml").read_text("utf-8"))
COMPARED = ("status", "adaptation_licenses", "conditions", "reasons")
"""What the page's {{< changes >}} compares, in its order."""


def verdict_tables(state: dict[str, int], lang: str) -> dict[str, list[list[str]]]:
    """The conditions and reasons tables at ``state``, from evaluate() itself."""
    point = LICENSES.point_of(state)
    verdict = licensing.evaluate(**point)
    rows = lic.verdict_rows(verdict, {name: point[name] for name in ("data", "model", "code")})
    tables = {t.name: t for t in lic.TABLES}
    return {name: [tables[name].cells(row, lang) for row in rows[name]] for name in rows}


def expected_changes(before: dict[str, int], after: dict[str, int], lang: str) -> list[str]:
    """The lines the view must show for a change from ``before`` to ``after``."""
    labels = {r.name: r.label[lang] for r in lic.READOUTS}
    columns = {t.name: [c.label[lang] for c in t.columns] for t in lic.TABLES}
    readouts = (LICENSES.python_readouts(before, lang), LICENSES.python_readouts(after, lang))
    tables = (verdict_tables(before, lang), verdict_tables(after, lang))
    lines = []
    for name in COMPARED:
        if name in labels:
            if readouts[0][name] != readouts[1][name]:
                lines.append(f"{labels[name]}: {readouts[0][name]} \u2192 {readouts[1][name]}")
            continue
        before_rows, after_rows = tables[0][name], tables[1][name]

        def text(row: list[str], name: str = name) -> str:
            return "; ".join(f"{c}: {cell}" for c, cell in zip(columns[name], row, strict=True))

        def partner(row: list[str], rows: list[list[str]], own: list[list[str]]) -> Any:
            """The row of ``rows`` that the first cell names, when it names one on each side."""
            same = [other for other in rows if other[0] == row[0]]
            if len(same) == 1 and sum(other[0] == row[0] for other in own) == 1:
                return same[0]
            return None

        was, now = [text(r) for r in before_rows], [text(r) for r in after_rows]
        for row in after_rows:
            if text(row) in was:
                continue
            old = partner(row, before_rows, after_rows)
            if old is None:
                lines.append(f"{STRINGS['changes_added'][lang]} \u2014 {text(row)}")
                continue
            moved = [
                f"{columns[name][c]}: {old[c]} \u2192 {cell}"
                for c, cell in enumerate(row)
                if c and cell != old[c]
            ]
            head = f"{columns[name][0]}: {row[0]}"
            lines.append(f"{STRINGS['changes_changed'][lang]} \u2014 {head}; " + "; ".join(moved))
        for row in before_rows:
            if text(row) not in now and partner(row, after_rows, before_rows) is None:
                lines.append(f"{STRINGS['changes_removed'][lang]} \u2014 {text(row)}")
    return lines


def shown_changes(page: Page, before: dict[str, int], after: dict[str, int]) -> dict[str, Any]:
    page.wait_for_function(
        "([from, key]) => { const v = document.querySelector('[data-changes]');"
        " return v.dataset.from === from && v.dataset.point === key; }",
        arg=[LICENSES.key_of(before), LICENSES.key_of(after)],
        timeout=TIMEOUT_MS,
    )
    return page.evaluate(
        """() => {
          const view = document.querySelector("[data-changes]");
          const state = view.querySelector("[data-changes-state]");
          return {
            lines: Array.from(view.querySelectorAll("[data-changes-list] li"))
              .map(li => li.textContent),
            listHidden: view.querySelector("[data-changes-list]").hidden,
            state: state.hidden ? null : state.textContent,
            busy: document.querySelectorAll("[aria-busy]").length,
          };
        }"""
    )


def announced(page: Page, key: str) -> str:
    page.wait_for_function(
        "key => document.querySelector('[data-announcer]').dataset.point === key",
        arg=key,
        timeout=TIMEOUT_MS,
    )
    return str(page.locator("[data-announcer]").text_content())


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_what_changed_compares_the_two_settings_as_evaluate_does(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = LICENSES.open(context, site, lang)
    view = page.locator("[data-changes]")
    assert view.locator("[data-changes-state]").inner_text() == STRINGS["changes_start"][lang]
    assert view.get_attribute("aria-live") is None  # the page's one polite region speaks
    before = LICENSES.default_state()
    steps = [
        ("data", INDEX["data"]["CC-BY-NC-4.0"]),  # allowed -> not allowed, NC comes in
        ("commercial", 0),  # not allowed -> needs review
        ("data", INDEX["data"]["CC-BY-SA-4.0"]),
    ]
    verdicts = set()
    for name, index in steps:
        LICENSES.move(page, name, "click", index)
        after = {**before, name: index}
        LICENSES.wait_for_point(page, after)
        shown = shown_changes(page, before, after)
        expected = expected_changes(before, after, lang)
        assert shown["lines"] == expected, (name, index)
        assert shown["state"] is None and not shown["listHidden"] and not shown["busy"]
        old, new = (licensing.evaluate(**LICENSES.point_of(s)) for s in (before, after))
        if old.status != new.status:
            labels = (lic.STATUS_LABELS[old.status][lang], lic.STATUS_LABELS[new.status][lang])
            line = f"{lic.READOUTS[0].label[lang]}: {labels[0]} \u2192 {labels[1]}"
            assert line in shown["lines"]
            verdicts.add((old.status, new.status))
        added = {c.code for c in new.conditions} - {c.code for c in old.conditions}
        for code in added:  # a new condition is named, by the checker's own words
            assert any(licensing.CONDITIONS[code][lang] in line for line in shown["lines"])
        # The polite region says the change and then the same lines.
        assert expected[0] in announced(page, LICENSES.key_of(after))
        before = after
    assert len(verdicts) >= 2
    # A change that moves nothing compared says so, and the list goes.
    name, index = next(
        (p.name, i)
        for p in lic.GRID.params
        for i in range(len(p.values))
        if i != before[p.name] and not expected_changes(before, {**before, p.name: i}, lang)
    )
    LICENSES.move(page, name, "click", index)
    after = {**before, name: index}
    LICENSES.wait_for_point(page, after)
    shown = shown_changes(page, before, after)
    assert shown == {"lines": [], "listHidden": True, "state": STRINGS["changes_none"][lang],
                     "busy": 0}  # fmt: skip
    assert STRINGS["changes_none"][lang] in announced(page, LICENSES.key_of(after))
    watch.assert_clean("what changed")


HOLD_TABLE_CHUNKS = """() => {
  // Table chunks arrive only when the test says so: a slow network, made deterministic.
  const append = document.head.appendChild.bind(document.head);
  window.heldChunks = [];
  document.head.appendChild = node => {
    if (/data\\/04-licenses\\.[a-z]{2}\\.\\d+\\.js$/.test(node.getAttribute("src") || "")) {
      window.heldChunks.push(() => append(node));
      return node;
    }
    return append(node);
  };
}"""


@pytest.mark.browser
def test_tables_wait_busy_with_their_rows_until_their_chunk_is_here(
    context: BrowserContext, site: Site
):
    lang = LANGUAGES[0]
    page, watch = LICENSES.open(context, site, lang)
    # Opening the page loads no table chunk: the default point's rows are in the HTML.
    assert not [url for url in watch.requests if f"{SLUG}.{lang}." in url.rsplit("/", 1)[-1]
                and url.endswith(".js") and not url.endswith(f"{SLUG}.{lang}.js")]  # fmt: skip
    before = LICENSES.default_state()
    shown_before = shown_verdict(page)
    page.evaluate(HOLD_TABLE_CHUNKS)
    after = {**before, "data": INDEX["data"]["NONE"]}
    LICENSES.move(page, "data", "click", after["data"])
    page.wait_for_function("() => window.heldChunks.length > 0")
    # The readouts follow at once; the tables keep the rows they had, marked busy.
    assert (
        page.locator("[data-readout=status]").text_content()
        == expected_verdict(after, lang)["status"]
    )
    assert shown_verdict(page)["reasons"] == shown_before["reasons"]
    busy = page.evaluate(
        "Array.from(document.querySelectorAll('[aria-busy=true]')).map(e => "
        "e.dataset.table || 'changes')"
    )
    assert sorted(busy) == ["adaptation", "changes", "conditions", "reasons"]
    assert page.evaluate("document.querySelector('article').dataset.point") != LICENSES.key_of(
        after
    )
    page.evaluate("() => { window.heldChunks.forEach(release => release()); }")
    LICENSES.wait_for_point(page, after)
    assert shown_verdict(page) == expected_verdict(after, lang)
    assert page.locator("[aria-busy]").count() == 0
    assert shown_changes(page, before, after)["lines"] == expected_changes(before, after, lang)
    watch.assert_clean("held table chunks")


@pytest.mark.browser
def test_tables_whose_chunk_cannot_load_say_so_instead_of_showing_old_rows(
    context: BrowserContext, site: Site, tmp_path: Path
):
    lang = LANGUAGES[-1]
    page, watch = LICENSES.open(context, site, lang)
    chunks = sorted((site.folder / "assets" / "data").glob(f"{SLUG}.{lang}.[0-9]*.js"))
    assert chunks
    for chunk in chunks:
        shutil.move(chunk, tmp_path / chunk.name)
    try:
        after = {**LICENSES.default_state(), "data": INDEX["data"]["NONE"]}
        LICENSES.move(page, "data", "click", after["data"])
        LICENSES.wait_for_point(page, after)
    finally:
        for chunk in chunks:
            shutil.move(tmp_path / chunk.name, chunk)
    failed = page.evaluate("document.querySelector('[data-lesson]').dataset.tableFailed")
    assert failed == STRINGS["table_failed"][lang]
    for name in lic.LAZY:
        rows = page.locator(f"[data-table={name}] tbody tr").all_inner_texts()
        assert [row.strip() for row in rows] == [failed], name
    # The readouts still follow the controls; the comparison says it has nothing to compare.
    assert (
        page.locator("[data-readout=status]").text_content()
        == expected_verdict(after, lang)["status"]
    )
    state = page.locator("[data-changes] [data-changes-state]")
    page.wait_for_function(
        "text => document.querySelector('[data-changes-state]').textContent === text",
        arg=failed,
    )
    assert state.is_visible() and page.locator("[aria-busy]").count() == 0
    problems = [p for p in watch.problems if f"/assets/data/{SLUG}.{lang}." not in p]
    assert problems == []


NARROW_LISTS = """name => {
  // Each panel of the chart's narrow layout: its title lines, and per licence named on its
  // axis the colour of the bar level with the name and whether that bar is outlined.
  const figure = document.querySelector(`figure[data-chart='${name}']`);
  const view = figure.querySelector("[data-chart-view]");
  const middle = el => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
  const level = (paths, y) => paths.find(p => {
    const r = p.getBoundingClientRect();
    return r.top <= y && y <= r.bottom;
  });
  const panels = Array.from(figure.querySelectorAll(".chart-live svg g.role-scope"))
    .filter(g => /concat_\\d+_group/.test(g.getAttribute("class")))
    .map(panel => {
      const paths = selector => Array.from(panel.querySelectorAll(selector));
      const bars = paths("g[class*='layer_0_marks'] path, g.role-mark:not([class*='layer']) path");
      const outline = paths("g[class*='layer_1_marks'] path");
      return {
        title: Array.from(panel.querySelectorAll(".role-title-text tspan")).map(t => t.textContent),
        lines: Array.from(panel.querySelectorAll(".role-axis-label text")).map(label => ({
          licence: label.textContent,
          fill: level(bars, middle(label))?.getAttribute("fill") ?? null,
          outlined: Boolean(outline.length && level(outline, middle(label))),
        })),
      };
    });
  const scrolls = view.scrollWidth > view.clientWidth;
  return {panels, scrolls, fits: view.scrollWidth <= innerWidth};
}"""


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_on_a_phone_the_maps_are_the_current_row_and_column_as_evaluate_says(
    browser: Browser, site: Site, lang: str
):
    """Issue 22 §4: at 390 px the 14 × 14 maps give way to lists that need no sideways scroll:
    the verdict map to the current data licence's row and model licence's column, the merge
    map to the current data licence's row, each verdict as evaluate() gives it here."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(TIMEOUT_MS)
    colours = {colour.lower(): status for status, colour in licenses_charts.STATUS_COLOURS.items()}
    try:
        page, watch = LICENSES.open(context, site, lang)
        state = LICENSES.default_state()
        for step in (
            None,
            ("model", INDEX["model"]["CC-BY-ND-4.0"]),
            ("data", INDEX["data"]["NONE"]),
        ):
            if step is not None:
                LICENSES.move(page, step[0], "click", step[1])
                state = {**state, step[0]: step[1]}
                LICENSES.wait_for_point(page, state)
            point = LICENSES.point_of(state)
            shown = page.evaluate(NARROW_LISTS, "verdict_map")
            assert not shown["scrolls"] and shown["fits"], shown
            row, column = shown["panels"]
            assert point["data"] in row["title"][0] and point["model"] in column["title"][0]
            for panel, varied in ((row, "model"), (column, "data")):
                assert [line["licence"] for line in panel["lines"]] == list(licensing.LICENSES)
                for line in panel["lines"]:
                    verdict = licensing.evaluate(**{**point, varied: line["licence"]})
                    assert colours[line["fill"].lower()] == verdict.status, (varied, line)
                outlined = [line["licence"] for line in panel["lines"] if line["outlined"]]
                assert outlined == [point[varied]], panel
            merges = page.evaluate(NARROW_LISTS, "merge_map")
            assert not merges["scrolls"] and merges["fits"], merges
            (merge,) = merges["panels"]
            assert point["data"] in merge["title"][0]
            for line in merge["lines"]:
                verdict = licensing.evaluate(
                    point["data"],
                    "Apache-2.0",
                    "MIT",
                    commercial=point["commercial"],
                    share=point["share"],
                    combination="adapt_data",
                    second_data=line["licence"],
                )
                assert colours[line["fill"].lower()] == verdict.status, line
        watch.assert_clean("verdict lists on a phone")
    finally:
        context.close()
