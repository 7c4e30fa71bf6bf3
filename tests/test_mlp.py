"""The library's members and non-members, and the MLP trained with snapshots.

Checked against pandas and numpy directly (deduplication, the seeded split, the
standardization) and against scikit-learn trained afresh (every snapshot).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from privacy_explorer.compute import mlp
from privacy_explorer.compute.datasets import CONCRETE_INPUTS, CONCRETE_TARGET, load_concrete

SETTINGS = mlp.MLPSettings(hidden_units=32, learning_rate=0.02, batch_size=32, alpha=1e-5)
SEED, MEMBERS, NONMEMBERS = 2017, 160, 160


@pytest.fixture(scope="module")
def data() -> mlp.MembershipData:
    return mlp.membership_data(
        load_concrete(),
        CONCRETE_INPUTS,
        CONCRETE_TARGET,
        seed=SEED,
        members=MEMBERS,
        nonmembers=NONMEMBERS,
    )


def test_deduplication_leaves_one_row_per_input_combination():
    raw = load_concrete()
    table, report = mlp.deduplicate(raw, CONCRETE_INPUTS, CONCRETE_TARGET)
    inputs = list(CONCRETE_INPUTS)
    assert not table.duplicated(subset=inputs).any()
    assert report.rows == len(table) == raw.drop_duplicates(subset=inputs).shape[0]
    assert report.raw_rows == 1030 and report.exact_duplicates == 25
    assert report.raw_rows - report.exact_duplicates - report.merged_rows == report.rows
    assert report.merged_groups == 9  # as data/SOURCES.md documents
    # A merged row carries the mean of the distinct tests of its inputs.
    means = raw.drop_duplicates().groupby(inputs)[CONCRETE_TARGET].mean()
    merged = table.set_index(inputs)[CONCRETE_TARGET]
    np.testing.assert_allclose(merged.loc[means.index].to_numpy(), means.to_numpy(), rtol=1e-6)


def test_no_nonmember_shares_its_inputs_with_a_member(data: mlp.MembershipData):
    table, _ = mlp.deduplicate(load_concrete(), CONCRETE_INPUTS, CONCRETE_TARGET)
    inputs = table[list(CONCRETE_INPUTS)].to_numpy()
    members = {tuple(row) for row in inputs[list(data.member_rows)]}
    nonmembers = {tuple(row) for row in inputs[list(data.nonmember_rows)]}
    assert len(members) == MEMBERS and len(nonmembers) == NONMEMBERS
    assert not members & nonmembers
    # The standardized inputs tell the same story.
    member_points = {tuple(row) for row in data.member_inputs}
    assert not member_points & {tuple(row) for row in data.nonmember_inputs}


def test_split_is_the_documented_one(data: mlp.MembershipData):
    training, evaluation = mlp.split_pools(data.deduplication.rows, SEED)
    order = np.random.default_rng(SEED).permutation(data.deduplication.rows)
    half = data.deduplication.rows // 2
    assert training.tolist() == order[:half].tolist()
    assert evaluation.tolist() == order[half:].tolist()
    assert not set(training) & set(evaluation)
    assert data.member_rows == tuple(training[:MEMBERS])
    assert data.nonmember_rows == tuple(evaluation[:NONMEMBERS])
    assert (data.training_pool, data.evaluation_pool) == (training.size, evaluation.size)


def test_membership_data_refuses_groups_larger_than_their_pools():
    with pytest.raises(ValueError, match="600 members and 160 non-members do not fit in pools"):
        mlp.membership_data(
            load_concrete(),
            CONCRETE_INPUTS,
            CONCRETE_TARGET,
            seed=SEED,
            members=600,
            nonmembers=160,
        )


def test_inputs_are_standardized_with_member_statistics(data: mlp.MembershipData):
    np.testing.assert_allclose(data.member_inputs.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(data.member_inputs.std(axis=0), 1.0, atol=1e-12)
    assert abs(data.nonmember_inputs.mean()) > 1e-6  # not re-centred on their own


# --- Training -----------------------------------------------------------------


def test_snapshots_equal_fresh_training_for_the_same_epochs(data: mlp.MembershipData):
    snapshots = mlp.train_with_snapshots(data, 2, (1, 7, 30), SETTINGS)
    assert [s.epochs for s in snapshots] == [1, 7, 30]
    for snapshot in snapshots:
        fresh = mlp.new_model(2, SETTINGS, 30)
        for _ in range(snapshot.epochs):
            fresh.partial_fit(data.member_inputs, data.member_targets)
        np.testing.assert_array_equal(
            mlp.squared_losses(fresh, data.member_inputs, data.member_targets),
            snapshot.member_losses,
        )
        np.testing.assert_array_equal(
            mlp.squared_losses(fresh, data.nonmember_inputs, data.nonmember_targets),
            snapshot.nonmember_losses,
        )


def test_one_epoch_equals_fit_with_one_iteration(data: mlp.MembershipData):
    # Later epochs differ only in how fit() reshuffles (see the module docstring).
    fresh = mlp.new_model(2, SETTINGS, 30).set_params(max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter=1 is the point here
        fresh.fit(data.member_inputs, data.member_targets)
    snapshot = mlp.train_with_snapshots(data, 2, (1,), SETTINGS)[0]
    np.testing.assert_array_equal(
        mlp.squared_losses(fresh, data.member_inputs, data.member_targets),
        snapshot.member_losses,
    )


def test_an_integer_random_state_would_replay_one_batch_order(data: mlp.MembershipData):
    # Why new_model passes a RandomState object: with an int, partial_fit re-seeds every call.
    from sklearn.neural_network import MLPRegressor

    replayed = MLPRegressor(**{**mlp.new_model(2, SETTINGS, 30).get_params(), "random_state": 2})
    for _ in range(3):
        replayed.partial_fit(data.member_inputs, data.member_targets)
    proper = mlp.train_with_snapshots(data, 2, (3,), SETTINGS)[0]
    replayed_losses = mlp.squared_losses(replayed, data.member_inputs, data.member_targets)
    assert not np.array_equal(replayed_losses, proper.member_losses)


def test_training_is_deterministic(data: mlp.MembershipData):
    first = mlp.train_with_snapshots(data, 3, (5, 20), SETTINGS)
    second = mlp.train_with_snapshots(data, 3, (5, 20), SETTINGS)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a.member_losses, b.member_losses)
        np.testing.assert_array_equal(a.nonmember_losses, b.nonmember_losses)


def test_train_with_snapshots_refuses_bad_epochs(data: mlp.MembershipData):
    with pytest.raises(ValueError, match="epochs must be whole numbers >= 1"):
        mlp.train_with_snapshots(data, 1, (0, 5), SETTINGS)


@pytest.mark.parametrize("bad", [("nowhere",), ()])
def test_deduplicate_refuses_unknown_or_missing_inputs(bad):
    with pytest.raises(ValueError, match=r"no column|at least one input"):
        mlp.deduplicate(load_concrete(), bad, CONCRETE_TARGET)


def test_loss_scores_are_the_negated_losses_and_refuse_what_cannot_be_ranked():
    assert mlp.loss_scores([[0.5], [2.0]]).tolist() == [-0.5, -2.0]
    with pytest.raises(ValueError, match="losses must not be empty"):
        mlp.loss_scores([])
    with pytest.raises(ValueError, match="losses must be finite numbers"):
        mlp.loss_scores([1.0, math.nan])
