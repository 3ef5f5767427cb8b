"""The match database: ``MatchStore`` over an embedded DuckDB file.

The JSON logs stay the source of truth; the database is a cache of what
``validate`` and ``score`` say about them, laid out for questions across many
matches (docs/database.md lists every table and column).

* :class:`MatchStore` opens (or creates) a database and ingests checked
  matches: :meth:`MatchStore.ingest` takes what ``logs.load`` yields, scores
  it as ``score`` does (``scorecard.score_match``), and bulk-loads the
  rows through Arrow, one transaction per batch. A match already stored with the same content is skipped; one whose
  content changed is reported and left alone unless ``replace=True``; an
  invalid match stores nothing.
* :func:`rebuild` recreates a database from the logs into a new file and
  swaps it in only when it is complete.
* :func:`run_query` runs one read-only ``SELECT`` in a sandbox: the file
  opened read-only, no file or network access, no extensions, the
  configuration locked, no Python variables visible, a timeout and a row
  limit.
* :meth:`MatchStore.export_parquet` writes every table as Parquet,
  partitioned by month (hive style); :meth:`MatchStore.bgstats_plays` gives
  finished matches as BG Stats plays.

Every failure to open, read or write the database raises a
:class:`DatabaseError` with a one-line message saying what to do; the CLI
turns it into exit code 3.
"""

from __future__ import annotations

import datetime as _dt
import errno
import os
import re
import shutil
import threading
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
from typing_extensions import Self

from ..core.cards import ALL_COLOURS, GOLDEN_INDEX, JOKER_INDEX, KIND_INDEX, PLUS2_INDEX
from ..core.engine import Take
from ..core.errors import ColorettoLogError
from ..log.load import LoadedMatch, Unreadable
from ..report.scorecard import score_match

__all__ = [
    "APP",
    "DEFAULT_DB",
    "ENV_DB",
    "SCHEMA_VERSION",
    "TABLES",
    "Column",
    "DatabaseError",
    "DatabaseLocked",
    "IngestEvent",
    "IngestSummary",
    "MatchStore",
    "QueryError",
    "QueryResult",
    "default_db_path",
    "rebuild",
    "run_query",
]

APP = "coloretto-log"
SCHEMA_VERSION = 1
DEFAULT_DB = "coloretto.duckdb"
ENV_DB = "COLORETTO_DB"
#: Matches are committed in batches of about this many games (one transaction each).
BATCH_GAMES = 2000
META_TABLE = "coloretto_meta"
#: DuckDB's buffer pool when writing: it caches what it has written up to its limit, so an
#: ingest of a million games would otherwise grow with the file.
WRITE_MEMORY_LIMIT = "256MB"


def default_db_path() -> Path:
    """``$COLORETTO_DB`` when set, else ``coloretto.duckdb`` in the current folder."""
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)


# --------------------------------------------------------------------------- errors


class DatabaseError(ColorettoLogError):
    """The database cannot be opened, read or written; the message says what to do."""


class DatabaseLocked(DatabaseError):
    """Another process holds the database's lock."""


class QueryError(ColorettoLogError):
    """A ``query`` refused by the sandbox, wrong, or stopped at its timeout."""


_REBUILD_HINT = "recreate it from the logs with `coloretto-log ingest --rebuild LOGS...`"


def _one_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _db_error(path: Path, exc: BaseException, *, writing: bool = False) -> DatabaseError:
    """One line for what went wrong with the database file, and what to do."""
    text = _one_line(exc)
    low = text.lower()
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        low = "no space left on device"
    if "could not set lock" in low or "conflicting lock" in low:
        pid = re.search(r"\(PID (\d+)\)", text)
        who = f"another process (PID {pid.group(1)})" if pid else "another process"
        return DatabaseLocked(f"{path}: the database is in use by {who}; wait for it to finish and try again")
    if "not a valid duckdb database" in low:
        return DatabaseError(f"{path}: not a DuckDB database (a foreign or damaged file); use another --db, or {_REBUILD_HINT}")
    if "corrupt" in low or "checksum" in low:
        return DatabaseError(f"{path}: the database file is damaged ({text}); {_REBUILD_HINT}")
    if "does not exist" in low and "read-only" in low:
        return DatabaseError(f"{path}: no such database; create it with `coloretto-log ingest LOGS...`")
    if any(s in low for s in ("no space left", "disk full", "file too large", "disk quota")):
        return DatabaseError(
            f"{path}: the disk is full; what was being written was not kept (the database is as it was "
            "before this batch); free some space and run the command again"
        )
    if "permission denied" in low:
        return DatabaseError(f"{path}: permission denied; check the file's and its folder's permissions")
    if "serialization" in low or "version" in low and "storage" in low:
        return DatabaseError(f"{path}: written by an incompatible DuckDB version; {_REBUILD_HINT}")
    action = "write" if writing else "read"
    return DatabaseError(f"{path}: cannot {action} the database: {text}")


# --------------------------------------------------------------------------- schema


class Column(NamedTuple):
    """One column of a table: name, DuckDB type, Arrow type, meaning (docs/database.md)."""

    name: str
    sql: str
    arrow: pa.DataType
    doc: str


_STR = pa.string()
_I32 = pa.int32()
_BOOL = pa.bool_()
_STRS = pa.list_(pa.string())


def _colour_columns(prefix: str, doc: str) -> tuple[Column, ...]:
    return tuple(Column(f"{prefix}{c}", "INTEGER", _I32, doc.format(colour=c)) for c in ALL_COLOURS)


#: Every table, its columns in order. docs/database.md documents each one.
TABLES: dict[str, tuple[Column, ...]] = {
    "matches": (
        Column("match_id", "VARCHAR NOT NULL", _STR, "the log's `id`, or `sha256-` and 16 hex digits of its canonical JSON"),
        Column("content_hash", "VARCHAR NOT NULL", _STR, "SHA-256 of the match's canonical JSON: same hash, same content"),
        Column("date", "DATE", pa.date32(), "the log's `date`; NULL when absent"),
        Column("edition", "VARCHAR NOT NULL", _STR, "`classic` or `anniversary`"),
        Column("scoring", "VARCHAR NOT NULL", _STR, "`standard` or `alternative`"),
        Column("games_planned", "INTEGER NOT NULL", _I32, "`rules.games`"),
        Column("under_last_round", "INTEGER NOT NULL", _I32, "cards under the last-round card (the rule in force)"),
        Column("players", "VARCHAR[] NOT NULL", _STRS, "player names in seat order"),
        Column("n_players", "INTEGER NOT NULL", _I32, "number of players"),
        Column("seed", "UBIGINT", pa.uint64(), "the match seed; NULL for a recorded match"),
        Column("source_file", "VARCHAR NOT NULL", _STR, "the log file it was read from (`<stdin>` for standard input)"),
        Column("source_line", "INTEGER", _I32, "its line in a `.jsonl` file; NULL for a `.json` file"),
        Column("games_played", "INTEGER NOT NULL", _I32, "games in the log"),
        Column("games_complete", "INTEGER NOT NULL", _I32, "games finished (the ones scored)"),
        Column("complete", "BOOLEAN NOT NULL", _BOOL, "every planned game is present and finished"),
        Column("winners", "VARCHAR[]", _STRS, "players with the highest total over the complete games; NULL unless the match is complete"),
    ),
    "games": (
        Column("match_id", "VARCHAR NOT NULL", _STR, "the match"),
        Column("game", "INTEGER NOT NULL", _I32, "game number in the match, from 1"),
        Column("n_players", "INTEGER NOT NULL", _I32, "number of players"),
        Column("complete", "BOOLEAN NOT NULL", _BOOL, "the last round ended after the last-round card came out"),
        Column("seeded", "BOOLEAN NOT NULL", _BOOL, "the deck order is known (match seed or `setup.deck`)"),
        Column("removed", "VARCHAR[] NOT NULL", _STRS, "colours removed at setup"),
        Column("first_seat", "INTEGER NOT NULL", _I32, "seat of the first player (from 0)"),
        Column("first_player", "VARCHAR NOT NULL", _STR, "name of the first player"),
        Column("rounds", "INTEGER NOT NULL", _I32, "rounds played (begun, for an unfinished game)"),
        Column("moves", "INTEGER NOT NULL", _I32, "moves played"),
        Column("winners", "VARCHAR[]", _STRS, "players with the best score (several on a tie); NULL for an unfinished game"),
        Column("top_score", "INTEGER", _I32, "the best score; NULL for an unfinished game"),
    ),
    "game_players": (
        Column("match_id", "VARCHAR NOT NULL", _STR, "the match"),
        Column("game", "INTEGER NOT NULL", _I32, "game number, from 1"),
        Column("seat", "INTEGER NOT NULL", _I32, "seat, from 0, in the order of the match's `players`"),
        Column("player", "VARCHAR NOT NULL", _STR, "player name"),
        Column("n_players", "INTEGER NOT NULL", _I32, "number of players"),
        Column("turn", "INTEGER NOT NULL", _I32, "place in the first round's turn order: 1 for the first player"),
        *_colour_columns("", "{colour} cards held at the end (starting card included); NULL when {colour} is not in play"),
        Column("jokers", "INTEGER NOT NULL", _I32, "plain jokers held"),
        Column("golden_jokers", "INTEGER NOT NULL", _I32, "golden jokers held (anniversary)"),
        Column("plus2", "INTEGER NOT NULL", _I32, '"+2" cards held'),
        Column("complete", "BOOLEAN NOT NULL", _BOOL, "the game is finished; every column below is NULL when it is not"),
        Column("score", "INTEGER", _I32, "the optimal score (the score `score` reports)"),
        Column("rank", "INTEGER", _I32, "1 for the best score; tied players share a rank, the next is skipped"),
        Column("win", "BOOLEAN", _BOOL, "rank 1 (a shared win included)"),
        Column("shared_win", "BOOLEAN", _BOOL, "rank 1 together with another player"),
        Column("joker_colours", "VARCHAR[]", _STRS, "the optimal assignment's colour for each joker, edition order"),
        Column("positive", "VARCHAR[]", _STRS, "the optimal assignment's positive colours, edition order"),
        *_colour_columns(
            "points_", "signed points {colour} scores in the optimal assignment (0 when not held); NULL when not in play"
        ),
        Column("plus2_points", "INTEGER", _I32, 'points from "+2" cards'),
        Column("claimed_score", "INTEGER", _I32, "the score the log claims; NULL when none"),
        Column("claimed_jokers", "VARCHAR[]", _STRS, "the claimed joker colours; NULL when none"),
        Column("claimed_positive", "VARCHAR[]", _STRS, "the claimed positive colours; NULL when none"),
        Column(
            "verdict",
            "VARCHAR",
            _STR,
            "`agrees`, `under-claimed`, `over-claimed`, `illegal-choice`, `choice-below-optimum`, "
            "`choice-not-claimed` or `no-claim` (as `score` reports)",
        ),
    ),
    "match_players": (
        Column("match_id", "VARCHAR NOT NULL", _STR, "the match"),
        Column("seat", "INTEGER NOT NULL", _I32, "seat, from 0"),
        Column("player", "VARCHAR NOT NULL", _STR, "player name"),
        Column("n_players", "INTEGER NOT NULL", _I32, "number of players"),
        Column("games_counted", "INTEGER NOT NULL", _I32, "complete games, the ones the total adds up"),
        Column("total", "INTEGER NOT NULL", _I32, "sum of the player's scores over the complete games"),
        Column("rank", "INTEGER NOT NULL", _I32, "rank by total (ties share a rank)"),
        Column("win", "BOOLEAN", _BOOL, "rank 1 in a complete match; NULL while the match is not complete"),
    ),
    "moves": (
        Column("match_id", "VARCHAR NOT NULL", _STR, "the match"),
        Column("game", "INTEGER NOT NULL", _I32, "game number, from 1"),
        Column("move", "INTEGER NOT NULL", _I32, "move number in the game, from 1"),
        Column("round", "INTEGER NOT NULL", _I32, "round number, from 1"),
        Column("seat", "INTEGER NOT NULL", _I32, "seat of the player who moved, from 0"),
        Column("player", "VARCHAR NOT NULL", _STR, "player name"),
        Column("action", "VARCHAR NOT NULL", _STR, "`draw` or `take`"),
        Column("row", "INTEGER NOT NULL", _I32, "row number, from 1"),
        Column("card", "VARCHAR", _STR, "the card drawn (NULL for a take, or a recorded draw whose card is unknown)"),
        Column("extra", "VARCHAR", _STR, "a take of the golden joker's row: the extra card taken from the deck"),
        Column("last_round", "BOOLEAN NOT NULL", _BOOL, "the last-round card came out just before this card"),
    ),
}

#: The Arrow tables ingest builds: the tables' own columns, except for moves, whose
#: action / card / extra are derived in SQL from a ``take`` flag and the card turned over.
_ARROW_SCHEMAS: dict[str, pa.Schema] = {
    name: pa.schema([pa.field(c.name, c.arrow) for c in cols]) for name, cols in TABLES.items()
}
_ARROW_SCHEMAS["moves"] = pa.schema(
    [
        pa.field("match_id", pa.dictionary(_I32, _STR)),  # indices: the match's position in the batch
        pa.field("game", _I32),
        pa.field("move", _I32),
        pa.field("round", _I32),
        pa.field("seat", _I32),
        pa.field("player", pa.dictionary(_I32, _STR)),  # indices into the batch's player names
        pa.field("row", _I32),
        pa.field("take", _BOOL),
        pa.field("cx", _STR),  # the card a draw places, or the extra card of a take
        pa.field("last_round", _BOOL),
    ]
)
#: How each table's rows are selected from its Arrow table ``{view}``.
_INSERT_SELECT: dict[str, str] = {
    name: "SELECT " + ", ".join(f'"{c.name}"' for c in cols) + " FROM {view}" for name, cols in TABLES.items()
}
_INSERT_SELECT["moves"] = (
    "SELECT match_id::VARCHAR, game, move, round, seat, player::VARCHAR, "
    "CASE WHEN take THEN 'take' ELSE 'draw' END, row, "
    "CASE WHEN take THEN NULL ELSE cx END, CASE WHEN take THEN cx END, "
    "coalesce(last_round, false) FROM {view}"
)
#: Integer columns without NULLs are filled as ``array('i')`` and handed to Arrow without a copy.
assert array("i").itemsize == 4, "array('i') must hold 32-bit integers"


#: Tables holding one match's rows, the matches table last (rows are deleted in this order).
_CHILD_TABLES = ("games", "game_players", "match_players", "moves")


def schema_sql() -> list[str]:
    """The ``CREATE TABLE`` statements of the schema."""
    out = [f"CREATE TABLE {META_TABLE} (key VARCHAR NOT NULL, value VARCHAR NOT NULL)"]
    for name, cols in TABLES.items():
        body = ",\n  ".join(f'"{c.name}" {c.sql}' for c in cols)
        out.append(f"CREATE TABLE {name} (\n  {body}\n)")
    return out


# --------------------------------------------------------------------------- ingest: events and summary


@dataclass(frozen=True, slots=True)
class IngestEvent:
    """What happened to one match (or one unreadable file) during ingest.

    ``kind``: ``stored``, ``replaced``, ``skipped`` (same content already
    stored), ``changed`` (stored with other content, left alone), ``invalid``
    (the findings say why; nothing stored) or ``unreadable``.
    """

    kind: str
    label: str
    match_id: str | None = None
    games: int = 0
    loaded: LoadedMatch | None = None  # invalid matches: the checked match, for its findings
    message: str = ""  # unreadable: why; changed: where the stored one came from


@dataclass
class IngestSummary:
    """Counts of one ingest run."""

    stored: int = 0
    replaced: int = 0
    skipped: int = 0
    changed: int = 0
    invalid: int = 0
    unreadable: int = 0
    games: int = 0  # games stored or replaced
    batches: int = 0  # transactions committed

    def add(self, event: IngestEvent) -> None:
        setattr(self, event.kind, getattr(self, event.kind) + 1)
        if event.kind in ("stored", "replaced"):
            self.games += event.games

    def as_json(self) -> dict[str, int]:
        return asdict(self)


# --------------------------------------------------------------------------- ingest: rows


class _Rows:
    """One table's rows of a batch: row tuples (in the Arrow schema's order), turned into one Arrow table."""

    __slots__ = ("name", "rows")

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: list[tuple[Any, ...]] = []

    def arrow(self) -> pa.Table:
        schema = _ARROW_SCHEMAS[self.name]
        columns = list(zip(*self.rows)) if self.rows else [()] * len(schema)
        return pa.Table.from_arrays(
            [pa.array(col, type=f.type) for col, f in zip(columns, schema)], schema=schema
        )


class _Moves:
    """The moves of a batch, column by column: integer columns as ``array('i')``, passed to Arrow without a copy."""

    __slots__ = ("cols", "match_ids", "players")

    INTS = ("match_id", "game", "move", "round", "seat", "player", "row")

    def __init__(self) -> None:
        self.cols: dict[str, Any] = {name: array("i") for name in self.INTS}
        self.cols.update(take=[], cx=[], last_round=[])
        self.match_ids: list[str] = []  # the dictionary of the match_id column
        self.players: list[str] = []  # the dictionary of the player column

    def arrow(self) -> pa.Table:
        schema = _ARROW_SCHEMAS["moves"]
        c = self.cols
        arrays = []
        for f in schema:
            values = c[f.name]
            if f.name == "match_id":
                arrays.append(pa.DictionaryArray.from_arrays(_i32(values), pa.array(self.match_ids, type=_STR)))
            elif f.name == "player":
                arrays.append(pa.DictionaryArray.from_arrays(_i32(values), pa.array(self.players, type=_STR)))
            elif f.name in self.INTS:
                arrays.append(_i32(values))
            else:
                arrays.append(pa.array(values, type=f.type))
        return pa.Table.from_arrays(arrays, schema=schema)


def _i32(values: array[int]) -> pa.Array:
    """An ``array('i')`` (4 bytes an item on CPython) as an Arrow int32 array over the same buffer."""
    return pa.Array.from_buffers(_I32, len(values), [None, pa.py_buffer(values)])


@dataclass
class _Batch:
    """The rows of the matches of one transaction, and the events to report once it is written."""

    tables: dict[str, _Rows] = field(default_factory=lambda: {name: _Rows(name) for name in TABLES if name != "moves"})
    moves: _Moves = field(default_factory=_Moves)
    ids: set[str] = field(default_factory=set)
    to_delete: list[str] = field(default_factory=list)  # stored matches this batch replaces
    events: list[IngestEvent] = field(default_factory=list)
    games: int = 0


def _append_match(batch: _Batch, item: LoadedMatch, match_id: str, digest: str) -> None:
    """Add the rows of one valid match to ``batch`` (row tuples in the order of ``_ARROW_SCHEMAS``).

    The figures are ``score``'s (:func:`scorecard.score_match`): scores,
    ranks, winners, totals; the verdicts are the games' own
    (``GameRecord.verdicts``).
    """
    report = item.report
    match, rules = report.match, report.rules
    assert match is not None and rules is not None
    scored = score_match(item)
    players = report.players
    n = len(players)
    t = batch.tables
    games_rows, player_rows = t["games"].rows, t["game_players"].rows
    mv = batch.moves
    cols = mv.cols
    mi = len(mv.match_ids)
    mv.match_ids.append(match_id)
    first_name = len(mv.players)
    mv.players.extend(players)

    for record, game in zip(report.games, scored.games):
        setup, final = record.setup, record.final
        assert setup is not None and final is not None
        g = record.number
        # moves, column-wise: Draw and Take share their layout (seat, row, card or extra, last_round)
        moves = record.moves
        k = len(moves)
        if k:
            seats, rows, cx, lrs = zip(*moves)
            is_take = [type(m) is Take for m in moves]
            before = list(accumulate(is_take, initial=0))  # rows taken before each move
            cols["match_id"].extend(_repeat(mi, k))
            cols["game"].extend(_repeat(g, k))
            cols["move"].extend(range(1, k + 1))
            cols["round"].extend([1 + b // n for b in before[:k]])
            cols["seat"].extend(seats)
            cols["player"].extend([first_name + s for s in seats])
            cols["row"].extend(rows)
            cols["take"].extend(is_take)
            cols["cx"].extend(cx)
            cols["last_round"].extend(lrs)

        first = setup.first
        in_play = [c in game.colours for c in ALL_COLOURS]
        complete = game.complete
        winners = game.winners()
        games_rows.append((
            match_id, g, n, complete, record.seeded, game.removed, first, players[first],
            final.round if k else 0, k,
            winners if complete else None, max(p.score for p in game.players) if complete else None,
        ))
        judged = record.verdicts() if complete else None
        shared = len(winners) > 1
        for p in game.players:
            seat, counts = p.seat, p.counts
            held = (
                match_id, g, seat, p.player, n, (seat - first) % n + 1,
                *[counts[i] if play else None for i, play in zip(_COLOUR_KINDS, in_play)],
                counts[JOKER_INDEX], counts[GOLDEN_INDEX], counts[PLUS2_INDEX], complete,
            )
            if judged is None:
                player_rows.append((*held, *_NO_SCORE))
                continue
            v = judged[seat]
            a = p.optimal
            points = {row.colour: row.points for row in a.breakdown}
            claim = v.claim
            won = p.rank == 1
            player_rows.append((
                *held,
                a.score, p.rank, won, won and shared, a.jokers, a.positive,
                *[points.get(c, 0) if play else None for c, play in zip(ALL_COLOURS, in_play)],
                a.plus2_points,
                None if claim is None else claim.score,
                None if claim is None else claim.jokers,
                None if claim is None else claim.positive,
                v.status,
            ))

    complete_match = scored.complete
    counted = scored.games_counted
    t["match_players"].rows.extend(
        (match_id, s.seat, s.player, n, counted, s.total, s.rank, s.rank == 1 if complete_match else None)
        for s in scored.standings
    )
    t["matches"].rows.append((
        match_id, digest, _dt.date.fromisoformat(match.date) if match.date else None, rules.edition.name,
        rules.table.name, rules.games, rules.under, players, n, match.seed, item.file, item.line,
        len(report.games), counted, complete_match, scored.winners() if complete_match else None,
    ))


def _repeat(value: int, k: int) -> array[int]:
    return array("i", (value,)) * k


_COLOUR_KINDS = tuple(KIND_INDEX[c] for c in ALL_COLOURS)
#: The score columns of a game_players row of an unfinished game: all NULL.
_NO_SCORE = (None,) * (6 + len(ALL_COLOURS) + 5)


def _digest_key(digest: str) -> int:
    return int(digest[:16], 16)


def match_identity(item: LoadedMatch) -> tuple[str, str]:
    """A valid match's id (``report.match_id``) and content hash (``report.content_hash``)."""
    report = item.report
    match_id, digest = report.match_id, report.content_hash
    assert match_id is not None and digest is not None  # a valid match is a JSON object
    return match_id, digest


# --------------------------------------------------------------------------- the store


class MatchStore:
    """A coloretto-log database: open with :meth:`open`, close with :meth:`close` (or ``with``)."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, *, read_only: bool) -> None:
        self.path = path
        self.con = con
        self.read_only = read_only

    # ---- opening

    @classmethod
    def open(cls, path: str | Path | None = None, *, read_only: bool = False, create: bool = True) -> MatchStore:
        """Open the database at ``path`` (default :func:`default_db_path`), creating it if allowed.

        Raises :class:`DatabaseError` for a locked, damaged, foreign or
        missing file.
        """
        db = Path(path) if path is not None else default_db_path()
        if (read_only or not create) and not db.exists():
            raise DatabaseError(f"{db}: no such database; create it with `coloretto-log ingest LOGS...`")
        if db.exists() and not db.is_file():
            raise DatabaseError(f"{db}: not a regular file")
        config: dict[str, str | bool | int | float | list[str]] = {
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        }
        if not read_only:
            config["memory_limit"] = WRITE_MEMORY_LIMIT
        try:
            con = duckdb.connect(str(db), read_only=read_only, config=config)
        except (duckdb.Error, OSError) as e:
            raise _db_error(db, e) from None
        store = cls(db, con, read_only=read_only)
        try:
            store._check_schema()
        except BaseException:
            con.close()
            raise
        return store

    def _check_schema(self) -> None:
        try:
            names = {r[0] for r in self.con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
            if not names and not self.read_only:
                self._create_schema()
                return
            if META_TABLE not in names:
                raise DatabaseError(
                    f"{self.path}: a DuckDB database, but not one made by coloretto-log; use another --db, or {_REBUILD_HINT}"
                )
            meta = dict(self.con.execute(f"SELECT key, value FROM {META_TABLE}").fetchall())
        except duckdb.Error as e:
            raise _db_error(self.path, e) from None
        if meta.get("app") != APP:
            raise DatabaseError(f"{self.path}: a DuckDB database, but not one made by coloretto-log; use another --db")
        version = meta.get("schema_version")
        if version != str(SCHEMA_VERSION):
            raise DatabaseError(
                f"{self.path}: database schema version {version}, this coloretto-log reads version {SCHEMA_VERSION}; "
                + _REBUILD_HINT
            )
        missing = [t for t in TABLES if t not in names]
        if missing:
            raise DatabaseError(f"{self.path}: the database lacks table {missing[0]}; it is damaged; {_REBUILD_HINT}")

    def _create_schema(self) -> None:
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            for stmt in schema_sql():
                con.execute(stmt)
            con.executemany(
                f"INSERT INTO {META_TABLE} VALUES (?, ?)",
                [["app", APP], ["schema_version", str(SCHEMA_VERSION)]],
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def close(self) -> None:
        try:
            self.con.close()
        except duckdb.Error as e:  # closing checkpoints: a full disk shows here
            raise _db_error(self.path, e, writing=True) from None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- small reads

    def execute(self, sql: str, params: Any = None) -> duckdb.DuckDBPyConnection:
        """Run trusted SQL (the library's own), turning DuckDB errors into :class:`DatabaseError`."""
        try:
            return self.con.execute(sql, params)
        except duckdb.Error as e:
            raise _db_error(self.path, e) from None

    def scalar(self, sql: str, params: Any = None) -> Any:
        """The first column of the first row of trusted SQL (None when no row)."""
        row = self.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def counts(self) -> dict[str, int]:
        """Rows per table."""
        return {t: int(self.scalar(f"SELECT count(*) FROM {t}")) for t in TABLES}

    # ---- ingest

    def ingest(
        self,
        items: Iterable[LoadedMatch | Unreadable],
        *,
        replace: bool = False,
        batch_games: int = BATCH_GAMES,
        on_event: Callable[[IngestEvent], None] | None = None,
    ) -> IngestSummary:
        """Store every valid match of ``items``; one transaction per batch of about ``batch_games`` games.

        Each match is decided as it is read, against the stored ones (and
        those stored earlier in this run): same id and content, ``skipped``;
        same id, other content, ``changed`` (or ``replaced`` with
        ``replace``); else ``stored``. ``on_event`` hears of stored and
        replaced matches when their batch is written, of the others at once.
        An exception or ``KeyboardInterrupt`` rolls the current batch back and
        propagates: the batches written before it stay, and running the same
        ingest again carries on (stored matches are skipped).
        """
        if self.read_only:
            raise DatabaseError(f"{self.path}: opened read-only")
        summary = IngestSummary()

        def emit(event: IngestEvent) -> None:
            summary.add(event)
            if on_event is not None:
                on_event(event)

        known = self._stored_digests()
        batch = _Batch()
        for item in items:
            if isinstance(item, Unreadable):
                emit(IngestEvent("unreadable", item.file, message=item.message))
                continue
            report = item.report
            if not report.valid or report.match is None:
                emit(IngestEvent("invalid", item.label, report.match_id, loaded=item))
                continue
            match_id, digest = match_identity(item)
            key = _digest_key(digest)
            old = known.get(match_id)
            games = len(report.games)
            if old == key:
                emit(IngestEvent("skipped", item.label, match_id, games))
                continue
            if old is not None and not replace:
                emit(IngestEvent("changed", item.label, match_id, games, message=self._stored_source(match_id, batch)))
                continue
            if old is not None:
                if match_id in batch.ids:  # replaced twice in one batch: write the first one, then delete it
                    self._commit(batch, emit, summary)
                    batch = _Batch()
                batch.to_delete.append(match_id)
            _append_match(batch, item, match_id, digest)
            batch.ids.add(match_id)
            batch.events.append(IngestEvent("replaced" if old is not None else "stored", item.label, match_id, games))
            known[match_id] = key
            batch.games += max(1, games)
            if batch.games >= batch_games:
                self._commit(batch, emit, summary)
                batch = _Batch()
        self._commit(batch, emit, summary)
        return summary

    def _stored_digests(self) -> dict[str, int]:
        """Every stored ``match_id`` with the first 64 bits of its content hash (what ingest compares)."""
        try:
            rows = self.con.execute("SELECT match_id, content_hash FROM matches").fetchall()
        except duckdb.Error as e:
            raise _db_error(self.path, e) from None
        return {mid: _digest_key(digest) for mid, digest in rows}

    def _stored_source(self, match_id: str, batch: _Batch) -> str:
        """Where the stored (or just read) match with ``match_id`` came from: ``FILE`` or ``FILE:LINE``."""
        if match_id in batch.ids:
            return "earlier in this run"
        row = self.execute("SELECT source_file, source_line FROM matches WHERE match_id = ?", [match_id]).fetchone()
        if row is None:
            return "earlier in this run"
        return row[0] if row[1] is None else f"{row[0]}:{row[1]}"

    def _commit(self, batch: _Batch, emit: Callable[[IngestEvent], None], summary: IngestSummary) -> None:
        """Write the batch in one transaction, then report its matches."""
        if not batch.events:
            return
        self._write(batch)
        summary.batches += 1
        for event in batch.events:
            emit(event)

    def _write(self, batch: _Batch) -> None:
        """One transaction: delete the replaced matches, append every table's rows.

        Each table's rows go in with one ``INSERT ... SELECT`` over an Arrow
        table that DuckDB scans in bulk (no row-by-row inserts).
        """
        con = self.con
        views = {name: f"_ingest_{name}" for name in TABLES}
        views["delete"] = "_ingest_delete"
        arrow = {name: rows.arrow() for name, rows in batch.tables.items()}
        arrow["moves"] = batch.moves.arrow()
        to_delete = batch.to_delete
        arrow["delete"] = pa.table({"match_id": pa.array(to_delete, type=_STR)})
        try:
            for name, table in arrow.items():
                con.register(views[name], table)
            con.execute("BEGIN TRANSACTION")
            try:
                if to_delete:
                    for name in (*_CHILD_TABLES, "matches"):
                        con.execute(f"DELETE FROM {name} WHERE match_id IN (SELECT match_id FROM {views['delete']})")
                for name in (*_CHILD_TABLES, "matches"):
                    self._insert(name, views[name])
                con.execute("COMMIT")
            except BaseException:
                try:
                    con.execute("ROLLBACK")
                except duckdb.Error:
                    pass
                raise
        except duckdb.InterruptException:
            raise KeyboardInterrupt from None  # DuckDB saw the Ctrl-C first; the batch is rolled back
        except duckdb.Error as e:
            raise _db_error(self.path, e, writing=True) from None
        finally:
            for view in views.values():
                try:
                    con.unregister(view)
                except duckdb.Error:
                    pass

    def _insert(self, name: str, view: str) -> None:
        """Append one table's rows of the batch (a hook for tests that inject failures)."""
        select = _INSERT_SELECT[name].format(view=view)
        cols = ", ".join(f'"{c.name}"' for c in TABLES[name])
        self.con.execute(f"INSERT INTO {name} ({cols}) {select}")

    def checkpoint(self) -> None:
        try:
            self.con.execute("CHECKPOINT")
        except duckdb.Error as e:
            raise _db_error(self.path, e, writing=True) from None

    # ---- consistency

    def orphans(self) -> dict[str, int]:
        """Rows of child tables whose match is not stored, and stored matches missing rows (0 when consistent)."""
        out: dict[str, int] = {}
        for name in _CHILD_TABLES:
            out[name] = int(self.scalar(f"SELECT count(*) FROM {name} WHERE match_id NOT IN (SELECT match_id FROM matches)"))
        out["games_missing"] = int(
            self.scalar(
                "SELECT count(*) FROM matches m WHERE games_played <> "
                "(SELECT count(*) FROM games g WHERE g.match_id = m.match_id)"
            )
        )
        out["players_missing"] = int(
            self.scalar(
                "SELECT count(*) FROM games g WHERE n_players <> "
                "(SELECT count(*) FROM game_players p WHERE p.match_id = g.match_id AND p.game = g.game)"
            )
        )
        out["moves_missing"] = int(
            self.scalar(
                "SELECT count(*) FROM games g WHERE moves <> "
                "(SELECT count(*) FROM moves v WHERE v.match_id = g.match_id AND v.game = g.game)"
            )
        )
        return out

    # ---- export

    def export_parquet(self, folder: str | Path) -> dict[str, int]:
        """Every table as Parquet under ``folder/TABLE/month=YYYY-MM/`` (hive style); rows per table.

        ``month`` comes from the match's date (``undated`` when it has none).
        The folder must not exist or be empty; it is written beside it first
        and renamed into place when complete.
        """
        target = Path(folder)
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise DatabaseError(f"{target}: exists and is not an empty folder; choose a new folder")
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise DatabaseError(f"{parent}: no such folder")
        tmp = parent / f".{target.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        month = "coalesce(strftime(m.date, '%Y-%m'), 'undated')"
        counts: dict[str, int] = {}
        try:
            tmp.mkdir()
            for name in TABLES:
                if name == "matches":
                    source = f"SELECT m.*, {month} AS month FROM matches m"
                else:
                    source = f"SELECT t.*, {month} AS month FROM {name} t JOIN matches m USING (match_id)"
                counts[name] = int(self.scalar(f"SELECT count(*) FROM {name}"))
                out = tmp / name
                if counts[name] == 0:
                    out.mkdir()
                    continue
                path = str(out).replace("'", "''")
                self.execute(
                    f"COPY ({source}) TO '{path}' (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd)"
                )
            if target.exists():
                target.rmdir()
            os.replace(tmp, target)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            raise _db_error(target, e, writing=True) from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return counts

    def bgstats_plays(self) -> tuple[list[dict[str, Any]], int]:
        """Finished, dated matches as BG Stats plays; and how many finished matches had no date."""
        rows = self.execute(
            """
            SELECT m.match_id, m.date, m.games_planned, m.edition, m.scoring,
                   list(struct_pack(seat := p.seat, player := p.player, total := p.total, rank := p.rank) ORDER BY p.seat),
                   (SELECT first_player FROM games g WHERE g.match_id = m.match_id AND g.game = 1)
            FROM matches m JOIN match_players p USING (match_id)
            WHERE m.complete AND m.date IS NOT NULL
            GROUP BY ALL
            ORDER BY m.date, m.match_id
            """
        ).fetchall()
        undated = int(self.scalar("SELECT count(*) FROM matches WHERE complete AND date IS NULL"))
        return [_bgstats_play(*row) for row in rows], undated


def _bgstats_play(
    match_id: str, date: _dt.date, games: int, edition: str, scoring: str, players: list[dict[str, Any]], first: str | None
) -> dict[str, Any]:
    """One match in the shape of BG Stats' play import (bgstatsapp.com, "push plays")."""
    rules = f"{edition} edition, {scoring} scoring, {games} game{'s' if games != 1 else ''}"
    return {
        "sourceName": APP,
        "sourcePlayId": match_id,
        "playDate": f"{date.isoformat()} 00:00:00",
        "game": {
            "name": "Coloretto",
            "bggId": 5782,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "coloretto",
        },
        "players": [
            {
                "name": p["player"],
                "score": p["total"],
                "winner": p["rank"] == 1,
                "rank": p["rank"],
                "startPlayer": p["player"] == first,
                "sourcePlayerId": p["player"],
            }
            for p in players
        ],
        "comments": f"coloretto-log match {match_id}: {rules}",
    }


# --------------------------------------------------------------------------- rebuild


def rebuild(
    path: str | Path | None,
    items: Iterable[LoadedMatch | Unreadable],
    *,
    batch_games: int = BATCH_GAMES,
    on_event: Callable[[IngestEvent], None] | None = None,
) -> tuple[IngestSummary, dict[str, int]]:
    """Recreate the database at ``path`` from ``items``; the summary and the new database's rows per table.

    The new database is built in a temporary file beside the old one and
    renamed over it only when complete: an interrupted rebuild leaves the old
    file as it was. A damaged or foreign old file is replaced; a locked one is
    refused.
    """
    db = Path(path) if path is not None else default_db_path()
    if db.exists():
        _refuse_if_locked(db)
    tmp = db.with_name(f".{db.name}.rebuild-{os.getpid()}")
    _remove_db_files(tmp)
    try:
        with MatchStore.open(tmp) as store:
            summary = store.ingest(items, batch_games=batch_games, on_event=on_event)
            counts = store.counts()
            store.checkpoint()
        wal = Path(str(db) + ".wal")
        if wal.exists():
            wal.unlink()  # an old write-ahead log must not be replayed onto the new file
        os.replace(tmp, db)
    except BaseException:
        _remove_db_files(tmp)
        raise
    return summary, counts


def _refuse_if_locked(db: Path) -> None:
    try:
        con = duckdb.connect(str(db), read_only=False)
    except duckdb.Error as e:
        err = _db_error(db, e)
        if isinstance(err, DatabaseLocked):
            raise err from None
        return  # damaged or foreign: rebuilding is the cure
    con.close()


def _remove_db_files(db: Path) -> None:
    for p in (db, Path(str(db) + ".wal")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


# --------------------------------------------------------------------------- the query sandbox


#: What the sandbox sets before locking the configuration (docs: "Securing DuckDB").
SANDBOX_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,  # no file, network, ATTACH, COPY, INSTALL/LOAD of extensions
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "python_enable_replacements": False,  # Python variables are not tables
    "python_scan_all_frames": False,
    "memory_limit": "1GB",
    "temp_directory": "",  # no spilling to disk either
    "lock_configuration": True,  # no SET / RESET / PRAGMA changes after this
}
_ALLOWED_STATEMENTS = ("SELECT", "EXPLAIN")


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Rows of a query: column names and DuckDB types, at most ``limit`` rows, and whether more were cut."""

    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool
    seconds: float


def sandbox_connect(path: str | Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``path`` with external access off and the configuration locked."""
    db = Path(path)
    if not db.is_file():
        raise DatabaseError(f"{db}: no such database; create it with `coloretto-log ingest LOGS...`")
    try:
        con = duckdb.connect(str(db), read_only=True, config=dict(SANDBOX_CONFIG))
    except duckdb.Error as e:
        raise _db_error(db, e) from None
    return con


def run_query(path: str | Path | None, sql: str, *, limit: int = 1000, timeout: float = 10.0) -> QueryResult:
    """Run one ``SELECT`` (or ``EXPLAIN``) on the database at ``path`` in the sandbox.

    Raises :class:`QueryError` (one line) for anything else, for an error in
    the SQL, for what the sandbox refuses, and when the query runs past
    ``timeout`` seconds; :class:`DatabaseError` when the file cannot be
    opened.
    """
    db = Path(path) if path is not None else default_db_path()
    if limit < 0:
        raise QueryError("--limit must be 0 or more")
    con = sandbox_connect(db)
    try:
        MatchStore(db, con, read_only=True)._check_schema()
        return _run_sandboxed(con, sql, limit=limit, timeout=timeout)
    finally:
        try:
            con.close()
        except duckdb.Error:
            pass


def _run_sandboxed(con: duckdb.DuckDBPyConnection, sql: str, *, limit: int, timeout: float) -> QueryResult:
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as e:
        raise QueryError(_one_line(e)) from None
    if len(statements) != 1:
        raise QueryError(f"give exactly one SQL statement, not {len(statements)}")
    kind = statements[0].type.name
    if kind not in _ALLOWED_STATEMENTS:
        raise QueryError(f"only SELECT queries are allowed here, not {kind}; the database is read-only")
    timer = threading.Timer(timeout, con.interrupt)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        cur = con.execute(sql)
        rows = cur.fetchmany(limit + 1)
        description = cur.description or []
    except duckdb.InterruptException:
        raise QueryError(f"the query ran past the {timeout:g} s timeout and was stopped (--timeout)") from None
    except duckdb.Error as e:
        raise QueryError(_one_line(e)) from None
    finally:
        timer.cancel()
    truncated = len(rows) > limit
    return QueryResult(
        columns=[d[0] for d in description],
        types=[str(d[1]) for d in description],
        rows=rows[:limit],
        truncated=truncated,
        seconds=time.perf_counter() - start,
    )

