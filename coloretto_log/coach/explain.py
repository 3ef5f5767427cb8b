"""Why, in words: a decision's best choices with their values, and a sentence from what was computed.

``explain`` reads one valued decision (the public position, the card in
hand, every choice's value) and says, in plain words built from those
numbers, never from a canned verdict:

- what the played choice does at the table: the row it takes and what that
  adds to the player's score now, or the row the card goes to; the rows it
  leaves, and what the best of them is worth to the next player; a row it
  fills (closed to drawing for the next player); the round (or the game) it
  ends;
- the cards of the player's own colours (the ones they hold most of) they
  can expect at the end after the played choice against after the best one,
  from the playouts' final collections (sampled decisions);
- the cost, in expected margin and in chance of winning.

The words are made of parts, so that each reader gets them in their language
(docs/languages.md): a sentence is a message of the catalogues with its
values (a player's name as logged, a number as Python wrote it, a card, a
row's cards, a choice, a list of smaller parts), and a count of points takes
its plural form from the number as written. ``Explanation.parts`` is plain
JSON (``analyze --json``'s ``explanation_parts``, docs/analyze.md);
``render(parts, translator)`` says it in a language, and the English of
``render`` is ``Explanation.text``. The pages say the same parts in the
browser (``view/assets/viewer.js``), so every language carries the same
numbers, rows and cards.

``top_choices`` gives the best three choices, best first, with their values;
``choice_name`` says a choice (``take row 3``) in a language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots.players import final_scores, pack, scores_for
from ..bots.playout import Choice, Start, likely_moves
from ..core.cards import KINDS, card_name, is_colour
from ..core.engine import GameState
from ..lang import ENGLISH, N_, NP_, Translator
from .estimate import ChoiceValue, Evaluation
from .match import MatchContext

__all__ = ["MESSAGES", "Explanation", "Part", "choice_name", "decimals", "explain", "explain_decision", "listed", "plus_minus", "render",
           "top_choices"]

TOP = 3

#: One sentence (or a piece of a list): ``{"message": msgid, "values": {name: value}}``, and for a counted
#: one ``"plural"`` (the plural msgid) and ``"n"`` (the count as written). A value is a string (shown as it
#: is: a player's name), or ``{"number": "+1.5"}``, ``{"card": "red"}``, ``{"cards": ["red", "joker"]}``,
#: ``{"choice": "take row 2", "capital": true}`` (capitalised where the language's sentence starts with it)
#: or ``{"list": [part, ...]}``.
Part = dict[str, Any]

# The sentences, in the catalogues (lang/locales); English is the msgids.
_TOOK_ENDS_GAME = N_("{who} took row {row} ({cards}), {gain} to their score now; this ended the game.")
_TOOK_ENDS_ROUND = N_("{who} took row {row} ({cards}), {gain} to their score now; this ended the round.")
_TOOK_LEAVING = N_("{who} took row {row} ({cards}), {gain} to their score now, leaving row {left} ({left_cards}) "
                   "to {next}, worth {left_gain} to them.")
_TOOK = N_("{who} took row {row} ({cards}), {gain} to their score now.")
_DREW_NO_ROW = N_("{who} drew (no row held cards).")
_DREW = N_("{who} drew instead of taking a row; the best row for them, row {row} ({cards}), was worth {gain} to "
           "their score then.")
_PUT = N_("{who} put {card} in row {row}, making it {cards}.")
_PUT_NEXT = N_("{who} put {card} in row {row}, making it {cards}, worth {gain} to {next} who plays next.")
_PUT_FULL = N_("{who} put {card} in row {row}, making it {cards}; the row is full, closed to drawing.")
_PUT_NEXT_FULL = N_("{who} put {card} in row {row}, making it {cards}, worth {gain} to {next} who plays next; "
                    "the row is full, closed to drawing.")
_BEST_TOOK_LEAVING = N_("Taking row {row} instead ({cards}) would have added {gain} to {who}'s score, leaving row "
                        "{left} ({left_cards}) to {next}, worth {left_gain} to them.")
_BEST_TOOK = N_("Taking row {row} instead ({cards}) would have added {gain} to {who}'s score.")
_BEST_DREW = N_("Drawing instead would have left the rows for later; the best for {next}, row {row} ({cards}), "
                "was worth {gain} to them.")
_BEST_DREW_EMPTY = N_("Drawing instead would have turned a card over.")
_BEST_PUT = N_("Row {row} instead would have made it {cards}, worth {gain} to {next} who plays next.")
_BEST_PUT_LAST = N_("Row {row} instead would have made it {cards}.")
_WORTH_EXACT = NP_(
    "{best} was worth exactly {n} point more of expected margin ({best_margin} against {played_margin}); {chance}.",
    "{best} was worth exactly {n} points more of expected margin ({best_margin} against {played_margin}); "
    "{chance}.")
_WORTH = NP_(
    "{best} was worth {n} ± {se} point more of expected margin ({best_margin} against {played_margin}); {chance}.",
    "{best} was worth {n} ± {se} points more of expected margin ({best_margin} against {played_margin}); "
    "{chance}.")
_WORTH_LESS = NP_(
    "{best} was worth {n} point less of expected margin ({best_margin} against {played_margin}), but a better "
    "chance of winning: {chance}.",
    "{best} was worth {n} points less of expected margin ({best_margin} against {played_margin}), but a better "
    "chance of winning: {chance}.")
_ABOUT_EQUAL = NP_(
    "About equal: {played} and {other} are {n} ± {se} point of expected margin apart, within their noise; "
    "{chance}.",
    "About equal: {played} and {other} are {n} ± {se} points of expected margin apart, within their noise; "
    "{chance}.")
_CHANCE = N_("win chance {best_win}% against {played_win}%")
_CHANCE_LOWER = N_("win chance {best_win}% against {played_win}%: more points on average, but fewer wins")
_CHANCE_NONE = N_("no winning chance either way")
_CHANCE_SURE = N_("a sure win either way")
_LIKELY = N_("After {choice}, likely next: {moves}.")
_LIKELY_TAKES = N_("{who} takes row {row} ({cards}): {gain} to them")
_LIKELY_DRAWS = N_("{who} draws")
_WAS_BEST = NP_(
    "It was the best choice: {n} point of expected margin ahead of {runner} ({played_margin} against "
    "{runner_margin}), win chance {win}%.",
    "It was the best choice: {n} points of expected margin ahead of {runner} ({played_margin} against "
    "{runner_margin}), win chance {win}%.")
_WAS_BEST_CHANCE = NP_(
    "It was the best choice for the chance of winning: {n} point of expected margin behind {runner} "
    "({played_margin} against {runner_margin}), but more often first.",
    "It was the best choice for the chance of winning: {n} points of expected margin behind {runner} "
    "({played_margin} against {runner_margin}), but more often first.")
_EXPECT = N_("By the end they could expect {cards} (colours they collect) than after {best}.")
_MORE = N_("{n} more {colour}")
_FEWER = N_("{n} fewer {colour}")
_LIST = N_("{list}, {item}")  # a list, an item at a time (Japanese: 、)
_NOTHING = N_("nothing")
_MATCH_LEADS = N_("{who} leads the match by {lead}: {choice} keeps the lead best, match chance {best_win}% against "
                  "{played_win}%.")
_MATCH_TRAILS = N_("{who} trails the match by {lead}: {choice} gives the best chance to catch up, match chance "
                   "{best_win}% against {played_win}%.")
_MATCH_LEVEL = N_("The match is level: {choice} gives the best chance of winning it, match chance {best_win}% "
                  "against {played_win}%.")
_MATCH_CHANCE = N_("Match chance {win}%, {who} {lead} in the match.")
#: Every message of an explanation (a counted one as its pair), for a page that says them
#: (``view.html``): with the choices' and the cards' names, which the page has already.
MESSAGES: tuple[str | tuple[str, str], ...] = (
    _TOOK_ENDS_GAME, _TOOK_ENDS_ROUND, _TOOK_LEAVING, _TOOK, _DREW_NO_ROW, _DREW, _PUT, _PUT_NEXT, _PUT_FULL,
    _PUT_NEXT_FULL, _WORTH_EXACT, _WORTH, _WAS_BEST, _EXPECT, _MORE, _FEWER, _LIST, _NOTHING,
    _BEST_TOOK_LEAVING, _BEST_TOOK, _BEST_DREW, _BEST_DREW_EMPTY, _BEST_PUT, _BEST_PUT_LAST, _ABOUT_EQUAL, _CHANCE,
    _CHANCE_LOWER, _CHANCE_NONE, _CHANCE_SURE, _LIKELY, _LIKELY_TAKES, _LIKELY_DRAWS, _MATCH_LEADS,
    _MATCH_TRAILS, _MATCH_LEVEL, _MATCH_CHANCE, _WAS_BEST_CHANCE, _WORTH_LESS,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Explanation:
    text: str  # in English: ``render(parts)``
    choices: tuple[ChoiceValue, ...]  # the best three, best first
    parts: tuple[Part, ...] = ()  # the sentences, to say in any language (``render``)


def ranked(ev: Evaluation) -> list[int]:
    """Choice indices, the best first (``Evaluation.best``: by the chance of winning what is played, the margin
    breaking ties within the noise), then by that chance, then by margin (ties in choice order)."""
    return sorted(range(len(ev.choices)),
                  key=lambda k: (k != ev.best, -ev.choices[k].chance, -ev.choices[k].margin, k))


def by_margin(ev: Evaluation) -> list[int]:
    """Choice indices, best margin first (ties in choice order): the runner-up the sentences in points name."""
    return sorted(range(len(ev.choices)), key=lambda k: (-ev.choices[k].margin, k))


def top_choices(ev: Evaluation, n: int = TOP) -> tuple[ChoiceValue, ...]:
    return tuple(ev.choices[k] for k in ranked(ev)[:n])


# --------------------------------------------------------------------------- saying the parts


def choice_name(label: str, tr: Translator = ENGLISH) -> str:
    """A choice as ``analyze`` labels it (``draw``, ``take row 2``, ``row 3``) in ``tr``'s language."""
    if label == "draw":
        return tr.t("draw")
    head, _, row = label.rpartition(" ")
    if row.isdigit() and head == "take row":
        return tr.t("take row {row}", row=row)
    if row.isdigit() and head == "row":
        return tr.t("row {row}", row=row)
    return label


def render(parts: Sequence[Part], tr: Translator = ENGLISH) -> str:
    """The sentences of ``parts`` in ``tr``'s language, one space apart (none after a Japanese 。)."""
    out = ""
    for part in parts:
        sentence = _say(part, tr)
        out += sentence if not out or out.endswith("。") else " " + sentence
    return out


def _say(part: Part, tr: Translator) -> str:
    message = part["message"]  # names, not literals, in the calls: Babel 2.12's extractor took "message" for a message
    template = tr.gettext(message)  # a capital starts a sentence, in the language's order of words
    values = {name: _value(v, tr, template.startswith("{" + name + "}")) for name, v in part.get("values", {}).items()}
    if "plural" in part:
        plural = part["plural"]
        return tr.nd(message, plural, str(part["n"]), **values)
    return tr.t(message, **values)


def _value(v: str | Mapping[str, Any], tr: Translator, first: bool = False) -> str:
    if isinstance(v, str):
        return v
    if "number" in v:
        return tr.decimal(str(v["number"]))
    if "card" in v:
        return tr.t(card_name(v["card"]))
    if "cards" in v:
        names = [tr.t(card_name(c)) for c in v["cards"]]
        return listed(names, tr) if names else tr.t(_NOTHING)
    if "choice" in v:
        name = choice_name(str(v["choice"]), tr)
        return name[:1].upper() + name[1:] if v.get("capital") and first else name
    if "list" in v:
        return listed([_say(p, tr) for p in v["list"]], tr)
    raise ValueError(f"not a value of an explanation: {v!r}")


def listed(items: list[str], tr: Translator = ENGLISH) -> str:
    """``items`` as the language lists them (``red, blue``; Japanese ``赤、青``)."""
    out = items[0]
    for item in items[1:]:
        out = tr.t(_LIST, list=out, item=item)
    return out


def _part(message: str, **values: str | dict[str, Any]) -> Part:
    return {"message": message, "values": values}


def _counted(pair: tuple[str, str], n: str, **values: str | dict[str, Any]) -> Part:
    return {"message": pair[0], "plural": pair[1], "n": n, "values": values}


def _num(text: str) -> dict[str, Any]:
    return {"number": text}


def _cards(cards: tuple[str, ...]) -> dict[str, Any]:
    return {"cards": list(cards)}


def _choice(label: str, *, capital: bool = False) -> dict[str, Any]:
    return {"choice": label, "capital": True} if capital else {"choice": label}


# --------------------------------------------------------------------------- what the numbers say


def _gain(state: GameState, seat: int, cards: tuple[str, ...]) -> int:
    """What ``cards`` would add to ``seat``'s score now."""
    scores = scores_for(state)
    have = list(state.collections[seat])
    before = scores[pack(have)]
    for c in cards:
        have[KINDS.index(c)] += 1
    return scores[pack(have)] - before


def _next_seat(state: GameState, seat: int) -> int | None:
    n = state.players
    for step in range(1, n):
        s = (seat + step) % n
        if not state.done[s]:
            return s
    return None


def _signed(x: float) -> str:
    return f"{x:+.0f}" if abs(x - round(x)) < 1e-9 else f"{x:+.1f}"


def _take_words(state: GameState, label: str, seat: int,
                players: tuple[str, ...]) -> tuple[dict[str, str | dict[str, Any]], dict[str, str | dict[str, Any]]]:
    """A take in words: who, the row, its cards, what it adds to the taker's score; and the best row it leaves
    to the next player still in the round with what it is worth to them (empty when none is left to anyone)."""
    i = int(label.split()[-1]) - 1
    got = state.rows[i]
    took: dict[str, str | dict[str, Any]] = {"who": players[seat], "row": str(i + 1), "cards": _cards(got),
                                            "gain": _num(_signed(_gain(state, seat, got)))}
    nxt = _next_seat(state, seat)
    left = [r for r in range(len(state.rows)) if not state.taken[r] and r != i and state.rows[r]]
    if nxt is None or not left or sum(1 for s in range(state.players) if not state.done[s]) == 1:
        return took, {}
    worth = max(left, key=lambda r: (_gain(state, nxt, state.rows[r]), -r))
    return took, {"left": str(worth + 1), "left_cards": _cards(state.rows[worth]), "next": players[nxt],
                  "left_gain": _num(_signed(_gain(state, nxt, state.rows[worth])))}


def _what_it_does(state: GameState, card: str | None, label: str, seat: int, players: tuple[str, ...]) -> Part:
    """The played choice at the table, in words."""
    name = players[seat]
    nxt = _next_seat(state, seat)
    open_rows = [i for i in range(len(state.rows)) if not state.taken[i]]
    if label.startswith("take row "):
        took, leaving = _take_words(state, label, seat, players)
        if nxt is None or sum(1 for s in range(state.players) if not state.done[s]) == 1:
            return _part(_TOOK_ENDS_GAME if state.last_round else _TOOK_ENDS_ROUND, **took)
        return _part(_TOOK_LEAVING, **took, **leaving) if leaving else _part(_TOOK, **took)
    if label == "draw":
        best_take = max((r for r in open_rows if state.rows[r]), key=lambda r: _gain(state, seat, state.rows[r]),
                        default=None)
        if best_take is None:
            return _part(_DREW_NO_ROW, who=name)
        return _part(_DREW, who=name, row=str(best_take + 1), cards=_cards(state.rows[best_take]),
                     gain=_num(_signed(_gain(state, seat, state.rows[best_take]))))
    # the row for the card in hand
    assert card is not None
    i = int(label.split()[-1]) - 1
    row = (*state.rows[i], card)
    put: dict[str, str | dict[str, Any]] = {"who": name, "card": {"card": card}, "row": str(i + 1),
                                            "cards": _cards(row)}
    full = len(row) >= state.limits[i]
    if nxt is not None:
        put |= {"gain": _num(_signed(_gain(state, nxt, row))), "next": players[nxt]}
        return _part(_PUT_NEXT_FULL if full else _PUT_NEXT, **put)
    return _part(_PUT_FULL if full else _PUT, **put)


def _own_colours(state: GameState, seat: int) -> list[int]:
    counts = state.collections[seat]
    held = [k for k, name in enumerate(KINDS) if is_colour(name) and counts[k] > 0]
    return sorted(held, key=lambda k: (-counts[k], k))[:3]


def _expected_cards(state: GameState, seat: int, played: ChoiceValue, best: ChoiceValue) -> Part | None:
    """The player's colours expected at the end after the played choice, against after the best one."""
    if not played.cards or not best.cards:
        return None
    parts = []
    for k in _own_colours(state, seat):
        diff = played.cards[k] - best.cards[k]
        if abs(diff) >= 0.1:
            parts.append(_part(_MORE if diff > 0 else _FEWER, n=_num(f"{abs(diff):.1f}"),
                               colour={"card": KINDS[k]}))
    if not parts:
        return None
    return _part(_EXPECT, cards={"list": parts}, best=_choice(best.choice))


def _what_best_does(state: GameState, card: str | None, label: str, seat: int, players: tuple[str, ...]) -> Part:
    """The best choice at the table, in words: what it would have taken or left, for whom."""
    nxt = _next_seat(state, seat)
    open_rows = [i for i in range(len(state.rows)) if not state.taken[i]]
    if label.startswith("take row "):
        took, leaving = _take_words(state, label, seat, players)
        return _part(_BEST_TOOK_LEAVING, **took, **leaving) if leaving else _part(_BEST_TOOK, **took)
    if label == "draw":
        rows = [r for r in open_rows if state.rows[r]]
        if nxt is None or not rows:
            return _part(_BEST_DREW_EMPTY)
        worth = max(rows, key=lambda r: (_gain(state, nxt, state.rows[r]), -r))
        return _part(_BEST_DREW, next=players[nxt], row=str(worth + 1), cards=_cards(state.rows[worth]),
                     gain=_num(_signed(_gain(state, nxt, state.rows[worth]))))
    assert card is not None
    i = int(label.split()[-1]) - 1
    row = (*state.rows[i], card)
    if nxt is None:
        return _part(_BEST_PUT_LAST, row=str(i + 1), cards=_cards(row))
    return _part(_BEST_PUT, row=str(i + 1), cards=_cards(row), gain=_num(_signed(_gain(state, nxt, row))),
                 next=players[nxt])


def _choice_of(label: str) -> Choice:
    if label == "draw":
        return ("draw", -1)
    return ("take" if label.startswith("take") else "row", int(label.split()[-1]) - 1)


def _likely(start: Start, label: str, players: tuple[str, ...]) -> Part | None:
    """The next moves the playout policy would likely make after ``label``, while no card decides them."""
    moves = likely_moves(start, _choice_of(label))
    if not moves:
        return None
    table = start.state
    items = []
    for who, kind, row, cards in moves:
        if kind == "draw":
            items.append(_part(_LIKELY_DRAWS, who=players[who]))
        else:
            items.append(_part(_LIKELY_TAKES, who=players[who], row=str(row + 1), cards=_cards(cards),
                               gain=_num(_signed(_gain(table, who, cards)))))
    return _part(_LIKELY, choice=_choice(label), moves={"list": items})


def decimals(se: float) -> int:
    """Digits after the point for a number with standard error ``se``: 2 below 0.1 (± 0.05, never ± 0.0), else 1."""
    return 2 if 0 < se < 0.1 else 1


def plus_minus(x: float, se: float) -> str:
    """``1.5 ± 0.3``, ``0.12 ± 0.05``: as many digits as the standard error carries."""
    k = decimals(se)
    return f"{x:.{k}f} ± {se:.{k}f}"


def _chance(best_win: float, played_win: float) -> dict[str, Any]:
    """The two choices' winning chances as a value: never "0% against 0%"; a lower chance for the best says why."""
    b, p = f"{100 * best_win:.0f}", f"{100 * played_win:.0f}"
    if b == p == "0":
        part = _part(_CHANCE_NONE)
    elif b == p == "100":
        part = _part(_CHANCE_SURE)
    elif best_win < played_win:
        part = _part(_CHANCE_LOWER, best_win=_num(b), played_win=_num(p))
    else:
        part = _part(_CHANCE, best_win=_num(b), played_win=_num(p))
    return {"list": [part]}


def match_lead(state: GameState, seat: int, match: MatchContext) -> int:
    """``seat``'s lead in the match at ``state``: its total (the games before, and this game's score now) less
    the best other's (negative: behind)."""
    now = [round(t) + s for t, s in zip(match.totals, final_scores(state))]
    return now[seat] - max(x for q, x in enumerate(now) if q != seat)


def _match(ev: Evaluation, state: GameState, seat: int, players: tuple[str, ...], match: MatchContext) -> Part:
    """Where the match stands and what the choice does to it: the lead kept, the chance to catch up."""
    played, best = ev.choices[ev.played], ev.choices[ev.best]
    lead = match_lead(state, seat, match)
    if ev.best == ev.played:
        return _part(_MATCH_CHANCE, win=_num(f"{100 * played.match_chance:.0f}"), who=players[seat],
                     lead=_num(f"{lead:+d}"))
    values: dict[str, str | dict[str, Any]] = {
        "choice": _choice(best.choice), "best_win": _num(f"{100 * best.match_chance:.0f}"),
        "played_win": _num(f"{100 * played.match_chance:.0f}")}
    if lead > 0:
        return _part(_MATCH_LEADS, who=players[seat], lead=_num(str(lead)), **values)
    if lead < 0:
        return _part(_MATCH_TRAILS, who=players[seat], lead=_num(str(-lead)), **values)
    return _part(_MATCH_LEVEL, **values)


def explain(ev: Evaluation, state: GameState, card: str | None, seat: int, players: tuple[str, ...],
            loss: float, loss_se: float, *, about_equal: bool = False, last_round: bool = False,
            match: MatchContext | None = None) -> Explanation:
    """The sentences and the three best choices of one valued (not forced) decision: what the played choice did,
    and, where another was better, what that one would have done; the likely next moves after each; the cost;
    with ``match``, where the match stands and what the choice does to it (``_match``)."""
    played, best = ev.choices[ev.played], ev.choices[ev.best]
    parts = [_what_it_does(state, card, played.choice, seat, players)]
    start = Start(state, card, last_round)
    if about_equal:
        order = by_margin(ev)
        other = best if ev.best != ev.played else ev.choices[order[1] if order[0] == ev.played else order[0]]
        apart = abs(played.margin - other.margin)
        k = decimals(loss_se)
        parts.append(_counted(_ABOUT_EQUAL, f"{apart:.{k}f}", played=_choice(played.choice, capital=True),
                              other=_choice(other.choice), se=_num(f"{loss_se:.{k}f}"),
                              chance={"list": [_part(_CHANCE, best_win=_num(f"{100 * other.win_prob:.0f}"),
                                                     played_win=_num(f"{100 * played.win_prob:.0f}"))]}))
    elif ev.best != ev.played:
        parts.append(_what_best_does(state, card, best.choice, seat, players))
        margins: dict[str, str | dict[str, Any]] = {
            "best_margin": _num(f"{best.margin:+.1f}"), "played_margin": _num(f"{played.margin:+.1f}"),
            "chance": _chance(best.win_prob, played.win_prob)}
        if best.margin < played.margin:  # the best by the chance of winning what is played, with fewer points
            parts.append(_counted(_WORTH_LESS, f"{played.margin - best.margin:.1f}",
                                  best=_choice(best.choice, capital=True), **margins))
        elif ev.exact:
            parts.append(_counted(_WORTH_EXACT, f"{loss:.1f}", best=_choice(best.choice, capital=True), **margins))
        else:
            k = decimals(loss_se)
            parts.append(_counted(_WORTH, f"{loss:.{k}f}", best=_choice(best.choice, capital=True),
                                  se=_num(f"{loss_se:.{k}f}"), **margins))
        for label in (played.choice, best.choice):
            after = _likely(start, label, players)
            if after:
                parts.append(after)
        extra = _expected_cards(state, seat, played, best)
        if extra:
            parts.append(extra)
    else:
        order = by_margin(ev)
        runner = ev.choices[order[1]] if order[0] == ev.played else ev.choices[order[0]]
        lead = played.margin - runner.margin
        if lead >= 0:
            parts.append(_counted(_WAS_BEST, f"{lead:.1f}", runner=_choice(runner.choice),
                                  played_margin=_num(f"{played.margin:+.1f}"),
                                  runner_margin=_num(f"{runner.margin:+.1f}"),
                                  win=_num(f"{100 * played.win_prob:.0f}")))
        else:  # the best by the chance of winning what is played, behind in points (``marks.pick``)
            parts.append(_counted(_WAS_BEST_CHANCE, f"{-lead:.1f}", runner=_choice(runner.choice),
                                  played_margin=_num(f"{played.margin:+.1f}"),
                                  runner_margin=_num(f"{runner.margin:+.1f}")))
    if match is not None and not about_equal:
        parts.append(_match(ev, state, seat, players, match))
    return Explanation(render(parts), top_choices(ev), tuple(parts))


class Valued(Protocol):
    """What ``explain_decision`` reads of a valued decision (``analyze.Decision``)."""

    @property
    def evaluation(self) -> Evaluation: ...
    @property
    def state(self) -> GameState: ...
    @property
    def card(self) -> str | None: ...
    @property
    def seat(self) -> int: ...
    @property
    def loss(self) -> float: ...
    @property
    def loss_se(self) -> float: ...
    @property
    def about_equal(self) -> bool: ...
    @property
    def last_round(self) -> bool: ...
    @property
    def match(self) -> MatchContext | None: ...


def explain_decision(d: Valued, players: tuple[str, ...]) -> Explanation:
    """``explain`` for a valued decision."""
    return explain(d.evaluation, d.state, d.card, d.seat, players, d.loss, d.loss_se, about_equal=d.about_equal,
                   last_round=d.last_round, match=d.match)
