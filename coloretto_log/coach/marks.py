"""Marks: when a decision is an inaccuracy, a mistake or a blunder, by the winning chance it lost; and when
two choices are about equal.

As lichess marks a chess move by the win % it lost, a decision is marked by
the **chance of winning the game** it lost against the best choice (the
best expected margin): ``chance_loss`` = the best choice's winning chance
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

The sampler (``estimate``) goes on sampling while the chance lost lies close
to a threshold, so that the mark a seed gives is the mark another seed gives.
"""

from __future__ import annotations

__all__ = ["EQUAL_CHANCE", "EQUAL_POINTS", "THRESHOLDS", "Z", "about_equal", "mark_for"]

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
