r"""A generator that memorizes: the controlled simulation of local overfitting.

The population ``P`` is a Gaussian mixture (:class:`Population`). From it the
simulation draws, independently, the generator's training records (the
*members* ``T``), records it never saw (the *non-members*) and the auditor's
*reference* sample ``R`` (:func:`simulation_split`). A memorizing generator
then releases synthetic records (:func:`memorizing_release`): each one is,
independently,

* with probability ``ε`` (the overfitting strength) a copy of a member chosen
  uniformly at random, plus isotropic Gaussian noise of standard deviation
  ``ρ · spread`` in every coordinate (``ρ`` is the memorization scale in units
  of ``P``'s spread, :attr:`Population.spread`; ``ρ = 0`` releases exact
  copies);
* otherwise a fresh draw from ``P``, which carries no information about ``T``.

The density of such a release is ``(1 − ε) p + ε · (1/|T|) Σ_t N(t, ρ² spread² I)``:
``ε`` says how much of the release leaks, ``ρ`` how sharply.

Common random numbers
    A release draws every random number for every row whatever ``ε`` and
    ``ρ`` are (a uniform that decides "copy or fresh", a member index, a
    fresh draw from ``P`` and a noise vector), in that order. Two releases
    drawn from generators in the same state therefore differ only where ``ε``
    or ``ρ`` makes them differ: the copies at a larger ``ε`` include those at
    a smaller one, and ``ρ`` only rescales the same noise. Curves against
    ``ε`` and ``ρ`` then show the effect of the parameter, not of new noise.
    :meth:`SimulationSplit.release` draws every release of a split from the
    same seeded stream.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

SPLIT_STREAM = 0
"""Second entry of the seed tuple that draws a split's members, non-members and reference."""
RELEASE_STREAM = 1
"""Second entry of the seed tuple that draws a split's releases."""


def _read_only(array: npt.ArrayLike) -> FloatArray:
    values = np.array(array, dtype=np.float64)
    values.setflags(write=False)
    return values


@dataclass(frozen=True, eq=False)
class Population:
    """A Gaussian mixture ``p(x) = Σ_j w_j N(x; μ_j, C_j)``, the population ``P``."""

    weights: FloatArray
    """The ``c`` mixture weights (positive, summing to 1)."""
    means: FloatArray
    """The ``c × d`` component means."""
    covariances: FloatArray
    """The ``c × d × d`` component covariances (symmetric positive definite)."""
    choleskys: FloatArray = field(init=False, repr=False)
    """Lower Cholesky factors ``L_j`` of the covariances (``C_j = L_j L_jᵀ``), derived."""

    def __post_init__(self) -> None:
        weights, means, covariances = (
            _read_only(self.weights),
            _read_only(self.means),
            _read_only(self.covariances),
        )
        if weights.ndim != 1 or weights.size == 0 or np.any(weights <= 0):
            raise ValueError(f"weights must be a non-empty list of positive numbers, got {weights}")
        if not math.isclose(float(weights.sum()), 1.0, rel_tol=1e-12):
            raise ValueError(f"weights must sum to 1, got {weights.sum()}")
        c = weights.size
        if means.ndim != 2 or means.shape[0] != c:
            raise ValueError(f"means must be {c} × d (one row per weight), got {means.shape}")
        d = means.shape[1]
        if covariances.shape != (c, d, d):
            raise ValueError(f"covariances must be {c} × {d} × {d}, got {covariances.shape}")
        if not np.allclose(covariances, covariances.transpose(0, 2, 1)):
            raise ValueError("every covariance must be symmetric")
        # Raises LinAlgError for a covariance that is not positive definite.
        choleskys = _read_only(np.linalg.cholesky(covariances))
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "covariances", covariances)
        object.__setattr__(self, "choleskys", choleskys)

    @property
    def dimensions(self) -> int:
        """The number of coordinates ``d``."""
        return int(self.means.shape[1])

    @property
    def mean(self) -> FloatArray:
        """The mean of ``P``, ``Σ_j w_j μ_j``."""
        return np.asarray(self.weights @ self.means)

    @property
    def covariance(self) -> FloatArray:
        """The covariance of ``P``: ``Σ_j w_j (C_j + μ_j μ_jᵀ) − μ μᵀ``."""
        second_moment = np.einsum("j,jab->ab", self.weights, self.covariances) + np.einsum(
            "j,ja,jb->ab", self.weights, self.means, self.means
        )
        return np.asarray(second_moment - np.outer(self.mean, self.mean))

    @property
    def spread(self) -> float:
        """The scale of ``P``: the root of its mean per-coordinate variance, ``√(tr Σ_P / d)``.

        The memorization scale ``ρ`` is measured in this unit, so ``ρ = 1``
        spreads a copy about as widely as ``P`` itself spreads.
        """
        return math.sqrt(float(np.trace(self.covariance)) / self.dimensions)

    def sample(self, n: int, rng: np.random.Generator) -> FloatArray:
        """``n`` independent draws from ``P`` (rows), using ``rng``.

        ``rng`` first picks every draw's component, then draws ``n × d``
        standard normals; each draw is ``μ_j + L_j z`` with ``C_j = L_j L_jᵀ``.
        """
        if n < 0:
            raise ValueError(f"n must be a non-negative number of draws, got {n}")
        components = rng.choice(self.weights.size, size=n, p=self.weights)
        normals = rng.standard_normal((n, self.dimensions))
        return np.asarray(
            self.means[components] + np.einsum("nab,nb->na", self.choleskys[components], normals)
        )

    def log_density(self, points: npt.ArrayLike) -> FloatArray:
        """``log p(x)`` at each row of ``points`` (exact, finite far into the tails)."""
        x = np.asarray(points, dtype=np.float64)
        choleskys = self.choleskys
        terms = np.empty((x.shape[0], self.weights.size))
        for j in range(self.weights.size):
            solved = np.linalg.solve(choleskys[j], (x - self.means[j]).T)
            log_det = 2.0 * np.log(np.diag(choleskys[j])).sum()
            terms[:, j] = (
                math.log(self.weights[j])
                - 0.5 * (solved**2).sum(axis=0)
                - 0.5 * (self.dimensions * math.log(2 * math.pi) + log_det)
            )
        largest = terms.max(axis=1)
        return np.asarray(largest + np.log(np.exp(terms - largest[:, None]).sum(axis=1)))


def two_d_population() -> Population:
    """The 2-D population of the lesson's pictures: three Gaussians of different shapes.

    ======  ============  ================================
    weight  mean          covariance
    ======  ============  ================================
    0.5     (0, 0)        [[1, 0.6], [0.6, 1]] (tilted)
    0.3     (3, 2)        [[0.5, −0.2], [−0.2, 0.4]]
    0.2     (−2.5, 2.5)   [[0.3, 0], [0, 0.8]] (upright)
    ======  ============  ================================

    Its spread (:attr:`Population.spread`) is about 1.8.
    """
    return Population(
        weights=np.array([0.5, 0.3, 0.2]),
        means=np.array([[0.0, 0.0], [3.0, 2.0], [-2.5, 2.5]]),
        covariances=np.array(
            [[[1.0, 0.6], [0.6, 1.0]], [[0.5, -0.2], [-0.2, 0.4]], [[0.3, 0.0], [0.0, 0.8]]]
        ),
    )


HIGH_D_CORRELATIONS: tuple[float, ...] = (0.5, -0.3, 0.0, 0.7)
"""AR(1) correlation of each component of :func:`high_d_population`."""
HIGH_D_SCALES: tuple[float, ...] = (1.0, 0.6, 0.8, 0.5)
"""Standard deviation of every coordinate in each component of :func:`high_d_population`."""
HIGH_D_SEPARATION = 3.0
"""Distance of each component mean of :func:`high_d_population` from the origin."""


def high_d_population(d: int = 8) -> Population:
    """A ``d``-dimensional population (``d ≥ 4``): four equally weighted Gaussians.

    Component ``j`` (``j = 0 … 3``) is centred at ``3 e_j`` (3 on coordinate
    ``j``, 0 elsewhere) and has covariance ``s_j² A(φ_j)``, where
    ``A(φ)_ab = φ^|a−b|`` is an AR(1) correlation matrix, with
    ``φ = (0.5, −0.3, 0, 0.7)`` and ``s = (1, 0.6, 0.8, 0.5)``
    (:data:`HIGH_D_CORRELATIONS`, :data:`HIGH_D_SCALES`). The components
    differ in orientation and size, as the 2-D ones do.
    """
    if d < 4:
        raise ValueError(f"high_d_population needs d >= 4 (one axis per component), got {d}")
    lags = np.abs(np.subtract.outer(np.arange(d), np.arange(d)))
    means = np.zeros((4, d))
    means[np.arange(4), np.arange(4)] = HIGH_D_SEPARATION
    covariances = np.array(
        [
            scale**2 * phi**lags
            for phi, scale in zip(HIGH_D_CORRELATIONS, HIGH_D_SCALES, strict=True)
        ]
    )
    return Population(weights=np.full(4, 0.25), means=means, covariances=covariances)


@dataclass(frozen=True, eq=False)
class Release:
    """The synthetic records of a memorizing generator, and which of them are copies."""

    records: FloatArray
    """The released ``size × d`` synthetic records."""
    source: IndexArray
    """For each record, the member row it copies (with noise), or −1 for a fresh draw from ``P``."""
    epsilon: float
    """The overfitting strength: the probability that a record is a copy."""
    rho: float
    """The memorization scale, in units of the population's spread."""
    noise_scale: float
    """The standard deviation of the noise added to a copy, per coordinate (``ρ · spread``)."""

    @property
    def copied(self) -> npt.NDArray[np.bool_]:
        """Which records are (noisy) copies of a member."""
        return np.asarray(self.source >= 0)

    @property
    def copy_share(self) -> float:
        """The share of records that are copies (about ``ε``)."""
        return float(self.copied.mean())

    def members_copied(self, members: int) -> npt.NDArray[np.bool_]:
        """For each of the ``members`` training rows, whether at least one record copies it.

        Read from :attr:`source`, so a noisy copy (``ρ > 0``) counts as a copy
        however far its noise moved it. Its mean is the coverage ``P`` of
        :func:`compute.attacks.stats.coverage_ceiling`; its expectation is
        :func:`copy_probability`.
        """
        if members < 1 or (self.source.size and int(self.source.max()) >= members):
            raise ValueError(f"members must be at least 1 and cover every source, got {members}")
        return np.asarray(np.bincount(self.source[self.copied], minlength=members) > 0)


def memorizing_release(
    members: npt.ArrayLike,
    population: Population,
    *,
    epsilon: float,
    rho: float,
    size: int,
    rng: np.random.Generator,
) -> Release:
    """Release ``size`` synthetic records from a generator that memorized ``members``.

    Each record is, independently, with probability ``epsilon`` a uniformly
    chosen member plus ``N(0, (rho · spread)² I)`` noise, otherwise a fresh
    draw from ``population`` (see the module docstring, also for the order in
    which ``rng`` is used).

    Parameters
    ----------
    members
        The ``m × d`` training records.
    population
        The population ``P`` of the fresh draws; its spread sets the noise unit.
    epsilon
        Overfitting strength, between 0 and 1.
    rho
        Memorization scale (≥ 0) in units of :attr:`Population.spread`.
    size
        Number of synthetic records.
    rng
        The source of randomness (the only one).
    """
    training = np.asarray(members, dtype=np.float64)
    if training.ndim != 2 or training.shape[0] == 0 or training.shape[1] != population.dimensions:
        raise ValueError(
            f"members must be an m × {population.dimensions} table with m ≥ 1, "
            f"got shape {training.shape}"
        )
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be between 0 and 1, got {epsilon}")
    if not (math.isfinite(rho) and rho >= 0.0):
        raise ValueError(f"rho must be a number ≥ 0, got {rho}")
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    uniforms = rng.random(size)
    chosen = rng.integers(0, training.shape[0], size=size)
    fresh = population.sample(size, rng)
    noise = rng.standard_normal((size, population.dimensions))
    noise_scale = rho * population.spread
    copied = uniforms < epsilon
    records = np.where(copied[:, None], training[chosen] + noise_scale * noise, fresh)
    source = np.where(copied, chosen, -1).astype(np.intp)
    return Release(records, source, float(epsilon), float(rho), float(noise_scale))


def _copy_rate(epsilon: float, size: int, members: int) -> float:
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be between 0 and 1, got {epsilon}")
    if size < 1 or members < 1:
        raise ValueError(f"size and members must be at least 1, got {size} and {members}")
    return epsilon / members


def expected_copies(*, epsilon: float, size: int, members: int) -> float:
    """``λ = size · ε / m``: how many records of a release copy one given member, on average.

    Each of the ``size`` records of :func:`memorizing_release` copies this
    member with probability ``ε / m`` (a copy, chance ``ε``, of a member chosen
    uniformly among ``m``), independently, so the number of its copies is
    Binomial(``size``, ``ε / m``), close to Poisson(``λ``).
    """
    return size * _copy_rate(epsilon, size, members)


def copy_probability(*, epsilon: float, size: int, members: int) -> float:
    """The exact chance that a given member has at least one copy: ``1 − (1 − ε/m)^size``.

    This is the expected coverage ``P`` of a release of
    :func:`memorizing_release` (:meth:`Release.members_copied`), and
    ``½ + ½·P`` its AUC ceiling (:func:`compute.attacks.stats.auc_ceiling`).
    """
    rate = _copy_rate(epsilon, size, members)
    return -math.expm1(size * math.log1p(-rate)) if rate < 1.0 else 1.0


def poisson_copy_probability(*, epsilon: float, size: int, members: int) -> float:
    """The closed form of the copying model: ``1 − e^{−λ}`` with ``λ = size · ε / m``.

    The Poisson limit of :func:`copy_probability`. Since ``ln(1 − q) ≤ −q``
    it never exceeds the exact value, and it falls short of it by at most
    ``λ · q / (1 − q)`` with ``q = ε / m`` (from ``ln(1 − q) ≥ −q − q²/(1 − q)``):
    below 0.002 for lesson 05's current simulation (``m = 200``, ``size = 400``,
    ``ε ≤ 0.4``).
    """
    return -math.expm1(-expected_copies(epsilon=epsilon, size=size, members=members))


def release_log_density(
    points: npt.ArrayLike,
    members: npt.ArrayLike,
    population: Population,
    *,
    epsilon: float,
    rho: float,
) -> FloatArray:
    """The true log density of a memorizing release at each row of ``points``.

    ``log q(x)`` with ``q = (1 − ε) p + ε · (1/m) Σ_t N(t, (ρ · spread)² I)``,
    the density every record of :func:`memorizing_release` is drawn from (given
    the members). ``log q(x) − log p(x)`` is the oracle's membership signal.
    ``rho`` must be positive: exact copies (``ρ = 0``) have no density.
    """
    x = np.asarray(points, dtype=np.float64)
    training = np.asarray(members, dtype=np.float64)
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be between 0 and 1, got {epsilon}")
    if not (math.isfinite(rho) and rho > 0.0):
        raise ValueError(f"rho must be > 0 for a density (ρ = 0 releases exact copies), got {rho}")
    scale = rho * population.spread
    d = population.dimensions
    squared = ((x[:, None, :] - training[None, :, :]) ** 2).sum(axis=-1)
    kernel = -squared / (2 * scale**2) - 0.5 * d * math.log(2 * math.pi * scale**2)
    largest = kernel.max(axis=1)
    copies = largest + np.log(np.exp(kernel - largest[:, None]).mean(axis=1))
    fresh = population.log_density(x)
    if epsilon == 0.0:
        return fresh
    if epsilon == 1.0:
        return np.asarray(copies)
    return np.asarray(np.logaddexp(math.log1p(-epsilon) + fresh, math.log(epsilon) + copies))


@dataclass(frozen=True, eq=False)
class SimulationSplit:
    """One seeded draw of members, non-members and reference from a population."""

    population: Population
    """The population everything is drawn from."""
    members: FloatArray
    """The generator's training records ``T``."""
    nonmembers: FloatArray
    """Records from ``P`` the generator never saw (the attack's negatives)."""
    reference: FloatArray
    """The auditor's reference sample ``R``."""
    synthetic_size: int
    """How many records each release of this split holds."""
    seed: int
    """The seed of the split and of its releases."""

    def release(self, *, epsilon: float, rho: float) -> Release:
        """The release of a generator (strength ``epsilon``, scale ``rho``) trained on the members.

        Every release of a split uses a fresh generator seeded with
        ``(seed, RELEASE_STREAM)``, so releases at different ``ε`` and ``ρ``
        share their random numbers (common random numbers, see the module
        docstring) and calling twice gives the same records.
        """
        rng = np.random.default_rng((self.seed, RELEASE_STREAM))
        return memorizing_release(
            self.members,
            self.population,
            epsilon=epsilon,
            rho=rho,
            size=self.synthetic_size,
            rng=rng,
        )


def simulation_split(
    population: Population,
    *,
    members: int = 200,
    nonmembers: int = 200,
    reference: int = 400,
    synthetic: int = 400,
    seed: int,
) -> SimulationSplit:
    """Draw members, non-members and reference independently from ``population``.

    ``numpy.random.default_rng((seed, SPLIT_STREAM))`` draws the members, then
    the non-members, then the reference (:meth:`Population.sample`). The three
    groups are disjoint: independent draws from a continuous distribution
    coincide with probability 0 (tested). ``synthetic`` is the size of every
    release drawn from the split (:meth:`SimulationSplit.release`).
    """
    for name, count in (("members", members), ("nonmembers", nonmembers), ("synthetic", synthetic)):
        if count < 1:
            raise ValueError(f"{name} must be at least 1, got {count}")
    if reference <= population.dimensions:
        raise ValueError(
            f"reference must have more rows than the {population.dimensions} dimensions "
            f"(a KDE needs a full-rank covariance), got {reference}"
        )
    rng = np.random.default_rng((seed, SPLIT_STREAM))
    return SimulationSplit(
        population=population,
        members=population.sample(members, rng),
        nonmembers=population.sample(nonmembers, rng),
        reference=population.sample(reference, rng),
        synthetic_size=synthetic,
        seed=seed,
    )
