"""Reading match logs from files, folders and standard input, safely.

Every read is bounded and strict: a size limit, regular files only, UTF-8
without a byte-order mark, no duplicate keys, no NaN or Infinity, bounded
nesting. What cannot be parsed becomes a ``Finding`` (rules ``bad-encoding``
and ``bad-json``; ``bad-value`` for a number too long to be read as one, which
no bound of the format comes near); what cannot be read at all raises
``UnreadableFileError``.
"""

from __future__ import annotations

import gc
import io
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..core.errors import Finding, UnreadableFileError

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
    wide: bool = False  # an object in ``data`` holds more than ``WIDE_OBJECT`` keys

    @property
    def label(self) -> str:
        """``FILE`` or ``FILE:LINE``, as findings are prefixed."""
        return self.file if self.line is None else f"{self.file}:{self.line}"


class _DuplicateKey(ValueError):
    pass


#: No object of the log format has more keys than this; a wider one is looked at closely (``Source.wide``).
WIDE_OBJECT = 64


class _NonFinite(ValueError):
    pass


#: The most digits a whole number of the format has: the seed, below 2^64 (20 digits).
FORMAT_DIGITS = len(str(2**64 - 1))
#: A whole number of more digits than this is refused by Python's ``int`` (``sys.get_int_max_str_digits``).
_LONGEST = re.compile(r"(?<![0-9.eE+-])-?[0-9]{4301,}")


class NumberTooLong(ValueError):
    """A whole number too long to read (beyond every bound of the format): the finding's ``rule`` is ``bad-value``."""

    rule = "bad-value"


def finding_rule(e: ValueError) -> str:
    """The rule of a finding for a text that could not be parsed: ``bad-value`` for a number too long, else ``bad-json``."""
    return getattr(e, "rule", "bad-json")


def _too_long(text: str, error: ValueError, *, one_line: bool) -> NumberTooLong:
    """The one line for a number Python would not convert (it says "Exceeds the limit (4300 digits)...")."""
    digits = re.search(r"value has (\d+) digits", str(error))
    found = _LONGEST.search(text)
    size = f"{digits.group(1)} digits" if digits else "thousands of digits"
    where = ""
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - text.rfind("\n", 0, found.start())
        where = f" at column {column}" if one_line else f" at line {line}, column {column}"
        size = f"{len(found.group().lstrip('-'))} digits"
    return NumberTooLong(
        f"a number of {size}{where} is out of range: no value of the log format has more than {FORMAT_DIGITS} digits"
    )


#: The widest object seen by the current parse (reset by each ``parse_json_wide``; parsing is not shared
#: between threads).
_widest = [0]


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > WIDE_OBJECT:
        _widest[0] = max(_widest[0], len(pairs))
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
#: The plain decoder (C dictionaries, no call per object): the fast first pass of ``_parse``.
_FAST_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_CONTAINERS = (dict, list)
_ONLY_OBJECTS = {dict}
#: A key's closing quote followed by whitespace before its colon (then ``":`` does not count every key).
_SPACED_COLON = re.compile(r'"[ \t\r\n]+:')


def _keys_and_widest(value: Any) -> tuple[int, int, int]:
    """How many keys the objects of a parsed value hold together (at most), the most one object holds,
    and the colons in the strings that are values of the objects it looked into (not keys, not items).

    Counts each object once, never more; it may count fewer (what it does
    not look into), which only sends the text to the strict pass. A list of
    objects whose first item holds no object or array (a game's moves) is
    counted at C speed, without looking into its items.
    """
    keys = widest = colons = 0
    stack = [value] if type(value) in _CONTAINERS else []
    pop, push = stack.pop, stack.extend
    containers = _CONTAINERS
    while stack:
        v = pop()
        if type(v) is dict:
            n = len(v)
            keys += n
            widest = max(widest, n)
            for x in v.values():
                if type(x) in containers:
                    stack.append(x)
                elif type(x) is str:
                    colons += x.count(":")
        elif v:  # a non-empty list
            kinds = set(map(type, v))
            if kinds == _ONLY_OBJECTS and not any(type(x) in containers for x in v[0].values()):
                lens = list(map(len, v))  # a game's moves: no call per object; what they nest is not counted
                keys += sum(lens)
                widest = max(widest, *lens)
            elif dict in kinds or list in kinds:
                push([x for x in v if type(x) in containers])
    return keys, widest, colons


def parse_json(text: str, *, one_line: bool = False) -> Any:
    """Parse strict JSON: raises ``ValueError`` with a one-line reason on any problem.

    ``one_line``: the text is one line of a ``.jsonl`` file (whose number the
    finding's label gives), so a position is a column in that line.
    """
    return parse_json_wide(text, one_line=one_line)[0]


def parse_json_wide(text: str, *, one_line: bool = False) -> tuple[Any, bool]:
    """``parse_json``, and whether an object holds more than ``WIDE_OBJECT`` keys (a flood to look at closely)."""
    fast = _parse_fast(text)
    if fast is not None:
        return fast
    _widest[0] = 0
    value = _parse(text, one_line=one_line)
    return value, _widest[0] > WIDE_OBJECT


def _parse_fast(text: str) -> tuple[Any, bool] | None:
    """The value and its width by the plain C decoder, when that is provably what the strict pass gives; else None.

    The strict pass (``_parse``) calls ``_no_duplicates`` on every object to
    find a repeated key, most of its cost. Here the plain decoder parses and
    two counts decide. Each key-value pair is written with a colon outside
    any string, so the text holds at least as many colons as pairs, less the
    colons of the strings the count looked into (without a backslash in the
    text, a string's colons are the text's); and the parsed objects hold
    fewer keys than there were pairs exactly when a key is repeated in one
    object. So when the keys counted equal the colons left, no key is
    repeated and the strict pass would give this same value. With a
    backslash in the text (a colon may be written ``\\u003a``) only the colons
    that close a key count: ``":``, once no whitespace stands between a key
    and its colon (``_SPACED_COLON``). Anything else (an error, a repeated
    key, colons this cannot account for) goes to the strict pass, which
    gives its finding as before.
    """
    escaped = "\\" in text
    if escaped and _SURROGATE_ESCAPE.search(text) is not None:
        return None
    collect = gc.isenabled()
    gc.disable()
    try:
        value, end = _FAST_DECODER.raw_decode(text, _skip_ws(text, 0))
        if _skip_ws(text, end) != len(text):
            return None
        keys, widest, colons = _keys_and_widest(value)
    except (ValueError, RecursionError):  # JSONDecodeError, NaN: the strict pass says why
        return None
    finally:
        if collect:
            gc.enable()
    if escaped:  # a colon in a string may be written \u003a: only the colons that close keys count
        if keys != text.count('":') or _SPACED_COLON.search(text) is not None:
            return None
    elif keys + colons != text.count(":"):
        return None
    return value, widest > WIDE_OBJECT


def _parse(text: str, *, one_line: bool) -> Any:
    if not text.strip():
        raise ValueError("the line is blank" if one_line else "the file is empty: a log holds one JSON object")
    collect = gc.isenabled()
    gc.disable()  # parsed JSON holds no cycles; collecting while a million objects are built costs seconds
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except _DuplicateKey as e:
        raise ValueError(f'duplicate key "{e.args[0]}" in one object') from None
    except _NonFinite as e:
        raise ValueError(f"{e.args[0]} is not valid JSON (only finite numbers are)") from None
    except RecursionError:
        raise ValueError("nesting too deep") from None
    except json.JSONDecodeError as e:
        raise ValueError(_json_error(e.msg, e.lineno, e.colno, one_line=one_line)) from None
    except ValueError as e:  # int() refused a number of thousands of digits
        if "integer string conversion" not in str(e):
            raise
        raise _too_long(text, e, one_line=one_line) from None
    finally:
        if collect:
            gc.enable()
    if _SURROGATE_ESCAPE.search(text) is not None and _has_lone_surrogate(value):
        raise ValueError("a \\u escape names a lone UTF-16 surrogate, which is not a character")
    end = _skip_ws(text, end)
    if end != len(text):
        line = text.count("\n", 0, end) + 1
        col = end - (text.rfind("\n", 0, end) + 1) + 1
        raise ValueError(_json_error("Extra data after the value", line, col, one_line=one_line))
    return value


def _json_error(msg: str, line: int, column: int, *, one_line: bool) -> str:
    """``invalid JSON at line 3, column 8: expecting ',' delimiter``, the parser's message in full."""
    where = f"column {column}" if one_line else f"line {line}, column {column}"
    msg = msg[:1].lower() + msg[1:]
    if msg.endswith(" at"):  # "Unterminated string starting at": the position is where it starts
        return f"invalid JSON: {msg} {where}"
    return f"invalid JSON at {where}: {msg}"


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


def decode(raw: bytes, *, whole_file: bool = True) -> str:
    """Strict UTF-8; raises ``ValueError`` naming a byte-order mark or UTF-16.

    ``whole_file=False`` for one line of a ``.jsonl`` file: the message then
    gives the byte within the line (the line is in the finding's label).
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ValueError("the file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) >= 2 and (raw[0] == 0 or raw[1] == 0)):
        raise ValueError("the file looks like UTF-16; save it as UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        if not whole_file:
            raise ValueError(f"not valid UTF-8 (byte {e.start + 1} of the line)") from None
        line = raw.count(b"\n", 0, e.start) + 1
        raise ValueError(f"not valid UTF-8 (byte {e.start + 1}, line {line})") from None


_LIMIT = f"{MAX_FILE_BYTES // (1024 * 1024)} MiB"


def open_log(path: Path) -> BinaryIO:
    """Open a regular file for reading bytes; ``UnreadableFileError`` for anything else."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UnreadableFileError(f"{path}: no such file or folder") from None
    except OSError as e:
        raise UnreadableFileError(f"{path}: cannot read: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UnreadableFileError(f"{path}: not a regular file but a folder, with no .json or .jsonl files in it")
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFileError(f"{path}: not a regular file")
    try:
        return open(path, "rb")
    except OSError as e:
        raise UnreadableFileError(f"{path}: cannot read: {e.strerror}") from None


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes, refusing anything over ``MAX_FILE_BYTES``."""
    with open_log(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise UnreadableFileError(f"{path}: {size} bytes is over the {_LIMIT} limit for a log")
        return read_stream(f, str(path))


def read_stream(stream: BinaryIO, name: str = "<stdin>") -> bytes:
    """At most ``MAX_FILE_BYTES`` from a stream; ``UnreadableFileError`` beyond."""
    try:
        data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise UnreadableFileError(f"{name}: cannot read: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFileError(f"{name}: over the {_LIMIT} limit for a log")
    return data


def sources_from_bytes(raw: bytes, file: str) -> Iterator[Source]:
    """The one match of a ``.json`` file's bytes (``iter_lines`` reads ``.jsonl``)."""
    try:
        text = decode(raw)
    except ValueError as e:
        yield Source(file, None, problem=Finding("error", "bad-encoding", str(e)))
        return
    yield _parse_source(text, file, None)


def iter_lines(stream: BinaryIO, file: str, *, first_line: int = 1) -> Iterator[Source]:
    """JSON Lines, streamed: one match a non-blank line, each line at most ``MAX_FILE_BYTES``.

    The file as a whole has no size limit (a simulation writes millions of
    matches); memory stays bounded by the longest line. A file without a
    single match is one ``bad-json`` finding saying it is empty.
    """
    number = first_line - 1
    found = False
    while True:
        try:
            raw = stream.readline(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise UnreadableFileError(f"{file}: cannot read: {e.strerror}") from None
        if not raw:
            if not found and first_line == 1:
                yield Source(file, None, problem=Finding("error", "bad-json", "the file is empty: no match in it"))
            return
        found = found or bool(raw.strip())
        number += 1
        if len(raw) > MAX_FILE_BYTES and not raw.endswith(b"\n"):
            while (rest := stream.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            yield Source(file, number, problem=Finding("error", "bad-json", f"a line over the {_LIMIT} limit for one match"))
            continue
        try:
            text = decode(raw, whole_file=False)
        except ValueError as e:
            yield Source(file, number, problem=Finding("error", "bad-encoding", str(e)))
            if number == first_line:
                return  # a byte-order mark or UTF-16: the other lines cannot be read either
            continue
        if text.strip():
            yield _parse_source(text.rstrip("\r\n"), file, number)


def sources_from_stream(stream: BinaryIO, name: str) -> Iterator[Source]:
    """Standard input: one JSON document, or JSON Lines (streamed).

    It is JSON Lines when its first non-blank line is a JSON object on its
    own and another non-blank line follows; otherwise the whole text (at most
    ``MAX_FILE_BYTES``) is one document.
    """
    read: list[bytes] = []  # every line read so far, blank ones included

    def next_line() -> bytes:
        try:
            line = stream.readline(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise UnreadableFileError(f"{name}: cannot read: {e.strerror}") from None
        read.append(line)
        return line

    while (head := next_line()) and not head.strip():
        pass
    first = _object_line(head) if head.endswith(b"\n") else None
    if first is not None:
        head_number = len(read)
        while (following := next_line()) and not following.strip():
            pass
        if following.strip():
            yield Source(name, head_number, data=first)
            yield from iter_lines(io.BytesIO(b"".join(read[head_number:])), name, first_line=head_number + 1)
            yield from iter_lines(stream, name, first_line=len(read) + 1)
            return
    raw = b"".join(read)
    if len(raw) <= MAX_FILE_BYTES:
        raw += read_stream(stream, name)
    if len(raw) > MAX_FILE_BYTES:
        raise UnreadableFileError(f"{name}: over the {_LIMIT} limit for a log")
    yield from sources_from_bytes(raw, name)


def _object_line(raw: bytes) -> dict[str, Any] | None:
    """The JSON object one line holds on its own, or None."""
    try:
        value = parse_json(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError included
        return None
    return value if isinstance(value, dict) else None


def _parse_source(text: str, file: str, line: int | None) -> Source:
    try:
        data, wide = parse_json_wide(text, one_line=line is not None)
        return Source(file, line, data=data, wide=wide)
    except ValueError as e:
        return Source(file, line, problem=Finding("error", finding_rule(e), str(e)))


def expand_paths(paths: list[str]) -> Iterator[str | Path]:
    """Files as given, folders searched recursively (sorted) for ``.json``/``.jsonl``; ``-`` kept."""
    for p in paths:
        if p == STDIN:
            yield STDIN
            continue
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*") if f.suffix in LOG_SUFFIXES and f.is_file())
            yield from found or [path]  # an empty folder is reported as unreadable, not skipped silently
        else:
            yield path


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the form a match's default id is hashed from."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(value: Any) -> str:
    """SHA-256 of the canonical JSON, in hex."""
    import hashlib  # here: only ingest hashes (OpenSSL's hashlib was 2 ms of every other reader's start)

    # surrogatepass: a Python value may hold a lone surrogate (parse_json refuses them in files)
    return hashlib.sha256(canonical_json(value).encode("utf-8", "surrogatepass")).hexdigest()


def default_match_id(value: Any) -> str:
    """The id of a match that has none: ``sha256-`` and the first 16 hex digits of its canonical JSON's hash."""
    return id_of_hash(content_hash(value))


def id_of_hash(digest: str) -> str:
    """The default match id for a content hash (``content_hash``)."""
    return "sha256-" + digest[:16]
