"""``ratings``: who is the strongest player, with openskill ratings from the stored games (docs/ratings.md)."""

from __future__ import annotations

import csv
import datetime as _dt
import enum
import io
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.editions import edition_choice, edition_names
from ..core.errors import UsageError, one_line
from ..db.ratings.model import (
    BAND,
    BASE,
    DEFAULT_MODEL,
    MODELS,
    MU0,
    PROVISIONAL_GAMES,
    SCALE,
    HistoryRow,
    Options,
    PlayerRow,
    Prediction,
    Z,
    displayed,
    make_model,
    uncertainty,
)
from ..db.ratings.report import backtest, plot_series, predict_table, rating_history, ratings_table
from ..db.store import DatabaseError, MatchStore, default_db_path
from ..log.atomic import atomic_write_bytes, write_problem
from ..view.ratings_plot import PlotUnavailable, Series, ratings_png
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    count_of_players,
    emit_json,
    fail,
    output_format,
    plural,
)
from .database import check_output, db_path

#: The editions of the one table (core.editions), as choices.
Edition = enum.Enum("Edition", {name: name for name in edition_names()}, type=str)  # type: ignore[misc]


Model = enum.Enum("Model", {name: name for name in MODELS}, type=str)  # type: ignore[misc]


class Per(str, enum.Enum):
    game = "game"
    match = "match"


SCALE_TEXT = (
    f"rating = {BASE:g} + {SCALE:g} × (μ − {MU0:g}), the skill estimate (a newcomer starts at {BASE:g}; "
    f"the higher rating is the favourite); ± {BAND:g}σ on that scale holds the skill 95% of the time"
)
CAUTIOUS_TEXT = (
    f"--json and csv also give the cautious rating, {Z:g}σ lower on that scale: the rating very likely "
    "reached (a newcomer's is 0)"
)
PROVISIONAL_TEXT = f"? provisional: fewer than {PROVISIONAL_GAMES} games, listed after the others"


def _rating(rating: float, provisional: bool) -> str:
    return f"{rating:.0f}" + ("?" if provisional else "")


def _out() -> Console:
    """Standard output: footnotes wrapped at the width (80 columns piped, or COLUMNS), never one long line."""
    return Console(highlight=False, soft_wrap=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _day(value: _dt.datetime | None) -> _dt.date | None:
    return None if value is None else value.date()


def _iso(d: _dt.date | None) -> str:
    return "–" if d is None else d.isoformat()


def _signed(x: float | None) -> str:
    return "–" if x is None else f"{x:+.0f}"


@app.command()
def ratings(
    db: Annotated[
        Path | None,
        typer.Option("--db", metavar="FILE", dir_okay=False, show_default=False,
                     help="The database file. Default: $COLORETTO_DB, else coloretto.duckdb in the current folder."),
    ] = None,
    edition: Annotated[
        Edition | None,
        typer.Option("--edition", metavar="EDITION", help=f"Rate only matches of this edition: {edition_choice()}."),
    ] = None,
    player_count: Annotated[
        int | None,
        typer.Option("--player-count", metavar="N", min=2, max=5, help="Rate only matches of N players."),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", metavar="N", hidden=True, help="The old spelling of --player-count N."),
    ] = None,
    since: Annotated[
        _dt.datetime | None,
        typer.Option("--since", metavar="DATE", formats=["%Y-%m-%d"],
                     help="Rate only matches dated on or after this day (YYYY-MM-DD; undated ones are left out)."),
    ] = None,
    until: Annotated[
        _dt.datetime | None,
        typer.Option("--until", metavar="DATE", formats=["%Y-%m-%d"],
                     help="Rate only matches dated on or before this day (YYYY-MM-DD; undated ones are left out)."),
    ] = None,
    model: Annotated[
        Model, typer.Option("--model", metavar="MODEL", help=f"The openskill model: {', '.join(MODELS)}.")
    ] = Model[DEFAULT_MODEL],
    per: Annotated[
        Per, typer.Option("--per", metavar="game|match",
                          help="game: each finished game is one contest; match: each finished match, by its totals.")
    ] = Per.game,
    days: Annotated[int, typer.Option("--days", metavar="N", min=0, help="The change column covers the last N days.")] = 30,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    history: Annotated[
        str | None, typer.Option("--history", metavar="NAME", help="Print the rating of the player called NAME after each of their games.")
    ] = None,
    predict: Annotated[
        str | None,
        typer.Option("--predict", metavar="NAMES",
                     help='Chances of winning and expected ranks at a table of these players ("Aiko,Boris,Chloe").'),
    ] = None,
    run_backtest: Annotated[
        bool, typer.Option("--backtest", help="Predict every game from the ratings before it; compare with two baselines.")
    ] = False,
    png: Annotated[
        Path | None,
        typer.Option("--png", metavar="FILE", dir_okay=False,
                     help="Also draw the ratings over time of the top players, with uncertainty bands (needs matplotlib)."),
    ] = None,
    top: Annotated[int, typer.Option("--top", metavar="N", min=1, help="Players drawn by --png.")] = 6,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --png file.")] = False,
) -> None:
    """Player ratings from the stored games: who plays best, how sure, and who wins next.

    openskill's Weng-Lin model (Plackett-Luce by default) gives each player
    a skill mean μ and an uncertainty σ. Games are rated in the order they
    were played: by date (undated matches first), then match id, then game
    number. Each finished game is one ranked contest (tied scores share a
    rank, as score ranks them); --per match rates each finished match by its
    totals instead. The rating shown is the skill, 1000 + 40 × (μ − 25), with
    ± 2σ on that scale: a newcomer starts at 1000, and the higher rating is
    always the favourite. The cautious rating (3σ lower) stands beside it;
    fewer than 10 games: provisional (?). The change column covers the last
    N days (--days) up to the latest game.

    --history NAME shows the rating after each game; --predict NAMES the
    chances at a table; --backtest how well the ratings predicted every game
    against two baselines (everyone equal; past win rates), and how well
    calibrated its chances were. The database is
    only read: ratings stored by ingest are used when up to date, else they
    are computed from the games (a note says so).

    Exit codes: 0 ok, 2 usage error (an unknown player for --history, an
    existing --png file without --force, --png without matplotlib), 3 a
    database that cannot be read or a file that cannot be written.

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log ratings --db club.duckdb --predict "Aiko,Boris,Chloe"
    """
    chosen = [x for x in (history is not None, predict is not None, run_backtest) if x]
    if len(chosen) > 1:
        fail("give at most one of --history, --predict and --backtest", ExitCode.USAGE)
    chosen_format = output_format(fmt, json_out)
    # never the database it reads (it was replaced by the picture), nor a file without --force
    check_output(png, db_path(db), force=force, code=ExitCode.USAGE)
    if players is not None and not players.strip().isdigit():
        fail(f"--players {one_line(players)}: give the number of players with --player-count N", ExitCode.USAGE)
    count = None if player_count is None and players is None else count_of_players(player_count, players, names_allowed=False)[0]
    if count is not None and not 2 <= count <= 5:
        fail(f"--player-count {count}: a table has 2 to 5 players", ExitCode.USAGE)
    try:
        options = Options(
            model=str(model.value), per=per.value, edition=None if edition is None else edition.value,
            players=count, since=_day(since), until=_day(until), days=days,
        )
    except UsageError as e:
        fail(str(e), ExitCode.USAGE)
    path = db if db is not None else default_db_path()
    try:
        with MatchStore.open(path, read_only=True) as store:
            if history is not None:
                source, rows = rating_history(store, options, history)
                _note(source.note)
                _print_history(history, rows, chosen_format, options.model)
            elif predict is not None:
                names = [n.strip() for n in predict.split(",") if n.strip()]
                source, table = predict_table(store, options, names)
                _note(source.note)
                _print_predictions(table, chosen_format)
            elif run_backtest:
                _print_backtest(backtest(store, options).as_json(), chosen_format)
            else:
                report = ratings_table(store, options)
                _note(report.source.note)
                _print_table(report.as_json(), report.rows, chosen_format)
            if png is not None:
                _draw(store, options, top, png)
    except UsageError as e:
        fail(one_line(str(e)), ExitCode.USAGE)
    except DatabaseError as e:
        fail(one_line(str(e)), ExitCode.UNREADABLE)


def _note(note: str) -> None:
    if note:
        _err().print(f"Note: stored ratings not used: {one_line(note)}.", style="yellow", markup=False)


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)


def _write_csv(header: list[str], rows: list[list[Any]]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([["" if v is None else v for v in row] for row in rows])
    sys.stdout.write(buf.getvalue())


# --------------------------------------------------------------------------- the table


def _print_table(data: dict[str, Any], rows: list[PlayerRow], fmt: Format) -> None:
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        players = data["players"]
        _write_csv(list(players[0]) if players else list(PlayerRow.__slots__), [list(p.values()) for p in players])
        return
    o = data["options"]
    out = _out()
    if not rows:
        out.print("No finished game matches these filters.", style="yellow")
        return
    contest = "each finished game one contest" if o["per"] == "game" else "each finished match one contest, by totals"
    shown = ", ".join(f"{k} {v}" for k, v in o.items() if v is not None and k in ("edition", "players", "since", "until"))
    head = (
        f"Ratings of {plural(len(rows), 'player')} after {plural(data['contests'], o['per'], 'matches' if o['per'] == 'match' else None)} "
        f"({o['model']}, {contest}; {data['source']})" + (f"  [{shown}]" if shown else "")
    )
    change = f"Δ {o['days']} d"
    t = _table(head)
    played = "games" if o["per"] == "game" else "matches"
    for col in ("#", "player", "rating", "±", played, "wins", "last played", change):
        t.add_column(col, justify="left" if col in ("player", "last played") else "right", no_wrap=True)
    for r in rows:
        t.add_row(
            str(r.rank), Text(one_line(r.player)), _rating(r.rating, r.provisional), f"{r.uncertainty:.0f}",
            str(r.games), str(r.wins), _iso(r.last_played), _signed(r.change),
        )
    out.print(t)
    since = f"; Δ: the rating's change since {data['change_since']}" if data["change_since"] else ""
    notes = [SCALE_TEXT + since, CAUTIOUS_TEXT]
    if any(r.provisional for r in rows):
        notes.append(PROVISIONAL_TEXT)
    out.print(Text(".\n".join(notes) + ".", style="dim"))


# --------------------------------------------------------------------------- history


def _history_json(rows: list[HistoryRow], start: float) -> list[dict[str, Any]]:
    """Each row as JSON; ``change`` from the rating before it (``start`` before the first)."""
    out = []
    prev = start
    for r in rows:
        now = displayed(r.mu)
        out.append(
            {
                "position": r.position, "date": None if r.date is None else r.date.isoformat(), "match_id": r.match_id,
                "game": r.game, "players": r.n_players, "score": r.score, "rank": r.rank, "rating": now,
                "uncertainty": uncertainty(r.sigma), "mu": r.mu, "sigma": r.sigma, "change": now - prev,
            }
        )
        prev = now
    return out


def _short_id(match_id: str, date: str | None) -> str:
    """A match id as the history table shows it: ``kitchen`` for ``2026-11-29-kitchen`` beside its date."""
    if date and match_id.startswith(date + "-") and len(match_id) > len(date) + 1:
        return match_id[len(date) + 1:]
    return match_id


def _print_history(player: str, rows: list[HistoryRow], fmt: Format, model: str) -> None:
    data = _history_json(rows, displayed(make_model(model).rating().mu))
    if fmt is Format.json:
        emit_json({"player": player, "history": data})
        return
    if fmt is Format.csv:
        _write_csv(list(data[0]), [list(d.values()) for d in data])
        return
    t = _table(f"Rating of {one_line(player)} after each of {plural(len(rows), 'contest')}")
    # One line a contest at any width (issue 30): every column keeps its width, and a match id longer than
    # its column is cut with "…" rather than folded onto a second line (csv and --json give it whole).
    cells = [
        [str(n), d["date"] or "–", one_line(_short_id(d["match_id"], d["date"])), str(d["game"] or "–"),
         f"{d['rank']}/{d['players']}",
         str(d["score"]), f"{d['rating']:.0f}", f"{d['uncertainty']:.0f}", _signed(d["change"])]
        for n, d in enumerate(data, 1)
    ]
    columns = ("#", "date", "match", "game", "rank", "score", "rating", "±", "Δ")
    widths = [max([len(c), *(len(row[i]) for row in cells)]) for i, c in enumerate(columns)]
    out = _out()
    # the match column gets what the others leave (each column: a space a side and one between)
    room = out.width - sum(w for i, w in enumerate(widths) if i != 2) - 3 * len(columns)
    for i, col in enumerate(columns):
        if col == "match":
            t.add_column(col, justify="left", no_wrap=True, overflow="ellipsis", width=max(8, min(widths[i], room)))
        else:
            t.add_column(col, justify="left" if col == "date" else "right", no_wrap=True, width=widths[i])
    for row in cells:
        t.add_row(*row[:2], Text(row[2]), *row[3:])
    out.print(t)
    _out().print(Text(f"#: the player's contests, counted from 1 in the order they were rated; rank: of how many; "
                      f"a match id without the date it starts with, cut with … where long (--format csv and --json give it whole).\n{SCALE_TEXT}.", style="dim"))


# --------------------------------------------------------------------------- predictions


def _print_predictions(table: list[Prediction], fmt: Format) -> None:
    data = [p.as_json() for p in table]
    if fmt is Format.json:
        emit_json({"table": data})
        return
    if fmt is Format.csv:
        _write_csv(list(data[0]), [list(d.values()) for d in data])
        return
    t = _table("Chances at this table (a game; the chances add up to 100%)")
    for col in ("player", "rating", "±", "wins", "expected rank"):
        t.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for p in table:
        name = Text(one_line(p.player))
        if not p.known:
            name.append(" (no rated game)", style="dim")
        t.add_row(name, f"{p.rating:.0f}", f"{uncertainty(p.sigma):.0f}", f"{100 * p.win:.1f}%", f"{p.expected_rank:.2f}")
    _out().print(t)
    _out().print(Text(
        f"{SCALE_TEXT}. A player with no rated game plays at {BASE:g} ± {uncertainty(make_model(DEFAULT_MODEL).rating().sigma):.0f}: "
        "the wide band, not a weak player.", style="dim"))


# --------------------------------------------------------------------------- backtest


def _print_backtest(data: dict[str, Any], fmt: Format) -> None:
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        _write_csv(["predictor", "games", "log_loss", "top1_accuracy"],
                   [[p["predictor"], data["games"], p["log_loss"], p["top1_accuracy"]] for p in data["predictors"]])
        return
    out = _out()
    if not data["games"]:
        out.print("No finished game matches these filters.", style="yellow")
        return
    t = _table(f"Backtest: {plural(data['games'], 'contest')}, each predicted from the ratings before it")
    for col in ("predictor", "log-loss", "top-1 accuracy"):
        t.add_column(col, justify="left" if col == "predictor" else "right", no_wrap=True)
    names = {
        "ratings": "ratings (Plackett–Luce chance)",
        "predict_win": "ratings (openskill predict_win)",
        "equal": "everyone equal",
        "win_rate": "past win rate",
    }
    for p in data["predictors"]:
        t.add_row(names[p["predictor"]], f"{p['log_loss']:.4f}", f"{100 * p['top1_accuracy']:.1f}%")
    out.print(t)
    for c in data["comparisons"]:
        loss, top = c["log_loss"], c["top1_accuracy"]
        out.print(Text(
            f"Against {names[c['baseline']]}: the ratings' log-loss is {loss['verdict']} "
            f"({loss['difference']:+.4f} ± {loss['se']:.4f} a game), their top-1 accuracy {top['verdict']} "
            f"({100 * top['difference']:+.1f} ± {100 * top['se']:.1f} points)."
        ))
    verdict = "beat both baselines" if data["ratings_beat_both"] else "do NOT beat both baselines beyond the noise"
    out.print(Text(f"The ratings {verdict}.", style="bold"))
    out.print(Text(
        "log-loss: −ln(chance given to the winner), lower is better; top-1: the favourite won. "
        "± one standard error of the game-by-game difference; lower or higher only beyond two of them, "
        "else the same.", style="dim"))
    cal = data["calibration"]
    c = _table("Calibration: the ratings' chance of winning against how often it happened")
    for col in ("chance given", "predictions", "mean chance", "won", "gap"):
        c.add_column(col, justify="right", no_wrap=True)
    for b in cal["bins"]:
        c.add_row(
            f"{100 * b['from']:.0f}–{100 * b['to']:.0f}%", str(b["predictions"]), f"{100 * b['predicted']:.1f}%",
            f"{100 * b['won']:.1f}%", f"{100 * b['gap']:+.1f} ± {100 * b['se']:.1f}",
        )
    out.print(c)
    out.print(Text(_calibration_summary(cal), style="bold"))
    out.print(Text(
        f"Expected calibration error {100 * cal['expected_calibration_error']:.1f} points (each tenth's gap "
        "|won − mean chance|, weighted by its predictions). Every player of every game is one prediction; a "
        "shared first place counts 1/k of a win. ± is the tenth's own sampling noise: how far the share won "
        "strays from the chances by luck alone when the chances are right.", style="dim"))


def _calibration_summary(cal: dict[str, Any]) -> str:
    """The worst tenth against the target and against its noise, in one sentence."""
    at_least, target = cal["worst_gap_min_predictions"], 100 * cal["target"]
    worst = cal["worst_gap"]
    if worst is None:
        return f"Calibration: no tenth holds {at_least} predictions yet."
    text = (f"Calibration: the largest gap in a tenth of at least {at_least} predictions is {100 * worst:.1f} "
            f"points, {cal['verdict']}")
    if cal["verdict"] == "within the target":
        return text + f" of {target:.0f}."
    return (text + f" (the target is {target:.0f}): chances exactly right would miss by as much "
            f"{100 * cal['worst_gap_by_chance']:.0f}% of the time on these games, and miss the target "
            f"{100 * cal['target_missed_by_chance']:.0f}% of the time.")


# --------------------------------------------------------------------------- picture


def _draw(store: MatchStore, options: Options, top: int, png: Path) -> None:
    _source, best, history = plot_series(store, options, top)
    # Days on the time axis wherever a game is dated; the undated games (rated first) in a panel of their
    # own, by their place in the rating order, so that they never squeeze the dated season (issue 30).
    dated = any(r.date is not None for r in history)
    series: list[Series] = []
    undated: list[Series] = []
    for p in best:
        mine = [r for r in history if r.player == p.player]
        for part, rows in ((series, [r for r in mine if (r.date is not None) == dated]),
                           (undated, [r for r in mine if r.date is None] if dated else [])):
            if not rows:
                continue
            band = [uncertainty(r.sigma) for r in rows]
            mean = [displayed(r.mu) for r in rows]
            part.append(Series(p.player, [r.date if r.date is not None else r.position for r in rows], mean,
                               [m - b for m, b in zip(mean, band)], [m + b for m, b in zip(mean, band)]))
    drawn = len({s.name for s in (*series, *undated)})
    title = f"Ratings of the top {plural(drawn, 'player')} ({options.model}, per {options.per})"
    try:
        data = ratings_png(series, title=title, xlabel="day" if dated else "contest, in rating order",
                           undated=undated)
    except PlotUnavailable as e:
        fail(str(e), ExitCode.USAGE)
    try:
        atomic_write_bytes(png, data)
    except OSError as e:
        fail(write_problem(png, e), ExitCode.UNREADABLE)
    _err().print(f"{one_line(str(png))}: ratings of {plural(drawn, 'player')} drawn", style="dim", markup=False)

