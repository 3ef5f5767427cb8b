"""Shared pieces of terminal output (rich): cards in colour, collections, tables.

Command modules build their own screens from these; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ..core.cards import CARD_HEX, GOLDEN_JOKER, JOKER, KIND_INDEX, PLUS2, SHORT_LABELS, card_name


def _rgb(hex_colour: str) -> str:
    """A ``#rgb`` or ``#rrggbb`` colour as rich reads it (``#rrggbb``)."""
    digits = hex_colour.lstrip("#")
    return "#" + ("".join(d * 2 for d in digits) if len(digits) == 3 else digits)


#: rich styles for every card name: a coloured block people recognise at a glance, in the
#: display colours of the one table of cards (core.editions), as the viewer shows them.
CARD_STYLES: dict[str, str] = {name: f"bold {_rgb(ink)} on {_rgb(bg)}" for name, (bg, ink) in CARD_HEX.items()}

#: short labels that fit a card.
CARD_LABELS: dict[str, str] = SHORT_LABELS


def card_text(card: str, *, long: bool = False) -> Text:
    """One card as a coloured block, ``[red]`` style (full name when ``long``)."""
    label = card_name(card) if long else CARD_LABELS.get(card, card)
    return Text(f" {label} ", style=CARD_STYLES.get(card, "reverse"))


def cards_text(cards: tuple[str, ...] | list[str], *, long: bool = False, empty: str = "(empty)") -> Text:
    """A row of cards, separated by a space."""
    if not cards:
        return Text(empty, style="dim")
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, long=long))
    return out


def collection_parts(
    counts: tuple[int, ...], colours: tuple[str, ...], *, label: Callable[[str], Text] | None = None
) -> list[Text]:
    """A player's collection card by card: ``red×3``, ``blue×1``, ``J×1``, ``+2×2`` (each kept whole when a line
    wraps), colours in edition order; ``label`` as in :func:`collection_text`."""
    parts = []
    for name in (*colours, JOKER, GOLDEN_JOKER, PLUS2):
        n = counts[KIND_INDEX[name]]
        if n:
            card = card_text(name, long=name in colours) if label is None else label(name)
            parts.append(Text().append_text(card).append(f"×{n}"))
    return parts


def collection_text(
    counts: tuple[int, ...],
    colours: tuple[str, ...],
    *,
    label: Callable[[str], Text] | None = None,
    empty: str = "(nothing yet)",
) -> Text:
    """A player's collection: ``red×3 blue×1 J×1 +2×2`` with coloured labels, colours in edition order.

    ``label``: how a card is shown (default ``card_text``, colours by their long name);
    ``empty``: what an empty collection says (the recorder passes both in the reader's language).
    """
    parts = collection_parts(counts, colours, label=label)
    return Text(" ").join(parts) if parts else Text(empty, style="dim")

