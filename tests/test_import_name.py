"""``compute/`` has one import name, ``privacy_explorer.compute``: one module object per file.

Two names for one folder (``compute`` for the lessons, ``privacy_explorer.compute`` for the
audit) put two copies of every module into a process that runs both: two ``AuditResult``
classes that ``isinstance`` tells apart, two module-level caches. These tests run the audit
and load a lesson in one fresh process and count the module objects per file.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HOUSING = REPO / "data" / "synth-mia-housing"

ONE_PROCESS = """
import json, sys
from pathlib import Path
from click.testing import CliRunner
from privacy_explorer.cli import cli
from privacy_explorer.modules import load_module

repo, out = Path(sys.argv[1]), sys.argv[2]
housing = repo / "data" / "synth-mia-housing"
result = CliRunner().invoke(cli, [
    "audit", "--members", str(housing / "mem.csv"), "--nonmembers", str(housing / "non_mem.csv"),
    "--reference", str(housing / "ref.csv"), "--synthetic", str(housing / "synth.csv"),
    "--attacks", "gen_lra,dcr", "--jobs", "1", "--out", out,
])
assert result.exit_code == 0, result.output
lesson = load_module(repo / "compute", "lessons.synthetic_audit", repo, "test")
# load_module put the project folder on sys.path, so plain `compute` is findable now.
try:
    import compute
    refused = None
except ImportError as exc:
    refused = str(exc)
import privacy_explorer.compute.audit as audit
files = [
    str(Path(module.__file__).resolve())
    for module in list(sys.modules.values())
    if getattr(module, "__file__", None)
    and Path(module.__file__).resolve().is_relative_to(repo / "compute")
]
print(json.dumps({
    "files": files,
    "refused": refused,
    "compute_keys": sorted(k for k in sys.modules if k == "compute" or k.startswith("compute.")),
    "lesson_uses_the_audit_classes": lesson.compute.__globals__["gen_lra_scores"]
    is sys.modules["privacy_explorer.compute.attacks"].gen_lra_scores,
    "audit": audit.__file__,
}))
"""


def test_the_audit_and_a_lesson_in_one_process_share_one_module_per_file(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ONE_PROCESS, str(REPO), str(tmp_path / "audit")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    counts = Counter(found["files"])
    assert {file: n for file, n in counts.items() if n > 1} == {}
    # The run really loaded the audit, the attacks it shares with the lesson, and the lesson.
    for part in ("audit.py", "audit_data.py", "attacks/gen_lra.py", "lessons/synthetic_audit.py"):
        assert str((REPO / "compute" / part).resolve()) in counts, part
    assert found["lesson_uses_the_audit_classes"]
    assert found["compute_keys"] == []
    assert found["refused"] is not None and "privacy_explorer.compute" in found["refused"]


def _imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every absolute import in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


CHECKED = sorted(
    path
    for folder in ("explorer", "compute", "tests")
    for path in (REPO / folder).rglob("*.py")
    # The sample project's compute/ is its own project's folder, not the library.
    if not path.is_relative_to(REPO / "tests" / "sample_project")
)


def test_no_file_imports_the_library_under_a_second_name() -> None:
    wrong = [
        f"{path.relative_to(REPO)}:{line}: import {name}"
        for path in CHECKED
        for line, name in _imports_of(path)
        if name == "compute" or name.startswith("compute.")
    ]
    assert len(CHECKED) > 100 and wrong == [], "import the library as privacy_explorer.compute"
