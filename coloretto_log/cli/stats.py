"""``stats``: figures across every stored match (docs/database.md); the reports are ``db.stats.REPORTS``."""

from __future__ import annotations

import datetime as _dt
import enum
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..db.errors import DatabaseError
from ..db.stats import SECTIONS, Filter, report
from ..db.store import MatchStore
from ..view.plot import PlotError, write_png
from ..view.stats_table import csv_rows, render_stats
from ..view.tabular import write_csv
from .app import app
from .common import ExitCode, emit_json, fail
from .database import DbOption, db_path, out_console


class Format(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"


class Edition(str, enum.Enum):
    classic = "classic"
    anniversary = "anniversary"


Section = enum.Enum("Section", {name: name for name in SECTIONS}, type=str)  # type: ignore[misc]

FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="table for people; json or csv for programs.")
]


def _date(value: _dt.datetime | None) -> _dt.date | None:
    return None if value is None else value.date()


@app.command()
def stats(
    db: DbOption = None,
    player: Annotated[str | None, typer.Option("--player", help="Only this player's matches and figures.")] = None,
    since: Annotated[
        _dt.datetime | None,
        typer.Option("--since", formats=["%Y-%m-%d"], help="Only matches dated on or after this day (YYYY-MM-DD)."),
    ] = None,
    until: Annotated[
        _dt.datetime | None,
        typer.Option("--until", formats=["%Y-%m-%d"], help="Only matches dated on or before this day (YYYY-MM-DD)."),
    ] = None,
    edition: Annotated[
        Edition | None, typer.Option("--edition", help="Only this edition."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", min=2, max=5, help="Only matches of this many players.")
    ] = None,
    fmt: FormatOption = Format.table,
    section: Annotated[
        Section | None,
        typer.Option("--report", help="Only this report (csv prints one report: players unless given)."),
    ] = None,
    png: Annotated[
        Path | None,
        typer.Option("--png", dir_okay=False, help="Also draw the score histogram and win rate by seat into this PNG (needs matplotlib)."),
    ] = None,
) -> None:
    """Figures across every stored match: players, seats, colours, claims.

    Per player: matches and games, wins (a shared win counts as a win), win
    rate with its sample size and 95% interval, average / best / worst score,
    average rank. Then the seat and first-player advantage, head-to-head
    records, colours (how often collected, how often positive, average
    points), jokers and "+2" cards of winners and the others, game length,
    claims checked and how many were wrong, and a score histogram. Only
    complete games count.

    Exit codes: 0 ok, 2 usage error, 3 a database that cannot be read.

    Example: coloretto-log stats --players 4 --since 2026-01-01
    """
    flt = Filter(
        player=player,
        since=_date(since),
        until=_date(until),
        edition=None if edition is None else edition.value,
        players=players,
    )
    only = None if section is None else str(section.value)
    path = db_path(db)
    try:
        with MatchStore.open(path, read_only=True) as store:
            data = report(store, flt)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    if png is not None:
        try:
            write_png(data, png)
        except PlotError as e:
            fail(str(e), ExitCode.USAGE)
    if fmt is Format.json:
        emit_json({k: v for k, v in data.items() if only is None or k in (only, "filters")})
    elif fmt is Format.csv:
        rows = csv_rows(data, only or "players")
        write_csv(list(rows[0].keys()) if rows else [], [list(r.values()) for r in rows], sys.stdout)
    else:
        render_stats(out_console(), data, only)
