"""How long the real course takes to build, and how much each page weighs: printed, never asserted.

Run with ``make bench`` (or ``python tests/bench/bench_build.py`` from the repository root).
The course (``content/``, ``compute/``, ``data/``, ``site_templates/``, ``site.yml``) is copied
into a temporary folder, so the repository and its caches are untouched, and built three times
with one worker per core, as ``explorer build`` does:

1. cold: empty result and asset caches, everything computed and rendered;
2. no-op: the same inputs again, everything from the caches;
3. one lesson's Markdown changed (a sentence added to the English page of lesson 03).

Each time is printed with its ratio to the cold build. Then the weight of every page on first
load, as a browser fetches it from a server that compresses text: the HTML, the style sheet, the
page runtime, the lesson's data file and the fonts its text needs (the two text faces, and the
math face where the page has a formula), each gzip-compressed (level 6) except the WOFF2 fonts,
which are compressed already. The Vega bundle (``assets/vega.js``), shared by every lesson page
and cached by the browser after the first, is printed on its own, and so are the chart SVGs that
a page also fetches for print and for readers without JavaScript.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from privacy_explorer.build import BuildReport, build
from privacy_explorer.project import load_project

REPO = Path(__file__).resolve().parents[2]
COURSE = ("content", "compute", "data", "site_templates", "site.yml")
EDITED_PAGE = Path("content/en/03-differential-privacy.md")
SHARED_BUNDLE = "assets/vega.js"
TEXT_FACES = ("NotoSansKRExplorer-Regular.woff2", "NotoSansKRExplorer-Bold.woff2")
MATH_FACE = "NotoSansMath-Regular.woff2"


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


def gzipped(content: bytes) -> int:
    return len(gzip.compress(content, compresslevel=6, mtime=0))


def kib(size: int) -> str:
    return f"{size / 1024:8.1f}"


def local_references(html: str, pattern: str) -> list[str]:
    """The site-relative targets of ``pattern``'s first group that are not data: or absolute."""
    return [ref for ref in re.findall(pattern, html) if not re.match(r"[a-z]+:|/", ref)]


def page_weights(site: Path) -> None:
    """Print the first-load weight of every page of ``site``, its parts gzip-compressed."""
    bundle = (site / SHARED_BUNDLE).read_bytes()
    print()
    print("Page weights on first load, KiB (text gzip -6; WOFF2 as it is)")
    header = f"{'page':<42}{'html':>8}{'css':>8}{'js':>8}{'data':>8}{'fonts':>8}{'total':>8}"
    print(f"{header}   + charts' SVG  + vega.js")
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        html = page.read_text("utf-8")
        folder = page.parent

        def fetched(reference: str, folder: Path = folder) -> bytes:
            return (folder / reference).resolve().read_bytes()

        styles = local_references(html, r'<link rel="stylesheet" href="([^"]+)"')
        scripts = local_references(html, r'<script src="([^"]+)"')
        images = local_references(html, r'<img[^>]* src="([^"]+)"')
        data = [s for s in scripts if "/data/" in s]
        runtime = [s for s in scripts if s not in data and not s.endswith(SHARED_BUNDLE)]
        uses_bundle = any(s.endswith(SHARED_BUNDLE) for s in scripts)
        fonts_folder = (folder / styles[0]).resolve().parent / "fonts" if styles else None
        faces = [*TEXT_FACES, *([MATH_FACE] if "<math" in html else [])]
        parts = {
            "html": gzipped(html.encode("utf-8")),
            "css": sum(gzipped(fetched(s)) for s in styles),
            "js": sum(gzipped(fetched(s)) for s in runtime),
            "data": sum(gzipped(fetched(s)) for s in data),
            "fonts": sum((fonts_folder / f).stat().st_size for f in faces) if fonts_folder else 0,
        }
        total = sum(parts.values())
        svg = sum(gzipped(fetched(s)) for s in images if s.endswith(".svg"))
        row = "".join(kib(size) for size in parts.values())
        extra = f"   {kib(svg)}       " + ("  yes" if uses_bundle else "   no")
        print(f"{relative:<42}{row}{kib(total)}{extra}")
    print(
        f"{SHARED_BUNDLE}: {len(bundle) / 1024:.1f} KiB, {gzipped(bundle) / 1024:.1f} KiB "
        "gzipped, fetched once by the first lesson page a reader opens"
    )


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
        page_weights(report.out)


if __name__ == "__main__":
    main()
