"""``explorer build --scheduler``: the grid on a Dask cluster gives the same site and cache.

The cluster is a ``LocalCluster`` of two worker processes on this machine, the
smallest that still sends work to other processes over Dask's own protocol.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from privacy_explorer import cluster as cluster_module
from privacy_explorer import runner
from privacy_explorer.build import build
from privacy_explorer.cli import cli
from privacy_explorer.lesson import canonical_text
from privacy_explorer.modules import load_module
from privacy_explorer.project import load_project


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_a_cluster_build_is_byte_identical_to_a_local_one(
    sample_project: Path, scheduler: str, tmp_path: Path
) -> None:
    local_copy = tmp_path / "local"
    shutil.copytree(sample_project, local_copy)
    on_cluster = build(load_project(sample_project), jobs=1, scheduler=scheduler)
    build(load_project(local_copy), jobs=1)
    assert [(run.computed, run.cached) for run in on_cluster.runs] == [(10, 0)]
    assert tree(sample_project / "build" / "site") == tree(local_copy / "build" / "site")
    assert tree(sample_project / "build" / "results") == tree(local_copy / "build" / "results")
    # The results came back into the cache: a build without the cluster computes nothing.
    again = build(load_project(sample_project), jobs=1)
    assert [(run.computed, run.cached) for run in again.runs] == [(0, 10)]


def test_scheduler_local_starts_a_cluster_of_jobs_workers(sample_project: Path) -> None:
    result = CliRunner().invoke(
        cli, ["build", "--project", str(sample_project), "--scheduler", "local", "-j", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "(10 grid points computed, 0 from cache)" in result.output
    assert (sample_project / "build" / "site" / "index.html").is_file()


def test_an_unreachable_scheduler_stops_the_build_naming_its_address(
    sample_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    address = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
    result = CliRunner().invoke(
        cli, ["build", "--project", str(sample_project), "--scheduler", address]
    )
    assert result.exit_code == 1
    assert f"Error: --scheduler {address}: cannot reach a Dask scheduler there (" in result.output
    assert "start one with 'dask scheduler'" in result.output
    assert "nothing was written" in result.output
    assert not (sample_project / "build" / "site").exists()
    assert not list((sample_project / "build").glob("results/*/*.json"))


def test_without_dask_the_error_says_how_to_install_it(
    sample_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = CliRunner().invoke(
        cli, ["build", "--project", str(sample_project), "--scheduler", "local"]
    )
    assert result.exit_code == 1
    assert "--scheduler needs dask.distributed, which is not installed here" in result.output
    assert "pip install .[cluster]" in result.output
    assert not (sample_project / "build" / "site").exists()


def test_a_worker_with_another_checkout_computes_nothing_and_says_so(
    sample_project: Path,
) -> None:
    root = sample_project
    module = load_module(root / "compute", "dice", root, "content/ko/01-dice.md")
    point = dict(next(iter(module.grid)))
    task = (str(module.path), str(root), [point], None, runner.GRID_POINTS)
    versions = runner.library_versions()
    (ok, message), *_ = runner._checked_batch("0" * 64, versions, *task)
    assert not ok
    assert "its copy of" in message and "the same project checkout at the same path" in message
    (ok, message), *_ = runner._checked_batch(
        module.source_digest, {**versions, "numpy": "0.0"}, *task
    )
    assert not ok
    assert "(the build has 0.0)" in message
    outcomes = runner._checked_batch(module.source_digest, versions, *task)
    assert [ok for ok, _ in outcomes] == [True]
    assert canonical_text(point[module.grid.names[0]])
