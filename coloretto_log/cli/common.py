"""What every command shares: exit codes, JSON output, one-line errors."""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Iterable
from typing import Annotated, Any, NoReturn, TextIO

import typer

from ..core.errors import Finding

#: The help of every command that reads logs from paths.
PATHS_HELP = (
    "Log files (.json: one match; .jsonl: one match a line), folders (searched recursively), or - for standard input."
)
#: The PATH... argument of those commands.
LogPaths = Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False, metavar="PATH...")]


class ExitCode(enum.IntEnum):
    """The exit codes of every command (README, "Exit codes")."""

    OK = 0
    INVALID = 1  # a log breaks the format or the rules
    USAGE = 2  # wrong options or arguments
    UNREADABLE = 3  # a file or database that cannot be read or written
    CLAIM_DISAGREES = 4  # score: a claimed score or choice differs from the optimum
    INTERNAL = 70  # a bug: please report it with --debug output


class Format(str, enum.Enum):
    """How a command prints its result: ``table`` for people, ``json`` or ``csv`` for programs."""

    table = "table"
    json = "json"
    csv = "csv"


#: The output options every command shares (``--format``, and ``--json`` as its short form), declared once.
FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format", "-f", metavar="table|json|csv", show_default=False,
        help="Output: table for people (default); json or csv for programs (csv where the command has a table).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Short for --format json.")]


def output_format(fmt: Format | None, json_out: bool, *, csv: bool = True) -> Format:
    """The format asked for by ``--format``/``--json``; a usage error (exit 2) when they disagree or csv is not offered."""
    if json_out and fmt not in (None, Format.json):
        raise typer.BadParameter(f"--json asks for json, --format for {fmt.value}: give one", param_hint="--format")
    chosen = Format.json if json_out else (fmt or Format.table)
    if chosen is Format.csv and not csv:
        raise typer.BadParameter("this command prints no table to give as csv: use table or json", param_hint="--format")
    return chosen


def emit_json(value: Any, *, file: TextIO | None = None) -> None:
    """Stable, indented JSON (on stdout unless ``file``): keys in the order built, no markup."""
    (sys.stdout if file is None else file).write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def print_findings(findings: Iterable[Finding], label: str, *, err: bool = False) -> None:
    """Each finding as its one line, errors in red and warnings in yellow."""
    for f in findings:
        colour = typer.colors.RED if f.severity == "error" else typer.colors.YELLOW
        typer.secho(f.line(label), fg=colour, err=err)


def fail(message: str, code: ExitCode = ExitCode.INVALID) -> NoReturn:
    """One ``Error:`` line on stderr and the exit code."""
    typer.secho(f"Error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code=int(code))


def exit_for(*, unreadable: bool, invalid: bool, disputes: bool = False) -> None:
    """End a command that read logs with its worst outcome: unreadable (3), then invalid (1), then a dispute (4)."""
    if unreadable:
        raise typer.Exit(int(ExitCode.UNREADABLE))
    if invalid:
        raise typer.Exit(int(ExitCode.INVALID))
    if disputes:
        raise typer.Exit(int(ExitCode.CLAIM_DISAGREES))


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
