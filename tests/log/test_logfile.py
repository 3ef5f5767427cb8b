"""The locked, atomically saved log a recorder writes (``coloretto_log.log.logfile``)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from coloretto_log.log.logfile import LockedError, LogFile, NotALogError


def test_lock_refuses_a_second_holder_and_is_released(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    a, b = LogFile(path), LogFile(path)
    a.lock()
    assert (tmp_path / ".kitchen.json.lock").read_text().strip() == str(os.getpid())
    with pytest.raises(LockedError, match=rf"being recorded by another recorder \(process {os.getpid()}\)"):
        b.lock()
    a.release()
    assert not (tmp_path / ".kitchen.json.lock").exists()
    b.lock()
    b.release()


def test_lock_removes_stray_temporary_files_only(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    strays = [tmp_path / ".kitchen.json.tmp-123", tmp_path / ".kitchen.json.tmp-9"]
    keep = [tmp_path / ".other.json.tmp-1", tmp_path / ".kitchen.json.tmp-x", tmp_path / "kitchen.json.tmp-1"]
    for p in strays + keep:
        p.write_text("{")
    log = LogFile(path)
    assert sorted(log.lock()) == sorted(strays)
    log.release()
    assert all(not p.exists() for p in strays) and all(p.exists() for p in keep)


def test_save_is_atomic_and_skips_unchanged_data(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    log = LogFile(path)
    data = {"format": "coloretto-log", "version": 1, "players": ["A", "B"], "games": []}
    assert log.save(data) is True
    assert log.save(copy.deepcopy(data)) is False
    assert json.loads(path.read_text()) == data
    assert [p.name for p in tmp_path.iterdir()] == ["kitchen.json"]
    again = LogFile(path)
    assert again.read() == data and again.save(data) is False


def test_read_of_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    path.write_text('{"format": ')
    with pytest.raises(NotALogError, match="not a readable log: invalid JSON"):
        LogFile(path).read()
    assert LogFile(tmp_path / "none.json").read() is None
