"""The Synth-MIA testbed's published housing numbers, reproduced; the test data's checksums.

The numbers come from the testbed's notebook
``example_notebooks/deploying_multiple_attacks.ipynb`` (repository
joshward96/Synth-MIA), which runs each attack on the raw, unscaled housing
tables and prints ``roc_auc_score`` and ``np.interp(fpr, *roc_curve)`` rounded
to three decimals. Its semantics: densities are ``gaussian_kde.evaluate``
values (linear), Gen-LRA adds 1e-20 to them before the logs, DOMIAS divides by
``p̂_R + 1e-20``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from privacy_explorer.compute.attacks import (
    auc,
    dcr_diff_scores,
    dcr_scores,
    density_scores,
    domias_scores,
    dpi_scores,
    gen_lra_scores,
    monte_carlo_scores,
    tpr_at_fpr,
)

HOUSING = Path(__file__).resolve().parent.parent / "data" / "synth-mia-housing"
"""Its files' digests are checked by compute.datasets and tests/test_housing_data.py."""
TESTBED_FLOOR = 1e-20


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread() -> Iterator[None]:
    """Run BLAS on one thread: the references make thousands of tiny BLAS calls, which
    threads only slow down (twentyfold on a busy machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@pytest.fixture(scope="module")
def release() -> dict[str, np.ndarray]:
    tables = {
        name: pd.read_csv(HOUSING / f"{name}.csv") for name in ("mem", "non_mem", "ref", "synth")
    }
    for table in tables.values():
        assert table.shape == (200, 9)
    return {name: table.to_numpy(dtype=float) for name, table in tables.items()}


def split(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Member scores (the first 200 targets) and non-member scores (the last 200)."""
    return scores[:200], scores[200:]


def attack(release: dict[str, np.ndarray], function, **options) -> tuple[np.ndarray, np.ndarray]:
    targets = np.vstack([release["mem"], release["non_mem"]])
    return split(function(targets, release["ref"], release["synth"], **options))


def test_gen_lra_k5(release) -> None:
    members, nonmembers = attack(release, gen_lra_scores, k=5, density_floor=TESTBED_FLOOR)
    assert round(auc(members, nonmembers), 3) == 0.648
    assert round(tpr_at_fpr(members, nonmembers, 0.0), 3) == 0.22
    assert round(tpr_at_fpr(members, nonmembers, 0.01), 3) == 0.22
    assert round(tpr_at_fpr(members, nonmembers, 0.1), 3) == 0.31


def test_gen_lra_without_the_floor_differs(release) -> None:
    # The floor is not cosmetic on raw units: exact log densities give another ranking.
    members, nonmembers = attack(release, gen_lra_scores, k=5)
    assert round(auc(members, nonmembers), 3) == 0.634


def test_dcr(release) -> None:
    members, nonmembers = attack(release, dcr_scores)
    assert round(auc(members, nonmembers), 3) == 0.527
    assert round(tpr_at_fpr(members, nonmembers, 0.0), 3) == 0.025
    assert round(tpr_at_fpr(members, nonmembers, 0.1), 3) == 0.145


def test_domias(release) -> None:
    members, nonmembers = attack(release, domias_scores, density_floor=TESTBED_FLOOR)
    assert round(auc(members, nonmembers), 3) == 0.684
    assert round(tpr_at_fpr(members, nonmembers, 0.01), 3) == 0.055
    assert round(tpr_at_fpr(members, nonmembers, 0.1), 3) == 0.27


def test_density(release) -> None:
    members, nonmembers = attack(release, density_scores)
    assert round(auc(members, nonmembers), 3) == 0.643
    assert round(tpr_at_fpr(members, nonmembers, 0.1), 3) == 0.165


def test_standardized_with_the_synthetic_datas_statistics(release) -> None:
    # The testbed tutorial's preprocessing: every table scaled by the synthetic data's column
    # means and standard deviations (StandardScaler fitted on synth). The KDEs do not care
    # about scale, but the nearest neighbours, and hence Gen-LRA and DCR, do.
    scaler = StandardScaler().fit(release["synth"])
    scaled = {name: scaler.transform(table) for name, table in release.items()}
    for density_floor in (None, TESTBED_FLOOR):
        members, nonmembers = attack(scaled, gen_lra_scores, k=5, density_floor=density_floor)
        assert round(auc(members, nonmembers), 3) == 0.744
    members, nonmembers = attack(scaled, dcr_scores)
    assert round(auc(members, nonmembers), 3) == 0.755


def test_dcr_diff_mc_and_dpi(release) -> None:
    expected = {
        # attack: (AUC, TPR at FPR 0, 0.001, 0.01, 0.1) as the notebook prints them
        dcr_diff_scores: (0.562, 0.0, 0.0, 0.015, 0.215),
        monte_carlo_scores: (0.511, 0.0, 0.006, 0.05, 0.117),
        dpi_scores: (0.531, 0.01, 0.017, 0.05, 0.124),
    }
    for function, (area, *tprs) in expected.items():
        members, nonmembers = attack(release, function)
        assert round(auc(members, nonmembers), 3) == area, function.__name__
        for fpr, tpr in zip((0.0, 0.001, 0.01, 0.1), tprs, strict=True):
            assert round(tpr_at_fpr(members, nonmembers, fpr), 3) == tpr, function.__name__
