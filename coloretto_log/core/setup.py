"""Seeded setup in the four steps of docs/format.md §4.

Each step always consumes its draws; an explicit value from the log replaces
the drawn one in that step and every later one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import LAST_ROUND, cards_of
from .rng import SplitMix64, game_generator
from .ruleset import LAYOUTS, RuleSet, colours_in_play, deck_counts


@dataclass(frozen=True, slots=True)
class Setup:
    """The starting conditions of one game."""

    removed: tuple[str, ...]
    starting: tuple[tuple[str, ...], ...]  # by seat
    first: int  # seat
    deck: tuple[str, ...] | None  # top first, with LAST_ROUND; None when unknown (recorded)


def canonical_deck(rules: RuleSet, removed: tuple[str, ...], starting: tuple[tuple[str, ...], ...]) -> list[str]:
    """The cards in play in canonical order (§4 step 4), before shuffling."""
    return list(cards_of(deck_counts(rules.edition, removed, [c for cards in starting for c in cards])))


def insert_last_round(shuffled: list[str], under: int) -> tuple[str, ...]:
    """Put the last-round card so that exactly ``under`` cards lie under it."""
    at = len(shuffled) - under
    return tuple(shuffled[:at] + [LAST_ROUND] + shuffled[at:])


def seeded_setup(
    rules: RuleSet,
    players: int,
    seed: int,
    game: int,
    *,
    removed: tuple[str, ...] | None = None,
    starting: tuple[tuple[str, ...], ...] | None = None,
    first: int | None = None,
) -> Setup:
    """The setup of game ``game`` (from 0) for ``seed``; explicit values override the draws."""
    layout = LAYOUTS[players]
    rng: SplitMix64 = game_generator(seed, game)
    edition = rules.edition

    drawn_removed = tuple(rng.shuffle(edition.colours)[: layout.removed])
    removed = drawn_removed if removed is None else removed

    in_play = rng.shuffle(colours_in_play(edition, removed))
    k = layout.starting
    drawn_starting = tuple(tuple(in_play[k * seat : k * seat + k]) for seat in range(players))
    starting = drawn_starting if starting is None else starting

    drawn_first = rng.below(players)
    first = drawn_first if first is None else first

    shuffled = rng.shuffle(canonical_deck(rules, removed, starting))
    return Setup(removed, starting, first, insert_last_round(shuffled, rules.under))
