"""The query sandbox: a read-only, locked DuckDB connection and the statements it runs; the child of ``query``.

:func:`connect` opens the database with external access off and the
configuration locked (:data:`SANDBOX_CONFIG`); :func:`run` checks that the
SQL is one read-only statement and runs it with a timeout and a row limit.
:func:`main` is the child process ``query.run_query`` starts: it caps its
own memory (:func:`cap_memory`), runs one request and answers. It reads
one JSON request on standard input (``path`` as hex bytes, ``sql``,
``limit``, ``timeout``) and writes one pickled answer on standard output:
``("ok", (columns, types, rows, truncated, seconds))``, ``("error", line)``
or ``("database", line)``. Not a command for people.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any

import duckdb

from ..errors import DatabaseError, QueryError, db_error, first_line, refuse_foreign
from ..paths import no_database
from ..store import MatchStore
from .query import MAX_RESULT_BYTES, MEMORY_BOUND, time_bound

#: What the sandbox sets before locking the configuration (docs: "Securing DuckDB").
SANDBOX_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,  # no file, network, ATTACH, COPY, INSTALL/LOAD of extensions
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "python_enable_replacements": False,  # Python variables are not tables
    "python_scan_all_frames": False,
    "memory_limit": f"{MEMORY_BOUND >> 20}MB",
    "temp_directory": "",  # no spilling to disk either
    "lock_configuration": True,  # no SET / RESET / PRAGMA changes after this
}


#: Statement types run as they are: SELECT (WITH, DESCRIBE, SUMMARIZE, SHOW, PIVOT with an IN list, VALUES),
#: EXPLAIN, and MULTI: what DuckDB makes of a PIVOT without an IN list (it first reads the values to pivot on).
ALLOWED_STATEMENTS = ("SELECT", "EXPLAIN", "MULTI")
#: Why the others are refused, in plain words, by the statement's first keyword as written (DuckDB files
#: INSTALL under LOAD and CHECKPOINT under CALL, so its statement type would name the wrong one).
_NO_EXTENSIONS = "is not allowed here: the sandbox installs and loads no extensions"
REFUSED = {
    "PRAGMA": "PRAGMA is not allowed here; read the same through its table function, "
    "e.g. SELECT * FROM pragma_table_info('games')",
    "CALL": "CALL is not allowed here; use the table function in a SELECT, e.g. SELECT * FROM duckdb_tables()",
    "INSTALL": f"INSTALL {_NO_EXTENSIONS}",
    "LOAD": f"LOAD {_NO_EXTENSIONS}",
    "CHECKPOINT": "CHECKPOINT is not allowed here: it writes the database, which is read-only to a query",
}
_COMMENTS = re.compile(r"(?:\s+|--[^\n]*|/\*.*?\*/)*", re.DOTALL)
_WORD = re.compile(r"[A-Za-z_]+")


def statement_word(sql: str) -> str:
    """The keyword a statement starts with, as a person reads it (``FORCE INSTALL x`` is an INSTALL); '' for none."""
    start = _COMMENTS.match(sql)
    text = sql[start.end():] if start else sql
    words = _WORD.findall(text[:64])
    if words and words[0].upper() == "FORCE" and len(words) > 1:
        words = words[1:]
    if not words:
        return ""
    first = words[0].upper()
    return f"{first} DATABASE" if first in ("IMPORT", "EXPORT") and len(words) > 1 else first


def refusal(sql: str, kind: str) -> str:
    """The one line for a statement of DuckDB type ``kind`` that is not allowed."""
    word = statement_word(sql) or kind
    if word in REFUSED:
        return REFUSED[word]
    return (
        f"only read-only queries (SELECT, WITH, PIVOT, DESCRIBE, EXPLAIN ...) are allowed here, not {word}; "
        "the database is read-only"
    )


SIZE_MESSAGE = (
    f"the rows are over the {MAX_RESULT_BYTES >> 20} MB bound for one result and were not printed "
    "(the size bound); select fewer columns or rows, or lower --limit"
)
MEMORY_MESSAGE = (
    f"the query needed more than the {MEMORY_BOUND >> 20} MB memory bound and was stopped "
    "(the memory bound); narrow the query or aggregate"
)


def cap_memory() -> None:
    """Cap this process's address space at what it maps now plus :data:`MEMORY_BOUND`.

    Called once the connection is open: what DuckDB maps for its threads and
    pools when it starts is counted in what the process needs to start.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError):
        return  # not Linux: DuckDB's own memory_limit still holds
    cap = size + MEMORY_BOUND
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def connect(db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``db`` with external access off and the configuration locked."""
    if not db.is_file():
        raise no_database(db)
    refuse_foreign(db)
    try:
        return duckdb.connect(str(db), read_only=True, config=dict(SANDBOX_CONFIG))
    except duckdb.Error as e:
        raise db_error(db, e) from None


def run(db: Path, sql: str, limit: int, timeout: float, deadline: float | None = None) -> tuple[Any, ...]:
    """The answer for one request (see the module's docstring); ``deadline`` is the ``time.monotonic()`` by
    which it must be done (by default ``timeout`` seconds from now)."""
    if deadline is None:
        deadline = time.monotonic() + timeout
    con = connect(db)
    try:
        MatchStore(db, con, read_only=True).check_schema()
        cap_memory()  # after connecting: DuckDB's threads and pools are counted in what it needs to start
        return _run_sandboxed(con, sql, limit=limit, timeout=timeout, deadline=deadline)
    finally:
        try:
            con.close()
        except duckdb.Error:
            pass


def _run_sandboxed(
    con: duckdb.DuckDBPyConnection, sql: str, *, limit: int, timeout: float, deadline: float
) -> tuple[Any, ...]:
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as e:
        raise QueryError(first_line(e)) from None
    if len(statements) != 1:
        raise QueryError(f"give exactly one SQL statement, not {len(statements)}")
    try:
        kind = statements[0].type.name
    except ValueError:  # a statement type the Python package does not name (UPDATE EXTENSIONS)
        kind = "UNKNOWN"
    if kind not in ALLOWED_STATEMENTS:
        raise QueryError(refusal(statements[0].query, kind))
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), con.interrupt)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        cur = con.execute(sql)
        rows = cur.fetchmany(limit + 1)
        description = cur.description or []
    except duckdb.InterruptException:
        raise QueryError(time_bound(timeout)) from None
    except (duckdb.OutOfMemoryException, MemoryError):
        raise QueryError(MEMORY_MESSAGE) from None
    except duckdb.Error as e:
        raise QueryError(first_line(e)) from None
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    if time.monotonic() > deadline:
        raise QueryError(time_bound(timeout))
    return ([d[0] for d in description], [str(d[1]) for d in description], rows[:limit], len(rows) > limit, seconds)


def main() -> None:
    request = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
    db = Path(os.fsdecode(bytes.fromhex(request["path"])))
    try:
        answer: tuple[str, Any] = ("ok", run(db, request["sql"], request["limit"], request["timeout"], request.get("deadline")))
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except QueryError as e:
        data = pickle.dumps(("error", str(e)))
    except MemoryError:
        data = pickle.dumps(("error", MEMORY_MESSAGE))
    except DatabaseError as e:
        data = pickle.dumps(("database", str(e)))
    except Exception as e:  # noqa: BLE001 - whatever else DuckDB raises: one line for the parent
        data = pickle.dumps(("error", first_line(e)))
    if len(data) > MAX_RESULT_BYTES:
        data = pickle.dumps(("error", SIZE_MESSAGE))
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
