"""Ingest's reading of logs: ``log.load`` with a look at the stored matches first, byte progress, and safe names.

:func:`read_logs` yields what ``log.load.load`` yields, with two differences
that only ingest needs:

* a match whose content hash is already stored (``stored(digest)``) comes
  as a :class:`Known`, **before** it is checked: after an ingest killed
  mid-run, the rerun skips what was stored at the cost of a hash;
* file names are made storable and printable: bytes that are not UTF-8 are
  written ``\\xff`` (:func:`errors.decoded_name`).

``on_progress(n, m)`` hears how many bytes of the files have been read and
how many matches, as they are read (within a big ``.jsonl`` file too); :func:`planned` gives the files
and their total size for a progress bar.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ...core.errors import UnreadableFileError
from ...log.load import LoadedMatch, Unreadable, sources
from ...log.reader import (
    STDIN,
    Source,
    content_hash,
    expand_paths,
    id_of_hash,
)
from ...log.replay import MatchReport, check_match
from ..errors import decoded_name

__all__ = ["Known", "Planned", "planned", "read_logs"]


@dataclass(frozen=True, slots=True)
class Known:
    """A match whose content is already stored: skipped without being checked again."""

    label: str
    file: str
    line: int | None
    match_id: str
    games: int


@dataclass(frozen=True, slots=True)
class Planned:
    """The files behind the paths (folders expanded), as given to :func:`read_logs`, and their total size."""

    items: list[str | Path]
    total_bytes: int


def planned(paths: list[str]) -> Planned:
    """Expand ``paths`` once: the files to read and their total size in bytes (standard input counts 0)."""
    items = list(expand_paths(paths))
    total = 0
    for item in items:
        if item != STDIN:
            try:
                total += os.stat(item).st_size
            except OSError:
                pass
    return Planned(items, total)


def read_logs(
    plan: Planned,
    *,
    stored: Callable[[str], bool] = lambda digest: False,
    on_progress: Callable[[int, int], None] | None = None,
    stdin: BinaryIO | None = None,
) -> Iterator[LoadedMatch | Unreadable | Known]:
    """Every match of the planned files, checked unless ``stored(content hash)`` says it is stored already."""
    done = matches = 0
    for item in plan.items:
        name = "<stdin>" if item == STDIN else decoded_name(str(item))
        start = done
        try:
            for source, position in sources(item, name, stdin):
                matches += 1
                if position is not None:
                    done = start + position
                if on_progress is not None:
                    on_progress(done, matches)
                yield _checked(source, stored)
        except UnreadableFileError as e:
            yield Unreadable(name, decoded_name(str(e)))
        if item != STDIN:
            try:
                done = start + os.stat(item).st_size
            except OSError:
                pass
            if on_progress is not None:
                on_progress(done, matches)


def _checked(source: Source, stored: Callable[[str], bool]) -> LoadedMatch | Known:
    if source.problem is not None:
        return LoadedMatch(source.label, source.file, source.line, MatchReport(data=None, findings=[source.problem]))
    data: Any = source.data
    digest = None
    if isinstance(data, dict):
        try:
            digest = content_hash(data)
        except RecursionError:
            digest = None
        if digest is not None and stored(digest):
            given = data.get("id")
            match_id = given if isinstance(given, str) else id_of_hash(digest)
            games = data.get("games")
            return Known(source.label, source.file, source.line, match_id, len(games) if isinstance(games, list) else 0)
    report = check_match(data, wide=source.wide)
    if digest is not None and report.data is data:
        report._hash = digest  # the same hash MatchReport.content_hash would compute again
    return LoadedMatch(source.label, source.file, source.line, report)
