"""The match database: :class:`MatchStore`, an embedded DuckDB file opened, checked and written in transactions.

The JSON logs stay the source of truth; the database keeps each one
(compressed, ``match_logs``) with what ``validate`` and ``score`` say about
it, laid out for questions across many matches (docs/database.md lists every
table and column).

The rooms of this package: ``schema`` (the tables), ``rows`` (a match as
rows, by column name), ``ingest`` (deciding and batching matches),
``store`` (this: opening, reading, writing a batch), ``rebuild``,
``sandbox`` (``query``), ``export`` (Parquet, BG Stats), ``stats`` (the
reports), ``match_logs`` (the kept logs read back) and ``errors`` (every
DuckDB error as one line).

Every failure to open, read or write the database raises a
:class:`DatabaseError` with a one-line message saying what to do; the CLI
turns it into exit code 3.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
from typing_extensions import Self

from .errors import (
    REBUILD_HINT,
    DatabaseError,
    DatabaseLocked,
    QueryError,
    db_error,
    refuse_foreign,
)
from .ingest.batches import (
    IngestEvent,
    IngestSummary,
    digest_key,
    ingest_items,
)
from .ingest.rows import Batch
from .paths import DEFAULT_DB, ENV_DB, default_db_path, no_database
from .results import first_row, first_value
from .schema import (
    ADDED_COLUMNS,
    APP,
    CHILD_TABLES,
    INSERT_SELECT,
    LOGS_TABLE,
    META_TABLE,
    OLD_VERSIONS,
    SCHEMA_VERSION,
    STR,
    TABLES,
    Column,
    schema_sql,
    table_sql,
)

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
    "default_db_path",
]

#: DuckDB's buffer pool when writing: it caches what it has written up to its limit, so an
#: ingest of a million games would otherwise grow with the file.
WRITE_MEMORY_LIMIT = "256MB"


class MatchStore:
    """A coloretto-log database: open with :meth:`open`, close with :meth:`close` (or ``with``)."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, *, read_only: bool) -> None:
        self.path = path
        self.con = con
        self.read_only = read_only
        #: The database keeps each match's log (schema version 2; a version-1 file opened read-only does not).
        self.has_logs = True

    # ---- opening

    @classmethod
    def open(cls, path: str | Path | None = None, *, read_only: bool = False, create: bool = True,
             wait: float = 0.0) -> MatchStore:
        """Open the database at ``path`` (default :func:`default_db_path`), creating it if allowed.

        Raises :class:`DatabaseError` for a locked, damaged, foreign or
        missing file. ``wait``: seconds to wait for another process's lock to
        be let go (tried again every few hundredths of a second) before a
        locked file is refused: two commands that each write one small
        change (``tournament result``) then take their turns.
        """
        deadline = time.monotonic() + wait
        while True:
            try:
                return cls._open(path, read_only=read_only, create=create)
            except DatabaseLocked:
                if time.monotonic() >= deadline:
                    raise
            time.sleep(0.05)

    @classmethod
    def _open(cls, path: str | Path | None, *, read_only: bool, create: bool) -> MatchStore:
        db = Path(path) if path is not None else default_db_path()
        if (read_only or not create) and not db.exists():
            raise no_database(db)
        if db.exists() and not db.is_file():
            raise no_database(db)
        refuse_foreign(db)
        if not db.exists() and not db.absolute().parent.is_dir():
            raise DatabaseError(f"{db}: the folder {db.parent} does not exist; create it first, or give another --db")
        config: dict[str, str | bool | int | float | list[str]] = {
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        }
        if not read_only:
            config["memory_limit"] = WRITE_MEMORY_LIMIT
        try:
            con = duckdb.connect(str(db), read_only=read_only, config=config)
        except (duckdb.Error, OSError) as e:
            raise db_error(db, e) from None
        store = cls(db, con, read_only=read_only)
        try:
            store.check_schema()
        except BaseException:
            con.close()
            raise
        return store

    def check_schema(self) -> None:
        """Refuse a file that is not a coloretto-log database of this schema version (create the schema in an empty one)."""
        try:
            names = {r[0] for r in self.con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
            if not names and not self.read_only:
                self._create_schema()
                return
            if META_TABLE not in names:
                raise DatabaseError(
                    f"{self.path}: a DuckDB database, but not one made by coloretto-log; use another --db, or {REBUILD_HINT}"
                )
            meta = dict(self.con.execute(f"SELECT key, value FROM {META_TABLE}").fetchall())
        except duckdb.Error as e:
            raise db_error(self.path, e) from None
        if meta.get("app") != APP:
            raise DatabaseError(f"{self.path}: a DuckDB database, but not one made by coloretto-log; use another --db")
        version = meta.get("schema_version")
        if version in OLD_VERSIONS and not self.read_only:
            self._migrate()
            names.add(LOGS_TABLE)
        elif version in OLD_VERSIONS:
            self.has_logs = False
            names.add(LOGS_TABLE)
        elif version != str(SCHEMA_VERSION):
            raise DatabaseError(
                f"{self.path}: database schema version {version}, this coloretto-log reads version {SCHEMA_VERSION}; "
                + REBUILD_HINT
            )
        missing = [t for t in TABLES if t not in names]
        if missing:
            raise DatabaseError(f"{self.path}: the database lacks table {missing[0]}; it is damaged; {REBUILD_HINT}")
        if not self.read_only:
            self._add_columns()

    def _add_columns(self) -> None:
        """Give a database made before them the columns added since (``schema.ADDED_COLUMNS``), in one transaction."""
        try:
            have = set(self.con.execute("SELECT table_name, column_name FROM duckdb_columns()").fetchall())
            to_add = [(t, c) for t, cols in ADDED_COLUMNS.items() for c in cols if (t, c.name) not in have]
            if to_add:
                with self.transaction() as con:
                    for table, col in to_add:
                        con.execute(f'ALTER TABLE {table} ADD COLUMN "{col.name}" {col.sql}')
        except duckdb.Error as e:
            raise db_error(self.path, e, writing=True) from None

    _check_schema = check_schema  # the name it had

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """One transaction: committed when the block ends, rolled back on any error or interruption."""
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            yield con
            con.execute("COMMIT")
        except BaseException:
            try:
                con.execute("ROLLBACK")
            except duckdb.Error:
                pass
            raise

    def _create_schema(self) -> None:
        with self.transaction() as con:
            for stmt in schema_sql():
                con.execute(stmt)
            con.executemany(
                f"INSERT INTO {META_TABLE} VALUES (?, ?)",
                [["app", APP], ["schema_version", str(SCHEMA_VERSION)]],
            )

    def _migrate(self) -> None:
        """Version 1 to 2, in one transaction: the table of the matches' logs, empty (``ingest`` of the same logs
        fills it: a match stored without its log is stored again with it)."""
        with self.transaction() as con:
            con.execute(table_sql(LOGS_TABLE))
            con.execute(f"UPDATE {META_TABLE} SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])

    def close(self) -> None:
        try:
            self.con.close()
        except duckdb.Error as e:  # closing checkpoints: a full disk shows here
            raise db_error(self.path, e, writing=True) from None

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
            raise db_error(self.path, e) from None

    def scalar(self, sql: str, params: Any = None) -> Any:
        """The first column of the first row of trusted SQL (None when no row)."""
        return first_value(self.execute(sql, params))

    def counts(self) -> dict[str, int]:
        """Rows per table."""
        return {t: int(self.scalar(f"SELECT count(*) FROM {t}")) if self.has_logs or t != LOGS_TABLE else 0
                for t in TABLES}

    def stored_digests(self) -> dict[str, int]:
        """Every stored ``match_id`` with the first 64 bits of its content hash (what ingest compares)."""
        try:
            rows = self.con.execute("SELECT match_id, content_hash FROM matches").fetchall()
        except duckdb.Error as e:
            raise db_error(self.path, e) from None
        return {mid: digest_key(digest) for mid, digest in rows}

    def logless(self) -> set[str]:
        """The stored matches whose log is not kept (stored by a coloretto-log before version 2 of the schema)."""
        if not self.has_logs:
            return set(self.stored_digests())
        rows = self.execute(
            f"SELECT match_id FROM matches WHERE match_id NOT IN (SELECT match_id FROM {LOGS_TABLE})"
        ).fetchall()
        return {r[0] for r in rows}

    def stored_source(self, match_id: str) -> str:
        """Where the stored match with ``match_id`` came from: ``FILE`` or ``FILE:LINE``."""
        row = first_row(self.execute("SELECT source_file, source_line FROM matches WHERE match_id = ?", [match_id]))
        if row is None:
            return "earlier in this run"
        return row[0] if row[1] is None else f"{row[0]}:{row[1]}"

    # ---- writing

    #: ``store.ingest(items, *, replace, batch_games, on_event, stored)``: store every valid match of ``items``
    #: (:func:`ingest.batches.ingest_items`, this store its first argument; its options are written there only).
    ingest = ingest_items

    def write_batch(self, batch: Batch) -> None:
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
        arrow["delete"] = pa.table({"match_id": pa.array(to_delete, type=STR)})
        try:
            for name, table in arrow.items():
                con.register(views[name], table)
            with self.transaction():
                if to_delete:
                    for name in (*CHILD_TABLES, "matches"):
                        con.execute(f"DELETE FROM {name} WHERE match_id IN (SELECT match_id FROM {views['delete']})")
                for name in (*CHILD_TABLES, "matches"):
                    self._insert(name, views[name])
        except duckdb.InterruptException:
            raise KeyboardInterrupt from None  # DuckDB saw the Ctrl-C first; the batch is rolled back
        except duckdb.Error as e:
            raise db_error(self.path, e, writing=True) from None
        finally:
            for view in views.values():
                try:
                    con.unregister(view)
                except duckdb.Error:
                    pass

    def _insert(self, name: str, view: str) -> None:
        """Append one table's rows of the batch (a hook for tests that inject failures)."""
        select = INSERT_SELECT[name].format(view=view)
        cols = ", ".join(f'"{c.name}"' for c in TABLES[name])
        self.con.execute(f"INSERT INTO {name} ({cols}) {select}")

    def checkpoint(self) -> None:
        try:
            self.con.execute("CHECKPOINT")
        except duckdb.Error as e:
            raise db_error(self.path, e, writing=True) from None

    # ---- consistency

    def orphans(self) -> dict[str, int]:
        """Rows of child tables whose match is not stored, and stored matches missing rows (0 when consistent)."""
        out: dict[str, int] = {}
        for name in CHILD_TABLES:
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
