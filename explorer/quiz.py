"""Predict-then-reveal questions: the ``{{< quiz >}} ... {{< /quiz >}}`` block.

An author writes the question, a list of answers with exactly one marked
``[x]``, and an explanation that quotes the build's evidence in a readout::

    {{< quiz >}}
    If ε is halved, what happens to the typical error?
    - [ ] It halves.
    - [x] It doubles.
    - [ ] It stays the same.

    The scale is b = Δ/ε; here b = {{< readout scale >}}.
    {{< /quiz >}}

This module reads that structure and checks it; :mod:`privacy_explorer.markup`
turns each part into HTML (math and readouts included) and the page template
``components.html`` shows it: radio buttons, and an explanation that CSS
reveals once an answer is picked (no JavaScript, no server, nothing recorded).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from privacy_explorer.errors import ContentError

QUIZ_START = re.compile(r"\{\{<\s*quiz\s*>\}\}")
QUIZ_END = re.compile(r"\{\{<\s*/quiz\s*>\}\}")
OPTION = re.compile(r"^\s*[-*]\s+\[(?P<mark>[^\]]*)\]\s*(?P<text>.*)$")
READOUT = re.compile(r"\{\{<\s*readout\s")
MIN_OPTIONS, MAX_OPTIONS = 2, 6


@dataclass(frozen=True)
class QuizOption:
    """One answer a learner can pick."""

    html: str
    """The answer as inline HTML (it may hold math and placeholders of readouts)."""
    correct: bool
    """Whether this is the answer the explanation supports."""


@dataclass(frozen=True)
class Quiz:
    """A question, its answers and the explanation the page reveals after a pick."""

    number: int
    """1-based position among the page's questions (names its radio group)."""
    question: str
    """The question as HTML."""
    options: tuple[QuizOption, ...]
    """The answers, in the author's order."""
    explanation: str
    """The explanation and its evidence as HTML."""


@dataclass(frozen=True)
class QuizSource:
    """The Markdown of a quiz's parts, split and checked, before rendering."""

    question: tuple[tuple[int, str], ...]
    """(line index, text) of the question."""
    options: tuple[tuple[int, str, bool], ...]
    """(line index, text, correct) of each answer."""
    explanation: tuple[tuple[int, str], ...]
    """(line index, text) of the explanation."""


def split_quiz(
    lines: Sequence[tuple[int, str]], start: int, where: Callable[[int], str]
) -> QuizSource:
    """Split the lines between ``{{< quiz >}}`` (at ``start``) and ``{{< /quiz >}}``.

    ``lines`` holds (line index, text) pairs; ``where(index)`` names a line in an
    error. The question comes first, then the answers (``- [ ]`` or ``- [x]``, one
    per line, in one list), then the explanation, which must quote at least one
    readout: the precomputed evidence.
    """
    question: list[tuple[int, str]] = []
    options: list[tuple[int, str, bool]] = []
    explanation: list[tuple[int, str]] = []
    for index, text in lines:
        option = OPTION.match(text)
        if option and not explanation:
            if not question:
                raise ContentError(
                    f"{where(index)}: a quiz starts with its question; write the question "
                    "above the first answer"
                )
            mark = option.group("mark").strip().lower()
            if mark not in ("", "x"):
                raise ContentError(
                    f"{where(index)}: an answer is marked '[{option.group('mark')}]'; "
                    "mark the right answer '[x]' and the others '[ ]'"
                )
            if not option.group("text").strip():
                raise ContentError(f"{where(index)}: an answer has no text; write it after ']'")
            options.append((index, option.group("text").strip(), mark == "x"))
        elif options:
            if text.strip() or explanation:
                explanation.append((index, text))
        elif text.strip() or question:
            question.append((index, text))
    if not options:
        raise ContentError(
            f"{where(start)}: the quiz has no answers; list them as '- [ ] wrong' and "
            "'- [x] right', one per line, below the question"
        )
    if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        raise ContentError(
            f"{where(start)}: the quiz has {len(options)} answer(s); give between "
            f"{MIN_OPTIONS} and {MAX_OPTIONS}"
        )
    right = [index for index, _, correct in options if correct]
    if len(right) != 1:
        raise ContentError(
            f"{where(start)}: the quiz marks {len(right)} answers right; mark exactly one '[x]'"
        )
    if not any(text.strip() for _, text in explanation):
        raise ContentError(
            f"{where(start)}: the quiz has no explanation; write it below the answers, "
            "with the evidence as a {{< readout NAME >}}"
        )
    if not any(READOUT.search(text) for _, text in explanation):
        raise ContentError(
            f"{where(start)}: the quiz's explanation quotes no evidence; put at least one "
            "{{< readout NAME >}} from the build in it"
        )
    return QuizSource(tuple(question), tuple(options), tuple(explanation))
