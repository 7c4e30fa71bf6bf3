"""Time and peak memory of a full audit at scale: 10,000 rows in each table, 10 columns.

Run with ``make bench`` (or ``python tests/bench/bench_audit.py`` from the
repository root). Every attack runs, Gen-LRA with k = 5 and k = 20, on a
simulated release in which the generator reproduces its training records with
a little noise. The issue's budget is 2 minutes and 2 GB on 2 cores; this
prints the measurements and their ratio to that budget, and asserts nothing.
"""

from __future__ import annotations

import itertools
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from compute.audit import run_audit

ROWS = 10_000
COLUMNS = 10
BUDGET_SECONDS = 120.0
BUDGET_BYTES = 2 * 1024**3


def population(rng: np.random.Generator, rows: int) -> pd.DataFrame:
    """Correlated Gaussian records with one integer-valued column."""
    mixing = np.random.default_rng(0).normal(size=(COLUMNS, COLUMNS)) / np.sqrt(COLUMNS)
    values = rng.normal(size=(rows, COLUMNS)) @ mixing
    values[:, -1] = np.round(3 * values[:, -1])
    return pd.DataFrame(values, columns=[f"x{index}" for index in range(COLUMNS)])


def tables(seed: int = 1) -> dict[str, pd.DataFrame]:
    """Members, non-members, reference and a release that half-copies its members."""
    rng = np.random.default_rng(seed)
    members, nonmembers, reference = (population(rng, ROWS) for _ in range(3))
    copied = members.to_numpy() + rng.normal(scale=0.1, size=members.shape)
    fresh = population(rng, ROWS).to_numpy()
    synthetic = np.where(rng.random((ROWS, 1)) < 0.5, copied, fresh)
    return {
        "members": members,
        "nonmembers": nonmembers,
        "reference": reference,
        "synthetic": pd.DataFrame(synthetic, columns=members.columns),
    }


def main() -> None:
    data = tables()
    steps: list[tuple[str, float]] = []

    def progress(step: str, done: int, total: int) -> None:
        steps.append((step, time.perf_counter()))
        print(f"  [{done}/{total}] {step} at {steps[-1][1] - steps[0][1]:.1f} s", flush=True)

    start = time.perf_counter()
    result = run_audit(
        data["members"],
        data["nonmembers"],
        data["reference"],
        data["synthetic"],
        k=(5, 20),
        progress=progress,
    )
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    print(f"audit of 4 x {ROWS:,} rows x {COLUMNS} columns, {len(result.attacks)} results")
    for (step, began), (_, ended) in itertools.pairwise(steps):
        print(f"  {step:<12} {ended - began:7.1f} s")
    print(f"total        {elapsed:7.1f} s  ({elapsed / BUDGET_SECONDS:.2f} of the 120 s budget)")
    print(f"peak memory  {peak / 1024**2:7.0f} MB ({peak / BUDGET_BYTES:.2f} of the 2 GB budget)")
    for attack in result.attacks:
        assert attack.metrics is not None
        print(f"  {attack.key:<12} AUC {attack.metrics.auc:.3f}")


if __name__ == "__main__":
    main()
