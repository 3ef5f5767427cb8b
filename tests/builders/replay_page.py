"""The replay page's states rebuilt from its changes, in Python, as ``view/assets/states.js`` rebuilds them.

The page carries each game's states by difference (``report.timeline.changes_json``, docs/replay.md): its
players' distinct entries and, for each state, what changed since the state before, written compactly (a row, an
entry, an action and a phrase as lists). The tests rebuild the states the way the page's script does, to hold them
to the full states (``step_json``) and to read a page's data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from coloretto_log.report.timeline import PHRASES


def _patched(old: list[Any], change: Any, item: Callable[[Any, int], Any]) -> list[Any]:
    """A list item by item (``{"i": item}``), or the whole list given; each item given read by ``item``."""
    if isinstance(change, list):
        return [item(x, i) for i, x in enumerate(change)]
    out = list(old)
    for k, x in change.items():
        out[int(k)] = item(x, int(k))
    return out


def _row(row: list[Any], i: int) -> dict[str, Any]:
    limit, cards, taken, by = row
    return {"row": i + 1, "limit": limit, "cards": cards, "taken": taken, "taken_by": by}


def page_phrase(p: list[Any], phrases: list[str]) -> list[Any]:
    """``[k, value, ...]`` as ``[template, {name: value}]`` (a phrase written whole as it is)."""
    if isinstance(p[0], str):
        return p
    text = phrases[p[0]]
    names = re.findall(r"\{(\w+)\}", text)
    values = {name: {"cards": v, "join": "comma"} if isinstance(v, list) else v for name, v in zip(names, p[1:])}
    return [text, values]


def _action(a: list[Any] | None, before: dict[str, Any]) -> dict[str, Any] | None:
    if a is None:
        return None
    kind, player, row, card, last_round = a
    if kind == "draw":
        return {"player": player, "action": "draw", "row": row, "card": card, "last_round": last_round}
    return {"player": player, "action": "take", "row": row, "cards": list(before["rows"][row - 1]["cards"]),
            "extra": card, "last_round": last_round}


def rebuilt(game: dict[str, Any], phrases: list[str] | None = None) -> list[dict[str, Any]]:
    """The states of one of the page's games (``kinds``, ``entries`` and ``changes``), each a dict as ``step_json``
    writes it, without ``narrative``; ``phrases``: the page's (by default ``report.timeline.PHRASES``)."""
    phrases = list(PHRASES) if phrases is None else phrases
    kinds = game["kinds"]
    entries = [{"player": e[0], "collection": dict(zip(kinds, e[1], strict=True)), "taken": e[2], "score": e[3],
                "jokers": e[4], "positive": e[5]} for e in game["entries"]]
    states: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    seats: list[int] = []
    for n, change in enumerate(game["changes"]):
        before = state
        state = {"move": n, **{k: v for k, v in state.items() if k != "move"}}
        for key, value in change.items():
            if key == "players":
                seats = _patched(seats, value, lambda e, _: e)
                state["players"] = [entries[e] for e in seats]
            elif key == "rows":
                state["rows"] = _patched(state.get("rows", []), value, _row)
            elif key == "action":
                state["action"] = _action(value, before)
            elif key == "story":
                state["story"] = [page_phrase(p, phrases) for p in value]
            else:
                state[key] = value
        states.append(state)
    return states


def page_states(match: dict[str, Any], phrases: list[str] | None = None) -> list[list[dict[str, Any]]]:
    """The states of every game of one of a page's matches."""
    return [rebuilt(g, phrases) for g in match["games"]]
