"""``query``: one read-only statement over the database, in a sandbox, with every cost bounded.

The statement runs in a child process (``python -m coloretto_log.db.queries.sandbox``) so that its
bounds hold whatever DuckDB does:

* **the sandbox**: the file opened read-only, no file or network access, no
  extensions, the configuration locked (``sandbox.SANDBOX_CONFIG``); one
  statement, read-only (``SELECT``, ``WITH``, ``PIVOT``, ``DESCRIBE``,
  ``SUMMARIZE``, ``SHOW``, ``EXPLAIN``);
* **memory**: DuckDB's ``memory_limit``, and the child's address space
  capped by the operating system at :data:`MEMORY_BOUND` over what it needs
  to start (DuckDB's limit alone does not cover every allocation);
* **time**: ``timeout`` seconds of wall-clock time (not CPU time), counted
  from the start of the child process: starting, opening the database,
  executing and fetching; DuckDB is interrupted at that deadline and the
  child killed there if it has not answered, and the caller gets what is
  left of it for printing (:attr:`QueryResult.deadline`). The timeout is
  from :data:`MIN_TIMEOUT` to :data:`MAX_TIMEOUT` seconds;
* **rows**: at most ``limit`` rows (at most :data:`MAX_LIMIT`); one more is
  fetched to tell whether there were more;
* **size**: at most :data:`MAX_RESULT_BYTES` of rows handed back.

Each bound that stops a query says so in its one-line :class:`QueryError`.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DatabaseError, QueryError
from ..paths import default_db_path, no_database

__all__ = ["MAX_LIMIT", "MAX_SQL_BYTES", "MAX_TIMEOUT", "MIN_TIMEOUT", "QueryResult", "run_query", "timeout_problem"]

#: DuckDB's own memory limit, and the most the child may map beyond what it needs to start.
MEMORY_BOUND = 1 << 30
#: The most rows ``--limit`` may ask for.
MAX_LIMIT = 100_000
#: The most bytes of rows a query hands back.
MAX_RESULT_BYTES = 64 << 20
#: The longest SQL text accepted (``query -`` reads it from standard input).
MAX_SQL_BYTES = 1 << 20
#: The shortest and the longest ``--timeout``, in seconds.
MIN_TIMEOUT = 0.1
MAX_TIMEOUT = 3600.0
#: The child process that runs the statement.
SANDBOX_COMMAND = [sys.executable, "-m", "coloretto_log.db.queries.sandbox"]


def time_bound(timeout: float) -> str:
    """The one line for a query stopped at its timeout."""
    return f"the query ran past the {timeout:g} s timeout and was stopped (the time bound, --timeout)"


def timeout_problem(timeout: float) -> str | None:
    """Why ``timeout`` is not a usable ``--timeout`` (one line), or None."""
    if not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:  # NaN and infinity too
        return f"--timeout must be from {MIN_TIMEOUT:g} to {MAX_TIMEOUT:,.0f} seconds, not {timeout:g}"
    return None


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Rows of a query: column names and DuckDB types, at most ``limit`` rows, and whether more were cut.

    ``seconds`` is the time executing and fetching took; ``deadline`` the
    ``time.monotonic()`` by which printing the rows must end for the whole
    to stay within the timeout.
    """

    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool
    seconds: float
    deadline: float = float("inf")


def run_query(path: str | Path | None, sql: str, *, limit: int = 1000, timeout: float = 10.0) -> QueryResult:
    """Run one read-only statement on the database at ``path`` in the sandbox, within every bound.

    Raises :class:`QueryError` (one line) for a statement refused, an error
    in the SQL, or a bound that stopped it; :class:`DatabaseError` when the
    file cannot be opened.
    """
    db = Path(path) if path is not None else default_db_path()
    if not 0 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be from 0 to {MAX_LIMIT:,}, not {limit:,}")
    problem = timeout_problem(timeout)
    if problem is not None:
        raise QueryError(problem)
    if len(sql.encode("utf-8", "surrogatepass")) > MAX_SQL_BYTES:
        raise QueryError(f"the SQL is over the {MAX_SQL_BYTES >> 20} MB bound for one query")
    if not db.is_file():
        raise no_database(db)
    deadline = time.monotonic() + timeout  # wall-clock time, the same clock in the child (system-wide)
    request = json.dumps(
        {"path": os.fsencode(db).hex(), "sql": sql, "limit": limit, "timeout": timeout, "deadline": deadline}
    )
    proc = subprocess.Popen(
        SANDBOX_COMMAND,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    try:
        out, err = proc.communicate(
            request.encode("utf-8", "surrogatepass"), timeout=max(0.0, deadline - time.monotonic())
        )
    except subprocess.TimeoutExpired:
        proc.kill()  # the wall bound holds whatever the child is doing
        proc.wait()
        raise QueryError(time_bound(timeout)) from None
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    if proc.returncode != 0 or not out:
        if proc.returncode < 0:
            name = signal.Signals(-proc.returncode).name
            raise QueryError(
                f"the query process was stopped by {name}, most likely at the memory bound "
                f"({MEMORY_BOUND >> 20} MB); narrow the query"
            )
        last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        raise QueryError(f"the query process failed: {last[0]}")
    kind, value = pickle.loads(out)  # our own child's answer
    if kind == "database":
        raise DatabaseError(value)
    if kind == "error":
        raise QueryError(value)
    columns, types, rows, truncated, seconds = value
    if time.monotonic() > deadline:
        raise QueryError(time_bound(timeout))
    return QueryResult(columns, types, rows, truncated, seconds, deadline=deadline)
