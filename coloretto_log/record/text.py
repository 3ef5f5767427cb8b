"""The recorder's events as plain text: what ``record`` prints and ``serve`` shows.

Every line is one line of plain text: players' names and messages have their
control characters escaped (``one_line``).
"""

from __future__ import annotations

from ..core.engine import GameState
from ..core.errors import one_line
from ..core.scoring import PLUS2_POINTS, Assignment
from ..lang import ENGLISH, Translator
from .events import (
    Caution,
    ClaimVerdicts,
    Event,
    GameOver,
    GameStart,
    Help,
    MatchOver,
    Refused,
    Standing,
    card_word,
)


def assignment_text(a: Assignment, tr: Translator = ENGLISH) -> str:
    """``41 = green 6 (+21), yellow 3+1J (+10), ... , "+2" x1 (+2)`` (English); each part in ``tr``'s words,
    the parts joined the language's way (``黄 3＋ジョーカー1（+10）、＋2点カード×1（+2）``)."""
    parts = []
    for cs in a.breakdown:
        colour = card_word(cs.colour, tr)
        part = (tr.t("{colour} {cards}+{jokers}J", colour=colour, cards=cs.cards, jokers=cs.jokers) if cs.jokers
                else f"{colour} {cs.cards}")  # fmt: skip
        parts.append(tr.t("{part} ({points})", part=part, points=_signed(cs.points)))
    if a.plus2_points:
        part = tr.t('"+2" x{n}', n=a.plus2_points // PLUS2_POINTS)
        parts.append(tr.t("{part} ({points})", part=part, points=_signed(a.plus2_points)))
    return f"{a.score} = " + (tr.join(parts) if parts else tr.gettext("no cards"))


def _signed(points: int) -> str:
    return f"{points:+d}"


def standings_lines(rows: tuple[Standing, ...], tr: Translator = ENGLISH) -> list[str]:
    width = max(len(one_line(s.player)) for s in rows)
    return [
        f"  {s.rank}. {one_line(s.player):<{width}} {s.total:>4}"
        + ("  " + tr.t("({games})", games=tr.join(map(str, s.games))) if len(s.games) > 1 else "")
        for s in rows
    ]


def event_lines(event: Event, tr: Translator = ENGLISH) -> list[str]:
    """An event as plain lines (piped mode, and the text of the terminal's panels).

    Every line is one line of plain text: players' names and messages have
    their control characters escaped (``one_line``).
    """
    return [one_line(line) for line in _event_lines(event, tr)]


def _event_lines(event: Event, tr: Translator) -> list[str]:
    if isinstance(event, GameOver):
        names = [one_line(p) for p in event.players]
        width = max(len(p) for p in names)
        out = [tr.t("Game {game} is over. Best scores (jokers and positive colours chosen optimally):", game=event.game)]
        for name, a in zip(names, event.scores):
            out.append(f"  {name:<{width}} {assignment_text(a, tr)}")
        n = len(event.standings[0].games) if event.standings else 0
        out.append(tr.nt("Match after {n} game:", "Match after {n} games:", n))
        out.extend(standings_lines(event.standings, tr))
        return out
    if isinstance(event, ClaimVerdicts):
        out = [tr.t("Written scores, game {game}:", game=event.game)]
        for v in event.verdicts:
            claim = v.claim.score if v.claim is not None else None
            if v.agrees:
                out.append(tr.t("  {player} wrote {claim}: agrees with the optimum", player=v.player, claim=claim))
            elif tr is ENGLISH:
                out.append(f"  {v.player} wrote {claim}: {v.status}. {v.problems[0].message}")
            else:
                out.append(tr.t("  {player} wrote {claim}: the best score is {best} [{rule}]", player=v.player,
                                claim=claim, best=v.optimal.score, rule=v.problems[0].rule))  # fmt: skip
        return out
    if isinstance(event, MatchOver):
        return [tr.gettext("The match is complete. Totals and ranking:"), *standings_lines(event.standings, tr)]
    if isinstance(event, GameStart):
        return [tr.t("Game {game} of {games}: new setup.", game=event.game, games=event.games)]
    if isinstance(event, Help):
        return event.text.splitlines()
    if isinstance(event, (Refused, Caution)):
        return [event.line(tr)]
    return [event.text]


def deck_text(state: GameState, tr: Translator = ENGLISH) -> str:
    """Where the deck stands: cards to turn over before the last-round card, or the last round."""
    under = state.rules.under
    if not state.lr_pending:
        return tr.gettext("Last round: the last-round card is out")
    due = state.lr_expected_at - state.turned
    if due > 0:
        return tr.nt("{n} card to turn over before the last-round card ({under} under it)",
                     "{n} cards to turn over before the last-round card ({under} under it)", due, under=under)  # fmt: skip
    return tr.t("the last-round card is due (it comes with {under} cards under it)", under=under)
