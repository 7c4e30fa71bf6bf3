"""The shipped fonts: named first everywhere, subset deterministically, machine-independent."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from privacy_explorer import charts, fonts
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


def test_the_site_ships_its_fonts_subset_to_what_its_pages_show(sample_project: Path) -> None:
    report = build(load_project(sample_project), write=False)
    used = set(fonts.site_characters(dict(report.files)))
    for name in ("NotoSansKRExplorer-Regular", "NotoSansKRExplorer-Bold", "NotoSansMath-Regular"):
        font = TTFont(io.BytesIO(report.files[f"assets/fonts/{name}.woff2"]))
        drawn = {chr(code) for code in font.getBestCmap()}
        assert drawn <= used
    korean = TTFont(io.BytesIO(report.files["assets/fonts/NotoSansKRExplorer-Regular.woff2"]))
    assert ord("눈") in korean.getBestCmap() and ord("뷁") not in korean.getBestCmap()


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
spec = {"mark": "text", "encoding": {"text": {"value": "반복 횟수에 따른 노출 점수"}},
        "title": "문맥 길이"}
print(hashlib.sha256(vl_convert.vegalite_to_svg(spec).encode()).hexdigest())
"""


def machine_with_extra_font(tmp_path: Path) -> dict[str, str]:
    """An environment whose user font folder holds one more Korean font than the machine's."""
    font = TTFont(FONTS_DIR / fonts.TEXT_FACES[1])  # bold outlines: other widths
    for record in font["name"].names:
        if record.nameID in (1, 4):
            record.string = "Machine Sans"
    folder = tmp_path / "xdg-data" / "fonts"
    folder.mkdir(parents=True)
    font.save(folder / "MachineSans.ttf")
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg-data")}


def plain_machine(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "empty-xdg").mkdir()
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "empty-xdg")}


def test_chart_svgs_are_the_same_whatever_fonts_the_machine_has(
    sample_project: Path, tmp_path: Path
) -> None:
    machines = {"plain": plain_machine(tmp_path), "extra font": machine_with_extra_font(tmp_path)}
    # The extra font is seen: text measured without the shipped fonts changes with it.
    unshipped = {
        label: subprocess.run(
            [sys.executable, "-c", MEASURE_WITHOUT_SHIPPED_FONTS],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for label, env in machines.items()
    }
    assert unshipped["plain"] != unshipped["extra font"]

    sites = {}
    for label, env in machines.items():
        project = tmp_path / f"course-{label.replace(' ', '-')}"
        shutil.copytree(sample_project, project)  # a cold cache each time
        subprocess.run(
            [sys.executable, "-m", "privacy_explorer", "build", "--project", str(project)],
            env=env,
            capture_output=True,
            check=True,
        )
        sites[label] = snapshot(project / "build" / "site")
    assert sites["plain"].keys() == sites["extra font"].keys()
    for path in sorted(sites["plain"]):
        assert sites["plain"][path] == sites["extra font"][path], path
