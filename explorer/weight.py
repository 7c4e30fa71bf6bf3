"""What a page weighs on first load, as a browser fetches it from a server that compresses text.

A lesson page loads its HTML, the style sheet, the page runtime, its page data,
the fonts its text is set in, and the shared Vega bundle (the static pictures of
its charts wait in ``<noscript>``, for readers without JavaScript). The bundle is
the same file for every lesson page and cached after the first, so it is counted
on its own (:attr:`PageWeight.shared`); the budget of a page is everything else
(:attr:`PageWeight.own`). Text files count gzip-compressed (level 6, as common
static hosts serve them); WOFF2 fonts are compressed already and count as they
are. Chunk scripts of lazy rows are not counted: they load when a control needs
them. The bytes of a build are deterministic, and so is its weight.
"""

from __future__ import annotations

import gzip
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass

from privacy_explorer.links import SCRIPT_TAG, STYLESHEET_TAG

SHARED_BUNDLE = "assets/vega.js"
"""The Vega, Vega-Lite and vega-embed bundle that every lesson page shares."""
LESSON_PAGE_BUDGET = 150 * 1024
"""The most a lesson page may weigh on first load beyond the shared bundle (issue 14, 11)."""

_IMAGE = re.compile(r'<img[^>]* src="([^"]+)"')
_NOSCRIPT = re.compile(r"<noscript>.*?</noscript>", re.S)
_FONT_URL = re.compile(r'url\("([^"]+\.woff2)"\)')
_MATH_FACE = re.compile(r"@font-face\s*\{[^}]*\"Noto Sans Math\"[^}]*\}")


@dataclass(frozen=True)
class PageWeight:
    """The bytes one page makes a browser fetch on first load, by kind of file."""

    page: str
    """The page's path in the site."""
    html: int
    """The page itself, gzipped."""
    css: int
    """Its style sheets, gzipped."""
    scripts: int
    """Its scripts but the shared bundle and the page data, gzipped."""
    data: int
    """Its page data (``assets/data/``), gzipped."""
    images: int
    """The images it shows with JavaScript on, gzipped (charts' static pictures wait in
    ``<noscript>``)."""
    fonts: int
    """The WOFF2 faces its text is set in, as they are."""
    shared: int
    """The shared Vega bundle, gzipped, when the page loads it (else 0)."""
    files: tuple[str, ...]
    """Every site file counted, the shared bundle included, sorted."""

    @property
    def own(self) -> int:
        """What this page costs beyond the shared bundle: the number the budget limits."""
        return self.html + self.css + self.scripts + self.data + self.images + self.fonts


def gzipped_size(content: bytes) -> int:
    """Bytes of ``content`` gzip-compressed at level 6 (no name, no time: deterministic)."""
    return len(gzip.compress(content, compresslevel=6, mtime=0))


def first_load_weight(files: Mapping[str, bytes], page: str) -> PageWeight:
    """The first-load weight of ``page`` in the site ``files`` (by path in the site).

    The fonts counted are those the page's own ``@font-face`` rules and its style
    sheets name, the math face only where the page has a formula (a browser
    loads a face only when text needs it).
    """
    html = files[page].decode("utf-8")
    folder = posixpath.dirname(page)

    def site_path(url: str, base: str = folder) -> str | None:
        if re.match(r"[a-z]+:|/|#", url):
            return None  # data:, absolute or a fragment: nothing fetched from the site
        return posixpath.normpath(posixpath.join(base, url))

    styles = [p for u in STYLESHEET_TAG.findall(html) if (p := site_path(u))]
    scripts = [p for u in SCRIPT_TAG.findall(html) if (p := site_path(u))]
    # What waits in <noscript> (the charts' static pictures) loads only without JavaScript.
    images = [p for u in _IMAGE.findall(_NOSCRIPT.sub("", html)) if (p := site_path(u))]
    faces_css = [(folder, html)] + [(posixpath.dirname(p), files[p].decode()) for p in styles]
    fonts: list[str] = []
    for base, css in faces_css:
        if "<math" not in html:
            css = _MATH_FACE.sub("", css)
        fonts.extend(p for u in _FONT_URL.findall(css) if (p := site_path(u, base)))
    data = [p for p in scripts if p.startswith("assets/data/")]
    runtime = [p for p in scripts if p not in data and p != SHARED_BUNDLE]
    counted = sorted({page, *styles, *scripts, *images, *fonts})
    return PageWeight(
        page=page,
        html=gzipped_size(files[page]),
        css=sum(gzipped_size(files[p]) for p in styles),
        scripts=sum(gzipped_size(files[p]) for p in runtime),
        data=sum(gzipped_size(files[p]) for p in data),
        images=sum(gzipped_size(files[p]) for p in sorted(set(images))),
        fonts=sum(len(files[p]) for p in sorted(set(fonts))),
        shared=gzipped_size(files[SHARED_BUNDLE]) if SHARED_BUNDLE in scripts else 0,
        files=tuple(counted),
    )
