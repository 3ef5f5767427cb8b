"""One fixture per rule id of docs/format.md §3, asserting the exact one-line finding.

Each fixture is a small hand-written log (or text, for the file-level rules
``bad-json`` and ``bad-encoding`` the implementation adds); the expected line
``FILE: game G, move M: severity [rule-id] message`` was worked out from the
rules by hand, the message read and judged before it was pinned. Further
down: the precedence order of §3, "stop the game at its first error and go on
with the next game", the fields that stop the whole match, warnings that
leave a log valid, strict types, and the safe reading of files.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from coloretto_log.core import engine
from coloretto_log.core.cards import LAST_ROUND
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import canonical_deck, insert_last_round
from coloretto_log.log.load import LoadedMatch, Unreadable, load
from coloretto_log.log.reader import MAX_FILE_BYTES
from coloretto_log.log.replay import check_match

from ..builders.log import (
    EXTRA_IDS,
    P2,
    P4,
    ROUND4,
    RULE_IDS,
    SETUP2,
    SETUP4,
    TINY_MOVES,
    TINY_RULES,
    Json,
    d,
    game4,
    match,
    t,
    tiny,
    tiny_match,
)

LABEL = "kitchen.json"

def lines(data: Any) -> list[str]:
    return [f.line(LABEL) for f in check_match(data).all_findings()]


def stacked(edition: str, players: int, removed: tuple[str, ...], starting: tuple[tuple[str, ...], ...], top: list[str]) -> list[str]:
    """A legal deck (LOG_FORMAT §2 ``setup.deck``) whose first cards are ``top``."""
    rules = RuleSet.of(edition=edition)
    rest = canonical_deck(rules, removed, starting)
    for card in top:
        rest.remove(card)
    return list(insert_last_round(top + rest, rules.under))


def test_fixtures_are_valid_where_unchanged() -> None:
    # The bases the fixtures change: a round in progress (valid; last game incomplete: a warning)
    # and the tiny complete game (valid, no finding at all).
    assert lines(match(game4(*ROUND4), rules={"games": 1})) == [
        f"{LABEL}: game 1: warning [incomplete-game] the game stops after move 13, before its last round has ended"
    ]
    assert lines(tiny_match()) == []
    report = check_match(tiny_match())
    final = report.games[0].final
    assert final is not None and final.over and report.games[0].complete
    # card conservation in the tiny game: 2 taken into collections (plus 4 starting), none left in rows
    assert sum(sum(c) for c in final.collections) == 4 + 3


# --------------------------------------------------------------------------- one fixture per rule id

E = f"{LABEL}: "


RULE_FIXTURES: list[tuple[Any, ...]] = [
    # match-level (no game): format, version, fields, types, values
    ("bad-format", {**tiny_match(), "format": "coloretto"},
     [E + """error [bad-format] "format" should be 'coloretto-log' (got "coloretto")"""]),
    ("bad-version", {**tiny_match(), "version": 2},
     [E + """error [bad-version] "version" should be 1 (got 2)"""]),
    ("bad-version (1.0)", {**tiny_match(), "version": 1.0},
     [E + """error [bad-version] "version" should be the integer 1, not 1.0"""]),
    ("bad-version (true)", {**tiny_match(), "version": True},
     [E + """error [bad-version] "version" should be the integer 1, not true"""]),
    ("unknown-field (match)", {**tiny_match(), "seeed": 5},
     [E + """error [unknown-field] "seeed" is not a field of the log format"""]),
    ("unknown-field (rules)", tiny_match(rules={**TINY_RULES, "players": 2}),
     [E + """error [unknown-field] "rules.players" is not a field of the log format"""]),
    ("unknown-field (game)", tiny_match({**tiny(), "claim": {}}),
     [E + """game 1: error [unknown-field] "claim" is not a field of the log format"""]),
    ("unknown-field (setup)", tiny_match({**tiny(), "setup": {**SETUP2, "seat": 1}}),
     [E + """game 1: error [unknown-field] "setup.seat" is not a field of the log format"""]),
    ("unknown-field (card on a take)", match(game4(t("Aiko", 1, card="red"))),
     [E + """game 1, move 1: error [unknown-field] "card" is not a field of the log format"""]),
    ("unknown-field (extra on a draw)", match(game4(d("Aiko", 1, "red", extra="blue"))),
     [E + """game 1, move 1: error [unknown-field] "extra" is not a field of the log format"""]),
    ("missing-field (match)", {k: v for k, v in tiny_match().items() if k != "players"},
     [E + """error [missing-field] "players" is required"""]),
    ("missing-field (move)", match(game4({"action": "draw", "row": 1, "card": "red"})),
     [E + """game 1, move 1: error [missing-field] "player" is required"""]),
    ("missing-field (action)", match(game4({"player": "Aiko", "row": 1})),
     [E + """game 1, move 1: error [missing-field] "action" is required ("draw" or "take")"""]),
    ("missing-field (recorded setup)", match({"setup": {k: v for k, v in SETUP4.items() if k != "removed"}}),
     [E + """game 1: error [missing-field] "setup.removed" is required in a recorded game"""]),
    ("missing-field (deck-seeded setup)",
     match({"setup": {"removed": [], "starting": SETUP4["starting"],
                      "deck": stacked("classic", 4, (), (("blue",), ("red",), ("green",), ("grey",)), [])}}),
     [E + """game 1: error [missing-field] "setup.first" is required in a game seeded only by its deck"""]),
    ("bad-type (match not an object)", [tiny_match()],
     [E + "error [bad-type] a match must be a JSON object, not an array"]),
    ("bad-type (seed true)", {**tiny_match(), "seed": True},
     [E + """error [bad-type] "seed" must be an integer, not true"""]),
    ("bad-type (row 1.0)", match(game4(d("Aiko", 1.0, "red"))),
     [E + """game 1, move 1: error [bad-type] "row" must be an integer, not 1.0"""]),
    ("bad-type (row string)", match(game4(d("Aiko", "1", "red"))),
     [E + """game 1, move 1: error [bad-type] "row" should be a valid integer (got "1")"""]),
    ("bad-value (rules.games 0)", tiny_match(rules={"games": 0}),
     [E + """error [bad-value] "rules.games" should be greater than or equal to 1 (got 0)"""]),
    ("bad-value (date)", {**tiny_match(), "date": "2026-02-30"},
     [E + """error [bad-value] "date" 2026-02-30 is not a real date"""]),
    ("bad-value (edition)", tiny_match(rules={"edition": "deluxe"}),
     [E + """error [bad-value] "rules.edition" should be 'classic' or 'anniversary' (got "deluxe")"""]),
    ("bad-value (under_last_round below 16, anniversary)", tiny_match(rules={"edition": "anniversary", "under_last_round": 15}),
     [E + """error [bad-value] "rules.under_last_round" is 15: the anniversary edition needs at least 16"""]),
    ("bad-value (under_last_round beyond the deck)", tiny_match(rules={"under_last_round": 55}),
     [E + """error [bad-value] "rules.under_last_round" is 55, beyond the deck: 2 players have 54 cards to deal"""]),
    ("player-count", match(players=["Aiko"]),
     [E + """error [player-count] "players" must name 2 to 5 players, not 1 (got ["Aiko"])"""]),
    ("bad-player-name (empty)", match(players=["Aiko", ""]),
     [E + """error [bad-player-name] "players[1]" string should have at least 1 character (got "")"""]),
    ("bad-player-name (41 code points)", match(players=["Aiko", "é" * 41]),
     [E + 'error [bad-player-name] "players[1]" string should have at most 40 characters (got "' + "é" * 36 + '...)']),
    ("bad-seed (negative)", {**tiny_match(), "seed": -1},
     [E + """error [bad-seed] "seed" should be greater than or equal to 0 (got -1)"""]),
    ("bad-seed (2^64)", {**tiny_match(), "seed": 2**64},
     [E + """error [bad-seed] "seed" should be less than 18446744073709551616 (got 18446744073709551616)"""]),
    ("too-many-games", tiny_match(tiny(), tiny(), {"setup": {}}),
     [E + "game 2: error [too-many-games] the match plans 1 game (rules.games) and this is game 2"]),
    # setup
    ("bad-removed (count)", match(game4(removed=["grey"])),
     [E + "game 1: error [bad-removed] 4 players remove 0 colours, not 1"]),
    ("bad-removed (other edition)", match(game4(removed=["purple"]), players=P4[:3]),
     [E + "game 1: error [bad-removed] purple is not a colour of the classic edition"]),
    ("bad-removed (twice)", match({"setup": {**SETUP2, "removed": ["grey", "grey"]}}, players=P2),
     [E + "game 1: error [bad-removed] a colour is removed twice"]),
    ("bad-removed (unknown colour)", match(game4(removed=["pink"])),
     [E + """game 1: error [bad-removed] "setup.removed[0]" should be 'orange', 'blue', 'brown', 'yellow', 'grey', 'green', 'red' or 'purple' (got "pink")"""]),
    ("bad-starting (repeated)", match(game4(starting={**SETUP4["starting"], "Boris": ["blue"]})),
     [E + "game 1: error [bad-starting] blue is given as a starting card twice; starting cards are all different colours"]),
    ("bad-starting (removed)",
     match({"setup": {**SETUP2, "starting": {"Aiko": ["orange", "grey"], "Boris": ["brown", "yellow"]}}}, players=P2),
     [E + "game 1: error [bad-starting] Aiko's starting grey is a removed colour"]),
    ("bad-starting (number)", match(game4(starting={**SETUP4["starting"], "Dae": ["grey", "orange"]})),
     [E + "game 1: error [bad-starting] Dae starts with 2 cards; with 4 players each starts with 1"]),
    ("bad-starting (player missing)", match(game4(starting={"Aiko": ["blue"], "Boris": ["red"], "Chloe": ["green"]})),
     [E + "game 1: error [bad-starting] no starting cards for Dae"]),
    ("bad-starting (unknown player)", match(game4(starting={**SETUP4["starting"], "Zoe": ["orange"]})),
     [E + """game 1: error [bad-starting] "Zoe" is not a player of this match"""]),
    ("bad-starting (other edition)", match(game4(starting={**SETUP4["starting"], "Dae": ["purple"]})),
     [E + "game 1: error [bad-starting] Dae's starting purple is not a colour of the classic edition"]),
    ("bad-first", match(game4(first="Zoe")),
     [E + """game 1: error [bad-first] "Zoe" is not a player of this match"""]),
    ("bad-deck", match({"setup": {**SETUP4, "deck": ["red"] * 72 + [LAST_ROUND]}}),
     [E + "game 1: error [bad-deck] the deck must hold exactly the 72 cards in play and one last_round: "
      "too many red (+64); too few blue (-8), brown (-9), green (-8), grey (-8), joker (-3), orange (-9), "
      "plus2 (-10), yellow (-9)"]),
    ("bad-deck (no last_round)",
     match({"setup": {**SETUP4, "deck": [c for c in stacked("classic", 4, (), (("blue",), ("red",), ("green",), ("grey",)), []) if c != LAST_ROUND]}}),
     [E + "game 1: error [bad-deck] the deck must hold exactly the 72 cards in play and one last_round: too few last_round (-1)"]),
    # moves
    ("bad-action", match(game4(t("Aiko", 1, action="pass"))),
     [E + """game 1, move 1: error [bad-action] "action" is "pass": it must be "draw" or "take\""""]),
    ("bad-action (null)", match(game4(t("Aiko", 1, action=None))),
     [E + """game 1, move 1: error [bad-action] "action" is null: it must be "draw" or "take\""""]),
    ("unknown-player", match(game4(d("Zoe", 1, "red"))),
     [E + """game 1, move 1: error [unknown-player] "Zoe" is not a player of this match"""]),
    ("game-over", tiny_match(tiny(moves=[*TINY_MOVES, d("Boris", 1, "blue")])),
     [E + "game 1, move 6: error [game-over] the game is over: its last round has ended"]),
    ("not-your-turn", match(game4(d("Aiko", 1, "yellow"), d("Chloe", 1, "yellow"))),
     [E + "game 1, move 2: error [not-your-turn] it is Boris's turn, not Chloe's"]),
    ("not-your-turn (has taken)", match(game4(*ROUND4[:5], d("Aiko", 2, "blue"))),
     [E + "game 1, move 6: error [not-your-turn] Aiko has already taken a row this round; it is Boris's turn"]),
    ("unknown-row (5 with 4 players)", match(game4(d("Aiko", 5, "red"))),
     [E + "game 1, move 1: error [unknown-row] row 5 does not exist: rows are 1 to 4"]),
    ("unknown-row (0)", match(game4(t("Aiko", 0))),
     [E + "game 1, move 1: error [unknown-row] row 0 does not exist: rows are 1 to 4"]),
    ("unknown-row (4 with 2 players)", tiny_match(tiny(moves=[d("Aiko", 4, "green", last_round=True)])),
     [E + "game 1, move 1: error [unknown-row] row 4 does not exist: rows are 1 to 3"]),
    ("must-take", match(game4(*ROUND4, d("Boris", 4, "red"))),
     [E + "game 1, move 14: error [must-take] every remaining row is full: the player must take one"]),
    ("row-taken (draw)", match(game4(*ROUND4[:5], d("Boris", 1, "blue"))),
     [E + "game 1, move 6: error [row-taken] row 1 has already been taken this round"]),
    ("row-taken (take)", match(game4(*ROUND4[:5], t("Boris", 1))),
     [E + "game 1, move 6: error [row-taken] row 1 has already been taken this round"]),
    ("row-full", match(game4(*ROUND4[:3], d("Dae", 1, "joker"))),
     [E + "game 1, move 4: error [row-full] row 1 already holds 3 cards"]),
    ("row-full (2 players, row 1 holds 1)", tiny_match(tiny(moves=[d("Aiko", 1, "green", last_round=True), d("Boris", 1, "joker")])),
     [E + "game 1, move 2: error [row-full] row 1 already holds 1 card"]),
    ("row-empty", match(game4(d("Aiko", 1, "yellow"), t("Boris", 2))),
     [E + "game 1, move 2: error [row-empty] row 2 is empty and cannot be taken"]),
    ("impossible-card (other edition)", match(game4(d("Aiko", 1, "purple"))),
     [E + "game 1, move 1: error [impossible-card] purple is not a card of the classic edition"]),
    ("impossible-card (golden joker in classic)", match(game4(d("Aiko", 1, "golden_joker"))),
     [E + "game 1, move 1: error [impossible-card] golden_joker is not a card of the classic edition"]),
    ("impossible-card (removed colour)", tiny_match(tiny(moves=[d("Aiko", 1, "red", last_round=True)])),
     [E + "game 1, move 1: error [impossible-card] red was removed from this game at setup"]),
    ("impossible-card (a fourth joker)",
     match(game4(d("Aiko", 1, "joker"), d("Boris", 1, "joker"), d("Chloe", 1, "joker"), d("Dae", 2, "joker"))),
     [E + "game 1, move 4: error [impossible-card] one joker too many: every joker of the deck is already out"]),
    ("impossible-card (last_round named as a card)", match(game4(d("Aiko", 1, "last_round"))),
     [E + """game 1, move 1: error [impossible-card] the last-round card is not placed; mark it with "last_round": true and name the card drawn after it"""]),
    ("impossible-card (a second last-round card)",
     tiny_match(tiny(moves=[*TINY_MOVES[:3], d("Boris", 2, "plus2", last_round=True)])),
     [E + "game 1, move 4: error [impossible-card] a second last-round card: it has already come out"]),
    ("missing-card", match(game4(d("Aiko", 1))),
     [E + """game 1, move 1: error [missing-card] a draw in a recorded game must name its "card\""""]),
]


def golden_game(*moves: Json, deck: list[str] | None = None) -> Json:
    """A 2-player anniversary game: the golden joker goes to row 1 first."""
    setup: Json = {
        "removed": ["green", "purple"],
        "starting": {"Aiko": ["orange", "blue"], "Boris": ["brown", "yellow"]},
        "first": "Aiko",
    }
    if deck is not None:
        setup["deck"] = deck
    return match({"setup": setup, "moves": list(moves)}, players=P2, rules={"edition": "anniversary", "games": 1})


GOLDEN_DECK = stacked(
    "anniversary", 2, ("green", "purple"), (("orange", "blue"), ("brown", "yellow")), ["golden_joker", "red", "plus2"]
)

RULE_FIXTURES += [
    ("missing-extra", golden_game(d("Aiko", 1, "golden_joker"), t("Boris", 1)),
     [E + """game 1, move 2: error [missing-extra] row 1 holds the golden joker: the take must name its "extra" card"""]),
    ("impossible-card (extra of another edition)", golden_game(d("Aiko", 1, "golden_joker"), t("Boris", 1, extra="grey")),
     [E + "game 1, move 2: error [impossible-card] grey is not a card of the anniversary edition"]),
    ("impossible-card (extra of a removed colour)", golden_game(d("Aiko", 1, "golden_joker"), t("Boris", 1, extra="green")),
     [E + "game 1, move 2: error [impossible-card] green was removed from this game at setup"]),
    ("unexpected-extra (extra)", golden_game(d("Aiko", 2, "red"), t("Boris", 2, extra="red")),
     [E + """game 1, move 2: error [unexpected-extra] "extra" on a take of row 2, which holds no golden joker"""]),
    ("unexpected-extra (last_round)", golden_game(d("Aiko", 2, "red"), t("Boris", 2, last_round=False)),
     [E + """game 1, move 2: error [unexpected-extra] "last_round" on a take of row 2, which holds no golden joker"""]),
    ("card-mismatch (extra, deck-seeded)", golden_game(d("Aiko", 1), t("Boris", 1, extra="plus2"), deck=GOLDEN_DECK),
     [E + "game 1, move 2: error [card-mismatch] the golden joker's extra card is plus2, but the deck yields red"]),
    # seed 42, 4 players, classic, game 0: Chloe (seat 2) starts; the deck begins orange, red, red
    # (tests/data/db/seed-42-4p-classic-game0.json and the published vectors)
    ("card-mismatch (seeded draw)", match({"moves": [d("Chloe", 1, "red")]}, seed=42),
     [E + "game 1, move 1: error [card-mismatch] the card drawn is red, but the deck yields orange"]),
    ("card-mismatch (last_round said, not there)", match({"moves": [d("Chloe", 1, last_round=True)]}, seed=42),
     [E + "game 1, move 1: error [card-mismatch] the log says the last-round card came first, but in the deck "
      "it does not come before the card drawn (card 1 of the deck)"]),
]


def _params(fixtures: list[tuple[Any, ...]]) -> list[Any]:
    """``pytest.param``s; a fixture with a fourth element is a known bug: strict xfail with that reason."""
    out = []
    for name, *rest in fixtures:
        marks = [pytest.mark.xfail(strict=True, reason=rest[2])] if len(rest) > 2 else []
        out.append(pytest.param(name, *rest[:2], marks=marks, id=name))
    return out


@pytest.mark.parametrize(("name", "data", "expected"), _params(RULE_FIXTURES))
def test_rule_fixture(name: str, data: Any, expected: list[str]) -> None:
    assert lines(data) == expected


def test_seeded_fixtures_agree_with_the_published_setup() -> None:
    # The seed-42 fixtures rely on these facts of the published example, not on our own dealer.
    example = Path(__file__).resolve().parents[1] / "data" / "db" / "seed-42-4p-classic-game0.json"
    data = json.loads(example.read_text(encoding="utf-8"))
    assert data["first_seat"] == 2 and data["deck_top_first"][:3] == ["orange", "red", "red"]
    # and the log that names the right card is valid so far
    assert lines(match({"moves": [d("Chloe", 1, "orange"), d("Dae", 1, "red")]}, seed=42, rules={"games": 1})) == [
        f"{LABEL}: game 1: warning [incomplete-game] the game stops after move 2, before its last round has ended"
    ]


def test_duplicate_player_names_the_player() -> None:
    assert lines(match(players=["Aiko", "Boris", "Aiko"])) == [
        f"""{LABEL}: error [duplicate-player] "players" "Aiko" is given twice"""
    ]


@pytest.mark.parametrize(
    "data",
    [
        match(game4(d("Zo\ne", 1, "red"))),  # unknown-player
        match(game4(first="Zo\ne")),  # bad-first
        match(game4(starting={**SETUP4["starting"], "Zo\ne": ["orange"]})),  # bad-starting
        tiny_match(tiny(claims={"Zo\ne": {"score": 1}})),  # unknown-player in claims
        {**tiny_match(), "players": ["Ai\nko", "Boris"],
         "games": [{"setup": {**SETUP2, "starting": {"Ai\nko": ["orange", "blue"], "Boris": ["brown", "yellow"]},
                              "first": "Ai\nko"}, "moves": [d("Boris", 1, "red")]}]},  # not-your-turn
    ],
    ids=["unknown-player", "bad-first", "bad-starting", "claims", "not-your-turn"],
)
def test_every_finding_is_one_line_whatever_the_names(data: Json) -> None:
    found = lines(data)
    assert found and all("\n" not in line and "\r" not in line for line in found)


def test_control_characters_are_shown_escaped() -> None:
    assert lines(match(game4(d("Zo\ne\x1b[31m", 1, "red")))) == [
        f"""{LABEL}: game 1, move 1: error [unknown-player] "Zo\\ne\\x1b[31m" is not a player of this match"""
    ]


def test_duplicate_player_rule_and_place() -> None:
    found = check_match(match(players=["Aiko", "Boris", "Aiko"])).all_findings()
    assert [(f.severity, f.rule, f.game, f.move) for f in found] == [("error", "duplicate-player", None, None)]


def test_bad_deck_rule_and_place() -> None:
    (found,) = check_match(match({"setup": {**SETUP4, "deck": ["red"] * 72 + [LAST_ROUND]}})).all_findings()
    assert (found.severity, found.rule, found.game, found.move) == ("error", "bad-deck", 1, None)
    assert found.message.endswith(
        "one last_round: too many red (+64); too few blue (-8), brown (-9), green (-8), grey (-8), "
        "joker (-3), orange (-9), plus2 (-10), yellow (-9)"
    )


def _deck_empty_match() -> tuple[Json, int]:
    """A deck-seeded 2-player game whose deck lists the last-round card at the very bottom.

    Plays "the first legal action" until every other card is out, then draws once more.
    """
    removed, starting = ("grey", "red"), (("orange", "blue"), ("brown", "yellow"))
    rules = RuleSet()
    deck = tuple(c for c in canonical_deck(rules, removed, starting)) + (LAST_ROUND,)
    state = engine.new_game(rules, 2, removed=removed, starting=starting, first=0, deck=deck)
    moves: list[Json] = []
    while state.turned < len(deck) - 1 or not any(isinstance(a, engine.Draw) for a in engine.legal_actions(state)):
        action = engine.legal_actions(state)[0]
        state, done = engine.play(state, action)
        moves.append(d(P2[done.seat], done.row) if isinstance(done, engine.Draw) else t(P2[done.seat], done.row))
    assert not state.over and state.turned == 54
    free = next(a.row for a in engine.legal_actions(state) if isinstance(a, engine.Draw))
    moves.append(d(P2[state.current], free))
    return match({"setup": {**SETUP2, "deck": list(deck)}, "moves": moves}, players=P2, rules={"games": 1}), len(moves)


def test_deck_empty_seeded() -> None:
    data, n = _deck_empty_match()
    assert lines(data) == [
        f"{LABEL}: game 1, move {n}: error [deck-empty] no card is left after the last-round card for the card drawn"
    ]


def test_deck_empty_recorded() -> None:
    # A recorded game that never marks the last-round card: once all 54 cards are out, a draw
    # "after the last-round card" finds no card; any other card is one too many.
    data, n = _deck_empty_match()
    deck = data["games"][0]["setup"].pop("deck")
    moves = data["games"][0]["moves"]
    turned = iter(deck)
    for m in moves[:-1]:
        if m["action"] == "draw":
            m["card"] = next(turned)
    moves[-1] = {**moves[-1], "card": "orange", "last_round": True}
    assert lines(data) == [
        f"{LABEL}: game 1, move {n}: error [deck-empty] no card is left after the last-round card for the card drawn"
    ]
    moves[-1] = {**moves[-1], "last_round": False}
    assert lines(data) == [
        f"{LABEL}: game 1, move {n}: error [impossible-card] one orange too many: every orange of the deck is already out"
    ]


def test_incomplete_game_error_before_the_next_game() -> None:
    data = tiny_match(tiny(moves=TINY_MOVES[:4]), tiny(), rules={**TINY_RULES, "games": 2})
    assert lines(data) == [
        (f"{LABEL}: game 1: error [incomplete-game] the game stops after move 4, before its last round has ended; "
        "the next game starts anyway")
    ]
    report = check_match(data)
    assert not report.valid and [g.complete for g in report.games] == [False, True]


# --------------------------------------------------------------------------- warnings keep a log valid


def test_incomplete_last_game_is_a_warning() -> None:
    data = tiny_match(tiny(moves=TINY_MOVES[:4]))
    assert lines(data) == [
        f"{LABEL}: game 1: warning [incomplete-game] the game stops after move 4, before its last round has ended"
    ]
    report = check_match(data)
    assert report.valid and not report.complete and not report.games[0].complete


def test_last_round_position_warning() -> None:
    # With the default 15 cards under it, the last-round card of a 2-player classic game (54 cards)
    # is card 40; here it came out first.
    data = tiny_match(rules={"games": 1})
    assert lines(data) == [
        (f"{LABEL}: game 1, move 1: warning [last-round-position] the last-round card came out as card 1 of the deck; "
        "with 15 cards under it, it belongs at card 40")
    ]
    report = check_match(data)
    assert report.valid and report.games[0].complete


LR_ON_TOP = [LAST_ROUND] + [
    c for c in stacked("classic", 2, ("grey", "red"), (("orange", "blue"), ("brown", "yellow")), []) if c != LAST_ROUND
]


def test_last_round_position_warning_in_a_deck_seeded_game() -> None:
    # setup.deck lists the last-round card on top: the game is one round, and the position is flagged.
    moves = [d("Aiko", 3), d("Boris", 3), t("Aiko", 3), d("Boris", 2), t("Boris", 2)]
    data = match({"setup": {**SETUP2, "deck": LR_ON_TOP}, "moves": moves}, players=P2, rules={"games": 1})
    assert lines(data) == [
        (f"{LABEL}: game 1, move 1: warning [last-round-position] the last-round card came out as card 1 of the deck; "
        "with 15 cards under it, it belongs at card 40")
    ]
    record = check_match(data).games[0]
    assert record.complete and record.moves[0] == engine.Draw(0, 3, "orange", True)
    # saying the last-round card did not come first contradicts the deck
    moves[0] = d("Aiko", 3, last_round=False)
    assert lines(data | {"games": [{"setup": {**SETUP2, "deck": LR_ON_TOP}, "moves": moves}]}) == [
        (f"{LABEL}: game 1, move 1: error [card-mismatch] the log says the last-round card did not come first, "
        "but in the deck it comes before the card drawn (card 1 of the deck)")
    ]


def test_claim_score_warning() -> None:
    data = tiny_match(tiny(claims={"Aiko": {"score": 6}, "Boris": {"score": 4}}))
    assert lines(data) == [
        (f"{LABEL}: game 1: warning [claim-score] Aiko claims 6 but the optimum is 5 "
        "(over-claimed by 1; jokers to orange; positive orange, blue, green)")
    ]
    assert check_match(data).valid


def test_claim_choice_below_the_optimum() -> None:
    # Joker to brown (not held): orange 1 + blue 1 + green 1 positive, brown 1 negative = 2.
    data = tiny_match(tiny(claims={"Aiko": {"jokers": ["brown"], "positive": ["orange", "blue", "green"]}}))
    assert lines(data) == [
        (f"{LABEL}: game 1: warning [claim-choice] Aiko's declared choice scores 2, below the optimum 5 "
        "(jokers to orange; positive orange, blue, green)")
    ]
    assert check_match(data).valid


def test_claim_choice_illegal() -> None:
    data = tiny_match(tiny(claims={"Aiko": {"jokers": ["red"]}, "Boris": {"positive": ["brown", "yellow", "brown"]}}))
    assert lines(data) == [
        f"{LABEL}: game 1: warning [claim-choice] Aiko's declared choice is not legal: joker colour red is not in play",
        f"{LABEL}: game 1: warning [claim-choice] Boris's declared choice is not legal: positive colour brown given twice",
    ]
    assert check_match(data).valid


def test_claims_that_agree_give_no_finding() -> None:
    # Another optimal choice agrees (joker to blue: 3 + 1 + 1), and a positive colour the player
    # does not hold is allowed (it scores 0).
    claims = {
        "Aiko": {"score": 5, "jokers": ["blue"], "positive": ["orange", "blue", "green"]},
        "Boris": {"score": 4, "jokers": [], "positive": ["brown", "yellow", "orange"]},
    }
    assert lines(tiny_match(tiny(claims=claims))) == []


def test_claims_on_an_unfinished_game_are_not_checked() -> None:
    data = tiny_match(tiny(moves=TINY_MOVES[:4], claims={"Aiko": {"score": 99}, "Boris": {"score": 1}}))
    assert [f.rule for f in check_match(data).all_findings()] == ["incomplete-game"]


def test_a_stranger_claiming_on_an_unfinished_game_is_the_same_error() -> None:
    """Issue 11 §5: a non-player's claim is an error whether or not the game is finished."""
    finished = tiny_match(tiny(claims={"Zoe": {"score": 1}}))
    unfinished = tiny_match(tiny(moves=TINY_MOVES[:4], claims={"Aiko": {"score": 99}, "Zoe": {"score": 1}}))
    assert lines(unfinished) == lines(finished) == [
        f"""{LABEL}: game 1: error [unknown-player] claims name "Zoe", who is not a player of this match"""
    ]


def test_claims_by_a_stranger() -> None:
    data = tiny_match(tiny(claims={"Zoe": {"score": 1}}))
    assert lines(data) == [
        f"""{LABEL}: game 1: error [unknown-player] claims name "Zoe", who is not a player of this match"""
    ]


# --------------------------------------------------------------------------- precedence (§3)

PRECEDENCE: list[tuple[str, Json, str]] = [
    # fields and types before game-over
    ("type before game-over", tiny_match(tiny(moves=[*TINY_MOVES, d("Boris", "1", "blue")])), "bad-type"),
    ("unknown field before game-over", tiny_match(tiny(moves=[*TINY_MOVES, t("Zoe", 1, card="blue")])), "unknown-field"),
    # game-over before unknown-player
    ("game-over before unknown-player", tiny_match(tiny(moves=[*TINY_MOVES, d("Zoe", 9, "purple")])), "game-over"),
    # unknown-player before not-your-turn / unknown-row
    ("unknown-player before unknown-row", match(game4(d("Zoe", 9, "purple"))), "unknown-player"),
    # not-your-turn before unknown-row
    ("not-your-turn before unknown-row", match(game4(d("Boris", 9, "purple"))), "not-your-turn"),
    ("not-your-turn (taken) before row-taken", match(game4(*ROUND4[:5], t("Aiko", 1))), "not-your-turn"),
    # unknown-row before must-take
    ("unknown-row before must-take", match(game4(*ROUND4, d("Boris", 9, "red"))), "unknown-row"),
    # must-take before row-taken and row-full
    ("must-take before row-taken", match(game4(*ROUND4, d("Boris", 1, "red"))), "must-take"),
    ("must-take before row-full", match(game4(*ROUND4, d("Boris", 4, "red"))), "must-take"),
    # row-taken before row-empty (a taken row is empty)
    ("row-taken before row-empty", match(game4(*ROUND4[:5], t("Boris", 1))), "row-taken"),
    # row-full / row-empty before the card checks
    ("row-full before impossible-card", match(game4(*ROUND4[:3], d("Dae", 1, "purple"))), "row-full"),
    ("row-full before missing-card", match(game4(*ROUND4[:3], d("Dae", 1))), "row-full"),
    ("row-empty before unexpected-extra", match(game4(t("Aiko", 1, extra="red"))), "row-empty"),
    ("row-taken before card checks", match(game4(*ROUND4[:5], d("Boris", 1, "purple"))), "row-taken"),
]


@pytest.mark.parametrize(("name", "data", "rule"), PRECEDENCE, ids=[p[0] for p in PRECEDENCE])
def test_precedence(name: str, data: Json, rule: str) -> None:
    found = check_match(data).all_findings()
    assert [f.rule for f in found] == [rule]
    assert found[0].severity == "error"


# --------------------------------------------------------------------------- stop the game, go on with the next


def test_after_an_error_the_game_stops_and_the_next_game_is_checked() -> None:
    bad1 = tiny(moves=[TINY_MOVES[0], d("Aiko", 3, "joker"), d("Zoe", 1, "red"), t("Boris", 9)])  # move 2: not Aiko's turn
    good = tiny()
    bad3 = tiny(moves=[*TINY_MOVES[:2], t("Aiko", 2)])  # move 3: row 2 is empty
    data = tiny_match(bad1, good, bad3, rules={**TINY_RULES, "games": 3})
    assert lines(data) == [
        f"{LABEL}: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's",
        f"{LABEL}: game 3, move 3: error [row-empty] row 2 is empty and cannot be taken",
    ]
    report = check_match(data)
    assert [g.complete for g in report.games] == [False, True, False]
    # the broken game's resolved moves stop before the error; its state is the one before it
    assert len(report.games[0].moves) == 1 and len(report.games[2].moves) == 2


def test_a_setup_error_stops_only_its_game() -> None:
    bad = {"setup": {**SETUP2, "first": "Zoe"}, "moves": TINY_MOVES}
    data = tiny_match(bad, tiny(), rules={**TINY_RULES, "games": 2})
    assert lines(data) == [f"""{LABEL}: game 1: error [bad-first] "Zoe" is not a player of this match"""]
    assert [g.complete for g in check_match(data).games] == [False, True]


def test_a_field_error_stops_only_its_game() -> None:
    data = tiny_match(tiny(moves=[TINY_MOVES[0], {**TINY_MOVES[1], "row": None}, t("Zoe", 7)]), tiny(),
                      rules={**TINY_RULES, "games": 2})
    assert lines(data) == [f"""{LABEL}: game 1, move 2: error [bad-type] "row" should be a valid integer (got null)"""]


def test_the_first_broken_move_is_reported_even_when_a_later_one_breaks_a_field() -> None:
    # Move 2 breaks a rule, move 4 a type: only move 2 is reported (the game stops there).
    data = tiny_match(tiny(moves=[TINY_MOVES[0], d("Aiko", 3, "joker"), TINY_MOVES[2], d("Boris", "x")]))
    assert lines(data) == [f"{LABEL}: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's"]
    # and a broken field before a broken rule is the one reported
    data = tiny_match(tiny(moves=[TINY_MOVES[0], d("Boris", "x"), d("Zoe", 3, "joker")]))
    assert lines(data) == [f"""{LABEL}: game 1, move 2: error [bad-type] "row" should be a valid integer (got "x")"""]


def test_too_many_games_stands_at_the_first_game_too_many() -> None:
    broken = {"setup": {"first": "Zoe"}, "moves": [d("Zoe", 99)]}
    data = tiny_match(tiny(), tiny(), broken, broken, rules={**TINY_RULES, "games": 1})
    found = check_match(data).all_findings()
    assert [(f.rule, f.game, f.move) for f in found] == [("too-many-games", 2, None)]
    # games after it are not checked, even broken ones; game 1 is still complete
    assert [g.complete for g in check_match(data).games] == [True, False]


# --------------------------------------------------------------------------- errors that stop the whole match

BROKEN_GAME = {"setup": {"first": "Zoe"}, "moves": [d("Zoe", 99)]}


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("format", "coloretto", "bad-format"),
        ("version", 2, "bad-version"),
        ("players", ["Aiko"], "player-count"),
        ("players", ["Aiko", "Aiko"], "duplicate-player"),
        ("players", ["Aiko", ""], "bad-player-name"),
        ("rules", {"games": 0}, "bad-value"),
        ("rules", {"scoring": "golf"}, "bad-value"),
        ("rules", {"under_last_round": 999}, "bad-value"),
        ("rules", "classic", "bad-type"),
        ("rules", {"games": 2, "players": 2}, "unknown-field"),  # an unknown key of rules too (format §3, settled)
        ("format", 7, "bad-format"),
        ("seed", -5, "bad-seed"),
        ("seed", 1.5, "bad-type"),
    ],
)
def test_a_stopping_field_stops_the_match(field: str, value: Any, rule: str) -> None:
    data = {**tiny_match(BROKEN_GAME, BROKEN_GAME), field: value}
    report = check_match(data)
    assert [(f.severity, f.rule, f.game, f.move) for f in report.all_findings()] == [("error", rule, None, None)]
    assert report.games == [] and not report.valid and not report.complete


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [("date", "2026-13-01", "bad-value"), ("id", 7, "bad-type"), ("notes", None, "bad-type"), ("colour", "red", "unknown-field")],
)
def test_other_match_fields_do_not_stop_the_games(field: str, value: Any, rule: str) -> None:
    data = {**tiny_match(tiny(), BROKEN_GAME, rules={**TINY_RULES, "games": 2}), field: value}
    found = check_match(data).all_findings()
    assert [(f.rule, f.game) for f in found] == [(rule, None), ("missing-field", 2)]


# --------------------------------------------------------------------------- strict types


CARD_CHOICES = ("'orange', 'blue', 'brown', 'yellow', 'grey', 'green', 'red', 'purple', 'joker', "
                "'golden_joker', 'plus2' or 'last_round'")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda m: m["games"][0]["moves"][0].update(row=True), 'game 1, move 1: error [bad-type] "row" must be an integer, not true'),
        (lambda m: m["games"][0]["moves"][0].update(row=3.0), 'game 1, move 1: error [bad-type] "row" must be an integer, not 3.0'),
        (lambda m: m["games"][0]["moves"][0].update(row=None), 'game 1, move 1: error [bad-type] "row" should be a valid integer (got null)'),
        pytest.param(
            lambda m: m["games"][0]["moves"][0].update(card=None),
            'game 1, move 1: error [bad-type] "card" should be ' + CARD_CHOICES + " (got null)",
            id="card null",
        ),
        pytest.param(
            lambda m: m["games"][0]["moves"][0].update(card=5),
            'game 1, move 1: error [bad-type] "card" should be ' + CARD_CHOICES + " (got 5)",
            id="card number",
        ),
        pytest.param(
            lambda m: m["rules"].update(edition=None),
            """error [bad-type] "rules.edition" should be 'classic' or 'anniversary' (got null)""",
            id="edition null",
        ),
        (lambda m: m["games"][0]["moves"][0].update(last_round=1), 'game 1, move 1: error [bad-type] "last_round" should be a valid boolean (got 1)'),
        (lambda m: m["games"][0]["moves"][0].update(last_round=None), 'game 1, move 1: error [bad-type] "last_round" should be a valid boolean (got null)'),
        (lambda m: m["games"][0]["moves"][0].update(player=None), 'game 1, move 1: error [bad-type] "player" should be a valid string (got null)'),
        (lambda m: m["games"][0].update(claims={"Aiko": {"score": 5.0}}), 'game 1: error [bad-type] "claims.Aiko.score" must be an integer, not 5.0'),
        (lambda m: m["games"][0].update(claims={"Aiko": {"score": True}}), 'game 1: error [bad-type] "claims.Aiko.score" must be an integer, not true'),
        (lambda m: m["games"][0].update(claims=None), 'game 1: error [bad-type] "claims" must be a JSON object, not null'),
        (lambda m: m["games"][0]["setup"].update(first=None), 'game 1: error [bad-type] "setup.first" should be a valid string (got null)'),
        (lambda m: m["rules"].update(games=1.0), 'error [bad-type] "rules.games" must be an integer, not 1.0'),
        (lambda m: m["rules"].update(under_last_round=None), 'error [bad-type] "rules.under_last_round" should be a valid integer (got null)'),
        (lambda m: m.update(seed=None), 'error [bad-type] "seed" should be a valid integer (got null)'),
        (lambda m: m.update(seed="42"), 'error [bad-type] "seed" should be a valid integer (got "42")'),
        (lambda m: m.update(id=None), 'error [bad-type] "id" should be a valid string (got null)'),
    ],
)
def test_strict_types(change: Any, expected: str) -> None:
    data = json.loads(json.dumps(tiny_match()))
    change(data)
    assert lines(data) == [f"{LABEL}: {expected}"]


# --------------------------------------------------------------------------- reading files: bad-json, bad-encoding

GOOD = json.dumps(tiny_match()).encode("utf-8")


def file_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes, name: str = LABEL) -> list[str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_bytes(raw)
    out: list[str] = []
    for item in load([name]):
        assert isinstance(item, LoadedMatch)
        out.extend(f.line(item.label) for f in item.findings())
    return out


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b'{"format": "coloretto-log", "version": 1, "version": 1}', 'error [bad-json] duplicate key "version" in one object'),
        (b'{"a": {"b": 1, "b": 2}}', 'error [bad-json] duplicate key "b" in one object'),
        (b'{"format": "coloretto-log", "seed": NaN}', "error [bad-json] NaN is not valid JSON (only finite numbers are)"),
        (b'{"seed": Infinity}', "error [bad-json] Infinity is not valid JSON (only finite numbers are)"),
        (b'{"seed": -Infinity}', "error [bad-json] -Infinity is not valid JSON (only finite numbers are)"),
        (b'{"games": [1, 2,]}', "error [bad-json] invalid JSON at line 1, column 17: expecting value"),
        (b'{\n "games": []\n}\n{}', "error [bad-json] invalid JSON at line 4, column 1: extra data after the value"),
        (b"", "error [bad-json] the file is empty: a log holds one JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "error [bad-json] nesting too deep"),
        (b"\xef\xbb\xbf" + GOOD, "error [bad-encoding] the file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM"),
        (GOOD.decode().encode("utf-16"), "error [bad-encoding] the file looks like UTF-16; save it as UTF-8"),
        (GOOD.decode().encode("utf-16-le"), "error [bad-encoding] the file looks like UTF-16; save it as UTF-8"),
        (GOOD.decode().encode("utf-16-be"), "error [bad-encoding] the file looks like UTF-16; save it as UTF-8"),
        (b'{"notes": "caf\xe9"}\n', "error [bad-encoding] not valid UTF-8 (byte 15, line 1)"),
        (b'{\n\n "notes": "\xff"}', "error [bad-encoding] not valid UTF-8 (byte 15, line 3)"),
    ],
    ids=["duplicate", "nested duplicate", "NaN", "Infinity", "-Infinity", "trailing comma", "extra data", "empty",
         "deep", "BOM", "UTF-16", "UTF-16LE", "UTF-16BE", "latin-1", "invalid UTF-8 line 3"],
)
def test_bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes, expected: str) -> None:
    assert file_lines(tmp_path, monkeypatch, raw) == [f"{LABEL}: {expected}"]


def test_jsonl_findings_carry_the_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = json.dumps(tiny_match(tiny(moves=[TINY_MOVES[0], t("Aiko", 1)])))
    raw = "\n".join([json.dumps(tiny_match()), "", bad, "{oops", ""]).encode()
    assert file_lines(tmp_path, monkeypatch, raw, "club.jsonl") == [
        "club.jsonl:3: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's",
        "club.jsonl:4: error [bad-json] invalid JSON at column 2: expecting property name enclosed in double quotes",
    ]


def test_unreadable_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no 16 MiB written
    items = list(load(["missing.json", "big.json"]))
    assert items == [
        Unreadable("missing.json", "missing.json: no such file or folder"),
        Unreadable("big.json", f"big.json: {MAX_FILE_BYTES + 1} bytes is over the 16 MiB limit for a log"),
    ]


def test_a_file_at_the_size_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    padded = GOOD + b" " * (MAX_FILE_BYTES - len(GOOD))
    assert len(padded) == MAX_FILE_BYTES
    assert file_lines(tmp_path, monkeypatch, padded) == []


def test_deep_nesting_below_the_parser_limit_never_raises() -> None:
    # The library promises findings, never exceptions, for any input. Sweep every depth up to past
    # the parser's limit, so the window is crossed whatever the caller's stack depth.
    crashed = []
    for depth in range(1, 1100):
        text = '{"format":"coloretto-log","version":1,"players":["A","B"],"games":[],"notes":' + "[" * depth + "]" * depth + "}"
        try:
            list(load(["-"], stdin=io.BytesIO(text.encode())))
        except RecursionError:
            crashed.append(depth)
    assert crashed == []


# --------------------------------------------------------------------------- every rule id has its fixture

#: The rule ids of docs/format.md §3, and the two the implementation adds for unreadable text.
#: Rule ids whose fixtures are tests of their own above (not rows of RULE_FIXTURES).
OWN_TESTS = {
    "deck-empty": test_deck_empty_seeded,
    "incomplete-game": test_incomplete_game_error_before_the_next_game,
    "last-round-position": test_last_round_position_warning,
    "claim-score": test_claim_score_warning,
    "claim-choice": test_claim_choice_below_the_optimum,
    "bad-deck": test_bad_deck_rule_and_place,
    "duplicate-player": test_duplicate_player_rule_and_place,
    "bad-json": test_bad_files,
    "bad-encoding": test_bad_files,
}


def test_every_rule_id_has_a_fixture() -> None:
    in_table = {name.split(" (")[0] for name, *rest in RULE_FIXTURES if len(rest) == 2}
    covered = in_table | set(OWN_TESTS)
    assert set(RULE_IDS + EXTRA_IDS) - covered == set()
    assert covered - set(RULE_IDS + EXTRA_IDS) == set()


def test_rule_ids_match_the_format_page() -> None:
    spec = Path(__file__).resolve().parents[2] / "docs" / "format.md"
    import re

    table = [
        line for line in spec.read_text(encoding="utf-8").splitlines()
        if line.startswith("| `") and line.split("|")[2].strip() in ("error", "warning", "error / warning")
    ]
    ids = {rid for line in table for rid in re.findall(r"`([a-z0-9-]+)`", line.split("|")[1])}
    assert ids == set(RULE_IDS + EXTRA_IDS)


@pytest.mark.parametrize("first", ["", "x" * 41])
def test_a_first_player_that_cannot_be_a_name_is_bad_first(first: str) -> None:
    found = check_match(match(game4(first=first))).all_findings()
    assert [(f.severity, f.rule, f.game, f.move) for f in found] == [("error", "bad-first", 1, None)]


# --------------------------------------------------------------------------- readings settled since version 1 (issue 19)


SETTLED: list[tuple[str, Any, list[str]]] = [
    # last_round is a card name: as a draw's card or a take's extra, a card the deck cannot give there
    ("last_round as a seeded draw's card", match({"moves": [d("Chloe", 1, "last_round")]}, seed=42),
     [E + "game 1, move 1: error [card-mismatch] the card drawn is last_round, but the deck yields orange"]),
    ("last_round as a recorded extra", golden_game(d("Aiko", 1, "golden_joker"), t("Boris", 1, extra="last_round")),
     [E + """game 1, move 2: error [impossible-card] the last-round card is not placed; mark it with "last_round": true """
      "and name the golden joker's extra card after it"]),
    ("last_round as a seeded extra", golden_game(d("Aiko", 1), t("Boris", 1, extra="last_round"), deck=GOLDEN_DECK),
     [E + "game 1, move 2: error [card-mismatch] the golden joker's extra card is last_round, but the deck yields red"]),
    # claims that is not an object is an error of the game object: the game stops before its moves
    # (move 1 here is out of turn and row 9 does not exist: neither is reported)
    ("claims an array", match({**game4(d("Dae", 9, "red")), "claims": []}),
     [E + """game 1: error [bad-type] "claims" must be a JSON object, not []"""]),
    ("claims a number", tiny_match({**tiny(moves=[d("Boris", 3, "green")]), "claims": 5}),
     [E + """game 1: error [bad-type] "claims" must be a JSON object, not 5"""]),
]


@pytest.mark.parametrize(("name", "data", "expected"), SETTLED, ids=[s[0] for s in SETTLED])
def test_the_readings_settled_since_version_1(name: str, data: Any, expected: list[str]) -> None:
    assert lines(data) == expected


def test_a_field_error_inside_claims_still_comes_after_the_moves() -> None:
    """Only claims that is not an object stops the game before its moves; a wrong claim inside it is reported
    after the moves, and not at all when a move has already stopped the game."""
    assert lines(tiny_match({**tiny(), "claims": {"Aiko": 5}})) == [
        E + """game 1: error [bad-type] "claims.Aiko" must be a JSON object, not 5""",
    ]
    broken = tiny_match({**tiny(moves=[*TINY_MOVES[:2], d("Boris", 3, "red")]), "claims": {"Aiko": 5}})
    assert lines(broken) == [E + "game 1, move 3: error [not-your-turn] it is Aiko's turn, not Boris's"]


def _cut(shown: str) -> str:
    """A long value as a message shows it: the first 37 characters of its JSON, then "...)"."""
    return f"{shown[:37]}...)"


BOUNDS: list[tuple[str, Any, list[str]]] = [
    ("id of 200 characters", {**tiny_match(), "id": "i" * 200}, []),
    ("id of 201 characters", {**tiny_match(), "id": "i" * 201},
     [E + 'error [bad-value] "id" string should have at most 200 characters (got ' + _cut(json.dumps("i" * 201))]),
    ("match notes of 100,000 characters", {**tiny_match(), "notes": "n" * 100_000}, []),
    ("match notes of 100,001 characters", {**tiny_match(), "notes": "n" * 100_001},
     [E + 'error [bad-value] "notes" string should have at most 100000 characters (got ' + _cut(json.dumps("n" * 100))]),
    ("game notes of 100,001 characters", tiny_match({**tiny(), "notes": "n" * 100_001}),
     [E + 'game 1: error [bad-value] "notes" string should have at most 100000 characters (got ' + _cut(json.dumps("n" * 100))]),
    ("claimed score 10,000", tiny_match(tiny(claims={"Aiko": {"score": 10_000}})),
     [E + "game 1: warning [claim-score] Aiko claims 10000 but the optimum is 5 (over-claimed by 9995; "
      "jokers to orange; positive orange, blue, green)"]),
    ("claimed score 10,001", tiny_match(tiny(claims={"Aiko": {"score": 10_001}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.score" should be less than or equal to 10000 (got 10001)']),
    ("claimed score -10,001", tiny_match(tiny(claims={"Aiko": {"score": -10_001}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.score" should be greater than or equal to -10000 (got -10001)']),
    ("11 jokers", tiny_match(tiny(claims={"Aiko": {"jokers": ["orange"] * 11}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.jokers" list should have at most 10 items after validation, '
      'not 11 (got ' + _cut(json.dumps(["orange"] * 11))]),
    ("11 positive", tiny_match(tiny(claims={"Aiko": {"positive": ["blue"] * 11}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.positive" list should have at most 10 items after validation, '
      'not 11 (got ' + _cut(json.dumps(["blue"] * 11))]),
    ("a positive name of 41 characters", tiny_match(tiny(claims={"Aiko": {"positive": ["r" * 41]}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.positive[0]" string should have at most 40 characters (got '
      + _cut(json.dumps("r" * 41))]),
    ("a joker name of 41 characters", tiny_match(tiny(claims={"Aiko": {"jokers": ["r" * 41]}})),
     [E + 'game 1: error [bad-value] "claims.Aiko.jokers[0]" string should have at most 40 characters (got '
      + _cut(json.dumps("r" * 41))]),
    # within the bounds, a name that is no colour is an illegal choice (a warning), not a field error
    ("a positive name of 40 characters", tiny_match(tiny(claims={"Aiko": {"positive": ["r" * 40]}})),
     [E + "game 1: warning [claim-choice] Aiko's declared choice is not legal: positive colour '" + "r" * 40
      + "' is not a colour"]),
]


@pytest.mark.parametrize(("name", "data", "expected"), BOUNDS, ids=[b[0] for b in BOUNDS])
def test_the_format_bounds(name: str, data: Any, expected: list[str]) -> None:
    """The bounds of docs/format.md §1 and §2 (the format's own since version 1 was settled), at and past each."""
    assert lines(data) == expected
