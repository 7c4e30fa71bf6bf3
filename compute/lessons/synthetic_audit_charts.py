"""The charts of lesson 05 (:mod:`compute.lessons.synthetic_audit`), in the shared style.

Every chart reads named datasets that the lesson's ``compute`` (one grid
point) or ``summarize`` (the whole grid and the study) fills; the charts over
the whole grid keep the rows of the current point with Vega-Lite params named
like the grid parameters (``epsilon``, ``rho``, ``k``, ``bandwidth``), which
the page keeps equal to the controls. Nothing here computes a result: the
only numbers a chart is built with are where the picture's target sits and
the chance range, which :func:`make_charts` receives.

Attacks keep one colour in every chart: Gen-LRA vermillion and drawn thicker,
the distance attacks in blues, the density attacks in green and orange, the
model-based ones in black and grey (Okabe and Ito's palette, see
:mod:`compute.lessons.style`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import altair as alt

from privacy_explorer.compute.generators import GENERATOR_SETTINGS
from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    DASHED,
    GREEN,
    GREY,
    GUIDE_DASH,
    HEIGHT,
    INK,
    ORANGE,
    REDDISH_PURPLE,
    SKY_BLUE,
    VALUE_SIZE,
    VERMILLION,
    WIDTH,
    Baseline,
    across,
    fixed_axis,
    in_language,
    layered,
    legend_above,
)
from privacy_explorer.lesson import Chart, Text

DARK_YELLOW = "#B39B00"
"""Okabe and Ito's yellow, darkened to stay legible as a thin line on white."""

ATTACK_ORDER: tuple[str, ...] = (
    "gen_lra",
    "dcr",
    "dcr_diff",
    "domias",
    "density",
    "mc",
    "dpi",
    "classifier",
    "logan",
)
ATTACK_NAMES: dict[str, Text] = {
    "gen_lra": {"ko": "Gen-LRA", "en": "Gen-LRA"},
    "dcr": {"ko": "DCR", "en": "DCR"},
    "dcr_diff": {"ko": "DCR-Diff", "en": "DCR-Diff"},
    "domias": {"ko": "DOMIAS", "en": "DOMIAS"},
    "density": {"ko": "밀도", "en": "Density"},
    "mc": {"ko": "몬테카를로", "en": "Monte Carlo"},
    "dpi": {"ko": "DPI", "en": "DPI"},
    "classifier": {"ko": "분류기", "en": "Classifier"},
    "logan": {"ko": "LOGAN", "en": "LOGAN"},
}
ATTACK_COLOURS: dict[str, str] = {
    "gen_lra": VERMILLION,
    "dcr": BLUE,
    "dcr_diff": SKY_BLUE,
    "domias": GREEN,
    "density": ORANGE,
    "mc": REDDISH_PURPLE,
    "dpi": DARK_YELLOW,
    "classifier": INK,
    "logan": GREY,
}
ATTACK_DASHES: dict[str, list[float]] = {"dpi": DASHED, "logan": DASHED, "mc": DASHED}
"""Rivals drawn dashed, so that lines of similar colour still differ."""

FAMILY_NAMES: dict[str, Text] = {
    "gaussian_mixture": {"ko": "가우스 혼합", "en": "Gaussian mixture"},
    "kde": {"ko": "KDE 표본", "en": "KDE sampler"},
    "smote": {"ko": "SMOTE 보간", "en": "SMOTE interpolation"},
    "marginals": {"ko": "독립 주변분포", "en": "Independent marginals"},
}
FAMILY_COLOURS: tuple[str, ...] = (BLUE, GREEN, VERMILLION, INK)

Y_EXTENT = 40
"""Pixels left of a plot for its y labels, so that plots line up whatever the values."""
PANEL = 262
"""Width of each of the two panels of the release picture."""
ZOOM = 1.6
"""Half-width of the zoomed panel around the target, in data units."""
WHOLE_X: tuple[float, float] = (-5.5, 6.0)
WHOLE_Y: tuple[float, float] = (-3.5, 6.5)
"""The whole picture's window: it holds nearly all of the 2-D population."""


@dataclass(frozen=True)
class PictureFacts:
    """The numbers a chart is built with: where the target sits, and the chance range."""

    target: tuple[float, float]
    """The picture target's coordinates (seed 1's most copied member)."""
    chance_low: float
    """Lower end of the chance range of the AUC, ``0.5 − 2σ₀``."""
    chance_high: float
    """Upper end, ``0.5 + 2σ₀``."""


def _choice(field: str, names: Mapping[str, Text], lang: str) -> str:
    """A Vega expression that names each value of ``field`` in ``lang`` (nested conditions)."""
    keys = list(names)
    expression = repr(names[keys[-1]][lang])
    for key in reversed(keys[:-1]):
        expression = f"datum.{field} === {key!r} ? {names[key][lang]!r} : ({expression})"
    return expression


def attack_scales(lang: str) -> tuple[alt.Scale, alt.Scale, list[str]]:
    """Colour and dash scales over the attacks' names in ``lang``, and the names in order."""
    names = [ATTACK_NAMES[a][lang] for a in ATTACK_ORDER]
    colours = alt.Scale(domain=names, range=[ATTACK_COLOURS[a] for a in ATTACK_ORDER])
    dashes = alt.Scale(domain=names, range=[ATTACK_DASHES.get(a, [1, 0]) for a in ATTACK_ORDER])
    return colours, dashes, names


def _params(*names_and_defaults: tuple[str, float]) -> list[alt.Parameter]:
    return [alt.param(name=name, value=value) for name, value in names_and_defaults]


# --- The release and the target ------------------------------------------------------------

_RELEASE_TEXT: dict[str, Text] = {
    "title": {"ko": "공개본과 표적 (시드 1)", "en": "The release and the target (seed 1)"},
    "whole": {"ko": "전체", "en": "Everything"},
    "zoom": {"ko": "표적 주변 확대", "en": "Around the target"},
    "x": {"ko": "x₁", "en": "x₁"},
    "y": {"ko": "x₂", "en": "x₂"},
    "legend": {"ko": "점", "en": "Points"},
    "fresh": {"ko": "합성: 새로 뽑음", "en": "synthetic: fresh draw"},
    "copy": {"ko": "합성: 복사본", "en": "synthetic: copy"},
    "target": {"ko": "표적", "en": "target"},
    "neighbour": {"ko": "표적의 k개 이웃", "en": "the target's k neighbours"},
    "kernel": {"ko": "커널 (1σ)", "en": "kernel (1σ)"},
    "noise": {"ko": "복사 잡음 (1σ)", "en": "copy noise (1σ)"},
}
RIM = 0.03
"""Share of a release panel's range beyond its edges whose points are still drawn (clipped)."""
KINDS = ("fresh", "copy", "target", "neighbour")
KIND_COLOURS = (GREY, BLUE, INK, VERMILLION)
KIND_SHAPES = ("circle", "circle", "cross", "circle")


def _release_panel(
    text: dict[str, str],
    defaults: Mapping[str, float],
    x_domain: Sequence[float],
    y_domain: Sequence[float],
    title: str,
    shapes: bool,
) -> alt.LayerChart:
    kinds = [text[kind] for kind in KINDS]
    colour = alt.Color(
        "kind:N",
        scale=alt.Scale(domain=kinds, range=list(KIND_COLOURS)),
        legend=legend_above(text["legend"]),
    )
    shape = alt.Shape("kind:N", scale=alt.Scale(domain=kinds, range=list(KIND_SHAPES)))
    x = alt.X("x:Q", title=text["x"], scale=alt.Scale(domain=list(x_domain), nice=False))
    y = alt.Y(
        "y:Q",
        title=text["y"],
        scale=alt.Scale(domain=list(y_domain), nice=False),
        axis=fixed_axis(Y_EXTENT),
    )
    release = alt.Chart(alt.Data(name="release"))
    # Only the points in the panel's window (and a rim as wide as a point) are drawn: a
    # clipped point still costs the page an element to build and update.
    (x0, x1), (y0, y1) = x_domain, y_domain
    rim_x, rim_y = RIM * (x1 - x0), RIM * (y1 - y0)
    inside = (
        f"datum.x >= {x0 - rim_x:.4f} && datum.x <= {x1 + rim_x:.4f} && "
        f"datum.y >= {y0 - rim_y:.4f} && datum.y <= {y1 + rim_y:.4f}"
    )
    synthetic = (
        release.transform_filter(inside)
        .transform_calculate(kind=f"datum.copy ? {text['copy']!r} : {text['fresh']!r}")
        .mark_point(filled=True, size=14, opacity=0.8, clip=True)
        .encode(x=x, y=y, color=colour, shape=shape)
    )
    neighbours = (
        release.transform_filter("datum.rank > 0 && datum.rank <= k")
        .transform_calculate(kind=repr(text["neighbour"]))
        .mark_point(filled=False, size=70, strokeWidth=1.5, clip=True)
        .encode(x=x, y=y, color=colour, shape=shape)
    )
    target = (
        alt.Chart(alt.Data(name="target"))
        .transform_calculate(kind=repr(text["target"]))
        .mark_point(filled=True, size=140, opacity=1, clip=True)
        .encode(x=x, y=y, color=colour, shape=shape)
    )
    layers: list[alt.Chart] = [synthetic, neighbours, target]
    if shapes:
        outline = alt.Chart(alt.Data(name="outline"))
        kernel = (
            outline.transform_filter("datum.shape === 'kernel'")
            .mark_line(color=GREEN, strokeWidth=2, clip=True)
            .encode(x=x, y=y, order="order:Q")
        )
        noise = (
            outline.transform_filter("datum.shape === 'noise'")
            .mark_line(color=VERMILLION, strokeWidth=1.5, strokeDash=GUIDE_DASH, clip=True)
            .encode(x=x, y=y, order="order:Q")
        )
        layers = [kernel, noise, *layers]
    del defaults
    return layered(*layers).properties(width=PANEL, height=PANEL, title=title)


def release_chart(lang: str, facts: PictureFacts) -> alt.HConcatChart:
    """The seed-1 release with its members, the target and its k nearest synthetic records.

    Right: the same around the target, with the reference KDE's kernel (1σ
    ellipse at the current bandwidth, green) and the copying noise (circle of
    radius ρ · spread, dashed). Declares ``k``, ``rho`` and ``bandwidth``.
    """
    text = in_language(_RELEASE_TEXT, lang)
    tx, ty = facts.target
    defaults = {"k": 5, "rho": 0.1, "bandwidth": 1.0}
    whole = _release_panel(text, defaults, WHOLE_X, WHOLE_Y, text["whole"], shapes=False)
    zoom = _release_panel(
        text, defaults, (tx - ZOOM, tx + ZOOM), (ty - ZOOM, ty + ZOOM), text["zoom"], shapes=True
    )
    chart = alt.HConcatChart(hconcat=[whole, zoom], spacing=16).add_params(*_params(("k", 5)))
    shared: alt.HConcatChart = chart.resolve_scale(color="shared", shape="shared")
    return shared.properties(title=text["title"])


# --- Score distributions --------------------------------------------------------------------

_SCORES_TEXT: dict[str, Text] = {
    "title": {
        "ko": "포함 표본과 미포함 표본의 Gen-LRA 점수 (시드 1)",
        "en": "Gen-LRA scores of members and non-members (seed 1)",
    },
    "x": {"ko": "Gen-LRA 점수", "en": "Gen-LRA score"},
    "y": {
        "ko": "표본 수 (위: 포함, 아래: 미포함)",
        "en": "Samples (up: members, down: non-members)",
    },
    "member": {"ko": "포함 표본", "en": "members"},
    "nonmember": {"ko": "미포함 표본", "en": "non-members"},
    "target": {"ko": "표적이 든 구간", "en": "the target's bin"},
    "bin": {"ko": "구간", "en": "Bin"},
    "count": {"ko": "표본 수", "en": "Samples"},
    "open": {"ko": "이상 (마지막 구간)", "en": "and above (last bin)"},
}


SIDE_LABELS: tuple[tuple[str, str, Baseline, int], ...] = (
    ("member", BLUE, "top", 22),
    ("nonmember", VERMILLION, "bottom", HEIGHT - 4),
)
"""Where the scores chart names its two halves: text, colour, baseline, pixels from the top."""


def scores_chart(lang: str) -> alt.LayerChart:
    """Back-to-back histogram: members above the axis, non-members below, shared bins."""
    text = in_language(_SCORES_TEXT, lang)
    base = alt.Chart(alt.Data(name="scores")).transform_calculate(
        down="-datum.nonmember",
        middle="(datum.low + datum.high) / 2",
        range=(
            f"datum.open ? format(datum.low, '.3~g') + ' {text['open']}' : "
            "format(datum.low, '.3~g') + ' – ' + format(datum.high, '.3~g')"
        ),
    )
    x = alt.X("low:Q", title=text["x"], scale=alt.Scale(zero=False, nice=False))
    y_axis = alt.Axis(labelExpr="abs(datum.value)", minExtent=Y_EXTENT, maxExtent=Y_EXTENT)
    tooltip = [
        alt.Tooltip("range:N", title=text["bin"]),
        alt.Tooltip("member:Q", title=text["member"]),
        alt.Tooltip("nonmember:Q", title=text["nonmember"]),
    ]
    members = base.mark_rect(color=BLUE, opacity=0.85).encode(
        x=x,
        x2="high:Q",
        y=alt.Y("member:Q", title=text["y"], axis=y_axis),
        y2=alt.datum(0),
        tooltip=tooltip,
    )
    nonmembers = base.mark_rect(color=VERMILLION, opacity=0.85).encode(
        x=x,
        x2="high:Q",
        y=alt.Y("down:Q", title=text["y"], axis=y_axis),
        y2=alt.datum(0),
        tooltip=tooltip,
    )
    # Decorative (aria=False): a nameless single-mark group fails screen readers and axe-core.
    zero = (
        base.transform_filter("datum.target")
        .mark_rule(color=INK, aria=False)
        .encode(y=alt.datum(0))
    )
    target = (
        base.transform_filter("datum.target")
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=alt.X("middle:Q"))
    )
    label = (
        base.transform_filter("datum.target")
        .mark_text(align="left", dx=4, baseline="top", fontSize=ANNOTATION_SIZE, color=INK, y=4)
        .encode(x=alt.X("middle:Q"), text=alt.value(text["target"]))
    )
    side_labels = [
        base.transform_filter("datum.target")
        .mark_text(
            align="right",
            baseline=baseline,
            fontSize=ANNOTATION_SIZE,
            color=colour,
            x=across(1, -4),
            y=y_pixel,
        )
        .encode(text=alt.value(text[name]))
        for name, colour, baseline, y_pixel in SIDE_LABELS
    ]
    layers = layered(members, nonmembers, zero, target, label, *side_labels)
    return layers.properties(width=WIDTH, height=HEIGHT, title=text["title"])


# --- Every attack at this point ------------------------------------------------------------

_BOARD_TEXT: dict[str, Text] = {
    "title": {
        "ko": "지금의 설정에서 아홉 공격 (세 시드 평균)",
        "en": "The nine attacks at this setting (mean of three seeds)",
    },
    "attack": {"ko": "공격", "en": "Attack"},
    "auc": {"ko": "AUC (선: 시드별 범위)", "en": "AUC (line: range over seeds)"},
    "tpr": {"ko": "TPR (제곱근 눈금)", "en": "TPR (square-root scale)"},
    "fpr": {"ko": "FPR", "en": "FPR"},
}
TPR_FIELDS: dict[str, str] = {
    "tpr_at_0": "0",
    "tpr_at_0_001": "0.1 %",
    "tpr_at_0_01": "1 %",
    "tpr_at_0_1": "10 %",
}
"""The board's TPR fields and the FPR each is read at, as the legend names it."""
TPR_TICKS: list[float] = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1]
AUC_DOMAIN: list[float] = [0.35, 1.0]
BOARD_ROW = 22


def _tpr_scale() -> alt.Scale:
    return alt.Scale(type="sqrt", domain=[0, 1], nice=False)


def board_chart(lang: str, facts: PictureFacts) -> alt.HConcatChart:
    """Left: each attack's mean AUC with its range over the seeds, sorted, and the chance band.
    Right: the same attacks' TPR at the four FPRs, one symbol per FPR."""
    text = in_language(_BOARD_TEXT, lang)
    colours, _, _ = attack_scales(lang)
    base = alt.Chart(alt.Data(name="board")).transform_calculate(
        name=_choice("attack", ATTACK_NAMES, lang)
    )
    order = alt.EncodingSortField(field="auc", order="descending")
    y = alt.Y("name:N", title=None, sort=order, axis=alt.Axis(minExtent=80, maxExtent=80))
    auc_scale = alt.Scale(domain=AUC_DOMAIN, nice=False, clamp=True)
    x_auc = alt.X("auc:Q", title=text["auc"], scale=auc_scale)
    colour = alt.Color("name:N", scale=colours, legend=None)
    band = (
        base.transform_filter("datum.attack === 'gen_lra'")
        .mark_rect(color=GREY, opacity=0.2, aria=False)  # decorative, as the zero line above
        .encode(
            x=alt.XDatum(facts.chance_low, scale=auc_scale, title=text["auc"]),
            x2=alt.datum(facts.chance_high),
        )
    )
    spread = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X("auc_low:Q", scale=auc_scale, title=text["auc"]), x2="auc_high:Q", y=y, color=colour
    )
    dots = base.mark_point(filled=True, size=70, opacity=1).encode(
        x=x_auc,
        y=y,
        color=colour,
        tooltip=[
            alt.Tooltip("name:N", title=text["attack"]),
            alt.Tooltip("auc:Q", title="AUC", format=".3f"),
            alt.Tooltip("auc_low:Q", format=".3f"),
            alt.Tooltip("auc_high:Q", format=".3f"),
        ],
    )
    height = 9 * BOARD_ROW
    left = layered(band, spread, dots).properties(width=250, height=height)
    fprs = list(TPR_FIELDS.values())
    folded = base.transform_fold(list(TPR_FIELDS), as_=["field", "tpr"]).transform_calculate(
        fpr=_choice("field", {f: {"ko": v, "en": v} for f, v in TPR_FIELDS.items()}, lang)
    )
    symbols = folded.mark_point(filled=True, size=55, opacity=0.9).encode(
        x=alt.X(
            "tpr:Q",
            title=text["tpr"],
            scale=_tpr_scale(),
            axis=alt.Axis(values=TPR_TICKS, format="~%"),
        ),
        y=alt.Y("name:N", title=None, sort=order, axis=None),
        shape=alt.Shape(
            "fpr:N",
            title=text["fpr"],
            scale=alt.Scale(domain=fprs, range=["circle", "triangle-up", "square", "diamond"]),
            legend=alt.Legend(orient="right"),
        ),
        color=alt.Color(
            "fpr:N",
            title=text["fpr"],
            scale=alt.Scale(domain=fprs, range=[INK, VERMILLION, BLUE, GREY]),
            legend=alt.Legend(orient="right"),
        ),
        tooltip=[
            alt.Tooltip("name:N", title=text["attack"]),
            alt.Tooltip("fpr:N", title=text["fpr"]),
            alt.Tooltip("tpr:Q", title="TPR", format=".3f"),
        ],
    )
    right = symbols.properties(width=190, height=height)
    chart: alt.HConcatChart = alt.HConcatChart(hconcat=[left, right], spacing=14).resolve_scale(
        color="independent", shape="independent"
    )
    return chart.properties(title=text["title"])


# --- Every attack against ρ ---------------------------------------------------------------

_SWEEP_TEXT: dict[str, Text] = {
    "title": {
        "ko": "기억 규모 ρ에 따른 아홉 공격 (지금의 ε, k, 대역폭)",
        "en": "The nine attacks against the memorization scale ρ (current ε, k, bandwidth)",
    },
    "x": {
        "ko": "기억 규모 ρ (분포의 퍼짐 단위)",
        "en": "Memorization scale ρ (units of the spread)",
    },
    "auc": {"ko": "AUC (세 시드 평균)", "en": "AUC (mean of three seeds)"},
    "tpr": {"ko": "TPR (FPR 1 %)", "en": "TPR at FPR 1 %"},
    "legend": {"ko": "공격", "en": "Attack"},
    "band": {"ko": "우연 범위", "en": "chance range"},
    "spread": {"ko": "Gen-LRA의 시드별 범위", "en": "Gen-LRA's range over seeds"},
    "low": {"ko": "최솟값", "en": "lowest"},
    "high": {"ko": "최댓값", "en": "highest"},
}


def _sweep_panel(lang: str, metric: str, facts: PictureFacts) -> alt.LayerChart:
    text = in_language(_SWEEP_TEXT, lang)
    colours, dashes, _ = attack_scales(lang)
    base = alt.Chart(alt.Data(name="sweep")).transform_calculate(
        name=_choice("attack", ATTACK_NAMES, lang)
    )
    x = alt.X("rho:O", title=text["x"], axis=alt.Axis(labelAngle=0))
    title = text[metric]
    if metric == "auc":
        scale = alt.Scale(domain=AUC_DOMAIN, nice=False, clamp=True)
        axis = fixed_axis(Y_EXTENT)
    else:
        scale = _tpr_scale()
        axis = alt.Axis(values=TPR_TICKS, format="~%", minExtent=Y_EXTENT, maxExtent=Y_EXTENT)
    y = alt.Y(f"{metric}:Q", title=title, scale=scale, axis=axis)
    low, high = ("auc_low", "auc_high") if metric == "auc" else ("tpr_low", "tpr_high")
    gen_lra = base.transform_filter("datum.attack === 'gen_lra'")
    layers: list[alt.Chart] = []
    if metric == "auc":
        layers.append(
            gen_lra.mark_area(color=GREY, opacity=0.2).encode(
                x=x,
                y=alt.YDatum(facts.chance_low, scale=scale, title=title, axis=axis),
                y2=alt.datum(facts.chance_high),
            )
        )
    layers.append(
        gen_lra.mark_area(color=VERMILLION, opacity=0.18).encode(
            x=x, y=alt.Y(f"{low}:Q", scale=scale, title=title, axis=axis), y2=f"{high}:Q"
        )
    )
    legend_spec = legend_above(text["legend"])  # the same in both panels: drawn once
    tooltip = [
        alt.Tooltip("name:N", title=text["legend"]),
        alt.Tooltip("rho:Q", title="ρ"),
        alt.Tooltip(f"{metric}:Q", title=title, format=".3f"),
    ]
    for rows, width, extra in (
        (base.transform_filter("datum.attack !== 'gen_lra'"), 1.3, []),
        (
            gen_lra,
            3,
            [
                alt.Tooltip(f"{low}:Q", title=text["low"], format=".3f"),
                alt.Tooltip(f"{high}:Q", title=text["high"], format=".3f"),
            ],
        ),
    ):
        layers.append(
            rows.mark_line(
                strokeWidth=width, point=alt.OverlayMarkDef(size=24, filled=True)
            ).encode(
                x=x,
                y=y,
                color=alt.Color("name:N", scale=colours, legend=legend_spec),
                strokeDash=alt.StrokeDash("name:N", scale=dashes, legend=legend_spec),
                tooltip=tooltip + extra,
            )
        )
    layers.append(
        gen_lra.transform_filter("datum.rho === rho")
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=x)
    )
    return layered(*layers).properties(width=WIDTH, height=180)


def sweep_chart(lang: str, facts: PictureFacts) -> alt.VConcatChart:
    """Every attack's AUC (top) and TPR at FPR 1 % (bottom) against ρ at the current ε, k and
    bandwidth; Gen-LRA's range over the seeds shaded, the current ρ marked."""
    text = in_language(_SWEEP_TEXT, lang)
    chart = alt.vconcat(
        _sweep_panel(lang, "auc", facts),
        _sweep_panel(lang, "tpr", facts),
        spacing=12,
    ).add_params(*_params(("rho", 0.1)))
    return chart.properties(title=text["title"])


# --- Where Gen-LRA leads: bandwidth against ρ -----------------------------------------------

_ADVANTAGE_TEXT: dict[str, Text] = {
    "title": {
        "ko": "Gen-LRA의 평균 AUC − 가장 강한 경쟁 공격의 평균 AUC (지금의 ε, k)",
        "en": "Gen-LRA's mean AUC minus the strongest rival's (current ε, k)",
    },
    "x": {"ko": "기억 규모 ρ", "en": "Memorization scale ρ"},
    "y": {"ko": "대역폭 (실버먼 배수)", "en": "Bandwidth (× Silverman)"},
    "legend": {"ko": "차이", "en": "Difference"},
    "gen_lra": {"ko": "Gen-LRA AUC", "en": "Gen-LRA AUC"},
    "rival": {"ko": "가장 강한 경쟁 공격", "en": "Strongest rival"},
}


SIGNED_LABEL = "abs(datum.advantage) < 0.005 ? '0.00' : format(datum.advantage, '+.2f')"
"""A signed difference with two decimals; one that rounds to zero reads "0.00", never "−0.00"."""


def advantage_chart(lang: str) -> alt.LayerChart:
    """A heat map over ρ and bandwidth: positive where Gen-LRA beats every rival's mean AUC."""
    text = in_language(_ADVANTAGE_TEXT, lang)
    base = alt.Chart(alt.Data(name="advantage")).transform_calculate(
        rival_name=_choice("rival", ATTACK_NAMES, lang)
    )
    x = alt.X("rho:O", title=text["x"], axis=alt.Axis(labelAngle=0))
    y = alt.Y(
        "bandwidth:O",
        title=text["y"],
        sort="descending",
        axis=alt.Axis(labelExpr="datum.value + '×'", minExtent=Y_EXTENT, maxExtent=Y_EXTENT),
    )
    cells = base.mark_rect().encode(
        x=x,
        y=y,
        color=alt.Color(
            "advantage:Q",
            title=text["legend"],
            scale=alt.Scale(scheme="blueorange", domain=[-0.2, 0.2], clamp=True),
            legend=alt.Legend(orient="right", labelExpr=SIGNED_LABEL.replace("advantage", "value")),
        ),
        tooltip=[
            alt.Tooltip("rho:O", title="ρ"),
            alt.Tooltip("bandwidth:O", title=text["y"]),
            alt.Tooltip("gen_lra:Q", title=text["gen_lra"], format=".3f"),
            alt.Tooltip("rival_name:N", title=text["rival"]),
            alt.Tooltip("advantage:Q", title=text["legend"], format="+.3f"),
        ],
    )
    labels = (
        base.transform_calculate(label=SIGNED_LABEL)
        .mark_text(fontSize=ANNOTATION_SIZE)
        .encode(
            x=x,
            y=y,
            text=alt.Text("label:N"),
            color=alt.condition("abs(datum.advantage) > 0.13", alt.value("white"), alt.value(INK)),
        )
    )
    current = (
        base.transform_filter("datum.rho === rho && datum.bandwidth === bandwidth")
        .mark_rect(fill=None, stroke=INK, strokeWidth=2.5)
        .encode(x=x, y=y)
    )
    chart = layered(cells, labels, current).add_params(*_params(("rho", 0.1), ("bandwidth", 1.0)))
    return chart.properties(width=WIDTH - 90, height=200, title=text["title"])


# --- The score gap against ε -----------------------------------------------------------------

_GAP_TEXT: dict[str, Text] = {
    "title": {
        "ko": "포함 − 미포함 평균 점수 차이와 ε (지금의 ρ, k, 대역폭)",
        "en": "Mean score gap, members − non-members, against ε (current ρ, k, bandwidth)",
    },
    "x": {"ko": "과적합 강도 ε", "en": "Overfitting strength ε"},
    "y": {"ko": "평균 점수 차이", "en": "Mean score gap"},
    "fit": {"ko": "최소제곱 직선", "en": "least-squares line"},
    "low": {"ko": "시드 최솟값", "en": "lowest seed"},
    "high": {"ko": "시드 최댓값", "en": "highest seed"},
    "slope": {"ko": "기울기", "en": "slope"},
}
GAP_FILTER = "datum.rho === rho && datum.k === k && datum.bandwidth === bandwidth"


def gap_chart(lang: str) -> alt.LayerChart:
    """The seeds' mean gap at each ε (dots, with their range) and the fitted straight line.

    The rows hold every (ρ, k, bandwidth) with its gaps as lists over ε; the
    chart keeps the current one, flattens the lists and draws the line
    ``slope · ε + intercept``, labelled with its slope and R².
    """
    text = in_language(_GAP_TEXT, lang)
    current = alt.Chart(alt.Data(name="gap")).transform_filter(GAP_FILTER)
    base = current.transform_flatten(["epsilon", "gap", "low", "high"]).transform_calculate(
        fit="datum.slope * datum.epsilon + datum.intercept"
    )
    x = alt.X("epsilon:Q", title=text["x"], scale=alt.Scale(domain=[0, 0.4], nice=False))
    y_title = text["y"]
    y_axis = fixed_axis(Y_EXTENT + 10)
    line = base.mark_line(color=GREY, strokeDash=DASHED, strokeWidth=2).encode(
        x=x, y=alt.Y("fit:Q", title=y_title, axis=y_axis)
    )
    spread = base.mark_rule(color=VERMILLION, strokeWidth=2).encode(
        x=x, y=alt.Y("low:Q", title=y_title, axis=y_axis), y2="high:Q"
    )
    dots = base.mark_point(filled=True, size=70, color=VERMILLION, opacity=1).encode(
        x=x,
        y=alt.Y("gap:Q", title=y_title, axis=y_axis),
        tooltip=[
            alt.Tooltip("epsilon:Q", title="ε"),
            alt.Tooltip("gap:Q", title=y_title, format=".3g"),
            alt.Tooltip("low:Q", title=text["low"], format=".3g"),
            alt.Tooltip("high:Q", title=text["high"], format=".3g"),
            alt.Tooltip("fit:Q", title=text["fit"], format=".3g"),
        ],
    )
    now = (
        base.transform_filter("datum.epsilon === epsilon")
        .mark_point(filled=False, size=260, color=INK, strokeWidth=1.5)
        .encode(x=x, y=alt.Y("gap:Q", title=y_title, axis=y_axis))
    )
    label = (
        current.transform_calculate(
            label=(
                f"'{text['fit']}: {text['slope']} ' + format(datum.slope, '.3~g')"
                " + ', R² ' + format(datum.r2, '.2f')"
            )
        )
        .mark_text(
            align="left",
            baseline="top",
            x=8,
            y=8,
            fontSize=VALUE_SIZE,
            fontWeight="bold",
            color=INK,
        )
        .encode(text="label:N")
    )
    chart = layered(line, spread, dots, now, label).add_params(
        *_params(("epsilon", 0.4), ("rho", 0.1), ("k", 5), ("bandwidth", 1.0))
    )
    return chart.properties(width=WIDTH, height=HEIGHT, title=text["title"])


# --- Real generators ------------------------------------------------------------------------

SETTING_NAMES: dict[str, Text] = {
    s.key: {"ko": s.label_ko, "en": s.label_en} for s in GENERATOR_SETTINGS
}
_GENERATOR_TEXT: dict[str, Text] = {
    "title": {
        "ko": "실제 생성기마다 아홉 공격의 성능 (세 시드 평균)",
        "en": "The nine attacks on each real generator (mean of three seeds)",
    },
    "auc": {"ko": "AUC", "en": "AUC"},
    "tpr": {"ko": "TPR (FPR 1 %)", "en": "TPR at FPR 1 %"},
    "setting": {"ko": "생성기 설정", "en": "Generator setting"},
    "attack": {"ko": "공격", "en": "Attack"},
}


def generator_chart(lang: str) -> alt.HConcatChart:
    """Two heat maps, settings by attacks: the AUC and the TPR at FPR 1 %, values printed."""
    text = in_language(_GENERATOR_TEXT, lang)
    order = [ATTACK_NAMES[a][lang] for a in ATTACK_ORDER]
    settings = [SETTING_NAMES[s.key][lang] for s in GENERATOR_SETTINGS]
    base = alt.Chart(alt.Data(name="generator_heat")).transform_calculate(
        name=_choice("attack", ATTACK_NAMES, lang),
        label=_choice("setting", SETTING_NAMES, lang),
    )
    panels = []
    for index, (metric, domain, fmt, ink) in enumerate(
        (("auc", [0.5, 1.0], ".2f", BLUE), ("tpr", [0.0, 0.5], ".2f", VERMILLION))
    ):
        x = alt.X("name:N", title=None, sort=order, axis=alt.Axis(labelAngle=-50, orient="top"))
        y = alt.Y(
            "label:N",
            title=None,
            sort=settings,
            axis=alt.Axis(labels=index == 0, ticks=index == 0, minExtent=1, maxExtent=170),
        )
        cells = base.mark_rect().encode(
            x=x,
            y=y,
            color=alt.Color(
                f"{metric}:Q",
                scale=alt.Scale(
                    range=["#ffffff", ink], domain=domain, clamp=True, interpolate="rgb"
                ),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("label:N", title=text["setting"]),
                alt.Tooltip("name:N", title=text["attack"]),
                alt.Tooltip(f"{metric}:Q", title=text[metric], format=".3f"),
            ],
        )
        values = base.mark_text(fontSize=ANNOTATION_SIZE).encode(
            x=x,
            y=y,
            text=alt.Text(f"{metric}:Q", format=fmt),
            color=alt.condition(
                f"datum.{metric} > {domain[0] + 0.6 * (domain[1] - domain[0])}",
                alt.value("white"),
                alt.value(INK),
            ),
        )
        panels.append(
            layered(cells, values).properties(width=9 * 24, height=16 * 19, title=text[metric])
        )
    chart: alt.HConcatChart = alt.HConcatChart(hconcat=panels, spacing=6).resolve_scale(
        color="independent"
    )
    return chart.properties(title=text["title"])


_UTILITY_TEXT: dict[str, Text] = {
    "title": {
        "ko": "효용과 프라이버시 위험: 생성기 설정마다 (세 시드 평균)",
        "en": "Utility against privacy risk, per generator setting (mean of three seeds)",
    },
    "x": {"ko": "효용: 시험 데이터의 R²", "en": "Utility: test R²"},
    "y": {"ko": "위험: 가장 강한 공격의 AUC", "en": "Risk: AUC of the strongest attack"},
    "legend": {"ko": "생성기", "en": "Generator"},
    "baseline": {"ko": "실제 데이터로 학습한 R²", "en": "R² trained on the real members"},
    "setting": {"ko": "설정", "en": "Setting"},
    "attack": {"ko": "가장 강한 공격", "en": "Strongest attack"},
}


UTILITY_DOMAIN = (-0.4, 1.0)
"""Test R² from below the independent marginals' (negative: worse than the mean) to 1."""


def utility_chart(lang: str) -> alt.LayerChart:
    """One point per setting: test R² of a model trained on the release, and the highest AUC."""
    text = in_language(_UTILITY_TEXT, lang)
    families = [FAMILY_NAMES[f][lang] for f in FAMILY_NAMES]
    base = alt.Chart(alt.Data(name="utility")).transform_calculate(
        family_name=_choice("family", FAMILY_NAMES, lang),
        label=_choice("setting", SETTING_NAMES, lang),
        attack_name=_choice("risk_attack", ATTACK_NAMES, lang),
    )
    x_scale = alt.Scale(domain=list(UTILITY_DOMAIN), nice=False)
    x = alt.X("utility:Q", title=text["x"], scale=x_scale)
    y = alt.Y(
        "risk:Q",
        title=text["y"],
        scale=alt.Scale(domain=[0.45, 1.0], nice=False),
        axis=fixed_axis(Y_EXTENT),
    )
    colour = alt.Color(
        "family_name:N",
        scale=alt.Scale(domain=families, range=list(FAMILY_COLOURS)),
        legend=legend_above(text["legend"]),
    )
    spread = base.mark_rule(strokeWidth=1.5, opacity=0.6).encode(
        x=alt.X("utility_low:Q", scale=x_scale, title=text["x"]),
        x2="utility_high:Q",
        y=y,
        color=colour,
    )
    points = base.mark_point(filled=True, size=70, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        shape=alt.Shape(
            "family_name:N", scale=alt.Scale(domain=families), legend=legend_above(text["legend"])
        ),
        tooltip=[
            alt.Tooltip("label:N", title=text["setting"]),
            alt.Tooltip("utility:Q", title=text["x"], format=".3f"),
            alt.Tooltip("risk:Q", title=text["y"], format=".3f"),
            alt.Tooltip("attack_name:N", title=text["attack"]),
        ],
    )
    baseline = (
        base.transform_filter("datum.setting === 'marginals'")
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=alt.X("baseline:Q"))
    )
    baseline_label = (
        base.transform_filter("datum.setting === 'marginals'")
        .mark_text(
            angle=270,
            align="right",
            baseline="bottom",
            dx=-4,
            dy=-4,
            fontSize=ANNOTATION_SIZE,
            color=INK,
            y=0,
        )
        .encode(x=alt.X("baseline:Q"), text=alt.value(text["baseline"]))
    )
    labels = base.mark_text(align="left", dx=7, dy=-7, fontSize=ANNOTATION_SIZE).encode(
        x=x, y=y, text="short:N", color=colour
    )
    layers = layered(spread, points, labels, baseline, baseline_label)
    return layers.properties(width=WIDTH, height=HEIGHT + 40, title=text["title"])


# --- The charts of the lesson ---------------------------------------------------------------


def make_charts(facts: PictureFacts) -> tuple[Chart, ...]:
    """Every chart of the lesson, built around ``facts`` (the target and the chance range)."""
    return (
        Chart(
            "release",
            lambda lang: release_chart(lang, facts),
            {
                "ko": "시드 1의 합성 기록(복사본과 새로 뽑은 것), 표적과 그 k개 이웃. "
                "오른쪽은 표적 주변을 확대해 커널의 1σ 타원과 복사 잡음의 1σ 원을 함께 "
                "그린다.",
                "en": "Seed 1's synthetic records (copies and fresh draws), the target and "
                "its k nearest synthetic records; on the right, the target's "
                "surroundings with the kernel's 1σ ellipse and the 1σ circle of the copy noise.",
            },
        ),
        Chart(
            "scores",
            scores_chart,
            {
                "ko": "포함 표본(위)과 미포함 표본(아래)의 Gen-LRA 점수를 같은 구간에서 센 "
                "막대그래프와 표적 점수가 든 구간.",
                "en": "Gen-LRA scores of members (up) and non-members (down) counted on shared "
                "bins, and the bin that holds the target's score.",
            },
        ),
        Chart(
            "board",
            lambda lang: board_chart(lang, facts),
            {
                "ko": "지금의 설정에서 아홉 공격의 AUC와 네 FPR에서의 TPR. 점은 세 시드의 "
                "평균, 선은 시드별 범위, 회색 띠는 AUC의 우연 범위.",
                "en": "The AUC of the nine attacks at the current setting and their TPR at four "
                "FPRs; dots are means over three seeds, lines their range, the grey band the "
                "chance range of the AUC.",
            },
        ),
        Chart(
            "sweep",
            lambda lang: sweep_chart(lang, facts),
            {
                "ko": "기억 규모 ρ에 따라 아홉 공격의 AUC(위)와 FPR 1 %에서의 TPR(아래)이 "
                "어떻게 변하는지, 지금의 ρ를 점선으로 표시한다.",
                "en": "How the AUC (top) and the TPR at FPR 1 % (bottom) of the nine attacks "
                "change with the memorization scale ρ; the current ρ is dashed.",
            },
        ),
        Chart(
            "advantage",
            advantage_chart,
            {
                "ko": "ρ와 대역폭의 조합마다 Gen-LRA의 평균 AUC에서 가장 강한 경쟁 공격의 "
                "평균 AUC를 뺀 값. 주황은 Gen-LRA가 앞선 곳, 파랑은 뒤진 곳, 테두리는 지금 설정.",
                "en": "For each combination of ρ and bandwidth, Gen-LRA's mean AUC minus the "
                "strongest rival's: orange where Gen-LRA leads, blue where it trails, the "
                "current setting outlined.",
            },
        ),
        Chart(
            "gap",
            gap_chart,
            {
                "ko": "과적합 강도 ε마다 포함 표본과 미포함 표본의 평균 Gen-LRA 점수 차이(세 "
                "시드의 평균과 범위)와 최소제곱 직선, 그 기울기와 R².",
                "en": "The mean Gen-LRA score gap between members and non-members at each "
                "overfitting strength ε (mean and range of three seeds), with the least-squares "
                "line, its slope and its R².",
            },
        ),
        Chart(
            "generators",
            generator_chart,
            {
                "ko": "실제 생성기 설정(행)마다 아홉 공격(열)의 AUC와 FPR 1 %에서의 TPR. "
                "색이 진할수록 값이 크다.",
                "en": "The AUC and the TPR at FPR 1 % of the nine attacks (columns) on each real "
                "generator setting (rows); darker is higher.",
            },
        ),
        Chart(
            "utility",
            utility_chart,
            {
                "ko": "생성기 설정마다 효용(시험 데이터의 R², 가로)과 가장 강한 공격의 AUC(세로). "
                "점선은 실제 포함 표본으로 학습했을 때의 R².",
                "en": "For each generator setting, utility (test R², across) and the AUC of the "
                "strongest attack (up); the dashed line is the R² of training on the real members.",
            },
        ),
    )
