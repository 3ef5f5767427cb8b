"""Languages: which one a person reads, and the words in it (docs/languages.md).

The bottom layer beside ``core``: it imports only the standard library and
Babel, and Babel only when a language other than English is asked for, so a
command that does not translate never pays its import.

- ``negotiate`` and ``from_environment`` choose a language from what a person
  asked for (``--lang``, ``Accept-Language``, ``LC_ALL``/``LC_MESSAGES``/``LANG``).
- ``translator(lang)`` gives a ``Translator``: ``t`` and ``nt`` (gettext and
  ngettext with ``{name}`` placeholders), ``format_number``, ``format_date``.
- ``Translator.join`` joins a list the language's way (、 in Japanese);
  ``chips.chip_label`` is a card's chip label on a page; ``games`` the
  editions' and tables' names.
- ``page_catalogue(langs, messages)`` gives a page what it needs to switch
  language in the browser without the network: each language's strings, and
  each plural message by CLDR category (what ``Intl.PluralRules`` returns).

The catalogues are gettext ``.po`` files in ``lang/locales/LANG/LC_MESSAGES/``
(template: ``lang/locales/coloretto.pot``), read at run time with Babel and
cached. English is the msgids themselves.
"""

from __future__ import annotations

import datetime as _dt
import functools
import gettext as _gettext
import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

#: The languages a person can choose, English first (the default).
LANGUAGES: tuple[str, ...] = ("en", "ja", "ko", "ru")
DEFAULT = "en"
#: Each language's own name, for a switch on a page.
NATIVE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語", "ko": "한국어", "ru": "Русский"}
DOMAIN = "coloretto"
LOCALES = Path(__file__).parent / "locales"


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; it is translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for the catalogue where it is defined (``Translator.nt`` or ``nd`` shows it)."""
    return (singular, plural)


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _tag(raw: str) -> str | None:
    """``ja_JP.UTF-8`` -> ``ja``; ``C``, ``POSIX`` and empty -> None."""
    tag = raw.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if not tag or tag in ("c", "posix", "*"):
        return None
    return tag.split("_")[0]


def negotiate(requested: Sequence[str] | str, available: Sequence[str] = LANGUAGES) -> str:
    """The first requested language that is available (``ja-JP``, ``ja_JP.UTF-8`` -> ``ja``), else English.

    ``requested`` is a list in order of preference, or an ``Accept-Language``
    header (its ``q`` weights are honoured).

    >>> negotiate(["fr_FR.UTF-8", "ru-RU"])
    'ru'
    >>> negotiate("de;q=0.9, ko-KR;q=0.8, *;q=0.1")
    'ko'
    >>> negotiate(["pt_BR"])
    'en'
    """
    tags = parse_accept_language(requested) if isinstance(requested, str) else list(requested)
    for raw in tags:
        tag = _tag(raw)
        if tag is not None and tag in available:
            return tag
    return DEFAULT


def parse_accept_language(header: str) -> list[str]:
    """An ``Accept-Language`` header's languages, most wanted first (``q=0`` dropped; ties keep their order)."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag.strip() and q > 0:
            weighted.append((-q, i, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def from_environment(environ: Mapping[str, str]) -> str:
    """The terminal's language: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return negotiate([value])
    return DEFAULT


class Translator:
    """The words of one language. English (``translator("en")``) is the msgids and needs no Babel."""

    def __init__(self, lang: str, translations: _gettext.NullTranslations) -> None:
        self.lang = lang
        self._tr = translations

    def gettext(self, message: str) -> str:
        return self._tr.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._tr.ngettext(singular, plural, n)

    def t(self, message: str, /, **values: Any) -> str:
        """``message`` translated, then its ``{name}`` placeholders filled."""
        text = self._tr.gettext(message)
        return text.format(**values) if values else text

    def nt(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        """The plural form for ``n`` (``{n}`` is filled with ``n`` in the locale's digits)."""
        return self._tr.ngettext(singular, plural, n).format(n=self.format_number(n), **values)

    def join(self, items: Iterable[str]) -> str:
        """A list the language's way (``"青、茶"`` in Japanese, ``"blue, brown"`` in English)."""
        return self._tr.gettext(", ").join(items)

    def nd(self, singular: str, plural: str, count: str, /, **values: Any) -> str:
        """The plural form for a count written as a decimal (``"1.5"``, ``"1.0"``), chosen by the CLDR rule of
        the number as written (``"1.0"`` is not "one" in English or Russian: "1.0 points", "1,0 очка");
        ``{n}`` is filled with ``count`` in the locale's symbols (``decimal``)."""
        written = count.lstrip("+-")
        if self.lang == DEFAULT:
            form = self._tr.ngettext(singular, plural, 1 if written == "1" else 2)
        else:
            from decimal import Decimal, InvalidOperation

            from babel import Locale

            try:
                category = str(Locale.parse(self.lang).plural_form(Decimal(written)))
            except InvalidOperation:
                category = "other"
            form = self._tr.ngettext(singular, plural, _sample(self.lang, category))
        return form.format(n=self.decimal(count), **values)

    def decimal(self, text: str) -> str:
        """A number written the Python way (``"-1.5"``, ``"+2"``) with the locale's symbols (``"-1,5"`` in
        Russian): the same digits, the same rounding, in every language."""
        if self.lang == DEFAULT:
            return text
        symbols = number_symbols(self.lang)
        table = {".": symbols["decimal"], "-": symbols["minus"], "+": symbols["plus"]}
        return "".join(table.get(ch, ch) for ch in text)

    def format_number(self, n: float) -> str:
        """``n`` as the locale writes it (English: as Python writes it, so English output is unchanged)."""
        if self.lang == DEFAULT:
            return str(n)
        from babel.numbers import format_decimal

        return str(format_decimal(n, locale=self.lang))

    def format_date(self, d: _dt.date) -> str:
        """A date in the locale's medium form (English: ISO ``2026-12-01``)."""
        if self.lang == DEFAULT:
            return d.isoformat()
        from babel.dates import format_date

        return str(format_date(d, format="medium", locale=self.lang))


ENGLISH = Translator(DEFAULT, _gettext.NullTranslations())


@functools.cache
def number_symbols(lang: str) -> dict[str, str]:
    """The locale's decimal sign, minus and plus (CLDR, through Babel), for ``Translator.decimal`` and pages."""
    if lang == DEFAULT:
        return {"decimal": ".", "minus": "-", "plus": "+"}
    from babel.numbers import get_decimal_symbol, get_minus_sign_symbol, get_plus_sign_symbol

    return {"decimal": str(get_decimal_symbol(lang)), "minus": str(get_minus_sign_symbol(lang)),
            "plus": str(get_plus_sign_symbol(lang))}


@functools.cache
def _catalogue(lang: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translator(lang: str) -> Translator:
    """The translator of ``lang`` (one of ``LANGUAGES``), read from its catalogue once."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    if lang == DEFAULT:
        return ENGLISH
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, _catalogue(lang))
    buffer.seek(0)
    return Translator(lang, _gettext.GNUTranslations(buffer))


def plural_categories(lang: str) -> dict[str, int]:
    """Each CLDR plural category of ``lang`` and the index of the catalogue's form used for it."""
    from babel import Locale

    locale = Locale.parse(lang)
    expr = _gettext.c2py(_plural_expression(lang))
    forms: dict[str, int] = {}
    for n in range(200):
        forms.setdefault(str(locale.plural_form(n)), int(expr(n)))
    # CLDR's "other" may hold only fractions (Russian 1.5): they take the form of 2 ("1,5 карты").
    forms.setdefault("other", int(expr(2)))
    return forms


def _plural_expression(lang: str) -> str:
    if lang == DEFAULT:
        return "(n != 1)"
    return str(_catalogue(lang).plural_expr)


def plural_count(lang: str) -> int:
    """How many plural forms the language's catalogue has (English 2, Russian 3, Japanese and Korean 1)."""
    if lang == DEFAULT:
        return 2
    return int(_catalogue(lang).num_plurals)


def page_catalogue(langs: Iterable[str], messages: Iterable[str | tuple[str, str]]) -> dict[str, Any]:
    """What a page needs to show ``messages`` in each of ``langs`` and switch between them offline.

    ``messages``: msgids, and (singular, plural) pairs for counted ones. The
    result is plain JSON data: ``{lang: {"name", "plural", "messages"}}``;
    a message is a string, a counted one ``{CLDR category: text}`` (choose
    with ``new Intl.PluralRules(lang).select(n)``). Placeholders stay
    ``{name}`` for the page to fill.
    """
    wanted = list(messages)
    out: dict[str, Any] = {}
    for lang in langs:
        tr = translator(lang)
        table: dict[str, Any] = {}
        categories = {"one": 0, "other": 1} if lang == DEFAULT else plural_categories(lang)
        for message in wanted:
            if isinstance(message, tuple):
                singular, plural = message
                samples = {cat: _sample(lang, cat) for cat in categories}
                table[singular] = {cat: tr.ngettext(singular, plural, n) for cat, n in samples.items()}
            else:
                table[message] = tr.gettext(message)
        out[lang] = {"name": NATIVE_NAMES[lang], "plural": _plural_expression(lang), "number": number_symbols(lang),
                     "messages": table}
    return out


def _sample(lang: str, category: str) -> int:
    """A count in ``category`` (English: 1 is "one", 2 is "other")."""
    if lang == DEFAULT:
        return 1 if category == "one" else 2
    from babel import Locale

    locale = Locale.parse(lang)
    return next((n for n in range(200) if locale.plural_form(n) == category), 2)
