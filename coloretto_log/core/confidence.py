"""Confidence intervals for win rates (pure: used by ``simulate``'s report and ``stats``)."""

from __future__ import annotations

import math

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials; ``(0, 1)`` when ``n`` is 0.

    Exact at the ends (0 for no success, 1 for all), without rounding residue.
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high
