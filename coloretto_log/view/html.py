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
string; ``page_chunks`` yields the same text in pieces, a match at a time, so
that a long file is written without holding the page in memory.

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
from functools import cache
from importlib.resources import files
from typing import Any

from ..core.cards import LAST_ROUND, SHORT_LABELS
from ..report.timeline import MatchTimeline

__all__ = ["CARD_COLOURS", "CARD_LABELS", "embed_json", "fill", "page_chunks", "render_html"]

#: Short labels drawn on cards (full names are in the tooltip).
CARD_LABELS: dict[str, str] = {k: v for k, v in SHORT_LABELS.items() if k != LAST_ROUND}

#: Card colours: (background, text).
CARD_COLOURS: dict[str, tuple[str, str]] = {
    "orange": ("#f08a24", "#000"),
    "blue": ("#1f5fbf", "#fff"),
    "brown": ("#7a4a21", "#fff"),
    "yellow": ("#f5d327", "#000"),
    "grey": ("#9b9b9b", "#000"),
    "green": ("#23883a", "#fff"),
    "red": ("#d12a2a", "#fff"),
    "purple": ("#7440a6", "#fff"),
    "joker": ("#ffffff", "#000"),
    "golden_joker": ("#e8b923", "#000"),
    "plus2": ("#333333", "#fff"),
}

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


def page_chunks(
    timelines: Iterable[MatchTimeline], *, title: str, start: dict[str, int] | None = None
) -> Iterator[str]:
    """The page of ``render_html``, in pieces: the head, then each match's data, then the tail.

    ``timelines`` is consumed lazily, one match at a time.
    """
    head, tail = _asset("viewer.html").split(_DATA)
    parts = {
        "TITLE": html.escape(f"Coloretto replay · {title}"),
        "CSS": _asset("viewer.css"),
        "CARD_CSS": _card_css(),
        "JS": _asset("viewer.js"),
    }
    yield fill(head, parts)
    # The data object, written a match at a time: {"title", "start", "labels", "matches": [...]}.
    opening = embed_json({"title": title, "start": start, "labels": CARD_LABELS})
    yield opening[:-1] + ',"matches":['
    for k, t in enumerate(timelines):
        yield ("," if k else "") + embed_json(t.as_json())
    yield "]}"
    yield fill(tail, parts)


def render_html(
    timelines: Iterable[MatchTimeline], *, title: str, start: dict[str, int] | None = None
) -> str:
    """The viewer page for ``timelines`` (every match of one file).

    ``start``: ``{"match": K, "game": G, "move": M}`` (from 1, 1, 0; ``move``
    -1 for the end) to open at; by default the first game's first move. A
    ``#m=K&g=G&s=M`` fragment in the page's address overrides it.
    """
    return "".join(page_chunks(timelines, title=title, start=start))
