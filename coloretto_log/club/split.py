"""Splitting the people present into tables of 3 to 5, and naming who starts at each (docs/tournament.md).

Everything here is a pure function of its arguments and a seeded
``random.Random``: the same people, history and seed give the same tables.

- :func:`table_sizes`: how many tables of which size (4 preferred, as even
  as the count allows).
- :func:`best_split`: the split with the lowest cost, where a table's cost is
  the weighted count of earlier meetings among its players plus, on request,
  how far it is from a block of neighbouring ranks (``group``) or from the
  room's average rank (``mix``). Found by local search (swap two players of
  two tables while that lowers the cost) from several seeded starts.
- :func:`choose_starters`: at each table the player furthest below their
  share of starts (a share is 1/size for every match played).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

__all__ = [
    "MAX_PEOPLE",
    "Grouping",
    "Split",
    "best_split",
    "choose_starters",
    "meetings_of",
    "pair_key",
    "repeated_pairs",
    "seat_tables",
    "starts_penalty",
    "table_sizes",
]

#: At most this many people are split (a club night, a big tournament).
MAX_PEOPLE = 200
#: Table sizes a split may use; 2 only when asked for.
ALLOWED_SIZES = (2, 3, 4, 5)

Grouping = Literal["none", "group", "mix"]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The key of an unordered pair of names (the smaller name first)."""
    return (a, b) if a < b else (b, a)


def table_sizes(n: int, sizes: Sequence[int] = (3, 4, 5), prefer: int = 4) -> tuple[int, ...]:
    """The sizes of the tables for ``n`` people, largest first.

    Among the ways to write ``n`` as a sum of allowed sizes, the one whose
    tables are closest to ``prefer`` (the sum of the differences), then the
    most even (largest minus smallest), then the fewer tables. ``ValueError``
    when there is none (fewer people than the smallest table, or a count no
    sum of the sizes reaches).
    """
    allowed = sorted(set(sizes), reverse=True)
    if not allowed or any(s not in ALLOWED_SIZES for s in allowed):
        raise ValueError(f"table sizes must be among {', '.join(map(str, ALLOWED_SIZES))}")
    if n < allowed[-1]:
        raise ValueError(f"{n} {'person' if n == 1 else 'people'}: fewer than the smallest table ({allowed[-1]})")
    if n > MAX_PEOPLE:
        raise ValueError(f"{n} people: at most {MAX_PEOPLE} are split into tables")
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None

    def walk(i: int, left: int, chosen: list[int]) -> None:
        nonlocal best
        size = allowed[i]
        if i == len(allowed) - 1:
            if left % size:
                return
            tables = (*chosen, *([size] * (left // size)))
            if not tables:
                return
            key = (sum(abs(s - prefer) for s in tables), max(tables) - min(tables), len(tables))
            if best is None or key < best[0]:
                best = (key, tables)
            return
        for count in range(left // size + 1):
            walk(i + 1, left - count * size, [*chosen, *([size] * count)])

    walk(0, n, [])
    if best is None:
        raise ValueError(f"{n} people cannot sit at tables of {' or '.join(map(str, sorted(allowed)))}")
    return tuple(sorted(best[1], reverse=True))


def meetings_of(tables: Sequence[Sequence[str]]) -> dict[tuple[str, str], int]:
    """Every pair that sat at one table, and how many times (``pair_key`` keys)."""
    out: dict[tuple[str, str], int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            key = pair_key(a, b)
            out[key] = out.get(key, 0) + 1
    return out


def repeated_pairs(tables: Sequence[Sequence[str]], met: Mapping[tuple[str, str], float]) -> int:
    """The pairs at the same table in ``tables`` that have met before (in ``met``)."""
    return sum(1 for table in tables for a, b in combinations(table, 2) if met.get(pair_key(a, b), 0) > 0)


@dataclass(frozen=True)
class Split:
    """A split: the tables (players, not yet seated) and its cost (lower is better)."""

    tables: tuple[tuple[str, ...], ...]
    cost: float


def best_split(
    players: Sequence[str],
    sizes: Sequence[int],
    rng: random.Random,
    *,
    met: Mapping[tuple[str, str], float] | None = None,
    ranks: Mapping[str, float] | None = None,
    grouping: Grouping = "none",
    repeat_weight: float = 1.0,
    restarts: int = 12,
    extra: Callable[[Sequence[str]], float] | None = None,
) -> Split:
    """The split of ``players`` into tables of ``sizes`` with the lowest cost found.

    A table's cost is ``repeat_weight`` times the sum of ``met`` over its
    pairs (earlier meetings, possibly weighted), plus the grouping term:
    ``group``: its rank range less its size minus one (0 for a block of
    neighbouring ranks); ``mix``: the distance in ranks of its average rank
    from the room's. ``ranks`` (0 the strongest) is needed for both.
    ``extra``: a further cost of a table (the tournament's starts).
    """
    if sum(sizes) != len(players):
        raise ValueError("the table sizes do not add up to the number of people")
    if len(set(players)) != len(players):
        raise ValueError("a name is given twice")
    met = met or {}
    if grouping != "none" and ranks is None:
        raise ValueError("grouping by rating needs ranks")
    rank = dict(ranks or {})
    mean_rank = sum(rank.get(p, 0.0) for p in players) / len(players)

    def cost(table: Sequence[str]) -> float:
        total = 0.0
        if met:
            for a, b in combinations(table, 2):
                total += met.get(pair_key(a, b), 0.0)
            total *= repeat_weight
        if grouping == "group":
            rs = [rank[p] for p in table]
            total += max(rs) - min(rs) - (len(table) - 1)
        elif grouping == "mix":
            total += abs(sum(rank[p] for p in table) / len(table) - mean_rank)
        if extra is not None:
            total += extra(table)
        return total

    best: Split | None = None
    for attempt in range(max(1, restarts)):
        if attempt:
            order = list(players)
            rng.shuffle(order)
            tables = _cut(order, sizes)
        else:
            tables = _first_tables(players, sizes, rank, grouping)
        _improve(tables, cost)
        found = Split(tuple(tuple(t) for t in tables), sum(cost(t) for t in tables))
        if best is None or found.cost < best.cost - 1e-9:
            best = found
        if best.cost <= 1e-9:
            break
    assert best is not None
    return best


def _first_tables(players: Sequence[str], sizes: Sequence[int], rank: Mapping[str, float], grouping: Grouping) -> list[list[str]]:
    """The first start of the search: as given, blocks of ranks (group), or the ranks dealt round by snake (mix)."""
    if grouping == "none":
        return _cut(players, sizes)
    by_rank = sorted(players, key=lambda p: (rank[p], p))
    if grouping == "group":
        return _cut(by_rank, sizes)
    tables: list[list[str]] = [[] for _ in sizes]
    forward = True
    queue = iter(by_rank)
    while any(len(t) < s for t, s in zip(tables, sizes)):
        for i in range(len(tables)) if forward else reversed(range(len(tables))):
            if len(tables[i]) < sizes[i]:
                tables[i].append(next(queue))
        forward = not forward
    return tables


def _cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    out: list[list[str]] = []
    i = 0
    for size in sizes:
        out.append(list(order[i : i + size]))
        i += size
    return out


def _improve(tables: list[list[str]], cost: Callable[[Sequence[str]], float]) -> None:
    """Swap two players of two tables while a swap lowers the total cost (first improvement)."""
    costs = [cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                ti, tj = tables[i], tables[j]
                for x in range(len(ti)):
                    for y in range(len(tj)):
                        a, b = ti[x], tj[y]
                        ti[x], tj[y] = b, a
                        ci, cj = cost(ti), cost(tj)
                        if ci + cj < costs[i] + costs[j] - 1e-9:
                            costs[i], costs[j] = ci, cj
                            improved = True
                        else:
                            ti[x], tj[y] = a, b


def choose_starters(
    tables: Sequence[Sequence[str]],
    starts: Mapping[str, float],
    shares: Mapping[str, float],
    rng: random.Random,
) -> list[str]:
    """Each table's starting player: the one furthest below their share of starts.

    ``starts``: how many matches each person started; ``shares``: the sum of
    1/size over the matches they played (what an even rotation would give).
    Tonight's match adds 1/size to every share at the table; the player
    whose starts fall furthest below that share starts, ties going to the
    fewer starts, then by the seeded draw.
    """
    out = []
    for table in tables:
        n = len(table)
        tie = {p: rng.random() for p in table}
        out.append(
            min(table, key=lambda p: (starts.get(p, 0) - shares.get(p, 0.0) - 1 / n, starts.get(p, 0), tie[p]))
        )
    return out


def starts_penalty(starts: Mapping[str, float], shares: Mapping[str, float]) -> Callable[[Sequence[str]], float]:
    """A table's cost for starts: how far, beyond one, anyone there would stray from their share once it starts.

    The starter is the one :func:`choose_starters` picks (ties aside); after
    the table, the starter's starts less share must stay at most 1, and every
    other player's at least -1. The cost is the sum of the overshoots (0 for
    a table where everyone stays within one of their share).
    """

    def cost(table: Sequence[str]) -> float:
        n = len(table)
        after = {p: starts.get(p, 0) - shares.get(p, 0.0) - 1 / n for p in table}
        starter = min(table, key=lambda p: (after[p], starts.get(p, 0)))
        over = max(0.0, after[starter] + 1 - 1)
        return over + sum(max(0.0, -1 - after[p]) for p in table if p != starter)

    return cost


def seat_tables(tables: Sequence[Sequence[str]], starters: Sequence[str], rng: random.Random) -> list[tuple[str, ...]]:
    """Each table in seat order: its starter first, the others clockwise in a seeded random order."""
    out = []
    for table, starter in zip(tables, starters):
        others = [p for p in table if p != starter]
        rng.shuffle(others)
        out.append((starter, *others))
    return out
