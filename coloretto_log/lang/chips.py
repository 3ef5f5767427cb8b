"""A card's chip label: the short form drawn on a card or a collection tile, in a reader's language.

English writes two letters (``rd``, ``J``, ``GJ``: ``core.cards.SHORT_LABELS``);
another language writes the colour's name or the short form its glossary
names (docs/glossary-LANG.md: ``赤``, ``빨강``, ``кр.``). The card's colour and
shape still tell the cards apart; the label is for who cannot tell colours
apart. Every surface that draws a card chip says it through ``chip_label``
(the replay and analysis viewer, the club site's pages), or, on a page that
switches language in the browser, through the messages ``CHIP_LABELS``.
"""

from __future__ import annotations

from . import ENGLISH, N_, Translator

__all__ = ["CHIP_LABELS", "chip_label"]

#: Each card's chip label in English, marked for the catalogues (the same letters as ``core.cards.SHORT_LABELS``;
#: a test holds the two together). The +2 card is "+2" in every language, as the card's own word.
CHIP_LABELS: dict[str, str] = {
    "orange": N_("or"), "blue": N_("bl"), "brown": N_("br"), "yellow": N_("ye"), "grey": N_("gy"), "green": N_("gn"),
    "red": N_("rd"), "purple": N_("pu"), "joker": N_("J"), "golden_joker": N_("GJ"), "plus2": N_("+2"),
}  # fmt: skip


def chip_label(card: str, tr: Translator = ENGLISH) -> str:
    """The label of ``card``'s chip in ``tr``'s language (a card no catalogue knows: its name).

    >>> chip_label("red"), chip_label("golden_joker")
    ('rd', 'GJ')
    """
    label = CHIP_LABELS.get(card)
    return tr.gettext(label) if label is not None else card
