"""``record`` and ``serve`` started on a full disk (or a failing one): exit 3 and one line that says what to do.

Writing the recorder's process id into its lock file was the one unguarded
write of a start: it ended in exit 70 and Python's words.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app

from ..builders.record import DATE, FOUR

runner = CliRunner()
ARGS = ["--players", ",".join(FOUR), "--date", DATE]
ADVICE = {
    errno.ENOSPC: "the disk is full: free some space, then run the command again",
    errno.EIO: "the disk reported an input/output error: check it, then run the command again",
    errno.EACCES: "permission denied: check the permissions of the file and its folder, or write elsewhere",
}


def failing_pid_write(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """The write of this process's id (the lock file's content) fails with ``code``; every other write is left alone."""
    write = os.write
    pid = f"{os.getpid()}\n".encode()

    def fake(fd: int, data: Any) -> int:
        if bytes(data) == pid:
            raise OSError(code, os.strerror(code))
        return write(fd, data)

    monkeypatch.setattr(os, "write", fake)


@pytest.mark.parametrize("command", ["record", "serve"])
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO, errno.EACCES])
def test_the_lock_files_write_fails_exit_3_one_line_and_nothing_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, code: int
) -> None:
    if command == "serve":
        pytest.importorskip("starlette")
    path = tmp_path / "kitchen.json"
    path.write_text('{"format": "coloretto-log", "version": 1, "players": ["A", "B"], "games": []}', encoding="utf-8")
    before = path.read_bytes()
    failing_pid_write(monkeypatch, code)
    result = runner.invoke(app, [command, str(path), *ARGS, *(["--port", "0"] if command == "serve" else [])], input="q\n")
    assert result.exit_code == 3, result.output
    lock = tmp_path / ".kitchen.json.lock"
    assert result.stderr.splitlines() == [
        f"Error: {lock}: cannot write the lock file ({os.strerror(code)}); {ADVICE[code]}"
    ]
    assert "Traceback" not in result.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kitchen.json"]  # no lock file, no token left
    monkeypatch.undo()
    again = runner.invoke(app, ["record", str(path)], input="q\n")  # the disk has room again: it starts
    assert again.exit_code == 0, again.output
