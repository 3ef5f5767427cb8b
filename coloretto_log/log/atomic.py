"""Atomic file writes: a temporary file in the same folder, fsync, rename, folder fsync.

Every file a command writes goes through here, so an interruption leaves
either the old file or the new one, never half of either.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, fsync, rename."""
    atomic_write_lines(path, (text,), newline=False, mode=mode)


def atomic_write_lines(path: Path, lines: Iterable[str], *, newline: bool = True, mode: int | None = None) -> None:
    """Write ``lines`` (each followed by a newline unless ``newline=False``) to ``path`` atomically.

    The text goes to a temporary file in the same folder as it comes (a long
    stream is never held in memory), is fsynced, and renamed over ``path``;
    the folder is fsynced too. On any error or interruption the temporary
    file is removed and ``path`` is as it was. ``mode`` (permission bits)
    is given to the new file before the rename; by default the umask's.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    end = "\n" if newline else ""
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(line + end if end else line for line in lines)
            f.flush()
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
