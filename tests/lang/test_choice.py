"""Choosing a language: the locale environment, Accept-Language, and what a page is given."""

from __future__ import annotations

import datetime as dt

import pytest

from coloretto_log.lang import (
    ENGLISH,
    from_environment,
    negotiate,
    page_catalogue,
    parse_accept_language,
    plural_count,
    translator,
)


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "ja_JP.UTF-8"}, "ru"),  # LC_ALL first
        ({"LC_MESSAGES": "ko_KR", "LANG": "ja_JP.UTF-8"}, "ko"),  # then LC_MESSAGES
        ({"LC_ALL": "", "LANG": "ja_JP.eucJP"}, "ja"),  # an empty variable is not set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # not a language we have: English
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),  # the first set one decides
        ({}, "en"),
    ],
)
def test_the_terminal_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert from_environment(environ) == lang


def test_accept_language_is_read_by_weight() -> None:
    assert parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de", "*"]
    assert negotiate("de-DE,de;q=0.9,ru;q=0.8,ja;q=0.95") == "ja"
    assert negotiate("ko;q=0, ru") == "ru"  # q=0: not acceptable
    assert negotiate("") == "en" and negotiate("xx;q=bad") == "en"


def test_numbers_and_dates_in_the_locale_form() -> None:
    day = dt.date(2026, 11, 29)
    assert ENGLISH.format_date(day) == "2026-11-29" and ENGLISH.format_number(1234) == "1234"
    assert translator("ja").format_date(day) == "2026/11/29"
    assert translator("ru").format_number(1234567).replace("\u00a0", " ") == "1 234 567"
    assert "2026" in translator("ko").format_date(day) and "11" in translator("ko").format_date(day)


def test_unknown_language_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        translator("fr")


def test_a_page_catalogue_switches_languages_offline() -> None:
    """Plain data: each language's strings, and counted ones by CLDR category (Intl.PluralRules)."""
    counted = ("The match is {n} game", "The match is {n} games")
    page = page_catalogue(["en", "ja", "ru"], ["red", "{who}'s move", counted])
    assert list(page) == ["en", "ja", "ru"]
    assert page["ja"]["messages"]["red"] == "赤" and page["ru"]["messages"]["red"] == "красный"
    assert page["en"]["messages"][counted[0]] == {"one": "The match is {n} game", "other": "The match is {n} games"}
    ru = page["ru"]["messages"][counted[0]]
    assert set(ru) == {"one", "few", "many", "other"}
    assert ru["one"] == "Матч из {n} игры" and ru["many"] == "Матч из {n} игр"
    assert set(page["ja"]["messages"][counted[0]]) == {"other"}
    assert page["ru"]["name"] == "Русский" and plural_count("ru") == 3 and plural_count("ja") == 1


@pytest.mark.parametrize("lang", ["ja", "ko", "ru"])
def test_the_catalogue_plural_rule_agrees_with_cldr(lang: str) -> None:
    """For every count, the form gettext picks is the one the page's CLDR category picks (what JS would show)."""
    import gettext

    from babel import Locale

    from coloretto_log.lang import plural_categories

    locale = Locale.parse(lang)
    expr = gettext.c2py(_expression(lang))
    forms = plural_categories(lang)
    assert [n for n in range(3000) if forms[str(locale.plural_form(n))] != expr(n)] == []


def _expression(lang: str) -> str:
    from babel.messages.pofile import read_po

    from coloretto_log.lang import po_path

    with po_path(lang).open("rb") as f:
        return str(read_po(f, locale=lang).plural_expr)
