"""Marks: when a decision is an inaccuracy, a mistake or a blunder, by the winning chance it lost; and when
two choices are about equal.

As lichess marks a chess move by the win % it lost, a decision is marked by
the **chance of winning** what is being played (the match where one is under
way, else the game: ``match``) it lost against the best choice (``pick``: the
highest chance, the expected margin breaking ties within the noise): ``chance_loss`` = the best choice's winning chance
less the played one's, at least 0 (0 where the played choice is the best, or
the two are about equal), and the mark is the worst kind whose threshold it
reaches. A mark is a function of ``chance_loss`` alone, so within a game a
decision never gets a heavier mark than one that lost more chance, and a
decision that lost none (or raised the chance) is never marked. The points
lost (``loss``) are shown beside the mark; they do not make it.

**About equal**: the played choice and the best one (or, where the played
one is the best, the runner-up) are about equal when their difference in
expected margin is within ``Z`` standard errors of 0 or within
``EQUAL_POINTS`` of a point, and their difference in winning chance within
``Z`` standard errors of 0 or within ``EQUAL_CHANCE``: the samples cannot
tell them apart, so the analysis names no best and gives no mark.

**Near a line** (``mark_certain``, ``mark_label``): a chance lost within one standard error of a threshold
is said so, by the marks on either side of the nearest one (``inaccuracy–mistake``, or ``inaccuracy?``
where below it is no mark).

The sampler (``estimate``) goes on sampling while the chance lost lies close
to a threshold, so that the mark a seed gives is the mark another seed gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["EQUAL_CHANCE", "EQUAL_POINTS", "THRESHOLDS", "Z", "about_equal", "mark_certain", "mark_for", "mark_label",
           "pick"]

#: Marks by the winning chance lost (0 to 1), worst first: given when the chance lost reaches the threshold.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: Standard errors within which two choices are about equal.
Z = 2.0
#: Two choices this close in expected margin (points), and in winning chance, are about equal whatever the noise.
EQUAL_POINTS = 0.1
EQUAL_CHANCE = 0.01


def mark_for(chance_loss: float) -> str | None:
    """The mark of a decision that lost ``chance_loss`` of winning: the worst kind whose threshold it reaches."""
    for kind, threshold in THRESHOLDS:
        if chance_loss >= threshold:
            return kind
    return None


def about_equal(points: float, points_se: float, chance: float, chance_se: float) -> bool:
    """Two choices apart by ``points`` of expected margin and ``chance`` of winning (either sign), with their
    standard errors: within their noise, or within a tenth of a point and a hundredth of the chance."""
    close_points = abs(points) <= max(EQUAL_POINTS, Z * points_se)
    close_chance = abs(chance) <= max(EQUAL_CHANCE, Z * chance_se)
    return close_points and close_chance


def pick(margins: Sequence[float | Fraction], chances: Sequence[float], widths: Sequence[float], played: int | None = None) -> int:
    """The best choice: the highest chance of winning, and among the choices whose chance is within ``widths``
    (their noise, per choice) of the highest, the best expected margin (ties to the first: the stated order).
    Where the played choice is among those, a choice is named best over it only with at least its chance, so
    that the played choice never beats the named best on the number the mark reads. Choices with a chance of
    ``-inf`` are out of the race. ``margins`` may be exact (``Fraction``), so that exact ties go by the order."""
    top = max(chances)
    near = [k for k in range(len(chances)) if chances[k] > -math.inf and top - chances[k] <= widths[k]]
    if played is not None and played in near:
        near = [k for k in near if chances[k] >= chances[played]]
    best = near[0]
    for k in near[1:]:
        if margins[k] > margins[best]:
            best = k
    return best


def mark_certain(chance_loss: float, chance_se: float) -> bool:
    """No threshold of the marks lies within one standard error of the chance lost."""
    return chance_se <= 0 or all(abs(chance_loss - t) > chance_se for _, t in THRESHOLDS)


def mark_label(chance_loss: float, chance_se: float) -> str | None:
    """The mark as said: the mark itself where it is certain (``mark_certain``); else the marks on either side
    of the threshold nearest the chance lost (the lower one on a tie), ``inaccuracy–mistake``, or
    ``inaccuracy?`` where below it is no mark."""
    if mark_certain(chance_loss, chance_se):
        return mark_for(chance_loss)
    line = min((t for _, t in reversed(THRESHOLDS)), key=lambda t: abs(chance_loss - t))
    below = next((kind for kind, t in THRESHOLDS if t < line), None)
    above = mark_for(line)
    return f"{above}?" if below is None else f"{below}\u2013{above}"
