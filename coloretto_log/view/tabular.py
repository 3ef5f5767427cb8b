"""Rows of values for people and programs: a rich table, CSV, plain JSON values (``query`` and ``stats``).

A table for a terminal escapes control characters in every cell (a value
from the database never speaks to the terminal) and reads nothing as markup;
CSV and JSON keep the exact values.
"""

from __future__ import annotations

import csv
import datetime as _dt
import decimal
import io
import json
import uuid
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from rich import box
from rich.table import Table
from rich.text import Text

from ..core.errors import one_line

__all__ = ["NUMERIC_TYPES", "cell", "plain", "result_table", "write_csv"]


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


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]], file: TextIO) -> None:
    """A header (when not empty) and the rows as CSV; NULL is an empty field."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header:
        w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else cell(v) for v in row])
    file.write(buf.getvalue())


NUMERIC_TYPES = frozenset(
    ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")
    + ("UHUGEINT", "FLOAT", "DOUBLE", "NUMBER")
)


def result_table(columns: Sequence[str], types: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    """A query's rows as a table for a terminal: numbers right-aligned, NULL dim, every cell one escaped line."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, kind in zip(columns, types):
        t.add_column(Text(one_line(name)), justify="right" if kind.upper() in NUMERIC_TYPES else "left")
    for row in rows:
        t.add_row(*(Text(one_line(cell(v)), style="dim" if v is None else "") for v in row))
    return t
