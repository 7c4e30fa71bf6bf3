"""Make the committed text faces NotoSansKRExplorer-{Regular,Bold}.ttf (see README.md here).

A maintainer runs this once, when the characters the course may use change; the
build never runs it. It keeps the Hangul syllables of KS X 1001, Latin, Greek
and the punctuation and symbols the lessons need from Noto Sans KR, adds the
super- and subscript digits from Noto Sans and the return arrow from Noto Sans
Math, and renames the family so that no installed "Noto Sans KR" can stand in
for it when vl-convert measures chart text.

    python make_text_font.py NOTO_SANS_KR_DIR NOTO_SANS_DIR

NOTO_SANS_KR_DIR and NOTO_SANS_DIR are the unpacked ``package/`` folders of the
npm packages @expo-google-fonts/noto-sans-kr 0.4.3 and @expo-google-fonts/noto-sans
0.4.2. The output is the same bytes on every machine with the same fontTools.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from fontTools import subset
from fontTools.misc.timeTools import timestampFromString
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
FAMILY = "Noto Sans KR Explorer"
# The release date of Noto Sans KR 2.004, in place of the clock, so the output never changes.
FIXED_TIMESTAMP = timestampFromString("Thu Mar 25 00:00:00 2021")
SOURCES = {
    # weight: (Noto Sans KR file, its SHA-256, Noto Sans file, its SHA-256)
    "Regular": (
        "400Regular/NotoSansKR_400Regular.ttf",
        "8cbc9b353bb9ce848fd69bb6a507319dfacc659cf5fd643db5d88f3c4970e1dd",
        "400Regular/NotoSans_400Regular.ttf",
        "fe8c022f48d8dd29f17b744d16f9346f4357e16f7d4f7be58b000ae7c291b614",
    ),
    "Bold": (
        "700Bold/NotoSansKR_700Bold.ttf",
        "4ffa20c272ae6d689f7c8d34ff9c8039a326e9c334d9fc8852b2a7396227d077",
        "700Bold/NotoSans_700Bold.ttf",
        "13a813c49624ae3ba3c5c6e72c5ebffc4b9e1e6ea32f421c04069b037c6ad431",
    ),
}
MATH_FONT = HERE / "NotoSansMath-Regular.woff2"
KEPT_RANGES = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x02C6, 0x02DD),  # spacing modifier letters (accents)
    (0x0370, 0x03FF),  # Greek
    (0x2000, 0x206F),  # general punctuation
    (0x20A0, 0x20CF),  # currency signs
    (0x2100, 0x214F),  # letterlike symbols
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x2300, 0x23FF),  # miscellaneous technical
    (0x2400, 0x243F),  # control pictures (␣)
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x2500, 0x27BF),  # box drawing, shapes, symbols, dingbats
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0xFF01, 0xFF5E),  # full-width forms
)
FROM_NOTO_SANS = tuple(range(0x2070, 0x208F))  # ⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ₀₁₂…₎
FROM_NOTO_SANS_MATH = (0x21B5,)  # ↵, drawn for a newline in lesson 01


def ks_x_1001_syllables() -> set[int]:
    """The 2,350 precomposed Hangul syllables of KS X 1001 (those EUC-KR can encode)."""
    # Python's codec spells the other syllables as 8-byte jamo sequences (KS X 1001 annex 3).
    return {code for code in range(0xAC00, 0xD7A4) if len(chr(code).encode("euc-kr")) == 2}


def checked(path: Path, sha256: str) -> Path:
    if hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
        sys.exit(f"{path}: unexpected SHA-256; use the npm package versions named in README.md")
    return path


def add_glyph(target: TTFont, source: TTFont, code: int) -> None:
    """Copy the outline of ``code`` from ``source`` into ``target`` (components flattened)."""
    source_name = source.getBestCmap()[code]
    recording = DecomposingRecordingPen(source.getGlyphSet())
    source.getGlyphSet()[source_name].draw(recording)
    pen = TTGlyphPen(None)
    recording.replay(pen)
    glyph = pen.glyph()
    name = f"uni{code:04X}"
    order = target.getGlyphOrder()
    assert name not in order, name
    glyf = target["glyf"]
    target.setGlyphOrder([*order, name])
    glyf.glyphOrder = target.getGlyphOrder()
    glyf.glyphs[name] = glyph
    glyph.recalcBounds(glyf)
    advance, _ = source["hmtx"][source_name]
    target["hmtx"][name] = (advance, glyph.xMin if glyph.numberOfContours else 0)
    for table in target["cmap"].tables:
        if table.isUnicode():
            table.cmap[code] = name


def rename(font: TTFont, style: str) -> None:
    postscript = f"{FAMILY.replace(' ', '')}-{style}"
    names = {1: FAMILY, 2: style, 3: f"2.004-explorer;{postscript}", 4: f"{FAMILY} {style}"}
    names[6] = postscript
    table = font["name"]
    for record in list(table.names):
        if record.nameID in (
            16,
            17,
            18,
            21,
            22,
            25,
        ):  # typographic names would restate the old family
            table.removeNames(nameID=record.nameID)
    for name_id, text in names.items():
        table.setName(text, name_id, 3, 1, 0x409)
        table.setName(text, name_id, 1, 0, 0)


def make(style: str, korean_dir: Path, latin_dir: Path) -> Path:
    korean_file, korean_sha, latin_file, latin_sha = SOURCES[style]
    font = TTFont(checked(korean_dir / korean_file, korean_sha), recalcTimestamp=False)
    options = subset.Options()
    options.hinting = False  # browsers and the SVG renderer scale outlines; hints cost bytes
    options.drop_tables += ["vhea", "vmtx", "BASE", "STAT"]
    options.layout_features = ["kern", "liga", "ccmp", "locl", "mark", "mkmk"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    codes = ks_x_1001_syllables()
    for first, last in KEPT_RANGES:
        codes.update(range(first, last + 1))
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    latin = TTFont(checked(latin_dir / latin_file, latin_sha))
    math = TTFont(MATH_FONT)
    for code in FROM_NOTO_SANS:
        if code in latin.getBestCmap() and code not in font.getBestCmap():
            add_glyph(font, latin, code)
    for code in FROM_NOTO_SANS_MATH:
        if code not in font.getBestCmap():
            add_glyph(font, math, code)
    rename(font, style)
    font["head"].created = font["head"].modified = FIXED_TIMESTAMP
    out = HERE / f"{FAMILY.replace(' ', '')}-{style}.ttf"
    font.save(out)
    return out


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    korean_dir, latin_dir = Path(sys.argv[1]), Path(sys.argv[2])
    for style in SOURCES:
        out = make(style, korean_dir, latin_dir)
        print(f"{out.name}  {hashlib.sha256(out.read_bytes()).hexdigest()}")


if __name__ == "__main__":
    main()
