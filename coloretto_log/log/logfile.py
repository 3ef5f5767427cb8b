"""The log a recorder writes: an advisory lock beside it, stray temporary files removed, atomic saves.

Used by ``record`` (and ``serve``): one recorder per file, and a save after
every change that leaves either the old log or the new one on disk.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from typing import Any

from ..core.errors import ColorettoLogError, UnreadableFileError
from .atomic import atomic_write_text, temp_name_pattern, write_problem
from .reader import decode, parse_json, read_bytes
from .writer import dumps_pretty


class NotALogError(ColorettoLogError):
    """The file exists but is not JSON."""


class LockedError(ColorettoLogError):
    """Another recorder holds the file."""


class LogFile:
    """The log being recorded: a lock beside it, stray temporary files removed, atomic saves.

    The lock is ``fcntl.flock`` on the log file itself, held on every version
    of it this recorder made that still has a name, so that a second recorder
    finds it by any route to the file: a symbolic or a hard link, another
    spelling of the path, a bind mount. A save locks the new file before it
    takes the old one's place. Beside it, ``.NAME.lock`` in the same folder
    (also locked) keeps the recorder's process id, named when a second one is
    refused, and guards a log not written yet. Both are advisory: they keep
    a second ``record`` or ``serve`` out, not other programs. Saves go through
    ``atomic.atomic_write_text``: a new temporary ``.NAME.tmp-RANDOM`` in the
    same folder (created exclusively, never through a planted link), fsync,
    rename; a crash between the two leaves that temporary file, which the
    next ``lock()`` removes.

    A symbolic link is followed once, here: the lock, the temporary files and
    the saves are beside the real file (``real``), so the link stays a link
    and a second recorder through another path to the same file is refused.
    A save keeps the file's permission bits; ``lock()`` refuses a file this
    process may not write (read-only, or another user's).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)  # as given: messages name it
        self.real = Path(os.path.realpath(self.path))
        self.lock_path = self.real.with_name(f".{self.real.name}.lock")
        self._fd: int | None = None
        self._held: list[int] = []  # locked descriptors of the log's versions that still have a name
        self._saved: str | None = None

    def _check_writable(self) -> None:
        try:
            st = os.stat(self.real)
        except FileNotFoundError:
            return
        except OSError as e:
            raise UnreadableFileError(f"{self.path}: cannot read: {e.strerror}") from None
        if st.st_mode & 0o222 == 0 or not os.access(self.real, os.W_OK):
            raise UnreadableFileError(f"{self.path} is read-only: make it writable (chmod u+w) to record into it")

    def lock(self) -> list[Path]:
        """Refuse a read-only file, take the lock, then remove stray temporary files; returns the files removed."""
        self._check_writable()
        for _ in range(10):
            created = True
            try:
                try:
                    fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
                except FileExistsError:
                    created = False
                    fd = os.open(self.lock_path, os.O_RDWR)
            except FileNotFoundError:
                continue  # removed by its holder between the two opens: try again
            except OSError as e:
                raise UnreadableFileError(write_problem(self.lock_path, e, "create the lock file")) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                holder = _read_pid(fd)
                os.close(fd)
                if e.errno == errno.EWOULDBLOCK:  # flock's answer when another holds it
                    who = f" (process {holder})" if holder else ""
                    raise LockedError(f"{self.path} is being recorded by another recorder{who}; close that one first") from None
                if created:  # nobody else has it: leave nothing behind
                    try:
                        os.unlink(self.lock_path)
                    except OSError:
                        pass
                raise UnreadableFileError(write_problem(self.lock_path, e, "lock")) from None
            # The holder before us may have removed the lock file just before we locked it.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                try:
                    self._lock_the_file()
                    os.ftruncate(fd, 0)
                    os.write(fd, f"{os.getpid()}\n".encode())
                except OSError as e:  # a full disk, say: nothing of the log was touched
                    self.release()
                    raise UnreadableFileError(write_problem(self.lock_path, e, "write the lock file")) from None
                except BaseException:
                    self.release()
                    raise
                return self._clean_strays()
            os.close(fd)
        raise LockedError(f"{self.path}: could not take the lock {self.lock_path}")  # pragma: no cover

    def _lock_the_file(self) -> None:
        """Lock the log file itself (when it exists), whatever path reaches it; refuse when another recorder has it."""
        try:
            fd = os.open(self.real, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            return  # a new log: the lock beside it guards it until the first save locks the file
        except OSError as e:
            raise UnreadableFileError(f"{self.path}: cannot read: {e.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno == errno.EWOULDBLOCK:
                raise LockedError(
                    f"{self.path} is being recorded by another recorder (through another name or link); "
                    "close that one first"
                ) from None
            raise UnreadableFileError(write_problem(self.path, e, "lock")) from None
        self._held.append(fd)

    def _hold_new(self, fd: int) -> None:
        """Lock a save's new file before it replaces the old one (``atomic_write_text``'s ``before_rename``)."""
        new = os.dup(fd)
        try:
            fcntl.flock(new, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BaseException:
            os.close(new)
            raise
        self._held.append(new)

    def _drop_unnamed(self) -> None:
        """Let go of the versions no name points to any more (each save replaces one; a failed one removes its own)."""
        keep = []
        for fd in self._held:
            try:
                named = os.fstat(fd).st_nlink > 0
            except OSError:
                named = False
            if named:
                keep.append(fd)
            else:
                os.close(fd)
        self._held = keep

    def _clean_strays(self) -> list[Path]:
        pattern = temp_name_pattern(self.real.name)
        removed = []
        folder = self.real.parent
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return []
        for entry in entries:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                try:
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
                except OSError:
                    pass
        return removed

    def release(self) -> None:
        """Remove the lock file and release the lock (in that order, see ``lock``)."""
        if self._fd is None:
            return
        try:
            os.unlink(self.lock_path)
        except OSError:
            pass
        for fd in self._held:
            os.close(fd)
        self._held = []
        os.close(self._fd)
        self._fd = None

    def read(self) -> Any | None:
        """The parsed log, or ``None`` when the file does not exist yet (or is empty: ``touch`` made it)."""
        if not self.path.exists():  # a link to no file yet is a new log too
            return None
        raw = read_bytes(self.path)
        if not raw:
            return None
        try:
            data = parse_json(decode(raw))
        except ValueError as e:
            raise NotALogError(f"not a readable log: {e}") from None
        self._saved = dumps_pretty(data)
        return data

    def save(self, data: dict[str, Any]) -> bool:
        """Write ``data`` atomically if it differs from what was last saved."""
        text = dumps_pretty(data)
        if text == self._saved:
            return False
        hold = self._hold_new if self._fd is not None else None
        try:
            atomic_write_text(self.real, text, before_rename=hold)  # keeps the file's permission bits
        except OSError as e:
            raise UnreadableFileError(write_problem(self.path, e, "save")) from None
        finally:
            self._drop_unnamed()
        self._saved = text
        return True


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
