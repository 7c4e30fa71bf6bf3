"""compute.attack_evidence: the release-size simulation, paired verdicts, private generators.

Every number is checked against an independent computation: the copying model's closed form
written out here, scikit-learn's AUC and ROC, SciPy's paired t-test, Holm's step-down rule from
its definition.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score, roc_curve

from privacy_explorer.compute.attack_evidence import (
    ROC_FPRS,
    SIMULATION_MEMBERS,
    RivalComparison,
    compare_with_rivals,
    ks_for,
    pooled_dp_evidence,
    region_excess,
    run_generator_seeds,
    run_size_draw,
    settle,
)
from privacy_explorer.compute.attacks import epsilon_lower_bound
from privacy_explorer.compute.dp_bounds import tpr_bound
from privacy_explorer.compute.generators import BAYES_NET_SETTINGS
from privacy_explorer.compute.synthetic import simulation_split, two_d_population


def test_k_is_run_only_where_the_release_holds_four_records_per_neighbour() -> None:
    assert ks_for(200) == (1, 5, 20)
    assert ks_for(800) == (1, 5, 20, 200)
    assert ks_for(3200) == (1, 5, 20, 200)
    assert ks_for(19, (1, 5, 20)) == (1,)


@pytest.mark.parametrize(("multiple", "ks"), [(1, (1, 5, 20)), (4, (1, 5, 20, 200))])
def test_a_size_draw_records_the_coverage_of_the_release_it_attacked(
    multiple: int, ks: tuple[int, ...]
) -> None:
    draw = run_size_draw(0.4, 0.0, multiple, 3, attacks=("gen_lra", "dcr"))
    size = multiple * SIMULATION_MEMBERS
    split = simulation_split(
        two_d_population(), members=200, nonmembers=200, reference=400, synthetic=size, seed=3
    )
    release = split.release(epsilon=0.4, rho=0.0)
    copied = np.zeros(200, dtype=bool)
    copied[release.source[release.source >= 0]] = True
    assert draw.coverage == copied.mean()
    assert draw.auc_ceiling == 0.5 + 0.5 * copied.mean()
    assert draw.expected_coverage == pytest.approx(1 - (1 - 0.4 / 200) ** size, rel=1e-12)
    assert sorted({o.k or 0 for o in draw.outcomes if o.attack == "gen_lra"}) == list(ks)
    dcr = next(o for o in draw.outcomes if o.attack == "dcr")
    labels = np.r_[np.ones(200), np.zeros(200)]
    scores = np.r_[dcr.member_scores, dcr.nonmember_scores]
    assert dcr.auc == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    # Exact copies: distance reaches about the ceiling, and nothing passes it by more than noise.
    assert draw.auc_ceiling - 0.05 < dcr.auc < draw.auc_ceiling + 0.05
    with pytest.raises(ValueError, match="multiple must be at least 1"):
        run_size_draw(0.4, 0.0, 0, 3)


def seeded(mean: float, common: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return common + mean + rng.normal(0, 0.005, common.size)


def comparison(subject_shift: float, rival_shifts: dict[str, float], seed: int) -> RivalComparison:
    rng = np.random.default_rng(seed)
    common = rng.normal(0.7, 0.04, 20)  # what a seed does to every attack
    rivals = {name: seeded(shift, common, rng) for name, shift in rival_shifts.items()}
    return compare_with_rivals(seeded(subject_shift, common, rng), rivals)


def test_compare_with_rivals_is_scipys_paired_t_test_for_each_rival() -> None:
    rng = np.random.default_rng(2)
    subject = rng.normal(0.7, 0.05, 20)
    rivals = {"dcr": subject - 0.01 + rng.normal(0, 0.01, 20), "mc": rng.normal(0.72, 0.05, 20)}
    found = compare_with_rivals(subject, rivals, bootstrap=200)
    for name, values in rivals.items():
        test = stats.ttest_rel(subject, values)
        assert found.comparisons[name].p_value == pytest.approx(test.pvalue, rel=1e-10)
        low, high = test.confidence_interval(0.95)
        assert found.comparisons[name].interval == pytest.approx((low, high), rel=1e-10)
        assert found.rival_means[name] == pytest.approx(values.mean())
        assert found.comparisons[name].bootstrap_interval is not None
    assert found.strongest == max(rivals, key=lambda name: rivals[name].mean())
    assert found.subject_mean == pytest.approx(subject.mean())


def test_settle_corrects_every_comparison_of_the_study_together() -> None:
    settings = [
        comparison(0.05, {"dcr": 0.0, "mc": 0.01}, 1),  # above both: leads
        comparison(0.0, {"dcr": 0.05, "mc": 0.0}, 2),  # DCR above: trails
        comparison(0.0, {"dcr": 0.0, "mc": 0.0}, 3),  # nothing: inside
        comparison(0.05, {"dcr": 0.0, "mc": 0.05}, 4),  # above one, level with the other
    ]
    found = settle(settings)
    assert [s.verdict for s in found] == ["leads", "trails", "inside", "inside"]
    raw = np.array([c.p_value for s in settings for c in s.comparisons.values()])
    order = np.argsort(raw)
    holm = np.empty_like(raw)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (raw.size - rank) * raw[index]))
        holm[index] = running
    adjusted = np.array([p for s in found for p in s.adjusted.values()])
    np.testing.assert_allclose(adjusted, holm, rtol=1e-12)
    # The same comparisons in a larger family need stronger evidence: BH is never stricter.
    by_bh = settle(settings, method="bh")
    assert all(
        bh <= h + 1e-15
        for s, b in zip(found, by_bh, strict=True)
        for h, bh in zip(s.adjusted.values(), b.adjusted.values(), strict=True)
    )
    with pytest.raises(ValueError, match="at least one setting"):
        settle([])


def test_a_private_generators_evidence_pools_every_seed() -> None:
    setting = next(s for s in BAYES_NET_SETTINGS if s.private and s.parameter == 1.0)
    results = run_generator_seeds(setting, "housing", seeds=(1, 2))
    evidence = pooled_dp_evidence(results)
    assert [e.attack for e in evidence][:2] == ["gen_lra", "dcr"]
    for item in evidence:
        outcomes = [result.outcome(item.attack) for result in results]
        runs = [(o.member_scores, o.nonmember_scores) for o in outcomes]
        curves = []
        for members, nonmembers in runs:
            labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
            fpr, tpr, _ = roc_curve(labels, np.r_[members, nonmembers])
            curves.append(
                [
                    tpr[fpr == rate].max() if (fpr == rate).any() else np.interp(rate, fpr, tpr)
                    for rate in ROC_FPRS
                ]
            )
        np.testing.assert_allclose(item.tpr, np.mean(curves, axis=0), atol=1e-12)
        pooled = epsilon_lower_bound(
            np.concatenate([m for m, _ in runs]), np.concatenate([n for _, n in runs])
        )
        assert item.bound.value == pooled.value
    # Replacing one record costs 2ε: no attack's mean ROC leaves that region by more than noise.
    assert max(region_excess(item.tpr, 2.0) for item in evidence) < 0.1


def test_region_excess_is_the_distance_outside_the_dp_region() -> None:
    rates = np.asarray(ROC_FPRS)
    assert region_excess(tpr_bound(rates, 1.0), 1.0) == pytest.approx(0.0, abs=1e-15)
    assert region_excess(rates, 1.0) == 0  # the diagonal is inside, touching at the corners

    def edges(f: float, e: float) -> tuple[float, float]:
        upper = min(math.exp(e) * f, 1 - math.exp(-e) * (1 - f))
        return max(math.exp(-e) * f, 1 - math.exp(e) * (1 - f)), upper

    above = np.minimum(1.0, rates + 0.3)
    assert region_excess(above, 0.1) == pytest.approx(
        max(
            max(t - edges(f, 0.1)[1], edges(f, 0.1)[0] - t)
            for f, t in zip(rates, above, strict=True)
        )
    )
    below = np.maximum(0.0, rates - 0.3)
    assert region_excess(below, 0.1) == pytest.approx(
        max(
            max(t - edges(f, 0.1)[1], edges(f, 0.1)[0] - t)
            for f, t in zip(rates, below, strict=True)
        )
    )
    assert region_excess(below, 0.1) > 0.2
    with pytest.raises(ValueError, match="one value per FPR"):
        region_excess([0.5], 1.0)
