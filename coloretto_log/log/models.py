"""pydantic v2 models of the match log, version 1 (docs/format.md).

Unknown fields are forbidden and every value is strict: ``1.0`` and ``true``
are not integers, ``"1"`` is not a number. The JSON Schema under
``schemas/`` is generated from these models (``json_schema()``).

``rule_of_error`` maps a pydantic error to the rule id of docs/format.md §3.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError
from typing_extensions import NotRequired, TypedDict

from ..core.cards import ALL_COLOURS, CARD_NAMES
from ..core.ruleset import EDITIONS
from .limits import (
    DATE_PATTERN,
    MAX_CLAIM_COLOUR,
    MAX_CLAIM_COLOURS,
    MAX_CLAIM_SCORE,
    MAX_DECK,
    MAX_EVENT_NAME,
    MAX_EVENT_NUMBER,
    MAX_GAME_OBJECTS,
    MAX_GAMES,
    MAX_ID,
    MAX_MOVES,
    MAX_NAME,
    MAX_NOTES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_UNDER_LAST_ROUND,
    SEED_LIMIT,
)

# The accepted names come from the one table of editions and cards (core.editions):
# a new edition or colour there is accepted here and in the JSON Schema.
if TYPE_CHECKING:
    Colour = str
    CardName = str
    EditionName = str
else:
    Colour = Literal[ALL_COLOURS]
    CardName = Literal[CARD_NAMES]
    EditionName = Literal[tuple(EDITIONS)]
_UNDER_DEFAULTS = " or ".join(f"{e.under_last_round} ({e.name})" for e in EDITIONS.values())
PlayerName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
Notes = Annotated[str, StringConstraints(max_length=MAX_NOTES)]
ClaimColour = Annotated[str, StringConstraints(max_length=MAX_CLAIM_COLOUR)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Rules(_Model):
    """The ruleset of a match; every field has its default (docs/format.md §1, docs/rules-of-play.md)."""

    edition: EditionName = "classic"
    scoring: Literal["standard", "alternative"] = "standard"
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 4
    under_last_round: Annotated[int, Field(ge=MIN_UNDER_LAST_ROUND)] = Field(
        default=None,  # type: ignore[assignment]  # absent means the edition's default; null is refused
        description=f"cards under the last-round card; default {_UNDER_DEFAULTS}",
    )


class Setup(_Model):
    """A game's starting conditions; absent fields follow from the seed."""

    removed: list[Colour] = None  # type: ignore[assignment]
    starting: dict[PlayerName, list[Colour]] = None  # type: ignore[assignment]
    first: PlayerName = None  # type: ignore[assignment]
    deck: Annotated[list[CardName], Field(max_length=MAX_DECK)] = None  # type: ignore[assignment]


class DrawMove(TypedDict):
    """The player turned over ``card`` and put it in ``row``.

    Moves are typed dicts, not model instances: a match holds hundreds of
    them, and validating into dicts is several times faster.
    """

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]
    player: PlayerName
    action: Literal["draw"]
    row: int
    card: NotRequired[CardName]
    last_round: NotRequired[bool]
    notes: NotRequired[Notes]


class TakeMove(TypedDict):
    """The player took ``row`` (``extra``: the golden joker's extra card)."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]
    player: PlayerName
    action: Literal["take"]
    row: int
    extra: NotRequired[CardName]
    last_round: NotRequired[bool]
    notes: NotRequired[Notes]


LogMove = Annotated[
    Annotated[DrawMove, Tag("draw")] | Annotated[TakeMove, Tag("take")],
    Discriminator("action"),
]


class Claim(_Model):
    """What a player wrote down at the end of a game. Checked, never trusted."""

    score: Annotated[int, Field(ge=-MAX_CLAIM_SCORE, le=MAX_CLAIM_SCORE)] = None  # type: ignore[assignment]
    jokers: Annotated[list[ClaimColour], Field(max_length=MAX_CLAIM_COLOURS)] = None  # type: ignore[assignment]
    positive: Annotated[list[ClaimColour], Field(max_length=MAX_CLAIM_COLOURS)] = None  # type: ignore[assignment]


class Game(_Model):
    """One game: its setup, its moves in order, and optional claims."""

    setup: Setup = Setup()
    moves: Annotated[list[LogMove], Field(max_length=MAX_MOVES)] = []
    claims: dict[PlayerName, Claim] = None  # type: ignore[assignment]
    notes: Notes = None  # type: ignore[assignment]

    @field_validator("moves", mode="wrap")
    @classmethod
    def _moves(cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        if info.context is MOVES_CHECKED:  # the caller checked every move already (log.replay's fast path)
            return value
        return handler(value)


#: ``Match.model_validate(data, context=MOVES_CHECKED)`` takes each game's ``moves`` as given, unchecked:
#: only for a caller that has checked every move (a list of at most 2,000 moves, each exactly what the
#: move models accept and return unchanged), as ``log.replay`` does for the plain moves of a seeded game.
MOVES_CHECKED: dict[str, bool] = {"moves_checked": True}


class Event(_Model):
    """The club night or tournament a match was played at: its name, and the round and table there."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=MAX_EVENT_NAME)]
    round: Annotated[int, Field(ge=1, le=MAX_EVENT_NUMBER)] = None  # type: ignore[assignment]
    table: Annotated[int, Field(ge=1, le=MAX_EVENT_NUMBER)] = None  # type: ignore[assignment]


class Match(_Model):
    """One match: rules, players in seat order, and its games in order."""

    format: Literal["coloretto-log"]
    version: Literal[1]
    id: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID)] = None  # type: ignore[assignment]
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN)] = None  # type: ignore[assignment]
    rules: Rules = Rules()
    players: Annotated[list[PlayerName], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    seed: Annotated[int, Field(ge=0, lt=SEED_LIMIT)] = None  # type: ignore[assignment]
    games: Annotated[list[Game], Field(max_length=MAX_GAME_OBJECTS)]
    notes: Notes = None  # type: ignore[assignment]
    event: Event = None  # type: ignore[assignment]

    @field_validator("version", mode="before")
    @classmethod
    def _exact_version(cls, value: Any) -> Any:
        if type(value) is not int:  # 1.0 and true compare equal to 1
            raise PydanticCustomError("bad_version", "should be the integer 1, not {value}", {"value": _short(value)})
        return value

    @field_validator("date")
    @classmethod
    def _real_date(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                _dt.date.fromisoformat(value)
            except ValueError:
                raise PydanticCustomError("bad_date", "{value} is not a real date", {"value": value}) from None
        return value

    @field_validator("players")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        seen: set[str] = set()
        for name in value:
            if name in seen:
                raise PydanticCustomError("duplicate_player", "{name} is given twice", {"name": json.dumps(name, ensure_ascii=False)})
            seen.add(name)
        return value


MOVE_ADAPTER: TypeAdapter[DrawMove | TakeMove] = TypeAdapter(LogMove)

#: Match fields whose error stops the whole match (docs/format.md §3).
STOPPING_FIELDS = frozenset({"format", "version", "players", "rules", "seed"})

_TYPE_ERRORS = frozenset(
    {
        "int_type",
        "int_from_float",
        "int_parsing",
        "bool_type",
        "bool_parsing",
        "string_type",
        "list_type",
        "dict_type",
        "model_type",
        "model_attributes_type",
        "none_required",
        "is_instance_of",
        "float_type",
    }
)
_SETUP_RULES = {"removed": "bad-removed", "starting": "bad-starting", "first": "bad-first", "deck": "bad-deck"}


def rule_of_error(error: ErrorDetails) -> str:
    """The docs/format.md §3 rule id for one pydantic error."""
    loc = error["loc"]
    kind = error["type"]
    if kind == "missing":
        return "missing-field"
    if kind == "extra_forbidden":
        return "unknown-field"
    if kind == "union_tag_not_found":
        return "missing-field"
    if kind == "union_tag_invalid":
        return "bad-action"
    if kind == "duplicate_player":
        return "duplicate-player"
    head = loc[0] if loc else None
    if head == "format":
        return "bad-format"
    if head == "version":
        return "bad-version"
    if kind in _TYPE_ERRORS or (kind == "literal_error" and not isinstance(error.get("input"), str)):
        return "bad-type"  # a null or a number where a name is expected is the wrong JSON type
    if head == "seed":
        return "bad-seed"
    if head == "players":
        return "player-count" if len(loc) == 1 else "bad-player-name"
    if head == "games" and len(loc) >= 4 and loc[2] == "setup":
        return _SETUP_RULES.get(str(loc[3]), "bad-value")
    return "bad-value"


def describe_error(error: ErrorDetails, *, skip: int = 0) -> str:
    """A one-line message for a pydantic error, naming the field (less ``skip`` leading parts)."""
    loc = error["loc"][skip:]
    field = _field_name(loc)
    kind = error["type"]
    if kind == "missing":
        return f'"{field}" is required'
    if kind == "extra_forbidden":
        return f'"{field}" is not a field of the log format'
    if kind == "union_tag_not_found":
        return '"action" is required ("draw" or "take")'
    if kind == "union_tag_invalid":
        given = error.get("input")
        tag = given.get("action") if isinstance(given, dict) else None
        return f'"action" is {_short(tag)}: it must be "draw" or "take"'
    value = error.get("input")
    shown = _short(value)
    if kind in ("too_short", "too_long") and loc == ("players",) and isinstance(value, list):
        return f'"players" must name 2 to 5 players, not {len(value)} (got {shown})'
    if kind == "int_type" and isinstance(value, (bool, float)):
        return f'"{field}" must be an integer, not {shown}'
    if kind in ("dict_type", "model_type", "model_attributes_type"):  # pydantic would name its class
        whole = error["loc"]
        what = f'"{field}"' if loc else "the move" if len(whole) == 4 and whole[2] == "moves" else "the game"
        return f"{what} must be a JSON object, not {shown}"
    msg = error["msg"]
    if msg.startswith("Input should be "):
        msg = "should be " + msg[len("Input should be ") :]
    msg = msg.removeprefix("Value error, ")
    if kind in _CUSTOM_ERRORS:
        return f'"{field}" {msg}'
    return f'"{field}" {msg[:1].lower()}{msg[1:]} (got {shown})'


_CUSTOM_ERRORS = frozenset({"duplicate_player", "bad_date", "bad_version"})


def _field_name(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in ("draw", "take") and (not parts or parts[-1].endswith("]")):
            continue  # the union tag pydantic puts in the location
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "(match)"


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "(a value nested too deep)" if isinstance(value, (list, dict)) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the match log, as published under ``schemas/``."""
    schema = Match.model_json_schema()
    schema.pop("title", None)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://coloretto-log.invalid/schemas/coloretto-log.v1.schema.json",
        "title": "Coloretto match log, version 1",
        **schema,
    }
    return schema


def json_schema_text() -> str:
    """The schema as the exact text checked in under ``schemas/``."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
