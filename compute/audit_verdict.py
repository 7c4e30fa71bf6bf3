"""The audit's verdict: is there a leak, at a false-alarm rate that holds over all attacks?

:func:`leak_verdict` takes every attack result's scores of the members and the
non-members and returns a :class:`LeakTest`: the verdict of a label-permutation
test (:func:`compute.attacks.label_permutation_test`), each result's own and
max-T adjusted p-value, and the empirical ε lower bound
(:func:`compute.attacks.epsilon_lower_bound`). :func:`compute.audit.run_audit`
calls it once the attacks have run; :mod:`compute.audit_calibration` calls it
on simulated releases to measure its error rates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .attacks import EpsilonLowerBound, epsilon_lower_bound, label_permutation_test
from .attacks.stats import MIN_PERMUTATIONS
from .audit_data import AuditInputError, FloatArray

CONFIDENCE = 0.95
"""Confidence of the ε lower bound."""
ALPHA = 0.05
"""Default false-alarm rate of the verdict, over all attacks together."""
PERMUTATIONS = 1000
"""Default number of label permutations behind the verdict."""
PERMUTATION_STREAM = 1
"""Second entry of the seed tuple that draws the label permutations."""
SPLIT_STREAM = 2
"""Second entry of the seed tuple that splits the targets for the ε lower bound."""


@dataclass(frozen=True)
class Verdict:
    """Whether the audit found a leak, at a false-alarm rate that holds over all attacks."""

    leak_detected: bool
    """Whether :attr:`p_value` is at most :attr:`alpha`."""
    alpha: float
    """The largest acceptable chance of reporting a leak when members and non-members are
    exchangeable (drawn the same way, the release treating them alike)."""
    p_value: float
    """The family-wise p-value: the best attack's AUC against the best under permuted labels."""
    method: str
    """How :attr:`p_value` was found: ``"permutation"``."""
    permutations: int
    """Number of label permutations."""


@dataclass(frozen=True)
class EpsilonBound:
    """The release is at least as bad as an ε-DP mechanism with ε ≥ :attr:`value`."""

    value: float
    """The lower bound (0 when the attacks show nothing)."""
    confidence: float
    """Probability that the bound holds (if membership was assigned at random)."""
    attack: str
    """The result (:attr:`AttackResult.key`) whose threshold gives the bound."""
    details: EpsilonLowerBound
    """The threshold, the event and the counts behind the bound."""


@dataclass(frozen=True)
class LeakTest:
    """The verdict, the per-attack p-values and the ε lower bound of one audit."""

    verdict: Verdict
    """The verdict over all attacks."""
    p_values: Mapping[str, float]
    """Each result's own permutation p-value, by key."""
    p_values_adjusted: Mapping[str, float]
    """Each result's max-T adjusted p-value, by key."""
    epsilon_bound: EpsilonBound
    """The empirical ε lower bound."""


def check_verdict_options(alpha: float, permutations: int) -> None:
    """Raise :class:`AuditInputError` unless ``alpha`` and ``permutations`` are usable."""
    if not 0.0 < alpha < 1.0:
        raise AuditInputError(
            f"alpha must be strictly between 0 and 1, got {alpha!r}", fix="pass --alpha 0.05"
        )
    if permutations < MIN_PERMUTATIONS:
        raise AuditInputError(
            f"permutations must be at least {MIN_PERMUTATIONS}, got {permutations}",
            fix="pass --permutations 1000",
        )


def leak_verdict(
    member_scores: Mapping[str, FloatArray],
    nonmember_scores: Mapping[str, FloatArray],
    *,
    alpha: float = ALPHA,
    permutations: int = PERMUTATIONS,
    seed: int = 0,
) -> LeakTest:
    """Decide "leak detected" over all attacks at once, at false-alarm rate ``alpha``.

    The test is :func:`compute.attacks.label_permutation_test` on every
    result's scores: its null hypothesis is that members and non-members are
    exchangeable given the release, which holds when both were drawn the same
    way and the generator never saw either (a release that leaks nothing). A
    leak is reported when the family-wise p-value (the best attack's AUC
    against the best AUC under permuted labels) is at most ``alpha``, so the
    chance of a false alarm is at most ``alpha`` however many attacks ran.
    The ε lower bound is :func:`compute.attacks.epsilon_lower_bound` over the
    same results (attack and threshold chosen on half the targets).

    Parameters
    ----------
    member_scores, nonmember_scores
        Each result's scores by key, the same keys in the same order.
    alpha
        The false-alarm rate, strictly between 0 and 1.
    permutations
        Label permutations (at least 100).
    seed
        The audit's seed; the permutations use the stream
        ``(seed, PERMUTATION_STREAM)`` and the ε split ``(seed, SPLIT_STREAM)``.
    """
    check_verdict_options(alpha, permutations)
    keys = list(member_scores)
    members = np.vstack([member_scores[key] for key in keys])
    nonmembers = np.vstack([nonmember_scores[key] for key in keys])
    tested = label_permutation_test(
        members, nonmembers, permutations=permutations, seed=(seed, PERMUTATION_STREAM)
    )
    bound = epsilon_lower_bound(
        members, nonmembers, confidence=CONFIDENCE, seed=(seed, SPLIT_STREAM)
    )
    return LeakTest(
        verdict=Verdict(
            leak_detected=tested.family_p_value <= alpha,
            alpha=alpha,
            p_value=tested.family_p_value,
            method="permutation",
            permutations=permutations,
        ),
        p_values=dict(zip(keys, tested.p_values.tolist(), strict=True)),
        p_values_adjusted=dict(zip(keys, tested.p_values_adjusted.tolist(), strict=True)),
        epsilon_bound=EpsilonBound(bound.value, bound.confidence, keys[bound.attack], bound),
    )
