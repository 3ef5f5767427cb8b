"""What the database commands (``ingest``, ``stats``, ``query``, ``export``, ...) share: ``--db``, consoles, and the
check of a file a command writes beside the database it reads (``stats --png``, ``ratings --png``, ``tables --html``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..db.paths import default_db_path
from ..view.console import TrimmedConsole
from .common import ExitCode, fail

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


def check_output(out: Path | None, db: Path, *, force: bool, code: ExitCode = ExitCode.UNREADABLE) -> None:
    """Stop the command (its one line and ``code``) unless the file ``out``, when given, may be written: never the
    database ``db`` the command reads nor its write-ahead log, an existing file only with ``force``
    (:func:`db.queries.outputs.output_problem`)."""
    if out is None:
        return
    # imported here: it brings pyarrow, which a command that writes no file (``query``) need not load
    from ..db.queries.outputs import output_problem

    problem = output_problem(out, inputs=[db], force=force)
    if problem is not None:
        fail(problem, code)


def err_console() -> Console:
    """Standard error for messages and progress: no highlighting, long lines kept whole."""
    return TrimmedConsole(stderr=True, highlight=False, soft_wrap=True)


def out_console(*, wrap: bool = False) -> Console:
    """Standard output for tables: no highlighting, long lines kept whole (``wrap``: text between the tables
    wrapped at the width, 80 columns piped or COLUMNS, as people read it)."""
    return TrimmedConsole(highlight=False, soft_wrap=not wrap)

