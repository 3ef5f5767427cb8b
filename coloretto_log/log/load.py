"""Load match logs from paths and check each match: the step every command starts with."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..core.errors import Finding, UnreadableFileError
from .reader import (
    STDIN,
    Source,
    expand_paths,
    iter_lines,
    open_log,
    read_bytes,
    sources_from_bytes,
    sources_from_stream,
)
from .replay import MatchReport, check_match


@dataclass(frozen=True, slots=True)
class LoadedMatch:
    """One match from one file (or one line of a ``.jsonl`` file), checked."""

    label: str  # FILE or FILE:LINE
    file: str
    line: int | None
    report: MatchReport
    end: int | None = None  # bytes of ``file`` read once this match was read (for progress); None: unknown

    def findings(self) -> list[Finding]:
        return self.report.all_findings()


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A path that could not be read at all."""

    file: str
    message: str


def load(paths: list[str], *, stdin: BinaryIO | None = None) -> Iterator[LoadedMatch | Unreadable]:
    """Every match under ``paths`` (files, folders, ``-``), checked, in order.

    ``.jsonl`` files and JSON Lines on standard input are streamed, one match
    at a time; a ``.json`` file is one match.
    """
    for item in expand_paths(paths):
        name = "<stdin>" if item == STDIN else str(item)
        try:
            for source, end in sources(item, name, stdin):
                if source.problem is not None:
                    report = MatchReport(data=None, findings=[source.problem])
                else:
                    report = check_match(source.data, wide=source.wide)
                yield LoadedMatch(source.label, source.file, source.line, report, end)
        except UnreadableFileError as e:
            yield Unreadable(name, str(e))


def sources(item: str | Path, name: str, stdin: BinaryIO | None) -> Iterator[tuple[Source, int | None]]:
    """Each match's source, and how many bytes of its file were read once it was."""
    if item == STDIN:
        for source in sources_from_stream(stdin if stdin is not None else sys.stdin.buffer, name):
            yield source, None
        return
    path = Path(item)
    if path.suffix == ".jsonl":
        with open_log(path) as f:
            for source in iter_lines(f, name):
                yield source, f.tell()
        return
    raw = read_bytes(path)
    for source in sources_from_bytes(raw, name):
        yield source, len(raw)
