"""Shared fixtures: the sample project, the real course built once, and a headless Chromium.

Every test writes under a temporary folder: the real course is built with its caches in one
(:func:`repo_project`), and :func:`repository_stays_untouched` fails the session when a test
left a file in the repository all the same.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lessonpage import TIMEOUT_MS, Site
from playwright.sync_api import Browser, BrowserContext

from privacy_explorer.build import BuildReport, build
from privacy_explorer.project import Project, load_project
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
def repo_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The real course in the repository, its build folder (caches, lock) in a temporary one.

    Every test that builds the real course uses this project, so the grids are computed once a
    session, and never into the repository's own ``build/``.
    """
    return load_project(REPO, build_dir=tmp_path_factory.mktemp("repo-build"))


@pytest.fixture(scope="session")
def course_site(
    repo_project: Project, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, BuildReport]:
    """The real course, built once per test session into ``<tmp>/served/course-repo``."""
    out = tmp_path_factory.mktemp("course") / "served" / "course-repo"
    report = build(repo_project, out, jobs=2)
    return out, report


# What running the tests may leave in the repository: caches of Python, pytest, Hypothesis,
# ruff and mypy (make lint runs first), and the virtual environment.
TOOL_LEFTOVERS = (
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    ".mypy_cache",
)


def repository_files() -> dict[str, tuple[str, int, int]] | None:
    """Every untracked, ignored or changed file of the repository: status, size, mtime.

    ``None`` outside a git work tree (an unpacked sdist, say), where nothing is checked.
    """
    leftovers = [f":(exclude,glob)**/{name}/**" for name in TOOL_LEFTOVERS]
    command = ["git", "status", "--porcelain", "-z", "--ignored", "--untracked-files=all"]
    try:
        listing = subprocess.run(
            [*command, "--", ".", *leftovers],
            cwd=REPO,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return None
    files = {}
    for entry in filter(None, listing.split("\0")):
        status, path = entry[:2], entry[3:]
        try:
            stat = os.lstat(REPO / path)
        except FileNotFoundError:
            files[path] = (status, -1, -1)  # deleted
        else:
            files[path] = (status, stat.st_size, stat.st_mtime_ns)
    return files


@pytest.fixture(scope="session", autouse=True)
def repository_stays_untouched() -> Iterator[None]:
    """Fail the session if a test created, changed or removed a file in the repository.

    Files that were there before the session (a ``build/`` from ``make site``, work in
    progress) are compared with themselves, so only what the tests did counts.
    """
    before = repository_files()
    yield
    after = repository_files()
    if before is None or after is None:
        return
    touched = sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )
    if touched:
        listed = "\n  ".join(touched[:20])
        pytest.fail(
            f"the tests wrote into the repository ({len(touched)} file(s)); write under "
            f"tmp_path instead (files you changed yourself while the tests ran are listed "
            f"too):\n  {listed}",
            pytrace=False,
        )


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
