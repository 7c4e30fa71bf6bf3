"""Lazy datasets: chart rows that stay out of a lesson's first-load page data.

A module lists in ``LAZY`` the datasets whose rows are too many to ship with the
page (a scatter of 800 points at each grid point, say). Their rows go into
chunk scripts, ``assets/data/<lesson>.<n>.js``, each a classic script that adds
its rows to ``window.EXPLORER_CHUNKS[lesson][n]``; the page data maps each such
dataset id to its chunk number (``chunks``), and the page runtime loads a chunk
with a ``<script>`` element the first time a control needs it (``fetch`` is
blocked on ``file://``, a script is not). The default point's rows are in each
chart's spec as always, so the first paint loads no chunk.

Chart rows are the same in every language, so the chunks are written once per
lesson, and the lazy datasets take the first ids of the page data (see
:func:`privacy_explorer.render.lesson_data`), so both languages agree on them.
Datasets are numbered in grid order and chunks filled in that order, so points
next to each other in the grid, which a learner visits one after another, tend
to share a chunk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from privacy_explorer.charts import ChartSpec
from privacy_explorer.errors import ComputeError, location
from privacy_explorer.lesson import Grid, Table
from privacy_explorer.modules import LessonModule
from privacy_explorer.render import script_json, table_rows
from privacy_explorer.runner import dumps

CHUNK_BYTES = 100_000
"""A chunk holds datasets until the next one would take it past this many bytes of JSON.

A dataset larger than this on its own gets a chunk of its own.
"""


@dataclass(frozen=True)
class LazyRows:
    """A lesson's lazy datasets: every distinct list of rows, and the chunk that holds it."""

    names: tuple[str, ...]
    """The datasets loaded later, sorted."""
    rows: tuple[list[dict[str, Any]], ...]
    """Each distinct list of rows once, in grid order; its position is its dataset id."""
    chunk_of: tuple[int, ...]
    """The chunk number of each entry of :attr:`rows`."""

    @property
    def chunks(self) -> list[dict[str, list[dict[str, Any]]]]:
        """Each chunk's datasets, by dataset id (as text, the page data's key)."""
        found: list[dict[str, list[dict[str, Any]]]] = [{} for _ in set(self.chunk_of)]
        for dataset, (rows, chunk) in enumerate(zip(self.rows, self.chunk_of, strict=True)):
            found[chunk][str(dataset)] = rows
        return found


def chunk_path(slug: str, number: int) -> str:
    """Where chunk ``number`` of lesson ``slug`` lives in the site."""
    return f"assets/data/{slug}.{number}.js"


def lazy_rows(
    grid: Grid, results: Mapping[str, Mapping[str, Any]], names: Iterable[str]
) -> LazyRows:
    """The rows of the datasets ``names`` at every grid point, deduplicated and cut into chunks."""
    wanted = sorted(set(names))
    rows: list[list[dict[str, Any]]] = []
    sizes: list[int] = []
    seen: set[str] = set()
    for point in grid:
        datasets = results[grid.key(point)].get("datasets", {})
        for name in wanted:
            if name not in datasets:
                continue
            text = dumps(datasets[name])
            if text not in seen:
                seen.add(text)
                rows.append(datasets[name])
                sizes.append(len(text.encode("utf-8")))
    chunk_of: list[int] = []
    chunk, filled = 0, 0
    for size in sizes:
        if filled and filled + size > CHUNK_BYTES:
            chunk, filled = chunk + 1, 0
        chunk_of.append(chunk)
        filled += size
    return LazyRows(names=tuple(wanted), rows=tuple(rows), chunk_of=tuple(chunk_of))


def chunk_script(slug: str, number: int | str, datasets: Mapping[str, Any]) -> str:
    """The classic script of one chunk: it files its datasets under the lesson and its number
    (a table chunk's name, ``ko.3``, for one of :func:`lazy_tables`)."""
    lesson = json.dumps(slug)
    return (
        "window.EXPLORER_CHUNKS=window.EXPLORER_CHUNKS||{};\n"
        f"window.EXPLORER_CHUNKS[{lesson}]=window.EXPLORER_CHUNKS[{lesson}]||{{}};\n"
        f"window.EXPLORER_CHUNKS[{lesson}][{json.dumps(number)}]={script_json(datasets)};\n"
    )


def chunk_files(slug: str, lazy: LazyRows) -> dict[str, str]:
    """Every chunk script of the lesson, by path in the site."""
    return {
        chunk_path(slug, number): chunk_script(slug, number, datasets)
        for number, datasets in enumerate(lazy.chunks)
    }


def lesson_lazy_rows(
    module: LessonModule,
    results: Mapping[str, Mapping[str, Any]],
    summary: Mapping[str, Any],
    specs: Iterable[ChartSpec],
    root: Path,
) -> LazyRows | None:
    """The module's lazy datasets that a placed chart reads (``specs``: every language's).

    ``None`` when there are none. Raises :class:`ComputeError` when ``LAZY``
    names a dataset that ``compute()`` never returns or that ``summarize`` does.
    """
    if not module.lazy:
        return None
    check_lazy(module, results, summary, root)
    read = {name for spec in specs for name in spec.datasets}
    names = [name for name in module.lazy if name in read]
    return lazy_rows(module.grid, results, names) if names else None


def check_lazy(
    module: LessonModule,
    results: Mapping[str, Mapping[str, Any]],
    summary: Mapping[str, Any],
    root: Path,
) -> None:
    """Every name in ``LAZY`` is a dataset that ``compute()`` returns, not one of ``summarize``."""
    where = location(module.path, None, root)
    returned = sorted({name for result in results.values() for name in result.get("datasets", {})})
    for name in module.lazy:
        if name in summary:
            raise ComputeError(
                f"{where}: LAZY names '{name}', which summarize() returns: a whole-grid dataset "
                "ships once with the page, so it cannot be loaded later; remove it from LAZY"
            )
        if name not in returned:
            raise ComputeError(
                f"{where}: LAZY names '{name}', which compute() returns at no grid point; "
                f"LAZY lists names of result['datasets'] (compute() returns: "
                f"{', '.join(returned) or 'none'}); fix the name or remove it"
            )


# --- lazy tables: a live table's cell texts, by blocks of grid points, per language -----------

TABLE_CHUNK_BYTES = 150_000
"""A table chunk takes grid points until its JSON would pass this many bytes."""


@dataclass(frozen=True)
class LazyTables:
    """A lesson's lazy live tables in one language, cut into chunks of consecutive grid points.

    Each chunk is ``{"texts": [...], "tables": [[[text, ...], ...], ...], "points":
    [[table, ...], ...]}``: every cell text once, each distinct table (its rows
    of text indices) once, and for each of its grid points, in grid order, the
    index of each table of :attr:`names` in that order. The page learns which
    chunk holds a point from :attr:`starts`.
    """

    lang: str
    """The language of the cell texts."""
    names: tuple[str, ...]
    """The tables loaded later, sorted."""
    starts: tuple[int, ...]
    """The grid index (position in grid order) of each chunk's first point."""
    chunks: tuple[dict[str, Any], ...]
    """Each chunk's content."""

    def page_data(self) -> dict[str, Any]:
        """What the page data says of them (``tableChunks``)."""
        return {"lang": self.lang, "names": list(self.names), "starts": list(self.starts)}


def table_chunk_name(lang: str, number: int) -> str:
    """The name a table chunk is filed under in ``window.EXPLORER_CHUNKS[lesson]``."""
    return f"{lang}.{number}"


def table_chunk_path(slug: str, lang: str, number: int) -> str:
    """Where table chunk ``number`` of lesson ``slug`` in ``lang`` lives in the site."""
    return f"assets/data/{slug}.{table_chunk_name(lang, number)}.js"


def page_chunk_paths(paths: Iterable[str], slug: str, lang: str) -> list[str]:
    """Of ``paths``, the chunk scripts a page of lesson ``slug`` in ``lang`` may load, sorted.

    Those are the chunks of chart rows (:func:`chunk_path`, one set for every language) and
    the table chunks of its own language (:func:`table_chunk_path`).
    """
    pattern = re.compile(rf"assets/data/{re.escape(slug)}\.(?:{re.escape(lang)}\.)?[0-9]+\.js")
    return sorted(path for path in paths if pattern.fullmatch(path))


class _Chunk:
    def __init__(self) -> None:
        self.texts: dict[str, int] = {}
        self.tables: dict[str, int] = {}
        self.table_cells: list[list[list[int]]] = []
        self.points: list[list[int]] = []
        self.size = 0

    def add(self, tables: list[list[list[str]]]) -> None:
        record = []
        for cells in tables:
            indexed = []
            for row in cells:
                indexed_row = []
                for text in row:
                    if text not in self.texts:
                        self.texts[text] = len(self.texts)
                        self.size += len(dumps(text).encode("utf-8")) + 1
                    indexed_row.append(self.texts[text])
                indexed.append(indexed_row)
            memo = dumps(indexed)
            if memo not in self.tables:
                self.tables[memo] = len(self.table_cells)
                self.table_cells.append(indexed)
                self.size += len(memo) + 1
            record.append(self.tables[memo])
        self.points.append(record)
        self.size += len(dumps(record)) + 1

    def content(self) -> dict[str, Any]:
        return {"texts": list(self.texts), "tables": self.table_cells, "points": self.points}


def lazy_tables(
    grid: Grid,
    tables: Mapping[str, Table],
    results: Mapping[str, Mapping[str, Any]],
    names: Iterable[str],
    lang: str,
) -> LazyTables:
    """The cells of the live ``tables`` named ``names`` at every grid point in ``lang``, in chunks.

    A chunk takes points in grid order until it passes :data:`TABLE_CHUNK_BYTES`, so
    that points next to each other (one control apart, the last ones most often)
    share a chunk.
    """
    wanted = tuple(sorted(set(names)))
    chunks: list[_Chunk] = [_Chunk()]
    starts = [0]
    for index, point in enumerate(grid):
        datasets = results[grid.key(point)]["datasets"]
        cells = [table_rows(tables[name], datasets[name], lang) for name in wanted]
        if chunks[-1].size > TABLE_CHUNK_BYTES:
            chunks.append(_Chunk())
            starts.append(index)
        chunks[-1].add(cells)
    return LazyTables(
        lang=lang,
        names=wanted,
        starts=tuple(starts),
        chunks=tuple(chunk.content() for chunk in chunks),
    )


def table_chunk_files(slug: str, tables: LazyTables) -> dict[str, str]:
    """Every table chunk script of the lesson in one language, by path in the site."""
    return {
        table_chunk_path(slug, tables.lang, number): chunk_script(
            slug, table_chunk_name(tables.lang, number), content
        )
        for number, content in enumerate(tables.chunks)
    }


def chunk_value(script: str) -> Any:
    """What a chunk script (:func:`chunk_script`) files: the JSON it assigns."""
    last = script.rstrip().splitlines()[-1]
    return json.loads(last.split("]=", 1)[1].rstrip(";"))


def with_table_chunks(
    plain: Mapping[str, Any], grid: Grid, chunks: Mapping[int, Mapping[str, Any]]
) -> dict[str, Any]:
    """Plain page data (``expand_page_data``) with the table chunks ``chunks`` (by number) filed
    as the page runtime files them: each covered point's ``t`` names its tables' cells, which
    join ``datasets`` under ``"<lang>.<n>:<i>"``."""
    lazy = plain["tableChunks"]
    datasets = dict(plain["datasets"])
    points = dict(plain["points"])
    keys = [grid.key(point) for point in grid]
    for number, chunk in chunks.items():
        name = f"{lazy['lang']}.{number}"
        for i, rows in enumerate(chunk["tables"]):
            datasets[f"{name}:{i}"] = [[chunk["texts"][text] for text in row] for row in rows]
        for offset, tables in enumerate(chunk["points"]):
            key = keys[lazy["starts"][number] + offset]
            old = points[key]
            t = {**old.get("t", {})}
            t.update({table: f"{name}:{i}" for table, i in zip(lazy["names"], tables, strict=True)})
            points[key] = {**old, "t": t}
    return {**plain, "datasets": datasets, "points": points}
