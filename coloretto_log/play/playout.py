"""Fast playouts for the analysis: the rest of a game on packed integers, every seat greedy.

``analyze`` plays tens of thousands of games out from each position, so it
cannot afford ``engine.apply`` and a ``Bot`` object per move. This module
plays the rest of a game with the ``greedy`` bot's rules (``bots.GreedyBot``:
take the row that raises the score most when that is at least
``TAKE_AT`` points, or must be taken; otherwise draw and put the card where
it adds most to one's own row value less what it adds for the rival who
gains most) on *packed* collections: one integer holds a count tuple, one
byte a kind, so adding a row to a collection is one addition and a score is
one dictionary look-up.

The rules of play used here are the engine's (RULES.md §3, §4): the
last-round card, the golden joker's extra card, the end of a round, the
leftover rows of two players. ``tests/test_analyze.py`` plays whole games
here and through ``engine.apply`` with ``bots.GreedyBot`` on the same decks
and checks that every collection ends the same, so the two cannot drift apart.

Nothing here knows the real deck: a playout gets the order of the unseen
cards it is to use (``Table.deal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    JOKER_INDEX,
    KINDS,
    N_KINDS,
    PLUS2_INDEX,
)
from ..core.engine import GameState
from ..core.rng import GOLDEN_GAMMA, MASK64
from ..core.ruleset import ScoringTable
from ..core.scoring import PLUS2_POINTS, best_from_counts

__all__ = ["LR", "TAKE_AT", "UNITS", "UNIT_OF", "Position", "Scores", "Table", "pack", "playout", "scores_for"]

#: ``greedy`` takes a row when it raises its score by at least this much (``bots.TAKE_AT``).
TAKE_AT = 4
#: The last-round card in a dealt order (no real card packs to 0).
LR = 0

_BITS = 8
UNITS: tuple[int, ...] = tuple(1 << (_BITS * k) for k in range(N_KINDS))
UNIT_OF: dict[str, int] = {name: UNITS[k] for k, name in enumerate(KINDS)}
GOLDEN_SHIFT = _BITS * GOLDEN_INDEX
_MASK = (1 << _BITS) - 1
_N_COLOURS = len(ALL_COLOURS)
_CAP6 = bytes(min(n, 6) for n in range(256))


def pack(counts: Sequence[int]) -> int:
    """A count tuple (``cards.KINDS`` order) as one integer, one byte a kind."""
    return int.from_bytes(bytes(counts), "little")


def pack_cards(cards: Sequence[str]) -> int:
    return sum(UNIT_OF[c] for c in cards)


class Scores(dict[int, int]):
    """Best-assignment scores (``scoring.best_from_counts``) of packed collections, memoised.

    A score depends only on the colour counts capped at 6 (as a multiset), the
    jokers and the "+2" cards, so a second memo keyed on that pattern calls
    the solver once per pattern. The first memo is emptied past ``limit``.
    """

    def __init__(self, colours: tuple[str, ...], table: ScoringTable, limit: int = 1 << 19) -> None:
        super().__init__()
        self.colours = colours
        self.table = table
        self.limit = limit
        self.patterns: dict[bytes, int] = {}

    def __missing__(self, packed: int) -> int:
        if len(self) >= self.limit:
            self.clear()
        raw = packed.to_bytes(N_KINDS, "little")
        key = bytes(sorted(raw[:_N_COLOURS].translate(_CAP6))) + bytes((raw[JOKER_INDEX] + raw[GOLDEN_INDEX],))
        base = self.patterns.get(key)
        if base is None:
            plain = list(raw)
            plain[PLUS2_INDEX] = 0
            base = self.patterns[key] = best_from_counts(plain, self.colours, table=self.table, cache=False).score
        value = self[packed] = base + PLUS2_POINTS * raw[PLUS2_INDEX]
        return value


_MEMOS: dict[tuple[tuple[str, ...], ScoringTable], Scores] = {}


def scores_for(colours: tuple[str, ...], table: ScoringTable) -> Scores:
    """One memo per process for these colours in play and this table."""
    key = (colours, table)
    memo = _MEMOS.get(key)
    if memo is None:
        memo = _MEMOS[key] = Scores(colours, table)
    return memo


@dataclass(frozen=True, slots=True)
class Position:
    """A position on packed values, with an optional card turned over and not yet placed."""

    colls: tuple[int, ...]
    rows: tuple[int, ...]
    lengths: tuple[int, ...]
    taken: tuple[bool, ...]
    done: tuple[bool, ...]
    seat: int  # to move
    last_round: bool
    pending: int = 0  # the unit of a card turned over by ``seat``, to be placed; 0: none


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed while a game is played out: rules, rows' limits, the unseen cards."""

    players: int
    limits: tuple[int, ...]
    pool: tuple[int, ...]  # the unseen cards' units, in kind order (no last-round card)
    lr_at: int  # the last-round card lies under this many unseen cards; -1: out already
    scores: Scores

    @staticmethod
    def of(state: GameState) -> tuple[Table, Position]:
        """The table and position of a public ``state`` (its deck's order is never read)."""
        pool: list[int] = []
        for k, n in enumerate(state.remaining):
            pool.extend([UNITS[k]] * n)
        lr_at = max(0, min(len(pool), state.lr_expected_at - state.turned)) if state.lr_pending else -1
        table = Table(
            state.players, state.limits, tuple(pool), lr_at, scores_for(state.colours, state.rules.table)
        )
        pos = Position(
            tuple(pack(c) for c in state.collections),
            tuple(pack_cards(r) for r in state.rows),
            tuple(len(r) for r in state.rows),
            state.taken,
            state.done,
            state.current,
            state.last_round,
        )
        return table, pos

    def reveal(self, pos: Position, card: str, last_round: bool) -> tuple[Table, Position]:
        """The table and position just after ``pos.seat`` turned over ``card`` (the last-round card first)."""
        unit = UNIT_OF[card]
        pool = list(self.pool)
        pool.remove(unit)
        lr_at = -1 if last_round else (max(0, self.lr_at - 1) if self.lr_at >= 0 else -1)
        table = Table(self.players, self.limits, tuple(pool), lr_at, self.scores)
        return table, Position(
            pos.colls, pos.rows, pos.lengths, pos.taken, pos.done, pos.seat, pos.last_round or last_round, unit
        )

    def need(self, pos: Position) -> int:
        """How many unseen cards a playout from ``pos`` can use at most."""
        space = sum(self.limits)
        if pos.last_round or self.lr_at < 0:
            free = sum(lim - n for lim, n, t in zip(self.limits, pos.lengths, pos.taken) if not t)
            return min(len(self.pool), free + self.players)  # + a golden joker's extra card a player
        return min(len(self.pool), self.lr_at + 2 * space + 2 * self.players)

    def deal(self, seed: int, need: int) -> list[int]:
        """The first ``need`` unseen cards in an order drawn uniformly from ``seed`` (SplitMix64,
        partial Fisher–Yates by multiply-shift), with ``LR`` in its place when it is among them."""
        a = list(self.pool)
        size = len(a)
        s = seed
        for j in range(min(need, size - 1)):
            s = (s + GOLDEN_GAMMA) & MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            k = j + ((z * (size - j)) >> 64)
            a[j], a[k] = a[k], a[j]
        del a[need:]
        if 0 <= self.lr_at <= len(a):
            a.insert(self.lr_at, LR)
        return a


def playout(table: Table, pos: Position, deck: list[int], at: int = 0) -> tuple[list[int], int]:
    """Play ``pos`` to the end of the game, every seat greedy, turning cards over from ``deck[at:]``.

    Returns every seat's packed collection at the end, and how many cards
    were turned over. If ``deck`` runs out (never in a legal game, whose
    last-round card lies deep enough) play stops where it is.
    """
    scores = table.scores
    limits = table.limits
    players = table.players
    n_rows = len(limits)
    colls = list(pos.colls)
    rows = list(pos.rows)
    lengths = list(pos.lengths)
    taken = list(pos.taken)
    done = list(pos.done)
    seat = pos.seat
    last_round = pos.last_round
    end = len(deck)
    card = pos.pending
    row_range = range(n_rows)
    while True:
        if not card:
            me = colls[seat]
            base = scores[me]
            best = -1
            gain = 0
            can_draw = False
            for i in row_range:
                if taken[i]:
                    continue
                r = rows[i]
                if r:
                    g = scores[me + r] - base
                    if best < 0 or g > gain:
                        best = i
                        gain = g
                if lengths[i] < limits[i]:
                    can_draw = True
            if at >= end or (deck[at] == LR and at + 1 >= end):
                can_draw = False
            if best >= 0 and (gain >= TAKE_AT or not can_draw):
                got = rows[best]
                if (got >> GOLDEN_SHIFT) & _MASK and at < end:
                    extra = deck[at]
                    at += 1
                    if extra == LR:
                        last_round = True
                        extra = deck[at] if at < end else 0
                        at += 1
                    got += extra
                colls[seat] = me + got
                rows[best] = 0
                lengths[best] = 0
                taken[best] = True
                done[seat] = True
                if all(done):
                    if last_round:
                        return colls, at
                    rows = [0] * n_rows
                    lengths = [0] * n_rows
                    taken = [False] * n_rows
                    done = [False] * players
                    continue  # the taker starts the next round
                seat = (seat + 1) % players
                while done[seat]:
                    seat = (seat + 1) % players
                continue
            if not can_draw:
                return colls, at
            card = deck[at]
            at += 1
            if card == LR:
                last_round = True
                card = deck[at]
                at += 1
        # place ``card``: greedy_place
        me = colls[seat]
        rivals = [colls[p] for p in range(players) if p != seat and not done[p]]
        best = -1
        value = 0
        for i in row_range:
            if taken[i] or lengths[i] >= limits[i]:
                continue
            r = rows[i]
            r2 = r + card
            v = scores[me + r2] - scores[me + r]
            if rivals:
                worst = -1000
                for c in rivals:
                    d = scores[c + r2] - scores[c + r]
                    worst = max(worst, d)
                v -= worst
            if best < 0 or v > value:
                best = i
                value = v
        rows[best] += card
        lengths[best] += 1
        card = 0
        seat = (seat + 1) % players
        while done[seat]:
            seat = (seat + 1) % players


# --------------------------------------------------------------------------- one decision, then greedy


def after_draw(pos: Position, deck: list[int]) -> tuple[Position, int]:
    """``pos.seat`` turns over the top card of ``deck`` (the last-round card first if it is there)."""
    at = 0
    card = deck[at]
    at += 1
    last_round = pos.last_round
    if card == LR:
        last_round = True
        card = deck[at]
        at += 1
    return Position(pos.colls, pos.rows, pos.lengths, pos.taken, pos.done, pos.seat, last_round, card), at


def after_take(table: Table, pos: Position, i: int, deck: list[int]) -> tuple[Position, int, bool]:
    """``pos.seat`` takes row ``i`` (from 0); the golden joker's extra card comes from ``deck``.

    Returns the position, the cards of ``deck`` used, and whether the game is over.
    """
    at = 0
    seat = pos.seat
    got = pos.rows[i]
    last_round = pos.last_round
    if (got >> GOLDEN_SHIFT) & _MASK and deck:
        extra = deck[at]
        at += 1
        if extra == LR:
            last_round = True
            extra = deck[at] if at < len(deck) else 0
            at += 1
        got += extra
    colls = pos.colls[:seat] + (pos.colls[seat] + got,) + pos.colls[seat + 1 :]
    rows = pos.rows[:i] + (0,) + pos.rows[i + 1 :]
    lengths = pos.lengths[:i] + (0,) + pos.lengths[i + 1 :]
    taken = pos.taken[:i] + (True,) + pos.taken[i + 1 :]
    done = pos.done[:seat] + (True,) + pos.done[seat + 1 :]
    if all(done):
        if last_round:
            return Position(colls, rows, lengths, taken, done, seat, True), at, True
        n = len(rows)
        return Position(colls, (0,) * n, (0,) * n, (False,) * n, (False,) * len(done), seat, False), at, False
    return Position(colls, rows, lengths, taken, done, _next(done, seat), last_round), at, False


def after_place(pos: Position, i: int) -> Position:
    """``pos.seat`` puts its pending card in row ``i`` (from 0)."""
    rows = pos.rows[:i] + (pos.rows[i] + pos.pending,) + pos.rows[i + 1 :]
    lengths = pos.lengths[:i] + (pos.lengths[i] + 1,) + pos.lengths[i + 1 :]
    return Position(pos.colls, rows, lengths, pos.taken, pos.done, _next(pos.done, pos.seat), pos.last_round)


def _next(done: tuple[bool, ...], seat: int) -> int:
    n = len(done)
    s = (seat + 1) % n
    while done[s]:
        s = (s + 1) % n
    return s
