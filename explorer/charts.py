"""Turn a lesson's Altair charts into Vega-Lite specs for the page and SVG fallbacks.

The live chart is embedded once with the default grid point's rows; the page
runtime then swaps rows with ``view.data(name, rows)`` and sets Vega-Lite params
named like grid parameters with ``view.signal``. The static SVG shows the default
state for readers without JavaScript and for print.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.metadata
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import vl_convert

from privacy_explorer.cachefile import read_recorded, write_recorded
from privacy_explorer.errors import ModuleError, location
from privacy_explorer.fonts import (
    TEXT_FAMILY,
    ShippedFonts,
    embedded_faces_css,
    missing_characters,
    register_for_charts,
)
from privacy_explorer.lesson import MARK_CONTROL_SUFFIX, Chart, Grid
from privacy_explorer.runner import dumps

VEGA_LITE_VERSION = "6.4"
"""Pinned so the bundle in the page and the SVG renderer agree."""
VL_CONVERT_VERSION = importlib.metadata.version("vl-convert-python")
"""Part of every cached SVG's and bundle's key."""
SVG = "{http://www.w3.org/2000/svg}"
MIN_FONT_SIZE = 11
"""The smallest chart text, in CSS pixels at the chart's own scale (a phone's included)."""
TEXT_SIZES = {
    "axis": {"labelFontSize": 11, "titleFontSize": 12},
    "legend": {"labelFontSize": 11, "titleFontSize": 12},
    "header": {"labelFontSize": 11, "titleFontSize": 12},
    "title": {"fontSize": 14, "subtitleFontSize": 12},
    "text": {"fontSize": 11},
}
"""Vega-Lite's text sizes raised to at least :data:`MIN_FONT_SIZE` (its defaults are 10 and 11)."""
CONCAT_KEYS = ("hconcat", "vconcat", "concat", "facet", "repeat")
NARROW = "narrow"
"""The ``usermeta`` key of a chart's layout for a box narrower than the chart (a phone), which
the page draws instead (``compute.lessons.style.on_narrow_screens``, ``explorer.js``)."""


@dataclass(frozen=True)
class ChartSpec:
    """One chart in one language, ready to embed."""

    name: str
    """The chart's name in the module."""
    spec: dict[str, Any]
    """Vega-Lite spec without data; grid params set to the default point."""
    datasets: tuple[str, ...]
    """Named datasets the spec reads, sorted."""
    signals: tuple[str, ...]
    """Grid parameters the spec declares as params, in grid order."""
    marks: tuple[tuple[str, str], ...] = ()
    """The grid parameters that the chart's marks set, each with the field of the picked mark
    that gives its value (see :func:`mark_controls`), in grid order."""


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def named_datasets(spec: Mapping[str, Any]) -> set[str]:
    """Names of every ``{"data": {"name": ...}}`` the spec reads (lookups included)."""
    names = set()
    for node in _walk(spec):
        data = node.get("data")
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            names.add(data["name"])
    return names


def chart_spec(chart: Chart, lang: str, grid: Grid, module_path: Path, root: Path) -> ChartSpec:
    """Build ``chart`` in ``lang`` and check that it is a usable Vega-Lite spec."""
    where = f"{location(module_path, None, root)}: chart '{chart.name}' ({lang})"
    try:
        spec = chart.build(lang).to_dict()
    except Exception as exc:
        raise ModuleError(
            f"{where}: building the chart failed: {type(exc).__name__}: {exc}"
        ) from exc
    spec.pop("datasets", None)
    _use_shipped_font(spec, where)
    _readable_text(spec, where)
    # Vega puts the description into the live SVG's aria-label, for screen readers.
    spec.setdefault("description", chart.description[lang])
    narrow = narrow_layout(spec)
    if narrow is not None:
        narrow.pop("datasets", None)
        _use_shipped_font(narrow, f"{where}, narrow layout")
        _readable_text(narrow, f"{where}, narrow layout")
        narrow.setdefault("description", chart.description[lang])
        extra = named_datasets(narrow) - named_datasets({**spec, "usermeta": {}})
        if extra:
            raise ModuleError(
                f"{where}: the narrow layout reads {', '.join(sorted(extra))}, which the chart "
                "does not: give both layouts the same named datasets"
            )
    if "values" in json.dumps(spec.get("data", {})):
        raise ModuleError(
            f"{where}: use alt.Data(name=...) for the chart's data, not inline values"
        )
    default = grid.default
    signals = []
    for node in _walk(spec):
        for param in node.get("params", []) if isinstance(node.get("params"), list) else []:
            if isinstance(param, dict) and param.get("name") in default:
                param["value"] = default[param["name"]]
                signals.append(param["name"])
    auto = sorted(
        p["name"]
        for node in _walk(spec)
        for p in (node.get("params", []) if isinstance(node.get("params"), list) else [])
        if isinstance(p, dict) and str(p.get("name", "")).startswith("param_")
    )
    if auto:
        raise ModuleError(
            f"{where}: give every alt.param an explicit name (found {auto[0]}); "
            "automatic names change between builds"
        )
    order = {name: i for i, name in enumerate(grid.names)}
    return ChartSpec(
        name=chart.name,
        spec=spec,
        datasets=tuple(sorted(named_datasets(spec))),
        signals=tuple(sorted(set(signals), key=order.__getitem__)),
        marks=tuple(sorted(mark_controls(spec, grid, where).items(), key=lambda m: order[m[0]])),
    )


def mark_controls(spec: Mapping[str, Any], grid: Grid, where: str) -> dict[str, str]:
    """The grid parameters that marks of ``spec`` set, each with the field that gives its value:
    one per point selection named ``<param>_by_mark``
    (:data:`~privacy_explorer.lesson.MARK_CONTROL_SUFFIX`).

    The page sets ``param`` to the grid value nearest the picked mark's one selected field
    (``explorer.js``, ``bindMarks``). A name that is no grid parameter, or a selection that is
    not a point selection of exactly one field, is refused (``where`` names the chart).
    """
    found = {}
    for node in _walk(spec):
        params = node.get("params")
        for param in params if isinstance(params, list) else []:
            name = param.get("name", "") if isinstance(param, dict) else ""
            if not (isinstance(name, str) and name.endswith(MARK_CONTROL_SUFFIX)):
                continue
            target = name.removesuffix(MARK_CONTROL_SUFFIX)
            if target not in grid.names:
                raise ModuleError(
                    f"{where}: the mark control '{name}' sets '{target}', which is not a "
                    f"parameter of GRID; name it after one: "
                    + ", ".join(f"'{p}{MARK_CONTROL_SUFFIX}'" for p in grid.names)
                )
            select = param.get("select")
            point = isinstance(select, dict) and select.get("type") == "point"
            fields = select.get("fields") if point else None
            if not isinstance(fields, list) or len(fields) != 1:
                raise ModuleError(
                    f"{where}: the mark control '{name}' must be a point selection of one field, "
                    f"the one whose value sets '{target}': alt.selection_point(name='{name}', "
                    "fields=[FIELD]) (compute.lessons.style.mark_control makes one)"
                )
            found[target] = str(fields[0])
    return found


def _use_shipped_font(spec: dict[str, Any], where: str) -> None:
    """Name the shipped text face in the chart's config; refuse any other font.

    Text is measured at build time with the shipped face only, so that the
    layout (legend widths, label offsets) is the same on every machine.
    """
    for node in _walk(spec):
        for key, value in node.items():
            if (key == "font" or key.endswith("Font")) and value != TEXT_FAMILY:
                raise ModuleError(
                    f"{where}: remove {key}={value!r}; every chart is drawn in the shipped "
                    f"font {TEXT_FAMILY!r}, which the build sets"
                )
    config = spec.setdefault("config", {})
    config["font"] = TEXT_FAMILY


def _readable_text(spec: dict[str, Any], where: str) -> None:
    """Raise every default text size to :data:`MIN_FONT_SIZE`; refuse a smaller size set by hand.

    The live chart is drawn at its own scale (it takes the container's width rather than
    shrinking, see :func:`responsive`), so these are the sizes a reader sees.
    """
    for node in _walk(spec):
        for key, value in node.items():
            small = isinstance(value, int | float) and value < MIN_FONT_SIZE
            if key.endswith(("fontSize", "FontSize")) and small:
                raise ModuleError(
                    f"{where}: {key}={value} is too small to read on a phone; "
                    f"use at least {MIN_FONT_SIZE}"
                )
    config = spec.setdefault("config", {})
    for part, sizes in TEXT_SIZES.items():
        settings = config.setdefault(part, {})
        for key, size in sizes.items():
            settings[key] = max(size, settings.get(key, size))


def narrow_layout(spec: Mapping[str, Any]) -> dict[str, Any] | None:
    """The layout ``spec`` is drawn in where it is wider than its box, if it has one."""
    meta = spec.get("usermeta")
    narrow = meta.get(NARROW) if isinstance(meta, dict) else None
    return narrow if isinstance(narrow, dict) else None


def responsive(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The page's version of ``spec``: a single or layered chart takes its container's width.

    Vega then lays the chart out again at the width it is given, so its text keeps its size
    on a phone instead of shrinking with the picture. The static SVG keeps the fixed width
    (it has no container to measure). Side-by-side charts (concat, facet, repeat) cannot take
    a container's width in Vega-Lite: they keep theirs, and where that is wider than their box
    (a phone) the page runtime lays them out again when the page opens: panels side by side
    are stacked, one-row legends wrap, stacked panels are narrowed (``fitToBox`` in
    ``explorer.js``); what still does not fit scrolls inside its box. A chart with a
    :func:`narrow_layout` is drawn in that layout instead where it is wider than its box.
    """
    page = copy.deepcopy(dict(spec))
    if is_responsive(page):
        page["width"] = "container"
        page["autosize"] = {"type": "fit-x", "contains": "padding"}
    narrow = narrow_layout(page)
    if narrow is not None:
        page["usermeta"][NARROW] = responsive(narrow)
    return page


def is_responsive(spec: Mapping[str, Any]) -> bool:
    """Whether :func:`responsive` lets ``spec`` take its container's width.

    A chart whose ``usermeta`` holds ``{"fixedWidth": true}`` keeps its own width (a square
    plot, say; ``compute.lessons.style.fixed_width``).
    """
    fixed = isinstance(spec.get("usermeta"), dict) and spec["usermeta"].get("fixedWidth") is True
    sized = isinstance(spec.get("width"), int | float)
    return sized and not fixed and not any(key in spec for key in CONCAT_KEYS)


def with_data(
    spec: Mapping[str, Any], datasets: Mapping[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """A copy of ``spec`` carrying ``datasets`` inline (Vega-Lite's top-level ``datasets``)."""
    full = copy.deepcopy(dict(spec))
    full["datasets"] = {name: datasets[name] for name in sorted(datasets)}
    return full


def _cached(cache_dir: Path | None, material: str, suffix: str, produce: Callable[[], str]) -> str:
    """``produce()``, stored under a hash of ``material`` and the vl-convert version.

    ``material`` is everything else the output depends on (the spec, the fonts).

    SVG rendering and bundling dominate a rebuild in which no result changed, so
    their outputs are content-addressed like the results.
    """
    if cache_dir is None:
        return produce()
    key = hashlib.sha256(f"{VL_CONVERT_VERSION}\0{material}".encode()).hexdigest()
    path = cache_dir / f"{key}{suffix}"
    text = read_recorded(path)  # None when missing, or damaged (with a note)
    if text is None:
        text = produce()
        write_recorded(path, text)
    return text


def render_svg(
    spec: Mapping[str, Any],
    fonts: ShippedFonts,
    cache_dir: Path | None = None,
    where: str = "chart",
) -> str:
    """The chart as a standalone SVG document (no scripts, no external references).

    Its text is measured with the shipped ``fonts``, whose fingerprint is part
    of the cache key. A character the fonts lack would be measured with
    whatever font the machine has, so it is an error (``where`` names the chart).
    """

    # Whoever calls (a lesson's chart or the audit report), the text is set in the shipped face.
    spec = {**spec, "config": {**spec.get("config", {}), "font": TEXT_FAMILY}}

    def produce() -> str:
        register_for_charts(fonts)
        svg = vl_convert.vegalite_to_svg(dict(spec), vl_version=VEGA_LITE_VERSION)
        if missing_characters(svg_text(svg), fonts):
            return svg  # refused below, whether it came from the cache or not
        return _with_own_fonts(stable_ids(svg), fonts, cache_dir)

    key = f"fonts {fonts.fingerprint} embedded, stable ids\0{dumps(spec)}"
    svg = _cached(cache_dir, key, ".svg", produce)
    missing = missing_characters(svg_text(svg), fonts)
    if missing:
        shown = ", ".join(f"{char!r} (U+{ord(char):04X})" for char in missing[:5])
        raise ModuleError(
            f"{where}: the chart shows {shown}, which the shipped font {TEXT_FAMILY!r} lacks; "
            "use other characters, or add them to the font (site_templates/static/fonts/README.md)"
        )
    return svg


def _with_own_fonts(svg: str, fonts: ShippedFonts, cache_dir: Path | None) -> str:
    """``svg`` with the glyphs it draws embedded, so that it looks the same in an ``<img>``."""
    text = svg_text(svg)
    if not text.strip():
        return svg
    weights = (400, 700) if re.search(r'font-weight="(bold|[6-9]00)"', svg) else (400,)
    css = embedded_faces_css(fonts, "".join(sorted(set(text))), weights, cache_dir)
    opening_end = svg.index(">") + 1
    return f"{svg[:opening_end]}<style>{css}</style>{svg[opening_end:]}"


_SVG_ID = re.compile(
    r'(?<=id=")(clip|gradient_|pattern_)(\d+)(?=")|(?<=url\(#)(clip|gradient_|pattern_)(\d+)(?=\))'
)


def stable_ids(svg: str) -> str:
    """``svg`` with Vega's clip-path and gradient ids numbered from 1 in order of appearance.

    Vega numbers them with counters that live as long as the renderer, so the same chart
    would get other ids depending on which charts a worker drew before it.

    >>> stable_ids('<clipPath id="clip7"/><g clip-path="url(#clip7)"/><g fill="url(#gradient_3)"/>')
    '<clipPath id="clip1"/><g clip-path="url(#clip1)"/><g fill="url(#gradient_1)"/>'
    """
    renumbered: dict[tuple[str, str], int] = {}

    def renumber(match: re.Match[str]) -> str:
        prefix = match.group(1) or match.group(3)
        number = match.group(2) or match.group(4)
        if (prefix, number) not in renumbered:
            renumbered[prefix, number] = 1 + sum(kind == prefix for kind, _ in renumbered)
        return f"{prefix}{renumbered[prefix, number]}"

    return _SVG_ID.sub(renumber, svg)


def svg_text(svg: str) -> str:
    """The text of every ``<text>`` element of ``svg``, one per line."""
    root = ElementTree.fromstring(svg)
    return "\n".join("".join(node.itertext()) for node in root.iter(f"{SVG}text"))


def vega_bundle(cache_dir: Path | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one classic script that leaks no top-level names.

    The bundle assigns ``window.vegaEmbed``; its other top-level declarations are
    kept out of the page's global scope by the function wrapper.
    """

    def produce() -> str:
        # vl-convert 1.9's stub marks snippet as required; it defaults to None (the default one).
        bundle = vl_convert.javascript_bundle(vl_version=VEGA_LITE_VERSION)  # type: ignore[call-arg]
        return f"(function(){{\n{bundle}\n}})();\n"

    return _cached(cache_dir, f"bundle {VEGA_LITE_VERSION}", ".js", produce)
