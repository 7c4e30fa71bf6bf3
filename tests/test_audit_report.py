"""What ``report.html`` shows and withholds, and how ``explorer audit`` writes its outputs."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from privacy_explorer import __version__, audit_output
from privacy_explorer.audit_cli import audit_library
from privacy_explorer.audit_output import (
    MARKER,
    OUTPUTS,
    STAGING_PREFIX,
    AuditError,
    write_outputs,
)
from privacy_explorer.audit_report import (
    ADVICE_EPSILON,
    LESSONS,
    course_address,
    fmt_value,
    lesson_href,
    render_report,
    report_date,
)
from privacy_explorer.cli import cli
from privacy_explorer.compute.dp_bounds import tpr_bound
from privacy_explorer.compute.synthetic import simulation_split, two_d_population
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
    monkeypatch.setattr(audit_output, "_write_file", failing_on(MARKER, audit_output._write_file))
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


def ended_process_id() -> int:
    """The id of a process that has ended (a staging folder's writer killed by SIGKILL)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_staging_folder_a_killed_audit_left_neither_blocks_nor_stays(tmp_path):
    paths = distinctive_tables(tmp_path)
    out = tmp_path / "out"
    before = earlier_audit(out)
    dead = ended_process_id()
    # SIGKILL while writing: no handler runs, the staging folder stays in out.
    left = out / f"{STAGING_PREFIX}{dead}.abc123"
    left.mkdir()
    (left / "report.html").write_text("half a report", "utf-8")
    (left / "previous").mkdir()
    # Killed while moving: an earlier audit's file is in previous/, so that folder is kept.
    moving = out / f"{STAGING_PREFIX}{dead}.def456"
    (moving / "previous").mkdir(parents=True)
    (moving / "previous" / "scores.csv").write_text("earlier scores\n", "utf-8")
    # Another audit writing right now (this process is alive): not touched either.
    live = out / f"{STAGING_PREFIX}{os.getpid()}.ghi789"
    live.mkdir()
    result = invoke(*args_for(paths, out, "--force", "--lang", "en"))
    assert result.exit_code == 0, result.output
    assert not left.exists()
    assert (moving / "previous" / "scores.csv").read_text("utf-8") == "earlier scores\n"
    assert live.is_dir()
    assert snapshot(out)["notes.txt"] == before["notes.txt"]
    # Without --force, a leftover staging folder is not taken for a file of the user's.
    (out / "notes.txt").unlink()
    again = invoke(*args_for(paths, out, "--lang", "en"))
    assert again.exit_code == 0, again.output


def test_a_new_out_is_created_whole_or_not_at_all(tmp_path, monkeypatch):
    out = tmp_path / "new" / "deeper" / "out"
    real = audit_output._write_file
    monkeypatch.setattr(audit_output, "_write_file", failing_on(MARKER, real))
    with pytest.raises(AuditError, match="No space left on device"):
        write_outputs(out, {name: f"new {name}\n" for name in OUTPUTS})
    assert sorted(tmp_path.iterdir()) == []
    monkeypatch.setattr(audit_output, "_write_file", real)
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


# ---------------------------------------------------------------------------------------------
# The first screen: verdict, findings, what to do next, provenance

REPO = Path(__file__).resolve().parent.parent
HOUSING = REPO / "data" / "synth-mia-housing"
HOUSING_FILES = [HOUSING / name for name in ("mem.csv", "non_mem.csv", "ref.csv", "synth.csv")]


def release_tables(*, copies: bool, rows: int = 200, seed: int = 3) -> list[pd.DataFrame]:
    """Four tables from one population; the synthetic one copies members or never saw them."""
    split = simulation_split(
        two_d_population(), members=rows, nonmembers=rows, reference=rows, synthetic=rows, seed=seed
    )
    synthetic = split.release(epsilon=0.3 if copies else 0.0, rho=0.0).records
    return [
        pd.DataFrame(records, columns=["x", "y"])
        for records in (split.members, split.nonmembers, split.reference, synthetic)
    ]


@pytest.fixture(scope="module")
def housing() -> AuditResult:
    return run_audit(*HOUSING_FILES, attacks=("gen_lra", "dcr"))


@pytest.fixture(scope="module")
def copying() -> AuditResult:
    return run_audit(*release_tables(copies=True), attacks=("dcr",), jobs=1)


@pytest.fixture(scope="module")
def null_release() -> AuditResult:
    return run_audit(*release_tables(copies=False), attacks=("dcr",), jobs=1)


def first_screen(report: str) -> str:
    """What the report shows before its table of contents."""
    return report[report.index("<header>") : report.index("<nav")]


def lessons_linked(report: str) -> list[tuple[str, str]]:
    return re.findall(r'<li data-lesson="(\d+)">.*?<a href="([^"]+)">', first_screen(report))


def lessons_named(report: str) -> list[str]:
    """The lessons the next steps name, linked or not."""
    return re.findall(r'<li data-lesson="(\d+)">', first_screen(report))


COURSE = "https://course.example/privacy/"


# The English report of the housing audit, rendered once for the tests that read it.
HOUSING_REPORT = pytest.mark.xdist_group("audit-housing-report")


@pytest.fixture(scope="module")
def housing_en(housing: AuditResult) -> str:
    """``render_report(housing, "en", versions={})``, written on 2023-11-14 22:13 UTC."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1700000000")
        return render_report(housing, "en", versions={})


@HOUSING_REPORT
def test_the_first_screen_holds_the_verdict_findings_and_provenance(housing, housing_en):
    screen = first_screen(housing_en)
    verdict = housing.leak_test.verdict
    assert verdict.leak_detected and 'data-verdict="leak"' in screen
    assert f"family-wise p = {verdict.p_value:.3g} ≤ α = 0.05" in screen
    strongest = min(  # smallest corrected p-value, then the highest AUC
        housing.attacks, key=lambda attack: (attack.metrics.p_value_adjusted, -attack.metrics.auc)
    )
    lo, hi = strongest.metrics.auc_ci
    assert f"AUC {strongest.metrics.auc:.3f} (bootstrap 95 % interval {lo:.3f}–{hi:.3f})" in screen
    bound = housing.leak_test.epsilon_bound
    assert f"ε ≥ {bound.value:.2f} (95 % confidence" in screen
    assert "<dd data-date>2023-11-14 22:13 UTC</dd>" in screen
    assert f"explorer audit {__version__}" in screen
    for path in HOUSING_FILES:
        assert f'<code>{path.name}</code> <span class="hash">' in screen
        assert hashlib.sha256(path.read_bytes()).hexdigest() in screen
    assert screen.index('data-verdict="leak"') < screen.index("What to do next")


def test_the_verdict_on_the_page_is_the_verdict_layers_own(housing):
    leak_test = housing.leak_test
    told = replace(
        housing,
        leak_test=replace(
            leak_test, verdict=replace(leak_test.verdict, leak_detected=False, p_value=0.5)
        ),
    )
    screen = first_screen(render_report(told, "en", versions={}))
    assert 'data-verdict="none"' in screen
    assert "no evidence of a leak at α = 0.05" in screen and "family-wise p = 0.500" in screen
    assert "Do not publish" not in screen and "No leak was shown" in screen


@HOUSING_REPORT
def test_a_leak_is_answered_with_dp_at_a_stated_epsilon_fewer_epochs_and_more_nonmembers(
    housing, housing_en
):
    screen = first_screen(housing_en)
    tpr = 100 * tpr_bound(0.001, ADVICE_EPSILON)
    assert (
        f"Train the generator with differential privacy at a stated ε: at ε = 1, for example, "
        f"no attack can have a true-positive rate above {tpr:.2g} % at a false-positive rate "
        "of 0.001"
    ) in screen
    bound = housing.leak_test.epsilon_bound.value
    assert f"at least as badly as a mechanism with ε ≥ {bound:.2f}" in screen
    assert "train the generator for fewer epochs" in screen
    assert (
        "with 200 non-members the true-positive rate at a false-positive rate of 0.001 cannot"
        in (screen)
    )
    assert lessons_linked(render_report(housing, "en", versions={}, course_url=COURSE)) == [
        ("06", f"{COURSE}en/06-what-an-audit-measures.html"),
        ("02", f"{COURSE}en/02-membership-inference.html"),
        ("02", f"{COURSE}en/02-membership-inference.html"),
    ]
    assert "Explained in lesson 06, What an audit can measure" in screen


def test_near_copies_are_named_and_answered_with_their_removal(copying):
    copies = copying.near_copies
    assert copies is not None and copies.found
    report = render_report(copying, "ko", versions={})
    screen = first_screen(report)
    named = ", ".join(str(row) for row in copies.rows[:10])
    assert f"합성 기록 {len(copies.rows)} 개(행 {named} 부터)" in screen
    assert "05" in lessons_named(report)
    linked = lessons_linked(render_report(copying, "ko", versions={}, course_url=COURSE))
    assert ("05", f"{COURSE}05-synthetic-data-audit.html") in linked
    english = first_screen(render_report(copying, "en", versions={}))
    assert f"Remove the near-copies of members: {len(copies.rows)} synthetic records" in english


def test_a_release_that_never_saw_the_members_gets_no_removal_or_dp_order(null_release):
    assert not null_release.leak_test.verdict.leak_detected
    assert null_release.near_copies is not None and not null_release.near_copies.found
    report = render_report(null_release, "en", versions={})
    assert lessons_named(report) == ["02", "06"]  # enlarge, no guarantee
    assert "No leak was shown, which is no guarantee" in first_screen(report)


def test_without_nonmembers_the_next_step_is_to_give_them():
    tables = release_tables(copies=False, rows=60)
    result = run_audit(tables[0], None, tables[2], tables[3], attacks=("dcr",), jobs=1)
    report = render_report(result, "en", versions={})
    assert lessons_named(report) == ["02"]
    assert "Give non-members with --nonmembers" in first_screen(report)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_linked_lesson_is_a_lesson_of_the_course(lang):
    for number, page in LESSONS.items():
        assert (REPO / "content" / lang / f"{page}.md").is_file()
        assert lesson_href(number, lang, COURSE) == (
            f"{COURSE}{'' if lang == 'ko' else 'en/'}{page}.html"
        )
        assert lesson_href(number, lang, None) is None


def test_without_a_course_address_the_next_steps_name_their_lessons_and_link_nowhere(housing):
    # A report is mailed or archived far from the course: a bare file name would lead nowhere.
    report = render_report(housing, "ko", versions={})
    screen = first_screen(report)
    assert lessons_named(report) == ["06", "02", "02"] and lessons_linked(report) == []
    assert '<span class="lesson-named">설명: 6강 감사가 잴 수 있는 것</span>' in screen
    assert "<a " not in screen[screen.index('class="next-steps"') : screen.index("</ul>")]


def test_a_course_address_is_a_web_address_or_a_built_course_folder(tmp_path):
    assert course_address("https://owner.github.io/repo") == "https://owner.github.io/repo/"
    assert course_address("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/"
    site = tmp_path / "site"
    site.mkdir()
    with pytest.raises(AuditError, match=r"--course-url .*site/index\.html does not exist"):
        course_address(str(site))
    (site / "index.html").write_text("<!doctype html>", "utf-8")
    assert course_address(str(site)) == site.resolve().as_uri() + "/"
    with pytest.raises(AuditError, match="give an http:// or https:// address"):
        course_address("ftp://example.org/course")


def test_source_date_epoch_sets_the_date_and_a_bad_one_is_refused():
    assert report_date({"SOURCE_DATE_EPOCH": "0"}) == "1970-01-01 00:00 UTC"
    with pytest.raises(AuditError, match="SOURCE_DATE_EPOCH must be a whole number"):
        report_date({"SOURCE_DATE_EPOCH": "yesterday"})


def test_the_terminal_gives_the_next_steps_and_the_report_links_the_course_given(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html>", "utf-8")
    paths = distinctive_tables(tmp_path)
    out = tmp_path / "out"
    result = invoke(*args_for(paths, out, "--lang", "en", "--course-url", str(site)))
    assert result.exit_code == 0, result.output
    report = (out / "report.html").read_text("utf-8")
    linked = lessons_linked(report)
    assert linked and all(href.startswith(site.resolve().as_uri() + "/en/") for _, href in linked)
    lines = result.stdout.splitlines()
    steps = lines[lines.index("What to do next:") + 1 :]
    assert len(steps) == len(linked)
    told = [re.fullmatch(r"- .+ \(lesson (\d\d), [^:]+: (\S+)\)", line) for line in steps]
    assert all(told) and [match.groups() for match in told if match] == linked


def test_a_course_address_that_leads_nowhere_is_refused_before_any_attack(tmp_path):
    paths = distinctive_tables(tmp_path)
    out = tmp_path / "out"
    result = invoke(*args_for(paths, out, "--course-url", str(tmp_path / "no-site")))
    assert result.exit_code == 2, result.output
    assert "--course-url" in result.output and "no-site/index.html does not exist" in result.output
    assert "Auditing" not in result.output and not out.exists()
