"""``stats`` for people: each report of ``db.queries.stats.REPORTS`` drawn by its renderer, with rich.

:data:`RENDERERS` maps a report's name to the function that prints it; a
new report is one entry here (and its query in ``db/queries/stats.py``). Every name
read from the database goes through :func:`one_line` and is never read as
markup. :func:`csv_rows` flattens one report into CSV rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.errors import one_line
from .terminal import card_text

__all__ = ["RENDERERS", "csv_rows", "render_stats"]

Renderer = Callable[[Console, dict[str, Any]], None]


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _name(text: str) -> Text:
    """A name from the database as a table cell: control characters escaped, never markup."""
    return Text(one_line(text))


def render_stats(console: Console, data: dict[str, Any], only: str | None = None) -> None:
    """Every report of ``data`` (or only the one named), in the order of :data:`RENDERERS`."""
    if only in (None, "summary"):
        RENDERERS["summary"](console, data)
    if not data["summary"]["games"]:
        console.print("No complete game matches these filters.", style="yellow")
        return
    for name, render in RENDERERS.items():
        if name != "summary" and only in (None, name):
            render(console, data)


def _summary(out: Console, data: dict[str, Any]) -> None:
    s = data["summary"]
    f = data["filters"]
    shown = ", ".join(f"{k} {v}" for k, v in f.items() if v is not None)
    dates = f", {s['first_date']} to {s['last_date']}" if s["first_date"] else ""
    out.print(
        Text(
            one_line(
                f"{plural(s['matches'], 'match', 'matches')} ({s['complete_matches']} complete), "
                f"{plural(s['games'], 'complete game')}, {plural(s['players'], 'player')}{dates}"
                + (f"  [{shown}]" if shown else "")
            ),
            style="bold",
        )
    )


def _players(out: Console, data: dict[str, Any]) -> None:
    t = _table("Players: games won (a shared win counts as a win) and win rate with its 95% interval")
    for col in ("player", "games", "wins", "shared", "win rate", "95% interval", "avg rank"):
        t.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for p in data["players"]:
        r = p["win_rate"]
        t.add_row(
            _name(p["player"]), str(p["games"]), str(p["wins"]), str(p["shared_wins"]), _pct(r["rate"]), _interval(r),
            _num(p["avg_rank"], 2),
        )
    out.print(t)
    t = _table("Players: scores per game, and matches (won of those finished)")
    for col in ("player", "avg score", "best", "worst", "matches", "finished", "won"):
        t.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for p in data["players"]:
        t.add_row(
            _name(p["player"]), _num(p["avg_score"]), _opt(p["best_score"]), _opt(p["worst_score"]), str(p["matches"]),
            str(p["complete_matches"]), str(p["match_wins"]),
        )
    out.print(t)


def _seats(out: Console, data: dict[str, Any]) -> None:
    out.print(_advantage_table(data["seats"], "seat", "Win rate by seat (seat 1 is the first name of the players list)", 1))
    out.print(_bars_by_seat(data["seats"]))
    kept = [r for r in data["seats"] if r["most_often"]["share"] >= KEPT_SEAT]
    if kept:
        which = "; ".join(f"seat {r['seat'] + 1} of {r['players']}-player games: {_name(r['most_often']['player'])} "
                          f"in {_pct(r['most_often']['share'])}" for r in kept)
        out.print(Text(f"These seats were held by one player nearly always ({which}): their win rates measure "
                       "that player, not the seat. Bots of simulate keep their seats unless it runs with "
                       "--rotate-seats.", style="dim"))


#: A seat held by one player in at least this share of its games is said to measure that player.
KEPT_SEAT = 0.9


def _turns(out: Console, data: dict[str, Any]) -> None:
    out.print(_advantage_table(data["turns"], "turn", "First-player advantage (turn 1 starts the game)"))


#: Head-to-head pairs shown in the table (--format json lists them all).
PAIRS_SHOWN = 20


def _head_to_head(out: Console, data: dict[str, Any]) -> None:
    rows = data["head_to_head"]
    t = _table("Head to head: games played together, who scored more")
    for col in ("player", "opponent", "games", "wins", "losses", "ties"):
        t.add_column(col, justify="left" if col in ("player", "opponent") else "right")
    for r in rows[:PAIRS_SHOWN]:
        t.add_row(
            _name(r["player"]), _name(r["opponent"]), str(r["games"]), str(r["wins"]), str(r["losses"]), str(r["ties"])
        )
    out.print(t)
    if len(rows) > PAIRS_SHOWN:
        out.print(f"… {len(rows) - PAIRS_SHOWN} more pairs (--format json lists them all)", style="dim")


def _colours(out: Console, data: dict[str, Any]) -> None:
    t = _table("Colours, per player and game where the colour is in play")
    for col in ("colour", "in play", "collected", "positive", "avg points", "avg when collected"):
        t.add_column(col, justify="left" if col == "colour" else "right")
    for c in data["colours"]:
        t.add_row(
            card_text(c["colour"], long=True), str(c["in_play"]), _pct(c["collected_rate"]),
            _pct(c["positive_rate"]), _num(c["avg_points"], 2), _num(c["avg_points_collected"], 2),
        )
    out.print(t)


def _specials(out: Console, data: dict[str, Any]) -> None:
    t = _table('Jokers and "+2" cards held, on average')
    for col in ("group", "player-games", "jokers", "golden", '"+2"', "avg score"):
        t.add_column(col, justify="left" if col == "group" else "right")
    for r in data["specials"]:
        t.add_row(
            r["group"], str(r["player_games"]), _num(r["avg_jokers"], 2), _num(r["avg_golden_jokers"], 2),
            _num(r["avg_plus2"], 2), _num(r["avg_score"]),
        )
    out.print(t)


def _length(out: Console, data: dict[str, Any]) -> None:
    t = _table("Game length")
    for col in ("players", "games", "rounds avg", "min", "max", "moves avg", "min", "max"):
        t.add_column(col, justify="right")
    for r in data["length"]:
        t.add_row(
            str(r["players"]), str(r["games"]), _num(r["avg_rounds"]), str(r["min_rounds"]), str(r["max_rounds"]),
            _num(r["avg_moves"]), str(r["min_moves"]), str(r["max_moves"]),
        )
    out.print(t)


def _claims(out: Console, data: dict[str, Any]) -> None:
    c = data["claims"]
    text = (
        f"Claims: {c['checked']} checked of {c['player_games']} player-games, {c['wrong']} wrong "
        f"({_rate_text(c['wrong_rate'])}); claimed scores: {c['score_claims']}, {c['wrong_scores']} not the optimum."
    )
    out.print(Text(text, style="bold"))
    wrong = [f"{k} {v}" for k, v in c["by_verdict"].items() if v and k != "agrees"]
    if wrong:
        out.print("  " + ", ".join(wrong))


def _histogram(out: Console, data: dict[str, Any]) -> None:
    out.print(_histogram_bars(data["histogram"]))


def _months(out: Console, data: dict[str, Any]) -> None:
    t = _table("Matches a month (dated matches)")
    for col in ("month", "matches", "finished games"):
        t.add_column(col, justify="left" if col == "month" else "right")
    for r in data["months"]:
        t.add_row(r["month"], str(r["matches"]), str(r["games"]))
    out.print(t)


def _form(out: Console, data: dict[str, Any]) -> None:
    t = _table("Recent form: places in the last 10 finished games (oldest first), and runs of wins")
    for col in ("player", "games", "last places", "wins", "longest run", "current run"):
        t.add_column(col, justify="left" if col in ("player", "last places") else "right", no_wrap=col == "last places")
    for r in data["form"]:
        t.add_row(_name(r["player"]), str(r["games"]), " ".join(map(str, r["last"])), str(r["last_wins"]),
                  str(r["longest_streak"]), str(r["current_streak"]))
    out.print(t)


def _rivals(out: Console, data: dict[str, Any]) -> None:
    t = _table("Nemesis (most often finished above the player) and victim (most often finished below)")
    for col in ("player", "nemesis", "above", "victim", "below"):
        t.add_column(col, justify="left" if col in ("player", "nemesis", "victim") else "right")
    for r in data["rivals"]:
        t.add_row(
            _name(r["player"]), _name(r["nemesis"] or "–"), f"{r['nemesis_above']} of {r['nemesis_games']}",
            _name(r["victim"] or "–"), f"{r['victim_below']} of {r['victim_games']}",
        )
    out.print(t)


#: Each report's renderer, by the report's name, in output order (``db.queries.stats.REPORTS`` has the same names).
RENDERERS: dict[str, Renderer] = {
    "summary": _summary,
    "players": _players,
    "seats": _seats,
    "turns": _turns,
    "head_to_head": _head_to_head,
    "colours": _colours,
    "specials": _specials,
    "length": _length,
    "claims": _claims,
    "histogram": _histogram,
    "months": _months,
    "form": _form,
    "rivals": _rivals,
}


# ---- cells

def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _rate_text(r: dict[str, Any]) -> str:
    if r["rate"] is None:
        return "–"
    return f"{_pct(r['rate'])} [{_pct(r['low'])}–{_pct(r['high'])}]"


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, title_style="bold")


def _interval(r: dict[str, Any]) -> str:
    return "–" if r["rate"] is None else f"{_pct(r['low'])}–{_pct(r['high'])}"


def _opt(x: Any) -> str:
    return "–" if x is None else str(x)


def _advantage_table(rows: list[dict[str, Any]], column: str, title: str, shift: int = 0) -> Table:
    """``shift``: added to the ``column`` value shown, so that a person counts from 1."""
    t = _table(title)
    for col in ("players", column, "games", "wins", "win rate", "95% interval", "expected"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(
            str(r["players"]), str(r[column] + shift), str(r["games"]), str(r["wins"]), _pct(r["win_rate"]["rate"]),
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
        out.append(f"{r['players']}p seat {r['seat'] + 1} ")  # people count seats from 1
        out.append("".join(bar), style="green")
        out.append(f" {_rate_text(r['win_rate'])} of {r['games']}\n")
    return out




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
        elif isinstance(v, list):
            out[k] = " ".join(map(str, v))
        else:
            out[k] = v
    return out


def csv_rows(data: dict[str, Any], section: str) -> list[dict[str, Any]]:
    """One report as flat rows for a spreadsheet: seats count from 1 there, as in the tables (JSON keeps
    the database's index from 0)."""
    value = data[section]
    if section == "histogram":
        return [dict(b) for b in value["bins"]]
    if isinstance(value, list):
        rows = [_flat(r) for r in value]
        return [{**r, "seat": r["seat"] + 1} for r in rows] if section == "seats" else rows
    return [_flat(value)]


# ---- people


