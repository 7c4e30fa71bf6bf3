"""Lesson 02's charts (:mod:`compute.lessons.membership`), in the shared style.

One figure shows the attack at one threshold ``t`` twice over (:func:`attack_figure`): the
losses of members and non-members on a log axis that stays the same for every setting, cut
at ``t``, and beside it the ROC curve with ``t``'s point, the points of the other thresholds
and the regions that ε-differential privacy forbids. Dragging across the histogram (or along
the curve's points) moves ``t``, as its slider does. Three charts follow training across the
grid's epochs: the two groups' RMSE (:func:`rmse_chart`), the AUC with its chance band
(:func:`auc_chart`) and every model's generalization gap against its AUC
(:func:`generalization_chart`). Nothing here computes a result; the rows come from the
lesson's ``compute`` and ``summarize``.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    DASHED,
    GREEN,
    GREY,
    GUIDE_DASH,
    INK,
    LIGHT_GREY,
    VALUE_SIZE,
    VERMILLION,
    fixed_axis,
    in_language,
    layered,
    legend_above,
    mark_control,
    pair_scales,
    titled,
)

GROUPS: tuple[str, str] = ("member", "nonmember")
"""How the two groups are named in chart rows (the charts translate them)."""

DOTTED: list[float] = [2, 3]
"""The e^2ε bound's dash, distinct from the e^ε bound's :data:`~compute.lessons.style.DASHED`."""

ROC_SIZE = 240
"""The ROC panel is square (equal rates take equal lengths on both axes); with the loss panel
beside it the figure fits the text column, and stacked it fits a phone."""
LOSS_WIDTH = 270
"""Width of the loss panel's plot, beside the ROC panel on a wide screen."""
AXIS_EXTENT = 40
"""Pixels left of each panel for its y labels and title, so the panels line up."""
AUC_AXIS_LOWER = 0.4
"""The lower end of the AUC chart's axis (every AUC of the grid lies above it)."""
Y_EXTENT = 34
"""Pixels left of a curve chart's plot for its y labels, so the plots line up when values
change."""
LOW_SHARE = 0.15
"""A member's RMSE below this share of the highest is labelled above its point, not below."""
LABEL_SHIFT = 1.7
"""How far (as a factor on the log epochs axis, about 40 px) a label sits from its point."""
FORMATS = {"rmse": ".2f", "auc": ".3f"}
"""How the highlighted values are printed: as their readouts, without the unit."""
ROC_PADDING = 8
"""Pixels between the ROC panel's edges and the rates 0 and 1, room for a point's mark."""
LABEL_TURN = (0.8, 0.15)
"""Beyond this FPR the label of t's point goes left of it, below this TPR above it."""
STOP_TICK = 8
"""Length in pixels of the ticks at the top of the loss panel that mark where t can stop."""

GROUP_LABELS: dict[str, tuple[str, str]] = {
    "ko": ("포함 (학습에 씀)", "미포함 (학습에 안 씀)"),
    "en": ("Members (trained on)", "Non-members (held out)"),
}
GROUP_NAMES: dict[str, tuple[str, str]] = {
    "ko": ("포함 (위)", "미포함 (아래)"),
    "en": ("Members (up)", "Non-members (down)"),
}

_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "losses": {
        "title": {"ko": "기준 t로 손실 가르기", "en": "The losses, cut at t"},
        "takeaway": {
            "ko": "t 왼쪽의 손실은 모두 포함으로 판정",
            "en": "Every loss left of t is judged a member",
        },
        "x": {"ko": "제곱 손실 ℓ (MPa², 로그 눈금)", "en": "Squared loss ℓ (MPa², log scale)"},
        "y": {"ko": "표본 수", "en": "Samples"},
        "legend": {"ko": "집단", "en": "Group"},
        "rule": {"ko": "t", "en": "t"},
    },
    "roc": {
        "title": {"ko": "ROC 곡선과 ε-DP 경계", "en": "ROC curve and ε-DP bounds"},
        "takeaway": {
            "ko": "t 하나가 곡선 위의 점 하나",
            "en": "Each t is one point on the curve",
        },
        "x": {"ko": "거짓 양성률 FPR", "en": "False-positive rate (FPR)"},
        "y": {"ko": "참 양성률 TPR", "en": "True-positive rate (TPR)"},
        "bound": {"ko": "긴 점선: e^ε 경계", "en": "dashed: e^ε bound"},
        "bound_two_steps": {"ko": "짧은 점선: e^2ε 경계", "en": "dotted: e^2ε bound"},
        "point": {"ko": "t", "en": "t"},
    },
    "rmse": {
        "title": {
            "ko": "포함·미포함 표본의 RMSE",
            "en": "Members' and non-members' RMSE",
        },
        "takeaway": {
            "ko": "두 곡선 사이의 틈이 공격이 쓰는 신호",
            "en": "The gap between the curves is what the attack uses",
        },
        "x": {"ko": "학습 에포크 수 (로그 눈금)", "en": "Training epochs (log scale)"},
        "y": {"ko": "RMSE (MPa)", "en": "RMSE (MPa)"},
        "legend": {"ko": "집단", "en": "Group"},
    },
    "auc": {
        "title": {
            "ko": "에포크에 따른 손실 공격의 AUC",
            "en": "AUC of the loss attack by epochs",
        },
        "takeaway": {
            "ko": "회색 띠 안의 AUC는 우연과 구별되지 않는다",
            "en": "Inside the grey band, the AUC is chance",
        },
        "x": {"ko": "학습 에포크 수 (로그 눈금)", "en": "Training epochs (log scale)"},
        "y": {"ko": "AUC", "en": "AUC"},
        "band": {"ko": "우연 범위 (0.5 ± 2σ)", "en": "chance range (0.5 ± 2σ)"},
    },
    "generalization": {
        "title": {
            "ko": "모든 모델의 일반화 오차와 AUC",
            "en": "Every model's gap and attack AUC",
        },
        "takeaway": {
            "ko": "일반화 오차가 클수록 AUC가 높다",
            "en": "The larger the gap, the higher the AUC",
        },
        "x": {
            "ko": "MSE의 차이, 미포함 − 포함 (MPa²)",
            "en": "MSE gap, non-members − members (MPa²)",
        },
        "y": {"ko": "공격 AUC", "en": "Attack AUC"},
        "epochs": {"ko": "에포크", "en": "Epochs"},
        "seed": {"ko": "시드", "en": "Seed"},
    },
}


# --- The attack at one threshold: losses and ROC in one figure ------------------------------


def attack_figure(lang: str, loss_range: tuple[float, float], threshold: float) -> alt.HConcatChart:
    """The loss histogram cut at ``t`` beside the ROC curve with ``t``'s point and the ε-DP
    regions: one threshold moves the cut and the point together.

    Declares the Vega-Lite parameter ``threshold`` (kept equal to the current value, which
    picks ``t``'s row of ``threshold_choices``) and the mark control ``threshold_by_mark``:
    pressing on either panel and moving across it sets ``t`` to the stop nearest the pointer
    (a tick at the top of the histogram, a point on the curve).

    Parameters
    ----------
    lang
        The page's language.
    loss_range
        The first and last bin edge (MPa²): the loss axis, the same for every setting.
    threshold
        The value of ``t`` the page opens with.
    """
    current = alt.param(name="threshold", value=threshold)
    pick = mark_control("threshold", drag=True)
    figure = alt.hconcat(
        _loss_panel(lang, loss_range, current),
        _roc_panel(lang, current),
        spacing=24,
    )
    # Declared once at the top with the two layers it picks from, as Vega-Lite has it (Altair's
    # add_params warns about a selection shared by two panels). Altair numbers the layers' names
    # by their panel when it puts the panels side by side.
    views = [
        layer.name
        for panel in figure.hconcat
        for layer in panel.layer
        if isinstance(layer.name, str) and layer.name.startswith(STOP_LAYERS)
    ]
    if len(views) != len(STOP_LAYERS):
        raise ValueError(f"expected the layers {STOP_LAYERS} once each, found {views}")
    selection = pick.param
    if not isinstance(selection, alt.SelectionParameter):
        raise TypeError(f"mark_control gave {selection!r}, not a selection")
    figure.params = [
        alt.VariableParameter(name="threshold", value=threshold),
        alt.TopLevelSelectionParameter(**selection.to_dict(), views=views),
    ]
    return figure


STOP_LAYERS = ("loss_stops", "roc_stops")
"""The layers whose marks the figure's mark control picks: the histogram's ticks, the curve's
points."""


def _loss_panel(
    lang: str, loss_range: tuple[float, float], current: alt.Parameter
) -> alt.LayerChart:
    """Members' counts upward and non-members' downward on fixed log bins, cut at ``t``."""
    text = in_language(_TEXT["losses"], lang)
    member, nonmember = GROUP_NAMES[lang]
    log_scale = alt.Scale(type="log", domain=list(loss_range), nice=False)
    x = alt.X(
        "lower:Q",
        title=text["x"],
        scale=log_scale,
        axis=alt.Axis(format=",~g", values=[10.0**power for power in range(-4, 5, 2)]),
    )
    y_axis = alt.Axis(labelExpr="abs(datum.value)", minExtent=AXIS_EXTENT, maxExtent=AXIS_EXTENT)
    # Room above the tallest bar for the handle and the stops of t, and as much below.
    y_scale = alt.Scale(padding=STOP_TICK + 14)
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
            y=alt.Y("height:Q", title=text["y"], axis=y_axis, scale=y_scale),
            y2=alt.datum(0),
            color=alt.Color("group_label:N", scale=colour, legend=legend_above(text["legend"])),
        )
    )
    choices = alt.Chart(alt.Data(name="threshold_choices"))
    now = choices.transform_filter(alt.datum.threshold == current)
    at_t = alt.X("threshold:Q", scale=log_scale)
    # The side t calls "member": from the axis's left end up to t.
    shade = (
        now.transform_calculate(left=str(loss_range[0]))
        .mark_rect(color=LIGHT_GREY, opacity=0.5)
        .encode(x=alt.X("left:Q", scale=log_scale), x2="threshold:Q")
    )
    rule = (
        now.mark_rule(color=INK, strokeDash=GUIDE_DASH, strokeWidth=1.5)
        .encode(x=at_t)
        .properties(name="threshold_cut")
    )
    handle = now.mark_point(
        shape="triangle-down", filled=True, size=120, color=INK, opacity=1
    ).encode(x=at_t, y=alt.value(STOP_TICK + 5))
    label = now.mark_text(
        align="right", baseline="middle", dx=-9, fontSize=VALUE_SIZE, fontWeight="bold", color=INK
    ).encode(x=at_t, y=alt.value(STOP_TICK + 5), text=alt.value(text["rule"]))
    # Where t can stop, one tick per grid value: pressing and dragging picks the nearest.
    stops = (
        choices.mark_tick(color=INK, thickness=1.5, size=STOP_TICK, opacity=1)
        .encode(x=at_t, y=alt.value(STOP_TICK / 2))
        .properties(name=STOP_LAYERS[0])
    )
    panel = layered(shade, bars, rule, handle, label, stops)
    return titled(
        panel, text["title"], takeaway=text["takeaway"], width=LOSS_WIDTH, height=ROC_SIZE
    )


def _roc_panel(lang: str, current: alt.Parameter) -> alt.LayerChart:
    """The ROC curve, the thresholds' points on it (``t``'s a diamond), the point at FPR = 1/n
    and the two ε-DP bounds.

    The dashed line is the bound ``e^ε`` for worlds one neighbour step apart, the dotted one
    ``e^2ε`` for worlds two add/remove steps apart (a replaced record, as in this fixed-size
    split). The region above each is shaded: no membership test against an ε-DP training
    reaches a point there under that reading, and none reaches the darker region above both.
    The thin grey diagonal is random guessing.
    """
    text = in_language(_TEXT["roc"], lang)
    # A few pixels beyond both ends, so that a point in a corner stays inside the plot.
    rates = alt.Scale(domain=[0, 1], padding=ROC_PADDING)
    x = alt.X("fpr:Q", title=text["x"], scale=rates)
    y = alt.Y(
        "tpr:Q",
        title=text["y"],
        scale=rates,
        axis=alt.Axis(minExtent=AXIS_EXTENT, maxExtent=AXIS_EXTENT),
    )
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
            (two_steps, "0.02", f"'{text['bound_two_steps']}'"),
        )
    ]
    diagonal = alt.Chart(alt.Data(name="diagonal")).mark_line(color=GREY, strokeWidth=1)
    curve = alt.Chart(alt.Data(name="roc")).mark_line(color=BLUE, strokeWidth=2)
    # Unlabelled (the caption names it): by the y axis, where t's label often is too.
    smallest = alt.Chart(alt.Data(name="operating_point")).mark_point(
        filled=True, size=60, color=VERMILLION, opacity=1
    )
    choices = alt.Chart(alt.Data(name="threshold_choices"))
    stops = (
        choices.mark_point(filled=True, fill="white", stroke=BLUE, size=36, opacity=1)
        .encode(x=x, y=y)
        .properties(name=STOP_LAYERS[1])
    )
    now = choices.transform_filter(alt.datum.threshold == current)
    point = (
        now.mark_point(shape="diamond", filled=True, size=130, color=GREEN, stroke=INK, opacity=1)
        .encode(x=x, y=y)
        .properties(name="threshold_point")
    )
    # Below the curve, right of the diamond: left of it near the right edge, and above it near
    # the bottom, where the axis labels are.
    point_label = now.mark_text(
        fontSize=VALUE_SIZE,
        fontWeight="bold",
        color=INK,
        align=alt.ExprRef(expr=f"datum.fpr > {LABEL_TURN[0]} ? 'right' : 'left'"),
        dx=alt.ExprRef(expr=f"datum.fpr > {LABEL_TURN[0]} ? -8 : 8"),
        baseline=alt.ExprRef(expr=f"datum.tpr < {LABEL_TURN[1]} ? 'bottom' : 'top'"),
        dy=alt.ExprRef(expr=f"datum.tpr < {LABEL_TURN[1]} ? -6 : 6"),
    ).encode(x=x, y=y, text=alt.value(text["point"]))
    layers = layered(
        *forbidden,
        *bounds,
        *bound_labels,
        diagonal.encode(x=x, y=y),
        curve.encode(x=x, y=y, order=alt.Order("fpr:Q")),
        smallest.encode(x=x, y=y),
        point,
        point_label,
        stops,
    )
    return titled(layers, text["title"], takeaway=text["takeaway"], width=ROC_SIZE, height=ROC_SIZE)


# --- Training across the grid's epochs --------------------------------------------------


def _group_encoding(lang: str) -> tuple[alt.Scale, alt.Scale, str]:
    """Colour and dash scales for the translated group names, and the expression naming them."""
    member, nonmember = GROUP_LABELS[lang]
    expression = f"datum.group === '{GROUPS[0]}' ? '{member}' : '{nonmember}'"
    colour, dash = pair_scales((member, nonmember))
    return colour, dash, expression


def _epochs_axis(title: str, epochs: Sequence[int], field: str = "epochs") -> alt.X:
    return alt.X(
        f"{field}:Q",
        title=title,
        scale=alt.Scale(type="log", domain=[min(epochs), max(epochs)], nice=False),
        axis=alt.Axis(values=list(epochs), format="~s"),
    )


def _current_labels(
    base: alt.Chart,
    current: alt.Parameter,
    epochs: Sequence[int],
    x_title: str,
    y: alt.Y,
    field: str,
    dy: int | alt.ExprRef,
) -> alt.Chart:
    """The value at the current epochs, printed beside its point and never past the plot.

    The label's centre sits :data:`LABEL_SHIFT` times to the right of the point
    on the log axis, or as far to the left from the third-last grid value on. One
    layer with exactly one row per group: an empty layer would make Vega warn.
    """
    turn = epochs[-3]
    shifted = (
        f"datum.epochs >= {turn} ? datum.epochs / {LABEL_SHIFT} : datum.epochs * {LABEL_SHIFT}"
    )
    labels: alt.Chart = (
        base.transform_filter(alt.datum.epochs == current)
        .transform_calculate(label_at=shifted)
        .mark_text(align="center", dy=dy, fontSize=VALUE_SIZE, fontWeight="bold", color=INK)
        .encode(
            x=_epochs_axis(x_title, epochs, "label_at"),
            y=y,
            text=alt.Text(f"{field}:Q", format=FORMATS[field]),
        )
    )
    return labels


def rmse_chart(lang: str, epochs: Sequence[int], default: int) -> alt.LayerChart:
    """Member and non-member RMSE over the grid's ``epochs``; the current epochs are marked.

    Declares the Vega-Lite parameter ``epochs``, kept equal to the current value (``default``
    when the page opens). Members' values are labelled below their point, non-members' above.
    """
    text = in_language(_TEXT["rmse"], lang)
    current = alt.param(name="epochs", value=default)
    colour, dash, expression = _group_encoding(lang)
    legend = legend_above(text["legend"])
    x = _epochs_axis(text["x"], epochs)
    y = alt.Y("rmse:Q", title=text["y"], axis=fixed_axis(Y_EXTENT))
    base = alt.Chart(alt.Data(name="curves")).transform_calculate(group_label=expression)
    lines = base.mark_line(strokeWidth=2, point=True).encode(
        x=x,
        y=y,
        color=alt.Color("group_label:N", scale=colour, legend=legend),
        strokeDash=alt.StrokeDash("group_label:N", scale=dash, legend=legend),
        tooltip=[
            alt.Tooltip("group_label:N", title=text["legend"]),
            alt.Tooltip("epochs:Q", title=text["x"]),
            alt.Tooltip("rmse:Q", title=text["y"], format=".2f"),
        ],
    )
    now = base.transform_filter(alt.datum.epochs == current)
    rule = (
        now.transform_filter(alt.datum.group == GROUPS[0])
        .mark_rule(color=GREY, strokeDash=GUIDE_DASH)
        .encode(x=x)
    )
    marks = now.mark_point(filled=True, size=110, opacity=1, stroke=INK, strokeWidth=1).encode(
        x=x, y=y, color=alt.Color("group_label:N", scale=colour, legend=legend)
    )
    # Non-members' values above their point; members' below it, or above it near the bottom
    # of the plot, where the axis labels are (the non-members' curve is far above it there).
    highest = base.transform_joinaggregate(highest="max(rmse)")
    below = alt.ExprRef(expr=f"datum.rmse < {LOW_SHARE} * datum.highest ? -10 : 10")
    member_label, nonmember_label = (
        _current_labels(
            highest.transform_filter(alt.datum.group == group),
            current,
            epochs,
            text["x"],
            y,
            "rmse",
            dy,
        )
        for group, dy in ((GROUPS[0], below), (GROUPS[1], -10))
    )
    layers = layered(rule, lines, marks, member_label, nonmember_label)
    return titled(layers.add_params(current), text["title"], takeaway=text["takeaway"])


def auc_chart(lang: str, epochs: Sequence[int], default: int) -> alt.LayerChart:
    """AUC over the grid's ``epochs`` with the chance band; the current epochs are highlighted.

    Declares the Vega-Lite parameter ``epochs``, kept equal to the current value (``default``
    when the page opens).
    """
    text = in_language(_TEXT["auc"], lang)
    current = alt.param(name="epochs", value=default)
    x = _epochs_axis(text["x"], epochs)
    scale = alt.Scale(domain=[AUC_AXIS_LOWER, 1.0], zero=False, nice=False)
    axis = fixed_axis(Y_EXTENT)
    y = alt.Y("auc:Q", title=text["y"], scale=scale, axis=axis)
    base = alt.Chart(alt.Data(name="auc_curve"))
    band = base.mark_area(color=GREY, opacity=0.25).encode(
        x=x,
        y=alt.Y("chance_low:Q", title=text["y"], scale=scale, axis=axis),
        y2="chance_high:Q",
    )
    band_label = (
        base.transform_filter(alt.datum.epochs == max(epochs))
        .mark_text(align="right", baseline="bottom", dy=-3, fontSize=ANNOTATION_SIZE, color=INK)
        .encode(
            x=x,
            y=alt.Y("chance_high:Q", scale=scale, axis=axis),
            text=alt.value(text["band"]),
        )
    )
    line = base.mark_line(color=BLUE, strokeWidth=2, point=alt.OverlayMarkDef(color=BLUE)).encode(
        x=x,
        y=y,
        tooltip=[
            alt.Tooltip("epochs:Q", title=text["x"]),
            alt.Tooltip("auc:Q", title=text["y"], format=".3f"),
        ],
    )
    mark = (
        base.transform_filter(alt.datum.epochs == current)
        .mark_point(filled=True, size=140, color=VERMILLION, opacity=1, stroke=INK)
        .encode(x=x, y=y)
    )
    label = _current_labels(base, current, epochs, text["x"], y, "auc", -10)
    layers = layered(band, band_label, line, mark, label)
    return titled(layers.add_params(current), text["title"], takeaway=text["takeaway"])


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
    return titled(layers, text["title"], takeaway=text["takeaway"])
