"""``explorer audit --scheduler``: the attacks on a Dask cluster give the same files, byte for byte.

The cluster is the ``scheduler`` fixture of ``conftest.py`` (a LocalCluster of two worker
processes, as ``explorer build --scheduler`` is tested), the data small.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import distributed
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from privacy_explorer import audit_cli, audit_report
from privacy_explorer import cluster as cluster_module
from privacy_explorer.cli import cli
from privacy_explorer.compute import audit
from privacy_explorer.compute.audit_data import AuditInputError
from privacy_explorer.errors import ClusterError

COMPARED = ("results.json", "scores.csv")


def tables(folder: Path, rows: int = 60) -> list[str]:
    """The four files' options: two numeric columns and a text column; the release copies."""
    rng = np.random.default_rng(3)

    def records(size: int) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "age": rng.integers(18, 90, size).astype(float),
                "income": np.round(rng.lognormal(10, 0.5, size), 2),
                "region": rng.choice(["north", "south", "east"], size),
            }
        )

    frames = {role: records(rows) for role in ("members", "nonmembers", "reference")}
    synthetic = records(rows)
    synthetic.iloc[: rows // 2] = frames["members"].iloc[: rows // 2].to_numpy()
    frames["synthetic"] = synthetic
    options = []
    for role, frame in frames.items():
        frame.to_csv(folder / f"{role}.csv", index=False)
        options += [f"--{role}", str(folder / f"{role}.csv")]
    return options


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", *args], prog_name="explorer")


def _task_prefixes(dask_scheduler: Any) -> list[str]:
    """The names of the functions the scheduler has seen tasks of (run on the scheduler)."""
    return list(dask_scheduler.task_prefixes)


def test_an_audit_on_a_cluster_writes_the_same_bytes_as_a_local_one(
    scheduler: str, tmp_path: Path
) -> None:
    # Every attack but LOGAN, by far the slowest to train: the tasks are run alike.
    attacks = ",".join(key for key in audit.ATTACK_KEYS if key != "logan")
    options = [*tables(tmp_path), "--k", "3,5", "--permutations", "200", "--attacks", attacks]
    # The local report is not compared (COMPARED), and drawing its charts took most of the local
    # run: it is left out here. The audit on the cluster renders its report in full.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(audit_report, "render_report", lambda *args, **kwargs: "not compared")
        local = invoke(*options, "--jobs", "1", "--out", str(tmp_path / "local"))
    assert local.exit_code == 0, local.output
    assert (tmp_path / "local" / "report.html").read_text("utf-8") == "not compared"
    on_cluster = invoke(*options, "--scheduler", scheduler, "--out", str(tmp_path / "cluster"))
    assert on_cluster.exit_code == 0, on_cluster.output
    assert "<svg" in (tmp_path / "cluster" / "report.html").read_text("utf-8")
    for name in COMPARED:
        assert (tmp_path / "cluster" / name).read_bytes() == (
            tmp_path / "local" / name
        ).read_bytes()
    # The attacks and their metrics really ran on the cluster's workers (Dask drops the "_").
    with distributed.Client(scheduler) as client:
        prefixes = client.run_on_scheduler(
            lambda dask_scheduler: list(dask_scheduler.task_prefixes)
        )
    assert {"attack_task", "metrics_task", "library_versions"} <= set(prefixes)


def test_workers_with_other_versions_are_refused_before_any_attack() -> None:
    ran: list[str] = []

    def other_versions(function: Any, tasks: Any) -> Any:
        ran.append(function.__name__)
        return [{**audit.library_versions(), "numpy": "0.0"} for _ in tasks]

    with pytest.raises(AuditInputError, match=r"numpy 0\.0 there, .* here") as error:
        audit._check_workers(other_versions)
    assert error.value.fix is not None and "constraints.txt" in error.value.fix
    assert ran == ["library_versions"]


def test_an_unreachable_scheduler_exits_2_naming_it_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    address = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
    out = tmp_path / "report"
    result = invoke(*tables(tmp_path), "--scheduler", address, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert f"--scheduler {address}: cannot reach a Dask scheduler there (" in result.output
    assert "nothing was written" in result.output
    assert not out.exists()


def test_a_task_the_cluster_loses_is_a_clear_error() -> None:
    class LosingCluster:
        address = "tcp://scheduler:8786"

        def client(self) -> None:
            return None

        def run(self, function: Any, tasks: Any) -> Any:
            for index, _ in enumerate(tasks):  # a generator, as Cluster.run is
                yield function()
                raise cluster_module.TaskLost(index + 1, "KilledWorker: worker died 3 times")

    run_tasks = audit_cli._cluster_tasks(LosingCluster())  # type: ignore[arg-type]
    with pytest.raises(ClusterError, match="could not finish an audit task") as error:
        list(run_tasks(dict, [(), ()]))
    assert "tcp://scheduler:8786" in str(error.value) and "KilledWorker" in str(error.value)
