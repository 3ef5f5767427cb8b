"""``export``: the database as Parquet and as BG Stats plays (docs/database.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..db.errors import DatabaseError
from ..db.export import bgstats_plays, export_parquet
from ..db.store import MatchStore
from ..log.atomic import atomic_write_text
from ..log.writer import dumps_pretty
from .app import app
from .common import ExitCode, fail, plural
from .database import DbOption, db_path, err_console


@app.command()
def export(
    db: DbOption = None,
    parquet: Annotated[
        Path | None,
        typer.Option("--parquet", file_okay=False, help="Write every table as Parquet into this new folder, partitioned by month."),
    ] = None,
    bgstats: Annotated[
        Path | None,
        typer.Option("--bgstats", dir_okay=False, help="Write finished, dated matches as BG Stats plays (JSON) into this file."),
    ] = None,
) -> None:
    """Export the database: Parquet for other engines, BG Stats plays for players.

    --parquet DIR writes DIR/TABLE/month=YYYY-MM/*.parquet (hive style;
    month=undated for matches without a date) for DuckDB, Spark or Trino.
    --bgstats FILE writes a JSON array of plays (players, total scores,
    winner, start player, date) in the shape BG Stats imports.

    Exit codes: 0 ok, 2 usage error, 3 a database or file that cannot be read or written.

    Example: coloretto-log export --parquet season-2026/ --bgstats plays.json
    """
    if parquet is None and bgstats is None:
        fail("give --parquet DIR, --bgstats FILE, or both", ExitCode.USAGE)
    path = db_path(db)
    try:
        with MatchStore.open(path, read_only=True) as store:
            if parquet is not None:
                counts = export_parquet(store, parquet)
                typer.echo(
                    f"{parquet}: "
                    + ", ".join(f"{name} {plural(n, 'row')}" for name, n in counts.items())
                    + " (Parquet, partitioned by month)"
                )
            if bgstats is not None:
                plays, undated = bgstats_plays(store)
                try:
                    atomic_write_text(bgstats, dumps_pretty(plays))
                except OSError as e:
                    fail(f"{bgstats}: cannot write: {e.strerror}", ExitCode.UNREADABLE)
                typer.echo(f"{bgstats}: {plural(len(plays), 'play')} for BG Stats")
                if undated:
                    err_console().print(
                        f"{plural(undated, 'finished match', 'finished matches')} without a date left out "
                        "(BG Stats needs a play date)",
                        style="yellow",
                    )
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
