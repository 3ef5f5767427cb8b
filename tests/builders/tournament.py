"""Matches of a simulated club day: a table's players, each a bot of a hidden strength, play one seeded match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from coloretto_log.bots.simulate import make_plan, play_match
from coloretto_log.log.writer import match_json, move_json, setup_json

#: Twelve players, strongest bots first: their hidden strength is the order of this list.
ROSTER: dict[str, str] = {
    "Aiko": "strong", "Boris": "strong", "Chloe": "strong", "Dae": "strong",
    "Emil": "greedy", "Fay": "greedy", "Gus": "greedy", "Hana": "greedy",
    "Ivo": "random", "Jun": "random", "Kai": "random", "Lea": "random",
}  # fmt: skip


def table_match(
    table: Sequence[str],
    index: int,
    *,
    roster: Mapping[str, str] = ROSTER,
    event: dict[str, Any] | None = None,
    games: int = 1,
    seed: int = 5,
    date: str = "2026-12-05",
) -> dict[str, Any]:
    """One seeded match of ``table`` (seat order as given), each seat the player's bot; with ``event``."""
    plan = make_plan(players=len(table), bots=[roster[p] for p in table], games=games, seed=seed)
    played = play_match(plan, index)
    logs = [
        {"setup": setup_json(g.setup, table, explicit=False), "moves": [move_json(m, table, cards=False) for m in g.moves]}
        for g in played.games
    ]
    name = "club" if event is None else f"{event['name']}-r{event.get('round')}-t{event.get('table')}"
    return match_json(
        rules=plan.rules, players=table, games=logs, seed=played.seed, date=date, match_id=f"{name}-{index}", event=event
    )
