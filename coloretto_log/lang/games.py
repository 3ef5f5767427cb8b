"""The editions' and scoring tables' names as players read them, in a translator's language.

The names typed (``--edition classic``) and logged stay the same in every
language; these are the words a screen or a page shows for them. An edition
or a table no catalogue knows (one added to ``core/editions``) is shown by
its name, then "edition" or "table".
"""

from __future__ import annotations

from . import ENGLISH, N_, Translator

__all__ = ["EDITION_WORDS", "TABLE_WORDS", "edition_word", "table_word"]

EDITION_WORDS: dict[str, str] = {"classic": N_("classic edition"), "anniversary": N_("anniversary edition")}
TABLE_WORDS: dict[str, str] = {"standard": N_("standard table"), "alternative": N_("alternative table")}


def edition_word(name: str, tr: Translator = ENGLISH) -> str:
    """``classic edition`` in ``tr``'s language (an edition no catalogue knows: its name, then "edition")."""
    word = EDITION_WORDS.get(name)
    return tr.gettext(word) if word is not None else tr.t("{name} edition", name=name)


def table_word(name: str, tr: Translator = ENGLISH) -> str:
    """``standard table`` in ``tr``'s language (a table no catalogue knows: its name, then "table")."""
    word = TABLE_WORDS.get(name)
    return tr.gettext(word) if word is not None else tr.t("{name} table", name=name)
