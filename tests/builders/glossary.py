"""The glossaries (docs/glossary-LANG.md) and the catalogues as tables, for the tests of tests/lang/."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from coloretto_log.lang import po_path

from ..conftest import ROOT


def glossary(lang: str) -> list[dict[str, str]]:
    """The rows of the glossary table: English, word, stem, rulebook, notes."""
    text = (ROOT / "docs" / f"glossary-{lang}.md").read_text(encoding="utf-8")
    return _table(text.split("\n## ")[0], ("english", "word", "stem", "rulebook", "notes"))


def one_way(lang: str) -> list[dict[str, str]]:
    """The rows of the table "One term, one translation": English (a regular expression), word, never, ..."""
    text = (ROOT / "docs" / f"glossary-{lang}.md").read_text(encoding="utf-8")
    section = text.split("\n## One term, one translation\n")[1].split("\n## ")[0]
    return _table(section, ("english", "word", "never", "rulebook", "notes"))


def _table(text: str, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """A Markdown table's rows (not its head), each cell stripped of spaces and backquotes (``\\|`` is a ``|``)."""
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| English")]
    out = []
    for line in rows:
        cells = [c.strip().strip("`").replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        out.append(dict(zip(columns, cells)))
    return out


def catalogue(lang: str) -> dict[str, str]:
    """msgid -> translation (a counted message: its singular -> every form, joined)."""
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    out = {}
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            out[m.id[0]] = " / ".join(m.string)
            out[m.id[1]] = out[m.id[0]]
        else:
            out[m.id] = m.string
    return out
