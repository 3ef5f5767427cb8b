"""Playouts for the analysis: one choice, then the rest of the game, every seat greedy.

``analyze`` plays thousands of games out from each position. It does so
through the engine's one copy of the rules (``engine.Table``: the card
turned over, the row, the take, the golden joker's extra card, the end of a
round, the leftover rows of two players, the last round) and the bots' one
loop (``players.play_out``) with ``players.GreedyBot`` in every seat: no rule and
no policy is written here again.

A ``Start`` is the public position of one decision: the game as every
player sees it (the deck's order hidden), with the card just turned over
for a row decision. It never reads the real order: ``deal`` draws an order
of the unseen cards (their composition is public) with the last-round card
where the rules put it (``under`` cards from the bottom), and ``play`` plays
one choice and then the rest of the game on that order.
"""

from __future__ import annotations

from ..core.cards import GOLDEN_JOKER, KINDS, LAST_ROUND
from ..core.engine import GameState, Table
from ..core.rng import GOLDEN_GAMMA, MASK64, SplitMix64
from .players import GreedyBot, hidden, play_out, turned_over

__all__ = ["Choice", "Likely", "Start", "choices", "likely_moves"]

Choice = tuple[str, int]  # ("draw", -1), ("take", row index), ("row", row index)
#: One move the playout policy would likely make next: (seat, "take" or "draw", row index or -1, the cards taken).
Likely = tuple[int, str, int, tuple[str, ...]]

_GREEDY = GreedyBot()
_RNG = SplitMix64(0)  # greedy draws nothing from it


def choices(view: GameState | Table, card: str | None) -> list[Choice]:
    """The choices open to ``view.current``: ``("row", i)`` for ``card`` in hand, else ``("draw", -1)``
    (when a row has space and a card is left) and ``("take", i)`` for every row that can be taken."""
    limits, rows, taken = view.limits, view.rows, view.taken
    open_rows = [i for i in range(len(limits)) if not taken[i]]
    if card is not None:
        return [("row", i) for i in open_rows if len(rows[i]) < limits[i]]
    out: list[Choice] = []
    if any(view.remaining) and any(len(rows[i]) < limits[i] for i in open_rows):
        out.append(("draw", -1))
    out.extend(("take", i) for i in open_rows if rows[i])
    return out


class Start:
    """One decision's public position: the game with its deck hidden, and the card in hand (row decisions)."""

    __slots__ = ("card", "lr_at", "pool", "state")

    def __init__(self, state: GameState, card: str | None = None, last_round: bool = False) -> None:
        state = hidden(state)
        if card is not None:
            state = turned_over(state, card, last_round)
        self.state = state
        self.card = card
        pool: list[str] = []
        for k, n in enumerate(state.remaining):
            pool.extend([KINDS[k]] * n)
        self.pool = pool  # the unseen cards (no last-round card), in kind order
        #: the last-round card lies under this many unseen cards; -1: out already
        self.lr_at = max(0, min(len(pool), state.lr_expected_at - state.turned)) if state.lr_pending else -1

    def choices(self) -> list[Choice]:
        return choices(self.state, self.card)

    def need(self, stop_round: int = 0) -> int:
        """How many unseen cards a playout from here can use at most (to the end of the game, or until round
        ``stop_round`` begins: at most the places left in the rows and a golden joker's extra card). Fewer
        cards dealt leave the first ones as they were: ``deal`` draws them in order."""
        state = self.state
        space = sum(state.limits)
        if state.last_round or self.lr_at < 0 or stop_round:
            free = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
            return min(len(self.pool), free + state.players)  # + a golden joker's extra card a player
        return min(len(self.pool), self.lr_at + 2 * space + 2 * state.players)

    def deal(self, seed: int, need: int, first: int | None = None) -> list[str]:
        """The first ``need`` unseen cards in an order drawn uniformly from ``seed`` (SplitMix64,
        partial Fisher–Yates by multiply-shift), the last-round card in its place when it is among them.

        ``first`` (a 64-bit fraction of 1) picks the first card instead of the generator: the estimator
        spreads it evenly over its samples (stratified), each order still uniform."""
        a = self.pool[:]
        size = len(a)
        s = seed
        for j in range(min(need, size - 1)):
            s = (s + GOLDEN_GAMMA) & MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if j == 0 and first is not None:
                z = first
            k = j + ((z * (size - j)) >> 64)
            a[j], a[k] = a[k], a[j]
        del a[need:]
        if 0 <= self.lr_at <= len(a):
            a.insert(self.lr_at, LAST_ROUND)
        return a

    def after(self, choice: Choice, deck: list[str]) -> Table | None:
        """The table after ``choice`` for the player to move, the cards turned over from ``deck`` (top first):
        a draw's card and a golden joker's extra card; ``None`` for a draw when no card is left to turn over."""
        table = Table(self.state)
        seat = table.current
        kind, i = choice
        if kind == "row":
            assert self.card is not None
            table.place(seat, i, self.card)
        elif kind == "take":
            extra: str | None = None
            last_round = False
            if GOLDEN_JOKER in table.rows[i] and deck and deck[0] != LAST_ROUND:
                extra = deck[0]
            elif GOLDEN_JOKER in table.rows[i] and len(deck) > 1:
                extra, last_round = deck[1], True
            table.take(seat, i, extra, last_round)
        else:
            if not deck or (deck[0] == LAST_ROUND and len(deck) < 2):
                return None
            card, last_round = (deck[1], True) if deck[0] == LAST_ROUND else (deck[0], False)
            table.turn_over(card, last_round)
            table.place(seat, _GREEDY.place(table, card, _RNG) - 1, card)
        return table

    def play(self, choice: Choice, deck: list[str]) -> list[tuple[int, ...]]:
        """Every seat's collection at the end: ``choice`` for the player to move, then greedy for all,
        the cards turned over from ``deck`` (top first; play stops where it is if it runs out)."""
        return self.play_to(choice, deck, 0).collections

    def play_to(self, choice: Choice, deck: list[str], stop_round: int) -> Table:
        """The table after ``choice`` and greedy play for all on ``deck``, stopped as soon as round
        ``stop_round`` begins (0: played to the end of the game; see ``stop_round``)."""
        table = self.after(choice, deck)
        if table is None:
            return Table(self.state)
        if not table.over and table.round != stop_round:
            n = table.players
            play_out(table, deck, self.state.turned, [_GREEDY] * n, [_RNG] * n, stop_round)
        return table

    def stop_round(self) -> int:
        """Where a playout that hands over to the evaluator stops: as the next round begins; 0 (the end of the
        game) once the last round is under way or the last-round card is due within a round's worth of cards
        (there greedy playouts value a position better than the evaluator: docs/design/evaluator.md)."""
        state = self.state
        return 0 if state.last_round or self.lr_at < sum(state.limits) else state.round + 1


def likely_moves(start: Start, choice: Choice, most: int = 3) -> list[Likely]:
    """The next moves after ``choice`` as the playouts' policy (greedy) makes them, up to ``most``, while no card
    must be turned over to know them: a draw is the last one said (its card is not known), and so is a take of a
    golden joker (its extra card) or one that ends the round. Nothing after a draw of the player itself."""
    kind, i = choice
    if kind == "draw":
        return []
    table = Table(start.state)
    seat = table.current
    if kind == "row":
        assert start.card is not None
        table.place(seat, i, start.card)
    else:
        if GOLDEN_JOKER in table.rows[i]:
            return []
        table.take(seat, i, None, False)
    out: list[Likely] = []
    round_now = table.round
    while len(out) < most and not table.over and table.round == round_now:
        seat = table.current
        take = _GREEDY.choose(table, _RNG)
        if take is None:
            out.append((seat, "draw", -1, ()))
            break
        row = take.row - 1
        cards = tuple(table.rows[row])
        out.append((seat, "take", row, cards))
        if GOLDEN_JOKER in cards:
            break
        table.take(seat, row, None, False)
    return out
