"""Run a lesson module over its grid, in parallel, with a content-addressed result cache.

A result is stored as ``build/results/<lesson>/<key>.json`` where ``key`` hashes
the module source (and the project modules it imports), the grid point, the data
files' checksums and the versions of the numerical libraries. An unchanged input
is never recomputed; a changed one gets a new key. A large grid of cheap points
is stored in batches instead: ``<hash of the batch's keys>.json`` holds each
point's key and result (see :func:`run_grid`).

A module's ``STUDY`` grid (see :mod:`privacy_explorer.lesson`) runs the same way,
through :func:`run_study`: ``study(**point)`` for every study point, cached in
``build/results/<lesson>/study/`` under keys of their own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import platform
import socket
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Literal

from privacy_explorer import heap
from privacy_explorer.cachefile import note_damaged, write_atomically
from privacy_explorer.cluster import Cluster, TaskLost
from privacy_explorer.errors import ComputeError, exit_call, location
from privacy_explorer.lesson import LANGUAGES, Grid, Readout, Scalar, canonical_text
from privacy_explorer.modules import LessonModule, import_module_file, source_digest
from privacy_explorer.workers import (
    RunningPoints,
    TimeUp,
    WorkerDied,
    dies_alone,
    in_workers,
    time_limit,
)

RESULT_FORMAT = 1
"""Bumped when the meaning of a cached file changes, invalidating every cache entry."""
VERSIONED_LIBRARIES = ("numpy", "scikit-learn", "pandas", "scipy")
BATCH_ABOVE = 1000
"""Grids with more points than this are computed and cached in batches."""
BATCH_SIZE = 256
"""Consecutive grid points per batch: one worker task and one cache file."""
LARGE_GRID = 200_000
"""More grid points than this to compute, and the build asks for ``--yes`` first."""

Progress = Callable[[int, int, int], None]
"""``progress(done, total, from_cache)``, called as grid points finish."""


@dataclass(frozen=True)
class Part:
    """Which grid of a lesson module a run computes: its ``GRID`` or its ``STUDY``."""

    kind: Literal["grid", "study"]
    """Names the points in messages (``grid point``) and keeps the two caches apart."""
    function: Literal["compute", "study"]
    """The module function called once per point."""

    def grid(self, module: LessonModule) -> Grid:
        """The module's grid of this part."""
        grid = module.grid if self.kind == "grid" else module.study_grid
        assert grid is not None, f"{module.name} has no {self.kind.upper()}"
        return grid

    def check(self, result: Any, module: LessonModule) -> None:
        """Raise ValueError unless ``result`` is what this part's function must return.

        A grid point's result must fit the page (:func:`check_result`); a study
        point's result only has to be JSON-ready, which :func:`json_ready` checks.
        """
        if self.kind == "grid":
            check_result(result, module)

    def folder(self, results_dir: Path, slug: str) -> Path:
        """Where this part's cache files live."""
        lesson_dir = results_dir / slug
        return lesson_dir if self.kind == "grid" else lesson_dir / "study"


GRID_POINTS = Part("grid", "compute")
"""A lesson's ``GRID``, each point computed by ``compute(**point)``."""
STUDY_POINTS = Part("study", "study")
"""A lesson's ``STUDY``, each point computed by ``study(**point)``."""


@dataclass(frozen=True)
class GridRun:
    """Every grid point's result for one lesson."""

    lesson: str
    """The lesson slug."""
    results: dict[str, Any]
    """Grid key (see :meth:`privacy_explorer.lesson.Grid.key`) -> validated result."""
    computed: int
    """How many points were computed in this run."""
    cached: int
    """How many came from the cache."""
    loaded: bool = True
    """``False`` when the lesson's files came from the page cache: then no result was even
    read, and :attr:`results` is empty (see :mod:`privacy_explorer.pagecache`)."""


def library_versions() -> dict[str, str]:
    """Versions that can change numerical results, part of every cache key."""
    found = {"python": platform.python_version()}
    for name in VERSIONED_LIBRARIES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "absent"
    return found


def describe_point(point: Mapping[str, Scalar]) -> str:
    """``query=count, epsilon=0.05`` — a grid point as an author reads it."""
    return ", ".join(f"{name}={canonical_text(value)}" for name, value in point.items())


def json_ready(value: Any, path: str) -> Any:
    """``value`` with numpy scalars turned into Python ones; raise ValueError on anything else.

    NaN and Infinity are refused: JSON cannot hold them and a page cannot show them.
    """
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{path} is {value!r}; results must be finite numbers")
        return float(value)
    if isinstance(value, Mapping):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            raise ValueError(f"{path} has a non-text key {bad[0]!r}")
        return {k: json_ready(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v, f"{path}[{i}]") for i, v in enumerate(value)]
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item) and getattr(value, "shape", None) == ():
        return json_ready(item(), path)
    raise ValueError(
        f"{path} is a {type(value).__module__}.{type(value).__name__}, which JSON cannot hold; "
        "convert it to a number, text, list or dict (e.g. array.tolist())"
    )


def dumps(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, shortest round-trip floats."""
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )


def _compute_point(
    path: str, root: str, point: dict[str, Scalar], timeout: float | None, part: Part
) -> tuple[bool, str]:
    """Run the part's function on ``point`` here; return (ok, JSON text or what went wrong)."""
    function = part.function
    try:
        module = import_module_file(Path(path), Path(root))
        with time_limit(timeout):
            result = getattr(module, function)(**point)
    except TimeUp:
        return False, (
            f"ran past the time limit of {timeout:g} s; make it faster, or raise the limit in "
            f"the lesson's front matter (e.g. 'timeout: {2 * (timeout or 0):g}', in seconds per "
            f"{part.kind} point)"
        )
    except SystemExit as exc:  # a module must not end the build, least of all with status 0
        return False, (
            f"called {exit_call(exc)}; {function}() must return a result, "
            "or raise an exception that says what is wrong"
        )
    except Exception as exc:
        return False, f"raised {type(exc).__name__}: {exc}"
    try:
        return True, dumps(json_ready(result, "result"))
    except ValueError as exc:
        return False, f"returned an unusable value: {exc}"


def _compute_batch(
    path: str,
    root: str,
    points: list[dict[str, Scalar]],
    timeout: float | None,
    part: Part = GRID_POINTS,
    running: RunningPoints | None = None,
) -> list[tuple[bool, str]]:
    """:func:`_compute_point` for several points in one task, stopping at a failure."""
    running = running or RunningPoints(None)
    outcomes = []
    for point in points:
        with running.computing(point):
            outcomes.append(_compute_point(path, root, point, timeout, part))
        if not outcomes[-1][0]:
            break
    return outcomes


def check_result(result: Any, module: LessonModule) -> None:
    """Raise ValueError unless ``result`` has every readout ``compute()`` gives (all but those
    ``from_summary``) and only row-list datasets."""
    if not isinstance(result, dict) or not isinstance(result.get("readouts"), dict):
        raise ValueError("the result must be a dict with 'readouts' and 'datasets' dicts")
    datasets = result.get("datasets", {})
    if not isinstance(datasets, dict):
        raise ValueError("result['datasets'] must map dataset names to lists of rows")
    extra = set(result) - {"readouts", "datasets"}
    if extra:
        raise ValueError(
            f"the result has unexpected keys {sorted(extra)}; use 'readouts' and 'datasets'"
        )
    computed = {name for name, readout in module.readouts.items() if not readout.from_summary}
    missing = sorted(computed - set(result["readouts"]))
    if missing:
        raise ValueError(f"result['readouts'] lacks {', '.join(missing)}, declared in READOUTS")
    for name, rows in datasets.items():
        if not isinstance(rows, list) or any(not isinstance(row, dict) for row in rows):
            raise ValueError(f"result['datasets']['{name}'] must be a list of row dicts")
    for name, value in result["readouts"].items():
        check_readout(name, value, module.readouts.get(name))


def check_readout(name: str, value: Any, readout: Readout | None) -> None:
    """Raise ValueError unless the readout's value is one the page can show in every language."""
    example = ", ".join(f"'{lang}': ..." for lang in LANGUAGES)
    if value is None:
        raise ValueError(f"readout '{name}' is None; return a number, a text or {{{example}}}")
    if isinstance(value, bool):
        raise ValueError(
            f"readout '{name}' is {value}, a bool; return a number or a text ({{{example}}} "
            "gives a word per language)"
        )
    per_language = isinstance(value, dict) and all(
        isinstance(value.get(lang), str) for lang in LANGUAGES
    )
    if isinstance(value, dict | list) and not per_language:
        raise ValueError(f"readout '{name}' must be a number, a text or {{{example}}}")
    if readout is None:
        return
    try:
        for lang in LANGUAGES:
            readout.text(value, lang)
    except (ValueError, TypeError) as exc:
        fix = "a whole number (int(...))" if "'d'" in str(exc) else "a value that fits it"
        raise ValueError(
            f"readout '{name}' is {value!r}, which its format {readout.format!r} cannot show "
            f"({exc}); return {fix}, or change the format in READOUTS"
        ) from None


def cache_key(
    module: LessonModule,
    point: Mapping[str, Scalar],
    checksums: Mapping[str, str],
    versions: Mapping[str, str],
    part: Part = GRID_POINTS,
) -> str:
    """The content hash a result is stored under."""
    material: dict[str, Any] = {
        "format": RESULT_FORMAT,
        "module": module.source_digest,
        "point": {name: canonical_text(value) for name, value in point.items()},
        "data": dict(checksums),
        "versions": dict(versions),
    }
    if part.kind != "grid":  # grid keys stay as they were, so existing caches stay valid
        material["part"] = part.kind
    return hashlib.sha256(dumps(material).encode()).hexdigest()


def _read_cached(
    path: Path, keys: list[str], module: LessonModule, part: Part = GRID_POINTS
) -> tuple[list[Any] | None, str | None]:
    """The results stored under ``keys`` in ``path``, checked like fresh ones.

    Returns ``(results, None)``, or ``(None, None)`` when there is no such file, or
    ``(None, problem)`` when the file is damaged: unreadable, truncated, holding
    another point's result (a swapped file), or a result that fails
    :func:`json_ready` or the part's check (:meth:`Part.check`).
    """
    # Python's JSON reader accepts NaN and Infinity, and reads 1e999 as infinite; what it
    # reads otherwise is JSON-ready as it is, so json_ready (which names the path) runs only
    # when one of those was met.
    non_finite: list[str] = []

    def constant(name: str) -> float:
        non_finite.append(name)
        return float(name)

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            non_finite.append(text)
        return value

    try:
        stored = json.loads(
            path.read_bytes().decode("utf-8"), parse_constant=constant, parse_float=number
        )
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read it: {exc.strerror}"
    except UnicodeDecodeError:
        return None, "it is not UTF-8 text"
    except ValueError:
        return None, "it is not valid JSON; it may be truncated"
    try:
        if len(keys) == 1 and isinstance(stored, dict) and "result" in stored:
            if stored.get("key") != keys[0]:
                return None, "it holds the result of another grid point"
            found = [stored["result"]]
        else:
            by_key = {entry["key"]: entry["result"] for entry in stored["entries"]}
            if any(key not in by_key for key in keys):
                return None, "it lacks the result of a grid point of its batch"
            found = [by_key[key] for key in keys]
    except (KeyError, TypeError):
        return None, "it is not a result cache entry"
    try:
        for result in found:
            if non_finite:
                json_ready(result, "result")
            part.check(result, module)
    except ValueError as exc:
        return None, str(exc)
    return found, None


def batch_name(keys: list[str]) -> str:
    """The file name (without ``.json``) of a cache entry holding the results under ``keys``."""
    if len(keys) == 1:
        return keys[0]
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()


def plan_batches(grid: Grid, points: list[dict[str, Scalar]]) -> list[list[int]]:
    """How the grid's points (given in grid order) are split into tasks and cache files.

    A grid with :attr:`Grid.group_by` gets one batch per group of points sharing
    those parameters' values, in order of first appearance. Otherwise a grid of up
    to :data:`BATCH_ABOVE` points gets one batch per point, and a larger grid,
    usually of cheap points, batches of :data:`BATCH_SIZE` consecutive points.
    """
    if grid.group_by:
        groups: dict[tuple[Scalar, ...], list[int]] = {}
        for index, point in enumerate(points):
            groups.setdefault(tuple(point[name] for name in grid.group_by), []).append(index)
        return list(groups.values())
    size = BATCH_SIZE if len(points) > BATCH_ABOVE else 1
    return [
        list(range(start, min(start + size, len(points)))) for start in range(0, len(points), size)
    ]


def _duration(seconds: float) -> str:
    """``40 s``, ``12 min`` or ``3.5 h``: an estimate as a person says it."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def run_grid(
    slug: str,
    module: LessonModule,
    checksums: Mapping[str, str],
    results_dir: Path,
    root: Path,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    timeout: float | None = None,
    large_grid_ok: bool = False,
    cluster: Cluster | None = None,
) -> GridRun:
    """Every grid point's result, from the cache where possible, computing the rest.

    Points are computed and cached in the batches of :func:`plan_batches`: one
    worker task and one cache file per batch, named by the hash of its points'
    keys (a single point's file by its own key). A cached batch is used only if
    every result in it passes the checks a fresh one does; otherwise it is
    computed again, with a note. Each point may run for ``timeout`` seconds.
    With more than :data:`LARGE_GRID` points to compute, the first batch is
    timed and the build stops with an estimate unless ``large_grid_ok``. With a
    ``cluster`` (:class:`privacy_explorer.cluster.Cluster`), the batches are
    computed on its Dask workers instead of ``jobs`` local processes.

    Raises :class:`ComputeError` naming the lesson and the grid point when a
    compute function raises, exits, runs too long, kills its worker process or
    returns something a page cannot show.
    """
    return _run_part(
        GRID_POINTS,
        slug,
        module,
        checksums,
        results_dir,
        root,
        jobs,
        progress,
        timeout=timeout,
        large_grid_ok=large_grid_ok,
        cluster=cluster,
    )


def run_study(
    slug: str,
    module: LessonModule,
    checksums: Mapping[str, str],
    results_dir: Path,
    root: Path,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    timeout: float | None = None,
    large_grid_ok: bool = False,
    cluster: Cluster | None = None,
) -> GridRun:
    """Every study point's result (``study(**point)`` over ``STUDY``), cached like grid points.

    Works exactly like :func:`run_grid`, with the cache files in
    ``<results_dir>/<slug>/study/`` and errors that name the study point. A
    result only has to be JSON-ready; what it means is up to ``summarize``.
    """
    return _run_part(
        STUDY_POINTS,
        slug,
        module,
        checksums,
        results_dir,
        root,
        jobs,
        progress,
        timeout=timeout,
        large_grid_ok=large_grid_ok,
        cluster=cluster,
    )


def _batches(
    part: Part, module: LessonModule, checksums: Mapping[str, str]
) -> tuple[list[dict[str, Scalar]], list[str], list[list[int]], list[str]]:
    """The part's points in grid order, their cache keys, their batches and the batches' names."""
    versions = library_versions()
    points = list(part.grid(module))
    keys = [cache_key(module, point, checksums, versions, part) for point in points]
    batches = plan_batches(part.grid(module), points)
    names = [batch_name([keys[i] for i in batch]) for batch in batches]
    return points, keys, batches, names


def cached_files(
    slug: str, module: LessonModule, checksums: Mapping[str, str], results_dir: Path
) -> list[tuple[str, str | None]]:
    """Each cache file the lesson's grid (and study) reads, with the SHA-256 of its bytes.

    ``None`` stands for a missing or unreadable file. The list is what a lesson's
    results are made of, so it keys the page cache (:mod:`privacy_explorer.pagecache`):
    hashing the files is far cheaper than reading and checking every result, and a
    damaged or missing entry changes it, so the lesson is computed and rendered again.
    """
    parts = [GRID_POINTS] if module.study_grid is None else [GRID_POINTS, STUDY_POINTS]
    found: list[tuple[str, str | None]] = []
    for part in parts:
        folder = part.folder(results_dir, slug)
        for name in _batches(part, module, checksums)[3]:
            try:
                content = (folder / f"{name}.json").read_bytes()
            except OSError:
                found.append((f"{part.kind}/{name}", None))
            else:
                found.append((f"{part.kind}/{name}", hashlib.sha256(content).hexdigest()))
    return found


def _run_part(
    part: Part,
    slug: str,
    module: LessonModule,
    checksums: Mapping[str, str],
    results_dir: Path,
    root: Path,
    jobs: int,
    progress: Progress | None,
    *,
    timeout: float | None,
    large_grid_ok: bool,
    cluster: Cluster | None = None,
) -> GridRun:
    """:func:`run_grid` or :func:`run_study`, as ``part`` says."""
    grid = part.grid(module)
    folder = part.folder(results_dir, slug)
    points, keys, batches, names = _batches(part, module, checksums)
    results: dict[str, Any] = {}
    todo: list[tuple[list[int], str]] = []
    for batch, name in zip(batches, names, strict=True):
        path = folder / f"{name}.json"
        cached, problem = _read_cached(path, [keys[i] for i in batch], module, part)
        if cached is None:
            if problem is not None:
                note_damaged(path, problem, "computing it again")
            todo.append((batch, name))
            continue
        for index, result in zip(batch, cached, strict=True):
            results[grid.key(points[index])] = result
        heap.keep_what_exists()  # kept for the whole build
    from_cache = len(results)
    total = len(points)
    if progress:
        progress(from_cache, total, from_cache)
    where = location(module.path, None, root)
    function = f"{part.function}()"

    def fail(point: Mapping[str, Scalar], problem: str) -> ComputeError:
        return ComputeError(
            f"{where}: lesson {slug}, {part.kind} point ({describe_point(point)}): "
            f"{function} {problem}"
        )

    def store(batch: list[int], name: str, outcomes: list[tuple[bool, str]]) -> None:
        """Check a computed batch, keep its results and write its cache file."""
        entries = []
        for index, (ok, payload) in zip(batch, outcomes, strict=False):
            point = points[index]
            if not ok:
                raise fail(point, payload)
            result = json.loads(payload)
            try:
                part.check(result, module)
            except ValueError as exc:
                raise fail(point, f"returned an unusable result: {exc}") from None
            entries.append({"point": point, "key": keys[index], "result": result})
            results[grid.key(point)] = result
        envelope = (
            {"lesson": slug, **entries[0]}
            if len(batch) == 1
            else {"lesson": slug, "entries": entries}
        )
        write_atomically(folder / f"{name}.json", dumps(envelope))

    arguments = [
        (str(module.path), str(root), [points[i] for i in batch], timeout, part)
        for batch, _ in todo
    ]
    to_compute = total - from_cache
    if to_compute > LARGE_GRID and not large_grid_ok:
        # Timed here, not in a worker, so that starting the workers does not count.
        started = time.perf_counter()
        store(*todo[0], _compute_batch(*arguments[0]))
        each = (time.perf_counter() - started) / len(todo[0][0])
        sizes = " × ".join(f"{len(p.values)} {p.name}" for p in grid.params)
        raise ComputeError(
            f"{where}: lesson {slug} has {to_compute:,} {part.kind} points to compute ({sizes}), "
            f"more than the {LARGE_GRID:,} a build computes without asking; at "
            f"{each:.2g} s per point (the first took that) they would take about "
            f"{_duration(each * to_compute / jobs)} with --jobs {jobs}; pass --yes to compute "
            "them (results are cached), or give the parameters fewer values"
        )
    done = from_cache
    with contextlib.closing(_outcomes(arguments, jobs, cluster, module)) as outcomes:
        try:
            for (batch, name), batch_outcomes in zip(todo, outcomes, strict=True):
                store(batch, name, batch_outcomes)
                done += len(batch)
                if progress:
                    progress(done, total, from_cache)
        except WorkerDied as died:
            raise _worker_death(died, f"{where}: lesson {slug}", arguments) from None
        except TaskLost as lost:
            which = ", ".join(f"({describe_point(points[i])})" for i in todo[lost.index][0])
            raise ComputeError(
                f"{where}: lesson {slug}: the Dask cluster could not compute the {part.kind} "
                f"points {which} ({lost.how}); {function} must return a result or raise an "
                "exception: look for os._exit(), a crash in compiled code, or more memory "
                "than a worker has"
            ) from None
    _prune(folder, set(names))
    if part.kind == "grid" and module.study_grid is None:
        _prune(STUDY_POINTS.folder(results_dir, slug), set())  # a STUDY that was removed
    return GridRun(lesson=slug, results=results, computed=total - from_cache, cached=from_cache)


def _outcomes(
    arguments: list[tuple[Any, ...]],
    jobs: int,
    cluster: Cluster | None = None,
    module: LessonModule | None = None,
) -> Generator[list[tuple[bool, str]], None, None]:
    """Each task's outcomes in order: on the cluster if there is one, in this process with
    one job, else in worker processes."""
    if cluster is not None and arguments:
        assert module is not None
        expected = (module.source_digest, library_versions())
        yield from cluster.run(_checked_batch, [(*expected, *task) for task in arguments])
    elif jobs == 1:
        for task in arguments:
            yield _compute_batch(*task)
    elif arguments:
        yield from in_workers(_compute_batch, arguments, jobs)


def _checked_batch(
    digest: str, versions: Mapping[str, str], path: str, root: str, *task: Any
) -> list[tuple[bool, str]]:
    """:func:`_compute_batch` on a cluster worker that has the build's module and libraries.

    A worker with another copy of the module (or of a project file it imports) or
    other library versions would store results under keys that do not describe
    them; it computes nothing and says what differs.
    """
    host = socket.gethostname()
    module_file = Path(path)
    if not module_file.is_file() or source_digest(module_file, Path(root)) != digest:
        return [
            (
                False,
                f"could not run on the Dask worker on {host}: its copy of {path} (or of a "
                "project file it imports) differs from the build's, or is missing; every worker "
                "needs the same project checkout at the same path",
            )
        ]
    here = library_versions()
    if here != dict(versions):
        differ = ", ".join(
            f"{name} {here.get(name)} (the build has {wanted})"
            for name, wanted in versions.items()
            if here.get(name) != wanted
        )
        return [
            (
                False,
                f"could not run on the Dask worker on {host}: it has {differ}; install the "
                "same packages on every worker (pip install -c constraints.txt .[cluster])",
            )
        ]
    return _compute_batch(path, root, *task)


def _worker_death(died: WorkerDied, lesson: str, arguments: list[tuple[Any, ...]]) -> ComputeError:
    """The error for a worker that died, naming the point that kills a worker on its own."""
    path, root, _, timeout, *rest = arguments[0]
    part: Part = rest[0] if rest else GRID_POINTS
    suspects = died.points
    if len(suspects) > 1:
        suspects = [
            p for p in suspects if dies_alone(_compute_batch, (path, root, [p], timeout, part))
        ]
        suspects = suspects or died.points
    advice = (
        f"{part.function}() must return a result or raise an exception: look for os._exit(), "
        "a crash in compiled code, or more memory than the machine has"
    )
    if len(suspects) == 1:
        return ComputeError(
            f"{lesson}, {part.kind} point ({describe_point(suspects[0])}): the worker process "
            f"computing it died ({died.how}); {advice}"
        )
    which = ", ".join(f"({describe_point(p)})" for p in suspects) or "(unknown)"
    return ComputeError(
        f"{lesson}: a worker process died ({died.how}) while computing one of the {part.kind} "
        f"points {which}; {advice}"
    )


def _prune(folder: Path, live: set[str]) -> None:
    """Remove cache entries no current point uses (an edited module leaves them behind)."""
    if folder.is_dir():
        for path in folder.glob("*.json"):
            if path.stem not in live:
                path.unlink(missing_ok=True)
