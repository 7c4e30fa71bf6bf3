"""Markdown, LaTeX and directives: what an author writes becomes the right HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

from privacy_explorer.errors import ContentError
from privacy_explorer.markup import parse_markdown

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
            "use one of: controls, chart, table, readout",
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
    ],
)
def test_authoring_mistakes_name_the_file_and_line(text, message):
    with pytest.raises(ContentError) as caught:
        parse(text)
    assert caught.value.message == message
