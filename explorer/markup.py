"""Markdown with LaTeX math and interactive directives -> HTML.

Authors write ordinary Markdown plus:

* ``$...$`` and ``$$...$$`` — LaTeX, turned into MathML at build time;
* ``{{< controls [NAME ...] >}}``, ``{{< chart NAME >}}``, ``{{< table NAME >}}`` and
  ``{{< changes NAME ... >}}`` (what the last control change did to the readouts and
  live tables named) on a line of their own;
* ``{{< readout NAME >}}`` inside a sentence;
* ``{{< quiz >}}`` ... ``{{< /quiz >}}`` around a predict-then-reveal question
  (see :mod:`privacy_explorer.quiz`).
* ``{{< readout NAME >}}`` inside a sentence, and ``{{< readout NAME 가 >}}`` for a
  readout followed by a Korean particle whose form depends on the value (이/가, 을/를,
  으로/로, …; see ``privacy_explorer.korean``), optionally after closing marks
  (``{{< readout NAME 」와 >}}``).

Each directive kind (where it may stand, what arguments it takes, how it is checked
and shown) is an entry of the registry in :mod:`privacy_explorer.directives`.

Math and directives are cut out before Markdown runs (so Markdown never mangles
them), replaced by placeholder words, and put back afterwards. Code spans and
fenced code blocks are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape as html_escape
from html import unescape as html_unescape
from pathlib import Path

import markdown
from latex2mathml.converter import convert as latex_to_mathml
from markdown.extensions.toc import slugify_unicode

from privacy_explorer import directives
from privacy_explorer.directives import Directive
from privacy_explorer.errors import ContentError, location
from privacy_explorer.quiz import QUIZ_END, QUIZ_START, Quiz, QuizOption, split_quiz

DIRECTIVE = re.compile(r"\{\{<\s*(?P<kind>[A-Za-z_]+)(?P<args>[^>]*?)\s*>\}\}")
INLINE_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])(?P<tex>(?:\\.|[^$\\\n])+?)(?<=\S)\$(?!\d)")
CODE_SPAN = re.compile(r"(`+).+?\1")
FENCE = re.compile(r"^\s*(```|~~~)")
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
TOKEN = "xqzplaceholder{}xqz"
TOKEN_PATTERN = re.compile(r"xqzplaceholder(\d+)xqz")
MARKDOWN_EXTENSIONS = ["tables", "admonition", "attr_list", "footnotes", "fenced_code", "toc"]
PART_EXTENSIONS = ["tables", "attr_list"]
"""What a quiz's question, answers and explanation may use (no headings in the contents)."""


@dataclass(frozen=True)
class ParsedMarkdown:
    """Markdown with its math rendered and its directives collected, ready to fill in."""

    path: Path
    """The Markdown file."""
    html: str
    """HTML with a placeholder word where each directive goes."""
    slots: tuple[Directive | None, ...]
    """Placeholder ``i`` stands for ``slots[i]`` (``None`` for math, already filled in)."""
    headings: tuple[tuple[str, str], ...]
    """(id, text) of each ``##`` section, for the page's table of contents."""

    @property
    def directives(self) -> tuple[Directive, ...]:
        """The interactive elements, in the order they appear."""
        return tuple(d for d in self.slots if d is not None)

    def fill(self, render: Callable[[Directive], str]) -> str:
        """The final HTML, with ``render(directive)`` in place of each placeholder.

        A quiz's HTML holds the placeholders of its readouts: they are filled in turn.
        """

        def replace(match: re.Match[str]) -> str:
            directive = self.slots[int(match.group(1))]
            assert directive is not None  # math placeholders were filled by parse_markdown
            return TOKEN_PATTERN.sub(replace, render(directive))

        return TOKEN_PATTERN.sub(replace, self.html)


def _unbalanced_braces(tex: str) -> bool:
    depth = 0
    for brace in re.findall(r"(?<!\\)[{}]", tex):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return True
    return depth != 0


def render_math(tex: str, display: bool, where: str) -> str:
    """One LaTeX formula as MathML; unknown commands are an error naming ``where``."""
    if _unbalanced_braces(tex):
        raise ContentError(
            f"{where}: the formula ${tex}$ has unbalanced braces; close every '{{' with '}}'"
        )
    try:
        mathml = latex_to_mathml(tex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises a variety of plain exceptions
        reason = str(exc) or type(exc).__name__  # most of them carry no message
        raise ContentError(
            f"{where}: cannot read the formula ${tex}$ ({reason}); check the LaTeX syntax"
        ) from None
    unknown = re.search(r">(\\[A-Za-z]*|\\)<", mathml)
    if unknown:
        raise ContentError(
            f"{where}: the formula ${tex}$ uses '{unknown.group(1)}', which cannot be "
            "turned into MathML; use a standard LaTeX command (e.g. D^{\\prime} for D′)"
        )
    return _typeset_like_tex(mathml)


_HAT = "<mo>&#x0005E;</mo></mover>"
_FUNCTION_BEFORE_OPERAND = re.compile(
    r"(<mi>(?:log|ln|exp|sin|cos|tan|det|dim)</mi>)(?=<(?!mo[ >]))"
)


_PRIMED = re.compile(
    r"<msup>(<mi>[^<]*</mi>|<mn>[^<]*</mn>)(?:<mrow>)?((?:<mi>&#x0203[234];</mi>)+)(?:</mrow>)?"
    r"</msup>"
)
_PRIME = re.compile(r"<mi>(&#x0203[234];)</mi>")


def _primes_on_the_line(match: re.Match[str]) -> str:
    primes = _PRIME.sub(r'<mo lspace="0" rspace="0">\1</mo>', match.group(2))
    return f"<mrow>{match.group(1)}{primes}</mrow>"


def _typeset_like_tex(mathml: str) -> str:
    """latex2mathml's MathML with the corrections Chromium needs to look like TeX.

    ``\\hat`` becomes the modifier circumflex U+02C6, the accent the math font sizes and
    places over a letter (the ASCII caret is drawn as a large superscript); a function
    name such as ``\\log`` gets TeX's thin space before an operand (none before a bracket);
    and a prime (``D^{\\prime}``, ``D'``) stands on the line after its letter: the prime
    glyph is already drawn high and small, so as a superscript it shrinks to a speck.

    >>> _typeset_like_tex('<mi>ln</mi><mn>2</mn><mo>&#x0005E;</mo></mover>')
    '<mi>ln</mi><mspace width="0.1667em"></mspace><mn>2</mn><mo>&#x002C6;</mo></mover>'
    """
    mathml = mathml.replace(_HAT, "<mo>&#x002C6;</mo></mover>")
    mathml = _PRIMED.sub(_primes_on_the_line, mathml)
    return _FUNCTION_BEFORE_OPERAND.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)


class _Extractor:
    """Replaces math and directives by placeholder words, remembering what they were."""

    def __init__(self, path: Path, first_line: int, root: Path | None) -> None:
        self.path, self.first_line, self.root = path, first_line, root
        self.directives: list[Directive | None] = []
        self.snippets: dict[int, str] = {}
        self.quizzes: list[Quiz] = []
        self.in_quizzes: set[int] = set()
        """Placeholders that made it through Markdown inside a quiz's parts."""

    def where(self, index: int) -> str:
        return location(self.path, self.first_line + index, self.root)

    def placeholder(self, directive: Directive | None = None, html: str = "") -> str:
        number = len(self.directives)
        self.directives.append(directive)
        if directive is None:
            self.snippets[number] = html
        return TOKEN.format(number)

    def directive(self, match: re.Match[str], index: int, block: bool) -> str:
        kind, names = match.group("kind"), tuple(match.group("args").split())
        where = self.where(index)
        if kind == "quiz":
            raise ContentError(
                f"{where}: '{{{{< quiz >}}}}' must stand on a line of its own, and the quiz "
                "must end with '{{< /quiz >}}' on a line of its own"
            )
        found = directives.kind(kind)
        if found is None or found.parse is None:
            known = ", ".join(directives.written_kinds())
            raise ContentError(f"{where}: unknown directive '{kind}'; use one of: {known}")
        if found.placement == "block" and not block:
            raise ContentError(f"{where}: '{{{{< {kind} ... >}}}}' must stand on a line of its own")
        return self.placeholder(found.parse(names, self.first_line + index, where))

    def inline(self, text: str, index: int) -> str:
        """Math, readouts and escaped dollars in one line, outside code spans."""
        parts, last = [], 0
        for code in CODE_SPAN.finditer(text):
            parts.append(self._inline_plain(text[last : code.start()], index))
            parts.append(code.group(0))
            last = code.end()
        parts.append(self._inline_plain(text[last:], index))
        return "".join(parts)

    def _inline_plain(self, text: str, index: int) -> str:
        text = DIRECTIVE.sub(lambda m: self.directive(m, index, block=False), text)
        text = INLINE_MATH.sub(
            lambda m: self.placeholder(
                html=render_math(m.group("tex"), display=False, where=self.where(index))
            ),
            text,
        )
        if "\\$" in text:
            text = text.replace("\\$", self.placeholder(html="&#36;"))
        return text

    def run(self, body: str) -> str:
        lines = body.split("\n")
        out: list[str] = []
        in_fence, i = False, 0
        while i < len(lines):
            line = lines[i]
            if FENCE.match(line):
                in_fence = not in_fence
                out.append(line)
            elif in_fence:
                out.append(line)
            elif line.strip().startswith("$$"):
                i = self._display_math(lines, i, out)
            elif QUIZ_START.fullmatch(line.strip()):
                i = self._quiz(lines, i, out)
            elif QUIZ_END.search(line):
                raise ContentError(
                    f"{self.where(i)}: '{{{{< /quiz >}}}}' closes no quiz; open one with "
                    "'{{< quiz >}}' on a line of its own"
                )
            elif (whole := DIRECTIVE.fullmatch(line.strip())) and directives.is_block(
                whole.group("kind")
            ):
                out.extend(["", self.directive(whole, i, block=True), ""])
            else:
                self._check_heading(lines, i)
                out.append(self.inline(line, i))
            i += 1
        return "\n".join(out)

    def _check_heading(self, lines: list[str], index: int) -> None:
        """Refuse math and readouts in a heading: its text also goes into the contents."""
        line = lines[index]
        underlined = index + 1 < len(lines) and SETEXT_UNDERLINE.match(lines[index + 1])
        if not (ATX_HEADING.match(line) or (line.strip() and underlined)):
            return
        text = CODE_SPAN.sub("", line)
        if math := INLINE_MATH.search(text) or re.search(r"\$\$.*?(\$\$|$)", text):
            raise ContentError(
                f"{self.where(index)}: a heading cannot hold math ({math.group(0).strip()}): "
                "its text also goes into the table of contents and the heading's link, which "
                "show plain text; write it in words, or put the formula in the text below"
            )
        if directive := DIRECTIVE.search(text):
            raise ContentError(
                f"{self.where(index)}: a heading cannot hold {directive.group(0)}: its text "
                "also goes into the table of contents, which shows plain text; put it in the "
                "text below the heading"
            )

    def _quiz(self, lines: list[str], start: int, out: list[str]) -> int:
        """Consume ``{{< quiz >}} ... {{< /quiz >}}``; return the index of its last line."""
        inner: list[tuple[int, str]] = []
        end = start + 1
        while end < len(lines) and not QUIZ_END.fullmatch(lines[end].strip()):
            line = lines[end]
            block = DIRECTIVE.fullmatch(line.strip())
            if (
                FENCE.match(line)
                or line.strip().startswith("$$")
                or ATX_HEADING.match(line)
                or QUIZ_START.fullmatch(line.strip())
                or (block and directives.is_block(block.group("kind")))
            ):
                raise ContentError(
                    f"{self.where(end)}: a quiz holds text, inline math and readouts only; "
                    f"move '{line.strip()}' out of the quiz, or close the quiz first with "
                    "'{{< /quiz >}}'"
                )
            inner.append((end, line))
            end += 1
        if end == len(lines):
            raise ContentError(
                f"{self.where(start)}: the quiz opened here is never closed; end it with "
                "'{{< /quiz >}}' on a line of its own"
            )
        source = split_quiz(inner, start, self.where)

        def part(texts: tuple[tuple[int, str], ...], inline: bool = False) -> str:
            markdown_text = "\n".join(self.inline(text, index) for index, text in texts)
            html = markdown.markdown(
                markdown_text, extensions=PART_EXTENSIONS, output_format="html"
            )
            if inline:
                html = re.sub(r"^<p>(.*)</p>$", r"\1", html, flags=re.DOTALL)
            self.in_quizzes.update(int(n) for n in TOKEN_PATTERN.findall(html))
            # Math is finished HTML already; readouts stay placeholders until the page is filled.
            return TOKEN_PATTERN.sub(lambda m: self.snippets.get(int(m.group(1)), m.group(0)), html)

        quiz = Quiz(
            number=len(self.quizzes) + 1,
            question=part(source.question),
            options=tuple(
                QuizOption(part(((index, text),), inline=True), correct)
                for index, text, correct in source.options
            ),
            explanation=part(source.explanation),
        )
        self.quizzes.append(quiz)
        directive = Directive("quiz", (), self.first_line + start, quiz)
        out.extend(["", self.placeholder(directive), ""])
        return end

    def _display_math(self, lines: list[str], start: int, out: list[str]) -> int:
        """Consume ``$$ ... $$`` (one or several lines); return the index of its last line."""
        collected, end = lines[start].strip()[2:], start
        while not collected.rstrip().endswith("$$"):
            end += 1
            if end == len(lines):
                raise ContentError(
                    f"{self.where(start)}: display math opened with '$$' is never closed; "
                    "end it with '$$'"
                )
            collected += "\n" + lines[end]
        tex = collected.rstrip()[:-2].strip()
        if not tex:
            raise ContentError(f"{self.where(start)}: empty display math '$$ $$'")
        html = render_math(tex, display=True, where=self.where(start))
        out.extend(
            ["", self.placeholder(html=f'<div class="math-display" tabindex="0">{html}</div>'), ""]
        )
        return end


MARKDOWN_TABLE = re.compile(r"<table>.*?</table>", re.DOTALL)
HEADER_CELL = re.compile(r"<th[^>]*>(.*?)</th>", re.DOTALL)


def _scrolling_table(match: re.Match[str]) -> str:
    """A Markdown table in a box that scrolls sideways on a narrow screen (not the page).

    The box takes the keyboard focus, so it can be scrolled without a mouse, and is a region
    named by the table's column headings, so a screen reader says what it holds.
    """
    cells = (TOKEN_PATTERN.sub("", cell) for cell in HEADER_CELL.findall(match[0]))
    headings = [html_unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
    label = " · ".join(heading for heading in headings if heading)
    return (
        f'<div class="table-scroll" tabindex="0" role="region" aria-label="{html_escape(label)}">'
        f"{match[0]}</div>"
    )


def parse_markdown(
    path: Path, body: str, first_line: int, root: Path | None = None
) -> ParsedMarkdown:
    """Render ``body`` (which starts at ``first_line`` of ``path``) to HTML with placeholders."""
    extractor = _Extractor(path, first_line, root)
    text = extractor.run(body)
    md = markdown.Markdown(
        extensions=MARKDOWN_EXTENSIONS,
        extension_configs={"toc": {"slugify": slugify_unicode, "toc_depth": "2"}},
        output_format="html",
    )
    html = md.convert(text)
    # Block placeholders come back wrapped in a paragraph of their own.
    html = re.sub(r"<p>(xqzplaceholder\d+xqz)</p>", r"\1", html)
    found = {int(n) for n in TOKEN_PATTERN.findall(html)}
    found |= extractor.in_quizzes
    lost = sorted(set(range(len(extractor.directives))) - found)
    if lost:
        kind = extractor.directives[lost[0]]
        what = f"the '{kind.kind}' directive" if kind else "a formula"
        raise ContentError(
            f"{location(path, None, root)}: {what} ended up where HTML cannot hold it "
            "(inside a link or an attribute?); move it into plain text"
        )
    slots = tuple(extractor.directives)
    # Math and escaped dollars are finished HTML: put them back now.
    html = TOKEN_PATTERN.sub(
        lambda m: (
            extractor.snippets[int(m.group(1))] if slots[int(m.group(1))] is None else m.group(0)
        ),
        html,
    )
    html = MARKDOWN_TABLE.sub(_scrolling_table, html)
    headings = tuple(
        (item["id"], item["name"])
        for item in md.toc_tokens  # type: ignore[attr-defined]
    )
    return ParsedMarkdown(
        path=path,
        html=html,
        slots=slots,
        headings=headings,
    )
