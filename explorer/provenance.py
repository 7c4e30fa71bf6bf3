"""Data provenance: every file in ``data/`` has its SHA-256 in ``data/SOURCES.md``.

``SOURCES.md`` has a ``## <file name>`` section per file, giving origin,
licence and how the file was obtained, and exactly one line::

    - SHA-256: `<64 lowercase hex digits>`

The build verifies every file a lesson module lists in ``DATA_FILES`` before
running anything, and loaders (``compute/datasets.py``) verify again whenever
they read a file. This module is plain Python so that lesson modules can use it
on their own; :func:`verify_data_files` is the build's wrapper.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from privacy_explorer.errors import DataError, location

SOURCES_FILE = "SOURCES.md"
"""The provenance file inside a data folder."""

_TOP_HEADING = re.compile(r"^#{1,2}\s")
_SECTION = re.compile(r"^##\s+`?(?P<name>[^`\s]+)`?\s*$")
_DIGEST = re.compile(r"^- SHA-256: `(?P<digest>[0-9a-f]{64})`\s*$")


class DataIntegrityError(ValueError):
    """A data file is missing, has no provenance entry, or does not match its digest."""


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file at ``path`` as 64 lowercase hex digits."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def expected_sha256(name: str, sources: Path, shown: str | None = None) -> str:
    """The digest that ``sources`` records for the data file ``name``.

    ``### ...`` subsections stay inside their file's ``##`` section. Raises
    :class:`DataIntegrityError` when ``sources`` is missing, records no digest
    for ``name``, or records more than one. ``shown`` is how messages name
    ``sources`` (default: the path as given).
    """
    label = shown or str(sources)
    if not sources.is_file():
        raise DataIntegrityError(
            f"{label}: not found; record each data file's origin, licence and SHA-256 there"
        )
    section: str | None = None
    found: list[tuple[int, str]] = []
    for number, line in enumerate(sources.read_text(encoding="utf-8").splitlines(), start=1):
        if _TOP_HEADING.match(line):
            heading = _SECTION.match(line)
            section = heading["name"] if heading else None
        elif section == name and (digest := _DIGEST.match(line)):
            found.append((number, digest["digest"]))
    if len(found) == 1:
        return found[0][1]
    if not found:
        raise DataIntegrityError(
            f"{label}: no SHA-256 recorded for {name!r}; add a '## {name}' section "
            "with a line '- SHA-256: `<digest>`' (the output of `sha256sum`)"
        )
    lines = ", ".join(str(number) for number, _ in found)
    raise DataIntegrityError(
        f"{label}: {name!r} has {len(found)} SHA-256 lines (lines {lines}); keep exactly one"
    )


def verify(name: str, data_dir: Path, root: Path | None = None) -> tuple[Path, str]:
    """Check ``data_dir/name`` against ``data_dir/SOURCES.md``; return its path and digest.

    Messages name files relative to ``root`` when given. Raises
    :class:`DataIntegrityError` naming the file, both digests and the fix.
    """
    path, sources = data_dir / name, data_dir / SOURCES_FILE
    shown_path, shown_sources = location(path, None, root), location(sources, None, root)
    expected = expected_sha256(name, sources, shown_sources)
    if not path.is_file():
        raise DataIntegrityError(
            f"{shown_path}: data file is missing; restore it from git "
            f"(git checkout -- {shown_path})"
        )
    actual = sha256_of(path)
    if actual != expected:
        raise DataIntegrityError(
            f"{shown_path}: SHA-256 is {actual}, but {shown_sources} records {expected}; "
            f"restore the original file (git checkout -- {shown_path}), or if the change is "
            f"intended, update its provenance and checksum in {shown_sources}"
        )
    return path, actual


def verify_data_files(
    data_dir: Path, names: tuple[str, ...], root: Path | None = None
) -> dict[str, str]:
    """Verify each named file for the build; return name -> SHA-256 (a :class:`DataError`)."""
    try:
        return {name: verify(name, data_dir, root)[1] for name in names}
    except DataIntegrityError as exc:
        raise DataError(str(exc)) from None
