"""A move's story told in a reader's language: ``replay --moves`` prints it, as the viewer page shows it.

``report.timeline`` writes each move's story as phrases (English templates and
their values); this fills each template in ``tr``'s language, with the cards
by their names in it and lists joined its way (English: the narrative
itself, ``timeline.tell``). The page does the same in the browser
(``assets/narrative.js``).
"""

from __future__ import annotations

from ..core.cards import card_name
from ..lang import ENGLISH, N_, Translator
from ..report.timeline import HAND, JOINS, Cards, Hands, Phrase, Value, tell, winners

__all__ = ["scores_told", "told"]


def _value(value: Value, tr: Translator) -> str:
    if isinstance(value, Cards):
        return tr.gettext(JOINS[value.join]).join(tr.gettext(card_name(c)) for c in value.cards)
    if isinstance(value, Hands):
        comma = JOINS["comma"]  # a name, not a literal, in the call: Babel 2.12's extractor took "comma" for a message
        return tr.gettext(comma).join(
            tr.t(HAND, player=player, cards=_value(Cards(cards, "and"), tr)) for player, cards in value.hands
        )
    return str(value)


def told(story: tuple[Phrase, ...], tr: Translator = ENGLISH) -> str:
    """The story of a move (or a setup) as one line in ``tr``'s language, its phrases joined by `` · ``."""
    if tr is ENGLISH:
        return tell(story)
    return " · ".join(tr.t(p.text, **{k: _value(v, tr) for k, v in p.values}) for p in story)


def scores_told(players: tuple[str, ...], scores: tuple[int, ...], tr: Translator = ENGLISH, *,
                final: bool = True) -> str:  # fmt: skip
    """``Aiko 41 · Boris 37 — Aiko wins`` in ``tr``'s language (``Aiko and Boris tie``; ``Aiko leads``)."""
    body = " · ".join(f"{p} {s}" for p, s in zip(players, scores))
    top = winners(players, scores)
    if len(top) == 1:
        verdict = tr.t(N_("{player} wins") if final else N_("{player} leads"), player=top[0])
    else:
        verdict = tr.t(N_("{players} and {last} tie"), players=tr.join(top[:-1]), last=top[-1])
    return f"{body} — {verdict}"
