"""Bad input gets a clear error, and nothing is lost.

Each case builds the sample project, breaks one input, builds again and checks
three things: a non-zero exit, the exact sentence the author reads (file, line
where known, what is wrong, what to do), and a previous site that is
byte-for-byte the same, with no half-written folder left beside it.
"""

from __future__ import annotations

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
        "allowed: title, summary, order, compute",
        id="unknown-front-matter-key",
    ),
    pytest.param(
        replace(
            DICE_EN, "{{< chart faces >}}", "{{< controls threshold >}}\n\n{{< chart faces >}}"
        ),
        "content/en/01-dice.md:15: the control 'threshold' is already placed on line 10; "
        "place it once per page",
        id="control-placed-twice",
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


def test_out_folder_that_is_not_a_site_is_refused_and_left_alone(
    built_sample: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    project, site = built_sample
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep me", "utf-8")
    result = run_build(project, "--out", str(notes))
    assert_refused(
        result,
        f"{notes.resolve()}: exists and is not a site built by explorer; choose an empty or new "
        "folder with --out (nothing was written)",
        project,
        site,
    )
    assert snapshot(notes) == {"todo.txt": b"keep me"}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["course", "notes"]


def test_out_folder_holding_a_previous_site_is_replaced(
    built_sample: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    project, site = built_sample
    out = tmp_path / "published"
    assert run_build(project, "--out", str(out)).exit_code == 0
    (out / "stale.html").write_text("from an older build", "utf-8")
    assert run_build(project, "--out", str(out)).exit_code == 0
    assert snapshot(out) == site
