"""Card names, the colour order of each edition, and deck composition, derived from ``editions``.

Cards are plain strings, exactly the names of the log format
(docs/format.md §2). A *kind* index gives every card name a fixed position so
that collections can be stored as count tuples.
"""

from __future__ import annotations

from .editions import CARD_TABLE, EDITION_TABLE, GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2, CardKind

__all__ = [
    "ALL_COLOURS", "BLUE", "BROWN", "CARDS_PER_COLOUR", "CARD_ALIASES", "CARD_HEX", "CARD_KINDS", "CARD_NAMES",
    "EMPTY_COUNTS", "GOLDEN_INDEX", "GOLDEN_JOKER", "GREEN", "GREY", "JOKER", "JOKERS", "JOKER_INDEX", "KINDS",
    "KIND_INDEX", "LAST_ROUND", "N_KINDS", "ORANGE", "PLUS2", "PLUS2_INDEX", "PURPLE", "RED", "SHORT_LABELS",
    "YELLOW", "CardKind", "cards_of", "counts_of", "is_colour", "typed_card",
]  # fmt: skip

ORANGE = "orange"
BLUE = "blue"
BROWN = "brown"
YELLOW = "yellow"
GREY = "grey"
GREEN = "green"
RED = "red"
PURPLE = "purple"

#: Every card kind of the table (``editions.CARD_TABLE``), by name.
CARD_KINDS: dict[str, CardKind] = {k.name: k for k in CARD_TABLE}
#: Every colour of every edition, in one fixed order (the table's: classic order, then purple).
ALL_COLOURS: tuple[str, ...] = tuple(
    k.name for k in CARD_TABLE if k.colour and any(k.name in e.colours for e in EDITION_TABLE)
)
#: Jokers of either kind.
JOKERS: tuple[str, ...] = (JOKER, GOLDEN_JOKER)
#: Every card a collection can hold, in kind order.
KINDS: tuple[str, ...] = ALL_COLOURS + (JOKER, GOLDEN_JOKER, PLUS2)
#: Every name the log format knows.
CARD_NAMES: tuple[str, ...] = KINDS + (LAST_ROUND,)

#: Two-letter labels that fit on a drawn card (green is "gn", so that "gr" stays grey's).
SHORT_LABELS: dict[str, str] = {name: CARD_KINDS[name].label for name in CARD_NAMES}
#: Display colours, ``(background, ink)`` as ``#rrggbb``, of every card name.
CARD_HEX: dict[str, tuple[str, str]] = {name: (CARD_KINDS[name].hex, CARD_KINDS[name].ink) for name in CARD_NAMES}

KIND_INDEX: dict[str, int] = {name: i for i, name in enumerate(KINDS)}
N_KINDS = len(KINDS)
JOKER_INDEX = KIND_INDEX[JOKER]
GOLDEN_INDEX = KIND_INDEX[GOLDEN_JOKER]
PLUS2_INDEX = KIND_INDEX[PLUS2]

CARDS_PER_COLOUR = 9

#: A collection with no cards.
EMPTY_COUNTS: tuple[int, ...] = (0,) * N_KINDS


#: Every name a person may type for a card (the recorder's moves and setups, the
#: score calculator's hands), keys lower case with "_" for "-" and spaces: the
#: log format's names, the two-letter labels, one-letter short forms ("gr" is
#: grey, "g"/"gn" green) and words people use ("gray", "gold", "+2", "jokers").
CARD_ALIASES: dict[str, str] = {
    word: name for name in KINDS for word in (name, *CARD_KINDS[name].aliases)
}


def typed_card(word: str) -> str | None:
    """The card a typed name means (case does not matter; ``gray`` -> ``grey``, ``+2`` -> ``plus2``), or None."""
    return CARD_ALIASES.get(word.strip().lower().replace("-", "_").replace(" ", "_"))


#: How a person reads a card that is not a colour (a colour is read by its name).
_SPOKEN = {JOKER: "joker", GOLDEN_JOKER: "golden joker", PLUS2: "+2", LAST_ROUND: "last-round card"}


def card_name(card: str) -> str:
    """A card as people read it, wherever they read it: ``red``, ``joker``, ``golden joker``, ``+2``."""
    return _SPOKEN.get(card, card)


def is_colour(name: str) -> bool:
    """True for a colour of any edition."""
    return name in ALL_COLOURS


def counts_of(cards: tuple[str, ...] | list[str]) -> tuple[int, ...]:
    """Count cards by kind (``last_round`` is not a kind and is rejected)."""
    counts = [0] * N_KINDS
    for card in cards:
        counts[KIND_INDEX[card]] += 1
    return tuple(counts)


def cards_of(counts: tuple[int, ...]) -> tuple[str, ...]:
    """The cards of a count tuple, in kind order."""
    out: list[str] = []
    for kind, n in zip(KINDS, counts):
        out.extend([kind] * n)
    return tuple(out)
