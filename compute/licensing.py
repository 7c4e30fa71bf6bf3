"""Licences of data, models and code: the rule table, and a checker that reads only the table.

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
    ``"adapt"``: they are adapted — the model fine-tuned on the data, the code
    changed. The fine-tuned weights and the modified code are different works:
    each is judged under its own licence (the weights under the model's, the code
    under the code's), and a shared result is the weights under a licence the
    model's accepts beside the code under one the code's accepts. The data meets
    only the weights, and whether trained weights are an adaptation of their
    training data is not settled (see below).

Everything known about a licence is a row of :data:`RULES` (one
:class:`LicenseRule` each): what it permits, which licences an adaptation may
carry, its conditions, and its carve-outs. Every finding the checker can report
is a row of :data:`REASONS`, with its status and its text. The evaluator at the
end of this module holds no licence of its own: it applies the same steps to
whichever rows the parts name, so a licence is added by adding a row.

How the rows were read from the licence texts:

* Creative Commons 4.0 legal code: BY requires credit, a licence notice and an
  indication of changes whenever material is shared (§3(a)); NC limits every use
  to non-commercial purposes (§2(a)(1)), shared or not; ND allows adapted
  material to be made but not shared (§2(a)(1)(B)), while the unmodified work
  may be shared; SA requires a shared adaptation to carry the same licence or a
  BY-SA compatible one (§3(b)) — for BY-SA 4.0, CC lists GPLv3 as compatible, in
  that direction only — and forbids extra restrictions on it (§3(b)(3)).
* CC's guidance on the licence an adapter may apply (its FAQ and compatibility
  chart, guidance rather than licence text): any CC licence for BY, the NC licences
  for BY-NC, only BY-NC-SA for BY-NC-SA, none for ND (not shareable). The BY-SA ×
  BY-NC clash itself comes from the licence text, BY-SA §3(b).
* Software licences by their own terms: MIT keeps its notice; Apache-2.0 keeps
  the licence, NOTICE file and change notes (§4) and lets you put other terms on
  your modifications and on a derivative work as a whole, while recipients keep
  their Apache-2.0 rights in the original parts; GPL-3.0 puts a modified work as
  a whole under the GPL with source (§5, §6), forbids further restrictions (§10), and does not reach
  works merely aggregated beside it (§5, last paragraph).
* The two model licences: an OpenRAIL-M licence (BigScience or CreativeML
  OpenRAIL-M), whose use-based restrictions bind the licensee and must travel, as
  enforceable terms, with the model and any derivative; and the Meta Llama 3
  Community License: a copy of the agreement and "Built with Meta Llama 3" when
  shared, derived models named "Llama 3…", the acceptable use policy, a licence
  to request from Meta (granted at its discretion) by a licensee whose products or
  services, with its affiliates', had more than 700 million monthly active users
  in the calendar month before the Llama 3 release date (§2), and no use of Llama
  materials or outputs to improve other large language models (§1(b)(v)).

Judgement calls, where the texts leave room and a reviewer may decide otherwise:

* The premise of every adapted verdict: model weights are protected (as creative
  expression, Korean Copyright Act Art. 2 item 1, or as a database, Art. 93) and
  fine-tuning is an adaptation "requiring permission under the Copyright and Similar
  Rights held by the Licensor" (CC 4.0 §1(a)). Both are open; without them an ND
  term could bind only as a contract, which is unsettled too. The checker keeps the
  cautious verdict and says so in the ``weights_premise`` reason.

* Apache-2.0 code inside an adaptation accepts any licence for the whole work
  (its §4 conditions still apply to the code), so it never blocks BY-SA.
* The two model licences are offered only as their own adaptation licence ("or
  a licence with the same terms"); where one meets the other (or an NC licence)
  through the data-to-weights question, the answer is needs review rather than a
  verdict.
* Running code does not put its licence on what the code produces: GPL training
  code does not make the weights GPL (GPL-3.0 §2 covers output only when the
  output itself is a covered work), so code and weights never share a licence
  question.
* Llama 3 material on the data or code beside a model that is not Llama 3 is
  needs review, because §1(b)(v) may forbid that use.
* BY and BY-NC material may be adapted under the ND licences, following CC's
  chart of licences an adapter may apply.

How parts combine: NC and unknown licences bind any use; in a collection each
part keeps its own licence; each shared adapted work (the weights, the code)
needs a licence its own part accepts (:meth:`LicenseRule.accepts`), and an ND
part makes it a definite "not allowed". Whether a data licence reaches the
weights trained on the data (or what a model generates) is not settled. Where
the answer would change the verdict, the checker says ``needs_review`` and gives
both readings, with the clash that the weights would face if they were an
adaptation of the data (share-alike data with an NC, ND or model licence, say);
where it only changes conditions, it lists them as a precaution and says so. An
unknown licence (``NOASSERTION``) or none at all (``NONE``) is never read as
permission — though it does not always mean "all rights reserved": some texts
have no copyright at all (statutes and court decisions, Korean Copyright Act
Art. 7), which is for the reader to establish, not for this table.

>>> evaluate("CC-BY-4.0", "Apache-2.0", "MIT", commercial=True, share=True,
...          combination="aggregate").status
'allowed'
>>> evaluate("CC0-1.0", "CC-BY-NC-4.0", "MIT", commercial=True, share=False,
...          combination="adapt").status
'not_allowed'

This is a teaching tool, not legal advice. Copyright exceptions (fair use,
text-and-data-mining exceptions) lie outside the licences and outside this table,
and privacy, trademark, patent and contract rights remain whatever a licence says.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "COMBINATIONS",
    "CONDITIONS",
    "CONDITION_SHORT",
    "KIND_LABELS",
    "LANGUAGES",
    "LICENSES",
    "PARTS",
    "PART_NAMES",
    "REASONS",
    "RULES",
    "SITUATIONS",
    "STATUSES",
    "Condition",
    "LicenseRule",
    "Reason",
    "ReasonRule",
    "Verdict",
    "evaluate",
    "named_parts",
    "rule",
]

LANGUAGES: tuple[str, ...] = ("ko", "en")
"""Every text here exists in these languages (the site's languages)."""
Text = Mapping[str, str]
"""A text in every language of the site, e.g. ``{"ko": "표시", "en": "attribution"}``."""
Status = Literal["allowed", "not_allowed", "needs_permission", "needs_review"]
Combination = Literal["aggregate", "adapt"]

PARTS: tuple[str, ...] = ("data", "model", "code")
"""The three parts of a project, in the order the checker names them."""
TRAINING_DATA = "data"
"""The part whose place in an adaptation is not settled: are trained weights an adaptation
of their training data? The checker weighs both readings."""
PART_NAMES: dict[str, Text] = {
    "data": {"ko": "데이터", "en": "data"},
    "model": {"ko": "모델", "en": "model"},
    "code": {"ko": "코드", "en": "code"},
}
COMBINATIONS: tuple[str, ...] = ("aggregate", "adapt")
STATUSES: tuple[str, ...] = ("allowed", "not_allowed", "needs_permission", "needs_review")
"""Every status, in the order the page lists them."""
STATUS_PRIORITY: tuple[Status, ...] = ("not_allowed", "needs_permission", "needs_review", "allowed")
"""Which status wins when reasons disagree: a definite "no" beats everything."""


# --- What a verdict is made of ----------------------------------------------------------


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
    """The key of its row in :data:`REASONS`, e.g. ``nc_commercial``."""
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
    """For shared adapted weights: licences they may carry (empty otherwise, or when none
    fits)."""
    code_licenses: tuple[str, ...] = ()
    """For shared modified code: licences it may carry (empty otherwise, or when none fits)."""

    @property
    def condition_codes(self) -> tuple[str, ...]:
        """Just the condition keys, e.g. ``("attribution", "keep_notices")``."""
        return tuple(condition.code for condition in self.conditions)


@dataclass(frozen=True)
class ReasonRule:
    """A finding the checker can report: a row of :data:`REASONS`."""

    status: Status
    """The status it argues for (``allowed`` for a note)."""
    text: Text
    """Its text in every language, with ``{placeholders}`` the checker fills in: ``{parts}``
    (the parts with their licences), ``{part}`` (a part's name) and the fields named in
    the row's comment."""
    also_about: tuple[str, ...] = ()
    """Parts the finding concerns besides those its text names (the model, for a question
    about using other material to improve it)."""


# --- The rule table -----------------------------------------------------------------------

CONDITIONS: dict[str, Text] = {
    "attribution": {
        "ko": "저작자표시: 저작자, 저작권 고지, 라이선스 이름과 링크를 밝힌다",
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
        "ko": "동일조건변경허락: 공유하는 변경물에 같은(또는 호환) 라이선스를 붙이고 "
        "제한을 더하지 않는다",
        "en": "Share-alike: license the shared adaptation the same (or compatible) way, "
        "adding no restrictions",
    },
    "non_commercial": {
        "ko": "비영리 한정: 이 부분은 상업적 목적으로 쓰지 않는다",
        "en": "Non-commercial only: do not use this part for commercial purposes",
    },
    "no_shared_adaptations": {
        "ko": "변경금지: 변경물은 만들 수 있지만 다른 사람에게 공유하지 않는다",
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
        "ko": "Llama 표기: 'Built with Meta Llama 3'을 표시하고, "
        "배포하거나 제공하는(distributed or made available) 파생 모델의 이름은 'Llama 3'으로 "
        "시작한다",
        "en": "Llama naming: display 'Built with Meta Llama 3'; a derived model that is "
        "distributed or made available has a name starting with 'Llama 3'",
    },
    "user_threshold": {
        "ko": "7억 MAU 조건(§2): Llama 3 출시일(2024년 4월 18일)에 이용자(계열사 포함)가, "
        "또는 이용자를 위해 다른 사람이(by or for) 제공하는 제품·서비스의 직전 달 월간 "
        "활성 사용자가 7억 명을 넘었다면 Meta에 라이선스를 "
        "요청해야 하며, Meta가 허락하기 전에는 이 계약의 권리를 쓸 수 없다",
        "en": "700M MAU term (§2): if, on the Llama 3 release date (18 April 2024), the "
        "products or services made available by or for the licensee or its affiliates had "
        "more than 700 million monthly active users in the preceding calendar month, the "
        "licensee must request a licence from Meta and has no rights under the agreement "
        "until Meta grants one",
    },
}
"""Every condition a verdict can list, in the order it lists them."""

CONDITION_SHORT: dict[str, Text] = {
    "attribution": {"ko": "저작자표시", "en": "attribution"},
    "indicate_changes": {"ko": "변경 표시", "en": "indicate changes"},
    "keep_notices": {"ko": "고지 유지", "en": "keep notices"},
    "share_alike": {"ko": "동일조건변경허락", "en": "share-alike"},
    "non_commercial": {"ko": "비영리", "en": "non-commercial"},
    "no_shared_adaptations": {"ko": "변경금지", "en": "no shared adaptations"},
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


SITUATIONS: dict[str, Mapping[str, bool]] = {
    "any_use": {},
    "commercial_use": {"commercial": True},
    "shared_collection": {"share": True, "adapt": False},
    "adapted_beside_another_model": {"adapt": True, "other_model": True},  # Llama 3 §1(b)(v)
    "kept_adaptation": {"adapt": True, "share": False},
    "shared_adaptation": {"adapt": True, "share": True},
}
"""When a row's :attr:`LicenseRule.findings` apply to a part, in the order they are reported:
the facts of the use that must hold. ``other_model`` holds for the data and the code when the
model is under another licence. A finding under ``any_use`` means the licence grants nothing."""


@dataclass(frozen=True)
class LicenseRule:
    """One licence as the evaluator reads it: a row of the rule table."""

    id: str
    """SPDX identifier (``LicenseRef-…`` for the model licences without one)."""
    kind: Kind
    """The family it belongs to."""
    terms: Text
    """The rule in a sentence or two, with the clause it comes from."""
    findings: Mapping[str, str] = field(default_factory=dict, hash=False)
    """What it says in particular situations (keys of :data:`SITUATIONS`): the key of the
    :data:`REASONS` row it raises there. Prohibitions (NC on commercial use), carve-outs
    (share-alike does not reach the other parts of a collection) and questions (Llama 3
    material beside another model) are all rows here, not code."""
    adaptations_shareable: bool = True
    """Whether an adaptation may be shared (``False`` for ND)."""
    adapter_licenses: tuple[str, ...] | None = None
    """Licences a shared adaptation containing this part may carry; ``None``: any licence
    that keeps notices (:attr:`keeps_notices`), or any at all if this one asks for none."""
    share_alike: bool = False
    """Whether it insists on :attr:`adapter_licenses` and forbids added restrictions (SA, GPL),
    which makes a clash with another part a definite "not allowed" rather than a question."""
    keeps_notices: bool = True
    """Whether a work under it keeps the notices of what it contains (``False`` for CC0, which
    waives them: an adaptation of material with notices cannot be put under CC0)."""
    own_material_only: bool = False
    """Whether it may be put only on works that contain its own material (the model licences:
    an adaptation of other works cannot take the Llama licence)."""
    on_use: tuple[str, ...] = ()
    """Conditions of any use, shared or not."""
    on_share: tuple[str, ...] = ()
    """Conditions whenever the part is shared, as it is or adapted."""
    on_adapt: tuple[str, ...] = ()
    """Conditions of adapting it, shared or not."""
    on_share_adapted: tuple[str, ...] = ()
    """Further conditions when an adaptation of it is shared."""

    @property
    def grants(self) -> bool:
        """Whether it grants any permission at all (``False`` for unknown and no licence)."""
        return "any_use" not in self.findings

    @property
    def commercial(self) -> bool:
        """Whether commercial use is allowed."""
        return self.grants and "commercial_use" not in self.findings

    @property
    def all_conditions(self) -> tuple[str, ...]:
        """Every condition it can impose, in :data:`CONDITIONS` order."""
        found = set(self.on_use + self.on_share + self.on_adapt + self.on_share_adapted)
        return tuple(code for code in CONDITIONS if code in found)

    def conditions(self, *, share: bool, adapt: bool) -> tuple[str, ...]:
        """The conditions it imposes on a use that is shared or not, adapted or not."""
        shared = self.on_share + (self.on_share_adapted if adapt else ()) if share else ()
        return self.on_use + (self.on_adapt if adapt else ()) + shared

    def accepts(self, outbound: LicenseRule, present: Iterable[str]) -> bool:
        """Whether an adaptation containing a part under this licence may carry ``outbound``.

        ``present`` holds every licence in the project, for :attr:`own_material_only`.
        """
        if outbound.own_material_only and outbound.id not in present:
            return False
        if self.adapter_licenses is None:
            return outbound.keeps_notices or not self.on_share
        return outbound.id in self.adapter_licenses


CREDIT = ("attribution", "keep_notices")
NC_ADAPTERS = ("CC-BY-NC-4.0", "CC-BY-NC-SA-4.0", "CC-BY-NC-ND-4.0")
NON_COMMERCIAL = {"commercial_use": "nc_commercial"}
"""NC: commercial use is not allowed, shared or not."""
COPYLEFT_LIMITS = {
    "shared_collection": "aggregate_keeps_licenses",
    "kept_adaptation": "private_adaptation",
}
"""Share-alike reaches neither the other parts of a collection nor an adaptation kept private."""
NO_DERIVATIVES_LIMITS = {
    "shared_collection": "nd_unmodified",
    "kept_adaptation": "private_adaptation",
}
"""ND still lets the unmodified work be shared in a collection, and an adaptation be kept."""

RULES: tuple[LicenseRule, ...] = (
    LicenseRule(
        "CC0-1.0",
        "public_domain",
        {
            "ko": "가능한 범위에서 모든 권리를 포기한다. 조건이 없다 (CC0 1.0 §2).",
            "en": "Waives every right the law lets it waive; no conditions (CC0 1.0 §2).",
        },
        keeps_notices=False,
    ),
    LicenseRule(
        "CC-BY-4.0",
        "creative_commons",
        {
            "ko": "공유할 때 저작자표시·고지·변경 표시(§3(a)). 변경물의 라이선스는 자유지만 "
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
        findings=COPYLEFT_LIMITS,
        adapter_licenses=("CC-BY-SA-4.0", "GPL-3.0-only"),
        share_alike=True,
        on_share=CREDIT,
        on_share_adapted=("indicate_changes", "share_alike"),
    ),
    LicenseRule(
        "CC-BY-NC-4.0",
        "creative_commons",
        {
            "ko": "모든 이용이 비영리 목적에 한정된다(§2(a)(1)). 공유하는 변경물은 NC "
            "라이선스로(라이선스 본문이 아니라 CC FAQ의 안내).",
            "en": "Every use is limited to non-commercial purposes (§2(a)(1)); a shared "
            "adaptation keeps an NC licence (CC's FAQ guidance, not licence text).",
        },
        findings=NON_COMMERCIAL,
        adapter_licenses=NC_ADAPTERS,
        on_use=("non_commercial",),
        on_share=CREDIT,
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "CC-BY-NC-SA-4.0",
        "creative_commons",
        {
            "ko": "비영리 한정이며, 공유하는 변경물은 BY-NC-SA로만(§3(b)).",
            "en": "Non-commercial only; a shared adaptation carries BY-NC-SA and nothing else "
            "(§3(b)).",
        },
        findings={**NON_COMMERCIAL, **COPYLEFT_LIMITS},
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
        findings=NO_DERIVATIVES_LIMITS,
        adaptations_shareable=False,
        adapter_licenses=(),
        on_share=CREDIT,
        on_adapt=("no_shared_adaptations",),
    ),
    LicenseRule(
        "CC-BY-NC-ND-4.0",
        "creative_commons",
        {
            "ko": "비영리 한정이며, 변경물은 공유할 수 없다. "
            "원본 그대로는 비영리 목적으로 공유할 수 있다.",
            "en": "Non-commercial only; adaptations may not be shared, the unmodified work may "
            "be, non-commercially.",
        },
        findings={**NON_COMMERCIAL, **NO_DERIVATIVES_LIMITS},
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
            "적는다(§4). 수정 부분과 파생물 전체에는 다른 조건(NC·ND 포함)을 붙일 수 있지만, "
            "받는 사람은 원래 부분에 대해 Apache-2.0의 권리를 그대로 가진다(§4).",
            "en": "Keep the licence, NOTICE file and notices; mark modified files (§4). Your "
            "modifications and the derivative work as a whole may carry other terms (NC and "
            "ND included), but recipients keep their Apache-2.0 rights in the original "
            "parts (§4).",
        },
        findings={"shared_adaptation": "apache_own_terms"},
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
        findings=COPYLEFT_LIMITS,
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
        own_material_only=True,
        on_use=("use_restrictions",),
        on_share=("keep_notices",),
        on_share_adapted=("indicate_changes",),
    ),
    LicenseRule(
        "LicenseRef-Llama-3-Community",
        "model",
        {
            "ko": "라이선스 사본과 'Built with Meta Llama 3' 표시, 파생 모델 이름의 'Llama 3' "
            "접두사, 허용 이용 정책, 7억 MAU 조건(§2: 출시일 직전 달 7억 명 초과면 Meta에 "
            "라이선스 요청). 출력으로 다른 LLM을 개선하는 것은 금지(§1(b)(v)).",
            "en": "Copy of the agreement and 'Built with Meta Llama 3'; derived models named "
            "'Llama 3…'; the acceptable use policy; the 700M MAU term (§2: above 700 million in "
            "the month before the release date, request a licence from Meta). Its outputs may "
            "not improve other LLMs (§1(b)(v)).",
        },
        findings={"adapted_beside_another_model": "llama_other_llm"},
        adapter_licenses=("LicenseRef-Llama-3-Community",),
        own_material_only=True,
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
        findings={"any_use": "unknown_license"},
        adaptations_shareable=False,
        adapter_licenses=(),
    ),
    LicenseRule(
        "NONE",
        "none",
        {
            "ko": "라이선스가 없다. 보호받는 저작물이라면 기본값은 '모든 권리 보유'다. "
            "법령·판결처럼 보호받지 않는 저작물(저작권법 제7조)인지는 따로 확인한다.",
            "en": "No licence. For a protected work the default is 'all rights reserved'; "
            "whether it is unprotected, like statutes and court decisions (Korean Copyright "
            "Act Art. 7), is checked separately.",
        },
        findings={"any_use": "no_license"},
        adaptations_shareable=False,
        adapter_licenses=(),
    ),
)
"""The rule table, in the order the page lists it."""

RULE_BY_ID: dict[str, LicenseRule] = {rule.id: rule for rule in RULES}
LICENSES: tuple[str, ...] = tuple(rule.id for rule in RULES)
"""Every accepted identifier, in the rule table's order."""
ADAPTATION_CANDIDATES: tuple[LicenseRule, ...] = tuple(rule for rule in RULES if rule.grants)
"""Licences an adaptation can be given (unknown and no licence are not licences)."""


def rule(license_id: str) -> LicenseRule:
    """The rule table's row for ``license_id``; ``ValueError`` naming the accepted ones."""
    try:
        return RULE_BY_ID[license_id]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown licence {license_id!r}; use one of: {', '.join(LICENSES)}"
        ) from None


REASONS: dict[str, ReasonRule] = {
    "unknown_license": ReasonRule(
        "needs_permission",
        {
            "ko": "{part}의 라이선스를 알 수 없다(NOASSERTION). 알 수 없다는 것은 허락이 아니다: "
            "라이선스를 찾거나 권리자에게 허락을 받는다. 법령·판결처럼 보호받지 않는 "
            "저작물(저작권법 제7조)이라는 것이 확인되면 허락이 필요 없다.",
            "en": "The {part}'s licence is unknown (NOASSERTION). Unknown is not permission: "
            "find the licence or ask the rights holder. If the text proves to be unprotected, "
            "like statutes and court decisions (Korean Copyright Act Art. 7), no permission "
            "is needed.",
        },
    ),
    "no_license": ReasonRule(
        "needs_permission",
        {
            "ko": "{part}에는 라이선스가 없다(NONE). 보호받는 저작물이라면 기본값은 '모든 권리 "
            "보유'이므로 권리자의 허락이 필요하다. 법령·판결처럼 애초에 보호받지 않는 저작물도 "
            "있지만(저작권법 제7조), 그렇다는 것을 확인하기 전까지는 허락된 것으로 보지 않는다.",
            "en": "The {part} has no licence (NONE). For a protected work the default is 'all "
            "rights reserved': the rights holder's permission is needed. Some texts are not "
            "protected at all, such as statutes and court decisions (Korean Copyright Act Art. "
            "7), but until that is established, nothing is taken as permitted.",
        },
    ),
    "nc_commercial": ReasonRule(
        "not_allowed",
        {
            "ko": "{parts}(은)는 비영리 목적의 이용만 허용한다. 공유하든 하지 않든, 상업적 이용은 "
            "허용되지 않는다.",
            "en": "{parts} allows non-commercial use only; commercial use is not allowed, "
            "shared or not.",
        },
    ),
    "aggregate_keeps_licenses": ReasonRule(
        "allowed",
        {
            "ko": "{parts}: 단순 묶음에서는 각 부분이 자기 라이선스를 유지하며, "
            "동일조건변경허락(copyleft)은 다른 부분으로 번지지 않는다.",
            "en": "{parts}: in a collection each part keeps its own licence; share-alike "
            "(copyleft) does not spread to the others.",
        },
    ),
    "nd_unmodified": ReasonRule(
        "allowed",
        {
            "ko": "{parts}: ND여도 바꾸지 않은 원본은 묶음 안에서 공유할 수 있다.",
            "en": "{parts}: even under ND the unmodified work may be shared inside a collection.",
        },
    ),
    "llama_other_llm": ReasonRule(
        "needs_review",
        {
            "ko": "{parts}: Llama 3 라이선스 §1(b)(v)는 Llama 자료나 그 출력으로 Llama 3 계열이 "
            "아닌 대규모 언어 모델을 개선하는 것을 금지한다. 모델이 LLM이라면 허용되지 않는다.",
            "en": "{parts}: §1(b)(v) of the Llama 3 licence forbids using Llama materials or "
            "their outputs to improve any large language model other than Llama 3 and its "
            "derivatives; if the model is an LLM, this is not allowed.",
        },
        also_about=("model",),
    ),
    "no_derivatives": ReasonRule(
        "not_allowed",
        {
            "ko": "{parts}: ND 라이선스는 변경물을 만드는 것은 허용하지만 공유는 허용하지 않는다.",
            "en": "{parts}: an ND licence allows making an adaptation but not sharing it.",
        },
    ),
    # {sa}: the share-alike part; {adapters}: the licences it allows; {other}: the other part.
    "share_alike_unsettled": ReasonRule(
        "needs_review",
        {
            "ko": "{sa}(은)는 공유하는 변경물에 {adapters}만 허용하고 제한을 더할 수 없게 하는데, "
            "{other}의 조건은 그 라이선스로 옮길 수 없다. 가중치가 데이터의 변경물이라면 어느 "
            "라이선스로도 두 조건을 함께 지킬 수 없어 가중치를 공유할 수 없다. 변경물인지가 "
            "정해져 있지 않으므로 검토가 필요하다.",
            "en": "{sa} lets a shared adaptation carry only {adapters}, with no added "
            "restrictions, and the terms of {other} cannot go under it. If the weights are an "
            "adaptation of the data, no licence satisfies both and the weights cannot be "
            "shared; as that is not settled, this needs review.",
        },
    ),
    # {weights}, {code}: the licences the shared weights and the shared code may carry.
    "separate_works": ReasonRule(
        "allowed",
        {
            "ko": "미세조정한 가중치와 수정한 코드는 서로 다른 저작물이라 각자의 라이선스로 "
            "판단한다. 가중치는 {weights}, 코드는 {code}(으)로 공유할 수 있다. 코드를 실행해 만든 "
            "가중치에 코드의 라이선스가 옮겨 붙지는 않는다.",
            "en": "The fine-tuned weights and the modified code are different works, each "
            "judged under its own licence: the weights may be shared under {weights}, the code "
            "under {code}. Running the code does not put its licence on the weights it "
            "produces.",
        },
    ),
    "no_common_license": ReasonRule(
        "needs_review",
        {
            "ko": "{parts}: 이 표의 어떤 라이선스도 모두의 조건을 함께 담지 못한다. 양쪽 조건을 "
            "모두 넣은 별도 라이선스가 가능한지 검토가 필요하다.",
            "en": "{parts}: no licence in this table carries all of their terms at once; "
            "whether a licence of your own could carry both needs review.",
        },
    ),
    # {if_adapted}, {if_not}: how sharing comes out in either reading (see OUTCOMES).
    "data_to_weights": ReasonRule(
        "needs_review",
        {
            "ko": "{parts}: 학습된 가중치가 데이터의 변경물인지는 정해져 있지 않다. 변경물로 "
            "본다면 {if_adapted}. 변경물이 아니라면 {if_not}. 데이터 자체를 고쳐 공유한다면 "
            "데이터의 변경물 규칙이 그대로 적용된다.",
            "en": "{parts}: whether trained weights are an adaptation of their training data is "
            "not settled. If they are, {if_adapted}; if not, {if_not}. Sharing the data "
            "itself, modified, is an adaptation and its rules apply in full.",
        },
    ),
    "private_adaptation": ReasonRule(
        "allowed",
        {
            "ko": "{parts}: 공유하지 않는 변경물에는 동일조건변경허락이나 변경금지가 걸리지 "
            "않는다. 나중에 공유하면 다시 확인한다.",
            "en": "{parts}: share-alike and the ban on sharing adaptations bite only when the "
            "adaptation is shared; check again before sharing it.",
        },
    ),
    "data_conditions_precaution": ReasonRule(
        "allowed",
        {
            "ko": "{parts}: 데이터 라이선스의 조건이 학습된 가중치나 생성물에도 적용되는지는 "
            "정해져 있지 않다. 여기서는 조심하는 쪽으로 데이터의 조건을 함께 적고, 가중치에는 "
            "어느 쪽으로 보든 맞는 라이선스만 제시했다.",
            "en": "{parts}: whether the data licence's conditions reach trained weights or "
            "generated outputs is not settled; they are listed here as a precaution, and the "
            "weights are offered only licences that fit either way.",
        },
    ),
    "apache_own_terms": ReasonRule(
        "allowed",
        {
            "ko": "{parts}: Apache-2.0 §4에 따라 수정 부분과 변경물 전체에는 다른 조건(NC·ND "
            "포함)을 붙일 수 있다. 다만 받는 사람은 원래 부분에 대해 Apache-2.0의 권리를 그대로 "
            "가지므로, 그 조건은 수정한 부분에만 미친다.",
            "en": "{parts}: Apache-2.0 §4 lets you put other terms (NC or ND among them) on your "
            "modifications and on the adaptation as a whole, but recipients keep their "
            "Apache-2.0 rights in the original parts, so those terms reach only what you "
            "changed.",
        },
    ),
    "weights_premise": ReasonRule(
        "allowed",
        {
            "ko": "전제: 이 판정은 미세조정한 가중치를 모델의 변경물로 본다. 가중치가 보호받고"
            "(저작권법 제2조 제1호의 창작적 표현이거나 제93조의 데이터베이스로서) 미세조정이 "
            "CC 4.0 §1(a)가 말하는 허락이 필요한 변경이라고 가정한 것이다. 둘 다 정해지지 "
            "않았다. 가중치가 보호받지 않는다면 모델 라이선스의 조건(ND 등)은 계약으로만 "
            "구속할 수 있는데, 그것도 정해지지 않았다. 판정은 조심하는 쪽을 따른다.",
            "en": "Premise: this verdict treats the fine-tuned weights as an adaptation of the "
            "model, assuming the weights are protected (as creative expression, Korean "
            "Copyright Act Art. 2 item 1, or as a database, Art. 93) and that fine-tuning is "
            "an adaptation requiring permission in the sense of CC 4.0 §1(a). Neither is "
            "settled; if the weights are not protected, the model licence's terms (ND, say) "
            "could bind only as a contract, which is unsettled too. The verdict takes the "
            "cautious side.",
        },
    ),
    "no_conflict": ReasonRule(
        "allowed",
        {
            "ko": "선택한 라이선스들은 이 이용을 허용하며 서로 충돌하지 않는다. 아래 조건을 "
            "지켜야 한다.",
            "en": "The chosen licences permit this use and do not conflict; the conditions "
            "listed apply.",
        },
    ),
}
"""Every finding the checker can report, by key, with its status and text."""

OUTCOMES: dict[str, Text] = {
    "allowed_many": {
        "ko": "가중치를 표의 라이선스 {count}개 중 하나로 공유할 수 있다",
        "en": "the weights may be shared (under any of {count} licences in the table)",
    },
    "allowed_several": {
        "ko": "가중치를 {licenses} 중 하나로 공유할 수 있다",
        "en": "the weights may be shared under {licenses}",
    },
    "allowed_one": {
        "ko": "가중치를 {licenses}(으)로 공유할 수 있다",
        "en": "the weights may be shared under {licenses}",
    },
    "not_allowed": {"ko": "가중치를 공유할 수 없다", "en": "the weights may not be shared"},
    "needs_review": {"ko": "가중치 공유는 검토가 필요하다", "en": "sharing them needs review"},
}
"""How sharing the weights comes out, for the two readings of ``data_to_weights``; also the
licence lists of ``separate_works``."""
OR: Text = {"ko": " 또는 ", "en": " or "}
LIST: Text = {"ko": ", ", "en": " or "}
"""How licence names are joined: alternatives in a reason, a list of candidates in an outcome."""
MANY = 3
"""An outcome with more candidates than this gives their number rather than their names."""


# --- Wording: the texts of the findings, filled in --------------------------------------------

PARTICLE = re.compile(
    r"(?P<word>[^\s(]+)(?P<note> \([^)]*\))?\((?P<closed>은|이|과|을|으)\)(?P<open>는|가|와|를|로)"
)
"""A Korean particle written both ways, ``(은)는``: the form follows the word before it (a
part's licence in parentheses after the word does not count)."""
LETTER_CODAS = {"l": "ㄹ", "r": "ㄹ", "m": "ㅁ", "n": "ㄴ"}
"""Latin letters whose Korean names end in a consonant (엘, 알, 엠, 엔), by that consonant."""
DIGIT_CODAS = {"0": "ㅇ", "1": "ㄹ", "3": "ㅁ", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ"}
"""Digits whose Korean readings end in a consonant (영, 일, 삼, 육, 칠, 팔)."""


def _coda(word: str) -> str:
    """The final consonant of ``word`` as read in Korean, or ``""`` when it ends in a vowel."""
    last = word.rstrip(".)")[-1:].lower()
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
        return "" if final == 0 else "ㄹ" if final == 8 else "ㅇ"  # any other consonant
    return DIGIT_CODAS.get(last, LETTER_CODAS.get(last, ""))


def attach_particles(text: str) -> str:
    """Choose each ``(은)는``-style particle by the word it follows.

    >>> attach_particles("모델 (MIT)(은)는, 데이터(은)는, CC-BY-4.0(으)로, GPL-3.0-only(으)로")
    '모델 (MIT)은, 데이터는, CC-BY-4.0으로, GPL-3.0-only로'
    """

    def choose(match: re.Match[str]) -> str:
        coda = _coda(match.group("word"))
        closed = bool(coda) and not (match.group("closed") == "으" and coda == "ㄹ")
        particle = {"으": "으로"}.get(match.group("closed"), match.group("closed"))
        chosen = particle if closed else match.group("open")
        return match.group("word") + (match.group("note") or "") + chosen

    return PARTICLE.sub(choose, text)


def named_parts(parts: Iterable[str], licenses: Mapping[str, str]) -> dict[str, str]:
    """``모델 (GPL-3.0-only)`` in every language: parts and their licences, as reasons say.

    >>> named_parts(["model"], {"model": "MIT"})["en"]
    'model (MIT)'
    """
    return {
        lang: ", ".join(f"{PART_NAMES[p][lang]} ({licenses[p]})" for p in parts)
        for lang in LANGUAGES
    }


def _reason(
    key: str, about: tuple[str, ...], licenses: Mapping[str, str], **fields: Text
) -> Reason:
    """The :data:`REASONS` row ``key`` about the parts ``about``, its placeholders filled in."""
    row = REASONS[key]
    values = {"parts": named_parts(about, licenses), "part": PART_NAMES[about[0]], **fields}
    text = {
        lang: attach_particles(row.text[lang].format_map({k: v[lang] for k, v in values.items()}))
        for lang in LANGUAGES
    }
    return Reason(row.status, key, about + row.also_about, text)


def _conflict(
    pair: tuple[str, ...], rules: Mapping[str, LicenseRule], licenses: Mapping[str, str]
) -> Reason:
    """Why the share-alike part of ``pair`` cannot take the other part's terms (a clash that
    arises only if the weights are an adaptation of the data, so it asks for review)."""
    sa, other = sorted(pair, key=lambda p: not rules[p].share_alike)
    adapters = {lang: OR[lang].join(rules[sa].adapter_licenses or ()) for lang in LANGUAGES}
    sides = {"sa": named_parts([sa], licenses), "other": named_parts([other], licenses)}
    return _reason("share_alike_unsettled", pair, licenses, adapters=adapters, **sides)


def _licence_list(candidates: tuple[str, ...]) -> dict[str, str]:
    """Licences a shared work may carry, named, or counted when there are many."""
    if len(candidates) > MANY:
        many = {
            "ko": "표의 라이선스 {count}개 중 하나",
            "en": "any of {count} licences in the table",
        }
        return {lang: many[lang].format(count=len(candidates)) for lang in LANGUAGES}
    return {lang: LIST[lang].join(candidates) for lang in LANGUAGES}


def _outcome(sharing: _Sharing) -> dict[str, str]:
    """How sharing an adaptation comes out, in :data:`OUTCOMES` words, in every language."""
    key, candidates = str(sharing.status), sharing.candidates
    count = len(candidates)
    if key == "allowed":
        key += "_many" if count > MANY else "_several" if count > 1 else "_one"
    return {
        lang: attach_particles(
            OUTCOMES[key][lang].format(count=count, licenses=LIST[lang].join(candidates))
        )
        for lang in LANGUAGES
    }


# --- The evaluator: the same steps for every row ------------------------------------------


@dataclass(frozen=True)
class _Sharing:
    """How sharing one adaptation of some parts comes out (equal when status and licences are)."""

    status: Status
    candidates: tuple[str, ...] = ()
    reasons: list[Reason] = field(default_factory=list, compare=False)


def _share(
    parts: tuple[str, ...], rules: Mapping[str, LicenseRule], licenses: Mapping[str, str]
) -> _Sharing:
    """Sharing one adaptation of ``parts``: ND first, then the licences every part accepts."""
    present = [licenses[p] for p in parts if rules[p].grants]  # own material of this work
    if closed := [p for p in parts if not rules[p].adaptations_shareable]:
        return _Sharing(
            "not_allowed", reasons=[_reason("no_derivatives", (p,), licenses) for p in closed]
        )
    offered = [c for c in ADAPTATION_CANDIDATES if c.id in present or not c.own_material_only]

    def fitting(*group: str) -> tuple[str, ...]:
        return tuple(c.id for c in offered if all(rules[p].accepts(c, present) for p in group))

    if candidates := fitting(*parts):
        return _Sharing("allowed", candidates)
    clashes: list[tuple[str, ...]] = [
        pair for pair in itertools.combinations(parts, 2) if not fitting(*pair)
    ]
    sa_clashes = [pair for pair in clashes if any(rules[p].share_alike for p in pair)]
    if sa_clashes:
        return _Sharing("not_allowed", reasons=[_conflict(p, rules, licenses) for p in sa_clashes])
    reasons = [_reason("no_common_license", pair, licenses) for pair in clashes or [parts]]
    return _Sharing("needs_review", reasons=reasons)


def evaluate(
    data: str, model: str, code: str, *, commercial: bool, share: bool, combination: Combination
) -> Verdict:
    """Whether a project combining ``data``, ``model`` and ``code`` may be used as described.

    ``commercial`` and ``share`` say whether the use is commercial and whether the result
    goes to anyone else; ``combination`` is ``"aggregate"`` or ``"adapt"``. Raises
    ``ValueError`` for an identifier or combination it does not know. Not legal advice.
    """
    licenses = {"data": data, "model": model, "code": code}
    rules = {part: rule(license_id) for part, license_id in licenses.items()}
    if combination not in COMBINATIONS:
        raise ValueError(
            f"unknown combination {combination!r}; use one of: {', '.join(COMBINATIONS)}"
        )
    adapt = combination == "adapt"
    use = {"commercial": commercial, "share": share, "adapt": adapt}
    reasons = [
        _reason(rules[part].findings[situation], (part,), licenses)
        for situation, when in SITUATIONS.items()
        for part in PARTS
        if situation in rules[part].findings
        and when.items() <= {**use, "other_model": licenses[part] != model}.items()
    ]
    licensed = tuple(p for p in PARTS if rules[p].grants)
    direct, data_in = tuple(p for p in licensed if p != TRAINING_DATA), TRAINING_DATA in licensed
    # Nothing is shared unless an adaptation is. The code and the weights are separate works;
    # for the weights, weigh both readings: are trained weights an adaptation of the data?
    adapted = not_adapted = modified_code = _Sharing("allowed")
    weights = tuple(p for p in direct if p != "code")
    if adapt and share:
        modified_code = _share(("code",), rules, licenses) if "code" in direct else modified_code
        adapted = _share(weights + ((TRAINING_DATA,) if data_in else ()), rules, licenses)
        not_adapted = _share(weights, rules, licenses)
        reasons += modified_code.reasons + not_adapted.reasons
    # Readings that differ only in which licences fit, with some fitting under both, leave
    # the answer the same: the licences that fit either way, with the data's terms as a
    # precaution.
    either_way = tuple(c for c in adapted.candidates if c in not_adapted.candidates)
    settled = adapted == not_adapted or (
        adapted.status == not_adapted.status == "allowed" and bool(either_way)
    )
    weights_fit = not_adapted.candidates if adapted == not_adapted else either_way
    if not settled:
        readings = {"if_adapted": _outcome(adapted), "if_not": _outcome(not_adapted)}
        reasons += [r for r in adapted.reasons if r.status == "needs_review"]
        reasons.append(_reason("data_to_weights", (TRAINING_DATA,), licenses, **readings))
    elif modified_code.candidates and weights_fit and len(licensed) == len(PARTS):
        lists = {"weights": _licence_list(weights_fit)}
        reasons.append(
            _reason(
                "separate_works",
                ("model", "code"),
                licenses,
                **lists,
                code=_licence_list(modified_code.candidates),
            )
        )
    on_data = rules[TRAINING_DATA]
    data_terms = on_data.on_adapt + (on_data.on_share + on_data.on_share_adapted if share else ())
    if adapt and data_in and data_terms and settled:
        reasons.append(_reason("data_conditions_precaution", (TRAINING_DATA,), licenses))
    if adapt and rules["model"].grants:
        reasons.append(_reason("weights_premise", ("model",), licenses))
    found = {reason.status for reason in reasons} | {"allowed"}
    status = next(s for s in STATUS_PRIORITY if s in found)
    reasons.sort(key=lambda reason: STATUS_PRIORITY.index(reason.status))
    if status == "allowed":
        reasons.insert(0, _reason("no_conflict", licensed, licenses))
    fits = weights_fit if settled else adapted.candidates or not_adapted.candidates
    complete = status != "not_allowed" and len(licensed) == len(PARTS)
    terms = {p: rules[p].conditions(share=share, adapt=adapt) for p in licensed}
    conditions = [(c, tuple(p for p in licensed if c in terms[p])) for c in CONDITIONS]
    return Verdict(
        status=status,
        conditions=tuple(Condition(c, parts) for c, parts in conditions if parts),
        reasons=tuple(reasons),
        adaptation_licenses=fits if complete else (),
        code_licenses=modified_code.candidates if complete else (),
    )
