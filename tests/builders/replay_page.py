"""The replay page's states rebuilt from its changes, in Python, as ``view/assets/states.js`` rebuilds them.

The page carries each game's states by difference (``report.timeline.changes_json``, docs/replay.md): its
players' distinct entries and, for each state, what changed since the state before. The tests rebuild the
states the way the page's script does, to hold them to the full states (``step_json``) and to read a page's data.
"""

from __future__ import annotations

from typing import Any


def _patched(old: list[Any], change: Any) -> list[Any]:
    """A list item by item (``{"i": item}``), or the whole list given."""
    if isinstance(change, list):
        return list(change)
    out = list(old)
    for k, item in change.items():
        out[int(k)] = item
    return out


def rebuilt(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The states of one of the page's games (``entries`` and ``changes``), each a dict as ``step_json``
    writes it, without ``narrative``."""
    entries, states = game["entries"], []
    state: dict[str, Any] = {}
    seats: list[int] = []
    for n, change in enumerate(game["changes"]):
        state = {"move": n, **{k: v for k, v in state.items() if k != "move"}}
        for key, value in change.items():
            if key == "players":
                seats = _patched(seats, value)
                state["players"] = [entries[e] for e in seats]
            elif key == "rows":
                state["rows"] = _patched(state.get("rows", []), value)
            else:
                state[key] = value
        states.append(state)
    return states


def page_states(match: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The states of every game of one of a page's matches."""
    return [rebuilt(g) for g in match["games"]]
