"""The real-data generators of lesson 05: shapes, determinism and what each one preserves."""

from __future__ import annotations

import numpy as np
import pytest

from privacy_explorer.compute.generators import (
    BAYES_NET_SETTINGS,
    FAMILIES,
    GENERATOR_SETTINGS,
    MIXTURE_REG_COVAR,
    GeneratorSetting,
    Standardizer,
    generate,
    setting_by_key,
)


def correlated_table(rows: int, seed: int) -> np.ndarray:
    """A 3-column table in mixed units with two strongly correlated columns."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((rows, 3))
    return np.column_stack(
        [100 + 20 * base[:, 0], 5 + 2 * (0.9 * base[:, 0] + 0.3 * base[:, 1]), base[:, 2]]
    )


MEMBERS = correlated_table(60, 0)


def test_settings_are_named_once_and_cover_every_family() -> None:
    keys = [setting.key for setting in GENERATOR_SETTINGS]
    assert len(keys) == len(set(keys))
    assert 15 <= len(keys) <= 20
    # Lesson 05's grid keeps its four families; the other families have settings of their own.
    lesson_families = {setting.family for setting in GENERATOR_SETTINGS}
    assert lesson_families == {"gaussian_mixture", "kde", "smote", "marginals"}
    others = BAYES_NET_SETTINGS
    assert lesson_families | {setting.family for setting in others} == set(FAMILIES)
    assert not {setting.key for setting in others} & set(keys)
    for setting in GENERATOR_SETTINGS:
        assert setting.label_ko and setting.label_en
        assert setting_by_key(setting.key) is setting


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown generator setting 'gmm-3'; choose one of gmm-1"):
        setting_by_key("gmm-3")
    with pytest.raises(ValueError, match="unknown family 'gan'"):
        GeneratorSetting("gan", "gan", None, "GAN", "GAN")


@pytest.mark.parametrize(
    "setting", (*GENERATOR_SETTINGS, *BAYES_NET_SETTINGS), ids=lambda setting: setting.key
)
def test_every_setting_is_deterministic_per_seed(setting: GeneratorSetting) -> None:
    public = Standardizer.fit(MEMBERS[::-1] + 0.1) if setting.private else None
    first = generate(MEMBERS, setting, 40, np.random.default_rng(1), standardizer=public)
    again = generate(MEMBERS, setting, 40, np.random.default_rng(1), standardizer=public)
    other = generate(MEMBERS, setting, 40, np.random.default_rng(2), standardizer=public)
    assert first.shape == (40, 3)
    assert np.isfinite(first).all()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_standardizer_round_trip() -> None:
    standardizer = Standardizer.fit(MEMBERS)
    z = standardizer.forward(MEMBERS)
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(z.std(axis=0), 1.0)
    np.testing.assert_allclose(standardizer.inverse(z), MEMBERS)
    constant = Standardizer.fit(np.column_stack([np.arange(4.0), np.ones(4)]))
    assert constant.scale[1] == 1.0


def test_marginals_keep_each_column_and_break_the_joint() -> None:
    records = generate(MEMBERS, setting_by_key("marginals"), 30_000, np.random.default_rng(3))
    for column in range(3):
        # Every value is a member's value of that very column (up to the unit round trip) ...
        gaps = np.abs(records[:, column, None] - MEMBERS[None, :, column]).min(axis=1)
        assert gaps.max() < 1e-9 * np.abs(MEMBERS[:, column]).max()
        # ... and every member row is drawn about equally often.
        drawn = np.abs(records[:, column, None] - MEMBERS[None, :, column]).argmin(axis=1)
        counts = np.bincount(drawn, minlength=60)
        assert counts.min() > 0.75 * counts.mean()
    assert abs(np.corrcoef(MEMBERS[:, 0], MEMBERS[:, 1])[0, 1]) > 0.9
    assert abs(np.corrcoef(records[:, 0], records[:, 1])[0, 1]) < 0.03


def distance_to_segment(point: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    direction = end - start
    fraction = np.clip((point - start) @ direction / (direction @ direction), 0.0, 1.0)
    return float(np.linalg.norm(point - (start + fraction * direction)))


@pytest.mark.parametrize("neighbours", [1, 5])
def test_smote_records_lie_on_segments_to_near_members(neighbours: int) -> None:
    setting = GeneratorSetting("s", "smote", neighbours, "s", "s")
    records = generate(MEMBERS, setting, 50, np.random.default_rng(4))
    standardizer = Standardizer.fit(MEMBERS)
    z_members, z_records = standardizer.forward(MEMBERS), standardizer.forward(records)
    squared = ((z_members[:, None, :] - z_members[None, :, :]) ** 2).sum(axis=-1)
    np.fill_diagonal(squared, np.inf)
    partners = np.argsort(squared, axis=1)[:, :neighbours]
    for point in z_records:
        closest = min(
            distance_to_segment(point, z_members[i], z_members[j])
            for i in range(len(z_members))
            for j in partners[i]
        )
        assert closest < 1e-9


def test_kde_sampler_noise_is_h_times_the_column_spread() -> None:
    members = np.array([[0.0, 0.0], [100.0, 10.0]])  # column standard deviations 50 and 5
    h = 0.02
    records = generate(
        members, GeneratorSetting("k", "kde", h, "k", "k"), 40_000, np.random.default_rng(5)
    )
    near_first = records[:, 0] < 50
    assert abs(near_first.mean() - 0.5) < 0.02
    for chosen, rows in ((members[0], near_first), (members[1], ~near_first)):
        offsets = records[rows] - chosen
        np.testing.assert_allclose(offsets.mean(axis=0), 0.0, atol=0.05)
        np.testing.assert_allclose(offsets.std(axis=0), [h * 50, h * 5], rtol=0.02)


def test_one_component_mixture_reproduces_mean_and_covariance() -> None:
    members = correlated_table(400, 6)
    records = generate(members, setting_by_key("gmm-1"), 100_000, np.random.default_rng(7))
    standardized_gap = (records.mean(axis=0) - members.mean(axis=0)) / members.std(axis=0)
    np.testing.assert_allclose(standardized_gap, 0.0, atol=0.02)
    # The fitted covariance: maximum likelihood, plus reg_covar on the standardized diagonal.
    expected = np.cov(members, rowvar=False, bias=True) + MIXTURE_REG_COVAR * np.diag(
        members.var(axis=0)
    )
    np.testing.assert_allclose(
        np.cov(records, rowvar=False), expected, rtol=0.03, atol=0.01 * expected.max()
    )


def test_many_component_mixture_lands_closer_to_the_members() -> None:
    members = correlated_table(200, 8)
    standardizer = Standardizer.fit(members)

    def median_distance(key: str) -> float:
        records = standardizer.forward(
            generate(members, setting_by_key(key), 200, np.random.default_rng(9))
        )
        z = standardizer.forward(members)
        return float(np.median(np.sqrt(((records[:, None] - z[None]) ** 2).sum(-1)).min(axis=1)))

    assert median_distance("gmm-50") < 0.8 * median_distance("gmm-1")


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (GeneratorSetting("g", "gaussian_mixture", 0, "g", "g"), "1 to 60 components"),
        (GeneratorSetting("k", "kde", 0.0, "k", "k"), "bandwidth > 0"),
        (GeneratorSetting("s", "smote", 60, "s", "s"), "1 to 59 neighbours"),
        (GeneratorSetting("m", "marginals", 2.0, "m", "m"), "no parameter"),
    ],
)
def test_bad_parameters_are_refused(setting: GeneratorSetting, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(MEMBERS, setting, 5, np.random.default_rng(0))


def test_generate_checks_its_input() -> None:
    with pytest.raises(ValueError, match="at least 2 rows"):
        generate(MEMBERS[:1], setting_by_key("kde-0.1"), 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="size must be at least 1"):
        generate(MEMBERS, setting_by_key("kde-0.1"), 0, np.random.default_rng(0))


def test_a_private_family_refuses_the_members_own_statistics() -> None:
    private = next(setting for setting in BAYES_NET_SETTINGS if setting.private)
    assert not any(setting.private for setting in GENERATOR_SETTINGS)
    with pytest.raises(ValueError, match="differentially private: standardizing its members"):
        generate(MEMBERS, private, 5, np.random.default_rng(0))


def test_a_public_standardizer_sets_the_units_the_private_family_sees() -> None:
    """The members enter the private family in the public units, and the records leave in them."""
    from privacy_explorer.compute.bayes_net import private_bayes_net

    private = next(setting for setting in BAYES_NET_SETTINGS if setting.private)
    public = Standardizer.fit(correlated_table(80, 9))
    found = generate(MEMBERS, private, 50, np.random.default_rng(3), standardizer=public)
    expected = public.inverse(
        private_bayes_net(public.forward(MEMBERS), private.parameter, 50, np.random.default_rng(3))
    )
    np.testing.assert_array_equal(found, expected)
