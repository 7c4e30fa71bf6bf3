"""Checked access to the files in ``data/``.

Every data file has a section in ``data/SOURCES.md`` that records where it came
from, its licence and its SHA-256 digest on a line of the form::

    - SHA-256: `<64 lowercase hex digits>`

A lesson reads a data file only through :func:`verify` (or a loader built on it,
such as :func:`load_concrete` or :func:`load_housing`), so a file that changed
without its provenance being updated stops the build with a message that says
what to do.

The checksum logic itself is :mod:`privacy_explorer.provenance`, shared with the build;
like :mod:`privacy_explorer.lesson` it is plain Python, so this module stays usable on
its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from privacy_explorer import provenance
from privacy_explorer.provenance import SOURCES_FILE, DataIntegrityError, sha256_of

__all__ = [
    "CONCRETE_DTYPES",
    "CONCRETE_FILE",
    "CONCRETE_INPUTS",
    "CONCRETE_TARGET",
    "CONSTITUTION_FILE",
    "DATA_DIR",
    "HOUSING_COLUMNS",
    "HOUSING_DIR",
    "HOUSING_FILES",
    "HOUSING_ROWS",
    "SOURCES_FILE",
    "DataIntegrityError",
    "HousingRelease",
    "expected_sha256",
    "load_concrete",
    "load_constitution",
    "load_housing",
    "sha256_of",
    "verify",
]

DATA_DIR: Path = Path(__file__).resolve().parent.parent / "data"
"""The repository's ``data/`` folder."""

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

CONCRETE_INPUTS: tuple[str, ...] = tuple(CONCRETE_DTYPES)[:-1]
"""The eight inputs of a concrete mixture: seven components (kg/m³) and the age (days)."""
CONCRETE_TARGET = "compressive_strength"
"""What the inputs predict: the compressive strength in MPa."""

CONSTITUTION_FILE = "constitution-ko.txt"
"""The Constitution of the Republic of Korea up to Article 39 (a statute, not copyrighted)."""

HOUSING_DIR = "synth-mia-housing"
"""The folder (inside ``data/``) of the Synth-MIA housing release."""

HOUSING_COLUMNS: tuple[str, ...] = (
    "longitude",
    "latitude",
    "housing_median_age",
    "total_rooms",
    "total_bedrooms",
    "population",
    "households",
    "median_income",
    "median_house_value",
)
"""The nine columns of every housing CSV in file order, all read as ``float64``."""

HOUSING_FILES: dict[str, str] = {
    "members": f"{HOUSING_DIR}/mem.csv",
    "nonmembers": f"{HOUSING_DIR}/non_mem.csv",
    "reference": f"{HOUSING_DIR}/ref.csv",
    "synthetic": f"{HOUSING_DIR}/synth.csv",
}
"""Each table of :class:`HousingRelease` and the file (relative to ``data/``) it is read from."""

HOUSING_ROWS = 200
"""Rows of each housing table."""


@dataclass(frozen=True, eq=False)
class HousingRelease:
    """The Synth-MIA housing release: a generator's training rows, its output, and two controls.

    Every table has the columns of :data:`HOUSING_COLUMNS` (raw units) and 200 rows;
    the four are disjoint (no row appears in two of them).
    """

    members: pd.DataFrame
    """The rows the generator was trained on (``mem.csv``)."""
    nonmembers: pd.DataFrame
    """Rows of the same population the generator never saw (``non_mem.csv``)."""
    reference: pd.DataFrame
    """A further sample of the population, the auditor's picture of it (``ref.csv``)."""
    synthetic: pd.DataFrame
    """The generator's release (``synth.csv``)."""


def verify(name: str, data_dir: Path = DATA_DIR) -> Path:
    """Check ``data_dir/name`` against its digest in ``data_dir/SOURCES.md``; return its path.

    Raises :class:`DataIntegrityError` naming the file, both digests and how to
    fix it (see :func:`privacy_explorer.provenance.verify`).
    """
    path: Path = provenance.verify(name, data_dir)[0]
    return path


def expected_sha256(name: str, sources: Path = DATA_DIR / SOURCES_FILE) -> str:
    """The SHA-256 that ``sources`` records for the data file ``name``."""
    digest: str = provenance.expected_sha256(name, sources)
    return digest


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


def load_constitution(data_dir: Path = DATA_DIR) -> str:
    """Read the verified statute excerpt: the Korean Constitution up to Article 39.

    Parameters
    ----------
    data_dir
        The folder holding ``constitution-ko.txt`` and its ``SOURCES.md``.

    Returns
    -------
    str
        The whole file decoded as UTF-8, exactly as stored: ``\\n`` line endings
        (no newline translation), ending with a newline.

    Raises
    ------
    DataIntegrityError
        If the file does not match its recorded digest (see :func:`verify`).
    """
    path = verify(CONSTITUTION_FILE, data_dir)
    return path.read_bytes().decode("utf-8")


def load_housing(data_dir: Path = DATA_DIR) -> HousingRelease:
    """Read the verified Synth-MIA housing release: four tables of 200 rows and 9 columns.

    Each of the four files of :data:`HOUSING_FILES` is checked against its digest
    in ``data_dir/SOURCES.md`` before any of them is parsed, so a damaged file
    stops the reading before a table is built.

    Parameters
    ----------
    data_dir
        The folder holding ``synth-mia-housing/`` and ``SOURCES.md``.

    Returns
    -------
    HousingRelease
        Members, non-members, reference and synthetic rows, each a
        :class:`pandas.DataFrame` with the columns of :data:`HOUSING_COLUMNS` as
        ``float64``, in raw units (see ``data/SOURCES.md``).

    Raises
    ------
    DataIntegrityError
        If a file is missing or does not match its recorded digest (see :func:`verify`).
    """
    paths = {table: verify(name, data_dir) for table, name in HOUSING_FILES.items()}
    dtypes = dict.fromkeys(HOUSING_COLUMNS, "float64")
    tables = {
        table: pd.read_csv(path, dtype=dtypes, encoding="ascii") for table, path in paths.items()
    }
    return HousingRelease(**tables)
