"""Time and peak memory of a full audit at scale: 10,000 rows in each table, 10 columns.

Run with ``make bench`` (or ``python tests/bench/bench_audit.py`` from the
repository root). Every attack runs, Gen-LRA with k = 5 and k = 20, on a
simulated release in which the generator reproduces its training records with
a little noise. The budget (issue 20 §5) is 90 s and 1.5 GB on 2 cores, memory
counted as the resident memory of the whole process tree (the audit and its
worker processes, sampled every 50 ms); this prints the measurements, the time
of each step and their ratio to that budget, and asserts nothing. Then the time
of an audit with a large reference sample: 100,000 reference rows, 10,000
synthetic rows and 2,000 targets (1,000 members, 1,000 non-members). Last, how
long ``explorer audit`` takes to stop when it gets SIGTERM or SIGINT in the middle
of the 10,000-row audit (issue 20 §3: within 2 s, every worker process gone).

``--scale-only`` skips the verdict's error rates below (they take minutes).

Then the verdict's error rates on simulated releases
(:func:`compute.audit_calibration.simulated_verdict`): the false-alarm rate
over 200 seeded releases that never saw the members (50 to 500 rows per file),
beside the binomial band of α, and the detection rate at 200 rows of releases
that copy a share ε = 0.2, 0.3, 0.4 of their records from the members, exactly
(ρ = 0) and with noise of 0.05 and 0.1 of the population's spread (0.1 is lesson
05's default memorization scale), all with the three fast attacks of
:data:`compute.audit_calibration.FAST_ATTACKS`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scipy import stats

from privacy_explorer.compute.audit import run_audit
from privacy_explorer.compute.audit_calibration import simulated_verdict
from privacy_explorer.compute.audit_verdict import ALPHA

ROWS = 10_000
COLUMNS = 10
BUDGET_SECONDS = 90.0
BUDGET_BYTES = int(1.5 * 1024**3)
STOP_BUDGET_SECONDS = 2.0
LARGE_REFERENCE = 100_000
LARGE_SYNTHETIC = 10_000
LARGE_TARGETS = 1_000
"""Members and non-members each, in the large-reference audit."""


def population(rng: np.random.Generator, rows: int) -> pd.DataFrame:
    """Correlated Gaussian records with one integer-valued column."""
    mixing = np.random.default_rng(0).normal(size=(COLUMNS, COLUMNS)) / np.sqrt(COLUMNS)
    values = rng.normal(size=(rows, COLUMNS)) @ mixing
    values[:, -1] = np.round(3 * values[:, -1])
    return pd.DataFrame(values, columns=[f"x{index}" for index in range(COLUMNS)])


def tables(
    seed: int = 1,
    rows: int | None = None,
    reference_rows: int | None = None,
    synthetic_rows: int | None = None,
) -> dict[str, pd.DataFrame]:
    """Members, non-members, reference and a release that half-copies its members.

    ``rows`` members and non-members (default :data:`ROWS`), and as many reference and
    synthetic records unless given.
    """
    rows = rows or ROWS
    rng = np.random.default_rng(seed)
    members, nonmembers = population(rng, rows), population(rng, rows)
    reference = population(rng, reference_rows or rows)
    size = synthetic_rows or rows
    # Synthetic record i copies member i (as many records as members) or a random member.
    sources = np.arange(rows) if size == rows else rng.integers(0, rows, size)
    copied = members.to_numpy()[sources] + rng.normal(scale=0.1, size=(size, COLUMNS))
    fresh = population(rng, size).to_numpy()
    synthetic = np.where(rng.random((size, 1)) < 0.5, copied, fresh)
    return {
        "members": members,
        "nonmembers": nonmembers,
        "reference": reference,
        "synthetic": pd.DataFrame(synthetic, columns=members.columns),
    }


def _rss_bytes(pid: int) -> int:
    """Resident memory of one process (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            line = next(line for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0
    return int(line.split()[1]) * 1024


def _descendants(pid: int) -> list[int]:
    found, pending = [], [pid]
    while pending:
        parent = pending.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", encoding="ascii") as children:
                    kids = [int(kid) for kid in children.read().split()]
            except OSError:
                continue
            found += kids
            pending += kids
    return found


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process so far (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Usage:
    """Peak total resident memory and CPU time of this process and its workers (50 ms samples).

    Other work on a shared machine lengthens the wall-clock time but not the
    CPU time, so the CPU time divided by the cores is what an idle machine needs.
    """

    def __init__(self) -> None:
        self.peak = 0
        self.cpu: dict[int, float] = {}
        self.start: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            pids = [os.getpid(), *_descendants(os.getpid())]
            self.peak = max(self.peak, sum(_rss_bytes(pid) for pid in pids))
            for pid in pids:
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), _cpu_seconds(pid))

    @property
    def cpu_seconds(self) -> float:
        """CPU time of every process seen, since :meth:`__enter__` (workers may be reused)."""
        return sum(seconds - self.start.get(pid, 0.0) for pid, seconds in self.cpu.items())

    def __enter__(self) -> Usage:
        self.start = {pid: _cpu_seconds(pid) for pid in [os.getpid(), *_descendants(os.getpid())]}
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


NULL_RELEASES = 200
COPYING_RELEASES = 30
"""Releases per (ε, ρ) in the detection rates."""


def verdict_rates() -> None:
    """Print the verdict's false-alarm rate on null releases and its detection rate on copies."""
    start = time.perf_counter()
    sizes = np.random.default_rng(20).integers(50, 501, NULL_RELEASES)
    alarms = sum(
        simulated_verdict(int(rows), epsilon=0.0, seed=seed).leak_detected
        for seed, rows in enumerate(sizes)
    )
    low, high = (
        int(stats.binom.ppf(0.025, NULL_RELEASES, ALPHA)),
        int(stats.binom.isf(0.025, NULL_RELEASES, ALPHA)),
    )
    print(
        f"verdict on {NULL_RELEASES} null releases (50-500 rows): false-alarm rate "
        f"{alarms / NULL_RELEASES:.3f} (alpha {ALPHA}; 95 % binomial band "
        f"{low / NULL_RELEASES:.3f}-{high / NULL_RELEASES:.3f})"
    )
    for rho in (0.0, 0.05, 0.1):
        for epsilon in (0.2, 0.3, 0.4):
            caught = sum(
                simulated_verdict(200, epsilon=epsilon, rho=rho, seed=seed).leak_detected
                for seed in range(COPYING_RELEASES)
            )
            print(
                f"  copying releases, 200 rows, epsilon {epsilon}, rho {rho}: detected "
                f"{caught}/{COPYING_RELEASES} ({caught / COPYING_RELEASES:.0%})"
            )
    print(f"  (verdict rates took {time.perf_counter() - start:.1f} s)")


def timed_audit(data: dict[str, pd.DataFrame], title: str) -> tuple[float, int, float]:
    """Run the audit of ``data`` with ``--k 5,20`` on 2 jobs; print its steps and usage."""
    steps: list[tuple[str, float]] = []
    start = time.perf_counter()

    def progress(step: str, done: int, total: int) -> None:
        steps.append((step, time.perf_counter()))
        print(f"  [{done}/{total}] {step} at {steps[-1][1] - start:.1f} s", flush=True)

    print(title, flush=True)
    with Usage() as usage:
        result = run_audit(
            data["members"],
            data["nonmembers"],
            data["reference"],
            data["synthetic"],
            k=(5, 20),
            jobs=2,
            progress=progress,
        )
    elapsed = time.perf_counter() - start
    cpu = usage.cpu_seconds
    for attack in result.attacks:
        assert attack.metrics is not None
        print(f"  {attack.key:<12} AUC {attack.metrics.auc:.3f}")
    return elapsed, usage.peak, cpu


def stop_latency(data: dict[str, pd.DataFrame], number: signal.Signals) -> tuple[float, float]:
    """Seconds from ``number`` to the audit's exit, and to its last worker's end (killed: gone
    or a zombie, which uses no CPU and waits only for the machine's init to reap it).

    The audit runs as a user runs it (the ``explorer`` command next to this Python), on the
    tables of ``data`` written as CSV files; the signal is sent 3 s after its workers started.
    """
    explorer = Path(sys.executable).parent / "explorer"
    with tempfile.TemporaryDirectory(prefix="bench-audit-stop-") as folder:
        files = {}
        for role, table in data.items():
            files[role] = Path(folder) / f"{role}.csv"
            table.to_csv(files[role], index=False)
        command = [str(explorer), "audit", "--out", str(Path(folder) / "out"), "--jobs", "2"]
        for role in ("members", "nonmembers", "reference", "synthetic"):
            command += [f"--{role}", str(files[role])]
        audit = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert audit.stderr is not None
        audit.stderr.read(len("Auditing"))  # the progress bar: the attacks have started
        process = psutil.Process(audit.pid)
        while not process.children(recursive=True):  # the worker processes are up
            psutil.wait_procs([process], timeout=0.05)
        time.sleep(3.0)  # well into the attacks (the whole audit takes about a minute)
        workers = process.children(recursive=True)
        sent = time.perf_counter()
        audit.send_signal(number)
        audit.wait(timeout=120)
        exited = time.perf_counter() - sent
        while any(_computing(worker) for worker in workers):
            time.sleep(0.01)
        return exited, time.perf_counter() - sent


def _computing(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def main() -> None:
    if "--scale-only" not in sys.argv[1:]:
        verdict_rates()
    elapsed, peak, cpu = timed_audit(
        tables(), f"audit of 4 x {ROWS:,} rows x {COLUMNS} columns, --k 5,20, 2 jobs"
    )
    print(f"total        {elapsed:7.1f} s  ({elapsed / BUDGET_SECONDS:.2f} of the 90 s budget)")
    print(
        f"CPU time     {cpu:7.1f} s  (on 2 idle cores at least {cpu / 2:.1f} s wall-clock; "
        f"load average now {os.getloadavg()[0]:.1f})"
    )
    print(
        f"peak memory  {peak / 1024**2:7.0f} MB of the process tree "
        f"({peak / BUDGET_BYTES:.2f} of the 1.5 GB budget)"
    )
    large = tables(
        seed=2,
        rows=LARGE_TARGETS,
        reference_rows=LARGE_REFERENCE,
        synthetic_rows=LARGE_SYNTHETIC,
    )
    elapsed, peak, cpu = timed_audit(
        large,
        f"audit with {LARGE_REFERENCE:,} reference rows, {LARGE_SYNTHETIC:,} synthetic rows and "
        f"{2 * LARGE_TARGETS:,} targets, --k 5,20, 2 jobs",
    )
    print(
        f"total        {elapsed:7.1f} s  (CPU {cpu:.1f} s; peak memory {peak / 1024**2:.0f} MB; "
        f"load average now {os.getloadavg()[0]:.1f})"
    )
    for number in (signal.SIGTERM, signal.SIGINT):
        exited, ended = stop_latency(tables(), number)
        print(
            f"stopped by {number.name}: exited {exited:.2f} s after the signal, last worker "
            f"killed at {ended:.2f} s ({ended / STOP_BUDGET_SECONDS:.2f} of the 2 s budget)"
        )


if __name__ == "__main__":
    main()
