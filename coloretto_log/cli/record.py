"""``coloretto-log record``: keep the log of a match played with real cards.

The session is ``record.Recorder``; this module reads lines (from a
terminal with prompts and a rich table view, or piped in with neither),
shows the recorder's events, saves after every change and turns Ctrl-C,
SIGTERM and SIGHUP into a save and a one-line message.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..core.cards import SHORT_LABELS
from ..core.editions import edition_choice
from ..core.errors import UnreadableFileError, one_line
from ..core.ruleset import EDITIONS, TABLES, RuleSet
from ..lang import ENGLISH, LANGUAGES, N_, Translator, from_environment, translator
from ..log.limits import MAX_EVENT_NAME, MAX_EVENT_NUMBER
from ..log.logfile import LockedError, LogFile, NotALogError
from ..record import (
    Caution,
    ClaimVerdicts,
    Event,
    GameOver,
    GameStart,
    InputError,
    MatchOver,
    Note,
    Recorder,
    Refused,
    ResumeError,
    parse_players,
)
from ..record.events import card_word, rules_words
from ..record.text import deck_text, event_lines
from ..view.console import TrimmedConsole
from ..view.terminal import CARD_STYLES, cards_text, collection_text
from .app import app
from .common import ExitCode, fail

#: Exit code after a signal: 128 + its number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
SIGNAL_WORDS = {signal.SIGINT: N_("Interrupted"), signal.SIGTERM: N_("Terminated"), signal.SIGHUP: N_("Hung up")}


class _Stop(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _SignalGuard:
    """Signals stop the session, but never in the middle of a change and its save."""

    def __init__(self) -> None:
        self.critical = False
        self.pending: int | None = None
        self._old: dict[int, Any] = {}

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self.critical:
            self.pending = self.pending or signum
            return
        raise _Stop(signum)

    def install(self) -> None:
        for sig in SIGNAL_WORDS:
            self._old[sig] = signal.signal(sig, self._handler)

    def restore(self) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old = {}

    def enter(self) -> None:
        self.critical = True

    def leave(self) -> None:
        self.critical = False
        if self.pending is not None:
            raise _Stop(self.pending)


# --------------------------------------------------------------------------- the two ways to talk


class _Piped:
    """Standard input is not a terminal: lines in, results out, no prompts, no colours."""

    def __init__(self, tr: Translator = ENGLISH) -> None:
        self.tr = tr
        self.line_no = 0
        self.refused = 0
        self._last = ""

    def before_prompt(self, rec: Recorder) -> None:
        pass

    def read(self, rec: Recorder) -> str | None:
        raw = sys.stdin.buffer.readline()
        if not raw:
            return None
        self.line_no += 1
        self._last = raw.decode("utf-8", "replace").rstrip("\r\n")  # to quote it
        return raw.decode("utf-8", "surrogateescape").rstrip("\r\n")  # a bad byte is refused, not a crash

    def show(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if isinstance(event, (Refused, Caution)):
                self.refused += isinstance(event, Refused)
                where = self.tr.t("line {n} ({text})", n=self.line_no, text=self._last.strip())
                typer.echo(one_line(self.tr.t("{where}: {said}", where=where, said=event.line(self.tr))), err=True)
            elif isinstance(event, (Note, GameStart)):
                continue
            else:
                for line in event_lines(event, self.tr):
                    typer.echo(line)

    def message(self, text: str) -> None:
        typer.echo(one_line(text), err=True)

    def note(self, text: str) -> None:
        self.message(text)


class _Terminal:
    """A person at the keyboard: the table, coloured cards, prompts."""

    def __init__(self, tr: Translator = ENGLISH) -> None:
        self.tr = tr
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:  # pragma: no cover - not on every platform
            pass
        self.console = TrimmedConsole(highlight=False)
        self.refused = 0
        self._events: list[Event] = []
        self._mid_line = False  # the cursor is after a prompt: a message first ends that line

    def before_prompt(self, rec: Recorder) -> None:
        if rec.phase.in_play:
            self.console.clear()
            self.console.print(table_view(rec, self.tr))
        for event in self._events:
            self._print(event)
        self._events = []

    def _print(self, event: Event) -> None:
        if isinstance(event, Refused):
            self.console.print(Text(one_line(event.line(self.tr)), style="bold red"), soft_wrap=True)
        elif isinstance(event, Caution):
            self.console.print(Text(one_line(event.line(self.tr)), style="bold yellow"), soft_wrap=True)
        elif isinstance(event, Note):
            self.console.print(Text(one_line(event.text), style="green"), soft_wrap=True)
        elif isinstance(event, (GameOver, MatchOver, ClaimVerdicts, GameStart)):
            lines = event_lines(event, self.tr)
            self.console.print(Text(lines[0], style="bold"))
            for line in lines[1:]:
                self.console.print(Text(line))
        else:
            for line in event_lines(event, self.tr):
                self.console.print(Text(line))

    def read(self, rec: Recorder) -> str | None:
        p = rec.prompt()
        prompt = Text()
        prompt.append(one_line(p.terminal), style="bold")
        if p.hint:
            prompt.append(f"  ({p.hint})", style="dim")
        prompt.append("\n> ")
        while True:
            self._mid_line = True  # until a whole line comes back (Ctrl-C and Ctrl-D leave it open)
            try:
                line = self.console.input(prompt)
            except EOFError:
                return None
            except UnicodeDecodeError:
                refused = self.tr.t("refused: {message}", message=self.tr.gettext("the line is not valid UTF-8 text"))
                self.console.print(Text(refused, style="bold red"))
                continue
            self._mid_line = False
            return line

    def show(self, events: tuple[Event, ...]) -> None:
        self._events.extend(events)
        self.refused += sum(1 for e in events if isinstance(e, Refused))

    def message(self, text: str) -> None:
        if self._mid_line:
            self.console.line()
            self._mid_line = False
        for event in self._events:
            self._print(event)
        self._events = []
        typer.echo(one_line(text), err=True)

    def note(self, text: str) -> None:
        """A line shown under the next screen (a message now would be cleared with the screen)."""
        self._events.append(Note(text))


def table_view(rec: Recorder, tr: Translator = ENGLISH) -> Group:
    """The screen at a turn: rows, who took them, collections with best scores, the deck."""
    state = rec.state
    assert state is not None
    rules = rec.rules
    head = Text(
        tr.t("Game {game} of {games} · round {round} · {rules}", game=rec.game_number, games=rules.games,
             round=state.round, rules=rules_words(rules, tr)),
        style="bold",
    )  # fmt: skip
    deck = deck_text(state, tr)
    rows = Table(box=None, show_header=False, padding=(0, 1))
    rows.add_column("row", style="bold")
    rows.add_column("cards")
    rows.add_column("status", style="dim")
    taken_by = rec.taken_by()
    for i, cards in enumerate(state.rows):
        label = tr.t("Row {row}", row=i + 1)
        if state.taken[i]:
            rows.add_row(label, Text("-", style="dim"), Text(tr.t("taken by {who}", who=one_line(taken_by[i] or "?"))))
        else:
            limit = state.limits[i]
            status = tr.gettext("full") if len(cards) >= limit else f"{len(cards)}/{limit}"
            rows.add_row(label, _cards(cards, tr), status)
    people = Table(box=None, padding=(0, 1))
    people.add_column("")
    people.add_column(tr.gettext("player"), style="bold")
    people.add_column(tr.gettext("collection"))
    people.add_column(tr.gettext("best"), justify="right")
    best = rec.best_scores()
    took = {name: i + 1 for i, name in enumerate(taken_by) if name is not None}
    for seat, name in enumerate(rec.players):
        if seat == state.current and not state.over:
            mark = Text("▶", style="bold green")
        elif name in took:
            mark = Text(tr.t("took {row}", row=took[name]), style="dim")
        else:
            mark = Text("")
        people.add_row(mark, Text(one_line(name)), _collection(state.collections[seat], state.colours, tr), str(best[seat]))
    return Group(head, Text(deck, style="italic"), Text(""), rows, Text(""), people, Text(""))


def _collection(counts: tuple[int, ...], colours: tuple[str, ...], tr: Translator) -> Text:
    """A player's cards as ``collection_text`` shows them, with the colours named in the reader's language."""
    if tr is ENGLISH:
        return collection_text(counts, colours)

    def label(name: str) -> Text:
        word = card_word(name, tr) if name in colours else SHORT_LABELS.get(name, name)
        return Text(f" {word} ", style=CARD_STYLES.get(name, "reverse"))

    return collection_text(counts, colours, label=label, empty=tr.gettext("(nothing yet)"))


def _cards(cards: tuple[str, ...], tr: Translator) -> Text:
    """A row's cards in colour, by name in the reader's language (English: the view's own long names)."""
    if tr is ENGLISH:
        return cards_text(cards, long=True)
    if not cards:
        return Text(tr.gettext("(empty)"), style="dim")
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append(f" {card_word(card, tr)} ", style=CARD_STYLES.get(card, "reverse"))
    return out


# --------------------------------------------------------------------------- the command

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _bad(param: str, message: str) -> typer.BadParameter:
    return typer.BadParameter(one_line(message), param_hint=param)


def _fail(message: str, code: ExitCode) -> NoReturn:
    """``common.fail`` with a file's or a player's name escaped: one line, no control characters."""
    fail(one_line(message), code)


#: ``--event``, ``--round``, ``--at-table``: the log's event object (docs/format.md §1), for record and serve.
EventOption = Annotated[
    str | None,
    typer.Option(metavar="NAME", help="The club night or tournament the match is played at (the log's event.name, "
                 "1 to 100 characters).", show_default=False),
]  # fmt: skip
RoundOption = Annotated[int | None, typer.Option("--round", metavar="N", help="The event's round (1 to 1000; with --event).", show_default=False)]
AtTableOption = Annotated[
    int | None, typer.Option(metavar="N", help="The table within the round or evening (1 to 1000; with --event).", show_default=False)
]


def check_event(name: str | None, round_: int | None, at_table: int | None) -> dict[str, Any] | None:
    """``--event``, ``--round`` and ``--at-table`` as the log's event object (usage errors exit 2), or None."""
    if name is None:
        if round_ is not None or at_table is not None:
            raise _bad("--event", "--round and --at-table need --event (the event's name)")
        return None
    if not 1 <= len(name) <= MAX_EVENT_NAME:
        raise _bad("--event", f"the name must have 1 to {MAX_EVENT_NAME} characters")
    event: dict[str, Any] = {"name": name}
    for option, key, value in (("--round", "round", round_), ("--at-table", "table", at_table)):
        if value is not None:
            if not 1 <= value <= MAX_EVENT_NUMBER:
                raise _bad(option, f"must be 1 to {MAX_EVENT_NUMBER}")
            event[key] = value
    return event


@app.command()
def record(
    file: Annotated[
        Path,
        typer.Argument(help="The match log to write (.json). An existing log is resumed where it stopped.", show_default=False),
    ],
    players: Annotated[
        str | None,
        typer.Option(metavar="NAMES", help='Players in seat order, clockwise, separated by commas: "Aiko,Boris,Chloe,Dae". Asked if missing.'),
    ] = None,
    edition: Annotated[str | None, typer.Option(metavar="EDITION", help=f"{edition_choice(default=True)}.", show_default=False)] = None,
    table: Annotated[str | None, typer.Option(metavar="TABLE", help="Scoring table: standard (default) or alternative.", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(metavar="N", help="Games in the match (default 4).", show_default=False)] = None,
    date: Annotated[str | None, typer.Option(metavar="DATE", help="The date played, YYYY-MM-DD (default: today).", show_default=False)] = None,
    event: EventOption = None,
    round_: RoundOption = None,
    at_table: AtTableOption = None,
    lang: Annotated[
        str | None,
        typer.Option(metavar="LANG", help="Language of prompts, help and messages: en, ja, ko or ru (default: the locale, "
                     "LC_ALL/LC_MESSAGES/LANG; else en). The log is the same in every language.", show_default=False),
    ] = None,
) -> None:
    """Record a match played at the table, move by move, saving after every move.

    Asks for what is missing (players, then how many games; the removed colour
    with 3 players, starting cards, who starts), shows the table and takes each
    move in a few keys: d red 2 (drew red into row 2), t 3 (took row 3), l (the
    last-round card came out), u (undo), ? (help), q (save and stop); games N
    changes the number of games until the first game ends. Illegal moves are
    refused with their rule id; a last-round card away from its place in the
    deck is asked about first. With standard input not a terminal, the same
    commands are read line by line, without prompts. See docs/record.md.

    Exit codes: 0 saved (match complete, q, or end of input), 1 a piped line
    was refused or the existing log has an error, 2 usage error, 3 the file
    cannot be read, written or locked (another recorder has it), 129/130/143
    stopped by SIGHUP/Ctrl-C/SIGTERM after saving.

    Example: coloretto-log record kitchen.json --players "Aiko,Boris,Chloe,Dae"
    Example: coloretto-log record t2.json --players "Aiko,Boris,Chloe" --event "Autumn open" --round 1 --at-table 2
    """
    names = check_options(file, players, edition, table, games, date)
    event_object = check_event(event, round_, at_table)
    tr = translator(choose_language(lang))
    log, strays = lock_log(file)
    try:
        ui: _Piped | _Terminal = _Terminal(tr) if sys.stdin.isatty() else _Piped(tr)
        if strays:
            ui.message(tr.nt("Removed {n} temporary file left by a crash: {names}",
                             "Removed {n} temporary files left by a crash: {names}", len(strays),
                             names=", ".join(p.name for p in strays)))  # fmt: skip
        rec, resumed = open_session(
            log, names, edition, table, games, date, interactive=isinstance(ui, _Terminal), tr=tr, event=event_object
        )
        if isinstance(ui, _Terminal) and not resumed and names is not None and games is None:
            ui.note(tr.nt("A match of {n} game: type games N to change it, until the first game ends.",
                          "A match of {n} games: type games N to change it, until the first game ends.", rec.rules.games))  # fmt: skip
        code = _session(rec, log, ui, resumed=resumed)
    finally:
        log.release()
    if code:
        raise typer.Exit(code)


def choose_language(lang: str | None) -> str:
    """``--lang`` (checked: a usage error names the choices), else the environment's locale, else English."""
    if lang is None:
        return from_environment(os.environ)
    if lang.lower() not in LANGUAGES:
        raise _bad("--lang", f"must be one of {', '.join(LANGUAGES)}")
    return lang.lower()


def check_options(
    file: Path, players: str | None, edition: str | None, table: str | None, games: int | None, date: str | None
) -> tuple[str, ...] | None:
    """The options of ``record`` (and ``serve``) checked: usage errors exit 2; the players' names."""
    if file.suffix != ".json":
        raise _bad("FILE", "the log must be a .json file (one match)")
    if edition is not None and edition not in EDITIONS:
        raise _bad("--edition", f"must be {edition_choice()}")
    if table is not None and table not in TABLES:
        raise _bad("--table", "must be standard or alternative")
    if games is not None and not 1 <= games <= 100:
        raise _bad("--games", "must be 1 to 100")
    if date is not None:
        try:
            if not _DATE.fullmatch(date):
                raise ValueError
            _dt.date.fromisoformat(date)
        except ValueError:
            raise _bad("--date", "must be a real date, YYYY-MM-DD") from None
    names: tuple[str, ...] | None = None
    if players is not None:
        try:
            names = parse_players(players)
        except InputError as e:
            raise _bad("--players", e.message) from None
    if not file.parent.is_dir():
        _fail(f"{file.parent}: no such folder", ExitCode.UNREADABLE)
    return names


def lock_log(file: Path) -> tuple[LogFile, list[Path]]:
    """The log file, locked (exit 3 when another recorder holds it, or it cannot be written), and the strays removed."""
    log = LogFile(file)
    try:
        strays = log.lock()
    except (LockedError, UnreadableFileError) as e:
        _fail(str(e), ExitCode.UNREADABLE)
    return log, strays


def open_session(
    log: LogFile,
    names: tuple[str, ...] | None,
    edition: str | None,
    table: str | None,
    games: int | None,
    date: str | None,
    *,
    interactive: bool = True,
    tr: Translator = ENGLISH,
    event: dict[str, Any] | None = None,
) -> tuple[Recorder, bool]:
    """The session: a new one, or the log's resumed (``True``).

    ``interactive`` (a terminal, or serve's page): a new session asks how
    many games after the names when ``games`` is not given, and a misplaced
    last-round card is asked about; piped input is asked neither (it may
    say ``games N``; the last-round card is only warned about), so that the
    lines typed for a match stay the same. On resume, a ``games`` that
    differs from the log's changes it (and saves) while no game is
    finished; after that it is a usage error.
    """
    try:
        data = log.read()
    except UnreadableFileError as e:
        _fail(str(e), ExitCode.UNREADABLE)
    except NotALogError as e:
        _fail(f"{log.path}: {e}", ExitCode.INVALID)
    if data is None:
        when = date or _dt.date.today().isoformat()
        rules = RuleSet.of(edition=edition or "classic", scoring=table or "standard", games=games or 4)
        rec = Recorder(rules=rules, players=names, match_id=f"{when}-{log.path.stem}", date=when, event=event,
                       ask_games=games is None and interactive, confirm_last_round=interactive, tr=tr)  # fmt: skip
        if rec.data is not None:
            _save(log, rec)
        return rec, False
    try:
        rec = Recorder.resume(data, confirm_last_round=interactive, tr=tr)
    except ResumeError as e:
        _fail(f"{log.path}: {e}", ExitCode.INVALID)
    differ = [
        what
        for what, given, have in (
            ("--players", names, rec.players),
            ("--edition", edition, rec.rules.edition.name),
            ("--table", table, rec.rules.table.name),
            ("--date", date, data.get("date")),
            ("--event", event, data.get("event")),
        )
        if given is not None and given != have
    ]
    if differ:
        _fail(
            f"{log.path} already holds a match with other {', '.join(differ)}; leave "
            f"{'it' if len(differ) == 1 else 'them'} out to resume it, or record to another file",
            ExitCode.USAGE,
        )
    if games is not None and games != rec.rules.games:
        try:
            rec.set_games(games)
        except InputError as e:
            _fail(f"{log.path}: --games {games}: {e.message}", ExitCode.USAGE)
        _save(log, rec)
    return rec, True


def _save(log: LogFile, rec: Recorder) -> None:
    assert rec.data is not None
    try:
        log.save(rec.data)
    except UnreadableFileError as e:
        _fail(f"{e} (the last move is not saved)", ExitCode.UNREADABLE)


def _session(rec: Recorder, log: LogFile, ui: _Piped | _Terminal, *, resumed: bool) -> int:
    """The read-feed-save loop; returns the exit code."""
    path = log.path
    tr = rec.tr

    def saved(rec: Recorder) -> str:
        if rec.data is None:
            return tr.t("nothing recorded yet ({path} is not written)", path=path)
        return tr.t("{path} is saved ({progress})", path=path, progress=rec.progress())

    if resumed:
        ui.note(tr.t("Resuming {path}: {progress}.", path=path, progress=rec.progress()))
    ui.show(rec.opening_events())
    if rec.complete:
        ui.before_prompt(rec)
        ui.message(tr.t("{path}: the match is complete; nothing to record.", path=path))
        return 0
    guard = _SignalGuard()
    guard.install()
    try:
        while True:
            ui.before_prompt(rec)
            line = ui.read(rec)
            guard.enter()
            if line is None:
                if rec.data is not None:
                    _save(log, rec)
                ui.message(tr.t("Input ended: {saved}; run the same command to continue.", saved=saved(rec)))
                break
            reply = rec.feed(line)
            if reply.changed:
                _save(log, rec)
            ui.show(reply.events)
            if reply.stop:
                if rec.data is not None:
                    _save(log, rec)
                if rec.complete:
                    ui.before_prompt(rec)
                    ui.message(tr.t("Match complete: {path} is saved.", path=path))
                else:
                    ui.message(tr.t("Stopped: {saved}; run the same command to resume.", saved=saved(rec)))
                break
            guard.leave()
    except _Stop as stop:
        guard.critical = True  # a second signal must not break the last save
        if rec.data is not None:
            _save(log, rec)
        word = SIGNAL_WORDS.get(signal.Signals(stop.signum), N_("Stopped"))
        ui.message(tr.t("{word}: {saved}; run the same command to resume.", word=tr.gettext(word), saved=saved(rec)))
        return 128 + stop.signum
    finally:
        guard.restore()
    return int(ExitCode.INVALID) if isinstance(ui, _Piped) and ui.refused else 0
