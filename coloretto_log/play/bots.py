"""Computer players behind one small interface: ``random``, ``greedy`` and ``strong``.

A turn has two decisions, as at the table (RULES.md §3):

1. ``choose(view, rng)``: take a row (return one of the legal ``Take``s of
   ``engine.legal_actions``) or turn over the top card (return ``None``;
   only when a draw is legal);
2. after a draw, ``place(view, card, rng)``: the row (numbered from 1) for
   the card just turned over, one of the legal ``Draw``s.

``view`` is what a player at the table sees: the game state with the deck's
order hidden (``deck=None``). ``view.remaining``, the composition of the
cards not yet turned over, is public (every card turned over is seen by all)
and a bot may use it; the order is not. In ``place`` the view is the state
just after the card was turned over (``remaining`` and ``turned`` count it;
``last_round`` is set if the last-round card came first).

``turn(bot, state, rng)`` plays one turn: it hides the deck, asks the bot,
checks that the answer is legal (``BotError`` otherwise) and returns the
resolved move, cards filled in from the real deck by ``engine.resolve``.

Every random choice comes from the ``rng`` passed in (a ``SplitMix64`` the
caller seeds, see ``simulate``), never from global state, so a game replays
from its seed. Bots keep no state between calls.

Scores are ``scoring.best_from_counts``. The bots work on *packed*
collections: one integer holding a count tuple, one byte a kind, so that
adding a row to a collection is one integer addition, and scores are
memoised by that integer (``Scores``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..core import engine
from ..core.cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    JOKER_INDEX,
    KIND_INDEX,
    KINDS,
    N_KINDS,
    PLUS2_INDEX,
)
from ..core.engine import Draw, GameState, Move, Take
from ..core.rng import SplitMix64
from ..core.ruleset import ScoringTable
from ..core.scoring import PLUS2_POINTS, best_from_counts

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "hidden",
    "make_bot",
    "turn",
    "turned_over",
]


class Bot(Protocol):
    """A computer player. Implementations keep no state between calls."""

    name: str

    def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
        """A legal take for ``view.current``, or ``None`` to turn over a card."""
        ...

    def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
        """The row (from 1) for ``card``, just turned over; a legal draw's row."""
        ...


class BotError(RuntimeError):
    """A bot answered with an illegal action: a bug in the bot."""


# --------------------------------------------------------------------------- the table


_DECK, _REMAINING, _TURNED, _LR_PENDING, _LAST_ROUND = (
    GameState._fields.index(name) for name in ("deck", "remaining", "turned", "lr_pending", "last_round")
)
_new_state = tuple.__new__


def hidden(state: GameState) -> GameState:
    """What every player sees: the state without the deck's order."""
    if state.deck is None:
        return state
    return _new_state(GameState, state[:_DECK] + (None,) + state[_DECK + 1 :])


def turned_over(view: GameState, card: str, last_round: bool) -> GameState:
    """The view just after ``card`` was turned over (the last-round card first if ``last_round``).

    The bookkeeping of ``engine.apply``'s draw, before the card goes to a row
    (the engine has no step for that alone; going through ``apply`` costs
    greedy 6-11%). ``test_bots`` checks it.
    """
    k = KIND_INDEX[card]
    remaining = view.remaining
    fields = list(view)
    fields[_REMAINING] = remaining[:k] + (remaining[k] - 1,) + remaining[k + 1 :]
    fields[_TURNED] = view.turned + 1 + last_round
    if last_round:
        fields[_LR_PENDING] = False
        fields[_LAST_ROUND] = True
    return _new_state(GameState, fields)


def turn(bot: Bot, state: GameState, rng: SplitMix64) -> Move:
    """One turn of ``bot`` for ``state.current``: the legal move, resolved from the deck.

    ``state`` must be seeded (its deck known): the deck yields the card
    drawn. The bot sees only ``hidden(state)``; its answer is checked by
    ``engine.check`` (``BotError`` if illegal).
    """
    if state.deck is None:
        raise ValueError("turn() needs a state whose deck is known")
    seat = state.current
    view = hidden(state)
    take = bot.choose(view, rng)
    if take is not None:
        if type(take) is not Take or take.seat != seat or take.extra is not None or take.last_round is not None:
            raise BotError(f"{bot.name} chose {take!r}, which is not a take for seat {seat}")
        violation = engine.check(state, take)
        if violation is not None:
            raise BotError(f"{bot.name} chose {take!r}: {violation.message}")
        return engine.resolve(state, take)
    card, last_round = engine.next_card(state)
    row = bot.place(turned_over(view, card, last_round), card, rng)
    move = Draw(seat, row, card, last_round)
    if type(row) is not int or (violation := engine.check(state, move)) is not None:
        reason = "not a row number" if type(row) is not int else violation.message  # type: ignore[union-attr]
        raise BotError(f"{bot.name} drew and chose row {row!r}: {reason}")
    return move


# --------------------------------------------------------------------------- packed collections

_BITS = 8
UNITS: tuple[int, ...] = tuple(1 << (_BITS * k) for k in range(N_KINDS))
UNIT_OF: dict[str, int] = {name: UNITS[k] for k, name in enumerate(KINDS)}
_GOLDEN_SHIFT = _BITS * GOLDEN_INDEX
_MASK = (1 << _BITS) - 1
_N_COLOURS = len(ALL_COLOURS)  # colours come first in cards.KINDS
_CAP6 = bytes(min(n, 6) for n in range(256))


def pack(counts: Sequence[int]) -> int:
    """A count tuple (``cards.KINDS`` order) as one integer, one byte a kind."""
    return int.from_bytes(bytes(counts), "little")


def pack_cards(cards: Sequence[str]) -> int:
    """The packed counts of a row of cards."""
    out = 0
    for c in cards:
        out += UNIT_OF[c]
    return out


_packed_memo: list[tuple[tuple[tuple[int, ...], ...], list[int]]] = []


def pack_all(collections: tuple[tuple[int, ...], ...]) -> list[int]:
    """Every seat's packed collection. The engine passes the same tuple on from state
    to state until a row is taken, so the last answer is kept (by identity)."""
    if _packed_memo and _packed_memo[0][0] is collections:
        return _packed_memo[0][1]
    packed = [pack(c) for c in collections]
    _packed_memo[:] = [(collections, packed)]
    return packed


_rows_memo: list[tuple[tuple[tuple[str, ...], ...], list[int]]] = []


def pack_rows(rows: tuple[tuple[str, ...], ...]) -> list[int]:
    """Every row packed; kept for the same tuple (a turn's two decisions see the same rows)."""
    if _rows_memo and _rows_memo[0][0] is rows:
        return _rows_memo[0][1]
    packed = [pack_cards(r) for r in rows]
    _rows_memo[:] = [(rows, packed)]
    return packed


def unpack(packed: int) -> tuple[int, ...]:
    """The count tuple of a packed collection."""
    return tuple(packed.to_bytes(N_KINDS, "little"))


class Scores(dict[int, int]):
    """Best-assignment scores of packed collections, memoised (``scoring.best_from_counts``).

    ``scores[packed]`` computes a missing score on the spot. A score depends
    only on the multiset of the colour counts in play (capped at 6), the
    number of jokers and the "+2" cards, so a second memo keyed on that
    *pattern* calls ``best_from_counts`` once per pattern (with its own
    cache off: these memos replace it). The first memo is
    emptied when it grows past ``limit`` entries, to bound memory.
    """

    def __init__(self, colours: tuple[str, ...], table: ScoringTable, limit: int = 1 << 18) -> None:
        super().__init__()
        self.colours = colours
        self.table = table
        self.limit = limit
        self.patterns: dict[bytes, int] = {}

    def __missing__(self, packed: int) -> int:
        if len(self) >= self.limit:
            self.clear()
        raw = packed.to_bytes(N_KINDS, "little")
        # the pattern: colour counts capped at 6, sorted (colours not in play are always 0), then jokers
        key = bytes(sorted(raw[:_N_COLOURS].translate(_CAP6))) + bytes((raw[JOKER_INDEX] + raw[GOLDEN_INDEX],))
        base = self.patterns.get(key)
        if base is None:
            plain = list(raw)
            plain[PLUS2_INDEX] = 0
            base = self.patterns[key] = best_from_counts(plain, self.colours, table=self.table, cache=False).score
        value = self[packed] = base + PLUS2_POINTS * raw[PLUS2_INDEX]
        return value


_SCORES: dict[tuple[tuple[str, ...], ScoringTable], Scores] = {}


_last: list[tuple[object, object, Scores]] = []  # (removed, rules, memo): the last game's, by identity


def scores_for(view: GameState) -> Scores:
    """The memo for this game's colours in play and scoring table (one per process)."""
    if _last and _last[0][0] is view.removed and _last[0][1] is view.rules:
        return _last[0][2]
    key = (view.colours, view.rules.table)
    memo = _SCORES.get(key)
    if memo is None:
        memo = _SCORES[key] = Scores(*key)
    _last[:] = [(view.removed, view.rules, memo)]
    return memo


# --------------------------------------------------------------------------- greedy rules

#: ``greedy`` takes a row when it raises its score by at least this much (or when it must take).
TAKE_AT = 4


def greedy_take(scores: Scores, me: int, rows: Sequence[int], taken: Sequence[bool]) -> tuple[int, int]:
    """The row (index) whose cards raise ``me``'s score most, and by how much; (-1, 0) if none.

    Ties go to the lower row.
    """
    base = scores[me]
    best, best_gain = -1, 0
    for i, r in enumerate(rows):
        if r and not taken[i]:
            gain = scores[me + r] - base
            if best < 0 or gain > best_gain:
                best, best_gain = i, gain
    return best, best_gain


def greedy_place(
    scores: Scores,
    seat: int,
    collections: Sequence[int],
    done: Sequence[bool],
    rows: Sequence[int],
    lengths: Sequence[int],
    limits: Sequence[int],
    taken: Sequence[bool],
    unit: int,
) -> int:
    """The row (index) for a card: what it adds to ``seat``'s row value less what it adds for a rival.

    For each row with space: (my gain from the row with the card) − (without
    it), minus the largest such change for a player still in the round. Ties
    go to the lower row.
    """
    me = collections[seat]
    rivals = [c for p, c in enumerate(collections) if p != seat and not done[p]]
    best, best_value = -1, 0
    for i, r in enumerate(rows):
        if taken[i] or lengths[i] >= limits[i]:
            continue
        r2 = r + unit
        value = scores[me + r2] - scores[me + r]
        if rivals:
            value -= max(scores[c + r2] - scores[c + r] for c in rivals)
        if best < 0 or value > best_value:
            best, best_value = i, value
    return best


def _can_draw(view: GameState) -> bool:
    """Whether ``engine.legal_actions(view)`` holds a draw: some row not taken has space.

    Spelled out rather than asking ``legal_actions``, whose moves greedy would
    build on every turn only to test this (about 15% of greedy's time).
    """
    return any(not t and len(r) < lim for r, t, lim in zip(view.rows, view.taken, view.limits))


# --------------------------------------------------------------------------- the bots


class RandomBot:
    """Uniform over the legal actions: each ``Draw(row)`` and ``Take(row)`` equally likely."""

    name = "random"

    def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
        legal = engine.legal_actions(view)
        action = legal[rng.below(len(legal))]
        return action if type(action) is Take else None

    def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
        # Drawing with probability (draws / legal), then a row uniformly among the
        # draws: each Draw(row) has probability 1 / legal, as if chosen at once.
        draws = [m for m in engine.legal_actions(view) if type(m) is Draw]
        return draws[rng.below(len(draws))].row


class GreedyBot:
    """One step ahead, by the best-assignment score (``scoring.best_from_counts``).

    Takes the row that raises its score most when that raise is at least
    ``take_at`` points (``TAKE_AT``, 4, by default), or the row that costs
    least when every row is full; otherwise draws, and puts the card where it
    adds most to its own row value less what it adds for the rival who gains
    most from it (``greedy_place``). Uses no randomness.

    Why a threshold: taking the first row that raises the score at all (any
    gain above 0) leaves the round with one card while others collect three;
    that player barely beats ``random``. With 4 it wins most games against
    ``random`` (``docs/simulate.md`` has the figures).
    """

    name = "greedy"

    def __init__(self, take_at: int = TAKE_AT) -> None:
        self.take_at = take_at

    def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
        scores = scores_for(view)
        seat = view.current
        rows = pack_rows(view.rows)
        best, gain = greedy_take(scores, pack_all(view.collections)[seat], rows, view.taken)
        if best >= 0 and (gain >= self.take_at or not _can_draw(view)):
            return Take(seat, best + 1)
        return None

    def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
        scores = scores_for(view)
        i = greedy_place(
            scores,
            view.current,
            pack_all(view.collections),
            view.done,
            pack_rows(view.rows),
            [len(r) for r in view.rows],
            view.limits,
            view.taken,
            UNIT_OF[card],
        )
        return i + 1


class StrongBot:
    """Rollouts to the end of the round over sampled unseen cards (one-step policy improvement).

    For every candidate (each row it may take, drawing, or each row for the
    card in hand) it plays the rest of the round ``samples`` times, every
    player following ``greedy``, with the unturned cards in an order sampled
    from ``view.remaining`` (the same ``samples`` orders for every candidate:
    common random numbers). A round ends in a position worth its own score
    less the mean score of the others; the candidate with the best total
    wins, ties to the first (takes in row order, then drawing; rows in order).
    """

    name = "strong"

    def __init__(self, samples: int = 12) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples

    def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
        seat = view.current
        legal = engine.legal_actions(view)
        takes = [m.row - 1 for m in legal if type(m) is Take]
        can_draw = any(type(m) is Draw for m in legal)
        if not takes:
            return None
        if not can_draw and len(takes) == 1:
            return Take(seat, takes[0] + 1)
        sim = _Rollouts(view)
        decks = sim.decks(rng, self.samples)
        candidates: list[int] = takes + ([-1] if can_draw else [])
        best, best_value = candidates[0], None
        for cand in candidates:
            if cand >= 0:
                value = sum(sim.after_take(cand, deck) for deck in decks)
            else:
                value = sum(sim.after_draw(deck) for deck in decks)
            if best_value is None or value > best_value:
                best, best_value = cand, value
        return None if best < 0 else Take(seat, best + 1)

    def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
        rows = [m.row - 1 for m in engine.legal_actions(view) if type(m) is Draw]
        if len(rows) == 1:
            return rows[0] + 1
        sim = _Rollouts(view)
        decks = sim.decks(rng, self.samples)
        unit = UNIT_OF[card]
        best, best_value = rows[0], None
        for i in rows:
            value = sum(sim.after_place(i, unit, deck) for deck in decks)
            if best_value is None or value > best_value:
                best, best_value = i, value
        return best + 1


class _Rollouts:
    """The rest of a round, played by greedy players on packed values."""

    __slots__ = ("colls", "done", "lengths", "limits", "need", "pool", "rows", "scores", "seat", "taken")

    def __init__(self, view: GameState) -> None:
        self.scores = scores_for(view)
        self.seat = view.current
        self.colls = pack_all(view.collections)[:]
        self.rows = pack_rows(view.rows)[:]
        self.lengths = [len(r) for r in view.rows]
        self.limits = view.limits
        self.taken = list(view.taken)
        self.done = list(view.done)
        pool: list[int] = []
        for k, n in enumerate(view.remaining):
            pool.extend([UNITS[k]] * n)
        self.pool = pool
        space = sum(lim - n for lim, n, t in zip(self.limits, self.lengths, self.taken) if not t)
        self.need = min(len(pool), space + 2)  # + a golden joker's extra card, and one spare

    def decks(self, rng: SplitMix64, n: int) -> list[list[int]]:
        """``n`` orders of the next cards, each a partial Fisher–Yates shuffle of the pool."""
        out = []
        size = len(self.pool)
        for _ in range(n):
            a = self.pool[:]
            for j in range(self.need):
                # multiply-shift: bias below 2^-57 for these sizes, fine for a bot
                k = j + ((rng.next() * (size - j)) >> 64)
                a[j], a[k] = a[k], a[j]
            out.append(a[: self.need])
        return out

    def after_take(self, i: int, deck: list[int]) -> float:
        colls, rows, taken, done = self.colls[:], self.rows[:], self.taken[:], self.done[:]
        seat = self.seat
        pos = 0
        got = rows[i]
        if (got >> _GOLDEN_SHIFT) & _MASK and deck:
            got += deck[0]
            pos = 1
        colls[seat] += got
        rows[i] = 0
        taken[i] = True
        done[seat] = True
        return self._finish(colls, rows, self.lengths[:], taken, done, seat, deck, pos)

    def after_draw(self, deck: list[int]) -> float:
        if not deck:
            return self._value(self.colls)
        i = greedy_place(
            self.scores, self.seat, self.colls, self.done, self.rows, self.lengths, self.limits, self.taken, deck[0]
        )
        return self._placed(i, deck[0], deck, 1)

    def after_place(self, i: int, unit: int, deck: list[int]) -> float:
        return self._placed(i, unit, deck, 0)

    def _placed(self, i: int, unit: int, deck: list[int], pos: int) -> float:
        rows, lengths = self.rows[:], self.lengths[:]
        rows[i] += unit
        lengths[i] += 1
        return self._finish(self.colls[:], rows, lengths, self.taken[:], self.done[:], self.seat, deck, pos)

    def _finish(
        self,
        colls: list[int],
        rows: list[int],
        lengths: list[int],
        taken: list[bool],
        done: list[bool],
        last: int,
        deck: list[int],
        pos: int,
    ) -> float:
        """Play greedy to the end of the round from the seat after ``last``; the round's value."""
        scores, limits = self.scores, self.limits
        n = len(colls)
        n_rows = len(rows)
        seat = last
        while not all(done):
            seat = (seat + 1) % n
            while done[seat]:
                seat = (seat + 1) % n
            me = colls[seat]
            best, gain = greedy_take(scores, me, rows, taken)
            can_draw = pos < len(deck) and any(not taken[k] and lengths[k] < limits[k] for k in range(n_rows))
            if best >= 0 and (gain >= TAKE_AT or not can_draw):
                got = rows[best]
                if (got >> _GOLDEN_SHIFT) & _MASK and pos < len(deck):
                    got += deck[pos]
                    pos += 1
                colls[seat] = me + got
                rows[best] = 0
                taken[best] = True
                done[seat] = True
                continue
            if not can_draw:  # the sampled cards ran out: stop here
                break
            unit = deck[pos]
            pos += 1
            k = greedy_place(scores, seat, colls, done, rows, lengths, limits, taken, unit)
            rows[k] += unit
            lengths[k] += 1
        return self._value(colls)

    def _value(self, colls: list[int]) -> float:
        scores = self.scores
        mine = scores[colls[self.seat]]
        others = sum(scores[c] for c in colls) - mine
        return mine - others / (len(colls) - 1)


#: The bots by name, as ``--bots`` spells them.
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def make_bot(name: str) -> Bot:
    """A bot by name; ``KeyError`` for an unknown name."""
    return BOTS[name]()
