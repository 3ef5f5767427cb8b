"""The matches' logs kept in the database (table ``match_logs``): packed by ingest (``rows.pack_log``), read back by ``site`` and ``replay --db``.

Each valid match ingest stores keeps its log as its canonical JSON (keys
sorted, no spaces, UTF-8: the text whose SHA-256 is the match's
``content_hash``), zlib-compressed. Read back, it is checked again
(``log.replay.check_match``) exactly as the file's text was, so a replay
drawn from the database is the replay of the file, wherever the file went.
A log whose text no longer hashes to the stored ``content_hash`` (a damaged
database) is not used.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..core.errors import one_line
from ..log.load import LoadedMatch
from ..log.reader import parse_json_wide
from ..log.replay import check_match
from .errors import DatabaseError, shown
from .results import first_row
from .schema import LOGS_TABLE
from .store import MatchStore

__all__ = ["NotStored", "StoredMatch", "stored_match", "stored_matches", "unpack_log"]

#: Logs read per query (a few MB at most in memory).
_CHUNK = 200

StoredMatch = tuple[str, str, str, int | None]  # match_id, content_hash, source_file, source_line


def unpack_log(blob: bytes, digest: str) -> Any:
    """The parsed log of a stored one, and whether an object in it is wide (``reader.parse_json_wide``); None when
    its text is not the one whose hash is ``digest`` (damaged)."""
    raw = zlib.decompress(blob)
    if hashlib.sha256(raw).hexdigest() != digest:
        return None
    return parse_json_wide(raw.decode("utf-8", "surrogatepass"))


def stored_matches(store: MatchStore, wanted: Iterable[StoredMatch]) -> Iterator[LoadedMatch]:
    """Each wanted match whose log is stored, checked again from it, labelled with the file (and line) it was
    ingested from; the others (stored without a log, or damaged) are left out. Logs are read a chunk at a time."""
    if not store.has_logs:
        return
    chunk: list[StoredMatch] = []
    for m in wanted:
        chunk.append(m)
        if len(chunk) == _CHUNK:
            yield from _checked(store, chunk)
            chunk = []
    if chunk:
        yield from _checked(store, chunk)


def _checked(store: MatchStore, chunk: list[StoredMatch]) -> Iterator[LoadedMatch]:
    rows = store.execute(
        f"SELECT match_id, log FROM {LOGS_TABLE} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [[m[0] for m in chunk]]
    ).fetchall()
    logs: dict[str, bytes] = dict(rows)
    for match_id, digest, file, line in chunk:
        blob = logs.get(match_id)
        if blob is None:
            continue
        try:
            parsed = unpack_log(blob, digest)
        except (zlib.error, ValueError):
            continue
        if parsed is None:
            continue
        data, wide = parsed
        report = check_match(data, wide=wide, keep_states=True)  # a replay's timeline: the states not replayed again
        report._hash = digest
        yield LoadedMatch(file if line is None else f"{file}:{line}", file, line, report)


class NotStored(DatabaseError):
    """``replay --db``: no match with that id is stored (``usage``), or it is stored without its log."""

    def __init__(self, message: str, *, usage: bool) -> None:
        super().__init__(message)
        self.usage = usage


def stored_match(path: Path, match_id: str) -> LoadedMatch:
    """The stored match ``match_id`` of the database at ``path`` (opened read-only), checked again from its log.

    Raises :class:`NotStored` when no such match is stored, or its log is not kept, and :class:`DatabaseError`
    when the database cannot be read.
    """
    with MatchStore.open(path, read_only=True) as store:
        row = first_row(store.execute(
            "SELECT match_id, content_hash, source_file, source_line FROM matches WHERE match_id = ?", [match_id]
        ))
        if row is None:
            raise NotStored(f"{shown(path)}: no match {one_line(match_id)} is stored; `coloretto-log query "
                            f"\"SELECT match_id FROM matches\" --db {shown(path)}` lists them", usage=True)
        for item in stored_matches(store, [row]):
            return item
    raise NotStored(f"{shown(path)}: match {one_line(match_id)} is stored without its log (by an older "
                    f"coloretto-log); run `coloretto-log ingest {one_line(row[2])} --db {shown(path)}` once to store it",
                    usage=False)
