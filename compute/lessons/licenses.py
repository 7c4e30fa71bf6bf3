"""Lesson 04, data and model licences: the page around the licence checker.

The checker and its rule table are the library's :mod:`compute.licensing`; this
module turns them into the page. Its grid is every combination of three
licences (data, model, code), commercial use or not, sharing or not, a
collection, a fine-tuning or an adaptation of the data, and whether the licensee
passes Llama 3's 700-million-user threshold: :func:`compute` evaluates one and
returns the verdict, its conditions, its reasons and the licences an adaptation
may carry. :func:`summarize` adds what is the same on every point: the rule table
itself, worked examples computed by the checker, how often each verdict occurs,
and the merge map — every pair of data licences merged and shared — which
stands in for a second data control: as a control it would multiply the grid by
the number of licences (about 460,000 points), while the map costs 4 × 196
evaluations.

This is a teaching tool, not legal advice (see :mod:`compute.licensing`).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from privacy_explorer.compute.lessons import licenses_charts
from privacy_explorer.compute.licensing import (
    COMBINATIONS,
    CONDITION_SHORT,
    CONDITIONS,
    KIND_LABELS,
    LICENSES,
    RULES,
    STATUSES,
    LicenseRule,
    Text,
    Verdict,
    evaluate,
    named_parts,
    rule,
)
from privacy_explorer.lesson import LANGUAGES, Chart, Column, Grid, Param, Readout, Table

STATUS_LABELS: dict[str, Text] = {
    "allowed": {"ko": "허용 (조건 확인)", "en": "Allowed (check the conditions)"},
    "not_allowed": {"ko": "허용되지 않음", "en": "Not allowed"},
    "needs_permission": {"ko": "허락 필요", "en": "Needs permission"},
    "needs_review": {"ko": "검토 필요", "en": "Needs review"},
}


def _text(ko: str, en: str) -> dict[str, str]:
    return {"ko": ko, "en": en}


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
                "ko": (
                    "단순 묶음 (수정 없음)",
                    "변경 (미세조정, 코드 수정)",
                    "데이터 변경 (번역 등)",
                ),
                "en": (
                    "Collection (unmodified)",
                    "Adapted (fine-tuned, code changed)",
                    "Data adapted (translated, say)",
                ),
            },
        ),
        Param(
            "over_700m_users",
            (False, True),
            False,
            {
                "ko": "월간 활성 사용자 7억 명 초과 (Llama 3 §2)",
                "en": "Over 700 million monthly active users (Llama 3 §2)",
            },
            value_labels={"ko": ("아니오", "예"), "en": ("No", "Yes")},
        ),
    )
)


def _both(value: Text) -> dict[str, str]:
    return {"ko": value["ko"], "en": value["en"]}


def verdict_rows(verdict: Verdict, licenses: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """The verdict as the page's datasets: conditions and reasons, one row each."""
    conditions = [
        {
            "condition": _both(CONDITIONS[c.code]),
            "parts": named_parts(c.parts, licenses),
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
    "ko": "해당 없음 (공유하는 2차적저작물이 아님)",
    "en": "not applicable (no shared adaptation)",
}


WORKS: dict[str, Text] = {
    "weights": {"ko": "가중치", "en": "weights"},
    "code": {"ko": "코드", "en": "code"},
    "data": {"ko": "데이터", "en": "data"},
}
"""The adapted works a shared adaptation consists of, each under its own licence: the
weights and the code of a fine-tuning, or the adapted data."""


def _adaptation_text(verdict: Verdict, share: bool, combination: str) -> dict[str, str]:
    if not share or combination == "aggregate":
        return _both(NOT_APPLICABLE)
    weights, code = len(verdict.adaptation_licenses), len(verdict.code_licenses)
    data = len(verdict.data_licenses)
    if not weights and not code and not data:
        return {"ko": "표에 맞는 라이선스 없음", "en": "no licence in the table fits"}
    if combination == "adapt_data":
        return {"ko": f"데이터 {data}개 (아래 표)", "en": f"{data} for the data (listed below)"}
    return {
        "ko": f"가중치 {weights}개, 코드 {code}개 (아래 표)",
        "en": f"{weights} for the weights, {code} for the code (listed below)",
    }


def adaptation_rows(verdict: Verdict) -> list[dict[str, Any]]:
    """The licences the shared weights and the shared code may carry, one row each."""
    return [
        {
            "work": _both(WORKS[work]),
            "license": license_id,
            "kind": _both(KIND_LABELS[rule(license_id).kind]),
        }
        for work, licenses in (
            ("weights", verdict.adaptation_licenses),
            ("code", verdict.code_licenses),
            ("data", verdict.data_licenses),
        )
        for license_id in licenses
    ]


CASES: dict[str, dict[str, Any]] = {
    "apache_model_gpl_code": {
        "data": "CC0-1.0",
        "model": "Apache-2.0",
        "code": "GPL-3.0-only",
        "commercial": True,
        "share": True,
        "combination": "adapt",
    },
    "sa_data_nc_model": {
        "data": "CC-BY-SA-4.0",
        "model": "CC-BY-NC-4.0",
        "code": "MIT",
        "commercial": False,
        "share": True,
        "combination": "adapt",
    },
    "nd_model_shared": {
        "data": "CC0-1.0",
        "model": "CC-BY-ND-4.0",
        "code": "MIT",
        "commercial": False,
        "share": True,
        "combination": "adapt",
    },
}
"""Fixed situations the page's questions quote, whatever the controls show: readouts
``case_<name>`` (the verdict) and ``case_<name>_weights`` / ``_code`` (what each work may
carry)."""


def _licence_names(licenses: tuple[str, ...]) -> dict[str, str]:
    return {lang: ", ".join(licenses) or NONE_TEXT[lang] for lang in ("ko", "en")}


@functools.cache
def case_readouts() -> dict[str, Any]:
    """The verdicts of :data:`CASES`, the same at every grid point (so evaluated once)."""
    readouts: dict[str, Any] = {}
    for name, point in CASES.items():
        verdict = evaluate(**point)
        readouts[f"case_{name}"] = _both(STATUS_LABELS[verdict.status])
        readouts[f"case_{name}_weights"] = _licence_names(verdict.adaptation_licenses)
        readouts[f"case_{name}_code"] = _licence_names(verdict.code_licenses)
    return readouts


def compute(
    *,
    data: str,
    model: str,
    code: str,
    commercial: bool,
    share: bool,
    combination: str,
    over_700m_users: bool,
) -> dict[str, Any]:
    """The page's result at one grid point: the verdict as readouts and two tables."""
    verdict = evaluate(
        data,
        model,
        code,
        commercial=commercial,
        share=share,
        combination=combination,  # type: ignore[arg-type]
        over_700m_users=over_700m_users,
    )
    licenses = {"data": data, "model": model, "code": code}
    return {
        "readouts": {
            "status": _both(STATUS_LABELS[verdict.status]),
            "adaptation_licenses": _adaptation_text(verdict, share, combination),
            "condition_count": len(verdict.conditions),
            "license_count": len(LICENSES),
            "combination_count": len(GRID),
            **case_readouts(),
        },
        "datasets": {
            **verdict_rows(verdict, licenses),
            "adaptation": adaptation_rows(verdict),
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
            "ko": "BY-SA 모델을 미세조정하고 BY-NC 학습 코드를 고쳐 둘 다 연구용으로 공개",
            "en": "Fine-tune a BY-SA model, change BY-NC training code, and publish both for "
            "research",
        },
    ),
    Example(
        {
            "data": "NOASSERTION",
            "model": "Apache-2.0",
            "code": "MIT",
            "commercial": True,
            "share": True,
            "combination": "adapt",
        },
        {
            "ko": "출처와 라이선스 표시가 없는 웹 수집 데이터로 상용 모델을 미세조정해 유료로 제공",
            "en": "Fine-tune a commercial model on scraped web data with no stated licence and "
            "sell access to it",
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
    """The worked examples with the status and main reason :func:`evaluate` gives them.

    The main reason is the first one that says more than "no conflict", when there is one.
    """
    rows = []
    for example in EXAMPLES:
        point = dict(example.point)
        verdict = evaluate(point.pop("data"), point.pop("model"), point.pop("code"), **point)
        main = next((r for r in verdict.reasons if r.rule != "no_conflict"), verdict.reasons[0])
        rows.append(
            {
                "story": _both(example.story),
                "status": _both(STATUS_LABELS[verdict.status]),
                "why": _both(main.text),
            }
        )
    return rows


STATUS_LETTERS: dict[str, str] = {
    "allowed": "A",
    "not_allowed": "N",
    "needs_permission": "P",
    "needs_review": "R",
}
"""One letter per status: a verdict map stores its 14 × 14 verdicts as one string."""


def verdict_map_rows(results: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every grid point's status, arranged as one data × model map per other choice.

    One row per (code, commercial, share, combination); its ``cells`` hold the
    status letter (:data:`STATUS_LETTERS`) of data licence ``i`` and model
    licence ``j`` at position ``i·|LICENSES| + j``. The statuses are the grid
    points' own results, so the map cannot disagree with the verdicts.
    """
    rows = []
    data_param, model_param, *others = GRID.params
    for values in itertools.product(*(p.values for p in others)):
        choice = dict(zip((p.name for p in others), values, strict=True))
        cells = "".join(
            STATUS_LETTERS[
                results[GRID.key({"data": data, "model": model, **choice})]["datasets"]["status"][
                    0
                ]["status"]
            ]
            for data in data_param.values
            for model in model_param.values
        )
        rows.append({**choice, "cells": cells})
    return rows


MERGE_TOOLS: dict[str, str] = {"model": "Apache-2.0", "code": "MIT"}
"""The model and code beside a merge on the merge map: used, not changed or shared, they add
no condition, so each cell is the two data licences' own answer (the live checker above the
map takes any model and code)."""


def merge_point(data: str, second_data: str, commercial: bool, share: bool) -> dict[str, Any]:
    """The :func:`evaluate` arguments of one merge-map cell: ``data`` merged with
    ``second_data`` (cleaned, annotated or translated as well), used and shared or not."""
    return {
        "data": data,
        "second_data": second_data,
        **MERGE_TOOLS,
        "commercial": commercial,
        "share": share,
        "combination": "adapt_data",
    }


def merge_map_rows() -> list[dict[str, Any]]:
    """Every pair of data licences merged, as one row per (commercial, share).

    Its ``cells`` hold the status letter of data licence ``i`` merged with second data
    licence ``j`` at position ``i·|LICENSES| + j``, like :func:`verdict_map_rows`.
    """
    rows = []
    for commercial, share in itertools.product((False, True), (False, True)):
        cells = "".join(
            STATUS_LETTERS[evaluate(**merge_point(first, second, commercial, share)).status]
            for first in LICENSES
            for second in LICENSES
        )
        rows.append({"commercial": commercial, "share": share, "cells": cells})
    return rows


def summarize(results: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rule table, the worked examples, how often each status occurs in the grid, the
    verdict maps (:func:`verdict_map_rows`) and the merge map (:func:`merge_map_rows`)."""
    counts = Counter(result["datasets"]["status"][0]["status"] for result in results.values())
    total = sum(counts.values())
    return {
        "verdict_map": verdict_map_rows(results),
        "merge_map": merge_map_rows(),
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


LAZY = ("adaptation", "conditions", "reasons")
"""The live tables whose cells load when a setting needs them: over all 65,856 points they
are most of the page data (see ``privacy_explorer.lazy``, ``lazy_tables``)."""

CHARTS = (
    Chart(
        "verdict_map",
        functools.partial(
            licenses_charts.verdict_map_chart,
            status_labels=STATUS_LABELS,
            status_letters=STATUS_LETTERS,
        ),
        {
            "ko": "지금 고른 코드 라이선스, 상업 이용, 공유, 결합 방식에서 데이터 라이선스(세로)와 "
            "모델 라이선스(가로)의 모든 조합에 대한 판정을 색으로 칠하고, 지금 고른 칸을 "
            "굵은 테두리로 표시한다.",
            "en": "The verdict for every data licence (down) and model licence (across) at the "
            "current code licence, commercial use, sharing and combination, coloured by "
            "verdict, with the current cell outlined.",
        },
    ),
    Chart(
        "merge_map",
        functools.partial(
            licenses_charts.merge_map_chart,
            status_labels=STATUS_LABELS,
            status_letters=STATUS_LETTERS,
        ),
        {
            "ko": "지금 고른 상업 이용과 공유에서, 데이터 라이선스(세로)의 데이터와 두 번째 "
            "데이터 라이선스(가로)의 데이터를 합쳐 고칠 때의 판정을 색으로 칠하고, 지금 고른 "
            "데이터 라이선스의 행을 굵은 테두리로 표시한다.",
            "en": "The verdict for merging data under each data licence (down) with data under "
            "each second licence (across) at the current commercial use and sharing, coloured "
            "by verdict, with the row of the current data licence outlined.",
        },
    ),
)
READOUTS = (
    Readout("status", {"ko": "판정", "en": "Verdict"}, announce=True),
    Readout(
        "adaptation_licenses",
        {
            "ko": "공유하는 가중치와 코드에 붙일 수 있는 라이선스",
            "en": "Licences the shared weights and code may carry",
        },
    ),
    Readout("condition_count", {"ko": "조건 수", "en": "Number of conditions"}, format="d"),
    Readout("license_count", {"ko": "라이선스 수", "en": "Number of licences"}, format="d"),
    Readout("combination_count", {"ko": "조합 수", "en": "Number of combinations"}, format=",d"),
    *(
        Readout(
            f"case_{name}{suffix}",
            {"ko": f"{label['ko']} 예{what['ko']}", "en": f"{label['en']} case{what['en']}"},
        )
        for name, label in {
            "apache_model_gpl_code": {"ko": "Apache 모델·GPL 코드", "en": "Apache model, GPL code"},
            "sa_data_nc_model": {"ko": "BY-SA 데이터·BY-NC 모델", "en": "BY-SA data, BY-NC model"},
            "nd_model_shared": {"ko": "BY-ND 모델 공유", "en": "Shared BY-ND model"},
        }.items()
        for suffix, what in {
            "": {"ko": ": 판정", "en": ": verdict"},
            "_weights": {"ko": ": 가중치 라이선스", "en": ": licences for the weights"},
            "_code": {"ko": ": 코드 라이선스", "en": ": licences for the code"},
        }.items()
    ),
)
TABLES = (
    Table(
        "adaptation",
        (
            _column("work", "저작물", "Work"),
            _column("license", "라이선스", "Licence"),
            _column("kind", "종류", "Kind"),
        ),
        {
            "ko": "공유하는 가중치와 코드에 붙일 수 있는 라이선스 "
            "(각자의 라이선스가 받아들이는 것)",
            "en": "Licences the shared weights and code may carry (each one's own licence "
            "accepts them)",
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
            _column("adapt_share", "2차적저작물 공유", "Share adaptations"),
            _column("adapter", "공유하는 2차적저작물의 라이선스", "A shared adaptation may carry"),
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
