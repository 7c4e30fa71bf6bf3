"""The build, top to bottom: plan, compute, render, check, write.

Each stage is a function with typed inputs and outputs, in a module of its own:

1. :func:`~privacy_explorer.plan.plan` gathers and validates every lesson, its
   compute module and its Markdown (every directive's names included) before any
   work -> :class:`~privacy_explorer.plan.Plan`;
2. :func:`~privacy_explorer.results.compute` computes (or reads from the cache) each
   lesson's grid, summarizes it and checks the results against the pages ->
   one :class:`~privacy_explorer.results.LessonResults` per lesson;
3. :func:`~privacy_explorer.site.render` renders every file of the site in memory
   from those results, running no lesson code -> :data:`~privacy_explorer.site.SiteFiles`;
4. :func:`check` checks every link between the files;
5. :func:`~privacy_explorer.output.write_site` writes them.

Nothing is written to the site folder until every page has rendered and every
link checks out; the new site is written beside the old one and swapped in, so
a failed build leaves the previous site untouched.
"""

from __future__ import annotations

import contextlib
import re
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from privacy_explorer import embed, heap, wording
from privacy_explorer.cluster import Cluster
from privacy_explorer.errors import ComputeError, OutputError, exit_call, location, raise_collected
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.links import PageSource, check_links
from privacy_explorer.output import BuildLock, check_target, write_site
from privacy_explorer.plan import Plan, PlannedLesson, plan
from privacy_explorer.project import Project
from privacy_explorer.results import ComputeSettings, LessonResults, compute
from privacy_explorer.runner import GridRun, Progress
from privacy_explorer.site import SiteFiles, render, site_path
from privacy_explorer.templates import load_templates, template_errors

STATIC_ASSETS = ("style.css", "explorer.js", "tables.js", "fonts/OFL.txt")
"""Copied as they are (style.css without its fonts); each page's fonts: see page_fonts."""

__all__ = [
    "BuildReport",
    "ComputeSettings",
    "LessonResults",
    "Plan",
    "PlannedLesson",
    "Reporter",
    "SiteFiles",
    "build",
    "check",
    "compute",
    "page_sources",
    "plan",
    "render",
    "site_path",
    "unbuilt_pages",
    "write_site",
]


@dataclass
class Reporter:
    """Where the build tells what it is doing; the CLI prints, tests collect."""

    warning: Callable[[str], None] = lambda message: None
    progress: Callable[[str], Progress] = lambda slug: lambda done, total, cached: None


@dataclass
class BuildReport:
    """What a build (or check) did."""

    lessons: list[str] = field(default_factory=list)
    """Slugs of the lessons built."""
    runs: list[GridRun] = field(default_factory=list)
    """The grid runs, with how many points came from the cache."""
    studies: list[GridRun] = field(default_factory=list)
    """The runs of the lessons' ``STUDY`` grids (one per lesson that has one)."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Every file of the site, by relative path."""
    warnings: list[str] = field(default_factory=list)
    """Problems that do not stop the build (errors under ``--strict``)."""
    out: Path | None = None
    """Where the site was written (``None`` for a check)."""


def page_sources(planned: Sequence[PlannedLesson], root: Path) -> dict[str, PageSource]:
    """Each lesson page's Markdown, by the page's path in the site (its embed page's too)."""
    sources: dict[str, PageSource] = {}
    for item in planned:
        for lang in LANGUAGES:
            source = item.lesson.pages[lang].source
            sources[site_path(lang, f"{item.lesson.slug}.html")] = PageSource(
                path=location(source.path, None, root),
                body=source.body,
                first_line=source.body_first_line,
            )
            embed_page = site_path(lang, embed.embed_path(item.lesson.slug))
            sources[embed_page] = sources[site_path(lang, f"{item.lesson.slug}.html")]
    return sources


def unbuilt_pages(plan: Plan) -> set[str]:
    """The lesson pages (and embed pages) of the lessons that ``--only`` leaves out."""
    return {
        site_path(lang, page)
        for slug in plan.left_out
        for lang in LANGUAGES
        for page in (f"{slug}.html", embed.embed_path(slug))
    }


def check(files: SiteFiles, plan: Plan) -> None:
    """Every link between the site's files finds its target (see :mod:`privacy_explorer.links`),
    and every page's words agree with what they follow (:func:`check_wording`).

    A link to a lesson of the course that this build leaves out (``--only``) is not broken.
    """
    project = plan.project
    sources = page_sources(plan.lessons, project.root)
    check_links(files, sources, unbuilt=unbuilt_pages(plan))
    check_wording(files, sources)


CHART_PICTURE = re.compile(r"assets/charts/[^/]+/[^/]+\.(?P<lang>ko|en)\.svg")
"""A chart's picture as the build writes it, by lesson, chart and language."""


def check_wording(files: SiteFiles, sources: Mapping[str, PageSource]) -> None:
    """Korean particles after Greek letters, Latin names with numbers, units and quoted titles,
    and English units after numbers, on every page (:mod:`privacy_explorer.wording`). A problem
    is named at its line in the Markdown when the author wrote it there, else at its line in
    the built page (a text from a lesson module or a template)."""
    messages = []
    for page in sorted(files):
        chart = CHART_PICTURE.fullmatch(page)
        if chart is not None:  # the texts charts draw, in the chart's language
            for problem in wording.chart_problems(files[page].decode("utf-8"), chart["lang"]):
                messages.append(f"{page}: text {problem.line} of the chart: {problem.describe()}")
            continue
        if not page.endswith(".html") or "/embed/" in f"/{page}":  # embed pages repeat lessons
            continue
        lang = "en" if page.startswith("en/") else "ko"
        source = sources.get(page)
        for problem in wording.page_problems(files[page].decode("utf-8"), lang):
            written = None if source is None else wording.source_line(problem, source.body)
            if source is not None and written is not None:
                where = replace(problem, line=source.first_line + written)
                messages.append(f"{where.message(source.path)} (on {page}:{problem.line})")
            else:
                messages.append(problem.message(page))
    raise_collected(messages)


def _check_out(out: Path, project: Project) -> None:
    """Refuse a site folder that would swallow the project or its build folder."""
    if project.root.is_relative_to(out) or out == project.build_dir.resolve():
        raise OutputError(
            f"{out}: the site cannot go here: it holds the project or its build folder; "
            "choose a folder of its own with --out (default: build/site)"
        )


@contextlib.contextmanager
def _modules_may_not_exit(project: Project) -> Iterator[None]:
    """A lesson module that calls sys.exit() stops the build with an error, never with status 0.

    Compute and summarize() are caught where they run; this catches the rest
    (a chart builder, say) and names the project file and line that exited.
    """
    try:
        yield
    except SystemExit as exc:
        root = project.root.resolve()
        frames = [
            frame
            for frame in traceback.extract_tb(exc.__traceback__)
            if Path(frame.filename).resolve().is_relative_to(root)
        ]
        where = (
            location(Path(frames[-1].filename), frames[-1].lineno, project.root)
            if frames
            else "a lesson module"
        )
        raise ComputeError(
            f"{where}: called {exit_call(exc)} during the build; a module must never end the "
            "build: raise an exception that says what is wrong instead"
        ) from None


def build(
    project: Project,
    out: Path | None = None,
    *,
    only: str | None = None,
    jobs: int = 1,
    strict: bool = False,
    reporter: Reporter | None = None,
    write: bool = True,
    force: bool = False,
    yes: bool = False,
    scheduler: str | None = None,
) -> BuildReport:
    """Build the site of ``project`` into ``out`` (default ``build/site``).

    With ``write=False`` everything is validated, computed, rendered and
    link-checked, but the site folder is not touched (``explorer check``).
    ``force`` lets the site go into a folder the explorer did not write (see
    :func:`privacy_explorer.output.write_site`); ``yes`` lets a very large grid
    be computed. ``scheduler`` computes the grid points on a Dask cluster: the
    address of its scheduler, or ``"local"`` for a ``LocalCluster`` of ``jobs``
    worker processes (see :mod:`privacy_explorer.cluster`). The build holds the
    project's lock from the first computation to the last file written.
    """
    reporter = reporter or Reporter()
    planned = plan(project, only)
    report = BuildReport(warnings=list(planned.warnings))
    if strict and report.warnings:
        raise_collected([f"{w} (an error under --strict)" for w in report.warnings])
    for warning in report.warnings:
        reporter.warning(warning)
    templates = load_templates(project, STATIC_ASSETS)
    target = (out or project.build_dir / "site").resolve() if write else None
    if target is not None:
        _check_out(target, project)
    computers = Cluster(scheduler, jobs) if scheduler else contextlib.nullcontext()
    with (
        BuildLock(project.build_dir),
        _modules_may_not_exit(project),
        template_errors(project),
        computers as cluster,
        heap.long_lived_objects_frozen(),
    ):
        settings = ComputeSettings(jobs=jobs, large_grids=yes, cluster=cluster)
        if target is not None:
            check_target(target, force=force)
        results = compute(planned, settings, reporter.progress)
        report.runs = [lesson.run for lesson in results if lesson.run is not None]
        report.studies = [lesson.study for lesson in results if lesson.study is not None]
        heap.keep_what_exists()
        report.files = render(planned, results, templates)
        report.lessons = [item.lesson.slug for item in planned.lessons]
        check(report.files, planned)
        if target is not None:
            write_site(report.files, target, force=force)
            report.out = target
    return report
