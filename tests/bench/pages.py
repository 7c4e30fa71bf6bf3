"""How much each page weighs on first load, and how fast a lesson follows its controls.

``bench_build.py`` calls :func:`report` on the site it built. Two tables, printed, never asserted:

1. every page's first-load weight (:func:`privacy_explorer.weight.first_load_weight`): text
   gzipped at level 6, WOFF2 as it is, the shared Vega bundle apart, against the 150 KiB budget
   of a lesson page;
2. for every lesson page in Chromium (served over HTTP, as on GitHub Pages): 50 control changes,
   each control in turn, as a learner makes them, with the control's group scrolled to the top
   of the 1280 x 720 window; for each the time from the input event to the readouts and the
   charts on screen updated (the runtime's ``explorer:update`` measure), to the next frame
   drawn (``explorer:paint``) and to every chart updated, on screen or not (``explorer:all``),
   as the median and the 95th percentile.
"""

from __future__ import annotations

import re
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the page helpers

from lessonpage import MOVE_CONTROL, READY

from privacy_explorer import weight
from privacy_explorer.serve import make_server

CHANGES = 50
"""Control changes measured per lesson page."""
CHROMIUM = "/usr/bin/chromium"
SCROLL_TO_CONTROL = """step => {
  const article = document.querySelector("article[data-lesson]");
  const names = Array.from(new Set(
    Array.from(article.querySelectorAll("[data-param]")).map(i => i.dataset.param)));
  const input = article.querySelector(`[data-param="${names[step % names.length]}"]`);
  input.closest("form").scrollIntoView({ block: "start" });
}"""
"""Scrolls the group of the control that MOVE_CONTROL moves at ``step`` to the window's top."""
MEASURES = ("explorer:update", "explorer:paint", "explorer:all")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
LESSON_PAGE = re.compile(r"(?:[a-z]{2}/)?\d\d-[a-z-]+\.html")


def kib(size: float) -> str:
    return f"{size / 1024:8.1f}"


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (linear between order statistics)."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def page_weights(site: Path) -> list[str]:
    """Print the first-load weight of every page of ``site``; return the lesson pages."""
    files = {
        path.relative_to(site).as_posix(): path.read_bytes()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }
    budget = weight.LESSON_PAGE_BUDGET
    print()
    print("First-load weight per page, KiB (text gzip -6, WOFF2 as it is; vega.js apart)")
    columns = ("html", "css", "js", "data", "charts", "fonts", "total")
    print(f"{'page':<40}" + "".join(f"{c:>8}" for c in columns) + "   budget")
    lessons = []
    for page in sorted(p for p in files if p.endswith(".html")):
        weighed = weight.first_load_weight(files, page)
        parts = (weighed.html, weighed.css, weighed.scripts, weighed.data, weighed.images)
        row = "".join(kib(size) for size in (*parts, weighed.fonts, weighed.own))
        verdict = ""
        if LESSON_PAGE.fullmatch(page):
            lessons.append(page)
            verdict = f"   {weighed.own / budget:4.0%} of {budget // 1024} KiB"
        print(f"{page:<40}{row}{verdict}")
    bundle = files[weight.SHARED_BUNDLE]
    print(
        f"{weight.SHARED_BUNDLE}: {kib(len(bundle)).strip()} KiB, "
        f"{kib(weight.gzipped_size(bundle)).strip()} KiB gzipped, fetched once by the first "
        "lesson page a reader opens"
    )
    return lessons


def update_times(site: Path, pages: list[str]) -> None:
    """Print the median and 95th percentile of update and paint times of each page."""
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    print()
    print(
        f"Input event to the charts on screen updated, to the next frame and to every chart "
        f"updated, ms, over {CHANGES} changes"
    )
    heads = "".join(f"{name + ' median':>15}{'p95':>8}" for name in ("update", "paint", "all"))
    print(f"{'page':<40}{heads}")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for path in pages:
                page = browser.new_page()
                page.goto(base + path)
                page.wait_for_selector(READY, state="attached")
                for step in range(CHANGES):
                    page.evaluate(SCROLL_TO_CONTROL, step)
                    page.wait_for_timeout(100)  # the runtime learns which charts are on screen
                    page.evaluate(MOVE_CONTROL, step)
                    page.wait_for_function(
                        "([names, n]) => names.every("
                        "name => performance.getEntriesByName(name).length === n)",
                        arg=[MEASURES, step + 1],
                    )
                times = {
                    name: page.evaluate(
                        "name => performance.getEntriesByName(name).map(e => e.duration)", name
                    )
                    for name in MEASURES
                }
                cells = "".join(
                    f"{statistics.median(values):15.1f}{percentile(values, 0.95):8.1f}"
                    for values in times.values()
                )
                print(f"{path:<40}{cells}", flush=True)
                page.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


def report(site: Path) -> None:
    """Both tables for the built ``site``."""
    update_times(site, page_weights(site))


if __name__ == "__main__":
    report(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build/site"))
