"""Turn a lesson's Altair charts into Vega-Lite specs for the page and SVG fallbacks.

The live chart is embedded once with the default grid point's rows; the page
runtime then swaps rows with ``view.data(name, rows)`` and sets Vega-Lite params
named like grid parameters with ``view.signal``. The static SVG shows the default
state for readers without JavaScript and for print.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import vl_convert

from privacy_explorer.cachefile import read_recorded, write_recorded
from privacy_explorer.errors import ModuleError, location
from privacy_explorer.lesson import Chart, Grid
from privacy_explorer.runner import dumps

VEGA_LITE_VERSION = "6.4"
"""Pinned so the bundle in the page and the SVG renderer agree."""


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
    # Vega puts the description into the live SVG's aria-label, for screen readers.
    spec.setdefault("description", chart.description[lang])
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
        for p in (node.get("params") if isinstance(node.get("params"), list) else [])
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
    )


def with_data(
    spec: Mapping[str, Any], datasets: Mapping[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """A copy of ``spec`` carrying ``datasets`` inline (Vega-Lite's top-level ``datasets``)."""
    full = copy.deepcopy(dict(spec))
    full["datasets"] = {name: datasets[name] for name in sorted(datasets)}
    return full


def _cached(cache_dir: Path | None, material: str, suffix: str, produce: Callable[[], str]) -> str:
    """``produce()``, stored under a hash of ``material`` and the vl-convert version.

    SVG rendering and bundling dominate a rebuild in which no result changed, so
    their outputs are content-addressed like the results.
    """
    if cache_dir is None:
        return produce()
    key = hashlib.sha256(f"{vl_convert.__version__}\0{material}".encode()).hexdigest()
    path = cache_dir / f"{key}{suffix}"
    text = read_recorded(path)  # None when missing, or damaged (with a note)
    if text is None:
        text = produce()
        write_recorded(path, text)
    return text


def render_svg(spec: Mapping[str, Any], cache_dir: Path | None = None) -> str:
    """The chart as a standalone SVG document (no scripts, no external references)."""
    return _cached(
        cache_dir,
        dumps(spec),
        ".svg",
        lambda: vl_convert.vegalite_to_svg(dict(spec), vl_version=VEGA_LITE_VERSION),
    )


def vega_bundle(cache_dir: Path | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one classic script that leaks no top-level names.

    The bundle assigns ``window.vegaEmbed``; its other top-level declarations are
    kept out of the page's global scope by the function wrapper.
    """

    def produce() -> str:
        bundle = vl_convert.javascript_bundle(vl_version=VEGA_LITE_VERSION)
        return f"(function(){{\n{bundle}\n}})();\n"

    return _cached(cache_dir, f"bundle {VEGA_LITE_VERSION}", ".js", produce)
