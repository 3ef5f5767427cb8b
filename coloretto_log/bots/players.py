"""Computer players behind one small interface: ``random``, ``greedy``, ``strong`` (and ``expert``).

A turn has two decisions, as at the table (docs/rules-of-play.md §3):

1. ``choose(view, rng)``: take a row (return one of the legal ``Take``s of
   ``engine.legal_actions``) or turn over the top card (return ``None``;
   only when a draw is legal);
2. after a draw, ``place(view, card, rng)``: the row (numbered from 1) for
   the card just turned over, one of the legal ``Draw``s.

``view`` is what a player at the table sees (``engine.View``): the game with
the deck's order hidden (``deck=None``), a ``GameState`` or, in the loop
below, the ``engine.Table`` itself, which the bot reads and never writes.
``view.remaining``, the composition of the cards not yet turned over, is
public (every card turned over is seen by all) and a bot may use it; the
order is not. In ``place`` the view is the game just after the card was
turned over (``remaining`` and ``turned`` count it; ``last_round`` is set if
the last-round card came first).

``play_to_end(state, bots, rngs)`` plays a game to its end in one loop over
one ``engine.Table`` (the engine's one copy of the bookkeeping): it asks
each bot, checks that the answer is legal (``BotError`` otherwise) and
turns the cards over from the deck. ``turn(bot, state, rng)`` is one turn
of that loop; ``playout(state, bots, rngs, deck)`` the final scores;
``play_out(table, ...)`` the same loop on a table at hand: the strong bot's
look-ahead and the analysis's playouts (``bots.playout``) run through it, so
the rules and the greedy rule exist once.

Every random choice comes from the ``rng`` passed in (a ``SplitMix64`` the
caller seeds, see ``simulate``), never from global state, so a game replays
from its seed. Bots keep no state between calls.

Scores are ``scoring.best_from_counts``. The bots work on *packed*
collections: one integer holding a count tuple, one byte a kind, so that
adding a row to a collection is one integer addition, and scores are
memoised by that integer (``Scores``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Protocol

from ..core import engine
from ..core.cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    GOLDEN_JOKER,
    JOKER_INDEX,
    KIND_INDEX,
    KINDS,
    LAST_ROUND,
    N_KINDS,
    PLUS2_INDEX,
)
from ..core.engine import Draw, GameState, Move, Table, Take, View, legal_rows
from ..core.rng import SplitMix64
from ..core.ruleset import ScoringTable
from ..core.scoring import best_from_counts

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "final_scores",
    "hidden",
    "make_bot",
    "play_out",
    "play_to_end",
    "playout",
    "turn",
    "turned_over",
    "turned_up",
]

_new = tuple.__new__  # a named tuple's own constructor, without its keyword handling


class Bot(Protocol):
    """A computer player. Implementations keep no state between calls."""

    name: str

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
        """A legal take for ``view.current``, or ``None`` to turn over a card."""
        ...

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        """The row (from 1) for ``card``, just turned over; a legal draw's row."""
        ...


class BotError(RuntimeError):
    """A bot answered with an illegal action: a bug in the bot."""


# --------------------------------------------------------------------------- the table


def hidden(state: GameState) -> GameState:
    """What every player sees: the state without the deck's order."""
    if state.deck is None:
        return state
    return state._replace(deck=None)


def turned_over(view: GameState, card: str, last_round: bool) -> GameState:
    """The view just after ``card`` was turned over (the last-round card first if ``last_round``).

    ``engine.Table.turn_over``: the first half of a draw, before the card goes to a row.
    """
    table = Table(view)
    table.turn_over(card, last_round)
    return table.state()


def turn(bot: Bot, state: GameState, rng: SplitMix64) -> Move:
    """One turn of ``bot`` for ``state.current``: the legal move, resolved from the deck.

    ``state`` must be seeded (its deck known): the deck yields the card
    drawn. The bot sees the table without the deck; an illegal answer raises
    ``BotError``.
    """
    if state.deck is None:
        raise ValueError("turn() needs a state whose deck is known")
    table = Table(state)
    table.deck = None
    moves: list[Move] = []
    _play(table, state.deck, 0, [bot] * state.players, [rng] * state.players, moves, 1)
    return moves[0]


def play_to_end(
    state: GameState,
    bots: Sequence[Bot],
    rngs: Sequence[SplitMix64],
    *,
    deck: Sequence[str] | None = None,
    moves: list[Move] | None = None,
) -> GameState:
    """Play ``state`` to the end of its game, seat ``s`` played by ``bots[s]`` with ``rngs[s]``.

    ``deck``: the cards still to be turned over, top first, the last-round
    card where it lies if it has not come out; by default the state's own
    deck from ``state.turned`` on (``ValueError`` if the state has none).
    Each resolved move is appended to ``moves`` if given. Returns the final
    state (with the state's own deck). One ``engine.Table`` runs the whole
    game: the engine's bookkeeping, no state built per move; the bots read
    the table itself as their view (the deck hidden).
    """
    if deck is None:
        if state.deck is None:
            raise ValueError("play_to_end() needs a deck: the state's own or one given")
        cards: Sequence[str] = state.deck
        base = 0
    else:
        cards = deck
        base = state.turned
    table = Table(state)
    table.deck = None
    _play(table, cards, base, bots, rngs, [] if moves is None else moves, -1)
    table.deck = state.deck
    return table.state()


def play_out(
    table: Table, cards: Sequence[str], base: int, bots: Sequence[Bot], rngs: Sequence[SplitMix64], stop_round: int = 0
) -> None:
    """Play ``table`` on to the end of its game in place: ``play_to_end``'s loop for a table at hand.

    The table's deck must be hidden (``deck`` None: the bots read the table);
    the card turned over next is ``cards[table.turned - base]``. If
    ``cards`` runs out, play stops where it is (see ``_play``). For
    playouts (``bots.playout``, ``bots.search``), which start from a decision
    of their own. ``stop_round``: stop as soon as this round begins (0: never).
    """
    _play(table, cards, base, bots, rngs, None, -1, stop_round)


def _play(
    table: Table,
    cards: Sequence[str],
    base: int,
    bots: Sequence[Bot],
    rngs: Sequence[SplitMix64],
    moves: list[Move] | None,
    turns: int,
    stop_round: int = 0,
) -> None:
    """The one loop of computer players: ``turns`` turns at ``table`` (-1: to the end of the game),
    stopping early when round ``stop_round`` begins (0: never).

    The table's deck is hidden (the bots read the table as their view); the
    card turned over next is ``cards[table.turned - base]``. Every answer is
    checked (``BotError``); each resolved move is appended to ``moves`` (None: not kept). If
    ``cards`` runs out (a seeded game's deck never does; an order given for
    a playout may), a golden joker comes without its extra card and a draw
    ends the loop where it is.
    """
    first = bots[0] if bots else None
    if type(first) is GreedyBot and all(type(b) is GreedyBot and b.take_at == first.take_at for b in bots):
        _play_greedy(table, cards, base, first.take_at, moves, turns, stop_round)
        return
    rows, taken, limits = table.rows, table.taken, table.limits  # changed in place, never replaced
    n_rows = len(rows)
    turn_over, place, take_row = table.turn_over, table.place, table.take
    add = ([] if moves is None else moves).append
    while turns and not table.over and table.round != stop_round:
        turns -= 1
        seat = table.current
        bot, rng = bots[seat], rngs[seat]
        take = bot.choose(table, rng)
        if take is None:
            up = turned_up(cards, table.turned - base)
            if up is None:  # no card left to turn over (a deck given short): play stops here
                return
            card, last_round = up
            turn_over(card, last_round)
            row = bot.place(table, card, rng)
            if type(row) is not int or not 0 < row <= n_rows or taken[row - 1] or len(rows[row - 1]) >= limits[row - 1]:
                raise _illegal_place(bot, table, Draw(seat, row, card, last_round))
            place(seat, row - 1, card)
            add(_new(Draw, (seat, row, card, last_round)))
            continue
        if type(take) is not Take or take.seat != seat or take.extra is not None or take.last_round is not None:
            raise BotError(f"{bot.name} chose {take!r}, which is not a take for seat {seat}")
        i = take.row - 1
        if not 0 <= i < n_rows or taken[i] or not rows[i]:
            violation = engine.check(table.state(), take)
            raise BotError(f"{bot.name} chose {take!r}: {violation.message if violation else 'an illegal take'}")
        if GOLDEN_JOKER not in rows[i]:
            take_row(seat, i, None, False)
            add(take)
            continue
        up = turned_up(cards, table.turned - base)
        if up is None:
            take_row(seat, i, None, False)  # no card left for the golden joker's extra
            add(take)
            continue
        extra, last_round = up
        take_row(seat, i, extra, last_round)
        add(_new(Take, (seat, take.row, extra, last_round)))


def _play_greedy(
    table: Table, cards: Sequence[str], base: int, take_at: int, moves: list[Move] | None, turns: int,
    stop_round: int
) -> None:
    """``_play`` with ``GreedyBot(take_at)`` in every seat: on the compiled kernel (``bots.fastplay``)
    when it is ready (loaded, or this process has played enough to load it), more than one turn is asked for and the cards are a list or a tuple (the kernel
    reads them all at once: a sequence of another kind may be read card by card), else ``play_greedy_pure``;
    the same moves."""
    if turns != 1 and type(cards) in _WHOLE:
        fast = fastplay()
        if fast.ready(table.total - table.turned):
            played, _, _ = fast.play_tables([table], [cards], [base], take_at, turns=turns, stop_round=stop_round,
                                         keep=moves is not None)
            if moves is not None and played is not None:
                moves.extend(played[0])
            return
    play_greedy_pure(table, cards, base, take_at, moves, turns, stop_round)


def fastplay() -> ModuleType:
    """``bots.fastplay``, imported when first asked for (it is built on this module)."""
    if not _FASTPLAY:
        _FASTPLAY.append(importlib.import_module(f"{__package__}.fastplay"))
    return _FASTPLAY[0]


_FASTPLAY: list[ModuleType] = []
_WHOLE = (list, tuple)  # the kinds of card sequences the kernel is handed


def play_greedy_pure(
    table: Table, cards: Sequence[str], base: int, take_at: int, moves: list[Move] | None, turns: int,
    stop_round: int
) -> None:
    """``_play_greedy`` in Python, the definition the kernel is held to: the same moves as ``_play``'s
    loop, decided by the same two functions (``greedy_take``, ``greedy_row``: its open rows, then its pick
    among them) on collections and rows kept packed from move to move instead of packed again at every
    decision: most of the time of a playout and of a greedy game. ``moves`` None: the moves are not kept
    (a playout's).

    The answers need no check: both functions choose among the legal rows only."""
    rows, taken, limits, done = table.rows, table.taken, table.limits, table.done  # changed in place, never replaced
    n_rows = len(rows)
    turn_over, place, take_row = table.turn_over, table.place, table.take
    add = None if moves is None else moves.append
    memo = scores_for(table).memo
    unit_of = UNIT_OF
    packed = [pack(c) for c in table.collections]  # every seat's collection, packed, kept up to date below
    rowp = [_ROW_UNITS[r] for r in rows]  # every row, packed
    seats = range(len(packed))
    n_cards = len(cards)
    while turns and not table.over and table.round != stop_round:
        turns -= 1
        seat = table.current
        me = packed[seat]
        i = greedy_take(memo, me, rows, rowp, taken, limits, take_at, table.total - table.turned > table.lr_pending)
        if i < 0:
            t = table.turned - base  # the card turned over (``turned_up``, spelt out: a draw's every time)
            if t >= n_cards:  # no card left to turn over (a deck given short): play stops here
                return
            card = cards[t]
            last_round = card == LAST_ROUND
            if last_round:
                if t + 1 >= n_cards:
                    return
                card = cards[t + 1]
            turn_over(card, last_round)
            open_rows = _open_rows(rows, taken, limits)
            if len(open_rows) == 1:  # no choice (half the draws of a greedy game): no score to look up
                i = open_rows[0]
            else:
                rivals = [packed[p] for p in seats if p != seat and not done[p]]
                i = _best_row(memo, me, rivals, open_rows, rowp, unit_of[card])
            place(seat, i, card)
            rowp[i] += unit_of[card]
            if add is not None:
                add(_new(Draw, (seat, i + 1, card, last_round)))
            continue
        got = rowp[i]
        up = turned_up(cards, table.turned - base) if GOLDEN_JOKER in rows[i] else None
        if up is None:  # no golden joker, or no card left for its extra
            take_row(seat, i, None, False)
            if add is not None:
                add(_new(Take, (seat, i + 1, None, None)))
        else:
            extra, last_round = up
            take_row(seat, i, extra, last_round)
            got += unit_of[extra]
            if add is not None:
                add(_new(Take, (seat, i + 1, extra, last_round)))
        packed[seat] = me + got
        if done[seat]:
            rowp[i] = 0
        else:  # the round ended: every row is empty again
            rowp = [0] * n_rows


def turned_up(cards: Sequence[str], t: int) -> tuple[str, bool] | None:
    """The card turned over at place ``t`` of an order and whether the last-round card came up first (it is
    set aside and the next card taken); None when no card is left there."""
    if t >= len(cards):
        return None
    card = cards[t]
    if card != LAST_ROUND:
        return card, False
    return (cards[t + 1], True) if t + 1 < len(cards) else None


def _illegal_place(bot: Bot, table: Table, move: Draw) -> BotError:
    """The error for a row a bot chose for the card it turned over."""
    if type(move.row) is not int:
        reason = "not a row number"
    else:
        violation = engine.check(table.state(), move)  # the row's own rule comes before any card check
        reason = violation.message if violation else "an illegal row"
    return BotError(f"{bot.name} drew and chose row {move.row!r}: {reason}")


def final_scores(state: GameState) -> tuple[int, ...]:
    """Every seat's best score (``scoring.best_from_counts``, through the bots' memo), seat order."""
    memo = scores_for(state).memo
    return tuple(memo[pack(c)] for c in state.collections)


def playout(
    state: GameState,
    bots: Sequence[Bot],
    rngs: Sequence[SplitMix64],
    deck: Sequence[str] | None = None,
) -> tuple[int, ...]:
    """The final scores, by seat, of ``state`` played to its end by ``bots`` (one per seat).

    For decision analysis: ``deck`` is an order of the cards still to come
    (top first, the last-round card where it lies while it has not come out;
    default: the state's own deck), seat ``s`` plays ``bots[s]`` drawing from
    ``rngs[s]`` (any object with the ``Bot`` methods is a policy). The same
    loop as ``simulate``'s games (``play_to_end``), the same rules
    (``engine.Table``). Example: the greedy bot's score in every seat of a
    seeded game::

        state = engine.new_game(rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
        playout(state, [GreedyBot()] * 4, [SplitMix64(i) for i in range(4)])
    """
    return final_scores(play_to_end(state, bots, rngs, deck=deck))


# --------------------------------------------------------------------------- packed collections

_BITS = 8
UNITS: tuple[int, ...] = tuple(1 << (_BITS * k) for k in range(N_KINDS))
UNIT_OF: dict[str, int] = {name: UNITS[k] for k, name in enumerate(KINDS)}
_GOLDEN_SHIFT = _BITS * GOLDEN_INDEX
_MASK = (1 << _BITS) - 1
_N_COLOURS = len(ALL_COLOURS)  # colours come first in cards.KINDS
#: A count's digit in the pattern key (``_Memo.__missing__``): 16 ** min(count, 6), a hex digit a count.
_DIGIT: tuple[int, ...] = tuple(1 << (4 * min(n, 6)) for n in range(256))
_JOKER_SHIFT = 4 * 7


def pack(counts: Sequence[int]) -> int:
    """A count tuple (``cards.KINDS`` order) as one integer, one byte a kind."""
    return int.from_bytes(bytes(counts), "little")


def pack_cards(cards: Sequence[str]) -> int:
    """The packed counts of a row of cards."""
    out = 0
    for c in cards:
        out += UNIT_OF[c]
    return out


_packed_memo: list[tuple[Sequence[tuple[int, ...]], list[int]]] = []


def pack_all(collections: Sequence[tuple[int, ...]]) -> list[int]:
    """Every seat's packed collection. The engine passes the same sequence on from move
    to move until a row is taken (``engine.Table``), so the last answer is kept (by identity)."""
    if _packed_memo:
        last, before = _packed_memo[0]
        if last is collections:
            return before
        if len(last) == len(collections):  # a take changes one seat's: the others are the same tuples
            packed = before[:]
            for s, c in enumerate(collections):
                if c is not last[s]:
                    packed[s] = pack(c)
            _packed_memo[0] = (collections, packed)
            return packed
    packed = [pack(c) for c in collections]
    _packed_memo[:] = [(collections, packed)]
    return packed


class _RowUnits(dict[tuple[str, ...], int]):
    """Every row seen, packed (a row holds at most three cards: a few thousand); a miss packs it."""

    __slots__ = ()

    def __missing__(self, row: tuple[str, ...]) -> int:
        packed = self[row] = pack_cards(row)
        return packed


_ROW_UNITS = _RowUnits()


def unpack(packed: int) -> tuple[int, ...]:
    """The count tuple of a packed collection."""
    return tuple(packed.to_bytes(N_KINDS, "little"))


class Scores:
    """Best-assignment scores of packed collections, memoised (``scoring.best_from_counts``).

    ``scores[packed]`` looks a score up, computing it if it is missing;
    ``memo`` is the dictionary behind it, for the bots' hot loops: a
    ``dict`` whose ``__missing__`` computes a missing score, so a
    hit costs a plain look-up and a miss raises nothing.

    A score depends only on the multiset of the colour counts in play
    (capped at 6), the number of jokers and the "+2" cards, never on which
    colours are in play, so the memos are shared by every game with as many
    colours in play and the same scoring table (``_memos``): the colour sets
    of a 3-player game (one colour removed of seven) warm one memo, not
    seven. A miss in ``memo`` (``_Memo.__missing__``) looks in ``patterns``,
    keyed on that multiset without sorting (how many colours hold each count,
    a hex digit each, and the jokers), and only then calls
    ``best_from_counts`` (with its own cache off: these memos replace it),
    on the pattern laid out on this game's colours. ``memo`` is emptied when
    it grows past ``limit`` entries, to bound memory.
    """

    __slots__ = ("colours", "limit", "memo", "patterns", "table")

    def __init__(self, colours: tuple[str, ...], table: ScoringTable, limit: int = 1 << 19) -> None:
        self.colours = colours
        self.table = table
        self.limit = limit
        self.memo, self.patterns = _memos(self, limit)

    def __getitem__(self, packed: int) -> int:
        return self.memo[packed]  # a miss computes it (``_Memo.__missing__``)

    def __len__(self) -> int:
        return len(self.memo)

    def _base(self, raw: bytes) -> int:
        """The score of ``raw`` without its "+2" cards, by ``best_from_counts`` on the pattern laid out on this
        game's colours (the memos are shared by every game with as many colours in play)."""
        plain = [0] * N_KINDS
        counts = sorted((min(n, 6) for n in raw[:_N_COLOURS]), reverse=True)  # colours not in play hold 0
        for colour, n in zip(self.colours, counts, strict=False):
            plain[KIND_INDEX[colour]] = n
        plain[JOKER_INDEX] = raw[JOKER_INDEX]
        plain[GOLDEN_INDEX] = raw[GOLDEN_INDEX]
        return best_from_counts(plain, self.colours, table=self.table, cache=False).score


class _Memo(dict[int, int]):
    """The packed memo: a plain ``dict`` whose miss computes the score instead of raising.

    A lookup that hits costs what a plain ``dict``'s does; a miss in a bot's
    hot loop no longer raises a ``KeyError`` that makes the bot think its
    decision over again (about 1.5 microseconds a miss, and a cold run of
    1,000 greedy games misses about 110,000 times).

    A miss is read off ``packed`` with integer operations alone: the pattern's digits of the
    colours four at a time (``_QUARTERS``), the jokers and the "+2" cards by shifts; then the
    pattern's score (``patterns``) or, the first time a pattern comes, ``Scores._base``.
    """

    __slots__ = ("limit", "patterns", "plus2", "scores")

    def __init__(self, scores: Scores, patterns: dict[int, int], limit: int) -> None:
        super().__init__()
        self.scores = scores
        self.patterns = patterns
        self.limit = limit
        self.plus2 = scores.table.plus2

    def __missing__(self, packed: int) -> int:
        if len(self) >= self.limit:
            self.clear()
        # the pattern, order-free without a sort: how many colours hold 0, 1, ... 6 or more cards
        # (one hex digit each), and the jokers above them
        quarters = _QUARTERS
        key = (((packed >> _JOKER_BIT) & _MASK) + ((packed >> _GOLDEN_SHIFT) & _MASK)) << _JOKER_SHIFT
        if _TWO_CHUNKS:  # five to eight colours (every shipped edition): the two chunks written out, a tenth faster
            key += quarters[packed & _LOW_MASK] + quarters[(packed >> 32) & _HIGH_MASK]
        else:  # an added edition's colours, whatever their number
            for shift, mask in _COLOUR_CHUNKS:
                key += quarters[(packed >> shift) & mask]
        base = self.patterns.get(key)
        if base is None:
            base = self.patterns[key] = self.scores._base(packed.to_bytes(N_KINDS, "little"))
        value = self[packed] = base + self.plus2 * (packed >> _PLUS2_BIT)
        return value


class _Quarters(dict[int, int]):
    """The pattern digits (``_DIGIT``) of four colour counts packed, summed; a miss sums them."""

    __slots__ = ()

    def __missing__(self, four: int) -> int:
        value = self[four] = sum(_DIGIT[b] for b in four.to_bytes(4, "little"))
        return value


_QUARTERS = _Quarters()  # at most a few thousand: four counts of at most 9 cards each
#: (shift, mask) of the colours' bytes, four at a time (a short last group reads its missing bytes as 0:
#: the same extra zeros in every key, so keys still tell patterns apart)
_COLOUR_CHUNKS: tuple[tuple[int, int], ...] = tuple(
    (shift, (1 << min(32, _BITS * _N_COLOURS - shift)) - 1) for shift in range(0, _BITS * _N_COLOURS, 32)
)
_JOKER_BIT = _BITS * JOKER_INDEX
_PLUS2_BIT = _BITS * PLUS2_INDEX  # "+2" is the last kind (cards.KINDS): its count is what lies above
assert PLUS2_INDEX == N_KINDS - 1 and 4 * len(_COLOUR_CHUNKS) < 16  # a digit of the pattern holds at most 15
_TWO_CHUNKS = len(_COLOUR_CHUNKS) == 2 and _COLOUR_CHUNKS[1][0] == 32  # as _Memo.__missing__ writes them out
_LOW_MASK, _HIGH_MASK = _COLOUR_CHUNKS[0][1], _COLOUR_CHUNKS[-1][1]


_Memos = tuple[_Memo, dict[int, int]]
_MEMOS: dict[tuple[int, ScoringTable, int], _Memos] = {}


def _memos(scores: Scores, limit: int) -> _Memos:
    """The memos (packed, pattern) of every game with as many colours in play and the same table."""
    key = (len(scores.colours), scores.table, limit)
    memos = _MEMOS.get(key)
    if memos is None:
        patterns: dict[int, int] = {}
        memos = _MEMOS[key] = (_Memo(scores, patterns, limit), patterns)
    return memos


_SCORES: dict[tuple[tuple[str, ...], ScoringTable], Scores] = {}


_last: list[tuple[object, object, Scores]] = []  # (removed, rules, memo): the last game's, by identity


def scores_for(view: View) -> Scores:
    """The memo for this game's colours in play and scoring table (one per process)."""
    if _last and _last[0][0] is view.removed and _last[0][1] is view.rules:
        return _last[0][2]
    key = (view.colours, view.rules.table)
    memo = _SCORES.get(key)
    if memo is None:
        memo = _SCORES[key] = Scores(*key)
    _last[:] = [(view.removed, view.rules, memo)]
    return memo


def clear_scores() -> None:
    """Forget every memoised score (for cold timings; results never depend on the memos)."""
    _SCORES.clear()
    _MEMOS.clear()
    _last.clear()


# --------------------------------------------------------------------------- the bots

#: ``greedy`` takes a row when it raises its score by at least this much (or when it must take).
TAKE_AT = 4


class RandomBot:
    """Uniform over the legal actions: each ``Draw(row)`` and ``Take(row)`` equally likely."""

    name = "random"

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
        # legal_actions(view)[below(len)], without building the moves: draws first, then takes
        draws, takes = legal_rows(view)
        j = rng.below(len(draws) + len(takes)) - len(draws)
        return None if j < 0 else _new(Take, (view.current, takes[j] + 1, None, None))

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        # Drawing with probability (draws / legal), then a row uniformly among the
        # draws: each Draw(row) has probability 1 / legal, as if chosen at once.
        draws = legal_rows(view)[0]
        return draws[rng.below(len(draws))] + 1


class GreedyBot:
    """One step ahead, by the best-assignment score (``scoring.best_from_counts``).

    Takes the row that raises its score most when that raise is at least
    ``take_at`` points (``TAKE_AT``, 4, by default), or the row that costs
    least when it cannot draw (every row full, or no card left); otherwise
    draws, and puts the card where it adds most to its own row value less
    what it adds for the rival still in the round who gains most from it.
    Ties go to the lower row. Uses no randomness.

    Why a threshold: taking the first row that raises the score at all (any
    gain above 0) leaves the round with one card while others collect three;
    that player barely beats ``random``. With 4 it wins most games against
    ``random`` (``docs/simulate.md`` has the figures).

    The rule itself is two functions, ``greedy_take`` and ``greedy_row``,
    its only copy: these methods call them on a view, and the bots' loop
    calls them on collections and rows it keeps packed when every seat is
    greedy (``_play_greedy``: a greedy game, the strong bot's look-ahead,
    the analysis's playouts). Both are written for speed (greedy's own
    thinking is most of a greedy game's time): scores are looked up in the
    memo (``Scores.memo``), which computes a missing one itself.
    """

    name = "greedy"

    def __init__(self, take_at: int = TAKE_AT) -> None:
        self.take_at = take_at

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
        seat = view.current
        rows = view.rows
        i = greedy_take(scores_for(view).memo, pack_all(view.collections)[seat], rows, [_ROW_UNITS[r] for r in rows],
                        view.taken, view.limits, self.take_at, view.total - view.turned > view.lr_pending)
        return None if i < 0 else _new(Take, (seat, i + 1, None, None))

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        seat = view.current
        collections = pack_all(view.collections)
        done = view.done
        rivals = [c for p, c in enumerate(collections) if p != seat and not done[p]]
        rows = view.rows
        return 1 + greedy_row(scores_for(view).memo, collections[seat], rivals, rows, [_ROW_UNITS[r] for r in rows],
                              view.taken, view.limits, UNIT_OF[card])


def greedy_take(
    memo: dict[int, int],
    me: int,
    rows: Sequence[tuple[str, ...]],
    rowp: Sequence[int],
    taken: Sequence[bool],
    limits: Sequence[int],
    take_at: int,
    cards_left: bool,
) -> int:
    """The greedy rule's first decision: the row index to take, or -1 to turn a card over.

    ``memo``: the scores (``Scores.memo``); ``me``: the packed collection of the player to move;
    ``rowp``: each row packed; ``cards_left``: a card is left to turn over. The row that raises the
    score most (the lower on ties) if it raises it by ``take_at`` or more, or if no draw is open."""
    base = memo[me]
    best, best_gain = -1, 0
    space = False  # some row not taken has space: with a card left, a draw is open
    for i in range(len(rows)):
        if taken[i]:
            continue
        r = rows[i]
        if r:
            gain = memo[me + rowp[i]] - base
            if best < 0 or gain > best_gain:
                best, best_gain = i, gain
            if not space and len(r) < limits[i]:
                space = True
        else:
            space = True
    if best >= 0 and (best_gain >= take_at or not (space and cards_left)):
        return best
    return -1


def greedy_row(
    memo: dict[int, int],
    me: int,
    rivals: Sequence[int],
    rows: Sequence[tuple[str, ...]],
    rowp: Sequence[int],
    taken: Sequence[bool],
    limits: Sequence[int],
    unit: int,
) -> int:
    """The greedy rule's second decision: the row index for the card just turned over (packed: ``unit``).

    Where it adds most to the player's own row value less what it adds for the rival (packed
    collections of the seats still in the round) who gains most from it; the lower row on ties,
    and every empty row is worth the same (the first stands for them). With one row open it is
    that row, and no score is looked up."""
    open_rows = _open_rows(rows, taken, limits)
    if len(open_rows) == 1:  # no choice (half the draws of a greedy game): no score to look up
        return open_rows[0]
    return _best_row(memo, me, rivals, open_rows, rowp, unit)


def _open_rows(rows: Sequence[tuple[str, ...]], taken: Sequence[bool], limits: Sequence[int]) -> list[int]:
    """The rows a card turned over can go to (not taken, not full), the first empty one standing for every
    empty one (they are worth the same)."""
    open_rows = []
    empty = False  # an empty row seen
    for i in range(len(rows)):
        if taken[i]:
            continue
        row = rows[i]
        if len(row) >= limits[i]:
            continue
        if not row:
            if empty:
                continue
            empty = True
        open_rows.append(i)
    return open_rows


def _best_row(memo: dict[int, int], me: int, rivals: Sequence[int], open_rows: list[int], rowp: Sequence[int],
              unit: int) -> int:
    """``greedy_row``'s pick among ``open_rows`` (two or more)."""
    best, best_value = -1, 0
    for i in open_rows:
        r = rowp[i]
        r2 = r + unit
        value = memo[me + r2] - memo[me + r]
        if rivals:
            most = -(1 << 62)  # max() over a generator, spelled out: a third of the time
            for c in rivals:
                change = memo[c + r2] - memo[c + r]
                if change > most:  # noqa: PLR1730 (max() is slower)
                    most = change
            value -= most
        if best < 0 or value > best_value:
            best, best_value = i, value
    return best


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

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
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
        values = sim.values(candidates, decks)
        m = len(decks)
        best, best_value = candidates[0], None
        for c, cand in enumerate(candidates):
            value = sum(values[c * m: c * m + m])
            if best_value is None or value > best_value:
                best, best_value = cand, value
        return None if best < 0 else Take(seat, best + 1)

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        rows = [m.row - 1 for m in engine.legal_actions(view) if type(m) is Draw]
        if len(rows) == 1:
            return rows[0] + 1
        sim = _Rollouts(view)
        decks = sim.decks(rng, self.samples)
        values = sim.values(rows, decks, card)
        m = len(decks)
        best, best_value = rows[0], None
        for r, i in enumerate(rows):
            value = sum(values[r * m: r * m + m])
            if best_value is None or value > best_value:
                best, best_value = i, value
        return best + 1


class _Rollouts:
    """The rest of a round from ``view``, every player greedy, on copies of one ``engine.Table``.

    The engine's bookkeeping and the bots' greedy loop (``_play_greedy``, or
    the kernel's, every start of a decision in one call), stopped at the end
    of the round.
    """

    __slots__ = ("need", "pool", "seat", "start")

    def __init__(self, view: View) -> None:
        start = view.copy() if type(view) is Table else Table(view)  # type: ignore[arg-type]
        start.deck = None
        self.start = start
        self.seat = view.current
        pool: list[str] = []
        for k, n in enumerate(view.remaining):
            pool.extend([KINDS[k]] * n)
        self.pool = pool
        space = sum(lim - len(r) for lim, r, t in zip(view.limits, view.rows, view.taken) if not t)
        self.need = min(len(pool), space + 2)  # + a golden joker's extra card, and one spare

    def decks(self, rng: SplitMix64, n: int) -> list[list[str]]:
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

    def after_take(self, i: int, deck: list[str]) -> tuple[Table, int]:
        """The table after taking row ``i`` (a golden joker's extra card the deck's first), and the place in
        the game of the deck's first card."""
        table = self.start.copy()
        extra = deck[0] if deck and GOLDEN_JOKER in table.rows[i] else None
        table.take(self.seat, i, extra, False)
        return table, self.start.turned

    def after_draw(self, deck: list[str]) -> tuple[Table, int] | None:
        """The table after drawing the deck's first card into greedy's row (None: no card to draw)."""
        if not deck:
            return None
        table = self.start.copy()
        card = deck[0]
        table.turn_over(card, False)
        table.place(self.seat, _GREEDY.place(table, card, _NO_RNG) - 1, card)
        return table, self.start.turned

    def after_place(self, i: int, card: str) -> tuple[Table, int]:
        """The table after ``card``, in hand, goes to row ``i``."""
        table = self.start.copy()
        table.place(self.seat, i, card)
        return table, table.turned

    def values(self, candidates: list[int], decks: list[list[str]], card: str | None = None) -> list[float]:
        """The value of each candidate on each deck (candidate ``c``, deck ``d``: ``c * len(decks) + d``):
        a row to take (``i >= 0``) or drawing (-1), or with ``card`` in hand the row to put it in; then greedy
        play for all to the end of the round. On the fast path all of them in one call of the kernel."""
        stop = self.start.round + 1
        fast = fastplay()
        if fast.ready(len(candidates) * len(decks) * self.need):
            if card is None:
                firsts = [fast.DRAW if c < 0 else c for c in candidates]
            else:
                firsts = [fast.place(i) for i in candidates]
            scores = fast.playouts(self.start, firsts, decks, self.start.turned, _GREEDY.take_at, stop_round=stop,
                                   hand=card)
            return [self._margin(s) for s in scores]
        out = []
        for c in candidates:
            for deck in decks:
                if card is not None:
                    start: tuple[Table, int] | None = self.after_place(c, card)
                else:
                    start = self.after_take(c, deck) if c >= 0 else self.after_draw(deck)
                if start is None:
                    out.append(self._value(self.start))
                    continue
                table, base = start
                play_greedy_pure(table, deck, base, _GREEDY.take_at, None, -1, stop)
                out.append(self._value(table))
        return out

    def _value(self, table: Table) -> float:
        scores = scores_for(table)
        return self._margin([scores[c] for c in pack_all(table.collections)])

    def _margin(self, s: list[int]) -> float:
        """A position's value from every seat's score: its own less the mean of the others'."""
        mine = s[self.seat]
        return mine - (sum(s) - mine) / (len(s) - 1)


_GREEDY = GreedyBot()
_NO_RNG = SplitMix64(0)  # greedy draws nothing from it


def _expert_mc() -> Bot:
    """``expert-mc`` (``bots.expert``: races of greedy playouts), loaded when first asked for."""
    bot: Bot = importlib.import_module(f"{__package__}.expert").PlayoutExpertBot()
    return bot


def _expert() -> Bot:
    """``expert`` (``bots.expert``: the analysis's best choice), loaded when first asked for.

    It plays the analysis's playouts (``bots.playout``), which are built on
    this module: importing it here at the top would import this module back.
    """
    bot: Bot = importlib.import_module(f"{__package__}.expert").ExpertBot()
    return bot


#: The bots by name, as ``--bots`` spells them, weakest first: the one list every choice of a bot
#: (``simulate --bots``, its help, the docs' table) comes from.
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
    "expert-mc": _expert_mc,
    "expert": _expert,
}


def make_bot(name: str) -> Bot:
    """A bot by name; ``KeyError`` for an unknown name."""
    return BOTS[name]()
