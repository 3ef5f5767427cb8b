"""Per player, as backgammon and chess players read a game: error rate, accuracy, luck and skill.

From a game's valued decisions (``analyze.Decision``), per seat:

- **error rate**: marked decisions (any mark) per unforced decision;
- **accuracy** (%): the mean over the player's unforced decisions of
  ``100 × 2^(−loss / 3)``: 100 for the best choice, 50 for a loss of 3 points
  (the mistake threshold), 25 for 6 (a blunder), never below 0;
- **skill**: minus the sum of the player's losses (margin points): 0 for a
  player who always played the best choice, negative otherwise. The
  losses added are the cross-fitted estimates as they came out (a negative
  one included, which the tables show as 0), so that the sum carries no
  bias from that rounding;
- **luck**: how much the cards turned over moved the player's expected margin
  against the expectation just before them (GNU Backgammon's luck, with
  cards for dice). The values of the decisions make a chain: before a
  decision the position is worth its best choice's margins (every seat's),
  after it the played choice's. Wherever a card was turned over between one
  valued point and the next (a draw, a golden joker's extra card), the change
  in every seat's expected margin from the first to the second is that
  seat's luck; the expectation before the first card is 0 (every seat alike)
  and the game's end is worth its real margins. Forced decisions have no
  value of their own: the cards around them fall into the next span. With
  ``--player`` the others' decisions are not valued and their effect falls
  into luck too.

Luck + skill then tracks the final margin: what is left over is the other
players' mistakes (which help everyone else), the sampling noise, and the
difference between best play now and the playouts' greedy play later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.engine import Draw, Move
from .estimate import Evaluation


class Decision(Protocol):
    """What ``standings`` reads of a valued decision (``analyze.Decision``)."""

    @property
    def move(self) -> int: ...
    @property
    def decision(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def loss(self) -> float: ...
    @property
    def mark(self) -> str | None: ...
    @property
    def forced(self) -> bool: ...
    @property
    def evaluation(self) -> Evaluation: ...

__all__ = ["ACCURACY_HALF", "Standing", "accuracy_of", "final_margins", "standings"]

#: A loss of this many points halves a decision's accuracy.
ACCURACY_HALF = 3.0


def accuracy_of(loss: float) -> float:
    """One decision's accuracy, %: ``100 × 2^(−loss / ACCURACY_HALF)``."""
    return float(100.0 * 2.0 ** (-max(0.0, loss) / ACCURACY_HALF))


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat over one game (or a match: the games added up)."""

    seat: int
    decisions: int  # unforced
    errors: int  # marked
    accuracy_sum: float
    luck: float
    skill: float
    margin: float | None  # the real final margin (None when the game did not finish)

    @property
    def error_rate(self) -> float:
        return self.errors / self.decisions if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        return self.accuracy_sum / self.decisions if self.decisions else 100.0

    def __add__(self, other: Standing) -> Standing:
        margin = None if self.margin is None or other.margin is None else self.margin + other.margin
        return Standing(self.seat, self.decisions + other.decisions, self.errors + other.errors,
                        self.accuracy_sum + other.accuracy_sum, self.luck + other.luck, self.skill + other.skill,
                        margin)


def final_margins(scores: Sequence[int]) -> tuple[float, ...]:
    """Every seat's margin: own score less the mean of the others'."""
    n = len(scores)
    total = sum(scores)
    return tuple(s - (total - s) / (n - 1) for s in scores)


def _chance_moves(moves: Sequence[Move]) -> list[bool]:
    """Per move (from 1, index 0 unused): whether it turned a card over."""
    return [False] + [isinstance(m, Draw) or m.extra is not None for m in moves]


def standings(decisions: Sequence[Decision], players: int, moves: Sequence[Move],
              final: Sequence[float] | None) -> list[Standing]:
    """Every seat's standing in one game from its decisions (in order), its resolved moves and its real
    final margins (None: unfinished, the last span is left out)."""
    chance = _chance_moves(moves)
    # a point on the chain is 2 * move (before the card of that move) or 2 * move + 1 (after it)
    luck = [0.0] * players
    skill = [0.0] * players
    count = [0] * players
    errors = [0] * players
    acc = [0.0] * players
    at, value = 0, (0.0,) * players  # before any card: every seat alike

    def span(to: int, vector: Sequence[float]) -> None:
        # a card turned over at move m lies between points 2m and 2m + 1
        if any(chance[m] for m in range(max(1, (at + 1) // 2), min(len(chance), to // 2 + 1))
               if at <= 2 * m and 2 * m + 1 <= to):
            for s in range(players):
                luck[s] += vector[s] - value[s]

    for d in decisions:
        if d.forced:
            continue
        ev = d.evaluation
        before = 2 * d.move + (1 if d.decision == "row" else 0)
        span(before, ev.choices[ev.best].margins)
        at, value = before, ev.choices[ev.played].margins
        s = d.seat
        count[s] += 1
        skill[s] -= ev.unbiased_loss
        acc[s] += accuracy_of(d.loss)
        errors[s] += d.mark is not None
    if final is not None:
        span(2 * len(moves) + 2, final)
    return [Standing(s, count[s], errors[s], acc[s], luck[s], skill[s], None if final is None else final[s])
            for s in range(players)]
