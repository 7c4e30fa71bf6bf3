"""Lesson 01, memorization: a character n-gram model, a fake canary and its exposure.

The training text is the first 100 lines of the Korean Constitution (the
preamble and Articles 1–39, ``data/constitution-ko.txt``), used as a sequence of
characters only. Into it go whole extra lines, each placed right after a statute
line:

* the canary ``비밀 코드는 7391이다.``: a made-up sentence whose secret is the
  four-digit code :data:`SECRET_CODE` after the fixed :data:`PREFIX`, inserted
  ``repeats`` times (0, 1, 5 or 20);
* the competing strings of :data:`COMPETITORS`: other codes between 7000 and
  7999 after the same or similar prefixes, always present, so that a model with
  a short context cannot tell them from the canary.

Placement: a generator seeded with :data:`PLACEMENT_SEED` shuffles the 100
places "after statute line i" once. The competing lines take the first places
(in the order of :data:`COMPETITORS`), the canary copies the next
:data:`MAX_REPEATS`; copy ``k`` always goes to the same place, so the text for
``repeats = 5`` is the text for ``repeats = 1`` plus four lines. No place gets
two lines, and every inserted line starts right after a newline.

A :class:`~compute.ngram.CharNGram` model with context length ``n`` (the
library's :mod:`compute.ngram`) is then trained on that text with add-0.1
smoothing::

    P(c | h) = (N(h, c) + 0.1) / (N(h) + 0.1·|V|)

``V`` is the set of characters in the training text. Probabilities are exact
fractions, so candidates with equal counts get bit-identical scores and a tie
is never broken by rounding.

Measures
--------
The candidates ``R`` are the 1,000 codes :data:`FIRST_CANDIDATE` …
:data:`LAST_CANDIDATE`. A candidate's score is the log-likelihood of its four
digits after the canary's line start ``"\\n" + PREFIX``. The canary's rank counts
every candidate scoring at least as high as the canary, itself included
(:func:`~compute.ngram.worst_rank`), and its exposure is ``log2 |R| − log2 rank``
(:func:`~compute.ngram.exposure`). A model that has not memorized the canary
gives it a rank that is, at best, uniformly random: its expected exposure is
:func:`~compute.ngram.chance_exposure`.

The greedy continuation writes four characters after the same line start, each
time taking the character seen most often after the current context; among
equally frequent characters the one with the smallest Unicode code point wins
(:meth:`~compute.ngram.CharNGram.greedy`). In an unseen context every character has count 0,
so the newline (U+000A, the smallest code point in the text) wins.

This is a character counter, not a large language model; its numbers say
nothing about how often real language models leak training data.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import altair as alt
import numpy as np

from privacy_explorer.compute.datasets import DATA_DIR, load_constitution
from privacy_explorer.compute.lessons import memorization_charts
from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    GREEN,
    GREY,
    INK,
    SKY_BLUE,
    VALUE_SIZE,
    VERMILLION,
    Align,
    across,
    in_language,
    integer_axis,
    layered,
    legend_above,
    titled,
)
from privacy_explorer.compute.ngram import (
    CharNGram,
    Step,
    chance_exposure,
    exposure,
    log_fraction,
    tie_count,
    worst_rank,
)
from privacy_explorer.lesson import Chart, Column, Grid, Param, Readout, Table, chart_number

DATA_FILES: tuple[str, ...] = ("constitution-ko.txt",)

SMOOTHING = Fraction(1, 10)
"""The add-α constant of the smoothed estimate, kept exact."""
PREFIX = "비밀 코드는 "
"""What the canary says before its code (ends with a space)."""
SECRET_CODE = "7391"
"""The fake secret: not anyone's real code or personal data."""
LINE_END = "이다."
"""What follows the code on every inserted line."""
LINE_START = "\n"
"""Every inserted line follows a newline, so scoring starts from this character."""
FIRST_CANDIDATE = 7000
LAST_CANDIDATE = 7999
CANDIDATE_COUNT = LAST_CANDIDATE - FIRST_CANDIDATE + 1
CONTEXT_LENGTHS: tuple[int, ...] = tuple(range(1, 9))
REPEATS: tuple[int, ...] = (0, 1, 5, 20)
MAX_REPEATS = max(REPEATS)
DEFAULT_CONTEXT_LENGTH = 3
DEFAULT_REPEATS = 5
PLACEMENT_SEED = 2019
"""Seed that shuffles the insertion places; the year of "The Secret Sharer", otherwise arbitrary."""
TOP_COUNT = 10
"""How many best-scoring candidates the top-candidates chart lists."""
VISIBLE_WHITESPACE = {" ": "␣", "\n": "↵"}
"""How a space and a newline are drawn when a continuation is shown."""


@dataclass(frozen=True)
class Competitor:
    """A competing line put into every training text, ``times`` times."""

    prefix: str
    """The words before the code (ending with a space)."""
    code: str
    """A code from the candidate range other than the secret."""
    times: int
    """How many copies of the line the training text holds."""

    @property
    def line(self) -> str:
        """The sentence as inserted, without its newline."""
        return f"{self.prefix}{self.code}{LINE_END}"


COMPETITORS: tuple[Competitor, ...] = (
    # Shares the whole prefix "비밀 코드는 ": confusable at every n for the second digit.
    Competitor("새 비밀 코드는 ", "7520", 2),
    # Shares only "는 " with the prefix but the digits "739" with the code.
    Competitor("금고 번호는 ", "7395", 6),
    # Shares "는 " and the digit pair "39"; its line goes on with "이" after "39".
    Competitor("출입 번호는 ", "7139", 7),
    # Shares "는 " and the leading "71" with the line above.
    Competitor("방 번호는 ", "7106", 3),
)
"""The synthetic competing strings, documented on the page."""


# --- The training text ----------------------------------------------------------


def candidates() -> tuple[str, ...]:
    """The candidate codes ``R``: every four-digit string from 7000 to 7999, in order."""
    return tuple(str(code) for code in range(FIRST_CANDIDATE, LAST_CANDIDATE + 1))


def canary_line() -> str:
    """The canary sentence as inserted, without its newline."""
    return f"{PREFIX}{SECRET_CODE}{LINE_END}"


def insertion_places(line_count: int, seed: int = PLACEMENT_SEED) -> tuple[list[int], list[int]]:
    """Where the competing lines and the canary copies go.

    Returns the statute line after which each competing line goes (in the order
    of :data:`COMPETITORS`, each repeated ``times``) and the line after which
    canary copy ``k`` goes, for ``k`` up to :data:`MAX_REPEATS`. All places differ.
    """
    competing = sum(competitor.times for competitor in COMPETITORS)
    if competing + MAX_REPEATS > line_count:
        raise ValueError(f"{competing + MAX_REPEATS} inserted lines need as many statute lines")
    order = [int(place) for place in np.random.default_rng(seed).permutation(line_count)]
    return order[:competing], order[competing : competing + MAX_REPEATS]


def training_text(statute: str, repeats: int, seed: int = PLACEMENT_SEED) -> str:
    """The statute with the competing lines and ``repeats`` canary copies inserted.

    Parameters
    ----------
    statute
        The statute excerpt, lines ending with ``\\n``.
    repeats
        How many copies of the canary to insert, 0 to :data:`MAX_REPEATS`.
    seed
        Seed of the shuffle that picks the places (see :func:`insertion_places`).
    """
    if not 0 <= repeats <= MAX_REPEATS:
        raise ValueError(f"repeats must be between 0 and {MAX_REPEATS}, got {repeats!r}")
    lines = statute.splitlines(keepends=True)
    competing_places, canary_places = insertion_places(len(lines), seed)
    inserted: dict[int, str] = {}
    competing_lines = [c.line for c in COMPETITORS for _ in range(c.times)]
    for place, line in zip(competing_places, competing_lines, strict=True):
        inserted[place] = line
    for place in canary_places[:repeats]:
        inserted[place] = canary_line()
    out: list[str] = []
    for number, line in enumerate(lines):
        out.append(line)
        if number in inserted:
            out.append(inserted[number] + "\n")
    return "".join(out)


@functools.cache
def statute_text(data_dir: Path = DATA_DIR) -> str:
    """The verified statute excerpt, read once per process."""
    return load_constitution(data_dir)


def shown(text: str) -> str:
    """``text`` with spaces and newlines drawn as visible marks (``␣``, ``↵``)."""
    return "".join(VISIBLE_WHITESPACE.get(char, char) for char in text)


def common_ending(first: str, second: str) -> str:
    """The longest string both ``first`` and ``second`` end with."""
    length = 0
    while length < min(len(first), len(second)) and first[-1 - length] == second[-1 - length]:
        length += 1
    return first[len(first) - length :]


def longest_common_piece(first: str, second: str) -> str:
    """The longest substring of ``first`` also found in ``second`` (the earliest if several)."""
    best = ""
    for start in range(len(first)):
        for end in range(start + len(best) + 1, len(first) + 1):
            if first[start:end] in second:
                best = first[start:end]
    return best


# --- One grid point -----------------------------------------------------------


def score_candidates(model: CharNGram, codes: Sequence[str]) -> list[Fraction]:
    """The exact likelihood of each code after the canary's line start."""
    history = LINE_START + PREFIX
    return [model.likelihood(history, code) for code in codes]


NEXT_CHAR_COUNT = 15
"""How many of the most probable next characters the fork chart shows."""
QUESTION_POINT: dict[str, int] = {"n": 3, "repeats": 1}
"""The grid point of the prediction question "r = 1, n = 3: will greedy write 7391?"."""


def fork_position(continuation: str, steps: Sequence[Step]) -> int:
    """The 0-based digit position where the greedy continuation first leaves the secret code
    (the fork where another character wins), or, when it writes the whole code, the position
    of the digit the model expected least (where the canary wins by the smallest margin)."""
    for position, (written, secret) in enumerate(zip(continuation, SECRET_CODE, strict=True)):
        if written != secret:
            return position
    return min(range(len(steps)), key=lambda i: (steps[i].log_prob, i))


def next_char_rows(model: CharNGram, history: str, secret_char: str) -> list[dict[str, Any]]:
    """The :data:`NEXT_CHAR_COUNT` most probable characters after ``history`` (and the secret
    code's character there, if it is not among them): count, probability and role."""
    ranked = model.distribution(history)
    shown_rows = list(enumerate(ranked[:NEXT_CHAR_COUNT], start=1))
    if all(char != secret_char for _, (char, _, _) in shown_rows):
        place = next(i for i, (char, _, _) in enumerate(ranked, start=1) if char == secret_char)
        shown_rows.append((place, ranked[place - 1]))
    greedy_char = ranked[0][0]
    return [
        {
            "place": place,
            "char": shown(char),
            "count": count,
            "probability": chart_number(float(probability)),
            "role": (
                "both"
                if char == secret_char == greedy_char
                else "canary"
                if char == secret_char
                else "greedy"
                if char == greedy_char
                else "other"
            ),
        }
        for place, (char, count, probability) in shown_rows
    ]


@functools.cache
def question_readouts() -> dict[str, Any]:
    """The prediction question's answer, computed at :data:`QUESTION_POINT` (the same on every
    grid point's page): what greedy writes there and whether it is the secret code."""
    text = training_text(statute_text(), QUESTION_POINT["repeats"])
    model = CharNGram.train(text, QUESTION_POINT["n"], SMOOTHING)
    written = model.greedy(LINE_START + PREFIX, len(SECRET_CODE))
    return {
        "question_continuation": shown(written),
        "question_writes_secret": written == SECRET_CODE,
        "question_n": QUESTION_POINT["n"],
        "question_repeats": QUESTION_POINT["repeats"],
    }


def compute(*, n: int, repeats: int) -> dict[str, dict[str, Any]]:
    """Everything the lesson page shows for one grid point.

    Parameters
    ----------
    n
        Context length of the character model, at least 1.
    repeats
        Copies of the canary in the training text, 0 to :data:`MAX_REPEATS`.

    Returns
    -------
    dict
        ``{"readouts": ..., "datasets": ...}``: readouts at full precision,
        chart scores rounded to six significant digits
        (:func:`~privacy_explorer.lesson.chart_number`).
    """
    statute = statute_text()
    text = training_text(statute, repeats)
    model = CharNGram.train(text, n, SMOOTHING)
    codes = candidates()
    canary_index = codes.index(SECRET_CODE)
    likelihoods = score_candidates(model, codes)
    scores = [log_fraction(likelihood) for likelihood in likelihoods]
    rank = worst_rank(scores, canary_index)
    history = LINE_START + PREFIX
    continuation = model.greedy(history, len(SECRET_CODE))
    matching = sum(a == b for a, b in zip(continuation, SECRET_CODE, strict=True))

    # Best first; equal scores in code order, for display only (ranks use worst_rank).
    order = sorted(range(len(codes)), key=lambda i: (-scores[i], codes[i]))
    rank_of = {score: sum(1 for other in scores if other >= score) for score in set(scores)}
    top = order[:TOP_COUNT]
    if canary_index not in top:
        top.append(canary_index)

    steps = model.steps(history, SECRET_CODE)
    weakest = min(range(len(steps)), key=lambda i: (steps[i].log_prob, i))
    fork = fork_position(continuation, steps)
    fork_history = history + SECRET_CODE[:fork]
    fork_rows = next_char_rows(model, fork_history, SECRET_CODE[fork])
    question = question_readouts()
    readouts: dict[str, Any] = {
        "fork_position": fork + 1,
        "fork_context": shown(model.context_of(fork_history)),
        "fork_greedy_char": shown(model.next_char(fork_history)),
        "fork_secret_char": SECRET_CODE[fork],
        "question_continuation": question["question_continuation"],
        "question_n": question["question_n"],
        "question_repeats": question["question_repeats"],
        "weakest_position": weakest + 1,
        "weakest_digit": steps[weakest].char,
        "weakest_log_prob": steps[weakest].log_prob,
        "unseen_log_prob": -math.log(len(model.vocabulary)),
        "exposure": exposure(scores, canary_index),
        "rank": rank,
        "ties": tie_count(scores, canary_index),
        "continuation": shown(continuation),
        "matching_digits": matching,
        "canary_score": scores[canary_index],
        "best_candidate": codes[order[0]],
        "best_score": scores[order[0]],
        "first_digit_context": shown(model.context_of(history)),
        "last_digit_context": shown(model.context_of(history + SECRET_CODE[:-1])),
        "training_characters": len(text),
        "vocabulary_size": len(model.vocabulary),
        **static_readouts(statute),
    }
    ladder = []
    for score in sorted(set(scores), reverse=True):
        worst = rank_of[score]
        tied = sum(1 for other in scores if other == score)
        ladder.append(
            {
                "score": chart_number(score),
                "best_rank": worst - tied + 1,
                "worst_rank": worst,
                "candidates": tied,
                "canary": score == scores[canary_index],
            }
        )
    top_rows = [
        {
            "position": position,
            "code": codes[i],
            "score": chart_number(scores[i]),
            "rank": rank_of[scores[i]],
            "canary": i == canary_index,
        }
        for position, i in enumerate(top, start=1)
    ]
    datasets = {
        "score_ladder": ladder,
        "top_candidates": top_rows,
        "digit_steps": digit_step_rows(steps),
        "next_chars": fork_rows,
    }
    return {"readouts": readouts, "datasets": datasets}


def digit_step_rows(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per digit of the secret code: its context, the two counts and ``ln P``.

    ``probability`` is rounded for the table (four significant digits) and
    ``log_prob`` for the chart (:func:`~privacy_explorer.lesson.chart_number`);
    the counts are exact. ``context`` shows a space as ␣ and a newline as ↵.
    """
    return [
        {
            "position": position,
            "digit": step.char,
            "context": shown(step.context),
            "pair_count": step.pair_count,
            "context_count": step.context_count,
            "probability": float(f"{float(step.probability):.4g}"),
            "log_prob": chart_number(step.log_prob),
        }
        for position, step in enumerate(steps, start=1)
    ]


def static_readouts(statute: str) -> dict[str, Any]:
    """Readouts that do not depend on the grid point: the setup of the experiment."""
    codes = candidates()
    readouts: dict[str, Any] = {
        "canary": canary_line(),
        "prefix": PREFIX.rstrip(),
        "secret_code": SECRET_CODE,
        "code_length": len(SECRET_CODE),
        "candidate_count": len(codes),
        "first_candidate": codes[0],
        "last_candidate": codes[-1],
        "max_exposure": math.log2(len(codes)),
        "chance_exposure": chance_exposure(len(codes)),
        "smoothing": float(SMOOTHING),
        "statute_characters": len(statute),
        "statute_lines": len(statute.splitlines()),
        "max_repeats": MAX_REPEATS,
    }
    line_start = LINE_START + PREFIX
    for number, competitor in enumerate(COMPETITORS, start=1):
        shared = common_ending(line_start, LINE_START + competitor.prefix)
        readouts[f"competitor_{number}"] = competitor.line
        readouts[f"competitor_{number}_times"] = competitor.times
        readouts[f"competitor_{number}_digits"] = longest_common_piece(competitor.code, SECRET_CODE)
        readouts[f"competitor_{number}_shared"] = {
            "ko": f"「{shown(shared)}」 {len(shared)}자",
            "en": f"“{shown(shared)}”, {len(shared)} characters",
        }
    return readouts


def summarize(results: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Exposure and rank at every grid point, and the two reference levels."""
    rows = []
    for point in GRID:
        readouts = results[GRID.key(point)]["readouts"]
        rows.append(
            {
                "n": point["n"],
                "repeats": point["repeats"],
                "exposure": chart_number(readouts["exposure"]),
                "rank": readouts["rank"],
                "ties": readouts["ties"],
            }
        )
    count = len(candidates())
    references = [
        {"reference": "max", "bits": chart_number(math.log2(count))},
        {"reference": "chance", "bits": chart_number(chance_exposure(count))},
    ]
    return {"exposure_grid": rows, "exposure_references": references}


# --- What the page shows ------------------------------------------------------

GRID = Grid(
    (
        Param(
            "n",
            CONTEXT_LENGTHS,
            DEFAULT_CONTEXT_LENGTH,
            {"ko": "문맥 길이 n (글자)", "en": "Context length n (characters)"},
        ),
        Param(
            "repeats",
            REPEATS,
            DEFAULT_REPEATS,
            {"ko": "카나리아 반복 r", "en": "Canary repeats r"},
            value_labels={
                "ko": tuple(f"{r}번" for r in REPEATS),
                "en": ("none", "once", "5 times", "20 times"),
            },
        ),
    )
)

_BITS = {"ko": "비트", "en": "bits"}


def _competitor_readouts() -> tuple[Readout, ...]:
    readouts: list[Readout] = []
    for number in range(1, len(COMPETITORS) + 1):
        readouts += [
            Readout(
                f"competitor_{number}",
                {"ko": f"경쟁 문장 {number}", "en": f"Competing line {number}"},
            ),
            Readout(
                f"competitor_{number}_times",
                {
                    "ko": f"경쟁 문장 {number}의 삽입 횟수",
                    "en": f"Copies of competing line {number}",
                },
                "d",
            ),
            Readout(
                f"competitor_{number}_digits",
                {
                    "ko": f"경쟁 문장 {number}의 코드가 비밀 코드와 함께 가진 가장 긴 숫자 조각",
                    "en": f"Longest digit run that competing line {number} shares with the secret",
                },
            ),
            Readout(
                f"competitor_{number}_shared",
                {
                    "ko": f"경쟁 문장 {number}의 코드 앞에서 카나리아 줄과 같은 끝부분",
                    "en": f"Line start that competing line {number} shares with the canary",
                },
            ),
        ]
    return tuple(readouts)


READOUTS: tuple[Readout, ...] = (
    Readout("exposure", {"ko": "노출 점수", "en": "Exposure"}, ".2f", _BITS),
    Readout(
        "rank",
        {"ko": "카나리아의 순위 (동점은 가장 나쁜 순위)", "en": "Canary rank (worst among ties)"},
        ",d",
    ),
    Readout(
        "ties",
        {"ko": "카나리아와 동점인 다른 후보 수", "en": "Other candidates tied with the canary"},
        ",d",
    ),
    Readout(
        "continuation",
        {"ko": "접두사 뒤 탐욕 디코딩", "en": "Greedy continuation after the prefix"},
    ),
    Readout(
        "fork_position",
        {"ko": "갈림길의 자리 (몇 번째 숫자)", "en": "Position of the fork (which digit)"},
        "d",
    ),
    Readout("fork_context", {"ko": "갈림길의 문맥", "en": "Context at the fork"}),
    Readout(
        "fork_greedy_char",
        {"ko": "갈림길에서 탐욕 디코딩이 고르는 글자", "en": "Character greedy picks at the fork"},
    ),
    Readout(
        "fork_secret_char",
        {"ko": "갈림길에서 비밀 코드의 숫자", "en": "The secret code's digit at the fork"},
    ),
    Readout(
        "question_continuation",
        {
            "ko": "r = 1, n = 3에서 탐욕 디코딩이 쓰는 글자",
            "en": "What greedy writes at r = 1, n = 3",
        },
    ),
    Readout(
        "question_n", {"ko": "질문의 문맥 길이 n", "en": "The question's context length n"}, "d"
    ),
    Readout("question_repeats", {"ko": "질문의 반복 r", "en": "The question's repeats r"}, "d"),
    Readout(
        "matching_digits",
        {"ko": "비밀 코드와 일치한 자리 수", "en": "Positions matching the secret code"},
        "d",
    ),
    Readout(
        "canary_score",
        {"ko": "카나리아 코드의 로그 가능도", "en": "Log-likelihood of the canary code"},
        ".2f",
    ),
    Readout(
        "weakest_position",
        {"ko": "모델이 가장 덜 예상한 숫자의 자리", "en": "Position of the least expected digit"},
        "d",
    ),
    Readout(
        "weakest_digit", {"ko": "모델이 가장 덜 예상한 숫자", "en": "The least expected digit"}
    ),
    Readout(
        "weakest_log_prob",
        {"ko": "그 숫자의 로그 확률", "en": "Log-probability of that digit"},
        ".2f",
    ),
    Readout(
        "unseen_log_prob",
        {
            "ko": "처음 보는 문맥에서 모든 글자가 받는 로그 확률 ln(1/|V|)",
            "en": "Log-probability of every character in an unseen context, ln(1/|V|)",
        },
        ".2f",
    ),
    Readout("best_candidate", {"ko": "점수가 가장 높은 후보", "en": "Best-scoring candidate"}),
    Readout("best_score", {"ko": "가장 높은 로그 가능도", "en": "Highest log-likelihood"}, ".2f"),
    Readout(
        "first_digit_context", {"ko": "첫 숫자 앞의 문맥", "en": "Context before the first digit"}
    ),
    Readout(
        "last_digit_context", {"ko": "마지막 숫자 앞의 문맥", "en": "Context before the last digit"}
    ),
    Readout(
        "training_characters",
        {"ko": "학습 텍스트 글자 수", "en": "Characters of training text"},
        ",d",
    ),
    Readout("vocabulary_size", {"ko": "어휘 크기 |V|", "en": "Vocabulary size |V|"}, ",d"),
    Readout("canary", {"ko": "카나리아 문장", "en": "Canary sentence"}),
    Readout("prefix", {"ko": "접두사", "en": "Prefix"}),
    Readout("secret_code", {"ko": "가짜 비밀 코드", "en": "Fake secret code"}),
    Readout("code_length", {"ko": "코드 자릿수", "en": "Digits in the code"}, "d"),
    Readout("candidate_count", {"ko": "후보 수 |R|", "en": "Number of candidates |R|"}, ",d"),
    Readout("first_candidate", {"ko": "첫 후보", "en": "First candidate"}),
    Readout("last_candidate", {"ko": "마지막 후보", "en": "Last candidate"}),
    Readout(
        "max_exposure",
        {"ko": "최대 노출 점수 log₂|R|", "en": "Largest exposure log₂|R|"},
        ".2f",
        _BITS,
    ),
    Readout(
        "chance_exposure",
        {"ko": "우연 수준의 기대 노출 점수", "en": "Expected exposure by chance"},
        ".2f",
        _BITS,
    ),
    Readout("smoothing", {"ko": "평활 상수", "en": "Smoothing constant"}, ".1f"),
    Readout(
        "statute_characters",
        {"ko": "법령 발췌 글자 수", "en": "Characters of the statute excerpt"},
        ",d",
    ),
    Readout("statute_lines", {"ko": "법령 발췌 줄 수", "en": "Lines of the statute excerpt"}, ",d"),
    Readout("max_repeats", {"ko": "최대 반복 횟수", "en": "Most canary copies"}, "d"),
    *_competitor_readouts(),
)


# --- Charts -------------------------------------------------------------------

HEIGHT = 260
"""The plot height of this lesson's charts, a little more than the shared one."""
REPEAT_COLOURS = [GREY, SKY_BLUE, BLUE, GREEN]
"""One colour per number of repeats, darker for more copies of the canary."""
REPEAT_DASHES: list[list[float]] = [[2, 3], [6, 3], [10, 3, 2, 3], [1, 0]]
"""One dash per number of repeats, so the lines differ without colour too."""
REFERENCE_DASH: list[float] = [4, 4]
"""The dash of the maximum and chance levels, unlike any line of the grid."""

_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "exposure": {
        "title": {
            "ko": "문맥 길이 n과 반복 r에 따른 노출 점수",
            "en": "Exposure across context length n and repeats r",
        },
        "takeaway": {
            "ko": "카나리아를 많이 반복할수록 노출 점수가 최댓값에 가까워진다",
            "en": "The more copies of the canary, the closer its exposure comes to the maximum",
        },
        "x": {"ko": "문맥 길이 n (글자)", "en": "Context length n (characters)"},
        "y": {"ko": "노출 점수 (비트)", "en": "Exposure (bits)"},
        "legend": {"ko": "반복 r", "en": "Repeats r"},
        "max": {"ko": "최댓값 log₂|R|", "en": "maximum log₂|R|"},
        "chance": {"ko": "우연 수준", "en": "chance level"},
        "rank": {"ko": "순위", "en": "Rank"},
        "ties": {"ko": "동점", "en": "Ties"},
    },
    "ladder": {
        "title": {
            "ko": f"후보 {CANDIDATE_COUNT:,}개의 점수와 순위 (주황: 카나리아)",
            "en": f"Scores and ranks of all {CANDIDATE_COUNT:,} candidates (orange: the canary)",
        },
        "takeaway": {
            "ko": "카나리아의 순위가 절반으로 줄 때마다 노출 점수가 한 비트씩 오른다",
            "en": "Each time the canary's rank halves, its exposure gains one bit",
        },
        "x": {
            "ko": "순위 (로그 눈금, 동점은 가장 나쁜 순위)",
            "en": "Rank (log scale, worst among ties)",
        },
        "y": {"ko": "로그 가능도 ln P", "en": "Log-likelihood ln P"},
        "candidates": {"ko": "후보 수", "en": "Candidates"},
        "best": {"ko": "가장 좋은 순위", "en": "Best rank"},
    },
    "next": {
        "title": {
            "ko": "갈림길에서 다음 글자의 확률 (상위 15개, 주황: 비밀 코드의 숫자)",
            "en": "Next-character probabilities at the fork (top 15; orange: the secret digit)",
        },
        "takeaway": {
            "ko": "탐욕 디코딩은 가장 긴 막대를 고른다. "
            "주황 막대가 가장 길어야 비밀 코드가 이어진다",
            "en": "Greedy decoding takes the longest bar: "
            "the secret goes on only where the orange bar is longest",
        },
        "x": {"ko": "확률 P(c | h)", "en": "Probability P(c | h)"},
        "y": {"ko": "다음 글자 c", "en": "Next character c"},
        "count": {"ko": "개수 N(h, c)", "en": "Count N(h, c)"},
        "place": {"ko": "순위", "en": "Place"},
    },
    "top": {
        "title": {
            "ko": "점수가 가장 높은 후보와 카나리아",
            "en": "The best-scoring candidates and the canary",
        },
        "takeaway": {
            "ko": "카나리아가 위에 있을수록 모델은 다른 코드보다 그것을 더 그럴듯하게 본다",
            "en": "The higher the canary on this list, "
            "the more the model prefers it to other codes",
        },
        "x": {"ko": "로그 가능도 ln P", "en": "Log-likelihood ln P"},
        "y": {"ko": "후보 코드", "en": "Candidate code"},
        "rank": {"ko": "순위", "en": "Rank"},
    },
}


def exposure_chart(lang: str) -> alt.LayerChart:
    """Exposure for every n and r, with reference levels; the current point is ringed.

    Declares the Vega-Lite params ``n`` and ``repeats``, which the page keeps
    equal to the current grid point.
    """
    text = in_language(_TEXT["exposure"], lang)
    current_n = alt.param(name="n", value=DEFAULT_CONTEXT_LENGTH)
    current_repeats = alt.param(name="repeats", value=DEFAULT_REPEATS)
    x = alt.X(
        "n:Q",
        title=text["x"],
        scale=alt.Scale(domain=[0.7, max(CONTEXT_LENGTHS) + 0.3], nice=False, zero=False),
        axis=integer_axis(CONTEXT_LENGTHS),
    )
    y = alt.Y("exposure:Q", title=text["y"], scale=alt.Scale(domain=[0, 11.5], nice=False))
    legend = legend_above(text["legend"], lines=True)
    colour = alt.Color(
        "repeats:O", scale=alt.Scale(domain=list(REPEATS), range=REPEAT_COLOURS), legend=legend
    )
    dash = alt.StrokeDash(
        "repeats:O", scale=alt.Scale(domain=list(REPEATS), range=REPEAT_DASHES), legend=legend
    )
    tooltip = [
        alt.Tooltip("n:Q", title="n"),
        alt.Tooltip("repeats:O", title="r"),
        alt.Tooltip("exposure:Q", title=text["y"], format=".2f"),
        alt.Tooltip("rank:Q", title=text["rank"]),
        alt.Tooltip("ties:Q", title=text["ties"]),
    ]
    grid_rows = alt.Chart(alt.Data(name="exposure_grid"))
    lines = grid_rows.mark_line(strokeWidth=2).encode(x=x, y=y, color=colour, strokeDash=dash)
    points = grid_rows.mark_point(filled=True, size=40).encode(
        x=x, y=y, color=colour, tooltip=tooltip
    )
    ring = (
        grid_rows.transform_filter(
            (alt.datum.n == current_n) & (alt.datum.repeats == current_repeats)
        )
        .mark_point(shape="circle", size=320, filled=False, strokeWidth=2.5, color=VERMILLION)
        # The tooltip names r too, so the ring reads differently where two lines meet.
        .encode(x=x, y=y, tooltip=tooltip)
    )
    references = alt.Chart(alt.Data(name="exposure_references")).transform_calculate(
        label=f"datum.reference === 'max' ? '{text['max']}' : '{text['chance']}'"
    )
    rules = references.mark_rule(color=INK, strokeDash=REFERENCE_DASH).encode(
        y=alt.Y("bits:Q", title=text["y"])
    )
    # Each rule is labelled just above it where no line of the grid crosses: the maximum
    # mid-plot (clear of the ring at either end), the chance level at the right end.
    placements: tuple[tuple[str, Align, alt.ExprRef], ...] = (
        ("max", "center", across(0.5)),
        ("chance", "right", across(1, -4)),
    )
    rule_labels = [
        references.transform_filter(f"datum.reference === '{which}'")
        .mark_text(align=align, baseline="bottom", dy=-3, x=at, color=INK, fontSize=ANNOTATION_SIZE)
        .encode(y=alt.Y("bits:Q", title=text["y"]), text="label:N")
        for which, align, at in placements
    ]
    layers = layered(rules, *rule_labels, lines, points, ring)
    return titled(
        layers.add_params(current_n, current_repeats),
        text["title"],
        takeaway=text["takeaway"],
        height=HEIGHT,
    )


def ladder_chart(lang: str) -> alt.LayerChart:
    """Each distinct candidate score against its rank; tied ranks form a bar, the canary orange."""
    text = in_language(_TEXT["ladder"], lang)
    x = alt.X(
        "worst_rank:Q",
        title=text["x"],
        scale=alt.Scale(type="log", base=2, domain=[0.8, 1.25 * CANDIDATE_COUNT], nice=False),
        axis=alt.Axis(
            values=[2**k for k in range((CANDIDATE_COUNT - 1).bit_length())] + [CANDIDATE_COUNT],
            format=",d",
        ),
    )
    y = alt.Y("score:Q", title=text["y"], scale=alt.Scale(zero=False))
    base = alt.Chart(alt.Data(name="score_ladder"))
    tooltip = [
        alt.Tooltip("score:Q", title=text["y"], format=".3f"),
        alt.Tooltip("best_rank:Q", title=text["best"]),
        alt.Tooltip("worst_rank:Q", title=text["x"]),
        alt.Tooltip("candidates:Q", title=text["candidates"]),
    ]
    spans = base.mark_rule(strokeWidth=3, color=GREY).encode(
        x=alt.X("best_rank:Q"), x2="worst_rank:Q", y=y
    )
    dots = (
        base.transform_filter(~alt.datum.canary)
        .mark_point(filled=True, size=18, color=GREY, opacity=0.8)
        .encode(x=x, y=y, tooltip=tooltip)
    )
    canary = base.transform_filter(alt.datum.canary)
    canary_span = canary.mark_rule(strokeWidth=4, color=VERMILLION).encode(
        x=alt.X("best_rank:Q"), x2="worst_rank:Q", y=y
    )
    canary_dot = canary.mark_point(filled=True, size=110, color=VERMILLION, opacity=1).encode(
        x=x, y=y, tooltip=tooltip
    )
    # Centred above the point: the scale's margins keep it inside at rank 1 and at the last rank.
    canary_label = canary.mark_text(
        align="center",
        baseline="bottom",
        dy=-8,
        color=VERMILLION,
        fontSize=VALUE_SIZE,
        fontWeight="bold",
    ).encode(x=x, y=y, text=alt.value(SECRET_CODE))
    layers = layered(spans, dots, canary_span, canary_dot, canary_label)
    return titled(layers, text["title"], takeaway=text["takeaway"], height=HEIGHT)


def top_chart(lang: str) -> alt.LayerChart:
    """The best-scoring candidates (and the canary, if it is not among them) by score."""
    text = in_language(_TEXT["top"], lang)
    y = alt.Y(
        "code:N",
        title=text["y"],
        sort=alt.EncodingSortField(field="position", order="ascending"),
    )
    # 40 pixels of padding leave room for the score printed right of the best candidate.
    x = alt.X("score:Q", title=text["x"], scale=alt.Scale(zero=False, padding=40))
    colour = alt.condition(alt.datum.canary, alt.value(VERMILLION), alt.value(INK))
    base = alt.Chart(alt.Data(name="top_candidates"))
    tooltip = [
        alt.Tooltip("code:N", title=text["y"]),
        alt.Tooltip("score:Q", title=text["x"], format=".3f"),
        alt.Tooltip("rank:Q", title=text["rank"]),
    ]
    dots = base.mark_point(filled=True, size=80, opacity=1).encode(
        x=x, y=y, color=colour, tooltip=tooltip
    )
    scores = base.mark_text(align="left", dx=8, fontSize=ANNOTATION_SIZE).encode(
        x=x, y=y, color=colour, text=alt.Text("score:Q", format=".2f")
    )
    return titled(layered(dots, scores), text["title"], takeaway=text["takeaway"], height=HEIGHT)


def next_chart(lang: str) -> alt.LayerChart:
    """The most probable next characters at the fork, as bars: the secret code's digit orange,
    the character greedy picks (the longest bar) dark, with each bar's count beside it."""
    text = in_language(_TEXT["next"], lang)
    y = alt.Y(
        "char:N",
        title=text["y"],
        sort=alt.EncodingSortField(field="place", op="min", order="ascending"),
    )
    x = alt.X(
        "probability:Q",
        title=text["x"],
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(tickCount=10),  # twenty ticks ran their labels together
    )
    colour = alt.condition(
        "datum.role === 'canary' || datum.role === 'both'", alt.value(VERMILLION), alt.value(INK)
    )
    base = alt.Chart(alt.Data(name="next_chars"))
    tooltip = [
        alt.Tooltip("char:N", title=text["y"]),
        alt.Tooltip("probability:Q", title=text["x"], format=".4f"),
        alt.Tooltip("count:Q", title=text["count"]),
        alt.Tooltip("place:Q", title=text["place"]),
    ]
    bars = base.mark_bar().encode(x=x, y=y, color=colour, tooltip=tooltip)
    counts = base.mark_text(align="left", dx=4, fontSize=ANNOTATION_SIZE).encode(
        x=x, y=y, color=colour, text=alt.Text("count:Q")
    )
    return titled(layered(bars, counts), text["title"], takeaway=text["takeaway"], height=HEIGHT)


CHARTS: tuple[Chart, ...] = (
    Chart(
        "exposure",
        exposure_chart,
        {
            "ko": "문맥 길이 n(가로축)과 카나리아 반복 r(선)마다 노출 점수를 그리고, "
            "지금 고른 점을 주황 고리로 표시한다. 점선은 최댓값과 우연 수준이다.",
            "en": "Exposure for each context length n (across) and canary repeats r (lines), "
            "with the current point ringed in orange; dashed lines mark the maximum "
            "and the chance level.",
        },
    ),
    Chart(
        "ladder",
        ladder_chart,
        {
            "ko": f"후보 {CANDIDATE_COUNT:,}개의 로그 가능도를 순위에 따라 그린다. 동점인 후보들은 "
            "가로 막대로 이어지고, 카나리아는 주황색이다.",
            "en": f"The log-likelihood of all {CANDIDATE_COUNT:,} candidates against their "
            "rank; tied candidates form a horizontal bar, and the canary is orange.",
        },
    ),
    Chart(
        "top",
        top_chart,
        {
            "ko": "로그 가능도가 가장 높은 후보들을 점수와 함께 위에서부터 나열하고, "
            "카나리아는 주황색으로 표시한다.",
            "en": "The candidates with the highest log-likelihood, best first, with their "
            "scores; the canary is orange.",
        },
    ),
    Chart(
        "next",
        next_chart,
        {
            "ko": "탐욕 디코딩이 비밀 코드에서 갈라지는 자리(다 맞히면 카나리아가 가장 덜 "
            "예상된 자리)에서, 확률이 가장 높은 다음 글자 15개를 막대로 그리고 개수 N(h, c)를 "
            "적는다. 비밀 코드의 숫자는 주황색이다.",
            "en": "At the position where greedy decoding leaves the secret code (or, when it "
            "writes all of it, where the canary's digit was least expected), the 15 most "
            "probable next characters as bars labelled with their counts N(h, c); the secret "
            "code's digit is orange.",
        },
    ),
    Chart(
        "digits",
        memorization_charts.digits_chart,
        {
            "ko": "비밀 코드의 네 숫자 하나하나에 모델이 주는 로그 확률 ln P를 막대로 그리고, "
            "막대마다 그 확률을 만든 두 개수 N(h, c)와 N(h)를 적는다.",
            "en": "The log-probability ln P that the model gives each of the secret code's four "
            "digits, as bars, each labelled with the two counts N(h, c) and N(h) behind it.",
        },
    ),
)

TABLES: tuple[Table, ...] = (
    Table(
        "digit_steps",
        (
            Column("digit", {"ko": "숫자 c", "en": "Digit c"}),
            Column("context", {"ko": "문맥 h", "en": "Context h"}),
            Column("pair_count", {"ko": "N(h, c)", "en": "N(h, c)"}, ",d"),
            Column("context_count", {"ko": "N(h)", "en": "N(h)"}, ",d"),
            Column("probability", {"ko": "P(c | h)", "en": "P(c | h)"}, ".4g"),
            Column("log_prob", {"ko": "ln P(c | h)", "en": "ln P(c | h)"}, ".3f"),
        ),
        {
            "ko": "카나리아의 숫자마다 모델이 본 문맥과 개수, 그리고 그로부터 나온 확률",
            "en": "For each digit of the canary: the context the model sees, the counts, "
            "and the probability they give",
        },
        row_headers=True,
    ),
)
