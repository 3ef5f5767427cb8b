"""Rows of values for people and programs: a rich table, CSV, plain JSON values (``query`` and ``stats``).

A table for a terminal escapes control characters in every cell (a value
from the database never speaks to the terminal), reads nothing as markup and
rounds floats to ``TABLE_DECIMALS`` places; CSV and JSON keep the exact values.
"""

from __future__ import annotations

import csv
import datetime as _dt
import decimal
import io
import json
import math
import time
import uuid
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.errors import one_line
from .safe_text import TerminalSafe

__all__ = [
    "CHUNK",
    "NUMERIC_TYPES",
    "cell",
    "plain",
    "print_table_rows",
    "result_table",
    "table_cell",
    "write_csv",
    "write_csv_rows",
    "write_json_rows",
]

#: Rows printed between two looks at the clock (and rows per table drawn at once).
CHUNK = 1000


def plain(value: Any) -> Any:
    """A query value as plain JSON."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, (uuid.UUID, _dt.timedelta)):
        return str(value)
    return str(value)


def cell(value: Any) -> str:
    """A value as the text of one cell: ``NULL``, JSON for lists and structs, else its plain text."""
    if value is None:
        return "NULL"
    if isinstance(value, (list, dict)):
        return json.dumps(plain(value), ensure_ascii=False)
    return str(plain(value))


#: Decimals a float keeps in a table for people (csv and JSON keep every digit).
TABLE_DECIMALS = 4


def table_cell(value: Any) -> str:
    """A value as a table for people shows it: :func:`cell`, with a float rounded (``31.5617``, not
    ``31.561666666666667``); very small or very large floats in exponent form."""
    if isinstance(value, float) and math.isfinite(value):
        if value == 0 or 1e-3 <= abs(value) < 1e15:
            text = f"{value:.{TABLE_DECIMALS}f}".rstrip("0")
            return text + "0" if text.endswith(".") else text
        return f"{value:.{TABLE_DECIMALS}g}"
    return cell(value)


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]], file: TextIO) -> None:
    """A header (when not empty) and the rows as CSV; NULL is an empty field."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header:
        w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else cell(v) for v in row])
    TerminalSafe(file, kind="text").write(buf.getvalue())  # escaped on a terminal


NUMERIC_TYPES = frozenset(
    ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")
    + ("UHUGEINT", "FLOAT", "DOUBLE", "NUMBER")
)


def result_table(
    columns: Sequence[str],
    types: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    widths: Sequence[int] | None = None,
    header: bool = True,
) -> Table:
    """A query's rows as a table for a terminal: numbers right-aligned, NULL dim, every cell one escaped line."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_header=header)
    for i, (name, kind) in enumerate(zip(columns, types)):
        t.add_column(
            Text(one_line(name)),
            justify="right" if kind.upper() in NUMERIC_TYPES else "left",
            width=None if widths is None else widths[i],
            no_wrap=widths is not None,
        )
    for row in rows:
        t.add_row(*(Text(one_line(table_cell(v)), style="dim" if v is None else "") for v in row))
    return t


def _in_time(deadline: float) -> bool:
    return time.monotonic() <= deadline


def write_csv_rows(header: Sequence[str], rows: Sequence[Sequence[Any]], file: TextIO, *, deadline: float) -> int:
    """:func:`write_csv` in chunks, stopping at ``deadline`` (``time.monotonic()``); how many rows were written."""
    done = 0
    for start in range(0, max(len(rows), 1), CHUNK):
        if start and not _in_time(deadline):
            return done
        write_csv(header if start == 0 else (), rows[start : start + CHUNK], file)
        done = min(len(rows), start + CHUNK)
    return done


def write_json_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]], file: TextIO, *, deadline: float) -> int:
    """The rows as a JSON array of objects (indented as ``json.dumps(..., indent=2)``), stopping at ``deadline``;
    on a terminal, what ``one_line`` escapes is written as ``\\u`` escapes (``safe_text.TerminalSafe``)."""
    write = TerminalSafe(file).write

    if not rows:
        write("[]\n")
        return 0
    write("[\n")
    for i, row in enumerate(rows):
        if i % CHUNK == 0 and i and not _in_time(deadline):
            write("\n]\n")
            return i
        text = json.dumps(dict(zip(columns, (plain(v) for v in row))), indent=2, ensure_ascii=False)
        write(("" if i == 0 else ",\n") + "\n".join("  " + line for line in text.split("\n")))  # not at U+2028
    write("\n]\n")
    return len(rows)


def print_table_rows(
    console: Console, columns: Sequence[str], types: Sequence[str], rows: Sequence[Sequence[Any]], *, deadline: float
) -> int:
    """The rows as tables of :data:`CHUNK` rows with the same column widths, stopping at ``deadline``."""
    if len(rows) <= CHUNK:
        console.print(result_table(columns, types, rows))
        return len(rows)
    widths = [cell_len(one_line(name)) for name in columns]
    for row in rows:
        for i, v in enumerate(row):
            widths[i] = max(widths[i], cell_len(one_line(table_cell(v))))
    for start in range(0, len(rows), CHUNK):
        if start and not _in_time(deadline):
            return start
        t = result_table(columns, types, rows[start : start + CHUNK], widths=widths, header=start == 0)
        console.print(t)
    return len(rows)
