"""The one table of editions and card kinds; every other list derives from it.

A card kind here is what a person sees and types: its name in the log format
(docs/format.md §2), the two-letter label drawn on a card, the short form the
recorder's help lists, the other words people type, and its display colour
(background and ink, as hex) from which the terminal styles and the viewer's
colours derive. An edition is its colours and special cards
(docs/rules-of-play.md §1).

Derived from this table (never written out again): ``cards.ALL_COLOURS``,
``cards.KINDS``, ``cards.SHORT_LABELS``, ``cards.CARD_ALIASES``,
``cards.CARD_HEX``; ``ruleset.EDITIONS``; the log models' accepted names and
the JSON Schema (``log.models``); the command line's ``--edition`` choices and
their messages; the terminal's card styles (``view.terminal``); the
database's colour columns (``db.schema``).

To add an edition, add its new colours to ``CARD_TABLE`` and the edition to
``EDITION_TABLE`` below. A program or a test may instead call
:func:`add_edition` *before* anything else of the package is imported (the
derived tables are built once, at import): ``tests/core/test_editions.py`` does so
in a fresh interpreter.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

JOKER = "joker"
GOLDEN_JOKER = "golden_joker"
PLUS2 = "plus2"
LAST_ROUND = "last_round"


@dataclass(frozen=True, slots=True)
class CardKind:
    """One card kind as people see and type it."""

    name: str  # the log format's name
    label: str  # two letters that fit on a drawn card
    short: str  # the short form the recorder's help lists
    aliases: tuple[str, ...]  # every other word people type (lower case, "_" for "-" and spaces); none for last_round
    hex: str  # display colour, "#rrggbb"
    ink: str  # the colour of text on it, "#rgb" or "#rrggbb"
    colour: bool = True  # a colour (scored), or a joker, a "+2", the last-round card


@dataclass(frozen=True, slots=True)
class Edition:
    """One published edition of the game (docs/rules-of-play.md §1)."""

    name: str
    colours: tuple[str, ...]
    jokers: int
    golden_jokers: int
    plus2: int
    under_last_round: int

    def special_cards(self) -> tuple[str, ...]:
        """Jokers, golden jokers and "+2" cards, in canonical deck order."""
        return (JOKER,) * self.jokers + (GOLDEN_JOKER,) * self.golden_jokers + (PLUS2,) * self.plus2

    def card_names(self) -> tuple[str, ...]:
        """Every card name that belongs to this edition (no last-round card)."""
        return self.colours + (JOKER,) + ((GOLDEN_JOKER,) if self.golden_jokers else ()) + (PLUS2,)


#: Every card kind: the colours first (their order is the order of collections and of the
#: database's colour columns), then the jokers, the "+2" card and the last-round card.
#: Green's label is "gn", so that "gr" stays grey's.
CARD_TABLE: list[CardKind] = [
    CardKind("orange", "or", "o", ("or", "o"), "#f08a24", "#000"),
    CardKind("blue", "bl", "bl", ("bl",), "#1f5fbf", "#fff"),
    CardKind("brown", "br", "br", ("br",), "#7a4a21", "#fff"),
    CardKind("yellow", "ye", "y", ("ye", "y"), "#f5d327", "#000"),
    CardKind("grey", "gy", "gr", ("gray", "gr", "gy"), "#9b9b9b", "#000"),
    CardKind("green", "gn", "g", ("gn", "g"), "#23883a", "#fff"),
    CardKind("red", "rd", "r", ("rd", "r"), "#d12a2a", "#fff"),
    CardKind("purple", "pu", "pu", ("pu",), "#7440a6", "#fff"),
    CardKind(JOKER, "J", "j", ("j", "jokers"), "#ffffff", "#000", colour=False),
    CardKind(
        GOLDEN_JOKER, "GJ", "gj", ("golden", "gold", "gj", "goldenjoker", "golden_jokers"), "#e8b923", "#000",
        colour=False,
    ),
    CardKind(PLUS2, "+2", "+2", ("+2", "+", "p2", "plus_2"), "#333333", "#fff", colour=False),
    CardKind(LAST_ROUND, "LR", "l", (), "#000000", "#fff", colour=False),
]

#: Every edition, the default first.
EDITION_TABLE: list[Edition] = [
    Edition(
        name="classic",
        colours=("orange", "blue", "brown", "yellow", "grey", "green", "red"),
        jokers=3,
        golden_jokers=0,
        plus2=10,
        under_last_round=15,
    ),
    Edition(
        name="anniversary",
        colours=("orange", "blue", "brown", "yellow", "green", "red", "purple"),
        jokers=2,
        golden_jokers=1,
        plus2=10,
        under_last_round=16,
    ),
]

#: The modules that build their tables from this one at import.
_DERIVED = ("coloretto_log.core.cards", "coloretto_log.core.ruleset")


def add_edition(edition: Edition, new_colours: tuple[CardKind, ...] = ()) -> None:
    """Register ``edition`` and the colours it brings, before the package builds its tables.

    Raises RuntimeError once a derived table exists (``core.cards`` or
    ``core.ruleset`` imported), and ValueError on a name already taken or a
    colour no card kind describes.
    """
    built = [name for name in _DERIVED if name in sys.modules]
    if built:
        raise RuntimeError(f"add editions before importing {', '.join(built)}: its tables are already built")
    names = {k.name for k in CARD_TABLE}
    if edition.name in {e.name for e in EDITION_TABLE}:
        raise ValueError(f"edition {edition.name!r} exists already")
    for kind in new_colours:
        if kind.name in names or not kind.colour:
            raise ValueError(f"{kind.name!r}: not a new colour")
    known = names | {k.name for k in new_colours}
    unknown = [c for c in edition.colours if c not in known]
    if unknown:
        raise ValueError(f"colours without a card kind: {', '.join(unknown)}")
    first_special = next(i for i, k in enumerate(CARD_TABLE) if not k.colour)
    CARD_TABLE[first_special:first_special] = new_colours
    EDITION_TABLE.append(edition)


def edition_names() -> tuple[str, ...]:
    """Every edition's name, the default first."""
    return tuple(e.name for e in EDITION_TABLE)


def edition_choice(*, default: bool = False) -> str:
    """The editions as a person reads a choice: ``classic or anniversary`` (``a, b or c`` for more);
    ``default``: the first one says so, ``classic (default) or anniversary``."""
    names = list(edition_names())
    if default:
        names[0] += " (default)"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def under_last_round_defaults() -> str:
    """Each edition's cards under the last-round card, as help text says it: ``15 classic, 16 anniversary``."""
    return ", ".join(f"{e.under_last_round} {e.name}" for e in EDITION_TABLE)
