"""The evaluator: what a position is worth to every player, without playing it out.

One call::

    evaluate(view) -> Values(margin=(...), win=(...))

``view`` is a position as a player at the table sees it (``engine.View``: a
``GameState`` or an ``engine.Table``; the deck's order, if the state holds
one, is never read: only what every player sees is, so the value is the
same from every seat). ``Values.margin[s]`` is seat ``s``'s expected final
margin (its score less the mean of the others', as ``coach.luck.final_margins``
defines it) and ``Values.win[s]`` its chance of winning the game (a shared win
counting a share for each winner): in [0, 1], adding up to 1 over the seats.
Both are for play from here on at the level the model learnt from (seeded
self-play of ``strong``; docs/design/evaluator.md). A finished game is worth
its real margins and its real winners. For a row decision, pass the view
just after the card was turned over (``remaining`` no longer counts it).

``evaluate_many(views)`` values many positions at once (one pass of the
model over all of them: what a search wants); ``evaluate(v)`` is
``evaluate_many([v])[0]``.

Rooms: ``features`` (the numbers read from a position), ``model`` (the
network and its shipped weights, ``weights.json``). Importing this package
loads numpy and nothing else beyond the play layer; the weights are read on
first use. Pure: the same position gives the same bytes on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...core.engine import View
from ...core.scoring import winners as best_seats
from ..players import pack, scores_for
from .features import N_FEATURES, NAMES, features, features_many
from .model import Model, load

__all__ = ["NAMES", "N_FEATURES", "Values", "evaluate", "evaluate_many", "features", "final_values"]


class Values(NamedTuple):
    """A position's worth for every seat (seat order): expected final margin and chance of winning."""

    margin: tuple[float, ...]
    win: tuple[float, ...]


def final_values(scores: Sequence[int]) -> Values:
    """The values of a finished game with these final scores: the real margins, the winners' shares."""
    n = len(scores)
    total = sum(scores)
    margin = tuple(s - (total - s) / (n - 1) for s in scores)
    winners = best_seats(tuple(scores))
    share = 1.0 / len(winners)
    return Values(margin, tuple(share if s in winners else 0.0 for s in range(n)))


def evaluate(view: View) -> Values:
    """Every seat's expected final margin and chance of winning at ``view`` (see the module's docstring)."""
    return evaluate_many([view])[0]


def evaluate_many(views: Sequence[View], model: Model | None = None) -> list[Values]:
    """``evaluate`` for each position of ``views`` (any mix of player counts), the model run once per count."""
    m = load() if model is None else model
    out: list[Values | None] = [None] * len(views)
    groups: dict[int, list[int]] = {}
    for k, view in enumerate(views):
        if view.over:
            memo = scores_for(view).memo
            out[k] = final_values([memo[pack(c)] for c in view.collections])
        else:
            groups.setdefault(view.players, []).append(k)
    for n in sorted(groups):
        ks = groups[n]
        x = features_many([views[k] for k in ks])
        margin, win = m.values(x)
        for k, mj, wj in zip(ks, margin.tolist(), win.tolist()):
            out[k] = Values(tuple(mj), tuple(wj))
    return [v for v in out if v is not None]
