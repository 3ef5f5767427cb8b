"""A finding as a person reads it, in their language: ``validate``'s lines, and those of every command that
reports findings on a terminal (``score`` and ``replay`` of an invalid log).

The checks (``core``, ``log``) word a finding in English with its rule id: that sentence is the JSON's
``message`` and what an English terminal shows, unchanged. Another language gets the same finding said
again here: its place (game, move), its severity, its rule id as it is (``[row-full]``: the id is what the
docs index), and the sentence, with the particulars the English sentence holds (the row, the count, the
card, the player, the written and the best score) where one of ``PATTERNS`` reads it, else the rule's own
sentence (``RULE_SENTENCES``, one for every rule id of docs/rules.md). Nothing here decides a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.cards import card_name
from ..core.errors import Finding, one_line
from ..lang import DEFAULT, N_, NP_, Translator

__all__ = ["RULE_SENTENCES", "finding_line", "finding_sentence", "unreadable_line"]

#: Each rule id's sentence, said when no pattern reads the particulars of the English sentence.
RULE_SENTENCES: dict[str, str] = {
    "bad-encoding": N_("the file's bytes are not UTF-8 text"),
    "bad-json": N_("the text is not one JSON value"),
    "bad-format": N_("this is not a Coloretto match log in the format's JSON"),
    "bad-version": N_("the log's version of the format is not one this program knows"),
    "unknown-field": N_("a field the format does not define"),
    "missing-field": N_("a field the format requires is missing"),
    "bad-type": N_("a field holds a value of the wrong type"),
    "bad-value": N_("a field holds a value the format does not allow"),
    "player-count": N_("a match has 2 to 5 players"),
    "bad-player-name": N_("a name must not be empty and is at most 40 characters"),
    "duplicate-player": N_("a name is given twice"),
    "bad-seed": N_("the seed is not one the format allows"),
    "too-many-games": N_("the match has more games than its rules plan"),
    "bad-removed": N_("those are not the colours to remove"),
    "bad-starting": N_("those are not this player's starting cards"),
    "bad-first": N_("the first player is not a player of this match"),
    "bad-deck": N_("the deck is not the whole deck of this game"),
    "bad-action": N_("a move is neither a draw nor a take"),
    "unknown-player": N_("no such player"),
    "game-over": N_("the game is over"),
    "not-your-turn": N_("it is not this player's turn"),
    "unknown-row": N_("no such row"),
    "must-take": N_("every row is full: take a row"),
    "row-taken": N_("that row is already taken this round"),
    "row-full": N_("that row is full"),
    "row-empty": N_("an empty row cannot be taken"),
    "card-mismatch": N_("that card does not match the card drawn"),
    "impossible-card": N_("that card cannot come out of this game's deck"),
    "missing-card": N_("a draw must name the card drawn"),
    "missing-extra": N_("name the card taken from the deck with the golden joker"),
    "unexpected-extra": N_("only a row with the golden joker takes a card from the deck"),
    "deck-empty": N_("no card is left in the deck"),
    "incomplete-game": N_("the game stops before its last round has ended"),
    "last-round-position": N_("the last-round card is not where the deck puts it"),
    "claim-score": N_("the written score is not the best score"),
    "claim-choice": N_("the jokers or positive colours written are not the best choice"),
}

#: The severities as a line says them.
SEVERITY_LINES = {"error": N_("error [{rule}] {message}"), "warning": N_("warning [{rule}] {message}")}

_Say = Callable[[Translator, dict[str, str]], str]


def _card(tr: Translator, card: str) -> str:
    return tr.gettext(card_name(card))


def _counted(singular: str, plural: str) -> _Say:
    return lambda tr, g: tr.nt(singular, plural, int(g["n"]), **{k: v for k, v in g.items() if k != "n"})


def _said(message: str, *cards: str) -> _Say:
    return lambda tr, g: tr.t(message, **{k: _card(tr, v) if k in cards else v for k, v in g.items()})


_N = r"(?P<n>[0-9]+)"
_ROW = r"(?P<row>[0-9]+)"
_CARD = r"(?P<card>[a-z_0-9+]+)"

#: What the English sentences of the checks hold, rule by rule: a pattern and how to say it again.
PATTERNS: tuple[tuple[str, re.Pattern[str], _Say], ...] = (
    ("row-full", re.compile(rf"row {_ROW} already holds {_N} cards?$"),
     _counted(*NP_("row {row} is full: it already holds {n} card", "row {row} is full: it already holds {n} cards"))),
    ("unknown-row", re.compile(rf"row {_ROW} does not exist: rows are 1 to (?P<last>[0-9]+)$"),
     _said(N_("there is no row {row}: the rows are 1 to {last}"))),
    ("row-taken", re.compile(rf"row {_ROW} has already been taken this round$"),
     _said(N_("row {row} has already been taken this round"))),
    ("row-empty", re.compile(rf"row {_ROW} is empty and cannot be taken$"),
     _said(N_("row {row} is empty and cannot be taken"))),
    ("missing-extra", re.compile(rf"row {_ROW} holds the golden joker"),
     _said(N_("row {row} holds the golden joker: the take must name the card taken from the deck with it"))),
    ("unexpected-extra", re.compile(rf"on a take of row {_ROW}, which holds no golden joker$"),
     _said(N_("row {row} holds no golden joker: its take names no card from the deck"))),
    ("impossible-card", re.compile(rf"^{_CARD} was removed from this game at setup$"),
     _said(N_("{card} was removed from this game at setup"), "card")),
    ("impossible-card", re.compile(rf"^one {_CARD} too many"),
     _said(N_("every {card} card of the deck is already out"), "card")),
    ("impossible-card", re.compile(r"last-round card: it has already come out$"),
     _said(N_("the last-round card has already come out in this game"))),
    ("card-mismatch", re.compile(r"is (?P<card>[a-z_0-9+]+), but the deck yields (?P<expected>[a-z_0-9+]+)$"),
     _said(N_("the card named is {card}, but the deck yields {expected}"), "card", "expected")),
    ("deck-empty", re.compile(r"after the last-round card"), _said(N_("no card is left after the last-round card"))),
    ("deck-empty", re.compile(r"has been turned over"),
     _said(N_("every card of the deck has been turned over: none is left"))),
    ("game-over", re.compile(r"last round has ended$"), _said(N_("the game is over: its last round has ended"))),
    ("not-your-turn", re.compile(r"^(?P<who>.+) has already taken a row this round; it is (?P<current>.+)'s turn$"),
     _said(N_("{who} has already taken a row this round; it is {current}'s turn"))),
    ("not-your-turn", re.compile(r"^it is (?P<current>.+)'s turn, not (?P<who>.+)'s$"),
     _said(N_("it is not {who}'s turn: {current} is to play"))),
    ("unknown-player", re.compile(r'^"(?P<who>.+)" is not a player of this match$'),
     _said(N_("{who} is not a player of this match"))),
    ("unknown-player", re.compile(r'^claims name "(?P<who>.+)", who is not a player of this match$'),
     _said(N_("the written scores name {who}, who is not a player of this match"))),
    ("bad-first", re.compile(r'^"(?P<who>.+)" is not a player of this match$'),
     _said(N_("{who} is not a player of this match"))),
    ("bad-starting", re.compile(r'^"(?P<who>.+)" is not a player of this match$'),
     _said(N_("{who} is not a player of this match"))),
    ("bad-removed", re.compile(rf"^(?P<players>[0-9]+) players remove {_N} colours?, not (?P<given>[0-9]+)$"),
     _counted(*NP_("with {players} players {n} colour is removed, not {given}",
                   "with {players} players {n} colours are removed, not {given}"))),
    ("bad-removed", re.compile(r"^a colour is removed twice$"), _said(N_("a colour is removed twice"))),
    ("bad-starting", re.compile(rf"^(?P<who>.+) starts with (?P<given>[0-9]+) cards; with (?P<players>[0-9]+) players "
                                rf"each starts with {_N}$"),
     _counted(*NP_("{who}: with {players} players each starts with {n} card, not {given}",
                   "{who}: with {players} players each starts with {n} cards, not {given}"))),
    ("bad-starting", re.compile(rf"^(?P<who>.+)'s starting {_CARD} is a removed colour$"),
     _said(N_("{who}: {card} is a removed colour: it cannot be a starting card"), "card")),
    ("bad-starting", re.compile(rf"^{_CARD} is given as a starting card twice"),
     _said(N_("{card} is given as a starting card twice: starting cards are all different colours"), "card")),
    ("bad-starting", re.compile(r"^no starting cards for (?P<who>.+)$"), _said(N_("no starting cards for {who}"))),
    ("incomplete-game", re.compile(rf"^the game stops after move {_N}, before its last round has ended$"),
     _said(N_("the game stops after move {n}, before its last round has ended"))),
    ("incomplete-game", re.compile(rf"^the game stops after move {_N}, before its last round has ended; the next"),
     _said(N_("the game stops after move {n}, before its last round has ended; the next game starts anyway"))),
    ("incomplete-game", re.compile(r'^"games" is empty'), _said(N_("the match has no game yet"))),
    ("too-many-games", re.compile(rf"^the match plans {_N} games? \(rules\.games\) and this is game (?P<game>[0-9]+)$"),
     _counted(*NP_("the match plans {n} game and this is game {game}", "the match plans {n} games and this is game {game}"))),
    ("last-round-position",
     re.compile(r"as card (?P<at>[0-9]+) of the deck; with (?P<under>[0-9]+) cards under it, it belongs at card "
                r"(?P<expected>[0-9]+)$"),
     _said(N_("the last-round card came out as card {at} of the deck; with {under} cards under it, it belongs at "
              "card {expected}"))),
    ("claim-score", re.compile(r"^(?P<who>.+) claims (?P<claim>-?[0-9]+) but the optimum is (?P<best>-?[0-9]+) "),
     _said(N_("{who} wrote {claim}, but the best score is {best}"))),
    ("claim-choice", re.compile(r"^(?P<who>.+)'s declared choice is not legal"),
     _said(N_("{who}: the jokers or positive colours written are not a legal choice"))),
    ("claim-choice", re.compile(r"^(?P<who>.+)'s declared choice scores (?P<choice>-?[0-9]+), below the optimum "
                                r"(?P<best>-?[0-9]+)"),
     _said(N_("{who}: the jokers and positive colours written score {choice}, less than the best, {best}"))),
)
#: The rules whose English sentence starts with the field it is about (``"setup.first" is required ...``): the
#: field is named as the format names it, like a rule id.
FIELD_RULES = frozenset({"bad-format", "bad-version", "unknown-field", "missing-field", "bad-type", "bad-value",
                         "bad-seed", "bad-player-name", "player-count", "bad-action"})
_FIELD = re.compile(r'^"(?P<field>[A-Za-z_][A-Za-z0-9_.\[\]]*)" ')
_MORE = re.compile(rf"^{_N} more \[(?P<rule>[a-z0-9-]+)\] findings? here, not shown$")


def finding_sentence(f: Finding, tr: Translator) -> str:
    """What ``f`` says, in ``tr``'s language (English: the check's own sentence)."""
    if tr.lang == DEFAULT:
        return f.message
    more = _MORE.match(f.message)
    if more:
        return tr.nt("{n} more finding of this rule here, not shown", "{n} more findings of this rule here, not shown",
                     int(more["n"]))  # fmt: skip
    for rule, pattern, say in PATTERNS:
        if rule == f.rule:
            m = pattern.search(f.message)
            if m:
                return say(tr, {k: v for k, v in m.groupdict().items() if v is not None})
    sentence = tr.gettext(RULE_SENTENCES.get(f.rule, RULE_SENTENCES["bad-value"]))
    field = _FIELD.match(f.message) if f.rule in FIELD_RULES else None
    return tr.t("\"{field}\": {sentence}", field=field["field"], sentence=sentence) if field else sentence


def finding_line(f: Finding, source: str, tr: Translator) -> str:
    """``f`` as one line: ``FILE[:LINE]: game G, move M: error [rule] message``, in ``tr``'s language (control
    characters escaped, as ``Finding.line`` escapes them; English is ``Finding.line`` itself)."""
    if tr.lang == DEFAULT:
        return f.line(source)
    said = tr.t(SEVERITY_LINES[f.severity], rule=f.rule, message=one_line(finding_sentence(f, tr)))
    if f.game is None:
        return tr.t("{source}: {finding}", source=one_line(source), finding=said)
    where = (tr.t("game {game}", game=f.game) if f.move is None
             else tr.t("game {game}, move {move}", game=f.game, move=f.move))  # fmt: skip
    return tr.t("{source}: {where}: {finding}", source=one_line(source), where=where, finding=said)


#: Why a file cannot be read at all (``log.reader``: the path, then why), and how to say it again.
UNREADABLE = (
    (re.compile(r": no such file or folder$"), N_("{file}: no such file or folder")),
    (re.compile(r": cannot read: .*$"), N_("{file}: cannot be read")),
    (re.compile(r": not a regular file but a folder, with no \.json or \.jsonl files in it$"),
     N_("{file}: a folder with no .json or .jsonl files in it")),
    (re.compile(r": not a regular file$"), N_("{file}: not a regular file")),
    (re.compile(r": (?:[0-9]+ bytes is )?over the .* limit for a log$"), N_("{file}: over the size limit for a log")),
)


def unreadable_line(message: str, tr: Translator) -> str:
    """The line of a file that cannot be read (``message``: the reader's English, which names the file first), in
    ``tr``'s language; escaped for a terminal."""
    if tr.lang != DEFAULT:
        for pattern, words in UNREADABLE:
            m = pattern.search(message)
            if m:
                return tr.t(words, file=one_line(message[: m.start()]))
    return one_line(message)
