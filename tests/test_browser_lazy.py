"""Lazy datasets in headless Chromium: chunks load by script tag, from disk and from a server.

The sample lesson with its lazy cloud (``lazy_sample.py``) is built once, with
chunks small enough that its ten clouds fill five, and opened both with
``file://`` and under a sub-path on ``http://127.0.0.1``. Moving a control must
load the chunk that holds the new point's cloud, draw exactly the rows that
``compute()`` gives, and neither log an error nor ask for anything outside the site.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lazy_sample import add_cloud
from lessonpage import LessonPage, Site, Watch
from playwright.sync_api import BrowserContext, Page

from privacy_explorer import lazy
from privacy_explorer.build import build
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import load_project
from privacy_explorer.serve import make_server

SAMPLE = Path(__file__).resolve().parent / "sample_project"
SLUG = "01-dice"

# The chunk of each grid point's cloud, two clouds to a chunk in grid order (threshold
# varies slowest): the default point, threshold=4 and prior=none, is the fifth, in chunk 2.
CHUNK_OF = {(threshold, prior): (2 * t + p) // 2 for t, threshold in enumerate(range(2, 7))
            for p, prior in enumerate(("none", "add_one"))}  # fmt: skip


@pytest.fixture(scope="module")
def lazy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample with its lazy cloud, built into ``<tmp>/served/course-repo``."""
    project = tmp_path_factory.mktemp("lazy") / "course"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("build"))
    add_cloud(project)
    out = project.parent / "served" / "course-repo"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lazy, "CHUNK_BYTES", 20_000)
        build(load_project(project), out, jobs=1)
    assert sorted(path.name for path in (out / "assets" / "data").iterdir()) == [
        f"{SLUG}.{n}.js" for n in range(5)
    ] + [f"{SLUG}.en.js", f"{SLUG}.ko.js"]
    return out


@pytest.fixture(scope="module")
def lazy_server(lazy_site: Path) -> Iterator[str]:
    server = make_server(lazy_site.parent, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/course-repo/"
    server.shutdown()
    server.server_close()


@pytest.fixture(params=["file", "http"])
def site(request: pytest.FixtureRequest, lazy_site: Path) -> Site:
    if request.param == "file":
        return Site(base=lazy_site.as_uri() + "/", folder=lazy_site)
    return Site(base=request.getfixturevalue("lazy_server"), folder=lazy_site)


@pytest.fixture
def dice(lazy_site: Path) -> LessonPage:
    """The edited sample module, imported here to compare the page with its compute()."""
    path = lazy_site.parent.parent / "course" / "compute" / "dice.py"
    name = "lazy_dice_" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return LessonPage(module, SLUG)


def is_chunk(url: str) -> bool:
    return f"/assets/data/{SLUG}." in url and url.split(".")[-2].isdigit()


def chunk_requests(watch: Watch) -> list[str]:
    """The chunk scripts the page asked for, by file name, in order of first request.

    The watch hears of each request twice (from Playwright and from the browser's
    protocol), so this list says which chunks were asked for, not how often.
    """
    return list(dict.fromkeys(url.rsplit("/", 1)[1] for url in watch.requests if is_chunk(url)))


def chunk_scripts_left(page: Page) -> int:
    """Chunk script elements still in the page (each should go once its rows are filed)."""
    return page.evaluate(
        """() => Array.from(document.scripts)
          .filter(script => /data\\/01-dice\\.\\d+\\.js$/.test(script.getAttribute("src") || ""))
          .length"""
    )


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_moving_a_control_loads_the_chunk_it_needs(
    context: BrowserContext, site: Site, dice: LessonPage, lang: str
) -> None:
    page, watch = dice.open(context, site, lang)
    assert chunk_requests(watch) == [], "the default point's rows are in the chart spec"
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if is_chunk(request.url) else None)
    steps = [
        ("threshold", "ArrowRight", 3),  # threshold=5: chunk 3
        ("prior", "click", 1),  # the other half of chunk 3: nothing new to load
        ("threshold", "Home", 0),  # threshold=2: chunk 0
        ("threshold", "End", 4),  # threshold=6: chunk 4
        ("threshold", "ArrowLeft", 3),  # back to threshold=5, whose chunk is loaded
    ]
    dice.drive(page, site, lang, steps)
    # Every row the cloud chart holds was compared with compute() by drive(); each chunk
    # was asked for once, and its script element removed once its rows were filed.
    assert [url.rsplit("/", 1)[1] for url in asked] == [
        f"{SLUG}.3.js",
        f"{SLUG}.0.js",
        f"{SLUG}.4.js",
    ]
    assert all(url.startswith(site.url("assets/data/")) for url in asked)
    assert chunk_scripts_left(page) == 0
    watch.assert_clean(f"lazy chunks ({lang})")


@pytest.mark.browser
def test_a_shared_link_to_another_point_loads_its_chunk_first(
    context: BrowserContext, site: Site, dice: LessonPage
) -> None:
    lang = LANGUAGES[-1]
    page, watch = dice.open(context, site, lang, "threshold=2&prior=add_one")
    state = {"threshold": 0, "prior": 1}
    dice.wait_for_point(page, state)
    dice.assert_shows(page, state, lang)
    assert chunk_requests(watch) == [f"{SLUG}.0.js"]
    watch.assert_clean("lazy chunk from the hash")


HOLD_CHUNK_0 = """() => {
  // Chunk 0 arrives only when the test says so: a slow network, made deterministic.
  const append = document.head.appendChild.bind(document.head);
  window.heldChunks = [];
  document.head.appendChild = node => {
    if (/data\\/01-dice\\.0\\.js$/.test(node.getAttribute("src") || "")) {
      window.heldChunks.push(() => append(node));
      return node;
    }
    return append(node);
  };
}"""


@pytest.mark.browser
def test_a_late_chunk_does_not_overwrite_a_newer_state(
    context: BrowserContext, site: Site, dice: LessonPage
) -> None:
    lang = LANGUAGES[0]
    page, watch = dice.open(context, site, lang)
    page.evaluate(HOLD_CHUNK_0)
    dice.move(page, "threshold", "Home", 0)  # threshold=2 needs chunk 0, which is held
    page.wait_for_function("() => window.heldChunks.length === 1")
    dice.move(page, "threshold", "End", 4)  # threshold=6: chunk 4 loads at once
    newer = {**dice.default_state(), "threshold": 4}
    dice.wait_for_point(page, newer)
    dice.assert_shows(page, newer, lang)
    page.evaluate("() => { window.heldChunks.forEach(release => release()); }")
    page.evaluate("() => window.explorerLesson.chunkLoads[0]")  # waits until it is filed
    assert page.evaluate("() => '0' in window.explorerLesson.data.datasets")
    dice.assert_shows(page, newer, lang)  # the late rows of threshold=2 are not drawn
    watch.assert_clean("a late chunk")


@pytest.mark.browser
def test_a_chunk_that_cannot_load_shows_the_static_chart_and_its_note(
    context: BrowserContext, site: Site, dice: LessonPage, lazy_site: Path, tmp_path: Path
) -> None:
    lang = LANGUAGES[-1]
    page, watch = dice.open(context, site, lang)
    missing = lazy_site / "assets" / "data" / f"{SLUG}.0.js"
    kept = tmp_path / missing.name
    shutil.move(missing, kept)
    try:
        dice.move(page, "threshold", "Home", 0)
        state = {**dice.default_state(), "threshold": 0}
        dice.wait_for_point(page, state)
    finally:
        shutil.move(kept, missing)
    cloud = page.locator("figure[data-chart=cloud]")
    assert cloud.locator(".chart-error").inner_text() == page.evaluate(
        "document.querySelector('[data-lesson]').dataset.chartFailed"
    )
    # Shown by the runtime once the chunk failed; an image is visible once it has a box, which
    # it may get a frame or a decode later on a busy machine: wait for that, not for a time.
    cloud.locator("img.chart-fallback").wait_for(state="visible")
    assert cloud.locator(".chart-live").count() == 0
    # The other chart and the readouts still follow the controls.
    assert page.evaluate("Object.keys(window.explorerLesson.views)") == ["faces"]
    faces = page.evaluate(
        "JSON.parse(JSON.stringify(window.explorerLesson.views.faces.data('faces')))"
    )
    expected = dice.python_result(state)["datasets"]["faces"]
    assert [
        {field: row[field] for field in want} for row, want in zip(faces, expected, strict=True)
    ] == expected
    readouts = page.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-readout]'))"
        ".map(e => [e.dataset.readout, e.textContent]))"
    )
    assert readouts == dice.python_readouts(state, lang)
    # The page itself logs nothing; only the browser reports the missing file.
    problems = [p for p in watch.problems if f"/assets/data/{SLUG}.0.js" not in p]
    assert problems == []
    assert not [url for url in watch.requests if not url.startswith((site.base, "data:"))]
