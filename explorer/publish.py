"""What a site needs once it has a public address: canonical URLs, a sitemap, a 404 page.

With a base URL (``base_url:`` in ``site.yml`` or ``--base-url``) every page names
its canonical address and its Open Graph title and description, the site gets a
``sitemap.xml``, and the 404 page links to the site by absolute URLs, since a host
serves it for a missing path at any depth. Without one every link stays relative
and the site works from ``file://``. The 404 page carries its style and the few
glyphs it draws inside itself, so it looks like the site wherever it is served.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

import jinja2

from privacy_explorer import fonts as font_tools
from privacy_explorer.lesson import LANGUAGES

SITEMAP = "sitemap.xml"
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}\s*")


def public_url(base_url: str, path: str) -> str:
    """The address of the site file ``path``; a folder's ``index.html`` is the folder itself."""
    if path == "index.html" or path.endswith("/index.html"):
        path = path.removesuffix("index.html")
    return base_url + path


def sitemap_xml(base_url: str, pages: Sequence[Mapping[str, str]]) -> str:
    """A sitemap of ``pages``, each the same page in every language (language -> path)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ]
    for page in pages:
        for lang in LANGUAGES:
            lines += ["  <url>", f"    <loc>{public_url(base_url, page[lang])}</loc>"]
            for other in LANGUAGES:
                href = quoteattr(public_url(base_url, page[other]))
                lines.append(f'    <xhtml:link rel="alternate" hreflang="{other}" href={href}/>')
            lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def not_found_page(
    env: jinja2.Environment,
    *,
    strings: Mapping[str, Mapping[str, str]],
    titles: Mapping[str, str],
    index_paths: Mapping[str, str],
    base_url: str | None,
    style_css: str,
    fonts: font_tools.ShippedFonts,
    cache_dir: Path | None,
) -> str:
    """``404.html``: the site's look, with its style and glyphs inside, for any depth."""
    home = {
        lang: public_url(base_url, path) if base_url else path for lang, path in index_paths.items()
    }

    def render(style: str) -> str:
        return env.get_template("404.html").render(
            langs=LANGUAGES, strings=strings, titles=titles, home=home, style=style
        )

    characters = "".join(sorted(set(render("")) | set(font_tools.ALWAYS_KEPT)))
    faces = font_tools.embedded_faces_css(fonts, characters, (400, 700), cache_dir)
    return render(faces + _FONT_FACE.sub("", style_css))
