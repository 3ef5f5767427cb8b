"""``query``: read-only SQL over the database, in the sandbox of ``db.queries.sandbox`` (docs/database.md)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..core.errors import one_line
from ..db.errors import DatabaseError, QueryError
from ..db.queries.query import MAX_LIMIT, MAX_SQL_BYTES, QueryResult, run_query, timeout_problem
from ..view.tabular import print_table_rows, write_csv_rows, write_json_rows
from .app import app
from .common import ExitCode, Format, FormatOption, JsonOption, fail, output_format, plural
from .database import DbOption, db_path, err_console, out_console


@app.command()
def query(
    sql: Annotated[
        str,
        typer.Argument(
            metavar="SQL",
            help="One read-only statement (SELECT, WITH, PIVOT, DESCRIBE, SUMMARIZE, EXPLAIN) over the tables of "
            "docs/database.md; - reads it from standard input.",
            show_default=False,
        ),
    ],
    db: DbOption = None,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    limit: Annotated[
        int,
        typer.Option(
            "--limit", metavar="N", help=f"Print at most N rows, from 0 to {MAX_LIMIT:,} (a notice says when more were cut)."
        ),
    ] = 1000,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", metavar="SECONDS", help="Stop the query, fetching and printing its rows included, after this long."
        ),
    ] = 10.0,
) -> None:
    """Read-only SQL over the database, for what stats does not answer.

    The query runs in a sandbox: the database is opened read-only, files,
    network, ATTACH, COPY, extensions and settings are all refused. One
    read-only statement only (WITH, PIVOT, DESCRIBE, SUMMARIZE and EXPLAIN
    included). Every cost is bounded: time (--timeout, running, fetching and
    printing), rows (--limit, at most 100,000), memory (1 GB) and the size of
    the rows (64 MB); one line says which bound stopped a query. The table
    rounds floats to 4 decimals for people; --format json and csv keep every digit.

    Exit codes: 0 ok, 2 a query refused, wrong, or stopped at a bound, 3 a
    database that cannot be read.

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log query --db club.duckdb "SELECT player, avg(score) FROM game_players GROUP BY player"
    """
    chosen = output_format(fmt, json_out)
    if not 0 <= limit <= MAX_LIMIT:
        fail(f"--limit must be from 0 to {MAX_LIMIT:,}, not {limit:,}", ExitCode.USAGE)
    problem = timeout_problem(timeout)
    if problem is not None:
        fail(problem, ExitCode.USAGE)
    if sql == "-":
        raw = sys.stdin.buffer.read(MAX_SQL_BYTES + 1)
        if len(raw) > MAX_SQL_BYTES:
            fail(f"the SQL on standard input is over the {MAX_SQL_BYTES >> 20} MB bound for one query", ExitCode.USAGE)
        sql = raw.decode("utf-8", "replace")
    try:
        result = run_query(db_path(db), sql, limit=limit, timeout=timeout)
    except QueryError as e:
        fail(one_line(str(e)), ExitCode.USAGE)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    _print_result(result, chosen, limit, timeout)


def _print_result(result: QueryResult, fmt: Format, limit: int, timeout: float) -> None:
    rows, deadline = result.rows, result.deadline
    if fmt is Format.json:
        shown = write_json_rows(result.columns, rows, sys.stdout, deadline=deadline)
    elif fmt is Format.csv:
        shown = write_csv_rows(result.columns, rows, sys.stdout, deadline=deadline)
    else:
        shown = print_table_rows(out_console(), result.columns, result.types, rows, deadline=deadline)
    sys.stdout.flush()
    if shown < len(rows):
        fail(
            f"the query ran past the {timeout:g} s timeout while printing its rows: {shown:,} of {len(rows):,} "
            "printed (the time bound, --timeout)",
            ExitCode.USAGE,
        )
    if fmt is Format.table:
        err_console().print(f"{plural(len(rows), 'row')} in {result.seconds:.3f} s", style="dim")
    if result.truncated:
        err_console().print(
            f"Only the first {plural(limit, 'row')} shown (the row bound, --limit); raise --limit "
            f"(at most {MAX_LIMIT:,}) to see more.",
            style="yellow",
        )
