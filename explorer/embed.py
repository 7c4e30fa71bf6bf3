"""Embed pages: one lesson alone, for an iframe in an LMS (Canvas, Moodle, Blackboard).

Every lesson gets ``embed/<slug>.html`` in each language (``en/embed/<slug>.html``):
the lesson without the site's header, navigation or footer. The page runtime tells
the parent frame the page's height (explorer.js), links that leave the lesson open
in a new tab, and nothing the page needs is blocked in a sandboxed frame without
``allow-same-origin``: there the page has no origin, so font files would fail
their CORS check; its stylesheet, ``assets/embed.css``, carries the fonts as data,
and the lesson data and Vega arrive as classic scripts, which CORS does not touch.
"""

from __future__ import annotations

import base64
import posixpath
import re
from collections.abc import Mapping
from typing import Any

from privacy_explorer.render import PageContext

FOLDER = "embed"
"""Embed pages sit in this folder beside their lesson pages."""
STYLESHEET = "assets/embed.css"
"""The site's stylesheet with its fonts inside (see :func:`stylesheet`)."""

_TAG = re.compile(r"<(?:a|img|link|script|source)\b[^>]*>")
_URL = re.compile(r'(\s(?:href|src)=")([^"]*)(")')
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


def embed_path(slug: str) -> str:
    """Where the embed page of lesson ``slug`` sits, relative to its lesson page's folder."""
    return f"{FOLDER}/{slug}.html"


def embed_variables(context: PageContext, slug: str) -> dict[str, Any]:
    """What ``embed.html`` needs beyond a lesson page's variables: the other language's copy."""
    folder = posixpath.dirname(context.other_lang_href)
    return {"other_lang_embed_href": posixpath.join(folder, embed_path(slug))}


def _relative(url: str) -> bool:
    return not re.match(r"^([a-z][a-z0-9+.-]*:|/|#)", url, re.IGNORECASE) and url != ""


def moved_down(html: str) -> str:
    """A page written to sit beside its lesson page, as it must read one folder deeper.

    Every relative URL gains ``../``; every link that leaves the page, except the
    language switch, opens in a new tab, so that a learner never loses the LMS
    around the frame.
    """

    def tag(match: re.Match[str]) -> str:
        text = _URL.sub(
            lambda m: (
                m.group(1)
                + ("../" + m.group(2) if _relative(m.group(2)) else m.group(2))
                + m.group(3)
            ),
            match.group(0),
        )
        leaves = re.search(r'\shref="(?!#)', text) and text.startswith("<a")
        if leaves and "data-lang-switch" not in text and " target=" not in text:
            text = text[:-1] + ' target="_blank" rel="noopener">'
        return text

    return _TAG.sub(tag, html)


def stylesheet(style_css: str, files: Mapping[str, bytes]) -> str:
    """``assets/style.css`` with each font it names inside, as a ``data:`` URL.

    ``files`` are the site's files by path: the fonts, already subset to the
    site's characters, are the same bytes as ``assets/fonts/*.woff2``.
    """

    def inline(match: re.Match[str]) -> str:
        path = posixpath.normpath(posixpath.join("assets", match.group(1)))
        if path not in files:
            return match.group(0)
        kind = "font/woff2" if path.endswith(".woff2") else "application/octet-stream"
        return f'url("data:{kind};base64,{base64.b64encode(files[path]).decode("ascii")}")'

    return _CSS_URL.sub(inline, style_css)
