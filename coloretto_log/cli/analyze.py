"""``coloretto-log analyze``: what each decision was worth, from what the player could see."""

from __future__ import annotations

import csv
import math
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..bots.exact import EXACT_SLOTS
from ..coach.analyze import (
    DEFAULT_MAX_SE,
    DEFAULT_SAMPLES,
    EXTEND,
    HORIZON,
    POLICY,
    THRESHOLDS,
    Decision,
    MatchAnalysis,
    Progress,
    Settings,
    analyze_match,
    explanation_of,
    settings_json,
    usable_cores,
    worker_pool,
)
from ..coach.explain import choice_name, explain_decision, listed, plus_minus, render, top_choices
from ..core.cards import KINDS, card_name
from ..core.errors import one_line
from ..core.rng import MASK64
from ..lang import ENGLISH, N_, Translator, from_environment, translator
from ..log.atomic import output_problem, write_problem
from ..log.load import LoadedMatch, Unreadable, load
from ..log.reader import STDIN, expand_paths
from ..report.timeline import MatchTimeline, from_loaded
from ..view.console import TrimmedConsole
from ..view.html import PageTooLarge, write_html
from ..view.safe_text import TerminalSafe
from .app import app
from .common import (
    ExitCode,
    FormatOption,
    JsonOption,
    JsonReport,
    LogPath,
    PageLangOption,
    exit_for,
    fail,
    old_short,
    output_format,
    page_languages,
    plural,
    print_wrapped,
    with_old_short,
)


@app.command()
def analyze(
    ctx: typer.Context,
    path: LogPath,
    match: Annotated[
        int | None,
        typer.Option("--match", help="Only the K-th match found under PATH (from 1).", metavar="K", show_default=False),
    ] = None,
    game: Annotated[
        int | None,
        typer.Option("--game", "-g", help="Only game G of each match (from 1).", metavar="G", show_default=False),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option("--player", "-p", help="Only the decisions of the player called NAME.", metavar="NAME",
                     show_default=False),
    ] = None,
    samples: Annotated[
        int,
        typer.Option("--samples", help="At most N sampled orders of the unseen cards per decision (up to 4 N "
                     "for one whose mark is still on its line then).",
                     metavar="N"),
    ] = DEFAULT_SAMPLES,
    old_n: Annotated[int | None, old_short("-n", "--samples")] = None,
    max_se: Annotated[
        float,
        typer.Option("--max-se", help="Stop sampling a decision once its loss has a standard error of at most "
                     "POINTS, and the best choice is told apart; 0: always take N samples.", metavar="POINTS"),
    ] = DEFAULT_MAX_SE,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the sampled orders: the same seed gives the same numbers.",
                          metavar="N")
    ] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes to use, at most the cores (the numbers do not depend "
                          "on it).", metavar="N")
    ] = 1,
    output: FormatOption = None,
    json_out: JsonOption = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write a self-contained web page of the analysis to OUT.html.",
                     metavar="OUT.html", show_default=False),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the --html file if it exists.")] = False,
    explain: Annotated[
        str,
        typer.Option("--explain", help="Say why, in words, for the marked decisions (marked) or for every "
                     "unforced one (all).", metavar="marked|all"),
    ] = "marked",
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Also keep each valid match's analysis in this database (for `site`); the "
                     "match is found by its id and content.", metavar="FILE", dir_okay=False, show_default=False),
    ] = None,
    lang: PageLangOption = "en",
) -> None:
    """Value every decision of a game from what the player could see: the best choice, the loss, a mark.

    Each turn has two decisions: draw or take (before the card is seen) and,
    after a draw, the row for the card. Every choice is valued by the
    player's expected final margin (own score less the mean of the others')
    and chance of winning, over sampled orders of the unseen cards (never
    the real one), every seat then playing as the greedy bot to the end of
    the round, where the evaluator values the position (every order
    counted where a playout meets few cards); exactly, by searching every
    order and best play, once the last round is down to a few places in
    the rows. The loss is the best choice's value less the
    played one's; a mark (inaccuracy 5%, mistake 10%, blunder 20%) goes by
    the chance of winning lost, none where two choices are about equal.
    Then, per player: decisions, mean loss, marks, accuracy, start + luck +
    skill + others = margin, the three costliest decisions.
    Method, thresholds and how to read the numbers: docs/analyze.md.

    The explanations printed (why, and the choices' names) are in the first
    language of --lang, else the terminal's (LC_ALL, LC_MESSAGES, LANG);
    the tables, the JSON and csv stay English (docs/languages.md).

    Time: roughly 10 s of one core for a four-player game (5 to 7 s on a
    quiet machine, more on a busy one; --jobs N shares it among N cores).
    On a terminal, standard error shows the game being analysed, the
    decisions done and the time left (not with --json).

    Exit codes: 0 ok, 1 the log has an error (what replays is analysed),
    2 usage error, 3 a file that cannot be read or written.

    Example: coloretto-log analyze sample_logs/classic-2p-recorded-game.json --samples 64 --jobs 2
    """
    fmt = output_format(output, json_out).value
    samples = with_old_short(samples, old_n, "--samples", "-n", default=DEFAULT_SAMPLES)
    for name, value in (("--game", game), ("--match", match)):
        if value is not None and value < 1:
            fail(f"{name} counts from 1", ExitCode.USAGE)
    if samples < 1:
        fail("--samples must be at least 1", ExitCode.USAGE)
    if jobs < 1:
        fail("--jobs must be at least 1", ExitCode.USAGE)
    if not max_se >= 0:
        fail("--max-se must be 0 or more", ExitCode.USAGE)
    if not 0 <= seed <= MASK64:
        fail("--seed must satisfy 0 <= seed < 2^64", ExitCode.USAGE)
    langs = page_languages(lang)
    given = ctx.get_parameter_source("lang")
    words = translator(langs[0] if given is not None and given.name != "DEFAULT" else from_environment(os.environ))
    if html is not None:
        problem = output_problem(html, inputs=[Path(p) for p in expand_paths([path]) if p != STDIN], force=force,
                                 what="the log being analysed")
        if problem is not None:
            fail(problem, ExitCode.USAGE)

    if explain not in ("marked", "all"):
        fail(f"--explain is marked or all, not {one_line(explain)!r}", ExitCode.USAGE)
    explain_all = explain == "all"

    settings = Settings(samples=samples, seed=seed, max_se=max_se)
    jobs = min(jobs, usable_cores())
    keep = _open_store(db) if db is not None else None
    # a match at a time, as it is read: the table or the JSON is printed (and flushed) as each is done, the
    # page (--html) written, and nothing of a match is kept once it is (flat memory)
    stream: JsonReport | None = None
    table: Any = None  # the csv writer, once the first match is done
    unreadable = invalid = False
    seen = analysed = 0
    has_player = False
    short = 0  # matches without game G, each said as it is met
    bar = sys.stderr.isatty() and fmt != "json"  # progress for a person watching, never in a program's way
    console = TrimmedConsole(highlight=False, soft_wrap=False)

    def done() -> Iterator[tuple[LoadedMatch, MatchAnalysis]]:
        """Each match analysed and printed, as it is read; then the usage errors found on the way (raised before
        a page is written)."""
        nonlocal stream, table, unreadable, invalid, seen, analysed, has_player, short
        try:
            with worker_pool(jobs) as pool:
                for item in load([path]):
                    if isinstance(item, Unreadable):
                        typer.secho(one_line(item.message), err=True, fg=typer.colors.RED)
                        unreadable = True
                        continue
                    seen += 1
                    if match is not None and seen != match:
                        continue
                    players = item.report.players
                    seats = None
                    if player is not None:
                        if player not in players:
                            continue
                        seats = {players.index(player)}
                        has_player = True
                    games = len(item.report.games)
                    if game is not None and game > games:
                        typer.secho(f"Error: --game {game}: {one_line(item.label)} holds {plural(games, 'game')}",
                                    err=True, fg=typer.colors.RED)
                        short += 1
                        continue
                    for f in item.findings():
                        if f.severity == "error":
                            typer.secho(f.line(item.label), err=True, fg=typer.colors.RED)
                    with _Bar(item.label, games if game is None else 1, shown=bar) as follow:
                        result = analyze_match(item, seen, settings, game=game, seats=seats, pool=pool,
                                               progress=follow)
                    invalid = invalid or not result.valid
                    if fmt == "table" and html is None and not result.valid and not result.decisions:
                        continue  # its error is said above: no method, no empty table (issue 30)
                    if keep is not None and result.valid:
                        _keep(keep, item, {**result.as_json(), "settings": settings_json(settings)})
                    if analysed == 0 and fmt == "table":
                        _print_header(console, settings, short=html is not None)
                    analysed += 1
                    if fmt == "json":
                        if stream is None:
                            stream = JsonReport(head=settings_json(settings))
                        stream.match(result.as_json(explain_all=explain_all))
                    elif fmt == "csv":
                        if table is None:
                            table = csv.writer(TerminalSafe(sys.stdout, kind="text"), lineterminator="\n")
                            table.writerow(CSV_COLUMNS)
                        table.writerows(csv_rows(result.as_json(explain_all=explain_all)))
                    elif html is not None:
                        console.print()
                        console.print(Text(f"{one_line(result.label)}", style="bold"))
                        _print_summary(console, result)
                    else:
                        console.print()
                        _print_match(console, result, explain_all=explain_all, tr=words)
                    sys.stdout.flush()  # a reader of the pipe sees each match as it is done
                    yield item, result
                    if match is not None:
                        break
        finally:
            if keep is not None:
                keep.close()
        if unreadable and not seen:
            raise typer.Exit(int(ExitCode.UNREADABLE))
        if match is not None and match > seen:
            fail(f"--match {match}: {one_line(path)} holds {plural(seen, 'match', 'matches')}", ExitCode.USAGE)
        if player is not None and not has_player:
            fail(f"--player: no match under {one_line(path)} has a player called {one_line(player)!r}",
                 ExitCode.USAGE)
        if short and not analysed:
            raise typer.Exit(int(ExitCode.USAGE))  # each match without game G was said as it was met

    try:
        if html is None:
            for _ in done():
                pass
        else:
            _write_page(html, path, done(), settings, explain_all, game, langs)
    finally:
        if fmt == "json" and stream is not None:
            stream.close()  # what was printed is whole JSON, even when the page is refused
    if fmt == "json" and stream is None:
        JsonReport(head=settings_json(settings)).close()
    if short:
        raise typer.Exit(int(ExitCode.USAGE))
    exit_for(unreadable=unreadable, invalid=invalid)


#: ``--format csv``: one row a decision (the table's rows), counted from 1 as the table counts.
CSV_COLUMNS = (
    "match", "game", "move", "player", "decision", "card", "played", "best", "loss", "loss_se", "mark",
    "chance_loss", "about_equal", "forced", "exact", "samples", "margin_played", "margin_best", "win_prob_played", "win_prob_best",
    "mark_certain", "mark_label", "match_chance_played", "match_chance_best", "explanation",
)


def csv_rows(match: dict[str, Any]) -> list[list[Any]]:
    """A match's decisions (the JSON shape of ``MatchAnalysis.as_json``) as csv rows of ``CSV_COLUMNS``."""
    return [[match["match"], *(d.get(k) for k in CSV_COLUMNS[1:])] for d in match["decisions"]]


def _open_store(db: Path) -> Any:
    from ..db.store import DatabaseError, MatchStore

    try:
        return MatchStore.open(db, create=False)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)


def _keep(store: Any, item: LoadedMatch, data: dict[str, Any]) -> None:
    """Store one match's analysis; say so when the database does not hold that match (yet)."""
    from ..db.site.analyses import store_analysis
    from ..db.store import DatabaseError

    match_id, digest = item.report.match_id, item.report.content_hash
    if match_id is None or digest is None:
        return
    try:
        found = store_analysis(store, match_id, digest, data)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    if not found:
        typer.echo(f"{one_line(item.label)}: kept in {one_line(str(store.path))}, but that database does not hold "
                   "this match (ingest it for `site` to show the analysis)", err=True)


class _Bar:
    """Progress on standard error while a match is analysed (rich, cleared when it is done): the match, the game
    of the decision being valued, decisions done of all and the time left by the work done so far.

    ``with _Bar(label, games, shown=...) as follow:`` gives the ``progress`` callback of ``analyze_match``
    (None when not ``shown``: nothing is drawn, nothing is loaded).
    """

    def __init__(self, label: str, games: int, *, shown: bool) -> None:
        self.label, self.games, self.shown = one_line(label), games, shown
        self.bar: Any = None

    def __enter__(self) -> Callable[[Progress], None] | None:
        if not self.shown:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
        from rich.progress import Progress as Bar
        console = Console(stderr=True, highlight=False, markup=False, emoji=False)
        self.bar = Bar(
            TextColumn("{task.description}"), MofNCompleteColumn(), TextColumn("decisions"), BarColumn(bar_width=16),
            TextColumn("{task.fields[left]}"), console=console, transient=True, redirect_stdout=False,
            redirect_stderr=False,
        )
        room = max(12, console.width - 72)  # the counts, bar and time need about 72 columns: the name gives way
        label = self.label if len(self.label) <= room else "…" + self.label[-(room - 1):]
        task = self.bar.add_task(f"analysing {label}", total=None, left="")
        self.bar.start()

        def follow(p: Progress) -> None:
            left = "" if p.left is None else f"about {_clock(p.left)} left"
            where = f"analysing {label} · game {p.game}" + (f" of {self.games}" if self.games > 1 else "")
            self.bar.update(task, description=where, completed=p.done, total=p.total, left=left)

        return follow

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 60}:{s % 60:02d}"


def _write_page(
    html: Path, path: str, done: Iterator[tuple[LoadedMatch, MatchAnalysis]], settings: Settings,
    explain_all: bool, game: int | None, langs: tuple[str, ...] = ("en",),
) -> None:
    """The replay viewer of the analysed matches with their analysis in it (``view.html``), written as each
    match is done: refused (exit 2, nothing written, the analysis stopped) at the match that passes the limit."""
    current: dict[int, dict[str, Any]] = {}  # only the match being written (by its number in the input)

    def timelines() -> Iterator[MatchTimeline]:
        for item, result in done:
            current.clear()
            current[result.match] = result.as_json(explain_all=explain_all)
            yield from_loaded(item)

    start = None if game is None else {"match": 1, "game": game, "move": 0}
    try:
        write_html(html, timelines(), title=path, start=start, analysis=current, analysed=True,
                   method=settings_json(settings), langs=langs)
    except PageTooLarge as e:
        fail(f"{one_line(str(html))} not written: with match {e.matches} the page would pass "
             f"{e.limit / 1e6:g} MB, too big for a browser to open; choose a match with --match K", ExitCode.USAGE)
    except OSError as e:
        fail(write_problem(html, e), ExitCode.UNREADABLE)
    typer.echo(f"wrote {one_line(str(html))}", err=True)


# --------------------------------------------------------------------------- the table


def _fitted(console: Console, table: Table) -> Table:
    """``table`` with one space between its columns instead of two when it is too wide for the console."""
    if Measurement.get(console, console.options.update(width=10 * console.width), table).maximum > console.width:
        table.padding = (0, 0)
    return table


def _print_header(console: Console, settings: Settings, *, short: bool = False) -> None:
    marks = ", ".join(f"{k} ≥ {100 * t:g}%" for k, t in reversed(THRESHOLDS))
    print_wrapped(console, Text(
        f"playouts: the {POLICY} bot for every seat to {HORIZON if settings.to_round else 'the end of the game'} "
        f"· {_how_many(settings)} · exact (every order, best "
        f"play) in the last round with at most {EXACT_SLOTS} places left in the rows · seed {settings.seed}",
        style="dim",
    ))
    print_wrapped(console, Text(f"marks by the chance of winning lost (the match where one is under way, else the "
                       f"game) against the best choice (the highest chance; within its noise, the best margin): "
                       f"{marks}; none where the played and the best choice are about equal (within 2 standard "
                       f"errors or 0.1 point); a chance lost within one standard error of a line says both marks "
                       f"(inaccuracy–mistake; inaccuracy? near the first line)", style="dim"))
    if not short:
        print_wrapped(console, Text(
            "loss: the best choice's expected margin less the played one's, measured on samples apart from those "
            "that picked the best · win %: the chance of winning the game after the played choice (→ after the "
            "best one) · match: the chance of winning the match (%), where one is under way · chance lost: the best "
            "one's chance less the played one's · accuracy: 100 × 2^(−loss/3) a "
            "decision, averaged · start + luck + skill + others = margin: the expected margin before any card, what "
            "the cards turned over moved, minus the player's losses, what the other players' decisions moved",
            style="dim",
        ))


def _how_many(settings: Settings) -> str:
    if settings.max_se == 0:
        return f"{settings.samples} sampled orders of the unseen cards per decision"
    return (f"up to {settings.samples} sampled orders of the unseen cards per decision, until the loss's "
            f"standard error is at most {settings.max_se:g} and its mark is settled (a mark still on its line: "
            f"up to {EXTEND * settings.samples}); every order counted instead where a playout meets few")


def _name(players: tuple[str, ...], seat: int) -> Text:
    return Text(one_line(players[seat]))


def _pct(x: float) -> str:
    return "" if math.isnan(x) else f"{100 * x:.0f}"


def lost_text(chance_loss: float) -> str:
    """A chance lost as a percentage on the same side of every mark's line as the chance itself: whole
    per cent, unless rounding would carry it onto a line it is below (0.199, a mistake, is "19.9%", not
    "20%", the blunder's line); then one decimal, cut toward zero."""
    whole = round(100 * chance_loss)
    if any(chance_loss < line <= whole / 100 for _, line in THRESHOLDS):
        return f"{math.floor(1000 * chance_loss) / 10:.1f}%"
    return f"{whole}%"


def _short(choice: str) -> str:
    return choice.replace("take row", "take")


def _decision_words(d: Decision, tr: Translator = ENGLISH) -> str:
    """The decision as people say it (the page's words): ``draw or take``, ``put +2``."""
    return tr.t("draw or take") if d.card is None else tr.t(_PUT, card=tr.t(card_name(d.card)))


def _loss_text(d: Decision) -> str:
    if d.evaluation.exact:
        return f"{d.loss:.1f} exact"
    return plus_minus(d.loss, d.loss_se)


def _print_match(console: Console, r: MatchAnalysis, *, explain_all: bool = False, tr: Translator = ENGLISH) -> None:
    players = r.players
    console.print(Text(f"{one_line(r.label)}", style="bold"))
    for number in sorted({d.game for d in r.decisions}):
        console.print(Text(f"game {number}", style="bold"))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
        in_match = any(d.match is not None for d in r.decisions if d.game == number)
        columns = (("move", "right"), ("player", "left"), ("decision", "left"), ("played", "left"),
                   ("best", "left"), ("loss ± se", "right"), ("win %", "right"),
                   *((("match", "right"),) if in_match else ()), ("lost", "right"), ("mark", "left"))
        for name, justify in columns:
            table.add_column(name, justify=justify, no_wrap=name != "player",
                             min_width=6 if name == "player" else None)
        explained: list[Decision] = []
        for d in r.decisions:
            if d.game != number:
                continue
            ev = d.evaluation
            lost = match = ""
            if d.forced:
                loss, win, note = "0", "", Text("forced", style="dim")
            else:
                played, best = ev.choices[ev.played], ev.choices[ev.best]
                loss = _loss_text(d)
                win = _pct(played.win_prob) if ev.best == ev.played else (
                    f"{_pct(played.win_prob)}→{_pct(best.win_prob)}")
                match = _pct(played.match_chance) if ev.best == ev.played else (
                    f"{_pct(played.match_chance)}→{_pct(best.match_chance)}")
                lost = lost_text(d.chance_loss) if d.chance_loss > 0 else ""
                note = Text(d.mark_label or ("about equal" if d.about_equal else ""),
                            style=_MARK_STYLE.get(d.mark or "", "dim"))
                if d.mark or explain_all:
                    explained.append(d)
            shown_best = "≈" if d.about_equal and d.best != d.played else "" if d.best == d.played else _short(d.best)
            table.add_row(str(d.move), _name(players, d.seat), _decision_words(d), _short(d.played),
                          shown_best, loss, win, *((match,) if in_match else ()), lost, note)
        console.print(_fitted(console, table))
        for d in explained:
            _print_why(console, d, players, tr)
    _print_summary(console, r)
    for s in r.summaries:
        if not s.costliest:
            continue
        console.print(Text("costliest decisions of ", style="bold").append(_name(players, s.seat)))
        for d in s.costliest:
            print_wrapped(console, _costly_line(d), hang=2, indent=4)
            for line in _table_lines(d, players):
                print_wrapped(console, line, hang=4, indent=6)


def _print_why(console: Console, d: Decision, players: tuple[str, ...], tr: Translator = ENGLISH) -> None:
    """Why, for one decision: the sentence, then the best three choices with margin and win %; in ``tr``'s
    language (English: as it always was)."""
    head = Text(tr.t("move {move}", move=d.move) + ", ", style="bold").append(_name(players, d.seat)).append(
        f", {_decision_words(d, tr)}", style="bold")
    if d.mark_label:
        head.append(f" · {mark_words(d.mark_label, tr)}", style=_MARK_STYLE.get(d.mark or "", "yellow"))
    print_wrapped(console, head, indent=2)
    why = explanation_of(d, players) if tr is ENGLISH else render(explain_decision(d, players).parts, tr)
    print_wrapped(console, Text("  " + one_line(why)), hang=2)
    best = listed([
        tr.t("{choice} {margin} ({win}%)", choice=choice_name(c.choice, tr), margin=tr.decimal(f"{c.margin:+.1f}"),
             win=_pct(c.win_prob)) + (" " + tr.t("played") if c.choice == d.played else "")
        for c in top_choices(d.evaluation)
    ], tr)
    print_wrapped(console, Text("  " + tr.t("best choices (expected margin, win %): {choices}", choices=best),
                                style="dim"), hang=2)


#: How the terminal names a row decision (the page says "the row for red").
_PUT = N_("put {card}")


def _print_summary(console: Console, r: MatchAnalysis) -> None:
    """Per player: decisions and marks, then error rate, accuracy, luck and skill (per game too)."""
    players = r.players
    shown = [s for s in r.summaries if s.decisions or s.forced]
    summary = Table(title="per player", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("player", "decisions", "forced", "mean loss", "inaccuracies", "mistakes", "blunders"):
        summary.add_column(name, justify="left" if name == "player" else "right", no_wrap=name != "player")
    for s in shown:
        summary.add_row(_name(players, s.seat), str(s.decisions), str(s.forced), f"{s.mean_loss:.2f}",
                        str(s.marks["inaccuracy"]), str(s.marks["mistake"]), str(s.marks["blunder"]))
    console.print(_fitted(console, summary))
    standing = Table(title="error rate, accuracy, luck and skill (start + luck + skill + others = margin)", title_justify="left",
                     box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("game", "player", "error rate", "accuracy", "start", "luck", "skill", "others", "margin"):
        standing.add_column(name, justify="left" if name == "player" else "right", no_wrap=name != "player")
    for s in shown:
        rows = [(str(number), st) for number, st in s.games] if len(s.games) > 1 else []
        if s.standing is not None:
            rows.append(("all" if rows else str(s.games[0][0]), s.standing))
        for label, st in rows:
            standing.add_row(label, _name(players, s.seat), f"{100 * st.error_rate:.0f}%", f"{st.accuracy:.0f}%",
                             f"{st.start:+.1f}", f"{st.luck:+.1f}", f"{st.skill:+.1f}", f"{st.others:+.1f}",
                             "" if st.margin is None else f"{st.margin:+.1f}")
    console.print(_fitted(console, standing))


_MARK_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def mark_words(label: str, tr: Translator = ENGLISH) -> str:
    """A mark as said (``Decision.mark_label``: ``mistake``, ``inaccuracy–mistake``, ``mistake?``) in ``tr``'s
    language, each mark's own word translated."""
    unsure = label.endswith("?")
    words = "\u2013".join(tr.t(kind) for kind in label.rstrip("?").split("\u2013"))
    return words + ("?" if unsure else "")


def _costly_line(d: Decision) -> Text:
    what = "draw or take" if d.card is None else f"the row for {card_name(d.card)}"
    best = "about equal" if d.about_equal else f"best {d.best}"
    text = Text(f"  game {d.game}, move {d.move} ({what}): played {d.played}, {best}: loss {_loss_text(d)}, "
                f"chance lost {lost_text(d.chance_loss)}")
    if d.mark_label:
        text.append(f" · {d.mark_label}", style=_MARK_STYLE.get(d.mark or "", "yellow"))
    return text


def _table_lines(d: Decision, players: tuple[str, ...]) -> list[Text]:
    s = d.state
    rows = []
    for i, cards in enumerate(s.rows):
        shown = "taken" if s.taken[i] else (", ".join(card_name(c) for c in cards) or "empty")
        rows.append(f"{i + 1}: {shown}")
    out = [Text("    rows " + " · ".join(rows) + f" · {plural(s.cards_left, 'card')} left"
                + (" · last round" if s.last_round else ""), style="dim")]
    for seat, counts in enumerate(s.collections):
        held = ", ".join(f"{card_name(k)} {n}" for k, n in zip(KINDS, counts) if n) or "nothing"
        line = Text("    ", style="dim").append(_name(players, seat)).append(f": {held}", style="dim")
        out.append(line)
    return out
