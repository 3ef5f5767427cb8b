"""Write the sample logs shipped with coloretto-log into a folder, to try every command on."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import one_line
from ..log.atomic import write_problem
from ..log.samples import SamplesRefused, write_samples
from .app import app
from .common import ExitCode, fail


@app.command()
def samples(
    folder: Annotated[
        Path,
        typer.Argument(help="The folder to write the samples into (made if missing).", metavar="DIR",
                       show_default=False),
    ],
) -> None:
    """Write the sample logs shipped with coloretto-log into DIR, to try every command on.

    The same files as sample_logs/ of the repository (its README.md lists
    them): an installed release has the examples of the README and of
    docs/ at hand with `coloretto-log samples sample_logs`. A file is never
    replaced: when a sample's name is already taken in DIR, nothing is
    written.

    Exit codes: 0 written, 2 a sample's name already taken in DIR (nothing
    written), 3 DIR cannot be written.

    Example: coloretto-log samples my-samples   # then: coloretto-log validate my-samples/
    """
    try:
        written = write_samples(folder)
    except SamplesRefused as e:
        fail(str(e), ExitCode.USAGE)
    except OSError as e:
        fail(write_problem(folder, e), ExitCode.UNREADABLE)
    shown = one_line(str(folder))
    typer.echo(f"{len(written)} sample files written to {shown} (its README.md lists them); "
               f"try: coloretto-log validate {shown}")
