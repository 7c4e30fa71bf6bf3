"""The build, top to bottom: gather and validate everything, compute, render, then write.

Nothing is written to the site folder until every page has rendered and every
link checks out; the new site is written beside the old one and swapped in, so
a failed build leaves the previous site untouched.
"""

from __future__ import annotations

import contextlib
import functools
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from privacy_explorer import charts as chart_tools
from privacy_explorer import embed, korean, page_fonts, pagecache, publish
from privacy_explorer import fonts as font_tools
from privacy_explorer.cluster import Cluster
from privacy_explorer.errors import (
    ComputeError,
    ContentError,
    ExplorerError,
    OutputError,
    exit_call,
    location,
    raise_collected,
)
from privacy_explorer.lazy import chunk_files, lazy_tables, lesson_lazy_rows, table_chunk_files
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.links import PageSource, check_links
from privacy_explorer.markup import ParsedMarkdown, parse_markdown
from privacy_explorer.modules import LessonModule, load_module
from privacy_explorer.output import BuildLock, check_target, write_site
from privacy_explorer.project import Lesson, Project, discover_lessons
from privacy_explorer.provenance import verify_data_files
from privacy_explorer.render import (
    PageContext,
    data_script,
    default_rows,
    lesson_data,
    live_tables,
    render_lesson,
)
from privacy_explorer.runner import (
    GridRun,
    Progress,
    cached_files,
    describe_point,
    json_ready,
    run_grid,
    run_study,
)
from privacy_explorer.templates import SiteTemplates, load_templates, template_errors

STATIC_ASSETS = ("style.css", "explorer.js", "fonts/OFL.txt")
"""Copied as they are (style.css without its fonts); each page's fonts: see page_fonts."""

__all__ = ["BuildReport", "Reporter", "build", "plan", "render_site", "write_site"]


@dataclass
class Reporter:
    """Where the build tells what it is doing; the CLI prints, tests collect."""

    warning: Callable[[str], None] = lambda message: None
    progress: Callable[[str], Progress] = lambda slug: lambda done, total, cached: None


@dataclass(frozen=True)
class PlannedLesson:
    """A lesson whose content and module passed validation."""

    lesson: Lesson
    """The lesson as written."""
    module: LessonModule | None
    """Its compute module, if it has one."""
    parsed: dict[str, ParsedMarkdown]
    """Its Markdown per language, math rendered, directives collected."""


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


def _check_directives(
    planned: PlannedLesson, lang: str, root: Path, problems: list[str], warnings: list[str]
) -> None:
    parsed, module = planned.parsed[lang], planned.module
    path = parsed.path
    if module is None:
        for directive in parsed.directives:
            problems.append(
                f"{location(path, directive.line, root)}: '{directive.kind}' needs a compute "
                "module; add 'compute: <module>' to the front matter"
            )
        return
    available = {
        "controls": module.grid.names,
        "chart": tuple(module.charts),
        "readout": tuple(module.readouts),
        "table": tuple(module.tables),
        "changes": (*module.readouts, *module.tables),
    }
    placed_controls: dict[str, int] = {}
    placed_charts: dict[str, int] = {}
    placed_tables: dict[str, int] = {}
    for directive in parsed.directives:
        where = location(path, directive.line, root)
        names = directive.names or (module.grid.names if directive.kind == "controls" else ())
        for name in names:
            if name not in available[directive.kind]:
                kind = {"controls": "control", "changes": "readout or table"}.get(
                    directive.kind, directive.kind
                )
                known = ", ".join(available[directive.kind]) or "none"
                problems.append(f"{where}: unknown {kind} '{name}'; {module.name} defines: {known}")
                continue
            placed = {
                "controls": placed_controls,
                "chart": placed_charts,
                "table": placed_tables,
            }.get(directive.kind)
            if placed is not None:
                if name in placed:
                    problems.append(
                        f"{where}: the {directive.kind.rstrip('s')} '{name}' is already placed "
                        f"on line {placed[name]}; place it once per page"
                    )
                placed[name] = directive.line
    page = location(path, None, root)
    for name in module.grid.names:
        if name not in placed_controls:
            warnings.append(
                f"{page}: no control for '{name}': learners cannot change it; "
                f"add '{{{{< controls {name} >}}}}' (or '{{{{< controls >}}}}' for all)"
            )
    for name in module.charts:
        if name not in placed_charts:
            warnings.append(
                f"{page}: chart '{name}' is defined but not placed; "
                f"add '{{{{< chart {name} >}}}}' on a line of its own"
            )
    for name in module.tables:
        if name not in placed_tables:
            warnings.append(
                f"{page}: table '{name}' is defined but not placed; "
                f"add '{{{{< table {name} >}}}}' on a line of its own"
            )


def plan(project: Project, only: str | None, warnings: list[str]) -> list[PlannedLesson]:
    """Gather and validate every lesson, its module and its Markdown (nothing is computed)."""
    lessons = discover_lessons(project)
    if only is not None:
        chosen = [lesson for lesson in lessons if only in (lesson.slug, lesson.slug[:2])]
        if not chosen:
            known = ", ".join(lesson.slug for lesson in lessons)
            raise ExplorerError(f"--only {only}: no such lesson; choose one of: {known}")
        lessons = chosen
    problems: list[str] = []
    modules: dict[str, LessonModule] = {}
    planned: list[PlannedLesson] = []
    root = project.root
    for lesson in lessons:
        module = None
        if lesson.compute is not None:
            if lesson.compute not in modules:
                first = lesson.pages[LANGUAGES[0]].source
                named_by = location(first.path, first.meta_lines.get("compute"), root)
                try:
                    modules[lesson.compute] = load_module(
                        project.compute_dir, lesson.compute, root, named_by
                    )
                except ExplorerError as exc:
                    problems.append(exc.message)
                    continue
            module = modules[lesson.compute]
        parsed: dict[str, ParsedMarkdown] = {}
        for lang, page in lesson.pages.items():
            source = page.source
            try:
                parsed[lang] = parse_markdown(
                    source.path, source.body, source.body_first_line, root
                )
            except ContentError as exc:
                problems.append(exc.message)
        if len(parsed) != len(lesson.pages):
            continue
        item = PlannedLesson(lesson=lesson, module=module, parsed=parsed)
        for lang in LANGUAGES:
            _check_directives(item, lang, root, problems, warnings)
        planned.append(item)
    raise_collected(problems)
    return planned


def _summary(
    planned: PlannedLesson, run: GridRun, study: GridRun | None, root: Path
) -> dict[str, list[dict[str, Any]]]:
    module = planned.module
    if module is None or module.summarize is None:
        return {}
    where = f"{location(module.path, None, root)}: summarize()"
    arguments = (run.results,) if study is None else (run.results, study.results)
    try:
        summary = json_ready(module.summarize(*arguments), "summary")
    except ValueError as exc:
        raise ComputeError(f"{where} returned an unusable value: {exc}") from None
    except SystemExit as exc:
        raise ComputeError(
            f"{where} called {exit_call(exc)}; it must return datasets, or raise an exception "
            "that says what is wrong"
        ) from None
    except Exception as exc:
        raise ComputeError(f"{where} raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(summary, dict) or any(not isinstance(v, list) for v in summary.values()):
        raise ComputeError(f"{where} must return {{dataset name: list of rows}}")
    return summary


def _chart_specs(
    planned: PlannedLesson, run: GridRun, summary: dict[str, Any], lang: str, root: Path
) -> dict[str, chart_tools.ChartSpec]:
    module = planned.module
    if module is None:
        return {}
    placed = {d.names[0] for d in planned.parsed[lang].directives if d.kind == "chart"}
    specs: dict[str, chart_tools.ChartSpec] = {}
    for name in sorted(placed):
        spec = chart_tools.chart_spec(module.charts[name], lang, module.grid, module.path, root)
        for point in module.grid:
            result = run.results[module.grid.key(point)]
            missing = sorted(set(spec.datasets) - set(result.get("datasets", {})) - set(summary))
            if missing:
                raise ComputeError(
                    f"{location(module.path, None, root)}: chart '{name}' reads dataset "
                    f"'{missing[0]}', which compute() did not return for lesson "
                    f"{planned.lesson.slug}, grid point ({describe_point(point)}); "
                    "return it in result['datasets'] or fix the chart"
                )
        specs[name] = spec
    return specs


def _check_tables(
    planned: PlannedLesson, run: GridRun, summary: dict[str, Any], root: Path
) -> None:
    """Every placed table finds its rows, with every column, at every grid point."""
    module = planned.module
    if module is None:
        return
    placed = sorted(
        {
            d.names[0]
            for parsed in planned.parsed.values()
            for d in parsed.directives
            if d.kind == "table"
        }
    )
    where = location(module.path, None, root)
    for name in placed:
        table = module.tables[name]
        if name in summary:
            sources = [("summarize()", summary[name])]
        else:
            sources = []
            for point in module.grid:
                rows = run.results[module.grid.key(point)].get("datasets", {}).get(name)
                described = f"compute() for grid point ({describe_point(point)})"
                if rows is None:
                    raise ComputeError(
                        f"{where}: table '{name}' shows dataset '{name}', which {described} of "
                        f"lesson {planned.lesson.slug} did not return; return it in "
                        "result['datasets'] (or from summarize()) or remove the table"
                    )
                sources.append((described, rows))
        checked: set[str] = set()
        for described, rows in sources:
            if repr(rows) in checked:
                continue  # many grid points share their rows
            checked.add(repr(rows))
            for number, row in enumerate(rows):
                for column in table.columns:
                    if column.field not in row:
                        raise ComputeError(
                            f"{where}: table '{name}' has a column '{column.field}', but row "
                            f"{number} from {described} has no such field; add it to every row"
                        )
                    try:
                        for lang in LANGUAGES:
                            column.text(row[column.field], lang)
                    except (TypeError, KeyError, ValueError) as exc:
                        raise ComputeError(
                            f"{where}: table '{name}' cannot show field '{column.field}' of row "
                            f"{number} from {described} ({type(exc).__name__}: {exc}); give a "
                            "text, a number, a list of texts or a text per language"
                        ) from None


def _check_particles(planned: PlannedLesson, run: GridRun, root: Path) -> None:
    """Every readout with a particle can be read aloud at every grid point, so the page never
    has to guess the particle's form (``{{< readout NAME 가 >}}``; see korean.py)."""
    module = planned.module
    if module is None:
        return
    for lang, parsed in planned.parsed.items():
        for directive in parsed.directives:
            if directive.kind != "readout" or not directive.particle:
                continue
            name = directive.names[0]
            readout = module.readouts[name]
            texts = {
                readout.text(result["readouts"][name], lang) for result in run.results.values()
            }
            for text in sorted(texts):
                try:
                    korean.particle(directive.particle).after(text)
                except ValueError as exc:
                    raise ContentError(
                        f"{location(parsed.path, directive.line, root)}: the particle after "
                        f"readout '{name}' depends on how its value is read, but {exc}; "
                        "drop the particle or rephrase the sentence"
                    ) from None


def site_path(lang: str, name: str) -> str:
    """Where page ``name`` in ``lang`` lives: the first language at the root, others in a folder."""
    return name if lang == LANGUAGES[0] else f"{lang}/{name}"


def page_context(
    project: Project, strings: dict[str, dict[str, str]], lang: str, name: str
) -> PageContext:
    """The surroundings of page ``name`` (e.g. ``index.html``) in ``lang``."""
    other = LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]
    root_rel = "" if lang == LANGUAGES[0] else "../"
    url = project.base_url
    return PageContext(
        lang=lang,
        root=root_rel,
        other_lang=other,
        other_lang_href=root_rel + site_path(other, name),
        strings=strings[lang],
        site_title=project.title[lang],
        site_description=project.description[lang],
        page_url=publish.public_url(url, site_path(lang, name)) if url else None,
        other_lang_url=publish.public_url(url, site_path(other, name)) if url else None,
    )


def _pager_link(planned: list[PlannedLesson], position: int, lang: str) -> dict[str, str] | None:
    if not 0 <= position < len(planned):
        return None
    lesson = planned[position].lesson
    return {"href": f"{lesson.slug}.html", "title": lesson.pages[lang].title}


@dataclass(frozen=True)
class ComputeSettings:
    """How the lessons' grids are computed."""

    jobs: int = 1
    """Worker processes; with 1, points are computed in the build's own process."""
    large_grids: bool = False
    """Whether a grid with more points to compute than ``runner.LARGE_GRID`` may run (``--yes``)."""
    cluster: Cluster | None = None
    """The Dask cluster that computes the grid points instead (``--scheduler``), if any."""


def _run_lesson(
    project: Project,
    item: PlannedLesson,
    checksums: dict[str, str],
    report: BuildReport,
    reporter: Reporter,
    settings: ComputeSettings,
) -> tuple[GridRun | None, dict[str, Any]]:
    """Compute (or fetch from the cache) the lesson's grid and study, and summarize them."""
    module = item.module
    if module is None:
        return None, {}
    slug = item.lesson.slug
    arguments = (slug, module, checksums, project.build_dir / "results", project.root)
    run = run_grid(
        *arguments,
        progress=reporter.progress(slug),
        jobs=settings.jobs,
        timeout=item.lesson.timeout,
        large_grid_ok=settings.large_grids,
        cluster=settings.cluster,
    )
    report.runs.append(run)
    study = None
    if module.study_grid is not None:
        study = run_study(
            *arguments,
            progress=reporter.progress(f"{slug} STUDY"),
            jobs=settings.jobs,
            timeout=item.lesson.timeout,
            large_grid_ok=settings.large_grids,
            cluster=settings.cluster,
        )
        report.studies.append(study)
    return run, _summary(item, run, study, project.root)


@dataclass(frozen=True)
class SiteParts:
    """What every lesson's pages share, read once per build."""

    templates: SiteTemplates
    """Templates, strings and static files."""
    fonts: font_tools.ShippedFonts
    """The fonts charts are measured and drawn with."""
    asset_cache: Path
    """The asset cache (chart SVGs, font subsets, the Vega bundle)."""


def _lesson_files(
    project: Project,
    planned: list[PlannedLesson],
    position: int,
    checksums: dict[str, str],
    parts: SiteParts,
    report: BuildReport,
    reporter: Reporter,
    settings: ComputeSettings,
) -> dict[str, str]:
    """Compute one lesson's grid and render its files: pages, embed pages, data, chart SVGs."""
    root = project.root
    item = planned[position]
    env, strings = parts.templates.env, parts.templates.strings
    lesson, module = item.lesson, item.module
    files: dict[str, str] = {}
    run, summary = _run_lesson(project, item, checksums, report, reporter, settings)
    if run is not None:
        _check_tables(item, run, summary, root)
        _check_particles(item, run, root)
    result: dict[str, Any] = {"readouts": {}, "datasets": {}}
    by_lang = {
        lang: _chart_specs(item, run, summary, lang, root) if run else {} for lang in LANGUAGES
    }
    lazy = None
    if module is not None and run is not None:
        result = run.results[module.grid.key(module.grid.default)]
        every_spec = [spec for specs in by_lang.values() for spec in specs.values()]
        lazy = lesson_lazy_rows(module, run.results, summary, every_spec, root)
        if lazy is not None:
            files.update(chunk_files(lesson.slug, lazy))
    for lang in LANGUAGES:
        context = page_context(project, strings, lang, f"{lesson.slug}.html")
        specs = by_lang[lang]
        svg_href = {}
        for name, spec in specs.items():
            svg_path = f"assets/charts/{lesson.slug}/{name}.{lang}.svg"
            full = chart_tools.with_data(spec.spec, default_rows(spec, result, summary))
            where = f"{location(module.path, None, root) if module else lesson.slug}: chart"
            files[svg_path] = chart_tools.render_svg(
                full, parts.fonts, parts.asset_cache, f"{where} '{name}' ({lang})"
            )
            svg_href[name] = context.root + svg_path
        if module is not None and run is not None:
            placed = {d.names[0] for d in item.parsed[lang].directives if d.kind == "table"}
            tables = tuple(live_tables(module, placed, summary))
            # Live tables named in LAZY load their cells later, in chunks (see lazy.py).
            later = tuple(name for name in tables if name in module.lazy)
            tables = tuple(name for name in tables if name not in later)
            data = lesson_data(module, run.results, specs, lang, tables, lazy)
            if later:
                cut = lazy_tables(module.grid, module.tables, run.results, later, lang)
                data["tableChunks"] = cut.page_data()
                files.update(table_chunk_files(lesson.slug, cut))
            files[f"assets/data/{lesson.slug}.{lang}.js"] = data_script(lesson.slug, data)
        page = lesson.pages[lang]
        render_page = functools.partial(
            render_lesson,
            env,
            context,
            item.parsed[lang],
            slug=lesson.slug,
            number=lesson.slug[:2],
            title=page.title,
            summary_text=page.summary,
            module=module,
            specs=specs,
            result=result,
            summary=summary,
            svg_href=svg_href,
            previous=_pager_link(planned, position - 1, lang),
            next_=_pager_link(planned, position + 1, lang),
        )
        files[site_path(lang, f"{lesson.slug}.html")] = render_page()
        embed_extra = embed.embed_variables(context, lesson.slug)
        files[site_path(lang, embed.embed_path(lesson.slug))] = embed.moved_down(
            render_page(template="embed.html", extra=embed_extra)
        )
    return files


def _cached_run(item: PlannedLesson, report: BuildReport, reporter: Reporter) -> None:
    """Report the grid (and study) of a lesson whose files came from the page cache."""
    module = item.module
    if module is None:
        return
    slug = item.lesson.slug
    points = len(module.grid)
    reporter.progress(slug)(points, points, points)
    report.runs.append(GridRun(slug, {}, computed=0, cached=points, loaded=False))
    if module.study_grid is not None:
        points = len(module.study_grid)
        reporter.progress(f"{slug} STUDY")(points, points, points)
        study = GridRun(slug, {}, computed=0, cached=points, loaded=False)
        report.studies.append(study)


def render_site(
    project: Project,
    planned: list[PlannedLesson],
    report: BuildReport,
    reporter: Reporter,
    settings: ComputeSettings,
    templates: SiteTemplates,
) -> dict[str, bytes]:
    """Compute every lesson's grid and render every file of the site, in memory.

    A lesson whose inputs are unchanged since a build stored its files in the page
    cache (:mod:`privacy_explorer.pagecache`) is neither computed nor rendered.
    """
    env, strings = templates.env, templates.strings
    asset_cache = project.build_dir / "assets-cache"
    page_cache = project.build_dir / pagecache.FOLDER
    results_dir = project.build_dir / "results"
    fonts = font_tools.shipped_fonts(project.templates_dir)
    parts = SiteParts(templates=templates, fonts=fonts, asset_cache=asset_cache)
    site_inputs = pagecache.site_inputs(project)
    files: dict[str, str | bytes] = {".nojekyll": ""}
    cards: dict[str, list[dict[str, str]]] = {lang: [] for lang in LANGUAGES}
    for position, item in enumerate(planned):
        lesson, module = item.lesson, item.module
        checksums: dict[str, str] = {}
        entries: list[tuple[str, str | None]] = []
        if module is not None:
            checksums = verify_data_files(project.data_dir, module.data_files, project.root)
            entries = cached_files(lesson.slug, module, checksums, results_dir)
        pager = {
            lang: [_pager_link(planned, position + step, lang) for step in (-1, 1)]
            for lang in LANGUAGES
        }
        key = pagecache.lesson_key(site_inputs, lesson, pager, entries)
        lesson_files = pagecache.read(page_cache, lesson.slug, key)
        if lesson_files is None:
            lesson_files = _lesson_files(
                project, planned, position, checksums, parts, report, reporter, settings
            )
            if module is not None:  # stored under the results as computing left them
                entries = cached_files(lesson.slug, module, checksums, results_dir)
                key = pagecache.lesson_key(site_inputs, lesson, pager, entries)
            pagecache.store(page_cache, lesson.slug, key, lesson_files)
        else:
            _cached_run(item, report, reporter)
        files.update(lesson_files)
        for lang in LANGUAGES:
            page = lesson.pages[lang]
            cards[lang].append(
                {
                    "href": f"{lesson.slug}.html",
                    "number": lesson.slug[:2],
                    "title": page.title,
                    "summary": page.summary,
                }
            )
        report.lessons.append(lesson.slug)
    page_names = ["index.html", *(f"{item.lesson.slug}.html" for item in planned)]
    for lang in LANGUAGES:
        context = page_context(project, strings, lang, "index.html")
        files[site_path(lang, "index.html")] = env.get_template("index.html").render(
            **context.variables(), lessons=cards[lang]
        )
    files["404.html"] = publish.not_found_page(
        env,
        strings=strings,
        titles=project.title,
        index_paths={lang: site_path(lang, "index.html") for lang in LANGUAGES},
        base_url=project.base_url,
        style_css=templates.static["style.css"].decode("utf-8"),
        fonts=fonts,
        cache_dir=asset_cache,
    )
    if project.base_url:
        pages = [{lang: site_path(lang, name) for lang in LANGUAGES} for name in page_names]
        files[publish.SITEMAP] = publish.sitemap_xml(project.base_url, pages)
    files["assets/vega.js"] = chart_tools.vega_bundle(asset_cache)
    for name, content in templates.static.items():
        files[f"assets/{name}"] = content
    style_css = templates.static["style.css"].decode("utf-8")
    # Embed pages share one stylesheet with the site's characters inside; every other page
    # loads the faces cut down to its own characters (see page_fonts).
    web_fonts = font_tools.web_fonts(fonts, font_tools.site_characters(files), asset_cache)
    files[embed.STYLESHEET] = embed.stylesheet(style_css, web_fonts)
    files["assets/style.css"] = page_fonts.without_font_faces(style_css)
    files = page_fonts.with_page_fonts(
        files, fonts, page_fonts.font_face_rules(style_css), asset_cache
    )
    return {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for path, content in sorted(files.items())
    }


def page_sources(planned: list[PlannedLesson], root: Path) -> dict[str, PageSource]:
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


def unbuilt_pages(project: Project, planned: list[PlannedLesson]) -> set[str]:
    """The lesson pages of the course that a build of only ``planned`` leaves out."""
    built = {item.lesson.slug for item in planned}
    return {
        site_path(lang, page)
        for lesson in discover_lessons(project)
        if lesson.slug not in built
        for lang in LANGUAGES
        for page in (f"{lesson.slug}.html", embed.embed_path(lesson.slug))
    }


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
    report = BuildReport()
    planned = plan(project, only, report.warnings)
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
    ):
        settings = ComputeSettings(jobs=jobs, large_grids=yes, cluster=cluster)
        if target is not None:
            check_target(target, force=force)
        report.files = render_site(project, planned, report, reporter, settings, templates)
        check_links(
            report.files,
            page_sources(planned, project.root),
            unbuilt=unbuilt_pages(project, planned),
        )
        if target is not None:
            write_site(report.files, target, force=force)
            report.out = target
    return report
