"""``ingest``: validate, score and store match logs in the database (docs/database.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..core.errors import one_line
from ..db.errors import DatabaseError
from ..db.ingest import IngestEvent, IngestSummary
from ..db.ingest_files import ingest_logs
from ..log.load import LoadedMatch, Unreadable, load
from ..log.reader import STDIN, expand_paths
from .app import app
from .common import ExitCode, LogPaths, emit_json, exit_for, fail, plural
from .database import DbOption, db_path, err_console


def _file_sizes(paths: list[str]) -> tuple[list[str], dict[str, int]]:
    """The files behind ``paths`` (folders expanded) and their sizes, for the progress bar."""
    files: list[str] = []
    sizes: dict[str, int] = {}
    for item in expand_paths(paths):
        name = STDIN if item == STDIN else str(item)
        files.append(name)
        try:
            sizes[name] = Path(name).stat().st_size if name != STDIN else 0
        except OSError:
            sizes[name] = 0
    return files, sizes


def _tracked(
    items: Iterator[LoadedMatch | Unreadable], progress: Progress, task: Any, sizes: dict[str, int]
) -> Iterator[LoadedMatch | Unreadable]:
    """Advance the progress bar by a file's size when reading moves past it."""
    current: str | None = None
    matches = 0
    for item in items:
        if item.file != current:
            if current is not None:
                progress.advance(task, sizes.get(current, 0))
            current = item.file
        if isinstance(item, LoadedMatch):
            matches += 1
            if matches % 200 == 0:
                progress.update(task, description=f"{plural(matches, 'match', 'matches')} read")
        yield item
    if current is not None:
        progress.advance(task, sizes.get(current, 0))


@app.command()
def ingest(
    paths: LogPaths,
    db: DbOption = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a stored match whose log has changed (same id, other content).")
    ] = False,
    rebuild_db: Annotated[
        bool,
        typer.Option(
            "--rebuild",
            help="Recreate the database from these logs alone (the old file is replaced only when the new one is complete).",
        ),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON report for programs.")] = False,
) -> None:
    """Validate and score match logs and store them in the database.

    Each match is checked as validate checks it and scored as score scores
    it. A match already stored with the same content is skipped; a stored
    match whose content changed is reported and left alone unless --replace;
    an invalid log is reported line by line as validate reports it and
    nothing of it is stored. Matches are written in batches, one transaction
    each: an interruption keeps the batches already written, never half a
    match, and running the same command again carries on.

    Exit codes: 0 ok, 1 an invalid log, 2 usage error, 3 an unreadable file
    or database (locked, damaged, foreign, disk full).

    Example: coloretto-log ingest sample_logs/ --db club.duckdb
    """
    path = db_path(db)
    err = err_console()
    files, sizes = _file_sizes(paths)
    invalid: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    unreadable: list[dict[str, str]] = []

    def on_event(event: IngestEvent) -> None:
        if event.kind == "invalid":
            assert event.loaded is not None
            findings = event.loaded.findings()
            invalid.append(
                {
                    "file": event.loaded.file,
                    "line": event.loaded.line,
                    "match_id": event.match_id,
                    "findings": [f.as_json() for f in findings],
                }
            )
            if not json_out:
                for f in findings:
                    colour = typer.colors.RED if f.severity == "error" else typer.colors.YELLOW
                    typer.secho(f.line(event.label), fg=colour)
        elif event.kind == "changed":
            changed.append({"label": event.label, "match_id": event.match_id, "stored_from": event.message})
            if not json_out:
                err.print(
                    f"{event.label}: match {event.match_id} is stored with other content (from {event.message}); "
                    "left alone (use --replace to replace it)",
                    style="yellow",
                    markup=False,
                )
        elif event.kind == "unreadable":
            unreadable.append({"file": event.label, "error": event.message})
            if not json_out:
                err.print(one_line(event.message), style="red", markup=False)

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    total = sum(sizes.values()) or None
    try:
        with progress:
            task = progress.add_task("reading logs", total=total)
            items = _tracked(load(files), progress, task, sizes)
            summary, counts = ingest_logs(path, items, replace=replace, rebuild_db=rebuild_db, on_event=on_event)
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    except KeyboardInterrupt:
        err.print(
            "Interrupted: the batches written so far are kept, the one being written was rolled back; "
            "run the same command again to carry on.",
            style="red",
        )
        raise typer.Exit(130) from None
    if json_out:
        emit_json(
            {
                "database": str(path),
                "summary": summary.as_json(),
                "tables": counts,
                "invalid": invalid,
                "changed": changed,
                "unreadable": unreadable,
            }
        )
    else:
        _print_ingest_summary(summary, counts, path)
    exit_for(unreadable=bool(unreadable), invalid=bool(invalid))


def _print_ingest_summary(s: IngestSummary, counts: dict[str, int], path: Path) -> None:
    parts = [
        f"stored {plural(s.stored, 'match', 'matches')}",
        f"replaced {s.replaced}",
        f"skipped {s.skipped} already stored",
        f"{s.changed} changed (left alone)" if s.changed else "0 changed",
        f"{s.invalid} invalid",
    ]
    if s.unreadable:
        parts.append(f"{plural(s.unreadable, 'file')} unreadable")
    ok = not (s.invalid or s.unreadable)
    typer.secho(
        "Ingest: " + ", ".join(parts) + f"; {plural(s.games, 'game')} written.",
        fg=typer.colors.GREEN if ok else typer.colors.RED,
        bold=True,
    )
    typer.echo(
        f"{path}: {plural(counts['matches'], 'match', 'matches')}, {plural(counts['games'], 'game')}, "
        f"{plural(counts['moves'], 'move')}."
    )
