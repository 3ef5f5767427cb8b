"""End-of-game scoring: the best joker assignment and positive colours (docs/rules-of-play.md §5).

A player's score is the best total over every way of

1. assigning each joker (golden jokers included, they score the same) to a
   colour *in play* — the edition's colours less the ones removed at setup,
   even a colour the player holds none of; jokers must be assigned;
2. choosing up to three colours that score positively; every other colour
   held scores negatively by the same table (6 or more cards score the
   6-column);
3. adding 2 points for every "+2" card.

(Three and 2 are the published tables' values: ``ScoringTable.positive`` and
``ScoringTable.plus2``, which everything here reads.)

Tie-break (so that the output is stable). Among all optimal
(joker assignment, positive set) pairs:

* the joker multiset whose sorted tuple of colour indices (edition order) is
  lexicographically smallest wins: jokers go to the earliest colours
  possible, as many as possible on the earliest;
* given those jokers, the positive colours are the colours held after the
  jokers (one card or more) with the most points, ties going to the earlier
  colour in edition order, at most three of them. A colour with no card after
  the jokers is never listed as positive.

Every table value is positive for one card or more, so making a held colour
positive never lowers the score: the optimal positive set is always the
three colours (or all, if fewer are held) with the most points, and the rule
above picks one of the optimal sets.

Public API:

* :class:`Hand` — what scoring needs of a collection;
* :func:`best_assignment` — the fast solver (memoised, see below);
* :func:`best_from_counts` — the same from a ``cards.KINDS`` count tuple,
  which is how the engine stores ``state.collections[seat]``;
* :func:`exhaustive_best` — the naive reference (every assignment of every
  joker × every subset of at most three positive colours);
* :func:`evaluate_choice` — scores a *declared* choice, or says why it is
  illegal (used to check the ``claims`` of a log).

Algorithm of :func:`best_assignment`. Counts are capped at 6 (more never
changes a score). For a given joker placement the best score is
``2 * (sum of the three largest values) - (sum of all values)``, so only the
joker placements are searched: every multiset of jokers over the colours in
play, in lexicographic order of colour indices, keeping the first strictly
better one (that *is* the tie-break). Colours with the same capped count are
interchangeable for the score, and the tie-break always prefers the earliest
of them, so only the first ``jokers`` colours of each count are candidates.
Answers are memoised in bounded LRU caches keyed on the hand (or the count
tuple), the colours in play and the table. These caches are the module's
only changing state; they never change a result, and :func:`clear_cache`
empties them. Pass ``cache=False`` to solve without them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple

from .cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    JOKER_INDEX,
    KIND_INDEX,
    N_KINDS,
    PLUS2_INDEX,
)
from .ruleset import EDITIONS, STANDARD, ScoringTable, colours_in_play

__all__ = [
    "MAX_POSITIVE",
    "PLUS2_POINTS",
    "Assignment",
    "ChoiceResult",
    "ColourScore",
    "Hand",
    "best_assignment",
    "best_from_counts",
    "cache_info",
    "clear_cache",
    "evaluate_choice",
    "exhaustive_best",
    "ranks",
    "winners",
]

#: At most this many colours score positively (the standard table's; ``ScoringTable.positive``).
MAX_POSITIVE = STANDARD.positive
#: Points for each "+2" card (the standard table's; ``ScoringTable.plus2``).
PLUS2_POINTS = STANDARD.plus2

_COLOUR_ORDER: dict[str, int] = {c: i for i, c in enumerate(ALL_COLOURS)}
_COLOUR_KINDS: tuple[int, ...] = tuple(KIND_INDEX[c] for c in ALL_COLOURS)
assert _COLOUR_KINDS == tuple(range(len(ALL_COLOURS)))  # cards.KINDS starts with the colours
_N_COLOURS = len(ALL_COLOURS)
_new = tuple.__new__  # a named tuple's own constructor, without its keyword handling
_ANSWER_CACHE_SIZE = 1 << 13  # answers per cache (about 1 kB each)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Hand:
    """A collection as scoring sees it: colour cards by colour, jokers, "+2" cards.

    ``cards`` holds ``(colour, count)`` pairs with ``count >= 1``, in the fixed
    colour order of :data:`cards.ALL_COLOURS` (which agrees with both
    editions' orders); counts may exceed 6. Plain and golden jokers are both
    counted in ``jokers``. Build one with :meth:`of` or :meth:`from_counts`,
    which put the pairs in that order.
    """

    cards: tuple[tuple[str, int], ...] = ()
    jokers: int = 0
    plus2: int = 0

    def __post_init__(self) -> None:
        last = -1
        for colour, count in self.cards:
            order = _COLOUR_ORDER.get(colour)
            if order is None:
                raise ValueError(f"{colour!r} is not a colour")
            if order <= last:
                raise ValueError("Hand.cards must list each colour once, in colour order")
            if count < 1:
                raise ValueError(f"{colour}: a count in Hand.cards must be at least 1, got {count}")
            last = order
        if self.jokers < 0 or self.plus2 < 0:
            raise ValueError("jokers and plus2 cannot be negative")

    @classmethod
    def of(cls, cards: Mapping[str, int] | None = None, *, jokers: int = 0, plus2: int = 0) -> Hand:
        """A hand from a colour -> count mapping (zero counts are dropped)."""
        pairs = sorted(
            ((colour, count) for colour, count in (cards or {}).items() if count != 0),
            key=lambda pair: _COLOUR_ORDER.get(pair[0], -1),
        )
        return cls(tuple(pairs), jokers, plus2)

    @classmethod
    def from_counts(cls, counts: Sequence[int]) -> Hand:
        """A hand from a count tuple indexed like :data:`cards.KINDS`."""
        if len(counts) != N_KINDS:
            raise ValueError(f"expected {N_KINDS} counts (cards.KINDS), got {len(counts)}")
        pairs = tuple(
            (colour, counts[kind])
            for colour, kind in zip(ALL_COLOURS, _COLOUR_KINDS)
            if counts[kind] != 0
        )
        return cls(pairs, counts[JOKER_INDEX] + counts[GOLDEN_INDEX], counts[PLUS2_INDEX])

    def count(self, colour: str) -> int:
        """Cards of ``colour`` held (jokers not included)."""
        for held, n in self.cards:
            if held == colour:
                return n
        return 0


class ColourScore(NamedTuple):
    """One colour held after the jokers: how it scores."""

    colour: str
    cards: int  # colour cards held (the original count, may exceed 6)
    jokers: int  # jokers assigned to this colour
    effective: int  # cards + jokers
    sign: int  # +1 positive, -1 negative
    points: int  # signed points


class Assignment(NamedTuple):
    """The chosen way to score a hand, with its breakdown.

    A named tuple (immutable), not a frozen dataclass: a replay scores a collection after every take, and a
    frozen dataclass's ``__init__`` (an ``object.__setattr__`` a field) cost about a sixth of a solve."""

    score: int
    jokers: tuple[str, ...]  # one colour per joker, in edition order
    positive: tuple[str, ...]  # edition order
    breakdown: tuple[ColourScore, ...]  # colours held after the jokers, edition order
    plus2_points: int


@dataclass(frozen=True, slots=True)
class ChoiceResult:
    """The score of a declared choice, or why the choice is illegal."""

    score: int | None
    illegal: str | None = None

    @property
    def legal(self) -> bool:
        return self.illegal is None


# --------------------------------------------------------------------------- helpers


class _InPlay(NamedTuple):
    """The colours in play, checked, with lookups."""

    colours: tuple[str, ...]
    position: dict[str, int]  # colour -> position in play
    kinds: tuple[int, ...]  # position in play -> index in cards.KINDS
    of_kinds: Callable[[Sequence[int]], tuple[int, ...]]  # a cards.KINDS count tuple's counts of ``kinds``


def _check_in_play(colours: tuple[str, ...]) -> _InPlay:
    """Check the colours in play (known, distinct, in edition order); ValueError otherwise."""
    last = -1
    for colour in colours:
        order = _COLOUR_ORDER.get(colour)
        if order is None:
            raise ValueError(f"{colour!r} is not a colour")
        if order <= last:
            raise ValueError("colours in play must be distinct and in edition order")
        last = order
    index = {colour: i for i, colour in enumerate(colours)}
    kinds = tuple(KIND_INDEX[c] for c in colours)
    of_kinds = itemgetter(*kinds) if len(kinds) > 1 else lambda counts: tuple(counts[k] for k in kinds)
    return _InPlay(colours, index, kinds, of_kinds)


#: Every set of colours in play a game can have (0, 1 or 2 colours removed), checked once.
_KNOWN_PLAY: Mapping[tuple[str, ...], _InPlay] = MappingProxyType(
    {
        play.colours: play
        for edition in EDITIONS.values()
        for k in range(3)
        for removed in combinations(edition.colours, k)
        for play in [_check_in_play(colours_in_play(edition, removed))]
    }
)


def _in_play(colours: tuple[str, ...]) -> _InPlay:
    """The checked colours in play (a table look-up for every set a game can have)."""
    play = _KNOWN_PLAY.get(colours)
    return _check_in_play(colours) if play is None else play


def _hand_counts(hand: Hand, play: _InPlay) -> list[int]:
    """The hand's counts for each colour in play; ValueError if it holds a colour not in play."""
    counts = [0] * len(play.colours)
    for colour, n in hand.cards:
        i = play.position.get(colour)
        if i is None:
            raise ValueError(f"the hand holds {colour}, which is not in play")
        counts[i] = n
    return counts


def _kind_counts(counts: Sequence[int], play: _InPlay) -> Sequence[int]:
    """Counts for each colour in play from a ``cards.KINDS`` tuple (checked like a Hand)."""
    if len(counts) != N_KINDS:
        raise ValueError(f"expected {N_KINDS} counts (cards.KINDS), got {len(counts)}")
    out = play.of_kinds(counts)
    if sum(out) != sum(counts[:_N_COLOURS]) or min(counts) < 0:
        Hand.from_counts(counts)  # raises for a negative count
        held = [
            c for c, k in zip(ALL_COLOURS, _COLOUR_KINDS) if counts[k] and c not in play.position
        ]
        raise ValueError(f"the hand holds {held[0]}, which is not in play")
    return out


def _assemble(
    counts: Sequence[int],
    extra: Sequence[int] | None,
    colours: tuple[str, ...],
    plus2: int,
    points: tuple[int, ...],
    most: int,
    bonus: int,
) -> Assignment:
    """The answer for jokers ``extra`` (per colour in play; None: no joker), positive colours by the tie-break.

    ``points``, ``most``, ``bonus``: the scoring table's points, positive colours and "+2" value.
    """
    six = points[6]
    held: list[tuple[int, int, int, int]] = []  # (-points, position, cards, effective)
    if extra is None:
        for i, c in enumerate(counts):
            if c:
                held.append((-(points[c] if c < 6 else six), i, c, c))
    else:
        for i, c in enumerate(counts):
            e = c + extra[i]
            if e:
                held.append((-(points[e] if e < 6 else six), i, c, e))
    # The three (``most``) with the most points, ties to the earlier colour.
    new = _new  # the rows made as the tuples they are (a named tuple's ``__new__`` is a call more)
    rows: list[ColourScore] = []
    listed: list[str] = []
    plus2_points = bonus * plus2
    total = plus2_points
    if len(held) > most:
        positive = {row[1] for row in sorted(held)[:most]}
        for minus, i, c, e in held:
            colour = colours[i]
            if i in positive:
                listed.append(colour)
                rows.append(new(ColourScore, (colour, c, e - c, e, 1, -minus)))
                total -= minus
            else:
                rows.append(new(ColourScore, (colour, c, e - c, e, -1, minus)))
                total += minus
    else:  # every colour held scores positively
        for minus, i, c, e in held:
            colour = colours[i]
            listed.append(colour)
            rows.append(new(ColourScore, (colour, c, e - c, e, 1, -minus)))
            total -= minus
    jokers: tuple[str, ...] = ()
    if extra is not None:
        for i, k in enumerate(extra):
            if k:
                jokers += (colours[i],) * k
    return new(Assignment, (total, jokers, tuple(listed), tuple(rows), plus2_points))


# --------------------------------------------------------------------------- fast solver


def _place_jokers(capped: Sequence[int], jokers: int, points: tuple[int, ...], most: int) -> list[int]:
    """Jokers per colour for the best score, the tie-break's choice among the optima.

    ``capped``: counts per colour in play (0..6); ``points``: the table,
    index 0 (no card) to 6 (six or more); ``most``: how many colours may
    score positively (three, 1 or more); ``jokers`` >= 1.

    A placement is a sorted tuple of colour positions, one per joker. With the
    placement fixed, the best positive colours are the three with the most
    points, so its score is ``2 * (three largest values) - (all values)``.
    Placements are tried in lexicographic order and the first strict maximum
    is kept: that is the tie-break. Colours of equal count are interchangeable
    and a placement using a later one has an equal-scoring twin that comes
    earlier, so only the first ``jokers`` colours of each count are candidates.
    """
    ext = points[:6] + (points[6],) * (jokers + 1)  # ext[e] for e in 0 .. 6 + jokers
    base = [ext[c] for c in capped]
    base.extend([0] * (most - len(base)))  # always three (``most``) values to add
    taken: dict[int, int] = {}
    candidates: list[int] = []
    for i, c in enumerate(capped):
        t = taken.get(c, 0)
        if t < jokers:
            candidates.append(i)
            taken[c] = t + 1
    best_score = -(1 << 62)
    best: tuple[int, ...] = ()
    if jokers == 1:
        # The same search for one joker, without re-sorting: take v out of the
        # sorted values and put w = ext[c + 1] in, keeping the three largest.
        s = sorted(base, reverse=True) + [0]
        top3, total = sum(s[:most]), sum(s)
        last, after = s[most - 1], s[most]  # the third value and the fourth
        for i in candidates:
            v, w = base[i], ext[capped[i] + 1]
            rest, third = (top3 - v + after, after) if v >= last else (top3, last)
            score = 2 * (rest + max(0, w - third)) - (total - v + w)
            if score > best_score:
                best_score = score
                best = (i,)
    else:
        three = most == 3  # the published tables': three indexings are faster than a slice
        for combo in combinations_with_replacement(candidates, jokers):
            values = base[:]
            for i in combo:
                values[i] = ext[capped[i] + combo.count(i)]
            values.sort(reverse=True)
            top = values[0] + values[1] + values[2] if three else sum(values[:most])
            score = 2 * top - sum(values)
            if score > best_score:
                best_score = score
                best = combo
    extra = [0] * len(capped)
    for i in best:
        extra[i] += 1
    return extra


def _best(
    counts: Sequence[int], jokers: int, plus2: int, play: _InPlay, points: tuple[int, ...], most: int, bonus: int
) -> Assignment:
    if not jokers:
        return _assemble(counts, None, play.colours, plus2, points, most, bonus)
    if not counts:
        raise ValueError("jokers must be assigned, but no colour is in play")
    capped = [c if c < 6 else 6 for c in counts]  # noqa: FURB136 (min() is slower)
    extra = _place_jokers(capped, jokers, points, most)
    return _assemble(counts, extra, play.colours, plus2, points, most, bonus)


@lru_cache(maxsize=_ANSWER_CACHE_SIZE)
def _best_cached(
    hand: Hand, colours: tuple[str, ...], points: tuple[int, ...], most: int, bonus: int
) -> Assignment:
    play = _in_play(colours)
    return _best(_hand_counts(hand, play), hand.jokers, hand.plus2, play, points, most, bonus)


def best_assignment(
    hand: Hand,
    colours_in_play: Sequence[str],
    *,
    table: ScoringTable = STANDARD,
    cache: bool = True,
) -> Assignment:
    """The best score of ``hand`` and how to reach it, by the module's tie-break.

    ``colours_in_play``: the edition's colours less the removed ones, in
    edition order (``ruleset.colours_in_play``). Raises ValueError if the hand
    holds a colour not in play, or has jokers and no colour is in play.
    ``cache=False`` solves without reading or filling any cache.
    """
    solve = _best_cached if cache else _best_cached.__wrapped__
    return solve(hand, tuple(colours_in_play), table.points, table.positive, table.plus2)


@lru_cache(maxsize=_ANSWER_CACHE_SIZE)
def _best_counts_cached(
    counts: tuple[int, ...], colours: tuple[str, ...], points: tuple[int, ...], most: int, bonus: int
) -> Assignment:
    play = _in_play(colours)
    jokers = counts[JOKER_INDEX] + counts[GOLDEN_INDEX]
    return _best(_kind_counts(counts, play), jokers, counts[PLUS2_INDEX], play, points, most, bonus)


def best_from_counts(
    counts: Sequence[int],
    colours_in_play: Sequence[str],
    *,
    table: ScoringTable = STANDARD,
    cache: bool = True,
) -> Assignment:
    """:func:`best_assignment` for a count tuple indexed like :data:`cards.KINDS`.

    This is how the engine stores a collection (``state.collections[seat]``).
    """
    solve = _best_counts_cached if cache else _best_counts_cached.__wrapped__
    return solve(tuple(counts), tuple(colours_in_play), table.points, table.positive, table.plus2)


_CACHES = {
    "hand": _best_cached,
    "counts": _best_counts_cached,
}


def clear_cache() -> None:
    """Empty the memo caches (for cold timings; results never depend on them)."""
    for memo in _CACHES.values():
        memo.cache_clear()


def cache_info() -> dict[str, tuple[int, int, int | None, int]]:
    """(hits, misses, maxsize, currsize) of each memo cache."""
    infos = {name: memo.cache_info() for name, memo in _CACHES.items()}
    return {name: (i.hits, i.misses, i.maxsize, i.currsize) for name, i in infos.items()}


# --------------------------------------------------------------------------- reference


def exhaustive_best(
    hand: Hand, colours_in_play: Sequence[str], *, table: ScoringTable = STANDARD
) -> Assignment:
    """The naive reference: try everything, then apply the tie-break literally.

    Every assignment of each joker to each colour in play (jokers are
    interchangeable, so an assignment already seen as a multiset is skipped)
    × every subset of at most three colours in play as the positive ones.
    """
    colours = tuple(colours_in_play)
    counts = _hand_counts(hand, _in_play(colours))
    if hand.jokers and not colours:
        raise ValueError("jokers must be assigned, but no colour is in play")
    n = len(colours)
    subsets = [s for size in range(table.positive + 1) for s in combinations(range(n), size)]
    # (score, sorted joker indices, positive subset) of every pair tried
    tried: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    for assignment in product(range(n), repeat=hand.jokers):
        multiset = tuple(sorted(assignment))
        if multiset in seen:
            continue
        seen.add(multiset)
        effective = list(counts)
        for i in assignment:
            effective[i] += 1
        for positive in subsets:
            score = table.plus2 * hand.plus2
            for i, e in enumerate(effective):
                if e > 0:
                    score += table.value(e) if i in positive else -table.value(e)
            tried.append((score, multiset, positive))
    best_score = max(score for score, _, _ in tried)
    optimal = [(m, p) for score, m, p in tried if score == best_score]
    jokers = min(m for m, _ in optimal)
    extra = [jokers.count(i) for i in range(n)]

    def points(i: int) -> int:
        return table.value(counts[i] + extra[i])

    # Positive colours listed: the held ones of an optimal subset for these jokers;
    # ties between subsets go to the higher points, then to the earlier colour.
    listed = [tuple(i for i in p if counts[i] + extra[i] > 0) for m, p in optimal if m == jokers]
    positive = min(listed, key=lambda p: sorted((-points(i), i) for i in p))
    result = _assemble(counts, extra, colours, hand.plus2, table.points, table.positive, table.plus2)
    if result.score != best_score or result.positive != tuple(colours[i] for i in sorted(positive)):
        raise AssertionError("tie-break rule and exhaustive search disagree")  # pragma: no cover
    return result


# --------------------------------------------------------------------------- declared choices


def evaluate_choice(
    hand: Hand,
    colours_in_play: Sequence[str],
    *,
    jokers: Sequence[str] | None,
    positive: Sequence[str] | None,
    table: ScoringTable = STANDARD,
) -> ChoiceResult:
    """Score a declared choice (docs/format.md §2 ``claims``), or say why it is illegal.

    ``jokers``: the colour of each joker (golden included), in any order;
    ``positive``: the colours declared positive. Illegal: the wrong number of
    jokers, a joker or positive colour that is unknown or not in play
    (removed, or not of this edition), more than three positive colours, a
    colour given twice in ``positive``. A positive colour the player does not
    hold is legal and scores 0. ``None`` for either part means the best
    choice of that part given the other (a claim may leave fields out).
    Raises ValueError if the hand itself does not fit ``colours_in_play``.
    """
    if isinstance(jokers, str) or isinstance(positive, str):
        raise TypeError("jokers and positive are sequences of colours, not a string")
    colours = tuple(colours_in_play)
    counts = _hand_counts(hand, _in_play(colours))
    if hand.jokers and not colours:
        raise ValueError("jokers must be assigned, but no colour is in play")
    problems: list[str] = []

    def colour_problem(role: str, colour: str) -> str | None:
        if colour not in _COLOUR_ORDER:
            return f"{role} {colour!r} is not a colour"
        if colour not in colours:
            return f"{role} {colour} is not in play"
        return None

    if jokers is not None:
        if len(jokers) != hand.jokers:
            problems.append(f"{len(jokers)} joker colour(s) given for {hand.jokers} joker(s)")
        problems.extend(p for c in jokers if (p := colour_problem("joker colour", c)))
    if positive is not None:
        if len(positive) > table.positive:
            problems.append(f"{len(positive)} positive colours, at most {table.positive}")
        problems.extend(p for c in positive if (p := colour_problem("positive colour", c)))
        repeated = [c for i, c in enumerate(positive) if c in positive[:i]]
        problems.extend(f"positive colour {c} given twice" for c in dict.fromkeys(repeated))
    if problems:
        return ChoiceResult(None, "; ".join(problems))

    index = {c: i for i, c in enumerate(colours)}
    if jokers is None:
        placements = [
            tuple(m) for m in combinations_with_replacement(range(len(colours)), hand.jokers)
        ]
    else:
        placements = [tuple(sorted(index[c] for c in jokers))]
    chosen = None if positive is None else {index[c] for c in positive}
    best: int | None = None
    for placement in placements:
        effective = list(counts)
        for i in placement:
            effective[i] += 1
        values = [(table.value(e), i) for i, e in enumerate(effective) if e > 0]
        if chosen is None:
            values.sort(reverse=True)
            score = sum(v if rank < table.positive else -v for rank, (v, _) in enumerate(values))
        else:
            score = sum(v if i in chosen else -v for v, i in values)
        if best is None or score > best:
            best = score
    assert best is not None  # placements is never empty
    return ChoiceResult(best + table.plus2 * hand.plus2)


# --------------------------------------------------------------------------- rankings (docs/rules-of-play.md §6)


def ranks(scores: Sequence[int]) -> tuple[int, ...]:
    """The rank of each score, highest first. There is no tie-break: tied players share a
    rank and the next rank is skipped (39, 39, 35 rank 1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other > s) for s in scores)


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """The positions (seats) of the highest score; more than one is a shared win."""
    best = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)
