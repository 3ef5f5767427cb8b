"""Indented JSON written a piece at a time: one document of any length in flat memory.

``JsonList("matches", write)`` writes ``{"matches": [v1, v2, ...]}``
exactly as ``json.dumps(..., indent=2, ensure_ascii=False)`` prints it (the
shared ``--json`` form), one value at a time (``add``, then ``close``), so
that a command can print a document of a million matches while it holds one. ``dumps_indented`` is that encoder for one value, about twice as
fast as the standard library's pure-Python indenting encoder on replay's
states. Lone surrogates (from file names that are not UTF-8) come out as
``\\udcXX`` escapes, which read back as the same text and can be printed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

__all__ = ["JsonList", "dumps_indented", "escape_surrogates"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as a ``\\udcXX`` escape."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _dump(value: Any, newline: str) -> str:
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + "  "
        items = (inner + encode_basestring(k) + ": " + _dump(v, inner) for k, v in value.items())
        return "{" + ",".join(items) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + "  "
        return "[" + ",".join(inner + _dump(v, inner) for v in value) + newline + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    # anything else (floats, subclasses, non-string keys) as the standard library writes it
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", newline)


def dumps_indented(value: Any, *, level: int = 0) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, nested ``level`` levels deep; surrogates escaped."""
    text = _dump(value, "\n" + "  " * level)
    return escape_surrogates(text) if _SURROGATE.search(text) else text


class JsonList:
    """Writes ``{key: [v1, v2, ...]}`` (indent 2, ending in a newline) through ``write``, a value at a time."""

    def __init__(self, key: str, write: Callable[[str], object]) -> None:
        self._key = encode_basestring(key)
        self._write = write
        self.count = 0

    def add(self, value: Any) -> None:
        head = "{\n  " + self._key + ": [\n    " if not self.count else ",\n    "
        self._write(head + dumps_indented(value, level=2))
        self.count += 1

    def close(self) -> None:
        self._write("{\n  " + self._key + ": []\n}\n" if not self.count else "\n  ]\n}\n")
