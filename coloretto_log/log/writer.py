"""Build match logs (docs/format.md) from engine values: the inverse of ``replay``.

Used by every command that writes logs (``simulate``, ``record``). Output is
plain JSON-ready dicts with keys in the order of the format's examples.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.engine import Draw, Move
from ..core.ruleset import RuleSet
from ..core.setup import Setup

#: What every log says it is (docs/format.md §1).
FORMAT_NAME = "coloretto-log"
FORMAT_VERSION = 1


def move_json(move: Move, players: tuple[str, ...] | list[str], *, cards: bool) -> dict[str, Any]:
    """One move as the log writes it; ``cards=False`` leaves out what a seeded deck yields."""
    out: dict[str, Any] = {"player": players[move.seat]}
    if isinstance(move, Draw):
        out["action"] = "draw"
        out["row"] = move.row
        if cards:
            if move.card is not None:
                out["card"] = move.card
            if move.last_round:
                out["last_round"] = True
        return out
    out["action"] = "take"
    out["row"] = move.row
    if cards and move.extra is not None:
        out["extra"] = move.extra
        if move.last_round:
            out["last_round"] = True
    return out


def setup_json(setup: Setup, players: tuple[str, ...] | list[str], *, explicit: bool) -> dict[str, Any]:
    """A game's setup; ``explicit=False`` gives ``{}`` (everything follows from the match seed)."""
    if not explicit:
        return {}
    return {
        "removed": list(setup.removed),
        "starting": {players[seat]: list(cards) for seat, cards in enumerate(setup.starting)},
        "first": players[setup.first],
    }


def rules_json(rules: RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {"edition": rules.edition.name, "scoring": rules.table.name, "games": rules.games}
    if rules.under_last_round is not None:
        out["under_last_round"] = rules.under_last_round
    return out


def match_json(
    *,
    rules: RuleSet,
    players: tuple[str, ...] | list[str],
    games: list[dict[str, Any]],
    seed: int | None = None,
    match_id: str | None = None,
    date: str | None = None,
    notes: str | None = None,
    event: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A whole match object in the format's field order (``event``: the event object, docs/format.md §1)."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION}
    if match_id is not None:
        out["id"] = match_id
    if date is not None:
        out["date"] = date
    out["rules"] = rules_json(rules)
    out["players"] = list(players)
    if seed is not None:
        out["seed"] = seed
    out["games"] = games
    if notes is not None:
        out["notes"] = notes
    if event is not None:
        out["event"] = dict(event)
    return out


def dumps_line(match: dict[str, Any]) -> str:
    """One match as one line of JSON Lines (compact, UTF-8, stable key order)."""
    return json.dumps(match, ensure_ascii=False, separators=(",", ":"))


def dumps_pretty(value: Any) -> str:
    """One match (or any JSON value) as an indented ``.json`` file's text."""
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"
