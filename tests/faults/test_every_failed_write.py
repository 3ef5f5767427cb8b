"""Every failed write tried in turn, for every command that writes (``tests/builders/faults.py``).

For each writer: a run without faults counts its fault points (each file
creation, write, fsync, rename, mkdir, lock and DuckDB write it makes) and
gives the result. Then, for k = 1, 2, ... every point: the same run from
the same start with the k-th point failing (ENOSPC, EIO, EACCES in turn).
After each: the exit is 0 with the same result as the clean run (the
failure was one the command may pass over, a folder's fsync) or 3 with one
line naming the file and what to do and no traceback; every file that was
there is byte-identical or replaced whole (a database holds the rows it had,
or those of the clean run); nothing half-written is left (no temporary
file); and the same command run again without the fault gives the clean
run's result. docs/safety.md has the table of points per writer.

Slow: 146 points, each run twice (docs/safety.md has them per writer).
analyze's writers analyse an unfinished game of 14 moves, not a whole one
in each run: 6 s of CPU for both, not 48. Marked ``faults``; the README's
test command, and so ``.ci/run``, runs it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from coloretto_log.cli import app

from ..builders.fault_harness import (
    Writer,
    database,
    every_point_fails_in_turn,
    fresh,
    logs,
    run,
    runner,
    start_from,
    state,
)
from ..builders.faults import Faults, injected
from ..builders.record import DATE, FOUR
from ..conftest import SAMPLES

pytestmark = pytest.mark.faults


def short_game(w: Path) -> None:
    """The analyze writers' input: the two-player sample's first 14 moves (an unfinished game, analysed in a
    fraction of the whole game's time; the writes are the same: the page, or one match's rows)."""
    (w / "in").mkdir()
    match = json.loads((SAMPLES / "classic-2p-recorded-game.json").read_text(encoding="utf-8"))
    match["games"][0]["moves"] = match["games"][0]["moves"][:14]
    (w / "in" / "short.json").write_text(json.dumps(match), encoding="utf-8")


def short_database(w: Path) -> None:
    short_game(w)
    result = runner.invoke(app, ["ingest", str(w / "in"), "--db", str(w / "club.duckdb")])
    assert result.exit_code == 0, result.output


def earlier(name: str, make: Callable[[Path], None] = logs) -> Callable[[Path], None]:
    """Inputs, and an earlier output at ``name`` for ``--force`` to replace (whole, or not at all)."""

    def setup(w: Path) -> None:
        make(w)
        (w / name).write_bytes(b"an earlier output\n" * 100)

    return setup


def site_before(w: Path) -> None:
    database(w)
    result = runner.invoke(app, ["site", "--db", str(w / "club.duckdb"), "--out", str(w / "site"), "--title", "Before"])
    assert result.exit_code == 0, result.output


RECORD = ["blue", "red", "green", "yellow", "Aiko", "d r 1", "d bl 2", "t 1"]


def record_rest(w: Path) -> str:
    """The lines a resumed recorder still needs: those whose answers the saved log does not hold yet."""
    path = w / "m.json"
    if not path.exists():
        return "".join(f"{line}\n" for line in RECORD)
    games = json.loads(path.read_text(encoding="utf-8"))["games"]
    game = games[0] if games else {}
    setup = game.get("setup", {})
    done = len(setup.get("starting", {})) + ("first" in setup) + len(game.get("moves", []))
    return "".join(f"{line}\n" for line in RECORD[done:])

WRITERS = [
    Writer("record", lambda w: ["record", str(w / "m.json"), "--players", ",".join(FOUR), "--date", DATE],
           stdin="".join(f"{line}\n" for line in RECORD), rerun_stdin=record_rest, saves_as_it_goes=True),
    Writer("simulate --out", lambda w: ["simulate", "-n", "2", "--games", "1", "--seed", "5", "--out", str(w / "sim.jsonl"),
                                        "--force"], earlier("sim.jsonl", lambda w: None)),
    Writer("replay --html", lambda w: ["replay", str(w / "in" / "classic-2p-recorded-game.json"), "--html",
                                       str(w / "r.html"), "--force"], earlier("r.html")),
    Writer("analyze --html", lambda w: ["analyze", str(w / "in" / "short.json"), "--samples", "2", "--max-se", "0",
                                        "--html", str(w / "a.html")], short_game),
    Writer("ingest", lambda w: ["ingest", str(w / "in"), "--db", str(w / "club.duckdb")], logs),
    Writer("ingest --rebuild", lambda w: ["ingest", "--rebuild", str(w / "in"), "--db", str(w / "club.duckdb")], database),
    Writer("analyze --db", lambda w: ["analyze", str(w / "in" / "short.json"), "--samples", "2", "--max-se", "0",
                                      "--db", str(w / "club.duckdb"), "--json"], short_database),
    Writer("export --bgstats", lambda w: ["export", "--db", str(w / "club.duckdb"), "--bgstats", str(w / "plays.json"),
                                          "--force"], earlier("plays.json", database)),
    Writer("export --parquet", lambda w: ["export", "--db", str(w / "club.duckdb"), "--parquet", str(w / "pq")], database),
    Writer("stats --png", lambda w: ["stats", "--db", str(w / "club.duckdb"), "--png", str(w / "s.png")], database),
    Writer("ratings --png", lambda w: ["ratings", "--db", str(w / "club.duckdb"), "--png", str(w / "r.png")], database),
    Writer("site", lambda w: ["site", "--db", str(w / "club.duckdb"), "--out", str(w / "site")], site_before),
]


@pytest.mark.parametrize("writer", WRITERS, ids=[w.name for w in WRITERS])
def test_every_fault_point_of_a_writer(tmp_path: Path, writer: Writer) -> None:
    w, start = tmp_path / "work", tmp_path / "start"
    fresh(w, writer)
    run(writer, w)  # a first run warms what a process does once (matplotlib's font cache): not the command's points
    before = fresh(start, writer)
    start_from(w, start)
    with injected(Faults()) as counted:
        result = run(writer, w)
    assert result.exit_code in (0, 1), result.output  # analyze and ingest exit 1 on an invalid log: none here
    clean = state(w)
    writer.points = counted.points
    assert writer.points, f"{writer.name}: no fault point"
    every_point_fails_in_turn(writer, w, start, before, clean)
    print(json.dumps({writer.name: len(writer.points)}))
