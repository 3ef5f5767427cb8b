"""The database's layout: every table and column (docs/database.md documents each one), in one place.

``TABLES`` is the source of truth: the ``CREATE TABLE`` statements, the Arrow
schemas ingest fills and the documentation test all derive from it. A new
column is one new :class:`Column` here (and one value where ingest builds the
row, by the column's name: ``rows.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import pyarrow as pa  # type: ignore[import-untyped]

from ..core.cards import ALL_COLOURS
from ..core.ruleset import EDITIONS

__all__ = [
    "ADDED_COLUMNS",
    "APP",
    "ARROW_SCHEMAS",
    "CHILD_TABLES",
    "INSERT_SELECT",
    "LOGS_TABLE",
    "META_TABLE",
    "OLD_VERSIONS",
    "SCHEMA_VERSION",
    "TABLES",
    "Column",
    "schema_sql",
    "table_sql",
]

APP = "coloretto-log"
SCHEMA_VERSION = 2
#: The versions this coloretto-log opens: version 1 lacks ``match_logs`` (``store.MatchStore`` adds it when it
#: opens such a file for writing; read-only, it is read without the logs).
OLD_VERSIONS = ("1",)
#: The table of version 2: each match's log, so that nothing needs the original files again.
LOGS_TABLE = "match_logs"
META_TABLE = "coloretto_meta"

#: The edition column's doc, from the one table of editions (core.editions): "`classic` or `anniversary`".
_EDITIONS_DOC = " or ".join(f"`{name}`" for name in EDITIONS)
_GOLDEN_DOC = ", ".join(e.name for e in EDITIONS.values() if e.golden_jokers)


class Column(NamedTuple):
    """One column of a table: name, DuckDB type, Arrow type, meaning (docs/database.md)."""

    name: str
    sql: str
    arrow: pa.DataType
    doc: str


STR = pa.string()
I32 = pa.int32()
BOOL = pa.bool_()
BLOB = pa.binary()
STRS = pa.list_(pa.string())


def _colour_columns(prefix: str, doc: str) -> tuple[Column, ...]:
    return tuple(Column(f"{prefix}{c}", "INTEGER", I32, doc.format(colour=c)) for c in ALL_COLOURS)


#: The match's event (docs/format.md, "The event object"), columns of ``matches``.
EVENT_COLUMNS = (
    Column("event", "VARCHAR", STR, "the log's `event.name` (a club night or tournament); NULL when absent"),
    Column("event_round", "INTEGER", I32, "the log's `event.round`; NULL when absent"),
    Column("event_table", "INTEGER", I32, "the log's `event.table`; NULL when absent"),
)

#: Every table, its columns in order. docs/database.md documents each one.
TABLES: dict[str, tuple[Column, ...]] = {
    "matches": (
        Column("match_id", "VARCHAR NOT NULL", STR, "the log's `id`, or `sha256-` and 16 hex digits of its canonical JSON"),
        Column("content_hash", "VARCHAR NOT NULL", STR, "SHA-256 of the match's canonical JSON: same hash, same content"),
        Column("date", "DATE", pa.date32(), "the log's `date`; NULL when absent"),
        Column("edition", "VARCHAR NOT NULL", STR, _EDITIONS_DOC),
        Column("scoring", "VARCHAR NOT NULL", STR, "`standard` or `alternative`"),
        Column("games_planned", "INTEGER NOT NULL", I32, "`rules.games`"),
        Column("under_last_round", "INTEGER NOT NULL", I32, "cards under the last-round card (the rule in force)"),
        Column("players", "VARCHAR[] NOT NULL", STRS, "player names in seat order"),
        Column("n_players", "INTEGER NOT NULL", I32, "number of players"),
        Column("seed", "UBIGINT", pa.uint64(), "the match seed; NULL for a recorded match"),
        Column("source_file", "VARCHAR NOT NULL", STR, "the log file it was read from (`<stdin>` for standard input)"),
        Column("source_line", "INTEGER", I32, "its line in a `.jsonl` file; NULL for a `.json` file"),
        Column("games_played", "INTEGER NOT NULL", I32, "games in the log"),
        Column("games_complete", "INTEGER NOT NULL", I32, "games finished (the ones scored)"),
        Column("complete", "BOOLEAN NOT NULL", BOOL, "every planned game is present and finished"),
        Column("winners", "VARCHAR[]", STRS, "players with the highest total over the complete games; NULL unless the match is complete"),
        *EVENT_COLUMNS,
    ),
    "games": (
        Column("match_id", "VARCHAR NOT NULL", STR, "the match"),
        Column("game", "INTEGER NOT NULL", I32, "game number in the match, from 1"),
        Column("n_players", "INTEGER NOT NULL", I32, "number of players"),
        Column("complete", "BOOLEAN NOT NULL", BOOL, "the last round ended after the last-round card came out"),
        Column("seeded", "BOOLEAN NOT NULL", BOOL, "the deck order is known (match seed or `setup.deck`)"),
        Column("removed", "VARCHAR[] NOT NULL", STRS, "colours removed at setup"),
        Column("first_seat", "INTEGER NOT NULL", I32, "seat of the first player (from 0)"),
        Column("first_player", "VARCHAR NOT NULL", STR, "name of the first player"),
        Column("rounds", "INTEGER NOT NULL", I32, "rounds played (begun, for an unfinished game)"),
        Column("moves", "INTEGER NOT NULL", I32, "moves played"),
        Column("winners", "VARCHAR[]", STRS, "players with the best score (several on a tie); NULL for an unfinished game"),
        Column("top_score", "INTEGER", I32, "the best score; NULL for an unfinished game"),
    ),
    "game_players": (
        Column("match_id", "VARCHAR NOT NULL", STR, "the match"),
        Column("game", "INTEGER NOT NULL", I32, "game number, from 1"),
        Column("seat", "INTEGER NOT NULL", I32, "seat, from 0, in the order of the match's `players`"),
        Column("player", "VARCHAR NOT NULL", STR, "player name"),
        Column("n_players", "INTEGER NOT NULL", I32, "number of players"),
        Column("turn", "INTEGER NOT NULL", I32, "place in the first round's turn order: 1 for the first player"),
        *_colour_columns("", "{colour} cards held at the end (starting card included); NULL when {colour} is not in play"),
        Column("jokers", "INTEGER NOT NULL", I32, "plain jokers held"),
        Column("golden_jokers", "INTEGER NOT NULL", I32, f"golden jokers held ({_GOLDEN_DOC})"),
        Column("plus2", "INTEGER NOT NULL", I32, '"+2" cards held'),
        Column("complete", "BOOLEAN NOT NULL", BOOL, "the game is finished; every column below is NULL when it is not"),
        Column("score", "INTEGER", I32, "the optimal score (the score `score` reports)"),
        Column("rank", "INTEGER", I32, "1 for the best score; tied players share a rank, the next is skipped"),
        Column("win", "BOOLEAN", BOOL, "rank 1 (a shared win included)"),
        Column("shared_win", "BOOLEAN", BOOL, "rank 1 together with another player"),
        Column("joker_colours", "VARCHAR[]", STRS, "the optimal assignment's colour for each joker, edition order"),
        Column("positive", "VARCHAR[]", STRS, "the optimal assignment's positive colours, edition order"),
        *_colour_columns(
            "points_", "signed points {colour} scores in the optimal assignment (0 when not held); NULL when not in play"
        ),
        Column("plus2_points", "INTEGER", I32, 'points from "+2" cards'),
        Column("claimed_score", "INTEGER", I32, "the score the log claims; NULL when none"),
        Column("claimed_jokers", "VARCHAR[]", STRS, "the claimed joker colours; NULL when none"),
        Column("claimed_positive", "VARCHAR[]", STRS, "the claimed positive colours; NULL when none"),
        Column(
            "verdict",
            "VARCHAR",
            STR,
            "`agrees`, `under-claimed`, `over-claimed`, `illegal-choice`, `choice-below-optimum`, "
            "`choice-not-claimed` or `no-claim` (as `score` reports)",
        ),
    ),
    "match_players": (
        Column("match_id", "VARCHAR NOT NULL", STR, "the match"),
        Column("seat", "INTEGER NOT NULL", I32, "seat, from 0"),
        Column("player", "VARCHAR NOT NULL", STR, "player name"),
        Column("n_players", "INTEGER NOT NULL", I32, "number of players"),
        Column("games_counted", "INTEGER NOT NULL", I32, "complete games, the ones the total adds up"),
        Column("total", "INTEGER NOT NULL", I32, "sum of the player's scores over the complete games"),
        Column("rank", "INTEGER NOT NULL", I32, "rank by total (ties share a rank)"),
        Column("win", "BOOLEAN", BOOL, "rank 1 in a complete match; NULL while the match is not complete"),
    ),
    "moves": (
        Column("match_id", "VARCHAR NOT NULL", STR, "the match"),
        Column("game", "INTEGER NOT NULL", I32, "game number, from 1"),
        Column("move", "INTEGER NOT NULL", I32, "move number in the game, from 1"),
        Column("round", "INTEGER NOT NULL", I32, "round number, from 1"),
        Column("seat", "INTEGER NOT NULL", I32, "seat of the player who moved, from 0"),
        Column("player", "VARCHAR NOT NULL", STR, "player name"),
        Column("action", "VARCHAR NOT NULL", STR, "`draw` or `take`"),
        Column("row", "INTEGER NOT NULL", I32, "row number, from 1"),
        Column("card", "VARCHAR", STR, "the card drawn (NULL for a take, or a recorded draw whose card is unknown)"),
        Column("extra", "VARCHAR", STR, "a take of the golden joker's row: the extra card taken from the deck"),
        Column("last_round", "BOOLEAN NOT NULL", BOOL, "the last-round card came out just before this card"),
    ),
    LOGS_TABLE: (
        Column("match_id", "VARCHAR NOT NULL", STR, "the match"),
        Column(
            "log",
            "BLOB NOT NULL",
            BLOB,
            "the match's log as its canonical JSON (keys sorted, no spaces, UTF-8; its SHA-256 is `content_hash`), "
            "zlib-compressed: what `site` and `replay --db` replay",
        ),
    ),
}

#: Columns added to a table after its schema version was set: nullable, so a database made before
#: them gains them (``ALTER TABLE ... ADD COLUMN``) when it is first opened for writing.
ADDED_COLUMNS: dict[str, tuple[Column, ...]] = {"matches": EVENT_COLUMNS}

#: The Arrow tables ingest builds: the tables' own columns, except for moves, whose
#: action / card / extra are derived in SQL from a ``take`` flag and the card turned over.
ARROW_SCHEMAS: dict[str, pa.Schema] = {
    name: pa.schema([pa.field(c.name, c.arrow) for c in cols]) for name, cols in TABLES.items()
}
ARROW_SCHEMAS["moves"] = pa.schema(
    [
        pa.field("match_id", pa.dictionary(I32, STR)),  # indices: the match's position in the batch
        pa.field("game", I32),
        pa.field("move", I32),
        pa.field("round", I32),
        pa.field("seat", I32),
        pa.field("player", pa.dictionary(I32, STR)),  # indices into the batch's player names
        pa.field("row", I32),
        pa.field("take", BOOL),
        pa.field("cx", STR),  # the card a draw places, or the extra card of a take
        pa.field("last_round", BOOL),
    ]
)
#: How each table's rows are selected from its Arrow table ``{view}``.
INSERT_SELECT: dict[str, str] = {
    name: "SELECT " + ", ".join(f'"{c.name}"' for c in cols) + " FROM {view}" for name, cols in TABLES.items()
}
INSERT_SELECT["moves"] = (
    "SELECT match_id::VARCHAR, game, move, round, seat, player::VARCHAR, "
    "CASE WHEN take THEN 'take' ELSE 'draw' END, row, "
    "CASE WHEN take THEN NULL ELSE cx END, CASE WHEN take THEN cx END, "
    "coalesce(last_round, false) FROM {view}"
)

#: Tables holding one match's rows, the matches table last (rows are deleted in this order).
CHILD_TABLES = ("games", "game_players", "match_players", "moves", LOGS_TABLE)


def schema_sql() -> list[str]:
    """The ``CREATE TABLE`` statements of the schema."""
    return [f"CREATE TABLE {META_TABLE} (key VARCHAR NOT NULL, value VARCHAR NOT NULL)", *map(table_sql, TABLES)]


def table_sql(name: str) -> str:
    """The ``CREATE TABLE`` statement of one table."""
    body = ",\n  ".join(f'"{c.name}" {c.sql}' for c in TABLES[name])
    return f"CREATE TABLE {name} (\n  {body}\n)"
