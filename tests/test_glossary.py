"""One Korean term per concept: the glossary against every Korean text a learner reads.

``content/glossary-ko.yml`` names each concept's term (Creative Commons Korea's names for
the CC elements) and the variants that must not appear. The texts are the Korean lesson
pages, the Korean strings of the licence checker and the lesson modules, and the
template strings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from privacy_explorer.compute import licensing

REPO = Path(__file__).resolve().parent.parent
GLOSSARY = yaml.safe_load((REPO / "content" / "glossary-ko.yml").read_text(encoding="utf-8"))


def korean_texts() -> dict[str, str]:
    """Every Korean text a learner can read, by where it comes from."""
    texts = {
        path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((REPO / "content" / "ko").glob("*.md"))
    }
    strings = yaml.safe_load((REPO / "site_templates" / "strings.yml").read_text("utf-8"))
    texts["site_templates/strings.yml"] = "\n".join(value["ko"] for value in strings.values())
    rows = [rule.terms["ko"] for rule in licensing.RULES]
    rows += [text["ko"] for text in licensing.CONDITIONS.values()]
    rows += [text["ko"] for text in licensing.CONDITION_SHORT.values()]
    rows += [row.text["ko"] for row in licensing.REASONS.values()]
    rows += [text["ko"] for text in licensing.OUTCOMES.values()]
    texts["compute/licensing.py"] = "\n".join(rows)
    module = (REPO / "compute" / "lessons").glob("*.py")
    for path in sorted(module):
        texts[path.relative_to(REPO).as_posix()] = path.read_text(encoding="utf-8")
    return texts


TEXTS = korean_texts()


@pytest.mark.parametrize("entry", GLOSSARY, ids=[entry["concept"] for entry in GLOSSARY])
def test_each_concept_has_one_korean_term(entry: dict) -> None:
    found = []
    for where, text in TEXTS.items():
        rest = text
        if "literature" in entry:  # once, inside the parentheses after the first mention
            first = re.compile(
                re.escape(entry["term"]) + r"\([^)]*" + re.escape(entry["literature"])
            )
            rest = first.sub("", rest, count=1)
        rest = rest.replace(entry["term"], "")  # a variant may be a prefix of the term
        found += [f"{where}: '{variant}'" for variant in entry["variants"] if variant in rest]
    assert not found, f"use '{entry['term']}' for {entry['concept']}: " + ", ".join(found)
    assert any(entry["term"] in text for text in TEXTS.values()), entry["term"]


def test_the_licence_elements_use_creative_commons_korea_names() -> None:
    short = licensing.CONDITION_SHORT
    assert short["attribution"]["ko"] == "저작자표시"
    assert short["non_commercial"]["ko"] == "비영리"
    assert short["no_shared_adaptations"]["ko"] == "변경금지"
    assert short["share_alike"]["ko"] == "동일조건변경허락"


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ({"data": "CC-BY-NC-4.0"}, "데이터 (CC-BY-NC-4.0)는 비영리"),
        ({"model": "CC-BY-NC-4.0"}, "모델 (CC-BY-NC-4.0)은 비영리"),
        ({"code": "CC-BY-NC-4.0"}, "코드 (CC-BY-NC-4.0)는 비영리"),
    ],
)
def test_korean_particles_follow_the_part_name(parts: dict[str, str], expected: str) -> None:
    licences = {"data": "CC0-1.0", "model": "CC0-1.0", "code": "CC0-1.0", **parts}
    d, m, c = licences["data"], licences["model"], licences["code"]
    v = licensing.evaluate(d, m, c, commercial=True, share=False, combination="aggregate")
    (reason,) = [r for r in v.reasons if r.rule == "nc_commercial"]
    assert reason.text["ko"].startswith(expected)


def test_the_licence_names_take_the_particle_their_korean_reading_needs() -> None:
    attach = licensing.attach_particles
    assert attach("CC-BY-SA-4.0(으)로") == "CC-BY-SA-4.0으로"  # 영: a final consonant
    assert attach("GPL-3.0-only(으)로") == "GPL-3.0-only로"  # 온리: a vowel
    assert attach("LicenseRef-OpenRAIL-M(으)로") == "LicenseRef-OpenRAIL-M으로"  # 엠
    assert attach("7391(이)가") == "7391이" and attach("7392(이)가") == "7392가"
    assert attach("모델(으)로") == "모델로"  # ㄹ takes 로


ENGLISH_AT_FIRST_MENTION = [entry for entry in GLOSSARY if "english" in entry]


@pytest.mark.parametrize(
    "entry", ENGLISH_AT_FIRST_MENTION, ids=[e["concept"] for e in ENGLISH_AT_FIRST_MENTION]
)
def test_a_term_shows_its_english_at_its_first_mention_on_each_page(entry: dict) -> None:
    """A learner meets the Korean term with the English in parentheses before (or where) it
    is first used on a page, so the literature can be found; ``english_on`` names the pages
    to check for a term that is also an everyday word (자리, 자르기)."""
    english, term = f"({entry['english']})", entry["term"]
    pages = sorted((REPO / "content" / "ko").glob("*.md"))
    checked = [p for p in pages if p.name in entry.get("english_on", [p.name for p in pages])]
    found = []
    for path in checked:
        text = path.read_text(encoding="utf-8")
        first = text.find(term)
        if first < 0:
            continue
        shown = text.find(english)
        if shown < 0 or shown > first + len(term) + 3:  # "자른(clipping)": at the first mention
            line = text.count("\n", 0, first) + 1
            found.append(f"content/ko/{path.name}:{line}: write '{term}{english}' here")
    assert not found, "; ".join(found)
    assert any(term in p.read_text(encoding="utf-8") for p in checked), term


def test_the_lesson_and_record_words_are_one_each_across_the_templates_too() -> None:
    strings = TEXTS["site_templates/strings.yml"]
    assert "강의" in strings and "단원" not in strings


def test_a_literature_name_is_allowed_only_once_in_parentheses_after_the_term() -> None:
    entries = [entry for entry in GLOSSARY if "literature" in entry]
    assert entries
    for entry in entries:
        name, term = entry["literature"], entry["term"]
        assert name in entry["variants"], name  # everywhere else it is refused
        pages = [text for where, text in TEXTS.items() if where.startswith("content/ko/")]
        assert any(f"흔히 {name})" in text for text in pages), name
        for text in pages:
            assert text.count(name) <= 1, name
            if name in text:
                assert text.index(term) < text.index(name), name
