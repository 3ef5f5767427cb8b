"""The package's exceptions and the ``Finding`` every check reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]


class ColorettoLogError(Exception):
    """Base of every error this package raises on purpose."""


class UnreadableFileError(ColorettoLogError):
    """A path that cannot be read at all (missing, not a regular file, too large, no permission)."""


class UsageError(ColorettoLogError):
    """Options or arguments that do not make sense together."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing validation found, at one place (LOG_FORMAT.md §3).

    ``game`` and ``move`` are numbered from 1; ``None`` for the match itself
    or for a game's setup.
    """

    severity: Severity
    rule: str
    message: str
    game: int | None = None
    move: int | None = None

    def where(self) -> str:
        """``game G, move M`` (or less), as the one-line form shows it."""
        if self.game is None:
            return ""
        if self.move is None:
            return f"game {self.game}"
        return f"game {self.game}, move {self.move}"

    def line(self, source: str) -> str:
        """The finding as one line: ``FILE[:LINE]: game G, move M: error [rule] message``."""
        where = self.where()
        place = f"{source}: {where}: " if where else f"{source}: "
        return f"{place}{self.severity} [{self.rule}] {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "move": self.move,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }
