"""The page's own words, in every language: the catalogue it carries to switch language without the network.

Every text the page writes itself (buttons, hints, the setup, the games
question, its errors) is one of ``MESSAGES`` (``N_`` and ``nt`` mark them for
``python -m coloretto_log.lang.extract``); the page looks them up in
``CATALOGUE`` by their English text, fills their ``{name}`` placeholders as
text, and chooses a counted one's form with ``Intl.PluralRules``. The texts
of the session (prompts, refusals, the lines of a move) come from the server
in the page's language (``app``).
"""

from __future__ import annotations

import functools
import json

from ..lang import LANGUAGES, N_, page_catalogue


def nt(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for the catalogue (the page chooses its form by the count)."""
    return singular, plural


#: Every text of assets/page.html, as the page looks it up.
MESSAGES: tuple[str | tuple[str, str], ...] = (
    N_("Coloretto · recording"),
    N_("Language"),
    N_("connecting…"),
    N_("live"),
    N_("reconnecting…"),
    N_("no answer from the recorder: is it still running? Tap again when it is."),
    N_("cannot reach the recorder: open the address serve printed, with its ?t=…"),
    N_("Game {game} of {games}"),
    N_("round {round}"),
    nt("{n} card left", "{n} cards left"),
    nt("{n} game", "{n} games"),
    N_("other number"),
    N_("OK"),
    nt("Keep {n} game", "Keep {n} games"),
    nt("A match of {n} game · change", "A match of {n} games · change"),
    N_("↶ Undo"),
    N_("Names in seat order, clockwise, separated by commas."),
    N_("Start"),
    N_("Tap the number of games (usually {games}). It can be changed until the first game ends."),
    N_("OK ({picked} of {want})"),
    N_("Yes: it came out now"),
    N_("No: record nothing"),
    N_("Tap the card turned over from the deck."),
    N_("Tap the card drawn, then its row. To take a row, tap the row, then “Take row N”."),
    N_("Every row is full: tap the row taken, then “Take row N”."),
    N_("Last-round card came out"),
    N_("Last-round card noted: the next card is after it (Undo clears it)."),
    N_("written score"),
    N_("Save score"),
    N_("Skip (no written score)"),
    N_("The match is complete and saved."),
    N_("Row {row}"),
    N_("(empty)"),
    N_("taken by {who}"),
    N_("full"),
    N_("Put {card} here"),
    N_("Take row {row}"),
    N_("Cancel"),
    N_("Players: {names}"),
    N_("Collections · best score now"),
    N_("▶ turn"),
    N_("took row {row}"),
    N_("(nothing yet)"),
    nt("Match after {n} game", "Match after {n} games"),
)


@functools.cache
def catalogue_json() -> str:
    """The page's catalogue as JSON that is safe inside a ``<script>`` (no ``<``, no line separators)."""
    text = json.dumps(page_catalogue(LANGUAGES, MESSAGES), ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def page_html(page: str, lang: str) -> str:
    """The page (assets/page.html) with its catalogue and ``lang`` as the language it opens in."""
    return (page.replace('<html lang="en">', f'<html lang="{lang}">')
                .replace("/*CATALOGUE*/", f"const CATALOGUE = {catalogue_json()};\nconst SERVER_LANG = {json.dumps(lang)};"))  # fmt: skip
