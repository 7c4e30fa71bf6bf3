"""Rebuilds are cheap: unchanged lessons come from the page cache, unchanged files stay put.

The work is counted, never timed (timings belong in ``make bench``): how many pages
render, how many result cache files are read, which files of the site are written.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from privacy_explorer import pagecache, runner
from privacy_explorer.build import BuildReport, build
from privacy_explorer.project import load_project
from privacy_explorer.site import render_lesson

NOTES = {
    "ko": "---\ntitle: 메모\nsummary: 주사위 실험을 마치며 남기는 짧은 메모입니다.\n"
    "order: 2\n---\n\n## 정리\n\n주사위를 많이 던질수록 비율이 안정됩니다.\n",
    "en": "---\ntitle: Notes\nsummary: A short note after the dice experiment.\norder: 2\n---\n\n"
    "## Wrapping up\n\nThe more rolls, the steadier the share.\n",
}
"""A text-only second lesson, so that a rebuild can leave one lesson alone."""


@contextlib.contextmanager
def counting_work() -> Iterator[dict[str, Counter[str]]]:
    """Count rendered pages per lesson and result cache files read per lesson (jobs=1)."""
    counts: dict[str, Counter[str]] = {"rendered": Counter(), "results read": Counter()}
    read_cached = runner._read_cached

    def rendering(*args: Any, **kwargs: Any) -> str:
        counts["rendered"][kwargs["slug"]] += 1
        return render_lesson(*args, **kwargs)

    def reading(path: Path, *args: Any, **kwargs: Any) -> Any:
        counts["results read"][path.parent.name] += 1
        return read_cached(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("privacy_explorer.site.render_lesson", rendering)
        patch.setattr(runner, "_read_cached", reading)
        yield counts


def files_on_disk(site: Path) -> dict[str, tuple[bytes, int, int]]:
    """Each file of ``site``: its bytes, inode and modification time."""
    found = {}
    for path in sorted(site.rglob("*")):
        if path.is_file():
            info = path.stat()
            found[path.relative_to(site).as_posix()] = (
                path.read_bytes(),
                info.st_ino,
                info.st_mtime_ns,
            )
    return found


def built_again(project_dir: Path) -> tuple[BuildReport, dict[str, Counter[str]]]:
    with counting_work() as counts:
        report = build(load_project(project_dir), jobs=1)
    return report, counts


@pytest.fixture
def two_lessons(sample_project: Path) -> Path:
    for lang, text in NOTES.items():
        (sample_project / "content" / lang / "02-notes.md").write_text(text, "utf-8")
    build(load_project(sample_project), jobs=1)
    return sample_project


def test_a_rebuild_with_nothing_changed_renders_no_page_and_writes_no_file(
    two_lessons: Path,
) -> None:
    site = two_lessons / "build" / "site"
    before = files_on_disk(site)
    first = build(load_project(two_lessons), jobs=1)  # the files of the build above, again
    report, counts = built_again(two_lessons)
    assert counts == {"rendered": Counter(), "results read": Counter()}
    assert [(run.lesson, run.computed, run.cached, run.loaded) for run in report.runs] == [
        ("01-dice", 0, 10, False)
    ]
    assert report.files == first.files
    assert files_on_disk(site) == before  # same bytes, same inodes, same times


def test_editing_one_lessons_markdown_renders_that_lesson_only(two_lessons: Path) -> None:
    site = two_lessons / "build" / "site"
    edited = two_lessons / "content" / "en" / "02-notes.md"
    before = files_on_disk(site)
    edited.write_text(edited.read_text("utf-8") + "\nThe share is a fraction.\n", "utf-8")
    report, counts = built_again(two_lessons)
    # The page and the embed page, in both languages (the Korean one shows its English link).
    assert counts == {"rendered": Counter({"02-notes": 4}), "results read": Counter()}
    after = files_on_disk(site)
    changed = {path for path in after if path not in before or after[path][0] != before[path][0]}
    assert "en/02-notes.html" in changed
    assert not {path for path in changed if "01-dice" in path}
    for path in set(before) & set(after):  # a file is written if, and only if, its bytes change
        rewritten = after[path][1:] != before[path][1:]
        assert rewritten == (path in changed), path

    dice = two_lessons / "content" / "ko" / "01-dice.md"
    dice.write_text(dice.read_text("utf-8") + "\n주사위는 공정합니다.\n", "utf-8")
    report, counts = built_again(two_lessons)
    assert counts["rendered"] == Counter({"01-dice": 4})
    assert counts["results read"] == Counter({"01-dice": 10})  # read, not computed
    assert [(run.computed, run.cached, run.loaded) for run in report.runs] == [(0, 10, True)]


def test_the_page_cache_gives_the_same_site_as_rendering_afresh(two_lessons: Path) -> None:
    from_cache = build(load_project(two_lessons), jobs=1).files
    for entry in (two_lessons / "build" / pagecache.FOLDER).rglob("*.json"):
        entry.unlink()
    with counting_work() as counts:
        fresh = build(load_project(two_lessons), jobs=1).files
    assert counts["rendered"] == Counter({"01-dice": 4, "02-notes": 4})
    assert fresh == from_cache


def test_a_damaged_page_cache_entry_is_rendered_again_with_a_note(
    two_lessons: Path, caplog: pytest.LogCaptureFixture
) -> None:
    intact = build(load_project(two_lessons), jobs=1).files
    (entry,) = (two_lessons / "build" / pagecache.FOLDER / "01-dice").glob("*.json")
    entry.write_bytes(entry.read_bytes().replace(b"Dice", b"Dicey", 1))
    report, counts = built_again(two_lessons)
    assert counts["rendered"] == Counter({"01-dice": 4})
    assert report.files == intact
    assert f"{entry}: damaged cache entry (its content does not match its recorded hash)" in (
        caplog.text
    )


def test_a_damaged_result_renders_its_lesson_again(two_lessons: Path) -> None:
    intact = build(load_project(two_lessons), jobs=1).files
    victim = sorted((two_lessons / "build" / "results" / "01-dice").iterdir())[0]
    victim.write_text("{", "utf-8")
    report, counts = built_again(two_lessons)
    assert counts["rendered"] == Counter({"01-dice": 4})
    assert [(run.computed, run.cached) for run in report.runs] == [(1, 9)]
    assert report.files == intact


def test_each_lesson_keeps_its_most_recent_page_cache_entries(two_lessons: Path) -> None:
    folder = two_lessons / "build" / pagecache.FOLDER
    first = set((folder / "01-dice").glob("*.json"))
    notes = set((folder / "02-notes").glob("*.json"))
    edited = two_lessons / "content" / "en" / "01-dice.md"
    original = edited.read_text("utf-8")
    made = [first]
    for number in range(pagecache.KEPT_PER_LESSON):
        edited.write_text(f"{original}\nLine {number}.\n", "utf-8")
        build(load_project(two_lessons), jobs=1)
        made.append(set((folder / "01-dice").glob("*.json")) - set().union(*made))
    kept = set((folder / "01-dice").glob("*.json"))
    assert all(len(new) == 1 for new in made)
    assert kept == set().union(*made[1:])  # the oldest went
    assert set((folder / "02-notes").glob("*.json")) == notes
    # Back to an entry still kept: nothing renders.
    edited.write_text(f"{original}\nLine 0.\n", "utf-8")
    _, counts = built_again(two_lessons)
    assert counts["rendered"] == Counter()


def test_renaming_a_lesson_renders_its_neighbours_again_for_their_pager(
    two_lessons: Path,
) -> None:
    notes = two_lessons / "content" / "en" / "02-notes.md"
    notes.write_text(notes.read_text("utf-8").replace("title: Notes", "title: Field notes"))
    _, counts = built_again(two_lessons)
    # The dice lesson's own Markdown and results did not change, but its pager names the
    # lesson after it, so its English pages (page and embed) are rendered again.
    assert counts["rendered"]["01-dice"] >= 1
    assert counts["results read"] == Counter({"01-dice": 10})
    dice_page = (two_lessons / "build" / "site" / "en" / "01-dice.html").read_text("utf-8")
    assert "Field notes" in dice_page
