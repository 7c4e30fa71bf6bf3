"""``explorer audit`` and ``compute.audit``: the housing numbers, the outputs, every bad input."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import shlex
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from privacy_explorer.audit_output import MARKER
from privacy_explorer.cli import cli
from privacy_explorer.compute.audit import ATTACK_KEYS, results_json, run_audit, scores_table
from privacy_explorer.compute.audit_data import AuditInputError, read_table

REPO = Path(__file__).resolve().parent.parent
HOUSING = REPO / "data" / "synth-mia-housing"
HOUSING_FILES = {
    "members": HOUSING / "mem.csv",
    "nonmembers": HOUSING / "non_mem.csv",
    "reference": HOUSING / "ref.csv",
    "synthetic": HOUSING / "synth.csv",
}
FAST = "gen_lra,dcr"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", *args], prog_name="explorer")


def housing_args(out: Path, *options: str, nonmembers: bool = True) -> list[str]:
    args = ["--members", str(HOUSING_FILES["members"])]
    if nonmembers:
        args += ["--nonmembers", str(HOUSING_FILES["nonmembers"])]
    args += [
        "--reference",
        str(HOUSING_FILES["reference"]),
        "--synthetic",
        str(HOUSING_FILES["synthetic"]),
    ]
    return [*args, "--out", str(out), *options]


def small_tables(folder: Path, rows: int = 40, seed: int = 0) -> dict[str, Path]:
    """Four CSVs of ``rows`` records with two numeric columns and one text column."""
    rng = np.random.default_rng(seed)
    paths = {}
    for role in ("members", "nonmembers", "reference", "synthetic"):
        frame = pd.DataFrame(
            {
                "age": rng.integers(18, 90, rows),
                "income": np.round(rng.lognormal(10, 0.5, rows), 2),
                "region": rng.choice(["north", "south", "east"], rows),
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


def assert_bad_input(result: Result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == f"Error: {message}"
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------------------------------
# The authors' housing example


def test_housing_defaults_give_the_published_gen_lra_and_dcr_auc():
    result = run_audit(*HOUSING_FILES.values(), k=(5,), attacks=("gen_lra", "dcr"))
    aucs = {a.key: round(a.metrics.auc, 3) for a in result.attacks if a.metrics is not None}
    assert aucs == {"gen_lra": 0.744, "dcr": 0.755}
    assert result.preprocessing.scaler_fitted_on == "synthetic"


# The README's example is the full housing audit (every attack, --lang en): it runs once, and the
# tests of its outputs and of the README read the same folder.
HOUSING_AUDIT = pytest.mark.xdist_group("audit-housing-full")
INPUT_OPTIONS = ("--members", "--nonmembers", "--reference", "--synthetic")


def readme_audit_args() -> list[str]:
    """The README's ``explorer audit`` example, as its words (run from the repository)."""
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Audit your own synthetic data", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    command = " ".join(line.rstrip("\\").strip() for line in block.strip().splitlines())
    return shlex.split(command)


def same_audit(args: list[str], other: list[str]) -> bool:
    """Whether two ``audit`` argument lists ask for one audit: the same options in the same
    order, the same input files (relative ones taken from the repository), any ``--out``."""

    def meant(words: list[str]) -> list[str]:
        return [
            "OUT"
            if before == "--out"
            else str((REPO / word).resolve())
            if before in INPUT_OPTIONS
            else word
            for before, word in zip(["", *words], words, strict=False)
        ]

    return meant(args) == meant(other)


@pytest.fixture(scope="module")
def readme_audit(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Path, Result]:
    """The README's example run as written, from the repository folder, into a temporary --out:
    its words, that folder and the result."""
    args = readme_audit_args()
    out = args.index("--out") + 1
    args[out] = str(tmp_path_factory.mktemp("readme") / args[out])
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        result = CliRunner().invoke(cli, args[1:], prog_name="explorer")
    return args, Path(args[out]), result


@HOUSING_AUDIT
def test_the_command_writes_the_three_outputs_with_the_documented_shape(tmp_path, readme_audit):
    args, out, result = readme_audit
    if not same_audit(args[1:], ["audit", *housing_args(tmp_path / "report", "--lang", "en")]):
        # The README shows another audit now: this one runs on its own.
        out = tmp_path / "report"
        result = invoke(*housing_args(out, "--lang", "en"))
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in out.iterdir()) == sorted(
        [MARKER, "report.html", "results.json", "scores.csv"]
    )
    summary = json.loads((out / "results.json").read_text("utf-8"))
    assert next(iter(summary)) == "_sensitive"
    assert summary["_sensitive"].startswith("SENSITIVE: as sensitive as the training data.")
    assert (
        (out / "scores.csv")
        .read_text("utf-8")
        .startswith("# SENSITIVE: as sensitive as the training data")
    )
    assert set(summary) == {
        "_sensitive",
        "attacks",
        "epsilon_lower_bound",
        "inputs",
        "near_copies",
        "settings",
        "verdict",
        "versions",
    }
    assert list(summary["attacks"]) == sorted(ATTACK_KEYS)
    for metrics in summary["attacks"].values():
        assert set(metrics) == {
            "auc",
            "tpr_at_fpr",
            "auc_ci",
            "p_value",
            "p_value_adjusted",
            "tpr_at_fpr_ci",
        }
        assert set(metrics["tpr_at_fpr"]) == {"0", "0.001", "0.01", "0.1"}
        lo, hi = metrics["auc_ci"]
        assert lo <= metrics["auc"] <= hi
    assert summary["attacks"]["gen_lra"]["auc"] == pytest.approx(0.74425)
    assert summary["inputs"]["synthetic"]["rows"] == 200
    assert len(summary["inputs"]["members"]["sha256"]) == 64
    scores = pd.read_csv(out / "scores.csv", comment="#")
    assert list(scores.columns) == ["set", "row", *ATTACK_KEYS]
    assert scores["set"].value_counts().to_dict() == {"member": 200, "nonmember": 200}
    report = (out / "report.html").read_text("utf-8")
    # two ROC charts and one score distribution per attack
    assert report.count("<svg") == 2 + len(ATTACK_KEYS) and "http://" not in report.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    ).replace('xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    assert "gen_lra" in result.output and "Report:" in result.output


def test_several_k_give_one_gen_lra_result_each(tmp_path):
    result = invoke(*housing_args(tmp_path / "out", "--attacks", "gen_lra", "--k", "5,20"))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    assert list(summary["attacks"]) == ["gen_lra_k20", "gen_lra_k5"]
    assert summary["attacks"]["gen_lra_k5"]["auc"] == pytest.approx(0.74425)
    assert summary["settings"]["k"] == [5, 20]


# Two audits of the housing files with the quick attacks and no --lang, run once for the tests
# of their outputs (they only read the two folders).
FAST_AUDITS = pytest.mark.xdist_group("audit-housing-fast")


@pytest.fixture(scope="module")
def fast_audits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A folder holding ``a`` and ``b``, two audits of the same inputs, and their exit codes."""
    folder = tmp_path_factory.mktemp("fast")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the report's date
        codes = [
            invoke(*housing_args(folder / name, "--attacks", FAST)).exit_code for name in ("a", "b")
        ]
    return folder, codes


@FAST_AUDITS
def test_two_audits_of_the_same_inputs_are_byte_identical(fast_audits):
    folder, codes = fast_audits
    assert codes == [0, 0]
    for output in ("report.html", "results.json", "scores.csv"):
        assert (folder / "a" / output).read_bytes() == (folder / "b" / output).read_bytes(), output


@FAST_AUDITS
def test_the_korean_report_is_the_default(fast_audits):
    folder, codes = fast_audits  # neither audit was given --lang
    assert codes[0] == 0
    report = (folder / "a" / "report.html").read_text("utf-8")
    assert '<html lang="ko">' in report and "가장 많이 노출된 멤버" in report


def test_without_nonmembers_there_are_scores_but_no_auc(tmp_path):
    out = tmp_path / "out"
    result = invoke(*housing_args(out, "--attacks", FAST, nonmembers=False))
    assert result.exit_code == 0, result.output
    assert "No --nonmembers" in result.output
    summary = json.loads((out / "results.json").read_text("utf-8"))
    assert summary["attacks"]["gen_lra"] == {
        "auc": None,
        "tpr_at_fpr": None,
        "auc_ci": None,
        "p_value": None,
        "p_value_adjusted": None,
        "tpr_at_fpr_ci": None,
    }
    scores = pd.read_csv(out / "scores.csv", comment="#")
    assert len(scores) == 200 and set(scores["set"]) == {"member"}
    # distributions only, one per attack (FAST is two)
    assert (out / "report.html").read_text("utf-8").count("<svg") == 2


def test_fail_above_exits_1_after_writing_the_report(tmp_path):
    out = tmp_path / "out"
    result = invoke(*housing_args(out, "--attacks", FAST, "--fail-above", "0.75"))
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "AUC above --fail-above 0.75: dcr"
    assert (out / "report.html").is_file() and (out / "results.json").is_file()
    assert (
        invoke(
            *housing_args(tmp_path / "ok", "--attacks", FAST, "--fail-above", "0.8", "--force")
        ).exit_code
        == 0
    )


def test_fail_above_needs_nonmembers(tmp_path):
    result = invoke(*housing_args(tmp_path / "out", "--fail-above", "0.6", nonmembers=False))
    assert_bad_input(
        result, "--fail-above needs --nonmembers: without them there is no AUC to compare"
    )


def test_most_exposed_members_are_shown_in_original_units(tmp_path):
    result = run_audit(*HOUSING_FILES.values(), attacks=("gen_lra",))
    top = result.exposed[0]
    members = pd.read_csv(HOUSING_FILES["members"])
    synthetic = pd.read_csv(HOUSING_FILES["synthetic"])
    assert len(result.exposed) == 20 and [member.rank for member in result.exposed] == list(
        range(1, 21)
    )
    assert top.values == tuple(members.iloc[top.row - 1])
    assert top.neighbours[0].values == tuple(synthetic.iloc[top.neighbours[0].row - 1])
    scores = result.attacks[0].member_scores
    assert top.score == scores.max()
    assert [n.distance for n in top.neighbours] == sorted(n.distance for n in top.neighbours)


def test_text_columns_are_ordinal_encoded_and_record_values_escaped(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["members"])
    frame.loc[0, "region"] = "<script>alert(1)</script>"
    frame.to_csv(paths["members"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out", "--lang", "en"))
    assert result.exit_code == 0, result.output
    report = (tmp_path / "out" / "report.html").read_text("utf-8")
    assert "<script" not in report
    summary = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    region = summary["settings"]["preprocessing"]["columns"][2]
    assert region["kind"] == "category"
    assert region["categories"] == ["<script>alert(1)</script>", "east", "north", "south"]


def test_constant_columns_are_dropped_with_a_note(tmp_path):
    paths = small_tables(tmp_path)
    for path in paths.values():
        frame = pd.read_csv(path)
        frame["country"] = "KR"
        frame.to_csv(path, index=False)
    result = run_audit(*paths.values(), attacks=("dcr",))
    assert [column.name for column in result.preprocessing.dropped] == ["country"]
    assert result.preprocessing.dropped[0].constant_in == ("synthetic", "reference")
    printed = invoke(*args_for(paths, tmp_path / "out", "--lang", "en"))
    assert (
        "note: column 'country' dropped: it is always KR in the synthetic and reference data"
        in (printed.output)
    )
    report = (tmp_path / "out" / "report.html").read_text("utf-8")
    assert "Column &#39;country&#39; was dropped: it takes a single value (KR)" in report


def test_an_attack_that_cannot_run_on_tiny_tables_says_so(tmp_path):
    paths = small_tables(tmp_path, rows=6)
    result = invoke(*args_for(paths, tmp_path / "out", "--attacks", "dpi"))
    assert_bad_input(
        result,
        "the dpi attack cannot run on these tables: k must be between 1 and the 12 pooled rows, "
        "got 20; use larger samples, or leave dpi out with --attacks",
    )


def test_impute_median_fills_missing_values_from_the_synthetic_data(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["reference"])
    frame.loc[[3, 7], "income"] = np.nan
    frame.to_csv(paths["reference"], index=False)
    median = pd.read_csv(paths["synthetic"])["income"].median()
    result = run_audit(*paths.values(), attacks=("dcr",), impute="median")
    (filled,) = result.preprocessing.imputed
    assert (filled.role, filled.column, filled.count, filled.value) == (
        "reference",
        "income",
        2,
        f"{median:g}",
    )


def test_dims_projects_onto_principal_components_of_the_reference(tmp_path):
    result = run_audit(*HOUSING_FILES.values(), attacks=("gen_lra", "dcr"), dims=4)
    assert result.preprocessing.dims == 4
    explained = result.preprocessing.explained_variance
    assert explained is not None and 0.5 < explained < 1.0


# ---------------------------------------------------------------------------------------------
# Bad input: exit status 2 and one clear sentence


def test_missing_file(tmp_path):
    paths = small_tables(tmp_path)
    paths["reference"] = tmp_path / "nowhere.csv"
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result, f"{tmp_path / 'nowhere.csv'}: no such file; check the path given to --reference"
    )


def test_empty_file(tmp_path):
    paths = small_tables(tmp_path)
    paths["members"].write_text("", "utf-8")
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{paths['members']}: the file is empty; export the records as CSV with a header row",
    )


def test_header_without_records(tmp_path):
    paths = small_tables(tmp_path)
    paths["members"].write_text("age,income,region\n", "utf-8")
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result, f"{paths['members']}: has a header but no records; export the records too"
    )


def test_different_columns(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["nonmembers"]).rename(columns={"income": "salary"})
    frame.to_csv(paths["nonmembers"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"the files do not have the same columns as {paths['synthetic']}: {paths['nonmembers']} "
        "lacks 'income' and has 'salary' in addition; give every file the same columns (their "
        "order may differ)",
    )


def test_text_in_one_file_and_numbers_in_another(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["reference"])
    frame["age"] = frame["age"].astype(str)
    frame.loc[4, "age"] = "forty"
    frame.to_csv(paths["reference"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    numbers = ", ".join(str(paths[role]) for role in ("members", "nonmembers", "synthetic"))
    assert_bad_input(
        result,
        f"column 'age' holds numbers in {numbers} but text in {paths['reference']} "
        f"({paths['reference']}: 'forty' on line 6); correct those values, or make the column "
        "text in every file",
    )


def test_missing_values(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["synthetic"])
    frame.loc[[0, 9, 10], "income"] = np.nan
    frame.to_csv(paths["synthetic"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{paths['synthetic']}: column 'income' has 3 missing values (lines 2, 11, 12); fill or "
        "remove "
        "those rows, or pass --impute median to fill them with the synthetic data's median",
    )


def test_missing_values_error_carries_file_column_and_count(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["members"])
    frame.loc[5, "age"] = np.nan
    frame.to_csv(paths["members"], index=False)
    with pytest.raises(AuditInputError) as caught:
        run_audit(*paths.values(), attacks=("dcr",))
    assert (caught.value.file, caught.value.column, caught.value.rows) == (
        str(paths["members"]),
        "age",
        1,
    )
    assert caught.value.fix is not None and "--impute median" in caught.value.fix


def test_a_single_row(tmp_path):
    paths = small_tables(tmp_path)
    pd.read_csv(paths["members"]).head(1).to_csv(paths["members"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{paths['members']}: has 1 record; an audit needs at least 2 in every file; "
        "use a larger sample (hundreds of records give meaningful rates)",
    )


def test_all_constant_data(tmp_path):
    paths = small_tables(tmp_path)
    for offset, path in enumerate(paths.values()):
        # members and non-members differ (identical files are refused first); reference and
        # synthetic are constant
        ages = [31 + offset * 10 + row for row in range(10)] if offset < 2 else [30] * (offset + 8)
        pd.DataFrame({"age": ages, "region": ["north"] * len(ages)}).to_csv(path, index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        "no column varies in both the synthetic and the reference data (constant: 'age', "
        "'region'), "
        "so there is nothing to compare; check that the files hold the records you meant to audit",
    )


def test_a_file_that_is_not_csv(tmp_path):
    paths = small_tables(tmp_path)
    workbook = tmp_path / "members.xlsx"
    workbook.write_bytes(b"PK\x03\x04 not really a workbook")
    paths["members"] = workbook
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{workbook}: not a CSV file (the name ends in '.xlsx'); export the table as CSV (.csv) "
        "or Parquet (.parquet)",
    )


def test_a_binary_file_named_csv(tmp_path):
    paths = small_tables(tmp_path)
    paths["members"].write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{paths['members']}: not a CSV file (it holds binary data); export the table as CSV text "
        "with a header row",
    )


def test_parquet_without_an_engine_says_what_to_install(tmp_path, monkeypatch):
    def no_engine(*args, **kwargs):
        raise ImportError("Unable to find a usable engine")

    monkeypatch.setattr(pd, "read_parquet", no_engine)
    paths = small_tables(tmp_path)
    table = tmp_path / "members.parquet"
    table.write_bytes(b"PAR1")
    paths["members"] = table
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"{table}: reading Parquet needs pyarrow or fastparquet, and neither is installed; "
        "install pyarrow (pip install pyarrow) or export the table as CSV",
    )


def test_collinear_columns_suggest_dims(tmp_path):
    paths = small_tables(tmp_path)
    for path in paths.values():
        frame = pd.read_csv(path)
        frame["age_in_months"] = frame["age"] * 12
        frame.to_csv(path, index=False)
    result = invoke(*args_for(paths, tmp_path / "out", "--attacks", "gen_lra"))
    assert result.exit_code == 2, result.output
    message = result.output.splitlines()[-1]
    assert message.startswith(
        f"Error: {paths['reference']}: cannot fit a Gaussian KDE because its covariance matrix is "
        "singular"
    )
    assert "'age', 'age_in_months'" in message
    assert message.endswith(
        "or pass --dims N (N from 1 to 3) to keep the first N principal components of the "
        "reference data"
    )
    assert (
        invoke(*args_for(paths, tmp_path / "ok", "--attacks", "gen_lra", "--dims", "3")).exit_code
        == 0
    )


def test_unknown_attack(tmp_path):
    result = invoke(*housing_args(tmp_path / "out", "--attacks", "gen_lra,lira"))
    assert result.exit_code == 2
    assert f"unknown attack 'lira'; choose from {', '.join(ATTACK_KEYS)}" in result.output


def test_k_larger_than_the_synthetic_data(tmp_path):
    paths = small_tables(tmp_path)
    result = invoke(*args_for(paths, tmp_path / "out", "--attacks", "gen_lra", "--k", "50"))
    assert_bad_input(
        result,
        "--k 50 needs at least 50 synthetic records; the synthetic data has 40; choose a smaller "
        "--k",
    )


def test_an_output_folder_with_other_files_is_refused_unless_forced(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine", "utf-8")
    result = invoke(*housing_args(out, "--attacks", "dcr"))
    assert_bad_input(
        result,
        f"{out}: the folder already holds files this command did not write (notes.txt); choose an "
        "empty or "
        "new folder for --out, or pass --force to write the report beside them (nothing is "
        "deleted)",
    )
    assert sorted(path.name for path in out.iterdir()) == ["notes.txt"]
    assert invoke(*housing_args(out, "--attacks", "dcr", "--force")).exit_code == 0
    assert (out / "notes.txt").read_text("utf-8") == "mine"
    assert (out / "report.html").is_file()


def test_a_folder_an_earlier_audit_wrote_is_reused_until_the_user_edits_an_output(tmp_path):
    out = tmp_path / "out"
    assert invoke(*housing_args(out, "--attacks", "dcr")).exit_code == 0
    listed = json.loads((out / MARKER).read_text("utf-8"))["files"]
    assert sorted(listed) == ["report.html", "results.json", "scores.csv"]
    assert invoke(*housing_args(out, "--attacks", "dcr", "--lang", "en")).exit_code == 0
    assert '<html lang="en">' in (out / "report.html").read_text("utf-8")
    # An audit output edited by the user is no longer ours.
    listed = json.loads((out / MARKER).read_text("utf-8"))["files"]
    assert sorted(listed) == ["report.html", "results.json", "scores.csv"]
    (out / "results.json").write_text("{}\n", "utf-8")  # the user's own edit
    assert invoke(*housing_args(out, "--attacks", "dcr")).exit_code == 2
    assert invoke(*housing_args(out, "--attacks", "dcr", "--force")).exit_code == 2
    assert (out / "results.json").read_text("utf-8") == "{}\n"


def test_a_report_named_like_ours_but_not_written_by_us_is_protected(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html").write_text("someone else's report", "utf-8")
    assert invoke(*housing_args(out, "--attacks", "dcr")).exit_code == 2
    assert (out / "report.html").read_text("utf-8") == "someone else's report"


def test_library_results_json_and_scores_table_match_the_command(tmp_path):
    result = run_audit(*HOUSING_FILES.values(), attacks=("dcr",))
    summary: dict[str, Any] = results_json(result)
    assert summary["attacks"]["dcr"]["tpr_at_fpr"]["0"] == pytest.approx(0.27)
    frame = scores_table(result)
    assert list(frame.columns) == ["set", "row", "dcr"]
    assert frame["row"].iloc[0] == 1 and frame["row"].iloc[-1] == 200


# ---------------------------------------------------------------------------------------------
# The README's example


@HOUSING_AUDIT
def test_the_readme_audit_example_runs(readme_audit):
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Audit your own synthetic data", 1)[1]
    args, out, result = readme_audit  # run as the README writes it, from the repository
    assert args[:2] == [".venv/bin/explorer", "audit"]
    assert result.exit_code == 0, result.output
    assert (out / "report.html").is_file()
    printed = section.split("the first two lines of the table are", 1)[1].split("```", 2)[1]
    for line in printed.strip().splitlines():
        assert line in result.output.splitlines(), line


def test_the_readme_library_example_runs(monkeypatch, capsys):
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Audit your own synthetic data", 1)[1].split("\n## ", 1)[0]
    example = section.split("```python", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(REPO)
    exec(compile(example, "README.md (Audit your own synthetic data)", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("gen_lra_k5 0.744 ") and printed[2].startswith("dcr 0.755 ")


def test_parallel_attacks_give_the_same_numbers_and_report_progress():
    calls = []
    attacks = ("gen_lra", "dcr", "classifier")
    one = run_audit(*HOUSING_FILES.values(), k=(5, 20), attacks=attacks, jobs=1)
    two = run_audit(
        *HOUSING_FILES.values(),
        k=(5, 20),
        attacks=attacks,
        jobs=2,
        progress=lambda step, done, total: calls.append((step, done, total)),
    )
    assert results_json(one) == results_json(two)
    assert calls[0] == ("start", 0, 7) and calls[-1] == ("done", 7, 7)
    assert sorted(step for step, _, _ in calls[1:4]) == sorted(attacks)
    assert [done for _, done, _ in calls] == [0, 1, 2, 3, 4, 5, 6, 7, 7]


# ---------------------------------------------------------------------------------------------
# Real files read the way their owners meant (issue 20, section 2)


def _rewrite(paths: dict[str, Path], **to_csv: Any) -> None:
    for path in paths.values():
        pd.read_csv(path).to_csv(path, index=False, **to_csv)


def _auc(out: Path) -> float:
    summary = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return float(summary["attacks"]["dcr"]["auc"])


def test_semicolon_and_decimal_comma_are_sniffed_with_a_note(tmp_path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "eu").mkdir()
    plain = small_tables(tmp_path / "plain")
    european = small_tables(tmp_path / "eu")
    _rewrite(european, sep=";", decimal=",")
    first = invoke(*args_for(plain, tmp_path / "a"))
    second = invoke(*args_for(european, tmp_path / "b"))
    assert first.exit_code == 0 and second.exit_code == 0, second.output
    assert _auc(tmp_path / "a") == _auc(tmp_path / "b")
    assert (
        f"note: {european['members']}: read with ';' between fields and ',' as the decimal mark "
        "(override with --sep and --decimal)" in second.output
    )


def test_tab_separated_files_are_sniffed_and_sep_overrides(tmp_path):
    paths = small_tables(tmp_path)
    _rewrite(paths, sep="\t")
    assert invoke(*args_for(paths, tmp_path / "a")).exit_code == 0
    forced = invoke(*args_for(paths, tmp_path / "b", "--sep", ","))
    assert forced.exit_code == 0, forced.output
    columns = {
        out: [
            column["name"]
            for column in json.loads((tmp_path / out / "results.json").read_text())["settings"][
                "preprocessing"
            ]["columns"]
        ]
        for out in ("a", "b")
    }
    assert columns == {"a": ["age", "income", "region"], "b": ["age\tincome\tregion"]}


def test_thousands_separators_and_spaces_are_read_as_numbers_with_a_note(tmp_path):
    paths = small_tables(tmp_path)
    reference = pd.read_csv(paths["reference"])
    reference["income"] = [f" {value:,.2f} " for value in reference["income"] * 10]
    reference.to_csv(paths["reference"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (
        f"note: {paths['reference']}: column 'income' read as numbers (thousands separators or "
        "spaces removed)" in result.output
    )
    summary = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    kinds = {
        column["name"]: column["kind"] for column in summary["settings"]["preprocessing"]["columns"]
    }
    assert kinds["income"] == "number"


def test_na_is_a_value_unless_na_values_says_otherwise(tmp_path):
    paths = small_tables(tmp_path)
    for path in paths.values():
        frame = pd.read_csv(path)
        frame.loc[0, "region"] = "NA"  # Namibia
        frame.to_csv(path, index=False)
    assert invoke(*args_for(paths, tmp_path / "a")).exit_code == 0
    refused = invoke(*args_for(paths, tmp_path / "b", "--na-values", "NA"))
    assert refused.exit_code == 2
    assert "column 'region' has 1 missing value (line 2)" in refused.output


def test_duplicate_column_names_are_refused(tmp_path):
    paths = small_tables(tmp_path)
    lines = paths["synthetic"].read_text().splitlines()
    paths["synthetic"].write_text(
        "\n".join(["age,income,age", *(line for line in lines[1:])]) + "\n"
    )
    assert_bad_input(
        invoke(*args_for(paths, tmp_path / "out")),
        f"{paths['synthetic']}: the header names column 'age' more than once; give every "
        "column its own name",
    )


def test_infinite_values_are_refused_naming_file_column_and_line(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["nonmembers"])
    frame["income"] = frame["income"].astype(object)
    frame.loc[3, "income"] = "inf"
    frame.to_csv(paths["nonmembers"], index=False)
    assert_bad_input(
        invoke(*args_for(paths, tmp_path / "out")),
        f"{paths['nonmembers']}: column 'income' holds an infinite value on line 5 (1 in all); "
        "replace it with a finite number, or leave the field empty and pass --impute median",
    )


def test_magnitudes_that_overflow_standardization_are_refused(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["synthetic"])
    frame["income"] = frame["income"] * 1e300
    frame.to_csv(paths["synthetic"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert result.exit_code == 2
    assert f"{paths['synthetic']}: column 'income' holds " in result.output
    assert "too large to standardize (magnitudes must stay below 1e+150); rescale" in (
        result.output
    )


def test_a_nearly_constant_synthetic_column_is_dropped_with_a_note(tmp_path):
    paths = small_tables(tmp_path)
    frame = pd.read_csv(paths["synthetic"])
    frame["income"] = 50_000 + np.linspace(-1e-3, 1e-3, len(frame))
    frame.to_csv(paths["synthetic"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (
        "note: column 'income' dropped: it is nearly constant in the synthetic data (spread "
        "below 0.001 of its spread over all four files); a leak that shows only in this column "
        "is not measured" in result.output
    )
    report = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "거의 변하지 않아" in report


def test_the_same_file_for_two_roles_is_refused(tmp_path):
    paths = small_tables(tmp_path)
    paths["nonmembers"] = paths["members"]
    assert_bad_input(
        invoke(*args_for(paths, tmp_path / "out")),
        f"{paths['members']} (--members) and {paths['members']} (--nonmembers) are the same data "
        f"(SHA-256 {__import__('hashlib').sha256(paths['members'].read_bytes()).hexdigest()[:12]}"
        "…), so no attack can tell them apart; give each option its own records",
    )


def test_members_among_the_nonmembers_are_counted_named_and_refused(tmp_path):
    paths = small_tables(tmp_path)
    members = pd.read_csv(paths["members"])
    nonmembers = pd.read_csv(paths["nonmembers"])
    pd.concat([nonmembers, members.iloc[[0, 4]]]).to_csv(paths["nonmembers"], index=False)
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert_bad_input(
        result,
        f"2 records of {paths['members']} also appear in {paths['nonmembers']} (lines 2, 6 of "
        f"{paths['members']}): a member that is also a non-member or part of the reference makes "
        "every attack's rates meaningless; remove those records from one of the files, or pass "
        "--allow-overlap to audit anyway",
    )
    assert not (tmp_path / "out").exists()
    allowed = invoke(*args_for(paths, tmp_path / "out", "--allow-overlap"))
    assert allowed.exit_code == 0
    assert f"warning: 2 records of {paths['members']} also appear" in allowed.output


def test_members_given_as_reference_are_refused(tmp_path):
    paths = small_tables(tmp_path)
    members = pd.read_csv(paths["members"])
    members.iloc[::-1].to_csv(paths["reference"], index=False)  # same rows, other bytes
    result = invoke(*args_for(paths, tmp_path / "out"))
    assert result.exit_code == 2
    assert f"40 records of {paths['members']} also appear in {paths['reference']}" in (
        result.output
    )


def test_an_unwritable_out_is_found_before_any_attack(tmp_path, monkeypatch):
    paths = small_tables(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    calls: list[object] = []
    from privacy_explorer.audit_cli import audit_library

    monkeypatch.setattr(audit_library(), "_run_attacks", lambda *args: calls.append(args))
    result = invoke(*args_for(paths, blocker / "out"))
    assert_bad_input(
        result,
        f"{blocker / 'out'}: cannot write there (Not a directory in {blocker}); choose another "
        "--out",
    )
    assert not calls


def test_force_never_replaces_a_file_an_earlier_audit_did_not_write(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html").write_text("someone else's report", "utf-8")
    (out / "scores.csv").write_text("my scores\n", "utf-8")
    assert_bad_input(
        invoke(*housing_args(out, "--attacks", "dcr", "--force")),
        f"{out}: report.html, scores.csv were not written by an earlier audit (or changed "
        "since), and --force never replaces a file it did not write; move it away or choose "
        "another --out",
    )
    assert (out / "report.html").read_text("utf-8") == "someone else's report"
    assert (out / "scores.csv").read_text("utf-8") == "my scores\n"


def _pack(path: Path, ending: str) -> Path:
    """``path`` compressed as its new ``ending`` says (``.gz``, ``.bz2``, ``.xz``, ``.zip``)."""
    packed = path.with_name(path.name + ending)
    data = path.read_bytes()
    if ending == ".zip":
        with zipfile.ZipFile(packed, "w") as archive:
            archive.writestr(path.name, data)
    else:
        packed.write_bytes(
            gzip.compress(data)
            if ending == ".gz"
            else bz2.compress(data)
            if ending == ".bz2"
            else lzma.compress(data)
        )
    return packed


@pytest.mark.parametrize("ending", [".gz", ".bz2", ".xz", ".zip"])
def test_compressed_files_are_sniffed_and_checked_like_plain_ones(tmp_path, ending):
    paths = small_tables(tmp_path)
    _rewrite(paths, sep=";", decimal=",")
    plain = read_table(paths["members"], "members")
    packed = read_table(_pack(paths["members"], ending), "members")
    pd.testing.assert_frame_equal(packed.frame, plain.frame)
    assert list(packed.frame.columns) == ["age", "income", "region"]
    assert packed.notes == (
        f"{paths['members']}{ending}: read with ';' between fields and ',' as the decimal "
        "mark (override with --sep and --decimal)",
    )
    paths["members"].write_text("age;age\n1;2\n")
    with pytest.raises(AuditInputError, match="the header names column 'age' more than once"):
        read_table(_pack(paths["members"], ending), "members")


def test_a_damaged_or_crowded_archive_is_refused_by_name(tmp_path):
    damaged = tmp_path / "members.csv.gz"
    damaged.write_bytes(b"\x1f\x8b not gzip after all")
    with pytest.raises(AuditInputError, match=r"members\.csv\.gz: cannot be unpacked as its"):
        read_table(damaged, "members")
    crowded = tmp_path / "members.csv.zip"
    with zipfile.ZipFile(crowded, "w") as archive:
        archive.writestr("a.csv", "x\n1\n")
        archive.writestr("b.csv", "x\n2\n")
    with pytest.raises(AuditInputError, match="the zip holds 2 files, not one CSV file"):
        read_table(crowded, "members")
