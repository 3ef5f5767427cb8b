"""The club's writers under faults: ``tournament new/pair/result/add`` and ``tables --html``
(``tests/builders/faults.py``, the harness of ``test_every_failed_write.py``).

1. Every fault point of each writer fails in turn (ENOSPC, EIO, EACCES): exit 0 with the clean run's result,
   or exit 3 with one line naming the file and what to do; the database holds, table by table, the rows it had
   or those of the clean run (the tournament's standings are those before or after the step, never between);
   the rerun gives the clean run's result.
2. A kill -9 between steps: the command, in a forked child, dies at a fault point (``os._exit``: no cleanup,
   no flush, as SIGKILL): the database and the page are as before or as after; the rerun finishes the step.
   A few points a writer (the first, the middle, the last before the commit's end), not every one: the kill
   rows cost a fork and a rerun each.
3. Two ``tournament result`` at once on one database: both stored (one waits for the other's lock), neither
   lost, the standings those of both.

docs/safety.md has the table of points per writer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coloretto_log.cli import app

from ..builders.fault_harness import (
    Writer,
    database,
    every_point_fails_in_turn,
    fresh,
    run,
    runner,
    start_from,
    state,
)
from ..builders.faults import Faults, injected
from ..builders.tournament import table_match

pytestmark = pytest.mark.faults
PEOPLE = "Aiko,Boris,Chloe"
NAME = "Cup"


def ok(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def tournament(w: Path) -> None:
    database(w)
    ok("tournament", "new", NAME, "--db", str(w / "club.duckdb"), "--players", PEOPLE, "--rounds", "2", "--sizes", "3")


def paired(w: Path) -> None:
    tournament(w)
    table = json.loads(ok("tournament", "pair", NAME, "--db", str(w / "club.duckdb"), "--json").stdout)["tables"][0]
    log = table_match(table["players"], 1, event={"name": NAME, "round": 1, "table": 1})
    (w / "t1.json").write_text(json.dumps(log), encoding="utf-8")


def earlier_page(w: Path) -> None:
    database(w)
    (w / "tonight.html").write_bytes(b"an earlier page\n" * 50)


DB = "club.duckdb"
WRITERS = [
    Writer("tournament new", lambda w: ["tournament", "new", NAME, "--db", str(w / DB), "--players", PEOPLE,
                                        "--rounds", "2", "--sizes", "3"], database),
    Writer("tournament pair", lambda w: ["tournament", "pair", NAME, "--db", str(w / DB)], tournament),
    Writer("tournament result", lambda w: ["tournament", "result", NAME, "--db", str(w / DB), "--round", "1",
                                           "--at-table", "1", "--scores", "Aiko=30,Boris=20,Chloe=10"], paired),
    Writer("tournament add", lambda w: ["tournament", "add", NAME, str(w / "t1.json"), "--db", str(w / DB)], paired),
    Writer("tables --html", lambda w: ["tables", "Aiko,Boris,Chloe,Dae", "--db", str(w / DB), "--seed", "1",
                                       "--event", "Friday", "--html", str(w / "tonight.html"), "--host", "192.0.2.1",
                                       "--force"], earlier_page),
]


@pytest.fixture(scope="module", autouse=True)
def same_tokens() -> Any:
    """The tables' serve tokens are random: here one fixed token, so that a rerun's page is the clean run's."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr("coloretto_log.serve.run.secrets.token_urlsafe", lambda n: "T" * 22)
        yield


@pytest.fixture(scope="module", params=WRITERS, ids=[w.name for w in WRITERS])
def started(same_tokens: None, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Writer, Path, Any, Any]:
    """A writer, its start (set up once; the work folder beside it: the runs' paths are those of the clean run,
    which the database keeps), the state before it, and its clean run's state and points."""
    writer: Writer = request.param
    root = tmp_path_factory.mktemp("club-faults")
    start, w = root / "start", root / "work"
    before = fresh(start, writer)
    start_from(w, start)
    with injected(Faults()) as counted:
        result = run(writer, w)
    assert result.exit_code == 0, result.output
    writer.points = counted.points
    assert writer.points, f"{writer.name}: no fault point"
    return writer, start, before, state(w)


def test_every_fault_point_of_a_club_writer(started: tuple[Writer, Path, Any, Any]) -> None:
    writer, start, before, clean = started
    w = start.parent / "work"
    every_point_fails_in_turn(writer, w, start, before, clean)
    print(json.dumps({writer.name: len(writer.points)}))


class _Killed(Faults):
    """The k-th fault point ends the process at once, as kill -9 would: no exception, no cleanup, no flush."""

    def hit(self, op: str, target: Any = "") -> None:
        self.points.append((op, str(target)))
        if self.fail_at is not None and len(self.points) == self.fail_at:
            os._exit(137)


def killed_at(writer: Writer, w: Path, k: int) -> int:
    """Run ``writer`` in a forked child killed at its ``k``-th fault point; the child's exit status."""
    pid = os.fork()
    if pid == 0:  # the child: the command, killed at point k (or ending by itself)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                os.dup2(null.fileno(), 2)
            with injected(_Killed(fail_at=k)):
                run(writer, w)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_club_writer_killed_between_steps(started: tuple[Writer, Path, Any, Any]) -> None:
    writer, start, before, clean = started
    w = start.parent / "work"
    n = len(writer.points)
    for k in sorted({1, (n + 1) // 2, n}):  # the first point, the middle one, the last one
        start_from(w, start)
        assert killed_at(writer, w, k) == 137, f"{writer.name}: point {k} of {n} not reached"
        after = state(w)
        for name, value in after.items():
            if name.endswith(".tmp") or ".tmp-" in name:
                continue  # a temporary file a kill leaves: the next run removes or ignores it
            if isinstance(value, dict):  # the database: every table before or after, never between
                for table, rows in value.items():
                    assert rows in ((before.get(name) or {}).get(table), clean[name].get(table)), f"{writer.name}: {k}: {table}"
            elif name in before:
                assert value in (before[name], clean.get(name)), f"{writer.name}: point {k}: {name} half-written"
        again = run(writer, w)
        assert again.exit_code == 0, f"{writer.name}: point {k}: the rerun after the kill: {again.output}"
        assert {k: v for k, v in state(w).items() if ".tmp-" not in k} == clean, f"{writer.name}: point {k}: rerun"


def test_two_results_at_once_are_both_stored(tmp_path: Path) -> None:
    """Two ``tournament result`` processes at once on one database (tables of three, two tables): each waits its
    turn for the lock, both are stored."""
    w = tmp_path / "w"
    w.mkdir()
    db = w / DB
    six = "Aiko,Boris,Chloe,Dae,Emil,Fay"
    ok("tournament", "new", NAME, "--db", str(db), "--players", six, "--rounds", "1", "--sizes", "3")
    tables = json.loads(ok("tournament", "pair", NAME, "--db", str(db), "--json").stdout)["tables"]
    procs = []
    for t in tables:
        scores = ",".join(f"{p}={30 - 5 * i}" for i, p in enumerate(t["players"]))
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "coloretto_log", "tournament", "result", NAME, "--db", str(db), "--round", "1",
             "--at-table", str(t["table"]), "--scores", scores], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True))  # fmt: skip
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    shown = json.loads(ok("tournament", "show", NAME, "--db", str(db), "--json").stdout)
    results = [row["result"] for rnd in shown["paired"] for row in rnd["tables"]]
    assert all(r is not None for r in results) and len(results) == 2  # neither lost
    standings = json.loads(ok("tournament", "standings", NAME, "--db", str(db), "--json").stdout)["standings"]
    assert sorted(s["played"] for s in standings) == [1] * 6


def test_the_start_is_copied_whole(tmp_path: Path) -> None:
    """The harness's own check: a start copied twice is the same state (no file is read half-way)."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    (a / "x").write_bytes(b"1")
    start_from(b, a)
    assert state(a) == state(b)
    shutil.rmtree(b)
