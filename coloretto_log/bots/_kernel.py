"""The greedy playout compiled by numba: ``players._play_greedy``'s loop on flat integer arrays, many games a call.

Imported only by ``bots.fastplay`` (which imports numba first and falls back
to the pure path if this module cannot load). Nothing here is a rule of its
own: it is the same loop as ``players._play_greedy`` (the greedy rule's two
decisions, ``greedy_take`` and ``greedy_row``, and ``engine.Table``'s
``turn_over``, ``place`` and ``take``), spelled on arrays, and
``benchmarks/bench_fastplay.py`` and ``tests/bots/test_fastplay.py`` hold it
equal to that loop move for move.

The layout (``fastplay`` packs and unpacks it; ``B`` games, ``P`` seats,
``R`` rows, ``K`` kinds of ``cards.KINDS``; a card is its kind index, the
last-round card is ``K``):

one row of ``state[B, W]`` a game, laid out by ``offsets``: each row's
cards (3 places a row), each row's length, ``taken``, every seat's
collection by kind, ``done``, ``remaining``, ``discarded``, then eight
numbers: current, round, last_round, over, turned, total, lr_pending and
the stop flag this kernel writes (1: the cards given ran out, as
``_play_greedy`` returns early);
- ``cards[D, L]`` with ``ncards[D]``: the orders of cards, game ``b``
  turning over ``cards[which[b], turned - base[b]]`` next (many games may
  share an order);
- ``moves[B, M]`` and ``nmoves[B]`` (when ``keep``): each move as one
  number (``move_code``).

Scores: ``tab[jokers, key]`` holds ``Scores.memo``'s score (without "+2"
cards) of every pattern of colour counts, where ``key`` sums ``dig[count]``
over the colours (``dig[0] = 0``, ``dig[n] = base ** (min(n, 6) - 1)``: how
many colours hold 1, 2, ... 6 or more cards, a digit each), and ``plus2``
points are added for each "+2" card: the same split as ``_Memo.__missing__``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

CUR, ROUND, LAST, OVER, TURNED, TOTAL, LR_PENDING, STOPPED = range(8)
SCALARS = 8
MAX_ROW = 3


@njit(cache=True)
def offsets(nrows: int, nseats: int, nkinds: int) -> tuple[int, int, int, int, int, int, int, int]:
    """Where each part of a game's state row starts (``rows`` at 0), and the row's width."""
    rlen = MAX_ROW * nrows
    taken = rlen + nrows
    coll = taken + nrows
    done = coll + nseats * nkinds
    remaining = done + nseats
    discarded = remaining + nkinds
    scal = discarded + nkinds
    return rlen, taken, coll, done, remaining, discarded, scal, scal + SCALARS


@njit(cache=True)
def move_code(seat: int, row: int, card: int, last_round: int) -> int:
    """A move as one number: the seat, the row from 1 (negative: a take), the card or extra (-1: none) and
    its last-round flag (-1: none, a take without extra; 0 or 1)."""
    return ((seat * 16 + row + 8) * 16 + card + 1) * 4 + last_round + 1


@njit(cache=True)
def _key(dig: Any, ncol: int, st: Any, at: int) -> int:  # pragma: no cover (compiled)
    """The pattern key of the colours of the collection at ``st[at:]`` (``tab``'s second index)."""
    key = 0
    for c in range(ncol):
        key += dig[st[at + c]]
    return key


@njit(cache=True)
def _score(tab: Any, dig: Any, ncol: int, plus2: int, joker: int, golden: int, p2: int, st: Any, at: int,
           key: int, rc: int, rl: int, extra: int) -> int:  # pragma: no cover (compiled)
    """The score of the collection at ``st[at:]`` (its colours' pattern key ``key``) with the ``rl`` cards at
    ``st[rc:]`` and ``extra`` (-1: none)."""
    j = st[at + joker] + st[at + golden]
    q = st[at + p2]
    n = rl + (1 if extra >= 0 else 0)
    for a in range(n):
        c = st[rc + a] if a < rl else extra
        if c < ncol:
            m = st[at + c]
            for b in range(a):
                if st[rc + b] == c:
                    m += 1
            key += dig[m + 1] - dig[m]
        elif c == p2:
            q += 1
        else:
            j += 1
    return int(tab[j, key] + plus2 * q)


@njit(cache=True)
def _next_seat(st: Any, done: int, cur: int, nseats: int, seat: int) -> None:  # pragma: no cover (compiled)
    """The next seat clockwise from ``seat`` still in the round moves (``Table.place`` and ``take``)."""
    s = seat + 1 if seat + 1 < nseats else 0
    while st[done + s] and s != seat:
        s = s + 1 if s + 1 < nseats else 0
    st[cur] = s


@njit(cache=True)
def _turn_over(st: Any, scal: int, remaining: int, card: int, last_round: bool) -> None:  # pragma: no cover (compiled)
    """``Table.turn_over``: ``card`` comes off the deck, the last-round card first if ``last_round``."""
    if last_round:
        st[scal + TURNED] += 2
        st[scal + LR_PENDING] = 0
        st[scal + LAST] = 1
    else:
        st[scal + TURNED] += 1
    st[remaining + card] -= 1


@njit(cache=True)
def _place(st: Any, rlen: int, done: int, cur: int, nseats: int, seat: int, row: int,
           card: int) -> None:  # pragma: no cover (compiled)
    """``Table.place``: ``card``, turned over, goes to ``row``; the next seat moves."""
    st[MAX_ROW * row + st[rlen + row]] = card
    st[rlen + row] += 1
    _next_seat(st, done, cur, nseats, seat)


@njit(cache=True)
def play(tab: Any, dig: Any, ncol: int, plus2: int, joker: int, golden: int, p2: int, limits: Any,
         nseats: int, nkinds: int, state: Any, cards: Any, ncards: Any, which: Any, base: Any, first: Any,
         hand: Any, take_at: int, turns: int, stop_round: int, keep: bool, moves: Any, nmoves: Any,
         scores: Any) -> None:  # pragma: no cover (compiled)
    """Every game ``b`` of the batch played on in place, every seat greedy (``take_at``): ``turns`` turns
    (-1: to the end of the game), stopping as round ``stop_round`` begins (0: never). Game ``b`` turns its
    cards over from ``cards[which[b]]`` (``ncards[which[b]]`` of them), the next at ``turned - base[b]``.
    ``first[b]``: the first decision, if not greedy's (-1): -2 a draw, ``i >= 0`` a take of row ``i``,
    ``-10 - i`` the card in hand (``hand[b]``, turned over already) put in row ``i``. ``scores[b, p]``:
    seat ``p``'s score where game ``b`` stopped."""
    lr_card = nkinds
    nrows = limits.shape[0]
    RLEN, TAKEN, COLL, DONE, REM, DISC, SCAL, _ = offsets(nrows, nseats, nkinds)
    cur, rnd, last, over, turned = SCAL + CUR, SCAL + ROUND, SCAL + LAST, SCAL + OVER, SCAL + TURNED
    total, lr_pending, stopped = SCAL + TOTAL, SCAL + LR_PENDING, SCAL + STOPPED
    keys = np.zeros(nseats, dtype=np.int64)  # each seat's pattern key, kept up to date as it takes rows
    open_rows = np.zeros(nrows, dtype=np.int64)  # a draw's open rows (``players._open_rows``)
    for b in range(state.shape[0]):
        st = state[b]
        for p in range(nseats):
            keys[p] = _key(dig, ncol, st, COLL + p * nkinds)
        d = which[b]
        n_cards = ncards[d]
        left = turns
        nm = 0
        force = first[b]
        if force <= -10:  # the second half of a draw: the card in hand goes to its row
            _place(st, RLEN, DONE, cur, nseats, st[cur], -10 - force, hand[b])
            force = -1
        while left != 0 and st[over] == 0 and st[rnd] != stop_round:
            left -= 1
            seat = st[cur]
            me = COLL + seat * nkinds
            best = force
            draw = force == -2
            if force == -1:  # greedy_take
                base_score = _score(tab, dig, ncol, plus2, joker, golden, p2, st, me, keys[seat], 0, 0, -1)
                best_gain = 0
                space = False
                for i in range(nrows):
                    if st[TAKEN + i]:
                        continue
                    rl = st[RLEN + i]
                    if rl > 0:
                        gain = _score(tab, dig, ncol, plus2, joker, golden, p2, st, me, keys[seat], MAX_ROW * i, rl, -1) - base_score
                        if best < 0 or gain > best_gain:
                            best = i
                            best_gain = gain
                        if rl < limits[i]:
                            space = True
                    else:
                        space = True
                cards_left = st[total] - st[turned] > st[lr_pending]
                draw = not (best >= 0 and (best_gain >= take_at or not (space and cards_left)))
            force = -1
            if draw:
                # a draw: the card turned over
                t = st[turned] - base[b]
                if t >= n_cards:
                    st[stopped] = 1
                    break
                card = cards[d, t]
                lr = card == lr_card
                if lr:
                    if t + 1 >= n_cards:
                        st[stopped] = 1
                        break
                    card = cards[d, t + 1]
                _turn_over(st, SCAL, REM, card, lr)
                # greedy_row: the open rows (the first empty one standing for every empty one)
                nopen = 0
                seen_empty = False
                for i in range(nrows):
                    rl = st[RLEN + i]
                    if st[TAKEN + i] or rl >= limits[i]:
                        continue
                    if rl == 0:
                        if seen_empty:
                            continue
                        seen_empty = True
                    open_rows[nopen] = i
                    nopen += 1
                row = open_rows[0]
                if nopen > 1:
                    row = -1
                    best_value = 0
                    for k in range(nopen):
                        i = open_rows[k]
                        rl = st[RLEN + i]
                        rc = MAX_ROW * i
                        value = (_score(tab, dig, ncol, plus2, joker, golden, p2, st, me, keys[seat], rc, rl, card)
                                 - _score(tab, dig, ncol, plus2, joker, golden, p2, st, me, keys[seat], rc, rl, -1))
                        most = -(1 << 62)
                        rivals = False
                        for p in range(nseats):
                            if p == seat or st[DONE + p]:
                                continue
                            rivals = True
                            other = COLL + p * nkinds
                            change = (_score(tab, dig, ncol, plus2, joker, golden, p2, st, other, keys[p], rc, rl, card)
                                      - _score(tab, dig, ncol, plus2, joker, golden, p2, st, other, keys[p], rc, rl, -1))
                            most = max(most, change)
                        if rivals:
                            value -= most
                        if row < 0 or value > best_value:
                            row = i
                            best_value = value
                _place(st, RLEN, DONE, cur, nseats, seat, row, card)
                if keep:
                    moves[b, nm] = move_code(seat, row + 1, card, 1 if lr else 0)
                    nm += 1
                continue
            # a take, with a golden joker's extra card if one is left to turn over
            i = best
            rc = MAX_ROW * i
            rl = st[RLEN + i]
            extra = -1
            lr = False
            has_golden = False
            for a in range(rl):
                if st[rc + a] == golden:
                    has_golden = True
            if has_golden:
                t = st[turned] - base[b]
                if t < n_cards:
                    c = cards[d, t]
                    if c != lr_card:
                        extra = c
                    elif t + 1 < n_cards:
                        extra = cards[d, t + 1]
                        lr = True
            # Table.take
            for a in range(rl):
                c = st[rc + a]
                if c < ncol:
                    keys[seat] += dig[st[me + c] + 1] - dig[st[me + c]]
                st[me + c] += 1
            if extra >= 0:
                _turn_over(st, SCAL, REM, extra, lr)
                if extra < ncol:
                    keys[seat] += dig[st[me + extra] + 1] - dig[st[me + extra]]
                st[me + extra] += 1
            st[RLEN + i] = 0
            st[TAKEN + i] = 1
            st[DONE + seat] = 1
            if keep:
                moves[b, nm] = move_code(seat, -(i + 1), extra, (1 if lr else 0) if extra >= 0 else -1)
                nm += 1
            still = False
            for p in range(nseats):
                if not st[DONE + p]:
                    still = True
            if still:
                _next_seat(st, DONE, cur, nseats, seat)
                continue
            # the round ends: rows not taken (2 players) leave the game; the last taker starts the next
            for r in range(nrows):
                for a in range(st[RLEN + r]):
                    st[DISC + st[MAX_ROW * r + a]] += 1
                st[RLEN + r] = 0
                st[TAKEN + r] = 0
            for p in range(nseats):
                st[DONE + p] = 0
            st[cur] = seat
            if st[last]:
                st[over] = 1
            else:
                st[rnd] += 1
        nmoves[b] = nm
        for p in range(nseats):
            scores[b, p] = _score(tab, dig, ncol, plus2, joker, golden, p2, st, COLL + p * nkinds, keys[p], 0, 0, -1)
