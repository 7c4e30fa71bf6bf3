"""The build's third stage: render every file of the site, in memory, from the results.

:func:`render` turns the plan and each lesson's :class:`~privacy_explorer.results.LessonResults`
into the site's files: lesson pages and their embed pages, page data, chart SVGs,
the index, the 404 page, the sitemap, fonts and static assets. It runs no lesson
code: everything it shows was computed and checked before. A lesson's freshly
rendered files are stored in the page cache (see :mod:`privacy_explorer.pagecache`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from privacy_explorer import charts as chart_tools
from privacy_explorer import embed, page_fonts, pagecache, publish
from privacy_explorer import fonts as font_tools
from privacy_explorer.charts import ChartSpec
from privacy_explorer.directives import Directive, PageInputs, render_directive
from privacy_explorer.errors import location
from privacy_explorer.lazy import chunk_files, lazy_tables, table_chunk_files
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.markup import ParsedMarkdown
from privacy_explorer.modules import LessonModule
from privacy_explorer.plan import Plan
from privacy_explorer.project import Project
from privacy_explorer.render import (
    PageContext,
    StoredTexts,
    data_script,
    default_rows,
    lesson_data,
    live_tables,
)
from privacy_explorer.results import LessonResults
from privacy_explorer.templates import SiteTemplates

__all__ = ["SiteFiles", "page_context", "render", "render_lesson", "site_path"]

SiteFiles = dict[str, bytes]
"""Every file of the site: its bytes by its path relative to the site's root, sorted."""


@dataclass(frozen=True)
class SiteParts:
    """What every lesson's pages share, read once per build."""

    templates: SiteTemplates
    """Templates, strings and static files."""
    fonts: font_tools.ShippedFonts
    """The fonts charts are measured and drawn with."""
    asset_cache: Path
    """The asset cache (chart SVGs, font subsets, the Vega bundle)."""


def without_line_comments(script: bytes) -> bytes:
    """A runtime script as pages load it: lines that hold only a ``//`` comment are left out.

    The source keeps them for its readers; the first-load budget pays for code alone. (The
    runtime has no multi-line strings, so such a line is never inside one.)
    """
    lines = script.decode("utf-8").split("\n")
    kept = [line for line in lines if not line.lstrip().startswith("//")]
    return "\n".join(kept).encode("utf-8")


def site_path(lang: str, name: str) -> str:
    """Where page ``name`` in ``lang`` lives: the first language at the root, others in a folder."""
    return name if lang == LANGUAGES[0] else f"{lang}/{name}"


def page_context(
    project: Project, strings: dict[str, dict[str, str]], lang: str, name: str
) -> PageContext:
    """The surroundings of page ``name`` (e.g. ``index.html``) in ``lang``."""
    other = LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]
    root_rel = "" if lang == LANGUAGES[0] else "../"
    url = project.base_url
    return PageContext(
        lang=lang,
        root=root_rel,
        other_lang=other,
        other_lang_href=root_rel + site_path(other, name),
        strings=strings[lang],
        site_title=project.title[lang],
        site_description=project.description[lang],
        page_url=publish.public_url(url, site_path(lang, name)) if url else None,
        other_lang_url=publish.public_url(url, site_path(other, name)) if url else None,
    )


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
    lazy_tables: bool = False,
    pin_controls: bool = True,
    template: str = "lesson.html",
    extra: Mapping[str, Any] | None = None,
) -> str:
    """A lesson page as HTML (with ``template="embed.html"``, its embed page; see embed.py).

    ``lazy_tables`` says that some of its live tables load their cells later, so the
    page carries the note shown when a table chunk cannot load. Such a page, and one
    with a ``changes`` view, loads the part of the runtime that does both (tables.js).
    ``pin_controls`` false (the lesson's front matter) marks the article ``data-pin="off"``:
    the runtime then pins no group of controls on a wide screen.
    """

    placed_controls: dict[str, int] = {}  # one count per page: see PageInputs

    def render(directive: Directive) -> str:
        assert module is not None  # lessons without a module have no directives (validated)
        inputs = PageInputs(
            placed_controls=placed_controls,
            env=env,
            context=context,
            module=module,
            specs=specs,
            result=result,
            summary=summary,
            svg_href=svg_href,
        )
        return render_directive(directive, inputs)

    body = parsed.fill(render)
    return env.get_template(template).render(
        **context.variables(),
        **(extra or {}),
        slug=slug,
        number=number,
        page_title=title,
        page_summary=summary_text,
        headings=parsed.headings,
        body=body,
        interactive=module is not None,
        lazy_tables=lazy_tables,
        pin_controls=pin_controls,
        tables_script=lazy_tables or any(d.kind == "changes" for d in parsed.directives),
        has_charts=bool(specs),
        previous=previous,
        next=next_,
    )


def _lesson_files(
    plan: Plan, position: int, computed: LessonResults, parts: SiteParts
) -> dict[str, str]:
    """Render one lesson's files: pages, embed pages, data, chart SVGs."""
    project = plan.project
    root = project.root
    item = plan.lessons[position]
    env, strings = parts.templates.env, parts.templates.strings
    lesson, module = item.lesson, item.module
    files: dict[str, str] = {}
    run, summary, by_lang, lazy = computed.run, computed.summary, computed.charts, computed.lazy
    result = computed.default
    if lazy is not None:
        files.update(chunk_files(lesson.slug, lazy))
    stored = StoredTexts()  # each list of result rows written out once for every language
    for lang in LANGUAGES:
        context = page_context(project, strings, lang, f"{lesson.slug}.html")
        specs = by_lang[lang]
        svg_href = {}
        for name, spec in specs.items():
            svg_path = f"assets/charts/{lesson.slug}/{name}.{lang}.svg"
            full = chart_tools.with_data(spec.spec, default_rows(spec, result, summary))
            where = f"{location(module.path, None, root) if module else lesson.slug}: chart"
            files[svg_path] = chart_tools.render_svg(
                full, parts.fonts, parts.asset_cache, f"{where} '{name}' ({lang})"
            )
            svg_href[name] = context.root + svg_path
        later: tuple[str, ...] = ()
        if module is not None and run is not None:
            placed = item.placed("table", lang)
            tables = tuple(live_tables(module, placed, summary))
            # Live tables named in LAZY load their cells later, in chunks (see lazy.py).
            later = tuple(name for name in tables if name in module.lazy)
            tables = tuple(name for name in tables if name not in later)
            data = lesson_data(module, run.results, specs, lang, tables, lazy, stored)
            if later:
                cut = lazy_tables(module.grid, module.tables, run.results, later, lang)
                data["tableChunks"] = cut.page_data()
                files.update(table_chunk_files(lesson.slug, cut))
            files[f"assets/data/{lesson.slug}.{lang}.js"] = data_script(lesson.slug, data)
        page = lesson.pages[lang]
        render_page = functools.partial(
            render_lesson,
            env,
            context,
            item.parsed[lang],
            slug=lesson.slug,
            number=lesson.slug[:2],
            title=page.title,
            summary_text=page.summary,
            module=module,
            specs=specs,
            result=result,
            summary=summary,
            svg_href=svg_href,
            previous=plan.pager(position - 1, lang),
            next_=plan.pager(position + 1, lang),
            lazy_tables=bool(later),
            pin_controls=lesson.pin_controls,
        )
        files[site_path(lang, f"{lesson.slug}.html")] = render_page()
        embed_extra = embed.embed_variables(context, lesson.slug)
        files[site_path(lang, embed.embed_path(lesson.slug))] = embed.moved_down(
            render_page(template="embed.html", extra=embed_extra)
        )
    return files


def render(plan: Plan, computed: tuple[LessonResults, ...], templates: SiteTemplates) -> SiteFiles:
    """Render every file of the site, in memory, from the lessons' results.

    A lesson whose files came from the page cache is not rendered again; the files of
    every other lesson are stored there under the key its results were computed with.
    """
    project = plan.project
    env, strings = templates.env, templates.strings
    asset_cache = project.build_dir / "assets-cache"
    page_cache = project.build_dir / pagecache.FOLDER
    fonts = font_tools.shipped_fonts(project.templates_dir)
    parts = SiteParts(templates=templates, fonts=fonts, asset_cache=asset_cache)
    files: dict[str, str | bytes] = {".nojekyll": ""}
    cards: dict[str, list[dict[str, str]]] = {lang: [] for lang in LANGUAGES}
    for position, (item, lesson_results) in enumerate(zip(plan.lessons, computed, strict=True)):
        lesson = item.lesson
        lesson_files = lesson_results.cached_files
        if lesson_files is None:
            lesson_files = _lesson_files(plan, position, lesson_results, parts)
            pagecache.store(page_cache, lesson.slug, lesson_results.page_key, lesson_files)
        files.update(lesson_files)
        for lang in LANGUAGES:
            page = lesson.pages[lang]
            cards[lang].append(
                {
                    "href": f"{lesson.slug}.html",
                    "number": lesson.slug[:2],
                    "title": page.title,
                    "summary": page.summary,
                }
            )
    page_names = ["index.html", *(f"{item.lesson.slug}.html" for item in plan.lessons)]
    for lang in LANGUAGES:
        context = page_context(project, strings, lang, "index.html")
        files[site_path(lang, "index.html")] = env.get_template("index.html").render(
            **context.variables(), lessons=cards[lang]
        )
    files["404.html"] = publish.not_found_page(
        env,
        strings=strings,
        titles=project.title,
        index_paths={lang: site_path(lang, "index.html") for lang in LANGUAGES},
        base_url=project.base_url,
        style_css=templates.static["style.css"].decode("utf-8"),
        fonts=fonts,
        cache_dir=asset_cache,
    )
    if project.base_url:
        pages = [{lang: site_path(lang, name) for lang in LANGUAGES} for name in page_names]
        files[publish.SITEMAP] = publish.sitemap_xml(project.base_url, pages)
    files["assets/vega.js"] = chart_tools.vega_bundle(asset_cache)
    for name, content in templates.static.items():
        files[f"assets/{name}"] = (
            without_line_comments(content) if name.endswith(".js") else content
        )
    style_css = templates.static["style.css"].decode("utf-8")
    # Embed pages share one stylesheet with the site's characters inside; every other page
    # loads the faces cut down to its own characters (see page_fonts).
    # One-letter <mi> show their mathematical italic forms, which no file spells out.
    italics = "".join(
        page_fonts.math_characters(content)
        for path, content in files.items()
        if path.endswith(".html") and isinstance(content, str)
    )
    characters = "".join(sorted(set(font_tools.site_characters(files)) | set(italics)))
    web_fonts = font_tools.web_fonts(fonts, characters, asset_cache)
    files[embed.STYLESHEET] = embed.stylesheet(style_css, web_fonts)
    files["assets/style.css"] = page_fonts.without_font_faces(style_css)
    files = page_fonts.with_page_fonts(
        files, fonts, page_fonts.font_face_rules(style_css), asset_cache
    )
    return {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for path, content in sorted(files.items())
    }
