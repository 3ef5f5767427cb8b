"""The bounds of the log format (docs/format.md §5.8), in one place.

Plain values, without pydantic: the models (``log.models``) build their
fields from them, and the fast check of ``log.replay`` reads them without
importing the models (``validate`` then starts without pydantic).
"""

from __future__ import annotations

SEED_LIMIT = 1 << 64  # a seed is below this
MAX_GAMES = 100  # rules.games
MAX_GAME_OBJECTS = MAX_GAMES + 1000  # the "games" array (beyond rules.games, each extra game is an error)
MAX_MOVES = 2000  # in one game
MIN_UNDER_LAST_ROUND = 15
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_NAME = 40  # a player's name, in characters
MAX_ID = 200  # a match's id
MAX_NOTES = 100_000  # a note
MAX_EVENT_NAME = 100  # an event's name, in characters
MAX_EVENT_NUMBER = 1000  # an event's round and table count from 1 to this
MAX_DECK = 200  # cards listed in setup.deck
MAX_CLAIM_SCORE = 10_000  # a claimed score lies within plus or minus this
MAX_CLAIM_COLOURS = 10  # colours listed in a claim's jokers or positive
MAX_CLAIM_COLOUR = 40  # characters of one colour named in a claim
SCORING_TABLES = ("standard", "alternative")
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
