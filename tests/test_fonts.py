"""The shipped fonts: named first everywhere, subset deterministically, machine-independent."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from privacy_explorer import charts, fonts, page_fonts
from privacy_explorer.build import BuildReport, build
from privacy_explorer.errors import ExplorerError
from privacy_explorer.project import builtin_templates_dir, load_project

FONTS_DIR = builtin_templates_dir() / "static" / "fonts"
STYLE = (builtin_templates_dir() / "static" / "style.css").read_text("utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_css_names_the_shipped_face_first_in_a_real_regular_and_bold() -> None:
    body = re.search(r"\nbody \{(.*?)\n\}", STYLE, re.S)
    assert body is not None
    stack = re.search(r"font-family:([^;]*);", body.group(1))
    assert stack is not None
    assert stack.group(1).split(",")[0].strip() == f'"{fonts.TEXT_FAMILY}"'
    faces = re.findall(r"@font-face \{(.*?)\}", STYLE, re.S)
    weights = {
        re.findall(r"font-weight: (\d+);", face)[0]: re.findall(r'url\("([^"]+)"\)', face)[0]
        for face in faces
        if f'font-family: "{fonts.TEXT_FAMILY}";' in face
    }
    assert weights == {
        "400": "fonts/NotoSansKRExplorer-Regular.woff2",
        "700": "fonts/NotoSansKRExplorer-Bold.woff2",
    }


def test_the_committed_faces_are_the_family_the_css_names() -> None:
    for name, weight in zip(fonts.TEXT_FACES, (400, 700), strict=True):
        font = TTFont(FONTS_DIR / name)
        assert font["name"].getDebugName(1) == fonts.TEXT_FAMILY
        assert font["OS/2"].usWeightClass == weight
    readme = (FONTS_DIR / "README.md").read_text("utf-8")
    for name in fonts.TEXT_FACES:
        digest = hashlib.sha256((FONTS_DIR / name).read_bytes()).hexdigest()
        assert f"`{digest}`" in readme, f"{name}: its SHA-256 is not in fonts/README.md"


def test_every_chart_names_the_shipped_font(course_site: tuple[Path, BuildReport]) -> None:
    _, report = course_site
    pages = [path for path in report.files if path.endswith(".html")]
    specs = 0
    for page in pages:
        html = report.files[page].decode("utf-8")
        for text in re.findall(
            r'<script type="application/json" data-chart-spec>(.*?)</script>', html, re.S
        ):
            assert json.loads(text)["config"]["font"] == fonts.TEXT_FAMILY, page
            specs += 1
    assert specs > 0
    svgs = [path for path in report.files if path.endswith(".svg")]
    for path in svgs:
        families = set(re.findall(r'font-family="([^"]*)"', report.files[path].decode("utf-8")))
        assert families == {fonts.TEXT_FAMILY}, path


def test_subsetting_is_deterministic_and_keeps_exactly_the_characters_used() -> None:
    source = (FONTS_DIR / fonts.TEXT_FACES[1]).read_bytes()
    text = "반복 r의 노출 점수 log₂|R| ↵"
    first = fonts.subset_woff2(source, text)
    again = fonts.subset_woff2(source, "".join(reversed(text)))
    assert first == again
    font = TTFont(io.BytesIO(first))
    assert set(font.getBestCmap()) == {ord(char) for char in text}
    assert font["head"].modified == TTFont(io.BytesIO(source))["head"].modified
    assert fonts.subset_woff2(source, text + "다") != first


@pytest.mark.parametrize("face", [fonts.MATH_FACE, fonts.TEXT_FACES[0]])
def test_a_subset_from_the_font_read_once_equals_one_read_afresh(face: str) -> None:
    """subset_woff2 keeps each source font decoded between calls; fontTools on a freshly
    read file is the reference, for a WOFF2 source (math) and a TrueType one (text)."""
    from fontTools import subset

    source = (FONTS_DIR / face).read_bytes()
    cmap = sorted(TTFont(io.BytesIO(source)).getBestCmap())
    for count in (3, 40, 400):
        text = "".join(chr(code) for code in cmap[:: max(1, len(cmap) // count)])
        font = TTFont(io.BytesIO(source), recalcTimestamp=False)
        options = subset.Options()
        options.flavor = "woff2"
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes={ord(char) for char in text})
        subsetter.subset(font)
        out = io.BytesIO()
        font.flavor = "woff2"
        font.save(out)
        assert fonts.subset_woff2(source, text) == out.getvalue(), (face, count)
        assert fonts.subset_woff2(source, text) == out.getvalue()  # the second call too


def test_the_site_ships_its_fonts_subset_to_what_its_pages_show(sample_project: Path) -> None:
    report = build(load_project(sample_project), write=False)
    files = dict(report.files)
    for page in ("01-dice.html", "en/01-dice.html", "index.html"):
        used = set(page_fonts.page_characters(page_fonts.page_texts(files, page)))
        html = files[page].decode("utf-8")
        subsets = re.findall(r'url\("(?:\.\./)?(assets/fonts/[^"]+\.woff2)"\)', html)
        assert len(subsets) == 3, page
        math = set(page_fonts.math_characters(html))  # formulas, their italic letters
        for path in subsets:
            drawn = {chr(code) for code in TTFont(io.BytesIO(files[path])).getBestCmap() or ()}
            assert drawn <= (math if "/NotoSansMath-" in path else used), f"{page}: {path}"
    korean = re.search(
        r'url\("(assets/fonts/NotoSansKRExplorer-Regular\.[^"]+)"\)',
        files["01-dice.html"].decode("utf-8"),
    )
    assert korean is not None
    cmap = TTFont(io.BytesIO(files[korean.group(1)])).getBestCmap()
    assert ord("눈") in cmap and ord("뷁") not in cmap


def test_a_chart_svg_carries_the_glyphs_it_draws(sample_project: Path) -> None:
    report = build(load_project(sample_project), write=False)
    shipped = fonts.shipped_fonts(builtin_templates_dir())
    for lang in ("ko", "en"):
        svg = report.files[f"assets/charts/01-dice/faces.{lang}.svg"].decode("utf-8")
        shown = set(charts.svg_text(svg)) & {chr(code) for code in shipped.coverage}
        embedded = re.findall(r"font-weight:(\d+);src:url\(data:font/woff2;base64,([^)]+)\)", svg)
        assert [weight for weight, _ in embedded] == ["400", "700"]  # the title is bold
        for _, data in embedded:
            font = TTFont(io.BytesIO(base64.b64decode(data)))
            assert {chr(code) for code in font.getBestCmap()} == shown


def test_the_svg_cache_key_holds_the_fonts(tmp_path: Path) -> None:
    shipped = fonts.shipped_fonts(builtin_templates_dir())
    spec = {
        "config": {"font": fonts.TEXT_FAMILY},
        "mark": "text",
        "encoding": {"text": {"value": "글자"}},
    }
    charts.render_svg(spec, shipped, tmp_path)
    charts.render_svg(spec, dataclasses.replace(shipped, fingerprint="other fonts"), tmp_path)
    assert len(list(tmp_path.glob("*.svg"))) == 2


def test_a_chart_renders_the_same_whatever_the_renderer_drew_before() -> None:
    """Vega numbers clip paths and gradients per renderer; a worker's history must not show."""
    shipped = fonts.shipped_fonts(builtin_templates_dir())
    gradient = {
        "data": {"values": [{"x": 0, "y": 0, "v": 1}, {"x": 1, "y": 1, "v": 2}]},
        "mark": {"type": "rect", "clip": True},
        "encoding": {
            "x": {"field": "x", "type": "ordinal"},
            "y": {"field": "y", "type": "ordinal"},
            "color": {"field": "v", "type": "quantitative"},
        },
    }
    first = charts.render_svg(gradient, shipped)
    assert 'id="clip1"' in first and "url(#gradient_1)" in first
    for _ in range(2):  # the renderer's counters move on ...
        charts.render_svg({**gradient, "width": 50}, shipped)
    assert charts.render_svg(gradient, shipped) == first  # ... and the chart does not change


def test_a_chart_that_names_another_font_is_refused(sample_project: Path) -> None:
    module = sample_project / "compute" / "dice.py"
    text = module.read_text("utf-8")
    module.write_text(text.replace(".mark_bar(", '.mark_bar(font="Arial", ', 1), "utf-8")
    with pytest.raises(ExplorerError) as caught:
        build(load_project(sample_project), write=False)
    assert "remove font='Arial'" in caught.value.message
    assert "compute/dice.py: chart 'faces' (ko)" in caught.value.message


def test_a_chart_character_the_font_lacks_is_an_error(sample_project: Path) -> None:
    module = sample_project / "compute" / "dice.py"
    text = module.read_text("utf-8")
    module.write_text(text.replace('"눈별 횟수"', '"눈별 횟수 漢"', 1), "utf-8")
    with pytest.raises(ExplorerError) as caught:
        build(load_project(sample_project), write=False)
    assert "'漢' (U+6F22), which the shipped font 'Noto Sans KR Explorer' lacks" in (
        caught.value.message
    )


# --- the machine's fonts do not matter ------------------------------------------------------

MEASURE_WITHOUT_SHIPPED_FONTS = """
import hashlib, vl_convert
spec = {"mark": "text", "encoding": {"text": {"value": "반복 횟수에 따른 노출 점수 (bits)"}},
        "title": "문맥 길이"}
print(hashlib.sha256(vl_convert.vegalite_to_svg(spec).encode()).hexdigest())
"""


@dataclass(frozen=True)
class Machine:
    """How to run a command as if on a machine with other fonts installed."""

    prefix: tuple[str, ...]
    """Put before the command (empty, or an ``unshare`` that hides the system fonts)."""
    env: dict[str, str]
    """The environment (``XDG_DATA_HOME`` holds the user's fonts)."""

    def run(self, *args: str) -> str:
        result = subprocess.run(
            [*self.prefix, *args], env=self.env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr
        return result.stdout


NO_SYSTEM_FONTS = (
    "unshare", "--mount", "--propagation", "private",
    "sh", "-c", 'mount -t tmpfs fonts /usr/share/fonts && exec "$@"', "sh",
)  # fmt: skip
"""Run a command where /usr/share/fonts is empty (needs root; other processes are not touched)."""


def machines(tmp_path: Path) -> dict[str, Machine]:
    """This machine, the same with one more Korean font, and (as root) one with no fonts at all."""
    empty = tmp_path / "empty-xdg"
    (empty / "fonts").mkdir(parents=True)
    extra = tmp_path / "extra-xdg"
    (extra / "fonts").mkdir(parents=True)
    font = TTFont(FONTS_DIR / fonts.TEXT_FACES[1])  # bold outlines: other widths
    for record in font["name"].names:
        if record.nameID in (1, 4):
            record.string = "Machine Sans"
    font.save(extra / "fonts" / "MachineSans.ttf")
    found = {
        "this machine": Machine((), {**os.environ, "XDG_DATA_HOME": str(empty)}),
        "one more font": Machine((), {**os.environ, "XDG_DATA_HOME": str(extra)}),
    }
    bare = Machine(NO_SYSTEM_FONTS, {**os.environ, "XDG_DATA_HOME": str(empty)})
    try:
        bare.run("true")
    except AssertionError:
        return found  # not root, or no unshare: the two machines above still differ
    return {**found, "no fonts": bare}


def test_chart_svgs_are_the_same_whatever_fonts_the_machine_has(
    sample_project: Path, tmp_path: Path
) -> None:
    found = machines(tmp_path)
    # Each machine really has other fonts: text measured without the shipped fonts differs.
    unshipped = {
        label: m.run(sys.executable, "-c", MEASURE_WITHOUT_SHIPPED_FONTS)
        for label, m in found.items()
    }
    assert len(set(unshipped.values())) == len(found), unshipped

    sites = {}
    for label, machine in found.items():
        project = tmp_path / f"course-{label.replace(' ', '-')}"
        shutil.copytree(sample_project, project)  # a cold cache each time
        machine.run(sys.executable, "-m", "privacy_explorer", "build", "--project", str(project))
        sites[label] = snapshot(project / "build" / "site")
    (first_label, first), *others = sites.items()
    for label, files in others:
        assert files.keys() == first.keys()
        for path in sorted(first):
            assert files[path] == first[path], f"{path}: {label} differs from {first_label}"
