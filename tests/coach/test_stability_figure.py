"""The seed-stability figure of ``benchmarks/bench_analyze.py``: marks across four seeds, averaged over sets of four."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_analyze import four_seed_changes


def runs(*marks_by_seed: tuple[str | None, ...]) -> list[list[SimpleNamespace]]:
    return [[SimpleNamespace(mark=m) for m in marks] for marks in marks_by_seed]


def test_a_mark_that_one_seed_of_five_changes_changes_in_the_four_sets_holding_that_seed() -> None:
    # decision 0 differs under seed 4 only: 4 of the 5 sets of four seeds hold seed 4; decision 1 never changes
    five = runs(*[("mistake", None)] * 4, ("blunder", None))
    assert four_seed_changes(five, [0, 1]) == 4 / 5


def test_only_the_decisions_asked_for_are_counted_and_four_seeds_are_one_set() -> None:
    four = runs(("mistake", None), ("mistake", "inaccuracy"), ("mistake", None), ("mistake", None))
    assert four_seed_changes(four, [0, 1]) == 1.0
    assert four_seed_changes(four, [0]) == 0.0
