"""The licence checker's verdict for every grid combination, kept as a golden file.

``tests/golden/license_verdicts.json.gz`` holds what the evaluator answered for
all 65,856 combinations of lesson 04's grid, and for the 784 cells of its merge map
(every pair of data licences merged, commercial or not, shared or not): the status,
every condition with the parts that impose it, every reason (status, rule key, parts, both texts) in
order, and the licences a shared adaptation may carry. ``test_licenses.py``
asserts that the evaluator still gives exactly these answers.

A verdict that changes on purpose (a rule row corrected, a reason reworded) is a
change of the lesson, so the file is refreshed by hand and the diff reviewed::

    .venv/bin/python tests/license_golden.py

The file is compact: every distinct reason and condition is stored once and each
verdict points at them by number. It is gzip-compressed with a zero timestamp, so
the same verdicts always give the same bytes.
"""

from __future__ import annotations

import functools
import gzip
import json
import sys
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from privacy_explorer.compute.licensing import Verdict

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden" / "license_verdicts.json.gz"
REFRESH = ".venv/bin/python tests/license_golden.py"


def _point_key(point: Mapping[str, Any]) -> str:
    flags = (
        "commercial" if point["commercial"] else "private",
        "share" if point["share"] else "keep",
    )
    over = ("over-700m",) if point.get("over_700m_users") else ()
    data = "+".join(filter(None, (point["data"], point.get("second_data"))))
    return " ".join((data, point["model"], point["code"], *flags, point["combination"], *over))


def every_point() -> list[dict[str, Any]]:
    """The grid's points, then the merge map's."""
    from privacy_explorer.compute.lessons.licenses import GRID, merge_point
    from privacy_explorer.compute.licensing import LICENSES

    merges = [
        merge_point(first, second, commercial, share)
        for first in LICENSES
        for second in LICENSES
        for commercial in (False, True)
        for share in (False, True)
    ]
    return [*GRID, *merges]


@functools.cache
def verdicts() -> dict[str, Verdict]:
    """evaluate() at every point of :func:`every_point`, by point key: computed once a test
    process, for the tests that compare something with the verdict at every grid point (the
    golden file, the page data, the verdict map). evaluate() is a pure function, so its answer
    at a point is the same whether it is asked once or once a test."""
    from privacy_explorer.compute.licensing import evaluate

    return {_point_key(point): evaluate(**point) for point in every_point()}


def verdict_at(point: Mapping[str, Any]) -> Verdict:
    """evaluate(**point) for a point of :func:`every_point` (a KeyError for any other point;
    ``over_700m_users`` may be left out when it is false)."""
    return verdicts()[_point_key(point)]


def verdict_table() -> dict[str, Any]:
    """Every grid point's verdict, in the compact form the golden file stores."""
    reasons: dict[Hashable, tuple[int, str]] = {}
    conditions: dict[Hashable, tuple[int, str]] = {}

    def number(table: dict[Hashable, tuple[int, str]], key: Hashable, item: Any) -> int:
        """The number of ``item`` (known by ``key``) in ``table``: its JSON is written once."""
        if key not in table:
            table[key] = (len(table), json.dumps(item, ensure_ascii=False, sort_keys=True))
        return table[key][0]

    table = {}
    for point in every_point():
        verdict = verdict_at(point)
        table[_point_key(point)] = {
            "status": verdict.status,
            "conditions": [
                number(conditions, (c.code, c.parts), [c.code, list(c.parts)])
                for c in verdict.conditions
            ],
            "reasons": [
                number(
                    reasons,
                    (r.status, r.rule, r.parts, tuple(sorted(r.text.items()))),
                    [r.status, r.rule, list(r.parts), dict(r.text)],
                )
                for r in verdict.reasons
            ],
            "adaptation_licenses": list(verdict.adaptation_licenses),
            **({"data_licenses": list(verdict.data_licenses)} if verdict.data_licenses else {}),
        }
    return {
        "refresh": REFRESH,
        "conditions": [json.loads(item) for _, item in conditions.values()],
        "reasons": [json.loads(item) for _, item in reasons.values()],
        "verdicts": table,
    }


def encode(table: dict[str, Any]) -> bytes:
    """The golden file's bytes: JSON with one condition, reason or verdict a line (so that
    ``zdiff`` shows which verdicts changed), gzip-compressed without a timestamp."""

    def line(item: Any) -> str:
        return json.dumps(item, ensure_ascii=False, sort_keys=True)

    verdicts = table["verdicts"]
    text = "\n".join(
        [
            "{",
            f'"refresh": {line(table["refresh"])},',
            '"conditions": [',
            ",\n".join(line(item) for item in table["conditions"]),
            "],",
            '"reasons": [',
            ",\n".join(line(item) for item in table["reasons"]),
            "],",
            '"verdicts": {',
            ",\n".join(f"{line(key)}: {line(verdicts[key])}" for key in sorted(verdicts)),
            "}",
            "}",
            "",
        ]
    )
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def read_golden() -> dict[str, Any]:
    """The golden file as stored (verdicts point at reasons and conditions by number)."""
    result: dict[str, Any] = json.loads(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"))
    return result


def resolved(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each verdict with its reasons and conditions written out, ready to compare."""
    return {
        key: {
            **verdict,
            "conditions": [table["conditions"][i] for i in verdict["conditions"]],
            "reasons": [table["reasons"][i] for i in verdict["reasons"]],
        }
        for key, verdict in table["verdicts"].items()
    }


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    GOLDEN.parent.mkdir(exist_ok=True)
    table = verdict_table()
    GOLDEN.write_bytes(encode(table))
    print(f"wrote {len(table['verdicts']):,} verdicts to {GOLDEN.relative_to(REPO)}")
