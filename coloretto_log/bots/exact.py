"""Exact values of the last decisions of a game: every order of the unseen cards, best play by all.

Once the last-round card has come out, the game ends with the round, and
when few places are left in the rows the rest of the game is a small tree:
``choice_values`` searches it completely (max-n expectimax). At a card's
turn every kind of card still unseen comes with its probability (its count
over the cards unseen: every order of the unseen cards, weighted alike); at
a player's turn that player picks the choice with the best expected margin
for themselves (own final score less the mean of the others'), ties to the
first choice (drawing, then the rows in order). Every step goes through the
engine's one copy of the rules (``engine.Table``); positions met twice are
searched once (a memo keyed on the state reached and the card in hand).

Values are **exact**: the search runs on integers (each value multiplied by
the number of ways the rest of the cards can come out, see ``_Search``) and
gives ``Fraction``\\ s, so that two choices worth the same are equal and the
tie goes by the rule above, never by the rounding of a float (a draw worth
-7.000000000000002 once lost its tie to a take worth -7).

A value is a vector: every seat's expected final margin, then every seat's
probability of finishing first (a shared first place counts as first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from ..core.cards import GOLDEN_JOKER, KINDS
from ..core.engine import GameState, Table
from .players import Scores, pack, scores_for, turned_over
from .playout import Choice, Start, choices

__all__ = ["EXACT_SLOTS", "Vector", "applies", "best_index", "choice_values", "final_vector"]

#: Exact search once the last round has begun and at most this many places are left in the rows
#: still on the table (or fewer cards unseen than that).
EXACT_SLOTS = 4

#: Every seat's margin, then every seat's chance of finishing first: ints or Fractions, never floats.
Vector = tuple[Fraction | int, ...]


def applies(start: Start) -> bool:
    """Whether the exact search is cheap here: the last round, few places left in the rows."""
    state = start.state
    if not state.last_round or start.lr_at >= 0:
        return False
    free = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
    return free <= EXACT_SLOTS


def final_vector(scores: Scores, collections: Sequence[tuple[int, ...]]) -> tuple[float, ...]:
    """Every seat's margin (own score less the mean of the others'), then whether it finished first, as
    floats: one playout's outcome (the search itself keeps exact integers, see ``_Search``)."""
    s = [scores[pack(c)] for c in collections]
    n = len(s)
    total = sum(s)
    top = max(s)
    return tuple(x - (total - x) / (n - 1) for x in s) + tuple(1.0 if x == top else 0.0 for x in s)


def best_index(values: Sequence[Sequence[Fraction | int]], seat: int) -> int:
    """The choice ``seat`` plays among ``values``: the best margin, ties to the first (the stated rule)."""
    best = 0
    for k in range(1, len(values)):
        if values[k][seat] > values[best][seat]:
            best = k
    return best


class _Search:
    """The tree in integers: a value ``t`` cards below the root is kept multiplied by ``scale[t]``, the
    number of ways the cards after it can still come out (``(N - t)(N - t - 1)…`` down to the deepest
    card), and margins by ``players - 1``: a chance node is then a plain sum of its children times their
    counts, a decision compares integers of one scale, and nothing is ever rounded."""

    def __init__(self, state: GameState) -> None:
        self.scores = scores_for(state)
        self.memo: dict[tuple[tuple[object, ...], str | None], tuple[int, ...]] = {}
        self.base = state.turned
        unseen = sum(state.remaining)
        free = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
        deepest = min(unseen, free + 1)  # a card for each place left, and a golden joker's extra card
        scale = [1] * (deepest + 1)
        for t in range(deepest - 1, -1, -1):
            scale[t] = scale[t + 1] * (unseen - t)
        self.scale = scale

    def node(self, state: GameState, card: str | None) -> tuple[int, ...]:
        key = (state[4:], card)  # the rules, the players, the colours out and the rows' sizes are the root's
        got = self.memo.get(key)
        if got is None:
            values = [self.after(state, card, c) for c in choices(state, card)]
            got = self.memo[key] = values[best_index(values, state.current)]
        return got

    def after(self, state: GameState, card: str | None, choice: Choice) -> tuple[int, ...]:
        """The value of ``choice`` for ``state.current`` (``card`` in hand for a row decision)."""
        kind, i = choice
        if kind == "row":
            assert card is not None
            table = Table(state)
            table.place(state.current, i, card)
            return self.node(table.state(), None)
        if kind == "draw":
            return self._chance(state, lambda drawn: self.node(turned_over(state, drawn, False), drawn))
        if GOLDEN_JOKER in state.rows[i] and any(state.remaining):
            return self._chance(state, lambda extra: self._took(state, i, extra))
        return self._took(state, i, None)

    def _took(self, state: GameState, i: int, extra: str | None) -> tuple[int, ...]:
        table = Table(state)
        table.take(state.current, i, extra, False)
        if table.over:
            s = [self.scores[pack(c)] for c in table.collections]
            n, total, top = len(s), sum(s), max(s)
            f = self.scale[table.turned - self.base]
            return tuple((n * x - total) * f for x in s) + tuple(f if x == top else 0 for x in s)
        return self.node(table.state(), None)

    def _chance(self, state: GameState, then: Callable[[str], tuple[int, ...]]) -> tuple[int, ...]:
        """The next card turned over, each kind by its count unseen: the sum of the children (scaled) times
        their counts (each count over the cards unseen, times the scale here, is the count alone)."""
        acc: list[int] | None = None
        for k, count in enumerate(state.remaining):
            if not count:
                continue
            v = then(KINDS[k])
            if acc is None:
                acc = [count * x for x in v]
            else:
                for j, x in enumerate(v):
                    acc[j] += count * x
        assert acc is not None
        return tuple(acc)


def choice_values(start: Start, wanted: list[Choice]) -> list[Vector]:
    """The exact value vector of each choice in ``wanted`` (see ``playout.choices``) at ``start``: every
    seat's margin, then every seat's chance of finishing first, as ``Fraction``\\ s."""
    search = _Search(start.state)
    n = start.state.players
    whole = search.scale[0]
    out: list[Vector] = []
    for c in wanted:
        v = search.after(start.state, start.card, c)
        out.append(tuple(Fraction(x, whole * (n - 1)) for x in v[:n]) + tuple(Fraction(x, whole) for x in v[n:]))
    return out
