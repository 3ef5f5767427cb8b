"""The ``coloretto-log`` command line: a thin shell over the library.

Each command parses its options, calls one library function and renders the
result. Commands live in modules of this package and register on ``app``;
a module is imported only when one of its commands runs (a fast start).
"""

from __future__ import annotations

import os
import sys

import typer

from .app import COMMANDS, app
from .common import ExitCode

#: Every command, and the module of this package that defines it (imported when the command runs).
#: Adding a command is one line here.
COMMANDS.update({
    "validate": "validate",
    "score": "score",
    "replay": "replay",
    "record": "record",
    "serve": "serve",
    "simulate": "simulate",
    "analyze": "analyze",
    "deal": "deal",
    "schema": "schema",
    "ingest": "ingest",
    "stats": "stats",
    "query": "query",
    "export": "export",
    "ratings": "ratings",
    "site": "site",
    "tables": "tables",
    "tournament": "tournament",
    "samples": "samples",
})

__all__ = ["COMMANDS", "app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Console entry point: no traceback for the user, exit 70 on a bug, quiet on a closed pipe."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    # typer checks options with pydantic, and pydantic would scan every installed package for plugins
    # at the first check (a tenth of `score --hand`'s time); this program uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    stdout = _identity()
    try:
        app(args=args, prog_name="coloretto-log")
    except SystemExit as e:
        if e.code not in (0, None) and (_pipe_closed() or _identity() != stdout):
            _quiet_exit()  # `coloretto-log score ... | head -1`: the reader has all it wanted
        raise e from None
    except KeyboardInterrupt:
        typer.echo("Interrupted.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        _quiet_exit()
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if debug:
            import traceback

            traceback.print_exc()
        else:
            typer.echo(
                f"internal error: {type(exc).__name__}: {exc} (run again with --debug for the traceback, "
                "and please report it)",
                err=True,
            )
        sys.exit(int(ExitCode.INTERNAL))


def _pipe_closed() -> bool:
    """True when standard output was closed by its reader (typer then wraps stdout to silence it)."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _identity() -> tuple[int, int] | None:
    """What file descriptor 1 is; rich points it at /dev/null when its reader has gone, then exits 1."""
    try:
        st = os.fstat(1)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _quiet_exit() -> None:
    """Exit 0 without a word: point stdout at /dev/null so the final flush cannot complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
    except (OSError, ValueError):
        pass
    sys.exit(0)
