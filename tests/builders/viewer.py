"""Match logs the timeline, replay CLI and viewer tests share: scripted games checked by hand, random seeded matches."""

from __future__ import annotations

import json
import random
from typing import Any

from coloretto_log.core import engine as E
from coloretto_log.core.engine import Draw, Move
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.writer import match_json, move_json, setup_json

# --------------------------------------------------------------------------- scripted games

#: A recorded 2-player game, checked by hand: a leftover row discarded, the last-round card in round 2.
TWO_PLAYER: dict[str, Any] = {
    "format": "coloretto-log",
    "version": 1,
    "id": "two-player-script",
    "rules": {"games": 1},
    "players": ["Aiko", "Boris"],
    "games": [
        {
            "setup": {
                "removed": ["grey", "red"],
                "starting": {"Aiko": ["orange", "blue"], "Boris": ["brown", "yellow"]},
                "first": "Aiko",
            },
            "moves": [
                {"player": "Aiko", "action": "draw", "row": 1, "card": "green"},
                {"player": "Boris", "action": "draw", "row": 3, "card": "joker"},
                {"player": "Aiko", "action": "draw", "row": 2, "card": "plus2"},
                {"player": "Boris", "action": "take", "row": 3},
                {"player": "Aiko", "action": "draw", "row": 2, "card": "green"},
                {"player": "Aiko", "action": "take", "row": 2},
                {"player": "Aiko", "action": "draw", "row": 3, "card": "blue", "last_round": True},
                {"player": "Boris", "action": "take", "row": 3},
                {"player": "Aiko", "action": "draw", "row": 1, "card": "orange"},
                {"player": "Aiko", "action": "take", "row": 1},
            ],
        }
    ],
}

def with_claims(claims: dict[str, Any]) -> dict[str, Any]:
    """``TWO_PLAYER`` with ``claims`` written at the end of its game (final scores: Aiko 7, Boris 5)."""
    log: dict[str, Any] = json.loads(json.dumps(TWO_PLAYER))
    log["games"][0]["claims"] = claims
    return log


TWO_PLAYER_NARRATIVE = [
    "game 1 · grey and red removed · starting cards: Aiko orange and blue, Boris brown and yellow · Aiko starts",
    "round 1 · Aiko draws green → row 1",
    "round 1 · Boris draws joker → row 3",
    "round 1 · Aiko draws +2 → row 2",
    "round 1 · Boris takes row 3: joker",
    "round 1 · Aiko draws green → row 2",
    "round 1 · Aiko takes row 2: +2, green · row 1 discarded: green · end of round 1",
    "round 2 · last-round card! Aiko draws again: blue → row 3",
    "round 2 · Boris takes row 3: blue",
    "round 2 · Aiko draws orange → row 1",
    "round 2 · Aiko takes row 1: orange · end of the game",
]

#: A recorded anniversary game: the golden joker's extra card comes after the last-round card.
GOLDEN: dict[str, Any] = {
    "format": "coloretto-log",
    "version": 1,
    "id": "golden-script",
    "rules": {"edition": "anniversary", "games": 1},
    "players": ["Aiko", "Boris", "Chloe", "Dae"],
    "games": [
        {
            "setup": {
                "removed": [],
                "starting": {
                    "Aiko": ["orange"],
                    "Boris": ["blue"],
                    "Chloe": ["brown"],
                    "Dae": ["yellow"],
                },
                "first": "Aiko",
            },
            "moves": [
                {"player": "Aiko", "action": "draw", "row": 1, "card": "golden_joker"},
                {"player": "Boris", "action": "take", "row": 1, "extra": "red", "last_round": True},
                {"player": "Chloe", "action": "draw", "row": 2, "card": "green"},
                {"player": "Dae", "action": "take", "row": 2},
                {"player": "Aiko", "action": "draw", "row": 3, "card": "purple"},
                {"player": "Chloe", "action": "take", "row": 3},
                {"player": "Aiko", "action": "draw", "row": 4, "card": "plus2"},
                {"player": "Aiko", "action": "take", "row": 4},
            ],
        }
    ],
}

GOLDEN_NARRATIVE = [
    "game 1 · starting cards: Aiko orange, Boris blue, Chloe brown, Dae yellow · Aiko starts",
    "round 1 · Aiko draws golden joker → row 1",
    "round 1 · Boris takes row 1: golden joker; golden joker extra: last-round card! then red",
    "round 1 · Chloe draws green → row 2",
    "round 1 · Dae takes row 2: green",
    "round 1 · Aiko draws purple → row 3",
    "round 1 · Chloe takes row 3: purple",
    "round 1 · Aiko draws +2 → row 4",
    "round 1 · Aiko takes row 4: +2 · end of the game",
]



# --------------------------------------------------------------------------- seeded logs by random play


def random_match(
    seed: int,
    players: int,
    edition: str,
    games: int,
    rng: random.Random,
    *,
    explicit_setup: bool = False,
) -> tuple[dict[str, Any], dict[str, Any], list[list[E.GameState]], list[list[Move]]]:
    """A seeded match played at random by legal moves: (log with cards, log without, states, moves)."""
    rules = RuleSet.of(edition=edition, games=games)
    names = ("Aiko", "Boris", "Chloe", "Dae", "Emil")[:players]
    with_cards: list[dict[str, Any]] = []
    without: list[dict[str, Any]] = []
    all_states: list[list[E.GameState]] = []
    all_moves: list[list[Move]] = []
    for g in range(games):
        setup = seeded_setup(rules, players, seed, g)
        state = E.new_game(
            rules,
            players,
            removed=setup.removed,
            starting=setup.starting,
            first=setup.first,
            deck=setup.deck,
        )
        states, moves = [state], []
        while not state.over:
            actions = E.legal_actions(state)
            draws = [a for a in actions if isinstance(a, Draw)]
            pick = rng.choice(draws) if draws and rng.random() < 0.75 else rng.choice(actions)
            state, move = E.play(state, pick)
            states.append(state)
            moves.append(move)
        all_states.append(states)
        all_moves.append(moves)
        s_json = setup_json(setup, names, explicit=explicit_setup)
        with_cards.append(
            {"setup": s_json, "moves": [move_json(m, names, cards=True) for m in moves]}
        )
        without.append(
            {"setup": s_json, "moves": [move_json(m, names, cards=False) for m in moves]}
        )
    match_id = f"random-{seed}"
    a = match_json(rules=rules, players=names, games=with_cards, seed=seed, match_id=match_id)
    b = match_json(rules=rules, players=names, games=without, seed=seed, match_id=match_id)
    return a, b, all_states, all_moves


# --------------------------------------------------------------------------- an analysis by hand


def hand_analysis(
    log: dict[str, Any],
    moves: list[list[Move]],
    *,
    file: str = "m.json",
    line: int | None = None,
    match: int = 1,
    marks: dict[int, str] | None = None,
    explain: str = "row {row} closes for {next}",
) -> dict[str, Any]:
    """A match object in the shape of ``analyze --json`` for ``log`` (played as ``moves``), with made-up numbers.

    Every move of every game gets its draw-or-take decision (and, after a draw, its row decision); the row
    decision of each move of game 1 in ``marks`` gets that mark, a loss of 2 + the move / 10 points, ``best`` another row,
    an ``explanation`` from ``explain`` and its three choices. Margins are ``seat - move / 10`` so that a test
    can tell every point apart. Per player: ``error_rate``, ``accuracy``, ``luck``, ``skill``, ``margin`` and the
    same per game (``games``), as ``analyze --json`` gives them.
    """
    players: list[str] = list(log["players"])
    marks = marks or {}
    decisions: list[dict[str, Any]] = []
    for g, game in enumerate(moves, start=1):
        for number, move in enumerate(game, start=1):
            player = players[move.seat]
            margins = {p: round(s - number / 10, 3) for s, p in enumerate(players)}
            base = {"game": g, "move": number, "player": player, "exact": False, "samples": 64,
                    "forced": False, "margins": margins, "card": None, "mark": None}
            took = not isinstance(move, Draw)
            played = f"take row {move.row}" if took else "draw"
            decisions.append({**base, "decision": "draw-or-take", "played": played, "best": played, "loss": 0.0,
                              "loss_se": 0.3, "margin_played": margins[player], "margin_best": margins[player],
                              "win_prob_played": 0.5, "win_prob_best": 0.5,
                              "choices": [{"choice": played, "margin": margins[player], "margin_se": 0.3,
                                           "win_prob": 0.5, "win_prob_se": 0.05}]})
            if not isinstance(move, Draw):
                continue
            mark = marks.get(number) if g == 1 else None
            row = f"row {move.row}"
            best = f"row {move.row % 3 + 1}" if mark else row
            loss = round(2 + number / 10, 3) if mark else 0.0
            decision = {
                **base, "decision": "row", "card": move.card, "played": row, "best": best, "loss": loss,
                "loss_se": 0.4, "mark": mark, "margin_played": margins[player],
                "margin_best": round(margins[player] + loss, 3), "win_prob_played": 0.25,
                "win_prob_best": 0.75 if mark else 0.25,
                "choices": [
                    {"choice": best, "margin": round(margins[player] + loss, 3), "margin_se": 0.5, "win_prob": 0.75,
                     "win_prob_se": 0.04},
                    {"choice": row, "margin": margins[player], "margin_se": 0.5, "win_prob": 0.25,
                     "win_prob_se": 0.04},
                    {"choice": "row 9", "margin": margins[player] - 9, "margin_se": 0.5, "win_prob": 0.0,
                     "win_prob_se": 0.0},
                ] if mark else [],
            }
            if mark:
                decision["explanation"] = explain.format(row=move.row, next=players[(move.seat + 1) % len(players)],
                                                         player=player)
            decisions.append(decision)
    summary = []
    for seat, p in enumerate(players):
        mine = [d for d in decisions if d["player"] == p]
        marked = [d for d in mine if d["mark"]]
        summary.append({
            "player": p, "decisions": len(mine), "forced": 0,
            "mean_loss": round(sum(d["loss"] for d in mine) / max(1, len(mine)), 3),
            "total_loss": round(sum(d["loss"] for d in mine), 3),
            "marks": {k: sum(1 for d in marked if d["mark"] == k) for k in ("inaccuracy", "mistake", "blunder")},
            "costliest": [{k: d[k] for k in ("game", "move", "decision", "played", "best", "loss", "loss_se", "mark")}
                          for d in sorted(marked, key=lambda d: -d["loss"])[:3]],
            "error_rate": round(len(marked) / max(1, len(mine)), 3), "accuracy": 90.0 - seat,
            "luck": 1.5 * seat - 2, "skill": -sum(d["loss"] for d in mine), "margin": 3.0 - seat,
            "games": [
                {"game": g, "decisions": sum(1 for d in mine if d["game"] == g), "errors": 0, "error_rate": 0.0,
                 "accuracy": 80.0 + g, "luck": 0.5 * g, "skill": -float(g), "margin": g - 0.5 * seat}
                for g in range(1, len(moves) + 1)
            ],
        })
    return {"file": file, "line": line, "match": match, "players": players, "valid": True, "findings": [],
            "decisions": decisions, "summary": summary}
