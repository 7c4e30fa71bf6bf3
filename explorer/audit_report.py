"""Write an audit's three outputs: ``report.html``, ``results.json`` and ``scores.csv``.

The report is one HTML file that opens offline and asks for nothing outside
itself: the CSS is inline and every chart is an SVG drawn at audit time by
vl-convert from an Altair spec, so the page runs no script. Texts come from
:mod:`privacy_explorer.audit_strings` in Korean or English; every value from
the input files is escaped.

The output folder may be new, or one an earlier audit wrote (it holds the
marker file :data:`MARKER`). A folder holding anything else is refused unless
``force`` is given; even then nothing but the outputs and the marker is
written, and nothing is deleted.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import math
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import altair as alt
import jinja2
import markupsafe
import numpy as np

from privacy_explorer.audit_strings import translate
from privacy_explorer.charts import render_svg
from privacy_explorer.errors import ExplorerError
from privacy_explorer.fonts import ShippedFonts, embedded_faces_css, shipped_fonts
from privacy_explorer.output import digests, marker_bytes, read_marker
from privacy_explorer.project import builtin_templates_dir
from privacy_explorer.runner import json_ready

if TYPE_CHECKING:
    from privacy_explorer.compute.audit import AttackResult, AuditResult

OUTPUTS = ("report.html", "results.json", "scores.csv")
MARKER = ".explorer-audit"
TEMPLATE = "audit_report.html"
LANGUAGES = ("ko", "en")

# Okabe–Ito first (colour-blind safe), then four darker tones for a long list of attacks.
PALETTE = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
    "#000000", "#999999", "#882255", "#117733", "#44AA99", "#332288",
)  # fmt: skip
CHART_WIDTH = 360
HISTOGRAM_BINS = 30
ROC_GRID = 200


class AuditError(ExplorerError):
    """Bad input to ``explorer audit`` (a file, an option, the output folder): exit status 2."""

    exit_code = 2


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
# The output folder


def _check_writable(out: Path) -> None:
    """Raise unless ``out`` (or the nearest folder above it that exists) accepts new files."""
    folder = out.absolute()
    while not folder.exists():
        folder = folder.parent
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".explorer-audit-probe."):
            pass
    except OSError as error:
        raise AuditError(
            f"{out}: cannot write there ({error.strerror} in {folder}); choose another --out"
        ) from error


def check_output_folder(out: Path, force: bool) -> None:
    """Raise :class:`AuditError` unless the audit may write into ``out``.

    ``out`` may be missing (it is created later), empty, or hold only what an
    earlier audit wrote. Anything else needs ``force``.
    """
    if out.exists() and not out.is_dir():
        raise AuditError(f"{out}: exists and is not a folder; choose another --out")
    _check_writable(out)
    if not out.exists():
        return
    listed = read_marker(out, MARKER) or {}
    ours = {
        name
        for name, digest in listed.items()
        if (out / name).is_file() and _file_digest(out / name) == digest
    }
    foreign = sorted(
        entry.name for entry in out.iterdir() if entry.name not in ours and entry.name != MARKER
    )
    taken = [name for name in OUTPUTS if name in foreign]
    if force and taken:
        raise AuditError(
            f"{out}: {', '.join(taken)} {'was' if len(taken) == 1 else 'were'} not written by "
            "an earlier audit (or changed since), and --force never replaces a file it did not "
            "write; move it away or choose another --out"
        )
    if foreign and not force:
        shown = ", ".join(foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        )
        raise AuditError(
            f"{out}: the folder already holds files this command did not write ({shown}); "
            "choose an empty or new folder for --out, or pass --force to write the report "
            "beside them (nothing is deleted)"
        )


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and ``os.replace``, readable as the umask allows."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # mkstemp creates 0600; a report is meant to be shared
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_outputs(out: Path, files: Mapping[str, str]) -> None:
    """Write every output (rendered in memory first), then the marker."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name in OUTPUTS:
            _write_atomically(out / name, files[name])
        written = digests({name: files[name].encode("utf-8") for name in OUTPUTS})
        _write_atomically(out / MARKER, marker_bytes(written).decode("utf-8"))
    except OSError as error:
        raise AuditError(
            f"{out}: cannot write the report ({error.strerror}); choose another --out"
        ) from error


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
                legend=alt.Legend(orient="bottom", columns=2, labelLimit=320),
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


def _distribution_rows(result: AuditResult, lang: str) -> list[dict[str, Any]]:
    """Step-line vertices: each bin's share at its left edge, the last share again at the right."""
    rows: list[dict[str, Any]] = []
    for attack in result.attacks:
        groups = {translate("members", lang): attack.member_scores}
        if attack.nonmember_scores is not None:
            groups[translate("nonmembers", lang)] = attack.nonmember_scores
        edges = _edges(np.concatenate(list(groups.values())))
        for group, scores in groups.items():
            shares = _histogram(scores, edges)
            steps = zip(edges, np.append(shares, shares[-1]), strict=True)
            rows.extend(
                {
                    "attack": _label(attack, lang),
                    "group": group,
                    "score": float(x),
                    "share": float(y),
                }
                for x, y in steps
            )
    return rows


def distribution_chart(result: AuditResult, lang: str) -> alt.FacetChart:
    """Histograms (as step lines) of members' and non-members' scores, one panel per attack."""
    groups = [translate("members", lang), translate("nonmembers", lang)]
    base = (
        alt.Chart(alt.Data(values=_distribution_rows(result, lang)))
        .mark_line(interpolate="step-after", strokeWidth=1.5)
        .encode(
            x=alt.X(
                "score:Q",
                title=translate("score", lang),
                scale=alt.Scale(nice=False, zero=False),
                axis=alt.Axis(format="~g", tickCount=4),
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
        .properties(width=200, height=120)
    )
    order = [_label(attack, lang) for attack in result.attacks]
    chart: alt.FacetChart = (  # resolve_scale() is untyped in Altair 6
        base.facet(
            facet=alt.Facet(
                "attack:N",
                sort=order,
                title=None,
                header=alt.Header(labelLimit=240, labelFontWeight="bold"),
            ),
            columns=3,
        )
        .resolve_scale(x="independent", y="independent")
        .properties(title=translate("chart_distributions", lang))
    )
    return chart


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
    svg = render_svg(chart.to_dict(), report_fonts(), where=f"report chart {prefix!r}")
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


def _method_notes(result: AuditResult, lang: str) -> list[str]:
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
        notes.append(
            translate("method_dropped", lang, column=column.name, where=where, value=column.value)
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
    result: AuditResult, lang: str, *, gate: Gate | None = None, versions: Mapping[str, str]
) -> str:
    """The whole ``report.html`` as text."""
    if lang not in LANGUAGES:
        raise AuditError(f"--lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    exposed_by = next(attack for attack in result.attacks if attack.key == result.exposed_by)
    distributions = inline_svg(
        distribution_chart(result, lang), "distributions", translate("chart_distributions", lang)
    )
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
            verdict=verdict_sentence(result, lang),
            summary=_summary(result, lang),
            gate=gate,
            gate_text=gate_text,
            fprs=result.settings.fprs,
            roc_charts=_charts(result, lang),
            distributions=distributions,
            exposed_label=_label(exposed_by, lang),
            method_notes=_method_notes(result, lang),
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
) -> dict[str, str]:
    """The three outputs as text, rendered before anything is written."""
    versions = {**summary["versions"], **report_versions()}
    summary = {**summary, "versions": versions}
    return {
        "report.html": render_report(result, lang, gate=gate, versions=versions),
        "results.json": results_text(summary),
        "scores.csv": scores_text(scores),
    }
