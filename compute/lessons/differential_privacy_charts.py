"""Lesson 03's charts of sampled releases and of the clip bound
(:mod:`compute.lessons.differential_privacy`), in the shared style.

Nothing here computes a result: the rows come from the lesson's ``compute``
(the histogram, the densities) and ``summarize`` (bias and error over the bound).
"""

from __future__ import annotations

import altair as alt

from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    DASHED,
    GREY,
    GUIDE_DASH,
    INK,
    LIGHT_GREY,
    SKY_BLUE,
    SOLID,
    VALUE_SIZE,
    VERMILLION,
    fixed_width,
    in_language,
    layered,
    legend_above,
    titled,
)

ERROR_PARTS: tuple[str, str, str] = ("bias", "noise", "rmse")
"""The fields of the clip chart's rows, one line each: the clip's bias, the noise, both."""

OPTIMAL_TEST_SIZE = 280
"""Side of the square optimal-test plot (pixels), as lesson 02's ROC: narrow enough for a phone."""

_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "release_histogram": {
        "title": {
            "ko": "D에서 뽑은 공개값 {count}개(막대)와 정확한 밀도(선)",
            "en": "{count} releases sampled on D (bars) and the exact density (line)",
        },
        "takeaway": {
            "ko": "공개값을 많이 뽑으면 막대가 정확한 밀도 곡선을 따른다",
            "en": "Sampled in large numbers, the releases follow the exact density",
        },
        "x": {"ko": "공개되는 답 x", "en": "Released answer x"},
        "y": {"ko": "확률 밀도", "en": "Probability density"},
        "bar": {"ko": "표본 밀도", "en": "Sampled density"},
        "from": {"ko": "구간 시작", "en": "Bin from"},
        "to": {"ko": "구간 끝", "en": "Bin to"},
    },
    "optimal_test": {
        "title": {
            "ko": "D와 D′를 가려내는 최선의 검정과 ε 경계",
            "en": "The best test of D against D′ and the ε bound",
        },
        "takeaway": {
            "ko": "어떤 검정도 점선의 ε 경계 위로 올라가지 못한다",
            "en": "No test of one release gets above the dashed ε bound",
        },
        "x": {"ko": "거짓 양성률 FPR", "en": "False-positive rate (FPR)"},
        "y": {"ko": "참 양성률 TPR", "en": "True-positive rate (TPR)"},
        "curve": {"ko": "최적 검정", "en": "best test"},
        "bound": {"ko": "점선: e^ε 경계", "en": "dashed: e^ε bound"},
    },
    "clip_tradeoff": {
        "title": {
            "ko": "자르기 상한 C가 낮으면 편향이, 높으면 잡음이 커진다 (제한 평균)",
            "en": "A low clip bound C costs bias, a high one noise (bounded mean)",
        },
        "takeaway": {
            "ko": "합친 오차가 가장 낮은 C가 가장 좋은 상한이며, 그 자리는 ε에 따라 움직인다",
            "en": "The best bound is where the total error is lowest, and it moves with ε",
        },
        "x": {"ko": "자르기 상한 C (MPa)", "en": "Clip bound C (MPa)"},
        "y": {"ko": "오차 (MPa)", "en": "Error (MPa)"},
        "legend": {"ko": "오차", "en": "Error"},
        "bias": {"ko": "자르기 편향 |β|", "en": "Clip bias |β|"},
        "noise": {"ko": "잡음 표준편차 √2·b", "en": "Noise SD √2·b"},
        "rmse": {"ko": "합친 RMSE", "en": "Total RMSE"},
        "sample_max": {"ko": "D의 최댓값", "en": "largest in D"},
    },
}


def sampled_histogram_chart(lang: str, count: int) -> alt.LayerChart:
    """Bars of the sampled releases' density and the exact density of the release on ``D``.

    Both come from the rows of ``release_histogram``: a bar per bin, and the line
    through the exact density at the bins' left edges.

    Parameters
    ----------
    lang
        The page's language.
    count
        How many releases were sampled (named in the title).
    """
    text = in_language(_TEXT["release_histogram"], lang)
    title = text["title"].format(count=f"{count:,}")
    x_scale = alt.Scale(zero=False, nice=False)
    bars = (
        alt.Chart(alt.Data(name="release_histogram"))
        .mark_bar(color=SKY_BLUE, opacity=0.6, stroke="white", strokeWidth=0.5)
        .encode(
            x=alt.X("start:Q", title=text["x"], scale=x_scale),
            x2=alt.X2("end:Q", title=text["x"]),
            y=alt.Y("density:Q", title=text["y"]),
            y2=alt.datum(0),
            tooltip=[
                alt.Tooltip("start:Q", title=text["from"], format=".4g"),
                alt.Tooltip("end:Q", title=text["to"], format=".4g"),
                alt.Tooltip("density:Q", title=text["bar"], format=".3g"),
            ],
        )
    )
    exact = (
        alt.Chart(alt.Data(name="release_histogram"))
        .mark_line(color=BLUE, strokeWidth=2)
        .encode(
            x=alt.X("start:Q", title=text["x"], scale=x_scale),
            y=alt.Y("exact:Q", title=text["y"]),
        )
    )
    return titled(layered(bars, exact), title, takeaway=text["takeaway"])


def clip_tradeoff_chart(lang: str, bounds: tuple[float, float], clip: float) -> alt.LayerChart:
    """The clip's bias, the noise and their RMSE over the bound, at the current ε.

    The chart declares the Vega-Lite parameter ``clip``, which the page keeps
    equal to the current bound: it gets a rule and a point on each line, and
    the total error there is printed beside its point.

    Parameters
    ----------
    lang
        The page's language.
    bounds
        The first and last bound of the rows (MPa): the x axis.
    clip
        The bound when the page opens.
    """
    text = in_language(_TEXT["clip_tradeoff"], lang)
    current_clip = alt.param(name="clip", value=clip)
    labels = [text[part] for part in ERROR_PARTS]
    label_of = " : ".join(
        f"datum.part === '{part}' ? '{label}'"
        for part, label in zip(ERROR_PARTS, labels, strict=True)
    )
    x = alt.X(
        "clip:Q", title=text["x"], scale=alt.Scale(domain=list(bounds), nice=False, zero=False)
    )
    y = alt.Y("error:Q", title=text["y"], scale=alt.Scale(zero=True))
    colour = alt.Color(
        "label:N",
        title=text["legend"],
        scale=alt.Scale(domain=labels, range=[VERMILLION, BLUE, INK]),
        sort=labels,
        legend=legend_above(text["legend"], lines=True),
    )
    dash = alt.StrokeDash(
        "label:N",
        title=text["legend"],
        scale=alt.Scale(domain=labels, range=[DASHED, GUIDE_DASH, SOLID]),
        sort=labels,
        legend=legend_above(text["legend"], lines=True),
    )
    rows = (
        alt.Chart(alt.Data(name="clip_tradeoff"))
        .transform_fold(list(ERROR_PARTS), as_=["part", "error"])
        .transform_calculate(label=f"{label_of} : ''")
    )
    lines = rows.mark_line(strokeWidth=2).encode(
        x=x,
        y=y,
        color=colour,
        strokeDash=dash,
        tooltip=[
            alt.Tooltip("label:N", title=text["legend"]),
            alt.Tooltip("clip:Q", title=text["x"], format=".4g"),
            alt.Tooltip("error:Q", title=text["y"], format=".3g"),
        ],
    )
    at_clip = rows.transform_filter(alt.datum.clip == current_clip)
    rule = (
        at_clip.transform_filter(alt.datum.part == ERROR_PARTS[-1])
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=x)
    )
    points = at_clip.mark_point(filled=True, size=50, opacity=1).encode(
        x=x, y=y, color=colour, strokeDash=dash
    )
    total = (
        at_clip.transform_filter(alt.datum.part == ERROR_PARTS[-1])
        .mark_text(align="left", dx=6, dy=-6, color=INK, fontSize=VALUE_SIZE)
        .encode(x=x, y=y, text=alt.Text("error:Q", title=text["y"], format=".3~g"))
    )
    sample_max = alt.Chart(alt.Data(name="clip_sample_max"))
    max_rule = sample_max.mark_rule(color=GREY, strokeWidth=1.5).encode(x=x)
    max_label = sample_max.mark_text(
        align="left", baseline="top", dx=4, y=2, color=INK, fontSize=ANNOTATION_SIZE
    ).encode(x=x, text=alt.value(text["sample_max"]))
    layers = layered(max_rule, max_label, lines, rule, points, total)
    return titled(layers.add_params(current_clip), text["title"], takeaway=text["takeaway"])


def optimal_test_chart(lang: str) -> alt.LayerChart:
    """The likelihood-ratio test's ROC between the releases on ``D`` and ``D′``, under the
    ε-DP bound, the region above the bound shaded; both from the rows of ``optimal_test``."""
    text = in_language(_TEXT["optimal_test"], lang)
    x = alt.X("fpr:Q", title=text["x"], scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("tpr:Q", title=text["y"], scale=alt.Scale(domain=[0, 1]))
    y_bound = alt.Y("bound:Q", title=text["y"], scale=alt.Scale(domain=[0, 1]))
    rows = alt.Chart(alt.Data(name="optimal_test"))
    forbidden = rows.mark_area(color=LIGHT_GREY, opacity=0.5).encode(
        x=x, y=y_bound, y2=alt.datum(1)
    )
    # A line mark joins its points in the order of x, so the rows need no order channel.
    bound = rows.mark_line(color=INK, strokeDash=DASHED, strokeWidth=1.5).encode(x=x, y=y_bound)
    # Named in the bottom-right corner, below the bound and any ROC curve better than chance.
    bound_label = (
        rows.transform_filter("datum.fpr === 1")
        .transform_calculate(fpr="0.97", tpr="0.04")
        .mark_text(align="right", baseline="bottom", fontSize=ANNOTATION_SIZE, color=INK)
        .encode(x=x, y=y, text=alt.value(text["bound"]))
    )
    curve = rows.mark_line(color=BLUE, strokeWidth=2).encode(
        x=x,
        y=y,
        tooltip=[
            alt.Tooltip("fpr:Q", title=text["x"], format=".3f"),
            alt.Tooltip("tpr:Q", title=text["curve"], format=".3f"),
        ],
    )
    layers = layered(forbidden, bound, bound_label, curve)
    return fixed_width(
        titled(
            layers,
            text["title"],
            takeaway=text["takeaway"],
            width=OPTIMAL_TEST_SIZE,
            height=OPTIMAL_TEST_SIZE,
        )
    )
