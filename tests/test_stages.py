"""The build's stages (plan → compute → render → check → write) and the directive registry.

A kind registered here, in the test alone, is parsed, validated and rendered with no other
edit; the plan refuses unknown names before any grid point is computed; rendering runs no
lesson code; and the stages called one by one give the site that ``build`` writes.
"""

from __future__ import annotations

import csv
import dataclasses
import html
import re
from pathlib import Path

import pytest

from privacy_explorer import charts, directives, runner
from privacy_explorer.build import (
    STATIC_ASSETS,
    build,
    check,
    compute,
    plan,
    render,
)
from privacy_explorer.directives import Directive, DirectiveKind, PageInputs, one_name
from privacy_explorer.errors import ExplorerError
from privacy_explorer.modules import LessonModule
from privacy_explorer.project import load_project
from privacy_explorer.results import ComputeSettings
from privacy_explorer.templates import load_templates


def quiet(label: str) -> runner.Progress:
    return lambda done, total, cached: None


def render_gauge(directive: Directive, page: PageInputs) -> str:
    """A readout shown as a meter from 0 to 1: the test's own kind."""
    name = directive.names[0]
    value = page.result["readouts"][name]
    label = page.module.readouts[name].label[page.context.lang]
    return f'<meter class="gauge" min="0" max="1" value="{value!r}">{html.escape(label)}</meter>'


def readout_names(module: LessonModule) -> tuple[str, ...]:
    return tuple(module.readouts)


GAUGE = DirectiveKind(
    "gauge",
    "block",
    render_gauge,
    parse=lambda arguments, line, where: one_name(arguments, line, where, kind="gauge"),
    defined=readout_names,
    once_per_page=True,
)


@pytest.fixture
def gauge() -> object:
    """The ``gauge`` kind, registered for one test only."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(directives.KINDS, "gauge", GAUGE)
        yield GAUGE


def add_line(project: Path, lang: str, line: str) -> int:
    """Append ``line`` to the dice lesson in ``lang``; return its line number."""
    page = project / "content" / lang / "01-dice.md"
    text = page.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + line + "\n"
    page.write_text(text, encoding="utf-8")
    return text.count("\n")


def share_at_default(project: Path) -> float:
    """The share of rolls at or above 4 (the default threshold), read from the CSV itself."""
    with (project / "data" / "rolls.csv").open(encoding="utf-8") as handle:
        rolls = [int(row["roll"]) for row in csv.DictReader(handle)]
    return sum(roll >= 4 for roll in rolls) / len(rolls)


def test_a_kind_registered_in_a_test_is_parsed_validated_and_rendered(
    sample_project: Path, tmp_path: Path, gauge: object
) -> None:
    for lang in ("ko", "en"):
        add_line(sample_project, lang, "{{< gauge share >}}")
    report = build(load_project(sample_project), tmp_path / "site")
    expected = share_at_default(sample_project)
    assert 0 < expected < 1
    for page, label in (("01-dice.html", "비율"), ("en/01-dice.html", "Share")):
        meters = re.findall(
            r'<meter class="gauge" min="0" max="1" value="([^"]+)">([^<]+)</meter>',
            report.files[page].decode(),
        )
        assert len(meters) == 1
        assert float(meters[0][0]) == pytest.approx(expected, abs=1e-12)
        assert meters[0][1] == label


def test_a_registered_kind_names_what_the_module_defines(
    sample_project: Path, tmp_path: Path, gauge: object
) -> None:
    line = add_line(sample_project, "en", "{{< gauge mean >}}")
    add_line(sample_project, "ko", "{{< gauge share >}}")
    with pytest.raises(ExplorerError) as raised:
        build(load_project(sample_project), tmp_path / "site")
    assert raised.value.message == (
        f"content/en/01-dice.md:{line}: unknown gauge 'mean'; dice defines: share, rolls"
    )


def test_a_registered_kind_follows_its_placement_and_is_listed(
    sample_project: Path, tmp_path: Path, gauge: object
) -> None:
    line = add_line(sample_project, "en", "The share {{< gauge share >}} in a sentence.")
    with pytest.raises(ExplorerError) as raised:
        plan(load_project(sample_project))
    assert raised.value.message == (
        f"content/en/01-dice.md:{line}: '{{{{< gauge ... >}}}}' must stand on a line of its own"
    )
    project = load_project(sample_project)
    page = sample_project / "content" / "en" / "01-dice.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("{{< gauge share >}}", "{{< dial share >}}"),
        encoding="utf-8",
    )
    with pytest.raises(ExplorerError) as raised:
        plan(project)
    assert raised.value.message == (
        f"content/en/01-dice.md:{line}: unknown directive 'dial'; use one of: "
        "controls, chart, table, changes, showme, gauge, readout"
    )


def test_without_the_registration_the_kind_is_unknown(sample_project: Path) -> None:
    line = add_line(sample_project, "ko", "{{< gauge share >}}")
    with pytest.raises(ExplorerError) as raised:
        plan(load_project(sample_project))
    assert raised.value.message == (
        f"content/ko/01-dice.md:{line}: unknown directive 'gauge'; use one of: "
        "controls, chart, table, changes, showme, readout"
    )


@pytest.mark.parametrize(
    ("kind", "name", "noun", "known"),
    [
        ("chart", "bars", "chart", "faces"),
        ("table", "counts", "table", "faces, by_threshold"),
        ("readout", "mean", "readout", "share, rolls"),
        ("controls", "sides", "control", "threshold, prior"),
    ],
)
def test_the_plan_refuses_unknown_names_before_any_work(
    sample_project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    name: str,
    noun: str,
    known: str,
) -> None:
    line = add_line(sample_project, "ko", f"{{{{< {kind} {name} >}}}}")

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("computed or rendered before the plan was valid")

    monkeypatch.setattr("privacy_explorer.results.run_grid", no_work)
    monkeypatch.setattr(charts, "chart_spec", no_work)
    project = load_project(sample_project)
    with pytest.raises(ExplorerError) as raised:
        build(project, tmp_path / "site")
    assert raised.value.message == (
        f"content/ko/01-dice.md:{line}: unknown {noun} '{name}'; dice defines: {known}"
    )
    assert not (project.build_dir / "results").exists()


def test_the_stages_one_by_one_give_the_built_site_and_rendering_runs_no_lesson_code(
    sample_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = build(load_project(sample_project), tmp_path / "site").files
    # A project of its own: an empty page cache, so every lesson is computed and rendered.
    project = load_project(sample_project, build_dir=tmp_path / "fresh-build")
    planned = plan(project)
    results = compute(planned, ComputeSettings(), quiet)
    (dice,) = results
    module = dice.planned.module
    assert module is not None and dice.run is not None and dice.cached_files is None
    assert set(dice.run.results) == {module.grid.key(point) for point in module.grid}
    assert dice.default is dice.run.results[module.grid.key(module.grid.default)]
    assert dice.default["readouts"]["share"] == pytest.approx(share_at_default(sample_project))
    assert [row["threshold"] for row in dice.summary["by_threshold"]] == [2, 3, 4, 5, 6]
    assert {lang: sorted(specs) for lang, specs in dice.charts.items()} == {
        "ko": ["faces"],
        "en": ["faces"],
    }

    def no_lesson_code(*args: object, **kwargs: object) -> None:
        raise AssertionError("rendering ran lesson code")

    # The same lesson, but any of its code that runs now fails the test.
    silenced = dataclasses.replace(
        module,
        compute=no_lesson_code,
        summarize=no_lesson_code,
        charts={
            name: dataclasses.replace(chart, build=no_lesson_code)
            for name, chart in module.charts.items()
        },
    )
    lesson = dataclasses.replace(dice.planned, module=silenced)
    planned = dataclasses.replace(planned, lessons=(lesson,))
    results = (dataclasses.replace(dice, planned=lesson),)
    monkeypatch.setattr("privacy_explorer.results.run_grid", no_lesson_code)
    monkeypatch.setattr(charts, "chart_spec", no_lesson_code)
    files = render(planned, results, load_templates(project, STATIC_ASSETS))
    check(files, planned)
    assert files == built


def test_a_lesson_from_the_page_cache_is_neither_computed_nor_rendered(
    sample_project: Path, tmp_path: Path
) -> None:
    project = load_project(sample_project)
    first = build(project, tmp_path / "site")
    planned = plan(project)
    (dice,) = compute(planned, ComputeSettings(), quiet)
    assert dice.cached_files is not None
    assert dice.run is not None and not dice.run.loaded and dice.run.computed == 0
    assert render(planned, (dice,), load_templates(project, STATIC_ASSETS)) == first.files
