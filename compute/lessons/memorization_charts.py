"""Lesson 01's digit-by-digit chart (:mod:`compute.lessons.memorization`), in the shared style.

The canary's score is a sum of four log-probabilities, one per digit of the
secret code; this chart draws them as bars and prints the two counts that
each comes from. Nothing here computes a result: the rows come from the
lesson's ``compute``.
"""

from __future__ import annotations

import altair as alt

from privacy_explorer.compute.lessons.style import (
    ANNOTATION_SIZE,
    INK,
    VERMILLION,
    in_language,
    layered,
    titled,
)

_TEXT: dict[str, dict[str, str]] = {
    "title": {
        "ko": "카나리아 점수의 구성: 숫자마다의 로그 확률",
        "en": "The canary's score, digit by digit",
    },
    "takeaway": {
        "ko": "막대가 길수록 모델이 덜 예상한 숫자다. 막대 위의 수는 N(h, c)/N(h)",
        "en": "The longer the bar, the less the model expected that digit; "
        "above each bar, N(h, c)/N(h)",
    },
    "x": {"ko": "비밀 코드의 자리", "en": "Position in the secret code"},
    "y": {"ko": "ln P(c | h)", "en": "ln P(c | h)"},
    "digit": {"ko": "숫자", "en": "Digit"},
    "context": {"ko": "문맥 h", "en": "Context h"},
}

_SLOT: dict[str, str] = {
    "ko": "datum.position + '번째 숫자: ' + datum.digit",
    "en": "'digit ' + datum.position + ': ' + datum.digit",
}
"""The x label of each bar: which digit of the code, and the digit itself."""


def digits_chart(lang: str) -> alt.LayerChart:
    """One bar per digit of the code: ``ln P(c | h)``, labelled ``c`` and ``N(h, c)/N(h)``
    (the takeaway says what the counts are, so each label stays short enough for a phone).

    The bars hang down from 0 (a log-probability is at most 0); the shorter a
    bar, the more the model expected that digit.
    """
    text = in_language(_TEXT, lang)
    x = alt.X(
        "slot:N",
        title=text["x"],
        sort=alt.EncodingSortField(field="position", order="ascending"),
        axis=alt.Axis(labelAngle=0),
    )
    y = alt.Y("log_prob:Q", title=text["y"], scale=alt.Scale(domainMax=0, nice=True))
    base = alt.Chart(alt.Data(name="digit_steps")).transform_calculate(slot=_SLOT[lang])
    bars = base.mark_bar(color=VERMILLION, width=60).encode(
        x=x,
        y=y,
        y2=alt.datum(0),
        tooltip=[
            alt.Tooltip("digit:N", title=text["digit"]),
            alt.Tooltip("context:N", title=text["context"]),
            alt.Tooltip("pair_count:Q", title="N(h, c)"),
            alt.Tooltip("context_count:Q", title="N(h)"),
            alt.Tooltip("log_prob:Q", title=text["y"], format=".3f"),
        ],
    )
    counts = (
        base.transform_calculate(label="datum.pair_count + '/' + datum.context_count")
        .mark_text(baseline="bottom", dy=-4, fontSize=ANNOTATION_SIZE, color=INK)
        .encode(x=x, y=alt.datum(0), text="label:N")
    )
    return titled(layered(bars, counts), text["title"], takeaway=text["takeaway"])
