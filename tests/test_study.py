"""A lesson's STUDY: experiments no control moves, computed and cached like grid points.

The sample lesson gets a tiny study in a copy of the project: the share of sixes
in ``size`` seeded rolls of a fair die, for two sizes and three seeds, averaged
over the seeds by ``summarize`` into a table that every grid point shares.
"""

from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from privacy_explorer.build import BuildReport, build
from privacy_explorer.cli import cli
from privacy_explorer.errors import ExplorerError
from privacy_explorer.modules import load_module
from privacy_explorer.project import load_project
from privacy_explorer.runner import GRID_POINTS, STUDY_POINTS, cache_key

DICE = "compute/dice.py"

STUDY_CODE = '''

STUDY = Grid(
    (
        Param("size", (6, 60), 6, {"ko": "표본 크기", "en": "Sample size"}),
        Param("seed", (0, 1, 2), 0, {"ko": "시드", "en": "Seed"}),
    ),
    group_by=("seed",),
)


def study(*, size: int, seed: int) -> dict:
    """The share of sixes in ``size`` seeded rolls (nested: any JSON-ready value will do)."""
    import random

    generator = random.Random(seed)
    sixes = sum(generator.randint(1, 6) == 6 for _ in range(size))
    return {"share": sixes / size, "detail": {"sixes": [sixes], "size": size}}


def summarize(results: dict, study: dict) -> dict:
    """The share at every threshold, and the study's share of sixes averaged over seeds."""
    by_size = []
    for size in STUDY.param("size").values:
        shares = [
            study[STUDY.key({"size": size, "seed": seed})]["share"]
            for seed in STUDY.param("seed").values
        ]
        by_size.append({"size": size, "share": sum(shares) / len(shares)})
    return {**summarize_grid(results), "by_size": by_size}


TABLES = (
    *TABLES,
    Table(
        "by_size",
        (
            Column("size", {"ko": "표본 크기", "en": "Sample size"}),
            Column("share", {"ko": "6의 비율", "en": "Share of sixes"}, format=".4f"),
        ),
        {"ko": "표본 크기마다의 6의 비율", "en": "The share of sixes at each sample size"},
    ),
)
'''


def expected_shares() -> list[tuple[int, float]]:
    """What the study's table must show, computed here without the engine."""
    rows = []
    for size in (6, 60):
        shares = []
        for seed in (0, 1, 2):
            generator = random.Random(seed)
            shares.append(sum(generator.randint(1, 6) == 6 for _ in range(size)) / size)
        rows.append((size, sum(shares) / len(shares)))
    return rows


def add_study(project: Path, code: str = STUDY_CODE) -> None:
    """Give the sample lesson the study above and place its table on both pages."""
    module = project / DICE
    source = module.read_text("utf-8").replace("def summarize(", "def summarize_grid(")
    module.write_text(source + code, "utf-8")
    for lang in ("ko", "en"):
        page = project / "content" / lang / "01-dice.md"
        page.write_text(page.read_text("utf-8") + "\n{{< table by_size >}}\n", "utf-8")


def edit(project: Path, old: str, new: str) -> None:
    module = project / DICE
    text = module.read_text("utf-8")
    assert text.count(old) == 1, old
    module.write_text(text.replace(old, new), "utf-8")


def sample_build(project: Path, jobs: int = 1) -> BuildReport:
    return build(load_project(project), jobs=jobs)


def run_build(project: Path, *options: str) -> Result:
    return CliRunner().invoke(cli, ["build", "--project", str(project), *options])


def study_files(project: Path) -> dict[str, bytes]:
    folder = project / "build" / "results" / "01-dice" / "study"
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def table_rows(html: str, name: str) -> list[list[str]]:
    match = re.search(rf'id="table-{name}".*?<tbody data-table-body>(.*?)</tbody>', html, re.S)
    assert match is not None, name
    return [
        [unescape(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", match.group(1), re.S)
    ]


# --- the study runs, feeds summarize() and is cached -----------------------------------------


def test_a_study_is_computed_in_workers_and_feeds_summarize(sample_project: Path) -> None:
    add_study(sample_project)
    result = run_build(sample_project, "-j", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Built 1 lesson(s), 7 pages (10 grid points computed, 0 from cache; "
        "6 study points computed, 0 from cache)."
    )
    html = (sample_project / "build" / "site" / "en" / "01-dice.html").read_text("utf-8")
    assert table_rows(html, "by_size") == [
        [str(size), f"{share:.4f}"] for size, share in expected_shares()
    ]
    # One cache file per seed (group_by), apart from the grid's, each naming its points.
    files = study_files(sample_project)
    assert len(files) == 3
    for content in files.values():
        entries = json.loads(content)["entries"]
        assert [entry["point"]["size"] for entry in entries] == [6, 60]
        assert len({entry["point"]["seed"] for entry in entries}) == 1
    grid_cache = sample_project / "build" / "results" / "01-dice"
    assert len(list(grid_cache.glob("*.json"))) == 10


def test_a_second_build_computes_no_study_point(sample_project: Path) -> None:
    add_study(sample_project)
    first = sample_build(sample_project, jobs=2)
    cached = study_files(sample_project)
    second = sample_build(sample_project)
    assert [(s.computed, s.cached) for s in first.studies] == [(6, 0)]
    assert [(s.computed, s.cached) for s in second.studies] == [(0, 6)]
    assert second.runs[0].computed == 0
    assert not second.studies[0].loaded  # the pages came from the page cache, unread
    assert study_files(sample_project) == cached
    assert second.files == first.files


def test_study_results_are_keyed_like_the_study_grid(sample_project: Path) -> None:
    add_study(sample_project)
    report = sample_build(sample_project)
    results = report.studies[0].results
    assert sorted(results) == ["0-0", "0-1", "0-2", "1-0", "1-1", "1-2"]
    generator = random.Random(2)
    sixes = sum(generator.randint(1, 6) == 6 for _ in range(60))
    assert results["1-2"] == {"share": sixes / 60, "detail": {"sixes": [sixes], "size": 60}}


def test_a_damaged_study_entry_is_computed_again_with_a_note(
    sample_project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    add_study(sample_project)
    first = sample_build(sample_project)
    folder = sample_project / "build" / "results" / "01-dice" / "study"
    victim = sorted(folder.iterdir())[0]
    intact = victim.read_bytes()
    victim.write_bytes(intact.replace(b'"share":', b'"share":1e999,"x":', 1))  # Infinity
    second = sample_build(sample_project)
    assert [(s.computed, s.cached) for s in second.studies] == [(2, 4)]
    assert second.studies[0].results == first.studies[0].results
    assert victim.read_bytes() == intact
    assert f"{victim}: damaged cache entry (" in caplog.text


def test_editing_the_module_recomputes_the_study_and_removing_it_clears_its_cache(
    sample_project: Path,
) -> None:
    edited = [DICE, "content/ko/01-dice.md", "content/en/01-dice.md"]
    original = {relative: (sample_project / relative).read_text("utf-8") for relative in edited}
    add_study(sample_project)
    sample_build(sample_project)
    before = set(study_files(sample_project))
    (sample_project / DICE).write_text(
        (sample_project / DICE).read_text("utf-8") + "# A comment changes the digest.\n", "utf-8"
    )
    report = sample_build(sample_project)
    assert [(s.computed, s.cached) for s in report.studies] == [(6, 0)]
    assert not set(study_files(sample_project)) & before
    # Without a STUDY, the study's cache entries are removed like any stale entry.
    for relative, text in original.items():
        (sample_project / relative).write_text(text, "utf-8")
    report = sample_build(sample_project)
    assert report.studies == []
    assert study_files(sample_project) == {}


def test_study_keys_differ_from_grid_keys_of_the_same_point(sample_project: Path) -> None:
    add_study(sample_project)
    module = load_module(sample_project / "compute", "dice", sample_project, "content/ko/x.md")
    point = {"size": 6, "seed": 0}
    grid_key = cache_key(module, point, {}, {}, GRID_POINTS)
    assert grid_key == cache_key(module, point, {}, {})
    assert cache_key(module, point, {}, {}, STUDY_POINTS) != grid_key


# --- what goes wrong in a study is named with its point --------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_error_in_study_names_the_lesson_and_the_study_point(
    sample_project: Path, jobs: str
) -> None:
    add_study(sample_project)
    edit(
        sample_project,
        "    generator = random.Random(seed)\n    sixes",
        "    if size == 60 and seed == 1:\n"
        '        raise ValueError("no dice left")\n'
        "    generator = random.Random(seed)\n    sixes",
    )
    result = run_build(sample_project, "-j", jobs)
    assert result.exit_code == 1, result.output
    assert result.output.endswith(
        "Error: compute/dice.py: lesson 01-dice, study point (size=60, seed=1): study() raised "
        "ValueError: no dice left\n"
    ), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            'return {"share": sixes / size,',
            'return {"share": float("nan") if seed == 2 else sixes / size,',
            "returned an unusable value: result.share is nan; results must be finite numbers",
        ),
        (
            "    import random\n",
            "    import random\n    import sys\n\n    if seed == 2:\n        sys.exit(0)\n",
            "called sys.exit(0); study() must return a result, or raise an exception that says "
            "what is wrong",
        ),
    ],
    ids=["nan", "sys-exit"],
)
def test_a_study_value_a_page_cannot_hold_names_the_point(
    sample_project: Path, old: str, new: str, problem: str
) -> None:
    add_study(sample_project)
    edit(sample_project, old, new)
    result = run_build(sample_project, "-j", "1")
    assert result.exit_code == 1, result.output
    assert result.output.endswith(
        f"Error: compute/dice.py: lesson 01-dice, study point (size=6, seed=2): study() {problem}\n"
    ), result.output


def test_a_worker_killed_by_study_names_the_study_point(sample_project: Path) -> None:
    add_study(sample_project)
    edit(
        sample_project,
        "    import random\n",
        "    import random\n    import os\n\n"
        "    if size == 60 and seed == 0:\n        os._exit(3)\n",
    )
    result = run_build(sample_project, "-j", "2")
    assert result.exit_code == 1, result.output
    assert result.output.endswith(
        "Error: compute/dice.py: lesson 01-dice, study point (size=60, seed=0): the worker "
        "process computing it died (exit status 3); study() must return a result or raise an "
        "exception: look for os._exit(), a crash in compiled code, or more memory than the "
        "machine has\n"
    ), result.output


# --- the contract is checked when the module loads -------------------------------------------


def contract_error(project: Path) -> str:
    with pytest.raises(ExplorerError) as caught:
        sample_build(project)
    return caught.value.message


def test_a_study_without_study_function_is_refused(sample_project: Path) -> None:
    add_study(sample_project)
    edit(sample_project, "def study(", "def experiment(")
    assert contract_error(sample_project) == (
        "compute/dice.py: STUDY is defined but study() is not; define study(**point) returning "
        "a JSON-ready value for each STUDY point"
    )


def test_a_study_needs_summarize_with_two_arguments(sample_project: Path) -> None:
    add_study(sample_project)
    edit(sample_project, "def summarize(results: dict, study: dict)", "def summarize(results)")
    assert contract_error(sample_project) == (
        "compute/dice.py: summarize() must take two arguments, summarize(results, study), "
        "because the module defines STUDY; add the 'study' parameter"
    )


def test_a_study_without_summarize_is_refused(sample_project: Path) -> None:
    add_study(sample_project)
    edit(sample_project, "def summarize(results: dict, study: dict)", "def total(results, study)")
    assert contract_error(sample_project) == (
        "compute/dice.py: STUDY is defined but summarize() is not; define "
        "summarize(results, study), which receives the study's results as 'study'"
    )


def test_summarize_with_two_arguments_needs_a_study(sample_project: Path) -> None:
    edit(sample_project, "def summarize(results: dict)", "def summarize(results: dict, study)")
    assert contract_error(sample_project) == (
        "compute/dice.py: summarize() must take one argument, summarize(results), because the "
        "module defines no STUDY; remove its other parameters or define STUDY"
    )


def test_a_study_function_without_a_study_grid_is_refused(sample_project: Path) -> None:
    (sample_project / DICE).write_text(
        (sample_project / DICE).read_text("utf-8") + "\n\ndef study(**point):\n    return 1\n",
        "utf-8",
    )
    assert contract_error(sample_project) == (
        "compute/dice.py: study() is defined but STUDY is not; add STUDY = Grid(...) with the "
        "study's parameters, or rename the function"
    )


def test_a_study_grid_is_checked_like_the_grid(sample_project: Path) -> None:
    add_study(sample_project)
    edit(
        sample_project,
        '{"ko": "시드", "en": "Seed"}),\n    ),\n    group_by=("seed",)',
        ('{"ko": "시드"}),\n    ),\n    group_by=("seeds",)'),
    )
    message = contract_error(sample_project)
    lines = message.split("\n")
    assert lines[0] == "2 problems found:"
    assert re.fullmatch(
        r"  compute/dice\.py:\d+: STUDY parameter 'seed' label must give a text for every "
        r"language \(ko, en\)",
        lines[1],
    ), lines[1]
    assert lines[2] == (
        "  compute/dice.py: STUDY group_by names 'seeds', which is not a STUDY parameter; "
        "use one of: size, seed"
    )


# --- views of the study: per-point readouts and rows that summarize() gives -------------------

VIEW_CODE = '''

READOUTS = (
    *READOUTS,
    Readout("mean_six", {"ko": "6의 평균 비율", "en": "Mean share of sixes"}, ".4f",
            from_summary=True),
    Readout("prior_word", {"ko": "평활", "en": "Smoothing"}, from_summary=True),
)

summarize_with_study = summarize


def summarize(results: dict, study: dict) -> dict:
    """The study's table, and for every grid point a view of the study."""
    summary = summarize_with_study(results, study)
    mean = sum(row["share"] for row in summary["by_size"]) / len(summary["by_size"])
    views = [{"where": {}, "readouts": {"mean_six": mean}, "datasets": {}}]
    for prior, words in (("none", ("없음", "none")), ("add_one", ("있음", "one added"))):
        views.append({
            "where": {"prior": prior},
            "readouts": {"prior_word": {"ko": words[0], "en": words[1]}},
            "datasets": {"view_rows": [{"prior": prior}]},
        })
    return {**summary, "point_views": views}
'''


def add_views(project: Path, code: str = VIEW_CODE) -> None:
    """The study above, and two readouts from its views placed on both pages."""
    add_study(project)
    (project / DICE).write_text((project / DICE).read_text("utf-8") + code, "utf-8")
    for lang in ("ko", "en"):
        page = project / "content" / lang / "01-dice.md"
        page.write_text(
            page.read_text("utf-8") + "\n{{< readout mean_six >}}, {{< readout prior_word >}}\n",
            "utf-8",
        )


def test_summarize_gives_grid_points_readouts_and_rows_from_the_study(
    sample_project: Path,
) -> None:
    add_views(sample_project)
    report = sample_build(sample_project)
    mean = sum(share for _, share in expected_shares()) / 2
    results = report.runs[0].results
    assert len(results) == 10
    for key, result in results.items():
        prior = ("none", "add_one")[int(key.split("-")[1])]
        assert result["readouts"]["mean_six"] == mean
        word = "none" if prior == "none" else "one added"
        assert result["readouts"]["prior_word"]["en"] == word
        assert result["datasets"]["view_rows"] == [{"prior": prior}]
        assert "share" in result["readouts"]  # compute()'s own readouts stay
    html = (sample_project / "build" / "site" / "en" / "01-dice.html").read_text("utf-8")
    assert f"{mean:.4f}" in html


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            '("add_one", ("있음", "one added"))):',
            "):",
            "summarize() point_views: grid point (threshold=2, prior=add_one): readouts "
            "prior_word are missing; every point needs each readout declared "
            "from_summary=True, in a form its format can show",
        ),
        (
            '"where": {}, "readouts": {"mean_six": mean}',
            '"where": {}, "readouts": {"mean_six": mean, "prior_word": "x"}',
            "summarize() point_views: readout 'prior_word' is given twice for grid point "
            "(threshold=2, prior=none); give it once",
        ),
        (
            '"where": {},',
            '"where": {"seed": 1},',
            "summarize() point_views: row 0 names seed=1, which is no value of a grid "
            "parameter; the grid has threshold, prior",
        ),
    ],
    ids=["missing", "twice", "unknown-parameter"],
)
def test_a_view_that_leaves_a_point_short_or_gives_a_name_twice_is_refused(
    sample_project: Path, old: str, new: str, problem: str
) -> None:
    add_views(sample_project, VIEW_CODE.replace(old, new))
    assert contract_error(sample_project) == f"compute/dice.py: {problem}"


def test_a_readout_from_summary_needs_views(sample_project: Path) -> None:
    add_views(sample_project, VIEW_CODE.replace(', "point_views": views}', "}"))
    assert contract_error(sample_project) == (
        "compute/dice.py: the readouts mean_six, prior_word are declared from_summary=True, but "
        "summarize() returns no 'point_views'; give them there, or let compute() return them"
    )
