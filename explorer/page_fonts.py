"""Each page's own fonts: the shipped faces cut down to what that one page can show.

A lesson page used to load the faces subset to the whole site's characters, so
every page paid for the Hangul of every other page. Now each page that links
``assets/style.css`` gets ``@font-face`` rules of its own, in a ``<style>`` just
before that link, naming faces subset to the characters the page can ever show:
its HTML (text, chart specs, control labels, the language switch), its page data
(the readouts and table cells of every grid point), the chunk scripts of its
lesson's lazy rows (chart labels Vega draws from them) and
:data:`~privacy_explorer.fonts.ALWAYS_KEPT` (what Vega and the runtime write
numbers with). The site's ``style.css`` keeps everything but its ``@font-face``
rules.

The bold face carries less: text that no rule can set in bold needs only the
regular one. :func:`bold_texts` drops from the HTML the text of elements that
neither the browser's defaults (``strong``, ``h1``, ``th``, …) nor a bold rule of
the site's style sheet can reach (no bold tag, class or inline style on the way
up), which is most of a lesson's prose; everything else (headings, labels,
readouts, table headers, and all that the page data and chunks can show) stays.

A subset file is named by its content, ``assets/fonts/<face>.<digest>.woff2``,
so pages that show the same characters share one file, and a browser never
holds a stale subset under a name another build reused. The subsets themselves
are cached in the asset cache under their inputs (see
:func:`privacy_explorer.fonts.web_fonts`).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Iterable, Mapping
from html import escape, unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from privacy_explorer import fonts as font_tools
from privacy_explorer.lazy import page_chunk_paths
from privacy_explorer.links import SCRIPT_TAG

FONT_FACE_RULE = re.compile(r"@font-face\s*\{[^}]*\}\s*")
"""One ``@font-face`` rule of a stylesheet, with the space after it."""
_FACE_URL = re.compile(r'url\("fonts/([^"]+)"\)')
_STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="((?:\.\./)*)assets/style\.css">')
_DATA_SCRIPT = re.compile(r"assets/data/([^/]+)\.[a-z]{2}\.js")
_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_MATH = re.compile(r"<math\b[^>]*>(.*?)</math>", re.S)
_TAG = re.compile(r"<[^>]*>")
_SINGLE_MI = re.compile(r"<mi>([^<]|&[^;<]+;)</mi>")
_ITALIC_RANGES = (
    (ord("A"), ord("Z"), 0x1D434),
    (ord("a"), ord("z"), 0x1D44E),
    (0x0391, 0x03A9, 0x1D6E2),  # Α–Ω
    (0x03B1, 0x03C9, 0x1D6FC),  # α–ω
)
_ITALIC_EXCEPTIONS = {
    "h": "\u210e",  # ℎ, the Planck constant, predates the block
    "\u03f4": "\U0001d6f3",  # ϴ
    "\u2207": "\U0001d6fb",  # ∇
    "\u2202": "\U0001d715",  # ∂
    "\u03f5": "\U0001d716",  # ϵ
    "\u03d1": "\U0001d717",  # ϑ
    "\u03f0": "\U0001d718",  # ϰ
    "\u03d5": "\U0001d719",  # ϕ
    "\u03f1": "\U0001d71a",  # ϱ
    "\u03d6": "\U0001d71b",  # ϖ
    "\u0131": "\U0001d6a4",  # ı
    "\u0237": "\U0001d6a5",  # ȷ
}
"""Letters whose italic form is not at its place in :data:`_ITALIC_RANGES`."""
DIGEST_LENGTH = 12
"""Hex digits of a subset's SHA-256 in its file name."""
BOLD_BY_DEFAULT = ("b", "strong", "h1", "h2", "h3", "h4", "h5", "h6", "th", "optgroup")
"""Elements that browsers set in bold without any rule of ours."""
_WEIGHT = re.compile(r"(?:^|;)\s*font(?:-weight)?\s*:([^;]*)")
_WEIGHT_VALUE = re.compile(r"(?<![-\w.])(bold|bolder|\d+)(?![-\w.%])")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SELECTOR_NAME = re.compile(r"([.#]?)(-?[_a-zA-Z][-_a-zA-Z0-9]*)")
_ATTRIBUTE_NAME = re.compile(r"\[\s*([-_a-zA-Z0-9]+)")
_DRAWN_ATTRIBUTES = ("value", "label", "placeholder")
_VOID = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr")
)


def font_face_rules(style_css: str) -> str:
    """The ``@font-face`` rules of ``style_css``, in order, and nothing else."""
    return "".join(match.group(0) for match in FONT_FACE_RULE.finditer(style_css))


def without_font_faces(style_css: str) -> str:
    """``style_css`` without its ``@font-face`` rules: the pages bring their own."""
    return FONT_FACE_RULE.sub("", style_css)


def subset_path(face: str, data: bytes) -> str:
    """Where a subset of the shipped ``face`` (a ``.woff2`` name) goes: named by its bytes."""
    stem = face.removesuffix(".woff2")
    return f"assets/fonts/{stem}.{hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH]}.woff2"


def page_texts(files: Mapping[str, str | bytes], page: str) -> list[str]:
    """The text of ``page`` and of every site file it can show text from.

    Those are the page data scripts it loads (``assets/data/<lesson>.<lang>.js``)
    and the chunk scripts of the same lesson (``assets/data/<lesson>.<n>.js``, and
    ``assets/data/<lesson>.<lang>.<n>.js`` of its language),
    which the runtime loads when a control needs their rows.
    """
    html = _text(files[page])
    texts = [html, unescape(html)]  # the characters behind entities such as &ndash; too
    folder = posixpath.dirname(page)
    for src in SCRIPT_TAG.findall(html):
        path = posixpath.normpath(posixpath.join(folder, src))
        found = _DATA_SCRIPT.fullmatch(path)
        if found is None or path not in files:
            continue
        texts.append(_unescape_json(_text(files[path])))
        # Chunks of chart rows serve every language; chunks of table cells, one (lazy.py).
        lang = path.removesuffix(".js").rsplit(".", 1)[1]
        chunks = page_chunk_paths(files, found.group(1), lang)
        texts.extend(_unescape_json(_text(files[chunk])) for chunk in chunks)
    return texts


Compound = tuple[str, frozenset[str]]
"""One compound selector, loosely: its tag name (``""`` for any) and its ``.class``,
``#id`` and ``[attribute]`` names."""


def _compound(text: str) -> Compound:
    text = re.sub(r"\((?:[^()]|\([^()]*\))*\)", "", text)  # what :has(...), :not(...) hold
    names = {f"[{name}]" for name in _ATTRIBUTE_NAME.findall(text)}
    plain = re.sub(r"\[[^\]]*\]|::?[-a-zA-Z]+", "", text)
    tag = ""
    for prefix, name in _SELECTOR_NAME.findall(plain):
        if prefix:
            names.add(prefix + name)
        else:
            tag = name.lower()
    return tag, frozenset(names)


def bold_selectors(style_css: str) -> tuple[tuple[Compound, ...], ...]:
    """The selectors of ``style_css`` that set a bold weight, and the browser's bold tags.

    Each selector is its compounds, outermost first; a sibling combinator's left
    side is dropped, and pseudo-classes are ignored, so a selector matches at least
    every element the browser would match (over-matching only keeps more glyphs).
    """
    css = re.sub(r"/\*.*?\*/", "", without_font_faces(style_css), flags=re.S)
    found: list[tuple[Compound, ...]] = [((tag, frozenset()),) for tag in sorted(BOLD_BY_DEFAULT)]
    for selectors, body in _RULE.findall(css):
        if not sets_bold(body):
            continue
        for selector in _split_selectors(selectors):
            parts = re.split(r"\s*([+~])\s*", selector)
            kept = parts[-1] if len(parts) > 1 else selector  # what follows the last sibling step
            compounds = tuple(_compound(c) for c in re.split(r"\s*>\s*|\s+", kept.strip()) if c)
            found.append(compounds or (("", frozenset()),))
    return tuple(found)


def sets_bold(declarations: str) -> bool:
    """Whether ``declarations`` (a rule's body) set a weight the bold face draws.

    ``font-weight`` or the ``font`` shorthand: ``bold``, ``bolder`` or a number
    above 500, which the browser matches to the 700 face when 400 and 700 exist.
    """
    for value in _WEIGHT.findall(declarations):
        for weight in _WEIGHT_VALUE.findall(value):
            if weight in ("bold", "bolder") or 500 < int(weight) <= 1000:
                return True
    return False


def _split_selectors(selectors: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside ``:is(...)``)."""
    parts, depth, current = [], 0, ""
    for char in selectors:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part.strip() for part in [*parts, current] if part.strip()]


def _matches(compound: Compound, element: Compound) -> bool:
    tag, names = compound
    return (not tag or tag in ("*", element[0])) and names <= element[1]


def _selects(selector: tuple[Compound, ...], chain: list[Compound]) -> bool:
    """Whether ``selector`` can match the last element of ``chain`` (its ancestors before it)."""
    if not chain or not _matches(selector[-1], chain[-1]):
        return False
    ancestors = iter(reversed(chain[:-1]))
    return all(any(_matches(compound, up) for up in ancestors) for compound in selector[-2::-1])


def _drawn_attributes(tag: str, attrs: list[tuple[str, str | None]]) -> str:
    """A start tag with only the attributes whose text a page may draw in bold: ``data-*``
    (texts the runtime puts in view), ``value``, ``label`` and ``placeholder``. Names for
    screen readers (``aria-label``), tooltips (``title``, drawn by the system) and ``alt``
    (in the regular weight of the prose around it) need no bold glyphs."""
    kept = [
        f' {name}="{escape(value)}"'
        for name, value in attrs
        if value is not None and (name.startswith("data-") or name in _DRAWN_ATTRIBUTES)
    ]
    return f"<{tag}{''.join(kept)}>"


class _BoldText(HTMLParser):
    """The HTML of a page without the text that can only be set in the regular weight."""

    def __init__(self, bold: tuple[tuple[Compound, ...], ...]) -> None:
        super().__init__(convert_charrefs=False)
        self.bold = bold
        self.kept: list[str] = []
        self.chain: list[Compound] = []
        self.open: list[bool] = []  # per open element: whether its text may be bold

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        self.kept.append(_drawn_attributes(tag, attrs))
        if tag in _VOID:
            return
        names = {f".{name}" for name in (given.get("class") or "").split()}
        names |= {f"[{name}]" for name in given}
        if given.get("id"):
            names.add(f"#{given['id']}")
        self.chain.append((tag, frozenset(names)))
        may = tag in ("script", "style") or "style" in given
        may = may or any(_selects(selector, self.chain) for selector in self.bold)
        self.open.append(may)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.kept.append(_drawn_attributes(tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        self.kept.append(f"</{tag}>")
        for depth in range(len(self.chain) - 1, -1, -1):
            if self.chain[depth][0] == tag:
                del self.chain[depth:], self.open[depth:]
                break

    def _text(self, text: str) -> None:
        if any(self.open):  # bold is inherited
            self.kept.append(text)

    def handle_data(self, data: str) -> None:
        if self.chain and "[data-chart-spec]" in self.chain[-1][1]:
            data = json.dumps(_without_descriptions(json.loads(data)), ensure_ascii=False)
        self._text(data)

    def handle_entityref(self, name: str) -> None:
        self._text(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._text(f"&#{name};")


def _without_descriptions(spec: Any) -> Any:
    """A chart spec without its ``description`` texts: Vega gives them to screen readers
    (``aria-label``), never draws them."""
    if isinstance(spec, dict):
        return {k: _without_descriptions(v) for k, v in spec.items() if k != "description"}
    if isinstance(spec, list):
        return [_without_descriptions(item) for item in spec]
    return spec


def bold_texts(texts: list[str], style_css: str) -> list[str]:
    """:func:`page_texts` of a page without what only the regular weight can show.

    The first two entries (the page's HTML, as written and unescaped) lose the
    text that no bold selector of ``style_css`` (:func:`bold_selectors`) reaches,
    on its element or an ancestor; an element with a ``style`` attribute counts as
    bold. The page data and chunks stay whole: readouts and table cells
    may be bold. Chart specs lose their ``description``, which no face draws.
    """
    parser = _BoldText(bold_selectors(style_css))
    parser.feed(texts[0])
    parser.close()
    html = "".join(parser.kept)
    return [html, unescape(html), *texts[2:]]


def page_characters(texts: Iterable[str]) -> str:
    """Every character of ``texts`` and :data:`~privacy_explorer.fonts.ALWAYS_KEPT`, sorted."""
    used = set(font_tools.ALWAYS_KEPT)
    for text in texts:
        used.update(text)
    return "".join(sorted(used))


def math_characters(html: str) -> str:
    """The characters the formulas of ``html`` show, sorted.

    Their text, and the mathematical italic letter that a one-letter ``<mi>``
    turns into (MathML Core's ``text-transform: math-auto``): ``<mi>x</mi>``
    shows U+1D465, not ``x``.
    """
    used: set[str] = set()
    for formula in _MATH.findall(html):
        used.update(unescape(_TAG.sub("", formula)))
        for letter in _SINGLE_MI.findall(formula):
            used.update(math_italic(unescape(letter)))
    return "".join(sorted(used))


def math_italic(letter: str) -> str:
    """The mathematical italic form of a Latin or Greek ``letter`` ("" when it has none)."""
    if len(letter) != 1:
        return ""
    code = ord(letter)
    if letter in _ITALIC_EXCEPTIONS:
        return _ITALIC_EXCEPTIONS[letter]
    for first, last, italic in _ITALIC_RANGES:
        if first <= code <= last:
            return chr(italic + code - first)
    return ""


def with_page_fonts(
    files: Mapping[str, str | bytes],
    fonts: font_tools.ShippedFonts,
    face_rules: str,
    cache_dir: Path | None,
) -> dict[str, str | bytes]:
    """``files`` where each page linking ``assets/style.css`` carries its own subset faces.

    ``face_rules`` are the ``@font-face`` rules of the templates' stylesheet, whose
    ``url("fonts/<face>")`` name the shipped faces; each page gets them with the
    URLs of its own subsets, relative to the page. The subset files join the site.
    """
    out = dict(files)
    style_css = _text(files.get("assets/style.css", b""))
    for page in sorted(files):
        if not page.endswith(".html"):
            continue
        html = _text(files[page])
        link = _STYLESHEET_LINK.search(html)
        if link is None:
            continue
        root = link.group(1)  # from the page to the site root: "" or "../"
        texts = page_texts(files, page)
        characters = page_characters(texts)
        bold = page_characters(bold_texts(texts, style_css))
        regular_face, bold_face = font_tools.TEXT_FACES
        subsets = font_tools.web_fonts(fonts, characters, cache_dir, (regular_face,))
        subsets |= font_tools.web_fonts(fonts, bold, cache_dir, (bold_face,))
        # The math face sets only formulas: their own characters are enough.
        math = math_characters(html)
        subsets |= font_tools.web_fonts(fonts, math, cache_dir, (font_tools.MATH_FACE,))
        urls = {}
        for shipped_path, data in subsets.items():
            path = subset_path(posixpath.basename(shipped_path), data)
            out[path] = data
            urls[posixpath.basename(shipped_path)] = root + path

        def own_url(match: re.Match[str], urls: dict[str, str] = urls, root: str = root) -> str:
            return f'url("{urls.get(match.group(1), root + "assets/fonts/" + match.group(1))}")'

        rules = _FACE_URL.sub(own_url, face_rules).strip()
        style = f"<style data-page-fonts>\n{rules}\n</style>\n"
        out[page] = html[: link.start()] + style + html[link.start() :]
    return out


def _unescape_json(script: str) -> str:
    """``script`` with its JSON ``\\uXXXX`` escapes written as the characters they stand for."""

    def character(match: re.Match[str]) -> str:
        code = int(match.group(1), 16)
        return "" if 0xD800 <= code < 0xE000 else chr(code)  # a surrogate half draws nothing

    return _JSON_ESCAPE.sub(character, script)


def _text(content: str | bytes) -> str:
    return content if isinstance(content, str) else content.decode("utf-8")
