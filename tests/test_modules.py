"""Lesson modules in sub-folders of compute/, and the source digest that keys their results."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from privacy_explorer.build import build
from privacy_explorer.errors import ModuleError
from privacy_explorer.modules import known_modules, load_module, module_path, source_digest
from privacy_explorer.project import load_project

REPO = Path(__file__).resolve().parent.parent


def _move_dice_to(project: Path, folder: str) -> None:
    """Move the sample lesson's module into ``compute/<folder>/`` and point both pages at it."""
    target = project / "compute" / folder
    target.mkdir()
    source = (project / "compute" / "dice.py").read_text("utf-8")
    # One folder deeper, data/ is one more parent up.
    (target / "dice.py").write_text(source.replace(".parent.parent /", ".parents[2] /"), "utf-8")
    (project / "compute" / "dice.py").unlink()
    for lang in ("ko", "en"):
        page = project / "content" / lang / "01-dice.md"
        page.write_text(
            page.read_text("utf-8").replace("compute: dice", f"compute: {folder}.dice"), "utf-8"
        )


def test_a_dotted_name_finds_a_module_in_a_sub_folder(sample_project: Path) -> None:
    _move_dice_to(sample_project, "lessons")
    assert known_modules(sample_project / "compute") == ["lessons.dice"]
    assert module_path(sample_project / "compute", "lessons.dice") == (
        sample_project / "compute" / "lessons" / "dice.py"
    )
    report = build(load_project(sample_project), sample_project / "build" / "site", jobs=1)
    assert report.runs[0].computed == 10
    assert (sample_project / "build" / "site" / "01-dice.html").is_file()


def test_an_unknown_dotted_name_lists_the_modules_in_sub_folders(sample_project: Path) -> None:
    _move_dice_to(sample_project, "lessons")
    with pytest.raises(ModuleError) as caught:
        load_module(sample_project / "compute", "lessons.die", sample_project, "content/ko/x.md")
    assert caught.value.message == (
        "content/ko/x.md: compute module 'lessons.die' does not exist in compute/ "
        "(known modules: lessons.dice); fix the 'compute:' key or add the module"
    )


@pytest.mark.parametrize("name", ["lessons.", ".dice", "lessons..dice", "Lessons.dice", "a-b"])
def test_a_malformed_module_name_is_refused(sample_project: Path, name: str) -> None:
    for lang in ("ko", "en"):
        page = sample_project / "content" / lang / "01-dice.md"
        page.write_text(
            page.read_text("utf-8").replace("compute: dice", f"compute: '{name}'"), "utf-8"
        )
    with pytest.raises(Exception, match="'compute' must be a module name such as"):
        build(load_project(sample_project), sample_project / "build" / "site", jobs=1)


LIBRARY = {
    "compute/__init__.py": '"""A library."""\n',
    "compute/shared.py": "from .units import SCALE\n\n\ndef twice(x):\n    return 2 * x * SCALE\n",
    "compute/units.py": "SCALE = 1\n",
    "compute/other.py": "def halve(x):\n    return x / 2\n",
    "compute/lessons/__init__.py": "",
    "compute/lessons/style.py": "WIDTH = 560\n",
    "compute/lessons/first.py": "from compute.shared import twice\n"
    "from compute.lessons.style import WIDTH\n",
    "compute/lessons/second.py": "from compute import other\n"
    "from compute.lessons.style import WIDTH\n",
}
"""A small project: two lessons, each importing one library module and the shared style."""


def _digests(root: Path) -> dict[str, str]:
    return {
        name: source_digest(root / "compute" / "lessons" / f"{name}.py", root)
        for name in ("first", "second")
    }


@pytest.mark.parametrize(
    ("edited", "changed"),
    [
        ("compute/shared.py", {"first"}),
        ("compute/units.py", {"first"}),  # imported by shared.py, relatively
        ("compute/other.py", {"second"}),
        ("compute/lessons/style.py", {"first", "second"}),
        ("compute/lessons/first.py", {"first"}),
    ],
)
def test_editing_a_library_module_changes_the_digest_of_exactly_its_importers(
    tmp_path: Path, edited: str, changed: set[str]
) -> None:
    for name, text in LIBRARY.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    before = _digests(tmp_path)
    with (tmp_path / edited).open("a", encoding="utf-8") as file:
        file.write("# edited\n")
    after = _digests(tmp_path)
    assert {name for name in before if before[name] != after[name]} == changed


COURSE_LESSONS = ("memorization", "membership", "differential_privacy", "licenses")


@pytest.mark.parametrize(
    ("edited", "changed"),
    [
        ("ngram.py", {"memorization"}),
        ("mlp.py", {"membership"}),
        ("attacks/metrics.py", {"membership"}),
        ("attacks/validation.py", {"membership"}),  # imported by metrics.py, relatively
        ("attacks/gen_lra.py", set()),  # no lesson uses Gen-LRA yet
        ("histogram.py", {"membership"}),
        ("laplace.py", {"differential_privacy"}),
        ("licensing.py", {"licenses"}),
        ("datasets.py", {"memorization", "membership", "differential_privacy"}),
        ("dp_bounds.py", {"membership", "differential_privacy"}),
        # Lesson 04's verdict map takes its colours from the shared style too.
        ("lessons/style.py", {"memorization", "membership", "differential_privacy", "licenses"}),
    ],
)
def test_the_course_recomputes_exactly_the_lessons_that_use_an_edited_library_module(
    tmp_path: Path, edited: str, changed: set[str]
) -> None:
    shutil.copytree(
        REPO / "compute", tmp_path / "compute", ignore=shutil.ignore_patterns("__pycache__")
    )

    def digests() -> dict[str, str]:
        lessons = tmp_path / "compute" / "lessons"
        return {
            name: source_digest(lessons / f"{name}.py", tmp_path, tmp_path / "compute")
            for name in COURSE_LESSONS
        }

    before = digests()
    with (tmp_path / "compute" / edited).open("a", encoding="utf-8") as file:
        file.write("# edited\n")
    after = digests()
    assert {name for name in COURSE_LESSONS if before[name] != after[name]} == changed


def test_a_copy_of_the_course_elsewhere_has_the_same_digests(tmp_path: Path) -> None:
    """Results are keyed by the digest: a copy of the course that imports this checkout's
    library (as a course author's copy does) must find the results it already has, wherever
    it lies; its lessons are named by their place in the project, the library's files by
    theirs under compute/, and sorted by those names, not by absolute paths."""
    copy = tmp_path / "aaa-sorts-first" / "course"
    shutil.copytree(
        REPO / "compute", copy / "compute", ignore=shutil.ignore_patterns("__pycache__")
    )
    lessons = sorted((REPO / "compute" / "lessons").glob("[a-z]*.py"))
    assert lessons
    for lesson in lessons:
        here = source_digest(lesson, REPO)
        there = source_digest(copy / "compute" / "lessons" / lesson.name, copy)
        assert here == there, lesson.name
