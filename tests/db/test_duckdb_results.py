"""DuckDB used as its API asks: no result left open on a connection, on every path of every database command.

DuckDB 2 refuses some work on a connection (registering an Arrow table)
while a result of ``execute`` on it is unfinished; a lookup read with
``fetchone`` once stopped an ingest of a changed match and a new one, which
then stored neither. These tests run each database command's paths
against the installed DuckDB, with a probe at every close that fails when a
result was left open.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.db.store import MatchStore

from ..conftest import ROOT, SAMPLES

DATA = ROOT / "tests" / "data" / "db"
runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80


@pytest.fixture
def probed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every MatchStore closed during the test is first asked to register a table: refused if a result is open."""
    probes: list[str] = []
    close = MatchStore.close

    def probing_close(self: MatchStore) -> None:
        try:
            self.con.register("_probe_results", pa.table({"x": [1]}))
            self.con.unregister("_probe_results")
        except duckdb.Error as e:  # pragma: no cover - what the test is there to catch
            pytest.fail(f"{self.path}: a result was left open on the connection: {e}")
        probes.append(str(self.path))
        close(self)

    monkeypatch.setattr(MatchStore, "close", probing_close)
    yield probes


def run(*args: str, code: int = 0) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.output, result.stderr)
    assert "Traceback" not in result.output and "Resource In Use" not in result.stderr
    return result


def a_match(tmp_path: Path, name: str, source: Path, **changes: Any) -> Path:
    data = json.loads(source.read_text(encoding="utf-8"))
    data.update(changes)
    out = tmp_path / name
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def stored(db: Path) -> dict[str, str]:
    with MatchStore.open(db, read_only=True) as store:
        return dict(store.execute("SELECT match_id, coalesce(date::VARCHAR, '') FROM matches").fetchall())


def test_the_issues_case_a_changed_match_and_a_new_one_in_one_run(tmp_path: Path, probed: list[str]) -> None:
    db = str(tmp_path / "club.duckdb")
    x2 = a_match(tmp_path, "x2.json", SAMPLES / "classic-3p-seeded-match.json")
    run("ingest", str(x2), "--db", db)
    x2 = a_match(tmp_path, "x2.json", SAMPLES / "classic-3p-seeded-match.json", date="2026-11-28")
    new = a_match(tmp_path, "new.json", SAMPLES / "classic-4p-recorded-match-with-claims.json")
    result = run("ingest", str(x2), str(new), "--db", db)
    assert re.search(r"x2\.json: match seeded-3p is stored with other content .*left alone \(use --replace", result.stderr)
    assert "stored 1 match" in result.stdout and "1 changed" in result.stdout
    new_id = json.loads(new.read_text(encoding="utf-8"))["id"]
    assert set(stored(Path(db))) == {"seeded-3p", new_id}
    assert stored(Path(db))["seeded-3p"] == "2026-11-29"  # the stored one, left alone
    assert probed


def test_an_ingest_mixing_left_alone_changed_new_and_invalid_stores_every_new_one(tmp_path: Path, probed: list[str]) -> None:
    db = str(tmp_path / "club.duckdb")
    same = a_match(tmp_path, "same.json", DATA / "recorded-3p-game.json")
    changed = a_match(tmp_path, "changed.json", SAMPLES / "classic-3p-seeded-match.json")
    run("ingest", str(same), str(changed), "--db", db)
    changed = a_match(tmp_path, "changed.json", SAMPLES / "classic-3p-seeded-match.json", date="2026-01-02")
    new = [
        a_match(tmp_path, f"new{i}.json", SAMPLES / name, id=f"new-{i}")
        for i, name in enumerate(("classic-4p-recorded-match-with-claims.json", "anniversary-4p-golden-joker.json",
                                  "classic-2p-recorded-game.json"))
    ]
    invalid = ROOT / "tests" / "data" / "invalid" / "must-take.json"
    # the order mixes them: each new match comes after a left-alone, a changed or an invalid one
    paths = [str(changed), str(new[0]), str(same), str(new[1]), str(invalid), str(changed), str(new[2])]
    result = run("ingest", *paths, "--db", db, "--json", code=1)
    report = json.loads(result.stdout)
    summary = report["summary"]
    assert (summary["stored"], summary["skipped"], summary["changed"], summary["invalid"]) == (3, 1, 2, 1)
    assert {"new-0", "new-1", "new-2"} <= set(stored(Path(db)))
    assert stored(Path(db))["seeded-3p"] == "2026-11-29"  # the changed one left alone
    assert [c["match_id"] for c in report["changed"]] == ["seeded-3p", "seeded-3p"]
    assert len(report["invalid"]) == 1
    text = run("ingest", *paths, "--db", db, code=1)  # again, in words: nothing new, the others reported
    assert text.stderr.count("left alone (use --replace") == 2
    assert re.search(r"stored 0 match.*skipped 4 already stored, 2 changed.*1 invalid", text.stdout)


def test_every_database_command_path_leaves_no_result_open(tmp_path: Path, probed: list[str]) -> None:
    """ingest (changed + new, replace, rebuild), analyze --db, ratings (new, fresh, behind), stats, query,
    export, site: each succeeds on the installed DuckDB, and every store closes with no open result."""
    logs = tmp_path / "logs"
    logs.mkdir()
    db = str(tmp_path / "club.duckdb")
    first = a_match(logs, "a.json", SAMPLES / "classic-3p-seeded-match.json")
    a_match(logs, "b.json", SAMPLES / "classic-2p-recorded-game.json")
    run("ingest", str(logs), "--db", db)
    run("ratings", "--db", db)  # computed and stored
    run("ratings", "--db", db, "--json")  # fresh: read back
    a_match(logs, "a.json", SAMPLES / "classic-3p-seeded-match.json", date="2026-11-28")
    a_match(logs, "c.json", SAMPLES / "classic-4p-recorded-match-with-claims.json")
    out = run("ingest", str(logs), "--db", db)
    assert "1 changed" in out.stdout and "stored 1 match" in out.stdout
    run("ratings", "--db", db)  # behind: the new match rated on top
    run("ingest", str(first), "--db", db, "--replace")
    run("ratings", "--db", db, "--per", "match", "--history", "Aiko")  # outdated: recomputed
    run("analyze", str(logs / "b.json"), "--samples", "4", "--max-se", "0", "--db", db, "--json")
    run("stats", "--db", db)
    run("stats", "--db", db, "--json")
    run("query", "SELECT count(*) FROM matches", "--db", db)
    run("export", "--db", db, "--parquet", str(tmp_path / "parquet"), "--bgstats", str(tmp_path / "plays.json"))
    run("site", "--db", db, "--out", str(tmp_path / "site"))
    run("site", "--db", db, "--out", str(tmp_path / "site"))  # again: nothing changed
    run("ingest", "--rebuild", str(logs), "--db", db)
    run("site", "--db", db, "--out", str(tmp_path / "site"))
    assert len(stored(Path(db))) == 3
    assert len(probed) >= 15


def test_no_result_is_read_half_in_the_package() -> None:
    """A query's result is read whole (``fetchall``, ``results.first_row``) or streamed on its own cursor
    (``results.streamed``); ``fetchone`` and ``fetchmany`` appear nowhere else (the sandbox's query
    runs alone on a connection that is closed after it)."""
    allowed = {"db/results.py", "db/queries/sandbox.py"}
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "coloretto_log").rglob("*.py"))
        if str(path.relative_to(ROOT / "coloretto_log")) not in allowed
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.fetch(one|many)\(", line)
    ]
    assert found == []
