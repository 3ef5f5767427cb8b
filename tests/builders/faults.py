"""Fault injection for the writers: the k-th write, fsync, rename, lock, mkdir or file creation fails.

:class:`Faults` counts, in this process, every operation a command makes
that can fail on a full or broken disk, through the functions the package
calls: ``os.open`` with a writing flag, ``os.write``, a write to a file
object opened by ``log/atomic.py``, ``os.fsync``, ``os.replace`` and
``os.rename``, ``os.mkdir``, ``fcntl.flock``, and DuckDB's writing
statements (``INSERT``, ``DELETE``, ``CREATE``, ``COMMIT``, ``CHECKPOINT``,
``COPY``...) on the connections ``MatchStore`` and the rebuild open. With
``fail_at=k`` the k-th of them raises ``OSError(code)`` (or DuckDB's
``IOException`` with the system's words for it) instead of running. Each
point is recorded as (operation, file), so that a test can say how many a
command has and that each was reached.
"""

from __future__ import annotations

import builtins
import errno
import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import pytest
from typing_extensions import Self

#: The errors tried, in turn: the k-th point fails with CODES[k % 3].
CODES = (errno.ENOSPC, errno.EIO, errno.EACCES)
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT
_DB_WRITES = ("INSERT", "DELETE", "CREATE", "DROP", "UPDATE", "COMMIT", "CHECKPOINT", "COPY", "ALTER")


class Faults:
    """Counts the fault points reached; the ``fail_at``-th one fails with ``code``."""

    def __init__(self, fail_at: int | None = None, code: int = errno.ENOSPC) -> None:
        self.fail_at = fail_at
        self.code = code
        self.points: list[tuple[str, str]] = []
        self.failed: tuple[str, str] | None = None

    def hit(self, op: str, target: Any = "") -> None:
        self.points.append((op, os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike)) else str(target)))
        if self.fail_at is not None and len(self.points) == self.fail_at:
            self.failed = self.points[-1]
            raise OSError(self.code, os.strerror(self.code), self.points[-1][1] or None)

    def db_hit(self, sql: str, path: str) -> None:
        try:
            self.hit("db-write", path)
        except OSError as e:
            raise duckdb.IOException(f'IO Error: Could not write file "{path}": {e.strerror}') from None


class _File:
    """A file object whose writes are fault points (what ``atomic`` writes a temporary file through)."""

    def __init__(self, real: Any, faults: Faults, name: str) -> None:
        self._real, self._faults, self._name = real, faults, name

    def write(self, data: Any) -> int:
        self._faults.hit("write", self._name)
        return int(self._real.write(data))

    def writelines(self, lines: Any) -> None:
        self._faults.hit("write", self._name)
        self._real.writelines(lines)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _Connection:
    """A DuckDB connection whose writing statements are fault points."""

    def __init__(self, real: duckdb.DuckDBPyConnection, faults: Faults, path: str) -> None:
        self._real, self._faults, self._path = real, faults, path

    def _check(self, sql: str) -> None:
        if sql.lstrip().split(None, 1)[0].upper() in _DB_WRITES:
            self._faults.db_hit(sql, self._path)

    def execute(self, sql: str, *args: Any) -> Any:
        self._check(sql)
        result = self._real.execute(sql, *args)
        return self if result is self._real else result

    def executemany(self, sql: str, *args: Any) -> Any:
        self._check(sql)
        self._real.executemany(sql, *args)
        return self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@contextmanager
def injected(faults: Faults) -> Iterator[Faults]:
    """Install ``faults`` on every operation it counts, for the block."""
    from coloretto_log.log import atomic

    real: dict[str, Callable[..., Any]] = {
        "open": os.open, "write": os.write, "fsync": os.fsync, "replace": os.replace, "rename": os.rename,
        "mkdir": os.mkdir, "flock": fcntl.flock, "connect": duckdb.connect,
    }  # fmt: skip

    def os_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & _WRITING:
            faults.hit("create" if flags & os.O_CREAT else "open", path)
        return int(real["open"](path, flags, *args, **kw))

    def os_write(fd: int, data: Any) -> int:
        faults.hit("write", f"fd {fd}")
        return int(real["write"](fd, data))

    def os_fsync(fd: Any) -> None:
        faults.hit("fsync", f"fd {fd}")
        real["fsync"](fd)

    def os_replace(src: Any, dst: Any, **kw: Any) -> None:
        faults.hit("rename", dst)
        real["replace"](src, dst, **kw)

    def os_rename(src: Any, dst: Any, **kw: Any) -> None:
        faults.hit("rename", dst)
        real["rename"](src, dst, **kw)

    def os_mkdir(path: Any, *args: Any, **kw: Any) -> None:
        faults.hit("mkdir", path)
        real["mkdir"](path, *args, **kw)

    def flock(fd: Any, op: int) -> None:
        if op & (fcntl.LOCK_EX | fcntl.LOCK_SH):
            faults.hit("lock", f"fd {fd}")
        real["flock"](fd, op)

    def atomic_open(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        f = builtins.open(file, mode, *args, **kw)  # noqa: SIM115 - closed by the caller's with
        return _File(f, faults, f"fd {file}") if any(c in mode for c in "wax+") else f

    def connect(database: Any = ":memory:", *args: Any, **kw: Any) -> Any:
        con = real["connect"](database, *args, **kw)
        return con if kw.get("read_only") else _Connection(con, faults, os.fsdecode(database))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "open", os_open)
        mp.setattr(os, "write", os_write)
        mp.setattr(os, "fsync", os_fsync)
        mp.setattr(os, "replace", os_replace)
        mp.setattr(os, "rename", os_rename)
        mp.setattr(os, "mkdir", os_mkdir)
        mp.setattr(fcntl, "flock", flock)
        mp.setattr(duckdb, "connect", connect)
        mp.setattr(atomic, "open", atomic_open, raising=False)
        yield faults
