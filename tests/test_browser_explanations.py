"""The new explanations of lessons 02 and 03 in headless Chromium, checked against the library.

Lesson 02's threshold and ε controls must move the rule, the diamond and the
bound to the rates that a direct count of the losses gives; lesson 03's
posterior chart must print, at the current ε, the closed-form bound for each
prior. The generic checks (rows, signals, readouts equal ``compute()``) are in
``test_browser.py`` and ``test_browser_membership.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from lessonpage import LessonPage, Site, by_turns
from playwright.sync_api import BrowserContext, Page

from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.compute.lessons import membership as mi
from privacy_explorer.lesson import LANGUAGES

MI = LessonPage(mi, "02-membership-inference")
DP = LessonPage(dp, "03-differential-privacy")


def chart_texts(page: Page, chart: str) -> list[str]:
    """The texts drawn in a live chart's SVG."""
    return page.evaluate(
        """name => Array.from(document.querySelectorAll(
             `figure[data-chart='${name}'] .chart-live svg text`)).map(t => t.textContent)""",
        chart,
    )


def readout(page: Page, name: str) -> str:
    return page.locator(f"[data-readout={name}]").first.inner_text()


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_threshold_and_epsilon_controls_show_the_counted_rates(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = MI.open(context, site, lang, "epochs=2000&seed=3&threshold=3&dp_epsilon=0.1")
    state = {"epochs": 10, "seed": 2, "threshold": mi.THRESHOLDS.index(3.0), "dp_epsilon": 0}
    MI.wait_for_point(page, state)
    MI.assert_shows(page, state, lang)
    snapshot = next(s for s in mi.training_trajectory(3) if s.epochs == 2000)
    caught = int(np.sum(snapshot.member_losses <= 3.0))
    flagged = int(np.sum(snapshot.nonmember_losses <= 3.0))
    assert readout(page, "threshold_members") == str(caught)
    assert readout(page, "threshold_nonmembers") == str(flagged)
    assert readout(page, "threshold_tpr") == f"{caught / mi.MEMBER_COUNT:.1%}"
    assert readout(page, "threshold_fpr") == f"{flagged / mi.NONMEMBER_COUNT:.1%}"
    bound = min(math.exp(0.1) * flagged / 160, 1 - (1 - flagged / 160) / math.exp(0.1))
    assert readout(page, "dp_bound_tpr") == f"{bound:.1%}"
    assert any("ε = 0.1" in text for text in chart_texts(page, "attack"))

    # Moving the threshold one step to the left moves the diamond down the same curve.
    MI.move(page, "threshold", "ArrowLeft", state["threshold"] - 1)
    state = {**state, "threshold": state["threshold"] - 1}
    MI.wait_for_point(page, state)
    shown = MI.assert_shows(page, state, lang)
    # The figure draws the cut and the diamond at the row of every threshold that t picks.
    assert shown["views"]["attack"]["signals"] == {"threshold": 1.0}
    rows = shown["views"]["attack"]["data"]["threshold_choices"]
    point = next(row for row in rows if row["threshold"] == 1.0)
    assert point["tpr"] == pytest.approx(np.mean(snapshot.member_losses <= 1.0), abs=1e-6)
    assert point["fpr"] == pytest.approx(np.mean(snapshot.nonmember_losses <= 1.0), abs=1e-6)
    watch.assert_clean("threshold")


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
def test_posterior_chart_prints_the_closed_form_bound_at_the_current_epsilon(
    context: BrowserContext, site: Site, lang: str
):
    page, watch = DP.open(context, site, lang)
    for epsilon in (1.0, 5.0, 0.05):
        index = dp.EPSILONS.index(epsilon)
        page.evaluate(f"location.hash = 'query=count&epsilon={epsilon:g}&releases=1&clip=100'")
        state = {"query": 0, "epsilon": index, "releases": 0, "clip": 3}
        DP.wait_for_point(page, state)
        shown = DP.assert_shows(page, state, lang)
        assert shown["views"]["posterior"]["signals"] == {"epsilon": epsilon}
        texts = chart_texts(page, "posterior")
        for prior in dp.POSTERIOR_PRIORS:
            odds = prior / (1 - prior) * math.exp(epsilon)
            assert f"{odds / (1 + odds):.1%}" in texts, (epsilon, prior, texts)
        # One count release above q(D): the actual posterior meets the bound (section 4).
        assert readout(page, "posterior_after_releases") == readout(page, "posterior_bound")
    watch.assert_clean("posterior")
