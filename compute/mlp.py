"""Members, non-members and a small MLP fitted to the members, watched epoch by epoch.

This is the set-up of a membership-inference experiment on a regression table:

Deduplication (:func:`deduplicate`)
    If the same inputs sat on both sides, a "non-member" would be, as far as the
    model can tell, the very point it was fitted on. So exact duplicate rows are
    dropped, then rows sharing every input are merged into one whose target is
    the mean of theirs. Every input combination then occurs once.
Split (:func:`split_pools`, :func:`membership_data`)
    A seeded permutation orders the rows; its first half (rounded down) is the
    training pool, the rest the evaluation pool. Members are the first rows of the
    training pool, non-members the first rows of the evaluation pool, and no
    non-member is ever trained on. Inputs are standardized with the members'
    statistics only (:func:`standardize`).
Training with snapshots (:func:`train_with_snapshots`)
    One ``sklearn.neural_network.MLPRegressor`` (:func:`new_model`) is trained one
    epoch per ``partial_fit`` call, and every sample's squared loss is recorded
    when the epoch count reaches one of the requested values. A snapshot after
    ``e`` epochs equals a fresh model trained the same way for ``e`` epochs,
    because nothing but ``partial_fit`` touches the model or its random state.
    The model gets a ``numpy.random.RandomState`` *object*: an integer
    ``random_state`` is re-seeded by every ``partial_fit`` call and would replay
    one mini-batch order in every epoch. (``fit(max_iter=e)`` is the same
    algorithm but not bit-identical: it reshuffles the previous epoch's
    permutation instead of a fresh ``arange``; ``warm_start`` with a small
    ``max_iter`` starts a new Adam optimizer on each call, dropping its moment
    estimates.)

The losses are what the loss attack (Yeom et al., 2018) scores: :func:`loss_scores`
turns them into membership scores, a lower loss looking more like a member, for
the metrics of :mod:`compute.attacks.metrics`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd
import sklearn
from sklearn.neural_network import MLPRegressor

__all__ = [
    "Deduplication",
    "MLPSettings",
    "MembershipData",
    "Snapshot",
    "deduplicate",
    "loss_scores",
    "membership_data",
    "new_model",
    "parameter_count",
    "rmse",
    "split_pools",
    "squared_losses",
    "standardize",
    "train_with_snapshots",
]

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.int64]


# --- Data: deduplication and split ------------------------------------------------------


@dataclass(frozen=True)
class Deduplication:
    """What :func:`deduplicate` did to the table."""

    raw_rows: int
    """Rows in the table it was given."""
    exact_duplicates: int
    """Rows that repeat an earlier row in every column (dropped)."""
    merged_rows: int
    """Further rows dropped because they share every input with another row."""
    merged_groups: int
    """Input combinations that had more than one target; each became one row."""
    rows: int
    """Rows left, one per distinct input combination."""


def _check_columns(frame: pd.DataFrame, inputs: Sequence[str], target: str) -> None:
    missing = [name for name in (*inputs, target) if name not in frame.columns]
    if missing:
        raise ValueError(f"the table has no column {missing[0]!r}")
    if not inputs or target in inputs:
        raise ValueError("give at least one input column, and a target that is not an input")


def deduplicate(
    frame: pd.DataFrame, inputs: Sequence[str], target: str
) -> tuple[pd.DataFrame, Deduplication]:
    """One row per distinct combination of the ``inputs`` columns.

    Exact duplicate rows are dropped; rows that then still share every input
    (repeated measurements with different targets) become one row whose target
    is the mean of theirs.

    Parameters
    ----------
    frame
        The table, with the ``inputs`` columns and the ``target`` column.
    inputs
        The columns a model reads.
    target
        The column it predicts.

    Returns
    -------
    (pandas.DataFrame, Deduplication)
        The rows sorted by their inputs, with a fresh index, and the counts.
    """
    _check_columns(frame, inputs, target)
    columns = list(inputs)
    distinct = frame.drop_duplicates()
    merged = distinct.groupby(columns, as_index=False, sort=True)[[target]].mean()
    group_sizes = distinct.groupby(columns, sort=True).size()
    report = Deduplication(
        raw_rows=len(frame),
        exact_duplicates=len(frame) - len(distinct),
        merged_rows=len(distinct) - len(merged),
        merged_groups=int((group_sizes > 1).sum()),
        rows=len(merged),
    )
    return merged.reset_index(drop=True), report


@dataclass(frozen=True)
class MembershipData:
    """Members and non-members, inputs standardized with the members' statistics."""

    member_inputs: FloatArray
    """Standardized inputs of the members, one row each."""
    member_targets: FloatArray
    """Targets of the members."""
    nonmember_inputs: FloatArray
    """Standardized inputs of the non-members."""
    nonmember_targets: FloatArray
    """Targets of the non-members."""
    member_rows: tuple[int, ...]
    """Row numbers of the members in the deduplicated table."""
    nonmember_rows: tuple[int, ...]
    """Row numbers of the non-members in the deduplicated table."""
    training_pool: int
    """Size of the training pool the members come from."""
    evaluation_pool: int
    """Size of the evaluation pool the non-members come from."""
    deduplication: Deduplication
    """How the table was deduplicated."""


def split_pools(rows: int, seed: int) -> tuple[IndexArray, IndexArray]:
    """Row numbers of the training pool and the evaluation pool, in permutation order.

    The first ``rows // 2`` rows of ``default_rng(seed).permutation(rows)`` form
    the training pool, the rest the evaluation pool.
    """
    if rows < 2:
        raise ValueError(f"two pools need at least 2 rows, got {rows}")
    order = np.random.default_rng(seed).permutation(rows)
    return order[: rows // 2], order[rows // 2 :]


def standardize(reference: FloatArray, values: FloatArray) -> FloatArray:
    """``values`` centred and scaled by the column means and standard deviations of
    ``reference`` (the members), so no statistic of other rows leaks into the inputs.

    A column that is constant in ``reference`` is only centred.
    """
    mean = reference.mean(axis=0)
    scale = reference.std(axis=0)
    standardized: FloatArray = (values - mean) / np.where(scale > 0, scale, 1.0)
    return standardized


def membership_data(
    frame: pd.DataFrame,
    inputs: Sequence[str],
    target: str,
    *,
    seed: int,
    members: int,
    nonmembers: int,
) -> MembershipData:
    """Deduplicate ``frame``, split it with ``seed`` and pick the members and non-members.

    Raises ``ValueError`` when the groups do not fit in their pools.
    """
    table, report = deduplicate(frame, inputs, target)
    training_pool, evaluation_pool = split_pools(len(table), seed)
    if not (1 <= members <= training_pool.size and 1 <= nonmembers <= evaluation_pool.size):
        raise ValueError(
            f"{members} members and {nonmembers} non-members do not fit in pools of "
            f"{training_pool.size} and {evaluation_pool.size} rows"
        )
    member_rows = training_pool[:members]
    nonmember_rows = evaluation_pool[:nonmembers]
    values = table[list(inputs)].to_numpy(dtype=float)
    targets = table[target].to_numpy(dtype=float)
    raw_members = values[member_rows]
    return MembershipData(
        member_inputs=standardize(raw_members, raw_members),
        member_targets=targets[member_rows],
        nonmember_inputs=standardize(raw_members, values[nonmember_rows]),
        nonmember_targets=targets[nonmember_rows],
        member_rows=tuple(int(i) for i in member_rows),
        nonmember_rows=tuple(int(i) for i in nonmember_rows),
        training_pool=int(training_pool.size),
        evaluation_pool=int(evaluation_pool.size),
        deduplication=report,
    )


# --- The model and its snapshots ----------------------------------------------------------


@dataclass(frozen=True)
class MLPSettings:
    """The MLP: one hidden layer of ReLU units, trained by Adam on mini-batches."""

    hidden_units: int
    """Units in the hidden layer."""
    learning_rate: float
    """Adam's initial learning rate."""
    batch_size: int
    """Rows per mini-batch."""
    alpha: float
    """The L2 penalty."""


def new_model(seed: int, settings: MLPSettings, last_epoch: int) -> MLPRegressor:
    """An untrained MLP whose initial weights and mini-batch orders come from ``seed``.

    ``random_state`` is a ``RandomState`` object, so successive ``partial_fit``
    calls draw fresh mini-batch orders, and ``n_iter_no_change`` exceeds
    ``last_epoch``, so training is never cut short by the tolerance check.
    """
    return MLPRegressor(
        hidden_layer_sizes=(settings.hidden_units,),
        activation="relu",
        solver="adam",
        learning_rate_init=settings.learning_rate,
        batch_size=settings.batch_size,
        alpha=settings.alpha,
        shuffle=True,
        random_state=np.random.RandomState(seed),
        n_iter_no_change=last_epoch + 1,
    )


def squared_losses(model: MLPRegressor, inputs: FloatArray, targets: FloatArray) -> FloatArray:
    """Per-sample squared losses ``(y − f(x))²``, in the target's unit squared."""
    losses: FloatArray = (targets - model.predict(inputs)) ** 2
    return losses


def loss_scores(losses: npt.ArrayLike) -> FloatArray:
    """Membership scores ``s = −ℓ`` of per-sample losses ``ℓ``: the loss attack.

    A lower loss looks more like a member, so it gets a higher score, as the
    metrics of :mod:`compute.attacks.metrics` expect. Raises ``ValueError`` for
    an empty or non-finite loss.

    >>> loss_scores([0.5, 2.0]).tolist()
    [-0.5, -2.0]
    """
    values = np.asarray(losses, dtype=float).ravel()
    if values.size == 0:
        raise ValueError("losses must not be empty")
    if not np.isfinite(values).all():
        raise ValueError("losses must be finite numbers")
    scores: FloatArray = -values
    return scores


def rmse(losses: npt.ArrayLike) -> float:
    """Root mean squared error, in the target's unit, from squared losses."""
    return float(np.sqrt(np.mean(np.asarray(losses, dtype=float))))


def parameter_count(inputs: int, hidden_units: int) -> int:
    """Weights and biases of an MLP with one hidden layer and one output."""
    return inputs * hidden_units + hidden_units + hidden_units + 1


@dataclass(frozen=True)
class Snapshot:
    """The model after some epochs, as a loss attack sees it: every sample's loss."""

    epochs: int
    """Epochs trained so far."""
    member_losses: FloatArray
    """Squared losses of the members."""
    nonmember_losses: FloatArray
    """Squared losses of the non-members."""


def train_with_snapshots(
    data: MembershipData, seed: int, epochs: Sequence[int], settings: MLPSettings
) -> tuple[Snapshot, ...]:
    """Train one model on the members for ``max(epochs)`` epochs, one ``partial_fit`` per epoch.

    Returns the members' and non-members' losses after each of ``epochs``, in
    increasing order (each value once).
    """
    wanted = sorted(set(epochs))
    if not wanted or wanted[0] < 1:
        raise ValueError(f"epochs must be whole numbers >= 1, got {list(epochs)!r}")
    model = new_model(seed, settings, wanted[-1])
    snapshots = []
    for epoch in range(1, wanted[-1] + 1):
        # The inputs were checked once already; skipping sklearn's per-call checks saves ~10 %.
        with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
            model.partial_fit(data.member_inputs, data.member_targets)
        if epoch in wanted:
            snapshots.append(
                Snapshot(
                    epochs=epoch,
                    member_losses=squared_losses(model, data.member_inputs, data.member_targets),
                    nonmember_losses=squared_losses(
                        model, data.nonmember_inputs, data.nonmember_targets
                    ),
                )
            )
    return tuple(snapshots)
