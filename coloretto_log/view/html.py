"""A self-contained HTML page that replays matches in a browser.

The page is three package data files, ``assets/viewer.html``, ``viewer.css``
and ``viewer.js``, inlined into one document when it is written: no network
access, no external fonts or scripts. The data is the JSON of
``MatchTimeline.as_json()`` (docs/replay.md), embedded in a
``<script type="application/json">`` element; the script draws what that JSON
says (the rows and collections of the current move as cards, the scores,
ranks, winners and claim verdicts the report computed) and computes none of
it again. A slider, buttons and the arrow keys step through the moves; a menu
switches games. The page opens from disk and fits a phone's screen.

``render_html(timelines, title=..., start=...)`` returns the page as one
string; ``page_chunks`` yields the same text in pieces, a match at a time, and
``write_html`` writes them atomically as they come, so that a long file is
written without holding the page in memory, and refuses (``PageTooLarge``) a
page over ``PAGE_LIMIT`` bytes, which a browser could not open comfortably.

For programs (and the browser test) the page exposes what it shows as
attributes: ``<body data-game="G" data-move="M">``, every card carries
``data-card``, every row ``data-row``, every player panel ``data-player``
and ``data-score``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.cards import CARD_HEX, LAST_ROUND, SHORT_LABELS
from ..core.errors import ColorettoLogError
from ..log.atomic import atomic_write_lines
from ..report.timeline import MatchTimeline

__all__ = [
    "CARD_COLOURS",
    "CARD_LABELS",
    "PAGE_LIMIT",
    "PageTooLarge",
    "PageWritten",
    "embed_json",
    "fill",
    "page_chunks",
    "render_html",
    "write_html",
]

#: The largest page ``write_html`` writes, in bytes (50 MB). A browser parses the
#: page's data as one JSON text: much more and a phone (or a desktop) stalls or
#: gives up. A 4-game match of about 90 moves a game is about 0.5 MB.
PAGE_LIMIT = 50_000_000

#: Short labels drawn on cards (full names are in the tooltip).
CARD_LABELS: dict[str, str] = {k: v for k, v in SHORT_LABELS.items() if k != LAST_ROUND}

#: Card colours: (background, text).
CARD_COLOURS: dict[str, tuple[str, str]] = {k: v for k, v in CARD_HEX.items() if k != LAST_ROUND}

#: ``%%NAME%%`` in the page template: where a part goes.
_PLACEHOLDER = re.compile(r"%%([A-Z_]+)%%")
_DATA = "%%DATA%%"


def embed_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` in the text."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def fill(template: str, parts: Mapping[str, str]) -> str:
    """``template`` with every ``%%NAME%%`` replaced by ``parts[NAME]``, in one pass.

    What is put in is never read again: a title that contains ``%%DATA%%``
    stays that text. A placeholder without a part is a bug (``KeyError``).
    """
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1)], template)


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _card_css() -> str:
    return "\n".join(f".k-{name}{{background:{bg};color:{fg}}}" for name, (bg, fg) in CARD_COLOURS.items())


def _frame(title: str, start: dict[str, int] | None) -> tuple[str, str]:
    """The page before the matches' data (ending in ``"matches":[``) and after it (from ``]}``)."""
    head, tail = _asset("viewer.html").split(_DATA)
    parts = {
        "TITLE": html.escape(f"Coloretto replay · {title}"),
        "CSS": _asset("viewer.css"),
        "CARD_CSS": _card_css(),
        "JS": _asset("viewer.js"),
    }
    # The data object, written a match at a time: {"title", "start", "labels", "matches": [...]}.
    opening = embed_json({"title": title, "start": start, "labels": CARD_LABELS})
    return fill(head, parts) + opening[:-1] + ',"matches":[', "]}" + fill(tail, parts)


def page_chunks(
    timelines: Iterable[MatchTimeline], *, title: str, start: dict[str, int] | None = None
) -> Iterator[str]:
    """The page of ``render_html``, in pieces: the head, then each match's data, then the tail.

    ``timelines`` is consumed lazily, one match at a time.
    """
    before, after = _frame(title, start)
    yield before
    for k, t in enumerate(timelines):
        yield ("," if k else "") + embed_json(t.as_json())
    yield after


def render_html(
    timelines: Iterable[MatchTimeline], *, title: str, start: dict[str, int] | None = None
) -> str:
    """The viewer page for ``timelines`` (every match of one file).

    ``start``: ``{"match": K, "game": G, "move": M}`` (from 1, 1, 0; ``move``
    -1 for the end) to open at; by default the first game's first move. A
    ``#m=K&g=G&s=M`` fragment in the page's address overrides it.
    """
    return "".join(page_chunks(timelines, title=title, start=start))


class PageTooLarge(ColorettoLogError):
    """The page would be larger than the limit: nothing was written."""

    def __init__(self, limit: int, matches: int) -> None:
        super().__init__(f"the page would be over {limit:,} bytes after {matches} matches")
        self.limit = limit
        self.matches = matches  # matches in the page when the limit was passed


@dataclass(frozen=True, slots=True)
class PageWritten:
    """What ``write_html`` wrote."""

    size: int  # bytes
    matches: int
    games: int


def write_html(
    path: Path,
    timelines: Iterable[MatchTimeline],
    *,
    title: str,
    start: dict[str, int] | None = None,
    limit: int | None = None,
) -> PageWritten:
    """Write the page of ``timelines`` to ``path`` atomically, a match at a time.

    Raises ``PageTooLarge`` (and leaves ``path`` as it was) as soon as the page
    passes ``limit`` bytes (default ``PAGE_LIMIT``); ``OSError`` when the file
    cannot be written.
    """
    cap = PAGE_LIMIT if limit is None else limit
    before, after = _frame(title, start)
    count = {"size": _size(before) + _size(after), "matches": 0, "games": 0}

    def chunks() -> Iterator[str]:
        if count["size"] > cap:
            raise PageTooLarge(cap, 0)
        yield before
        for t in timelines:
            count["matches"] += 1
            count["games"] += len(t.games)
            chunk = ("," if count["matches"] > 1 else "") + embed_json(t.as_json())
            count["size"] += _size(chunk)
            if count["size"] > cap:
                raise PageTooLarge(cap, count["matches"])
            yield chunk
        yield after

    atomic_write_lines(path, chunks(), newline=False)
    return PageWritten(count["size"], count["matches"], count["games"])


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
