"""Ingest into a database file: :func:`ingest_logs` (what the ``ingest`` command runs) and :func:`rebuild`.

``rebuild`` makes the database anew from the logs in a file beside the old
one and swaps it in only when it is complete.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import duckdb

from ..log.load import LoadedMatch, Unreadable
from .errors import DatabaseLocked, db_error
from .ingest import BATCH_GAMES, IngestEvent, IngestSummary
from .store import MatchStore, default_db_path

__all__ = ["ingest_logs", "rebuild", "remove_db_files"]


def ingest_logs(
    path: str | Path | None,
    items: Iterable[LoadedMatch | Unreadable],
    *,
    replace: bool = False,
    rebuild_db: bool = False,
    on_event: Callable[[IngestEvent], None] | None = None,
) -> tuple[IngestSummary, dict[str, int]]:
    """Store ``items`` in the database at ``path`` (created when missing), or rebuild it from them alone.

    Returns the summary and the database's rows per table afterwards.
    """
    if rebuild_db:
        return rebuild(path, items, on_event=on_event)
    with MatchStore.open(path) as store:
        summary = store.ingest(items, replace=replace, on_event=on_event)
        return summary, store.counts()


def rebuild(
    path: str | Path | None,
    items: Iterable[LoadedMatch | Unreadable],
    *,
    batch_games: int = BATCH_GAMES,
    on_event: Callable[[IngestEvent], None] | None = None,
) -> tuple[IngestSummary, dict[str, int]]:
    """Recreate the database at ``path`` from ``items``; the summary and the new database's rows per table.

    The new database is built in a temporary file beside the old one and
    renamed over it only when complete: an interrupted rebuild leaves the old
    file as it was. A damaged or foreign old file is replaced; a locked one is
    refused.
    """
    db = Path(path) if path is not None else default_db_path()
    if db.exists():
        _refuse_if_locked(db)
    tmp = db.with_name(f".{db.name}.rebuild-{os.getpid()}")
    remove_db_files(tmp)
    try:
        with MatchStore.open(tmp) as store:
            summary = store.ingest(items, batch_games=batch_games, on_event=on_event)
            counts = store.counts()
            store.checkpoint()
        wal = Path(str(db) + ".wal")
        if wal.exists():
            wal.unlink()  # an old write-ahead log must not be replayed onto the new file
        os.replace(tmp, db)
    except BaseException:
        remove_db_files(tmp)
        raise
    return summary, counts


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
