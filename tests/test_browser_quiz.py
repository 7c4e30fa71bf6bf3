"""Predict-then-reveal questions in headless Chromium, from disk, with and without JavaScript.

The sample lesson gets one question per language (in a temporary copy: the sample itself
stays as the golden build expects it). Picking an answer must reveal the explanation with
the build's readout in it, say whether the pick was right, mark the right answer, and work
by keyboard; printing shows every explanation.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lessonpage import PREFIX, READY, TIMEOUT_MS, Site, Watch
from playwright.sync_api import Browser, BrowserContext, Page

from privacy_explorer.build import build
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import load_project

SAMPLE = Path(__file__).resolve().parent / "sample_project"
SLUG = "01-dice"
QUIZ = {
    "ko": (
        "{{< quiz >}}\n기준 눈을 높이면 비율은?\n- [x] 줄거나 그대로다\n- [ ] 늘어난다\n\n"
        "기준 이상인 눈이 줄기 때문이다. 지금 비율은 {{< readout share >}}이다.\n{{< /quiz >}}\n"
    ),
    "en": (
        "{{< quiz >}}\nRaise the threshold: the share?\n- [x] Falls or stays\n- [ ] Rises\n\n"
        "Fewer faces reach it. The share now is {{< readout share >}}.\n{{< /quiz >}}\n"
    ),
}


@pytest.fixture(scope="module")
def quiz_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The sample with a question on its lesson page, built and opened with ``file://``."""
    project = tmp_path_factory.mktemp("quiz") / "course"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("build"))
    for lang in LANGUAGES:
        page = project / "content" / lang / f"{SLUG}.md"
        page.write_text(page.read_text(encoding="utf-8") + "\n" + QUIZ[lang], encoding="utf-8")
    out = project.parent / "site"
    build(load_project(project), out, jobs=1)
    return Site(base=out.as_uri() + "/", folder=out)


@pytest.fixture
def no_script(browser: Browser) -> Iterator[BrowserContext]:
    """A context with JavaScript switched off: the question must still work (CSS only)."""
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


def open_lesson(context: BrowserContext, site: Site, lang: str) -> tuple[Page, Watch]:
    page = context.new_page()
    watch = Watch(page, site.base)
    page.goto(site.url(f"{PREFIX[lang]}{SLUG}.html"))
    return page, watch


def shown(page: Page, selector: str) -> bool:
    return page.locator(f"#quiz-1 {selector}").is_visible()


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_picking_an_answer_reveals_the_explanation_and_the_verdict(
    context: BrowserContext, quiz_site: Site, lang: str
) -> None:
    page, watch = open_lesson(context, quiz_site, lang)
    page.wait_for_selector(READY, state="attached")
    assert not shown(page, ".quiz-explanation") and shown(page, ".quiz-hint")
    assert not shown(page, ".is-right .quiz-mark")

    page.locator("#quiz-1 .quiz-option").nth(1).click()  # the wrong answer
    assert shown(page, ".quiz-explanation") and shown(page, ".quiz-verdict-wrong")
    assert not shown(page, ".quiz-verdict-right") and not shown(page, ".quiz-hint")
    assert shown(page, ".is-right .quiz-mark")  # the right answer is now marked
    status = page.locator("#quiz-1 [data-quiz-status]")
    assert status.text_content() == page.locator("#quiz-1 .quiz-verdict-wrong").text_content()
    # The evidence is the build's readout, the same text the rest of the page shows.
    evidence = page.locator("#quiz-1 .quiz-explanation [data-readout='share']").text_content()
    elsewhere = page.locator("p [data-readout='share']").first.text_content()
    assert evidence and evidence == elsewhere

    page.locator("#quiz-1 .quiz-option").nth(0).click()  # the right answer
    assert shown(page, ".quiz-verdict-right") and not shown(page, ".quiz-verdict-wrong")
    assert status.text_content() == page.locator("#quiz-1 .quiz-verdict-right").text_content()
    watch.assert_clean(f"{lang} quiz")
    page.close()


@pytest.mark.browser
def test_the_question_works_by_keyboard(context: BrowserContext, quiz_site: Site) -> None:
    page, _ = open_lesson(context, quiz_site, "en")
    first = page.locator("#quiz-1 input[type=radio]").first
    first.focus()
    assert not shown(page, ".quiz-explanation")
    page.keyboard.press("Space")
    assert first.is_checked() and shown(page, ".quiz-verdict-right")
    # The group has an accessible name: the question.
    name = page.evaluate(
        "() => document.getElementById(document.querySelector('#quiz-1 fieldset')"
        ".getAttribute('aria-labelledby')).textContent.trim()"
    )
    assert name == "Raise the threshold: the share?"
    page.close()


@pytest.mark.browser
def test_without_javascript_the_pick_still_reveals(no_script: BrowserContext, quiz_site: Site):
    page, _ = open_lesson(no_script, quiz_site, "ko")
    assert not shown(page, ".quiz-explanation")
    page.locator("#quiz-1 .quiz-option").nth(0).click()
    assert shown(page, ".quiz-explanation") and shown(page, ".quiz-verdict-right")
    page.close()


@pytest.mark.browser
def test_print_shows_every_explanation_and_the_right_answer(
    context: BrowserContext, quiz_site: Site
) -> None:
    page, _ = open_lesson(context, quiz_site, "en")
    page.emulate_media(media="print")
    assert shown(page, ".quiz-explanation") and shown(page, ".is-right .quiz-mark")
    assert not shown(page, ".quiz-verdict-wrong") and not shown(page, ".quiz-hint")
    page.close()
