"""The coverage ceiling: the closed form against simulation, and an attack that reaches it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from privacy_explorer.compute.attacks import (
    auc,
    auc_ceiling,
    ceiling_clears_chance,
    copy_coverage,
    coverage_ceiling,
    dcr_scores,
    max_tpr_at_fpr,
    paired_comparison,
    tpr_ceiling,
)
from privacy_explorer.compute.synthetic import (
    copy_probability,
    expected_copies,
    memorizing_release,
    poisson_copy_probability,
    simulation_split,
    two_d_population,
)

POPULATION = two_d_population()
# (ε, release size, members): lesson 05's release at two strengths, a small one, and 4× as large.
SETTINGS = [(0.05, 400, 200), (0.4, 400, 200), (0.3, 100, 50), (0.4, 1600, 200)]


@pytest.mark.parametrize(("epsilon", "size", "members"), SETTINGS)
def test_the_closed_form_matches_a_monte_carlo_of_the_copying_model(
    epsilon: float, size: int, members: int
) -> None:
    rng = np.random.default_rng((17, size, members))
    training = POPULATION.sample(members, rng)
    draws = 400
    copied = 0
    for _ in range(draws):
        release = memorizing_release(
            training, POPULATION, epsilon=epsilon, rho=0.0, size=size, rng=rng
        )
        copied += int(release.members_copied(members).sum())
    exact = copy_probability(epsilon=epsilon, size=size, members=members)
    # Members of one release are copied or not with a slight negative dependence (the
    # records are shared among them), so the binomial test over all draws × members is
    # conservative. Level 0.001, Bonferroni over the settings.
    test = stats.binomtest(copied, draws * members, exact)
    assert test.pvalue > 1e-3 / len(SETTINGS)
    # The Poisson closed form: 1 − e^{−λ} with λ = size·ε/m, below the exact value by at
    # most λ·q/(1 − q), q = ε/m.
    rate = size * epsilon / members
    assert expected_copies(epsilon=epsilon, size=size, members=members) == pytest.approx(rate)
    poisson = poisson_copy_probability(epsilon=epsilon, size=size, members=members)
    assert poisson == pytest.approx(1 - math.exp(-rate), rel=1e-14)
    assert exact == pytest.approx(1 - (1 - epsilon / members) ** size, rel=1e-12)
    q = epsilon / members
    assert 0 <= exact - poisson <= rate * q / (1 - q)


def test_the_monte_carlo_check_can_fail() -> None:
    # The same check rejects the closed form at a wrong λ (the release size mistaken for 90 %).
    rng = np.random.default_rng(2)
    training = POPULATION.sample(200, rng)
    copied = sum(
        int(
            memorizing_release(training, POPULATION, epsilon=0.4, rho=0.0, size=400, rng=rng)
            .members_copied(200)
            .sum()
        )
        for _ in range(400)
    )
    wrong = copy_probability(epsilon=0.4, size=360, members=200)
    assert stats.binomtest(copied, 400 * 200, wrong).pvalue < 1e-3


def test_noisy_copies_count_as_copies_and_exact_matching_finds_exact_ones() -> None:
    training = POPULATION.sample(100, np.random.default_rng(1))
    exact = memorizing_release(
        training, POPULATION, epsilon=0.3, rho=0.0, size=200, rng=np.random.default_rng(4)
    )
    noisy = memorizing_release(
        training, POPULATION, epsilon=0.3, rho=0.2, size=200, rng=np.random.default_rng(4)
    )
    # Common random numbers: the same members are the sources whatever ρ is.
    np.testing.assert_array_equal(exact.members_copied(100), noisy.members_copied(100))
    by_matching = copy_coverage(training, exact.records)
    np.testing.assert_array_equal(by_matching.copied, exact.members_copied(100))
    assert copy_coverage(training, noisy.records).coverage == 0.0  # noise moves every copy
    # A tolerance is in the units of the tables, per coordinate.
    # (Chebyshev: the largest coordinate difference, here 0.5, decides.)
    shifted = training[:3] + np.array([0.25, -0.5])
    assert copy_coverage(training, shifted, tolerance=0.5 + 1e-9).copied[:3].all()
    assert not copy_coverage(training, shifted, tolerance=0.5 - 1e-9).copied[:3].any()


def mirrored_case() -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Members, non-members and a release where no attack can beat the ceiling, and DCR meets it.

    Four of ten members are copied exactly into the release. The six others and the six
    non-members are mirror images across the release's line (y ↦ −y), so each uncopied
    member is exactly as far from every released record as one non-member.
    """
    copied = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0], [30.0, 0.0]])
    offsets = np.array([1.0, 2.0, 3.5, 5.0, 8.0, 13.0])
    uncopied = np.column_stack([100.0 + 10.0 * np.arange(6), offsets])
    nonmembers = uncopied * np.array([1.0, -1.0])
    members = np.vstack([copied, uncopied])
    release = np.vstack([copied, [[30.0, 0.0]]])  # one member copied twice
    return members, nonmembers, release, 4 / 10


def test_a_perfect_on_copied_attack_reaches_the_ceiling_exactly() -> None:
    members, nonmembers, release, share = mirrored_case()
    ceiling = copy_coverage(members, release)
    assert ceiling.coverage == share
    scores = dcr_scores(np.vstack([members, nonmembers]), nonmembers, release)
    member_scores, nonmember_scores = scores[: len(members)], scores[len(members) :]
    assert auc(member_scores, nonmember_scores) == pytest.approx(ceiling.auc_ceiling, abs=1e-15)
    assert ceiling.auc_ceiling == pytest.approx(0.5 + 0.5 * share, abs=1e-15)
    for false_positives in range(len(nonmembers) + 1):
        fpr = false_positives / len(nonmembers)
        reached = max_tpr_at_fpr(member_scores, nonmember_scores, fpr)
        assert reached == pytest.approx(ceiling.tpr_ceiling(fpr), abs=1e-15)


def test_dcr_on_exact_copies_sits_at_the_ceiling_on_average() -> None:
    # At ρ = 0, DCR ranks every copied member first; the rest is chance. Over 30 seeds the
    # paired differences AUC − ceiling (each seed's own release) have mean 0 within a
    # 99.9 % t interval.
    population = two_d_population()
    aucs, ceilings = [], []
    for seed in range(30):
        split = simulation_split(population, seed=seed)
        release = split.release(epsilon=0.4, rho=0.0)
        targets = np.vstack([split.members, split.nonmembers])
        scores = dcr_scores(targets, split.reference, release.records)
        members = len(split.members)
        aucs.append(auc(scores[:members], scores[members:]))
        ceilings.append(coverage_ceiling(release.members_copied(members)).auc_ceiling)
    comparison = paired_comparison(aucs, ceilings, confidence=0.999)
    assert comparison.interval[0] < 0 < comparison.interval[1]
    expected = auc_ceiling(copy_probability(epsilon=0.4, size=400, members=200))
    assert np.mean(ceilings) == pytest.approx(expected, abs=0.01)


def test_the_tpr_ceiling_integrates_to_the_auc_ceiling() -> None:
    for share in (0.0, 0.1, 0.55, 1.0):
        area, _ = integrate.quad(lambda fpr, p=share: tpr_ceiling(p, fpr), 0.0, 1.0)
        assert area == pytest.approx(auc_ceiling(share), abs=1e-12)
        assert tpr_ceiling(share, 0.0) == share and tpr_ceiling(share, 1.0) == 1.0


def test_whether_the_ceiling_clears_the_chance_band() -> None:
    # Lesson 05's release (200 members, 200 non-members, 400 records): at ε = 0.05 the
    # ceiling is inside 0.5 ± 2σ₀, at ε = 0.4 far outside.
    sigma = math.sqrt((200 + 200 + 1) / (12 * 200 * 200))
    for epsilon in (0.05, 0.1, 0.2, 0.4):
        share = copy_probability(epsilon=epsilon, size=400, members=200)
        clears = ceiling_clears_chance(share, 200, 200)
        assert clears == (0.5 + 0.5 * share > 0.5 + 2 * sigma)
    assert not ceiling_clears_chance(
        copy_probability(epsilon=0.05, size=400, members=200), 200, 200
    )
    assert ceiling_clears_chance(copy_probability(epsilon=0.4, size=400, members=200), 200, 200)
    # A release 16 times as large lifts the ceiling at ε = 0.05 out of the band.
    assert ceiling_clears_chance(copy_probability(epsilon=0.05, size=6400, members=200), 200, 200)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="coverage"):
        auc_ceiling(1.5)
    with pytest.raises(ValueError, match="booleans"):
        coverage_ceiling(np.array([1, 0]))
    with pytest.raises(ValueError, match="tolerance"):
        copy_coverage(np.zeros((2, 2)), np.zeros((2, 2)), tolerance=-1.0)
    with pytest.raises(ValueError, match="same columns"):
        copy_coverage(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="epsilon"):
        copy_probability(epsilon=1.5, size=10, members=5)
