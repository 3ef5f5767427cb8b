"""Where a database command may write: never onto what it reads, never over a file unless asked.

:func:`output_problem` checks an output file (``export --bgstats``, ``stats
--png``); :func:`folder_problem` the new folder of ``export --parquet``.
Each returns one line saying what is wrong, or None.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...log.atomic import output_problem as file_problem
from ...log.atomic import parent_problem as _writable_parent
from ..errors import shown
from ..schema import TABLES

__all__ = ["folder_problem", "output_problem"]


def output_problem(out: Path, *, inputs: list[Path], force: bool) -> str | None:
    """Why ``out`` must not be written (one line), or None: :func:`log.atomic.output_problem`,
    with the database's write-ahead log counted as part of the database."""
    databases = [p for src in inputs for p in (src, Path(f"{src}.wal"))]
    problem = file_problem(out, inputs=databases, force=force, what="the database this command reads")
    return problem if problem is not None else _writable_parent(out)


def is_earlier_export(folder: Path) -> bool:
    """``folder`` holds only what ``export --parquet`` writes: one folder per table."""
    entries = list(folder.iterdir())
    return bool(entries) and all(e.is_dir() and not e.is_symlink() and e.name in TABLES for e in entries)


def folder_problem(folder: Path, *, inputs: list[Path], force: bool) -> str | None:
    """Why ``export --parquet`` must not write the folder ``folder`` (one line), or None.

    It must be new or empty, a real folder (not a symbolic link), not hold a
    file the command reads; with ``force`` it may be an earlier export, which
    is replaced.
    """
    where = shown(folder)
    if folder.is_symlink():
        target = shown(os.path.realpath(folder))
        return (
            f"{where}: is a symbolic link (to {target}), not a folder; give the real folder or a new name"
        )
    for src in inputs:
        try:
            if Path(os.path.realpath(src)).is_relative_to(os.path.realpath(folder)):
                return f"{where}: holds {shown(src)}, which this command reads; choose a new folder"
        except OSError:
            pass
    if folder.exists() and not folder.is_dir():
        return f"{where}: is a file, not a folder; choose a new folder name"
    if folder.is_dir():
        try:
            empty = not any(folder.iterdir())
            earlier = not empty and is_earlier_export(folder)
        except OSError as e:
            return f"{where}: cannot read this folder ({e.strerror})"
        if not empty and not (force and earlier):
            if earlier:
                return f"{where}: holds an earlier export; choose a new folder, or --force to replace it"
            return f"{where}: exists and is not empty; choose a new folder"
    return _writable_parent(folder)
