"""Logs built by hand for the validation tests: players, setups, moves, the tiny one-round game, the rule ids."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]

P4 = ["Aiko", "Boris", "Chloe", "Dae"]
P2 = ["Aiko", "Boris"]
SETUP4: Json = {
    "removed": [],
    "starting": {"Aiko": ["blue"], "Boris": ["red"], "Chloe": ["green"], "Dae": ["grey"]},
    "first": "Aiko",
}
SETUP2: Json = {
    "removed": ["grey", "red"],
    "starting": {"Aiko": ["orange", "blue"], "Boris": ["brown", "yellow"]},
    "first": "Aiko",
}


def d(player: str, row: Any, card: str | None = None, **extra: Any) -> Json:
    move: Json = {"player": player, "action": "draw", "row": row}
    if card is not None:
        move["card"] = card
    move.update(extra)
    return move


def t(player: str, row: Any, **extra: Any) -> Json:
    return {"player": player, "action": "take", "row": row, **extra}


def match(*games: Json, players: list[str] | None = None, rules: Json | None = None, **top: Any) -> Json:
    out: Json = {"format": "coloretto-log", "version": 1}
    if rules is not None:
        out["rules"] = rules
    out["players"] = P4 if players is None else players
    out.update(top)
    out["games"] = list(games)
    return out


def game4(*moves: Json, **setup: Any) -> Json:
    return {"setup": {**SETUP4, **setup}, "moves": list(moves)}


#: A recorded 4-player round, hand-played (rows 1 to 4 hold 3 cards each).
ROUND4 = [
    d("Aiko", 1, "yellow"),
    d("Boris", 1, "yellow"),
    d("Chloe", 1, "orange"),  # row 1 is full
    d("Dae", 2, "joker"),
    t("Aiko", 1),  # Aiko leaves the round
    d("Boris", 2, "plus2"),
    t("Chloe", 2),
    d("Dae", 3, "brown"),
    d("Boris", 3, "brown"),
    t("Dae", 3),  # Boris is alone with row 4
    d("Boris", 4, "red"),
    d("Boris", 4, "red"),
    d("Boris", 4, "orange"),  # row 4 is full: Boris must take it
]

#: The shortest complete game: 2 players, every card under the last-round card, so the first
#: card turned over is the last-round card and the game is one round long.
TINY_RULES: Json = {"games": 1, "under_last_round": 54}
TINY_MOVES = [
    d("Aiko", 3, "green", last_round=True),
    d("Boris", 3, "joker"),
    t("Aiko", 3),  # Aiko: orange, blue, green, joker -> best 5 (joker to orange: 3 + 1 + 1)
    d("Boris", 2, "plus2"),
    t("Boris", 2),  # Boris: brown, yellow, plus2 -> 1 + 1 + 2 = 4; the round, and the game, end
]


def tiny(*, claims: Json | None = None, moves: list[Json] | None = None) -> Json:
    game: Json = {"setup": dict(SETUP2), "moves": list(TINY_MOVES if moves is None else moves)}
    if claims is not None:
        game["claims"] = claims
    return game


def tiny_match(*games: Json, rules: Json | None = None) -> Json:
    return match(*(games or (tiny(),)), players=P2, rules=TINY_RULES if rules is None else rules)


#: Every rule id of docs/format.md §3, and the two the reader adds.
RULE_IDS = (
    "bad-format", "bad-version", "unknown-field", "missing-field", "bad-type", "bad-value", "player-count",
    "bad-player-name", "duplicate-player", "bad-seed", "too-many-games", "bad-removed", "bad-starting",
    "bad-first", "bad-deck", "bad-action", "unknown-player", "game-over", "not-your-turn", "unknown-row",
    "must-take", "row-taken", "row-full", "row-empty", "card-mismatch", "impossible-card", "missing-card",
    "missing-extra", "unexpected-extra", "deck-empty", "incomplete-game", "last-round-position",
    "claim-score", "claim-choice",
)
EXTRA_IDS = ("bad-json", "bad-encoding")
