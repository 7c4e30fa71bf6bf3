"""Lesson 05: what the page shows equals an independent recomputation.

The library's own tests (``test_attacks_gen_lra.py``) check Gen-LRA and its field against
SciPy. Here the lesson's numbers are recomputed from scratch at a few grid points: the
release by hand, every density with SciPy's ``gaussian_kde`` refitted with the target added,
neighbours by brute-force distance, AUCs with scikit-learn. The sentences the page writes
about particular settings (its "Show me" steps and its first question) are checked at those
settings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score
from threadpoolctl import threadpool_limits

from privacy_explorer.compute.audit_experiments import silverman_factor
from privacy_explorer.compute.lessons import synthetic_audit as sa
from privacy_explorer.compute.synthetic import simulation_split, two_d_population
from privacy_explorer.lesson import chart_number
from privacy_explorer.runner import json_ready

POINTS: list[dict[str, Any]] = [
    {"epsilon": 0.4, "rho": 0.1, "k": 5, "bandwidth": 1.0, "target": "a"},  # the default
    {"epsilon": 0.4, "rho": 0.0, "k": 20, "bandwidth": 0.25, "target": "e"},
    {"epsilon": 0.1, "rho": 0.7, "k": 1, "bandwidth": 0.1, "target": "b"},
]


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread() -> Iterator[None]:
    """SciPy's refits are thousands of tiny BLAS calls, which threads only slow down."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


# --- Independent references ---------------------------------------------------------------


def split_and_release(epsilon: float, rho: float):
    split = simulation_split(two_d_population(), seed=sa.PICTURE_SEED)
    return split, split.release(epsilon=epsilon, rho=rho)


def scipy_kdes(reference: np.ndarray, target: np.ndarray, multiple: float):
    """SciPy's KDE of R and of R ∪ {x*}, each with ``multiple`` × its own Silverman factor."""
    n, d = reference.shape
    base = stats.gaussian_kde(reference.T, bw_method=multiple * silverman_factor(n, d))
    grown = stats.gaussian_kde(
        np.vstack([reference, target]).T, bw_method=multiple * silverman_factor(n + 1, d)
    )
    return base, grown


def brute_nearest(records: np.ndarray, target: np.ndarray, k: int) -> np.ndarray:
    """Rows of the ``k`` nearest records: by distance, then by row."""
    distances = np.linalg.norm(records - target, axis=1)
    return np.lexsort((np.arange(len(records)), distances))[:k]


def scipy_terms(reference, synthetic, target, k: int, multiple: float) -> np.ndarray:
    base, grown = scipy_kdes(reference, target, multiple)
    near = synthetic[brute_nearest(synthetic, target, k)].T
    return np.asarray(grown.logpdf(near) - base.logpdf(near))


def candidate_record(name: str) -> np.ndarray:
    return np.array(sa.candidate(name).record)


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    return {sa.GRID.key(point): sa.compute(**point) for point in POINTS}


def at(**point: Any) -> dict[str, Any]:
    """The result at ``point`` (default values for what it leaves out)."""
    return sa.compute(**{**sa.GRID.default, **point})


# --- The grid and the module ---------------------------------------------------------------


def test_the_grid_is_the_documented_one(results):
    assert sa.GRID.names == ("epsilon", "rho", "k", "bandwidth", "target")
    assert sa.GRID.param("epsilon").values == (0.0, 0.1, 0.4)
    assert sa.GRID.param("rho").values == (0.0, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
    assert sa.GRID.param("k").values == (1, 5, 10, 20)
    assert sa.GRID.param("bandwidth").values == (0.1, 0.25, 0.5, 1.0, 2.0)
    assert sa.GRID.param("target").values == ("a", "b", "c", "d", "e")
    assert len(sa.GRID) == 2100
    assert sa.GRID.group_by == ("epsilon",)
    assert sa.GRID.default == POINTS[0]
    assert len(sa.STUDY) == 3
    assert set(sa.LAZY) == set(results[sa.GRID.key(POINTS[0])]["datasets"])


def test_the_candidates_follow_their_rule():
    """Recomputed by hand: copies counted, neighbours by brute force, densities with SciPy."""
    split, release = split_and_release(max(sa.EPSILONS), 0.0)
    copies = np.bincount(release.source[release.source >= 0], minlength=len(split.members))
    kde = stats.gaussian_kde(split.reference.T)  # Silverman's rule is the 1× bandwidth
    member_density = kde.logpdf(split.members.T)
    nonmember_density = kde.logpdf(split.nonmembers.T)
    typical = np.median(np.r_[member_density, nonmember_density])
    near_copies = np.array(
        [
            (release.source[brute_nearest(release.records, x, 5)] >= 0).sum()
            for x in split.nonmembers
        ]
    )
    rules = [
        (True, copies >= 2),
        (True, copies == 1),
        (True, copies == 0),
        (False, near_copies == 0),
        (False, near_copies == near_copies.max()),
    ]
    chosen: list[np.ndarray] = []
    for candidate, (member, allowed) in zip(sa.candidates(), rules, strict=True):
        records = split.members if member else split.nonmembers
        density = member_density if member else nonmember_density
        fine = [
            r
            for r in np.flatnonzero(allowed)
            if all(np.linalg.norm(records[r] - c) >= sa.CANDIDATE_GAP for c in chosen)
        ]
        row = int(min(fine, key=lambda r: (abs(density[r] - typical), r)))
        assert (candidate.member, candidate.row) == (member, row), candidate
        assert candidate.record == tuple(records[row])
        chosen.append(records[row])


def test_every_result_is_finite_json_with_the_declared_readouts(results):
    names = {readout.name for readout in sa.READOUTS}
    for result in results.values():
        assert json_ready(result, "result") == result
        assert set(result["readouts"]) == names
        for readout in sa.READOUTS:
            assert readout.text(result["readouts"][readout.name], "ko")
    again = sa.compute(**POINTS[1])
    assert json.dumps(again, sort_keys=True) == json.dumps(
        results[sa.GRID.key(POINTS[1])], sort_keys=True
    )


# --- Every page number at a few points, recomputed --------------------------------------------


@pytest.mark.parametrize("point", POINTS, ids=lambda p: "-".join(map(str, p.values())))
def test_the_readouts_are_scipys_and_sklearns_on_a_fresh_draw(results, point):
    readouts = results[sa.GRID.key(point)]["readouts"]
    epsilon, rho, k, bandwidth, target = point.values()
    split, release = split_and_release(epsilon, rho)
    chosen = sa.candidate(target)
    record = candidate_record(target)
    terms = scipy_terms(split.reference, release.records, record, k, bandwidth)
    assert readouts["target_score"] == pytest.approx(terms.sum(), rel=1e-8, abs=1e-10)
    # every member's and non-member's score, refitted with SciPy, for the AUC and the shares
    members = np.array(
        [
            scipy_terms(split.reference, release.records, x, k, bandwidth).sum()
            for x in split.members
        ]
    )
    nonmembers = np.array(
        [
            scipy_terms(split.reference, release.records, x, k, bandwidth).sum()
            for x in split.nonmembers
        ]
    )
    labels = np.r_[np.ones(len(members)), np.zeros(len(nonmembers))]
    assert readouts["auc"] == pytest.approx(roc_auc_score(labels, np.r_[members, nonmembers]))
    # the shares compare with the target's own score, which is one of the members' or not
    score = terms.sum()
    assert readouts["target_tpr"] == pytest.approx(np.mean(members >= score - 1e-9), abs=1e-12)
    assert readouts["target_fpr"] == pytest.approx(np.mean(nonmembers >= score - 1e-9), abs=1e-12)
    own = (members if chosen.member else nonmembers)[chosen.row]
    assert own == pytest.approx(score, rel=1e-8, abs=1e-10)
    spread = math.sqrt((len(members) + len(nonmembers) + 1) / (12 * len(members) * len(nonmembers)))
    inside = abs(readouts["auc"] - 0.5) <= 2 * spread
    assert readouts["chance_place"]["en"] == ("inside" if inside else "outside")
    assert readouts["chance_range"] == f"{0.5 - 2 * spread:.3f}–{0.5 + 2 * spread:.3f}"
    # counted by hand
    assert readouts["copy_count"] == int((release.source >= 0).sum())
    copies = release.source == chosen.row if chosen.member else np.zeros(len(release.source), bool)
    assert readouts["target_copies"] == int(copies.sum())
    assert readouts["neighbour_copies"] == int(
        copies[brute_nearest(release.records, record, k)].sum()
    )
    assert readouts["target_kind"]["en"] == ("member" if chosen.member else "non-member")
    # the kernel's width, in spreads, from SciPy's covariance
    base, grown = scipy_kdes(split.reference, record, bandwidth)
    width = math.sqrt(np.trace(base.covariance) / 2) / split.population.spread
    assert readouts["kernel_scale"] == pytest.approx(width, rel=1e-9)
    peak = grown.logpdf(record[:, None])[0] - base.logpdf(record[:, None])[0]
    assert readouts["field_peak"] == pytest.approx(peak, rel=1e-8)


def test_the_refit_difference_is_a_true_bound(results):
    for point in POINTS:
        shown = results[sa.GRID.key(point)]["readouts"]["refit_difference"]
        assert shown in {sa.power_of_ten_above(10.0**-e) for e in range(8, 17)}
        split, release = split_and_release(point["epsilon"], point["rho"])
        terms = scipy_terms(
            split.reference, release.records, candidate_record(point["target"]), point["k"],
            point["bandwidth"],
        )  # fmt: skip
        exponent = -int(shown.split("⁻")[1].translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
        score = results[sa.GRID.key(point)]["readouts"]["target_score"]
        # SciPy's own rounding is part of the difference: a bound ten times wider still holds
        assert abs(score - terms.sum()) <= 10.0 ** (exponent + 1)
    assert sa.power_of_ten_above(3.2e-14) == "10⁻¹³"
    assert sa.power_of_ten_above(1e-9) == "10⁻⁹"
    assert sa.power_of_ten_above(0.0) == "10⁻¹⁶"


def test_the_terms_are_the_neighbours_refitted_log_ratios(results):
    point = POINTS[1]
    rows = results[sa.GRID.key(point)]["datasets"]["terms"]
    split, release = split_and_release(point["epsilon"], point["rho"])
    record = candidate_record(point["target"])
    expected = scipy_terms(split.reference, release.records, record, max(sa.KS), point["bandwidth"])
    assert [row["rank"] for row in rows] == list(range(1, max(sa.KS) + 1))
    assert [row["term"] for row in rows] == [chart_number(t, 4) for t in expected]
    assert not any(row["copy"] for row in rows)  # a non-member has no copies
    nearest = results[sa.GRID.key(point)]["datasets"]["nearest"]
    order = brute_nearest(release.records, record, max(sa.KS))
    assert [(row["x"], row["y"]) for row in nearest] == [
        (round(float(x), 3) + 0.0, round(float(y), 3) + 0.0) for x, y in release.records[order]
    ]


def test_the_field_is_scipys_refit_on_a_grid_centred_on_the_target(results):
    point = POINTS[0]
    datasets = results[sa.GRID.key(point)]["datasets"]
    member, nonmember = sa.panel_targets(point["target"])
    assert (member.name, nonmember.name) == ("a", "d")
    split, _ = split_and_release(point["epsilon"], point["rho"])
    step = 2 * sa.FIELD_HALF_WIDTH / sa.FIELD_CELLS
    for name, rows in (("a", datasets["field_member"]), ("d", datasets["field_nonmember"])):
        assert len(rows) == sa.FIELD_CELLS**2
        record = candidate_record(name)
        base, grown = scipy_kdes(split.reference, record, point["bandwidth"])
        for row in rows[:: sa.FIELD_CELLS + 3]:
            place = record + step * (np.array([row["i"], row["j"]]) - sa.FIELD_CELLS // 2)
            expected = grown.logpdf(place[:, None])[0] - base.logpdf(place[:, None])[0]
            assert row["v"] == chart_number(expected, sa.FIELD_DIGITS), row
    # a non-member target takes the non-member's side, and the first member stays
    assert [c.name for c in sa.panel_targets("e")] == ["a", "e"]
    assert [c.name for c in sa.panel_targets("c")] == ["c", "d"]


def test_the_field_panels_rings_are_each_targets_neighbours(results):
    point = POINTS[0]
    rows = results[sa.GRID.key(point)]["datasets"]["field_nearest"]
    _, release = split_and_release(point["epsilon"], point["rho"])
    for panel, name in (("member", "a"), ("nonmember", "d")):
        record = candidate_record(name)
        mine = [row for row in rows if row["p"] == panel]
        assert {row["c"] for row in mine} == {name}
        order = brute_nearest(release.records, record, max(sa.KS))
        offsets = release.records[order] - record
        assert [(row["x"], row["y"]) for row in mine] == [
            (round(float(x), 3) + 0.0, round(float(y), 3) + 0.0) for x, y in offsets
        ]
        copies = sum(row["copy"] for row in mine)
        member = sa.candidate(name)
        expected = (release.source[order] == member.row).sum() if member.member else 0
        assert copies == expected


def test_the_outlines_are_the_kernels_ellipse_and_the_noise_circle(results):
    point = POINTS[0]
    rows = results[sa.GRID.key(point)]["datasets"]["outline"]
    split, _ = split_and_release(point["epsilon"], point["rho"])
    base, _ = scipy_kdes(split.reference, split.reference[0], point["bandwidth"])
    inverse = np.linalg.inv(base.covariance)  # the kernel's covariance, factor included
    kernel = np.array([(r["x"], r["y"]) for r in rows if r["shape"] == "kernel"])
    np.testing.assert_allclose(np.einsum("ij,jk,ik->i", kernel, inverse, kernel), 1, atol=0.02)
    noise = np.array([(r["x"], r["y"]) for r in rows if r["shape"] == "noise"])
    np.testing.assert_allclose(
        np.linalg.norm(noise, axis=1), point["rho"] * split.population.spread, atol=2e-3
    )
    assert not [r for r in sa.outline_rows(0.0, 1.0) if r["shape"] == "noise"]


def test_the_score_histogram_counts_every_score_and_marks_each_candidate(results):
    point = POINTS[0]
    rows = results[sa.GRID.key(point)]["datasets"]["scores"]
    bins = [row for row in rows if "low" in row]
    marks = {row["c"]: row for row in rows if "c" in row}
    assert len(bins) == sa.HISTOGRAM_BINS and set(marks) == set(sa.TARGETS)
    split, release = split_and_release(point["epsilon"], point["rho"])
    assert sum(row["member"] for row in bins) == len(split.members)
    assert sum(row["nonmember"] for row in bins) == len(split.nonmembers)
    assert [row["open"] for row in bins] == [0] * (sa.HISTOGRAM_BINS - 1) + [1]
    for name, mark in marks.items():
        record = candidate_record(name)
        score = scipy_terms(split.reference, release.records, record, point["k"], 1.0).sum()
        assert mark["score"] == chart_number(score, 4)
        assert bins[0]["low"] <= mark["at"] <= bins[-1]["high"]


def test_epsilon_zero_is_the_same_release_for_every_rho():
    a = sa.compute(epsilon=0.0, rho=0.0, k=5, bandwidth=1.0, target="a")
    b = sa.compute(epsilon=0.0, rho=1.0, k=5, bandwidth=1.0, target="a")
    assert a["datasets"]["release"] == b["datasets"]["release"]
    assert a["readouts"]["target_score"] == b["readouts"]["target_score"]
    assert a["readouts"]["copy_count"] == 0


# --- What the page says at its "Show me" settings --------------------------------------------


def copy_terms(result: dict[str, Any], k: int) -> list[float]:
    return [row["term"] for row in result["datasets"]["terms"][:k] if row["copy"]]


def test_the_first_question_s_answer_holds_for_member_a():
    """At ε = 0.4, ρ = 0.1, k = 5, member A stands out most (fewest non-members scoring as
    high) at 0.25×, of the three bandwidths the question offers."""
    shares = {
        m: at(epsilon=0.4, rho=0.1, k=5, bandwidth=m, target="a")["readouts"]["target_fpr"]
        for m in (0.1, 0.25, 2.0)
    }
    assert shares[0.25] < min(shares[0.1], shares[2.0]), shares
    # "about as wide as the copies' spread": 0.25× is the kernel nearest to ρ = 0.1
    assert min(sa.BANDWIDTHS, key=lambda m: abs(sa.kernel_scale(m) - 0.1)) == 0.25


def test_the_score_field_steps_say_what_the_field_shows():
    setting = {"epsilon": 0.4, "rho": 0.1, "k": 5, "target": "a"}
    matched = at(**setting, bandwidth=0.25)
    wide = at(**setting, bandwidth=2.0)
    narrow = at(**setting, bandwidth=0.1)
    # matched: the copies among the rings sit on the bump (at least half its height)
    peak = matched["readouts"]["field_peak"]
    assert copy_terms(matched, 5) and min(copy_terms(matched, 5)) >= peak / 2
    # wide: the field is nearly flat, and both panels' scores are a tenth of the matched member's
    values = [row["v"] for row in wide["datasets"]["field_member"]]
    assert max(values) - min(values) < 0.03
    member_score = matched["readouts"]["member_panel_score"]
    for name in ("member_panel_score", "nonmember_panel_score"):
        assert wide["readouts"][name] < member_score / 10
    # narrow: a needle the noisy copies miss (each collects under half of it)
    needle = narrow["readouts"]["field_peak"]
    assert copy_terms(narrow, 5) and max(copy_terms(narrow, 5)) < needle / 2
    # narrow kernels: below zero away from the target, for every candidate
    for bandwidth in (0.1, 0.25, 0.5):
        for name in sa.TARGETS:
            offsets = sa.field_offsets()
            across, up = np.meshgrid(offsets, offsets)
            far = np.hypot(across, up).ravel() > 1.2
            assert np.median(sa.field_values(bandwidth, name)[far]) < 0


def test_the_terms_steps_say_what_the_terms_show():
    never = sa.candidate("c")
    assert never.member and at(target="c")["readouts"]["target_copies"] == 0
    for epsilon in sa.EPSILONS:
        for rho in sa.RHOS:
            assert not (split_and_release(epsilon, rho)[1].source == never.row).any()
    setting = {"epsilon": 0.4, "rho": 0.1, "k": 5, "bandwidth": 0.1}
    scores = {name: at(**setting, target=name)["readouts"]["target_score"] for name in "abce"}
    assert scores["e"] > max(scores["a"], scores["b"], scores["c"]), scores
    # E sits beside copies of other members: some of its nearest records are copies
    _, release = split_and_release(0.4, 0.1)
    assert (release.source[brute_nearest(release.records, candidate_record("e"), 5)] >= 0).any()


# --- The checks, and their tables ---------------------------------------------------------


def test_the_checks_show_invariance_where_it_holds_and_the_shortcut_matches_scipy():
    value = sa.study(experiment="checks", seed=1)
    assert json_ready(value, "study") == value
    assert value["true_ratio_change"] < 1e-9 < value["true_density_change"]
    assert value["bracket_affine_change"] < 1e-9 < value["bracket_exp_change"]
    assert value["changed_neighbour_sets"] > 0 and value["score_change"] > 1e-6
    assert [row["bandwidth"] for row in value["shortcut"]] == list(sa.CHECK_BANDWIDTHS)
    assert all(row["difference"] < 1e-8 < row["largest"] for row in value["shortcut"])
    with pytest.raises(ValueError, match="checks"):
        sa.study(experiment="generators", seed=1)


def made_up_study() -> dict[str, Any]:
    values: dict[str, Any] = {}
    for point in sa.STUDY:
        seed: Any = point["seed"]
        values[sa.STUDY.key(point)] = {
            "true_ratio_change": 1e-15,
            "true_density_change": 6.0,
            "bracket_affine_change": 1e-14,
            "bracket_exp_change": 0.5,
            "bracket_scale": 0.3,
            "changed_neighbour_sets": 0.25 * seed,
            "auc_before": 0.5,
            "auc_after": 0.55,
            "score_change": 0.8,
            "shortcut": [
                {"bandwidth": m, "difference": 1e-13 * seed, "largest": 2.0}
                for m in sa.CHECK_BANDWIDTHS
            ],
        }
    return values


def test_the_tables_follow_the_checks():
    rows = sa.invariance_rows(made_up_study())
    assert [row["verdict"]["en"] for row in rows] == [
        "invariant (rounding only)",
        "invariant (rounding only)",
        "changes",
        "changes",
    ]
    assert "up to 75 %" in rows[3]["compare"]["en"]
    shortcut = sa.shortcut_rows(made_up_study())
    assert [(row["seed"], row["bandwidth"]) for row in shortcut] == [
        (seed, f"{m:g}×") for seed in sa.CHECK_SEEDS for m in sa.CHECK_BANDWIDTHS
    ]
    assert shortcut[-1]["difference"] == pytest.approx(3e-13)
    summary = sa.summarize({}, made_up_study())
    assert [row["c"] for row in summary["candidates"]] == list(sa.TARGETS)
    assert [row["count"] for row in summary["setup"]] == [200, 200, 400, 400]
