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

from ...core.cards import ALL_COLOURS, GOLDEN_INDEX, JOKER_INDEX, PLUS2_INDEX
from ...core.engine import View
from .. import bots

__all__ = ["NAMES", "N_FEATURES", "features"]

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
_UNITS = bots.UNITS


def features(view: View) -> list[list[float]]:
    """One row of ``N_FEATURES`` numbers per seat, seat order (see the module's docstring)."""
    n = view.players
    memo = bots.scores_for(view).memo
    packed = [bots.pack(c) for c in view.collections]
    scores = [memo[p] for p in packed]
    limits, rows, taken, done = view.limits, view.rows, view.taken, view.done
    remaining = view.remaining
    space = sum(limits)
    total = view.total
    free = sum(lim - len(r) for lim, r, t in zip(limits, rows, taken) if not t)
    open_rows = [i for i in range(len(rows)) if not taken[i]]
    takeable = [bots.pack_cards(rows[i]) for i in open_rows if rows[i]]
    lr_pending = view.lr_pending
    ahead = max(0, total - 1 - view.rules.under - view.turned) if lr_pending else 0
    last = 1.0 if view.last_round or not lr_pending else 0.0
    game = [
        1.0 if n == 2 else 0.0, 1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0, 1.0 if n == 5 else 0.0,
        view.turned / total, ahead / space / 5.0, last, free / space, float(remaining[GOLDEN_INDEX]),
        0.0 if view.rules.table.name == "standard" else 1.0,
    ]  # fmt: skip
    in_round = [s for s in range(n) if not done[s]]
    current = view.current
    # the rows' gains for every seat still in the round (a seat that has taken gains nothing this round)
    gains: list[list[int]] = [
        sorted((memo[packed[s] + r] - scores[s] for r in takeable), reverse=True) if not done[s] else []
        for s in range(n)
    ]
    out: list[list[float]] = []
    for s in range(n):
        me = scores[s]
        others = [scores[o] for o in range(n) if o != s]
        best_other = max(others)
        counts = view.collections[s]
        # most first; among equal counts, the colour with the most cards left (never the colour out of play by index)
        colour_counts = [(-c, k) for c, _, k in sorted((-counts[k], -remaining[k], k) for k in range(_N_COLOURS))]
        p = packed[s]
        top3 = colour_counts[:3]
        marginal = [(memo[p + _UNITS[k]] - me) / 10.0 for _, k in top3]
        unseen = [remaining[k] / 9.0 for _, k in top3]
        g = gains[s]
        turns_until = _turns_until(current, s, in_round, n)
        rivals = [gains[o][0] for o in range(n) if o != s and gains[o]]
        row = game + [
            1.0 if done[s] else 0.0, 1.0 if current == s and not view.over else 0.0, len(in_round) / n, turns_until / n,
            me / 20.0, sum(others) / len(others) / 20.0, best_other / 20.0, (me - best_other) / 20.0,
            *(c / 6.0 for c, _ in colour_counts[:5]),
            float(counts[JOKER_INDEX] + counts[GOLDEN_INDEX]), counts[PLUS2_INDEX] / 3.0,
            sum(1 for c, _ in colour_counts if c) / 5.0,
            *marginal, *unseen,
            g[0] / 10.0 if g else 0.0, g[1] / 10.0 if len(g) > 1 else 0.0, g[-1] / 10.0 if g else 0.0,
            len(open_rows) / n, (1.0 - free / max(1, sum(limits[i] for i in open_rows))) if open_rows else 0.0,
            max(rivals) / 10.0 if rivals else 0.0,
        ]  # fmt: skip
        out.append(row)
    return out


def _turns_until(current: int, seat: int, in_round: Sequence[int], n: int) -> int:
    """How many turns of others come before ``seat``'s next turn in this round (0: it is to move; n: it has taken)."""
    if seat not in in_round:
        return n
    k = 0
    s = current
    for _ in range(n):
        if s == seat:
            return k
        if s in in_round:
            k += 1
        s = (s + 1) % n
    return k
