"""The build, end to end: a golden build of the sample, determinism, the cache, a new lesson.

The sample project (tests/sample_project) is copied into ``tmp_path`` by the
``sample_project`` fixture; the real course is built from the repository root.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import math
import posixpath
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import vl_convert
from click.testing import CliRunner

from privacy_explorer import fonts, output, render, runner
from privacy_explorer.build import BuildReport, build, write_site
from privacy_explorer.cli import cli
from privacy_explorer.errors import ExplorerError
from privacy_explorer.lesson import Grid, Param
from privacy_explorer.output import CACHE_FOLDERS
from privacy_explorer.project import Project, load_project
from privacy_explorer.render import expand_page_data
from privacy_explorer.site import render_lesson

REPO = Path(__file__).resolve().parents[1]
SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
LESSON_PAGES = ("01-dice.html", "en/01-dice.html")
TWIN = {
    "index.html": "en/index.html",
    "en/index.html": "index.html",
    "01-dice.html": "en/01-dice.html",
    "en/01-dice.html": "01-dice.html",
    "embed/01-dice.html": "en/embed/01-dice.html",
    "en/embed/01-dice.html": "embed/01-dice.html",
}
SAMPLE_FILES = {
    ".explorer-site",
    ".nojekyll",
    "404.html",
    "index.html",
    "01-dice.html",
    "embed/01-dice.html",
    "en/index.html",
    "en/01-dice.html",
    "en/embed/01-dice.html",
    "assets/style.css",
    "assets/embed.css",
    "assets/explorer.js",
    "assets/tables.js",
    "assets/vega.js",
    "assets/fonts/NotoSansKRExplorer-Regular.woff2",
    "assets/fonts/NotoSansKRExplorer-Bold.woff2",
    "assets/fonts/NotoSansMath-Regular.woff2",
    "assets/fonts/OFL.txt",
    "assets/data/01-dice.ko.js",
    "assets/data/01-dice.en.js",
    "assets/charts/01-dice/faces.ko.svg",
    "assets/charts/01-dice/faces.en.svg",
}
"""The sample site's files, each page font by its face's name (see :func:`site_paths`)."""
ROLLS_UNIT = {"ko": "번", "en": " rolls"}
"""After the count: a Korean counter is written on (10번), an English unit after a space."""


def site_paths(files: dict[str, bytes]) -> set[str]:
    """A built site's paths, each page's font subset (``<face>.<digest>.woff2``) as its face."""
    return {re.sub(r"\.[0-9a-f]{12}\.woff2$", ".woff2", path) for path in files}


# --- helpers ---------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def import_file(path: Path) -> ModuleType:
    """A compute module imported on its own, to compare the site against what it computes."""
    name = "expected_" + hashlib.sha256(str(path).encode() + path.read_bytes()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class References(HTMLParser):
    """Every tag's attributes, in document order."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def urls(self) -> Iterator[tuple[str, str]]:
        for tag, attrs in self.tags:
            for name in ("href", "src"):
                value = attrs.get(name)
                if value is not None:
                    yield tag, value


def page_data(script: bytes, slug: str) -> dict[str, Any]:
    """The JSON inside a lesson's ``assets/data/<slug>.<lang>.js``."""
    prefix = f'window.EXPLORER_DATA=window.EXPLORER_DATA||{{}};\nwindow.EXPLORER_DATA["{slug}"]='
    text = script.decode("utf-8")
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix) : -2])


def chart_specs(html: bytes) -> list[dict[str, Any]]:
    found = re.findall(
        r'<script type="application/json" data-chart-spec>(.*?)</script>', html.decode(), re.S
    )
    return [json.loads(text) for text in found]


def readout_texts(html: bytes) -> dict[str, str]:
    return dict(re.findall(r'data-readout="(\w+)"[^>]*>([^<]*)</output>', html.decode()))


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{path} should contain {old!r} once"
    path.write_text(text.replace(old, new), "utf-8")


def sample_build(project_dir: Path, out: Path | None = None, jobs: int = 1) -> BuildReport:
    return build(load_project(project_dir), out, jobs=jobs)


def forget_pages(project_dir: Path) -> None:
    """Empty the page cache, so that the next build renders (and reads the results) again."""
    shutil.rmtree(project_dir / "build" / "pages-cache", ignore_errors=True)


def cache_files(project_dir: Path, slug: str = "01-dice") -> set[str]:
    return {path.name for path in (project_dir / "build" / "results" / slug).iterdir()}


# --- (a) a golden build of the sample project ------------------------------------------------


@pytest.fixture
def sample_site(sample_project: Path) -> tuple[Path, dict[str, bytes]]:
    """The sample project built into its build/site, and that site's files."""
    report = sample_build(sample_project)
    site = sample_project / "build" / "site"
    assert report.out == site
    return sample_project, snapshot(site)


def test_sample_writes_exactly_the_expected_files(
    sample_site: tuple[Path, dict[str, bytes]],
) -> None:
    project, files = sample_site
    assert site_paths(files) == SAMPLE_FILES
    assert files[".nojekyll"] == b""
    assert not list((project / "build").glob(".site.*"))


def test_every_reference_is_relative_and_resolves(
    sample_site: tuple[Path, dict[str, bytes]],
) -> None:
    _, files = sample_site
    pages = [path for path in files if path.endswith(".html")]
    assert len(pages) == 7
    for page in pages:
        for tag, url in References(files[page].decode()).urls():
            parts = urlsplit(url)
            if parts.scheme == "data":
                continue
            if parts.scheme:
                assert tag == "a" and parts.scheme == "https", f"{page}: {url}"
                continue
            assert not url.startswith("/"), f"{page}: {url} is not relative"
            if parts.path:
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(page), unquote(parts.path))
                )
                assert target in files, f"{page}: {url} -> {target}"


@pytest.mark.parametrize("page", sorted(TWIN))
def test_each_page_links_to_its_other_language_twin(
    sample_site: tuple[Path, dict[str, bytes]], page: str
) -> None:
    _, files = sample_site
    switches = [
        attrs["href"]
        for tag, attrs in References(files[page].decode()).tags
        if tag == "a" and "data-lang-switch" in attrs
    ]
    assert len(switches) == 1
    href = switches[0]
    assert href is not None
    assert posixpath.normpath(posixpath.join(posixpath.dirname(page), href)) == TWIN[page]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_page_data_holds_what_the_module_computes_at_every_grid_point(
    sample_site: tuple[Path, dict[str, bytes]], lang: str
) -> None:
    project, files = sample_site
    dice = import_file(project / "compute" / "dice.py")
    data = page_data(files[f"assets/data/01-dice.{lang}.js"], "01-dice")
    thresholds, priors = (2, 3, 4, 5, 6), ("none", "add_one")
    assert [(p["name"], p["values"], p["default"]) for p in data["params"]] == [
        ("threshold", list(thresholds), 2),
        ("prior", list(priors), 0),
    ]
    assert len(data["points"]) == len(thresholds) * len(priors) == len(dice.GRID)
    for i, threshold in enumerate(thresholds):
        for j, prior in enumerate(priors):
            result = dice.compute(threshold=threshold, prior=prior)
            point = data["points"][f"{i}-{j}"]
            share, rolls = result["readouts"]["share"], result["readouts"]["rolls"]
            assert point["r"] == {"share": f"{share:.2f}", "rolls": f"{rolls}{ROLLS_UNIT[lang]}"}
            assert data["datasets"][point["d"]["faces"]] == result["datasets"]["faces"]


@pytest.mark.parametrize(("page", "lang"), [("01-dice.html", "ko"), ("en/01-dice.html", "en")])
def test_page_shows_the_default_grid_point(
    sample_site: tuple[Path, dict[str, bytes]], page: str, lang: str
) -> None:
    project, files = sample_site
    dice = import_file(project / "compute" / "dice.py")
    default = dice.compute(threshold=4, prior="none")
    html = files[page]
    assert readout_texts(html) == {
        "share": f"{default['readouts']['share']:.2f}",
        "rolls": f"10{ROLLS_UNIT[lang]}",
    }
    (spec,) = chart_specs(html)
    assert spec["data"] == {"name": "faces"}
    assert spec["datasets"] == {"faces": default["datasets"]["faces"]}
    assert spec["title"] == {"ko": "눈별 횟수", "en": "Rolls per face"}[lang]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_chart_fallback_is_a_standalone_svg(
    sample_site: tuple[Path, dict[str, bytes]], lang: str
) -> None:
    _, files = sample_site
    page = "01-dice.html" if lang == "ko" else "en/01-dice.html"
    svg_path = f"assets/charts/01-dice/faces.{lang}.svg"
    images = [attrs["src"] for tag, attrs in References(files[page].decode()).tags if tag == "img"]
    assert images == [svg_path if lang == "ko" else f"../{svg_path}"]
    root = ET.fromstring(files[svg_path])
    assert root.tag == f"{SVG_NAMESPACE}svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    tags = {element.tag for element in root.iter()}
    assert f"{SVG_NAMESPACE}script" not in tags
    assert f"{SVG_NAMESPACE}rect" in tags or f"{SVG_NAMESPACE}path" in tags
    assert b"http://" not in files[svg_path].replace(b"http://www.w3.org/", b"")


# --- (b) determinism ------------------------------------------------------------------------


def test_sample_cold_and_warm_builds_are_byte_identical(
    sample_project: Path, tmp_path: Path
) -> None:
    cold = sample_build(sample_project, tmp_path / "cold")
    assert (cold.runs[0].computed, cold.runs[0].cached) == (10, 0)
    warm = sample_build(sample_project, tmp_path / "warm")
    assert (warm.runs[0].computed, warm.runs[0].cached) == (0, 10)
    cold_files, warm_files = snapshot(tmp_path / "cold"), snapshot(tmp_path / "warm")
    assert set(cold_files) == set(warm_files)
    assert site_paths(cold_files) == SAMPLE_FILES
    for path in sorted(cold_files):
        assert cold_files[path] == warm_files[path], path


REAL_COURSE = pytest.mark.xdist_group("real-course")
"""The real-course builds below share their fixtures: one worker runs all these tests. The
fixtures are session-scoped because a worker may run another module's tests between them,
and a module-scoped fixture would then be built again."""


@dataclass(frozen=True)
class FreshCopy:
    """A fresh copy of the real course, given its computed results and nothing else, built."""

    project: Project
    """The copy (content, compute, data, site.yml, build/results)."""
    out: Path
    """Where its first build wrote the site."""
    report: BuildReport
    """That first build: every page, chart SVG and font subset made afresh."""
    work: dict[str, int]
    """What it produced (see :func:`counting_asset_work`)."""


@dataclass(frozen=True)
class WarmCopy:
    """The fresh copy built again, then once more after one sentence was added to lesson 03."""

    out: Path
    report: BuildReport
    work: dict[str, int]
    """How often the warm build rendered a chart SVG, subset a font, bundled Vega or rendered
    a lesson's page (``page <slug>``)."""
    edited_work: dict[str, int]
    """The same, for the build after the edit (into another folder, so ``out`` stays warm)."""


@contextlib.contextmanager
def counting_asset_work() -> Iterator[dict[str, int]]:
    """Count the calls that make what the asset cache keeps, and the lesson pages rendered
    (``page <slug>``; the page cache keeps them); timings belong in make bench."""
    counts = {"chart SVG": 0, "font subset": 0, "Vega bundle": 0}

    def rendering(*args: Any, **kwargs: Any) -> str:
        key = f"page {kwargs['slug']}"
        counts[key] = counts.get(key, 0) + 1
        return render_lesson(*args, **kwargs)

    targets = [
        ("chart SVG", vl_convert, "vegalite_to_svg"),
        ("font subset", fonts, "subset_woff2"),
        ("Vega bundle", vl_convert, "javascript_bundle"),
    ]

    def counted(label: str, call: Any) -> Any:
        def counting(*args: Any, **kwargs: Any) -> Any:
            counts[label] += 1
            return call(*args, **kwargs)

        return counting

    with pytest.MonkeyPatch.context() as patch:
        for label, owner, name in targets:
            patch.setattr(owner, name, counted(label, getattr(owner, name)))
        patch.setattr("privacy_explorer.site.render_lesson", rendering)
        yield counts


@contextlib.contextmanager
def importable_copy() -> Iterator[None]:
    """The build makes a copied project importable; undo that afterwards."""
    saved_path = list(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved_path


@pytest.fixture(scope="session")
def repo_sites(
    repo_project: Project, course_caches: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, bytes]]:
    """Every file of the real course as built by the run's first build and from the
    repository root with jobs=2 and jobs=1 (label -> path -> bytes).

    The run's first build (``course_caches``) computes every grid cold on a fresh clone, as
    in CI; after ``make site`` it starts from the repository's checked caches.
    """
    base = tmp_path_factory.mktemp("real-course")
    sites = {"first build of the run": snapshot(course_caches / "site")}
    for jobs in (2, 1):
        build(repo_project, base / f"repo-jobs{jobs}", jobs=jobs)
        sites[f"repo, jobs={jobs}"] = snapshot(base / f"repo-jobs{jobs}")
    return sites


@pytest.fixture(scope="session")
def fresh_copy(repo_project: Project, tmp_path_factory: pytest.TempPathFactory) -> FreshCopy:
    """A copy of the course given the computed results only (a cold compute of the course
    takes minutes; the tests of each lesson compute the points they visit afresh and compare
    them with these), so its first build renders every page, chart SVG, font subset and the
    Vega bundle from nothing."""
    base = tmp_path_factory.mktemp("real-course-copy")
    copy = base / "copy"
    for name in ("content", "compute", "data"):
        shutil.copytree(REPO / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "site.yml", copy / "site.yml")
    shutil.copytree(repo_project.build_dir / "results", copy / "build" / "results")
    with importable_copy():
        project = load_project(copy)
        with counting_asset_work() as work:
            report = build(project, base / "copy-cold", jobs=2)
    return FreshCopy(project, base / "copy-cold", report, dict(work))


@pytest.fixture(scope="session")
def warm_copy(fresh_copy: FreshCopy) -> WarmCopy:
    out = fresh_copy.out.parent / "copy-warm"
    with importable_copy():
        with counting_asset_work() as work:  # jobs=1: all of it runs in this process
            report = build(fresh_copy.project, out, jobs=1)
        edited = fresh_copy.project.root / "content" / "en" / "03-differential-privacy.md"
        edited.write_text(edited.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
        with counting_asset_work() as edited_work:
            build(fresh_copy.project, out.parent / "copy-edited", jobs=1)
    return WarmCopy(out, report, dict(work), dict(edited_work))


@REAL_COURSE
def test_only_pages_with_lazy_tables_or_a_changes_view_load_the_table_runtime(
    repo_sites: dict[str, dict[str, bytes]],
) -> None:
    files = repo_sites["first build of the run"]
    pages = [path for path in files if path.endswith(".html")]
    loading = set()
    for page in pages:
        html = files[page].decode("utf-8")
        sources = re.findall(r'<script src="([^"]+)"', html)
        scripts = [src.rsplit("/", 1)[-1] for src in sources]
        folder = posixpath.dirname(page)
        lazy = any(
            b'"tableChunks"' in files[posixpath.normpath(posixpath.join(folder, src))]
            for src in sources
            if "/data/" in src
        )
        needs = lazy or "data-changes" in html
        assert ("tables.js" in scripts) == needs, page
        if needs:  # before the runtime, which installs it
            assert scripts.index("tables.js") < scripts.index("explorer.js"), page
            loading.add(page)
    # Lesson 04's pages and embed pages, in both languages, and no other page.
    assert {page.rsplit("/", 1)[-1] for page in loading} == {"04-licenses.html"}
    assert len(loading) == 4


# --- (c) the result cache -------------------------------------------------------------------


@REAL_COURSE
def test_a_fresh_copy_of_the_real_course_reads_every_result_and_makes_every_asset(
    fresh_copy: FreshCopy,
) -> None:
    for run in fresh_copy.report.runs:
        assert run.computed == 0 and run.loaded and len(run.results) == run.cached > 0
    lessons = {f"page {run.lesson}" for run in fresh_copy.report.runs}
    assert {name for name in fresh_copy.work if name.startswith("page ")} == lessons
    assert all(fresh_copy.work[name] == 4 for name in lessons)  # page, embed; two languages
    assert fresh_copy.work["Vega bundle"] == 1
    assert fresh_copy.work["chart SVG"] > 0 and fresh_copy.work["font subset"] > 0


@REAL_COURSE
def test_real_course_warm_build_computes_and_renders_nothing(warm_copy: WarmCopy) -> None:
    assert sum(run.computed for run in warm_copy.report.runs) == 0
    for run in warm_copy.report.runs:  # every lesson from the page cache: no result even read
        assert run.cached > 0 and not run.loaded and run.results == {}
    # No lesson page renders; every font subset and the Vega bundle comes from the asset cache.
    assert warm_copy.work == {"chart SVG": 0, "font subset": 0, "Vega bundle": 0}


@REAL_COURSE
def test_real_course_one_edited_lesson_renders_that_lesson_only(warm_copy: WarmCopy) -> None:
    pages = {k: v for k, v in warm_copy.edited_work.items() if k.startswith("page ")}
    assert pages == {"page 03-differential-privacy": 4}  # page and embed page, two languages
    assert warm_copy.edited_work["Vega bundle"] == 0


@REAL_COURSE
def test_real_course_builds_are_byte_identical(
    repo_sites: dict[str, dict[str, bytes]], fresh_copy: FreshCopy, warm_copy: WarmCopy
) -> None:
    sites = {
        **repo_sites,
        "copy, rendered afresh, jobs=2": snapshot(fresh_copy.out),
        "copy, warm, jobs=1": snapshot(warm_copy.out),
    }
    (first_label, first), *others = sites.items()
    assert "index.html" in first and "en/index.html" in first
    for label, files in others:
        assert set(files) == set(first), f"{label} vs {first_label}"
        for path in sorted(first):
            assert files[path] == first[path], f"{path}: {label} differs from {first_label}"


def test_a_build_folder_elsewhere_leaves_the_project_folder_alone(
    cold_sample_project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    project = load_project(cold_sample_project, build_dir=elsewhere)
    report = build(project, tmp_path / "site", jobs=1)
    assert report.runs[0].computed == len(report.runs[0].results) > 0
    assert not (cold_sample_project / "build").exists()
    assert {path.name for path in elsewhere.iterdir()} == {".explorer-lock", *CACHE_FOLDERS}
    again = build(load_project(cold_sample_project, build_dir=elsewhere), tmp_path / "site", jobs=1)
    assert again.runs[0].computed == 0


def test_second_build_computes_nothing(sample_project: Path) -> None:
    first = sample_build(sample_project)
    second = sample_build(sample_project)
    grid_size = len(import_file(sample_project / "compute" / "dice.py").GRID)
    assert (first.runs[0].computed, first.runs[0].cached) == (grid_size, 0)
    assert (second.runs[0].computed, second.runs[0].cached) == (0, grid_size)
    assert not second.runs[0].loaded  # the lesson came from the page cache, no result read
    assert second.files == first.files
    assert len(cache_files(sample_project)) == grid_size


def test_editing_the_module_recomputes_everything_and_prunes_the_old_results(
    sample_project: Path,
) -> None:
    sample_build(sample_project)
    before = cache_files(sample_project)
    module = sample_project / "compute" / "dice.py"
    module.write_text(module.read_text("utf-8") + "# A comment changes the source digest.\n")
    report = sample_build(sample_project)
    assert (report.runs[0].computed, report.runs[0].cached) == (10, 0)
    after = cache_files(sample_project)
    assert len(after) == 10
    assert not after & before


def test_editing_data_and_its_checksum_recomputes(sample_project: Path) -> None:
    sample_build(sample_project)
    data = sample_project / "data" / "rolls.csv"
    old_digest = hashlib.sha256(data.read_bytes()).hexdigest()
    data.write_text("roll\n" + "6\n" * 10, "utf-8")
    new_digest = hashlib.sha256(data.read_bytes()).hexdigest()
    replace(sample_project / "data" / "SOURCES.md", old_digest, new_digest)
    report = sample_build(sample_project)
    assert (report.runs[0].computed, report.runs[0].cached) == (10, 0)
    default_key = "2-0"  # threshold=4 (third value), prior=none (first value)
    assert report.runs[0].results[default_key]["readouts"]["share"] == 1.0
    assert readout_texts((sample_project / "build/site/01-dice.html").read_bytes())["share"] == (
        "1.00"
    )


@pytest.mark.parametrize("damage", [b"", b'{"result": {"readouts"', b"[1, 2]", b"\xff\xfe"])
def test_a_damaged_cache_entry_is_recomputed(sample_project: Path, damage: bytes) -> None:
    first = sample_build(sample_project)
    victim = sorted((sample_project / "build" / "results" / "01-dice").iterdir())[3]
    intact = victim.read_bytes()
    victim.write_bytes(damage)
    report = sample_build(sample_project)
    assert (report.runs[0].computed, report.runs[0].cached) == (1, 9)
    assert report.runs[0].results == first.runs[0].results
    assert victim.read_bytes() == intact


def test_stale_cache_entries_are_pruned(sample_project: Path) -> None:
    sample_build(sample_project)
    results = sample_project / "build" / "results" / "01-dice"
    live = cache_files(sample_project)
    stale = results / f"{'0' * 64}.json"
    stale.write_text(json.dumps({"result": {"readouts": {}, "datasets": {}}}), "utf-8")
    forget_pages(sample_project)  # the lesson reads its results again
    report = sample_build(sample_project)
    assert report.runs[0].computed == 0
    assert not stale.exists()
    assert cache_files(sample_project) == live


# --- (d) adding a lesson the README way ------------------------------------------------------

COINS_MODULE = '''\
"""Second sample lesson: the share of heads in seeded coin flips."""

from __future__ import annotations

import random

import altair as alt

from privacy_explorer.lesson import Chart, Grid, Param, Readout

GRID = Grid(
    (
        Param("flips", (10, 20, 40, 80, 160), 20, {"ko": "던진 횟수", "en": "Flips"}),
        Param("seed", (0, 1, 2), 0, {"ko": "시드", "en": "Seed"}),
    )
)


def flip_coins(flips: int, seed: int) -> list[int]:
    """``flips`` fair coin flips (1 = heads) from a generator seeded with ``seed``."""
    generator = random.Random(seed)
    return [generator.randint(0, 1) for _ in range(flips)]


def compute(*, flips: int, seed: int) -> dict:
    outcomes = flip_coins(flips, seed)
    running = [
        {"flip": index + 1, "share": sum(outcomes[: index + 1]) / (index + 1)}
        for index in range(flips)
    ]
    return {
        "readouts": {"heads": sum(outcomes), "share": sum(outcomes) / flips},
        "datasets": {"running": running},
    }


def _running_chart(lang: str) -> alt.Chart:
    title = {"ko": "앞면 비율의 변화", "en": "Share of heads so far"}[lang]
    return (
        alt.Chart(alt.Data(name="running"), title=title, width=300, height=160)
        .mark_line()
        .encode(x=alt.X("flip:Q"), y=alt.Y("share:Q"))
    )


CHARTS = (
    Chart(
        "running",
        _running_chart,
        {"ko": "던질수록 앞면 비율이 바뀌는 모습.", "en": "How the share of heads moves."},
    ),
)
READOUTS = (
    Readout("heads", {"ko": "앞면 수", "en": "Heads"}, format="d"),
    Readout("share", {"ko": "앞면 비율", "en": "Share of heads"}, format=".3f"),
)
'''

COINS_PAGES = {
    "ko": """\
---
title: 동전
summary: 던진 횟수에 따라 앞면 비율이 어떻게 흔들리는지 본다.
order: 2
compute: coins
---

## 실습

{{< controls >}}

앞면은 {{< readout heads >}}번, 비율은 {{< readout share >}}이다.

{{< chart running >}}
""",
    "en": """\
---
title: Coins
summary: See how the share of heads wobbles with the number of flips.
order: 2
compute: coins
---

## Hands-on

{{< controls >}}

Heads came up {{< readout heads >}} times, a share of {{< readout share >}}.

{{< chart running >}}
""",
}


def test_adding_a_lesson_as_the_readme_describes(sample_project: Path) -> None:
    (sample_project / "compute" / "coins.py").write_text(COINS_MODULE, "utf-8")
    for lang, text in COINS_PAGES.items():
        (sample_project / "content" / lang / "02-coins.md").write_text(text, "utf-8")
    runner = CliRunner()
    check = runner.invoke(cli, ["check", "--strict", "--project", str(sample_project), "-j", "1"])
    assert check.exit_code == 0, check.output
    # 39: font subsets are named by content, so two pages with the same bold characters share
    # one; the runtime's table part (tables.js) is written even when no page loads it
    assert check.stdout == "OK: 2 lesson(s), 39 files, 0 warning(s).\n"
    result = runner.invoke(cli, ["build", "--project", str(sample_project), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Built 2 lesson(s), 11 pages (0 grid points computed, 25 from cache)."
    )
    site = sample_project / "build" / "site"
    for prefix in ("", "en/"):
        index = (site / prefix / "index.html").read_text("utf-8")
        cards = re.findall(r'<li class="lesson-card">\s*<a href="([^"]+)"', index)
        assert cards == ["01-dice.html", "02-coins.html"]
        dice = (site / prefix / "01-dice.html").read_text("utf-8")
        coins = (site / prefix / "02-coins.html").read_text("utf-8")
        assert re.findall(r'<a rel="(prev|next)" href="([^"]+)"', dice) == [
            ("next", "02-coins.html")
        ]
        assert re.findall(r'<a rel="(prev|next)" href="([^"]+)"', coins) == [
            ("prev", "01-dice.html")
        ]
    coins_module = import_file(sample_project / "compute" / "coins.py")
    default = coins_module.compute(flips=20, seed=0)
    assert readout_texts((site / "02-coins.html").read_bytes()) == {
        "heads": str(default["readouts"]["heads"]),
        "share": f"{default['readouts']['share']:.3f}",
    }
    data = page_data((site / "assets" / "data" / "02-coins.en.js").read_bytes(), "02-coins")
    assert len(data["points"]) == 15
    assert (site / "assets" / "charts" / "02-coins" / "running.en.svg").is_file()


# --- (e) writing the site is all or nothing --------------------------------------------------


def test_write_site_keeps_the_old_site_when_a_file_cannot_be_written(
    sample_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = sample_build(sample_project)
    site = (sample_project / "build" / "site").resolve()
    before = snapshot(site)
    # Every file changes: an unchanged one would be linked from the old site, not written.
    newer = {path: content + b"\n" for path, content in report.files.items()}
    write_bytes = Path.write_bytes
    written: list[Path] = []

    def disk_fills_up(self: Path, data: bytes) -> int:
        if len(written) == 3:
            raise OSError(28, "No space left on device", str(self))
        written.append(self)
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", disk_fills_up)
    with pytest.raises(ExplorerError) as failure:
        write_site(newer, site)
    monkeypatch.undo()
    fourth = sorted(newer)[2]  # the marker is written first
    assert failure.value.message == (
        f"{site / fourth}: cannot write it: the disk is full; free some disk space, then build "
        "again (the previous site was kept)"
    )
    assert len(written) == 3
    assert snapshot(site) == before
    assert not list(site.parent.glob(".site.*"))


def test_write_site_restores_the_old_site_when_the_swap_fails(
    sample_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = sample_build(sample_project)
    site = (sample_project / "build" / "site").resolve()
    before = snapshot(site)
    # Every file changes: an unchanged one would be linked from the old site, not written.
    newer = {path: content + b"\n" for path, content in report.files.items()}
    rename = Path.rename

    def refuse_to_swap_in(self: Path, target: Any) -> Path:
        if self.name.startswith(".site.new-"):  # putting the new site in place; not the undo
            raise PermissionError(13, "Permission denied", str(target))
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", refuse_to_swap_in)
    monkeypatch.setattr(output, "_exchange", lambda first, second: False)  # two renames
    with pytest.raises(ExplorerError, match="the previous site was kept"):
        write_site(newer, site)
    monkeypatch.undo()
    assert snapshot(site) == before
    assert not list(site.parent.glob(".site.*"))


# --- (f) tables, drop-down lists, large grids ------------------------------------------------


def table_body(html: bytes, name: str) -> tuple[str, list[list[str]]]:
    """The opening tag of table ``name`` and its body rows as cell texts."""
    text = html.decode()
    match = re.search(
        rf'(<div class="data-table[^"]*" id="table-{name}"[^>]*>).*?<tbody data-table-body>(.*?)'
        r"</tbody>",
        text,
        re.S,
    )
    assert match is not None, name
    rows = [
        [unescape(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", match.group(2), re.S)
    ]
    return match.group(1), rows


@pytest.mark.parametrize(("page", "lang"), [("01-dice.html", "ko"), ("en/01-dice.html", "en")])
def test_tables_show_the_default_point_and_the_whole_grid_rows(
    sample_site: tuple[Path, dict[str, bytes]], page: str, lang: str
) -> None:
    project, files = sample_site
    dice = import_file(project / "compute" / "dice.py")
    html = files[page]
    tag, rows = table_body(html, "faces")
    assert "data-live" in tag and "data-row-headers" in tag
    default = dice.compute(threshold=4, prior="none")["datasets"]["faces"]
    assert rows == [[str(row["face"]), str(row["count"])] for row in default]
    assert '<th scope="row">1</th>' in html.decode()
    tag, rows = table_body(html, "by_threshold")
    assert "data-live" not in tag  # a whole-grid table is the same at every point
    shares = [dice.compute(threshold=t, prior="none")["readouts"]["share"] for t in range(2, 7)]
    assert rows == [[str(t), f"{share:.2f}"] for t, share in zip(range(2, 7), shares, strict=True)]
    assert (
        "<caption>" + {"ko": "각 눈이 나온 횟수", "en": "How often each face came up"}[lang]
    ) in (html.decode())
    # The live table's rows at every point are in the page data, as cell texts.
    data = page_data(files[f"assets/data/01-dice.{lang}.js"], "01-dice")
    for i, threshold in enumerate(range(2, 7)):
        faces = dice.compute(threshold=threshold, prior="add_one")["datasets"]["faces"]
        point = data["points"][f"{i}-1"]
        assert data["datasets"][point["t"]["faces"]] == [
            [str(row["face"]), str(row["count"])] for row in faces
        ]
        assert set(point["t"]) == {"faces"}


LETTERS_MODULE = '''\
"""A lesson with one parameter of many words: it gets a drop-down list."""

from privacy_explorer.lesson import Grid, Param, Readout

LETTERS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")
GRID = Grid(
    (
        Param(
            "letter",
            LETTERS,
            "gamma",
            {"ko": "글자", "en": "Letter"},
            value_labels={"ko": tuple(f"{w} <글자>" for w in LETTERS), "en": LETTERS},
        ),
    )
)


def compute(*, letter: str) -> dict:
    return {"readouts": {"length": len(letter)}, "datasets": {}}


READOUTS = (Readout("length", {"ko": "길이", "en": "Length"}, format="d"),)
'''


def test_a_parameter_of_many_words_gets_a_labelled_drop_down_list(sample_project: Path) -> None:
    (sample_project / "compute" / "letters.py").write_text(LETTERS_MODULE, "utf-8")
    for lang, title in (("ko", "글자"), ("en", "Letters")):
        (sample_project / "content" / lang / "02-letters.md").write_text(
            f"---\ntitle: {title}\nsummary: {title}.\norder: 2\ncompute: letters\n---\n\n"
            "{{< controls >}}\n\n{{< readout length >}}\n",
            "utf-8",
        )
    sample_build(sample_project)
    html = (sample_project / "build" / "site" / "02-letters.html").read_text("utf-8")
    assert '<label for="control-letter">글자</label>' in html
    assert '<select id="control-letter" name="letter" data-param="letter" disabled>' in html
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]*)</option>', html)
    letters = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")
    assert [(value, text) for value, _, text in options] == [
        (str(i), f"{word} &lt;글자&gt;") for i, word in enumerate(letters)
    ]
    assert [value for value, selected, _ in options if selected] == ["2"]
    assert 'type="radio"' not in html
    assert "assets/vega.js" not in html  # no charts on the page: the Vega bundle is not loaded


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the 10-point sample grid 'large': batches of 3 points, compact page data."""
    monkeypatch.setattr(runner, "BATCH_ABOVE", 4)
    monkeypatch.setattr(runner, "BATCH_SIZE", 3)
    monkeypatch.setattr(render, "COMPACT_POINTS_ABOVE", 4)


def test_a_large_grid_is_cached_in_batches(sample_project: Path, small_batches: None) -> None:
    first = sample_build(sample_project)
    assert (first.runs[0].computed, first.runs[0].cached) == (10, 0)
    batches = sorted((sample_project / "build" / "results" / "01-dice").iterdir())
    assert len(batches) == 4  # 3 + 3 + 3 + 1 points
    stored = [json.loads(path.read_text("utf-8")) for path in batches]
    # A batch of one point is stored like any single point, under its own key.
    entries = [batch.get("entries", [batch]) for batch in stored]
    assert sorted(len(e) for e in entries) == [1, 3, 3, 3]
    forget_pages(sample_project)  # the lesson reads its results again
    second = sample_build(sample_project)
    assert (second.runs[0].computed, second.runs[0].cached) == (0, 10)
    assert second.runs[0].results == first.runs[0].results
    # A damaged batch is recomputed on its own; a stale one is pruned.
    victim = next(path for path, e in zip(batches, entries, strict=True) if len(e) == 3)
    intact = victim.read_bytes()
    victim.write_bytes(b'{"entries": [')
    stale = victim.parent / f"{'0' * 64}.json"
    stale.write_text('{"entries": []}', "utf-8")
    third = sample_build(sample_project)
    assert (third.runs[0].computed, third.runs[0].cached) == (3, 7)
    assert victim.read_bytes() == intact
    assert not stale.exists()


def test_compact_page_data_stores_a_field_once_per_value_of_the_parameters_it_follows() -> None:
    grid = Grid(
        (
            Param("a", (1, 2, 3), 1, {"ko": "가", "en": "A"}),
            Param("b", (1, 2), 1, {"ko": "나", "en": "B"}),
            Param("c", (1, 2, 3, 4), 1, {"ko": "다", "en": "C"}),
        )
    )
    points = {
        grid.key(point): {
            "r": {
                "fixed": "7",
                "by_a": f"a{point['a']}",
                "by_ac": f"{point['a']}.{point['c']}",
                "by_c": f"c{point['c']}",
            },
            "d": {"rows": str(point["b"])},
        }
        for point in grid
    }
    texts = render._Interned()
    compact = render.compact_points(
        grid,
        points,
        module_readouts=("fixed", "by_a", "by_ac", "by_c"),
        used=("rows",),
        tables=(),
        texts=texts,
    )
    follows = {
        tuple(compact["layout"]["r"][f] if f < 4 else "rows" for f in group["fields"]): (
            group["by"],
            len(group["points"]),
        )
        for group in compact["groups"]
    }
    assert follows == {
        ("fixed",): ([], 1),
        ("by_a",): ([0], 3),
        ("by_ac",): ([0, 2], 12),
        ("by_c",): ([2], 4),
        ("rows",): ([1], 2),
    }
    params = [{"values": list(p.values)} for p in grid.params]
    expanded = render.expand_page_data({**compact, "params": params, "datasets": {}})
    assert expanded["points"] == points


def test_compact_page_data_expands_to_the_plain_form(
    sample_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample_build(sample_project, tmp_path / "plain")
    monkeypatch.setattr(render, "COMPACT_POINTS_ABOVE", 4)
    forget_pages(sample_project)  # the lesson renders again, with the compact form
    sample_build(sample_project, tmp_path / "compact")
    for lang in ("ko", "en"):
        name = f"assets/data/01-dice.{lang}.js"
        plain = page_data((tmp_path / "plain" / name).read_bytes(), "01-dice")
        compact = page_data((tmp_path / "compact" / name).read_bytes(), "01-dice")
        assert "groups" in compact and "groups" not in plain and "points" not in compact
        sizes = [len(p["values"]) for p in compact["params"]]
        for group in compact["groups"]:
            # One variant per combination of the parameters the group follows, in grid order.
            assert len(group["points"]) == math.prod(sizes[axis] for axis in group["by"])
            assert group["by"] == sorted(group["by"])
            assert max(group["points"]) < len(group["variants"])
        fields = sorted(field for group in compact["groups"] for field in group["fields"])
        layout = compact["layout"]
        assert fields == list(range(len(layout["r"]) + len(layout["d"]) + len(layout["t"])))
        expanded = expand_page_data(compact)
        assert expanded.keys() == plain.keys()
        assert expanded["points"].keys() == plain["points"].keys()
        for key, want in plain["points"].items():
            got = expanded["points"][key]
            assert got["r"] == want["r"], key
            for kind in ("d", "t"):  # dataset ids may differ; the rows they name may not
                assert got[kind].keys() == want[kind].keys(), key
                for name, ref in want[kind].items():
                    rows = expanded["datasets"][got[kind][name]]
                    assert rows == plain["datasets"][ref], (key, name)


def test_grouped_points_are_computed_and_cached_together(sample_project: Path) -> None:
    plain = sample_build(sample_project)
    module = sample_project / "compute" / "dice.py"
    source = module.read_text("utf-8")
    module.write_text(
        source.replace("        ),\n    )\n)", "        ),\n    ),\n    group_by=('prior',),\n)")
    )
    grouped = sample_build(sample_project)
    assert (grouped.runs[0].computed, grouped.runs[0].cached) == (10, 0)
    assert grouped.runs[0].results == plain.runs[0].results
    results = sample_project / "build" / "results" / "01-dice"
    batches = [
        json.loads((results / name).read_text("utf-8")) for name in cache_files(sample_project)
    ]
    assert len(batches) == 2  # one file per value of 'prior', five thresholds each
    for batch in batches:
        assert len(batch["entries"]) == 5
        assert len({entry["point"]["prior"] for entry in batch["entries"]}) == 1
    assert sample_build(sample_project).runs[0].cached == 10


def test_a_control_placed_twice_gets_two_instances_bound_to_one_parameter(
    sample_project: Path,
) -> None:
    """Beside each figure it moves: the second instance has its own id and landmark name."""
    for lang in ("ko", "en"):
        lesson = sample_project / "content" / lang / "02-letters.md"
        (sample_project / "compute" / "letters.py").write_text(LETTERS_MODULE, "utf-8")
        lesson.write_text(
            "---\ntitle: Letters\nsummary: Letters.\norder: 2\ncompute: letters\n---\n\n"
            "{{< controls >}}\n\n{{< readout length >}}\n\n{{< controls letter >}}\n",
            "utf-8",
        )
    sample_build(sample_project)
    html = (sample_project / "build" / "site" / "en" / "02-letters.html").read_text("utf-8")
    assert re.findall(r'<select id="([^"]+)" name="letter" data-param="letter"', html) == [
        "control-letter",
        "control-letter-2",
    ]
    assert '<label for="control-letter-2">Letter</label>' in html
    assert re.findall(r'<form class="controls" aria-label="([^"]+)"', html) == [
        "Controls: Letter",
        "Controls: Letter (2)",
    ]
