"""``coloretto-log simulate``: seeded matches between computer players, and how strong each bot is."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer
from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # imported where used: a run without a progress bar or csv never loads them
    from rich.progress import Progress
    from rich.table import Table

from ..bots.players import BOTS
from ..bots.simulate import Outcome, Plan, Tally, make_plan, run, speed_json
from ..core.editions import edition_choice
from ..core.errors import UsageError, one_line
from ..core.rng import MASK64
from ..log.atomic import MATCH_LOG, atomic_write_lines, output_problem, write_problem
from ..view.console import TrimmedConsole
from .app import app
from .common import (
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    count_of_players,
    day_option,
    emit_json,
    fail,
    output_format,
    plural,
    print_wrapped,
    processes,
)


def summary_table(tally: Tally) -> Table:
    """The strength report: one row per bot, best win rate first."""
    from rich import box
    from rich.table import Table

    table = Table(
        title="Bot strength: match wins",
        caption="×k: seats held; n: seat-matches; wins include shared ones; 95% CI: Wilson; pts: mean score",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for name in ("bot", "n", "wins", "shared", "win %", "95% CI", "pts/match", "pts/game"):
        table.add_column(name, justify="left" if name == "bot" else "right", no_wrap=True)
    for b, _ in tally.ranking():
        table.add_row(
            b.bot if b.seats == 1 else f"{b.bot} ×{b.seats}",
            str(b.entries),
            str(b.wins),
            str(b.shared),
            f"{100 * b.rate:.1f}",
            f"{100 * b.low:.1f}–{100 * b.high:.1f}",
            f"{b.mean_match:.1f}",
            f"{b.mean_game:.2f}",
        )
    return table


def write_csv(tally: Tally, file: TextIO) -> None:
    """The strength table for programs: one row per bot, best win rate first."""
    import csv

    out = csv.writer(file, lineterminator="\n")
    out.writerow(("bot", "seats", "n", "wins", "shared", "win_rate", "ci_low", "ci_high", "pts_match", "pts_game"))
    for b, _ in tally.ranking():
        out.writerow((b.bot, b.seats, b.entries, b.wins, b.shared, f"{b.rate:.4f}", f"{b.low:.4f}", f"{b.high:.4f}",
                      f"{b.mean_match:.2f}", f"{b.mean_game:.3f}"))


def speed_line(speed: dict[str, object]) -> str:
    """``1,905 games a second (0.84 s; greedy play on the fast path)``, from ``bots.simulate.speed_json``."""
    rate = speed["games_per_second"]
    said = "too quick to time" if rate is None else f"{rate:,.0f} games a second"
    path = speed["playouts"]
    where = "" if path is None else (
        "; greedy play on the fast path" if path == "fast" else f"; greedy play on the pure path: {speed['pure_because']}")
    return f"{said} ({speed['seconds']:.2f} s of wall-clock time{where})."


def ranking_lines(tally: Tally) -> list[str]:
    """``strong > greedy: the 95% intervals do not overlap`` for each pair of neighbours."""
    ranked = tally.ranking()
    out = []
    for (b, above), (nxt, _) in pairwise(ranked):
        if above:
            out.append(f"{b.bot} > {nxt.bot}: the 95% intervals do not overlap")
        else:
            out.append(f"{b.bot} vs {nxt.bot}: the 95% intervals overlap; more matches may tell them apart")
    return out


def _lines(outcomes: Iterator[Outcome], tally: Tally, progress: Progress | None, total: int) -> Iterator[str]:
    """The log lines, counting each outcome in ``tally`` and on the progress bar."""
    task = progress.add_task("simulating", total=total) if progress is not None else None
    for o in outcomes:
        tally.add(o)
        if progress is not None and task is not None:
            progress.advance(task)
        yield o.line


def _progress_bar(err: Console) -> Progress:
    """The progress bar on standard error (rich.progress loaded only when one is shown)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )


@app.command()
def simulate(
    matches: Annotated[int, typer.Option("--matches", "-n", metavar="N", help="Matches to play (1 or more).", show_default=False)],
    player_count: Annotated[
        int | None, typer.Option("--player-count", metavar="N", help="Players at the table, 2 to 5 (default 4).", show_default=False)
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", metavar="N", help="The same as --player-count (the old spelling).", show_default=False, hidden=True),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            metavar="BOTS",
            help=f"Bots by seat, comma-separated ({', '.join(BOTS)}), or one name for every seat. "
            "Default: strong,greedy,random,greedy,random cut to --player-count.",
            show_default=False,
        ),
    ] = None,
    edition: Annotated[str, typer.Option(metavar="EDITION", help=f"{edition_choice()}.")] = "classic",
    table: Annotated[str, typer.Option(metavar="TABLE", help="Scoring table: standard or alternative.")] = "standard",
    games: Annotated[int, typer.Option(metavar="N", help="Games per match, 1 to 100.")] = 4,
    seed: Annotated[
        int, typer.Option(metavar="N", help="Run seed, 0 <= seed < 2^64: each match gets its own seed from it (docs/simulate.md).")
    ] = 0,
    recorded: Annotated[
        bool,
        typer.Option("--recorded", help="Write every card and the setups, as a table records them (default: the seed and the decisions)."),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="PATH",
            help="Write the matches here (JSON Lines), atomically; default: standard output.", show_default=False,
        ),
    ] = None,
    first_match: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Number of the first match, from 1: a run split into parts gives the same matches as one run.",
        ),
    ] = 1,
    date: Annotated[
        str | None,
        typer.Option(
            "--date", metavar="DATE",
            help="Date the matches from this day (YYYY-MM-DD): match 1 of the run on DATE, then one match a day "
            "(see --per-day). Default: undated logs.",
            show_default=False,
        ),
    ] = None,
    per_day: Annotated[
        int, typer.Option("--per-day", metavar="N", help="With --date: matches dated the same day before the next day.")
    ] = 1,
    rotate_seats: Annotated[
        bool,
        typer.Option("--rotate-seats", help="Seat the bots in turn: match 2 moves each bot one seat on, and so on "
                     "(the log's players are in seat order). Without it each bot keeps its seat, and seat "
                     "statistics measure the bots."),
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file that simulate wrote (never a recorded log or a database).")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", metavar="N",
            help="Processes to use (0: one per core; never more than the cores). The output is the same for any value.",
        ),
    ] = 1,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    progress: Annotated[
        bool | None,
        typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: when stderr is a terminal).", show_default=False),
    ] = None,
) -> None:
    """Play seeded matches between computer players and write their logs, one match a line.

    Bots: random (uniform over legal actions), greedy (one step ahead by the best
    score), strong (rollouts over sampled unseen cards). Players are named after
    their bot and place in --bots (strong-1, greedy-2, ...), which is their seat unless
    --rotate-seats seats them in turn from match to match. The summary, the bots' win rates
    with 95% intervals and average scores, goes to stderr (to stdout with --out).

    The same --seed gives the same bytes whatever --jobs is; --first-match F -n N
    gives matches F to F+N-1 of that run (counting from 1), so a run can be split
    into files. --date D dates match 1 of the run D and each next match a day
    later (--per-day N: N matches a day), so a split run is dated as one run.
    --format json or csv: the summary for programs.

    Exit codes: 0 done, 2 usage error, 3 the output file cannot be written (or exists: --force).

    \b
    Example: coloretto-log simulate --matches 10 --bots strong,greedy,random,greedy --out sims.jsonl
    Example: coloretto-log simulate -n 10 --first-match 11 --out part2.jsonl
    Example: coloretto-log simulate -n 30 --date 2026-11-01 --out november.jsonl
    Example: coloretto-log simulate -n 30 --players 3 --rotate-seats --out fair-seats.jsonl
    """
    chosen = output_format(fmt, json_out)
    count, _ = count_of_players(4 if player_count is None and players is None else player_count, players, names_allowed=False)
    if matches < 1:
        fail(f"--matches must be 1 or more, not {matches}", ExitCode.USAGE)
    if jobs < 0:
        fail(f"--jobs must be 0 (one per core) or more, not {jobs}", ExitCode.USAGE)
    if not 1 <= first_match <= MASK64 + 1:
        fail(f"--first-match counts from 1 (the first match of the run), not {first_match}", ExitCode.USAGE)
    start_date = day_option(date, "--date")
    try:
        plan: Plan = make_plan(
            players=count,
            bots=None if bots is None else bots.split(","),
            edition=edition,
            table=table,
            games=games,
            seed=seed,
            recorded=recorded,
            date=start_date,
            per_day=per_day,
            rotate=rotate_seats,
        )
    except UsageError as e:
        fail(str(e), ExitCode.USAGE)
    try:
        plan.match_date(first_match - 1 + matches - 1)
    except OverflowError:
        fail(f"--date {date}: the last of these matches would be dated after the year 9999", ExitCode.USAGE)
    if out is not None:
        if out.is_dir():
            fail(f"{one_line(str(out))}: is a folder; --out needs a file name", ExitCode.UNREADABLE)
        if not out.parent.is_dir():
            fail(f"{one_line(str(out))}: no such folder {one_line(str(out.parent))}", ExitCode.UNREADABLE)
        problem = output_problem(out, inputs=[], force=force, writes=MATCH_LOG)  # a database never, even with --force
        if problem is not None:
            fail(problem, ExitCode.UNREADABLE)
    n_jobs = processes(jobs)

    # markup and emoji off: a path is printed as written ("x[bold]y/:smile:.jsonl" lost its "[bold]" and
    # became an emoji), and rich's emoji table is never loaded
    err = TrimmedConsole(stderr=True, highlight=False, markup=False, emoji=False)
    show = err.is_terminal if progress is None else progress
    bar = _progress_bar(err) if show else None
    tally = Tally(plan)
    started = time.perf_counter()
    with bar if bar is not None else contextlib.nullcontext():
        lines = _lines(run(plan, matches, jobs=n_jobs, start=first_match - 1), tally, bar, matches)
        if out is None:
            write = sys.stdout.write
            for line in lines:
                write(line + "\n")
            sys.stdout.flush()
        else:
            try:
                atomic_write_lines(out, lines)
            except OSError as e:
                fail(write_problem(out, e), ExitCode.UNREADABLE)
    speed = speed_json(plan, tally.games, time.perf_counter() - started)

    console = TrimmedConsole(highlight=False, markup=False, emoji=False) if out is not None else err
    if chosen is Format.json:
        emit_json(dict(tally.summary_json(), speed=speed), file=sys.stdout if out is not None else sys.stderr)
        return
    if chosen is Format.csv:
        write_csv(tally, sys.stdout if out is not None else sys.stderr)
        return
    where = f" to {out}" if out is not None else ""
    print_wrapped(console, Text(
        f"Simulated {plural(tally.matches, 'match', 'matches')} ({plural(tally.games, 'game')}), "
        f"{plan.form} form, seed {seed}{where}; {plural(tally.shared_matches, 'match', 'matches')} with a shared win."
    ), keep=[str(out)] if out is not None else ())
    print_wrapped(console, Text(speed_line(speed)))
    console.print(summary_table(tally))
    for line in ranking_lines(tally):
        console.print(line)
