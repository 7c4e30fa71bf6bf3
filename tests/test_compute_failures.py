"""Compute that goes wrong gets one clear message, and no worker outlives the build.

A point that kills its worker, runs past the lesson's time limit or exits is
named with its lesson and grid point; ``--jobs`` is capped at the cores; a
very large grid asks for ``--yes`` with an estimate; worker processes end with
the build, even when the build itself is killed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from joblib.externals.loky import reusable_executor

from privacy_explorer import cli as cli_module
from privacy_explorer import runner
from privacy_explorer.cli import cli
from privacy_explorer.workers import WorkerDied, in_workers, pool_workers, retire_pool

WHERE = "compute/dice.py: lesson 01-dice, grid point (threshold=5, prior=add_one)"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def run_build(project: Path, *options: str) -> Result:
    return CliRunner().invoke(cli, ["build", "--project", str(project), *options])


def at_one_point(project: Path, code: str) -> None:
    """Make compute() run ``code`` (indented lines) at threshold=5, prior=add_one only."""
    module = project / "compute" / "dice.py"
    text = module.read_text("utf-8")
    hook = '    values = rolls()\n    if threshold == 5 and prior == "add_one":\n' + code
    module.write_text(text.replace("    values = rolls()\n", hook, 1), "utf-8")


def set_timeout(project: Path, seconds: int) -> None:
    for lang in ("ko", "en"):
        page = project / "content" / lang / "01-dice.md"
        text = page.read_text("utf-8").replace("order: 1\n", f"order: 1\ntimeout: {seconds}\n")
        page.write_text(text, "utf-8")


@pytest.fixture
def built(sample_project: Path) -> tuple[Path, dict[str, bytes]]:
    result = run_build(sample_project, "-j", "1")
    assert result.exit_code == 0, result.output
    return sample_project, snapshot(sample_project / "build" / "site")


def assert_refused(result: Result, message: str, project: Path, site: dict[str, bytes]) -> None:
    assert result.exit_code == 1, result.output
    assert result.output.endswith(f"Error: {message}\n"), result.output
    assert "Traceback" not in result.output and "joblib" not in result.output
    assert snapshot(project / "build" / "site") == site


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_until(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


# --- a worker that dies, exits or errs -------------------------------------------------------


def test_a_worker_that_dies_is_named_with_its_grid_point(
    built: tuple[Path, dict[str, bytes]],
) -> None:
    project, site = built
    at_one_point(project, "        import os\n\n        os._exit(3)\n")
    result = run_build(project, "-j", "2")
    assert_refused(
        result,
        f"{WHERE}: the worker process computing it died (exit status 3); compute() must return "
        "a result or raise an exception: look for os._exit(), a crash in compiled code, or more "
        "memory than the machine has",
        project,
        site,
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sys_exit_in_compute_is_an_error_with_or_without_workers(
    built: tuple[Path, dict[str, bytes]], jobs: str
) -> None:
    project, site = built
    at_one_point(project, "        import sys\n\n        sys.exit(0)\n")
    assert_refused(
        run_build(project, "-j", jobs),
        f"{WHERE}: compute() called sys.exit(0); compute() must return a result, or raise an "
        "exception that says what is wrong",
        project,
        site,
    )


def test_an_error_in_a_worker_is_one_line_not_a_traceback(
    built: tuple[Path, dict[str, bytes]],
) -> None:
    project, site = built
    at_one_point(project, '        raise ValueError("no pseudo-counts above five")\n')
    result = run_build(project, "-j", "2")
    assert_refused(
        result,
        f"{WHERE}: compute() raised ValueError: no pseudo-counts above five",
        project,
        site,
    )
    assert [line for line in result.output.splitlines() if "Error" in line] == [
        f"Error: {WHERE}: compute() raised ValueError: no pseudo-counts above five"
    ]


def test_keyboard_interrupt_from_a_module_never_exits_0(
    built: tuple[Path, dict[str, bytes]],
) -> None:
    project, site = built
    at_one_point(project, "        raise KeyboardInterrupt\n")
    result = run_build(project, "-j", "1")
    assert result.exit_code == 1
    assert result.output.endswith("Aborted!\n")
    assert snapshot(project / "build" / "site") == site


# --- time limits -----------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_point_past_the_lessons_time_limit_is_named(
    built: tuple[Path, dict[str, bytes]], jobs: str
) -> None:
    project, site = built
    set_timeout(project, 1)
    # A module's own `except Exception` cannot swallow the time limit.
    at_one_point(
        project,
        "        try:\n            __import__('time').sleep(60)\n        except Exception:\n"
        "            pass\n",
    )
    result = run_build(project, "-j", jobs)  # without the limit, the point would return in 60 s
    assert_refused(
        result,
        f"{WHERE}: compute() ran past the time limit of 1 s; make it faster, or raise the limit "
        "in the lesson's front matter (e.g. 'timeout: 2', in seconds per grid point)",
        project,
        site,
    )


# --- how much is computed, and where ---------------------------------------------------------


def test_jobs_beyond_the_cores_are_capped_with_a_note(
    sample_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_module, "cpu_count", lambda: 2)
    result = run_build(sample_project, "--jobs", "8")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("note: --jobs 8 is more than the 2 cores here; using 2\n")


def test_a_grid_too_large_to_compute_without_asking_needs_yes(
    built: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = built
    monkeypatch.setattr(runner, "LARGE_GRID", 5)
    module = project / "compute" / "dice.py"
    module.write_text(module.read_text("utf-8") + "# A comment changes every cache key.\n")
    result = run_build(project, "-j", "1")
    assert result.exit_code == 1
    assert re.search(
        r"\nError: compute/dice\.py: lesson 01-dice has 10 grid points to compute "
        r"\(5 threshold × 2 prior\), more than the 5 a build computes without asking; at "
        r"\S+ s per point \(the first took that\) they would take about \d+ s with --jobs 1; "
        r"pass --yes to compute them \(results are cached\), or give the parameters fewer "
        r"values\n$",
        result.output,
    ), result.output
    assert snapshot(project / "build" / "site") == site
    confirmed = run_build(project, "-j", "1", "--yes")
    assert confirmed.exit_code == 0, confirmed.output
    assert "(9 grid points computed, 1 from cache)" in confirmed.stdout


# --- no orphans ------------------------------------------------------------------------------


def record_workers(project: Path, pids: Path, seconds: int, first_fails: bool) -> Path:
    """Make every point record its worker's process id, then wait (or, maybe, fail at once).

    A point that waited to the end records its process id again, in the folder returned.
    """
    slept = pids.with_name(f"{pids.name}-slept")
    slept.mkdir()
    module = project / "compute" / "dice.py"
    text = module.read_text("utf-8")
    hook = (
        "    values = rolls()\n"
        "    import os, time\n"
        f"    open({str(pids)!r} + '/' + str(os.getpid()), 'w').close()\n"
        f"    if {first_fails} and threshold == 2:\n"
        "        raise ValueError('the first point fails')\n"
        f"    time.sleep({seconds})\n"
        f"    open({str(slept)!r} + '/' + str(os.getpid()), 'w').close()\n"
    )
    module.write_text(text.replace("    values = rolls()\n", hook, 1), "utf-8")
    return slept


def test_workers_end_with_a_failed_build(sample_project: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    slept = record_workers(sample_project, pids, seconds=60, first_fails=True)
    result = run_build(sample_project, "-j", "2")
    assert result.exit_code == 1
    assert not list(slept.iterdir())  # it did not wait for the sleeping points
    workers = [int(path.name) for path in pids.iterdir()]
    assert workers and os.getpid() not in workers
    assert wait_until(lambda: not any(alive(pid) for pid in workers))


def test_workers_end_when_the_build_is_killed(sample_project: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    record_workers(sample_project, pids, seconds=120, first_fails=False)
    command = ["build", "--project", str(sample_project), "--jobs", "2"]
    build = subprocess.Popen(
        [sys.executable, "-m", "privacy_explorer", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: len(list(pids.iterdir())) >= 2, seconds=60)
    finally:
        build.send_signal(signal.SIGKILL)
        build.wait()
    workers = [int(path.name) for path in pids.iterdir()]
    assert wait_until(lambda: not any(alive(pid) for pid in workers))


def worker_id(number: int, running: object) -> tuple[int, int]:
    """A task that says which process ran it."""
    return number, os.getpid()


def test_a_run_stopped_after_its_last_task_ends_its_idle_workers_and_the_next_run_works() -> None:
    outcomes = in_workers(worker_id, [(number,) for number in range(6)], jobs=2)
    done = [next(outcomes) for _ in range(6)]  # every task has returned, the loop not ended
    workers = {pid for _, pid in done}
    assert os.getpid() not in workers and all(alive(pid) for pid in workers)
    outcomes.close()  # as a build does when its last point failed: every worker is idle
    assert wait_until(lambda: not any(alive(pid) for pid in workers))
    # The pool those workers belonged to is not handed on: the next run gets live workers
    # (a dead one would fail its tasks as "killed by SIGKILL").
    again = list(in_workers(worker_id, [(number,) for number in range(6)], jobs=2))
    assert [number for number, _ in again] == list(range(6))
    assert not workers & {pid for _, pid in again}


def test_retiring_the_pool_ends_a_worker_that_loky_lost_track_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outcomes = in_workers(worker_id, [(number,) for number in range(4)], jobs=2)
    workers = {pid for _, pid in (next(outcomes) for _ in range(4))}
    assert workers <= set(pool_workers())  # the kernel's list names them, trackers aside
    # A pool that loky no longer reaches (as when a run stops while a worker is starting):
    # only the kernel's list of this process's children still knows its workers.
    lost = reusable_executor._executor
    monkeypatch.setattr(reusable_executor, "_executor", None)
    retire_pool()
    assert not any(alive(pid) for pid in workers)
    assert pool_workers() == []
    monkeypatch.undo()
    outcomes.close()  # the lost pool's tasks are over; closing retires it for good
    assert lost is not None


def test_of_several_points_a_dead_worker_was_on_the_one_that_kills_is_named(
    sample_project: Path,
) -> None:
    at_one_point(sample_project, "        import os\n\n        os._exit(3)\n")
    module = sample_project / "compute" / "dice.py"
    innocent = {"threshold": 2, "prior": "none"}
    killer = {"threshold": 5, "prior": "add_one"}
    died = WorkerDied([innocent, killer], "exit status 3")
    task = (str(module), str(sample_project), [innocent], None)
    error = runner._worker_death(died, "compute/dice.py: lesson 01-dice", [task])
    assert error.message.startswith(
        f"{WHERE}: the worker process computing it died (exit status 3)"
    )
