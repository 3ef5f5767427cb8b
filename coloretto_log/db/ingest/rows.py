"""Ingest's rows: one valid, scored match turned into the rows of every table, built by column name.

A :class:`Batch` gathers the rows of the matches of one transaction.
:meth:`Rows.add` takes a row as ``column=value`` pairs (a column left out is
NULL), so a new column of ``schema.TABLES`` is one new value here. The moves,
by far the most rows, are gathered column by column (:class:`Moves`), their
integer columns as ``array('i')`` handed to Arrow without a copy.
"""

from __future__ import annotations

import datetime as _dt
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING, Any

import pyarrow as pa  # type: ignore[import-untyped]

from ...core.cards import ALL_COLOURS, GOLDEN_INDEX, JOKER_INDEX, KIND_INDEX, PLUS2_INDEX
from ...core.engine import Take
from ...log.load import LoadedMatch
from ...log.reader import canonical_json
from ...report.scorecard import score_match
from ..schema import ARROW_SCHEMAS, I32, STR, TABLES

if TYPE_CHECKING:
    from ...log.models import Event

__all__ = ["LOG_LEVEL", "Batch", "Moves", "Rows", "append_match", "match_identity", "pack_log"]

#: zlib's level for the stored logs (``match_logs``): its default, 6.
LOG_LEVEL = 6

assert array("i").itemsize == 4, "array('i') must hold 32-bit integers"


class Rows:
    """One table's rows of a batch, kept column by column; :meth:`arrow` makes them one Arrow table."""

    __slots__ = ("cols", "count", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.cols: dict[str, list[Any]] = {f.name: [] for f in ARROW_SCHEMAS[name]}
        self.count = 0

    def add(self, **values: Any) -> None:
        """Append one row; a column not given is NULL; an unknown column is a bug."""
        cols = self.cols
        for name, value in values.items():
            cols[name].append(value)  # KeyError: not a column of this table
        self.count += 1
        if len(values) < len(cols):
            for column in cols.values():
                if len(column) < self.count:
                    column.append(None)

    def extend(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self.add(**row)

    def arrow(self) -> pa.Table:
        schema = ARROW_SCHEMAS[self.name]
        return pa.Table.from_arrays([pa.array(self.cols[f.name], type=f.type) for f in schema], schema=schema)


class Moves:
    """The moves of a batch, column by column: integer columns as ``array('i')``, passed to Arrow without a copy."""

    __slots__ = ("cols", "match_ids", "players")

    INTS = ("match_id", "game", "move", "round", "seat", "player", "row")

    def __init__(self) -> None:
        self.cols: dict[str, Any] = {name: array("i") for name in self.INTS}
        self.cols.update(take=[], cx=[], last_round=[])
        self.match_ids: list[str] = []  # the dictionary of the match_id column
        self.players: list[str] = []  # the dictionary of the player column

    def arrow(self) -> pa.Table:
        schema = ARROW_SCHEMAS["moves"]
        c = self.cols
        arrays = []
        for f in schema:
            values = c[f.name]
            if f.name == "match_id":
                arrays.append(pa.DictionaryArray.from_arrays(_i32(values), pa.array(self.match_ids, type=STR)))
            elif f.name == "player":
                arrays.append(pa.DictionaryArray.from_arrays(_i32(values), pa.array(self.players, type=STR)))
            elif f.name in self.INTS:
                arrays.append(_i32(values))
            else:
                arrays.append(pa.array(values, type=f.type))
        return pa.Table.from_arrays(arrays, schema=schema)


def _i32(values: array[int]) -> pa.Array:
    """An ``array('i')`` (4 bytes an item on CPython) as an Arrow int32 array over the same buffer."""
    return pa.Array.from_buffers(I32, len(values), [None, pa.py_buffer(values)])


@dataclass
class Batch:
    """The rows of the matches of one transaction, and what to report once it is written."""

    tables: dict[str, Rows] = field(default_factory=lambda: {name: Rows(name) for name in TABLES if name != "moves"})
    moves: Moves = field(default_factory=Moves)
    ids: set[str] = field(default_factory=set)
    to_delete: list[str] = field(default_factory=list)  # stored matches this batch replaces
    events: list[Any] = field(default_factory=list)  # the IngestEvents to report once written
    games: int = 0


_COLOUR_KINDS = tuple(KIND_INDEX[c] for c in ALL_COLOURS)


def append_match(batch: Batch, item: LoadedMatch, match_id: str, digest: str, *, source_file: str) -> None:
    """Add the rows of one valid match to ``batch``.

    The figures are ``score``'s (:func:`scorecard.score_match`): scores,
    ranks, winners, totals; the verdicts are the games' own
    (``GameRecord.verdicts``). ``source_file`` is the file name as stored.
    """
    report = item.report
    match, rules = report.match, report.rules
    assert match is not None and rules is not None
    scored = score_match(item)
    players = report.players
    n = len(players)
    t = batch.tables
    games_rows, player_rows = t["games"], t["game_players"]
    _append_moves(batch.moves, item, match_id, n)

    for record, game in zip(report.games, scored.games):
        setup, final = record.setup, record.final
        assert setup is not None and final is not None
        first = setup.first
        k = len(record.moves)
        in_play = [c in game.colours for c in ALL_COLOURS]
        complete = game.complete
        winners = game.winners()
        games_rows.add(
            match_id=match_id, game=record.number, n_players=n, complete=complete, seeded=record.seeded,
            removed=game.removed, first_seat=first, first_player=players[first],
            rounds=final.round if k else 0, moves=k,
            winners=winners if complete else None,
            top_score=max(p.score for p in game.players) if complete else None,
        )
        judged = record.verdicts() if complete else None
        shared = len(winners) > 1
        for p in game.players:
            seat, counts = p.seat, p.counts
            row: dict[str, Any] = {
                "match_id": match_id, "game": record.number, "seat": seat, "player": p.player, "n_players": n,
                "turn": (seat - first) % n + 1,
                "jokers": counts[JOKER_INDEX], "golden_jokers": counts[GOLDEN_INDEX], "plus2": counts[PLUS2_INDEX],
                "complete": complete,
            }
            for colour, kind, play in zip(ALL_COLOURS, _COLOUR_KINDS, in_play):
                row[colour] = counts[kind] if play else None
            if judged is not None:  # an unfinished game: the score columns stay NULL
                v = judged[seat]
                a = p.optimal
                points = {line.colour: line.points for line in a.breakdown}
                claim = v.claim
                won = p.rank == 1
                row.update(
                    score=a.score, rank=p.rank, win=won, shared_win=won and shared, joker_colours=a.jokers,
                    positive=a.positive, plus2_points=a.plus2_points, verdict=v.status,
                )
                for colour, play in zip(ALL_COLOURS, in_play):
                    row[f"points_{colour}"] = points.get(colour, 0) if play else None
                if claim is not None:
                    row.update(claimed_score=claim.score, claimed_jokers=claim.jokers, claimed_positive=claim.positive)
            player_rows.add(**row)

    complete_match = scored.complete
    counted = scored.games_counted
    t["match_players"].extend(
        {
            "match_id": match_id, "seat": s.seat, "player": s.player, "n_players": n, "games_counted": counted,
            "total": s.total, "rank": s.rank, "win": s.rank == 1 if complete_match else None,
        }
        for s in scored.standings
    )
    t["matches"].add(
        match_id=match_id, content_hash=digest, date=_dt.date.fromisoformat(match.date) if match.date else None,
        edition=rules.edition.name, scoring=rules.table.name, games_planned=rules.games, under_last_round=rules.under,
        players=players, n_players=n, seed=match.seed, source_file=source_file, source_line=item.line,
        games_played=len(report.games), games_complete=counted, complete=complete_match,
        winners=scored.winners() if complete_match else None,
        **_event_values(match.event),
    )
    t["match_logs"].add(match_id=match_id, log=pack_log(report.data))


def pack_log(data: Any) -> bytes:
    """The stored form of a match's parsed log: its canonical JSON, UTF-8, zlib-compressed (``match_logs.log``)."""
    return zlib.compress(canonical_json(data).encode("utf-8", "surrogatepass"), LOG_LEVEL)


def _event_values(event: Event | None) -> dict[str, Any]:
    """The ``event`` columns of a match row (NULL without an event)."""
    if event is None:
        return {}
    return {"event": event.name, "event_round": event.round, "event_table": event.table}


def _append_moves(mv: Moves, item: LoadedMatch, match_id: str, n: int) -> None:
    """The match's moves, column-wise: Draw and Take share their layout (seat, row, card or extra, last_round)."""
    report = item.report
    cols = mv.cols
    mi = len(mv.match_ids)
    mv.match_ids.append(match_id)
    first_name = len(mv.players)
    mv.players.extend(report.players)
    for record in report.games:
        moves = record.moves
        k = len(moves)
        if not k:
            continue
        seats, rows, cx, lrs = zip(*moves)
        is_take = [type(m) is Take for m in moves]
        before = list(accumulate(is_take, initial=0))  # rows taken before each move
        cols["match_id"].extend(_repeat(mi, k))
        cols["game"].extend(_repeat(record.number, k))
        cols["move"].extend(range(1, k + 1))
        cols["round"].extend([1 + b // n for b in before[:k]])
        cols["seat"].extend(seats)
        cols["player"].extend([first_name + s for s in seats])
        cols["row"].extend(rows)
        cols["take"].extend(is_take)
        cols["cx"].extend(cx)
        cols["last_round"].extend(lrs)


def _repeat(value: int, k: int) -> array[int]:
    return array("i", (value,)) * k


def match_identity(item: LoadedMatch) -> tuple[str, str]:
    """A valid match's id (``report.match_id``) and content hash (``report.content_hash``)."""
    report = item.report
    match_id, digest = report.match_id, report.content_hash
    assert match_id is not None and digest is not None  # a valid match is a JSON object
    return match_id, digest
