"""Draw an audit's three outputs: ``report.html``, ``results.json`` and ``scores.csv``.

The report is one HTML file that opens offline and asks for nothing outside
itself: the CSS is inline and every chart is an SVG drawn at audit time by
vl-convert from an Altair spec, so the page runs no script. Texts come from
:mod:`privacy_explorer.audit_strings` in Korean or English. It holds no value of
any record (members, non-members, reference or synthetic) unless asked to with
``show_records``; every value it does show is escaped. Writing them is
:mod:`privacy_explorer.audit_output`.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import io
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import altair as alt
import jinja2
import markupsafe
import numpy as np

from privacy_explorer import __version__
from privacy_explorer.audit_output import AuditError
from privacy_explorer.audit_strings import translate
from privacy_explorer.charts import TEXT_SIZES, render_svg
from privacy_explorer.compute.dp_bounds import tpr_bound
from privacy_explorer.fonts import ShippedFonts, embedded_faces_css, shipped_fonts
from privacy_explorer.project import builtin_templates_dir
from privacy_explorer.runner import json_ready

if TYPE_CHECKING:
    from privacy_explorer.compute.audit import AttackResult, AuditResult

TEMPLATE = "audit_report.html"
LANGUAGES = ("ko", "en")

# Okabe–Ito first (colour-blind safe), then four darker tones for a long list of attacks.
PALETTE = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
    "#000000", "#999999", "#882255", "#117733", "#44AA99", "#332288",
)  # fmt: skip
CHART_WIDTH = 250
"""Plot width of the ROC charts: with axes and legend the SVG stays narrower than a 390 px phone's
text column, so it is never drawn smaller than its own size and no text falls below 11 px."""
DISTRIBUTION_WIDTH = 230
"""Plot width of one attack's score distribution (one small chart per attack, wrapped by CSS)."""
HISTOGRAM_BINS = 30
ROC_GRID = 200


@dataclass(frozen=True)
class Gate:
    """The release gate of ``--fail-above``."""

    limit: float
    """The highest AUC that passes."""
    failed: tuple[str, ...]
    """Keys of the attacks whose AUC is above the limit."""


def check_gate(result: AuditResult, limit: float | None) -> Gate | None:
    """Which attacks exceed ``limit``; ``None`` without a limit."""
    if limit is None:
        return None
    failed = tuple(
        attack.key
        for attack in result.attacks
        if attack.metrics is not None and attack.metrics.auc > limit
    )
    return Gate(limit, failed)


# ---------------------------------------------------------------------------------------------
# results.json and scores.csv


def report_versions() -> dict[str, str]:
    """Versions of the packages that draw the report."""
    versions = {}
    for package in ("altair", "jinja2", "vl-convert-python"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def results_text(summary: dict[str, Any]) -> str:
    """``results.json``: sorted keys, two-space indent, finite numbers only."""
    ready = json_ready(summary, "results")
    return json.dumps(ready, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


SCORES_NOTICE = (
    "SENSITIVE: as sensitive as the training data (these scores say which records were "
    "members); keep this file where the training data is kept, never with the public release."
)
"""The first line of ``scores.csv``."""


def scores_text(frame: Any) -> str:
    """``scores.csv``: a first line saying it is sensitive, then shortest round-trip floats.

    Read it with ``pandas.read_csv(path, comment="#")`` (or skip the first line).
    """
    buffer = io.StringIO()
    buffer.write(f"# {SCORES_NOTICE}\n")
    frame.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# Charts


def _label(attack: AttackResult, lang: str) -> str:
    name = attack.name[lang]
    return name if attack.k is None else f"{name}, k = {attack.k}"


def _thinned_roc(
    fpr: np.ndarray, tpr: np.ndarray, smallest: float
) -> tuple[np.ndarray, np.ndarray]:
    """At most a few hundred vertices of the ROC curve, even on linear and on log axes."""
    if fpr.size <= 4 * ROC_GRID:
        return fpr, tpr
    grid = np.union1d(np.linspace(0.0, 1.0, ROC_GRID + 1), np.geomspace(smallest, 1.0, ROC_GRID))
    keep = np.union1d(np.searchsorted(fpr, grid, "left"), np.searchsorted(fpr, grid, "right") - 1)
    keep = np.clip(keep, 0, fpr.size - 1)
    return fpr[keep], tpr[keep]


def _roc_rows(result: AuditResult, lang: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for order, attack in enumerate(result.attacks):
        if attack.metrics is None or attack.nonmember_scores is None:
            continue
        smallest = 1.0 / attack.nonmember_scores.size
        fpr, tpr = _thinned_roc(attack.metrics.roc_fpr, attack.metrics.roc_tpr, smallest)
        label = _label(attack, lang)
        rows.extend(
            {"attack": label, "order": order, "fpr": float(x), "tpr": float(y)}
            for x, y in zip(fpr, tpr, strict=True)
        )
    return rows


def _colour(result: AuditResult, lang: str) -> alt.Scale:
    labels = [_label(attack, lang) for attack in result.attacks]
    return alt.Scale(domain=labels, range=list(PALETTE[: len(labels)]) or ["#000000"])


def _decades(smallest: float) -> list[float]:
    """Tick values 1, 0.1, 0.01, … down to ``smallest``."""
    return [10.0**-power for power in range(0, math.floor(-math.log10(smallest)) + 1)][::-1]


def roc_chart(result: AuditResult, lang: str, *, log: bool) -> alt.LayerChart:
    """Every attack's ROC curve with the chance diagonal, on linear or log-log axes."""
    rows = _roc_rows(result, lang)
    smallest_fpr = min(
        1.0 / attack.nonmember_scores.size
        for attack in result.attacks
        if attack.nonmember_scores is not None
    )
    smallest_tpr = 1.0 / result.attacks[0].member_scores.size
    if log:
        rows = [row for row in rows if row["fpr"] > 0 and row["tpr"] > 0]
    kind: Literal["log", "linear"] = "log" if log else "linear"
    x_ticks = _decades(smallest_fpr) if log else [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    y_ticks = _decades(smallest_tpr) if log else [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    x_scale = alt.Scale(type=kind, domain=[smallest_fpr if log else 0.0, 1.0], nice=False)
    y_scale = alt.Scale(type=kind, domain=[smallest_tpr if log else 0.0, 1.0], nice=False)
    corner = smallest_fpr if log else 0.0
    diagonal = (
        alt.Chart(alt.Data(values=[{"fpr": corner, "tpr": corner}, {"fpr": 1.0, "tpr": 1.0}]))
        .mark_line(color="#777777", strokeDash=[4, 4], strokeWidth=1)
        .encode(x=alt.X("fpr:Q", scale=x_scale), y=alt.Y("tpr:Q", scale=y_scale))
    )
    curves = (
        alt.Chart(alt.Data(values=rows))
        .mark_line(strokeWidth=1.6, interpolate="linear", clip=True)
        .encode(
            x=alt.X(
                "fpr:Q",
                title=translate("fpr", lang),
                scale=x_scale,
                axis=alt.Axis(values=x_ticks, format="~g"),
            ),
            y=alt.Y(
                "tpr:Q",
                title=translate("tpr", lang),
                scale=y_scale,
                axis=alt.Axis(values=y_ticks, format="~g"),
            ),
            color=alt.Color(
                "attack:N",
                scale=_colour(result, lang),
                title=translate("attack", lang),
                legend=alt.Legend(orient="bottom", columns=1, labelLimit=280),
            ),
            order=alt.Order("fpr:Q"),
            detail="attack:N",
        )
    )
    title = translate("chart_roc_log" if log else "chart_roc_linear", lang)
    return alt.LayerChart(layer=[diagonal, curves]).properties(
        width=CHART_WIDTH, height=CHART_WIDTH, title=title
    )


def _histogram(scores: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Share of ``scores`` in each bin; scores beyond the edges count in the end bins."""
    clipped = np.clip(scores, edges[0], edges[-1])
    counts, _ = np.histogram(clipped, bins=edges)
    return counts / scores.size


def _edges(scores: np.ndarray) -> np.ndarray:
    """Bin edges over the central 98 % of ``scores`` (heavy tails would squash the rest)."""
    low, high = np.quantile(scores, [0.01, 0.99])
    if not high > low:
        low, high = float(scores.min()) - 0.5, float(scores.max()) + 0.5
    return np.linspace(low, high, HISTOGRAM_BINS + 1)


def _distribution_rows(attack: AttackResult, lang: str) -> list[dict[str, Any]]:
    """Step-line vertices: each bin's share at its left edge, the last share again at the right."""
    rows: list[dict[str, Any]] = []
    groups = {translate("members", lang): attack.member_scores}
    if attack.nonmember_scores is not None:
        groups[translate("nonmembers", lang)] = attack.nonmember_scores
    edges = _edges(np.concatenate(list(groups.values())))
    for group, scores in groups.items():
        shares = _histogram(scores, edges)
        steps = zip(edges, np.append(shares, shares[-1]), strict=True)
        rows.extend({"group": group, "score": float(x), "share": float(y)} for x, y in steps)
    return rows


def distribution_chart(attack: AttackResult, lang: str) -> alt.Chart:
    """A histogram (as step lines) of one attack's member and non-member scores."""
    groups = [translate("members", lang), translate("nonmembers", lang)]
    chart: alt.Chart = (  # encode() is untyped in Altair 6
        alt.Chart(alt.Data(values=_distribution_rows(attack, lang)))
        .mark_line(interpolate="step-after", strokeWidth=1.5)
        .encode(
            x=alt.X(
                "score:Q",
                title=translate("score", lang),
                scale=alt.Scale(nice=False, zero=False),
                axis=alt.Axis(tickCount=4),  # Vega's step-aware format: 20, not 2e+1
            ),
            y=alt.Y(
                "share:Q", title=translate("share", lang), axis=alt.Axis(format="~%", tickCount=4)
            ),
            color=alt.Color(
                "group:N",
                scale=alt.Scale(domain=groups, range=["#D55E00", "#0072B2"]),
                title=translate("group", lang),
                legend=alt.Legend(orient="top"),
            ),
            strokeDash=alt.StrokeDash(
                "group:N", scale=alt.Scale(domain=groups, range=[[1, 0], [5, 3]]), legend=None
            ),
            order=alt.Order("score:Q"),
        )
        .properties(width=DISTRIBUTION_WIDTH, height=120)
    )
    return chart


def _distributions(result: AuditResult, lang: str) -> list[dict[str, str]]:
    """One small chart per attack result, each captioned with the attack's name."""
    charts = []
    for attack in result.attacks:
        label = _label(attack, lang)
        description = translate("chart_distribution", lang, attack=label)
        name = f"distribution-{attack.key}"
        charts.append(
            {
                "name": name,
                "svg": inline_svg(distribution_chart(attack, lang), name, description),
                "caption": label,
            }
        )
    return charts


_ID = re.compile(r'\bid="([^"]+)"')
_ID_REFERENCE = re.compile(r'(\bid="|url\(#|href="#)([^")]+)')


def report_fonts() -> ShippedFonts:
    """The site's own text face: the report measures and shows its text with it on any machine."""
    return shipped_fonts(builtin_templates_dir())


def with_embedded_font(html: str) -> str:
    """``html`` with the text face, cut to the characters it shows, inlined as ``@font-face`` data.

    The report travels as one file, so the font goes inside it; a character the
    face lacks (a rare one in a user's data) falls back to the reader's fonts.
    """
    faces = embedded_faces_css(report_fonts(), "".join(sorted(set(html))), (400, 700), None)
    return html.replace("<style>", f"<style>\n{faces}\n", 1)


def inline_svg(chart: alt.TopLevelMixin, prefix: str, description: str) -> str:
    """The chart as an SVG element for the page, described for screen readers.

    vl-convert numbers clip paths across a whole process, so ids are renamed
    in order of appearance: unique in the page and the same in every audit.
    """
    spec = chart.to_dict()
    spec["config"] = {**TEXT_SIZES, **spec.get("config", {})}  # no chart text below 11 px
    svg = render_svg(spec, report_fonts(), where=f"report chart {prefix!r}")
    names = {
        name: f"{prefix}-{index}" for index, name in enumerate(dict.fromkeys(_ID.findall(svg)))
    }
    svg = _ID_REFERENCE.sub(
        lambda match: match.group(1) + names.get(match.group(2), match.group(2)), svg
    )
    label = markupsafe.escape(description)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" data-chart="{prefix}" ', 1)


# ---------------------------------------------------------------------------------------------
# The page


def fmt_rate(value: float | None) -> str:
    """A rate or AUC with three decimals (``—`` when absent)."""
    return "—" if value is None or not math.isfinite(value) else f"{value:.3f}"


def fmt_p(value: float) -> str:
    """A p-value with three decimals, or three significant digits below 0.001 (``0.000999``)."""
    return f"{value:.3g}" if value < 0.001 else f"{value:.3f}"


def fmt_score(value: float) -> str:
    """A score with four significant digits."""
    return f"{value:.4g}"


def fmt_value(value: object, lang: str) -> str:
    """A record's value in its own units."""
    if value is None:
        return translate("missing_value", lang)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("privacy_explorer", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters.update(rate=fmt_rate, score=fmt_score, p=fmt_p)
    return environment


LOW_FPR = 0.001
"""The false-positive rate the summary reads the strongest attack at first."""


def verdict_sentence(result: AuditResult, lang: str) -> str | None:
    """The verdict in one sentence, or ``None`` without non-members."""
    if result.leak_test is None:
        return None
    verdict = result.leak_test.verdict
    return translate(
        "verdict_leak" if verdict.leak_detected else "verdict_none",
        lang,
        p=fmt_p(verdict.p_value),
        alpha=f"{verdict.alpha:g}",
        permutations=verdict.permutations,
    )


def _strongest(result: AuditResult) -> AttackResult:
    """The attack with the smallest corrected p-value (then the highest AUC, then report order)."""
    measured = [attack for attack in result.attacks if attack.metrics is not None]
    return min(
        measured,
        key=lambda attack: (
            attack.metrics.p_value_adjusted,  # type: ignore[union-attr]
            -attack.metrics.auc,  # type: ignore[union-attr]
        ),
    )


def _tpr_sentences(attack: AttackResult, lang: str) -> list[str]:
    """The TPR at :data:`LOW_FPR`, or why it cannot be measured and the lowest FPR that can."""
    assert attack.metrics is not None and attack.nonmember_scores is not None
    exact = attack.metrics.tpr_exact
    sentences = []
    if exact[LOW_FPR] is None:
        sentences.append(
            translate(
                "summary_too_few",
                lang,
                nonmembers=attack.nonmember_scores.size,
                fpr=f"{LOW_FPR:g}",
                needed=math.ceil(1 / LOW_FPR),
            )
        )
    measurable = [found for rate, found in exact.items() if found is not None and rate >= LOW_FPR]
    if measurable:
        found = measurable[0]
        sentences.append(
            translate(
                "summary_tpr",
                lang,
                attack=_label(attack, lang),
                fpr=f"{found.fpr:g}",
                tpr=fmt_rate(found.tpr),
                lo=fmt_rate(found.interval[0]),
                hi=fmt_rate(found.interval[1]),
            )
        )
    return sentences


def _summary(result: AuditResult, lang: str) -> list[str]:
    """The findings under the verdict: the strongest attack, the ε bound, the low-FPR TPR."""
    if result.leak_test is None:
        return [translate("summary_no_nonmembers", lang)]
    strongest = _strongest(result)
    metrics = strongest.metrics
    assert metrics is not None
    bound = result.leak_test.epsilon_bound
    by_key = {attack.key: attack for attack in result.attacks}
    confidence = f"{100 * bound.confidence:g} %"
    epsilon = (
        translate(
            "summary_epsilon",
            lang,
            epsilon=f"{bound.value:.2f}",
            confidence=confidence,
            attack=_label(by_key[bound.attack], lang),
        )
        if bound.value > 0
        else translate("summary_epsilon_zero", lang, confidence=confidence)
    )
    return [
        translate(
            "summary_best",
            lang,
            attack=_label(strongest, lang),
            auc=fmt_rate(metrics.auc),
            lo=fmt_rate(metrics.auc_ci[0]),
            hi=fmt_rate(metrics.auc_ci[1]),
            p=fmt_p(metrics.p_value_adjusted),
        ),
        epsilon,
        *_tpr_sentences(strongest, lang),
    ]


LESSONS = {
    "02": "02-membership-inference",
    "03": "03-differential-privacy",
    "05": "05-synthetic-data-audit",
    "06": "06-what-an-audit-measures",
}
"""The lessons the next steps point to, by number: their file names on the course site."""
ADVICE_EPSILON = 1.0
"""The ε the next steps give as an example of a differentially private generator."""
NEAR_COPIES_NAMED = 10
"""At most this many near-copies are named by row in the next steps."""


@dataclass(frozen=True)
class NextStep:
    """One thing to do about what the audit found, and the lesson that explains why."""

    text: str
    """The advice in plain words."""
    lesson: str
    """The lesson's number, a key of :data:`LESSONS`."""
    href: str | None
    """A link to that lesson on the course site, or ``None`` when no course address was given."""
    title: str
    """The link's text: the lesson's number and title."""


def course_address(value: str) -> str:
    """The address of a course given as ``--course-url``: a web address, or a built site.

    ``https://…`` and ``http://…`` addresses are taken as they are (with a final
    ``/``); anything else is read as the folder of a built course (``build/site``,
    or a copy of it on a USB stick), which must hold the site's ``index.html``,
    and becomes its ``file://`` address. Raises :class:`AuditError` otherwise.
    """
    if re.match(r"https?://[^/\s]+", value):
        return value if value.endswith("/") else value + "/"
    if re.match(r"[a-z][a-z0-9+.-]*://", value, re.IGNORECASE):
        raise AuditError(
            f"--course-url {value}: give an http:// or https:// address, or the folder of a "
            "built course (e.g. build/site)"
        )
    folder = Path(value).expanduser()
    if not (folder / "index.html").is_file():
        raise AuditError(
            f"--course-url {value}: {folder / 'index.html'} does not exist; give the address "
            "where the course is published (https://…) or the folder `make site` built "
            "(build/site)"
        )
    return folder.resolve().as_uri() + "/"


def lesson_href(number: str, lang: str, course_url: str | None) -> str | None:
    """The link to lesson ``number`` in ``lang`` on the course at ``course_url`` (Korean at
    the site's root, English under en/); ``None`` without a course address, since a report
    is read far from the course and a bare file name would lead nowhere."""
    if course_url is None:
        return None
    return f"{course_url.rstrip('/')}/{'' if lang == 'ko' else 'en/'}{LESSONS[number]}.html"


def _step(key: str, lesson: str, lang: str, course_url: str | None, **fields: object) -> NextStep:
    return NextStep(
        translate(key, lang, **fields),
        lesson,
        lesson_href(lesson, lang, course_url),
        translate(f"lesson_{lesson}", lang),
    )


def _percent(rate: float) -> str:
    return f"{100 * rate:.2g} %"


def next_steps(result: AuditResult, lang: str, course_url: str | None = None) -> list[NextStep]:
    """What to do next, chosen by what the audit found (the verdict, near-copies, sizes).

    Each step names the lesson that explains it, linked when ``course_url`` (see
    :func:`course_address`) says where the course is.
    """
    steps = []
    leak_test = result.leak_test
    if leak_test is None:
        steps.append(_step("next_no_nonmembers", "02", lang, course_url))
    elif leak_test.verdict.leak_detected:
        bound = leak_test.epsilon_bound.value
        steps.append(
            _step(
                "next_leak_dp" if bound > 0 else "next_leak_dp_no_bound",
                "06",
                lang,
                course_url,
                epsilon=f"{ADVICE_EPSILON:g}",
                fpr=f"{LOW_FPR:g}",
                tpr=_percent(float(tpr_bound(LOW_FPR, ADVICE_EPSILON))),
                bound=f"{bound:.2f}",
            )
        )
        steps.append(_step("next_leak_epochs", "02", lang, course_url))
    copies = result.near_copies
    if copies is not None and copies.found:
        named = ", ".join(str(row) for row in copies.rows[:NEAR_COPIES_NAMED])
        steps.append(
            _step(
                "next_near_copies",
                "05",
                lang,
                course_url,
                rows=named,
                count=len(copies.rows),
                share=_percent(copies.test.share),
                expected=f"{copies.test.expected:.1f}",
                p=fmt_p(copies.test.p_value),
            )
        )
    measured = [attack for attack in result.attacks if attack.nonmember_scores is not None]
    if measured and measured[0].nonmember_scores is not None:
        nonmembers = measured[0].nonmember_scores.size
        if nonmembers * LOW_FPR < 1:
            steps.append(
                _step(
                    "next_enlarge",
                    "02",
                    lang,
                    course_url,
                    nonmembers=nonmembers,
                    fpr=f"{LOW_FPR:g}",
                    needed=math.ceil(1 / LOW_FPR),
                )
            )
    if result.high_dimension:
        steps.append(
            _step("next_dims", "05", lang, course_url, dims=result.preprocessing.dimension)
        )
    if leak_test is not None and not leak_test.verdict.leak_detected:
        steps.append(_step("next_no_evidence", "06", lang, course_url))
    return steps


def report_date(environ: Mapping[str, str] = os.environ) -> str:
    """When the report was written, in UTC: ``SOURCE_DATE_EPOCH`` when set (reproducible)."""
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        moment = datetime.datetime.now(datetime.UTC)
    else:
        try:
            moment = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        except (ValueError, OverflowError, OSError):
            raise AuditError(
                f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, got {epoch!r}; "
                "unset it or fix its value"
            ) from None
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _method_notes(result: AuditResult, lang: str, show_records: bool) -> list[str]:
    preprocessing = result.preprocessing
    notes = [translate("method_scaler", lang)]
    categorical = [column.name for column in preprocessing.columns if column.kind == "category"]
    if categorical:
        notes.append(
            translate(
                "method_categorical", lang, columns=", ".join(f"'{name}'" for name in categorical)
            )
        )
    for column in preprocessing.dropped:
        where = " / ".join(translate(role, lang).lower() for role in column.constant_in)
        # The value is the synthetic one when the column is constant there, else the reference's.
        hidden = "synthetic" not in column.constant_in and not show_records
        notes.append(
            translate("method_dropped_hidden", lang, column=column.name, where=where)
            if column.exact and hidden
            else translate(
                "method_dropped", lang, column=column.name, where=where, value=column.value
            )
            if column.exact
            else translate(
                "method_near_constant",
                lang,
                column=column.name,
                where=where,
                tolerance=f"{column.tolerance:g}",
            )
        )
    for item in preprocessing.imputed:
        notes.append(
            translate(
                "method_imputed",
                lang,
                file=translate(item.role, lang).lower(),
                column=item.column,
                count=item.count,
                value=item.value,
            )
        )
    if preprocessing.dims is not None and preprocessing.explained_variance is not None:
        notes.append(
            translate(
                "method_dims",
                lang,
                dims=preprocessing.dims,
                share=f"{100 * preprocessing.explained_variance:.1f} %",
            )
        )
    if result.high_dimension:
        notes.append(translate("method_high_dimension", lang, dims=preprocessing.dimension))
    return notes


def _settings_rows(result: AuditResult, lang: str) -> list[tuple[str, str]]:
    settings = result.settings
    impute = "impute_none" if settings.impute is None else f"impute_{settings.impute}"
    logan = [(translate("setting_logan_epochs", lang), str(settings.logan_epochs))]
    return [
        (translate("setting_attacks", lang), ", ".join(settings.attacks)),
        (translate("setting_k", lang), ", ".join(str(count) for count in settings.k)),
        (translate("setting_bandwidth", lang), settings.bandwidth),
        (translate("setting_seed", lang), str(settings.seed)),
        (translate("setting_bootstrap", lang), f"{settings.bootstrap:,}"),
        (translate("setting_alpha", lang), f"{settings.alpha:g}"),
        (translate("setting_permutations", lang), f"{settings.permutations:,}"),
        (translate("setting_tpr_rule", lang), translate("tpr_rule", lang)),
        (
            translate("setting_dims", lang),
            translate("none", lang) if settings.dims is None else str(settings.dims),
        ),
        (translate("setting_impute", lang), translate(impute, lang)),
        *(logan if "logan" in settings.attacks else []),
    ]


def _charts(result: AuditResult, lang: str) -> list[dict[str, str]]:
    charts = []
    if result.has_nonmembers:
        for log in (False, True):
            name = "roc-log" if log else "roc-linear"
            title = translate("chart_roc_log" if log else "chart_roc_linear", lang)
            charts.append(
                {
                    "name": name,
                    "svg": inline_svg(roc_chart(result, lang, log=log), name, title),
                    "caption": translate("roc_log" if log else "roc_linear", lang),
                }
            )
    return charts


def render_report(
    result: AuditResult,
    lang: str,
    *,
    gate: Gate | None = None,
    versions: Mapping[str, str],
    show_records: bool = False,
    course_url: str | None = None,
) -> str:
    """The whole ``report.html`` as text.

    It holds no value of any record unless ``show_records``: the most exposed
    members are named by their row numbers, their nearest synthetic records by
    row number and distance. With ``show_records`` it shows their values and
    opens with a warning, in both languages, that it now holds training data.
    The next steps link to the course's lessons at ``course_url`` (see
    :func:`course_address`), and only name them without it.
    """
    if lang not in LANGUAGES:
        raise AuditError(f"--lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    exposed_by = next(attack for attack in result.attacks if attack.key == result.exposed_by)
    distributions = _distributions(result, lang)
    gate_text = None
    if gate is not None and result.has_nonmembers:
        key = "gate_fail" if gate.failed else "gate_pass"
        gate_text = translate(key, lang, limit=f"{gate.limit:g}", attacks=", ".join(gate.failed))
    template = _environment().get_template(TEMPLATE)
    return with_embedded_font(
        template.render(
            lang=lang,
            t=lambda key, **fields: translate(key, lang, **fields),
            result=result,
            label=lambda attack: _label(attack, lang),
            value=lambda value: fmt_value(value, lang),
            translate=translate,
            show_records=show_records,
            warning_langs=(lang, *(other for other in LANGUAGES if other != lang)),
            verdict=verdict_sentence(result, lang),
            next_steps=next_steps(result, lang, course_url),
            date=report_date(),
            tool_version=__version__,
            file_name=lambda source: Path(source).name,
            summary=_summary(result, lang),
            gate=gate,
            gate_text=gate_text,
            fprs=result.settings.fprs,
            roc_charts=_charts(result, lang),
            distributions=distributions,
            exposed_label=_label(exposed_by, lang),
            method_notes=_method_notes(result, lang, show_records),
            settings_rows=_settings_rows(result, lang),
            versions=sorted(versions.items()),
            sources=sorted(
                {(attack.name[lang], attack.source) for attack in result.attacks},
                key=lambda item: [a.name[lang] for a in result.attacks].index(item[0]),
            ),
        )
    )


def render_outputs(
    result: AuditResult,
    summary: dict[str, Any],
    scores: Any,
    lang: str,
    *,
    gate: Gate | None = None,
    show_records: bool = False,
    course_url: str | None = None,
) -> dict[str, str]:
    """The three outputs as text, rendered before anything is written."""
    versions = {**summary["versions"], **report_versions()}
    summary = {**summary, "versions": versions}
    return {
        "report.html": render_report(
            result,
            lang,
            gate=gate,
            versions=versions,
            show_records=show_records,
            course_url=course_url,
        ),
        "results.json": results_text(summary),
        "scores.csv": scores_text(scores),
    }
