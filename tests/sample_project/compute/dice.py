"""Sample lesson: the share of die rolls at or above a threshold, with a smoothing prior."""

from __future__ import annotations

import csv
from pathlib import Path

import altair as alt

from privacy_explorer.lesson import Chart, Column, Grid, Param, Readout, Table

DATA_FILES = ("rolls.csv",)
DATA = Path(__file__).resolve().parent.parent / "data" / "rolls.csv"

GRID = Grid(
    (
        Param("threshold", (2, 3, 4, 5, 6), 4, {"ko": "기준 눈", "en": "Threshold"}),
        Param(
            "prior",
            ("none", "add_one"),
            "none",
            {"ko": "평활", "en": "Smoothing"},
            value_labels={"ko": ("없음", "1 더하기"), "en": ("None", "Add one")},
        ),
    )
)


def rolls() -> list[int]:
    """The ten rolls in data/rolls.csv."""
    with DATA.open(encoding="utf-8") as handle:
        return [int(row["roll"]) for row in csv.DictReader(handle)]


def share_at_least(values: list[int], threshold: int, prior: str) -> float:
    """Share of values >= threshold, optionally with one pseudo-count on each side."""
    hits = sum(v >= threshold for v in values)
    extra = 1 if prior == "add_one" else 0
    return (hits + extra) / (len(values) + 2 * extra)


def compute(*, threshold: int, prior: str) -> dict:
    values = rolls()
    counts = [
        {"face": face, "count": values.count(face), "hit": face >= threshold}
        for face in range(1, 7)
    ]
    return {
        "readouts": {"share": share_at_least(values, threshold, prior), "rolls": len(values)},
        "datasets": {"faces": counts},
    }


def _faces_chart(lang: str) -> alt.Chart:
    title = {"ko": "눈별 횟수", "en": "Rolls per face"}[lang]
    return (
        alt.Chart(alt.Data(name="faces"), title=title, width=300, height=160)
        .mark_bar()
        .encode(x=alt.X("face:O"), y=alt.Y("count:Q"), color=alt.Color("hit:N"))
    )


CHARTS = (
    Chart(
        "faces", _faces_chart, {"ko": "각 눈이 나온 횟수.", "en": "How often each face came up."}
    ),
)
READOUTS = (
    Readout("share", {"ko": "비율", "en": "Share"}, format=".2f"),
    Readout(
        "rolls", {"ko": "굴린 횟수", "en": "Rolls"}, format="d", unit={"ko": "번", "en": "rolls"}
    ),
)


def summarize(results: dict) -> dict:
    """The share at every threshold without smoothing: one table for the whole grid."""
    return {
        "by_threshold": [
            {
                "threshold": threshold,
                "share": results[GRID.key({"threshold": threshold, "prior": "none"})]["readouts"][
                    "share"
                ],
            }
            for threshold in GRID.param("threshold").values
        ]
    }


TABLES = (
    Table(
        "faces",
        (
            Column("face", {"ko": "눈", "en": "Face"}),
            Column("count", {"ko": "횟수", "en": "Count"}, format="d"),
        ),
        {"ko": "각 눈이 나온 횟수", "en": "How often each face came up"},
        row_headers=True,
    ),
    Table(
        "by_threshold",
        (
            Column("threshold", {"ko": "기준 눈", "en": "Threshold"}),
            Column("share", {"ko": "비율", "en": "Share"}, format=".2f"),
        ),
        {
            "ko": "기준 눈마다의 비율 (평활 없음)",
            "en": "The share at each threshold (no smoothing)",
        },
    ),
)
