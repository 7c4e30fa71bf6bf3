"""``explorer audit``'s verdict: its fields, exit codes and error rates on simulated releases."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result
from scipy import stats

from privacy_explorer.cli import cli
from privacy_explorer.compute.attacks import clopper_pearson, tpr_at_fpr_exact
from privacy_explorer.compute.audit import run_audit
from privacy_explorer.compute.audit_calibration import simulated_verdict
from privacy_explorer.compute.audit_verdict import leak_verdict
from privacy_explorer.compute.synthetic import simulation_split, two_d_population

REPO = Path(__file__).resolve().parent.parent
HOUSING = REPO / "data" / "synth-mia-housing"
HOUSING_FILES = [HOUSING / name for name in ("mem.csv", "non_mem.csv", "ref.csv", "synth.csv")]
ROLES = ("members", "nonmembers", "reference", "synthetic")


def invoke(*args: str) -> Result:
    """``explorer audit`` in one process (worker start-up would dominate these small audits)."""
    return CliRunner().invoke(cli, ["audit", "--jobs", "1", *args], prog_name="explorer")


def release_files(folder: Path, *, copies: bool, rows: int = 200, seed: int = 3) -> list[str]:
    """Four CSVs from one population; the synthetic one copies the members or never saw them."""
    split = simulation_split(
        two_d_population(), members=rows, nonmembers=rows, reference=rows, synthetic=rows, seed=seed
    )
    synthetic = split.release(epsilon=0.5 if copies else 0.0, rho=0.0).records
    tables = dict(
        zip(ROLES, (split.members, split.nonmembers, split.reference, synthetic), strict=True)
    )
    args = []
    for role, records in tables.items():
        path = folder / f"{role}.csv"
        pd.DataFrame(records, columns=["x", "y"]).to_csv(path, index=False)
        args += [f"--{role}", str(path)]
    return args


def binomial_band(trials: int, rate: float, tail: float = 0.0005) -> tuple[int, int]:
    """Counts a Binomial(trials, rate) falls outside of with probability at most 2 · tail."""
    return int(stats.binom.ppf(tail, trials, rate)), int(stats.binom.isf(tail, trials, rate))


# ---------------------------------------------------------------------------------------------
# Fields


def test_results_json_has_the_verdict_p_values_exact_intervals_and_epsilon(tmp_path):
    out = tmp_path / "out"
    args = [f"--{role}={path}" for role, path in zip(ROLES, HOUSING_FILES, strict=True)]
    result = invoke(
        *args,
        "--out",
        str(out),
        "--attacks",
        "dcr,dcr_diff",
        "--permutations",
        "500",
        "--lang",
        "en",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "results.json").read_text("utf-8"))
    verdict = summary["verdict"]
    assert set(verdict) == {"leak_detected", "alpha", "p_value", "method", "permutations"}
    assert (verdict["method"], verdict["permutations"], verdict["alpha"]) == (
        "permutation",
        500,
        0.05,
    )
    # The housing release leaks (AUC 0.75): the smallest p-value 500 permutations can give.
    assert verdict["p_value"] == pytest.approx(1 / 501) and verdict["leak_detected"] is True
    for attack in summary["attacks"].values():
        assert attack["p_value"] <= attack["p_value_adjusted"]
        intervals = attack["tpr_at_fpr_ci"]
        assert set(intervals) == {"0", "0.001", "0.01", "0.1"}
        # 200 non-members: FPR 0 and 0.001 allow not one false positive.
        assert intervals["0"] is None and intervals["0.001"] is None
        assert all(len(intervals[rate]) == 2 for rate in ("0.01", "0.1"))
    assert verdict["p_value"] == min(a["p_value_adjusted"] for a in summary["attacks"].values())
    bound = summary["epsilon_lower_bound"]
    assert set(bound) == {"value", "confidence", "attack"}
    assert bound["confidence"] == 0.95 and bound["attack"] in ("dcr", "dcr_diff")
    assert bound["value"] > 0.5
    report = (out / "report.html").read_text("utf-8")
    sentence = f"at least as badly as an ε-DP mechanism with ε ≥ {bound['value']:.2f}"
    assert sentence in report
    # Old fields stay.
    assert {"auc", "tpr_at_fpr", "auc_ci"} <= set(summary["attacks"]["dcr"])


def test_the_exact_intervals_are_clopper_pearson_at_a_real_threshold():
    result = run_audit(*HOUSING_FILES, attacks=("dcr",), permutations=200)
    (attack,) = result.attacks
    assert attack.metrics is not None and attack.nonmember_scores is not None
    found = attack.metrics.tpr_exact[0.01]
    assert found is not None
    assert found == tpr_at_fpr_exact(attack.member_scores, attack.nonmember_scores, 0.01)
    assert found.false_positives <= 2
    assert found.interval == clopper_pearson(found.true_positives, 200)


def test_without_nonmembers_there_is_no_verdict(tmp_path):
    out = tmp_path / "out"
    args = [
        f"--{role}={path}"
        for role, path in zip(ROLES, HOUSING_FILES, strict=True)
        if role != "nonmembers"
    ]
    assert invoke(*args, "--out", str(out), "--attacks", "dcr").exit_code == 0
    summary = json.loads((out / "results.json").read_text("utf-8"))
    assert summary["verdict"] is None and summary["epsilon_lower_bound"] is None
    assert summary["attacks"]["dcr"]["p_value"] is None
    result = invoke(*args, "--out", str(tmp_path / "b"), "--attacks", "dcr", "--fail-on-leak")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: --fail-on-leak needs --nonmembers: without them there is no verdict"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--alpha", "0"], "0<x<1"),
        (["--alpha", "1.5"], "0<x<1"),
        (["--permutations", "99"], "x>=100"),
    ],
)
def test_verdict_options_are_checked(tmp_path, option, message):
    args = [f"--{role}={path}" for role, path in zip(ROLES, HOUSING_FILES, strict=True)]
    result = invoke(*args, "--out", str(tmp_path / "out"), "--attacks", "dcr", *option)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------------
# Exit codes and the report


def test_fail_on_leak_exits_1_on_a_release_that_copies_its_members(tmp_path):
    out = tmp_path / "out"
    result = invoke(
        *release_files(tmp_path, copies=True),
        "--out",
        str(out),
        "--attacks",
        "dcr",
        "--fail-on-leak",
    )
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[-1].startswith("leak detected (p = 0.000999 <= alpha = 0.05)")
    summary = json.loads((out / "results.json").read_text("utf-8"))
    assert summary["verdict"]["leak_detected"] is True
    report = (out / "report.html").read_text("utf-8")
    assert 'data-verdict="leak"' in report and "판정: 유출 검출" in report
    value = summary["epsilon_lower_bound"]["value"]
    assert f"ε ≥ {value:.2f} 인 ε-차등 개인정보보호" in report


def test_fail_on_leak_exits_0_on_a_release_that_never_saw_the_members(tmp_path):
    out = tmp_path / "out"
    files = release_files(tmp_path, copies=False)
    result = invoke(*files, "--out", str(out), "--attacks", "dcr", "--fail-on-leak", "--lang", "en")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "results.json").read_text("utf-8"))
    assert summary["verdict"]["leak_detected"] is False
    assert "Verdict: no evidence of a leak at α = 0.05" in result.output
    report = (out / "report.html").read_text("utf-8")
    assert 'data-verdict="none"' in report
    for sentence in (
        "members and non-members are exchangeable given the release",
        "&#34;No evidence of a leak&#34; does not mean there is no leak.",
        "not measurable with 200 non-members",
        "The bound holds only if membership was assigned at random"
        if summary["epsilon_lower_bound"]["value"] > 0
        else "The attacks give no positive lower bound on ε",
    ):
        assert sentence in report, sentence


# ---------------------------------------------------------------------------------------------
# Error rates, through the library (the attacks and leak_verdict, without the report)


def test_the_false_alarm_rate_on_null_releases_is_within_the_binomial_band_of_alpha():
    """100 seeded releases drawn from the population alone, 50 to 500 rows per file."""
    alpha, releases = 0.05, 100
    sizes = np.random.default_rng(20).integers(50, 501, releases)
    alarms = sum(
        simulated_verdict(int(rows), epsilon=0.0, seed=seed, alpha=alpha).leak_detected
        for seed, rows in enumerate(sizes)
    )
    low, high = binomial_band(releases, alpha)
    assert low <= alarms <= high, alarms


@pytest.mark.parametrize("epsilon", [0.2, 0.3, 0.4])
def test_releases_that_copy_members_are_detected_at_200_rows(epsilon):
    """Ten seeded releases copying a share ε of their records from the members: ≥ 90 % caught."""
    detected = sum(
        simulated_verdict(200, epsilon=epsilon, seed=seed).leak_detected for seed in range(10)
    )
    assert detected >= 9, detected


def test_leak_verdict_matches_the_audit_and_checks_its_options():
    result = run_audit(*HOUSING_FILES, attacks=("dcr", "dcr_diff"), permutations=300, seed=4)
    assert result.leak_test is not None
    again = leak_verdict(
        {a.key: a.member_scores for a in result.attacks},
        {a.key: a.nonmember_scores for a in result.attacks if a.nonmember_scores is not None},
        permutations=300,
        seed=4,
    )
    assert again == result.leak_test
    with pytest.raises(ValueError, match=r"alpha must be strictly between 0 and 1, got 0\.0"):
        leak_verdict({"dcr": np.ones(3)}, {"dcr": np.zeros(3)}, alpha=0.0)
