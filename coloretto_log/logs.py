"""Load match logs from paths and check each match: the step every command starts with."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import Finding, UnreadableFileError
from .files import STDIN, expand_paths, read_bytes, read_stream, sources_from_bytes
from .replay import MatchReport, check_match


@dataclass(frozen=True, slots=True)
class LoadedMatch:
    """One match from one file (or one line of a ``.jsonl`` file), checked."""

    label: str  # FILE or FILE:LINE
    file: str
    line: int | None
    report: MatchReport

    def findings(self) -> list[Finding]:
        return self.report.all_findings()


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A path that could not be read at all."""

    file: str
    message: str


def load(paths: list[str], *, stdin: BinaryIO | None = None) -> Iterator[LoadedMatch | Unreadable]:
    """Every match under ``paths`` (files, folders, ``-``), checked, in order."""
    for item in expand_paths(paths):
        if item == STDIN:
            name = "<stdin>"
            try:
                raw = read_stream(stdin if stdin is not None else sys.stdin.buffer, name)
            except UnreadableFileError as e:
                yield Unreadable(name, str(e))
                continue
            lines: bool | None = None  # standard input: one JSON document, or JSON Lines
        else:
            path = Path(item)
            name = str(path)
            try:
                raw = read_bytes(path)
            except UnreadableFileError as e:
                yield Unreadable(name, str(e))
                continue
            lines = path.suffix == ".jsonl"
        for source in sources_from_bytes(raw, name, lines=lines):
            if source.problem is not None:
                report = MatchReport(findings=[source.problem])
            else:
                report = check_match(source.data)
            yield LoadedMatch(source.label, source.file, source.line, report)
