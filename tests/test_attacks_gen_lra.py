"""Gen-LRA's exact shortcut against a brute force that really refits scipy's KDE per target."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from threadpoolctl import threadpool_limits

from privacy_explorer.compute.attacks import (
    SingularCovarianceError,
    gen_lra_field,
    gen_lra_scores,
    gen_lra_terms,
)
from privacy_explorer.compute.attacks.neighbours import nearest

HOUSING = Path(__file__).resolve().parent.parent / "data" / "synth-mia-housing"


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread() -> Iterator[None]:
    """Run BLAS on one thread: the references make thousands of tiny BLAS calls, which
    threads only slow down (twentyfold on a busy machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def brute_force_gen_lra(
    targets: np.ndarray,
    reference: np.ndarray,
    synthetic: np.ndarray,
    k: int,
    bw_method="silverman",
    density_floor: float | None = None,
) -> np.ndarray:
    """The definition, step by step: a fresh gaussian_kde on R ∪ {x*} for every target x*.

    Neighbours are ranked by np.linalg.norm distance, then by row (np.lexsort), independently
    of the library's KD-tree search.
    """
    null_kde = stats.gaussian_kde(reference.T, bw_method=bw_method)
    scores = []
    for target in targets:
        grown_kde = stats.gaussian_kde(np.vstack([reference, target]).T, bw_method=bw_method)
        distances = np.linalg.norm(synthetic - target, axis=1)
        closest = synthetic[np.lexsort((np.arange(len(synthetic)), distances))[:k]].T
        if density_floor is None:
            terms = grown_kde.logpdf(closest) - null_kde.logpdf(closest)
        else:
            terms = np.log(grown_kde.evaluate(closest) + density_floor) - np.log(
                null_kde.evaluate(closest) + density_floor
            )
        scores.append(terms.sum())
    return np.array(scores)


def population(rng: np.random.Generator, rows: int, mixing: np.ndarray) -> np.ndarray:
    return rng.normal(size=(rows, mixing.shape[0])) @ mixing + 1.0


def well_conditioned_mixing(rng: np.random.Generator, columns: int) -> np.ndarray:
    """A random rotation with scales from 0.5 to 3: correlated columns, covariance condition ≤ 36.

    SciPy's own KDE loses about ``condition × 1e-16`` of accuracy, so the brute force is only a
    1e-8 reference for a well-conditioned covariance (see the extended-precision test below).
    """
    rotation, _ = np.linalg.qr(rng.normal(size=(columns, columns)))
    return np.diag(np.linspace(0.5, 3.0, columns)) @ rotation


def housing(name: str) -> np.ndarray:
    return pd.read_csv(HOUSING / f"{name}.csv").to_numpy(dtype=float)


CASES = [
    # (columns, reference rows, synthetic rows, bandwidth)
    (1, 25, 30, "silverman"),
    (2, 60, 40, "scott"),
    (3, 80, 50, 0.6),
    (5, 120, 60, "silverman"),
    (8, 150, 80, "scott"),
    (4, 50, 45, lambda kde: 0.7 * kde.scotts_factor()),
]


@pytest.mark.parametrize(("columns", "reference_rows", "synthetic_rows", "bw_method"), CASES)
def test_equals_brute_force_refit_on_random_data(
    columns: int, reference_rows: int, synthetic_rows: int, bw_method
) -> None:
    rng = np.random.default_rng(columns * 1000 + reference_rows)
    mixing = well_conditioned_mixing(rng, columns)
    reference = population(rng, reference_rows, mixing)
    members = population(rng, 15, mixing)
    # A generator that half-copies its members, plus fresh draws.
    synthetic = np.vstack(
        [
            members + 0.05 * rng.normal(size=members.shape),
            population(rng, synthetic_rows - 15, mixing),
        ]
    )
    targets = np.vstack([members, population(rng, 15, mixing)])
    scores = gen_lra_scores(targets, reference, synthetic, k=[1, 5, 20], bw_method=bw_method)
    for column, k in enumerate([1, 5, 20]):
        expected = brute_force_gen_lra(targets, reference, synthetic, k, bw_method)
        assert np.max(np.abs(scores[:, column] - expected)) <= 1e-8


def extended_precision_log_kde(records: np.ndarray, points: np.ndarray) -> np.ndarray:
    """log gaussian_kde(records.T, "scott").logpdf(points.T), in np.longdouble throughout."""
    data, at = records.astype(np.longdouble), points.astype(np.longdouble)
    rows, columns = data.shape
    centred = data - data.mean(axis=0)
    covariance = centred.T @ centred / (rows - 1)
    cholesky = np.zeros_like(covariance)
    for i in range(columns):
        for j in range(i + 1):
            rest = covariance[i, j] - np.sum(cholesky[i, :j] * cholesky[j, :j])
            cholesky[i, j] = np.sqrt(rest) if i == j else rest / cholesky[j, j]
    cholesky *= np.longdouble(rows) ** (np.longdouble(-1) / (columns + 4))

    def whiten(values: np.ndarray) -> np.ndarray:
        solved = np.zeros_like(values)
        for i in range(columns):
            solved[:, i] = (values[:, i] - solved[:, :i] @ cholesky[i, :i]) / cholesky[i, i]
        return solved

    exponents = -0.5 * ((whiten(at)[:, None, :] - whiten(data)[None, :, :]) ** 2).sum(axis=-1)
    largest = exponents.max(axis=1)
    return (
        largest
        + np.log(np.exp(exponents - largest[:, None]).sum(axis=1))
        - np.log(np.longdouble(rows))
        - np.log(np.diag(cholesky)).sum()
        - columns / 2 * np.log(2 * np.longdouble(np.pi))
    )


@pytest.mark.skipif(
    bool(np.finfo(np.longdouble).eps > 1e-18), reason="np.longdouble is no wider than float64 here"
)
def test_agrees_with_extended_precision_when_the_covariance_is_ill_conditioned() -> None:
    rng = np.random.default_rng(8150)
    mixing = rng.normal(size=(8, 8))  # covariance condition number about 5e5
    reference, synthetic, targets = (population(rng, rows, mixing) for rows in (150, 80, 20))
    scores = gen_lra_scores(targets, reference, synthetic, k=20, bw_method="scott")
    _, neighbours = nearest(synthetic, targets, 20)
    exact = np.array(
        [
            float(
                (
                    extended_precision_log_kde(np.vstack([reference, target]), synthetic[rows])
                    - extended_precision_log_kde(reference, synthetic[rows])
                ).sum()
            )
            for target, rows in zip(targets, neighbours, strict=True)
        ]
    )
    assert np.max(np.abs(scores - exact)) <= 1e-9


@pytest.mark.parametrize("density_floor", [None, 1e-20])
def test_equals_brute_force_refit_on_the_housing_release(density_floor: float | None) -> None:
    targets = np.vstack([housing("mem"), housing("non_mem")])
    reference, synthetic = housing("ref"), housing("synth")
    scores = gen_lra_scores(
        targets, reference, synthetic, k=[1, 5, 20], density_floor=density_floor
    )
    for column, k in enumerate([1, 5, 20]):
        expected = brute_force_gen_lra(
            targets, reference, synthetic, k, density_floor=density_floor
        )
        assert np.max(np.abs(scores[:, column] - expected)) <= 1e-8


def test_neighbours_far_from_every_reference_record_are_exact() -> None:
    # Every reference kernel underflows at these synthetic records, so the log-sum-exp
    # shifts those rows by their largest exponent; the scores are large, so the comparison
    # is relative.
    import privacy_explorer.compute.attacks.gen_lra as module

    rng = np.random.default_rng(10)
    reference = rng.normal(size=(50, 2))
    synthetic = rng.normal(size=(25, 2)) + np.array([40.0, -40.0])
    targets = np.array([[0.0, 0.0], [1.0, -1.0], [40.0, -40.0]])
    scores = gen_lra_scores(targets, reference, synthetic, k=[1, 5])
    kde = stats.gaussian_kde(reference.T)
    assert kde.logpdf(synthetic.T).max() < module._LOG_SMALLEST_SAFE_SUM  # the shifted rows
    for column, k in enumerate([1, 5]):
        expected = brute_force_gen_lra(targets, reference, synthetic, k)
        np.testing.assert_allclose(scores[:, column], expected, rtol=1e-12, atol=1e-8)


def test_a_sequence_of_k_gives_one_column_per_k_in_the_given_order() -> None:
    rng = np.random.default_rng(1)
    reference, synthetic, targets = (rng.normal(size=(rows, 3)) for rows in (40, 30, 7))
    together = gen_lra_scores(targets, reference, synthetic, k=(10, 1, 5))
    assert together.shape == (7, 3)
    for column, k in enumerate((10, 1, 5)):
        alone = gen_lra_scores(targets, reference, synthetic, k=k)
        assert alone.shape == (7,)
        np.testing.assert_allclose(together[:, column], alone, rtol=0, atol=1e-12)
    assert gen_lra_scores(targets, reference, synthetic, k=[5]).shape == (7, 1)


def test_chunking_does_not_change_the_scores() -> None:
    rng = np.random.default_rng(2)
    reference, synthetic, targets = (rng.normal(size=(rows, 4)) for rows in (50, 40, 23))
    whole = gen_lra_scores(targets, reference, synthetic, k=[1, 5])
    for chunk_size in (1, 4, 100):
        np.testing.assert_allclose(
            gen_lra_scores(targets, reference, synthetic, k=[1, 5], chunk_size=chunk_size),
            whole,
            rtol=0,
            atol=1e-12,
        )


def test_equal_distances_take_the_lower_synthetic_row_first() -> None:
    rng = np.random.default_rng(3)
    reference = rng.normal(size=(40, 2))
    target = np.array([[0.0, 0.0]])
    # Rows 1, 2 and 4 lie at distance 1 from the target; row 2 and row 4 coincide.
    synthetic = np.array(
        [[5.0, 5.0], [0.0, 1.0], [1.0, 0.0], [3.0, 3.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]]
    )
    _, indices = nearest(synthetic, target, 3)
    assert indices.tolist() == [[1, 2, 4]]
    for k in (1, 2, 3, 4):
        assert gen_lra_scores(target, reference, synthetic, k=k)[0] == pytest.approx(
            brute_force_gen_lra(target, reference, synthetic, k)[0], abs=1e-10
        )


def test_ties_beyond_the_first_kd_tree_query_are_resolved() -> None:
    # 40 copies of one synthetic record all tie; the lowest rows must win.
    rng = np.random.default_rng(4)
    synthetic = np.vstack([rng.normal(size=(10, 2)) + 10, np.tile([[0.5, 0.5]], (40, 1))])
    queries = np.array([[0.5, 0.5], [0.4, 0.6]])
    _, indices = nearest(synthetic, queries, 25)
    assert indices.tolist() == [list(range(10, 35))] * 2


@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_nearest_is_the_brute_force_order_by_distance_then_row(k: int) -> None:
    rng = np.random.default_rng(k)
    # Whole-number points: distances are exact in both computations, and ties are many.
    synthetic = rng.integers(0, 4, size=(300, 3)).astype(float)
    queries = rng.integers(0, 4, size=(60, 3)).astype(float)
    distances, indices = nearest(synthetic, queries, k)
    exact = np.sqrt(((queries[:, None, :] - synthetic[None, :, :]) ** 2).sum(axis=-1))
    rows = np.broadcast_to(np.arange(synthetic.shape[0]), exact.shape)
    order = np.lexsort((rows, exact), axis=-1)[:, :k]
    assert indices.tolist() == order.tolist()
    assert np.array_equal(distances, np.take_along_axis(exact, order, axis=1))


def test_a_memorised_record_scores_higher_than_a_fresh_one() -> None:
    rng = np.random.default_rng(5)
    reference = rng.normal(size=(200, 3))
    member, fresh = rng.normal(size=(2, 3))
    synthetic = np.vstack([member + 0.01 * rng.normal(size=(5, 3)), rng.normal(size=(100, 3))])
    scores = gen_lra_scores(np.vstack([member, fresh]), reference, synthetic, k=5)
    assert scores[0] > scores[1]


def test_a_constant_reference_column_raises_a_clear_error() -> None:
    rng = np.random.default_rng(6)
    reference = pd.DataFrame({"rooms": rng.normal(size=30), "state": 6.0})
    with pytest.raises(
        SingularCovarianceError, match=r"constant column 'state'.*drop the constant"
    ):
        gen_lra_scores(rng.normal(size=(3, 2)), reference, rng.normal(size=(10, 2)))


def test_too_few_reference_rows_raise_a_clear_error() -> None:
    rng = np.random.default_rng(7)
    with pytest.raises(SingularCovarianceError, match=r"reference: .*4 rows of 6 columns.*PCA"):
        gen_lra_scores(rng.normal(size=(3, 6)), rng.normal(size=(4, 6)), rng.normal(size=(10, 6)))


def test_collinear_reference_columns_raise_a_clear_error() -> None:
    rng = np.random.default_rng(8)
    reference = rng.normal(size=(40, 3))
    reference[:, 1] = 3 * reference[:, 0]
    with pytest.raises(SingularCovarianceError, match=r"column 0, column 1 are .*linear"):
        gen_lra_scores(rng.normal(size=(3, 3)), reference, rng.normal(size=(10, 3)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"synthetic": np.zeros((3, 2))}, "k=5 needs at least 5 synthetic rows, got 3"),
        ({"targets": np.zeros((3, 3))}, "targets has 3, reference has 2, synthetic has 2"),
        ({"targets": np.zeros(2)}, "targets must be a 2-D table"),
        ({"reference": np.full((30, 2), np.inf)}, "reference must hold finite numbers only"),
        ({"k": 0}, "k must be positive integers, got 0"),
        ({"k": []}, "non-empty sequence"),
        ({"bw_method": "silvermann"}, "bw_method must be 'scott', 'silverman'"),
        ({"density_floor": -1.0}, "density_floor must be None or a positive number"),
        ({"chunk_size": 0}, "chunk_size must be a positive integer"),
    ],
)
def test_invalid_inputs_raise_clear_errors(change: dict, message: str) -> None:
    rng = np.random.default_rng(9)
    arguments = {
        "targets": rng.normal(size=(4, 2)),
        "reference": rng.normal(size=(30, 2)),
        "synthetic": rng.normal(size=(20, 2)),
    } | change
    with pytest.raises(ValueError, match=message):
        gen_lra_scores(**arguments)


def test_the_refitting_reference_is_the_brute_force_definition() -> None:
    """The library's slow reference (for pages and audits) equals this file's brute force."""
    from privacy_explorer.compute.attacks.gen_lra import refitted_gen_lra_scores
    from privacy_explorer.compute.audit_experiments import SilvermanMultiple

    rng = np.random.default_rng(11)
    mixing = well_conditioned_mixing(rng, 3)
    reference, synthetic = population(rng, 60, mixing), population(rng, 40, mixing)
    targets = population(rng, 8, mixing)
    for bw_method in ("silverman", SilvermanMultiple(0.25)):
        expected = brute_force_gen_lra(targets, reference, synthetic, 5, bw_method)
        reference_scores = refitted_gen_lra_scores(
            targets, reference, synthetic, k=5, bw_method=bw_method
        )
        np.testing.assert_allclose(reference_scores, expected, rtol=1e-12, atol=1e-12)
        shortcut = gen_lra_scores(targets, reference, synthetic, k=5, bw_method=bw_method)
        assert np.max(np.abs(shortcut - reference_scores)) <= 1e-8


def test_the_log_sum_exp_is_exact_for_rows_far_below_underflow() -> None:
    """Rows shifted, exponents floored below e^-700: equal to SciPy's logsumexp to rounding."""
    from scipy.special import logsumexp

    from privacy_explorer.compute.attacks.gen_lra import _log_sum_exp_of_nonpositive

    rng = np.random.default_rng(4)
    rows = -np.vstack([rng.uniform(0, 50, 40), rng.uniform(600, 900, 40), rng.uniform(0, 3000, 40)])
    expected = logsumexp(rows, axis=-1)
    np.testing.assert_allclose(_log_sum_exp_of_nonpositive(rows.copy()), expected, rtol=1e-14)


@pytest.mark.parametrize("bw_method", ["silverman", 0.4, lambda kde: 0.3 * kde.silverman_factor()])
def test_the_score_field_is_scipys_refit_with_the_target_added(bw_method) -> None:
    """The field at points near and far from the target (where the added kernel underflows)."""
    rng = np.random.default_rng(11)
    mixing = well_conditioned_mixing(rng, 2)
    reference = population(rng, 90, mixing)
    target = population(rng, 1, mixing)[0]
    points = np.vstack(
        [target, target + 0.01 * rng.normal(size=(20, 2)), population(rng, 40, mixing) * 4]
    )
    grown = stats.gaussian_kde(np.vstack([reference, target]).T, bw_method=bw_method)
    base = stats.gaussian_kde(reference.T, bw_method=bw_method)
    expected = grown.logpdf(points.T) - base.logpdf(points.T)
    field = gen_lra_field(target, reference, points, bw_method=bw_method)
    np.testing.assert_allclose(field, expected, rtol=1e-9, atol=1e-10)
    assert field[0] > 0 > field[-1]  # a bump at the target, a dilution far from it


def test_the_terms_are_the_scores_parts_at_the_scores_neighbours() -> None:
    rng = np.random.default_rng(12)
    mixing = well_conditioned_mixing(rng, 3)
    reference = population(rng, 70, mixing)
    synthetic = population(rng, 50, mixing)
    targets = population(rng, 8, mixing)
    parts = gen_lra_terms(targets, reference, synthetic, k=6, bw_method="scott")
    _, rows = nearest(synthetic, targets, 6)
    np.testing.assert_array_equal(parts.neighbours, rows)
    np.testing.assert_allclose(
        parts.terms.sum(axis=1),
        brute_force_gen_lra(targets, reference, synthetic, 6, "scott"),
        atol=1e-8,
    )
    for target, neighbours, terms in zip(targets, parts.neighbours, parts.terms, strict=True):
        field = gen_lra_field(target, reference, synthetic[neighbours], bw_method="scott")
        np.testing.assert_allclose(terms, field, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="one record"):
        gen_lra_field(targets[:2], reference, synthetic)
