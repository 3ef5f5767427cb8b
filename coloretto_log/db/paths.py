"""Where the database is: the default file and the one line for a database that is not there.

Kept apart from ``store`` (and free of duckdb and pyarrow) so that a command
that only names the database, such as ``query``'s parent process, starts fast.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import DatabaseError, db_error

__all__ = ["DEFAULT_DB", "ENV_DB", "default_db_path", "no_database"]

DEFAULT_DB = "coloretto.duckdb"
ENV_DB = "COLORETTO_DB"


def default_db_path() -> Path:
    """``$COLORETTO_DB`` when set, else ``coloretto.duckdb`` in the current folder."""
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)


def no_database(db: Path) -> DatabaseError:
    """The error for a database file that is not there (or not a file)."""
    if db.is_dir():
        return db_error(db, IsADirectoryError(21, "Is a directory"))
    if db.exists():
        return DatabaseError(f"{db}: not a regular file")
    return DatabaseError(f"{db}: no such database; create it with `coloretto-log ingest LOGS...`")
