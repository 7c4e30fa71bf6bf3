"""The ``explorer`` command: parses options, calls the library, reports.

Every command works on the course project in the current folder, or the one
given with ``--project``.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from pathlib import Path

import click

from privacy_explorer import __version__
from privacy_explorer.audit_cli import audit_command
from privacy_explorer.build import Reporter, build
from privacy_explorer.errors import ExplorerError
from privacy_explorer.export import export
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.output import clean
from privacy_explorer.project import SITE_FILE, base_url, load_project
from privacy_explorer.runner import LARGE_GRID, Progress
from privacy_explorer.serve import serve_site

project_option = click.option(
    "--project",
    "project_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The course project folder (the one with site.yml).",
)

jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Grid points computed in parallel.  [default: number of cores]",
)
strict_option = click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings (unplaced charts, parameters without a control) as errors.",
)
yes_option = click.option(
    "--yes",
    is_flag=True,
    help=f"Compute a grid even if more than {LARGE_GRID:,} of its points are not cached yet.",
)


class _NoteHandler(logging.Handler):
    """Prints the library's notes (a damaged cache entry, a recovered build) as 'note: ...'."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"note: {record.getMessage()}", err=True)


def _progress_printer(slug: str) -> Progress:
    """Report grid progress: a live line on a terminal, a few lines in a log."""
    interactive = sys.stderr.isatty()
    shown = {"step": -1}

    def report(done: int, total: int, cached: int) -> None:
        line = f"{slug}: {done}/{total} grid points ({cached} from cache)"
        if interactive:
            click.echo(f"\r{line}", nl=done == total, err=True)
            return
        step = 10 * done // max(total, 1)  # a line at every tenth, and the last one once
        if step > shown["step"]:
            shown["step"] = step
            click.echo(line, err=True)

    return report


def _reporter() -> Reporter:
    return Reporter(
        warning=lambda message: click.echo(f"warning: {message}", err=True),
        progress=_progress_printer,
    )


def cpu_count() -> int:
    """The cores this process may use (a container or ``taskset`` may allow fewer than exist)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _jobs(value: int | None) -> int:
    """``--jobs``, at most one per core: more workers than cores only add memory and waiting."""
    cores = cpu_count()
    if value is None:
        return cores
    if value > cores:
        click.echo(
            f"note: --jobs {value} is more than the {cores} cores here; using {cores}", err=True
        )
        return cores
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="explorer")
def cli() -> None:
    """Build the interactive Privacy & Copyright course site from Markdown and Python.

    Typical use: `explorer build`, then `explorer serve` to preview, or open
    build/site/index.html straight from disk.
    """
    notes = logging.getLogger("privacy_explorer")
    notes.handlers = [_NoteHandler()]
    notes.setLevel(logging.INFO)
    notes.propagate = False


@cli.command("build")
@project_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write the site.  [default: build/site in the project]",
)
@click.option(
    "--only",
    metavar="LESSON",
    help="Build just one lesson (slug like 03-differential-privacy, or its number 03).",
)
@jobs_option
@strict_option
@click.option(
    "--force",
    is_flag=True,
    help="Write into an --out folder that explorer did not write, replacing the files the "
    "site needs there (every other file is kept).",
)
@yes_option
@click.option(
    "--base-url",
    "public_url",
    metavar="URL",
    default=None,
    help="The site's public address, e.g. https://OWNER.github.io/REPO/ (overrides base_url "
    "in site.yml): canonical links, Open Graph tags, sitemap.xml, a 404 page for any depth.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Compute the grid points on the Dask cluster whose scheduler is at ADDRESS "
    "(tcp://HOST:8786), or on a local one with 'local' (--jobs workers); needs "
    "pip install .[cluster].",
)
def build_command(
    project_dir: Path,
    out: Path | None,
    only: str | None,
    jobs: int | None,
    strict: bool,
    force: bool,
    yes: bool,
    public_url: str | None,
    scheduler: str | None,
) -> None:
    """Compute every lesson's grid (cached) and write the static site."""
    project = load_project(project_dir)
    if public_url is not None:
        project = dataclasses.replace(project, base_url=base_url(public_url, "--base-url"))
    report = build(
        project,
        out,
        only=only,
        jobs=_jobs(jobs),
        strict=strict,
        reporter=_reporter(),
        force=force,
        yes=yes,
        scheduler=scheduler,
    )
    assert report.out is not None
    computed = sum(run.computed for run in report.runs)
    cached = sum(run.cached for run in report.runs)
    pages = sum(1 for path in report.files if path.endswith(".html"))
    studies = ""
    if report.studies:
        studied = sum(run.computed for run in report.studies)
        recalled = sum(run.cached for run in report.studies)
        studies = f"; {studied} study points computed, {recalled} from cache"
    click.echo(
        f"Built {len(report.lessons)} lesson(s), {pages} pages "
        f"({computed} grid points computed, {cached} from cache{studies})."
    )
    shown = os.path.relpath(report.out) if report.out.is_relative_to(Path.cwd()) else report.out
    click.echo(f"Open {report.out / 'index.html'} in a browser,")
    click.echo(f"or preview it with: explorer serve --dir {shown}")


@cli.command("check")
@project_option
@jobs_option
@strict_option
@yes_option
def check_command(project_dir: Path, jobs: int | None, strict: bool, yes: bool) -> None:
    """Validate content, grids, results and internal links without writing the site."""
    project = load_project(project_dir)
    report = build(
        project, jobs=_jobs(jobs), strict=strict, reporter=_reporter(), write=False, yes=yes
    )
    click.echo(
        f"OK: {len(report.lessons)} lesson(s), {len(report.files)} files, "
        f"{len(report.warnings)} warning(s)."
    )


@cli.command("serve")
@project_option
@click.option(
    "--dir",
    "site_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The built site to serve.  [default: build/site in the project]",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0 picks a free one).",
)
def serve_command(project_dir: Path, site_dir: Path | None, port: int) -> None:
    """Preview the built site on http://127.0.0.1 (this machine only)."""
    directory = site_dir or project_dir / "build" / "site"
    if not (directory / "index.html").is_file():
        raise ExplorerError(f"{directory}: no built site here; run 'explorer build' first")
    serve_site(
        directory,
        port,
        announce=lambda url: click.echo(f"Serving {directory} at {url} (Ctrl+C stops)"),
    )


@cli.command("clean")
@project_option
def clean_command(project_dir: Path) -> None:
    """Remove what the build wrote into build/: the site, the caches, the lock.

    Only files explorer wrote and nobody changed since are removed; the user's
    own files (such as build/site/.git) stay. Symbolic links are never followed.
    """
    root = project_dir.resolve()
    if not (root / SITE_FILE).is_file():
        raise ExplorerError(
            f"{root}: has no {SITE_FILE}, so it is not a course project; explorer clean only "
            "removes what a build wrote into a project's build/ folder: run it in the project "
            "folder, or pass --project DIR"
        )
    target = root / "build"
    if not os.path.lexists(target):
        click.echo(f"Nothing to remove: {target} does not exist")
        return
    cleaned = clean(target)
    click.echo(f"Removed {cleaned.removed} file(s) that explorer wrote in {target}")
    if cleaned.kept:
        click.echo(
            f"Kept what explorer did not write (or that changed since): {', '.join(cleaned.kept)}"
        )


@cli.command("export")
@project_option
@click.argument("lesson", required=False)
@click.option(
    "--single-file",
    "single_file",
    metavar="OUT.html",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the lesson as one HTML file with everything inside (opens alone from disk).",
)
@click.option(
    "--scorm",
    metavar="OUT.zip",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a SCORM 1.2 package for an LMS (one SCO per lesson).",
)
@click.option(
    "--all", "all_lessons", is_flag=True, help="Every lesson in one SCORM package (with --scorm)."
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=LANGUAGES[0],
    show_default=True,
    help="The language of the export.",
)
@click.option(
    "--base-url",
    "public_url",
    metavar="URL",
    default=None,
    help="The published site, for links that leave the lesson (overrides base_url in "
    "site.yml); without one they become plain text.",
)
@jobs_option
@click.option("--force", is_flag=True, help="Replace an existing file that explorer did not write.")
def export_command(
    project_dir: Path,
    lesson: str | None,
    single_file: Path | None,
    scorm: Path | None,
    all_lessons: bool,
    lang: str,
    public_url: str | None,
    jobs: int | None,
    force: bool,
) -> None:
    """Write LESSON (03 or 03-differential-privacy) as one HTML file or a SCORM package."""
    if (single_file is None) == (scorm is None):
        raise click.UsageError("choose one of --single-file OUT.html and --scorm OUT.zip")
    if all_lessons and single_file is not None:
        raise click.UsageError("--all makes one SCORM package of every lesson; use it with --scorm")
    if all_lessons == (lesson is not None):
        raise click.UsageError("name one LESSON (e.g. 03), or pass --all with --scorm")
    project = load_project(project_dir)
    if public_url is not None:
        project = dataclasses.replace(project, base_url=base_url(public_url, "--base-url"))
    out = single_file or scorm
    assert out is not None
    done = export(
        project,
        lesson,
        out,
        kind="single-file" if single_file is not None else "scorm",
        lang=lang,
        jobs=_jobs(jobs),
        reporter=_reporter(),
        force=force,
    )
    click.echo(
        f"Wrote {done.path} ({done.size / 1e6:.2f} MB; {len(done.lessons)} lesson(s): "
        f"{', '.join(done.lessons)})."
    )


cli.add_command(audit_command)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="explorer")
