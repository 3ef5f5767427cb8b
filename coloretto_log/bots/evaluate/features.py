"""What the evaluator reads of a position: a short row of numbers for every seat.

``features(view)`` gives one row per seat (seat order), each from that seat's
side of the table, built only from what every player sees (``engine.View``:
the rows, the collections, the composition of the unseen cards, whose turn;
never the deck's order). The numbers (``NAMES``, in order):

- the game: how many players (one-hot 2 to 5), how far the deck has gone,
  the rounds left before the last-round card is due (at the rows' size a
  round), whether this round is the last, the places still free in the rows,
  the golden jokers unseen, the alternative table;
- the seat in this round: whether it has taken a row already, whether it is
  to move, how many players are still in the round, how many turns until its
  own;
- scores now (``scoring.best_from_counts`` through the bots' memo): its own,
  the others' mean and best, its lead over the best other;
- its collection: the five largest colour counts, jokers, "+2" cards, how
  many colours it holds, what one more card of each of its three largest
  colours would add, how many cards of those colours are still unseen (the
  "largest" among equal counts, held or not, being the colours with the most
  cards left: a colour out of play is never one of them while others remain);
- the rows it may take: what the best and the second best would add to its
  score, the worst (a forced take), how many rows are open and how full, and
  the most any other seat still in the round would gain from one.

Every number is a float of a moderate size (counts scaled to about 0..1, points
by 1/10 or 1/20), so the model needs no scaling of its own beyond the one it
was trained with.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from ...core.cards import ALL_COLOURS, GOLDEN_INDEX, JOKER_INDEX, PLUS2_INDEX
from ...core.engine import View
from ..players import UNITS, pack_cards, scores_for

__all__ = ["NAMES", "N_FEATURES", "features", "features_many"]

Array = npt.NDArray[np.float64]

NAMES: tuple[str, ...] = (
    "players_2", "players_3", "players_4", "players_5",
    "deck_gone", "rounds_left", "last_round", "free_places", "golden_unseen", "alternative",
    "done", "to_move", "in_round", "turns_until_mine",
    "score", "others_mean", "others_best", "lead",
    "count_1", "count_2", "count_3", "count_4", "count_5", "jokers", "plus2", "colours_held",
    "gain_1", "gain_2", "gain_3", "unseen_1", "unseen_2", "unseen_3",
    "take_best", "take_second", "take_worst", "rows_open", "rows_fill", "rival_take_best",
)  # fmt: skip
N_FEATURES = len(NAMES)

_N_COLOURS = len(ALL_COLOURS)
_UNITS = UNITS


def features(view: View) -> list[list[float]]:
    """One row of ``N_FEATURES`` numbers per seat, seat order (see the module's docstring)."""
    return features_many([view])[0].tolist()  # type: ignore[no-any-return]


def features_many(views: Sequence[View]) -> Array:
    """``features`` of positions with the same player count, as one array of shape (P, n, ``N_FEATURES``).

    What needs the bots' score memo (the scores, what one more card or a row would add) is looked up
    position by position; everything else is read for all positions at once. The same numbers as the
    module's definition (written seat by seat in tests/bots/test_evaluate.py), to the bit: every one is the same division or difference of the same integers."""
    n = views[0].players
    size = len(views)
    from_bytes = int.from_bytes
    memos: list[dict[int, int]] = []
    packed: list[list[int]] = []
    scores: list[int] = []
    blobs: list[bytes] = []  # every seat's collection, a byte a kind (as ``players.pack`` packs it)
    left: list[bytes] = []  # the unseen cards, a byte a kind
    done_blobs: list[bytes] = []
    ints: list[tuple[int, ...]] = []  # per position, the numbers below (``_INTS``)
    takes: list[float] = []  # per position, per seat: take best, second, worst, rival's best (tenths)
    no_takes = [0.0] * (4 * n)
    for view in views:
        memo = scores_for(view).memo
        cb = [bytes(c) for c in view.collections]
        ps = [from_bytes(b, "little") for b in cb]
        sc = [memo[p] for p in ps]
        memos.append(memo)
        packed.append(ps)
        scores.extend(sc)
        blobs.extend(cb)
        left.append(bytes(view.remaining))
        done = view.done
        done_blobs.append(bytes(done))
        limits, rows, taken = view.limits, view.rows, view.taken
        open_rows = [i for i in range(len(rows)) if not taken[i]]
        free = sum(limits[i] - len(rows[i]) for i in open_rows)
        total = view.total
        lr_pending = view.lr_pending
        ahead = max(0, total - 1 - view.rules.under - view.turned) if lr_pending else 0
        ints.append((view.turned, total, ahead, sum(limits), free, 1 if view.last_round or not lr_pending else 0,
                     0 if view.rules.table.name == "standard" else 1, view.current, 1 if view.over else 0,
                     len(open_rows), max(1, sum(limits[i] for i in open_rows))))
        takeable = [pack_cards(rows[i]) for i in open_rows if rows[i]]
        if not takeable:
            takes += no_takes
            continue
        # the rows' gains for every seat still in the round (a seat that has taken gains nothing this round)
        gains = [sorted((memo[ps[s] + r] - sc[s] for r in takeable), reverse=True) if not done[s] else []
                 for s in range(n)]
        for s in range(n):
            g = gains[s]
            rivals = [gains[o][0] for o in range(n) if o != s and gains[o]]
            takes += [g[0] / 10.0 if g else 0.0, g[1] / 10.0 if len(g) > 1 else 0.0, g[-1] / 10.0 if g else 0.0,
                      max(rivals) / 10.0 if rivals else 0.0]
    counts = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(size, n, -1).astype(np.int64)
    unseen_all = np.frombuffer(b"".join(left), dtype=np.uint8).reshape(size, -1).astype(np.int64)
    done_ = np.frombuffer(b"".join(done_blobs), dtype=np.uint8).reshape(size, n).astype(np.float64)
    turned, total, ahead, space, free, last, alternative, current, over, open_rows_, open_space = (
        np.array(ints, dtype=np.int64).T)
    colours = counts[:, :, :_N_COLOURS]
    remaining = unseen_all[:, :_N_COLOURS]
    # most first; among equal counts, the colour with the most cards left (never the colour out of play by index)
    order = _ORDER_KEY - (colours * 4096 + remaining[:, None, :] * 16)
    top3 = np.argsort(order, axis=-1)[:, :, :3]
    at = np.arange(size)[:, None]  # (P, 1): a position's index, for picking by seat or colour
    units = _UNITS
    more = [memo[p + units[k]] - me for memo, ps, sc, ks in zip(memos, packed, _by(scores, n), top3.tolist())
            for p, me, kk in zip(ps, sc, ks) for k in kk]
    me = np.array(scores, dtype=np.int64).reshape(size, n)
    best_other = np.where(_others(n), me[:, None, :], np.iinfo(np.int64).min).max(axis=-1)
    # turns of others before a seat's own in this round, clockwise from the player to move (n: it has taken)
    seats = np.arange(n)
    clockwise = (current[:, None] + seats) % n
    in_round = 1.0 - done_[at, clockwise]
    until = np.empty((size, n))
    until[at, clockwise] = np.cumsum(in_round, axis=-1) - in_round
    out = np.empty((size, n, N_FEATURES))
    c = _COLUMN
    out[:, :, 0:4] = 0.0
    out[:, :, n - 2] = 1.0
    out[:, :, c["deck_gone"]] = (turned / total)[:, None]
    out[:, :, c["rounds_left"]] = (ahead / space / 5.0)[:, None]
    out[:, :, c["last_round"]] = last[:, None]
    out[:, :, c["free_places"]] = (free / space)[:, None]
    out[:, :, c["golden_unseen"]] = unseen_all[:, GOLDEN_INDEX, None]
    out[:, :, c["alternative"]] = alternative[:, None]
    out[:, :, c["done"]] = done_
    out[:, :, c["to_move"]] = (current[:, None] == seats) & (over[:, None] == 0)
    out[:, :, c["in_round"]] = ((n - done_.sum(axis=-1)) / n)[:, None]
    out[:, :, c["turns_until_mine"]] = np.where(done_ == 1.0, float(n), until) / n
    out[:, :, c["score"]] = me / 20.0
    out[:, :, c["others_mean"]] = (me.sum(axis=-1, keepdims=True) - me) / (n - 1) / 20.0
    out[:, :, c["others_best"]] = best_other / 20.0
    out[:, :, c["lead"]] = (me - best_other) / 20.0
    out[:, :, c["count_1"]:c["count_5"] + 1] = -np.sort(-colours, axis=-1)[:, :, :5] / 6.0
    out[:, :, c["jokers"]] = counts[:, :, JOKER_INDEX] + counts[:, :, GOLDEN_INDEX]
    out[:, :, c["plus2"]] = counts[:, :, PLUS2_INDEX] / 3.0
    out[:, :, c["colours_held"]] = (colours > 0).sum(axis=-1) / 5.0
    out[:, :, c["gain_1"]:c["gain_3"] + 1] = np.array(more, dtype=np.float64).reshape(size, n, 3) / 10.0
    out[:, :, c["unseen_1"]:c["unseen_3"] + 1] = remaining[at[:, :, None], top3] / 9.0
    tk = np.array(takes, dtype=np.float64).reshape(size, n, 4)
    out[:, :, c["take_best"]:c["take_worst"] + 1] = tk[:, :, :3]
    out[:, :, c["rows_open"]] = (open_rows_ / n)[:, None]
    out[:, :, c["rows_fill"]] = np.where(open_rows_ > 0, 1.0 - free / open_space, 0.0)[:, None]
    out[:, :, c["rival_take_best"]] = tk[:, :, 3]
    return out


@cache
def _others(n: int) -> npt.NDArray[np.bool_]:
    """(n, n): True where the column is another seat than the row."""
    return ~np.eye(n, dtype=bool)


_COLUMN = {name: k for k, name in enumerate(NAMES)}


def _by(values: list[int], n: int) -> list[list[int]]:
    """``values`` cut into lists of ``n``."""
    return [values[k:k + n] for k in range(0, len(values), n)]


#: Sorting key of the colours (smallest first): the count, then the cards left, then the colour's index.
_ORDER_KEY = np.arange(_N_COLOURS, dtype=np.int64)
