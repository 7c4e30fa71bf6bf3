"""The library layer: importable without any lesson, documented, and its examples run."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
COMPUTE = REPO / "compute"
LIBRARY = sorted(
    path for path in COMPUTE.rglob("*.py") if "lessons" not in path.relative_to(COMPUTE).parts
)
"""Every module of the library layer: compute/ without its lessons/ folder."""
LIBRARY_NAME = "privacy_explorer.compute"


def _module_name(path: Path) -> str:
    """The one import name of a file: ``compute/ngram.py`` is ``privacy_explorer.compute.ngram``."""
    parts = ("privacy_explorer", *path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("path", LIBRARY, ids=lambda path: str(path.relative_to(REPO)))
def test_a_library_module_imports_nothing_from_the_lessons_or_the_engine(path: Path):
    """So the library ships on its own (as ``privacy_explorer.compute``) and moves as a whole."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            assert not node.module.startswith(("compute", LIBRARY_NAME)), (
                f"{path.name}: use a relative import"
            )
            # datasets.py shares the checksum code with the build (privacy_explorer.provenance).
            assert not node.module.startswith("privacy_explorer") or path.name == "datasets.py"
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            assert not any(name.startswith(("compute", LIBRARY_NAME)) for name in names)
        if isinstance(node, ast.ImportFrom) and node.module:
            assert "lessons" not in node.module.split("."), path.name


@pytest.mark.parametrize("path", LIBRARY, ids=lambda path: str(path.relative_to(REPO)))
def test_a_library_module_is_documented_and_its_examples_run(path: Path):
    module = importlib.import_module(_module_name(path))
    assert module.__doc__ and len(module.__doc__.strip()) > 80, "explain what the module holds"
    for name in getattr(module, "__all__", ()):
        item = getattr(module, name)
        if callable(item) and not isinstance(item, type | dict):
            assert item.__doc__, f"{module.__name__}.{name} has no docstring"
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_package_docstring_lists_every_library_module():
    documented = importlib.import_module("privacy_explorer.compute").__doc__ or ""
    for path in LIBRARY:
        # A sub-package is listed once; the docstring names modules as compute.x, the folder.
        name = ".".join(_module_name(path).split(".")[1:3])
        if name != "compute":
            assert f":mod:`{name}`" in documented, name
