"""club.split: table sizes, the split search against brute force, starters by share."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.club.split import (
    best_split,
    choose_starters,
    meetings_of,
    pair_key,
    repeated_pairs,
    seat_tables,
    table_sizes,
)


@given(st.integers(3, 200))
def test_table_sizes_seat_everyone_at_three_to_five_as_even_as_can_be(n: int) -> None:
    sizes = table_sizes(n)
    assert sum(sizes) == n and all(3 <= s <= 5 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    # no other way of seating n at tables of 3 to 5 is closer to four
    assert sum(abs(s - 4) for s in sizes) == min(
        sum(abs(s - 4) for s in (5,) * a + (4,) * b + (3,) * c)
        for a in range(n // 5 + 1)
        for b in range(n // 4 + 1)
        for c in range(n // 3 + 1)
        if 5 * a + 4 * b + 3 * c == n
    )


@pytest.mark.parametrize(
    ("n", "sizes", "expected"),
    [(7, (3, 4, 5), (4, 3)), (9, (3, 4, 5), (5, 4)), (6, (3, 4, 5), (3, 3)), (2, (2, 3, 4, 5), (2,)), (5, (2, 3, 4, 5), (5,)),
     (6, (2, 3, 4, 5), (3, 3)), (10, (3, 5), (5, 5)), (8, (3, 5), (5, 3))],
)  # fmt: skip
def test_table_sizes_by_hand(n: int, sizes: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert table_sizes(n, sizes) == expected


@pytest.mark.parametrize(("n", "sizes", "says"), [(2, (3, 4, 5), "fewer than the smallest table (3)"), (1, (2, 3), "1 person"),
                                                 (7, (5,), "cannot sit at tables of 5"), (201, (3, 4, 5), "at most 200")])  # fmt: skip
def test_impossible_counts_are_refused(n: int, sizes: tuple[int, ...], says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        table_sizes(n, sizes)


def brute_force(people: Sequence[str], sizes: tuple[int, ...], met: dict[tuple[str, str], float]) -> float:
    """The lowest sum of earlier meetings over every split of ``people`` into tables of ``sizes``."""

    def cost(table: Sequence[str]) -> float:
        return sum(met.get(pair_key(a, b), 0) for a, b in combinations(table, 2))

    def walk(left: tuple[str, ...], rest: tuple[int, ...]) -> float:
        if not rest:
            return 0.0
        first, others = left[0], left[1:]
        best = float("inf")
        for mates in combinations(others, rest[0] - 1):
            table = (first, *mates)
            remaining = tuple(p for p in others if p not in mates)
            best = min(best, cost(table) + walk(remaining, rest[1:]))
        return best

    return min(walk(tuple(people), order) for order in {tuple(sorted(sizes)), tuple(sorted(sizes, reverse=True))})


@pytest.mark.parametrize("seed", range(30))
def test_the_search_finds_the_fewest_meetings_of_small_rooms(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([6, 7, 8, 9])
    people = [f"p{i}" for i in range(n)]
    history = [rng.sample(people, rng.choice([3, 4])) for _ in range(rng.randrange(2, 8))]
    met: dict[tuple[str, str], float] = dict(meetings_of(history))
    sizes = table_sizes(n)
    split = best_split(people, sizes, random.Random(seed), met=met)
    assert sorted(p for t in split.tables for p in t) == sorted(people)
    assert sorted(len(t) for t in split.tables) == sorted(sizes)
    assert split.cost == brute_force(people, sizes, met)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 40), st.integers(0, 2**32), st.sampled_from(["none", "group", "mix"]))
def test_every_split_seats_everyone_once(n: int, seed: int, grouping: str) -> None:
    people = [f"p{i}" for i in range(n)]
    rng = random.Random(seed)
    met = dict(meetings_of([rng.sample(people, min(n, 4)) for _ in range(5)]))
    ranks = {p: float(i) for i, p in enumerate(people)}
    split = best_split(people, table_sizes(n), rng, met=met, ranks=ranks, grouping=grouping, restarts=2)  # type: ignore[arg-type]
    assert sorted(p for t in split.tables for p in t) == sorted(people)
    assert repeated_pairs(split.tables, met) <= sum(1 for t in split.tables for _ in combinations(t, 2))


def test_by_rating_makes_blocks_and_mix_makes_even_tables() -> None:
    people = [f"p{i}" for i in range(8)]
    ranks = {p: float(i) for i, p in enumerate(people)}
    grouped = best_split(people, (4, 4), random.Random(1), ranks=ranks, grouping="group")
    assert sorted(sorted(t) for t in grouped.tables) == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]
    mixed = best_split(people, (4, 4), random.Random(1), ranks=ranks, grouping="mix")
    assert mixed.cost == 0 and all(sum(ranks[p] for p in t) == 14 for t in mixed.tables)


def test_the_starter_is_the_one_furthest_below_their_share() -> None:
    # Aiko started 3 of 8 matches at tables of four (share 2), Boris 1 of 8 (share 2), Chloe 0 of 2 (share 0.5)
    starts = {"Aiko": 3, "Boris": 1, "Chloe": 0}
    shares = {"Aiko": 2.0, "Boris": 2.0, "Chloe": 0.5}
    assert choose_starters([("Aiko", "Boris", "Chloe", "Dae")], starts, shares, random.Random(0)) == ["Boris"]
    # a newcomer (no history) against Chloe: both 0 below... Chloe is 0.5 below, the newcomer 0
    assert choose_starters([("Chloe", "Dae", "Emil")], starts, shares, random.Random(0)) == ["Chloe"]
    seated = seat_tables([("Chloe", "Dae", "Emil")], ["Dae"], random.Random(0))
    assert seated[0][0] == "Dae" and sorted(seated[0]) == ["Chloe", "Dae", "Emil"]
