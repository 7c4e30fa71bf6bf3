"""Lesson 04: the licence evaluator against the licences' own rules, and the page against it.

The expected answers here are written from the licence texts and CC's compatibility
guidance, not read from :data:`compute.license_rules.RULES`, so a wrong row in the
rule table fails a test instead of moving the expectation with it.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import license_golden
import pytest
from markupsafe import escape

from compute import licenses as lic
from compute.license_rules import LICENSES, RULES
from privacy_explorer.build import build
from privacy_explorer.project import load_project
from privacy_explorer.render import COMPACT_POINTS_ABOVE, expand_page_data

REPO = Path(__file__).resolve().parent.parent
SLUG = "04-licenses"

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


def verdict(data=CC0, model=CC0, code=CC0, *, commercial=False, share=True, combination="adapt"):
    return lic.evaluate(
        data, model, code, commercial=commercial, share=share, combination=combination
    )


def rules_of(v: lic.Verdict) -> set[str]:
    return {reason.rule for reason in v.reasons}


# --- 1. Every pair of CC licences in one shared adaptation ----------------------------------


def expected_pair_status(a: str, b: str, commercial: bool) -> str:
    """CC's compatibility chart, written out: ND never shares, SA takes no NC or other SA."""
    if commercial and (a in NC_FAMILY or b in NC_FAMILY):
        return "not_allowed"
    if a in ND_FAMILY or b in ND_FAMILY:
        return "not_allowed"
    if a in SA_FAMILY or b in SA_FAMILY:
        sa, other = (a, b) if a in SA_FAMILY else (b, a)
        if other == sa or other in (CC0, BY) or (sa == NCSA and other == NC):
            return "allowed"
        return "not_allowed"
    return "allowed"


@pytest.mark.parametrize("commercial", [False, True], ids=["noncommercial", "commercial"])
@pytest.mark.parametrize(("a", "b"), list(itertools.product(CC, CC)))
def test_every_pair_of_cc_licences_in_a_shared_adaptation(a: str, b: str, commercial: bool):
    # The model and code are adapted directly; CC0 data keeps the data question out of it.
    v = verdict(CC0, a, b, commercial=commercial, share=True, combination="adapt")
    assert v.status == expected_pair_status(a, b, commercial), [r.text["en"] for r in v.reasons]
    if v.status == "allowed":
        may_carry = set(v.adaptation_licenses) & set(CC)
        assert may_carry == ADAPTER_CHOICES[a] & ADAPTER_CHOICES[b]
        assert may_carry, "an allowed shared adaptation names at least one licence"
    else:
        assert v.adaptation_licenses == ()


@pytest.mark.parametrize(("a", "b"), list(itertools.product(CC, CC)))
def test_an_adaptation_kept_in_house_is_allowed_for_every_cc_pair(a: str, b: str):
    v = verdict(CC0, a, b, commercial=False, share=False, combination="adapt")
    assert v.status == "allowed"
    if a in ND_FAMILY or b in ND_FAMILY:
        assert "no_shared_adaptations" in v.condition_codes


def test_the_names_of_the_clashing_pair_are_given():
    v = verdict(CC0, SA, NC)
    assert v.status == "not_allowed"
    (clash,) = [r for r in v.reasons if r.rule == "share_alike_conflict"]
    assert clash.parts == ("model", "code")
    assert SA in clash.text["en"] and NC in clash.text["en"] and "CC-BY-SA-4.0" in clash.text["ko"]


# --- 2. ND in a collection versus an adaptation ---------------------------------------------


@pytest.mark.parametrize("nd", sorted(ND_FAMILY))
@pytest.mark.parametrize("part", lic.PARTS)
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
@pytest.mark.parametrize("part", lic.PARTS)
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
@pytest.mark.parametrize("part", lic.PARTS)
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


def test_unknown_is_never_allowed_anywhere_in_the_grid():
    for point in lic.GRID:
        if {point["data"], point["model"], point["code"]} & {UNKNOWN, NO_LICENSE}:
            v = lic.evaluate(**point)
            assert v.status in ("needs_permission", "not_allowed"), point


# --- 5. GPL and BY-SA: compatible in one direction only -------------------------------------


@pytest.mark.parametrize(("model", "code"), [(SA, GPL), (GPL, SA)])
def test_by_sa_goes_into_gplv3_but_not_the_other_way(model: str, code: str):
    v = verdict(CC0, model, code, share=True, combination="adapt")
    assert v.status == "allowed"
    assert v.adaptation_licenses == (GPL,)
    assert "share_alike" in v.condition_codes and "provide_source" in v.condition_codes


def test_by_sa_alone_may_carry_by_sa_or_gplv3():
    assert verdict(CC0, SA, MIT).adaptation_licenses == (SA, GPL)


@pytest.mark.parametrize("other", [NC, NCSA, RAIL, LLAMA])
def test_gpl_takes_no_further_restrictions(other: str):
    v = verdict(CC0, other, GPL, commercial=False)
    assert v.status == "not_allowed"
    assert "share_alike_conflict" in rules_of(v)


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
        v = verdict(CC0, model_license, sa, commercial=False)
        assert v.status == "not_allowed", model_license


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
    v = verdict(CC0, RAIL, LLAMA, commercial=False)
    assert v.status == "needs_review"
    assert "no_common_license" in rules_of(v)


# --- 7. Data and trained weights: never asserted either way ---------------------------------


@pytest.mark.parametrize("data", [SA, NC, NCSA, ND, NCND, GPL])
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
        lic.evaluate(CC0, CC0, CC0, commercial=False, share=False, combination="merge")


# --- 9. Verdicts are well formed over the whole grid ----------------------------------------


def test_every_verdict_in_the_grid_is_well_formed():
    order = list(lic.CONDITIONS)
    for point in lic.GRID:
        v = lic.evaluate(**point)
        assert v.status in lic.STATUSES
        assert v.reasons, point
        assert v.reasons[0].status in (v.status, "allowed"), point
        codes = list(v.condition_codes)
        assert codes == sorted(codes, key=order.index), point
        if v.adaptation_licenses:
            assert point["share"] and point["combination"] == "adapt", point
        non_commercial = {point[part] for part in lic.PARTS} & NC_FAMILY
        if point["commercial"] and non_commercial:
            assert v.status == "not_allowed", point


def test_the_rule_table_lists_every_accepted_licence_once():
    assert [r.id for r in RULES] == list(LICENSES)
    assert len(set(LICENSES)) == len(LICENSES) == 14
    rows = lic.rule_table_rows()
    assert [row["license"] for row in rows] == list(LICENSES)


def test_worked_examples_cover_every_status_and_come_from_the_evaluator():
    rows = lic.example_rows()
    statuses = []
    for example, row in zip(lic.EXAMPLES, rows, strict=True):
        v = lic.evaluate(**example.point)
        statuses.append(v.status)
        assert row["status"] == lic.STATUS_LABELS[v.status]
        assert row["why"] == v.reasons[0].text
    assert set(statuses) == set(lic.STATUSES)


# --- 10. The page data equals what evaluate() says ------------------------------------------


@pytest.fixture(scope="module")
def licence_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Lesson 04 alone, built from the repository (its result cache shared with other tests)."""
    out = tmp_path_factory.mktemp("licences") / "site"
    build(load_project(REPO), out, only="04", jobs=2)
    return out


def page_data(site: Path, lang: str) -> dict[str, Any]:
    text = (site / "assets" / "data" / f"{SLUG}.{lang}.js").read_text("utf-8")
    return json.loads(text.split("=", 2)[2].rstrip(";\n"))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_page_data_equals_evaluate_at_every_grid_point(licence_site: Path, lang: str):
    data = page_data(licence_site, lang)
    assert len(lic.GRID) > COMPACT_POINTS_ABOVE and "variants" in data  # the compact form
    assert (licence_site / "assets" / "data" / f"{SLUG}.{lang}.js").stat().st_size < 3_000_000
    plain = expand_page_data(data)
    tables = {t.name: t for t in lic.TABLES}
    points = plain["points"]
    assert len(points) == len(lic.GRID)
    for point in lic.GRID:
        shown = points[lic.GRID.key(point)]
        v = lic.evaluate(**point)
        assert shown["r"]["status"] == lic.STATUS_LABELS[v.status][lang], point
        conditions = plain["datasets"][shown["t"]["conditions"]]
        assert [row[0] for row in conditions] == [
            lic.CONDITIONS[c.code][lang] for c in v.conditions
        ], point
        reasons = plain["datasets"][shown["t"]["reasons"]]
        assert [row[1] for row in reasons] == [r.text[lang] for r in v.reasons], point
        adaptation = plain["datasets"][shown["t"]["adaptation"]]
        assert [row[0] for row in adaptation] == list(v.adaptation_licenses), point
        assert set(shown["t"]) == {"conditions", "reasons", "adaptation"}
    assert set(tables) >= {"conditions", "reasons", "adaptation", "rules", "examples"}


@pytest.mark.parametrize(("page", "lang"), [(f"{SLUG}.html", "ko"), (f"en/{SLUG}.html", "en")])
def test_the_page_shows_the_rule_table_and_the_default_verdict_in_its_html(
    licence_site: Path, page: str, lang: str
):
    html = (licence_site / page).read_text("utf-8")
    rules = re.search(r'data-table="rules".*?<tbody data-table-body>(.*?)</tbody>', html, re.S)
    assert rules is not None
    row_headers = re.findall(r'<th scope="row">([^<]*)</th>', rules.group(1))
    assert row_headers == list(LICENSES)
    default = lic.evaluate(**lic.GRID.default)
    # The verdict is announced to screen readers when it changes; other readouts are silent.
    assert re.search(r'data-readout="status"[^>]*aria-live="polite"', html)
    assert re.search(r'data-readout="condition_count"[^>]*aria-live="off"', html)
    status = re.search(r'data-readout="status"[^>]*>([^<]*)</output>', html)
    assert status is not None and status.group(1) == lic.STATUS_LABELS[default.status][lang]
    for condition in default.conditions:
        assert f"<td>{escape(lic.CONDITIONS[condition.code][lang])}</td>" in html
    assert 'src="assets/vega.js"' not in html and 'vega.js"' not in html  # no charts, no Vega


# --- 11. Every verdict is the one recorded in the golden file -------------------------------


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
