"""What ``coloretto-log ratings`` shows, from the stored ratings when they are fresh, else computed.

One function per question: :func:`ratings_table`, :func:`rating_history`,
:func:`predict_table`, :func:`backtest` and :func:`plot_series`. Each takes a
store opened read-only and :class:`~.ratings.Options`. The stored ratings
(``stored``) answer only for the default options and only when they are
those of the stored games; otherwise the games are rated in memory, in the
same order with the same model, and :attr:`Source.note` says why. Nothing
here writes to the database.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from ...core.errors import UsageError
from ..store import DatabaseError, MatchStore
from .model import (
    Backtest,
    HistoryRow,
    Options,
    PlayerRow,
    Prediction,
    Rater,
    contests,
    cutoff_day,
    last_date,
    predict,
)
from .stored import freshness, stored_history, stored_table

__all__ = ["RatingsTable", "Source", "backtest", "plot_series", "predict_table", "rating_history", "ratings_table"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where the figures came from: ``stored`` or ``computed``; ``note`` says why they were computed."""

    kind: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class RatingsTable:
    options: Options
    source: Source
    games: int  # contests rated
    last_date: _dt.date | None
    cutoff: _dt.date | None
    rows: list[PlayerRow]

    def as_json(self) -> dict[str, Any]:
        return {
            "options": self.options.as_json(),
            "source": self.source.kind,
            "contests": self.games,
            "last_date": None if self.last_date is None else self.last_date.isoformat(),
            "change_since": None if self.cutoff is None else self.cutoff.isoformat(),
            "players": [r.as_json() for r in self.rows],
        }


def _source(store: MatchStore, options: Options) -> Source:
    """Stored when the options are the stored ones and the stored ratings are fresh; else why not."""
    if not options.is_default:
        return Source("computed")
    fresh = freshness(store)
    if fresh.usable:
        return Source("stored")
    how = "ingest brings them up to date" if fresh.state != "missing" else "ingest stores them"
    return Source("computed", f"{fresh.reason}; rated from the games in memory ({how})")


def _run(store: MatchStore, options: Options, *, track: Sequence[str] = (), test: Backtest | None = None) -> Rater:
    """Rate every contest ``options`` selects, in order, in memory."""
    try:
        cutoff = cutoff_day(last_date(store.con, options), options.days)
        rater = Rater(options.model, cutoff=cutoff, track=track)
        for contest in contests(store.con, options):
            if test is not None:
                test.add(rater, contest)
            rater.rate(contest)
    except duckdb.Error as e:
        raise DatabaseError(f"{store.path}: cannot read the games: {str(e).strip().splitlines()[0]}") from None
    return rater


def ratings_table(store: MatchStore, options: Options) -> RatingsTable:
    """Every player's rating, best first, with games, wins, last day played and the change over ``days``."""
    source = _source(store, options)
    if source.kind == "stored":
        rows, games, last = stored_table(store, options.days)
        return RatingsTable(options, source, games, last, cutoff_day(last, options.days), rows)
    rater = _run(store, options)
    return RatingsTable(options, source, rater.contests, rater.last_date, rater.cutoff, rater.table())


def rating_history(store: MatchStore, options: Options, player: str) -> tuple[Source, list[HistoryRow]]:
    """``player``'s rating after each of their games; ``UsageError`` when they have none."""
    source = _source(store, options)
    if source.kind == "stored":
        rows = stored_history(store, [player])
    else:
        rows = _run(store, options, track=[player]).history
    if not rows:
        raise UsageError(f"no rated game of {player!r} (names are exact; see the ratings table)")
    return source, rows


def predict_table(store: MatchStore, options: Options, names: Sequence[str]) -> tuple[Source, list[Prediction]]:
    """Each named player's chance of winning a game at that table, and expected rank.

    A name with no rated game plays at the starting rating (``known`` False).
    """
    if len(names) < 2:
        raise UsageError("--predict needs at least 2 names, separated by commas")
    seen = set()
    for name in names:
        if name in seen:
            raise UsageError(f"--predict names {name!r} twice")
        seen.add(name)
    source = _source(store, options)
    rater = Rater(options.model)
    if source.kind == "stored":
        rows, _, _ = stored_table(store, options.days)
        for r in rows:
            if r.player in seen:
                rater.set_state(r.player, r.mu, r.sigma, r.games, r.wins, r.last_played)
    else:
        rater = _run(store, options)
    table = [(n, rater.state(n).rating, rater.players[n].games > 0) for n in names]
    return source, predict(rater.model, table)


def backtest(store: MatchStore, options: Options) -> Backtest:
    """Every contest predicted from the ratings before it, against the two baselines (always computed)."""
    test = Backtest()
    _run(store, options, test=test)
    return test


def plot_series(store: MatchStore, options: Options, top: int) -> tuple[Source, list[PlayerRow], list[HistoryRow]]:
    """The ``top`` best players and their history, for the picture."""
    table = ratings_table(store, options)
    best = table.rows[:top]
    names = [r.player for r in best]
    if table.source.kind == "stored":
        history = stored_history(store, names)
    else:
        history = _run(store, options, track=names).history
    return table.source, best, history
