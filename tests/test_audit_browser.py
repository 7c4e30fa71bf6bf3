"""The audit report in headless Chromium from disk: clean console, no requests, charts drawn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, ViewportSize

from privacy_explorer.audit_cli import audit_library
from privacy_explorer.audit_report import render_report
from privacy_explorer.charts import MIN_FONT_SIZE, svg_text
from privacy_explorer.cli import cli
from privacy_explorer.fonts import missing_characters, shipped_fonts
from privacy_explorer.project import builtin_templates_dir

HOUSING = Path(__file__).resolve().parent.parent / "data" / "synth-mia-housing"


def write_report(out: Path, lang: str, *, nonmembers: bool = True) -> Path:
    args = ["audit", "--members", str(HOUSING / "mem.csv"), "--reference", str(HOUSING / "ref.csv")]
    args += ["--synthetic", str(HOUSING / "synth.csv"), "--out", str(out), "--lang", lang]
    args += ["--attacks", "gen_lra,dcr,mc,dpi", "--k", "5,20"]
    if nonmembers:
        args += ["--nonmembers", str(HOUSING / "non_mem.csv")]
    result = CliRunner().invoke(cli, args, prog_name="explorer")
    assert result.exit_code == 0, result.output
    return out / "report.html"


@pytest.mark.browser
@pytest.mark.parametrize(
    # Two ROC charts with non-members, one score distribution per attack result (five here).
    ("lang", "nonmembers", "charts"),
    [("en", True, 7), ("ko", True, 7), ("en", False, 5)],
)
def test_the_report_opens_offline_with_its_charts_drawn(
    browser: Browser, tmp_path: Path, lang: str, nonmembers: bool, charts: int
):
    report = write_report(tmp_path / "out", lang, nonmembers=nonmembers)
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.as_uri())
    page.wait_for_load_state("load")
    assert requests == [report.as_uri()]
    assert problems == []
    assert page.evaluate("document.documentElement.lang") == lang
    drawn = page.evaluate(
        """() => Array.from(document.querySelectorAll("svg[data-chart]")).map(svg => {
          const box = svg.getBoundingClientRect();
          const lines = Array.from(svg.querySelectorAll(".mark-line path"));
          return {
            name: svg.dataset.chart,
            label: svg.getAttribute("aria-label"),
            width: box.width,
            height: box.height,
            lines: lines.filter(path => (path.getAttribute("d") || "").length > 20).length,
          };
        })"""
    )
    assert len(drawn) == charts
    for chart in drawn:
        assert chart["width"] > 200 and chart["height"] > 150, chart
        assert chart["lines"] > 0 and chart["label"], chart
    context.close()


def test_the_korean_report_carries_its_font_and_draws_no_missing_glyph(tmp_path: Path):
    report = write_report(tmp_path / "out", "ko")
    html = report.read_text("utf-8")
    assert html.count('@font-face{font-family:"Noto Sans KR Explorer"') >= 2  # regular and bold
    fonts = shipped_fonts(builtin_templates_dir())
    for svg in re.findall(r"<svg .*?</svg>", html, flags=re.S):
        assert 'font-family="Noto Sans KR Explorer"' in svg
        assert missing_characters(svg_text(svg), fonts) == []


# ---------------------------------------------------------------------------------------------
# A phone, Korean line breaking, print

PHONE: ViewportSize = {"width": 390, "height": 844}
LAYOUT = """() => {
  const wraps = Array.from(document.querySelectorAll(".table-wrap"))
    .filter(box => box.scrollWidth > box.clientWidth)
    .map(box => box.querySelector("table").className);
  const sizes = [];
  for (const svg of document.querySelectorAll("svg[data-chart]")) {
    const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim() || !text.getClientRects().length) continue;
      sizes.push(parseFloat(getComputedStyle(text).fontSize) * scale);
    }
  }
  return {
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: innerWidth,
    wraps: wraps,
    smallest: Math.min(...sizes),
    texts: sizes.length,
  };
}"""


REPORTS = pytest.mark.xdist_group("audit-reports")
"""The tests of the reports below share one worker, so that the audit behind them runs once."""


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], Path]:
    """The housing audit's report in both languages, without and with --show-records."""
    result = audit_library().run_audit(
        HOUSING / "mem.csv",
        HOUSING / "non_mem.csv",
        HOUSING / "ref.csv",
        HOUSING / "synth.csv",
        attacks=("gen_lra", "dcr", "mc", "dpi"),
        k=(5, 20),
    )
    folder = tmp_path_factory.mktemp("reports")
    paths = {}
    for lang in ("ko", "en"):
        for records in (False, True):
            path = folder / f"{lang}{'-records' if records else ''}.html"
            path.write_text(render_report(result, lang, versions={}, show_records=records), "utf-8")
            paths[lang, records] = path
    return paths


@REPORTS
@pytest.mark.browser
@pytest.mark.parametrize("records", [False, True])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_on_a_phone_nothing_scrolls_sideways_and_chart_text_is_readable(
    browser: Browser, reports: dict[tuple[str, bool], Path], lang: str, records: bool
):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(reports[lang, records].as_uri())
    page.wait_for_load_state("load")
    layout = page.evaluate(LAYOUT)
    assert layout["scrollWidth"] <= layout["innerWidth"] == PHONE["width"], layout
    assert layout["wraps"] == [], layout  # every table reflows; none scrolls inside its box
    assert layout["texts"] > 50 and layout["smallest"] >= MIN_FONT_SIZE, layout
    context.close()


KOREAN_BLOCKS = """() => Array.from(
    document.querySelectorAll("h1, h2, h3, p, li, dt, dd, th, td, caption, figcaption"))
  .filter(block => !block.closest("[lang]").lang.startsWith("en"))
  .filter(block => !block.matches(".hash, code, code *"))
  .map(block => getComputedStyle(block).wordBreak)"""

FRACTION = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf("1/n");
    if (at < 0) continue;
    const width = (start, end) => {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      return range.getBoundingClientRect().width;
    };
    const text = node.data.slice(at, at + 3);
    return {text: text, fraction: width(at, at + 3), n: width(at + 2, at + 3)};
  }
  return null;
}"""


@REPORTS
@pytest.mark.browser
def test_korean_breaks_between_words_and_shows_its_fractions(
    browser: Browser, reports: dict[tuple[str, bool], Path]
):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(reports["ko", True].as_uri())
    page.wait_for_load_state("load")
    breaks = page.evaluate(KOREAN_BLOCKS)
    assert len(breaks) > 100 and set(breaks) == {"keep-all"}
    english = page.locator('.records-warning p[lang="en"]')
    assert english.evaluate("block => getComputedStyle(block).wordBreak") == "normal"
    fraction = page.evaluate(FRACTION)
    assert fraction is not None and fraction["text"] == "1/n"
    assert fraction["fraction"] > 2.2 * fraction["n"] > 0, fraction  # "1", "/" and "n" all drawn
    context.close()


PRINTED = """() => {
  const style = selector => getComputedStyle(document.querySelector(selector));
  return {
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: innerWidth,
    wide: Array.from(document.querySelectorAll("table"))
      .filter(table => table.getBoundingClientRect().width > table.parentElement.clientWidth + 0.5)
      .map(table => table.className),
    nav: style("nav").display,
    headings: Array.from(document.querySelectorAll("h2, h3"))
      .map(heading => getComputedStyle(heading).breakAfter),
    rows: style("tbody tr").breakInside,
    figures: style("figure").breakInside,
    wraps: style(".table-wrap").overflowX,
    header: style("thead").display,
  };
}"""


@REPORTS
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "records"), [("ko", False), ("en", True)])
def test_the_report_prints_without_cut_tables_or_stranded_headings(
    browser: Browser, reports: dict[tuple[str, bool], Path], lang: str, records: bool
):
    # An A4 page at 96 px per inch, less the print stylesheet's margins of 14 mm each side.
    context = browser.new_context(viewport={"width": 688, "height": 1000})
    page = context.new_page()
    page.goto(reports[lang, records].as_uri())
    page.wait_for_load_state("load")
    page.emulate_media(media="print")
    printed = page.evaluate(PRINTED)
    assert printed["scrollWidth"] <= printed["innerWidth"] and printed["wide"] == [], printed
    assert printed["nav"] == "none" and set(printed["headings"]) == {"avoid"}, printed
    assert printed["rows"] == printed["figures"] == "avoid", printed
    assert printed["wraps"] == "visible" and printed["header"] == "table-header-group", printed
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pdf.startswith(b"%PDF") and pages >= 3, pages  # the whole report, paginated
    context.close()
