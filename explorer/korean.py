"""Korean particles that agree with a value as it is read aloud.

A Korean particle has one form after a syllable that ends in a consonant
(받침) and another after a vowel: ``7391이`` (칠천삼백구십일), ``4가`` (사),
``0.5를`` (영 점 오). ``으로/로`` also takes ``로`` after ㄹ: ``1로`` (일),
``8로`` (팔). A live readout changes with the controls, so its particle cannot
be typed once: the author writes ``{{< readout NAME 가 >}}`` and the build
picks the form for every grid point, and the page runtime
(``site_templates/static/explorer.js``, ``finalSound``) does the same in the
browser when a control moves.

How a value is read, from its last readable character:

* a Hangul syllable: its own final consonant;
* a number in Sino-Korean: a last digit other than 0 as that digit
  (일 이 삼 사 오 육 칠 팔 구); a whole number ending in 0 as its last place
  word (십, 백, 천, 만, …, all ending in a consonant) and 0 alone as 영; a
  decimal as its last digit (``0.50`` ends in 영);
* ``%`` as 퍼센트, a few units by their Korean names (``MPa`` 메가파스칼),
  Latin letters by their names (``R`` 알, ``N`` 엔, ``C`` 씨), a few Greek
  letters and signs by theirs (``ε`` 엡실론, ``×`` 배).

Closing brackets and quotes after the value are skipped (``「7391」이``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

FinalSound = Literal["vowel", "rieul", "consonant"]
"""How the last syllable as read ends: in a vowel, in ㄹ, or in another consonant."""

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL_FINAL = 8
"""Index of ㄹ among the 28 final-consonant slots of a precomposed Hangul syllable."""

DIGIT_READINGS = {
    "0": "영",
    "1": "일",
    "2": "이",
    "3": "삼",
    "4": "사",
    "5": "오",
    "6": "육",
    "7": "칠",
    "8": "팔",
    "9": "구",
}
"""Sino-Korean readings of the ten digits."""

PLACE_WORDS = ("십", "백", "천", "만")
"""How a whole number with 1, 2, 3 or 4+ trailing zeros ends (10, 100, 1000, 10000 and beyond
all end in one of these or in 억, 조, each with a final consonant)."""

LETTER_READINGS = {
    "A": "에이",
    "B": "비",
    "C": "씨",
    "D": "디",
    "E": "이",
    "F": "에프",
    "G": "지",
    "H": "에이치",
    "I": "아이",
    "J": "제이",
    "K": "케이",
    "L": "엘",
    "M": "엠",
    "N": "엔",
    "O": "오",
    "P": "피",
    "Q": "큐",
    "R": "알",
    "S": "에스",
    "T": "티",
    "U": "유",
    "V": "브이",
    "W": "더블유",
    "X": "엑스",
    "Y": "와이",
    "Z": "지",
}
"""Latin letters as Korean readers name them (acronyms such as DCR or AUC are read so)."""

GREEK_READINGS = {
    "ε": "엡실론",
    "δ": "델타",
    "Δ": "델타",
    "σ": "시그마",
    "ρ": "로",
    "α": "알파",
    "β": "베타",
    "λ": "람다",
    "μ": "뮤",
    "θ": "세타",
}
"""Greek letters by their Korean names, which decide the particle whatever comes before the
letter (``kε`` reads 케이 엡실론, so ``kε을``, not ``kε를``)."""

SIGN_READINGS = {
    "%": "퍼센트",
    "×": "배",
    "k": "케이",
    "n": "엔",
    "x": "엑스",
}
"""Signs and single lower-case letters that end a value, as they are read."""

UNIT_READINGS = {
    "MPa²": "메가파스칼 제곱",
    "MPa": "메가파스칼",
    "kg": "킬로그램",
    "bits": "비트",
    "bit": "비트",
}
"""Units written in Latin letters that are read as words, not letter by letter."""

_SKIPPED = " \u00a0\u202f」』)]}’”'\"〉》."
"""Closing marks and spaces after a value, which are not read."""
_NUMBER = re.compile(r"([0-9][0-9,]*)(?:\.([0-9]+))?$")
r"""A number at the end of a value: ASCII digits only, like ``\d`` in the runtime's twin."""


def _syllable_sound(syllable: str) -> FinalSound:
    final = (ord(syllable) - _HANGUL_FIRST) % 28
    if final == 0:
        return "vowel"
    return "rieul" if final == _RIEUL_FINAL else "consonant"


def _reading_sound(reading: str) -> FinalSound:
    return _syllable_sound(reading[-1])


def _is_letter(character: str) -> bool:
    """A cased letter (Latin, Greek): Hangul and digits are not, nor is the empty string."""
    return character.lower() != character.upper()


def final_sound(text: str) -> FinalSound:
    """How ``text`` ends when read aloud in Korean: ``"vowel"``, ``"rieul"`` or ``"consonant"``.

    Raises ``ValueError`` when the last readable character has no known reading
    (an English word, an emoji), so that a build never guesses a particle.

    >>> final_sound("7391"), final_sound("4"), final_sound("8")
    ('consonant', 'vowel', 'rieul')
    >>> final_sound("12.5 %"), final_sound("1,000"), final_sound("Gen-LRA")
    ('vowel', 'consonant', 'vowel')
    """
    body = text.rstrip(_SKIPPED)
    if not body:
        raise ValueError(f"{text!r} has nothing to read")
    last = body[-1]
    if _HANGUL_FIRST <= ord(last) <= _HANGUL_LAST:
        return _syllable_sound(last)
    if number := _NUMBER.search(body):
        whole, decimals = number.group(1).replace(",", ""), number.group(2)
        if decimals or last != "0":
            return _reading_sound(DIGIT_READINGS[last])
        zeros = len(whole) - len(whole.rstrip("0"))
        if zeros == len(whole):
            return _reading_sound(DIGIT_READINGS["0"])
        return _reading_sound(PLACE_WORDS[min(zeros, 4) - 1])
    if last in GREEK_READINGS:
        return _reading_sound(GREEK_READINGS[last])
    for unit, reading in UNIT_READINGS.items():
        if body.endswith(unit) and not _is_letter(body[: -len(unit)][-1:]):
            return _reading_sound(reading)
    if last in SIGN_READINGS and not _is_letter(body[:-1][-1:]):
        return _reading_sound(SIGN_READINGS[last])
    if last in LETTER_READINGS:
        return _reading_sound(LETTER_READINGS[last])
    raise ValueError(
        f"cannot tell how {text!r} is read in Korean (it ends in {last!r}); "
        "end it with a number, Hangul, an acronym or a known unit"
    )


@dataclass(frozen=True)
class Particle:
    """A particle's forms after a consonant, after a vowel, and after ㄹ."""

    after_consonant: str
    """E.g. ``이`` of 이/가, ``으로`` of 으로/로."""
    after_vowel: str
    """E.g. ``가`` of 이/가."""
    after_rieul: str
    """The same as ``after_consonant`` except for 으로/로 (and its compounds), which take ``로``."""

    def after(self, text: str) -> str:
        """The form that follows ``text`` as it is read (see :func:`final_sound`)."""
        sound = final_sound(text)
        if sound == "vowel":
            return self.after_vowel
        return self.after_rieul if sound == "rieul" else self.after_consonant


def _pair(after_consonant: str, after_vowel: str) -> Particle:
    return Particle(after_consonant, after_vowel, after_consonant)


def _ro(after_consonant: str, after_vowel: str) -> Particle:
    return Particle(after_consonant, after_vowel, after_vowel)


_KNOWN = (
    _pair("이", "가"),
    _pair("은", "는"),
    _pair("을", "를"),
    _pair("과", "와"),
    _pair("이다", "다"),
    _pair("이고", "고"),
    _pair("이며", "며"),
    _pair("이면", "면"),
    _pair("이므로", "므로"),
    _pair("이라는", "라는"),
    _pair("이나", "나"),
    _pair("이지만", "지만"),
    _ro("으로", "로"),
    _ro("으로서", "로서"),
    _ro("으로써", "로써"),
)

PARTICLES: dict[str, Particle] = {
    form: known for known in _KNOWN for form in (known.after_consonant, known.after_vowel)
}
"""Every particle whose form depends on the word before it, by either of its forms."""


def particle(written: str) -> Particle:
    """The particle an author wrote (either form, e.g. ``가`` or ``이``).

    Raises ``ValueError`` listing the known particles for anything else.
    """
    try:
        return PARTICLES[written]
    except KeyError:
        known = ", ".join(f"{p.after_consonant}/{p.after_vowel}" for p in _KNOWN)
        raise ValueError(
            f"'{written}' is not a particle the build can choose; use one of: {known}"
        ) from None


def with_particle(text: str, written: str) -> str:
    """``text`` followed by the form of particle ``written`` that agrees with it.

    >>> with_particle("7391", "가"), with_particle("4", "이"), with_particle("8", "으로")
    ('7391이', '4가', '8로')
    """
    return text + particle(written).after(text)
