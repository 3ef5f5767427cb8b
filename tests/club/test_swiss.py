"""club.swiss: placing points, standings and their tie-breaks by hand, and the pairing's promises."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.club.split import meetings_of, pair_key
from coloretto_log.club.swiss import (
    TableResult,
    pair_round,
    parse_points,
    placings,
    scaled_points,
    standings,
)


def test_scaled_points_by_hand() -> None:
    assert scaled_points((4, 2, 1, 0), 3) == (4, 1.5, 0)
    assert scaled_points((4, 2, 1, 0), 5) == (4, 2.5, 1.5, 0.75, 0)
    assert scaled_points((4, 2, 1, 0), 4) == (4, 2, 1, 0)
    assert scaled_points((4, 2, 1, 0), 2) == (4, 0)


def test_points_per_size_and_refusals() -> None:
    given_ = parse_points("3:3-1-0,4:5-3-1-0")
    assert given_[3] == (3, 1, 0) and given_[4] == (5, 3, 1, 0) and given_[5] == scaled_points((5, 3, 1, 0), 5)
    for bad, says in [("4-x-1-0", "numbers joined"), ("1-2-0", "more than the place before"), ("4", "at least two"),
                      ("4:4-2-1", "needs 4 places"), ("6:1-0", "2 to 5 players"), ("four:1-0", "SIZE:POINTS")]:  # fmt: skip
        with pytest.raises(ValueError, match=says):
            parse_points(bad)


def test_tied_players_share_the_places_they_cover() -> None:
    points = parse_points(None)
    assert placings({"A": 30, "B": 30, "C": 10, "D": 5}, points) == {"A": 3, "B": 3, "C": 1, "D": 0}
    assert placings({"A": 9, "B": 20, "C": 20, "D": 20}, points) == {"B": 7 / 3, "C": 7 / 3, "D": 7 / 3, "A": 0}
    assert placings({"A": 1, "B": 2, "C": 3}, points) == {"C": 4, "B": 1.5, "A": 0}


def test_standings_break_ties_by_points_against_the_table_then_opponents() -> None:
    points = parse_points(None)
    results = [
        TableResult(1, 1, {"A": 50, "B": 40, "C": 30}),  # A 4, B 1.5, C 0
        TableResult(1, 2, {"D": 45, "E": 44, "F": 10}),  # D 4, E 1.5, F 0
    ]
    lines = standings(["A", "B", "C", "D", "E", "F"], results, points)
    # A and D have 4: A is 15 above the others' average (35), D 18 (45 - 27): D first
    assert [(s.place, s.player) for s in lines[:2]] == [(1, "D"), (2, "A")]
    assert lines[0].against == 18 and lines[1].against == 15
    # B and E have 1.5; B: 40 - 40 = 0, E: 44 - 27.5 = 16.5: E ahead
    assert [s.player for s in lines[2:4]] == ["E", "B"]
    # equal on all three: a shared place
    twin = standings(["A", "B", "C", "D"], [TableResult(1, 1, {"A": 5, "B": 5, "C": 5, "D": 5})], points)
    assert {s.place for s in twin} == {1} and all(s.points == 7 / 4 for s in twin)


def test_a_second_round_of_sixteen_repeats_no_one() -> None:
    players = [f"p{i:02d}" for i in range(16)]
    rng = random.Random(3)
    first = pair_round(players, {}, {}, {}, rng, grouping="none")
    second = pair_round(players, meetings_of(first), {}, {}, rng)
    assert sorted(p for t in second for p in t) == players
    met = meetings_of(first)
    assert sum(met.get(pair_key(a, b), 0) for t in second for a, b in combinations(t, 2)) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(6, 24), st.integers(2, 5), st.integers(0, 2**32))
def test_every_round_seats_all_and_starts_stay_within_one_of_each_share(n: int, rounds: int, seed: int) -> None:
    players = [f"p{i:02d}" for i in range(n)]
    rng = random.Random(seed)
    starts: Counter[str] = Counter()
    shares: Counter[str] = Counter()
    history: list[tuple[str, ...]] = []
    results: list[TableResult] = []
    for r in range(1, rounds + 1):
        order = players if r == 1 else [s.player for s in standings(players, results, parse_points(None))]
        tables = pair_round(order, meetings_of(history), starts, shares, rng, restarts=3)
        assert sorted(p for t in tables for p in t) == players
        for t, table in enumerate(tables, 1):
            starts[table[0]] += 1
            for p in table:
                shares[p] += 1 / len(table)
            results.append(TableResult(r, t, {p: rng.randrange(60, 140) for p in table}))
        history.extend(tables)
        assert all(abs(starts[p] - shares[p]) <= 1 + 1e-9 for p in players)


def test_the_other_rankings_the_benchmark_compares_order_by_their_first_key() -> None:
    points = parse_points(None)
    results = [TableResult(1, 1, {"A": 50, "B": 40, "C": 30}), TableResult(1, 2, {"D": 45, "E": 44, "F": 10})]
    players = ["A", "B", "C", "D", "E", "F"]
    # against the table: D 18, E 16.5, A 15, B 0, C -15, F -34.5
    assert [s.player for s in standings(players, results, points, ranking="against")] == ["D", "E", "A", "B", "C", "F"]
    # points scored: A 50, D 45, E 44, B 40, C 30, F 10
    scored = standings(players, results, points, ranking="scored")
    assert [(s.player, s.scored) for s in scored] == [("A", 50), ("D", 45), ("E", 44), ("B", 40), ("C", 30), ("F", 10)]
    with pytest.raises(ValueError, match="unknown ranking"):
        standings(players, results, points, ranking="elo")
