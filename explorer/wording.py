"""Words that must agree with what they follow, checked on every built page.

Korean particles take their form from how the word before them is read
(:mod:`privacy_explorer.korean`); the build chooses it for live readouts, and
this module checks the particles written after everything else a page prints:

* Greek letters, read by their Korean names (``ε`` 엡실론: ``ε이``, ``ε을``, never
  ``ε가``, ``ε를``; ``δ`` 델타: ``δ가``);
* a Latin name with a number, the number read in Sino-Korean (``Llama 3`` 라마 삼:
  ``Llama 3으로``);
* units with a declared reading (``MPa`` 메가파스칼: ``MPa로``, ``MPa이다``);
* quoted titles, read to their last readable character (``'Llama 3'을``).

In English, a counted unit agrees with its number: ``1 record``, ``0.5 records``,
``2 records`` (:data:`ENGLISH_UNITS`).

:func:`page_problems` reads a page's visible text (alternative texts and labels
included) and returns one message per disagreement, naming the line; the build
(:func:`privacy_explorer.build.check`) refuses a site with any.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

from privacy_explorer import korean

_PARTICLE = (
    r"(?P<particle>이지만|이라는|이므로|으로서|으로써|이고|이다|이며|이면|이나|으로|로서|로써|"
    r"지만|라는|므로|이|가|은|는|을|를|과|와|로|다|며|면)(?![가-힣])"
)
"""A particle whose form depends on the word before it, longest forms first, ending a word."""
_GREEK = "".join(korean.GREEK_READINGS)
KOREAN_KINDS: dict[str, re.Pattern[str]] = {
    "Greek letter": re.compile(rf"(?P<word>[{_GREEK}][′']?){_PARTICLE}"),
    "Latin name with a number": re.compile(
        rf"(?P<word>(?<![\w.])[A-Za-z][A-Za-z-]* [0-9]+(?:\.[0-9]+)?){_PARTICLE}"
    ),
    "unit": re.compile(
        r"(?P<word>(?<![A-Za-z])(?:"
        + "|".join(re.escape(unit) for unit in korean.UNIT_READINGS)
        + rf")){_PARTICLE}"
    ),
    "quoted title": re.compile(
        rf"(?P<word>(?:'[^'\n]{{1,80}}'|\"[^\"\n]{{1,80}}\"|“[^”\n]{{1,80}}”|‘[^’\n]{{1,80}}’|"
        rf"「[^」\n]{{1,80}}」|『[^』\n]{{1,80}}』)){_PARTICLE}"
    ),
}
"""What a Korean page prints before a particle, by kind, with the word and the particle. A
particle after a closing parenthesis follows the word before the parenthesis, so it is not
judged by what the parentheses hold."""
COPULAS = frozenset({"이다", "이고", "이며", "이면", "이나", "이지만", "이라는", "이므로"})
"""Forms of the copula 이다, which may keep their 이 after a vowel (``알파이다`` as well as
``알파다``); only the short form after a consonant (``엡실론다``) is wrong."""

ENGLISH_UNITS: dict[str, str] = {
    "record": "records",
    "epoch": "epochs",
    "release": "releases",
    "bit": "bits",
    "seed": "seeds",
    "step": "steps",
    "query": "queries",
    "digit": "digits",
    "candidate": "candidates",
    "member": "members",
    "non-member": "non-members",
}
"""Counted units in English, singular to plural: the singular only after exactly 1."""
_PLURAL_OF = {plural: single for single, plural in ENGLISH_UNITS.items()}
ENGLISH_COUNT = re.compile(
    r"(?<![\w.,−+/×-])(?P<number>[0-9][0-9,]*(?:\.[0-9]+)?) (?P<unit>"
    + "|".join(sorted(map(re.escape, [*ENGLISH_UNITS, *_PLURAL_OF]), key=len, reverse=True))
    + r")(?![\w-])(?P<after> ?[\w-]*)"
)
NOUN_ENDS = frozenset(
    {"and", "or", "of", "in", "is", "are", "was", "were", "with", "to", "from", "per"}
    | {"at", "on", "for", "that", "which", "than", "by", "as"}
)
"""Words after which a singular unit is the noun itself, not a modifier: ``3 release date``
is a date (no mistake), ``3 release of`` is a count (a mistake)."""


@dataclass(frozen=True)
class Problem:
    """A word that does not agree with what it follows."""

    line: int
    """1-based line of the page (or text) it is on."""
    found: str
    """What is written, e.g. ``ε가``."""
    expected: str
    """What agrees, e.g. ``ε가`` → ``ε이``."""
    kind: str
    """What precedes the particle (a key of :data:`KOREAN_KINDS`) or ``unit count``."""

    def describe(self) -> str:
        """``'ε가' should be 'ε이' (a Greek letter ...)``."""
        if self.kind == "unit count":
            why = "an English unit agrees with its number: singular only after exactly 1"
        else:
            why = f"a Korean particle follows how the {self.kind} before it is read"
        return f"'{self.found}' should be '{self.expected}' ({why})"

    def message(self, where: str) -> str:
        """``where:line: 'ε가' should be 'ε이' (a Greek letter ...)``."""
        return f"{where}:{self.line}: {self.describe()}"


def korean_problems(text: str) -> list[Problem]:
    """Particles in ``text`` that disagree with the Greek letter, name, unit or quoted title
    before them. A word with no known reading is not judged here (the readout check is)."""
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for kind, pattern in KOREAN_KINDS.items():
            for match in pattern.finditer(line):
                written = match.group("particle")
                try:
                    chosen = korean.particle(written).after(match.group("word"))
                except ValueError:
                    continue
                if chosen != written and not (written in COPULAS and chosen == written[1:]):
                    found = match.group(0)
                    expected = found[: -len(written)] + chosen
                    problems.append(Problem(number, found, expected, kind))
    return problems


def english_problems(text: str) -> list[Problem]:
    """Counted units in ``text`` that disagree with their number (``1 records``)."""
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for match in ENGLISH_COUNT.finditer(line):
            value, unit = match.group("number"), match.group("unit")
            one = value == "1"
            if one and unit in _PLURAL_OF:
                problems.append(
                    Problem(number, match.group(0), f"{value} {_PLURAL_OF[unit]}", "unit count")
                )
            elif (
                not one
                and unit in ENGLISH_UNITS
                and match.group("after").strip() in NOUN_ENDS | {""}
            ):
                problems.append(
                    Problem(number, match.group(0), f"{value} {ENGLISH_UNITS[unit]}", "unit count")
                )
    return problems


class _VisibleText(HTMLParser):
    """A page's text as a reader meets it, line by line of the page: text outside scripts and
    styles, and the alternative texts and labels of its elements."""

    SHOWN = ("alt", "title", "aria-label", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: dict[int, list[str]] = {}
        self._hidden = 0

    def _add(self, text: str) -> None:
        line = self.getpos()[0]
        for offset, part in enumerate(text.split("\n")):
            self.lines.setdefault(line + offset, []).append(part)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in self.SHOWN and value:
                self._add(value.replace("\n", " "))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._add(data)


def visible_lines(html: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` for each line of ``html`` with visible text, the pieces of a line
    joined as they are shown (``<mi>ε</mi></math>가`` reads ``ε가``)."""
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    for line in sorted(parser.lines):
        yield line, "".join(parser.lines[line])


def page_problems(html: str, lang: str) -> list[Problem]:
    """Every disagreement on a built page in ``lang`` (``ko``: particles, ``en``: counts)."""
    judge = korean_problems if lang == "ko" else english_problems
    return [
        Problem(line, problem.found, problem.expected, problem.kind)
        for line, text in visible_lines(html)
        for problem in judge(text)
    ]


LESSON_TEXT_LIMIT = 12_000
"""The most characters of reading a lesson page may hold (issue 21 §3: lessons 05 and 06)."""


class _ReadingText(HTMLParser):
    """The text of a page's ``<main>`` as a reader reads it: no scripts, styles, pictures,
    ``<noscript>`` copies or templates."""

    SKIPPED = ("script", "style", "svg", "noscript", "template")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._main = 0
        self._skipped = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._main += tag == "main"
        self._skipped += tag in self.SKIPPED

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._main = max(0, self._main - 1)
        if tag in self.SKIPPED:
            self._skipped = max(0, self._skipped - 1)

    def handle_data(self, data: str) -> None:
        if self._main and not self._skipped:
            self.parts.append(data)


def reading_length(html: str) -> int:
    """Characters of reading in a page's ``<main>``: its prose, tables, captions, formulas
    and controls, each run of white space counted as one space.

    >>> reading_length("<main><h1>Two  words</h1><script>x</script><svg>y</svg></main>!")
    9
    """
    parser = _ReadingText()
    parser.feed(html)
    parser.close()
    return len(" ".join(" ".join(parser.parts).split()))


_SVG_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAG = re.compile(r"<[^>]+>")


def chart_problems(svg: str, lang: str) -> list[Problem]:
    """Every disagreement in the texts of a chart's picture (title, axes, legends, labels).

    Each ``<text>`` is judged alone: two of them stand apart on the chart even when one
    follows the other in the file. ``line`` is the text's place among the chart's texts (1 is
    the first)."""
    judge = korean_problems if lang == "ko" else english_problems
    return [
        Problem(number, problem.found, problem.expected, problem.kind)
        for number, raw in enumerate(_SVG_TEXT.findall(svg), start=1)
        for problem in judge(html.unescape(_TAG.sub("", raw)))
    ]


TEX_LETTERS: dict[str, tuple[str, ...]] = {
    "ε": ("\\varepsilon", "\\epsilon"),
    "δ": ("\\delta",),
    "Δ": ("\\Delta",),
    "σ": ("\\sigma",),
    "ρ": ("\\rho",),
    "α": ("\\alpha",),
    "β": ("\\beta",),
    "λ": ("\\lambda",),
    "μ": ("\\mu",),
    "θ": ("\\theta",),
}
"""How the Markdown writes a Greek letter in math (``$\\varepsilon$가`` shows as ``ε가``)."""


def source_line(problem: Problem, body: str) -> int | None:
    """The 0-based line of ``body`` (a page's Markdown) where ``problem`` was written, if the
    author wrote it there, as text or as math ending in the same letter and particle."""
    found = problem.found
    forms = [found]
    if found[:1] in TEX_LETTERS:
        rest = found[1:]
        forms += [f"{tex}{close}{rest}" for tex in TEX_LETTERS[found[0]] for close in ("$", "}$")]
    for number, line in enumerate(body.split("\n")):
        if any(form in line for form in forms):
            return number
    return None
