"""The atomic writer's temporary file (``coloretto_log.log.atomic``): unpredictable, exclusive, its final mode from the start."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coloretto_log.log import atomic
from coloretto_log.log.atomic import (
    MATCH_LOG,
    atomic_write_lines,
    atomic_write_text,
    output_problem,
    temp_name_pattern,
)
from coloretto_log.log.logfile import LogFile

LOG = {"format": "coloretto-log", "version": 1, "players": ["A", "B"], "games": []}


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    return victim


def test_a_link_planted_at_the_old_predictable_name_is_never_written_through(tmp_path: Path) -> None:
    """The attack of issue 19: a link at ``.NAME.tmp-PID`` made the next save write its target and rename the link onto the log."""
    victim = _victim(tmp_path)
    path = tmp_path / "kitchen.json"
    planted = tmp_path / f".kitchen.json.tmp-{os.getpid()}"
    planted.symlink_to(victim)
    log = LogFile(path)
    log.save(LOG)
    assert victim.read_text() == "precious\n"
    assert planted.is_symlink() and os.readlink(planted) == str(victim)
    assert not path.is_symlink() and json.loads(path.read_text()) == LOG


def test_a_link_at_the_chosen_name_itself_is_skipped_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a link at the very name drawn (a neighbour who guessed the random part) is refused by O_EXCL: the next name is used."""
    names = iter(["a" * 16, "b" * 16])
    monkeypatch.setattr(atomic, "_random_hex", lambda: next(names))
    victim = _victim(tmp_path)
    path = tmp_path / "kitchen.json"
    planted = tmp_path / f".kitchen.json.tmp-{'a' * 16}"
    planted.symlink_to(victim)
    atomic_write_text(path, "new\n")
    assert victim.read_text() == "precious\n"
    assert planted.is_symlink()
    assert path.read_text() == "new\n" and not path.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".kitchen.json.tmp-" + "a" * 16, "elsewhere", "kitchen.json"]


def test_a_dangling_link_at_the_chosen_name_creates_nothing_at_its_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = iter(["c" * 16, "d" * 16])
    monkeypatch.setattr(atomic, "_random_hex", lambda: next(names))
    target = tmp_path / "created-by-the-attacker.txt"
    (tmp_path / f".out.txt.tmp-{'c' * 16}").symlink_to(target)
    atomic_write_text(tmp_path / "out.txt", "x")
    assert not target.exists() and (tmp_path / "out.txt").read_text() == "x"


def test_temporary_names_differ_between_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real_open = os.open

    def spy(p: object, flags: int, mode: int = 0o777) -> int:
        if ".tmp-" in os.fspath(p):  # type: ignore[arg-type]
            seen.append(os.fspath(p))  # type: ignore[arg-type]
            assert flags & os.O_EXCL and flags & os.O_NOFOLLOW and flags & os.O_CREAT
        return real_open(p, flags, mode)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "open", spy)
    for _ in range(3):
        atomic_write_text(tmp_path / "out.txt", "x")
    temps = [Path(p).name for p in seen]
    assert len(temps) == 3 and len(set(temps)) == 3
    assert all(temp_name_pattern("out.txt").fullmatch(name) for name in temps)


def _modes_while_writing(path: Path, **kwargs: int) -> list[int]:
    """The permission bits of every temporary file beside ``path`` while its text is being written."""
    modes: list[int] = []

    def lines() -> Iterator[str]:
        for entry in path.parent.iterdir():
            if temp_name_pattern(path.name).fullmatch(entry.name):
                modes.append(stat.S_IMODE(entry.lstat().st_mode))
        yield "secret"

    atomic_write_lines(path, lines(), **kwargs)
    return modes


def test_the_temporary_file_has_its_final_mode_from_the_start(tmp_path: Path) -> None:
    token = tmp_path / "token"
    assert _modes_while_writing(token, mode=0o600) == [0o600]
    assert stat.S_IMODE(token.stat().st_mode) == 0o600


def test_a_replaced_file_keeps_its_mode_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    path.write_text("{}")
    path.chmod(0o640)
    assert _modes_while_writing(path) == [0o640]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        path = tmp_path / "new.txt"
        assert _modes_while_writing(path) == [0o640]
    finally:
        os.umask(old)


def test_the_recorder_removes_the_temporary_file_a_crash_left(tmp_path: Path) -> None:
    """A process killed in the middle of a save leaves its random-named temporary file; the next lock removes it."""
    path = tmp_path / "kitchen.json"
    crash = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from coloretto_log.log.atomic import atomic_write_lines\n"
        "def lines():\n"
        "    yield '{'\n"
        "    os._exit(9)\n"
        "atomic_write_lines(Path(sys.argv[1]), lines())\n"
    )
    subprocess.run([sys.executable, "-c", crash, str(path)], check=False)
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".kitchen.json.tmp-")]
    assert len(left) == 1 and not path.exists()
    log = LogFile(path)
    assert log.lock() == left
    log.release()
    assert list(tmp_path.iterdir()) == []


def test_the_output_rule_never_waits_on_a_fifo(tmp_path: Path) -> None:
    """Sniffing what an existing output is (a database? a log?) reads regular files only: a FIFO would block."""
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    assert output_problem(fifo, inputs=[], force=False) == f"{fifo}: already exists; give another file name, or --force to replace it"
    assert output_problem(fifo, inputs=[], force=True) is None


def test_the_output_rule_names_a_database_and_a_log(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    db.write_bytes(b"\0" * 8 + b"DUCK" + b"\0" * 100)
    log = tmp_path / "a.jsonl"
    log.write_text('\ufeff  {"games": [], "format": "coloretto-log", "version": 1}\n', encoding="utf-8")
    other = tmp_path / "b.json"
    other.write_text('["format", "coloretto-log"]', encoding="utf-8")
    for force in (False, True):
        assert output_problem(db, inputs=[], force=force) == (
            f"{db}: is a DuckDB database, which this command never replaces (not even with --force); write to another file"
        )
        assert output_problem(log, inputs=[], force=force) == (
            f"{log}: is a match log, which this command never replaces (not even with --force); write to another file"
        )
    assert output_problem(log, inputs=[], force=True, writes=MATCH_LOG) is not None  # no simulate note: not its own
    ours = tmp_path / "sim.jsonl"
    ours.write_text('{"format": "coloretto-log", "version": 1, "games": [], "notes": "simulated: coloretto-log '
                    'simulate --seed 7, match 1"}\n', encoding="utf-8")
    assert output_problem(ours, inputs=[], force=True, writes=MATCH_LOG) is None
    assert output_problem(ours, inputs=[], force=False, writes=MATCH_LOG) is not None
    assert output_problem(db, inputs=[], force=True, writes=MATCH_LOG) is not None
    assert output_problem(other, inputs=[], force=True) is None  # an array holding the words is no log
