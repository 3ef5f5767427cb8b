"""Tonight's tables as one printable page: a card a table, with the QR code of its ``serve`` page (segno).

The page is plain HTML with inline SVG, no script and no outside resource:
it prints as it shows. Each card names the table's players in seat order
(the starter first), the command that serves the table's log, and the QR
code of the page that command will show: the token in its address is the
one ``serve`` keeps beside the log (``run.saved_token``), made here ahead.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import segno

from ..core.errors import one_line
from .run import saved_token

__all__ = ["TableCard", "cards_page", "table_card"]


@dataclass(frozen=True)
class TableCard:
    """One table's card: its number, players in seat order (starter first), the serve command and page address."""

    number: int
    players: tuple[str, ...]
    command: str
    url: str


def table_card(number: int, players: Sequence[str], log: Path, command: str, host: str, port: int) -> TableCard:
    """The card of table ``number``, whose log will be ``log`` served on ``host:port`` (the token kept beside it)."""
    token = saved_token(log.resolve())
    shown = f"[{host}]" if ":" in host else host
    return TableCard(number, tuple(players), command, f"http://{shown}:{port}/?t={token}")


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .2em; }
p.sub { margin: 0 0 1em; color: #444; }
.cards { display: flex; flex-wrap: wrap; gap: 1em; }
.card { border: 2px solid #333; border-radius: .6em; padding: .8em 1em; width: 17em; break-inside: avoid; }
.card h2 { margin: 0 0 .4em; font-size: 1.2em; }
.card ol { margin: 0 0 .6em 1.2em; padding: 0; }
.card li:first-child { font-weight: bold; }
.card code { display: block; font-size: .7em; word-break: break-all; background: #f3f3f3; padding: .3em; }
.card .url { font-size: .7em; word-break: break-all; }
@media print { body { margin: .5cm; } .card { border-width: 1px; } }
"""


def _text(text: str) -> str:
    """Text from a name for the page: control and bidi characters shown as escapes (``\\u202e``: a name cannot
    turn the text around it, nor the serve command it is in), markup escaped. A name is put in ``<bdi>`` too."""
    return html.escape(one_line(text))


def cards_page(title: str, subtitle: str, cards: Sequence[TableCard]) -> str:
    """The whole page: ``title`` (the evening or round), ``subtitle`` (what the split weighed), the cards."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1><bdi>{_text(title)}</bdi></h1>",
        f'<p class="sub">{_text(subtitle)}</p>',
        '<div class="cards">',
    ]
    for card in cards:
        qr = segno.make(card.url, error="m").svg_inline(scale=4, title=f"Table {card.number}")
        players = "".join(
            f"<li><bdi>{_text(p)}</bdi>{' (starts)' if i == 0 else ''}</li>" for i, p in enumerate(card.players)
        )
        parts.append(
            f'<section class="card"><h2>Table {card.number}</h2><ol>{players}</ol>{qr}'
            f'<p class="url">{html.escape(card.url)}</p><code dir="ltr">{_text(card.command)}</code></section>'
        )
    parts.append("</div></body></html>\n")
    return "\n".join(parts)
