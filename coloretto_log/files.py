"""Reading match logs from files, folders and standard input, safely.

Every read is bounded and strict: a size limit, regular files only, UTF-8
without a byte-order mark, no duplicate keys, no NaN or Infinity, bounded
nesting. What cannot be parsed becomes a ``Finding`` (rules ``bad-encoding``
and ``bad-json``); what cannot be read at all raises ``UnreadableFileError``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .errors import Finding, UnreadableFileError

MAX_FILE_BYTES = 16 * 1024 * 1024
LOG_SUFFIXES = (".json", ".jsonl")
STDIN = "-"


@dataclass(frozen=True, slots=True)
class Source:
    """One match's text as read: where it came from, and its parsed JSON or why not."""

    file: str  # the path as given (or "<stdin>")
    line: int | None  # 1-based line in a .jsonl file
    data: Any = None  # the parsed JSON value when ``problem`` is None
    problem: Finding | None = None

    @property
    def label(self) -> str:
        """``FILE`` or ``FILE:LINE``, as findings are prefixed."""
        return self.file if self.line is None else f"{self.file}:{self.line}"


class _DuplicateKey(ValueError):
    pass


class _NonFinite(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return d


def _no_constant(name: str) -> Any:
    raise _NonFinite(name)


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def parse_json(text: str) -> Any:
    """Parse strict JSON: raises ``ValueError`` with a one-line reason on any problem."""
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except _DuplicateKey as e:
        raise ValueError(f'duplicate key "{e.args[0]}" in one object') from None
    except _NonFinite as e:
        raise ValueError(f"{e.args[0]} is not valid JSON (only finite numbers are)") from None
    except RecursionError:
        raise ValueError("nesting too deep") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    if _SURROGATE_ESCAPE.search(text) is not None and _has_lone_surrogate(value):
        raise ValueError("a \\u escape names a lone UTF-16 surrogate, which is not a character")
    end = _skip_ws(text, end)
    if end != len(text):
        line = text.count("\n", 0, end) + 1
        col = end - (text.rfind("\n", 0, end) + 1) + 1
        raise ValueError(f"invalid JSON at line {line}, column {col}: extra data after the value")
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value: Any) -> bool:
    """True if a string anywhere in ``value`` holds a surrogate (a pair of escapes decodes to one character)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return i


def decode(raw: bytes) -> str:
    """Strict UTF-8; raises ``ValueError`` naming a byte-order mark or UTF-16."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ValueError("the file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) >= 2 and (raw[0] == 0 or raw[1] == 0)):
        raise ValueError("the file looks like UTF-16; save it as UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise ValueError(f"not valid UTF-8 (byte {e.start + 1}, line {line})") from None


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes, refusing anything over ``MAX_FILE_BYTES``."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UnreadableFileError(f"{path}: no such file or folder") from None
    except OSError as e:
        raise UnreadableFileError(f"{path}: cannot read: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFileError(f"{path}: not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise UnreadableFileError(f"{path}: {st.st_size} bytes is over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for a log")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise UnreadableFileError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFileError(f"{path}: over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for a log")
    return data


def read_stream(stream: BinaryIO, name: str = "<stdin>") -> bytes:
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFileError(f"{name}: over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for a log")
    return data


def sources_from_bytes(raw: bytes, file: str, *, lines: bool | None) -> Iterator[Source]:
    """The matches in one file's bytes: one (``.json``) or one per non-blank line (``.jsonl``).

    ``lines=None`` decides from the text: one JSON document if it parses as
    one, else JSON Lines when its first line is a document of its own.
    """
    try:
        text = decode(raw)
    except ValueError as e:
        yield Source(file, None, problem=Finding("error", "bad-encoding", str(e)))
        return
    if lines is None:
        single = _parse_source(text, file, None)
        first_line = text.lstrip().split("\n", 1)[0]
        if single.problem is None or _parse_source(first_line, file, 1).problem is not None:
            yield single
            return
        lines = True
    if not lines:
        yield _parse_source(text, file, None)
        return
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield _parse_source(line, file, number)


def _parse_source(text: str, file: str, line: int | None) -> Source:
    try:
        return Source(file, line, data=parse_json(text))
    except ValueError as e:
        return Source(file, line, problem=Finding("error", "bad-json", str(e)))


def expand_paths(paths: list[str]) -> Iterator[str | Path]:
    """Files as given, folders searched recursively (sorted) for ``.json``/``.jsonl``; ``-`` kept."""
    for p in paths:
        if p == STDIN:
            yield STDIN
            continue
        path = Path(p)
        if path.is_dir():
            found = sorted(
                f for f in path.rglob("*") if f.suffix in LOG_SUFFIXES and f.is_file()
            )
            yield from found
        else:
            yield path


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the form a match's default id is hashed from."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(value: Any) -> str:
    """SHA-256 of the canonical JSON, in hex."""
    # surrogatepass: a Python value may hold a lone surrogate (parse_json refuses them in files)
    return hashlib.sha256(canonical_json(value).encode("utf-8", "surrogatepass")).hexdigest()


def default_match_id(value: Any) -> str:
    """The id of a match that has none: ``sha256-`` and the first 16 hex digits of its canonical JSON's hash."""
    return "sha256-" + content_hash(value)[:16]


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, fsync, rename."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
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
