"""The table ``replay`` prints after a move: rows, collections, scores, whose turn (rich renderables).

``table_view(timeline, game, step)`` returns the pieces to print, in order;
nothing here prints. Every text from the log (player names, the file's
label, the narrative) goes through ``terminal_text``: control characters and
lone surrogates escaped, and never read as markup (only ``rich.text.Text``
and cells built from it).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from ..core.cards import card_name, is_colour
from ..core.errors import one_line
from ..report.timeline import GameTimeline, MatchTimeline, Step
from .json_stream import escape_surrogates
from .terminal import card_text, collection_parts
from .wrap import fit, line_width, wrap

__all__ = ["row_text", "table_view", "terminal_text"]


def terminal_text(text: str) -> str:
    """Text from a log or a file name as a terminal may show it: control characters and lone surrogates escaped."""
    return escape_surrogates(one_line(text))


def _plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def row_text(cards: tuple[str, ...]) -> Text:
    """A row's cards: colours by name, jokers and "+2" by their short labels."""
    if not cards:
        return Text("(empty)", style="dim")
    out = Text()
    for k, card in enumerate(cards):
        if k:
            out.append(" ")
        out.append_text(card_text(card, long=is_colour(card)))
    return out


def table_view(t: MatchTimeline, g: GameTimeline, step: Step, width: int | None = None) -> list[Text | Table]:
    """The pieces, each line at most ``width`` cells (default: the output's width) where the names allow."""
    width = line_width() if width is None else width
    s = step.state
    players = tuple(terminal_text(p) for p in t.players)
    head = Text(f"{terminal_text(t.label)} · game {g.number} · ", style="bold")
    head.append(
        "setup" if step.number == 0 else f"after move {step.number} of {g.moves}", style="bold"
    )
    head.append(f": {terminal_text(step.narrative)}")
    status = Text(f"round {s.round}")
    if s.last_round:
        status.append(" · ")
        status.append("last round!", style="bold red")
    if s.over:
        status.append(" · game over")
    else:
        status.append(f" · {players[s.current]} to play")
    pending = ", the last-round card among them" if s.lr_pending else ""
    status.append(f" · {_plural(s.cards_left, 'card')} left in the deck{pending}")

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
            rows.add_row(str(i + 1), row_text(cards), f"{len(cards)}/{s.limits[i]}")

    table = Table(show_edge=False, padding=(0, 1))
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("collection")
    with_jokers = any(a.jokers for a in step.scores)
    if with_jokers:
        table.add_column("jokers →")
    rows_of: list[list[Any]] = []
    for seat, name in enumerate(players):
        a = step.scores[seat]
        mark = "▶ " if not s.over and seat == s.current else "  "
        who = Text(mark + name, style="bold" if mark.strip() else "")
        if s.done[seat] and not s.over:
            who.append(" ✓", style="dim")
        cells: list[Any] = [who, str(a.score), collection_parts(s.collections[seat], s.colours)]
        if with_jokers:
            cells.append(", ".join(a.jokers))
        rows_of.append(cells)
    # the collection column gets what the others leave (each column has a space either side, a rule between):
    # its cards are put on lines there, a card never cut from its count
    others = [max(cell_len(str(header)), *(cell_len(str(r[i])) for r in rows_of)) for i, header in
              [(0, "player"), (1, "score"), *([(3, "jokers →")] if with_jokers else [])]]  # fmt: skip
    room = max(cell_len("collection"), width - sum(w + 3 for w in others) - 2)
    for cells in rows_of:
        held = cells[2]
        cells[2] = Text("\n").join(fit("", held, room, sep=" ", indent=0)) if held else Text("(nothing yet)", style="dim")
        table.add_row(*cells)

    colours = [card_name(c) for c in s.colours]
    parts: list[Text | Table] = [*wrap(head, width, indent=2, keep=[terminal_text(t.label), *players, *colours]),
                                 *wrap(status, width, indent=2, keep=players), Text("rows", style="bold"), rows]
    if any(s.discarded):
        parts += fit("discarded with leftover rows: ", collection_parts(s.discarded, s.colours), width, sep=" ", indent=2)
    parts += [
        *wrap(Text("players (score: the best assignment now; ✓ took a row this round)", style="bold"), width, indent=2),
        table,
    ]
    return parts
