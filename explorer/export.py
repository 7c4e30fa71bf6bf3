"""Lessons for an LMS that takes files, not frames: one HTML file, or a SCORM 1.2 package.

Both start from a lesson's embed page (the lesson alone, see :mod:`privacy_explorer.embed`)
as the build renders it in memory, so what an LMS shows is what the site shows.

* :func:`single_file` inlines everything the page loads: the stylesheet with the
  fonts subset to the page's own characters, the scripts (Vega, the page data, the
  runtime) and each chart's static picture. Opened alone from ``file://`` it makes
  no request at all.
* :func:`scorm_package` writes a SCORM 1.2 package: ``imsmanifest.xml`` (one SCO per
  lesson), the pages, their assets, and ``scorm.js``, the adapter that reports to
  the LMS (see ``site_templates/static/scorm.js``).

Links that leave the lesson point to the published site when a base URL is known,
and become plain text otherwise; nothing in an export points to a file it lacks.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import io
import os
import posixpath
import re
import tempfile
import time
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit
from xml.etree import ElementTree

from privacy_explorer import embed, page_fonts
from privacy_explorer import fonts as font_tools
from privacy_explorer.build import Reporter, build, site_path
from privacy_explorer.errors import ContentError, ExplorerError, OutputError, cannot_write
from privacy_explorer.lazy import page_chunk_paths
from privacy_explorer.lesson import LANGUAGES
from privacy_explorer.links import SCRIPT_TAG, STYLESHEET_TAG
from privacy_explorer.output import (
    DIST_FOLDER,
    MARKER,
    TOOL,
    BuildLock,
    digests,
    marker_bytes,
    read_marker,
)
from privacy_explorer.project import Project, discover_lessons
from privacy_explorer.publish import public_url

GENERATOR = f'<meta name="generator" content="{TOOL}">'
"""Marks a single-file lesson as the explorer's: an export may replace it."""
ZIP_COMMENT = TOOL.encode("ascii")
"""Marks a SCORM package as the explorer's."""
SCORM_ADAPTER = "assets/scorm.js"

_A = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.DOTALL)
_HREF = re.compile(r'\shref="([^"]*)"')
_CANONICAL = re.compile(r'<link rel="canonical" href="([^"]*)">\n?')
_IMG_SRC = re.compile(r'(<img\b[^>]*\ssrc=")([^"]*)(")')
_REFERENCE = re.compile(r'\s(?:href|src)="([^"]*)"')


@dataclass(frozen=True)
class Lesson:
    """A lesson to export, as the build rendered it."""

    slug: str
    """``03-differential-privacy``."""
    title: str
    """Its title in the export's language."""
    page: str
    """Its embed page, by path in the site (``en/embed/<slug>.html``)."""


def _chunks(files: Mapping[str, bytes], lesson: Lesson) -> list[str]:
    """The lesson's data chunks (``assets/data/<slug>.<n>.js``, and the table chunks
    ``assets/data/<slug>.<lang>.<n>.js`` of its page's language), loaded by the runtime."""
    top = lesson.page.split("/", 1)[0]
    lang = top if top in LANGUAGES else LANGUAGES[0]
    return page_chunk_paths(files, lesson.slug, lang)


def _is_relative(url: str) -> bool:
    return bool(url) and not urlsplit(url).scheme and not url.startswith(("/", "#"))


def _resolve(page: str, url: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), urlsplit(url).path))


def detach(html: str, page: str, keep: Iterable[str], base_url: str | None) -> str:
    """``html`` of ``page`` with every relative link to a file not in ``keep`` resolved.

    With ``base_url`` such a link points to the published site; without it, it
    becomes plain text, and links that only make sense beside the site (the
    language switch, "open on the course site") go. The canonical link follows
    the same rule.
    """
    kept = set(keep)

    def outside(url: str) -> str | None:
        """The public address of ``url`` if it leaves the export, ``""`` if it cannot."""
        if not _is_relative(url) or _resolve(page, url) in kept:
            return None
        fragment = urlsplit(url).fragment
        if base_url is None:
            return ""
        return public_url(base_url, _resolve(page, url)) + (f"#{fragment}" if fragment else "")

    def link(match: re.Match[str]) -> str:
        attributes, text = match.group(1), match.group(2)
        href = _HREF.search(attributes)
        if href is None or (target := outside(href.group(1))) is None:
            return match.group(0)
        if target:
            pointed = attributes.replace(href.group(0), ' href="' + target + '"')
            return f"<a{pointed}>{text}</a>"
        return "" if "data-keep-state" in attributes else f"<span>{text}</span>"

    def canonical(match: re.Match[str]) -> str:
        target = outside(match.group(1))
        if target is None:
            return match.group(0)
        return f'<link rel="canonical" href="{target}">\n' if target else ""

    return _CANONICAL.sub(canonical, _A.sub(link, html))


def _references(html: str, page: str) -> list[str]:
    """The site files ``html`` (at ``page``) refers to, in order of first mention."""
    found: dict[str, None] = {}
    for url in _REFERENCE.findall(html):
        if _is_relative(url):
            found.setdefault(_resolve(page, url))
    return list(found)


def _page_characters(texts: Iterable[str]) -> str:
    return font_tools.site_characters({f"{n}.html": text for n, text in enumerate(texts)})


def _stylesheet(
    files: Mapping[str, bytes], texts: Iterable[str], fonts: font_tools.ShippedFonts, cache: Path
) -> str:
    """The embed stylesheet with its fonts cut down to the characters of ``texts``."""
    subset = font_tools.web_fonts(fonts, _page_characters(texts), cache)
    # The site's style.css has lost its @font-face rules to the pages (see page_fonts): take
    # them from the stylesheet of the templates whose fonts these are.
    template_css = (fonts.folder.parent / "style.css").read_text("utf-8")
    style_css = page_fonts.font_face_rules(template_css) + files["assets/style.css"].decode()
    return embed.stylesheet(style_css, subset)


UNPACK = """<script>
/* The scripts above are gzip-compressed (Vega and a lesson's results shrink to a quarter);
   the browser unpacks them and runs them in order, as if they were loaded one by one. */
(function () {
  "use strict";
  if (!window.DecompressionStream) return; // the static pictures and readouts stay
  var packed = Array.prototype.slice.call(document.querySelectorAll("script[data-packed]"));
  function unpack(node) {
    var bytes = Uint8Array.from(window.atob(node.textContent), function (c) {
      return c.charCodeAt(0);
    });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  Promise.all(packed.map(unpack)).then(function (sources) {
    sources.forEach(function (source) {
      var script = document.createElement("script");
      script.text = source;
      document.body.appendChild(script);
    });
  });
})();
</script>"""


def _packed_script(source: bytes) -> str:
    """A script as gzip in base64, for :data:`UNPACK` (the same bytes for the same script)."""
    packed = base64.b64encode(gzip.compress(source, compresslevel=9, mtime=0)).decode("ascii")
    return f'<script type="application/gzip" data-packed>{packed}</script>'


def _svg_data_url(svg: bytes) -> str:
    # Percent-encoding keeps an SVG (mostly ASCII, with its own base64 fonts) smaller than base64.
    return "data:image/svg+xml," + quote(svg.decode("utf-8"), safe=" /:;=,.+-_()'!*~@$&")


def single_file(
    files: Mapping[str, bytes],
    lesson: Lesson,
    *,
    base_url: str | None,
    fonts: font_tools.ShippedFonts,
    cache: Path,
) -> bytes:
    """The embed page of ``lesson`` with everything it loads inside it."""
    page = lesson.page
    html = detach(files[page].decode("utf-8"), page, (), base_url)
    scripts = [path for path in _references(html, page) if path.endswith(".js")]
    style = _stylesheet(files, [html, *(files[path].decode() for path in scripts)], fonts, cache)
    html = _IMG_SRC.sub(
        lambda m: m.group(1) + _svg_data_url(files[_resolve(page, m.group(2))]) + m.group(3), html
    )
    html = STYLESHEET_TAG.sub(lambda m: f"<style>{style}</style>", html, count=1)
    html = html.replace('<meta charset="utf-8">', f'<meta charset="utf-8">\n{GENERATOR}', 1)
    left = [url for url in _REFERENCE.findall(html) if _is_relative(url) and url not in scripts]
    left = [url for url in left if _resolve(page, url) not in scripts]
    assert not left, f"{page}: still refers to {left}"
    # Scripts last: their text is code, not markup, and must not be rewritten.
    html = SCRIPT_TAG.sub(lambda m: _packed_script(files[_resolve(page, m.group(1))]), html)
    # The chunks of LAZY datasets go in first, so the runtime finds their rows already filed.
    chunks = "".join(_packed_script(files[path]) + "\n" for path in _chunks(files, lesson))
    first = html.index('<script type="application/gzip" data-packed>')
    html = html[:first] + chunks + html[first:]
    last = html.rindex("data-packed>")
    end = html.index("</script>", last) + len("</script>")
    html = html[:end] + "\n" + UNPACK + html[end:]
    return html.encode("utf-8")


SCORM_NAMESPACES = {
    "": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
}


def manifest_xml(
    identifier: str, title: str, lessons: list[Lesson], files: Mapping[str, list[str]]
) -> bytes:
    """``imsmanifest.xml``: one organization, one item and one SCO resource per lesson.

    ``files`` lists each lesson's own files by slug, and under ``""`` the files the
    lessons share (one asset resource that every SCO depends on).
    """
    ns, adlcp = SCORM_NAMESPACES[""], SCORM_NAMESPACES["adlcp"]
    for prefix, uri in SCORM_NAMESPACES.items():
        ElementTree.register_namespace(prefix, uri)

    def element(
        parent: ElementTree.Element, tag: str, text: str | None = None, **attrs: str
    ) -> ElementTree.Element:
        child = ElementTree.SubElement(parent, f"{{{ns}}}{tag}", attrs)
        child.text = text
        return child

    manifest = ElementTree.Element(f"{{{ns}}}manifest", {"identifier": identifier, "version": "1"})
    metadata = element(manifest, "metadata")
    element(metadata, "schema", "ADL SCORM")
    element(metadata, "schemaversion", "1.2")
    organizations = element(manifest, "organizations", default="course")
    organization = element(organizations, "organization", identifier="course")
    element(organization, "title", title)
    resources = element(manifest, "resources")
    for lesson in lessons:
        item = element(
            organization,
            "item",
            identifier=f"item-{lesson.slug}",
            identifierref=f"sco-{lesson.slug}",
            isvisible="true",
        )
        element(item, "title", lesson.title)
        resource = element(
            resources,
            "resource",
            identifier=f"sco-{lesson.slug}",
            type="webcontent",
            href=lesson.page,
            **{f"{{{adlcp}}}scormtype": "sco"},
        )
        for path in files[lesson.slug]:
            element(resource, "file", href=path)
        element(resource, "dependency", identifierref="shared")
    shared = element(
        resources,
        "resource",
        identifier="shared",
        type="webcontent",
        **{f"{{{adlcp}}}scormtype": "asset"},
    )
    for path in files[""]:
        element(shared, "file", href=path)
    ElementTree.indent(manifest)
    written: bytes = ElementTree.tostring(manifest, encoding="UTF-8", xml_declaration=True)
    return written + b"\n"


def scorm_package(
    files: Mapping[str, bytes],
    lessons: list[Lesson],
    *,
    title: str,
    adapter: bytes,
    base_url: str | None,
    fonts: font_tools.ShippedFonts,
    cache: Path,
) -> bytes:
    """A SCORM 1.2 package (zip) with one SCO per lesson, in one language."""
    pages: dict[str, str] = {}
    for lesson in lessons:
        html = detach(files[lesson.page].decode("utf-8"), lesson.page, (), base_url)
        runtime = re.search(r'<script src="([^"]*)assets/explorer\.js"></script>', html)
        assert runtime is not None, f"{lesson.page}: no page runtime"
        adapter_tag = f'<script src="{runtime.group(1)}{SCORM_ADAPTER}"></script>\n'
        pages[lesson.page] = html.replace(runtime.group(0), adapter_tag + runtime.group(0))
    own: dict[str, list[str]] = {}
    shared: dict[str, None] = {}
    for lesson in lessons:
        own[lesson.slug] = [lesson.page]
        references = _references(pages[lesson.page], lesson.page)
        for path in [*references, *_chunks(files, lesson)]:
            if lesson.slug in path:
                own[lesson.slug].append(path)
            else:
                shared.setdefault(path)
    shared.setdefault("assets/fonts/OFL.txt")  # the fonts inside embed.css come with their licence
    texts = [*pages.values(), *(files[p].decode() for ps in own.values() for p in ps[1:])]
    content = {
        **{path: files[path] for paths in own.values() for path in paths[1:]},
        **{path: files[path] for path in shared if path in files},
        **{path: html.encode("utf-8") for path, html in pages.items()},
        embed.STYLESHEET: _stylesheet(files, texts, fonts, cache).encode("utf-8"),
        SCORM_ADAPTER: adapter,
    }
    missing = sorted({*shared} - set(content))
    assert not missing, f"the lessons refer to files the site lacks: {missing}"
    identifier = "privacy-explorer-" + ("course" if len(lessons) > 1 else lessons[0].slug)
    manifest = manifest_xml(identifier, title, lessons, {**own, "": sorted(shared)})
    return _zip({"imsmanifest.xml": manifest, **content})


def _zip(content: Mapping[str, bytes]) -> bytes:
    """A zip of ``content``, the same bytes for the same content (fixed times and modes)."""
    first_day = 315532800  # 1980-01-01, the earliest time a zip can hold
    stamp = max(int(os.environ.get("SOURCE_DATE_EPOCH", first_day)), first_day)
    date_time = time.gmtime(stamp)[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(content, key=lambda p: (p != "imsmanifest.xml", p)):
            info = zipfile.ZipInfo(path, date_time=date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content[path])
        archive.comment = ZIP_COMMENT
    return buffer.getvalue()


def _ours(path: Path) -> bool:
    """Whether the file at ``path`` is an export the explorer wrote (so it may be replaced)."""
    try:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                return archive.comment == ZIP_COMMENT
        with path.open("rb") as handle:
            return GENERATOR.encode() in handle.read(4096)
    except (OSError, zipfile.BadZipFile):
        return False


def write_export(content: bytes, out: Path, build_dir: Path, *, force: bool = False) -> Path:
    """Write ``content`` to ``out`` in one step; never over a file the explorer did not write.

    An export inside ``build/dist/`` is listed in that folder's marker, so that
    ``explorer clean`` removes it. Elsewhere, an existing ``out`` is replaced
    only if it is an earlier export (or with ``force``).
    """
    out = Path(os.path.abspath(out))
    dist = Path(os.path.abspath(build_dir / DIST_FOLDER))
    if out.is_dir():
        raise OutputError(f"{out}: is a folder; give the file to write, e.g. {out / 'lesson.html'}")
    if out.exists() and not force and not _ours(out):
        raise OutputError(
            f"{out}: exists and was not written by explorer export; choose another file, or "
            "pass --force to replace it; nothing was written"
        )
    inside = out.parent == dist
    with BuildLock(build_dir) if inside else contextlib.nullcontext():
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            _replace(out, content)
            if inside:
                listed = read_marker(dist) or {}
                listed = {p: d for p, d in listed.items() if (dist / p).is_file()}
                listed.update(digests({out.name: content}))
                _replace(dist / MARKER, marker_bytes(listed))
        except OSError as exc:
            raise cannot_write(out, exc) from None
    return out


def _replace(path: Path, content: bytes) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Exported:
    """What an export wrote."""

    path: Path
    """The file."""
    size: int
    """Its size in bytes."""
    lessons: tuple[str, ...]
    """The lessons in it."""


def export(
    project: Project,
    lesson: str | None,
    out: Path,
    *,
    kind: str,
    lang: str,
    jobs: int = 1,
    reporter: Reporter | None = None,
    force: bool = False,
) -> Exported:
    """Build ``lesson`` (every lesson if ``None``) in memory and write it as ``kind``.

    ``kind`` is ``"single-file"`` (one lesson) or ``"scorm"``. Nothing is written
    unless the whole build and export succeed.
    """
    if lang not in LANGUAGES:
        raise ExplorerError(f"--lang {lang}: choose one of {', '.join(LANGUAGES)}")
    report = build(project, only=lesson, jobs=jobs, reporter=reporter, write=False)
    titles = {item.slug: item.pages[lang].title for item in discover_lessons(project)}
    lessons = [
        Lesson(slug=slug, title=titles[slug], page=site_path(lang, embed.embed_path(slug)))
        for slug in report.lessons
    ]
    fonts = font_tools.shipped_fonts(project.templates_dir)
    cache = project.build_dir / "assets-cache"
    if kind == "single-file":
        content = single_file(
            report.files, lessons[0], base_url=project.base_url, fonts=fonts, cache=cache
        )
    else:
        adapter_path = project.templates_dir / "static" / "scorm.js"
        try:
            adapter = adapter_path.read_bytes()
        except OSError as exc:
            raise ContentError(
                f"{adapter_path}: cannot read it ({exc.strerror}); copy static/scorm.js from "
                "the explorer's own site_templates/"
            ) from None
        content = scorm_package(
            report.files,
            lessons,
            title=project.title[lang] if len(lessons) > 1 else lessons[0].title,
            adapter=adapter,
            base_url=project.base_url,
            fonts=fonts,
            cache=cache,
        )
    path = write_export(content, out, project.build_dir, force=force)
    return Exported(path=path, size=len(content), lessons=tuple(report.lessons))
