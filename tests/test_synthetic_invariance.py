"""What the invariance claim covers: true densities, KDE brackets, Euclidean neighbour sets."""

from __future__ import annotations

import numpy as np
import pytest

from privacy_explorer.compute.invariance import (
    affine_map,
    bracket_invariance,
    demonstrate_invariance,
    elementwise_exp,
    elementwise_sinh,
    neighbour_invariance,
    true_ratio_invariance,
)
from privacy_explorer.compute.synthetic import simulation_split, two_d_population

MAPS = [
    affine_map([[10.0, 3.0], [0.0, 0.5]], [5.0, -2.0]),
    elementwise_exp(),
    elementwise_sinh(),
]


@pytest.fixture(scope="module")
def draw():
    population = two_d_population()
    split = simulation_split(
        population, members=60, nonmembers=60, reference=150, synthetic=200, seed=5
    )
    return population, split, split.release(epsilon=0.4, rho=0.2).records


@pytest.mark.parametrize("mapping", MAPS, ids=lambda m: m.name)
def test_maps_invert_and_their_jacobians_are_right(mapping) -> None:
    x = np.random.default_rng(0).normal(0, 1.5, (20, 2))
    y = mapping.forward(x)
    np.testing.assert_allclose(mapping.inverse(y), x, atol=1e-12)
    # log |det J_{g⁻¹}(y)| against central differences of g⁻¹.
    step = 1e-6
    for row in range(3):
        jacobian = np.column_stack(
            [
                (mapping.inverse(y[[row]] + step * e) - mapping.inverse(y[[row]] - step * e))[0]
                / (2 * step)
                for e in np.eye(2)
            ]
        )
        assert mapping.log_det_inverse_jacobian(y[[row]])[0] == pytest.approx(
            np.log(abs(np.linalg.det(jacobian))), abs=1e-5
        )


def test_a_singular_matrix_is_refused() -> None:
    with pytest.raises(ValueError, match="invertible"):
        affine_map([[1.0, 2.0], [2.0, 4.0]])


@pytest.mark.parametrize("mapping", MAPS, ids=lambda m: m.name)
def test_true_density_ratio_is_unchanged_by_any_invertible_map(draw, mapping) -> None:
    population, split, _ = draw
    points = np.vstack([split.members, split.nonmembers])
    check = true_ratio_invariance(mapping, population, split.members, points, epsilon=0.4, rho=0.2)
    assert check.max_ratio_change < 1e-10
    assert check.max_density_change > 1.0  # the densities themselves did change


def test_kde_bracket_is_unchanged_by_an_affine_map(draw) -> None:
    _, split, synthetic = draw
    targets = np.vstack([split.members[:15], split.nonmembers[:15]])
    check = bracket_invariance(MAPS[0], targets, split.reference, synthetic, k=5)
    assert check.max_abs_bracket > 0.01
    assert check.max_abs_change < 1e-10


@pytest.mark.parametrize("mapping", MAPS[1:], ids=lambda m: m.name)
def test_kde_bracket_changes_under_a_nonlinear_map(draw, mapping) -> None:
    _, split, synthetic = draw
    targets = np.vstack([split.members[:15], split.nonmembers[:15]])
    check = bracket_invariance(mapping, targets, split.reference, synthetic, k=5)
    assert check.max_abs_change > 0.01


def test_euclidean_neighbours_change_under_unequal_scaling(draw) -> None:
    _, split, synthetic = draw
    args = (split.members, split.nonmembers, split.reference, synthetic)
    stretched = neighbour_invariance(affine_map([[10.0, 0.0], [0.0, 1.0]]), *args, k=5)
    assert stretched.changed_neighbour_sets > 0.5
    assert stretched.max_abs_score_change > 0.01
    assert stretched.max_abs_score_change_kept < 1e-10
    # A uniform scaling keeps every Euclidean neighbour set, hence every score and the AUC.
    uniform = neighbour_invariance(affine_map([[3.0, 0.0], [0.0, 3.0]]), *args, k=5)
    assert uniform.changed_neighbour_sets == 0.0
    assert uniform.auc_after == uniform.auc_before
    assert uniform.max_abs_score_change < 1e-10


def test_the_demonstration_reports_all_three_cases() -> None:
    shown = demonstrate_invariance(bracket_targets=20)
    assert shown.true_ratio_exp.max_ratio_change < 1e-10
    assert shown.bracket_affine.max_abs_change < 1e-10
    assert shown.bracket_exp.max_abs_change > 0.01
    assert shown.neighbours_unit_change.changed_neighbour_sets > 0.5
    assert shown.neighbours_unit_change.auc_after != shown.neighbours_unit_change.auc_before
