"""Positions built by hand: a 4-player classic table with the collections, rows and cards left given."""

from __future__ import annotations

import dataclasses
from typing import Any

from coloretto_log.core import engine
from coloretto_log.core.cards import counts_of
from coloretto_log.core.engine import GameState
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup


def _new_state(seed: int) -> GameState:
    rules = RuleSet.of()
    s = seeded_setup(rules, 4, seed, 0)
    return engine.new_game(rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def replaced(state: GameState, **fields: Any) -> GameState:
    """``state`` with some fields changed, by name (a named tuple today; a dataclass would do as well)."""
    if hasattr(state, "_replace"):
        return state._replace(**fields)
    return dataclasses.replace(state, **fields)  # type: ignore[type-var]


def table_state(
    *,
    collections: list[dict[str, int]],
    rows: list[list[str]],
    taken: list[bool],
    done: list[bool],
    current: int,
    remaining: dict[str, int],
    last_round: bool = True,
) -> GameState:
    """A 4-player classic position built by hand (the last-round card out unless told)."""
    base = _new_state(1)

    def counts(d: dict[str, int]) -> tuple[int, ...]:
        return counts_of([k for k, n in d.items() for _ in range(n)])

    rem = counts(remaining)
    return replaced(
        base,
        collections=tuple(counts(c) for c in collections),
        rows=tuple(tuple(r) for r in rows),
        taken=tuple(taken),
        done=tuple(done),
        current=current,
        remaining=rem,
        lr_pending=not last_round,
        last_round=last_round,
        turned=base.total - sum(rem) - (0 if last_round else 1),
        deck=None,
    )


