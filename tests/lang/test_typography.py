"""Typography by language, held on the catalogues (docs/languages.md#typography).

Japanese: full-width colon, parentheses and question mark in running text
(a formula keeps ASCII parentheses; ``?`` typed at the prompt stays ``?``),
no space between a placeholder and the particle after it. Russian: one
percent style, a space before ``%``. Korean: one quote style, “ ”.
"""

from __future__ import annotations

import re

from ..builders.glossary import catalogue

CJK = "\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
#: A group in parentheses that is a formula, not running text (the ratings' "{scale} × (μ − {mu0})").
FORMULA = re.compile(r"\([^()]*[μσ×−=][^()]*\)")


def _offending(lang: str, pattern: str, *, strip: re.Pattern[str] | None = None) -> list[tuple[str, str]]:
    found = []
    for english, translated in catalogue(lang).items():
        text = strip.sub("", translated) if strip is not None else translated
        if re.search(pattern, text):
            found.append((english, translated))
    return found


def test_japanese_colons_are_full_width() -> None:
    assert _offending("ja", rf"[{CJK}}}」）\]]\s?:") == []
    assert _offending("ja", r"：") != []  # the rule is not vacuous


def test_japanese_parentheses_are_full_width_outside_formulas() -> None:
    assert _offending("ja", r"[()]", strip=FORMULA) == []


def test_japanese_questions_end_with_a_full_width_question_mark() -> None:
    """A question ends with ？; an ASCII ? is the help typed at the prompt, in a list of commands or in 「?」."""
    assert _offending("ja", r"(?<![、「 ])\?") == []
    assert _offending("ja", r"？") != []


def test_japanese_has_no_space_between_a_placeholder_and_its_particle() -> None:
    assert _offending("ja", r"\} [\u3040-\u309f]") == []


def test_russian_writes_one_percent_style() -> None:
    assert _offending("ru", r"[0-9}]%") == []
    assert _offending("ru", r" %") != []


def test_korean_writes_one_quote_style() -> None:
    assert _offending("ko", r"[\"'‘’]") == []
    assert _offending("ko", r"“[^”]+”") != []

