"""A card's chip label (lang/chips.py): English letters in English, the glossary's short form in another language."""

from __future__ import annotations

import re

import pytest

from coloretto_log.core.cards import LAST_ROUND, SHORT_LABELS, is_colour
from coloretto_log.lang import LANGUAGES, translator
from coloretto_log.lang.chips import CHIP_LABELS, chip_label

from ..builders.glossary import glossary


def test_english_chips_are_the_cards_letters() -> None:
    assert CHIP_LABELS == {k: v for k, v in SHORT_LABELS.items() if k != LAST_ROUND}
    assert [chip_label(card) for card in CHIP_LABELS] == list(CHIP_LABELS.values())


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_chip_is_in_the_language_and_the_chips_tell_cards_apart(lang: str) -> None:
    tr = translator(lang)
    labels = {card: chip_label(card, tr) for card in CHIP_LABELS}
    assert [label for label in labels.values() if re.search("[A-Za-z]", label)] == []
    assert len(set(labels.values())) == len(labels)  # no two cards share a label
    # a colour's chip is its name or the short form the glossary names for it
    rows = {row["english"]: row for row in glossary(lang)}
    for card, label in labels.items():
        if is_colour(card):
            assert label == tr.gettext(card) or label in rows[card]["notes"], (card, label)
