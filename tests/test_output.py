"""No command deletes what it did not create.

The build marks its site, replaces only a folder it marked (or an empty one),
carries the user's files (``.git``, ``CNAME``) over to each new site, swaps the
new site in without ever leaving the folder missing, puts right what a killed
build left behind, and holds a lock so that two builds never interleave.
``explorer clean`` removes only what the build wrote.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from privacy_explorer import __version__, output
from privacy_explorer.cli import cli
from privacy_explorer.output import MARKER, BuildLock

NOT_OURS = (
    "exists and was not written by explorer (it has no .explorer-site); choose an empty or "
    "new folder with --out, or pass --force to write the site into it (files the site needs "
    "are replaced, every other file is kept); nothing was written"
)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="explorer")


def run_build(project: Path, *options: str) -> Result:
    return invoke("build", "--project", str(project), "-j", "1", *options)


def debris(folder: Path) -> list[str]:
    """What a build left beside ``folder`` (``.site.new-*``, ``.site.old-*``)."""
    return sorted(path.name for path in folder.parent.glob(f".{folder.name}.*"))


def change_a_page(project: Path) -> None:
    """Edit the English lesson so that the next build writes a different page."""
    page = project / "content" / "en" / "01-dice.md"
    page.write_text(page.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")


def add_text_lesson(project: Path) -> None:
    for lang, title in (("ko", "정리"), ("en", "Summary")):
        (project / "content" / lang / "02-notes.md").write_text(
            f"---\ntitle: {title}\nsummary: {title}.\norder: 2\n---\n\n## {title}\n\nText.\n",
            "utf-8",
        )


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-C",
            str(folder),
            "-c",
            "user.name=Author",
            "-c",
            "user.email=a@example.org",
            *args,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def built(sample_project: Path) -> tuple[Path, Path]:
    """The sample project after one build, and its site folder."""
    result = run_build(sample_project)
    assert result.exit_code == 0, result.output
    return sample_project, sample_project / "build" / "site"


def publish_with_git(site: Path) -> None:
    """What publishing with git inside build/site does, plus a custom domain file."""
    git(site, "init", "-q", "-b", "gh-pages")
    git(site, "add", "-A")
    git(site, "commit", "-qm", "Publish site")
    (site / "CNAME").write_text("course.example.org\n", "utf-8")


# --- the marker ------------------------------------------------------------------------------


def test_the_site_lists_every_file_it_wrote_in_its_marker(built: tuple[Path, Path]) -> None:
    _, site = built
    files = snapshot(site)
    marker = json.loads(files.pop(MARKER))
    assert marker["tool"] == "privacy-copyright-explorer"
    assert marker["version"] == __version__
    assert marker["files"] == output.digests(files)


# --- build --out into a folder explorer did not write ----------------------------------------


def look_alike(folder: Path) -> dict[str, bytes]:
    """A folder that looks like a site (index.html, assets/explorer.js) but is the user's."""
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text("<p>my own page</p>", "utf-8")
    (folder / "assets" / "explorer.js").write_text("// my own script", "utf-8")
    (folder / "todo.txt").write_text("keep me", "utf-8")
    return snapshot(folder)


def test_a_look_alike_folder_is_refused_and_left_alone(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    project, site = built
    before = snapshot(site)
    mine = tmp_path / "mine"
    theirs = look_alike(mine)
    result = run_build(project, "--out", str(mine))
    assert result.exit_code == 1
    assert result.output == f"Error: {mine}: {NOT_OURS}\n"  # refused before computing anything
    assert snapshot(mine) == theirs
    assert debris(mine) == []
    assert snapshot(site) == before


def test_force_writes_into_it_and_keeps_every_file_the_site_does_not_need(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    project, site = built
    mine = tmp_path / "mine"
    look_alike(mine)
    result = run_build(project, "--out", str(mine), "--force")
    assert result.exit_code == 0, result.output
    written = snapshot(mine)
    assert written.pop("todo.txt") == b"keep me"
    assert written == snapshot(site)
    # From now on the folder is marked: the next build needs no --force and keeps todo.txt.
    assert run_build(project, "--out", str(mine)).exit_code == 0
    assert (mine / "todo.txt").read_text("utf-8") == "keep me"


def test_a_folder_holding_only_dot_files_is_used_without_force(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    project, site = built
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q")
    result = run_build(project, "--out", str(fresh))
    assert result.exit_code == 0, result.output
    assert (fresh / ".git" / "HEAD").is_file()
    assert (fresh / "index.html").read_bytes() == (site / "index.html").read_bytes()


@pytest.mark.parametrize("where", ["project", "build"])
def test_the_site_cannot_take_the_place_of_the_project(
    built: tuple[Path, Path], where: str
) -> None:
    project, site = built
    out = project if where == "project" else project / "build"
    result = run_build(project, "--out", str(out), "--force")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {out}: the site cannot go here: it holds the project or its build folder; "
        "choose a folder of its own with --out (default: build/site)\n"
    )
    assert (project / "site.yml").is_file() and (site / MARKER).is_file()


# --- a rebuild keeps what the user put into the site -----------------------------------------


def test_a_rebuild_keeps_git_and_cname_so_the_publishing_recipe_works(
    built: tuple[Path, Path],
) -> None:
    project, site = built
    publish_with_git(site)
    change_a_page(project)
    result = run_build(project)
    assert result.exit_code == 0, result.output
    assert (site / "CNAME").read_text("utf-8") == "course.example.org\n"
    assert git(site, "log", "--format=%s") == "Publish site\n"
    changed = git(site, "status", "--porcelain").splitlines()
    assert changed == [
        " M .explorer-site",
        " M en/01-dice.html",
        " M en/embed/01-dice.html",
        "?? CNAME",
    ]
    assert debris(site) == []


def test_files_an_older_build_wrote_go_and_the_users_files_stay(sample_project: Path) -> None:
    add_text_lesson(sample_project)
    assert run_build(sample_project).exit_code == 0
    site = sample_project / "build" / "site"
    (site / "notes.txt").write_text("mine", "utf-8")
    (site / "assets" / "custom.css").write_text("body {}", "utf-8")
    for lang in ("ko", "en"):
        (sample_project / "content" / lang / "02-notes.md").unlink()
    assert run_build(sample_project).exit_code == 0
    assert not (site / "02-notes.html").exists() and not (site / "en" / "02-notes.html").exists()
    assert (site / "notes.txt").read_text("utf-8") == "mine"
    assert (site / "assets" / "custom.css").read_text("utf-8") == "body {}"


def test_a_users_file_where_the_site_needs_one_is_refused_unless_force(
    built: tuple[Path, Path],
) -> None:
    project, site = built
    (site / "02-notes.html").write_text("my draft", "utf-8")
    before = snapshot(site)
    add_text_lesson(project)
    refused = run_build(project)
    assert refused.exit_code == 1
    assert refused.output.endswith(
        f"Error: {site}: the new site needs 02-notes.html, which explorer did not write "
        "(they are not listed in its .explorer-site); move them away, or pass --force to "
        "replace them; nothing was written\n"
    )
    assert snapshot(site) == before
    forced = run_build(project, "--force")
    assert forced.exit_code == 0, forced.output
    assert (site / "02-notes.html").read_text("utf-8").startswith("<!DOCTYPE html>")


# --- the swap: atomic, locked, recovered -----------------------------------------------------


def test_a_second_build_of_the_project_is_refused_while_one_runs(
    built: tuple[Path, Path],
) -> None:
    project, site = built
    before = snapshot(site)
    change_a_page(project)
    with BuildLock(project / "build"):
        result = run_build(project)
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {project / 'build' / '.explorer-lock'}: another explorer build, check or clean "
        f"(process {os.getpid()}) is working on this project; wait for it to finish or stop it, "
        "then try again\n"
    )
    assert snapshot(site) == before
    assert run_build(project).exit_code == 0  # the lock goes with its holder


def test_without_a_one_step_exchange_the_site_is_swapped_by_two_renames(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = built
    publish_with_git(site)
    monkeypatch.setattr(output, "_exchange", lambda first, second: False)
    change_a_page(project)
    assert run_build(project).exit_code == 0
    assert b"One more sentence." in (site / "en" / "01-dice.html").read_bytes()
    assert git(site, "log", "--format=%s") == "Publish site\n"
    assert (site / "CNAME").is_file()
    assert debris(site) == []


def test_a_failed_swap_puts_the_users_files_back_and_keeps_the_old_site(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = built
    publish_with_git(site)
    before = snapshot(site)

    def refuse(first: Path, second: Path) -> bool:
        raise OSError(errno.EACCES, "Permission denied", str(second))

    monkeypatch.setattr(output, "_exchange", refuse)
    change_a_page(project)
    result = run_build(project)
    assert result.exit_code == 1
    assert result.output.endswith(
        f"Error: {site}: cannot write it: permission denied; make the folder writable, then "
        "build again (the previous site was kept)\n"
    )
    assert snapshot(site) == before
    assert debris(site) == []


# A build killed (SIGKILL, power cut) at a given moment of writing the site.
KILLED_BUILD = """
import os, sys
from pathlib import Path
from privacy_explorer import output
from privacy_explorer.build import build
from privacy_explorer.project import load_project

moment = sys.argv[2]
def die(*args, **kwargs):
    os._exit(9)
def then_die(function):
    return lambda *args: (function(*args), die())
if moment == "assembled":
    output._assemble = then_die(output._assemble)
elif moment == "carried-over":
    output._swap = die
elif moment == "exchanged":
    output._exchange = then_die(output._exchange)
elif moment == "retired":
    output.shutil.rmtree = die
elif moment == "between-two-renames":
    output._exchange = lambda first, second: False
    rename = Path.rename
    def rename_then_die(self, target):
        rename(self, target)
        if Path(target).name.startswith(".site.old-"):
            die()
    Path.rename = rename_then_die
build(load_project(Path(sys.argv[1])), jobs=1)
"""

MOMENTS = ["assembled", "carried-over", "exchanged", "retired", "between-two-renames"]


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_build_killed_at_any_moment_is_put_right_by_the_next(
    built: tuple[Path, Path], moment: str
) -> None:
    project, site = built
    publish_with_git(site)
    change_a_page(project)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BUILD, str(project), moment],
        capture_output=True,
        text=True,
        check=False,
    )
    assert killed.returncode == 9, killed.stderr
    assert debris(site) != []
    if moment != "between-two-renames":  # only the two-rename fallback has such a gap
        assert (site / "index.html").is_file(), "the site must never be missing"
    result = run_build(project)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"note: {site}: an interrupted build left its work beside the site; putting it right\n"
    )
    assert debris(site) == []
    assert b"One more sentence." in (site / "en" / "01-dice.html").read_bytes()
    assert (site / "CNAME").read_text("utf-8") == "course.example.org\n"
    assert git(site, "log", "--format=%s") == "Publish site\n"


# --- a full disk -----------------------------------------------------------------------------


def fill_the_disk_under(part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write of a file whose path contains ``part`` fails as on a full disk."""
    write_bytes = Path.write_bytes

    def full(self: Path, data: bytes) -> int:
        if part in str(self):
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)


def test_a_full_disk_while_writing_the_site_keeps_the_old_one(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = built
    before = snapshot(site)
    change_a_page(project)
    fill_the_disk_under(".site.new-", monkeypatch)
    result = run_build(project)
    assert result.exit_code == 1
    assert result.output.endswith(
        f"Error: {site / MARKER}: cannot write it: the disk is full; free some disk space, "
        "then build again (the previous site was kept)\n"
    )
    assert snapshot(site) == before
    assert debris(site) == []


@pytest.mark.parametrize("cache", ["results", "assets-cache"])
def test_a_full_disk_while_writing_the_cache_keeps_the_old_site(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, cache: str
) -> None:
    project, site = built
    before = snapshot(site)
    module = project / "compute" / "dice.py"
    module.write_text(module.read_text("utf-8") + "# A comment changes every cache key.\n")
    change_a_page(project)
    for path in (project / "build" / "assets-cache").iterdir():
        path.unlink()
    fill_the_disk_under(f"/build/{cache}/", monkeypatch)
    result = run_build(project)
    assert result.exit_code == 1
    written = re.escape(str(project / "build" / cache))
    assert re.search(
        rf"\nError: {written}/([\w-]+/)?[0-9a-f]{{64}}\.\w+: cannot write it: the disk is full; "
        r"free some disk space, then build again \(the previous site was kept\)\n$",
        result.output,
    ), result.output
    assert snapshot(site) == before


# --- explorer clean --------------------------------------------------------------------------


def test_clean_keeps_the_users_files_and_files_changed_since_the_build(
    built: tuple[Path, Path],
) -> None:
    project, site = built
    publish_with_git(site)
    (site / "en" / "index.html").write_text("edited by hand", "utf-8")
    (project / "build" / "results" / "README.txt").write_text("my notes", "utf-8")
    result = invoke("clean", "--project", str(project))
    assert result.exit_code == 0, result.output
    kept = ["site/.git", "site/CNAME", "site/en/index.html", "results/README.txt"]
    assert result.output.splitlines()[1] == (
        "Kept what explorer did not write (or that changed since): " + ", ".join(kept)
    )
    assert sorted(p.name for p in site.iterdir()) == [".explorer-site", ".git", "CNAME", "en"]
    assert (project / "build" / "results" / "README.txt").is_file()
    assert not (project / "build" / "assets-cache").exists()
    # The folder stays the explorer's: the next build needs no --force and keeps them.
    assert run_build(project).exit_code == 0
    assert git(site, "log", "--format=%s") == "Publish site\n"
    assert (site / "en" / "index.html").read_bytes().startswith(b"<!DOCTYPE html>")


def test_clean_refuses_outside_a_project(built: tuple[Path, Path]) -> None:
    project, _ = built
    (project / "site.yml").unlink()
    before = snapshot(project / "build")
    result = invoke("clean", "--project", str(project))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {project}: has no site.yml, so it is not a course project; explorer clean "
        "only removes what a build wrote into a project's build/ folder: run it in the project "
        "folder, or pass --project DIR\n"
    )
    assert snapshot(project / "build") == before


@pytest.mark.parametrize("linked", ["build", "build/site"])
def test_clean_never_deletes_through_a_symbolic_link(
    built: tuple[Path, Path], tmp_path: Path, linked: str
) -> None:
    project, _ = built
    elsewhere = tmp_path / "elsewhere"
    (project / linked).rename(elsewhere)
    (project / linked).symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(elsewhere)
    result = invoke("clean", "--project", str(project))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {project / linked}: is a symbolic link (to {elsewhere}); explorer clean never "
        "deletes through a link; remove the link itself, or clean the folder it points to by "
        "hand\n"
    )
    assert snapshot(elsewhere) == before


def test_clean_refuses_a_site_explorer_did_not_write(built: tuple[Path, Path]) -> None:
    project, site = built
    (site / MARKER).unlink()
    before = snapshot(project / "build")
    result = invoke("clean", "--project", str(project))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {site}: was not written by explorer (it has no .explorer-site); explorer "
        "clean leaves it alone: remove it yourself if nothing in it is yours\n"
    )
    assert snapshot(project / "build") == before


def test_clean_is_refused_while_a_build_runs(built: tuple[Path, Path]) -> None:
    project, _ = built
    before = snapshot(project / "build")
    with BuildLock(project / "build"):
        result = invoke("clean", "--project", str(project))
    assert result.exit_code == 1
    assert "is working on this project; wait for it to finish" in result.output
    assert snapshot(project / "build") == before
