"""What lessons 05 and 06 cost to compute, in CPU seconds: printed, never asserted.

Run with ``make bench`` (or ``python tests/bench/bench_lessons.py [LESSON ...]`` from the
repository root; by default ``05`` and ``06``). Each lesson is built alone (``--only``) from a
copy of the course with empty caches and one job, so that every grid and study point runs in
this process and its CPU time (user + system, ``resource.getrusage``) is the lesson's cost
whatever else the machine is doing; the wall time beside it is what the load made of it.
Issue 21 asks lessons 05 and 06 together to stay under about 300 CPU seconds, so that a cold
``make site`` of the whole course fits in 5 minutes on 2 cores.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from bench_build import copy_course

from privacy_explorer.build import build
from privacy_explorer.project import load_project

BUDGET = 300.0
"""CPU seconds lessons 05 and 06 may take together (issue 21)."""


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def lesson_cost(lesson: str) -> tuple[float, float, int]:
    """CPU and wall seconds of a cold one-job build of ``lesson`` alone, and its study points."""
    with tempfile.TemporaryDirectory(prefix=f"bench-lesson-{lesson}-") as workdir:
        project = copy_course(Path(workdir) / "course")
        started, wall = cpu_seconds(), time.perf_counter()
        report = build(load_project(project), only=lesson, jobs=1)
        studies = sum(study.computed for study in report.studies)
        return cpu_seconds() - started, time.perf_counter() - wall, studies


def main(lessons: list[str]) -> None:
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")  # one BLAS thread, as in the build's workers
    total = 0.0
    for lesson in lessons:
        cpu, wall, studies = lesson_cost(lesson)
        total += cpu
        print(
            f"lesson {lesson}: {cpu:6.1f} s CPU ({wall:6.1f} s wall, one job, "
            f"{studies} study points)",
            flush=True,
        )
    print(f"together: {total:.1f} s CPU, {total / BUDGET:.2f} × the {BUDGET:.0f} s budget")
    print(f"load average now {os.getloadavg()[0]:.1f} (other work lengthens the wall times)")


if __name__ == "__main__":
    main(sys.argv[1:] or ["05", "06"])
