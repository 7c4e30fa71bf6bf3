"""Controls beside each figure they move, and "Show me" steps (issue 22 sections 1 and 2).

Lesson 03 places ε beside each chart it moves. Moving the
second instance must move the first, the hash and the page's one polite announcer, exactly
as moving the first does.
"""

from __future__ import annotations

import json

import pytest
from lessonpage import PREFIX, READY, Site, open_page
from playwright.sync_api import BrowserContext
from test_browser_accessibility import PHONE

from privacy_explorer.lesson import LANGUAGES

DP = "03-differential-privacy"

INSTANCES = """() => Array.from(document.querySelectorAll("input[data-param=epsilon]")).map(i => ({
  id: i.id,
  value: i.value,
  text: i.getAttribute("aria-valuetext"),
  output: i.parentNode.querySelector("output").textContent,
  label: document.querySelector("label[for='" + i.id + "']").textContent.trim(),
}))"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_moving_one_instance_of_a_control_moves_the_others_the_hash_and_the_announcer(
    context: BrowserContext, site: Site, lang: str
) -> None:
    page, watch = open_page(context, site, f"{PREFIX[lang]}{DP}.html")
    page.wait_for_selector(READY, state="attached")
    before = page.evaluate(INSTANCES)
    ids = [i["id"] for i in before]
    assert len(ids) >= 2 and ids == ["control-epsilon"] + [
        f"control-epsilon-{n}" for n in range(2, len(ids) + 1)
    ]
    assert len({i["label"] for i in before}) == 1
    assert len({i["value"] for i in before}) == 1
    second = page.locator("#control-epsilon-2")
    second.focus()
    page.keyboard.press("ArrowRight")
    key = page.evaluate("window.explorerLesson.key()")
    page.wait_for_function(
        "key => document.querySelector('[data-announcer]').dataset.point === key", arg=key
    )
    after = page.evaluate(INSTANCES)
    moved = str(int(before[1]["value"]) + 1)
    assert [i["value"] for i in after] == [moved] * len(ids)
    assert len({i["text"] for i in after} | {i["output"] for i in after}) == 1
    assert after[0]["text"] != before[0]["text"]
    params = page.evaluate(f"window.EXPLORER_DATA[{DP!r}].params")
    epsilon = next(p for p in params if p["name"] == "epsilon")
    hash_text = page.evaluate("decodeURIComponent(window.location.hash)")
    assert f"epsilon={epsilon['texts'][int(moved)]}" in hash_text
    said = page.locator("[data-announcer]").inner_text()
    assert said.startswith(f"{after[0]['label']}: {after[0]['text']}."), said
    # The other way round: the first instance moves the second.
    page.locator("#control-epsilon").focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "v => document.querySelector('#control-epsilon-2').value === v", arg=before[0]["value"]
    )
    watch.assert_clean(f"{lang} {DP}")


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_show_me_step_sets_its_controls_shows_its_figure_and_says_what_it_set(
    context: BrowserContext, site: Site, lang: str
) -> None:
    page, watch = open_page(context, site, f"{PREFIX[lang]}{DP}.html")
    page.set_viewport_size(PHONE)
    page.wait_for_selector(READY, state="attached")
    steps = page.locator("button[data-showme]")
    assert steps.count() >= 2
    step = page.locator("button[data-showme-target='chart-budget']").first
    settings = json.loads(step.get_attribute("data-showme") or "")
    assert settings == {"epsilon": 0, "releases": 19}  # epsilon=0.05 releases=20, by index
    page.evaluate("window.scrollTo(0, 0)")
    step.focus()
    page.keyboard.press("Enter")  # keyboard-operable: a real <button>
    page.wait_for_function(
        "() => document.querySelector('article').dataset.point === window.explorerLesson.key()"
    )
    state = page.evaluate("window.explorerLesson.state")
    assert {name: state[name] for name in settings} == settings
    values = "Array.from(document.querySelectorAll('input[data-param=epsilon]')).map(i => i.value)"
    assert set(page.evaluate(values)) == {"0"}
    hash_text = page.evaluate("decodeURIComponent(window.location.hash)")
    assert "epsilon=0.05" in hash_text and "releases=20" in hash_text
    said = page.locator("[data-announcer]").inner_text()
    assert said == step.get_attribute("data-said")
    assert ("0.05" in said) and ("20" in said), said
    top = page.evaluate("document.getElementById('chart-budget').getBoundingClientRect().top")
    assert -1 <= top < PHONE["height"] / 2, top  # at the top of the screen, to a subpixel
    # The learner takes over: the state it set is the page's state, shared with a reload.
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.evaluate("window.explorerLesson.state")["releases"] == 19
    watch.assert_clean(f"{lang} {DP} show me")
