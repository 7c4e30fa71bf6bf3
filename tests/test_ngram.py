"""The library's n-gram model and exposure, checked by hand counts and brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privacy_explorer.compute import ngram

HYPOTHESIS = settings(database=None, deadline=None, max_examples=200)


# --- The model ------------------------------------------------------------------


def test_smoothed_probability_matches_a_hand_count():
    # "abcab" with n = 1: a→b twice, b→c once, c→a once; V = {a, b, c}.
    model = ngram.CharNGram.train("abcab", 1)
    assert model.vocabulary == ("a", "b", "c")
    assert model.count("a", "b") == 2 and model.context_count("a") == 2
    assert model.probability("a", "b") == Fraction(21, 23)  # (2 + 0.1) / (2 + 0.1 · 3)
    assert model.probability("a", "c") == Fraction(1, 23)  # (0 + 0.1) / (2 + 0.1 · 3)
    assert model.probability("xyzc", "a") == Fraction(11, 13)  # only the last character counts
    assert model.log_prob("a", "b") == pytest.approx(math.log(2.1 / 2.3), rel=1e-15)
    # A context never seen gives every character 0.1 / (0 + 0.3) = 1/3.
    two = ngram.CharNGram.train("abcab", 2)
    assert two.context_count("ba") == 0
    assert two.probability("ba", "c") == Fraction(1, 3)


@HYPOTHESIS
@given(text=st.text(alphabet="ab7 \n", min_size=2, max_size=40), n=st.integers(1, 3))
def test_probabilities_after_every_context_add_up_to_one(text: str, n: int):
    model = ngram.CharNGram.train(text, n)
    contexts = {"".join(chars) for chars in itertools.product(model.vocabulary, repeat=n)}
    for context in contexts:
        assert sum(model.probability(context, c) for c in model.vocabulary) == 1


def test_the_model_refuses_what_it_cannot_score():
    model = ngram.CharNGram.train("abcab", 2)
    with pytest.raises(ValueError, match="'z' is not in the model's vocabulary"):
        model.probability("ab", "z")
    with pytest.raises(ValueError, match="shorter than the context length 2"):
        model.probability("a", "b")
    with pytest.raises(ValueError, match="context length must be at least 1"):
        ngram.CharNGram.train("abc", 0)


def test_likelihood_is_the_product_along_the_continuation():
    model = ngram.CharNGram.train("xab xab xac", 2)
    expected = model.probability("xa", "b") * model.probability("ab", " ")
    assert model.likelihood("xa", "b ") == expected
    terms = model.log_prob("xa", "b") + model.log_prob("ab", " ")
    assert model.log_likelihood("xa", "b ") == pytest.approx(terms, rel=1e-14)


def test_equal_counts_give_bit_identical_scores_in_any_order():
    # Counts chosen so that "abc" and "bca" after "q" meet the same three probabilities
    # in a different order: A = P(a|q) = P(b|q) = P(b|a) = P(a|c) and C = P(c|b).
    every_context = {"q": 3, "a": 3, "b": 3, "c": 3}
    pairs = {("q", "z"): 3, ("a", "z"): 3, ("b", "c"): 2, ("b", "z"): 1, ("c", "z"): 3}
    model = ngram.CharNGram(1, ("a", "b", "c", "q", "z"), pairs, every_context)
    first = [model.log_prob(h, c) for h, c in (("q", "a"), ("a", "b"), ("b", "c"))]
    second = [model.log_prob(h, c) for h, c in (("q", "b"), ("b", "c"), ("c", "a"))]
    assert sorted(first) == sorted(second)
    # Adding the same terms in another order changes the last bit: a tie broken by noise.
    assert sum(first) != sum(second)
    # The model multiplies exact fractions and takes one logarithm: no noise.
    assert model.likelihood("q", "abc") == model.likelihood("q", "bca")
    assert model.log_likelihood("q", "abc").hex() == model.log_likelihood("q", "bca").hex()
    scores = [model.log_likelihood("q", text) for text in ("abc", "bca", "cab")]
    assert ngram.worst_rank(scores, 0) == ngram.worst_rank(scores, 1) == 2
    assert ngram.tie_count(scores, 0) == 1


def test_log_fraction_refuses_zero():
    with pytest.raises(ValueError, match="needs a positive value, got 0"):
        ngram.log_fraction(Fraction(0))


def test_greedy_breaks_ties_by_the_smallest_code_point():
    # "x" is followed once by "b" (first in the text) and once by "a": the tie goes to "a".
    model = ngram.CharNGram.train("xb xa", 1)
    assert model.next_char("x") == "a"
    # After "a" only " " and nothing else was seen: the most frequent wins over code points.
    assert ngram.CharNGram.train("xb xa a a", 1).next_char("a") == " "
    # An unseen context ties every character at 0: the smallest code point, here " ".
    assert ngram.CharNGram.train("xb xa", 2).next_char("qq") == " "
    assert model.greedy("x", 3) == "a x"


# --- Exposure -------------------------------------------------------------------


def test_worst_rank_counts_every_tie_against_the_canary():
    scores = [3.0, 1.0, 3.0, 2.0, 3.0]
    assert ngram.worst_rank(scores, 0) == 3 and ngram.tie_count(scores, 0) == 2
    assert ngram.worst_rank(scores, 4) == 3
    assert ngram.worst_rank(scores, 3) == 4 and ngram.tie_count(scores, 3) == 0
    assert ngram.worst_rank(scores, 1) == 5


def test_exposure_reaches_exactly_its_boundaries():
    best = [-1.0, -2.0, -2.0, -5.0]
    assert ngram.exposure(best, 0) == math.log2(4) == 2.0
    assert ngram.exposure(best, 3) == 0.0
    tied = [-7.25] * 1000
    assert ngram.worst_rank(tied, 391) == 1000 and ngram.tie_count(tied, 391) == 999
    assert ngram.exposure(tied, 391) == 0.0
    alone = [-9.0] * 999 + [-1.0]
    assert ngram.exposure(alone, 999) == math.log2(1000)


@HYPOTHESIS
@given(scores=st.lists(st.integers(-5, 5), min_size=1, max_size=60), data=st.data())
def test_exposure_is_the_rank_in_bits(scores: list[int], data):
    index = data.draw(st.integers(0, len(scores) - 1))
    floats = [float(s) for s in scores]
    better = sum(1 for s in scores if s > scores[index])
    ties = scores.count(scores[index]) - 1
    assert ngram.worst_rank(floats, index) == better + ties + 1
    assert ngram.tie_count(floats, index) == ties
    value = ngram.exposure(floats, index)
    assert 0.0 <= value <= math.log2(len(scores))
    assert value == math.log2(len(scores)) - math.log2(better + ties + 1)


def test_exposure_refuses_unusable_scores():
    with pytest.raises(ValueError, match="no candidate scores"):
        ngram.exposure([], 0)
    with pytest.raises(ValueError, match="canary_index 3 is outside 0…2"):
        ngram.worst_rank([1.0, 2.0, 3.0], 3)
    with pytest.raises(ValueError, match="NaN"):
        ngram.exposure([1.0, math.nan], 0)


@pytest.mark.parametrize("count", [1, 2, 7, 1000])
def test_chance_exposure_is_the_mean_over_uniform_ranks(count: int):
    brute_force = sum(math.log2(count) - math.log2(rank) for rank in range(1, count + 1)) / count
    assert ngram.chance_exposure(count) == pytest.approx(brute_force, rel=1e-12, abs=1e-12)


def test_chance_exposure_averages_exposure_over_every_canary_position():
    scores = [0.5, -1.0, 2.0, -3.0, 1.5, 0.0]  # distinct: every rank occurs once
    mean = sum(ngram.exposure(scores, i) for i in range(len(scores))) / len(scores)
    assert ngram.chance_exposure(len(scores)) == pytest.approx(mean, rel=1e-12)
    assert round(ngram.chance_exposure(1000), 2) == 1.44


@HYPOTHESIS
@given(text=st.text(alphabet="ab7 \n", max_size=40), n=st.integers(1, 3))
def test_counts_equal_a_brute_force_count_of_every_window(text: str, n: int):
    model = ngram.CharNGram.train(text, n)
    windows = [text[i - n : i + 1] for i in range(n, len(text))]
    for window in set(windows):
        assert model.count(window[:-1], window[-1]) == windows.count(window)
    for context in {w[:-1] for w in windows}:
        assert model.context_count(context) == sum(w[:-1] == context for w in windows)


def test_scores_may_be_any_sequence_of_numbers():
    np = pytest.importorskip("numpy")
    scores = np.array([-3.2, -1.0, -1.0, -7.5])
    assert ngram.worst_rank(scores, 1) == 2 and ngram.tie_count(scores, 1) == 1
    assert ngram.exposure(scores, 1) == ngram.exposure(list(scores), 1) == 1.0


# --- Steps: the counts behind a likelihood ---------------------------------------------


@settings(database=None, deadline=None, max_examples=200)
@given(
    text=st.text(alphabet="ab c", min_size=2, max_size=40),
    continuation=st.text(alphabet="ab c", min_size=1, max_size=5),
    n=st.integers(1, 3),
)
def test_steps_multiply_to_the_likelihood_and_count_the_text(text: str, continuation: str, n: int):
    model = ngram.CharNGram.train(text, n)
    history = text[:n] if len(text) >= n else text
    if len(history) < n or not set(continuation) <= set(text):
        return
    steps = model.steps(history, continuation)
    product = Fraction(1)
    for step in steps:
        product *= step.probability
    assert product == model.likelihood(history, continuation)
    written = history
    for step in steps:
        context = written[-n:]
        assert step.context == context
        # Brute force: positions i >= n where the n characters before i are the context.
        after = [text[i] for i in range(n, len(text)) if text[i - n : i] == context]
        assert step.context_count == len(after)
        assert step.pair_count == after.count(step.char)
        assert step.log_prob == pytest.approx(math.log(step.probability), rel=1e-12)
        written += step.char
