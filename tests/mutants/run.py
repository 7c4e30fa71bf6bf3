"""Apply each mutant of mutants.py, run the suite as ``make test`` does, and restore the file.

Usage: ``python tests/mutants/run.py [NAME ...] -- PYTEST_ARGS`` (``make mutants`` passes the
arguments ``make test`` uses). Prints, for each mutant, whether the suite failed, how many
seconds it took to fail and the first test that failed (the whole output is kept in
``build/mutants/<name>.log``); exits 1 when a mutant survived or was caught after the deadline.

The working tree is changed in place (the editable install imports the repository itself), one
file at a time, and put back in a ``finally``, on Ctrl-C too. A mutated file's original bytes
are also kept in ``build/mutants/`` until it is restored, so nothing is lost even if this
process is killed: the next run puts them back before it starts.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from mutants import DEADLINE_S, MUTANTS, Mutant

REPO = Path(__file__).resolve().parents[2]
SAVED = REPO / "build" / "mutants"


def restore_leftovers() -> None:
    """Put back any file a killed earlier run left mutated."""
    if not SAVED.is_dir():
        return
    for saved in sorted(SAVED.glob("*.orig")):
        target = REPO / saved.read_text("utf-8").splitlines()[0]
        target.write_bytes(saved.with_suffix(".bytes").read_bytes())
        saved.with_suffix(".bytes").unlink()
        saved.unlink()
        print(f"restored {target.relative_to(REPO)} from an interrupted run")


def run_suite(pytest_args: list[str], log: Path) -> tuple[int | None, float, str]:
    """Run pytest -x with ``pytest_args``, its output into ``log``.

    Returns its exit code (None past the deadline), its seconds and the first test it
    reported as failed or in error ("" if none).
    """
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *pytest_args]
    start = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO, start_new_session=True, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            code: int | None = process.wait(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            if process.poll() is None:  # past the deadline, or interrupted: stop its whole group
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
    seconds = time.monotonic() - start
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", log.read_text("utf-8", "replace"), re.M)
    return code, seconds, failed.group(1) if failed else ""


def apply(mutant: Mutant) -> tuple[Path, bytes]:
    """Write the mutant into its file; returns the file and its original bytes."""
    target = REPO / mutant.path
    original = target.read_bytes()
    text = original.decode("utf-8")
    found = text.count(mutant.before)
    if found != 1:
        raise SystemExit(
            f"{mutant.path}: mutant {mutant.name!r} expects its text exactly once, found it "
            f"{found} times; update tests/mutants/mutants.py to the code as it is now"
        )
    SAVED.mkdir(parents=True, exist_ok=True)
    (SAVED / f"{mutant.name}.bytes").write_bytes(original)
    (SAVED / f"{mutant.name}.orig").write_text(mutant.path + "\n", "utf-8")
    target.write_text(text.replace(mutant.before, mutant.after), "utf-8")
    return target, original


def restore(mutant: Mutant, target: Path, original: bytes) -> None:
    target.write_bytes(original)
    (SAVED / f"{mutant.name}.bytes").unlink()
    (SAVED / f"{mutant.name}.orig").unlink()


def stop(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: unwind, so that the ``finally`` puts the mutated file back."""
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    names, _, pytest_args = (
        (argv[: argv.index("--")], "--", argv[argv.index("--") + 1 :])
        if ("--" in argv)
        else (argv, "--", [])
    )
    chosen = [m for m in MUTANTS if not names or m.name in names]
    unknown = set(names) - {m.name for m in MUTANTS}
    if unknown:
        print(f"unknown mutant(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    restore_leftovers()
    signal.signal(signal.SIGTERM, stop)  # restore the mutated file on a kill too
    print(f"{len(chosen)} mutant(s); each must make the suite fail within {DEADLINE_S} s")
    missed = []
    for mutant in chosen:
        target, original = apply(mutant)
        log = SAVED / f"{mutant.name}.log"
        try:
            code, seconds, failed = run_suite(pytest_args, log)
        finally:
            restore(mutant, target, original)
        # -x under pytest-xdist ends the run as interrupted (exit 2) after the first failure.
        if code is None:
            verdict = f"SURVIVED the first {DEADLINE_S} s"
        elif code == 0:
            verdict = "SURVIVED (the suite passed)"
        elif code in (1, 2) and failed:
            verdict = "caught"
        else:
            verdict = f"ERROR (pytest exit {code}, see {log.relative_to(REPO)})"
        print(f"{mutant.name:<20} {verdict:<28} {seconds:6.0f} s  {mutant.what}", flush=True)
        if failed:
            print(f"{'':<20} first failure: {failed}", flush=True)
        if verdict != "caught":
            missed.append(mutant.name)
    if missed:
        print(f"not caught in time: {', '.join(missed)}")
        return 1
    print("every mutant was caught in time")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
