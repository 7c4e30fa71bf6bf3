"""Check every link and asset reference inside a built site, before it is written.

Relative references must name a file of the site (and an ``id`` in it for
``#fragment``); root-absolute paths would break under a sub-path, and anything
loaded from outside the site would break offline, so both are errors. Plain
hyperlinks to the web (references) are allowed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from privacy_explorer.errors import LinkError

CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
SCRIPT_TAG = re.compile(r'<script src="([^"]+)"></script>')
"""A classic script as the templates write it; group 1 is its address."""
STYLESHEET_TAG = re.compile(r'<link rel="stylesheet" href="([^"]+)">')
"""A stylesheet link as the templates write it; group 1 is its address."""
PUBLIC_ADDRESSES = ("canonical", "alternate")
"""``<link rel>`` kinds that may name a page by its absolute public address."""


def _absolute(url: str | None) -> bool:
    return url is not None and urlsplit(url).scheme in ("http", "https")


@dataclass(frozen=True)
class PageSource:
    """The Markdown a page was rendered from, so a broken link is reported where it was written."""

    path: str
    """The Markdown file as the author knows it (``content/ko/01-dice.md``)."""
    body: str
    """Its Markdown body."""
    first_line: int
    """1-based line of the body's first line in the file."""

    def line_of(self, url: str) -> int | None:
        """The first line of the file that mentions ``url``, if the author wrote it."""
        for offset, text in enumerate(self.body.split("\n")):
            if url in text:
                return self.first_line + offset
        return None


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str, str, int]] = []  # (tag, attribute, url, line)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        rel = dict(attrs).get("rel") or ""
        if tag == "link" and rel in PUBLIC_ADDRESSES and _absolute(dict(attrs).get("href")):
            return  # the page's public address (with a base URL): it names, never loads
        for name, value in attrs:
            if name in ("id", "name") and value and (name == "id" or tag == "a"):
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.refs.append((tag, name, value, self.getpos()[0]))


def check_links(
    files: Mapping[str, bytes],
    sources: Mapping[str, PageSource] | None = None,
    unbuilt: Collection[str] = (),
) -> None:
    """Raise :class:`LinkError` listing every broken or outside reference in ``files``.

    A reference that the page's Markdown (``sources[page]``) contains is reported
    at its line in the Markdown; one from a template at its line in the built page.
    ``unbuilt`` names the pages of the course that this build leaves out
    (``--only``): a link to one of them is not broken, though its fragment cannot
    be checked.
    """
    parsed: dict[str, _References] = {}
    for path, content in files.items():
        if path.endswith(".html"):
            refs = _References()
            refs.feed(content.decode("utf-8"))
            parsed[path] = refs
    problems: list[str] = []
    reported: set[tuple[str, str]] = set()  # (Markdown file, target): a page and its embed page
    for page, refs in sorted(parsed.items()):
        if page == "404.html":
            continue  # served at any depth by the host; its one link is to the site root
        for tag, attribute, url, line in refs.refs:
            parts = urlsplit(url)
            where = f"{page}:{line}"
            source = (sources or {}).get(page)
            if source is not None and (written := source.line_of(url)) is not None:
                where = f"{source.path}:{written}"
            if parts.scheme in ("http", "https", "mailto") and tag == "a":
                continue
            if parts.scheme == "data":
                continue
            if parts.scheme or url.startswith("//"):
                problems.append(f"{where}: <{tag} {attribute}> loads {url} from outside the site")
                continue
            if url.startswith("/"):
                problems.append(
                    f"{where}: '{url}' is root-absolute; use a relative path so any base path works"
                )
                continue
            target = (
                page
                if not parts.path
                else posixpath.normpath(
                    posixpath.join(posixpath.dirname(page), unquote(parts.path))
                )
            )
            if source is not None:
                if (source.path, f"{target}#{parts.fragment}") in reported:
                    continue  # the same link, already reported for the lesson page
                reported.add((source.path, f"{target}#{parts.fragment}"))
            if target in unbuilt and target not in files:
                continue
            if target not in files:
                problems.append(
                    f"{where}: '{url}' points to {target}, which the site does not contain"
                )
            elif parts.fragment and target in parsed and parts.fragment not in parsed[target].ids:
                problems.append(
                    f"{where}: '{url}': {target} has no element with id '{parts.fragment}'"
                )
    for path, content in sorted(files.items()):
        if path.endswith(".css"):
            for url in CSS_URL.findall(content.decode("utf-8")):
                if url.startswith("data:"):
                    continue
                target = posixpath.normpath(posixpath.join(posixpath.dirname(path), url))
                if target not in files:
                    problems.append(
                        f"{path}: url({url}) points to {target}, which the site does not contain"
                    )
    if problems:
        header = (
            "1 broken reference:" if len(problems) == 1 else f"{len(problems)} broken references:"
        )
        raise LinkError("\n  ".join([header, *problems]))
