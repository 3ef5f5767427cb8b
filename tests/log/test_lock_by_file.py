"""One recorder per log file, whatever its name: the lock is on the file itself (``log/logfile.py``).

A hard link (in the same folder or another), a symbolic link, a relative
path or another spelling of it all reach the same file, and so the same
lock; a save locks its new file before it replaces the old one, and the
recorder keeps the lock of every version that still has a name (the old
one, under a hard link, after a save).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.logfile import LockedError, LogFile

from ..builders.record import DATE, FOUR, Script, match_script

runner = CliRunner()
ARGS = ["--players", ",".join(FOUR), "--date", DATE]
DATA = {"format": "coloretto-log", "version": 1, "players": ["A", "B"], "games": []}


def routes(tmp_path: Path) -> dict[str, Callable[[Path], Path]]:
    """Ways to name one file, each made from its path."""

    def hard_elsewhere(p: Path) -> Path:
        other = tmp_path / "other"
        other.mkdir(exist_ok=True)
        os.link(p, other / "hard.json")
        return other / "hard.json"

    def hard_beside(p: Path) -> Path:
        os.link(p, p.with_name("twin.json"))
        return p.with_name("twin.json")

    def symlink(p: Path) -> Path:
        (tmp_path / "links").mkdir(exist_ok=True)
        (tmp_path / "links" / "l.json").symlink_to(p)
        return tmp_path / "links" / "l.json"

    def dotted(p: Path) -> Path:
        (tmp_path / "sub").mkdir(exist_ok=True)
        return tmp_path / "sub" / ".." / "." / p.name

    return {"hard link elsewhere": hard_elsewhere, "hard link beside": hard_beside, "symlink": symlink, "dotted": dotted}


@pytest.mark.parametrize("route", ["hard link elsewhere", "hard link beside", "symlink", "dotted"])
def test_a_second_recorder_by_any_route_is_refused_before_and_after_saves(tmp_path: Path, route: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(DATA), encoding="utf-8")
    other = routes(tmp_path)[route](path)
    first = LogFile(path)
    first.lock()
    try:
        with pytest.raises(LockedError, match="is being recorded by another recorder"):
            LogFile(other).lock()
        for n in range(3):  # each save replaces the file: the new one is locked too, and so is the old one
            assert first.save(dict(DATA, notes=f"save {n}"))
            for name in (path, other):
                with pytest.raises(LockedError, match="is being recorded by another recorder"):
                    LogFile(name).lock()
    finally:
        first.release()
    for name in (path, other):  # released: each name can be recorded again
        again = LogFile(name)
        again.lock()
        again.release()


def test_a_relative_path_finds_the_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "d").mkdir()
    path = tmp_path / "d" / "m.json"
    first = LogFile(path)
    first.lock()  # a new log: not written yet
    try:
        monkeypatch.chdir(tmp_path)
        with pytest.raises(LockedError):
            LogFile(Path("d/m.json")).lock()
        first.save(DATA)
        os.link(path, tmp_path / "late.json")  # a hard link made while recording: found too
        with pytest.raises(LockedError, match="another name or link"):
            LogFile(Path("late.json")).lock()
    finally:
        first.release()


def test_the_recorder_keeps_only_the_locks_of_versions_with_a_name(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    log = LogFile(path)
    log.lock()
    try:
        for n in range(20):
            log.save(dict(DATA, notes=str(n)))
        assert len(log._held) == 1  # the saved file; the versions it replaced have no name and are let go
        os.link(path, tmp_path / "keep.json")
        log.save(dict(DATA, notes="after the link"))
        assert len(log._held) == 2  # the one under keep.json stays locked
    finally:
        log.release()
    assert log._held == []


def spawn_record(path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", "record", str(path), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def moves(path: Path) -> int:
    return sum(len(g["moves"]) for g in json.loads(path.read_text(encoding="utf-8"))["games"])


@pytest.fixture(scope="module")
def script() -> Script:
    return match_script(20261129)


def test_serve_then_record_through_a_hard_link_the_second_is_refused_and_nothing_is_split(
    tmp_path: Path, script: Script
) -> None:
    pytest.importorskip("starlette")
    from ..builders.server import Server

    path = tmp_path / "m.json"
    (tmp_path / "other").mkdir()
    hard = tmp_path / "other" / "hard.json"
    with Server(path, *ARGS) as server:
        server.feed(script.lines[:8])  # the setup and a few moves, saved
        os.link(path, hard)
        refused = runner.invoke(app, ["record", str(hard)], input="d r 1\nq\n")
        assert refused.exit_code == 3
        assert refused.stderr.splitlines() == [
            f"Error: {hard} is being recorded by another recorder (through another name or link); close that one first"
        ]
        before = moves(path)
        server.feed(script.lines[8:14])
        assert moves(path) > before  # serve goes on in its file
        again = runner.invoke(app, ["record", str(hard)], input="q\n")  # the old version's name: still locked
        assert again.exit_code == 3
        server.stop()
    assert moves(hard) == before  # the hard link kept the version it named; nobody wrote it


def test_two_terminal_recorders_through_a_hard_link(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    assert runner.invoke(app, ["record", str(path), *ARGS], input="blue\nred\ngreen\nyellow\nAiko\nd r 1\n").exit_code == 0
    hard = tmp_path / "hard.json"
    os.link(path, hard)
    first = spawn_record(path)
    try:
        lock = tmp_path / ".m.json.lock"
        end = time.monotonic() + 60  # a generous bound: only a hung recorder reaches it
        while not (lock.exists() and lock.read_text().strip() == str(first.pid)):  # the lock is taken
            assert first.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        second = runner.invoke(app, ["record", str(hard)], input="d bl 2\nq\n")
        assert second.exit_code == 3 and "is being recorded by another recorder" in second.stderr
        _, err = first.communicate("d bl 2\nq\n", timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err
    assert moves(path) == 2 and moves(hard) == 1
