"""The fast playout path: greedy play on ``engine.Table``s through a compiled kernel, many tables a call.

``players._play_greedy`` (every seat ``GreedyBot``: a greedy game, the
analysis's playouts, the strong bot's look-ahead) hands its loop here when
the kernel has loaded; ``play_tables`` is the batched form, many tables at
once. The kernel (``bots._kernel``, numba) is the same loop on flat integer
arrays: this module packs tables into those arrays, lays out the scores it
reads (``score_table``: ``Scores.memo``'s own scores, so scoring keeps its
one definition in ``core.scoring``), runs it and writes the result back into
the tables, and the moves as the pure loop makes them.

numba is imported when a process first has enough playing to do to pay for
its load (``ready``, ``WARM_UP``), never at import. If it is not installed
or fails to load, everything runs on the pure path and says so once (a
``RuntimeWarning``); ``COLORETTO_PURE=1`` in the environment chooses the
pure path without a word (the tests run both paths with it).
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from types import ModuleType
from typing import Any

from ..core.cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    JOKER_INDEX,
    KIND_INDEX,
    KINDS,
    LAST_ROUND,
    N_KINDS,
    PLUS2_INDEX,
)
from ..core.editions import EDITION_TABLE
from ..core.engine import Draw, GameState, Move, Table, Take, new_game
from ..core.rng import SplitMix64
from ..core.ruleset import RuleSet
from ..core.setup import seeded_setup
from .players import TAKE_AT, pack, play_greedy_pure, scores_for

__all__ = [
    "DRAW",
    "ENV_PURE",
    "GREEDY",
    "WARM_UP",
    "Agreement",
    "agreement",
    "available",
    "off",
    "place",
    "play_tables",
    "playouts",
    "ready",
    "reason",
    "score_table",
    "starts",
    "used",
]

#: Set to 1 to play on the pure path (``players``' own loop) even where the kernel loads.
ENV_PURE = "COLORETTO_PURE"

_N_COLOURS = len(ALL_COLOURS)  # colours come first in cards.KINDS
#: A pattern digit's base: more than the most colours one edition has in play (each digit counts colours).
_BASE = max(len(e.colours) for e in EDITION_TABLE) + 1
_JOKERS = max(e.jokers + e.golden_jokers for e in EDITION_TABLE) + 1  # the most jokers a collection holds, + 1
_MAX_ROW = 3  # the longest row (ruleset.LAYOUTS)
_CODE = {name: k for k, name in enumerate(KINDS)} | {LAST_ROUND: N_KINDS}

_state: dict[str, Any] = {}  # "kernel": the module, or None with "why": the reason it is not used


def _pure() -> bool:
    """``COLORETTO_PURE`` is set (to anything but 0)."""
    return os.environ.get(ENV_PURE, "") not in ("", "0")


def _load() -> ModuleType | None:
    """The kernel module, loaded once; None when the pure path is asked for, or (with a warning, once) when
    the kernel cannot load."""
    if _pure():
        return None
    if "kernel" not in _state:
        kernel: ModuleType | None = None
        try:
            kernel = importlib.import_module(f"{__package__}._kernel")
        except Exception as e:  # noqa: BLE001 (numba missing, or failing to load: the pure path still plays)
            kernel = None
            _state["why"] = f"numba did not load ({type(e).__name__}: {e})"
            warnings.warn(f"coloretto-log: the fast playout path is off, {_state['why']}: playing on the "
                          "pure path, slower", RuntimeWarning, stacklevel=3)
        else:
            _state["dig"] = _digits()
        _state["kernel"] = kernel
    return _state["kernel"]  # type: ignore[no-any-return]


#: Cards of greedy play (cards still to turn over, a playout's) the pure path plays before the kernel is loaded:
#: numba's import and the kernel's load from its cache cost about 0.7 s of CPU, some 150,000 cards of the pure
#: loop's play (a four-player game is about 80), which a short run would spend for nothing.
WARM_UP = 150_000

_played = [0]  # cards of play offered to ``ready`` so far


def ready(cards: int) -> bool:
    """Whether play of ``cards`` more cards should run on the kernel: it has loaded, or the pure path has played
    ``WARM_UP`` cards already (then it loads it). Results never depend on the answer: both paths play alike."""
    if _state.get("kernel") is not None and not _pure():
        return True
    _played[0] += cards
    return _played[0] > WARM_UP and available()


def used() -> bool:
    """True once the kernel has loaded in this process (and is not switched off by ``COLORETTO_PURE``)."""
    return _state.get("kernel") is not None and not _pure()


def off() -> str | None:
    """Why the kernel is off, as far as is known without loading it: ``COLORETTO_PURE``, or a load that failed
    (None: it is on, or has not been tried)."""
    if _pure():
        return f"{ENV_PURE} is set"
    return _state.get("why") if _state.get("kernel", True) is None else None


def available() -> bool:
    """True when playouts run on the compiled kernel (it loads it on first call)."""
    return _load() is not None


def reason() -> str | None:
    """Why playouts run on the pure path (None: they run on the kernel)."""
    if _pure():
        return f"{ENV_PURE} is set"
    return None if available() else str(_state["why"])


def _digits() -> Any:
    import numpy as np

    dig = np.zeros(16, dtype=np.int64)
    for n in range(1, 16):
        dig[n] = _BASE ** (min(n, 6) - 1)
    return dig


_TABLES: dict[tuple[int, object], Any] = {}


def score_table(view: Table | GameState) -> Any:
    """``tab[jokers, key]``: the score of every pattern of colour counts of this game's colours in play and
    scoring table, "+2" cards aside (``bots._kernel`` says the key), read from ``Scores.memo`` itself."""
    import numpy as np

    scores = scores_for(view)
    cache_key = (len(scores.colours), scores.table)
    tab = _TABLES.get(cache_key)
    if tab is not None:
        return tab
    colours = scores.colours
    tab = np.zeros((_JOKERS, _BASE**6), dtype=np.int32)
    memo = scores.memo
    n = len(colours)
    kinds = [KIND_INDEX[c] for c in colours]
    for held in product(range(n + 1), repeat=6):  # how many colours hold 1, 2, ... 6 cards
        if sum(held) > n:
            continue
        counts = [0] * N_KINDS
        key = 0
        at = 0
        for size, many in enumerate(held, start=1):
            key += many * _BASE ** (size - 1)
            for _ in range(many):
                counts[kinds[at]] = size
                at += 1
        for j in range(_JOKERS):
            counts[JOKER_INDEX] = j
            tab[j, key] = memo[pack(counts)]
    _TABLES[cache_key] = tab
    return tab


def _packed(t: Table | GameState) -> list[int]:
    """A table as the kernel's state row (``_kernel.offsets``)."""
    row_codes = _ROW_CODES
    row: list[int] = []
    add = row.extend
    for r in t.rows:
        add(row_codes[r])
    add(map(len, t.rows))
    add(t.taken)
    for c in t.collections:
        add(c)
    add(t.done)
    add(t.remaining)
    add(t.discarded)
    add((t.current, t.round, t.last_round, t.over, t.turned, t.total, t.lr_pending, 0))
    return row


def _orders(cards: Sequence[Sequence[str]]) -> tuple[Any, Any]:
    """Orders of cards as the kernel reads them: one row of kind numbers each (padded), and their lengths."""
    import numpy as np

    length = max(map(len, cards), default=0) + 1
    get = _CODE.__getitem__
    zeros = [0] * length
    deck = np.array([[*map(get, cs), *zeros[len(cs):]] for cs in cards], dtype=np.int64).reshape(len(cards), length)
    return deck, np.fromiter(map(len, cards), dtype=np.int64, count=len(cards))


def _run(kernel: ModuleType, first: Table | GameState, *arrays: Any) -> None:
    """``_kernel.play`` on the arrays (``play``'s from ``state`` on), for ``first``'s game."""
    import numpy as np

    kernel.play(score_table(first), _state["dig"], _N_COLOURS, scores_for(first).table.plus2, JOKER_INDEX,
                GOLDEN_INDEX, PLUS2_INDEX, np.asarray(first.limits, dtype=np.int64), first.players, N_KINDS, *arrays)


#: ``playouts``' first decisions: greedy's own, a draw; a take of row ``i`` is ``i``, the card in hand put in
#: row ``i`` is ``place(i)``.
GREEDY, DRAW = -1, -2


def place(i: int) -> int:
    """``playouts``' first decision that puts the card in hand in row ``i``."""
    return -10 - i


def playouts(table: Table | GameState, firsts: Sequence[int], orders: Sequence[Sequence[str]], base: int,
             take_at: int, *, stop_round: int = 0, hand: str | None = None) -> list[list[int]]:
    """Every seat's score after each first decision at ``table`` (``GREEDY``, ``DRAW``, a row ``i`` to take,
    ``place(i)`` for ``hand``, the card turned over) and greedy play for all on each order of the cards to
    come (the next at ``table.turned - base``) to the end of the game or as round ``stop_round`` begins: one
    kernel call for them all, the table packed once. The first decision's ``f``, order ``o``: row
    ``f * len(orders) + o`` of the answer. The table is left as it was."""
    _, final = _from_position(table, firsts, orders, base, take_at, stop_round, hand)
    scores: list[list[int]] = final.tolist()
    return scores


def play_from(table: Table | GameState, firsts: Sequence[int], orders: Sequence[Sequence[str]], base: int,
              take_at: int, *, stop_round: int = 0, hand: str | None = None) -> list[Table]:
    """``playouts``, answering with the table where each playout stopped (a new ``Table`` each, in the same
    order) instead of the scores."""
    state, _ = _from_position(table, firsts, orders, base, take_at, stop_round, hand)
    start = table.state() if isinstance(table, Table) else table
    tables = [Table(start) for _ in range(state.shape[0])]
    _write(tables, state.tolist(), table.players, len(table.limits))
    return tables


def _from_position(table: Table | GameState, firsts: Sequence[int], orders: Sequence[Sequence[str]], base: int,
                   take_at: int, stop_round: int, hand: str | None) -> tuple[Any, Any]:
    """The kernel's state rows and scores after ``playouts``' games."""
    import numpy as np

    kernel = _load()
    assert kernel is not None, "playouts needs the kernel (fastplay.available())"
    n = len(firsts) * len(orders)
    state = np.repeat(np.array([_packed(table)], dtype=np.int64), n, axis=0)
    deck, ncards = _orders(orders)
    which = np.tile(np.arange(len(orders), dtype=np.int64), len(firsts))
    first = np.repeat(np.asarray(firsts, dtype=np.int64), len(orders))
    in_hand = np.full(n, 0 if hand is None else _CODE[hand], dtype=np.int64)
    final = np.zeros((n, table.players), dtype=np.int64)
    _run(kernel, table, state, deck, ncards, which, np.full(n, base, dtype=np.int64), first, in_hand, take_at, -1,
         stop_round, False, np.zeros((1, 1), dtype=np.int64), np.zeros(n, dtype=np.int64), final)
    return state, final


def play_tables(
    tables: Sequence[Table],
    cards: Sequence[Sequence[str]],
    bases: Sequence[int],
    take_at: int,
    *,
    turns: int = -1,
    stop_round: int = 0,
    keep: bool = False,
    write: bool = True,
) -> tuple[list[list[Move]] | None, list[bool], list[list[int]]]:
    """Play every table on in place, every seat ``GreedyBot(take_at)``: ``players._play_greedy`` for each,
    in one call of the kernel. The tables share the number of players and the scoring table and colours in
    play (their count); the card table ``b`` turns over next is ``cards[b][table.turned - bases[b]]``.

    Returns the moves of each table (with ``keep``, else None), for each whether its cards ran out (play
    stopped there, as ``_play_greedy`` returns), and every seat's score where it stopped. ``write`` False:
    the tables are left as they were (the scores are all the caller wants). The kernel must have loaded
    (``available``)."""
    import numpy as np

    kernel = _load()
    assert kernel is not None, "play_tables needs the kernel (fastplay.available())"
    first = tables[0]
    nseats = first.players
    nrows = len(first.limits)
    state = np.array([_packed(t) for t in tables], dtype=np.int64)
    deck, ncards = _orders(cards)
    b = len(tables)
    length = deck.shape[1]
    moves = np.zeros((b if keep else 1, 2 * length + 2 * nseats if keep else 1), dtype=np.int64)
    nmoves = np.zeros(b, dtype=np.int64)
    final = np.zeros((b, nseats), dtype=np.int64)
    _run(kernel, first, state, deck, ncards, np.arange(b, dtype=np.int64), np.asarray(bases, dtype=np.int64),
         np.full(b, -1, dtype=np.int64), np.zeros(b, dtype=np.int64), take_at, turns, stop_round, keep, moves,
         nmoves, final)
    if not write:
        return None, state[:, -1].astype(bool).tolist(), final.tolist()
    stopped = _write(tables, state.tolist(), nseats, nrows)
    if not keep:
        return None, stopped, final.tolist()
    move_of = _MOVES
    out = [[move_of[c] for c in m[:n]] for m, n in zip(moves.tolist(), nmoves.tolist())]
    return out, stopped, final.tolist()


def _write(tables: Sequence[Table], rows: list[list[int]], nseats: int, nrows: int) -> list[bool]:
    """Each kernel state row written back into its table; for each, whether its cards ran out."""
    kernel = _state["kernel"]
    rlen_at, taken_at, coll_at, done_at, rem_at, disc_at, scal_at, _ = kernel.offsets(nrows, nseats, N_KINDS)
    names = _ROW_NAMES
    stopped = []
    for t, st in zip(tables, rows):
        t.rows[:] = [names[tuple(st[_MAX_ROW * i: _MAX_ROW * i + n])] for i, n in enumerate(st[rlen_at:taken_at])]
        t.taken[:] = map(bool, st[taken_at:coll_at])
        t.collections = [tuple(st[a: a + N_KINDS]) for a in range(coll_at, done_at, N_KINDS)]
        t.done[:] = map(bool, st[done_at:rem_at])
        t.remaining[:] = st[rem_at:disc_at]
        t.discarded = tuple(st[disc_at:scal_at])
        cur, rnd, last, over, turned, _, lr_pending, stop = st[scal_at:]
        t.current, t.round, t.last_round, t.over, t.turned, t.lr_pending = (
            cur, rnd, last == 1, over == 1, turned, lr_pending == 1)
        stopped.append(stop == 1)
    return stopped


class _RowCodes(dict[tuple[str, ...], list[int]]):
    """A row's cards as the kernel's state row holds them (kind numbers, padded to three): a miss codes it."""

    __slots__ = ()

    def __missing__(self, row: tuple[str, ...]) -> list[int]:
        codes = self[row] = [_CODE[c] for c in row] + [0] * (_MAX_ROW - len(row))
        return codes


class _RowNames(dict[tuple[int, ...], tuple[str, ...]]):
    """A row's kind numbers back as its cards: a miss names them."""

    __slots__ = ()

    def __missing__(self, codes: tuple[int, ...]) -> tuple[str, ...]:
        row = self[codes] = tuple(KINDS[c] for c in codes)
        return row


_ROW_CODES = _RowCodes()
_ROW_NAMES = _RowNames()


class _Moves(dict[int, Move]):
    """Every move the kernel wrote, by its number (``_kernel.move_code``): a miss decodes it."""

    __slots__ = ()

    def __missing__(self, code: int) -> Move:
        rest, lr = divmod(code, 4)
        rest, card = divmod(rest, 16)
        seat, row = divmod(rest, 16)
        row, card, last_round = row - 8, card - 1, lr - 1
        name = KINDS[card] if card >= 0 else None
        move: Move
        if row > 0:
            move = Draw(seat, row, name, last_round == 1)
        else:
            move = Take(seat, -row, name, None if last_round < 0 else last_round == 1)
        self[code] = move
        return move


_MOVES = _Moves()


# --------------------------------------------------------------------------- the check against the pure path


@dataclass(frozen=True, slots=True)
class Agreement:
    """How many playouts the kernel played as the pure path (``players.play_greedy_pure``) did."""

    playouts: int
    equal: int  # the same moves, the same table where play stopped, the same scores
    first_differing: str | None  # which one did not (None: every one agreed)


def starts(rules: RuleSet, players: int, seeds: Sequence[int]) -> list[tuple[GameState, list[str], int]]:
    """The playouts the check plays, three for each seed: its seeded game from the deal to the end (the
    state, the cards to turn over, the round to stop at: 0), the same deal to the end of its first round
    (2), and a position of the game after ``seed % 40`` greedy moves, played to the end on an order of the
    unseen cards drawn from the seed and cut short (the cards running out, as a playout's order may)."""
    out: list[tuple[GameState, list[str], int]] = []
    for seed in seeds:
        s = seeded_setup(rules, players, seed, 0)
        state = new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
        assert state.deck is not None
        deck = list(state.deck)
        out.append((state, deck, 0))
        out.append((state, deck, 2))
        table = Table(state)
        table.deck = None
        play_greedy_pure(table, deck, 0, TAKE_AT, None, seed % 40, 0)
        mid = table.state()
        pool = [KINDS[k] for k, n in enumerate(mid.remaining) for _ in range(n)]
        order = SplitMix64(seed).shuffle(pool)
        if mid.lr_pending:
            order.insert(max(0, min(len(order), mid.lr_expected_at - mid.turned)), LAST_ROUND)
        out.append((mid, order[: len(order) - seed % 7], 0))
    return out


def agreement(rules: RuleSet, players: int, seeds: Sequence[int], take_at: int = TAKE_AT,
              batch: int = 2000) -> Agreement:
    """The kernel against the pure path on ``starts(rules, players, seeds)``: move for move, the table
    where play stopped and every seat's score, ``batch`` playouts a kernel call."""
    equal = total = 0
    first: str | None = None
    per = max(1, batch // 3)
    for at in range(0, len(seeds), per):  # a batch's starts at a time: memory stays flat over many seeds
        part = starts(rules, players, seeds[at: at + per])
        total += len(part)
        fast = [Table(state) for state, _, _ in part]
        for t in fast:
            t.deck = None
        by_stop: dict[int, list[int]] = {}
        for k, (_, _, stop) in enumerate(part):
            by_stop.setdefault(stop, []).append(k)
        moves: list[list[Move]] = [[] for _ in part]
        stopped = [False] * len(part)
        scores: list[list[int]] = [[] for _ in part]
        for stop, ks in by_stop.items():
            got, ran_out, final = play_tables([fast[k] for k in ks], [part[k][1] for k in ks],
                                              [part[k][0].turned for k in ks], take_at, stop_round=stop, keep=True)
            assert got is not None
            for j, k in enumerate(ks):
                moves[k], stopped[k], scores[k] = got[j], ran_out[j], final[j]
        for k, (state, cards, stop) in enumerate(part):
            pure = Table(state)
            pure.deck = None
            pure_moves: list[Move] = []
            play_greedy_pure(pure, cards, state.turned, take_at, pure_moves, -1, stop)
            memo = scores_for(pure).memo
            same = (moves[k] == pure_moves and fast[k].state() == pure.state()
                    and scores[k] == [memo[pack(c)] for c in pure.collections]
                    and stopped[k] == (not pure.over and pure.round != stop))
            if same:
                equal += 1
            elif first is None:
                seed = seeds[at + k // 3]
                first = f"{rules.edition.name} {rules.table.name} {players} players seed {seed}, playout {k % 3}"
    return Agreement(total, equal, first)
