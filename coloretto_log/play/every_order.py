"""Every order a playout can meet, counted: the sampler's expectation without its noise, where it is small.

The sampler (``estimate``) plays each choice out on sampled orders of the
unseen cards, every seat following ``greedy``, to where ``Start.stop_round``
says (the end of the round, or of the game near its end), and values the
position there (the evaluator, or the real scores of a finished game). What
it estimates is an expectation over the cards that come out on the way.
Late in a round a playout meets only a few cards: a tree of a few dozen or
a few hundred card sequences. ``values`` walks that whole tree instead,
each card coming with its probability (its count over the cards unseen:
every order of the unseen cards, weighted alike; the last-round card where
the rules put it, as ``Start.deal`` puts it), every seat playing as the
playouts do (``bots.GreedyBot``, through ``engine.Table``), and gives each
choice's value as the weighted mean over the leaves: the number the sampler
converges to, with no sampling error, the same whatever the seed.

A tree with more than ``budget`` leaves and open branches is given up as
soon as it is seen to be (``None``): the sampler takes over there. Positions
reached twice (the same table by two orders of the same cards) are valued
once.
"""

from __future__ import annotations

from collections import deque

from ..core.cards import GOLDEN_JOKER, KINDS
from ..core.engine import Table
from ..core.rng import SplitMix64
from . import bots
from .playout import Choice, Start

__all__ = ["Leaves", "leaves"]

_GREEDY = bots.GreedyBot()
_RNG = SplitMix64(0)  # greedy draws nothing from it

#: Per choice: the tables where its playouts stop, each with its probability (adding up to 1).
Leaves = list[list[tuple[Table, float]]]

# a table waiting for a card: (the choice, the table, its probability, -1 for a draw or the row of a golden joker
# taken, whose extra card comes)
_Open = tuple[int, Table, float, int]


def leaves(start: Start, reps: list[Choice], stop: int, budget: int) -> Leaves | None:
    """Every table where a playout of each choice of ``reps`` from ``start`` stops (round ``stop`` begun, the
    game over, or no card left), with its probability; ``None`` once the leaves and the branches still open
    pass ``budget`` (the sampler is cheaper there)."""
    state = start.state
    unseen = sum(state.remaining)
    lr_at = start.lr_at
    out: Leaves = [[] for _ in reps]
    todo: deque[_Open] = deque()  # breadth first: a large tree is seen to be large after few steps

    def advance(c: int, table: Table, p: float) -> int:
        """Greedy moves until a card must come (an open branch: 0) or the playout stops (a leaf: 1)."""
        rows = table.rows
        while not table.over and table.round != stop:
            take = _GREEDY.choose(table, _RNG)
            if take is None:
                if any(table.remaining):
                    todo.append((c, table, p, -1))
                    return 0
                break  # no card left to turn over: the playout stops where it is
            i = take.row - 1
            if GOLDEN_JOKER in rows[i] and any(table.remaining):
                todo.append((c, table, p, i))
                return 0
            table.take(table.current, i, None, False)
        out[c].append((table, p))
        return 1

    cards = any(state.remaining)
    for c, (kind, i) in enumerate(reps):
        table = Table(state)
        if kind == "row":
            assert start.card is not None
            table.place(table.current, i, start.card)
            advance(c, table, 1.0)
        elif kind == "take" and (GOLDEN_JOKER not in table.rows[i] or not cards):
            table.take(table.current, i, None, False)
            advance(c, table, 1.0)
        elif cards:
            todo.append((c, table, 1.0, i if kind == "take" else -1))
        else:  # a draw with no card left (``Start.play_to``): the table as it is
            out[c].append((table, 1.0))
    done = sum(len(x) for x in out)  # leaves found
    while todo:
        if len(todo) + done > budget:
            return None
        c, table, p, i = todo.popleft()
        remaining = table.remaining
        left = sum(remaining)
        # the last-round card comes off first when every unseen card above it is out (``Start.deal``)
        last_round = table.lr_pending and unseen - left == lr_at
        for k, n in enumerate(remaining):
            if not n:
                continue
            card = KINDS[k]
            after = table.copy()
            if i < 0:
                after.turn_over(card, last_round)
                after.place(after.current, _GREEDY.place(after, card, _RNG) - 1, card)
            else:
                after.take(after.current, i, card, last_round)
            done += advance(c, after, p * n / left)
    return out
