"""Lesson 02: its split and model, every grid point, the page data and the charts.

The science it calls is tested on its own in ``test_mlp.py`` (data and training),
``test_histogram.py`` and ``test_loss_attack.py`` (scores and metrics); the linked figure in
the browser in ``test_browser_membership.py``.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import vl_convert
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sklearn_roc_curve

from privacy_explorer.charts import chart_spec, named_datasets
from privacy_explorer.compute.attacks import auc_error, metrics
from privacy_explorer.compute.lessons import membership as mi
from privacy_explorer.compute.lessons import membership_charts
from privacy_explorer.compute.lessons.membership_noise import AucStep, auc_drop_readouts
from privacy_explorer.compute.mlp import loss_scores, train_with_snapshots
from privacy_explorer.lesson import Chart
from privacy_explorer.runner import json_ready

REPO = Path(__file__).resolve().parent.parent


def sklearn_auc(members: list[float], nonmembers: list[float]) -> float:
    labels = [1] * len(members) + [0] * len(nonmembers)
    return float(roc_auc_score(labels, -np.asarray(members + nonmembers)))


@pytest.mark.parametrize(("members", "nonmembers"), [(1, 1), (2, 3), (4, 4), (5, 3)])
def test_the_chance_band_is_the_exact_null_spread_of_the_auc(members: int, nonmembers: int):
    """Every way to place the members' ranks among all ranks is equally likely without signal."""
    total = members + nonmembers
    aucs = []
    for ranks in itertools.combinations(range(1, total + 1), members):
        u = sum(ranks) - members * (members + 1) / 2
        aucs.append(u / (members * nonmembers))
    assert metrics.chance_auc_spread(members, nonmembers) == pytest.approx(
        float(np.std(aucs)), rel=1e-12
    )


def test_the_split_is_the_documented_one():
    data = mi.lesson_data()
    training = np.random.default_rng(mi.SPLIT_SEED).permutation(data.deduplication.rows)
    half = data.deduplication.rows // 2
    assert data.member_rows == tuple(training[: mi.MEMBER_COUNT])
    assert data.nonmember_rows == tuple(training[half:][: mi.NONMEMBER_COUNT])


def test_thin_curve_keeps_both_ends_and_at_most_the_limit():
    fpr = np.linspace(0, 1, 321)
    kept = mi.thin_curve(fpr, fpr, 100)
    assert kept[0] == 0 and kept[-1] == 320 and len(kept) <= 100
    assert kept == sorted(set(kept))
    assert mi.thin_curve(fpr[:50], fpr[:50], 100) == list(range(50))


def test_the_memoized_trajectory_is_the_snapshot_training():
    direct = train_with_snapshots(mi.lesson_data(), 3, mi.EPOCHS[:5], mi.SETTINGS)
    for a, b in zip(direct, mi.training_trajectory(3)[:5], strict=True):
        assert a.epochs == b.epochs
        np.testing.assert_array_equal(a.member_losses, b.member_losses)
        np.testing.assert_array_equal(a.nonmember_losses, b.nonmember_losses)


# --- Every grid point ---------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> dict[tuple[int, int], dict[str, Any]]:
    """Every (epochs, seed) at the default threshold and ε."""
    return {(e, s): mi.compute(epochs=e, seed=s) for e in mi.EPOCHS for s in mi.SEEDS}


def test_grid_is_the_documented_one():
    assert mi.GRID.names == ("epochs", "seed", "threshold", "dp_epsilon")
    assert len(mi.GRID) == 11 * 3 * 9 * 4
    epochs = [int(value) for value in mi.GRID.param("epochs").values]
    assert epochs[0] == 1 and epochs[-1] >= 2000 and list(epochs) == sorted(epochs)
    ratios = np.diff(np.log10(epochs))
    assert ratios.min() > 0.2 and ratios.max() < 0.5  # roughly log-spaced
    assert len(mi.GRID.param("seed").values) >= 3
    assert mi.GRID.param("epochs").resolved_widget == "slider"
    assert mi.GRID.default == {
        "epochs": mi.DEFAULT_EPOCHS,
        "seed": mi.DEFAULT_SEED,
        "threshold": 30.0,
        "dp_epsilon": 1.0,
    }
    assert mi.GRID.param("threshold").resolved_widget == "slider"
    assert mi.GRID.param("dp_epsilon").resolved_widget == "choice"


def test_every_result_is_finite_json_with_the_declared_readouts(results):
    names = {readout.name for readout in mi.READOUTS}
    for result in results.values():
        assert json_ready(result, "result") == result  # the build's own check: finite JSON
        assert set(result["readouts"]) == names


def test_compute_is_deterministic(results):
    again = mi.compute(epochs=50, seed=2)
    assert json.dumps(again, sort_keys=True) == json.dumps(results[(50, 2)], sort_keys=True)


def rounded(value: float) -> float:
    return float(f"{value:.6g}") + 0.0  # six significant digits, as the page's chart rows


def test_every_page_value_is_what_the_library_returns(results):
    data = mi.lesson_data()
    for (epochs, seed), result in results.items():
        snapshot = next(s for s in mi.training_trajectory(seed) if s.epochs == epochs)
        members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
        readouts, datasets = result["readouts"], result["datasets"]
        smallest = 1 / mi.NONMEMBER_COUNT
        assert readouts["auc"] == metrics.auc(loss_scores(members), loss_scores(nonmembers))
        assert readouts["auc"] == pytest.approx(
            sklearn_auc(members.tolist(), nonmembers.tolist()), abs=1e-12
        )
        assert readouts["member_rmse"] == math.sqrt(np.mean(members))
        assert readouts["nonmember_rmse"] == math.sqrt(np.mean(nonmembers))
        assert readouts["smallest_fpr"] == smallest == 1 / 160
        assert readouts["tpr_at_smallest_fpr"] == metrics.max_tpr_at_fpr(
            loss_scores(members), loss_scores(nonmembers), smallest
        )
        labels = [1] * members.size + [0] * nonmembers.size
        fpr, tpr, _ = sklearn_roc_curve(
            labels, -np.concatenate([members, nonmembers]), drop_intermediate=False
        )
        assert readouts["tpr_at_smallest_fpr"] == tpr[fpr <= smallest].max()
        assert readouts["members_caught"] == round(readouts["tpr_at_smallest_fpr"] * 160)
        assert readouts["best_accuracy"] == metrics.best_threshold_accuracy(
            loss_scores(members), loss_scores(nonmembers)
        )
        assert readouts["member_median_loss"] == np.median(members)
        assert readouts["epochs"] == epochs
        report = data.deduplication
        assert (readouts["raw_rows"], readouts["distinct_rows"]) == (report.raw_rows, report.rows)
        assert readouts["member_count"] == mi.MEMBER_COUNT == members.size

        fpr, tpr = metrics.roc_curve(loss_scores(members), loss_scores(nonmembers))
        kept = mi.thin_curve(fpr, tpr)
        assert len(datasets["roc"]) == len(kept) <= 100
        assert datasets["roc"] == [{"fpr": rounded(fpr[i]), "tpr": rounded(tpr[i])} for i in kept]
        assert datasets["roc"][0] == {"fpr": 0.0, "tpr": 0.0}
        assert datasets["roc"][-1] == {"fpr": 1.0, "tpr": 1.0}
        assert datasets["operating_point"] == [
            {"fpr": rounded(smallest), "tpr": rounded(readouts["tpr_at_smallest_fpr"])}
        ]

        trajectory = mi.training_trajectory(seed)
        aucs = [
            metrics.auc(loss_scores(s.member_losses), loss_scores(s.nonmember_losses))
            for s in trajectory
        ]
        assert [row["auc"] for row in datasets["auc_curve"]] == [rounded(a) for a in aucs]
        assert [row["epochs"] for row in datasets["auc_curve"]] == list(mi.EPOCHS)
        current = datasets["auc_curve"][mi.EPOCHS.index(epochs)]
        assert current["auc"] == rounded(readouts["auc"])
        assert readouts["peak_auc"] == max(aucs) and readouts["final_auc"] == aucs[-1]
        assert readouts["epoch_steps"] == len(mi.EPOCHS) - 1
        assert readouts["auc_drops"] == sum(b < a for a, b in itertools.pairwise(aucs))
        assert readouts["auc_se"] == auc_error.auc_standard_error(
            loss_scores(members), loss_scores(nonmembers)
        )
        steps = mi.seed_auc_steps(seed)
        assert [step.change for step in steps] == pytest.approx(
            [b - a for a, b in itertools.pairwise(aucs)], abs=1e-12
        )
        assert readouts["auc_real_drops"] == sum(
            step.change < -readouts["noise_multiple"] * step.standard_error for step in steps
        )
        by_group = {(row["epochs"], row["group"]): row["rmse"] for row in datasets["curves"]}
        assert by_group[(epochs, "member")] == rounded(readouts["member_rmse"])
        assert by_group[(epochs, "nonmember")] == rounded(readouts["nonmember_rmse"])


def test_the_auc_verdict_follows_the_computed_falls(results):
    """Issue 23: the page may call a fall real only when it exceeds its noise; on this grid
    no fall does, and the sentence says so for every seed."""
    for seed in mi.SEEDS:
        readouts = results[(mi.DEFAULT_EPOCHS, seed)]["readouts"]
        assert readouts["auc_real_drops"] == 0
        assert "no drop beyond noise" in readouts["auc_drop_verdict"]["en"]
        assert "잡음을 넘어서는 하락이 보이지 않는다" in readouts["auc_drop_verdict"]["ko"]
        # The clearest fall it quotes is one of this seed's steps, printed as computed.
        falls = [step for step in mi.seed_auc_steps(seed) if step.change < 0]
        clearest = max(falls, key=lambda step: -step.change / step.standard_error)
        assert f"by {-clearest.change:.4f}" in readouts["auc_drop_verdict"]["en"]
        assert f"{clearest.standard_error:.4f}" in readouts["auc_drop_verdict"]["ko"]


def step(change: float, error: float, before: int = 10, after: int = 20) -> AucStep:
    return AucStep(before, after, change, error)


def test_a_grid_with_a_real_decline_changes_the_wording():
    noisy = [step(0.05, 0.02), step(-0.01, 0.02, 20, 50)]
    declining = [*noisy, step(-0.09, 0.03, 50, 100)]
    rising = [step(0.05, 0.02), step(0.01, 0.01, 20, 50)]
    quiet, real, none = (auc_drop_readouts(steps) for steps in (noisy, declining, rising))
    assert (quiet["auc_drops"], quiet["auc_real_drops"]) == (1, 0)
    assert (real["auc_drops"], real["auc_real_drops"]) == (2, 1)
    assert (none["auc_drops"], none["auc_real_drops"]) == (0, 0)
    assert "no drop beyond noise" in quiet["auc_drop_verdict"]["en"]
    assert "from 20 to 50 epochs, by 0.0100, 0.5 times" in quiet["auc_drop_verdict"]["en"]
    en, ko = real["auc_drop_verdict"]["en"], real["auc_drop_verdict"]["ko"]
    assert "beyond noise" not in en and "really did weaken the attack" in en
    assert en.startswith("1 of these falls exceeds 2 standard errors of its paired change.")
    assert "from 50 to 100 epochs, by 0.0900, 3.0 times" in en
    assert ko.startswith("이 가운데 1번은") and "실제로 공격을 약하게" in ko
    assert none["auc_drop_verdict"]["en"].startswith("No step lowered the AUC")
    # Exactly two standard errors is still noise: a real drop must exceed them.
    assert auc_drop_readouts([step(-0.04, 0.02)])["auc_real_drops"] == 0
    assert auc_drop_readouts([step(-0.0401, 0.02)])["auc_real_drops"] == 1


def test_curves_are_shared_by_every_epoch_of_a_seed(results):
    for seed in mi.SEEDS:
        first = results[(mi.EPOCHS[0], seed)]["datasets"]
        for epochs in mi.EPOCHS[1:]:
            other = results[(epochs, seed)]["datasets"]
            assert other["curves"] == first["curves"]
            assert other["auc_curve"] == first["auc_curve"]


def test_the_lesson_shows_the_phenomenon(results):
    # The page's story must hold for every seed: training error falls below test
    # error, and the attack moves from chance to clearly better than chance.
    for seed in mi.SEEDS:
        start, end = results[(1, seed)]["readouts"], results[(max(mi.EPOCHS), seed)]["readouts"]
        assert abs(start["auc"] - 0.5) < 2 * start["chance_spread"]
        assert end["member_rmse"] < end["nonmember_rmse"] / 2
        assert end["auc"] > 0.75
        # A high AUC is not a sharp attack: few members are caught at the smallest FPR.
        assert end["tpr_at_smallest_fpr"] < 0.2
        last = results[(max(mi.EPOCHS), seed)]["datasets"]
        # The two groups' losses coincide at first; at the end the members' move far to the
        # left (a tenth of the non-members' median) while the non-members' stay spread out
        # (their middle 80 % spans more than two powers of ten).
        ratio = start["nonmember_median_loss"] / start["member_median_loss"]
        assert 0.8 < ratio < 1.25
        assert end["nonmember_median_loss"] > 10 * end["member_median_loss"]
        snapshot = mi.training_trajectory(seed)[-1]
        low, high = np.quantile(snapshot.nonmember_losses, [0.1, 0.9])
        assert high > 100 * low
        # The non-members' error stops falling: its last value is above its minimum.
        nonmember = [row["rmse"] for row in last["curves"] if row["group"] == "nonmember"]
        assert nonmember[-1] > min(nonmember)
    # The AUC chart's axis starts at AUC_AXIS_LOWER: no point may fall below it.
    lowest = min(r["readouts"]["auc"] for r in results.values())
    assert lowest > membership_charts.AUC_AXIS_LOWER


def test_readouts_read_well_in_both_languages(results):
    for result in results.values():
        for readout in mi.READOUTS:
            for lang in ("ko", "en"):
                text = readout.text(result["readouts"][readout.name], lang)
                assert text and "nan" not in text.lower() and "e+" not in text


# --- Charts -------------------------------------------------------------------


@pytest.mark.parametrize("chart", mi.CHARTS, ids=lambda chart: chart.name)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_chart_reads_only_provided_datasets_and_renders(chart: Chart, lang: str, results):
    spec = chart.build(lang).to_dict()
    summary = mi.summarize({f"{e}-{s}": result for (e, s), result in results.items()})
    provided = {**results[(mi.DEFAULT_EPOCHS, mi.DEFAULT_SEED)]["datasets"], **summary}
    assert set(named_datasets(spec)) <= set(provided)
    assert "param_" not in json.dumps(spec)
    assert chart.description["ko"] and chart.description["en"]
    spec["datasets"] = provided
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


@pytest.mark.parametrize("chart", [membership_charts.rmse_chart, membership_charts.auc_chart])
def test_curve_charts_follow_the_epochs_param(chart):
    spec = chart("en", mi.EPOCHS, mi.DEFAULT_EPOCHS).to_dict()
    assert {"name": "epochs", "value": mi.DEFAULT_EPOCHS} in spec["params"]
    assert "(datum.epochs === epochs)" in json.dumps(spec)


# --- The threshold control and the ε-DP bound --------------------------------------


@pytest.fixture(scope="module")
def threshold_results() -> dict[tuple[int, int, float, float], dict[str, Any]]:
    """Every grid point (the model's part is memoized per epochs and seed)."""
    points: list[dict[str, Any]] = list(mi.GRID)
    return {
        (p["epochs"], p["seed"], p["threshold"], p["dp_epsilon"]): mi.compute(**p) for p in points
    }


def test_threshold_rates_are_a_direct_count_and_a_point_of_sklearns_roc(threshold_results):
    labels = np.r_[np.ones(mi.MEMBER_COUNT), np.zeros(mi.NONMEMBER_COUNT)]
    for (epochs, seed, threshold, _), result in threshold_results.items():
        snapshot = next(s for s in mi.training_trajectory(seed) if s.epochs == epochs)
        members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
        readouts = result["readouts"]
        assert readouts["threshold_members"] == np.sum(members <= threshold)
        assert readouts["threshold_nonmembers"] == np.sum(nonmembers <= threshold)
        assert readouts["threshold_tpr"] == np.mean(members <= threshold)
        assert readouts["threshold_fpr"] == np.mean(nonmembers <= threshold)
        # scikit-learn: the ROC corner of the lowest score threshold at or above −t.
        fpr, tpr, cut = sklearn_roc_curve(
            labels, -np.r_[members, nonmembers], drop_intermediate=False
        )
        corner = np.flatnonzero(cut >= -threshold)[-1]
        assert (readouts["threshold_fpr"], readouts["threshold_tpr"]) == pytest.approx(
            (fpr[corner], tpr[corner]), abs=1e-12
        )
        # The figure draws t's point from the row of every threshold that t picks.
        choices = result["datasets"]["threshold_choices"]
        assert [row["threshold"] for row in choices] == list(mi.THRESHOLDS)
        row = choices[mi.THRESHOLDS.index(threshold)]
        assert row == {
            "threshold": threshold,
            "fpr": rounded(fpr[corner]),
            "tpr": rounded(tpr[corner]),
        }


def test_the_bars_left_of_the_threshold_are_exactly_the_losses_it_calls_members(
    threshold_results,
):
    assert set(mi.THRESHOLDS) <= set(mi.LOSS_EDGES)  # a threshold always sits on a bin edge
    for (epochs, seed, threshold, _), result in threshold_results.items():
        snapshot = next(s for s in mi.training_trajectory(seed) if s.epochs == epochs)
        losses = np.r_[snapshot.member_losses, snapshot.nonmember_losses]
        # No loss lies outside the fixed axis, so no bin had to absorb one.
        assert mi.LOSS_EDGES[0] < losses.min() and losses.max() <= mi.LOSS_EDGES[-1]
        rows = result["datasets"]["loss_bins"]
        assert len(rows) == 2 * (len(mi.LOSS_EDGES) - 1)
        readouts = result["readouts"]
        for group, size, caught in (
            ("member", mi.MEMBER_COUNT, readouts["threshold_members"]),
            ("nonmember", mi.NONMEMBER_COUNT, readouts["threshold_nonmembers"]),
        ):
            counts = [row for row in rows if row["group"] == group]
            assert sum(row["count"] for row in counts) == size
            assert sum(row["count"] for row in counts if row["upper"] <= threshold) == caught


def test_the_dp_bound_is_the_closed_form_and_counts_the_corners_above_it(threshold_results):
    """Both bounds: e^ε for worlds one neighbour step apart, e^{2ε} for the replacement that
    this fixed-size split makes of "record out" under add/remove neighbours (issue 23)."""
    labels = np.r_[np.ones(mi.MEMBER_COUNT), np.zeros(mi.NONMEMBER_COUNT)]
    for (epochs, seed, _, epsilon), result in threshold_results.items():
        readouts, rows = result["readouts"], result["datasets"]["dp_bound"]
        snapshot = next(s for s in mi.training_trajectory(seed) if s.epochs == epochs)
        scores = -np.r_[snapshot.member_losses, snapshot.nonmember_losses]
        roc_fpr, roc_tpr, _ = sklearn_roc_curve(labels, scores, drop_intermediate=False)
        fpr = readouts["threshold_fpr"]
        for relation, steps, suffix, corners in (
            ("one_step", 1, "", "roc_points_above_bound"),
            ("two_steps", 2, "_two_steps", "roc_points_above_two_step_bound"),
        ):
            growth = np.exp(steps * epsilon)
            assert [
                (row["fpr"], row["tpr"], row["epsilon"])
                for row in rows
                if row["relation"] == relation
            ] == [
                (0.0, 0.0, steps * epsilon),
                (rounded(1 / (1 + growth)), rounded(growth / (1 + growth)), steps * epsilon),
                (1.0, 1.0, steps * epsilon),
            ]
            allowed = min(growth * fpr, 1 - (1 - fpr) / growth)
            assert readouts[f"dp_bound_tpr{suffix}"] == pytest.approx(allowed, abs=1e-12)
            above = readouts["threshold_tpr"] > allowed + 1e-12
            verdict = "outside" if above else "inside"
            assert (
                readouts[f"dp_threshold_verdict{suffix}"]["en"] == f"{verdict} the allowed region"
            )
            assert readouts[f"dp_ratio{suffix}"] == pytest.approx(growth, rel=1e-12)
            bound = np.minimum(growth * roc_fpr, 1 - (1 - roc_fpr) / growth)
            assert readouts[corners] == np.sum(roc_tpr > bound + 1e-12)
        # The doubled ε allows more, so never more corners lie above its bound.
        assert readouts["roc_points_above_two_step_bound"] <= readouts["roc_points_above_bound"]


def test_the_threshold_story_holds_on_the_default_model(threshold_results):
    # At the default point the curve leaves the region that ε = 1 allows, and fewer of its
    # corners do so at ε = 2.
    default = (mi.DEFAULT_EPOCHS, mi.DEFAULT_SEED, mi.DEFAULT_THRESHOLD)
    at_one = threshold_results[(*default, 1.0)]["readouts"]
    at_two = threshold_results[(*default, 2.0)]["readouts"]
    assert at_one["roc_points_above_bound"] > at_two["roc_points_above_bound"]
    assert at_one["roc_points_above_bound"] > 0
    # Sliding t to the right only ever raises both rates (the page's first bullet).
    for epochs, seed in itertools.product(mi.EPOCHS, mi.SEEDS):
        rates = [threshold_results[(epochs, seed, t, 1.0)]["readouts"] for t in mi.THRESHOLDS]
        for key in ("threshold_tpr", "threshold_fpr"):
            assert [r[key] for r in rates] == sorted(r[key] for r in rates)


def test_compute_refuses_points_outside_the_grid():
    with pytest.raises(ValueError, match="seed must be one of 1, 2, 3, got 9"):
        mi.compute(epochs=10, seed=9)
    with pytest.raises(ValueError, match="epochs must be one of 1, 2, 5"):
        mi.compute(epochs=7, seed=1)
    with pytest.raises(ValueError, match=r"threshold must be one of 0\.1, 0\.3, 1\.0"):
        mi.compute(epochs=10, seed=1, threshold=0.2)
    with pytest.raises(ValueError, match=r"dp_epsilon must be one of 0\.1, 0\.5, 1\.0, 2\.0"):
        mi.compute(epochs=10, seed=1, dp_epsilon=5.0)


def test_the_low_fpr_table_covers_the_grid_and_agrees_with_scikit_learn(results):
    table = mi.summarize({f"{e}-{s}": result for (e, s), result in results.items()})
    rows = table["low_fpr_grid"]
    assert [row["epochs"] for row in rows] == list(mi.EPOCHS)
    for row in rows:
        for seed in mi.SEEDS:
            snapshot = next(s for s in mi.training_trajectory(seed) if s.epochs == row["epochs"])
            members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
            labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
            fpr, tpr, _ = sklearn_roc_curve(labels, -np.r_[members, nonmembers])
            expected = tpr[fpr <= 1 / nonmembers.size + 1e-12].max()
            assert row[f"seed_{seed}"] == pytest.approx(expected), (row["epochs"], seed)
    # Issue 15: the TPR at the smallest FPR is not low everywhere (seed 3, 2,000 epochs).
    assert rows[-1]["seed_3"] == pytest.approx(18 / 160)


def test_the_per_seed_low_fpr_readouts_summarize_that_seed_of_the_table(results):
    rows = mi.summarize({f"{e}-{s}": r for (e, s), r in results.items()})["low_fpr_grid"]
    for (_, seed), result in results.items():
        readouts = result["readouts"]
        column = [row[f"seed_{seed}"] for row in rows]
        assert readouts["seed_best_low_tpr"] == max(column)
        best = rows[column.index(max(column))]["epochs"]
        assert readouts["seed_best_low_tpr_epochs"] == best
        assert readouts["seed_low_tpr_after_one_epoch"] == column[0]
        # The MSE gap is the gap of the mean squared losses, the RMSE gap that of their roots.
        assert readouts["mse_gap"] == pytest.approx(
            readouts["nonmember_rmse"] ** 2 - readouts["member_rmse"] ** 2
        )
    assert next(iter(results.values()))["readouts"]["zero_fp_chance"] == pytest.approx(0.05)


def test_the_generalization_scatter_is_every_model_gap_and_auc_by_scikit_learn(results):
    rows = mi.summarize({f"{e}-{s}": result for (e, s), result in results.items()})[
        "generalization"
    ]
    assert [(row["epochs"], row["seed"]) for row in rows] == [
        (epochs, seed) for seed in mi.SEEDS for epochs in mi.EPOCHS
    ]
    for row in rows:
        snapshot = next(s for s in mi.training_trajectory(row["seed"]) if s.epochs == row["epochs"])
        members, nonmembers = snapshot.member_losses, snapshot.nonmember_losses
        labels = np.r_[np.ones(members.size), np.zeros(nonmembers.size)]
        expected_auc = roc_auc_score(labels, -np.r_[members, nonmembers])
        assert row["auc"] == pytest.approx(expected_auc, rel=1e-5)
        expected_gap = float(np.mean(nonmembers) - np.mean(members))
        assert row["mse_gap"] == pytest.approx(expected_gap, rel=1e-5, abs=1e-6)


def test_the_generalization_scatter_marks_the_current_model():
    spec = membership_charts.generalization_chart("en", mi.DEFAULT_EPOCHS).to_dict()
    assert {"name": "epochs", "value": mi.DEFAULT_EPOCHS} in spec["params"]
    assert {"name": "seed", "value": mi.DEFAULT_SEED} in spec["params"]
    assert "(datum.seed === seed)" in json.dumps(spec)


def test_the_attack_figure_is_one_chart_whose_marks_set_the_threshold():
    """Issue 22 §3: the histogram and the ROC curve are one figure; a press on either moves t
    (the mark control's field is the threshold, whose rows hold exactly the grid values), and
    the figure follows the slider through the Vega-Lite parameter ``threshold``."""
    attack = next(chart for chart in mi.CHARTS if chart.name == "attack")
    for lang in ("ko", "en"):
        spec = chart_spec(attack, lang, mi.GRID, Path(mi.__file__), REPO)
        assert spec.marks == (("threshold", "threshold"),)
        assert spec.signals == ("threshold",)
        assert {"threshold_choices", "loss_bins", "roc", "dp_bound"} <= set(spec.datasets)
        params = {param["name"]: param for param in spec.spec["params"]}
        assert params["threshold"]["value"] == mi.DEFAULT_THRESHOLD
        views = params["threshold_by_mark"]["views"]
        named = [layer.get("name") for panel in spec.spec["hconcat"] for layer in panel["layer"]]
        assert len(views) == 2 and set(views) <= set(named)
        roc = spec.spec["hconcat"][1]
        assert roc["width"] == roc["height"] == membership_charts.ROC_SIZE <= 300
        for panel in spec.spec["hconcat"]:
            assert panel["title"]["subtitle"], "every panel states its takeaway"
