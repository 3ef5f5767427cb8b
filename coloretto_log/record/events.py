"""What a recording session answers: events to show, the reply to a line, the prompt, standings.

Plain values, no I/O: ``cli/record.py`` (and ``serve``) render them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core.cards import card_name
from ..core.claims import Verdict
from ..core.engine import Draw, GameState, Move, Take
from ..core.ruleset import RuleSet
from ..core.scoring import Assignment, ranks
from ..lang import ENGLISH, N_, Translator
from ..lang.games import edition_word, table_word
from .phase import Phase

#: The cards' words, for the catalogue (``card_word`` translates them).
CARD_WORDS = (
    N_("orange"), N_("blue"), N_("brown"), N_("yellow"), N_("grey"), N_("green"), N_("red"), N_("purple"),
    N_("joker"), N_("golden joker"), N_("+2"), N_("last-round card"),
)  # fmt: skip

#: What each rule the recorder can refuse a line for says, in a language other than English
#: (English keeps the engine's own sentence, with its details).
RULE_WORDS: dict[str, str] = {
    "card-mismatch": N_("that card does not match the card drawn"),
    "deck-empty": N_("no card is left in the deck"),
    "game-over": N_("the game is over"),
    "impossible-card": N_("every copy of that card is already out"),
    "missing-card": N_("name the card drawn"),
    "missing-extra": N_("name the card taken from the deck with the golden joker"),
    "must-take": N_("every row is full: take a row"),
    "not-your-turn": N_("it is not this player's turn"),
    "row-empty": N_("an empty row cannot be taken"),
    "row-full": N_("that row is full"),
    "row-taken": N_("that row is already taken this round"),
    "unexpected-extra": N_("only a row with the golden joker takes a card from the deck"),
    "unknown-player": N_("no such player"),
    "unknown-row": N_("no such row"),
    "bad-removed": N_("those are not the colours to remove"),
    "bad-starting": N_("those are not this player's starting cards"),
    "bad-first": N_("that is not a player: type a name or a seat number"),
    "player-count": N_("type the players' names in seat order, separated by commas (2 to 5 players)"),
    "bad-player-name": N_("a name must not be empty and is at most 40 characters"),
    "duplicate-player": N_("a name is given twice"),
    "bad-value": N_("that is not a number"),
}
NOT_UNDERSTOOD = N_("the line is not understood here: type ? for the commands")

def card_word(card: str, tr: Translator = ENGLISH) -> str:
    """A card as people read it in ``tr``'s language (a colour no catalogue knows stays English)."""
    return tr.gettext(card_name(card))


def rules_words(rules: RuleSet, tr: Translator = ENGLISH) -> str:
    """The edition and the scoring table as a table reads them: ``classic edition, standard table``."""
    return tr.t("{edition}, {table}", edition=edition_word(rules.edition.name, tr), table=table_word(rules.table.name, tr))


@dataclass(frozen=True, slots=True)
class Refused:
    """The line was refused; nothing was recorded."""

    message: str
    rule: str | None = None
    said: bool = field(default=False, compare=False)  # ``message`` is already in the reader's language (the session's own refusals)

    def line(self, tr: Translator = ENGLISH) -> str:
        message = self.message
        if tr is not ENGLISH and not self.said:  # the engine's or the parser's English sentence
            message = tr.gettext(RULE_WORDS.get(self.rule or "", NOT_UNDERSTOOD))
        if self.rule:
            return tr.t("refused [{rule}] {message}", rule=self.rule, message=message)
        return tr.t("refused: {message}", message=message)


@dataclass(frozen=True, slots=True)
class Caution:
    """Something recorded (or about to be) that validate would warn about: ``rule`` is its id."""

    message: str
    rule: str

    def line(self, tr: Translator = ENGLISH) -> str:
        return tr.t("warning [{rule}] {message}", rule=self.rule, message=self.message)


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


def round_end(move: Move, before: GameState, after: GameState, tr: Translator = ENGLISH) -> str | None:
    """What a take that ends a round says: the round is over, and (2 players) the row left over is discarded."""
    if not isinstance(move, Take) or (after.round == before.round and not after.over):
        return None
    left = [
        (k + 1, tr.join(card_word(c, tr) for c in cards))
        for k, cards in enumerate(before.rows)
        if k != move.row - 1 and not before.taken[k] and cards
    ]
    if not left:
        return None if after.over else tr.t("End of round {round}.", round=before.round)
    rows = tr.gettext(" and ").join(tr.t("row {row} ({cards})", row=k, cards=cards) for k, cards in left)
    if after.over:
        return tr.nt("End of the game: {rows} is discarded (the row left over is not kept).",
                     "End of the game: {rows} are discarded (the row left over is not kept).", len(left), rows=rows)  # fmt: skip
    return tr.nt("End of round {round}: {rows} is discarded (the row left over is not kept).",
                 "End of round {round}: {rows} are discarded (the row left over is not kept).",
                 len(left), round=before.round, rows=rows)  # fmt: skip


def describe(move: Move, players: Sequence[str], before: GameState, tr: Translator = ENGLISH) -> str:
    """A recorded move in words: ``Aiko drew red into row 2``."""
    who = players[move.seat]
    if isinstance(move, Draw):
        card = card_word(move.card or "", tr)
        if move.last_round:
            return tr.t("{who} drew {card} into row {row} (after the last-round card: this is the last round)",
                        who=who, card=card, row=move.row)  # fmt: skip
        return tr.t("{who} drew {card} into row {row}", who=who, card=card, row=move.row)
    cards = tr.join(card_word(c, tr) for c in before.rows[move.row - 1])
    if move.extra is None:
        return tr.t("{who} took row {row} ({cards})", who=who, row=move.row, cards=cards)
    extra = card_word(move.extra, tr)
    if move.last_round:
        return tr.t("{who} took row {row} ({cards}), and {extra} from the deck after the last-round card",
                    who=who, row=move.row, cards=cards, extra=extra)  # fmt: skip
    return tr.t("{who} took row {row} ({cards}), and {extra} from the deck", who=who, row=move.row, cards=cards, extra=extra)
