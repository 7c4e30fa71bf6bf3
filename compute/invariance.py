r"""What the invariance claim for Gen-LRA covers, measured rather than asserted.

The claim: a log-likelihood-ratio score does not change when the data are
reparametrized by an invertible map ``y = g(x)`` (rescaled, re-encoded). It
holds in three different strengths, one function each.

1. True densities, any smooth invertible ``g`` (:func:`true_ratio_invariance`).
   Densities change as ``p_Y(y) = p_X(g⁻¹(y)) · |det J_{g⁻¹}(y)|``; the
   Jacobian factor is the same for both densities of a ratio and cancels.
2. The KDE bracket for *fixed* neighbour sets (:func:`bracket_invariance`):
   ``Σ_{s ∈ S_k(x*)} [log p̂_{R∪{x*}}(s) − log p̂_R(s)]`` with Gaussian KDEs
   whose covariance is the full sample covariance (times a factor that
   depends only on ``n`` and ``d``). An invertible affine map ``y = A x + b``
   maps each kernel ``N(x; r, f² Σ)`` to ``N(y; A r + b, f² A Σ Aᵀ) =
   N(x; r, f² Σ) / |det A|``, so both KDEs gain the same ``−log |det A|``
   and the bracket is unchanged (to rounding). A nonlinear ``g`` bends the
   kernels differently in different places, so the bracket changes.
3. The whole Gen-LRA score (:func:`neighbour_invariance`): ``S_k(x*)`` are
   the ``k`` synthetic records nearest to ``x*`` in *Euclidean* distance,
   which an affine map with unequal scaling (a change of units) reorders, so
   even an affine map changes some targets' neighbour sets and their scores.

Every function takes the maps as :class:`Reparametrization` values:
:func:`affine_map`, :func:`elementwise_exp`, :func:`elementwise_sinh`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .attacks import auc, gen_lra_scores
from .attacks.neighbours import nearest
from .synthetic import Population, release_log_density

FloatArray = npt.NDArray[np.float64]
Transform = Callable[[FloatArray], FloatArray]


@dataclass(frozen=True)
class Reparametrization:
    """An invertible map ``y = g(x)`` of the rows of a table, with its inverse and Jacobian."""

    name: str
    """A short description, e.g. ``"exp"``."""
    forward: Transform
    """``g``, applied to each row."""
    inverse: Transform
    """``g⁻¹``, applied to each row."""
    log_det_inverse_jacobian: Callable[[FloatArray], FloatArray]
    """``log |det J_{g⁻¹}(y)|`` for each row ``y``: what ``log p_Y`` adds to ``log p_X``."""
    affine: bool
    """Whether ``g`` is affine (``A x + b``)."""


def affine_map(matrix: npt.ArrayLike, shift: npt.ArrayLike | None = None) -> Reparametrization:
    """``y = A x + b`` for an invertible square ``A`` (``b = 0`` by default)."""
    a = np.array(matrix, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"the matrix must be square, got shape {a.shape}")
    sign, log_det = np.linalg.slogdet(a)
    if sign == 0:
        raise ValueError("the matrix must be invertible")
    b = np.zeros(a.shape[0]) if shift is None else np.array(shift, dtype=np.float64)
    a_inv = np.linalg.inv(a)
    return Reparametrization(
        name="affine",
        forward=lambda x: np.asarray(x @ a.T + b),
        inverse=lambda y: np.asarray((y - b) @ a_inv.T),
        log_det_inverse_jacobian=lambda y: np.full(y.shape[0], -log_det),
        affine=True,
    )


def elementwise_exp() -> Reparametrization:
    """``y_i = exp(x_i)`` in every coordinate, as a log-transformed column is undone."""
    return Reparametrization(
        name="exp",
        forward=lambda x: np.exp(x),
        inverse=lambda y: np.log(y),
        log_det_inverse_jacobian=lambda y: -np.log(y).sum(axis=1),
        affine=False,
    )


def elementwise_sinh() -> Reparametrization:
    """``y_i = sinh(x_i)`` in every coordinate: stretches the tails of both signs."""
    return Reparametrization(
        name="sinh",
        forward=lambda x: np.sinh(x),
        inverse=lambda y: np.arcsinh(y),
        # d arcsinh(y) / dy = 1 / sqrt(1 + y²)
        log_det_inverse_jacobian=lambda y: -0.5 * np.log1p(y**2).sum(axis=1),
        affine=False,
    )


@dataclass(frozen=True)
class RatioInvariance:
    """How a log ratio of two true densities moved under a reparametrization."""

    max_ratio_change: float
    """Largest ``|r_Y(g(x)) − r_X(x)|`` over the points, where ``r = log q − log p``."""
    max_density_change: float
    """Largest change of a single log density, ``|log p_Y(g(x)) − log p_X(x)|`` (the Jacobian)."""
    points: int
    """Number of points compared."""


def true_ratio_invariance(
    mapping: Reparametrization,
    population: Population,
    members: npt.ArrayLike,
    points: npt.ArrayLike,
    *,
    epsilon: float,
    rho: float,
) -> RatioInvariance:
    """The oracle log ratio ``log q − log p`` at ``points``, before and after ``mapping``.

    ``p`` is the population, ``q`` the density of a memorizing release
    (:func:`~compute.synthetic.release_log_density`). After the map both
    densities are evaluated in the new coordinates by the change of
    variables, ``log p_Y(y) = log p_X(g⁻¹(y)) + log |det J_{g⁻¹}(y)|``,
    starting from the mapped points ``y = g(x)``.
    """
    x = np.asarray(points, dtype=np.float64)
    ratio_x = release_log_density(x, members, population, epsilon=epsilon, rho=rho)
    ratio_x = ratio_x - population.log_density(x)
    y = mapping.forward(x)
    back = mapping.inverse(y)
    jacobian = mapping.log_det_inverse_jacobian(y)
    log_p_y = population.log_density(back) + jacobian
    log_q_y = release_log_density(back, members, population, epsilon=epsilon, rho=rho) + jacobian
    return RatioInvariance(
        max_ratio_change=float(np.abs((log_q_y - log_p_y) - ratio_x).max()),
        max_density_change=float(np.abs(log_p_y - population.log_density(x)).max()),
        points=int(x.shape[0]),
    )


def fixed_neighbour_brackets(
    targets: FloatArray,
    reference: FloatArray,
    synthetic: FloatArray,
    neighbours: npt.NDArray[np.intp],
) -> FloatArray:
    """Gen-LRA's bracket summed over given synthetic rows, one target at a time.

    ``neighbours[i]`` lists the synthetic rows of target ``i``; with exactly
    those rows as the release and ``k`` = their number, Gen-LRA sums over all
    of them, whatever the distances.
    """
    k = neighbours.shape[1]
    return np.array(
        [
            float(gen_lra_scores(target[None, :], reference, synthetic[rows], k=k)[0])
            for target, rows in zip(targets, neighbours, strict=True)
        ]
    )


@dataclass(frozen=True)
class BracketInvariance:
    """How the KDE bracket over fixed neighbour sets moved under a reparametrization."""

    max_abs_change: float
    """Largest ``|bracket after − bracket before|`` over the targets."""
    mean_abs_change: float
    """Mean of the same absolute changes."""
    max_abs_bracket: float
    """Largest ``|bracket before|``, the scale to compare the changes with."""
    targets: int
    """Number of targets compared."""


def bracket_invariance(
    mapping: Reparametrization,
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    k: int = 5,
) -> BracketInvariance:
    """The bracket of each target over its ``k`` nearest synthetic records, before and after.

    The neighbour sets are chosen once, in the original coordinates, and
    kept: only the KDEs see the map. (Silverman's bandwidth, Gen-LRA's default.)
    """
    x_targets, x_reference, x_synthetic = (
        np.asarray(table, dtype=np.float64) for table in (targets, reference, synthetic)
    )
    _, neighbours = nearest(x_synthetic, x_targets, k)
    before = fixed_neighbour_brackets(x_targets, x_reference, x_synthetic, neighbours)
    after = fixed_neighbour_brackets(
        mapping.forward(x_targets),
        mapping.forward(x_reference),
        mapping.forward(x_synthetic),
        neighbours,
    )
    change = np.abs(after - before)
    return BracketInvariance(
        max_abs_change=float(change.max()),
        mean_abs_change=float(change.mean()),
        max_abs_bracket=float(np.abs(before).max()),
        targets=int(x_targets.shape[0]),
    )


@dataclass(frozen=True)
class NeighbourInvariance:
    """What an affine change of units does to Gen-LRA with Euclidean neighbour selection."""

    changed_neighbour_sets: float
    """Share of targets whose set of ``k`` nearest synthetic records changed."""
    auc_before: float
    """Gen-LRA's AUC in the original coordinates."""
    auc_after: float
    """Gen-LRA's AUC after the map."""
    max_abs_score_change: float
    """Largest change of a target's score."""
    max_abs_score_change_kept: float
    """Largest change among targets whose neighbour set stayed the same (rounding only)."""


def neighbour_invariance(
    mapping: Reparametrization,
    members: npt.ArrayLike,
    nonmembers: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    k: int = 5,
) -> NeighbourInvariance:
    """Gen-LRA before and after ``mapping``, each time choosing neighbours by Euclidean distance."""
    x_members, x_nonmembers, x_reference, x_synthetic = (
        np.asarray(table, dtype=np.float64) for table in (members, nonmembers, reference, synthetic)
    )
    x_targets = np.vstack([x_members, x_nonmembers])
    y_targets, y_reference, y_synthetic = (
        mapping.forward(table) for table in (x_targets, x_reference, x_synthetic)
    )
    _, before_rows = nearest(x_synthetic, x_targets, k)
    _, after_rows = nearest(y_synthetic, y_targets, k)
    changed = np.array(
        [set(b) != set(a) for b, a in zip(before_rows.tolist(), after_rows.tolist(), strict=True)]
    )
    before = gen_lra_scores(x_targets, x_reference, x_synthetic, k=k)
    after = gen_lra_scores(y_targets, y_reference, y_synthetic, k=k)
    split = x_members.shape[0]
    change = np.abs(after - before)
    return NeighbourInvariance(
        changed_neighbour_sets=float(changed.mean()),
        auc_before=auc(before[:split], before[split:]),
        auc_after=auc(after[:split], after[split:]),
        max_abs_score_change=float(change.max()),
        max_abs_score_change_kept=float(change[~changed].max()) if (~changed).any() else 0.0,
    )


UNIT_CHANGE: tuple[tuple[float, ...], ...] = ((10.0, 0.0), (0.0, 1.0))
"""A change of units in the 2-D simulation: the first coordinate ×10, the second unchanged."""
GENERAL_AFFINE: tuple[tuple[float, ...], ...] = ((10.0, 3.0), (0.0, 0.5))
"""An invertible affine map that scales, shears and (with :data:`GENERAL_SHIFT`) moves."""
GENERAL_SHIFT: tuple[float, ...] = (5.0, -2.0)
"""The shift of the general affine map."""


@dataclass(frozen=True)
class InvarianceDemonstration:
    """The three strengths of the invariance claim, measured on one simulated release."""

    true_ratio_exp: RatioInvariance
    """True-density log ratio under ``exp`` in every coordinate: unchanged to rounding."""
    bracket_affine: BracketInvariance
    """KDE bracket, fixed neighbour sets, under :data:`GENERAL_AFFINE`: unchanged to rounding."""
    bracket_exp: BracketInvariance
    """KDE bracket, fixed neighbour sets, under ``exp``: changed."""
    neighbours_unit_change: NeighbourInvariance
    """Gen-LRA, Euclidean neighbours, under :data:`UNIT_CHANGE`: neighbour sets and AUC change."""


def demonstrate_invariance(
    *, seed: int = 1, epsilon: float = 0.4, rho: float = 0.2, k: int = 5, bracket_targets: int = 100
) -> InvarianceDemonstration:
    """Measure every case of the module docstring on the 2-D simulation's release of ``seed``.

    The split has the default sizes of :func:`~compute.synthetic.simulation_split`;
    the bracket is compared on the first ``bracket_targets / 2`` members and
    non-members (one Gen-LRA call per target), the rest on every target.
    """
    from .synthetic import simulation_split, two_d_population

    population = two_d_population()
    split = simulation_split(population, seed=seed)
    synthetic = split.release(epsilon=epsilon, rho=rho).records
    half = bracket_targets // 2
    targets = np.vstack([split.members[:half], split.nonmembers[:half]])
    general = affine_map(GENERAL_AFFINE, GENERAL_SHIFT)
    return InvarianceDemonstration(
        true_ratio_exp=true_ratio_invariance(
            elementwise_exp(),
            population,
            split.members,
            np.vstack([split.members, split.nonmembers]),
            epsilon=epsilon,
            rho=rho,
        ),
        bracket_affine=bracket_invariance(general, targets, split.reference, synthetic, k=k),
        bracket_exp=bracket_invariance(elementwise_exp(), targets, split.reference, synthetic, k=k),
        neighbours_unit_change=neighbour_invariance(
            affine_map(UNIT_CHANGE),
            split.members,
            split.nonmembers,
            split.reference,
            synthetic,
            k=k,
        ),
    )
