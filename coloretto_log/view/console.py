"""The console every command prints on: rich's, with lines that never end in blanks.

A table's padding or a cell left empty at the end of a row would leave
spaces at a line's end (``jokers    J → red ``), which a reader of the
output, a ``diff`` or a copy into a chat keeps; ``TrimmedConsole`` drops
them as it writes, and leaves everything else as rich renders it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment


class TrimmedConsole(Console):
    """A rich console whose printed lines never end in blanks (:func:`trim_line_ends`); otherwise rich's own."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(trim_line_ends(buffer))


def _drawn(segment: Segment) -> bool:
    """Whether the segment's blanks are seen: on a background colour, or reversed (a card's block)."""
    style = segment.style
    return style is not None and (style.bgcolor is not None or bool(style.reverse))


def trim_line_ends(segments: Iterable[Segment]) -> list[Segment]:
    """``segments`` with the blanks at the end of every line dropped: spaces and tabs with nothing drawn behind
    them (a card's coloured block keeps its padding), before each newline; control codes kept in place. Text
    after the last newline (a prompt waiting for an answer) keeps its blanks."""
    out: list[Segment] = []
    pending: list[Segment] = []  # since the last text seen on this line: blanks and control codes

    def end_of_line(newline: Segment) -> None:
        kept: list[Segment] = []
        trailing = True  # still in the blanks at the line's end
        for seg in reversed(pending):
            if seg.control:
                kept.append(seg)
            elif not (trailing and not _drawn(seg)):
                trailing = False
                kept.append(seg)
        out.extend(reversed(kept))
        out.append(newline)
        pending.clear()

    for segment in segments:
        text, style, control = segment
        if control or not text:
            pending.append(segment)
            continue
        pieces = text.split("\n")
        for i, piece in enumerate(pieces):
            if i:
                end_of_line(Segment("\n", style))
            if not piece:
                continue
            body = piece if _drawn(segment) else piece.rstrip(" \t")
            if body:
                out.extend(pending)
                pending.clear()
                out.append(Segment(body, style))
            tail = piece[len(body):]
            if tail:
                pending.append(Segment(tail, style))
    out.extend(pending)
    return out
