"""The charts of lesson 06: the coverage ceiling, paired differences, verdicts, generators, ROC.

Charts over whole-lesson datasets (``sizes``, ``ceilings``, ``heat``, ``risk``, ``region``)
keep the rows of the current point with Vega-Lite params named like the grid's
parameters; the paired rows and the ROC rows are the current point's own.
Every chart carries a takeaway (:func:`~compute.lessons.style.titled`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import altair as alt

from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    BLUE,
    GREEN,
    GREY,
    GUIDE_DASH,
    INK,
    LEGEND_STROKE_SIZE,
    LIGHT_GREY,
    ORANGE,
    SKY_BLUE,
    VERMILLION,
    fixed_axis,
    fixed_width,
    in_language,
    layered,
    titled,
)
from privacy_explorer.lesson import Chart, Text

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
"""The attacks' names on this page, in the registry's order."""
FAMILY_NAMES: dict[str, Text] = {
    "gaussian_mixture": {"ko": "가우스 혼합", "en": "Gaussian mixture"},
    "kde": {"ko": "KDE 표본", "en": "KDE sampler"},
    "smote": {"ko": "SMOTE", "en": "SMOTE"},
    "marginals": {"ko": "독립 주변분포", "en": "Marginals"},
    "bayes_net": {"ko": "베이즈 네트워크", "en": "Bayesian network"},
    "private_bayes_net": {"ko": "DP 베이즈 네트워크", "en": "DP Bayesian network"},
}
FAMILY_COLOURS: tuple[str, ...] = (BLUE, GREEN, ORANGE, INK, SKY_BLUE, VERMILLION)

Y_EXTENT = 44
"""Pixels left of a plot for its y labels, so that plots line up whatever the values."""
AUC_DOMAIN: tuple[float, float] = (0.4, 1.0)
ROC_SIZE = 280
"""Width and height of the square ROC plot: with its axes it fits a phone."""

SIM_FILTER = "datum.epsilon === epsilon && datum.rho === rho"
VARIANT_FILTER = (
    "(!isValid(datum.k) || datum.k === k) && "
    "(!isValid(datum.bandwidth) || datum.bandwidth === bandwidth)"
)
SIZE_LABEL = "format(datum.value * 200, ',')"
"""The release size |S| from its multiple of the 200 members."""


def _choice(field: str, names: Mapping[str, Text], lang: str) -> str:
    """A Vega expression that names each value of ``field`` in ``lang`` (nested conditions)."""
    keys = list(names)
    expression = repr(names[keys[-1]][lang])
    for key in reversed(keys[:-1]):
        expression = f"datum.{field} === {key!r} ? {names[key][lang]!r} : ({expression})"
    return expression


def _lines(text: str) -> list[str]:
    """A chart text written with line breaks, as the lines a phone's width can hold."""
    return text.split("\n")


def _legend(title: str, columns: int) -> alt.Legend:
    """A legend above the plot in ``columns`` columns, so that it never runs past a phone's
    width (:func:`~compute.lessons.style.legend_above` keeps one row)."""
    return alt.Legend(title=title, orient="top", direction="horizontal", columns=columns)


def _line_legend(title: str | None, columns: int) -> alt.Legend:
    """:func:`_legend` whose entries are short strokes drawn with their line's dash."""
    return alt.Legend(
        title=title,
        orient="top",
        direction="horizontal",
        columns=columns,
        symbolType="stroke",
        symbolStrokeWidth=2,
        symbolSize=LEGEND_STROKE_SIZE,
    )


def _params(**defaults: Any) -> list[alt.Parameter]:
    return [alt.param(name=name, value=value) for name, value in defaults.items()]


# --- The coverage ceiling against the release size ----------------------------------------------

_CEILING_TEXT: dict[str, Text] = {
    "auc_title": {
        "ko": "공개본 크기에 따른 AUC와 천장\n(지금의 ε, ρ, k, 대역폭)",
        "en": "AUC against the release size, and its ceiling\n(current ε, ρ, k, bandwidth)",
    },
    "auc_takeaway": {
        "ko": "어떤 공격도 검은 천장을 넘으리라 기대할 수 없다.\n"
        "천장이 회색 띠 안이면 순위는 잡음이다.",
        "en": "No attack can expect to pass the black ceiling;\ninside the grey band, a ranking "
        "ranks noise.",
    },
    "tpr_title": {
        "ko": "공개본 크기에 따른 FPR 1 %의 TPR과 천장",
        "en": "TPR at FPR 1 % against the release size,\nand its ceiling",
    },
    "tpr_takeaway": {
        "ko": "낮은 FPR에서 천장은 대략\n복사된 포함 표본의 비율이다.",
        "en": "At a low FPR the ceiling is about\nthe share of members copied.",
    },
    "x": {"ko": "공개본 크기 |S| (합성 기록 수)", "en": "Release size |S| (synthetic records)"},
    "auc": {"ko": "AUC (시드 {seeds}개 평균)", "en": "AUC (mean of {seeds} seeds)"},
    "tpr": {"ko": "TPR (FPR 1 %)", "en": "TPR at FPR 1 %"},
    "measured": {"ko": "천장 (측정)", "en": "Ceiling (measured)"},
    "closed": {"ko": "천장 (닫힌 식)", "en": "Ceiling (closed form)"},
    "other": {"ko": "그 밖의 공격", "en": "Other rivals"},
    "attack": {"ko": "공격", "en": "Attack"},
    "band": {"ko": "우연 범위", "en": "chance band"},
}

HIGHLIGHTED: tuple[str, ...] = ("gen_lra", "dcr", "domias")
"""Attacks with a colour of their own on the ceiling charts; the rest are grey."""


def _series_scales(text: Mapping[str, str], lang: str) -> tuple[alt.Scale, alt.Scale]:
    names = [ATTACK_NAMES[a][lang] for a in HIGHLIGHTED]
    domain = [*names, text["other"], text["measured"], text["closed"]]
    colours = alt.Scale(domain=domain, range=[VERMILLION, BLUE, GREEN, GREY, INK, INK])
    dashes = alt.Scale(domain=domain, range=[[1, 0], [1, 0], [1, 0], [1, 0], [1, 0], GUIDE_DASH])
    return colours, dashes


def _texts(texts: Mapping[str, Text], lang: str, seeds: int) -> dict[str, str]:
    """A chart's texts in ``lang`` with ``{seeds}`` replaced by the number of seeds."""
    return {
        key: text.replace("{seeds}", str(seeds)) for key, text in in_language(texts, lang).items()
    }


def _ceiling_chart(
    lang: str, metric: str, chance: tuple[float, float], seeds: int
) -> alt.LayerChart:
    """Every attack's mean ``metric`` (``auc`` or ``tpr``) against the release size, the ceiling
    of the releases drawn (with its range over seeds) and of the closed form."""
    text = _texts(_CEILING_TEXT, lang, seeds)
    colours, dashes = _series_scales(text, lang)
    legend = _line_legend(None, 2)
    x = alt.X("size:O", title=text["x"], axis=alt.Axis(labelAngle=0, labelExpr=SIZE_LABEL))
    if metric == "auc":
        scale = alt.Scale(domain=list(AUC_DOMAIN), nice=False, clamp=True)
        axis = fixed_axis(Y_EXTENT)
    else:
        scale = alt.Scale(domain=[0, 1], nice=False)
        axis = alt.Axis(format="~%", minExtent=Y_EXTENT, maxExtent=Y_EXTENT)
    y = alt.Y(f"{metric}:Q", title=text[metric], scale=scale, axis=axis)
    highlighted = " || ".join(f"datum.attack === {a!r}" for a in HIGHLIGHTED)
    attacks = (
        alt.Chart(alt.Data(name="sizes"))
        .transform_filter(f"{SIM_FILTER} && {VARIANT_FILTER}")
        .transform_calculate(
            name=_choice("attack", ATTACK_NAMES, lang),
            series=f"({highlighted}) ? datum.name : {text['other']!r}",
        )
    )
    ceilings = alt.Chart(alt.Data(name="ceilings")).transform_filter(SIM_FILTER)
    layers: list[alt.Chart] = []
    if metric == "auc":
        layers.append(
            ceilings.mark_area(color=GREY, opacity=0.25).encode(
                x=x,
                y=alt.YDatum(chance[0], scale=scale, title=text[metric], axis=axis),
                y2=alt.datum(chance[1]),
            )
        )
        layers.append(
            ceilings.mark_rule(color=INK, strokeWidth=1.5).encode(
                x=x, y=alt.Y("auc_low:Q", scale=scale), y2="auc_high:Q"
            )
        )
    tooltip = [
        alt.Tooltip("name:N", title=text["attack"]),
        alt.Tooltip(f"{metric}:Q", format=".3f"),
    ]
    layers += [
        attacks.transform_filter(f"!({highlighted})")
        .mark_line(strokeWidth=1, opacity=0.8)
        .encode(
            x=x,
            y=y,
            detail="attack:N",
            color=alt.Color("series:N", scale=colours, legend=legend),
            strokeDash=alt.StrokeDash("series:N", scale=dashes, legend=legend),
            tooltip=tooltip,
        ),
        attacks.transform_filter(highlighted)
        .mark_line(strokeWidth=2.5, point=alt.OverlayMarkDef(size=30, filled=True))
        .encode(
            x=x,
            y=y,
            color=alt.Color("series:N", scale=colours, legend=legend),
            strokeDash=alt.StrokeDash("series:N", scale=dashes, legend=legend),
            tooltip=tooltip,
        ),
    ]
    for field, series in ((metric, text["measured"]), (f"{metric}_closed", text["closed"])):
        layers.append(
            ceilings.transform_calculate(series=repr(series))
            .mark_line(strokeWidth=2)
            .encode(
                x=x,
                y=alt.Y(f"{field}:Q", scale=scale),
                color=alt.Color("series:N", scale=colours, legend=legend),
                strokeDash=alt.StrokeDash("series:N", scale=dashes, legend=legend),
                tooltip=[alt.Tooltip(f"{field}:Q", title=series, format=".3f")],
            )
        )
    chart = layered(*layers).add_params(*_params(epsilon=0.4, rho=0.1, k=20, bandwidth=1.0))
    return titled(
        chart,
        _lines(text[f"{metric}_title"]),
        takeaway=_lines(text[f"{metric}_takeaway"]),
        height=170 if metric == "auc" else 150,
    )


# --- Gen-LRA minus each rival at the current setting ----------------------------------------

_PAIRED_TEXT: dict[str, Text] = {
    "title": {
        "ko": "시드별로 짝지은 AUC 차이\nGen-LRA − 각 경쟁 공격 (지금 설정)",
        "en": "Per-seed paired AUC difference,\nGen-LRA − each rival (current setting)",
    },
    "takeaway": {
        "ko": "모든 비교를 함께 보정한 뒤에도 구간이\n0을 벗어날 때만 차이로 센다.",
        "en": "A difference counts only when its interval\nleaves 0 after correcting for every "
        "comparison.",
    },
    "x": {"ko": "평균 차이와 95 % t 구간", "en": "Mean difference and 95 % t interval"},
    "y": {
        "ko": "경쟁 공격 (Gen-LRA가 높았던 시드 : 낮았던 시드)",
        "en": "Rival (seeds Gen-LRA higher : lower)",
    },
    "legend": {"ko": "판정 (Holm)", "en": "Verdict (Holm)"},
    "higher": {"ko": "Gen-LRA가 높음", "en": "Gen-LRA higher"},
    "lower": {"ko": "경쟁 공격이 높음", "en": "Rival higher"},
    "inside": {"ko": "잡음 안", "en": "Inside the noise"},
    "unjudged": {"ko": "판정 안 함 (천장)", "en": "Not judged (ceiling)"},
}
VERDICTS: tuple[str, ...] = ("higher", "lower", "inside", "unjudged")
VERDICT_COLOURS: tuple[str, ...] = (ORANGE, BLUE, GREY, LIGHT_GREY)


def paired_chart(lang: str) -> alt.LayerChart:
    """A forest plot: for each rival, the mean paired difference with its interval."""
    text = in_language(_PAIRED_TEXT, lang)
    names = {v: _PAIRED_TEXT[v] for v in VERDICTS}
    name = _choice("attack", ATTACK_NAMES, lang)
    base = alt.Chart(alt.Data(name="paired")).transform_calculate(
        label=f"({name}) + ' (' + datum.wins + ' : ' + datum.losses + ')'",
        verdict_name=_choice("verdict", names, lang),
    )
    domain = [text[v] for v in VERDICTS]
    colour = alt.Color(
        "verdict_name:N",
        title=text["legend"],
        scale=alt.Scale(domain=domain, range=list(VERDICT_COLOURS)),
        legend=_legend(text["legend"], 2),
    )
    y = alt.Y("label:N", title=None, sort=None, axis=alt.Axis(minExtent=100, maxExtent=150))
    x_scale = alt.Scale(domain=[-0.55, 0.15], nice=False, clamp=True)
    x = alt.X("mean:Q", title=text["x"], scale=x_scale)
    zero = base.mark_rule(color=INK, aria=False).encode(x=alt.datum(0))
    bars = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X("low:Q", scale=x_scale, title=text["x"]), x2="high:Q", y=y, color=colour
    )
    dots = base.mark_point(filled=True, size=70).encode(
        x=x,
        y=y,
        color=colour,
        tooltip=[
            alt.Tooltip("label:N", title=text["y"]),
            alt.Tooltip("mean:Q", format="+.3f"),
            alt.Tooltip("low:Q", format="+.3f"),
            alt.Tooltip("high:Q", format="+.3f"),
        ],
    )
    return titled(
        layered(zero, bars, dots),
        _lines(text["title"]),
        takeaway=_lines(text["takeaway"]),
        height=230,
    )


# --- Every setting's verdict: ρ against release size --------------------------------------------

_HEAT_TEXT: dict[str, Text] = {
    "title": {
        "ko": "설정마다의 판정: Gen-LRA − 가장 강한\n경쟁 공격 (지금의 ε, k, 대역폭)",
        "en": "Each setting's verdict: Gen-LRA − the strongest\nrival (current ε, k, bandwidth)",
    },
    "takeaway": {
        "ko": "회색 칸은 잡음 안이다. 주황은 Gen-LRA가\n"
        "모두를 앞선 곳, 파랑은 어떤 공격에 뒤진 곳이다.",
        "en": "Grey: inside the noise. Orange would mean Gen-LRA\nleads every rival; blue, that "
        "some rival leads it.",
    },
    "x": {"ko": "공개본 크기 |S|", "en": "Release size |S|"},
    "y": {"ko": "기억 규모 ρ", "en": "Memorization scale ρ"},
    "legend": {"ko": "판정 (Holm)", "en": "Verdict (Holm)"},
    "leads": {"ko": "앞섬", "en": "Leads"},
    "trails": {"ko": "뒤짐", "en": "Trails"},
    "inside": {"ko": "잡음 안", "en": "Inside the noise"},
    "unjudged": {"ko": "판정 안 함", "en": "Not judged"},
    "not_run": {"ko": "실행 안 함", "en": "Not run"},
}
HEAT_VERDICTS: tuple[str, ...] = ("leads", "trails", "inside", "unjudged", "not_run")
HEAT_COLOURS: tuple[str, ...] = (ORANGE, SKY_BLUE, LIGHT_GREY, "#FFFFFF", "#FFFFFF")
HEAT_LABEL = (
    "!isValid(datum.lead) ? '—' : abs(datum.lead) < 0.005 ? '0.00' : format(datum.lead, '+.2f')"
)
"""A cell's mean lead with two decimals ("0.00" never "−0.00"), "—" where not run."""


def heat_chart(lang: str) -> alt.LayerChart:
    """A 3 × 3 map over ρ and release size at the current ε, k and bandwidth: each cell's verdict
    as its colour, its mean lead as its text."""
    text = in_language(_HEAT_TEXT, lang)
    names = {v: _HEAT_TEXT[v] for v in HEAT_VERDICTS}
    base = (
        alt.Chart(alt.Data(name="heat"))
        .transform_filter(
            "datum.epsilon === epsilon && datum.k === k && datum.bandwidth === bandwidth"
        )
        .transform_calculate(verdict_name=_choice("verdict", names, lang), label=HEAT_LABEL)
    )
    x = alt.X("size:O", title=text["x"], axis=alt.Axis(labelAngle=0, labelExpr=SIZE_LABEL))
    y = alt.Y("rho:O", title=text["y"], axis=alt.Axis(minExtent=Y_EXTENT, maxExtent=Y_EXTENT))
    cells = base.mark_rect(stroke=GREY, strokeWidth=0.5).encode(
        x=x,
        y=y,
        color=alt.Color(
            "verdict_name:N",
            scale=alt.Scale(domain=[text[v] for v in HEAT_VERDICTS], range=list(HEAT_COLOURS)),
            legend=_legend(text["legend"], 3),
        ),
        tooltip=[alt.Tooltip("verdict_name:N", title=text["legend"]), alt.Tooltip("label:N")],
    )
    labels = base.mark_text(fontSize=ANNOTATION_SIZE + 1, color=INK).encode(
        x=x, y=y, text="label:N"
    )
    chart = layered(cells, labels).add_params(*_params(epsilon=0.4, k=20, bandwidth=1.0))
    return titled(chart, _lines(text["title"]), takeaway=_lines(text["takeaway"]), height=180)


# --- Utility against risk, per generator setting ----------------------------------------------

_RISK_TEXT: dict[str, Text] = {
    "title": {
        "ko": "생성기 설정마다 효용과 위험\n(시드 {seeds}개 평균, 지금의 데이터)",
        "en": "Utility and risk per generator setting\n(mean of {seeds} seeds, current data)",
    },
    "takeaway": {
        "ko": "오른쪽 위일수록 쓸모 있지만 드러난다.\n점선은 실제 데이터로 학습한 효용이다.",
        "en": "Up and to the right is useful but exposed;\ndashed: the utility of the real "
        "members.",
    },
    "x": {"ko": "효용: 시험 데이터의 R²", "en": "Utility: test R²"},
    "y": {"ko": "위험: 가장 강한 공격의 AUC", "en": "Risk: AUC of the strongest attack"},
    "legend": {"ko": "생성기", "en": "Generator"},
    "attack": {"ko": "가장 강한 공격", "en": "Strongest attack"},
    "setting": {"ko": "설정", "en": "Setting"},
}
UTILITY_DOMAIN: tuple[float, float] = (-2.0, 1.0)
"""Test R² from below the private generators' (worse than predicting the mean) to 1."""


def risk_chart(lang: str, seeds: int) -> alt.LayerChart:
    """One point per generator setting on the current data: utility against the strongest AUC."""
    text = _texts(_RISK_TEXT, lang, seeds)
    families = [FAMILY_NAMES[f][lang] for f in FAMILY_NAMES]
    base = (
        alt.Chart(alt.Data(name="risk"))
        .transform_filter("datum.data === data")
        .transform_calculate(
            family_name=_choice("family", FAMILY_NAMES, lang),
            attack_name=_choice("risk_attack", ATTACK_NAMES, lang),
        )
    )
    x_scale = alt.Scale(domain=list(UTILITY_DOMAIN), nice=False, clamp=True)
    x = alt.X("utility:Q", title=text["x"], scale=x_scale)
    y = alt.Y(
        "risk:Q",
        title=text["y"],
        scale=alt.Scale(domain=[0.45, 1.0], nice=False, clamp=True),
        axis=fixed_axis(Y_EXTENT),
    )
    legend = _legend(text["legend"], 2)
    colour = alt.Color(
        "family_name:N",
        scale=alt.Scale(domain=families, range=list(FAMILY_COLOURS)),
        legend=legend,
    )
    spread = base.mark_rule(strokeWidth=1.5, opacity=0.6).encode(
        x=alt.X("utility_low:Q", scale=x_scale, title=text["x"]),
        x2="utility_high:Q",
        y=y,
        color=colour,
    )
    points = base.mark_point(filled=True, size=80, opacity=0.9).encode(
        x=x,
        y=y,
        color=colour,
        shape=alt.Shape("family_name:N", scale=alt.Scale(domain=families), legend=legend),
        tooltip=[
            alt.Tooltip("setting:N", title=text["setting"]),
            alt.Tooltip("utility:Q", title=text["x"], format=".2f"),
            alt.Tooltip("risk:Q", title=text["y"], format=".3f"),
            alt.Tooltip("attack_name:N", title=text["attack"]),
        ],
    )
    baseline = (
        base.transform_filter("datum.setting === 'marginals'")
        .mark_rule(color=INK, strokeDash=GUIDE_DASH)
        .encode(x=alt.X("baseline:Q", scale=x_scale))
    )
    chart = layered(spread, baseline, points).add_params(*_params(data="concrete"))
    return titled(chart, _lines(text["title"]), takeaway=_lines(text["takeaway"]), height=240)


# --- The private generator's ROC and the ε-DP region ------------------------------------------

_ROC_TEXT: dict[str, Text] = {
    "title": {
        "ko": "DP 베이즈 네트워크를 향한 공격의 ROC\n(시드 {seeds}개 평균)",
        "en": "Attacks on the DP Bayesian network:\nROC, mean of {seeds} seeds",
    },
    "takeaway": {
        "ko": "색칠한 영역은 한 기록을 바꾸는 이웃에\n대한 ε-DP가 허락하는 곳이다.",
        "en": "Shaded: what ε-DP allows for neighbours\nthat replace one record.",
    },
    "x": {"ko": "거짓 양성률 FPR", "en": "False-positive rate"},
    "y": {"ko": "참 양성률 TPR", "en": "True-positive rate"},
    "attack": {"ko": "공격", "en": "Attack"},
}


def roc_chart(lang: str, seeds: int) -> alt.LayerChart:
    """The region ``e^{-2ε}``-to-``e^{2ε}`` shaded, every rival's mean ROC grey and Gen-LRA's
    vermillion, at the current data set and ε."""
    text = _texts(_ROC_TEXT, lang, seeds)
    scale = alt.Scale(domain=[0, 1], nice=False)
    x = alt.X("fpr:Q", title=text["x"], scale=scale)
    y = alt.Y("tpr:Q", title=text["y"], scale=scale)
    region = (
        alt.Chart(alt.Data(name="region"))
        .transform_filter("datum.dp_epsilon === dp_epsilon")
        .mark_area(color=GREEN, opacity=0.18)
        .encode(x=x, y=alt.Y("lower:Q", scale=scale, title=text["y"]), y2="upper:Q")
    )
    diagonal = (
        alt.Chart(alt.Data(name="region"))
        .transform_filter("datum.dp_epsilon === dp_epsilon")
        .mark_line(color=GREY, strokeDash=GUIDE_DASH)
        .encode(x=x, y=alt.Y("fpr:Q", scale=scale))
    )
    curves = alt.Chart(alt.Data(name="roc")).transform_calculate(
        name=_choice("attack", ATTACK_NAMES, lang)
    )
    tooltip = [alt.Tooltip("name:N", title=text["attack"])]
    rivals = (
        curves.transform_filter("datum.attack !== 'gen_lra'")
        .mark_line(color=GREY, strokeWidth=1, opacity=0.8)
        .encode(x=x, y=y, detail="attack:N", tooltip=tooltip)
    )
    gen_lra = (
        curves.transform_filter("datum.attack === 'gen_lra'")
        .mark_line(color=VERMILLION, strokeWidth=2.5)
        .encode(x=x, y=y, tooltip=tooltip)
    )
    chart = layered(region, diagonal, rivals, gen_lra).add_params(*_params(dp_epsilon=1.0))
    return fixed_width(
        titled(
            chart,
            _lines(text["title"]),
            takeaway=_lines(text["takeaway"]),
            width=ROC_SIZE,
            height=ROC_SIZE,
        )
    )


def make_charts(
    *, seeds: int, generator_seeds: int, chance_low: float, chance_high: float
) -> tuple[Chart, ...]:
    """Every chart of the lesson: ``seeds`` per simulated setting, ``generator_seeds`` per
    generator setting, the chance band ``[chance_low, chance_high]`` of the AUC."""
    chance = (chance_low, chance_high)
    return (
        Chart(
            "ceiling_auc",
            lambda lang: _ceiling_chart(lang, "auc", chance, seeds),
            {
                "ko": "공개본 크기마다 공격들의 평균 AUC와 천장(실선: 측정과 시드별 범위, "
                "점선: 닫힌 식), 회색 우연 범위.",
                "en": "Each attack's mean AUC by release size; the ceiling measured (solid, with "
                "its range over seeds) and closed form (dashed); the chance band (grey).",
            },
        ),
        Chart(
            "ceiling_tpr",
            lambda lang: _ceiling_chart(lang, "tpr", chance, seeds),
            {
                "ko": "공개본 크기마다 FPR 1 %에서 공격들의 평균 TPR과 그 천장 P + (1 − P)·FPR.",
                "en": "Each attack's mean TPR at FPR 1 % at each release size, and its ceiling "
                "P + (1 − P)·FPR.",
            },
        ),
        Chart(
            "paired",
            paired_chart,
            {
                "ko": "경쟁 공격마다 시드별 AUC 차이(Gen-LRA − 경쟁 공격)의 평균과 95 % t 구간, "
                "판정에 따른 색, 이름 옆에 Gen-LRA가 높았던 시드와 낮았던 시드의 수.",
                "en": "For each rival, the mean per-seed AUC difference (Gen-LRA − rival) with its "
                "95 % t interval, coloured by verdict, and beside its name the seeds on which "
                "Gen-LRA was higher and lower.",
            },
        ),
        Chart(
            "heat",
            heat_chart,
            {
                "ko": "ρ와 공개본 크기의 조합마다 판정(색)과 가장 강한 경쟁 공격에 대한 평균 "
                "차이(숫자).",
                "en": "For each combination of ρ and release size, the verdict (colour) and the "
                "mean difference to the strongest rival (number).",
            },
        ),
        Chart(
            "risk",
            lambda lang: risk_chart(lang, generator_seeds),
            {
                "ko": "지금의 데이터에서 생성기 설정마다 효용(시험 R²과 시드별 범위)과 가장 강한 "
                "공격의 평균 AUC. 점선은 실제 포함 표본으로 학습한 효용.",
                "en": "On the current data, each generator setting's utility (test R², with its "
                "range over seeds) and the mean AUC of its strongest attack; the dashed line is "
                "the utility of the real members.",
            },
        ),
        Chart(
            "roc",
            lambda lang: roc_chart(lang, generator_seeds),
            {
                "ko": "지금의 데이터와 ε에서 DP 베이즈 네트워크에 대한 아홉 공격의 평균 ROC(경쟁 "
                "공격은 회색, Gen-LRA는 주홍)와 한 기록을 바꾸는 이웃의 ε-DP 영역.",
                "en": "The nine attacks' mean ROC on the DP Bayesian network at the current data "
                "and ε (the rivals grey, Gen-LRA vermillion), and the ε-DP region for neighbours "
                "that replace one record.",
            },
        ),
    )
