"""The names of the people at a club night or a tournament (``tables``, ``tournament new``): one person, one name.

Two names that a reader cannot tell apart are refused, since the tables,
the standings and the pages would show two people where the eye sees one
(or one record split in two): names equal once Unicode-normalized (NFKC:
``ﬁ`` and ``fi``, a full-width ``Ａ`` and ``A``, ``é`` as one character or
as ``e`` and an accent), once case is set aside (``Aiko``, ``aiko``), and
once the characters that show nothing are dropped: controls, bidirectional
marks and overrides, zero-width characters (Unicode's Cc and Cf), and runs
of spaces counted as one. A name that shows nothing at all is refused, and
one longer than the log format allows (40 characters: ``log.limits``, given
by the caller, as this room reads ``core`` only). Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["NameProblem", "check_names", "likeness"]


class NameProblem(ValueError):
    """A name, or two names, that cannot be told apart or do not fit (one line saying why)."""


def _visible(text: str) -> str:
    """``text`` without the characters that show nothing (Cc, Cf), its runs of spaces as one."""
    return " ".join("".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).split())


def likeness(name: str) -> str:
    """What a reader sees of ``name``: NFKC, case folded, invisible characters dropped, spaces as one. Two names of
    the same likeness look alike."""
    return unicodedata.normalize("NFKC", _visible(unicodedata.normalize("NFKC", name)).casefold())


def _why(a: str, b: str) -> str:
    """How two names of the same likeness differ: the first of normalization, case, invisible characters."""
    if unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return "they differ only by Unicode normalization (the same letters written with other code points)"
    if _visible(a) == _visible(b):
        return "they differ only by characters that show nothing (control, bidirectional or zero-width) or spaces"
    if unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold():
        return "they differ only by case"
    return "they differ only by case, Unicode normalization and characters that show nothing"


def check_names(names: Sequence[str], *, max_length: int) -> None:
    """Refuse (:class:`NameProblem`) a name longer than ``max_length`` characters, one that shows nothing, and two
    names that look alike (:func:`likeness`); the message names them with ``repr`` (escapes for what does not
    show)."""
    seen: dict[str, str] = {}
    for name in names:
        if len(name) > max_length:
            raise NameProblem(f"{_shown(name)} has {len(name)} characters; a player's name in a log has at most "
                              f"{max_length}")
        key = likeness(name)
        if not key:
            raise NameProblem(f"{_shown(name)} shows nothing (only spaces, control or invisible characters)")
        other = seen.setdefault(key, name)
        if other != name:
            raise NameProblem(f"{_shown(other)} and {_shown(name)} look alike: {_why(other, name)}; two people need "
                              "two names a reader can tell apart")


def _shown(name: str) -> str:
    """A name in a message: quoted, with what does not show (and what is not ASCII-printable) as escapes."""
    return ascii(name) if any(unicodedata.category(c) in ("Cc", "Cf", "Zs") and c != " " for c in name) else repr(name)
