"""Lesson 02: deduplication and split, snapshot training, the loss attack, every grid point."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from typing import Any

import numpy as np
import pytest
import vl_convert
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sklearn_roc_curve

from compute import membership as mi
from compute.datasets import load_concrete
from privacy_explorer.charts import named_datasets
from privacy_explorer.lesson import Chart
from privacy_explorer.runner import json_ready

HYPOTHESIS = settings(database=None, deadline=None, max_examples=300)

# Few distinct values, so that ties between and within the groups are common.
tied_losses = st.lists(
    st.sampled_from([0.0, 0.5, 1.0, 2.0, 2.5, 7.0, 100.0]), min_size=1, max_size=40
)
any_losses = st.lists(
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=60
)


def sklearn_auc(members: list[float], nonmembers: list[float]) -> float:
    labels = [1] * len(members) + [0] * len(nonmembers)
    return float(roc_auc_score(labels, -np.asarray(members + nonmembers)))


# --- The AUC ------------------------------------------------------------------


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_auc_equals_scikit_learn_with_many_ties(members: list[float], nonmembers: list[float]):
    assert mi.loss_attack_auc(members, nonmembers) == pytest.approx(
        sklearn_auc(members, nonmembers), abs=1e-12
    )


@HYPOTHESIS
@given(members=any_losses, nonmembers=any_losses)
def test_auc_equals_scikit_learn(members: list[float], nonmembers: list[float]):
    assert mi.loss_attack_auc(members, nonmembers) == pytest.approx(
        sklearn_auc(members, nonmembers), abs=1e-12
    )


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_auc_is_the_pairwise_probability(members: list[float], nonmembers: list[float]):
    pairs = [(m, n) for m in members for n in nonmembers]
    expected = sum((m < n) + 0.5 * (m == n) for m, n in pairs) / len(pairs)
    assert mi.loss_attack_auc(members, nonmembers) == pytest.approx(expected, abs=1e-12)


def test_auc_boundary_cases():
    assert mi.loss_attack_auc([0.1, 0.2, 0.3], [1.0, 2.0]) == 1.0
    assert mi.loss_attack_auc([1.0, 2.0], [0.1, 0.2, 0.3]) == 0.0
    assert mi.loss_attack_auc([4.0, 4.0], [4.0, 4.0, 4.0]) == 0.5
    assert mi.loss_attack_auc([1.0], [1.0]) == 0.5
    # One tie among four pairs: (3 wins + ½) / 4.
    assert mi.loss_attack_auc([1.0, 2.0], [2.0, 3.0]) == 0.875


def test_auc_refuses_empty_or_non_finite_losses():
    with pytest.raises(ValueError, match="member_losses must not be empty"):
        mi.loss_attack_auc([], [1.0])
    with pytest.raises(ValueError, match="nonmember_losses must be finite numbers"):
        mi.loss_attack_auc([1.0], [math.nan])


@HYPOTHESIS
@given(values=st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=1, max_size=30))
def test_average_ranks_agree_with_scipy(values: list[float]):
    from scipy.stats import rankdata

    np.testing.assert_array_equal(mi.average_ranks(values), rankdata(values, method="average"))


# --- ROC and TPR at low FPR ---------------------------------------------------


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses)
def test_roc_curve_matches_scikit_learn(members: list[float], nonmembers: list[float]):
    fpr, tpr = mi.roc_curve(members, nonmembers)
    labels = [1] * len(members) + [0] * len(nonmembers)
    reference_fpr, reference_tpr, _ = sklearn_roc_curve(
        labels, -np.asarray(members + nonmembers), drop_intermediate=False
    )
    np.testing.assert_allclose(fpr, reference_fpr, atol=1e-12)
    np.testing.assert_allclose(tpr, reference_tpr, atol=1e-12)
    # The trapezoids under the exact curve give the AUC, ties included.
    assert np.trapezoid(tpr, fpr) == pytest.approx(mi.loss_attack_auc(members, nonmembers))


@HYPOTHESIS
@given(members=tied_losses, nonmembers=tied_losses, tries=st.integers(1, 5))
def test_tpr_at_fpr_matches_scikit_learn(members: list[float], nonmembers: list[float], tries):
    labels = [1] * len(members) + [0] * len(nonmembers)
    fpr, tpr, _ = sklearn_roc_curve(
        labels, -np.asarray(members + nonmembers), drop_intermediate=False
    )
    level = tries / len(nonmembers)
    assert mi.tpr_at_fpr(members, nonmembers, level) == tpr[fpr <= level + 1e-12].max()


def test_tpr_at_one_false_positive_by_hand():
    # Non-member losses 1 and 5: a threshold between them lets exactly one non-member in.
    members = [0.5, 0.7, 2.0, 3.0, 9.0]
    nonmembers = [1.0, 5.0]
    assert mi.tpr_at_fpr(members, nonmembers, 0.0) == 0.4  # 0.5 and 0.7 only
    assert mi.tpr_at_fpr(members, nonmembers, 0.5) == 0.8  # up to 3.0, before 5.0


def test_thin_curve_keeps_both_ends_and_at_most_the_limit():
    fpr = np.linspace(0, 1, 321)
    kept = mi.thin_curve(fpr, fpr, 100)
    assert kept[0] == 0 and kept[-1] == 320 and len(kept) <= 100
    assert kept == sorted(set(kept))
    assert mi.thin_curve(fpr[:50], fpr[:50], 100) == list(range(50))


def test_best_accuracy_and_chance_helpers():
    assert mi.best_threshold_accuracy([0.1, 0.2], [1.0, 2.0]) == 1.0
    assert mi.best_threshold_accuracy([1.0, 1.0], [1.0, 1.0]) == 0.5
    assert mi.chance_auc_spread(160, 160) == pytest.approx(math.sqrt(321 / (12 * 160 * 160)))
    bound = mi.zero_fpr_upper_bound(160)
    assert (1 - bound) ** 160 == pytest.approx(0.05)
    assert 2.9 / 160 < bound < 3.0 / 160


# --- Histograms ---------------------------------------------------------------


def test_common_histogram_shares_edges_and_counts_overflow():
    histogram = mi.common_histogram([0.0, 0.5, 9.99, 10.0, 250.0], [3.0, 11.0, 1e9], 4, 30.0)
    np.testing.assert_array_equal(histogram.edges, [0.0, 10.0, 20.0, 30.0])
    assert histogram.upper == 30.0
    assert histogram.counts_a.tolist() == [3, 1, 0, 1]  # 10.0 opens the second bin
    assert histogram.counts_b.tolist() == [1, 1, 0, 1]  # 1e9 lands in the last bin


@HYPOTHESIS
@given(a=any_losses, b=any_losses, bins=st.integers(2, 20), upper=st.floats(0.5, 1e5))
def test_common_histogram_keeps_every_value(a: list[float], b: list[float], bins: int, upper):
    histogram = mi.common_histogram(a, b, bins, upper)
    assert histogram.edges.size == bins
    assert histogram.counts_a.sum() == len(a) and histogram.counts_b.sum() == len(b)
    assert histogram.counts_a[-1] == sum(v >= histogram.upper for v in a)
    assert histogram.counts_b[-1] == sum(v >= histogram.upper for v in b)


def test_common_histogram_refuses_bad_input():
    with pytest.raises(ValueError, match="bins must be at least 2"):
        mi.common_histogram([1.0], [1.0], 1, 10.0)
    with pytest.raises(ValueError, match=r"upper must be a finite number above lower=0\.0"):
        mi.common_histogram([1.0], [1.0], 4, 0.0)
    with pytest.raises(ValueError, match=r"sample b has values below 0\.0 or NaN"):
        mi.common_histogram([1.0], [-1.0], 4, 10.0)


@pytest.mark.parametrize(
    "value, expected", [(0.7, 1.0), (1.0, 1.0), (1.2, 2.0), (2.2, 2.5), (3.0, 5.0), (6.0, 10.0)]
)
def test_nice_ceiling(value: float, expected: float):
    assert mi.nice_ceiling(value) == expected
    assert mi.nice_ceiling(value * 100) == expected * 100


def test_histogram_upper_reaches_the_quantile_with_nice_bins():
    losses = np.arange(1.0, 101.0)
    upper = mi.histogram_upper(losses, bins=11, quantile=0.9)
    assert upper >= np.quantile(losses, 0.9)
    assert upper == 100.0  # width 10, the nice ceiling of 90.1 / 10


# --- Data: deduplication and split --------------------------------------------


@pytest.fixture(scope="module")
def data() -> mi.MembershipData:
    return mi.lesson_data()


def test_deduplication_leaves_one_row_per_input_combination():
    raw = load_concrete()
    table, report = mi.deduplicate(raw)
    inputs = list(mi.INPUT_COLUMNS)
    assert not table.duplicated(subset=inputs).any()
    assert report.rows == len(table) == raw.drop_duplicates(subset=inputs).shape[0]
    assert report.raw_rows == 1030 and report.exact_duplicates == 25
    assert report.raw_rows - report.exact_duplicates - report.merged_rows == report.rows
    assert report.merged_groups == 9  # as data/SOURCES.md documents
    # A merged row carries the mean of the distinct tests of its inputs.
    tests = raw.drop_duplicates().groupby(inputs)[mi.STRENGTH_COLUMN]
    merged = table.set_index(inputs)[mi.STRENGTH_COLUMN]
    for key, strengths in tests:
        assert merged.loc[key] == pytest.approx(strengths.mean())


def test_no_nonmember_shares_its_inputs_with_a_member(data: mi.MembershipData):
    table, _ = mi.deduplicate(load_concrete())
    inputs = table[list(mi.INPUT_COLUMNS)].to_numpy()
    members = {tuple(row) for row in inputs[list(data.member_rows)]}
    nonmembers = {tuple(row) for row in inputs[list(data.nonmember_rows)]}
    assert len(members) == mi.MEMBER_COUNT and len(nonmembers) == mi.NONMEMBER_COUNT
    assert not members & nonmembers
    # The standardized inputs tell the same story.
    member_points = {tuple(row) for row in data.member_inputs}
    assert not member_points & {tuple(row) for row in data.nonmember_inputs}


def test_split_is_the_documented_one(data: mi.MembershipData):
    training, evaluation = mi.split_pools(data.deduplication.rows, mi.SPLIT_SEED)
    order = np.random.default_rng(mi.SPLIT_SEED).permutation(data.deduplication.rows)
    half = data.deduplication.rows // 2
    assert training.tolist() == order[:half].tolist()
    assert evaluation.tolist() == order[half:].tolist()
    assert not set(training) & set(evaluation)
    assert data.member_rows == tuple(training[: mi.MEMBER_COUNT])
    assert data.nonmember_rows == tuple(evaluation[: mi.NONMEMBER_COUNT])
    assert (data.training_pool, data.evaluation_pool) == (training.size, evaluation.size)


def test_membership_data_refuses_groups_larger_than_their_pools():
    with pytest.raises(ValueError, match="600 members and 160 non-members do not fit in pools"):
        mi.membership_data(load_concrete(), members=600)


def test_inputs_are_standardized_with_member_statistics(data: mi.MembershipData):
    np.testing.assert_allclose(data.member_inputs.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(data.member_inputs.std(axis=0), 1.0, atol=1e-12)
    assert abs(data.nonmember_inputs.mean()) > 1e-6  # not re-centred on their own


# --- Training -----------------------------------------------------------------


def test_snapshots_equal_fresh_training_for_the_same_epochs(data: mi.MembershipData):
    snapshots = mi.train_with_snapshots(data, 2, (1, 7, 30))
    assert [s.epochs for s in snapshots] == [1, 7, 30]
    for snapshot in snapshots:
        fresh = mi.new_model(2)
        for _ in range(snapshot.epochs):
            fresh.partial_fit(data.member_inputs, data.member_strengths)
        np.testing.assert_array_equal(
            mi.squared_losses(fresh, data.member_inputs, data.member_strengths),
            snapshot.member_losses,
        )
        np.testing.assert_array_equal(
            mi.squared_losses(fresh, data.nonmember_inputs, data.nonmember_strengths),
            snapshot.nonmember_losses,
        )


def test_one_epoch_equals_fit_with_one_iteration(data: mi.MembershipData):
    # Later epochs differ only in how fit() reshuffles (see the module docstring).
    fresh = mi.new_model(2).set_params(max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter=1 is the point here
        fresh.fit(data.member_inputs, data.member_strengths)
    snapshot = mi.train_with_snapshots(data, 2, (1,))[0]
    np.testing.assert_array_equal(
        mi.squared_losses(fresh, data.member_inputs, data.member_strengths),
        snapshot.member_losses,
    )


def test_the_memoized_trajectory_is_the_snapshot_training(data: mi.MembershipData):
    direct = mi.train_with_snapshots(data, 3, mi.EPOCHS[:5])
    for a, b in zip(direct, mi.training_trajectory(3)[:5], strict=True):
        assert a.epochs == b.epochs
        np.testing.assert_array_equal(a.member_losses, b.member_losses)
        np.testing.assert_array_equal(a.nonmember_losses, b.nonmember_losses)


def test_an_integer_random_state_would_replay_one_batch_order(data: mi.MembershipData):
    # Why new_model passes a RandomState object: with an int, partial_fit re-seeds every call.
    from sklearn.neural_network import MLPRegressor

    replayed = MLPRegressor(**{**mi.new_model(2).get_params(), "random_state": 2})
    for _ in range(3):
        replayed.partial_fit(data.member_inputs, data.member_strengths)
    proper = mi.train_with_snapshots(data, 2, (3,))[0]
    replayed_losses = mi.squared_losses(replayed, data.member_inputs, data.member_strengths)
    assert not np.array_equal(replayed_losses, proper.member_losses)


def test_training_is_deterministic(data: mi.MembershipData):
    first = mi.train_with_snapshots(data, 3, (5, 20))
    second = mi.train_with_snapshots(data, 3, (5, 20))
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a.member_losses, b.member_losses)
        np.testing.assert_array_equal(a.nonmember_losses, b.nonmember_losses)


def test_train_with_snapshots_refuses_bad_epochs(data: mi.MembershipData):
    with pytest.raises(ValueError, match="epochs must be whole numbers >= 1"):
        mi.train_with_snapshots(data, 1, (0, 5))


# --- Every grid point ---------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> dict[tuple[int, int], dict[str, Any]]:
    return {(p["epochs"], p["seed"]): mi.compute(**p) for p in mi.GRID}


def test_grid_is_the_documented_one():
    assert mi.GRID.names == ("epochs", "seed")
    epochs = mi.GRID.param("epochs").values
    assert epochs[0] == 1 and epochs[-1] >= 2000 and list(epochs) == sorted(epochs)
    ratios = np.diff(np.log10(epochs))
    assert ratios.min() > 0.2 and ratios.max() < 0.5  # roughly log-spaced
    assert len(mi.GRID.param("seed").values) >= 3
    assert mi.GRID.param("epochs").resolved_widget == "slider"
    assert mi.GRID.default == {"epochs": mi.DEFAULT_EPOCHS, "seed": mi.DEFAULT_SEED}


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
        assert readouts["auc"] == mi.loss_attack_auc(members, nonmembers)
        assert readouts["auc"] == pytest.approx(
            sklearn_auc(members.tolist(), nonmembers.tolist()), abs=1e-12
        )
        assert readouts["member_rmse"] == math.sqrt(np.mean(members))
        assert readouts["nonmember_rmse"] == math.sqrt(np.mean(nonmembers))
        assert readouts["smallest_fpr"] == smallest == 1 / 160
        assert readouts["tpr_at_smallest_fpr"] == mi.tpr_at_fpr(members, nonmembers, smallest)
        labels = [1] * members.size + [0] * nonmembers.size
        fpr, tpr, _ = sklearn_roc_curve(
            labels, -np.concatenate([members, nonmembers]), drop_intermediate=False
        )
        assert readouts["tpr_at_smallest_fpr"] == tpr[fpr <= smallest].max()
        assert readouts["members_caught"] == round(readouts["tpr_at_smallest_fpr"] * 160)
        assert readouts["best_accuracy"] == mi.best_threshold_accuracy(members, nonmembers)
        assert readouts["member_median_loss"] == np.median(members)
        assert readouts["epochs"] == epochs
        report = data.deduplication
        assert (readouts["raw_rows"], readouts["distinct_rows"]) == (report.raw_rows, report.rows)
        assert readouts["member_count"] == mi.MEMBER_COUNT == members.size

        upper = mi.histogram_upper(np.concatenate([members, nonmembers]))
        histogram = mi.common_histogram(members, nonmembers, mi.HISTOGRAM_BINS, upper)
        assert readouts["histogram_upper"] == upper == histogram.upper
        assert datasets["histogram"] == mi.histogram_rows(histogram)
        counts = {
            g: [r["count"] for r in datasets["histogram"] if r["group"] == g] for g in mi.GROUPS
        }
        assert counts["member"] == histogram.counts_a.tolist() and sum(counts["member"]) == 160
        assert (
            counts["nonmember"] == histogram.counts_b.tolist() and sum(counts["nonmember"]) == 160
        )
        assert datasets["histogram"][-1]["label"] == f"≥ {upper:.4g}"

        fpr, tpr = mi.roc_curve(members, nonmembers)
        kept = mi.thin_curve(fpr, tpr)
        assert len(datasets["roc"]) == len(kept) <= 100
        assert datasets["roc"] == [{"fpr": rounded(fpr[i]), "tpr": rounded(tpr[i])} for i in kept]
        assert datasets["roc"][0] == {"fpr": 0.0, "tpr": 0.0}
        assert datasets["roc"][-1] == {"fpr": 1.0, "tpr": 1.0}
        assert datasets["operating_point"] == [
            {"fpr": rounded(smallest), "tpr": rounded(readouts["tpr_at_smallest_fpr"])}
        ]

        trajectory = mi.training_trajectory(seed)
        aucs = [mi.loss_attack_auc(s.member_losses, s.nonmember_losses) for s in trajectory]
        assert [row["auc"] for row in datasets["auc_curve"]] == [rounded(a) for a in aucs]
        assert [row["epochs"] for row in datasets["auc_curve"]] == list(mi.EPOCHS)
        current = datasets["auc_curve"][mi.EPOCHS.index(epochs)]
        assert current["auc"] == rounded(readouts["auc"])
        assert readouts["peak_auc"] == max(aucs) and readouts["final_auc"] == aucs[-1]
        assert readouts["epoch_steps"] == len(mi.EPOCHS) - 1
        assert readouts["auc_drops"] == sum(b < a for a, b in itertools.pairwise(aucs))
        by_group = {(row["epochs"], row["group"]): row["rmse"] for row in datasets["curves"]}
        assert by_group[(epochs, "member")] == rounded(readouts["member_rmse"])
        assert by_group[(epochs, "nonmember")] == rounded(readouts["nonmember_rmse"])


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
        # The members pile up in the first bin while the non-members spread out.
        first_bin = {row["group"]: row["count"] for row in last["histogram"] if row["bin"] == 0}
        assert first_bin["member"] > mi.MEMBER_COUNT / 2 > first_bin["nonmember"]
        # The non-members' error stops falling: its last value is above its minimum.
        nonmember = [row["rmse"] for row in last["curves"] if row["group"] == "nonmember"]
        assert nonmember[-1] > min(nonmember)
    # The AUC chart's axis starts at AUC_AXIS_LOWER: no point may fall below it.
    assert min(r["readouts"]["auc"] for r in results.values()) > mi.AUC_AXIS_LOWER


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
    provided = results[(mi.DEFAULT_EPOCHS, mi.DEFAULT_SEED)]["datasets"]
    assert set(named_datasets(spec)) <= set(provided)
    assert "param_" not in json.dumps(spec)
    assert chart.description["ko"] and chart.description["en"]
    spec["datasets"] = provided
    svg = vl_convert.vegalite_to_svg(spec)
    assert svg.startswith("<svg") and "NaN" not in svg


@pytest.mark.parametrize("chart", [mi.rmse_chart, mi.auc_chart])
def test_curve_charts_follow_the_epochs_param(chart):
    spec = chart("en").to_dict()
    assert {"name": "epochs", "value": mi.DEFAULT_EPOCHS} in spec["params"]
    assert "(datum.epochs === epochs)" in json.dumps(spec)


def test_compute_refuses_points_outside_the_grid():
    with pytest.raises(ValueError, match="seed must be one of 1, 2, 3, got 9"):
        mi.compute(epochs=10, seed=9)
    with pytest.raises(ValueError, match="epochs must be one of 1, 2, 5"):
        mi.compute(epochs=7, seed=1)
