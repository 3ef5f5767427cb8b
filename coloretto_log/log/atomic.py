"""Atomic file writes: a temporary file in the same folder, fsync, rename, folder fsync.

Every file a command writes goes through here, so an interruption leaves
either the old file or the new one, never half of either.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import one_line


def atomic_write_text(
    path: Path, text: str, *, mode: int | None = None, before_rename: Callable[[int], None] | None = None
) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, fsync, rename.

    ``before_rename`` is given the temporary file's descriptor once it is
    written and fsynced, before it takes ``path``'s place (the recorder locks
    it there, so that the new file is never unlocked); when it raises,
    nothing is replaced.
    """
    with (
        _replacing(Path(path), mode, before_rename) as fd,
        open(fd, "w", encoding="utf-8", newline="\n", closefd=False) as f,
    ):
        f.write(text)


def atomic_write_lines(path: Path, lines: Iterable[str], *, newline: bool = True, mode: int | None = None) -> None:
    """Write ``lines`` (each followed by a newline unless ``newline=False``) to ``path`` atomically.

    The text goes to a temporary file in the same folder as it comes (a long
    stream is never held in memory), is fsynced, and renamed over ``path``;
    the folder is fsynced too. On any error or interruption the temporary
    file is removed and ``path`` is as it was. ``mode`` (permission bits)
    is the new file's from its creation; by default those of the file it
    replaces, or the umask's for a new file.
    """
    end = "\n" if newline else ""
    with _replacing(Path(path), mode) as fd, open(fd, "w", encoding="utf-8", newline="\n", closefd=False) as f:
        f.writelines(line + end if end else line for line in lines)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None, sync_folder: bool = True) -> None:
    """Write ``data`` to ``path`` atomically, as :func:`atomic_write_lines` writes text (an image, say).

    ``sync_folder=False``: the folder is not flushed to disk after the rename (a caller writing many files in
    one folder flushes it once, with :func:`sync_folder`, when they are all written)."""
    with _replacing(Path(path), mode, flush_folder=sync_folder) as fd, open(fd, "wb", closefd=False) as f:
        f.write(data)


TEMP_INFIX = ".tmp-"
"""A temporary file of ``NAME`` is ``.NAME.tmp-XXXXXXXXXXXXXXXX`` (16 random hex digits): see :func:`temp_name_pattern`."""

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def temp_name_pattern(name: str) -> re.Pattern[str]:
    """The names of the temporary files :func:`atomic_write_lines` makes for a file called ``name``
    (and of those older versions made, ``.NAME.tmp-PID``): what a clean-up after a crash may remove."""
    return re.compile(re.escape(f".{name}{TEMP_INFIX}") + r"(?:[0-9a-f]{16}|[0-9]+)")


def _random_hex() -> str:
    """16 random hex digits: ``secrets.token_hex(8)``, which reads ``os.urandom``; importing ``secrets``
    (hashlib, random) was 3 ms of each command's start."""
    return os.urandom(8).hex()


def _create_temp(path: Path, mode: int | None) -> tuple[Path, int]:
    """A new temporary file beside ``path`` with an unpredictable name, made by this call alone
    (``O_EXCL``: never an existing file, nor through a planted link), with its permission bits from the start."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}{TEMP_INFIX}{_random_hex()}")
        try:
            fd = os.open(tmp, _CREATE, 0o666 if mode is None else mode & 0o777)
        except FileExistsError:  # pragma: no cover - 64 random bits
            continue
        if mode is not None:
            try:
                os.fchmod(fd, mode)  # the umask may have taken bits the file had
            except BaseException:
                os.close(fd)
                os.unlink(tmp)
                raise
        return tmp, fd
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))  # pragma: no cover


@contextmanager
def _replacing(
    path: Path, mode: int | None, before_rename: Callable[[int], None] | None = None, *, flush_folder: bool = True
) -> Iterator[int]:
    """The descriptor of a new temporary file to fill, beside ``path`` (see :func:`_create_temp`); on success
    it is fsynced and renamed over ``path`` and the folder fsynced; on any error or interruption it is removed
    and ``path`` left alone."""
    if mode is None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode) & 0o777  # a file replaced keeps its permissions (not set-id bits)
        except OSError:
            pass
    tmp, fd = _create_temp(path, mode)
    try:
        try:
            yield fd
            os.fsync(fd)
            if before_rename is not None:
                before_rename(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if flush_folder:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Flush ``folder`` (the names renamed into it) to disk; a folder that cannot be flushed is passed over."""
    try:
        dir_fd = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


_ADVICE = {
    errno.ENOSPC: "the disk is full: free some space, then run the command again",
    errno.EDQUOT: "the disk quota is used up: free some space, then run the command again",
    errno.EFBIG: "the file is too large for this disk: write it elsewhere",
    errno.EACCES: "permission denied: check the permissions of the file and its folder, or write elsewhere",
    errno.EPERM: "not permitted: check the permissions of the file and its folder, or write elsewhere",
    errno.EROFS: "the disk is read-only: write elsewhere",
    errno.EIO: "the disk reported an input/output error: check it, then run the command again",
}


def write_problem(path: str | Path, e: OSError, action: str = "write") -> str:
    """One line for a failed write: the file, what failed and why, and what to do (by ``e.errno``).

    ``action`` says what was being done (``write``, ``save``, ``create the lock file``...).
    """
    why = e.strerror or str(e) or type(e).__name__
    advice = _ADVICE.get(e.errno or 0, "check the file and its folder, then run the command again")
    return f"{one_line(str(path))}: cannot {action} ({why}); {advice}"


def same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` name one file (through links, other spellings of the path, or hard links)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except OSError:
        return False


DUCKDB = "a DuckDB database"
MATCH_LOG = "a match log"

#: How ``simulate`` begins each match's ``notes``: what tells its earlier output from a log people kept.
SIMULATED_NOTE = "simulated: coloretto-log simulate"

_SNIFF = 65536
_LOG_MARKER = re.compile(rb'"format"\s*:\s*"coloretto-log"')
_SIMULATED_MARKER = re.compile(rb'"notes"\s*:\s*"' + re.escape(SIMULATED_NOTE.encode()))


def _regular(path: Path) -> bool:
    """``path`` (through links) is a regular file: one that can be read without waiting (not a FIFO, say)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def duckdb_header(head: bytes) -> bool:
    """``head`` (a file's first 12 bytes) is DuckDB's header: ``DUCK`` at byte 8."""
    return len(head) >= 12 and head[8:12] == b"DUCK"


def is_duckdb_file(path: Path) -> bool:
    """``path`` is a regular file that starts with DuckDB's header."""
    if not _regular(path):
        return False
    try:
        with open(path, "rb") as f:
            return duckdb_header(f.read(12))
    except OSError:
        return False


def _log_head(path: Path) -> bytes | None:
    """The first 64 KiB of ``path`` when they read as a match log: a JSON object (or JSON Lines of them)
    carrying the format's marker ``"format": "coloretto-log"`` (a cheap sniff, not a parse); else None."""
    if not _regular(path):
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF)
    except OSError:
        return None
    body = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    return body if body.startswith(b"{") and _LOG_MARKER.search(body) is not None else None


def reads_as_match_log(path: Path) -> bool:
    """``path`` is a regular file whose first 64 KiB read as a match log (``_log_head``)."""
    return _log_head(path) is not None


def written_by_simulate(path: Path) -> bool:
    """``path`` reads as a match log whose first match carries ``simulate``'s note (``SIMULATED_NOTE``)
    within its first 64 KiB: an earlier output of ``simulate``, not a log people recorded."""
    head = _log_head(path)
    return head is not None and _SIMULATED_MARKER.search(head) is not None


def kind_of_file(path: Path) -> str | None:
    """:data:`DUCKDB` or :data:`MATCH_LOG` when the existing file at ``path`` (through links) is one, else None."""
    if is_duckdb_file(path):
        return DUCKDB
    if reads_as_match_log(path):
        return MATCH_LOG
    return None


def output_problem(
    out: Path,
    *,
    inputs: Iterable[Path],
    force: bool,
    what: str = "an input of this command",
    writes: str | None = None,
) -> str | None:
    """Why a command must not write ``out`` (one line naming it), or None.

    The rule of every command that writes: never onto one of its ``inputs``
    (``what`` says which), even with ``force``; never onto a folder; never
    onto a DuckDB database or a match log (:func:`kind_of_file`) unless that
    is the kind of file the command itself writes (``writes``: ``simulate
    --out`` writes match logs, and replaces only one it wrote,
    :func:`written_by_simulate`), even with ``force``: ``--force`` replaces an
    earlier output, never a database or a log; an existing file only with
    ``force``. (A folder that cannot be written is found by the write
    itself, or asked of :func:`parent_problem`.) Names are shown with
    control characters escaped.
    """
    shown = one_line(str(out))
    for src in inputs:
        if same_file(out, src):
            return f"{shown}: is {what}; write to another file"
    if out.is_dir():
        return f"{shown}: is a folder; give a file name"
    kind = kind_of_file(out)
    if kind is not None and kind != writes:
        return f"{shown}: is {kind}, which this command never replaces (not even with --force); write to another file"
    if kind == MATCH_LOG and not written_by_simulate(out):
        return (f"{shown}: is a match log that simulate did not write, which it never replaces (not even with "
                "--force); write to another file")
    if (out.exists() or out.is_symlink()) and not force:
        return f"{shown}: already exists; give another file name, or --force to replace it"
    return None


def parent_problem(out: Path) -> str | None:
    """Why nothing can be written at ``out``'s place (no such folder, no permission), or None."""
    parent = Path(os.path.realpath(out)).parent
    if not parent.is_dir():
        return f"{one_line(str(out.parent))}: no such folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{one_line(str(parent))}: cannot write into this folder (permission denied)"
    return None
