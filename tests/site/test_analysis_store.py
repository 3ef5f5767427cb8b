"""``analyze --db``: each analysed match's JSON kept in the database, by match id and content, for ``site``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.db.site.analyses import has_analyses, store_analysis, stored_analyses
from coloretto_log.db.store import MatchStore
from coloretto_log.log.load import LoadedMatch, load

from ..conftest import SAMPLES

runner = CliRunner()
GAME = SAMPLES / "classic-2p-recorded-game.json"


def identity(path: Path) -> tuple[str, str]:
    (item,) = load([str(path)])
    assert isinstance(item, LoadedMatch)
    assert item.report.match_id is not None and item.report.content_hash is not None
    return item.report.match_id, item.report.content_hash


def test_analyze_db_keeps_what_analyze_json_prints(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["ingest", "--db", str(db), str(GAME)]).exit_code == 0
    with MatchStore.open(db, read_only=True) as store:
        assert not has_analyses(store) and stored_analyses(store) == {}
    # --max-se 0: exactly 2 samples a decision (3 s of CPU, not 13); what is kept is what is printed all the same
    args = ["analyze", str(GAME), "--samples", "2", "--max-se", "0", "--seed", "7"]
    printed = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    r = runner.invoke(app, [*args, "--db", str(db)])
    assert r.exit_code == 0, r.output
    with MatchStore.open(db, read_only=True) as store:
        kept = stored_analyses(store)
    mid, digest = identity(GAME)
    assert list(kept) == [mid] and kept[mid][0] == digest
    data = kept[mid][1]
    settings = data.pop("settings")
    assert data == printed["matches"][0]  # the match's object, as --json prints it
    assert settings == {k: v for k, v in printed.items() if k != "matches"}


def test_a_second_analysis_replaces_the_first(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["ingest", "--db", str(db), str(GAME)]).exit_code == 0
    mid, digest = identity(GAME)
    with MatchStore.open(db) as store:
        assert store_analysis(store, mid, digest, {"n": 1}) is True
        assert store_analysis(store, mid, digest, {"n": 2}) is True
        assert stored_analyses(store) == {mid: (digest, {"n": 2})}
        assert store.scalar("SELECT count(*) FROM analyses") == 1


def test_an_analysis_of_other_content_is_kept_but_not_used(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["ingest", "--db", str(db), str(GAME)]).exit_code == 0
    mid, _ = identity(GAME)
    with MatchStore.open(db) as store:
        assert store_analysis(store, mid, "0" * 64, {"n": 1}) is False  # the log was edited since
        assert stored_analyses(store) == {}
        assert store.scalar("SELECT count(*) FROM analyses") == 1


def test_analyze_db_of_a_match_not_stored_says_so(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    other = tmp_path / "other.json"
    shutil.copy(SAMPLES / "classic-3p-seeded-match.json", other)
    assert runner.invoke(app, ["ingest", "--db", str(db), str(other)]).exit_code == 0
    r = runner.invoke(app, ["analyze", str(GAME), "--samples", "2", "--max-se", "0", "--game", "1", "--db", str(db)])
    assert r.exit_code == 0 and "does not hold this match" in r.stderr
    with MatchStore.open(db, read_only=True) as store:
        assert store.scalar("SELECT count(*) FROM analyses") == 1 and stored_analyses(store) == {}


def test_analyze_db_refuses_a_missing_database(tmp_path: Path) -> None:
    r = runner.invoke(app, ["analyze", str(GAME), "--samples", "2", "--max-se", "0", "--db", str(tmp_path / "none.duckdb")])
    assert r.exit_code == 3 and "no such database" in r.stderr and not (tmp_path / "none.duckdb").exists()
