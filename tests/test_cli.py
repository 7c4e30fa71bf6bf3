"""The ``explorer`` command line: help, progress, check, clean, serve, --only and --strict."""

from __future__ import annotations

import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from privacy_explorer import __version__
from privacy_explorer.cli import cli
from privacy_explorer.serve import make_server


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="explorer")


def run_build(project: Path, *options: str) -> Result:
    return invoke("build", "--project", str(project), "-j", "1", *options)


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{path} should contain {old!r} once"
    path.write_text(text.replace(old, new), "utf-8")


def add_text_lesson(project: Path) -> None:
    """A second, text-only lesson (no compute module), so that --only has a choice."""
    for lang, title in (("ko", "정리"), ("en", "Summary")):
        (project / "content" / lang / "02-notes.md").write_text(
            f"---\ntitle: {title}\nsummary: {title}.\norder: 2\n---\n\n## {title}\n\nText.\n",
            "utf-8",
        )


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ([], ["--version", "--help", "build", "check", "serve", "clean"]),
        (
            ["build"],
            ["--project", "--out", "--only", "--jobs", "-j", "--strict", "--force", "--yes"],
        ),
        (["check"], ["--project", "--jobs", "--strict", "--yes"]),
        (["serve"], ["--project", "--dir", "--port"]),
        (["clean"], ["--project"]),
    ],
    ids=["explorer", "build", "check", "serve", "clean"],
)
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_command_explains_its_options(
    command: list[str], options: list[str], flag: str
) -> None:
    result = invoke(*command, flag)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(" ".join(["Usage: explorer", *command, "[OPTIONS]"]))
    for option in options:
        assert option in result.output, option


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.output == f"explorer, version {__version__}\n"


def test_python_m_privacy_explorer_prints_the_same_help_as_the_console_script(
    tmp_path: Path,
) -> None:
    script = Path(sys.executable).parent / "explorer"
    assert script.is_file(), "install the project (pip install -e .) to get the explorer script"
    as_module = subprocess.run(
        [sys.executable, "-m", "privacy_explorer", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    as_script = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert as_module.returncode == 0, as_module.stderr
    assert as_script.returncode == 0, as_script.stderr
    assert as_module.stdout.startswith("Usage: explorer [OPTIONS] COMMAND [ARGS]...")
    assert as_module.stdout == as_script.stdout


def test_build_reports_progress_and_then_the_cache(sample_project: Path) -> None:
    site = sample_project / "build" / "site"
    first = run_build(sample_project)
    assert first.exit_code == 0, first.output
    assert first.stderr.splitlines()[-1] == "01-dice: 10/10 grid points (0 from cache)"
    assert first.stdout == (
        "Built 1 lesson(s), 7 pages (10 grid points computed, 0 from cache).\n"
        f"Open {site / 'index.html'} in a browser,\n"
        f"or preview it with: explorer serve --dir {site}\n"
    )
    second = run_build(sample_project)
    assert second.exit_code == 0, second.output
    assert second.stderr == "01-dice: 10/10 grid points (10 from cache)\n"
    assert second.stdout.splitlines()[0] == (
        "Built 1 lesson(s), 7 pages (0 grid points computed, 10 from cache)."
    )


def test_check_validates_without_writing_the_site(sample_project: Path) -> None:
    result = invoke("check", "--project", str(sample_project), "-j", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: 1 lesson(s), 28 files, 0 warning(s).\n"
    assert not (sample_project / "build" / "site").exists()


def test_check_fails_on_a_link_to_a_missing_page(sample_project: Path) -> None:
    replace(
        sample_project / "content" / "en" / "01-dice.md",
        "## Hands-on\n",
        "## Hands-on\n\nSee also [the next lesson](nowhere.html).\n",
    )
    result = invoke("check", "--project", str(sample_project), "-j", "1")
    assert result.exit_code == 1
    assert result.output.endswith(
        "Error: 1 broken reference:\n"
        "  content/en/01-dice.md:10: 'nowhere.html' points to en/nowhere.html, "
        "which the site does not contain\n"
    ), result.output
    assert not (sample_project / "build" / "site").exists()


def test_check_fails_on_an_unknown_readout(cold_sample_project: Path) -> None:
    replace(
        cold_sample_project / "content" / "ko" / "01-dice.md",
        "{{< readout share >}}",
        "{{< readout ratio >}}",
    )
    result = invoke("check", "--project", str(cold_sample_project), "-j", "1")
    assert result.exit_code == 1
    assert result.output == (
        "Error: content/ko/01-dice.md:12: unknown readout 'ratio'; dice defines: share, rolls\n"
    )
    assert not (cold_sample_project / "build").exists()


def test_clean_removes_what_the_build_wrote(sample_project: Path) -> None:
    assert run_build(sample_project).exit_code == 0
    build_dir = sample_project / "build"
    written = sum(1 for path in build_dir.rglob("*") if path.is_file()) - 1  # not the lock
    result = invoke("clean", "--project", str(sample_project))
    assert result.exit_code == 0, result.output
    assert result.output == f"Removed {written} file(s) that explorer wrote in {build_dir}\n"
    assert not build_dir.exists()
    again = invoke("clean", "--project", str(sample_project))
    assert again.exit_code == 0
    assert again.output == f"Nothing to remove: {build_dir} does not exist\n"


def test_serve_refuses_without_a_built_site(sample_project: Path) -> None:
    result = invoke("serve", "--project", str(sample_project), "--port", "0")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {sample_project / 'build' / 'site'}: no built site here; "
        "run 'explorer build' first\n"
    )


def test_make_server_serves_the_site_with_the_right_types(sample_project: Path) -> None:
    assert run_build(sample_project).exit_code == 0
    site = sample_project / "build" / "site"
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        base = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(base + "index.html", timeout=10) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "text/html"
            assert response.read() == (site / "index.html").read_bytes()
        font = min(path.relative_to(site).as_posix() for path in site.glob("assets/fonts/*.woff2"))
        expected_types = {
            "assets/explorer.js": "text/javascript",
            font: "font/woff2",
            "assets/charts/01-dice/faces.ko.svg": "image/svg+xml",
        }
        for path, content_type in expected_types.items():
            with urllib.request.urlopen(base + path, timeout=10) as response:
                assert response.headers["Content-Type"] == content_type, path
                assert response.read() == (site / path).read_bytes()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    assert not thread.is_alive()


@pytest.mark.parametrize("only", ["01", "01-dice"])
def test_only_builds_one_lesson(sample_project: Path, only: str) -> None:
    add_text_lesson(sample_project)
    result = run_build(sample_project, "--only", only)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Built 1 lesson(s), 7 pages")
    site = sample_project / "build" / "site"
    assert (site / "01-dice.html").is_file()
    assert not (site / "02-notes.html").exists()


def test_only_keeps_links_to_the_lessons_it_leaves_out(sample_project: Path) -> None:
    """A lesson may link another lesson; building it alone must not call that link broken."""
    add_text_lesson(sample_project)
    replace(
        sample_project / "content" / "en" / "01-dice.md",
        "## Hands-on\n",
        "## Hands-on\n\nSee also [the notes](02-notes.html).\n",
    )
    result = run_build(sample_project, "--only", "01")
    assert result.exit_code == 0, result.output
    replace(
        sample_project / "content" / "en" / "01-dice.md",
        "[the notes](02-notes.html)",
        "[the notes](03-notes.html)",
    )
    broken = run_build(sample_project, "--only", "01")
    assert broken.exit_code == 1
    assert broken.output.endswith(
        "Error: 1 broken reference:\n"
        "  content/en/01-dice.md:10: '03-notes.html' points to en/03-notes.html, "
        "which the site does not contain\n"
    ), broken.output


def test_only_an_unknown_lesson_lists_the_known_ones(cold_sample_project: Path) -> None:
    add_text_lesson(cold_sample_project)
    result = run_build(cold_sample_project, "--only", "99")
    assert result.exit_code == 1
    assert result.output == "Error: --only 99: no such lesson; choose one of: 01-dice, 02-notes\n"
    assert not (cold_sample_project / "build").exists()


def test_strict_turns_an_unplaced_chart_into_an_error(sample_project: Path) -> None:
    for lang in ("ko", "en"):
        replace(sample_project / "content" / lang / "01-dice.md", "{{< chart faces >}}\n", "")
    unplaced = (
        "chart 'faces' is defined but not placed; add '{{< chart faces >}}' on a line of its own"
    )
    lenient = run_build(sample_project)
    assert lenient.exit_code == 0, lenient.output
    assert lenient.stderr.startswith(
        f"warning: content/ko/01-dice.md: {unplaced}\nwarning: content/en/01-dice.md: {unplaced}\n"
    )
    site = sample_project / "build" / "site"
    before = {path: path.read_bytes() for path in site.rglob("*") if path.is_file()}
    strict = run_build(sample_project, "--strict")
    assert strict.exit_code == 1
    assert strict.output == (
        "Error: 2 problems found:\n"
        f"  content/ko/01-dice.md: {unplaced} (an error under --strict)\n"
        f"  content/en/01-dice.md: {unplaced} (an error under --strict)\n"
    )
    assert {path: path.read_bytes() for path in site.rglob("*") if path.is_file()} == before


def test_strict_turns_an_unplaced_table_into_an_error(sample_project: Path) -> None:
    replace(sample_project / "content" / "en" / "01-dice.md", "{{< table by_threshold >}}\n", "")
    unplaced = (
        "table 'by_threshold' is defined but not placed; "
        "add '{{< table by_threshold >}}' on a line of its own"
    )
    lenient = run_build(sample_project)
    assert lenient.exit_code == 0, lenient.output
    assert lenient.stderr.startswith(f"warning: content/en/01-dice.md: {unplaced}\n")
    strict = invoke("check", "--strict", "--project", str(sample_project), "-j", "1")
    assert strict.exit_code == 1
    assert strict.output == (
        f"Error: content/en/01-dice.md: {unplaced} (an error under --strict)\n"
    )
