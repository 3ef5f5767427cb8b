"""Marks: when a loss is an inaccuracy, a mistake or a blunder, by a rule that holds under another seed.

A mark is given on the **lower confidence bound** of the loss: the worst
kind whose threshold ``loss − Z × se`` reaches (``Z`` = 2). Exact losses
have no noise (se 0). The sampler (``estimate``) goes on sampling while that
bound lies close to a threshold, so that the mark a seed gives is the mark
another seed gives; a decision it samples past its cap is judged with the
standard error it had at the cap (``Evaluation.mark_se``), so that the extra
samples do not move its line.
"""

from __future__ import annotations

__all__ = ["THRESHOLDS", "Z", "mark_for"]

#: Marks by the loss in margin points, worst first: given when ``loss - Z * loss_se`` reaches the threshold.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.5))
#: Standard errors taken off a loss before it is compared with the thresholds.
Z = 2.0


def mark_for(loss: float, loss_se: float) -> str | None:
    """The mark of a loss: the worst kind whose threshold ``loss - Z * loss_se`` reaches."""
    sure = loss - Z * loss_se
    for kind, threshold in THRESHOLDS:
        if sure >= threshold:
            return kind
    return None
