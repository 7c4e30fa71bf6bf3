"""Run mypy over the engine, the course's compute modules and the tests, under their import names.

``make lint`` runs this script; ``.venv/bin/python tests/typecheck.py`` runs it alone. It prints
mypy's report and exits with 1 when there is any error. The options are ``[tool.mypy]`` in
``pyproject.toml``.

Why a script rather than plain ``mypy``: the engine lives in ``explorer/`` but is imported as
``privacy_explorer`` (``[tool.setuptools.package-dir]``), and the editable install maps that name
with an import hook that mypy cannot follow. So this script gives mypy every file together with
the module name it is imported under:

- ``explorer/build.py`` is ``privacy_explorer.build`` (strict);
- ``compute/lessons/membership.py`` is ``privacy_explorer.compute.lessons.membership``: the
  editable install maps the whole ``compute/`` folder to the library's one import name
  (strict);
- ``tests/test_build.py`` is ``test_build``, as pytest imports it with ``tests/`` on ``sys.path``;
  the tests, benchmarks and the sample project are checked without strict's demands on
  annotations (:data:`TEST_OPTIONS`), but every function body is checked.

Every folder is checked under exactly one name, the one it is imported under; a folder that
``pyproject.toml`` maps to two names would give mypy two copies of its classes, so
:func:`main` refuses it.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"

TEST_SCRIPTS = (TESTS, TESTS / "bench", TESTS / "sample_project" / "compute")
"""Folders of top-level modules: each runs (or is imported) with its own folder on sys.path."""
TEST_OPTIONS = {
    "disallow_untyped_defs": False,
    "disallow_incomplete_defs": False,
    "disallow_untyped_calls": False,
    "disallow_untyped_decorators": False,
    "disallow_any_generics": False,
    "warn_return_any": False,
    "check_untyped_defs": True,
}
"""Tests need not annotate every helper and fixture, but what they do is still checked."""


def installed_packages() -> dict[str, Path]:
    """The wheel's import names and their folders, from ``[tool.setuptools.package-dir]``."""
    with (REPO / "pyproject.toml").open("rb") as handle:
        package_dir = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    return {name: REPO / folder for name, folder in package_dir.items()}


def package_sources(name: str, folder: Path) -> list[BuildSource]:
    """Every module of the package ``name`` whose files are in ``folder``."""
    sources = []
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        packages = (folder.joinpath(*parts[:depth]) for depth in range(len(parts)))
        if not all((package / "__init__.py").is_file() for package in packages):
            continue  # a script beside the package (site_templates/static/fonts/), not a module
        if parts[-1] == "__init__":
            parts.pop()
        sources.append(BuildSource(str(path.relative_to(REPO)), ".".join([name, *parts])))
    return sources


def script_sources(folder: Path) -> list[BuildSource]:
    """The top-level modules in ``folder``."""
    return [
        BuildSource(str(path.relative_to(REPO)), path.stem) for path in sorted(folder.glob("*.py"))
    ]


def main() -> int:
    os.chdir(REPO)
    _, options = process_options(["--config-file", "pyproject.toml"], require_targets=False)
    packages = installed_packages()
    folders = [folder.resolve() for folder in packages.values()]
    twice = [name for name, folder in packages.items() if folders.count(folder.resolve()) > 1]
    assert not twice, f"{twice} map one folder to two import names"
    sources = [
        source for name, folder in packages.items() for source in package_sources(name, folder)
    ]
    for folder in TEST_SCRIPTS:
        for source in script_sources(folder):
            sources.append(source)
            assert source.module is not None
            options.per_module_options[source.module] = dict(TEST_OPTIONS)
    try:
        result = build.build(sources, options)
    except CompileError as exc:  # a syntax error, say: mypy reports it this way
        messages = exc.messages
    else:
        messages = result.errors
    for message in messages:
        print(message)
    errors = sum(": error:" in message for message in messages)
    files = len({message.split(":")[0] for message in messages if ": error:" in message})
    if errors:
        print(f"Found {errors} error(s) in {files} file(s) (checked {len(sources)} source files)")
        return 1
    print(f"Success: no issues found in {len(sources)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
