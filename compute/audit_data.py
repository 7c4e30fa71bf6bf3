"""The tables of a synthetic-data audit: reading, checking and encoding them for the attacks.

An audit reads four tables with the same columns: the *members* (records the
generator was trained on), the *non-members* (records of the same population it
never saw; optional), a *reference* sample of that population and the
*synthetic* release. Every problem is reported before any attack runs, as an
:class:`AuditInputError` whose message names the file, the column, how many
rows are affected and what to do.

Encoding, in this order (the :class:`Preprocessing` record keeps what was done):

1. missing values are an error, or with ``impute="median"`` are filled with the
   synthetic data's median (the most frequent value for a text column);
2. text columns are ordinal-encoded: categories numbered in sorted order over
   all four tables, so no file has a category without a number;
3. a column that takes a single value in the synthetic or in the reference
   data is dropped (the attacks' density estimates cannot use it);
4. every column is standardized with the mean and population standard
   deviation of the synthetic data (the Synth-MIA testbed's default);
5. optionally, the standardized records are projected onto the first ``dims``
   principal components of the reference data.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import io
import lzma
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

FloatArray = npt.NDArray[np.float64]

ROLES = ("members", "nonmembers", "reference", "synthetic")
"""The tables of an audit, in the order they are reported."""

ROLE_OPTIONS = {role: f"--{role}" for role in ROLES}
"""The command-line option that names each table (used in the fixes the errors suggest)."""

CSV_SUFFIXES = (".csv", ".txt", ".csv.gz", ".csv.bz2", ".csv.xz", ".csv.zip")
PARQUET_SUFFIXES = (".parquet", ".pq")
IMPUTE_CHOICES = ("median",)
MIN_ROWS = 2


class AuditInputError(ValueError):
    """An input table cannot be audited; the message says where and what to do.

    The attributes repeat the parts of the message for callers that want them.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        column: str | None = None,
        rows: int | None = None,
        fix: str | None = None,
    ) -> None:
        super().__init__(f"{message}; {fix}" if fix else message)
        self.file = file
        """The file (or table) at fault, as the caller named it."""
        self.column = column
        """The column at fault, if one column is."""
        self.rows = rows
        """How many rows are affected, if that is known."""
        self.fix = fix
        """What to do about it."""


@dataclass(frozen=True, eq=False)
class Table:
    """One input table as read, before any encoding."""

    role: str
    """``members``, ``nonmembers``, ``reference`` or ``synthetic``."""
    source: str
    """The path as given, or ``<DataFrame>`` for a table passed in memory."""
    sha256: str
    """SHA-256 of the file's bytes (of its CSV form for a DataFrame)."""
    frame: pd.DataFrame
    """The records, one row each, in the file's column order."""
    notes: tuple[str, ...] = ()
    """What reading assumed (separator, decimal mark, numbers written with separators)."""

    @property
    def rows(self) -> int:
        """Number of records."""
        return len(self.frame)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_file(path: Path, role: str) -> None:
    """Raise unless ``path`` is a non-empty file of a kind the audit reads."""
    where = str(path)
    if not path.exists():
        raise AuditInputError(
            f"{where}: no such file",
            file=where,
            fix=f"check the path given to {ROLE_OPTIONS[role]}",
        )
    if not path.is_file():
        raise AuditInputError(
            f"{where}: is a folder, not a file", file=where, fix="name a CSV file"
        )
    if path.stat().st_size == 0:
        raise AuditInputError(
            f"{where}: the file is empty",
            file=where,
            rows=0,
            fix="export the records as CSV with a header row",
        )
    name = path.name.lower()
    if not name.endswith(CSV_SUFFIXES + PARQUET_SUFFIXES):
        raise AuditInputError(
            f"{where}: not a CSV file (the name ends in '{path.suffix or path.name}')",
            file=where,
            fix="export the table as CSV (.csv) or Parquet (.parquet)",
        )


SEPARATORS = (",", ";", "\t", "|")
"""The field separators the reader recognises (``--sep``)."""

SEPARATOR_NAMES = {",": "','", ";": "';'", "\t": "tab", "|": "'|'"}

MAX_MAGNITUDE = 1e150
"""The largest magnitude a number may have: squaring it for the standard deviation must not
overflow a float (whose largest value is about 1.8e308)."""

NEAR_CONSTANT = 1e-3
"""A column whose standard deviation in the synthetic or reference data is below this share of
its standard deviation over all four tables is dropped as nearly constant."""


@dataclass(frozen=True)
class ReadOptions:
    """How the CSV files are read; ``None`` means sniffed from each file."""

    sep: str | None = None
    """Field separator: one of :data:`SEPARATORS`, or ``None`` to sniff it."""
    decimal: str | None = None
    """Decimal mark: ``.`` or ``,``, or ``None`` to sniff it."""
    na_values: tuple[str, ...] = ()
    """Field values read as missing, besides the empty field (``NA`` is a value by default)."""


_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d+,\d+\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[+-]?\d*\.\d+\s*$")


def _sniff(sample: str, options: ReadOptions) -> tuple[str, str]:
    """The separator and decimal mark of a CSV sample, as given or as its lines suggest."""
    lines = [line for line in sample.splitlines()[:50] if line.strip()]
    if len(lines) > 1 and not sample.endswith("\n"):
        lines = lines[:-1]  # the sample may end inside a line
    sep = options.sep
    if sep is None:
        best = (0, ",")
        for candidate in SEPARATORS:
            counts = {len(row) for row in csv.reader(lines, delimiter=candidate)}
            if len(counts) == 1 and (width := counts.pop()) > best[0] and width > 1:
                best = (width, candidate)
        sep = best[1]
    decimal = options.decimal
    if decimal is None:
        decimal = "."
        if sep != ",":
            fields = [field for row in csv.reader(lines[1:], delimiter=sep) for field in row]
            if any(_DECIMAL_COMMA.match(field) for field in fields) and not any(
                _DECIMAL_POINT.match(field) for field in fields
            ):
                decimal = ","
    return sep, decimal


def _number_pattern(decimal: str) -> re.Pattern[str]:
    """A number written with optional thousands separators (``1,234.5``, ``1 234``, ``1.234,5``)."""
    groups = "[ ,']" if decimal == "." else "[ .']"
    mark = re.escape(decimal)
    return re.compile(rf"^[+-]?(\d{{1,3}}({groups}\d{{3}})+|\d+)({mark}\d+)?$")


def _read_numbers_with_separators(
    frame: pd.DataFrame, where: str, decimal: str
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Text columns whose every value is a number but for thousands separators or spaces."""
    pattern = _number_pattern(decimal)
    notes = []
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        present = values.dropna().astype(str).str.strip()
        if present.empty or not present.map(lambda text: bool(pattern.match(text))).all():
            continue
        grouping = r"[ ,']" if decimal == "." else r"[ .']"
        numbers = present.str.replace(grouping, "", regex=True).str.replace(",", ".")
        converted = pd.Series(np.nan, index=values.index, dtype=np.float64)
        converted.loc[present.index] = numbers.astype(np.float64).to_numpy()
        frame[column] = converted
        notes.append(
            f"{where}: column '{column}' read as numbers (thousands separators or spaces removed)"
        )
    return frame, tuple(notes)


def _header(sample: str, sep: str) -> list[str]:
    first = next(csv.reader(io.StringIO(sample), delimiter=sep), [])
    return [name.strip() for name in first]


SAMPLE_BYTES = 1 << 16
"""How much of a CSV file's text is read to sniff its separator and decimal mark."""


def _start_of_text(path: Path) -> bytes:
    """The first :data:`SAMPLE_BYTES` of a CSV file's text, unpacked if it is compressed
    (gzip, bzip2, xz, or the first file of a zip, as pandas reads them)."""
    name = path.name.lower()
    try:
        if name.endswith(".gz"):
            with gzip.open(path) as handle:
                return handle.read(SAMPLE_BYTES)
        if name.endswith(".bz2"):
            with bz2.open(path) as handle:
                return handle.read(SAMPLE_BYTES)
        if name.endswith(".xz"):
            with lzma.open(path) as handle:
                return handle.read(SAMPLE_BYTES)
        if name.endswith(".zip"):
            with zipfile.ZipFile(path) as archive:
                members = [item for item in archive.infolist() if not item.is_dir()]
                if len(members) != 1:
                    raise AuditInputError(
                        f"{path}: the zip holds {len(members)} files, not one CSV file",
                        file=str(path),
                        fix="zip the one CSV file alone, or give the CSV file itself",
                    )
                with archive.open(members[0]) as handle:
                    return handle.read(SAMPLE_BYTES)
    except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as error:
        raise AuditInputError(
            f"{path}: cannot be unpacked as its name says ({error})",
            file=str(path),
            fix="check that the file is whole and that its ending names how it is compressed",
        ) from error
    with path.open("rb") as handle:
        return handle.read(SAMPLE_BYTES)


def _read_csv(path: Path, options: ReadOptions) -> tuple[pd.DataFrame, tuple[str, ...]]:
    where = str(path)
    start = _start_of_text(path)
    if b"\0" in start[:4096]:
        raise AuditInputError(
            f"{where}: not a CSV file (it holds binary data)",
            file=where,
            fix="export the table as CSV text with a header row",
        )
    notes: list[str] = []
    try:
        sample = start.decode("utf-8-sig")
    except UnicodeDecodeError:
        sample = start[: len(start) - 3].decode("utf-8-sig", errors="ignore")
    sep, decimal = _sniff(sample, options)
    if (options.sep is None and sep != ",") or (options.decimal is None and decimal != "."):
        notes.append(
            f"{where}: read with {SEPARATOR_NAMES[sep]} between fields and '{decimal}' as "
            "the decimal mark (override with --sep and --decimal)"
        )
    names = _header(sample, sep)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise AuditInputError(
            f"{where}: the header names column {_listed(repeated)} more than once",
            file=where,
            column=repeated[0],
            fix="give every column its own name",
        )
    try:
        frame = pd.read_csv(
            path,
            sep=sep,
            decimal=decimal,
            keep_default_na=False,
            na_values=["", *options.na_values],
            low_memory=False,
        )
    except pd.errors.EmptyDataError as error:
        raise AuditInputError(
            f"{where}: no header row and no records",
            file=where,
            rows=0,
            fix="export the records as CSV with a header row",
        ) from error
    except UnicodeDecodeError as error:
        raise AuditInputError(
            f"{where}: not a CSV file (not UTF-8 text)", file=where, fix="save it as UTF-8 CSV"
        ) from error
    except pd.errors.ParserError as error:
        detail = str(error).strip().splitlines()[-1]
        raise AuditInputError(
            f"{where}: not a valid CSV file ({detail})",
            file=where,
            fix="check that every line has as many fields as the header",
        ) from error
    frame, converted = _read_numbers_with_separators(frame, where, decimal)
    return frame, (*notes, *converted)


def check_numbers(frame: pd.DataFrame, where: str) -> None:
    """Raise if a numeric column holds an infinite value or one too large to standardize."""
    for column in frame.columns:
        values = frame[column]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        numbers = values.to_numpy(np.float64, na_value=np.nan)
        infinite = np.flatnonzero(np.isinf(numbers))
        if infinite.size:
            raise AuditInputError(
                f"{where}: column '{column}' holds an infinite value on line {infinite[0] + 2}"
                f" ({infinite.size} in all)",
                file=where,
                column=column,
                rows=int(infinite.size),
                fix="replace it with a finite number, or leave the field empty and pass "
                "--impute median",
            )
        large = np.flatnonzero(np.abs(numbers) > MAX_MAGNITUDE)
        if large.size:
            raise AuditInputError(
                f"{where}: column '{column}' holds {numbers[large[0]]:g} on line {large[0] + 2},"
                f" too large to standardize (magnitudes must stay below {MAX_MAGNITUDE:g})",
                file=where,
                column=column,
                rows=int(large.size),
                fix="rescale the column in every file (e.g. divide it by a power of ten)",
            )


def _read_parquet(path: Path) -> pd.DataFrame:
    where = str(path)
    try:
        return pd.read_parquet(path)
    except ImportError as error:
        raise AuditInputError(
            f"{where}: reading Parquet needs pyarrow or fastparquet, and neither is installed",
            file=where,
            fix="install pyarrow (pip install pyarrow) or export the table as CSV",
        ) from error
    except Exception as error:  # the engines raise their own exception types
        raise AuditInputError(
            f"{where}: not a readable Parquet file ({type(error).__name__}: {error})",
            file=where,
            fix="export the table again, or as CSV",
        ) from error


def read_table(path: str | Path, role: str, options: ReadOptions | None = None) -> Table:
    """Read one input file (CSV, or Parquet when pyarrow is installed).

    Raises
    ------
    AuditInputError
        If the file is missing, empty, not CSV or Parquet, unreadable, or has
        a header but no records.
    """
    file = Path(path)
    _check_file(file, role)
    is_parquet = file.name.lower().endswith(PARQUET_SUFFIXES)
    notes: tuple[str, ...] = ()
    if is_parquet:
        frame = _read_parquet(file)
    else:
        frame, notes = _read_csv(file, options or ReadOptions())
    if len(frame) == 0:
        raise AuditInputError(
            f"{file}: has a header but no records",
            file=str(file),
            rows=0,
            fix="export the records too",
        )
    frame.columns = [str(name) for name in frame.columns]
    check_numbers(frame, str(file))
    return Table(role=role, source=str(path), sha256=_sha256(file), frame=frame, notes=notes)


def table_from_frame(frame: pd.DataFrame, role: str) -> Table:
    """Wrap a DataFrame already in memory; its SHA-256 is that of its CSV form."""
    if len(frame) == 0:
        raise AuditInputError(
            f"{role}: the table has no records", file=role, rows=0, fix="pass a table with records"
        )
    copy = frame.copy()
    copy.columns = [str(name) for name in copy.columns]
    digest = hashlib.sha256(copy.to_csv(index=False).encode("utf-8")).hexdigest()
    check_numbers(copy, role)
    return Table(role=role, source="<DataFrame>", sha256=digest, frame=copy)


# ---------------------------------------------------------------------------------------------
# Checks across tables


def _listed(names: Sequence[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


def check_columns(tables: Sequence[Table]) -> list[str]:
    """The synthetic table's columns, after checking that every table has the same set.

    Raises
    ------
    AuditInputError
        Listing, for each file that differs, the columns it lacks and those it
        has in addition.
    """
    synthetic = next(table for table in tables if table.role == "synthetic")
    expected = list(synthetic.frame.columns)
    duplicated = sorted({name for name in expected if expected.count(name) > 1})
    problems: dict[str, str] = {}
    for table in tables:
        present = list(table.frame.columns)
        missing = [name for name in expected if name not in present]
        extra = [name for name in present if name not in expected]
        parts = ([f"lacks {_listed(missing)}"] if missing else []) + (
            [f"has {_listed(extra)} in addition"] if extra else []
        )
        if parts:
            problems[table.source] = f"{table.source} {' and '.join(parts)}"
    if duplicated:
        problems.setdefault(synthetic.source, f"{synthetic.source} repeats {_listed(duplicated)}")
    if problems:
        raise AuditInputError(
            f"the files do not have the same columns as {synthetic.source}: "
            + "; ".join(problems.values()),
            file=next(iter(problems)),
            fix="give every file the same columns (their order may differ)",
        )
    return expected


def is_text_column(values: pd.Series) -> bool:
    """Whether a column holds text (categories) rather than numbers; booleans count as text."""
    return not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)


def _first_text(values: pd.Series) -> str:
    """Where the first value that is not a number sits, as ``'forty' on line 7``."""
    numbers = pd.to_numeric(values, errors="coerce")
    offending = np.flatnonzero((numbers.isna() & values.notna()).to_numpy())
    if offending.size == 0:
        return "true/false values"
    position = int(offending[0])
    return f"{str(values.iloc[position])!r} on line {position + 2}"  # line 1 is the header


def check_kinds(tables: Sequence[Table], columns: Sequence[str]) -> dict[str, bool]:
    """Whether each column is text, after checking it is text in every file or in none.

    Raises
    ------
    AuditInputError
        Listing every column that holds numbers in some files and text in
        others, with the first text value and its line.
    """
    problems: dict[str, str] = {}
    kinds: dict[str, bool] = {}
    for column in columns:
        text = [table for table in tables if is_text_column(table.frame[column])]
        numbers = [table for table in tables if table not in text]
        kinds[column] = bool(text)
        if text and numbers:
            where = "; ".join(
                f"{table.source}: {_first_text(table.frame[column])}" for table in text
            )
            problems[column] = (
                f"column '{column}' holds numbers in "
                f"{', '.join(table.source for table in numbers)} but text in "
                f"{', '.join(table.source for table in text)} ({where})"
            )
    if problems:
        raise AuditInputError(
            "; ".join(problems.values()),
            column=next(iter(problems)),
            fix="correct those values, or make the column text in every file",
        )
    return kinds


def _missing_lines(values: pd.Series) -> str:
    positions = np.flatnonzero(values.isna().to_numpy()) + 2  # line 1 is the header
    shown = ", ".join(str(line) for line in positions[:5])
    return (
        f"line {shown}"
        if positions.size == 1
        else f"lines {shown}{', …' if positions.size > 5 else ''}"
    )


def check_missing(tables: Sequence[Table], columns: Sequence[str]) -> None:
    """Raise if any value is missing, naming every file and column with the count and lines."""
    problems = []
    for table in tables:
        for column in columns:
            count = int(table.frame[column].isna().sum())
            if count:
                problems.append((table, column, count))
    if not problems:
        return
    details = "; ".join(
        f"{table.source}: column '{column}' has {count} missing value{'s' if count > 1 else ''} "
        f"({_missing_lines(table.frame[column])})"
        for table, column, count in problems
    )
    table, column, count = problems[0]
    raise AuditInputError(
        details,
        file=table.source,
        column=column,
        rows=count,
        fix="fill or remove those rows, or pass --impute median to fill them with the "
        "synthetic data's median",
    )


def check_sizes(tables: Sequence[Table]) -> None:
    """Raise unless every table has at least :data:`MIN_ROWS` records."""
    for table in tables:
        if table.rows < MIN_ROWS:
            raise AuditInputError(
                f"{table.source}: has {table.rows} record; an audit needs at least {MIN_ROWS} in "
                "every file",
                file=table.source,
                rows=table.rows,
                fix="use a larger sample (hundreds of records give meaningful rates)",
            )


def check_identical(tables: Sequence[Table]) -> None:
    """Raise if two roles were given the same file (the same bytes)."""
    seen: dict[str, Table] = {}
    for table in tables:
        earlier = seen.setdefault(table.sha256, table)
        if earlier is not table:
            raise AuditInputError(
                f"{earlier.source} ({ROLE_OPTIONS[earlier.role]}) and {table.source} "
                f"({ROLE_OPTIONS[table.role]}) are the same data (SHA-256 {table.sha256[:12]}…), "
                "so no attack can tell them apart",
                file=table.source,
                fix="give each option its own records",
            )


@dataclass(frozen=True)
class Overlap:
    """Records of the members found again in the non-members or the reference."""

    role: str
    """``nonmembers`` or ``reference``."""
    source: str
    """That file."""
    member_lines: tuple[int, ...]
    """Lines of the members file (the header is line 1) whose record appears there."""


def _row_keys(frame: pd.DataFrame, columns: Sequence[str]) -> list[tuple[str, ...]]:
    parts = []
    for column in columns:
        values = frame[column]
        if is_text_column(values):
            parts.append(values.astype(str).tolist())
        else:
            parts.append([repr(float(value)) for value in values.to_numpy(np.float64)])
    return list(zip(*parts, strict=True))


def find_overlaps(tables: Sequence[Table], columns: Sequence[str]) -> tuple[Overlap, ...]:
    """Members whose whole record appears in the non-members or in the reference."""
    by_role = {table.role: table for table in tables}
    members = _row_keys(by_role["members"].frame, columns)
    found = []
    for role in ("nonmembers", "reference"):
        if role not in by_role:
            continue
        others = set(_row_keys(by_role[role].frame, columns))
        lines = tuple(line + 2 for line, key in enumerate(members) if key in others)
        if lines:
            found.append(Overlap(role, by_role[role].source, lines))
    return tuple(found)


def overlap_sentence(overlap: Overlap, members: str) -> str:
    """``3 records of mem.csv also appear in non_mem.csv (lines 2, 5, 9 of mem.csv)``."""
    shown = ", ".join(str(line) for line in overlap.member_lines[:10])
    more = ", …" if len(overlap.member_lines) > 10 else ""
    count = len(overlap.member_lines)
    return (
        f"{count} record{'s' if count > 1 else ''} of {members} also appear"
        f"{'' if count > 1 else 's'} in {overlap.source} (line{'s' if count > 1 else ''} "
        f"{shown}{more} of {members})"
    )


def check_overlaps(tables: Sequence[Table], columns: Sequence[str], allow: bool) -> tuple[str, ...]:
    """Raise on members among the non-members or the reference, unless ``allow`` (then notes)."""
    overlaps = find_overlaps(tables, columns)
    members = next(table for table in tables if table.role == "members").source
    sentences = tuple(overlap_sentence(overlap, members) for overlap in overlaps)
    if sentences and not allow:
        raise AuditInputError(
            "; ".join(sentences)
            + ": a member that is also a non-member or part of the reference makes every "
            "attack's rates meaningless",
            file=overlaps[0].source,
            rows=len(overlaps[0].member_lines),
            fix="remove those records from one of the files, or pass --allow-overlap to audit "
            "anyway",
        )
    return tuple(f"warning: {sentence} (--allow-overlap)" for sentence in sentences)


# ---------------------------------------------------------------------------------------------
# Encoding


@dataclass(frozen=True)
class ColumnEncoding:
    """How one kept column became a number the attacks see."""

    name: str
    """The column's name in the files."""
    kind: Literal["number", "category"]
    """``number`` for a numeric column, ``category`` for a text column (ordinal-encoded)."""
    categories: tuple[str, ...]
    """For a category column, the values in the order of their codes 0, 1, 2, …"""
    mean: float
    """The synthetic data's mean of the (encoded) column, subtracted first."""
    scale: float
    """The synthetic data's population standard deviation (ddof = 0), divided by next."""


@dataclass(frozen=True)
class DroppedColumn:
    """A column left out because it does not vary where the attacks need it to."""

    name: str
    """The column's name."""
    constant_in: tuple[str, ...]
    """The tables (``synthetic``, ``reference``) in which it takes one value only."""
    value: str
    """That value, as text (the synthetic one when it is constant there)."""
    exact: bool = True
    """``True`` if it takes one value only; ``False`` if it is only nearly constant (its spread
    is below :data:`NEAR_CONSTANT` of its spread over all four tables)."""
    tolerance: float = NEAR_CONSTANT
    """The relative spread below which a column counts as nearly constant."""


@dataclass(frozen=True)
class ImputedValues:
    """Missing values filled in one column of one table."""

    role: str
    """The table."""
    column: str
    """The column."""
    count: int
    """How many values were missing."""
    value: str
    """What they were filled with, as text."""


@dataclass(frozen=True)
class Preprocessing:
    """What was done to the tables before the attacks saw them (stated in the report)."""

    columns: tuple[ColumnEncoding, ...]
    """The columns kept, in the synthetic file's order."""
    dropped: tuple[DroppedColumn, ...]
    """Columns dropped because they were constant."""
    imputed: tuple[ImputedValues, ...]
    """Missing values filled (empty unless ``impute`` was given)."""
    impute: str | None
    """The imputation asked for: ``None`` or ``"median"``."""
    dims: int | None
    """Number of principal components kept, or ``None`` for no projection."""
    explained_variance: float | None
    """With ``dims``: the share of the reference data's variance those components hold."""
    scaler_fitted_on: str = "synthetic"
    """The table whose mean and standard deviation standardize every table."""
    projection_fitted_on: str = "reference"
    """The table whose principal components define the projection (with ``dims``)."""

    @property
    def dimension(self) -> int:
        """The number of features the attacks see."""
        return self.dims if self.dims is not None else len(self.columns)


@dataclass(frozen=True, eq=False)
class EncodedTables:
    """The tables as the attacks see them: float arrays, one row per record."""

    members: FloatArray
    nonmembers: FloatArray | None
    reference: FloatArray
    synthetic: FloatArray


def _fill_missing(
    tables: Sequence[Table], columns: Sequence[str], text: Mapping[str, bool]
) -> tuple[dict[str, pd.DataFrame], tuple[ImputedValues, ...]]:
    """Fill every missing value with the synthetic median (most frequent text value)."""
    synthetic = next(table for table in tables if table.role == "synthetic").frame
    fills: dict[str, object] = {}
    for column in columns:
        present = synthetic[column].dropna()
        if present.empty:
            raise AuditInputError(
                f"column '{column}' has no value at all in the synthetic data, so there is no "
                "median to fill with",
                column=column,
                rows=len(synthetic),
                fix="drop the column from every file",
            )
        fills[column] = (
            sorted(present.astype(str).mode())[0] if text[column] else float(present.median())
        )
    frames, imputed = {}, []
    for table in tables:
        frame = table.frame[list(columns)].copy()
        for column in columns:
            count = int(frame[column].isna().sum())
            if count:
                fill = fills[column]
                frame[column] = frame[column].astype(object).where(frame[column].notna(), fill)
                imputed.append(
                    ImputedValues(
                        table.role,
                        column,
                        count,
                        f"{fill:g}" if isinstance(fill, float) else str(fill),
                    )
                )
        frames[table.role] = frame
    return frames, tuple(imputed)


def _ordinal(
    frames: Mapping[str, pd.DataFrame], column: str
) -> tuple[tuple[str, ...], dict[str, FloatArray]]:
    """Codes of a text column in sorted order of its values over every table."""
    categories = tuple(
        sorted(set().union(*(set(frame[column].astype(str)) for frame in frames.values())))
    )
    codes = {value: float(code) for code, value in enumerate(categories)}
    return categories, {
        role: np.asarray(frame[column].astype(str).map(codes), dtype=np.float64)
        for role, frame in frames.items()
    }


def _shown(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def encode_tables(
    tables: Sequence[Table],
    columns: Sequence[str],
    text: Mapping[str, bool],
    *,
    impute: str | None = None,
    dims: int | None = None,
) -> tuple[Preprocessing, EncodedTables]:
    """Encode checked tables for the attacks (see the module docstring for the steps).

    Raises
    ------
    AuditInputError
        If values are missing and ``impute`` is ``None``, if no column varies,
        or if ``dims`` is larger than the columns or reference rows allow.
    """
    if impute is not None and impute not in IMPUTE_CHOICES:
        raise AuditInputError(f"impute must be None or 'median', got {impute!r}")
    if impute is None:
        check_missing(tables, columns)
        frames = {table.role: table.frame[list(columns)] for table in tables}
        imputed: tuple[ImputedValues, ...] = ()
    else:
        frames, imputed = _fill_missing(tables, columns, text)
    encodings: list[ColumnEncoding] = []
    dropped: list[DroppedColumn] = []
    arrays: dict[str, list[FloatArray]] = {role: [] for role in frames}
    for column in columns:
        categories: tuple[str, ...] = ()
        if text[column]:
            categories, values = _ordinal(frames, column)
        else:
            values = {role: frame[column].to_numpy(np.float64) for role, frame in frames.items()}
        pooled = float(np.concatenate(list(values.values())).std())
        constant = tuple(
            role
            for role in ("synthetic", "reference")
            if np.ptp(values[role]) == 0 or values[role].std() < NEAR_CONSTANT * pooled
        )
        if constant:
            first = values[constant[0]][0]
            exact = all(np.ptp(values[role]) == 0 for role in constant)
            shown = categories[int(first)] if categories else _shown(float(first))
            dropped.append(DroppedColumn(column, constant, shown, exact))
            continue
        mean, scale = float(values["synthetic"].mean()), float(values["synthetic"].std())
        encodings.append(
            ColumnEncoding(column, "category" if categories else "number", categories, mean, scale)
        )
        for role, array in values.items():
            arrays[role].append((array - mean) / scale)
    if not encodings:
        raise AuditInputError(
            "no column varies in both the synthetic and the reference data "
            f"(constant: {_listed([column.name for column in dropped])}), so there is nothing to "
            "compare",
            rows=None,
            fix="check that the files hold the records you meant to audit",
        )
    stacked = {role: np.column_stack(parts) for role, parts in arrays.items()}
    explained = None
    if dims is not None:
        stacked, explained = _project(stacked, dims)
    record = Preprocessing(tuple(encodings), tuple(dropped), imputed, impute, dims, explained)
    return record, EncodedTables(
        members=stacked["members"],
        nonmembers=stacked.get("nonmembers"),
        reference=stacked["reference"],
        synthetic=stacked["synthetic"],
    )


def _project(stacked: Mapping[str, FloatArray], dims: int) -> tuple[dict[str, FloatArray], float]:
    """Project every table onto the first ``dims`` principal components of the reference."""
    from sklearn.decomposition import PCA

    reference = stacked["reference"]
    limit = min(reference.shape[1], reference.shape[0] - 1)
    if not 1 <= dims <= limit:
        raise AuditInputError(
            f"--dims {dims} is out of range: the encoded data has {reference.shape[1]} columns "
            f"and the reference {reference.shape[0]} records",
            fix=f"choose --dims between 1 and {limit}",
        )
    pca = PCA(n_components=dims, svd_solver="full").fit(reference)
    projected = {
        role: np.asarray(pca.transform(array), dtype=np.float64) for role, array in stacked.items()
    }
    return projected, float(pca.explained_variance_ratio_.sum())
