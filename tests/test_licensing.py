"""The licence checker against the licences' own rules, and against its golden file.

The expected answers here are written from the licence texts and CC's compatibility
guidance, not read from :data:`compute.licensing.RULES`, so a wrong row in the
rule table fails a test instead of moving the expectation with it.
"""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import license_golden
import pytest

from privacy_explorer import korean
from privacy_explorer.compute import licensing as lic
from privacy_explorer.compute.licensing import LICENSES

REPO = Path(__file__).resolve().parent.parent

LICENCE_VERDICTS = pytest.mark.xdist_group("licence-verdicts")
"""The tests that read evaluate() at every grid point (:func:`license_golden.verdicts`, computed
once a process) run on one pytest-xdist worker, which evaluates the grid once for all of them."""

CC0, BY, SA, NC, NCSA, ND, NCND = (
    "CC0-1.0",
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "CC-BY-NC-4.0",
    "CC-BY-NC-SA-4.0",
    "CC-BY-ND-4.0",
    "CC-BY-NC-ND-4.0",
)
CC = (CC0, BY, SA, NC, NCSA, ND, NCND)
MIT, APACHE, GPL = "MIT", "Apache-2.0", "GPL-3.0-only"
RAIL, LLAMA = "LicenseRef-OpenRAIL-M", "LicenseRef-Llama-3-Community"
UNKNOWN, NO_LICENSE = "NOASSERTION", "NONE"
THREE_PARTS = ("data", "model", "code")
"""The parts every project has (a second data source is optional)."""
NC_FAMILY = {NC, NCSA, NCND}
SA_FAMILY = {SA, NCSA}
ND_FAMILY = {ND, NCND}

# CC's table of the licences an adapter may apply to an adaptation, restricted to CC 4.0.
ADAPTER_CHOICES = {
    CC0: {CC0, BY, SA, NC, NCSA, ND, NCND},
    BY: {BY, SA, NC, NCSA, ND, NCND},
    SA: {SA},
    NC: {NC, NCSA, NCND},
    NCSA: {NCSA},
    ND: set(),
    NCND: set(),
}


def verdict(
    data=CC0,
    model=CC0,
    code=CC0,
    *,
    commercial=False,
    share=True,
    combination="adapt",
    over_700m_users=False,
):
    return lic.evaluate(
        data,
        model,
        code,
        commercial=commercial,
        share=share,
        combination=combination,
        over_700m_users=over_700m_users,
    )


def rules_of(v: lic.Verdict) -> set[str]:
    return {reason.rule for reason in v.reasons}


def every_use() -> Iterator[dict[str, Any]]:
    """Every combination of three licences, commercial use, sharing and combination."""
    for data, model, code, commercial, share, combination in itertools.product(
        LICENSES, LICENSES, LICENSES, (False, True), (False, True), lic.COMBINATIONS
    ):
        yield {
            "data": data,
            "model": model,
            "code": code,
            "commercial": commercial,
            "share": share,
            "combination": combination,
        }


# --- 1. Model and code: two works, each under its own licence -------------------------------


def expected_work_status(license_id: str, commercial: bool) -> str:
    """One adapted work shared on its own: NC bars commercial use, ND bars sharing."""
    if commercial and license_id in NC_FAMILY:
        return "not_allowed"
    return "not_allowed" if license_id in ND_FAMILY else "allowed"


@pytest.mark.parametrize("commercial", [False, True], ids=["noncommercial", "commercial"])
@pytest.mark.parametrize(("a", "b"), list(itertools.product(CC, CC)))
def test_every_pair_of_cc_licences_on_model_and_code(a: str, b: str, commercial: bool):
    # Fine-tuned weights and modified code are separate works: neither licence reaches the
    # other, so the pair is as good as its worse half. CC0 data keeps the data question out.
    v = verdict(CC0, a, b, commercial=commercial, share=True, combination="adapt")
    statuses = {expected_work_status(a, commercial), expected_work_status(b, commercial)}
    expected = "not_allowed" if "not_allowed" in statuses else "allowed"
    assert v.status == expected, [r.text["en"] for r in v.reasons]
    if v.status == "allowed":
        assert set(v.adaptation_licenses) & set(CC) == ADAPTER_CHOICES[a]
        assert set(v.code_licenses) & set(CC) == ADAPTER_CHOICES[b]
        assert "separate_works" in rules_of(v)
    else:
        assert v.adaptation_licenses == () and v.code_licenses == ()


@pytest.mark.parametrize(("model", "code"), [(APACHE, GPL), (SA, NC), (RAIL, GPL), (GPL, SA)])
def test_a_model_and_its_code_are_judged_each_under_its_own_licence(model: str, code: str):
    # The cases: an Apache-2.0 model with GPL code is not GPL; BY-SA weights with
    # BY-NC code are allowed for non-commercial use, each shared under its own terms.
    v = verdict(CC0, model, code, commercial=False, share=True, combination="adapt")
    assert v.status == "allowed", [r.text["en"] for r in v.reasons]
    assert model in v.adaptation_licenses and code in v.code_licenses
    (note,) = [r for r in v.reasons if r.rule == "separate_works"]
    assert note.parts == ("model", "code") and code in note.text["en"] and code in note.text["ko"]
    if code == GPL and model != GPL:
        assert GPL not in v.adaptation_licenses or model == APACHE  # Apache lets GPL be chosen
        assert dict((c.code, c.parts) for c in v.conditions)["provide_source"] == ("code",)


@pytest.mark.parametrize(("data", "model"), [(SA, NC), (ND, SA), (SA, RAIL), (NC, SA)])
def test_share_alike_meeting_nc_nd_or_model_terms_through_the_data_needs_review(data, model):
    # Whether weights are an adaptation of their data is unsettled: a clash there is a
    # question with its reason, not a verdict either way.
    v = verdict(data, model, MIT, commercial=False, share=True, combination="adapt")
    assert v.status == "needs_review", [r.text["en"] for r in v.reasons]
    assert "data_to_weights" in rules_of(v)
    assert verdict(data, model, MIT, share=True, combination="aggregate").status == "allowed"
    if data not in ND_FAMILY:  # ND data: no shared adaptation
        (clash,) = [r for r in v.reasons if r.rule == "share_alike_unsettled"]
        assert set(clash.parts) == {"data", "model"}
        assert data in clash.text["en"] and model in clash.text["ko"]
        assert "not settled" in clash.text["en"] and "정해져 있지 않으므로" in clash.text["ko"]


@pytest.mark.parametrize(("a", "b"), list(itertools.product(CC, CC)))
def test_an_adaptation_kept_in_house_is_allowed_for_every_cc_pair(a: str, b: str):
    v = verdict(CC0, a, b, commercial=False, share=False, combination="adapt")
    assert v.status == "allowed"
    if a in ND_FAMILY or b in ND_FAMILY:
        assert "no_shared_adaptations" in v.condition_codes


# --- 2. ND in a collection versus an adaptation ---------------------------------------------


@pytest.mark.parametrize("nd", sorted(ND_FAMILY))
@pytest.mark.parametrize("part", THREE_PARTS)
def test_nd_may_be_shared_unmodified_in_a_collection(nd: str, part: str):
    parts = {"data": MIT, "model": MIT, "code": MIT, part: nd}
    v = verdict(**parts, combination="aggregate", share=True)
    assert v.status == "allowed"
    assert "nd_unmodified" in rules_of(v)
    assert {"attribution", "keep_notices"} <= set(v.condition_codes)


@pytest.mark.parametrize("nd", sorted(ND_FAMILY))
@pytest.mark.parametrize("part", ["model", "code"])
def test_nd_adaptation_may_be_made_but_not_shared(nd: str, part: str):
    parts = {"data": MIT, "model": MIT, "code": MIT, part: nd}
    shared = verdict(**parts, combination="adapt", share=True)
    assert shared.status == "not_allowed"
    assert "no_derivatives" in rules_of(shared)
    kept = verdict(**parts, combination="adapt", share=False)
    assert kept.status == "allowed"
    assert "no_shared_adaptations" in kept.condition_codes


# --- 3. NC with and without commercial use --------------------------------------------------


@pytest.mark.parametrize("nc", sorted(NC_FAMILY))
@pytest.mark.parametrize("part", THREE_PARTS)
@pytest.mark.parametrize("share", [False, True])
@pytest.mark.parametrize("combination", lic.COMBINATIONS)
def test_nc_forbids_commercial_use_shared_or_not(nc, part, share, combination):
    parts = {"data": MIT, "model": MIT, "code": MIT, part: nc}
    commercial = verdict(**parts, commercial=True, share=share, combination=combination)
    assert commercial.status == "not_allowed"
    assert "nc_commercial" in rules_of(commercial)
    private = verdict(**parts, commercial=False, share=share, combination=combination)
    assert "nc_commercial" not in rules_of(private)
    assert "non_commercial" in private.condition_codes
    if combination == "aggregate" or not share:
        assert private.status == "allowed"


# --- 4. Unknown and unlicensed parts --------------------------------------------------------


@pytest.mark.parametrize("missing", [UNKNOWN, NO_LICENSE])
@pytest.mark.parametrize("part", THREE_PARTS)
@pytest.mark.parametrize("combination", lic.COMBINATIONS)
def test_unknown_or_missing_licence_needs_permission(missing, part, combination):
    parts = {"data": CC0, "model": CC0, "code": CC0, part: missing}
    for share, commercial in itertools.product([False, True], repeat=2):
        v = verdict(**parts, share=share, commercial=commercial, combination=combination)
        assert v.status == "needs_permission"
        assert v.adaptation_licenses == ()
        assert {"unknown_license", "no_license"} & rules_of(v)


def test_a_definite_no_outranks_a_missing_permission():
    v = verdict(NO_LICENSE, NC, MIT, commercial=True, share=False, combination="aggregate")
    assert v.status == "not_allowed"
    assert [r.status for r in v.reasons][:2] == ["not_allowed", "needs_permission"]


@LICENCE_VERDICTS
def test_unknown_is_never_allowed_anywhere_in_the_grid():
    for point in every_use():
        if {point["data"], point["model"], point["code"]} & {UNKNOWN, NO_LICENSE}:
            v = license_golden.verdict_at(point)  # lic.evaluate(**point), computed once a process
            assert v.status in ("needs_permission", "not_allowed"), point


# --- 5. GPL and BY-SA: compatible in one direction only -------------------------------------


def test_by_sa_goes_into_gplv3_but_not_the_other_way():
    # One work under both: BY-SA weights may be GPL-3.0, GPL weights only GPL-3.0.
    assert verdict(CC0, SA, MIT).adaptation_licenses == (SA, GPL)
    assert verdict(CC0, GPL, MIT).adaptation_licenses == (GPL,)
    assert verdict(CC0, MIT, SA).code_licenses == (SA, GPL)
    # BY-SA data into GPL weights: GPL either way, so only a precaution remains.
    v = verdict(SA, GPL, MIT, share=True, combination="adapt")
    assert v.status == "allowed" and v.adaptation_licenses == (GPL,)
    assert "data_conditions_precaution" in rules_of(v)
    # GPL data into BY-SA weights: GPL-3.0 fits whether or not the weights adapt the data.
    v = verdict(GPL, SA, MIT, share=True, combination="adapt")
    assert v.status == "allowed" and v.adaptation_licenses == (GPL,)
    assert "data_conditions_precaution" in rules_of(v)


@pytest.mark.parametrize("data", [NC, NCSA, RAIL, LLAMA])
def test_gpl_takes_no_further_restrictions(data: str):
    # GPL weights trained on data with further restrictions: a clash if the weights adapt it.
    v = verdict(data, GPL, MIT, commercial=False)
    assert v.status == "needs_review"
    assert {"share_alike_unsettled", "data_to_weights"} <= rules_of(v)


def test_gpl_in_an_aggregate_does_not_reach_the_other_parts():
    v = verdict(CC0, NC, GPL, commercial=False, share=True, combination="aggregate")
    assert v.status == "allowed"
    assert "aggregate_keeps_licenses" in rules_of(v)
    conditions = {c.code: c.parts for c in v.conditions}
    assert conditions["provide_source"] == ("code",)
    assert "share_alike" not in conditions


# --- 6. The model licences ------------------------------------------------------------------


@pytest.mark.parametrize("share", [False, True])
@pytest.mark.parametrize("combination", lic.COMBINATIONS)
def test_openrail_use_restrictions_bind_every_use(share, combination):
    v = verdict(CC0, RAIL, MIT, commercial=True, share=share, combination=combination)
    assert v.status == "allowed"
    assert dict((c.code, c.parts) for c in v.conditions)["use_restrictions"] == ("model",)


def test_an_openrail_adaptation_keeps_the_openrail_terms():
    v = verdict(CC0, RAIL, APACHE, commercial=True)
    assert v.adaptation_licenses == (RAIL,)


@pytest.mark.parametrize("sa", [SA, NCSA])
def test_use_restrictions_cannot_go_into_a_share_alike_adaptation(sa: str):
    for model_license in (RAIL, LLAMA):
        v = verdict(sa, model_license, MIT, commercial=False)
        assert v.status == "needs_review", model_license
        assert "share_alike_unsettled" in rules_of(v)
        # Share-alike code beside the model is a separate work and clashes with nothing.
        assert verdict(CC0, model_license, sa, commercial=False).status == "allowed"


def test_llama_terms():
    kept = verdict(CC0, LLAMA, MIT, commercial=True, share=False)
    assert {"use_restrictions", "user_threshold"} <= set(kept.condition_codes)
    assert "llama_naming" not in kept.condition_codes
    shared = verdict(CC0, LLAMA, MIT, commercial=True, share=True)
    assert shared.status == "allowed"
    assert {"use_restrictions", "user_threshold", "llama_naming"} <= set(shared.condition_codes)
    assert shared.adaptation_licenses == (LLAMA,)


def test_llama_outputs_improving_another_model_need_review():
    v = verdict(LLAMA, APACHE, MIT, commercial=False, share=False)
    assert v.status == "needs_review"
    assert "llama_other_llm" in rules_of(v)
    assert verdict(LLAMA, LLAMA, MIT, share=False).status == "allowed"


def test_two_restrictive_model_licences_need_review_not_a_verdict():
    v = verdict(RAIL, LLAMA, MIT, commercial=False)
    assert v.status == "needs_review"
    assert {"no_common_license", "data_to_weights"} <= rules_of(v)


# --- 7. Data and trained weights: never asserted either way ---------------------------------


@pytest.mark.parametrize("data", [ND, NCND])
def test_data_terms_that_would_change_the_answer_ask_for_review(data: str):
    v = verdict(data, MIT, MIT, commercial=False, share=True, combination="adapt")
    assert v.status == "needs_review"
    assert "data_to_weights" in rules_of(v)
    (reason,) = [r for r in v.reasons if r.rule == "data_to_weights"]
    assert "not settled" in reason.text["en"] and "정해져 있지 않다" in reason.text["ko"]


@pytest.mark.parametrize("data", [BY, MIT, APACHE])
def test_data_terms_that_change_only_conditions_are_a_precaution(data: str):
    v = verdict(data, MIT, MIT, commercial=True, share=True, combination="adapt")
    assert v.status == "allowed"
    assert "data_conditions_precaution" in rules_of(v)


@pytest.mark.parametrize("data", [SA, NC, NCSA, GPL])
def test_data_terms_that_narrow_the_licences_but_leave_some_are_a_precaution(data: str):
    # Share-alike or NC data on an MIT model: some licences fit under both readings, and only
    # those are offered, with the data's terms among the conditions.
    v = verdict(data, MIT, MIT, commercial=False, share=True, combination="adapt")
    assert v.status == "allowed"
    assert "data_conditions_precaution" in rules_of(v) and "data_to_weights" not in rules_of(v)
    allowed = ADAPTER_CHOICES.get(data, set()) | ({GPL} if data in (SA, GPL) else set())
    assert v.adaptation_licenses and set(v.adaptation_licenses) <= set(allowed)
    data_terms = {c.code for c in v.conditions if "data" in c.parts}
    assert ("share_alike" in data_terms) == (data in SA_FAMILY | {GPL})


@pytest.mark.parametrize("data", [SA, ND, GPL])
def test_the_data_question_does_not_arise_in_a_collection(data: str):
    v = verdict(data, MIT, MIT, commercial=True, share=True, combination="aggregate")
    assert v.status == "allowed"
    assert "data_to_weights" not in rules_of(v)


# --- 8. Bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["CC-BY", "cc-by-4.0", "GPL-3.0", "", None])
def test_unknown_identifiers_are_refused_naming_the_accepted_ones(bad):
    with pytest.raises(ValueError) as caught:
        lic.evaluate(CC0, bad, MIT, commercial=False, share=False, combination="adapt")
    message = str(caught.value)
    assert message.startswith(f"unknown licence {bad!r}; use one of: ")
    assert all(license_id in message for license_id in LICENSES)


def test_an_unknown_combination_is_refused():
    with pytest.raises(
        ValueError, match="unknown combination 'merge'; use one of: aggregate, adapt"
    ):
        lic.evaluate(
            CC0,
            CC0,
            CC0,
            commercial=False,
            share=False,
            combination="merge",  # type: ignore[arg-type]
        )


# --- 9. Verdicts are well formed over the whole grid ----------------------------------------


@LICENCE_VERDICTS
def test_every_verdict_in_the_grid_is_well_formed():
    order = list(lic.CONDITIONS)
    for point in every_use():
        v = license_golden.verdict_at(point)  # lic.evaluate(**point), computed once a process
        assert v.status in lic.STATUSES
        assert v.reasons, point
        assert v.reasons[0].status in (v.status, "allowed"), point
        codes = list(v.condition_codes)
        assert codes == sorted(codes, key=order.index), point
        if v.adaptation_licenses:
            assert point["share"] and point["combination"] == "adapt", point
        non_commercial = {point[part] for part in THREE_PARTS} & NC_FAMILY
        if point["commercial"] and non_commercial:
            assert v.status == "not_allowed", point


# --- 11. Every verdict is the one recorded in the golden file -------------------------------


@LICENCE_VERDICTS
def test_every_verdict_equals_the_golden_file():
    """All 21,952 verdicts, reasons and texts included (refresh: see tests/license_golden.py)."""
    expected = license_golden.resolved(license_golden.read_golden())
    actual = license_golden.resolved(license_golden.verdict_table())
    assert actual.keys() == expected.keys()
    changed = [key for key in expected if actual[key] != expected[key]]
    assert not changed, (
        f"{len(changed)} verdicts differ from {license_golden.GOLDEN.name}, e.g. {changed[0]}: "
        f"{actual[changed[0]]} != {expected[changed[0]]}; if the change is intended, run "
        f"{license_golden.REFRESH} and review the diff"
    )


# --- 12. The table holds the licences; the evaluator holds none ------------------------------


def test_every_finding_of_a_row_names_a_situation_and_a_reason():
    for row in lic.RULES:
        assert set(row.findings) <= set(lic.SITUATIONS), row.id
        assert set(row.findings.values()) <= set(lic.REASONS), row.id
        assert set(row.all_conditions) <= set(lic.CONDITIONS), row.id
        assert set(row.adapter_licenses or ()) <= set(LICENSES), row.id


def test_a_licence_that_grants_nothing_offers_nothing():
    for row in lic.RULES:
        if not row.grants:
            assert row.adapter_licenses == () and not row.adaptations_shareable, row.id
            assert not row.commercial and not row.all_conditions, row.id


def test_every_reason_of_the_table_occurs_in_some_verdict():
    seen = {reason[1] for reason in license_golden.read_golden()["reasons"]}
    assert seen == set(lic.REASONS)


def test_the_evaluator_names_no_licence():
    """Special cases are rows of the table: no identifier or family appears in the code."""
    source = inspect.getsource(lic.evaluate) + inspect.getsource(lic._share)
    for row in lic.RULES:
        assert row.id not in source, row.id
        assert row.kind in THREE_PARTS or f'"{row.kind}"' not in source, row.kind


def test_the_llama_user_threshold_is_paraphrased_as_its_section_2_states_it():
    # §2: more than 700 million monthly active users in the preceding calendar month, on the
    # Llama 3 release date (18 April 2024), for the licensee or its affiliates: the licensee
    # must request a licence from Meta and has no rights until Meta grants one.
    en, ko = lic.CONDITIONS["user_threshold"]["en"], lic.CONDITIONS["user_threshold"]["ko"]
    for phrase in (
        "(§2)",
        "18 April 2024",
        "affiliates",
        "more than 700 million monthly active",
        "preceding calendar month",
        "must request a licence from Meta",
        "no rights under the agreement until Meta grants one",
    ):
        assert phrase in en, phrase
    for phrase in (
        "§2",
        "2024년 4월 18일",
        "계열사",
        "직전 달",
        "7억 명을 넘었다면",
        "Meta에 라이선스를",
    ):
        assert phrase in ko, phrase
    assert "700M MAU" in lic.CONDITIONS["user_threshold"]["en"]
    assert "user_threshold" in lic.rule(LLAMA).on_use


@pytest.mark.parametrize("missing", [UNKNOWN, NO_LICENSE])
def test_no_licence_is_not_read_as_all_rights_reserved_everywhere(missing: str):
    # Unprotected texts exist (Korean Copyright Act Art. 7), but until checked: no permission.
    v = verdict(missing, MIT, MIT, share=False, combination="aggregate")
    assert v.status == "needs_permission"
    (reason,) = [r for r in v.reasons if r.rule in ("unknown_license", "no_license")]
    assert "Art. 7" in reason.text["en"] and "제7조" in reason.text["ko"]


# --- 9. Premises, guidance and notes the texts must carry (issue 23 §2) ----------------------


@pytest.mark.parametrize("share", [False, True])
def test_every_adapted_verdict_states_the_protected_weights_premise(share: bool):
    v = verdict(CC0, ND, MIT, commercial=False, share=share, combination="adapt")
    (premise,) = [r for r in v.reasons if r.rule == "weights_premise"]
    for phrase in ("assuming the weights are protected", "Art. 2 item 1", "Art. 93", "§1(a)"):
        assert phrase in premise.text["en"], phrase
    assert "contract" in premise.text["en"] and "계약" in premise.text["ko"]
    for phrase in ("제2조 제1호", "제93조", "§1(a)"):
        assert phrase in premise.text["ko"], phrase
    # The cautious verdict stays: shared ND weights are not allowed, kept ones are.
    assert v.status == ("not_allowed" if share else "allowed")


def test_nc_sa_data_on_an_nc_model_fits_by_nc_sa_under_both_readings():
    # BY-NC-SA on the weights satisfies the data (if they adapt it) and the NC model alike.
    v = verdict(NCSA, NC, MIT, commercial=False, share=True, combination="adapt")
    assert v.status == "allowed" and v.adaptation_licenses == (NCSA,)
    assert "data_conditions_precaution" in rules_of(v)


def test_a_collection_needs_no_premise_about_weights():
    v = verdict(CC0, ND, MIT, commercial=False, share=True, combination="aggregate")
    assert "weights_premise" not in rules_of(v)


@pytest.mark.parametrize("data", [BY, MIT, APACHE])
@pytest.mark.parametrize("model", [CC0, APACHE, MIT])
def test_permissive_data_on_a_permissive_model_is_a_precaution_whatever_the_model(data, model):
    # A CC0 model with BY or MIT data used to need review while Apache-2.0 was allowed: the
    # readings differ only in which licences fit, and some fit under both.
    v = verdict(data, model, MIT, commercial=True, share=True, combination="adapt")
    assert v.status == "allowed", (data, model)
    assert "data_conditions_precaution" in rules_of(v)
    assert "data_to_weights" not in rules_of(v)
    # Offered licences fit under both readings: none that waives the data's notices.
    assert CC0 not in v.adaptation_licenses and v.adaptation_licenses


def test_nc_adapter_list_is_cited_as_cc_guidance_not_licence_text():
    terms = lic.rule(NC).terms
    assert "CC's FAQ guidance, not licence text" in terms["en"]
    assert "CC FAQ의 안내" in terms["ko"]
    assert "BY-SA §3(b)" in (lic.__doc__ or "")


def test_llama_naming_applies_to_a_model_distributed_or_made_available_by_or_for():
    naming, threshold = lic.CONDITIONS["llama_naming"], lic.CONDITIONS["user_threshold"]
    assert "distributed or made available" in naming["en"]
    assert "distributed or made available" in naming["ko"]
    assert "by or for the licensee" in threshold["en"] and "by or for" in threshold["ko"]


@pytest.mark.parametrize("part", ["model", "code"])
def test_apache_adaptation_offering_nc_or_nd_says_recipients_keep_apache_rights(part: str):
    parts = {"data": CC0, "model": MIT, "code": MIT, part: APACHE}
    three = (parts["data"], parts["model"], parts["code"])
    v = lic.evaluate(*three, commercial=False, share=True, combination="adapt")
    offered = v.adaptation_licenses if part == "model" else v.code_licenses
    assert {NC, ND} <= set(offered)
    (note,) = [r for r in v.reasons if r.rule == "apache_own_terms"]
    assert "keep their Apache-2.0 rights in the original" in note.text["en"]
    assert "§4" in note.text["ko"] and part in note.parts
    kept = lic.evaluate(*three, commercial=False, share=False, combination="adapt")
    assert "apache_own_terms" not in rules_of(kept)


# Latin-letter names ending in a digit, then an optional closing mark and a particle.
NAME_PARTICLE = re.compile(
    r"(?P<name>[A-Za-z]+ [0-9]+)(?P<marks>['\"」]?)(?P<particle>으로|로|을|를|이|가|은|는|과|와)"
    r"(?=[\s,.)])"
)


def _korean_texts() -> Iterator[str]:
    yield from (text["ko"] for text in lic.CONDITIONS.values())
    yield from (row.text["ko"] for row in lic.REASONS.values())
    yield from (row.terms["ko"] for row in lic.RULES)
    yield (REPO / "content" / "ko" / "04-licenses.md").read_text(encoding="utf-8")


def test_particles_after_latin_and_digit_names_follow_the_reading():
    # "Llama 3" is read 라마 삼: "Llama 3으로", "'Llama 3'을", never "Llama 3로".
    found = 0
    for text in _korean_texts():
        for match in NAME_PARTICLE.finditer(text):
            found += 1
            chosen = korean.particle(match.group("particle")).after(match.group("name"))
            assert match.group("particle") == chosen, match.group(0)
    assert found >= 5


# --- 13. Adapting the data itself: cleaning, annotating, translating, merging ---------------


def adapted_data(data, second=None, *, model=APACHE, code=MIT, commercial=False, share=True):
    return lic.evaluate(
        data,
        model,
        code,
        commercial=commercial,
        share=share,
        combination="adapt_data",
        second_data=second,
    )


@pytest.mark.parametrize(("first", "second"), [(SA, NC), (NC, SA), (SA, NCSA), (NCSA, SA)])
def test_by_sa_merged_with_nc_data_cannot_be_shared_under_both(first: str, second: str):
    # BY-SA §3(b): the adapter's licence is BY-SA or a BY-SA compatible one, with no added
    # restrictions; the NC term is such a restriction, so no licence satisfies both.
    shared = adapted_data(first, second)
    assert shared.status == "not_allowed"
    assert "share_alike_clash" in rules_of(shared)
    assert shared.data_licenses == ()
    (clash,) = [r for r in shared.reasons if r.rule == "share_alike_clash"]
    assert "§3(b)" in clash.text["en"] and "§3(b)" in clash.text["ko"]
    assert set(clash.parts) == {"data", "second_data"}
    kept = adapted_data(first, second, share=False)
    assert kept.status == "allowed", "an adaptation kept to oneself is not shared"


@pytest.mark.parametrize("nd", sorted(ND_FAMILY))
@pytest.mark.parametrize("other", [None, CC0, BY])
def test_nd_data_may_be_adapted_but_not_shared_adapted(nd: str, other: str | None):
    for first, second in ((nd, other), (other, nd)) if other else ((nd, None),):
        shared = adapted_data(first, second)
        assert shared.status == "not_allowed"
        assert "no_derivatives" in rules_of(shared)
        assert adapted_data(first, second, share=False).status == "allowed"


@pytest.mark.parametrize(("sa", "offered"), [(SA, {SA, GPL}), (NCSA, {NCSA})])
@pytest.mark.parametrize("other", [None, CC0, BY])
def test_share_alike_carries_over_to_adapted_data(sa: str, offered: set[str], other):
    v = adapted_data(sa, other)
    assert v.status == "allowed"
    assert set(v.data_licenses) == offered
    assert ("share_alike", ("data",)) in [(c.code, c.parts) for c in v.conditions]
    assert "adapted_data" in rules_of(v)


@pytest.mark.parametrize(("a", "b"), list(itertools.product(CC, CC)))
def test_a_merge_of_two_cc_sources_may_carry_what_both_adapter_lists_allow(a: str, b: str):
    # CC's chart of the licences an adapter may apply, for each source; a merge needs both.
    both = ADAPTER_CHOICES[a] & ADAPTER_CHOICES[b]
    v = adapted_data(a, b)
    assert set(v.data_licenses) & set(CC) == both, (a, b)
    assert v.status == ("allowed" if both else "not_allowed"), (a, b)


def test_model_and_code_that_only_process_the_data_keep_their_terms_to_themselves():
    # A GPL cleaning script and an ND model that annotates are used, not changed or shared.
    v = adapted_data(BY, model=ND, code=GPL)
    assert v.status == "allowed"
    assert not {"no_shared_adaptations", "provide_source", "share_alike"} & set(v.condition_codes)
    # ... but an NC model still may not be used commercially, even as a tool.
    assert adapted_data(BY, model=NC, commercial=True).status == "not_allowed"
    assert adapted_data(BY, code=UNKNOWN).status == "needs_permission"


def test_a_second_data_source_is_refused_in_a_fine_tuning():
    with pytest.raises(ValueError, match="merge"):
        lic.evaluate(
            BY, APACHE, MIT, commercial=False, share=True, combination="adapt", second_data=BY
        )


# --- 14. Llama 3 §2: above 700 million monthly active users, ask Meta -------------------------


@pytest.mark.parametrize("part", THREE_PARTS)
@pytest.mark.parametrize("combination", lic.COMBINATIONS)
@pytest.mark.parametrize("share", [False, True])
def test_llama_above_the_user_threshold_needs_permission(part: str, combination: str, share):
    parts = {"data": CC0, "model": APACHE, "code": MIT, part: LLAMA}
    above = verdict(**parts, share=share, combination=combination, over_700m_users=True)
    assert above.status == "needs_permission"
    assert "llama_user_threshold" in rules_of(above)
    below = verdict(**parts, share=share, combination=combination)
    assert below.status != "needs_permission"
    assert "llama_user_threshold" not in rules_of(below)


@LICENCE_VERDICTS
def test_the_user_threshold_changes_nothing_without_llama_material():
    # Every point of the grid (it used to be every 97th): evaluate() at each is computed once.
    checked = 0
    for point in every_use():
        if LLAMA in (point["data"], point["model"], point["code"]):
            continue
        above = license_golden.verdict_at({**point, "over_700m_users": True})
        assert above == license_golden.verdict_at(point), point
        checked += 1
    assert checked == (len(LICENSES) - 1) ** 3 * 2 * 2 * len(lic.COMBINATIONS)
    # The cached verdicts are evaluate()'s own: a few points asked afresh.
    for point in itertools.islice(every_use(), 0, None, 97):
        over = {**point, "over_700m_users": True}
        assert license_golden.verdict_at(over) == lic.evaluate(**over), point
        assert license_golden.verdict_at(point) == lic.evaluate(**point), point


def test_a_definite_no_outranks_the_user_threshold():
    v = verdict(NC, LLAMA, MIT, commercial=True, over_700m_users=True)
    assert v.status == "not_allowed"
    assert {"nc_commercial", "llama_user_threshold"} <= rules_of(v)
