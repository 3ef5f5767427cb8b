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
playouts do (``players.GreedyBot``, through ``engine.Table``), and gives each
choice's value as the weighted mean over the leaves: the number the sampler
converges to, with no sampling error, the same whatever the seed.

A tree with more than ``budget`` leaves and open branches is given up as
soon as it is seen to be (``None``): the sampler takes over there. Positions
reached twice (the same table by two orders of the same cards) are valued
once.
"""

from __future__ import annotations

from collections import deque

from ..bots.players import GreedyBot
from ..bots.playout import Choice, Start
from ..core.cards import GOLDEN_JOKER, KINDS
from ..core.engine import Table
from ..core.rng import SplitMix64

__all__ = ["Leaves", "after_choice", "last_round_due", "leaves", "turned_up", "until_card"]

_GREEDY = GreedyBot()
_RNG = SplitMix64(0)  # greedy draws nothing from it

#: Per choice: the tables where its playouts stop, each with its probability (adding up to 1).
Leaves = list[list[tuple[Table, float]]]

# a table waiting for a card: (the choice, the table, its probability, -1 for a draw or the row of a golden joker
# taken, whose extra card comes)
_Open = tuple[int, Table, float, int]


def until_card(table: Table, stop: int) -> int | None:
    """Greedy moves on ``table`` (in place) until a card must come: -1 for a draw, or the row of a golden joker
    taken (its extra card); None where the playout stops (round ``stop`` begun, the game over, no card left)."""
    rows = table.rows
    while not table.over and table.round != stop:
        take = _GREEDY.choose(table, _RNG)
        if take is None:
            return -1 if any(table.remaining) else None  # no card left to turn over: the playout stops there
        i = take.row - 1
        if GOLDEN_JOKER in rows[i] and any(table.remaining):
            return i
        table.take(table.current, i, None, False)
    return None


def after_choice(start: Start, choice: Choice, stop: int) -> tuple[Table, int | None]:
    """The table after ``choice`` at ``start`` and greedy moves up to the first card that must come
    (``until_card``'s answer beside it). A draw, or a take of a golden joker's row, waits for its card at once; a
    draw with no card left stops where it is (``Start.play_to``)."""
    state = start.state
    table = Table(state)
    kind, i = choice
    cards = any(state.remaining)
    if kind == "row":
        assert start.card is not None
        table.place(table.current, i, start.card)
        return table, until_card(table, stop)
    if kind == "take" and (GOLDEN_JOKER not in table.rows[i] or not cards):
        table.take(table.current, i, None, False)
        return table, until_card(table, stop)
    if not cards:  # a draw with no card left: the table as it is
        return table, None
    return table, i if kind == "take" else -1


def last_round_due(table: Table, unseen: int, lr_at: int) -> bool:
    """The last-round card comes off before the next card: every unseen card above it is out (``Start.deal``;
    ``unseen``: the cards unseen at the start, ``lr_at``: ``Start.lr_at``)."""
    return table.lr_pending and unseen - sum(table.remaining) == lr_at


def turned_up(table: Table, waiting: int, card: str, last_round: bool) -> Table:
    """A copy of ``table`` with ``card`` come where it waits (``until_card``): drawn and placed as greedy places
    it (-1), or a golden joker's extra card (the row taken)."""
    after = table.copy()
    if waiting < 0:
        after.turn_over(card, last_round)
        after.place(after.current, _GREEDY.place(after, card, _RNG) - 1, card)
    else:
        after.take(after.current, waiting, card, last_round)
    return after


def leaves(start: Start, reps: list[Choice], stop: int, budget: int) -> Leaves | None:
    """Every table where a playout of each choice of ``reps`` from ``start`` stops (round ``stop`` begun, the
    game over, or no card left), with its probability; ``None`` once the leaves and the branches still open
    pass ``budget`` (the sampler is cheaper there)."""
    unseen = sum(start.state.remaining)
    lr_at = start.lr_at
    out: Leaves = [[] for _ in reps]
    todo: deque[_Open] = deque()  # breadth first: a large tree is seen to be large after few steps
    for c, choice in enumerate(reps):
        table, waiting = after_choice(start, choice, stop)
        if waiting is None:
            out[c].append((table, 1.0))
        else:
            todo.append((c, table, 1.0, waiting))
    done = sum(len(x) for x in out)  # leaves found
    while todo:
        if len(todo) + done > budget:
            return None
        c, table, p, i = todo.popleft()
        remaining = table.remaining
        left = sum(remaining)
        last_round = last_round_due(table, unseen, lr_at)
        for k, n in enumerate(remaining):
            if not n:
                continue
            after = turned_up(table, i, KINDS[k], last_round)
            q = p * n / left
            waiting = until_card(after, stop)
            if waiting is None:
                out[c].append((after, q))
                done += 1
            else:
                todo.append((c, after, q, waiting))
    return out
