"""Shared fixtures: the sample project, the real course built once, and a headless Chromium."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lessonpage import TIMEOUT_MS, Site
from playwright.sync_api import Browser, BrowserContext

from privacy_explorer.build import BuildReport, build
from privacy_explorer.project import load_project
from privacy_explorer.serve import make_server

REPO = Path(__file__).resolve().parent.parent
SAMPLE = Path(__file__).resolve().parent / "sample_project"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture
def sample_project(tmp_path: Path) -> Path:
    """A fresh copy of tests/sample_project, safe to edit."""
    target = tmp_path / "course"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns("build"))
    return target


@pytest.fixture(scope="session")
def course_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildReport]:
    """The real course, built once per test session into ``<tmp>/served/course-repo``."""
    out = tmp_path_factory.mktemp("course") / "served" / "course-repo"
    report = build(load_project(REPO), out, jobs=2)
    return out, report


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (Playwright's own browsers are not used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def site_server(course_site: tuple[Path, BuildReport]) -> Iterator[str]:
    """The built course served on 127.0.0.1 under a sub-path, as GitHub Pages would."""
    site, _ = course_site
    server = make_server(site.parent, 0)  # the site sits in the sub-folder course-repo/
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/course-repo/"
    server.shutdown()
    server.server_close()


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
