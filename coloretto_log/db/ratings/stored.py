"""The ratings kept in the database, and keeping them up to date (docs/ratings.md, "Stored ratings").

The default ratings (:data:`ratings.DEFAULT_MODEL`, every finished game, no
filter) live in four tables beside the matches:

* ``rating_meta``: how they were computed (method, model, openskill version),
  how many games are rated and the last one in the rating order;
* ``rating_matches``: every match accounted for, with its content hash;
* ``rating_players``: each player's current rating;
* ``rating_history``: each player's rating after each game.

:func:`refresh` (run by ``ingest`` once its matches are written) brings them
up to date: when the new matches all come after everything rated, it rates
their games only; when an older match arrived, a stored match changed or
went away, or the method changed, it recomputes every rating. Either way in
one transaction. :func:`freshness` says whether the stored ratings are those
of the stored games; ``ratings`` uses them only then, and otherwise computes
in memory from the games (it never writes to the database it reads).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

from ..errors import db_error
from ..results import first_row, first_value
from ..store import DatabaseError, MatchStore
from .model import (
    DEFAULT_MODEL,
    HistoryRow,
    Options,
    PlayerRow,
    Rater,
    contests,
    cutoff_day,
    displayed,
    order_key,
    rank_rows,
)

__all__ = ["Freshness", "Refreshed", "freshness", "refresh", "stored_history", "stored_table"]

#: Bumped whenever the way ratings are computed changes: stored ratings of another method are recomputed.
METHOD = "2"  # 2: the rating column is 1000 + 40 (mu - 25), no longer the cautious value
OPENSKILL = version("openskill")

RATING_TABLES: dict[str, str] = {
    "rating_meta": "key VARCHAR NOT NULL, value VARCHAR NOT NULL",
    "rating_matches": "match_id VARCHAR NOT NULL, content_hash VARCHAR NOT NULL",
    "rating_players": (
        "player VARCHAR NOT NULL, rating DOUBLE NOT NULL, mu DOUBLE NOT NULL, sigma DOUBLE NOT NULL, "
        "games INTEGER NOT NULL, wins INTEGER NOT NULL, last_played DATE"
    ),
    "rating_history": (
        "position INTEGER NOT NULL, date DATE, match_id VARCHAR NOT NULL, game INTEGER NOT NULL, "
        "player VARCHAR NOT NULL, n_players INTEGER NOT NULL, score INTEGER NOT NULL, rank INTEGER NOT NULL, "
        "rating DOUBLE NOT NULL, mu DOUBLE NOT NULL, sigma DOUBLE NOT NULL"
    ),
}
_HISTORY_SCHEMA = pa.schema(
    [
        ("position", pa.int32()), ("date", pa.date32()), ("match_id", pa.string()), ("game", pa.int32()),
        ("player", pa.string()), ("n_players", pa.int32()), ("score", pa.int32()), ("rank", pa.int32()),
        ("rating", pa.float64()), ("mu", pa.float64()), ("sigma", pa.float64()),
    ]
)
_PLAYERS_SCHEMA = pa.schema(
    [
        ("player", pa.string()), ("rating", pa.float64()), ("mu", pa.float64()), ("sigma", pa.float64()),
        ("games", pa.int32()), ("wins", pa.int32()), ("last_played", pa.date32()),
    ]
)
#: History rows are written this many at a time (memory stays flat on a recompute).
FLUSH_ROWS = 200_000
_UNRATED = "SELECT match_id FROM matches ANTI JOIN rating_matches USING (match_id)"


def _fail(store: MatchStore, e: duckdb.Error, action: str) -> DatabaseError:
    """What went wrong with the stored ratings: the disk's trouble as ``db_error`` says it, else which step failed."""
    said = db_error(store.path, e, writing=action == "write")
    if type(said) is not DatabaseError or "cannot read the database" not in str(said) and "cannot write the database" not in str(said):
        return said  # a full disk, a disk error, a lock...: said with what to do
    text = str(e).strip().splitlines()
    return DatabaseError(
        f"{store.path}: cannot {action} the stored ratings ({text[0] if text else type(e).__name__}); "
        "check the file and its folder, then run the command again"
    )


# --------------------------------------------------------------------------- freshness


@dataclass(frozen=True, slots=True)
class Freshness:
    """Whether the stored ratings are those of the stored games.

    ``state``: ``fresh``; ``behind`` (new matches, all after everything
    rated: an update rates them only); ``outdated`` (an older match arrived,
    a match changed or went away, or another method: recompute); ``missing``
    (never stored). ``new_games``: finished games not yet rated.
    """

    state: str
    new_games: int = 0
    reason: str = ""
    meta: dict[str, str] | None = None

    @property
    def usable(self) -> bool:
        return self.state == "fresh"


def _meta_key(meta: dict[str, str]) -> tuple[Any, ...] | None:
    if not meta.get("last_match"):
        return None
    day = meta.get("last_date") or None
    return order_key(None if day is None else _dt.date.fromisoformat(day), meta["last_match"], int(meta["last_game"]))


def freshness(store: MatchStore) -> Freshness:
    """Compare the stored ratings with the stored matches (a few aggregate queries, no rating)."""
    con = store.con
    try:
        names = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if not set(RATING_TABLES) <= names:
            return Freshness("missing", reason="no ratings are stored in this database")
        meta = dict(con.execute("SELECT key, value FROM rating_meta").fetchall())
        wanted = {"method": METHOD, "model": DEFAULT_MODEL, "openskill": OPENSKILL}
        other = [k for k, v in wanted.items() if meta.get(k) != v]
        unrated = first_row(con.execute(
            f"SELECT count(*), coalesce(sum(games_complete), 0) FROM matches WHERE games_complete > 0 AND match_id IN ({_UNRATED})"
        ))
        assert unrated is not None
        new_games = int(unrated[1])
        if other:
            return Freshness("outdated", new_games, f"they were computed with another {other[0]}", meta)
        changed = first_row(con.execute(
            "SELECT count(*) FROM rating_matches r LEFT JOIN matches m USING (match_id) "
            "WHERE m.match_id IS NULL OR m.content_hash <> r.content_hash"
        ))
        assert changed is not None
        if changed[0]:
            return Freshness("outdated", new_games, f"{changed[0]} rated match(es) changed or went away", meta)
        if not unrated[0]:
            return Freshness("fresh", 0, "", meta)
        first = first_row(con.execute(
            f"SELECT m.date, m.match_id FROM matches m WHERE games_complete > 0 AND match_id IN ({_UNRATED}) "
            "ORDER BY m.date NULLS FIRST, m.match_id LIMIT 1"
        ))
    except duckdb.Error as e:
        raise _fail(store, e, "read") from None
    assert first is not None
    last = _meta_key(meta)
    if last is None or order_key(first[0], first[1], 1) > last:
        return Freshness("behind", new_games, f"{new_games} new game(s) not rated yet", meta)
    return Freshness("outdated", new_games, f"{new_games} new game(s), some older than the last rated one", meta)


# --------------------------------------------------------------------------- refresh


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :func:`refresh` did: ``unchanged``, ``updated`` (new games rated) or ``recomputed``."""

    action: str
    games: int  # games rated by this refresh
    total: int  # games rated in all
    reason: str = ""


def refresh(store: MatchStore) -> Refreshed:
    """Bring the stored ratings up to date with the stored games, in one transaction.

    New matches all after everything rated: rate their games only (the
    result equals a recompute). Anything else out of date: recompute all.
    Nothing to do: nothing written (matches without a finished game are
    only recorded as accounted for).
    """
    fresh = freshness(store)
    try:
        with store.transaction() as con:
            result = _refresh(con, fresh)
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        raise _fail(store, e, "write") from None
    return result


def _refresh(con: duckdb.DuckDBPyConnection, fresh: Freshness) -> Refreshed:
    options = Options()
    if fresh.state == "missing":
        for name, cols in RATING_TABLES.items():
            con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    meta = fresh.meta or {}
    if fresh.state == "fresh":
        con.execute(f"INSERT INTO rating_matches SELECT match_id, content_hash FROM matches WHERE match_id IN ({_UNRATED})")
        return Refreshed("unchanged", 0, int(meta.get("games", 0)))
    rater = Rater(DEFAULT_MODEL)
    if fresh.state == "behind":
        for player, mu, sigma, games, wins, last in con.execute(
            "SELECT player, mu, sigma, games, wins, last_played FROM rating_players"
        ).fetchall():
            rater.set_state(player, mu, sigma, games, wins, last)
        rater.contests = int(meta.get("games", 0))
        rater.last_key = _meta_key(meta)
        last_day = meta.get("last_date") or None
        rater.last_date = None if last_day is None else _dt.date.fromisoformat(last_day)
        only_new: str | None = _UNRATED
    else:
        for name in RATING_TABLES:
            con.execute(f"DELETE FROM {name}")
        only_new = None
    before = rater.contests
    # the games are read through a cursor of their own while this connection writes the history
    # (the tables read are not written here, so both see the same games)
    reader = con.cursor()
    try:
        rows: list[HistoryRow] = []
        for contest in contests(reader, options, only_new=only_new):
            rows.extend(rater.rate(contest))
            if len(rows) >= FLUSH_ROWS:
                _insert(con, "rating_history", _history_table(rows))
                rows = []
        _insert(con, "rating_history", _history_table(rows))
    finally:
        reader.close()
    con.execute("DELETE FROM rating_players")
    _insert(con, "rating_players", _players_table(rater))
    con.execute(f"INSERT INTO rating_matches SELECT match_id, content_hash FROM matches WHERE match_id IN ({_UNRATED})")
    key = rater.last_key
    con.execute("DELETE FROM rating_meta")
    con.executemany(
        "INSERT INTO rating_meta VALUES (?, ?)",
        [
            ["method", METHOD],
            ["model", DEFAULT_MODEL],
            ["openskill", OPENSKILL],
            ["games", str(rater.contests)],
            ["last_date", "" if key is None or key[0] == 0 else key[1].isoformat()],
            ["last_match", "" if key is None else key[2]],
            ["last_game", "0" if key is None else str(key[3])],
        ],
    )
    action = "updated" if fresh.state == "behind" else "recomputed"
    return Refreshed(action, rater.contests - before, rater.contests, fresh.reason)


def _insert(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table) -> None:
    if table.num_rows == 0:
        return
    view = f"_ratings_{name}"
    con.register(view, table)
    try:
        con.execute(f"INSERT INTO {name} SELECT * FROM {view}")
    finally:
        con.unregister(view)


def _history_table(rows: list[HistoryRow]) -> pa.Table:
    cols = list(zip(*rows)) if rows else [()] * 10
    position, date, match_id, game, player, n, score, rank, mu, sigma = cols
    rating = [displayed(m) for m in mu]
    values = [position, date, match_id, game, player, n, score, rank, rating, mu, sigma]
    return pa.Table.from_arrays([pa.array(v, type=f.type) for v, f in zip(values, _HISTORY_SCHEMA)], schema=_HISTORY_SCHEMA)


def _players_table(rater: Rater) -> pa.Table:
    rows = [
        (name, displayed(s.rating.mu), s.rating.mu, s.rating.sigma, s.games, s.wins, s.last_date)
        for name, s in rater.players.items()
    ]
    cols: Iterable[Any] = list(zip(*rows)) if rows else [()] * 7
    return pa.Table.from_arrays([pa.array(v, type=f.type) for v, f in zip(cols, _PLAYERS_SCHEMA)], schema=_PLAYERS_SCHEMA)


# --------------------------------------------------------------------------- reading the stored ratings


def stored_table(store: MatchStore, days: int) -> tuple[list[PlayerRow], int, _dt.date | None]:
    """The ratings table from the stored ratings (they must be fresh); rated games; the latest day."""
    try:
        meta = dict(store.con.execute("SELECT key, value FROM rating_meta").fetchall())
        last = first_value(store.con.execute("SELECT max(date) FROM rating_history"))
        cutoff = cutoff_day(last, days)
        found = store.con.execute(
            """
            WITH c AS (
                SELECT player, arg_max(mu, position) AS mu, arg_max(sigma, position) AS sigma
                FROM rating_history WHERE date IS NULL OR date <= $cutoff GROUP BY player
            )
            SELECT p.player, p.mu, p.sigma, p.games, p.wins, p.last_played, c.mu, c.sigma
            FROM rating_players p LEFT JOIN c USING (player)
            """,
            {"cutoff": cutoff},
        ).fetchall()
    except duckdb.Error as e:
        raise _fail(store, e, "read") from None
    initial = displayed(Rater().model.rating().mu)
    rows = []
    for player, mu, sigma, games, wins, last_played, cmu, _csigma in found:
        now = displayed(mu)
        change = None if cutoff is None else now - (initial if cmu is None else displayed(cmu))
        rows.append((player, now, mu, sigma, games, wins, last_played, change))
    return rank_rows(rows), int(meta.get("games", 0)), last


def stored_history(store: MatchStore, players: Iterable[str]) -> list[HistoryRow]:
    """The stored rating of ``players`` after each of their games, in rating order."""
    names = list(players)
    try:
        found = store.con.execute(
            "SELECT position, date, match_id, game, player, n_players, score, rank, mu, sigma "
            "FROM rating_history WHERE list_contains($names, player) ORDER BY position, player",
            {"names": names},
        ).fetchall()
    except duckdb.Error as e:
        raise _fail(store, e, "read") from None
    return [HistoryRow(*r) for r in found]
