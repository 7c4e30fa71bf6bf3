"""Lesson 05's experiment runners: the simulation grid, its summaries, and the real generators."""

from __future__ import annotations

from typing import Any, TypedDict

import numpy as np
import pytest
from scipy.stats import gaussian_kde, linregress
from sklearn.metrics import roc_auc_score

from privacy_explorer.compute.attacks import ATTACKS, dcr_scores, gen_lra_scores
from privacy_explorer.compute.audit_experiments import (
    FPR_LEVELS,
    GEN_LRA,
    KDE_RIVALS,
    AttackOutcome,
    SilvermanMultiple,
    evaluate_scores,
    first_place_shares,
    fit_line,
    most_copied_member,
    rank_first_shares,
    relabel_rho,
    run_simulation,
    run_simulation_grid,
    score_gap_lines,
    seed_summary,
    silverman_factor,
    summarize_metric,
    synthetic_neighbours,
)
from privacy_explorer.compute.datasets import load_housing
from privacy_explorer.compute.generator_audit import (
    HOUSING_PART,
    MEMBER_COUNT,
    NONMEMBER_COUNT,
    REFERENCE_COUNT,
    concrete_split,
    housing_split,
    real_split,
    run_generator_setting,
)
from privacy_explorer.compute.generators import BAYES_NET_SETTINGS, Standardizer, setting_by_key
from privacy_explorer.compute.synthetic import simulation_split, two_d_population


class Sizes(TypedDict):
    """How many records each part of a simulated split holds."""

    members: int
    nonmembers: int
    reference: int
    synthetic: int


class SimulationOptions(Sizes, total=False):
    """Keyword arguments of run_simulation (and run_simulation_grid) that the tests vary."""

    ks: tuple[int, ...]
    bandwidth_factors: tuple[float, ...]
    attacks: tuple[str, ...]


SMALL: Sizes = {"members": 40, "nonmembers": 40, "reference": 60, "synthetic": 80}
"""Split sizes small enough for a quick test."""


def test_silverman_factor_is_scipys() -> None:
    data = np.random.default_rng(0).standard_normal((2, 57))
    assert silverman_factor(57, 2) == pytest.approx(
        gaussian_kde(data).silverman_factor(), rel=1e-14
    )


def test_multiple_one_is_silvermans_rule_exactly() -> None:
    split = simulation_split(two_d_population(), seed=3, **SMALL)
    synthetic = split.release(epsilon=0.4, rho=0.1).records
    targets = np.vstack([split.members, split.nonmembers])
    rule = gen_lra_scores(targets, split.reference, synthetic, k=[1, 5], bw_method="silverman")
    multiple = gen_lra_scores(
        targets, split.reference, synthetic, k=[1, 5], bw_method=SilvermanMultiple(1.0)
    )
    np.testing.assert_array_equal(rule, multiple)


def test_a_multiple_follows_n_to_n_plus_one_like_scipys_refit() -> None:
    """Brute force with SciPy: m × Silverman for R, m × Silverman at n + 1 for R ∪ {x*}."""
    split = simulation_split(two_d_population(), seed=4, **SMALL)
    synthetic = split.release(epsilon=0.4, rho=0.1).records
    reference, m, k = split.reference, 0.25, 5
    n, d = reference.shape
    scores = gen_lra_scores(
        split.members[:6], reference, synthetic, k=k, bw_method=SilvermanMultiple(m)
    )
    base = gaussian_kde(reference.T, bw_method=m * silverman_factor(n, d))
    for target, score in zip(split.members[:6], scores, strict=True):
        nearest = np.argsort(((synthetic - target) ** 2).sum(axis=1), kind="stable")[:k]
        grown = np.vstack([reference, target])
        refit = gaussian_kde(grown.T, bw_method=m * silverman_factor(n + 1, d))
        expected = (refit.logpdf(synthetic[nearest].T) - base.logpdf(synthetic[nearest].T)).sum()
        assert score == pytest.approx(expected, rel=1e-8, abs=1e-10)


def test_bandwidth_multiple_must_be_positive() -> None:
    with pytest.raises(ValueError, match="must be a number > 0"):
        SilvermanMultiple(0.0)


def test_evaluation_matches_sklearn() -> None:
    rng = np.random.default_rng(5)
    members, nonmembers = rng.normal(0.5, 1, 70), rng.normal(0, 1, 90)
    outcome = evaluate_scores("dcr", members, nonmembers)
    labels = np.r_[np.ones(70), np.zeros(90)]
    assert outcome.auc == pytest.approx(roc_auc_score(labels, np.r_[members, nonmembers]))
    assert tuple(outcome.tpr) == FPR_LEVELS
    assert all(outcome.tpr_conservative[f] <= outcome.tpr[f] + 1e-12 for f in FPR_LEVELS)
    assert outcome.score_gap == pytest.approx(members.mean() - nonmembers.mean())
    assert outcome.metric("auc") == outcome.auc
    assert outcome.metric(0.01) == outcome.tpr[0.01]
    with pytest.raises(ValueError, match="metric must be 'auc' or one of the FPRs"):
        outcome.metric(0.05)


@pytest.fixture(scope="module")
def small_result():
    return run_simulation(0.4, 0.1, seed=1, ks=(1, 5, 20), bandwidth_factors=(0.25, 1.0), **SMALL)


def test_a_simulation_runs_every_attack_and_every_variant(small_result) -> None:
    counts = {key: sum(o.attack == key for o in small_result.outcomes) for key in ATTACKS}
    for key, count in counts.items():
        expected = 3 * 2 if key == GEN_LRA else 2 if key in KDE_RIVALS else 1
        assert count == expected, key
    gen_lra = small_result.outcome(GEN_LRA, k=5, bandwidth_multiple=0.25)
    assert gen_lra.member_scores.shape == (40,)
    assert gen_lra.nonmember_scores.shape == (40,)
    assert small_result.outcome("domias", bandwidth_multiple=1.0).k is None
    with pytest.raises(KeyError, match="k=50"):
        small_result.outcome(GEN_LRA, k=50, bandwidth_multiple=0.25)


def test_simulation_scores_are_the_attacks_own(small_result) -> None:
    split, release = small_result.split, small_result.release
    targets = np.vstack([split.members, split.nonmembers])
    expected = gen_lra_scores(
        targets, split.reference, release.records, k=20, bw_method=SilvermanMultiple(0.25)
    )
    outcome = small_result.outcome(GEN_LRA, k=20, bandwidth_multiple=0.25)
    np.testing.assert_array_equal(np.r_[outcome.member_scores, outcome.nonmember_scores], expected)
    dcr = small_result.outcome("dcr")
    np.testing.assert_array_equal(
        np.r_[dcr.member_scores, dcr.nonmember_scores],
        dcr_scores(targets, split.reference, release.records),
    )


def test_simulation_is_deterministic_per_seed(small_result) -> None:
    again = run_simulation(0.4, 0.1, seed=1, ks=(1, 5, 20), bandwidth_factors=(0.25, 1.0), **SMALL)
    for first, second in zip(small_result.outcomes, again.outcomes, strict=True):
        np.testing.assert_array_equal(first.member_scores, second.member_scores)
        assert first.auc == second.auc


def test_exact_copies_are_found_by_distance() -> None:
    result = run_simulation(0.4, 0.0, seed=2, attacks=("dcr",))
    assert result.outcome("dcr").auc > 0.7
    assert result.outcome("dcr").tpr[0.0] > 0.3


def test_the_grid_reuses_epsilon_zero_across_rho() -> None:
    options: SimulationOptions = {
        "ks": (5,),
        "bandwidth_factors": (0.5,),
        "attacks": (GEN_LRA, "dcr"),
        **SMALL,
    }
    grid = run_simulation_grid((0.0, 0.2), (0.1, 0.4), (1, 2), **options)
    assert [(r.epsilon, r.rho, r.seed) for r in grid] == [
        (e, r, s) for e in (0.0, 0.2) for r in (0.1, 0.4) for s in (1, 2)
    ]
    direct = run_simulation(0.0, 0.4, seed=2, **options)
    reused = grid[3]
    assert (reused.epsilon, reused.rho, reused.seed) == (0.0, 0.4, 2)
    assert reused.release.rho == 0.4
    np.testing.assert_array_equal(reused.release.records, direct.release.records)
    for first, second in zip(reused.outcomes, direct.outcomes, strict=True):
        np.testing.assert_array_equal(first.member_scores, second.member_scores)


def test_fit_line_matches_scipy() -> None:
    x = np.array([0.0, 0.05, 0.1, 0.2, 0.4])
    y = np.array([0.01, 0.2, 0.33, 0.8, 1.5])
    line = fit_line(x, y)
    reference = linregress(x, y)
    assert line.slope == pytest.approx(reference.slope)
    assert line.intercept == pytest.approx(reference.intercept)
    assert line.r_squared == pytest.approx(reference.rvalue**2)
    exact = fit_line(x, 3 * x - 1)
    assert (exact.slope, exact.intercept, exact.r_squared) == pytest.approx((3.0, -1.0, 1.0))
    assert fit_line(x, np.full(5, 2.0)).r_squared == 1.0
    with pytest.raises(ValueError, match="two distinct x"):
        fit_line([1.0, 1.0], [0.0, 1.0])


def test_score_gap_lines_fit_the_seed_means() -> None:
    options: SimulationOptions = {
        "ks": (5,),
        "bandwidth_factors": (0.25,),
        "attacks": (GEN_LRA,),
        **SMALL,
    }
    grid = run_simulation_grid((0.0, 0.2, 0.4), (0.1,), (1, 2), **options)
    lines = score_gap_lines(grid)
    assert list(lines) == [(0.1, (GEN_LRA, 5, 0.25))]
    line = lines[(0.1, (GEN_LRA, 5, 0.25))]
    assert line.x == (0.0, 0.2, 0.4)
    for epsilon, fitted_y in zip(line.x, line.y, strict=True):
        gaps = [
            r.outcome(GEN_LRA, k=5, bandwidth_multiple=0.25).score_gap
            for r in grid
            if r.epsilon == epsilon
        ]
        assert fitted_y == pytest.approx(np.mean(gaps))
    summary = summarize_metric(grid)[(0.4, 0.1, (GEN_LRA, 5, 0.25))]
    aucs = [r.outcomes[0].auc for r in grid if r.epsilon == 0.4]
    assert summary.mean == pytest.approx(np.mean(aucs))
    assert summary.sd == pytest.approx(np.std(aucs, ddof=1))


def test_seed_summary() -> None:
    summary = seed_summary([0.5, 0.7, 0.6])
    assert (summary.mean, summary.low, summary.high) == pytest.approx((0.6, 0.5, 0.7))
    assert summary.sd == pytest.approx(0.1)
    assert seed_summary([0.4]).sd == 0.0


def outcome(attack: str, auc: float) -> AttackOutcome:
    return AttackOutcome(attack, None, None, np.zeros(1), np.zeros(1), auc)


def test_rank_first_shares_split_ties_evenly() -> None:
    runs = [
        [outcome("gen_lra", 0.7), outcome("dcr", 0.6), outcome("domias", 0.5)],
        [outcome("gen_lra", 0.6), outcome("dcr", 0.6), outcome("domias", 0.5)],
        [outcome("gen_lra", 0.5), outcome("dcr", 0.5), outcome("domias", 0.5)],
    ]
    shares = rank_first_shares(runs)
    assert shares == pytest.approx(
        {"gen_lra": (1 + 1 / 2 + 1 / 3) / 3, "dcr": (1 / 2 + 1 / 3) / 3, "domias": 1 / 9}
    )
    assert sum(shares.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="appears twice"):
        rank_first_shares([[outcome("dcr", 0.5), outcome("dcr", 0.6)]])


def test_neighbours_for_the_picture() -> None:
    split = simulation_split(two_d_population(), seed=6, **SMALL)
    release = split.release(epsilon=0.4, rho=0.0)
    target = most_copied_member(release)
    assert (release.source == target).sum() == np.bincount(release.source[release.copied]).max()
    rows = synthetic_neighbours(release, split.members[target], 3)[0]
    brute = np.argsort(((release.records - split.members[target]) ** 2).sum(axis=1), kind="stable")[
        :3
    ]
    np.testing.assert_array_equal(rows, brute)
    # With exact copies, the nearest synthetic records of the member are its copies.
    assert release.source[rows[0]] == target
    assert most_copied_member(split.release(epsilon=0.0, rho=0.1)) == 0


def test_concrete_splits_are_disjoint_deduplicated_and_seeded() -> None:
    split = concrete_split(1)
    sizes = {name: len(rows) for name, rows in split.rows.items()}
    assert sizes == {
        "members": MEMBER_COUNT,
        "nonmembers": NONMEMBER_COUNT,
        "reference": REFERENCE_COUNT,
        "test": 992 - MEMBER_COUNT - NONMEMBER_COUNT - REFERENCE_COUNT,
    }
    every_row = [row for rows in split.rows.values() for row in rows]
    assert sorted(every_row) == list(range(992))
    table = np.vstack([split.members, split.nonmembers, split.reference, split.test])
    inputs = {tuple(row[:8]) for row in table}
    assert len(inputs) == 992  # no two rows share their eight inputs
    assert split.columns[-1] == "compressive_strength"
    assert concrete_split(1).rows == split.rows
    assert concrete_split(2).rows["members"] != split.rows["members"]


def test_a_generator_setting_is_attacked_on_reference_standardized_tables() -> None:
    setting = setting_by_key("kde-0.05")
    result = run_generator_setting(setting, 1, attacks=(GEN_LRA, "dcr"))
    again = run_generator_setting(setting, 1, attacks=(GEN_LRA, "dcr"))
    np.testing.assert_array_equal(result.synthetic, again.synthetic)
    assert result.synthetic.shape == (MEMBER_COUNT, 9)
    split = concrete_split(1)
    mean, scale = split.reference.mean(axis=0), split.reference.std(axis=0)
    targets = (np.vstack([split.members, split.nonmembers]) - mean) / scale
    expected = dcr_scores(
        targets, (split.reference - mean) / scale, (result.synthetic - mean) / scale
    )
    dcr = result.outcome("dcr")
    np.testing.assert_allclose(np.r_[dcr.member_scores, dcr.nonmember_scores], expected, rtol=1e-12)
    assert result.outcome(GEN_LRA).k == 5
    # Near-copies: distance finds them, and they are nearly as useful as the members.
    assert dcr.auc > 0.7
    assert 0.5 < result.utility_r2 <= result.baseline_r2 + 0.05
    assert result.baseline_r2 > 0.7


def test_housing_splits_pool_the_600_real_rows_into_four_disjoint_parts() -> None:
    split = housing_split(3)
    assert {name: len(rows) for name, rows in split.rows.items()} == dict.fromkeys(
        ("members", "nonmembers", "reference", "test"), HOUSING_PART
    )
    release = load_housing()
    real = np.vstack(
        [t.to_numpy() for t in (release.members, release.nonmembers, release.reference)]
    )
    table = np.vstack([split.members, split.nonmembers, split.reference, split.test])
    assert sorted(map(tuple, table)) == sorted(map(tuple, real))
    assert split.columns[-1] == "median_house_value"
    assert real_split("housing", 3) is split
    assert housing_split(4).rows["members"] != split.rows["members"]
    with pytest.raises(
        ValueError, match="unknown data set 'iris'; choose one of concrete, housing"
    ):
        real_split("iris", 1)


def test_a_private_generator_is_standardized_with_the_reference_not_the_members() -> None:
    setting = next(s for s in BAYES_NET_SETTINGS if s.private)
    result = run_generator_setting(setting, 2, data="housing", attacks=("dcr",))
    split = housing_split(2)
    public = Standardizer.fit(split.reference)
    # Every released value decodes from the public bins: in the public units it lies in the
    # private domain's interval, which the members' own units would not give.
    units = public.forward(result.synthetic)
    assert units.min() >= -4.0 - 1e-9 and units.max() <= 4.0 + 1e-9
    assert result.data == "housing" and result.synthetic.shape == (HOUSING_PART, 9)
    assert result.utility_r2 < result.baseline_r2  # at ε = 0.1 the release is noise


def test_independent_marginals_carry_little_utility() -> None:
    result = run_generator_setting(setting_by_key("marginals"), 1, attacks=("dcr",))
    assert result.utility_r2 < 0.2


def test_the_higher_dimensional_simulation_runs() -> None:
    result = run_simulation(
        0.4,
        0.0,
        seed=1,
        dims=8,
        ks=(5,),
        bandwidth_factors=(1.0,),
        attacks=(GEN_LRA, "dcr"),
        **SMALL,
    )
    assert result.dimensions == 8
    assert result.release.records.shape == (80, 8)
    assert result.outcome("dcr").auc > 0.6


def test_first_place_shares_from_plain_values() -> None:
    shares = first_place_shares(
        [{"gen_lra": 0.7, "dcr": 0.6}, {"gen_lra": 0.6, "dcr": 0.6}, {}, {"dcr": 0.1}]
    )
    assert shares == pytest.approx({"gen_lra": (1 + 1 / 2) / 3, "dcr": (1 / 2 + 1) / 3})
    with pytest.raises(ValueError, match="at least one run"):
        first_place_shares([{}])


def test_relabel_rho_serves_every_rho_at_epsilon_zero() -> None:
    options: dict[str, Any] = {
        "ks": (5,),
        "bandwidth_factors": (0.5,),
        "attacks": (GEN_LRA,),
        **SMALL,
    }
    first = run_simulation(0.0, 0.1, seed=2, **options)
    fresh = run_simulation(0.0, 0.7, seed=2, **options)
    relabelled = relabel_rho(first, 0.7)
    assert relabelled.rho == 0.7
    np.testing.assert_array_equal(relabelled.release.records, fresh.release.records)
    assert relabelled.release.noise_scale == fresh.release.noise_scale
    assert relabelled.outcomes[0].auc == fresh.outcomes[0].auc
    with pytest.raises(ValueError, match="epsilon = 0"):
        relabel_rho(run_simulation(0.2, 0.1, seed=2, **options), 0.7)
