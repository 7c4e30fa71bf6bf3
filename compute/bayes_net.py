r"""A Bayesian-network synthesizer: discretized columns joined by a Chow–Liu tree.

The synthesizer learns one joint distribution of the columns' *bins* and samples
it; it never sees two columns together except through a pairwise table.

Discretization (:class:`Discretization`)
    Each column is cut into at most ``b`` bins. :func:`quantile_bins` puts the
    edges at the members' own quantiles (``numpy.quantile`` with
    ``method="inverted_cdf"``, so every edge is a member value, and repeated
    edges are merged: a column with few distinct values gets fewer bins).
    Bin ``k`` of a column is ``[e_k, e_{k+1})``, the last one closed, so each
    quantile bin holds at least one member.
    :func:`uniform_bins` cuts a fixed, public interval into ``b`` equal bins;
    values outside it are clipped to the interval (the private version needs
    edges that do not depend on the data).
Structure (:func:`chow_liu_tree`)
    The empirical mutual information of every pair of binned columns
    (:func:`mutual_information`, natural logarithm) weighs the edges of the
    complete graph; the tree is its maximum spanning tree (Chow and Liu 1968),
    grown by Prim's algorithm from column 0, the root. Among all trees, it is
    the one whose product of pairwise conditionals is closest to the
    empirical joint distribution in Kullback–Leibler divergence.
Tables (:func:`fit_from_pair_tables`)
    The root's marginal and, for every other column, its distribution given
    its parent's bin, are read off the pairwise tables of the tree's edges.
Sampling (:meth:`BayesNet.sample_codes`)
    Ancestrally: the root's bin from its marginal, then each column's bin from
    its row of the conditional table given the bin already drawn for its
    parent, in the order Prim's algorithm added the columns.
Back to values (:func:`decode`)
    ``"members"``: a member value of that column that lies in the drawn bin,
    chosen uniformly among the members in the bin (the column's values and
    point masses, such as an age of 28 days, are kept; every released value
    of a column is some member's value of that column, but the combination is
    new). ``"uniform"``: a point uniform in the bin's interval (needs no member
    value, so it is what the private version uses).

The ε-differentially private version (:func:`private_bayes_net`) builds the same
model from pairwise tables released with lesson 03's Laplace mechanism
(:mod:`compute.laplace`) on public, equal-width bins; its privacy accounting is
written out in :func:`noisy_pair_tables`.

Randomness
    ``rng`` is the only source. Sampling draws one ``size × d`` block of
    uniforms for the bins, then one for the values, so the same seed always
    gives the same records.

Reference: C. K. Chow and C. N. Liu, "Approximating discrete probability
distributions with dependence trees", *IEEE Transactions on Information
Theory* 14(3):462–467, 1968.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from .laplace import COUNT_SENSITIVITY, laplace_noise, nonzero_uniforms

__all__ = [
    "BAYES_NET_BINS",
    "NEIGHBOURING",
    "PRIVATE_BINS",
    "PRIVATE_DOMAIN",
    "PRIVATE_EPSILONS",
    "BayesNet",
    "Discretization",
    "NoisyTables",
    "PrivacyAccount",
    "account_for",
    "bayes_net",
    "chow_liu_tree",
    "decode",
    "fit_bayes_net",
    "fit_from_pair_tables",
    "fit_private_bayes_net",
    "mutual_information",
    "mutual_information_matrix",
    "noisy_pair_tables",
    "pair_counts",
    "pairs",
    "private_bayes_net",
    "private_discretization",
    "quantile_bins",
    "uniform_bins",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

BAYES_NET_BINS: tuple[int, ...] = (5, 10, 20)
"""Numbers of quantile bins per column offered as settings (:data:`compute.generators`)."""

PRIVATE_EPSILONS: tuple[float, ...] = (0.1, 1.0, 10.0)
"""The privacy budgets offered as settings of the private version."""
PRIVATE_BINS = 8
"""Equal-width bins per column of the private version."""
PRIVATE_DOMAIN: tuple[float, float] = (-4.0, 4.0)
"""The public interval of every column for the private version, in the units it receives
(standardized units in :data:`compute.generators.FAMILIES`); values outside are clipped to it."""
NEIGHBOURING = "add or remove one record"
"""The neighbouring relation of the private version's guarantee (lesson 03's)."""

ValueMode = Literal["members", "uniform"]
"""How a drawn bin becomes a value: a member value in the bin, or uniform in its interval."""


# ---------------------------------------------------------------------------------------------
# Discretization


def _table(values: npt.ArrayLike, what: str) -> FloatArray:
    table = np.asarray(values, dtype=np.float64)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 2:
        raise ValueError(
            f"{what} must be a table of at least 1 row and 2 columns, got {table.shape}"
        )
    if not np.isfinite(table).all():
        raise ValueError(f"{what} must hold finite numbers only")
    return table


@dataclass(frozen=True, eq=False)
class Discretization:
    """The bin edges of every column: bin ``k`` is ``[e_k, e_{k+1})``, the last one closed."""

    edges: tuple[FloatArray, ...]
    """One increasing array of ``bins + 1`` edges per column (``[v, v]`` for a constant column)."""

    def __post_init__(self) -> None:
        for column, edges in enumerate(self.edges):
            if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) < 0):
                raise ValueError(f"column {column}: edges must be at least 2 increasing numbers")

    @property
    def levels(self) -> tuple[int, ...]:
        """The number of bins of each column."""
        return tuple(edges.size - 1 for edges in self.edges)

    def codes(self, table: npt.ArrayLike) -> IntArray:
        """The bin of every value of ``table`` (rows = records); values outside go to an end bin."""
        values = _table(table, "table")
        if values.shape[1] != len(self.edges):
            raise ValueError(f"table has {values.shape[1]} columns, the bins {len(self.edges)}")
        codes = np.empty(values.shape, dtype=np.intp)
        for column, edges in enumerate(self.edges):
            codes[:, column] = np.searchsorted(edges[1:-1], values[:, column], side="right")
        return codes


def quantile_bins(members: npt.ArrayLike, bins: int) -> Discretization:
    """At most ``bins`` bins per column, cut at the members' quantiles ``0, 1/b, …, 1``.

    The quantiles use ``method="inverted_cdf"`` (each is a member value), the
    smallest and largest member values are the outer edges, and equal edges
    are merged, so every bin holds at least one member.
    """
    table = _table(members, "members")
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    probabilities = np.linspace(0.0, 1.0, bins + 1)
    edges = []
    for column in table.T:
        cuts = np.quantile(column, probabilities, method="inverted_cdf")
        unique = np.unique(np.concatenate([[column.min()], cuts, [column.max()]]))
        edges.append(unique if unique.size > 1 else np.repeat(unique, 2))
    return Discretization(tuple(np.asarray(e, dtype=np.float64) for e in edges))


def uniform_bins(low: float, high: float, bins: int, columns: int) -> Discretization:
    """``bins`` equal bins of ``[low, high]`` for each of ``columns`` columns (public edges)."""
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"the interval must be finite with low < high, got [{low}, {high}]")
    if bins < 1 or columns < 2:
        raise ValueError(f"need bins ≥ 1 and columns ≥ 2, got {bins} and {columns}")
    edges = np.linspace(low, high, bins + 1)
    return Discretization(tuple(edges.copy() for _ in range(columns)))


# ---------------------------------------------------------------------------------------------
# Pairwise tables and mutual information


def pairs(columns: int) -> tuple[tuple[int, int], ...]:
    """Every pair ``(a, b)`` with ``a < b`` of ``columns`` columns, in lexicographic order."""
    return tuple((a, b) for a in range(columns) for b in range(a + 1, columns))


def pair_counts(codes: IntArray, levels: tuple[int, ...], a: int, b: int) -> FloatArray:
    """The ``levels[a] × levels[b]`` table of how many records fall in each pair of bins."""
    flat = codes[:, a] * levels[b] + codes[:, b]
    counts = np.bincount(flat, minlength=levels[a] * levels[b])
    return np.asarray(counts.reshape(levels[a], levels[b]), dtype=np.float64)


def mutual_information(joint: npt.ArrayLike) -> float:
    """Mutual information (nats) of the two-way table ``joint`` (counts or weights ≥ 0).

    ``I = Σ p_ij ln(p_ij / (p_i· p_·j))`` with ``p = joint / joint.sum()``; cells
    with ``p_ij = 0`` add nothing. A table of zeros has 0 (no evidence of
    dependence). Equal to ``sklearn.metrics.mutual_info_score`` on the records
    the counts come from.
    """
    table = np.asarray(joint, dtype=np.float64)
    if table.ndim != 2 or np.any(table < 0) or not np.isfinite(table).all():
        raise ValueError("joint must be a two-way table of finite numbers ≥ 0")
    total = table.sum()
    if total <= 0:
        return 0.0
    p = table / total
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    positive = p > 0
    outer = np.outer(rows, cols)[positive]
    information = float(np.sum(p[positive] * np.log(p[positive] / outer)))
    return max(information, 0.0)


def mutual_information_matrix(
    tables: dict[tuple[int, int], FloatArray], columns: int
) -> FloatArray:
    """The symmetric ``columns × columns`` matrix of pairwise mutual information (0 diagonal)."""
    matrix = np.zeros((columns, columns))
    for (a, b), joint in tables.items():
        matrix[a, b] = matrix[b, a] = mutual_information(joint)
    return matrix


def chow_liu_tree(weights: npt.ArrayLike) -> tuple[IntArray, tuple[int, ...]]:
    """The maximum spanning tree of the symmetric ``weights``, grown by Prim's algorithm from 0.

    Returns
    -------
    parents, order
        ``parents[i]`` is the column ``i`` hangs from (``-1`` for the root, column
        0); ``order`` lists the columns in the order they joined the tree, so
        every column comes after its parent. Ties go to the lowest column index.
    """
    matrix = np.asarray(weights, dtype=np.float64)
    columns = matrix.shape[0]
    if matrix.shape != (columns, columns) or not np.allclose(matrix, matrix.T):
        raise ValueError(f"weights must be a symmetric square matrix, got shape {matrix.shape}")
    parents = np.full(columns, -1, dtype=np.intp)
    best = matrix[0].copy()
    attach = np.zeros(columns, dtype=np.intp)
    in_tree = np.zeros(columns, dtype=bool)
    in_tree[0] = True
    order = [0]
    for _ in range(columns - 1):
        candidate = int(np.argmax(np.where(in_tree, -np.inf, best)))
        in_tree[candidate] = True
        parents[candidate] = attach[candidate]
        order.append(candidate)
        closer = ~in_tree & (matrix[candidate] > best)
        best[closer] = matrix[candidate][closer]
        attach[closer] = candidate
    return parents, tuple(order)


# ---------------------------------------------------------------------------------------------
# The model


def _normalised(weights: FloatArray) -> FloatArray:
    total = weights.sum()
    if total > 0:
        return np.asarray(weights / total)
    return np.full(weights.shape, 1.0 / weights.size)


@dataclass(frozen=True, eq=False)
class BayesNet:
    """A tree-shaped Bayesian network over binned columns."""

    discretization: Discretization
    """The bins of every column."""
    parents: IntArray
    """The parent of each column; ``-1`` for the root."""
    order: tuple[int, ...]
    """The columns in an order where each comes after its parent (the root first)."""
    root_marginal: FloatArray
    """The distribution of the root's bin."""
    conditionals: tuple[FloatArray | None, ...]
    """For each column but the root, ``P(bin | parent's bin)``: one row per parent bin."""
    mutual_information: FloatArray
    """The pairwise mutual information the tree was chosen from."""

    def conditional(self, column: int) -> FloatArray:
        """``P(bin of column | bin of its parent)``, one row per parent bin (not for the root)."""
        table = self.conditionals[column]
        if table is None:
            raise ValueError(f"column {column} is the root: it has a marginal, not a conditional")
        return table

    def marginal(self, column: int) -> FloatArray:
        """The distribution of ``column``'s bin implied by the network."""
        if column == self.order[0]:
            return self.root_marginal
        parent = int(self.parents[column])
        return np.asarray(self.marginal(parent) @ self.conditional(column))

    def edge_joint(self, column: int) -> FloatArray:
        """The joint distribution of (parent's bin, ``column``'s bin) implied by the network."""
        parent = int(self.parents[column])
        return np.asarray(self.marginal(parent)[:, None] * self.conditional(column))

    def sample_codes(self, size: int, rng: np.random.Generator) -> IntArray:
        """``size`` records of bins, drawn ancestrally (one uniform per column and record)."""
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        levels = self.discretization.levels
        uniforms = rng.random((size, len(levels)))
        codes = np.empty((size, len(levels)), dtype=np.intp)
        for column in self.order:
            if column == self.order[0]:
                cumulative = np.cumsum(self.root_marginal)[None, :]
                rows = np.zeros(size, dtype=np.intp)
            else:
                cumulative = np.cumsum(self.conditional(column), axis=1)
                rows = codes[:, self.parents[column]]
            drawn = (uniforms[:, column, None] >= cumulative[rows]).sum(axis=1)
            codes[:, column] = np.minimum(drawn, levels[column] - 1)
        return codes


def fit_from_pair_tables(
    discretization: Discretization, tables: dict[tuple[int, int], FloatArray]
) -> BayesNet:
    """The Chow–Liu network from pairwise tables of counts (or non-negative weights).

    The tree is the maximum spanning tree of the tables' mutual information;
    the root's marginal is the row sums of its table with its first child,
    and a column's conditional is its table with its parent, each row
    normalised. A parent bin whose row is empty gets the column's marginal
    from the same table (uniform if that table is empty too). Nothing else of
    the data is used, which is what makes the private version post-processing.
    """
    columns = len(discretization.levels)
    information = mutual_information_matrix(tables, columns)
    parents, order = chow_liu_tree(information)
    conditionals: list[FloatArray | None] = [None] * columns
    root = order[0]
    root_marginal = np.zeros(0)
    for column in order[1:]:
        parent = int(parents[column])
        joint = tables[(parent, column)] if parent < column else tables[(column, parent)].T
        if parent == root and root_marginal.size == 0:
            root_marginal = _normalised(joint.sum(axis=1))
        fallback = _normalised(joint.sum(axis=0))
        rows = joint.sum(axis=1, keepdims=True)
        conditional = np.where(rows > 0, joint / np.where(rows > 0, rows, 1.0), fallback)
        conditionals[column] = np.asarray(conditional)
    return BayesNet(discretization, parents, order, root_marginal, tuple(conditionals), information)


def fit_bayes_net(members: npt.ArrayLike, discretization: Discretization) -> BayesNet:
    """The Chow–Liu network of ``members`` binned by ``discretization`` (exact counts)."""
    codes = discretization.codes(members)
    levels = discretization.levels
    tables = {(a, b): pair_counts(codes, levels, a, b) for a, b in pairs(len(levels))}
    return fit_from_pair_tables(discretization, tables)


def decode(
    codes: IntArray,
    discretization: Discretization,
    rng: np.random.Generator,
    mode: ValueMode,
    members: npt.ArrayLike | None = None,
) -> FloatArray:
    """Values for binned records: member values in the bin, or uniform in it (module docstring).

    ``mode="members"`` needs ``members`` with at least one member in every drawn
    bin (true of :func:`quantile_bins` on the same members). One uniform per
    value is drawn from ``rng`` in either mode.
    """
    uniforms = rng.random(codes.shape)
    values = np.empty(codes.shape)
    if mode == "uniform":
        for column, edges in enumerate(discretization.edges):
            low, high = edges[codes[:, column]], edges[codes[:, column] + 1]
            values[:, column] = low + uniforms[:, column] * (high - low)
        return values
    if members is None:
        raise ValueError('mode="members" needs the members')
    table = _table(members, "members")
    member_codes = discretization.codes(table)
    for column, levels in enumerate(discretization.levels):
        order = np.argsort(member_codes[:, column], kind="stable")
        ordered = table[order, column]
        counts = np.bincount(member_codes[:, column], minlength=levels)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        drawn = codes[:, column]
        if np.any(counts[drawn] == 0):
            raise ValueError(f"column {column}: a drawn bin holds no member value")
        picks = starts[drawn] + np.minimum(
            (uniforms[:, column] * counts[drawn]).astype(np.intp), counts[drawn] - 1
        )
        values[:, column] = ordered[picks]
    return values


def bayes_net(
    members: FloatArray, bins: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """The generator family: quantile bins, the Chow–Liu tree, member values in each drawn bin."""
    if bins is None or int(bins) != bins or int(bins) < 2:
        raise ValueError(f"the Bayesian network needs a whole number of bins ≥ 2, got {bins}")
    discretization = quantile_bins(members, int(bins))
    model = fit_bayes_net(members, discretization)
    codes = model.sample_codes(size, rng)
    return decode(codes, discretization, rng, "members", members)


# ---------------------------------------------------------------------------------------------
# The ε-differentially private version


@dataclass(frozen=True)
class PrivacyAccount:
    """How :func:`noisy_pair_tables` spends its budget ``ε`` (see its docstring)."""

    epsilon: float
    """The budget of the whole release, under :attr:`neighbouring`."""
    tables: tuple[tuple[int, int], ...]
    """The released pairwise tables ``(a, b)``, ``a < b``, in the order their noise is drawn."""
    sensitivity: float
    """The L1 sensitivity of each table under :attr:`neighbouring`: 1 (one cell moves by 1)."""
    shares: tuple[float, ...]
    """The ε spent on each table, in the order of :attr:`tables`."""
    scales: tuple[float, ...]
    """The Laplace scale of every cell of each table: ``sensitivity / share``."""
    neighbouring: str = NEIGHBOURING
    """The neighbouring relation the guarantee is stated for."""

    @property
    def spent(self) -> float:
        """The sum of the shares, which basic composition says is the release's ε."""
        return math.fsum(self.shares)

    @property
    def replace_one_epsilon(self) -> float:
        """The guarantee for neighbours that differ by replacing one record: ``2ε``."""
        return 2.0 * self.epsilon


def account_for(columns: int, epsilon: float) -> PrivacyAccount:
    """The budget split of :func:`noisy_pair_tables` for ``columns`` columns and budget ``ε``."""
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    if columns < 2:
        raise ValueError(f"the private network needs at least 2 columns, got {columns}")
    tables = pairs(columns)
    share = epsilon / len(tables)
    return PrivacyAccount(
        epsilon=float(epsilon),
        tables=tables,
        sensitivity=COUNT_SENSITIVITY,
        shares=(share,) * len(tables),
        scales=(COUNT_SENSITIVITY / share,) * len(tables),
    )


@dataclass(frozen=True, eq=False)
class NoisyTables:
    """The released pairwise tables and the account of what releasing them cost."""

    account: PrivacyAccount
    """The budget split and noise scales."""
    noisy: dict[tuple[int, int], FloatArray]
    """Each table's counts plus Laplace noise: the only quantities computed from the data."""

    def post_processed(self) -> dict[tuple[int, int], FloatArray]:
        """The noisy tables with negative cells set to 0 (post-processing: no further cost)."""
        return {pair: np.maximum(table, 0.0) for pair, table in self.noisy.items()}


def noisy_pair_tables(
    codes: IntArray, levels: tuple[int, ...], epsilon: float, rng: np.random.Generator
) -> NoisyTables:
    r"""Every pairwise table of binned records, released with the Laplace mechanism at budget ε.

    Privacy accounting
        *Neighbouring relation.* ``D`` and ``D′`` are neighbours when one is the
        other with one record added or removed (:data:`NEIGHBOURING`, lesson
        03's relation). Fixed in advance and public: the number of columns
        ``d``, the bins (for the private generator: :data:`PRIVATE_BINS`
        equal-width bins of :data:`PRIVATE_DOMAIN`, values outside clipped to
        it), the release size and ``ε``. The number of records is never used.

        *What is released.* The ``K = d(d − 1)/2`` tables ``c_ab`` (``a < b``):
        ``c_ab[i, j]`` counts the records with bin ``i`` in column ``a`` and bin
        ``j`` in column ``b``. Binning (with its clipping) is applied to each
        record on its own, so a record lands in exactly one cell of each table.

        *Sensitivity.* Adding or removing one record changes exactly one cell of
        each table, by exactly 1: each table's L1 sensitivity is ``Δ₁ = 1``
        (:data:`compute.laplace.COUNT_SENSITIVITY`); all ``K`` tables together
        have ``Δ₁ = K``.

        *Split of ε.* Evenly: table ``c_ab`` gets ``ε_ab = ε / K`` and every one
        of its cells gets independent ``Lap(0, Δ₁ / ε_ab) = Lap(0, K / ε)`` noise
        (:func:`compute.laplace.laplace_noise` on :func:`nonzero_uniforms` from
        ``rng``, table by table in the order of :func:`pairs`, cells row by
        row). Each table is then ``ε / K``-differentially private (the Laplace
        mechanism for a vector of L1 sensitivity 1), and by sequential
        composition the ``K`` tables together are ``Σ ε_ab = ε``-differentially
        private. (Equivalently: one Laplace mechanism on the concatenated
        vector, of sensitivity ``K``, at scale ``K / ε``.)

        *Post-processing.* Everything after the release — negative cells set to
        0, normalising, the mutual information, the Chow–Liu tree, the
        conditionals, ancestral sampling and mapping bins to uniform values in
        them — reads only the noisy tables, public constants and randomness
        independent of the data. A function of an ε-DP output is ε-DP, so the
        synthetic records are ε-DP too, and choosing the structure costs
        nothing extra.

        *Replacing one record.* If neighbours are two tables of the same size
        that differ in one record (a fixed-size member set), one record leaves
        one cell and enters another: each table's L1 sensitivity is 2, and the
        same mechanism is ``2ε``-DP under that relation
        (:attr:`PrivacyAccount.replace_one_epsilon`); a bound such as
        ``TPR ≤ e^ε · FPR`` then holds with ``e^{2ε}``.

        *What the guarantee does not cover.* The guarantee is for the members
        as the function receives them. Whatever maps them into these units
        must not depend on them: :func:`compute.generators.generate` refuses to
        standardize a private family's members with their own means and
        standard deviations and asks for statistics fixed without them (public
        data). The noise is drawn in floating point, which, like lesson 03's
        illustrations, protects no real data (Mironov 2012).

    Returns
    -------
    NoisyTables
        The noisy tables (which may have negative or fractional cells) and the
        :class:`PrivacyAccount`.
    """
    account = account_for(len(levels), epsilon)
    sizes = [levels[a] * levels[b] for a, b in account.tables]
    uniforms = nonzero_uniforms(rng, sum(sizes))
    noisy: dict[tuple[int, int], FloatArray] = {}
    start = 0
    for (a, b), size, scale in zip(account.tables, sizes, account.scales, strict=True):
        noise = laplace_noise(uniforms[start : start + size], scale).reshape(levels[a], levels[b])
        noisy[(a, b)] = pair_counts(codes, levels, a, b) + noise
        start += size
    return NoisyTables(account, noisy)


def private_discretization(columns: int) -> Discretization:
    """The public bins of the private generator: :data:`PRIVATE_BINS` bins of the domain."""
    return uniform_bins(*PRIVATE_DOMAIN, PRIVATE_BINS, columns)


def fit_private_bayes_net(
    members: npt.ArrayLike,
    discretization: Discretization,
    epsilon: float,
    rng: np.random.Generator,
) -> tuple[BayesNet, NoisyTables]:
    """The Chow–Liu network of noisy pairwise tables: ε-DP under :data:`NEIGHBOURING`.

    ``discretization`` must not depend on the data (e.g. :func:`uniform_bins`);
    the tables are released by :func:`noisy_pair_tables`, everything else is
    :func:`fit_from_pair_tables` on the post-processed tables.
    """
    codes = discretization.codes(members)
    released = noisy_pair_tables(codes, discretization.levels, epsilon, rng)
    return fit_from_pair_tables(discretization, released.post_processed()), released


def private_bayes_net(
    members: FloatArray, epsilon: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """The generator family: ε-DP Chow–Liu network on public bins, uniform values in each bin.

    ``epsilon`` is the budget under :data:`NEIGHBOURING` (``2ε`` for replacing
    one record); see :func:`noisy_pair_tables` for the accounting and what it
    does not cover.
    """
    if epsilon is None or not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"the private Bayesian network needs an epsilon > 0, got {epsilon}")
    discretization = private_discretization(_table(members, "members").shape[1])
    model, _ = fit_private_bayes_net(members, discretization, epsilon, rng)
    codes = model.sample_codes(size, rng)
    return decode(codes, discretization, rng, "uniform")
