"""The phases of a recording session, in order.

::

    PLAYERS -> [GAMES] -> [REMOVED] -> STARTING (one per seat) -> FIRST -> MOVE <-> EXTRA
            -> CLAIM (one per seat) -> next game's setup ... -> DONE

``GAMES`` follows ``PLAYERS`` when the names are asked and ``--games`` was
not given. ``CONFIRM`` interrupts ``MOVE`` or ``EXTRA`` when the last-round
card is reported away from its place in the deck.
"""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """What the session asks for next."""

    PLAYERS = "players"  # the players' names
    GAMES = "games"  # how many games the match has
    REMOVED = "removed"  # the colour(s) removed (3 players, or the 2-player variant)
    STARTING = "starting"  # one player's starting card(s)
    FIRST = "first"  # who starts
    MOVE = "move"  # the next move
    EXTRA = "extra"  # the card from the deck after a take with the golden joker
    CONFIRM = "confirm"  # the last-round card away from its place: record it there?
    CLAIM = "claim"  # one player's written score at the end of a game
    DONE = "done"  # the match is complete

    @property
    def in_setup(self) -> bool:
        """One of the questions that set up a game."""
        return self in (Phase.REMOVED, Phase.STARTING, Phase.FIRST)

    @property
    def in_play(self) -> bool:
        """A game is being played: the table is shown."""
        return self in (Phase.MOVE, Phase.EXTRA, Phase.CONFIRM)
