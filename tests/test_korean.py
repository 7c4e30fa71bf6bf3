"""Korean particles that agree with a value as it is read (explorer/korean.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privacy_explorer.errors import ContentError
from privacy_explorer.korean import final_sound, particle, with_particle
from privacy_explorer.markup import parse_markdown

# value as the page shows it, how it is read, and the subject particle, 와/과 and 으로/로 after it
READINGS = [
    ("7391", "칠천삼백구십일", "이", "과", "로"),
    ("7,391", "칠천삼백구십일", "이", "과", "로"),
    ("3", "삼", "이", "과", "으로"),
    ("4", "사", "가", "와", "로"),
    ("1", "일", "이", "과", "로"),
    ("7", "칠", "이", "과", "로"),
    ("8", "팔", "이", "과", "로"),
    ("2", "이", "가", "와", "로"),
    ("5", "오", "가", "와", "로"),
    ("6", "육", "이", "과", "으로"),
    ("9", "구", "가", "와", "로"),
    ("0", "영", "이", "과", "으로"),
    ("10", "십", "이", "과", "으로"),
    ("100", "백", "이", "과", "으로"),
    ("1000", "천", "이", "과", "으로"),
    ("1,000", "천", "이", "과", "으로"),
    ("10000", "만", "이", "과", "으로"),
    ("1030", "천삼십", "이", "과", "으로"),
    ("2000000", "이백만", "이", "과", "으로"),
    ("0.5", "영 점 오", "가", "와", "로"),
    ("0.50", "영 점 오영", "이", "과", "으로"),
    ("0.871", "영 점 팔칠일", "이", "과", "로"),
    ("−0.03", "마이너스 영 점 영삼", "이", "과", "으로"),
    ("12.5 %", "십이 점 오 퍼센트", "가", "와", "로"),
    ("100%", "백 퍼센트", "가", "와", "로"),
    ("5.54 MPa", "오 점 오사 메가파스칼", "이", "과", "로"),
    ("13.8 MPa²", "십삼 점 팔 메가파스칼 제곱", "이", "과", "으로"),
    ("Gen-LRA", "젠 엘알에이", "가", "와", "로"),
    ("DCR", "디씨알", "이", "과", "로"),
    ("LOGAN", "로건 (엔)", "이", "과", "으로"),
    ("3×", "삼 배", "가", "와", "로"),
    ("개인정보", "개인정보", "가", "와", "로"),
    ("대한민국", "대한민국", "이", "과", "으로"),
    ("서울", "서울", "이", "과", "로"),
    ("「7391」", "칠천삼백구십일", "이", "과", "로"),
]


@pytest.mark.parametrize(("value", "reading", "subject", "and_", "by"), READINGS)
def test_each_particle_agrees_with_the_value_as_read(value, reading, subject, and_, by):
    assert with_particle(value, "가") == value + subject, reading
    assert with_particle(value, "이") == value + subject, reading
    assert particle("와").after(value) == and_, reading
    assert particle("으로").after(value) == by, reading


def test_the_other_pairs_follow_the_final_consonant():
    assert [with_particle("3", p) for p in ("는", "를", "다", "고", "라는")] == [
        "3은",
        "3을",
        "3이다",
        "3이고",
        "3이라는",
    ]
    assert [with_particle("4", p) for p in ("은", "을", "이다", "이며", "이므로")] == [
        "4는",
        "4를",
        "4다",
        "4며",
        "4므로",
    ]


@pytest.mark.parametrize("value", ["", " ", "greedy", "🙂", "x-y"])
def test_a_value_that_cannot_be_read_is_refused_not_guessed(value):
    with pytest.raises(ValueError, match="read"):
        final_sound(value)


def test_an_unknown_particle_lists_the_known_ones():
    with pytest.raises(
        ValueError, match="'의' is not a particle the build can choose; use one of: 이/가"
    ):
        particle("의")


@given(st.integers(min_value=1, max_value=10**12))
def test_a_whole_number_ends_as_its_last_digit_or_place_word(number):
    last = number % 10
    expected = {1: "rieul", 7: "rieul", 8: "rieul", 2: "vowel", 4: "vowel", 5: "vowel", 9: "vowel"}
    assert final_sound(f"{number:,}") == expected.get(last, "consonant")
    assert final_sound(str(number)) == final_sound(f"{number:,}")


PAGE = Path("content/ko/09-x.md")


def test_the_markdown_option_names_the_particle_and_the_closing_marks():
    parsed = parse_markdown(
        PAGE, "코드 {{< readout code 가 >}} 온다. 「{{< readout canary 」와 >}} 함께.", 3
    )
    assert [(d.names, d.particle, d.marks) for d in parsed.directives] == [
        (("code",), "가", ""),
        (("canary",), "와", "」"),
    ]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("의", "content/ko/09-x.md:3: readout 'code': '의' is not a particle the build can choose"),
        ("x", "content/ko/09-x.md:3: readout 'code': 'x' is not a particle; write the particle"),
    ],
)
def test_a_wrong_particle_option_is_an_error_naming_the_line(option, message):
    with pytest.raises(ContentError) as caught:
        parse_markdown(PAGE, f"값 {{{{< readout code {option} >}}}}", 3)
    assert caught.value.message.startswith(message)


PARTICLE_AFTER_READOUT = re.compile(
    r"\{\{< readout [a-z_0-9]+ >\}\}[」』]*"
    r"(?:이고|이다|이며|이면|이나|으로|이|가|은|는|을|를|과|와|로|다|고|며|면|나)(?![가-힣])"
)


def test_every_korean_readout_followed_by_a_particle_lets_the_build_choose_it():
    """``{{< readout x >}}이다`` would read wrongly for half the values: write ``x 이다``."""
    content = Path(__file__).resolve().parents[1] / "content" / "ko"
    typed = [
        f"{path.name}:{number}: {match.group(0)}"
        for path in sorted(content.glob("*.md"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        for match in PARTICLE_AFTER_READOUT.finditer(line)
    ]
    assert not typed, "\n".join(typed)
