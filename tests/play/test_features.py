"""The evaluator's features (``play.evaluate.features``): the batch reading, for all positions at once, gives the
same numbers to the bit as the definition read one seat at a time (below, in plain Python), on every position of
games of every player count, edition and scoring table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core.cards import ALL_COLOURS, GOLDEN_INDEX, JOKER_INDEX, PLUS2_INDEX
from coloretto_log.core.engine import View
from coloretto_log.play import bots
from coloretto_log.play.evaluate import features
from coloretto_log.play.evaluate.features import features_many

from .test_evaluate import game


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.sampled_from([("classic", "standard"), ("anniversary", "alternative"),
                                           ("classic", "alternative")]), st.integers(0, 10 ** 6))
def test_the_batch_reading_is_the_plain_one_to_the_bit(players: int, rules: tuple[str, str], seed: int) -> None:
    views = [bots.hidden(s) for s in game(seed, players, *rules)]
    plain = np.asarray([plain_features(v) for v in views], dtype=np.float64)
    assert features_many(views).tobytes() == plain.tobytes()
    assert features(views[len(views) // 2]) == plain_features(views[len(views) // 2])


def plain_features(view: View) -> list[list[float]]:
    """The features as the module's docstring defines them, one seat at a time, in plain Python."""
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
        colour_counts = [(-c, k) for c, _, k in sorted((-counts[k], -remaining[k], k) for k in range(len(ALL_COLOURS)))]
        p = packed[s]
        top3 = colour_counts[:3]
        marginal = [(memo[p + bots.UNITS[k]] - me) / 10.0 for _, k in top3]
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
