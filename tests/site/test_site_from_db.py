"""``site`` stands on the database alone: the logs ingest keeps are what the replays are drawn from.

A season ingested in one folder and built there gives, byte for byte, the
folder built from another working folder once the logs are gone; a database
made before the logs were kept (schema version 1) says in one line how to
store them, and one ingest of the same files does.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest

from coloretto_log.db.store import MatchStore

from ..builders.season import cli, season, tree, two_matches
from ..conftest import SAMPLES


def test_a_season_rebuilt_from_another_folder_after_the_logs_moved_is_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, other = tmp_path / "home", tmp_path / "elsewhere"
    (home / "logs").mkdir(parents=True)
    other.mkdir()
    season(home / "logs", 0, 6)
    shutil.copy(SAMPLES / "classic-2p-recorded-game.json", home / "logs")
    db = tmp_path / "club.duckdb"
    monkeypatch.chdir(home)
    r = cli("ingest", "--db", str(db), "logs")  # stored as the relative names logs/...
    assert r.exit_code == 0, r.output
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "first"), "--lang", "en,ja")
    assert r.exit_code == 0 and "without a replay" not in r.stderr, r.output
    first = tree(tmp_path / "first")
    assert sum(name.startswith("replay/") for name in first) == 7

    shutil.move(home / "logs", tmp_path / "tidied")  # the laptop tidied: the logs are gone from where they were
    monkeypatch.chdir(other)
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "second"), "--lang", "en,ja")
    assert r.exit_code == 0 and "without a replay" not in r.stderr, r.output
    assert tree(tmp_path / "second") == first
    # a rebuild of the first folder that asks for every replay again (another language) draws them all
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "first"), "--lang", "en")
    assert r.exit_code == 0 and "without a replay" not in r.stderr, r.output
    assert sum(name.startswith("replay/") for name in tree(tmp_path / "first")) == 7


def test_replay_db_shows_a_stored_match_without_its_file(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    shutil.copy(SAMPLES / "classic-2p-recorded-game.json", log)
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(log)).exit_code == 0
    from_file = cli("replay", str(log), "--moves")
    log.unlink()
    with MatchStore.open(db, read_only=True) as store:
        match_id = store.scalar("SELECT match_id FROM matches")
    from_db = cli("replay", match_id, "--db", str(db), "--moves")
    assert from_db.exit_code == 0, from_db.output
    assert from_db.stdout == from_file.stdout
    r = cli("replay", "no-such-match", "--db", str(db))
    assert r.exit_code == 2 and "no-such-match" in r.stderr and "Traceback" not in r.output


def _make_version_1(db: Path) -> None:
    """What a database made before the logs were kept looks like: no match_logs table, schema version 1."""
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE match_logs")
        con.execute("UPDATE coloretto_meta SET value = '1' WHERE key = 'schema_version'")
    finally:
        con.close()


def test_a_database_from_before_the_logs_were_kept_is_told_how_and_refreshed(tmp_path: Path) -> None:
    db, logs = two_matches(tmp_path)
    _make_version_1(db)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert r.exit_code == 0, r.output
    assert "2 matches without a replay" in r.stderr and "coloretto-log ingest" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "site" / "replay").exists()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # site only reads, an old database too

    r = cli("ingest", "--db", str(db), str(logs))  # the one line's advice: the files once more
    assert r.exit_code == 0 and "replaced 2" in r.stdout, r.output
    with MatchStore.open(db, read_only=True) as store:
        assert store.scalar("SELECT value FROM coloretto_meta WHERE key = 'schema_version'") == "2"
        assert store.counts()["match_logs"] == 2 and store.counts()["matches"] == 2
        assert store.orphans() == {name: 0 for name in store.orphans()}
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert r.exit_code == 0 and "without a replay" not in r.stderr, r.output
    assert len(list((tmp_path / "site" / "replay").iterdir())) == 2
    again = cli("ingest", "--db", str(db), str(logs))
    assert again.exit_code == 0 and "replaced 0, skipped 2 already stored" in again.stdout
