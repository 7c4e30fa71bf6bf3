"""The wheel on its own: built, installed into a fresh venv, and used on a copy of a project.

Run alone with ``pytest -m wheel``. Installing the dependencies takes a while the
first time; pip's cache makes later runs quick.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE = Path(__file__).resolve().parent / "sample_project"

pytestmark = [pytest.mark.wheel, pytest.mark.xdist_group("wheel")]
"""One pytest-xdist worker runs every test here, so the wheel and its venv (module fixtures,
most of these tests' time) are built once a run, not once a worker."""


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy of the repository (nothing is written to it)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("explorer", "site_templates", "compute"):
        shutil.copytree(
            REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("dist")
    # The venv's own pinned setuptools builds it, as `make site` does: no download.
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "-w", out, source)  # fmt: skip
    (found,) = out.glob("*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and its dependencies at the versions of constraints.txt."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet",
        "-c", REPO / "constraints.txt", wheel)  # fmt: skip
    return venv / "bin"


def test_the_wheel_installs_one_distinctive_top_level_name(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (top_level,) = [name for name in names if name.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["privacy_explorer"]
    tops = {
        name.split("/", 1)[0] for name in names if not name.split("/", 1)[0].endswith(".dist-info")
    }
    assert tops == {"privacy_explorer"}
    for packaged in (
        "privacy_explorer/site_templates/strings.yml",
        "privacy_explorer/site_templates/base.html",
        "privacy_explorer/site_templates/static/style.css",
        "privacy_explorer/site_templates/static/fonts/NotoSansKRExplorer-Regular.ttf",
        "privacy_explorer/site_templates/static/fonts/NotoSansKRExplorer-Bold.ttf",
        "privacy_explorer/site_templates/static/fonts/NotoSansMath-Regular.woff2",
        "privacy_explorer/site_templates/static/fonts/OFL.txt",
    ):
        assert packaged in names, packaged
    assert not any(name.startswith("compute/") for name in names)
    # The library layer of compute/ travels inside the engine; the lessons stay in the project.
    for packaged in ("attacks/gen_lra.py", "attacks/metrics.py", "audit.py", "audit_data.py"):
        assert f"privacy_explorer/compute/{packaged}" in names, packaged
    assert not any(name.startswith("privacy_explorer/compute/lessons/") for name in names)


def test_the_installed_explorer_checks_builds_serves_and_cleans_a_project(
    installed: Path, tmp_path: Path
) -> None:
    project = tmp_path / "course"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("build"))
    explorer = installed / "explorer"
    # The installed package, not this checkout, is what runs.
    where = run(
        installed / "python", "-c", "import privacy_explorer; print(privacy_explorer.__file__)"
    )
    assert str(installed.parent) in where.stdout

    run(explorer, "check", cwd=project)
    run(explorer, "build", cwd=project)
    site = project / "build" / "site"
    assert (site / "index.html").is_file() and (site / "en" / "01-dice.html").is_file()
    # The shipped faces come from the package's data, subset per page (named by content).
    assert list((site / "assets" / "fonts").glob("NotoSansKRExplorer-Bold.*.woff2"))

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [str(explorer), "serve", "--port", str(port)],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.read() == (site / "index.html").read_bytes()
                    break
            except OSError:
                assert time.monotonic() < deadline, "explorer serve did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)

    run(explorer, "clean", cwd=project)
    assert not (project / "build").exists()


def test_the_installed_explorer_audits_a_release(installed: Path, tmp_path: Path) -> None:
    housing = REPO / "data" / "synth-mia-housing"
    report = tmp_path / "audit"
    run(installed / "explorer", "audit", "--members", housing / "mem.csv",
        "--nonmembers", housing / "non_mem.csv", "--reference", housing / "ref.csv",
        "--synthetic", housing / "synth.csv", "--attacks", "gen_lra,dcr", "--out", report,
        cwd=tmp_path)  # fmt: skip
    results = json.loads((report / "results.json").read_text("utf-8"))
    assert round(results["attacks"]["gen_lra"]["auc"], 3) == 0.744
    assert (report / "report.html").is_file()


def test_the_installed_audit_holds_one_module_object_per_library_file(
    installed: Path, tmp_path: Path
) -> None:
    housing = REPO / "data" / "synth-mia-housing"
    script = """
import json, sys
from pathlib import Path
from click.testing import CliRunner
from privacy_explorer.cli import cli
import privacy_explorer.compute as library

housing, out = Path(sys.argv[1]), sys.argv[2]
result = CliRunner().invoke(cli, [
    "audit", "--members", str(housing / "mem.csv"), "--nonmembers", str(housing / "non_mem.csv"),
    "--reference", str(housing / "ref.csv"), "--synthetic", str(housing / "synth.csv"),
    "--attacks", "gen_lra,dcr", "--jobs", "1", "--out", out,
])
assert result.exit_code == 0, result.output
from privacy_explorer.compute.attacks import gen_lra_scores  # as a notebook would, after it
folder = Path(library.__file__).parent
files = [
    str(Path(module.__file__).resolve())
    for module in list(sys.modules.values())
    if getattr(module, "__file__", None) and Path(module.__file__).resolve().is_relative_to(folder)
]
print(json.dumps({"folder": str(folder), "files": files}))
"""
    done = run(installed / "python", "-c", script, housing, tmp_path / "audit", cwd=tmp_path)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert str(installed.parent) in found["folder"]
    counts: dict[str, int] = {}
    for file in found["files"]:
        counts[file] = counts.get(file, 0) + 1
    assert len(counts) > 5 and all(n == 1 for n in counts.values()), counts
    assert any(file.endswith("attacks/gen_lra.py") for file in counts)
