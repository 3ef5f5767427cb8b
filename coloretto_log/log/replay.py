"""Check a parsed match log against the format and the rules, by replaying it.

``check_match(data)`` takes the parsed JSON of one match and returns a
``MatchReport``: every finding (docs/format.md §3) and, for every game, its
setup, its resolved moves (cards of a seeded game filled in) and its final
state. Replay is a fold of ``engine.apply`` over the moves. Nothing here
raises for bad input: findings are collected, and the caller decides what to
do with them.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core import engine
from ..core.cards import LAST_ROUND
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import Finding
from ..core.ruleset import EDITIONS, LAYOUTS, Edition, RuleSet, under_last_round_problem
from ..core.setup import Setup as DealtSetup
from ..core.setup import canonical_deck, seeded_setup
from .limits import (
    DATE_PATTERN,
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
    SCORING_TABLES,
    SEED_LIMIT,
)
from .reader import WIDE_OBJECT, content_hash, id_of_hash

if TYPE_CHECKING:  # the models are imported when a match needs them (not for a plain seeded one: a fast start)
    from typing import Protocol

    from pydantic_core import ErrorDetails

    from ..core.claims import Verdict
    from .models import Claim, DrawMove, Match, TakeMove

    class SetupFields(Protocol):
        """A game's setup as given (``models.Setup``): each field None when absent."""

        @property
        def removed(self) -> Sequence[str] | None: ...
        @property
        def starting(self) -> dict[str, list[str]] | None: ...
        @property
        def first(self) -> str | None: ...
        @property
        def deck(self) -> Sequence[str] | None: ...

    class GameFields(Protocol):
        """A game as given (``models.Game``), what the replay reads of it."""

        @property
        def setup(self) -> SetupFields: ...
        @property
        def moves(self) -> Sequence[DrawMove | TakeMove]: ...
        @property
        def claims(self) -> dict[str, Claim] | None: ...


@dataclass
class GameRecord:
    """One game as replayed."""

    number: int  # from 1
    players: tuple[str, ...] = ()  # the match's, in seat order
    seeded: bool = False
    setup: DealtSetup | None = None  # None when the setup itself is invalid
    moves: list[Move] = field(default_factory=list)  # resolved, up to the first error
    final: GameState | None = None
    claims: dict[str, Claim] | None = None
    findings: list[Finding] = field(default_factory=list)
    _verdicts: list[Verdict] | None = field(default=None, repr=False, compare=False)
    #: The states ``states`` gives, kept by ``check_match(keep_states=True)`` as it replayed them.
    kept: list[GameState] | None = field(default=None, repr=False, compare=False)

    def verdicts(self) -> list[Verdict]:
        """Every player's verdict on the finished game (``no-claim`` where a player claimed nothing).

        Computed once, by validation when the game has claims, and shared
        with ``score`` and ``ingest``.
        """
        if self._verdicts is None:
            from ..core.claims import verdicts

            assert self.final is not None and self.final.over, "verdicts need a finished game"
            self._verdicts = verdicts(self.final, self.claims, self.players)
        return self._verdicts

    @property
    def error(self) -> bool:
        return any(f.severity == "error" for f in self.findings)

    @property
    def complete(self) -> bool:
        """The last round ended after the last-round card came out."""
        return self.final is not None and self.final.over and not self.error

    def states(self) -> Iterator[GameState]:
        """The state before the first move and after each resolved move (those the check kept, if it did)."""
        if self.setup is None or self.final is None:
            return
        if self.kept is not None:
            yield from self.kept
            return
        state = self.initial_state()
        yield state
        # ``engine.apply`` move by move, on one table: ``apply`` makes a ``Table`` of each state (its lists copied)
        # and the state again; here the table goes on from one move to the next and only the states are made
        # (a site builds every state of every game again: a third of their cost).
        table = engine.Table(state)
        turn_over, place, take, snapshot = table.turn_over, table.place, table.take, table.state
        draw = Draw
        for move in self.moves:
            if type(move) is draw:
                card = move.card
                assert card is not None, "a resolved move"
                turn_over(card, bool(move.last_round))
                place(move.seat, move.row - 1, card)
            else:
                take(move.seat, move.row - 1, move.extra, bool(move.last_round))  # type: ignore[union-attr]
            yield snapshot()

    def initial_state(self) -> GameState:
        assert self.setup is not None and self.final is not None
        s = self.setup
        return engine.new_game(
            self.final.rules, self.final.players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck
        )


@dataclass
class MatchReport:
    """Everything ``check_match`` found about one match."""

    data: Any = None  # the parsed JSON the report is about
    rules: RuleSet | None = None
    players: tuple[str, ...] = ()
    games: list[GameRecord] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # match-level ones

    @property
    def content_hash(self) -> str | None:
        """SHA-256 (hex) of the match's canonical JSON: its content identity (``files.content_hash``)."""
        if self._hash is None and isinstance(self.data, dict):
            try:
                self._hash = content_hash(self.data)
            except RecursionError:  # nested deeper than the serializer goes: such a log is invalid anyway
                return None
        return self._hash

    @property
    def match_id(self) -> str | None:
        """The log's ``id``, or ``sha256-`` and 16 hex digits of its content hash (docs/rules.md)."""
        data = self.data
        if not isinstance(data, dict):
            return None
        given = data.get("id")
        if isinstance(given, str):
            return given
        digest = self.content_hash
        return None if digest is None else id_of_hash(digest)

    _hash: str | None = field(default=None, repr=False, compare=False)
    _match: Match | None = field(default=None, repr=False, compare=False)
    _match_unbuilt: bool = field(default=False, repr=False, compare=False)

    @property
    def match(self) -> Match | None:
        """The match as the models read it; None when it could not be read as a whole.

        A plain match (``_plain_match``) is checked without the models; its
        ``Match`` is built on first use, from ``data``, which it is known to
        fit (its moves as they are: they were checked). ``data`` is the
        report's: it is not to be changed in between.
        """
        if self._match_unbuilt:
            from .models import MOVES_CHECKED, Match

            self._match = Match.model_validate(self.data, context=MOVES_CHECKED)
            self._match_unbuilt = False
        return self._match

    def all_findings(self) -> list[Finding]:
        out = list(self.findings)
        for g in self.games:
            out.extend(g.findings)
        return out

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.all_findings())

    @property
    def complete(self) -> bool:
        """Every planned game is present and complete."""
        return (
            self.rules is not None
            and len(self.games) == self.rules.games
            and all(g.complete for g in self.games)
        )


def check_match(data: Any, *, fast: bool = True, wide: bool | None = None, keep_states: bool = False) -> MatchReport:
    """Validate and replay one match given as parsed JSON.

    ``fast=False`` reads the match through the models and checks every move
    with ``engine.check`` (the reference path); the default checks a plain
    match without the models (``_plain_match``), takes plain moves at C speed
    (``_plain_moves``), replays plainly legal moves with
    ``engine.fast_forward``, and gives the same report. ``wide``: whether the reader saw an object with
    more keys than any object of the format holds (``reader.parse_json_wide``);
    only then is the match searched for a flood of keys (None: search anyway). ``keep_states``: each game keeps
    the states it was replayed through (``GameRecord.states`` gives them without replaying the game again: a
    replay page's timeline).
    """
    report = MatchReport(data=data)
    if not isinstance(data, dict):
        report.findings.append(Finding("error", "bad-type", f"a match must be a JSON object, not {_json_type(data)}"))
        return report
    flood = _flood(data) if wide is not False else None
    if flood is not None:  # a million unknown keys: one finding, not a million (bounded time and memory)
        report.findings.append(flood)
        return report
    engine_moves = _plain_moves(data) if fast else None
    plain = _plain_match(data) if engine_moves is not None else None
    if plain is not None:
        report._match_unbuilt = True
        players, seed, rules = plain
        games: Sequence[GameFields] = [_PlainGame(game.get("moves", [])) for game in data["games"]]
        raw_games: list[Any] = [None] * len(games)
        errors_by_game: dict[int, list[ErrorDetails]] = {}
    else:
        match, raw_games, errors_by_game, engine_moves = _validate(data, engine_moves, report)
        if match is None:
            return report
        report._match = match
        players, seed, games = tuple(match.players), match.seed, match.games
        r = match.rules
        rules = RuleSet.of(edition=r.edition, scoring=r.scoring, games=r.games, under_last_round=r.under_last_round)
    report.players = players
    problem = under_last_round_problem(rules, len(players))
    if problem is not None:
        report.findings.append(Finding("error", "bad-value", f'"rules.under_last_round" is {problem}'))
        return report
    report.rules = rules
    n_games = len(games)
    if n_games == 0:
        report.findings.append(Finding("warning", "incomplete-game", '"games" is empty: the match has no game yet'))
    for g in range(n_games):
        record = GameRecord(number=g + 1, players=report.players)
        report.games.append(record)
        if g >= rules.games:
            record.findings.append(
                Finding(
                    "error",
                    "too-many-games",
                    f"the match plans {rules.games} game{'s' if rules.games != 1 else ''} (rules.games) and this is game {g + 1}",
                    game=g + 1,
                )
            )
            break
        _check_game(
            players, seed, rules, g, games[g], raw_games[g], errors_by_game.get(g), record,
            fast=fast, engine_moves=None if engine_moves is None else engine_moves[g], keep_states=keep_states,
        )  # fmt: skip
        if not record.error and record.claims:
            record.findings.extend(unknown_claimants(record))
        if not record.error:
            if record.final is not None and not record.final.over:
                last = g == n_games - 1
                record.findings.append(
                    Finding(
                        "warning" if last else "error",
                        "incomplete-game",
                        f"the game stops after move {len(record.moves)}, before its last round has ended"
                        + ("" if last else "; the next game starts anyway"),
                        game=g + 1,
                    )
                )
            elif record.claims:
                record.findings.extend(check_claims(record))
        record.findings = cap_findings(record.findings)
    report.findings = cap_findings(report.findings)
    return report


#: At most this many findings of one rule are kept for one game (or the match); one more line says how many more.
MAX_FINDINGS_PER_RULE = 20
#: An object of the log with more keys than this is a flood: one finding, and the match is not checked further.
MAX_KEYS = WIDE_OBJECT


def cap_findings(findings: list[Finding]) -> list[Finding]:
    """The first ``MAX_FINDINGS_PER_RULE`` findings of each rule, and one line saying how many more there were."""
    if len(findings) <= MAX_FINDINGS_PER_RULE:
        return findings
    kept: list[Finding] = []
    count: Counter[str] = Counter()
    last: dict[str, Finding] = {}
    for f in findings:
        count[f.rule] += 1
        if count[f.rule] <= MAX_FINDINGS_PER_RULE:
            kept.append(f)
        last[f.rule] = f
    for rule, n in count.items():
        if n > MAX_FINDINGS_PER_RULE:
            f = last[rule]
            more = n - MAX_FINDINGS_PER_RULE
            kept.append(Finding(f.severity, rule, f"{more} more [{rule}] finding{'s' if more != 1 else ''} here, not shown", game=f.game))
    return kept


def _flood(data: dict[str, Any]) -> Finding | None:
    """One ``unknown-field`` (or ``unknown-player``) error for an object with over ``MAX_KEYS`` keys, else None.

    The format's objects have at most nine fields and five players, so a log
    with more is not a match; checking it key by key would take seconds and
    gigabytes (1.5 million unknown keys in one move).
    """

    def wide(value: Any) -> bool:
        return isinstance(value, dict) and len(value) > MAX_KEYS

    def finding(where: str, value: Any, rule: str = "unknown-field", game: int | None = None) -> Finding:
        what = "names" if rule == "unknown-player" else "fields"
        return Finding(
            "error", rule, f"{where} has {len(value)} {what}; the format allows far fewer: not checked further", game=game
        )

    if wide(data):
        return finding("the match", data)
    if wide(data.get("rules")):
        return finding('"rules"', data["rules"])
    games = data.get("games")
    if not isinstance(games, list):
        return None
    for g, game in enumerate(games[:MAX_GAME_OBJECTS], start=1):
        if not isinstance(game, dict):
            continue
        if wide(game):
            return finding(f"game {g}", game, game=g)
        setup = game.get("setup")
        if wide(setup):
            return finding('"setup"', setup, game=g)
        if isinstance(setup, dict) and wide(setup.get("starting")):
            return finding('"setup.starting"', setup["starting"], "bad-starting", game=g)
        claims = game.get("claims")
        if wide(claims):
            return finding('"claims"', claims, "unknown-player", game=g)
        if isinstance(claims, dict):
            for name, claim in claims.items():
                if wide(claim):
                    return finding(f'the claim of "{name[:40]}"', claim, game=g)
        moves = game.get("moves")
        if isinstance(moves, list):
            for i, move in enumerate(moves, start=1):
                if isinstance(move, dict) and len(move) > MAX_KEYS:
                    f = finding(f"move {i}", move, game=g)
                    return Finding(f.severity, f.rule, f.message, game=g, move=i)
    return None


class _NoSetup(NamedTuple):
    removed: None = None
    starting: None = None
    first: None = None
    deck: None = None


class _PlainGame(NamedTuple):
    """A game of a plain match (``_plain_match``): its moves as given, no setup field, no claims."""

    moves: Sequence[DrawMove | TakeMove]
    setup: _NoSetup = _NoSetup()
    claims: None = None


_MATCH_FIELDS = frozenset({"format", "version", "id", "date", "rules", "players", "seed", "games", "notes", "event"})
_EVENT_FIELDS = frozenset({"name", "round", "table"})
_RULES_FIELDS = frozenset({"edition", "scoring", "games", "under_last_round"})
_GAME_FIELDS = frozenset({"setup", "moves", "notes"})
_DATE = re.compile(DATE_PATTERN.removeprefix("^").removesuffix("$"))


def _plain_match(data: dict[str, Any]) -> tuple[tuple[str, ...], int | None, RuleSet] | None:
    """Players, seed and rules of a plain match, else None; asked only of a match whose moves are plain
    (``_plain_moves``).

    Plain is the common seeded log: the models would accept it as it is
    (every field of a known kind, type and size), no game gives a setup
    field or claims, and every move is plain. Checked
    here without the models: the ``validate`` command then never imports
    pydantic for it, and ``MatchReport.match`` builds the model on first use.
    The test is sufficient, not exact: what it does not accept goes through
    the models, which say what is wrong, if anything. A test holds it to
    the models (tests/log/test_fast_check.py).
    """
    if not data.keys() <= _MATCH_FIELDS:
        return None
    players, seed, rules, games = data.get("players"), data.get("seed"), data.get("rules", {}), data.get("games")
    if (
        data.get("format") != "coloretto-log"
        or type(data.get("version")) is not int
        or data["version"] != 1
        or type(players) is not list
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(type(p) is str and 0 < len(p) <= MAX_NAME for p in players)
        or len(set(players)) != len(players)
        or (seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT))
        or ("seed" in data and seed is None)
        or type(games) is not list
        or len(games) > MAX_GAME_OBJECTS
        or not _plain_extras(data)
        or type(rules) is not dict
        or not rules.keys() <= _RULES_FIELDS
        or not _plain_rules(rules)
    ):
        return None
    for game in games:  # a setup, when given, is {} (only a dict equals {})
        if type(game) is not dict or not game.keys() <= _GAME_FIELDS or game.get("setup", _EMPTY) != _EMPTY:
            return None
        if not _plain_notes(game):
            return None
    return tuple(players), seed, RuleSet.of(**rules)


_EMPTY: dict[str, Any] = {}


def _plain_rules(rules: dict[str, Any]) -> bool:
    edition, scoring = rules.get("edition", "classic"), rules.get("scoring", "standard")
    games, under = rules.get("games", 1), rules.get("under_last_round", MIN_UNDER_LAST_ROUND)
    return (
        type(edition) is str
        and edition in EDITIONS
        and type(scoring) is str
        and scoring in SCORING_TABLES
        and type(games) is int
        and 1 <= games <= MAX_GAMES
        and type(under) is int
        and under >= MIN_UNDER_LAST_ROUND
    )


def _plain_notes(obj: dict[str, Any]) -> bool:
    notes = obj.get("notes", "")
    return type(notes) is str and len(notes) <= MAX_NOTES


def _plain_extras(data: dict[str, Any]) -> bool:
    """The match's optional ``id``, ``date``, ``notes`` and ``event``, when each is one the models accept as it is."""
    if "id" in data and not (type(data["id"]) is str and 0 < len(data["id"]) <= MAX_ID):
        return False
    if "date" in data:
        date = data["date"]
        if type(date) is not str or _DATE.fullmatch(date) is None:
            return False
        try:
            _dt.date.fromisoformat(date)
        except ValueError:
            return False
    if "event" in data and not _plain_event(data["event"]):
        return False
    return _plain_notes(data)


def _plain_event(event: Any) -> bool:
    """An ``event`` object the models accept as it is: a name, and a round and a table when given."""
    if type(event) is not dict or not event.keys() <= _EVENT_FIELDS:
        return False
    name = event.get("name")
    if type(name) is not str or not 0 < len(name) <= MAX_EVENT_NAME:
        return False
    return all(
        type(event[key]) is int and 1 <= event[key] <= MAX_EVENT_NUMBER for key in ("round", "table") if key in event
    )


def _validate(
    data: dict[str, Any], engine_moves: list[list[Move]] | None, report: MatchReport
) -> tuple[Match | None, list[Any], dict[int, list[ErrorDetails]], list[list[Move]] | None]:
    """The match through the models: it, each game's raw data and errors, and the engine moves still good.

    ``engine_moves``: the plain moves (``_plain_moves``) the models may take
    as checked. On any error the models check everything again, and the
    errors become findings (``_partial``); None as the match: it cannot be
    checked further.
    """
    from pydantic import ValidationError

    from .models import MOVES_CHECKED, Match

    if engine_moves is not None:
        try:
            match = Match.model_validate(data, context=MOVES_CHECKED)
            return match, [None] * len(match.games), {}, engine_moves
        except ValidationError:  # the reference path below says what is wrong, as it always has
            pass
    try:
        match = Match.model_validate(data)
        return match, [None] * len(match.games), {}, None
    except ValidationError as exc:
        partial, raw_games, errors_by_game = _partial(data, exc.errors(), report)
        return partial, raw_games, errors_by_game, None

_PLAIN_MOVE = itemgetter("player", "action", "row")
_ROW = itemgetter("row")
_ONLY_INTS = {int}
#: The engine move of each plain move (player, action, row) of a match's players, by their tuple (a few recent ones).
_PLAIN_TABLES: dict[tuple[str, ...], dict[tuple[str, str, int], Move]] = {}


def _plain_moves(data: dict[str, Any]) -> list[list[Move]] | None:
    """Every game's moves as engine moves when each move of the match is plain, else None.

    A plain move is what a seeded game writes: exactly ``player`` (a name of
    ``players``), ``action`` (``draw`` or ``take``) and ``row`` (an integer
    from 1 to 5), at most ``MAX_MOVES`` of them in a game. The move models
    accept such a move and give it back unchanged, so ``Match`` may take
    these moves as checked (``MOVES_CHECKED``); and a match's plain moves
    are a few dozen different ones, so one engine move (a value) serves every
    move alike. The test runs at C speed, with no Python call per move.
    Anything else (a card written, a note, a wrong type, an unknown name): None,
    and the caller checks every move through the models (the reference path,
    which says what is wrong).
    """
    players, games = data.get("players"), data.get("games")
    if type(players) is not list or type(games) is not list or not all(type(p) is str for p in players):
        return None
    table = _plain_table(tuple(players))
    out: list[list[Move]] = []
    for game in games:
        if type(game) is not dict:
            return None
        moves = game.get("moves", [])
        if type(moves) is not list or len(moves) > MAX_MOVES:
            return None
        if moves:
            try:  # not a dict: no len(), or no key "player"; a row of True or 1.0 is found as 1: see below
                if sum(map(len, moves)) != 3 * len(moves):  # each holds the 3 keys: exactly them
                    return None
                found = list(map(table.__getitem__, map(_PLAIN_MOVE, moves)))
            except (KeyError, TypeError):  # a key missing, a value unknown or unhashable, a move not an object
                return None
            if set(map(type, map(_ROW, moves))) != _ONLY_INTS:
                return None
            out.append(found)
        else:
            out.append([])
    return out


def _plain_table(players: tuple[str, ...]) -> dict[tuple[str, str, int], Move]:
    table = _PLAIN_TABLES.get(players)
    if table is None:
        if len(_PLAIN_TABLES) >= 64:
            _PLAIN_TABLES.clear()
        seat_of = {name: i for i, name in enumerate(players)}  # a repeated name: the model refuses the match
        table = {}
        for name, seat in seat_of.items():
            for row in range(1, 6):
                table[name, "draw", row] = Draw(seat, row, None, None)
                table[name, "take", row] = Take(seat, row, None, None)
        _PLAIN_TABLES[players] = table
    return table


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "null"


def _partial(
    data: dict[str, Any], errors: list[ErrorDetails], report: MatchReport
) -> tuple[Match | None, list[Any], dict[int, list[ErrorDetails]]]:
    """Split a failed validation into match-level findings and per-game errors.

    Returns a ``Match`` whose broken games are replaced by empty ones (their
    raw data is returned for a move-by-move look), or ``None`` when the match
    cannot be checked further.
    """
    from pydantic import ValidationError

    from .models import STOPPING_FIELDS, Match, describe_error, rule_of_error

    match_errors = [e for e in errors if not (len(e["loc"]) >= 2 and e["loc"][0] == "games" and isinstance(e["loc"][1], int))]
    stop = False
    for e in match_errors:
        report.findings.append(Finding("error", rule_of_error(e), describe_error(e)))
        head = e["loc"][0] if e["loc"] else "games"
        if head in STOPPING_FIELDS or head == "games":
            stop = True
    if stop:
        return None, [], {}
    by_game: dict[int, list[ErrorDetails]] = {}
    for e in errors:
        loc = e["loc"]
        if len(loc) >= 2 and loc[0] == "games" and isinstance(loc[1], int):
            by_game.setdefault(loc[1], []).append(e)
    cleaned = dict(data)
    bad_top = {str(e["loc"][0]) for e in match_errors if e["loc"]}
    for key in bad_top:
        cleaned.pop(key, None)
    raw_games = list(data["games"])
    cleaned["games"] = [({} if g in by_game else raw) for g, raw in enumerate(raw_games)]
    try:
        match = Match.model_validate(cleaned)
    except ValidationError as exc:  # pragma: no cover - defensive: every error was located above
        for e in exc.errors():
            report.findings.append(Finding("error", rule_of_error(e), describe_error(e)))
        return None, [], {}
    return match, raw_games, by_game


def _check_game(
    players: tuple[str, ...],
    seed: int | None,
    rules: RuleSet,
    g: int,
    game: GameFields,
    raw: Any,
    errors: list[ErrorDetails] | None,
    record: GameRecord,
    *,
    fast: bool,
    engine_moves: list[Move] | None = None,
    keep_states: bool = False,
) -> None:
    """Replay one game into ``record``; ``engine_moves``: its moves as the engine's, when already known;
    ``keep_states``: the states it goes through kept in ``record.kept``."""
    number = g + 1
    moves: Sequence[DrawMove | TakeMove] = game.moves
    field_error: tuple[int, Finding] | None = None  # (move index, finding) of the first broken move
    claim_error: Finding | None = None
    game_setup: SetupFields
    if errors:
        from pydantic import ValidationError

        from .models import MOVE_ADAPTER, Setup, describe_error, rule_of_error

        first_move = None
        for e in errors:
            loc = e["loc"]
            if len(loc) >= 4 and loc[2] == "moves" and isinstance(loc[3], int):
                if first_move is None or loc[3] < first_move[0]:
                    first_move = (loc[3], e)
            elif len(loc) >= 4 and loc[2] == "claims":  # inside claims: reported after the moves
                claim_error = claim_error or Finding("error", rule_of_error(e), describe_error(e, skip=2), game=number)
            else:  # the game object or its setup (claims that is not an object included): the game stops here
                record.findings.append(Finding("error", rule_of_error(e), describe_error(e, skip=2), game=number))
                return
        raw_game = raw if isinstance(raw, dict) else {}
        try:
            setup = Setup.model_validate(raw_game.get("setup", {}))
        except ValidationError as exc:  # pragma: no cover - setup errors were caught above
            e = exc.errors()[0]
            record.findings.append(Finding("error", rule_of_error(e), describe_error(e), game=number))
            return
        raw_moves = raw_game.get("moves", [])
        limit = first_move[0] if first_move is not None else len(raw_moves)
        moves = [MOVE_ADAPTER.validate_python(m) for m in raw_moves[:limit]]
        if first_move is not None:
            idx, e = first_move
            field_error = (idx, Finding("error", rule_of_error(e), describe_error(e, skip=4), game=number, move=idx + 1))
        game_setup = setup
    else:
        game_setup = game.setup
        record.claims = game.claims

    dealt = _resolve_setup(players, seed, rules, g, game_setup, record)
    if dealt is None:
        return
    record.setup = dealt
    record.seeded = dealt.deck is not None
    seat_of = {name: i for i, name in enumerate(players)}
    state = engine.new_game(
        rules, len(players), removed=dealt.removed, starting=dealt.starting, first=dealt.first, deck=dealt.deck
    )
    resolved_moves = record.moves
    kept = record.kept = [state] if keep_states else None
    if engine_moves is None:
        engine_moves = []
        add = engine_moves.append
        new = tuple.__new__  # the named tuples' own constructor, without their keyword handling
        for m in moves:
            get = m.get
            if m["action"] == "draw":
                add(new(Draw, (seat_of.get(m["player"], -1), m["row"], get("card"), get("last_round"))))
            else:
                add(new(Take, (seat_of.get(m["player"], -1), m["row"], get("extra"), get("last_round"))))
    i, n = 0, len(engine_moves)
    while i < n:
        if fast:
            state, i = engine.fast_forward(state, engine_moves, i, resolved_moves, kept)
            if i == n:
                break
        move = engine_moves[i]
        violation = engine.check(state, move)
        if violation is not None:
            record.final = state
            name = moves[i]["player"]
            record.findings.append(
                Finding("error", violation.rule, _name_message(violation, name, state, players), game=number, move=i + 1)
            )
            return
        move = engine.resolve(state, move)
        if move.last_round and state.turned != state.lr_expected_at:
            record.findings.append(_lr_warning(state, number, i + 1))
        state = engine.apply(state, move)
        resolved_moves.append(move)
        if kept is not None:
            kept.append(state)
        i += 1
    record.final = state
    if field_error is not None:
        record.findings.append(field_error[1])
        return
    if claim_error is not None:
        record.findings.append(claim_error)


def _lr_warning(state: GameState, game: int, move: int) -> Finding:
    return Finding(
        "warning",
        "last-round-position",
        f"the last-round card came out as card {state.turned + 1} of the deck; with {state.rules.under} cards "
        f"under it, it belongs at card {state.lr_expected_at + 1}",
        game=game,
        move=move,
    )


def _name_message(violation: engine.Violation, name: str, state: GameState, players: tuple[str, ...]) -> str:
    if violation.rule == "unknown-player":
        return f'"{name}" is not a player of this match'
    if violation.rule == "not-your-turn":
        if name in players and state.done[players.index(name)]:
            return f"{name} has already taken a row this round; it is {players[state.current]}'s turn"
        return f"it is {players[state.current]}'s turn, not {name}'s"
    return violation.message


class SetupError(ValueError):
    """A broken setup rule (``rule``: its id), raised by the setup checks and turned into one finding."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def _resolve_setup(
    players: tuple[str, ...], seed: int | None, rules: RuleSet, g: int, setup: SetupFields, record: GameRecord
) -> DealtSetup | None:
    """The game's setup, from the log and the seed; a finding and None when it is invalid.

    Checked in the order of the format: the fields a recorded game needs,
    then ``removed``, ``starting``, ``first`` and ``deck``. With a seed, each
    absent field is drawn (docs/format.md §4) and an explicit one replaces the
    draw in its step and every later one.
    """
    n = len(players)
    try:
        if seed is None:
            _require_explicit(setup)
        removed = _explicit_removed(setup, rules, n)
        drawn = None
        if seed is not None:
            drawn = seeded_setup(rules, n, seed, g, removed=removed)
            removed = drawn.removed
        assert removed is not None
        starting = _explicit_starting(setup, rules, players, removed)
        first = _explicit_first(setup, players)
        deck: tuple[str, ...] | None = None
        if drawn is not None:
            assert seed is not None
            if starting is not None or first is not None:
                drawn = seeded_setup(rules, n, seed, g, removed=removed, starting=starting, first=first)
            starting, first, deck = drawn.starting, drawn.first, drawn.deck
        assert starting is not None and first is not None
        if setup.deck is not None:
            deck = _explicit_deck(setup.deck, rules, removed, starting)
    except SetupError as e:
        record.findings.append(Finding("error", e.rule, e.message, game=g + 1))
        return None
    return DealtSetup(removed, starting, first, deck)


def _require_explicit(setup: SetupFields) -> None:
    kind = "a game seeded only by its deck" if setup.deck is not None else "a recorded game"
    for name in ("removed", "starting", "first"):
        if getattr(setup, name) is None:
            raise SetupError("missing-field", f'"setup.{name}" is required in {kind}')


def _explicit_removed(setup: SetupFields, rules: RuleSet, n: int) -> tuple[str, ...] | None:
    return None if setup.removed is None else check_removed(setup.removed, rules.edition, n)


def check_removed(removed: Sequence[str], edition: Edition, players: int) -> tuple[str, ...]:
    """The removed colours as given, or ``SetupError`` (``bad-removed``): how many, which, repeated."""
    want = LAYOUTS[players].removed
    if len(removed) != want:
        raise SetupError("bad-removed", f"{players} players remove {want} colour{'s' if want != 1 else ''}, not {len(removed)}")
    for c in removed:
        if c not in edition.colours:
            raise SetupError("bad-removed", f"{c} is not a colour of the {edition.name} edition")
    if len(set(removed)) != len(removed):
        raise SetupError("bad-removed", "a colour is removed twice")
    return tuple(removed)


def check_starting_cards(
    name: str, cards: Sequence[str], edition: Edition, removed: Sequence[str], seen: set[str], players: int
) -> None:
    """One player's starting cards, or ``SetupError`` (``bad-starting``); ``seen`` collects the colours given so far."""
    each = LAYOUTS[players].starting
    if len(cards) != each:
        raise SetupError("bad-starting", f"{name} starts with {len(cards)} cards; with {players} players each starts with {each}")
    for c in cards:
        if c not in edition.colours:
            raise SetupError("bad-starting", f"{name}'s starting {c} is not a colour of the {edition.name} edition")
        if c in removed:
            raise SetupError("bad-starting", f"{name}'s starting {c} is a removed colour")
        if c in seen:
            raise SetupError("bad-starting", f"{c} is given as a starting card twice; starting cards are all different colours")
        seen.add(c)


def _explicit_starting(
    setup: SetupFields, rules: RuleSet, players: tuple[str, ...], removed: tuple[str, ...]
) -> tuple[tuple[str, ...], ...] | None:
    if setup.starting is None:
        return None
    for name in setup.starting:
        if name not in players:
            raise SetupError("bad-starting", f'"{name}" is not a player of this match')
    seen: set[str] = set()
    by_seat = []
    for name in players:
        cards = setup.starting.get(name)
        if cards is None:
            raise SetupError("bad-starting", f"no starting cards for {name}")
        check_starting_cards(name, cards, rules.edition, removed, seen, len(players))
        by_seat.append(tuple(cards))
    return tuple(by_seat)


def _explicit_first(setup: SetupFields, players: tuple[str, ...]) -> int | None:
    if setup.first is None:
        return None
    if setup.first not in players:
        raise SetupError("bad-first", f'"{setup.first}" is not a player of this match')
    return players.index(setup.first)


def _explicit_deck(
    deck: Sequence[str], rules: RuleSet, removed: tuple[str, ...], starting: tuple[tuple[str, ...], ...]
) -> tuple[str, ...]:
    expected = Counter(canonical_deck(rules, removed, starting))
    expected[LAST_ROUND] += 1
    given: Counter[str] = Counter(deck)
    if given != expected:
        raise SetupError("bad-deck", _deck_difference(expected, given))
    return tuple(deck)


def _deck_difference(expected: Counter[str], given: Counter[str]) -> str:
    missing = expected - given
    extra = given - expected
    parts = []
    if extra:
        parts.append("too many " + ", ".join(f"{card} (+{k})" for card, k in sorted(extra.items())))
    if missing:
        parts.append("too few " + ", ".join(f"{card} (-{k})" for card, k in sorted(missing.items())))
    in_play = sum(expected.values()) - 1  # the last-round card is not a card in play
    return f"the deck must hold exactly the {in_play} cards in play and one last_round: " + "; ".join(parts)


def unknown_claimants(record: GameRecord) -> list[Finding]:
    """An ``unknown-player`` error for each claim by someone who does not play, finished game or not."""
    return [
        Finding("error", "unknown-player", f'claims name "{name}", who is not a player of this match', game=record.number)
        for name in (record.claims or {})
        if name not in record.players
    ]


def check_claims(record: GameRecord) -> list[Finding]:
    """Validation's view of a finished game's claims: ``claim-score`` / ``claim-choice`` warnings."""
    findings: list[Finding] = []
    state = record.final
    if state is None or not state.over or record.error:
        return findings  # claims on an unfinished game are not checked; unknown claimants are errors already
    for v in record.verdicts():
        if v.claim is None:
            continue
        findings.extend(Finding("warning", p.rule, p.message, game=record.number) for p in v.problems)
    return findings

