"""The catalogue kept in step with the code: ``python -m coloretto_log.lang.extract``.

Finds every message the package translates (calls of ``t``, ``nt``,
``gettext``, ``ngettext`` and ``N_`` with literal strings, in the modules
that use a ``Translator``, and in the site's Jinja2 templates: ``t`` and ``nt``
inside ``{{ }}`` and ``{% %}``), writes the template ``locales/coloretto.pot``,
and updates each language's ``.po``: new messages are added untranslated
(the catalogue tests then fail until someone translates them), messages no
longer used are dropped. Translations already there are kept.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from . import DOMAIN, LANGUAGES, LOCALES, po_path

PACKAGE = Path(__file__).resolve().parent.parent
KEYWORDS = {"t": None, "nt": (1, 2), "nd": (1, 2), "gettext": None, "ngettext": (1, 2), "N_": None, "NP_": (1, 2),
            "html_t": None, "html_nt": (1, 2), "html_note": None}  # html_*: the site's words put into a page
POT = LOCALES / f"{DOMAIN}.pot"


def _users() -> list[Path]:
    """The package's modules that translate (they name ``Translator`` or mark messages with ``N_``), the
    translating machinery itself (``lang/__init__``, this module) left out."""
    machinery = {PACKAGE / "lang" / "__init__.py", PACKAGE / "lang" / "extract.py"}
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path not in machinery
        and ("Translator" in (text := path.read_text(encoding="utf-8")) or "N_(" in text)
    ]


_TEMPLATE_CODE = re.compile(r"\{\{-?(.*?)-?\}\}|\{%-?(.*?)-?%\}|\{#.*?#\}", re.DOTALL)


def _template_code(text: str) -> bytes:
    """A template's expressions and statements as Python-like lines, each on the line it has in the template
    (the text between them dropped), for Babel's Python extractor."""
    out: list[str] = []
    line = 1
    for m in _TEMPLATE_CODE.finditer(text):
        start = text.count("\n", 0, m.start()) + 1
        out.append("\n" * (start - line))
        line = start
        code = m.group(1) if m.group(1) is not None else m.group(2)
        if code is not None:
            out.append(code.strip() + "\n")
            line += 1 + code.strip().count("\n")
    return "".join(out).encode("utf-8")


def messages() -> dict[str | tuple[str, str], list[tuple[str, int]]]:
    """Every message the code translates (a counted one as its (singular, plural)), with where it is used."""
    from babel.messages.extract import extract

    found: dict[str | tuple[str, str], list[tuple[str, int]]] = {}
    templates = sorted(PACKAGE.glob("*/templates/*.html"))
    for path in [*_users(), *templates]:
        with path.open("rb") as raw:
            f = io.BytesIO(_template_code(raw.read().decode("utf-8"))) if path.suffix == ".html" else raw
            for lineno, message, _comments, _context in extract("python", f, keywords=KEYWORDS):
                if isinstance(message, tuple):
                    if len(message) < 2 or not isinstance(message[0], str) or not isinstance(message[1], str):
                        continue  # a call of the same name that is not a message
                    key: str | tuple[str, str] = (message[0], message[1])
                elif isinstance(message, str):
                    key = message
                else:
                    continue
                found.setdefault(key, []).append((str(path.relative_to(PACKAGE.parent)), lineno))
    return found


def template() -> object:
    from babel.messages.catalog import Catalog

    catalogue = Catalog(domain=DOMAIN, project="coloretto-log", version="1", charset="utf-8")
    for key, where in messages().items():
        catalogue.add(key, locations=where, flags=("python-brace-format",) if "{" in str(key) else ())
    return catalogue


def main() -> int:
    from babel.messages.pofile import read_po, write_po

    pot = template()
    LOCALES.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as f:
        write_po(f, pot, omit_header=False, sort_output=True, width=100)  # type: ignore[arg-type]
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as f:
                catalogue = read_po(f, locale=lang, domain=DOMAIN)
        else:
            from babel.messages.catalog import Catalog

            catalogue = Catalog(locale=lang, domain=DOMAIN, project="coloretto-log", version="1", charset="utf-8")
        catalogue.update(pot, no_fuzzy_matching=True)  # type: ignore[arg-type]
        catalogue.obsolete.clear()
        with path.open("wb") as f:
            write_po(f, catalogue, sort_output=True, width=100, ignore_obsolete=True)
    print(f"{POT}: {len(messages())} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
