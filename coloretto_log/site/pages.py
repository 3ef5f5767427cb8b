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

from ..core.cards import ALL_COLOURS, CARD_HEX, card_name
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
from ..lang import ENGLISH, N_, NATIVE_NAMES, Translator
from ..lang.chips import chip_label
from ..lang.games import edition_word, table_word
from . import svg

__all__ = ["CSS", "DEFAULT_TITLE", "Site", "match_slug", "name", "page_file", "player_slug"]

#: The site's title when none is given (translated in each language).
DEFAULT_TITLE = N_("Our Coloretto club")
#: The words of a claim's verdict (``score``'s statuses), translated where shown.
VERDICTS = {
    "agrees": N_("agrees"), "no-claim": N_("no-claim"), "illegal-choice": N_("illegal-choice"),
    "over-claimed": N_("over-claimed"), "under-claimed": N_("under-claimed"),
    "choice-below-optimum": N_("choice-below-optimum"), "choice-not-claimed": N_("choice-not-claimed"),
}  # fmt: skip
#: The analysis' per-player figures, as column and chart titles.
METRICS = {"mean_loss": N_("mean loss"), "accuracy": N_("accuracy"), "error_rate": N_("error rate"),
           "luck": N_("luck"), "skill": N_("skill")}  # fmt: skip

CSS = """
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;background:#fafaf7}
header{background:#29323c;color:#fff;padding:.6em 1em}
header a{color:#fff;margin-right:1em;text-decoration:none;font-weight:600}
header nav{display:inline-block}header nav a,header nav strong{font-weight:400;margin-right:.6em;white-space:nowrap}
h1,h2,h3,p,li,figcaption{overflow-wrap:break-word}
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
abbr[title]{text-decoration:none}abbr.tag{cursor:help}
.standings th{white-space:normal}.standings td bdi{overflow-wrap:anywhere}.standings td.n{white-space:normal}.standings td.n span{white-space:nowrap}
@media (max-width:600px){.standings th,.standings td{padding:.2em .2em}.standings th{font-size:.8em}}
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


def page_file(rel: str, lang: str, first: str) -> str:
    """The file of page ``rel`` in ``lang``: ``index.html`` in the site's first language, ``index.ja.html`` in another."""
    if lang == first:
        return rel
    stem, _, ext = rel.rpartition(".")
    return f"{stem}.{lang}.{ext}"


def _card(kind: str, count: int | None = None, tr: Translator = ENGLISH) -> str:
    bg, fg = CARD_HEX[kind]
    text = escape(chip_label(kind, tr)) + ("" if count is None else f"×{count}")
    return f'<span class="card" style="background:{bg};color:{fg}" title="{escape(tr.gettext(card_name(kind)))}">{text}</span>'


def _table(head: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]], *, row_class: Sequence[str] = (),
           titles: Sequence[str] = (), table_class: str = "") -> str:
    """A table in a scrolling box: ``head`` is (title, numeric) per column; cells are HTML already.

    ``titles``: per column, the full words of a header shortened to fit a phone (an ``<abbr>`` shows them), or "".
    """
    nums = [n for _, n in head]
    out = [f'<div class="scroll"><table{f" class={table_class}" if table_class else ""}><thead><tr>']
    for j, (t, n) in enumerate(head):
        full = titles[j] if j < len(titles) else ""
        text = f'<abbr title="{escape(full)}">{escape(t)}</abbr>' if full and full != t else escape(t)
        out.append(f'<th{" class=n" if n else ""}>{text}</th>')
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = row_class[i] if i < len(row_class) and row_class[i] else ""
        out.append(f'<tr{f" class={cls}" if cls else ""}>')
        out += [f'<td{" class=n" if nums[j] else ""}>{cell}</td>' for j, cell in enumerate(row)]
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


class Site:
    """The pages of one club in one language, from :class:`ClubData`; links are relative to the page's folder.

    ``langs`` are the languages the site is written in (the first one's pages
    are ``index.html`` …, another's ``index.LANG.html`` …): each page links to
    its versions in the others. Every word goes through ``tr``, numbers and
    dates are the locale's.
    """

    def __init__(self, data: ClubData, *, replays: set[str], title: str | None = None, tr: Translator = ENGLISH,
                 langs: Sequence[str] = ()) -> None:
        self.data = data
        self.replays = replays  # match ids whose replay page is written
        self.tr = tr
        self.lang = tr.lang
        self.langs = tuple(langs) or (tr.lang,)
        self.title = title if title is not None else tr.t(DEFAULT_TITLE)
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

    # ---- words and numbers

    def html_t(self, message: str, /, **values: str) -> str:
        """``message`` translated and escaped for a page, its placeholders filled with HTML (escaped already)."""
        return escape(self.tr.gettext(message), quote=False).format(**values)

    def html_nt(self, singular: str, plural: str, n: int, /, **values: str) -> str:
        """A counted message for a page (``{n}`` is the count in the locale's digits)."""
        text = escape(self.tr.ngettext(singular, plural, n), quote=False)
        return text.format(n=self.tr.format_number(n), **values)

    def num(self, x: float, digits: int = 0, *, sign: bool = False) -> str:
        """``x`` with ``digits`` decimals, as the locale writes it (English: as Python's format writes it)."""
        text = f"{x:{'+' if sign else ''}.{digits}f}"
        if self.lang == ENGLISH.lang:
            return text
        body = text.lstrip("+-")
        whole, _, frac = body.partition(".")
        point = self.tr.format_number(1.5)[1:-1]  # the locale's decimal sign
        return text[: len(text) - len(body)] + self.tr.format_number(int(whole)) + (point + frac if frac else "")

    def pct(self, k: float, n: float) -> str:
        return "–" if n == 0 else f"{self.num(100 * k / n)}%"

    def day(self, d: _dt.date | None) -> str:
        return self.tr.t("undated") if d is None else self.tr.format_date(d)

    def metric(self, key: str, x: Any) -> str:
        """An analysis figure as ``analyze`` prints it: accuracy in percent, error rate as a percentage, luck and
        skill in signed points."""
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return "–"
        if key == "accuracy":
            return f"{self.num(x)}%"
        if key == "error_rate":
            return f"{self.num(100 * x)}%"
        if key in ("luck", "skill"):
            return self.num(x, 1, sign=True)
        return self.number(x)

    def number(self, x: Any) -> str:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return "–"
        return self.num(x, 2) if isinstance(x, float) else self.num(x)

    def colour(self, kind: str) -> str:
        return self.tr.gettext(card_name(kind))

    def href(self, up: str, rel: str) -> str:
        """The link to page ``rel`` of the site in this page's language."""
        return up + page_file(rel, self.lang, self.langs[0])

    def table(self, head: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]], *,
              row_class: Sequence[str] = (), titles: Sequence[str] = (), table_class: str = "") -> str:
        return _table([(self.tr.gettext(t), n) for t, n in head], rows, row_class=row_class,
                      titles=[self.tr.gettext(t) if t else "" for t in titles], table_class=table_class)

    def html_note(self, message: str, /, **values: str) -> str:
        return f'<p class="note">{self.html_t(message, **values)}</p>'

    # ---- the frame

    def _page(self, title: str, body: str, *, rel: str) -> str:
        up = "../" * rel.count("/")
        switch = ""
        if len(self.langs) > 1:
            here = rel.rsplit("/", 1)[-1]
            links = [
                f"<strong lang={lang}>{NATIVE_NAMES[lang]}</strong>" if lang == self.lang else
                f'<a href="{page_file(here, lang, self.langs[0])}" hreflang={lang} lang={lang}>{NATIVE_NAMES[lang]}</a>'
                for lang in self.langs
            ]
            label = self.html_t("Language")
            switch = f'<nav class="langs" aria-label="{label}">{"".join(links)}</nav>'
        standings, matches, club = self.html_t("Standings"), self.html_t("Matches"), self.html_t("Club figures")
        return (
            f"<!DOCTYPE html>\n<html lang=\"{self.lang}\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{svg.escape(title)}</title>"
            f'<link rel="stylesheet" href="{up}site.css"></head>'
            '<body data-ready="true"><header>'
            f'<a href="{self.href(up, "index.html")}">{standings}</a>'
            f'<a href="{self.href(up, "matches.html")}">{matches}</a>'
            f'<a href="{self.href(up, "index.html")}#club">{club}</a>{switch}</header><main>'
            f"{body}</main></body></html>\n"
        )

    def player_link(self, player: str, up: str) -> str:
        return f'<a href="{self.href(up, f"players/{player_slug(player)}.html")}">{name(player)}</a>'

    def match_link(self, m: MatchRow, up: str, text: str | None = None) -> str:
        label = text if text is not None else escape(self.day(m.date))
        return f'<a href="{self.href(up, f"matches/{match_slug(m.match_id)}.html")}">{label}</a>'

    # ---- the index

    def index(self) -> str:
        d = self.data
        parts = [f"<h1>{name(self.title)}</h1>"]
        dated = [m.date for m in d.matches if m.date is not None]
        counts = {"matches": self.html_nt("{n} match", "{n} matches", len(d.matches)),
                  "players": self.html_nt("{n} player", "{n} players", len(d.players))}
        if dated:
            said = self.html_t("{matches}, {players} from {first} to {last}.", first=escape(self.day(min(dated))),
                          last=escape(self.day(max(dated))), **counts)
        else:
            said = self.html_t("{matches}, {players}.", **counts)
        parts.append(f'<p class="note">{said}</p>')
        parts.append("<h2 id=standings>" + self.html_t('Standings') + "</h2>")
        parts.append(self._standings())
        parts.append("<h2 id=chart>" + self.html_t('Ratings over time') + "</h2>")
        parts.append(self._ratings_chart([r.player for r in d.ratings[:CHART_PLAYERS]], ""))
        parts.append("<h2 id=evenings>" + self.html_t('The latest evenings') + "</h2>")
        parts.append(self._evenings())
        every = self.html_t("Every match")
        parts.append(f'<p><a href="{self.href("", "matches.html")}">{every}</a></p>')
        parts.append("<h2 id=club>" + self.html_t('Club figures') + "</h2>")
        parts.append(self._club_figures())
        return self._page(self.title, "".join(parts), rel="index.html")

    def _provisional(self, provisional: bool, *, short: bool = False) -> str:
        """The provisional tag; ``short``: its abbreviation (the full word as its title), for the standings."""
        if not provisional:
            return ""
        if short:
            full = escape(self.tr.gettext("provisional"))
            return f' <abbr class="tag" title="{full}">' + self.html_t("prov.") + "</abbr>"
        return ' <span class="tag">' + self.html_t("provisional") + "</span>"

    def _standings(self) -> str:
        rows = []
        for r in self.data.ratings:
            rows.append([
                self.num(r.rank), self.player_link(r.player, "") + self._provisional(r.provisional, short=True),
                f"{self.num(r.rating)} <span>± {self.num(r.uncertainty)}</span>", self.num(r.cautious), self.num(r.games),
                self.num(r.wins), self.pct(r.wins, r.games), escape(self.day(r.last_played)),
            ])
        if not rows:
            return self.html_note("No finished game yet.")
        figures = {"base": self.num(BASE), "scale": f"{SCALE:g}", "mu0": f"{MU0:g}", "band": f"{BAND:g}", "z": f"{Z:g}",
                   "games": str(PROVISIONAL_GAMES)}
        note = self.html_note(
            "Rating: the skill estimate, {base} + {scale} × (μ − {mu0}), so that of two players the higher rating is "
            "the favourite; a newcomer starts at {base}. ±: its uncertainty, {scale} × {band}σ (the skill is within "
            "it about 95% of the time). Cautious: the rating less {scale} × {z}σ, what the player very likely has at "
            "least. Provisional: fewer than {games} rated games, listed after the others. Games and wins count "
            "finished games (ratings.md).", **figures)
        # shorter headers (the full words as their titles) and cells that wrap: the table fits a phone's width
        head = [("#", True), (N_("player"), False), (N_("rating"), True), (N_("caut."), True), (N_("games"), True),
                (N_("wins"), True), ("%", True), (N_("last"), False)]
        titles = ["", "", "", N_("cautious"), "", "", N_("win %"), N_("last played")]
        return self.table(head, rows, titles=titles, table_class="standings") + note

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

    def _lines(self, series: Sequence[svg.Line], *, title: str, dates: bool, y_label: str) -> str:
        return svg.lines(series, title=title, dates=dates, y_label=y_label, empty=self.tr.t("no data yet"))

    def _ratings_chart(self, players: Sequence[str], up: str) -> str:
        if not players:
            return self.html_note("No rated game yet.")
        all_dated = all(h.date is not None for p in players for h in self.data.history.get(p, []))
        series = [self._series(p, svg.PALETTE[i % len(svg.PALETTE)], band=False) for i, p in enumerate(players)]
        chart = self._lines(series, title=self.tr.t("Ratings over time"), dates=all_dated, y_label=self.tr.t("rating"))
        legend = "".join(
            f'<li><span style="background:{s.colour}"></span>{self.player_link(s.label, up)}</li>' for s in series
        )
        axis = self.html_t("by date") if all_dated else self.html_t("by contest, in rating order (some matches are undated)")
        caption = self.html_nt("The best player's ratings after each evening, {axis}.",
                          "The {n} best players' ratings after each evening, {axis}.", len(series), axis=axis)
        return f'<figure>{chart}<figcaption>{caption}</figcaption><ul class="legend">{legend}</ul></figure>'

    def _match_line(self, m: MatchRow, up: str) -> str:
        seats = self.data.match_seats.get(m.match_id, [])
        people = ", ".join(
            (f"<strong>{self.player_link(s.player, up)} {self.num(s.total)}</strong>" if s.win else
             f"{self.player_link(s.player, up)} {self.num(s.total)}")
            for s in seats
        )
        state = "" if m.complete else ' <span class="tag">' + self.html_t("unfinished") + "</span>"
        games = self.html_nt("{n} game", "{n} games", m.games_complete)
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
            return self.html_note("No match yet: ingest some logs.")
        out = []
        for day, ms in days.items():
            out.append(f'<div class="evening"><h3>{escape(self.day(day))}</h3><ul>')
            out += [self._match_line(m, "") for m in ms]
            out.append("</ul></div>")
        return "".join(out)

    def _club_figures(self) -> str:
        stats = self.data.stats
        tr = self.tr
        figs = []
        by_n: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in stats.get("seats", []):
            by_n[row["players"]].append(row)
        for n, rows in sorted(by_n.items()):
            bars = [(tr.t("seat {n}", n=r["seat"] + 1), r["win_rate"]["rate"] or 0.0, svg.PALETTE[0]) for r in rows]
            games = sum(r["games"] for r in rows) // max(n, 1)
            chart = svg.vbars(bars, title=tr.nt("Wins by seat, {n} player", "Wins by seat, {n} players", n),
                              y_max=max(0.6, *(1.12 * b[1] for b in bars)), reference=1 / n, percent=True,
                              reference_title=tr.t("expected with no advantage"))
            caption = self.html_t("Share of games won from each seat, {players} ({games}); dashed: no advantage.",
                                  players=self.html_nt("{n} player", "{n} players", n),
                                  games=self.html_nt("{n} game", "{n} games", games))
            figs.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
        colours = stats.get("colours", [])
        if colours:
            bars4 = [
                (self.colour(c["colour"]), c["positive_rate"], CARD_HEX[c["colour"]][0],
                 tr.t("{share} · {points} pts", share=self.num(100 * c["positive_rate"]) + "%",
                      points=self.num(c["avg_points"], 1, sign=True)))
                for c in colours
            ]
            chart = svg.hbars(bars4, title=tr.t("How often each colour scores"))
            caption = self.html_t("Colours: share of player-games where the colour scored plus, and its mean points.")
            figs.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
        hist = stats.get("histogram", {}).get("bins", [])
        if hist:
            bars = [(str(b["low"]), float(b["count"]), svg.PALETTE[2]) for b in hist]
            chart = svg.vbars(bars, title=tr.t("Scores"), height=170, y_max=1.1 * max(b[1] for b in bars))
            caption = self.html_t("Scores of every player in every finished game (bins of {width} points, by their lowest "
                             "score).", width=str(stats["histogram"]["width"]))
            figs.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
        if not figs:
            return self.html_note("No finished game yet.")
        return f'<div class="charts">{"".join(figs)}</div>'

    # ---- every match

    def matches(self) -> str:
        out = ["<h1>" + self.html_t('Every match') + "</h1>"]
        current: object = object()
        for m in self.data.matches:
            if m.date != current:
                if current is not object:
                    out.append("</ul>")
                current = m.date
                out.append(f"<h3>{escape(self.day(m.date))}</h3><ul>")
            out.append(self._match_line(m, ""))
        if self.data.matches:
            out.append("</ul>")
        else:
            out.append(self.html_note("No match yet."))
        return self._page(self.tr.t("Every match"), "".join(out), rel="matches.html")

    # ---- a player

    def player(self, player: str) -> str:
        up = "../"
        r = self.rating.get(player)
        mine = self.player_games.get(player, [])
        out = [f"<h1>{name(player)}</h1>"]
        if r is not None:
            strong = "<strong>" + self.num(r.rating) + "</strong>"
            said = self.html_t(
                "Rating {rating} ± {plus}{tag} (#{rank} of {of}) · cautious {cautious} · {games}, {won} ({share})",
                rating=strong, plus=self.num(r.uncertainty),
                tag=self._provisional(r.provisional), rank=self.num(r.rank), of=self.num(len(self.data.ratings)),
                cautious=self.num(r.cautious), games=self.html_nt("{n} game", "{n} games", r.games),
                won=self.html_nt("{n} won", "{n} won", r.wins), share=self.pct(r.wins, r.games),
            )
            out.append(f"<p>{said}</p>")
        else:
            out.append(self.html_note("No finished game yet, so no rating."))
        out.append("<h2>" + self.html_t('Rating over time') + "</h2>")
        dated = self._dated(self.data.history.get(player, []))
        chart = self._lines([self._series(player, svg.PALETTE[0], band=True)],
                            title=self.tr.t("Rating of {player}", player=player), dates=dated,
                            y_label=self.tr.t("rating"))
        band = {"scale": f"{SCALE:g}", "band": f"{BAND:g}"}
        caption = (self.html_t("The rating after each day, and its uncertainty (± {scale} × {band}σ) as a band.", **band)
                   if dated else
                   self.html_t("The rating after each game, and its uncertainty (± {scale} × {band}σ) as a band.", **band))
        out.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
        out.append("<h2>" + self.html_t('By table size and seat') + "</h2>")
        out.append(self._by_seat(mine))
        out.append("<h2>" + self.html_t('Colour habits') + "</h2>")
        out.append(self._colours(mine))
        out.append("<h2>" + self.html_t('Head to head') + "</h2>")
        out.append(self._head_to_head(player, mine))
        out.append("<h2>" + self.html_t('Best and worst games') + "</h2>")
        out.append(self._best_worst(mine))
        analysed = self._analysis_rows(player)
        if analysed:
            out.append("<h2>" + self.html_t('Analysed games') + "</h2>")
            out.append(analysed)
        out.append("<h2>" + self.html_t('Matches') + "</h2><ul>")
        out += [self._match_line(m, up) for m in self.player_matches.get(player, [])]
        out.append("</ul>")
        return self._page(f"{one_line(player)} · {self.title}", "".join(out), rel=f"players/{player_slug(player)}.html")

    def _by_seat(self, mine: list[GameSeat]) -> str:
        groups: dict[tuple[int, int], list[GameSeat]] = defaultdict(list)
        for s in mine:
            groups[(s.n_players, s.seat)].append(s)
        if not groups:
            return self.html_note("No finished game yet.")
        rows = []
        for (n, seat), gs in sorted(groups.items()):
            wins = sum(g.win for g in gs)
            rows.append([self.num(n), self.num(seat + 1), self.num(len(gs)), self.num(wins), self.pct(wins, len(gs)),
                         self.num(sum(g.score for g in gs) / len(gs), 1), self.num(sum(g.rank for g in gs) / len(gs), 2)])
        head = [(N_("players"), True), (N_("seat"), True), (N_("games"), True), (N_("wins"), True), (N_("win %"), True),
                (N_("mean score"), True), (N_("mean rank"), True)]
        return self.table(head, rows)

    def _colours(self, mine: list[GameSeat]) -> str:
        if not mine:
            return self.html_note("No finished game yet.")
        bars = []
        for c in ALL_COLOURS:
            held = [s.held[c] for s in mine if c in s.held]
            if not held:
                continue
            plus = sum(1 for s in mine if c in s.held and c in s.positive)
            bars.append((self.colour(c), plus / len(held), CARD_HEX[c][0],
                         self.tr.t("{share} · {cards} cards", share=self.pct(plus, len(held)),
                                   cards=self.num(sum(held) / len(held), 1))))
        jokers = sum(s.held["joker"] + s.held["golden_joker"] for s in mine) / len(mine)
        plus2 = sum(s.held["plus2"] for s in mine) / len(mine)
        chart = svg.hbars(bars, title=self.tr.t("Colours scored plus"))
        caption = self.html_t("Share of games where each colour scored plus for this player, and the cards of it held at "
                         "the end on average. Jokers {jokers} and {plus2} cards {plus2s} a game.",
                         jokers=self.num(jokers, 1), plus2=_card("plus2", tr=self.tr), plus2s=self.num(plus2, 1))
        return f"<figure>{chart}<figcaption>{caption}</figcaption></figure>"

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
            return self.html_note("No opponent met in {n} finished games or more yet.", n=self.num(REGULAR))
        rows = [[self.player_link(o, "../"), self.num(g), self.num(w), self.num(lost), self.num(t), self.pct(w, g)]
                for o, (g, w, lost, t) in regular]
        head = [(N_("opponent"), False), (N_("games"), True), (N_("ahead"), True), (N_("behind"), True),
                (N_("tied"), True), (N_("ahead %"), True)]
        return self.table(head, rows) + self.html_note(
            "Opponents met in {n} finished games or more: games in which this player scored more (ahead), less "
            "(behind) or the same.", n=self.num(REGULAR))

    def _game_row(self, s: GameSeat) -> list[str]:
        m = self.by_id[s.match_id]
        return [self.match_link(m, "../"), self.num(s.game), self.num(s.score),
                self.html_t("{rank} of {n}", rank=self.num(s.rank), n=self.num(s.n_players))]

    def _best_worst(self, mine: list[GameSeat]) -> str:
        if not mine:
            return self.html_note("No finished game yet.")
        ordered = sorted(mine, key=lambda s: (-s.score, s.rank, s.match_id, s.game))
        head = [(N_("match"), False), (N_("game"), True), (N_("score"), True), (N_("place"), True)]
        best = ordered[:BEST]
        worst = [s for s in reversed(ordered) if s not in best][:BEST]
        out = "<h3>" + self.html_t('Best') + "</h3>" + self.table(head, [self._game_row(s) for s in best])
        if worst:
            out += "<h3>" + self.html_t('Worst') + "</h3>" + self.table(head, [self._game_row(s) for s in worst])
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
        head = [(N_("match"), False), (N_("decisions"), True), (METRICS["mean_loss"], True)]
        head += [(METRICS[k], True) for k in keys]
        rows = []
        for m, s in found:
            row = [self.match_link(m, "../"), self.number(s.get("decisions", "")), self.number(s.get("mean_loss"))]
            row += [self.metric(k, s.get(k)) for k in keys]
            rows.append(row)
        chronological = sorted(found, key=lambda t: (t[0].date or _dt.date.min, t[0].match_id))
        dated = all(m.date is not None for m, _ in chronological)
        charts: list[str] = []
        for k in ["mean_loss", *keys]:
            pts = [(float(m.date.toordinal()) if dated and m.date else float(i + 1), float(s[k]))
                   for i, (m, s) in enumerate(chronological) if isinstance(s.get(k), (int, float))]
            if len(pts) >= 2:
                label = self.tr.t(METRICS[k])
                chart = self._lines([svg.Line(label, svg.PALETTE[len(charts)], pts)], title=label, dates=dated,
                                    y_label=label)
                caption = self.html_t("{figure} per analysed match, over time.", figure=escape(label))
                charts.append(f"<figure>{chart}<figcaption>{caption}</figcaption></figure>")
        note = self.html_note("From {command}: the mean loss is the margin points given away a decision by the analysis' "
                         "reckoning (docs/analyze.md).", command="<code>analyze --db</code>")
        return self.table(head, rows) + note + (f'<div class="charts">{"".join(charts)}</div>' if charts else "")

    # ---- a match

    def match(self, m: MatchRow) -> str:
        up = "../"
        seats = self.data.match_seats.get(m.match_id, [])
        title = f"{self.day(m.date)} · " + ", ".join(one_line(p) for p in m.players)
        out = [f"<h1>{escape(self.day(m.date))}: {', '.join(self.player_link(p, up) for p in m.players)}</h1>"]
        facts = self.html_t("{edition}, {table}, {done} of {played} games finished",
                       edition=escape(edition_word(m.edition, self.tr)), table=escape(table_word(m.scoring, self.tr)),
                       done=self.num(m.games_complete),
                       played=self.num(m.games_played))
        source = m.source_file.replace("\\", "/").rsplit("/", 1)[-1]  # the file's name, not where it lives
        where = self.html_t("from {file}", file=name(source))
        if m.source_line is not None:
            where = self.html_t("from {file} line {line}", file=name(source), line=str(m.source_line))
        said = self.html_t("Match {id}", id=name(m.match_id))
        out.append(f'<p class="note">{said} · {facts} · {where}</p>')
        if m.match_id in self.replays:
            label = self.html_t("Replay it move by move")
            ask = "" if self.lang == self.langs[0] else f"?lang={self.lang}"  # the replay opens in this language
            out.append(f'<p><a href="{up}replay/{match_slug(m.match_id)}.html{ask}">{label}</a></p>')
        else:
            out.append(self.html_note("No replay: the log file is not where it was ingested from, or has changed since."))
        out.append("<h2>" + self.html_t('Totals') + "</h2>")
        out.append(self._totals(seats, up))
        games: dict[int, list[GameSeat]] = defaultdict(list)
        for s in self.data.game_seats.get(m.match_id, []):
            games[s.game].append(s)
        for g, gs in sorted(games.items()):
            out.append("<h2>" + self.html_t('Game {n}', n=self.num(g)) + "</h2>")
            out.append(self._game_scores(gs, up))
        entry = self.data.analyses.get(m.match_id)
        if entry is not None:
            out.append("<h2>" + self.html_t('Analysis') + "</h2>")
            out.append(self._match_analysis(entry[1], up))
        return self._page(title, "".join(out), rel=f"matches/{match_slug(m.match_id)}.html")

    def _totals(self, seats: list[MatchSeat], up: str) -> str:
        rows = [[self.player_link(s.player, up), self.num(s.total), self.num(s.rank)] for s in seats]
        classes = ["win" if s.win else "" for s in seats]
        return self.table([(N_("player"), False), (N_("total"), True), (N_("rank"), True)], rows, row_class=classes)

    def _game_scores(self, gs: list[GameSeat], up: str) -> str:
        rows = []
        tr = self.tr
        for s in gs:
            held = "".join(_card(k, n, tr) for k, n in s.held.items() if n)
            jokers = "".join(_card(c, tr=tr) for c in s.joker_colours) or "–"
            positive = "".join(_card(c, tr=tr) for c in s.positive)
            claim = "–" if s.claimed_score is None else self.num(s.claimed_score)
            if s.claimed_jokers or s.claimed_positive:
                claim += " " + "".join(_card(c, tr=tr) for c in (s.claimed_jokers or ())) + " / " + "".join(
                    _card(c, tr=tr) for c in (s.claimed_positive or ()))
            verdict = s.verdict or "no-claim"
            cls = "verdict-agrees" if verdict == "agrees" else "" if verdict == "no-claim" else "verdict-bad"
            shown = tr.gettext(VERDICTS[verdict]) if verdict in VERDICTS else verdict
            rows.append([self.player_link(s.player, up), self.num(s.score), self.num(s.rank), positive, jokers, held,
                         claim, f'<span class="{cls}" data-verdict="{escape(verdict)}">{escape(shown)}</span>'])
        head = [(N_("player"), False), (N_("score"), True), (N_("rank"), True), (N_("scored plus"), False),
                (N_("jokers as"), False), (N_("cards held"), False), (N_("claimed"), False), (N_("verdict"), False)]
        return self.table(head, rows, row_class=["win" if s.win else "" for s in gs]) + self.html_note(
            "Scores are the best assignment of jokers and plus colours; a claim from the log is checked against it.")

    def _match_analysis(self, data: dict[str, Any], up: str) -> str:
        summary = data.get("summary", [])
        keys = [k for k in ("accuracy", "error_rate", "luck", "skill") if any(k in s for s in summary)]
        head = [(N_("player"), False), (N_("decisions"), True), (METRICS["mean_loss"], True),
                (N_("inaccuracies"), True), (N_("mistakes"), True), (N_("blunders"), True)]
        head += [(METRICS[k], True) for k in keys]
        rows = []
        for s in summary:
            marks = s.get("marks", {})
            rows.append([self.player_link(str(s.get("player", "")), up), self.number(s.get("decisions", "")),
                         self.number(s.get("mean_loss")), self.number(marks.get("inaccuracy", "")),
                         self.number(marks.get("mistake", "")), self.number(marks.get("blunder", ""))]
                        + [self.metric(k, s.get(k)) for k in keys])
        settings = data.get("settings", {})
        command = "<code>analyze --db</code>"
        if settings:
            note = self.html_note("Stored by {command}, {samples} samples, seed {seed}.", command=command,
                             samples=escape(str(settings.get("samples", "?"))), seed=escape(str(settings.get("seed", "?"))))
        else:
            note = self.html_note("Stored by {command}.", command=command)
        return self.table(head, rows) + note

