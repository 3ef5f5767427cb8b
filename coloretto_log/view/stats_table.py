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
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.cards import card_name
from ..core.errors import one_line
from ..lang import DEFAULT, ENGLISH, N_, Translator
from ..lang.games import edition_word
from .terminal import CARD_STYLES, card_text

__all__ = ["RENDERERS", "csv_rows", "render_stats"]

Renderer = Callable[[Console, dict[str, Any], Translator], None]


def _name(text: str) -> Text:
    """A name from the database as a table cell: control characters escaped, never markup."""
    return Text(one_line(text))


def render_stats(console: Console, data: dict[str, Any], only: str | None = None, tr: Translator = ENGLISH) -> None:
    """Every report of ``data`` (or only the one named), in the order of :data:`RENDERERS`, in ``tr``'s language
    (names from the database as they are)."""
    if only in (None, "summary"):
        RENDERERS["summary"](console, data, tr)
    if not data["summary"]["games"]:
        console.print(tr.gettext("No complete game matches these filters."), style="yellow")
        return
    for name, render in RENDERERS.items():
        if name != "summary" and only in (None, name):
            render(console, data, tr)


#: Each filter as the summary line names it.
FILTER_WORDS = {"player": N_("player {value}"), "since": N_("since {value}"), "until": N_("until {value}"),
                "edition": N_("edition {value}"), "players": N_("players {value}")}  # fmt: skip


def _filter(tr: Translator, key: str, value: Any) -> str:
    if key == "edition" and tr.lang != DEFAULT:
        return edition_word(str(value), tr)
    return tr.t(FILTER_WORDS.get(key, key + " {value}"), value=value)


def _summary(out: Console, data: dict[str, Any], tr: Translator) -> None:
    s = data["summary"]
    f = data["filters"]
    shown = tr.join(_filter(tr, k, v) for k, v in f.items() if v is not None)
    dates = tr.t(", {first} to {last}", first=s["first_date"], last=s["last_date"]) if s["first_date"] else ""
    text = tr.t("{matches} ({complete} complete), {games}, {players}{dates}",
                matches=tr.nt("{n} match", "{n} matches", s["matches"]), complete=s["complete_matches"],
                games=tr.nt("{n} complete game", "{n} complete games", s["games"]),
                players=tr.nt("{n} player", "{n} players", s["players"]), dates=dates)  # fmt: skip
    out.print(Text(one_line(text + (f"  [{shown}]" if shown else "")), style="bold"))


def _players(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Players: games won (a shared win counts as a win) and win rate with its 95% interval"))
    _columns(t, tr, (N_("player"), N_("games"), N_("wins"), N_("shared"), N_("win rate"), N_("95% interval"),
                     N_("avg rank")), left=1, no_wrap=True)  # fmt: skip
    for p in data["players"]:
        r = p["win_rate"]
        t.add_row(
            _name(p["player"]), str(p["games"]), str(p["wins"]), str(p["shared_wins"]), _pct(r["rate"], tr),
            _interval(r, tr), _num(p["avg_rank"], tr, 2),
        )
    out.print(t)
    t = _table(tr.gettext("Players: scores per game, and matches (won of those finished)"))
    _columns(t, tr, (N_("player"), N_("avg score"), N_("best"), N_("worst"), N_("matches"), N_("finished"), N_("won")),
             left=1, no_wrap=True)  # fmt: skip
    for p in data["players"]:
        t.add_row(
            _name(p["player"]), _num(p["avg_score"], tr), _opt(p["best_score"]), _opt(p["worst_score"]),
            str(p["matches"]), str(p["complete_matches"]), str(p["match_wins"]),
        )
    out.print(t)


def _seats(out: Console, data: dict[str, Any], tr: Translator) -> None:
    out.print(_advantage_table(data["seats"], "seat", tr.gettext("Win rate by seat (seat 1 is the first name of the "
                                                                 "players list)"), tr, 1))
    out.print(_bars_by_seat(data["seats"], tr))
    kept = [r for r in data["seats"] if r["most_often"]["share"] >= KEPT_SEAT]
    if kept:
        which = "; ".join(tr.t("seat {seat} of {players}-player games: {who} in {share}", seat=r["seat"] + 1,
                               players=r["players"], who=one_line(r["most_often"]["player"]),
                               share=_pct(r["most_often"]["share"], tr)) for r in kept)  # fmt: skip
        out.print(Text(tr.t("These seats were held by one player nearly always ({which}): their win rates measure "
                            "that player, not the seat. Bots of simulate keep their seats unless it runs with "
                            "--rotate-seats.", which=which), style="dim"))


#: A seat held by one player in at least this share of its games is said to measure that player.
KEPT_SEAT = 0.9


def _turns(out: Console, data: dict[str, Any], tr: Translator) -> None:
    out.print(_advantage_table(data["turns"], "turn", tr.gettext("First-player advantage (turn 1 starts the game)"), tr))


#: Head-to-head pairs shown in the table (--format json lists them all).
PAIRS_SHOWN = 20


def _head_to_head(out: Console, data: dict[str, Any], tr: Translator) -> None:
    rows = data["head_to_head"]
    t = _table(tr.gettext("Head to head: games played together, who scored more"))
    _columns(t, tr, (N_("player"), N_("opponent"), N_("games"), N_("wins"), N_("losses"), N_("ties")), left=2)
    for r in rows[:PAIRS_SHOWN]:
        t.add_row(
            _name(r["player"]), _name(r["opponent"]), str(r["games"]), str(r["wins"]), str(r["losses"]), str(r["ties"])
        )
    out.print(t)
    if len(rows) > PAIRS_SHOWN:
        out.print(tr.t("… {n} more pairs (--format json lists them all)", n=len(rows) - PAIRS_SHOWN), style="dim")


def _colour(colour: str, tr: Translator) -> Text:
    """A colour's chip by its name in ``tr``'s language (English: as ``view.terminal`` draws it)."""
    if tr.lang == DEFAULT:
        return card_text(colour, long=True)
    return Text(f" {tr.gettext(card_name(colour))} ", style=CARD_STYLES.get(colour, "reverse"))


def _colours(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Colours, per player and game where the colour is in play"))
    _columns(t, tr, (N_("colour"), N_("in play"), N_("collected"), N_("positive"), N_("avg points"),
                     N_("avg when collected")), left=1)  # fmt: skip
    for c in data["colours"]:
        t.add_row(
            _colour(c["colour"], tr), str(c["in_play"]), _pct(c["collected_rate"], tr),
            _pct(c["positive_rate"], tr), _num(c["avg_points"], tr, 2), _num(c["avg_points_collected"], tr, 2),
        )
    out.print(t)


#: The groups of the specials' report.
GROUP_WORDS = {"winners": N_("winners"), "others": N_("the other players")}


def _specials(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext('Jokers and "+2" cards held, on average'))
    _columns(t, tr, (N_("group"), N_("player-games"), N_("jokers"), N_("golden"), N_('"+2"'), N_("avg score")), left=1)
    for r in data["specials"]:
        t.add_row(
            r["group"] if tr.lang == DEFAULT else tr.gettext(GROUP_WORDS.get(r["group"], r["group"])), str(r["player_games"]), _num(r["avg_jokers"], tr, 2),
            _num(r["avg_golden_jokers"], tr, 2), _num(r["avg_plus2"], tr, 2), _num(r["avg_score"], tr),
        )
    out.print(t)


def _length(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Game length"))
    _columns(t, tr, (N_("players"), N_("games"), N_("rounds avg"), N_("min"), N_("max"), N_("moves avg"), N_("min"),
                     N_("max")), left=0)  # fmt: skip
    for r in data["length"]:
        t.add_row(
            str(r["players"]), str(r["games"]), _num(r["avg_rounds"], tr), str(r["min_rounds"]), str(r["max_rounds"]),
            _num(r["avg_moves"], tr), str(r["min_moves"]), str(r["max_moves"]),
        )
    out.print(t)


#: A written score's verdicts, as the claims' line counts them.
VERDICT_WORDS = {
    "over-claimed": N_("over-claimed"), "under-claimed": N_("under-claimed"), "illegal-choice": N_("illegal-choice"),
    "choice-below-optimum": N_("choice-below-optimum"), "choice-not-claimed": N_("choice-not-claimed"),
    "no-claim": N_("no-claim"),
}  # fmt: skip


def _claims(out: Console, data: dict[str, Any], tr: Translator) -> None:
    c = data["claims"]
    text = tr.t("Claims: {checked} checked of {games} player-games, {wrong} wrong ({rate}); claimed scores: {scores}, "
                "{wrong_scores} not the optimum.", checked=c["checked"], games=c["player_games"], wrong=c["wrong"],
                rate=_rate_text(c["wrong_rate"], tr), scores=c["score_claims"], wrong_scores=c["wrong_scores"])  # fmt: skip
    out.print(Text(text, style="bold"))
    wrong = [f"{tr.gettext(VERDICT_WORDS.get(k, k))} {v}" for k, v in c["by_verdict"].items() if v and k != "agrees"]
    if wrong:
        out.print("  " + tr.join(wrong))


def _histogram(out: Console, data: dict[str, Any], tr: Translator) -> None:
    out.print(_histogram_bars(data["histogram"], tr))


def _months(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Matches a month (dated matches)"))
    _columns(t, tr, (N_("month"), N_("matches"), N_("finished games")), left=1)
    for r in data["months"]:
        t.add_row(r["month"], str(r["matches"]), str(r["games"]))
    out.print(t)


def _form(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Recent form: places in the last 10 finished games (oldest first), and runs of wins"))
    for col in (N_("player"), N_("games"), N_("last places"), N_("wins"), N_("longest run"), N_("current run")):
        t.add_column(tr.gettext(col), justify="left" if col in ("player", "last places") else "right",
                     no_wrap=col == "last places")  # fmt: skip
    for r in data["form"]:
        t.add_row(_name(r["player"]), str(r["games"]), " ".join(map(str, r["last"])), str(r["last_wins"]),
                  str(r["longest_streak"]), str(r["current_streak"]))
    out.print(t)


def _rivals(out: Console, data: dict[str, Any], tr: Translator) -> None:
    t = _table(tr.gettext("Nemesis (most often finished above the player) and victim (most often finished below)"))
    for col in (N_("player"), N_("nemesis"), N_("above"), N_("victim"), N_("below")):
        t.add_column(tr.gettext(col), justify="left" if col in ("player", "nemesis", "victim") else "right")
    for r in data["rivals"]:
        t.add_row(
            _name(r["player"]), _name(r["nemesis"] or "–"), tr.t("{n} of {games}", n=r["nemesis_above"],
                                                                  games=r["nemesis_games"]),
            _name(r["victim"] or "–"), tr.t("{n} of {games}", n=r["victim_below"], games=r["victim_games"]),
        )  # fmt: skip
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

def _pct(x: float | None, tr: Translator = ENGLISH) -> str:
    return "–" if x is None else tr.t("{value}%", value=tr.decimal(f"{100 * x:.1f}"))


def _num(x: float | None, tr: Translator = ENGLISH, digits: int = 1) -> str:
    return "–" if x is None else tr.decimal(f"{x:.{digits}f}")


def _rate_text(r: dict[str, Any], tr: Translator = ENGLISH) -> str:
    if r["rate"] is None:
        return "–"
    return f"{_pct(r['rate'], tr)} [{_pct(r['low'], tr)}–{_pct(r['high'], tr)}]"


class _Table(Table):
    """A table whose right-aligned columns (the figures) are never narrower than their widest figure: a long
    heading folds onto two lines ("место за / столом"), never a figure ("50,0 / %")."""

    def __rich_console__(self, console: Console, options: Any) -> Any:
        for column in self.columns:
            if column.justify == "right":
                widest = max((c.cell_len if isinstance(c, Text) else cell_len(str(c)) for c in column.cells), default=0)
                column.min_width = max(column.min_width or 0, widest)
        return super().__rich_console__(console, options)


def _table(title: str) -> Table:
    return _Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, title_style="bold")


def _columns(t: Table, tr: Translator, names: tuple[str, ...], *, left: int, no_wrap: bool = False) -> None:
    """The columns ``names`` in ``tr``'s language: the first ``left`` of them left-aligned, the others right."""
    for i, col in enumerate(names):
        t.add_column(tr.gettext(col), justify="left" if i < left else "right", no_wrap=no_wrap)


def _interval(r: dict[str, Any], tr: Translator = ENGLISH) -> str:
    return "–" if r["rate"] is None else f"{_pct(r['low'], tr)}–{_pct(r['high'], tr)}"


def _opt(x: Any) -> str:
    return "–" if x is None else str(x)


def _advantage_table(rows: list[dict[str, Any]], column: str, title: str, tr: Translator, shift: int = 0) -> Table:
    """``shift``: added to the ``column`` value shown, so that a person counts from 1."""
    t = _table(title)
    heads = {"seat": N_("seat"), "turn": N_("turn")}
    _columns(t, tr, (N_("players"), heads[column], N_("games"), N_("wins"), N_("win rate"), N_("95% interval"),
                     N_("expected")), left=0)  # fmt: skip
    for r in rows:
        t.add_row(
            str(r["players"]), str(r[column] + shift), str(r["games"]), str(r["wins"]), _pct(r["win_rate"]["rate"], tr),
            _interval(r["win_rate"], tr), _pct(r["expected"], tr),
        )
    return t


BAR = 40


def _bar(fraction: float, width: int = BAR) -> str:
    cells = fraction * width
    full = int(cells)
    part = " ▏▎▍▌▋▊▉"[int((cells - full) * 8)] if full < width else ""
    return ("█" * full + part.strip()).ljust(width)


def _histogram_bars(h: dict[str, Any], tr: Translator = ENGLISH) -> Text:
    out = Text(tr.gettext("Scores (every player of every complete game)") + "\n", style="bold")
    bins = h["bins"]
    most = max((b["count"] for b in bins), default=0) or 1
    label = max((len(f"{b['low']}..{b['high']}") for b in bins), default=1)
    for b in bins:
        span = f"{b['low']}" if h["width"] == 1 else f"{b['low']}..{b['high']}"
        out.append(f"{span:>{label}} ")
        out.append(_bar(b["count"] / most), style="cyan")
        out.append(f" {b['count']}\n")
    return out


def _bars_by_seat(rows: list[dict[str, Any]], tr: Translator = ENGLISH) -> Text:
    out = Text(tr.gettext("Win rate by seat (bar: win rate; the mark ┊ is 1/players)") + "\n", style="bold")
    for r in rows:
        rate = r["win_rate"]["rate"] or 0.0
        bar = list(_bar(rate))
        mark = min(BAR - 1, int(r["expected"] * BAR))
        if bar[mark] == " ":
            bar[mark] = "┊"
        out.append(tr.t("{players}p seat {seat}", players=r["players"], seat=r["seat"] + 1) + " ")  # seats from 1
        out.append("".join(bar), style="green")
        out.append(" " + tr.t("{rate} of {games}", rate=_rate_text(r["win_rate"], tr), games=r["games"]) + "\n")
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


