"""The match database: ingest (against ``score``), idempotence, changed matches, atomic batches, errors, export."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from coloretto_log.bots.simulate import make_plan, match_log, play_match
from coloretto_log.cli import app
from coloretto_log.core.cards import ALL_COLOURS, GOLDEN_JOKER, JOKER, KIND_INDEX, PLUS2
from coloretto_log.db.errors import DatabaseError
from coloretto_log.db.ingest.batches import IngestEvent
from coloretto_log.db.ingest.files import rebuild
from coloretto_log.db.ingest.rows import match_identity
from coloretto_log.db.schema import TABLES
from coloretto_log.db.store import MatchStore
from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.log.reader import content_hash
from coloretto_log.log.writer import dumps_line
from coloretto_log.report.scorecard import MatchScore, score_match

from ..conftest import GENEROUS, ROOT

DATA = ROOT / "tests" / "data" / "db"
EXAMPLES = sorted(p for p in DATA.glob("*.json") if p.name != "seed-42-4p-classic-game0.json")
runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80


# --------------------------------------------------------------------------- simulated matches


def simulated(seed: int, count: int, *, players: int, games: int, edition: str = "classic",
              table: str = "standard", recorded: bool = False, start: int = 0) -> Iterator[dict[str, Any]]:
    """``count`` matches between random bots; every third gets claims (some right, some wrong) and a date."""
    plan = make_plan(players=players, bots=["random"], games=games, edition=edition, table=table,
                     seed=seed, recorded=recorded)
    for i in range(start, start + count):
        played = play_match(plan, i)
        log = match_log(plan, played)
        if i % 3 == 0:
            log["date"] = f"2026-{1 + (i // 3) % 12:02d}-{1 + i % 28:02d}"
            for g, game in zip(played.games, log["games"]):
                name = plan.players[i % players]
                score = g.scores[i % players] + (i % 2)  # odd matches: one point over the optimum
                game["claims"] = {name: {"score": score}}
        yield log


def write_jsonl(path: Path, matches: Iterator[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps_line(m) + "\n" for m in matches), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def sim_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 2,000 simulated matches across player counts, editions and tables, in four .jsonl files."""
    folder = tmp_path_factory.mktemp("sim")
    write_jsonl(folder / "a-4p-classic.jsonl", simulated(1, 300, players=4, games=4))
    write_jsonl(folder / "b-3p-anniversary-alt.jsonl", simulated(2, 500, players=3, games=1, edition="anniversary", table="alternative"))
    write_jsonl(folder / "c-2p-recorded.jsonl", simulated(3, 500, players=2, games=1, recorded=True))
    write_jsonl(folder / "d-5p-anniversary.jsonl", simulated(4, 700, players=5, games=1, edition="anniversary"))
    return folder


@pytest.fixture(scope="session")
def sim_db(sim_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulated matches ingested once (tests that only read use it)."""
    db = tmp_path_factory.mktemp("simdb") / "sim.duckdb"
    with MatchStore.open(db) as store:
        summary = store.ingest(load([str(sim_dir)]), batch_games=700)
    assert summary.stored == 2000 and summary.invalid == 0
    return db


def table_rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted: two databases with equal results hold the same data."""
    with MatchStore.open(db, read_only=True) as store:
        return {t: sorted(store.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}


# --------------------------------------------------------------------------- stored figures equal score's


_PLAYER_COLS = (
    ["seat", "player", "score", "rank", "win", "shared_win", "jokers", "golden_jokers", "plus2",
     "joker_colours", "positive", "verdict", "claimed_score", "plus2_points"]
    + [f'"{c}"' for c in ALL_COLOURS] + [f"points_{c}" for c in ALL_COLOURS]
)


class Stored:
    """Every row of a database, keyed for the comparison with ``score`` (one query per table)."""

    def __init__(self, store: MatchStore) -> None:
        self.matches = {
            r[0]: r[1:]
            for r in store.execute(
                "SELECT match_id, complete, games_played, games_complete, winners, n_players, edition FROM matches"
            ).fetchall()
        }
        self.standings: dict[str, list[tuple[Any, ...]]] = {}
        for r in store.execute("SELECT match_id, seat, player, total, rank FROM match_players ORDER BY match_id, seat").fetchall():
            self.standings.setdefault(r[0], []).append(r[1:])
        self.games = {
            (r[0], r[1]): r[2:]
            for r in store.execute("SELECT match_id, game, complete, winners, top_score, removed FROM games").fetchall()
        }
        self.players: dict[tuple[str, int], list[tuple[Any, ...]]] = {}
        cols = ", ".join(_PLAYER_COLS)
        for r in store.execute(f"SELECT match_id, game, {cols} FROM game_players ORDER BY match_id, game, seat").fetchall():
            self.players.setdefault((r[0], r[1]), []).append(r[2:])


def assert_stored_as_scored(stored: Stored, scored: MatchScore) -> None:
    """Every stored figure of one match equals what ``score`` computes for it."""
    mid = scored.match_id
    rules = scored.rules
    assert mid is not None and rules is not None
    complete, games_played, games_complete, winners, n_players, edition = stored.matches[mid]
    assert complete == scored.complete
    assert games_played == len(scored.games)
    assert games_complete == scored.games_counted
    assert n_players == len(scored.players) and edition == rules.edition.name
    assert winners == (list(scored.winners()) if scored.complete else None)
    assert stored.standings[mid] == [(s.seat, s.player, s.total, s.rank) for s in scored.standings]
    for game in scored.games:
        g_complete, g_winners, top, removed = stored.games[(mid, game.number)]
        assert g_complete == game.complete
        assert removed == list(game.removed)
        if game.complete:
            assert g_winners == list(game.winners())
            assert top == max(p.score for p in game.players)
        rows = stored.players[(mid, game.number)]
        assert len(rows) == len(game.players)
        shared = len(game.winners()) > 1
        for row, p in zip(rows, game.players):
            seat, player, score, rank, win, shared_win, jokers, golden, plus2, jc, pos, verdict, claimed, p2 = row[:14]
            held = row[14:22]
            points = row[22:30]
            assert (seat, player) == (p.seat, p.player)
            assert (jokers, golden, plus2) == (p.counts[KIND_INDEX[JOKER]], p.counts[KIND_INDEX[GOLDEN_JOKER]], p.counts[KIND_INDEX[PLUS2]])
            for c, n in zip(ALL_COLOURS, held):
                assert n == (p.counts[KIND_INDEX[c]] if c in game.colours else None)
            if not game.complete:
                assert score is None and rank is None and verdict is None
                continue
            assert (score, rank, win, shared_win) == (p.score, p.rank, p.rank == 1, p.rank == 1 and shared)
            assert jc == list(p.optimal.jokers) and pos == list(p.optimal.positive)
            assert p2 == p.optimal.plus2_points
            breakdown = {b.colour: b.points for b in p.optimal.breakdown}
            for c, pts in zip(ALL_COLOURS, points):
                assert pts == (breakdown.get(c, 0) if c in game.colours else None)
            assert verdict == (p.verdict.status if p.verdict is not None else "no-claim")
            assert claimed == (p.verdict.claim.score if p.verdict is not None and p.verdict.claim is not None else None)


def test_sample_logs_are_stored_as_score_scores_them(tmp_path: Path) -> None:
    db = tmp_path / "ex.duckdb"
    events: list[IngestEvent] = []
    with MatchStore.open(db) as store:
        summary = store.ingest(load([str(p) for p in EXAMPLES]), on_event=events.append)
        assert (summary.stored, summary.invalid, summary.batches) == (3, 0, 1)
        stored = Stored(store)
        for item in load([str(p) for p in EXAMPLES]):
            assert isinstance(item, LoadedMatch)
            assert_stored_as_scored(stored, score_match(item))
        counts = store.counts()
    assert counts == {"matches": 3, "games": 6, "game_players": 23, "match_players": 11, "moves": counts["moves"],
                      "match_logs": 3}
    assert [e.kind for e in events] == ["stored"] * 3
    # hand-checked from the example: Aiko claims 35 and the optimum agrees
    with MatchStore.open(db, read_only=True) as store:
        row = store.execute(
            "SELECT score, claimed_score, verdict FROM game_players WHERE match_id = 'example-recorded-3p' AND player = 'Aiko'"
        ).fetchone()
        assert row == (35, 35, "agrees")
        moves = store.execute(
            "SELECT count(*), count_if(action = 'take'), max(round) FROM moves WHERE match_id = 'example-recorded-3p'"
        ).fetchone()
        (rounds,), = store.execute("SELECT rounds FROM games WHERE match_id = 'example-recorded-3p'").fetchall()
        assert moves is not None and moves[1] == 3 * rounds and moves[2] == rounds


def test_simulated_matches_are_stored_as_score_scores_them(sim_dir: Path, sim_db: Path) -> None:
    checked = 0
    with MatchStore.open(sim_db, read_only=True) as store:
        stored = Stored(store)
        for item in load([str(sim_dir)]):
            assert isinstance(item, LoadedMatch)
            assert_stored_as_scored(stored, score_match(item))
            checked += 1
        assert checked == 2000
        # moves: every game's moves are stored in order; a round has one take per player
        bad = store.scalar(
            """SELECT count(*) FROM (
                 SELECT g.match_id, g.game, g.n_players, g.rounds, g.moves,
                        count(v.move) AS n, max(v.move) AS last, count_if(v.action = 'take') AS takes, max(v.round) AS r
                 FROM games g JOIN moves v USING (match_id, game) GROUP BY ALL)
               WHERE n <> moves OR last <> moves OR takes <> rounds * n_players OR r <> rounds"""
        )
        assert bad == 0
        assert store.orphans() == dict.fromkeys(store.orphans(), 0)
        # claims: a third of the matches claim, half of those one point too many
        wrong = store.scalar("SELECT count(*) FROM game_players WHERE verdict = 'over-claimed'")
        agree = store.scalar("SELECT count(*) FROM game_players WHERE verdict = 'agrees'")
        assert wrong > 100 and agree > 100


def test_match_identity_is_the_report_id_and_the_content_hash() -> None:
    for item in load([str(p) for p in EXAMPLES] + [str(DATA.parent.parent.parent / "sample_logs")]):
        if isinstance(item, LoadedMatch) and item.report.valid:
            mid, digest = match_identity(item)
            assert mid == item.report.match_id
            assert digest == content_hash(item.report.data)


# --------------------------------------------------------------------------- idempotence, changes


def test_ingest_twice_changes_nothing(sim_dir: Path, sim_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "twice.duckdb"
    shutil.copy(sim_db, db)
    before = table_rows(db)
    with MatchStore.open(db) as store:
        summary = store.ingest(load([str(sim_dir)]))
    assert (summary.stored, summary.skipped, summary.batches) == (0, 2000, 0)
    assert table_rows(db) == before


def test_a_changed_match_is_reported_not_duplicated_and_replaced_on_request(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    src = tmp_path / "club.json"
    original = json.loads((DATA / "recorded-3p-game.json").read_text(encoding="utf-8"))
    src.write_text(json.dumps(original), encoding="utf-8")
    with MatchStore.open(db) as store:
        assert store.ingest(load([str(src)])).stored == 1
    before = table_rows(db)
    changed = dict(original, date="2026-11-30")  # same id, other content
    src.write_text(json.dumps(changed), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(src), "--db", str(db)])
    assert result.exit_code == 0
    assert "example-recorded-3p is stored with other content" in result.stderr
    assert "use --replace" in result.stderr
    assert table_rows(db) == before
    result = runner.invoke(app, ["ingest", str(src), "--db", str(db), "--replace", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["replaced"] == 1 and report["tables"]["matches"] == 1
    with MatchStore.open(db, read_only=True) as store:
        assert store.execute("SELECT match_id, date::VARCHAR FROM matches").fetchall() == [("example-recorded-3p", "2026-11-30")]
        assert store.counts() == {t: len(rows) for t, rows in before.items()}
        assert store.orphans() == dict.fromkeys(store.orphans(), 0)


def test_the_same_id_twice_in_one_run(tmp_path: Path) -> None:
    a = json.loads((DATA / "recorded-3p-game.json").read_text(encoding="utf-8"))
    b = dict(a, notes="a second copy, edited")
    src = write_jsonl(tmp_path / "two.jsonl", iter([a, a, b]))
    with MatchStore.open(tmp_path / "d.duckdb") as store:
        events: list[IngestEvent] = []
        s = store.ingest(load([str(src)]), on_event=events.append)
        assert (s.stored, s.skipped, s.changed) == (1, 1, 1)
        assert [e.kind for e in events] == ["skipped", "changed", "stored"]  # stored is reported when written
        s = store.ingest(load([str(src)]), replace=True)
        assert (s.skipped, s.replaced) == (2, 1)  # the edited copy replaces the stored one
        assert store.scalar("SELECT content_hash FROM matches") == content_hash(b)
        assert store.counts()["matches"] == 1


def test_an_invalid_log_is_reported_as_validate_reports_it_and_nothing_is_stored(tmp_path: Path) -> None:
    bad = DATA / "seed-42-4p-classic-game0.json"
    db = tmp_path / "i.duckdb"
    result = runner.invoke(app, ["ingest", str(bad), str(DATA / "recorded-3p-game.json"), "--db", str(db)])
    assert result.exit_code == 1
    validated = runner.invoke(app, ["validate", str(bad)])
    finding_lines = [line for line in validated.stdout.splitlines() if line.startswith(str(bad))]
    assert finding_lines and all(line in result.stdout.splitlines() for line in finding_lines)
    assert "stored 1 match" in result.stdout and "1 invalid" in result.stdout
    with MatchStore.open(db, read_only=True) as store:
        assert store.counts()["matches"] == 1


# --------------------------------------------------------------------------- atomic batches


def ingest_in_batches(db: Path, src: Path, **kw: Any) -> Any:
    with MatchStore.open(db) as store:
        return store.ingest(load([str(src)]), batch_games=40, **kw)


@pytest.mark.parametrize("error", [RuntimeError("injected"), KeyboardInterrupt()])
def test_a_failure_mid_batch_leaves_the_batches_before_it_and_no_partial_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    src = write_jsonl(tmp_path / "m.jsonl", simulated(7, 30, players=4, games=4))  # 120 games: 3 batches of 40
    inserts: list[str] = []
    original = MatchStore._insert

    def failing(self: MatchStore, name: str, view: str) -> None:
        inserts.append(name)
        if len(inserts) == 5 + 3:  # the third table of the second batch
            raise error
        original(self, name, view)

    monkeypatch.setattr(MatchStore, "_insert", failing)
    events: list[IngestEvent] = []
    with pytest.raises(type(error)):
        ingest_in_batches(tmp_path / "f.duckdb", src, on_event=events.append)
    assert [e.kind for e in events] == ["stored"] * 10  # only the first batch was reported stored
    monkeypatch.setattr(MatchStore, "_insert", original)
    with MatchStore.open(tmp_path / "f.duckdb") as store:
        assert store.counts()["matches"] == 10 and store.counts()["games"] == 40
        assert store.orphans() == dict.fromkeys(store.orphans(), 0)
        s = store.ingest(load([str(src)]), batch_games=40)
        assert (s.skipped, s.stored) == (10, 20)
    ingest_in_batches(tmp_path / "clean.duckdb", src)
    assert table_rows(tmp_path / "f.duckdb") == table_rows(tmp_path / "clean.duckdb")


KILLED_CHILD = textwrap.dedent(
    """
    import sys, time
    from coloretto_log.db.store import MatchStore
    from coloretto_log.log.load import load
    original = MatchStore._insert
    def slow(self, name, view):
        original(self, name, view)
        if name == "game_players":  # mid-batch: some tables written, the matches table not yet
            print("mid-batch", flush=True)
            time.sleep(0.3)
    MatchStore._insert = slow
    with MatchStore.open(sys.argv[1]) as store:
        store.ingest(load([sys.argv[2]]), batch_games=40)
    """
)


def test_a_process_killed_mid_ingest_leaves_no_partial_match(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "k.jsonl", simulated(8, 40, players=4, games=4))  # 160 games: 4 batches
    db = tmp_path / "k.duckdb"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(db), str(src)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for _ in range(3):  # killed in the middle of the third batch
        assert proc.stdout.readline().strip() == "mid-batch"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with MatchStore.open(db) as store:
        counts = store.counts()
        assert counts["matches"] == 20 and counts["games"] == 80  # two whole batches
        assert store.orphans() == dict.fromkeys(store.orphans(), 0)
        assert store.ingest(load([str(src)]), batch_games=40).stored == 20
    ingest_in_batches(tmp_path / "clean.duckdb", src)
    assert table_rows(db) == table_rows(tmp_path / "clean.duckdb")


# --------------------------------------------------------------------------- rebuild


def test_rebuild_recreates_the_database_from_the_logs_alone(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    ex = [str(p) for p in EXAMPLES]
    with MatchStore.open(db) as store:
        store.ingest(load(ex))
    one = str(DATA / "recorded-3p-game.json")
    result = runner.invoke(app, ["ingest", "--rebuild", one, "--db", str(db)])
    assert result.exit_code == 0, result.output
    with MatchStore.open(db, read_only=True) as store:
        assert store.execute("SELECT match_id FROM matches").fetchall() == [("example-recorded-3p",)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.duckdb"]  # no temporary file left


def test_rebuild_interrupted_keeps_the_old_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "r.duckdb"
    with MatchStore.open(db) as store:
        store.ingest(load([str(DATA / "recorded-3p-game.json")]))
    before = table_rows(db)

    def boom(self: MatchStore, name: str, view: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(MatchStore, "_insert", boom)
    with pytest.raises(KeyboardInterrupt):
        rebuild(db, load([str(p) for p in EXAMPLES]))
    assert table_rows(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.duckdb"]


# --------------------------------------------------------------------------- clear errors


def one_error_line(result: Any) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_a_database_locked_by_another_process(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    with MatchStore.open(db):
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(db)!r}); print('held', flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for args in (["ingest", str(EXAMPLES[0])], ["stats"], ["query", *GENEROUS, "SELECT 1"], ["export", "--bgstats", str(tmp_path / "b.json")]):
            result = runner.invoke(app, [*args, "--db", str(db)])
            assert result.exit_code == 3, (args, result.output)
            line = one_error_line(result)
            assert f"in use by another process (PID {holder.pid})" in line and "try again" in line
    finally:
        holder.kill()
        holder.wait()


def test_a_foreign_or_corrupt_file_says_what_to_do(tmp_path: Path) -> None:
    text = tmp_path / "notes.duckdb"
    text.write_text("shopping list\n" * 200, encoding="utf-8")
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE invoices (n INTEGER)")
    con.close()
    corrupt = tmp_path / "corrupt.duckdb"
    with MatchStore.open(corrupt) as store:
        store.ingest(load([str(p) for p in EXAMPLES]))
    raw = bytearray(corrupt.read_bytes())
    for i in range(4096, min(len(raw), 3 * 262144)):
        raw[i] ^= 0x55
    corrupt.write_bytes(bytes(raw))
    cases = {
        text: "not a DuckDB database",
        other: "not one made by coloretto-log",
        corrupt: "damaged",
        tmp_path / "missing.duckdb": "no such database",
    }
    for path, words in cases.items():
        for args in (["stats"], ["query", *GENEROUS, "SELECT count(*) FROM matches"], ["export", "--bgstats", str(tmp_path / "p.json")]):
            result = runner.invoke(app, [*args, "--db", str(path)])
            assert result.exit_code == 3, (path, args, result.output)
            line = one_error_line(result)
            assert words in line, line
            if path != tmp_path / "missing.duckdb":
                assert "--rebuild" in line or "another --db" in line
    # the cure: --rebuild replaces the damaged file
    result = runner.invoke(app, ["ingest", "--rebuild", str(DATA / "recorded-3p-game.json"), "--db", str(corrupt)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["stats", "--db", str(corrupt)]).exit_code == 0


def test_a_newer_schema_asks_for_a_rebuild(tmp_path: Path) -> None:
    db = tmp_path / "v.duckdb"
    with MatchStore.open(db) as store:
        store.execute("UPDATE coloretto_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseError, match="schema version 99.*--rebuild"):
        MatchStore.open(db)


FULL_DISK_CHILD = textwrap.dedent(
    """
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
    from coloretto_log.cli import main
    main(sys.argv[2:])
    """
)


def test_a_full_disk_is_one_line_and_keeps_the_database_as_it_was(tmp_path: Path, sim_dir: Path) -> None:
    db = tmp_path / "full.duckdb"
    with MatchStore.open(db) as store:
        store.ingest(load([str(p) for p in EXAMPLES]))
    before = table_rows(db)
    limit = db.stat().st_size + 256 * 1024
    proc = subprocess.run(
        [sys.executable, "-c", FULL_DISK_CHILD, str(limit), "ingest", str(sim_dir / "a-4p-classic.jsonl"), "--db", str(db)],
        check=False, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 3, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "disk is full" in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    assert table_rows(db) == before


# --------------------------------------------------------------------------- export


def test_parquet_export_reads_back_equal_to_the_tables(sim_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "season"
    result = runner.invoke(app, ["export", "--parquet", str(out), "--db", str(sim_db)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(TABLES)
    months = sorted(p.name for p in (out / "games").iterdir())
    assert "month=undated" in months and "month=2026-01" in months and len(months) == 13
    con = duckdb.connect()
    con.execute(f"ATTACH '{sim_db}' AS db (READ_ONLY)")
    for name in TABLES:
        cols = ", ".join(f'"{c.name}"' for c in TABLES[name])
        back = f"(SELECT {cols} FROM read_parquet('{out}/{name}/*/*.parquet', hive_partitioning = true))"
        stored = f"(SELECT {cols} FROM db.{name})"
        assert con.execute(f"SELECT count(*) FROM {back}").fetchone() == con.execute(f"SELECT count(*) FROM {stored}").fetchone()
        assert con.execute(f"SELECT count(*) FROM ({back} EXCEPT ALL {stored})").fetchone() == (0,)
        assert con.execute(f"SELECT count(*) FROM ({stored} EXCEPT ALL {back})").fetchone() == (0,)
    # the month column is the match's month
    wrong = con.execute(
        f"SELECT count(*) FROM read_parquet('{out}/matches/*/*.parquet', hive_partitioning = true) "
        "WHERE month <> coalesce(strftime(date, '%Y-%m'), 'undated')"
    ).fetchone()
    assert wrong == (0,)
    again = runner.invoke(app, ["export", "--parquet", str(out), "--db", str(sim_db)])
    assert again.exit_code == 3 and "holds an earlier export" in one_error_line(again) and "--force" in again.output
    forced = runner.invoke(app, ["export", "--parquet", str(out), "--db", str(sim_db), "--force"])
    assert forced.exit_code == 0, forced.output
    assert sorted(p.name for p in out.iterdir()) == sorted(TABLES)
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no temporary folder left


def test_bgstats_export_lists_finished_dated_matches(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    with MatchStore.open(db) as store:
        store.ingest(load([str(p) for p in EXAMPLES]))
    out = tmp_path / "plays.json"
    result = runner.invoke(app, ["export", "--bgstats", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "1 play" in result.stdout and "2 finished matches without a date left out" in result.stderr
    (play,) = json.loads(out.read_text(encoding="utf-8"))
    assert play["sourcePlayId"] == "example-recorded-3p" and play["playDate"] == "2026-11-28 00:00:00"
    assert play["game"]["name"] == "Coloretto" and play["game"]["highestWins"] is True
    item = next(i for i in load([str(DATA / "recorded-3p-game.json")]) if isinstance(i, LoadedMatch))
    scored = score_match(item)
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        (s.player, s.total, s.rank, s.rank == 1) for s in scored.standings
    ]
    first = json.loads((DATA / "recorded-3p-game.json").read_text(encoding="utf-8"))["games"][0]["setup"]["first"]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == [first]


def test_every_table_and_column_is_documented() -> None:
    doc = (ROOT / "docs" / "database.md").read_text(encoding="utf-8")
    for name, cols in TABLES.items():
        assert f"### `{name}`" in doc, name
        for c in cols:
            assert f"| `{c.name}` |" in doc, (name, c.name)


def test_ingest_reports_progress_only_on_stderr_and_a_summary(tmp_path: Path) -> None:
    db = tmp_path / "p.duckdb"
    result = runner.invoke(app, ["ingest", *(str(p) for p in EXAMPLES), "--db", str(db)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Ingest: stored 3 matches, replaced 0, skipped 0 already stored, 0 changed, 0 invalid; 6 games written.",
        f"{db}: 3 matches, 6 games, {table_rows(db)['moves'].__len__()} moves.",
    ]
    env_db = tmp_path / "env.duckdb"
    result = runner.invoke(app, ["ingest", str(EXAMPLES[0])], env={"COLORETTO_DB": str(env_db)})
    assert result.exit_code == 0 and env_db.exists()



def test_rows_are_built_by_column_name() -> None:
    from coloretto_log.db.ingest.rows import Rows

    rows = Rows("match_players")
    rows.add(match_id="m", seat=0, player="Ann", n_players=2, games_counted=1, total=12, rank=1)
    rows.add(match_id="m", seat=1, player="Bo", n_players=2, games_counted=1, total=9, rank=2, win=False)
    table = rows.arrow()
    assert table.column_names == [c.name for c in TABLES["match_players"]]
    assert table.column("win").to_pylist() == [None, False]  # a column left out is NULL
    with pytest.raises(KeyError):
        rows.add(match_id="m", seat=2, no_such_column=1)
