"""Lazy datasets: rows kept out of the first-load page data and split into chunk scripts.

The sample lesson gets a cloud of 300 points per grid point (see ``lazy_sample.py``);
most tests shrink the chunk size so that its ten clouds fill several chunks.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from lazy_sample import CLOUD_POINTS, add_cloud, edit

from privacy_explorer import lazy as lazy_module
from privacy_explorer.build import BuildReport, build
from privacy_explorer.errors import ExplorerError
from privacy_explorer.lazy import (
    CHUNK_BYTES,
    chunk_path,
    chunk_script,
    lazy_rows,
    page_chunk_paths,
    table_chunk_path,
)
from privacy_explorer.lesson import LANGUAGES, Column, Grid, Param, Table
from privacy_explorer.project import load_project
from privacy_explorer.runner import dumps

SLUG = "01-dice"
CHUNK = re.compile(r"assets/data/01-dice\.(\d+)\.js")
SMALL_CHUNKS = 20_000
"""Two clouds of the sample fit in a chunk this size, a third does not."""


def import_file(path: Path) -> ModuleType:
    name = "lazy_" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def page_data(script: bytes) -> dict[str, Any]:
    prefix = f'window.EXPLORER_DATA=window.EXPLORER_DATA||{{}};\nwindow.EXPLORER_DATA["{SLUG}"]='
    text = script.decode("utf-8")
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix) : -2])


def chunk_data(script: bytes, number: int) -> dict[str, list[dict[str, Any]]]:
    lines = script.decode("utf-8").split("\n")
    assert lines[:2] == [
        "window.EXPLORER_CHUNKS=window.EXPLORER_CHUNKS||{};",
        f'window.EXPLORER_CHUNKS["{SLUG}"]=window.EXPLORER_CHUNKS["{SLUG}"]||{{}};',
    ]
    prefix = f'window.EXPLORER_CHUNKS["{SLUG}"][{number}]='
    assert lines[2].startswith(prefix) and lines[2].endswith(";") and lines[3:] == [""]
    return json.loads(lines[2][len(prefix) : -1])


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy_module, "CHUNK_BYTES", SMALL_CHUNKS)


@pytest.fixture
def lazy_build(sample_project: Path, small_chunks: None) -> tuple[Path, BuildReport]:
    add_cloud(sample_project)
    return sample_project, build(load_project(sample_project), jobs=1)


# --- the split itself ------------------------------------------------------------------------


def _grid() -> Grid:
    return Grid(
        (
            Param("a", (0, 1, 2), 0, {"ko": "a", "en": "a"}),
            Param("b", (0, 1, 2, 3), 0, {"ko": "b", "en": "b"}),
        )
    )


def _results(grid: Grid, rows: int) -> dict[str, Any]:
    """Rows that repeat at b=3 (the same as at b=2), to see that each is stored once."""
    return {
        grid.key(point): {
            "readouts": {},
            "datasets": {
                "many": [
                    {"a": point["a"], "b": min(point["b"], 2), "i": i, "w": "x" * 40}
                    for i in range(rows)
                ],
                "other": [{"k": 1}],
            },
        }
        for point in grid
    }


def test_rows_are_stored_once_in_grid_order_and_chunks_stay_small() -> None:
    grid = _grid()
    results = _results(grid, 120)
    lazy = lazy_rows(grid, results, ["many"])
    assert lazy.names == ("many",)
    expected = []
    for point in grid:
        rows = results[grid.key(point)]["datasets"]["many"]
        if rows not in expected:
            expected.append(rows)
    assert list(lazy.rows) == expected and len(expected) == 9
    sizes = [len(dumps(rows).encode()) for rows in lazy.rows]
    assert sizes[0] * 2 < CHUNK_BYTES < sizes[0] * 20
    assert list(lazy.chunk_of) == sorted(lazy.chunk_of)  # neighbours share chunks
    for number, chunk in enumerate(lazy.chunks):
        ids = [int(i) for i in chunk]
        assert ids == [i for i, n in enumerate(lazy.chunk_of) if n == number]
        assert sum(sizes[i] for i in ids) <= CHUNK_BYTES
        # Full: the next dataset would not have fitted.
        if number + 1 < len(lazy.chunks):
            assert sum(sizes[i] for i in ids) + sizes[ids[-1] + 1] > CHUNK_BYTES
    assert lazy_rows(grid, results, ["many"]) == lazy  # deterministic


def test_a_dataset_larger_than_a_chunk_gets_a_chunk_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazy_module, "CHUNK_BYTES", 100)
    grid = _grid()
    lazy = lazy_rows(grid, _results(grid, 3), ["many", "other"])
    assert list(lazy.chunk_of) == list(range(len(lazy.rows)))
    assert len(lazy.rows) == 9 + 1  # every 'other' is the same one list of rows


def test_a_chunk_script_cannot_end_its_script_element() -> None:
    script = chunk_script(SLUG, 3, {"0": [{"label": "</script><script>alert(1)</script>"}]})
    assert "<" not in script and ">" not in script
    assert chunk_data(script.encode(), 3) == {
        "0": [{"label": "</script><script>alert(1)</script>"}]
    }
    assert chunk_path(SLUG, 3) == "assets/data/01-dice.3.js"


# --- the build -------------------------------------------------------------------------------


def test_chunks_are_written_once_per_lesson_and_hold_every_lazy_row_once(
    lazy_build: tuple[Path, BuildReport],
) -> None:
    project, report = lazy_build
    chunks = sorted(int(m.group(1)) for path in report.files if (m := CHUNK.fullmatch(path)))
    assert chunks == list(range(5))  # ten clouds, two to a chunk
    held: dict[str, int] = {}
    for number in chunks:
        script = report.files[chunk_path(SLUG, number)]
        assert len(script) <= SMALL_CHUNKS + 200  # the JSON, plus three lines of script
        for dataset in chunk_data(script, number):
            assert dataset not in held, f"dataset {dataset} is in chunks {held[dataset]}, {number}"
            held[dataset] = number
    assert len(held) == 10
    module = import_file(project / "compute" / "dice.py")
    by_lang = {lang: page_data(report.files[f"assets/data/{SLUG}.{lang}.js"]) for lang in LANGUAGES}
    for lang, data in by_lang.items():
        assert data["chunks"] == {dataset: number for dataset, number in held.items()}, lang
        assert not set(data["datasets"]) & set(held), "the first-load data holds lazy rows"
        assert len(report.files[f"assets/data/{SLUG}.{lang}.js"]) < 5_000
        for point in module.GRID:
            key = module.GRID.key(point)
            dataset = data["points"][key]["d"]["cloud"]
            number = data["chunks"][dataset]
            rows = chunk_data(report.files[chunk_path(SLUG, number)], number)[dataset]
            assert rows == module.compute(**point)["datasets"]["cloud"], (lang, key)
            assert len(rows) == CLOUD_POINTS
        # The chart datasets that are not lazy are still in the page data.
        faces = data["points"]["0-0"]["d"]["faces"]
        assert (
            data["datasets"][faces]
            == module.compute(threshold=2, prior="none")["datasets"]["faces"]
        )
    # Both languages name the same rows with the same ids.
    assert {k: p["d"]["cloud"] for k, p in by_lang["ko"]["points"].items()} == {
        k: p["d"]["cloud"] for k, p in by_lang["en"]["points"].items()
    }


def test_the_default_points_lazy_rows_are_in_the_chart_spec(
    lazy_build: tuple[Path, BuildReport],
) -> None:
    project, report = lazy_build
    module = import_file(project / "compute" / "dice.py")
    expected = module.compute(threshold=4, prior="none")["datasets"]["cloud"]
    for page in ("01-dice.html", "en/01-dice.html"):
        html = report.files[page].decode()
        specs = re.findall(
            r'<script type="application/json" data-chart-spec>(.*?)</script>', html, re.S
        )
        cloud = [json.loads(spec) for spec in specs if '"cloud"' in spec]
        assert len(cloud) == 1
        assert cloud[0]["datasets"] == {"cloud": expected}


def test_lazy_builds_are_byte_identical_with_and_without_workers(
    sample_project: Path, tmp_path: Path, small_chunks: None
) -> None:
    add_cloud(sample_project)
    first = build(load_project(sample_project), tmp_path / "one", jobs=2)
    second = build(load_project(sample_project), tmp_path / "two", jobs=1)
    assert first.runs[0].computed == 10 and second.runs[0].cached == 10
    assert first.files == second.files


def test_a_lesson_without_lazy_datasets_has_no_chunks(sample_project: Path) -> None:
    add_cloud(sample_project)
    edit(sample_project / "compute" / "dice.py", 'LAZY = ("cloud",)', "LAZY = ()")
    report = build(load_project(sample_project), jobs=1)
    assert not [path for path in report.files if CHUNK.fullmatch(path)]
    data = page_data(report.files[f"assets/data/{SLUG}.en.js"])
    assert "chunks" not in data
    assert len(data["datasets"]) > 10  # every cloud, in the first-load data


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'LAZY = ("cloud",)',
            'LAZY = ("clouds",)',
            "compute/dice.py: LAZY names 'clouds', which compute() returns at no grid point; "
            "LAZY lists names of result['datasets'] (compute() returns: cloud, faces); fix the "
            "name or remove it",
        ),
        (
            'LAZY = ("cloud",)',
            'LAZY = ("by_threshold",)',
            "compute/dice.py: LAZY names 'by_threshold', which summarize() returns: a whole-grid "
            "dataset ships once with the page, so it cannot be loaded later; remove it from LAZY",
        ),
        (
            'LAZY = ("cloud",)',
            'LAZY = ("cloud")',
            "compute/dice.py: LAZY must be a tuple of dataset names, e.g. LAZY = ('release',), "
            "got 'cloud'",
        ),
        (
            'LAZY = ("cloud",)',
            'LAZY = ("cloud", "cloud")',
            "compute/dice.py: LAZY must list dataset names (texts), each once, got "
            "('cloud', 'cloud')",
        ),
    ],
    ids=["not-computed", "from-summarize", "a-string", "twice"],
)
def test_lazy_names_are_checked(sample_project: Path, old: str, new: str, message: str) -> None:
    add_cloud(sample_project)
    edit(sample_project / "compute" / "dice.py", old, new)
    with pytest.raises(ExplorerError) as caught:
        build(load_project(sample_project), jobs=1)
    assert caught.value.message == message


# --- lazy tables: a live table's cells, by runs of grid points, per language -----------------


def _table_results(grid: Grid) -> dict[str, Any]:
    """Rows that repeat (b=3 as b=2) and texts that repeat across rows and points."""
    return {
        grid.key(point): {
            "readouts": {},
            "datasets": {
                "why": [
                    {"kind": {"ko": "참고", "en": "note"}, "text": f"{point['a']}-{i}" * 30}
                    for i in range(min(int(point["b"]), 2) + 1)
                ],
            },
        }
        for point in grid
    }


WHY = Table(
    "why",
    (
        Column("kind", {"ko": "구분", "en": "Kind"}),
        Column("text", {"ko": "이유", "en": "Reason"}),
    ),
    {"ko": "이유", "en": "Why"},
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lazy_tables_file_every_point_and_cut_in_grid_order(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setattr(lazy_module, "TABLE_CHUNK_BYTES", 300)
    grid = _grid()
    results = _table_results(grid)
    cut = lazy_module.lazy_tables(grid, {"why": WHY}, results, ["why"], lang)
    assert cut.names == ("why",) and cut.lang == lang
    assert cut.starts[0] == 0 and list(cut.starts) == sorted(set(cut.starts))
    assert 1 < len(cut.chunks) < len(grid)  # several points to a chunk, several chunks
    files = lazy_module.table_chunk_files(SLUG, cut)
    assert sorted(files) == [f"assets/data/{SLUG}.{lang}.{n}.js" for n in range(len(cut.chunks))]
    chunks = {
        n: lazy_module.chunk_value(files[lazy_module.table_chunk_path(SLUG, lang, n)])
        for n in range(len(cut.chunks))
    }
    assert chunks == dict(enumerate(cut.chunks))
    for chunk in chunks.values():
        assert len(chunk["texts"]) == len(set(chunk["texts"]))  # each text once
        assert len({dumps(t) for t in chunk["tables"]}) == len(chunk["tables"])  # each table once
    plain = {"tableChunks": cut.page_data(), "datasets": {}, "points": {}}
    plain["points"] = {grid.key(point): {"r": {}, "d": {}} for point in grid}
    filed = lazy_module.with_table_chunks(plain, grid, chunks)
    for point in grid:
        key = grid.key(point)
        cells = filed["datasets"][filed["points"][key]["t"]["why"]]
        assert cells == [WHY.cells(row, lang) for row in results[key]["datasets"]["why"]], key
    assert lazy_module.lazy_tables(grid, {"why": WHY}, results, ["why"], lang) == cut


def test_a_table_chunk_script_files_under_its_language_and_number() -> None:
    script = chunk_script(SLUG, "en.2", {"texts": ["</script>"], "tables": [], "points": []})
    assert f'window.EXPLORER_CHUNKS["{SLUG}"]["en.2"]=' in script
    assert "</script>" not in script
    assert lazy_module.chunk_value(script)["texts"] == ["</script>"]


def test_a_page_loads_the_chart_chunks_and_its_own_languages_table_chunks() -> None:
    paths = [
        chunk_path(SLUG, 0),
        chunk_path(SLUG, 1),
        table_chunk_path(SLUG, "ko", 0),
        table_chunk_path(SLUG, "en", 0),
        chunk_path("01-dice-two", 0),  # another lesson whose name starts the same
        f"assets/data/{SLUG}.ko.js",  # the page data, not a chunk
        f"assets/data/{SLUG}.x.js",
    ]
    assert page_chunk_paths(paths, SLUG, "ko") == sorted(
        [chunk_path(SLUG, 0), chunk_path(SLUG, 1), table_chunk_path(SLUG, "ko", 0)]
    )
    assert page_chunk_paths(reversed(paths), SLUG, "en") == sorted(
        [chunk_path(SLUG, 0), chunk_path(SLUG, 1), table_chunk_path(SLUG, "en", 0)]
    )
