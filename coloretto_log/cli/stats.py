"""``stats``: figures across every stored match (docs/database.md); the reports are ``db.queries.stats.REPORTS``."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.editions import edition_choice, edition_names
from ..core.errors import one_line
from ..db.errors import DatabaseError
from ..db.queries.stats import SECTIONS, Filter, report_file
from ..view.plot import PlotError, PlotUnavailable, PlotWriteError, write_png
from ..view.stats_table import csv_rows, render_stats
from ..view.tabular import write_csv
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    LangOption,
    count_of_players,
    day_option,
    emit_json,
    fail,
    install_hint,
    output_format,
    terminal_translator,
)
from .database import DbOption, check_output, db_path, out_console

#: The editions of the one table (core.editions), as choices.
Edition = enum.Enum("Edition", {name: name for name in edition_names()}, type=str)  # type: ignore[misc]


Section = enum.Enum("Section", {name: name for name in SECTIONS}, type=str)  # type: ignore[misc]


@app.command()
def stats(
    db: DbOption = None,
    player: Annotated[
        str | None, typer.Option("--player", metavar="NAME", help="Only this player's matches and figures.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", metavar="DATE", help="Only matches dated on or after this day (YYYY-MM-DD)."),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option("--until", metavar="DATE", help="Only matches dated on or before this day (YYYY-MM-DD)."),
    ] = None,
    edition: Annotated[
        Edition | None, typer.Option("--edition", metavar="EDITION", help=f"Only this edition: {edition_choice()}."),
    ] = None,
    player_count: Annotated[
        int | None,
        typer.Option("--player-count", metavar="N", min=2, max=5, help="Only matches of this many players."),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", metavar="N", hidden=True, help="The old spelling of --player-count N."),
    ] = None,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    section: Annotated[
        Section | None,
        typer.Option("--report", metavar="|".join(SECTIONS), help="Only this report (csv prints one report: players unless given)."),
    ] = None,
    png: Annotated[
        Path | None,
        typer.Option(
            "--png",
            metavar="FILE",
            help="Also draw the score histogram and win rate by seat into this PNG (needs matplotlib).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the --png file if it exists.")] = False,
    lang: LangOption = None,
) -> None:
    """Figures across every stored match: players, seats, colours, claims.

    Per player: matches and games, wins (a shared win counts as a win), win
    rate with its sample size and 95% interval, average / best / worst score,
    average rank. Then the seat and first-player advantage, head-to-head
    records, colours (how often collected, how often positive, average
    points), jokers and "+2" cards of winners and the others, game length,
    claims checked and how many were wrong, and a score histogram. Only
    complete games count.

    Names from the database are printed with control characters escaped;
    --format json and csv keep them exact. The tables are in the language of
    --lang (else the locale; English by default); json and csv stay English.

    Exit codes: 0 ok, 2 usage error, 3 a database that cannot be read, or a
    --png file that cannot be written (an existing one is kept unless --force).

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log stats --db club.duckdb --player-count 4 --since 2026-01-01
    """
    chosen = output_format(fmt, json_out)
    tr = terminal_translator(lang)
    if players is not None and not players.strip().isdigit():
        fail(
            f"--players {one_line(players)}: give the number of players with --player-count N; "
            "for one player's matches, --player NAME",
            ExitCode.USAGE,
        )
    count = None if player_count is None and players is None else count_of_players(player_count, players, names_allowed=False)[0]
    if count is not None and not 2 <= count <= 5:
        raise typer.BadParameter(f"{count} is not in the range 2<=x<=5", param_hint="--player-count")
    flt = Filter(
        player=player,
        since=day_option(since, "--since", tr),
        until=day_option(until, "--until", tr),
        edition=None if edition is None else edition.value,
        players=count,
    )
    only = None if section is None else str(section.value)
    path = db_path(db)
    check_output(png, path, force=force)
    try:
        data = report_file(path, flt)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    if png is not None:
        try:
            write_png(data, png)
        except PlotUnavailable as e:
            fail(f"{e}: {install_hint('plot', 'matplotlib')}", ExitCode.USAGE)
        except PlotWriteError as e:
            fail(str(e), ExitCode.UNREADABLE)
        except PlotError as e:
            fail(str(e), ExitCode.USAGE)
    if chosen is Format.json:
        emit_json({k: v for k, v in data.items() if only is None or k in (only, "filters")})
    elif chosen is Format.csv:
        rows = csv_rows(data, only or "players")
        write_csv(list(rows[0].keys()) if rows else [], [list(r.values()) for r in rows], sys.stdout)
    else:
        render_stats(out_console(wrap=True), data, only, tr)
