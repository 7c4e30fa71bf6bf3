"""Data provenance: every file in ``data/`` has its SHA-256 in ``data/SOURCES.md``.

``SOURCES.md`` has a ``## <file name>`` section per file containing a line
``- SHA-256: `<64 hex digits>` ``. The build verifies every file a lesson module
lists in ``DATA_FILES`` before running anything.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from explorer.errors import DataError, location

SECTION = re.compile(r"^##\s+(?P<name>\S+)\s*$", re.MULTILINE)
DIGEST = re.compile(r"^-\s*SHA-256:\s*`(?P<hex>[0-9a-f]{64})`", re.MULTILINE)


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def recorded_checksums(data_dir: Path, root: Path | None = None) -> dict[str, str]:
    """File name -> SHA-256 as recorded in ``data_dir/SOURCES.md``."""
    sources = data_dir / "SOURCES.md"
    if not sources.is_file():
        raise DataError(
            f"{location(sources, None, root)}: not found; record each data file's origin, "
            "licence and SHA-256 there"
        )
    text = sources.read_text("utf-8")
    sections = list(SECTION.finditer(text))
    recorded: dict[str, str] = {}
    for i, section in enumerate(sections):
        end = sections[i + 1].start() if i + 1 < len(sections) else len(text)
        digest = DIGEST.search(text, section.end(), end)
        if digest:
            recorded[section.group("name").strip("`")] = digest.group("hex")
    return recorded


def verify_data_files(data_dir: Path, names: tuple[str, ...], root: Path | None = None) -> dict[str, str]:
    """Check each named file against SOURCES.md; return name -> SHA-256."""
    recorded = recorded_checksums(data_dir, root) if names else {}
    verified: dict[str, str] = {}
    sources = location(data_dir / "SOURCES.md", None, root)
    for name in names:
        path = data_dir / name
        shown = location(path, None, root)
        if name not in recorded:
            raise DataError(
                f"{shown}: no SHA-256 recorded in {sources}; add a '## {name}' section with "
                f"its origin, licence and a line '- SHA-256: `...`'"
            )
        if not path.is_file():
            raise DataError(f"{shown}: not found; restore it (git checkout -- {shown})")
        actual = file_sha256(path)
        if actual != recorded[name]:
            raise DataError(
                f"{shown}: SHA-256 is {actual}, but {sources} records {recorded[name]}; "
                f"restore the original file (git checkout -- {shown}), or if the change "
                f"is intended, update its provenance and checksum in {sources}"
            )
        verified[name] = actual
    return verified
