"""SplitMix64 with explicit state, and the operations docs/format.md §4 builds on it.

The generator is a small mutable object owned by whoever created it; nothing
here is global. ``shuffle`` returns a new list.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_LIMITS = [_TWO64 - _TWO64 % n if n else 0 for n in range(129)]  # below(n)'s rejection limit, by n
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

# ``shuffle`` of a long list (a deck) computes its draws side by side: the k-th draw's state is the
# first's plus k gammas, so one integer holds every state, each in a 128-bit lane, and each step of
# the mix runs once on all of them (a lane never carries into the next: it is masked to 64 bits
# before each multiplication by a 64-bit constant).
_LANE = 128
_MAX_LANES = 128  # draws at once; a longer list is shuffled one draw at a time
_SIDE_BY_SIDE = 16  # from this many items: shorter lists are quicker one draw at a time
_ONES = int.from_bytes((1).to_bytes(_LANE // 8, "little") * _MAX_LANES, "little")  # 1 in every lane
_RAMP = int.from_bytes(b"".join(k.to_bytes(_LANE // 8, "little") for k in range(1, _MAX_LANES + 1)), "little")
_LOW64 = MASK64 * _ONES  # the low 64 bits of every lane
#: Under every rejection limit of ``below(n)`` for n <= 129 (each is at least 2^64 - n + 1).
_NEVER_REJECTED = _TWO64 - _MAX_LANES
_BIG_ENDIAN = sys.byteorder == "big"  # array("Q") reads bytes in the machine's order


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014) exactly as docs/format.md §4 states it."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError(f"seed must satisfy 0 <= seed < 2^64, got {seed}")
        self.state = seed

    def next(self) -> int:
        """The next 64-bit output."""
        s = (self.state + GOLDEN_GAMMA) & MASK64
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in ``0 <= r < n`` by rejection sampling."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = _LIMITS[n] if n < 129 else _TWO64 - _TWO64 % n
        s = self.state
        while True:  # ``next``, inlined: the random bot calls this on every decision
            s = (s + GOLDEN_GAMMA) & MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            r = z ^ (z >> 31)
            if r < limit:
                self.state = s
                return r % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher–Yates from the last index down, as a new list.

        The same as ``j = self.below(i + 1)`` for each ``i``, with ``next`` and
        ``below`` inlined: every seeded game is set up with three shuffles, and
        validation of seeded logs spends a good part of its time here. A deck's
        draws are computed side by side (``_draws``); on a rejected draw (below
        2^-56 for these sizes) the shuffle starts again one draw at a time.
        """
        a = list(items)
        n = len(a)
        if _SIDE_BY_SIDE <= n <= _MAX_LANES + 1:
            draws = self._draws(n - 1)
            if max(draws) < _NEVER_REJECTED:
                for i, j in zip(range(n - 1, 0, -1), map(int.__mod__, draws, range(n, 1, -1))):
                    a[i], a[j] = a[j], a[i]
                self.state = (self.state + (n - 1) * GOLDEN_GAMMA) & MASK64
                return a
        s = self.state
        limits = _LIMITS if len(a) < len(_LIMITS) else [_TWO64 - _TWO64 % n if n else 0 for n in range(len(a) + 1)]
        for i in range(len(a) - 1, 0, -1):
            n = i + 1
            limit = limits[n]
            s = (s + GOLDEN_GAMMA) & MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            r = z ^ (z >> 31)
            while r >= limit:  # rejected (below 2^-56 for these sizes): draw again
                s = (s + GOLDEN_GAMMA) & MASK64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                r = z ^ (z >> 31)
            j = r % n
            a[i], a[j] = a[j], a[i]
        self.state = s
        return a

    def _draws(self, k: int) -> list[int]:
        """The next ``k`` outputs (``k <= _MAX_LANES``), side by side in one integer's lanes; the state stays."""
        bits = _LANE * k
        keep = (1 << bits) - 1
        low = _LOW64 & keep
        z = (self.state * (_ONES & keep) + GOLDEN_GAMMA * (_RAMP & keep)) & low  # the k states
        z = (((z ^ (z >> 30)) & low) * _MIX1) & low
        z = (((z ^ (z >> 27)) & low) * _MIX2) & low
        z = (z ^ (z >> 31)) & low
        lanes = array("Q", z.to_bytes(bits // 8, "little"))  # two 64-bit halves a lane, the low one first
        if _BIG_ENDIAN:
            lanes.byteswap()
        return lanes[::2].tolist()


def nth_output(seed: int, n: int) -> int:
    """The ``n``-th output (from 1) of ``SplitMix64(seed)``, without the ``n - 1`` before it.

    SplitMix64's state only adds the gamma each step, so the state before the
    ``n``-th output is ``seed + (n - 1) * gamma``.
    """
    return SplitMix64((seed + (n - 1) * GOLDEN_GAMMA) & MASK64).next()


def game_generator(seed: int, game: int) -> SplitMix64:
    """Game ``game``'s generator: seeded with the match generator's (game+1)-th output."""
    return SplitMix64(nth_output(seed, game + 1))
