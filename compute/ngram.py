"""Character n-gram models and the exposure of a canary among candidate strings.

A :class:`CharNGram` counts, at every position of a training text with ``n``
characters before it, which character follows which ``n`` characters, and
estimates with add-α smoothing::

    P(c | h) = (N(h, c) + α) / (N(h) + α·|V|)

where ``h`` is the last ``n`` characters and ``V`` the characters of the
training text. Probabilities are exact fractions, and a log-likelihood is taken
only of the final product (:func:`log_fraction`), so two strings whose counts
are equal get bit-identical scores: a tie is never broken by rounding.

Exposure (Carlini et al., "The Secret Sharer", 2019) measures how far a model
prefers a planted canary over the other candidates ``R``: ``log2 |R| − log2
rank``. Here the rank counts every candidate scoring at least as high as the
canary, itself included (:func:`worst_rank`), so ties count against the
canary and never inflate its exposure. :func:`chance_exposure` is the expected
exposure of a canary whose rank is uniformly random.

>>> model = CharNGram.train("the code is 7391. the code is 7391.", context_length=3)
>>> model.greedy("the code is ", 4)
'7391'
>>> exposure([-3.2, -1.0, -1.0, -7.5], canary_index=1)  # rank 2 of 4
1.0
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "DEFAULT_SMOOTHING",
    "CharNGram",
    "Step",
    "chance_exposure",
    "exposure",
    "log_fraction",
    "tie_count",
    "worst_rank",
]

DEFAULT_SMOOTHING = Fraction(1, 10)
"""The add-α constant :meth:`CharNGram.train` uses unless told otherwise, kept exact."""


# --- The model ----------------------------------------------------------------------


def log_fraction(value: Fraction) -> float:
    """Natural logarithm of a positive fraction, computed from its reduced form.

    Equal fractions have the same reduced numerator and denominator, so they
    always get the same float, bit for bit, however they were multiplied
    together. Python's ``math.log`` accepts integers of any size.
    """
    if value <= 0:
        raise ValueError(f"the logarithm needs a positive value, got {value}")
    return math.log(value.numerator) - math.log(value.denominator)


@dataclass(frozen=True)
class Step:
    """One character of a continuation as the model scores it: the counts behind its probability."""

    char: str
    """The character written, ``c``."""
    context: str
    """The last ``n`` characters before it, ``h``: all the model looks at."""
    pair_count: int
    """``N(h, c)``: how often ``c`` followed ``h`` in the training text."""
    context_count: int
    """``N(h)``: how often anything followed ``h``."""
    probability: Fraction
    """``P(c | h) = (N(h, c) + α) / (N(h) + α·|V|)``, exact."""

    @property
    def log_prob(self) -> float:
        """``ln P(c | h)``."""
        return log_fraction(self.probability)


@dataclass(frozen=True)
class CharNGram:
    """A character n-gram model with add-α smoothing, trained by :meth:`train`.

    ``P(c | h) = (N(h, c) + α) / (N(h) + α·|V|)`` where ``h`` is the last
    :attr:`context_length` characters before ``c``.
    """

    context_length: int
    """``n``: how many preceding characters the model looks at."""
    vocabulary: tuple[str, ...]
    """``V``: every character of the training text, in code point order."""
    pair_counts: Mapping[tuple[str, str], int]
    """``N(h, c)``: how often character ``c`` follows the context ``h``."""
    context_counts: Mapping[str, int]
    """``N(h)``: how often ``h`` is followed by any character."""
    smoothing: Fraction = DEFAULT_SMOOTHING
    """``α``, added to every count."""

    @classmethod
    def train(
        cls, text: str, context_length: int, smoothing: Fraction = DEFAULT_SMOOTHING
    ) -> CharNGram:
        """Count every (context, next character) pair in ``text``.

        Positions with fewer than ``context_length`` characters before them are
        skipped (there is no padding), so the counts cover ``len(text) − n``
        characters.
        """
        if context_length < 1:
            raise ValueError(f"the context length must be at least 1, got {context_length}")
        if smoothing <= 0:
            raise ValueError(f"the smoothing constant must be > 0, got {smoothing}")
        n = context_length
        pairs = Counter((text[i - n : i], text[i]) for i in range(n, len(text)))
        contexts: Counter[str] = Counter()
        for (context, _), count in pairs.items():
            contexts[context] += count
        return cls(n, tuple(sorted(set(text))), dict(pairs), dict(contexts), Fraction(smoothing))

    def context_of(self, history: str) -> str:
        """The last ``n`` characters of ``history``: what the model conditions on."""
        if len(history) < self.context_length:
            raise ValueError(
                f"the history {history!r} is shorter than the context length {self.context_length}"
            )
        return history[len(history) - self.context_length :]

    def count(self, history: str, char: str) -> int:
        """``N(h, c)`` for the context ``h`` at the end of ``history``."""
        return self.pair_counts.get((self.context_of(history), char), 0)

    def context_count(self, history: str) -> int:
        """``N(h)`` for the context ``h`` at the end of ``history``."""
        return self.context_counts.get(self.context_of(history), 0)

    def probability(self, history: str, char: str) -> Fraction:
        """``P(char | h)`` as an exact fraction, ``h`` the end of ``history``.

        Raises ``ValueError`` for a character outside the vocabulary, to which
        the model gives no probability.
        """
        if char not in self._vocabulary_set:
            raise ValueError(f"{char!r} is not in the model's vocabulary")
        alpha = self.smoothing
        return (self.count(history, char) + alpha) / (
            self.context_count(history) + alpha * len(self.vocabulary)
        )

    def log_prob(self, context: str, char: str) -> float:
        """``ln P(char | h)``, ``h`` the last ``n`` characters of ``context``."""
        return log_fraction(self.probability(context, char))

    def likelihood(self, history: str, continuation: str) -> Fraction:
        """Exact probability of writing ``continuation`` right after ``history``."""
        product = Fraction(1)
        text = history
        for char in continuation:
            product *= self.probability(text, char)
            text += char
        return product

    def steps(self, history: str, continuation: str) -> tuple[Step, ...]:
        """How :meth:`likelihood` arises: one :class:`Step` per character of ``continuation``.

        The product of the steps' probabilities is :meth:`likelihood`, and the
        sum of their :attr:`Step.log_prob` is its logarithm up to rounding.

        >>> model = CharNGram.train("ab ab ac", context_length=1)
        >>> [(s.context, s.char, s.pair_count, s.context_count) for s in model.steps(" ", "ab")]
        [(' ', 'a', 2, 2), ('a', 'b', 2, 3)]
        """
        result = []
        text = history
        for char in continuation:
            result.append(
                Step(
                    char=char,
                    context=self.context_of(text),
                    pair_count=self.count(text, char),
                    context_count=self.context_count(text),
                    probability=self.probability(text, char),
                )
            )
            text += char
        return tuple(result)

    def log_likelihood(self, history: str, continuation: str) -> float:
        """``ln`` of :meth:`likelihood`: the sum of the :meth:`log_prob` terms, rounded once."""
        return log_fraction(self.likelihood(history, continuation))

    def next_char(self, history: str) -> str:
        """The most frequent character after the context; ties go to the smallest code point."""
        context = self.context_of(history)
        best, best_count = self.vocabulary[0], -1
        for char in self.vocabulary:  # code point order: the first maximum wins a tie
            count = self.pair_counts.get((context, char), 0)
            if count > best_count:
                best, best_count = char, count
        return best

    def distribution(self, history: str) -> tuple[tuple[str, int, Fraction], ...]:
        """Every character of the vocabulary after ``history`` as ``(char, N(h, c), P(c | h))``,
        most probable first; equal probabilities in code point order, so the first row is
        :meth:`next_char`.

        >>> model = CharNGram.train("ab ab ac", context_length=1)
        >>> [(c, n) for c, n, _ in model.distribution("a")]
        [('b', 2), ('c', 1), (' ', 0), ('a', 0)]
        """
        rows = [(char, self.count(history, char)) for char in self.vocabulary]
        rows.sort(key=lambda row: -row[1])  # stable: code point order among equal counts
        return tuple((char, count, self.probability(history, char)) for char, count in rows)

    def greedy(self, history: str, length: int) -> str:
        """``length`` characters written after ``history``, each by :meth:`next_char`."""
        text = history
        for _ in range(length):
            text += self.next_char(text)
        return text[len(history) :]

    @functools.cached_property
    def _vocabulary_set(self) -> frozenset[str]:
        return frozenset(self.vocabulary)


# --- Exposure -----------------------------------------------------------------------


def _checked_scores(scores: Sequence[float], canary_index: int) -> list[float]:
    """``scores`` as a list of floats, after checking that a rank can be taken among them."""
    values = [float(score) for score in scores]
    if not values:
        raise ValueError("there are no candidate scores")
    if not 0 <= canary_index < len(values):
        raise ValueError(f"canary_index {canary_index} is outside 0…{len(values) - 1}")
    if any(math.isnan(score) for score in values):
        raise ValueError("a score is NaN; ranks need comparable scores")
    return values


def worst_rank(scores: Sequence[float], canary_index: int) -> int:
    """The canary's rank with ties resolved to the worst place.

    Counts every candidate whose score is at least the canary's, the canary
    included, so a canary tied with ``t`` others ranks ``t`` places lower than
    if it had won every tie. Scores are compared exactly.

    Parameters
    ----------
    scores
        One score per candidate, higher meaning more likely (e.g. log-likelihoods).
    canary_index
        Position of the canary among the scores.

    Returns
    -------
    int
        A rank from 1 (strictly best) to ``len(scores)``.
    """
    values = _checked_scores(scores, canary_index)
    canary = values[canary_index]
    return sum(1 for score in values if score >= canary)


def tie_count(scores: Sequence[float], canary_index: int) -> int:
    """How many other candidates score exactly as high as the canary."""
    values = _checked_scores(scores, canary_index)
    canary = values[canary_index]
    return sum(1 for score in values if score == canary) - 1


def exposure(scores: Sequence[float], canary_index: int) -> float:
    """Exposure in bits: ``log2 |R| − log2 rank``, with ``|R| = len(scores)``.

    The rank is :func:`worst_rank`, so ties never inflate the exposure. The value
    runs from 0 (the canary ranks last, or ties with every candidate) to
    ``log2 |R|`` (the canary alone scores highest).
    """
    rank = worst_rank(scores, canary_index)
    return math.log2(len(scores)) - math.log2(rank)


def chance_exposure(candidate_count: int) -> float:
    """Expected exposure when the canary's rank is uniform on ``1 … |R|``.

    ``log2 |R| − (1/|R|)·Σ log2 k = log2 |R| − log2(|R|!) / |R|``, with
    ``log2(|R|!)`` from the log-gamma function. About 1.44 bits for 1,000
    candidates, and close to ``1/ln 2`` for any large ``|R|``.
    """
    if candidate_count < 1:
        raise ValueError(f"there must be at least one candidate, got {candidate_count}")
    log2_factorial = math.lgamma(candidate_count + 1) / math.log(2)
    return math.log2(candidate_count) - log2_factorial / candidate_count
