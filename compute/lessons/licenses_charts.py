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

Neither 14 × 14 map fits a phone with its licence names; there each is drawn as
lists instead (``style.on_narrow_screens``): the verdict map as the current data
licence's row and the current model licence's column, the merge map as the
current data licence's row, one licence a line.
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
    on_narrow_screens,
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
LIST_ROW = 22
"""Pixels per licence in a list of the narrow layout."""
LIST_WIDTH = 96
"""Pixels across a list's verdict bars: with the longest licence name beside them, a list
fits a 390-pixel phone."""

_TEXT: dict[str, Text] = {
    "title": {
        "ko": "데이터 라이선스 × 모델 라이선스의 판정 (나머지 선택은 지금 그대로)",
        "en": "Verdict for each data licence × model licence (other choices as set)",
    },
    "takeaway": {
        "ko": "한 색으로 칠해진 행이나 열의 라이선스는 무엇과 짝지어도 혼자 판정을 정한다",
        "en": "A row or column of one colour: that licence decides the verdict "
        "whatever it is paired with",
    },
    "x": {"ko": "모델 라이선스", "en": "Model licence"},
    "y": {"ko": "데이터 라이선스", "en": "Data licence"},
    "legend": {"ko": "판정", "en": "Verdict"},
    "merge_title": {
        "ko": "데이터 두 개를 합쳐 고칠 때의 판정 (상업 이용과 공유는 지금 그대로)",
        "en": "Verdict for merging two data sources (commercial use and sharing as set)",
    },
    "merge_takeaway": {
        "ko": "합친 데이터에서 두 라이선스의 조건을 함께 지킬 수 있을 때만 허용된다",
        "en": "A merge is allowed only where both licences' terms can hold together on the result",
    },
    "second": {"ko": "두 번째 데이터 라이선스", "en": "Second data licence"},
    "with_data": {"ko": "데이터 라이선스: ", "en": "Data licence: "},
    "with_model": {"ko": "모델 라이선스: ", "en": "Model licence: "},
    "each_model": {"ko": "모델 라이선스마다의 판정", "en": "the verdict for each model licence"},
    "each_data": {"ko": "데이터 라이선스마다의 판정", "en": "the verdict for each data licence"},
    "each_second": {
        "ko": "두 번째 데이터와 합칠 때의 판정",
        "en": "the verdict for merging it with each second licence",
    },
}


def _cells(
    source: str,
    current: str,
    across: str,
    status_labels: Mapping[str, Text],
    status_letters: Mapping[str, str],
    lang: str,
) -> alt.Chart:
    """The map's cells of the current choice (rows of dataset ``source`` passing ``current``),
    one per data licence × ``across`` licence, with its verdict named in ``lang``."""
    size = len(LICENSES)
    names = json.dumps(list(LICENSES))
    status_label = " : ".join(
        f"datum.cell === '{status_letters[s]}' ? '{status_labels[s][lang]}'" for s in STATUSES
    )
    return (
        alt.Chart(alt.Data(name=source))
        .transform_filter(current)
        .transform_calculate(cell="split(datum.cells, '')")
        .transform_flatten(["cell"])
        .transform_window(index="row_number()")
        .transform_calculate(
            data_licence=f"{names}[floor((datum.index - 1) / {size})]",
            **{across: f"{names}[(datum.index - 1) % {size}]"},
            verdict=f"{status_label} : ''",
        )
    )


def _verdict_colour(lang: str, status_labels: Mapping[str, Text], legend: str) -> alt.Color:
    domain = [status_labels[s][lang] for s in STATUSES]
    scale = alt.Scale(domain=domain, range=[STATUS_COLOURS[s] for s in STATUSES])
    return alt.Color("verdict:N", scale=scale, legend=legend_above(legend))


def _verdict_list(
    cells: alt.Chart,
    *,
    listed: str,
    axis_title: str,
    heading: str,
    colour: alt.Color,
    tooltip: list[alt.Tooltip],
    outlined: str | None,
) -> alt.Chart | alt.LayerChart:
    """One licence a line (``listed``), each with its verdict's colour, the line passing
    ``outlined`` (a Vega expression) outlined; ``heading`` is a Vega expression of the panel's
    title lines."""
    # The names on the right: the legend and the panel title start where the bars do, at the
    # left edge of the box, and have its whole width.
    y = alt.Y(f"{listed}:N", title=axis_title, sort=list(LICENSES), axis=alt.Axis(orient="right"))
    bars = cells.mark_rect(stroke="white", strokeWidth=1).encode(y=y, color=colour, tooltip=tooltip)
    title = alt.TitleParams(text=alt.ExprRef(heading), anchor="start", fontSize=12)
    size = {"width": LIST_WIDTH, "height": LIST_ROW * len(LICENSES), "title": title}
    if outlined is None:
        listed_bars: alt.Chart = bars.properties(**size)
        return listed_bars
    current = (
        cells.transform_filter(outlined).mark_rect(fill=None, stroke=INK, strokeWidth=3).encode(y=y)
    )
    return layered(bars, current).properties(**size)


def _lines(first: str, second: str, licence: str) -> str:
    """A Vega expression of two title lines: ``first`` followed by the licence ``licence``
    names (a param), then ``second``."""
    return f"[{json.dumps(first)} + {licence}, {json.dumps(second)}]"


def verdict_map_chart(
    lang: str, status_labels: Mapping[str, Text], status_letters: Mapping[str, str]
) -> alt.LayerChart:
    """The 14 × 14 verdict map of the current choice, the current pair outlined; on a phone,
    the current data licence's row and the current model licence's column as two lists.

    ``status_labels`` names each status in the legend; ``status_letters`` is the
    letter that stands for each status in the rows' ``cells``.
    """
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
    current_choice = (
        "datum.code === code && datum.commercial === commercial && datum.share === share "
        "&& datum.combination === combination && datum.over_700m_users === over_700m_users"
    )
    cells = _cells(
        "verdict_map", current_choice, "model_licence", status_labels, status_letters, lang
    )
    x = alt.X("model_licence:N", title=text["x"], sort=list(LICENSES))
    y = alt.Y("data_licence:N", title=text["y"], sort=list(LICENSES))
    colour = _verdict_colour(lang, status_labels, text["legend"])
    tooltip = [
        alt.Tooltip("data_licence:N", title=text["y"]),
        alt.Tooltip("model_licence:N", title=text["x"]),
        alt.Tooltip("verdict:N", title=text["legend"]),
    ]
    squares = cells.mark_rect(stroke="white", strokeWidth=1).encode(
        x=x, y=y, color=colour, tooltip=tooltip
    )
    current = (
        cells.transform_filter("datum.data_licence === data && datum.model_licence === model")
        .mark_rect(fill=None, stroke=INK, strokeWidth=3)
        .encode(x=x, y=y)
    )
    chart = layered(squares, current).add_params(*params.values())
    row = _verdict_list(
        cells.transform_filter("datum.data_licence === data"),
        listed="model_licence",
        axis_title=text["x"],
        heading=_lines(text["with_data"], text["each_model"], "data"),
        colour=colour,
        tooltip=tooltip,
        outlined="datum.model_licence === model",
    )
    column = _verdict_list(
        cells.transform_filter("datum.model_licence === model"),
        listed="data_licence",
        axis_title=text["y"],
        heading=_lines(text["with_model"], text["each_data"], "model"),
        colour=colour,
        tooltip=tooltip,
        outlined="datum.data_licence === data",
    )
    lists = alt.vconcat(row, column).add_params(*params.values())
    # A 14 × 14 map with licence names on both axes cannot shrink to a phone: there it is
    # drawn as the current row and column.
    heading = alt.TitleParams(text=text["title"], subtitle=text["takeaway"])
    wide = titled(
        chart, text["title"], takeaway=text["takeaway"], width=CELL * size, height=CELL * size
    )
    return on_narrow_screens(fixed_width(wide), lists.properties(title=heading))


def merge_map_chart(
    lang: str, status_labels: Mapping[str, Text], status_letters: Mapping[str, str]
) -> alt.LayerChart:
    """The 14 × 14 map of data merges at the current commercial use and sharing, the row of
    the current data licence outlined; on a phone, that row as a list (arguments as
    :func:`verdict_map_chart`)."""
    text = in_language(_TEXT, lang)
    size = len(LICENSES)
    params = {
        "data": alt.param(name="data", value=LICENSES[1]),
        "commercial": alt.param(name="commercial", value=True),
        "share": alt.param(name="share", value=True),
    }
    cells = _cells(
        "merge_map",
        "datum.commercial === commercial && datum.share === share",
        "second_licence",
        status_labels,
        status_letters,
        lang,
    )
    x = alt.X("second_licence:N", title=text["second"], sort=list(LICENSES))
    y = alt.Y("data_licence:N", title=text["y"], sort=list(LICENSES))
    colour = _verdict_colour(lang, status_labels, text["legend"])
    tooltip = [
        alt.Tooltip("data_licence:N", title=text["y"]),
        alt.Tooltip("second_licence:N", title=text["second"]),
        alt.Tooltip("verdict:N", title=text["legend"]),
    ]
    squares = cells.mark_rect(stroke="white", strokeWidth=1).encode(
        x=x, y=y, color=colour, tooltip=tooltip
    )
    current = (
        cells.transform_filter("datum.data_licence === data")
        .mark_rect(fill=None, stroke=INK, strokeWidth=3)
        .encode(x=x, y=y)
    )
    chart = layered(squares, current).add_params(*params.values())
    row = _verdict_list(
        cells.transform_filter("datum.data_licence === data"),
        listed="second_licence",
        axis_title=text["second"],
        heading=_lines(text["with_data"], text["each_second"], "data"),
        colour=colour,
        tooltip=tooltip,
        outlined=None,
    )
    heading = alt.TitleParams(text=text["merge_title"], subtitle=text["merge_takeaway"])
    wide = titled(
        chart,
        text["merge_title"],
        takeaway=text["merge_takeaway"],
        width=CELL * size,
        height=CELL * size,
    )
    narrow = alt.vconcat(row).add_params(*params.values())
    return on_narrow_screens(fixed_width(wide), narrow.properties(title=heading))
