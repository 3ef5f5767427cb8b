"""What goes wrong with a database, as one line that says what to do: the one place DuckDB's errors are mapped.

:func:`db_error` turns any DuckDB or OS error met while opening, reading or
writing a database file into a :class:`DatabaseError` (the CLI's exit code
3); :class:`QueryError` is a ``query`` refused, wrong, or stopped at a bound
(exit code 2).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from ..core.errors import ColorettoLogError, one_line
from ..log.atomic import duckdb_header

__all__ = [
    "REBUILD_HINT",
    "DatabaseError",
    "DatabaseLocked",
    "QueryError",
    "db_error",
    "decoded_name",
    "first_line",
    "shown",
]

REBUILD_HINT = "recreate it from the logs with `coloretto-log ingest --rebuild LOGS...`"


class DatabaseError(ColorettoLogError):
    """The database cannot be opened, read or written; the message says what to do."""


class DatabaseLocked(DatabaseError):
    """Another process holds the database's lock."""


class QueryError(ColorettoLogError):
    """A ``query`` refused by the sandbox, wrong, or stopped at one of its bounds."""


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def shown(path: str | Path) -> str:
    """A path as a message shows it: undecodable bytes as ``\\xff``, control characters escaped."""
    return one_line(decoded_name(str(path)))


def db_error(path: str | Path, exc: BaseException, *, writing: bool = False) -> DatabaseError:
    """One line for what went wrong with the database file at ``path``, and what to do."""
    where = shown(path)
    text = first_line(exc)
    low = text.lower()
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        low = "no space left on device"
    if isinstance(exc, OSError) and exc.errno == errno.EISDIR:
        return DatabaseError(f"{where}: is a folder, not a database file; give a file name with --db")
    if "could not set lock" in low or "conflicting lock" in low:
        pid = re.search(r"\(PID (\d+)\)", text)
        who = f"another process (PID {pid.group(1)})" if pid else "another process"
        return DatabaseLocked(f"{where}: the database is in use by {who}; wait for it to finish and try again")
    if "not a valid duckdb database" in low:
        return DatabaseError(f"{where}: not a DuckDB database (a foreign or damaged file); use another --db, or {REBUILD_HINT}")
    if "corrupt" in low or "checksum" in low:
        return DatabaseError(f"{where}: the database file is damaged ({text}); {REBUILD_HINT}")
    if "does not exist" in low and "read-only" in low:
        return DatabaseError(f"{where}: no such database; create it with `coloretto-log ingest LOGS...`")
    if any(s in low for s in ("no space left", "disk full", "file too large", "disk quota")):
        return DatabaseError(
            f"{where}: the disk is full; what was being written was not kept (the database is as it was "
            "before this batch); free some space and run the command again"
        )
    if isinstance(exc, OSError) and exc.errno == errno.EIO or "input/output error" in low:
        return DatabaseError(
            f"{where}: the disk reported an input/output error; what was being written was not kept; "
            "check the disk, then run the command again"
        )
    if "permission denied" in low:
        return DatabaseError(f"{where}: permission denied; check the file's and its folder's permissions")
    if "serialization" in low or "version" in low and "storage" in low:
        return DatabaseError(f"{where}: written by an incompatible DuckDB version; {REBUILD_HINT}")
    action = "write" if writing else "read"
    return DatabaseError(f"{where}: cannot {action} the database ({text}); check the file and its folder, then run the command again")


def decoded_name(text: str) -> str:
    """``text`` (a file name, or a message holding one) with bytes that are not UTF-8 written ``\\xff``.

    Such a name can be stored, printed and written as JSON; control
    characters are left to :func:`one_line` where a terminal shows it.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def refuse_foreign(db: Path) -> None:
    """Raise the one-line "not a DuckDB database" error for an existing file without DuckDB's header.

    DuckDB itself opens some other files (a JSON log, say) without a word and
    would then write into them; an empty file is let through (DuckDB makes it
    a database), and so is one that cannot be read (DuckDB says why).
    """
    try:
        if not stat.S_ISREG(os.stat(db).st_mode):
            return  # a FIFO is never read here (it would wait): DuckDB says what it is
        with open(db, "rb") as f:
            head = f.read(12)
    except OSError:
        return
    if head and not duckdb_header(head):
        raise db_error(db, OSError("not a valid DuckDB database file"))
