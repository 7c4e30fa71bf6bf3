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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from privacy_explorer.charts import ChartSpec
from privacy_explorer.errors import ComputeError, location
from privacy_explorer.lesson import Grid
from privacy_explorer.modules import LessonModule
from privacy_explorer.render import script_json
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


def chunk_script(slug: str, number: int, datasets: Mapping[str, Any]) -> str:
    """The classic script of one chunk: it files its datasets under the lesson and its number."""
    lesson = json.dumps(slug)
    return (
        "window.EXPLORER_CHUNKS=window.EXPLORER_CHUNKS||{};\n"
        f"window.EXPLORER_CHUNKS[{lesson}]=window.EXPLORER_CHUNKS[{lesson}]||{{}};\n"
        f"window.EXPLORER_CHUNKS[{lesson}][{number}]={script_json(datasets)};\n"
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
