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

``top_choices`` gives the best three choices, best first, with their values.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import KINDS, card_name, is_colour
from ..core.engine import GameState
from . import bots
from .estimate import ChoiceValue, Evaluation

__all__ = ["Explanation", "explain", "top_choices"]

TOP = 3


@dataclass(frozen=True, slots=True)
class Explanation:
    text: str
    choices: tuple[ChoiceValue, ...]  # the best three, best first


def ranked(ev: Evaluation) -> list[int]:
    """Choice indices, best margin first (ties in choice order)."""
    return sorted(range(len(ev.choices)), key=lambda k: (-ev.choices[k].margin, k))


def top_choices(ev: Evaluation, n: int = TOP) -> tuple[ChoiceValue, ...]:
    return tuple(ev.choices[k] for k in ranked(ev)[:n])


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(card_name(c) for c in cards) or "nothing"


def _gain(state: GameState, seat: int, cards: tuple[str, ...]) -> int:
    """What ``cards`` would add to ``seat``'s score now."""
    scores = bots.scores_for(state)
    have = list(state.collections[seat])
    before = scores[bots.pack(have)]
    for c in cards:
        have[KINDS.index(c)] += 1
    return scores[bots.pack(have)] - before


def _next_seat(state: GameState, seat: int) -> int | None:
    n = state.players
    for step in range(1, n):
        s = (seat + step) % n
        if not state.done[s]:
            return s
    return None


def _signed(x: float) -> str:
    return f"{x:+.0f}" if abs(x - round(x)) < 1e-9 else f"{x:+.1f}"


def _what_it_does(state: GameState, card: str | None, label: str, seat: int, players: tuple[str, ...]) -> str:
    """The played choice at the table, in words."""
    name = players[seat]
    nxt = _next_seat(state, seat)
    open_rows = [i for i in range(len(state.rows)) if not state.taken[i]]
    if label.startswith("take row "):
        i = int(label.split()[-1]) - 1
        got = state.rows[i]
        words = f"{name} took row {i + 1} ({_cards(got)}), {_signed(_gain(state, seat, got))} to their score now"
        left = [r for r in open_rows if r != i and state.rows[r]]
        if nxt is None or sum(1 for s in range(state.players) if not state.done[s]) == 1:
            words += "; this ended the game" if state.last_round else "; this ended the round"
        elif left:
            worth = max(left, key=lambda r: (_gain(state, nxt, state.rows[r]), -r))
            words += (f", leaving row {worth + 1} ({_cards(state.rows[worth])}) to {players[nxt]}, "
                      f"worth {_signed(_gain(state, nxt, state.rows[worth]))} to them")
        return words
    if label == "draw":
        best_take = max((r for r in open_rows if state.rows[r]), key=lambda r: _gain(state, seat, state.rows[r]),
                        default=None)
        if best_take is None:
            return f"{name} drew (no row held cards)"
        return (f"{name} drew instead of taking a row; the best row for them, row {best_take + 1} "
                f"({_cards(state.rows[best_take])}), was worth {_signed(_gain(state, seat, state.rows[best_take]))}"
                " to their score then")
    # the row for the card in hand
    assert card is not None
    i = int(label.split()[-1]) - 1
    row = (*state.rows[i], card)
    words = f"{name} put {card_name(card)} in row {i + 1}, making it {_cards(row)}"
    if nxt is not None:
        words += f", worth {_signed(_gain(state, nxt, row))} to {players[nxt]} who plays next"
    if len(row) >= state.limits[i]:
        words += "; the row is full, closed to drawing"
    return words


def _own_colours(state: GameState, seat: int) -> list[int]:
    counts = state.collections[seat]
    held = [k for k, name in enumerate(KINDS) if is_colour(name) and counts[k] > 0]
    return sorted(held, key=lambda k: (-counts[k], k))[:3]


def _expected_cards(state: GameState, seat: int, played: ChoiceValue, best: ChoiceValue) -> str:
    """The player's colours expected at the end after the played choice, against after the best one."""
    if not played.cards or not best.cards:
        return ""
    parts = []
    for k in _own_colours(state, seat):
        diff = played.cards[k] - best.cards[k]
        if abs(diff) >= 0.1:
            parts.append(f"{abs(diff):.1f} {'more' if diff > 0 else 'fewer'} {card_name(KINDS[k])}")
    if not parts:
        return ""
    return f"By the end they could expect {', '.join(parts)} (colours they collect) than after {best.choice}."


def explain(ev: Evaluation, state: GameState, card: str | None, seat: int, players: tuple[str, ...],
            loss: float, loss_se: float) -> Explanation:
    """The sentence and the three best choices of one valued (not forced) decision."""
    played, best = ev.choices[ev.played], ev.choices[ev.best]
    sentences = [_what_it_does(state, card, played.choice, seat, players) + "."]
    noise = "exactly" if ev.exact else f"± {loss_se:.1f}"
    if ev.best != ev.played:
        sentences.append(
            f"{best.choice.capitalize()} was worth {loss:.1f} {noise} points more of expected margin "
            f"({best.margin:+.1f} against {played.margin:+.1f}), win chance {100 * best.win_prob:.0f}% against "
            f"{100 * played.win_prob:.0f}%."
        )
        extra = _expected_cards(state, seat, played, best)
        if extra:
            sentences.append(extra)
    else:
        order = ranked(ev)
        runner = ev.choices[order[1]] if order[0] == ev.played else ev.choices[order[0]]
        lead = played.margin - runner.margin
        sentences.append(
            f"It was the best choice: {lead:.1f} points of expected margin ahead of {runner.choice} "
            f"({played.margin:+.1f} against {runner.margin:+.1f}), win chance {100 * played.win_prob:.0f}%."
        )
    return Explanation(" ".join(sentences), top_choices(ev))
