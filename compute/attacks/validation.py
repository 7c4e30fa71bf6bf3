"""Input checks shared by the attacks: tables of records and one-dimensional scores.

Every public function of the package validates its inputs here first, the way
scikit-learn's ``check_array`` does, so that a wrong shape or a NaN fails at
once with a sentence that names the argument, rather than deep inside NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


class SingularCovarianceError(ValueError):
    """A Gaussian KDE cannot be fitted: the data covariance matrix is singular.

    The message names the cause (a constant column, too few rows for the number
    of columns, or columns that are linear combinations of each other) and what
    to do about it.
    """


def column_names(data: object, columns: int) -> list[str]:
    """The names of a table's columns: a DataFrame's own, otherwise ``column 0`` …"""
    names = getattr(data, "columns", None)
    if names is not None and len(names) == columns:
        return [repr(str(name)) for name in names]
    return [f"column {index}" for index in range(columns)]


def as_records(data: npt.ArrayLike, what: str, *, min_rows: int = 1) -> FloatArray:
    """``data`` as a 2-D float64 array of records (rows) and features (columns).

    Raises
    ------
    ValueError
        If ``data`` is not two-dimensional, has fewer than ``min_rows`` rows or
        no columns, or holds a value that is not a finite number.
    """
    try:
        array = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must hold numbers only ({error})") from error
    if array.ndim != 2:
        raise ValueError(
            f"{what} must be a 2-D table (rows = records, columns = features), "
            f"got an array with {array.ndim} dimension(s); "
            "reshape a single feature with .reshape(-1, 1), a single record with .reshape(1, -1)"
        )
    rows, columns = array.shape
    if columns == 0:
        raise ValueError(f"{what} has no columns")
    if rows < min_rows:
        needed = "one row" if min_rows == 1 else f"{min_rows} rows"
        raise ValueError(f"{what} must have at least {needed}, got {rows}")
    if not np.isfinite(array).all():
        row, column = np.argwhere(~np.isfinite(array))[0]
        raise ValueError(
            f"{what} must hold finite numbers only; "
            f"row {row}, column {column} is {array[row, column]}"
        )
    return array


def same_columns(**tables: FloatArray) -> None:
    """Raise ``ValueError`` unless every table has the same number of columns."""
    widths = {name: table.shape[1] for name, table in tables.items()}
    if len(set(widths.values())) > 1:
        described = ", ".join(f"{name} has {width}" for name, width in widths.items())
        raise ValueError(f"all tables must have the same columns: {described}")


def as_scores(values: npt.ArrayLike, what: str) -> FloatArray:
    """``values`` as a non-empty 1-D float64 array of finite numbers.

    Raises
    ------
    ValueError
        If ``values`` is not one-dimensional, is empty or holds NaN or infinity.
    """
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{what} must not be empty")
    if not np.isfinite(array).all():
        raise ValueError(
            f"{what} must be finite numbers; position {int(np.argmin(np.isfinite(array)))} "
            f"is {array[~np.isfinite(array)][0]}"
        )
    return array


def as_neighbour_counts(k: int | Sequence[int], available: int, what: str) -> list[int]:
    """``k`` as a non-empty list of neighbour counts, each between 1 and ``available``."""
    counts = [k] if isinstance(k, int | np.integer) else list(k)
    if not counts:
        raise ValueError("k must be a positive integer or a non-empty sequence of them")
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 1:
            raise ValueError(f"k must be positive integers, got {count!r}")
        if count > available:
            raise ValueError(f"k={count} needs at least {count} {what}, got {available}")
    return [int(count) for count in counts]


def as_probability(value: float, what: str, *, open_interval: bool = True) -> float:
    """``value`` as a float strictly between 0 and 1 (or in [0, 1] if not ``open_interval``)."""
    number = float(value)
    inside = 0.0 < number < 1.0 if open_interval else 0.0 <= number <= 1.0
    if not inside:
        bounds = "strictly between 0 and 1" if open_interval else "between 0 and 1"
        raise ValueError(f"{what} must be {bounds}, got {value!r}")
    return number
