"""Lesson 04's verdict map (:mod:`compute.lessons.licenses`), in the shared style.

The map shows, for the current code licence, commercial use, sharing and
combination, the verdict of every data licence × model licence pair. Its rows
come from the lesson's ``summarize`` (one string of status letters per choice
of the other four controls); the chart unpacks the current string into cells
and outlines the current pair. The chart keeps the Vega-Lite params named
like the seven grid parameters equal to the controls.

The merge map shows, for the current commercial use and sharing, the verdict of
merging data under every licence with data under every other (rows from
``summarize``, which evaluates them: a second data control would multiply the
grid); the current data licence's row is outlined.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import altair as alt

from privacy_explorer.compute.lessons.style import (
    BLUE,
    GREEN,
    INK,
    ORANGE,
    VERMILLION,
    fixed_width,
    in_language,
    layered,
    legend_above,
    titled,
)
from privacy_explorer.compute.licensing import COMBINATIONS, LICENSES, STATUSES, Text

STATUS_COLOURS: dict[str, str] = {
    "allowed": GREEN,
    "needs_review": ORANGE,
    "needs_permission": BLUE,
    "not_allowed": VERMILLION,
}
"""Okabe–Ito colours per verdict; the legend names each, so colour is never the only cue."""

CELL = 26
"""Pixels per cell side: 14 licences take 364 pixels each way."""

_TEXT: dict[str, Text] = {
    "title": {
        "ko": "데이터 라이선스 × 모델 라이선스의 판정 (나머지 선택은 지금 그대로)",
        "en": "Verdict for each data licence × model licence (other choices as set)",
    },
    "x": {"ko": "모델 라이선스", "en": "Model licence"},
    "y": {"ko": "데이터 라이선스", "en": "Data licence"},
    "legend": {"ko": "판정", "en": "Verdict"},
    "merge_title": {
        "ko": "데이터 두 개를 합쳐 고칠 때의 판정 (상업 이용과 공유는 지금 그대로)",
        "en": "Verdict for merging two data sources (commercial use and sharing as set)",
    },
    "second": {"ko": "두 번째 데이터 라이선스", "en": "Second data licence"},
}


def verdict_map_chart(
    lang: str, status_labels: Mapping[str, Text], status_letters: Mapping[str, str]
) -> alt.LayerChart:
    """The 14 × 14 verdict map of the current choice, the current pair outlined.

    ``status_labels`` names each status in the legend; ``status_letters`` is the
    letter that stands for each status in the rows' ``cells``.
    """
    labels = status_labels
    text = in_language(_TEXT, lang)
    size = len(LICENSES)
    params = {
        "data": alt.param(name="data", value=LICENSES[1]),
        "model": alt.param(name="model", value="Apache-2.0"),
        "code": alt.param(name="code", value="MIT"),
        "commercial": alt.param(name="commercial", value=True),
        "share": alt.param(name="share", value=True),
        "combination": alt.param(name="combination", value=COMBINATIONS[1]),
        "over_700m_users": alt.param(name="over_700m_users", value=False),
    }
    names = json.dumps(list(LICENSES))
    by_letter = {status_letters[s]: labels[s][lang] for s in STATUSES}
    status_label = " : ".join(
        f"datum.cell === '{letter}' ? '{label}'" for letter, label in by_letter.items()
    )
    current_choice = (
        "datum.code === code && datum.commercial === commercial && datum.share === share "
        "&& datum.combination === combination && datum.over_700m_users === over_700m_users"
    )
    cells = (
        alt.Chart(alt.Data(name="verdict_map"))
        .transform_filter(current_choice)
        .transform_calculate(cell="split(datum.cells, '')")
        .transform_flatten(["cell"])
        .transform_window(index="row_number()")
        .transform_calculate(
            data_licence=f"{names}[floor((datum.index - 1) / {size})]",
            model_licence=f"{names}[(datum.index - 1) % {size}]",
            verdict=f"{status_label} : ''",
        )
    )
    x = alt.X("model_licence:N", title=text["x"], sort=list(LICENSES))
    y = alt.Y("data_licence:N", title=text["y"], sort=list(LICENSES))
    domain = [labels[s][lang] for s in STATUSES]
    colour = alt.Scale(domain=domain, range=[STATUS_COLOURS[s] for s in STATUSES])
    squares = cells.mark_rect(stroke="white", strokeWidth=1).encode(
        x=x,
        y=y,
        color=alt.Color("verdict:N", scale=colour, legend=legend_above(text["legend"])),
        tooltip=[
            alt.Tooltip("data_licence:N", title=text["y"]),
            alt.Tooltip("model_licence:N", title=text["x"]),
            alt.Tooltip("verdict:N", title=text["legend"]),
        ],
    )
    current = (
        cells.transform_filter("datum.data_licence === data && datum.model_licence === model")
        .mark_rect(fill=None, stroke=INK, strokeWidth=3)
        .encode(x=x, y=y)
    )
    chart = layered(squares, current).add_params(*params.values())
    # A 14 × 14 map with licence names on both axes cannot shrink to a phone: it scrolls instead.
    return fixed_width(titled(chart, text["title"], width=CELL * size, height=CELL * size))


def merge_map_chart(
    lang: str, status_labels: Mapping[str, Text], status_letters: Mapping[str, str]
) -> alt.LayerChart:
    """The 14 × 14 map of data merges at the current commercial use and sharing, the row of
    the current data licence outlined (arguments as :func:`verdict_map_chart`)."""
    labels = status_labels
    text = in_language(_TEXT, lang)
    size = len(LICENSES)
    params = {
        "data": alt.param(name="data", value=LICENSES[1]),
        "commercial": alt.param(name="commercial", value=True),
        "share": alt.param(name="share", value=True),
    }
    names = json.dumps(list(LICENSES))
    by_letter = {status_letters[s]: labels[s][lang] for s in STATUSES}
    status_label = " : ".join(
        f"datum.cell === '{letter}' ? '{label}'" for letter, label in by_letter.items()
    )
    cells = (
        alt.Chart(alt.Data(name="merge_map"))
        .transform_filter("datum.commercial === commercial && datum.share === share")
        .transform_calculate(cell="split(datum.cells, '')")
        .transform_flatten(["cell"])
        .transform_window(index="row_number()")
        .transform_calculate(
            data_licence=f"{names}[floor((datum.index - 1) / {size})]",
            second_licence=f"{names}[(datum.index - 1) % {size}]",
            verdict=f"{status_label} : ''",
        )
    )
    x = alt.X("second_licence:N", title=text["second"], sort=list(LICENSES))
    y = alt.Y("data_licence:N", title=text["y"], sort=list(LICENSES))
    domain = [labels[s][lang] for s in STATUSES]
    colour = alt.Scale(domain=domain, range=[STATUS_COLOURS[s] for s in STATUSES])
    squares = cells.mark_rect(stroke="white", strokeWidth=1).encode(
        x=x,
        y=y,
        color=alt.Color("verdict:N", scale=colour, legend=legend_above(text["legend"])),
        tooltip=[
            alt.Tooltip("data_licence:N", title=text["y"]),
            alt.Tooltip("second_licence:N", title=text["second"]),
            alt.Tooltip("verdict:N", title=text["legend"]),
        ],
    )
    current = (
        cells.transform_filter("datum.data_licence === data")
        .mark_rect(fill=None, stroke=INK, strokeWidth=3)
        .encode(x=x, y=y)
    )
    chart = layered(squares, current).add_params(*params.values())
    return fixed_width(titled(chart, text["merge_title"], width=CELL * size, height=CELL * size))
