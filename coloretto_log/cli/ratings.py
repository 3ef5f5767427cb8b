"""``ratings``: who is the strongest player, with openskill ratings from the stored games (docs/ratings.md)."""

from __future__ import annotations

import csv
import datetime as _dt
import enum
import io
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.cells import cell_len
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
from ..lang import DEFAULT, N_, Translator
from ..log.atomic import atomic_write_bytes, write_problem
from ..view.console import TrimmedConsole
from ..view.ratings_plot import PlotUnavailable, Series, ratings_png
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    LangOption,
    count_of_players,
    emit_json,
    fail,
    output_format,
    plural,
    terminal_translator,
)
from .database import check_output, db_path

#: The editions of the one table (core.editions), as choices.
Edition = enum.Enum("Edition", {name: name for name in edition_names()}, type=str)  # type: ignore[misc]


Model = enum.Enum("Model", {name: name for name in MODELS}, type=str)  # type: ignore[misc]


class Per(str, enum.Enum):
    game = "game"
    match = "match"


#: The scale's numbers as the notes write them (``1000``, ``40``, ``25``, ``2``, ``3``).
_BASE, _SCALE, _MU0, _BAND, _Z = (format(x, "g") for x in (BASE, SCALE, MU0, BAND, Z))


def _scale_text(tr: Translator) -> str:
    return tr.t("rating = {base} + {scale} × (μ − {mu0}), the skill estimate (a newcomer starts at {base}; the higher "
                "rating is the favourite); ± {band}σ on that scale holds the skill 95% of the time", base=_BASE,
                scale=_SCALE, mu0=_MU0, band=_BAND)  # fmt: skip


def _cautious_text(tr: Translator) -> str:
    return tr.t("--json and csv also give the cautious rating, {z}σ lower on that scale: the rating very likely "
                "reached (a newcomer's is 0)", z=_Z)


def _provisional_text(tr: Translator) -> str:
    return tr.nt("? provisional: fewer than {n} game, listed after the others",
                 "? provisional: fewer than {n} games, listed after the others", PROVISIONAL_GAMES)


def _pct(tr: Translator, x: float) -> str:
    """A share as a percentage with one decimal, the locale's way (``32.8%``, ``32,8 %``)."""
    return tr.t("{value}%", value=tr.decimal(f"{100 * x:.1f}"))


#: The filters as a heading names them, and where the figures came from.
FILTER_WORDS = {"edition": N_("edition {value}"), "players": N_("players {value}"), "since": N_("since {value}"),
                "until": N_("until {value}")}  # fmt: skip
SOURCE_WORDS = {"stored": N_("stored"), "computed": N_("computed")}


def _rating(rating: float, provisional: bool) -> str:
    return f"{rating:.0f}" + ("?" if provisional else "")


def _out() -> Console:
    """Standard output: footnotes wrapped at the width (80 columns piped, or COLUMNS), never one long line."""
    return TrimmedConsole(highlight=False, soft_wrap=False)


def _err() -> Console:
    return TrimmedConsole(stderr=True, highlight=False, soft_wrap=True)


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
    lang: LangOption = None,
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
    are computed from the games (a note says so). The tables are in the
    language of --lang (else the locale; English by default); json and csv
    stay English.

    Exit codes: 0 ok, 2 usage error (an unknown player for --history, an
    existing --png file without --force, --png without matplotlib), 3 a
    database that cannot be read or a file that cannot be written.

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log ratings --db club.duckdb --predict "Aiko,Boris,Chloe"
    """
    tr = terminal_translator(lang)
    chosen = [x for x in (history is not None, predict is not None, run_backtest) if x]
    if len(chosen) > 1:
        fail(tr.gettext("give at most one of --history, --predict and --backtest"), ExitCode.USAGE, tr=tr)
    chosen_format = output_format(fmt, json_out)
    # never the database it reads (it was replaced by the picture), nor a file without --force
    check_output(png, db_path(db), force=force, code=ExitCode.USAGE)
    if players is not None and not players.strip().isdigit():
        fail(tr.t("--players {given}: give the number of players with --player-count N", given=one_line(players)),
             ExitCode.USAGE, tr=tr)  # fmt: skip
    count = None if player_count is None and players is None else count_of_players(player_count, players, names_allowed=False)[0]
    if count is not None and not 2 <= count <= 5:
        fail(tr.t("--player-count {count}: a table has 2 to 5 players", count=count), ExitCode.USAGE, tr=tr)
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
                _note(source.note, tr)
                _print_history(history, rows, chosen_format, options.model, tr)
            elif predict is not None:
                names = [n.strip() for n in predict.split(",") if n.strip()]
                source, table = predict_table(store, options, names)
                _note(source.note, tr)
                _print_predictions(table, chosen_format, tr)
            elif run_backtest:
                _print_backtest(backtest(store, options).as_json(), chosen_format, tr)
            else:
                report = ratings_table(store, options)
                _note(report.source.note, tr)
                _print_table(report.as_json(), report.rows, chosen_format, tr)
            if png is not None:
                _draw(store, options, top, png, tr)
    except UsageError as e:
        fail(_usage_words(one_line(str(e)), tr), ExitCode.USAGE, tr=tr)
    except DatabaseError as e:
        fail(one_line(str(e)), ExitCode.UNREADABLE)


#: What the ratings' library says of a usage error, and how to say it again in another language.
USAGE_WORDS = (
    (re.compile(r"^no rated game of '(?P<player>.*)' \(names are exact; see the ratings table\)$"),
     N_("no rated game of {player} (names are exact; see the ratings table)")),
    (re.compile(r"^--predict needs at least 2 names, separated by commas$"),
     N_("--predict needs at least 2 names, separated by commas")),
    (re.compile(r"^--predict names '(?P<player>.*)' twice$"), N_("--predict names {player} twice")),
)


def _usage_words(message: str, tr: Translator) -> str:
    """``message`` (a usage error of the ratings' library) in ``tr``'s language where it is one of ``USAGE_WORDS``."""
    if tr.lang == DEFAULT:
        return message
    for pattern, words in USAGE_WORDS:
        m = pattern.match(message)
        if m:
            return tr.t(words, **m.groupdict())
    return message


def _note(note: str, tr: Translator) -> None:
    if note:
        said = one_line(note) if tr.lang == DEFAULT else tr.gettext("they are not up to date with the games")
        _err().print(tr.t("Note: stored ratings not used: {why}.", why=said), style="yellow", markup=False)


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)


def _write_csv(header: list[str], rows: list[list[Any]]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([["" if v is None else v for v in row] for row in rows])
    sys.stdout.write(buf.getvalue())


# --------------------------------------------------------------------------- the table


#: The models and the contests as a heading names them.
MODEL_WORDS = {"plackett-luce": N_("plackett-luce"), "bradley-terry-full": N_("bradley-terry-full"),
               "bradley-terry-part": N_("bradley-terry-part"), "thurstone-mosteller-full": N_("thurstone-mosteller-full"),
               "thurstone-mosteller-part": N_("thurstone-mosteller-part")}  # fmt: skip


def _model(tr: Translator, model: str) -> str:
    return tr.gettext(MODEL_WORDS.get(model, model))


def _print_table(data: dict[str, Any], rows: list[PlayerRow], fmt: Format, tr: Translator) -> None:
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
        out.print(tr.gettext("No finished game matches these filters."), style="yellow")
        return
    contest = (tr.gettext("each finished game one contest") if o["per"] == "game"
               else tr.gettext("each finished match one contest, by totals"))  # fmt: skip
    shown = tr.join(tr.t(FILTER_WORDS[k], value=v) for k, v in o.items()
                    if v is not None and k in ("edition", "players", "since", "until"))  # fmt: skip
    contests = (tr.nt("{n} game", "{n} games", data["contests"]) if o["per"] == "game"
                else tr.nt("{n} match", "{n} matches", data["contests"]))  # fmt: skip
    head = tr.t("Ratings of {players} after {contests} ({model}, {contest}; {source})",
                players=tr.nt("{n} player", "{n} players", len(rows)), contests=contests, model=_model(tr, o["model"]),
                contest=contest, source=tr.gettext(SOURCE_WORDS.get(data["source"], data["source"])))  # fmt: skip
    head += f"  [{shown}]" if shown else ""
    change = tr.t("Δ {days} d", days=o["days"])
    t = _table(head)
    played = N_("games") if o["per"] == "game" else N_("matches")
    for col in ("#", N_("player"), N_("rating"), "±", played, N_("wins"), N_("last played"), change):
        t.add_column(tr.gettext(col), justify="left" if col in ("player", "last played") else "right", no_wrap=True)
    for r in rows:
        t.add_row(
            str(r.rank), Text(one_line(r.player)), _rating(r.rating, r.provisional), f"{r.uncertainty:.0f}",
            str(r.games), str(r.wins), _iso(r.last_played), _signed(r.change),
        )
    out.print(t)
    since = tr.t("; Δ: the rating's change since {day}", day=data["change_since"]) if data["change_since"] else ""
    notes = [_scale_text(tr) + since, _cautious_text(tr)]
    if any(r.provisional for r in rows):
        notes.append(_provisional_text(tr))
    out.print(Text(tr.gettext(".\n").join(notes) + tr.gettext("."), style="dim"))


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


def _print_history(player: str, rows: list[HistoryRow], fmt: Format, model: str, tr: Translator) -> None:
    data = _history_json(rows, displayed(make_model(model).rating().mu))
    if fmt is Format.json:
        emit_json({"player": player, "history": data})
        return
    if fmt is Format.csv:
        _write_csv(list(data[0]), [list(d.values()) for d in data])
        return
    t = _table(tr.t("Rating of {player} after each of {contests}", player=one_line(player),
                    contests=tr.nt("{n} contest", "{n} contests", len(rows))))  # fmt: skip
    # One line a contest at any width (issue 30): every column keeps its width, and a match id longer than
    # its column is cut with "…" rather than folded onto a second line (csv and --json give it whole).
    cells = [
        [str(n), d["date"] or "–", one_line(_short_id(d["match_id"], d["date"])), str(d["game"] or "–"),
         f"{d['rank']}/{d['players']}",
         str(d["score"]), f"{d['rating']:.0f}", f"{d['uncertainty']:.0f}", _signed(d["change"])]
        for n, d in enumerate(data, 1)
    ]
    columns = ("#", N_("date"), N_("match"), N_("game"), N_("rank"), N_("score"), N_("rating"), "±", "Δ")
    heads = [tr.gettext(c) for c in columns]
    widths = [max([cell_len(heads[i]), *(len(row[i]) for row in cells)]) for i, c in enumerate(columns)]
    out = _out()
    # the match column gets what the others leave (each column: a space a side and one between)
    room = out.width - sum(w for i, w in enumerate(widths) if i != 2) - 3 * len(columns)
    for i, col in enumerate(columns):
        if col == "match":
            t.add_column(heads[i], justify="left", no_wrap=True, overflow="ellipsis", width=max(8, min(widths[i], room)))
        else:
            t.add_column(heads[i], justify="left" if col == "date" else "right", no_wrap=True, width=widths[i])
    for row in cells:
        t.add_row(*row[:2], Text(row[2]), *row[3:])
    out.print(t)
    _out().print(Text(tr.gettext("#: the player's contests, counted from 1 in the order they were rated; rank: of how "
                                 "many; a match id without the date it starts with, cut with … where long (--format "
                                 "csv and --json give it whole).") + "\n" + _scale_text(tr) + tr.gettext("."),
                      style="dim"))  # fmt: skip


# --------------------------------------------------------------------------- predictions


def _print_predictions(table: list[Prediction], fmt: Format, tr: Translator) -> None:
    data = [p.as_json() for p in table]
    if fmt is Format.json:
        emit_json({"table": data})
        return
    if fmt is Format.csv:
        _write_csv(list(data[0]), [list(d.values()) for d in data])
        return
    t = _table(tr.gettext("Chances at this table (a game; the chances add up to 100%)"))
    for col in (N_("player"), N_("rating"), "±", N_("wins"), N_("expected rank")):
        t.add_column(tr.gettext(col), justify="left" if col == "player" else "right", no_wrap=True)
    for p in table:
        name = Text(one_line(p.player))
        if not p.known:
            name.append(tr.gettext(" (no rated game)"), style="dim")
        t.add_row(name, f"{p.rating:.0f}", f"{uncertainty(p.sigma):.0f}", _pct(tr, p.win),
                  tr.decimal(f"{p.expected_rank:.2f}"))
    _out().print(t)
    band = format(uncertainty(make_model(DEFAULT_MODEL).rating().sigma), ".0f")
    _out().print(Text(_scale_text(tr) + tr.gettext(".") + " " + tr.t(
        "A player with no rated game plays at {base} ± {band}: the wide band, not a weak player.", base=_BASE,
        band=band), style="dim"))  # fmt: skip


# --------------------------------------------------------------------------- backtest


#: The verdicts of the backtest as its lines say them.
VERDICT_WORDS = {"lower": N_("lower"), "higher": N_("higher"), "the same": N_("the same"),
                 "within the target": N_("within the target"), "within the noise": N_("within the noise"),
                 "beyond the noise": N_("beyond the noise"), "too few predictions": N_("too few predictions")}  # fmt: skip
#: The predictors of the backtest.
PREDICTOR_WORDS = {
    "ratings": N_("ratings (Plackett–Luce chance)"),
    "predict_win": N_("ratings (openskill predict_win)"),
    "equal": N_("everyone equal"),
    "win_rate": N_("past win rate"),
}


def _print_backtest(data: dict[str, Any], fmt: Format, tr: Translator) -> None:
    if fmt is Format.json:
        emit_json(data)
        return
    if fmt is Format.csv:
        _write_csv(["predictor", "games", "log_loss", "top1_accuracy"],
                   [[p["predictor"], data["games"], p["log_loss"], p["top1_accuracy"]] for p in data["predictors"]])
        return
    out = _out()
    if not data["games"]:
        out.print(tr.gettext("No finished game matches these filters."), style="yellow")
        return
    t = _table(tr.t("Backtest: {contests}, each predicted from the ratings before it",
                    contests=tr.nt("{n} contest", "{n} contests", data["games"])))
    for col in (N_("predictor"), N_("log-loss"), N_("top-1 accuracy")):
        t.add_column(tr.gettext(col), justify="left" if col == "predictor" else "right", no_wrap=True)
    names = {key: tr.gettext(words) for key, words in PREDICTOR_WORDS.items()}
    verdicts = {key: tr.gettext(words) for key, words in VERDICT_WORDS.items()}
    for p in data["predictors"]:
        t.add_row(names[p["predictor"]], tr.decimal(f"{p['log_loss']:.4f}"), _pct(tr, p["top1_accuracy"]))
    out.print(t)
    for c in data["comparisons"]:
        loss, top = c["log_loss"], c["top1_accuracy"]
        out.print(Text(tr.t(
            "Against {baseline}: the ratings' log-loss is {loss} ({loss_difference} ± {loss_se} a game), their top-1 "
            "accuracy {top} ({top_difference} ± {top_se} points).", baseline=names[c["baseline"]],
            loss=verdicts.get(loss["verdict"], loss["verdict"]), loss_difference=tr.decimal(f"{loss['difference']:+.4f}"),
            loss_se=tr.decimal(f"{loss['se']:.4f}"), top=verdicts.get(top["verdict"], top["verdict"]),
            top_difference=tr.decimal(f"{100 * top['difference']:+.1f}"), top_se=tr.decimal(f"{100 * top['se']:.1f}"),
        )))  # fmt: skip
    verdict = (tr.gettext("The ratings beat both baselines.") if data["ratings_beat_both"]
               else tr.gettext("The ratings do NOT beat both baselines beyond the noise."))  # fmt: skip
    out.print(Text(verdict, style="bold"))
    out.print(Text(tr.gettext(
        "log-loss: −ln(chance given to the winner), lower is better; top-1: the favourite won. "
        "± one standard error of the game-by-game difference; lower or higher only beyond two of them, "
        "else the same."), style="dim"))
    cal = data["calibration"]
    c = _table(tr.gettext("Calibration: the ratings' chance of winning against how often it happened"))
    for col in (N_("chance given"), N_("predictions"), N_("mean chance"), "won", N_("gap")):
        head = col if tr.lang == DEFAULT else tr.gettext(N_("share won") if col == "won" else col)
        c.add_column(head, justify="right", no_wrap=True)
    for b in cal["bins"]:
        c.add_row(
            _span(tr, b["from"], b["to"]), str(b["predictions"]),
            _pct(tr, b["predicted"]), _pct(tr, b["won"]),
            tr.decimal(f"{100 * b['gap']:+.1f}") + " ± " + tr.decimal(f"{100 * b['se']:.1f}"),
        )
    out.print(c)
    out.print(Text(_calibration_summary(cal, tr, verdicts), style="bold"))
    out.print(Text(tr.t(
        "Expected calibration error {error} points (each tenth's gap |won − mean chance|, weighted by its "
        "predictions). Every player of every game is one prediction; a shared first place counts 1/k of a win. ± is "
        "the tenth's own sampling noise: how far the share won strays from the chances by luck alone when the "
        "chances are right.", error=tr.decimal(f"{100 * cal['expected_calibration_error']:.1f}")), style="dim"))


def _calibration_summary(cal: dict[str, Any], tr: Translator, verdicts: dict[str, str]) -> str:
    """The worst tenth against the target and against its noise, in one sentence."""
    at_least, target = cal["worst_gap_min_predictions"], 100 * cal["target"]
    worst = cal["worst_gap"]
    if worst is None:
        return tr.t("Calibration: no tenth holds {n} predictions yet.", n=at_least)
    verdict = verdicts.get(cal["verdict"], cal["verdict"])
    gap = tr.decimal(f"{100 * worst:.1f}")
    aim = format(target, ".0f")
    if cal["verdict"] == "within the target":
        return tr.t("Calibration: the largest gap in a tenth of at least {n} predictions is {gap} points, {verdict} "
                    "of {target}.", n=at_least, gap=gap, verdict=verdict, target=aim)  # fmt: skip
    by_chance = _whole_pct(tr, cal["worst_gap_by_chance"])
    missed = _whole_pct(tr, cal["target_missed_by_chance"])
    return tr.t("Calibration: the largest gap in a tenth of at least {n} predictions is {gap} points, {verdict} (the "
                "target is {target}): chances exactly right would miss by as much {by_chance} of the time on these "
                "games, and miss the target {missed} of the time.", n=at_least, gap=gap, verdict=verdict,
                target=aim, by_chance=by_chance, missed=missed)  # fmt: skip


def _whole_pct(tr: Translator, x: float) -> str:
    return tr.t("{value}%", value=format(100 * x, ".0f"))


def _span(tr: Translator, low: float, high: float) -> str:
    """A tenth of the chances: ``20–30%``."""
    return tr.t("{value}%", value=format(100 * low, ".0f") + "–" + format(100 * high, ".0f"))


# --------------------------------------------------------------------------- picture


def _draw(store: MatchStore, options: Options, top: int, png: Path, tr: Translator) -> None:
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
    _err().print(tr.t("{file}: ratings of {players} drawn", file=one_line(str(png)),
                      players=tr.nt("{n} player", "{n} players", drawn)), style="dim", markup=False)  # fmt: skip

