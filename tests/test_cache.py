"""The caches are checked, not trusted.

A cached result is used only if its stored key matches and it passes the checks
a fresh result does; a cached asset (a chart's SVG, the Vega bundle) only if its
recorded key and hash match. A damaged entry is produced again, with a one-line
note, and never shipped: the site comes out the same as from a clean cache.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from privacy_explorer.cli import cli


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def run_build(project: Path) -> Result:
    return CliRunner().invoke(cli, ["build", "--project", str(project), "-j", "1"])


@pytest.fixture
def built(sample_project: Path) -> tuple[Path, dict[str, bytes]]:
    result = run_build(sample_project)
    assert result.exit_code == 0, result.output
    return sample_project, snapshot(sample_project / "build" / "site")


def notes(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("note: ")]


def result_entries(project: Path) -> list[Path]:
    return sorted((project / "build" / "results" / "01-dice").glob("*.json"))


def damage_result(entry: Path, others: list[Path], how: str) -> None:
    if how == "truncated":
        entry.write_bytes(entry.read_bytes()[:40])
    elif how == "swapped":
        shutil.copyfile(next(other for other in others if other != entry), entry)
    else:  # a number that JSON parsers accept but a page cannot show
        stored = json.loads(entry.read_text("utf-8"))
        text = json.dumps(stored).replace(
            f'"rolls": {stored["result"]["readouts"]["rolls"]}', '"rolls": NaN'
        )
        entry.write_text(text, "utf-8")


@pytest.mark.parametrize(
    ("how", "problem"),
    [
        ("truncated", "it is not valid JSON; it may be truncated"),
        ("swapped", "it holds the result of another grid point"),
        ("not-finite", "result.readouts.rolls is nan; results must be finite numbers"),
    ],
)
def test_a_damaged_result_is_computed_again_with_a_note(
    built: tuple[Path, dict[str, bytes]], how: str, problem: str
) -> None:
    project, site = built
    entries = result_entries(project)
    victim = entries[3]
    intact = victim.read_bytes()
    damage_result(victim, entries, how)
    result = run_build(project)
    assert result.exit_code == 0, result.output
    assert notes(result) == [f"note: {victim}: damaged cache entry ({problem}); computing it again"]
    assert "(1 grid points computed, 9 from cache)" in result.stdout
    assert victim.read_bytes() == intact
    assert snapshot(project / "build" / "site") == site


def asset_entries(project: Path, suffix: str) -> list[Path]:
    return sorted((project / "build" / "assets-cache").glob(f"*{suffix}"))


@pytest.mark.parametrize(
    ("suffix", "how", "problem"),
    [
        (".svg", "truncated", "its content does not match its recorded hash"),
        (".svg", "edited", "its content does not match its recorded hash"),
        (".svg", "swapped", "it holds the entry for key {other}…"),
        (".svg", "unrecorded", "no record of its key and hash"),
        (".js", "truncated", "its content does not match its recorded hash"),
    ],
)
def test_a_damaged_asset_is_produced_again_with_a_note(
    built: tuple[Path, dict[str, bytes]], suffix: str, how: str, problem: str
) -> None:
    project, site = built
    entries = asset_entries(project, suffix)
    victim = entries[0]
    intact = victim.read_bytes()
    if how == "truncated":
        victim.write_bytes(intact[: len(intact) // 2])
    elif how == "edited":
        victim.write_bytes(intact.replace(b"<svg", b"<svg data-edited", 1))
    elif how == "swapped":
        other = entries[1]
        shutil.copyfile(other, victim)
        problem = problem.format(other=other.stem[:12])
    else:  # a bare SVG, as an older explorer stored it
        victim.write_bytes(intact.split(b"\n", 1)[1])
    # A chart's SVG is read when its lesson renders, which the page cache spares a rebuild.
    shutil.rmtree(project / "build" / "pages-cache")
    result = run_build(project)
    assert result.exit_code == 0, result.output
    assert notes(result) == [f"note: {victim}: damaged cache entry ({problem}); producing it again"]
    assert victim.read_bytes() == intact
    assert snapshot(project / "build" / "site") == site
