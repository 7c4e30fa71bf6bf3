"""Data embedded in a page is escaped for the script context it lands in."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from privacy_explorer.cli import cli
from privacy_explorer.render import StoredTexts, script_json
from privacy_explorer.runner import dumps

HOSTILE = "</script><!--<script>alert(1)</script>-->&amp;\u2028\u2029"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


@given(json_values)
def test_script_json_holds_no_character_that_can_end_a_script(value: object) -> None:
    text = script_json(value)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == value


def test_chart_data_that_looks_like_html_cannot_cut_the_page_short(sample_project: Path) -> None:
    module = sample_project / "compute" / "dice.py"
    text = module.read_text("utf-8")
    text = text.replace(
        '"hit": face >= threshold}', f'"hit": face >= threshold, "note": {HOSTILE!r}}}'
    )
    module.write_text(text, "utf-8")
    result = CliRunner().invoke(cli, ["build", "--project", str(sample_project), "-j", "1"])
    assert result.exit_code == 0, result.output
    site = sample_project / "build" / "site"
    for page in ("01-dice.html", "en/01-dice.html"):
        html = (site / page).read_text("utf-8")
        assert html.rstrip().endswith("</html>")
        scripts = re.findall(
            r"<script type=\"application/json\" data-chart-spec>(.*?)</script>", html, re.S
        )
        assert len(scripts) == 1
        # With no "<" inside, an HTML parser cannot leave the script before its real end.
        assert "<" not in scripts[0]
        spec = json.loads(scripts[0])
        assert {row["note"] for row in spec["datasets"]["faces"]} == {HOSTILE}
    data = (site / "assets" / "data" / "01-dice.en.js").read_text("utf-8")
    assert "<" not in data and HOSTILE not in data


def test_stored_texts_write_each_object_out_once_as_canonical_json() -> None:
    rows: list[dict[str, object]] = [{"b": 0.1, "a": "가"}, {"b": 2, "a": None}]
    stored = StoredTexts()
    first = stored(rows)
    assert first == dumps(rows) == '[{"a":"가","b":0.1},{"a":null,"b":2}]'
    assert stored(rows) is first  # the same object: written out once
    twin = [dict(row) for row in rows]
    assert stored(twin) == first and stored(twin) is not first  # another object: its own text
