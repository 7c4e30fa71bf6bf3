"""Exports in headless Chromium: a single-file lesson alone on disk, a SCORM package in an LMS.

The LMS is a test page that gives the package the SCORM 1.2 ``API`` of scorm-again
(the npm package, installed by ``make test`` into tests/scorm/, loaded from disk)
and launches the package's entry point in an iframe, as an LMS's player does.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest
from lazy_sample import add_cloud
from lessonpage import READY, TIMEOUT_MS, LessonPage, Site, Watch, settle, use_built_results
from playwright.sync_api import BrowserContext, Frame, Page

from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.export import export
from privacy_explorer.project import Project, load_project
from privacy_explorer.serve import make_server

REPO = Path(__file__).resolve().parent.parent
SCORM_AGAIN = REPO / "tests" / "scorm" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
SLUG = "03-differential-privacy"
DP = LessonPage(dp, SLUG)
SINGLE_FILE_LIMIT = 1_300_000
"""Bytes: lesson 03 as one file (1.21 MB: Vega and its 1,400 grid points gzip-compressed, 0.41
MB; the eight static pictures with their fonts, 0.31 MB; the page's fonts, 0.14 MB; 1.18 MB
before each chart carried its takeaway and the lesson its Show me steps)."""


@pytest.mark.browser
def test_a_single_file_lesson_works_alone_from_disk_with_zero_requests(
    context: BrowserContext, repo_project: Project, tmp_path: Path
):
    written = export(
        repo_project,
        "03",
        tmp_path / "exported.html",
        kind="single-file",
        lang="ko",
        jobs=2,
    )
    # The export computed lesson 03 into the project's result cache: drive() reads its
    # whole-grid results there (as it does after the course_site fixture's build).
    use_built_results(repo_project)
    print(f"\nlesson 03 as one file: {written.size:,} bytes")
    assert written.size < SINGLE_FILE_LIMIT
    alone = tmp_path / "empty-folder"
    alone.mkdir()
    shutil.copy2(written.path, alone / f"{SLUG}.html")  # named as the site names it
    site = Site(base=alone.as_uri() + "/", folder=alone)

    page = context.new_page()
    watch = Watch(page, site.base)
    page.goto(site.url(f"{SLUG}.html"))
    page.wait_for_selector(READY, state="attached")
    settle(page)
    # The file keeps the lesson's groups of controls beside their figures, and its steps
    # (issue 22 §1-§2): the same groups, in the same order, as the lesson's Markdown places.
    markdown = (REPO / "content" / "ko" / f"{SLUG}.md").read_text("utf-8")
    placed = [
        names.split() or list(dp.GRID.names)
        for names in re.findall(r"\{\{< controls ?([^>]*)>\}\}", markdown)
    ]
    groups = page.evaluate(
        """() => Array.from(document.querySelectorAll("form.controls")).map(form =>
          Array.from(new Set(Array.from(form.querySelectorAll("[data-param]"))
            .map(input => input.dataset.param))))"""
    )
    assert groups == placed and len(groups) > 1, groups
    steps_placed = markdown.count("{{< showme ")
    assert page.locator("button[data-showme]").count() == steps_placed > 1
    # Moved twice, ε goes through its first instance, then through the one at a later figure.
    steps = [
        ("epsilon", "End", 6),
        ("releases", "Home", 0),
        ("query", "click", 1),
        ("epsilon", "Home", 0),
    ]
    DP.drive(page, site, "ko", steps)
    faces = page.evaluate(
        """() => Array.from(document.fonts).map(f => [f.family.replace(/["']/g, ""), f.status])"""
    )
    assert ["Noto Sans Math", "loaded"] in faces and ["Noto Sans KR Explorer", "loaded"] in faces
    watch.assert_clean("single file")
    requests = {url for url in watch.requests if not url.startswith("data:")}
    assert requests == {site.url(f"{SLUG}.html")}, requests  # the file itself, nothing else


@pytest.mark.browser
def test_a_single_file_lesson_carries_its_lazy_chunks(
    context: BrowserContext, sample_project: Path, tmp_path: Path
):
    """A lesson with LAZY datasets as one file: every chunk inside, none requested."""
    module_path = add_cloud(sample_project)
    written = export(
        load_project(sample_project, build_dir=tmp_path / "build"),
        "01",
        tmp_path / "dice.html",
        kind="single-file",
        lang="ko",
        jobs=1,
    )
    alone = tmp_path / "empty-folder"
    alone.mkdir()
    shutil.copy2(written.path, alone / "01-dice.html")
    site = Site(base=alone.as_uri() + "/", folder=alone)
    spec = importlib.util.spec_from_file_location("single_file_dice", module_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dice = LessonPage(module, "01-dice")

    page = context.new_page()
    watch = Watch(page, site.base)
    page.goto(site.url("01-dice.html"))
    page.wait_for_selector(READY, state="attached")
    settle(page)
    # drive() compares every chart's rows, the cloud's included, with compute().
    dice.drive(page, site, "ko", [("threshold", "ArrowRight", 3), ("threshold", "Home", 0)])
    watch.assert_clean("single file with lazy chunks")
    requests = {url for url in watch.requests if not url.startswith("data:")}
    assert requests == {site.url("01-dice.html")}, requests


# --- SCORM ------------------------------------------------------------------------------------

LMS_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="scorm12.js"></script>
<script>
  // The LMS side: a fresh SCORM 1.2 API (optionally with stored learner data), every call kept.
  window.launch = function (href, stored) {
    window.calls = [];
    window.API = new Scorm12API({ autocommit: false, logLevel: 5 });
    if (stored) window.API.loadFromJSON(stored);
    ["LMSInitialize", "LMSCommit", "LMSFinish"].forEach(function (name) {
      window.API.on(name, function () { window.calls.push([name]); });
    });
    window.API.on("LMSSetValue.cmi.*", function (element, value) {
      window.calls.push(["LMSSetValue", element, value]);
    });
    var frame = document.createElement("iframe");
    frame.id = "sco";
    frame.style.cssText = "width: 800px; height: 400px; border: 0";
    frame.src = href;
    document.body.appendChild(frame);
  };
  window.leave = function () { document.getElementById("sco").remove(); };
</script></head><body><h1>Course</h1></body></html>
"""


@pytest.fixture
def lms(sample_project: Path, tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """The sample course as a SCORM package, unpacked beside the LMS page and served."""
    # A control and a "Show me" step beside the chart as well as the panel (issue 22 §1):
    # every instance must reach the LMS through the one lesson state.
    lesson = sample_project / "content" / "en" / "01-dice.md"
    text = lesson.read_text("utf-8")
    assert "{{< chart faces >}}" in text
    lesson.write_text(
        text.replace(
            "{{< chart faces >}}",
            "{{< controls threshold >}}\n\n{{< chart faces >}}\n\n{{< showme faces threshold=5 >}}",
        ),
        "utf-8",
    )
    package = tmp_path / "course.zip"
    written = export(load_project(sample_project), "01", package, kind="scorm", lang="en")
    served = tmp_path / "lms"
    with zipfile.ZipFile(written.path) as archive:
        archive.extractall(served / "package")
        manifest = ElementTree.fromstring(archive.read("imsmanifest.xml"))
    entry = next(r for r in manifest.iter(f"{CP}resource") if r.get("href")).get("href")
    shutil.copy2(SCORM_AGAIN, served / "scorm12.js")
    (served / "lms.html").write_text(LMS_PAGE, "utf-8")
    server = make_server(served, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", f"package/{entry}", served
    server.shutdown()
    server.server_close()


def sco_frame(page: Page) -> Frame:
    page.frame_locator("#sco").locator(READY).wait_for(state="attached")
    return next(f for f in page.frames if "/package/" in f.url)


def calls(page: Page) -> list[list[str]]:
    return page.evaluate("window.calls")


def values(page: Page, element: str) -> list[str]:
    return [call[2] for call in calls(page) if call[0] == "LMSSetValue" and call[1] == element]


@pytest.mark.early
@pytest.mark.browser
def test_a_scorm_package_reports_progress_to_the_lms_and_resumes(
    context: BrowserContext, lms: tuple[str, str, Path]
):
    base, entry, _ = lms
    page = context.new_page()
    watch = Watch(page, base)
    page.goto(base + "lms.html")
    page.evaluate("href => window.launch(href)", entry)
    frame = sco_frame(page)

    # Opened: initialized, incomplete, nothing completed yet.
    page.wait_for_function("() => window.calls.some(c => c[0] === 'LMSCommit')")
    assert calls(page)[0] == ["LMSInitialize"]
    assert values(page, "cmi.core.lesson_status") == ["incomplete"]
    assert page.evaluate("API.cmi.core.lesson_status") == "incomplete"

    # The package keeps the control beside the chart and the step (issue 22 §1).
    sliders = page.frame_locator("#sco").locator("input[type=range][data-param=threshold]")
    assert sliders.count() == 2
    assert frame.evaluate("document.querySelectorAll('button[data-showme]').length") == 1

    # A control moves, through its instance beside the chart: the settings are stored, every
    # instance shows them; the end is not reached, so still incomplete.
    sliders.nth(1).focus()
    page.keyboard.press("End")
    page.wait_for_function("() => API.cmi.suspend_data !== ''", timeout=TIMEOUT_MS)
    saved = page.evaluate("API.cmi.suspend_data")
    assert saved == frame.evaluate("location.hash").removeprefix("#") and "threshold=6" in saved
    assert [sliders.nth(i).input_value() for i in range(2)] == ["4", "4"]
    assert page.evaluate("API.cmi.core.lesson_status") == "incomplete"

    # The step sets its control, and the LMS stores that too.
    frame.locator("button[data-showme]").click()
    page.wait_for_function("() => API.cmi.suspend_data.includes('threshold=5')", timeout=TIMEOUT_MS)
    assert [sliders.nth(i).input_value() for i in range(2)] == ["3", "3"]
    sliders.first.focus()
    page.keyboard.press("End")
    page.wait_for_function("() => API.cmi.suspend_data.includes('threshold=6')", timeout=TIMEOUT_MS)
    saved = page.evaluate("API.cmi.suspend_data")

    # The learner reaches the end of the lesson: completed.
    frame.evaluate("document.querySelector('[data-lesson-end]').scrollIntoView()")
    page.wait_for_function("() => API.cmi.core.lesson_status === 'completed'", timeout=TIMEOUT_MS)

    # Leaving: suspend, the session's time, commit, finish.
    page.evaluate("window.leave()")
    page.wait_for_function("() => window.calls.some(c => c[0] === 'LMSFinish')")
    assert values(page, "cmi.core.exit")[-1] == "suspend"
    assert values(page, "cmi.core.session_time")[-1].count(":") == 2
    assert [c[0] for c in calls(page)][-2:] == ["LMSCommit", "LMSFinish"]

    # Next time the LMS hands back what it stored: the lesson opens where the learner left it,
    # and a completed lesson stays completed.
    stored = {"core": {"lesson_status": "completed", "entry": "resume"}, "suspend_data": saved}
    page.evaluate("([href, stored]) => window.launch(href, stored)", [entry, stored])
    frame = sco_frame(page)
    frame.wait_for_function(
        "() => document.querySelector('article').dataset.point !== undefined", timeout=TIMEOUT_MS
    )
    assert frame.evaluate(
        "Array.from(document.querySelectorAll('[data-param=threshold]')).map(i => i.value)"
    ) == ["4", "4"]
    assert frame.evaluate("location.hash").removeprefix("#") == saved
    assert values(page, "cmi.core.lesson_status") == []  # never lowered to incomplete
    watch.assert_clean("SCORM")


@pytest.mark.browser
def test_without_an_lms_the_scorm_adapter_does_nothing_and_logs_nothing(
    context: BrowserContext, lms: tuple[str, str, Path]
):
    base, entry, _ = lms
    page = context.new_page()
    logged: list[str] = []
    page.on("console", lambda message: logged.append(message.text))
    watch = Watch(page, base)
    page.goto(base + entry)
    page.wait_for_selector(READY, state="attached")
    page.locator("input[type=range][data-param=threshold]").first.focus()
    page.keyboard.press("End")
    page.wait_for_function("() => location.hash.includes('threshold=6')")
    page.goto("about:blank")  # leaving calls nothing either
    assert logged == []
    watch.assert_clean("SCORM without an LMS")
