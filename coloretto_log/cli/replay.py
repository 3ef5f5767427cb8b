"""``coloretto-log replay``: walk through a game move by move (terminal, JSON, HTML)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.cards import is_colour
from ..core.errors import Finding, one_line
from ..log.atomic import atomic_write_text
from ..log.load import Unreadable, load
from ..report.timeline import GameTimeline, MatchTimeline, Step, from_loaded, scores_line
from ..view.html import render_html
from ..view.terminal import card_text, collection_text
from .app import app
from .common import ExitCode, emit_json, exit_for, fail, plural


@app.command()
def replay(
    path: Annotated[
        str,
        typer.Argument(
            help="A log file (.json: one match; .jsonl: one match a line), a folder, or - for standard input.",
            show_default=False,
        ),
    ],
    game: Annotated[
        int | None,
        typer.Option("--game", "-g", help="Only game G of the match (from 1).", show_default=False),
    ] = None,
    move: Annotated[
        int | None,
        typer.Option(
            "--move",
            "-m",
            help="The table after move M (0: before the first move; default: the end).",
            show_default=False,
        ),
    ] = None,
    match: Annotated[
        int | None,
        typer.Option(
            "--match",
            help="Only the K-th match found under PATH (from 1), e.g. one line of a .jsonl file.",
            show_default=False,
        ),
    ] = None,
    moves: Annotated[
        bool,
        typer.Option(
            "--moves", help="Print the game as a narrative, one line a move, then the scores."
        ),
    ] = False,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print every state as JSON (the shape in docs/replay.md)."),
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Write a self-contained HTML viewer of the whole file to OUT.html.",
            metavar="OUT.html",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay a match log move by move: the table, a narrative, JSON or a web page.

    By default prints the table after move M of game G (default: the end of
    each game): every row, every collection, the score each player would have
    with the best assignment right now, the deck, the round and whose turn it
    is. A log with an error replays up to the first error in each game and
    shows where and why play broke off.

    Exit codes: 0 ok, 1 the log has an error (what could be replayed is still
    shown), 2 usage error (a game or move that does not exist), 3 a file that
    cannot be read.

    Example: coloretto-log replay kitchen.json --game 2 --moves
    """
    if moves and json_out:
        fail("--moves and --json cannot be used together", ExitCode.USAGE)
    for name, value in (("--game", game), ("--match", match)):
        if value is not None and value < 1:
            fail(f"{name} counts from 1", ExitCode.USAGE)
    if move is not None and move < 0:
        fail("--move must be 0 or more", ExitCode.USAGE)

    timelines: list[MatchTimeline] = []
    unreadable = False
    seen = 0  # matches read; with --match only that one is made into a timeline
    for item in load([path]):
        if isinstance(item, Unreadable):
            typer.secho(one_line(item.message), err=True, fg=typer.colors.RED)
            unreadable = True
            continue
        seen += 1
        if match is None or seen == match:
            timelines.append(from_loaded(item))
    if unreadable and not seen:
        raise typer.Exit(int(ExitCode.UNREADABLE))
    if match is not None and match > seen:
        fail(f"--match {match}: {path} holds {plural(seen, 'match', 'matches')}", ExitCode.USAGE)

    selected = [(t, _select(t, game, move)) for t in timelines]

    if html is not None:
        start = _html_start(game, move)
        try:
            atomic_write_text(html, render_html(timelines, title=path, start=start))
        except OSError as e:
            fail(f"cannot write {html}: {e.strerror or e}", ExitCode.UNREADABLE)
        n_games = sum(len(t.games) for t in timelines)
        typer.echo(f"wrote {html} ({plural(n_games, 'game')})", err=True)

    if json_out:
        emit_json({"matches": [_json(t, games, move) for t, games in selected]})
    elif moves:
        _print_narratives(selected, move)
    elif html is None:
        _print_tables(selected, move)

    exit_for(unreadable=bool(unreadable), invalid=any(not t.valid for t in timelines))


# --------------------------------------------------------------------------- selection


def _select(t: MatchTimeline, game: int | None, move: int | None) -> list[GameTimeline]:
    """The games asked for; usage errors for a game or move that does not exist."""
    if game is not None:
        if t.games and game > len(t.games):
            fail(f"--game {game}: {t.label} holds {plural(len(t.games), 'game')}", ExitCode.USAGE)
        games = [g for g in t.games if g.number == game]
    else:
        games = list(t.games)
    if move is not None:
        if game is None and len(games) > 1:
            fail(f"--move needs --game: {t.label} holds {len(games)} games", ExitCode.USAGE)
        for g in games:
            if g.steps and move > g.moves:
                fail(
                    f"--move {move}: game {g.number} of {t.label} has {plural(g.moves, 'move')} to replay",
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


# --------------------------------------------------------------------------- narrative


def _broke_off(f: Finding, label: str) -> str:
    if f.move is not None:
        return f"play broke off at move {f.move}: {f.line(label)}"
    return f.line(label)


def _print_narratives(
    selected: list[tuple[MatchTimeline, list[GameTimeline]]], move: int | None
) -> None:
    for m, (t, games) in enumerate(selected):
        if m:
            typer.echo()
        _match_header(t)
        for g in games:
            typer.secho(
                f"{t.label} · game {g.number}" + (" (seeded)" if g.seeded else ""), bold=True
            )
            width = len(str(g.moves))
            for step in g.steps[: None if move is None else move + 1]:
                typer.echo(f"{step.number:>{width}}. {step.narrative}")
            if move is not None and move < g.moves:
                continue
            _game_ending(t, g)
        _match_totals(t, shown=len(games) == len(t.games) and move is None)


def _match_header(t: MatchTimeline) -> None:
    err = t.match_error
    if err is not None:
        typer.secho(err.line(t.label), fg=typer.colors.RED)


def _game_ending(t: MatchTimeline, g: GameTimeline) -> None:
    final = g.final_scores
    if final is not None:
        typer.secho(f"final scores: {scores_line(t.players, final)}", bold=True)
    elif g.steps:
        last = g.steps[-1]
        now = tuple(a.score for a in last.scores)
        typer.echo(
            f"scores so far (best assignment now): {scores_line(t.players, now, final=False)}"
        )
    err = g.error
    if err is not None:
        typer.secho(_broke_off(err, t.label), fg=typer.colors.RED)
    for f in g.findings:
        if f.severity == "warning":
            typer.secho(f.line(t.label), fg=typer.colors.YELLOW)


def _match_totals(t: MatchTimeline, *, shown: bool) -> None:
    totals = t.totals()
    if not shown or totals is None or len(t.games) < 2:
        return
    scores, n = totals
    typer.secho(
        f"match totals after {plural(n, 'complete game')}: {scores_line(t.players, scores)}",
        bold=True,
    )


# --------------------------------------------------------------------------- table


def _print_tables(
    selected: list[tuple[MatchTimeline, list[GameTimeline]]], move: int | None
) -> None:
    console = Console(highlight=False, soft_wrap=False)
    for m, (t, games) in enumerate(selected):
        if m:
            console.print()
        _match_header(t)
        for g in games:
            step = _step_at(g, move)
            if step is None:
                console.print(Text(f"{t.label} · game {g.number}: nothing to replay", style="bold"))
            else:
                for part in _table_view(t, g, step):
                    console.print(part, soft_wrap=isinstance(part, Text))
            if move is None or move == g.moves:
                _game_ending(t, g)
            console.print()
        _match_totals(t, shown=len(games) == len(t.games) and move is None)


def _row_text(cards: tuple[str, ...]) -> Text:
    """A row's cards: colours by name, jokers and "+2" by their short labels."""
    if not cards:
        return Text("(empty)", style="dim")
    out = Text()
    for k, card in enumerate(cards):
        if k:
            out.append(" ")
        out.append_text(card_text(card, long=is_colour(card)))
    return out


def _table_view(t: MatchTimeline, g: GameTimeline, step: Step) -> list[Text | Table]:
    s = step.state
    players = t.players
    head = Text(f"{t.label} · game {g.number} · ", style="bold")
    head.append(
        "setup" if step.number == 0 else f"after move {step.number} of {g.moves}", style="bold"
    )
    head.append(f": {step.narrative}")
    status = Text(f"round {s.round}")
    if s.last_round:
        status.append(" · ")
        status.append("last round!", style="bold red")
    if s.over:
        status.append(" · game over")
    else:
        status.append(f" · {players[s.current]} to play")
    pending = ", the last-round card among them" if s.lr_pending else ""
    status.append(f" · {plural(s.cards_left, 'card')} left in the deck{pending}")

    rows = Table(title=None, show_edge=False, box=None, padding=(0, 1))
    rows.add_column("row", justify="right")
    rows.add_column("cards")
    rows.add_column("")
    for i, cards in enumerate(s.rows):
        if s.taken[i]:
            by = step.taken_by[i]
            rows.add_row(
                str(i + 1),
                Text("taken" + ("" if by is None else f" by {players[by]}"), style="dim"),
                "",
            )
        else:
            rows.add_row(str(i + 1), _row_text(cards), f"{len(cards)}/{s.limits[i]}")

    table = Table(show_edge=False, padding=(0, 1))
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("collection")
    with_jokers = any(a.jokers for a in step.scores)
    if with_jokers:
        table.add_column("jokers →")
    for seat, name in enumerate(players):
        a = step.scores[seat]
        mark = "▶ " if not s.over and seat == s.current else "  "
        who = Text(mark + name, style="bold" if mark.strip() else "")
        if s.done[seat] and not s.over:
            who.append(" ✓", style="dim")
        cells: list[Any] = [who, str(a.score), collection_text(s.collections[seat], s.colours)]
        if with_jokers:
            cells.append(", ".join(a.jokers))
        table.add_row(*cells)

    parts: list[Text | Table] = [head, status, Text("rows", style="bold"), rows]
    if any(s.discarded):
        parts.append(
            Text("discarded with leftover rows: ").append_text(
                collection_text(s.discarded, s.colours)
            )
        )
    parts += [
        Text("players (score: the best assignment now; ✓ took a row this round)", style="bold"),
        table,
    ]
    return parts
