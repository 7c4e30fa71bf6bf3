"""The site's templates, template strings and static files, checked before anything is computed.

A project may bring its own ``site_templates/`` (see
:attr:`privacy_explorer.project.Project.templates_dir`). A missing file, a Jinja
syntax error or malformed ``strings.yml`` there is reported up front with the
file and line; an error while a template renders (an undefined variable, say)
is reported with the template's file and line too, never as a traceback.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
import yaml

from privacy_explorer.errors import ContentError, location, raise_collected
from privacy_explorer.project import Project, read_strings
from privacy_explorer.render import make_environment

TEMPLATES = ("base.html", "components.html", "index.html", "lesson.html", "embed.html", "404.html")
"""The Jinja templates a site is rendered with."""


@dataclass(frozen=True)
class SiteTemplates:
    """Everything the pages are rendered with, read and checked."""

    env: jinja2.Environment
    """Jinja, loading from the templates folder."""
    strings: dict[str, dict[str, str]]
    """Template strings per language (``strings.yml``)."""
    static: dict[str, bytes]
    """The static assets, by their name under ``static/``."""


def _advice(folder: Path) -> str:
    return (
        f"compare it with the explorer's own site_templates/ (or remove {folder.name}/ to use them)"
    )


def load_templates(project: Project, static_assets: Sequence[str]) -> SiteTemplates:
    """Read and check every template, ``strings.yml`` and the ``static_assets``; report all."""
    folder, root = project.templates_dir, project.root
    env = make_environment(folder)
    problems: list[str] = []
    for name in TEMPLATES:
        try:
            env.get_template(name)
        except jinja2.TemplateNotFound:
            problems.append(f"{location(folder / name, None, root)}: missing; {_advice(folder)}")
        except jinja2.TemplateSyntaxError as exc:
            problems.append(
                f"{location(folder / name, exc.lineno, root)}: template syntax error: "
                f"{(exc.message or '').rstrip('.')}; {_advice(folder)}"
            )
    strings: dict[str, dict[str, str]] = {}
    strings_file = folder / "strings.yml"
    try:
        strings = read_strings(project)
    except FileNotFoundError:
        problems.append(f"{location(strings_file, None, root)}: missing; {_advice(folder)}")
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        problems.append(
            f"{location(strings_file, line, root)}: malformed YAML: {exc.problem}; "
            "write one 'key: {ko: ..., en: ...}' entry per text"
        )
    except ContentError as exc:
        problems.append(exc.message)
    static: dict[str, bytes] = {}
    for name in static_assets:
        path = folder / "static" / name
        try:
            static[name] = path.read_bytes()
            if name.endswith(".css"):
                static[name] = without_css_comments(static[name].decode("utf-8")).encode()
        except OSError as exc:
            problems.append(
                f"{location(path, None, root)}: cannot read it ({exc.strerror}); {_advice(folder)}"
            )
    raise_collected(problems)
    return SiteTemplates(env=env, strings=strings, static=static)


def without_css_comments(css: str) -> str:
    """``css`` without its comments and the lines they leave empty: every page loads the
    stylesheet, and its comments are for whoever edits it. Quoted strings are kept as they
    are, ``/*`` inside them included; an unclosed comment runs to the end, as in CSS."""
    out: list[str] = []
    at, quote = 0, ""
    while at < len(css):
        char = css[at]
        if quote:
            out.append(css[at : at + 2] if char == "\\" else char)
            at += 2 if char == "\\" else 1
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
            out.append(char)
            at += 1
        elif css.startswith("/*", at):
            end = css.find("*/", at + 2)
            at = len(css) if end < 0 else end + 2
        else:
            out.append(char)
            at += 1
    return "".join(line.rstrip() + "\n" for line in "".join(out).splitlines() if line.strip())


@contextlib.contextmanager
def template_errors(project: Project) -> Iterator[None]:
    """Turn an error raised while a template renders into one naming its file and line."""
    try:
        yield
    except jinja2.TemplateError as exc:
        folder = project.templates_dir.resolve()
        frames = [
            frame
            for frame in traceback.extract_tb(exc.__traceback__)
            if Path(frame.filename).resolve().is_relative_to(folder)
        ]
        where = (
            location(Path(frames[-1].filename), frames[-1].lineno, project.root)
            if frames
            else location(folder, None, project.root)
        )
        raise ContentError(
            f"{where}: the template failed: {(exc.message or type(exc).__name__).rstrip('.')}; "
            f"{_advice(project.templates_dir)}"
        ) from None
