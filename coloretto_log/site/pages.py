"""The club site's pages as HTML text: the index, every match listed, a page per player and per match.

Pages share one style sheet (``site.css``, :data:`CSS`) by a relative link,
and draw their charts as inline SVG (``svg``): nothing is loaded from the
network, and the folder opens from disk. Every name, id and text from a log
or the database is escaped (:func:`name`: control characters shown as
escapes, markup escaped, isolated with ``<bdi>`` so that a right-to-left
override cannot turn the text around it). Wide tables scroll inside their
box, so no page is wider than a phone's screen.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from ..core.cards import ALL_COLOURS, CARD_HEX, SHORT_LABELS, card_name
from ..core.errors import one_line
from ..db.ratings import (
    BAND,
    BASE,
    MU0,
    PROVISIONAL_GAMES,
    SCALE,
    HistoryRow,
    Z,
    displayed,
    uncertainty,
)
from ..db.site_data import ClubData, GameSeat, MatchRow, MatchSeat
from . import svg

__all__ = ["CSS", "Site", "match_slug", "name", "player_slug"]

CSS = """
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;background:#fafaf7}
header{background:#29323c;color:#fff;padding:.6em 1em}
header a{color:#fff;margin-right:1em;text-decoration:none;font-weight:600}
header a:hover{text-decoration:underline}
main{max-width:1000px;margin:0 auto;padding:0 1em 2em}
h1{font-size:1.5em;margin:.7em 0 .3em}h2{font-size:1.2em;margin:1.4em 0 .4em;border-bottom:1px solid #ddd}
h3{font-size:1em;margin:1em 0 .3em}
a{color:#0a58ca}
.note{color:#555;font-size:.9em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3em 0 .8em}
th,td{padding:.25em .5em;text-align:left;border-bottom:1px solid #e3e3e3;vertical-align:top}
th{font-weight:600;background:#f0f0ec;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.win td{font-weight:600}
.chart{width:100%;max-width:560px;height:auto;display:block;background:#fff;border:1px solid #e3e3e3;border-radius:4px}
figure{margin:.3em 0}
.charts{display:flex;flex-wrap:wrap;gap:1em}
.charts figure{margin:0;flex:1 1 300px;min-width:0;max-width:560px}
figcaption{font-size:.9em;color:#444;margin:.2em 0}
.legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:.2em 1em;font-size:.9em}
.legend span{display:inline-block;width:1.4em;height:.35em;vertical-align:middle;margin-right:.3em}
.card{display:inline-block;min-width:1.7em;padding:0 .25em;margin:0 .1em .1em 0;border-radius:3px;border:1px solid #888;
text-align:center;font-size:.8em;font-weight:600}
.evening{margin:.2em 0 1em}
.evening ul{margin:.2em 0;padding-left:1.2em}
.verdict-agrees{color:#23883a}.verdict-bad{color:#b00020;font-weight:600}
bdi{unicode-bidi:isolate}
@media (max-width:600px){body{font-size:14px}main{padding:0 .6em 2em}th,td{padding:.2em .35em}}
.tag{font-size:.75em;background:#eee;border-radius:3px;padding:0 .3em;color:#555}
"""

#: The regular opponents of a player's page: those met in at least this many games.
REGULAR = 3
#: Players drawn in the index's ratings chart (the best by rating).
CHART_PLAYERS = 8
#: Evenings (match days) on the index.
EVENINGS = 5
#: Best and worst games on a player's page.
BEST = 5


def name(text: str) -> str:
    """A name or label for a page: control characters as escapes, markup escaped, its direction isolated."""
    return f"<bdi>{escape(one_line(text))}</bdi>"


def _slug(text: str, prefix: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    word = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:40].strip("-")
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{word or prefix}-{digest}"


def player_slug(player: str) -> str:
    """The file name (without ``.html``) of a player's page: readable, and one per name (a hash decides)."""
    return _slug(player, "player")


def match_slug(match_id: str) -> str:
    """The file name (without ``.html``) of a match's page."""
    return _slug(match_id, "match")


def _day(d: _dt.date | None) -> str:
    return "undated" if d is None else d.isoformat()


def _pct(k: int, n: int) -> str:
    return "–" if n == 0 else f"{100 * k / n:.0f}%"


def _card(kind: str, count: int | None = None) -> str:
    bg, fg = CARD_HEX[kind]
    text = SHORT_LABELS[kind] + ("" if count is None else f"×{count}")
    return f'<span class="card" style="background:{bg};color:{fg}" title="{escape(card_name(kind))}">{text}</span>'


def _table(head: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]], *, row_class: Sequence[str] = ()) -> str:
    """A table in a scrolling box: ``head`` is (title, numeric) per column; cells are HTML already."""
    nums = [n for _, n in head]
    out = ['<div class="scroll"><table><thead><tr>']
    out += [f'<th{" class=n" if n else ""}>{escape(t)}</th>' for t, n in head]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = row_class[i] if i < len(row_class) and row_class[i] else ""
        out.append(f'<tr{f" class={cls}" if cls else ""}>')
        out += [f'<td{" class=n" if nums[j] else ""}>{cell}</td>' for j, cell in enumerate(row)]
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


class Site:
    """The pages of one club, from :class:`ClubData`; links are relative to the page's folder."""

    def __init__(self, data: ClubData, *, replays: set[str], title: str = "Our Coloretto club") -> None:
        self.data = data
        self.replays = replays  # match ids whose replay page is written
        self.title = title
        self.rating = {r.player: r for r in data.ratings}
        self.by_id = {m.match_id: m for m in data.matches}
        self.player_matches: dict[str, list[MatchRow]] = defaultdict(list)
        for m in data.matches:
            for p in dict.fromkeys(m.players):
                self.player_matches[p].append(m)
        self.player_games: dict[str, list[GameSeat]] = defaultdict(list)
        for seats in data.game_seats.values():
            for s in seats:
                self.player_games[s.player].append(s)

    # ---- the frame

    def _page(self, title: str, body: str, *, depth: int) -> str:
        up = "../" * depth
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{svg.escape(title)}</title>"
            f'<link rel="stylesheet" href="{up}site.css"></head>'
            '<body data-ready="true"><header>'
            f'<a href="{up}index.html">Standings</a><a href="{up}matches.html">Matches</a>'
            f'<a href="{up}index.html#club">Club figures</a></header><main>'
            f"{body}</main></body></html>\n"
        )

    def player_link(self, player: str, up: str) -> str:
        return f'<a href="{up}players/{player_slug(player)}.html">{name(player)}</a>'

    def match_link(self, m: MatchRow, up: str, text: str | None = None) -> str:
        label = text if text is not None else escape(_day(m.date))
        return f'<a href="{up}matches/{match_slug(m.match_id)}.html">{label}</a>'

    # ---- the index

    def index(self) -> str:
        d = self.data
        parts = [f"<h1>{name(self.title)}</h1>"]
        dated = [m.date for m in d.matches if m.date is not None]
        span = f" from {min(dated)} to {max(dated)}" if dated else ""
        parts.append(f'<p class="note">{len(d.matches)} matches, {len(d.players)} players{span}.</p>')
        parts.append("<h2 id=standings>Standings</h2>")
        parts.append(self._standings())
        parts.append("<h2 id=chart>Ratings over time</h2>")
        parts.append(self._ratings_chart([r.player for r in d.ratings[:CHART_PLAYERS]], ""))
        parts.append("<h2 id=evenings>The latest evenings</h2>")
        parts.append(self._evenings())
        parts.append('<p><a href="matches.html">Every match</a></p>')
        parts.append("<h2 id=club>Club figures</h2>")
        parts.append(self._club_figures())
        return self._page(self.title, "".join(parts), depth=0)

    def _standings(self) -> str:
        rows = []
        for r in self.data.ratings:
            tag = ' <span class="tag">provisional</span>' if r.provisional else ""
            rows.append([
                str(r.rank), self.player_link(r.player, "") + tag, f"{r.rating:.0f} ± {r.uncertainty:.0f}",
                f"{r.cautious:.0f}", str(r.games), str(r.wins), _pct(r.wins, r.games), escape(_day(r.last_played)),
            ])
        if not rows:
            return '<p class="note">No finished game yet.</p>'
        note = (
            f'<p class="note">Rating: the skill estimate, {BASE:g} + {SCALE:g} × (μ − {MU0:g}), so that of two players '
            f"the higher rating is the favourite; a newcomer starts at {BASE:g}. ±: its uncertainty, "
            f"{SCALE:g} × {BAND:g}σ (the skill is within it about 95% of the time). Cautious: the rating less "
            f"{SCALE:g} × {Z:g}σ, what the player very likely has at least. Provisional: fewer than "
            f"{PROVISIONAL_GAMES} rated games, listed after the others. Games and wins count finished games "
            "(ratings.md).</p>"
        )
        head = [("#", True), ("player", False), ("rating", True), ("cautious", True), ("games", True),
                ("wins", True), ("win %", True), ("last played", False)]
        return _table(head, rows) + note

    def _series(self, player: str, colour: str, *, band: bool) -> svg.Line:
        """The player's rating (the standings' figure) by day, or by contest when a match is undated; with
        ``band``, its uncertainty around it."""
        hist = self.data.history.get(player, [])
        dated = self._dated(hist)
        points: dict[float, tuple[float, float]] = {}
        for h in hist:
            x = float(h.date.toordinal()) if dated and h.date is not None else float(h.position)
            points[x] = (displayed(h.mu), uncertainty(h.sigma))  # the last of the day
        return svg.Line(player, colour, [(x, v) for x, (v, _) in points.items()],
                        [(x, v - u, v + u) for x, (v, u) in points.items()] if band else ())

    @staticmethod
    def _dated(hist: Sequence[HistoryRow]) -> bool:
        return bool(hist) and all(h.date is not None for h in hist)

    def _ratings_chart(self, players: Sequence[str], up: str) -> str:
        if not players:
            return '<p class="note">No rated game yet.</p>'
        all_dated = all(h.date is not None for p in players for h in self.data.history.get(p, []))
        series = [self._series(p, svg.PALETTE[i % len(svg.PALETTE)], band=False) for i, p in enumerate(players)]
        chart = svg.lines(series, title="Ratings over time", dates=all_dated, y_label="rating")
        legend = "".join(
            f'<li><span style="background:{s.colour}"></span>{self.player_link(s.label, up)}</li>' for s in series
        )
        axis = "by date" if all_dated else "by contest, in rating order (some matches are undated)"
        return (f'<figure>{chart}<figcaption>The {len(series)} best players\' ratings after each evening, {axis}.'
                f'</figcaption><ul class="legend">{legend}</ul></figure>')

    def _match_line(self, m: MatchRow, up: str) -> str:
        seats = self.data.match_seats.get(m.match_id, [])
        people = ", ".join(
            (f"<strong>{self.player_link(s.player, up)} {s.total}</strong>" if s.win else
             f"{self.player_link(s.player, up)} {s.total}")
            for s in seats
        )
        state = "" if m.complete else ' <span class="tag">unfinished</span>'
        games = f"{m.games_complete} game{'s' if m.games_complete != 1 else ''}"
        return f"<li>{self.match_link(m, up, games)}: {people}{state}</li>"

    def _evenings(self) -> str:
        days: dict[_dt.date | None, list[MatchRow]] = {}
        for m in self.data.matches:
            days.setdefault(m.date, [])
            if len(days) > EVENINGS:
                days.pop(m.date)
                break
            days[m.date].append(m)
        if not days:
            return '<p class="note">No match yet: ingest some logs.</p>'
        out = []
        for day, ms in days.items():
            out.append(f'<div class="evening"><h3>{escape(_day(day))}</h3><ul>')
            out += [self._match_line(m, "") for m in ms]
            out.append("</ul></div>")
        return "".join(out)

    def _club_figures(self) -> str:
        stats = self.data.stats
        figs = []
        by_n: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in stats.get("seats", []):
            by_n[row["players"]].append(row)
        for n, rows in sorted(by_n.items()):
            bars = [(f"seat {r['seat'] + 1}", r["win_rate"]["rate"] or 0.0, svg.PALETTE[0]) for r in rows]
            games = sum(r["games"] for r in rows) // max(n, 1)
            chart = svg.vbars(bars, title=f"Wins by seat, {n} players", y_max=max(0.6, *(1.12 * b[1] for b in bars)),
                              reference=1 / n, percent=True)
            figs.append(f"<figure>{chart}<figcaption>Share of games won from each seat, {n} players ({games} games); "
                        "dashed: no advantage.</figcaption></figure>")
        colours = stats.get("colours", [])
        if colours:
            bars4 = [
                (card_name(c["colour"]), c["positive_rate"], CARD_HEX[c["colour"]][0],
                 f"{100 * c['positive_rate']:.0f}% · {c['avg_points']:+.1f} pts")
                for c in colours
            ]
            chart = svg.hbars(bars4, title="How often each colour scores")
            figs.append(f"<figure>{chart}<figcaption>Colours: share of player-games where the colour scored plus, "
                        "and its mean points.</figcaption></figure>")
        hist = stats.get("histogram", {}).get("bins", [])
        if hist:
            bars = [(str(b["low"]), float(b["count"]), svg.PALETTE[2]) for b in hist]
            chart = svg.vbars(bars, title="Scores", height=170, y_max=1.1 * max(b[1] for b in bars))
            figs.append(f"<figure>{chart}<figcaption>Scores of every player in every finished game "
                        f"(bins of {stats['histogram']['width']} points, by their lowest score).</figcaption></figure>")
        if not figs:
            return '<p class="note">No finished game yet.</p>'
        return f'<div class="charts">{"".join(figs)}</div>'

    # ---- every match

    def matches(self) -> str:
        out = ["<h1>Every match</h1>"]
        current: object = object()
        for m in self.data.matches:
            if m.date != current:
                if current is not object:
                    out.append("</ul>")
                current = m.date
                out.append(f"<h3>{escape(_day(m.date))}</h3><ul>")
            out.append(self._match_line(m, ""))
        if self.data.matches:
            out.append("</ul>")
        else:
            out.append('<p class="note">No match yet.</p>')
        return self._page("Every match", "".join(out), depth=0)

    # ---- a player

    def player(self, player: str) -> str:
        up = "../"
        r = self.rating.get(player)
        mine = self.player_games.get(player, [])
        out = [f"<h1>{name(player)}</h1>"]
        if r is not None:
            tag = ' <span class="tag">provisional</span>' if r.provisional else ""
            out.append(f"<p>Rating <strong>{r.rating:.0f}</strong> ± {r.uncertainty:.0f}{tag} (#{r.rank} of "
                       f"{len(self.data.ratings)}) · cautious {r.cautious:.0f} · {r.games} games, {r.wins} won "
                       f"({_pct(r.wins, r.games)})</p>")
        else:
            out.append('<p class="note">No finished game yet, so no rating.</p>')
        out.append("<h2>Rating over time</h2>")
        dated = self._dated(self.data.history.get(player, []))
        chart = svg.lines([self._series(player, svg.PALETTE[0], band=True)], title=f"Rating of {player}", dates=dated,
                          y_label="rating")
        out.append(f"<figure>{chart}<figcaption>The rating after each {'day' if dated else 'game'}, and its "
                   f"uncertainty (± {SCALE:g} × {BAND:g}σ) as a band.</figcaption></figure>")
        out.append("<h2>By table size and seat</h2>")
        out.append(self._by_seat(mine))
        out.append("<h2>Colour habits</h2>")
        out.append(self._colours(mine))
        out.append("<h2>Head to head</h2>")
        out.append(self._head_to_head(player, mine))
        out.append("<h2>Best and worst games</h2>")
        out.append(self._best_worst(mine))
        analysed = self._analysis_rows(player)
        if analysed:
            out.append("<h2>Analysed games</h2>")
            out.append(analysed)
        out.append("<h2>Matches</h2><ul>")
        out += [self._match_line(m, up) for m in self.player_matches.get(player, [])]
        out.append("</ul>")
        return self._page(f"{one_line(player)} · {self.title}", "".join(out), depth=1)

    def _by_seat(self, mine: list[GameSeat]) -> str:
        groups: dict[tuple[int, int], list[GameSeat]] = defaultdict(list)
        for s in mine:
            groups[(s.n_players, s.seat)].append(s)
        if not groups:
            return '<p class="note">No finished game yet.</p>'
        rows = []
        for (n, seat), gs in sorted(groups.items()):
            wins = sum(g.win for g in gs)
            rows.append([str(n), str(seat + 1), str(len(gs)), str(wins), _pct(wins, len(gs)),
                         f"{sum(g.score for g in gs) / len(gs):.1f}", f"{sum(g.rank for g in gs) / len(gs):.2f}"])
        head = [("players", True), ("seat", True), ("games", True), ("wins", True), ("win %", True),
                ("mean score", True), ("mean rank", True)]
        return _table(head, rows)

    def _colours(self, mine: list[GameSeat]) -> str:
        if not mine:
            return '<p class="note">No finished game yet.</p>'
        bars = []
        for c in ALL_COLOURS:
            held = [s.held[c] for s in mine if c in s.held]
            if not held:
                continue
            plus = sum(1 for s in mine if c in s.held and c in s.positive)
            bars.append((card_name(c), plus / len(held), CARD_HEX[c][0],
                         f"{100 * plus / len(held):.0f}% · {sum(held) / len(held):.1f} cards"))
        jokers = sum(s.held["joker"] + s.held["golden_joker"] for s in mine) / len(mine)
        plus2 = sum(s.held["plus2"] for s in mine) / len(mine)
        chart = svg.hbars(bars, title="Colours scored plus")
        return (f"<figure>{chart}<figcaption>Share of games where each colour scored plus for this player, and the "
                f"cards of it held at the end on average. Jokers {jokers:.1f} and {_card('plus2')} cards {plus2:.1f} "
                "a game.</figcaption></figure>")

    def _head_to_head(self, player: str, mine: list[GameSeat]) -> str:
        by_game: dict[tuple[str, int], list[GameSeat]] = defaultdict(list)
        for mid in sorted({s.match_id for s in mine}):
            for s in self.data.game_seats.get(mid, []):
                by_game[(s.match_id, s.game)].append(s)
        record: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for me in mine:
            for other in by_game[(me.match_id, me.game)]:
                if other.seat == me.seat:
                    continue
                rec = record[other.player]
                rec[0] += 1
                rec[1 if me.score > other.score else 2 if me.score < other.score else 3] += 1
        regular = sorted(((o, r) for o, r in record.items() if r[0] >= REGULAR), key=lambda t: (-t[1][0], t[0]))
        if not regular:
            return f'<p class="note">No opponent met in {REGULAR} finished games or more yet.</p>'
        rows = [[self.player_link(o, "../"), str(g), str(w), str(lost), str(t), _pct(w, g)] for o, (g, w, lost, t) in regular]
        head = [("opponent", False), ("games", True), ("ahead", True), ("behind", True), ("tied", True),
                ("ahead %", True)]
        return _table(head, rows) + (f'<p class="note">Opponents met in {REGULAR} finished games or more: games in '
                                     "which this player scored more (ahead), less (behind) or the same.</p>")

    def _game_row(self, s: GameSeat) -> list[str]:
        m = self.by_id[s.match_id]
        return [self.match_link(m, "../"), str(s.game), str(s.score), f"{s.rank} of {s.n_players}"]

    def _best_worst(self, mine: list[GameSeat]) -> str:
        if not mine:
            return '<p class="note">No finished game yet.</p>'
        ordered = sorted(mine, key=lambda s: (-s.score, s.rank, s.match_id, s.game))
        head = [("match", False), ("game", True), ("score", True), ("place", True)]
        best = ordered[:BEST]
        worst = [s for s in reversed(ordered) if s not in best][:BEST]
        out = "<h3>Best</h3>" + _table(head, [self._game_row(s) for s in best])
        if worst:
            out += "<h3>Worst</h3>" + _table(head, [self._game_row(s) for s in worst])
        return out

    def _analysis_rows(self, player: str) -> str:
        found = []
        for m in self.player_matches.get(player, []):
            entry = self.data.analyses.get(m.match_id)
            if entry is None:
                continue
            for s in entry[1].get("summary", []):
                if s.get("player") == player:
                    found.append((m, s))
        if not found:
            return ""
        keys = [k for k in ("accuracy", "error_rate", "luck", "skill") if any(k in s for _, s in found)]
        head = [("match", False), ("decisions", True), ("mean loss", True)] + [(k.replace("_", " "), True) for k in keys]
        rows = []
        for m, s in found:
            row = [self.match_link(m, "../"), str(s.get("decisions", "")), _num(s.get("mean_loss"))]
            row += [_metric(k, s.get(k)) for k in keys]
            rows.append(row)
        chronological = sorted(found, key=lambda t: (t[0].date or _dt.date.min, t[0].match_id))
        dated = all(m.date is not None for m, _ in chronological)
        charts: list[str] = []
        for k in ["mean_loss", *keys]:
            pts = [(float(m.date.toordinal()) if dated and m.date else float(i + 1), float(s[k]))
                   for i, (m, s) in enumerate(chronological) if isinstance(s.get(k), (int, float))]
            if len(pts) >= 2:
                label = k.replace("_", " ")
                charts.append(f"<figure>{svg.lines([svg.Line(label, svg.PALETTE[len(charts)], pts)], title=label, dates=dated, y_label=label)}"
                              f"<figcaption>{escape(label)} per analysed match, over time.</figcaption></figure>")
        note = ('<p class="note">From <code>analyze --db</code>: the mean loss is the margin points given away a '
                "decision by the analysis' reckoning (docs/analyze.md).</p>")
        return _table(head, rows) + note + (f'<div class="charts">{"".join(charts)}</div>' if charts else "")

    # ---- a match

    def match(self, m: MatchRow) -> str:
        up = "../"
        seats = self.data.match_seats.get(m.match_id, [])
        title = f"{_day(m.date)} · " + ", ".join(one_line(p) for p in m.players)
        out = [f"<h1>{escape(_day(m.date))}: {', '.join(self.player_link(p, up) for p in m.players)}</h1>"]
        facts = f"{escape(m.edition)} edition, {escape(m.scoring)} scoring, {m.games_complete} of {m.games_played} games finished"
        source = m.source_file.replace("\\", "/").rsplit("/", 1)[-1]  # the file's name, not where it lives
        out.append(f'<p class="note">Match {name(m.match_id)} · {facts} · from {name(source)}'
                   f"{'' if m.source_line is None else f' line {m.source_line}'}</p>")
        if m.match_id in self.replays:
            out.append(f'<p><a href="{up}replay/{match_slug(m.match_id)}.html">Replay it move by move</a></p>')
        else:
            out.append('<p class="note">No replay: the log file is not where it was ingested from, '
                       "or has changed since.</p>")
        out.append("<h2>Totals</h2>")
        out.append(self._totals(seats, up))
        games: dict[int, list[GameSeat]] = defaultdict(list)
        for s in self.data.game_seats.get(m.match_id, []):
            games[s.game].append(s)
        for g, gs in sorted(games.items()):
            out.append(f"<h2>Game {g}</h2>")
            out.append(self._game_scores(gs, up))
        entry = self.data.analyses.get(m.match_id)
        if entry is not None:
            out.append("<h2>Analysis</h2>")
            out.append(self._match_analysis(entry[1], up))
        return self._page(title, "".join(out), depth=1)

    def _totals(self, seats: list[MatchSeat], up: str) -> str:
        rows = [[self.player_link(s.player, up), str(s.total), str(s.rank)] for s in seats]
        classes = ["win" if s.win else "" for s in seats]
        return _table([("player", False), ("total", True), ("rank", True)], rows, row_class=classes)

    def _game_scores(self, gs: list[GameSeat], up: str) -> str:
        rows = []
        for s in gs:
            held = "".join(_card(k, n) for k, n in s.held.items() if n)
            jokers = "".join(_card(c) for c in s.joker_colours) or "–"
            positive = "".join(_card(c) for c in s.positive)
            claim = "–" if s.claimed_score is None else str(s.claimed_score)
            if s.claimed_jokers or s.claimed_positive:
                claim += " " + "".join(_card(c) for c in (s.claimed_jokers or ())) + " / " + "".join(
                    _card(c) for c in (s.claimed_positive or ()))
            verdict = s.verdict or "no-claim"
            cls = "verdict-agrees" if verdict == "agrees" else "" if verdict == "no-claim" else "verdict-bad"
            rows.append([self.player_link(s.player, up), str(s.score), str(s.rank), positive, jokers, held, claim,
                         f'<span class="{cls}">{escape(verdict)}</span>'])
        head = [("player", False), ("score", True), ("rank", True), ("scored plus", False), ("jokers as", False),
                ("cards held", False), ("claimed", False), ("verdict", False)]
        return _table(head, rows, row_class=["win" if s.win else "" for s in gs]) + (
            '<p class="note">Scores are the best assignment of jokers and plus colours; a claim from the log is '
            "checked against it.</p>")

    def _match_analysis(self, data: dict[str, Any], up: str) -> str:
        summary = data.get("summary", [])
        keys = [k for k in ("accuracy", "error_rate", "luck", "skill") if any(k in s for s in summary)]
        head = [("player", False), ("decisions", True), ("mean loss", True), ("inaccuracies", True),
                ("mistakes", True), ("blunders", True)] + [(k.replace("_", " "), True) for k in keys]
        rows = []
        for s in summary:
            marks = s.get("marks", {})
            rows.append([self.player_link(str(s.get("player", "")), up), str(s.get("decisions", "")),
                         _num(s.get("mean_loss")), str(marks.get("inaccuracy", "")), str(marks.get("mistake", "")),
                         str(marks.get("blunder", ""))] + [_metric(k, s.get(k)) for k in keys])
        settings = data.get("settings", {})
        how = f"{settings.get('samples', '?')} samples, seed {settings.get('seed', '?')}" if settings else ""
        return _table(head, rows) + f'<p class="note">Stored by <code>analyze --db</code>{", " + escape(how) if how else ""}.</p>'


def _metric(key: str, x: Any) -> str:
    """An analysis figure as ``analyze`` prints it: accuracy in percent, error rate as a percentage, luck and
    skill in signed points."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return "–"
    if key == "accuracy":
        return f"{x:.0f}%"
    if key == "error_rate":
        return f"{100 * x:.0f}%"
    if key in ("luck", "skill"):
        return f"{x:+.1f}"
    return _num(x)


def _num(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return "–"
    return f"{x:.2f}" if isinstance(x, float) else str(x)

