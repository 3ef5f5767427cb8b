"""The translations follow the glossaries (docs/glossary-LANG.md): the game's own words, as the rulebooks use them."""

from __future__ import annotations

import re

import pytest

from ..builders.glossary import catalogue, glossary, one_way

LANGS = ("ja", "ko", "ru")


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_term_is_in_the_glossary_with_its_source(lang: str) -> None:
    terms = {row["english"]: row for row in glossary(lang)}
    wanted = {"Coloretto", "card", "colour", "row", "deck", "last-round card", "joker", "golden joker", "+2", "round",
              "take a row", "draw", "orange", "blue", "brown", "yellow", "grey", "green", "red", "purple", "score",
              "player", "game", "match"}  # fmt: skip
    assert set(terms) == wanted
    assert all(row["word"] and row["rulebook"] for row in terms.values())


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_that_is_a_message_is_translated_as_the_glossary_says(lang: str) -> None:
    messages = catalogue(lang)
    checked = [(row["english"], row["word"], messages[row["english"]]) for row in glossary(lang) if row["english"] in messages]
    assert len(checked) >= 12  # the colours, the jokers, +2 and the last-round card at least
    assert [c for c in checked if c[1] != c[2]] == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_using_a_term_uses_the_glossary_word(lang: str) -> None:
    """A message whose English says "row" says the glossary's stem for it (a longer term is taken out first)."""
    messages = catalogue(lang)
    rows = glossary(lang)
    longer_first = sorted((r["english"] for r in rows), key=len, reverse=True)
    wrong = []
    checked = 0
    for row in rows:
        if row["stem"] in ("—", "") or row["english"] in messages:
            continue
        term = row["english"]
        for english, translated in messages.items():
            text = re.sub(r"\{[a-z_]+\}|\b[A-Z]{2,}\b", "", english)  # placeholders and CARD, ROW are not words
            for other in longer_first:  # "last-round card" is not a "card"; "golden joker" not a "joker"
                if len(other) > len(term) and term in other:
                    text = re.sub(re.escape(other), "", text, flags=re.IGNORECASE)
            if re.search(rf"(?<!-)\b{re.escape(term)}(s|'s|s')?\b", text, re.IGNORECASE):
                checked += 1
                if row["stem"].lower() not in translated.lower():
                    wrong.append((term, english, translated))
    assert checked > 20
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_each_term_is_translated_one_way(lang: str) -> None:
    """The glossary's "One term, one translation": a message whose English says the term says the word, and no
    translation says one of the words the glossary rules out (the other translations that were used before)."""
    messages = catalogue(lang)
    rows = one_way(lang)
    assert len(rows) >= 6
    wrong, checked = [], 0
    for row in rows:
        pattern = re.compile(row["english"], re.IGNORECASE)
        for english, translated in messages.items():
            if pattern.search(re.sub(r"\{[a-z_0-9]+\}", "", english)):  # a placeholder's name is not a word
                checked += 1
                if row["word"].lower() not in translated.lower():
                    wrong.append((row["english"], english, translated))
        for never in (w.strip() for w in row["never"].split(",") if w.strip()):
            wrong.extend((f"never {never}", english, t) for english, t in messages.items() if never.lower() in t.lower())
    assert checked >= len(rows)
    assert wrong == []
