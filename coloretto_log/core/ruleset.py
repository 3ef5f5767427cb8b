"""Rulesets as data: editions (from ``editions``), scoring tables and table layouts by player count.

Editions differ by the values here, not by ``if``s in the engine
(docs/rules-of-play.md §1, §5, §7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import (
    CARDS_PER_COLOUR,
    GOLDEN_JOKER,
    JOKER,
    KIND_INDEX,
    N_KINDS,
    PLUS2,
)
from .editions import EDITION_TABLE, Edition, edition_choice

__all__ = [
    "ALTERNATIVE", "ANNIVERSARY", "CLASSIC", "EDITIONS", "LAYOUTS", "MAX_PLAYERS", "MIN_PLAYERS", "STANDARD",
    "TABLES", "Edition", "Layout", "RuleSet", "ScoringTable", "colours_in_play", "deck_counts",
    "edition_choice", "max_under_last_round", "under_last_round_problem",
]  # fmt: skip


#: Every edition by name, the default first (``editions.EDITION_TABLE``).
EDITIONS: dict[str, Edition] = {e.name: e for e in EDITION_TABLE}
CLASSIC = EDITIONS["classic"]
ANNIVERSARY = EDITIONS["anniversary"]


@dataclass(frozen=True, slots=True)
class ScoringTable:
    """How a collection scores (docs/rules-of-play.md §5): points for 1, 2, 3, 4, 5 and 6-or-more cards of
    one colour, how many colours score them positively, and the value of a "+2" card."""

    name: str
    points: tuple[int, ...]  # index 0 is for 0 cards, always 0; index 6 is "6 or more"
    positive: int = 3  # at most this many colours score positively
    plus2: int = 2  # points for each "+2" card

    def value(self, n: int) -> int:
        """Points for ``n`` cards of one colour (before its sign)."""
        return self.points[min(6, n)]


STANDARD = ScoringTable("standard", (0, 1, 3, 6, 10, 15, 21))
ALTERNATIVE = ScoringTable("alternative", (0, 1, 4, 8, 7, 6, 5))
TABLES: dict[str, ScoringTable] = {t.name: t for t in (STANDARD, ALTERNATIVE)}


@dataclass(frozen=True, slots=True)
class Layout:
    """What depends on the number of players (docs/rules-of-play.md §2, §7)."""

    players: int
    row_limits: tuple[int, ...]
    removed: int
    starting: int


LAYOUTS: dict[int, Layout] = {
    2: Layout(2, (1, 2, 3), removed=2, starting=2),
    3: Layout(3, (3, 3, 3), removed=1, starting=1),
    4: Layout(4, (3, 3, 3, 3), removed=0, starting=1),
    5: Layout(5, (3, 3, 3, 3, 3), removed=0, starting=1),
}
MIN_PLAYERS = 2
MAX_PLAYERS = 5


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything a game's rules depend on, as one frozen value."""

    edition: Edition = CLASSIC
    table: ScoringTable = STANDARD
    games: int = 4
    under_last_round: int | None = None  # None: the edition's default

    @property
    def under(self) -> int:
        """Cards under the last-round card."""
        return self.edition.under_last_round if self.under_last_round is None else self.under_last_round

    @staticmethod
    def of(
        *,
        edition: str = "classic",
        scoring: str = "standard",
        games: int = 4,
        under_last_round: int | None = None,
    ) -> RuleSet:
        """Build a ruleset from the names used in logs (raises KeyError on unknown names)."""
        return RuleSet(EDITIONS[edition], TABLES[scoring], games, under_last_round)


def colours_in_play(edition: Edition, removed: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The edition's colours less the removed ones, in edition order."""
    return tuple(c for c in edition.colours if c not in removed)


def deck_counts(
    edition: Edition, removed: tuple[str, ...] | list[str], starting_cards: tuple[str, ...] | list[str]
) -> tuple[int, ...]:
    """Cards in the deck by kind: colours in play (9 each less starting cards), jokers, "+2"."""
    counts = [0] * N_KINDS
    for colour in colours_in_play(edition, removed):
        counts[KIND_INDEX[colour]] = CARDS_PER_COLOUR
    for card in starting_cards:
        counts[KIND_INDEX[card]] -= 1
    counts[KIND_INDEX[JOKER]] = edition.jokers
    counts[KIND_INDEX[GOLDEN_JOKER]] = edition.golden_jokers
    counts[KIND_INDEX[PLUS2]] = edition.plus2
    return tuple(counts)


def max_under_last_round(edition: Edition, players: int) -> int:
    """The most cards that can lie under the last-round card for this table."""
    layout = LAYOUTS[players]
    colours = len(edition.colours) - layout.removed
    total = colours * CARDS_PER_COLOUR - players * layout.starting + len(edition.special_cards())
    return total



def under_last_round_problem(rules: RuleSet, players: int) -> str | None:
    """Why ``rules.under_last_round`` cannot be, for this many players (``"<value>: <reason>"``), or None."""
    under = rules.under_last_round
    if under is None:
        return None
    edition = rules.edition
    if under < edition.under_last_round:
        return f"{under}: the {edition.name} edition needs at least {edition.under_last_round}"
    most = max_under_last_round(edition, players)
    if under > most:
        return f"{under}, beyond the deck: {players} players have {most} cards to deal"
    return None
