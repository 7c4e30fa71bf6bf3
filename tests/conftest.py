"""Shared fixtures: the sample project, the real course built once, and a headless Chromium.

Every test writes under a temporary folder: the real course is built with its caches in one
(:func:`repo_project`), and :func:`repository_stays_untouched` fails the session when a test
left a file in the repository all the same.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from lessonpage import TIMEOUT_MS, Site, use_built_results
from playwright.sync_api import Browser, BrowserContext
from xdist_groups import keep_xdist_groups

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
CACHES = ("results", "assets-cache", "pages-cache")
"""The folders of ``build/`` that only ever hold checked, content-addressed cache entries."""


def _cost_tier(item: pytest.Item) -> tuple[int, bool]:
    """-1: the few ``early`` tests, quick browser checks of the sample course that are the only
    guard of a runtime feature (SCORM resume, the hash parser); 0: plain tests; 1: Chromium on
    small projects; 2: the real course; 3: both. Within a tier, tests of an ``xdist_group``
    (those sharing an expensive fixture: the wheel, the licence grid, a full audit) come after
    the others."""
    names = getattr(item, "fixturenames", ())
    grouped = item.get_closest_marker("xdist_group") is not None
    if item.get_closest_marker("early") is not None:
        return -1, grouped
    return ("browser" in names) + 2 * ("course_caches" in names), grouped


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the quick tests first, so that a breakage most of them catch fails the run in its
    first minutes (``make mutants`` checks this); within a tier, files keep their order, grouped
    tests after the others."""
    keep_xdist_groups(config, items)
    items.sort(key=_cost_tier)


@pytest.fixture
def sample_project(tmp_path: Path, sample_assets: Path) -> Path:
    """A fresh copy of tests/sample_project, safe to edit, its asset cache already filled.

    Rendering the sample's chart SVGs, subsetting its fonts and bundling Vega take most of a
    cold build; they are made once a run (:func:`sample_assets`) and every entry is checked
    (its key and SHA-256) before a build uses it. Its result, page and site folders start
    empty. Tests of the asset cache itself use :func:`cold_sample_project`.
    """
    target = tmp_path / "course"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns("build"))
    shutil.copytree(sample_assets, target / "build" / "assets-cache")
    return target


@pytest.fixture
def cold_sample_project(tmp_path: Path) -> Path:
    """A fresh copy of tests/sample_project with nothing cached at all."""
    target = tmp_path / "course"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns("build"))
    return target


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a running Dask LocalCluster of two worker processes (for --scheduler)."""
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


@pytest.fixture(scope="session")
def sample_assets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The asset cache of the sample project (chart SVGs, font subsets, the Vega bundle),
    filled once a run by building a copy of it (the first xdist worker builds, the others wait).
    """
    shared = run_folder(tmp_path_factory) / "sample-assets"
    with exclusive(run_folder(tmp_path_factory) / "sample-assets.lock"):
        filled = run_folder(tmp_path_factory) / "sample-assets.filled"
        if not filled.exists():
            work = run_folder(tmp_path_factory) / f"sample-for-assets-{os.getpid()}"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(SAMPLE, work, ignore=shutil.ignore_patterns("build"))
            saved_path = list(sys.path)  # the build makes the copy importable
            try:
                build(load_project(work), jobs=1)
            finally:
                sys.path[:] = saved_path
            shutil.rmtree(shared, ignore_errors=True)
            shutil.copytree(work / "build" / "assets-cache", shared)
            filled.touch()
    return shared


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder of this test run that every xdist worker sees (the run's base)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_file`` (one xdist worker at a time)."""
    with lock_file.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def course_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build folder whose caches hold every result, asset and page of the real course.

    The first worker of a run fills it by building the course into its ``site/``, starting
    from the repository's own caches when ``make site`` has filled them (on a fresh clone,
    as in CI, that first build computes every grid cold); the others wait for it and then
    find it full. Every cache entry is checked before it is used (its key, its SHA-256, the
    checks of a fresh result), so a stale or damaged one is computed again, never shipped.
    """
    shared = run_folder(tmp_path_factory) / "course-caches"
    with exclusive(run_folder(tmp_path_factory) / "course-caches.lock"):
        filled = shared / ".filled"
        if not filled.exists():
            shutil.rmtree(shared, ignore_errors=True)  # a worker that died half-way
            shared.mkdir()
            for cache in CACHES:
                if (REPO / "build" / cache).is_dir():
                    shutil.copytree(REPO / "build" / cache, shared / cache, symlinks=True)
            project = load_project(REPO, build_dir=shared)
            build(project, shared / "site", jobs=2)
            filled.touch()
    return shared


@pytest.fixture(scope="session")
def repo_project(tmp_path_factory: pytest.TempPathFactory, course_caches: Path) -> Project:
    """The real course in the repository, its build folder (caches, lock) in a temporary one.

    Every test that builds the real course uses this project, so the grids are computed at
    most once a run (shared by the xdist workers), and never into the repository's own
    ``build/``. Each worker gets its own copy of the filled caches, so its builds are its own.
    """
    shared = course_caches
    build_dir = tmp_path_factory.mktemp("repo-build")
    for cache in CACHES:
        if (shared / cache).is_dir():
            shutil.copytree(shared / cache, build_dir / cache, symlinks=True)
    return load_project(REPO, build_dir=build_dir)


@pytest.fixture(scope="session")
def course_site(
    repo_project: Project, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, BuildReport]:
    """The real course, built once per test session into ``<tmp>/served/course-repo``."""
    out = tmp_path_factory.mktemp("course") / "served" / "course-repo"
    report = build(repo_project, out, jobs=2)
    use_built_results(repo_project)
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
    leftovers.append(":(exclude)build/mutants")  # make mutants writes its logs there meanwhile
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
