"""The ``coloretto-log`` command line: a thin shell over the library.

Each command parses its options, calls one library function and renders the
result. Commands live in modules of this package and register on ``app``.
"""

from __future__ import annotations

import sys
import traceback

import typer

# Commands register themselves on ``app`` when imported, in the order --help lists them.
# isort: off
from . import ingest as _ingest  # noqa: F401
from . import stats as _stats  # noqa: F401
from . import query as _query  # noqa: F401
from . import export as _export  # noqa: F401
# isort: on
from . import deal as _deal  # noqa: F401
from . import record as _record  # noqa: F401
from . import replay as _replay  # noqa: F401
from . import schema as _schema  # noqa: F401
from . import score as _score  # noqa: F401
from . import simulate as _simulate  # noqa: F401
from . import validate as _validate  # noqa: F401
from .app import app
from .common import ExitCode

__all__ = ["app", "main"]


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
