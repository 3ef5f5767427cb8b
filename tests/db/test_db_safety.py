"""The database commands never lose a user's file, never let the database speak to the terminal, and stay bounded.

One test per reproduction of issues 11 and 12: export onto the database,
``ingest --rebuild`` from a typo, odd file names, the query bounds, a
control character in a player's name, a rerun after a killed ingest,
progress under a terminal, and the small messages.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.cli.query import _print_result
from coloretto_log.db.ingest import reading
from coloretto_log.db.queries.query import QueryResult
from coloretto_log.db.store import MatchStore
from coloretto_log.log.replay import check_match
from coloretto_log.view.tabular import CHUNK

from ..builders.terminal import drain
from ..conftest import GENEROUS, ROOT, SAMPLES

DATA = ROOT / "tests" / "data" / "db"
EXAMPLES = sorted(p for p in DATA.glob("*.json") if p.name != "seed-42-4p-classic-game0.json")
runner = CliRunner()
HOSTILE = "Ai\u001b[31mko\u001b]0;pwned\u0007"


def cli(*args: str | bytes, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """The command as a user runs it: a new process, bytes in and out."""
    return subprocess.run(
        [sys.executable, "-m", "coloretto_log", *args], input=stdin, capture_output=True, cwd=cwd, check=False
    )


def error_lines(result: Any) -> list[str]:
    return [line for line in result.output.splitlines() if line.strip()]


def stored_matches(db: Path) -> int:
    with MatchStore.open(db, read_only=True) as store:
        return int(store.scalar("SELECT count(*) FROM matches"))


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A database of the three example matches."""
    db = tmp_path / "club.duckdb"
    result = runner.invoke(app, ["ingest", *(str(p) for p in EXAMPLES), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def simulated(tmp_path: Path, n: int, seed: int = 1) -> Path:
    out = tmp_path / f"sim-{seed}-{n}.jsonl"
    done = cli("simulate", "-n", str(n), "--seed", str(seed), "--bots", "random", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


# --------------------------------------------------------------------------- 1. nothing of the user's is overwritten


def test_export_never_writes_onto_the_database(club: Path) -> None:
    before = club.read_bytes()
    for force in ([], ["--force"]):
        result = runner.invoke(app, ["export", "--db", str(club), "--bgstats", str(club), *force])
        assert result.exit_code == 3, result.output
        assert error_lines(result) == [f"Error: {club}: is the database this command reads; write to another file"]
    link = club.parent / "link.json"
    link.symlink_to(club)
    result = runner.invoke(app, ["export", "--db", str(club), "--bgstats", str(link), "--force"])
    assert result.exit_code == 3 and "is the database this command reads" in result.output
    result = runner.invoke(app, ["export", "--db", str(club), "--parquet", str(club.parent), "--force"])
    assert result.exit_code == 3 and "which this command reads" in result.output
    assert club.read_bytes() == before and stored_matches(club) == 3


def test_export_refuses_an_existing_file_unless_force(club: Path) -> None:
    log = club.parent / "match.json"
    log.write_text('{"a match log": true}\n', encoding="utf-8")
    result = runner.invoke(app, ["export", "--db", str(club), "--bgstats", str(log)])
    assert result.exit_code == 3
    assert error_lines(result) == [f"Error: {log}: already exists; give another file name, or --force to replace it"]
    assert log.read_text(encoding="utf-8") == '{"a match log": true}\n'
    result = runner.invoke(app, ["export", "--db", str(club), "--bgstats", str(log), "--force"])
    assert result.exit_code == 0, result.output
    assert isinstance(json.loads(log.read_text(encoding="utf-8")), list)


def test_stats_png_refuses_the_database_and_an_existing_file(club: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(club), "--png", str(club), "--force"])
    assert result.exit_code == 3 and "is the database this command reads" in result.output
    png = club.parent / "plot.png"
    png.write_bytes(b"mine")
    result = runner.invoke(app, ["stats", "--db", str(club), "--png", str(png)])
    assert result.exit_code == 3 and "already exists" in result.output and png.read_bytes() == b"mine"


@pytest.mark.parametrize(
    ("inputs", "why"),
    [
        (["sampel_logs/"], "could not be read"),  # a typo
        (["GOOD", "sampel_logs/"], "could not be read"),  # one good file and a typo
        (["BROKEN"], "not"),  # only invalid logs
        (["GOOD", "BROKEN"], "not"),
        (["EMPTY"], "is not"),  # an empty file is itself a bad-json finding: nothing valid to store
    ],
    ids=["typo", "good-and-typo", "invalid", "good-and-invalid", "nothing"],
)
def test_rebuild_keeps_the_old_database_unless_every_input_is_good(
    club: Path, tmp_path: Path, inputs: list[str], why: str
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1, "players": ["A"]}', encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    named = {"GOOD": str(EXAMPLES[0]), "BROKEN": str(broken), "EMPTY": str(empty)}
    before = club.read_bytes()
    result = runner.invoke(app, ["ingest", "--rebuild", *(named.get(i, str(tmp_path / i)) for i in inputs), "--db", str(club)])
    assert result.exit_code in (1, 3), result.output
    assert f"{club}: the database was left as it was: --rebuild" in result.stderr and why in result.stderr
    assert club.read_bytes() == before and stored_matches(club) == 3
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    as_json = runner.invoke(app, ["ingest", "--rebuild", named["GOOD"], str(tmp_path / "typo"), "--db", str(club), "--json"])
    assert json.loads(as_json.stdout)["kept"].startswith(f"{club}: the database was left as it was")


def test_rebuild_from_good_logs_replaces_the_database(club: Path) -> None:
    result = runner.invoke(app, ["ingest", "--rebuild", str(EXAMPLES[0]), "--db", str(club)])
    assert result.exit_code == 0, result.output
    assert stored_matches(club) == 1


def test_ingest_of_a_missing_file_leaves_no_database_behind(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    result = runner.invoke(app, ["ingest", str(tmp_path / "missing.json"), "--db", str(db)])
    assert result.exit_code == 3
    assert "missing.json: no such file or folder" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(broken), "--db", str(db)])
    assert result.exit_code == 1 and not db.exists()
    assert f"{db}: no database (nothing was stored)." in result.stdout


# --------------------------------------------------------------------------- 2. nothing from the database speaks to the terminal


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    """A database whose player "Aiko" is named with an escape sequence that would set the terminal's title."""
    text = (DATA / "recorded-3p-game.json").read_text(encoding="utf-8")
    log = tmp_path / "hostile.json"
    log.write_text(text.replace('"Aiko"', json.dumps(HOSTILE)), encoding="utf-8")
    db = tmp_path / "hostile.duckdb"
    result = runner.invoke(app, ["ingest", str(log), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def test_stats_and_query_tables_escape_control_characters(hostile_db: Path) -> None:
    stats = cli("stats", "--db", str(hostile_db))
    query = cli("query", *GENEROUS, "SELECT player, players FROM game_players JOIN matches USING (match_id)", "--db", str(hostile_db))
    for done in (stats, query):
        assert done.returncode == 0, done.stderr
        assert b"\x1b" not in done.stdout and b"\x07" not in done.stdout
        assert b"Ai\\x1b[31mko\\x1b]0;pwned\\x07" in done.stdout
    as_json = cli("stats", "--db", str(hostile_db), "--json")
    assert HOSTILE in [p["player"] for p in json.loads(as_json.stdout)["players"]]
    as_csv = cli("query", *GENEROUS, "SELECT DISTINCT player FROM game_players ORDER BY 1", "--db", str(hostile_db), "--format", "csv")
    assert HOSTILE in as_csv.stdout.decode("utf-8").splitlines()


# --------------------------------------------------------------------------- 3. odd file names


def test_a_file_name_that_is_not_utf8_is_stored_and_shown_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    odd = os.fsencode(folder) + b"/bad\xffname.json"
    with open(odd, "wb") as f:
        f.write(EXAMPLES[0].read_bytes())
    (folder / "good.json").write_bytes(EXAMPLES[1].read_bytes())
    (folder / "broken\x1b.json").write_text("{}", encoding="utf-8")
    with open(os.fsencode(folder) + b"/worse\xfe.json", "wb") as f:
        f.write(b"{}")
    db = tmp_path / "odd.duckdb"
    done = cli("ingest", str(folder), "--db", str(db))
    assert done.returncode == 1, done.stderr  # the broken ones are invalid: no exit 70
    assert b"stored 2 matches" in done.stdout
    assert b"worse\\xfe.json" in done.stdout and b"broken\\x1b.json" in done.stdout and b"\x1b" not in done.stdout
    with MatchStore.open(db, read_only=True) as store:
        files = sorted(r[0] for r in store.execute("SELECT source_file FROM matches").fetchall())
    assert files == [f"{folder}/bad\\xffname.json", f"{folder}/good.json"]
    as_json = cli("ingest", str(folder), "--db", str(db), "--json")
    assert as_json.returncode == 1
    report = json.loads(as_json.stdout)
    assert report["summary"]["skipped"] == 2 and f"{folder}/worse\\xfe.json" in [i["file"] for i in report["invalid"]]


# --------------------------------------------------------------------------- 4. bounded memory and time


def test_the_memory_bound_holds_for_a_huge_string(club: Path) -> None:
    sql = "SELECT length(repeat('x', 1000000000) || repeat('y', 1000000000))"
    result = runner.invoke(app, ["query", *GENEROUS, sql, "--db", str(club)])
    assert result.exit_code == 2
    assert error_lines(result) == [
        ("Error: the query needed more than the 1024 MB memory bound and was stopped (the memory bound); "
        "narrow the query or aggregate")
    ]


def test_the_size_bound_holds_for_big_rows(club: Path) -> None:
    result = runner.invoke(app, ["query", *GENEROUS, "SELECT repeat('x', 1000000) FROM range(100)", "--db", str(club)])
    assert result.exit_code == 2
    assert len(error_lines(result)) == 1 and "(the size bound)" in result.output


def test_limit_has_an_upper_bound(club: Path) -> None:
    for limit in ("100001", "-1"):
        result = runner.invoke(app, ["query", *GENEROUS, "SELECT 1", "--limit", limit, "--db", str(club)])
        assert result.exit_code == 2
        assert error_lines(result) == [f"Error: --limit must be from 0 to 100,000, not {int(limit):,}"]
    result = runner.invoke(app, ["query", *GENEROUS, "SELECT range FROM range(200000)", "--limit", "100000", "--format", "csv", "--db", str(club)])
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 100_001
    assert "(the row bound, --limit)" in result.stderr


def test_printing_stops_at_the_deadline_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [(i, f"row {i}") for i in range(3 * CHUNK)]
    late = QueryResult(["n", "s"], ["INTEGER", "VARCHAR"], rows, False, 9.5, deadline=time.monotonic() - 1)
    for fmt in ("csv", "json", "table"):
        from coloretto_log.cli.common import Format

        with pytest.raises(Exception) as stopped:
            _print_result(late, Format(fmt), 1000, 10.0)
        assert getattr(stopped.value, "exit_code", None) == 2
        out, err = capsys.readouterr()
        assert err.splitlines() == [
            (f"Error: the query ran past the 10 s timeout while printing its rows: {CHUNK:,} of {3 * CHUNK:,} "
            "printed (the time bound, --timeout)")
        ]
        assert f"row {CHUNK - 1}" in out and f"row {CHUNK}\n" not in out and f"row {CHUNK}," not in out


def test_query_reads_sql_from_standard_input(club: Path) -> None:
    sql = "SELECT count(*) AS n FROM matches -- " + "x" * 200_000  # longer than an argument may be
    done = cli("query", *GENEROUS, "-", "--db", str(club), "--json", stdin=sql.encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"n": 3}]


def test_pivot_and_other_read_only_statements_are_allowed(club: Path) -> None:
    result = runner.invoke(app, ["query", *GENEROUS, "PIVOT game_players ON n_players USING count(*) GROUP BY player ORDER BY player", "--db", str(club), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {"player", "3", "4"} <= set(rows[0])
    result = runner.invoke(app, ["query", *GENEROUS, "PRAGMA table_info('games')", "--db", str(club)])
    assert result.exit_code == 2
    assert error_lines(result) == [
        ("Error: PRAGMA is not allowed here; read the same through its table function, "
        "e.g. SELECT * FROM pragma_table_info('games')")
    ]


def test_a_rerun_skips_stored_matches_before_checking_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sims = simulated(tmp_path, 30)
    lines = sims.read_text(encoding="utf-8").splitlines(keepends=True)
    first = tmp_path / "first.jsonl"
    first.write_text("".join(lines[:20]), encoding="utf-8")
    db = tmp_path / "k.duckdb"
    assert runner.invoke(app, ["ingest", str(first), "--db", str(db)]).exit_code == 0  # as if killed after 20
    checked: list[Any] = []

    def counting(data: Any, **options: Any) -> Any:
        checked.append(data)
        return check_match(data, **options)

    monkeypatch.setattr(reading, "check_match", counting)
    result = runner.invoke(app, ["ingest", str(sims), "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"] | {"batches": 0} == {
        "stored": 10, "replaced": 0, "skipped": 20, "changed": 0, "invalid": 0, "unreadable": 0,
        "games": 40, "batches": 0,
    }
    assert len(checked) == 10  # only the new ones were checked


def test_ingest_progress_advances_within_one_big_file_on_a_terminal(tmp_path: Path) -> None:
    sims = simulated(tmp_path, 300)
    db = tmp_path / "p.duckdb"
    leader, follower = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="120")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", "ingest", str(sims), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=follower, env=env,
    )
    os.close(follower)
    seen = drain(leader)
    proc.wait(timeout=60)
    assert proc.returncode == 0
    text = seen.decode("utf-8", "replace")
    import re

    percents = {int(m) for m in re.findall(r"\b(\d{1,3})%", text)}
    assert any(0 < p < 100 for p in percents), text[-2000:]  # advanced within the one file
    assert "left" in text and "/s" in text  # a rate and the time left
    piped = cli("ingest", str(sims), "--db", str(tmp_path / "q.duckdb"))
    assert piped.returncode == 0 and piped.stderr == b""  # nothing when standard error is not a terminal


# --------------------------------------------------------------------------- 5. smaller mends


def test_parquet_onto_a_symbolic_link_or_a_file_says_what_is_wrong(club: Path, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    result = runner.invoke(app, ["export", "--db", str(club), "--parquet", str(link)])
    assert result.exit_code == 3
    assert error_lines(result) == [
        f"Error: {link}: is a symbolic link (to {real}), not a folder; give the real folder or a new name"
    ]
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["export", "--db", str(club), "--parquet", str(afile)])
    assert error_lines(result) == [f"Error: {afile}: is a file, not a folder; choose a new folder name"]
    assert result.exit_code == 3 and afile.read_text(encoding="utf-8") == "x"


@pytest.mark.parametrize(
    "args",
    [["ingest", str(EXAMPLES[0])], ["stats"], ["query", *GENEROUS, "SELECT 1"], ["export", "--bgstats", "plays.json"]],
    ids=["ingest", "stats", "query", "export"],
)
def test_a_db_that_is_a_folder_exits_3_in_one_line(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--db", str(tmp_path)])
    assert result.exit_code == 3, result.output
    assert error_lines(result) == [f"Error: {tmp_path}: is a folder, not a database file; give a file name with --db"]


@pytest.mark.parametrize("day", ["2026-13-01", "01/02/2026", "yesterday", "2026-1-1"])
def test_a_bad_date_says_the_format_wanted(club: Path, day: str) -> None:
    for option in ("--since", "--until"):
        result = runner.invoke(app, ["stats", "--db", str(club), option, day])
        assert result.exit_code == 2
        assert error_lines(result) == [
            f"Error: {option} {day}: not a day of the calendar; give it as YYYY-MM-DD, for example 2026-01-31"
        ]


def test_a_db_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    db = tmp_path / "nofolder" / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(EXAMPLES[0]), "--db", str(db)])
    assert result.exit_code == 3
    assert error_lines(result) == [
        f"Error: {db}: the folder {db.parent} does not exist; create it first, or give another --db"
    ]
    assert not db.parent.exists()


def test_a_log_given_as_the_database_is_refused_and_kept(tmp_path: Path) -> None:
    log = tmp_path / "two.json"
    log.write_bytes((SAMPLES / "classic-2p-recorded-game.json").read_bytes())
    before = log.read_bytes()
    for command in (["ingest", str(log), "--db", str(log)], ["ingest", "--rebuild", str(log), "--db", str(log)],
                    ["stats", "--db", str(log)], ["query", *GENEROUS, "SELECT 1", "--db", str(log)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 3, (command, result.output)
        assert "not a DuckDB database" in result.output
    assert log.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["two.json"]


# --------------------------------------------------------------------------- 1b. --force never replaces a database or a log (issue 19, item 4)

KEPT_DB = "is a DuckDB database, which this command never replaces (not even with --force); write to another file"
KEPT_LOG = "is a match log, which this command never replaces (not even with --force); write to another file"


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_no_output_replaces_the_club_database(club: Path, tmp_path: Path, force: list[str]) -> None:
    """``replay --html``, ``analyze --html``, ``simulate --out`` replaced the club database with --force."""
    log = EXAMPLES[0]
    other = tmp_path / "other.duckdb"
    other.write_bytes(club.read_bytes())
    link = tmp_path / "link.html"
    link.symlink_to(club)
    before = club.read_bytes()
    commands = [
        (["replay", str(log), "--html", str(club)], 2, club),
        (["replay", str(log), "--html", str(link)], 2, link),
        (["analyze", str(log), "--html", str(club)], 2, club),
        (["simulate", "-n", "1", "--out", str(club)], 3, club),
        (["stats", "--db", str(club), "--png", str(other)], 3, other),
        (["ratings", "--db", str(club), "--png", str(other)], 2, other),
        (["export", "--db", str(club), "--bgstats", str(other)], 3, other),
    ]
    for command, code, target in commands:
        result = runner.invoke(app, [*command, *force])
        assert result.exit_code == code, (command, result.output)
        assert error_lines(result)[-1].endswith(f"{target}: {KEPT_DB}"), (command, result.output)
    assert club.read_bytes() == before and other.read_bytes() == before and link.is_symlink()
    assert stored_matches(club) == 3


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_no_output_but_a_log_replaces_a_match_log(club: Path, tmp_path: Path, force: list[str]) -> None:
    """``stats --png a.json --force`` replaced a log with a picture; a log in JSON Lines, pretty or not, is kept too."""
    pretty = tmp_path / "a.json"
    pretty.write_bytes(EXAMPLES[0].read_bytes())
    lines = tmp_path / "b.jsonl"
    lines.write_text("".join(json.dumps(json.loads(p.read_text(encoding="utf-8"))) + "\n" for p in EXAMPLES), encoding="utf-8")
    kept = {p: p.read_bytes() for p in (pretty, lines)}
    for target in (pretty, lines):
        commands = [
            (["stats", "--db", str(club), "--png", str(target)], 3),
            (["ratings", "--db", str(club), "--png", str(target)], 2),
            (["export", "--db", str(club), "--bgstats", str(target)], 3),
            (["replay", str(EXAMPLES[1]), "--html", str(target)], 2),
            (["analyze", str(EXAMPLES[1]), "--html", str(target)], 2),
        ]
        for command, code in commands:
            result = runner.invoke(app, [*command, *force])
            assert result.exit_code == code, (command, result.output)
            assert error_lines(result)[-1].endswith(f"{target}: {KEPT_LOG}"), (command, result.output)
    assert {p: p.read_bytes() for p in kept} == kept


def test_simulate_replaces_its_own_earlier_log_with_force(tmp_path: Path) -> None:
    """simulate writes match logs: --force replaces one (its earlier output), as before."""
    out = simulated(tmp_path, 2)
    first = out.read_bytes()
    refused = runner.invoke(app, ["simulate", "-n", "1", "--seed", "7", "--out", str(out)])
    assert refused.exit_code == 3 and "already exists" in refused.output and out.read_bytes() == first
    done = runner.invoke(app, ["simulate", "-n", "1", "--seed", "7", "--bots", "random", "--out", str(out), "--force"])
    assert done.exit_code == 0, done.output
    assert out.read_bytes() != first and len(out.read_text(encoding="utf-8").splitlines()) == 1


def test_simulate_never_replaces_a_log_it_did_not_write(tmp_path: Path) -> None:
    """A recorded game (or any log without simulate's note) is the user's, not an earlier output: kept even
    with --force, while simulate's own earlier output is still replaced."""
    kept = tmp_path / "evening.json"
    kept.write_bytes(EXAMPLES[0].read_bytes())
    for force in ([], ["--force"]):
        result = runner.invoke(app, ["simulate", "-n", "1", "--seed", "7", "--out", str(kept), *force])
        assert result.exit_code == 3, result.output
        assert error_lines(result)[-1].endswith(f"{kept}: is a match log that simulate did not write, which it "
                                                "never replaces (not even with --force); write to another file")
    assert kept.read_bytes() == EXAMPLES[0].read_bytes()


def test_an_ordinary_earlier_output_is_still_replaced_with_force(club: Path, tmp_path: Path) -> None:
    """What is neither a database nor a log (an earlier page, a note mentioning the format) is an output --force replaces."""
    page = tmp_path / "page.html"
    page.write_text('<p>"format": "coloretto-log"</p>', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(EXAMPLES[0]), "--html", str(page), "--force"])
    assert result.exit_code == 0, result.output
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>") or "<html" in page.read_text(encoding="utf-8")


def test_rebuild_through_a_link_rebuilds_the_real_database(club: Path, tmp_path: Path) -> None:
    """``ingest --rebuild --db LINK`` made the link a new regular file and left the real database stale (exit 0)."""
    link = tmp_path / "link.duckdb"
    link.symlink_to(club)
    result = runner.invoke(app, ["ingest", "--rebuild", str(EXAMPLES[0]), "--db", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(club)
    assert stored_matches(club) == 1
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    assert leftovers == []
