"""Lesson 01: the training text with its canary, every grid point, the page and its charts.

The n-gram model and exposure themselves are tested in ``test_ngram.py``.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import vl_convert
from hypothesis import settings

from privacy_explorer.build import build
from privacy_explorer.charts import named_datasets
from privacy_explorer.compute import ngram
from privacy_explorer.compute.datasets import (
    CONSTITUTION_FILE,
    DATA_DIR,
    SOURCES_FILE,
    DataIntegrityError,
    load_constitution,
)
from privacy_explorer.compute.lessons import memorization as mem
from privacy_explorer.lesson import LANGUAGES, Chart
from privacy_explorer.project import Project
from privacy_explorer.runner import json_ready

REPO = Path(__file__).resolve().parent.parent
SLUG = "01-memorization"
HYPOTHESIS = settings(database=None, deadline=None, max_examples=200)
SOURCES_TEXT = (DATA_DIR / SOURCES_FILE).read_text(encoding="utf-8")


# --- The data and the training text ---------------------------------------------


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A private copy of the statute and SOURCES.md that a test may damage."""
    for name in (CONSTITUTION_FILE, SOURCES_FILE):
        shutil.copyfile(DATA_DIR / name, tmp_path / name)
    return tmp_path


def test_a_corrupted_statute_is_refused(data_copy: Path):
    assert load_constitution(data_copy) == load_constitution()
    path = data_copy / CONSTITUTION_FILE
    path.write_bytes(path.read_bytes().replace("국민".encode(), "국만".encode(), 1))
    with pytest.raises(DataIntegrityError, match=r"SHA-256 is \w+, but .*SOURCES\.md records"):
        load_constitution(data_copy)


def test_a_missing_statute_is_refused(data_copy: Path):
    (data_copy / CONSTITUTION_FILE).unlink()
    with pytest.raises(DataIntegrityError, match="data file is missing"):
        load_constitution(data_copy)


def test_the_lesson_declares_and_reads_the_verified_statute():
    assert mem.DATA_FILES == (CONSTITUTION_FILE,)
    assert mem.statute_text() == load_constitution()


def test_statute_excerpt_is_as_sources_md_describes_it():
    text = load_constitution()
    assert "\r" not in text and text.endswith("아니한다.\n")
    assert f"{len(text):,} characters on {len(text.splitlines())} lines" in SOURCES_TEXT
    assert f"({len(set(text))} distinct characters)" in SOURCES_TEXT
    assert text.startswith("대한민국헌법\n") and "제39조" in text and "제40조" not in text
    # No line of the statute can be mistaken for an inserted one.
    assert mem.PREFIX.strip() not in text and mem.SECRET_CODE not in text


@pytest.mark.parametrize("repeats", mem.REPEATS)
def test_training_text_holds_the_statute_and_the_documented_lines(repeats: int):
    statute = mem.statute_text()
    lines = mem.training_text(statute, repeats).splitlines()
    inserted = Counter(line for line in lines if line not in statute.splitlines())
    expected = Counter({c.line: c.times for c in mem.COMPETITORS})
    if repeats:
        expected[mem.canary_line()] = repeats
    assert inserted == expected
    assert [line for line in lines if line not in inserted] == statute.splitlines()
    # Every inserted line follows a statute line, never another inserted line.
    for before, line in itertools.pairwise(lines):
        if line in inserted:
            assert before not in inserted


def test_more_repeats_only_add_canary_lines():
    statute = mem.statute_text()
    texts = [mem.training_text(statute, r).splitlines() for r in mem.REPEATS]
    for fewer, more in itertools.pairwise(texts):
        extra = list((Counter(more) - Counter(fewer)).elements())
        assert extra == [mem.canary_line()] * (len(more) - len(fewer))
        assert [line for line in more if line != mem.canary_line()] == [
            line for line in fewer if line != mem.canary_line()
        ]


def test_training_text_refuses_repeats_outside_the_grid():
    with pytest.raises(ValueError, match="repeats must be between 0 and 20, got 21"):
        mem.training_text(mem.statute_text(), 21)


def test_competitors_use_other_codes_from_the_candidate_range():
    codes = mem.candidates()
    assert len(codes) == 1000 and codes[0] == "7000" and codes[-1] == "7999"
    for competitor in mem.COMPETITORS:
        assert competitor.code in codes and competitor.code != mem.SECRET_CODE
        assert competitor.prefix.endswith("는 ")


# --- Every grid point -------------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> dict[tuple[int, int], dict[str, Any]]:
    points: list[dict[str, Any]] = list(mem.GRID)  # compute() takes a point's values by name
    return {(p["n"], p["repeats"]): mem.compute(**p) for p in points}


@functools.cache
def library_values(n: int, repeats: int) -> dict[str, Any]:
    """What the library functions say at one grid point, computed here from scratch."""
    model = ngram.CharNGram.train(mem.training_text(mem.statute_text(), repeats), n)
    codes = mem.candidates()
    index = codes.index(mem.SECRET_CODE)
    history = "\n" + mem.PREFIX
    scores = [model.log_likelihood(history, code) for code in codes]
    return {
        "model": model,
        "scores": scores,
        "exposure": ngram.exposure(scores, index),
        "rank": ngram.worst_rank(scores, index),
        "ties": ngram.tie_count(scores, index),
        "continuation": mem.shown(model.greedy(history, 4)),
    }


def test_grid_is_the_documented_one():
    assert mem.GRID.names == ("n", "repeats")
    assert mem.GRID.param("n").values == (1, 2, 3, 4, 5, 6, 7, 8)
    assert mem.GRID.param("repeats").values == (0, 1, 5, 20)
    assert len(mem.GRID) == 32
    assert mem.GRID.param("repeats").display(0, "en") == "none"


def test_every_result_has_the_declared_readouts_and_is_finite_json(results):
    names = {readout.name for readout in mem.READOUTS}
    for result in results.values():
        assert set(result["readouts"]) == names
        assert set(result["datasets"]) == {
            "score_ladder",
            "top_candidates",
            "digit_steps",
            "next_chars",
        }
        assert json_ready(result, "result") == result  # the build's own check: finite JSON
        for readout in mem.READOUTS:
            for lang in LANGUAGES:
                assert readout.text(result["readouts"][readout.name], lang)


def test_readouts_equal_the_library_functions(results):
    for (n, repeats), result in results.items():
        readouts, expected = result["readouts"], library_values(n, repeats)
        for name in ("exposure", "rank", "ties", "continuation"):
            assert readouts[name] == expected[name], (name, n, repeats)
        assert readouts["canary_score"] == expected["scores"][391]
        assert readouts["vocabulary_size"] == len(expected["model"].vocabulary)
        assert readouts["chance_exposure"] == ngram.chance_exposure(1000)
        assert readouts["max_exposure"] == math.log2(1000)


def test_float_ranks_agree_with_exact_fractions_everywhere(results):
    # Ties are decided on floats; they must be exactly the ties of the exact likelihoods.
    for n, repeats in results:
        model = library_values(n, repeats)["model"]
        exact = mem.score_candidates(model, mem.candidates())
        scores = [ngram.log_fraction(value) for value in exact]
        by_value: dict[Fraction, set[str]] = {}
        for value, score in zip(exact, scores, strict=True):
            by_value.setdefault(value, set()).add(score.hex())
        assert all(len(hexes) == 1 for hexes in by_value.values()), (n, repeats)
        assert len({score.hex() for score in scores}) == len(by_value), (n, repeats)
        for i in range(0, 1000, 37):
            exact_rank = sum(1 for value in exact if value >= exact[i])
            assert ngram.worst_rank(scores, i) == exact_rank


def test_candidates_with_equal_counts_share_one_score(results):
    # Group candidates by the counts their digits meet; each group holds one float score.
    for n, repeats in [(1, 0), (6, 0), (3, 5), (8, 20)]:
        model = library_values(n, repeats)["model"]
        groups: dict[tuple[Any, ...], set[str]] = {}
        for code in mem.candidates():
            history, counts = "\n" + mem.PREFIX, []
            for digit in code:
                counts.append((model.count(history, digit), model.context_count(history)))
                history += digit
            score = model.log_likelihood("\n" + mem.PREFIX, code)
            groups.setdefault(tuple(sorted(counts)), set()).add(score.hex())
        assert all(len(scores) == 1 for scores in groups.values())


def test_chart_rows_agree_with_the_readouts(results):
    for result in results.values():
        readouts, datasets = result["readouts"], result["datasets"]
        ladder = datasets["score_ladder"]
        assert sum(row["candidates"] for row in ladder) == 1000
        assert ladder[-1]["worst_rank"] == 1000 and ladder[0]["best_rank"] == 1
        canary_rows = [row for row in ladder if row["canary"]]
        assert len(canary_rows) == 1
        assert canary_rows[0]["worst_rank"] == readouts["rank"]
        assert canary_rows[0]["candidates"] == readouts["ties"] + 1
        top = datasets["top_candidates"]
        assert [row["position"] for row in top] == list(range(1, len(top) + 1))
        assert top[0]["code"] == readouts["best_candidate"]
        assert sum(row["canary"] for row in top) == 1
        assert next(row for row in top if row["canary"])["rank"] == readouts["rank"]


def test_the_grid_shows_what_the_page_says(results):
    """The claims of the hands-on section, so that changed data cannot silently contradict them."""
    chance = ngram.chance_exposure(1000)
    at = {key: result["readouts"] for key, result in results.items()}
    # Baseline: above chance at short contexts, zero with many ties at long ones.
    assert all(at[(n, 0)]["exposure"] > chance for n in (1, 2, 3))
    assert at[(8, 0)]["exposure"] == 0.0 and at[(8, 0)]["ties"] > 100
    assert at[(8, 0)]["continuation"] == "↵↵↵↵"  # an unseen context: the newline wins
    # One copy: a high exposure, but the continuation never writes the secret.
    assert all(at[(n, 1)]["exposure"] > 7 for n in mem.CONTEXT_LENGTHS)
    assert all(at[(n, 1)]["continuation"] != mem.SECRET_CODE for n in mem.CONTEXT_LENGTHS)
    # Five copies: not digits, then a splice, then a competing code, then the secret.
    assert not any(c.isdigit() for c in at[(1, 5)]["continuation"])
    spliced = at[(2, 5)]["continuation"]
    assert spliced[:2] == mem.SECRET_CODE[:2] and spliced not in mem.candidates()
    assert at[(3, 5)]["continuation"] == "7395" == mem.COMPETITORS[1].code
    assert at[(8, 5)]["continuation"] == mem.SECRET_CODE
    # Twenty copies: top exposure everywhere, yet no digit at n = 1.
    assert all(at[(n, 20)]["rank"] == 1 for n in mem.CONTEXT_LENGTHS)
    assert not any(c.isdigit() for c in at[(1, 20)]["continuation"])
    assert all(at[(n, 20)]["continuation"] == mem.SECRET_CODE for n in range(2, 9))


def test_summary_lists_every_point_once(results):
    keyed = {mem.GRID.key({"n": n, "repeats": r}): result for (n, r), result in results.items()}
    summary = mem.summarize(keyed)
    rows = summary["exposure_grid"]
    assert sorted((row["n"], row["repeats"]) for row in rows) == sorted(results)
    for row in rows:
        readouts = results[(row["n"], row["repeats"])]["readouts"]
        assert row["rank"] == readouts["rank"]
        assert row["exposure"] == pytest.approx(readouts["exposure"], rel=1e-5, abs=1e-9)
    bits = {row["reference"]: row["bits"] for row in summary["exposure_references"]}
    assert bits["chance"] == pytest.approx(ngram.chance_exposure(1000), rel=1e-5)


# --- The canary's score, digit by digit ----------------------------------------------


def occurrences(text: str, piece: str) -> int:
    """How often ``piece`` occurs in ``text``, overlaps included (a brute-force count)."""
    return sum(text.startswith(piece, i) for i in range(len(text)))


def test_digit_rows_are_the_counts_of_the_training_text(results):
    history = "\n" + mem.PREFIX
    for (n, repeats), result in results.items():
        text = mem.training_text(mem.statute_text(), repeats)
        rows = result["datasets"]["digit_steps"]
        assert [row["digit"] for row in rows] == list(mem.SECRET_CODE)
        vocabulary = len(set(text))
        for i, row in enumerate(rows):
            context = (history + mem.SECRET_CODE[:i])[-n:]
            assert row["context"] == mem.shown(context)
            # N(h, c): h followed by c; N(h): h followed by anything (not at the very end).
            assert row["pair_count"] == occurrences(text, context + mem.SECRET_CODE[i])
            assert row["context_count"] == occurrences(text[:-1], context)
            exact = (row["pair_count"] + Fraction(1, 10)) / (
                row["context_count"] + Fraction(1, 10) * vocabulary
            )
            assert row["probability"] == pytest.approx(float(exact), rel=1e-3)
            assert row["log_prob"] == pytest.approx(math.log(exact), rel=1e-5)
        # The bars add up to the canary's score (the readout keeps full precision).
        total = sum(row["log_prob"] for row in rows)
        assert total == pytest.approx(result["readouts"]["canary_score"], abs=1e-4)
        weakest = min(rows, key=lambda row: (row["log_prob"], row["position"]))
        assert result["readouts"]["weakest_position"] == weakest["position"]
        assert result["readouts"]["weakest_digit"] == weakest["digit"]
        assert result["readouts"]["unseen_log_prob"] == pytest.approx(-math.log(vocabulary))


def test_each_canary_copy_adds_exactly_one_to_each_digit_count(results):
    # What the page's first bullet under the digit chart says, at every context length.
    for n in mem.CONTEXT_LENGTHS:
        without = results[(n, 0)]["datasets"]["digit_steps"]
        for repeats in mem.REPEATS[1:]:
            rows = results[(n, repeats)]["datasets"]["digit_steps"]
            for row, base in zip(rows, without, strict=True):
                assert row["pair_count"] == base["pair_count"] + repeats
                assert row["context_count"] >= base["context_count"] + repeats


def test_a_seen_context_gives_an_unseen_digit_less_than_an_unseen_context(results):
    # The second bullet: (0 + α)/(N + α|V|) < 1/|V| whenever N > 0, and = 1/|V| when N = 0.
    for result in results.values():
        unseen = result["readouts"]["unseen_log_prob"]
        for row in result["datasets"]["digit_steps"]:
            if row["context_count"] == 0:
                assert row["log_prob"] == pytest.approx(unseen, rel=1e-5)
            elif row["pair_count"] == 0:
                assert row["log_prob"] < unseen


def test_the_digit_table_is_declared_over_the_digit_rows(results):
    (table,) = mem.TABLES
    row = results[(3, 5)]["datasets"]["digit_steps"][0]
    assert table.name == "digit_steps" and {c.field for c in table.columns} <= set(row)
    assert table.cells(row, "en")[0] == mem.SECRET_CODE[0]


# --- The built page ---------------------------------------------------------------


@pytest.fixture(scope="module")
def built(repo_project: Project) -> Any:
    """The lesson built the way `explorer build --only 01` builds it (no site is written)."""
    return build(repo_project, only=SLUG, jobs=2, write=False)


def page_data(files: dict[str, bytes], lang: str) -> dict[str, Any]:
    script = files[f"assets/data/{SLUG}.{lang}.js"].decode("utf-8")
    body = script.split(f'window.EXPLORER_DATA["{SLUG}"]=', 1)[1].rstrip().removesuffix(";")
    return json.loads(body)


def test_the_build_computes_what_the_library_returns(built):
    (run,) = built.runs
    for point in mem.GRID:
        readouts = run.results[mem.GRID.key(point)]["readouts"]
        expected = library_values(point["n"], point["repeats"])
        for name in ("exposure", "rank", "ties", "continuation"):
            assert readouts[name] == expected[name], (name, point)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_shows_what_the_library_returns(built, lang: str):
    data = page_data(built.files, lang)
    by_name = {readout.name: readout for readout in mem.READOUTS}
    for point in mem.GRID:
        shown = data["points"][mem.GRID.key(point)]["r"]
        expected = library_values(point["n"], point["repeats"])
        for name in ("exposure", "rank", "ties", "continuation"):
            assert shown[name] == by_name[name].text(expected[name], lang), (name, point)
    # Whole-grid datasets are embedded with the chart once, not stored per point.
    assert "exposure_grid" not in data["points"][mem.GRID.key(mem.GRID.default)]["d"]
    assert data["charts"]["exposure"]["signals"] == ["n", "repeats"]


def test_no_number_is_typed_into_the_lesson_prose():
    """Numbers on the page come from readouts; the Markdown may name only a few by hand.

    Allowed: the values on the controls, the 0, 1 and 2 of formulas and definitions
    ("log2", "exactly 1", "exposure 0"), and what the reference list cites (years,
    the article number of the Copyright Act).
    """
    controls = {str(v) for p in mem.GRID.params for v in p.values}
    for lang in LANGUAGES:
        body = (REPO / "content" / lang / f"{SLUG}.md").read_text(encoding="utf-8")
        prose, references = re.split(r"\n## (?:참고문헌|References)\n", body)
        prose = re.split(r"\n## (?:기호표|Notation)\n", prose)[0]
        cited = set(re.findall(r"\d+", references))
        shown = re.sub(r"\]\([^)]*\)", "]", prose.split("\n---\n", 1)[1])  # not link targets
        for token in re.findall(r"(?<![\w.])\d[\d,.]*", shown):
            number = token.rstrip(".,")
            assert number in controls | {"0", "1", "2"} | cited, (lang, token)


# --- Charts -----------------------------------------------------------------------


@pytest.mark.parametrize("chart", mem.CHARTS, ids=lambda chart: chart.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_chart_reads_only_provided_datasets_and_renders(chart: Chart, lang: str, results):
    result = results[(3, 5)]
    keyed = {mem.GRID.key({"n": n, "repeats": r}): res for (n, r), res in results.items()}
    provided = {**result["datasets"], **mem.summarize(keyed)}
    spec = chart.build(lang).to_dict()
    assert named_datasets(spec) and named_datasets(spec) <= set(provided)
    assert "param_" not in json.dumps(spec)
    assert chart.description["ko"] and chart.description["en"]
    spec["datasets"] = {name: provided[name] for name in named_datasets(spec)}
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


def test_more_copies_of_the_canary_never_lower_its_exposure(results):
    """The exposure chart's takeaway: more copies bring the exposure closer to the maximum."""
    maximum = math.log2(len(mem.candidates()))
    for n in mem.CONTEXT_LENGTHS:
        line = [results[(n, r)]["readouts"]["exposure"] for r in mem.REPEATS]
        assert line == sorted(line), (n, line)
        assert line[-1] == pytest.approx(maximum, rel=1e-6)


def test_exposure_chart_follows_both_controls():
    spec = mem.exposure_chart("en").to_dict()
    assert {"name": "n", "value": mem.DEFAULT_CONTEXT_LENGTH} in spec["params"]
    assert {"name": "repeats", "value": mem.DEFAULT_REPEATS} in spec["params"]
    assert "datum.n === n" in json.dumps(spec) and "datum.repeats === repeats" in json.dumps(spec)


# --- The fork: the next-character distribution, recounted from the training text ---------------


def test_the_fork_chart_is_a_recount_of_the_training_text(results):
    """Every bar against a brute-force count of the text, independent of the n-gram model: the
    15 most probable characters after the fork's context (ties in code point order)."""
    history = "\n" + mem.PREFIX
    for (n, repeats), result in results.items():
        text = mem.training_text(mem.statute_text(), repeats)
        readouts, rows = result["readouts"], result["datasets"]["next_chars"]
        fork = readouts["fork_position"] - 1
        written = ngram.CharNGram.train(text, n, mem.SMOOTHING).greedy(history, 4)
        pairs = zip(written, mem.SECRET_CODE, strict=True)
        mismatches = [i for i, (a, b) in enumerate(pairs) if a != b]
        if mismatches:
            assert fork == mismatches[0], (n, repeats)
        else:
            assert readouts["fork_position"] == readouts["weakest_position"], (n, repeats)
        context = (history + mem.SECRET_CODE[:fork])[-n:]
        assert readouts["fork_context"] == mem.shown(context)
        follows = Counter(text[i + n] for i in range(len(text) - n) if text.startswith(context, i))
        vocabulary = sorted(set(text))
        ranked = sorted(vocabulary, key=lambda c: (-follows[c], c))
        expected = ranked[: mem.NEXT_CHAR_COUNT]
        if mem.SECRET_CODE[fork] not in expected:
            expected.append(mem.SECRET_CODE[fork])
        assert [row["char"] for row in rows] == [mem.shown(c) for c in expected], (n, repeats)
        total = sum(follows.values())
        for row, char in zip(rows, expected, strict=True):
            assert row["count"] == follows[char]
            exact = (follows[char] + Fraction(1, 10)) / (total + Fraction(1, 10) * len(vocabulary))
            assert row["probability"] == pytest.approx(float(exact), rel=1e-5)
            assert row["place"] == ranked.index(char) + 1
        assert readouts["fork_greedy_char"] == mem.shown(ranked[0]) == rows[0]["char"]
        assert {row["role"] for row in rows if row["char"] == mem.SECRET_CODE[fork]} <= {
            "canary",
            "both",
        }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fork_chart_renders_with_its_rows(results, lang: str):
    chart = next(c for c in mem.CHARTS if c.name == "next")
    spec = chart.build(lang).to_dict()
    spec["datasets"] = {"next_chars": results[(3, 1)]["datasets"]["next_chars"]}
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


QUIZ = re.compile(r"\{\{< quiz >\}\}\n(.*?)\{\{< /quiz >\}\}", re.S)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_greedy_question_marks_the_answer_the_build_computes(results, lang: str):
    """ "r = 1, n = 3: will greedy write 7391?": the marked option is the computed one."""
    text = (REPO / "content" / lang / f"{SLUG}.md").read_text("utf-8")
    (quiz,) = [q for q in QUIZ.findall(text) if "question_continuation" in q]
    marks = [line[3] == "x" for line in quiz.split("\n") if line.startswith("- [")]
    assert len(marks) == 3 and sum(marks) == 1
    point = (mem.QUESTION_POINT["n"], mem.QUESTION_POINT["repeats"])
    written = results[point]["readouts"]["continuation"]
    assert written == mem.question_readouts()["question_continuation"]
    # Options in order: writes the secret code; writes another code; writes no digits.
    computed = 0 if written == mem.SECRET_CODE else 1 if written.isdigit() else 2
    assert marks.index(True) == computed, (written, lang)
    readouts = results[point]["readouts"]
    assert (readouts["question_n"], readouts["question_repeats"]) == point
