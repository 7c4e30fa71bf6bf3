"""How ``run_audit`` spreads its attacks over workers: by their cost, without changing a number."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from privacy_explorer.compute import audit
from privacy_explorer.compute.audit_data import EncodedTables


def encoded(targets: int, reference: int, synthetic: int) -> EncodedTables:
    half = np.zeros((targets // 2, 10))
    return EncodedTables(half, half, np.zeros((reference, 10)), np.zeros((synthetic, 10)))


def slowest_first(targets: int, reference: int, synthetic: int) -> list[str]:
    tables = encoded(targets, reference, synthetic)
    return sorted(
        audit.ATTACK_KEYS,
        key=lambda key: (
            -audit._cost(key, (5, 20), targets, tables),
            -audit.RELATIVE_COST.get(key, 0),
        ),
    )


def test_the_costliest_attacks_start_first_for_the_sizes_at_hand() -> None:
    # 10,000 rows per table: LOGAN and Gen-LRA, about 25 s each, then the forest (14 s).
    assert slowest_first(20_000, 10_000, 10_000)[:3] == ["logan", "gen_lra", "classifier"]
    # 100,000 reference rows: the forest on 110,000 records outweighs both.
    assert slowest_first(2_000, 100_000, 10_000)[0] == "classifier"


def tables(rows: int = 50) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(8)
    frames = {
        role: pd.DataFrame(rng.normal(size=(rows, 3)), columns=["a", "b", "c"])
        for role in ("members", "nonmembers", "reference", "synthetic")
    }
    frames["synthetic"].iloc[:20] = frames["members"].iloc[:20].to_numpy() + 0.01
    return frames


def audited(frames: dict[str, pd.DataFrame]) -> str:
    result = audit.run_audit(
        frames["members"],
        frames["nonmembers"],
        frames["reference"],
        frames["synthetic"],
        attacks=("gen_lra", "dcr", "mc", "classifier"),
        k=(3, 5),
        jobs=2,
        permutations=200,
    )
    return json.dumps(audit.results_json(result), sort_keys=True)


def test_the_order_of_the_attacks_changes_no_number(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = tables()
    first = audited(frames)
    # The cheapest first instead: other workers compute other attacks, the same numbers.
    monkeypatch.setattr(audit, "_cost", lambda attack, *_: -audit.RELATIVE_COST.get(attack, 0))
    assert audited(frames) == first
