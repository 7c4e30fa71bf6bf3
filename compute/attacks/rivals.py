"""The attacks Gen-LRA is compared with, in the Synth-MIA testbed's semantics.

Every attack is a function ``(targets, reference, synthetic, …) -> scores``
with one score per target row, higher meaning "more likely a member". All
three tables must have the same columns; an attack that does not use the
reference sample still checks it, so that every attack can be called the same
way. Distances are Euclidean on the columns as given: scale them first
(for instance standardize with statistics of the synthetic data) if their
units differ, as the testbed's tutorial does.

Where the testbed (joshward96/Synth-MIA) returns a monotone transform of a
score given here (a linear density instead of its log, a sigmoid of a ratio
instead of a share), the ranking of the targets, and so the AUC and every
TPR at FPR, is the same; each docstring says so.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
from scipy.spatial import cKDTree
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

from .kde import BandwidthMethod, fit_kde, floored_log, kde_logpdf, validate_floor
from .neighbours import nearest
from .validation import FloatArray, IndexArray, as_records, same_columns

# Chunks of target-to-synthetic differences hold about this many numbers (32 MB).
_DIFFERENCE_CHUNK_ELEMENTS = 1 << 22
# The Monte Carlo attack compares exactly the pairs a KD-tree finds within its radius widened
# by this relative margin (far above the tree's rounding), unless there are more than
# _CANDIDATE_PAIRS of them (then every pair, in chunks).
_RADIUS_MARGIN = 1e-6
_CANDIDATE_PAIRS = 1 << 23


def _tables(
    targets: npt.ArrayLike, reference: npt.ArrayLike, synthetic: npt.ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The three tables validated: 2-D, finite, the same number of columns."""
    target_rows = as_records(targets, "targets")
    reference_rows = as_records(reference, "reference")
    synthetic_rows = as_records(synthetic, "synthetic")
    same_columns(targets=target_rows, reference=reference_rows, synthetic=synthetic_rows)
    return target_rows, reference_rows, synthetic_rows


def _closest_distances(records: FloatArray, queries: FloatArray) -> FloatArray:
    """Euclidean distance from each query to its nearest record."""
    distances, _ = cKDTree(records).query(queries, k=1)
    return np.asarray(distances, dtype=np.float64)


def dcr_scores(
    targets: npt.ArrayLike, reference: npt.ArrayLike, synthetic: npt.ArrayLike
) -> FloatArray:
    """Distance to the closest synthetic record, negated: ``−min_s |x − s|``.

    A target the generator copied sits on (or next to) a synthetic record.
    Source: Chen, Yu, Zhang and Fritz, "GAN-Leaks: a taxonomy of membership
    inference attacks against generative models", CCS 2020 (the full
    black-box attack); the testbed's ``DCR``. The reference sample is not used.
    """
    target_rows, _, synthetic_rows = _tables(targets, reference, synthetic)
    return -_closest_distances(synthetic_rows, target_rows)


def dcr_diff_scores(
    targets: npt.ArrayLike, reference: npt.ArrayLike, synthetic: npt.ArrayLike
) -> FloatArray:
    """DCR calibrated by the reference: ``min_r |x − r| − min_s |x − s|``.

    A target that is closer to the synthetic data than to fresh records from
    the population scores high; a target in a dense region, close to
    everything, no longer does. Source: the calibrated attack of Chen et al.,
    CCS 2020 (GAN-Leaks); the testbed's ``DCRDiff`` computes the same
    ``−(d_synthetic − d_reference)``.
    """
    target_rows, reference_rows, synthetic_rows = _tables(targets, reference, synthetic)
    return _closest_distances(reference_rows, target_rows) - _closest_distances(
        synthetic_rows, target_rows
    )


def domias_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    bw_method: BandwidthMethod = "silverman",
    density_floor: float | None = None,
) -> FloatArray:
    """DOMIAS: ``log p̂_S(x) − log p̂_R(x)``, synthetic density over population density.

    Overfitting shows as synthetic density in excess of the population's
    around the training records. Both densities are Gaussian KDEs (see
    :mod:`.kde`). Source: van Breugel, Sun, Qian and van der Schaar,
    "Membership inference attacks against synthetic data through overfitting
    detection", AISTATS 2023.

    With ``density_floor`` the score is ``log p̂_S(x) − log(p̂_R(x) + floor)``
    on linear densities: the log of the testbed's ``p̂_S / (p̂_R + 1e-20)``
    (pass ``1e-20``), so its ranking is the testbed's wherever ``p̂_S`` does
    not underflow to 0 (where the testbed ties targets at a ratio of 0, this
    log stays finite and keeps them apart).
    """
    validate_floor(density_floor)
    target_rows, _, _ = _tables(targets, reference, synthetic)
    synthetic_density = kde_logpdf(fit_kde(synthetic, bw_method, what="synthetic"), target_rows)
    reference_density = kde_logpdf(fit_kde(reference, bw_method, what="reference"), target_rows)
    return synthetic_density - floored_log(reference_density, density_floor)


def density_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    bw_method: BandwidthMethod = "silverman",
) -> FloatArray:
    """Log density of the synthetic data at the target, ``log p̂_S(x)`` (Gaussian KDE).

    Source: the density-estimate attack of Houssiau et al., "TAPAS: a toolbox
    for adversarial privacy auditing of synthetic data", 2022; the testbed's
    ``DensityEstimate`` returns ``p̂_S(x)`` itself, which ranks targets the
    same way. The reference sample is not used.
    """
    target_rows, _, _ = _tables(targets, reference, synthetic)
    return kde_logpdf(fit_kde(synthetic, bw_method, what="synthetic"), target_rows)


def _squared_distance_chunks(
    queries: FloatArray, records: FloatArray
) -> Iterator[tuple[slice, FloatArray]]:
    """Squared Euclidean distances from chunks of queries to every record, chunk by chunk."""
    rows = max(1, _DIFFERENCE_CHUNK_ELEMENTS // records.size)
    for start in range(0, queries.shape[0], rows):
        chunk = slice(start, start + rows)
        yield chunk, np.sum((queries[chunk, None, :] - records[None, :, :]) ** 2, axis=-1)


def _exact_pairs(
    tree: cKDTree, queries: FloatArray, radii: FloatArray
) -> tuple[IndexArray, IndexArray] | None:
    """``(query, record)`` rows of every pair the tree finds within ``radii``, or ``None`` if
    there are more than :data:`_CANDIDATE_PAIRS` (then the caller compares every pair)."""
    lengths = np.asarray(tree.query_ball_point(queries, radii, return_length=True), dtype=np.intp)
    if int(lengths.sum()) > _CANDIDATE_PAIRS:
        return None
    found = tree.query_ball_point(queries, radii)
    query_rows = np.repeat(np.arange(queries.shape[0]), lengths)
    record_rows = np.fromiter(
        itertools.chain.from_iterable(found), dtype=np.intp, count=int(lengths.sum())
    )
    return query_rows, record_rows


def _squared_distances(
    queries: FloatArray, records: FloatArray, query_rows: IndexArray, record_rows: IndexArray
) -> FloatArray:
    """Squared distances of the given pairs, by the same arithmetic as the chunks (same bits)."""
    return np.asarray(np.sum((queries[query_rows] - records[record_rows]) ** 2, axis=-1))


def _closest_squared(tree: cKDTree, queries: FloatArray, records: FloatArray) -> FloatArray:
    """Each query's smallest squared distance to a record, as the all-pairs chunks give it.

    The tree finds the nearest record; every record within a hair of that distance
    (the tree's rounding may order near-ties differently) is compared exactly.
    """
    nearest_distances, _ = tree.query(queries, k=1)
    pairs = _exact_pairs(tree, queries, nearest_distances * (1 + _RADIUS_MARGIN))
    if pairs is None:
        closest = np.empty(queries.shape[0])
        for chunk, squared in _squared_distance_chunks(queries, records):
            closest[chunk] = squared.min(axis=1)
        return closest
    closest = np.full(queries.shape[0], np.inf)
    np.minimum.at(closest, pairs[0], _squared_distances(queries, records, *pairs))
    return closest


def _shares_within(
    tree: cKDTree, queries: FloatArray, records: FloatArray, threshold: float
) -> FloatArray:
    """Share of the records whose squared distance to each query is below ``threshold``."""
    radii = np.full(queries.shape[0], math.sqrt(threshold) * (1 + _RADIUS_MARGIN))
    pairs = _exact_pairs(tree, queries, radii)
    if pairs is None:
        shares = np.empty(queries.shape[0])
        for chunk, squared in _squared_distance_chunks(queries, records):
            shares[chunk] = (squared < threshold).mean(axis=1)
        return shares
    inside = _squared_distances(queries, records, *pairs) < threshold
    counts = np.bincount(pairs[0][inside], minlength=queries.shape[0])
    return np.asarray(counts / records.shape[0], dtype=np.float64)


def monte_carlo_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    radius: float | None = None,
) -> FloatArray:
    """Share of the synthetic records within ``radius`` of the target (strictly closer).

    By default the radius is the median heuristic of Hilprecht et al. (their
    Eq. 4), as the testbed applies it: the median, over all the targets
    passed in, of each target's distance to its closest synthetic record. The
    scores therefore depend on the set of targets scored together. Source:
    Hilprecht, Härterich and Bernau, "Monte Carlo and reconstruction
    membership inference attacks against generative models", PoPETs 2019;
    the testbed's ``MC`` (from the DOMIAS code). The reference sample is not used.

    Distances are compared squared, as the testbed does, so that ties fall the same
    way. A KD-tree on the synthetic records finds the pairs that can be within the
    radius; their squared distances are computed by the same arithmetic as comparing
    every pair, so the scores are those of the all-pairs comparison bit for bit (the
    tests keep it as the reference), at a fraction of its cost.
    """
    target_rows, _, synthetic_rows = _tables(targets, reference, synthetic)
    tree = cKDTree(synthetic_rows)
    if radius is None:
        threshold = float(np.median(_closest_squared(tree, target_rows, synthetic_rows)))
    elif radius > 0:
        threshold = float(radius) ** 2
    else:
        raise ValueError(f"radius must be a positive number or None, got {radius!r}")
    return _shares_within(tree, target_rows, synthetic_rows, threshold)


def dpi_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    k: int = 20,
) -> FloatArray:
    """Data Plagiarism Index: share of synthetic records among the ``k`` nearest of ``R ∪ S``.

    Around a copied record the synthetic data are denser than the reference
    sample, so synthetic records crowd its neighbourhood. The testbed returns
    ``sigmoid(n_S / (n_R + 1e-20))`` of the counts, an increasing function of
    the share ``n_S / k``, so the ranking is the same. Equal distances are
    broken by row, reference rows first. Source: Ward, Wang and Cheng, "Data
    plagiarism index: characterizing the privacy risk of data-copying in
    tabular generative models", KDD GenAI Evaluation Workshop 2024.
    """
    target_rows, reference_rows, synthetic_rows = _tables(targets, reference, synthetic)
    pooled = np.vstack([reference_rows, synthetic_rows])
    if not 1 <= k <= pooled.shape[0]:
        raise ValueError(f"k must be between 1 and the {pooled.shape[0]} pooled rows, got {k}")
    _, neighbours = nearest(pooled, target_rows, k)
    return np.asarray((neighbours >= reference_rows.shape[0]).mean(axis=1), dtype=np.float64)


def _synthetic_or_reference(
    reference_rows: FloatArray, synthetic_rows: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """A training set telling synthetic records (label 1) from reference records (label 0)."""
    inputs = np.vstack([reference_rows, synthetic_rows])
    labels = np.r_[np.zeros(reference_rows.shape[0]), np.ones(synthetic_rows.shape[0])]
    return inputs, labels


def classifier_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    random_state: int = 0,
    n_estimators: int = 100,
) -> FloatArray:
    """``P(synthetic | x)`` from a random forest trained to tell ``S`` from ``R``.

    Where the generator reproduced training records, the synthetic data look
    unlike the population, and the forest learns those places. Source: the
    classifier attack of Houssiau et al., TAPAS, 2022; the testbed's
    ``Classifier`` (a scikit-learn random forest, ``random_state=42`` there).
    """
    target_rows, reference_rows, synthetic_rows = _tables(targets, reference, synthetic)
    forest = RandomForestClassifier(n_estimators=n_estimators, random_state=random_state)
    forest.fit(*_synthetic_or_reference(reference_rows, synthetic_rows))
    return np.asarray(forest.predict_proba(target_rows)[:, 1], dtype=np.float64)


def logan_scores(
    targets: npt.ArrayLike,
    reference: npt.ArrayLike,
    synthetic: npt.ArrayLike,
    *,
    random_state: int = 0,
    hidden_units: int = 256,
    max_iter: int = 200,
) -> FloatArray:
    """``P(synthetic | x)`` from a two-hidden-layer MLP trained to tell ``S`` from ``R``.

    LOGAN-style: Hayes, Melis, Danezis and De Cristofaro ("LOGAN: membership
    inference attacks against generative models", PoPETs 2019) score targets
    with a discriminator; without access to the generator's, the no-box
    version (van Breugel et al. 2023's code, used by the testbed) trains one
    on the synthetic data against an equal number of reference records. The
    network matches theirs (two ReLU layers of ``hidden_units``, Adam,
    learning rate 1e-3, batches of 256); it is scikit-learn's
    ``MLPClassifier``, trained for at most ``max_iter`` epochs, stopping early
    when the training loss stops improving. The result is deterministic for a
    ``random_state``. Scale the columns first: a network on raw units learns
    little.
    """
    target_rows, reference_rows, synthetic_rows = _tables(targets, reference, synthetic)
    balanced = min(reference_rows.shape[0], synthetic_rows.shape[0])
    network = MLPClassifier(
        hidden_layer_sizes=(hidden_units, hidden_units),
        learning_rate_init=1e-3,
        batch_size=min(256, 2 * balanced),
        max_iter=max_iter,
        random_state=random_state,
    )
    with warnings.catch_warnings():
        # The epoch budget is part of the attack's definition, not a failure to report.
        warnings.simplefilter("ignore", ConvergenceWarning)
        network.fit(*_synthetic_or_reference(reference_rows[:balanced], synthetic_rows[:balanced]))
    return np.asarray(network.predict_proba(target_rows)[:, 1], dtype=np.float64)
