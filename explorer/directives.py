"""The directive kinds, in one registry: how each is parsed, validated and rendered.

An author places interactive elements in a lesson's Markdown with directives
(``{{< chart NAME >}}``; see :mod:`privacy_explorer.markup`). Each kind is one
:class:`DirectiveKind` in :data:`KINDS`:

* :mod:`privacy_explorer.markup` asks it where the directive may stand (a line of its
  own, or inside a sentence) and lets it read its arguments (:attr:`DirectiveKind.parse`);
* :func:`check_directives`, run by the build's plan before anything is computed, checks
  every name against what the lesson's module defines (:attr:`DirectiveKind.defined`),
  that a name is placed once per page where that matters, and warns about what a
  module defines but the page never places;
* :func:`render_directive` turns it into HTML at the default grid point
  (:attr:`DirectiveKind.render`).

So adding a kind is one :func:`register` call; nothing else dispatches on a kind's name.
The quiz is a kind too, but its ``{{< quiz >}} ... {{< /quiz >}}`` block is read by the
Markdown reader itself (see :mod:`privacy_explorer.quiz`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import jinja2

from privacy_explorer import korean
from privacy_explorer.charts import ChartSpec, is_responsive, responsive, with_data
from privacy_explorer.errors import ContentError, location
from privacy_explorer.modules import LessonModule
from privacy_explorer.quiz import Quiz
from privacy_explorer.render import PageContext, default_rows, script_json, table_rows

PARTICLE_OPTION = re.compile(r"(?P<marks>[」』)\]’”'\"]*)(?P<particle>[가-힣]+)")
"""A readout's particle option: closing marks that follow the value, then the particle."""

__all__ = [
    "KINDS",
    "Directive",
    "DirectiveKind",
    "PageInputs",
    "any_names",
    "check_directives",
    "is_block",
    "kind",
    "one_name",
    "register",
    "render_directive",
    "written_kinds",
]


@dataclass(frozen=True)
class Directive:
    """An interactive element the author placed in the Markdown."""

    kind: str
    """A name in :data:`KINDS`: ``controls``, ``chart``, ``table``, ``changes``, ``readout``,
    ``showme`` or ``quiz``."""
    names: tuple[str, ...]
    """What it refers to: parameter, chart, table or readout names (none for a quiz)."""
    line: int
    """1-based line in the Markdown file."""
    quiz: Quiz | None = None
    """A quiz's question, answers and explanation (its readouts are directives of their own)."""
    particle: str = ""
    """A readout's Korean particle as the author wrote it (``가``); the build picks its form."""
    marks: str = ""
    """Closing marks (``」``) between a readout and its particle."""
    settings: tuple[tuple[str, str], ...] = ()
    """A "Show me" step's settings: (parameter, value as the URL hash writes it)."""


@dataclass(frozen=True)
class PageInputs:
    """What a directive is rendered from: the page, its lesson's module and results."""

    env: jinja2.Environment
    """The site's templates (``components.html`` holds one macro per kind)."""
    context: PageContext
    """Where the page sits, its language and strings."""
    module: LessonModule
    """The lesson's compute module."""
    specs: Mapping[str, ChartSpec]
    """The page's charts, by name."""
    result: Mapping[str, Any]
    """The result at the default grid point."""
    summary: Mapping[str, list[dict[str, Any]]]
    """The whole-grid datasets from ``summarize()``."""
    svg_href: Mapping[str, str]
    """Each chart's SVG fallback, relative to the page."""
    placed_controls: dict[str, int] = field(default_factory=dict)
    """How many instances of each control (and of each group, under ``group:LABEL``) the
    page has rendered so far, shared by its directives: later instances get ids and
    landmark names of their own."""

    @property
    def components(self) -> Any:
        """The macros of ``components.html``."""
        return self.env.get_template("components.html").module


Parser = Callable[[tuple[str, ...], int, str], Directive]
"""Reads a directive's arguments: ``(arguments, line, where)`` -> the directive."""


@dataclass(frozen=True)
class DirectiveKind:
    """One kind of directive: where it stands, what it names, how it is shown."""

    name: str
    """What the author writes first: ``{{< NAME ... >}}``."""
    placement: Literal["block", "inline", "quiz"]
    """``block``: on a line of its own; ``inline``: inside a sentence; ``quiz``: the quiz block,
    which the Markdown reader handles itself."""
    render: Callable[[Directive, PageInputs], str]
    """Its HTML at the default grid point."""
    parse: Parser | None = None
    """Reads its arguments (``None`` for the quiz, which has its own syntax)."""
    defined: Callable[[LessonModule], tuple[str, ...]] = lambda module: ()
    """The names a lesson module defines for this kind; any other name is an error."""
    noun: str = ""
    """How an error calls one of its names (``unknown control 'x'``); the kind's name if empty."""
    all_when_unnamed: bool = False
    """Without names it stands for every name the module defines (``{{< controls >}}``)."""
    once_per_page: bool = False
    """Each name may be placed once per page."""
    unplaced: Callable[[str], str] | None = None
    """The warning for a name the module defines but the page does not place, if any."""
    check: Callable[[Directive, LessonModule], list[str]] | None = None
    """More problems with a directive, beyond its names (a step's settings), if any."""


KINDS: dict[str, DirectiveKind] = {}
"""Every directive kind, by name, in the order they were registered."""


def register(directive_kind: DirectiveKind) -> DirectiveKind:
    """Add a kind to :data:`KINDS` (replacing one of the same name)."""
    KINDS[directive_kind.name] = directive_kind
    return directive_kind


def kind(name: str) -> DirectiveKind | None:
    """The kind called ``name``, if there is one."""
    return KINDS.get(name)


def written_kinds() -> tuple[str, ...]:
    """The kinds written as ``{{< NAME ... >}}``: block kinds first, then inline ones."""
    return tuple(
        name
        for placement in ("block", "inline")
        for name, found in KINDS.items()
        if found.placement == placement
    )


def is_block(name: str) -> bool:
    """Whether ``{{< name ... >}}`` must stand on a line of its own."""
    found = KINDS.get(name)
    return found is not None and found.placement == "block"


# Parsing


def any_names(arguments: tuple[str, ...], line: int, where: str, *, kind: str) -> Directive:
    """A directive of any number of names (none included)."""
    return Directive(kind, arguments, line)


def one_name(
    arguments: tuple[str, ...], line: int, where: str, *, kind: str, more: str = ""
) -> Directive:
    """A directive of exactly one name; ``more`` names another accepted form."""
    if len(arguments) != 1:
        raise ContentError(
            f"{where}: '{kind}' takes exactly one name, e.g. {{{{< {kind} NAME >}}}}{more}"
        )
    return Directive(kind, arguments, line)


def _parse_changes(arguments: tuple[str, ...], line: int, where: str) -> Directive:
    """``{{< changes NAME ... >}}``: one name or more, readouts and live tables."""
    if not arguments:
        raise ContentError(
            f"{where}: 'changes' names the readouts and tables it compares, "
            "e.g. {{< changes status conditions >}}"
        )
    return Directive("changes", arguments, line)


def _parse_readout(arguments: tuple[str, ...], line: int, where: str) -> Directive:
    """``{{< readout NAME >}}``, or ``{{< readout NAME 가 >}}`` with a particle that must
    agree with the value."""
    if len(arguments) != 2:
        return one_name(arguments, line, where, kind="readout", more=" or {{< readout NAME 가 >}}")
    where = f"{where}: readout '{arguments[0]}'"
    option = PARTICLE_OPTION.fullmatch(arguments[1])
    if option is None:
        raise ContentError(
            f"{where}: '{arguments[1]}' is not a particle; write the particle in Hangul, after "
            "closing marks if any: {{< readout NAME 가 >}} or {{< readout NAME 」와 >}}"
        )
    try:
        korean.particle(option.group("particle"))
    except ValueError as exc:
        raise ContentError(f"{where}: {exc}") from None
    return Directive(
        "readout",
        (arguments[0],),
        line,
        particle=option.group("particle"),
        marks=option.group("marks"),
    )


SHOWME_FORM = "{{< showme CHART NAME=VALUE ... >}}, e.g. {{< showme densities epsilon=1 >}}"


def _parse_showme(arguments: tuple[str, ...], line: int, where: str) -> Directive:
    """``{{< showme CHART NAME=VALUE ... >}}``: a step that sets controls and shows a chart
    (or a table)."""
    if len(arguments) < 2 or "=" in arguments[0]:
        raise ContentError(f"{where}: 'showme' names its chart, then what it sets: {SHOWME_FORM}")
    settings: list[tuple[str, str]] = []
    for argument in arguments[1:]:
        name, equals, value = argument.partition("=")
        if not (name and equals and value):
            raise ContentError(f"{where}: showme: '{argument}' is not NAME=VALUE; {SHOWME_FORM}")
        settings.append((name, value))
    return Directive("showme", (arguments[0],), line, settings=tuple(settings))


def _check_showme(directive: Directive, module: LessonModule) -> list[str]:
    """Each setting names a parameter of the module and one of its values."""
    problems = []
    for name, value in directive.settings:
        if name not in module.grid.names:
            known = ", ".join(module.grid.names)
            problems.append(f"showme: unknown parameter '{name}'; {module.name} defines: {known}")
            continue
        texts = module.grid.param(name).value_texts
        if value not in texts:
            problems.append(
                f"showme: '{name}' has no value '{value}'; use one of: {', '.join(texts)}"
            )
    return problems


# Validation


def check_directives(
    directives: tuple[Directive, ...],
    module: LessonModule | None,
    path: Path,
    root: Path,
    problems: list[str],
    warnings: list[str],
) -> None:
    """Check a page's directives against its lesson's module, before anything is computed.

    A name the module does not define, or placed twice where once is the rule, is a
    problem (with the file and line); a name the module defines but the page does not
    place is a warning.
    """
    if module is None:
        for directive in directives:
            problems.append(
                f"{location(path, directive.line, root)}: '{directive.kind}' needs a compute "
                "module; add 'compute: <module>' to the front matter"
            )
        return
    placed: dict[str, dict[str, int]] = {name: {} for name in KINDS}
    for directive in directives:
        where = location(path, directive.line, root)
        found = KINDS[directive.kind]
        defined = found.defined(module)
        names = directive.names or (defined if found.all_when_unnamed else ())
        if found.check is not None:
            problems.extend(f"{where}: {problem}" for problem in found.check(directive, module))
        for name in names:
            if name not in defined:
                known = ", ".join(defined) or "none"
                noun = found.noun or found.name
                problems.append(f"{where}: unknown {noun} '{name}'; {module.name} defines: {known}")
                continue
            if not found.once_per_page:
                placed[found.name].setdefault(name, directive.line)
                continue
            if name in placed[found.name]:
                problems.append(
                    f"{where}: the {found.name.rstrip('s')} '{name}' is already placed "
                    f"on line {placed[found.name][name]}; place it once per page"
                )
            placed[found.name][name] = directive.line
    page = location(path, None, root)
    for found in KINDS.values():
        if found.unplaced is None:
            continue
        for name in found.defined(module):
            if name not in placed[found.name]:
                warnings.append(f"{page}: {found.unplaced(name)}")


# Rendering


def render_directive(directive: Directive, inputs: PageInputs) -> str:
    """HTML for one ``{{< ... >}}`` directive at the default grid point."""
    return KINDS[directive.kind].render(directive, inputs)


def _render_controls(directive: Directive, page: PageInputs) -> str:
    module, lang = page.module, page.context.lang
    names = directive.names or module.grid.names
    params = []
    for name in names:
        p = module.grid.param(name)
        # Every instance is bound to the one lesson state by data-param; ids stay unique.
        instance = page.placed_controls.get(name, 0) + 1
        page.placed_controls[name] = instance
        params.append(
            {
                "name": p.name,
                "id": f"control-{p.name}" if instance == 1 else f"control-{p.name}-{instance}",
                "label": p.label[lang],
                "widget": p.resolved_widget,
                "options": [p.display(i, lang) for i in range(len(p.values))],
                "default_index": p.default_index,
            }
        )
    # Named after its parameters: a page with two groups has two distinct landmarks.
    labels = ", ".join(module.grid.param(name).label[lang] for name in names)
    label = f"{page.context.strings['controls_label']}: {labels}"
    # The same group placed again is numbered, so that each landmark stays distinct.
    repeat = page.placed_controls.get(f"group:{label}", 0) + 1
    page.placed_controls[f"group:{label}"] = repeat
    if repeat > 1:
        label = f"{label} ({repeat})"
    return str(page.components.controls(params, label))


def _render_table(directive: Directive, page: PageInputs) -> str:
    lang, summary = page.context.lang, page.summary
    name = directive.names[0]
    table = page.module.tables[name]
    rows = summary[name] if name in summary else page.result["datasets"][name]
    return str(
        page.components.table(
            name,
            table.caption[lang],
            [column.label[lang] for column in table.columns],
            table_rows(table, rows, lang),
            table.row_headers,
            table.empty[lang] if table.empty else "",
            name not in summary,
        )
    )


def _render_changes(directive: Directive, page: PageInputs) -> str:
    module, lang = page.module, page.context.lang
    compared: list[dict[str, Any]] = []
    for name in directive.names:
        if name in module.readouts:
            compared.append({"readout": name, "label": module.readouts[name].label[lang]})
        else:
            table = module.tables[name]
            columns = [column.label[lang] for column in table.columns]
            compared.append({"table": name, "columns": columns})
    return str(
        page.components.changes(json.dumps(compared, ensure_ascii=False), page.context.strings)
    )


def _render_chart(directive: Directive, page: PageInputs) -> str:
    name = directive.names[0]
    spec = page.specs[name]
    full = with_data(responsive(spec.spec), default_rows(spec, page.result, page.summary))
    chart = page.module.charts[name]
    return str(
        page.components.chart(
            name,
            script_json(full),
            page.svg_href[name],
            chart.description[page.context.lang],
            page.context.strings["chart_fallback"],
            not is_responsive(spec.spec),
        )
    )


def _render_readout(directive: Directive, page: PageInputs) -> str:
    lang = page.context.lang
    name = directive.names[0]
    readout = page.module.readouts[name]
    value = page.result["readouts"][name]
    text = readout.text(value, lang)
    # A number and its unit stay on one line; a text readout (a verdict, a list) may wrap.
    wraps = not isinstance(value, int | float)
    html = str(page.components.readout(name, text, readout.label[lang], readout.announce, wraps))
    if not directive.particle:
        return html
    chosen = korean.particle(directive.particle)
    return str(
        page.components.readout_with_particle(html, directive.marks, chosen, chosen.after(text))
    )


def _render_showme(directive: Directive, page: PageInputs) -> str:
    grid, lang, strings = page.module.grid, page.context.lang, page.context.strings
    indices: dict[str, int] = {}
    shown = []
    for name, value in directive.settings:
        param = grid.param(name)
        indices[name] = param.value_texts.index(value)
        shown.append(f"{param.label[lang]}: {param.display(indices[name], lang)}")
    return str(
        page.components.showme(
            f"{'chart' if directive.names[0] in page.module.charts else 'table'}-"
            f"{directive.names[0]}",
            json.dumps(indices, ensure_ascii=False, sort_keys=True),
            f"{strings['showme_label']}: {', '.join(shown)}",
            strings["showme_said"].replace("{settings}", "; ".join(shown)),
        )
    )


def _render_quiz(directive: Directive, page: PageInputs) -> str:
    assert directive.quiz is not None  # markup gives every quiz directive its quiz
    return str(page.components.quiz(directive.quiz, page.context.strings))


register(
    DirectiveKind(
        "controls",
        "block",
        _render_controls,
        parse=lambda arguments, line, where: any_names(arguments, line, where, kind="controls"),
        defined=lambda module: module.grid.names,
        noun="control",
        all_when_unnamed=True,
        unplaced=lambda name: (
            f"no control for '{name}': learners cannot change it; "
            f"add '{{{{< controls {name} >}}}}' (or '{{{{< controls >}}}}' for all)"
        ),
    )
)
register(
    DirectiveKind(
        "chart",
        "block",
        _render_chart,
        parse=lambda arguments, line, where: one_name(arguments, line, where, kind="chart"),
        defined=lambda module: tuple(module.charts),
        once_per_page=True,
        unplaced=lambda name: (
            f"chart '{name}' is defined but not placed; "
            f"add '{{{{< chart {name} >}}}}' on a line of its own"
        ),
    )
)
register(
    DirectiveKind(
        "table",
        "block",
        _render_table,
        parse=lambda arguments, line, where: one_name(arguments, line, where, kind="table"),
        defined=lambda module: tuple(module.tables),
        once_per_page=True,
        unplaced=lambda name: (
            f"table '{name}' is defined but not placed; "
            f"add '{{{{< table {name} >}}}}' on a line of its own"
        ),
    )
)
register(
    DirectiveKind(
        "changes",
        "block",
        _render_changes,
        parse=_parse_changes,
        defined=lambda module: (*module.readouts, *module.tables),
        noun="readout or table",
    )
)
register(
    DirectiveKind(
        "readout",
        "inline",
        _render_readout,
        parse=_parse_readout,
        defined=lambda module: tuple(module.readouts),
    )
)
register(
    DirectiveKind(
        "showme",
        "block",
        _render_showme,
        parse=_parse_showme,
        defined=lambda module: (*module.charts, *module.tables),
        noun="chart or table",
        check=_check_showme,
    )
)
register(DirectiveKind("quiz", "quiz", _render_quiz))
