"""explorer export: one lesson as one file, lessons as a SCORM 1.2 package, and what clean does.

The manifest is read as XML and its file list checked against the zip both ways;
the browser tests (test_export_browser.py) open what these write.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner, Result

from privacy_explorer.cli import cli
from privacy_explorer.output import MARKER

CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
DICE_TITLE = "Dice"


def export(project: Path, *args: str) -> Result:
    return CliRunner().invoke(
        cli, ["export", "--project", str(project), "-j", "1", *args], prog_name="explorer"
    )


def manifest_files(
    archive: zipfile.ZipFile,
) -> tuple[ElementTree.Element, dict[str | None, list[str | None]]]:
    """The manifest and each resource's listed files."""
    manifest = ElementTree.fromstring(archive.read("imsmanifest.xml"))
    listed = {
        resource.get("identifier"): [f.get("href") for f in resource.iter(f"{CP}file")]
        for resource in manifest.iter(f"{CP}resource")
    }
    return manifest, listed


def add_second_lesson(project: Path) -> None:
    for lang, title in (("ko", "정리"), ("en", "Summary")):
        (project / "content" / lang / "02-notes.md").write_text(
            f"---\ntitle: {title}\nsummary: {title}.\norder: 2\n---\n\n## {title}\n\n"
            "[Dice](01-dice.html)\n",
            "utf-8",
        )


@pytest.mark.parametrize("lessons", ["one", "all"])
def test_the_scorm_manifest_lists_every_file_and_every_listed_file_is_there(
    sample_project: Path, lessons: str
):
    add_second_lesson(sample_project)
    out = sample_project / "build" / "dist" / "course.zip"
    args = ["01", "--scorm", str(out)] if lessons == "one" else ["--all", "--scorm", str(out)]
    result = export(sample_project, *args, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert f"Wrote {out} (" in result.output
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
        manifest, listed = manifest_files(archive)
        assert archive.testzip() is None
    assert manifest.findtext(f"{CP}metadata/{CP}schema") == "ADL SCORM"
    assert manifest.findtext(f"{CP}metadata/{CP}schemaversion") == "1.2"
    slugs = ["01-dice"] if lessons == "one" else ["01-dice", "02-notes"]
    organization = manifest.find(f"{CP}organizations/{CP}organization")
    organizations = manifest.find(f"{CP}organizations")
    assert organization is not None and organizations is not None
    assert organizations.get("default") == organization.get("identifier")
    items = organization.findall(f"{CP}item")
    assert [item.get("identifierref") for item in items] == [f"sco-{slug}" for slug in slugs]
    assert [item.findtext(f"{CP}title") for item in items] == [DICE_TITLE, "Summary"][: len(slugs)]
    resources = {r.get("identifier"): r for r in manifest.iter(f"{CP}resource")}
    for slug in slugs:
        sco = resources[f"sco-{slug}"]
        assert sco.get(f"{ADLCP}scormtype") == "sco"
        assert sco.get("href") == f"en/embed/{slug}.html"
        assert sco.get("href") in listed[f"sco-{slug}"]
        assert [d.get("identifierref") for d in sco.iter(f"{CP}dependency")] == ["shared"]
    assert resources["shared"].get(f"{ADLCP}scormtype") == "asset"
    every_listed = [path for paths in listed.values() for path in paths]
    assert len(every_listed) == len(set(every_listed)), "a file listed twice"
    assert set(every_listed) == names - {"imsmanifest.xml"}  # both ways
    assert {"assets/scorm.js", "assets/explorer.js", "assets/embed.css"} <= names
    assert "assets/fonts/OFL.txt" in names  # the fonts inside embed.css travel with their licence
    assert not any(name.startswith("embed/") for name in names), "one language per package"


def test_scorm_pages_load_the_adapter_first_and_point_only_inside_the_package(
    sample_project: Path,
):
    add_second_lesson(sample_project)
    out = sample_project / "build" / "dist" / "course.zip"
    assert export(sample_project, "--all", "--scorm", str(out)).exit_code == 0
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
        for slug in ("01-dice", "02-notes"):
            page = archive.read(f"embed/{slug}.html").decode()
            scripts = re.findall(r'<script src="([^"]*)"', page)
            assert scripts[-2:] == ["../assets/scorm.js", "../assets/explorer.js"]
            for url in re.findall(r'(?:href|src)="([^"#][^"]*)"', page):
                if not url.startswith(("data:", "https:")):
                    assert f"assets/{url.split('assets/', 1)[-1]}" in names, (slug, url)
            assert "data-lang-switch" not in page  # one language per package
        notes = archive.read("embed/02-notes.html").decode()
    assert "<span>Dice</span>" in notes  # no base URL: a link out of the lesson is plain text


def test_exports_are_byte_identical_and_clean_removes_only_them(sample_project: Path):
    dist = sample_project / "build" / "dist"
    html, package = dist / "01.html", dist / "01.zip"
    assert export(sample_project, "01", "--single-file", str(html)).exit_code == 0
    assert export(sample_project, "01", "--scorm", str(package)).exit_code == 0
    first = html.read_bytes(), package.read_bytes()
    assert export(sample_project, "01", "--single-file", str(html)).exit_code == 0
    assert export(sample_project, "01", "--scorm", str(package)).exit_code == 0
    assert (html.read_bytes(), package.read_bytes()) == first
    (dist / "notes.txt").write_text("mine", "utf-8")
    assert (dist / MARKER).is_file()
    result = CliRunner().invoke(cli, ["clean", "--project", str(sample_project)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in dist.iterdir()) == [MARKER, "notes.txt"]
    assert "dist/notes.txt" in result.output


def test_an_export_never_replaces_a_file_it_did_not_write(sample_project: Path, tmp_path: Path):
    mine = tmp_path / "lesson.html"
    mine.write_text("my own page", "utf-8")
    result = export(sample_project, "01", "--single-file", str(mine))
    assert result.exit_code == 1
    assert (
        f"Error: {mine}: exists and was not written by explorer export; choose another file, "
        "or pass --force to replace it; nothing was written"
    ) in result.output
    assert mine.read_text("utf-8") == "my own page"
    assert export(sample_project, "01", "--single-file", str(mine), "--force").exit_code == 0
    assert export(sample_project, "01", "--single-file", str(mine)).exit_code == 0  # ours now


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["01"], "choose one of --single-file OUT.html and --scorm OUT.zip"),
        (["--all", "--single-file", "x.html"], "--all makes one SCORM package of every lesson"),
        (["--scorm", "x.zip"], "name one LESSON (e.g. 03), or pass --all with --scorm"),
        (["01", "--all", "--scorm", "x.zip"], "name one LESSON (e.g. 03), or pass --all"),
    ],
)
def test_export_options_are_checked(sample_project: Path, args: list[str], message: str):
    result = export(sample_project, *args)
    assert result.exit_code == 2 and message in result.output


def test_a_single_file_points_out_of_the_lesson_only_with_a_base_url(sample_project: Path):
    out = sample_project / "build" / "dist" / "01.en.html"
    base = "https://owner.github.io/course/"
    assert export(sample_project, "01", "--lang", "en", "--single-file", str(out)).exit_code == 0
    plain = out.read_text("utf-8")
    assert "<a href" not in plain.split("<script>")[0] and 'rel="canonical"' not in plain
    args = ["01", "--lang", "en", "--single-file", str(out), "--base-url", base]
    assert export(sample_project, *args).exit_code == 0
    linked = out.read_text("utf-8")
    assert f'<link rel="canonical" href="{base}en/01-dice.html">' in linked
    assert f'href="{base}embed/01-dice.html"' in linked  # the other language, on the site
    for html in (plain, linked):
        markup = re.sub(r"<script>.*?</script>", "", html, flags=re.DOTALL)  # code, not markup
        assert not re.search(r'<(script|img|link)\b[^>]*\s(src|href)="(?!data:|https:)', markup)


def test_a_lessons_data_chunks_travel_in_its_scorm_package_and_its_single_file(
    sample_project: Path,
):
    """Chunks of LAZY datasets are loaded by the runtime, not named in the page: a package
    lists them, and a single file carries them packed before the runtime."""
    from privacy_explorer import export as exporting
    from privacy_explorer import fonts
    from privacy_explorer.build import build
    from privacy_explorer.project import load_project

    project = load_project(sample_project)
    files = dict(build(project, write=False).files)
    files["assets/data/01-dice.0.js"] = b"window.EXPLORER_CHUNKS = {};\n"
    # Table chunks hold one language's cells: a Korean export carries the Korean ones only.
    files["assets/data/01-dice.ko.0.js"] = b"window.KO_TABLES = 1;\n"
    files["assets/data/01-dice.en.0.js"] = b"window.EN_TABLES = 1;\n"
    lesson = exporting.Lesson(slug="01-dice", title="Dice", page="embed/01-dice.html")
    shipped = fonts.shipped_fonts(project.templates_dir)
    cache = project.build_dir / "assets-cache"
    package = exporting.scorm_package(
        files, [lesson], title="Dice", adapter=b"", base_url=None, fonts=shipped, cache=cache
    )
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        assert "assets/data/01-dice.0.js" in archive.namelist()
        assert "assets/data/01-dice.0.js" in manifest_files(archive)[1]["sco-01-dice"]
        assert "assets/data/01-dice.ko.0.js" in manifest_files(archive)[1]["sco-01-dice"]
        assert "assets/data/01-dice.en.0.js" not in archive.namelist()
    alone = exporting.single_file(files, lesson, base_url=None, fonts=shipped, cache=cache)
    chunk = exporting._packed_script(files["assets/data/01-dice.0.js"]).encode()
    assert alone.count(chunk) == 1
    assert alone.index(chunk) < alone.index(b"data-packed>", alone.index(chunk) + len(chunk))
    tables = exporting._packed_script(files["assets/data/01-dice.ko.0.js"]).encode()
    assert alone.count(tables) == 1
    assert exporting._packed_script(files["assets/data/01-dice.en.0.js"]).encode() not in alone
