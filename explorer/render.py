"""What the rendering of pages is made of: the Jinja environment, page data, page context.

Everything here returns text; nothing touches the disk. The build's render stage
(:mod:`privacy_explorer.site`) puts pages together from these pieces and the
directive kinds' renderers (:mod:`privacy_explorer.directives`); the build
collects the files in memory and writes them all at once (see
:mod:`privacy_explorer.build`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import numpy as np

from privacy_explorer.charts import ChartSpec
from privacy_explorer.lesson import Grid, Table
from privacy_explorer.modules import LessonModule
from privacy_explorer.runner import dumps

if TYPE_CHECKING:
    from privacy_explorer.lazy import LazyRows


def make_environment(templates_dir: Path) -> jinja2.Environment:
    """Jinja with autoescaping and ``StrictUndefined``: a missing variable is an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)
"""Characters that JSON may hold raw but a ``<script>`` element or a JS parser may not."""


def script_json(value: Any) -> str:
    """JSON that is safe as the text of a ``<script>`` element and as JavaScript.

    With no ``<`` at all, data holding ``</script>``, ``<!--`` or ``<script`` cannot
    end or re-open the element and cut the page short; ``&`` and ``>`` follow for
    the same reason, and U+2028/U+2029 for JavaScript parsers older than ES2019.
    The characters only occur inside JSON strings, where ``\\uXXXX`` means the same.
    """
    return dumps(value).translate(SCRIPT_ESCAPES)


COMPACT_POINTS_ABOVE = 500
"""Grids with more points than this get the compact page data (see :func:`lesson_data`)."""


def table_rows(table: Table, rows: list[dict[str, Any]], lang: str) -> list[list[str]]:
    """A table's rows as the cell texts shown in ``lang``."""
    return [table.cells(row, lang) for row in rows]


def live_tables(module: LessonModule, placed: set[str], summary: Mapping[str, Any]) -> list[str]:
    """Placed tables whose rows follow the grid point (a whole-grid dataset never changes)."""
    return sorted(name for name in placed if name in module.tables and name not in summary)


class StoredTexts:
    """The canonical JSON text (:func:`dumps`) of each value asked for, made once per object.

    The page data of every language looks up the same result rows by their text; this
    writes each list of rows out once instead of once per language. An object is known
    by its identity and kept alive here, so that no other object can take its identity
    while this lives.
    """

    def __init__(self) -> None:
        self._texts: dict[int, tuple[Any, str]] = {}

    def __call__(self, value: Any) -> str:
        known = self._texts.get(id(value))
        if known is None:
            known = self._texts[id(value)] = (value, dumps(value))
        return known[1]


class _Interned:
    """Each distinct value stored once, by content; refer to it by its position."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._ids: dict[str, int] = {}

    def id(self, value: Any, texts: Callable[[Any], str] = dumps) -> int:
        """The position of ``value``'s content, which ``texts`` writes out as text."""
        text = value if isinstance(value, str) else texts(value)
        if text not in self._ids:
            self._ids[text] = len(self.values)
            self.values.append(value)
        return self._ids[text]


def lesson_data(
    module: LessonModule,
    results: Mapping[str, dict[str, Any]],
    specs: Mapping[str, ChartSpec],
    lang: str,
    tables: tuple[str, ...] = (),
    lazy: LazyRows | None = None,
    stored: StoredTexts | None = None,
) -> dict[str, Any]:
    """What a lesson page needs at run time, in ``lang``.

    ``params`` (values and their canonical texts), ``points`` (per grid key: the
    readout texts ``r``, per dataset name the id of its rows ``d`` and, when the
    page has live ``tables``, per table the id of its cell texts ``t``),
    ``datasets`` (each distinct list of rows or cell texts stored once) and
    ``charts`` (which datasets and grid-parameter signals each placed chart uses, and
    ``marks``, each parameter its marks set with the field that gives the value, if any).

    A grid of more than :data:`COMPACT_POINTS_ABOVE` points is stored compactly
    (see :func:`compact_points`); the page runtime expands it on load, so scripts
    in the page see the same ``points`` either way (:func:`expand_page_data` does
    the same in Python).

    With ``lazy`` datasets (see :mod:`privacy_explorer.lazy`), their rows take the
    first ids, in the order of ``lazy.rows``, and stay out of ``datasets``;
    ``chunks`` maps each of those ids to the chunk script that holds its rows.

    ``stored`` remembers the text of each list of result rows for the next language's call
    (pass the same one for every language of a lesson).
    """
    grid: Grid = module.grid
    used = sorted({name for spec in specs.values() for name in spec.datasets})
    compact = len(grid) > COMPACT_POINTS_ABOVE
    rows_text = stored or dumps
    datasets = _Interned()
    for rows in lazy.rows if lazy else ():
        datasets.id(rows, rows_text)  # first, so that every language gives them the same ids
    texts = _Interned()
    table_ids: dict[tuple[str, str], str] = {}
    points: dict[str, Any] = {}
    for point in grid:
        key = grid.key(point)
        result = results[key]
        rows_by_name = result.get("datasets", {})
        refs = {
            name: str(datasets.id(rows_by_name[name], rows_text))
            for name in used
            if name in rows_by_name
        }
        readouts = {
            name: readout.text(result["readouts"][name], lang)
            for name, readout in module.readouts.items()
        }
        record: dict[str, Any] = {"r": readouts, "d": refs}
        if tables:
            record["t"] = {}
            for name in tables:
                rows = rows_by_name[name]
                memo = (name, repr(rows))  # many points share rows: localise them once
                if memo not in table_ids:
                    cells: list[list[str]] | list[list[int]]
                    cells = table_rows(module.tables[name], rows, lang)
                    if compact:  # cell texts repeat across rows and points: store each once
                        cells = [[texts.id(cell) for cell in row] for row in cells]
                    table_ids[memo] = str(datasets.id(cells))
                record["t"][name] = table_ids[memo]
        points[key] = record
    params = [
        {
            "name": p.name,
            "values": list(p.values),
            "texts": list(p.value_texts),
            "default": p.default_index,
        }
        for p in grid.params
    ]
    charts: dict[str, dict[str, Any]] = {
        name: {"datasets": list(spec.datasets), "signals": list(spec.signals)}
        for name, spec in specs.items()
    }
    for name, spec in specs.items():
        if spec.marks:  # parameter -> the field of the mark that sets it (explorer.js, bindMarks)
            charts[name]["marks"] = dict(spec.marks)
    loaded_later = _loaded_later(points, lazy)
    data: dict[str, Any] = {
        "params": params,
        "points": points,
        "datasets": {
            str(i): rows for i, rows in enumerate(datasets.values) if str(i) not in loaded_later
        },
        "charts": charts,
    }
    if lazy:
        data["chunks"] = {str(i): chunk for i, chunk in enumerate(lazy.chunk_of)}
    if compact:
        del data["points"]  # the groups hold them
        data.update(
            compact_points(
                grid,
                points,
                module_readouts=tuple(module.readouts),
                used=tuple(used),
                tables=tables,
                texts=texts,
            )
        )
    return data


def _loaded_later(points: Mapping[str, dict[str, Any]], lazy: LazyRows | None) -> set[str]:
    """The ids of lazy rows that nothing else on the page reads (it may, if rows are equal)."""
    if not lazy:
        return set()
    read_at_once = {
        dataset
        for record in points.values()
        for kind in ("d", "t")
        for name, dataset in record.get(kind, {}).items()
        if kind == "t" or name not in lazy.names
    }
    return {str(i) for i in range(len(lazy.rows))} - read_at_once


def compact_points(
    grid: Grid,
    points: Mapping[str, dict[str, Any]],
    *,
    module_readouts: tuple[str, ...],
    used: tuple[str, ...],
    tables: tuple[str, ...],
    texts: _Interned,
) -> dict[str, Any]:
    """The compact form of ``points`` for a large grid.

    ``layout`` names the fields of a flat point record (readouts ``r``, chart
    datasets ``d``, tables ``t``), each field a number: a readout's index in
    ``texts``, a dataset id, ``-1`` for a dataset a point lacks (live tables'
    cells are already indices in ``texts``). Most fields follow only some of the
    parameters (a readout of the trained model does not move with a decision
    threshold), so the fields are stored in ``groups``, one per set of parameters
    that a field follows: ``by`` lists those parameters' positions, ``fields`` the
    group's positions in the flat record, ``variants`` each distinct record of the
    group once, and ``points`` the variant of every combination of the ``by``
    parameters' values, in grid order (a group that follows nothing has one).
    """
    sizes = [len(p.values) for p in grid.params]
    flats = []
    for point in grid:
        record = points[grid.key(point)]
        flat = [texts.id(record["r"][name]) for name in module_readouts]
        flat += [int(record["d"].get(name, -1)) for name in used]
        flat += [int(record["t"][name]) for name in tables]
        flats.append(flat)
    columns = np.array(flats, dtype=np.int64).T.reshape(-1, *sizes)
    groups: dict[tuple[int, ...], list[int]] = {}
    for field, column in enumerate(columns):
        # A field follows a parameter when moving that one parameter changes it somewhere; on a
        # full product grid it is then a function of the parameters it follows.
        follows = tuple(
            axis
            for axis in range(len(sizes))
            if bool(np.any(column != column.take([0], axis=axis)))
        )
        groups.setdefault(follows, []).append(field)
    stored = []
    for follows, fields in sorted(groups.items(), key=lambda item: item[1][0]):
        # The values at every combination of the followed parameters, the others at index 0.
        corner = tuple(slice(None) if axis in follows else 0 for axis in range(len(sizes)))
        records = np.stack([columns[field][corner].reshape(-1) for field in fields], axis=1)
        variants = _Interned()
        order = [variants.id([int(value) for value in record]) for record in records]
        stored.append(
            {"by": list(follows), "fields": fields, "variants": variants.values, "points": order}
        )
    return {
        "layout": {"r": list(module_readouts), "d": list(used), "t": list(tables)},
        "texts": texts.values,
        "groups": stored,
    }


def expand_page_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """Compact page data back in the plain form (what the page runtime does on load)."""
    if "groups" not in data:
        return dict(data)
    layout, texts = data["layout"], data["texts"]
    datasets = dict(data["datasets"])
    sizes = [len(p["values"]) for p in data["params"]]
    width = len(layout["r"]) + len(layout["d"]) + len(layout["t"])
    combos = list(itertools.product(*map(range, sizes)))
    flats = [[0] * width for _ in combos]
    for group in data["groups"]:
        for flat, combo in zip(flats, combos, strict=True):
            place = 0
            for axis in group["by"]:
                place = place * sizes[axis] + combo[axis]
            variant = group["variants"][group["points"][place]]
            for field, value in zip(group["fields"], variant, strict=True):
                flat[field] = value
    points = {}
    table_ids: set[str] = set()
    for flat, combo in zip(flats, combos, strict=True):
        values = iter(flat)
        record: dict[str, Any] = {"r": {name: texts[next(values)] for name in layout["r"]}, "d": {}}
        for name in layout["d"]:
            if (dataset := next(values)) >= 0:
                record["d"][name] = str(dataset)
        if layout["t"]:
            record["t"] = {name: str(next(values)) for name in layout["t"]}
            table_ids.update(record["t"].values())
        points["-".join(map(str, combo))] = record
    for table in table_ids:
        datasets[table] = [[texts[cell] for cell in row] for row in datasets[table]]
    plain = {k: v for k, v in data.items() if k not in ("layout", "texts", "groups")}
    return {**plain, "points": points, "datasets": datasets}


def data_script(slug: str, data: Mapping[str, Any]) -> str:
    """The classic script that hands a lesson's data to the page (works from file://)."""
    return (
        "window.EXPLORER_DATA=window.EXPLORER_DATA||{};\n"
        f"window.EXPLORER_DATA[{json.dumps(slug)}]={script_json(data)};\n"
    )


def default_rows(
    spec: ChartSpec, result: Mapping[str, Any], summary: Mapping[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """The rows a chart shows at the default grid point (whole-grid datasets included)."""
    rows = dict(result.get("datasets", {}))
    rows.update(summary)
    return {name: rows[name] for name in spec.datasets}


@dataclass(frozen=True)
class PageContext:
    """Where a page sits in the site and what surrounds it."""

    lang: str
    """The page's language."""
    root: str
    """Relative path from the page to the site root (``""`` or ``"../"``)."""
    other_lang: str
    """The other language's code."""
    other_lang_href: str
    """Relative link to the same page in the other language."""
    strings: Mapping[str, str]
    """Template strings in the page's language."""
    site_title: str
    """The site title in the page's language."""
    site_description: str
    """The site description in the page's language."""
    page_url: str | None = None
    """The page's public address when the site has a base URL (canonical link, Open Graph)."""
    other_lang_url: str | None = None
    """The public address of the same page in the other language, with a base URL."""

    def variables(self) -> dict[str, Any]:
        """The variables every template receives."""
        return {
            "lang": self.lang,
            "root": self.root,
            "other_lang": self.other_lang,
            "other_lang_href": self.other_lang_href,
            "t": self.strings,
            "site_title": self.site_title,
            "site_description": self.site_description,
            "page_url": self.page_url,
            "other_lang_url": self.other_lang_url,
        }
