"""Bad input gets a clear error, and nothing is lost.

Each case builds the sample project, breaks one input, builds again and checks
three things: a non-zero exit, the exact sentence the author reads (file, line
where known, what is wrong, what to do), and a previous site that is
byte-for-byte the same, with no half-written folder left beside it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from privacy_explorer.cli import cli

Edit = Callable[[Path], None]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def run_build(project: Path, *options: str) -> Result:
    return CliRunner().invoke(cli, ["build", "--project", str(project), "-j", "1", *options])


def replace(relative: str, old: str, new: str) -> Edit:
    """An edit that replaces the one occurrence of ``old`` in a project file."""

    def edit(project: Path) -> None:
        path = project / relative
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"{relative} should contain {old!r} once"
        path.write_text(text.replace(old, new), "utf-8")

    return edit


def replace_bytes(relative: str, old: bytes, new: bytes) -> Edit:
    def edit(project: Path) -> None:
        path = project / relative
        raw = path.read_bytes()
        assert raw.count(old) == 1
        path.write_bytes(raw.replace(old, new))

    return edit


def edits(*steps: Edit) -> Edit:
    def edit(project: Path) -> None:
        for step in steps:
            step(project)

    return edit


def write(relative: str, text: str) -> Edit:
    def edit(project: Path) -> None:
        (project / relative).write_text(text, "utf-8")

    return edit


def delete(relative: str) -> Edit:
    def edit(project: Path) -> None:
        (project / relative).unlink()

    return edit


@pytest.fixture
def built_sample(sample_project: Path) -> tuple[Path, dict[str, bytes]]:
    """The sample project after a successful build, and a snapshot of its site."""
    result = run_build(sample_project)
    assert result.exit_code == 0, result.output
    return sample_project, snapshot(sample_project / "build" / "site")


def assert_refused(result: Result, message: str, project: Path, site: dict[str, bytes]) -> None:
    """The build failed with exactly ``message``, wrote no summary and kept the old site."""
    assert result.exit_code == 1, result.output
    assert result.output.endswith(f"Error: {message}\n"), result.output
    assert result.stdout == ""  # no "Built ..." summary
    assert snapshot(project / "build" / "site") == site
    assert sorted(path.name for path in (project / "build").glob(".site.*")) == []


def own_templates(*steps: Edit) -> Edit:
    """Give the project a copy of the explorer's site_templates/, then apply ``steps`` to it."""

    def edit(project: Path) -> None:
        shutil.copytree(REPO / "site_templates", project / "site_templates")
        for step in steps:
            step(project)

    return edit


REPO = Path(__file__).resolve().parent.parent
DICE_KO = "content/ko/01-dice.md"
DICE_EN = "content/en/01-dice.md"
DICE_PY = "compute/dice.py"
RESTORE = (
    "restore the original file (git checkout -- data/rolls.csv), or if the change is "
    "intended, update its provenance and checksum in data/SOURCES.md"
)

CASES = [
    pytest.param(
        replace(DICE_KO, "order: 1\n", "order: 1: 2\n"),
        "content/ko/01-dice.md:4: malformed front matter: mapping values are not allowed here; "
        "write one 'key: value' per line (quote values that contain ':' or '#')",
        id="malformed-front-matter",
    ),
    pytest.param(
        edits(
            replace(DICE_KO, "compute: dice", "compute: die"),
            replace(DICE_EN, "compute: dice", "compute: die"),
            write("compute/helpers.py", "FACES = 6\n"),  # not a lesson module: not listed
        ),
        "content/ko/01-dice.md:5: compute module 'die' does not exist in compute/ "
        "(known modules: dice); fix the 'compute:' key or add the module",
        id="unknown-compute-module",
    ),
    pytest.param(
        replace(DICE_KO, "{{< chart faces >}}", "{{< chart histogram >}}"),
        "content/ko/01-dice.md:15: unknown chart 'histogram'; dice defines: faces",
        id="unknown-chart",
    ),
    pytest.param(
        replace(DICE_EN, "{{< readout share >}}", "{{< readout mean >}}"),
        "content/en/01-dice.md:12: unknown readout 'mean'; dice defines: share, rolls",
        id="unknown-readout",
    ),
    pytest.param(
        replace(
            DICE_KO, "{{< chart faces >}}", "{{< chart faces >}}\n\n{{< changes share odds >}}"
        ),
        "content/ko/01-dice.md:17: unknown readout or table 'odds'; dice defines: share, rolls, "
        "faces, by_threshold",
        id="unknown-changes",
    ),
    pytest.param(
        replace(DICE_KO, "{{< controls >}}", "{{< controls threshold sides >}}"),
        "content/ko/01-dice.md:10: unknown control 'sides'; dice defines: threshold, prior",
        id="unknown-control",
    ),
    pytest.param(
        replace(DICE_PY, '"threshold", (2, 3, 4, 5, 6), 4', '"threshold", 5, 4'),
        "compute/dice.py:17: grid parameter 'threshold' values must be a list, got 5; "
        "write e.g. values=(0.1, 1.0)",
        id="grid-values-not-a-list",
    ),
    pytest.param(
        replace(DICE_PY, "        ),\n    )\n)", "        ),\n    ),\n    group_by=('seed',),\n)"),
        "compute/dice.py: GRID group_by names 'seed', which is not a grid parameter; "
        "use one of: threshold, prior",
        id="group-by-unknown-parameter",
    ),
    pytest.param(
        replace(DICE_PY, "        ),\n    )\n)", "        ),\n    ),\n    group_by='prior',\n)"),
        "compute/dice.py: GRID group_by must be a tuple of parameter names, "
        "e.g. group_by=('seed',), got 'prior'",
        id="group-by-not-a-tuple",
    ),
    pytest.param(
        replace(DICE_PY, '"threshold", (2, 3, 4, 5, 6), 4', '"threshold", (), 4'),
        "compute/dice.py:17: grid parameter 'threshold' has no values; give at least one value",
        id="grid-values-empty",
    ),
    pytest.param(
        replace(
            DICE_PY,
            "    values = rolls()\n",
            "    values = rolls()\n"
            '    if threshold == 5 and prior == "add_one":\n'
            '        raise ValueError("no pseudo-counts above five")\n',
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=5, prior=add_one): "
        "compute() raised ValueError: no pseudo-counts above five",
        id="compute-raises",
    ),
    pytest.param(
        replace(
            DICE_PY,
            '"rolls": len(values)',
            '"rolls": float("nan") if threshold == 3 else len(values)',
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=3, prior=none): compute() "
        "returned an unusable value: result.readouts.rolls is nan; "
        "results must be finite numbers",
        id="result-nan",
    ),
    pytest.param(
        replace(
            DICE_PY,
            '"count": values.count(face)',
            '"count": float("inf") if threshold == 6 and face == 6 else values.count(face)',
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=6, prior=none): compute() "
        "returned an unusable value: result.datasets.faces[5].count is inf; "
        "results must be finite numbers",
        id="result-infinity",
    ),
    pytest.param(
        replace("data/rolls.csv", "3\n6\n", "3\n5\n"),
        "data/rolls.csv: SHA-256 is "
        "0d59401f6b9c7302ef3a7907635a6becc3813abdf0380c5933f95b7a210437cb, but data/SOURCES.md "
        "records 045f0acd09babb1265172a7700d260f0789ddf3ec00dc2497474a59f2c40cf52; " + RESTORE,
        id="data-checksum-mismatch",
    ),
    pytest.param(
        replace_bytes(DICE_EN, b"Out of", "Out øf".encode("latin-1")),
        "content/en/01-dice.md:12: the file is not valid UTF-8 (byte 0xf8 at offset 138); "
        "save it as UTF-8 in your editor",
        id="markdown-not-utf8",
    ),
    pytest.param(
        delete(DICE_EN),
        "content/en/01-dice.md: missing; content/ko/01-dice.md has no en version yet",
        id="missing-language-version",
    ),
    pytest.param(
        replace(DICE_EN, "order: 1\n", "order: 1\nauthor: Sam\n"),
        "content/en/01-dice.md:5: unknown front matter key 'author'; "
        "allowed: title, summary, order, compute, timeout, pin_controls",
        id="unknown-front-matter-key",
    ),
    pytest.param(
        replace(
            DICE_EN, "{{< chart faces >}}", "{{< chart faces >}}\n\n{{< showme faces sides=6 >}}"
        ),
        "content/en/01-dice.md:17: showme: unknown parameter 'sides'; "
        "dice defines: threshold, prior",
        id="showme-unknown-parameter",
    ),
    pytest.param(
        replace(
            DICE_EN,
            "{{< chart faces >}}",
            "{{< chart faces >}}\n\n{{< showme faces threshold=7 >}}",
        ),
        "content/en/01-dice.md:17: showme: 'threshold' has no value '7'; use one of: 2, 3, 4, 5, 6",
        id="showme-unknown-value",
    ),
    pytest.param(
        replace(
            DICE_EN, "{{< chart faces >}}", "{{< chart faces >}}\n\n{{< showme dice threshold=3 >}}"
        ),
        "content/en/01-dice.md:17: unknown chart or table 'dice'; dice defines: faces, faces, "
        "by_threshold",
        id="showme-unknown-chart",
    ),
    pytest.param(
        replace(DICE_EN, "{{< chart faces >}}", "{{< chart faces >}}\n\n{{< showme faces >}}"),
        "content/en/01-dice.md:17: 'showme' names its chart, then what it sets: "
        "{{< showme CHART NAME=VALUE ... >}}, e.g. {{< showme densities epsilon=1 >}}",
        id="showme-sets-nothing",
    ),
    pytest.param(
        replace(DICE_EN, "{{< chart faces >}}", "{{< chart faces >}}\n\n{{< chart faces >}}"),
        "content/en/01-dice.md:17: the chart 'faces' is already placed on line 15; "
        "place it once per page",
        id="chart-placed-twice",
    ),
    pytest.param(
        replace(DICE_EN, r"$\hat p = h / n$", r"$\hat p = \frack{h}{n}$"),
        r"content/en/01-dice.md:13: the formula $\hat p = \frack{h}{n}$ uses '\frack', "
        r"which cannot be turned into MathML; use a standard LaTeX command "
        r"(e.g. D^{\prime} for D′)",
        id="unknown-latex-command",
    ),
    pytest.param(
        replace(DICE_KO, r"$\hat p = h / n$", "$p^$"),
        "content/ko/01-dice.md:13: cannot read the formula $p^$ "
        "(MissingSuperScriptOrSubscriptError); check the LaTeX syntax",
        id="malformed-latex",
    ),
    pytest.param(
        replace(DICE_EN, "The share is", "$$\n\\hat p = h / n\n\nThe share is"),
        "content/en/01-dice.md:13: display math opened with '$$' is never closed; end it with '$$'",
        id="unclosed-display-math",
    ),
    pytest.param(
        replace(DICE_EN, "{{< table faces >}}", "{{< table histogram >}}"),
        "content/en/01-dice.md:17: unknown table 'histogram'; dice defines: faces, by_threshold",
        id="unknown-table",
    ),
    pytest.param(
        replace(DICE_KO, "{{< table by_threshold >}}", "{{< table faces >}}"),
        "content/ko/01-dice.md:19: the table 'faces' is already placed on line 17; "
        "place it once per page",
        id="table-placed-twice",
    ),
    pytest.param(
        replace(
            DICE_PY,
            'Column("count", {"ko": "횟수", "en": "Count"}, format="d")',
            'Column("count", {"ko": "횟수"}, format="d")',
        ),
        "compute/dice.py: table 'faces' column 'count' label must give a text for every "
        "language (ko, en)",
        id="table-column-label-missing-a-language",
    ),
    pytest.param(
        replace(DICE_PY, '"count": values.count(face), "hit"', '"hit"'),
        "compute/dice.py: table 'faces' has a column 'count', but row 0 from compute() for "
        "grid point (threshold=2, prior=none) has no such field; add it to every row",
        id="table-row-lacks-a-field",
    ),
    pytest.param(
        replace(DICE_PY, '"count": values.count(face)', '"count": values.count(face) > 0'),
        "compute/dice.py: table 'faces' cannot show field 'count' of row 0 from compute() for "
        "grid point (threshold=2, prior=none) (TypeError: column 'count' holds a bool; give a "
        "number or a text); give a text, a number, a list of texts or a text per language",
        id="table-cell-a-bool",
    ),
    pytest.param(
        replace(
            DICE_PY,
            '"datasets": {"faces": counts}',
            '"datasets": {"faces": counts} if threshold < 6 else {}',
        ),
        "compute/dice.py: table 'faces' shows dataset 'faces', which compute() for grid point "
        "(threshold=6, prior=none) of lesson 01-dice did not return; return it in "
        "result['datasets'] (or from summarize()) or remove the table",
        id="table-dataset-missing",
    ),
    # --- nothing wrong passes silently ---------------------------------------------------------
    pytest.param(
        replace(
            DICE_PY,
            '    title = {"ko": "눈별 횟수"',
            '    raise SystemExit(1)\n    title = {"ko": "눈별 횟수"',
        ),
        "compute/dice.py:55: called sys.exit(1) during the build; a module must never end the "
        "build: raise an exception that says what is wrong instead",
        id="chart-builder-raises-system-exit",
    ),
    pytest.param(
        replace(DICE_PY, "import csv\n", "import csv\nimport sys\n\nsys.exit(0)\n"),
        "compute/dice.py: importing the module called sys.exit(0); a lesson module must never "
        "end the build: raise an exception that says what is wrong instead",
        id="module-exits-on-import",
    ),
    pytest.param(
        replace(
            DICE_PY,
            "    values = rolls()\n",
            "    values = rolls()\n"
            '    if threshold == 5 and prior == "add_one":\n'
            "        import sys\n\n        sys.exit(0)\n",
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=5, prior=add_one): compute() "
        "called sys.exit(0); compute() must return a result, or raise an exception that says "
        "what is wrong",
        id="compute-calls-sys-exit-0",
    ),
    pytest.param(
        replace(
            DICE_PY,
            "    values = rolls()\n",
            "    values = rolls()\n    if threshold == 3:\n        raise SystemExit\n",
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=3, prior=none): compute() "
        "called sys.exit(); compute() must return a result, or raise an exception that says "
        "what is wrong",
        id="compute-raises-system-exit",
    ),
    pytest.param(
        replace(
            DICE_PY,
            '    return {\n        "by_threshold"',
            '    raise SystemExit(2)\n    return {\n        "by_threshold"',
        ),
        "compute/dice.py: summarize() called sys.exit(2); it must return datasets, or raise an "
        "exception that says what is wrong",
        id="summarize-raises-system-exit",
    ),
    pytest.param(
        replace(
            DICE_PY, '"rolls": len(values)', '"rolls": None if threshold == 3 else len(values)'
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=3, prior=none): compute() "
        "returned an unusable result: readout 'rolls' is None; return a number, a text or "
        "{'ko': ..., 'en': ...}",
        id="readout-none",
    ),
    pytest.param(
        replace(
            DICE_PY, '"share": share_at_least(values, threshold, prior)', '"share": threshold > 4'
        ),
        "compute/dice.py: lesson 01-dice, grid point (threshold=2, prior=none): compute() "
        "returned an unusable result: readout 'share' is False, a bool; return a number or a "
        "text ({'ko': ..., 'en': ...} gives a word per language)",
        id="readout-bool",
    ),
    pytest.param(
        replace(DICE_PY, '"rolls": len(values)', '"rolls": len(values) / 1'),
        "compute/dice.py: lesson 01-dice, grid point (threshold=2, prior=none): compute() "
        "returned an unusable result: readout 'rolls' is 10.0, which its format 'd' cannot show "
        "(Unknown format code 'd' for object of type 'float'); return a whole number "
        "(int(...)), or change the format in READOUTS",
        id="readout-float-formatted-as-d",
    ),
    pytest.param(
        replace(DICE_EN, "order: 1\n", "order: 1\ntitle: Dice again\n"),
        "content/en/01-dice.md:5: 'title' is given twice in the front matter (first on line 2); "
        "keep one of them",
        id="front-matter-key-twice",
    ),
    pytest.param(
        replace("site.yml", "  en: Sample course\n", "  en: Sample course\n  en: Another\n"),
        "site.yml:4: 'en' is given twice (first on line 3); keep one of them",
        id="site-yml-key-twice",
    ),
    pytest.param(
        replace(DICE_PY, '"threshold", (2, 3, 4, 5, 6), 4', '"threshold", (0, 1), True'),
        "compute/dice.py:17: grid parameter 'threshold' default True is not one of its values "
        "(0, 1); True and False are not the numbers 1 and 0",
        id="bool-default-not-in-grid",
    ),
    pytest.param(
        replace(DICE_EN, "## Hands-on\n", "## Hands-on with $\\hat p$\n"),
        "content/en/01-dice.md:8: a heading cannot hold math ($\\hat p$): its text also goes "
        "into the table of contents and the heading's link, which show plain text; write it "
        "in words, or put the formula in the text below",
        id="math-in-a-heading",
    ),
    pytest.param(
        replace(DICE_KO, "## 실습\n", "실습 $n$ 번\n------\n"),
        "content/ko/01-dice.md:8: a heading cannot hold math ($n$): its text also goes "
        "into the table of contents and the heading's link, which show plain text; write it "
        "in words, or put the formula in the text below",
        id="math-in-an-underlined-heading",
    ),
    pytest.param(
        replace(DICE_EN, "## Hands-on\n", "## Hands-on: {{< readout share >}}\n"),
        "content/en/01-dice.md:8: a heading cannot hold {{< readout share >}}: its text also "
        "goes into the table of contents, which shows plain text; put it in the text below "
        "the heading",
        id="readout-in-a-heading",
    ),
    pytest.param(
        edits(
            replace(DICE_KO, "order: 1\n", "order: 1\ntimeout: 0\n"),
            replace(DICE_EN, "order: 1\n", "order: 1\ntimeout: 0\n"),
        ),
        "2 problems found:\n"
        "  content/ko/01-dice.md:5: 'timeout' must be a number of seconds > 0, got 0\n"
        "  content/en/01-dice.md:5: 'timeout' must be a number of seconds > 0, got 0",
        id="timeout-not-positive",
    ),
    pytest.param(
        replace(DICE_KO, "order: 1\n", "order: 1\ntimeout: 30\n"),
        "content/ko/01-dice.md:5: 'timeout' differs between languages (30, None); "
        "give every language the same value",
        id="timeout-differs-between-languages",
    ),
    pytest.param(
        edits(
            replace(DICE_KO, "order: 1\n", "order: 1\npin_controls: no way\n"),
            replace(DICE_EN, "order: 1\n", "order: 1\npin_controls: no way\n"),
        ),
        "2 problems found:\n"
        "  content/ko/01-dice.md:5: 'pin_controls' must be true or false, got 'no way'\n"
        "  content/en/01-dice.md:5: 'pin_controls' must be true or false, got 'no way'",
        id="pin-controls-not-a-boolean",
    ),
    pytest.param(
        own_templates(delete("site_templates/404.html")),
        "site_templates/404.html: missing; compare it with the explorer's own site_templates/ "
        "(or remove site_templates/ to use them)",
        id="template-missing",
    ),
    pytest.param(
        own_templates(replace("site_templates/index.html", "{% endblock %}", "{% endblok %}")),
        "site_templates/index.html:19: template syntax error: Encountered unknown tag 'endblok'. "
        "Jinja was looking for the following tags: 'endblock'. The innermost block that needs "
        "to be closed is 'block'; compare it with the explorer's own site_templates/ "
        "(or remove site_templates/ to use them)",
        id="template-syntax-error",
    ),
    pytest.param(
        own_templates(
            replace("site_templates/lesson.html", "{{ page_title }}</h1>", "{{ page_titel }}</h1>")
        ),
        "site_templates/lesson.html:7: the template failed: 'page_titel' is undefined; compare it "
        "with the explorer's own site_templates/ (or remove site_templates/ to use them)",
        id="template-undefined-variable",
    ),
    pytest.param(
        own_templates(delete("site_templates/static/explorer.js")),
        "site_templates/static/explorer.js: cannot read it (No such file or directory); compare "
        "it with the explorer's own site_templates/ (or remove site_templates/ to use them)",
        id="template-static-file-missing",
    ),
    pytest.param(
        own_templates(write("site_templates/strings.yml", "home: [unclosed\n")),
        "site_templates/strings.yml:2: malformed YAML: expected ',' or ']', "
        "but got '<stream end>'; write one 'key: {ko: ..., en: ...}' entry per text",
        id="template-strings-malformed",
    ),
    pytest.param(
        edits(
            replace(DICE_KO, "{{< readout rolls >}}", "{{< readout throws >}}"),
            replace(DICE_EN, "{{< chart faces >}}", "{{< chart bars >}}"),
        ),
        "2 problems found:\n"
        "  content/ko/01-dice.md:12: unknown readout 'throws'; dice defines: share, rolls\n"
        "  content/en/01-dice.md:15: unknown chart 'bars'; dice defines: faces",
        id="every-problem-reported-at-once",
    ),
]


@pytest.mark.parametrize(("edit", "message"), CASES)
def test_bad_input_is_refused_and_the_site_is_kept(
    built_sample: tuple[Path, dict[str, bytes]], edit: Edit, message: str
) -> None:
    project, site = built_sample
    edit(project)
    assert_refused(run_build(project), message, project, site)
