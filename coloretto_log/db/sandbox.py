"""``query``: one read-only statement over the database, in a sandbox.

The file is opened read-only, with no file or network access, no
extensions, the configuration locked and no Python variables visible; the
query stops at a timeout and returns at most a row limit.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from .errors import QueryError, db_error, first_line
from .store import MatchStore, default_db_path, no_database

__all__ = ["SANDBOX_CONFIG", "QueryResult", "run_query", "sandbox_connect"]


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
        raise no_database(db)
    try:
        con = duckdb.connect(str(db), read_only=True, config=dict(SANDBOX_CONFIG))
    except duckdb.Error as e:
        raise db_error(db, e) from None
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
        MatchStore(db, con, read_only=True).check_schema()
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
        raise QueryError(first_line(e)) from None
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
        raise QueryError(first_line(e)) from None
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

