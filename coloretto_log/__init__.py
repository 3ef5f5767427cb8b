"""coloretto-log: record, validate, replay and score Coloretto match logs.

The library behind the ``coloretto-log`` command, for programs. The public
API is the names below, importable from the package top; each function
imports what it needs on its first call, so ``import coloretto_log`` stays
light (the command line imports it on every start).

Logs (docs/format.md):

* :func:`read_logs`: read files, folders or ``-``, check every match;
* :func:`check_match`: check one match given as parsed JSON or as text;
* :func:`score_match`: exact scores, rankings and claim verdicts of a match.

Play and scoring (docs/rules-of-play.md):

* :func:`best_score`: the optimal assignment of a hand, as the table-side
  calculator ``score --hand`` gives it;
* :func:`deal`: the seeded setup of one game (docs/format.md §4);
* :func:`new_game`, :func:`legal_actions`, :func:`play_move`: the rules
  engine, one immutable state at a time (``play_move`` raises
  :class:`IllegalMove`);
* :func:`game_scores`: every player's best score in a finished game.

Deeper layers (``coloretto_log.core``, ``.log``, ``.play``, ``.report``,
``.db``, ``.view``) are described in docs/architecture.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.engine import GameState, Move
    from .core.scoring import Assignment
    from .core.setup import Setup
    from .log.load import LoadedMatch, Unreadable
    from .log.replay import MatchReport
    from .report.scorecard import HandScore, MatchScore

__version__ = "0.1.0"

__all__ = [
    "IllegalMove",
    "__version__",
    "best_score",
    "check_match",
    "deal",
    "game_scores",
    "legal_actions",
    "new_game",
    "play_move",
    "read_logs",
    "score_match",
]


def read_logs(*paths: str | os.PathLike[str]) -> Iterator[LoadedMatch | Unreadable]:
    """Every match under ``paths``, read safely and checked, in order.

    A path is a ``.json`` file (one match), a ``.jsonl`` file (one match a
    line, streamed: memory stays flat), a folder (searched recursively) or
    ``-`` for standard input. Each match comes as a ``LoadedMatch``
    (``label``: ``FILE`` or ``FILE:LINE``; ``report``: what
    :func:`check_match` found); a path that cannot be read at all comes as
    an ``Unreadable`` with a one-line ``message``.

    >>> for match in read_logs("sample_logs/5p-seeded-games.jsonl"):
    ...     print(match.label, match.report.valid, len(match.report.games))
    sample_logs/5p-seeded-games.jsonl:1 True 1
    sample_logs/5p-seeded-games.jsonl:2 True 1
    >>> [gone] = read_logs("no-such-file.json")
    >>> gone.message
    'no-such-file.json: no such file or folder'
    """
    from .log.load import load

    return load([os.fspath(p) for p in paths])


def check_match(match: Any) -> MatchReport:
    """Check one match against the format and the rules, by replaying it.

    ``match`` is the parsed JSON of one match, or its text (``str`` or
    ``bytes``, read as strictly as a file: UTF-8, no duplicate keys, no
    ``NaN``). Nothing is raised for a bad log: the report holds every
    finding (``all_findings()``, each with ``rule``, ``severity``, ``game``,
    ``move``, ``message`` and ``line(source)``), ``valid``, ``complete``, and
    for every game its setup, resolved moves and final state.

    >>> report = check_match({"format": "coloretto-log", "version": 1,
    ...                       "players": ["Ann", "Ben", "Cy"], "seed": 7, "games": []})
    >>> report.valid, report.complete
    (True, False)
    >>> bad = check_match('{"format": "coloretto-log", "version": 2, "players": ["Ann", "Ben"], "games": []}')
    >>> [f.line("m.json") for f in bad.all_findings()]
    ['m.json: error [bad-version] "version" should be 1 (got 2)']
    """
    from .log.replay import MatchReport
    from .log.replay import check_match as check

    if isinstance(match, (str, bytes)):
        from .core.errors import Finding
        from .log.reader import decode, finding_rule, parse_json

        try:
            text = decode(match) if isinstance(match, bytes) else match
        except ValueError as e:
            return MatchReport(findings=[Finding("error", "bad-encoding", str(e))])
        try:
            match = parse_json(text)
        except ValueError as e:
            return MatchReport(findings=[Finding("error", finding_rule(e), str(e))])
    return check(match)


def score_match(match: LoadedMatch | Any) -> MatchScore:
    """Exact scores of a match: every game's optimum, rankings, totals, claim verdicts.

    ``match`` is what :func:`read_logs` yields, or anything
    :func:`check_match` takes. An invalid match comes back unscored
    (``valid`` False, ``findings`` says why). Tied players share a rank.

    >>> [match] = read_logs("sample_logs/classic-4p-recorded-match-with-claims.json")
    >>> scored = score_match(match)
    >>> scored.complete, scored.agrees
    (True, True)
    >>> [(s.player, s.total, s.rank) for s in scored.standings]
    [('Aiko', 100, 2), ('Boris', 98, 3), ('Chloe', 111, 1), ('Dae', 96, 4)]
    """
    from .log.load import LoadedMatch
    from .report.scorecard import score_match as score

    if not isinstance(match, LoadedMatch):
        match = LoadedMatch("<match>", "<match>", None, check_match(match))
    return score(match)


def best_score(
    hand: str | Mapping[str, int],
    *,
    edition: str = "classic",
    table: str = "standard",
    removed: tuple[str, ...] = (),
) -> HandScore:
    """The best score of a hand: joker colours and positive colours that reach it.

    ``hand`` is typed as at the table (``"green=6 yellow=4 joker=1 +2=1"``;
    the names of ``score --hand``) or a mapping from card name to count.
    ``table`` is ``standard`` or ``alternative``; ``removed``: the colours
    taken out at setup. The answer is exact; where several assignments reach
    it, the one shown puts jokers on the earliest colours (edition order).
    Raises ``HandError`` (a ``ValueError``, one line) for a hand no game
    can produce.

    >>> result = best_score("green=6 yellow=4 red=3 blue=2 joker=1 +2=1")
    >>> result.score, result.optimal.jokers, result.optimal.positive
    (41, ('yellow',), ('yellow', 'green', 'red'))
    >>> best_score({"red": 6, "blue": 2, "green": 1, "joker": 1}, table="alternative").score
    14
    """
    from .report.scorecard import calculate

    if not isinstance(hand, str):
        hand = " ".join(f"{name}={count}" for name, count in hand.items())
    return calculate(hand, edition=edition, table=table, removed=removed)


def deal(players: int, seed: int, *, game: int = 1, edition: str = "classic", under_last_round: int | None = None) -> Setup:
    """The seeded setup of game ``game`` (from 1) of a match with this ``seed``.

    Exactly docs/format.md §4 (the format's index ``g`` is ``game - 1``):
    ``removed`` colours, ``starting`` cards by seat (from 0), the ``first``
    seat, and the ``deck`` top first with ``last_round`` in place.

    >>> setup = deal(4, 42)
    >>> setup.removed, setup.starting, setup.first
    ((), (('green',), ('yellow',), ('blue',), ('red',)), 2)
    >>> setup.deck[:4], setup.deck.index("last_round")
    (('orange', 'red', 'red', 'yellow'), 57)
    """
    from .core.ruleset import LAYOUTS, RuleSet
    from .core.setup import seeded_setup

    if players not in LAYOUTS:
        raise ValueError(f"a game has 2 to 5 players, not {players}")
    if game < 1:
        raise ValueError(f"games count from 1, not {game}")
    rules = RuleSet.of(edition=edition, under_last_round=under_last_round)
    return seeded_setup(rules, players, seed, game - 1)


def new_game(
    players: int,
    seed: int,
    *,
    game: int = 1,
    edition: str = "classic",
    scoring: str = "standard",
    under_last_round: int | None = None,
) -> GameState:
    """The state before the first move of a seeded game (:func:`deal`'s setup).

    The state is an immutable value: ``current`` (the seat to move, from 0),
    ``rows``, ``collections``, ``round``, ``over`` and more
    (``coloretto_log.core.engine.GameState``).

    >>> state = new_game(3, seed=7)
    >>> state.players, state.current, state.round, state.over
    (3, 2, 1, False)
    >>> state.removed
    ('grey',)
    """
    from .core.engine import new_game as start
    from .core.ruleset import RuleSet

    setup = deal(players, seed, game=game, edition=edition, under_last_round=under_last_round)
    rules = RuleSet.of(edition=edition, scoring=scoring, under_last_round=under_last_round)
    return start(
        rules, players, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck
    )


def legal_actions(state: GameState) -> tuple[Move, ...]:
    """Every decision open to the player to move: draws first, then takes, rows in order.

    A ``Draw(seat, row)`` or ``Take(seat, row)``, seats from 0 and rows
    from 1; the cards are filled in by :func:`play_move`.

    >>> state = new_game(3, seed=7)
    >>> legal_actions(state)
    (Draw(seat=2, row=1, card=None, last_round=None), Draw(seat=2, row=2, card=None, last_round=None), Draw(seat=2, row=3, card=None, last_round=None))
    """
    from .core.engine import legal_actions as actions

    return actions(state)


def play_move(state: GameState, move: Move) -> tuple[GameState, Move]:
    """Check and apply one move: the next state, and the move with its cards filled in.

    Raises :class:`IllegalMove` (a ``ValueError``) naming the rule id the
    move breaks (docs/format.md §3); ``state`` itself never changes.

    >>> state = new_game(3, seed=7)
    >>> state, move = play_move(state, legal_actions(state)[0])
    >>> move
    Draw(seat=2, row=1, card='plus2', last_round=False)
    >>> play_move(state, legal_actions(state)[0])[0].rows[0]
    ('plus2', 'blue')
    >>> play_move(state, move)
    Traceback (most recent call last):
    ...
    coloretto_log.core.engine.IllegalMove: [not-your-turn] it is not this player's turn
    >>> while not state.over:
    ...     state, _ = play_move(state, legal_actions(state)[0])
    >>> state.round
    6
    """
    from .core.engine import play as step

    return step(state, move)


def game_scores(state: GameState) -> tuple[Assignment, ...]:
    """Every player's best assignment (``score``, ``jokers``, ``positive``) in seat order.

    Meant for a finished game (``state.over``); on a game in progress it
    scores the collections as they stand.

    >>> state = new_game(4, seed=42)
    >>> while not state.over:
    ...     state, _ = play_move(state, legal_actions(state)[-1])
    >>> [a.score for a in game_scores(state)]
    [19, 27, 16, 30]
    """
    from .core.scoring import best_from_counts

    table = state.rules.table
    colours = state.colours
    return tuple(best_from_counts(counts, colours, table=table) for counts in state.collections)


def __getattr__(name: str) -> Any:
    """``IllegalMove``, imported on first use."""
    if name == "IllegalMove":
        from .core.engine import IllegalMove

        return IllegalMove
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
