"""``tables``: who sits at which table tonight, and who starts (docs/tournament.md, "Club nights")."""

from __future__ import annotations

import datetime as _dt
import importlib
import os
import re
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..club.split import pair_key
from ..core.errors import UsageError, one_line
from ..db.club.history import Tonight, tonight_tables
from ..db.errors import DatabaseError
from ..log.atomic import atomic_write_text, write_problem
from ..log.limits import MAX_EVENT_NAME
from .app import app
from .common import (
    ExitCode,
    Format,
    JsonOption,
    TableJsonOption,
    emit_json,
    fail,
    install_hint,
    output_format,
    print_wrapped,
)
from .database import DbOption, check_output, db_path, out_console


def parse_sizes(text: str) -> tuple[int, ...]:
    """``--sizes``: table sizes separated by commas, each 2 to 5 (usage error otherwise)."""
    try:
        sizes = tuple(sorted({int(s) for s in text.split(",") if s.strip()}))
    except ValueError:
        raise typer.BadParameter("table sizes are numbers separated by commas, e.g. 3,4,5", param_hint="--sizes") from None
    if not sizes or any(not 2 <= s <= 5 for s in sizes):
        raise typer.BadParameter("each table size is 2 to 5", param_hint="--sizes")
    return sizes


def parse_people(text: str) -> list[str]:
    """The people present: names separated by commas, spaces around a name dropped."""
    return [p.strip() for p in text.split(",") if p.strip()]


@app.command()
def tables(
    people: Annotated[str, typer.Argument(metavar="NAMES", help='The people present, separated by commas: "Aiko,Boris,Chloe".', show_default=False)],
    db: DbOption = None,
    sizes: Annotated[str, typer.Option(metavar="SIZES", help="Table sizes allowed, separated by commas; 4 is preferred. Add 2 to allow tables of two.")] = "3,4,5",
    evenings: Annotated[int, typer.Option(metavar="N", help="Weigh who met whom over the last N evenings in the database.")] = 4,
    mix: Annotated[bool, typer.Option("--mix", help="Give every table a mix of ratings (ratings from the database).")] = False,
    by_rating: Annotated[bool, typer.Option("--by-rating", help="Seat players of similar rating together.")] = False,
    seed: Annotated[int | None, typer.Option(metavar="N", help="Seed of the draw among equal splits and starters (default: today's date as YYYYMMDD).", show_default=False)] = None,
    event: Annotated[str | None, typer.Option(metavar="NAME", help='The evening\'s name in the page and the serve commands (default: "Club night DATE").', show_default=False)] = None,
    html: Annotated[Path | None, typer.Option(metavar="OUT.html", help="Also write a printable page: a card a table with the QR code of its serve page.", show_default=False)] = None,
    logs: Annotated[Path | None, typer.Option(metavar="DIR", help="With --html: the folder of the tables' logs (default: the page's folder).", show_default=False)] = None,
    host: Annotated[str | None, typer.Option(metavar="ADDRESS", help="With --html: the address phones reach this machine at (default: found from the network).", show_default=False)] = None,
    port: Annotated[int, typer.Option(metavar="N", help="With --html: the port of table 1's serve page; table k uses N+k-1.")] = 8801,
    force: Annotated[bool, typer.Option("--force", help="Replace the --html file if it exists.")] = False,
    fmt: TableJsonOption = None,
    json_out: JsonOption = False,
) -> None:
    """Split the people present into tables of 3 to 5 and name who starts at each.

    Tables of 4 are preferred (then as even as the count allows). Among the
    splits, the one that least repeats the meetings of the last --evenings
    evenings in the database is chosen; --mix gives every table a mix of
    ratings, --by-rating seats similar ratings together (a repeated meeting
    still costs as much as one rank of rating). At each table the player
    furthest below their share of starts (all history) starts. With --html,
    a printable page with one card a table: its players, the serve command
    that records it, and the QR code of that page. See docs/tournament.md.

    Exit codes: 0 ok, 2 usage error (fewer people than the smallest table, a
    name twice), 3 a database or page that cannot be read or written.

    Example: coloretto-log tables --db club.duckdb "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus"
    Example: coloretto-log tables --db club.duckdb "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus" --html tonight.html
    """
    chosen = output_format(fmt, json_out)
    if mix and by_rating:
        raise typer.BadParameter("give one of --mix and --by-rating", param_hint="--mix")
    if evenings < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--evenings")
    if not 1 <= port <= 65535:
        raise typer.BadParameter("must be 1 to 65535", param_hint="--port")
    names = parse_people(people)
    today = _dt.date.today()
    seed = int(today.strftime("%Y%m%d")) if seed is None else seed
    title = event if event is not None else f"Club night {today.isoformat()}"
    if not 1 <= len(title) <= MAX_EVENT_NAME:
        raise typer.BadParameter(f"the name must have 1 to {MAX_EVENT_NAME} characters", param_hint="--event")
    path = db_path(db)
    check_output(html, path, force=force)
    try:
        tonight = tonight_tables(path, names, sizes=parse_sizes(sizes), evenings=evenings,
                                 grouping="mix" if mix else "group" if by_rating else "none", seed=seed)  # fmt: skip
    except UsageError as e:
        fail(one_line(str(e)), ExitCode.USAGE)
    except DatabaseError as e:
        fail(one_line(str(e)), ExitCode.UNREADABLE)
    if html is not None:
        write_cards(html, tonight, title, logs if logs is not None else html.parent, host, port)
    if chosen is Format.json:
        emit_json(tonight_json(tonight, title))
    else:
        show(tonight, title, html)


def tonight_json(tonight: Tonight, title: str) -> dict[str, Any]:
    met = tonight.history.met
    return {
        "event": title,
        "seed": tonight.seed,
        "grouping": tonight.grouping,
        "evenings": [d.isoformat() for d in tonight.history.evenings],
        "repeated_pairs": tonight.repeats,
        "meetings_again": sum(met.get(pair_key(a, b), 0) for t in tonight.tables for j, a in enumerate(t) for b in t[j + 1 :]),
        "tables": [
            {
                "table": i,
                "players": list(table),
                "starter": table[0],
                "met_before": [[a, b] for j, a in enumerate(table) for b in table[j + 1 :] if met.get(pair_key(a, b))],
            }
            for i, table in enumerate(tonight.tables, 1)
        ],
    }


def show(tonight: Tonight, title: str, html: Path | None) -> None:
    console = out_console()
    grid = Table(title=Text(one_line(title)), show_header=True, header_style="bold")
    grid.add_column("table", justify="right")
    grid.add_column("starts")
    grid.add_column("then clockwise")
    for i, table in enumerate(tonight.tables, 1):
        grid.add_row(str(i), Text(one_line(table[0]), style="bold"), Text(", ".join(one_line(p) for p in table[1:])))
    console.print(grid)
    days = tonight.history.evenings
    weighed = f"the last {len(days)} evening{'s' if len(days) != 1 else ''} in the database" if days else "no earlier evening"
    print_wrapped(console, Text(f"Pairs that met again: {tonight.repeats} (weighing {weighed}); seed {tonight.seed}."))
    if html is not None:
        print_wrapped(console, Text(one_line(f"Printable page: {html}")), keep=[one_line(str(html))])


def write_cards(html: Path, tonight: Tonight, title: str, logs: Path, host: str | None, port: int) -> None:
    """The printable page (needs the serve extra: segno), atomically; the serve tokens kept beside the logs."""
    try:
        cards = importlib.import_module("coloretto_log.serve.table_cards")
        run = importlib.import_module("coloretto_log.serve.run")
    except ImportError as e:
        fail(f"--html needs {e.name}, which is not installed: {install_hint('serve', str(e.name))}", ExitCode.USAGE)
    if not logs.is_dir():
        fail(f"{logs}: no such folder (--logs)", ExitCode.UNREADABLE)
    where = host if host is not None else run.reachable_host()
    stem = "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-") or "table"
    made = []
    try:
        for i, table in enumerate(tonight.tables, 1):
            log = logs / f"{stem}-t{i}.json"
            command = shlex.join([
                "coloretto-log", "serve", str(log), "--players", ",".join(table), "--event", title,
                "--at-table", str(i), "--host", "0.0.0.0", "--port", str(port + i - 1),
            ])  # fmt: skip
            made.append(cards.table_card(i, table, log, command, where, port + i - 1))
        atomic_write_text(html, cards.cards_page(title, f"{len(tonight.tables)} tables; seed {tonight.seed}", made))
    except OSError as e:  # the page, or a table's serve token beside the logs: the page named, and the file
        failed = _target(e.filename) if e.filename and _target(e.filename) != html.name else None
        fail(write_problem(html, e, "write the page" + (f" (a table's serve token, {one_line(failed)})" if failed else "")),
             ExitCode.UNREADABLE)


def _target(filename: str | bytes | int) -> str:
    """The file an atomic write was writing: its name without the temporary file's dot and suffix."""
    name = Path(os.fsdecode(filename) if not isinstance(filename, int) else str(filename)).name
    found = re.fullmatch(r"\.(.+)\.tmp-[0-9a-f]{16}", name)
    return found.group(1) if found else name
