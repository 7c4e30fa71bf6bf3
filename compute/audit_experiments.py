r"""The experiments of lesson 05: membership attacks on simulated and on real synthetic releases.

Two experiments share one evaluation (:func:`evaluate_scores`): an attack
scores the members and the non-members, and the scores are summarised by the
AUC and the TPR at the false-positive rates :data:`FPR_LEVELS` (both the
testbed's interpolated reading, :func:`compute.attacks.tpr_at_fpr`, and the
conservative one, :func:`compute.attacks.max_tpr_at_fpr`).

Simulation (:func:`run_simulation`)
    One data draw per (ε, ρ, seed): a :func:`~compute.synthetic.simulation_split`
    of the population and the memorizing release of that split (common random
    numbers across ε and ρ, see :mod:`compute.synthetic`). On that one draw,
    Gen-LRA runs once per bandwidth multiple with every ``k`` at once (the
    library sums the neighbours' terms cumulatively); the KDE rivals DOMIAS
    and density run once per bandwidth multiple too, so that a small
    bandwidth alone can be told apart from Gen-LRA's sum over neighbours;
    every other rival runs once (:func:`rival_options` sets the seeded models).
Bandwidth multiples
    "``m`` × Silverman" is the callable :class:`SilvermanMultiple`: the KDE
    of ``R`` gets ``m`` times Silverman's factor for ``n`` records and the
    refitted KDE of ``R ∪ {x*}`` ``m`` times the factor for ``n + 1``, so
    the multiple follows ``n → n + 1`` exactly as ``"silverman"`` does and
    ``m = 1`` *is* the authors' ``"silverman"`` (tested). A plain number
    would instead keep one factor for both fits (SciPy's semantics for a
    scalar ``bw_method``): a different, if only slightly different, attack.
Cost
    Measured with ``python -m compute.audit_experiments`` on the 2-core
    machine (one BLAS thread per process): a 2-D draw with 400 targets, 400
    reference and 400 synthetic records costs about 0.7 s of CPU for every
    attack and variant: Gen-LRA 0.39 s (five bandwidths; 0.2 s of it at
    0.1 × Silverman, where most kernel exponents underflow), LOGAN 0.15 s,
    the random forest 0.09 s, everything else 0.05 s. The default grid (5 ε
    × 7 ρ × 3 seeds, 87 distinct draws since ε = 0 is shared) takes about
    63 s of CPU, some 32 s on two otherwise idle cores. An 8-D draw costs
    about 0.8 s.
Summaries
    :func:`summarize_metric` (mean and spread over seeds),
    :func:`score_gap_lines` (the mean score gap against ε, fitted by a
    straight line), :func:`rank_first_shares` (how often each attack wins).
    The real generators on the concrete data are run by
    :mod:`compute.generator_audit` with the same evaluation.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .attacks import ATTACKS, KDESample, auc, gen_lra_scores, max_tpr_at_fpr, tpr_at_fpr
from .attacks.neighbours import nearest
from .synthetic import (
    Population,
    Release,
    SimulationSplit,
    high_d_population,
    simulation_split,
    two_d_population,
)

FloatArray = npt.NDArray[np.float64]

FPR_LEVELS: tuple[float, ...] = (0.0, 0.001, 0.01, 0.1)
"""The false-positive rates at which every attack's TPR is read."""

SIMULATION_EPSILONS: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.4)
"""Overfitting strengths ε of the simulation grid."""
SIMULATION_RHOS: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
"""Memorization scales ρ of the simulation grid (units of the population's spread)."""
SIMULATION_KS: tuple[int, ...] = (1, 5, 20, 50)
"""Numbers of synthetic neighbours ``k`` Gen-LRA sums over."""
BANDWIDTH_MULTIPLES: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Gen-LRA bandwidths, as multiples of Silverman's factor."""
SIMULATION_SEEDS: tuple[int, ...] = (1, 2, 3)
"""Seeds of the simulation grid: each is one split and one stream of releases."""

GEN_LRA = "gen_lra"
"""The registry key of Gen-LRA, the attack with a (k, bandwidth) grid of its own."""
KDE_RIVALS: tuple[str, ...] = ("domias", "density")
"""Rivals built on a Gaussian KDE: they run at every bandwidth multiple Gen-LRA runs at, so a
small bandwidth can be told apart from Gen-LRA's sum over neighbours."""


def silverman_factor(n: int, d: int) -> float:
    """Silverman's factor ``(n (d + 2) / 4)^(−1/(d+4))`` for ``n`` records in ``d`` dimensions."""
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive, got n={n}, d={d}")
    return float((n * (d + 2.0) / 4.0) ** (-1.0 / (d + 4)))


@dataclass(frozen=True)
class SilvermanMultiple:
    """A ``bw_method``: ``multiple`` × Silverman's factor of whichever sample the KDE is fitted to.

    Being called with the sample, it follows ``n → n + 1`` when Gen-LRA
    refits on ``R ∪ {x*}``, as ``"silverman"`` does (see the module docstring).
    """

    multiple: float
    """The multiple ``m`` of Silverman's factor (1 is Silverman's rule itself)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.multiple) and self.multiple > 0):
            raise ValueError(f"a bandwidth multiple must be a number > 0, got {self.multiple}")

    def __call__(self, sample: KDESample) -> float:
        return self.multiple * silverman_factor(sample.n, sample.d)


def rival_options(seed: int) -> dict[str, dict[str, Any]]:
    """Options of the attacks that train a model: seeded, and sized for the experiment grids.

    The random forest keeps 50 trees and the LOGAN discriminator two ReLU
    layers of 32 units trained for at most 100 epochs. On the simulation
    (ε = 0.4, ρ ∈ {0, 0.1}, four seeds) the testbed's 100 trees gave the
    same AUC to 0.001 at twice the cost, and the paper's 256-unit network
    no better AUC (±0.01) at 5–8 times the cost (``python -m
    compute.audit_experiments`` measures the costs again).
    """
    return {
        "classifier": {"random_state": seed, "n_estimators": 50},
        "logan": {"random_state": seed, "hidden_units": 32, "max_iter": 100},
    }


@dataclass(frozen=True, eq=False)
class AttackOutcome:
    """How one attack (one variant of it) separated members from non-members on one release."""

    attack: str
    """The attack's key in :data:`compute.attacks.ATTACKS`."""
    k: int | None
    """Gen-LRA's number of synthetic neighbours (``None`` for the other attacks)."""
    bandwidth_multiple: float | None
    """Gen-LRA's bandwidth as a multiple of Silverman's factor (``None`` for the others)."""
    member_scores: FloatArray
    """The members' scores (higher means "more likely a member")."""
    nonmember_scores: FloatArray
    """The non-members' scores."""
    auc: float
    """Area under the ROC curve."""
    tpr: dict[float, float] = field(default_factory=dict)
    """TPR at each FPR of :data:`FPR_LEVELS`, the testbed's interpolated reading."""
    tpr_conservative: dict[float, float] = field(default_factory=dict)
    """TPR at each FPR of :data:`FPR_LEVELS`, the best actual threshold within that FPR."""

    @property
    def score_gap(self) -> float:
        """Mean member score minus mean non-member score."""
        return float(self.member_scores.mean() - self.nonmember_scores.mean())

    def metric(self, name: str | float) -> float:
        """``"auc"``, or the (interpolated) TPR at the FPR ``name``."""
        if name == "auc":
            return self.auc
        if isinstance(name, str) or float(name) not in self.tpr:
            raise ValueError(f"metric must be 'auc' or one of the FPRs {FPR_LEVELS}, got {name!r}")
        return self.tpr[float(name)]


def evaluate_scores(
    attack: str,
    member_scores: npt.ArrayLike,
    nonmember_scores: npt.ArrayLike,
    *,
    k: int | None = None,
    bandwidth_multiple: float | None = None,
) -> AttackOutcome:
    """The AUC and the TPR at every FPR of :data:`FPR_LEVELS` for one attack's scores."""
    members = np.asarray(member_scores, dtype=np.float64)
    nonmembers = np.asarray(nonmember_scores, dtype=np.float64)
    return AttackOutcome(
        attack=attack,
        k=k,
        bandwidth_multiple=bandwidth_multiple,
        member_scores=members,
        nonmember_scores=nonmembers,
        auc=auc(members, nonmembers),
        tpr={fpr: tpr_at_fpr(members, nonmembers, fpr) for fpr in FPR_LEVELS},
        tpr_conservative={fpr: max_tpr_at_fpr(members, nonmembers, fpr) for fpr in FPR_LEVELS},
    )


def attack_release(
    members: FloatArray,
    nonmembers: FloatArray,
    reference: FloatArray,
    synthetic: FloatArray,
    *,
    attacks: Sequence[str],
    ks: Sequence[int] = (5,),
    bandwidth_multiples: Sequence[float] = (1.0,),
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[AttackOutcome, ...]:
    """Run ``attacks`` on one release and evaluate each.

    The targets are the members followed by the non-members. Gen-LRA runs
    once per bandwidth multiple with every ``k`` at once; the other KDE
    attacks (:data:`KDE_RIVALS`) once per bandwidth multiple; every other
    attack once, with ``options[key]``. The outcomes come in the order of
    ``attacks``, a KDE attack's by bandwidth multiple, then (Gen-LRA) ``k``.
    """
    unknown = [key for key in attacks if key not in ATTACKS]
    if unknown:
        raise ValueError(f"unknown attack(s) {unknown}; choose from {', '.join(ATTACKS)}")
    targets = np.vstack([members, nonmembers])
    split = members.shape[0]
    options = options or {}
    outcomes: list[AttackOutcome] = []
    for key in attacks:
        if key == GEN_LRA:
            for multiple in bandwidth_multiples:
                columns = gen_lra_scores(
                    targets, reference, synthetic, k=list(ks), bw_method=SilvermanMultiple(multiple)
                )
                outcomes.extend(
                    evaluate_scores(
                        key,
                        columns[:split, j],
                        columns[split:, j],
                        k=int(count),
                        bandwidth_multiple=float(multiple),
                    )
                    for j, count in enumerate(ks)
                )
        elif key in KDE_RIVALS:
            for multiple in bandwidth_multiples:
                scores = ATTACKS[key](
                    targets, reference, synthetic, bw_method=SilvermanMultiple(multiple)
                )
                outcomes.append(
                    evaluate_scores(
                        key, scores[:split], scores[split:], bandwidth_multiple=float(multiple)
                    )
                )
        else:
            scores = ATTACKS[key](targets, reference, synthetic, **options.get(key, {}))
            outcomes.append(evaluate_scores(key, scores[:split], scores[split:]))
    return tuple(outcomes)


def find_outcome(
    outcomes: Iterable[AttackOutcome],
    attack: str,
    *,
    k: int | None = None,
    bandwidth_multiple: float | None = None,
) -> AttackOutcome:
    """The outcome of ``attack`` with exactly this ``k`` and ``bandwidth_multiple``.

    Gen-LRA's outcomes carry both, those of :data:`KDE_RIVALS` a bandwidth
    multiple only, the others neither (``None``).
    """
    for outcome in outcomes:
        if (outcome.attack, outcome.k, outcome.bandwidth_multiple) == (
            attack,
            k,
            bandwidth_multiple,
        ):
            return outcome
    raise KeyError(
        f"no outcome for attack {attack!r} with k={k}, bandwidth multiple {bandwidth_multiple}"
    )


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Every attack on one memorizing release: one (ε, ρ, seed) of the simulation."""

    epsilon: float
    """The overfitting strength ε."""
    rho: float
    """The memorization scale ρ."""
    seed: int
    """The seed of the split and the release."""
    split: SimulationSplit
    """Members, non-members and reference."""
    release: Release
    """The synthetic records, with which of them copy which member."""
    outcomes: tuple[AttackOutcome, ...]
    """One outcome per rival, and one per (bandwidth multiple, k) for Gen-LRA."""

    @property
    def dimensions(self) -> int:
        """The number of coordinates of the records."""
        return self.split.population.dimensions

    def outcome(
        self, attack: str, *, k: int | None = None, bandwidth_multiple: float | None = None
    ) -> AttackOutcome:
        """The outcome of ``attack`` with this ``k`` and bandwidth multiple."""
        return find_outcome(self.outcomes, attack, k=k, bandwidth_multiple=bandwidth_multiple)


def population_of(dims: int) -> Population:
    """The simulation's population in ``dims`` dimensions: the 2-D picture one, or the d-D one."""
    return two_d_population() if dims == 2 else high_d_population(dims)


def run_simulation(
    epsilon: float,
    rho: float,
    *,
    seed: int,
    ks: Sequence[int] = SIMULATION_KS,
    bandwidth_factors: Sequence[float] = BANDWIDTH_MULTIPLES,
    dims: int = 2,
    attacks: Sequence[str] | None = None,
    members: int = 200,
    nonmembers: int = 200,
    reference: int = 400,
    synthetic: int = 400,
) -> SimulationResult:
    """Every attack on the memorizing release with strength ``epsilon`` and scale ``rho``.

    Parameters
    ----------
    epsilon, rho
        The generator's overfitting strength and memorization scale.
    seed
        Draws the split and the release (the same ``seed`` gives the same
        members for every ``epsilon`` and ``rho``).
    ks
        Gen-LRA's numbers of neighbours.
    bandwidth_factors
        Gen-LRA's bandwidths as multiples of Silverman's factor
        (:class:`SilvermanMultiple`).
    dims
        2 for the population of the pictures, 4 or more for
        :func:`~compute.synthetic.high_d_population`.
    attacks
        Keys of :data:`compute.attacks.ATTACKS` to run, all by default.
    members, nonmembers, reference, synthetic
        Sizes of the split and of the release.
    """
    split = simulation_split(
        population_of(dims),
        members=members,
        nonmembers=nonmembers,
        reference=reference,
        synthetic=synthetic,
        seed=seed,
    )
    release = split.release(epsilon=epsilon, rho=rho)
    outcomes = attack_release(
        split.members,
        split.nonmembers,
        split.reference,
        release.records,
        attacks=tuple(ATTACKS) if attacks is None else tuple(attacks),
        ks=ks,
        bandwidth_multiples=bandwidth_factors,
        options=rival_options(seed),
    )
    return SimulationResult(float(epsilon), float(rho), seed, split, release, outcomes)


def run_simulation_grid(
    epsilons: Sequence[float] = SIMULATION_EPSILONS,
    rhos: Sequence[float] = SIMULATION_RHOS,
    seeds: Sequence[int] = SIMULATION_SEEDS,
    *,
    n_jobs: int = 1,
    **options: Any,
) -> tuple[SimulationResult, ...]:
    """:func:`run_simulation` for every (ε, ρ, seed), in that nested order.

    At ε = 0 no record is a copy, so with common random numbers the release,
    and every score, is the same for every ρ: it is computed once per seed
    (at the first ρ) and reused with ``rho`` relabelled (tested). ``n_jobs``
    draws run in parallel worker processes (joblib); ``options`` go to
    :func:`run_simulation`.
    """
    from joblib import Parallel, delayed

    unique = sorted(
        {
            (float(e), float(rhos[0]) if e == 0 else float(r), s)
            for e in epsilons
            for r in rhos
            for s in seeds
        },
        key=lambda point: (point[2], point[0], point[1]),
    )
    computed = Parallel(n_jobs=n_jobs)(
        delayed(run_simulation)(epsilon, rho, seed=seed, **options) for epsilon, rho, seed in unique
    )
    by_point = dict(zip(unique, computed, strict=True))
    results = []
    for epsilon in epsilons:
        for rho in rhos:
            for seed in seeds:
                if epsilon == 0:
                    results.append(relabel_rho(by_point[(0.0, float(rhos[0]), seed)], rho))
                else:
                    results.append(by_point[(float(epsilon), float(rho), seed)])
    return tuple(results)


def relabel_rho(result: SimulationResult, rho: float) -> SimulationResult:
    """A result at ε = 0 as the draw at memorization scale ``rho`` (the same scores).

    At ε = 0 no record is a copy, and with common random numbers the release
    is the same for every ρ (tested), so a draw made at one ρ serves every
    other: only the label and the release's recorded noise scale change.
    """
    if result.epsilon != 0:
        raise ValueError(f"only a result at epsilon = 0 can serve every rho, got {result.epsilon}")
    release = result.split.release(epsilon=0.0, rho=rho)
    return replace(result, rho=float(rho), release=release)


@dataclass(frozen=True)
class SeedSummary:
    """One number measured on several seeds: its mean and spread."""

    mean: float
    """The mean over the seeds."""
    sd: float
    """The sample standard deviation over the seeds (0 for a single seed)."""
    low: float
    """The smallest value."""
    high: float
    """The largest value."""
    values: tuple[float, ...]
    """Every seed's value, in the order given."""


def seed_summary(values: Iterable[float]) -> SeedSummary:
    """Mean, sample standard deviation, smallest and largest of ``values``."""
    array = np.asarray(list(values), dtype=np.float64)
    if array.size == 0:
        raise ValueError("seed_summary needs at least one value")
    sd = float(array.std(ddof=1)) if array.size > 1 else 0.0
    return SeedSummary(
        float(array.mean()), sd, float(array.min()), float(array.max()), tuple(array.tolist())
    )


VariantKey = tuple[str, int | None, float | None]
"""An attack variant: (attack, k, bandwidth multiple)."""


def summarize_metric(
    results: Iterable[SimulationResult], metric: str | float = "auc"
) -> dict[tuple[float, float, VariantKey], SeedSummary]:
    """The seed summary of ``metric`` (``"auc"`` or an FPR) per (ε, ρ, attack variant).

    Keys follow the order of first appearance in ``results``.
    """
    values: dict[tuple[float, float, VariantKey], list[float]] = {}
    for result in results:
        for outcome in result.outcomes:
            key = (
                result.epsilon,
                result.rho,
                (outcome.attack, outcome.k, outcome.bandwidth_multiple),
            )
            values.setdefault(key, []).append(outcome.metric(metric))
    return {key: seed_summary(seen) for key, seen in values.items()}


@dataclass(frozen=True)
class LineFit:
    """A least-squares straight line ``y ≈ slope · x + intercept``."""

    slope: float
    """The fitted slope."""
    intercept: float
    """The fitted intercept."""
    r_squared: float
    """``1 − SS_res / SS_tot``; 1 when every ``y`` is equal and fitted exactly."""
    x: tuple[float, ...]
    """The abscissae fitted."""
    y: tuple[float, ...]
    """The ordinates fitted."""


def fit_line(x: npt.ArrayLike, y: npt.ArrayLike) -> LineFit:
    """The ordinary least-squares line through ``(x_i, y_i)`` (at least two distinct ``x``)."""
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1 or np.unique(xs).size < 2:
        raise ValueError(
            "fit_line needs two 1-D arrays of equal length with two distinct x or more"
        )
    centred = xs - xs.mean()
    slope = float((centred * (ys - ys.mean())).sum() / (centred**2).sum())
    intercept = float(ys.mean() - slope * xs.mean())
    residual = float(((ys - (slope * xs + intercept)) ** 2).sum())
    total = float(((ys - ys.mean()) ** 2).sum())
    r_squared = 1.0 - residual / total if total > 0 else 1.0
    return LineFit(slope, intercept, r_squared, tuple(xs.tolist()), tuple(ys.tolist()))


def score_gap_lines(
    results: Iterable[SimulationResult], attack: str = GEN_LRA
) -> dict[tuple[float, VariantKey], LineFit]:
    """The member − non-member mean score gap against ε, fitted by a line per (ρ, variant).

    For each ρ and each variant of ``attack`` (``k`` and bandwidth multiple
    for Gen-LRA), the gap is averaged over the seeds at each ε, and a line is
    fitted through those means (:func:`fit_line`): with equally many seeds
    per ε this is the same line as through every seed's gap, while the R²
    measures how straight the mean trend is, not the seed noise.
    """
    gaps: dict[tuple[float, VariantKey], dict[float, list[float]]] = {}
    for result in results:
        for outcome in result.outcomes:
            if outcome.attack != attack:
                continue
            key = (result.rho, (outcome.attack, outcome.k, outcome.bandwidth_multiple))
            gaps.setdefault(key, {}).setdefault(result.epsilon, []).append(outcome.score_gap)
    lines = {}
    for key, by_epsilon in gaps.items():
        epsilons = sorted(by_epsilon)
        lines[key] = fit_line(epsilons, [float(np.mean(by_epsilon[e])) for e in epsilons])
    return lines


def first_place_shares(runs: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The share of runs in which each attack ranks first, from each run's values by attack.

    Each element of ``runs`` maps an attack to its value in one run (one
    setting and seed), higher being better: the attacks with the highest value
    share that run's point equally (a tie of three gives each a third), so the
    shares sum to 1. Attacks come in the order of first appearance; one never
    first gets 0. Runs without values are skipped.

    >>> first_place_shares([{"a": 0.7, "b": 0.6}, {"a": 0.5, "b": 0.5}])
    {'a': 0.75, 'b': 0.25}
    """
    points: dict[str, float] = {}
    counted = 0
    for values in runs:
        for attack in values:
            points.setdefault(attack, 0.0)
        if not values:
            continue
        best = max(values.values())
        winners = [attack for attack, value in values.items() if value == best]
        for attack in winners:
            points[attack] += 1.0 / len(winners)
        counted += 1
    if counted == 0:
        raise ValueError("first_place_shares needs at least one run with values")
    return {attack: total / counted for attack, total in points.items()}


def rank_first_shares(
    outcome_sets: Iterable[Iterable[AttackOutcome]], metric: str | float = "auc"
) -> dict[str, float]:
    """The share of runs in which each attack ranks first by ``metric``.

    Each element of ``outcome_sets`` is one run (one setting and seed); the
    shares are those of :func:`first_place_shares` (ties split evenly).
    Attacks with several variants in a run (Gen-LRA's ``k`` and bandwidth, a
    KDE rival's bandwidth) must be narrowed to one variant each beforehand;
    two outcomes of one attack in a run are an error.
    """
    runs = []
    for outcomes in outcome_sets:
        values: dict[str, float] = {}
        for outcome in outcomes:
            if outcome.attack in values:
                raise ValueError(
                    f"attack {outcome.attack!r} appears twice in one run; keep one variant of it"
                )
            values[outcome.attack] = outcome.metric(metric)
        runs.append(values)
    if not any(runs):
        raise ValueError("rank_first_shares needs at least one run with outcomes")
    return first_place_shares(runs)


def synthetic_neighbours(release: Release, targets: npt.ArrayLike, k: int) -> npt.NDArray[np.intp]:
    """Rows of the ``k`` synthetic records nearest to each target, as Gen-LRA picks them.

    Euclidean distance, equal distances by lower row (the rule of
    :func:`compute.attacks.gen_lra_scores`): the points a picture should
    highlight around a chosen target.
    """
    rows = np.atleast_2d(np.asarray(targets, dtype=np.float64))
    _, indices = nearest(release.records, rows, k)
    return indices


def most_copied_member(release: Release) -> int:
    """The member row with the most copies in the release (lowest row on ties; 0 if none)."""
    if not release.copied.any():
        return 0
    return int(np.bincount(release.source[release.copied]).argmax())


def _timed_simulation(epsilon: float, rho: float, seed: int) -> tuple[SimulationResult, float]:
    """:func:`run_simulation` and the CPU seconds it took in its process."""
    import time

    started = time.process_time()
    result = run_simulation(epsilon, rho, seed=seed)
    return result, time.process_time() - started


def _time_simulation() -> None:
    """Print the CPU cost of each attack per draw and the cost of the whole grid."""
    import time

    from joblib import Parallel, delayed

    draws = [
        run_simulation(epsilon, rho, seed=seed, attacks=())
        for seed in SIMULATION_SEEDS
        for epsilon, rho in ((0.4, 0.2), (0.1, 0.0), (0.2, 1.0))
    ]
    print(f"CPU seconds per (ε, ρ, seed) draw, mean of {len(draws)} draws:")
    total = 0.0
    for key in ATTACKS:
        started = time.process_time()
        for draw in draws:
            attack_release(
                draw.split.members,
                draw.split.nonmembers,
                draw.split.reference,
                draw.release.records,
                attacks=(key,),
                ks=SIMULATION_KS,
                bandwidth_multiples=BANDWIDTH_MULTIPLES,
                options=rival_options(draw.seed),
            )
        cost = (time.process_time() - started) / len(draws)
        total += cost
        print(f"  {key:12s} {cost:6.3f}")
    print(f"  {'all':12s} {total:6.3f}")
    points = sorted(
        {
            (e, SIMULATION_RHOS[0] if e == 0 else r, s)
            for e in SIMULATION_EPSILONS
            for r in SIMULATION_RHOS
            for s in SIMULATION_SEEDS
        }
    )
    started = time.perf_counter()
    timed = Parallel(n_jobs=2)(delayed(_timed_simulation)(*point) for point in points)
    cpu = sum(seconds for _, seconds in timed)
    print(
        f"whole grid: {len(points)} distinct draws, {cpu:.1f} s CPU in the workers, "
        f"{time.perf_counter() - started:.1f} s wall with 2 jobs"
    )


if __name__ == "__main__":
    # Run the imported module's copy, so that worker processes can unpickle its functions.
    importlib.import_module(__spec__.name)._time_simulation()
