"""Every attack under one name, for a command line or a lesson to iterate over.

``ATTACKS`` maps a short key to an :class:`AttackSpec`; the keys are in the
order a results table should list them (Gen-LRA first, then its rivals from
the simplest). Every function is called as ``function(targets, reference,
synthetic)`` with its default options, or with any of its keyword options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy.typing as npt

from .gen_lra import gen_lra_scores
from .rivals import (
    classifier_scores,
    dcr_diff_scores,
    dcr_scores,
    density_scores,
    domias_scores,
    dpi_scores,
    logan_scores,
    monte_carlo_scores,
)
from .validation import FloatArray

AttackFunction = Callable[..., FloatArray]


@dataclass(frozen=True)
class AttackSpec:
    """One membership attack: how to run it and how to name it."""

    key: str
    """Short identifier, as a command-line option or a URL would write it."""
    function: AttackFunction
    """``function(targets, reference, synthetic, **options) -> scores`` (higher ⇒ member)."""
    name: str
    """Display name in English."""
    name_ko: str
    """Display name in Korean."""
    reference: str
    """The paper the attack comes from (authors, title, venue, year)."""

    def __call__(
        self,
        targets: npt.ArrayLike,
        reference: npt.ArrayLike,
        synthetic: npt.ArrayLike,
        **options: Any,
    ) -> FloatArray:
        """Run the attack: one score per target row."""
        return self.function(targets, reference, synthetic, **options)


_SPECS = (
    AttackSpec(
        "gen_lra",
        gen_lra_scores,
        "Gen-LRA",
        "Gen-LRA (생성 가능도비 공격)",
        "Ward, Wang and Cheng, 'Privacy auditing synthetic data release through local "
        "likelihood attacks', arXiv:2508.21146, 2025",
    ),
    AttackSpec(
        "dcr",
        dcr_scores,
        "Distance to closest record (DCR)",
        "최근접 기록 거리 (DCR)",
        "Chen, Yu, Zhang and Fritz, 'GAN-Leaks: a taxonomy of membership inference attacks "
        "against generative models', CCS 2020",
    ),
    AttackSpec(
        "dcr_diff",
        dcr_diff_scores,
        "DCR calibrated by the reference (DCR-Diff)",
        "참조 데이터로 보정한 DCR (DCR-Diff)",
        "Chen, Yu, Zhang and Fritz, 'GAN-Leaks: a taxonomy of membership inference attacks "
        "against generative models', CCS 2020",
    ),
    AttackSpec(
        "domias",
        domias_scores,
        "DOMIAS (density ratio)",
        "DOMIAS (밀도비)",
        "van Breugel, Sun, Qian and van der Schaar, 'Membership inference attacks against "
        "synthetic data through overfitting detection', AISTATS 2023",
    ),
    AttackSpec(
        "density",
        density_scores,
        "Synthetic density",
        "합성 데이터 밀도",
        "Houssiau et al., 'TAPAS: a toolbox for adversarial privacy auditing of synthetic "
        "data', arXiv:2211.06550, 2022",
    ),
    AttackSpec(
        "mc",
        monte_carlo_scores,
        "Monte Carlo (share of synthetic records nearby)",
        "몬테카를로 (근처 합성 기록 비율)",
        "Hilprecht, Härterich and Bernau, 'Monte Carlo and reconstruction membership "
        "inference attacks against generative models', PoPETs 2019",
    ),
    AttackSpec(
        "dpi",
        dpi_scores,
        "Data plagiarism index (DPI)",
        "데이터 표절 지수 (DPI)",
        "Ward, Wang and Cheng, 'Data plagiarism index: characterizing the privacy risk of "
        "data-copying in tabular generative models', KDD GenAI Evaluation Workshop 2024",
    ),
    AttackSpec(
        "classifier",
        classifier_scores,
        "Classifier (random forest, synthetic vs reference)",
        "분류기 (랜덤 포레스트, 합성 대 참조)",
        "Houssiau et al., 'TAPAS: a toolbox for adversarial privacy auditing of synthetic "
        "data', arXiv:2211.06550, 2022",
    ),
    AttackSpec(
        "logan",
        logan_scores,
        "LOGAN-style discriminator (MLP)",
        "LOGAN 방식 판별기 (MLP)",
        "Hayes, Melis, Danezis and De Cristofaro, 'LOGAN: membership inference attacks "
        "against generative models', PoPETs 2019",
    ),
)

ATTACKS: dict[str, AttackSpec] = {spec.key: spec for spec in _SPECS}
"""Every attack by key, in display order."""
