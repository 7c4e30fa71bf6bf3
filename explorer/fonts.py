"""The fonts the site ships: chart text is measured with them, pages get them subset.

A site's look must not depend on the fonts of the machine that builds it or of
the reader's. The templates' ``static/fonts/`` folder holds the text face in two
weights as TrueType files (Korean, Latin, Greek and the symbols the lessons use)
and the math face. Before any chart is rendered the text faces are registered
with vl-convert, and every chart names that family (see
:func:`privacy_explorer.charts.chart_spec`), so chart layout is computed with the
same outlines everywhere. The pages get each face as WOFF2, cut down to the
characters the site's files contain; the same content gives the same bytes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import os
import pickle
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import brotli
import fontTools
import vl_convert
from fontTools import subset
from fontTools.ttLib import TTFont

from privacy_explorer.errors import ContentError

TEXT_FAMILY = "Noto Sans KR Explorer"
"""The text face's family name: first in the CSS font stack and in every chart's config."""
TEXT_FACES = ("NotoSansKRExplorer-Regular.ttf", "NotoSansKRExplorer-Bold.ttf")
"""The text face in weights 400 and 700 (a real bold, not a synthetic one)."""
MATH_FACE = "NotoSansMath-Regular.woff2"
"""The math face for MathML formulas."""
ALWAYS_KEPT = "".join(chr(code) for code in range(0x20, 0x7F)) + "\u00a0\u00b5\u2026\u2212"
"""Printable ASCII, no-break space, µ, … and −: the runtime and Vega write numbers with them."""
SUBSET_RECIPE = "woff2 subset v1"
"""Part of every subset's cache key; change it when the subsetting options change."""


@dataclass(frozen=True)
class ShippedFonts:
    """The fonts in a templates folder, read once per build."""

    folder: Path
    """``static/fonts/`` of the templates in use."""
    fingerprint: str
    """SHA-256 over the text faces and the subsetting tools: chart SVGs depend on both."""
    coverage: frozenset[int]
    """Code points that every text face draws."""


def shipped_fonts(templates_dir: Path) -> ShippedFonts:
    """The fonts under ``templates_dir/static/fonts``, checked to be present."""
    folder = templates_dir / "static" / "fonts"
    digest = hashlib.sha256(f"{SUBSET_RECIPE} {fontTools.version} {brotli.version}".encode())
    coverage: set[int] | None = None
    for name in (*TEXT_FACES, MATH_FACE):
        if not (folder / name).is_file():
            raise ContentError(
                f"{folder / name}: missing; the site ships its fonts (see README.md, Fonts): "
                f"copy static/fonts/ from the explorer's own site_templates"
            )
    for name in TEXT_FACES:
        data = (folder / name).read_bytes()
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        codes = set(TTFont(io.BytesIO(data), lazy=True).getBestCmap())
        coverage = codes if coverage is None else coverage & codes
    return ShippedFonts(folder.resolve(), digest.hexdigest(), frozenset(coverage or ()))


_registered: set[Path] = set()


def register_for_charts(fonts: ShippedFonts) -> None:
    """Let vl-convert measure and draw chart text with the shipped text faces.

    vl-convert keeps registered fonts for the life of the process, so each
    folder is registered once. The files must stay where they are meanwhile.
    """
    if fonts.folder not in _registered:
        vl_convert.register_font_directory(str(fonts.folder))
        _registered.add(fonts.folder)


def missing_characters(text: str, fonts: ShippedFonts) -> list[str]:
    """Characters of ``text`` that the text faces cannot draw, in order of first use."""
    seen: dict[str, None] = {}
    for char in text:
        if not char.isspace() and ord(char) not in fonts.coverage:
            seen.setdefault(char)
    return list(seen)


def site_characters(files: dict[str, str | bytes]) -> str:
    """Every character a reader can see: those of the pages, page data and chart SVGs."""
    used = set(ALWAYS_KEPT)
    for path, content in files.items():
        if path.endswith((".html", ".svg")) or path.startswith("assets/data/"):
            text = content if isinstance(content, str) else content.decode("utf-8")
            # MathML writes its symbols as character references (&#x02211; for ∑).
            used.update(html.unescape(text) if path.endswith((".html", ".svg")) else text)
    return "".join(sorted(used))


LAYOUT_TABLES = ("GDEF", "GSUB", "GPOS")
"""Tables the subsetter reads whole, whatever few glyphs it keeps."""


@functools.lru_cache(maxsize=4)
def _decoded(font_bytes: bytes) -> bytes:
    """The font ``font_bytes`` read once and pickled: a copy for each subset.

    Subsetting changes the font it is given, so each subset needs its own copy, and
    unpickling one is cheaper than reading the file again, with the same result byte for
    byte (tests/test_fonts.py). A WOFF2 source (the math face) has every table read, since
    undoing its glyph transform and Brotli is most of the cost of a small subset. A
    TrueType source (the text faces) has only its layout tables read, which the subsetter
    decodes whole even for three glyphs; its outlines stay in the file, which the copy
    keeps, and are read glyph by glyph as a subset needs them.
    """
    font = TTFont(io.BytesIO(font_bytes), recalcTimestamp=False)
    if font_bytes.startswith(b"wOF2"):
        font.ensureDecompiled()
        font.reader = None  # every table is read; the file is no longer needed
    else:
        for tag in LAYOUT_TABLES:
            if tag in font:
                font[tag].ensureDecompiled()
    return pickle.dumps(font, protocol=pickle.HIGHEST_PROTOCOL)


def subset_woff2(font_bytes: bytes, characters: str) -> bytes:
    """``font_bytes`` cut down to ``characters`` as WOFF2; the same input gives the same bytes."""
    font = pickle.loads(_decoded(font_bytes))  # pickled by _decoded, in this process
    options = subset.Options()
    options.flavor = "woff2"
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence names
    subsetter = subset.Subsetter(options)
    wanted = {ord(char) for char in characters} & set(font.getBestCmap())
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


def web_fonts(
    fonts: ShippedFonts,
    characters: str,
    cache_dir: Path | None,
    faces: tuple[str, ...] = (*TEXT_FACES, MATH_FACE),
) -> dict[str, bytes]:
    """The page fonts, by path in the site: each shipped face of ``faces`` cut to ``characters``."""
    produced = {}
    for name in faces:
        source = (fonts.folder / name).read_bytes()
        woff2_name = Path(name).with_suffix(".woff2").name
        key = hashlib.sha256(
            "\0".join(
                (
                    SUBSET_RECIPE,
                    fontTools.version,
                    brotli.version,
                    hashlib.sha256(source).hexdigest(),
                    characters,
                )
            ).encode()
        ).hexdigest()
        produced[f"assets/fonts/{woff2_name}"] = _cached_bytes(
            cache_dir, f"{key}.woff2", functools.partial(subset_woff2, source, characters)
        )
    return produced


def embedded_faces_css(
    fonts: ShippedFonts, characters: str, weights: tuple[int, ...], cache_dir: Path | None
) -> str:
    """``@font-face`` rules carrying the text face in ``weights`` as data, cut to ``characters``.

    An SVG shown with ``<img>`` cannot load the page's fonts, so a chart's static
    SVG brings the few glyphs it draws itself.
    """
    rules = []
    for weight in weights:
        path = fonts.folder / (TEXT_FACES[0] if weight < 600 else TEXT_FACES[1])
        key = hashlib.sha256(f"{fonts.fingerprint}\0{path.name}\0{characters}".encode())

        def subset_face(path: Path = path) -> bytes:  # read only when the cache misses
            return subset_woff2(path.read_bytes(), characters)

        data = _cached_bytes(cache_dir, f"{key.hexdigest()}.woff2", subset_face)
        rules.append(
            f'@font-face{{font-family:"{TEXT_FAMILY}";font-weight:{weight};'
            f'src:url(data:font/woff2;base64,{base64.b64encode(data).decode()}) format("woff2")}}'
        )
    return "".join(rules)


def _cached_bytes(cache_dir: Path | None, name: str, produce: Callable[[], bytes]) -> bytes:
    """``produce()``, kept in ``cache_dir/name`` (written through a temporary file)."""
    if cache_dir is None:
        return produce()
    path = cache_dir / name
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = produce()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return data
