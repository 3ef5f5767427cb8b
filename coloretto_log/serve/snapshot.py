"""The table as JSON for the page: what ``record`` shows on a terminal, as data.

Names are exact (the page puts them in as text, never as HTML); the page
only draws what is here and computes nothing of the game: ``offer`` is the
cards a tap may name at the prompt (the rules allow them), ``confirm`` the
question about a misplaced last-round card, ``games_changeable`` whether
``games N`` is still taken. The texts (prompt, progress, deck, card labels,
the lines shown) are in the language of ``tr``; the names of cards
(``name``), of phases and everything the page sends back stay the same in
every language.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import GOLDEN_JOKER, JOKER, KIND_INDEX, PLUS2, card_name
from ..core.errors import one_line
from ..core.ruleset import LAYOUTS
from ..lang import ENGLISH, Translator
from ..record import Phase, Recorder
from ..record.events import card_word, rules_words
from ..record.text import deck_text


def label(card: str, tr: Translator = ENGLISH) -> str:
    """What a button says for a card: its name in ``tr``'s language (English: ``cards.card_name``)."""
    return card_name(card) if tr is ENGLISH else card_word(card, tr)


def snapshot(rec: Recorder, version: int, shown: list[str], epoch: str, *,
             tr: Translator = ENGLISH, confirm: str | None = None) -> dict[str, Any]:  # fmt: skip
    """Everything the page draws, in the language of ``tr`` (the recorder's own ``tr`` is set to it while drawn).

    ``shown`` is the last lines every phone should see (a game's end, ...),
    ``confirm`` the question of ``Phase.CONFIRM`` in that language (default:
    the session's own).
    """
    rec.tr = tr
    prompt = rec.prompt()
    edition = rec.rules.edition
    out: dict[str, Any] = {
        "version": version,
        "epoch": epoch,
        "lang": tr.lang,
        "phase": rec.phase.value,
        "prompt": prompt.text,
        "hint_player": prompt.player,
        "game": rec.game_number,
        "games": rec.rules.games,
        "edition": edition.name,
        "table": rec.rules.table.name,
        "rules_words": rules_words(rec.rules, tr),  # the edition and table as the page's language names them
        "players": list(rec.players),
        "progress": rec.progress(),
        "complete": rec.complete,
        "cards": [{"name": c, "label": label(c, tr)} for c in edition.card_names()],
        "offer": list(rec.offer()),  # the cards a tap may name now: only what the rules allow
        "games_changeable": rec.games_changeable,
        "colours": list(edition.colours),
        "shown": shown,
        "standings": [
            {"rank": s.rank, "player": s.player, "total": s.total, "games": list(s.games)} for s in rec.standings()
        ],
    }
    if rec.players:
        layout = LAYOUTS[len(rec.players)]
        out["setup"] = {"removed": layout.removed, "starting": layout.starting}
    if rec.phase is Phase.CLAIM:
        out["claims_entered"] = rec.claims_entered
    caution = rec.confirming
    if caution is not None:
        out["confirm"] = one_line(confirm if confirm is not None else caution.message)
    state = rec.state
    if state is None:
        return out
    taken_by = rec.taken_by()
    best = rec.best_scores()
    shown_kinds = (*state.colours, JOKER, GOLDEN_JOKER, PLUS2)
    out.update(
        {
            "round": state.round,
            "deck": deck_text(state, tr),
            "cards_left": state.cards_left,
            "last_round": state.last_round,
            "lr_pending": state.lr_pending,
            "lr_mark": rec.last_round_mark,
            "extra_row": rec.extra_row,
            "current": None if state.over else state.current,
            "rows": [
                {
                    "n": i + 1,
                    "cards": [{"name": c, "label": label(c, tr)} for c in cards],
                    "limit": state.limits[i],
                    "taken_by": taken_by[i] if state.taken[i] else None,
                    "taken": state.taken[i],
                }
                for i, cards in enumerate(state.rows)
            ],
            "collections": [
                {
                    "player": name,
                    "best": best[seat],
                    "took": next((i + 1 for i, who in enumerate(taken_by) if who == name), None),
                    "cards": [
                        {"name": k, "label": label(k, tr), "count": state.collections[seat][KIND_INDEX[k]]}
                        for k in shown_kinds
                        if state.collections[seat][KIND_INDEX[k]]
                    ],
                }
                for seat, name in enumerate(rec.players)
            ],
        }
    )
    return out
