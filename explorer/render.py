"""Render pages, page data and chart fallbacks from validated lessons and their results.

Everything here returns text; nothing touches the disk. The build collects the
files in memory and writes them all at once (see :mod:`explorer.build`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from explorer.charts import ChartSpec, with_data
from explorer.lesson import Grid
from explorer.markup import Directive, ParsedMarkdown
from explorer.modules import LessonModule
from explorer.runner import dumps


def make_environment(templates_dir: Path) -> jinja2.Environment:
    """Jinja with autoescaping and ``StrictUndefined``: a missing variable is an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def script_json(value: Any) -> str:
    """JSON safe inside ``<script>``: ``</`` cannot close the element early."""
    return dumps(value).replace("</", "<\\/")


def lesson_data(
    module: LessonModule,
    results: Mapping[str, dict[str, Any]],
    specs: Mapping[str, ChartSpec],
    lang: str,
) -> dict[str, Any]:
    """What a lesson page needs at run time, in ``lang``.

    ``params`` (values and their canonical texts), ``points`` (per grid key: the
    readout texts and, per dataset name, the id of its rows), ``datasets`` (each
    distinct list of rows stored once) and ``charts`` (which datasets and
    grid-parameter signals each placed chart uses).
    """
    grid: Grid = module.grid
    used = sorted({name for spec in specs.values() for name in spec.datasets})
    ids: dict[str, str] = {}
    datasets: dict[str, Any] = {}
    points: dict[str, Any] = {}
    for point in grid:
        key = grid.key(point)
        result = results[key]
        rows_by_name = result.get("datasets", {})
        refs = {}
        for name in used:
            if name not in rows_by_name:
                continue
            text = dumps(rows_by_name[name])
            if text not in ids:
                ids[text] = str(len(ids))
                datasets[ids[text]] = rows_by_name[name]
            refs[name] = ids[text]
        readouts = {
            name: readout.text(result["readouts"][name], lang)
            for name, readout in module.readouts.items()
        }
        points[key] = {"r": readouts, "d": refs}
    params = [
        {
            "name": p.name,
            "values": list(p.values),
            "texts": list(p.value_texts),
            "default": p.default_index,
        }
        for p in grid.params
    ]
    charts = {
        name: {"datasets": list(spec.datasets), "signals": list(spec.signals)}
        for name, spec in specs.items()
    }
    data = {"params": params, "points": points, "datasets": datasets, "charts": charts}
    return data


def data_script(slug: str, data: Mapping[str, Any]) -> str:
    """The classic script that hands a lesson's data to the page (works from file://)."""
    return (
        "window.EXPLORER_DATA=window.EXPLORER_DATA||{};\n"
        f"window.EXPLORER_DATA[{json.dumps(slug)}]={script_json(data)};\n"
    )


def default_rows(
    spec: ChartSpec, result: Mapping[str, Any], summary: Mapping[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """The rows a chart shows at the default grid point (whole-grid datasets included)."""
    rows = dict(result.get("datasets", {}))
    rows.update(summary)
    return {name: rows[name] for name in spec.datasets}


@dataclass(frozen=True)
class PageContext:
    """Where a page sits in the site and what surrounds it."""

    lang: str
    """The page's language."""
    root: str
    """Relative path from the page to the site root (``""`` or ``"../"``)."""
    other_lang: str
    """The other language's code."""
    other_lang_href: str
    """Relative link to the same page in the other language."""
    strings: Mapping[str, str]
    """Template strings in the page's language."""
    site_title: str
    """The site title in the page's language."""
    site_description: str
    """The site description in the page's language."""

    def variables(self) -> dict[str, Any]:
        """The variables every template receives."""
        return {
            "lang": self.lang,
            "root": self.root,
            "other_lang": self.other_lang,
            "other_lang_href": self.other_lang_href,
            "t": self.strings,
            "site_title": self.site_title,
            "site_description": self.site_description,
        }


def render_directive(
    directive: Directive,
    *,
    env: jinja2.Environment,
    context: PageContext,
    module: LessonModule,
    specs: Mapping[str, ChartSpec],
    result: Mapping[str, Any],
    summary: Mapping[str, list[dict[str, Any]]],
    svg_href: Mapping[str, str],
) -> str:
    """HTML for one ``{{< ... >}}`` directive at the default grid point."""
    components = env.get_template("components.html").module
    lang = context.lang
    if directive.kind == "controls":
        names = directive.names or module.grid.names
        params = []
        for name in names:
            p = module.grid.param(name)
            params.append(
                {
                    "name": p.name,
                    "label": p.label[lang],
                    "widget": p.resolved_widget,
                    "options": [p.display(i, lang) for i in range(len(p.values))],
                    "default_index": p.default_index,
                }
            )
        return str(components.controls(params, context.strings["controls_label"]))  # type: ignore[attr-defined]
    if directive.kind == "chart":
        name = directive.names[0]
        spec = specs[name]
        full = with_data(spec.spec, default_rows(spec, result, summary))
        chart = module.charts[name]
        return str(
            components.chart(  # type: ignore[attr-defined]
                name,
                script_json(full),
                svg_href[name],
                chart.description[lang],
                context.strings["chart_fallback"],
            )
        )
    name = directive.names[0]
    readout = module.readouts[name]
    text = readout.text(result["readouts"][name], lang)
    return str(components.readout(name, text, readout.label[lang]))  # type: ignore[attr-defined]


def render_lesson(
    env: jinja2.Environment,
    context: PageContext,
    parsed: ParsedMarkdown,
    *,
    slug: str,
    number: str,
    title: str,
    summary_text: str,
    module: LessonModule | None,
    specs: Mapping[str, ChartSpec],
    result: Mapping[str, Any],
    summary: Mapping[str, list[dict[str, Any]]],
    svg_href: Mapping[str, str],
    previous: Mapping[str, str] | None,
    next_: Mapping[str, str] | None,
) -> str:
    """A lesson page as HTML."""

    def render(directive: Directive) -> str:
        assert module is not None  # lessons without a module have no directives (validated)
        return render_directive(
            directive,
            env=env,
            context=context,
            module=module,
            specs=specs,
            result=result,
            summary=summary,
            svg_href=svg_href,
        )

    body = parsed.fill(render)
    return env.get_template("lesson.html").render(
        **context.variables(),
        slug=slug,
        number=number,
        page_title=title,
        page_summary=summary_text,
        headings=parsed.headings,
        body=body,
        interactive=module is not None,
        previous=previous,
        next=next_,
    )
