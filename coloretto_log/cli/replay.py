"""``coloretto-log replay``: walk through a game move by move (terminal, JSON, HTML).

Matches are read, replayed and shown one at a time (a ``.jsonl`` file of any
length runs in flat memory); the HTML page is written as it is built and
refused beyond ``view.html.PAGE_LIMIT``. Every text from a log or a file name
that reaches the terminal goes through ``core.errors.one_line`` and is never
read as rich markup; JSON stays exact data.
"""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..core.cards import ALL_COLOURS, KIND_INDEX, KINDS, card_name
from ..core.errors import Finding
from ..lang import ENGLISH, Translator
from ..log.atomic import output_problem, write_problem
from ..log.load import Unreadable, load
from ..log.reader import STDIN, expand_paths
from ..report.scorecard import card_kinds
from ..report.timeline import GameTimeline, MatchTimeline, Step, from_loaded
from ..view.console import TrimmedConsole
from ..view.html import BadAnalysis, PageTooLarge, read_analysis, write_html
from ..view.json_stream import JsonList
from ..view.narrative import scores_told, told
from ..view.replay_table import table_view, terminal_text
from ..view.safe_text import TerminalSafe
from ..view.wrap import wrapped_plain
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    LogPath,
    PageLangOption,
    exit_for,
    fail,
    json_write,
    output_format,
    page_languages,
    plural,
    terminal_translator,
)

#: Show progress for --html from this many matches on (on a terminal only).
PROGRESS_FROM = 50

@app.command()
def replay(
    path: LogPath,
    game: Annotated[
        int | None,
        typer.Option("--game", "-g", metavar="G", help="Only game G of the match (from 1).", show_default=False),
    ] = None,
    move: Annotated[
        int | None,
        typer.Option(
            "--move",
            "-m",
            metavar="M",
            help="The table after move M (0: before the first move; default: the end).",
            show_default=False,
        ),
    ] = None,
    match: Annotated[
        int | None,
        typer.Option(
            "--match",
            metavar="K",
            help="Only the K-th match found under PATH (from 1), e.g. one line of a .jsonl file; reading stops there.",
            show_default=False,
        ),
    ] = None,
    moves: Annotated[
        bool,
        typer.Option(
            "--moves", help="Print the game as a narrative, one line a move, then the scores (with --format "
            "csv: a row a move; --json holds each move's narrative already)."
        ),
    ] = False,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help=(
                "Write a self-contained HTML viewer of the whole file to OUT.html. Never onto an input; "
                "an existing file only with --force; refused (exit 2) over 50 MB, too big for a browser."
            ),
            metavar="OUT.html",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing OUT.html (never an input log).")
    ] = False,
    analysis: Annotated[
        Path | None,
        typer.Option(
            "--analysis",
            help=(
                "With --html: put the analysis of `analyze PATH --json > A.json` in the page (each decision, "
                "the chart of expected margins, the per-player summary)."
            ),
            metavar="A.json",
            show_default=False,
        ),
    ] = None,
    lang: PageLangOption = "",
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="Read PATH as the id of a match stored in this database (`ingest`): it is replayed from the log "
            "the database keeps, wherever its file went.",
            metavar="FILE",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay a match log move by move: the table, a narrative, JSON or a web page.

    By default prints the table after move M of game G (default: the end of
    each game): every row, every collection, the score each player would have
    with the best assignment right now, the deck, the round and whose turn it
    is. A log with an error replays up to the first error in each game and
    shows where and why play broke off. A .jsonl file is read a match at a
    time, so its length does not matter.

    Exit codes: 0 ok, 1 the log has an error (what could be replayed is still
    shown), 2 usage error (a game or move that does not exist; --html onto an
    input, onto an existing file without --force, or a page over 50 MB),
    3 a file that cannot be read or written.

    Example: coloretto-log replay sample_logs/classic-2p-recorded-game.json --game 1 --moves
    """
    chosen = output_format(fmt, json_out)
    for name, value in (("--game", game), ("--match", match)):
        if value is not None and value < 1:
            fail(f"{name} counts from 1", ExitCode.USAGE)
    if move is not None and move < 0:
        fail("--move must be 0 or more", ExitCode.USAGE)
    langs = page_languages(lang or "en")
    # --moves prints in the first language of --lang, else the locale's (as record chooses)
    tr = terminal_translator(langs[0] if lang else None)
    if html is not None:
        _refuse_output(html, path if db is None else None, force=force)
    if analysis is not None and html is None:
        fail("--analysis goes with --html OUT.html: it puts the analysis in the page", ExitCode.USAGE)
    analysed, method = _read_analysis(analysis) if analysis is not None else (None, None)

    # --moves --json is the JSON (it holds every move's narrative); --moves --format csv one row a move
    kind = ("moves-csv" if moves and chosen is Format.csv else chosen.value) if chosen is not Format.table \
        else "moves" if moves else "table" if html is None else None
    out = _Printer(kind, move, tr)
    run = _Run()
    shown_progress = html is not None and kind is None and sys.stderr.isatty()

    def shown(progress: Progress | None) -> Iterator[MatchTimeline]:
        for t in _read(path, match, run, progress) if db is None else _read_stored(db, path, run):
            out.show(t, _select(t, game, move))
            if out.closed and html is None:
                return  # nobody reads any more
            yield t

    written = None
    if html is None:
        for _ in shown(None):
            pass
    else:
        try:
            with _progress(path, shown_progress and db is None) as progress:
                written = write_html(html, shown(progress), title=path, start=_html_start(game, move),
                                     analysis=analysed, method=method, langs=langs)
        except PageTooLarge as e:
            size = f"{e.limit / 1e6:g} MB" if e.limit >= 1_000_000 else f"{e.limit:,} bytes"
            fail(
                f"{terminal_text(str(html))} not written: with match {e.matches} the page would pass {size}, "
                "too big for a browser to open; choose a match with --match K",
                ExitCode.USAGE,
            )
        except OSError as e:
            fail(write_problem(terminal_text(str(html)), e), ExitCode.UNREADABLE)
    out.finish()
    if written is not None:
        typer.echo(f"wrote {terminal_text(str(html))} ({plural(written.games, 'game')})", err=True)
        if analysis is not None and not written.analysed:
            typer.secho(f"warning: {terminal_text(str(analysis))} holds no analysis of a match shown: was it made "
                        "from another log?", err=True, fg=typer.colors.YELLOW)
    exit_for(unreadable=run.unreadable, invalid=run.invalid)


# --------------------------------------------------------------------------- reading


@dataclass
class _Run:
    """What was read so far: the exit code comes from it."""

    seen: int = 0  # matches read (with --match only the K-th becomes a timeline)
    unreadable: bool = False
    invalid: bool = False


def _read(path: str, match: int | None, run: _Run, progress: Progress | None) -> Iterator[MatchTimeline]:
    """The timeline of every match under ``path`` (or of the K-th only), one at a time."""
    for item in load([path]):
        if isinstance(item, Unreadable):
            typer.secho(terminal_text(item.message), err=True, fg=typer.colors.RED)
            run.unreadable = True
            continue
        run.seen += 1
        if progress is not None:
            progress.advance(progress.task_ids[0])
        if match is None or run.seen == match:
            t = from_loaded(item)
            run.invalid = run.invalid or not t.valid
            yield t
            if match is not None:
                return
    if run.unreadable and not run.seen:
        raise typer.Exit(int(ExitCode.UNREADABLE))
    if match is not None:
        fail(f"--match {match}: {terminal_text(path)} holds {plural(run.seen, 'match', 'matches')}", ExitCode.USAGE)


def _read_stored(db: Path, match_id: str, run: _Run) -> Iterator[MatchTimeline]:
    """The timeline of the match ``match_id`` stored in ``db``, from the log the database keeps."""
    from ..db.match_logs import NotStored, stored_match
    from ..db.store import DatabaseError

    try:
        item = stored_match(db, match_id)
    except NotStored as e:
        fail(str(e), ExitCode.USAGE if e.usage else ExitCode.UNREADABLE)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    run.seen += 1
    t = from_loaded(item)
    run.invalid = not t.valid
    yield t


def _read_analysis(path: Path) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """The analysis of ``analyze --json`` saved in ``path``: exit 3 when it cannot be read, 2 when it is not one."""
    try:
        return read_analysis(path)
    except BadAnalysis as e:
        fail(f"--analysis {terminal_text(str(e))}", ExitCode.UNREADABLE if e.unreadable else ExitCode.USAGE)


def _refuse_output(html: Path, path: str | None, *, force: bool) -> None:
    """--html never writes onto an input log, nor onto an existing file without --force (exit 2); ``path`` None:
    the match comes from the database."""
    inputs = [Path(p) for p in expand_paths([path]) if p != STDIN] if path not in (STDIN, None) else []
    problem = output_problem(html, inputs=inputs, force=force, what="the log being replayed")
    if problem is not None:
        fail(f"--html {problem}", ExitCode.USAGE)


# --------------------------------------------------------------------------- progress


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if not speed else f"{speed:,.0f} matches/s")


def _count_matches(path: str) -> int | None:
    """How many matches ``path`` holds (lines with text in a .jsonl file); None for standard input."""
    total = 0
    for item in expand_paths([path]):
        if item == STDIN:
            return None
        p = Path(item)
        if p.suffix != ".jsonl":
            total += 1
            continue
        try:
            with open(p, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    total += block.count(b"\n")
                    last = block
            total += 0 if not total or last.endswith(b"\n") else 1
        except OSError:
            continue
    return total


class _NoProgress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _progress(path: str, show: bool) -> Any:
    """A progress bar on standard error (a terminal) while a long file is made into a page; else nothing."""
    total = _count_matches(path) if show else 0
    if not show or (total is not None and total < PROGRESS_FROM):
        return _NoProgress()
    progress = Progress(
        TextColumn("replay → page"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("matches"),
        _Rate(),
        TimeRemainingColumn(),
        console=Console(stderr=True, markup=False, highlight=False),
        transient=True,
    )
    progress.add_task("matches", total=total)
    return progress


# --------------------------------------------------------------------------- output


class _Console(TrimmedConsole):
    """A rich console that reports a closed pipe as ``BrokenPipeError`` instead of exiting 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


class _Printer:
    """Shows each match as it comes (table, narrative or JSON); a closed pipe ends the output quietly."""

    def __init__(self, kind: str | None, move: int | None, tr: Translator = ENGLISH) -> None:
        self.kind = kind
        self.move = move
        self.tr = tr
        self.closed = False
        self.count = 0
        self.console = _Console(highlight=False, soft_wrap=False, markup=False, emoji=False)
        self.json = JsonList("matches", json_write())  # escaped on a terminal
        self.csv = csv.writer(TerminalSafe(kind="text"), lineterminator="\n")  # escaped on a terminal

    def show(self, t: MatchTimeline, games: list[GameTimeline]) -> None:
        if self.kind is None or self.closed:
            return
        try:
            if self.kind == "json":
                self.json.add(_json(t, games, self.move))
            elif self.kind == "csv":
                if not self.count:
                    self.csv.writerow(CSV_COLUMNS)
                self.csv.writerows(_csv_rows(t, games, self.move))
            elif self.kind == "moves-csv":
                if not self.count:
                    self.csv.writerow(MOVES_CSV_COLUMNS)
                self.csv.writerows(_moves_csv_rows(t, games, self.move))
            else:
                if self.count:
                    typer.echo()
                if self.kind == "moves":
                    _print_narratives(t, games, self.move, self.tr)
                else:
                    _print_tables(self.console, t, games, self.move)
        except BrokenPipeError:
            self._close()
        self.count += 1

    def finish(self) -> None:
        if self.kind != "json" or self.closed:
            return
        try:
            self.json.close()
            sys.stdout.flush()
        except BrokenPipeError:
            self._close()

    def _close(self) -> None:
        """The reader went away (``| head``): send the rest of the output nowhere, say nothing."""
        self.closed = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass  # not a real file (tests): nothing is flushed to it later


# --------------------------------------------------------------------------- selection


def _select(t: MatchTimeline, game: int | None, move: int | None) -> list[GameTimeline]:
    """The games asked for; usage errors for a game or move that does not exist."""
    label = terminal_text(t.label)
    if game is not None:
        if t.games and game > len(t.games):
            fail(f"--game {game}: {label} holds {plural(len(t.games), 'game')}", ExitCode.USAGE)
        games = [g for g in t.games if g.number == game]
    else:
        games = list(t.games)
    if move is not None:
        if game is None and len(games) > 1:
            fail(f"--move needs --game: {label} holds {len(games)} games", ExitCode.USAGE)
        for g in games:
            if g.steps and move > g.moves:
                fail(
                    f"--move {move}: game {g.number} of {label} has {plural(g.moves, 'move')} to replay",
                    ExitCode.USAGE,
                )
    return games


def _html_start(game: int | None, move: int | None) -> dict[str, int] | None:
    if game is None and move is None:
        return None
    return {"match": 1, "game": game or 1, "move": -1 if move is None else move}


def _step_at(g: GameTimeline, move: int | None) -> Step | None:
    if not g.steps:
        return None
    return g.steps[-1] if move is None else g.steps[move]


# --------------------------------------------------------------------------- JSON


def _json(t: MatchTimeline, games: list[GameTimeline], move: int | None) -> dict[str, Any]:
    out = t.as_json()
    keep = {g.number for g in games}
    out["games"] = [g for g in out["games"] if g["game"] in keep]
    if move is not None:
        for g in out["games"]:
            g["states"] = [s for s in g["states"] if s["move"] == move]
    return out


# --------------------------------------------------------------------------- csv

#: The columns of ``--format csv``: the players' table after the move shown, one row a player.
CSV_COLUMNS = ("file", "line", "game", "move", "round", "seat", "player", "to_play", "took_row", "score", *KINDS)


#: The columns of ``--moves --format csv``: one row a move (move 0: the setup), its narrative in English.
MOVES_CSV_COLUMNS = ("file", "line", "game", "move", "round", "seat", "player", "narrative")


def _moves_csv_rows(t: MatchTimeline, games: list[GameTimeline], move: int | None) -> Iterator[list[Any]]:
    """The narrative of each game shown, a row a move up to ``move``: seat and player of the one who moved."""
    for g in games:
        for step in g.steps[: None if move is None else move + 1]:
            before = step.before
            seat = None if before is None else before.current
            yield [
                t.file or "", t.line or "", g.number, step.number, (before or step.state).round,
                "" if seat is None else seat + 1, "" if seat is None else t.players[seat], step.narrative,
            ]


def _csv_rows(t: MatchTimeline, games: list[GameTimeline], move: int | None) -> Iterator[list[Any]]:
    """The players' table of each game shown, as a spreadsheet reads it: game, move, round and seat from 1."""
    for g in games:
        step = _step_at(g, move)
        if step is None:
            continue
        s = step.state
        kinds = set(card_kinds(s.rules.edition, s.colours))
        for seat, name in enumerate(t.players):
            counts = s.collections[seat]
            yield [
                t.file or "", t.line or "", g.number, step.number, s.round, seat + 1, name,
                int(not s.over and s.current == seat), int(s.done[seat]), step.scores[seat].score,
                *(counts[KIND_INDEX[k]] if k in kinds else "" for k in KINDS),
            ]


# --------------------------------------------------------------------------- narrative


def _say(text: str, *, hang: int = 0, indent: int | None = 4, keep: Iterable[str] = (), **style: Any) -> None:
    """A line of text from a log on standard output: escaped, never markup, wrapped at the width under ``hang``
    (else ``indent`` cells in), never inside a string of ``keep`` (names)."""
    safe = terminal_text(text)
    typer.secho(wrapped_plain(safe, hang=hang, indent=indent, keep=[terminal_text(k) for k in keep]), **style)


def _broke_off(f: Finding, label: str) -> str:
    if f.move is not None:
        return f"play broke off at move {f.move}: {f.line(label)}"
    return f.line(label)


def _print_narratives(t: MatchTimeline, games: list[GameTimeline], move: int | None, tr: Translator = ENGLISH) -> None:
    _match_header(t)
    names = [*t.players, *(tr.gettext(card_name(c)) for c in ALL_COLOURS)]  # never broken inside
    for g in games:
        _say(tr.t("{label} · game {game}", label=t.label, game=g.number) + (tr.gettext(" (seeded)") if g.seeded else ""),
             keep=[t.label], bold=True)  # fmt: skip
        width = len(str(g.moves))
        for step in g.steps[: None if move is None else move + 1]:
            _say(f"{step.number:>{width}}. {told(step.story, tr)}", hang=width + 2, indent=None, keep=names)
        if move is not None and move < g.moves:
            continue
        _game_ending(t, g, tr)
    _match_totals(t, shown=len(games) == len(t.games) and move is None, tr=tr)


def _match_header(t: MatchTimeline) -> None:
    err = t.match_error
    if err is not None:
        _say(err.line(t.label), fg=typer.colors.RED)


def _game_ending(t: MatchTimeline, g: GameTimeline, tr: Translator = ENGLISH) -> None:
    final = g.final_scores
    if final is not None:
        _say(tr.t("final scores: {scores}", scores=scores_told(t.players, final, tr)), keep=t.players, bold=True)
    elif g.steps:
        last = g.steps[-1]
        now = tuple(a.score for a in last.scores)
        _say(tr.t("scores so far (best assignment now): {scores}", scores=scores_told(t.players, now, tr, final=False)),
             keep=t.players)  # fmt: skip
    err = g.error
    if err is not None:
        _say(_broke_off(err, t.label), fg=typer.colors.RED)
    for f in g.findings:
        if f.severity == "warning":
            _say(f.line(t.label), fg=typer.colors.YELLOW)


def _match_totals(t: MatchTimeline, *, shown: bool, tr: Translator = ENGLISH) -> None:
    totals = t.totals()
    if not shown or totals is None or len(t.games) < 2:
        return
    scores, n = totals
    line = scores_told(t.players, scores, tr)
    _say(tr.nt("match totals after {n} complete game: {scores}", "match totals after {n} complete games: {scores}", n,
               scores=line), keep=t.players, bold=True)  # fmt: skip


# --------------------------------------------------------------------------- table


def _print_tables(console: Console, t: MatchTimeline, games: list[GameTimeline], move: int | None) -> None:
    _match_header(t)
    for g in games:
        step = _step_at(g, move)
        if step is None:
            console.print(Text(terminal_text(f"{t.label} · game {g.number}: nothing to replay"), style="bold"))
        else:
            for part in table_view(t, g, step, console.width):
                console.print(part, soft_wrap=isinstance(part, Text))
        if move is None or move == g.moves:
            _game_ending(t, g)
        console.print()
    _match_totals(t, shown=len(games) == len(t.games) and move is None)
