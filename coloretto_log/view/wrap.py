"""Lines that fit the width of the terminal or pipe they go to, wrapped where a reader expects.

A line too wide for ``width`` is broken only at its spaces (and between two
wide characters, as Japanese and Chinese lines are, never before a closing
mark), never inside a number (``4.5 ± 1.2`` is one), a card with its count (``4+1J=5 +15``), a name
or anything else the caller keeps whole, and it goes on under its label (a
hanging indent): a points line under its first colour, a move under its
sentence after the move number. Breaking only swaps a run of spaces for a new
line and the indent, so the words read the same with their whitespace
collapsed (removed, for a break between wide characters). What is wider than
the line by itself (a very long name or file name) stays whole and overflows.
What fits stays on one line.

``line_width()`` is the width: ``COLUMNS`` when set, else the terminal's,
else 80 (piped or redirected), as the tables' consoles measure it.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text

__all__ = ["fit", "line_width", "words", "wrap", "wrapped_plain"]

_SPACES = re.compile(r" +")


def line_width() -> int:
    """The width output goes out at: ``COLUMNS`` if set, else the terminal's, else 80."""
    return max(1, shutil.get_terminal_size((80, 24)).columns)


#: What may not start a line (closing marks, small kana, the long vowel mark) or end one (opening marks) where a
#: line of Japanese or Chinese breaks between two characters.
_NO_START = frozenset("、。，．・：；？！ー）」』】〕〉》ゝゞ々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ％～")
_NO_END = frozenset("（「『【〔〈《")


def _between_wide(plain: str, i: int) -> bool:
    """A line may break before ``plain[i]``: between two wide characters, as Japanese and Chinese lines do (Korean
    puts spaces between its words: it breaks there, never inside a word of Hangul)."""
    before, after = plain[i - 1], plain[i]
    return (
        unicodedata.east_asian_width(before) in "WF" and unicodedata.east_asian_width(after) in "WF"
        and after not in _NO_START and before not in _NO_END
        and not ("\uac00" <= before <= "\ud7a3" or "\uac00" <= after <= "\ud7a3")
    )  # fmt: skip


def _indent(cells: int, width: int) -> int:
    """A hanging indent that leaves the line room: at most half the width (else 4 cells)."""
    return cells if cells <= width // 2 else min(4, cells)


def _fill(first: Text, rest: Sequence[tuple[Text | str, Text]], width: int, indent: int) -> list[Text]:
    """``first``, then each (space, piece) on the same line while it fits, else on a new line after ``indent``."""
    lines: list[Text] = []
    line = first.copy()
    cells = line.cell_len
    for space, piece in rest:
        gap = len(space) if isinstance(space, str) else len(space.plain)  # spaces: one cell each
        size = piece.cell_len
        if cells + gap + size <= width:
            line.append(space)
            line.append_text(piece)
            cells += gap + size
        else:
            lines.append(line)
            line = Text(" " * indent)
            line.append_text(piece)
            cells = indent + size
    lines.append(line)
    return lines


def wrap(
    text: Text | str, width: int | None = None, *, hang: int = 0, indent: int | None = None, keep: Iterable[str] = ()
) -> list[Text]:
    """``text`` as lines no wider than ``width`` (default :func:`line_width`), broken at runs of spaces.

    ``hang``: the offset in ``text`` the continuation lines start under (no break before it); ``indent``: their
    indent in cells instead (default: the cells before ``hang``, at most half the width). ``keep``: strings never
    broken inside wherever they occur (names, cards with their counts, a rule's words). Leading and trailing
    spaces are never a break.
    """
    line = _text(text)
    width = line_width() if width is None else width
    if line.cell_len <= width:
        return [line]
    plain = line.plain
    kept = [(m.start(), m.end()) for k in set(keep) if k for m in re.finditer(re.escape(k), plain)]
    first = max(hang, 1)
    cuts = sorted(
        [(m.start(), m.end()) for m in _SPACES.finditer(plain)
         if m.start() >= first and m.end() < len(plain) and plain[m.start() - 1] != "±" and plain[m.end()] != "±"]
        + [(i, i) for i in range(first, len(plain)) if _between_wide(plain, i)]
    )
    cuts = [(s, e) for s, e in cuts if not any(a < s and e < b or a < s < b for a, b in kept)]
    if not cuts:
        return [line]
    offsets = [o for cut in cuts for o in cut]
    parts = line.divide(offsets)  # first, then (space, piece) pairs
    pieces = list(parts)
    hung = _indent(cell_len(plain[:hang]), width) if indent is None else indent
    rest = [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces), 2)]
    return _fill(pieces[0], rest, width, hung)


def fit(
    head: Text | str, parts: Sequence[Text | str | tuple[str, Text | str]], width: int | None = None, *,
    sep: str = "  ", indent: int | None = None,
) -> list[Text]:  # fmt: skip
    """``head`` (a label) then ``parts`` joined by ``sep``, as lines no wider than ``width``: a part that does not
    fit starts a new line under the first part (``indent`` cells in instead, when given). Parts are never broken;
    a part given as ``(space, part)`` comes after its own ``space`` instead of ``sep``."""
    width = line_width() if width is None else width
    first = Text(head) if isinstance(head, str) else head.copy()
    pairs = [(p[0], _text(p[1])) if isinstance(p, tuple) else (sep, _text(p)) for p in parts]
    if not pairs:
        return [first]
    hung = _indent(first.cell_len, width) if indent is None else indent
    first.append_text(pairs[0][1])
    return _fill(first, pairs[1:], width, hung)


def _text(part: Text | str) -> Text:
    return Text(part) if isinstance(part, str) else part


def words(text: str, keep: Iterable[str] = ()) -> list[str]:
    """``text`` split at its spaces, except inside the strings of ``keep``: the parts :func:`fit` may put on
    separate lines (a sentence after a row of cards), joined again by a space. Only at spaces: a Japanese phrase
    stays whole, as a break between its characters would come back with a space in it ("（原版、 通常の得点表）")."""
    kept = [(m.start(), m.end()) for k in keep if k for m in re.finditer(re.escape(k), text)]
    parts, start = [], 0
    for gap in _SPACES.finditer(text):
        if not any(a < gap.start() < b for a, b in kept):
            parts.append(text[start:gap.start()])
            start = gap.end()
    parts.append(text[start:])
    return [p for p in parts if p]


def wrapped_plain(
    text: str, width: int | None = None, *, hang: int = 0, indent: int | None = None, keep: Iterable[str] = ()
) -> str:
    """:func:`wrap` for plain text: the lines joined by new lines."""
    return "\n".join(line.plain for line in wrap(text, width, hang=hang, indent=indent, keep=keep))
