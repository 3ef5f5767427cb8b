"""``ingest``, ``stats``, ``query`` and ``export``: the match database (docs/database.md)."""

from __future__ import annotations

import csv
import datetime as _dt
import decimal
import enum
import importlib
import io
import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..core.errors import one_line
from ..db.stats import SECTIONS, Filter, report
from ..db.store import (
    DatabaseError,
    IngestEvent,
    IngestSummary,
    MatchStore,
    QueryError,
    QueryResult,
    default_db_path,
    rebuild,
    run_query,
)
from ..log.atomic import atomic_write_text
from ..log.load import LoadedMatch, Unreadable, load
from ..log.reader import STDIN, expand_paths
from ..log.writer import dumps_pretty
from ..view.terminal import card_text
from .app import app
from .common import ExitCode, LogPaths, emit_json, exit_for, fail, plural


class Format(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"


class Edition(str, enum.Enum):
    classic = "classic"
    anniversary = "anniversary"


Section = enum.Enum("Section", {name: name for name in SECTIONS}, type=str)  # type: ignore[misc]


DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="The database file. Default: $COLORETTO_DB, else coloretto.duckdb in the current folder.",
        show_default=False,
        dir_okay=False,
    ),
]
FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="table for people; json or csv for programs.")
]


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _db(path: Path | None) -> Path:
    return path if path is not None else default_db_path()


# --------------------------------------------------------------------------- ingest


def _file_sizes(paths: list[str]) -> tuple[list[str], dict[str, int]]:
    """The files behind ``paths`` (folders expanded) and their sizes, for the progress bar."""
    files: list[str] = []
    sizes: dict[str, int] = {}
    for item in expand_paths(paths):
        name = STDIN if item == STDIN else str(item)
        files.append(name)
        try:
            sizes[name] = Path(name).stat().st_size if name != STDIN else 0
        except OSError:
            sizes[name] = 0
    return files, sizes


def _tracked(
    items: Iterator[LoadedMatch | Unreadable], progress: Progress, task: Any, sizes: dict[str, int]
) -> Iterator[LoadedMatch | Unreadable]:
    """Advance the progress bar by a file's size when reading moves past it."""
    current: str | None = None
    matches = 0
    for item in items:
        if item.file != current:
            if current is not None:
                progress.advance(task, sizes.get(current, 0))
            current = item.file
        if isinstance(item, LoadedMatch):
            matches += 1
            if matches % 200 == 0:
                progress.update(task, description=f"{plural(matches, 'match', 'matches')} read")
        yield item
    if current is not None:
        progress.advance(task, sizes.get(current, 0))


@app.command()
def ingest(
    paths: LogPaths,
    db: DbOption = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a stored match whose log has changed (same id, other content).")
    ] = False,
    rebuild_db: Annotated[
        bool,
        typer.Option(
            "--rebuild",
            help="Recreate the database from these logs alone (the old file is replaced only when the new one is complete).",
        ),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON report for programs.")] = False,
) -> None:
    """Validate and score match logs and store them in the database.

    Each match is checked as validate checks it and scored as score scores
    it. A match already stored with the same content is skipped; a stored
    match whose content changed is reported and left alone unless --replace;
    an invalid log is reported line by line as validate reports it and
    nothing of it is stored. Matches are written in batches, one transaction
    each: an interruption keeps the batches already written, never half a
    match, and running the same command again carries on.

    Exit codes: 0 ok, 1 an invalid log, 2 usage error, 3 an unreadable file
    or database (locked, damaged, foreign, disk full).

    Example: coloretto-log ingest sample_logs/ --db club.duckdb
    """
    path = _db(db)
    err = _err()
    files, sizes = _file_sizes(paths)
    invalid: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    unreadable: list[dict[str, str]] = []

    def on_event(event: IngestEvent) -> None:
        if event.kind == "invalid":
            assert event.loaded is not None
            findings = event.loaded.findings()
            invalid.append(
                {
                    "file": event.loaded.file,
                    "line": event.loaded.line,
                    "match_id": event.match_id,
                    "findings": [f.as_json() for f in findings],
                }
            )
            if not json_out:
                for f in findings:
                    colour = typer.colors.RED if f.severity == "error" else typer.colors.YELLOW
                    typer.secho(f.line(event.label), fg=colour)
        elif event.kind == "changed":
            changed.append({"label": event.label, "match_id": event.match_id, "stored_from": event.message})
            if not json_out:
                err.print(
                    f"{event.label}: match {event.match_id} is stored with other content (from {event.message}); "
                    "left alone (use --replace to replace it)",
                    style="yellow",
                    markup=False,
                )
        elif event.kind == "unreadable":
            unreadable.append({"file": event.label, "error": event.message})
            if not json_out:
                err.print(one_line(event.message), style="red", markup=False)

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    total = sum(sizes.values()) or None
    try:
        with progress:
            task = progress.add_task("reading logs", total=total)
            items = _tracked(load(files), progress, task, sizes)
            if rebuild_db:
                summary, counts = rebuild(path, items, on_event=on_event)
            else:
                with MatchStore.open(path) as store:
                    summary = store.ingest(items, replace=replace, on_event=on_event)
                    counts = store.counts()
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    except KeyboardInterrupt:
        err.print(
            "Interrupted: the batches written so far are kept, the one being written was rolled back; "
            "run the same command again to carry on.",
            style="red",
        )
        raise typer.Exit(130) from None
    if json_out:
        emit_json(
            {
                "database": str(path),
                "summary": summary.as_json(),
                "tables": counts,
                "invalid": invalid,
                "changed": changed,
                "unreadable": unreadable,
            }
        )
    else:
        _print_ingest_summary(summary, counts, path)
    exit_for(unreadable=bool(unreadable), invalid=bool(invalid))


def _print_ingest_summary(s: IngestSummary, counts: dict[str, int], path: Path) -> None:
    parts = [
        f"stored {plural(s.stored, 'match', 'matches')}",
        f"replaced {s.replaced}",
        f"skipped {s.skipped} already stored",
        f"{s.changed} changed (left alone)" if s.changed else "0 changed",
        f"{s.invalid} invalid",
    ]
    if s.unreadable:
        parts.append(f"{plural(s.unreadable, 'file')} unreadable")
    ok = not (s.invalid or s.unreadable)
    typer.secho(
        "Ingest: " + ", ".join(parts) + f"; {plural(s.games, 'game')} written.",
        fg=typer.colors.GREEN if ok else typer.colors.RED,
        bold=True,
    )
    typer.echo(
        f"{path}: {plural(counts['matches'], 'match', 'matches')}, {plural(counts['games'], 'game')}, "
        f"{plural(counts['moves'], 'move')}."
    )


# --------------------------------------------------------------------------- stats


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
    path = _db(db)
    try:
        with MatchStore.open(path, read_only=True) as store:
            data = report(store, flt)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    if png is not None:
        try:
            _write_png(data, png)
        except _PlotError as e:
            fail(str(e), ExitCode.USAGE)
    if fmt is Format.json:
        emit_json({k: v for k, v in data.items() if only is None or k in (only, "filters")})
    elif fmt is Format.csv:
        rows = _section_rows(data, only or "players")
        _write_csv(list(rows[0].keys()) if rows else [], [list(r.values()) for r in rows])
    else:
        _render_stats(data, only)


# ---- flat rows (csv)


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, dict) and "rate" in v:
            out[k] = v["rate"]
            out[f"{k}_low"] = v["low"]
            out[f"{k}_high"] = v["high"]
        elif isinstance(v, dict):
            for k2, v2 in v.items():
                out[f"{k}_{k2}"] = v2
        else:
            out[k] = v
    return out


def _section_rows(data: dict[str, Any], section: str) -> list[dict[str, Any]]:
    value = data[section]
    if section == "histogram":
        return [dict(b) for b in value["bins"]]
    if isinstance(value, list):
        return [_flat(r) for r in value]
    return [_flat(value)]


# ---- people


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _rate_text(r: dict[str, Any]) -> str:
    if r["rate"] is None:
        return "–"
    return f"{_pct(r['rate'])} [{_pct(r['low'])}–{_pct(r['high'])}]"


def _render_stats(data: dict[str, Any], section: str | None) -> None:
    out = _out()

    def want(name: str) -> bool:
        return section is None or section == name

    s = data["summary"]
    f = data["filters"]
    shown = ", ".join(f"{k} {v}" for k, v in f.items() if v is not None)
    if want("summary"):
        dates = f", {s['first_date']} to {s['last_date']}" if s["first_date"] else ""
        out.print(
            Text(
                f"{plural(s['matches'], 'match', 'matches')} ({s['complete_matches']} complete), "
                f"{plural(s['games'], 'complete game')}, {plural(s['players'], 'player')}{dates}"
                + (f"  [{shown}]" if shown else ""),
                style="bold",
            )
        )
    if not s["games"]:
        out.print("No complete game matches these filters.", style="yellow")
        return
    if want("players"):
        t = _table("Players: games won (a shared win counts as a win) and win rate with its 95% interval")
        for col in ("player", "games", "wins", "shared", "win rate", "95% interval", "avg rank"):
            t.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
        for p in data["players"]:
            r = p["win_rate"]
            t.add_row(
                p["player"], str(p["games"]), str(p["wins"]), str(p["shared_wins"]), _pct(r["rate"]), _interval(r),
                _num(p["avg_rank"], 2),
            )
        out.print(t)
        t = _table("Players: scores per game, and matches (won of those finished)")
        for col in ("player", "avg score", "best", "worst", "matches", "finished", "won"):
            t.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
        for p in data["players"]:
            t.add_row(
                p["player"], _num(p["avg_score"]), _opt(p["best_score"]), _opt(p["worst_score"]), str(p["matches"]),
                str(p["complete_matches"]), str(p["match_wins"]),
            )
        out.print(t)
    if want("seats"):
        out.print(_advantage_table(data["seats"], "seat", "Win rate by seat (seat 0 is the first name of the players list)"))
        out.print(_bars_by_seat(data["seats"]))
    if want("turns"):
        out.print(_advantage_table(data["turns"], "turn", "First-player advantage (turn 1 starts the game)"))
    if want("head_to_head"):
        rows = data["head_to_head"]
        t = _table("Head to head: games played together, who scored more")
        for col in ("player", "opponent", "games", "wins", "losses", "ties"):
            t.add_column(col, justify="left" if col in ("player", "opponent") else "right")
        for r in rows[:20]:
            t.add_row(r["player"], r["opponent"], str(r["games"]), str(r["wins"]), str(r["losses"]), str(r["ties"]))
        out.print(t)
        if len(rows) > 20:
            out.print(f"… {len(rows) - 20} more pairs (--format json lists them all)", style="dim")
    if want("colours"):
        t = _table("Colours, per player and game where the colour is in play")
        for col in ("colour", "in play", "collected", "positive", "avg points", "avg when collected"):
            t.add_column(col, justify="left" if col == "colour" else "right")
        for c in data["colours"]:
            t.add_row(
                card_text(c["colour"], long=True), str(c["in_play"]), _pct(c["collected_rate"]),
                _pct(c["positive_rate"]), _num(c["avg_points"], 2), _num(c["avg_points_collected"], 2),
            )
        out.print(t)
    if want("specials"):
        t = _table('Jokers and "+2" cards held, on average')
        for col in ("group", "player-games", "jokers", "golden", '"+2"', "avg score"):
            t.add_column(col, justify="left" if col == "group" else "right")
        for r in data["specials"]:
            t.add_row(
                r["group"], str(r["player_games"]), _num(r["avg_jokers"], 2), _num(r["avg_golden_jokers"], 2),
                _num(r["avg_plus2"], 2), _num(r["avg_score"]),
            )
        out.print(t)
    if want("length"):
        t = _table("Game length")
        for col in ("players", "games", "rounds avg", "min", "max", "moves avg", "min", "max"):
            t.add_column(col, justify="right")
        for r in data["length"]:
            t.add_row(
                str(r["players"]), str(r["games"]), _num(r["avg_rounds"]), str(r["min_rounds"]), str(r["max_rounds"]),
                _num(r["avg_moves"]), str(r["min_moves"]), str(r["max_moves"]),
            )
        out.print(t)
    if want("claims"):
        c = data["claims"]
        text = (
            f"Claims: {c['checked']} checked of {c['player_games']} player-games, {c['wrong']} wrong "
            f"({_rate_text(c['wrong_rate'])}); claimed scores: {c['score_claims']}, {c['wrong_scores']} not the optimum."
        )
        out.print(Text(text, style="bold"))
        wrong = [f"{k} {v}" for k, v in c["by_verdict"].items() if v and k != "agrees"]
        if wrong:
            out.print("  " + ", ".join(wrong))
    if want("histogram"):
        out.print(_histogram_bars(data["histogram"]))


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, title_style="bold")


def _interval(r: dict[str, Any]) -> str:
    return "–" if r["rate"] is None else f"{_pct(r['low'])}–{_pct(r['high'])}"


def _opt(x: Any) -> str:
    return "–" if x is None else str(x)


def _advantage_table(rows: list[dict[str, Any]], column: str, title: str) -> Table:
    t = _table(title)
    for col in ("players", column, "games", "wins", "win rate", "95% interval", "expected"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(
            str(r["players"]), str(r[column]), str(r["games"]), str(r["wins"]), _pct(r["win_rate"]["rate"]),
            _interval(r["win_rate"]), _pct(r["expected"]),
        )
    return t


BAR = 40


def _bar(fraction: float, width: int = BAR) -> str:
    cells = fraction * width
    full = int(cells)
    part = " ▏▎▍▌▋▊▉"[int((cells - full) * 8)] if full < width else ""
    return ("█" * full + part.strip()).ljust(width)


def _histogram_bars(h: dict[str, Any]) -> Text:
    out = Text("Scores (every player of every complete game)\n", style="bold")
    bins = h["bins"]
    most = max((b["count"] for b in bins), default=0) or 1
    label = max((len(f"{b['low']}..{b['high']}") for b in bins), default=1)
    for b in bins:
        span = f"{b['low']}" if h["width"] == 1 else f"{b['low']}..{b['high']}"
        out.append(f"{span:>{label}} ")
        out.append(_bar(b["count"] / most), style="cyan")
        out.append(f" {b['count']}\n")
    return out


def _bars_by_seat(rows: list[dict[str, Any]]) -> Text:
    out = Text("Win rate by seat (bar: win rate; the mark ┊ is 1/players)\n", style="bold")
    for r in rows:
        rate = r["win_rate"]["rate"] or 0.0
        bar = list(_bar(rate))
        mark = min(BAR - 1, int(r["expected"] * BAR))
        if bar[mark] == " ":
            bar[mark] = "┊"
        out.append(f"{r['players']}p seat {r['seat']} ")
        out.append("".join(bar), style="green")
        out.append(f" {_rate_text(r['win_rate'])} of {r['games']}\n")
    return out


class _PlotError(Exception):
    pass


def _write_png(data: dict[str, Any], path: Path) -> None:
    """The score histogram and win rate by seat as one PNG (matplotlib, an optional extra)."""
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise _PlotError(
            "--png needs matplotlib, which is not installed: pip install 'coloretto-log[plot]' (or pip install matplotlib)"
        ) from None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    bins = data["histogram"]["bins"]
    width = data["histogram"]["width"]
    ax1.bar([b["low"] for b in bins], [b["count"] for b in bins], width=width * 0.9, align="edge", color="#3a7ca5")
    ax1.set_title("Scores")
    ax1.set_xlabel("score")
    ax1.set_ylabel("player-games")
    seats = data["seats"]
    labels = [f"{r['players']}p/{r['seat']}" for r in seats]
    rates = [r["win_rate"]["rate"] or 0.0 for r in seats]
    errors = [
        [rate - r["win_rate"]["low"] for rate, r in zip(rates, seats)],
        [r["win_rate"]["high"] - rate for rate, r in zip(rates, seats)],
    ]
    ax2.bar(range(len(seats)), rates, yerr=errors, capsize=3, color="#6a994e")
    ax2.scatter(range(len(seats)), [r["expected"] for r in seats], marker="_", s=300, color="black", label="1/players")
    ax2.set_xticks(range(len(seats)), labels, rotation=45, ha="right")
    ax2.set_title("Win rate by seat (95% interval)")
    ax2.set_xlabel("players / seat")
    ax2.set_ylabel("win rate")
    ax2.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise _PlotError(f"{path}: cannot write: {e.strerror}") from None
    finally:
        plt.close(fig)


# --------------------------------------------------------------------------- query


def _plain(value: Any) -> Any:
    """A query value as plain JSON."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, (uuid.UUID, _dt.timedelta)):
        return str(value)
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (list, dict)):
        return json.dumps(_plain(value), ensure_ascii=False)
    return str(_plain(value))


def _write_csv(header: list[str], rows: list[list[Any]]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header:
        w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else _cell(v) for v in row])
    sys.stdout.write(buf.getvalue())


@app.command()
def query(
    sql: Annotated[str, typer.Argument(help="One SELECT statement over the tables of docs/database.md.", show_default=False)],
    db: DbOption = None,
    fmt: FormatOption = Format.table,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Print at most this many rows (a notice says when more were cut).")] = 1000,
    timeout: Annotated[float, typer.Option("--timeout", min=0.01, help="Stop the query after this many seconds.")] = 10.0,
) -> None:
    """Read-only SQL over the database, for what stats does not answer.

    The query runs in a sandbox: the database is opened read-only, files,
    network, ATTACH, COPY, extensions and settings are all refused, and it
    stops at the timeout. One SELECT statement only (WITH, DESCRIBE, SUMMARIZE
    and EXPLAIN included).

    Exit codes: 0 ok, 2 a query refused, wrong, or past its timeout, 3 a
    database that cannot be read.

    Example: coloretto-log query "SELECT player, avg(score) FROM game_players GROUP BY player"
    """
    try:
        result = run_query(_db(db), sql, limit=limit, timeout=timeout)
    except QueryError as e:
        fail(str(e), ExitCode.USAGE)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    _print_result(result, fmt, limit)


_NUMERIC_TYPES = frozenset(
    ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")
    + ("UHUGEINT", "FLOAT", "DOUBLE", "NUMBER")
)


def _print_result(result: QueryResult, fmt: Format, limit: int) -> None:
    if fmt is Format.json:
        emit_json([dict(zip(result.columns, (_plain(v) for v in row))) for row in result.rows])
    elif fmt is Format.csv:
        _write_csv(result.columns, [list(r) for r in result.rows])
    else:
        t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, kind in zip(result.columns, result.types):
            numeric = kind.upper() in _NUMERIC_TYPES
            t.add_column(name, justify="right" if numeric else "left")
        for row in result.rows:
            t.add_row(*(Text(_cell(v), style="dim" if v is None else "") for v in row))
        _out().print(t)
        _err().print(f"{plural(len(result.rows), 'row')} in {result.seconds:.3f} s", style="dim")
    if result.truncated:
        _err().print(f"Only the first {plural(limit, 'row')} shown; raise --limit to see more.", style="yellow")


# --------------------------------------------------------------------------- export


@app.command()
def export(
    db: DbOption = None,
    parquet: Annotated[
        Path | None,
        typer.Option("--parquet", file_okay=False, help="Write every table as Parquet into this new folder, partitioned by month."),
    ] = None,
    bgstats: Annotated[
        Path | None,
        typer.Option("--bgstats", dir_okay=False, help="Write finished, dated matches as BG Stats plays (JSON) into this file."),
    ] = None,
) -> None:
    """Export the database: Parquet for other engines, BG Stats plays for players.

    --parquet DIR writes DIR/TABLE/month=YYYY-MM/*.parquet (hive style;
    month=undated for matches without a date) for DuckDB, Spark or Trino.
    --bgstats FILE writes a JSON array of plays (players, total scores,
    winner, start player, date) in the shape BG Stats imports.

    Exit codes: 0 ok, 2 usage error, 3 a database or file that cannot be read or written.

    Example: coloretto-log export --parquet season-2026/ --bgstats plays.json
    """
    if parquet is None and bgstats is None:
        fail("give --parquet DIR, --bgstats FILE, or both", ExitCode.USAGE)
    path = _db(db)
    try:
        with MatchStore.open(path, read_only=True) as store:
            if parquet is not None:
                counts = store.export_parquet(parquet)
                typer.echo(
                    f"{parquet}: "
                    + ", ".join(f"{name} {plural(n, 'row')}" for name, n in counts.items())
                    + " (Parquet, partitioned by month)"
                )
            if bgstats is not None:
                plays, undated = store.bgstats_plays()
                try:
                    atomic_write_text(bgstats, dumps_pretty(plays))
                except OSError as e:
                    fail(f"{bgstats}: cannot write: {e.strerror}", ExitCode.UNREADABLE)
                typer.echo(f"{bgstats}: {plural(len(plays), 'play')} for BG Stats")
                if undated:
                    _err().print(
                        f"{plural(undated, 'finished match', 'finished matches')} without a date left out "
                        "(BG Stats needs a play date)",
                        style="yellow",
                    )
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
