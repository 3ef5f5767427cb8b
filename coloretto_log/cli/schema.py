"""``coloretto-log schema``: print the JSON Schema of the log format."""

from __future__ import annotations

import sys

from ..log.models import json_schema_text
from .app import app


@app.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the match log, version 1.

    The same text is checked in as schemas/coloretto-log.v1.schema.json.

    Example: coloretto-log schema > coloretto-log.v1.schema.json
    """
    sys.stdout.write(json_schema_text())
