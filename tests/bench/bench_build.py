"""How long the real course takes to build, and how much each page weighs: printed, never asserted.

Run with ``make bench`` (or ``python tests/bench/bench_build.py`` from the repository root).
The course (``content/``, ``compute/``, ``data/``, ``site_templates/``, ``site.yml``) is copied
into a temporary folder, so the repository and its caches are untouched, and built three times
with one worker per core, as ``explorer build`` does:

1. cold: empty result and asset caches, everything computed and rendered;
2. no-op: the same inputs again, everything from the caches;
3. one lesson's Markdown changed (a sentence added to the English page of lesson 03).

Each time is printed with its ratio to the cold build. Then, for the site of the last build
(see ``pages.py``): every page's first-load weight, gzipped, beside the 150 KiB budget of a
lesson page (the shared Vega bundle apart), and for every lesson page in Chromium the median and
95th percentile time from a control's input event to every chart updated and to the next frame,
over 50 control changes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pages

from privacy_explorer.build import BuildReport, build
from privacy_explorer.project import load_project

REPO = Path(__file__).resolve().parents[2]
COURSE = ("content", "compute", "data", "site_templates", "site.yml")
EDITED_PAGE = Path("content/en/03-differential-privacy.md")


def copy_course(target: Path) -> Path:
    """The course's sources, without any cache, in ``target``."""
    for name in COURSE:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)
    return target


def timed_build(project_dir: Path, jobs: int) -> tuple[float, BuildReport]:
    """Seconds one ``explorer build`` of ``project_dir`` takes (the project read afresh)."""
    start = time.perf_counter()
    report = build(load_project(project_dir), jobs=jobs)
    return time.perf_counter() - start, report


def counted(report: BuildReport) -> str:
    computed = sum(run.computed for run in report.runs)
    cached = sum(run.cached for run in report.runs)
    return f"{computed:,} grid points computed, {cached:,} from the cache"


def main() -> None:
    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="bench-build-") as workdir:
        project = copy_course(Path(workdir) / "course")
        print(f"Building the course in {project} with {jobs} worker(s)", flush=True)
        cold, report = timed_build(project, jobs)
        print(f"cold build       {cold:7.1f} s  1.00 × cold   ({counted(report)})", flush=True)
        noop, report = timed_build(project, jobs)
        print(f"no-op rebuild    {noop:7.1f} s  {noop / cold:.2f} × cold   ({counted(report)})")
        edited = project / EDITED_PAGE
        edited.write_text(
            edited.read_text("utf-8") + "\nOne more sentence for the benchmark.\n", "utf-8"
        )
        one, report = timed_build(project, jobs)
        print(
            f"one lesson edited{one:7.1f} s  {one / cold:.2f} × cold   "
            f"({EDITED_PAGE}; {counted(report)})"
        )
        print(f"load average now {os.getloadavg()[0]:.1f} (other work lengthens every time)")
        assert report.out is not None
        pages.report(report.out)


if __name__ == "__main__":
    main()
