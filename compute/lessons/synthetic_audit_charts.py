"""The charts of lesson 05 (:mod:`compute.lessons.synthetic_audit`), in the shared style.

Every chart reads named datasets that the lesson's ``compute`` (one grid point) or
``summarize`` (the candidates) fills, and Vega-Lite params named like the grid parameters
(``k``, ``target``), which the page keeps equal to the controls. Nothing here computes a
result: the only numbers a chart is built with are the candidates' places
(:class:`PictureFacts`) and the fixed windows of the pictures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import altair as alt

from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    GREEN,
    GREY,
    GUIDE_DASH,
    HEIGHT,
    INK,
    VERMILLION,
    Baseline,
    across,
    fixed_axis,
    in_language,
    layered,
    legend_above,
    mark_control,
    titled,
)
from privacy_explorer.lesson import Chart, Text

TARGETS: tuple[str, ...] = ("a", "b", "c", "d", "e")
"""The candidate targets: three members, then two non-members (see the lesson module)."""
TARGET_NAMES: dict[str, Text] = {
    "a": {"ko": "포함 A", "en": "member A"},
    "b": {"ko": "포함 B", "en": "member B"},
    "c": {"ko": "포함 C", "en": "member C"},
    "d": {"ko": "미포함 D", "en": "non-member D"},
    "e": {"ko": "미포함 E", "en": "non-member E"},
}
"""How the controls name the candidates; the pictures label them with the letter alone."""

Y_EXTENT = 40
"""Pixels left of a plot for its y labels, so that plots line up whatever the values."""
WHOLE_X: tuple[float, float] = (-5.5, 6.0)
WHOLE_Y: tuple[float, float] = (-3.5, 6.5)
"""The release picture's window: it holds nearly all of the 2-D population."""
RELEASE_HEIGHT = 380
FIELD_HALF_WIDTH = 1.6
"""Half-width of the score-field panels around their target, in data units."""
FIELD_CELLS = 21
"""Cells per side of a score-field panel (odd: the target's cell is the middle one)."""
FIELD_PANEL = 262
"""Width and height of each score-field panel."""
FIELD_DOMAIN: list[float] = [-1.0, 1.0]
FIELD_CONSTANT = 0.01
"""The field's colours: a symmetric-log scale, linear within ±0.01 nat, clamped at ±1."""
OVERLAP = 0.05
"""Share of a cell by which it overlaps the next one."""
FIELD_TICKS: list[float] = [-1.0, -0.1, 0.0, 0.1, 1.0]
"""The values the field's legend labels (far enough apart on the symmetric-log gradient)."""


@dataclass(frozen=True)
class PictureFacts:
    """The numbers a chart is built with."""

    candidates: Mapping[str, tuple[float, float]]
    """Each candidate target's coordinates, by name."""
    members: tuple[str, ...]
    """The candidates that are members (the others are non-members)."""


def _choice(field: str, names: Mapping[str, Text], lang: str) -> str:
    """A Vega expression that names each value of ``field`` in ``lang`` (nested conditions)."""
    keys = list(names)
    expression = repr(names[keys[-1]][lang])
    for key in reversed(keys[:-1]):
        expression = f"datum.{field} === {key!r} ? {names[key][lang]!r} : ({expression})"
    return expression


def _params(**defaults: float | str) -> list[alt.Parameter]:
    return [alt.param(name=name, value=value) for name, value in defaults.items()]


def _heading(title: str, takeaway: str) -> alt.TitleParams:
    """A title with its takeaway below it, for a chart of several panels (see style.titled)."""
    return alt.TitleParams(text=title, subtitle=takeaway)


# --- The release and the candidate targets --------------------------------------------------

_RELEASE_TEXT: dict[str, Text] = {
    "title": {"ko": "공개본과 후보 표적 (시드 1)", "en": "The release and the candidate targets"},
    "takeaway": {
        "ko": "복사본은 원본 곁에 모인다. Gen-LRA는 표적에서 가장 가까운 k개만 본다.",
        "en": "Copies gather by their originals; Gen-LRA looks only at the k nearest records.",
    },
    "x": {"ko": "x₁", "en": "x₁"},
    "y": {"ko": "x₂", "en": "x₂"},
    "legend": {"ko": "점", "en": "Points"},
    "fresh": {"ko": "새로 뽑음", "en": "fresh draw"},
    "copy": {"ko": "복사본", "en": "copy"},
    "neighbour": {"ko": "표적의 k개 이웃", "en": "target's k nearest"},
    "member": {"ko": "후보: 포함", "en": "candidate: member"},
    "nonmember": {"ko": "후보: 미포함", "en": "candidate: non-member"},
}
KINDS = ("fresh", "copy", "neighbour", "member", "nonmember")
KIND_COLOURS = (GREY, BLUE, VERMILLION, INK, INK)
KIND_SHAPES = ("circle", "circle", "circle", "triangle-up", "square")


def release_chart(lang: str, facts: PictureFacts) -> alt.LayerChart:
    """The release (fresh draws and copies), the candidates, and the target's k nearest records.

    Declares ``k`` and ``target``: the rings follow ``k``, the larger ring the target. A click
    or tap on the plot makes the nearest candidate the target (``target_by_mark``).
    """
    text = in_language(_RELEASE_TEXT, lang)
    kinds = [text[kind] for kind in KINDS]
    colour = alt.Color(
        "kind:N",
        scale=alt.Scale(domain=kinds, range=list(KIND_COLOURS)),
        legend=legend_above(text["legend"]),
    )
    shape = alt.Shape("kind:N", scale=alt.Scale(domain=kinds, range=list(KIND_SHAPES)))
    x = alt.X("x:Q", title=text["x"], scale=alt.Scale(domain=list(WHOLE_X), nice=False))
    y = alt.Y(
        "y:Q",
        title=text["y"],
        scale=alt.Scale(domain=list(WHOLE_Y), nice=False),
        axis=fixed_axis(Y_EXTENT),
    )
    (x0, x1), (y0, y1) = WHOLE_X, WHOLE_Y
    inside = f"datum.x >= {x0} && datum.x <= {x1} && datum.y >= {y0} && datum.y <= {y1}"
    synthetic = (
        alt.Chart(alt.Data(name="release"))
        .transform_filter(inside)
        .transform_calculate(kind=f"datum.copy ? {text['copy']!r} : {text['fresh']!r}")
        .mark_point(filled=True, size=14, opacity=0.8, clip=True)
        .encode(x=x, y=y, color=colour, shape=shape)
    )
    rings = (
        alt.Chart(alt.Data(name="nearest"))
        .transform_filter("datum.rank <= k")
        .transform_calculate(kind=repr(text["neighbour"]))
        .mark_point(filled=False, size=80, strokeWidth=1.5, clip=True)
        .encode(x=x, y=y, color=colour, shape=shape)
    )
    members = " || ".join(f"datum.c === {name!r}" for name in facts.members)
    chosen = alt.Chart(alt.Data(name="candidates")).transform_calculate(
        kind=f"({members}) ? {text['member']!r} : {text['nonmember']!r}",
        letter="upper(datum.c)",
    )
    # A click or tap picks the candidate nearest the pointer as the target, through the
    # target's own control (the keyboard's way to the same choice).
    marks = (
        chosen.mark_point(filled=True, size=90, opacity=1)
        .encode(x=x, y=y, color=colour, shape=shape)
        .add_params(mark_control("target", field="c"))
    )
    current = (
        chosen.transform_filter("datum.c === target")
        .mark_point(filled=False, size=420, strokeWidth=2.5, color=VERMILLION)
        .encode(x=x, y=y)
    )
    letters = chosen.mark_text(
        align="left", dx=8, dy=-8, fontSize=ANNOTATION_SIZE, fontWeight="bold", color=INK
    ).encode(x=x, y=y, text="letter:N")
    layers = layered(synthetic, rings, marks, current, letters).add_params(
        *_params(k=5, target=TARGETS[0])
    )
    return titled(layers, text["title"], takeaway=text["takeaway"], height=RELEASE_HEIGHT)


# --- The score field -------------------------------------------------------------------------

_FIELD_TEXT: dict[str, Text] = {
    "title": {
        "ko": "점수장: 표적을 더하면 각 자리의 로그 밀도가 얼마나 바뀌나",
        "en": "The score field: how much adding the target changes each place's log density",
    },
    "takeaway": {
        "ko": "점수는 고리 자리의 값을 더한 것이다. 커널이 ρ만큼 넓을 때 복사본이 봉우리에 든다.",
        "en": "The score adds the field up at the rings; a kernel as wide as ρ puts copies on "
        "the bump.",
    },
    "member": {"ko": "포함 표본", "en": "A member"},
    "nonmember": {"ko": "미포함 표본", "en": "A non-member"},
    "x": {"ko": "표적에서 x₁ 방향", "en": "x₁ from the target"},
    "y": {"ko": "표적에서 x₂ 방향", "en": "x₂ from the target"},
    "value": {"ko": "점수장 (nat)", "en": "Field (nats)"},
    "ring": {"ko": "표적의 k개 이웃", "en": "target's k nearest"},
    "copy": {"ko": "그중 표적의 복사본", "en": "of them, copies of the target"},
}


def field_scale() -> alt.Scale:
    """The field's colours (see :data:`FIELD_CONSTANT`)."""
    return alt.Scale(
        type="symlog",
        constant=FIELD_CONSTANT,
        domain=FIELD_DOMAIN,
        domainMid=0,
        scheme="blueorange",
        clamp=True,
    )


def _field_panel(text: dict[str, str], panel: str, lang: str, colour: alt.Color) -> alt.LayerChart:
    step = 2 * FIELD_HALF_WIDTH / FIELD_CELLS
    middle = FIELD_CELLS // 2
    domain = [-FIELD_HALF_WIDTH, FIELD_HALF_WIDTH]
    x = alt.X("x:Q", title=text["x"], scale=alt.Scale(domain=domain, nice=False))
    y = alt.Y(
        "y:Q", title=text["y"], scale=alt.Scale(domain=domain, nice=False), axis=fixed_axis(36)
    )
    cells = (
        alt.Chart(alt.Data(name=f"field_{panel}"))
        .transform_calculate(
            x=f"(datum.i - {middle} - 0.5) * {step:.6f}",
            # each cell reaches a little into the next one: no seams of background between cells
            x2=f"(datum.i - {middle} + {0.5 + OVERLAP}) * {step:.6f}",
            y=f"(datum.j - {middle} - 0.5) * {step:.6f}",
            y2=f"(datum.j - {middle} + {0.5 + OVERLAP}) * {step:.6f}",
        )
        .mark_rect()
        .encode(
            x=x,
            x2="x2:Q",
            y=y,
            y2="y2:Q",
            color=colour,
            tooltip=[alt.Tooltip("v:Q", title=text["value"], format=".3g")],
        )
    )
    outline = alt.Chart(alt.Data(name="outline"))
    kernel = (
        outline.transform_filter("datum.shape === 'kernel'")
        .mark_line(color=GREEN, strokeWidth=2, clip=True)
        .encode(x=x, y=y, order="order:Q")
    )
    layers: list[alt.Chart] = [cells, kernel]
    if panel == "member":
        layers.append(
            outline.transform_filter("datum.shape === 'noise'")
            .mark_line(color=INK, strokeWidth=1.5, strokeDash=GUIDE_DASH, clip=True)
            .encode(x=x, y=y, order="order:Q")
        )
    near = alt.Chart(alt.Data(name="field_nearest")).transform_filter(
        f"datum.p === {panel!r} && datum.rank <= k"
    )
    layers.append(
        near.mark_point(filled=False, size=70, strokeWidth=1.5, color=INK, clip=True).encode(
            x=x, y=y
        )
    )
    # Decorative (aria=False): the fill repeats what the rings and the caption say, and a
    # nameless group of one mark (or none) fails screen readers and axe-core.
    layers.append(
        near.transform_filter("datum.copy")
        .mark_point(filled=True, size=22, color=VERMILLION, opacity=1, clip=True, aria=False)
        .encode(x=x, y=y)
    )
    first = alt.Chart(alt.Data(name="field_nearest")).transform_filter(
        f"datum.p === {panel!r} && datum.rank === 1"
    )
    layers.append(
        first.mark_point(
            shape="cross", filled=True, size=110, color=INK, opacity=1, aria=False
        ).encode(x=alt.datum(0.0), y=alt.datum(0.0))
    )
    layers.append(
        first.transform_calculate(name=_choice("c", TARGET_NAMES, lang))
        .mark_text(align="left", baseline="top", x=6, y=6, fontSize=ANNOTATION_SIZE, color=INK)
        .encode(text="name:N")
    )
    return layered(*layers).properties(width=FIELD_PANEL, height=FIELD_PANEL, title=text[panel])


def field_chart(lang: str) -> alt.HConcatChart:
    """The score field around a member and a non-member, with each one's k nearest records.

    Colour is ``log p̂_{R∪{x*}}(s) − log p̂_R(s)`` on a symmetric-log scale; the rings are
    the target's nearest synthetic records (filled: copies of it), the green ellipse the
    kernel's 1σ and, for the member, the dashed circle the copy noise's 1σ. Declares ``k``.
    """
    text = in_language(_FIELD_TEXT, lang)
    colour = alt.Color(
        "v:Q",
        title=text["value"],
        scale=field_scale(),
        legend=alt.Legend(
            orient="bottom", direction="horizontal", gradientLength=240, values=FIELD_TICKS
        ),
    )
    panels = [_field_panel(text, panel, lang, colour) for panel in ("member", "nonmember")]
    chart = alt.HConcatChart(hconcat=panels, spacing=16).add_params(*_params(k=5))
    shared: alt.HConcatChart = chart.resolve_scale(color="shared")
    return shared.properties(title=_heading(text["title"], text["takeaway"]))


# --- The target's terms ----------------------------------------------------------------------

_TERMS_TEXT: dict[str, Text] = {
    "title": {
        "ko": "표적의 이웃마다 더해지는 항 (가까운 순)",
        "en": "The term each of the target's neighbours adds (nearest first)",
    },
    "takeaway": {
        "ko": "막대를 모두 더하면 표적의 점수다 (선: 누적 합).",
        "en": "The bars add up to the target's score (line: running sum).",
    },
    "x": {"ko": "이웃의 순위", "en": "Neighbour's rank"},
    "y": {"ko": "항 (nat)", "en": "Term (nats)"},
    "legend": {"ko": "이웃", "en": "Neighbour"},
    "copy": {"ko": "표적의 복사본", "en": "copy of the target"},
    "other": {"ko": "다른 기록", "en": "another record"},
    "sum": {"ko": "누적 합", "en": "running sum"},
}


def terms_chart(lang: str) -> alt.LayerChart:
    """One bar per neighbour (rank 1 to ``k``), coloured by whether it copies the target, and
    the running sum whose last value is the score. Declares ``k``."""
    text = in_language(_TERMS_TEXT, lang)
    base = (
        alt.Chart(alt.Data(name="terms"))
        .transform_filter("datum.rank <= k")
        .transform_calculate(kind=f"datum.copy ? {text['copy']!r} : {text['other']!r}")
        .transform_window(running="sum(term)", sort=[alt.SortField("rank")])
    )
    x = alt.X("rank:O", title=text["x"], axis=alt.Axis(labelAngle=0))
    y_axis = fixed_axis(Y_EXTENT + 6)
    bars = base.mark_bar().encode(
        x=x,
        y=alt.Y("term:Q", title=text["y"], axis=y_axis),
        color=alt.Color(
            "kind:N",
            scale=alt.Scale(domain=[text["copy"], text["other"]], range=[VERMILLION, GREY]),
            legend=legend_above(text["legend"]),
        ),
        tooltip=[
            alt.Tooltip("rank:O", title=text["x"]),
            alt.Tooltip("term:Q", title=text["y"], format=".4g"),
            alt.Tooltip("running:Q", title=text["sum"], format=".4g"),
        ],
    )
    running = base.mark_line(
        color=INK, strokeWidth=1.5, point=alt.OverlayMarkDef(color=INK)
    ).encode(x=x, y=alt.Y("running:Q", title=text["y"], axis=y_axis))
    zero = (
        base.transform_filter("datum.rank === 1")
        .mark_rule(color=INK, aria=False)
        .encode(y=alt.datum(0))
    )
    layers = layered(bars, zero, running).add_params(*_params(k=5))
    return titled(layers, text["title"], takeaway=text["takeaway"])


# --- Score distributions ---------------------------------------------------------------------

_SCORES_TEXT: dict[str, Text] = {
    "title": {
        "ko": "포함 표본과 미포함 표본의 Gen-LRA 점수 (시드 1)",
        "en": "Gen-LRA scores of members and non-members",
    },
    "takeaway": {
        "ko": "두 분포가 겹치는 만큼 어떤 기준값도 둘을 가르지 못한다.",
        "en": "Where the two distributions overlap, no threshold tells them apart.",
    },
    "x": {"ko": "Gen-LRA 점수", "en": "Gen-LRA score"},
    "y": {
        "ko": "표본 수 (위: 포함, 아래: 미포함)",
        "en": "Records (up: members, down: non-members)",
    },
    "member": {"ko": "포함 표본", "en": "members"},
    "nonmember": {"ko": "미포함 표본", "en": "non-members"},
    "target": {"ko": "표적", "en": "target"},
    "bin": {"ko": "구간", "en": "Bin"},
    "open": {"ko": "이상", "en": "and above"},
}
LABEL_FLUSH = 30
"""Tick labels this close (px) to an end of the score axis are aligned to end inside it."""
SIDE_LABELS: tuple[tuple[str, str, Baseline, int], ...] = (
    ("member", BLUE, "top", 22),
    ("nonmember", VERMILLION, "bottom", HEIGHT - 4),
)
"""Where the scores chart names its two halves: text, colour, baseline, pixels from the top."""


def scores_chart(lang: str) -> alt.LayerChart:
    """Back-to-back histogram (members above, non-members below) and the target's score.

    Declares ``target``: the dashed rule stands at the current candidate's score.
    """
    text = in_language(_SCORES_TEXT, lang)
    rows = alt.Chart(alt.Data(name="scores"))
    bins = rows.transform_filter("isValid(datum.low)").transform_calculate(
        down="-datum.nonmember",
        range=(
            f"datum.open ? format(datum.low, '.3~g') + ' {text['open']}' : "
            "format(datum.low, '.3~g') + ' – ' + format(datum.high, '.3~g')"
        ),
    )
    x = alt.X(
        "low:Q",
        title=text["x"],
        scale=alt.Scale(zero=False, nice=False),
        axis=alt.Axis(labelFlush=LABEL_FLUSH),  # labels near the ends stay inside the plot
    )
    y_axis = alt.Axis(labelExpr="abs(datum.value)", minExtent=Y_EXTENT, maxExtent=Y_EXTENT)
    tooltip = [
        alt.Tooltip("range:N", title=text["bin"]),
        alt.Tooltip("member:Q", title=text["member"]),
        alt.Tooltip("nonmember:Q", title=text["nonmember"]),
    ]
    members = bins.mark_rect(color=BLUE, opacity=0.85).encode(
        x=x, x2="high:Q", y=alt.Y("member:Q", title=text["y"], axis=y_axis), y2=alt.datum(0),
        tooltip=tooltip,
    )  # fmt: skip
    nonmembers = bins.mark_rect(color=VERMILLION, opacity=0.85).encode(
        x=x, x2="high:Q", y=alt.Y("down:Q", title=text["y"], axis=y_axis), y2=alt.datum(0),
        tooltip=tooltip,
    )  # fmt: skip
    target = rows.transform_filter("datum.c === target")
    # Decorative (aria=False): a nameless single-mark group fails screen readers and axe-core.
    zero = target.mark_rule(color=INK, aria=False).encode(y=alt.datum(0))
    rule = target.mark_rule(color=INK, strokeDash=GUIDE_DASH, strokeWidth=2).encode(
        x=alt.X("at:Q"), tooltip=[alt.Tooltip("score:Q", title=text["target"], format=".3f")]
    )
    label = target.mark_text(
        align="left", dx=4, baseline="top", fontSize=ANNOTATION_SIZE, color=INK, y=4
    ).encode(x=alt.X("at:Q"), text=alt.value(text["target"]))
    side_labels = [
        target.mark_text(
            align="right",
            baseline=baseline,
            fontSize=ANNOTATION_SIZE,
            color=colour,
            x=across(1, -4),
            y=y_pixel,
        ).encode(text=alt.value(text[name]))
        for name, colour, baseline, y_pixel in SIDE_LABELS
    ]
    layers = layered(members, nonmembers, zero, rule, label, *side_labels).add_params(
        *_params(target=TARGETS[0])
    )
    return titled(layers, text["title"], takeaway=text["takeaway"])


# --- The charts of the lesson ----------------------------------------------------------------


def make_charts(facts: PictureFacts) -> tuple[Chart, ...]:
    """Every chart of the lesson, built around ``facts`` (the candidates)."""
    return (
        Chart(
            "release",
            lambda lang: release_chart(lang, facts),
            {
                "ko": "시드 1의 합성 기록(복사본과 새로 뽑은 것), 후보 표적 다섯(A–E), 지금 "
                "표적의 k개 이웃(고리).",
                "en": "Seed 1's synthetic records (copies and fresh draws), the five candidate "
                "targets (A–E) and the current target's k nearest records (rings).",
            },
        ),
        Chart(
            "field",
            field_chart,
            {
                "ko": "포함 표본 하나와 미포함 표본 하나 둘레의 점수장과 각자의 k개 이웃, "
                "커널의 1σ 타원과 복사 잡음의 1σ 원.",
                "en": "The score field around one member and one non-member with each one's k "
                "nearest records, the kernel's 1σ ellipse and the copy noise's 1σ circle.",
            },
        ),
        Chart(
            "terms",
            terms_chart,
            {
                "ko": "표적의 k개 이웃이 점수에 더하는 항을 가까운 순으로 그린 막대와 누적 합.",
                "en": "The term each of the target's k nearest records adds to its score, "
                "nearest first, with the running sum.",
            },
        ),
        Chart(
            "scores",
            scores_chart,
            {
                "ko": "포함 표본(위)과 미포함 표본(아래)의 Gen-LRA 점수를 같은 구간에서 센 "
                "막대그래프와 표적의 점수.",
                "en": "Gen-LRA scores of members (up) and non-members (down) on shared bins, "
                "and the target's score.",
            },
        ),
    )
