"""``export``: the database as Parquet and as BG Stats plays (docs/database.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..db.errors import DatabaseError, shown
from ..db.queries.export import export as run_export
from .app import app
from .common import ExitCode, fail, plural, wrapped
from .database import DbOption, db_path, err_console


@app.command()
def export(
    db: DbOption = None,
    parquet: Annotated[
        Path | None,
        typer.Option(
            "--parquet", metavar="FOLDER", help="Write every table as Parquet into this new folder, partitioned by month."
        ),
    ] = None,
    bgstats: Annotated[
        Path | None,
        typer.Option(
            "--bgstats", metavar="FILE", help="Write finished, dated matches as BG Stats plays (JSON) into this file."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace an existing --bgstats file, or a --parquet folder of an earlier export."),
    ] = False,
) -> None:
    """Export the database: Parquet for other engines, BG Stats plays for players.

    --parquet FOLDER writes FOLDER/TABLE/month=YYYY-MM/*.parquet (hive
    style; month=undated for matches without a date) for DuckDB, Spark or
    Trino. --bgstats FILE writes a JSON array of plays (players, total
    scores, winner, start player, date) in the shape BG Stats imports.

    Nothing is written onto the database (or into a folder holding it); an
    existing file or a non-empty folder is refused unless --force (which
    replaces only a file, or a folder holding an earlier export). Files are
    written whole and renamed into place.

    Exit codes: 0 ok, 2 usage error, 3 a database or file that cannot be
    read or written, or an output refused.

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log export --db club.duckdb --parquet season-2026/ --bgstats plays.json
    """
    if parquet is None and bgstats is None:
        fail("give --parquet FOLDER, --bgstats FILE, or both", ExitCode.USAGE)
    try:
        done = run_export(db_path(db), parquet=parquet, bgstats=bgstats, force=force)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    if done.parquet is not None:
        tables = [f"{name} {plural(n, 'row')}" for name, n in done.parquet.items()]
        typer.echo(wrapped(f"{shown(parquet or '')}: " + ", ".join(tables) + " (Parquet, partitioned by month)",
                           keep=[shown(parquet or ""), *tables]))  # fmt: skip
    if done.plays is not None:
        typer.echo(wrapped(f"{shown(bgstats or '')}: {plural(done.plays, 'play')} for BG Stats", keep=[shown(bgstats or "")]))
        if done.undated:
            err_console().print(
                f"{plural(done.undated, 'finished match', 'finished matches')} without a date left out "
                "(BG Stats needs a play date)",
                style="yellow",
            )
