"""Lesson 04: the page shows the rule table, worked examples and every verdict the checker gives.

The checker itself is tested in ``test_licensing.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import license_golden
import pytest
from markupsafe import escape

from privacy_explorer.build import BuildReport
from privacy_explorer.compute import licensing
from privacy_explorer.compute.lessons import licenses as lesson
from privacy_explorer.compute.licensing import CONDITIONS, LICENSES, RULES, Verdict, evaluate
from privacy_explorer.lazy import chunk_value, table_chunk_path, with_table_chunks
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.render import COMPACT_POINTS_ABOVE, expand_page_data

REPO = Path(__file__).resolve().parent.parent
SLUG = "04-licenses"

VERDICT_MAPS = pytest.mark.xdist_group("licence-verdicts")
"""The tests of the verdict map share its module fixture and evaluate() at every grid point
(:func:`license_golden.verdicts`, once a process) with ``test_licensing.py``'s tests of the
whole grid: one pytest-xdist worker runs them all, computing each once."""
PAGE_DATA = pytest.mark.xdist_group("licence-page-data")
"""Both languages' page data are compared with evaluate() at every grid point on one worker
(the verdicts computed once); a group of their own, as they need the real course's build."""


def test_the_rule_table_lists_every_accepted_licence_once():
    assert [r.id for r in RULES] == list(LICENSES)
    assert len(set(LICENSES)) == len(LICENSES) == 14
    rows = lesson.rule_table_rows()
    assert [row["license"] for row in rows] == list(LICENSES)


def test_worked_examples_cover_every_status_and_come_from_the_evaluator():
    rows = lesson.example_rows()
    statuses = []
    for example, row in zip(lesson.EXAMPLES, rows, strict=True):
        v = evaluate(**example.point)
        statuses.append(v.status)
        assert row["status"] == lesson.STATUS_LABELS[v.status]
        # The main reason: the first that says more than "no conflict", if there is one.
        main = [r for r in v.reasons if r.rule != "no_conflict"] or list(v.reasons)
        assert row["why"] == main[0].text
    assert set(statuses) == set(licensing.STATUSES)
    # The BY-SA model beside BY-NC code: two works, allowed, and the row says why.
    assert rows[2]["why"]["en"].startswith("The fine-tuned weights and the modified code")


# --- The verdict map -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def verdict_maps() -> list[dict[str, Any]]:
    """The map rows as the build makes them: from every grid point's compute() result."""
    points: list[dict[str, Any]] = list(lesson.GRID)  # compute() takes a point's values by name
    results = {lesson.GRID.key(point): lesson.compute(**point) for point in points}
    return lesson.summarize(results)["verdict_map"]


OTHER_CHOICES = ("code", "commercial", "share", "combination", "over_700m_users")
"""The controls a verdict map is drawn for (data and model are its rows and columns)."""


@VERDICT_MAPS
def test_every_cell_of_the_verdict_map_is_evaluate_at_that_pair(verdict_maps):
    letters = {letter: status for status, letter in lesson.STATUS_LETTERS.items()}
    assert len(verdict_maps) == len(LICENSES) * 2 * 2 * len(licensing.COMBINATIONS) * 2
    for row in verdict_maps:
        assert len(row["cells"]) == len(LICENSES) ** 2
        choice = {name: row[name] for name in OTHER_CHOICES}
        for i, data in enumerate(LICENSES):
            for j, model in enumerate(LICENSES):
                status = letters[row["cells"][i * len(LICENSES) + j]]
                expected = verdict_at({"data": data, "model": model, **choice}).status
                assert status == expected, (data, model, choice)


@VERDICT_MAPS
def test_an_unknown_data_licence_is_never_green_on_any_map(verdict_maps):
    # What the page says under the map: the NOASSERTION and NONE rows never turn "allowed".
    size = len(LICENSES)
    for row in verdict_maps:
        for unknown in ("NOASSERTION", "NONE"):
            i = LICENSES.index(unknown)
            assert "A" not in row["cells"][i * size : (i + 1) * size]


@VERDICT_MAPS
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_verdict_map_follows_every_control_and_renders(verdict_maps, lang: str):
    import vl_convert

    chart = next(chart for chart in lesson.CHARTS if chart.name == "verdict_map")
    spec = chart.build(lang).to_dict()
    declared = {param["name"]: param["value"] for param in spec["params"]}
    assert declared == {name: value for name, value in lesson.GRID.default.items()}
    spec["datasets"] = {"verdict_map": verdict_maps}
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg
    for status in licensing.STATUSES:
        assert str(escape(lesson.STATUS_LABELS[status][lang])) in svg  # the legend names each


def test_every_cell_of_the_merge_map_is_evaluate_on_that_merge():
    letters = {letter: status for status, letter in lesson.STATUS_LETTERS.items()}
    rows = lesson.merge_map_rows()
    assert {(row["commercial"], row["share"]) for row in rows} == {
        (c, s) for c in (False, True) for s in (False, True)
    }
    size = len(LICENSES)
    for row in rows:
        for i, first in enumerate(LICENSES):
            for j, second in enumerate(LICENSES):
                expected = evaluate(
                    first,
                    "Apache-2.0",
                    "MIT",
                    commercial=row["commercial"],
                    share=row["share"],
                    combination="adapt_data",
                    second_data=second,
                ).status
                assert letters[row["cells"][i * size + j]] == expected, (first, second, row)
    shared = next(row for row in rows if row["share"] and not row["commercial"])
    clash = shared["cells"][LICENSES.index("CC-BY-SA-4.0") * size + LICENSES.index("CC-BY-NC-4.0")]
    assert letters[clash] == "not_allowed"  # BY-SA × BY-NC: BY-SA §3(b)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_merge_map_follows_its_controls_and_renders(lang: str):
    import vl_convert

    chart = next(chart for chart in lesson.CHARTS if chart.name == "merge_map")
    spec = chart.build(lang).to_dict()
    declared = {param["name"]: param["value"] for param in spec["params"]}
    assert declared == {name: lesson.GRID.default[name] for name in ("data", "commercial", "share")}
    spec["datasets"] = {"merge_map": lesson.merge_map_rows()}
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg
    assert str(escape(lesson.STATUS_LABELS["not_allowed"][lang])) in svg


# --- 10. The page data equals what evaluate() says ------------------------------------------


@pytest.fixture(scope="module")
def licence_site(course_site: tuple[Path, BuildReport]) -> Path:
    """The real course as this session built it, lesson 04's page data and table chunks
    included (the same files a build of lesson 04 alone writes, without that build)."""
    return course_site[0]


def verdict_at(point: Mapping[str, Any]) -> Verdict:
    """evaluate() at a grid point, whose values the lesson's compute() receives by name
    (evaluated once a process for every grid point: :func:`license_golden.verdicts`)."""
    return license_golden.verdict_at(point)


def page_data(site: Path, lang: str) -> dict[str, Any]:
    text = (site / "assets" / "data" / f"{SLUG}.{lang}.js").read_text("utf-8")
    return json.loads(text.split("=", 2)[2].rstrip(";\n"))


@PAGE_DATA
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_page_data_equals_evaluate_at_every_grid_point(licence_site: Path, lang: str):
    data = page_data(licence_site, lang)
    assert len(lesson.GRID) > COMPACT_POINTS_ABOVE and "groups" in data  # the compact form
    assert (licence_site / "assets" / "data" / f"{SLUG}.{lang}.js").stat().st_size < 3_000_000
    # The live tables load later, by blocks of points in grid order: file every block.
    assert data["tableChunks"]["names"] == ["adaptation", "conditions", "reasons"]
    assert data["layout"]["t"] == [] and data["tableChunks"]["lang"] == lang
    starts = data["tableChunks"]["starts"]
    assert starts[0] == 0 and starts == sorted(set(starts)) and len(starts) > 1
    chunks = {
        number: chunk_value(
            (licence_site / table_chunk_path(SLUG, lang, number)).read_text("utf-8")
        )
        for number in range(len(starts))
    }
    for number, chunk in chunks.items():
        end = starts[number + 1] if number + 1 < len(starts) else len(lesson.GRID)
        assert len(chunk["points"]) == end - starts[number]
    plain = with_table_chunks(expand_page_data(data), lesson.GRID, chunks)
    tables = {t.name: t for t in lesson.TABLES}
    points = plain["points"]
    assert len(points) == len(lesson.GRID)
    for point in lesson.GRID:
        shown = points[lesson.GRID.key(point)]
        v = verdict_at(point)
        assert shown["r"]["status"] == lesson.STATUS_LABELS[v.status][lang], point
        conditions = plain["datasets"][shown["t"]["conditions"]]
        assert [row[0] for row in conditions] == [CONDITIONS[c.code][lang] for c in v.conditions], (
            point
        )
        reasons = plain["datasets"][shown["t"]["reasons"]]
        assert [row[1] for row in reasons] == [r.text[lang] for r in v.reasons], point
        adaptation = plain["datasets"][shown["t"]["adaptation"]]
        expected = (
            [("weights", x) for x in v.adaptation_licenses]
            + [("code", x) for x in v.code_licenses]
            + [("data", x) for x in v.data_licenses]
        )
        works = {lesson.WORKS[work][lang]: work for work in lesson.WORKS}
        assert [(works[row[0]], row[1]) for row in adaptation] == expected, point
        assert set(shown["t"]) == {"conditions", "reasons", "adaptation"}
    assert set(tables) >= {"conditions", "reasons", "adaptation", "rules", "examples"}


@pytest.mark.parametrize(("page", "lang"), [(f"{SLUG}.html", "ko"), (f"en/{SLUG}.html", "en")])
def test_the_page_shows_the_rule_table_and_the_default_verdict_in_its_html(
    licence_site: Path, page: str, lang: str
):
    html = (licence_site / page).read_text("utf-8")
    rules = re.search(r'data-table="rules".*?<tbody data-table-body>(.*?)</tbody>', html, re.S)
    assert rules is not None
    row_headers = re.findall(r'<th scope="row">([^<]*)</th>', rules.group(1))
    assert row_headers == list(LICENSES)
    point: Mapping[str, Any] = lesson.GRID.default
    default = evaluate(**point)  # one point: not the whole grid (verdict_at)
    # The verdict is named in the page's one polite live region when it changes; readouts
    # themselves are silent (an <output> would otherwise be a live region of its own).
    assert re.search(r'data-readout="status"[^>]*aria-live="off" data-announce', html)
    assert re.search(r'data-readout="condition_count"[^>]*aria-live="off">', html)
    assert len(re.findall(r'aria-live="polite"', html)) == 1
    status = re.search(r'data-readout="status"[^>]*>([^<]*)</output>', html)
    assert status is not None and status.group(1) == lesson.STATUS_LABELS[default.status][lang]
    for condition in default.conditions:
        assert f"<td>{escape(CONDITIONS[condition.code][lang])}</td>" in html
    # The verdict map is the page's one chart: Vega ships with it, from the site itself.
    assert re.search(r'<script src="(\.\./)?assets/vega\.js"></script>', html)


def test_the_checker_speaks_the_site_languages():
    assert licensing.LANGUAGES == LANGUAGES
