"""The build's first stage: gather and validate every lesson before anything is computed.

:func:`plan` reads the lessons (all, or the one ``--only`` names), loads and checks
their compute modules, parses their Markdown and checks every directive's names
against the module (see :func:`privacy_explorer.directives.check_directives`). All
problems are collected and raised together; nothing has been computed or written
by then.
"""

from __future__ import annotations

from dataclasses import dataclass

from privacy_explorer.directives import check_directives
from privacy_explorer.errors import ContentError, ExplorerError, location, raise_collected
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.markup import ParsedMarkdown, parse_markdown
from privacy_explorer.modules import LessonModule, load_module
from privacy_explorer.project import Lesson, Project, discover_lessons

__all__ = ["Plan", "PlannedLesson", "plan"]


@dataclass(frozen=True)
class PlannedLesson:
    """A lesson whose content and module passed validation."""

    lesson: Lesson
    """The lesson as written."""
    module: LessonModule | None
    """Its compute module, if it has one."""
    parsed: dict[str, ParsedMarkdown]
    """Its Markdown per language, math rendered, directives collected."""

    def placed(self, kind: str, lang: str) -> set[str]:
        """The names of the ``kind`` directives on the page in ``lang`` (``chart``: charts)."""
        return {d.names[0] for d in self.parsed[lang].directives if d.kind == kind}


@dataclass(frozen=True)
class Plan:
    """What the build will make: the validated lessons, in the course's order."""

    project: Project
    """The course project."""
    lessons: tuple[PlannedLesson, ...]
    """The lessons to build (all, or the one ``--only`` chose)."""
    warnings: tuple[str, ...]
    """Problems that do not stop the build (errors under ``--strict``)."""
    left_out: tuple[str, ...] = ()
    """The slugs of the course's lessons that ``--only`` leaves out."""

    def pager(self, position: int, lang: str) -> dict[str, str] | None:
        """The link to the lesson at ``position`` (``None`` before the first, after the last)."""
        if not 0 <= position < len(self.lessons):
            return None
        lesson = self.lessons[position].lesson
        return {"href": f"{lesson.slug}.html", "title": lesson.pages[lang].title}


def plan(project: Project, only: str | None = None) -> Plan:
    """Gather and validate every lesson, its module and its Markdown (nothing is computed)."""
    lessons = discover_lessons(project)
    left_out: tuple[str, ...] = ()
    if only is not None:
        chosen = [lesson for lesson in lessons if only in (lesson.slug, lesson.slug[:2])]
        if not chosen:
            known = ", ".join(lesson.slug for lesson in lessons)
            raise ExplorerError(f"--only {only}: no such lesson; choose one of: {known}")
        left_out = tuple(lesson.slug for lesson in lessons if lesson not in chosen)
        lessons = chosen
    problems: list[str] = []
    warnings: list[str] = []
    modules: dict[str, LessonModule] = {}
    planned: list[PlannedLesson] = []
    root = project.root
    for lesson in lessons:
        module = None
        if lesson.compute is not None:
            if lesson.compute not in modules:
                first = lesson.pages[LANGUAGES[0]].source
                named_by = location(first.path, first.meta_lines.get("compute"), root)
                try:
                    modules[lesson.compute] = load_module(
                        project.compute_dir, lesson.compute, root, named_by
                    )
                except ExplorerError as exc:
                    problems.append(exc.message)
                    continue
            module = modules[lesson.compute]
        parsed: dict[str, ParsedMarkdown] = {}
        for lang, page in lesson.pages.items():
            source = page.source
            try:
                parsed[lang] = parse_markdown(
                    source.path, source.body, source.body_first_line, root
                )
            except ContentError as exc:
                problems.append(exc.message)
        if len(parsed) != len(lesson.pages):
            continue
        item = PlannedLesson(lesson=lesson, module=module, parsed=parsed)
        for lang in LANGUAGES:
            page_markdown = item.parsed[lang]
            check_directives(
                page_markdown.directives, module, page_markdown.path, root, problems, warnings
            )
        planned.append(item)
    raise_collected(problems)
    return Plan(
        project=project, lessons=tuple(planned), warnings=tuple(warnings), left_out=left_out
    )
