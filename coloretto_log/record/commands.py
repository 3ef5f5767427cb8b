"""The recorder's typed-line grammar: card names, colour lists, player names and move commands.

Pure parsing: each function turns one typed text into values or raises
``InputError`` (with the validation rule id where one applies). The session
(``session``) decides what a parsed line means at its prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import CARD_ALIASES, CARD_KINDS, KINDS, is_colour, typed_card
from ..core.errors import ColorettoLogError
from ..core.ruleset import MAX_PLAYERS, MIN_PLAYERS
from ..lang import ENGLISH, Translator
from .events import card_word

#: The short form the help lists for each card (core.editions).
SHORT_NAMES: dict[str, str] = {name: CARD_KINDS[name].short for name in KINDS}


class InputError(ColorettoLogError):
    """A line the recorder refuses; ``rule`` is the validation rule id where one applies.

    ``message`` is in the language of the translator the parser was given (English by default).
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def parse_card(text: str, tr: Translator = ENGLISH) -> str:
    """The card name a typed word stands for (case does not matter); ``InputError`` if none."""
    card = typed_card(text)
    if card is not None:
        return card
    key = text.strip().lower()
    if key in ("l", "lr", "last_round", "last"):
        raise InputError(tr.gettext('the last-round card is not placed: type "l" before the draw, then the card after it'))
    close = sorted({name for alias, name in CARD_ALIASES.items() if alias.startswith(key)}) if key else []
    if close:
        options = tr.gettext(" or ").join(tr.t("{short} for {card}", short=SHORT_NAMES[c], card=card_word(c, tr))
                                          for c in close)  # fmt: skip
        raise InputError(tr.t('"{text}" is not a card (did you mean {options}?); type ? for the card names', text=text,
                              options=options))  # fmt: skip
    raise InputError(tr.t('"{text}" is not a card; type ? for the card names', text=text))


def parse_colours(text: str, tr: Translator = ENGLISH) -> list[str]:
    """Colour names separated by spaces or commas."""
    words = text.replace(",", " ").split()
    cards = [parse_card(w, tr) for w in words]
    for word, card in zip(words, cards):
        if not is_colour(card):
            raise InputError(tr.t('"{word}" is {card}, not a colour', word=word, card=card_word(card, tr)))
    return cards


def parse_players(text: str, tr: Translator = ENGLISH) -> tuple[str, ...]:
    """Player names in seat order, separated by commas (spaces around a name are dropped)."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) == 1 and not names[0]:
        raise InputError(tr.gettext("type the players' names in seat order, separated by commas"), "player-count")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(
            tr.nt("{n} player: Coloretto is for {least} to {most}, names separated by commas",
                  "{n} players: Coloretto is for {least} to {most}, names separated by commas", len(names),
                  least=MIN_PLAYERS, most=MAX_PLAYERS),
            "player-count",
        )  # fmt: skip
    for name in names:
        if not name:
            raise InputError(tr.gettext("an empty name: names are separated by commas"), "bad-player-name")
        if len(name) > 40:
            raise InputError(tr.t('"{name}...": a name is at most 40 characters', name=name[:20]), "bad-player-name")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InputError(tr.t('"{name}" is given twice', name=name), "duplicate-player")
    return names


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class DrawCommand:
    card: str
    row: int
    last_round: bool = False


@dataclass(frozen=True, slots=True)
class TakeCommand:
    row: int
    extra: str | None = None
    last_round: bool = False


@dataclass(frozen=True, slots=True)
class Simple:
    """A one-word command: ``undo``, ``help``, ``quit`` or ``last_round`` (the ``l`` mark)."""

    name: str


Command = DrawCommand | TakeCommand | Simple

_SIMPLE = {
    "u": "undo", "undo": "undo",
    "?": "help", "h": "help", "help": "help",
    "q": "quit", "quit": "quit", "exit": "quit",
    "l": "last_round", "lr": "last_round", "last": "last_round",
}  # fmt: skip
_DRAW_WORDS = ("d", "draw")
_TAKE_WORDS = ("t", "take")


def simple_word(word: str) -> str | None:
    """The one-word command a word spells (``undo``, ``help``, ``quit``, ``last_round``), if any.

    ``word`` is compared as given: callers lower-case and strip it first.
    """
    return _SIMPLE.get(word)


def parse_command(line: str, tr: Translator = ENGLISH) -> Command | None:
    """One line at the move prompt; ``None`` for a blank line or a ``#`` comment."""
    words = line.replace(",", " ").lower().split()
    if not words or words[0].startswith("#"):
        return None
    head, rest = words[0], words[1:]
    last_round = False
    if _SIMPLE.get(head) == "last_round":
        if not rest:
            return Simple("last_round")
        last_round = True
        head, rest = rest[0], rest[1:]
    if head in _SIMPLE and not rest:
        return Simple(_SIMPLE[head])
    if head in _DRAW_WORDS:
        usage = tr.gettext("a draw names the card and the row: d red 2")
        card, row, lr = _card_and_row(rest, usage, tr)
        if card is None or row is None:
            raise InputError(usage)
        return DrawCommand(card, row, last_round or lr)
    if head in _TAKE_WORDS:
        usage = tr.gettext("a take names the row: t 3")
        card, row, lr = _card_and_row(rest, usage, tr)
        if row is None:
            raise InputError(usage)
        return TakeCommand(row, card, last_round or lr)
    raise InputError(tr.t('"{word}" is not a command: d CARD ROW (draw), t ROW (take), l, u, ? or q', word=words[0]))


def _card_and_row(words: list[str], usage: str, tr: Translator) -> tuple[str | None, int | None, bool]:
    card: str | None = None
    row: int | None = None
    last_round = False
    for word in words:
        if word.isdigit():
            if row is not None:
                raise InputError(tr.t("two row numbers: {usage}", usage=usage))
            row = int(word)
        elif _SIMPLE.get(word) == "last_round":
            last_round = True
        else:
            if card is not None:
                raise InputError(tr.t("two cards: {usage}", usage=usage))
            card = parse_card(word, tr)
    return card, row, last_round
