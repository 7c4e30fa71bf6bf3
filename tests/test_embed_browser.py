"""Embed pages in an LMS frame, the language switch, and the 404 page, in headless Chromium.

The host page is the README's own snippet (iframe + listener), served from another
port than the site, so the frame is cross-origin, and sandboxed without
``allow-same-origin``, as a careful LMS would have it.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from lessonpage import PREFIX, READY, TIMEOUT_MS, LessonPage, Site, open_page, settle
from playwright.sync_api import BrowserContext, Frame, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from privacy_explorer.cli import cli
from privacy_explorer.compute.lessons import differential_privacy as dp
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.serve import make_server

REPO = Path(__file__).resolve().parent.parent
SLUG = "03-differential-privacy"
DP = LessonPage(dp, SLUG)
README_SRC = "https://OWNER.github.io/REPO/en/embed/03-differential-privacy.html"


def readme_host_snippet() -> str:
    """The iframe and listener that README.md tells an instructor to paste."""
    section = (REPO / "README.md").read_text("utf-8").split("### Embed a lesson in an LMS", 1)[1]
    snippet = section.split("```html", 1)[1].split("```", 1)[0]
    assert README_SRC in snippet and "sandbox=" in snippet
    return snippet


@pytest.fixture(scope="module")
def host_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A second server, on another port: the LMS."""
    folder = tmp_path_factory.mktemp("lms")
    server = make_server(folder, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", folder
    server.shutdown()
    server.server_close()


def host_page(folder: Path, name: str, src: str) -> None:
    snippet = readme_host_snippet().replace(README_SRC, src)
    (folder / name).write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Course page</title>'
        '<link rel="icon" href="data:,"></head>\n<body style="margin:0">'
        "<h1>Week 3</h1>\n<script>window.messages = [];"
        'window.addEventListener("message", function (e) { window.messages.push(e.data); });'
        f"</script>\n{snippet}\n<p id='after'>After the lesson.</p></body></html>\n",
        "utf-8",
    )


def lesson_frame(page: Page) -> Frame:
    page.wait_for_function(
        "() => document.getElementById('lesson-03').contentWindow !== null", timeout=TIMEOUT_MS
    )
    frame = page.frame_locator("#lesson-03").locator(READY)
    frame.wait_for(state="attached")
    return next(f for f in page.frames if f.url.split("#")[0].endswith(f"embed/{SLUG}.html"))


def frame_fits(page: Page, frame: Frame) -> dict[str, float]:
    inner = frame.evaluate(
        "() => ({scroll: document.documentElement.scrollHeight, view: window.innerHeight,"
        " content: document.documentElement.getBoundingClientRect().height})"
    )
    outer = page.evaluate("document.getElementById('lesson-03').getBoundingClientRect().height")
    return {**inner, "outer": outer}


def settled_fits(page: Page, frame: Frame) -> dict[str, float]:
    """:func:`frame_fits` once the frame is as tall as the lesson in it and the last height
    the lesson posted (``explorer:resize``) is that height; as it stands at the time limit."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        fits = frame_fits(page, frame)
        posted = page.evaluate(
            "() => window.messages"
            ".filter(m => m && m.type === 'explorer:resize').map(m => m.height)"
        )
        fitting = abs(fits["outer"] - fits["content"]) <= 1
        if (fitting and posted and posted[-1] == round(fits["outer"])) or (
            time.monotonic() > deadline
        ):
            return fits
        try:  # until the lesson posts again or the frame changes height
            page.wait_for_function(
                "([count, outer]) => window.messages.length > count || "
                "document.getElementById('lesson-03').getBoundingClientRect().height !== outer",
                arg=[page.evaluate("window.messages.length"), fits["outer"]],
                timeout=max(1.0, (deadline - time.monotonic()) * 1000),
            )
        except PlaywrightTimeout:
            return frame_fits(page, frame)


@pytest.mark.browser
def test_a_sandboxed_cross_origin_frame_grows_to_the_lesson_and_its_controls_work(
    context: BrowserContext, site_server: str, host_server: tuple[str, Path]
):
    host, folder = host_server
    lang = "en"
    host_page(folder, "week3.html", f"{site_server}{PREFIX[lang]}embed/{SLUG}.html")
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(host + "week3.html")
    frame = lesson_frame(page)
    frame.evaluate("async () => { await document.fonts.ready; }")

    # The frame grows to the whole lesson: no inner scrollbar, the page's scrollbar only.
    page.wait_for_function(
        "() => document.getElementById('lesson-03').getBoundingClientRect().height > 3000",
        timeout=TIMEOUT_MS,
    )
    fits = settled_fits(page, frame)
    assert fits["scroll"] <= fits["view"] and abs(fits["outer"] - fits["content"]) <= 1, fits
    messages = page.evaluate("window.messages")
    plain = [m for m in messages if isinstance(m, dict) and m.get("type") == "explorer:resize"]
    canvas = [m for m in messages if isinstance(m, dict) and m.get("subject") == "lti.frameResize"]
    assert plain and canvas and plain[-1]["height"] == canvas[-1]["height"] == round(fits["outer"])

    # Nothing the lesson needs is blocked in the sandbox: the math face and the text face load.
    faces = frame.evaluate(
        """() => Array.from(document.fonts).map(f => [f.family.replace(/["']/g, ""), f.status])"""
    )
    assert ["Noto Sans Math", "loaded"] in faces and ["Noto Sans KR Explorer", "loaded"] in faces
    chrome = frame.evaluate("document.querySelectorAll('.site-header, .site-footer').length")
    assert chrome == 0

    # The controls work inside the frame.
    DP.wait_for_point(frame, DP.default_state())
    page.frame_locator("#lesson-03").locator("input[type=range][data-param=epsilon]").first.focus()
    page.keyboard.press("End")
    state = {**DP.default_state(), "epsilon": len(dp.GRID.param("epsilon").values) - 1}
    DP.wait_for_point(frame, state)
    DP.assert_shows(frame, state, lang)
    page.frame_locator("#lesson-03").locator("input[type=radio][data-param=query]").nth(1).click()
    state = {**state, "query": 1}
    DP.wait_for_point(frame, state)
    DP.assert_shows(frame, state, lang)
    fits = settled_fits(page, frame)
    assert fits["scroll"] <= fits["view"] and abs(fits["outer"] - fits["content"]) <= 1, fits

    # A narrower window makes a taller lesson, and the frame follows.
    before = fits["outer"]
    page.set_viewport_size({"width": 480, "height": 800})
    page.wait_for_function(
        "h => document.getElementById('lesson-03').getBoundingClientRect().height > h",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    fits = settled_fits(page, frame)
    assert fits["scroll"] <= fits["view"] and abs(fits["outer"] - fits["content"]) <= 1, fits

    # Links that leave the lesson open a new tab; the language switch stays in the frame.
    targets = frame.evaluate(
        """() => Array.from(document.querySelectorAll("a[href]:not([href^='#'])"))
          .map(a => [a.hasAttribute("data-lang-switch"), a.target])"""
    )
    assert targets and all(t == ("" if switch else "_blank") for switch, t in targets), targets
    assert not problems, problems
    outside = [u for u in requests if not u.startswith((site_server, host, "data:"))]
    assert not outside, outside
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize("popups", [True, False], ids=["readme-sandbox", "scripts-only"])
def test_a_link_that_leaves_the_lesson_opens_a_tab_or_shows_its_address_to_copy(
    context: BrowserContext, site_server: str, host_server: tuple[str, Path], popups: bool
):
    """With README's sandbox the link opens a new tab; where the sandbox blocks new tabs it
    shows the address to copy, instead of doing nothing without a word."""
    host, folder = host_server
    lang = "ko"
    name = f"links-{'popups' if popups else 'scripts'}.html"
    host_page(folder, name, f"{site_server}{PREFIX[lang]}embed/{SLUG}.html")
    if not popups:
        text = (folder / name).read_text("utf-8")
        sandbox = re.search(r'sandbox="[^"]*"', text)
        assert sandbox is not None
        (folder / name).write_text(text.replace(sandbox.group(0), 'sandbox="allow-scripts"'))
    page = context.new_page()
    page.goto(host + name)
    frame = lesson_frame(page)
    link = page.frame_locator("#lesson-03").locator(".embed-bar a:not([data-lang-switch])")
    href = frame.evaluate(
        "() => document.querySelector('.embed-bar a:not([data-lang-switch])').href"
    )
    assert href.startswith(site_server) and href.endswith(f"{SLUG}.html")
    if popups:
        with context.expect_page() as opened:
            link.click()
        tab = opened.value
        tab.wait_for_load_state()
        assert tab.url.split("#")[0] == href
        assert tab.evaluate("window.opener") is None
        assert frame.evaluate("document.querySelectorAll('.link-blocked').length") == 0
        tab.close()
    else:
        pages = len(context.pages)
        link.click()
        note = page.frame_locator("#lesson-03").locator(".link-blocked[role=status]")
        note.wait_for()
        field = note.locator("input")
        assert field.input_value() == href
        assert field.evaluate("f => document.activeElement === f && f.readOnly")
        assert "새 탭" in note.inner_text()
        assert field.evaluate("f => f.getBoundingClientRect().height") >= 44
        link.click()  # again: the same note, not a second one
        assert note.count() == 1 and len(context.pages) == pages
    page.close()


def switch_and_check(page: Page, site: Site, path: str, state: dict[str, int], lang: str) -> None:
    page.locator("[data-lang-switch]").click()
    page.wait_for_url(site.url(path) + "#*")
    page.wait_for_selector(READY, state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    DP.wait_for_point(page, state)
    DP.assert_shows(page, state, lang)


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["site", "embed"])
def test_switching_language_keeps_the_lesson_and_every_control_setting(
    context: BrowserContext, site: Site, kind: str
):
    first, second = LANGUAGES
    folder = "" if kind == "site" else "embed/"
    path = {lang: f"{PREFIX[lang]}{folder}{SLUG}.html" for lang in LANGUAGES}
    hash_ = "#query=mean&epsilon=0.2&releases=12&clip=80"
    page, watch = open_page(context, site, path[first] + hash_)
    page.wait_for_selector(READY, state="attached")
    state = {"query": 1, "epsilon": 2, "releases": 11, "clip": 2}
    DP.wait_for_point(page, state)
    switch_and_check(page, site, path[second], state, second)

    # Settings changed with the controls (not from the URL) travel too, and back again.
    page.locator("input[type=range][data-param=releases]").first.focus()
    page.keyboard.press("Home")
    state = {**state, "releases": 0}
    DP.wait_for_point(page, state)
    switch_and_check(page, site, path[first], state, first)
    watch.assert_clean(f"language switch ({kind})")


@pytest.mark.browser
def test_the_404_page_looks_like_the_site_and_leads_back_from_any_depth(
    context: BrowserContext, sample_project: Path, tmp_path: Path
):
    served = tmp_path / "served"
    server = make_server(served, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/course-repo/"
        result = CliRunner().invoke(
            cli,
            [
                "build",
                "--project",
                str(sample_project),
                "-j",
                "1",
                "--base-url",
                base,
                "--out",
                str(served / "course-repo"),
            ],
        )
        assert result.exit_code == 0, result.output
        site = Site(base=base, folder=served / "course-repo")
        # GitHub Pages answers a miss under /course-repo/ with its 404.html; this server, at /.
        (served / "404.html").write_bytes((site.folder / "404.html").read_bytes())
        for missing in ("nothing.html", "en/deep/er/nothing.html"):
            page, watch = open_page(context, site, missing)
            settle(page)
            style = page.evaluate(
                """() => ({
                  header: getComputedStyle(document.querySelector('.site-header')).backgroundColor,
                  faces: Array.from(document.fonts).filter(f => f.status === 'loaded')
                    .map(f => f.family.replace(/["']/g, '')),
                })"""
            )
            assert style["header"] == "rgb(244, 246, 250)", style  # the site's --wash
            assert "Noto Sans KR Explorer" in style["faces"], style
            page.locator("section[lang=en] a").click()
            page.wait_for_url(base + "en/")
            page.wait_for_selector("ol.lesson-list")
            # The miss itself answers 404, as it should; nothing else may fail.
            watch.problems = [p for p in watch.problems if site.url(missing) not in p]
            watch.assert_clean(f"404 at {missing}")
            page.close()
    finally:
        server.shutdown()
        server.server_close()
