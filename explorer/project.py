"""A course project on disk: its site settings and its lessons, read and validated.

A project is a folder with ``site.yml``, ``content/<lang>/<slug>.md`` for every
lesson and language, ``compute/`` for the lesson modules and ``data/`` for their
data files. Nothing here runs a compute module; see :mod:`privacy_explorer.modules`.
"""

from __future__ import annotations

import importlib.resources
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard
from urllib.parse import urlsplit

import yaml

from privacy_explorer.errors import ContentError, location, raise_collected
from privacy_explorer.frontmatter import SourceText, duplicate_key, read_text, split_front_matter
from privacy_explorer.lesson import LANGUAGES, Text

SITE_FILE = "site.yml"
SLUG = re.compile(r"^[0-9]{2}-[a-z0-9]+(-[a-z0-9]+)*$")
MODULE_NAME = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")
"""A module under ``compute/``, dotted for a sub-folder: ``lessons.dice`` is ``lessons/dice.py``."""
FRONT_MATTER_KEYS = {
    "title": "the page title",
    "summary": "one sentence for the lesson's card on the index page",
    "order": "the lesson's position on the index page (a whole number)",
    "compute": "the compute module in compute/ (dotted, without .py), if the lesson is interactive",
    "timeout": "the longest one grid point may compute, in seconds (default 600)",
    "pin_controls": "whether a group of controls may stay pinned at the top of a wide window "
    "by the figures it moves (true or false, default true)",
}
POINT_TIMEOUT = 600.0
"""Seconds a grid point may compute when the front matter sets no ``timeout``."""
REQUIRED_KEYS = ("title", "summary", "order")
BUILTIN_TEMPLATES = "privacy_explorer.site_templates"
"""The default templates, package data of the wheel (the repository's site_templates/)."""


def builtin_templates_dir() -> Path:
    """Where the installed default templates are on disk."""
    return Path(str(importlib.resources.files(BUILTIN_TEMPLATES)))


@dataclass(frozen=True)
class Project:
    """Where a course project lives and what its site is called."""

    root: Path
    """The project folder (holds ``site.yml``)."""
    title: Text
    """The site title in every language."""
    description: Text
    """The sentence under the title on the index page, in every language."""
    build_dir: Path
    """Where the build writes the site, its caches and its lock: ``build/`` in the project
    folder, unless :func:`load_project` was given another folder (the tests give a temporary
    one, so that they never write into the repository)."""
    base_url: str | None = None
    """The public address of the site root, ending in ``/`` (``site.yml`` or ``--base-url``);
    with it the build writes canonical links, Open Graph tags, ``sitemap.xml`` and a 404 page
    whose links work at any depth. ``None`` keeps every link relative."""

    @property
    def content_dir(self) -> Path:
        """``content/``: one folder per language with a Markdown file per lesson."""
        return self.root / "content"

    @property
    def compute_dir(self) -> Path:
        """``compute/``: one Python module per interactive lesson."""
        return self.root / "compute"

    @property
    def data_dir(self) -> Path:
        """``data/``: data files with their provenance in ``SOURCES.md``."""
        return self.root / "data"

    @property
    def templates_dir(self) -> Path:
        """The project's ``site_templates/`` if it has one, else the explorer's own."""
        own = self.root / "site_templates"
        return own if own.is_dir() else builtin_templates_dir()


@dataclass(frozen=True)
class LessonPage:
    """One lesson in one language, as written by the author."""

    lang: str
    """Language code (``ko``, ``en``)."""
    source: SourceText
    """The file, its front matter and its Markdown body."""
    title: str
    """The page title."""
    summary: str
    """The index card sentence."""


@dataclass(frozen=True)
class Lesson:
    """A lesson in every language, with the compute module it names."""

    slug: str
    """File stem shared by every language, e.g. ``03-differential-privacy``."""
    order: int
    """Position on the index page."""
    compute: str | None
    """Dotted name of the module in ``compute/`` (``lessons.memorization``), or ``None`` for a
    text-only lesson."""
    pages: dict[str, LessonPage]
    """The lesson in each language."""
    timeout: float = POINT_TIMEOUT
    """Seconds one grid point may compute before the build stops with an error."""
    pin_controls: bool = True
    """Whether a group of controls may stay pinned at the top of a wide window while the
    figures it moves are in view (front matter ``pin_controls: false`` says no)."""


def _text_field(data: dict[str, Any], key: str, where: str) -> Text:
    value = data.get(key)
    if not isinstance(value, dict) or any(
        not isinstance(value.get(lang), str) or not value[lang].strip() for lang in LANGUAGES
    ):
        langs = ", ".join(LANGUAGES)
        raise ContentError(
            f"{where}: '{key}' must give a text for every language ({langs}), e.g.\n"
            f"  {key}:\n" + "".join(f"    {lang}: ...\n" for lang in LANGUAGES)
        )
    return {lang: value[lang].strip() for lang in LANGUAGES}


def base_url(value: Any, where: str) -> str:
    """``value`` as a site's base URL (``https://host/path/``), or a :class:`ContentError`."""
    example = "https://OWNER.github.io/REPO/"
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{where}: 'base_url' must be the site's public address, e.g. {example}")
    url = value.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ContentError(
            f"{where}: 'base_url' must be an http(s) address without ?query or #fragment, "
            f"e.g. {example}; got {url!r}"
        )
    return url if url.endswith("/") else url + "/"


def load_project(root: Path, *, build_dir: Path | None = None) -> Project:
    """Read ``site.yml`` of the project at ``root``.

    The build writes its caches, its lock and (without ``--out``) the site into ``build_dir``,
    by default ``root/build``.
    """
    root = root.resolve()
    site_file = root / SITE_FILE
    if not site_file.is_file():
        raise ContentError(
            f"{site_file}: not found; run explorer in a course project folder "
            f"(one with {SITE_FILE}, content/ and compute/) or pass --project DIR"
        )
    try:
        text = read_text(site_file, root)
        data = yaml.safe_load(text)
        twice = duplicate_key(yaml.compose(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise ContentError(
            f"{location(site_file, line, root)}: malformed YAML: {exc.problem}"
        ) from None
    where = location(site_file, None, root)
    if twice is not None:
        raise ContentError(
            f"{location(site_file, twice[2] + 1, root)}: '{twice[0]}' is given twice "
            f"(first on line {twice[1] + 1}); keep one of them"
        )
    if not isinstance(data, dict):
        raise ContentError(f"{where}: expected 'title:' and 'description:' keys")
    unknown = sorted(set(data) - {"title", "description", "base_url"})
    if unknown:
        raise ContentError(
            f"{where}: unknown key '{unknown[0]}'; site.yml takes title, description and "
            "base_url (optional)"
        )
    url = data.get("base_url")
    return Project(
        root=root,
        title=_text_field(data, "title", where),
        description=_text_field(data, "description", where),
        build_dir=root / "build" if build_dir is None else build_dir.absolute(),
        base_url=None if url is None else base_url(url, where),
    )


def _is_timeout(value: object) -> TypeGuard[float]:
    """Whether ``value`` is a usable ``timeout``: a finite number of seconds above zero."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return math.isfinite(value) and value > 0


def _lesson_page(source: SourceText, lang: str, root: Path, problems: list[str]) -> LessonPage:
    meta, lines = source.meta, source.meta_lines

    def where(key: str | None = None) -> str:
        return location(source.path, lines.get(key, 2) if key else 2, root)

    for key in meta:
        if key not in FRONT_MATTER_KEYS:
            allowed = ", ".join(FRONT_MATTER_KEYS)
            problems.append(f"{where(key)}: unknown front matter key '{key}'; allowed: {allowed}")
    for key in REQUIRED_KEYS:
        if key not in meta:
            problems.append(
                f"{where()}: front matter is missing '{key}' ({FRONT_MATTER_KEYS[key]})"
            )
    for key in ("title", "summary"):
        if key in meta and (not isinstance(meta[key], str) or not meta[key].strip()):
            problems.append(f"{where(key)}: '{key}' must be a non-empty text")
    if "order" in meta and (isinstance(meta["order"], bool) or not isinstance(meta["order"], int)):
        problems.append(f"{where('order')}: 'order' must be a whole number, got {meta['order']!r}")
    if "compute" in meta and (
        not isinstance(meta["compute"], str) or not MODULE_NAME.match(meta["compute"])
    ):
        problems.append(
            f"{where('compute')}: 'compute' must be a module name such as "
            f"differential_privacy or lessons.differential_privacy, got {meta['compute']!r}"
        )
    if "pin_controls" in meta and not isinstance(meta["pin_controls"], bool):
        problems.append(
            f"{where('pin_controls')}: 'pin_controls' must be true or false, "
            f"got {meta['pin_controls']!r}"
        )
    timeout = meta.get("timeout", POINT_TIMEOUT)
    if not _is_timeout(timeout):
        problems.append(
            f"{where('timeout')}: 'timeout' must be a number of seconds > 0, got {timeout!r}"
        )
    return LessonPage(
        lang=lang,
        source=source,
        title=str(meta.get("title", "")).strip(),
        summary=str(meta.get("summary", "")).strip(),
    )


def discover_lessons(project: Project) -> list[Lesson]:
    """Every lesson under ``content/``, validated, in index order.

    Each lesson must exist in every language with the same ``order`` and
    ``compute``. All problems are collected and raised together.
    """
    problems: list[str] = []
    root = project.root
    by_slug: dict[str, dict[str, LessonPage]] = {}
    unreadable: set[tuple[str, str]] = set()  # (slug, lang): already reported, not missing
    for lang in LANGUAGES:
        folder = project.content_dir / lang
        if not folder.is_dir():
            problems.append(f"{location(folder, None, root)}: missing; every language needs one")
            continue
        for path in sorted(folder.glob("*.md")):
            if not SLUG.match(path.stem):
                problems.append(
                    f"{location(path, None, root)}: lesson file names are "
                    "'NN-words-with-dashes.md' (e.g. 03-differential-privacy.md)"
                )
                continue
            try:
                source = split_front_matter(path, root)
            except ContentError as exc:
                problems.append(exc.message)
                unreadable.add((path.stem, lang))
                continue
            by_slug.setdefault(path.stem, {})[lang] = _lesson_page(source, lang, root, problems)
    lessons: list[Lesson] = []
    for slug, pages in sorted(by_slug.items()):
        for lang in LANGUAGES:
            if lang not in pages and (slug, lang) not in unreadable:
                other = next(iter(pages.values())).source.path
                problems.append(
                    f"{location(project.content_dir / lang / f'{slug}.md', None, root)}: "
                    f"missing; {location(other, None, root)} has no {lang} version yet"
                )
        if len(pages) != len(LANGUAGES):
            continue
        metas = [pages[lang].source.meta for lang in LANGUAGES]
        for key in ("order", "compute", "timeout", "pin_controls"):
            values = {repr(m.get(key)) for m in metas}
            if len(values) > 1:
                first = pages[LANGUAGES[0]].source
                problems.append(
                    f"{location(first.path, first.meta_lines.get(key, 2), root)}: "
                    f"'{key}' differs between languages ({', '.join(sorted(values))}); "
                    "give every language the same value"
                )
        meta = metas[0]
        order, timeout = meta.get("order"), meta.get("timeout")
        lessons.append(
            Lesson(
                slug=slug,
                order=order if isinstance(order, int) else 0,
                compute=meta.get("compute"),
                pages=pages,
                timeout=float(timeout) if _is_timeout(timeout) else POINT_TIMEOUT,
                pin_controls=meta.get("pin_controls", True) is not False,
            )
        )
    if not by_slug and not problems:
        problems.append(
            f"{location(project.content_dir, None, root)}: no lessons found; "
            f"add content/{LANGUAGES[0]}/01-my-lesson.md (see README.md)"
        )
    raise_collected(problems)
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.slug))


def read_strings(project: Project) -> dict[str, dict[str, str]]:
    """The template strings (``strings.yml``) per language, checked for completeness."""
    path = project.templates_dir / "strings.yml"
    data = yaml.safe_load(read_text(path, project.root))
    where = location(path, None, project.root)
    if not isinstance(data, dict):
        raise ContentError(f"{where}: expected 'key: {{ko: ..., en: ...}}' entries")
    strings: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for key in data:
        text = _text_field(data, key, where)
        for lang in LANGUAGES:
            strings[lang][key] = text[lang]
    return strings
