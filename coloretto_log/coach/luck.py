"""Per player, as backgammon and chess players read a game: error rate, accuracy, and a luck and skill that
add up to the result.

From a game's valued decisions (``analyze.Decision``), per seat:

- **error rate**: marked decisions (any mark) per unforced decision;
- **accuracy** (%): the mean over the player's unforced decisions of
  ``100 × 2^(−loss / 3)``: 100 for the best choice, 50 for a loss of 3
  points, 25 for 6, never below 0;
- **start + luck + skill + others = margin**, as GNU Backgammon splits a
  game (docs/analyze.md): every position along the game is valued once, for
  every seat (its expected final margin), and every change from one valued
  position to the next is put in exactly one term, so that they add up to
  the final margin by construction, whatever the noise of the values:

  - ``start``: the value before the first move (``analyze.start_margins``:
    the first draw valued as every decision is, by playouts to the end of
    the round and the evaluator there), 0 for every seat when not given;
  - ``skill``: at each of the player's own decisions, the played choice's
    value less the value before it, which is the played value plus the loss
    (the cross-fitted loss, at least 0): minus the loss, so ``skill ≤ 0``;
  - ``others``: at each decision of another player, what it moved this
    player's value (the played choice's margins against the best one's);
  - ``luck``: every change between one decision and the next: the cards
    turned over (a draw, a golden joker's extra card), and where none was,
    what the value of a position before its decision (its player choosing
    best) differs from the value the previous decision left (everyone then
    playing on like the playouts): the values' own disagreement, which
    sums to about 0 over the players of a game but not for one player;
  - the game's end is worth its real final margins (``margin``).

  Forced decisions have no value of their own: they fall into the span
  around them. With ``--player`` the others' decisions are not valued: a
  span holding one of them goes to ``others``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.engine import Move
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
    """One seat over one game (or a match: the games added up): ``start + luck + skill + others = end``."""

    seat: int
    decisions: int  # unforced
    errors: int  # marked
    accuracy_sum: float
    start: float  # the expected margin before any card
    luck: float
    skill: float  # at most 0
    others: float
    margin: float | None  # the real final margin (None when the game did not finish)
    end: float = 0.0  # the value the chain ends on: the real final margin when the game finished

    @property
    def error_rate(self) -> float:
        return self.errors / self.decisions if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        return self.accuracy_sum / self.decisions if self.decisions else 100.0

    def __add__(self, other: Standing) -> Standing:
        margin = None if self.margin is None or other.margin is None else self.margin + other.margin
        return Standing(self.seat, self.decisions + other.decisions, self.errors + other.errors,
                        self.accuracy_sum + other.accuracy_sum, self.start + other.start, self.luck + other.luck,
                        self.skill + other.skill, self.others + other.others, margin, self.end + other.end)


def final_margins(scores: Sequence[int]) -> tuple[float, ...]:
    """Every seat's margin: own score less the mean of the others'."""
    n = len(scores)
    total = sum(scores)
    return tuple(s - (total - s) / (n - 1) for s in scores)


def standings(decisions: Sequence[Decision], players: int, moves: Sequence[Move],
              final: Sequence[float] | None, seats: set[int] | None = None,
              start: Sequence[float] | None = None) -> list[Standing]:
    """Every seat's standing in one game from its valued decisions (in order), its resolved moves and its real
    final margins (None: unfinished, the chain ends on the last valued decision); ``seats``: the seats whose
    decisions were valued (None: all); ``start``: every seat's expected margin before the first move (None:
    0 for all)."""
    luck = [0.0] * players
    skill = [0.0] * players
    others = [0.0] * players
    count = [0] * players
    errors = [0] * players
    acc = [0.0] * players
    start = (0.0,) * players if start is None else tuple(start)
    value: Sequence[float] = start
    at = 0  # the last valued point: 2 * move (its draw-or-take) or 2 * move + 1 (its row), 0 before the game

    def span(to: int, vector: Sequence[float]) -> None:
        # a move strictly between the last valued point and ``to`` by a seat not analysed (``seats``) puts the
        # span in ``others``; else it is luck (cards turned over, forced moves, the values' disagreement)
        term = luck
        if seats is not None and any(moves[m - 1].seat not in seats for m in range(at // 2 + 1, to // 2)):
            term = others
        for s in range(players):
            term[s] += vector[s] - value[s]

    for d in decisions:
        if d.forced:
            continue
        ev = d.evaluation
        point = 2 * d.move + (1 if d.decision == "row" else 0)
        s = d.seat
        after = ev.choices[ev.played].margins
        before = list(ev.choices[ev.best].margins)
        before[s] = after[s] + d.loss
        span(point, before)
        skill[s] -= d.loss
        for q in range(players):
            if q != s:
                others[q] += after[q] - before[q]
        at, value = point, after
        count[s] += 1
        acc[s] += accuracy_of(d.loss)
        errors[s] += d.mark is not None
    if final is not None:
        span(2 * len(moves) + 2, final)
        value = final
    return [Standing(s, count[s], errors[s], acc[s], start[s], luck[s], skill[s], others[s],
                     None if final is None else final[s], value[s])
            for s in range(players)]
