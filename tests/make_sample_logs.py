"""Regenerate ``sample_logs/`` (valid logs played by the engine) and ``tests/data/invalid/`` (one mistake each).

Run from the project root: ``python tests/make_sample_logs.py``. The output is
deterministic (fixed seeds, ``random.Random(seed)``, no clock), and
``tests/log/test_samples.py`` checks that the committed files are exactly what
this script writes.

Games are played by a simple policy over ``engine.legal_actions``: take the
row that raises the player's optimal score most when it holds 2 or more cards
and helps enough (or when drawing is not allowed), otherwise draw into a row
chosen at random; one move in ten is a random legal move. Cards come from
seeded decks (docs/format.md §4); a *recorded* sample writes the setup and
every card out and drops the seed, as a table playing with real cards would.

Every invalid sample is a valid log with one mistake put in; the rest of the
game is kept (validation stops the game at its first error, so it is not
checked). Their expected findings are listed in ``sample_logs/README.md`` and
in ``tests/log/test_samples.py``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coloretto_log.core import engine
from coloretto_log.core.cards import GOLDEN_JOKER, KIND_INDEX, LAST_ROUND
from coloretto_log.core.claims import optimal_for
from coloretto_log.core.engine import Draw, GameState, Move, Take
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.scoring import best_from_counts
from coloretto_log.core.setup import Setup, seeded_setup
from coloretto_log.log.replay import check_match
from coloretto_log.log.writer import dumps_line, match_json, move_json, setup_json

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"
INVALID = ROOT / "tests" / "data" / "invalid"
NAMES = ("Aiko", "Boris", "Chloe", "Dae", "Emil")
DATE = "2026-11-29"
LONG_NAME = "Dae Kim of the Thursday kitchen-table club"

Json = dict[str, Any]


# --------------------------------------------------------------------------- playing


def _gain(state: GameState, seat: int, cards: tuple[str, ...]) -> int:
    """How much taking ``cards`` raises ``seat``'s optimal score (a golden joker's extra card counts 2)."""
    colours, table = state.colours, state.rules.table
    counts = list(state.collections[seat])
    before = best_from_counts(tuple(counts), colours, table=table).score
    for card in cards:
        counts[KIND_INDEX[card]] += 1
    after = best_from_counts(tuple(counts), colours, table=table).score
    return after - before + (2 if GOLDEN_JOKER in cards else 0)


def choose(state: GameState, rng: random.Random) -> Move:
    """The sample policy (see the module's docstring)."""
    actions = engine.legal_actions(state)
    if rng.random() < 0.1:
        return rng.choice(actions)
    draws = [a for a in actions if isinstance(a, Draw)]
    takes = [a for a in actions if isinstance(a, Take)]
    if takes:
        gain, row = max((_gain(state, state.current, state.rows[t.row - 1]), -t.row) for t in takes)
        n = len(state.rows[-row - 1])
        if not draws or (n >= 2 and gain >= 3) or (n >= 3 and gain >= 0):
            return Take(state.current, -row)
    return rng.choice(draws)


Policy = Callable[[GameState, random.Random], Move]


@dataclass
class Played:
    """One game played to its end: setup, resolved moves, and the state before each move."""

    rules: RuleSet
    names: tuple[str, ...]
    setup: Setup
    moves: list[Move] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)  # states[i]: before moves[i]; last: the end

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def recorded(self, *, claims: Json | None = None) -> Json:
        """The game as a table records it: explicit setup, every card named."""
        game: Json = {
            "setup": setup_json(self.setup, self.names, explicit=True),
            "moves": [move_json(m, self.names, cards=True) for m in self.moves],
        }
        if claims:
            game["claims"] = claims
        return game

    def seeded(self) -> Json:
        """The game in seeded form: no setup, the players' decisions only."""
        return {"moves": [move_json(m, self.names, cards=False) for m in self.moves]}

    def deck_seeded(self, *, claims: Json | None = None) -> Json:
        """The game seeded by its deck: explicit setup and deck, decisions only."""
        assert self.setup.deck is not None
        setup = setup_json(self.setup, self.names, explicit=True)
        setup["deck"] = list(self.setup.deck)
        game: Json = {"setup": setup, "moves": [move_json(m, self.names, cards=False) for m in self.moves]}
        if claims:
            game["claims"] = claims
        return game


def play(
    rules: RuleSet,
    players: int,
    seed: int,
    game: int,
    *,
    policy: Policy = choose,
    deck: tuple[str, ...] | None = None,
    stop: Callable[[GameState], bool] | None = None,
) -> Played:
    """Play game ``game`` of ``seed`` with ``policy`` (``random.Random(seed * 100 + game)``)."""
    setup = seeded_setup(rules, players, seed, game)
    if deck is not None:
        setup = Setup(setup.removed, setup.starting, setup.first, deck)
    rng = random.Random(seed * 100 + game)
    state = engine.new_game(
        rules, players, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck
    )
    played = Played(rules, NAMES[:players], setup, states=[state])
    while not state.over and not (stop is not None and stop(state)):
        state, move = engine.play(state, policy(state, rng))
        played.moves.append(move)
        played.states.append(state)
    return played


def claims_for(played: Played, game: int) -> Json:
    """Claims that agree with the optimum, written in several styles (and one player claiming nothing)."""
    out: Json = {}
    for seat, name in enumerate(played.names):
        best = optimal_for(played.final, seat)
        style = (game + seat) % 4
        if style == 0:
            out[name] = {"score": best.score, "jokers": list(best.jokers), "positive": list(best.positive)}
        elif style == 1:
            out[name] = {"score": best.score}
        elif style == 2:
            out[name] = {"jokers": list(best.jokers), "positive": list(best.positive)}
        # style 3: this player wrote nothing down
    return out


# --------------------------------------------------------------------------- valid samples

CLASSIC = RuleSet.of(edition="classic")
ANNIVERSARY = RuleSet.of(edition="anniversary")


def classic_4p_match() -> Json:
    rules = CLASSIC
    games = []
    for g in range(4):
        p = play(rules, 4, 20261129, g)
        games.append(p.recorded(claims=claims_for(p, g)))
    return match_json(
        rules=rules,
        players=NAMES[:4],
        games=games,
        match_id="2026-11-29-kitchen",
        date=DATE,
        notes="A recorded match of 4 games; claims written down at the table, all agreeing with the optimum.",
    )


def classic_3p_seeded_match() -> Json:
    seed = 3003
    rules = CLASSIC
    games = [play(rules, 3, seed, g).seeded() for g in range(4)]
    return match_json(rules=rules, players=NAMES[:3], games=games, seed=seed, match_id="seeded-3p", date=DATE)


def classic_2p_game() -> Json:
    rules = RuleSet.of(games=1)
    p = play(rules, 2, 2002, 0)
    return match_json(rules=rules, players=NAMES[:2], games=[p.recorded(claims=claims_for(p, 0))], date=DATE)


def _golden_taken(p: Played) -> Take:
    for m in p.moves:
        if isinstance(m, Take) and m.extra is not None:
            return m
    raise AssertionError("no golden joker was taken")


def anniversary_golden_joker() -> Json:
    rules = RuleSet.of(edition="anniversary", games=1)
    p = play(rules, 4, 1009, 0)
    _golden_taken(p)
    return match_json(rules=rules, players=NAMES[:4], games=[p.recorded(claims=claims_for(p, 0))], date=DATE)


#: A seed whose game 0, played by ``choose``, takes the golden joker when the last-round card is next.
DECISION_SEED = 1269


def anniversary_golden_joker_last_round() -> Json:
    rules = RuleSet.of(edition="anniversary", games=1)
    p = play(rules, 3, DECISION_SEED, 0)
    take = _golden_taken(p)
    assert take.last_round, "the golden joker's extra card should follow the last-round card"
    return match_json(
        rules=rules,
        players=NAMES[:3],
        games=[p.recorded(claims=claims_for(p, 0))],
        date=DATE,
        notes="The golden joker is taken when the last-round card is on top: it is set aside and "
        "the player takes the next card (docs/rules-of-play.md §3, Decision).",
    )


def alternative_table_game() -> Json:
    rules = RuleSet.of(scoring="alternative", games=1)
    p = play(rules, 4, 801, 0)
    best = optimal_for(p.final, 0)
    assert best.jokers == ("green", "green") and "green" not in best.positive
    return match_json(
        rules=rules,
        players=NAMES[:4],
        games=[p.deck_seeded(claims=claims_for(p, 0))],
        date=DATE,
        notes="On the alternative table Aiko's two jokers go to green, a negative colour: "
        "7 green cards cost 5 points where 5 would cost 6.",
    )


def five_player_lines() -> list[Json]:
    out = []
    for edition, seed in (("classic", 5005), ("anniversary", 5006)):
        rules = RuleSet.of(edition=edition, games=1)
        p = play(rules, 5, seed, 0)
        out.append(match_json(rules=rules, players=NAMES, games=[p.seeded()], seed=seed, match_id=f"5p-{edition}"))
    return out


# --------------------------------------------------------------------------- invalid samples


def _base() -> Played:
    """The game every move-level invalid sample is made from: recorded, 4 players, classic."""
    return play(RuleSet.of(games=1), 4, 4004, 0)


def _one_game(p: Played, game: Json, **extra: Any) -> Json:
    rules = extra.pop("rules", p.rules)
    return match_json(rules=rules, players=extra.pop("players", p.names), games=[game], **extra)


def _first(p: Played, test: Callable[[GameState, Move], bool]) -> int:
    """The index of the first move whose state (and move) pass ``test``."""
    for i, (state, move) in enumerate(zip(p.states, p.moves)):
        if test(state, move):
            return i
    raise AssertionError("no move fits")


def _next_card(state: GameState) -> str:
    deck = state.deck
    assert deck is not None
    card = deck[state.turned]
    return deck[state.turned + 1] if card == LAST_ROUND else card


def _replaced(p: Played, i: int, move: Json) -> Json:
    game = p.recorded()
    game["moves"][i] = move
    return game


def _can_draw(s: GameState) -> bool:
    return any(isinstance(a, Draw) for a in engine.legal_actions(s))


def invalid_samples() -> dict[str, Json | bytes]:
    """File name -> match (or raw bytes) with exactly one mistake."""
    p = _base()
    names = p.names
    out: dict[str, Json | bytes] = {}

    def note(text: str) -> str:
        return "Invalid on purpose: " + text

    # --- move-level mistakes
    i = _first(p, lambda s, m: isinstance(m, Draw) and sum(not d for d in s.done) >= 3)
    s = p.states[i]
    wrong = next(seat for seat in range(4) if seat != s.current and not s.done[seat])
    out["not-your-turn.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "player": names[wrong]}),
        notes=note(f"move {i + 1} is played by {names[wrong]}, but it is {names[s.current]}'s turn."),
    )

    i = _first(p, lambda s, m: isinstance(m, Take) and any(s.done))
    s = p.states[i]
    gone = next(seat for seat in range(4) if s.done[seat])
    out["not-your-turn-after-taking.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "player": names[gone]}),
        notes=note(f"{names[gone]} has taken a row this round and plays again at move {i + 1}."),
    )

    def full_row(s: GameState) -> int | None:
        return next((r + 1 for r in range(len(s.rows)) if not s.taken[r] and len(s.rows[r]) == s.limits[r]), None)

    i = _first(p, lambda s, m: _can_draw(s) and full_row(s) is not None)
    s = p.states[i]
    out["row-full.json"] = _one_game(
        p,
        _replaced(p, i, {"player": names[s.current], "action": "draw", "row": full_row(s), "card": _next_card(s)}),
        notes=note(f"move {i + 1} draws into row {full_row(s)}, which is full."),
    )

    i = _first(p, lambda s, m: not _can_draw(s))
    s = p.states[i]
    out["must-take.json"] = _one_game(
        p,
        _replaced(p, i, {"player": names[s.current], "action": "draw", "row": full_row(s), "card": _next_card(s)}),
        notes=note(f"at move {i + 1} every remaining row is full, but the player draws."),
    )

    def empty_row(s: GameState) -> int | None:
        return next((r + 1 for r in range(len(s.rows)) if not s.taken[r] and not s.rows[r]), None)

    i = _first(p, lambda s, m: empty_row(s) is not None)
    s = p.states[i]
    out["row-empty.json"] = _one_game(
        p,
        _replaced(p, i, {"player": names[s.current], "action": "take", "row": empty_row(s)}),
        notes=note(f"move {i + 1} takes row {empty_row(s)}, which is empty."),
    )

    i = _first(p, lambda s, m: _can_draw(s) and any(s.taken))
    s = p.states[i]
    taken_row = s.taken.index(True) + 1
    out["row-taken.json"] = _one_game(
        p,
        _replaced(p, i, {"player": names[s.current], "action": "draw", "row": taken_row, "card": _next_card(s)}),
        notes=note(f"move {i + 1} draws into row {taken_row}, taken earlier this round."),
    )

    i = _first(p, lambda s, m: isinstance(m, Draw))
    out["unknown-row.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "row": 5}),
        notes=note("4 players play with 4 rows; the first move draws into row 5."),
    )

    i = _first(p, lambda s, m: isinstance(m, Draw) and s.remaining[KIND_INDEX["joker"]] == 0)
    out["impossible-card.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "card": "joker"}),
        notes=note(f"move {i + 1} names a fourth joker; the classic edition has 3."),
    )

    i = _first(p, lambda s, m: isinstance(m, Draw) and s.round == 2)
    moved = move_json(p.moves[i], names, cards=True)
    del moved["card"]
    out["missing-card.json"] = _one_game(p, _replaced(p, i, moved), notes=note(f"the draw of move {i + 1} names no card."))

    i = _first(p, lambda s, m: isinstance(m, Take))
    out["unknown-field.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "card": "red"}),
        notes=note(f'the take of move {i + 1} has a "card" field; only a draw has one.'),
    )

    i = _first(p, lambda s, m: isinstance(m, Take))
    out["unexpected-extra.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "extra": "red"}),
        notes=note(f'the take of move {i + 1} has an "extra" card, but its row holds no golden joker.'),
    )

    i = _first(p, lambda s, m: isinstance(m, Draw) and s.round == 3)
    out["bad-type.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "row": str(p.moves[i].row)}),
        notes=note(f'the row of move {i + 1} is the string "{p.moves[i].row}", not a number.'),
    )

    i = _first(p, lambda s, m: isinstance(m, Draw) and s.round == 4)
    out["bad-action.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "action": "pass"}),
        notes=note(f'move {i + 1} has the action "pass".'),
    )

    i = _first(p, lambda s, m: s.round == 2 and s.done == (False,) * 4 and isinstance(m, Draw))
    out["unknown-player.json"] = _one_game(
        p,
        _replaced(p, i, {**move_json(p.moves[i], names, cards=True), "player": "Zoe"}),
        notes=note(f"move {i + 1} is played by Zoe, who is not at the table."),
    )

    game = p.recorded()
    end = p.final
    game["moves"].append({"player": names[end.current], "action": "draw", "row": 1, "card": "blue"})
    out["game-over.json"] = _one_game(p, game, notes=note("a move after the last round has ended."))

    # --- seeded games
    seeded = play(RuleSet.of(games=1), 3, 3131, 0)
    game = seeded.seeded()
    i = _first(seeded, lambda s, m: isinstance(m, Draw) and s.round == 2)
    actual = seeded.moves[i]
    assert isinstance(actual, Draw) and actual.card is not None
    wrong_card = next(c for c in seeded.final.colours if c != actual.card)
    game["moves"][i]["card"] = wrong_card
    out["card-mismatch.json"] = _one_game(
        seeded,
        game,
        seed=3131,
        notes=note(f"move {i + 1} names {wrong_card}, but the seed's deck yields {actual.card} there."),
    )
    out["bad-seed.json"] = _one_game(
        seeded, seeded.seeded(), seed=2**64, notes=note("the seed is 2^64; seeds lie in 0 <= seed < 2^64.")
    )

    game = p.deck_seeded()
    deck = game["setup"]["deck"]
    deck[deck.index("plus2")] = "joker"
    out["bad-deck.json"] = _one_game(p, game, notes=note('the deck lists a fourth joker in place of a "+2" card.'))

    bottom = p.setup.deck
    assert bottom is not None
    bottom = tuple(c for c in bottom if c != LAST_ROUND) + (LAST_ROUND,)
    long = play(RuleSet.of(games=1), 4, 4004, 0, deck=bottom, stop=lambda s: s.turned == len(bottom) - 1 and _can_draw(s))
    game = long.deck_seeded()
    free = next(a.row for a in engine.legal_actions(long.final) if isinstance(a, Draw))
    game["moves"].append({"player": names[long.final.current], "action": "draw", "row": free})
    out["deck-empty.json"] = _one_game(
        long,
        game,
        notes=note("the deck lists the last-round card at the very bottom; every other card is "
                   "turned over and then one more is drawn."),
    )

    # --- anniversary: the golden joker
    gold = play(RuleSet.of(edition="anniversary", games=1), 4, 1009, 0)
    game = gold.recorded()
    i = next(k for k, m in enumerate(gold.moves) if isinstance(m, Take) and m.extra is not None)
    del game["moves"][i]["extra"]
    out["missing-extra.json"] = _one_game(
        gold, game, notes=note(f"the take of move {i + 1} holds the golden joker but names no extra card.")
    )

    # --- setup mistakes
    def with_setup(**changes: Any) -> Json:
        game = p.recorded()
        game["setup"].update(changes)
        for key, value in changes.items():
            if value is None:
                del game["setup"][key]
        return game

    starting = {name: list(cards) for name, cards in p.recorded()["setup"]["starting"].items()}
    starting[names[1]] = list(starting[names[0]])
    out["bad-starting.json"] = _one_game(
        p, with_setup(starting=starting), notes=note(f"{names[0]} and {names[1]} both start with {starting[names[0]][0]}.")
    )
    out["bad-removed.json"] = _one_game(
        p, with_setup(removed=["grey"]), notes=note("4 players remove no colour, but grey is removed.")
    )
    out["bad-first.json"] = _one_game(p, with_setup(first="Zoe"), notes=note("the first player, Zoe, is not at the table."))
    out["missing-field.json"] = _one_game(
        p, with_setup(first=None), notes=note('a recorded game without "first" in its setup.')
    )

    # --- match-level mistakes
    second = play(RuleSet.of(games=1), 4, 4004, 1)
    out["too-many-games.json"] = match_json(
        rules=RuleSet.of(games=1),
        players=names,
        games=[p.recorded(), second.recorded()],
        notes=note("the rules plan 1 game and the log holds 2."),
    )
    half = p.recorded()
    half["moves"] = half["moves"][: len(half["moves"]) // 2]
    out["incomplete-game.json"] = match_json(
        rules=RuleSet.of(games=2),
        players=names,
        games=[half, second.recorded()],
        notes=note("game 1 stops half way and game 2 starts."),
    )
    out["bad-value.json"] = _one_game(p, p.recorded(), date="2026-02-30", notes=note("February has no 30th."))
    out["bad-player-name.json"] = _one_game(
        p,
        p.recorded(),
        players=names[:3] + (LONG_NAME,),
        notes=note(f"a player's name is {len(LONG_NAME)} characters long; the limit is 40."),
    )
    out["duplicate-player.json"] = _one_game(
        p, p.recorded(), players=names[:3] + (names[0],), notes=note(f"{names[0]} is seated twice.")
    )
    out["player-count.json"] = match_json(
        rules=CLASSIC, players=NAMES + ("Fumi",), games=[], notes=note("6 players; Coloretto seats 2 to 5.")
    )
    bad = _one_game(p, p.recorded(), notes=note("the version is 2; this is version 1 of the format."))
    bad["version"] = 2
    out["bad-version.json"] = bad
    bad = _one_game(p, p.recorded(), notes=note('the format is "coloretto", not "coloretto-log".'))
    bad["format"] = "coloretto"
    out["bad-format.json"] = bad

    # --- text-level mistakes
    text = dumps_sample(_one_game(p, p.recorded(), notes=note("a comma is missing after move 3.")))
    lines = text.split("\n")
    at = next(k for k, line in enumerate(lines) if line.lstrip().startswith('{"player"')) + 2
    assert lines[at].endswith(",")
    lines[at] = lines[at][:-1]
    out["bad-json.json"] = "\n".join(lines).encode("utf-8")
    utf16 = dumps_sample(_one_game(p, p.recorded(), notes=note("saved as UTF-16 by a text editor.")))
    out["bad-encoding.json"] = utf16.encode("utf-16")
    return out


# --------------------------------------------------------------------------- writing


def dumps_sample(value: Any, width: int = 100) -> str:
    """JSON for reading by people: a value that fits on one line stays on one line (a move, a claim)."""
    return _pretty(value, 0, 0, width) + "\n"


def _pretty(value: Any, indent: int, used: int, width: int) -> str:
    """``value`` at nesting ``indent``, its first line starting at column ``used``."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value or (used + len(flat) <= width and _shallow(value)):
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, list):
        items = [pad + _pretty(v, indent + 1, len(pad), width) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    lines = []
    for k, v in value.items():
        head = pad + json.dumps(k, ensure_ascii=False) + ": "
        lines.append(head + _pretty(v, indent + 1, len(head), width))
    return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"


def _shallow(value: Any) -> bool:
    """A value fit for one line: nesting at most two deep (a move, a claim, a starting hand)."""
    def depth(v: Any) -> int:
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        return 0

    return depth(value) <= 2


def typed_lines(log: dict[str, Any]) -> list[str]:
    """The lines a scorekeeper types into ``record`` for a recorded log: setup, moves, written scores."""
    players = log["players"]
    lines: list[str] = []
    for game in log["games"]:
        setup = game["setup"]
        if setup.get("removed"):
            lines.append(" ".join(setup["removed"]))
        lines.extend(", ".join(setup["starting"][name]) for name in players)
        lines.append(setup["first"])
        for move in game["moves"]:
            last = " l" if move.get("last_round") else ""
            if move["action"] == "draw":
                lines.append(f"d{last} {move['card']} {move['row']}")
            elif "extra" in move:
                lines.append(f"t {move['row']}{last} {move['extra']}")
            else:
                lines.append(f"t {move['row']}")
        claims = game.get("claims", {})
        lines.extend(str(claims.get(name, {}).get("score", "")) for name in players)
    return lines


def valid_samples() -> dict[str, str]:
    """File name -> text of every valid sample."""
    out = {
        "classic-4p-recorded-match-with-claims.json": dumps_sample(classic_4p_match()),
        "classic-3p-seeded-match.json": dumps_sample(classic_3p_seeded_match()),
        "classic-2p-recorded-game.json": dumps_sample(classic_2p_game()),
        "anniversary-4p-golden-joker.json": dumps_sample(anniversary_golden_joker()),
        "anniversary-3p-golden-joker-after-last-round-card.json": dumps_sample(anniversary_golden_joker_last_round()),
        "alternative-table-4p-deck-seeded-game.json": dumps_sample(alternative_table_game()),
        "5p-seeded-games.jsonl": "".join(dumps_line(m) + "\n" for m in five_player_lines()),
        # what a scorekeeper types into `record` for the 2-player game (the README's first game, piped)
        "classic-2p-recorded-game.typed.txt": "".join(f"{line}\n" for line in typed_lines(classic_2p_game())),
    }
    return out


def files() -> dict[str, bytes]:
    """Path under the project root -> exact bytes, for every generated sample (valid and invalid)."""
    out = {f"sample_logs/{name}": text.encode("utf-8") for name, text in valid_samples().items()}
    for name, value in invalid_samples().items():
        out[f"tests/data/invalid/{name}"] = value if isinstance(value, bytes) else dumps_sample(value).encode("utf-8")
    return out


def _self_check(generated: dict[str, bytes]) -> None:
    """Every valid sample replays with no finding (the tests check the invalid ones)."""
    for name, raw in generated.items():
        if not name.startswith("sample_logs/") or name.endswith(".txt"):
            continue
        for line in raw.decode("utf-8").splitlines() if name.endswith(".jsonl") else [raw.decode("utf-8")]:
            report = check_match(json.loads(line))
            found = [f.line(name) for f in report.all_findings()]
            assert not found, found


def main() -> None:
    generated = files()
    _self_check(generated)
    INVALID.mkdir(parents=True, exist_ok=True)
    for name, raw in generated.items():
        (ROOT / name).write_bytes(raw)
    # the copy the package ships (`coloretto-log samples`): the same bytes, the hand-written README among them
    shipped = ROOT / "coloretto_log" / "log" / "sample_logs"
    for path in sorted(SAMPLES.iterdir()):
        if path.is_file():
            (shipped / path.name).write_bytes(path.read_bytes())
    known = set(generated) | {"sample_logs/README.md"}
    on_disk = [p for folder in (SAMPLES, INVALID) for p in folder.rglob("*") if p.is_file()]
    for path in on_disk:
        if path.relative_to(ROOT).as_posix() not in known:
            print(f"not generated (remove it?): {path}", file=sys.stderr)
    print(f"wrote {len(generated)} files under {SAMPLES} and {INVALID}, and the samples again under {shipped}")


if __name__ == "__main__":
    main()
