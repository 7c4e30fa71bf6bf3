"""Words that agree with what they follow: Korean particles after every kind of word a page
prints, English units after numbers; each wrong one stops the build at its file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from privacy_explorer import wording
from privacy_explorer.build import build
from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.errors import ExplorerError
from privacy_explorer.project import load_project

# (kind, wrong, right): each reading written out, so the test does not borrow the module's.
KOREAN_CASES = [
    ("Greek letter", "ε가 작을수록", "ε이 작을수록"),  # 엡실론: ends in ㄴ
    ("Greek letter", "ε를 늘리면", "ε을 늘리면"),
    ("Greek letter", "kε를 쌓는다", "kε을 쌓는다"),  # 케이 엡실론
    ("Greek letter", "δ을 더한다", "δ를 더한다"),  # 델타: ends in a vowel
    ("Latin name with a number", "Llama 3로 학습한", "Llama 3으로 학습한"),  # 라마 삼
    ("Latin name with a number", "GPT 2을 쓴다", "GPT 2를 쓴다"),  # 이: a vowel
    ("unit", "100 MPa를 쓴다", "100 MPa을 쓴다"),  # 메가파스칼
    ("unit", "1 MPa는 그", "1 MPa은 그"),
    ("quoted title", "'Llama 3'를 붙인다", "'Llama 3'을 붙인다"),
    ("quoted title", "「개인정보 보호법」을 읽는다", "「개인정보 보호법」을 읽는다"),  # 법: right
    ("quoted title", '"데이터 변경"를 고른다', '"데이터 변경"을 고른다'),
]


@pytest.mark.parametrize(("kind", "wrong", "right"), KOREAN_CASES)
def test_a_korean_particle_follows_the_reading_of_each_kind_of_word(kind, wrong, right):
    found = wording.korean_problems(f"첫 줄\n문장에서 {wrong}.")
    if wrong == right:
        assert found == []
        return
    (problem,) = found
    assert (problem.line, problem.kind) == (2, kind)
    assert problem.expected in right and problem.found in wrong, problem
    assert wording.korean_problems(f"문장에서 {right}.") == []


def test_copulas_may_keep_their_vowel_and_parentheses_defer_to_the_word_before():
    assert wording.korean_problems("스무딩 α이다. 알파(α)는 더한다. 한계 Δ이므로") == []
    assert wording.korean_problems("예산 ε다.") != []  # the short copula after a consonant


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The sensitivity is 1 records and", "1 record"),
        ("noise scale b = 0.5 record.", "0.5 records"),
        ("after 3 epoch,", "3 epochs"),
        ("1 bits", "1 bit"),
    ],
)
def test_an_english_unit_agrees_with_its_number(text: str, expected: str):
    (problem,) = wording.english_problems(text)
    assert problem.expected == expected


def test_a_singular_that_modifies_a_noun_and_a_sum_are_not_counts():
    text = "the Llama 3 release date, 1,000 candidate codes, n+1 records, 1 record, 2 records"
    assert wording.english_problems(text) == []


# --- the build refuses a page with one, naming the file and line ------------------------------


def _append(project: Path, lang: str, text: str) -> int:
    """Append a paragraph to the sample lesson in ``lang``; the 1-based line it lands on."""
    page = project / "content" / lang / "01-dice.md"
    lines = page.read_text("utf-8").rstrip("\n").split("\n")
    page.write_text("\n".join([*lines, "", text, ""]), "utf-8")
    return len(lines) + 2


@pytest.mark.parametrize(
    ("kind", "wrong"), [(kind, wrong) for kind, wrong, right in KOREAN_CASES if wrong != right]
)
def test_the_build_stops_at_a_wrong_korean_particle(sample_project: Path, kind, wrong):
    line = _append(sample_project, "ko", f"이 문장은 {wrong}.")
    with pytest.raises(ExplorerError) as caught:
        build(load_project(sample_project), jobs=1)
    message = str(caught.value.message)
    assert f"content/ko/01-dice.md:{line}: '" in message, message
    assert kind in message
    assert not (sample_project / "build" / "site").exists(), "nothing half-written"


def test_the_build_stops_at_a_math_greek_letter_with_a_wrong_particle(sample_project: Path):
    line = _append(sample_project, "ko", "이 값은 $\\varepsilon$가 정한다.")
    with pytest.raises(ExplorerError, match=rf"content/ko/01-dice.md:{line}: 'ε가'"):
        build(load_project(sample_project), jobs=1)


def test_the_build_stops_at_an_english_unit_that_disagrees(sample_project: Path):
    line = _append(sample_project, "en", "One roll moves the count by at most 1 records.")
    with pytest.raises(ExplorerError, match=rf"content/en/01-dice.md:{line}: '1 records'"):
        build(load_project(sample_project), jobs=1)


def test_the_build_checks_a_unit_after_a_live_number_at_every_grid_point(sample_project: Path):
    # The share is never 1 at any point, so "epoch" after it is wrong at all of them; the
    # check reads every point's number, not only the default's shown on the page.
    line = _append(sample_project, "en", "The share is {{< readout share >}} epoch.")
    with pytest.raises(ExplorerError, match=rf"content/en/01-dice.md:{line}: '0\.\d\d epoch'"):
        build(load_project(sample_project), jobs=1)


def test_lesson_03_counts_one_record_when_its_sensitivity_is_1():
    point: dict[str, Any] = {**dp.GRID.default, "query": "count"}
    readouts = dp.compute(**point)["readouts"]
    shown = {r.name: r for r in dp.READOUTS}
    sentence = (
        f"The sensitivity is {shown['sensitivity'].text(readouts['sensitivity'], 'en')} "
        f"{readouts['sensitivity_unit']['en']} and b = "
        f"{shown['scale'].text(readouts['scale'], 'en')} {readouts['scale_unit']['en']}."
    )
    assert "The sensitivity is 1 record " in sentence, sentence
    assert wording.english_problems(sentence) == [], sentence


@pytest.mark.parametrize(
    ("lang", "title", "found"),
    [("ko", "ε가 작을 때 눈별 횟수", "'ε가'"), ("en", "Faces of 1 records", "'1 records'")],
)
def test_the_build_stops_at_a_wrong_word_in_a_charts_text(
    sample_project: Path, lang: str, title: str, found: str
):
    """Chart titles, axes and legends are judged too, each text of the picture alone."""
    module = sample_project / "compute" / "dice.py"
    source = module.read_text("utf-8")
    shown = {"ko": '"ko": "눈별 횟수"', "en": '"en": "Rolls per face"'}[lang]
    assert shown in source
    module.write_text(source.replace(shown, shown.split(":")[0] + f': "{title}"'), "utf-8")
    with pytest.raises(ExplorerError) as caught:
        build(load_project(sample_project), jobs=1)
    message = str(caught.value.message)
    assert f"assets/charts/01-dice/faces.{lang}.svg: text " in message and found in message
    assert not (sample_project / "build" / "site").exists(), "nothing half-written"


def test_reading_length_counts_the_main_text_a_reader_reads_and_nothing_else():
    page = (
        "<html><head><title>Outside</title><style>p{}</style></head><body><nav>menu</nav>"
        "<main><h1>Two \n  words</h1><p>가나 <b>다</b></p><script>skip()</script>"
        "<svg><text>axis</text></svg><noscript><img alt='x'>copy</noscript>"
        "<template>later</template><math><mi>ε</mi></math></main><footer>foot</footer>"
        "</body></html>"
    )
    assert wording.reading_length(page) == len("Two words 가나 다 ε")
    assert wording.reading_length("<p>no main at all</p>") == 0
