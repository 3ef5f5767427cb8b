"""Builders shared by the recorder's tests (``test_recorder``, ``test_record_cli``, ``test_serve*``).

Matches are scripted from real play: a fixed-seed ``random.Random`` picks
legal moves while the engine turns over a deck shuffled by
``setup.seeded_setup``; every move becomes the command a scorekeeper would
type (short card names, the ``l`` mark, the golden joker's extra card on the
same line or the next). The recorder, which never sees the deck, must write
exactly the log those moves make.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from coloretto_log.core import engine
from coloretto_log.core.cards import CARD_ALIASES
from coloretto_log.core.claims import optimal_for
from coloretto_log.core.engine import Draw, GameState, Move
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.writer import match_json, move_json, setup_json

FOUR = ("Aiko", "Boris", "Chloe", "Dae")
DATE = "2026-11-29"


@dataclass
class Script:
    """Lines to type, and what they must produce."""

    players: tuple[str, ...]
    rules: RuleSet
    lines: list[str]
    expected: dict[str, Any]  # the log the lines make
    finals: list[GameState]  # each game's final state (seeded engine)
    move_lines: list[tuple[int, int, int]]  # each move: (first line, line after it, game from 0)

    @property
    def move_ends(self) -> list[int]:
        """i such that lines[:i] ends right after a recorded move."""
        return [end for _, end, _ in self.move_lines]


def alias(card: str, r: random.Random) -> str:
    return r.choice([a for a, c in CARD_ALIASES.items() if c == card])


def command_lines(move: Move, r: random.Random) -> list[str]:
    """The lines a scorekeeper may type for one resolved move (all forms the recorder takes)."""
    if isinstance(move, Draw):
        assert move.card is not None
        c, row = alias(move.card, r), move.row
        if move.last_round:
            return r.choice([["l", f"d {c} {row}"], [f"l d {c} {row}"], [f"d l {c} {row}"], [f"draw {row} {c} l"]])
        return r.choice([[f"d {c} {row}"], [f"draw {row} {c}"], [f"D {c.upper()} {row}"]])
    if move.extra is None:
        return r.choice([[f"t {move.row}"], [f"take {move.row}"]])
    c = alias(move.extra, r)
    if move.last_round:
        return r.choice([[f"t {move.row} l {c}"], [f"t {move.row}", f"l {c}"], [f"t {move.row}", "l", c]])
    return r.choice([[f"t {move.row} {c}"], [f"t {move.row}", c]])


def match_script(
    seed: int,
    players: tuple[str, ...] = FOUR,
    rules: RuleSet | None = None,
    *,
    claims: bool = True,
    games: int | None = None,
) -> Script:
    rules = rules or RuleSet()
    if games is not None:
        rules = RuleSet(rules.edition, rules.table, games)
    r = random.Random(seed)
    n = len(players)
    lines: list[str] = []
    ends: list[tuple[int, int, int]] = []
    finals: list[GameState] = []
    log_games: list[dict[str, Any]] = []
    for g in range(rules.games):
        setup = seeded_setup(rules, n, seed, g)
        if setup.removed:
            lines.append(" ".join(alias(c, r) for c in setup.removed))
        for cards in setup.starting:
            lines.append(", ".join(alias(c, r) for c in cards))
        lines.append(r.choice([players[setup.first], str(setup.first + 1), players[setup.first].lower()]))
        state = engine.new_game(rules, n, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck)
        moves = []
        while not state.over:
            state, resolved = engine.play(state, r.choice(engine.legal_actions(state)))
            moves.append(move_json(resolved, players, cards=True))
            start = len(lines)
            lines.extend(command_lines(resolved, r))
            ends.append((start, len(lines), g))
        finals.append(state)
        game: dict[str, Any] = {
            "setup": setup_json(
                replace(setup, removed=tuple(c for c in rules.edition.colours if c in setup.removed)), players, explicit=True
            ),
            "moves": moves,
        }
        written: dict[str, Any] = {}
        for seat, name in enumerate(players):
            best = optimal_for(state, seat).score
            answer = r.choice(["", "-", str(best), str(best), str(best - 3)]) if claims else ""
            lines.append(answer)
            if answer not in ("", "-"):
                written[name] = {"score": int(answer)}
        if written:
            game["claims"] = written
        log_games.append(game)
    expected = match_json(rules=rules, players=players, games=log_games, match_id=f"{DATE}-kitchen", date=DATE)
    return Script(players, rules, lines, expected, finals, ends)
