"""A self-contained HTML page that replays matches in a browser.

The page is three package data files, ``assets/viewer.html``, ``viewer.css``
and ``viewer.js``, inlined into one document when it is written: no network
access, no external fonts or scripts. The data is the JSON of
``MatchTimeline.as_json()`` (docs/replay.md), embedded in a
``<script type="application/json">`` element; the script draws what that JSON
says (the rows and collections of the current move as cards, the scores,
ranks, winners and claim verdicts the report computed) and computes none of
it again. A slider, buttons and the arrow keys step through the moves; a menu
switches games. The page opens from disk and fits a phone's screen.

With ``analysis`` (a match's object of ``analyze --json``, keyed by the
match's number in the file) the same page is the analysis of the game: for
the move on the slider, each decision's played and best choice, loss, mark,
explanation and best choices; a chart of every player's expected margin
against the move number, whose points (and the list of marked moves) move
the slider when tapped; the per-player summary. The page shows the analysis
as it is given and computes none of it again.

``render_html(timelines, title=..., start=..., analysis=..., method=...)``
returns the page as one string; ``page_chunks`` yields the same text in pieces, a match at a time, and
``write_html`` writes them atomically as they come, so that a long file is
written without holding the page in memory, and refuses (``PageTooLarge``) a
page over ``PAGE_LIMIT`` bytes, which a browser could not open comfortably.

For programs (and the browser test) the page exposes what it shows as
attributes: ``<body data-game="G" data-move="M">``, every card carries
``data-card``, every row ``data-row``, every player panel ``data-player``
and ``data-score``; with an analysis, every decision panel ``data-decision``
and ``data-mark``, every chart point and marked-move button ``data-move``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.cards import CARD_HEX, LAST_ROUND, SHORT_LABELS
from ..core.errors import ColorettoLogError, UnreadableFileError, one_line
from ..lang import DEFAULT, N_, page_catalogue
from ..lang.chips import CHIP_LABELS
from ..log.atomic import atomic_write_lines
from ..log.reader import decode, parse_json, read_bytes
from ..report.timeline import ENCODE, HAND, JOINS, PHRASES, MatchTimeline

__all__ = [
    "CARD_COLOURS",
    "CARD_LABELS",
    "PAGE_LIMIT",
    "Analysis",
    "BadAnalysis",
    "PageTooLarge",
    "PageWritten",
    "analysis_from_json",
    "analysis_of",
    "embed_json",
    "fill",
    "page_chunks",
    "read_analysis",
    "render_html",
    "write_html",
]

#: The largest page ``write_html`` writes, in bytes (50 MB). A browser parses the
#: page's data as one JSON text: much more and a phone (or a desktop) stalls or
#: gives up. A 4-game match of about 90 moves a game is about 0.5 MB.
PAGE_LIMIT = 50_000_000

#: Short labels drawn on cards (full names are in the tooltip).
CARD_LABELS: dict[str, str] = {k: v for k, v in SHORT_LABELS.items() if k != LAST_ROUND}

#: Card colours: (background, text).
CARD_COLOURS: dict[str, tuple[str, str]] = {k: v for k, v in CARD_HEX.items() if k != LAST_ROUND}

def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message of the page for the catalogue: the pair (the page chooses the form)."""
    return (singular, plural)


#: The page's words (``viewer.html``'s ``data-t`` attributes and ``viewer.js``'s ``t(...)``; a test holds the
#: list to them). The page switches among the languages it was written with (``langs``) without the network.
VIEWER_MESSAGES: tuple[str | tuple[str, str], ...] = (
    N_("Game"), N_("game"), N_("the end of this game: final scores, claims, match totals"), N_("Final scores"),
    N_("Language"), N_("moves"), N_("first move (Home)"), N_("first move"), N_("previous move (←)"),
    N_("previous move"), N_("move"), N_("next move (→)"), N_("next move"), N_("last move (End)"), N_("last move"),
    N_("Expected margin"), N_("tap a point or a marked move to go there"),
    N_("Margin: a player’s expected final score less the mean of the others’. Loss: the best choice’s margin less "
       "the played one’s, ± one standard error. Win: the chance of finishing first, with the played choice → with "
       "the best."),
    N_("Rows"), N_("Players"), N_("score with the best assignment now"), N_("Per player"), N_("the whole match"),
    N_("Keys: ← → step, Home End first and last move (End: the final scores), [ ] or PgUp PgDn switch games."),
    N_("match {match} · game {game}"), N_("game {game}"), N_("error"), N_("unfinished"), N_("Nothing to replay."),
    N_("Cards carry their colour's letters: {letters}."), N_("no move to replay"), N_(", "), *CHIP_LABELS.values(),
    N_("Game {game} cannot be replayed."), N_("setup"), N_("move {move}"), N_("Play broke off at move {move}: "),
    N_("round {round}"), N_("last round!"), N_("game over"), N_("{who} to play"), N_("row {row}"),
    N_("taken by {who}"), N_("taken"), N_("Discarded with leftover rows: {cards}"), N_("took a row"),
    N_("no cards yet"), N_("Final scores · game {game}"), N_("Scores so far · game {game} (not finished)"),
    N_("agrees"), N_("over-claimed by {n}"), N_("under-claimed by {n}"), N_("illegal choice"),
    N_("choice below the optimum"), N_("choice does not score the claim"), N_("jokers → {colours}"), N_("none"),
    N_("positive: {colours}"), N_("Claims · game {game}"), N_("claimed"), N_("no score"), N_("optimum"),
    N_("the row for {card}"), N_("draw or take"), N_("forced"), N_("{loss} exact"), N_("Setup"), N_("Move {move}"),
    N_("decided at the table of the setup (‹)"), N_("decided at the table of move {move} (‹)"),
    N_("No decision yet: move 1 is the first."), N_("No decision analysed at this move."),
    N_("No decision of this game was analysed."), N_("played"), N_("best choice"), N_("{choice} (played)"), N_("loss"),
    N_("win"), N_("mark"), N_("forced: the only choice"), N_("choice"), N_("margin"),
    N_("No decision with a choice to chart in this game."), N_("expected margin of every player over game {game}"),
    N_("move {move}: {mark}"), N_("No marked decision in this game."),
    N_("move {move}: {who} played {played}, best {best}"), N_("accuracy"), N_("error rate"), N_("luck"),
    N_("skill"), N_("final margin"), N_("decisions (+{forced} forced)"), N_("decisions"), N_("mean loss"),
    N_("game {game}:"), N_("played {played}, best {best}"),
    N_("up to {n} sampled orders of the unseen cards a decision, every seat then playing as the {bot} bot"),
    N_("up to {n} sampled orders of the unseen cards a decision, every seat then playing as the {bot} bot to the end "
       "of the round, where the evaluator values the position (to the end of the game near it)"),
    N_("up to {n} sampled orders of the unseen cards a decision"), N_("exact in the {part}"),
    N_("marks by the winning chance lost: {marks}"), N_("seed {seed}"), N_("How: {parts}."),
    N_("about equal"), N_("chance lost"), N_("start"), N_("others"), N_("match win"),
    # a club site's replay: the links back to the site's index and the match's evening (``heading``)
    N_("Standings"), N_("Evening of {date}"), N_("Undated matches"),
    # the choices' names, and the pieces of an explanation's lists (its sentences come with the data: _said)
    N_("draw"), N_("take row {row}"), N_("nothing"), N_("{list}, {item}"),
    # the marks, and the cards' names (translated where the page shows them)
    N_("inaccuracy"), N_("mistake"), N_("blunder"), N_("inaccuracies"), N_("mistakes"), N_("blunders"),
    N_("orange"), N_("blue"), N_("brown"), N_("yellow"), N_("grey"), N_("green"), N_("red"), N_("purple"),
    N_("joker"), N_("golden joker"), N_("+2"),
    ngettext("{n} move", "{n} moves"), ngettext("{n} card left in the deck", "{n} cards left in the deck"),
    ngettext("Match totals · {n} complete game", "Match totals · {n} complete games"),
)  # fmt: skip

#: ``%%NAME%%`` in the page template: where a part goes.
_PLACEHOLDER = re.compile(r"%%([A-Z_]+)%%")
_DATA = "%%DATA%%"


_encode = ENCODE  # compact, not ASCII-escaped, no check for reference cycles (report.timeline)


def _script_safe(text: str) -> str:
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def embed_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` in the text."""
    return _script_safe(_encode(value))


def fill(template: str, parts: Mapping[str, str]) -> str:
    """``template`` with every ``%%NAME%%`` replaced by ``parts[NAME]``, in one pass.

    What is put in is never read again: a title that contains ``%%DATA%%``
    stays that text. A placeholder without a part is a bug (``KeyError``).
    """
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1)], template)


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


#: The moves' narrative: report.timeline's phrases and the words that join cards (assets/narrative.js).
NARRATIVE_MESSAGES: tuple[str, ...] = (*PHRASES, *JOINS.values(), HAND)


@cache
def _words(langs: tuple[str, ...], said: tuple[str | tuple[str, str], ...] = ()) -> dict[str, Any]:
    """The page's words in ``langs``, with the messages ``said`` of its data (read once: a club site writes a
    page per match)."""
    return page_catalogue(langs, VIEWER_MESSAGES + NARRATIVE_MESSAGES + said)


def _said(analysis: Analysis | None) -> tuple[str | tuple[str, str], ...]:
    """The messages of the analysis' explanations (``explanation_parts``: coach.explain), a counted one as its
    pair, for the page to say them in its languages; whatever is not such a part is left out (it shows the
    English ``explanation``)."""
    found: set[str | tuple[str, str]] = set()

    def walk(parts: Any) -> None:
        for part in parts if isinstance(parts, list) else ():
            if not isinstance(part, dict) or not isinstance(part.get("message"), str):
                continue
            plural = part.get("plural")
            found.add((part["message"], plural) if isinstance(plural, str) else part["message"])
            for value in (part.get("values") or {}).values() if isinstance(part.get("values"), dict) else ():
                if isinstance(value, dict):
                    walk(value.get("list"))

    for match in (analysis or {}).values():
        for d in match.get("decisions") or () if isinstance(match, Mapping) else ():
            if isinstance(d, Mapping):
                walk(d.get("explanation_parts"))
    return _in_order(found)


def _in_order(said: Iterable[str | tuple[str, str]]) -> tuple[str | tuple[str, str], ...]:
    return tuple(sorted(said, key=lambda m: m if isinstance(m, str) else m[0]))


def _card_css() -> str:
    return "\n".join(f".k-{name}{{background:{bg};color:{fg}}}" for name, (bg, fg) in CARD_COLOURS.items())


#: What the page embeds of an analysis: ``analyze --json``'s match object, keyed by match number.
Analysis = Mapping[int, Mapping[str, Any]]


def _frame(
    title: str, start: dict[str, int] | None, *, analysed: bool = False, method: Mapping[str, Any] | None = None,
    langs: tuple[str, ...] = (DEFAULT,), heading: Mapping[str, Any] | None = None,
) -> tuple[str, str]:
    """The page before the matches' data (ending in ``"matches":[``) and after the data object (``_words_end``
    closes it: the page's words come after the matches, so that a page written a match at a time names the
    messages of the explanations it has shown); it opens in the first of ``langs``, or in ``?lang=`` of its
    address."""
    head, tail = _asset("viewer.html").split(_DATA)
    kind = "analysis" if analysed else "replay"
    parts = {
        "TITLE": html.escape(one_line(f"Coloretto {kind} · {title}")),  # no control or bidi character: escapes
        "CSS": _asset("viewer.css"),
        "CARD_CSS": _card_css(),
        "JS": _asset("viewer.js"),
        "LANG_JS": _asset("i18n.js") + "\n" + _asset("narrative.js") + "\n" + _asset("states.js"),
        "NAV": "" if heading is None else _back_links(heading),
    }
    # The data object, written a match at a time: {"title", "start", "labels", "method", "langs", "phrases",
    # "matches": [...], "i18n"}.
    data: dict[str, Any] = {"title": title, "start": start, "labels": CARD_LABELS,
                            "method": None if method is None else dict(method), "langs": list(langs),
                            "phrases": list(PHRASES)}  # the story's phrases, by their place (changes_json)
    if heading is not None:
        data["heading"] = dict(heading)
    opening = embed_json(data)
    head = head.replace('<html lang="en">', f'<html lang="{html.escape(langs[0])}">', 1)
    return fill(head, parts) + opening[:-1] + ',"matches":[', fill(tail, parts)


def _back_links(heading: Mapping[str, Any]) -> str:
    """A club site's replay: the links back, in the page itself (a page without scripts has them too): the site's
    index, the match's evening and its players' pages, in the site's first language (the script points them to
    the language shown: ``data-page`` is the address without ``.html``)."""

    def link(kind: str, page: str, text: str, word: str = "") -> str:
        said = f' data-t="{html.escape(word)}"' if word else ""
        return (f'<a data-link="{kind}" data-page="{html.escape(page)}" href="{html.escape(page)}.html">'
                f"<span{said}>{text}</span></a>")

    parts = [link("index", str(heading["index"]), "Standings", "Standings")]
    evening = heading.get("evening")
    if evening:
        date = heading.get("date")
        text = f"Evening of {html.escape(str(date))}" if date else "Undated matches"
        parts.append(link("evening", str(evening), text).replace("<a ", f'<a data-date="{html.escape(str(date or ""))}" ', 1))
    for player, page in zip(heading.get("players", ()), heading.get("player_pages", ()), strict=False):
        parts.append(link("player", str(page), f"<bdi>{html.escape(one_line(str(player)))}</bdi>"))
    return '<nav id="back" class="back" aria-label="site">\u2190 ' + " \u00b7 ".join(parts) + "</nav>"


def _words_end(langs: tuple[str, ...], said: Iterable[str | tuple[str, str]]) -> str:
    """The end of the data object: the matches' list closed, then the page's words in each of ``langs``, with the
    messages ``said`` by the explanations shown."""
    return '],"i18n":' + _words_json(tuple(langs), _in_order(said)) + "}"


@lru_cache(maxsize=64)  # bounded: a long-running `serve` meets a new set of explanations' messages a page
def _words_json(langs: tuple[str, ...], said: tuple[str | tuple[str, str], ...]) -> str:
    """``_words`` as the page embeds it, written once (a club site's replay pages embed the same words)."""
    return embed_json(_words(langs, said))


def analysis_of(position: int, timeline: MatchTimeline, analysis: Analysis | None) -> Mapping[str, Any] | None:
    """The analysis of the ``position``-th timeline given (from 1), if ``analysis`` has it.

    ``analysis`` is keyed by the match's number in the file, which is the
    timeline's position when every match of the file is given. When only some
    are (``--match K``), the entry with the timeline's file (by name) and line
    is taken; failing that, the entry at its position if it has the same
    players and names no other line of the same file (the analysis of a match
    read from elsewhere, as a club site keeps it).
    """
    if not analysis:
        return None
    at = analysis.get(position)
    if at is not None and _same_match(at, timeline):
        return at
    found = [a for a in analysis.values() if _same_match(a, timeline)]
    if len(found) == 1:
        return found[0]
    if at is not None and at.get("players", list(timeline.players)) == list(timeline.players):
        other_line = _same_file(at, timeline) and at.get("line") != timeline.line
        return None if other_line else at
    return None


def _same_file(a: Mapping[str, Any], t: MatchTimeline) -> bool:
    file = a.get("file")
    return file == t.file or (isinstance(file, str) and t.file is not None and Path(file).name == Path(t.file).name)


def _same_match(a: Mapping[str, Any], t: MatchTimeline) -> bool:
    """The analysis is of this match: the same line of the same file (by name, wherever it was read), the same
    players."""
    return _same_file(a, t) and a.get("line") == t.line and a.get("players") == list(t.players)


def read_analysis(path: Path) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """``analysis_from_json`` of the file ``path``, read as safely as a log is (``log.reader``).

    Raises ``BadAnalysis``: ``unreadable`` when the file cannot be read, else it is not such a document.
    """
    try:
        raw = read_bytes(path)
    except UnreadableFileError as e:
        raise BadAnalysis(str(e), unreadable=True) from None
    try:
        value = parse_json(decode(raw))
    except ValueError as e:
        raise BadAnalysis(f"{path}: {e}") from None
    try:
        return analysis_from_json(value)
    except BadAnalysis as e:
        raise BadAnalysis(f"{path}: {e}") from None


class BadAnalysis(ValueError):
    """A document given as an analysis that is not what ``analyze --json`` prints, or a file that cannot be
    read (``unreadable``)."""

    def __init__(self, message: str, *, unreadable: bool = False) -> None:
        super().__init__(message)
        self.unreadable = unreadable


def analysis_from_json(value: Any) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """The ``analysis`` and ``method`` of ``render_html`` from the document ``analyze --json`` prints.

    Raises ``BadAnalysis`` (one line) when ``value`` is not such a document.
    """
    matches = value.get("matches") if isinstance(value, dict) else None
    if not isinstance(matches, list):
        raise BadAnalysis("not the output of analyze --json: no \"matches\" list")
    out: dict[int, dict[str, Any]] = {}
    for k, m in enumerate(matches, start=1):
        if not (
            isinstance(m, dict)
            and isinstance(m.get("match"), int)
            and isinstance(m.get("decisions"), list)
            and isinstance(m.get("players"), list)
            and all(isinstance(d, dict) for d in m["decisions"])
        ):
            raise BadAnalysis(f"not the output of analyze --json: match {k} has no \"match\", \"players\" and "
                             "\"decisions\"")
        out[m["match"]] = m
    return out, {k: v for k, v in value.items() if k != "matches"}


def _match_chunk(position: int, timeline: MatchTimeline, found: Mapping[str, Any] | None) -> str:
    """The ``position``-th match's data (from 1), with ``found``, its analysis, under ``"analysis"``."""
    text = timeline.page_text()  # ``_encode(timeline.as_json(by_difference=True))``
    if found is not None:  # the last field
        text = f'{text[:-1]},"analysis":{_encode(dict(found))}}}'
    return ("," if position > 1 else "") + _script_safe(text)


def page_chunks(
    timelines: Iterable[MatchTimeline],
    *,
    title: str,
    start: dict[str, int] | None = None,
    analysis: Analysis | None = None,
    method: Mapping[str, Any] | None = None,
    langs: tuple[str, ...] = (DEFAULT,),
    analysed: bool | None = None,
    heading: Mapping[str, Any] | None = None,
) -> Iterator[str]:
    """The page of ``render_html``, in pieces: the head, then each match's data, then the tail.

    ``timelines`` is consumed lazily, one match at a time. ``analysed``: the page is an analysis (by default,
    when ``analysis`` is given and not empty; a caller filling ``analysis`` as the matches come says so).
    ``heading`` (a club site's replay of one match): ``{"date": "2026-03-01" or None, "players": [...],
    "match": "../matches/NAME", "index": "../index", "evening": "../evenings/2026-03-01", "player_pages":
    ["../players/NAME", ...]}``: the page's heading is the date and the players (each isolated), a link to
    the match's page, with links above it (in the page itself) to the site's index, the evening and each
    player's page; the pages' addresses without ``.html``, which the page adds with the language shown
    (``NAME.ja.html``).
    """
    before, after = _frame(title, start, analysed=bool(analysis) if analysed is None else analysed, method=method,
                           langs=langs, heading=heading)
    said: set[str | tuple[str, str]] = set()
    yield before
    for _, _, chunk in _matches(timelines, analysis, said):
        yield chunk
    yield _words_end(langs, said) + after


def _matches(
    timelines: Iterable[MatchTimeline], analysis: Analysis | None, said: set[str | tuple[str, str]]
) -> Iterator[tuple[MatchTimeline, Mapping[str, Any] | None, str]]:
    """Each match of the page: its timeline, its analysis if any (``analysis_of``) and its data chunk; the
    messages its explanations use are added to ``said`` (for ``_words_end``)."""
    for k, t in enumerate(timelines, start=1):
        found = analysis_of(k, t, analysis)
        if found is not None:
            said.update(_said({k: found}))
        yield t, found, _match_chunk(k, t, found)


def render_html(
    timelines: Iterable[MatchTimeline],
    *,
    title: str,
    start: dict[str, int] | None = None,
    analysis: Analysis | None = None,
    method: Mapping[str, Any] | None = None,
    langs: tuple[str, ...] = (DEFAULT,),
) -> str:
    """The viewer page for ``timelines`` (every match of one file).

    ``start``: ``{"match": K, "game": G, "move": M}`` (from 1, 1, 0; ``move``
    -1 for the end) to open at; by default the first game's first move. A
    ``#m=K&g=G&s=M`` fragment in the page's address overrides it.

    ``analysis``: ``{number: match}``, each match's object of ``analyze
    --json`` (``MatchAnalysis.as_json()``) keyed by its number in the file
    (from 1); see ``analysis_of``. ``method``: the settings ``analyze --json``
    gives beside its matches (policy, samples, seed, thresholds), shown as a
    note under the chart. ``langs``: the languages the page's words are in (``lang.LANGUAGES``), switched on
    the page without the network; it opens in the first, or in the one ``?lang=xx`` of its address asks for.
    The log's names and the moves' narrative are shown as the data has them; the analysis' explanations are
    said in the page's language from their parts (``explanation_parts``), their messages embedded with the
    page's words.
    """
    return "".join(page_chunks(timelines, title=title, start=start, analysis=analysis, method=method, langs=langs))


class PageTooLarge(ColorettoLogError):
    """The page would be larger than the limit: nothing was written."""

    def __init__(self, limit: int, matches: int) -> None:
        super().__init__(f"the page would be over {limit:,} bytes after {matches} matches")
        self.limit = limit
        self.matches = matches  # matches in the page when the limit was passed


@dataclass(frozen=True, slots=True)
class PageWritten:
    """What ``write_html`` wrote."""

    size: int  # bytes
    matches: int
    games: int
    analysed: int = 0  # matches shown with their analysis


def write_html(
    path: Path,
    timelines: Iterable[MatchTimeline],
    *,
    title: str,
    start: dict[str, int] | None = None,
    limit: int | None = None,
    analysis: Analysis | None = None,
    method: Mapping[str, Any] | None = None,
    langs: tuple[str, ...] = (DEFAULT,),
    analysed: bool | None = None,
) -> PageWritten:
    """Write the page of ``timelines`` (and ``analysis``, ``analysed``: see ``render_html`` and
    ``page_chunks``) to ``path`` atomically, a match at a time.

    Raises ``PageTooLarge`` (and leaves ``path`` as it was) as soon as the page
    passes ``limit`` bytes (default ``PAGE_LIMIT``); ``OSError`` when the file
    cannot be written.
    """
    cap = PAGE_LIMIT if limit is None else limit
    before, after = _frame(title, start, analysed=bool(analysis) if analysed is None else analysed, method=method,
                           langs=langs)
    # the page so far (``size``), and its end with the words of what it says so far (``end``): a page passes the
    # limit with the match whose data, with the words it brings, takes it over
    said: set[str | tuple[str, str]] = set()
    count = {"size": _size(before), "end": _size(_words_end(langs, said) + after), "said": 0, "matches": 0,
             "games": 0, "analysed": 0}

    def chunks() -> Iterator[str]:
        if count["size"] + count["end"] > cap:
            raise PageTooLarge(cap, 0)
        yield before
        for t, found, chunk in _matches(timelines, analysis, said):
            count["matches"] += 1
            count["games"] += len(t.games)
            count["analysed"] += found is not None
            count["size"] += _size(chunk)
            if len(said) != count["said"]:
                count["said"], count["end"] = len(said), _size(_words_end(langs, said) + after)
            if count["size"] + count["end"] > cap:
                raise PageTooLarge(cap, count["matches"])
            yield chunk
        yield _words_end(langs, said) + after

    atomic_write_lines(path, chunks(), newline=False)
    return PageWritten(count["size"] + count["end"], count["matches"], count["games"], count["analysed"])


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
