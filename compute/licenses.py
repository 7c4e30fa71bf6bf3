"""Lesson 04, data and model licences: a rule table and a combination checker.

A project takes three parts — training **data**, a **model** and **code** — each
under a licence named by its SPDX identifier (or a ``LicenseRef-`` for the two
model licences that have none). :func:`evaluate` says whether a use of them is
allowed, and on what conditions:

``commercial``
    whether the use is commercial;
``share``
    whether the result is given to anyone else (published, sold, served);
``combination``
    ``"aggregate"``: the parts sit side by side, unmodified, in a collection;
    ``"adapt"``: they are built into one adapted work — the model fine-tuned, the
    code changed, the data used to train the weights.

Everything the evaluator knows about a licence is in the rule table,
:data:`compute.license_rules.RULES`, which the lesson page also prints: see that
module for the rules and the licence clauses they come from. This module adds
how parts combine: NC and unknown licences bind any use; in a collection each
part keeps its own licence; a shared adaptation needs one licence that every
part accepts (see :func:`accepts`), and a share-alike part makes an empty choice
a definite "not allowed".

Whether a data licence reaches the weights trained on the data (or what a model
generates) is not settled. Where the answer would change the verdict, the
evaluator says ``needs_review`` and gives both readings; where it only changes
conditions, it lists them as a precaution and says so. An unknown licence
(``NOASSERTION``) or none at all (``NONE``) is never read as permission.

This is a teaching tool, not legal advice. Copyright exceptions (fair use,
text-and-data-mining exceptions) lie outside the licences and outside this table,
and privacy, trademark, patent and contract rights remain whatever a licence says.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from compute.license_rules import (
    CONDITION_SHORT,
    CONDITIONS,
    KIND_LABELS,
    LICENSES,
    RULES,
    LicenseRule,
    Text,
    rule,
)
from privacy_explorer.lesson import LANGUAGES, Column, Grid, Param, Readout, Table

Status = Literal["allowed", "not_allowed", "needs_permission", "needs_review"]
Combination = Literal["aggregate", "adapt"]

PARTS: tuple[str, ...] = ("data", "model", "code")
"""The three parts of a project, in the order the evaluator names them."""
COMBINATIONS: tuple[str, ...] = ("aggregate", "adapt")
STATUSES: tuple[str, ...] = ("allowed", "not_allowed", "needs_permission", "needs_review")
"""Every status, in the order the page lists them."""
STATUS_PRIORITY: tuple[str, ...] = ("not_allowed", "needs_permission", "needs_review", "allowed")
"""Which status wins when reasons disagree: a definite "no" beats everything."""

PART_NAMES: dict[str, Text] = {
    "data": {"ko": "데이터", "en": "data"},
    "model": {"ko": "모델", "en": "model"},
    "code": {"ko": "코드", "en": "code"},
}
STATUS_LABELS: dict[str, Text] = {
    "allowed": {"ko": "허용 (조건 확인)", "en": "Allowed (check the conditions)"},
    "not_allowed": {"ko": "허용되지 않음", "en": "Not allowed"},
    "needs_permission": {"ko": "허락 필요", "en": "Needs permission"},
    "needs_review": {"ko": "검토 필요", "en": "Needs review"},
}

ADAPTATION_CANDIDATES: tuple[str, ...] = tuple(rule.id for rule in RULES if rule.grants)
"""Licences an adaptation can be given (unknown and no licence are not licences)."""


@dataclass(frozen=True)
class Condition:
    """A condition of the verdict and the parts that impose it."""

    code: str
    """A key of :data:`CONDITIONS`."""
    parts: tuple[str, ...]
    """The parts (``data``, ``model``, ``code``) whose licences impose it."""


@dataclass(frozen=True)
class Reason:
    """One finding behind a verdict."""

    status: str
    """The status it argues for; ``allowed`` for a note that does not change the answer."""
    rule: str
    """A short key naming the rule, e.g. ``nc_commercial`` or ``share_alike_conflict``."""
    parts: tuple[str, ...]
    """The parts it is about."""
    text: Text
    """The explanation in every language."""


@dataclass(frozen=True)
class Verdict:
    """What :func:`evaluate` answers."""

    status: Status
    """``allowed``, ``not_allowed``, ``needs_permission`` or ``needs_review``."""
    conditions: tuple[Condition, ...]
    """Conditions that apply (or, for ``needs_review``, may apply), in :data:`CONDITIONS` order."""
    reasons: tuple[Reason, ...]
    """Why, most decisive first."""
    adaptation_licenses: tuple[str, ...]
    """For a shared adaptation: licences it may carry (empty otherwise, or when none fits)."""

    @property
    def condition_codes(self) -> tuple[str, ...]:
        """Just the condition keys, e.g. ``("attribution", "keep_notices")``."""
        return tuple(condition.code for condition in self.conditions)


# --- the evaluator ------------------------------------------------------------------


def _named(parts: Iterable[str], licenses: Mapping[str, str], lang: str) -> str:
    """``모델 (GPL-3.0-only)`` — parts and their licences, as a reason names them."""
    return ", ".join(f"{PART_NAMES[p][lang]} ({licenses[p]})" for p in parts)


def _text(ko: str, en: str) -> dict[str, str]:
    return {"ko": ko, "en": en}


def accepts(part_rule: LicenseRule, outbound: str, present: Iterable[str]) -> bool:
    """Whether an adaptation containing a part under ``part_rule`` may carry ``outbound``.

    ``present`` is every licence in the project: a model licence is a candidate only
    when its model is part of the work (the Llama licence cannot be put on other works).
    """
    if outbound.startswith("LicenseRef-") and outbound not in present:
        return False
    if part_rule.adapter_licenses is None:
        # "Any licence" still keeps this licence's notices: CC0 would drop them.
        return outbound != "CC0-1.0" or part_rule.id == "CC0-1.0"
    return outbound in part_rule.adapter_licenses


@dataclass(frozen=True)
class _Sharing:
    """How a shared adaptation of some parts comes out."""

    status: str
    candidates: tuple[str, ...]
    reasons: tuple[Reason, ...]


def _share_adaptation(
    parts: tuple[str, ...], licenses: Mapping[str, str], present: tuple[str, ...]
) -> _Sharing:
    """Sharing one adaptation built from ``parts``: ND, then the licences that fit them all."""
    rules = {p: rule(licenses[p]) for p in parts}
    reasons: list[Reason] = []
    no_derivatives = [p for p in parts if not rules[p].adaptations_shareable]
    for p in no_derivatives:
        reasons.append(
            Reason(
                "not_allowed",
                "no_derivatives",
                (p,),
                _text(
                    f"{_named([p], licenses, 'ko')}: ND 라이선스는 변경물을 만드는 것은 허용하지만 "
                    "공유는 허용하지 않는다.",
                    f"{_named([p], licenses, 'en')}: an ND licence allows making an adaptation "
                    "but not sharing it.",
                ),
            )
        )
    if no_derivatives:
        return _Sharing("not_allowed", (), tuple(reasons))
    candidates = tuple(
        c
        for c in ADAPTATION_CANDIDATES
        if (not c.startswith("LicenseRef-") or c in present)
        and all(accepts(r, c, present) for r in rules.values())
    )
    if candidates:
        return _Sharing("allowed", candidates, ())
    clashes = [
        (a, b)
        for a, b in itertools.combinations(parts, 2)
        if not any(
            accepts(rules[a], c, present) and accepts(rules[b], c, present)
            for c in ADAPTATION_CANDIDATES
        )
    ]
    definite = [(a, b) for a, b in clashes if rules[a].share_alike or rules[b].share_alike]
    for a, b in definite:
        sa, other = (a, b) if rules[a].share_alike else (b, a)
        reasons.append(
            Reason(
                "not_allowed",
                "share_alike_conflict",
                (a, b),
                _text(
                    f"{_named([sa], licenses, 'ko')}는 공유하는 변경물에 "
                    f"{' 또는 '.join(rules[sa].adapter_licenses or ())}만 허용하고 제한을 더할 수 "
                    f"없게 하는데, {_named([other], licenses, 'ko')}의 조건은 그 라이선스로 "
                    "옮길 수 없다. 두 부분을 하나의 변경물로 공유할 수 없다.",
                    f"{_named([sa], licenses, 'en')} lets a shared adaptation carry only "
                    f"{' or '.join(rules[sa].adapter_licenses or ())}, with no added restrictions, "
                    f"and the terms of {_named([other], licenses, 'en')} cannot go under it: "
                    "the two cannot be shared as one adaptation.",
                ),
            )
        )
    if definite:
        return _Sharing("not_allowed", (), tuple(reasons))
    pairs = clashes or [tuple(parts)]
    for pair in pairs:
        reasons.append(
            Reason(
                "needs_review",
                "no_common_license",
                tuple(pair),
                _text(
                    f"{_named(pair, licenses, 'ko')}: 이 표의 어떤 라이선스도 모두의 조건을 함께 "
                    "담지 못한다. 양쪽 조건을 모두 넣은 별도 라이선스가 가능한지 검토가 필요하다.",
                    f"{_named(pair, licenses, 'en')}: no licence in this table carries all of "
                    "their terms at once; whether a licence of your own could carry both needs "
                    "review.",
                ),
            )
        )
    return _Sharing("needs_review", (), tuple(reasons))


def _decide(reasons: Iterable[Reason]) -> Status:
    found = {reason.status for reason in reasons}
    for status in STATUS_PRIORITY:
        if status in found:
            return status  # type: ignore[return-value]
    return "allowed"


def _outcome_text(sharing: _Sharing, lang: str) -> str:
    """How sharing comes out, as a clause (English) or a sentence (Korean)."""
    if sharing.status == "allowed":
        count = len(sharing.candidates)
        if count > 3:
            if lang == "ko":
                return f"표의 라이선스 {count}개 중 하나로 공유할 수 있다"
            return f"the adaptation may be shared (under any of {count} licences in the table)"
        joined = ", ".join(sharing.candidates)
        if lang == "ko":
            return (
                f"{joined} 중 하나로 공유할 수 있다" if count > 1 else f"{joined}로 공유할 수 있다"
            )
        return f"the adaptation may be shared under {' or '.join(sharing.candidates)}"
    if sharing.status == "not_allowed":
        return "공유할 수 없다" if lang == "ko" else "the adaptation may not be shared"
    return "검토가 필요하다" if lang == "ko" else "sharing it needs review"


def evaluate(
    data: str,
    model: str,
    code: str,
    *,
    commercial: bool,
    share: bool,
    combination: Combination,
) -> Verdict:
    """Whether a project combining ``data``, ``model`` and ``code`` may be used as described.

    The three licences are SPDX identifiers from :data:`LICENSES`; ``commercial`` and
    ``share`` say whether the use is commercial and whether the result goes to anyone
    else; ``combination`` is ``"aggregate"`` (unmodified parts side by side) or
    ``"adapt"`` (one adapted work: model fine-tuned on the data, code changed).

    Raises ``ValueError`` for an unknown identifier or combination, naming the
    accepted values. Not legal advice: see the module docstring.

    >>> evaluate("CC-BY-4.0", "Apache-2.0", "MIT", commercial=True, share=True,
    ...          combination="aggregate").status
    'allowed'
    >>> evaluate("CC0-1.0", "CC-BY-NC-4.0", "MIT", commercial=True, share=False,
    ...          combination="adapt").status
    'not_allowed'
    """
    licenses = {"data": data, "model": model, "code": code}
    rules = {part: rule(license_id) for part, license_id in licenses.items()}
    if combination not in COMBINATIONS:
        raise ValueError(
            f"unknown combination {combination!r}; use one of: {', '.join(COMBINATIONS)}"
        )
    reasons: list[Reason] = []
    conditions: dict[str, list[str]] = {}

    def require(code_: str, part: str) -> None:
        conditions.setdefault(code_, [])
        if part not in conditions[code_]:
            conditions[code_].append(part)

    # 1. Parts without a known licence grant nothing.
    for part, r in rules.items():
        if r.kind == "unknown":
            reasons.append(
                Reason(
                    "needs_permission",
                    "unknown_license",
                    (part,),
                    _text(
                        f"{PART_NAMES[part]['ko']}의 라이선스를 알 수 없다(NOASSERTION). 알 수 "
                        "없다는 것은 허락이 아니다: 라이선스를 찾거나 권리자에게 허락을 받는다.",
                        f"The {part}'s licence is unknown (NOASSERTION). Unknown is not "
                        "permission: find the licence or ask the rights holder.",
                    ),
                )
            )
        elif r.kind == "none":
            reasons.append(
                Reason(
                    "needs_permission",
                    "no_license",
                    (part,),
                    _text(
                        f"{PART_NAMES[part]['ko']}에는 라이선스가 없다(NONE). 저작권의 기본값은 "
                        "'모든 권리 보유'이므로 권리자의 허락이 필요하다.",
                        f"The {part} has no licence (NONE). Copyright's default is 'all rights "
                        "reserved': the rights holder's permission is needed.",
                    ),
                )
            )
    licensed = tuple(p for p in PARTS if rules[p].grants)
    present = tuple(licenses[p] for p in licensed)

    # 2. Terms of any use: NC, use restrictions, the Llama user threshold.
    for part in licensed:
        r = rules[part]
        if commercial and not r.commercial:
            reasons.append(
                Reason(
                    "not_allowed",
                    "nc_commercial",
                    (part,),
                    _text(
                        f"{_named([part], licenses, 'ko')}는 비상업 목적의 이용만 허용한다. "
                        "공유하든 하지 않든, 상업적 이용은 허용되지 않는다.",
                        f"{_named([part], licenses, 'en')} allows non-commercial use only; "
                        "commercial use is not allowed, shared or not.",
                    ),
                )
            )
        for code_ in r.on_use:
            require(code_, part)

    # 3. Sharing: each part's notices travel with it.
    if share:
        for part in licensed:
            for code_ in rules[part].on_share:
                require(code_, part)

    adaptation_licenses: tuple[str, ...] = ()
    if combination == "aggregate":
        for part in licensed:
            if share and rules[part].share_alike:
                reasons.append(
                    Reason(
                        "allowed",
                        "aggregate_keeps_licenses",
                        (part,),
                        _text(
                            f"{_named([part], licenses, 'ko')}: 단순 묶음에서는 각 부분이 자기 "
                            "라이선스를 유지하며, 동일조건(copyleft)은 다른 부분으로 "
                            "번지지 않는다.",
                            f"{_named([part], licenses, 'en')}: in a collection each part keeps "
                            "its own licence; share-alike (copyleft) does not spread to the "
                            "others.",
                        ),
                    )
                )
            if share and not rules[part].adaptations_shareable:
                reasons.append(
                    Reason(
                        "allowed",
                        "nd_unmodified",
                        (part,),
                        _text(
                            f"{_named([part], licenses, 'ko')}: ND여도 바꾸지 않은 원본은 묶음 "
                            "안에서 공유할 수 있다.",
                            f"{_named([part], licenses, 'en')}: even under ND the unmodified "
                            "work may be shared inside a collection.",
                        ),
                    )
                )
    else:
        # 4. One adapted work. The model and code are adapted directly; whether the weights
        #    are an adaptation of the training data is not settled, so the data's adaptation
        #    terms are weighed in both readings.
        direct = tuple(p for p in ("model", "code") if p in licensed)
        data_in = "data" in licensed
        for part in licensed:
            for code_ in rules[part].on_adapt:
                require(code_, part)
        llama = "LicenseRef-Llama-3-Community"
        if licenses["model"] != llama:
            for part in ("data", "code"):
                if licenses[part] == llama:
                    reasons.append(
                        Reason(
                            "needs_review",
                            "llama_other_llm",
                            (part, "model"),
                            _text(
                                f"{_named([part], licenses, 'ko')}: Llama 3 라이선스 §1(b)(v)는 "
                                "Llama 자료나 그 출력으로 Llama 3 계열이 아닌 대규모 언어 모델을 "
                                "개선하는 것을 금지한다. 모델이 LLM이라면 허용되지 않는다.",
                                f"{_named([part], licenses, 'en')}: §1(b)(v) of the Llama 3 "
                                "licence forbids using Llama materials or their outputs to improve "
                                "any large language model other than Llama 3 and its derivatives; "
                                "if the model is an LLM, this is not allowed.",
                            ),
                        )
                    )
        if share:
            for part in licensed:
                for code_ in rules[part].on_share_adapted:
                    require(code_, part)
            with_data = _share_adaptation(
                direct + (("data",) if data_in else ()), licenses, present
            )
            without_data = _share_adaptation(direct, licenses, present)
            if not data_in or (
                with_data.status == without_data.status
                and with_data.candidates == without_data.candidates
            ):
                reasons.extend(with_data.reasons)
                adaptation_licenses = with_data.candidates
            else:
                reasons.extend(without_data.reasons)
                reasons.append(
                    Reason(
                        "needs_review",
                        "data_to_weights",
                        ("data",),
                        _text(
                            f"{_named(['data'], licenses, 'ko')}: 학습된 가중치가 데이터의 "
                            "변경물인지는 정해져 있지 않다. 변경물로 본다면 "
                            f"{_outcome_text(with_data, 'ko')}. 변경물이 아니라면 "
                            f"{_outcome_text(without_data, 'ko')}. 데이터 자체를 고쳐 공유한다면 "
                            "데이터의 변경물 규칙이 그대로 적용된다.",
                            f"{_named(['data'], licenses, 'en')}: whether trained weights are "
                            "an adaptation of their training data is not settled. If they are, "
                            f"{_outcome_text(with_data, 'en')}; if not, "
                            f"{_outcome_text(without_data, 'en')}. Sharing the data itself, "
                            "modified, is an adaptation and its rules apply in full.",
                        ),
                    )
                )
                adaptation_licenses = with_data.candidates or without_data.candidates
        else:
            for part in licensed:
                if rules[part].share_alike or not rules[part].adaptations_shareable:
                    reasons.append(
                        Reason(
                            "allowed",
                            "private_adaptation",
                            (part,),
                            _text(
                                f"{_named([part], licenses, 'ko')}: 공유하지 않는 변경물에는 "
                                "동일조건이나 변경물 공유 금지가 걸리지 않는다. 나중에 공유하면 "
                                "다시 확인한다.",
                                f"{_named([part], licenses, 'en')}: share-alike and the ban on "
                                "sharing adaptations bite only when the adaptation is shared; "
                                "check again before sharing it.",
                            ),
                        )
                    )
        weights_terms = rules["data"].on_share + rules["data"].on_share_adapted
        reviewed = any(r.rule == "data_to_weights" for r in reasons)
        if data_in and not reviewed and ((share and weights_terms) or rules["data"].on_adapt):
            reasons.append(
                Reason(
                    "allowed",
                    "data_conditions_precaution",
                    ("data",),
                    _text(
                        f"{_named(['data'], licenses, 'ko')}: 데이터 라이선스의 조건이 학습된 "
                        "가중치나 생성물에도 적용되는지는 정해져 있지 않다. 여기서는 조심하는 "
                        "쪽으로 데이터의 조건을 함께 적었다.",
                        f"{_named(['data'], licenses, 'en')}: whether the data licence's "
                        "conditions reach trained weights or generated outputs is not settled; "
                        "they are listed here as a precaution.",
                    ),
                )
            )

    status = _decide(reasons)
    if status == "not_allowed" or len(licensed) < len(PARTS):
        adaptation_licenses = ()  # an unknown part could rule any of them out
    order = {status_: i for i, status_ in enumerate(STATUS_PRIORITY)}
    ordered = sorted(reasons, key=lambda reason: order[reason.status])
    if status == "allowed":
        ordered.insert(
            0,
            Reason(
                "allowed",
                "no_conflict",
                licensed,
                _text(
                    "선택한 라이선스들은 이 이용을 허용하며 서로 충돌하지 않는다. 아래 조건을 "
                    "지켜야 한다.",
                    "The chosen licences permit this use and do not conflict; the conditions "
                    "listed apply.",
                ),
            ),
        )
    return Verdict(
        status=status,
        conditions=tuple(
            Condition(code_, tuple(p for p in PARTS if p in conditions[code_]))
            for code_ in CONDITIONS
            if code_ in conditions
        ),
        reasons=tuple(ordered),
        adaptation_licenses=adaptation_licenses,
    )


# --- the lesson page ------------------------------------------------------------------

_SHOWN_AS: dict[str, Text] = {
    "LicenseRef-OpenRAIL-M": _text("OpenRAIL-M (LicenseRef)", "OpenRAIL-M (LicenseRef)"),
    "LicenseRef-Llama-3-Community": _text(
        "Llama 3 Community (LicenseRef)", "Llama 3 Community (LicenseRef)"
    ),
    "NOASSERTION": _text("NOASSERTION (알 수 없음)", "NOASSERTION (unknown)"),
    "NONE": _text("NONE (라이선스 없음)", "NONE (no licence)"),
}
"""How the selectors show identifiers that do not explain themselves; others show as is."""

LICENSE_LABELS: dict[str, tuple[str, ...]] = {
    lang: tuple(_SHOWN_AS[i][lang] if i in _SHOWN_AS else i for i in LICENSES) for lang in LANGUAGES
}

GRID = Grid(
    (
        Param(
            "data",
            LICENSES,
            "CC-BY-4.0",
            {"ko": "데이터 라이선스", "en": "Data licence"},
            value_labels=LICENSE_LABELS,
        ),
        Param(
            "model",
            LICENSES,
            "Apache-2.0",
            {"ko": "모델 라이선스", "en": "Model licence"},
            value_labels=LICENSE_LABELS,
        ),
        Param(
            "code",
            LICENSES,
            "MIT",
            {"ko": "코드 라이선스", "en": "Code licence"},
            value_labels=LICENSE_LABELS,
        ),
        Param(
            "commercial",
            (False, True),
            True,
            {"ko": "상업 이용", "en": "Commercial use"},
            value_labels={"ko": ("아니오", "예"), "en": ("No", "Yes")},
        ),
        Param(
            "share",
            (False, True),
            True,
            {"ko": "결과 공유", "en": "Share the result"},
            value_labels={"ko": ("아니오 (내부 사용)", "예"), "en": ("No (in-house)", "Yes")},
        ),
        Param(
            "combination",
            COMBINATIONS,
            "adapt",
            {"ko": "결합 방식", "en": "Combination"},
            value_labels={
                "ko": ("단순 묶음 (수정 없음)", "하나의 변경물 (예: 미세조정 모델)"),
                "en": ("Collection (unmodified)", "One adaptation (e.g. a fine-tuned model)"),
            },
        ),
    )
)


def _both(value: Text) -> dict[str, str]:
    return {"ko": value["ko"], "en": value["en"]}


def _parts_text(parts: Iterable[str], licenses: Mapping[str, str]) -> dict[str, str]:
    return {lang: _named(parts, licenses, lang) for lang in LANGUAGES}


def verdict_rows(verdict: Verdict, licenses: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """The verdict as the page's datasets: conditions and reasons, one row each."""
    conditions = [
        {
            "condition": _both(CONDITIONS[c.code]),
            "parts": _parts_text(c.parts, licenses),
        }
        for c in verdict.conditions
    ]
    reasons = [
        {
            "kind": _both(STATUS_LABELS[r.status]) if r.status != "allowed" else _both(NOTE),
            "text": _both(r.text),
        }
        for r in verdict.reasons
    ]
    return {"conditions": conditions, "reasons": reasons}


NOTE: Text = {"ko": "참고", "en": "Note"}
NONE_TEXT: Text = {"ko": "없음", "en": "none"}
NOT_APPLICABLE: Text = {
    "ko": "해당 없음 (공유하는 변경물이 아님)",
    "en": "not applicable (no shared adaptation)",
}


def _adaptation_text(verdict: Verdict, share: bool, combination: str) -> dict[str, str]:
    if not share or combination != "adapt":
        return _both(NOT_APPLICABLE)
    count = len(verdict.adaptation_licenses)
    if not count:
        return {"ko": "표에 맞는 라이선스 없음", "en": "no licence in the table fits"}
    return {"ko": f"아래 {count}개", "en": f"the {count} listed below"}


def compute(
    *, data: str, model: str, code: str, commercial: bool, share: bool, combination: str
) -> dict[str, Any]:
    """The page's result at one grid point: the verdict as readouts and two tables."""
    verdict = evaluate(
        data,
        model,
        code,
        commercial=commercial,
        share=share,
        combination=combination,  # type: ignore[arg-type]
    )
    licenses = {"data": data, "model": model, "code": code}
    return {
        "readouts": {
            "status": _both(STATUS_LABELS[verdict.status]),
            "adaptation_licenses": _adaptation_text(verdict, share, combination),
            "condition_count": len(verdict.conditions),
            "license_count": len(LICENSES),
            "combination_count": len(GRID),
        },
        "datasets": {
            **verdict_rows(verdict, licenses),
            "adaptation": [
                {"license": license_id, "kind": _both(KIND_LABELS[rule(license_id).kind])}
                for license_id in verdict.adaptation_licenses
            ],
            "status": [{"status": verdict.status}],
        },
    }


# --- whole-grid tables: the rule table, worked examples, how often each status comes up


YES: Text = {"ko": "예", "en": "yes"}
NO: Text = {"ko": "아니오", "en": "no"}


def _flag(value: bool, grants: bool) -> dict[str, str]:
    if not grants:
        return {"ko": "허락 필요", "en": "ask permission"}
    return _both(YES if value else NO)


def _adapter_text(r: LicenseRule) -> dict[str, str]:
    if not r.grants:
        return {"ko": "—", "en": "—"}
    if not r.adaptations_shareable:
        return {"ko": "공유 불가", "en": "may not be shared"}
    if r.adapter_licenses is None and not r.all_conditions:
        return {"ko": "어떤 라이선스든", "en": "any"}
    if r.adapter_licenses is None:
        return {"ko": "고지를 지키는 어떤 라이선스든", "en": "any that keeps its notices"}
    joined = ", ".join(r.adapter_licenses)
    if r.kind == "model":
        return {
            "ko": f"{joined} 또는 같은 조건을 담은 라이선스",
            "en": f"{joined} or a licence with the same terms",
        }
    return {"ko": joined, "en": joined}


def _conditions_text(codes: Iterable[str]) -> dict[str, str]:
    codes = list(dict.fromkeys(codes))
    if not codes:
        return _both(NONE_TEXT)
    return {lang: ", ".join(CONDITION_SHORT[c][lang] for c in codes) for lang in LANGUAGES}


def rule_table_rows() -> list[dict[str, Any]]:
    """:data:`RULES` as the rows of the page's rule table."""
    return [
        {
            "license": r.id,
            "kind": _both(KIND_LABELS[r.kind]),
            "commercial": _flag(r.commercial, r.grants),
            "adapt_share": _flag(r.adaptations_shareable, r.grants),
            "adapter": _adapter_text(r),
            "conditions": _conditions_text(r.on_use + r.on_share + r.on_adapt + r.on_share_adapted),
            "terms": _both(r.terms),
        }
        for r in RULES
    ]


@dataclass(frozen=True)
class Example:
    """A worked example: one grid point and what it illustrates."""

    point: Mapping[str, Any]
    """Values of every grid parameter."""
    story: Text
    """The situation, in every language."""


EXAMPLES: tuple[Example, ...] = (
    Example(
        {
            "data": "CC-BY-4.0",
            "model": "Apache-2.0",
            "code": "MIT",
            "commercial": True,
            "share": True,
            "combination": "adapt",
        },
        {
            "ko": "CC BY 데이터로 Apache-2.0 모델을 미세조정하고 MIT 코드와 함께 "
            "유료 서비스로 공개",
            "en": "Fine-tune an Apache-2.0 model on CC BY data and release it with MIT code in a "
            "paid service",
        },
    ),
    Example(
        {
            "data": "CC0-1.0",
            "model": "CC-BY-NC-4.0",
            "code": "Apache-2.0",
            "commercial": True,
            "share": False,
            "combination": "adapt",
        },
        {
            "ko": "BY-NC 모델을 회사 내부 업무용으로 미세조정 (공유하지 않음)",
            "en": "Fine-tune a BY-NC model for in-house company work (not shared)",
        },
    ),
    Example(
        {
            "data": "CC0-1.0",
            "model": "CC-BY-SA-4.0",
            "code": "CC-BY-NC-4.0",
            "commercial": False,
            "share": True,
            "combination": "adapt",
        },
        {
            "ko": "BY-SA 모델과 BY-NC 자료를 하나로 합쳐 연구용으로 공개",
            "en": "Merge a BY-SA model with BY-NC material into one work and publish it for "
            "research",
        },
    ),
    Example(
        {
            "data": "NOASSERTION",
            "model": "Apache-2.0",
            "code": "MIT",
            "commercial": False,
            "share": False,
            "combination": "aggregate",
        },
        {
            "ko": "출처와 라이선스 표시가 없는 웹 수집 데이터를 수업 과제에 사용",
            "en": "Use scraped data with no stated licence for a class project",
        },
    ),
    Example(
        {
            "data": "CC-BY-ND-4.0",
            "model": "Apache-2.0",
            "code": "MIT",
            "commercial": False,
            "share": True,
            "combination": "adapt",
        },
        {
            "ko": "BY-ND 데이터로 모델을 미세조정해 가중치를 공개",
            "en": "Fine-tune a model on BY-ND data and publish the weights",
        },
    ),
    Example(
        {
            "data": "CC-BY-ND-4.0",
            "model": "Apache-2.0",
            "code": "GPL-3.0-only",
            "commercial": True,
            "share": True,
            "combination": "aggregate",
        },
        {
            "ko": "BY-ND 데이터, Apache 모델, GPL 코드를 수정 없이 한 묶음으로 배포",
            "en": "Distribute BY-ND data, an Apache model and GPL code unmodified, side by side",
        },
    ),
)
"""One situation per status (and the ND contrast): their verdicts come from :func:`evaluate`."""


def example_rows() -> list[dict[str, Any]]:
    """The worked examples with the status and first reason :func:`evaluate` gives them."""
    rows = []
    for example in EXAMPLES:
        point = dict(example.point)
        verdict = evaluate(point.pop("data"), point.pop("model"), point.pop("code"), **point)
        rows.append(
            {
                "story": _both(example.story),
                "status": _both(STATUS_LABELS[verdict.status]),
                "why": _both(verdict.reasons[0].text),
            }
        )
    return rows


def summarize(results: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rule table, the worked examples and how often each status occurs in the grid."""
    counts = Counter(result["datasets"]["status"][0]["status"] for result in results.values())
    total = sum(counts.values())
    return {
        "rules": rule_table_rows(),
        "examples": example_rows(),
        "status_counts": [
            {
                "status": _both(STATUS_LABELS[status]),
                "count": counts[status],
                "share": 100 * counts[status] / total,
            }
            for status in STATUSES
        ],
    }


def _column(field: str, ko: str, en: str, format: str = "") -> Column:
    return Column(field, {"ko": ko, "en": en}, format)


CHARTS = ()
READOUTS = (
    Readout("status", {"ko": "판정", "en": "Verdict"}, announce=True),
    Readout(
        "adaptation_licenses",
        {"ko": "변경물에 붙일 수 있는 라이선스", "en": "Licences the adaptation may carry"},
    ),
    Readout("condition_count", {"ko": "조건 수", "en": "Number of conditions"}, format="d"),
    Readout("license_count", {"ko": "라이선스 수", "en": "Number of licences"}, format="d"),
    Readout("combination_count", {"ko": "조합 수", "en": "Number of combinations"}, format=",d"),
)
TABLES = (
    Table(
        "adaptation",
        (_column("license", "라이선스", "Licence"), _column("kind", "종류", "Kind")),
        {
            "ko": "공유하는 변경물에 붙일 수 있는 라이선스 (모든 부분이 받아들이는 것)",
            "en": "Licences a shared adaptation may carry (every part's licence accepts them)",
        },
        row_headers=True,
        empty={"ko": "없음", "en": "none"},
    ),
    Table(
        "conditions",
        (
            _column("condition", "조건", "Condition"),
            _column("parts", "이 조건을 요구하는 부분", "Required by"),
        ),
        {"ko": "현재 선택에 적용되는 조건", "en": "Conditions that apply to the current choice"},
        empty={"ko": "적용되는 조건이 없다.", "en": "No conditions apply."},
    ),
    Table(
        "reasons",
        (_column("kind", "구분", "Kind"), _column("text", "이유", "Reason")),
        {"ko": "판정의 이유 (결정적인 것부터)", "en": "Why (most decisive first)"},
        row_headers=True,
    ),
    Table(
        "rules",
        (
            _column("license", "라이선스", "Licence"),
            _column("kind", "종류", "Kind"),
            _column("commercial", "상업 이용", "Commercial use"),
            _column("adapt_share", "변경물 공유", "Share adaptations"),
            _column("adapter", "공유하는 변경물의 라이선스", "A shared adaptation may carry"),
            _column("conditions", "조건", "Conditions"),
            _column("terms", "근거", "Source of the rule"),
        ),
        {
            "ko": "규칙표: 판정기는 이 표만 읽는다",
            "en": "The rule table: the evaluator reads nothing else",
        },
        row_headers=True,
    ),
    Table(
        "examples",
        (
            _column("story", "상황", "Situation"),
            _column("status", "판정", "Verdict"),
            _column("why", "가장 중요한 이유", "Main reason"),
        ),
        {
            "ko": "판정별 예시 (빌드할 때 판정기로 계산)",
            "en": "Worked examples, one per status (computed by the evaluator at build time)",
        },
    ),
    Table(
        "status_counts",
        (
            _column("status", "판정", "Verdict"),
            _column("count", "조합 수", "Combinations", ",d"),
            _column("share", "비율 (%)", "Share (%)", ".1f"),
        ),
        {
            "ko": "모든 조합에서 각 판정이 나온 횟수",
            "en": "How often each verdict occurs over every combination",
        },
        row_headers=True,
    ),
)
