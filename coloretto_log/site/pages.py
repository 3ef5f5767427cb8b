"""The club site's pages as HTML text: the index, every match listed, a page per player and per match.

Each page is drawn from its Jinja2 template (``templates/``: ``base.html``
the frame, ``macros.html`` the shared parts, then one template a page) with
autoescaping on: every value put into a page is escaped unless it is markup
a template made, so a name from a log cannot reach a page unescaped. Names
go through the ``name`` macro (control characters shown as escapes, the
direction isolated with ``<bdi>`` so that a right-to-left override cannot
turn the text around it). This module computes what the pages show (numbers
in the locale's digits, the charts as SVG from ``svg``) and hands it to the
templates; the words are the templates' (``t``, ``nt``: translated, then
escaped, then filled). A club restyles its site by editing a copy of a
template or of ``site.css`` in a folder given as ``templates``: a file there
replaces the package's file of the same name.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import functools
import hashlib
import itertools
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from jinja2.ext import Extension
from markupsafe import Markup, escape

from ..club.swiss import Standing, placings
from ..core.cards import ALL_COLOURS, CARD_HEX, card_name
from ..core.errors import ColorettoLogError, one_line
from ..db.club.tournaments import Tournament
from ..db.ratings.model import (
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
from ..db.site.data import ClubData, GameSeat, MatchRow, MatchSeat
from ..lang import ENGLISH, N_, NATIVE_NAMES, Translator
from ..lang.chips import chip_label
from ..lang.games import edition_word, table_word
from . import svg
from .sandbox import FolderLoader, Sandbox, bounded

__all__ = ["CSS", "DEFAULT_TITLE", "INACTIVE_AFTER", "Site", "TemplateProblem", "environment", "event_slug", "match_slug",
           "name", "page_file", "player_slug", "stylesheet"]

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

#: The regular opponents of a player's page: those met in at least this many games.
REGULAR = 3
#: Players drawn in the index's ratings chart (the best by rating).
CHART_PLAYERS = 8
#: Evenings (match days) on the index.
EVENINGS = 5
#: Best and worst games on a player's page.
BEST = 5
#: Players without a game in this many months before the club's latest match are listed apart (``--inactive-after``).
INACTIVE_AFTER = 6
#: The months of a player's matches shown open; older months are folded (``<details>``).
OPEN_MONTHS = 2


class TemplateProblem(ColorettoLogError):
    """A template cannot be read or drawn (one line naming its file and line, for the user)."""


_TAGS = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\})", re.DOTALL)
_BREAK = re.compile(r"(\n[ \t]*)")


class _Compact(Extension):
    """Templates are written over many lines, the pages are compact: a line break and the indentation after it
    are dropped when a template is read (write ``{{ " " }}`` where a space must end a line)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        parts = _TAGS.split(source)  # text, tag, text, ...: only the text between tags is compacted
        parts[::2] = [_BREAK.sub(r"{#\1#}", text) for text in parts[::2]]  # a comment: line numbers kept
        return "".join(parts)


def _isolate(text: str) -> str:
    """Text for a ``<title>`` or a chart: control characters as escapes, its direction isolated (U+2068…U+2069)."""
    return "\u2068" + one_line(str(text)) + "\u2069"


def environment(templates: Path | None = None) -> jinja2.Environment:
    """The templates' environment: the package's templates, each replaced by a file of the same name in
    ``templates`` when there is one (never one outside it: ``sandbox.FolderLoader``); Jinja2's immutable
    sandbox with our bounds (``sandbox``); autoescaping on; names undefined in a template are an error. The
    package's is made once a process; one with a club's folder is made afresh (its files are read again)."""
    return _package_environment() if templates is None else _environment(templates)


@functools.cache
def _package_environment() -> jinja2.Environment:
    return _environment(None)


def _environment(templates: Path | None) -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = [jinja2.PackageLoader("coloretto_log.site", "templates")]
    if templates is not None:
        loaders.insert(0, FolderLoader(templates))
    env = Sandbox(loader=jinja2.ChoiceLoader(loaders), autoescape=True, extensions=[_Compact],
                  undefined=jinja2.StrictUndefined, auto_reload=False)
    env.filters["one_line"] = lambda text: one_line(str(text))
    env.filters["isolate"] = _isolate
    env.globals.update(player_slug=player_slug, match_slug=match_slug, event_slug=event_slug, page_file=page_file, native=NATIVE_NAMES,
                       cards={k: {"bg": bg, "fg": fg} for k, (bg, fg) in CARD_HEX.items()},
                       verdicts=VERDICTS, metrics=METRICS)
    return env


def stylesheet(templates: Path | None = None) -> str:
    """The site's style sheet (``site.css``): the one in ``templates`` when there is one, else the package's."""
    if templates is not None and (templates / "site.css").is_file():
        return (templates / "site.css").read_text(encoding="utf-8")
    return files("coloretto_log.site").joinpath("templates", "site.css").read_text(encoding="utf-8")


#: The package's style sheet.
CSS = stylesheet()


def name(text: str) -> str:
    """A name or label for a page (the templates' ``name`` macro): control characters as escapes, markup
    escaped, its direction isolated."""
    return str(environment().get_template("macros.html").module.name(text))  # type: ignore[attr-defined]


@functools.cache  # a player's is asked for on every page that names them
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


def evening_file(day: _dt.date | None) -> str:
    """The page of an evening (the matches of one day): ``evenings/2026-03-01.html``, ``evenings/undated.html``."""
    return f"evenings/{'undated' if day is None else day.isoformat()}.html"


def months_before(day: _dt.date, months: int) -> _dt.date:
    """The same day ``months`` months earlier (the month's last day when it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    last = (_dt.date(year + (month == 12), month % 12 + 1, 1) - _dt.timedelta(days=1)).day
    return _dt.date(year, month, min(day.day, last))


def event_slug(event: str) -> str:
    """The file name (without ``.html``) of an event's page (a tournament's)."""
    return _slug(event, "event")


def page_file(rel: str, lang: str, first: str) -> str:
    """The file of page ``rel`` in ``lang``: ``index.html`` in the site's first language, ``index.ja.html`` in another."""
    if lang == first:
        return rel
    stem, _, ext = rel.rpartition(".")
    return f"{stem}.{lang}.{ext}"


#: What drawing a template can raise besides a template error: a sandbox's ``range`` too big (OverflowError), a
#: macro calling itself without end, a value of the wrong type or a key not there in a club's template.
DRAW_ERRORS = (jinja2.TemplateError, ArithmeticError, RecursionError, MemoryError, TypeError, ValueError, LookupError)


def _where(error: BaseException, template: str) -> str:
    """The template error in one line: the template's file and line (from the error, or the innermost template
    frame of its traceback), then what is wrong."""
    file, line = getattr(error, "filename", None), getattr(error, "lineno", None)
    if file is None:
        tb = error.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(".html"):
                file, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
            tb = tb.tb_next
    where = one_line(str(file or template)) + (f" line {line}" if line else "")
    said: str | None
    if isinstance(error, jinja2.TemplateNotFound):
        said = (f"no template {error.name} in the templates' folder or the package's (a name outside the folder is "
                "never read)")
    elif isinstance(error, RecursionError):
        said = "a macro that calls itself without end"
    else:
        said = error.message if isinstance(error, jinja2.TemplateError) else str(error)
    return f"{where}: {one_line(said or type(error).__name__)}"


@dataclass(frozen=True, slots=True)
class Draft:
    """A page not drawn yet: its template, its path in the folder, its title and the values the template is given."""

    template: str
    rel: str
    title: str
    values: dict[str, Any]


@functools.cache
def _code_digest() -> str:
    """What draws the pages besides their data: the package's templates, the site's and the languages' code, the
    catalogues, and the libraries' versions (Jinja2, MarkupSafe, Babel)."""
    from importlib.metadata import version

    h = hashlib.sha256("/".join(version(lib) for lib in ("jinja2", "markupsafe", "babel")).encode())
    package = files("coloretto_log")
    sources = [package.joinpath("site", "templates"), package.joinpath("site"), package.joinpath("lang"),
               package.joinpath("lang", "locales")]
    sources += [p.joinpath("LC_MESSAGES") for p in package.joinpath("lang", "locales").iterdir() if p.is_dir()]
    for folder in sources:
        for p in sorted((p for p in folder.iterdir() if p.is_file()), key=lambda p: p.name):
            h.update(f"{folder.name}/{p.name}".encode())
            h.update(p.read_bytes())
    for module in ("core/cards.py", "db/ratings/model.py"):
        h.update(package.joinpath(*module.split("/")).read_bytes())
    return h.hexdigest()


class Site:
    """The pages of one club in one language, from :class:`ClubData`; links are relative to the page's folder.

    ``langs`` are the languages the site is written in (the first one's pages
    are ``index.html`` …, another's ``index.LANG.html`` …): each page links to
    its versions in the others. Every word goes through ``tr``, numbers and
    dates are the locale's. ``templates``: a folder whose files replace the
    package's templates of the same name.
    """

    def __init__(self, data: ClubData, *, replays: set[str], title: str | None = None, tr: Translator = ENGLISH,
                 langs: Sequence[str] = (), templates: Path | None = None,
                 inactive_after: int = INACTIVE_AFTER) -> None:
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
        self.player_events: dict[str, list[tuple[Tournament, Standing]]] = defaultdict(list)
        for tour, table in data.events:
            for st in table:
                self.player_events[st.player].append((tour, st))
        dated = [m.date for m in data.matches if m.date is not None]
        self.latest = max(dated) if dated else None
        self.inactive_after = inactive_after
        self.cutoff = months_before(self.latest, inactive_after) if self.latest and inactive_after > 0 else None
        self.active = [r for r in data.ratings if not self.is_inactive(r.player)]
        self.inactive = [r for r in data.ratings if self.is_inactive(r.player)]
        self.evenings: dict[_dt.date | None, list[MatchRow]] = {}
        for m in data.matches:
            self.evenings.setdefault(m.date, []).append(m)
        self.after_day: dict[str, dict[_dt.date, float]] = {}  # player -> day -> rating after that day
        for player, hist in data.history.items():
            days: dict[_dt.date, float] = {}
            for h in hist:
                if h.date is not None:
                    days[h.date] = displayed(h.mu)
            self.after_day[player] = days
        self.days_played = {p: sorted(days) for p, days in self.after_day.items()}  # each player's days, in order
        self._numbers: dict[str, str] = {}  # a number as Python writes it -> as the locale does
        self.templates = templates
        self.env = environment(templates)  # compiled once a process; what a page needs is given to each render
        self.context: dict[str, Any] = {
            "t": self.html_t, "nt": self.html_nt, "num": self.num, "pct": self.pct, "day": self.day,
            "metric": self.metric, "number": self.number, "colour": self.colour, "chip": self.chip, "href": self.href,
            "lang": self.lang,
            "langs": self.langs, "match_seats": data.match_seats, "by_id": self.by_id, "evening_file": evening_file,
            "events": data.events, "player_events": self.player_events, "points": self.points, "once": self.once,
        }
        self._once: dict[Any, Any] = {}
        self._words: dict[str, Markup] = {}  # a message without values -> its markup (html_t)

    def once(self, key: Any, macro: Callable[..., Any], *args: Any) -> Any:
        """``macro(*args)``, drawn once for this language and kept under ``key`` (a template's
        ``{{ once(("match_line", m.match_id, "../"), match_line, m, "../") }}``: a match's line in every list of its
        players' pages is drawn once). ``key`` must say everything the markup depends on but the language."""
        found = self._once.get(key)
        if found is None:
            found = self._once[key] = macro(*args)
        return found

    # ---- words and numbers

    def html_t(self, message: str, /, **values: Any) -> Markup:
        """``message`` translated and escaped for a page, its placeholders filled (escaped unless markup); one
        without values is made once (a table's column names are asked for in every cell)."""
        if values:
            return escape(self.tr.gettext(message)).format(**values)
        found = self._words.get(message)
        if found is None:
            found = self._words[message] = escape(self.tr.gettext(message)).format()
        return found

    def html_nt(self, singular: str, plural: str, n: int, /, **values: Any) -> Markup:
        """A counted message for a page (``{n}`` is the count in the locale's digits)."""
        return escape(self.tr.ngettext(singular, plural, n)).format(n=self.num(n), **values)

    def num(self, x: float, digits: int = 0, *, sign: bool = False) -> str:
        """``x`` with ``digits`` decimals, as the locale writes it (English: as Python's format writes it)."""
        text = f"{x:{'+' if sign else ''}.{digits}f}"
        if self.lang == ENGLISH.lang:
            return text
        found = self._numbers.get(text)
        if found is None:  # Babel's formatting is most of a page's time: each text is formatted once
            found = self._numbers[text] = self._locale_number(text)
        return found

    def _locale_number(self, text: str) -> str:
        body = text.lstrip("+-")
        whole, _, frac = body.partition(".")
        point = self.tr.format_number(1.5)[1:-1]  # the locale's decimal sign
        return text[: len(text) - len(body)] + self.tr.format_number(int(whole)) + (point + frac if frac else "")

    def pct(self, k: float, n: float) -> str:
        return "–" if n == 0 else f"{self.num(100 * k / n)}%"

    def day(self, d: _dt.date | None) -> str:
        return self.tr.t("undated") if d is None else self.tr.format_date(d)

    def chip(self, kind: str) -> str:
        """A card's chip label in this page's language (``lang.chips``)."""
        return chip_label(kind, self.tr)

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

    def is_inactive(self, player: str) -> bool:
        """No game in the ``inactive_after`` months before the club's latest match (never, with 0 or no date)."""
        r = self.rating.get(player)
        last = r.last_played if r is not None else None
        return self.cutoff is not None and (last is None or last < self.cutoff)

    # ---- the pages

    def _makers(self) -> Iterator[tuple[str, Callable[[], str | Draft]]]:
        """Every page of the site: (its path in the first language, what draws it, or what it is drawn from)."""
        yield "index.html", self.index
        yield "matches.html", self.matches
        for day in self.evenings:
            yield evening_file(day), functools.partial(self._evening, day)
        for player in self.data.players:
            yield f"players/{player_slug(player)}.html", functools.partial(self._player, player)
        for m in self.data.matches:
            yield f"matches/{match_slug(m.match_id)}.html", functools.partial(self._match, m)
        for tour, table in self.data.events:
            yield f"events/{event_slug(tour.name)}.html", functools.partial(self.event, tour, table)

    def paths(self) -> list[str]:
        """The path of every page of the site in the first language, none drawn (what a build will write)."""
        return [rel for rel, _ in self._makers()]

    def pages(self) -> Iterator[tuple[str, str]]:
        """Every page of the site in this language: (its path in the first language, its HTML)."""
        for rel, key, text in self.drafts():
            yield rel, text()

    def drafts(self) -> Iterator[tuple[str, str, Callable[[], str]]]:
        """Every page of the site in this language, not drawn yet: (its path in the first language, its key,
        what draws it). A page with a key (a match's, an evening's, a player's) is the same page as long as its key is: the
        key is a digest of what the page is drawn from (its data, the language, the title, the templates and the
        code that fills them); "" for the others (drawn every time), and for every page drawn from a club's own
        templates (which may show anything)."""
        for rel, make in self._makers():
            made = make()
            if isinstance(made, Draft):
                draft = made
                yield rel, self.key(draft), functools.partial(self.draw, draft)
            else:
                yield rel, "", functools.partial(str, made)

    def key(self, draft: Draft) -> str:
        """The digest of what ``draft`` is drawn from ("" with a club's own templates)."""
        if self.templates is not None:
            return ""
        h = hashlib.sha256(self.salt.encode("utf-8", "surrogatepass"))
        h.update(repr((draft.template, draft.rel, draft.title, draft.values)).encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    @functools.cached_property
    def salt(self) -> str:
        """What every keyed page of this language is drawn with: the code and templates, the words, the title."""
        return repr((_code_digest(), self.lang, self.langs, self.title))

    def check(self) -> None:
        """Draw every page and throw it away: a template that cannot be drawn (a club's own, given as
        ``templates``, for any of the club's players, matches or events) is refused before anything is written
        (:class:`TemplateProblem`)."""
        for _rel, _key, draw in self.drafts():
            draw()

    # ---- the frame

    def draw(self, draft: Draft) -> str:
        """The page ``draft`` says."""
        return self.render(draft.template, draft.rel, draft.title, **draft.values)

    def render(self, template: str, rel: str, title: str, **values: Any) -> str:
        """Page ``rel`` (its path in the folder) from ``template``, titled ``title``."""
        up = "../" * rel.count("/")
        try:
            return bounded(self.env.get_template(template),
                           {"title": title, "up": up, "here": rel.rsplit("/", 1)[-1], **self.context, **values})
        except DRAW_ERRORS as e:
            raise TemplateProblem(_where(e, template)) from None


    # ---- the index

    def index(self) -> str:
        d = self.data
        dated = [m.date for m in d.matches if m.date is not None]
        figures = {"base": self.num(BASE), "scale": f"{SCALE:g}", "mu0": f"{MU0:g}", "band": f"{BAND:g}", "z": f"{Z:g}",
                   "games": str(PROVISIONAL_GAMES)}
        return self.render(
            "index.html", "index.html", self.title, matches=d.matches, players=d.players,
            first_day=min(dated) if dated else None, last_day=max(dated) if dated else None, ratings=self.active,
            inactive=self.inactive, inactive_after=self.inactive_after, latest=self.latest,
            figures=figures, chart=self._ratings_chart([r.player for r in self.active[:CHART_PLAYERS]]),
            evenings=self._evenings(), club=self._club_figures(), months=self._months_chart(),
            forms=[f for f in self.data.stats.get("form", []) if not self.is_inactive(f["player"])],
            form_svg=lambda f, size=22: self._form_svg(f, size),
        )

    def _months_chart(self) -> Markup | None:
        months = self.data.stats.get("months", [])
        if not months:
            return None
        bars = [(m["month"], float(m["matches"]), svg.PALETTE[0]) for m in months]
        return Markup(svg.vbars(bars, title=self.tr.t("Matches a month"), height=170,
                                y_max=1.15 * max(1.0, *(b[1] for b in bars))))

    def _form_svg(self, form: dict[str, Any], size: int = 30) -> Markup:
        places = list(zip(form["last"], form["last_players"]))
        labels = [self.tr.t("{rank} of {n}", rank=self.num(p), n=self.num(n)) for p, n in places]
        return Markup(svg.form(places, title=self.tr.t("Places in the last games, oldest first"), labels=labels,
                               size=size))

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

    def _lines(self, series: Sequence[svg.Line], *, title: str, dates: bool, y_label: str) -> Markup:
        return Markup(svg.lines(series, title=title, dates=dates, y_label=y_label, empty=self.tr.t("no data yet")))

    def _ratings_chart(self, players: Sequence[str]) -> dict[str, Any] | None:
        if not players:
            return None
        all_dated = all(h.date is not None for p in players for h in self.data.history.get(p, []))
        series = [self._series(p, svg.PALETTE[i % len(svg.PALETTE)], band=False) for i, p in enumerate(players)]
        chart = self._lines(series, title=self.tr.t("Ratings over time"), dates=all_dated, y_label=self.tr.t("rating"))
        return {"svg": chart, "series": series, "dated": all_dated}

    def _evenings(self) -> list[tuple[_dt.date | None, list[MatchRow]]]:
        days: dict[_dt.date | None, list[MatchRow]] = {}
        for m in self.data.matches:
            days.setdefault(m.date, [])
            if len(days) > EVENINGS:
                days.pop(m.date)
                break
            days[m.date].append(m)
        return list(days.items())

    def _club_figures(self) -> list[dict[str, Any]]:
        stats = self.data.stats
        tr = self.tr
        figs: list[dict[str, Any]] = []
        by_n: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in stats.get("seats", []):
            by_n[row["players"]].append(row)
        for n, rows in sorted(by_n.items()):
            bars = [(tr.t("seat {n}", n=r["seat"] + 1), r["win_rate"]["rate"] or 0.0, svg.PALETTE[0]) for r in rows]
            chart = svg.vbars(bars, title=tr.nt("Wins by seat, {n} player", "Wins by seat, {n} players", n),
                              y_max=max(0.6, *(1.12 * b[1] for b in bars)), reference=1 / n, percent=True,
                              reference_title=tr.t("expected with no advantage"))
            figs.append({"kind": "seats", "svg": Markup(chart), "n": n, "games": sum(r["games"] for r in rows) // max(n, 1)})
        colours = stats.get("colours", [])
        if colours:
            bars4 = [
                (self.colour(c["colour"]), c["positive_rate"], CARD_HEX[c["colour"]][0],
                 tr.t("{share} · {points} pts", share=self.num(100 * c["positive_rate"]) + "%",
                      points=self.num(c["avg_points"], 1, sign=True)))
                for c in colours
            ]
            figs.append({"kind": "colours", "svg": Markup(svg.hbars(bars4, title=tr.t("How often each colour scores")))})
        hist = stats.get("histogram", {}).get("bins", [])
        if hist:
            bars = [(str(b["low"]), float(b["count"]), svg.PALETTE[2]) for b in hist]
            chart = svg.vbars(bars, title=tr.t("Scores"), height=170, y_max=1.1 * max(b[1] for b in bars))
            figs.append({"kind": "scores", "svg": Markup(chart), "width": str(stats["histogram"]["width"])})
        return figs

    # ---- every match

    def matches(self) -> str:
        """Every evening, newest first, grouped by month: its matches, and who won the night."""
        def month(day: _dt.date | None) -> str:
            return "" if day is None else day.strftime("%Y-%m")

        months = [(key, [(day, ms, self.night_winners(ms)) for day, ms in group])
                  for key, group in itertools.groupby(self.evenings.items(), key=lambda e: month(e[0]))]
        return self.render("matches.html", "matches.html", self.tr.t("Every match"), months=months)

    def night_winners(self, ms: Sequence[MatchRow]) -> tuple[list[str], int]:
        """Who won the night: the most matches won that day (a shared win counts); ties broken by the lower mean
        place. The winners (more than one when tied on both) and their wins; ([], 0) when no match was won."""
        wins: dict[str, int] = defaultdict(int)
        places: dict[str, list[int]] = defaultdict(list)
        for m in ms:
            for seat in self.data.match_seats.get(m.match_id, []):
                places[seat.player].append(seat.rank)
                wins[seat.player] += bool(seat.win)
        most = max(wins.values(), default=0)
        if most == 0:
            return [], 0
        mean = {p: sum(places[p]) / len(places[p]) for p in wins if wins[p] == most}
        best = min(mean.values())
        return sorted(p for p, v in mean.items() if v == best), most

    # ---- an evening

    def evening(self, day: _dt.date | None) -> str:
        return self.draw(self._evening(day))

    def _evening(self, day: _dt.date | None) -> Draft:
        ms = self.evenings.get(day, [])
        players = sorted({p for m in ms for p in m.players})
        changes: list[dict[str, Any]] = []
        if day is not None:
            for p in players:
                days = self.after_day.get(p, {})
                if day not in days:
                    continue
                played = self.days_played[p]
                i = bisect.bisect_left(played, day)  # the days before this one
                before = played[i - 1] if i else None
                old = displayed(MU0) if before is None else days[before]
                changes.append({"player": p, "before": old, "after": days[day], "new": before is None})
            changes.sort(key=lambda c: (c["before"] - c["after"], c["player"]))
        winners, wins = self.night_winners(ms)
        seats: dict[str, list[MatchSeat]] = {m.match_id: self.data.match_seats.get(m.match_id, []) for m in ms}
        title = self.tr.t("Undated matches") if day is None else self.tr.t("Evening of {date}", date=self.day(day))
        return Draft("evening.html", evening_file(day), f"{title} · {self.title}", {
            "date": day, "ms": list(reversed(ms)), "players": players, "winners": winners, "wins": wins, "seats": seats,
            "changes": changes, "heading": title})

    # ---- a player

    def player(self, player: str) -> str:
        return self.draw(self._player(player))

    def _player(self, player: str) -> Draft:
        r = self.rating.get(player)
        mine = self.player_games.get(player, [])
        dated = self._dated(self.data.history.get(player, []))
        chart = self._lines([self._series(player, svg.PALETTE[0], band=True)],
                            title=self.tr.t("Rating of {player}", player=player), dates=dated,
                            y_label=self.tr.t("rating"))
        best, worst = self._best_worst(mine)
        form = next((f for f in self.data.stats.get("form", []) if f["player"] == player), None)
        rivals = next((f for f in self.data.stats.get("rivals", []) if f["player"] == player), None)
        return Draft("player.html", f"players/{player_slug(player)}.html", f"{one_line(player)} · {self.title}", {
            "player": player, "r": r, "rated": len(self.data.ratings), "dated": dated, "rating_chart": chart,
            "band": {"scale": f"{SCALE:g}", "band": f"{BAND:g}"}, "by_seat": self._by_seat(mine),
            "colours": self._colours(mine), "opponents": self._head_to_head(mine), "regular": REGULAR, "best": best, "worst": worst,
            "analysed": self._analysis_rows(player), "match_months": self._by_month(self.player_matches.get(player, [])),
            "open_months": OPEN_MONTHS, "form": form, "form_svg": None if form is None else self._form_svg(form),
            "rivals": rivals, "seat_chart": self._seat_chart(mine), "score_trend": self._score_trend(player),
            "score_bins": self._score_bins(player), "inactive": self.is_inactive(player),
            "active_rank": {r.player: i for i, r in enumerate(self.active, 1)}.get(player), "active": len(self.active),
            "events_shown": self.player_events.get(player, []),  # read through the context (player_events): in the key
        })

    @staticmethod
    def _by_month(ms: list[MatchRow]) -> list[tuple[str, list[MatchRow]]]:
        """Matches (newest first) grouped by month; undated ones last, as ""."""
        return [(key, list(group)) for key, group in
                itertools.groupby(ms, key=lambda m: "" if m.date is None else m.date.strftime("%Y-%m"))]

    def _seat_chart(self, mine: list[GameSeat]) -> Markup | None:
        """Win rate from each (table size, seat), with what chance gives (1 / table size) marked over each bar."""
        groups: dict[tuple[int, int], list[GameSeat]] = defaultdict(list)
        for s in mine:
            groups[(s.n_players, s.seat)].append(s)
        if not groups:
            return None
        keys = sorted(groups)
        bars = [(f"{n}·{seat + 1}", sum(g.win for g in groups[(n, seat)]) / len(groups[(n, seat)]),
                 svg.PALETTE[(n - 2) % len(svg.PALETTE)]) for n, seat in keys]
        return Markup(svg.vbars(bars, title=self.tr.t("Wins by table size and seat"), percent=True, y_max=1.0,
                                marks=[1 / n for n, _ in keys], reference_title=self.tr.t("what chance gives")))

    def _score_trend(self, player: str) -> Markup | None:
        months = self.data.score_months.get(player, [])
        if len(months) < 2:
            return None
        pts = [(float(_dt.date.fromisoformat(m + "-15").toordinal()), mean) for m, _, mean in months]
        return self._lines([svg.Line(self.tr.t("mean score"), svg.PALETTE[1], pts)],
                           title=self.tr.t("Mean score a month"), dates=True, y_label=self.tr.t("score"))

    def _score_bins(self, player: str) -> Markup | None:
        bins = self.data.score_bins.get(player, [])
        if not bins:
            return None
        bars = [(str(low), float(n), svg.PALETTE[2]) for low, n in bins]
        return Markup(svg.vbars(bars, title=self.tr.t("Scores"), height=150, y_max=1.15 * max(b[1] for b in bars)))

    def _by_seat(self, mine: list[GameSeat]) -> list[list[str]]:
        groups: dict[tuple[int, int], list[GameSeat]] = defaultdict(list)
        for s in mine:
            groups[(s.n_players, s.seat)].append(s)
        rows = []
        for (n, seat), gs in sorted(groups.items()):
            wins = sum(g.win for g in gs)
            rows.append([self.num(n), self.num(seat + 1), self.num(len(gs)), self.num(wins), self.pct(wins, len(gs)),
                         self.num(sum(g.score for g in gs) / len(gs), 1), self.num(sum(g.rank for g in gs) / len(gs), 2)])
        return rows

    def _colours(self, mine: list[GameSeat]) -> dict[str, Any] | None:
        if not mine:
            return None
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
        return {"svg": Markup(svg.hbars(bars, title=self.tr.t("Colours scored plus"))), "jokers": self.num(jokers, 1),
                "plus2": self.num(plus2, 1)}

    def _head_to_head(self, mine: list[GameSeat]) -> list[dict[str, Any]]:
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
        return [{"player": o, "games": g, "ahead": w, "behind": lost, "tied": t} for o, (g, w, lost, t) in regular]

    @staticmethod
    def _best_worst(mine: list[GameSeat]) -> tuple[list[GameSeat], list[GameSeat]]:
        ordered = sorted(mine, key=lambda s: (-s.score, s.rank, s.match_id, s.game))
        return ordered[:BEST], ordered[BEST:][::-1][:BEST]  # a game is in one list at most

    def _analysis_rows(self, player: str) -> dict[str, Any] | None:
        found = []
        for m in self.player_matches.get(player, []):
            entry = self.data.analyses.get(m.match_id)
            if entry is None:
                continue
            for s in entry[1].get("summary", []):
                if s.get("player") == player:
                    found.append((m, s))
        if not found:
            return None
        keys = [k for k in ("accuracy", "error_rate", "luck", "skill") if any(k in s for _, s in found)]
        chronological = sorted(found, key=lambda t: (t[0].date or _dt.date.min, t[0].match_id))
        dated = all(m.date is not None for m, _ in chronological)
        charts: list[tuple[str, Markup]] = []
        for k in ["mean_loss", *keys]:
            pts = [(float(m.date.toordinal()) if dated and m.date else float(i + 1), float(s[k]))
                   for i, (m, s) in enumerate(chronological) if isinstance(s.get(k), (int, float))]
            if len(pts) >= 2:
                label = self.tr.t(METRICS[k])
                chart = self._lines([svg.Line(label, svg.PALETTE[len(charts)], pts)], title=label, dates=dated,
                                    y_label=label)
                charts.append((label, chart))
        head = [(self.tr.gettext(METRICS[k]), True) for k in keys]
        return {"rows": found, "cols": keys, "head": head, "charts": charts}

    # ---- a match

    def match(self, m: MatchRow) -> str:
        return self.draw(self._match(m))

    def _match(self, m: MatchRow) -> Draft:
        games: dict[int, list[GameSeat]] = defaultdict(list)
        for s in self.data.game_seats.get(m.match_id, []):
            games[s.game].append(s)
        entry = self.data.analyses.get(m.match_id)
        analysis = None
        if entry is not None:
            summary = entry[1].get("summary", [])
            keys = [k for k in ("accuracy", "error_rate", "luck", "skill") if any(k in s for s in summary)]
            analysis = {"summary": summary, "cols": keys, "settings": entry[1].get("settings", {}),
                        "head": [(self.tr.gettext(METRICS[k]), True) for k in keys]}
        return Draft("match.html", f"matches/{match_slug(m.match_id)}.html",
                     f"{self.day(m.date)} · " + ", ".join(one_line(p) for p in m.players), {
            "m": m, "edition": edition_word(m.edition, self.tr), "scoring": table_word(m.scoring, self.tr),
            "source": m.source_file.replace("\\", "/").rsplit("/", 1)[-1],  # the file's name, not where it lives
            "replay": m.match_id in self.replays,
            "replay_lang": "" if self.lang == self.langs[0] else f"?lang={self.lang}",  # the replay opens in this language
            "seats": self.data.match_seats.get(m.match_id, []), "games": sorted(games.items()), "analysis": analysis,
        })  # fmt: skip

    # ---- an event (a tournament)

    def points(self, x: float) -> str:
        """Placing points as the locale writes them, with the decimals they have (4, 1.5, 0.75)."""
        return self.num(x, len(f"{x:g}".partition(".")[2]))

    def event(self, tour: Tournament, table: list[Standing]) -> str:
        """An event's page: its settings, each round's tables with their results, and the standings (as
        ``tournament standings`` gives them: ``db.club.tournaments``)."""
        rounds = []
        for r, tables in sorted(tour.tables.items()):
            rows = []
            for t, members in enumerate(tables, 1):
                result = tour.results.get((r, t))
                placing = placings(result.totals, tour.points) if result is not None else {}
                rows.append({
                    "no": t, "result": result, "match": None if result is None else self.by_id.get(result.source),
                    "seats": [(p, None if result is None else result.totals.get(p), placing.get(p)) for p in members],
                })  # fmt: skip
            rounds.append((r, rows))
        sizes = [(n, " – ".join(self.points(x) for x in tour.points[n])) for n in sorted(tour.points) if n in tour.sizes]
        played = {m.date for _, rows in rounds for row in rows if isinstance(m := row["match"], MatchRow)}
        return self.render(
            "event.html", f"events/{event_slug(tour.name)}.html", f"{one_line(tour.name)} · {self.title}",
            tour=tour, standings=table, rounds=rounds, sizes=sizes, paths=event_paths(table, rounds),
            days=sorted(d for d in played if d is not None),  # the evenings its recorded tables were played on
        )


def event_paths(table: list[Standing], rounds: list[tuple[int, list[dict[str, Any]]]]) -> list[tuple[str, list[Any]]]:
    """Each player's path through an event, in standing order: round by round (the final last), the table they
    sat at and the placing points they took there (None: no result yet); None for a round they did not play."""
    where: dict[tuple[str, int], tuple[int, float | None]] = {}
    for r, rows in rounds:
        for row in rows:
            for p, _total, placing in row["seats"]:
                where[p, r] = (row["no"], placing)
    return [(s.player, [where.get((s.player, r)) for r, _ in rounds]) for s in table]
