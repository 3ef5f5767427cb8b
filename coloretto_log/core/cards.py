"""Card names, the colour order of each edition, and deck composition.

Cards are plain strings, exactly the names of the log format
(docs/format.md §2). A *kind* index gives every card name a fixed position so
that collections can be stored as count tuples.
"""

from __future__ import annotations

ORANGE = "orange"
BLUE = "blue"
BROWN = "brown"
YELLOW = "yellow"
GREY = "grey"
GREEN = "green"
RED = "red"
PURPLE = "purple"
JOKER = "joker"
GOLDEN_JOKER = "golden_joker"
PLUS2 = "plus2"
LAST_ROUND = "last_round"

#: Every colour of every edition, in one fixed order (classic order, then purple).
ALL_COLOURS: tuple[str, ...] = (ORANGE, BLUE, BROWN, YELLOW, GREY, GREEN, RED, PURPLE)
#: Jokers of either kind.
JOKERS: tuple[str, ...] = (JOKER, GOLDEN_JOKER)
#: Every card a collection can hold, in kind order.
KINDS: tuple[str, ...] = ALL_COLOURS + (JOKER, GOLDEN_JOKER, PLUS2)
#: Every name the log format knows.
CARD_NAMES: tuple[str, ...] = KINDS + (LAST_ROUND,)

#: Two-letter labels that fit on a drawn card (green is "gn", so that "gr" stays grey's).
SHORT_LABELS: dict[str, str] = {
    ORANGE: "or",
    BLUE: "bl",
    BROWN: "br",
    YELLOW: "ye",
    GREY: "gy",
    GREEN: "gn",
    RED: "rd",
    PURPLE: "pu",
    JOKER: "J",
    GOLDEN_JOKER: "GJ",
    PLUS2: "+2",
    LAST_ROUND: "LR",
}

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
    "orange": ORANGE, "or": ORANGE, "o": ORANGE,
    "blue": BLUE, "bl": BLUE,
    "brown": BROWN, "br": BROWN,
    "yellow": YELLOW, "ye": YELLOW, "y": YELLOW,
    "grey": GREY, "gray": GREY, "gr": GREY, "gy": GREY,
    "green": GREEN, "gn": GREEN, "g": GREEN,
    "red": RED, "rd": RED, "r": RED,
    "purple": PURPLE, "pu": PURPLE,
    "joker": JOKER, "j": JOKER, "jokers": JOKER,
    "golden_joker": GOLDEN_JOKER, "golden": GOLDEN_JOKER, "gold": GOLDEN_JOKER, "gj": GOLDEN_JOKER,
    "goldenjoker": GOLDEN_JOKER, "golden_jokers": GOLDEN_JOKER,
    "plus2": PLUS2, "+2": PLUS2, "+": PLUS2, "p2": PLUS2, "plus_2": PLUS2,
}  # fmt: skip


def typed_card(word: str) -> str | None:
    """The card a typed name means (case does not matter; ``gray`` -> ``grey``, ``+2`` -> ``plus2``), or None."""
    return CARD_ALIASES.get(word.strip().lower().replace("-", "_").replace(" ", "_"))


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
