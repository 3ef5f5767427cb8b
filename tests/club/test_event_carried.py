"""The log's event is carried end to end: record --event and serve --event write it, ingest stores it, export keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.db.store import MatchStore

from ..builders.record import DATE, match_script

runner = CliRunner()
THREE = ("Aiko", "Boris", "Chloe")


def recorded(path: Path, *event_args: str) -> dict[str, object]:
    script = match_script(7, players=THREE, games=1)
    result = runner.invoke(
        app,
        ["record", str(path), "--players", ",".join(THREE), "--date", DATE, "--games", "1", *event_args],
        input="".join(f"{line}\n" for line in script.lines),
    )
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_record_writes_the_event_and_ingest_and_export_keep_it(tmp_path: Path) -> None:
    log = tmp_path / "t2.json"
    data = recorded(log, "--event", "Autumn open", "--round", "1", "--at-table", "2")
    assert data["event"] == {"name": "Autumn open", "round": 1, "table": 2}
    plain = recorded(tmp_path / "home.json")
    assert "event" not in plain
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["ingest", "--db", str(db), str(log), str(tmp_path / "home.json")]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT event, event_round, event_table FROM matches ORDER BY event NULLS LAST").fetchall()
    assert rows == [("Autumn open", 1, 2), (None, None, None)]
    out = tmp_path / "parquet"
    result = runner.invoke(app, ["export", "--db", str(db), "--parquet", str(out)])
    assert result.exit_code == 0, result.output
    events = [x for f in sorted((out / "matches").rglob("*.parquet")) for x in pq.read_table(f).column("event").to_pylist()]
    assert sorted(events, key=str) == ["Autumn open", None]


def test_resuming_with_another_event_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "t1.json"
    recorded(log, "--event", "Autumn open", "--round", "1", "--at-table", "1")
    result = runner.invoke(app, ["record", str(log), "--event", "Spring open"], input="")
    assert result.exit_code == 2 and "--event" in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--round", "1"], "need --event"),
        (["--event", ""], "1 to 100 characters"),
        (["--event", "x" * 101], "1 to 100 characters"),
        (["--event", "x", "--at-table", "0"], "1 to 1000"),
        (["--event", "x", "--round", "1001"], "1 to 1000"),
    ],
)
@pytest.mark.parametrize("command", ["record", "serve"])
def test_bad_event_options_are_usage_errors_and_write_nothing(tmp_path: Path, command: str, args: list[str], says: str) -> None:
    log = tmp_path / "m.json"
    result = runner.invoke(app, [command, str(log), "--players", ",".join(THREE), *args], input="")
    assert result.exit_code == 2 and says in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_database_made_before_the_event_columns_gains_them(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    MatchStore.open(db).close()
    with duckdb.connect(str(db)) as con:  # as the schema was before the event columns
        for column in ("event", "event_round", "event_table"):
            con.execute(f"ALTER TABLE matches DROP COLUMN {column}")
    with MatchStore.open(db, read_only=True) as store:  # a reader opens it as it is
        assert store.scalar("SELECT count(*) FROM matches") == 0
    log = tmp_path / "t.json"
    recorded(log, "--event", "Club night")
    assert runner.invoke(app, ["ingest", "--db", str(db), str(log)]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT event FROM matches").fetchall() == [("Club night",)]


def test_serve_writes_the_event_and_its_page_is_the_one_the_printed_card_shows(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from ..builders.server import Server

    page = tmp_path / "tonight.html"
    made = runner.invoke(app, ["tables", "Aiko,Boris,Chloe", "--db", str(tmp_path / "none.duckdb"), "--event", "Friday",
                               "--html", str(page), "--host", "127.0.0.1", "--seed", "1"])  # fmt: skip
    assert made.exit_code == 0, made.output
    text = page.read_text(encoding="utf-8")
    log = tmp_path / "friday-t1.json"
    with Server(log, "--players", "Aiko,Boris,Chloe", "--event", "Friday", "--at-table", "1") as server:
        assert f"?t={server.token}" in text  # the printed QR code opens this page
        server.stop()
    assert json.loads(log.read_text(encoding="utf-8"))["event"] == {"name": "Friday", "table": 1}
