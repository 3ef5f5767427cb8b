"""A checked match as a timeline: every state of every game, one narrative line a move.

``build(report, label=...)`` takes the ``MatchReport`` of ``replay.check_match``
(or ``from_loaded`` a ``logs.LoadedMatch``) and returns a ``MatchTimeline``:
for every game the state before the first move and after each move, the move
that led there (resolved: the cards of a seeded game filled in), a one-line
narrative of it, and every player's best score at that point
(``scoring.best_from_counts``). A game with an error is replayed up to its
first error, which the timeline keeps (``GameTimeline.error``).

``MatchTimeline.as_json()`` is the stable, documented shape (docs/replay.md)
that ``replay --json`` prints and the HTML viewer embeds. Nothing here reads
files or prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from string import Formatter
from typing import Any, NamedTuple, TypeVar, cast

from ..core.cards import KIND_INDEX, card_name, cards_of
from ..core.claims import Verdict
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import Finding
from ..core.ruleset import RuleSet
from ..core.scoring import Assignment, best_from_counts, ranks
from ..core.scoring import winners as best_seats
from ..core.setup import Setup
from ..log.load import LoadedMatch
from ..log.replay import GameRecord, MatchReport
from ..log.writer import setup_json
from .scorecard import card_kinds

__all__ = [
    "ENCODE",
    "HAND",
    "JOINS",
    "PHRASES",
    "Cards",
    "GameTimeline",
    "Hands",
    "MatchTimeline",
    "Phrase",
    "Step",
    "build",
    "card_name",
    "changes_json",
    "changes_text",
    "claim_json",
    "from_loaded",
    "scores_line",
    "standings_json",
    "story",
    "tell",
    "winners",
]

#: The replay data's JSON text (``replay --json``'s data as the page embeds it): compact, not ASCII-escaped, and
#: without the check for reference cycles (the data is made of fresh lists and dicts, or parsed JSON: none has
#: one; the check kept a dictionary of every list and dict being written, a third of the encoder's time on a
#: replay's thousands of small lists; a cycle would end in ``RecursionError`` rather than ``ValueError``).
ENCODE: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def N_(message: str) -> str:
    """Marks a phrase of the narrative for the catalogues (``python -m coloretto_log.lang.extract`` finds it);
    report/ does not translate (it does not import lang/): the surfaces that show a narrative do."""
    return message


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards named in a phrase: shown as their names joined by ", " (``join="and"``: by " and ")."""

    cards: tuple[str, ...]
    join: str = "comma"

    def as_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "join": self.join}


@dataclass(frozen=True, slots=True)
class Hands:
    """Each player's starting cards: ``Aiko red and blue, Boris green``."""

    hands: tuple[tuple[str, tuple[str, ...]], ...]

    def as_json(self) -> dict[str, Any]:
        return {"hands": [[player, list(cards)] for player, cards in self.hands]}


#: A phrase's value: a player's name or a number (shown as it is), or cards.
Value = str | int | Cards | Hands


@dataclass(frozen=True, slots=True)
class Phrase:
    """One part of a narrative line: an English template (one of ``PHRASES``) and the values of its placeholders.

    The English line is the phrases, filled, joined by `` · `` (``tell``). A
    surface in another language looks each template up in the catalogues by
    its English text and fills it with the values in that language (names as
    they are, cards by their names in the language).
    """

    text: str
    values: tuple[tuple[str, Value], ...] = ()

    def as_json(self) -> list[Any]:
        """``[template, {name: value}]``; cards as ``{"cards": [...], "join": "comma"|"and"}``, starting hands as
        ``{"hands": [[player, [cards]], ...]}``."""
        return [self.text, {k: v.as_json() if isinstance(v, (Cards, Hands)) else v for k, v in self.values}]


def _phrase(text: str, **values: Value) -> Phrase:
    return Phrase(text, tuple(values.items()))


#: Every template of the narrative, for the pages that translate it (view.html embeds their translations).
PHRASES: tuple[str, ...] = (
    N_("game {game}"), N_("{colours} removed"), N_("starting cards: {hands}"), N_("{who} starts"),
    N_("round {round}"), N_("{who} draws {card} → row {row}"),
    N_("last-round card! {who} draws again: {card} → row {row}"), N_("{who} takes row {row}: {cards}"),
    N_("{who} takes row {row}: {cards}; golden joker extra: {extra}"),
    N_("{who} takes row {row}: {cards}; golden joker extra: last-round card! then {extra}"),
    N_("row {row} discarded: {cards}"), N_("end of the game"), N_("end of round {round}"),
)  # fmt: skip
#: How a list of cards is joined: ``Cards.join`` to the English text (also a phrase of the catalogues).
JOINS: dict[str, str] = {"comma": N_(", "), "and": N_(" and ")}
#: One player's starting cards in ``Hands`` (the hands are joined by ", ", a hand's cards by " and ").
HAND = N_("{player} {cards}")


def _value_text(value: Value) -> str:
    if isinstance(value, Cards):
        return JOINS[value.join].join(card_name(c) for c in value.cards)
    if isinstance(value, Hands):
        return JOINS["comma"].join(HAND.format(player=player, cards=_value_text(Cards(cards, "and")))
                                   for player, cards in value.hands)  # fmt: skip
    return str(value)


def tell(story: tuple[Phrase, ...]) -> str:
    """The story of a move (or of a setup) as the English line, its phrases joined by `` · ``."""
    return " · ".join(p.text.format(**{k: _value_text(v) for k, v in p.values}) for p in story)


class Step(NamedTuple):
    """One point of a game: the state after move ``number`` (0: before the first move).

    A named tuple (immutable, as the timeline's other parts), not a frozen dataclass: a site makes one for every
    move of every game of the club, and a frozen dataclass's ``__init__`` (a ``object.__setattr__`` a field)
    cost five times a tuple's making."""

    number: int
    move: Move | None  # resolved; None for the setup
    before: GameState | None  # the state the move was played in; None for the setup
    state: GameState
    story: tuple[Phrase, ...]  # the narrative as phrases, for a surface that translates it
    scores: tuple[Assignment, ...]  # each seat's best assignment in ``state``
    taken_by: tuple[int | None, ...]  # per row, the seat that took it this round

    @property
    def narrative(self) -> str:
        """The story in English, one line: ``round 3 · Aiko draws red → row 2``."""
        return tell(self.story)


@dataclass(frozen=True, slots=True)
class GameTimeline:
    """One game, replayed up to its end or its first error."""

    number: int  # from 1
    players: tuple[str, ...]
    seeded: bool
    setup: Setup | None  # None when the setup itself is invalid (no step then)
    steps: tuple[Step, ...]
    complete: bool
    findings: tuple[Finding, ...]
    #: The verdict on each claim written in a complete game (seat order, players who claimed);
    #: empty without claims or when the game is not complete (its claims are not checked).
    claims: tuple[Verdict, ...] = ()

    @property
    def error(self) -> Finding | None:
        """The first error of the game: where and why play broke off."""
        return next((f for f in self.findings if f.severity == "error"), None)

    @property
    def moves(self) -> int:
        """Moves replayed (the steps after the setup)."""
        return max(0, len(self.steps) - 1)

    @property
    def final_scores(self) -> tuple[int, ...] | None:
        """Each seat's score at the end of a complete game; None otherwise."""
        if not self.complete or not self.steps:
            return None
        return tuple(a.score for a in self.steps[-1].scores)


@dataclass(frozen=True, slots=True)
class MatchTimeline:
    """Every game of one match (one file, or one line of a ``.jsonl`` file)."""

    label: str  # FILE or FILE:LINE, as findings are reported
    file: str | None
    line: int | None
    match_id: str | None
    players: tuple[str, ...]
    rules: RuleSet | None
    games: tuple[GameTimeline, ...]
    findings: tuple[Finding, ...]  # about the match as a whole
    valid: bool  # no error anywhere in the match (``MatchReport.valid``)

    @property
    def match_error(self) -> Finding | None:
        return next((f for f in self.findings if f.severity == "error"), None)

    def totals(self) -> tuple[tuple[int, ...], int] | None:
        """Each seat's total over the complete games, and how many games that is (None if none)."""
        finals = [s for s in (g.final_scores for g in self.games) if s is not None]
        if not finals:
            return None
        return tuple(sum(col) for col in zip(*finals)), len(finals)

    def as_json(self, *, by_difference: bool = False) -> dict[str, Any]:
        """The stable shape printed by ``replay --json`` (docs/replay.md); ``by_difference``: each game's states
        as the replay page carries them, ``entries`` and ``changes`` (``changes_json``) in place of ``states``."""
        return {**self._head_json(), "games": [_game_json(g, self.label, by_difference=by_difference)
                                               for g in self.games], "totals": self._totals_json()}

    def page_text(self) -> str:
        """``ENCODE(self.as_json(by_difference=True))``, the replay page's data of the match, written a game at a
        time: each game's changes as ``changes_text`` writes them (most straight from their move)."""
        games = ",".join(_game_text(g, self.label) for g in self.games)
        return f'{ENCODE(self._head_json())[:-1]},"games":[{games}],"totals":{ENCODE(self._totals_json())}}}'

    def _head_json(self) -> dict[str, Any]:
        """``as_json``'s fields before ``games``."""
        return {
            "file": self.file,
            "line": self.line,
            "match_id": self.match_id,
            "players": list(self.players),
            "rules": None if self.rules is None else _rules_json(self.rules),
            "valid": self.valid,
            "error": _error_json(self.match_error, self.label),
            "findings": [f.as_json() for f in self.findings],
        }

    def _totals_json(self) -> dict[str, Any] | None:
        totals = self.totals()
        if totals is None:
            return None
        return {
            "games": totals[1],
            "scores": standings_json(self.players, totals[0]),
            "winners": list(winners(self.players, totals[0])),
        }


def winners(players: tuple[str, ...], scores: tuple[int, ...]) -> tuple[str, ...]:
    """The players with the highest score, in seat order (ties share the rank)."""
    return tuple(players[seat] for seat in best_seats(scores))


def standings_json(players: tuple[str, ...], scores: tuple[int, ...]) -> list[dict[str, Any]]:
    """``[{"player", "score", "rank"}]`` in seat order; tied players share a rank (``scoring.ranks``)."""
    return [
        {"player": p, "score": s, "rank": r} for p, s, r in zip(players, scores, ranks(scores))
    ]


def scores_line(players: tuple[str, ...], scores: tuple[int, ...], *, final: bool = True) -> str:
    """``Aiko 41 · Boris 37 — Aiko wins`` (``Aiko and Boris tie``; ``Aiko leads`` when not ``final``)."""
    body = " · ".join(f"{p} {s}" for p, s in zip(players, scores))
    top = winners(players, scores)
    if len(top) == 1:
        verdict = f"{top[0]} {'wins' if final else 'leads'}"
    else:
        verdict = ", ".join(top[:-1]) + f" and {top[-1]} tie"
    return f"{body} — {verdict}"


# --------------------------------------------------------------------------- building


def from_loaded(item: LoadedMatch) -> MatchTimeline:
    """The timeline of one loaded match."""
    return build(item.report, label=item.label, file=item.file, line=item.line)


def build(
    report: MatchReport, *, label: str = "<match>", file: str | None = None, line: int | None = None
) -> MatchTimeline:
    """Replay every game of a checked match into its timeline."""
    players = report.players
    games = tuple(_game(record, players) for record in report.games)
    return MatchTimeline(
        label=label,
        file=file,
        line=line,
        match_id=report.match_id,
        players=players,
        rules=report.rules,
        games=games,
        findings=tuple(report.findings),
        valid=report.valid,
    )


_new_tuple = tuple.__new__  # a named tuple's own constructor, without its keyword handling


def _game(record: GameRecord, players: tuple[str, ...]) -> GameTimeline:
    states = list(record.states())
    steps: list[Step] = []
    new_step = _new_tuple
    if states:
        first = states[0]
        nobody: tuple[int | None, ...] = (None,) * len(first.rows)
        taken_by = nobody
        scores = _scores(first)
        colours = first.colours  # the game's, set at its setup
        steps.append(Step(0, None, None, first, setup_story(record, players), scores, taken_by))
        for n, (move, before, after) in enumerate(zip(record.moves, states, states[1:]), start=1):
            if isinstance(move, Take):
                i = move.row - 1
                taken_by = (
                    nobody
                    if after.round != before.round or after.over
                    else taken_by[:i] + (move.seat,) + taken_by[i + 1 :]
                )
                # A draw leaves every collection as it was; a take changes only the taker's.
                scores = _rescored(scores, before, after, colours)
            steps.append(new_step(Step, (n, move, before, after, story(move, before, after, players), scores, taken_by)))
    return GameTimeline(
        number=record.number,
        players=players,
        seeded=record.seeded,
        setup=record.setup,
        steps=tuple(steps),
        complete=record.complete,
        findings=tuple(record.findings),
        claims=tuple(v for v in record.verdicts() if v.claim is not None)
        if record.complete and record.claims
        else (),
    )


def _scores(state: GameState) -> tuple[Assignment, ...]:
    colours, table = state.colours, state.rules.table
    return tuple(best_from_counts(counts, colours, table=table) for counts in state.collections)


def _rescored(
    scores: tuple[Assignment, ...], before: GameState, after: GameState, colours: tuple[str, ...]
) -> tuple[Assignment, ...]:
    """``scores`` of ``before`` brought up to ``after`` (``colours``: in play): only changed collections are scored
    again."""
    table = after.rules.table
    out = list(scores)
    for seat, (was, now) in enumerate(zip(before.collections, after.collections)):
        if was is not now and was != now:  # a collection not taken from is the state before's (``Table.state``)
            out[seat] = best_from_counts(now, colours, table=table)
    return tuple(out)


def setup_story(record: GameRecord, players: tuple[str, ...]) -> tuple[Phrase, ...]:
    """The setup in phrases: ``game 1 · purple removed · starting cards: Aiko red, Boris blue · Aiko starts``."""
    assert record.setup is not None
    setup = record.setup
    parts = [_phrase(N_("game {game}"), game=record.number)]
    if setup.removed:
        parts.append(_phrase(N_("{colours} removed"), colours=Cards(tuple(setup.removed), "and")))
    hands = Hands(tuple((players[s], tuple(cards)) for s, cards in enumerate(setup.starting)))
    parts.append(_phrase(N_("starting cards: {hands}"), hands=hands))
    parts.append(_phrase(N_("{who} starts"), who=players[setup.first]))
    return tuple(parts)


@lru_cache(maxsize=64)
def _round_head(number: int) -> Phrase:
    """``round {round}``, the head of a move's story: one (immutable) phrase a round, shared by its moves."""
    return _phrase(N_("round {round}"), round=number)


@lru_cache(maxsize=64)
def _round_end(number: int) -> Phrase:
    return _phrase(N_("end of round {round}"), round=number)


_GAME_END = _phrase(N_("end of the game"))
#: The cards of a row taken, as a phrase names them: one (immutable) ``Cards`` a row's cards, shared by the takes
#: that name them (a few hundred in a club's games).
_row_cards: Callable[[tuple[str, ...]], Cards] = lru_cache(maxsize=4096)(Cards)


@lru_cache(maxsize=4096)
def _draw(last_round: bool, who: str, card: str, row: int) -> Phrase:
    """A draw in a phrase: one (immutable) phrase a player, card and row, shared by the moves that tell it (a
    club's players, the cards and the rows make a few thousand)."""
    if last_round:
        return _phrase(N_("last-round card! {who} draws again: {card} → row {row}"), who=who, card=Cards((card,)),
                       row=row)  # fmt: skip
    return _phrase(N_("{who} draws {card} → row {row}"), who=who, card=Cards((card,)), row=row)


def story(move: Move, before: GameState, after: GameState, players: tuple[str, ...]) -> tuple[Phrase, ...]:
    """One resolved move in phrases: the round, the move, and what a round's end discards."""
    who = players[move.seat]
    head = _round_head(before.round)
    if isinstance(move, Draw):
        return head, _draw(bool(move.last_round), who, move.card or "?", move.row)
    i = move.row - 1
    cards = _row_cards(tuple(before.rows[i]))
    if move.extra is None:
        took = _phrase(N_("{who} takes row {row}: {cards}"), who=who, row=move.row, cards=cards)
    elif move.last_round:
        took = _phrase(N_("{who} takes row {row}: {cards}; golden joker extra: last-round card! then {extra}"),
                       who=who, row=move.row, cards=cards, extra=Cards((move.extra,)))  # fmt: skip
    else:
        took = _phrase(N_("{who} takes row {row}: {cards}; golden joker extra: {extra}"), who=who, row=move.row,
                       cards=cards, extra=Cards((move.extra,)))  # fmt: skip
    parts = [head, took]
    if after.over or after.round != before.round:
        for k, left in enumerate(before.rows):
            if k != i and not before.taken[k] and left:
                parts.append(_phrase(N_("row {row} discarded: {cards}"), row=k + 1, cards=Cards(tuple(left))))
        parts.append(_GAME_END if after.over else _round_end(before.round))
    return tuple(parts)


def narrate(move: Move, before: GameState, after: GameState, players: tuple[str, ...]) -> str:
    """One line for one resolved move, e.g. ``round 3 · Aiko draws red → row 2``."""
    return tell(story(move, before, after, players))


# --------------------------------------------------------------------------- JSON


def _rules_json(rules: RuleSet) -> dict[str, Any]:
    return {
        "edition": rules.edition.name,
        "scoring": rules.table.name,
        "games": rules.games,
        "under_last_round": rules.under,
    }


def _error_json(finding: Finding | None, label: str) -> dict[str, Any] | None:
    if finding is None:
        return None
    return {
        "game": finding.game,
        "move": finding.move,
        "rule": finding.rule,
        "message": finding.message,
        "line": finding.line(label),
    }


def _move_json(move: Move, before: GameState, players: tuple[str, ...]) -> dict[str, Any]:
    if isinstance(move, Draw):
        return {
            "player": players[move.seat],
            "action": "draw",
            "row": move.row,
            "card": move.card,
            "last_round": bool(move.last_round),
        }
    assert isinstance(move, Take)
    return {
        "player": players[move.seat],
        "action": "take",
        "row": move.row,
        "cards": list(before.rows[move.row - 1]),
        "extra": move.extra,
        "last_round": bool(move.last_round),
    }


def claim_json(v: Verdict) -> dict[str, Any]:
    """A verdict on a claim (the shape of ``score --json``'s ``verdict``) with the optimum's assignment."""
    out: dict[str, Any] = {}
    for key, value in v.as_json().items():
        out[key] = value
        if key == "optimal_score":
            out["optimal_jokers"] = list(v.optimal.jokers)
            out["optimal_positive"] = list(v.optimal.positive)
    return out


def _assignment_json(a: Assignment) -> dict[str, Any]:
    return {"score": a.score, "jokers": list(a.jokers), "positive": list(a.positive)}


def step_json(step: Step, players: tuple[str, ...], memo: dict[Any, Any] | None = None) -> dict[str, Any]:
    """One state of a game, in the documented shape (docs/replay.md).

    ``memo`` (one per game): a player's entry, unchanged from the step before (the same collection, cards taken
    and assignment object), is built once and shared (a game's JSON is mostly such entries).
    """
    s = step.state
    kinds = card_kinds(s.rules.edition, s.colours)
    if memo is None:
        memo = {}
    return {
        "move": step.number,
        "action": None
        if step.move is None or step.before is None
        else _move_json(step.move, step.before, players),
        "narrative": step.narrative,
        "story": [p.as_json() for p in step.story],
        "round": s.round,
        "last_round": s.last_round,
        "over": s.over,
        "next": None if s.over else players[s.current],
        "deck": s.cards_left,
        "rows": [
            {
                "row": i + 1,
                "limit": s.limits[i],
                "cards": list(cards),
                "taken": s.taken[i],
                "taken_by": None if by is None else players[by],
            }
            for i, (cards, by) in enumerate(zip(s.rows, step.taken_by))
        ],
        "discarded": list(cards_of(s.discarded)),
        "players": [_player_json(memo, seat, name, s, kinds, step.scores[seat]) for seat, name in enumerate(players)],
    }


def _player_json(
    memo: dict[Any, Any], seat: int, name: str, s: GameState, kinds: Sequence[str], a: Assignment
) -> dict[str, Any]:
    key = (seat, s.collections[seat], s.done[seat], id(a), tuple(kinds))
    found = memo.get(key)
    if found is not None and found[0] is a:
        return cast(dict[str, Any], found[1])
    out = {
        "player": name,
        "collection": {k: s.collections[seat][KIND_INDEX[k]] for k in kinds},
        "taken": s.done[seat],
        **_assignment_json(a),
    }
    memo[key] = (a, out)  # the assignment is kept with its entry: its id stays its own
    return out


#: The fields of a state (``step_json``) that a change of ``changes_json`` may give, in their order.
_SCALARS = ("round", "last_round", "over", "next", "deck")
_NONE = object()  # no value yet


def _placeholders(text: str) -> tuple[str, ...]:
    """The names of ``text``'s ``{name}`` placeholders, in order."""
    return tuple(name for _, name, _, _ in Formatter().parse(text) if name is not None)


#: Each template of ``PHRASES``: its position and its placeholders' names (a phrase of the page is written by
#: its position and its values in the placeholders' order: ``_phrase_json``).
_PHRASE_AT: dict[str, tuple[int, tuple[str, ...]]] = {text: (k, _placeholders(text)) for k, text in enumerate(PHRASES)}


def _phrase_json(p: Phrase) -> list[Any]:
    """A phrase on the page: ``[k, value, ...]``, its template by its position in ``PHRASES`` and its values in
    the order of its placeholders (cards joined by commas as their list; other cards and hands as
    ``Phrase.as_json`` writes them); a phrase not so written (a template not in ``PHRASES``, values in another
    order), as ``Phrase.as_json`` writes it (``[template, {name: value}]``)."""
    found = _PHRASE_AT.get(p.text)
    if found is None or len(found[1]) != len(p.values):
        return p.as_json()
    out: list[Any] = [found[0]]
    for (name, value), wanted in zip(p.values, found[1]):
        if name != wanted:
            return p.as_json()
        if type(value) is Cards:
            out.append(list(value.cards) if value.join == "comma" else value.as_json())
        else:
            out.append(value.as_json() if type(value) is Hands else value)
    return out


def _action_json(move: Move, players: tuple[str, ...]) -> list[Any]:
    """A move on the page: ``["draw", player, row, card, last_round]`` or ``["take", player, row, extra,
    last_round]`` (the cards taken are the row's in the state before)."""
    if isinstance(move, Draw):
        return ["draw", players[move.seat], move.row, move.card, bool(move.last_round)]
    return ["take", players[move.seat], move.row, move.extra, bool(move.last_round)]


#: Each draw's phrase written (``_phrase_json``) with the phrase, by its id: ``story`` makes one phrase a round's
#: head and one a player, card and row, shared by the build's games (a site's thousand matches). Emptied when full.
_DRAWN: dict[int, tuple[Phrase, list[Any], str]] = {}
_DRAWN_MAX = 16384
#: JSON texts shared by a build's games, by their value: a list of cards (by their tuple: a row's cards, a
#: joker's colours), a row (by ``(limit, cards, taken, taken_by's name)``). A few thousand; emptied when full.
_CARDS_TEXT: dict[tuple[str, ...], str] = {}
_ROW_TEXT: dict[tuple[Any, ...], str] = {}


def changes_json(g: GameTimeline) -> tuple[list[Any], list[dict[str, Any]]]:
    """The game's states by difference, as the replay page carries them (docs/replay.md): ``(entries,
    changes)``.

    ``entries``: the game's distinct players' entries (``step_json``'s ``players`` items), each once, as
    ``[player, counts, taken, score, jokers, positive]`` (``counts``: the collection's, in the order of
    ``card_kinds``). ``changes``: one a state, in order: the fields of its ``step_json`` whose value differs
    from the state before's (all of them for the first state), without ``move`` (the change's position) and
    ``narrative`` (the ``story``, told); ``action`` as ``_action_json`` writes it, each phrase of the ``story``
    as ``_phrase_json`` does, each row as ``[limit, cards, taken, taken_by]``. ``rows`` and ``players`` are a
    list (the whole list, a player by the index of its entry), or ``{"i": item}`` for the items ``i`` (from 0)
    that changed. A state is rebuilt by applying the changes from the first to it; rebuilt, it is its
    ``step_json`` without ``narrative``.
    """
    entries, changes = _changes(g, text=False)
    return entries, cast(list[dict[str, Any]], changes)


def changes_text(g: GameTimeline) -> tuple[list[Any], list[str]]:
    """``changes_json(g)`` with each change as its JSON text: the same ``entries``, and ``ENCODE(change)`` for
    each change, a move within a round's written straight from the move (the row and the entry it changed),
    without the change's dictionary (the replay page's data: most of a game's moves)."""
    entries, changes = _changes(g, text=True)
    return entries, cast(list[str], changes)


def _changes(g: GameTimeline, *, text: bool) -> tuple[list[Any], list[Any]]:
    """``changes_json``'s entries and changes; with ``text``, each change as its JSON text (``changes_text``)."""
    players = g.players
    entries: list[Any] = []
    index: dict[Any, int] = {}
    changes: list[Any] = []  # dictionaries, or their text (``text``)
    was: tuple[Any, ...] = ()  # the scalars of the state before (none before the first)
    discarded: tuple[int, ...] | None = None
    counted: Callable[[tuple[int, ...]], Any] = tuple  # a collection's counts of the game's kinds
    removed: tuple[str, ...] | None = None
    last: Step | None = None
    seats: list[int] = []
    rows_were: list[tuple[Any, ...]] = []
    names: dict[tuple[int | None, ...], list[str | None]] = {}  # taken_by's seats to names
    coded: dict[int, tuple[Phrase, list[Any], str]] = {}  # each phrase object (alive in the steps) written once
    quoted: list[str] | None = None  # the players' names as JSON text (``text``)
    card_text: dict[str | None, str] = {}

    def entry(s: GameState, seat: int, a: Assignment) -> int:
        """The index of ``seat``'s entry in ``s`` (its collection, ``done`` and assignment ``a``), added if new."""
        same = (seat, s.collections[seat], s.done[seat], a.score, a.jokers, a.positive)
        at = index.get(same)
        if at is None:
            at = index[same] = len(entries)
            entries.append([players[seat], list(counted(s.collections[seat])), s.done[seat], a.score,
                            list(a.jokers), list(a.positive)])
        return at

    for step in g.steps:
        s = step.state
        if s.removed != removed:  # the colours in play (set at the setup)
            removed = s.removed
            kinds = [KIND_INDEX[k] for k in card_kinds(s.rules.edition, s.colours)]
            counted = itemgetter(*kinds)  # a tuple: there are always two kinds or more (jokers, "+2" cards)
            index.clear()
            last = None
        move = step.move
        drawn = type(move) is Draw and last is not None
        phrases: list[tuple[Phrase, list[Any], str]] = []  # each phrase of the story, its JSON and that's text
        if drawn:  # a draw's phrases (its round's head, the draw) are shared by the build's games (``story``)
            for p in step.story:
                found = _DRAWN.get(id(p))
                if found is None or found[0] is not p:  # the phrase kept with its text: its id stays its own
                    found = _kept(_DRAWN, id(p), _coded(p, card_text))
                phrases.append(found)
        else:
            phrases = [coded.get(id(p)) or coded.setdefault(id(p), _coded(p, card_text)) for p in step.story]
        if last is not None and move is not None and s.round == was[0] and not s.over \
                and len(rows_were) == len(s.rows) and s.discarded is discarded \
                and (not drawn or step.taken_by is last.taken_by and step.scores is last.scores):
            # A move within a round (``engine.Table``): a draw adds its card to one row and changes nothing else of
            # the rows or the players (the same ``taken_by`` and ``scores``: ``_game``); a take that does not end
            # the round empties one row, marks it taken by its taker, and changes the taker's entry alone (the
            # others' collections, ``done`` and assignments are the same objects: ``_rescored``). Neither changes
            # the round or the discards: the change is the last-round card's coming out, the next player, the
            # deck, that row and the taker's entry.
            _, last_round, _, after, deck = was
            new_round = s.last_round != last_round
            if new_round:
                last_round = s.last_round
            new_next = players[s.current] != after
            if new_next:
                after = players[s.current]
            new_deck = s.total - s.turned != deck  # ``cards_left``
            if new_deck:
                deck = s.total - s.turned
            was = (s.round, last_round, False, after, deck)
            i = move.row - 1
            by_seat = step.taken_by[i]
            n, cards, t, who = row = (s.limits[i], s.rows[i], s.taken[i], None if by_seat is None else players[by_seat])
            new_row = row != rows_were[i]
            if new_row:
                rows_were[i] = row
            at = -1
            if not drawn:
                seat = move.seat
                at = entry(s, seat, step.scores[seat])
                if at != seats[seat]:
                    seats = seats[:]  # a list of its own: a change may hold the list before
                    seats[seat] = at
                else:
                    at = -1
            if text and type(move.row) is type(n) is type(deck) is int and type(t) is bool \
                    and type(last_round) is bool:
                # the change's JSON written straight: ``ENCODE`` of the dictionary below, key for key
                if quoted is None:
                    quoted = [ENCODE(name) for name in players]
                seat = move.seat
                card = move[2]
                out = (f'{{"action":["{"draw" if drawn else "take"}",{quoted[seat]},{move.row},'
                       f'{card_text.get(card) or _card_text(card, card_text)},'
                       f'{"true" if move.last_round else "false"}],"story":[{",".join(map(_TEXT, phrases))}]')
                if new_round:
                    out += ',"last_round":true' if last_round else ',"last_round":false'
                if new_next:
                    out += f',"next":{quoted[s.current]}'
                if new_deck:
                    out += f',"deck":{deck}'
                if new_row:  # the row's text by its value: a few thousand rows in a build (``_ROW_TEXT``)
                    out += f',"rows":{{"{i}":{_ROW_TEXT.get(row) or _row_text(row, card_text)}}}'
                if at >= 0:
                    out += f',"players":{{"{seat}":{at}}}'
                changes.append(out + "}")
                last = step
                continue
            change: dict[str, Any] = {"action": _action_json(move, players), "story": [x[1] for x in phrases]}
            if new_round:
                change["last_round"] = last_round
            if new_next:
                change["next"] = after
            if new_deck:
                change["deck"] = deck
            if new_row:
                change["rows"] = {str(i): [n, list(cards), t, who]}
            if at >= 0:
                change["players"] = {str(move.seat): at}
            changes.append(ENCODE(change) if text else change)
            last = step
            continue
        change = {
            "action": None if move is None or step.before is None else _action_json(move, players),
            "story": [x[1] for x in phrases],
        }
        scalars = (s.round, s.last_round, s.over, None if s.over else players[s.current], s.cards_left)
        if scalars != was:  # mostly "next" and "deck"
            for key, value, old in zip(_SCALARS, scalars, was or (_NONE,) * len(_SCALARS)):
                if value != old or old is _NONE:
                    change[key] = value
            was = scalars
        by = names.get(step.taken_by)
        if by is None:
            by = names[step.taken_by] = [None if b is None else players[b] for b in step.taken_by]
        rows = list(zip(s.limits, s.rows, s.taken, by))  # a list of its own: a draw changes an item (above)
        if last is None or len(rows) != len(rows_were):
            change["rows"] = [[n, list(cards), t, who] for n, cards, t, who in rows]
        elif rows != rows_were:
            change["rows"] = {str(i): [n, list(cards), t, who] for i, ((n, cards, t, who), old) in
                              enumerate(zip(rows, rows_were)) if (n, cards, t, who) != old}
        rows_were = rows
        if discarded != s.discarded:
            change["discarded"] = list(cards_of(s.discarded))
            discarded = s.discarded
        if last is None or step.scores is not last.scores or s.collections != last.state.collections \
                or s.done != last.state.done:
            now = []
            for seat, a in enumerate(step.scores):
                if last is not None and a is last.scores[seat] and s.collections[seat] == last.state.collections[seat] \
                        and s.done[seat] == last.state.done[seat]:
                    now.append(seats[seat])  # the entry of the state before
                    continue
                now.append(entry(s, seat, a))
            if last is None or len(now) != len(seats):
                change["players"] = now
            elif now != seats:
                change["players"] = {str(i): e for i, (e, o) in enumerate(zip(now, seats)) if e != o}
            seats = now
        changes.append(ENCODE(change) if text else change)
        last = step
    return entries, changes


_TEXT = itemgetter(2)  # a coded phrase's text (``_coded``)


def _coded(p: Phrase, known: dict[str | None, str]) -> tuple[Phrase, list[Any], str]:
    """A phrase, as the page writes it (``_phrase_json``), and that as JSON text (``ENCODE``'s; ``known``: texts
    of strings already written)."""
    found = _PHRASE_AT.get(p.text)
    if found is not None and len(found[1]) == len(p.values):
        # names, numbers and cards joined by commas (a take's phrase: most of a game's phrases not shared), both
        # written in one pass, as ``_phrase_json`` and the loop below write them
        written: list[Any] = [found[0]]
        texts = [str(found[0])]
        values = cast(tuple[tuple[str, Any], ...], p.values)  # narrowed by ``type`` below
        for (name, value), wanted in zip(values, found[1]):
            kind = type(value)
            if name != wanted:
                break
            if kind is str:
                written.append(value)
                texts.append(known.get(value) or _card_text(value, known))
            elif kind is int:
                written.append(value)
                texts.append(str(value))
            elif kind is Cards and value.join == "comma":
                written.append(list(value.cards))
                texts.append(_CARDS_TEXT.get(value.cards) or _cards_text(value.cards, known))
            else:
                break
        else:
            return p, written, f'[{",".join(texts)}]'
    written = _phrase_json(p)
    out = []
    for value in written:  # mostly numbers, names and lists of cards: written here, each string once
        kind = type(value)
        if kind is int:
            out.append(str(value))
        elif kind is str:
            out.append(_card_text(value, known))
        elif kind is list and all(type(c) is str for c in value):
            cards = tuple(value)
            out.append(_CARDS_TEXT.get(cards) or _cards_text(cards, known))
        else:
            out.append(ENCODE(value))
    return p, written, f'[{",".join(out)}]'


def _card_text(card: str | None, known: dict[str | None, str]) -> str:
    """A card, a name or None as JSON text (``ENCODE``'s), each written once (``known``)."""
    found = known.get(card)
    if found is None:
        found = known[card] = ENCODE(card)
    return found


_T = TypeVar("_T")


def _kept(cache: dict[Any, _T], key: Any, value: _T) -> _T:
    """``value`` kept in one of a build's shared caches (``_DRAWN``, ``_CARDS_TEXT``, ``_ROW_TEXT``), emptied when
    it holds ``_DRAWN_MAX``."""
    if len(cache) >= _DRAWN_MAX:
        cache.clear()
    cache[key] = value
    return value


def _cards_text(cards: tuple[str, ...], known: dict[str | None, str]) -> str:
    """Cards as the JSON text of their list, kept by the tuple (``_CARDS_TEXT``: callers look there first)."""
    return _kept(_CARDS_TEXT, cards, f'[{",".join([_card_text(c, known) for c in cards])}]')


def _row_text(row: tuple[Any, ...], known: dict[str | None, str]) -> str:
    """A row, ``(limit, cards, taken, taken_by's name)``, as the page writes it (``[limit, [cards], taken,
    taken_by]``), kept by its value (``_ROW_TEXT``: callers look there first). Its limit an int, ``taken`` a
    bool."""
    n, cards, t, who = row
    return _kept(_ROW_TEXT, row, f'[{n},{_CARDS_TEXT.get(cards) or _cards_text(cards, known)},'
                                 f'{"true" if t else "false"},{_card_text(who, known)}]')


def _game_json(g: GameTimeline, label: str, *, by_difference: bool = False) -> dict[str, Any]:
    before, after = _game_parts(g, label)
    if by_difference:
        entries, changes = changes_json(g)
        states: dict[str, Any] = {"entries": entries, "changes": changes}
    else:
        memo: dict[Any, Any] = {}  # the players' entries shared between steps (step_json)
        before.pop("kinds")
        states = {"states": [step_json(step, g.players, memo) for step in g.steps]}
    return {**before, **states, **after}


def _game_text(g: GameTimeline, label: str) -> str:
    """``ENCODE(_game_json(g, label, by_difference=True))``, its changes written by ``changes_text``."""
    before, after = _game_parts(g, label)
    entries, changes = changes_text(g)
    before["entries"] = entries
    return f'{ENCODE(before)[:-1]},"changes":[{",".join(changes)}],{ENCODE(after)[1:]}'


def _game_parts(g: GameTimeline, label: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game's fields before its states (``kinds`` the last, for the states by difference) and after them."""
    players = g.players
    setup = g.setup
    final = g.final_scores
    now = None if final is not None or not g.steps else tuple(a.score for a in g.steps[-1].scores)
    first = g.steps[0].state if g.steps else None
    before = {
        "game": g.number,
        "seeded": g.seeded,
        "complete": g.complete,
        "setup": None if setup is None else setup_json(setup, players, explicit=True),
        "colours": [] if first is None else list(first.colours),
        "moves": g.moves,
        "error": _error_json(g.error, label),
        "findings": [f.as_json() for f in g.findings],
        "kinds": [] if first is None else list(card_kinds(first.rules.edition, first.colours)),
    }
    after = {
        "scores": None if final is None else standings_json(players, final),
        "winners": None if final is None else list(winners(players, final)),
        "scores_so_far": None if now is None else standings_json(players, now),
        "leaders": None if now is None else list(winners(players, now)),
        "claims": [claim_json(v) for v in g.claims] if g.complete else None,
    }
    return before, after
