"""JSON and CSV written to a terminal: what ``core.errors.one_line`` escapes never reaches it raw.

``--json`` and ``--format csv`` are exact data for programs; when a person's
terminal is the reader, :class:`TerminalSafe` escapes C1 controls, DEL, the
line separators and the bidi controls a name may hold (JSON as ``\\u``
escapes, so it reads back as the same value; CSV as ``one_line`` shows
them). Anywhere else (a pipe, a file) the bytes are unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from ..core.errors import json_for_terminal, lines_for_terminal

__all__ = ["TerminalSafe", "on_terminal"]


def on_terminal(file: TextIO) -> bool:
    """``file`` is a terminal (a person reads it)."""
    try:
        return file.isatty()
    except (AttributeError, ValueError):
        return False


class TerminalSafe:
    """A ``write`` over ``file`` (standard output as it is at each write, when None) that escapes on a terminal.

    ``kind`` is ``json`` (:func:`core.errors.json_for_terminal`) or ``text``
    (:func:`core.errors.lines_for_terminal`: line breaks kept, as CSV needs).
    """

    def __init__(self, file: TextIO | None = None, *, kind: str = "json") -> None:
        self._file = file
        self._escape: Callable[[str], str] = json_for_terminal if kind == "json" else lines_for_terminal

    def write(self, text: str) -> int:
        out = sys.stdout if self._file is None else self._file
        return out.write(self._escape(text) if on_terminal(out) else text)
