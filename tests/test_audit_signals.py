"""`explorer audit` stopped by SIGTERM or SIGINT: exit 143/130, no worker left, nothing written."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

REPO = Path(__file__).resolve().parent.parent
HOUSING = REPO / "data" / "synth-mia-housing"
EXPLORER = Path(sys.executable).parent / "explorer"


@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_audit_and_its_workers(tmp_path, number, code):
    out = tmp_path / "out"
    command = [
        str(EXPLORER), "audit", "--members", str(HOUSING / "mem.csv"),
        "--nonmembers", str(HOUSING / "non_mem.csv"), "--reference", str(HOUSING / "ref.csv"),
        "--synthetic", str(HOUSING / "synth.csv"), "--out", str(out), "--jobs", "2",
        "--attacks", "classifier,logan,gen_lra", "--permutations", "100000",
    ]  # fmt: skip
    # SIGINT ignored, as a shell does for a background job: the audit must install its own handler
    audit = subprocess.Popen(
        command,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    process = psutil.Process(audit.pid)
    assert audit.stderr is not None
    audit.stderr.read(len("Auditing"))  # the progress bar: the attacks have started
    # Told apart before the signal: a process that is ending has no command line left.
    workers, trackers = started_children(process)
    audit.send_signal(number)
    status = audit.wait(timeout=60)
    message = audit.stderr.read().decode()
    assert status == code, message
    audit.stderr.close()
    assert f"stopped by {signal.Signals(number).name}: {out} was left as it was" in message
    # Dead by the time the audit has exited (a zombie waits only for init to reap it).
    assert not [worker.pid for worker in workers if computing(worker)]
    # loky's and multiprocessing's resource trackers compute nothing: they clean up the
    # audit's semaphores once its pipe closes, which on a busy machine can take a moment
    # after the exit (a tracker may still be starting). Each must then end on its own.
    deadline = time.monotonic() + 60
    while [t for t in trackers if computing(t)] and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the trackers' state; a zombie is never reaped by wait_procs
    assert not [tracker.pid for tracker in trackers if computing(tracker)]
    assert not out.exists()


def started_children(
    audit: psutil.Process,
) -> tuple[list[psutil.Process], list[psutil.Process]]:
    """The audit's worker processes and its resource trackers, once at least one worker has
    started and every child runs its own program (a child just forked shows the audit's
    command line until it starts the program it was made for)."""
    own = " ".join(audit.cmdline())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        lines = {}
        for child in audit.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                lines[child] = " ".join(child.cmdline())
        settled = lines and own not in lines.values()
        workers = [child for child, line in lines.items() if "loky.backend.popen" in line]
        if settled and workers:
            trackers = [child for child, line in lines.items() if "resource_tracker" in line]
            assert len(workers) + len(trackers) == len(lines), lines
            return workers, trackers
        psutil.wait_procs([audit], timeout=0.05)
    raise AssertionError("the audit's worker processes were never seen")


def computing(process: psutil.Process) -> bool:
    """Whether ``process`` still runs: neither gone nor a zombie."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
