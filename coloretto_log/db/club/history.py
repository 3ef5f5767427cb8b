"""What the club's database says about the people present: who met whom lately, who started, ratings.

Read in a few queries for ``coloretto-log tables`` and ``tournament``; the
choice itself is ``club.split``'s (pure).
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ...club.names import NameProblem, check_names
from ...club.split import (
    best_split,
    choose_starters,
    meetings_of,
    repeated_pairs,
    seat_tables,
    table_sizes,
)
from ...core.errors import UsageError
from ...log.limits import MAX_NAME
from ..errors import DatabaseError, first_line
from ..store import MatchStore

__all__ = ["UNRATED", "ClubHistory", "Tonight", "club_history", "player_ratings", "seated_sizes", "tonight_tables"]

#: The rating of a person with no rated game (the start of the scale, docs/ratings.md).
UNRATED = 1000.0


@dataclass(frozen=True)
class ClubHistory:
    """The history tonight's choice weighs."""

    evenings: tuple[_dt.date, ...]  # the latest dated evenings counted for meetings, latest first
    met: dict[tuple[str, str], int]  # pairs who sat at one match on those evenings, and how often
    starts: dict[str, int]  # matches each person started (first player of the first game), all history
    shares: dict[str, float]  # each person's share of starts: 1/size for every match played, all history
    ratings: dict[str, float] = field(default_factory=dict)  # the displayed rating, when asked for


def club_history(store: MatchStore, people: Sequence[str], *, evenings: int, ratings: bool = False) -> ClubHistory:
    """The history of ``people`` in ``store``: meetings over the last ``evenings`` dated evenings, starts, ratings."""
    wanted = list(people)
    try:
        con = store.con
        days = [r[0] for r in con.execute(
            "SELECT DISTINCT date FROM matches WHERE date IS NOT NULL ORDER BY date DESC LIMIT $n", {"n": max(0, evenings)}
        ).fetchall()]  # fmt: skip
        tables = [
            [p for p in r[0] if p in wanted]
            for r in con.execute("SELECT players FROM matches WHERE list_contains($days, date)", {"days": days}).fetchall()
        ] if days else []  # fmt: skip
        starts = dict(con.execute(
            "SELECT first_player, count(*) FROM games WHERE game = 1 AND list_contains($p, first_player) GROUP BY 1",
            {"p": wanted},
        ).fetchall())  # fmt: skip
        shares = dict(con.execute(
            "SELECT player, sum(1.0 / n_players) FROM match_players WHERE list_contains($p, player) GROUP BY 1",
            {"p": wanted},
        ).fetchall())  # fmt: skip
    except duckdb.Error as e:
        raise DatabaseError(f"{store.path}: cannot read the club's history: {first_line(e)}") from None
    return ClubHistory(
        evenings=tuple(days),
        met=meetings_of(tables),
        starts={p: int(n) for p, n in starts.items()},
        shares={p: float(s) for p, s in shares.items()},
        ratings=player_ratings(store) if ratings else {},
    )


def player_ratings(store: MatchStore) -> dict[str, float]:
    """Every rated player's displayed rating (``ratings``' default model; stored when fresh, else computed)."""
    from ..ratings.model import Options
    from ..ratings.report import ratings_table

    return {row.player: row.rating for row in ratings_table(store, Options()).rows}


@dataclass(frozen=True)
class Tonight:
    """Tonight's tables: each in seat order, starter first; what the choice weighed."""

    tables: tuple[tuple[str, ...], ...]
    repeats: int  # pairs sitting together again who met on the evenings counted
    history: ClubHistory
    grouping: str
    seed: int


def seated_sizes(people: Sequence[str], sizes: Sequence[int]) -> tuple[int, ...]:
    """The table sizes for ``people`` (``club.split.table_sizes``); ``UsageError`` for an empty name, a name twice,
    a name too long or two that look alike (``club.names``), a count no size fits."""
    seen: set[str] = set()
    for name in people:
        if not name:
            raise UsageError("a name is empty")
        if name in seen:
            raise UsageError(f"{name!r} is named twice")
        seen.add(name)
    try:
        check_names(people, max_length=MAX_NAME)  # a name too long, or two that look alike
    except NameProblem as e:
        raise UsageError(str(e)) from None
    try:
        return table_sizes(len(people), sizes)
    except ValueError as e:
        raise UsageError(str(e)) from None


def tonight_tables(
    db: Path | None,
    people: Sequence[str],
    *,
    sizes: Sequence[int] = (3, 4, 5),
    evenings: int = 4,
    grouping: str = "none",
    seed: int = 0,
) -> Tonight:
    """Split ``people`` into tables (``club.split``), weighing the history of the database ``db``.

    ``db`` None or missing: no history (every split is as good; starters
    drawn). ``UsageError`` for a name given twice, a count no table sizes
    fit, or grouping by rating without a database.
    """
    table_size = seated_sizes(people, sizes)
    if db is not None and db.exists():
        with MatchStore.open(db, read_only=True) as store:
            history = club_history(store, people, evenings=evenings, ratings=grouping != "none")
    elif grouping != "none":
        raise UsageError(f"--mix and --by-rating read the ratings from the database; {db} does not exist")
    else:
        history = ClubHistory((), {}, {}, {})
    ranks: dict[str, float] | None = None
    if grouping != "none":
        by_rating = sorted(people, key=lambda p: (-history.ratings.get(p, UNRATED), p))
        ranks = {p: float(i) for i, p in enumerate(by_rating)}
    rng = random.Random(seed)
    split = best_split(list(people), table_size, rng, met=history.met, ranks=ranks, grouping=grouping)  # type: ignore[arg-type]
    starters = choose_starters(split.tables, history.starts, history.shares, rng)
    seated = tuple(seat_tables(split.tables, starters, rng))
    return Tonight(seated, repeated_pairs(seated, history.met), history, grouping, seed)


