"""Preview a built site over HTTP on 127.0.0.1 only."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves files with correct types for the site's assets, without a log line per request."""

    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass


def make_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server for ``directory`` bound to 127.0.0.1 (port 0 picks a free one)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve_site(directory: Path, port: int, announce: Callable[[str], None]) -> None:
    """Serve until interrupted."""
    with make_server(directory, port) as server:
        announce(f"http://127.0.0.1:{server.server_address[1]}/")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
