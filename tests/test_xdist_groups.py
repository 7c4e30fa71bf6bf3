"""The tests marked with one ``xdist_group`` run on one worker, as ``make test`` runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

CONFTEST = f"""
import os, sys
import pytest
sys.path.insert(0, {str(TESTS)!r})
from xdist_groups import keep_xdist_groups

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    keep_xdist_groups(config, items)

def pytest_runtest_setup(item):
    with open(os.path.join(os.path.dirname(__file__), "ran.txt"), "a") as out:
        out.write(os.environ["PYTEST_XDIST_WORKER"] + " " + item.name + "\\n")
"""

# Grouped tests between ungrouped ones, some parametrized: spread by plain load scheduling,
# the eight grouped ones would all land on one worker about once in a hundred runs.
TESTS_FILE = """
import pytest

GROUP = pytest.mark.xdist_group("together")

@pytest.mark.parametrize("n", range(4))
def test_free_a(n): pass

@GROUP
@pytest.mark.parametrize("n", range(4))
def test_grouped_a(n): pass

@pytest.mark.parametrize("n", range(4))
def test_free_b(n): pass

@GROUP
@pytest.mark.parametrize("n", range(4))
def test_grouped_b(n): pass
"""


def test_a_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST, "utf-8")
    (tmp_path / "test_grouped.py").write_text(TESTS_FILE, "utf-8")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
    command += ["--dist", "loadgroup", "--rootdir", str(tmp_path), str(tmp_path)]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    ran = [line.split() for line in (tmp_path / "ran.txt").read_text("utf-8").splitlines()]
    assert len(ran) == 16
    grouped = {worker for worker, name in ran if name.startswith("test_grouped")}
    assert len(grouped) == 1, ran
    assert {worker for worker, _ in ran} == {"gw0", "gw1"}  # the others were spread
