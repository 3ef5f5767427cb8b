"""A Swiss tournament for tables of 3 to 5: placing points, standings and the pairing of a round.

The rules a tournament director reads are docs/tournament.md; this module is
them, as pure functions over plain values (names, tables, match totals).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from .split import best_split, choose_starters, seat_tables, starts_penalty, table_sizes

__all__ = [
    "DEFAULT_POINTS",
    "FINAL_RULES",
    "FINAL_SIZES",
    "RANKINGS",
    "Points",
    "Standing",
    "TableResult",
    "final_seats",
    "final_standings",
    "pair_round",
    "parse_points",
    "placings",
    "points_text",
    "scaled_points",
    "standings",
]

#: Placing points at a table of four; tables of three and five are scaled from it (``scaled_points``).
DEFAULT_POINTS = (4.0, 2.0, 1.0, 0.0)

#: Placing points by table size: the points of 1st, 2nd, ... place.
Points = dict[int, tuple[float, ...]]

#: The orders ``standings`` knows, each a list of keys, the first deciding (docs/design/tournament-pairing.md
#: measures them): ``placing`` (the tournament's rule), points ``against`` the table first, the points
#: ``scored`` (own match totals summed) first, and placing points then the ``opponents``' placing points.
RANKINGS: dict[str, tuple[str, ...]] = {
    "placing": ("points", "against", "opponents"),
    "against": ("against", "points", "opponents"),
    "scored": ("scored", "points", "against"),
    "opponents": ("points", "opponents", "against"),
}

#: How many players a final table seats.
FINAL_SIZES = (3, 4, 5)
#: How a final ranks its players: its result ``decides`` (the tournament's rule), or its placing points are
#: ``adds``-ed to the Swiss ones (measured beside it in docs/design/tournament-pairing.md).
FINAL_RULES = ("decides", "adds")


def scaled_points(four: Sequence[float], n: int) -> tuple[float, ...]:
    """The points of a table of ``n`` read off those of a table of ``len(four)`` by straight lines.

    Place ``k`` of ``n`` (from 0) sits at the same fraction of the way from
    first to last as a place of the given table: 4-2-1-0 becomes 4-1.5-0 for
    three players and 4-2.5-1.5-0.75-0 for five. A table of one (never
    paired) gets the first place's points.
    """
    m = len(four)
    if n == m:
        return tuple(float(x) for x in four)
    if n == 1:
        return (float(four[0]),)
    out = []
    for k in range(n):
        x = k * (m - 1) / (n - 1)
        i = min(int(x), m - 2)
        frac = x - i
        out.append(round(four[i] + (four[i + 1] - four[i]) * frac, 6))
    return tuple(out)


def parse_points(text: str | None) -> Points:
    """``--points``: ``4-2-1-0`` (a table of four; three and five scaled), or per size, ``3:3-1-0,4:4-2-1-0,5:...``.

    Points of each place are numbers (decimals allowed), from first place to
    last, none below 0 and none above the place before. ``ValueError`` with
    the reason otherwise.
    """
    base: Sequence[float]
    if text is None or not text.strip():
        base = DEFAULT_POINTS
        return {n: scaled_points(base, n) for n in range(2, 6)}
    given: Points = {}
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 1 and ":" not in parts[0]:
        base = _place_points(parts[0])
        return {n: scaled_points(base, n) for n in range(2, 6)}
    for part in parts:
        size, sep, rest = part.partition(":")
        if not sep or not size.strip().isdigit():
            raise ValueError(f"{part!r}: write SIZE:POINTS, e.g. 4:4-2-1-0")
        n = int(size)
        if not 2 <= n <= 5:
            raise ValueError(f"{part!r}: a table has 2 to 5 players")
        points = _place_points(rest)
        if len(points) != n:
            raise ValueError(f"{part!r}: a table of {n} needs {n} places' points, not {len(points)}")
        given[n] = points
    base = given.get(4) or next(iter(given.values()))
    return {n: given.get(n) or scaled_points(base, n) for n in range(2, 6)}


def _place_points(text: str) -> tuple[float, ...]:
    try:
        points = tuple(float(x) for x in text.strip().split("-"))
    except ValueError:
        raise ValueError(f"{text!r}: placing points are numbers joined by '-', e.g. 4-2-1-0") from None
    if len(points) < 2 or any(not 0 <= p <= 1000 for p in points):
        raise ValueError(f"{text!r}: at least two places' points, each 0 to 1000")
    if any(b > a for a, b in pairwise(points)):
        raise ValueError(f"{text!r}: a place cannot earn more than the place before it")
    return points


def points_text(points: Points, sizes: Sequence[int] | None = None) -> str:
    """``points`` as ``--points`` reads it back: per table size (``sizes``, default every size)."""
    return ",".join(f"{n}:{'-'.join(_num(x) for x in points[n])}" for n in sorted(points) if sizes is None or n in sizes)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def placings(totals: Mapping[str, int], points: Points) -> dict[str, float]:
    """Each player's placing points at one table, from the match totals.

    Higher total, better place. Players tied on total share the places they
    cover: each gets the average of those places' points (two tied first at
    a table of four with 4-2-1-0 get 3 each).
    """
    n = len(totals)
    table = points[n] if n in points else scaled_points(points[4], n)
    order = sorted(totals, key=lambda p: -totals[p])
    out: dict[str, float] = {}
    i = 0
    while i < n:
        j = i
        while j + 1 < n and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        share = sum(table[i : j + 1]) / (j - i + 1)
        for p in order[i : j + 1]:
            out[p] = share
        i = j + 1
    return out


@dataclass(frozen=True)
class TableResult:
    """One table's result in one round: each player's match total."""

    round: int
    table: int
    totals: Mapping[str, int]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    place: int
    player: str
    points: float  # placing points
    against: float  # Coloretto points against the table: own total less the table's average of the others', summed
    opponents: float  # the placing points of every opponent met (once per meeting), summed
    played: int  # tables with a result
    scored: float = 0.0  # own match totals, summed
    final: int | None = None  # the match total at the final table; None: not a finalist, or no final yet


def standings(
    players: Sequence[str], results: Sequence[TableResult], points: Points, *, ranking: str = "placing"
) -> list[Standing]:
    """The standings: placing points, then points against the table, then opponents' placing points.

    ``ranking`` names another order of :data:`RANKINGS` (the benchmark
    compares them). Players equal on every key share a place (and are
    listed by name).
    """
    if ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r}: one of {', '.join(RANKINGS)}")
    pts = dict.fromkeys(players, 0.0)
    against = dict.fromkeys(players, 0.0)
    scored = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    met: dict[str, list[str]] = {p: [] for p in players}
    for result in results:
        totals = result.totals
        for p, got in placings(totals, points).items():
            pts[p] = pts.get(p, 0.0) + got
        for p, total in totals.items():
            others = [totals[q] for q in totals if q != p]
            against[p] = against.get(p, 0.0) + total - (sum(others) / len(others) if others else 0.0)
            scored[p] = scored.get(p, 0.0) + total
            played[p] = played.get(p, 0) + 1
            met.setdefault(p, []).extend(q for q in totals if q != p)
    values = {"points": pts, "against": against, "scored": scored,
              "opponents": {p: sum(pts.get(q, 0.0) for q in met.get(p, [])) for p in pts}}  # fmt: skip
    keys = RANKINGS[ranking]
    key = {p: tuple(-round(values[k][p], 6) for k in keys) for p in pts}
    order = sorted(pts, key=lambda p: (key[p], p))
    out: list[Standing] = []
    for i, p in enumerate(order):
        place = out[-1].place if out and key[out[-1].player] == key[p] else i + 1
        out.append(Standing(place, p, pts[p], round(against[p], 6), values["opponents"][p], played[p], scored[p]))
    return out


def final_seats(order: Sequence[Standing], size: int) -> tuple[str, ...]:
    """The players of the final table: the first ``size`` of the standings ``order`` (as the pairing reads them).

    ``ValueError`` for a size outside :data:`FINAL_SIZES` or above the field.
    """
    if size not in FINAL_SIZES:
        raise ValueError(f"a final table seats {FINAL_SIZES[0]} to {FINAL_SIZES[-1]} players, not {size}")
    if size > len(order):
        raise ValueError(f"a final of {size} needs {size} players; the tournament has {len(order)}")
    return tuple(s.player for s in order[:size])


def final_standings(
    order: Sequence[Standing], final: Mapping[str, int], *, rule: str = "decides", points: Points | None = None
) -> list[Standing]:
    """The tournament's result after its final table: the finalists first, then everyone else in Swiss order.

    ``order``: the Swiss standings in the order the pairing reads them;
    ``final``: each finalist's match total. ``rule`` (:data:`FINAL_RULES`):
    ``decides`` places the finalists by their final's total, ``adds`` by
    their Swiss placing points plus the final's (``points``, the
    tournament's placing points); a tie either way goes to the Swiss
    standing. Finalists equal on that and on their Swiss place share a
    place; below them the Swiss places shift to follow the finalists (a
    shared Swiss place stays shared).
    """
    if rule not in FINAL_RULES:
        raise ValueError(f"unknown final rule {rule!r}: one of {', '.join(FINAL_RULES)}")
    swiss_rank = {s.player: i for i, s in enumerate(order)}
    got = placings(final, points or parse_points(None)) if rule == "adds" else {}
    value = {s.player: float(final[s.player]) if rule == "decides" else round(s.points + got[s.player], 6)
             for s in order if s.player in final}  # fmt: skip
    finalists = sorted((s for s in order if s.player in final), key=lambda s: (-value[s.player], swiss_rank[s.player]))
    out: list[Standing] = []
    for i, s in enumerate(finalists):
        prev = finalists[i - 1] if i else None
        tied = prev is not None and value[prev.player] == value[s.player] and prev.place == s.place
        out.append(replace(s, place=out[-1].place if tied else i + 1, final=final[s.player]))
    rest = [s for s in order if s.player not in final]
    for i, s in enumerate(rest):
        shared = i > 0 and rest[i - 1].place == s.place
        out.append(replace(s, place=out[-1].place if shared else len(finalists) + i + 1))
    return out


def pair_round(
    order: Sequence[str],
    met: Mapping[tuple[str, str], float],
    starts: Mapping[str, float],
    shares: Mapping[str, float],
    rng: random.Random,
    *,
    sizes: Sequence[int] = (3, 4, 5),
    grouping: str = "group",
    restarts: int = 12,
) -> list[tuple[str, ...]]:
    """The tables of one round, each in seat order with its starter first.

    ``order``: the players from first to last (the standings, or the
    ratings for round 1). Table sizes as :func:`split.table_sizes`. Among
    the splits, the fewest repeated meetings come first (a repeat costs
    more than any grouping can gain), then, with ``grouping="group"``, the
    tables closest to blocks of neighbours in ``order`` (Swiss: the leaders
    meet each other), or with ``"mix"`` tables of even average rank; with
    ``"none"`` the split ignores ``order``. Each table's starter is the
    player furthest below their share of starts (:func:`split.choose_starters`).
    """
    n = len(order)
    table_size = table_sizes(n, sizes)
    ranks = {p: float(i) for i, p in enumerate(order)}
    weight = float(n * n)  # one repeat outweighs any difference in grouping (at most about n per table)
    if grouping not in ("group", "mix", "none"):
        raise ValueError(f"unknown grouping {grouping!r}")
    starts_cost = starts_penalty(starts, shares)
    # Starts come first (docs/tournament.md, pairing step 3): a start's excess outweighs every rematch a round can
    # hold (each pair at a table met at most as often as anyone met), counted in steps as fine as 1/60 of a start.
    most_met = max(met.values(), default=0.0)
    start_weight = 60 * weight * (1 + most_met * sum(s * (s - 1) / 2 for s in table_size))
    split = best_split(
        list(order), table_size, rng, met=met, ranks=ranks, grouping=grouping,  # type: ignore[arg-type]
        repeat_weight=weight, restarts=restarts, extra=lambda table: start_weight * starts_cost(table),
    )  # fmt: skip
    tables = sorted(split.tables, key=lambda t: min(ranks[p] for p in t))
    starters = choose_starters(tables, starts, shares, rng)
    return seat_tables(tables, starters, rng)

