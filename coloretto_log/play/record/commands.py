"""The recorder's typed-line grammar: card names, colour lists, player names and move commands.

Pure parsing: each function turns one typed text into values or raises
``InputError`` (with the validation rule id where one applies). The session
(``session``) decides what a parsed line means at its prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import CARD_ALIASES, CARD_KINDS, KINDS, card_name, is_colour, typed_card
from ...core.errors import ColorettoLogError
from ...core.ruleset import MAX_PLAYERS, MIN_PLAYERS

#: The short form the help lists for each card (core.editions).
SHORT_NAMES: dict[str, str] = {name: CARD_KINDS[name].short for name in KINDS}


class InputError(ColorettoLogError):
    """A line the recorder refuses; ``rule`` is the validation rule id where one applies."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def parse_card(text: str) -> str:
    """The card name a typed word stands for (case does not matter); ``InputError`` if none."""
    card = typed_card(text)
    if card is not None:
        return card
    key = text.strip().lower()
    if key in ("l", "lr", "last_round", "last"):
        raise InputError('the last-round card is not placed: type "l" before the draw, then the card after it')
    close = sorted({name for alias, name in CARD_ALIASES.items() if alias.startswith(key)}) if key else []
    hint = f" (did you mean {' or '.join(f'{SHORT_NAMES[c]} for {card_name(c)}' for c in close)}?)" if close else ""
    raise InputError(f'"{text}" is not a card{hint}; type ? for the card names')


def parse_colours(text: str) -> list[str]:
    """Colour names separated by spaces or commas."""
    words = text.replace(",", " ").split()
    cards = [parse_card(w) for w in words]
    for word, card in zip(words, cards):
        if not is_colour(card):
            raise InputError(f'"{word}" is {card_name(card)}, not a colour')
    return cards


def parse_players(text: str) -> tuple[str, ...]:
    """Player names in seat order, separated by commas (spaces around a name are dropped)."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) == 1 and not names[0]:
        raise InputError("type the players' names in seat order, separated by commas", "player-count")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(
            f"{len(names)} player{'s' if len(names) != 1 else ''}: Coloretto is for {MIN_PLAYERS} to {MAX_PLAYERS}, "
            "names separated by commas",
            "player-count",
        )
    for name in names:
        if not name:
            raise InputError("an empty name: names are separated by commas", "bad-player-name")
        if len(name) > 40:
            raise InputError(f'"{name[:20]}...": a name is at most 40 characters', "bad-player-name")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InputError(f'"{name}" is given twice', "duplicate-player")
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


def parse_command(line: str) -> Command | None:
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
        card, row, lr = _card_and_row(rest, "a draw names the card and the row: d red 2")
        if card is None or row is None:
            raise InputError("a draw names the card and the row: d red 2")
        return DrawCommand(card, row, last_round or lr)
    if head in _TAKE_WORDS:
        card, row, lr = _card_and_row(rest, "a take names the row: t 3")
        if row is None:
            raise InputError("a take names the row: t 3")
        return TakeCommand(row, card, last_round or lr)
    raise InputError(f'"{words[0]}" is not a command: d CARD ROW (draw), t ROW (take), l, u, ? or q')


def _card_and_row(words: list[str], usage: str) -> tuple[str | None, int | None, bool]:
    card: str | None = None
    row: int | None = None
    last_round = False
    for word in words:
        if word.isdigit():
            if row is not None:
                raise InputError(f"two row numbers: {usage}")
            row = int(word)
        elif _SIMPLE.get(word) == "last_round":
            last_round = True
        else:
            if card is not None:
                raise InputError(f"two cards: {usage}")
            card = parse_card(word)
    return card, row, last_round
