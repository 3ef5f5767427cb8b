"""What a recording session answers: events to show, the reply to a line, the prompt, standings.

Plain values, no I/O: ``cli/record.py`` (and ``serve``) render them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.cards import card_name
from ...core.claims import Verdict
from ...core.engine import Draw, GameState, Move, Take
from ...core.scoring import Assignment, ranks
from .phase import Phase


@dataclass(frozen=True, slots=True)
class Refused:
    """The line was refused; nothing was recorded."""

    message: str
    rule: str | None = None

    def line(self) -> str:
        return f"refused [{self.rule}] {self.message}" if self.rule else f"refused: {self.message}"


@dataclass(frozen=True, slots=True)
class Caution:
    """Something recorded (or about to be) that validate would warn about: ``rule`` is its id."""

    message: str
    rule: str

    def line(self) -> str:
        return f"warning [{self.rule}] {self.message}"


@dataclass(frozen=True, slots=True)
class Note:
    """Something recorded or undone, in one sentence."""

    text: str


@dataclass(frozen=True, slots=True)
class Help:
    text: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place in the match: total of the complete games' optimal scores."""

    player: str
    seat: int
    total: int
    rank: int  # tied players share a rank
    games: tuple[int, ...]  # each complete game's score


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game has ended: every player's optimal score and assignment, and the match so far."""

    game: int  # from 1
    players: tuple[str, ...]
    scores: tuple[Assignment, ...]  # by seat
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class ClaimVerdicts:
    game: int
    verdicts: tuple[Verdict, ...]


@dataclass(frozen=True, slots=True)
class GameStart:
    game: int  # from 1
    games: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    standings: tuple[Standing, ...]


Event = Refused | Caution | Note | Help | GameOver | ClaimVerdicts | GameStart | MatchOver


@dataclass(frozen=True, slots=True)
class Reply:
    events: tuple[Event, ...] = ()
    changed: bool = False  # the log changed: save it
    stop: bool = False  # quit, or the match is complete


@dataclass(frozen=True, slots=True)
class Prompt:
    """The question: ``text`` in words for every screen, ``typed`` how to answer it by typing (the terminal's)."""

    phase: Phase
    text: str
    player: str | None = None
    hint: str = ""
    typed: str = ""

    @property
    def terminal(self) -> str:
        """The question as the terminal asks it: with how to type the answer."""
        return f"{self.text} ({self.typed})" if self.typed else self.text


def standings(players: Sequence[str], games: Sequence[Sequence[int]]) -> tuple[Standing, ...]:
    """Totals and ranks, best first (ties in seat order, sharing the rank)."""
    totals = [sum(g[seat] for g in games) for seat in range(len(players))]
    rank = ranks(totals)
    order = sorted(range(len(players)), key=lambda s: (rank[s], s))
    return tuple(
        Standing(
            player=players[s],
            seat=s,
            total=totals[s],
            rank=rank[s],
            games=tuple(g[s] for g in games),
        )
        for s in order
    )


def round_end(move: Move, before: GameState, after: GameState) -> str | None:
    """What a take that ends a round says: the round is over, and (2 players) the row left over is discarded."""
    if not isinstance(move, Take) or (after.round == before.round and not after.over):
        return None
    left = [
        f"row {k + 1} ({', '.join(card_name(c) for c in cards)})"
        for k, cards in enumerate(before.rows)
        if k != move.row - 1 and not before.taken[k] and cards
    ]
    what = "the game" if after.over else f"round {before.round}"
    if not left:
        return None if after.over else f"End of {what}."
    verb = "is" if len(left) == 1 else "are"
    return f"End of {what}: {' and '.join(left)} {verb} discarded (the row left over is not kept)."


def describe(move: Move, players: Sequence[str], before: GameState) -> str:
    """A recorded move in words: ``Aiko drew red into row 2``."""
    who = players[move.seat]
    if isinstance(move, Draw):
        lr = " (after the last-round card: this is the last round)" if move.last_round else ""
        return f"{who} drew {card_name(move.card or '')} into row {move.row}{lr}"
    cards = ", ".join(card_name(c) for c in before.rows[move.row - 1])
    extra = ""
    if move.extra is not None:
        lr = " after the last-round card" if move.last_round else ""
        extra = f", and {card_name(move.extra)} from the deck{lr}"
    return f"{who} took row {move.row} ({cards}){extra}"


