"""Lesson 06: what the page says equals an independent recomputation from the study.

The study (20 seeds of 18 simulated settings, 10 seeds of 20 generator settings) is what the
session's build computed and cached (``lessonpage.built_results``); one of its seeds is drawn
again here and scored with scikit-learn. Every verdict is recomputed from the cached AUCs with
SciPy's paired t-test and Holm's rule written out here, every ceiling from the copying model's
closed form, and the ε-DP region from its definition. A made-up study checks that the page
would say "leads" where Gen-LRA does lead.
"""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lessonpage import built_results
from scipy import stats
from scipy.spatial import cKDTree
from sklearn.metrics import roc_auc_score

from privacy_explorer.build import BuildReport
from privacy_explorer.compute.attack_evidence import RIVALS, ROC_FPRS
from privacy_explorer.compute.lessons import audit_evidence as ae
from privacy_explorer.compute.synthetic import simulation_split, two_d_population
from privacy_explorer.wording import reading_length

SLUG = "06-what-an-audit-measures"
REPO = Path(__file__).resolve().parent.parent
READING_LIMIT = 12_000
"""Characters of rendered Korean reading the lesson may hold (issue 21 §3)."""
DEFAULT = {"size": 4, "epsilon": 0.4, "rho": 0.1, "k": 20, "bandwidth": 1.0}

pytestmark = pytest.mark.usefixtures("course_site")


def study() -> dict[str, Any]:
    built = built_results(SLUG).study
    assert built is not None
    return built


def value(experiment: str) -> dict[str, Any]:
    found: dict[str, Any] = study()[ae.STUDY.key({"experiment": experiment})]
    return found


def views(summary: dict[str, Any], **where: Any) -> dict[str, Any]:
    """Everything the point views give the grid points that have the values ``where`` names."""
    merged: dict[str, Any] = {"readouts": {}, "datasets": {}}
    for row in summary["point_views"]:
        if all(where.get(name) == wanted for name, wanted in row["where"].items()):
            for kind in ("readouts", "datasets"):
                merged[kind].update(row.get(kind, {}))
    return merged


_SUMMARY: list[dict[str, Any]] = []


def summary() -> dict[str, Any]:
    if not _SUMMARY:
        _SUMMARY.append(ae.summarize({}, study()))
    return _SUMMARY[0]


def auc_of(experiment: str, attack: str, k: int | None, bandwidth: float | None) -> np.ndarray:
    for row in value(experiment)["variants"]:
        if (row["attack"], row["k"], row["bandwidth"]) == (attack, k, bandwidth):
            return np.asarray(row["auc"])
    raise KeyError((experiment, attack, k, bandwidth))


def rival_aucs(experiment: str, bandwidth: float) -> dict[str, np.ndarray]:
    return {
        a: auc_of(experiment, a, None, bandwidth if a in ("domias", "density") else None)
        for a in RIVALS
    }


def sigma_0(members: int, nonmembers: int) -> float:
    """The AUC's standard deviation under no information (Mann–Whitney, no ties)."""
    return math.sqrt((members + nonmembers + 1) / (12 * members * nonmembers))


def holm(p_values: np.ndarray) -> np.ndarray:
    order = np.argsort(p_values, kind="stable")
    adjusted = np.empty_like(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (p_values.size - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


# --- The study against a fresh draw --------------------------------------------------------


def test_a_simulated_seed_equals_a_fresh_draw_scored_with_scikit_learn() -> None:
    experiment = ae.simulation_key(0.4, 0.0, 4)
    split = simulation_split(
        two_d_population(), members=200, nonmembers=200, reference=400, synthetic=800, seed=1
    )
    release = split.release(epsilon=0.4, rho=0.0)
    copied = np.zeros(200, dtype=bool)
    copied[release.source[release.source >= 0]] = True
    assert value(experiment)["coverage"][0] == copied.mean()
    assert value(experiment)["expected"] == pytest.approx(1 - (1 - 0.4 / 200) ** 800, rel=1e-12)
    distances, _ = cKDTree(release.records).query(np.vstack([split.members, split.nonmembers]))
    labels = np.r_[np.ones(200), np.zeros(200)]
    expected = roc_auc_score(labels, -distances)
    assert auc_of(experiment, "dcr", None, None)[0] == pytest.approx(expected, abs=1e-12)


# --- Ceilings, the chance band and the verdicts -----------------------------------------------


def test_the_ceiling_readouts_are_the_drawn_coverage_and_the_closed_form() -> None:
    for size in ae.SIZES:
        for epsilon in ae.EPSILONS:
            readouts = views(summary(), **{**DEFAULT, "size": size, "epsilon": epsilon})["readouts"]
            coverage = np.mean(value(ae.simulation_key(epsilon, 0.1, size))["coverage"])
            assert readouts["coverage"] == pytest.approx(coverage)
            assert readouts["ceiling"] == pytest.approx(0.5 + 0.5 * coverage)
            closed = 1 - (1 - epsilon / 200) ** (200 * size)
            assert readouts["ceiling_closed"] == pytest.approx(0.5 + 0.5 * closed, rel=1e-12)
            assert readouts["tpr_ceiling"] == pytest.approx(coverage + (1 - coverage) * 0.01)
            # The releases drawn scatter around the closed form by sampling error only.
            assert abs(coverage - closed) < 4 * math.sqrt(closed * (1 - closed) / (200 * 20)) + 1e-9


def judged_points() -> list[tuple[int, float, float, int, float]]:
    """Every (size, ε, ρ, k, bandwidth) whose mean ceiling clears ½ + 2σ₀, found here."""
    band = 0.5 + 2 * sigma_0(200, 200)
    points = []
    for size in ae.SIZES:
        for epsilon in ae.EPSILONS:
            for rho in ae.RHOS:
                coverage = np.mean(value(ae.simulation_key(epsilon, rho, size))["coverage"])
                if 0.5 + 0.5 * coverage <= band:
                    continue
                for k in ae.KS:
                    if 4 * k > 200 * size:
                        continue
                    points += [(size, epsilon, rho, k, b) for b in ae.BANDWIDTHS]
    return points


def test_every_verdict_is_scipys_paired_t_test_corrected_by_holm_over_every_judged_setting() -> (
    None
):
    points = judged_points()
    p_values, means = [], []
    for size, epsilon, rho, k, bandwidth in points:
        experiment = ae.simulation_key(epsilon, rho, size)
        subject = auc_of(experiment, "gen_lra", k, bandwidth)
        for rival in rival_aucs(experiment, bandwidth).values():
            test = stats.ttest_rel(subject, rival)
            p_values.append(test.pvalue)
            means.append(float(np.mean(subject - rival)))
    adjusted = holm(np.asarray(p_values)).reshape(len(points), len(RIVALS))
    signs = np.sign(np.asarray(means)).reshape(len(points), len(RIVALS))
    counts = {"leads": 0, "trails": 0, "inside": 0}
    for (size, epsilon, rho, k, bandwidth), row, sign in zip(points, adjusted, signs, strict=True):
        significant = row <= 0.05
        if np.all(significant & (sign > 0)):
            verdict = "leads"
        elif np.any(significant & (sign < 0)):
            verdict = "trails"
        else:
            verdict = "inside"
        counts[verdict] += 1
        shown = views(summary(), size=size, epsilon=epsilon, rho=rho, k=k, bandwidth=bandwidth)[
            "readouts"
        ]["verdict"]
        assert shown == ae.VERDICT_TEXT[verdict], (size, epsilon, rho, k, bandwidth)
    headline = views(summary())["readouts"]
    assert headline["judged_settings"] == len(points)
    assert headline["comparisons"] == len(points) * len(RIVALS)
    assert {
        "leads": headline["leads_count"],
        "trails": headline["trails_count"],
        "inside": headline["inside_count"],
    } == counts
    assert headline["unjudged_settings"] == sum(
        1 for row in summary()["heat"] if row["verdict"] == "unjudged"
    )


def test_the_paired_readouts_are_the_mean_interval_and_signs_of_the_strongest_rival() -> None:
    experiment = ae.simulation_key(0.4, 0.1, 4)
    subject = auc_of(experiment, "gen_lra", 20, 1.0)
    rivals = rival_aucs(experiment, 1.0)
    strongest = max(rivals, key=lambda a: rivals[a].mean())
    differences = subject - rivals[strongest]
    low, high = stats.ttest_rel(subject, rivals[strongest]).confidence_interval(0.95)
    readouts = views(summary(), **DEFAULT)["readouts"]
    assert readouts["rival_attack"] == ae.NAMES[strongest]
    assert readouts["lead"] == pytest.approx(differences.mean())
    assert readouts["lead_interval"] == f"[{low:+.3f}, {high:+.3f}]".replace("-", "−")
    wins = int(np.sum(differences > 0))
    assert readouts["wins"] == {"ko": f"20개 가운데 {wins}개", "en": f"{wins} of 20"}
    rows = views(summary(), **DEFAULT)["datasets"]["paired"]
    assert [row["attack"] for row in rows] == list(RIVALS)
    for row in rows:
        d = subject - rivals[row["attack"]]
        assert row["wins"] == int(np.sum(d > 0)) and row["losses"] == int(np.sum(d < 0))


def test_the_largest_lead_is_the_largest_mean_difference_over_the_judged_settings() -> None:
    best = -math.inf
    for size, epsilon, rho, k, bandwidth in judged_points():
        experiment = ae.simulation_key(epsilon, rho, size)
        subject = auc_of(experiment, "gen_lra", k, bandwidth)
        rivals = rival_aucs(experiment, bandwidth)
        strongest = max(rivals, key=lambda a: rivals[a].mean())
        best = max(best, float(np.mean(subject - rivals[strongest])))
    assert views(summary())["readouts"]["best_lead"] == pytest.approx(best)


def test_a_made_up_study_where_gen_lra_leads_is_said_to_lead() -> None:
    """Give Gen-LRA (k = 20, 1×) at one setting every rival's best AUC plus 0.05: it leads."""
    made_up = copy.deepcopy(study())
    experiment = ae.simulation_key(0.4, 0.0, 16)
    target = made_up[ae.STUDY.key({"experiment": experiment})]
    rivals = rival_aucs(experiment, 1.0)
    best = np.max(np.vstack(list(rivals.values())), axis=0)
    noise = np.random.default_rng(0).normal(0, 0.002, best.size)
    for row in target["variants"]:
        if (row["attack"], row["k"], row["bandwidth"]) == ("gen_lra", 20, 1.0):
            row["auc"] = (best + 0.05 + noise).tolist()
    found = ae.summarize({}, made_up)
    point = {"size": 16, "epsilon": 0.4, "rho": 0.0, "k": 20, "bandwidth": 1.0}
    assert views(found, **point)["readouts"]["verdict"] == ae.VERDICT_TEXT["leads"]
    assert views(found)["readouts"]["leads_count"] == 1
    strongest = max(rivals, key=lambda a: rivals[a].mean())
    expected = np.mean(best + 0.05 + noise - rivals[strongest])
    assert views(found)["readouts"]["best_lead"] == pytest.approx(expected)


# --- Real and private generators ----------------------------------------------------------------


def test_the_dp_region_is_the_replacement_guarantee() -> None:
    for row in summary()["region"]:
        guarantee = 2 * row["dp_epsilon"]
        f = row["fpr"]
        upper = min(math.exp(guarantee) * f, 1 - math.exp(-guarantee) * (1 - f))
        lower = max(math.exp(-guarantee) * f, 1 - math.exp(guarantee) * (1 - f))
        assert row["upper"] == pytest.approx(max(0.0, min(1.0, upper)), rel=1e-3, abs=1e-6)
        assert row["lower"] == pytest.approx(max(0.0, min(1.0, lower)), rel=1e-3, abs=1e-6)
    for data in ("concrete", "housing"):
        rows = views(summary(), data=data)["datasets"]["dp"]
        assert [row["guarantee"] for row in rows] == [0.2, 2.0, 20.0]


def test_every_dp_attack_stays_inside_the_region_up_to_sampling_error() -> None:
    """The page says so from the empirical bounds; here the pooled ROC is checked too."""
    headline = views(summary())["readouts"]
    assert headline["dp_checked"] == 2 * 3 * 9
    for data in ("concrete", "housing"):
        for epsilon in (0.1, 1.0, 10.0):
            for item in value(ae.generator_key(data, f"dp-bayes-net-{epsilon:g}"))["dp"]:
                fprs, tprs = np.array(ROC_FPRS, dtype=float), np.array(item["tpr"], dtype=float)
                g = 2 * epsilon
                upper = np.minimum(math.exp(g) * fprs, 1 - math.exp(-g) * (1 - fprs))
                lower = np.maximum(math.exp(-g) * fprs, 1 - math.exp(g) * (1 - fprs))
                # 10 seeds × 150 (or 250) members: a mean TPR has a standard error below 0.013.
                outside = np.max(np.maximum(tprs - upper, lower - tprs))
                assert outside < 4 * 0.013, (data, epsilon, item["attack"])
    inside = sum(
        item["bound"] <= 2 * epsilon
        for data in ("concrete", "housing")
        for epsilon in (0.1, 1.0, 10.0)
        for item in value(ae.generator_key(data, f"dp-bayes-net-{epsilon:g}"))["dp"]
    )
    assert headline["dp_inside"] == inside


def test_the_real_generators_table_compares_gen_lra_with_the_strongest_rival() -> None:
    for data in ("concrete", "housing"):
        rows = views(summary(), data=data)["datasets"]["generators"]
        assert len(rows) == len(ae.SETTINGS)
        for row, setting in zip(rows, ae.SETTINGS, strict=True):
            aucs = value(ae.generator_key(data, setting.key))["auc"]
            rivals = {a: np.asarray(aucs[a]) for a in RIVALS}
            strongest = max(rivals, key=lambda a: rivals[a].mean())
            assert row["rival"] == ae.NAMES[strongest]
            low, high = stats.ttest_rel(aucs["gen_lra"], rivals[strongest]).confidence_interval()
            assert row["lead"] == f"[{low:+.3f}, {high:+.3f}]".replace("-", "−")


# --- The page ---------------------------------------------------------------------------------


def test_the_korean_page_holds_at_most_twelve_thousand_characters_of_reading(
    course_site: tuple[Path, BuildReport],
) -> None:
    site, _ = course_site
    html = (site / f"{SLUG}.html").read_text("utf-8")
    assert reading_length(html) <= READING_LIMIT


DIRECTIVE = re.compile(r"\{\{< (chart|table|controls|showme|readout) ([^>]*?) >\}\}")


def test_both_languages_place_the_same_figures_controls_and_readouts_in_the_same_order() -> None:
    placed = {}
    for lang in ("ko", "en"):
        text = (REPO / "content" / lang / f"{SLUG}.md").read_text("utf-8")
        placed[lang] = [
            (kind, arguments.split()[0] if kind == "readout" else arguments)
            for kind, arguments in DIRECTIVE.findall(text)
            if kind != "readout"
        ]
        placed[f"{lang} readouts"] = sorted(
            arguments.split()[0] for kind, arguments in DIRECTIVE.findall(text) if kind == "readout"
        )
    assert placed["ko"] == placed["en"]
    assert placed["ko readouts"] == placed["en readouts"]
