"""``coloretto-log serve``: the recorder as a web page for the phones at the table.

Same options, session, lock and saves as ``record`` (``cli/record.py``);
the web app is ``serve.app``, imported only when the command runs.
"""

from __future__ import annotations

import importlib
import signal
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from ..core.editions import edition_choice
from ..core.errors import one_line
from ..lang import LANGUAGES
from ..log.atomic import write_problem
from .app import app
from .common import ExitCode, fail, install_hint
from .record import (
    SIGNAL_WORDS,
    AtTableOption,
    EventOption,
    RoundOption,
    check_event,
    check_options,
    lock_log,
    open_session,
)


@app.command()
def serve(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="The match log to write (.json). An existing log is resumed where it stopped.", show_default=False),
    ],
    players: Annotated[
        str | None,
        typer.Option(metavar="NAMES", help='Players in seat order, clockwise, separated by commas: "Aiko,Boris,Chloe,Dae". Asked on the page if missing.'),
    ] = None,
    edition: Annotated[str | None, typer.Option(metavar="EDITION", help=f"{edition_choice(default=True)}.", show_default=False)] = None,
    table: Annotated[str | None, typer.Option(metavar="TABLE", help="Scoring table: standard (default) or alternative.", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(metavar="N", help="Games in the match (default 4).", show_default=False)] = None,
    date: Annotated[str | None, typer.Option(metavar="DATE", help="The date played, YYYY-MM-DD (default: today).", show_default=False)] = None,
    event: EventOption = None,
    round_: RoundOption = None,
    at_table: AtTableOption = None,
    host: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help="Where to listen (default 127.0.0.1, this machine only). 0.0.0.0 lets the phones on your network in.", show_default=False),
    ] = None,
    port: Annotated[int, typer.Option(metavar="N", help="The port (0: any free one).")] = 8765,
    lang: Annotated[
        str | None,
        typer.Option(metavar="LANG", help="The page's language: en, ja, ko or ru (default: each browser's "
                     "Accept-Language; a switch on the page changes it). The log is the same in every language.",
                     show_default=False),
    ] = None,
) -> None:
    """Record a match from the phones at the table: a page with big buttons, saved after every move.

    Prints the page's address and its QR code. The address holds a random
    token, kept beside the log (.FILE.serve-token) until the match is
    complete, so that a restart keeps the address: a request without it can
    neither read nor write. Every phone that
    opens it sees each move at once; a draw is two taps (the card's colour,
    then the row), a take too (the row, then "Take row N"). Illegal moves are refused with
    their rule id. The log is saved atomically after every move and is
    locked: a second serve or record on it is refused. Stop with Ctrl-C; run
    the same command to resume. See docs/serve.md.

    Exit codes: 1 the existing log has an error, 2 usage error (or the
    serve extra is not installed), 3 the file cannot be read, written or
    locked, or the address cannot be listened on, 130/143/129 stopped by
    Ctrl-C/SIGTERM/SIGHUP (every move saved).

    The page speaks English, Japanese, Korean and Russian: --lang, else
    each browser's language; every phone can switch on the page.

    Example: coloretto-log serve kitchen.json --players "Aiko,Boris,Chloe,Dae" --host 0.0.0.0
    """
    names = check_options(file, players, edition, table, games, date)
    event_object = check_event(event, round_, at_table)
    if lang is not None and lang.lower() not in LANGUAGES:
        raise typer.BadParameter(f"must be one of {', '.join(LANGUAGES)}", param_hint="--lang")
    if not 0 <= port <= 65535:
        raise typer.BadParameter("must be 0 to 65535", param_hint="--port")
    try:
        web = importlib.import_module("coloretto_log.serve.app")
        run = importlib.import_module("coloretto_log.serve.run")
        qr = importlib.import_module("coloretto_log.serve.qr")
    except ImportError as e:
        fail(f"serve needs {e.name}, which is not installed: {install_hint('serve', str(e.name))}", ExitCode.USAGE)
    listen_on = host if host is not None else "127.0.0.1"
    try:
        sock = run.listen(listen_on, port)
    except run.ListenError as e:
        fail(one_line(str(e)), ExitCode.UNREADABLE)
    log, strays = lock_log(file)
    try:
        rec, resumed = open_session(log, names, edition, table, games, date, event=event_object)
        try:
            token = run.saved_token(log.real)
        except OSError as e:
            fail(write_problem(file, e, "keep the page's token beside it"), ExitCode.UNREADABLE)
        where = run.address(sock, listen_on)
        url = where.url(token)
        what = f"Resuming {file}: {rec.progress()}." if resumed else f"Recording {file}."
        typer.echo(one_line(what))
        if strays:
            typer.echo(one_line(f"Removed {len(strays)} temporary file{'s' if len(strays) != 1 else ''} left by a crash."))
        if where.loopback:
            typer.echo("Listening on this machine only: phones cannot reach it. Use --host 0.0.0.0 to let them in.")
        else:
            typer.echo(one_line(f"Listening on {where.bound} (--host): any device on the network that has this address, "
                                "token included, can record."))  # fmt: skip
        typer.echo(f"Open {url}")
        for line in qr.qr_lines(url):
            typer.echo(line)
        typer.echo("Every move is saved as it is made. Stop with Ctrl-C; run the same command to resume.", err=True)
        table_ = web.Table(rec, log, lang.lower() if lang is not None else None)
        old = {sig: signal.signal(sig, _stop) for sig in SIGNAL_WORDS}  # until the server takes them over
        try:
            app_ = web.make_app(table_, token, names={where.shown})
            stopped_by = run.run(app_, sock, on_stop=table_.close, signals=tuple(SIGNAL_WORDS))
            code = 128 + stopped_by if stopped_by else 0
        except _Stopped as stop:
            code = 128 + stop.signum
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        if table_.rec.complete:
            run.forget_token(log.real)
        word = SIGNAL_WORDS.get(signal.Signals(code - 128), "Stopped") if code else "Stopped"
        typer.echo(one_line(f"{word}: {file} is saved ({table_.rec.progress()}); run the same command to resume."), err=True)
    finally:
        log.release()
        sock.close()
    if code:
        raise typer.Exit(code)


class _Stopped(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)
