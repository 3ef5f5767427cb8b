"""``query``: read-only SQL over the database, in the sandbox of ``db.sandbox`` (docs/database.md)."""

from __future__ import annotations

import enum
import sys
from typing import Annotated

import typer

from ..db.errors import DatabaseError, QueryError
from ..db.sandbox import QueryResult, run_query
from ..view.tabular import plain, result_table, write_csv
from .app import app
from .common import ExitCode, emit_json, fail, plural
from .database import DbOption, db_path, err_console, out_console


class Format(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"


FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="table for people; json or csv for programs.")
]


@app.command()
def query(
    sql: Annotated[str, typer.Argument(help="One SELECT statement over the tables of docs/database.md.", show_default=False)],
    db: DbOption = None,
    fmt: FormatOption = Format.table,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Print at most this many rows (a notice says when more were cut).")] = 1000,
    timeout: Annotated[float, typer.Option("--timeout", min=0.01, help="Stop the query after this many seconds.")] = 10.0,
) -> None:
    """Read-only SQL over the database, for what stats does not answer.

    The query runs in a sandbox: the database is opened read-only, files,
    network, ATTACH, COPY, extensions and settings are all refused, and it
    stops at the timeout. One SELECT statement only (WITH, DESCRIBE, SUMMARIZE
    and EXPLAIN included).

    Exit codes: 0 ok, 2 a query refused, wrong, or past its timeout, 3 a
    database that cannot be read.

    Example: coloretto-log query "SELECT player, avg(score) FROM game_players GROUP BY player"
    """
    try:
        result = run_query(db_path(db), sql, limit=limit, timeout=timeout)
    except QueryError as e:
        fail(str(e), ExitCode.USAGE)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    _print_result(result, fmt, limit)


def _print_result(result: QueryResult, fmt: Format, limit: int) -> None:
    if fmt is Format.json:
        emit_json([dict(zip(result.columns, (plain(v) for v in row))) for row in result.rows])
    elif fmt is Format.csv:
        write_csv(result.columns, result.rows, sys.stdout)
    else:
        out_console().print(result_table(result.columns, result.types, result.rows))
        err_console().print(f"{plural(len(result.rows), 'row')} in {result.seconds:.3f} s", style="dim")
    if result.truncated:
        err_console().print(f"Only the first {plural(limit, 'row')} shown; raise --limit to see more.", style="yellow")
