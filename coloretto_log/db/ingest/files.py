"""Ingest into a database file: :func:`ingest_logs` (what the ``ingest`` command runs) and :func:`rebuild`.

``ingest_logs`` reads the planned files (``reading.read_logs``: a stored
match is skipped by its content hash before it is checked), stores the new
matches, and leaves no database behind that it created and stored nothing
in. ``rebuild`` makes the database anew from the logs in a file beside the
old one and swaps it in only when it is complete, and only when every input
was readable and valid and at least one match is stored: otherwise the old
database is kept as it was (:class:`RebuildKept`).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import duckdb

from ...log.load import LoadedMatch, Unreadable
from ..errors import DatabaseError, DatabaseLocked, db_error, refuse_foreign, shown
from ..ratings.stored import freshness as ratings_freshness
from ..ratings.stored import refresh as refresh_ratings
from ..store import MatchStore, default_db_path
from .batches import BATCH_GAMES, IngestEvent, IngestSummary, Stored
from .reading import Known, Planned, read_logs

__all__ = ["IngestOutcome", "RebuildKept", "ingest_logs", "rebuild", "remove_db_files"]


class RebuildKept(DatabaseError):
    """``--rebuild`` refused to replace the database: an input was unreadable or invalid, or nothing was stored."""

    def __init__(self, message: str, summary: IngestSummary) -> None:
        super().__init__(message)
        self.summary = summary


@dataclass
class IngestOutcome:
    """What :func:`ingest_logs` did: the counts, the database's rows per table after, and why a rebuild kept the old one."""

    summary: IngestSummary
    counts: dict[str, int] = field(default_factory=dict)
    kept: str | None = None  # --rebuild: why the old database was kept (None when replaced)


def ingest_logs(
    path: str | Path | None,
    plan: Planned,
    *,
    replace: bool = False,
    rebuild_db: bool = False,
    on_event: Callable[[IngestEvent], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    stdin: BinaryIO | None = None,
) -> IngestOutcome:
    """Store the matches of the planned files in the database at ``path`` (created when missing), or rebuild it."""
    db = Path(path) if path is not None else default_db_path()
    if rebuild_db:
        try:
            summary, counts = rebuild(db, read_logs(plan, on_progress=on_progress, stdin=stdin), on_event=on_event)
        except RebuildKept as e:
            return IngestOutcome(e.summary, _counts_if_any(db), kept=str(e))
        return IngestOutcome(summary, counts)
    created = not db.exists() and not db.is_symlink()
    stored_any = False

    def heard(event: IngestEvent) -> None:
        nonlocal stored_any
        stored_any = stored_any or event.kind in ("stored", "replaced")
        if on_event is not None:
            on_event(event)

    try:
        with MatchStore.open(db) as store:
            known = Stored(store.stored_digests(), store.logless())
            items = read_logs(plan, stored=known.has, on_progress=on_progress, stdin=stdin)
            summary = store.ingest(items, replace=replace, on_event=heard, stored=known)
            if stored_any or not ratings_freshness(store).usable:
                # once a run: new games after all rated are added, else all recomputed (also when
                # nothing new came but the stored ratings are stale, as after an upgrade)
                refresh_ratings(store)
            counts = store.counts()
    except BaseException:
        if created and not stored_any:
            remove_db_files(db)
        raise
    if created and not stored_any:
        remove_db_files(db)  # nothing stored: leave no empty database behind
        counts = {}
    return IngestOutcome(summary, counts)


def _counts_if_any(db: Path) -> dict[str, int]:
    """Rows per table of the database at ``db``, or nothing when it cannot be read."""
    if not db.is_file():
        return {}
    try:
        with MatchStore.open(db, read_only=True) as store:
            return store.counts()
    except DatabaseError:
        return {}


def rebuild(
    path: str | Path | None,
    items: Iterable[LoadedMatch | Unreadable | Known],
    *,
    batch_games: int = BATCH_GAMES,
    on_event: Callable[[IngestEvent], None] | None = None,
) -> tuple[IngestSummary, dict[str, int]]:
    """Recreate the database at ``path`` from ``items``; the summary and the new database's rows per table.

    The new database is built in a temporary file beside the old one and
    renamed over it only when complete: an interrupted rebuild leaves the old
    file as it was. So does an input that was unreadable or invalid, or a
    run that stored nothing: :class:`RebuildKept` says which. A damaged or
    foreign old file is replaced; a locked one, or a folder, is refused. A
    symbolic link is followed: the file it points to is rebuilt.
    """
    db = Path(path) if path is not None else default_db_path()
    if db.is_dir():
        raise db_error(db, IsADirectoryError(21, "Is a directory"))
    if db.exists():
        refuse_foreign(db)  # a rebuild replaces a database, never another file (a log given as --db)
        _refuse_if_locked(db)
    real = Path(os.path.realpath(db))  # a link is followed: the real file is rebuilt, the link stays a link
    tmp = real.with_name(f".{real.name}.rebuild-{secrets.token_hex(8)}")  # unpredictable: no planted link
    remove_db_files(tmp)
    try:
        with MatchStore.open(tmp) as store:
            summary = store.ingest(items, batch_games=batch_games, on_event=on_event)
            refresh_ratings(store)
            counts = store.counts()
            store.checkpoint()
        reason = _why_keep(summary)
        if reason is not None:
            old = "the database was left as it was" if db.exists() else "no database was made"
            raise RebuildKept(f"{shown(db)}: {old}: {reason}", summary)
        for wal in {Path(f"{db}.wal"), Path(f"{real}.wal")}:
            if wal.exists():
                wal.unlink()  # an old write-ahead log must not be replayed onto the new file
        os.replace(tmp, real)
    except (DatabaseError, OSError) as e:
        remove_db_files(tmp)
        if isinstance(e, RebuildKept):
            raise
        # the temporary file is no name the user knows: the message names the database, left as it was
        said = str(e) if isinstance(e, DatabaseError) else str(db_error(tmp, e, writing=True))
        raise DatabaseError(said.replace(shown(tmp), f"{shown(db)} (left as it was; the rebuild)", 1)) from None
    except BaseException:
        remove_db_files(tmp)
        raise
    return summary, counts


def _why_keep(s: IngestSummary) -> str | None:
    """Why a rebuild must not replace the database, or None."""
    if s.unreadable:
        return f"--rebuild needs every input readable, and {s.unreadable} could not be read"
    if s.invalid:
        return f"--rebuild needs every log valid, and {s.invalid} {'is' if s.invalid == 1 else 'are'} not"
    if not s.stored:
        return "--rebuild found no match to store"
    return None


def _refuse_if_locked(db: Path) -> None:
    try:
        con = duckdb.connect(str(db), read_only=False)
    except duckdb.Error as e:
        err = db_error(db, e)
        if isinstance(err, DatabaseLocked):
            raise err from None
        return  # damaged or foreign: rebuilding is the cure
    con.close()


def remove_db_files(db: Path) -> None:
    """Remove a database file and its write-ahead log, if there."""
    for p in (db, Path(str(db) + ".wal")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass
