"""Lesson 05: what the page shows equals the library recomputed here, independently.

The library's own tests (``test_synthetic*.py``, ``test_attacks_*.py``) check the
attacks and the experiments against SciPy and scikit-learn. Here the lesson's
numbers are recomputed from scratch (the split, the release, the scores, the
metrics) with scikit-learn, SciPy and NumPy, at a few grid points, and the
whole-lesson summaries are checked on small results built by hand.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist
from sklearn.metrics import roc_auc_score, roc_curve

from privacy_explorer.compute.attacks import gen_lra_scores
from privacy_explorer.compute.audit_experiments import (
    SeedSummary,
    SilvermanMultiple,
    silverman_factor,
)
from privacy_explorer.compute.generator_audit import concrete_split, run_generator_setting
from privacy_explorer.compute.generators import GENERATOR_SETTINGS, setting_by_key
from privacy_explorer.compute.lessons import synthetic_audit as sa
from privacy_explorer.compute.synthetic import simulation_split, two_d_population
from privacy_explorer.lesson import chart_number
from privacy_explorer.runner import json_ready

POINTS: list[dict[str, Any]] = [
    {"epsilon": 0.4, "rho": 0.1, "k": 5, "bandwidth": 1.0},  # the default
    {"epsilon": 0.4, "rho": 0.0, "k": 20, "bandwidth": 0.25},  # exact copies
    {"epsilon": 0.0, "rho": 0.7, "k": 1, "bandwidth": 2.0},
]


# --- Independent references ---------------------------------------------------------------


def split_and_release(seed: int, epsilon: float, rho: float):
    split = simulation_split(two_d_population(), seed=seed)
    return split, split.release(epsilon=epsilon, rho=rho)


def sklearn_auc(members: np.ndarray, nonmembers: np.ndarray) -> float:
    labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
    return float(roc_auc_score(labels, np.r_[members, nonmembers]))


def float_mean(values: Any) -> float:
    """The mean as a Python float."""
    return float(np.mean(values))


def interpolated_tpr(members: np.ndarray, nonmembers: np.ndarray, fpr: float) -> float:
    """The Synth-MIA testbed's reading: np.interp on scikit-learn's ROC curve."""
    labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
    fprs, tprs, _ = roc_curve(labels, np.r_[members, nonmembers], drop_intermediate=False)
    return float(np.interp(fpr, fprs, tprs))


def scipy_gen_lra(targets, reference, synthetic, k: int, multiple: float) -> np.ndarray:
    """Gen-LRA refitting SciPy's KDE per target, neighbours by brute-force distance."""
    n, d = reference.shape
    base = stats.gaussian_kde(reference.T, bw_method=multiple * silverman_factor(n, d))
    scores = []
    for target in targets:
        grown = stats.gaussian_kde(
            np.vstack([reference, target]).T, bw_method=multiple * silverman_factor(n + 1, d)
        )
        distances = np.linalg.norm(synthetic - target, axis=1)
        near = synthetic[np.lexsort((np.arange(len(synthetic)), distances))[:k]].T
        scores.append((grown.logpdf(near) - base.logpdf(near)).sum())
    return np.array(scores)


def gen_lra_of(seed: int, epsilon: float, rho: float, k: int, bandwidth: float):
    split, release = split_and_release(seed, epsilon, rho)
    targets = np.vstack([split.members, split.nonmembers])
    scores = gen_lra_scores(
        targets, split.reference, release.records, k=k, bw_method=SilvermanMultiple(bandwidth)
    )
    half = split.members.shape[0]
    return scores[:half], scores[half:]


def dcr_of(seed: int, epsilon: float, rho: float):
    split, release = split_and_release(seed, epsilon, rho)
    closest = lambda rows: -cdist(rows, release.records).min(axis=1)  # noqa: E731
    return closest(split.members), closest(split.nonmembers)


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    return {sa.GRID.key(point): sa.compute(**point) for point in POINTS}


# --- The grid and the module ---------------------------------------------------------------


def test_the_grid_is_the_documented_one(results):
    assert sa.GRID.names == ("epsilon", "rho", "k", "bandwidth")
    assert sa.GRID.param("epsilon").values == (0.0, 0.05, 0.1, 0.2, 0.4)
    assert sa.GRID.param("rho").values == (0.0, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
    assert sa.GRID.param("k").values == (1, 5, 20, 50)
    assert sa.GRID.param("bandwidth").values == (0.1, 0.25, 0.5, 1.0, 2.0)
    assert len(sa.GRID) == 700
    assert sa.GRID.group_by == ("epsilon",)
    assert sa.GRID.default == POINTS[0]
    assert len(sa.STUDY) == (len(GENERATOR_SETTINGS) + len(sa.HIGH_D_RHOS) + 1) * 3
    assert set(sa.LAZY) <= set(results[sa.GRID.key(POINTS[0])]["datasets"])


def test_the_picture_split_is_the_simulations_own():
    draw = sa.simulation(0.4, 0.1, 1)
    np.testing.assert_array_equal(draw.split.members, sa.picture_split().members)
    np.testing.assert_array_equal(draw.split.reference, sa.picture_split().reference)
    counts = np.bincount(draw.release.source[draw.release.copied])
    assert counts[sa.picture_target()] == counts.max()


def test_every_result_is_finite_json_with_the_declared_readouts(results):
    names = {readout.name for readout in sa.READOUTS}
    for result in results.values():
        assert json_ready(result, "result") == result
        assert set(result["readouts"]) == names
    again = sa.compute(**POINTS[1])
    assert json.dumps(again, sort_keys=True) == json.dumps(
        results[sa.GRID.key(POINTS[1])], sort_keys=True
    )


# --- Every page number at a few points, recomputed --------------------------------------------


@pytest.mark.parametrize("point", POINTS, ids=lambda p: "-".join(map(str, p.values())))
def test_auc_and_tpr_readouts_are_sklearns_on_freshly_computed_scores(results, point):
    readouts = results[sa.GRID.key(point)]["readouts"]
    epsilon, rho, k, bandwidth = point.values()
    gen = [gen_lra_of(seed, epsilon, rho, k, bandwidth) for seed in sa.SEEDS]
    aucs = [sklearn_auc(m, n) for m, n in gen]
    assert readouts["gen_lra_auc"] == pytest.approx(np.mean(aucs), abs=1e-12)
    low, high = (float(end) for end in readouts["gen_lra_range"].split("–"))
    # the text rounds to 0.001; sklearn and the library may differ in the last bit
    assert low == pytest.approx(min(aucs), abs=5e-4 + 1e-9)
    assert high == pytest.approx(max(aucs), abs=5e-4 + 1e-9)
    tprs = [interpolated_tpr(m, n, 0.01) for m, n in gen]
    assert readouts["gen_lra_tpr"] == pytest.approx(np.mean(tprs), abs=1e-12)
    dcr = [dcr_of(seed, epsilon, rho) for seed in sa.SEEDS]
    assert readouts["dcr_auc"] == pytest.approx(
        np.mean([sklearn_auc(m, n) for m, n in dcr]), abs=1e-12
    )
    board = {row["attack"]: row for row in results[sa.GRID.key(point)]["datasets"]["board"]}
    assert board["gen_lra"]["tpr_at_0"] == chart_number(
        float_mean([interpolated_tpr(m, n, 0.0) for m, n in gen]), 4
    )
    assert board["gen_lra"]["tpr_at_0_001"] == chart_number(
        float_mean([interpolated_tpr(m, n, 0.001) for m, n in gen]), 4
    )
    assert board["gen_lra"]["auc"] == chart_number(float_mean(aucs), 4)
    assert board["gen_lra"]["auc_low"] == chart_number(min(aucs), 4)
    assert board["dcr"]["tpr_at_0_01"] == chart_number(
        float_mean([interpolated_tpr(m, n, 0.01) for m, n in dcr]), 4
    )
    best = max(board, key=lambda a: board[a]["auc"])
    assert readouts["best_auc"] == pytest.approx(board[best]["auc"], abs=1e-4)
    rivals = {a: row["auc"] for a, row in board.items() if a != "gen_lra"}
    rival = max(rivals, key=lambda name: rivals[name])
    assert readouts["rival_attack"] == sa.SHORT_NAMES[rival]
    assert readouts["gen_lra_lead"] == pytest.approx(np.mean(aucs) - rivals[rival], abs=1e-4)


def test_gen_lra_at_a_point_equals_scipy_refits():
    """The scores behind the default point, for a few targets, against SciPy refits."""
    split, release = split_and_release(1, 0.4, 0.1)
    targets = np.vstack([split.members[:5], split.nonmembers[:5]])
    expected = scipy_gen_lra(targets, split.reference, release.records, k=5, multiple=1.0)
    draw = sa.simulation(0.4, 0.1, 1)
    outcome = draw.outcome("gen_lra", k=5, bandwidth_multiple=1.0)
    got = np.r_[outcome.member_scores[:5], outcome.nonmember_scores[:5]]
    np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-10)


def test_the_score_gap_line_is_scipys_linregress_of_the_seed_means(results):
    _, rho, k, bandwidth = POINTS[0].values()
    along = {}
    means = []
    for epsilon in sa.EPSILONS:
        point: dict[str, Any] = {"epsilon": epsilon, "rho": rho, "k": k, "bandwidth": bandwidth}
        key = sa.GRID.key(point)
        along[key] = results[key] if key in results else sa.compute(**point)
        gaps = [
            m.mean() - n.mean()
            for m, n in (gen_lra_of(s, epsilon, rho, k, bandwidth) for s in sa.SEEDS)
        ]
        assert along[sa.GRID.key(point)]["datasets"]["score_gap"][0]["gap"] == pytest.approx(
            np.mean(gaps), rel=1e-9, abs=1e-15
        )
        means.append(np.mean(gaps))
    fit = stats.linregress(sa.EPSILONS, means)
    every = {sa.GRID.key(p): along.get(sa.GRID.key(p), UNUSED) for p in sa.GRID}
    (row,) = [
        r for r in sa.gap_rows(every) if (r["rho"], r["k"], r["bandwidth"]) == (rho, k, bandwidth)
    ]
    assert row["slope"] == chart_number(fit.slope, 3)
    assert row["r2"] == chart_number(fit.rvalue**2, 3)
    assert row["gap"] == [chart_number(m, 3) for m in means]
    assert row["epsilon"] == list(sa.EPSILONS)


UNUSED = {"readouts": {}, "datasets": {"score_gap": [{"gap": 0.0, "low": 0.0, "high": 0.0}]}}
"""A stand-in result for the points a test does not look at."""


def test_the_curves_against_rho_and_the_heat_map_are_the_boards_of_other_points(results):
    point = POINTS[0]
    result = results[sa.GRID.key(point)]
    sweep = result["datasets"]["sweep"]
    assert len(sweep) == len(sa.RHOS) * len(sa.ATTACK_KEYS)
    other = {**point, "rho": 0.0}
    board = {row["attack"]: row for row in sa.compute(**other)["datasets"]["board"]}
    at_zero = {row["attack"]: row for row in sweep if row["rho"] == 0.0}
    for attack, row in at_zero.items():
        assert row["auc"] == board[attack]["auc"] and row["tpr"] == board[attack]["tpr_at_0_01"]
    assert "auc_low" in at_zero["gen_lra"] and "auc_low" not in at_zero["dcr"]
    advantage = result["datasets"]["advantage"]
    assert len(advantage) == len(sa.RHOS) * len(sa.BANDWIDTHS)
    (cell,) = [r for r in advantage if r["rho"] == 0.0 and r["bandwidth"] == 1.0]
    rival = max((a for a in board if a != "gen_lra"), key=lambda a: board[a]["auc"])
    assert cell["rival"] == rival
    assert cell["advantage"] == pytest.approx(
        board["gen_lra"]["auc"] - board[rival]["auc"], abs=2e-4
    )


def test_the_picture_numbers_are_counted_by_hand(results):
    point = POINTS[0]
    result = results[sa.GRID.key(point)]
    readouts, release_rows = result["readouts"], result["datasets"]["release"]
    split, release = split_and_release(1, point["epsilon"], point["rho"])
    target = sa.picture_target()
    assert readouts["copy_count"] == int((release.source >= 0).sum())
    assert readouts["target_copies"] == int((release.source == target).sum())
    order = np.lexsort(
        (np.arange(400), np.linalg.norm(release.records - split.members[target], axis=1))
    )
    assert readouts["neighbour_copies"] == int((release.source[order[:5]] == target).sum())
    assert len(release_rows) == 400
    assert sum(row.get("copy", 0) for row in release_rows) == readouts["copy_count"]
    ranked = sorted((row["rank"], i) for i, row in enumerate(release_rows) if "rank" in row)
    assert [i for _, i in ranked] == order[: max(sa.KS)].tolist()
    kernel = stats.gaussian_kde(split.reference.T)  # Silverman's rule = bandwidth 1×
    width = math.sqrt(np.trace(kernel.covariance) / 2) / split.population.spread
    assert readouts["kernel_scale"] == pytest.approx(width, rel=1e-9)


def test_the_score_histogram_counts_every_score_and_marks_the_target(results):
    point = POINTS[0]
    rows = results[sa.GRID.key(point)]["datasets"]["scores"]
    members, nonmembers = gen_lra_of(1, *point.values())
    assert len(rows) == sa.HISTOGRAM_BINS
    assert sum(row["member"] for row in rows) == members.size
    assert sum(row["nonmember"] for row in rows) == nonmembers.size
    assert rows[0]["low"] == chart_number(min(members.min(), nonmembers.min()), 6)
    assert [row["open"] for row in rows] == [0] * (sa.HISTOGRAM_BINS - 1) + [1]
    target_score = members[sa.picture_target()]
    (marked,) = [row for row in rows if row["target"]]
    assert marked["low"] <= target_score * (1 + 1e-6) and (
        marked["open"] or target_score < marked["high"] * (1 + 1e-6)
    )


def test_epsilon_zero_is_the_same_release_for_every_rho():
    a = sa.compute(epsilon=0.0, rho=0.0, k=5, bandwidth=1.0)
    b = sa.compute(epsilon=0.0, rho=1.0, k=5, bandwidth=1.0)
    assert a["datasets"]["board"] == b["datasets"]["board"]
    assert a["readouts"]["copy_count"] == 0


# --- The sentences the module writes ---------------------------------------------------------


def summary(mean: float, low: float | None = None, high: float | None = None) -> SeedSummary:
    low = mean - 0.01 if low is None else low
    high = mean + 0.01 if high is None else high
    return SeedSummary(mean, 0.01, low, high, (low, mean, high))


def aucs(**means: float) -> dict[str, SeedSummary]:
    values = {attack: summary(0.5) for attack in sa.ATTACK_KEYS}
    values.update({attack: summary(mean) for attack, mean in means.items()})
    return values


def test_the_comparison_follows_what_was_measured():
    lead = sa.comparison(aucs(gen_lra=0.7, dcr=0.6), chance_high=0.56)
    assert lead["rival_attack"] == sa.SHORT_NAMES["dcr"]
    assert lead["rival_auc"] == 0.6 and lead["gen_lra_lead"] == pytest.approx(0.1)
    assert lead["seed_overlap"]["en"] == "do not overlap"
    assert lead["chance_place"] == {"ko": "밖에", "en": "outside"}
    trail = sa.comparison(aucs(gen_lra=0.6, dcr=0.605), chance_high=0.56)
    assert trail["gen_lra_lead"] == pytest.approx(-0.005)
    assert trail["seed_overlap"] == {"ko": "겹친다", "en": "overlap"}
    chance = sa.comparison(aucs(gen_lra=0.52), chance_high=0.56)
    assert chance["chance_place"]["en"] == "inside"
    assert chance["rival_attack"] == sa.SHORT_NAMES["dcr"]  # ties: the first in registry order
    for readout in sa.READOUTS:
        if readout.name in lead:
            assert readout.text(lead[readout.name], "ko")


# --- The whole-lesson datasets, on results built by hand -------------------------------------


def board(values: dict[str, float]) -> list[dict[str, Any]]:
    return [
        {
            "attack": attack,
            "auc": values.get(attack, 0.5),
            "auc_low": values.get(attack, 0.5) - 0.01,
            "auc_high": values.get(attack, 0.5) + 0.01,
            "tpr_at_0": 0.0,
            "tpr_at_0_001": 0.0,
            "tpr_at_0_01": values.get(attack, 0.5) / 10,
            "tpr_at_0_1": 0.1,
            "tpr_low": 0.0,
            "tpr_high": 0.1,
        }
        for attack in sa.ATTACK_KEYS
    ]


@pytest.fixture(scope="module")
def made_up_results() -> dict[str, dict[str, Any]]:
    """Every grid point: Gen-LRA leads only at bandwidth 0.25 with ρ = 0.1, DCR wins at ρ = 0."""
    results = {}
    for grid_point in sa.GRID:
        point: dict[str, Any] = dict(grid_point)
        values = {"dcr": 0.8 if point["rho"] == 0 else 0.55}
        values["gen_lra"] = 0.6 if (point["bandwidth"], point["rho"]) == (0.25, 0.1) else 0.5
        straight = point["rho"] <= 0.2  # gap = ε on a line; otherwise a zigzag
        gap = point["epsilon"] if straight else float(sa.EPSILONS.index(point["epsilon"]) % 2)
        results[sa.GRID.key(point)] = {
            "readouts": {},
            "datasets": {
                "board": board(values),
                "score_gap": [{"gap": gap, "low": gap - 0.1, "high": gap + 0.1}],
            },
        }
    return results


def test_the_gap_rows_fit_a_line_per_rho_k_and_bandwidth(made_up_results):
    rows = sa.gap_rows(made_up_results)
    assert len(rows) == len(sa.RHOS) * len(sa.KS) * len(sa.BANDWIDTHS)
    straight = [r for r in rows if r["rho"] <= 0.2]
    assert all(r["slope"] == 1.0 and r["r2"] == 1.0 and r["straight"] == 1 for r in straight)
    assert all(r["r2"] < 0.9 and r["straight"] == 0 for r in rows if r["rho"] > 0.2)


def test_wins_and_findings_count_what_the_results_say(made_up_results):
    wins = {row["bandwidth"]: row for row in sa.wins_rows(made_up_results)}
    assert wins["0.25×"]["first_auc"] == 4 * 4  # every ε > 0 and every k, at ρ = 0.1
    assert wins["1×"]["first_auc"] == 0 and wins["1×"]["points"] == 4 * 7 * 4
    generators = [{"setting": {"ko": "가", "en": "A"}, "best_auc_attack": sa.SHORT_NAMES["dcr"]}]
    high_d = [{"auc_2d": 0.5, "auc_8d": 0.6}, {"auc_2d": 0.7, "auc_8d": 0.6}]
    findings = sa.findings_rows(made_up_results, sa.gap_rows(made_up_results), generators, high_d)
    answers = [row["answer"]["en"] for row in findings]
    assert answers[0] == "0 of 112"
    assert answers[1] == "16 of 560"
    assert answers[3] == "DCR (80 of 80)"
    assert answers[4].startswith("AUC +0.050 (ε = 0.05, ρ = 0.1, k = 1, 0.25×)")
    assert answers[5] == "80 of 80" and answers[6] == "0 of 60"
    assert answers[7] == "1 of 2"
    assert answers[8] == "none"


# --- The study, and its tables -----------------------------------------------------------------


def test_a_generator_study_point_equals_sklearn_on_a_fresh_run():
    value = sa.study(experiment="gmm-10", seed=2)
    assert json_ready(value, "study") == value
    result = run_generator_setting(setting_by_key("gmm-10"), 2, attacks=("gen_lra", "dcr"))
    for attack in ("gen_lra", "dcr"):
        outcome = result.outcome(attack)
        assert value["attacks"][attack]["auc"] == pytest.approx(
            sklearn_auc(outcome.member_scores, outcome.nonmember_scores), abs=1e-12
        )
        assert value["attacks"][attack]["tpr"]["0.01"] == pytest.approx(
            interpolated_tpr(outcome.member_scores, outcome.nonmember_scores, 0.01), abs=1e-12
        )
    assert value["utility"] == result.utility_r2
    split = concrete_split(2)
    assert value["baseline"] == pytest.approx(result.baseline_r2)
    assert split.members.shape[0] == split.nonmembers.shape[0] == split.reference.shape[0]


def test_the_checks_show_invariance_where_it_holds_and_not_where_it_does_not():
    value = sa.study(experiment="checks", seed=1)
    assert value["true_ratio_change"] < 1e-9 < value["true_density_change"]
    assert value["bracket_affine_change"] < 1e-9 < value["bracket_exp_change"]
    assert value["changed_neighbour_sets"] > 0 and value["score_change"] > 1e-6
    assert value["shortcut_difference"] < 1e-8


def made_up_study() -> dict[str, Any]:
    """Every study point, with DCR first everywhere except Gen-LRA on gmm-10 (by AUC)."""
    values: dict[str, Any] = {}
    for point in sa.STUDY:
        experiment: Any = point["experiment"]
        seed: Any = point["seed"]
        key = sa.STUDY.key(point)
        if experiment == "checks":
            values[key] = {
                "true_ratio_change": 1e-15,
                "true_density_change": 6.0,
                "bracket_affine_change": 1e-14,
                "bracket_exp_change": 0.5,
                "bracket_scale": 0.3,
                "changed_neighbour_sets": 1.0,
                "auc_before": 0.5,
                "auc_after": 0.55,
                "score_change": 0.8,
                "shortcut_difference": 1e-13,
            }
        elif experiment.startswith("high-d-"):
            values[key] = {
                "variants": [
                    {"attack": "gen_lra", "k": 5, "bandwidth": 1.0, "auc": 0.5, "tpr": 0.0},
                    {"attack": "dcr", "k": None, "bandwidth": None, "auc": 0.6, "tpr": 0.1},
                ]
            }
        else:
            leader = "gen_lra" if experiment == "gmm-10" else "dcr"
            values[key] = {
                "attacks": {
                    attack: {
                        "auc": 0.7 if attack == leader else 0.5 + seed / 100,
                        "tpr": {"0": 0.0, "0.001": 0.0, "0.01": 0.01, "0.1": 0.1},
                    }
                    for attack in sa.ATTACK_KEYS
                },
                "utility": 0.5,
                "baseline": 0.8,
            }
    return values


def test_the_real_generator_tables_count_first_places_and_ties():
    real = sa.generator_rows(made_up_study())
    shares = real["_shares"][0]
    assert shares["runs"] == 48
    assert shares["auc"]["gen_lra"] == pytest.approx(3 / 48)
    assert shares["auc"]["dcr"] == pytest.approx(45 / 48)
    assert shares["tpr0"]["gen_lra"] == pytest.approx(1 / 9)  # every run a nine-way tie
    claims = {row["quantity"]["en"]: row for row in sa.claims_rows(shares)}
    by_auc = claims["Share of runs Gen-LRA ranks first by AUC"]
    assert by_auc["authors"]["en"] == "over 38 %" and by_auc["site"] == "6 %"
    assert claims["Attack most often first by AUC"]["site"]["en"] == "DCR (94 %)"
    (gmm10,) = [
        row for row in real["generators"] if row["setting"]["en"].endswith("(10 components)")
    ]
    assert gmm10["best_auc_attack"] == sa.SHORT_NAMES["gen_lra"]


def test_the_invariance_verdicts_follow_the_measured_changes():
    rows = sa.invariance_rows(made_up_study())
    verdicts = [row["verdict"]["en"] for row in rows]
    assert verdicts == [
        "invariant (rounding only)",
        "invariant (rounding only)",
        "changes",
        "changes",
    ]


def test_the_heat_map_reads_a_difference_that_rounds_to_zero_as_zero():
    from privacy_explorer import charts, fonts
    from privacy_explorer.compute.lessons.synthetic_audit_charts import advantage_chart
    from privacy_explorer.project import builtin_templates_dir

    cells = [(-0.003, "0.00"), (0.004, "0.00"), (-0.0, "0.00"), (0.05, "+0.05"), (-0.126, "−0.13")]
    rows = [
        {"rho": rho, "bandwidth": 1.0, "gen_lra": 0.5, "rival": "dcr", "advantage": value}
        for rho, (value, _) in zip(sa.RHOS, cells, strict=False)
    ]
    spec = charts.with_data(advantage_chart("en").to_dict(), {"advantage": rows})
    svg = charts.render_svg(spec, fonts.shipped_fonts(builtin_templates_dir()))
    shown = charts.svg_text(svg).splitlines()
    assert {"+0.05", "−0.13"} <= set(shown)
    assert shown.count("0.00") >= 3  # three cells (and the legend's middle tick)
    assert not {"+0.00", "−0.00", "-0.00"} & set(shown)
