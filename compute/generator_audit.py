"""Real generators on real data: every attack and the utility of each generator setting.

Data (:data:`REAL_DATA`)
    ``"concrete"``: the UCI concrete table (:func:`compute.datasets.load_concrete`),
    deduplicated as in lesson 02 (:func:`compute.mlp.deduplicate`: exact
    duplicates dropped, rows sharing all eight inputs merged into one with
    their mean strength), which leaves 992 rows of 8 inputs and the strength.
    No record can then sit on both sides of a split.
    ``"housing"``: the 600 real rows of the Synth-MIA housing release
    (:func:`compute.datasets.load_housing`: its members, non-members and
    reference, 200 each, all drawn from the California housing data; no two
    rows are equal). The testbed's own synthetic file is not used here.
    Pooling the three is honest because they are samples of one population;
    600 rows are few, so each part of a split has 150 (see below).
Splits (:func:`real_split`)
    ``numpy.random.default_rng(seed).permutation`` orders the rows; the first
    ones are the members (the generator's training data), the next the
    non-members, the next the auditor's reference sample, and the rest the
    test split on which utility is measured. The four are disjoint. Concrete:
    :data:`MEMBER_COUNT`, :data:`NONMEMBER_COUNT`, :data:`REFERENCE_COUNT`
    (250 each) and 242 for the test. Housing: :data:`HOUSING_PART` (150) for
    each of the four. The seed changes the split as well as the generator, so
    the spread over seeds includes both.
Release
    A generator of each setting (:data:`~compute.generators.GENERATOR_SETTINGS`,
    :data:`~compute.generators.BAYES_NET_SETTINGS`) is trained on the members
    and releases as many records as there are members (the usual convention,
    so that a copy rate means the same in every setting), drawn with
    ``default_rng((seed, GENERATOR_STREAM))``. Every setting of a seed draws
    from the same stream: within a family, settings differ by their
    parameter, not by new noise. A private family is standardized with the
    reference sample's statistics (public data, disjoint from the members),
    so its ε-DP guarantee covers the members end to end; every other family
    with the members' own, as a data holder would.
Attacks
    The auditor sees the release and the reference, never the members. So
    targets (members, then non-members), reference and release are
    standardized with the *reference* statistics (means and standard
    deviations of the 9 columns, the target column included), and every
    attack of :data:`compute.attacks.ATTACKS` runs on those 9-D tables with
    its default options (Gen-LRA: ``k = 5``, Silverman's bandwidth), the
    model-based ones seeded by :func:`compute.audit_experiments.rival_options`.
Utility
    A ``GradientBoostingRegressor`` (scikit-learn defaults, ``random_state =
    seed``) learns the last column (the concrete's strength, the housing's
    median house value) from the other 8 of the release, in original units,
    and is scored by R² on the test split. The same regressor trained on the
    members themselves gives the baseline R² of the seed. With 150 test rows
    the housing R² moves by a few hundredths from seed to seed.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sklearn.ensemble import GradientBoostingRegressor

from .attacks import ATTACKS
from .audit_experiments import (
    GEN_LRA,
    KDE_RIVALS,
    AttackOutcome,
    attack_release,
    find_outcome,
    rival_options,
)
from .datasets import CONCRETE_INPUTS, CONCRETE_TARGET, HOUSING_COLUMNS, load_concrete, load_housing
from .generators import GENERATOR_SETTINGS, GeneratorSetting, Standardizer, generate

# Lesson 02 owns the deduplication; it is to move into a library module.
from .mlp import deduplicate

FloatArray = npt.NDArray[np.float64]

MEMBER_COUNT = 250
"""Members: the records a generator is trained on."""
NONMEMBER_COUNT = 250
"""Non-members: records of the population the generator never saw."""
REFERENCE_COUNT = 250
"""The auditor's reference sample."""
HOUSING_PART = 150
"""Rows of each of the four parts of a housing split (600 real rows in all)."""
REAL_DATA: tuple[str, ...] = ("concrete", "housing")
"""The real data sets a generator can be trained on (see the module docstring)."""
GENERATOR_STREAM = 1
"""Second entry of the seed tuple from which the generators draw."""
GENERATOR_SEEDS: tuple[int, ...] = (1, 2, 3)
"""Seeds of the real-generator experiment."""
REAL_DATA_K = 5
"""Gen-LRA's number of synthetic neighbours on the real data (the library's default)."""


@dataclass(frozen=True, eq=False)
class RealSplit:
    """A real table cut into four disjoint parts (original units)."""

    columns: tuple[str, ...]
    """The 9 column names; the last is the one utility predicts."""
    members: FloatArray
    """The generator's training records."""
    nonmembers: FloatArray
    """Records the generator never saw (the attacks' negatives)."""
    reference: FloatArray
    """The auditor's reference sample."""
    test: FloatArray
    """Held out for utility: the regressors are scored on it."""
    rows: dict[str, tuple[int, ...]]
    """Row numbers in the (deduplicated) table of each part (``members``, ``nonmembers``, …)."""
    seed: int
    """The seed of the permutation."""

    @property
    def auditor(self) -> Standardizer:
        """The standardization the auditor can compute: the reference statistics."""
        return Standardizer.fit(self.reference)


@functools.cache
def _deduplicated_table() -> tuple[tuple[str, ...], FloatArray]:
    table, _ = deduplicate(load_concrete(), CONCRETE_INPUTS, CONCRETE_TARGET)
    return tuple(str(name) for name in table.columns), table.to_numpy(dtype=np.float64)


@functools.cache
def _housing_table() -> tuple[tuple[str, ...], FloatArray]:
    release = load_housing()
    rows = [release.members, release.nonmembers, release.reference]
    return HOUSING_COLUMNS, np.vstack([part.to_numpy(dtype=np.float64) for part in rows])


def _split(
    columns: tuple[str, ...], table: FloatArray, seed: int, sizes: tuple[int, int, int]
) -> RealSplit:
    order = np.random.default_rng(seed).permutation(table.shape[0])
    bounds = np.cumsum([0, *sizes])
    names = ("members", "nonmembers", "reference")
    parts = {name: order[bounds[i] : bounds[i + 1]] for i, name in enumerate(names)}
    parts["test"] = order[bounds[-1] :]
    arrays = {name: table[rows] for name, rows in parts.items()}
    for array in arrays.values():
        array.setflags(write=False)
    return RealSplit(
        columns=columns,
        rows={name: tuple(int(row) for row in rows) for name, rows in parts.items()},
        seed=seed,
        **arrays,
    )


@functools.cache
def concrete_split(seed: int) -> RealSplit:
    """The concrete members, non-members, reference and test of ``seed`` (250, 250, 250, 242)."""
    return _split(*_deduplicated_table(), seed, (MEMBER_COUNT, NONMEMBER_COUNT, REFERENCE_COUNT))


@functools.cache
def housing_split(seed: int) -> RealSplit:
    """The housing members, non-members, reference and test of ``seed`` (150 rows each)."""
    return _split(*_housing_table(), seed, (HOUSING_PART,) * 3)


def real_split(data: str, seed: int) -> RealSplit:
    """The split of ``seed`` of the data set ``data`` (one of :data:`REAL_DATA`)."""
    if data == "concrete":
        return concrete_split(seed)
    if data == "housing":
        return housing_split(seed)
    raise ValueError(f"unknown data set {data!r}; choose one of {', '.join(REAL_DATA)}")


def utility_r2(training: FloatArray, test: FloatArray, seed: int) -> float:
    """R² on ``test`` of a gradient-boosting regressor of the last column on the others."""
    model = GradientBoostingRegressor(random_state=seed)
    model.fit(training[:, :-1], training[:, -1])
    return float(model.score(test[:, :-1], test[:, -1]))


@functools.cache
def baseline_r2(seed: int, data: str = "concrete") -> float:
    """The utility of the real members themselves (see :func:`utility_r2`)."""
    split = real_split(data, seed)
    return utility_r2(split.members, split.test, seed)


@dataclass(frozen=True, eq=False)
class GeneratorResult:
    """One generator setting on one seed: its release, every attack on it, its utility."""

    setting: GeneratorSetting
    """The generator and its parameter."""
    seed: int
    """The seed of the split and the generator."""
    data: str
    """The data set (one of :data:`REAL_DATA`)."""
    synthetic: FloatArray
    """The released records, in original units."""
    outcomes: tuple[AttackOutcome, ...]
    """One outcome per attack, in the order of the attacks run."""
    utility_r2: float
    """Test R² of the regressor trained on the release."""
    baseline_r2: float
    """Test R² of the same regressor trained on the members."""

    def outcome(self, attack: str) -> AttackOutcome:
        """The outcome of ``attack`` (Gen-LRA at k = 5, the KDEs at Silverman's)."""
        return find_outcome(
            self.outcomes,
            attack,
            k=REAL_DATA_K if attack == GEN_LRA else None,
            bandwidth_multiple=1.0 if attack == GEN_LRA or attack in KDE_RIVALS else None,
        )

    @property
    def best_outcome(self) -> AttackOutcome:
        """The attack with the highest AUC (the first of them on a tie)."""
        return max(self.outcomes, key=lambda outcome: outcome.auc)


def run_generator_setting(
    setting: GeneratorSetting,
    seed: int,
    *,
    data: str = "concrete",
    attacks: Sequence[str] | None = None,
    synthetic_size: int | None = None,
) -> GeneratorResult:
    """Train ``setting``'s generator on the members of ``seed``'s split, attack it, score it.

    Parameters
    ----------
    setting
        One of :data:`~compute.generators.GENERATOR_SETTINGS` (or any setting).
    seed
        Chooses the split (:func:`real_split`) and the generator's randomness.
    data
        The data set, one of :data:`REAL_DATA`.
    attacks
        Keys of :data:`compute.attacks.ATTACKS`, all by default.
    synthetic_size
        Records released; the member count by default.
    """
    split = real_split(data, seed)
    size = split.members.shape[0] if synthetic_size is None else synthetic_size
    rng = np.random.default_rng((seed, GENERATOR_STREAM))
    auditor = split.auditor
    public = auditor if setting.private else None  # the reference: not the members
    synthetic = generate(split.members, setting, size, rng, standardizer=public)
    outcomes = attack_release(
        auditor.forward(split.members),
        auditor.forward(split.nonmembers),
        auditor.forward(split.reference),
        auditor.forward(synthetic),
        attacks=tuple(ATTACKS) if attacks is None else tuple(attacks),
        ks=(REAL_DATA_K,),
        bandwidth_multiples=(1.0,),
        options=rival_options(seed),
    )
    return GeneratorResult(
        setting=setting,
        seed=seed,
        data=data,
        synthetic=synthetic,
        outcomes=outcomes,
        utility_r2=utility_r2(synthetic, split.test, seed),
        baseline_r2=baseline_r2(seed, data),
    )


def run_generator_grid(
    settings: Iterable[GeneratorSetting] = GENERATOR_SETTINGS,
    seeds: Sequence[int] = GENERATOR_SEEDS,
    *,
    data: str = "concrete",
    n_jobs: int = 1,
) -> tuple[GeneratorResult, ...]:
    """:func:`run_generator_setting` for every setting and seed (settings outer, seeds inner)."""
    from joblib import Parallel, delayed

    points = [(setting, seed) for setting in settings for seed in seeds]
    return tuple(
        Parallel(n_jobs=n_jobs)(
            delayed(run_generator_setting)(*point, data=data) for point in points
        )
    )


def _time_generators() -> None:
    """Print the cost of each setting (CPU) and of the whole grid (wall, 2 jobs)."""
    import time

    for setting in GENERATOR_SETTINGS:
        started = time.process_time()
        result = run_generator_setting(setting, GENERATOR_SEEDS[0])
        best = result.best_outcome
        print(
            f"{setting.key:10s} {time.process_time() - started:5.2f} s CPU   "
            f"best {best.attack:10s} AUC {best.auc:.3f}   R² {result.utility_r2:.3f}"
        )
    started = time.perf_counter()
    results = run_generator_grid(n_jobs=2)
    print(f"whole grid, {len(results)} runs, 2 jobs: {time.perf_counter() - started:.1f} s wall")


if __name__ == "__main__":
    # Run the imported module's copy, so that worker processes can unpickle its functions.
    importlib.import_module(__spec__.name)._time_generators()
