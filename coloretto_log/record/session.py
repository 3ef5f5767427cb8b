"""The recording session: a state machine over the engine, fed one typed line at a time.

``Recorder.feed`` takes a line at the current prompt (``Recorder.phase``, a
``Phase``) and answers with a ``Reply``: the events to show, whether the log
changed (so must be saved) and whether the session stops. It does no I/O: it
holds the match as log JSON (``data``) and the engine states of every game.

``u`` steps back one answer in every phase, all in ``Recorder._undo``: in
``MOVE`` it undoes the last move (or, before the first move, the answer to
"who starts"); at the first prompt of a setup or of the claims it undoes the
last move of the game before.

Two questions interrupt the usual ones. ``GAMES`` (how many games) follows
the names when they are asked; ``games N`` changes the number at any prompt
until the first game ends. ``CONFIRM`` asks before recording the last-round
card away from its place in the deck (where ``validate`` would warn
``last-round-position``); ``y`` records it, ``n`` or ``u`` does not.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from ..core import engine
from ..core.cards import KIND_INDEX
from ..core.claims import optimal_for, verdicts
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import ColorettoLogError
from ..core.ruleset import LAYOUTS, RuleSet
from ..core.setup import Setup
from ..lang import ENGLISH, N_, Translator
from ..lang.games import edition_word
from ..log.models import Claim
from ..log.replay import SetupError, check_match, check_removed, check_starting_cards
from ..log.writer import match_json, move_json, setup_json
from .commands import (
    SHORT_NAMES,
    DrawCommand,
    InputError,
    Simple,
    parse_card,
    parse_colours,
    parse_command,
    parse_players,
    simple_word,
)
from .events import (
    Caution,
    ClaimVerdicts,
    Event,
    GameOver,
    GameStart,
    Help,
    MatchOver,
    Note,
    Prompt,
    Refused,
    Reply,
    Standing,
    card_word,
    describe,
    round_end,
    standings,
)
from .phase import Phase
from .refusals import move_refusal, setup_refusal


class ResumeError(ColorettoLogError):
    """An existing log that cannot be recorded into (it has an error, or it is seeded)."""


#: The move prompt's hint: the typed letters stay, CARD and ROW are words in the table's language.
MOVE_HINT = N_("d CARD ROW · t ROW · l · u · ? · q")
#: The hint after a take with the golden joker (the card taken from the deck is typed next).
EXTRA_HINT = N_("CARD · l · u · ? · q")
#: The most games a match may have.
MAX_GAMES = 100
_GAMES = re.compile(r"games\s+([0-9]+)", re.IGNORECASE)


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
        event: dict[str, Any] | None = None,
        ask_games: bool = False,
        confirm_last_round: bool = True,
        tr: Translator = ENGLISH,
    ) -> None:
        """``event``: the log's event object (docs/format.md §1), when the match is played at one.
        ``ask_games``: ask how many games after the names (when they are asked; default ``rules.games``).
        ``confirm_last_round``: ask before recording a misplaced last-round card (else only warn)."""
        self.rules = rules
        self.tr = tr  # the language of prompts, help and messages (the log is the same in every language)
        self.players: tuple[str, ...] = ()
        self.data: dict[str, Any] | None = None
        self._match_id = match_id
        self._date = date
        self._event = event  # the log's event object (docs/format.md §1), or None
        self._states: list[list[GameState]] = []  # per game: the state before each move, and the current one
        self._moves: list[list[Move]] = []  # per game: resolved moves
        self._setups: list[Setup] = []
        self.phase = Phase.PLAYERS
        self._steps: list[tuple[Phase, int]] = []  # the setup's questions: (phase, seat or -1)
        self._answers: list[Any] = []  # the setup's answers so far
        self._claims: list[int | None] = []  # the written scores so far, by seat
        self._lr_mark = False
        self._extra_row: int | None = None
        self._ask_games = ask_games
        self._confirm = confirm_last_round
        self._pending: tuple[Phase, str, Caution] | None = None  # CONFIRM: the phase, the line waiting, why
        self._lr_confirmed = False  # the line being fed again after a yes: ask no more
        if players is not None:
            self._set_players(tuple(players))

    # ----------------------------------------------------------------- construction

    @classmethod
    def resume(cls, data: Any, *, confirm_last_round: bool = True, tr: Translator = ENGLISH) -> Recorder:
        """Continue an existing log; ``ResumeError`` when it cannot be."""
        report = check_match(data)
        errors = [f for f in report.all_findings() if f.severity == "error"]
        if errors:
            raise ResumeError(f"the log has an error, so it cannot be resumed: {errors[0].line('').lstrip(': ')}")
        assert isinstance(data, dict) and report.match is not None and report.rules is not None
        if report.match.seed is not None or any(record.seeded for record in report.games):
            raise ResumeError("the log is seeded: record continues only games played with real cards")
        rec = cls(rules=report.rules, confirm_last_round=confirm_last_round, tr=tr)
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
            rec.phase = Phase.MOVE
        elif "claims" not in games[-1]:
            rec._start_claims()
        elif len(games) < rec.rules.games:
            rec._start_setup()
        else:
            rec.phase = Phase.DONE
        return rec

    def opening_events(self) -> tuple[Event, ...]:
        """What to show when a session resumes at the end of a game or of the match."""
        if self.phase is Phase.CLAIM:
            return (self._game_over(),)
        if self.phase is Phase.DONE:
            return (MatchOver(self.standings()),)
        return ()

    def _set_players(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.data = match_json(
            rules=self.rules, players=players, games=[], match_id=self._match_id, date=self._date, event=self._event
        )
        self._start_setup()

    # ----------------------------------------------------------------- views

    @property
    def game_number(self) -> int:
        """The game being set up, played or scored (from 1); 0 before the players are known."""
        if self.data is None:
            return 0
        n = len(self.data["games"])
        return n + 1 if self.phase.in_setup else n

    @property
    def state(self) -> GameState | None:
        """The current game's state (in ``MOVE``, ``EXTRA`` and ``CLAIM``)."""
        if (self.phase.in_play or self.phase is Phase.CLAIM) and self._states:
            return self._states[-1][-1]
        return None

    @property
    def complete(self) -> bool:
        """The match is complete: nothing more to record."""
        return self.phase is Phase.DONE

    @property
    def last_round_mark(self) -> bool:
        """``l`` was typed: the next card turned over comes after the last-round card."""
        return self._lr_mark

    @property
    def extra_row(self) -> int | None:
        """In ``EXTRA``: the row being taken with the golden joker (from 1)."""
        return self._extra_row

    @property
    def claims_entered(self) -> int:
        """In ``CLAIM``: how many written scores are given (or skipped) so far."""
        return len(self._claims)

    @property
    def confirming(self) -> Caution | None:
        """In ``CONFIRM``: what the last-round card's place is asked about."""
        return self._pending[2] if self._pending is not None and self.phase is Phase.CONFIRM else None

    @property
    def games_changeable(self) -> bool:
        """``games N`` is taken: no game has been finished yet."""
        return self.phase is not Phase.DONE and not any(states[-1].over for states in self._states)

    def offer(self) -> tuple[str, ...]:
        """The cards a tap may name at this prompt (the rules allow them), in edition order; () elsewhere.

        The removed colours, a colour already given as a starting card and a
        card of which every copy is out are left out; so is every card when
        each row left is full (the player must take one).
        """
        edition = self.rules.edition
        layout = LAYOUTS[len(self.players)] if self.players else None
        if self.phase is Phase.REMOVED:
            return edition.colours
        if self.phase is Phase.STARTING and layout is not None:
            removed = self._answers[0] if layout.removed else ()
            given = {c for a, (p, _) in zip(self._answers, self._steps) if p is Phase.STARTING for c in a}
            return tuple(c for c in edition.colours if c not in removed and c not in given)
        if self.phase in (Phase.MOVE, Phase.EXTRA):
            state = self._states[-1][-1]
            if self.phase is Phase.MOVE and all(
                taken or len(row) >= limit for row, taken, limit in zip(state.rows, state.taken, state.limits)
            ):
                return ()
            return tuple(c for c in edition.card_names() if state.remaining[KIND_INDEX[c]] > 0)
        return ()

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
        tr = self.tr
        if self.data is None:
            return tr.gettext("no players yet")
        n = len(self.data["games"])
        if self.phase is Phase.DONE:
            return tr.nt("the match is complete ({n} game)", "the match is complete ({n} games)", n)
        if n == 0 or self.phase.in_setup:
            return tr.t("game {game} of {games} not started, {done} complete", game=n + 1, games=self.rules.games, done=n)
        m = self.moves_in_game
        return tr.nt("game {game} of {games}, {n} move", "game {game} of {games}, {n} moves", m, game=n, games=self.rules.games)

    def prompt(self) -> Prompt:
        phase = self.phase
        tr = self.tr
        g = self.game_number
        of = tr.t("Game {game} of {games}", game=g, games=self.rules.games)
        if phase is Phase.PLAYERS:
            return Prompt(phase, tr.gettext("Players in seat order (clockwise)"), hint="? · q",
                          typed=tr.gettext("separated by commas"))  # fmt: skip
        if phase is Phase.GAMES:
            return Prompt(phase, tr.gettext("How many games in the match?"), hint="NUMBER · Enter · ? · q",
                          typed=tr.t("Enter for {games}", games=self.rules.games))  # fmt: skip
        if phase is Phase.REMOVED:
            k = LAYOUTS[len(self.players)].removed
            what = tr.nt("{of}: Colour removed from the game", "{of}: The {n} colours removed from the game", k, of=of)
            return Prompt(phase, what, hint="u · ? · q")
        if phase is Phase.STARTING:
            seat = self._steps[len(self._answers)][1]
            k = LAYOUTS[len(self.players)].starting
            who = self.players[seat]
            what = tr.nt("{of}: {who}'s starting card", "{of}: {who}'s {n} starting cards", k, of=of, who=who)
            return Prompt(phase, what, who, "u · ? · q")
        if phase is Phase.FIRST:
            return Prompt(phase, tr.t("{of}: who starts?", of=of), hint="u · ? · q",
                          typed=tr.t("name or seat 1-{last}", last=len(self.players)))  # fmt: skip
        if phase is Phase.CONFIRM:
            who = self.players[self._states[-1][-1].current]
            return Prompt(phase, tr.gettext("Record the last-round card here all the same?"), who, "y · n")
        if phase.in_play:
            state = self._states[-1][-1]
            who = self.players[state.current]
            mark = tr.gettext(" [last-round card out]") if self._lr_mark else ""
            if phase is Phase.EXTRA:
                return Prompt(
                    phase,
                    tr.t("{who} takes row {row} with the golden joker: the card from the deck", who=who, row=self._extra_row) + mark,
                    who,
                    tr.gettext(EXTRA_HINT),
                )
            return Prompt(phase, tr.t("{who}'s move", who=who) + mark, who, tr.gettext(MOVE_HINT))
        if phase is Phase.CLAIM:
            seat = len(self._claims)
            who = self.players[seat]
            return Prompt(phase, tr.t("{of}: {who}'s written score", of=of, who=who), who, "NUMBER · Enter · u · q",
                          typed=tr.gettext("Enter to skip"))  # fmt: skip
        return Prompt(phase, tr.gettext("The match is complete"))

    # ----------------------------------------------------------------- input

    def feed(self, line: str) -> Reply:
        """Take one line of input at the current prompt."""
        if any("\ud800" <= c <= "\udfff" for c in line):
            return Reply((Refused(self.tr.gettext("the line is not valid UTF-8 text"), said=True),))
        feeders: dict[Phase, Callable[[str], Reply]] = {
            Phase.PLAYERS: self._feed_players,
            Phase.GAMES: self._feed_games,
            Phase.REMOVED: self._feed_setup,
            Phase.STARTING: self._feed_setup,
            Phase.FIRST: self._feed_setup,
            Phase.MOVE: self._feed_move,
            Phase.EXTRA: self._feed_extra,
            Phase.CONFIRM: self._feed_confirm,
            Phase.CLAIM: self._feed_claim,
        }
        feeder = feeders.get(self.phase)
        if feeder is None:
            return Reply(stop=True)
        try:
            return feeder(line)
        except InputError as e:
            return Reply((Refused(e.message, e.rule, said=True),))

    def _common(self, line: str) -> tuple[str, Reply | None]:
        """Blank lines, comments, ``?`` and ``q``, the same at every prompt but the claims'."""
        text = line.strip()
        word = text.lower()
        if not text or text.startswith("#"):
            return text, Reply()
        if simple_word(word) == "help":
            return text, Reply((Help(self.help_text()),))
        if simple_word(word) == "quit":
            return text, Reply(stop=True)
        games = _GAMES.fullmatch(text)
        if games is not None:
            return text, Reply((self.set_games(int(games.group(1))),), changed=self.data is not None)
        return text, None

    def _feed_players(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        self._set_players(parse_players(text, self.tr))
        if self._ask_games:
            self.phase = Phase.GAMES
        return Reply((Note(self.tr.t("Players: {names}", names=", ".join(self.players))),), changed=True)

    # the number of games ---------------------------------------------------------

    def set_games(self, games: int) -> Note:
        """Make the match ``games`` games long; ``InputError`` once a game has been finished."""
        tr = self.tr
        if not 1 <= games <= MAX_GAMES:
            raise InputError(tr.t("a match has 1 to {most} games, not {games}", most=MAX_GAMES, games=games), "bad-value")
        if games != self.rules.games and not self.games_changeable:
            finished = sum(1 for states in self._states if states[-1].over)
            raise InputError(tr.t("the match stays {games} games: the number of games can change only "
                             "before the first game ends ({finished} finished)", games=self.rules.games, finished=finished))  # fmt: skip
        self.rules = dataclasses.replace(self.rules, games=games)
        if self.data is not None:
            self.data["rules"]["games"] = games
        return Note(tr.nt("The match is {n} game", "The match is {n} games", games))

    def _feed_games(self, line: str) -> Reply:
        text = line.strip()
        if text and not _GAMES.fullmatch(text):
            text, reply = self._common(line)
            if reply is not None:
                return reply
            if simple_word(text.lower()) == "undo":
                raise InputError(self.tr.gettext("nothing to undo: the names stay (q, and a new file, to start again)"))
            if not re.fullmatch(r"[0-9]{1,3}", text):
                raise InputError(self.tr.t('"{text}" is not a number of games: type 1 to {most}, or Enter for {games}',
                                      text=text, most=MAX_GAMES, games=self.rules.games), "bad-value")  # fmt: skip
        found = _GAMES.fullmatch(text)
        note = self.set_games(int(found.group(1)) if found else int(text) if text else self.rules.games)
        self._start_setup()
        return Reply((note,), changed=True)

    # undo ----------------------------------------------------------------------

    def _undo(self) -> Reply:
        """``u``: step back one answer, whatever the phase. The one place that undoes."""
        phase = self.phase
        if phase is Phase.EXTRA:
            row = self._extra_row
            self._extra_row = None
            self._lr_mark = False
            self.phase = Phase.MOVE
            return Reply((Note(self.tr.t("Undone: the take of row {row} is not recorded", row=row)),))
        if phase is Phase.CLAIM and self._claims:
            self._claims.pop()
            return Reply((Note(self.tr.gettext("Undone: back one score")),))
        if phase.in_setup:
            if self._answers:
                self._answers.pop()
                self.phase = self._steps[len(self._answers)][0]
                return Reply((Note(self.tr.gettext("Undone: back one question")),))
            if not self._states:
                raise InputError(self.tr.gettext("nothing to undo"))
        if self._lr_mark:
            self._lr_mark = False
            return Reply((Note(self.tr.gettext("Undone: the last-round mark")),))
        assert self.data is not None
        game = self.data["games"][-1]
        self._claims = []
        self.phase = Phase.MOVE
        if game["moves"]:
            move = self._moves[-1].pop()
            self._states[-1].pop()
            game["moves"].pop()
            events: tuple[Event, ...] = (
                Note(self.tr.t("Undone: {move}", move=describe(move, self.players, self._states[-1][-1], self.tr))),
            )
            if game.pop("claims", None) is not None:
                events += (Note(self.tr.gettext("The claims of that game are dropped; they are asked again when it ends")),)
            return Reply(events, changed=True)
        # No move yet: take back the setup's last answer (who starts).
        setup = self._setups.pop()
        self._states.pop()
        self._moves.pop()
        self.data["games"].pop()
        self._start_setup()
        answers: list[Any] = [setup.removed] if LAYOUTS[len(self.players)].removed else []
        answers.extend(setup.starting)
        self._answers = answers
        self.phase = Phase.FIRST
        return Reply((Note(self.tr.gettext("Undone: the game's setup is open again")),), changed=True)

    # setup ------------------------------------------------------------------

    def _start_setup(self) -> None:
        n = len(self.players)
        layout = LAYOUTS[n]
        self._steps = (
            ([(Phase.REMOVED, -1)] if layout.removed else [])
            + [(Phase.STARTING, s) for s in range(n)]
            + [(Phase.FIRST, -1)]
        )
        self._answers = []
        self._lr_mark = False
        self._pending = None
        self.phase = self._steps[0][0]

    def _feed_setup(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        if simple_word(text.lower()) == "undo":
            return self._undo()
        step, seat = self._steps[len(self._answers)]
        edition = self.rules.edition
        layout = LAYOUTS[len(self.players)]
        try:
            removed: tuple[str, ...] = ()
            given: set[str] = set()
            colours: list[str] = []
            if step is Phase.REMOVED:
                colours = parse_colours(text, self.tr)
                check_removed(colours, edition, len(self.players))
                answer: Any = tuple(c for c in edition.colours if c in colours)
            elif step is Phase.STARTING:
                colours = parse_colours(text, self.tr)
                removed = self._answers[0] if layout.removed else ()
                given = {c for a, (s, _) in zip(self._answers, self._steps) if s is Phase.STARTING for c in a}
                check_starting_cards(self.players[seat], colours, edition, removed, set(given), len(self.players))
                answer = tuple(colours)
            else:
                answer = self._parse_first(text)
        except SetupError as e:
            who = self.players[seat] if step is Phase.STARTING else None
            return Reply((setup_refusal(e.rule, e.message, colours=colours, edition=edition, players=len(self.players),
                                        who=who, removed=removed, given=given, tr=self.tr),))  # fmt: skip
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
        raise InputError(self.tr.t('"{text}" is not a player: {names} (or a seat 1-{last})', text=text,
                              names=", ".join(players), last=len(players)), "bad-first")  # fmt: skip

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
        self.phase = Phase.MOVE
        self._lr_mark = False
        g = len(self.data["games"])
        return Reply((Note(self.tr.t("Game {game} set up: {who} starts", game=g, who=self.players[first])),), changed=True)

    # moves --------------------------------------------------------------------

    def _feed_move(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        command = parse_command(text, self.tr)
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
        move: Move
        if isinstance(command, DrawCommand):
            move = Draw(seat, command.row, command.card, True if lr else None)
        else:
            move = Take(seat, command.row, command.extra, True if lr else None)
        violation = engine.check(state, move)
        if violation is not None and not (isinstance(move, Take) and violation.rule == "missing-extra"):
            return Reply((move_refusal(violation, state, move, self.players, self.tr),))
        caution = self._misplaced(state) if command.last_round and not self._lr_mark else None
        if caution is not None and self._confirm:
            return self._ask_confirm(text, caution)
        if violation is not None:  # missing-extra: the golden joker's take; ask the card from the deck
            self._extra_row = command.row
            self._lr_mark = lr
            self.phase = Phase.EXTRA
            return _with(caution, Reply())
        return _with(caution, self._try(move))

    def _misplaced(self, state: GameState) -> Caution | None:
        """The last-round card turned over now, away from its place in the deck: the warning validate gives."""
        if self._lr_confirmed or state.turned == state.lr_expected_at:
            return None
        tr = self.tr
        due = state.lr_expected_at - state.turned
        if due > 0:
            when = tr.nt("{n} card is still to turn over before it", "{n} cards are still to turn over before it", due)
        else:
            when = tr.nt("it was due {n} card ago", "it was due {n} cards ago", -due)
        return Caution(
            tr.t("the last-round card belongs at card {place} of the deck, with {under} cards under it: {when} "
                 "(this would be card {card})", place=state.lr_expected_at + 1, under=state.rules.under, when=when,
                 card=state.turned + 1),
            "last-round-position",
        )  # fmt: skip

    def _ask_confirm(self, line: str, caution: Caution) -> Reply:
        self._pending = (self.phase, line, caution)
        self.phase = Phase.CONFIRM
        return Reply((caution,))

    def _feed_confirm(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        assert self._pending is not None
        phase, pending, _ = self._pending
        word = text.lower()
        if word in ("y", "yes"):
            self._pending = None
            self.phase = phase
            self._lr_confirmed = True
            try:
                return self.feed(pending)
            finally:
                self._lr_confirmed = False
        if word in ("n", "no") or simple_word(word) == "undo":
            self._pending = None
            self.phase = phase
            tr = self.tr
            what = tr.gettext("the last-round card is not marked") if pending.strip().lower() in ("l", "lr", "last") else pending
            return Reply((Note(tr.t("Not recorded: {what}", what=what)),))
        raise InputError(self.tr.gettext("y records the last-round card here; n (or u) does not"))

    def _mark_last_round(self, state: GameState) -> Reply:
        if not state.lr_pending:
            raise InputError(self.tr.gettext("the last-round card has already come out in this game"), "impossible-card")
        if state.turned + 1 >= state.total:
            raise InputError(self.tr.gettext("no card is left after the last-round card"), "deck-empty")
        if self._lr_mark:
            return Reply((Note(self.tr.gettext("The last-round card is already noted: name the card turned over after it")),))
        caution = self._misplaced(state)
        if caution is not None and self._confirm:
            return self._ask_confirm("l", caution)
        self._lr_mark = True
        return _with(caution, Reply((Note(self.tr.gettext("Last-round card noted: now name the card turned over after it (u clears the mark)")),)))

    def _feed_extra(self, line: str) -> Reply:
        text, reply = self._common(line)
        if reply is not None:
            return reply
        words = text.replace(",", " ").lower().split()
        state = self._states[-1][-1]
        assert self._extra_row is not None
        if simple_word(words[0]) == "undo" and len(words) == 1:
            return self._undo()
        lr = self._lr_mark
        inline = False
        if simple_word(words[0]) == "last_round":
            if len(words) == 1:
                return self._mark_last_round(state)
            inline = not lr
            lr = True
            words = words[1:]
        if len(words) != 1:
            raise InputError(self.tr.gettext("name the one card turned over from the deck, e.g. r (red); l first for the last-round card"))
        move = Take(state.current, self._extra_row, parse_card(words[0], self.tr), True if lr else None)
        violation = engine.check(state, move)
        if violation is not None:
            return Reply((move_refusal(violation, state, move, self.players, self.tr),))
        caution = self._misplaced(state) if inline else None
        if caution is not None and self._confirm:
            return self._ask_confirm(text, caution)
        return _with(caution, self._try(move))

    def _try(self, move: Move) -> Reply:
        state = self._states[-1][-1]
        violation = engine.check(state, move)
        if violation is not None:
            return Reply((move_refusal(violation, state, move, self.players, self.tr),))
        resolved = engine.resolve(state, move)
        after = engine.apply(state, resolved)
        self._states[-1].append(after)
        self._moves[-1].append(resolved)
        assert self.data is not None
        self.data["games"][-1]["moves"].append(move_json(resolved, self.players, cards=True))
        self._lr_mark = False
        self._extra_row = None
        self.phase = Phase.MOVE
        events: list[Event] = [Note(describe(resolved, self.players, state, self.tr))]
        end = round_end(resolved, state, after, self.tr)
        if end is not None:
            events.append(Note(end))
        if after.over:
            events.extend(self._end_game())
        return Reply(tuple(events), changed=True)

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
        self.phase = Phase.CLAIM

    def _feed_claim(self, line: str) -> Reply:
        text = line.strip()
        word = text.lower()
        if simple_word(word) == "help":
            return Reply((Help(self.help_text()),))
        if simple_word(word) == "quit":
            return Reply(stop=True)
        if simple_word(word) == "undo":
            return self._undo()
        games = _GAMES.fullmatch(text)
        if games is not None:
            return Reply((self.set_games(int(games.group(1))),))
        if text in ("", "-"):
            self._claims.append(None)
        else:
            if not re.fullmatch(r"[+-]?[0-9]{1,5}", text) or abs(int(text)) > 10_000:
                raise InputError(self.tr.t('"{text}" is not a score: type the whole number written down, or Enter to skip',
                                      text=text), "bad-value")  # fmt: skip
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
        self.phase = Phase.DONE
        events.append(MatchOver(self.standings()))
        return Reply(tuple(events), changed=changed, stop=True)

    # help ----------------------------------------------------------------------

    def help_text(self) -> str:
        """The ``?`` help: the typed commands are the same letters in every language; their meaning is translated."""
        tr = self.tr
        edition = self.rules.edition
        names = tr.join(f"{SHORT_NAMES[c]} = {card_word(c, tr)}" for c in edition.card_names())
        commands = [
            (tr.gettext("d CARD ROW"), tr.gettext("drew CARD and put it in row ROW") + "  (d red 2, d r 2)"),
            (tr.gettext("t ROW"), tr.gettext("took row ROW") + "  (t 3)"),
            (tr.gettext("t ROW CARD"), tr.gettext("took row ROW holding the golden joker, and CARD from the deck")),
            ("l", tr.gettext("the last-round card came out: type l, then the draw of the card after it")),
            ("", tr.gettext("(or in one line: l d red 2; with the golden joker: t 3 l red)")),
            ("u", tr.gettext("undo the last move (or the last answer, or the l mark)")),
            ("?", tr.gettext("this help")),
            ("q", tr.gettext("save and stop; run the same command again to resume")),
            (tr.gettext("games N"), tr.t("the match is N games (now {games}); until the first game ends, at any prompt",
                                         games=self.rules.games)),
        ]  # fmt: skip
        width = max(_width(typed) for typed, _ in commands) + 2
        return "\n".join(
            [
                tr.gettext("Commands at the move prompt:"),
                *("  " + typed + " " * (width - _width(typed)) + meaning for typed, meaning in commands),
                tr.t("Cards ({edition}): {names}.", edition=edition_word(edition.name, tr), names=names),
                tr.gettext("Full names work too. Rows are numbered from 1 and keep their numbers for the whole round."),
                tr.gettext("The log is saved after every move; Ctrl-C also saves and stops."),
            ]
        )


def _width(text: str) -> int:
    """How many terminal columns ``text`` takes (a wide character, as in カード or 카드, takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _with(caution: Caution | None, reply: Reply) -> Reply:
    """``reply`` with the warning first, when there is one."""
    if caution is None:
        return reply
    return Reply((caution, *reply.events), reply.changed, reply.stop)
