"""A build of tests/sample_project equals the golden tree in tests/golden/, file by file.

See ``tests/site_golden.py`` for what the tree keeps and how to refresh it (``make golden``).
"""

from __future__ import annotations

import difflib
import hashlib
from pathlib import Path

import pytest
import site_golden

DIFF_LINES = 40
"""How much of a differing file's unified diff the failure shows."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return site_golden.site_files(site_golden.build_sample(tmp_path_factory.mktemp("golden")))


def diff_excerpt(path: str, expected: bytes, actual: bytes) -> str:
    """The start of a unified diff of two versions of ``path`` (or their sizes, if binary)."""
    try:
        before, after = expected.decode("utf-8"), actual.decode("utf-8")
    except UnicodeDecodeError:
        return f"(binary: {len(expected):,} bytes expected, {len(actual):,} built)"
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        f"golden/{path}",
        f"built/{path}",
        n=2,
    )
    excerpt = [line if len(line) <= 300 else line[:300] + "…\n" for line in lines]
    shown = "".join(excerpt[:DIFF_LINES])
    if len(excerpt) > DIFF_LINES:
        shown += f"… ({len(excerpt) - DIFF_LINES} more diff lines)\n"
    return shown


def test_the_golden_tree_is_consistent() -> None:
    """Every stored file is listed in the manifest with its own SHA-256."""
    digests = site_golden.read_manifest()
    for path, content in site_golden.stored_files().items():
        assert digests.get(path) == hashlib.sha256(content).hexdigest(), (
            f"tests/golden/sample_site/{path} does not match {site_golden.MANIFEST.name}; "
            f"run {site_golden.REFRESH}"
        )


def test_the_sample_build_equals_the_golden_tree(built: dict[str, bytes]) -> None:
    expected = site_golden.read_manifest()
    refresh = f"if the change is intended, run {site_golden.REFRESH} and review git diff"
    missing, extra = sorted(expected.keys() - built.keys()), sorted(built.keys() - expected)
    assert not missing and not extra, (
        f"the build wrote other files than the golden tree lists: missing {missing}, "
        f"new {extra}; {refresh}"
    )
    stored = site_golden.stored_files()
    for path in sorted(built):  # the first differing file, with a diff where the bytes are kept
        if hashlib.sha256(built[path]).hexdigest() == expected[path]:
            continue
        if path in stored:
            detail = diff_excerpt(path, stored[path], built[path])
        else:
            detail = f"SHA-256 {expected[path]} expected (bytes not kept: large or binary)"
        pytest.fail(f"{path} differs from the golden tree; {refresh}\n{detail}", pytrace=False)


def test_the_golden_tree_keeps_the_text_files_byte_for_byte(built: dict[str, bytes]) -> None:
    kept = {path for path, content in built.items() if site_golden.is_stored(path, content)}
    assert set(site_golden.stored_files()) == kept
    assert {"index.html", "01-dice.html", "assets/explorer.js", "assets/style.css"} <= kept
    assert "assets/vega.js" not in kept  # about 1 MB: its SHA-256 is enough


def test_the_refresh_command_is_documented() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    assert site_golden.REFRESH in readme
