"""Why a move or a setup answer is refused, in the reader's language: the rule and its particulars.

The engine and the setup checks say why in English (``core`` is pure and
English; their sentences are what ``validate`` prints). A table reading
another language gets the same refusal said again here, from the rule id and
what the state and the move show: which row is full and with how many cards,
which card is out or removed, whose turn it is. English keeps the engine's
own sentence, so an English table reads exactly what ``validate`` says.

Nothing here decides a rule: the engine (``engine.check``) and the setup
checks (``log.replay``) have refused already; this only says it. A case these
functions do not know falls back to the rule's one sentence (``RULE_WORDS``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..core.engine import Draw, GameState, Move, Take, Violation
from ..core.ruleset import LAYOUTS, Edition
from ..lang import DEFAULT, Translator
from ..lang.games import edition_word
from .events import RULE_WORDS, Refused, card_word


def move_refusal(violation: Violation, state: GameState, move: Move, players: Sequence[str], tr: Translator) -> Refused:
    """The refusal of ``move`` in ``state`` for ``violation``, said in ``tr``'s language."""
    if tr.lang == DEFAULT:
        return Refused(violation.message, violation.rule)
    said = _why_move(violation.rule, state, move, players, tr)
    return Refused(said or tr.gettext(RULE_WORDS.get(violation.rule, violation.message)), violation.rule, said=True)


def _why_move(rule: str, state: GameState, move: Move, players: Sequence[str], tr: Translator) -> str | None:
    seat, row = move.seat, move.row
    if rule == "game-over":
        return tr.gettext("the game is over: its last round has ended")
    if rule == "not-your-turn" and 0 <= seat < state.players:
        if state.done[seat]:
            return tr.t("{who} has already taken a row this round", who=players[seat])
        return tr.t("it is not {who}'s turn: {current} is to play", who=players[seat], current=players[state.current])
    if rule == "unknown-row":
        return tr.t("there is no row {row}: the rows are 1 to {last}", row=row, last=len(state.rows))
    if rule == "must-take":
        return tr.t("every row left is full: {who} must take one", who=players[seat])
    if rule == "row-taken":
        return tr.t("row {row} has already been taken this round", row=row)
    if rule == "row-full":
        n = len(state.rows[row - 1])
        return tr.nt("row {row} is full: it already holds {n} card", "row {row} is full: it already holds {n} cards", n,
                     row=row)  # fmt: skip
    if rule == "row-empty":
        return tr.t("row {row} is empty and cannot be taken", row=row)
    if rule == "unexpected-extra":
        return tr.t("row {row} holds no golden joker: a take names only the row (t {row})", row=row)
    if rule in ("deck-empty", "impossible-card"):
        card = move.card if isinstance(move, Draw) else move.extra if isinstance(move, Take) else None
        return _why_card(rule, state, card, bool(move.last_round), tr)
    return None


def _why_card(rule: str, state: GameState, card: str | None, last_round: bool, tr: Translator) -> str | None:
    """A card turned over that the deck cannot hold (``impossible-card``) or that is not there (``deck-empty``)."""
    if rule == "deck-empty":
        if last_round and state.turned < state.total:
            return tr.gettext("no card is left after the last-round card")
        return tr.gettext("every card of the deck has been turned over: none is left")
    if last_round and not state.lr_pending:
        return tr.gettext("the last-round card has already come out in this game")
    if card is None:
        return None
    edition = state.rules.edition
    if card not in edition.card_names():
        return tr.t("{card} is not a card of the {edition}", card=card_word(card, tr), edition=edition_word(edition.name, tr))
    if card in state.removed:
        return tr.t("{card} was removed from this game at setup", card=card_word(card, tr))
    return tr.t("every {card} card of the deck is already out", card=card_word(card, tr))


def setup_refusal(
    rule: str,
    message: str,
    *,
    colours: Sequence[str],
    edition: Edition,
    players: int,
    who: str | None = None,
    removed: Collection[str] = (),
    given: Collection[str] = (),
    tr: Translator,
) -> Refused:
    """The refusal of the removed colours (``who`` None) or of ``who``'s starting cards, said in ``tr``'s language.

    ``message`` is the setup check's English sentence, kept for English.
    """
    if tr.lang == DEFAULT:
        return Refused(message, rule)
    said = _why_setup(colours, edition, players, who, removed, given, tr)
    return Refused(said or tr.gettext(RULE_WORDS.get(rule, message)), rule, said=True)


def _why_setup(
    colours: Sequence[str], edition: Edition, players: int, who: str | None, removed: Collection[str],
    given: Collection[str], tr: Translator,
) -> str | None:  # fmt: skip
    layout = LAYOUTS[players]
    want = layout.removed if who is None else layout.starting
    if len(colours) != want:
        if who is None:
            return tr.nt("with {players} players {n} colour is removed, not {given}",
                         "with {players} players {n} colours are removed, not {given}", want, players=players,
                         given=len(colours))  # fmt: skip
        return tr.nt("with {players} players each starts with {n} card, not {given}",
                     "with {players} players each starts with {n} cards, not {given}", want, players=players,
                     given=len(colours))  # fmt: skip
    seen: set[str] = set(given)
    for c in colours:
        word = card_word(c, tr)
        if c not in edition.colours:
            return tr.t("{card} is not a colour of the {edition}", card=word, edition=edition_word(edition.name, tr))
        if who is None and colours.count(c) > 1:
            return tr.t("{card} is removed twice", card=word)
        if who is not None and c in removed:
            return tr.t("{card} is a removed colour: it cannot be a starting card", card=word)
        if who is not None and c in seen:
            return tr.t("{card} is given as a starting card twice: starting cards are all different colours", card=word)
        seen.add(c)
    return None
