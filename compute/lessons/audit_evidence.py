"""Lesson 06, what an audit can measure: the coverage ceiling, paired evidence, private generators.

Every experiment runs in the ``STUDY`` (the library does the work:
:mod:`compute.attack_evidence`, :mod:`compute.generator_audit`); the page's grid
only chooses which part of it the reader looks at, so ``compute`` has nothing to
do and ``summarize`` gives every grid point its readouts and rows
(``point_views``, see :mod:`privacy_explorer.lesson`).

The simulation (``sim-ε-ρ-m`` study points)
    For each overfitting strength ε, memorization scale ρ and release size
    ``m × 200`` of the grid, the 20 seeds of
    :data:`~compute.attack_evidence.EVIDENCE_SEEDS`: every attack's AUC and
    TPR at FPR 1 %, Gen-LRA at every ``k`` the release is large enough for
    and both bandwidths, and each release's coverage (the share of members
    copied).
Real generators (``gen-data-setting`` study points)
    :data:`SETTINGS` on the concrete and the housing data, 10 seeds each:
    every attack's AUC and TPR, the utility, and for a private setting each
    attack's mean ROC and ε lower bound (:func:`~compute.attack_evidence.pooled_dp_evidence`).
Verdicts
    Gen-LRA (each ``k`` and bandwidth) against every rival, per setting, from
    the per-seed paired differences of AUC: mean, 95 % t interval and sign
    count. The settings whose AUC ceiling clears the chance band are judged
    together (:func:`~compute.attack_evidence.settle`, Holm); the real
    generators' settings form a second family. Every sentence that compares
    attacks is a readout written from these verdicts.
Cost
    About 175 s of CPU for the simulation (release size dominates: a 3,200
    record release costs 0.7–0.9 s per seed, mostly the classifier, LOGAN and
    Gen-LRA at ``k = 200``) and about 60 s for the 200 real-generator runs;
    ``make bench`` measures it again (``tests/bench/bench_lessons.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from privacy_explorer.compute.attack_evidence import (
    ALPHA,
    ATTACK_KEYS,
    EVIDENCE_BANDWIDTHS,
    EVIDENCE_KS,
    EVIDENCE_SEEDS,
    GENERATOR_EVIDENCE_SEEDS,
    RECORDS_PER_NEIGHBOUR,
    RIVALS,
    ROC_FPRS,
    SIMULATION_MEMBERS,
    SIZE_MULTIPLES,
    RivalComparison,
    Settled,
    compare_with_rivals,
    ks_for,
    pooled_dp_evidence,
    region_excess,
    run_generator_seeds,
    run_size_draw,
    settle,
)
from privacy_explorer.compute.attacks import ceiling_clears_chance, chance_auc_spread, tpr_ceiling
from privacy_explorer.compute.audit_experiments import GEN_LRA, KDE_RIVALS, first_place_shares
from privacy_explorer.compute.bayes_net import PRIVATE_EPSILONS
from privacy_explorer.compute.dp_bounds import REPLACEMENT_STEPS, group_epsilon, tpr_bound
from privacy_explorer.compute.generator_audit import REAL_DATA, REAL_DATA_K, real_split
from privacy_explorer.compute.generators import (
    BAYES_NET_SETTINGS,
    GENERATOR_SETTINGS,
    GeneratorSetting,
)
from privacy_explorer.compute.lessons import audit_evidence_charts as charts
from privacy_explorer.lesson import Column, Grid, Param, Readout, Table, Text, chart_number

DATA_FILES: tuple[str, ...] = (
    "concrete.csv",
    "synth-mia-housing/mem.csv",
    "synth-mia-housing/non_mem.csv",
    "synth-mia-housing/ref.csv",
)

SIZES = SIZE_MULTIPLES
EPSILONS: tuple[float, ...] = (0.1, 0.4)
RHOS: tuple[float, ...] = (0.0, 0.1, 0.4)
KS = EVIDENCE_KS
BANDWIDTHS = EVIDENCE_BANDWIDTHS
DP_EPSILONS = PRIVATE_EPSILONS
SWEEP_FPR = 0.01
"""The FPR at which TPRs are compared (and the TPR ceiling drawn)."""
CHANCE_SPREADS = 2.0
"""The chance band is ½ ± 2σ₀ (:func:`compute.attacks.ceiling_clears_chance`)."""
METHOD = "holm"
"""The correction for the number of comparisons (:func:`compute.attack_evidence.settle`)."""
CHART_DIGITS = 4
"""Significant digits of chart rows."""

SETTING_KEYS: tuple[str, ...] = (
    "gmm-5",
    "gmm-50",
    "kde-0.5",
    "kde-0.05",
    "smote-5",
    "marginals",
    "bayes-net-10",
    *(f"dp-bayes-net-{e:g}" for e in DP_EPSILONS),
)
"""The real-generator settings: two of each family that has a parameter, smoothing to memorizing,
the marginals, the Bayesian network and its private version at every ε."""
SETTINGS: tuple[GeneratorSetting, ...] = tuple(
    next(s for s in (*GENERATOR_SETTINGS, *BAYES_NET_SETTINGS) if s.key == key)
    for key in SETTING_KEYS
)

AUTHORS_REPORT: dict[str, float] = {
    "datasets": 35,
    "generators": 9,
    "rivals": 9,
    "configurations": 1525,
    "first_auc": 0.38,
    "first_tpr0": 0.42,
}
"""What Ward, Wang and Cheng (2025) report for their benchmark (quoted, not verified here)."""

NAMES: Mapping[str, Text] = charts.ATTACK_NAMES


def _text(ko: str, en: str) -> dict[str, str]:
    return {"ko": ko, "en": en}


def _number(value: float, digits: int = CHART_DIGITS) -> float:
    rounded: float = chart_number(float(value), digits)
    return rounded


def _signed(value: float) -> str:
    return f"{value:+.3f}".replace("-", "−")


# --- The study ------------------------------------------------------------------------------


def simulation_key(epsilon: float, rho: float, size: int) -> str:
    return f"sim-{epsilon:g}-{rho:g}-{size}"


def generator_key(data: str, setting: str) -> str:
    return f"gen-{data}-{setting}"


SIMULATIONS: dict[str, tuple[float, float, int]] = {
    simulation_key(e, r, m): (e, r, m) for e in EPSILONS for r in RHOS for m in SIZES
}
GENERATORS: dict[str, tuple[str, GeneratorSetting]] = {
    generator_key(d, s.key): (d, s) for d in REAL_DATA for s in SETTINGS
}


def simulation_study(epsilon: float, rho: float, size: int) -> dict[str, Any]:
    """Every attack variant's AUC and TPR at FPR 1 % on each seed, and each release's coverage."""
    draws = [run_size_draw(epsilon, rho, size, seed) for seed in EVIDENCE_SEEDS]
    variants = []
    for index, outcome in enumerate(draws[0].outcomes):
        variants.append(
            {
                "attack": outcome.attack,
                "k": outcome.k,
                "bandwidth": outcome.bandwidth_multiple,
                "auc": [d.outcomes[index].auc for d in draws],
                "tpr": [d.outcomes[index].tpr[SWEEP_FPR] for d in draws],
            }
        )
    return {
        "coverage": [d.coverage for d in draws],
        "expected": draws[0].expected_coverage,
        "variants": variants,
    }


def generator_study(data: str, setting: GeneratorSetting) -> dict[str, Any]:
    """Every attack's AUC and TPR and the utility of one setting on each seed; DP evidence."""
    results = run_generator_seeds(setting, data)
    value: dict[str, Any] = {
        "utility": [r.utility_r2 for r in results],
        "baseline": [r.baseline_r2 for r in results],
        "auc": {a: [r.outcome(a).auc for r in results] for a in ATTACK_KEYS},
        "tpr0": {a: [r.outcome(a).tpr[0.0] for r in results] for a in ATTACK_KEYS},
    }
    if setting.private:
        value["dp"] = [
            {
                "attack": item.attack,
                "tpr": [float(t) for t in item.tpr],
                "bound": item.bound.value,
            }
            for item in pooled_dp_evidence(results)
        ]
    return value


def study(*, experiment: str) -> dict[str, Any]:
    """One experiment of ``STUDY`` (a simulated setting or a generator on a data set)."""
    if experiment in SIMULATIONS:
        return simulation_study(*SIMULATIONS[experiment])
    return generator_study(*GENERATORS[experiment])


# --- The simulation's verdicts ---------------------------------------------------------------


def _variant(
    study_value: Mapping[str, Any], attack: str, k: int | None, bandwidth: float | None
) -> Mapping[str, Any]:
    rows: list[Mapping[str, Any]] = study_value["variants"]
    for row in rows:
        if (row["attack"], row["k"], row["bandwidth"]) == (attack, k, bandwidth):
            return row
    raise KeyError((attack, k, bandwidth))


def _rival_variant(
    study_value: Mapping[str, Any], attack: str, bandwidth: float
) -> Mapping[str, Any]:
    return _variant(study_value, attack, None, bandwidth if attack in KDE_RIVALS else None)


SimPoint = tuple[int, float, float, int, float]
"""(size, ε, ρ, k, bandwidth): one setting and Gen-LRA variant of the simulation."""


class Simulation:
    """The simulation's study values, judged: comparisons, ceilings and verdicts per setting."""

    def __init__(self, study: Mapping[str, Any]) -> None:
        self.values = {key: study[STUDY.key({"experiment": key})] for key in SIMULATIONS}
        self.comparisons: dict[SimPoint, RivalComparison] = {}
        self.judged: dict[SimPoint, bool] = {}
        for key, (epsilon, rho, size) in SIMULATIONS.items():
            value = self.values[key]
            clears = ceiling_clears_chance(
                self.coverage(epsilon, rho, size),
                SIMULATION_MEMBERS,
                SIMULATION_MEMBERS,
                spreads=CHANCE_SPREADS,
            )
            for k in ks_for(size * SIMULATION_MEMBERS):
                for bandwidth in BANDWIDTHS:
                    rivals = {a: _rival_variant(value, a, bandwidth)["auc"] for a in RIVALS}
                    subject = _variant(value, GEN_LRA, k, bandwidth)["auc"]
                    point = (size, epsilon, rho, k, bandwidth)
                    self.comparisons[point] = compare_with_rivals(subject, rivals)
                    self.judged[point] = clears
        family = [p for p in self.comparisons if self.judged[p]]
        settled = settle([self.comparisons[p] for p in family], alpha=ALPHA, method=METHOD)
        self.settled: dict[SimPoint, Settled] = dict(zip(family, settled, strict=True))

    def coverage(self, epsilon: float, rho: float, size: int) -> float:
        return float(np.mean(self.values[simulation_key(epsilon, rho, size)]["coverage"]))

    def verdict(self, point: SimPoint) -> str:
        """``leads``, ``trails``, ``inside``, ``unjudged`` (ceiling in the band) or ``not_run``."""
        if point not in self.comparisons:
            return "not_run"
        if point not in self.settled:
            return "unjudged"
        return self.settled[point].verdict

    def lead(self, point: SimPoint) -> tuple[float, tuple[float, float], int]:
        """Gen-LRA − the strongest rival: mean, 95 % t interval, seeds Gen-LRA was higher."""
        comparison = self.comparisons[point]
        strongest = comparison.comparisons[comparison.strongest]
        return strongest.mean, strongest.interval, strongest.wins


def _interval(low: float, high: float) -> str:
    return f"[{_signed(low)}, {_signed(high)}]"


VERDICT_TEXT: dict[str, Text] = {
    "leads": _text("모든 경쟁 공격을 잡음 이상으로 앞선다", "leads every rival beyond the noise"),
    "trails": _text(
        "어떤 경쟁 공격에 잡음 이상으로 뒤진다", "trails at least one rival beyond the noise"
    ),
    "inside": _text(
        "잡음 안에 있다 (앞서지도 뒤지지도 않는다)",
        "is inside the noise (neither ahead nor behind)",
    ),
    "unjudged": _text(
        "판정하지 않는다 (천장이 우연 범위 안에 있다)",
        "is not judged (the ceiling lies inside the chance band)",
    ),
    "not_run": _text(
        f"실행하지 않았다 (k = {max(KS)}에는 합성 기록 "
        f"{RECORDS_PER_NEIGHBOUR * max(KS)}개 이상이 필요하다)",
        f"was not run (k = {max(KS)} needs at least {RECORDS_PER_NEIGHBOUR * max(KS)} "
        "synthetic records)",
    ),
}

NOT_RUN = _text("—", "—")


def simulation_views(sim: Simulation) -> list[dict[str, Any]]:
    """The readouts and the paired rows of every (size, ε, ρ, k, bandwidth)."""
    views = []
    spread = chance_auc_spread(SIMULATION_MEMBERS, SIMULATION_MEMBERS)
    for size in SIZES:
        for epsilon in EPSILONS:
            for rho in RHOS:
                value = sim.values[simulation_key(epsilon, rho, size)]
                coverage = sim.coverage(epsilon, rho, size)
                for k in KS:
                    for bandwidth in BANDWIDTHS:
                        point = (size, epsilon, rho, k, bandwidth)
                        verdict = sim.verdict(point)
                        readouts: dict[str, Any] = {
                            "coverage": coverage,
                            "ceiling": 0.5 + 0.5 * coverage,
                            "ceiling_closed": 0.5 + 0.5 * value["expected"],
                            "tpr_ceiling": tpr_ceiling(coverage, SWEEP_FPR),
                            "chance_high": 0.5 + CHANCE_SPREADS * spread,
                            "verdict": VERDICT_TEXT[verdict],
                            "dcr_auc": float(np.mean(_variant(value, "dcr", None, None)["auc"])),
                        }
                        rows: list[dict[str, Any]] = []
                        if verdict == "not_run":
                            readouts.update(
                                gen_lra_auc=NOT_RUN,
                                rival_attack=NOT_RUN,
                                rival_auc=NOT_RUN,
                                lead=NOT_RUN,
                                lead_interval=NOT_RUN,
                                wins=NOT_RUN,
                            )
                        else:
                            comparison = sim.comparisons[point]
                            mean, (low, high), wins = sim.lead(point)
                            seeds = len(EVIDENCE_SEEDS)
                            readouts.update(
                                gen_lra_auc=comparison.subject_mean,
                                rival_attack=NAMES[comparison.strongest],
                                rival_auc=comparison.rival_means[comparison.strongest],
                                lead=mean,
                                lead_interval=_interval(low, high),
                                wins=_text(f"{seeds}개 가운데 {wins}개", f"{wins} of {seeds}"),
                            )
                            rows = paired_rows(sim, point)
                        views.append(
                            {
                                "where": {
                                    "size": size,
                                    "epsilon": epsilon,
                                    "rho": rho,
                                    "k": k,
                                    "bandwidth": bandwidth,
                                },
                                "readouts": readouts,
                                "datasets": {"paired": rows},
                            }
                        )
    return views


def paired_rows(sim: Simulation, point: SimPoint) -> list[dict[str, Any]]:
    """Gen-LRA − each rival at one setting: the forest plot's rows."""
    comparison = sim.comparisons[point]
    settled = sim.settled.get(point)
    rows = []
    for attack, paired in comparison.comparisons.items():
        if settled is None:
            verdict = "unjudged"
        elif settled.adjusted[attack] > ALPHA:
            verdict = "inside"
        else:
            verdict = "higher" if paired.mean > 0 else "lower"
        rows.append(
            {
                "attack": attack,
                "mean": _number(paired.mean),
                "low": _number(paired.interval[0]),
                "high": _number(paired.interval[1]),
                "wins": paired.wins,
                "losses": paired.losses,
                "verdict": verdict,
            }
        )
    return rows


def attack_size_rows(sim: Simulation) -> list[dict[str, Any]]:
    """Every attack's mean AUC and TPR at FPR 1 % at each release size (the ceiling charts)."""
    rows = []
    for epsilon in EPSILONS:
        for rho in RHOS:
            for size in SIZES:
                value = sim.values[simulation_key(epsilon, rho, size)]
                for variant in value["variants"]:
                    row = {
                        "epsilon": epsilon,
                        "rho": rho,
                        "size": size,
                        "attack": variant["attack"],
                        "auc": _number(np.mean(variant["auc"])),
                        "tpr": _number(np.mean(variant["tpr"])),
                    }
                    if variant["k"] is not None:
                        row["k"] = variant["k"]
                    if variant["bandwidth"] is not None:
                        row["bandwidth"] = variant["bandwidth"]
                    rows.append(row)
    return rows


def ceiling_rows(sim: Simulation) -> list[dict[str, Any]]:
    """The AUC and TPR ceilings of each (ε, ρ, size): measured (mean and range) and closed form."""
    rows = []
    for epsilon in EPSILONS:
        for rho in RHOS:
            for size in SIZES:
                value = sim.values[simulation_key(epsilon, rho, size)]
                coverage = np.asarray(value["coverage"])
                rows.append(
                    {
                        "epsilon": epsilon,
                        "rho": rho,
                        "size": size,
                        "auc": _number(0.5 + 0.5 * coverage.mean()),
                        "auc_low": _number(0.5 + 0.5 * coverage.min()),
                        "auc_high": _number(0.5 + 0.5 * coverage.max()),
                        "auc_closed": _number(0.5 + 0.5 * value["expected"]),
                        "tpr": _number(tpr_ceiling(float(coverage.mean()), SWEEP_FPR)),
                        "tpr_closed": _number(tpr_ceiling(value["expected"], SWEEP_FPR)),
                    }
                )
    return rows


def heat_rows(sim: Simulation) -> list[dict[str, Any]]:
    """Every setting's verdict and Gen-LRA's mean lead over the strongest rival (the map)."""
    rows = []
    for epsilon in EPSILONS:
        for k in KS:
            for bandwidth in BANDWIDTHS:
                for rho in RHOS:
                    for size in SIZES:
                        point = (size, epsilon, rho, k, bandwidth)
                        row: dict[str, Any] = {
                            "epsilon": epsilon,
                            "k": k,
                            "bandwidth": bandwidth,
                            "rho": rho,
                            "size": size,
                            "verdict": sim.verdict(point),
                        }
                        if point in sim.comparisons:
                            row["lead"] = _number(sim.lead(point)[0], 2)
                        rows.append(row)
    return rows


def headline(sim: Simulation) -> dict[str, Any]:
    """The simulation's findings, as readouts the same on every point."""
    judged = list(sim.settled)
    verdicts = [sim.settled[p].verdict for p in judged]
    best = max(judged, key=lambda p: (sim.lead(p)[0], -judged.index(p)))
    mean, (low, high), _ = sim.lead(best)
    size, epsilon, rho, k, bandwidth = best
    exact = [p for p in judged if p[2] == 0.0 and p[3] == KS[0] and p[4] == BANDWIDTHS[0]]
    shortfalls = []
    for size_, epsilon_, rho_, _, _ in exact:
        dcr = np.mean(
            _variant(sim.values[simulation_key(epsilon_, rho_, size_)], "dcr", None, None)["auc"]
        )
        shortfalls.append(0.5 + 0.5 * sim.coverage(epsilon_, rho_, size_) - float(dcr))
    records = size * SIMULATION_MEMBERS
    where = f"|S| = {records:,}, ε = {epsilon:g}, ρ = {rho:g}, k = {k}, {bandwidth:g}×"
    return {
        "seeds": len(EVIDENCE_SEEDS),
        "judged_settings": len(judged),
        "unjudged_settings": sum(not j for j in sim.judged.values()),
        "leads_count": verdicts.count("leads"),
        "trails_count": verdicts.count("trails"),
        "inside_count": verdicts.count("inside"),
        "comparisons": len(judged) * len(RIVALS),
        "best_lead": mean,
        "best_lead_where": where,
        "best_lead_interval": _interval(low, high),
        "best_lead_verdict": VERDICT_TEXT[sim.settled[best].verdict],
        "dcr_shortfall": max(abs(s) for s in shortfalls),
    }


# --- Real and private generators --------------------------------------------------------------


class Generators:
    """The real generators' study values, judged: Gen-LRA against every rival per setting."""

    def __init__(self, study: Mapping[str, Any]) -> None:
        self.values = {key: study[STUDY.key({"experiment": key})] for key in GENERATORS}
        self.comparisons = {
            key: compare_with_rivals(value["auc"][GEN_LRA], {a: value["auc"][a] for a in RIVALS})
            for key, value in self.values.items()
        }
        settled = settle(list(self.comparisons.values()), alpha=ALPHA, method=METHOD)
        self.settled = dict(zip(self.comparisons, settled, strict=True))

    def runs(self, metric: str) -> list[dict[str, float]]:
        """Each run's value of every attack (``auc`` or ``tpr0``), for first places."""
        return [
            {a: value[metric][a][i] for a in ATTACK_KEYS}
            for value in self.values.values()
            for i in range(len(GENERATOR_EVIDENCE_SEEDS))
        ]


def _best(values: Mapping[str, float]) -> str:
    return max(values, key=lambda a: (values[a], -list(values).index(a)))


def generator_rows(gens: Generators) -> list[dict[str, Any]]:
    """One point per (data, setting): utility (mean and range) and the strongest attack's AUC."""
    rows = []
    for key, (data, setting) in GENERATORS.items():
        value = gens.values[key]
        means = {a: float(np.mean(value["auc"][a])) for a in ATTACK_KEYS}
        strongest = _best(means)
        rows.append(
            {
                "data": data,
                "setting": setting.key,
                "family": setting.family,
                "utility": _number(np.mean(value["utility"])),
                "utility_low": _number(min(value["utility"])),
                "utility_high": _number(max(value["utility"])),
                "baseline": _number(np.mean(value["baseline"])),
                "risk": _number(means[strongest]),
                "risk_attack": strongest,
            }
        )
    return rows


GENERATOR_VERDICT: dict[str, Text] = {
    "leads": _text("앞섬", "leads"),
    "trails": _text("뒤짐", "trails"),
    "inside": _text("잡음 안", "inside the noise"),
}


def generator_table(gens: Generators, data: str) -> list[dict[str, Any]]:
    """The table of one data set's settings: utility, the strongest attack, Gen-LRA's verdict."""
    rows = []
    for setting in SETTINGS:
        key = generator_key(data, setting.key)
        value, comparison = gens.values[key], gens.comparisons[key]
        low, high = comparison.comparisons[comparison.strongest].interval
        rows.append(
            {
                "setting": _text(setting.label_ko, setting.label_en),
                "utility": float(np.mean(value["utility"])),
                "rival": NAMES[comparison.strongest],
                "rival_auc": comparison.rival_means[comparison.strongest],
                "gen_lra_auc": comparison.subject_mean,
                "lead": _interval(low, high),
                "verdict": GENERATOR_VERDICT[gens.settled[key].verdict],
            }
        )
    return rows


ROC_SHOWN: tuple[float, ...] = ROC_FPRS
"""The FPRs at which the ROC chart draws each attack's mean curve."""


def roc_rows(gens: Generators, data: str, epsilon: float) -> list[dict[str, Any]]:
    """Each attack's mean ROC on the private generator at ``epsilon``, and the region's edges."""
    value = gens.values[generator_key(data, f"dp-bayes-net-{epsilon:g}")]
    rows: list[dict[str, Any]] = []
    for item in value["dp"]:
        rows += [
            {"attack": item["attack"], "fpr": fpr, "tpr": _number(tpr)}
            for fpr, tpr in zip(ROC_FPRS, item["tpr"], strict=True)
        ]
    return rows


REGION_FPRS: tuple[float, ...] = tuple(np.round(np.linspace(0, 1, 21), 3).tolist())
"""Where the ε-DP region's edges are drawn, besides their two corners (the edges are straight
between those)."""


def region_rows() -> list[dict[str, Any]]:
    """The edges of the ε-DP region for replacing one record, for every ε of the grid."""
    rows = []
    for epsilon in DP_EPSILONS:
        guarantee = group_epsilon(epsilon, REPLACEMENT_STEPS)
        corner = 1.0 / (1.0 + math.exp(guarantee))  # where the upper edge bends
        # Rounded first, so that each edge is computed at the FPR the row shows.
        for fpr in sorted({chart_number(f, 6) for f in (*REGION_FPRS, corner, 1.0 - corner)}):
            upper = float(tpr_bound(fpr, guarantee))
            lower = 1.0 - float(tpr_bound(1.0 - fpr, guarantee))
            rows.append(
                {
                    "dp_epsilon": epsilon,
                    "fpr": fpr,
                    "upper": _number(upper),
                    "lower": _number(lower),
                }
            )
    return rows


def dp_rows(gens: Generators, data: str) -> list[dict[str, Any]]:
    """Per ε: the bound drawn, the largest ε lower bound of any attack, and how far any mean
    ROC went outside the region (0 when none did)."""
    rows = []
    for epsilon in DP_EPSILONS:
        value = gens.values[generator_key(data, f"dp-bayes-net-{epsilon:g}")]
        guarantee = group_epsilon(epsilon, REPLACEMENT_STEPS)
        excess = max(region_excess(item["tpr"], guarantee) for item in value["dp"])
        rows.append(
            {
                "epsilon": epsilon,
                "guarantee": guarantee,
                "bound": max(item["bound"] for item in value["dp"]),
                "excess": max(0.0, excess),
                "utility": float(np.mean(value["utility"])),
            }
        )
    return rows


def dp_headline(gens: Generators) -> dict[str, Any]:
    """How many (data, ε, attack) stay inside the region, and the largest bound."""
    checked = inside = inside_strict = 0
    largest = 0.0
    for data in REAL_DATA:
        for epsilon in DP_EPSILONS:
            for item in gens.values[generator_key(data, f"dp-bayes-net-{epsilon:g}")]["dp"]:
                checked += 1
                inside += item["bound"] <= group_epsilon(epsilon, REPLACEMENT_STEPS)
                inside_strict += item["bound"] <= epsilon
                largest = max(largest, item["bound"])
    return {
        "dp_checked": checked,
        "dp_inside": inside,
        "dp_inside_strict": inside_strict,
        "dp_largest_bound": largest,
    }


def claims_rows(gens: Generators) -> list[dict[str, Any]]:
    """The authors' benchmark beside this build's, row by row."""
    auc = first_place_shares(gens.runs("auc"))
    tpr0 = first_place_shares(gens.runs("tpr0"))
    runs = len(gens.runs("auc"))
    most_auc = _best(auc)
    families = len({setting.family for setting in SETTINGS})
    verdicts = [s.verdict for s in gens.settled.values()]
    report = AUTHORS_REPORT

    def percent(value: float) -> str:
        return f"{100 * value:.0f} %"

    return [
        {
            "quantity": _text("데이터 세트", "Data sets"),
            "authors": f"{report['datasets']:.0f}",
            "site": _text("2 (콘크리트, 주택)", "2 (concrete, housing)"),
        },
        {
            "quantity": _text("생성기", "Generators"),
            "authors": _text(
                f"{report['generators']:.0f}종 (GAN, VAE, 확산 모델 등)",
                f"{report['generators']:.0f} (GANs, VAEs, diffusion, …)",
            ),
            "site": _text(
                f"{families}종, 설정 {len(SETTINGS)}개",
                f"{families} families, {len(SETTINGS)} settings",
            ),
        },
        {
            "quantity": _text("실행 (설정 × 시드)", "Runs (settings × seeds)"),
            "authors": f"{report['configurations']:,.0f}",
            "site": f"{runs}",
        },
        {
            "quantity": _text("Gen-LRA가 AUC 1위인 실행", "Runs where Gen-LRA is first by AUC"),
            "authors": _text(
                f"{percent(report['first_auc'])} 이상", f"over {percent(report['first_auc'])}"
            ),
            "site": percent(auc[GEN_LRA]),
        },
        {
            "quantity": _text(
                "Gen-LRA가 FPR 0의 TPR 1위인 실행", "Runs where Gen-LRA is first by TPR at FPR 0"
            ),
            "authors": percent(report["first_tpr0"]),
            "site": percent(tpr0[GEN_LRA]),
        },
        {
            "quantity": _text("AUC 1위를 가장 자주 한 공격", "Attack most often first by AUC"),
            "authors": "Gen-LRA",
            "site": _text(
                f"{NAMES[most_auc]['ko']} ({percent(auc[most_auc])})",
                f"{NAMES[most_auc]['en']} ({percent(auc[most_auc])})",
            ),
        },
        {
            "quantity": _text(
                "Gen-LRA가 잡음 이상으로 앞선 설정 (짝지은 비교, Holm)",
                "Settings where Gen-LRA leads beyond the noise (paired, Holm)",
            ),
            "authors": _text("보고 없음", "not reported"),
            "site": _text(
                f"{len(verdicts)}개 가운데 {verdicts.count('leads')}개",
                f"{verdicts.count('leads')} of {len(verdicts)}",
            ),
        },
    ]


def design_readouts() -> dict[str, Any]:
    """The sizes of the experiments, as the sentences that describe them name them."""
    concrete, housing = real_split("concrete", 1), real_split("housing", 1)
    columns = sorted({2, concrete.members.shape[1], housing.members.shape[1]})
    return {
        "members": SIMULATION_MEMBERS,
        "columns": f"{columns[0]}–{columns[-1]}",
        "concrete_part": concrete.members.shape[0],
        "concrete_test": concrete.test.shape[0],
        "housing_rows": sum(len(rows) for rows in housing.rows.values()),
        "housing_part": housing.members.shape[0],
        "real_k": REAL_DATA_K,
    }


def generator_headline(gens: Generators) -> dict[str, Any]:
    auc = first_place_shares(gens.runs("auc"))
    verdicts = [s.verdict for s in gens.settled.values()]
    return {
        "gen_first_share": auc[GEN_LRA],
        "authors_first_share": AUTHORS_REPORT["first_auc"],
        "gen_settings": len(verdicts),
        "gen_settings_led": verdicts.count("leads"),
        "gen_settings_trailed": verdicts.count("trails"),
        "generator_seeds": len(GENERATOR_EVIDENCE_SEEDS),
    }


def summarize(
    results: Mapping[str, Any], study: Mapping[str, Any]
) -> dict[str, list[dict[str, Any]]]:
    """Every verdict, chart row and readout, from the study (the grid computes nothing)."""
    del results
    sim = Simulation(study)
    gens = Generators(study)
    views = simulation_views(sim)
    views.append(
        {
            "where": {},
            "readouts": {
                **headline(sim),
                **generator_headline(gens),
                **dp_headline(gens),
                **design_readouts(),
            },
        }
    )
    for data in REAL_DATA:
        views.append(
            {
                "where": {"data": data},
                "datasets": {"generators": generator_table(gens, data), "dp": dp_rows(gens, data)},
            }
        )
        for epsilon in DP_EPSILONS:
            views.append(
                {
                    "where": {"data": data, "dp_epsilon": epsilon},
                    "datasets": {"roc": roc_rows(gens, data, epsilon)},
                }
            )
    return {
        "point_views": views,
        "sizes": attack_size_rows(sim),
        "ceilings": ceiling_rows(sim),
        "heat": heat_rows(sim),
        "risk": generator_rows(gens),
        "region": region_rows(),
        "claims": claims_rows(gens),
    }


def compute(**point: Any) -> dict[str, Any]:
    """Nothing: every number of a point is a view of the study (see the module docstring)."""
    del point
    return {"readouts": {}, "datasets": {}}


# --- What the page shows -----------------------------------------------------------------------

GRID = Grid(
    (
        Param(
            "size",
            SIZES,
            4,
            _text("공개본 크기 |S|", "Release size |S|"),
            value_labels={
                lang: tuple(f"{m * SIMULATION_MEMBERS:,} ({m}×)" for m in SIZES)
                for lang in ("ko", "en")
            },
            widget="choice",
        ),
        Param("epsilon", EPSILONS, 0.4, _text("과적합 강도 ε", "Overfitting ε")),
        Param("rho", RHOS, 0.1, _text("기억 규모 ρ", "Memorization scale ρ")),
        Param("k", KS, 20, _text("이웃 수 k", "Neighbours k"), widget="choice"),
        Param(
            "bandwidth",
            BANDWIDTHS,
            1.0,
            _text("대역폭 (실버먼 배수)", "Bandwidth (× Silverman)"),
            value_labels={lang: tuple(f"{m:g}×" for m in BANDWIDTHS) for lang in ("ko", "en")},
        ),
        Param(
            "data",
            REAL_DATA,
            "concrete",
            _text("데이터", "Data"),
            value_labels={"ko": ("콘크리트", "주택"), "en": ("Concrete", "Housing")},
        ),
        Param(
            "dp_epsilon",
            DP_EPSILONS,
            1.0,
            _text("생성기의 ε (차등 개인정보보호)", "Generator's ε (DP)"),
        ),
    )
)

STUDY = Grid(
    (
        Param(
            "experiment",
            (*SIMULATIONS, *GENERATORS),
            next(iter(SIMULATIONS)),
            _text("실험", "Experiment"),
        ),
    )
)


LAZY: tuple[str, ...] = ("paired", "roc")
"""Per-point rows loaded when a control first needs them, not with the page."""


def _readout(name: str, ko: str, en: str, format: str = "", **options: Any) -> Readout:
    return Readout(name, _text(ko, en), format, from_summary=True, **options)


READOUTS: tuple[Readout, ...] = (
    _readout(
        "coverage",
        "한 번 이상 복사된 포함 표본의 비율 P",
        "Share of members copied at least once, P",
        ".0%",
    ),
    _readout(
        "ceiling", "이 공개본들의 AUC 천장 (평균)", "AUC ceiling of these releases (mean)", ".3f"
    ),
    _readout(
        "ceiling_closed",
        "복사 모형의 닫힌 식이 주는 천장",
        "Ceiling from the copying model's closed form",
        ".3f",
    ),
    _readout("tpr_ceiling", "FPR 1 %에서 TPR의 천장", "Ceiling of the TPR at FPR 1 %", ".1%"),
    _readout("chance_high", "우연 범위의 위 끝", "Top of the chance band", ".3f"),
    _readout("dcr_auc", "DCR의 평균 AUC", "DCR's mean AUC", ".3f"),
    _readout("gen_lra_auc", "Gen-LRA의 평균 AUC", "Gen-LRA's mean AUC", ".3f"),
    _readout("rival_attack", "평균 AUC가 가장 높은 경쟁 공격", "Rival with the highest mean AUC"),
    _readout("rival_auc", "그 경쟁 공격의 평균 AUC", "That rival's mean AUC", ".3f"),
    _readout(
        "lead",
        "Gen-LRA − 그 경쟁 공격 (시드별 차이의 평균)",
        "Gen-LRA − that rival (mean of per-seed differences)",
        "+.3f",
    ),
    _readout("lead_interval", "그 차이의 95 % t 구간", "95 % t interval of that difference"),
    _readout("wins", "Gen-LRA가 더 높았던 시드", "Seeds where Gen-LRA was higher"),
    _readout("verdict", "이 설정의 판정", "This setting's verdict", announce=True),
    _readout("seeds", "설정마다의 시드 수", "Seeds per setting", "d"),
    _readout("judged_settings", "판정한 설정 수", "Settings judged", "d"),
    _readout(
        "unjudged_settings",
        "천장이 우연 범위 안이라 판정하지 않은 설정 수",
        "Settings not judged (ceiling in the chance band)",
        "d",
    ),
    _readout("leads_count", "Gen-LRA가 앞선 설정 수", "Settings where Gen-LRA leads", "d"),
    _readout("trails_count", "Gen-LRA가 뒤진 설정 수", "Settings where Gen-LRA trails", "d"),
    _readout("inside_count", "잡음 안인 설정 수", "Settings inside the noise", "d"),
    _readout("comparisons", "함께 보정한 비교의 수", "Comparisons corrected together", ",d"),
    _readout("best_lead", "가장 큰 평균 앞섬", "Largest mean lead", "+.3f"),
    _readout("best_lead_where", "그 설정", "Its setting"),
    _readout("best_lead_interval", "그 앞섬의 95 % 구간", "95 % interval of that lead"),
    _readout("best_lead_verdict", "그 설정의 판정", "That setting's verdict"),
    _readout(
        "dcr_shortfall",
        "정확한 복사본에서 DCR과 천장의 가장 큰 차이",
        "Largest gap between DCR and the ceiling on exact copies",
        ".3f",
    ),
    _readout(
        "gen_first_share",
        "실제 생성기에서 Gen-LRA가 AUC 1위인 실행의 비율",
        "Share of real-generator runs where Gen-LRA is first by AUC",
        ".0%",
    ),
    _readout(
        "authors_first_share",
        "저자들이 보고한 같은 비율",
        "The same share as the authors report it",
        ".0%",
    ),
    _readout(
        "gen_settings",
        "실제 생성기 설정 수 (두 데이터)",
        "Real-generator settings (both data sets)",
        "d",
    ),
    _readout(
        "gen_settings_led",
        "그 가운데 Gen-LRA가 앞선 설정",
        "Of those, settings where Gen-LRA leads",
        "d",
    ),
    _readout(
        "gen_settings_trailed",
        "그 가운데 Gen-LRA가 뒤진 설정",
        "Of those, settings where Gen-LRA trails",
        "d",
    ),
    _readout("members", "시뮬레이션의 포함 표본 수", "Members in the simulation", "d"),
    _readout("columns", "열의 수 (시뮬레이션과 두 데이터)", "Columns (simulation and both data)"),
    _readout("concrete_part", "콘크리트의 포함 표본 수", "Concrete members (and non-members)", "d"),
    _readout("concrete_test", "콘크리트의 시험 기록 수", "Concrete test records", "d"),
    _readout("housing_rows", "주택 데이터의 실제 기록 수", "Real housing rows", "d"),
    _readout(
        "housing_part", "주택 분할의 각 부분 크기", "Rows in each part of a housing split", "d"
    ),
    _readout("real_k", "실제 데이터에서 Gen-LRA의 k", "Gen-LRA's k on the real data", "d"),
    _readout("generator_seeds", "생성기 설정마다의 시드 수", "Seeds per generator setting", "d"),
    _readout(
        "dp_checked", "확인한 (데이터, ε, 공격) 조합", "(data, ε, attack) combinations checked", "d"
    ),
    _readout(
        "dp_inside",
        "경험적 ε 하한이 2ε 이하인 조합",
        "Combinations whose empirical ε lower bound is at most 2ε",
        "d",
    ),
    _readout(
        "dp_inside_strict",
        "경험적 ε 하한이 ε 이하인 조합",
        "Combinations whose empirical ε lower bound is at most ε",
        "d",
    ),
    _readout("dp_largest_bound", "가장 큰 경험적 ε 하한", "Largest empirical ε lower bound", ".2f"),
)


def _column(field: str, ko: str, en: str, format: str = "") -> Column:
    return Column(field, _text(ko, en), format)


TABLES: tuple[Table, ...] = (
    Table(
        "generators",
        (
            _column("setting", "생성기 설정", "Generator setting"),
            _column("utility", "효용 R²", "Utility R²", ".2f"),
            _column("rival", "가장 강한 경쟁 공격", "Strongest rival"),
            _column("rival_auc", "그 AUC", "Its AUC", ".3f"),
            _column("gen_lra_auc", "Gen-LRA AUC", "Gen-LRA AUC", ".3f"),
            _column("lead", "차이의 95 % 구간", "95 % interval of the difference"),
            _column("verdict", "판정 (Holm)", "Verdict (Holm)"),
        ),
        _text(
            f"생성기 설정마다 시드 {len(GENERATOR_EVIDENCE_SEEDS)}개의 평균과 "
            "Gen-LRA − 가장 강한 경쟁 공격",
            f"Each generator setting, mean of {len(GENERATOR_EVIDENCE_SEEDS)} seeds, and "
            "Gen-LRA − the strongest rival",
        ),
        row_headers=True,
    ),
    Table(
        "dp",
        (
            _column("epsilon", "ε", "ε", "g"),
            _column("guarantee", "그린 영역의 2ε", "2ε of the region drawn", "g"),
            _column("bound", "가장 큰 경험적 ε 하한", "Largest empirical ε lower bound", ".2f"),
            _column("excess", "영역 밖으로 나간 TPR", "TPR outside the region", ".3f"),
            _column("utility", "효용 R²", "Utility R²", ".2f"),
        ),
        _text(
            "차등 개인정보보호 베이즈 네트워크: 어느 공격이 영역을 넘는가",
            "The DP Bayesian network: does any attack leave the region?",
        ),
        row_headers=True,
    ),
    Table(
        "claims",
        (
            _column("quantity", "항목", "Quantity"),
            _column(
                "authors", "저자들의 보고 (검증하지 않음)", "The authors report (not verified here)"
            ),
            _column("site", "이 빌드의 측정", "This build measured"),
        ),
        _text(
            "저자들의 벤치마크와 이 빌드의 측정",
            "The authors' benchmark and this build's measurement",
        ),
        row_headers=True,
    ),
)

CHARTS = charts.make_charts(
    seeds=len(EVIDENCE_SEEDS),
    generator_seeds=len(GENERATOR_EVIDENCE_SEEDS),
    chance_high=0.5 + CHANCE_SPREADS * chance_auc_spread(SIMULATION_MEMBERS, SIMULATION_MEMBERS),
    chance_low=0.5 - CHANCE_SPREADS * chance_auc_spread(SIMULATION_MEMBERS, SIMULATION_MEMBERS),
)
