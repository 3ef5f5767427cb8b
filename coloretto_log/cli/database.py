"""What the database commands (``ingest``, ``stats``, ``query``, ``export``) share: ``--db``, consoles and consoles."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..db.paths import default_db_path

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="The database file. Default: $COLORETTO_DB, else coloretto.duckdb in the current folder.",
        show_default=False,
        metavar="FILE",
    ),
]


def db_path(path: Path | None) -> Path:
    """The database ``--db`` names, else the default (:func:`default_db_path`)."""
    return path if path is not None else default_db_path()


def err_console() -> Console:
    """Standard error for messages and progress: no highlighting, long lines kept whole."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def out_console(*, wrap: bool = False) -> Console:
    """Standard output for tables: no highlighting, long lines kept whole (``wrap``: text between the tables
    wrapped at the width, 80 columns piped or COLUMNS, as people read it)."""
    return Console(highlight=False, soft_wrap=not wrap)

