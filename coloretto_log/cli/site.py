"""``site``: the club's pages (standings, ratings, evenings, players, matches) as a static folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import one_line
from ..db.store import DatabaseError
from ..log.atomic import write_problem
from ..site.build import SiteError, build_site
from ..site.pages import INACTIVE_AFTER, TemplateProblem
from .app import app
from .common import ExitCode, emit_json, fail, page_languages, plural, wrapped
from .database import DbOption, db_path


@app.command()
def site(
    out: Annotated[
        Path,
        typer.Option("--out", "-o", metavar="PATH", file_okay=False, show_default=False,
                     help="The folder to build the site in (created if new; only pages that changed are rewritten)."),
    ],
    db: DbOption = None,
    title: Annotated[
        str | None,
        typer.Option("--title", metavar="TEXT", help="The site's title (default: the one the folder was built with, "
                     "else \"Our Coloretto club\", in each language).", show_default=False),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", metavar="LANG", help="The pages' languages, separated by commas, from en, ja, ko, ru: "
                     "the first one's pages are index.html..., another's index.ja.html..., each page links to "
                     "its other languages (default: those the folder was built with, else en).",
                     show_default=False),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Build into a folder that holds other files (never the database's); a "
                           "file the site would write and did not write itself is still refused.")
    ] = False,
    templates: Annotated[
        Path | None,
        typer.Option("--templates", metavar="DIR", file_okay=False, show_default=False,
                     help="A folder of templates (and site.css) replacing the package's of the same name: "
                     "a club's own style (docs/site.md)."),
    ] = None,
    inactive_after: Annotated[
        int,
        typer.Option("--inactive-after", metavar="MONTHS", min=0,
                     help="List apart, as inactive, the players without a game in this many months before the "
                     "club's latest match (0: never)."),
    ] = INACTIVE_AFTER,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print what was built (files written, unchanged, removed) as JSON.")
    ] = False,
) -> None:
    """Build the club's site: standings, ratings over time, every evening, a page per player and per match.

    A folder of plain files, with nothing loaded from the network: open
    index.html from disk, put the folder on any web host, or send it as a
    zip. Each match has a replay page (the viewer of `replay --html`),
    drawn from the log the database keeps (the log files are never read
    again: the same folder comes from any working folder), with its stored
    analysis (`analyze --db`). Run it again after an ingest: only the pages
    that changed are rewritten; the title and languages the folder was
    built with are kept unless given again. The database is only read;
    nothing outside the folder is written or removed, nor any file in it
    the site did not write (its manifest, .coloretto-site.json, lists
    them). docs/site.md.

    Exit codes: 0 built, 2 usage error (--out is a file, a folder of other
    files, one holding a file where the site would write, or a link out
    of it; two pages that would share a name), 3 the database cannot be read or a page cannot be written.

    Example: coloretto-log ingest sample_logs/ --db club.duckdb   # first, store the logs
    Example: coloretto-log site --db club.duckdb --out site/
    Example: coloretto-log site --db club.duckdb --out site/ --lang ja,en
    Example: coloretto-log site --db club.duckdb --out site/ --templates club-style/
    """
    langs = page_languages(lang) if lang is not None else None
    path = db_path(db)
    tty = sys.stderr.isatty()

    def progress(text: str) -> None:
        sys.stderr.write(f"\r\x1b[K{text}")
        sys.stderr.flush()

    try:
        try:
            built = build_site(path, out, force=force, title=title, progress=progress if tty else None,
                               langs=langs, templates=templates, inactive_after=inactive_after)
        finally:
            if tty:
                progress("")  # the progress line is cleared before any other word
    except (SiteError, TemplateProblem) as e:
        fail(str(e), ExitCode.USAGE)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    except OSError as e:
        fail(write_problem(out, e, "write in this folder"), ExitCode.UNREADABLE)
    if json_out:
        emit_json(built.as_json())
        return
    replay = "" if not built.no_replay else (
        f"; {plural(built.no_replay, 'match', 'matches')} without a replay: their logs are not in the database "
        f"(stored by an older coloretto-log); run `coloretto-log ingest LOGS... --db {one_line(str(path))}` with "
        "their files once to store them")
    typer.echo(wrapped(
        f"site {one_line(str(out))}: {plural(built.pages, 'file')}, {built.written} written, {built.unchanged} "
        f"unchanged, {built.removed} removed{replay}; open {one_line(str(out / 'index.html'))}",
        keep=[one_line(str(out)), one_line(str(out / "index.html")), f"`coloretto-log ingest LOGS... --db {one_line(str(path))}`"],
    ), err=True)

