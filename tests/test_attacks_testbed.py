"""The Synth-MIA testbed's housing release: the test data's checksums."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

DATA = Path(__file__).parent / "data"
HOUSING = DATA / "synth-mia-housing"


def listed_checksums() -> dict[str, str]:
    """``path -> SHA-256`` from tests/data/SOURCES.md (a ``### path`` heading, then the line)."""
    checksums, heading = {}, None
    for line in (DATA / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        elif match := re.fullmatch(r"- SHA-256: `([0-9a-f]{64})`", line.strip()):
            assert heading is not None, "a checksum line before any file heading"
            checksums[heading] = match.group(1)
    return checksums


def test_every_test_data_file_is_listed_with_its_checksum() -> None:
    checksums = listed_checksums()
    present = {path.relative_to(DATA).as_posix() for path in HOUSING.rglob("*") if path.is_file()}
    assert set(checksums) == present
    for name, expected in checksums.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == expected, name
