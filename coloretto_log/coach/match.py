"""Match values: the chance of winning the **match** from one game's outcome, the totals before it and the
games still to play (docs/analyze.md, "Match values").

A match of ``G`` games is won on the sum of its games' scores. At a decision of game ``g``, seat ``p`` wins
the match when, for every other seat ``q``,

    D_q = (T_p - T_q) + d_q + R_q  >=  0

``T``: the totals of the games before this one; ``d_q``: this game's score difference ``s_p - s_q`` (from a
sample's expected margins ``m``: ``s_p - s_q = (m_p - m_q)(n - 1) / n``); ``R_q``: what is still to come of
the difference, the rest of this game past where the sample stops (its share ``f`` of the deck still to
come) and the ``G - g`` games after it. That rest is modelled as normal: one game's score difference
between two seats has the standard deviation ``sd`` measured from self-play for the player count, edition
and table (``match_model.json``, made by ``benchmarks/measure_match_model.py``), the games are independent,
and the rest of a game's variance is its share ``f`` of a whole game's. With exchangeable seats the
differences to two opponents then correlate by one half, as they do when every seat's score carries its
own independent noise ``e`` of variance ``tau^2 = sd^2 (G - g + f) / 2``; so

    P(match) = E_e[ prod_q Phi((a_q + e_p) / tau) ],   a_q = (T_p - T_q) + d_q

over ``e_p ~ N(0, tau^2)`` (Gauss-Hermite quadrature, ``NODES`` points; two players: ``Phi(a / (tau sqrt 2))``
exactly). With nothing left to come (``tau`` 0) it is 1 when ``p`` has the most points (a shared first place
counts, as for a game) and 0 otherwise. A single game, or a match whose totals are level before its last
game, is the game itself: no context (``context_for`` gives None), and the game's own chance of winning is
the match's, exactly.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from ..core.ruleset import RuleSet

__all__ = ["NODES", "MatchContext", "context_for", "game_sd", "share_left"]

#: Gauss-Hermite nodes and weights (10 points, weights divided by sqrt(pi)): E[f(Z)] for Z ~ N(0, 1) is
#: ``sum(w f(sqrt(2) x))``; the tests check them against numpy's ``hermgauss``.
NODES: tuple[tuple[float, float], ...] = tuple(
    (sign * x, w / math.sqrt(math.pi))
    for x, w in (
        (0.3429013272237046, 0.6108626337353258),
        (1.0366108297895136, 0.2401386110823147),
        (1.7566836492998816, 0.033874394455481106),
        (2.5327316742327897, 0.0013436457467812324),
        (3.4361591188377374, 7.640432855232641e-06),
    )
    for sign in (-1.0, 1.0)
)
_SQRT2 = math.sqrt(2.0)


@cache
def _model() -> dict[str, dict[str, object]]:
    text = files("coloretto_log.coach").joinpath("match_model.json").read_text(encoding="utf-8")
    models: dict[str, dict[str, object]] = json.loads(text)["models"]
    return models


def game_sd(rules: RuleSet, players: int) -> float:
    """The standard deviation of one game's score difference between two seats (``match_model.json``)."""
    sd = _model()[f"{rules.edition.name}/{rules.table.name}/{players}"]["sd"]
    assert isinstance(sd, (int, float))
    return float(sd)


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Where a match stands at a game: every seat's total before it, the game (from 1) and the games planned,
    and one game's score-difference standard deviation."""

    totals: tuple[float, ...]
    game: int
    games: int
    sd: float

    @property
    def left(self) -> int:
        """Games after this one."""
        return self.games - self.game

    def lead(self, seat: int) -> float:
        """``seat``'s total less the best other total before this game (negative: behind)."""
        return self.totals[seat] - max(t for q, t in enumerate(self.totals) if q != seat)

    def margin(self, seat: int) -> float:
        """``seat``'s match margin before this game: its total less the mean of the others'."""
        n = len(self.totals)
        total = sum(self.totals)
        return self.totals[seat] - (total - self.totals[seat]) / (n - 1)

    def chance(self, margins: Sequence[float], seat: int, share: float) -> float:
        """``seat``'s chance of winning the match when this game's expected margins are ``margins`` with the
        share ``share`` of the game still to come (0: the game is over)."""
        n = len(margins)
        scale = (n - 1) / n
        mine, totals = margins[seat], self.totals
        a = [totals[seat] - totals[q] + (mine - margins[q]) * scale for q in range(n) if q != seat]
        var = self.sd * self.sd * (self.left + share) / 2.0
        if var <= 0.0:
            return 1.0 if min(a) >= -1e-9 else 0.0
        tau = math.sqrt(var)
        if n == 2:
            return _phi(a[0] / (tau * _SQRT2))
        z = [x / tau for x in a]
        total_p = 0.0
        for x, w in NODES:
            e = _SQRT2 * x
            p = w
            for zq in z:
                p *= _phi(zq + e)
            total_p += p
        return min(1.0, max(0.0, total_p))


def share_left(turned: int, lr_expected_at: int, over: bool) -> float:
    """The share of a game still to come: the cards before the last-round card's expected place not yet turned
    over, of all of them (0 once the game is over or that place is reached)."""
    if over or lr_expected_at <= 0:
        return 0.0
    return max(0.0, (lr_expected_at - turned) / lr_expected_at)


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / _SQRT2)


def context_for(rules: RuleSet, players: int, game: int, totals: Sequence[float]) -> MatchContext | None:
    """The match context of game ``game`` (from 1) with the totals before it, or None where the game decides
    alone: a match of one game, or the last game with level totals (the game's chance is the match's)."""
    games = max(rules.games, game)
    if games <= 1 or (game >= games and len(set(totals)) <= 1):
        return None
    return MatchContext(tuple(float(t) for t in totals), game, games, game_sd(rules, players))
