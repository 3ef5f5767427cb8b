"""``coloretto-log score``: exact final scores, rankings and claim verdicts; the table-side calculator."""

from __future__ import annotations

import csv
import os
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from ..core.cards import ALL_COLOURS, GOLDEN_JOKER, JOKER, KIND_INDEX, card_name
from ..core.editions import edition_choice
from ..core.errors import one_line
from ..core.scoring import PLUS2_POINTS, Assignment, ColourScore
from ..lang import ENGLISH, N_, Translator
from ..lang.chips import chip_label
from ..lang.games import edition_word, table_word
from ..report.scorecard import GameScore, HandError, HandScore, MatchScore, calculate
from ..view.findings import finding_line
from ..view.safe_text import TerminalSafe
from ..view.terminal import CARD_STYLES, card_text, collection_parts
from ..view.wrap import fit, line_width, words, wrap
from .app import app
from .common import (
    PATHS_HELP,
    ExitCode,
    Format,
    FormatOption,
    JsonOption,
    JsonReport,
    LangOption,
    emit_json,
    exit_for,
    fail,
    loaded_matches,
    output_format,
    print_findings,
    terminal_translator,
    wrapped,
)

if TYPE_CHECKING:
    from ..core.claims import Verdict

_MINUS = "\u2212"  # a real minus sign, as wide as the plus
_CHIP = 2 + max(map(len, ALL_COLOURS))  # the widest colour chip (" purple "), for aligned columns


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"{_MINUS}{-n}"


def _printer() -> Callable[[Text], None]:
    """Print a line: through rich where it has colours to show, else its plain text straight out (many times faster).

    Rich's console is loaded only for a terminal (or when FORCE_COLOR and the like ask for colours).
    """
    if sys.stdout.isatty() or any(os.environ.get(v) for v in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")):
        from ..view.console import TrimmedConsole

        console = TrimmedConsole(highlight=False, soft_wrap=True)
        if console.color_system is not None or console.is_terminal:
            return console.print
    write = sys.stdout.write

    def plain(line: Text) -> None:  # as TrimmedConsole prints it: no blanks at a line's end
        write("\n".join(part.rstrip(" \t") for part in line.plain.split("\n")) + "\n")

    return plain


# --------------------------------------------------------------------------- pieces of a screen


def _count_text(row: ColourScore, tr: Translator = ENGLISH) -> str:
    """A colour's cards: ``6``, or with jokers ``4+1J=5`` (in another language, the joker by name)."""
    if not row.jokers:
        return f"{row.cards}"
    return tr.t("{cards}+{jokers}J={total}", cards=row.cards, jokers=row.jokers, total=row.effective)


def _plus2_cards(a: Assignment) -> int:
    return a.plus2_points // PLUS2_POINTS


def _card(card: str, tr: Translator, *, long: bool = False) -> Text:
    """A card as a coloured block: English as ``view.terminal`` draws it; another language by its name (a
    colour, when ``long``) or its chip label."""
    if tr is ENGLISH:
        return card_text(card, long=long)
    label = tr.gettext(card_name(card)) if long else chip_label(card, tr)
    return Text(f" {label} ", style=CARD_STYLES.get(card, "reverse"))


def _names(cards: Sequence[str], tr: Translator) -> str:
    """Colour names as the log writes them (English), or in the reader's language joined its way."""
    return ", ".join(cards) if tr is ENGLISH else tr.join(tr.gettext(card_name(c)) for c in cards)


def _label(word: str, width: int = 9) -> str:
    """A line's label padded to ``width`` terminal columns (a wide character takes two)."""
    return word + " " * max(1, width - sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in word))


def points_parts(a: Assignment, tr: Translator = ENGLISH) -> list[Text]:
    """``▲green 6 +21``, ``▲yellow 4+1J +15``, ``▼blue 2 −3``, ``+2×1 +2``, ``= 41``: each colour's points (positive
    colours marked ▲), the "+2" cards and the score, each kept whole when the line wraps."""
    parts = []
    for row in a.breakdown:
        positive = row.sign > 0
        part = Text().append("▲" if positive else "▼", style="bold green" if positive else "dim")
        part.append_text(_card(row.colour, tr, long=True))
        count = _count_text(row, tr)
        part.append(f" {count} ", style="" if positive else "dim")
        parts.append(part.append(_signed(row.points), style="bold" if positive else "dim"))
    if a.plus2_points:
        part = Text().append_text(_card("plus2", tr))
        parts.append(part.append(f"×{_plus2_cards(a)} {_signed(a.plus2_points)}"))
    parts.append(Text(f"= {a.score}", style="bold"))
    return parts


def points_text(a: Assignment, tr: Translator = ENGLISH) -> Text:
    """``▲green 6 +21  ▲yellow 4+1J +15  ▼blue 2 −3  +2×1 +2  = 41``: positive colours marked ▲."""
    return Text("  ").join(points_parts(a, tr))


def jokers_parts(a: Assignment, counts: tuple[int, ...], tr: Translator = ENGLISH) -> list[Text]:
    """The jokers and the colour each one becomes: ``J→yellow``, ``GJ→red`` (golden jokers last); else ``none``."""
    kinds = [JOKER] * counts[KIND_INDEX[JOKER]] + [GOLDEN_JOKER] * counts[KIND_INDEX[GOLDEN_JOKER]]
    parts = [Text().append_text(_card(kind, tr)).append("→").append_text(_card(colour, tr, long=True))
             for kind, colour in zip(kinds, a.jokers)]  # fmt: skip
    return parts or [Text(tr.gettext("none"), style="dim")]


def jokers_text(a: Assignment, counts: tuple[int, ...], tr: Translator = ENGLISH) -> Text:
    """The jokers and the colour each one becomes: ``J→yellow GJ→red`` (golden jokers last)."""
    return Text(" ").join(jokers_parts(a, counts, tr))


def _collection(counts: tuple[int, ...], colours: tuple[str, ...], tr: Translator) -> list[Text]:
    """A collection card by card, the colours named in ``tr``'s language; ``(nothing yet)`` when empty."""
    label = None if tr is ENGLISH else (lambda card: _card(card, tr, long=card in colours))
    return collection_parts(counts, colours, label=label) or [Text(tr.gettext("(nothing yet)"), style="dim")]


def _colour_words(tr: Translator) -> list[str]:
    """The colours' names in ``tr``'s language, kept whole when a line wraps."""
    return [tr.gettext(card_name(c)) for c in ALL_COLOURS]


def _choice(jokers: Sequence[str] | None, positive: Sequence[str] | None, tr: Translator) -> str:
    parts = []
    none = tr.gettext("none")
    if jokers is not None:
        parts.append(tr.t("jokers {colours}", colours=_names(jokers, tr) if jokers else none))
    if positive is not None:
        parts.append(tr.t("positive {colours}", colours=_names(positive, tr) if positive else none))
    return "; ".join(parts)


#: What each problem of a written score says in a language other than English (English keeps the sentence of
#: ``core.claims``, with its details); the rule id is printed beside it.
PROBLEM_WORDS: dict[str, str] = {
    "over-claimed": N_("the written score is {n} more than the best score, {best}"),
    "under-claimed": N_("the written score is {n} less than the best score, {best}"),
    "illegal-choice": N_("the jokers or positive colours written are not a legal choice"),
    "choice-below-optimum": N_("the jokers and positive colours written score {choice}, less than the best, {best}"),
    "choice-not-claimed": N_("the jokers and positive colours written do not give the written score"),
}
#: A verdict's status as people read it.
STATUS_WORDS: dict[str, str] = {
    "agrees": N_("agrees"), "over-claimed": N_("over-claimed"), "under-claimed": N_("under-claimed"),
    "illegal-choice": N_("illegal-choice"), "choice-below-optimum": N_("choice-below-optimum"),
    "choice-not-claimed": N_("choice-not-claimed"), "no-claim": N_("no-claim"),
}  # fmt: skip


def _problem(v: Verdict, status: str, message: str, tr: Translator) -> str:
    if tr is ENGLISH:
        return one_line(message)
    claim = v.claim.score if v.claim is not None else None
    diff = abs(claim - v.optimal.score) if claim is not None else 0
    words = PROBLEM_WORDS.get(status)
    said = tr.t(words, n=diff, best=v.optimal.score, choice=v.choice_score) if words else status
    rule = "claim-score" if status in ("over-claimed", "under-claimed") else "claim-choice"
    return f"{said} [{rule}]"


def verdict_lines(v: Verdict, tr: Translator = ENGLISH, *, lead: str = "", width: int | None = None) -> list[Text]:
    """The claim and what is wrong with it, after ``lead``, wrapped at ``width``; a dispute in bold red."""
    claim = v.claim
    assert claim is not None
    said = [] if claim.score is None else [f"{claim.score}"]
    choice = _choice(claim.jokers, claim.positive, tr)
    if choice:
        said.append(choice)
    head = Text(lead).append(_label(tr.gettext("claim")), style="bold")
    start, hang = len(head.plain), head.cell_len
    head.append(one_line(" · ".join(said)) if said else tr.gettext("(empty)"))
    if v.agrees:
        mark = "✓ " + tr.gettext("agrees")
        head.append("  " + mark, style="bold green")
        return wrap(head, width, hang=start, indent=hang, keep=[mark])
    mark = "✗ " + tr.gettext(STATUS_WORDS.get(v.status, v.status))
    if v.difference is not None and v.difference:
        mark += tr.t(" by {n}", n=abs(v.difference))
    head.append("  " + mark, style="bold red")
    lines = wrap(head, width, hang=start, indent=hang, keep=[mark])
    for p in v.problems:
        problem = Text(lead + " " * 9 + _problem(v, p.status, p.message, tr), style="red")
        lines.extend(wrap(problem, width, hang=len(lead) + 9))
    return lines


def _game_lines(game: GameScore, tr: Translator = ENGLISH, width: int | None = None) -> list[Text]:
    state = (tr.gettext("complete") if game.complete
             else tr.gettext("in progress: scores as the cards stand, not in the totals"))  # fmt: skip
    colours = " ".join(game.colours) if tr is ENGLISH else tr.join(tr.gettext(card_name(c)) for c in game.colours)
    head = Text().append(tr.t("Game {game}", game=game.number), style="bold")
    head.append(tr.t(" ({state}); colours in play: {colours}", state=state, colours=colours))
    lines = wrap(head, width, indent=2, keep=_colour_words(tr))
    for p in game.ranking():
        name = Text().append(f"  {p.rank}. ", style="bold")
        start = len(name.plain)
        name.append(one_line(p.player), style="bold red" if p.disputed else "bold")
        name.append(f"  {p.score}", style="bold")
        if p.disputed:
            name.append("  " + tr.gettext("DISPUTED"), style="bold white on red")
        lines.extend(wrap(name, width, hang=start, keep=[one_line(p.player)]))
        lines.extend(fit("     " + _label(tr.gettext("cards")), _collection(p.counts, game.colours, tr), width, sep=" "))
        if p.optimal.jokers:
            lines.extend(fit("     " + _label(tr.gettext("jokers")), jokers_parts(p.optimal, p.counts, tr), width, sep=" "))
        lines.extend(fit("     " + _label(tr.gettext("points")), points_parts(p.optimal, tr), width))
        if p.verdict is not None:
            lines.extend(verdict_lines(p.verdict, tr, lead="     ", width=width))
    if game.unchecked_claims:
        lines.extend(wrap(Text("  " + tr.gettext("claims on an unfinished game are not checked"), style="yellow"),
                          width, hang=2))  # fmt: skip
    return lines


def match_lines(m: MatchScore, tr: Translator = ENGLISH, width: int | None = None) -> list[Text]:
    """A scored match for people: every game, then the match totals, wrapped at ``width`` (default: the output's)."""
    assert m.rules is not None
    r = m.rules
    width = line_width() if width is None else width
    head = Text().append(one_line(m.label), style="bold underline")
    keep = [one_line(m.label)]
    if m.match_id:
        keep.append(tr.t("match {id}", id=one_line(m.match_id)))
        head.append("  " + keep[-1], style="bold")
    players = tr.nt("{n} player", "{n} players", len(m.players))
    edition, table = edition_word(r.edition.name, tr), table_word(r.table.name, tr)
    keep += [edition, table, players]
    head.append("  " + tr.t("{edition}, {table}, {players}", edition=edition, table=table, players=players))
    lines = wrap(head, width, indent=2, keep=keep)
    for g in m.games:
        lines.extend(_game_lines(g, tr, width))
    missing = r.games - m.games_counted
    games = tr.nt("{n} game", "{n} games", r.games)
    status = (
        tr.t("complete, {games}", games=games)
        if m.complete
        else tr.t("incomplete: {done} of {games} finished, {missing} missing",
                  done=m.games_counted, games=games, missing=missing)
    )
    total = Text().append(tr.gettext("Match totals"), style="bold")
    total.append(tr.t(" ({status})", status=status), style="" if m.complete else "yellow")
    lines.extend(wrap(total, width, indent=2))
    ranking = [
        Text().append(f"{s.rank}. ", style="bold").append(one_line(s.player), style="bold" if s.rank == 1 else "")
        .append(f" {s.total}")
        for s in sorted(m.standings, key=lambda s: (s.rank, s.seat))
    ]
    lines.extend(fit("  ", ranking, width))
    return lines


def hand_lines(h: HandScore, tr: Translator = ENGLISH, width: int | None = None) -> list[Text]:
    """The calculator's answer in one glance, wrapped at ``width`` (default: the output's)."""
    a = h.optimal
    head = Text().append(_label(tr.gettext("Hand")), style="bold")
    edition, table = edition_word(h.edition.name, tr), table_word(h.table.name, tr)
    rules = tr.t("{edition}, {table}", edition=edition, table=table)
    if h.removed:
        rules = tr.t("{rules}, removed {colours}", rules=rules, colours=_names(h.removed, tr))
    said = [Text(w, style="dim") for w in words(tr.t("({rules})", rules=rules), keep=[edition, table])]
    lines = fit(head, [*_collection(h.counts, h.colours, tr), ("   ", said[0]), *said[1:]], width, sep=" ")
    if a.jokers:
        lines.extend(fit(Text().append(_label(tr.gettext("Jokers")), style="bold"), jokers_parts(a, h.counts, tr),
                         width, sep=" "))  # fmt: skip
    positive = Text().append(_label(tr.gettext("Positive")), style="bold")
    start = len(positive.plain)
    positive.append(_names(a.positive, tr) if a.positive else tr.gettext("none"))
    lines.extend(wrap(positive, width, hang=start, keep=_colour_words(tr)))
    for row in a.breakdown:
        mark = "▲" if row.sign > 0 else "▼"
        line = Text().append(f"  {mark} ", style="bold green" if row.sign > 0 else "dim")
        chip = _card(row.colour, tr, long=True)
        line.append_text(chip)
        count = _count_text(row, tr)
        line.append(" " * max(0, _CHIP - chip.cell_len) + f" {count:<9}{_signed(row.points):>5}",
                    style="" if row.sign > 0 else "dim")
        lines.append(line)
    if a.plus2_points:
        line = Text("    ")
        chip = _card("plus2", tr)
        line.append_text(chip)
        line.append(" " * max(0, _CHIP - chip.cell_len) + f" ×{_plus2_cards(a):<8}{_signed(a.plus2_points):>5}")
        lines.append(line)
    lines.append(Text(_label(tr.gettext("Score")) + f"{a.score}", style="bold"))
    return lines


# --------------------------------------------------------------------------- the command


#: The columns of ``--format csv``: one row per player per scored game.
CSV_COLUMNS = (
    "file", "line", "match_id", "game", "complete", "player", "seat", "rank", "score",
    "jokers", "positive", "claimed_score", "verdict",
)  # fmt: skip


#: The columns of ``--hand --format csv``: one row per kind of card the hand holds; the points add up to the score.
HAND_CSV_COLUMNS = ("card", "cards", "jokers", "counted", "sign", "points")


def hand_csv_rows(h: HandScore) -> list[list[object]]:
    """The calculator's answer as rows: each colour held or given a joker (sign 1 positive, -1 negative), then +2."""
    data = h.as_json()
    rows: list[list[object]] = []
    shown = {b["colour"] for b in data["breakdown"]}
    for b in data["breakdown"]:
        rows.append([b["colour"], b["cards"], b["jokers"], b["effective"], b["sign"], b["points"]])
    for colour in h.colours:
        n = data["cards"].get(colour, 0)
        if n and colour not in shown:  # a colour the optimum leaves out of the breakdown
            rows.append([colour, n, 0, n, 0, 0])
    plus2 = data["cards"].get("plus2", 0)
    if plus2:
        rows.append(["plus2", plus2, 0, plus2, 1, data["plus2_points"]])
    return rows


def csv_rows(m: MatchScore) -> list[list[object]]:
    """A scored match as rows of ``CSV_COLUMNS`` (exact data: names as the log has them)."""
    rows: list[list[object]] = []
    for g in m.games:
        for p in g.players:
            v = p.verdict
            claimed = "" if v is None or v.claim is None or v.claim.score is None else v.claim.score
            rows.append([
                m.file, "" if m.line is None else m.line, m.match_id or "", g.number, g.complete, p.player, p.seat + 1,
                p.rank, p.score, " ".join(p.optimal.jokers), " ".join(p.optimal.positive), claimed,
                "" if v is None else v.status,
            ])
    return rows


def _score_logs(paths: list[str], *, fmt: Format, tr: Translator = ENGLISH) -> None:
    from ..report.scorecard import score_match

    show = _printer()
    width = line_width()
    report = JsonReport() if fmt is Format.json else None
    table = csv.writer(TerminalSafe(sys.stdout, kind="text"), lineterminator="\n") if fmt is Format.csv else None
    if table is not None:
        table.writerow(CSV_COLUMNS)
    people = report is None and table is None
    unreadable: list[dict[str, str]] = []
    files: set[str] = set()
    n_matches = n_invalid = n_claims = n_disputes = 0
    for item in loaded_matches(paths, "scoring", unreadable, show_unreadable=report is None):
        files.add(item.file)
        n_matches += 1
        m = score_match(item)
        if report is not None:
            report.match(m.as_json())
        if not m.valid:
            n_invalid += 1
            if report is None:  # exactly as validate reports it (on stderr under csv)
                print_findings(m.findings, item.label, err=table is not None, tr=tr)
            continue
        n_claims += len(m.verdicts())
        n_disputes += m.disputes
        if table is not None:
            table.writerows(csv_rows(m))
        if people:
            for f in m.findings:
                if not f.rule.startswith("claim-"):  # the verdicts say it better
                    typer.secho(finding_line(f, item.label, tr), fg=typer.colors.YELLOW, err=True)
            for line in match_lines(m, tr, width):
                show(line)
            show(Text())
    summary = {
        "files": len(files),
        "matches": n_matches,
        "scored": n_matches - n_invalid,
        "invalid": n_invalid,
        "claims": n_claims,
        "agree": n_claims - n_disputes,
        "disagree": n_disputes,
        "unreadable": len(unreadable),
    }
    if report is not None:
        report.close(unreadable=unreadable, summary=summary)
    else:
        text = tr.t(
            "{matches} in {files}: {scored} scored, {invalid} invalid; {claims}: {agree} agree, {disagree} disagree",
            matches=tr.nt("{n} match", "{n} matches", n_matches), files=tr.nt("{n} file", "{n} files", len(files)),
            scored=n_matches - n_invalid, invalid=n_invalid, claims=tr.nt("{n} claim", "{n} claims", n_claims),
            agree=n_claims - n_disputes, disagree=n_disputes,
        )
        if unreadable:
            text += tr.nt("; {n} file could not be read", "; {n} files could not be read", len(unreadable))
        ok = not (n_invalid or n_disputes or unreadable)
        typer.secho(wrapped(text), fg=typer.colors.GREEN if ok else typer.colors.RED, bold=True, err=table is not None)
    exit_for(unreadable=bool(unreadable), invalid=bool(n_invalid), disputes=bool(n_disputes))


@app.command()
def score(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help=PATHS_HELP, show_default=False, metavar="PATH..."),
    ] = None,
    hand: Annotated[
        str | None,
        typer.Option(
            "--hand",
            metavar="CARDS",
            help='Score one hand instead of logs: "green=6 yellow=4 red=3 blue=2 joker=1 +2=1" '
            "(also gray, j, golden/gj, +2; a bare name is one card: j j j, 3j and 3 jokers are three).",
            show_default=False,
        ),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option("--table", metavar="TABLE", help="With --hand: standard (default) or alternative.", show_default=False),
    ] = None,
    edition: Annotated[
        str | None,
        typer.Option("--edition", metavar="EDITION", help=f"With --hand: {edition_choice(default=True)}.", show_default=False),
    ] = None,
    removed: Annotated[
        list[str] | None,
        typer.Option(
            "--removed", metavar="COLOURS",
            help="With --hand: a colour removed at setup (repeat, or separate by commas).", show_default=False,
        ),
    ] = None,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Score finished games exactly and settle disputed claims; or score one hand at the table.

    For every game of every log: each player's cards, the best joker assignment and
    positive colours with the points they give, the score and the ranking (tied players
    share a rank); the match totals over its finished games; and a verdict on every claim
    the log records (agrees, under- or over-claimed, an illegal choice or one that cannot
    reach the optimum). Invalid logs are reported as validate reports them and not scored.
    --format json: the shape in docs/score.md, written a match at a time; --format csv:
    one row per player per game (with --hand: one row per card held). On a terminal, a progress bar on standard
    error follows large inputs.

    Exit codes: 0 every claim agrees (or there are none), 1 an invalid log, 2 usage error
    or an impossible hand, 3 a file that cannot be read, 4 a claim that disagrees.

    \b
    Example: coloretto-log score --hand "green=6 yellow=4 red=3 blue=2 joker=1 +2=1"
    Example: coloretto-log score sample_logs/classic-3p-seeded-match.json
    Example: coloretto-log score --lang ja sample_logs/classic-3p-seeded-match.json
    """
    chosen = output_format(fmt, json_out)
    tr = terminal_translator(lang)
    if hand is None:
        if not paths:
            fail('give log files to score, or a hand with --hand "green=6 joker=1 ..."', ExitCode.USAGE)
        given = [name for name, value in (("--table", table), ("--edition", edition), ("--removed", removed)) if value]
        if given:
            verb = "goes" if len(given) == 1 else "go"
            fail(f"{', '.join(given)} {verb} with --hand only; a log states its own rules", ExitCode.USAGE)
        _score_logs(paths, fmt=chosen, tr=tr)
        return
    if paths:
        fail("give either log files or --hand, not both", ExitCode.USAGE)
    try:
        result = calculate(
            hand, edition=edition or "classic", table=table or "standard", removed=removed or ()
        )
    except HandError as e:
        fail(one_line(str(e)), ExitCode.USAGE)
    if chosen is Format.json:
        emit_json(result.as_json())
        return
    if chosen is Format.csv:
        sheet = csv.writer(TerminalSafe(sys.stdout, kind="text"), lineterminator="\n")
        sheet.writerow(HAND_CSV_COLUMNS)
        sheet.writerows(hand_csv_rows(result))
        return
    show = _printer()
    for line in hand_lines(result, tr):
        show(line)
