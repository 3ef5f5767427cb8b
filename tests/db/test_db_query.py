"""``query``: read-only SQL in a sandbox. A table of attacks, each refused in one line, none creating a file."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.db.errors import QueryError
from coloretto_log.db.queries import query as query_module
from coloretto_log.db.queries.query import run_query
from coloretto_log.db.queries.sandbox import connect as sandbox_connect
from coloretto_log.db.store import MatchStore
from coloretto_log.log.load import load

from ..conftest import GENEROUS, ROOT

#: run_query's time bound where the bound is not tested: GENEROUS's 600 s (the default 10 s of wall time was
#: crossed by DESCRIBE and by a wrong query at load 10 on 2 cores, in .ci/min-versions' tests).
LOADED = float(GENEROUS[1])

EXAMPLES = sorted(p for p in (ROOT / "tests" / "data" / "db").glob("*.json") if p.name != "seed-42-4p-classic-game0.json")
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("q") / "q.duckdb"
    with MatchStore.open(path) as store:
        store.ingest(load([str(p) for p in EXAMPLES]))
    return path


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


#: (name, SQL with {out} for a path the attack would create) for every way out we know of.
ATTACKS = [
    ("read a file", "SELECT * FROM read_csv('/etc/passwd')"),
    ("read a file by name", "SELECT * FROM '/etc/passwd'"),
    ("read text", "SELECT content FROM read_text('/etc/hostname')"),
    ("list files", "SELECT * FROM glob('/etc/*')"),
    ("read parquet over the network", "SELECT * FROM read_parquet('https://example.com/x.parquet')"),
    ("write a file", "COPY (SELECT * FROM matches) TO '{out}/stolen.csv'"),
    ("write parquet", "COPY matches TO '{out}/stolen.parquet' (FORMAT parquet)"),
    ("export the database", "EXPORT DATABASE '{out}/dump'"),
    ("attach a new database", "ATTACH '{out}/other.duckdb' AS other"),
    ("attach in memory", "ATTACH ':memory:' AS scratch"),
    ("install an extension", "INSTALL httpfs"),
    ("load an extension", "LOAD httpfs"),
    ("turn access back on", "SET enable_external_access = true"),
    ("change a setting", "SET threads = 1"),
    ("reset the lock", "RESET lock_configuration"),
    ("pragma", "PRAGMA enable_profiling"),
    ("write to the database", "INSERT INTO matches SELECT * FROM matches"),
    ("drop a table", "DROP TABLE moves"),
    ("a temporary table", "CREATE TEMP TABLE t AS SELECT 1"),
    ("two statements", "SELECT 1; COPY matches TO '{out}/two.csv'"),
    ("a Python variable", "SELECT * FROM secret_frame"),
    ("checkpoint", "CHECKPOINT"),
]


@pytest.mark.parametrize(("name", "sql"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_every_attack_fails_in_one_line_and_creates_nothing(db: Path, tmp_path: Path, name: str, sql: str) -> None:
    secret_frame = pa.table({"password": ["hunter2"]})  # noqa: F841 - what a replacement scan would find
    out = tmp_path / "out"
    out.mkdir()
    before = files_under(tmp_path) | files_under(db.parent)
    result = runner.invoke(app, ["query", *GENEROUS, sql.format(out=out), "--db", str(db)])
    assert result.exit_code == 2, (name, result.output)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    assert files_under(tmp_path) | files_under(db.parent) == before


#: Refused by the one-SELECT rule alone: harmless to the sandbox (memory only; a no-op on a read-only file).
FILTER_ONLY = ("two statements", "a temporary table", "checkpoint")


@pytest.mark.parametrize(("name", "sql"), [a for a in ATTACKS if a[0] not in FILTER_ONLY])
def test_the_sandbox_itself_refuses_them_without_the_statement_filter(db: Path, tmp_path: Path, name: str, sql: str) -> None:
    """Beyond the one-SELECT rule of ``run_query``, DuckDB's own settings refuse each attack."""
    secret_frame = pa.table({"password": ["hunter2"]})  # noqa: F841
    out = tmp_path / "out"
    out.mkdir()
    con = sandbox_connect(db)
    try:
        with pytest.raises(duckdb.Error):
            con.execute(sql.format(out=out)).fetchall()
    finally:
        con.close()
    assert not any(out.iterdir())


def test_the_python_variable_would_be_found_without_the_sandbox(db: Path) -> None:
    """The replacement-scan attack is real: an ordinary connection reads a DataFrame-like variable by name."""
    secret_frame = pa.table({"password": ["hunter2"]})  # noqa: F841
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT * FROM secret_frame").fetchall() == [("hunter2",)]
    finally:
        con.close()


def test_the_sandbox_settings_are_in_force(db: Path) -> None:
    result = run_query(
        db,
        "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', 'lock_configuration', "
        "'autoload_known_extensions', 'autoinstall_known_extensions', 'python_enable_replacements', 'access_mode') "
        "ORDER BY name",
    )
    assert dict(result.rows) == {
        "access_mode": "read_only",
        "autoinstall_known_extensions": "false",
        "autoload_known_extensions": "false",
        "enable_external_access": "false",
        "lock_configuration": "true",
        "python_enable_replacements": "false",
    }


def test_a_long_query_stops_at_the_timeout(db: Path) -> None:
    result = runner.invoke(app, ["query", "SELECT sum(range * 2) FROM range(100000000000)", "--timeout", "0.5", "--db", str(db)])
    assert result.exit_code == 2
    assert result.output.strip() == "Error: the query ran past the 0.5 s timeout and was stopped (the time bound, --timeout)"


def test_a_huge_result_is_cut_at_the_limit_with_a_notice(db: Path) -> None:
    result = runner.invoke(app, ["query", *GENEROUS, "SELECT range AS n FROM range(1000000000)", "--limit", "5", "--format", "csv", "--db", str(db)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["n", "0", "1", "2", "3", "4"]
    assert "Only the first 5 rows shown (the row bound, --limit); raise --limit (at most 100,000) to see more." in result.stderr


def test_query_formats(db: Path) -> None:
    sql = "SELECT match_id, date, players, n_players FROM matches ORDER BY match_id"
    as_json = runner.invoke(app, ["query", *GENEROUS, sql, "--format", "json", "--db", str(db)])
    assert as_json.exit_code == 0
    rows = json.loads(as_json.stdout)
    assert rows[0] == {"match_id": "example-anniversary-golden", "date": None, "players": ["Aiko", "Boris", "Chloe", "Dae"], "n_players": 4}
    assert rows[1]["date"] == "2026-11-28" and list(rows[1]) == ["match_id", "date", "players", "n_players"]
    as_csv = runner.invoke(app, ["query", *GENEROUS, sql, "--format", "csv", "--db", str(db)])
    assert as_csv.stdout.splitlines()[2] == 'example-recorded-3p,2026-11-28,"[""Aiko"", ""Boris"", ""Chloe""]",3'
    table = runner.invoke(app, ["query", *GENEROUS, sql, "--db", str(db)])
    assert table.exit_code == 0 and "example-seeded-4p" in table.stdout and "NULL" in table.stdout


def test_describe_summarize_and_explain_are_allowed(db: Path) -> None:
    assert any(r[0] == "verdict" for r in run_query(db, "DESCRIBE game_players", timeout=LOADED).rows)
    assert run_query(db, "SUMMARIZE matches", timeout=LOADED).rows
    assert run_query(db, "EXPLAIN SELECT count(*) FROM moves", timeout=LOADED).rows


def test_a_wrong_query_is_one_line(db: Path) -> None:
    with pytest.raises(QueryError, match="no_such_table"):
        run_query(db, "SELECT * FROM no_such_table", timeout=LOADED)
    result = runner.invoke(app, ["query", *GENEROUS, "SELEC 1", "--db", str(db)])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "syntax error" in result.output


READ_ONLY = "only read-only queries (SELECT, WITH, PIVOT, DESCRIBE, EXPLAIN ...) are allowed here, not {}; the database is read-only"
#: (SQL, the one line it is refused with): each statement named as it was written (issue 19).
REFUSALS = [
    ("INSTALL httpfs", "INSTALL is not allowed here: the sandbox installs and loads no extensions"),
    ("force install httpfs", "INSTALL is not allowed here: the sandbox installs and loads no extensions"),
    ("LOAD httpfs", "LOAD is not allowed here: the sandbox installs and loads no extensions"),
    ("CHECKPOINT", "CHECKPOINT is not allowed here: it writes the database, which is read-only to a query"),
    ("/* x */ -- y\n FORCE CHECKPOINT", "CHECKPOINT is not allowed here: it writes the database, which is read-only to a query"),
    ("CALL pragma_version()", "CALL is not allowed here; use the table function in a SELECT, e.g. SELECT * FROM duckdb_tables()"),
    ("ANALYZE", READ_ONLY.format("ANALYZE")),
    ("RESET threads", READ_ONLY.format("RESET")),
    ("IMPORT DATABASE 'x'", READ_ONLY.format("IMPORT DATABASE")),
    ("UPDATE EXTENSIONS", READ_ONLY.format("UPDATE")),
]


@pytest.mark.parametrize(("sql", "line"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_refused_statement_is_named_as_written(db: Path, sql: str, line: str) -> None:
    """INSTALL was refused as "not LOAD", CHECKPOINT as "CALL is not allowed" (DuckDB's statement types)."""
    result = runner.invoke(app, ["query", *GENEROUS, sql, "--db", str(db)])
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: {line}"


@pytest.mark.parametrize("value", ["1000000000", "inf", "-inf", "nan", "0", "-1", "0.01", "3601"])
def test_a_timeout_out_of_range_is_a_usage_error(db: Path, value: str) -> None:
    """``--timeout 1000000000`` and ``--timeout inf`` exited 70 (a bug) instead of saying the range."""
    result = runner.invoke(app, ["query", "SELECT 1", "--timeout", value, "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: --timeout must be from 0.1 to 3,600 seconds, not ")
    with pytest.raises(QueryError, match="--timeout must be from 0.1 to 3,600 seconds"):
        run_query(db, "SELECT 1", timeout=float(value))


def test_the_wall_bound_kills_a_child_that_does_not_answer(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeout is wall-clock time from the child's start: a child that never answers (stuck, or starved of CPU)
    is killed at the bound; before, it had 10 s of grace beyond it (24 s for the default 10 s under load)."""
    monkeypatch.setattr(query_module, "SANDBOX_COMMAND", [sys.executable, "-c", "import time; time.sleep(60)"])
    start = time.monotonic()
    with pytest.raises(QueryError, match=r"ran past the 1 s timeout and was stopped"):
        run_query(db, "SELECT 1", timeout=1.0)
    assert time.monotonic() - start < 8  # killed near the bound: the old grace made it 11 s, the child sleeps 60 s


def test_a_long_query_is_stopped_at_the_wall_bound(db: Path) -> None:
    start = time.monotonic()
    with pytest.raises(QueryError, match=r"ran past the 1.5 s timeout"):
        run_query(db, "SELECT sum(range * 2) FROM range(100000000000)", timeout=1.5)
    assert time.monotonic() - start < 30  # stopped near the bound, generous at load 10: the sum takes minutes


def test_the_query_command_itself_loads_neither_duckdb_nor_pyarrow(db: Path, tmp_path: Path) -> None:
    """Only the child runs DuckDB: the command's own start (about half a second of duckdb and pyarrow
    before) is not spent twice, which under load had the default 10 s timeout take 24 s of wall time."""
    report = tmp_path / "modules.json"
    harness = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: json.dump(sorted(m for m in ('duckdb', 'pyarrow') if m in sys.modules),"
        " open(sys.argv[1], 'w')))\n"
        "from coloretto_log.cli import main\n"
        "main(sys.argv[2:])\n"
    )
    done = subprocess.run([sys.executable, "-c", harness, str(report), "query", *GENEROUS, "SELECT count(*) AS n FROM matches",
                           "--db", str(db), "--json"], capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"n": 3}]
    assert json.loads(report.read_text(encoding="utf-8")) == []
