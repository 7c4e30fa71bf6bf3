r"""What an audit can measure: experiments that can tell attacks apart, and verdicts on them.

Lesson 06 asks of every comparison between attacks whether the experiment
could have shown a difference at all, and whether the difference it shows is
larger than the noise. The pieces:

The release-size simulation (:func:`run_size_draw`)
    The memorizing generator of :mod:`compute.synthetic` on the 2-D
    population: 200 members, 200 non-members, a reference sample of 400, and
    a release of ``multiple × 200`` records (:data:`SIZE_MULTIPLES`). Each
    release records which members it copied, so each draw comes with its
    *coverage* ``P`` (the share of members copied at least once), the AUC
    ceiling ``½ + ½·P`` of :func:`compute.attacks.stats.auc_ceiling`, and the
    copying model's closed form ``1 − (1 − ε/m)^|S|``
    (:func:`compute.synthetic.copy_probability`). Gen-LRA runs at every ``k``
    the release is large enough for (:func:`ks_for`: ``|S| ≥ 4k``, so the
    authors' default ``k = 200`` needs 800 records) and every bandwidth
    multiple, all ``k`` at once from one pass (cumulative sums over the
    neighbours); the KDE rivals at every bandwidth; the others once.
    The split depends on the seed only, so every (ε, ρ, size) of a seed has the
    same members.
Gen-LRA against every rival (:func:`compare_with_rivals`, :func:`settle`)
    The design is paired: in each seed every attack scores the same release
    and the same targets. So for one setting and one Gen-LRA variant, the
    per-seed difference of AUCs (Gen-LRA − rival) is compared for each rival
    (:func:`compute.attacks.stats.paired_comparison`: mean, t interval, sign
    count). :func:`settle` adjusts the p-values of every (setting, rival)
    comparison in a study together (Holm by default) and calls a setting
    "leads" when Gen-LRA is above *every* rival beyond the noise, "trails"
    when some rival is above Gen-LRA beyond it, and "inside" otherwise.
    Because every comparison of the family is corrected together, each
    of these verdicts holds at the stated level at once.
Real and private generators (:func:`run_generator_seeds`, :func:`pooled_dp_evidence`)
    Every setting on a real data set for several seeds
    (:func:`compute.generator_audit.run_generator_setting`), and for a private
    one the evidence that no attack passes the ε-DP region: each attack's
    ROC averaged over the seeds (:func:`~compute.attacks.stats.vertical_average_roc`)
    and the empirical ε lower bound from every seed's targets pooled
    (:func:`~compute.attacks.stats.epsilon_lower_bound`). Pooling is sound:
    a threshold's rates pooled over releases of equal group sizes are the
    means of its rates on each, and a bound linear in them holds for the mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from .attacks import ATTACKS
from .attacks.stats import (
    EpsilonLowerBound,
    PairedComparison,
    coverage_ceiling,
    epsilon_lower_bound,
    paired_comparison,
    paired_verdicts,
    vertical_average_roc,
)
from .audit_experiments import GEN_LRA, AttackOutcome, run_simulation
from .generator_audit import GeneratorResult, run_generator_setting
from .generators import GeneratorSetting
from .synthetic import copy_probability

FloatArray = npt.NDArray[np.float64]

SIMULATION_MEMBERS = 200
"""Members (and non-members) of every simulated split; the release is a multiple of this."""
SIMULATION_REFERENCE = 400
"""The auditor's reference sample in the simulation."""
SIZE_MULTIPLES: tuple[int, ...] = (1, 4, 16)
"""Release sizes as multiples of the member count: 200, 800 and 3,200 records."""
EVIDENCE_SEEDS: tuple[int, ...] = tuple(range(1, 21))
"""Seeds of every simulated setting (20)."""
EVIDENCE_KS: tuple[int, ...] = (1, 5, 20, 200)
"""Gen-LRA's numbers of neighbours; 200 is the authors' default."""
EVIDENCE_BANDWIDTHS: tuple[float, ...] = (0.25, 1.0)
"""Bandwidth multiples of Silverman's factor for Gen-LRA and the KDE rivals."""
RECORDS_PER_NEIGHBOUR = 4
"""Gen-LRA runs at ``k`` only when the release holds at least this many records per neighbour,
so that its ``k`` neighbours stay local (``k = 200`` needs 800 records)."""
GENERATOR_EVIDENCE_SEEDS: tuple[int, ...] = tuple(range(1, 11))
"""Seeds of every real-generator setting (10)."""
ROC_FPRS: tuple[float, ...] = tuple(float(f) for f in np.round(np.linspace(0.0, 1.0, 51), 2))
"""The false-positive rates at which averaged ROC curves are read."""
ALPHA = 0.05
"""The level every verdict is held to, after the correction."""

ATTACK_KEYS: tuple[str, ...] = tuple(ATTACKS)
"""Every attack, Gen-LRA first (the registry's order)."""
RIVALS: tuple[str, ...] = tuple(key for key in ATTACK_KEYS if key != GEN_LRA)
"""The eight rivals."""

SettingVerdict = Literal["leads", "trails", "inside"]
"""What a setting says of Gen-LRA against its rivals (see :func:`settle`)."""


def ks_for(size: int, ks: Sequence[int] = EVIDENCE_KS) -> tuple[int, ...]:
    """The ``k`` of ``ks`` that a release of ``size`` records is large enough for.

    >>> ks_for(200), ks_for(800)
    ((1, 5, 20), (1, 5, 20, 200))
    """
    return tuple(k for k in ks if RECORDS_PER_NEIGHBOUR * k <= size)


@dataclass(frozen=True, eq=False)
class SizeDraw:
    """Every attack on one simulated release of a given size, with its coverage ceiling."""

    epsilon: float
    """The overfitting strength ε."""
    rho: float
    """The memorization scale ρ."""
    multiple: int
    """The release size as a multiple of the members."""
    seed: int
    """The seed of the split and the release."""
    coverage: float
    """The share of members the release copied at least once (``P``)."""
    expected_coverage: float
    """The copying model's closed form for ``P``: ``1 − (1 − ε/m)^|S|``."""
    outcomes: tuple[AttackOutcome, ...]
    """One outcome per rival (per bandwidth for the KDE rivals), one per (bandwidth, k) for
    Gen-LRA."""

    @property
    def auc_ceiling(self) -> float:
        """``½ + ½·P`` of this release."""
        return 0.5 + 0.5 * self.coverage


def run_size_draw(
    epsilon: float,
    rho: float,
    multiple: int,
    seed: int,
    *,
    ks: Sequence[int] = EVIDENCE_KS,
    bandwidths: Sequence[float] = EVIDENCE_BANDWIDTHS,
    attacks: Sequence[str] | None = None,
) -> SizeDraw:
    """Every attack on the release of ``multiple × 200`` records at (ε, ρ) for ``seed``."""
    if multiple < 1:
        raise ValueError(f"the release size multiple must be at least 1, got {multiple}")
    size = multiple * SIMULATION_MEMBERS
    usable = ks_for(size, ks)
    if not usable:
        raise ValueError(f"no k of {tuple(ks)} fits a release of {size} records")
    result = run_simulation(
        epsilon,
        rho,
        seed=seed,
        ks=usable,
        bandwidth_factors=bandwidths,
        attacks=attacks,
        members=SIMULATION_MEMBERS,
        nonmembers=SIMULATION_MEMBERS,
        reference=SIMULATION_REFERENCE,
        synthetic=size,
    )
    ceiling = coverage_ceiling(result.release.members_copied(SIMULATION_MEMBERS))
    expected = copy_probability(epsilon=epsilon, size=size, members=SIMULATION_MEMBERS)
    return SizeDraw(
        float(epsilon),
        float(rho),
        int(multiple),
        int(seed),
        ceiling.coverage,
        expected,
        result.outcomes,
    )


# --- Gen-LRA against every rival ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RivalComparison:
    """One Gen-LRA variant against every rival at one setting, over the same seeds."""

    subject_mean: float
    """Gen-LRA's mean over the seeds."""
    rival_means: dict[str, float]
    """Each rival's mean, in the order given."""
    strongest: str
    """The rival with the highest mean (the first of them on a tie)."""
    comparisons: dict[str, PairedComparison]
    """Gen-LRA − rival, seed by seed, for each rival."""


def compare_with_rivals(
    subject: npt.ArrayLike, rivals: Mapping[str, npt.ArrayLike], *, bootstrap: int = 0
) -> RivalComparison:
    """Gen-LRA's values (one per seed) against each rival's on the same seeds.

    ``bootstrap`` paired bootstrap replicates are drawn for each comparison
    (0: the t interval only).
    """
    if not rivals:
        raise ValueError("compare_with_rivals needs at least one rival")
    values = np.asarray(subject, dtype=np.float64)
    comparisons = {
        name: paired_comparison(values, other, bootstrap=bootstrap, seed=index)
        for index, (name, other) in enumerate(rivals.items())
    }
    means = {
        name: float(np.mean(np.asarray(other, dtype=np.float64))) for name, other in rivals.items()
    }
    strongest = max(means, key=lambda name: (means[name], -list(means).index(name)))
    return RivalComparison(float(values.mean()), means, strongest, comparisons)


@dataclass(frozen=True, eq=False)
class Settled:
    """The verdict of one setting, after every comparison of the study was corrected together."""

    verdict: SettingVerdict
    """``"leads"``: above every rival beyond the noise; ``"trails"``: some rival above it beyond
    the noise; ``"inside"``: neither."""
    adjusted: dict[str, float]
    """Each rival's adjusted p-value."""


def settle(
    settings: Sequence[RivalComparison], *, alpha: float = ALPHA, method: str = "holm"
) -> tuple[Settled, ...]:
    """The verdict of every setting, the comparisons of all of them corrected as one family.

    The family is every (setting, rival) comparison given; ``method`` is
    ``"holm"`` (family-wise error at most ``alpha``) or ``"bh"`` (false
    discovery rate at most ``alpha``), see
    :func:`compute.attacks.stats.paired_verdicts`.
    """
    flat = [
        (index, name, c) for index, s in enumerate(settings) for name, c in s.comparisons.items()
    ]
    if not flat:
        raise ValueError("settle needs at least one setting")
    judged = paired_verdicts([c for _, _, c in flat], alpha=alpha, method=method)
    by_setting: list[dict[str, str]] = [{} for _ in settings]
    adjusted: list[dict[str, float]] = [{} for _ in settings]
    for (index, name, _), judgement, p in zip(flat, judged.verdicts, judged.adjusted, strict=True):
        by_setting[index][name] = judgement
        adjusted[index][name] = float(p)
    settled = []
    for by_rival, p_values in zip(by_setting, adjusted, strict=True):
        verdict: SettingVerdict = "inside"
        if all(v == "higher" for v in by_rival.values()):
            verdict = "leads"
        elif any(v == "lower" for v in by_rival.values()):
            verdict = "trails"
        settled.append(Settled(verdict, p_values))
    return tuple(settled)


# --- Real and private generators --------------------------------------------------------------


def run_generator_seeds(
    setting: GeneratorSetting,
    data: str,
    seeds: Sequence[int] = GENERATOR_EVIDENCE_SEEDS,
) -> tuple[GeneratorResult, ...]:
    """Every attack and the utility of ``setting`` on ``data``, once per seed."""
    return tuple(run_generator_setting(setting, seed, data=data) for seed in seeds)


@dataclass(frozen=True, eq=False)
class DpEvidence:
    """One attack on a private generator, over every seed: its mean ROC and its ε lower bound."""

    attack: str
    """The attack's key."""
    tpr: FloatArray
    """The mean TPR at each FPR of :data:`ROC_FPRS`."""
    bound: EpsilonLowerBound
    """The empirical ε lower bound from every seed's targets pooled."""


def pooled_dp_evidence(
    results: Sequence[GeneratorResult], *, confidence: float = 0.95, seed: int = 0
) -> tuple[DpEvidence, ...]:
    """Each attack's mean ROC over ``results`` and its ε lower bound from their pooled targets.

    Every result must have as many members as non-members, the same in each,
    so that pooled rates are the means of each release's rates (see the
    module docstring). The attacks come in the order of the first result's
    outcomes; Gen-LRA and the KDE rivals are taken at the variant
    :meth:`~compute.generator_audit.GeneratorResult.outcome` reads.
    """
    if not results:
        raise ValueError("pooled_dp_evidence needs at least one result")
    sizes = {(o.member_scores.size, o.nonmember_scores.size) for r in results for o in r.outcomes}
    if len(sizes) != 1 or len({size for pair in sizes for size in pair}) != 1:
        raise ValueError(
            f"every release must have equally many members and non-members, got {sorted(sizes)}"
        )
    attacks = list(dict.fromkeys(o.attack for o in results[0].outcomes))
    evidence = []
    for attack in attacks:
        runs = [
            (r.outcome(attack).member_scores, r.outcome(attack).nonmember_scores) for r in results
        ]
        members = np.concatenate([m for m, _ in runs])
        nonmembers = np.concatenate([n for _, n in runs])
        evidence.append(
            DpEvidence(
                attack,
                vertical_average_roc(runs, ROC_FPRS),
                epsilon_lower_bound(members, nonmembers, confidence=confidence, seed=seed),
            )
        )
    return tuple(evidence)


def region_excess(tpr: npt.ArrayLike, epsilon: float) -> float:
    """How far a ROC read at :data:`ROC_FPRS` leaves the ε-DP region (≤ 0: inside).

    The region is ``max(e^−ε·FPR, 1 − e^ε·(1 − FPR)) ≤ TPR ≤ min(e^ε·FPR,
    1 − e^−ε·(1 − FPR))`` (:func:`compute.dp_bounds.tpr_bound` and its mirror: a
    test whose answers are swapped must obey the bound too); the result is the
    largest distance, in TPR, above the upper edge or below the lower one.
    """
    from .dp_bounds import tpr_bound

    rates = np.asarray(ROC_FPRS)
    values = np.asarray(tpr, dtype=np.float64)
    if values.shape != rates.shape:
        raise ValueError(f"tpr must have one value per FPR of ROC_FPRS ({rates.size})")
    upper = tpr_bound(rates, epsilon)
    lower = 1.0 - tpr_bound(1.0 - rates, epsilon)
    return float(np.max(np.maximum(values - upper, lower - values)))
