"""Markdown, LaTeX and directives: what an author writes becomes the right HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

from privacy_explorer.errors import ContentError
from privacy_explorer.markup import parse_markdown, render_math

PAGE = Path("content/ko/09-x.md")


def parse(text: str, first_line: int = 5):
    return parse_markdown(PAGE, text, first_line)


def test_inline_and_display_math_become_mathml():
    parsed = parse("The scale is $b = \\Delta/\\varepsilon$.\n\n$$\n\\frac{1}{2b}\n$$\n")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in parsed.html
    # Focusable: a long formula scrolls sideways inside its box, and keyboards must reach it.
    assert '<div class="math-display" tabindex="0"><math' in parsed.html
    assert "<mfrac>" in parsed.html
    assert "$" not in parsed.html


def test_hats_are_math_accents_and_function_names_are_spaced_as_in_tex():
    html = parse("$\\hat p(x) = \\log \\hat{p}_R - \\log(y) + \\ln 2$\n").html
    # U+02C6, the accent the math font places over a letter; never the ASCII caret.
    assert html.count('<mover accent="true">') == 2 == html.count("<mo>&#x002C6;</mo></mover>")
    assert "&#x0005E;" not in html
    # A thin space between a function name and its operand, none before a bracket.
    assert '<mi>log</mi><mspace width="0.1667em"></mspace><msub><mover' in html
    assert '<mi>log</mi><mo stretchy="false">&#x00028;' in html
    assert '<mi>ln</mi><mspace width="0.1667em"></mspace><mn>2</mn>' in html


def test_dollars_in_code_and_escaped_dollars_stay_text():
    parsed = parse("Costs \\$5, and `$x$` is code.\n\n```\n$$ not math $$\n```\n")
    assert "&#36;5" in parsed.html
    assert "<code>$x$</code>" in parsed.html
    assert "$$ not math $$" in parsed.html
    assert "<math" not in parsed.html


def test_a_price_followed_by_digits_is_not_math():
    assert "<math" not in parse("between $5 and $10 a month").html


def test_directives_are_collected_with_their_lines_and_filled_in_order():
    parsed = parse(
        "## 실습\n\n{{< controls epsilon >}}\n\nb = {{< readout scale >}} now.\n\n"
        "{{< chart densities >}}\n"
    )
    assert [(d.kind, d.names, d.line) for d in parsed.directives] == [
        ("controls", ("epsilon",), 7),
        ("readout", ("scale",), 9),
        ("chart", ("densities",), 11),
    ]
    html = parsed.fill(lambda d: f"<x-{d.kind}>")
    assert "<x-controls>" in html and "<p>b = <x-readout> now.</p>" in html
    assert "<p><x-chart>" not in html  # block elements are not wrapped in a paragraph


def test_a_table_stands_on_its_own_line_and_is_collected():
    parsed = parse("Text.\n\n{{< table rules >}}\n\nMore.\n")
    assert [(d.kind, d.names, d.line) for d in parsed.directives] == [("table", ("rules",), 7)]
    assert "<p><x-table>" not in parsed.fill(lambda d: f"<x-{d.kind}>")


def test_headings_get_unicode_ids_for_the_table_of_contents():
    parsed = parse("## 개요\n\ntext\n\n## Hands-on\n")
    assert parsed.headings == (("개요", "개요"), ("hands-on", "Hands-on"))
    assert '<h2 id="개요">' in parsed.html


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "x\n$$\n\\frac{1}{2}\n",
            "content/ko/09-x.md:6: display math opened with '$$' is never closed; end it with '$$'",
        ),
        (
            "Bad $D\\'$ here",
            "content/ko/09-x.md:5: the formula $D\\'$ uses '\\', which cannot be turned into "
            "MathML; use a standard LaTeX command (e.g. D^{\\prime} for D′)",
        ),
        (
            "Half $\\frac{h}{n$ done",
            "content/ko/09-x.md:5: the formula $\\frac{h}{n$ has unbalanced braces; "
            "close every '{' with '}'",
        ),
        (
            "{{< widget x >}}",
            "content/ko/09-x.md:5: unknown directive 'widget'; "
            "use one of: controls, chart, table, changes, showme, readout",
        ),
        (
            "see {{< chart densities >}} inline",
            "content/ko/09-x.md:5: '{{< chart ... >}}' must stand on a line of its own",
        ),
        (
            "{{< chart a b >}}",
            "content/ko/09-x.md:5: 'chart' takes exactly one name, e.g. {{< chart NAME >}}",
        ),
        (
            "{{< table >}}",
            "content/ko/09-x.md:5: 'table' takes exactly one name, e.g. {{< table NAME >}}",
        ),
        (
            "see {{< table rules >}} here",
            "content/ko/09-x.md:5: '{{< table ... >}}' must stand on a line of its own",
        ),
        (
            "{{< changes >}}",
            "content/ko/09-x.md:5: 'changes' names the readouts and tables it compares, "
            "e.g. {{< changes status conditions >}}",
        ),
        (
            "then {{< changes status >}} inline",
            "content/ko/09-x.md:5: '{{< changes ... >}}' must stand on a line of its own",
        ),
    ],
)
def test_authoring_mistakes_name_the_file_and_line(text, message):
    with pytest.raises(ContentError) as caught:
        parse(text)
    assert caught.value.message == message


# --- Predict-then-reveal questions ------------------------------------------------

QUIZ = """Before.

{{< quiz >}}
If $\\varepsilon$ halves, the noise scale:
- [ ] halves
- [x] **doubles**
- [ ] stays

Here $b$ = {{< readout scale >}}.
{{< /quiz >}}

After {{< readout epsilon >}}.
"""


def test_a_quiz_keeps_its_question_answers_and_explanation_with_readouts_inside():
    parsed = parse(QUIZ)
    assert [(d.kind, d.names, d.line) for d in parsed.directives] == [
        ("readout", ("scale",), 13),
        ("quiz", (), 7),
        ("readout", ("epsilon",), 16),
    ]
    quiz = parsed.directives[1].quiz
    assert quiz is not None and quiz.number == 1
    assert "<math" in quiz.question and quiz.question.startswith("<p>If ")
    assert [o.correct for o in quiz.options] == [False, True, False]
    assert quiz.options[1].html == "<strong>doubles</strong>"  # inline: no paragraph around it
    assert "<math" in quiz.explanation

    def render(directive):
        if directive.kind == "quiz":
            return f"<quiz>{directive.quiz.explanation}</quiz>"
        return f"<x-{directive.names[0]}>"

    html = parsed.fill(render)
    # The readout inside the quiz is filled too, and the quiz is not wrapped in a paragraph.
    assert "<quiz><p>Here <math" in html and "= <x-scale>.</p></quiz>" in html
    assert "<p><quiz>" not in html and "<p>After <x-epsilon>.</p>" in html
    assert "xqzplaceholder" not in html


def test_quizzes_on_a_page_are_numbered_in_order():
    parsed = parse(QUIZ + "\n" + QUIZ)
    assert [d.quiz.number for d in parsed.directives if d.quiz] == [1, 2]


def _quiz(body: str) -> str:
    return "Text.\n\n{{< quiz >}}\n" + body + "{{< /quiz >}}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "Text.\n\n{{< quiz >}}\nQ?\n- [ ] a\n- [x] b\n\nE {{< readout r >}}.\n",
            "content/ko/09-x.md:7: the quiz opened here is never closed; end it with "
            "'{{< /quiz >}}' on a line of its own",
        ),
        (
            _quiz("Q?\n\nNo answers, {{< readout r >}}.\n"),
            "content/ko/09-x.md:7: the quiz has no answers; list them as '- [ ] wrong' and "
            "'- [x] right', one per line, below the question",
        ),
        (
            _quiz("- [x] a\n- [ ] b\n\nE {{< readout r >}}.\n"),
            "content/ko/09-x.md:8: a quiz starts with its question; write the question "
            "above the first answer",
        ),
        (
            _quiz("Q?\n- [x] a\n\nE {{< readout r >}}.\n"),
            "content/ko/09-x.md:7: the quiz has 1 answer(s); give between 2 and 6",
        ),
        (
            _quiz("Q?\n- [x] a\n- [x] b\n\nE {{< readout r >}}.\n"),
            "content/ko/09-x.md:7: the quiz marks 2 answers right; mark exactly one '[x]'",
        ),
        (
            _quiz("Q?\n- [ ] a\n- [ ] b\n\nE {{< readout r >}}.\n"),
            "content/ko/09-x.md:7: the quiz marks 0 answers right; mark exactly one '[x]'",
        ),
        (
            _quiz("Q?\n- [ ] a\n- [v] b\n\nE {{< readout r >}}.\n"),
            "content/ko/09-x.md:10: an answer is marked '[v]'; mark the right answer '[x]' "
            "and the others '[ ]'",
        ),
        (
            _quiz("Q?\n- [ ] a\n- [x] b\n"),
            "content/ko/09-x.md:7: the quiz has no explanation; write it below the answers, "
            "with the evidence as a {{< readout NAME >}}",
        ),
        (
            _quiz("Q?\n- [ ] a\n- [x] b\n\nBecause 42.\n"),
            "content/ko/09-x.md:7: the quiz's explanation quotes no evidence; put at least one "
            "{{< readout NAME >}} from the build in it",
        ),
        (
            _quiz("Q?\n- [ ] a\n- [x] b\n\n{{< chart densities >}}\n"),
            "content/ko/09-x.md:12: a quiz holds text, inline math and readouts only; move "
            "'{{< chart densities >}}' out of the quiz, or close the quiz first with "
            "'{{< /quiz >}}'",
        ),
        (
            "Q? {{< quiz >}}",
            "content/ko/09-x.md:5: '{{< quiz >}}' must stand on a line of its own, and the "
            "quiz must end with '{{< /quiz >}}' on a line of its own",
        ),
        (
            "Text.\n{{< /quiz >}}\n",
            "content/ko/09-x.md:6: '{{< /quiz >}}' closes no quiz; open one with "
            "'{{< quiz >}}' on a line of its own",
        ),
    ],
)
def test_quiz_mistakes_name_the_file_and_line(text, message):
    with pytest.raises(ContentError) as caught:
        parse(text)
    assert caught.value.message == message


def test_a_prime_stands_on_the_line_after_its_letter_not_in_a_superscript():
    for tex in ("D^{\\prime}", "D'"):
        mathml = render_math(tex, False, "x")
        assert '<mi>D</mi><mo lspace="0" rspace="0">&#x02032;</mo>' in mathml, mathml
        assert "<msup>" not in mathml
    assert '<mo lspace="0" rspace="0">&#x02033;</mo>' in render_math("f''(x)", False, "x")
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in render_math("x^2", False, "x")
