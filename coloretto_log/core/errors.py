"""The package's exceptions and the ``Finding`` every check reports."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]


class ColorettoLogError(Exception):
    """Base of every error this package raises on purpose."""


class UnreadableFileError(ColorettoLogError):
    """A path that cannot be read at all (missing, not a regular file, too large, no permission)."""


class UsageError(ColorettoLogError):
    """Options or arguments that do not make sense together."""


#: Characters that reorder the text around them on a terminal (bidirectional overrides, embeddings, isolates
#: and marks: "Trojan Source"): a name holding U+202E would show the rest of the line backwards.
BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
#: What a terminal must never receive raw from a log, a file name or the database, beyond the C0 controls
#: (which JSON escapes itself): DEL, the C1 controls (CSI 0x9b), the line and paragraph separators, bidi.
_BEYOND_C0 = (0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *BIDI_CONTROLS)
_CONTROL = {c: f"\\x{c:02x}" for c in range(32)} | {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
_CONTROL.update({c: f"\\x{c:02x}" if c == 0x7F else f"\\u{c:04x}" for c in _BEYOND_C0})
_JSON_TERMINAL = {c: f"\\u{c:04x}" for c in _BEYOND_C0}
_LINES = {c: e for c, e in _CONTROL.items() if c != 0x0A}

#: A message is at most this long; a run of digits at most ``MAX_DIGITS`` (longer ones are shortened).
MAX_MESSAGE = 1000
MAX_DIGITS = 24
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")


def one_line(text: str) -> str:
    """``text`` with control, line-breaking and bidi characters escaped (``\\n``, ``\\x1b``, ``\\u202e``, ...):
    the one escaping of what reaches a terminal from a log, a file name or the database."""
    return text.translate(_CONTROL)


def lines_for_terminal(text: str) -> str:
    """``text`` (lines of CSV, say) escaped as :func:`one_line` escapes it, its line breaks (``\\n``) kept."""
    return text.translate(_LINES)


def json_for_terminal(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with what :func:`one_line` escapes
    written as ``\\uXXXX`` escapes: the same JSON value, safe to show on a terminal (JSON escapes C0 itself)."""
    return text.translate(_JSON_TERMINAL)


def shorten(text: str) -> str:
    """``text`` with long numbers shown as ``123456…789 (4000 digits)`` and at most ``MAX_MESSAGE`` characters."""
    if len(text) > MAX_DIGITS:
        text = _LONG_DIGITS.sub(lambda m: f"{m[0][:6]}…{m[0][-3:]} ({len(m[0])} digits)", text)
    if len(text) > MAX_MESSAGE:
        text = f"{text[: MAX_MESSAGE - 40]}… ({len(text) - MAX_MESSAGE + 40} more characters)"
    return text


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing validation found, at one place (docs/format.md §3).

    ``game`` and ``move`` are numbered from 1; ``None`` for the match itself
    or for a game's setup.
    """

    severity: Severity
    rule: str
    message: str
    game: int | None = None
    move: int | None = None

    def __post_init__(self) -> None:
        if len(self.message) > MAX_DIGITS:  # a 4,000-digit row number is not shown in full
            object.__setattr__(self, "message", shorten(self.message))

    def where(self) -> str:
        """``game G, move M`` (or less), as the one-line form shows it."""
        if self.game is None:
            return ""
        if self.move is None:
            return f"game {self.game}"
        return f"game {self.game}, move {self.move}"

    def line(self, source: str) -> str:
        """The finding as one line: ``FILE[:LINE]: game G, move M: error [rule] message``.

        Control characters (a newline in a player's name or a file name) are
        shown escaped, so a finding is always exactly one line.
        """
        where = self.where()
        place = f"{one_line(source)}: {where}: " if where else f"{one_line(source)}: "
        return f"{place}{self.severity} [{self.rule}] {one_line(self.message)}"

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "move": self.move,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }
