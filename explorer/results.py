"""The build's second stage: compute every lesson's grid and check its results.

:func:`compute` runs each planned lesson's grid (and ``STUDY`` grid) through the
result cache (see :mod:`privacy_explorer.runner`), summarizes it, checks that every
placed table, chart and readout finds what it shows at every grid point, and
builds the placed charts' specs. Each lesson's outcome is one
:class:`LessonResults`; rendering reads nothing else and runs no lesson code.

A lesson whose inputs are unchanged since a build stored its files in the page
cache (:mod:`privacy_explorer.pagecache`) is neither computed nor rendered: its
:class:`LessonResults` carries those files instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from privacy_explorer import charts as chart_tools
from privacy_explorer import korean, pagecache, wording
from privacy_explorer.cluster import Cluster
from privacy_explorer.errors import ComputeError, ContentError, exit_call, location
from privacy_explorer.lazy import LazyRows, lesson_lazy_rows
from privacy_explorer.lesson import LANGUAGES, POINT_VIEWS, Scalar
from privacy_explorer.plan import Plan, PlannedLesson
from privacy_explorer.project import Project
from privacy_explorer.provenance import verify_data_files
from privacy_explorer.runner import (
    GridRun,
    Progress,
    cached_files,
    check_readout,
    describe_point,
    json_ready,
    run_grid,
    run_study,
)

__all__ = ["ComputeSettings", "LessonResults", "compute"]

NO_RESULT: Mapping[str, Any] = {"readouts": {}, "datasets": {}}
"""The default point's result of a lesson without a compute module."""


@dataclass(frozen=True)
class ComputeSettings:
    """How the lessons' grids are computed."""

    jobs: int = 1
    """Worker processes; with 1, points are computed in the build's own process."""
    large_grids: bool = False
    """Whether a grid with more points to compute than ``runner.LARGE_GRID`` may run (``--yes``)."""
    cluster: Cluster | None = None
    """The Dask cluster that computes the grid points instead (``--scheduler``), if any."""


@dataclass(frozen=True)
class LessonResults:
    """One lesson's results, checked against its pages: all that rendering it needs."""

    planned: PlannedLesson
    """The lesson, its module and its parsed pages."""
    run: GridRun | None
    """Its grid's results by grid key (``None`` without a compute module)."""
    study: GridRun | None
    """Its ``STUDY`` grid's results, if it has one."""
    summary: Mapping[str, list[dict[str, Any]]]
    """The whole-grid datasets ``summarize()`` returned, by name."""
    charts: Mapping[str, Mapping[str, chart_tools.ChartSpec]]
    """Per language, the spec of each chart its page places."""
    lazy: LazyRows | None
    """The datasets loaded later, in chunks (see :mod:`privacy_explorer.lazy`)."""
    page_key: str
    """The key of the lesson's files in the page cache."""
    cached_files: Mapping[str, str] | None = None
    """The lesson's files from the page cache, when nothing needed computing or rendering
    (then :attr:`run` holds no results)."""

    @property
    def default(self) -> Mapping[str, Any]:
        """The result at the grid's default point (empty without a compute module)."""
        module = self.planned.module
        if module is None or self.run is None:
            return NO_RESULT
        result: Mapping[str, Any] = self.run.results[module.grid.key(module.grid.default)]
        return result


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


def _apply_point_views(
    planned: PlannedLesson, run: GridRun, summary: dict[str, Any], root: Path
) -> None:
    """Add the readouts and datasets of ``summary[POINT_VIEWS]`` to the grid points they name
    (see :mod:`privacy_explorer.lesson`, views of the study), and take that dataset out."""
    module = planned.module
    rows = summary.pop(POINT_VIEWS, None)
    if module is None:
        return
    where = f"{location(module.path, None, root)}: summarize() {POINT_VIEWS}"
    wanted = {name for name, readout in module.readouts.items() if readout.from_summary}
    if rows is None:
        if wanted:
            raise ComputeError(
                f"{location(module.path, None, root)}: the readouts {', '.join(sorted(wanted))} "
                f"are declared from_summary=True, but summarize() returns no '{POINT_VIEWS}'; "
                "give them there, or let compute() return them"
            )
        return
    groups: dict[tuple[str, ...], dict[tuple[Scalar, ...], dict[str, Any]]] = {}
    for number, row in enumerate(rows):
        chosen = row.get("where")
        if set(row) - {"where", "readouts", "datasets"} or not isinstance(chosen, dict):
            raise ComputeError(
                f"{where}: row {number} must be {{'where': {{parameter: value}}, 'readouts': "
                "{...}, 'datasets': {...}}"
            )
        for name, value in chosen.items():
            if name not in module.grid.names or value not in module.grid.param(name).values:
                raise ComputeError(
                    f"{where}: row {number} names {name}={value!r}, which is no value of a grid "
                    f"parameter; the grid has {', '.join(module.grid.names)}"
                )
        names = tuple(sorted(chosen))
        values = tuple(chosen[name] for name in names)
        if values in groups.setdefault(names, {}):
            raise ComputeError(f"{where}: row {number} repeats the points of an earlier row")
        groups[names][values] = row
    for point in module.grid:
        key = module.grid.key(point)
        result = run.results[key]
        readouts, datasets = dict(result["readouts"]), dict(result.get("datasets", {}))
        given: set[str] = set()
        for names, by_values in groups.items():
            row = by_values.get(tuple(point[name] for name in names))
            if row is None:
                continue
            for kind, into in (("readouts", readouts), ("datasets", datasets)):
                for name, value in row.get(kind, {}).items():
                    if name in given or name in into:
                        raise ComputeError(
                            f"{where}: {kind[:-1]} '{name}' is given twice for grid point "
                            f"({describe_point(point)}); give it once"
                        )
                    given.add(name)
                    into[name] = value
        missing = sorted(wanted - set(readouts))
        try:
            if missing:
                raise ValueError(f"readouts {', '.join(missing)} are missing")
            for name in given & set(readouts):
                check_readout(name, readouts[name], module.readouts.get(name))
            for name in given & set(datasets):
                if not isinstance(datasets[name], list) or not all(
                    isinstance(item, dict) for item in datasets[name]
                ):
                    raise ValueError(f"dataset '{name}' must be a list of row dicts")
        except ValueError as exc:
            raise ComputeError(
                f"{where}: grid point ({describe_point(point)}): {exc}; every point needs each "
                "readout declared from_summary=True, in a form its format can show"
            ) from None
        run.results[key] = {"readouts": readouts, "datasets": datasets}


def _chart_specs(
    planned: PlannedLesson, run: GridRun, summary: dict[str, Any], lang: str, root: Path
) -> dict[str, chart_tools.ChartSpec]:
    module = planned.module
    if module is None:
        return {}
    placed = planned.placed("chart", lang)
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
        _check_mirrored(planned, spec, lang, root)
        specs[name] = spec
    return specs


def _check_mirrored(
    planned: PlannedLesson, spec: chart_tools.ChartSpec, lang: str, root: Path
) -> None:
    """A chart whose marks set a parameter shares its page with that parameter's control: the
    control is how a keyboard or a screen reader makes the same change."""
    parsed = planned.parsed[lang]
    controls = {
        name
        for directive in parsed.directives
        if directive.kind == "controls"
        for name in directive.names or dict(spec.marks)
    }
    for param, _ in spec.marks:
        if param not in controls:
            line = next(
                d.line for d in parsed.directives if d.kind == "chart" and d.names[0] == spec.name
            )
            raise ContentError(
                f"{location(parsed.path, line, root)}: the marks of chart '{spec.name}' set "
                f"'{param}', but the page has no control for it, the keyboard's way to the same "
                f"change; add '{{{{< controls {param} >}}}}' beside the chart"
            )


def _check_tables(
    planned: PlannedLesson, run: GridRun, summary: dict[str, Any], root: Path
) -> None:
    """Every placed table finds its rows, with every column, at every grid point."""
    module = planned.module
    if module is None:
        return
    placed = sorted({name for lang in planned.parsed for name in planned.placed("table", lang)})
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


COUNTED_READOUT = re.compile(
    r"\{\{< readout (?P<number>\w+) >\}\} (?:\{\{< readout (?P<unit>\w+) >\}\}|(?P<word>[\w-]+))"
)
"""A readout followed by a unit: another readout (``{{< readout b >}} {{< readout unit >}}``)
or a word the author typed (``{{< readout n >}} records``)."""


def _check_counts(planned: PlannedLesson, run: GridRun, root: Path) -> None:
    """In English, a unit after a live number agrees with it at every grid point: ``1 record``,
    ``2 records`` (:func:`privacy_explorer.wording.english_problems`); checked here because the
    page shows each point's numbers, not only the default's."""
    module = planned.module
    parsed = planned.parsed.get("en")
    if module is None or parsed is None:
        return
    lines = parsed.path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        for match in COUNTED_READOUT.finditer(line):
            names = [match.group("number"), match.group("unit")]
            if not all(name is None or name in module.readouts for name in names):
                continue  # an unknown readout is reported where directives are checked
            readout = module.readouts[names[0]]
            texts = set()
            for result in run.results.values():
                value = readout.text(result["readouts"][names[0]], "en")
                unit = match.group("word")
                if names[1] is not None:
                    unit = module.readouts[names[1]].text(result["readouts"][names[1]], "en")
                after = line[match.end() :].split("{{<")[0]  # "2 candidate codes" is no count
                texts.add(f"{value} {unit}{after}")
            for text in sorted(texts):
                for problem in wording.english_problems(text):
                    raise ContentError(
                        f"{location(parsed.path, number, root)}: '{problem.found}' at some grid "
                        f"points should read '{problem.expected}' (a unit agrees with its "
                        "number); give the number and its unit as one readout whose unit has "
                        "a singular (Readout unit_one)"
                    )


def _run_lesson(
    project: Project,
    item: PlannedLesson,
    checksums: dict[str, str],
    progress: Callable[[str], Progress],
    settings: ComputeSettings,
) -> tuple[GridRun | None, GridRun | None, dict[str, Any]]:
    """Compute (or fetch from the cache) the lesson's grid and study, and summarize them."""
    module = item.module
    if module is None:
        return None, None, {}
    slug = item.lesson.slug
    arguments = (slug, module, checksums, project.build_dir / "results", project.root)
    run = run_grid(
        *arguments,
        progress=progress(slug),
        jobs=settings.jobs,
        timeout=item.lesson.timeout,
        large_grid_ok=settings.large_grids,
        cluster=settings.cluster,
    )
    study = None
    if module.study_grid is not None:
        study = run_study(
            *arguments,
            progress=progress(f"{slug} STUDY"),
            jobs=settings.jobs,
            timeout=item.lesson.timeout,
            large_grid_ok=settings.large_grids,
            cluster=settings.cluster,
        )
    summary = _summary(item, run, study, project.root)
    _apply_point_views(item, run, summary, project.root)
    return run, study, summary


def _lesson_results(
    project: Project,
    item: PlannedLesson,
    checksums: dict[str, str],
    progress: Callable[[str], Progress],
    settings: ComputeSettings,
) -> tuple[GridRun | None, GridRun | None, dict[str, Any], dict[str, Any], LazyRows | None]:
    """Compute one lesson and check its results: run, study, summary, chart specs, lazy rows."""
    root = project.root
    module = item.module
    run, study, summary = _run_lesson(project, item, checksums, progress, settings)
    if run is not None:
        _check_tables(item, run, summary, root)
        _check_particles(item, run, root)
        _check_counts(item, run, root)
    by_lang = {
        lang: _chart_specs(item, run, summary, lang, root) if run else {} for lang in LANGUAGES
    }
    lazy = None
    if module is not None and run is not None:
        every_spec = [spec for specs in by_lang.values() for spec in specs.values()]
        lazy = lesson_lazy_rows(module, run.results, summary, every_spec, root)
    return run, study, summary, by_lang, lazy


def _cached_run(
    item: PlannedLesson, progress: Callable[[str], Progress]
) -> tuple[GridRun | None, GridRun | None]:
    """Report the grid (and study) of a lesson whose files came from the page cache."""
    module = item.module
    if module is None:
        return None, None
    slug = item.lesson.slug
    points = len(module.grid)
    progress(slug)(points, points, points)
    run = GridRun(slug, {}, computed=0, cached=points, loaded=False)
    study = None
    if module.study_grid is not None:
        points = len(module.study_grid)
        progress(f"{slug} STUDY")(points, points, points)
        study = GridRun(slug, {}, computed=0, cached=points, loaded=False)
    return run, study


def compute(
    plan: Plan, settings: ComputeSettings, progress: Callable[[str], Progress]
) -> tuple[LessonResults, ...]:
    """Compute every planned lesson's grid, or find its files in the page cache.

    ``progress(label)`` is told how far each grid (``label`` is the lesson's slug, with
    `` STUDY`` for its study grid) has come.
    """
    project = plan.project
    results_dir = project.build_dir / "results"
    page_cache = project.build_dir / pagecache.FOLDER
    site_inputs = pagecache.site_inputs(project)
    computed: list[LessonResults] = []
    for position, item in enumerate(plan.lessons):
        lesson, module = item.lesson, item.module
        checksums: dict[str, str] = {}
        entries: list[tuple[str, str | None]] = []
        if module is not None:
            checksums = verify_data_files(project.data_dir, module.data_files, project.root)
            entries = cached_files(lesson.slug, module, checksums, results_dir)
        pager = {
            lang: [plan.pager(position + step, lang) for step in (-1, 1)] for lang in LANGUAGES
        }
        key = pagecache.lesson_key(site_inputs, lesson, pager, entries)
        lesson_files = pagecache.read(page_cache, lesson.slug, key)
        if lesson_files is not None:
            run, study = _cached_run(item, progress)
            computed.append(LessonResults(item, run, study, {}, {}, None, key, lesson_files))
            continue
        run, study, summary, charts, lazy = _lesson_results(
            project, item, checksums, progress, settings
        )
        if module is not None:  # the files are stored under the results as computing left them
            entries = cached_files(lesson.slug, module, checksums, results_dir)
            key = pagecache.lesson_key(site_inputs, lesson, pager, entries)
        computed.append(LessonResults(item, run, study, summary, charts, lazy, key))
    return tuple(computed)
