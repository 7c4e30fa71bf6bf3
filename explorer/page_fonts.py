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

A subset file is named by its content, ``assets/fonts/<face>.<digest>.woff2``,
so pages that show the same characters share one file, and a browser never
holds a stale subset under a name another build reused. The subsets themselves
are cached in the asset cache under their inputs (see
:func:`privacy_explorer.fonts.web_fonts`).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Mapping
from html import unescape
from pathlib import Path

from privacy_explorer import fonts as font_tools

FONT_FACE_RULE = re.compile(r"@font-face\s*\{[^}]*\}\s*")
"""One ``@font-face`` rule of a stylesheet, with the space after it."""
_FACE_URL = re.compile(r'url\("fonts/([^"]+)"\)')
_STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="((?:\.\./)*)assets/style\.css">')
_SCRIPT_SRC = re.compile(r'<script src="([^"]+)"></script>')
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
    for src in _SCRIPT_SRC.findall(html):
        path = posixpath.normpath(posixpath.join(folder, src))
        found = _DATA_SCRIPT.fullmatch(path)
        if found is None or path not in files:
            continue
        texts.append(_unescape_json(_text(files[path])))
        # Chunks of chart rows serve every language; chunks of table cells, one (lazy.py).
        lang = path.removesuffix(".js").rsplit(".", 1)[1]
        chunk = re.compile(rf"assets/data/{re.escape(found.group(1))}\.(?:{lang}\.)?\d+\.js")
        texts.extend(_unescape_json(_text(files[p])) for p in sorted(files) if chunk.fullmatch(p))
    return texts


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
    for page in sorted(files):
        if not page.endswith(".html"):
            continue
        html = _text(files[page])
        link = _STYLESHEET_LINK.search(html)
        if link is None:
            continue
        root = link.group(1)  # from the page to the site root: "" or "../"
        characters = page_characters(page_texts(files, page))
        subsets = font_tools.web_fonts(fonts, characters, cache_dir, font_tools.TEXT_FACES)
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
