"""Exact values of the last decisions of a game: every order of the unseen cards, best play by all.

Once the last-round card has come out, the game ends with the round, and
when few places are left in the rows the rest of the game is a small tree:
``value`` searches it completely (max-n expectimax). At a card's turn every
kind of card still unseen comes with its probability (its count over the
cards unseen: every order of the unseen cards, weighted alike); at a
player's turn that player picks the choice with the best expected margin
for themselves (own final score less the mean of the others'), ties to the
first choice (drawing, then the rows in order). Positions met twice are
searched once (a memo keyed on the packed position).

A value is a vector: every seat's expected final margin, then every seat's
probability of finishing first (a shared first place counts as first).
"""

from __future__ import annotations

from .playout import GOLDEN_SHIFT, UNITS, Position, Scores, Table

__all__ = ["EXACT_SLOTS", "Vector", "applies", "choice_values", "final_vector"]

#: Exact search once the last round has begun and at most this many places are left in the rows
#: still on the table (or fewer cards unseen than that).
EXACT_SLOTS = 4

Vector = tuple[float, ...]
_MASK = 0xFF


def applies(table: Table, pos: Position) -> bool:
    """Whether the exact search is cheap here: the last round, few places left in the rows."""
    if not pos.last_round or table.lr_at >= 0:
        return False
    free = sum(lim - n for lim, n, t in zip(table.limits, pos.lengths, pos.taken) if not t)
    return free <= EXACT_SLOTS


def final_vector(scores: Scores, colls: tuple[int, ...] | list[int]) -> Vector:
    """Every seat's margin (own score less the mean of the others'), then whether it finished first."""
    s = [scores[c] for c in colls]
    n = len(s)
    total = sum(s)
    top = max(s)
    return tuple(x - (total - x) / (n - 1) for x in s) + tuple(1.0 if x == top else 0.0 for x in s)


class _Search:
    def __init__(self, table: Table) -> None:
        self.scores = table.scores
        self.limits = table.limits
        self.players = table.players
        self.memo: dict[tuple[object, ...], Vector] = {}

    def node(self, pos: Position, rem: int) -> Vector:
        key = (pos.colls, pos.rows, pos.taken, pos.done, pos.seat, pos.pending, rem)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._best(pos, rem)[0]
        return got

    def _best(self, pos: Position, rem: int) -> tuple[Vector, int]:
        values = self.children(pos, rem)
        seat = pos.seat
        best = 0
        for k in range(1, len(values)):
            if values[k][seat] > values[best][seat]:
                best = k
        return values[best], best

    def children(self, pos: Position, rem: int) -> list[Vector]:
        """The value of each choice open to ``pos.seat``, in the order of ``choices``."""
        return [self.after(pos, rem, choice) for choice in choices(self.limits, pos, rem)]

    def after(self, pos: Position, rem: int, choice: tuple[str, int]) -> Vector:
        kind, i = choice
        if kind == "row":
            rows = pos.rows[:i] + (pos.rows[i] + pos.pending,) + pos.rows[i + 1 :]
            lengths = pos.lengths[:i] + (pos.lengths[i] + 1,) + pos.lengths[i + 1 :]
            nxt = Position(pos.colls, rows, lengths, pos.taken, pos.done, _next(pos.done, pos.seat), True)
            return self.node(nxt, rem)
        if kind == "draw":
            return self._chance(rem, lambda unit, left: self.node(
                Position(pos.colls, pos.rows, pos.lengths, pos.taken, pos.done, pos.seat, True, unit), left))
        got = pos.rows[i]
        if (got >> GOLDEN_SHIFT) & _MASK and rem:
            return self._chance(rem, lambda unit, left: self._took(pos, i, got + unit, left))
        return self._took(pos, i, got, rem)

    def _took(self, pos: Position, i: int, got: int, rem: int) -> Vector:
        seat = pos.seat
        colls = pos.colls[:seat] + (pos.colls[seat] + got,) + pos.colls[seat + 1 :]
        done = pos.done[:seat] + (True,) + pos.done[seat + 1 :]
        if all(done):
            return final_vector(self.scores, colls)
        rows = pos.rows[:i] + (0,) + pos.rows[i + 1 :]
        lengths = pos.lengths[:i] + (0,) + pos.lengths[i + 1 :]
        taken = pos.taken[:i] + (True,) + pos.taken[i + 1 :]
        return self.node(Position(colls, rows, lengths, taken, done, _next(done, seat), True), rem)

    def _chance(self, rem: int, then: object) -> Vector:
        total = sum((rem >> (8 * k)) & _MASK for k in range(len(UNITS)))
        acc: list[float] | None = None
        for unit in UNITS:
            count = (rem // unit) & _MASK
            if not count:
                continue
            v = then(unit, rem - unit)  # type: ignore[operator]
            w = count / total
            if acc is None:
                acc = [w * x for x in v]
            else:
                for j, x in enumerate(v):
                    acc[j] += w * x
        assert acc is not None
        return tuple(acc)


def choices(limits: tuple[int, ...], pos: Position, rem: int) -> list[tuple[str, int]]:
    """The choices open to ``pos.seat``: ``("row", i)`` for a pending card, else ``("draw", -1)``
    (when a row has space and a card is left) and ``("take", i)`` for every row that can be taken."""
    open_rows = [i for i in range(len(limits)) if not pos.taken[i]]
    if pos.pending:
        return [("row", i) for i in open_rows if pos.lengths[i] < limits[i]]
    out: list[tuple[str, int]] = []
    if rem and any(pos.lengths[i] < limits[i] for i in open_rows):
        out.append(("draw", -1))
    out.extend(("take", i) for i in open_rows if pos.rows[i])
    return out


def choice_values(table: Table, pos: Position, wanted: list[tuple[str, int]]) -> list[Vector]:
    """The exact value vector of each choice in ``wanted`` (see ``choices``) at ``pos``."""
    search = _Search(table)
    rem = sum(table.pool)
    return [search.after(pos, rem, c) for c in wanted]


def _next(done: tuple[bool, ...], seat: int) -> int:
    n = len(done)
    s = (seat + 1) % n
    while done[s]:
        s = (s + 1) % n
    return s
