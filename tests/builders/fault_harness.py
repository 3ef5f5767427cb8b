"""The harness of the fault tests (``tests/faults/``): a writer's command line and start, the state of its work
folder (files' bytes, a database's rows), and the checks after a fault: exit 0 with the clean run's result, or
exit 3 with one line naming the file and what to do; every file as it was or replaced whole; a database's
tables as they were or as the clean run left them, no orphan row; no temporary file left.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.replay import check_match

from ..conftest import SAMPLES
from .faults import CODES, Faults, injected

runner = CliRunner()
ADVICE = re.compile(r"free some space|check (it|the)|permissions|write (it )?elsewhere|run the command again")
TEMP = re.compile(r"\.tmp-|\.old-|\.rebuild-")


@dataclass
class Writer:
    name: str
    args: Callable[[Path], list[str]]  # the command line, in the work folder
    setup: Callable[[Path], None] = lambda w: None
    stdin: str | None = None
    rerun_stdin: Callable[[Path], str | None] | None = None  # what a rerun types (a recorder resumes)
    saves_as_it_goes: bool = False  # a recorder: the log on disk is any version it saved, each whole
    points: list[tuple[str, str]] = field(default_factory=list)


def logs(w: Path) -> None:
    (w / "in").mkdir()
    for name in ("classic-2p-recorded-game.json", "classic-3p-seeded-match.json"):
        shutil.copy(SAMPLES / name, w / "in" / name)


def database(w: Path) -> None:
    logs(w)
    result = runner.invoke(app, ["ingest", str(w / "in"), "--db", str(w / "club.duckdb")])
    assert result.exit_code == 0, result.output


def state(w: Path) -> dict[str, Any]:
    """Every file under ``w``: its bytes, or a database's rows (DuckDB may rewrite its file for the same rows)."""
    out: dict[str, Any] = {}
    for path in sorted(w.rglob("*")):
        rel = str(path.relative_to(w))
        if path.is_dir():
            out[rel + "/"] = "folder"
        elif path.suffix == ".duckdb":
            out[rel] = rows(path)
        elif not path.name.endswith(".wal"):
            out[rel] = path.read_bytes()
    return out


def rows(db: Path) -> Any:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall()]
        return {t: sorted(map(repr, con.execute(f'SELECT {_kept(con, t)} FROM "{t}"').fetchall())) for t in tables}
    finally:
        con.close()


def _kept(con: Any, table: str) -> str:
    """The columns compared: all but those that hold the time of the run (``analysed_at``)."""
    cols = [r[0] for r in con.execute(f"SELECT column_name FROM duckdb_columns() WHERE table_name = '{table}'").fetchall()]
    return ", ".join(f'"{c}"' for c in cols if c not in ("analysed_at", "ingested_at", "rated_at"))


def fresh(w: Path, writer: Writer) -> dict[str, Any]:
    if w.exists():
        shutil.rmtree(w)
    w.mkdir()
    writer.setup(w)
    return state(w)


def start_from(w: Path, start: Path) -> None:
    """The work folder as the writer's setup left it: a copy of ``start`` (set up once, not once a point)."""
    if w.exists():
        shutil.rmtree(w)
    shutil.copytree(start, w, symlinks=True)


def run(writer: Writer, w: Path) -> Any:
    return runner.invoke(app, writer.args(w), input=writer.stdin)


def consistent(db: Path) -> bool:
    from coloretto_log.db.store import MatchStore

    with MatchStore.open(db, read_only=True) as store:
        return set(store.orphans().values()) <= {0}


def check_after_fault(writer: Writer, k: int, result: Any, before: dict[str, Any], after: dict[str, Any],
                      clean: dict[str, Any], faults: Faults, w: Path) -> None:  # fmt: skip
    where = f"{writer.name}: point {k} of {len(writer.points)} ({faults.failed}, {os.strerror(faults.code)})"
    assert "Traceback" not in result.output, where + result.output
    if result.exit_code == 0:
        assert after == clean, f"{where}: passed over, but the result differs"
        return
    assert result.exit_code == 3, f"{where}: exit {result.exit_code}: {result.output}"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error: ")]
    assert len(errors) == 1 and errors == lines[-1:], f"{where}: {result.stderr}"
    assert ADVICE.search(errors[0]), f"{where}: says not what to do: {errors[0]}"
    names = {Path(a).name for a in writer.args(Path("/w")) if a.startswith("/w/")}
    assert any(n in errors[0] for n in names), f"{where}: names no file: {errors[0]}"
    for name, value in after.items():
        assert not TEMP.search(name), f"{where}: left {name}"
        if isinstance(value, dict):  # a database: each table as it was or as the clean run left it, no orphan row
            for table, table_rows in value.items():
                assert table_rows in ((before.get(name) or {}).get(table), clean[name].get(table)), f"{where}: {table}"
            assert consistent(w / name), f"{where}: {name} holds rows of a match not stored whole"
        elif writer.saves_as_it_goes and isinstance(value, bytes):
            assert check_match(json.loads(value)).valid, f"{where}: {name} is not a whole saved version"
        elif name in before:
            assert value in (before[name], clean.get(name)), f"{where}: {name} changed, not replaced whole"
        else:
            assert value == clean.get(name), f"{where}: {name} is new and not the clean run's"


def every_point_fails_in_turn(writer: Writer, w: Path, start: Path, before: dict[str, Any], clean: dict[str, Any]) -> None:
    """Run ``writer`` from ``start`` once per fault point (``writer.points``, counted by a clean run), that point
    failing (ENOSPC, EIO, EACCES in turn); :func:`check_after_fault` after each, then the rerun without the fault
    must give the clean run's state."""
    for k in range(1, len(writer.points) + 1):
        start_from(w, start)
        with injected(Faults(fail_at=k, code=CODES[k % len(CODES)])) as faults:
            result = run(writer, w)
        assert faults.failed is not None, f"{writer.name}: point {k} not reached (the run took another way)"
        check_after_fault(writer, k, result, before, state(w), clean, faults, w)
        if result.exit_code == 0:
            continue  # passed over (a folder's fsync): the result is the clean run's already
        again = runner.invoke(app, writer.args(w), input=writer.rerun_stdin(w) if writer.rerun_stdin else writer.stdin)
        assert again.exit_code == 0, f"{writer.name}: point {k}: the rerun: {again.output}"
        assert state(w) == clean, f"{writer.name}: point {k}: the rerun differs from a run that never failed"
