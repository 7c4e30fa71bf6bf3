"""Load the compute modules that lessons name, and check them against the contract.

See :mod:`privacy_explorer.lesson` for what a module declares. Modules are imported from
the project's ``compute/`` folder by file path, so two projects (say, the course
and a test's sample project) never share a module object.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from privacy_explorer.errors import ModuleError, exit_call, location, raise_collected
from privacy_explorer.lesson import (
    LANGUAGES,
    Chart,
    Column,
    Grid,
    Param,
    Readout,
    Table,
    canonical_text,
)

T = TypeVar("T")
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")
DEFINES_GRID = re.compile(r"^GRID\s*[:=]", re.MULTILINE)
WIDGETS = ("auto", "slider", "choice", "select")


@dataclass(frozen=True)
class LessonModule:
    """A compute module that passed the contract checks."""

    name: str
    """Module name, as lessons write it in ``compute:`` (dotted for a module in a sub-folder)."""
    path: Path
    """The module's file."""
    grid: Grid
    """Its parameter grid."""
    compute: Callable[..., Any]
    """``compute(**point)`` -> result."""
    charts: dict[str, Chart]
    """Charts by name."""
    readouts: dict[str, Readout]
    """Readouts by name."""
    tables: dict[str, Table]
    """Tables by name (empty when the module defines no ``TABLES``)."""
    data_files: tuple[str, ...]
    """Files in ``data/`` it reads."""
    summarize: Callable[..., Any] | None
    """Optional whole-grid datasets (see :mod:`privacy_explorer.lesson`): called as
    ``summarize(results)``, or ``summarize(results, study)`` when the module has a ``STUDY``."""
    source_digest: str
    """SHA-256 over the module's source and the project modules it imports."""
    study_grid: Grid | None = None
    """The module's ``STUDY``: experiments computed for ``summarize``, never shown as controls."""
    study: Callable[..., Any] | None = None
    """``study(**point)`` -> a JSON-ready value, for every point of :attr:`study_grid`."""
    lazy: tuple[str, ...] = ()
    """Datasets the page loads only when a control needs them (see :mod:`privacy_explorer.lazy`)."""


def module_path(compute_dir: Path, name: str) -> Path:
    """The file of the module ``name``: ``lessons.memorization`` is ``lessons/memorization.py``."""
    return compute_dir.joinpath(*name.split(".")).with_suffix(".py")


def known_modules(compute_dir: Path) -> list[str]:
    """Dotted names of the lesson modules under ``compute_dir`` (those that define ``GRID``)."""
    names = []
    for path in compute_dir.rglob("*.py"):
        parts = path.relative_to(compute_dir).with_suffix("").parts
        if not any(part.startswith("_") for part in parts) and DEFINES_GRID.search(
            path.read_text("utf-8")
        ):
            names.append(".".join(parts))
    return sorted(names)


LIBRARY = "privacy_explorer.compute"
"""The one import name of the library layer (``compute/`` without its lessons).

The wheel installs ``compute/`` there; the editable install of a checkout maps the
checkout's ``compute/`` folder (lessons included) to it. Lessons and tests of the course import
the library only under this name, so a process holds one module object per file.
"""


def library_folder() -> Path:
    """The folder that :data:`LIBRARY` is imported from (found without importing it)."""
    spec = importlib.util.find_spec(LIBRARY)
    assert spec is not None and spec.origin is not None, f"{LIBRARY} is not installed"
    return Path(spec.origin).parent


def _local_imports(path: Path, root: Path, library: Path) -> Iterator[Path]:
    """Project and library files that ``path`` imports.

    ``compute.x`` and ``from compute import x`` are the project's ``compute/`` folder,
    ``privacy_explorer.compute.x`` is the library in ``library``; relative imports too.
    """
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    for node in ast.walk(tree):
        names: list[str] = []
        candidates: list[Path] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                folder = base.joinpath(*node.module.split(".")) if node.module else base
                candidates = [folder] + [folder / alias.name for alias in node.names]
            elif node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if name == LIBRARY or name.startswith(LIBRARY + "."):
                candidates.append(library.joinpath(*parts[2:]))
            else:
                candidates.append(root.joinpath(*parts))
        for candidate in candidates:
            for file in (candidate.with_suffix(".py"), candidate / "__init__.py"):
                if file.is_file():
                    yield file


def source_digest(path: Path, root: Path, library: Path | None = None) -> str:
    """SHA-256 of ``path`` and, recursively, of every project and library file it imports.

    ``library`` is the folder of :data:`LIBRARY` (by default the installed one). A file is
    named by its path in the project, or, outside it (an installed wheel, or the checkout
    whose library a copy of the course imports), by the path a checkout has it at,
    ``compute/...``: the same files give the same digest wherever the project lies.
    """
    library = (library or library_folder()).resolve()
    root = root.resolve()
    seen: dict[Path, bytes] = {}
    todo = [path.resolve()]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen[current] = current.read_bytes()
        todo.extend(p.resolve() for p in _local_imports(current, root, library))
    named = sorted(  # by name (then content), not by where the files happen to lie
        (
            str(file.relative_to(root))
            if file.is_relative_to(root)
            else str(Path("compute") / file.relative_to(library)),
            content,
        )
        for file, content in seen.items()
    )
    digest = hashlib.sha256()
    for name, content in named:
        digest.update(name.encode() + b"\0" + content + b"\0")
    return digest.hexdigest()


def import_module_file(path: Path, root: Path) -> ModuleType:
    """Import ``path`` under a name unique to the project, with ``root`` importable."""
    # The name changes with the path and the source, so an edited module is imported afresh.
    fingerprint = hashlib.sha256(str(path.resolve()).encode() + b"\0" + path.read_bytes())
    unique = "explorer_lesson_" + fingerprint.hexdigest()[:16]
    if unique in sys.modules:
        return sys.modules[unique]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    spec = importlib.util.spec_from_file_location(unique, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[unique]
        raise
    return module


def _check_text(value: Any, what: str) -> str | None:
    if not isinstance(value, dict) or any(
        not isinstance(value.get(lang), str) or not value[lang] for lang in LANGUAGES
    ):
        return f"{what} must give a text for every language ({', '.join(LANGUAGES)})"
    return None


def _same_value(value: Any, default: Any) -> bool:
    """Equal, and both or neither a bool: Python calls ``True == 1``, a learner does not."""
    return isinstance(value, bool) == isinstance(default, bool) and value == default


def _check_param(param: Any, problems: list[str], where: str, kind: str = "GRID") -> None:
    what = "grid parameter" if kind == "GRID" else f"{kind} parameter"
    if not isinstance(param, Param):
        problems.append(f"{where}: {kind}.params must hold Param objects, got {param!r}")
        return
    name = param.name
    if not isinstance(name, str) or not IDENTIFIER.match(name):
        problems.append(f"{where}: {what} name {name!r} must be a lowercase identifier")
    values: object = param.values  # the author's module may ignore Param's annotations
    if not isinstance(values, list | tuple):
        problems.append(
            f"{where}: {what} '{name}' values must be a list, got {values!r}; "
            f"write e.g. values=(0.1, 1.0)"
        )
        return
    if not values:
        problems.append(f"{where}: {what} '{name}' has no values; give at least one value")
        return
    bad = [v for v in values if not isinstance(v, str | int | float | bool)]
    if bad:
        problems.append(
            f"{where}: {what} '{name}' values must be numbers or strings, got {bad[0]!r}"
        )
        return
    if len({canonical_text(v) for v in values}) != len(values):
        problems.append(f"{where}: {what} '{name}' lists a value twice")
    if not any(_same_value(value, param.default) for value in values):
        hint = ""
        if isinstance(param.default, bool) or any(isinstance(v, bool) for v in values):
            hint = f" ({', '.join(map(repr, values))}); True and False are not the numbers 1 and 0"
        problems.append(
            f"{where}: {what} '{name}' default {param.default!r} is not one of its values{hint}"
        )
    if problem := _check_text(param.label, f"{what} '{name}' label"):
        problems.append(f"{where}: {problem}")
    if param.widget not in WIDGETS:
        problems.append(
            f"{where}: {what} '{name}' widget {param.widget!r} is unknown; "
            f"use one of: {', '.join(WIDGETS)}"
        )
    if param.value_labels is not None:
        for lang in LANGUAGES:
            labels = param.value_labels.get(lang) if isinstance(param.value_labels, dict) else None
            if not isinstance(labels, list | tuple) or len(labels) != len(values):
                problems.append(
                    f"{where}: {what} '{name}' value_labels[{lang!r}] must have "
                    f"one text per value ({len(values)})"
                )


def _named(
    items: Any, kind: type[T], text_field: str, where: str, problems: list[str]
) -> dict[str, T]:
    """``CHARTS`` or ``READOUTS`` by name: right type, unique names, texts in every language."""
    what = kind.__name__.lower()
    found: dict[str, T] = {}
    for item in items:
        if not isinstance(item, kind):
            problems.append(
                f"{where}: {what.upper()}S must hold {kind.__name__} objects, got {item!r}"
            )
            continue
        name = item.name  # type: ignore[attr-defined]
        if not IDENTIFIER.match(name) or name in found:
            problems.append(f"{where}: {what} name {name!r} is not a unique identifier")
        text = getattr(item, text_field)
        if problem := _check_text(text, f"{what} '{name}' {text_field}"):
            problems.append(f"{where}: {problem}")
        found[name] = item
    return found


def _check_columns(table: Table, where: str, problems: list[str]) -> None:
    """A table needs at least one column, each a :class:`Column` with a label per language."""
    columns: object = table.columns  # the author's module may ignore Table's annotations
    if not isinstance(columns, tuple | list) or not columns:
        problems.append(f"{where}: table '{table.name}' needs at least one Column")
        return
    fields = []
    for column in columns:
        if not isinstance(column, Column):
            problems.append(
                f"{where}: table '{table.name}' columns must be Column objects, got {column!r}"
            )
            continue
        fields.append(column.field)
        what = f"table '{table.name}' column '{column.field}' label"
        if problem := _check_text(column.label, what):
            problems.append(f"{where}: {problem}")
    if len(set(fields)) != len(fields):
        problems.append(f"{where}: table '{table.name}' shows a field twice")
    empty = table.empty
    if empty is not None and (problem := _check_text(empty, f"table '{table.name}' empty")):
        problems.append(f"{where}: {problem}")


def _line_naming(source: list[str], name: object) -> int | None:
    """The first line of the module that spells ``name`` as a string literal, if any."""
    if not isinstance(name, str):
        return None
    quoted = (f'"{name}"', f"'{name}'")
    return next((i for i, text in enumerate(source, 1) if any(q in text for q in quoted)), None)


def _check_grid(grid: Any, kind: str, path: Path, root: Path, problems: list[str]) -> None:
    """``GRID`` or ``STUDY``: a :class:`Grid` of valid, distinct params and a valid ``group_by``."""
    where = location(path, None, root)
    what = "grid parameter" if kind == "GRID" else f"{kind} parameter"
    if not isinstance(grid, Grid):
        problems.append(f"{where}: {kind} must be an privacy_explorer.lesson.Grid, got {grid!r}")
        return
    if not isinstance(grid.params, tuple | list) or not grid.params:
        problems.append(f"{where}: {kind} needs at least one Param")
        return
    source = path.read_text("utf-8").split("\n")
    for param in grid.params:
        line = _line_naming(source, getattr(param, "name", None))
        _check_param(param, problems, location(path, line, root), kind)
    names = [getattr(p, "name", None) for p in grid.params]
    if len(set(names)) != len(names):
        problems.append(f"{where}: two {what}s share a name")
    group_by: object = grid.group_by  # checked, not trusted: the author may pass a string
    if isinstance(group_by, str) or not isinstance(group_by, tuple | list):
        problems.append(
            f"{where}: {kind} group_by must be a tuple of parameter names, "
            f"e.g. group_by=('seed',), got {group_by!r}"
        )
    else:
        for unknown in [g for g in group_by if g not in names]:
            problems.append(
                f"{where}: {kind} group_by names '{unknown}', which is not a {what}; "
                f"use one of: {', '.join(map(str, names))}"
            )


def _accepts(function: Callable[..., Any], count: int) -> bool:
    """Whether ``function`` can be called with ``count`` positional arguments."""
    try:
        inspect.signature(function).bind(*range(count))
    except TypeError:
        return False
    except ValueError:  # no signature to read (some built-ins): let the call decide
        return True
    return True


def _check_study(
    has_study: bool, study: Any, summarize: Any, where: str, problems: list[str]
) -> None:
    """``STUDY`` needs ``study`` and a two-argument ``summarize``; without it, neither."""
    if has_study:
        if not callable(study):
            problems.append(
                f"{where}: STUDY is defined but study() is not; define study(**point) returning "
                "a JSON-ready value for each STUDY point"
            )
        if not callable(summarize):
            problems.append(
                f"{where}: STUDY is defined but summarize() is not; define "
                "summarize(results, study), which receives the study's results as 'study'"
            )
        elif not _accepts(summarize, 2):
            problems.append(
                f"{where}: summarize() must take two arguments, summarize(results, study), "
                "because the module defines STUDY; add the 'study' parameter"
            )
        return
    if callable(study):
        problems.append(
            f"{where}: study() is defined but STUDY is not; add STUDY = Grid(...) with the "
            "study's parameters, or rename the function"
        )
    if callable(summarize) and not _accepts(summarize, 1):
        problems.append(
            f"{where}: summarize() must take one argument, summarize(results), because the "
            "module defines no STUDY; remove its other parameters or define STUDY"
        )


def check_contract(module: ModuleType, name: str, path: Path, root: Path) -> LessonModule:
    """Validate a freshly imported module; collect every problem, then raise once."""
    where = location(path, None, root)
    problems: list[str] = []
    grid = getattr(module, "GRID", None)
    _check_grid(grid, "GRID", path, root, problems)
    study_grid = getattr(module, "STUDY", None)
    if study_grid is not None:
        _check_grid(study_grid, "STUDY", path, root, problems)
    compute = getattr(module, "compute", None)
    if not callable(compute):
        problems.append(f"{where}: define compute(**point) returning a result dict")
    charts = _named(getattr(module, "CHARTS", ()), Chart, "description", where, problems)
    readouts = _named(getattr(module, "READOUTS", ()), Readout, "label", where, problems)
    tables = _named(getattr(module, "TABLES", ()), Table, "caption", where, problems)
    for table in tables.values():
        _check_columns(table, where, problems)
    data_files = tuple(getattr(module, "DATA_FILES", ()))
    summarize = getattr(module, "summarize", None)
    study = getattr(module, "study", None)
    _check_study(study_grid is not None, study, summarize, where, problems)
    lazy = getattr(module, "LAZY", ())
    if isinstance(lazy, str) or not isinstance(lazy, tuple | list):
        problems.append(
            f"{where}: LAZY must be a tuple of dataset names, e.g. LAZY = ('release',), "
            f"got {lazy!r}"
        )
        lazy = ()
    elif any(not isinstance(name, str) for name in lazy) or len(set(lazy)) != len(lazy):
        problems.append(
            f"{where}: LAZY must list dataset names (texts), each once, got {tuple(lazy)!r}"
        )
    raise_collected(problems)
    return LessonModule(
        name=name,
        path=path,
        grid=grid,  # type: ignore[arg-type]
        compute=compute,  # type: ignore[arg-type]
        charts=charts,
        readouts=readouts,
        tables=tables,
        data_files=data_files,
        summarize=summarize if callable(summarize) else None,
        source_digest=source_digest(path, root),
        study_grid=study_grid,
        study=study if callable(study) else None,
        lazy=tuple(lazy),
    )


def load_module(compute_dir: Path, name: str, root: Path, named_by: str) -> LessonModule:
    """Import and check the module ``name`` that the lesson file ``named_by`` asks for."""
    path = module_path(compute_dir, name)
    if not path.is_file():
        known = ", ".join(known_modules(compute_dir)) or "none yet"
        raise ModuleError(
            f"{named_by}: compute module '{name}' does not exist in "
            f"{location(compute_dir, None, root)}/ (known modules: {known}); "
            "fix the 'compute:' key or add the module"
        )
    try:
        module = import_module_file(path, root)
    except SystemExit as exc:
        raise ModuleError(
            f"{location(path, None, root)}: importing the module called {exit_call(exc)}; "
            "a lesson module must never end the build: raise an exception that says what "
            "is wrong instead"
        ) from None
    except Exception as exc:
        raise ModuleError(
            f"{location(path, None, root)}: importing the module failed: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return check_contract(module, name, path, root)
