"""Timings and peak memory of Gen-LRA's exact shortcut, printed as ratios (nothing asserted).

Run from the repository root::

    python tests/bench/bench_attacks.py

Three measurements, on Gaussian data with correlated columns:

1. Speed-up over refitting: ``gen_lra_scores`` against the straightforward loop
   (one KD-tree shared by all targets, then per target a fresh
   ``scipy.stats.gaussian_kde`` on ``R ∪ {x*}`` evaluated at its ``k``
   nearest synthetic records), at |R| = |S| = 2,000, d = 8, 1,000 targets,
   k = 20. Both must agree; the ratio should be at least 5.
2. Several k at once: k ∈ {1, 5, 10, 20, 50} in one call against k = 50
   alone; the ratio should be at most 1.5.
3. Peak memory at |R| = |S| = 10,000, 20,000 targets, d = 8, k = 20
   (``tracemalloc``, which sees NumPy's buffers, and the process's maximum
   resident size); it should stay under 2 GB.

BLAS runs on one thread throughout, so that both sides of a ratio get the
same machine (the refit loop's thousands of tiny BLAS calls otherwise suffer
most from contention). Each time is the best of a few repeats.
"""

from __future__ import annotations

import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import stats
from scipy.spatial import cKDTree
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from privacy_explorer.compute.attacks import gen_lra_scores

COLUMNS = 8


def correlated(rng: np.random.Generator, rows: int) -> np.ndarray:
    """Rows of a fixed correlated Gaussian population."""
    mixing = np.random.default_rng(0).normal(size=(COLUMNS, COLUMNS)) + 2 * np.eye(COLUMNS)
    return rng.normal(size=(rows, COLUMNS)) @ mixing


def best_times(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The shortest wall-clock time of each run over ``repeats`` rounds, in seconds.

    The runs take turns within each round, so a burst of load elsewhere on the
    machine slows them alike instead of spoiling one side of a ratio.
    """
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def refit_loop(
    targets: np.ndarray, reference: np.ndarray, synthetic: np.ndarray, k: int
) -> np.ndarray:
    """Gen-LRA the straightforward way: one KD-tree, then a gaussian_kde refit per target."""
    null_kde = stats.gaussian_kde(reference.T, bw_method="silverman")
    _, neighbours = cKDTree(synthetic).query(targets, k=k)
    scores = np.empty(len(targets))
    for row, (target, closest) in enumerate(zip(targets, neighbours, strict=True)):
        grown_kde = stats.gaussian_kde(np.vstack([reference, target]).T, bw_method="silverman")
        points = synthetic[closest].T
        scores[row] = np.sum(grown_kde.logpdf(points) - null_kde.logpdf(points))
    return scores


def bench_speedup(rng: np.random.Generator) -> None:
    reference, synthetic, targets = (correlated(rng, rows) for rows in (2000, 2000, 1000))

    def exact_shortcut() -> np.ndarray:
        return gen_lra_scores(targets, reference, synthetic, k=20)

    shortcut = best_times({"shortcut": exact_shortcut}, 5)["shortcut"]
    start = time.perf_counter()
    refitted = refit_loop(targets, reference, synthetic, 20)
    refit = time.perf_counter() - start  # once: it takes seconds, so noise matters little
    difference = np.max(np.abs(exact_shortcut() - refitted))
    print("1. |R| = |S| = 2,000, d = 8, 1,000 targets, k = 20")
    print(f"   exact shortcut     {shortcut:8.3f} s")
    print(f"   refit loop         {refit:8.3f} s")
    print(f"   speed-up           {refit / shortcut:8.1f} x   (want >= 5)")
    print(f"   max |difference|   {difference:8.1e}")


def bench_several_k(rng: np.random.Generator) -> None:
    reference, synthetic, targets = (correlated(rng, rows) for rows in (2000, 2000, 1000))
    every_k = [1, 5, 10, 20, 50]
    times = best_times(
        {
            "together": lambda: gen_lra_scores(targets, reference, synthetic, k=every_k),
            "alone": lambda: gen_lra_scores(targets, reference, synthetic, k=50),
        },
        5,
    )
    together, alone = times["together"], times["alone"]
    print("2. k in {1, 5, 10, 20, 50} together against k = 50 alone (same data)")
    print(f"   together           {together:8.3f} s")
    print(f"   k = 50 alone       {alone:8.3f} s")
    print(f"   ratio              {together / alone:8.2f}     (want <= 1.5)")


def bench_memory(rng: np.random.Generator) -> None:
    reference, synthetic, targets = (correlated(rng, rows) for rows in (10_000, 10_000, 20_000))
    inputs = (reference.nbytes + synthetic.nbytes + targets.nbytes) / 2**20
    tracemalloc.start()
    start = time.perf_counter()
    scores = gen_lra_scores(targets, reference, synthetic, k=20)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # kB on Linux
    print("3. |R| = |S| = 10,000, 20,000 targets, d = 8, k = 20")
    print(f"   time               {elapsed:8.1f} s   ({scores.size} scores)")
    print(f"   inputs             {inputs:8.1f} MB")
    print(f"   peak traced        {peak / 2**20:8.1f} MB  (want <= 2048)")
    print(f"   max resident       {resident:8.1f} MB  (whole process)")


def main() -> None:
    with threadpool_limits(limits=1, user_api="blas"):
        bench_speedup(np.random.default_rng(1))
        bench_several_k(np.random.default_rng(2))
        bench_memory(np.random.default_rng(3))


if __name__ == "__main__":
    main()
