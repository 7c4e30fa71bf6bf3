"""Lesson 02: does the AUC really fall between two numbers of training epochs?

The loss attack's AUC is measured on 160 members and 160 non-members, so it
moves by chance as well as with training. Every step between neighbouring grid
values of epochs, for one seed, compares two snapshots of the same model on the
same records: the change of the AUC and its paired standard error
(:func:`compute.attacks.auc_error.paired_auc_difference`, DeLong et al. 1988).
A fall counts as a real drop only when it is larger than :data:`NOISE_MULTIPLE`
standard errors; a smaller one is what the draw of members and non-members
alone could produce. The verdict the page prints is built here from those
numbers, so it stays true when the grid or the model changes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from privacy_explorer.compute.attacks.auc_error import paired_auc_difference
from privacy_explorer.compute.mlp import Snapshot, loss_scores

NOISE_MULTIPLE = 2
"""A fall counts as a real drop when it exceeds this many standard errors of its change
(about a 2.3 % chance for one fall of pure noise, one-sided, in the normal approximation)."""


@dataclass(frozen=True)
class AucStep:
    """One step from a grid value of epochs to the next, for one seed."""

    before_epochs: int
    """Epochs of the earlier snapshot."""
    after_epochs: int
    """Epochs of the later snapshot."""
    change: float
    """AUC after minus AUC before: negative when more training lowered the AUC."""
    standard_error: float
    """Standard error of ``change`` (DeLong, paired: both AUCs use the same records)."""

    @property
    def is_fall(self) -> bool:
        """Whether more training lowered the AUC at all."""
        return self.change < 0

    @property
    def is_real_drop(self) -> bool:
        """Whether the fall exceeds :data:`NOISE_MULTIPLE` standard errors of the change."""
        return self.change < -NOISE_MULTIPLE * self.standard_error

    @property
    def in_errors(self) -> float:
        """The fall in standard errors (infinite for a fall with no error at all)."""
        if self.standard_error > 0:
            return -self.change / self.standard_error
        return math.inf if self.change < 0 else 0.0


def auc_steps(trajectory: Sequence[Snapshot]) -> tuple[AucStep, ...]:
    """The change of the loss attack's AUC at every step of one seed's snapshots."""
    steps = []
    for before, after in itertools.pairwise(trajectory):
        change, error = paired_auc_difference(
            (loss_scores(before.member_losses), loss_scores(before.nonmember_losses)),
            (loss_scores(after.member_losses), loss_scores(after.nonmember_losses)),
        )
        steps.append(AucStep(before.epochs, after.epochs, change, error))
    return tuple(steps)


def auc_drop_readouts(steps: Sequence[AucStep]) -> dict[str, Any]:
    """The readouts that say how often, and how clearly, more training lowered the AUC.

    ``auc_drops`` counts every fall, ``auc_real_drops`` the falls beyond
    :data:`NOISE_MULTIPLE` standard errors, and ``auc_drop_verdict`` says in
    both languages what the steps show, quoting the clearest fall.
    """
    falls = [step for step in steps if step.is_fall]
    real = [step for step in falls if step.is_real_drop]
    return {
        "epoch_steps": len(steps),
        "auc_drops": len(falls),
        "auc_real_drops": len(real),
        "noise_multiple": NOISE_MULTIPLE,
        "auc_drop_verdict": _verdict(falls, real),
    }


def _verdict(falls: Sequence[AucStep], real: Sequence[AucStep]) -> dict[str, str]:
    if not falls:
        return {
            "ko": "이 시드에서는 AUC가 내려간 단계가 없다. 그래도 오름이 보장되는 것은 아니다. "
            "AUC는 잡음을 안고 잰 값이어서, 다른 시드나 다른 표본에서는 내려갈 수 있다.",
            "en": "No step lowered the AUC for this seed. That still does not make a rise "
            "guaranteed: the AUC is measured with noise, and another seed or other samples "
            "may dip.",
        }
    clearest = max(falls, key=lambda step: step.in_errors)
    start, end = f"{clearest.before_epochs:,}", f"{clearest.after_epochs:,}"
    fall, error = f"{-clearest.change:.4f}", f"{clearest.standard_error:.4f}"
    if math.isfinite(clearest.in_errors):
        ratio_ko = f"으로, 짝지은 변화의 표준오차 {error}의 {clearest.in_errors:.1f}배다."
        ratio_en = (
            f", {clearest.in_errors:.1f} times the standard error of that paired change ({error})."
        )
    else:
        ratio_ko = "이며, 그 짝지은 변화에는 표준오차가 전혀 없다."
        ratio_en = ", and that paired change has no standard error at all."
    clearest_ko = f"가장 뚜렷한 하락은 {start}에서 {end} 에포크로 갈 때 AUC가 {fall} 내려간 것"
    clearest_en = f"The clearest fall is from {start} to {end} epochs, by {fall}"
    if not real:
        return {
            "ko": f"{clearest_ko}{ratio_ko} 표준오차의 {NOISE_MULTIPLE}배를 넘는 하락은 하나도 "
            "없으므로, 이 시드에서는 잡음을 넘어서는 하락이 보이지 않는다. 그렇다고 AUC가 "
            "반드시 오른다는 보장이 생기는 것은 아니다.",
            "en": f"{clearest_en}{ratio_en} No fall exceeds {NOISE_MULTIPLE} standard errors: "
            "this seed shows no drop beyond noise, which does not make a rise guaranteed.",
        }
    verb, whose = ("exceeds", "its") if len(real) == 1 else ("exceed", "their")
    return {
        "ko": f"이 가운데 {len(real)}번은 짝지은 변화의 표준오차의 {NOISE_MULTIPLE}배보다 크게 "
        f"내려갔다. {clearest_ko}{ratio_ko} 이 시드에서는 더 오래 학습한 것이 실제로 공격을 "
        "약하게 만들었고, 표본을 뽑은 우연만으로는 설명되지 않는다.",
        "en": f"{len(real)} of these falls {verb} {NOISE_MULTIPLE} standard errors of {whose} "
        f"paired change. {clearest_en}{ratio_en} For this seed, training longer really did "
        "weaken the attack, by more than the draw of members and non-members explains.",
    }
