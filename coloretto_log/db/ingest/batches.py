"""Ingest: checked matches decided one by one against the stored ones, written in batches, one transaction each.

:func:`ingest_items` is what :meth:`MatchStore.ingest` runs: a match already
stored with the same content is skipped; one whose content changed is
reported and left alone unless ``replace=True``; an invalid match stores
nothing. :class:`IngestEvent` says what happened to each match, and
:class:`IngestSummary` counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

from ...log.load import LoadedMatch, Unreadable
from ..errors import DatabaseError
from .reading import Known
from .rows import Batch, append_match, match_identity

__all__ = ["BATCH_GAMES", "IngestEvent", "IngestSummary", "Store", "Stored", "digest_key", "ingest_items"]

#: Matches are committed in batches of about this many games (one transaction each).
BATCH_GAMES = 2000


@dataclass(frozen=True, slots=True)
class IngestEvent:
    """What happened to one match (or one unreadable file) during ingest.

    ``kind``: ``stored``, ``replaced``, ``skipped`` (same content already
    stored), ``changed`` (stored with other content, left alone), ``invalid``
    (the findings say why; nothing stored) or ``unreadable``.
    """

    kind: str
    label: str
    match_id: str | None = None
    games: int = 0
    loaded: LoadedMatch | None = None  # invalid matches: the checked match, for its findings
    message: str = ""  # unreadable: why; changed: where the stored one came from


@dataclass
class IngestSummary:
    """Counts of one ingest run."""

    stored: int = 0
    replaced: int = 0
    skipped: int = 0
    changed: int = 0
    invalid: int = 0
    unreadable: int = 0
    games: int = 0  # games stored or replaced
    batches: int = 0  # transactions committed

    def add(self, event: IngestEvent) -> None:
        setattr(self, event.kind, getattr(self, event.kind) + 1)
        if event.kind in ("stored", "replaced"):
            self.games += event.games

    def as_json(self) -> dict[str, int]:
        return asdict(self)


def digest_key(digest: str) -> int:
    """The first 64 bits of a content hash: what ingest compares (a set of them stays small)."""
    return int(digest[:16], 16)


class Stored:
    """The matches ingest compares against: each stored ``match_id`` with its content key, and the set of keys.

    Those stored earlier in the same run are added as they are decided.
    ``has(digest)`` answers the reader (``reading.read_logs``), which skips a
    stored match before checking it. ``logless``: stored matches whose log is
    not kept (stored before the database kept logs): their keys are left out
    of ``keys``, so that ingest of the same log reads them and stores them
    again with it.
    """

    __slots__ = ("by_id", "keys", "logless")

    def __init__(self, by_id: dict[str, int], logless: set[str] | None = None) -> None:
        self.by_id = by_id
        self.logless = logless or set()
        self.keys = {key for match_id, key in by_id.items() if match_id not in self.logless}

    def add(self, match_id: str, key: int) -> None:
        self.by_id[match_id] = key
        self.keys.add(key)
        self.logless.discard(match_id)

    def has(self, digest: str) -> bool:
        return digest_key(digest) in self.keys


class Store(Protocol):
    """What :func:`ingest_items` needs of a database: :class:`store.MatchStore` is one (named here, not
    imported, so that ``store`` may import this module and not the other way round)."""

    @property
    def path(self) -> Path: ...

    @property
    def read_only(self) -> bool: ...

    def write_batch(self, batch: Batch) -> None: ...

    def stored_digests(self) -> dict[str, int]: ...

    def logless(self) -> set[str]: ...

    def stored_source(self, match_id: str) -> str: ...


def ingest_items(
    store: Store,
    items: Iterable[LoadedMatch | Unreadable | Known],
    *,
    replace: bool = False,
    batch_games: int = BATCH_GAMES,
    on_event: Callable[[IngestEvent], None] | None = None,
    stored: Stored | None = None,
) -> IngestSummary:
    """Store every valid match of ``items`` in ``store``; one transaction per batch of about ``batch_games`` games.

    Each match is decided as it is read, against the stored ones (and
    those stored earlier in this run): same id and content, ``skipped``;
    same id, other content, ``changed`` (or ``replaced`` with
    ``replace``); else ``stored``. ``on_event`` hears of stored and
    replaced matches when their batch is written, of the others at once.
    An exception or ``KeyboardInterrupt`` rolls the current batch back and
    propagates: the batches written before it stay, and running the same
    ingest again carries on (stored matches are skipped). A :class:`Known`
    item (a match the reader found stored) is ``skipped`` at once. A
    match stored without its log (by an older coloretto-log) is stored again,
    with it, and counted ``replaced``.
    """
    if store.read_only:
        raise DatabaseError(f"{store.path}: opened read-only")
    summary = IngestSummary()

    def emit(event: IngestEvent) -> None:
        summary.add(event)
        if on_event is not None:
            on_event(event)

    def commit(batch: Batch) -> None:
        """Write the batch in one transaction, then report its matches."""
        if not batch.events:
            return
        store.write_batch(batch)
        summary.batches += 1
        for event in batch.events:
            emit(event)

    known = stored if stored is not None else Stored(store.stored_digests(), store.logless())
    batch = Batch()
    for item in items:
        if isinstance(item, Known):  # the reader found its content stored: not checked again
            emit(IngestEvent("skipped", item.label, item.match_id, item.games))
            continue
        if isinstance(item, Unreadable):
            emit(IngestEvent("unreadable", item.file, message=item.message))
            continue
        report = item.report
        if not report.valid or report.match is None:
            emit(IngestEvent("invalid", item.label, report.match_id, loaded=item))
            continue
        match_id, digest = match_identity(item)
        key = digest_key(digest)
        old = known.by_id.get(match_id)
        games = len(report.games)
        if old == key and match_id not in known.logless:
            emit(IngestEvent("skipped", item.label, match_id, games))
            continue
        if old is not None and old != key and not replace:
            source = "earlier in this run" if match_id in batch.ids else store.stored_source(match_id)
            emit(IngestEvent("changed", item.label, match_id, games, message=source))
            continue
        if old is not None:
            if match_id in batch.ids:  # replaced twice in one batch: write the first one, then delete it
                commit(batch)
                batch = Batch()
            batch.to_delete.append(match_id)
        append_match(batch, item, match_id, digest, source_file=item.file)
        batch.ids.add(match_id)
        batch.events.append(IngestEvent("replaced" if old is not None else "stored", item.label, match_id, games))
        known.add(match_id, key)
        batch.games += max(1, games)
        if batch.games >= batch_games:
            commit(batch)
            batch = Batch()
    commit(batch)
    return summary
