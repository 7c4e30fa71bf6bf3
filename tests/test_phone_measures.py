"""The phone measures of tests/phone_measures.py find what they look for, and only that: on a
hand-made chart whose cut and overprinted texts are known."""

from __future__ import annotations

import pytest
from phone_measures import CHART_TEXTS, CUT_TOLERANCE_PX, OVERPRINT_SHARE, TARGETS, THUMB_PX
from playwright.sync_api import Browser

CHART = """<!doctype html><html><body style="margin:0">
<figure data-chart="probe" style="margin:0">
  <div data-chart-view style="width:150px; overflow-x:auto">
    <div class="chart-live">
      <svg xmlns="http://www.w3.org/2000/svg" width="200" height="160"
           style="font-family:sans-serif; font-size:11px">
        <defs><clipPath id="plot"><rect x="0" y="100" width="60" height="60"/></clipPath></defs>
        <text x="10" y="20">overprinted once</text>
        <text x="12" y="22">overprinted twice</text>
        <text x="10" y="40" opacity="0">hidden under</text>
        <text x="10" y="41">not under a hidden one</text>
        <text x="100" y="70">past the scroll box</text>
        <text x="10" y="8" font-size="14">half above</text>
        <g transform="translate(40,95)"><text transform="rotate(-45)">slanted label one</text></g>
        <g transform="translate(55,95)"><text transform="rotate(-45)">slanted label two</text></g>
        <g clip-path="url(#plot)"><text x="20" y="130">clipped by the plot</text></g>
      </svg>
    </div>
  </div>
</figure></body></html>"""


@pytest.mark.browser
def test_chart_text_measure_finds_cut_and_overprinted_texts(browser: Browser):
    page = browser.new_page(viewport={"width": 390, "height": 400})
    try:
        page.set_content(CHART)
        (chart,) = page.evaluate(CHART_TEXTS, [OVERPRINT_SHARE, CUT_TOLERANCE_PX])
    finally:
        page.close()
    assert chart["chart"] == "probe"
    assert chart["texts"] == 8  # the transparent text is not drawn
    assert sorted(text["text"] for text in chart["cut"]) == [
        "clipped by the plot",
        "half above",
        "past the scroll box",
    ]
    # Rotated labels 15 px apart share little of their slanted boxes, though their upright
    # bounding boxes would overlap by most of their area.
    assert [(pair["a"], pair["b"]) for pair in chart["overprints"]] == [
        ("overprinted once", "overprinted twice")
    ]


TARGET_PAGE = """<!doctype html><html><body style="margin:0; font-size:16px">
<a class="skip" href="#main" style="position:absolute; left:-999px">Skip</a>
<nav class="toc"><a href="#a">Contents entry</a></nav>
<p>A sentence with <a href="#b">an inline link</a> in it.</p>
<p><a href="#c" style="display:inline-block; min-height:44px; min-width:44px">A link alone</a></p>
<label style="display:inline-block; height:50px; width:80px"><input type="radio"> Big</label>
<label><input type="radio" name="r"> small</label>
<input type="range" style="width:200px">
<span style="position:absolute; width:1px; height:1px; overflow:hidden; clip-path:inset(50%)">
  <button>hidden</button></span>
<div class="quiz"><label class="quiz-option"><input type="radio" name="q"> An answer</label></div>
</body></html>"""


@pytest.mark.browser
def test_target_measure_finds_every_tappable_box_but_inline_and_hidden_ones(browser: Browser):
    page = browser.new_page(viewport={"width": 390, "height": 400})
    try:
        page.set_content(TARGET_PAGE)
        targets = {(t["kind"], t["name"]): t for t in page.evaluate(TARGETS)}
    finally:
        page.close()
    # The skip link (off-screen), the link inside a sentence and the hidden button are not.
    assert set(targets) == {
        ("link", "Contents entry"),
        ("link", "A link alone"),
        ("radio", "Big"),
        ("radio", "small"),
        ("slider", ""),
        ("quiz answer", "An answer"),
    }
    big = {name for (_, name), t in targets.items() if min(t["width"], t["height"]) >= THUMB_PX}
    assert big == {"A link alone", "Big"}  # a radio button is measured with its label
