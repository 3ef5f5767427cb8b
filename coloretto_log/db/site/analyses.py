"""Analyses kept in the database: ``analyze --db`` stores each analysed match's JSON, ``site`` reads it back.

One table beside the matches, created the first time an analysis is stored
(a database without it simply has no analysis):

* ``analyses``: ``match_id`` and ``content_hash`` (the match as ingest
  stored it: same hash, same content), ``analysed_at`` (when it was
  stored), ``data`` (the match's object of ``analyze --json``, with the
  settings it was made with under ``"settings"``).

A match has at most one analysis: storing another replaces it. An analysis
whose hash is not the stored match's (the log was edited and ingested again)
is kept but not used: :func:`stored_analyses` returns only analyses of the
matches as they are stored now.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from typing import Any

import duckdb

from ..errors import db_error
from ..results import first_row
from ..store import MatchStore

__all__ = ["ANALYSIS_COLUMNS", "ANALYSIS_TABLE", "has_analyses", "store_analysis", "stored_analyses"]

ANALYSIS_TABLE = "analyses"
#: The table's columns (docs/database.md, "Stored analyses").
ANALYSIS_COLUMNS = (
    "match_id VARCHAR NOT NULL, content_hash VARCHAR NOT NULL, analysed_at TIMESTAMP NOT NULL, data VARCHAR NOT NULL"
)


def has_analyses(store: MatchStore) -> bool:
    """Whether the database holds the analyses table."""
    found = store.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [ANALYSIS_TABLE])
    return bool(found)


def store_analysis(store: MatchStore, match_id: str, content_hash: str, data: Mapping[str, Any]) -> bool:
    """Keep ``data`` (one match of ``analyze --json``) for the match, replacing an earlier one, in one transaction.

    Returns whether the database holds that match with that content (when
    not, the analysis is kept all the same, and used once the match is
    ingested).
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    now = _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    try:
        with store.transaction() as con:
            con.execute(f"CREATE TABLE IF NOT EXISTS {ANALYSIS_TABLE} ({ANALYSIS_COLUMNS})")
            con.execute(f"DELETE FROM {ANALYSIS_TABLE} WHERE match_id = ?", [match_id])
            con.execute(f"INSERT INTO {ANALYSIS_TABLE} VALUES (?, ?, ?, ?)", [match_id, content_hash, now, text])
            row = first_row(
                con.execute("SELECT count(*) FROM matches WHERE match_id = ? AND content_hash = ?", [match_id, content_hash])
            )
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as e:
        raise db_error(store.path, e, writing=True) from None
    return bool(row and row[0])


def stored_analyses(store: MatchStore) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every stored match's analysis: match id -> (content hash, the JSON), for the content stored now."""
    if not has_analyses(store):
        return {}
    rows = store.execute(
        f"SELECT a.match_id, a.content_hash, a.data FROM {ANALYSIS_TABLE} a "
        "JOIN matches m ON m.match_id = a.match_id AND m.content_hash = a.content_hash ORDER BY a.match_id"
    ).fetchall()
    return {mid: (digest, json.loads(text)) for mid, digest, text in rows}
