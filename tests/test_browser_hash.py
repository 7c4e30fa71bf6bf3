"""Any URL hash is safe: a fuzz of random and hostile hashes on every lesson page of the course.

A learner may arrive with a hash that was cut short, pasted twice, edited by hand or made
up (``#epochs=%E0%A4%A``). The page must never throw: what it cannot read falls back to
the default, what it can read still sets the controls. Each page is checked against
:func:`expected_state`, a reference reading of the hash written here from the rules the
runtime documents (explorer.js, ``readHash``), on the hash exactly as the browser holds it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from lessonpage import PREFIX, READY, Site, open_page
from playwright.sync_api import BrowserContext, Page
from test_browser_pages import LESSONS

from privacy_explorer.build import BuildReport, build
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.project import load_project

SEED = 14
"""Issue 14: the fuzz is the same on every run, so a failure can be replayed."""
HASHES_PER_PAGE = 300
FRESH_LOADS = (0, 1, 3, 4, 8)
"""Which of the fixed hostile hashes the pages are also opened with (one per page, by turns:
:func:`fresh_load`): the runtime's first reading, on load, before any hashchange."""
HASH_LIMIT = 8192
"""The runtime reads this many characters of a hash at most (explorer.js, ``HASH_LIMIT``)."""

ESCAPE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

Params = list[dict[str, Any]]
"""The page data's parameters: name, values, canonical texts, default index."""


def decode_component(text: str) -> str | None:
    """What JavaScript's ``decodeURIComponent`` gives, or ``None`` where it throws URIError.

    A ``%`` must start two hex digits, and each run of escapes must be well-formed UTF-8.
    """
    decoded = []
    position = 0
    for match in ESCAPE.finditer(text):
        decoded.append(text[position : match.start()])
        try:
            decoded.append(bytes.fromhex(match.group().replace("%", "")).decode("utf-8"))
        except UnicodeDecodeError:
            return None
        position = match.end()
    decoded.append(text[position:])
    if "%" in ESCAPE.sub("", text):
        return None  # a "%" that starts no escape
    return "".join(decoded)


def expected_state(
    params: Params, hash_: str, base: dict[str, int] | None = None
) -> dict[str, int]:
    """The state the page must show for ``hash_`` (as ``location.hash`` gives it).

    Every parameter starts at its value in ``base`` (the state before a hashchange), or at
    its default when the page opens; each ``name=value`` pair whose parts decode, whose
    name is a parameter and whose value one of its texts sets it (the last one wins).
    """
    state = dict(base) if base else {p["name"]: p["default"] for p in params}
    by_name = {p["name"]: p for p in params}
    for pair in hash_.removeprefix("#")[:HASH_LIMIT].split("&"):
        name_part, eq, value_part = pair.partition("=")
        if not eq:
            continue
        name, text = decode_component(name_part), decode_component(value_part)
        if name is None or text is None or name not in by_name:
            continue
        if text in by_name[name]["texts"]:
            state[name] = by_name[name]["texts"].index(text)
    return state


def test_the_reference_decoder_agrees_with_javascript_on_known_cases():
    assert decode_component("%E0%A4%A4") == "\u0924"
    assert decode_component("%E0%A4%A") is None
    assert decode_component("100%") is None
    assert decode_component("%zz") is None
    assert decode_component("%C3") is None  # a cut UTF-8 sequence
    assert decode_component("%ED%A0%80") is None  # a lone surrogate
    assert decode_component("a%20b%2B%26") == "a b+&"
    assert decode_component("엡실론") == "엡실론"
    params = [{"name": "epsilon", "texts": ["0.5", "1"], "default": 1}]
    assert expected_state(params, "#epsilon=0.5&epsilon=%E0&epsilon=2") == {"epsilon": 0}
    assert expected_state(params, "#epsilon=0.5&epsilon=1") == {"epsilon": 1}
    assert expected_state(params, "#x" * 5000 + "&epsilon=0.5") == {"epsilon": 1}


HOSTILE_PIECES = [
    "%E0%A4%A",
    "%",
    "%%",
    "%zz",
    "%C3",
    "%ED%A0%80",
    "%FF",
    "%00",
    "=",
    "==",
    "&",
    "&&",
    "#",
    "?",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "prototype",
    "NaN",
    "-1",
    "1e309",
    "Infinity",
    "null",
    "undefined",
    "<script>alert(1)</script>",
    "'\"",
    " ",
    "+",
    "엡실론",
    "ε",
    "🙂",
    "\u200b",
]


def random_hash(rng: random.Random, params: Params) -> str:
    """A hash built from pieces of valid pairs, garbage, escapes and hostile names."""
    pairs = []
    for _ in range(rng.randint(0, 8)):
        param = rng.choice(params)
        kind = rng.random()
        if kind < 0.3:  # a valid pair, perhaps percent-encoded character by character
            text = rng.choice(param["texts"])
            if rng.random() < 0.3:
                text = "".join(f"%{byte:02X}" for byte in text.encode())
            pairs.append(f"{param['name']}={text}")
        elif kind < 0.5:  # a known name, a made-up or broken value
            pairs.append(f"{param['name']}={rng.choice(HOSTILE_PIECES)}{rng.randint(0, 99)}")
        elif kind < 0.65:  # a made-up name, a valid value
            pairs.append(f"{rng.choice(HOSTILE_PIECES)}={rng.choice(param['texts'])}")
        elif kind < 0.8:  # a value of another parameter
            other = rng.choice(params)
            pairs.append(f"{param['name']}={rng.choice(other['texts'])}")
        else:  # noise
            pairs.append("".join(rng.choice(HOSTILE_PIECES) for _ in range(rng.randint(1, 4))))
    return "&".join(pairs)


def hostile_hashes(rng: random.Random, params: Params) -> list[str]:
    """The fixed hostile cases first, then random ones, ``HASHES_PER_PAGE`` in all."""
    first, last = params[0], params[-1]
    fixed = [
        f"{first['name']}=%E0%A4%A",
        "%E0%A4%A=%E0%A4%A",
        f"{first['name']}={first['texts'][-1]}&{first['name']}={first['texts'][0]}",
        f"{first['name']}={first['texts'][-1]}&{first['name']}=%zz",
        f"__proto__={first['texts'][0]}&constructor=1&toString=x",
        f"{last['name']}",
        f"={last['texts'][-1]}",
        "&&&===",
        "x=" + "A" * 100_000,
        "a=b&" * 10_000 + f"{first['name']}={first['texts'][-1]}",  # past the limit: ignored
        f"{first['name']}={first['texts'][-1]}&" + "%" * 50_000,
    ]
    return fixed + [random_hash(rng, params) for _ in range(HASHES_PER_PAGE - len(fixed))]


# What the page shows now, then after each hash in turn: the hash as the browser holds it,
# the point the page shows and every control. Every REDRAW_EVERY-th hash is set as a learner
# would (location.hash: the hashchange event, then every chart redrawn); the others are read
# by the runtime's own readState() and shown on the controls without the chart redraw, which
# keeps a few hundred hashes per page quick.
REDRAW_EVERY = 12
APPLY_HASHES = """async ({ hashes, redrawEvery }) => {
  const lesson = window.explorerLesson;
  const article = document.querySelector("article[data-lesson]");
  const shown = [read(true)];
  for (const [number, hash] of hashes.entries()) {
    if (number % redrawEvery === 0) {
      const before = window.location.hash;
      const changed = new Promise(resolve =>
        window.addEventListener("hashchange", resolve, { once: true }));
      window.location.hash = hash;
      if (window.location.hash !== before) await changed;
      await lesson.apply();
      shown.push(read(true));
    } else {
      window.history.replaceState(null, "", "#" + hash);
      lesson.readState(lesson.state);
      lesson.syncControls();
      shown.push(read(false));
    }
  }
  return shown;

  // Every instance of a control (a parameter may sit beside several figures): one value each.
  function read(drawn) {
    const state = {};
    const problems = [];
    for (const control of article.querySelectorAll(".control")) {
      const inputs = Array.from(control.querySelectorAll("[data-param]"));
      const name = inputs[0].dataset.param;
      state[name] = state[name] ?? [];
      if (inputs.some(input => input.disabled)) problems.push(`${name} is disabled`);
      if (inputs[0].type === "radio") {
        const checked = inputs.filter(input => input.checked).map(input => Number(input.value));
        if (checked.length !== 1) problems.push(`${name} has ${checked.length} checked`);
        state[name].push(...checked);
      } else {
        const input = inputs[0];
        const index = Number(input.value);
        const count = input.tagName === "SELECT" ? input.options.length : Number(input.max) + 1;
        if (!(Number.isInteger(index) && index >= 0 && index < count))
          problems.push(`${name} shows ${input.value}`);
        state[name].push(index);
      }
    }
    const point = drawn ? article.dataset.point : lesson.key();
    return { hash: window.location.hash, point, controls: state, problems };
  }
}"""


def lesson_pages(report: BuildReport) -> list[str]:
    return [f"{PREFIX[lang]}{slug}.html" for slug in report.lessons for lang in LANGUAGES]


def check_shown(
    params: Params, shown: dict[str, Any], what: str, base: dict[str, int] | None = None
) -> dict[str, int]:
    """Assert the page shows what ``shown["hash"]`` names over ``base``; returns that state."""
    state = expected_state(params, shown["hash"], base)
    key = "-".join(str(state[p["name"]]) for p in params)
    assert not shown["problems"], f"{what}: {shown['problems']}"
    assert shown["point"] == key, f"{what}: shows {shown['point']}, not {key}"
    # Each instance of each control shows the one state.
    assert {name: set(values) for name, values in shown["controls"].items()} == {
        name: {index} for name, index in state.items()
    }, what
    return state


@pytest.mark.early
@pytest.mark.browser
def test_a_hash_naming_first_values_opens_the_sample_lesson_there(
    context: BrowserContext, sample_project: Path, tmp_path: Path
):
    """The hash parser on the small sample course, so that a breakage of it fails the run in
    its first minutes (the fuzz below needs the real course): a hash naming every parameter's
    first value, or its last, sets the page there on a hashchange and on load."""
    out = tmp_path / "site"
    build(load_project(sample_project), out, jobs=1)
    site = Site(base=out.as_uri() + "/", folder=out)
    page, watch = open_page(context, site, "01-dice.html")
    page.wait_for_selector(READY, state="attached")
    params = page.evaluate("() => window.explorerLesson.params")
    assert any(p["default"] != 0 for p in params), "some default must not be the first"
    at = {
        "first": {p["name"]: 0 for p in params},
        "last": {p["name"]: len(p["texts"]) - 1 for p in params},
    }
    hashes = {
        end: "&".join(f"{p['name']}={p['texts'][state[p['name']]]}" for p in params)
        for end, state in at.items()
    }
    for end in ("last", "first"):  # a hashchange on the open page
        key = "-".join(str(at[end][p["name"]]) for p in params)
        page.evaluate("hash => { window.location.hash = hash; }", hashes[end])
        page.wait_for_function(
            "key => document.querySelector('article[data-lesson]').dataset.point === key",
            arg=key,
        )
    watch.assert_clean("hashchange")
    page.close()
    page, watch = open_page(context, site, f"01-dice.html#{hashes['first']}")  # on load
    page.wait_for_selector(READY, state="attached")
    assert read_point(page) == "-".join("0" for _ in params), hashes["first"]
    watch.assert_clean("first values on load")


@pytest.mark.browser
@pytest.mark.parametrize("path", LESSONS)
def test_any_hash_is_read_safely_and_a_valid_one_round_trips_on_every_lesson(
    context: BrowserContext, course_site: tuple[Path, BuildReport], site_server: str, path: str
):
    """Every lesson page: a seeded fuzz of hostile hashes, then a valid hash that sets its
    state, follows a control and opens again as the page wrote it, and the page opened once
    at a hostile hash. Three loads a page; over file:// or http by turns (each lesson gets
    both), since hashes read the same either way."""
    folder, report = course_site
    assert path in lesson_pages(report)
    number = LESSONS.index(path)
    on_disk = Site(base=folder.as_uri() + "/", folder=folder)
    served = Site(base=site_server, folder=folder)
    site = served if (number // 2 + number) % 2 else on_disk
    rng = random.Random(f"{SEED}:{path}")  # one seeded fuzz per page, each test on its own
    page, watch = open_page(context, site, path)
    page.wait_for_selector(READY, state="attached")
    params = page.evaluate("() => window.explorerLesson.params")
    hashes = hostile_hashes(rng, params)
    shown = page.evaluate(APPLY_HASHES, {"hashes": hashes, "redrawEvery": REDRAW_EVERY})
    current = check_shown(params, shown[0], f"{path} without a hash")
    for at, (hash_, after) in enumerate(zip(hashes, shown[1:], strict=True)):
        current = check_shown(params, after, f"{path} hash {at} {hash_[:80]!r}", current)
    watch.assert_clean(f"{path} after {len(hashes)} hashes")

    # A valid hash round trips: set on the same page, a control moved, the page reopened.
    round_trip(page, context, site, path, params, rng)
    watch.assert_clean(path)
    page.close()

    # The first reading, on load: the page opens at a hostile hash and still comes alive.
    fixed = fresh_load(number)
    page, watch = open_page(context, site, f"{path}#{hashes[fixed]}")
    page.wait_for_selector(READY, state="attached")
    opened = page.evaluate(APPLY_HASHES, {"hashes": [], "redrawEvery": 1})[0]
    check_shown(params, opened, f"{path} opened at {fixed}")
    watch.assert_clean(f"{path} opened at hash {fixed}")
    page.close()


def fresh_load(number: int) -> int:
    """Which fixed hostile hash the ``number``-th lesson page is opened at: each of
    :data:`FRESH_LOADS` by turns, so that across the pages each is opened at twice or more."""
    return FRESH_LOADS[number % len(FRESH_LOADS)]


def valid_hash(rng: random.Random, params: Params) -> tuple[str, dict[str, int]]:
    """A hash naming a random grid point in the parameters' texts, pairs in random order."""
    state = {p["name"]: rng.randrange(len(p["texts"])) for p in params}
    pairs = [f"{p['name']}={p['texts'][state[p['name']]]}" for p in params]
    rng.shuffle(pairs)
    return "&".join(pairs), state


def read_point(page: Page) -> str:
    return page.evaluate("document.querySelector('article[data-lesson]').dataset.point")


def round_trip(
    page: Page,
    context: BrowserContext,
    site: Site,
    path: str,
    params: Params,
    rng: random.Random,
) -> None:
    """Set a random valid state (pairs in random order) as a learner's edited link would, move
    a control, and reopen the page at the hash it wrote: on load it shows that state."""
    hash_, state = valid_hash(rng, params)
    key = "-".join(str(state[p["name"]]) for p in params)
    page.evaluate("hash => { window.location.hash = hash; }", hash_)
    page.wait_for_function(
        "key => document.querySelector('article[data-lesson]').dataset.point === key", arg=key
    )
    assert read_point(page) == key, f"{path}#{hash_}"

    # Move the first control to another value; the page writes every setting in the hash.
    first = params[0]
    name = first["name"]
    moved = (state[name] + 1) % len(first["texts"])
    kind = page.evaluate(f"document.querySelector(\"[data-param='{name}']\").type")
    if kind == "select-one":
        page.locator(f"select[data-param='{name}']").first.select_option(str(moved))
    elif kind == "range":
        page.locator(f"input[data-param='{name}']").first.focus()
        page.keyboard.press("ArrowRight" if moved else "Home")
    else:
        page.locator(f"input[data-param='{name}'][value='{moved}']").first.check()
    state[name] = moved
    key = "-".join(str(state[p["name"]]) for p in params)
    page.wait_for_function(
        "key => document.querySelector('article[data-lesson]').dataset.point === key", arg=key
    )
    written = page.evaluate("window.location.hash")
    assert expected_state(params, written) == state, written
    assert len(written.removeprefix("#").split("&")) == len(params), written

    reopened, watch = open_page(context, site, f"{path}{written}")
    reopened.wait_for_selector(READY, state="attached")
    assert read_point(reopened) == key, f"{path}{written}"
    watch.assert_clean(f"{path}{written}")
    reopened.close()
