"""Weight and speed in Chromium: what a lesson page fetches, and charts updated in place.

The first-load weight that the budget test and ``make bench`` compute
(:func:`privacy_explorer.weight.first_load_weight`) must be what a browser
really fetches; and moving a control must update each chart's existing Vega view
(``view.data(...)``, ``view.signal(...)``, ``runAsync()``), never embed it again, and
leave a chart alone when neither its rows nor its signals changed.
Charts on screen are redrawn first, the others after the next frame; once the page records a
state, all of them show it. Times are measured in ``make bench``, not asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lessonpage import (
    MOVE_CONTROL,
    PREFIX,
    READY,
    TIMEOUT_MS,
    Site,
    by_turns,
    on_one_transport,
    open_page,
    settle,
)
from playwright.sync_api import BrowserContext

from privacy_explorer import weight
from privacy_explorer.build import BuildReport
from privacy_explorer.lesson import LANGUAGES

COUNT_EMBEDS = """(() => {
  // Counts every call of vegaEmbed, however the Vega bundle defines it.
  let embed;
  window.__embedCalls = 0;
  Object.defineProperty(window, "vegaEmbed", {
    configurable: true,
    get() { return embed; },
    set(original) {
      embed = function () { window.__embedCalls += 1; return original.apply(this, arguments); };
      Object.assign(embed, original);
    },
  });
})();"""

REMEMBER_CHARTS = """() => {
  const lesson = window.explorerLesson;
  const figures = Array.from(document.querySelectorAll("figure[data-chart]"));
  window.__before = {
    views: Object.assign({}, lesson.views),
    svgs: figures.map(f => f.querySelector(".chart-live svg")),
    pictures: figures.map(f => f.querySelector(".chart-live svg").outerHTML),
  };
  return figures.length;
}"""

COMPARE_CHARTS = """() => {
  const lesson = window.explorerLesson;
  const before = window.__before;
  const figures = Array.from(document.querySelectorAll("figure[data-chart]"));
  return figures.map((f, i) => ({
    name: f.dataset.chart,
    sameView: lesson.views[f.dataset.chart] === before.views[f.dataset.chart],
    sameSvg: f.querySelector(".chart-live svg") === before.svgs[i] && before.svgs[i].isConnected,
    liveSvgs: f.querySelectorAll(".chart-live svg").length,
    changed: f.querySelector(".chart-live svg").outerHTML !== before.pictures[i],
  }));
}"""


def lesson_pages(report: BuildReport) -> list[str]:
    return [f"{PREFIX[lang]}{slug}.html" for slug in report.lessons for lang in LANGUAGES]


@pytest.mark.browser
@on_one_transport("http")
def test_ten_control_changes_update_every_chart_in_place(
    context: BrowserContext, site: Site, course_site: tuple[Path, BuildReport]
):
    context.add_init_script(COUNT_EMBEDS)
    lessons = lesson_pages(course_site[1])[::2]  # each lesson, in the first language
    assert len(lessons) == len(course_site[1].lessons) and course_site[1].lessons
    for path in lessons:
        page, watch = open_page(context, site, path)
        page.wait_for_selector(READY, state="attached")
        charts = page.evaluate(REMEMBER_CHARTS)  # 0 in lesson 04: its tables follow alone
        assert page.evaluate("window.__embedCalls") == charts, f"{path}: one embed per chart"
        moved = set()
        for step in range(10):
            moved.add(page.evaluate(MOVE_CONTROL, step))
            # The runtime measures each finished update (input event to every chart redrawn).
            page.wait_for_function(
                """count => performance.getEntriesByName("explorer:update").length === count
                  && document.querySelector("article[data-lesson]").dataset.point
                     === window.explorerLesson.key()""",
                arg=step + 1,
                timeout=TIMEOUT_MS,
            )
        charts_after = page.evaluate(COMPARE_CHARTS)
        assert page.evaluate("window.__embedCalls") == charts, f"{path}: a chart was re-embedded"
        for chart in charts_after:
            assert chart["sameView"] and chart["sameSvg"], f"{path}: {chart}"
            assert chart["liveSvgs"] == 1, f"{path}: {chart}"
        assert any(chart["changed"] for chart in charts_after) or not charts, f"{path}: no chart"
        assert moved == set(page.evaluate("window.explorerLesson.params.map(p => p.name)"))
        page.wait_for_function(
            'performance.getEntriesByName("explorer:paint").length === 10', timeout=TIMEOUT_MS
        )
        watch.assert_clean(path)
        page.close()


CHART_INPUTS = """() => {
  // What each chart is given at the current point: its dataset ids and its signals' values.
  const lesson = window.explorerLesson;
  const point = lesson.data.points[lesson.key()];
  const inputs = {};
  Object.keys(lesson.views).forEach(name => {
    const chart = lesson.data.charts[name];
    inputs[name] = {
      ids: chart.datasets.map(d => point.d[d]),
      signals: chart.signals.map(s => lesson.state[s]),
      runs: lesson.runs[name] || 0,
    };
  });
  return inputs;
}"""


@pytest.mark.browser
@on_one_transport("file")
def test_a_chart_runs_only_when_its_rows_or_signals_change(
    context: BrowserContext, site: Site, course_site: tuple[Path, BuildReport]
):
    checked: dict[str, set[bool]] = {}
    for path in lesson_pages(course_site[1])[::2]:
        page, watch = open_page(context, site, path)
        page.wait_for_selector(READY, state="attached")
        before = page.evaluate(CHART_INPUTS)
        for step in range(12):
            moved = page.evaluate(MOVE_CONTROL, step)
            page.wait_for_function(
                """count => performance.getEntriesByName("explorer:update").length === count
                  && document.querySelector("article[data-lesson]").dataset.point
                     === window.explorerLesson.key()""",
                arg=step + 1,
                timeout=TIMEOUT_MS,
            )
            after = page.evaluate(CHART_INPUTS)
            for name, now in after.items():
                was = before[name]
                changed = now["ids"] != was["ids"] or now["signals"] != was["signals"]
                runs = now["runs"] - was["runs"]
                assert runs == int(changed), (
                    f"{path}: moving {moved} ran chart {name} {runs} times, its rows or "
                    f"signals {'changed' if changed else 'did not change'}: {was} -> {now}"
                )
                checked.setdefault(path, set()).add(changed)
            before = after
        watch.assert_clean(path)
        page.close()
    # Somewhere a move left a chart alone and somewhere one redrew it: both cases were seen.
    assert {True, False} <= set().union(*checked.values()), checked
    for lesson in ("02-membership-inference.html", "05-synthetic-data-audit.html"):
        assert checked[lesson] == {True, False}, lesson


ORDER_RUNS = """() => {
  // Logs each chart run as it starts: the chart, whether it was on screen then, and whether
  // the update of what is on screen had been measured already.
  const lesson = window.explorerLesson;
  window.__runs = [];
  Object.entries(lesson.views).forEach(([name, view]) => {
    const run = view.runAsync.bind(view);
    view.runAsync = () => {
      window.__runs.push({
        name,
        onScreen: lesson.inView[name],
        measured: performance.getEntriesByName("explorer:update").length,
      });
      return run();
    };
  });
}"""

SHOWS_THE_STATE = """() => {
  // Every chart holds the rows and signals of the current point.
  const lesson = window.explorerLesson;
  const point = lesson.data.points[lesson.key()];
  return Object.keys(lesson.views).filter(name => {
    const chart = lesson.data.charts[name];
    const shown = lesson.shown[name] || {};
    return chart.datasets.some(d => point.d[d] !== undefined && shown["d:" + d] !== point.d[d])
      || chart.signals.some(s => {
        const param = lesson.params.find(p => p.name === s);
        return shown["s:" + s] !== param.values[lesson.state[s]];
      });
  });
}"""


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_charts_on_screen_are_redrawn_before_the_others(
    context: BrowserContext, site: Site, lang: str
):
    path = f"{PREFIX[lang]}05-synthetic-data-audit.html"
    page, watch = open_page(context, site, path)
    page.wait_for_selector(READY, state="attached")
    # The learner looks at the controls: the charts below them are on screen, the rest not.
    page.evaluate('document.querySelector("form.controls").scrollIntoView({block: "start"})')
    page.wait_for_function(
        """() => { const seen = Object.values(window.explorerLesson.inView);
                   return seen.includes(true) && seen.includes(false); }"""
    )
    page.evaluate(ORDER_RUNS)
    seen_both = set()
    for step in range(8):
        page.evaluate(MOVE_CONTROL, step)
        page.wait_for_function(
            """count => performance.getEntriesByName("explorer:update").length === count
              && document.querySelector("article[data-lesson]").dataset.point
                 === window.explorerLesson.key()""",
            arg=step + 1,
        )
        runs = page.evaluate("window.__runs.splice(0)")
        for run in runs:
            # On screen: drawn before the update is measured; off screen: only after it.
            assert run["measured"] == step + int(not run["onScreen"]), (path, step, runs)
            seen_both.add(run["onScreen"])
        # Once the page records the state, every chart shows it, on screen or not.
        assert page.evaluate(SHOWS_THE_STATE) == [], (path, step)
    assert seen_both == {True, False}, f"{path}: both kinds of chart were redrawn"
    watch.assert_clean(path)
    page.close()


@pytest.mark.browser
def test_a_lesson_page_fetches_exactly_what_its_first_load_weight_counts(
    context: BrowserContext, site_server: str, course_site: tuple[Path, BuildReport]
):
    folder, report = course_site
    site = Site(base=site_server, folder=folder)
    for path in lesson_pages(report):
        page, watch = open_page(context, site, path)
        page.wait_for_selector(READY, state="attached")
        settle(page)
        fetched = {
            url.removeprefix(site.base) for url in watch.requests if url.startswith(site.base)
        }
        counted = set(weight.first_load_weight(report.files, path).files)
        assert fetched == counted, f"{path}: fetched {fetched ^ counted} differently"
        assert not [
            url for url in fetched if url.startswith("assets/fonts/") and url.count(".") < 2
        ]
        watch.assert_clean(path)
        page.close()
