"""The audit report in headless Chromium from disk: clean console, no requests, charts drawn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser

from privacy_explorer.charts import svg_text
from privacy_explorer.cli import cli
from privacy_explorer.fonts import missing_characters, shipped_fonts
from privacy_explorer.project import builtin_templates_dir

HOUSING = Path(__file__).resolve().parent / "data" / "synth-mia-housing"


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
    ("lang", "nonmembers", "charts"), [("en", True, 3), ("ko", True, 3), ("en", False, 1)]
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
        assert chart["width"] > 200 and chart["height"] > 200, chart
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
