"""One decision deep on the evaluator: what each choice open to a player is worth.

For the player to move at a ``playout.Start`` (a public position), every
choice leads to positions the evaluator (``bots.evaluate``) values:

- **take** a row: the position after the take (with a golden joker, the
  expectation over the extra card, each kind weighted by how many of it are
  unseen);
- **draw**: the expectation over the card turned over (each kind weighted by
  how many are unseen; the last-round card first where it is due), the card
  going to the row that is best for the player by the evaluator;
- **row** for the card in hand: the position after it is placed.

``choice_values(start, choices)`` gives every choice's ``Values`` (each
seat's expected margin and win chance, the expectation over the cards and
the player's best row for each) in one pass of the model over all the
positions reached. Nothing random: the same position gives the same values.

``rollout_values(start, choices, seed, samples)`` plays each choice out
instead, on the same orders of the unseen cards, every seat ``greedy``, to
the end of the round (of the game near its end) and values the positions
there: what ``expert`` plays by (docs/design/evaluator.md measured both). With ``replies`` the first turns of
each playout are played by a stronger policy than greedy (``play_replies``:
the evaluator one decision deep, ``one_ply``, or ``strong``): ``expert``
plays one turn by ``strong`` (the design note's round 4).

Which of a seat's numbers counts as "best" is ``objective``: the win chance
plus ``MARGIN_WEIGHT`` (1) times the margin, so the margin decides and the
chance breaks near ties (the chances proved the worse guide).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import GOLDEN_JOKER, KINDS
from ..core.engine import Table
from ..core.rng import SplitMix64, nth_output
from .evaluate import Values, evaluate_many
from .evaluate.model import Model
from .players import GreedyBot, StrongBot, play_out, turned_up
from .playout import Choice, Start

__all__ = ["MARGIN_WEIGHT", "choice_values", "objective", "one_ply", "play_replies", "rollout_samples",
           "rollout_values", "strong_pick"]

_GREEDY = GreedyBot()
_RNG = SplitMix64(0)  # greedy draws nothing from it
_STRONG = StrongBot()

#: A point of expected margin counts as this much win chance.
MARGIN_WEIGHT = 1.0

# A choice's outcomes: (weight, the positions the player may pick from after it); its value is the
# weighted mean over outcomes of the best position for the player.
_Outcomes = list[tuple[float, list[Table]]]


def objective(values: Values, seat: int, margin_weight: float = MARGIN_WEIGHT) -> float:
    """What the search maximises for ``seat``: win chance plus ``margin_weight`` × margin."""
    return values.win[seat] + margin_weight * values.margin[seat]


def _unseen(start: Start) -> list[tuple[float, str]]:
    """The kinds of the unseen cards with their chance of coming next."""
    remaining = start.state.remaining
    total = sum(remaining)
    return [(n / total, KINDS[k]) for k, n in enumerate(remaining) if n]


def _distinct_rows(table: Table, rows: Sequence[int]) -> list[int]:
    """The rows among ``rows`` that differ (same cards, same limit: the first stands for both)."""
    seen: set[tuple[tuple[str, ...], int]] = set()
    out = []
    for i in rows:
        key = (tuple(sorted(table.rows[i])), table.limits[i])
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def _outcomes(start: Start, choice: Choice) -> _Outcomes:
    state = start.state
    seat = state.current
    kind, i = choice
    if kind == "row":
        table = Table(state)
        assert start.card is not None
        table.place(seat, i, start.card)
        return [(1.0, [table])]
    last = start.lr_at == 0  # the last-round card comes next
    if kind == "take":
        if GOLDEN_JOKER not in state.rows[i] or not any(state.remaining):
            table = Table(state)
            table.take(seat, i, None, False)
            return [(1.0, [table])]
        out: _Outcomes = []
        for p, card in _unseen(start):
            table = Table(state)
            table.take(seat, i, card, last)
            out.append((p, [table]))
        return out
    out = []
    for p, card in _unseen(start):
        turned = Table(state)
        turned.turn_over(card, last)
        open_rows = [r for r in range(len(turned.rows))
                     if not turned.taken[r] and len(turned.rows[r]) < turned.limits[r]]
        options = []
        for r in _distinct_rows(turned, open_rows):
            table = turned.copy()
            table.place(seat, r, card)
            options.append(table)
        out.append((p, options))
    return out


def choice_values(start: Start, choices: Sequence[Choice], margin_weight: float = MARGIN_WEIGHT,
                  model: Model | None = None) -> list[Values]:
    """Every choice's values at ``start`` for every seat: the expectation over the cards of the position
    the player then picks by ``objective`` (see the module's docstring)."""
    seat = start.state.current
    outcomes = [_outcomes(start, c) for c in choices]
    tables = [t for out in outcomes for _, options in out for t in options]
    values = iter(evaluate_many(tables, model))
    result = []
    for out in outcomes:
        n = start.state.players
        margin = [0.0] * n
        win = [0.0] * n
        for p, options in out:
            vs = [next(values) for _ in options]
            best = max(range(len(vs)), key=lambda k: (objective(vs[k], seat, margin_weight), -k))
            for s in range(n):
                margin[s] += p * vs[best].margin[s]
                win[s] += p * vs[best].win[s]
        result.append(Values(tuple(margin), tuple(win)))
    return result


def rollout_values(start: Start, choices: Sequence[Choice], seed: int, samples: int,
                   model: Model | None = None) -> list[Values]:
    """Every choice's values at ``start``, from ``samples`` orders of the unseen cards (the k-th drawn from
    the k-th output of ``SplitMix64(seed)``, the same orders for every choice): the choice, then every seat
    ``greedy`` to the end of the round, the evaluator at that point (the real values if the game ended);
    to the end of the game when the last round is under way or the last-round card is due within a round's
    worth of cards (there greedy playouts value a position better than the evaluator,
    docs/design/evaluator.md). ``model``: the evaluator's weights (default: the shipped ones)."""
    n = start.state.players
    out = []
    for vs in rollout_samples(start, choices, seed, range(samples), model):
        out.append(Values(tuple(sum(v.margin[s] for v in vs) / samples for s in range(n)),
                          tuple(sum(v.win[s] for v in vs) / samples for s in range(n))))
    return out


def one_ply(table: Table, card: str | None, model: Model | None = None,
            margin_weight: float = MARGIN_WEIGHT) -> Choice:
    """The choice of the player to move at ``table`` (``card``: the card in hand, turned over already) by
    ``choice_values``: the evaluator one decision deep, ties to the first."""
    start = Start(table.state())
    start.card = card
    choices = start.choices()
    if len(choices) == 1:
        return choices[0]
    seat = table.current
    values = choice_values(start, choices, margin_weight, model)
    return choices[max(range(len(choices)), key=lambda k: (objective(values[k], seat, margin_weight), -k))]


def strong_pick(table: Table, card: str | None, seed: int) -> Choice:
    """The choice of the player to move at ``table`` as ``strong`` makes it (its orders from ``seed``)."""
    rng = SplitMix64(seed)
    if card is not None:
        return ("row", _STRONG.place(table, card, rng) - 1)
    take = _STRONG.choose(table, rng)
    return ("draw", -1) if take is None else ("take", take.row - 1)


def play_replies(start: Start, choice: Choice, deck: list[str], stop: int, replies: int,
                 picks: dict[tuple[object, ...], Choice], model: Model | None = None, by: str = "one-ply") -> Table:
    """``Start.play_to`` with a stronger policy for the first turns: ``choice`` (a draw's card placed by
    the policy), then the next ``replies`` turns (a draw or a take, and the row for a card drawn) by the
    policy ``by`` (``"one-ply"``: ``one_ply``; ``"strong"``: ``strong_pick``), then every seat ``greedy``
    until round ``stop`` begins (0: the end of the game).

    ``picks`` keeps each choice the policy made, by the choice and the cards turned over so far (which,
    with both policies deterministic, fix the position): playouts on orders that begin alike ask once."""

    def pick(key: tuple[object, ...], card: str | None) -> Choice:
        got = picks.get(key)
        if got is None:
            got = picks[key] = (one_ply(table, card, model) if by == "one-ply"
                                else strong_pick(table, card, len(picks) + 1))
        return got

    base = start.state.turned
    table = Table(start.state)
    n = table.players
    kind, i = choice
    turns = 0
    if kind == "row":
        assert start.card is not None
        table.place(table.current, i, start.card)
        turns = 1
    while turns <= replies and not table.over and table.round != stop:
        seat = table.current
        if turns:
            kind, i = pick((choice, turns, tuple(deck[:table.turned - base])), None)
        turns += 1
        up = turned_up(deck, table.turned - base) if kind == "draw" or GOLDEN_JOKER in table.rows[i] else None
        if kind == "draw":
            if up is None:  # no card left to turn over: play stops here
                return table
            card, last = up
            table.turn_over(card, last)
            table.place(seat, pick((choice, turns, "row", tuple(deck[:table.turned - base])), card)[1], card)
        elif up is None:
            table.take(seat, i, None, False)
        else:
            table.take(seat, i, up[0], up[1])
    if not table.over and table.round != stop:
        play_out(table, deck, base, [_GREEDY] * n, [_RNG] * n, stop)
    return table


def rollout_samples(start: Start, choices: Sequence[Choice], seed: int, orders: Sequence[int],
                    model: Model | None = None, blend: float = 0.0, replies: int = 0,
                    by: str = "one-ply") -> list[list[Values]]:
    """``rollout_values``' single playouts: for each choice, the values reached on each order ``k`` of
    ``orders`` (the order drawn from the (k+1)-th output of ``SplitMix64(seed)``), in that order.

    ``blend`` above 0: each playout that stops at the end of the round is also played on, greedily, to the
    end of the game on the same order, and its value is ``1 - blend`` times the evaluator's at the end of
    the round plus ``blend`` times the real values at the end of the game."""
    stop = start.stop_round()  # the end of the round, or of the game once its last round is under way or due next
    blend = blend if stop else 0.0
    need = start.need(0 if blend else stop)
    decks = [start.deal(nth_output(seed, k + 1), need) for k in orders]
    if replies:
        picks: dict[tuple[object, ...], Choice] = {}
        tables = [play_replies(start, choice, deck, stop, replies, picks, model, by) for choice in choices
                  for deck in decks]
    else:
        tables = [start.play_to(choice, deck, stop) for choice in choices for deck in decks]
    m = len(decks)
    values = evaluate_many(tables, model)
    if blend:
        n = start.state.players
        ends = []
        for j, table in enumerate(tables):
            end = table.copy()
            if not end.over:
                play_out(end, decks[j % m], start.state.turned, [_GREEDY] * n, [_RNG] * n)
            ends.append(end)
        finals = evaluate_many(ends, model)
        values = [Values(tuple((1 - blend) * a + blend * b for a, b in zip(v.margin, f.margin)),
                         tuple((1 - blend) * a + blend * b for a, b in zip(v.win, f.win)))
                  for v, f in zip(values, finals)]
    return [values[c * m:(c + 1) * m] for c in range(len(choices))]
