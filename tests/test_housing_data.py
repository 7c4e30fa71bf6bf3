"""The Synth-MIA housing release in data/: provenance, shape, and refusal of a damaged copy."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pandas as pd
import pytest

from privacy_explorer.compute.datasets import (
    DATA_DIR,
    HOUSING_COLUMNS,
    HOUSING_DIR,
    HOUSING_FILES,
    HOUSING_ROWS,
    SOURCES_FILE,
    DataIntegrityError,
    expected_sha256,
    load_housing,
    sha256_of,
)

SOURCES_TEXT = (DATA_DIR / SOURCES_FILE).read_text(encoding="utf-8")


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A private copy of the housing files and SOURCES.md that a test may damage."""
    (tmp_path / HOUSING_DIR).mkdir()
    for name in (*HOUSING_FILES.values(), SOURCES_FILE):
        shutil.copyfile(DATA_DIR / name, tmp_path / name)
    return tmp_path


def test_every_file_of_the_folder_has_a_digest_that_matches() -> None:
    present = {f"{HOUSING_DIR}/{path.name}" for path in (DATA_DIR / HOUSING_DIR).iterdir()}
    assert present == {*HOUSING_FILES.values(), f"{HOUSING_DIR}/LICENSE"}
    for name in present:
        # An independent digest (hashlib on the bytes) against the one SOURCES.md records.
        digest = hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest()
        assert digest == expected_sha256(name), name


def test_the_sources_section_states_the_licence_and_the_origin() -> None:
    section = SOURCES_TEXT.split("## The Synth-MIA housing release", 1)[1]
    assert "- Licence: MIT, copyright (c) 2025 joshward96" in section
    assert "joshward96/Synth-MIA" in section
    assert "c8b154784633b48bb77a539208b05f83a646a42c" in section
    notice = (DATA_DIR / HOUSING_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in notice and "Copyright (c) 2025 joshward96" in notice


def test_loader_gives_four_disjoint_tables_of_the_documented_shape() -> None:
    release = load_housing()
    tables = {
        "members": release.members,
        "nonmembers": release.nonmembers,
        "reference": release.reference,
        "synthetic": release.synthetic,
    }
    assert set(tables) == set(HOUSING_FILES)
    rows: dict[str, set[tuple[float, ...]]] = {}
    for table, frame in tables.items():
        assert frame.shape == (HOUSING_ROWS, len(HOUSING_COLUMNS)), table
        assert tuple(frame.columns) == HOUSING_COLUMNS
        assert set(map(str, frame.dtypes)) == {"float64"}
        assert not frame.isna().any().any()
        # The loader reads what pandas reads from the file with its defaults.
        default = pd.read_csv(DATA_DIR / HOUSING_FILES[table])
        pd.testing.assert_frame_equal(frame, default)
        rows[table] = set(map(tuple, frame.to_numpy()))
    names = list(rows)
    for position, first in enumerate(names):
        for second in names[position + 1 :]:
            assert not rows[first] & rows[second], (first, second)


def test_the_documented_format_holds() -> None:
    for name in HOUSING_FILES.values():
        raw = (DATA_DIR / name).read_bytes()
        raw.decode("ascii")
        lines = raw.split(b"\r\n")
        assert lines[-1] == b"" and b"\n" not in b"".join(lines)
        assert len(lines) == HOUSING_ROWS + 2  # header, rows, and the empty tail
        assert lines[0].decode("ascii") == ",".join(HOUSING_COLUMNS)


def test_tampered_copy_is_refused_before_any_table_is_read(data_copy: Path) -> None:
    path = data_copy / HOUSING_FILES["synthetic"]
    text = path.read_bytes()
    damaged = text.replace(b"500001.0", b"500000.0", 1)
    assert damaged != text
    path.write_bytes(damaged)
    sources = data_copy / SOURCES_FILE
    expected = expected_sha256(HOUSING_FILES["synthetic"], sources)

    with pytest.raises(DataIntegrityError) as raised:
        load_housing(data_copy)

    assert str(raised.value) == (
        f"{path}: SHA-256 is {sha256_of(path)}, but {sources} records {expected}; "
        f"restore the original file (git checkout -- {path}), or if the change is "
        f"intended, update its provenance and checksum in {sources}"
    )


def test_missing_file_is_refused(data_copy: Path) -> None:
    path = data_copy / HOUSING_FILES["reference"]
    path.unlink()
    with pytest.raises(DataIntegrityError, match=r"data file is missing"):
        load_housing(data_copy)


def test_a_copy_with_intact_files_loads(data_copy: Path) -> None:
    copy = load_housing(data_copy)
    pd.testing.assert_frame_equal(copy.members, load_housing().members)
