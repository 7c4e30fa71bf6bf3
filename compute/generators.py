"""Synthetic-data generators built from NumPy and scikit-learn, from cautious to memorizing.

Every generator is a function ``(members, parameter, size, rng) → records`` on
*standardized* members (each column centred and divided by its standard
deviation over the members, :class:`Standardizer`), registered in
:data:`FAMILIES`. :func:`generate` does the standardizing and maps the
records back to the members' units, the way a data holder would preprocess
a table before fitting a generator. A :class:`GeneratorSetting` names a
family and its parameter; :data:`GENERATOR_SETTINGS` lists the settings
lesson 05 compares (16 in all: 6 mixtures, 6 KDE bandwidths, 3 SMOTE
neighbourhoods and the marginals).

Families
    ``gaussian_mixture``
        ``sklearn.mixture.GaussianMixture`` with full covariances and
        ``reg_covar`` :data:`MIXTURE_REG_COVAR` (k-means initialisation, at
        most :data:`MIXTURE_MAX_ITER` EM steps), then sampled from the fitted
        weights, means and covariances with ``rng``. Few components smooth the
        table; with many, each component sits on a handful of members and
        its covariance collapses towards them, so samples land next to
        members.
    ``kde``
        A member chosen uniformly plus ``N(0, h² I)`` noise in standardized
        units (so ``h`` times each column's standard deviation): sampling
        from a Gaussian KDE of the members with a diagonal bandwidth. Wide
        ``h`` blurs, tiny ``h`` releases near-copies.
    ``smote``
        A member ``x`` chosen uniformly, one of its ``k`` nearest other members
        ``y`` (Euclidean, in standardized units) chosen uniformly, and the
        point ``x + λ (y − x)`` with ``λ ~ U(0, 1)``: SMOTE's interpolation.
        Every record lies on a segment between two members.
    ``marginals``
        Each column resampled independently (with replacement) from the
        members' values of that column: the empirical marginals are kept,
        every joint relation is broken. No parameter.
    ``bayes_net``
        A Chow–Liu Bayesian network on each column cut into at most ``b``
        quantile bins (:func:`compute.bayes_net.bayes_net`): pairwise
        dependence along a tree is kept, and every value of a column is a
        member's value of that column. Parameter: the bins ``b``.
    ``private_bayes_net``
        The same network built from pairwise tables released with the Laplace
        mechanism on public bins (:func:`compute.bayes_net.private_bayes_net`):
        ε-differentially private for adding or removing one member (``2ε``
        for replacing one). :func:`generate` standardizes its members with
        statistics the caller fixes without them (a ``standardizer`` from
        public data, such as a sample disjoint from the members), so the
        guarantee covers the members in their own units; see
        :func:`compute.bayes_net.noisy_pair_tables`. Parameter: ``ε``.

Lesson 05 iterates over :data:`GENERATOR_SETTINGS` only, which holds the first
four families; :data:`BAYES_NET_SETTINGS` names the settings of the two
Bayesian-network families for experiments that are not (yet) part of its grid.

Standardizing
    By default :func:`generate` standardizes with the members' own means and
    standard deviations, as a data holder would. Those statistics are
    functions of the members, released in effect through the units of every
    record, so a family in :data:`PRIVATE_FAMILIES` refuses them: it needs
    a ``standardizer`` fitted on data that are not the members.
Randomness
    ``rng`` is the only source: the mixture's k-means start is seeded with an
    integer drawn from it, so a setting and a seed always give the same records.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture
from sklearn.neighbors import NearestNeighbors

from .bayes_net import BAYES_NET_BINS, PRIVATE_EPSILONS, bayes_net, private_bayes_net

FloatArray = npt.NDArray[np.float64]

MIXTURE_REG_COVAR = 1e-4
"""Added to each mixture covariance's diagonal (standardized units): keeps a component with
fewer members than columns invertible, and is far below the spread of the data (1)."""
MIXTURE_MAX_ITER = 200
"""At most this many EM steps per mixture fit."""


@dataclass(frozen=True, eq=False)
class Standardizer:
    """Centre and scale columns with the means and standard deviations of one table."""

    mean: FloatArray
    """Column means of the table the statistics come from."""
    scale: FloatArray
    """Column standard deviations (divisor ``n``); a constant column gets 1."""

    @classmethod
    def fit(cls, table: npt.ArrayLike) -> Standardizer:
        """The statistics of ``table`` (rows = records)."""
        values = np.asarray(table, dtype=np.float64)
        scale = values.std(axis=0)
        return cls(values.mean(axis=0), np.where(scale > 0, scale, 1.0))

    def forward(self, table: npt.ArrayLike) -> FloatArray:
        """``(x − mean) / scale`` for each row."""
        return np.asarray((np.asarray(table, dtype=np.float64) - self.mean) / self.scale)

    def inverse(self, table: npt.ArrayLike) -> FloatArray:
        """``z · scale + mean`` for each row: back to the original units."""
        return np.asarray(np.asarray(table, dtype=np.float64) * self.scale + self.mean)


def gaussian_mixture(
    members: FloatArray, components: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """Fit a full-covariance Gaussian mixture with ``components`` components, then sample it."""
    if components is None or int(components) < 1 or int(components) > members.shape[0]:
        raise ValueError(
            f"a Gaussian mixture needs 1 to {members.shape[0]} components, got {components}"
        )
    model = GaussianMixture(
        n_components=int(components),
        covariance_type="full",
        reg_covar=MIXTURE_REG_COVAR,
        max_iter=MIXTURE_MAX_ITER,
        random_state=int(rng.integers(2**31 - 1)),
    )
    with warnings.catch_warnings():
        # Many components on few members may stop before EM converges; the fit is still usable.
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(members)
    chosen = rng.choice(model.weights_.size, size=size, p=model.weights_ / model.weights_.sum())
    normals = rng.standard_normal((size, members.shape[1]))
    choleskys = np.linalg.cholesky(model.covariances_)
    return np.asarray(model.means_[chosen] + np.einsum("nab,nb->na", choleskys[chosen], normals))


def kde_sampler(
    members: FloatArray, bandwidth: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """A uniformly chosen member plus ``N(0, bandwidth² I)`` noise, per record."""
    if bandwidth is None or not bandwidth > 0:
        raise ValueError(f"the KDE sampler needs a bandwidth > 0, got {bandwidth}")
    chosen = rng.integers(0, members.shape[0], size=size)
    noise = rng.standard_normal((size, members.shape[1]))
    return np.asarray(members[chosen] + bandwidth * noise)


def smote(
    members: FloatArray, neighbours: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """A member moved a uniform fraction of the way towards one of its nearest members."""
    if neighbours is None or not 1 <= int(neighbours) < members.shape[0]:
        raise ValueError(f"SMOTE needs 1 to {members.shape[0] - 1} neighbours, got {neighbours}")
    count = int(neighbours)
    # The nearest record of each member is itself (members are distinct), so ask for one more.
    _, nearest = NearestNeighbors(n_neighbors=count + 1).fit(members).kneighbors(members)
    partners = nearest[:, 1:]
    chosen = rng.integers(0, members.shape[0], size=size)
    partner = partners[chosen, rng.integers(0, count, size=size)]
    fraction = rng.random(size)
    start = members[chosen]
    return np.asarray(start + fraction[:, None] * (members[partner] - start))


def independent_marginals(
    members: FloatArray, parameter: float | None, size: int, rng: np.random.Generator
) -> FloatArray:
    """Each column drawn with replacement from the members' values, independently of the others."""
    if parameter is not None:
        raise ValueError(f"independent marginals take no parameter, got {parameter}")
    rows = rng.integers(0, members.shape[0], size=(size, members.shape[1]))
    return np.asarray(np.take_along_axis(members, rows, axis=0))


PRIVATE_FAMILIES: frozenset[str] = frozenset({"private_bayes_net"})
"""Families with a differential-privacy guarantee: :func:`generate` refuses to standardize
their members with the members' own statistics."""

Generator = Callable[[FloatArray, float | None, int, np.random.Generator], FloatArray]
"""``(standardized members, parameter, size, rng) → standardized records``."""

FAMILIES: dict[str, Generator] = {
    "gaussian_mixture": gaussian_mixture,
    "kde": kde_sampler,
    "smote": smote,
    "marginals": independent_marginals,
    "bayes_net": bayes_net,
    "private_bayes_net": private_bayes_net,
}
"""Every generator family by name; the one place a family name is looked up."""


@dataclass(frozen=True)
class GeneratorSetting:
    """One generator with one parameter value, as the lesson names it."""

    key: str
    """A short identifier, unique among the settings (``"gmm-5"``)."""
    family: str
    """A key of :data:`FAMILIES`."""
    parameter: float | None
    """The family's parameter: components, bandwidth ``h``, neighbours ``k``, or ``None``."""
    label_ko: str
    """The name shown on the Korean page."""
    label_en: str
    """The name shown on the English page."""

    @property
    def private(self) -> bool:
        """Whether the family promises differential privacy (:data:`PRIVATE_FAMILIES`)."""
        return self.family in PRIVATE_FAMILIES

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(
                f"setting {self.key!r}: unknown family {self.family!r}; "
                f"choose one of {', '.join(sorted(FAMILIES))}"
            )


def _mixtures(components: tuple[int, ...]) -> tuple[GeneratorSetting, ...]:
    return tuple(
        GeneratorSetting(
            f"gmm-{c}",
            "gaussian_mixture",
            c,
            f"가우스 혼합 (성분 {c}개)",
            f"Gaussian mixture ({c} component{'s' if c > 1 else ''})",
        )
        for c in components
    )


def _kdes(bandwidths: tuple[float, ...]) -> tuple[GeneratorSetting, ...]:
    return tuple(
        GeneratorSetting(f"kde-{h:g}", "kde", h, f"KDE 표본 (h = {h:g})", f"KDE sampler (h={h:g})")
        for h in bandwidths
    )


def _smotes(neighbours: tuple[int, ...]) -> tuple[GeneratorSetting, ...]:
    return tuple(
        GeneratorSetting(
            f"smote-{k}", "smote", k, f"SMOTE 보간 (이웃 {k}개)", f"SMOTE interpolation (k = {k})"
        )
        for k in neighbours
    )


GENERATOR_SETTINGS: tuple[GeneratorSetting, ...] = (
    *_mixtures((1, 2, 5, 10, 20, 50)),
    *_kdes((1.0, 0.5, 0.2, 0.1, 0.05, 0.01)),
    *_smotes((1, 5, 20)),
    GeneratorSetting("marginals", "marginals", None, "독립 주변분포", "Independent marginals"),
)
"""The settings lesson 05 compares, from smoothing to memorizing within each family."""


BAYES_NET_SETTINGS: tuple[GeneratorSetting, ...] = (
    *(
        GeneratorSetting(
            f"bayes-net-{b}",
            "bayes_net",
            b,
            f"베이즈 네트워크 (구간 {b}개)",
            f"Bayesian network ({b} bins)",
        )
        for b in BAYES_NET_BINS
    ),
    *(
        GeneratorSetting(
            f"dp-bayes-net-{e:g}",
            "private_bayes_net",
            e,
            f"차등 개인정보보호 베이즈 네트워크 (ε = {e:g})",
            f"DP Bayesian network (ε = {e:g})",
        )
        for e in PRIVATE_EPSILONS
    ),
)
"""Bayesian-network settings: coarse to fine bins, then ε-DP at ε = 0.1, 1, 10 (add/remove one
record). Not part of lesson 05's grid."""


def setting_by_key(key: str) -> GeneratorSetting:
    """The setting of :data:`GENERATOR_SETTINGS` called ``key``."""
    for setting in GENERATOR_SETTINGS:
        if setting.key == key:
            return setting
    known = ", ".join(setting.key for setting in GENERATOR_SETTINGS)
    raise ValueError(f"unknown generator setting {key!r}; choose one of {known}")


def generate(
    members: npt.ArrayLike,
    setting: GeneratorSetting,
    size: int,
    rng: np.random.Generator,
    *,
    standardizer: Standardizer | None = None,
) -> FloatArray:
    """``size`` synthetic records from a generator of ``setting`` trained on ``members``.

    The members are standardized (with ``standardizer``, by default with
    their own statistics), the family's function generates standardized
    records, and these are mapped back to the original units (see the module
    docstring). A private family (:attr:`GeneratorSetting.private`) needs a
    ``standardizer`` fitted without the members, or its guarantee would not
    cover the statistics; it refuses to run without one.
    """
    table = np.asarray(members, dtype=np.float64)
    if table.ndim != 2 or table.shape[0] < 2:
        raise ValueError(f"members must be a table of at least 2 rows, got shape {table.shape}")
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    if standardizer is None:
        if setting.private:
            raise ValueError(
                f"setting {setting.key!r} is differentially private: standardizing its members "
                "with their own means and standard deviations would release those statistics "
                "unprotected; pass standardizer=Standardizer.fit(public data), data that are "
                "not the members"
            )
        standardizer = Standardizer.fit(table)
    records = FAMILIES[setting.family](standardizer.forward(table), setting.parameter, size, rng)
    return standardizer.inverse(records)
