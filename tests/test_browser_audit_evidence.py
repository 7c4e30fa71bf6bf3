"""Lesson 06 in headless Chromium: every control moves the readouts, charts and tables.

The readouts and per-point rows of lesson 06 come from ``summarize()`` (point views of the
study), not from ``compute()``; the page is compared with ``summarize()`` run here over the
study the session's build cached. Layout, axe-core, the phone pass and sticky controls run
for this page in ``test_browser_pages.py`` like every other page.
"""

from __future__ import annotations

from typing import Any

import pytest
from lessonpage import LessonPage, Site, by_turns
from playwright.sync_api import BrowserContext

from privacy_explorer.compute.lessons import audit_evidence as ae
from privacy_explorer.lesson import LANGUAGES

SLUG = "06-what-an-audit-measures"

STEPS: list[tuple[str, str, int]] = [
    # (parameter, key or "click", the value index it leads to); the page opens at
    # |S| = 800, ε = 0.4, ρ = 0.1, k = 20, 1×, concrete, ε_DP = 1.
    ("k", "click", 3),  # the authors' k = 200
    ("size", "click", 0),  # 200 records: k = 200 was not run there
    ("epsilon", "click", 0),  # ε = 0.1 with 200 records: the ceiling is inside the band
    ("size", "click", 2),
    ("rho", "click", 0),
    ("bandwidth", "ArrowLeft", 0),
    ("data", "click", 1),
    ("dp_epsilon", "click", 0),
]


class EvidencePage(LessonPage):
    """Lesson 06: a point's result is ``compute()``'s (empty) plus the views that name it."""

    def _compute(self, key: str) -> dict[str, Any]:
        indices = [int(i) for i in key.split("-")]
        point = {p.name: p.values[i] for p, i in zip(self.grid.params, indices, strict=True)}
        merged: dict[str, Any] = {"readouts": {}, "datasets": {}}
        for row in self.summary["point_views"]:
            if all(point[name] == value for name, value in row["where"].items()):
                for kind in ("readouts", "datasets"):
                    merged[kind].update(row.get(kind, {}))
        return merged


EVIDENCE = EvidencePage(ae, SLUG)


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_every_control_moves_the_verdict_charts_and_tables(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = EVIDENCE.open(context, site, lang)
    assert {name for name, _, _ in STEPS} == set(ae.GRID.names), "every control is moved"
    EVIDENCE.drive(page, site, lang, STEPS)
    verdicts = {name: text for name, text in EVIDENCE.read(page)["readouts"]}
    # The last simulated point: 3,200 records, ε = 0.1, ρ = 0, k = 200 at 0.25×.
    state = EVIDENCE.default_state()
    for name, _, index in STEPS:
        state[name] = index
    expected = EVIDENCE.python_readouts(state, lang)
    assert verdicts["verdict"] == expected["verdict"]
    watch.assert_clean(f"controls ({lang})")
