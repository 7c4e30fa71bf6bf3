"""The chart style every lesson shares: sizes, colours, strokes, text sizes, axes, legends, labels.

A lesson's chart code takes its look from here and keeps only what is particular
to that chart (its fields, its marks, a height that its rows need). There is no
font here: the engine puts the font shipped with the site into every chart's
config, so that the static SVG and the live chart measure text alike.

The colours are Okabe and Ito's palette, which stays distinguishable for the
common colour-vision deficiencies. Where two groups are compared, the first is
solid blue and the second dashed vermillion, so they differ without colour too
(:func:`pair_scales`).

Every chart text exists in each language of the site. A chart module keeps its
texts as ``{"title": {"ko": ..., "en": ...}, "x": {...}}`` and reads them in one
language with :func:`in_language`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypeVar

import altair as alt

from privacy_explorer.lesson import LANGUAGES, MARK_CONTROL_SUFFIX, Text

# --- Sizes --------------------------------------------------------------------------

WIDTH = 560
"""Width in pixels of every chart's plot area."""
HEIGHT = 240
"""Height in pixels of a chart's plot area, unless its rows need more."""
LEGEND_STROKE_SIZE = 400
"""Area of a legend's stroke symbol: about 20 pixels long, enough to show a dash."""
ANNOTATION_SIZE = 11
"""Font size of a note on the plot: a label on a reference line or band."""
VALUE_SIZE = 12
"""Font size of a value printed on the plot, such as the current point's number."""
VALUE_CHAR_WIDTH = 0.56
"""At least the advance, in em, of each character but ``%`` that a number is printed with
(digits, point, comma, signs, the ``e`` of an exponent) in the shipped text face;
tests/test_style.py checks it on the font."""
PERCENT_WIDTH = 0.93
"""At least the advance, in em, of ``%`` in the shipped text face."""
CELL_PADDING = 3
"""Pixels a heat-map cell keeps clear on each side of the value printed in it."""

# --- Colours (Okabe–Ito) and strokes -----------------------------------------------

BLUE = "#0072B2"
SKY_BLUE = "#56B4E9"
GREEN = "#009E73"
VERMILLION = "#D55E00"
"""The colour of the learner's current choice, or of the second of two groups."""
ORANGE = "#E69F00"
REDDISH_PURPLE = "#CC79A7"
GREY = "#999999"
LIGHT_GREY = "#D9D9D9"
INK = "#222222"
"""Text and reference lines drawn on the plot."""

SOLID: list[float] = [1, 0]
"""A stroke dash that draws a solid line."""
DASHED: list[float] = [6, 4]
"""The dash of the second of two compared lines (see :func:`pair_scales`)."""
GUIDE_DASH: list[float] = [3, 3]
"""The dash of a guide drawn over the data: a bound, or a rule at the current value."""


# --- Texts ----------------------------------------------------------------------------


def in_language(texts: Mapping[str, Text], lang: str) -> dict[str, str]:
    """A chart's texts in one language: ``{"x": {"ko": "ε", "en": "ε"}}`` → ``{"x": "ε"}``.

    Raises ``ValueError`` naming the first text that lacks ``lang``, so that a
    missing translation fails the build rather than showing an empty title.

    >>> in_language({"title": {"ko": "제목", "en": "Title"}}, "en")
    {'title': 'Title'}
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of: {', '.join(LANGUAGES)}")
    missing = [key for key, text in texts.items() if not text.get(lang)]
    if missing:
        raise ValueError(f"the chart text {missing[0]!r} has no {lang!r} version")
    return {key: text[lang] for key, text in texts.items()}


# --- Axes, legends and scales -------------------------------------------------------------


def integer_axis(values: Sequence[int]) -> alt.Axis:
    """An axis with a tick at each of ``values``, printed as whole numbers, without grid lines."""
    return alt.Axis(values=list(values), format="d", grid=False)


def fixed_axis(extent: int, label_angle: float | None = None) -> alt.Axis:
    """An axis that always takes ``extent`` pixels beside the plot.

    A fixed extent keeps the plot from moving when the tick labels change length
    as the learner moves a control. ``label_angle`` tilts the labels (degrees).
    """
    if label_angle is None:
        return alt.Axis(minExtent=extent, maxExtent=extent)
    return alt.Axis(labelAngle=label_angle, minExtent=extent, maxExtent=extent)


def legend_above(title: str, *, lines: bool = False) -> alt.Legend:
    """A legend in one row above the plot, where it never covers data.

    With ``lines=True`` each entry is a short stroke drawn with its line's dash, for a chart
    whose lines also carry points (the points' circles would hide the dash).
    """
    if lines:
        return alt.Legend(
            title=title,
            orient="top",
            direction="horizontal",
            symbolType="stroke",
            symbolStrokeWidth=2,
            symbolSize=LEGEND_STROKE_SIZE,
        )
    return alt.Legend(title=title, orient="top", direction="horizontal")


def legend_inside(title: str) -> alt.Legend:
    """A legend in the plot's top-right corner, for charts whose data leave that corner empty."""
    return alt.Legend(title=title, orient="top-right")


def pair_scales(domain: Sequence[str]) -> tuple[alt.Scale, alt.Scale]:
    """Colour and dash scales for two compared groups: the first solid blue, the second dashed
    vermillion.

    Parameters
    ----------
    domain
        The two group names as the chart shows them (already in the page's language).

    Returns
    -------
    (altair.Scale, altair.Scale)
        The colour scale and the stroke-dash scale, to encode the same field with.
    """
    if len(domain) != 2:
        raise ValueError(f"pair_scales compares two groups, got {len(domain)}: {list(domain)!r}")
    return (
        alt.Scale(domain=list(domain), range=[BLUE, VERMILLION]),
        alt.Scale(domain=list(domain), range=[SOLID, DASHED]),
    )


def across(fraction: float, offset: float = 0) -> alt.ExprRef:
    """An x position at ``fraction`` of the plot's width plus ``offset`` pixels.

    A page lets a chart take its container's width, so a position on the plot is a share
    of the width the chart is given, never a fixed number of pixels.

    >>> across(1, -4).to_dict()
    {'expr': 'width * 1 + -4'}
    """
    return alt.ExprRef(expr=f"width * {fraction:g} + {offset:g}")


# --- Marks as controls ---------------------------------------------------------------------


def mark_control(param: str, *, field: str | None = None, drag: bool = False) -> alt.Parameter:
    """A selection that makes the marks of the chart it is added to a control of ``param``.

    Clicking or tapping the plot picks the mark nearest the pointer (or, with ``drag=True``,
    pressing and moving across the plot picks each mark the pointer passes), and the page
    sets the grid parameter ``param`` to the grid value nearest the picked mark's ``field``
    (default: a field named ``param``), through the parameter's ordinary control, which the
    page must also show: the keyboard's and a screen reader's way to the same setting. The
    change then goes into the URL hash and the page's announcement like any other.

    >>> spec = mark_control("threshold", drag=True).param.to_dict()
    >>> spec["name"], spec["select"]["fields"], spec["select"]["on"]
    ('threshold_by_mark', ['threshold'], 'pointerdown, pointermove[event.buttons]')
    """
    events = "pointerdown, pointermove[event.buttons]" if drag else "click"
    return alt.selection_point(
        name=f"{param}{MARK_CONTROL_SUFFIX}",
        fields=[field or param],
        nearest=True,
        on=events,
        toggle=False,
        clear=False,
    )


# --- Heat maps --------------------------------------------------------------------------


def _field(channel: alt.X | alt.Y) -> str:
    encoding = channel.to_dict()
    field = encoding.get("field") if isinstance(encoding, dict) else None
    if not isinstance(field, str):
        raise ValueError(f"a heat map's {type(channel).__name__} names a field, got {field!r}")
    return field


def cell_values(
    cells: alt.Chart,
    *,
    x: alt.X,
    y: alt.Y,
    value: str,
    value_format: str,
    color: str = INK,
    size: int = ANNOTATION_SIZE,
) -> alt.Chart:
    """The values of a heat map, each printed at its cell's centre only where the cell holds it.

    A cell is the plot's width over the number of columns by its height over the number of
    rows (both counted from the data), so the rule holds at whatever width the page gives the
    chart, on a phone too, and inside side-by-side or stacked panels. A value is printed where
    its text (``value_format``, a d3 format, at :data:`VALUE_CHAR_WIDTH` em a character,
    :data:`PERCENT_WIDTH` for a per cent sign) and
    :data:`CELL_PADDING` on each side fit across and a line fits down; elsewhere the cell
    keeps its colour alone, and the chart should offer the numbers another way (its tooltip,
    a table beside it).

    Parameters
    ----------
    cells
        The heat map's base chart: its data and transforms, one row per cell.
    x, y
        The heat map's encodings (on band scales): the fields they name are counted.
    value
        The field printed in each cell.
    color
        The text's colour: pick one that reads on every cell colour of the map.
    """
    across, down = _field(x), _field(y)
    text = f"format(datum[{value!r}], {value_format!r})"
    width = (
        f"(length({text}) * {VALUE_CHAR_WIDTH * size:g} + "
        f"(indexof({text}, '%') >= 0 ? {(PERCENT_WIDTH - VALUE_CHAR_WIDTH) * size:g} : 0))"
    )
    fits = (
        f"item.mark.group.width / datum.heat_columns >= {width} + {2 * CELL_PADDING} && "
        f"item.mark.group.height / datum.heat_rows >= {size + 2 * CELL_PADDING}"
    )
    values: alt.Chart = (
        cells.transform_joinaggregate(
            heat_columns=f"distinct({across})", heat_rows=f"distinct({down})"
        )
        .mark_text(fontSize=size, color=color, opacity=alt.ExprRef(f"{fits} ? 1 : 0"))
        .encode(x=x, y=y, text=alt.Text(f"{value}:Q", format=value_format))
    )
    return values


def heat_map(
    cells: alt.Chart,
    *,
    x: alt.X,
    y: alt.Y,
    color: alt.Color,
    value: str,
    value_format: str,
    tooltip: Sequence[alt.Tooltip] = (),
    ink: str = INK,
) -> alt.LayerChart:
    """A heat map: one rectangle per row of ``cells``, coloured by ``color``, with its value
    printed in it where the cell is large enough (:func:`cell_values`; ``ink`` colours it)."""
    squares = cells.mark_rect(stroke="white", strokeWidth=1).encode(
        x=x, y=y, color=color, tooltip=list(tooltip)
    )
    values = cell_values(cells, x=x, y=y, value=value, value_format=value_format, color=ink)
    return layered(squares, values)


# --- Layers, size and title ----------------------------------------------------------------


def layered(*charts: alt.Chart | alt.LayerChart) -> alt.LayerChart:
    """``charts`` drawn over one another, the first at the bottom.

    ``alt.layer`` would turn layers that share a facet encoding into a facet
    chart; these charts have no facets, so a plain ``LayerChart`` is what they
    are, and what the type checker is told.
    """
    return alt.LayerChart(layer=list(charts))


Sized = TypeVar("Sized", alt.Chart, alt.LayerChart)
Align = Literal["left", "center", "right"]
Baseline = Literal["alphabetic", "top", "middle", "bottom", "line-top", "line-bottom"]


FIXED_WIDTH = "fixedWidth"
"""The ``usermeta`` key of :func:`fixed_width` (``privacy_explorer.charts.is_responsive``)."""


def fixed_width(chart: Sized) -> Sized:
    """``chart`` kept at its own width on the page, instead of taking its container's.

    For a chart whose shape matters (a square ROC plot); keep it narrow enough for a phone
    (about 300 pixels with its axes). The engine reads the mark from the spec's ``usermeta``.
    """
    meta = chart.usermeta if isinstance(chart.usermeta, dict) else {}
    return chart.properties(usermeta={**meta, FIXED_WIDTH: True})


NARROW = "narrow"
"""The ``usermeta`` key of :func:`on_narrow_screens` (``privacy_explorer.charts``)."""


def on_narrow_screens(chart: Sized, narrow: alt.TopLevelMixin) -> Sized:
    """``chart``, drawn as ``narrow`` instead wherever it is wider than its box (a phone).

    For a chart that cannot shrink to a phone without becoming unreadable (a 14 × 14 map):
    ``narrow`` says the same in another shape (the current row and column, say). It reads
    the same named datasets and declares the same params, which the page keeps equal to the
    controls; the static picture and print show ``chart``. The engine finds ``narrow`` in the
    spec's ``usermeta``.
    """
    layout = narrow.to_dict()
    layout.pop("$schema", None)
    meta = chart.usermeta if isinstance(chart.usermeta, dict) else {}
    return chart.properties(usermeta={**meta, NARROW: layout})


def titled(
    chart: Sized,
    title: str | Sequence[str],
    *,
    takeaway: str | Sequence[str] | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Sized:
    """``chart`` with the shared plot size, its title and, below it, its takeaway.

    The takeaway is the one line a reader should carry away from the chart (issue 22 §4),
    drawn as the title's subtitle so that it travels with the chart into every export.
    A title or takeaway given as several strings is drawn as that many lines (short
    enough for a phone's width).

    >>> loss = titled(alt.Chart().mark_point(), "Loss", takeaway="Members lose less.")
    >>> loss.to_dict()["title"]
    {'text': 'Loss', 'subtitle': 'Members lose less.'}
    """
    text = title if isinstance(title, str) else list(title)
    heading: str | list[str] | alt.TitleParams = text
    if takeaway is not None:
        subtitle = takeaway if isinstance(takeaway, str) else list(takeaway)
        heading = alt.TitleParams(text=text, subtitle=subtitle)
    return chart.properties(width=width, height=height, title=heading)
