"""DuckDB results read the way its API asks: every result fetched to its end, none left open on a connection.

DuckDB 2 refuses some work on a connection (registering an Arrow table,
among others) while a result of ``execute`` on it is unfinished, that is
not yet fetched until a fetch returned nothing. ``fetchone`` on a query of
one row leaves it unfinished. Every query of the library therefore reads
its result whole (:func:`first_row`, :func:`first_value`, ``fetchall``),
or streams it on a cursor of its own that is closed when the stream ends
(:func:`streamed`). ``tests/db/test_duckdb_results.py`` holds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import duckdb

__all__ = ["first_row", "first_value", "streamed"]


def first_row(result: duckdb.DuckDBPyConnection) -> tuple[Any, ...] | None:
    """The first row of an executed query (None when it has none), the result read to its end."""
    rows = result.fetchall()
    return tuple(rows[0]) if rows else None


def first_value(result: duckdb.DuckDBPyConnection) -> Any:
    """The first column of the first row (None when no row), the result read to its end."""
    row = first_row(result)
    return None if row is None else row[0]


def streamed(
    con: duckdb.DuckDBPyConnection, sql: str, params: Any = None, *, chunk: int = 20_000
) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of ``sql`` ``chunk`` at a time, on a cursor of their own, closed when the stream ends or is dropped.

    The connection stays free for other work while the stream is read
    (a rating run writes while it reads the contests).
    """
    cur = con.cursor()
    try:
        cur.execute(sql, params)
        while True:
            rows = cur.fetchmany(chunk)
            if not rows:
                return
            yield rows
    finally:
        cur.close()
