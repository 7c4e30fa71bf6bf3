"""Lesson 02's threshold charts (:mod:`compute.lessons.membership`), in the shared style.

Two charts follow the threshold control and the ε control: a histogram of the
losses on a log axis that stays the same for every setting, with the threshold
drawn on it, and the ROC curve with the threshold's point and the ε-DP bound.
Nothing here computes a result; the rows come from the lesson's ``compute``.
"""

from __future__ import annotations

import altair as alt

from compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    DASHED,
    GREEN,
    GUIDE_DASH,
    INK,
    LIGHT_GREY,
    VERMILLION,
    fixed_width,
    in_language,
    layered,
    legend_above,
    titled,
)

DOTTED: list[float] = [2, 3]
"""The e^2ε bound's dash, distinct from the e^ε bound's :data:`~compute.lessons.style.DASHED`."""

ROC_SIZE = 280
"""Both ROC charts are square (equal rates take equal lengths on both axes) and fit a phone."""

GROUP_NAMES: dict[str, tuple[str, str]] = {
    "ko": ("포함 (위)", "미포함 (아래)"),
    "en": ("Members (up)", "Non-members (down)"),
}

_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "threshold_histogram": {
        "title": {
            "ko": "기준 손실 t로 가르기: 왼쪽은 포함, 오른쪽은 미포함으로 판정",
            "en": "Splitting at the threshold t: members on the left, non-members on the right",
        },
        "x": {"ko": "제곱 손실 ℓ (MPa², 로그 눈금)", "en": "Squared loss ℓ (MPa², log scale)"},
        "y": {"ko": "표본 수", "en": "Samples"},
        "legend": {"ko": "집단", "en": "Group"},
        "rule": {"ko": "t", "en": "t"},
    },
    "generalization": {
        "title": {
            "ko": "일반화 오차가 클수록 손실 공격의 AUC가 높다",
            "en": "The larger the generalization gap, the higher the loss attack's AUC",
        },
        "x": {
            "ko": "MSE의 차이, 미포함 − 포함 (MPa²)",
            "en": "MSE gap, non-members − members (MPa²)",
        },
        "y": {"ko": "공격 AUC", "en": "Attack AUC"},
        "epochs": {"ko": "에포크", "en": "Epochs"},
        "seed": {"ko": "시드", "en": "Seed"},
    },
    "roc_bound": {
        "title": {
            "ko": "ROC 곡선과 ε-차등 개인정보보호의 두 경계",
            "en": "The ROC curve against the two ε-DP bounds",
        },
        "x": {"ko": "거짓 양성률 FPR", "en": "False-positive rate (FPR)"},
        "y": {"ko": "참 양성률 TPR", "en": "True-positive rate (TPR)"},
        "bound": {"ko": "긴 점선: e^ε 경계", "en": "dashed: e^ε bound"},
        "bound_two_steps": {"ko": "짧은 점선: e^2ε 경계", "en": "dotted: e^2ε bound"},
        "point": {"ko": "기준 t", "en": "threshold t"},
    },
}


def threshold_histogram_chart(lang: str, loss_range: tuple[float, float]) -> alt.LayerChart:
    """Members' counts upward and non-members' downward on fixed log bins, the threshold marked.

    Parameters
    ----------
    lang
        The page's language.
    loss_range
        The first and last bin edge (MPa²): the axis, the same for every setting.
    """
    text = in_language(_TEXT["threshold_histogram"], lang)
    member, nonmember = GROUP_NAMES[lang]
    log_scale = alt.Scale(type="log", domain=list(loss_range), nice=False)
    x = alt.X(
        "lower:Q",
        title=text["x"],
        scale=log_scale,
        axis=alt.Axis(format=",~g", values=[10.0**power for power in range(-4, 5, 2)]),
    )
    y_axis = alt.Axis(labelExpr="abs(datum.value)")
    colour = alt.Scale(domain=[member, nonmember], range=[BLUE, VERMILLION])
    bars = (
        alt.Chart(alt.Data(name="loss_bins"))
        .transform_calculate(
            height="datum.group === 'member' ? datum.count : -datum.count",
            group_label=f"datum.group === 'member' ? '{member}' : '{nonmember}'",
        )
        .transform_filter("datum.count > 0")
        .mark_bar(stroke="white", strokeWidth=0.5)
        .encode(
            x=x,
            x2="upper:Q",
            y=alt.Y("height:Q", title=text["y"], axis=y_axis),
            y2=alt.datum(0),
            color=alt.Color("group_label:N", scale=colour, legend=legend_above(text["legend"])),
            tooltip=[
                alt.Tooltip("group_label:N", title=text["legend"]),
                alt.Tooltip("lower:Q", title="ℓ >", format="~g"),
                alt.Tooltip("upper:Q", title="ℓ ≤", format="~g"),
                alt.Tooltip("count:Q", title=text["y"]),
            ],
        )
    )
    rule_base = alt.Chart(alt.Data(name="threshold_rule"))
    # The side the rule calls "member": from the axis's left end up to t.
    shade = (
        rule_base.transform_calculate(left=str(loss_range[0]))
        .mark_rect(color=LIGHT_GREY, opacity=0.5)
        .encode(x=alt.X("left:Q", scale=log_scale), x2="threshold:Q")
    )
    rule = rule_base.mark_rule(color=INK, strokeDash=GUIDE_DASH, strokeWidth=1.5).encode(
        x=alt.X("threshold:Q", scale=log_scale)
    )
    label = rule_base.mark_text(
        align="left", baseline="top", dx=4, y=2, fontSize=ANNOTATION_SIZE, color=INK
    ).encode(x=alt.X("threshold:Q", scale=log_scale), text=alt.value(text["rule"]))
    return titled(layered(shade, bars, rule, label), text["title"])


def roc_bound_chart(lang: str) -> alt.LayerChart:
    """The current ROC curve, the threshold's (FPR, TPR) point and the two ε-DP bounds.

    The dashed line is the bound ``e^ε`` for worlds one neighbour step apart,
    the dotted one ``e^2ε`` for worlds two add/remove steps apart (a replaced
    record, as in this fixed-size split). The region above each is shaded:
    no membership test against an ε-DP training reaches a point there under
    that reading, and none reaches the darker region above both.
    """
    text = in_language(_TEXT["roc_bound"], lang)
    x = alt.X("fpr:Q", title=text["x"], scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("tpr:Q", title=text["y"], scale=alt.Scale(domain=[0, 1]))
    bound_base = alt.Chart(alt.Data(name="dp_bound"))
    one_step = bound_base.transform_filter(alt.datum.relation == "one_step")
    two_steps = bound_base.transform_filter(alt.datum.relation == "two_steps")
    # Above the e^2ε line both shadings overlap: no test reaches it under either reading.
    forbidden = [
        rows.transform_calculate(top="1")
        .mark_area(color=LIGHT_GREY, opacity=opacity)
        .encode(x=x, y=y, y2="top:Q")
        for rows, opacity in ((one_step, 0.35), (two_steps, 0.5))
    ]
    bounds = [
        rows.mark_line(color=INK, strokeDash=dash, strokeWidth=1.5).encode(x=x, y=y)
        for rows, dash in ((one_step, DASHED), (two_steps, DOTTED))
    ]
    # Named in the bottom-right corner, which lies below both bounds and any ROC curve.
    bound_labels = [
        rows.transform_filter("datum.fpr === 1")
        .transform_calculate(fpr="0.97", tpr=tpr, label=label)
        .mark_text(align="right", baseline="bottom", fontSize=ANNOTATION_SIZE, color=INK)
        .encode(x=x, y=y, text="label:N")
        for rows, tpr, label in (
            (one_step, "0.09", f"'{text['bound']} (ε = ' + datum.epsilon + ')'"),
            (two_steps, "0.03", f"'{text['bound_two_steps']}'"),
        )
    ]
    curve = (
        alt.Chart(alt.Data(name="roc"))
        .mark_line(color=BLUE, strokeWidth=2)
        .encode(
            x=x,
            y=y,
            order=alt.Order("fpr:Q"),
            tooltip=[
                alt.Tooltip("fpr:Q", title=text["x"], format=".3f"),
                alt.Tooltip("tpr:Q", title=text["y"], format=".3f"),
            ],
        )
    )
    point_base = alt.Chart(alt.Data(name="threshold_point"))
    point = point_base.mark_point(
        shape="diamond", filled=True, size=120, color=GREEN, stroke=INK, opacity=1
    ).encode(
        x=x,
        y=y,
        tooltip=[
            alt.Tooltip("fpr:Q", title=text["x"], format=".1%"),
            alt.Tooltip("tpr:Q", title=text["y"], format=".1%"),
        ],
    )
    point_label = point_base.mark_text(
        align="left", dx=9, dy=9, fontSize=ANNOTATION_SIZE, color=INK
    ).encode(x=x, y=y, text=alt.value(text["point"]))
    layers = layered(*forbidden, *bounds, *bound_labels, curve, point, point_label)
    return fixed_width(titled(layers, text["title"], width=ROC_SIZE, height=ROC_SIZE))


def generalization_chart(lang: str, epochs: int) -> alt.LayerChart:
    """Every (epochs, seed) model's MSE gap against its AUC; the current model drawn larger.

    Declares the Vega-Lite parameters ``epochs`` and ``seed``, kept equal to the current
    values; ``epochs`` is the value the page opens with (the seed opens at 1).
    """
    text = in_language(_TEXT["generalization"], lang)
    current_epochs = alt.param(name="epochs", value=epochs)
    current_seed = alt.param(name="seed", value=1)
    x = alt.X("mse_gap:Q", title=text["x"], scale=alt.Scale(zero=False, nice=True))
    y = alt.Y("auc:Q", title=text["y"], scale=alt.Scale(zero=False, nice=True))
    base = alt.Chart(alt.Data(name="generalization"))
    points = base.mark_point(filled=True, size=50, color=BLUE, opacity=0.7).encode(
        x=x,
        y=y,
        tooltip=[
            alt.Tooltip("epochs:Q", title=text["epochs"]),
            alt.Tooltip("seed:Q", title=text["seed"]),
            alt.Tooltip("mse_gap:Q", title=text["x"], format=".1f"),
            alt.Tooltip("auc:Q", title=text["y"], format=".3f"),
        ],
    )
    mark = (
        base.transform_filter(
            (alt.datum.epochs == current_epochs) & (alt.datum.seed == current_seed)
        )
        .mark_point(filled=True, size=160, color=VERMILLION, opacity=1, stroke=INK)
        .encode(x=x, y=y)
    )
    layers = layered(points, mark).add_params(current_epochs, current_seed)
    return titled(layers, text["title"])
