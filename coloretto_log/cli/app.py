"""The ``coloretto-log`` Typer application and its global options; commands register on ``app``."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__

app = typer.Typer(
    name="coloretto-log",
    help=(
        "Record, validate, replay and score Coloretto match logs.\n\n"
        "Exit codes: 0 ok, 1 invalid log, 2 usage error, 3 unreadable file or database, "
        "4 a claim that disagrees with the optimum (score), 70 internal error."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"coloretto-log {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an internal error.")
    ] = False,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Record, validate, replay and score Coloretto match logs."""
