"""The preview server behaves like a static host: its own 404 page, no listings, only the site."""

from __future__ import annotations

import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from privacy_explorer.cli import cli
from privacy_explorer.serve import make_server


@pytest.fixture
def served(sample_project: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The sample site, built and served on 127.0.0.1, with a few things it must not show."""
    result = CliRunner().invoke(cli, ["build", "--project", str(sample_project), "-j", "1"])
    assert result.exit_code == 0, result.output
    site = sample_project / "build" / "site"
    (site / ".git").mkdir()
    (site / ".git" / "config").write_text("[core]\n", "utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("not part of the site", "utf-8")
    (site / "outside.txt").symlink_to(secret)
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def fetch(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@pytest.mark.parametrize(
    "path",
    [
        "no-such-page.html",
        "en/no-such-page.html",
        "assets/",  # a folder without index.html: no listing
        "assets/charts/01-dice/",
        ".explorer-site",
        ".git/config",
        "outside.txt",  # a link that leads out of the site
        "..%2f..%2fsite.yml",
    ],
)
def test_anything_but_a_page_of_the_site_gets_its_404_page(
    served: tuple[str, Path], path: str
) -> None:
    base, site = served
    status, content_type, body = fetch(base + path)
    assert status == 404
    assert content_type == "text/html; charset=utf-8"
    assert body == (site / "404.html").read_bytes()
    status, _, body = fetch(base + path, method="HEAD")
    assert (status, body) == (404, b"")


@pytest.mark.parametrize("path", ["", "en/", "en/01-dice.html", "assets/explorer.js"])
def test_the_sites_own_files_are_served(served: tuple[str, Path], path: str) -> None:
    base, site = served
    status, _, body = fetch(base + path)
    assert status == 200
    assert (
        body
        == (site / (path + "index.html" if path.endswith("/") or not path else path)).read_bytes()
    )


def test_serve_on_a_port_in_use_says_so_and_suggests_another(sample_project: Path) -> None:
    assert (
        CliRunner().invoke(cli, ["build", "--project", str(sample_project), "-j", "1"]).exit_code
        == 0
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli, ["serve", "--project", str(sample_project), "--port", str(port)]
        )
    assert result.exit_code == 1
    assert result.output == (
        f"Error: port {port} on 127.0.0.1 is already in use (another server, or an earlier "
        f"'explorer serve'?); choose another with --port, e.g. --port {port + 1}, or --port 0 "
        "for any free port\n"
    )
