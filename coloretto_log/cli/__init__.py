"""The ``coloretto-log`` command line: a thin shell over the library.

Each command parses its options, calls one library function and renders the
result. Commands live in modules of this package and register on ``app``.
"""

from __future__ import annotations

import sys
import traceback
from typing import Annotated

import typer

from .. import __version__
from .common import ExitCode

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


# Commands register themselves on ``app`` when imported.
from . import db as _db  # noqa: F401
from . import deal as _deal  # noqa: F401
from . import record as _record  # noqa: F401
from . import replay as _replay  # noqa: F401
from . import schema as _schema  # noqa: F401
from . import score as _score  # noqa: F401
from . import simulate as _simulate  # noqa: F401
from . import validate as _validate  # noqa: F401


def main(argv: list[str] | None = None) -> None:
    """Console entry point: no traceback for the user, exit 70 on a bug."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    try:
        app(args=args, prog_name="coloretto-log")
    except SystemExit:
        raise
    except KeyboardInterrupt:
        typer.echo("Interrupted.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if debug:
            traceback.print_exc()
        else:
            typer.echo(
                f"internal error: {type(exc).__name__}: {exc} (run again with --debug for the traceback, "
                "and please report it)",
                err=True,
            )
        sys.exit(int(ExitCode.INTERNAL))
