"""The shipped data files match their provenance in data/SOURCES.md."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from privacy_explorer.compute.datasets import (
    CONCRETE_DTYPES,
    CONCRETE_FILE,
    DATA_DIR,
    SOURCES_FILE,
    DataIntegrityError,
    expected_sha256,
    load_concrete,
    sha256_of,
    verify,
)

SOURCES_TEXT = (DATA_DIR / SOURCES_FILE).read_text(encoding="utf-8")
INPUT_COLUMNS = [name for name in CONCRETE_DTYPES if name != "compressive_strength"]


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A private copy of data/ that a test may damage."""
    for name in (CONCRETE_FILE, SOURCES_FILE):
        shutil.copyfile(DATA_DIR / name, tmp_path / name)
    return tmp_path


def stated_number(pattern: str) -> int:
    """The number that SOURCES.md states in the sentence matched by ``pattern``."""
    found = re.search(pattern, SOURCES_TEXT)
    assert found, f"SOURCES.md no longer says {pattern!r}"
    return int(found[1])


def test_shipped_csv_matches_its_recorded_digest():
    path = verify(CONCRETE_FILE)
    assert path == DATA_DIR / CONCRETE_FILE
    assert sha256_of(path) == expected_sha256(CONCRETE_FILE)


def test_concrete_has_1030_rows_and_the_documented_columns():
    frame = load_concrete()
    assert frame.shape == (1030, 9)
    assert list(frame.columns) == list(CONCRETE_DTYPES)
    assert {column: str(dtype) for column, dtype in frame.dtypes.items()} == CONCRETE_DTYPES
    assert not frame.isna().any().any()


def test_csv_is_exactly_what_the_documented_writer_produces():
    # Writing the loaded table with the settings in SOURCES.md gives back the same bytes,
    # so the two-decimal format loses nothing.
    buffer = io.StringIO()
    load_concrete().to_csv(buffer, index=False, float_format="%.2f", lineterminator="\n")
    assert buffer.getvalue().encode("utf-8") == (DATA_DIR / CONCRETE_FILE).read_bytes()


def test_duplicate_counts_are_the_ones_sources_states():
    frame = load_concrete()
    assert frame.duplicated().sum() == stated_number(r"(\d+) exact duplicate rows")

    distinct_strengths = frame.groupby(INPUT_COLUMNS)["compressive_strength"].transform("nunique")
    ambiguous = frame[distinct_strengths > 1]
    assert ambiguous.groupby(INPUT_COLUMNS).ngroups == stated_number(
        r"(\d+) combinations of all eight inputs"
    )
    assert len(ambiguous) == stated_number(r"strength value, across (\d+) rows")


def test_tampered_copy_is_refused_with_the_exact_message(data_copy: Path):
    path = data_copy / CONCRETE_FILE
    path.write_bytes(path.read_bytes().replace(b"79.99", b"79.98", 1))
    sources = data_copy / SOURCES_FILE
    expected = expected_sha256(CONCRETE_FILE, sources)
    actual = sha256_of(path)

    with pytest.raises(DataIntegrityError) as raised:
        load_concrete(data_copy)

    assert str(raised.value) == (
        f"{path}: SHA-256 is {actual}, but {sources} records {expected}; "
        f"restore the original file (git checkout -- {path}), or if the change is "
        f"intended, update its provenance and checksum in {sources}"
    )
    assert isinstance(raised.value, ValueError)


def test_missing_file_is_refused(data_copy: Path):
    (data_copy / CONCRETE_FILE).unlink()
    path = data_copy / CONCRETE_FILE
    with pytest.raises(DataIntegrityError) as raised:
        verify(CONCRETE_FILE, data_copy)
    assert str(raised.value) == (
        f"{path}: data file is missing; restore it from git (git checkout -- {path})"
    )


def test_file_without_a_sources_entry_is_refused(data_copy: Path):
    sources = data_copy / SOURCES_FILE
    sources.write_text(SOURCES_TEXT.replace("## concrete.csv", "## other.csv"), encoding="utf-8")
    with pytest.raises(DataIntegrityError) as raised:
        verify(CONCRETE_FILE, data_copy)
    assert str(raised.value) == (
        f"{sources}: no SHA-256 recorded for 'concrete.csv'; add a '## concrete.csv' "
        "section with a line '- SHA-256: `<digest>`' (the output of `sha256sum`)"
    )
    with pytest.raises(DataIntegrityError, match=r"no SHA-256 recorded for 'missing\.csv'"):
        expected_sha256("missing.csv")


def test_digest_is_read_from_its_own_section_only(tmp_path: Path):
    digest_a, digest_b = "a" * 64, "b" * 64
    sources = tmp_path / SOURCES_FILE
    sources.write_text(
        "# Data sources\n\n"
        "## a.csv\n\n### Details\n\n"
        f"- SHA-256: `{digest_a}`\n\n"
        "## b.csv\n\n"
        f"- SHA-256: `{digest_b}`\n\n"
        "## Notes on both\n\n"
        f"- SHA-256: `{'c' * 64}`\n",
        encoding="utf-8",
    )
    assert expected_sha256("a.csv", sources) == digest_a
    assert expected_sha256("b.csv", sources) == digest_b


def test_two_digests_for_one_file_are_refused(tmp_path: Path):
    sources = tmp_path / SOURCES_FILE
    sources.write_text(
        f"## a.csv\n\n- SHA-256: `{'a' * 64}`\n- SHA-256: `{'b' * 64}`\n", encoding="utf-8"
    )
    with pytest.raises(DataIntegrityError, match=r"'a.csv' has 2 SHA-256 lines \(lines 3, 4\)"):
        expected_sha256("a.csv", sources)
