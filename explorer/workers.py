"""Run tasks in this process or in worker processes, with a time limit and no orphans.

Three things can go wrong while a lesson module computes, and each becomes a
clear message naming the grid point instead of a traceback or a silent exit:

* the point runs past its time limit: :func:`time_limit` raises :class:`TimeUp`
  inside ``compute()`` (an alarm in the process that computes the point);
* the worker process dies (``os._exit``, a crash in compiled code, the kernel's
  out-of-memory killer): :func:`in_workers` raises :class:`WorkerDied` with the
  points the dead workers were computing, which each worker records in a
  :class:`RunningPoints` folder before it starts a point;
* the build stops early (an error, Ctrl+C, the build being killed): the workers
  are stopped with it (on Linux the kernel kills them when the build dies).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed
from joblib.externals.loky import reusable_executor
from joblib.externals.loky.process_executor import TerminatedWorkerError

PR_SET_PDEATHSIG = 1
"""``prctl`` option (Linux): the signal a process receives when its parent dies."""


class TimeUp(BaseException):
    """Raised inside ``compute()`` when the point's time is up.

    A ``BaseException``, so that a module's own ``except Exception`` cannot swallow it.
    """


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeUp` in the block if it runs longer than ``seconds``.

    Uses ``SIGALRM``, so it works in the main thread of a POSIX process (where the
    build and every worker run their tasks); elsewhere the block runs unlimited.
    Code inside a long call into compiled code is interrupted when the call returns.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class RunningPoints:
    """A folder where each worker records the grid point it is computing, by process id."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    @contextlib.contextmanager
    def computing(self, point: Mapping[str, Any]) -> Iterator[None]:
        """Record ``point`` for the duration of the block; a dead worker leaves it behind."""
        if self.folder is None:
            yield
            return
        record = self.folder / f"{os.getpid()}.json"
        record.write_text(json.dumps(dict(point)), "utf-8")
        yield
        record.unlink(missing_ok=True)

    def left_behind(self) -> list[dict[str, Any]]:
        """The points whose worker never finished them, in a stable order."""
        if self.folder is None:
            return []
        found = []
        for record in sorted(self.folder.glob("*.json")):
            with contextlib.suppress(OSError, ValueError):
                found.append(json.loads(record.read_text("utf-8")))
        return found


class WorkerDied(Exception):
    """A worker process died while computing; ``points`` are the ones it may have been on."""

    def __init__(self, points: list[dict[str, Any]], how: str) -> None:
        super().__init__(how)
        self.points = points
        self.how = how
        """How the worker ended, e.g. ``exit status 3`` or ``killed by SIGKILL``."""


def _end_with_parent() -> None:
    """Have the kernel kill this worker when the build process dies (Linux only)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _in_worker(function: Callable[..., Any], running: str, arguments: Sequence[Any]) -> Any:
    _end_with_parent()
    folder = Path(running)
    # Recorded while this task runs, and before the stop check: a stop either finds this
    # record (and kills the worker) or was decided before the check (and the task returns).
    busy = folder / "workers" / str(os.getpid())
    busy.touch()
    try:
        if (folder / "stop").exists():
            return None  # the build stopped early: nobody will read this task's outcome
        return function(*arguments, running=RunningPoints(folder))
    finally:
        busy.unlink(missing_ok=True)


def _stop(folder: Path, outcomes: Iterator[Any]) -> None:
    """End a run early: no new task starts, and every worker process of the pool ends.

    The workers busy with one of the run's tasks are killed first, rather than asking
    joblib to cancel their tasks: that takes the path loky takes for a crashed worker,
    stops a point that would run for minutes and leaves no thread racing the
    cancellation. Then the pool itself is shut down, idle workers included, so that no
    worker outlives a stopped run and the next run starts a pool of its own (a pool
    with a killed idle worker would otherwise be handed to it, and fail its points as
    killed by SIGKILL).
    """
    (folder / "stop").touch()
    for record in (folder / "workers").iterdir():
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(record.name), signal.SIGKILL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # joblib's note that it cancelled the rest
        with contextlib.suppress(Exception):
            for _ in outcomes:
                pass
    retire_pool()


def retire_pool() -> None:
    """Shut down joblib's reusable process pool, killing its workers busy or idle, and
    return once they are dead.

    joblib keeps one pool for the whole process (loky's reusable executor) and reuses
    it until it is broken or shut down; a shut-down pool is replaced by a new one on
    the next ``Parallel`` call. (loky's public ``get_reusable_executor()`` cannot be
    used to reach it: called with other arguments than joblib's, it replaces the pool
    without killing the workers.)
    """
    pool = getattr(reusable_executor, "_executor", None)
    if pool is not None:
        with contextlib.suppress(Exception):
            pool.shutdown(wait=True, kill_workers=True)
    # loky's bookkeeping can miss a worker it was starting when the run stopped (seen on a
    # loaded machine): the kernel's list of this process's children is the one to trust.
    # A killed process is dead only once the kernel has torn it down (a zombie, or gone);
    # until then it has no command line left, so the ones killed are followed by their id.
    killed: set[int] = set()
    deadline = time.monotonic() + WORKER_END_SECONDS
    while time.monotonic() < deadline:
        workers = pool_workers()
        for pid in workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed.update(workers)
        if not workers and not any(_running_child(pid) for pid in killed):
            break
        time.sleep(0.01)  # the kernel ends a killed process within milliseconds


WORKER_END_SECONDS = 10.0
"""How long :func:`retire_pool` keeps killing workers that are still alive."""
LOKY_WORKER = b"joblib.externals.loky.backend.popen_loky_posix"
"""What the command line of a worker process of joblib's pool holds."""


def _stat(pid: int | str) -> tuple[str, int] | None:
    """The state letter and parent id of process ``pid`` (``/proc``), or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return state, int(ppid)


def _running_child(pid: int) -> bool:
    """Whether ``pid`` is still a running (not zombie) child of this process."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X") and stat[1] == os.getpid()


def pool_workers(parent: int | None = None) -> list[int]:
    """The process ids of the live (not zombie) worker processes of joblib's pool that are
    children of ``parent`` (this process by default), read from ``/proc`` (Linux; elsewhere
    an empty list). Resource trackers, which compute nothing, are not workers."""
    parent = os.getpid() if parent is None else parent
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    workers = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(entry.name)
        if stat is None or stat[1] != parent or stat[0] in ("Z", "X"):
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # it ended while the folder was read
        if LOKY_WORKER in command:
            workers.append(int(entry.name))
    return sorted(workers)


def _how_it_ended(exc: TerminatedWorkerError) -> str:
    """``exit status 3`` or ``killed by SIGKILL``, from loky's message about the dead worker."""
    codes = re.findall(r"\b(EXIT|SIG[A-Z]+)\((-?\d+)\)", str(exc))
    parts = [
        f"exit status {code}" if kind == "EXIT" else f"killed by {kind}" for kind, code in codes
    ]
    return ", ".join(dict.fromkeys(parts)) or "ended unexpectedly"


def in_workers(
    function: Callable[..., Any], tasks: Sequence[Sequence[Any]], jobs: int
) -> Generator[Any, None, None]:
    """``function(*task, running=...)`` for each task, on ``jobs`` worker processes, in order.

    Close the iterator (``contextlib.closing``) when stopping early: that kills
    the run's workers, so no point keeps computing. Raises :class:`WorkerDied`
    if a worker dies.
    """
    with tempfile.TemporaryDirectory(prefix="explorer-running-") as running:
        folder = Path(running)
        (folder / "workers").mkdir()
        outcomes = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_in_worker)(function, running, task) for task in tasks
        )
        finished = False
        try:
            # Not `yield from`: closing this iterator must not close joblib's; _stop ends it.
            for outcome in outcomes:  # noqa: UP028
                yield outcome
            finished = True
        except TerminatedWorkerError as exc:
            finished = True  # loky has already stopped the other workers
            suspects = RunningPoints(folder).left_behind()
            raise WorkerDied(suspects, _how_it_ended(exc)) from None
        finally:
            if not finished:
                _stop(folder, outcomes)


def dies_alone(function: Callable[..., Any], task: Sequence[Any]) -> bool:
    """Whether ``function(*task)`` kills a fresh worker process on its own."""
    try:
        for _ in in_workers(function, [task], jobs=2):
            pass
    except WorkerDied:
        return True
    return False
