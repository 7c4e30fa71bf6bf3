"""Controls beside each figure they move, and "Show me" steps (issue 22 sections 1 and 2).

Lesson 03 places ε beside each chart it moves. Moving the
second instance must move the first, the hash and the page's one polite announcer, exactly
as moving the first does. On a wide screen a pinned group unpins after the last figure it
moves, and a lesson may ask for none to be pinned.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lessonpage import PREFIX, READY, Site, by_turns, open_page
from playwright.sync_api import Browser, BrowserContext, Page
from test_browser_accessibility import PHONE, WIDE

from privacy_explorer.build import build
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import load_project

DP = "03-differential-privacy"
REPO = Path(__file__).resolve().parent.parent
LESSONS = [
    f"{PREFIX[lang]}{path.stem}.html"
    for path in sorted((REPO / "content" / LANGUAGES[0]).glob("[0-9][0-9]-*.md"))
    for lang in LANGUAGES
]

INSTANCES = """() => Array.from(document.querySelectorAll("input[data-param=epsilon]")).map(i => ({
  id: i.id,
  value: i.value,
  text: i.getAttribute("aria-valuetext"),
  output: i.parentNode.querySelector("output").textContent,
  label: document.querySelector("label[for='" + i.id + "']").textContent.trim(),
}))"""


@pytest.mark.browser
@by_turns("lang", LANGUAGES)
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
@by_turns("lang", LANGUAGES)
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


# What each control group's scope holds on a wide screen, and whether the group still
# covers the top of the window once the reader has scrolled past the scope's end. Which
# charts and live tables a group moves is worked out here from the page data, on its own:
# a signal of the chart is one of the group's parameters, or its rows (a table's cells)
# differ between two grid points that differ in one of them alone.
SCOPES = """async () => {
  const article = document.querySelector("article[data-lesson]");
  const data = window.EXPLORER_DATA[article.dataset.lesson];
  const sizes = data.params.map(p => p.values.length);
  const keys = Object.keys(window.explorerLesson.data.points);
  const points = window.explorerLesson.data.points;
  const movedBy = names => {
    const dims = data.params.map((p, i) => names.includes(p.name) ? i : -1).filter(i => i >= 0);
    const changes = new Set();
    for (const key of keys) {
      const at = key.split("-").map(Number);
      for (const i of dims) {
        if (at[i] + 1 >= sizes[i]) continue;
        const next = at.slice(); next[i] += 1;
        const [a, b] = [points[key], points[next.join("-")]];
        for (const kind of ["d", "t"])
          for (const name of Object.keys(a[kind] || {}))
            if (a[kind][name] !== (b[kind] || {})[name]) changes.add(`${kind}:${name}`);
      }
    }
    return el => {
      const chart = data.charts[el.dataset.chart];
      if (chart) return chart.signals.some(s => names.includes(s)) ||
        chart.datasets.some(d => changes.has(`d:${d}`));
      // A lazy table's cells come in chunks the page data does not name per point; all of
      // the course's lazy tables (lesson 04's) change with every control.
      return changes.has(`t:${el.dataset.table}`) ||
        (data.tableChunks?.names ?? []).includes(el.dataset.table);
    };
  };
  const figures = "figure[data-chart], [data-table][data-live]";
  const within = n => Array.from(n.matches(figures) ? [n] : n.querySelectorAll(figures));
  const scopes = [];
  for (const scope of document.querySelectorAll(".control-scope")) {
    const form = scope.querySelector("form.controls");
    const names = Array.from(form.querySelectorAll("[data-param]"), i => i.dataset.param);
    const moved = movedBy(names);
    const inside = Array.from(scope.querySelectorAll(figures));
    const last = scope.lastElementChild;
    // Up to the next group: what follows the scope, and the figures there this group moves.
    const after = [];
    for (let node = scope.nextElementSibling; node && !node.matches(".control-scope");
         node = node.nextElementSibling) after.push(node);
    const movedAfter = after.flatMap(within).filter(moved).map(f => f.id);
    let covers = null;
    if (after.length && getComputedStyle(form).position === "sticky") {
      after[0].scrollIntoView({ block: "start" });
      await new Promise(requestAnimationFrame);
      const bar = form.getBoundingClientRect();
      const next = after[0].getBoundingClientRect();
      covers = bar.bottom > Math.max(0, next.top) + 1;
    }
    scopes.push({
      form: form.getAttribute("aria-label"),
      lastMoves: form === last || within(last).some(moved),
      movedInside: inside.filter(moved).length,
      movedAfter,
      cut: after.length > 0,
      covers,
    });
  }
  return scopes;
}"""


def check_groups_unpin(page: Page, path: str) -> None:
    """Issue 22: a group's scope ends at the last chart or live table it moves, so once the
    reader is past it the group no longer covers what follows (lesson 05's last sections).
    Run on a wide screen, in the wide-screen pass of every lesson page
    (tests/test_browser_pages.py)."""
    scopes = page.evaluate(SCOPES)
    assert scopes, path
    # Each lesson has text after the last figure of some group, which the group left.
    assert any(scope["cut"] for scope in scopes), f"{path}: {scopes}"
    for scope in scopes:
        assert scope["lastMoves"], f"{path}: {scope}"
        assert not scope["movedAfter"], f"{path}: {scope}"
        assert scope["covers"] is not True, f"{path}: {scope}"


PINNED = """() => Array.from(document.querySelectorAll("form.controls")).map(form => ({
  position: getComputedStyle(form).position,
  pinned: form.closest(".control-scope").classList.contains("is-pinned"),
  quarter: form.offsetHeight * 4 <= innerHeight,
}))"""


@pytest.mark.browser
def test_a_lesson_can_keep_its_controls_unpinned(browser: Browser, sample_project: Path) -> None:
    """Front matter ``pin_controls: false``: no group is pinned on a wide screen, where the
    same lesson without it pins its group (one no taller than a quarter of the window)."""
    shown = {}
    for pin in (True, False):
        if not pin:
            for lang in LANGUAGES:
                lesson = sample_project / "content" / lang / "01-dice.md"
                text = lesson.read_text("utf-8").replace(
                    "order: 1\n", "order: 1\npin_controls: false\n"
                )
                lesson.write_text(text, "utf-8")
        out = sample_project.parent / f"served-{pin}" / "course-repo"
        build(load_project(sample_project), out, jobs=1)
        context = browser.new_context(viewport=WIDE)
        try:
            for lang in LANGUAGES:
                path = f"{PREFIX[lang]}01-dice.html"
                page, watch = open_page(context, Site(base=out.as_uri() + "/", folder=out), path)
                page.wait_for_selector(READY, state="attached")
                shown[pin, lang] = page.evaluate(PINNED)
                watch.assert_clean(f"{path} pin_controls={pin}")
        finally:
            context.close()
    for lang in LANGUAGES:
        pinned, unpinned = shown[True, lang], shown[False, lang]
        assert pinned and all(form["quarter"] for form in pinned), pinned
        assert {(f["position"], f["pinned"]) for f in pinned} == {("sticky", True)}, pinned
        assert len(unpinned) == len(pinned), unpinned
        assert {(f["position"], f["pinned"]) for f in unpinned} == {("static", False)}, unpinned
