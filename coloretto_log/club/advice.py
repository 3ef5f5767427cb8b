"""A director's recommendation: how many Swiss rounds, and whether to hold a final, for N players and the hours.

The rule is docs/tournament.md's "How many rounds, and a final?"; the figures
it rests on are those of ``benchmarks/bench_tournament.py synthetic``
(docs/design/tournament-pairing.md), kept here as data. Pure: numbers in,
a recommendation out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["MEASURED", "ROUND_MINUTES", "Advice", "advice_table", "recommend"]

#: Minutes a round takes: a one-game match of Coloretto (about 30) and seating and entering results.
ROUND_MINUTES = 40

#: How often the strongest entrant won, measured: (players, Swiss rounds) -> (the Swiss alone, the Swiss then a
#: final of four that decides, the low end of the 95% interval of the final's gain over the Swiss alone), from
#: ``bench_tournament.py synthetic --sizes 12,16,24,40 --rounds 3,4,5,6 --seeds 100 --restarts 4`` (40 players
#: for 4 to 6 rounds in a run of their own, ``--sizes 40 --rounds 4,5,6``, the same seeds;
#: docs/design/tournament-pairing.md).
MEASURED: dict[tuple[int, int], tuple[float, float, float]] = {
    (12, 3): (0.63, 0.67, -0.081), (12, 4): (0.66, 0.62, -0.155), (12, 5): (0.64, 0.57, -0.175), (12, 6): (0.67, 0.59, -0.190),
    (16, 3): (0.59, 0.62, -0.076), (16, 4): (0.64, 0.55, -0.230), (16, 5): (0.62, 0.59, -0.153), (16, 6): (0.66, 0.48, -0.303),
    (24, 3): (0.51, 0.54, -0.090), (24, 4): (0.56, 0.57, -0.113), (24, 5): (0.60, 0.53, -0.201), (24, 6): (0.63, 0.55, -0.200),
    (40, 3): (0.44, 0.52, -0.037), (40, 4): (0.53, 0.44, -0.202), (40, 5): (0.55, 0.45, -0.226), (40, 6): (0.59, 0.51, -0.200),
}  # fmt: skip


@dataclass(frozen=True)
class Advice:
    """What the director is told: the rounds, the final's size (None: no final) and why."""

    players: int
    hours: float
    rounds: int
    final: int | None
    strongest_wins: float | None  # the measured chance of the plan (None: outside what was measured)
    reason: str

    def text(self) -> str:
        """The recommendation as one sentence."""
        plan = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        plan += f" and a final table of {self.final}" if self.final else ", no final table"
        return f"Recommended for {self.players} players in {_hours(self.hours)} hours: {plan}. {self.reason}"


def _hours(h: float) -> str:
    return str(int(h)) if h == int(h) else f"{h:g}"


def _measured(players: int, rounds: int) -> tuple[int, tuple[float, float, float]] | None:
    """The field measured for ``rounds`` rounds nearest ``players`` (the smaller on a tie), and its figures."""
    sizes = sorted(n for n, r in MEASURED if r == rounds)
    if not sizes:
        return None
    near = min(sizes, key=lambda n: (abs(n - players), n))
    return near, MEASURED[near, rounds]


def recommend(players: int, hours: float, *, round_minutes: int = ROUND_MINUTES) -> Advice:
    """How many rounds fit in ``hours`` (a round takes ``round_minutes``), and whether the last is better
    spent on a final of four.

    A final is advised only where the measurement says it helps: its gain
    over the Swiss alone is clear (its 95% interval above 0) and the Swiss
    with one round fewer and the final found the strongest more often than
    the Swiss with that round. Else every round goes to the Swiss.
    ``ValueError`` when not one round fits.
    """
    if hours <= 0 or round_minutes <= 0:
        raise ValueError("--hours must be more than 0")
    slots = math.floor(hours * 60 / round_minutes + 1e-9)
    if slots < 1:
        raise ValueError(f"{_hours(hours)} hours hold no round of {round_minutes} minutes")
    found = _measured(players, slots)
    if found is None:
        return Advice(players, hours, slots, None, None,
                      f"Every round that fits, of {round_minutes} minutes each (only 3 to 6 rounds were "
                      "measured; more rounds rank closer to the strength).")  # fmt: skip
    field, alone = found
    seen = "" if field == players else f" of {field} players"
    shorter = _measured(players, slots - 1) if slots > 1 else None
    if shorter is not None and shorter[1][2] > 0 and shorter[1][1] > alone[0]:
        return Advice(players, hours, slots - 1, 4, shorter[1][1],
                      f"The strongest won {shorter[1][1]:.0%} of the measured tournaments{seen} with the final, "
                      f"{alone[0]:.0%} with a Swiss round in its place.")  # fmt: skip
    why = f"The strongest won {alone[0]:.0%} of the measured tournaments{seen} with the Swiss alone"
    if shorter is not None:
        final = shorter[1][1]
        why += f", {final:.0%} with a final of four in place of the last round"
        if final >= alone[0]:
            why += " (within the measurement's noise: the final's gain is not clear)"
    return Advice(players, hours, slots, None, alone[0], why + ".")


def advice_table(players: tuple[int, ...] = (12, 16, 24, 40), hours: tuple[float, ...] = (2, 3, 4)) -> list[Advice]:
    """The recommendations docs/tournament.md prints, row by row."""
    return [recommend(n, h) for n in players for h in hours]
