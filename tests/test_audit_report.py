"""What ``report.html`` shows and withholds, and how ``explorer audit`` writes its outputs."""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from privacy_explorer import audit_report
from privacy_explorer.audit_cli import audit_library
from privacy_explorer.audit_report import (
    MARKER,
    OUTPUTS,
    AuditError,
    fmt_value,
    render_report,
    write_outputs,
)
from privacy_explorer.cli import cli
from privacy_explorer.output import read_marker

# The module the command itself calls (the report is typed against it).
run_audit = audit_library().run_audit
AuditResult = Any

ROLES = ("members", "nonmembers", "reference", "synthetic")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", *args], prog_name="explorer")


def distinctive_tables(folder: Path, rows: int = 40) -> dict[str, Path]:
    """Four CSVs whose every record carries a code no other record has (``mem_secret_007``)."""
    rng = np.random.default_rng(3)
    paths = {}
    for role in ROLES:
        frame = pd.DataFrame(
            {
                "age": rng.integers(18, 90, rows),
                "income": np.round(rng.lognormal(10, 0.5, rows), 3),
                "code": [f"{role[:3]}_secret_{index:03d}" for index in range(rows)],
            }
        )
        paths[role] = folder / f"{role}.csv"
        frame.to_csv(paths[role], index=False)
    return paths


def args_for(paths: dict[str, Path], out: Path, *options: str) -> list[str]:
    args = []
    for role, path in paths.items():
        args += [f"--{role}", str(path)]
    return [*args, "--out", str(out), "--attacks", "dcr", *options]


@pytest.fixture(scope="module")
def distinctive(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], AuditResult]:
    paths = distinctive_tables(tmp_path_factory.mktemp("distinctive"))
    return paths, run_audit(*paths.values(), attacks=("dcr",))


def shown_values(result: AuditResult, lang: str) -> set[str]:
    """Every value of an exposed member or of a synthetic neighbour, as the report writes it."""
    records = [member.values for member in result.exposed] + [
        neighbour.values for member in result.exposed for neighbour in member.neighbours
    ]
    return {fmt_value(value, lang) for values in records for value in values}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_report_holds_no_record_unless_show_records(distinctive, lang):
    paths, result = distinctive
    report = render_report(result, lang, versions={})
    for role in ROLES:
        for code in pd.read_csv(paths[role])["code"]:
            assert code not in report, (role, code)
    assert "_secret_" not in report
    for member in result.exposed:  # rows are named, values are not
        assert f"{'member' if lang == 'en' else '멤버'} {member.row}<" in report
    assert 'data-records="shown"' not in report
    shown = render_report(result, lang, versions={}, show_records=True)
    values = shown_values(result, lang)
    assert all(f">{text}<" in shown for text in values)
    distinctive_numbers = {text for text in values if "." in text}  # incomes, 3 decimals
    assert len(distinctive_numbers) > 20
    assert all(text not in report for text in distinctive_numbers)
    assert 'data-records="shown"' in shown
    assert "Warning: this report holds training data." in shown
    assert "경고: 이 보고서에는 학습 데이터가 들어 있습니다." in shown


def test_show_records_reaches_the_report_and_warns_on_the_terminal(tmp_path):
    paths = distinctive_tables(tmp_path)
    out = tmp_path / "out"
    result = invoke(*args_for(paths, out, "--lang", "en", "--show-records"))
    assert result.exit_code == 0, result.output
    report = (out / "report.html").read_text("utf-8")
    assert 'data-records="shown"' in report and "mem_secret_" in report
    assert (
        f"warning: --show-records: {out / 'report.html'} holds training records; keep it where "
        "the training data is kept, never with the public release"
    ) in result.output


def test_a_constant_reference_value_is_withheld(tmp_path):
    paths = distinctive_tables(tmp_path)
    frame = pd.read_csv(paths["reference"])
    frame["site"] = "ref_only_site_77"
    frame.to_csv(paths["reference"], index=False)
    for role in ("members", "nonmembers", "synthetic"):
        frame = pd.read_csv(paths[role])
        frame["site"] = [f"s{index % 3}" for index in range(len(frame))]
        frame.to_csv(paths[role], index=False)
    result = run_audit(*paths.values(), attacks=("dcr",))
    assert [column.constant_in for column in result.preprocessing.dropped] == [("reference",)]
    report = render_report(result, "en", versions={})
    assert "ref_only_site_77" not in report
    assert "Column &#39;site&#39; was dropped: it takes a single value in the reference" in report
    shown = render_report(result, "en", versions={}, show_records=True)
    assert "(ref_only_site_77)" in shown


# ---------------------------------------------------------------------------------------------
# Writing: all or nothing


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` (hidden ones too) with its bytes and mode."""
    return {
        str(path.relative_to(folder)): (path.read_bytes(), path.stat().st_mode)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    } | {
        str(path.relative_to(folder)) + "/": (b"", 0) for path in folder.rglob("*") if path.is_dir()
    }


def earlier_audit(out: Path) -> dict[str, tuple[bytes, int]]:
    """``out`` as an earlier audit left it, with a file of the user's beside the outputs."""
    write_outputs(out, {name: f"earlier {name}\n" for name in OUTPUTS})
    (out / "notes.txt").write_text("the user's own notes\n", "utf-8")
    return snapshot(out)


def failing_on(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def write(path: Any, *args: Any) -> Any:
        if Path(path).name == name:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, *args)

    return write


def test_a_failure_writing_the_last_file_leaves_out_as_it_was(tmp_path, monkeypatch):
    paths = distinctive_tables(tmp_path)
    out = tmp_path / "out"
    before = earlier_audit(out)
    monkeypatch.setattr(audit_report, "_write_file", failing_on(MARKER, audit_report._write_file))
    result = invoke(*args_for(paths, out, "--force", "--lang", "en"))
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        f"Error: {out}: cannot write the report (No space left on device); nothing was "
        "written, choose another --out"
    )
    assert snapshot(out) == before


def test_a_failure_moving_the_last_file_puts_the_earlier_ones_back(tmp_path, monkeypatch):
    out = tmp_path / "out"
    before = earlier_audit(out)
    real = os.replace

    def replace(source: Any, target: Any) -> None:
        if Path(target) == out / MARKER and Path(source).parent.name != "previous":
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(AuditError, match="cannot write the report"):
        write_outputs(out, {name: f"new {name}\n" for name in OUTPUTS})
    assert snapshot(out) == before


def test_a_new_out_is_created_whole_or_not_at_all(tmp_path, monkeypatch):
    out = tmp_path / "new" / "deeper" / "out"
    real = audit_report._write_file
    monkeypatch.setattr(audit_report, "_write_file", failing_on(MARKER, real))
    with pytest.raises(AuditError, match="No space left on device"):
        write_outputs(out, {name: f"new {name}\n" for name in OUTPUTS})
    assert sorted(tmp_path.iterdir()) == []
    monkeypatch.setattr(audit_report, "_write_file", real)
    write_outputs(out, {name: f"new {name}\n" for name in OUTPUTS})
    assert sorted(path.name for path in out.iterdir()) == sorted([*OUTPUTS, MARKER])
    assert sorted(path.name for path in out.parent.iterdir()) == ["out"]
    assert read_marker(out, MARKER) == {
        name: hashlib.sha256(f"new {name}\n".encode()).hexdigest() for name in OUTPUTS
    }


def test_a_file_that_appears_while_the_audit_runs_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "scores.csv").write_text("made during the audit\n", "utf-8")
    before = snapshot(out)
    with pytest.raises(AuditError, match=r"scores\.csv appeared or changed while the audit"):
        write_outputs(out, {name: f"new {name}\n" for name in OUTPUTS})
    assert snapshot(out) == before
