"""Audit a synthetic-data release with membership-inference attacks, before it is published.

A data owner holds the records a generator was trained on (*members*), records
of the same population it never saw (*non-members*), a further *reference*
sample of that population, and the *synthetic* release. :func:`run_audit` runs
the attacks of :mod:`compute.attacks` (Gen-LRA and its rivals) against every
member and non-member and measures how well each attack tells them apart: the
AUC, the TPR at FPR 0, 0.001, 0.01 and 0.1 (the Synth-MIA testbed's
interpolated reading), each with a stratified bootstrap 95 % interval, and the
TPR of an actual threshold at each FPR with an exact (Clopper–Pearson)
interval, or "not measurable" when the non-members are too few. It also ranks
the members an attack finds most exposed, each beside its nearest synthetic
records. Without non-members there are scores and the ranking, but no rates.

The verdict (:func:`compute.audit_verdict.leak_verdict`) covers every attack at once: a
label-permutation test of "members and non-members are exchangeable given the
release" whose false-alarm rate is at most ``alpha`` however many attacks run,
max-T adjusted p-values per attack, and the empirical ε lower bound of DP
auditing (:mod:`compute.attacks.stats`).

The tables are read, checked and encoded by :mod:`compute.audit_data`; the
attacks see standardized columns (scaler fitted on the synthetic data).
:func:`results_json` gives the machine-readable summary that ``explorer audit``
writes as ``results.json``; :func:`scores_table` the per-record scores.

Result names: an attack is named by its key in :data:`compute.attacks.ATTACKS`
(``dcr``, ``domias``, …). Gen-LRA run with one ``k`` is ``gen_lra``; with
several, one result per ``k`` named ``gen_lra_k5``, ``gen_lra_k20``, …
"""

from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy.spatial import cKDTree
from threadpoolctl import threadpool_limits

from .attacks import (
    ATTACKS,
    SingularCovarianceError,
    TprAtFpr,
    auc,
    bootstrap_auc_ci,
    bootstrap_tpr_ci,
    fit_kde,
    roc_curve,
    tpr_at_fpr,
    tpr_at_fpr_exact,
)
from .audit_data import (
    AuditInputError,
    EncodedTables,
    FloatArray,
    Preprocessing,
    ReadOptions,
    Table,
    check_columns,
    check_identical,
    check_kinds,
    check_overlaps,
    check_sizes,
    encode_tables,
    read_table,
    table_from_frame,
)
from .audit_verdict import ALPHA, PERMUTATIONS, LeakTest, check_verdict_options, leak_verdict

FPRS = (0.0, 0.001, 0.01, 0.1)
"""The false-positive rates at which the TPR is reported."""

ATTACK_KEYS = tuple(ATTACKS)
"""Every attack an audit can run, in report order (Gen-LRA first)."""

DEFAULT_K = (5,)
BOOTSTRAP_REPLICATES = 1000
CONFIDENCE = 0.95
EXPOSED_MEMBERS = 20
NEIGHBOURS_SHOWN = 3
LOGAN_SAMPLE_PASSES = 1_000_000
"""LOGAN trains for about this many record presentations (20 to 200 epochs): 200 on small data."""
RELATIVE_COST = {"logan": 9, "gen_lra": 8, "mc": 7, "classifier": 6, "domias": 5, "dpi": 4}
"""Rough order of the attacks' running times, so that the slowest start first in parallel."""
HIGH_DIMENSION = 20
"""Above this many features a Gaussian KDE needs far more records than an audit has."""

KDE_SAMPLES = {
    "gen_lra": ("reference",),
    "domias": ("synthetic", "reference"),
    "density": ("synthetic",),
}
"""Which tables each KDE-based attack fits a Gaussian KDE to (checked before any attack runs)."""

Progress = Callable[[str, int, int], None]
"""``progress(step, done, total)``: once at ``start``, then as each step finishes, then ``done``."""

TableInput = str | Path | pd.DataFrame
"""A table: a path to a CSV (or Parquet) file, or a DataFrame already in memory."""


@dataclass(frozen=True, eq=False)
class AttackMetrics:
    """How well one attack separates members from non-members."""

    auc: float
    """Area under the ROC curve (0.5: no better than a coin)."""
    auc_ci: tuple[float, float]
    """Percentile bootstrap interval of the AUC."""
    tpr_at_fpr: Mapping[float, float]
    """TPR at each FPR of :data:`FPRS` (the testbed's interpolated reading)."""
    tpr_ci: Mapping[float, tuple[float, float]]
    """Percentile bootstrap interval of each TPR (the same replicates as the AUC's)."""
    roc_fpr: FloatArray
    """The ROC curve's false-positive rates, from (0, 0) to (1, 1)."""
    roc_tpr: FloatArray
    """The ROC curve's true-positive rates."""
    tpr_exact: Mapping[float, TprAtFpr | None]
    """At each FPR of :data:`FPRS`, the TPR of an actual threshold with a Clopper–Pearson
    interval; ``None`` where the FPR is below 1 / (number of non-members)."""
    p_value: float
    """The attack's own permutation p-value (not corrected for the other attacks)."""
    p_value_adjusted: float
    """Its max-T p-value, corrected for every attack of the audit."""


@dataclass(frozen=True, eq=False)
class AttackResult:
    """One attack's scores and, with non-members, its metrics."""

    key: str
    """The result's name (``gen_lra``, ``gen_lra_k20``, ``dcr``, …; see the module docstring)."""
    attack: str
    """The attack's key in :data:`compute.attacks.ATTACKS`."""
    k: int | None
    """Gen-LRA's number of synthetic neighbours; ``None`` for the other attacks."""
    name: Mapping[str, str]
    """Display name by language (``ko``, ``en``)."""
    source: str
    """The paper the attack comes from."""
    member_scores: FloatArray
    """One score per member, in file order (higher: more likely a member)."""
    nonmember_scores: FloatArray | None
    """One score per non-member, or ``None`` without non-members."""
    metrics: AttackMetrics | None
    """The metrics, or ``None`` without non-members."""


@dataclass(frozen=True)
class NeighbourRecord:
    """A synthetic record near an exposed member."""

    row: int
    """Its record number in the synthetic file (1 = first record after the header)."""
    distance: float
    """Euclidean distance to the member in the space the attacks see (standardized columns)."""
    values: tuple[object, ...]
    """Its values in the file's own units, one per column of :attr:`AuditResult.columns`."""


@dataclass(frozen=True)
class ExposedMember:
    """A member the ranking attack scores among the highest."""

    rank: int
    """1 for the member with the highest score."""
    row: int
    """Its record number in the members file (1 = first record after the header)."""
    score: float
    """Its score under :attr:`AuditResult.exposed_by`."""
    nonmembers_at_least: float | None
    """Share of non-members scoring at least as high (``None`` without non-members)."""
    values: tuple[object, ...]
    """Its values in the file's own units, one per column of :attr:`AuditResult.columns`."""
    neighbours: tuple[NeighbourRecord, ...]
    """Its nearest synthetic records, closest first."""


@dataclass(frozen=True)
class InputSummary:
    """One input table as the report identifies it."""

    role: str
    """``members``, ``nonmembers``, ``reference`` or ``synthetic``."""
    source: str
    """The path as given (``<DataFrame>`` for a table passed in memory)."""
    sha256: str
    """SHA-256 of the file's bytes."""
    rows: int
    """Number of records."""
    columns: int
    """Number of columns in the file."""


@dataclass(frozen=True)
class AuditSettings:
    """The options an audit ran with."""

    attacks: tuple[str, ...]
    """Attack keys, in report order."""
    k: tuple[int, ...]
    """Gen-LRA's neighbour counts."""
    seed: int
    """Seed of the bootstrap, the verdict's permutations and ε split, classifier and LOGAN."""
    dims: int | None
    """Principal components kept (``None``: no projection)."""
    impute: str | None
    """``None`` or ``"median"``."""
    bootstrap: int = BOOTSTRAP_REPLICATES
    """Bootstrap replicates per interval."""
    confidence: float = CONFIDENCE
    """Coverage of the intervals."""
    fprs: tuple[float, ...] = FPRS
    """FPRs at which the TPR is read."""
    bandwidth: str = "silverman"
    """KDE bandwidth rule of Gen-LRA, DOMIAS and the density attack."""
    logan_epochs: int = 200
    """LOGAN's training epochs at most (see :data:`LOGAN_SAMPLE_PASSES`)."""
    alpha: float = ALPHA
    """The verdict's false-alarm rate over all attacks."""
    permutations: int = PERMUTATIONS
    """Label permutations behind the verdict."""


@dataclass(frozen=True)
class AuditResult:
    """Everything an audit found, ready for a report."""

    attacks: tuple[AttackResult, ...]
    """One result per attack (per ``k`` for Gen-LRA), in report order."""
    exposed_by: str
    """The result whose scores rank the members (:attr:`AttackResult.key`)."""
    exposed: tuple[ExposedMember, ...]
    """The most exposed members, highest score first."""
    columns: tuple[str, ...]
    """Every column of the files, in the synthetic file's order."""
    inputs: tuple[InputSummary, ...]
    """The input tables (non-members left out when not given)."""
    preprocessing: Preprocessing
    """What was done to the tables before the attacks."""
    settings: AuditSettings
    """The options."""
    versions: Mapping[str, str]
    """Versions of Python and the numerical libraries."""
    leak_test: LeakTest | None
    """The verdict, p-values and ε lower bound (``None`` without non-members)."""
    notes: tuple[str, ...] = ()
    """What reading the files assumed, and overlaps let through with ``allow_overlap``."""

    @property
    def has_nonmembers(self) -> bool:
        """Whether rates (AUC, TPR) were measured."""
        return any(result.metrics is not None for result in self.attacks)

    @property
    def high_dimension(self) -> bool:
        """Whether the attacks saw more than :data:`HIGH_DIMENSION` features."""
        return self.preprocessing.dimension > HIGH_DIMENSION


def _as_table(value: TableInput, role: str, options: ReadOptions | None) -> Table:
    return (
        table_from_frame(value, role)
        if isinstance(value, pd.DataFrame)
        else read_table(value, role, options)
    )


def _check_attacks(
    attacks: Sequence[str], k: Sequence[int], synthetic_rows: int
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The attacks in report order and the distinct ``k``, after checking both."""
    unknown = [name for name in attacks if name not in ATTACKS]
    if unknown or not attacks:
        raise AuditInputError(
            f"unknown attack {', '.join(repr(name) for name in unknown)}"
            if unknown
            else "no attack chosen",
            fix=f"choose from {', '.join(ATTACK_KEYS)}",
        )
    counts = tuple(dict.fromkeys(int(count) for count in k))
    if not counts or min(counts) < 1:
        raise AuditInputError(
            f"k must be positive integers, got {list(k)}", fix="pass --k 5, or --k 5,20"
        )
    if "gen_lra" in attacks and max(counts) > synthetic_rows:
        raise AuditInputError(
            f"--k {max(counts)} needs at least {max(counts)} synthetic records; the synthetic "
            f"data has {synthetic_rows}",
            rows=synthetic_rows,
            fix="choose a smaller --k",
        )
    return tuple(key for key in ATTACK_KEYS if key in attacks), counts


def _check_kde(
    tables: Mapping[str, Table],
    encoded: EncodedTables,
    preprocessing: Preprocessing,
    attacks: Sequence[str],
) -> None:
    """Fit each KDE the chosen attacks need, so that a singular covariance fails early."""
    names = (
        [column.name for column in preprocessing.columns]
        if preprocessing.dims is None
        else [f"component {index + 1}" for index in range(preprocessing.dims)]
    )
    for role in sorted({role for attack in attacks for role in KDE_SAMPLES.get(attack, ())}):
        records = getattr(encoded, role)
        try:
            fit_kde(pd.DataFrame(records, columns=names), what=tables[role].source)
        except SingularCovarianceError as error:
            limit = max(1, min(records.shape[1] - 1, records.shape[0] - 2))
            raise AuditInputError(
                str(error),
                file=tables[role].source,
                rows=records.shape[0],
                fix=f"or pass --dims N (N from 1 to {limit}) to keep the first N principal "
                "components of the reference data",
            ) from error


def _scores(
    attack: str, counts: Sequence[int], targets: FloatArray, encoded: EncodedTables, seed: int
) -> list[tuple[int | None, FloatArray]]:
    """One attack's scores for the targets: a column per ``k`` for Gen-LRA, else one column."""
    spec = ATTACKS[attack]
    if attack == "gen_lra":
        columns = spec(targets, encoded.reference, encoded.synthetic, k=list(counts))
        return [(count, columns[:, index]) for index, count in enumerate(counts)]
    options: dict[str, int] = {}
    if attack in ("classifier", "logan"):
        options["random_state"] = seed
    if attack == "logan":
        options["max_iter"] = _logan_epochs(encoded)
    return [(None, spec(targets, encoded.reference, encoded.synthetic, **options))]


def _metrics(
    members: FloatArray, nonmembers: FloatArray, seed: int, p_values: tuple[float, float]
) -> AttackMetrics:
    fpr, tpr = roc_curve(members, nonmembers)
    # Named one by one: a **dict of options would hide a wrong type or name from mypy.
    n_boot, confidence = BOOTSTRAP_REPLICATES, CONFIDENCE
    return AttackMetrics(
        auc=auc(members, nonmembers),
        auc_ci=bootstrap_auc_ci(
            members, nonmembers, n_boot=n_boot, confidence=confidence, seed=seed
        ),
        tpr_at_fpr={rate: tpr_at_fpr(members, nonmembers, rate) for rate in FPRS},
        tpr_ci={
            rate: bootstrap_tpr_ci(
                members, nonmembers, rate, n_boot=n_boot, confidence=confidence, seed=seed
            )
            for rate in FPRS
        },
        roc_fpr=fpr,
        roc_tpr=tpr,
        tpr_exact={
            rate: tpr_at_fpr_exact(members, nonmembers, rate, confidence=confidence)
            for rate in FPRS
        },
        p_value=p_values[0],
        p_value_adjusted=p_values[1],
    )


def _record_values(frame: pd.DataFrame, row: int, columns: Sequence[str]) -> tuple[object, ...]:
    """A record's values as plain Python objects (``None`` for a missing value)."""
    values = []
    for column in columns:
        value = frame[column].iloc[row]
        values.append(None if pd.isna(value) else value.item() if hasattr(value, "item") else value)
    return tuple(values)


def _exposed(
    ranking: AttackResult,
    tables: Mapping[str, Table],
    encoded: EncodedTables,
    columns: Sequence[str],
    count: int,
    shown: int,
) -> tuple[ExposedMember, ...]:
    """The ``count`` highest-scoring members, each with its ``shown`` nearest synthetic records."""
    order = np.lexsort((np.arange(ranking.member_scores.size), -ranking.member_scores))[:count]
    neighbours = min(shown, encoded.synthetic.shape[0])
    distances, indices = cKDTree(encoded.synthetic).query(
        encoded.members[order], k=np.arange(1, neighbours + 1)
    )
    members, synthetic = tables["members"].frame, tables["synthetic"].frame
    exposed = []
    for rank, (row, near, far) in enumerate(zip(order, indices, distances, strict=True), start=1):
        score = float(ranking.member_scores[row])
        share = (
            None
            if ranking.nonmember_scores is None
            else float(np.mean(ranking.nonmember_scores >= score))
        )
        records = tuple(
            NeighbourRecord(
                int(index) + 1, float(distance), _record_values(synthetic, int(index), columns)
            )
            for index, distance in zip(near, far, strict=True)
        )
        exposed.append(
            ExposedMember(
                rank,
                int(row) + 1,
                score,
                share,
                _record_values(members, int(row), columns),
                records,
            )
        )
    return tuple(exposed)


class _Steps:
    """Counts finished steps and passes them on to a :data:`Progress` callback."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, step: str) -> None:
        if step != "start":
            self.done = self.total if step == "done" else self.done + 1
        self.progress(step, self.done, self.total)


def _logan_epochs(encoded: EncodedTables) -> int:
    """LOGAN's epoch budget: about :data:`LOGAN_SAMPLE_PASSES` records seen in training."""
    training_rows = 2 * min(encoded.reference.shape[0], encoded.synthetic.shape[0])
    return int(np.clip(LOGAN_SAMPLE_PASSES // training_rows, 20, 200))


def _attack_task(
    attack: str, counts: Sequence[int], targets: FloatArray, encoded: EncodedTables, seed: int
) -> tuple[str, list[tuple[int | None, FloatArray]] | str]:
    """One attack's scores, or the sentence of the ``ValueError`` that stopped it."""
    # OpenBLAS threads make the KDE attacks' many small products several times slower.
    with threadpool_limits(limits=1, user_api="blas"):
        try:
            return attack, _scores(attack, counts, targets, encoded, seed)
        except ValueError as error:  # the attack library's word on tables it cannot use
            return attack, str(error)


def _run_attacks(
    chosen: Sequence[str],
    counts: Sequence[int],
    targets: FloatArray,
    encoded: EncodedTables,
    seed: int,
    jobs: int,
    steps: _Steps,
) -> list[tuple[str, int | None, FloatArray]]:
    """Every attack's scores of the targets as ``(attack, k, scores)``, in report order."""
    slowest_first = sorted(chosen, key=lambda attack: -RELATIVE_COST.get(attack, 0))
    tasks = (delayed(_attack_task)(a, counts, targets, encoded, seed) for a in slowest_first)
    found = {}
    for attack, columns in Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks):
        if isinstance(columns, str):
            raise AuditInputError(
                f"the {attack} attack cannot run on these tables: {columns}",
                fix=f"use larger samples, or leave {attack} out with --attacks",
            )
        steps(attack)
        found[attack] = columns
    return [(attack, count, scores) for attack in chosen for count, scores in found[attack]]


def _metrics_task(
    key: str,
    members: FloatArray,
    nonmembers: FloatArray,
    seed: int,
    p_values: tuple[float, float],
) -> tuple[str, AttackMetrics]:
    with threadpool_limits(limits=1, user_api="blas"):
        return key, _metrics(members, nonmembers, seed, p_values)


def _measure(
    scores: Sequence[tuple[str, int | None, FloatArray]],
    split: int,
    has_nonmembers: bool,
    settings: AuditSettings,
    jobs: int,
    steps: _Steps,
) -> tuple[tuple[AttackResult, ...], LeakTest | None]:
    """The attack results, with metrics and the verdict when there are non-members."""
    several = len({count for _, count, _ in scores if count is not None}) > 1
    keyed = {
        (attack if count is None or not several else f"{attack}_k{count}"): (attack, count, values)
        for attack, count, values in scores
    }
    metrics: dict[str, AttackMetrics] = {}
    leak_test = None
    seed = settings.seed
    if has_nonmembers:
        leak_test = leak_verdict(
            {key: values[:split] for key, (_, _, values) in keyed.items()},
            {key: values[split:] for key, (_, _, values) in keyed.items()},
            alpha=settings.alpha,
            permutations=settings.permutations,
            seed=seed,
        )
        tasks = (
            delayed(_metrics_task)(
                key,
                values[:split],
                values[split:],
                seed,
                (leak_test.p_values[key], leak_test.p_values_adjusted[key]),
            )
            for key, (_, _, values) in keyed.items()
        )
        for key, measured in Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks):
            steps(f"metrics {key}")
            metrics[key] = measured
    return tuple(
        AttackResult(
            key=key,
            attack=attack,
            k=count,
            name={"ko": ATTACKS[attack].name_ko, "en": ATTACKS[attack].name},
            source=ATTACKS[attack].reference,
            member_scores=values[:split],
            nonmember_scores=values[split:] if has_nonmembers else None,
            metrics=metrics.get(key),
        )
        for key, (attack, count, values) in keyed.items()
    ), leak_test


def library_versions() -> dict[str, str]:
    """Versions of Python, this project and the libraries the numbers depend on."""
    versions = {"python": platform.python_version()}
    for package in ("privacy-copyright-explorer", "numpy", "scipy", "scikit-learn", "pandas"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def load_tables(
    members: TableInput,
    nonmembers: TableInput | None,
    reference: TableInput,
    synthetic: TableInput,
    *,
    options: ReadOptions | None = None,
    allow_overlap: bool = False,
) -> tuple[dict[str, Table], dict[str, bool], tuple[str, ...]]:
    """Read the input tables and check them against each other.

    The checks: no two roles share a file, the columns and their kinds agree, every file has
    enough rows, and no member is among the non-members or the reference (unless
    ``allow_overlap``). Returns the tables by role, for each column whether it holds text, and
    the notes of what reading assumed.

    Raises
    ------
    AuditInputError
        For the first kind of problem found, listing every instance of it.
    """
    given = {
        "members": members,
        "nonmembers": nonmembers,
        "reference": reference,
        "synthetic": synthetic,
    }
    tables = {
        role: _as_table(value, role, options) for role, value in given.items() if value is not None
    }
    check_identical(list(tables.values()))
    columns = check_columns(list(tables.values()))
    text = check_kinds(list(tables.values()), columns)
    check_sizes(list(tables.values()))
    overlaps = check_overlaps(list(tables.values()), columns, allow_overlap)
    notes = tuple(note for table in tables.values() for note in table.notes)
    return tables, text, notes + overlaps


def run_audit(
    members: TableInput,
    nonmembers: TableInput | None,
    reference: TableInput,
    synthetic: TableInput,
    *,
    k: Sequence[int] = DEFAULT_K,
    attacks: Sequence[str] = ATTACK_KEYS,
    seed: int = 0,
    dims: int | None = None,
    impute: str | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    alpha: float = ALPHA,
    permutations: int = PERMUTATIONS,
    read_options: ReadOptions | None = None,
    allow_overlap: bool = False,
) -> AuditResult:
    """Run the membership attacks on a synthetic release and measure them.

    Parameters
    ----------
    members, nonmembers, reference, synthetic
        The four tables (paths or DataFrames) with the same columns;
        ``nonmembers`` may be ``None`` (then there are scores but no rates).
    k
        Gen-LRA's numbers of nearest synthetic records (one result per ``k``).
    attacks
        Keys of :data:`compute.attacks.ATTACKS` to run.
    seed
        Seed of the bootstrap intervals, of the verdict's permutations and ε split (separate
        streams, see :mod:`compute.audit_verdict`) and of the classifier and LOGAN attacks.
    dims
        Keep the first ``dims`` principal components of the (standardized)
        reference data; ``None`` keeps the columns.
    impute
        ``None`` (a missing value is an error) or ``"median"``.
    jobs
        Attacks (and then their metrics) computed at once in worker processes;
        the results do not depend on it.
    progress
        Called as ``progress(step, done, total)`` (see :data:`Progress`).
    alpha
        The verdict's false-alarm rate over all attacks (see
        :func:`compute.audit_verdict.leak_verdict`).
    permutations
        Label permutations behind the verdict (at least 100).
    read_options
        Separator, decimal mark and missing-value markers of the CSV files (sniffed by default).
    allow_overlap
        Audit even when members appear among the non-members or in the reference (a note says
        so) instead of raising.

    Raises
    ------
    AuditInputError
        For any problem with the tables or options, before any attack runs.
    """
    report = progress or (lambda step, done, total: None)
    check_verdict_options(alpha, permutations)
    tables, text, notes = load_tables(
        members,
        nonmembers,
        reference,
        synthetic,
        options=read_options,
        allow_overlap=allow_overlap,
    )
    chosen, counts = _check_attacks(attacks, k, tables["synthetic"].rows)
    columns = tuple(tables["synthetic"].frame.columns)
    preprocessing, encoded = encode_tables(
        list(tables.values()), columns, text, impute=impute, dims=dims
    )
    _check_kde(tables, encoded, preprocessing, chosen)

    targets = (
        encoded.members
        if encoded.nonmembers is None
        else np.vstack([encoded.members, encoded.nonmembers])
    )
    results = sum(len(counts) if attack == "gen_lra" else 1 for attack in chosen)
    steps = _Steps(report, len(chosen) + (results if encoded.nonmembers is not None else 0))
    steps("start")
    settings = AuditSettings(
        chosen,
        counts,
        seed,
        dims,
        impute,
        logan_epochs=_logan_epochs(encoded),
        alpha=alpha,
        permutations=permutations,
    )
    scores = _run_attacks(chosen, counts, targets, encoded, seed, jobs, steps)
    finished, leak_test = _measure(
        scores, encoded.members.shape[0], encoded.nonmembers is not None, settings, jobs, steps
    )
    steps("done")
    exposed = _exposed(finished[0], tables, encoded, columns, EXPOSED_MEMBERS, NEIGHBOURS_SHOWN)
    return AuditResult(
        attacks=finished,
        exposed_by=finished[0].key,
        exposed=exposed,
        columns=columns,
        inputs=tuple(
            InputSummary(
                table.role, table.source, table.sha256, table.rows, len(table.frame.columns)
            )
            for table in tables.values()
        ),
        preprocessing=preprocessing,
        settings=settings,
        versions=library_versions(),
        leak_test=leak_test,
        notes=notes,
    )


SENSITIVE_NOTICE = (
    "SENSITIVE: as sensitive as the training data. These scores and file checksums say which "
    "records were members; keep this file where the training data is kept, never with the "
    "public release."
)
"""The first field of ``results.json`` (its key sorts first)."""


def fpr_label(rate: float) -> str:
    """How an FPR is written as a key: ``0``, ``0.001``, ``0.01``, ``0.1``."""
    return f"{rate:g}"


def _preprocessing_json(preprocessing: Preprocessing) -> dict[str, object]:
    return {
        "scaler": "standardize (mean, population standard deviation) fitted on the synthetic data",
        "categorical": "ordinal codes in sorted order over all files, then standardized",
        "columns": [
            {
                "name": column.name,
                "kind": column.kind,
                "mean": column.mean,
                "scale": column.scale,
                "categories": list(column.categories),
            }
            for column in preprocessing.columns
        ],
        "dropped_constant": [
            {
                "name": column.name,
                "constant_in": list(column.constant_in),
                "value": column.value,
                "nearly_constant": not column.exact,
                "tolerance": column.tolerance,
            }
            for column in preprocessing.dropped
        ],
        "impute": preprocessing.impute,
        "imputed": [
            {"file": item.role, "column": item.column, "count": item.count, "value": item.value}
            for item in preprocessing.imputed
        ],
        "dims": preprocessing.dims,
        "pca_fitted_on": "reference" if preprocessing.dims is not None else None,
        "explained_variance": preprocessing.explained_variance,
    }


def _exact_json(exact: Mapping[float, TprAtFpr | None]) -> dict[str, list[float] | None]:
    """Each FPR's exact interval as ``[lo, hi]``, ``None`` where it cannot be measured."""
    return {
        fpr_label(rate): None if found is None else list(found.interval)
        for rate, found in exact.items()
    }


def results_json(result: AuditResult) -> dict[str, object]:
    """The machine-readable summary (``results.json``).

    ``{"_sensitive": SENSITIVE_NOTICE, "attacks": {key: {"auc",
    "tpr_at_fpr": {"0", "0.001", "0.01", "0.1"}, "auc_ci": [lo, hi],
    "p_value", "p_value_adjusted", "tpr_at_fpr_ci": {"0": [lo, hi] or null, …}}},
    "verdict": {"leak_detected", "alpha", "p_value", "method", "permutations"},
    "epsilon_lower_bound": {"value", "confidence", "attack"}, "inputs", "settings",
    "versions"}``. Without non-members every attack's values, the verdict and
    the bound are ``null``.
    """
    attacks: dict[str, object] = {}
    for attack in result.attacks:
        metrics = attack.metrics
        attacks[attack.key] = {
            "auc": None if metrics is None else metrics.auc,
            "tpr_at_fpr": None
            if metrics is None
            else {fpr_label(rate): metrics.tpr_at_fpr[rate] for rate in FPRS},
            "auc_ci": None if metrics is None else list(metrics.auc_ci),
            "p_value": None if metrics is None else metrics.p_value,
            "p_value_adjusted": None if metrics is None else metrics.p_value_adjusted,
            "tpr_at_fpr_ci": None if metrics is None else _exact_json(metrics.tpr_exact),
        }
    settings = result.settings
    leak_test = result.leak_test
    return {
        "_sensitive": SENSITIVE_NOTICE,
        "attacks": attacks,
        "verdict": None
        if leak_test is None
        else {
            "leak_detected": leak_test.verdict.leak_detected,
            "alpha": leak_test.verdict.alpha,
            "p_value": leak_test.verdict.p_value,
            "method": leak_test.verdict.method,
            "permutations": leak_test.verdict.permutations,
        },
        "epsilon_lower_bound": None
        if leak_test is None
        else {
            "value": leak_test.epsilon_bound.value,
            "confidence": leak_test.epsilon_bound.confidence,
            "attack": leak_test.epsilon_bound.attack,
        },
        "inputs": {
            item.role: {
                "file": item.source,
                "sha256": item.sha256,
                "rows": item.rows,
                "columns": item.columns,
            }
            for item in result.inputs
        },
        "settings": {
            "attacks": list(settings.attacks),
            "k": list(settings.k),
            "seed": settings.seed,
            "bootstrap_replicates": settings.bootstrap,
            "confidence": settings.confidence,
            "fprs": [fpr_label(rate) for rate in settings.fprs],
            "tpr_at_fpr_rule": "linear interpolation on the ROC curve (Synth-MIA testbed)",
            "tpr_at_fpr_ci_rule": "Clopper-Pearson interval of the TPR of the threshold that "
            "flags at most FPR x N of the N non-members; null when FPR < 1/N (not measurable)",
            "verdict_test": "label permutation of members and non-members, one-sided AUC, "
            "family-wise over all attacks (max-T adjusted p-values)",
            "kde_bandwidth": settings.bandwidth,
            "logan_max_epochs": settings.logan_epochs,
            "exposed_ranked_by": result.exposed_by,
            "preprocessing": _preprocessing_json(result.preprocessing),
            "reading_notes": list(result.notes),
        },
        "versions": dict(result.versions),
    }


def scores_table(result: AuditResult) -> pd.DataFrame:
    """One row per target record (members, then non-members), one column per attack result.

    The first columns are ``set`` (``member`` or ``nonmember``) and ``row``
    (the record number in its file, 1 = first record after the header).
    """
    first = result.attacks[0]
    sets = {"member": first.member_scores.size}
    if first.nonmember_scores is not None:
        sets["nonmember"] = first.nonmember_scores.size
    frame = pd.DataFrame(
        {
            "set": [name for name, size in sets.items() for _ in range(size)],
            "row": [row for size in sets.values() for row in range(1, size + 1)],
        }
    )
    for attack in result.attacks:
        parts = [attack.member_scores] + (
            [] if attack.nonmember_scores is None else [attack.nonmember_scores]
        )
        frame[attack.key] = np.concatenate(parts)
    return frame
