"""``ingest``: validate, score and store match logs in the database (docs/database.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from ..core.errors import one_line
from ..db.errors import DatabaseError, decoded_name, shown
from ..db.ingest.batches import IngestEvent, IngestSummary
from ..db.ingest.files import ingest_logs
from ..db.ingest.reading import planned
from .app import app
from .common import (
    ExitCode,
    Format,
    JsonOption,
    LogPaths,
    TableJsonOption,
    emit_json,
    exit_for,
    fail,
    output_format,
    plural,
    wrapped,
)
from .database import DbOption, db_path, err_console


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
            help="Recreate the database from these logs alone. The old file is replaced only when the new one is "
            "complete, every log was readable and valid, and at least one match is stored.",
        ),
    ] = False,
    fmt: TableJsonOption = None,
    json_out: JsonOption = False,
) -> None:
    """Validate and score match logs and store them in the database.

    Each match is checked as validate checks it and scored as score scores
    it. A match already stored with the same content is skipped; a stored
    match whose content changed is reported and left alone unless --replace;
    an invalid log is reported line by line as validate reports it and
    nothing of it is stored. Matches are written in batches, one transaction
    each: an interruption keeps the batches already written, never half a
    match, and running the same command again carries on (a stored match is
    skipped by its content hash before it is checked again). A database that
    ingest created and stored nothing in is removed. Progress shows on
    standard error when it is a terminal.

    Exit codes: 0 ok, 1 an invalid log (or --rebuild found no match to
    store), 2 usage error, 3 an unreadable file or database (locked,
    damaged, foreign, a folder, disk full).

    Example: coloretto-log ingest sample_logs/ --db club.duckdb
    """
    chosen = output_format(fmt, json_out)
    json_out = chosen is Format.json
    path = db_path(db)
    err = err_console()
    plan = planned(paths)
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
                    one_line(
                        f"{event.label}: match {event.match_id} is stored with other content (from {event.message}); "
                        "left alone (use --replace to replace it)"
                    ),
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
        TransferSpeedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    task = progress.add_task("reading logs", total=plan.total_bytes or None)

    def on_progress(done: int, matches: int) -> None:
        if matches % 100 == 0:
            progress.update(task, completed=done, description=f"{plural(matches, 'match', 'matches')} read")
        else:
            progress.update(task, completed=done)
    try:
        with progress:
            outcome = ingest_logs(
                path,
                plan,
                replace=replace,
                rebuild_db=rebuild_db,
                on_event=on_event,
                on_progress=on_progress,
            )
    except DatabaseError as e:
        fail(str(e), ExitCode.UNREADABLE)
    except KeyboardInterrupt:
        err.print(
            "Interrupted: the batches written so far are kept, the one being written was rolled back; "
            "run the same command again to carry on.",
            style="red",
        )
        raise typer.Exit(130) from None
    summary, counts = outcome.summary, outcome.counts
    if json_out:
        report: dict[str, Any] = {
            "database": decoded_name(str(path)),
            "summary": summary.as_json(),
            "tables": counts,
            "invalid": invalid,
            "changed": changed,
            "unreadable": unreadable,
        }
        if rebuild_db:
            report["kept"] = outcome.kept
        emit_json(report)
    else:
        _print_ingest_summary(summary, counts, path)
        if outcome.kept:
            err.print(one_line(outcome.kept), style="red", markup=False)
    exit_for(unreadable=bool(unreadable), invalid=bool(invalid) or outcome.kept is not None)


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
        wrapped("Ingest: " + ", ".join(parts) + f"; {plural(s.games, 'game')} written."),
        fg=typer.colors.GREEN if ok else typer.colors.RED,
        bold=True,
    )
    if not counts:
        typer.echo(f"{shown(path)}: no database (nothing was stored).")
        return
    typer.echo(wrapped(
        f"{shown(path)}: {plural(counts['matches'], 'match', 'matches')}, {plural(counts['games'], 'game')}, "
        f"{plural(counts['moves'], 'move')}."
    ))
