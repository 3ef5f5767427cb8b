"""``tournament``: a Swiss tournament for tables of 3 to 5, kept in the club's database (docs/tournament.md)."""

from __future__ import annotations

import csv
import enum
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..club.advice import recommend
from ..club.swiss import Standing, points_text
from ..core.errors import UsageError, one_line
from ..db.club import tournaments as tour_db
from ..db.errors import DatabaseError
from ..db.store import MatchStore
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    emit_json,
    fail,
    output_format,
    print_wrapped,
)
from .database import DbOption, db_path, out_console
from .tables import parse_people, parse_sizes

#: Seconds a writing action waits for another command on the database to finish (two tables' results typed in
#: at once take their turns); past it, the database is refused as in use.
WAIT = 30.0


class Action(str, enum.Enum):
    new = "new"
    pair = "pair"
    final = "final"
    result = "result"
    add = "add"
    standings = "standings"
    show = "show"


@app.command()
def tournament(
    action: Annotated[Action, typer.Argument(help="new, pair, final, result, add, standings or show.", show_default=False)],
    name: Annotated[str, typer.Argument(metavar="NAME", help="The tournament's name: the event name its logs carry.", show_default=False)],
    files: Annotated[list[Path] | None, typer.Argument(metavar="[LOGS]...", help="add: the tables' match logs.", show_default=False)] = None,
    db: DbOption = None,
    players: Annotated[str | None, typer.Option(metavar="NAMES", help="new: the players, separated by commas.", show_default=False)] = None,
    rounds: Annotated[int | None, typer.Option(metavar="N", help="new: rounds to play (default: as --hours advises, else 4).", show_default=False)] = None,
    hours: Annotated[float | None, typer.Option(metavar="H", help="new: the hours the event has; prints how many rounds and whether to hold a final (docs/tournament.md).", show_default=False)] = None,
    points: Annotated[str | None, typer.Option(metavar="POINTS", help="new: placing points, 4-2-1-0 for a table of four (three and five scaled), or per size: 3:3-1-0,4:4-2-1-0,5:5-3-2-1-0 (default 4-2-1-0).", show_default=False)] = None,
    sizes: Annotated[str, typer.Option(metavar="SIZES", help="new: table sizes allowed, separated by commas (4 preferred).")] = "3,4,5",
    first_round: Annotated[str, typer.Option(metavar="HOW", help="new: round 1 by rating (every table a mix of ratings) or random.")] = "rating",
    seed: Annotated[int, typer.Option(metavar="N", help="new: the seed of every draw.")] = 0,
    size: Annotated[int | None, typer.Option(metavar="N", help="final: the players at the final table (3 to 5).", show_default=False)] = None,
    rule: Annotated[str, typer.Option(metavar="RULE", help="final: how it ranks the finalists: decides (its result, then the Swiss standing) or adds (its placing points added to the Swiss ones).")] = "decides",
    round_: Annotated[int | None, typer.Option("--round", metavar="N", help="pair: the round expected (refused when it is paired already); result: the round.", show_default=False)] = None,
    at_table: Annotated[int | None, typer.Option(metavar="N", help="result: the table.", show_default=False)] = None,
    scores: Annotated[str | None, typer.Option(metavar="SCORES", help='result: each player\'s match total: "Aiko=31,Boris=24,Chloe=18".', show_default=False)] = None,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
) -> None:
    """Run a Swiss tournament for tables of 3 to 5: make it, pair rounds, take results, show standings.

    new NAME --players ... --rounds N: store the tournament in the database;
    with --hours H it says how many rounds fit and whether to hold a final
    (and plays that many rounds unless --rounds says).
    pair NAME: pair the next round (round 1 by rating or at random; later
    rounds by standing, avoiding rematches, balancing who starts). Record each
    table with record/serve --event NAME --round R --at-table T; then
    add NAME LOGS...: check the logs (this event, a paired table, its
    players, complete) and ingest them; or result NAME --round R --at-table T
    --scores "A=31,B=24,...": a table that did not record. final NAME --size
    N [--rule decides|adds]: after the last round, seat the top N (3 to 5) at
    a final table, round R+1; its result ranks the finalists (or its placing
    points are added to the Swiss ones), the Swiss standing the rest.
    standings NAME: placing points, then points against the table, then
    opponents' placing points (table, json or csv). show NAME: every round's
    tables and results. See docs/tournament.md.

    Exit codes: 0 ok, 2 usage error (nothing written: a name twice, fewer
    players than a table, a round paired twice, a result or log for a table
    not paired, a log of another event), 3 a database that cannot be read
    or written.

    Example: coloretto-log tournament new "Autumn open" --db club.duckdb --players "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus" --rounds 3
    Example: coloretto-log tournament new "Winter cup" --db club.duckdb --players "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus,Hana" --hours 3
    Example: coloretto-log tournament pair "Autumn open" --db club.duckdb
    Example: coloretto-log tournament final "Autumn open" --db club.duckdb --size 4   # after the last round; before it, exits 2
    Example: coloretto-log tournament standings "Autumn open" --db club.duckdb --format csv
    """
    chosen = output_format(fmt, json_out)
    path = db_path(db)
    try:
        if action is Action.new:
            if players is None:
                raise UsageError("new needs --players")
            if files:
                raise UsageError("new takes no log files")
            allowed = parse_sizes(sizes)
            people = parse_people(players)
            advice = None
            if hours is not None:
                try:
                    advice = recommend(len(people), hours)
                except ValueError as e:
                    raise UsageError(str(e)) from None
            chosen_rounds = rounds if rounds is not None else advice.rounds if advice is not None else 4
            made = tour_db.create(path, name, people, rounds=chosen_rounds, points=points, sizes=allowed,
                                  first_round=first_round, seed=seed)  # fmt: skip
            if advice is not None:
                print_wrapped(out_console(), Text(advice.text()))
            print_wrapped(out_console(), Text(one_line(
                f"Tournament {made.name!r}: {len(made.players)} players, {made.rounds} rounds, placing points "
                f"{points_text(made.points, made.sizes)}; stored in {path}. Next: tournament pair {made.name!r}"
            )), keep=[one_line(repr(made.name)), one_line(str(path)), f"tournament pair {one_line(repr(made.name))}"])  # fmt: skip
            return
        if not path.exists():
            raise DatabaseError(f"{path}: no such database (make the tournament with: tournament new)")
        if action is Action.pair:
            with MatchStore.open(path, wait=WAIT) as store:
                number, tables = tour_db.pair_next(store, name, round_)
            show_round(name, number, tables, chosen)
        elif action is Action.final:
            if size is None:
                raise UsageError("final needs --size (3 to 5 players)")
            with MatchStore.open(path) as store:
                number, table = tour_db.pair_final(store, name, size, rule)
            show_round(name, number, [table], chosen, final=True)
        elif action is Action.result:
            if round_ is None or at_table is None or scores is None:
                raise UsageError("result needs --round, --at-table and --scores")
            totals = parse_scores(scores)
            with MatchStore.open(path, wait=WAIT) as store:
                tour_db.enter_result(store, name, round_, at_table, totals)
            out_console().print(Text(one_line(f"{name}: round {round_}, table {at_table}: result stored.")))
        elif action is Action.add:
            if not files:
                raise UsageError("add needs the log files")
            with MatchStore.open(path, wait=WAIT) as store:
                found = tour_db.add_logs(store, name, files)
            for r, t, match_id in found:
                out_console().print(Text(one_line(f"{name}: round {r}, table {t}: {match_id}")))
        elif action is Action.standings:
            with MatchStore.open(path, read_only=True) as store:
                tour, lines = tour_db.tournament_standings(store, name)
            show_standings(tour, lines, chosen)
        else:
            with MatchStore.open(path, read_only=True) as store:
                tour = tour_db.load(store, name)
            show_tournament(tour, chosen)
    except UsageError as e:
        fail(one_line(str(e)), ExitCode.USAGE)
    except DatabaseError as e:
        fail(one_line(str(e)), ExitCode.UNREADABLE)


def parse_scores(text: str) -> dict[str, int]:
    """``--scores "Aiko=31,Boris=24"``: each player's match total (``UsageError`` otherwise)."""
    out: dict[str, int] = {}
    for part in text.split(","):
        who, sep, value = part.rpartition("=")
        who = who.strip()
        if not sep or not who:
            raise UsageError(f"--scores: {part.strip()!r} is not NAME=TOTAL")
        try:
            total = int(value.strip())
        except ValueError:
            raise UsageError(f"--scores: {value.strip()!r} is not a whole number") from None
        if who in out:
            raise UsageError(f"--scores names {who!r} twice")
        if abs(total) > 100_000:
            raise UsageError(f"--scores: {total} is not a match total")
        out[who] = total
    return out


def show_round(name: str, number: int, tables: list[tuple[str, ...]], chosen: Format, *, final: bool = False) -> None:
    if chosen is Format.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["round", "table", "seat", "player", "starts"])
        for t, p in enumerate(tables, 1):
            for seat, player in enumerate(p, 1):
                writer.writerow([number, t, seat, player, seat == 1])
        return
    if chosen is Format.json:
        emit_json({"tournament": name, "round": number, "final": final,
                   "tables": [{"table": t, "players": list(p), "starter": p[0]} for t, p in enumerate(tables, 1)]})  # fmt: skip
        return
    grid = Table(title=Text(one_line(f"{name}: {'the final table, ' if final else ''}round {number}")), header_style="bold")
    grid.add_column("table", justify="right")
    grid.add_column("starts")
    grid.add_column("then clockwise")
    for t, p in enumerate(tables, 1):
        grid.add_row(str(t), Text(one_line(p[0]), style="bold"), Text(", ".join(one_line(x) for x in p[1:])))
    console = out_console()
    console.print(grid)
    command = one_line(f'coloretto-log record FILE --event "{name}" --round {number} --at-table {1 if final else "N"}')
    print_wrapped(console, Text(f"Record {'the final' if final else 'each table'} with: {command}"), keep=[command])


def standing_json(s: Standing) -> dict[str, Any]:
    return {"place": s.place, "player": s.player, "points": s.points, "against": s.against,
            "opponents": s.opponents, "played": s.played, "final": s.final}  # fmt: skip


def show_standings(tour: tour_db.Tournament, lines: list[Standing], chosen: Format) -> None:
    if chosen is Format.json:
        emit_json({"tournament": tour.name, "rounds": tour.rounds, "paired": tour.paired,
                   "results": len(tour.results), "tie_breaks": ["points", "against", "opponents"],
                   "final": None if tour.final is None else list(tour.final), "final_rule": tour.final_rule,
                   "standings": [standing_json(s) for s in lines], "ignored": tour.ignored})  # fmt: skip
        return
    decided = tour.final_result is not None
    final_col = ["final"] if decided else []
    if chosen is Format.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["place", "player", *final_col, "points", "against", "opponents", "played"])
        for s in lines:
            cell: list[str | int] = ["" if s.final is None else s.final] if decided else []
            writer.writerow([s.place, s.player, *cell, _num(s.points), _num(s.against), _num(s.opponents), s.played])
        return
    paired = "the final table seated" if tour.final is not None else f"round {tour.paired} of {tour.rounds} paired"
    grid = Table(title=Text(one_line(f"{tour.name}: standings after {len(tour.results)} table results, {paired}")),
                 header_style="bold")  # fmt: skip
    for col in ("place", "player", *final_col, "points", "against", "opponents", "played"):
        grid.add_column(col, justify="left" if col == "player" else "right")
    for s in lines:
        final = ["-" if s.final is None else str(s.final)] if decided else []
        grid.add_row(str(s.place), Text(one_line(s.player)), *final, _num(s.points), _num(s.against), _num(s.opponents), str(s.played))
    console = out_console()
    console.print(grid)
    if decided and tour.final_rule == "adds":
        print_wrapped(console, Text("The finalists first, by their Swiss placing points plus the final's (a tie by the Swiss standing); then the Swiss standing."))
    elif decided:
        print_wrapped(console, Text("The finalists first, by their final's match total (a tie by the Swiss standing); then the Swiss standing."))
    print_wrapped(console, Text("Tie-breaks: placing points, then points against the table, then opponents' placing points."))
    for why in tour.ignored:
        print_wrapped(console, Text(one_line(f"Not counted: {why}"), style="yellow"))


def show_tournament(tour: tour_db.Tournament, chosen: Format) -> None:
    rounds: list[dict[str, Any]] = [
        {"round": r, "final": r > tour.rounds, "tables": [
            {"table": t, "players": list(p), "starter": p[0],
             "result": None if (r, t) not in tour.results else
             {"totals": tour.results[r, t].totals, "source": tour.results[r, t].source}}
            for t, p in enumerate(tour.tables[r], 1)
        ]}
        for r in sorted(tour.tables)
    ]  # fmt: skip
    if chosen is Format.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["round", "table", "seat", "player", "total", "source"])
        for rnd in rounds:
            for row in rnd["tables"]:
                res = row["result"]
                for seat, player in enumerate(row["players"], 1):
                    total = "" if res is None else res["totals"].get(player, "")
                    writer.writerow([rnd["round"], row["table"], seat, player, total, "" if res is None else res["source"]])
        return
    if chosen is Format.json:
        emit_json({"tournament": tour.name, "players": list(tour.players), "rounds": tour.rounds,
                   "points": points_text(tour.points, tour.sizes), "sizes": list(tour.sizes), "first_round": tour.first_round,
                   "seed": tour.seed, "final_rule": tour.final_rule, "paired": rounds, "ignored": tour.ignored})  # fmt: skip
        return
    console = out_console()
    print_wrapped(console, Text(one_line(f"{tour.name}: {len(tour.players)} players, {tour.rounds} rounds, "
                                         f"placing points {points_text(tour.points, tour.sizes)}")), keep=[one_line(tour.name)])  # fmt: skip
    for rnd in rounds:
        grid = Table(title=Text(f"{'the final table, ' if rnd['final'] else ''}round {rnd['round']}"), header_style="bold")
        grid.add_column("table", justify="right")
        grid.add_column("players (starter first)")
        grid.add_column("result")
        for row in rnd["tables"]:
            res = row["result"]
            said = "-" if res is None else ", ".join(f"{one_line(p)} {v}" for p, v in res["totals"].items()) + f" ({one_line(res['source'])})"
            grid.add_row(str(row["table"]), Text(", ".join(one_line(p) for p in row["players"])), Text(said))
        console.print(grid)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0")
