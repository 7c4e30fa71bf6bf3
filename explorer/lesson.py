"""The lesson module contract: what a module in ``compute/`` declares.

A lesson module is an ordinary Python module that defines four names::

    GRID: Grid                      # the parameters a learner moves, with their values
    def compute(**point) -> dict    # one grid point -> a JSON-ready result
    CHARTS: tuple[Chart, ...]       # Vega-Altair charts over the result's named datasets
    READOUTS: tuple[Readout, ...]   # numbers or strings of the current grid point

Optionally it defines ``TABLES: tuple[Table, ...]``, datasets shown as HTML
tables (see :class:`Table`) for results that are words rather than a chart,
and, when it reads files from ``data/``, ``DATA_FILES: tuple[str, ...]`` with
their names, so that the build verifies their checksums first and keys the result
cache on them.

``compute(**point)`` returns ``{"readouts": {...}, "datasets": {...}}``:

* ``readouts`` maps each readout name to a number, a string, or a mapping
  ``{"ko": ..., "en": ...}`` when the text differs by language;
* ``datasets`` maps each dataset name to a list of flat row objects (a table's
  cells may also be ``{"ko": ..., "en": ...}`` or a list of texts).

Every value must be JSON-ready, with no NaN or Infinity. Seeds are grid
parameters or module constants, never global random state.

A chart's spec names its data with ``alt.Data(name=...)``. When a chart declares
a Vega-Lite parameter named like a grid parameter (``alt.param(name="epsilon")``),
the page keeps it equal to the current value, so a chart over the whole grid can
highlight the current point. A chart's marks may also act as a control: a Vega-Lite
point selection named ``<param>_by_mark`` (:data:`MARK_CONTROL_SUFFIX`) over one field sets
grid parameter ``param`` to the grid value nearest the picked mark's field, as moving the
parameter's control would (``compute.lessons.style.mark_control`` makes one). A module may
also define
``summarize(results: Mapping[str, dict]) -> dict[str, list[dict]]``: datasets
computed once from every grid point's result (keyed by :meth:`Grid.key`), shared
by all points.

A study: experiments that no control moves
-------------------------------------------

Some whole-lesson results do not depend on the page's controls at all (say, an
attack run on 16 generator settings × 3 seeds, summarized in one table). Such a
module defines a second grid and its own function::

    STUDY: Grid                      # the experiments; never shown as controls
    def study(**point) -> Any        # one study point -> a JSON-ready value
    def summarize(results, study) -> dict[str, list[dict]]

``STUDY`` is an ordinary :class:`Grid` of :class:`Param` objects with labels (the
labels name the point in messages); its ``group_by`` works as for ``GRID``.
``study(**point)`` may return any JSON-ready value: numbers, texts, lists and
dicts nested as deep as needed, finite numbers only (no NaN or Infinity). The
build computes every study point like a grid point, in the worker processes
with the lesson's time limit, and caches it under its own key in
``build/results/<lesson>/study/``, so an unchanged study is never computed
again. Then it calls ``summarize(results, study)``, where ``study`` maps
``STUDY.key(point)`` to that point's value. A module with ``STUDY`` must define
``study`` and a ``summarize`` that takes both arguments; a module without it
keeps ``summarize(results)``. The build checks this when it loads the module.

Lazy datasets
-------------

``LAZY: tuple[str, ...]`` names datasets of ``result["datasets"]`` whose rows
stay out of the page data that loads with the page: the page loads them, a few
grid points at a time, when a control first needs them (see
:mod:`privacy_explorer.lazy`). Use it when the rows of every point together
would make the page slow to open. Each name must be a dataset that ``compute``
returns, not one of ``summarize``.

The module imports nothing from ``explorer`` except this file and
:mod:`privacy_explorer.provenance` (checksums of data files), both plain Python, so its
library functions stay reusable on their own.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

LANGUAGES: tuple[str, ...] = ("ko", "en")
"""Every page string exists in these languages; the first is the site's default."""

SELECT_ABOVE = 6
"""A non-numeric parameter with more values than this gets a drop-down list, not radios."""

Scalar = str | int | float | bool
Text = Mapping[str, str]
"""A page string in every language, e.g. ``{"ko": "질의", "en": "Query"}``."""


MARK_CONTROL_SUFFIX = "_by_mark"
"""A chart's point selection named ``<param>`` + this suffix makes the marks it picks a control
of grid parameter ``param``: the page sets ``param`` to the grid value nearest the picked mark's
one selected field, through the parameter's ordinary control (which must be on the page)."""


CHART_DIGITS = 6
"""Significant digits that chart rows keep (see :func:`chart_number`)."""


def chart_number(value: float, digits: int = CHART_DIGITS) -> float:
    """``value`` rounded to ``digits`` significant digits for a chart row, with −0 as 0.

    A chart needs no more precision than the eye sees; rounding keeps page data
    small and free of last-bit noise. Readouts keep full precision (their format
    rounds them for display).

    >>> chart_number(0.1 + 0.2), chart_number(-1e-20 * 0), chart_number(123456789.0)
    (0.3, 0.0, 123457000.0)
    """
    return float(f"{value:.{digits}g}") + 0.0


def canonical_text(value: Scalar) -> str:
    """The value as it appears in the URL hash and the page data: stable and short.

    >>> canonical_text(0.5), canonical_text(2.0), canonical_text(20), canonical_text("count")
    ('0.5', '2', '20', 'count')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Param:
    """One parameter a learner moves: a control on the page."""

    name: str
    """Identifier used in the URL hash, in Vega-Lite params and as ``compute``'s keyword."""
    values: tuple[Scalar, ...]
    """The grid values, in the order the control shows them."""
    default: Scalar
    """The value shown when the page opens (and in the static SVG fallbacks)."""
    label: Text
    """The control's label in every language."""
    value_labels: Mapping[str, tuple[str, ...]] | None = None
    """Optional display text per language for each value (e.g. query names)."""
    widget: Literal["auto", "slider", "choice", "select"] = "auto"
    """``slider`` for ordered numbers, ``choice`` for radio buttons, ``select`` for a
    drop-down list; ``auto`` picks (see :attr:`resolved_widget`)."""

    @property
    def value_texts(self) -> tuple[str, ...]:
        """The canonical text of each value (see :func:`canonical_text`)."""
        return tuple(canonical_text(v) for v in self.values)

    def index_of(self, value: Scalar) -> int:
        """Position of ``value`` in :attr:`values` (``ValueError`` if absent)."""
        try:
            return self._positions[(type(value) is bool, value)]
        except (KeyError, TypeError):
            return self.values.index(value)

    @functools.cached_property
    def _positions(self) -> dict[tuple[bool, Scalar], int]:
        # Keyed with the bool flag so that True and 1 stay apart; first occurrence wins.
        positions: dict[tuple[bool, Scalar], int] = {}
        for i, v in enumerate(self.values):
            positions.setdefault((type(v) is bool, v), i)
        return positions

    @property
    def default_index(self) -> int:
        """Position of :attr:`default` in :attr:`values`."""
        return self.index_of(self.default)

    @property
    def resolved_widget(self) -> Literal["slider", "choice", "select"]:
        """The widget actually drawn.

        Numbers with more than four values get a slider; other parameters with more
        than :data:`SELECT_ABOVE` values a drop-down list; the rest radio buttons.
        """
        if self.widget != "auto":
            return self.widget
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.values)
        if numeric and len(self.values) > 4:
            return "slider"
        return "select" if len(self.values) > SELECT_ABOVE else "choice"

    def display(self, index: int, lang: str) -> str:
        """The text shown for the value at ``index`` in language ``lang``."""
        if self.value_labels is not None:
            return self.value_labels[lang][index]
        return self.value_texts[index]


@dataclass(frozen=True)
class Grid:
    """The parameter grid of a lesson: the cartesian product of its params.

    Iteration order is deterministic: the last parameter varies fastest, like
    scikit-learn's ``ParameterGrid`` with a fixed key order.
    """

    params: tuple[Param, ...]
    """The parameters, in the order their controls appear."""
    group_by: tuple[str, ...] = ()
    """Parameters whose points share expensive work (e.g. ``("seed",)`` when one training
    run per seed serves every epoch). Points with equal values of these parameters are
    computed one after another in the same worker, so a module can memoize that work
    (``functools.lru_cache``) and do it once per group rather than once per worker."""

    def __len__(self) -> int:
        return math.prod(len(p.values) for p in self.params)

    def __iter__(self) -> Iterator[dict[str, Scalar]]:
        names = [p.name for p in self.params]
        for combo in itertools.product(*(p.values for p in self.params)):
            yield dict(zip(names, combo, strict=True))

    @property
    def names(self) -> tuple[str, ...]:
        """The parameter names, in order."""
        return tuple(p.name for p in self.params)

    @property
    def default(self) -> dict[str, Scalar]:
        """The grid point shown when a page opens."""
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> Param:
        """The parameter called ``name`` (``KeyError`` if there is none)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def key(self, point: Mapping[str, Scalar]) -> str:
        """The point's key in the page data: value indices joined by ``-`` (e.g. ``0-4-2``)."""
        return "-".join(str(p.index_of(point[p.name])) for p in self.params)


@dataclass(frozen=True)
class Readout:
    """A live number or string of the current grid point, placed in the prose."""

    name: str
    """Key in the result's ``readouts`` and in ``{{< readout NAME >}}``."""
    label: Text
    """What the value is, in every language (used as the readout's accessible name)."""
    format: str = ""
    """Python format spec applied to numbers at build time, e.g. ``".3f"`` or ``",d"``."""
    unit: Text | None = None
    """Unit after the value, in every language (``MPa``, ``회``): after a space, except a
    Korean counter of one or two Hangul syllables, which is written on (``37개``)."""
    announce: bool = False
    """Whether the page's one polite live region names its new value when a control moves
    (the page's main answer, e.g. a verdict); other readouts are only counted there."""
    unit_one: Text | None = None
    """The unit when the value is exactly 1, in every language (``{"en": "epoch", ...}``),
    for languages that inflect it; ``None``: :attr:`unit` always."""

    def text(self, value: Any, lang: str) -> str:
        """The readout as shown on the page in ``lang``."""
        if isinstance(value, Mapping):
            value = value[lang]
        if isinstance(value, bool):
            raise TypeError(f"readout {self.name!r} is a bool; give a number or a string")
        body = format(value, self.format) if isinstance(value, int | float) else str(value)
        if isinstance(value, float) and body.startswith("-") and float(body) == 0:
            body = body[1:]  # "-0.00" reads as a different number to a learner
        body = body.replace("-", "−") if isinstance(value, int | float) else body
        if not self.unit:
            return body
        unit = self.unit_one[lang] if self.unit_one and value == 1 else self.unit[lang]
        return f"{body}{'' if is_korean_counter(unit) else ' '}{unit}"


def is_korean_counter(unit: str) -> bool:
    """Whether ``unit`` is a Korean counter written on to its number (개, 번, 자리, …).

    >>> is_korean_counter("개"), is_korean_counter("자리"), is_korean_counter("에포크")
    (True, True, False)
    """
    return 1 <= len(unit) <= 2 and all("가" <= char <= "힣" for char in unit)


@dataclass(frozen=True)
class Chart:
    """A Vega-Altair chart drawn from the result's named datasets."""

    name: str
    """Used in ``{{< chart NAME >}}`` and in asset file names."""
    build: Callable[[str], Any]
    """``build(lang)`` returns an Altair chart whose titles are in ``lang``."""
    description: Text
    """A sentence describing what the chart shows, read by screen readers and shown as caption."""


@dataclass(frozen=True)
class Column:
    """One column of a :class:`Table`."""

    field: str
    """Key of the rows' cell in this column."""
    label: Text
    """The column heading in every language."""
    format: str = ""
    """Python format spec applied to numbers at build time, e.g. ``".2f"``."""

    def text(self, value: Any, lang: str) -> str:
        """The cell as shown on the page in ``lang``: a text, a number, or per-language text.

        ``None`` shows as an empty cell; a list of texts is joined with commas.
        """
        if isinstance(value, Mapping):
            value = value[lang]
        if value is None:
            return ""
        if isinstance(value, bool):
            raise TypeError(f"column {self.field!r} holds a bool; give a number or a text")
        if isinstance(value, list | tuple):
            return ", ".join(self.text(item, lang) for item in value)
        if isinstance(value, int | float):
            return format(value, self.format).replace("-", "−")
        return str(value)


@dataclass(frozen=True)
class Table:
    """Rows of a dataset shown as an accessible HTML table, placed with ``{{< table NAME >}}``.

    The rows come from the dataset of the same name: the current grid point's
    ``result["datasets"][name]`` (the page swaps the rows when a control moves) or,
    when ``summarize`` returns it, the whole-grid dataset (the same on every point).
    The default point's rows are in the HTML, so the table reads without JavaScript.
    """

    name: str
    """The dataset it shows; also used in ``{{< table NAME >}}``."""
    columns: tuple[Column, ...]
    """The columns, in order."""
    caption: Text
    """A short caption naming what the table shows, in every language."""
    row_headers: bool = False
    """Whether the first column names each row (``<th scope="row">``)."""
    empty: Text | None = None
    """Shown in a single row when there are no rows (e.g. "none"); default: an empty body."""

    def cells(self, row: Mapping[str, Any], lang: str) -> list[str]:
        """One row's cell texts in ``lang``, in column order."""
        return [column.text(row.get(column.field), lang) for column in self.columns]
