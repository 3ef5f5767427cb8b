"""Claims are claims: compare what players wrote down with the optimum (docs/format.md §2, §3).

``verdicts(state, claims, players)`` gives one ``Verdict`` per player of a
finished game; validation (``log.replay``) turns them into ``claim-score``
and ``claim-choice`` warnings. The optimum is computed from the cards, never
from the claim. A claim is anything with ``score``, ``jokers`` and
``positive`` (the log's pydantic ``Claim`` is one): this module stays pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .engine import GameState
from .scoring import Assignment, Hand, best_from_counts, evaluate_choice


class Claim(Protocol):
    """What a player wrote down: a score, the colours of the jokers, the positive colours (each optional)."""

    @property
    def score(self) -> int | None: ...

    @property
    def jokers(self) -> Sequence[str] | None: ...

    @property
    def positive(self) -> Sequence[str] | None: ...


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a claim differs from the optimum: its status and a sentence."""

    status: str
    message: str

    @property
    def rule(self) -> str:
        """The validation rule id this problem is reported under."""
        return "claim-score" if self.status in ("over-claimed", "under-claimed") else "claim-choice"


#: Problem statuses, most serious first: a verdict's status is the first of its problems in this order.
_SERIOUSNESS = ("illegal-choice", "over-claimed", "under-claimed", "choice-below-optimum", "choice-not-claimed")


@dataclass(frozen=True, slots=True)
class Verdict:
    """How one player's claim compares with the optimum.

    ``status`` is one of ``agrees``, ``under-claimed``, ``over-claimed``,
    ``illegal-choice``, ``choice-below-optimum``, ``no-claim``: the first
    that applies, in that order of seriousness (``problems`` lists them all).
    A score that differs from the optimum is ``claim-score`` alone, even when
    the declared choice reaches the optimum; ``claim-choice`` means the choice
    itself is illegal or cannot reach the optimum. (``choice-not-claimed`` is
    no longer given: its sentence is part of the score's problem.)
    """

    player: str
    seat: int
    optimal: Assignment
    claim: Claim | None
    choice_score: int | None  # what the declared jokers/positive score, when legal
    illegal: str | None  # why the declared choice is not a legal choice
    problems: tuple[Problem, ...]

    @property
    def status(self) -> str:
        """The most serious problem's status; ``agrees`` with none, ``no-claim`` without a claim."""
        if self.claim is None:
            return "no-claim"
        statuses = {p.status for p in self.problems}
        return next((s for s in _SERIOUSNESS if s in statuses), "agrees")

    @property
    def agrees(self) -> bool:
        return not self.problems

    @property
    def difference(self) -> int | None:
        """Claimed score minus the optimum (positive: over-claimed)."""
        if self.claim is None or self.claim.score is None:
            return None
        return self.claim.score - self.optimal.score

    def as_json(self) -> dict[str, Any]:
        claim = self.claim
        return {
            "player": self.player,
            "status": self.status,
            "agrees": self.agrees,
            "claimed_score": None if claim is None else claim.score,
            "claimed_jokers": None if claim is None else claim.jokers,
            "claimed_positive": None if claim is None else claim.positive,
            "optimal_score": self.optimal.score,
            "difference": self.difference,
            "choice_score": self.choice_score,
            "illegal": self.illegal,
            "problems": [{"status": p.status, "message": p.message} for p in self.problems],
        }


def optimal_for(state: GameState, seat: int) -> Assignment:
    """The best assignment of ``seat``'s collection in ``state``'s game."""
    return best_from_counts(state.collections[seat], state.colours, table=state.rules.table)


def _fmt(assignment: Assignment) -> str:
    """``jokers to blue, red; positive blue, red, green`` (``no jokers``, ``no positive colour`` when empty)."""
    jokers = f"jokers to {', '.join(assignment.jokers)}" if assignment.jokers else "no jokers"
    positive = f"positive {', '.join(assignment.positive)}" if assignment.positive else "no positive colour"
    return f"{jokers}; {positive}"


def verdict(state: GameState, seat: int, player: str, claim: Claim | None) -> Verdict:
    """One player's verdict in a finished game."""
    optimal = optimal_for(state, seat)
    if claim is None:
        return Verdict(player, seat, optimal, None, None, None, ())
    problems: list[Problem] = []
    choice_score: int | None = None
    illegal: str | None = None
    if claim.jokers is not None or claim.positive is not None:
        hand = Hand.from_counts(state.collections[seat])
        result = evaluate_choice(
            hand, state.colours, jokers=claim.jokers, positive=claim.positive, table=state.rules.table
        )
        if result.illegal is not None:
            illegal = result.illegal
            problems.append(Problem("illegal-choice", f"{player}'s declared choice is not legal: {illegal}"))
        else:
            choice_score = result.score
            assert choice_score is not None
            if choice_score < optimal.score:
                problems.append(Problem(
                    "choice-below-optimum",
                    f"{player}'s declared choice scores {choice_score}, below the optimum {optimal.score} ({_fmt(optimal)})",
                ))
    if claim.score is not None and claim.score != optimal.score:
        # A miscounted score is claim-score alone; what the declared choice really scores helps find the slip.
        diff = claim.score - optimal.score
        kind = "over-claimed" if diff > 0 else "under-claimed"
        counted = (
            f"; the declared choice scores {choice_score}, not the claimed {claim.score}"
            if choice_score is not None and choice_score != claim.score
            else ""
        )
        problems.insert(0, Problem(
            kind,
            f"{player} claims {claim.score} but the optimum is {optimal.score} "
            f"({kind} by {abs(diff)}; {_fmt(optimal)}){counted}",
        ))
    return Verdict(player, seat, optimal, claim, choice_score, illegal, tuple(problems))


def verdicts(state: GameState, claims: Mapping[str, Claim] | None, players: tuple[str, ...]) -> list[Verdict]:
    """Every player's verdict, in seat order (``no-claim`` where a player claimed nothing)."""
    claims = claims or {}
    return [verdict(state, seat, name, claims.get(name)) for seat, name in enumerate(players)]
