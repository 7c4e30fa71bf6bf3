"""Preview a built site over HTTP on 127.0.0.1 only, the way a static host serves it.

A missing page gets the site's own ``404.html`` with status 404; a folder
without ``index.html`` is a 404 too (never a directory listing); names that
start with a dot (``.git``, ``.explorer-site``) and symbolic links that lead
out of the site are not served.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from privacy_explorer.errors import ExplorerError

HOST = "127.0.0.1"


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files with the right types, and its 404 page for anything else."""

    # A class attribute, as in http.server, which typeshed declares per instance (so no ClassVar).
    extensions_map: dict[str, str] = {  # noqa: RUF012
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        # A preview changes with every build: the browser must ask again each time.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def _hidden(self) -> bool:
        """Whether the request names a dot file or leaves the site through a link."""
        parts = unquote(urlsplit(self.path).path).split("/")
        if any(part.startswith(".") and part not in (".", "..") for part in parts):
            return True
        site = os.path.realpath(self.directory)
        target = os.path.realpath(self.translate_path(self.path))
        return os.path.commonpath([site, target]) != site

    def send_head(self):  # type: ignore[no-untyped-def]  # the parent's signature
        if self._hidden():
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return super().send_head()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """A folder without ``index.html`` is not a page: 404, never a listing."""
        self.send_error(HTTPStatus.NOT_FOUND)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory, "404.html")
        if code != HTTPStatus.NOT_FOUND or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def make_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server for ``directory`` bound to 127.0.0.1 (port 0 picks a free one)."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    try:
        return ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ExplorerError(
                f"port {port} on {HOST} is already in use (another server, or an earlier "
                f"'explorer serve'?); choose another with --port, e.g. --port {port + 1}, "
                "or --port 0 for any free port"
            ) from None
        if exc.errno == errno.EACCES:
            raise ExplorerError(
                f"port {port} on {HOST} needs administrator rights; choose a port above "
                "1023 with --port, e.g. --port 8000"
            ) from None
        raise ExplorerError(f"cannot serve on {HOST}:{port}: {exc.strerror}") from None


def serve_site(directory: Path, port: int, announce: Callable[[str], None]) -> None:
    """Serve until interrupted."""
    with make_server(directory, port) as server:
        announce(f"http://{HOST}:{server.server_address[1]}/")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
