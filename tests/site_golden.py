"""The sample project's built site, kept as a golden tree that ``test_golden.py`` compares with.

``tests/golden/sample_site/`` holds the files of ``explorer build --jobs 1`` of
``tests/sample_project`` byte for byte, except the large or binary ones (the Vega
bundle, about 1 MB, and the WOFF2 fonts). ``tests/golden/sample_site.sha256`` lists
the SHA-256 of every file of the site, stored or not, in ``sha256sum`` format, so
that the set of files and the bytes of every file are checked.

A change that alters the site on purpose (a template, the page runtime, the CSS, the
sample lesson) changes the golden tree too: refresh it and review the diff::

    make golden        # or: .venv/bin/python tests/site_golden.py
    git diff --stat tests/golden/
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "tests" / "sample_project"
GOLDEN = REPO / "tests" / "golden" / "sample_site"
MANIFEST = GOLDEN.with_name("sample_site.sha256")
REFRESH = "make golden"

STORED_SUFFIXES = {"", ".html", ".css", ".js", ".json", ".svg", ".txt"}
"""Text files, compared byte for byte (with a diff when they differ); a dot file has no suffix."""
STORED_LIMIT = 200_000
"""Bytes above which a file is checked by its SHA-256 alone (the Vega bundle)."""


def build_sample(workdir: Path) -> Path:
    """Build a copy of the sample project in ``workdir`` as ``explorer build --jobs 1`` does.

    Returns the site folder. Nothing is written outside ``workdir``.
    """
    from privacy_explorer.build import build
    from privacy_explorer.project import load_project

    project = workdir / "sample_project"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("build", "__pycache__"))
    saved_path = list(sys.path)  # the build makes the copy's compute/ importable
    try:
        report = build(load_project(project), jobs=1)
    finally:
        sys.path[:] = saved_path
    assert report.out is not None
    return report.out


def site_files(site: Path) -> dict[str, bytes]:
    """Every file of ``site`` by its relative path (with ``/``), in sorted order."""
    return {
        path.relative_to(site).as_posix(): path.read_bytes()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def is_stored(path: str, content: bytes) -> bool:
    """Whether the golden tree keeps the file's bytes (else only its SHA-256)."""
    return Path(path).suffix in STORED_SUFFIXES and len(content) <= STORED_LIMIT


def manifest(files: dict[str, bytes]) -> str:
    """``sha256sum`` lines for ``files``: ``<hex>  <path>``, sorted by path."""
    return "".join(f"{hashlib.sha256(files[path]).hexdigest()}  {path}\n" for path in sorted(files))


def read_manifest() -> dict[str, str]:
    """The committed manifest: SHA-256 by path."""
    digests = {}
    for line in MANIFEST.read_text("utf-8").splitlines():
        digest, path = line.split("  ", 1)
        digests[path] = digest
    return digests


def stored_files() -> dict[str, bytes]:
    """The files whose bytes the golden tree keeps."""
    return site_files(GOLDEN)


def refresh() -> None:
    """Rebuild the sample site and rewrite the golden tree and the manifest from it."""
    with tempfile.TemporaryDirectory(prefix="golden-") as workdir:
        files = site_files(build_sample(Path(workdir)))
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for path, content in files.items():
        if is_stored(path, content):
            target = GOLDEN / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    MANIFEST.write_text(manifest(files), "utf-8")
    kept = sum(is_stored(path, content) for path, content in files.items())
    print(
        f"wrote {kept} of {len(files)} files to {GOLDEN.relative_to(REPO)}/ and the SHA-256 of "
        f"all of them to {MANIFEST.relative_to(REPO)}; review them with git diff"
    )


if __name__ == "__main__":
    refresh()
