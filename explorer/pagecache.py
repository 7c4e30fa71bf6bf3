"""The page cache: each lesson's files, kept under the hash of everything that shapes them.

A lesson's pages, embed pages, data scripts and chart SVGs follow from its
Markdown, its neighbours' titles (the pager), the project's title and address,
the templates, the explorer's own code and the libraries that render, and its
results. The results are named by the hash of the cache files they are read from
(:func:`privacy_explorer.runner.cached_files`), which is cheap to take, so a
rebuild with nothing changed neither reads a result nor renders a page, and an
edit to one lesson's Markdown renders that lesson only.

An entry is ``build/pages-cache/<lesson>/<key>.json``, written whole and checked
on every read like the asset cache (:mod:`privacy_explorer.cachefile`); a
damaged entry is rendered again, with a note. A lesson keeps its
:data:`KEPT_PER_LESSON` most recently used entries (a full build, ``--only``
and ``explorer export`` give a lesson different pager links, hence different
entries); older ones are removed when a new one is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from privacy_explorer import __version__
from privacy_explorer.cachefile import note_damaged, read_recorded, write_recorded
from privacy_explorer.project import Lesson, Project
from privacy_explorer.runner import dumps, library_versions

PAGE_FORMAT = 1
"""Bumped when the meaning of a page cache entry changes, invalidating every entry."""
FOLDER = "pages-cache"
"""The page cache's folder in ``build/``."""
RENDER_LIBRARIES = (
    "altair",
    "vl-convert-python",
    "jinja2",
    "markupsafe",
    "markdown",
    "latex2mathml",
    "fonttools",
    "brotli",
    "pyyaml",
)
"""Libraries whose version can change a rendered file."""
KEPT_PER_LESSON = 3
"""Entries a lesson keeps in the page cache, the most recently used."""
ENGINE = Path(__file__).resolve().parent
"""The explorer's own code and templates (the package folder)."""


def folder_digest(folder: Path) -> str:
    """SHA-256 over every file under ``folder`` (path and bytes), Python's caches left out."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _versions(names: Sequence[str]) -> dict[str, str]:
    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "absent"
    return found


def site_inputs(project: Project) -> str:
    """The hash of what shapes every lesson's files alike: engine, templates, project, libraries.

    Taken once per build; :func:`lesson_key` adds what belongs to one lesson.
    """
    material = {
        "format": PAGE_FORMAT,
        "explorer": [__version__, folder_digest(ENGINE)],
        "templates": folder_digest(project.templates_dir),
        "project": {
            "title": project.title,
            "description": project.description,
            "base_url": project.base_url,
        },
        "libraries": {**library_versions(), **_versions(RENDER_LIBRARIES)},
    }
    return hashlib.sha256(dumps(material).encode()).hexdigest()


def lesson_key(
    site: str,
    lesson: Lesson,
    pager: Mapping[str, Any],
    results: Sequence[tuple[str, str | None]],
) -> str:
    """The key of a lesson's files: ``site`` (:func:`site_inputs`), its Markdown, its pager
    links and its results (the cache files of :func:`privacy_explorer.runner.cached_files`)."""
    pages = {
        lang: {
            "meta": json.loads(json.dumps(page.source.meta, sort_keys=True, default=str)),
            "body": page.source.body,
        }
        for lang, page in lesson.pages.items()
    }
    material = {
        "site": site,
        "lesson": lesson.slug,
        "module": lesson.compute,
        "pages": pages,
        "pager": pager,
        "results": [list(entry) for entry in results],
    }
    return hashlib.sha256(dumps(material).encode()).hexdigest()


def read(cache_dir: Path, slug: str, key: str) -> dict[str, str] | None:
    """The files stored for lesson ``slug`` under ``key``; ``None`` if missing or damaged."""
    path = cache_dir / slug / f"{key}.json"
    text = read_recorded(path)
    if text is None:
        return None
    try:
        files = json.loads(text)
    except ValueError:
        files = None
    if not isinstance(files, dict) or not all(
        isinstance(name, str) and isinstance(content, str) for name, content in files.items()
    ):
        note_damaged(path, "it does not hold a lesson's files", "rendering the lesson again")
        return None
    with contextlib.suppress(OSError):  # used now: the last entry to be removed
        os.utime(path)
    return files


def store(cache_dir: Path, slug: str, key: str, files: Mapping[str, str]) -> None:
    """Keep lesson ``slug``'s ``files`` under ``key``; remove entries beyond the most recent."""
    folder = cache_dir / slug
    write_recorded(folder / f"{key}.json", dumps(dict(files)))
    entries = []
    for path in folder.glob("*.json"):
        with contextlib.suppress(OSError):
            entries.append((path.stem == key, path.stat().st_mtime_ns, path))
    for _, _, path in sorted(entries, reverse=True)[KEPT_PER_LESSON:]:
        path.unlink(missing_ok=True)
