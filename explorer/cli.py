"""The ``explorer`` command: parses options, calls the library, reports.

Every command works on the course project in the current folder, or the one
given with ``--project``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from privacy_explorer import __version__
from privacy_explorer.audit_cli import audit_command
from privacy_explorer.build import Reporter, build
from privacy_explorer.errors import ExplorerError
from privacy_explorer.project import load_project
from privacy_explorer.runner import Progress
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


def _jobs(value: int | None) -> int:
    return value if value is not None else max(1, os.cpu_count() or 1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="explorer")
def cli() -> None:
    """Build the interactive Privacy & Copyright course site from Markdown and Python.

    Typical use: `explorer build`, then `explorer serve` to preview, or open
    build/site/index.html straight from disk.
    """


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
def build_command(
    project_dir: Path, out: Path | None, only: str | None, jobs: int | None, strict: bool
) -> None:
    """Compute every lesson's grid (cached) and write the static site."""
    project = load_project(project_dir)
    report = build(project, out, only=only, jobs=_jobs(jobs), strict=strict, reporter=_reporter())
    assert report.out is not None
    computed = sum(run.computed for run in report.runs)
    cached = sum(run.cached for run in report.runs)
    pages = sum(1 for path in report.files if path.endswith(".html"))
    click.echo(
        f"Built {len(report.lessons)} lesson(s), {pages} pages "
        f"({computed} grid points computed, {cached} from cache)."
    )
    shown = os.path.relpath(report.out) if report.out.is_relative_to(Path.cwd()) else report.out
    click.echo(f"Open {report.out / 'index.html'} in a browser,")
    click.echo(f"or preview it with: explorer serve --dir {shown}")


@cli.command("check")
@project_option
@jobs_option
@strict_option
def check_command(project_dir: Path, jobs: int | None, strict: bool) -> None:
    """Validate content, grids, results and internal links without writing the site."""
    project = load_project(project_dir)
    report = build(project, jobs=_jobs(jobs), strict=strict, reporter=_reporter(), write=False)
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
    """Remove build/: the site and the result cache."""
    target = project_dir.resolve() / "build"
    if target.exists():
        shutil.rmtree(target)
        click.echo(f"Removed {target}")
    else:
        click.echo(f"Nothing to remove: {target} does not exist")


cli.add_command(audit_command)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="explorer")
