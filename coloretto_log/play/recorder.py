"""Record a match played with real cards: the session behind ``coloretto-log record``.

Two layers:

* ``Recorder``: the recording session as a state machine over the engine. It
  takes one line of input at a time (``feed``) and answers with a ``Reply``:
  the events to show (a refusal naming the rule broken, a game's final
  scores, claim verdicts, the match standings, ...), whether the log changed
  (so must be saved) and whether the session stops. It does no I/O: it holds
  the match as log JSON (``data``) and the engine states of every game.
* ``LogFile``: the file on disk: an advisory lock beside it, clean-up of
  temporary files a crash left behind, and atomic saves.

The command line (``cli/record.py``) reads lines, renders events and saves.

Phases of a session, in order (``Recorder.phase``)::

    players -> [removed] -> starting (one per seat) -> first -> move <-> extra
            -> claim (one per seat) -> next game's setup ... -> done

``u`` steps back one answer in every phase: in ``move`` it undoes the last
move (or, before the first move, the answer to "who starts"); at the first
prompt of a setup or of the claims it undoes the last move of the game
before.
"""

from __future__ import annotations

import copy
import errno
import fcntl
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import engine
from ..core.cards import CARD_ALIASES, GOLDEN_JOKER, JOKER, PLUS2, is_colour, typed_card
from ..core.claims import Verdict, optimal_for, verdicts
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import ColorettoLogError, UnreadableFileError
from ..core.ruleset import LAYOUTS, MAX_PLAYERS, MIN_PLAYERS, RuleSet
from ..core.scoring import Assignment, ranks
from ..core.setup import Setup
from ..log.atomic import atomic_write_text
from ..log.models import Claim
from ..log.reader import decode, parse_json, read_bytes
from ..log.replay import SetupError, check_match, check_removed, check_starting_cards
from ..log.writer import dumps_pretty, match_json, move_json, setup_json

# --------------------------------------------------------------------------- card names

#: The short form the help lists for each card.
SHORT_NAMES: dict[str, str] = {
    "orange": "o", "blue": "bl", "brown": "br", "yellow": "y", "grey": "gr", "green": "g",
    "red": "r", "purple": "pu", JOKER: "j", GOLDEN_JOKER: "gj", PLUS2: "+2",
}  # fmt: skip


class InputError(ColorettoLogError):
    """A line the recorder refuses; ``rule`` is the validation rule id where one applies."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def parse_card(text: str) -> str:
    """The card name a typed word stands for (case does not matter); ``InputError`` if none."""
    card = typed_card(text)
    if card is not None:
        return card
    key = text.strip().lower()
    if key in ("l", "lr", "last_round", "last"):
        raise InputError('the last-round card is not placed: type "l" before the draw, then the card after it')
    close = sorted({name for alias, name in CARD_ALIASES.items() if alias.startswith(key)}) if key else []
    hint = f" (did you mean {' or '.join(f'{SHORT_NAMES[c]} for {c}' for c in close)}?)" if close else ""
    raise InputError(f'"{text}" is not a card{hint}; type ? for the card names')


def parse_colours(text: str) -> list[str]:
    """Colour names separated by spaces or commas."""
    words = text.replace(",", " ").split()
    cards = [parse_card(w) for w in words]
    for word, card in zip(words, cards):
        if not is_colour(card):
            raise InputError(f'"{word}" is {card}, not a colour')
    return cards


def parse_players(text: str) -> tuple[str, ...]:
    """Player names in seat order, separated by commas (spaces around a name are dropped)."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) == 1 and not names[0]:
        raise InputError("type the players' names in seat order, separated by commas", "player-count")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(
            f"{len(names)} player{'s' if len(names) != 1 else ''}: Coloretto is for {MIN_PLAYERS} to {MAX_PLAYERS}, "
            "names separated by commas",
            "player-count",
        )
    for name in names:
        if not name:
            raise InputError("an empty name: names are separated by commas", "bad-player-name")
        if len(name) > 40:
            raise InputError(f'"{name[:20]}...": a name is at most 40 characters', "bad-player-name")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InputError(f'"{name}" is given twice', "duplicate-player")
    return names


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class DrawCommand:
    card: str
    row: int
    last_round: bool = False


@dataclass(frozen=True, slots=True)
class TakeCommand:
    row: int
    extra: str | None = None
    last_round: bool = False


@dataclass(frozen=True, slots=True)
class Simple:
    """A one-word command: ``undo``, ``help``, ``quit`` or ``last_round`` (the ``l`` mark)."""

    name: str


Command = DrawCommand | TakeCommand | Simple

_SIMPLE = {
    "u": "undo", "undo": "undo",
    "?": "help", "h": "help", "help": "help",
    "q": "quit", "quit": "quit", "exit": "quit",
    "l": "last_round", "lr": "last_round", "last": "last_round",
}  # fmt: skip
_DRAW_WORDS = ("d", "draw")
_TAKE_WORDS = ("t", "take")


def parse_command(line: str) -> Command | None:
    """One line at the move prompt; ``None`` for a blank line or a ``#`` comment."""
    words = line.replace(",", " ").lower().split()
    if not words or words[0].startswith("#"):
        return None
    head, rest = words[0], words[1:]
    last_round = False
    if _SIMPLE.get(head) == "last_round":
        if not rest:
            return Simple("last_round")
        last_round = True
        head, rest = rest[0], rest[1:]
    if head in _SIMPLE and not rest:
        return Simple(_SIMPLE[head])
    if head in _DRAW_WORDS:
        card, row, lr = _card_and_row(rest, "a draw names the card and the row: d red 2")
        if card is None or row is None:
            raise InputError("a draw names the card and the row: d red 2")
        return DrawCommand(card, row, last_round or lr)
    if head in _TAKE_WORDS:
        card, row, lr = _card_and_row(rest, "a take names the row: t 3")
        if row is None:
            raise InputError("a take names the row: t 3")
        return TakeCommand(row, card, last_round or lr)
    raise InputError(f'"{words[0]}" is not a command: d CARD ROW (draw), t ROW (take), l, u, ? or q')


def _card_and_row(words: list[str], usage: str) -> tuple[str | None, int | None, bool]:
    card: str | None = None
    row: int | None = None
    last_round = False
    for word in words:
        if word.isdigit():
            if row is not None:
                raise InputError(f"two row numbers: {usage}")
            row = int(word)
        elif _SIMPLE.get(word) == "last_round":
            last_round = True
        else:
            if card is not None:
                raise InputError(f"two cards: {usage}")
            card = parse_card(word)
    return card, row, last_round


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Refused:
    """The line was refused; nothing was recorded."""

    message: str
    rule: str | None = None

    def line(self) -> str:
        return f"refused [{self.rule}] {self.message}" if self.rule else f"refused: {self.message}"


@dataclass(frozen=True, slots=True)
class Note:
    """Something recorded or undone, in one sentence."""

    text: str


@dataclass(frozen=True, slots=True)
class Help:
    text: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place in the match: total of the complete games' optimal scores."""

    player: str
    seat: int
    total: int
    rank: int  # tied players share a rank
    games: tuple[int, ...]  # each complete game's score


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game has ended: every player's optimal score and assignment, and the match so far."""

    game: int  # from 1
    players: tuple[str, ...]
    scores: tuple[Assignment, ...]  # by seat
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class ClaimVerdicts:
    game: int
    verdicts: tuple[Verdict, ...]


@dataclass(frozen=True, slots=True)
class GameStart:
    game: int  # from 1
    games: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    standings: tuple[Standing, ...]


Event = Refused | Note | Help | GameOver | ClaimVerdicts | GameStart | MatchOver


@dataclass(frozen=True, slots=True)
class Reply:
    events: tuple[Event, ...] = ()
    changed: bool = False  # the log changed: save it
    stop: bool = False  # quit, or the match is complete


@dataclass(frozen=True, slots=True)
class Prompt:
    phase: str
    text: str
    player: str | None = None
    hint: str = ""


def standings(players: Sequence[str], games: Sequence[Sequence[int]]) -> tuple[Standing, ...]:
    """Totals and ranks, best first (ties in seat order, sharing the rank)."""
    totals = [sum(g[seat] for g in games) for seat in range(len(players))]
    rank = ranks(totals)
    order = sorted(range(len(players)), key=lambda s: (rank[s], s))
    return tuple(
        Standing(
            player=players[s],
            seat=s,
            total=totals[s],
            rank=rank[s],
            games=tuple(g[s] for g in games),
        )
        for s in order
    )


def describe(move: Move, players: Sequence[str], before: GameState) -> str:
    """A recorded move in words: ``Aiko drew red into row 2``."""
    who = players[move.seat]
    if isinstance(move, Draw):
        lr = " (after the last-round card: this is the last round)" if move.last_round else ""
        return f"{who} drew {move.card} into row {move.row}{lr}"
    cards = ", ".join(before.rows[move.row - 1])
    extra = ""
    if move.extra is not None:
        lr = " after the last-round card" if move.last_round else ""
        extra = f", and {move.extra} from the deck{lr}"
    return f"{who} took row {move.row} ({cards}){extra}"


# --------------------------------------------------------------------------- the session


class ResumeError(ColorettoLogError):
    """An existing log that cannot be recorded into (it has an error, or it is seeded)."""


MOVE_HINT = "d CARD ROW · t ROW · l · u · ? · q"


class Recorder:
    """The recording session: feed it lines, get replies. No I/O.

    ``data`` is the match as log JSON, always a valid (possibly unfinished)
    log once the players are known; save it whenever a reply says
    ``changed``.
    """

    def __init__(
        self,
        *,
        rules: RuleSet,
        players: Sequence[str] | None = None,
        match_id: str | None = None,
        date: str | None = None,
    ) -> None:
        self.rules = rules
        self.players: tuple[str, ...] = ()
        self.data: dict[str, Any] | None = None
        self._match_id = match_id
        self._date = date
        self._states: list[list[GameState]] = []  # per game: the state before each move, and the current one
        self._moves: list[list[Move]] = []  # per game: resolved moves
        self._setups: list[Setup] = []
        self.phase = "players"
        self._steps: list[tuple[str, int]] = []
        self._answers: list[Any] = []
        self._claims: list[int | None] = []
        self._lr_mark = False
        self._extra_row: int | None = None
        if players is not None:
            self._set_players(tuple(players))

    # ----------------------------------------------------------------- construction

    @classmethod
    def resume(cls, data: Any) -> Recorder:
        """Continue an existing log; ``ResumeError`` when it cannot be."""
        report = check_match(data)
        errors = [f for f in report.all_findings() if f.severity == "error"]
        if errors:
            raise ResumeError(f"the log has an error, so it cannot be resumed: {errors[0].line('').lstrip(': ')}")
        assert isinstance(data, dict) and report.match is not None and report.rules is not None
        if report.match.seed is not None or any(record.seeded for record in report.games):
            raise ResumeError("the log is seeded: record continues only games played with real cards")
        rec = cls(rules=report.rules)
        rec.players = report.players
        rec.data = copy.deepcopy(data)
        for record in report.games:
            assert record.setup is not None
            rec._setups.append(record.setup)
            rec._states.append(list(record.states()))
            rec._moves.append(list(record.moves))
        games = rec.data["games"]
        if not games:
            rec._start_setup()
        elif not rec._states[-1][-1].over:
            rec.phase = "move"
        elif "claims" not in games[-1]:
            rec._start_claims()
        elif len(games) < rec.rules.games:
            rec._start_setup()
        else:
            rec.phase = "done"
        return rec

    def opening_events(self) -> tuple[Event, ...]:
        """What to show when a session resumes at the end of a game or of the match."""
        if self.phase == "claim":
            return (self._game_over(),)
        if self.phase == "done":
            return (MatchOver(self.standings()),)
        return ()

    def _set_players(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.data = match_json(rules=self.rules, players=players, games=[], match_id=self._match_id, date=self._date)
        self._start_setup()

    # ----------------------------------------------------------------- views

    @property
    def game_number(self) -> int:
        """The game being set up, played or scored (from 1); 0 before the players are known."""
        if self.data is None:
            return 0
        n = len(self.data["games"])
        return n + 1 if self.phase in ("removed", "starting", "first") else n

    @property
    def state(self) -> GameState | None:
        """The current game's state (in ``move``, ``extra`` and ``claim``)."""
        if self.phase in ("move", "extra", "claim") and self._states:
            return self._states[-1][-1]
        return None

    @property
    def last_round_mark(self) -> bool:
        """``l`` was typed: the next card turned over comes after the last-round card."""
        return self._lr_mark

    @property
    def moves_in_game(self) -> int:
        return len(self._moves[-1]) if self._moves else 0

    def taken_by(self) -> tuple[str | None, ...]:
        """Who took each row this round (``None``: not taken)."""
        state = self.state
        if state is None:
            return ()
        out: list[str | None] = [None] * len(state.rows)
        for move, after in zip(self._moves[-1], self._states[-1][1:]):
            if not any(after.taken):
                out = [None] * len(state.rows)
            elif isinstance(move, Take):
                out[move.row - 1] = self.players[move.seat]
        return tuple(out)

    def best_scores(self) -> tuple[int, ...]:
        """Each player's best score with the cards held now."""
        state = self.state
        if state is None:
            return ()
        return tuple(optimal_for(state, seat).score for seat in range(state.players))

    def standings(self) -> tuple[Standing, ...]:
        """The match so far: complete games only."""
        games = [
            tuple(optimal_for(states[-1], seat).score for seat in range(len(self.players)))
            for states in self._states
            if states[-1].over
        ]
        return standings(self.players, games)

    def progress(self) -> str:
        """Where the session stands, for one-line messages: ``game 2 of 4, 13 moves``."""
        if self.data is None:
            return "no players yet"
        n = len(self.data["games"])
        if self.phase == "done":
            return f"the match is complete ({n} game{'s' if n != 1 else ''})"
        if n == 0 or self.phase in ("removed", "starting", "first"):
            return f"{n} game{'s' if n != 1 else ''} complete, game {n + 1} not started"
        m = self.moves_in_game
        return f"game {n} of {self.rules.games}, {m} move{'s' if m != 1 else ''}"

    def prompt(self) -> Prompt:
        phase = self.phase
        g = self.game_number
        if phase == "players":
            return Prompt(phase, "Players in seat order (clockwise), separated by commas", hint="? · q")
        if phase == "removed":
            k = LAYOUTS[len(self.players)].removed
            what = "Colour removed" if k == 1 else f"The {k} colours removed"
            return Prompt(phase, f"Game {g}: {what} from the game", hint="u · ? · q")
        if phase == "starting":
            seat = self._steps[len(self._answers)][1]
            k = LAYOUTS[len(self.players)].starting
            what = "starting card" if k == 1 else f"{k} starting cards"
            return Prompt(phase, f"Game {g}: {self.players[seat]}'s {what}", self.players[seat], "u · ? · q")
        if phase == "first":
            return Prompt(phase, f"Game {g}: who starts? (name or seat 1-{len(self.players)})", hint="u · ? · q")
        if phase in ("move", "extra"):
            state = self._states[-1][-1]
            who = self.players[state.current]
            mark = " [last-round card out]" if self._lr_mark else ""
            if phase == "extra":
                return Prompt(
                    phase,
                    f"{who} takes row {self._extra_row} with the golden joker: the card from the deck{mark}",
                    who,
                    "CARD · l · u · ? · q",
                )
            return Prompt(phase, f"{who}'s move{mark}", who, MOVE_HINT)
        if phase == "claim":
            seat = len(self._claims)
            who = self.players[seat]
            return Prompt(phase, f"Game {g}: {who}'s written score (Enter to skip)", who, "NUMBER · Enter · u · q")
        return Prompt(phase, "The match is complete")

    # ----------------------------------------------------------------- input

    def feed(self, line: str) -> Reply:
        """Take one line of input at the current prompt."""
        if any("\ud800" <= c <= "\udfff" for c in line):
            return Reply((Refused("the line is not valid UTF-8 text"),))
        try:
            if self.phase == "players":
                return self._feed_players(line)
            if self.phase in ("removed", "starting", "first"):
                return self._feed_setup(line)
            if self.phase == "move":
                return self._feed_move(line)
            if self.phase == "extra":
                return self._feed_extra(line)
            if self.phase == "claim":
                return self._feed_claim(line)
        except InputError as e:
            return Reply((Refused(e.message, e.rule),))
        return Reply(stop=True)

    def _common(self, line: str) -> tuple[str, Reply | None]:
        """Blank lines, comments, ``?`` and ``q``, the same at every prompt."""
        text = line.strip()
        word = text.lower()
        if not text or text.startswith("#"):
            return text, Reply()
        if _SIMPLE.get(word) == "help":
            return text, Reply((Help(self.help_text()),))
        if _SIMPLE.get(word) == "quit":
            return text, Reply(stop=True)
        return text, None

    def _feed_players(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        self._set_players(parse_players(text))
        return Reply((Note(f"Players: {', '.join(self.players)}"),), changed=True)

    # setup ------------------------------------------------------------------

    def _start_setup(self) -> None:
        n = len(self.players)
        layout = LAYOUTS[n]
        self._steps = ([("removed", -1)] if layout.removed else []) + [("starting", s) for s in range(n)] + [("first", -1)]
        self._answers = []
        self._lr_mark = False
        self.phase = self._steps[0][0]

    def _feed_setup(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        if _SIMPLE.get(text.lower()) == "undo":
            if self._answers:
                self._answers.pop()
                self.phase = self._steps[len(self._answers)][0]
                return Reply((Note("Undone: back one question"),))
            if self._states:
                return self._undo_into_previous_game()
            raise InputError("nothing to undo")
        step, seat = self._steps[len(self._answers)]
        edition = self.rules.edition
        layout = LAYOUTS[len(self.players)]
        try:
            if step == "removed":
                colours = parse_colours(text)
                check_removed(colours, edition, len(self.players))
                answer: Any = tuple(c for c in edition.colours if c in colours)
            elif step == "starting":
                colours = parse_colours(text)
                removed = self._answers[0] if layout.removed else ()
                given = {c for a, (s, _) in zip(self._answers, self._steps) if s == "starting" for c in a}
                check_starting_cards(self.players[seat], colours, edition, removed, given, len(self.players))
                answer = tuple(colours)
            else:
                answer = self._parse_first(text)
        except SetupError as e:
            raise InputError(e.message, e.rule) from None
        self._answers.append(answer)
        if len(self._answers) < len(self._steps):
            self.phase = self._steps[len(self._answers)][0]
            return Reply()
        return self._begin_game()

    def _parse_first(self, text: str) -> int:
        players = self.players
        if text in players:
            return players.index(text)
        folded = [p.casefold() for p in players]
        if text.casefold() in folded:
            return folded.index(text.casefold())
        if text.isdigit() and 1 <= int(text) <= len(players):
            return int(text) - 1
        starts = [i for i, p in enumerate(folded) if p.startswith(text.casefold())]
        if len(starts) == 1:
            return starts[0]
        raise InputError(f'"{text}" is not a player: {", ".join(players)} (or a seat 1-{len(players)})', "bad-first")

    def _begin_game(self) -> Reply:
        layout = LAYOUTS[len(self.players)]
        answers = list(self._answers)
        removed: tuple[str, ...] = answers.pop(0) if layout.removed else ()
        first: int = answers.pop()
        starting = tuple(answers)
        setup = Setup(removed, starting, first, None)
        assert self.data is not None
        self.data["games"].append({"setup": setup_json(setup, self.players, explicit=True), "moves": []})
        self._setups.append(setup)
        self._states.append(
            [engine.new_game(self.rules, len(self.players), removed=removed, starting=starting, first=first)]
        )
        self._moves.append([])
        self.phase = "move"
        self._lr_mark = False
        g = len(self.data["games"])
        return Reply((Note(f"Game {g} set up: {self.players[first]} starts"),), changed=True)

    # moves --------------------------------------------------------------------

    def _feed_move(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        command = parse_command(text)
        if command is None:
            return Reply()
        state = self._states[-1][-1]
        if isinstance(command, Simple):
            if command.name == "undo":
                return self._undo()
            if command.name == "last_round":
                return self._mark_last_round(state)
            raise AssertionError(command)  # help and quit were handled by _common
        lr = command.last_round or self._lr_mark
        seat = state.current
        if isinstance(command, DrawCommand):
            return self._try(Draw(seat, command.row, command.card, True if lr else None))
        move = Take(seat, command.row, command.extra, True if lr else None)
        if command.extra is None:
            violation = engine.check(state, move)
            if violation is not None and violation.rule == "missing-extra":
                self._extra_row = command.row
                self._lr_mark = lr
                self.phase = "extra"
                return Reply()
        return self._try(move)

    def _mark_last_round(self, state: GameState) -> Reply:
        if not state.lr_pending:
            raise InputError("the last-round card has already come out in this game", "impossible-card")
        if state.turned + 1 >= state.total:
            raise InputError("no card is left after the last-round card", "deck-empty")
        self._lr_mark = True
        return Reply((Note("Last-round card noted: now name the card turned over after it (u clears the mark)"),))

    def _feed_extra(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        words = text.replace(",", " ").lower().split()
        state = self._states[-1][-1]
        assert self._extra_row is not None
        if _SIMPLE.get(words[0]) == "undo" and len(words) == 1:
            row = self._extra_row
            self._extra_row = None
            self._lr_mark = False
            self.phase = "move"
            return Reply((Note(f"Undone: the take of row {row} is not recorded"),))
        lr = self._lr_mark
        if _SIMPLE.get(words[0]) == "last_round":
            if len(words) == 1:
                return self._mark_last_round(state)
            lr = True
            words = words[1:]
        if len(words) != 1:
            raise InputError("name the one card turned over from the deck, e.g. r (red); l first for the last-round card")
        card = parse_card(words[0])
        return self._try(Take(state.current, self._extra_row, card, True if lr else None))

    def _try(self, move: Move) -> Reply:
        state = self._states[-1][-1]
        violation = engine.check(state, move)
        if violation is not None:
            return Reply((Refused(violation.message, violation.rule),))
        resolved = engine.resolve(state, move)
        after = engine.apply(state, resolved)
        self._states[-1].append(after)
        self._moves[-1].append(resolved)
        assert self.data is not None
        self.data["games"][-1]["moves"].append(move_json(resolved, self.players, cards=True))
        self._lr_mark = False
        self._extra_row = None
        self.phase = "move"
        events: list[Event] = [Note(describe(resolved, self.players, state))]
        if after.over:
            events.extend(self._end_game())
        return Reply(tuple(events), changed=True)

    def _undo(self) -> Reply:
        if self._lr_mark:
            self._lr_mark = False
            return Reply((Note("Undone: the last-round mark"),))
        assert self.data is not None
        game = self.data["games"][-1]
        if game["moves"]:
            move = self._moves[-1].pop()
            self._states[-1].pop()
            game["moves"].pop()
            game.pop("claims", None)
            return Reply((Note(f"Undone: {describe(move, self.players, self._states[-1][-1])}"),), changed=True)
        # No move yet: take back the setup's last answer (who starts).
        setup = self._setups.pop()
        self._states.pop()
        self._moves.pop()
        self.data["games"].pop()
        self._start_setup()
        answers: list[Any] = [setup.removed] if LAYOUTS[len(self.players)].removed else []
        answers.extend(setup.starting)
        self._answers = answers
        self.phase = "first"
        return Reply((Note("Undone: the game's setup is open again"),), changed=True)

    def _undo_into_previous_game(self) -> Reply:
        assert self.data is not None
        game = self.data["games"][-1]
        dropped = "claims" in game
        self.phase = "move"
        self._claims = []
        reply = self._undo()
        events = reply.events
        if dropped:
            events += (Note("The claims of that game are dropped; they are asked again when it ends"),)
        return Reply(events, changed=True)

    # end of a game -----------------------------------------------------------

    def _game_over(self) -> GameOver:
        """The game just ended: every player's optimal score, and the match so far."""
        state = self._states[-1][-1]
        scores = tuple(optimal_for(state, seat) for seat in range(state.players))
        return GameOver(len(self._states), self.players, scores, self.standings())

    def _end_game(self) -> list[Event]:
        events: list[Event] = [self._game_over()]
        self._start_claims()
        return events

    def _start_claims(self) -> None:
        self._claims = []
        self.phase = "claim"

    def _feed_claim(self, line: str) -> Reply:
        text = line.strip()
        word = text.lower()
        if _SIMPLE.get(word) == "help":
            return Reply((Help(self.help_text()),))
        if _SIMPLE.get(word) == "quit":
            return Reply(stop=True)
        if _SIMPLE.get(word) == "undo":
            if self._claims:
                self._claims.pop()
                return Reply((Note("Undone: back one score"),))
            self.phase = "move"
            return self._undo()
        if text in ("", "-"):
            self._claims.append(None)
        else:
            if not re.fullmatch(r"[+-]?[0-9]{1,5}", text) or abs(int(text)) > 10_000:
                raise InputError(f'"{text}" is not a score: type the whole number written down, or Enter to skip', "bad-value")
            self._claims.append(int(text))
        if len(self._claims) < len(self.players):
            return Reply()
        return self._finish_claims()

    def _finish_claims(self) -> Reply:
        assert self.data is not None
        given = {self.players[s]: v for s, v in enumerate(self._claims) if v is not None}
        events: list[Event] = []
        changed = False
        if given:
            self.data["games"][-1]["claims"] = {name: {"score": v} for name, v in given.items()}
            changed = True
            state = self._states[-1][-1]
            models = {name: Claim(score=v) for name, v in given.items()}
            found = tuple(v for v in verdicts(state, models, self.players) if v.claim is not None)
            events.append(ClaimVerdicts(len(self._states), found))
        self._claims = []
        if len(self.data["games"]) < self.rules.games:
            self._start_setup()
            events.append(GameStart(len(self.data["games"]) + 1, self.rules.games))
            return Reply(tuple(events), changed=changed)
        self.phase = "done"
        events.append(MatchOver(self.standings()))
        return Reply(tuple(events), changed=changed, stop=True)

    # help ----------------------------------------------------------------------

    def help_text(self) -> str:
        edition = self.rules.edition
        names = ", ".join(f"{SHORT_NAMES[c]} = {c}" for c in edition.card_names())
        return "\n".join(
            [
                "Commands at the move prompt:",
                "  d CARD ROW   drew CARD and put it in row ROW      (d red 2, d r 2)",
                "  t ROW        took row ROW                          (t 3)",
                "  t ROW CARD   took row ROW holding the golden joker, and CARD from the deck",
                "  l            the last-round card came out: type l, then the draw of the card after it",
                "               (or in one line: l d red 2; with the golden joker: t 3 l red)",
                "  u            undo the last move (or the last answer, or the l mark)",
                "  ?            this help",
                "  q            save and stop; run the same command again to resume",
                f"Cards ({edition.name} edition): {names}.",
                "Full names work too. Rows are numbered from 1 and keep their numbers for the whole round.",
                "The log is saved after every move; Ctrl-C also saves and stops.",
            ]
        )


# --------------------------------------------------------------------------- the file


class LockedError(ColorettoLogError):
    """Another recorder holds the file."""


class LogFile:
    """The log being recorded: a lock beside it, stray temporary files removed, atomic saves.

    The lock is ``fcntl.flock`` on ``.NAME.lock`` in the same folder (advisory:
    it keeps a second ``record`` out, not other programs). Saves go through
    ``files.atomic_write_text``: a temporary ``.NAME.tmp-PID`` in the same
    folder, fsync, rename; a crash between the two leaves that temporary
    file, which the next ``lock()`` removes.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(f".{self.path.name}.lock")
        self._fd: int | None = None
        self._saved: str | None = None

    def lock(self) -> list[Path]:
        """Take the lock, then remove stray temporary files; returns the files removed."""
        for _ in range(10):
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise UnreadableFileError(f"{self.lock_path}: cannot create the lock file: {e.strerror}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                holder = _read_pid(fd)
                os.close(fd)
                if e.errno in (errno.EWOULDBLOCK, errno.EACCES):
                    who = f" (process {holder})" if holder else ""
                    raise LockedError(f"{self.path} is being recorded by another recorder{who}; close that one first") from None
                raise UnreadableFileError(f"{self.lock_path}: cannot lock: {e.strerror}") from None
            # The holder before us may have removed the lock file just before we locked it.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self._fd = fd
                return self._clean_strays()
            os.close(fd)
        raise LockedError(f"{self.path}: could not take the lock {self.lock_path}")  # pragma: no cover

    def _clean_strays(self) -> list[Path]:
        pattern = re.compile(re.escape(f".{self.path.name}.tmp-") + r"[0-9]+")
        removed = []
        folder = self.path.parent
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return []
        for entry in entries:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                try:
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
                except OSError:
                    pass
        return removed

    def release(self) -> None:
        """Remove the lock file and release the lock (in that order, see ``lock``)."""
        if self._fd is None:
            return
        try:
            os.unlink(self.lock_path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def read(self) -> Any | None:
        """The parsed log, or ``None`` when the file does not exist yet (or is empty: ``touch`` made it)."""
        if not self.path.exists() and not self.path.is_symlink():
            return None
        raw = read_bytes(self.path)
        if not raw:
            return None
        try:
            data = parse_json(decode(raw))
        except ValueError as e:
            raise ResumeError(f"not a readable log: {e}") from None
        self._saved = dumps_pretty(data)
        return data

    def save(self, data: dict[str, Any]) -> bool:
        """Write ``data`` atomically if it differs from what was last saved."""
        text = dumps_pretty(data)
        if text == self._saved:
            return False
        try:
            atomic_write_text(self.path, text)
        except OSError as e:
            raise UnreadableFileError(f"{self.path}: cannot save: {e.strerror}") from None
        self._saved = text
        return True


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
