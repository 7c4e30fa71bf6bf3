"""How often the audit's verdict is right, measured on simulated releases.

A release that leaks nothing should be called a leak at most a share ``α`` of
the time; one that copies its members should be caught. :func:`simulated_verdict`
draws members, non-members and a reference sample from a known population
(:mod:`compute.synthetic`), a release from a generator that copies a share
``epsilon`` of its records from the members (``epsilon = 0``: every record a
fresh draw from the population, never a member), runs the chosen attacks and
returns :func:`compute.audit_verdict.leak_verdict`'s verdict. The tests and ``make
bench`` count these verdicts over many seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .attacks import ATTACKS
from .audit_verdict import ALPHA, PERMUTATIONS, Verdict, leak_verdict
from .synthetic import simulation_split, two_d_population

FAST_ATTACKS = ("dcr", "dcr_diff", "density")
"""Attacks that take milliseconds on a few hundred records (no Gen-LRA refits, no training)."""


def simulated_verdict(
    rows: int,
    *,
    epsilon: float,
    rho: float = 0.0,
    seed: int,
    attacks: Sequence[str] = FAST_ATTACKS,
    alpha: float = ALPHA,
    permutations: int = PERMUTATIONS,
) -> Verdict:
    """The verdict on one simulated release of the two-dimensional population.

    Parameters
    ----------
    rows
        Records in each of the four tables (members, non-members, reference,
        synthetic).
    epsilon
        Share of synthetic records copied from a member (0: a release that
        leaks nothing).
    rho
        Noise added to a copy, in units of the population's spread (0: exact copies).
    seed
        Seed of the split, the release and the verdict's permutations.
    attacks
        Keys of :data:`compute.attacks.ATTACKS` (Gen-LRA runs with ``k = 5``).
    alpha, permutations
        As for :func:`compute.audit_verdict.leak_verdict`.
    """
    split = simulation_split(
        two_d_population(),
        members=rows,
        nonmembers=rows,
        reference=rows,
        synthetic=rows,
        seed=seed,
    )
    release = split.release(epsilon=epsilon, rho=rho)
    targets = np.vstack([split.members, split.nonmembers])
    member_scores, nonmember_scores = {}, {}
    for attack in attacks:
        options = {"k": 5} if attack == "gen_lra" else {}
        if attack in ("classifier", "logan"):
            options["random_state"] = seed
        scores = np.asarray(
            ATTACKS[attack](targets, split.reference, release.records, **options), dtype=float
        ).reshape(-1)
        member_scores[attack], nonmember_scores[attack] = scores[:rows], scores[rows:]
    test = leak_verdict(
        member_scores, nonmember_scores, alpha=alpha, permutations=permutations, seed=seed
    )
    return test.verdict
