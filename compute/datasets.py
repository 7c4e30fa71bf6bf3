"""Checked access to the files in ``data/``.

Every data file has a section in ``data/SOURCES.md`` that records where it came
from, its licence and its SHA-256 digest on a line of the form::

    - SHA-256: `<64 lowercase hex digits>`

A lesson reads a data file only through :func:`verify` (or a loader built on it,
such as :func:`load_concrete`), so a file that changed without its provenance
being updated stops the build with a message that says what to do.

This module deliberately imports nothing from ``explorer``: the lesson modules
and the tests use it on their own.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pandas as pd

DATA_DIR: Path = Path(__file__).resolve().parent.parent / "data"
"""The repository's ``data/`` folder."""

SOURCES_FILE = "SOURCES.md"
"""The provenance file inside a data folder."""

CONCRETE_FILE = "concrete.csv"
"""The UCI Concrete Compressive Strength table (Yeh 1998), 1,030 rows."""

CONCRETE_DTYPES: dict[str, str] = {
    "cement": "float64",
    "blast_furnace_slag": "float64",
    "fly_ash": "float64",
    "water": "float64",
    "superplasticizer": "float64",
    "coarse_aggregate": "float64",
    "fine_aggregate": "float64",
    "age": "int64",
    "compressive_strength": "float64",
}
"""The columns of ``concrete.csv`` in file order, with the dtype each is read as."""

_TOP_HEADING = re.compile(r"^#{1,2}\s")
_SECTION = re.compile(r"^##\s+`?(?P<name>[^`\s]+)`?\s*$")
_DIGEST = re.compile(r"^- SHA-256: `(?P<digest>[0-9a-f]{64})`\s*$")


class DataIntegrityError(ValueError):
    """A data file is missing, has no provenance entry, or does not match its digest."""


def expected_sha256(name: str, sources: Path = DATA_DIR / SOURCES_FILE) -> str:
    """Return the SHA-256 digest that ``sources`` records for the data file ``name``.

    Parameters
    ----------
    name
        File name as it appears in a ``## <name>`` heading, e.g. ``"concrete.csv"``.
    sources
        The provenance file to read.

    Returns
    -------
    str
        The digest as 64 lowercase hex digits.

    Raises
    ------
    DataIntegrityError
        If ``sources`` has no section for ``name``, or that section has no
        ``- SHA-256: `...``` line, or more than one.
    """
    section: str | None = None
    found: list[tuple[int, str]] = []
    for number, line in enumerate(sources.read_text(encoding="utf-8").splitlines(), start=1):
        if _TOP_HEADING.match(line):  # "### ..." subsections stay inside their file's section
            heading = _SECTION.match(line)
            section = heading["name"] if heading else None
        elif section == name and (digest := _DIGEST.match(line)):
            found.append((number, digest["digest"]))
    if len(found) == 1:
        return found[0][1]
    if not found:
        raise DataIntegrityError(
            f"{sources}: no SHA-256 recorded for {name!r}; add a '## {name}' section "
            f"with a line '- SHA-256: `<digest>`' (the output of `sha256sum`)"
        )
    lines = ", ".join(str(number) for number, _ in found)
    raise DataIntegrityError(
        f"{sources}: {name!r} has {len(found)} SHA-256 lines (lines {lines}); keep exactly one"
    )


def sha256_of(path: Path) -> str:
    """Return the SHA-256 digest of the file at ``path`` as 64 lowercase hex digits."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def verify(name: str, data_dir: Path = DATA_DIR) -> Path:
    """Check ``data_dir/name`` against the digest in ``data_dir/SOURCES.md``.

    Parameters
    ----------
    name
        The data file's name inside ``data_dir``.
    data_dir
        The folder holding the file and its ``SOURCES.md``.

    Returns
    -------
    pathlib.Path
        The path of the verified file, ready to read.

    Raises
    ------
    DataIntegrityError
        If the file is missing, has no entry in ``SOURCES.md``, or its content
        does not match the recorded digest. The message names the file, both
        digests and how to fix it.
    """
    path = data_dir / name
    sources = data_dir / SOURCES_FILE
    expected = expected_sha256(name, sources)
    if not path.is_file():
        raise DataIntegrityError(
            f"{path}: data file is missing; restore it from git (git checkout -- {path})"
        )
    actual = sha256_of(path)
    if actual != expected:
        raise DataIntegrityError(
            f"{path}: SHA-256 is {actual} but {sources} records {expected}; "
            f"restore the file from git (git checkout -- {path}), or, if the change "
            f"is intended, record the new digest in {sources}"
        )
    return path


def load_concrete(data_dir: Path = DATA_DIR) -> pd.DataFrame:
    """Read the verified concrete table: 1,030 mixtures, 8 inputs and the strength.

    Parameters
    ----------
    data_dir
        The folder holding ``concrete.csv`` and its ``SOURCES.md``.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`CONCRETE_DTYPES` in that order: seven mixture
        components in kg per m³ of concrete, ``age`` in days and
        ``compressive_strength`` in MPa.

    Raises
    ------
    DataIntegrityError
        If the file does not match its recorded digest (see :func:`verify`).
    """
    path = verify(CONCRETE_FILE, data_dir)
    return pd.read_csv(path, dtype=CONCRETE_DTYPES, encoding="utf-8")
