"""The rule table of lesson 04: what each licence permits and on which conditions.

One :class:`LicenseRule` per licence. :mod:`compute.licenses` evaluates every
combination from this table alone, and the lesson page prints it, so the table
is the single source of truth. The rules follow the licence texts:

* Creative Commons 4.0 legal code: BY requires credit, a licence notice and an
  indication of changes whenever material is shared (§3(a)); NC limits every use
  to non-commercial purposes (§2(a)(1)), shared or not; ND allows adapted
  material to be made but not shared (§2(a)(1)(B)), while the unmodified work
  may be shared; SA requires a shared adaptation to carry the same licence or a
  BY-SA compatible one (§3(b)) — for BY-SA 4.0, CC lists GPLv3 as compatible, in
  that direction only — and forbids extra restrictions on it (§3(b)(3)).
* CC's guidance on the licence an adapter may apply: any CC licence for BY, the
  NC licences for BY-NC, only BY-NC-SA for BY-NC-SA, none for ND (not shareable).
* Software licences by their own terms: MIT keeps its notice; Apache-2.0 keeps
  the licence, NOTICE file and change notes (§4) and lets a derivative work as a
  whole carry other terms; GPL-3.0 puts a modified work as a whole under the GPL
  with source (§5, §6), forbids further restrictions (§10), and does not reach
  works merely aggregated beside it (§5, last paragraph).
* The two model licences: an OpenRAIL-M licence (BigScience or CreativeML
  OpenRAIL-M), whose use-based restrictions bind the licensee and must travel, as
  enforceable terms, with the model and any derivative; and the Meta Llama 3
  Community License: a copy of the agreement and "Built with Meta Llama 3" when
  shared, derived models named "Llama 3…", the acceptable use policy, a
  separate licence above 700 million monthly active users, and no use of Llama
  materials or outputs to improve other large language models (§1(b)(v)).

Judgement calls, where the texts leave room and a reviewer may decide otherwise:

* Apache-2.0 code inside an adaptation accepts any licence for the whole work
  (its §4 conditions still apply to the code), so it never blocks BY-SA.
* The two model licences are offered only as their own adaptation licence ("or
  a licence with the same terms"); combined with an NC licence or with each
  other, the answer is needs review rather than a verdict.
* Llama 3 material on the data or code beside a model that is not Llama 3 is
  needs review, because §1(b)(v) may forbid that use.
* BY and BY-NC material may be adapted under the ND licences, following CC's
  chart of licences an adapter may apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Text = Mapping[str, str]
"""A text in every language of the site, e.g. ``{"ko": "표시", "en": "attribution"}``."""

CONDITIONS: dict[str, Text] = {
    "attribution": {
        "ko": "출처 표시: 저작자, 저작권 고지, 라이선스 이름과 링크를 밝힌다",
        "en": "Attribution: credit the creator, keep the copyright notice, "
        "name and link the licence",
    },
    "indicate_changes": {
        "ko": "변경 표시: 원본을 바꾸었다는 사실과 무엇을 바꾸었는지 밝힌다",
        "en": "Indicate changes: say that you modified the original, and how",
    },
    "keep_notices": {
        "ko": "고지 유지: 라이선스 전문(또는 링크), 저작권·NOTICE 파일을 함께 전달한다",
        "en": "Keep notices: pass on the licence text (or link), copyright and NOTICE files",
    },
    "share_alike": {
        "ko": "동일조건: 공유하는 변경물에 같은(또는 호환) 라이선스를 붙이고 제한을 더하지 않는다",
        "en": "Share-alike: license the shared adaptation the same (or compatible) way, "
        "adding no restrictions",
    },
    "non_commercial": {
        "ko": "비상업 한정: 이 부분은 상업적 목적으로 쓰지 않는다",
        "en": "Non-commercial only: do not use this part for commercial purposes",
    },
    "no_shared_adaptations": {
        "ko": "변경물 공유 금지: 변경물은 만들 수 있지만 다른 사람에게 공유하지 않는다",
        "en": "No shared adaptations: you may adapt it, but not share the adaptation",
    },
    "use_restrictions": {
        "ko": "이용 제한 준수·전달: 금지된 용도에 쓰지 않고, 받는 사람도 같은 제한을 따르게 한다",
        "en": "Use restrictions: stay out of the forbidden uses and bind anyone you share with "
        "to the same restrictions",
    },
    "provide_source": {
        "ko": "소스 제공: 실행 형태로 배포하면 대응 소스 코드도 제공한다",
        "en": "Provide source: with any non-source form, offer the corresponding source code",
    },
    "llama_naming": {
        "ko": "Llama 표기: 'Built with Meta Llama 3'를 표시하고, "
        "파생 모델 이름은 'Llama 3'로 시작한다",
        "en": "Llama naming: display 'Built with Meta Llama 3'; a derived model's name starts "
        "with 'Llama 3'",
    },
    "user_threshold": {
        "ko": "7억 MAU 조건: 출시일 기준 월간 활성 사용자가 7억 명을 넘었다면 "
        "Meta의 별도 라이선스가 필요하다",
        "en": "700M MAU term: above 700 million monthly active users at release, "
        "a separate licence from Meta is needed",
    },
}
"""Every condition a verdict can list, in the order it lists them."""

CONDITION_SHORT: dict[str, Text] = {
    "attribution": {"ko": "표시", "en": "attribution"},
    "indicate_changes": {"ko": "변경 표시", "en": "indicate changes"},
    "keep_notices": {"ko": "고지 유지", "en": "keep notices"},
    "share_alike": {"ko": "동일조건", "en": "share-alike"},
    "non_commercial": {"ko": "비상업", "en": "non-commercial"},
    "no_shared_adaptations": {"ko": "변경물 공유 금지", "en": "no shared adaptations"},
    "use_restrictions": {"ko": "이용 제한 전달", "en": "pass on use restrictions"},
    "provide_source": {"ko": "소스 제공", "en": "provide source"},
    "llama_naming": {"ko": "Llama 표기", "en": "Llama naming"},
    "user_threshold": {"ko": "7억 MAU", "en": "700M MAU"},
}
"""The conditions' short names, for the rule table."""

Kind = Literal["public_domain", "creative_commons", "software", "model", "unknown", "none"]
KIND_LABELS: dict[str, Text] = {
    "public_domain": {"ko": "퍼블릭 도메인", "en": "public domain"},
    "creative_commons": {"ko": "CC 4.0", "en": "CC 4.0"},
    "software": {"ko": "소프트웨어", "en": "software"},
    "model": {"ko": "모델 라이선스", "en": "model licence"},
    "unknown": {"ko": "알 수 없음", "en": "unknown"},
    "none": {"ko": "라이선스 없음", "en": "no licence"},
}


@dataclass(frozen=True)
class LicenseRule:
    """One licence as the evaluator reads it: a row of the rule table."""

    id: str
    """SPDX identifier (``LicenseRef-…`` for the model licences without one)."""
    kind: Kind
    """The family it belongs to."""
    terms: Text
    """The rule in a sentence or two, with the clause it comes from."""
    grants: bool = True
    """Whether it grants any permission at all (``False`` for unknown and no licence)."""
    commercial: bool = True
    """Whether commercial use is allowed."""
    adaptations_shareable: bool = True
    """Whether an adaptation may be shared (``False`` for ND)."""
    adapter_licenses: tuple[str, ...] | None = None
    """Licences a shared adaptation containing this part may carry; ``None``: any licence
    that keeps this licence's notices (so not CC0, unless the part itself is CC0)."""
    share_alike: bool = False
    """Whether it insists on :attr:`adapter_licenses` and forbids added restrictions (SA, GPL)."""
    on_use: tuple[str, ...] = ()
    """Conditions of any use, shared or not."""
    on_share: tuple[str, ...] = ()
    """Conditions whenever the part is shared, as it is or adapted."""
    on_adapt: tuple[str, ...] = ()
    """Conditions of adapting it, shared or not."""
    on_share_adapted: tuple[str, ...] = ()
    """Further conditions when an adaptation of it is shared."""

    @property
    def all_conditions(self) -> tuple[str, ...]:
        """Every condition it can impose, in :data:`CONDITIONS` order."""
        found = set(self.on_use + self.on_share + self.on_adapt + self.on_share_adapted)
        return tuple(code for code in CONDITIONS if code in found)


CREDIT = ("attribution", "keep_notices")
NC_ADAPTERS = ("CC-BY-NC-4.0", "CC-BY-NC-SA-4.0", "CC-BY-NC-ND-4.0")

RULES: tuple[LicenseRule, ...] = (
    LicenseRule(
        "CC0-1.0",
        "public_domain",
        {
            "ko": "가능한 범위에서 모든 권리를 포기한다. 조건이 없다 (CC0 1.0 §2).",
            "en": "Waives every right the law lets it waive; no conditions (CC0 1.0 §2).",
        },
    ),
    LicenseRule(
        "CC-BY-4.0",
        "creative_commons",
        {
            "ko": "공유할 때 표시·고지·변경 표시(§3(a)). 변경물의 라이선스는 자유지만 "
            "받는 사람의 BY 준수를 막으면 안 된다(§3(a)(4)).",
            "en": "When shared: credit, notices, changes indicated (§3(a)). An adaptation may "
            "carry any licence that lets recipients comply with BY (§3(a)(4)).",
        },
        on_share=CREDIT,
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "CC-BY-SA-4.0",
        "creative_commons",
        {
            "ko": "공유하는 변경물은 BY-SA 또는 BY-SA 호환 라이선스(GPLv3, 한 방향)로만, "
            "추가 제한 없이(§3(b)).",
            "en": "A shared adaptation carries BY-SA or a BY-SA compatible licence (GPLv3, one "
            "way only), with no added restrictions (§3(b)).",
        },
        adapter_licenses=("CC-BY-SA-4.0", "GPL-3.0-only"),
        share_alike=True,
        on_share=CREDIT,
        on_share_adapted=("indicate_changes", "share_alike"),
    ),
    LicenseRule(
        "CC-BY-NC-4.0",
        "creative_commons",
        {
            "ko": "모든 이용이 비상업 목적에 한정된다(§2(a)(1)). 공유하는 변경물은 NC 라이선스로.",
            "en": "Every use is limited to non-commercial purposes (§2(a)(1)); a shared "
            "adaptation keeps an NC licence.",
        },
        commercial=False,
        adapter_licenses=NC_ADAPTERS,
        on_use=("non_commercial",),
        on_share=CREDIT,
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "CC-BY-NC-SA-4.0",
        "creative_commons",
        {
            "ko": "비상업 한정이며, 공유하는 변경물은 BY-NC-SA로만(§3(b)).",
            "en": "Non-commercial only; a shared adaptation carries BY-NC-SA and nothing else "
            "(§3(b)).",
        },
        commercial=False,
        adapter_licenses=("CC-BY-NC-SA-4.0",),
        share_alike=True,
        on_use=("non_commercial",),
        on_share=CREDIT,
        on_share_adapted=("indicate_changes", "share_alike"),
    ),
    LicenseRule(
        "CC-BY-ND-4.0",
        "creative_commons",
        {
            "ko": "변경물을 만들 수는 있지만 공유할 수 없다(§2(a)(1)(B)). "
            "원본 그대로는 공유할 수 있다.",
            "en": "Adapted material may be made but not shared (§2(a)(1)(B)); the unmodified "
            "work may be shared.",
        },
        adaptations_shareable=False,
        adapter_licenses=(),
        on_share=CREDIT,
        on_adapt=("no_shared_adaptations",),
    ),
    LicenseRule(
        "CC-BY-NC-ND-4.0",
        "creative_commons",
        {
            "ko": "비상업 한정이며, 변경물은 공유할 수 없다. "
            "원본 그대로는 비상업적으로 공유할 수 있다.",
            "en": "Non-commercial only; adaptations may not be shared, the unmodified work may "
            "be, non-commercially.",
        },
        commercial=False,
        adaptations_shareable=False,
        adapter_licenses=(),
        on_use=("non_commercial",),
        on_share=CREDIT,
        on_adapt=("no_shared_adaptations",),
    ),
    LicenseRule(
        "MIT",
        "software",
        {
            "ko": "저작권 고지와 허락 고지를 모든 사본에 포함한다. 다른 조건은 없다.",
            "en": "Keep the copyright and permission notice in all copies; nothing else.",
        },
        on_share=("keep_notices",),
    ),
    LicenseRule(
        "Apache-2.0",
        "software",
        {
            "ko": "라이선스 사본, NOTICE 파일, 고지를 유지하고 수정한 파일에 변경 사실을 "
            "적는다(§4). 파생물 전체에는 다른 조건을 붙일 수 있다.",
            "en": "Keep the licence, NOTICE file and notices; mark modified files (§4). A "
            "derivative work as a whole may carry other terms.",
        },
        on_share=("keep_notices",),
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "GPL-3.0-only",
        "software",
        {
            "ko": "수정본 전체가 GPL-3.0이 되고 추가 제한은 금지된다(§5, §10). "
            "단순 묶음(aggregate)의 다른 부분에는 미치지 않는다(§5 끝 문단).",
            "en": "A modified work as a whole is GPL-3.0 with no further restrictions (§5, §10); "
            "works merely aggregated beside it are not affected (§5, last paragraph).",
        },
        adapter_licenses=("GPL-3.0-only",),
        share_alike=True,
        on_share=("keep_notices", "provide_source"),
        on_share_adapted=("indicate_changes", "share_alike"),
    ),
    LicenseRule(
        "LicenseRef-OpenRAIL-M",
        "model",
        {
            "ko": "상업 이용도 허용하지만, 용도 제한(부속서 A)을 지키고 모델과 파생물을 "
            "넘길 때 같은 제한을 강제력 있는 조건으로 포함해야 한다.",
            "en": "Commercial use is allowed, but the use-based restrictions (Attachment A) bind "
            "you and must go, as enforceable terms, with the model and any derivative.",
        },
        adapter_licenses=("LicenseRef-OpenRAIL-M",),
        on_use=("use_restrictions",),
        on_share=("keep_notices",),
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "LicenseRef-Llama-3-Community",
        "model",
        {
            "ko": "라이선스 사본과 'Built with Meta Llama 3' 표시, 파생 모델 이름의 'Llama 3' "
            "접두사, 허용 이용 정책, 7억 MAU 조건. 출력으로 다른 LLM을 개선하는 것은 "
            "금지(§1(b)(v)).",
            "en": "Copy of the agreement and 'Built with Meta Llama 3'; derived models named "
            "'Llama 3…'; the acceptable use policy; the 700M MAU term. Its outputs may not "
            "improve other LLMs (§1(b)(v)).",
        },
        adapter_licenses=("LicenseRef-Llama-3-Community",),
        on_use=("use_restrictions", "user_threshold"),
        on_share=("keep_notices", "llama_naming"),
    ),
    LicenseRule(
        "NOASSERTION",
        "unknown",
        {
            "ko": "라이선스를 알 수 없다. 알 수 없음은 허락이 아니다.",
            "en": "The licence is unknown. Unknown is not permission.",
        },
        grants=False,
        commercial=False,
        adaptations_shareable=False,
        adapter_licenses=(),
    ),
    LicenseRule(
        "NONE",
        "none",
        {
            "ko": "라이선스가 없다. 저작권법의 기본값은 '모든 권리 보유'다.",
            "en": "No licence. Copyright's default is 'all rights reserved'.",
        },
        grants=False,
        commercial=False,
        adaptations_shareable=False,
        adapter_licenses=(),
    ),
)
"""The rule table, in the order the page lists it."""

RULE_BY_ID: dict[str, LicenseRule] = {rule.id: rule for rule in RULES}
LICENSES: tuple[str, ...] = tuple(rule.id for rule in RULES)
"""Every accepted identifier, in the rule table's order."""


def rule(license_id: str) -> LicenseRule:
    """The rule table's row for ``license_id``; ``ValueError`` naming the accepted ones."""
    try:
        return RULE_BY_ID[license_id]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown licence {license_id!r}; use one of: {', '.join(LICENSES)}"
        ) from None
