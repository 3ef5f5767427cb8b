"""The rules engine: an immutable game state and four functions over it.

``GameState`` is a value (a named tuple). The API, in the spirit of OpenSpiel
and python-chess:

- ``new_game(...)``: the state before the first move;
- ``legal_actions(state)``: the decisions open to the player to move;
- ``check(state, move)``: ``None`` or the ``Violation`` (rule id, message)
  that the move breaks, in the precedence order of LOG_FORMAT.md §3;
- ``resolve(state, move)``: the move with the cards it turns over filled in
  from the known deck (seeded games);
- ``apply(state, move)``: the next state (trusted: call ``check`` first);
- ``play(state, move)``: checked ``resolve`` + ``apply``, raising
  ``IllegalMove``.

The engine knows the deck's order only in a seeded game. In a recorded game
it knows the deck's composition and checks that every card named could still
be in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import EMPTY_COUNTS, GOLDEN_JOKER, KIND_INDEX, LAST_ROUND, counts_of
from .ruleset import LAYOUTS, RuleSet, colours_in_play, deck_counts


class Draw(NamedTuple):
    """``seat`` turns over a card and puts it in ``row`` (numbered from 1)."""

    seat: int
    row: int
    card: str | None = None
    last_round: bool | None = None


class Take(NamedTuple):
    """``seat`` takes ``row``; ``extra`` is the golden joker's extra card."""

    seat: int
    row: int
    extra: str | None = None
    last_round: bool | None = None


Move = Draw | Take


class Violation(NamedTuple):
    """A broken rule: its stable id (LOG_FORMAT.md §3) and a one-line message."""

    rule: str
    message: str


class IllegalMove(ValueError):
    """Raised by ``play`` for a move that breaks a rule."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(f"[{violation.rule}] {violation.message}")
        self.violation = violation


class GameState(NamedTuple):
    """Everything about a game in progress. Treat as immutable."""

    rules: RuleSet
    players: int
    removed: tuple[str, ...]
    limits: tuple[int, ...]  # capacity of each row
    rows: tuple[tuple[str, ...], ...]  # cards in each row this round (a taken row is empty)
    taken: tuple[bool, ...]  # rows taken this round
    done: tuple[bool, ...]  # seats that have taken a row this round
    collections: tuple[tuple[int, ...], ...]  # per seat, counts by kind (cards.KINDS)
    remaining: tuple[int, ...]  # cards not yet turned over, by kind (no last-round card)
    lr_pending: bool  # the last-round card has not been turned over yet
    turned: int  # cards turned over so far, the last-round card included
    total: int  # the whole deck, the last-round card included
    deck: tuple[str, ...] | None  # top first; None when the order is unknown
    current: int  # seat to move
    round: int  # from 1
    last_round: bool  # the last-round card has come out: this round is the last
    over: bool
    discarded: tuple[int, ...]  # counts by kind of cards removed with a 2-player leftover row

    @property
    def lr_expected_at(self) -> int:
        """How many cards should be turned over before the last-round card."""
        return self.total - 1 - self.rules.under

    @property
    def colours(self) -> tuple[str, ...]:
        """Colours in play in this game, edition order."""
        return colours_in_play(self.rules.edition, self.removed)

    @property
    def cards_left(self) -> int:
        """Cards not yet turned over (the last-round card included while it is pending)."""
        return self.total - self.turned

    def is_over(self) -> bool:
        return self.over


def new_game(
    rules: RuleSet,
    players: int,
    *,
    removed: tuple[str, ...],
    starting: tuple[tuple[str, ...], ...],
    first: int,
    deck: tuple[str, ...] | None = None,
) -> GameState:
    """The state before the first move. Inputs are trusted (validate them first)."""
    layout = LAYOUTS[players]
    limits = layout.row_limits
    starting_cards = [c for cards in starting for c in cards]
    remaining = deck_counts(rules.edition, removed, starting_cards)
    collections = tuple(counts_of(cards) for cards in starting)
    return GameState(
        rules=rules,
        players=players,
        removed=tuple(removed),
        limits=limits,
        rows=((),) * len(limits),
        taken=(False,) * len(limits),
        done=(False,) * players,
        collections=collections,
        remaining=remaining,
        lr_pending=True,
        turned=0,
        total=sum(remaining) + 1,
        deck=deck,
        current=first,
        round=1,
        last_round=False,
        over=False,
        discarded=EMPTY_COUNTS,
    )


def legal_actions(state: GameState) -> tuple[Move, ...]:
    """Every decision open to the player to move, draws first, rows in order.

    The moves carry no cards: ``resolve`` fills them in a seeded game.
    """
    if state.over:
        return ()
    seat = state.current
    rows, taken, limits = state.rows, state.taken, state.limits
    draws = tuple(
        Draw(seat, i + 1) for i in range(len(rows)) if not taken[i] and len(rows[i]) < limits[i]
    )
    takes = tuple(Take(seat, i + 1) for i in range(len(rows)) if not taken[i] and rows[i])
    return draws + takes


def _check_card(state: GameState, card: str | None, last_round: bool | None, what: str) -> Violation | None:
    """The card checks of a card turned over (a draw's card or a take's extra)."""
    turned = state.turned
    if state.deck is not None:
        deck = state.deck
        if turned >= len(deck):
            return Violation("deck-empty", f"no card is left in the deck for the {what}")
        expected_lr = deck[turned] == LAST_ROUND
        if expected_lr:
            if turned + 1 >= len(deck):
                return Violation("deck-empty", f"no card is left after the last-round card for the {what}")
            expected = deck[turned + 1]
        else:
            expected = deck[turned]
        if last_round is not None and last_round != expected_lr:
            said = "came" if last_round else "did not come"
            actually = "comes" if expected_lr else "does not come"
            return Violation(
                "card-mismatch",
                f"the log says the last-round card {said} first, but in the deck it {actually} "
                f"before the {what} (card {turned + 1} of the deck)",
            )
        if card is not None and card != expected:
            return Violation("card-mismatch", f"the {what} is {card}, but the deck yields {expected}")
        return None
    if turned >= state.total:
        return Violation("deck-empty", f"every card of the deck has been turned over; none is left for the {what}")
    if card is None:
        return None  # the caller reports missing-card / missing-extra
    if last_round:
        if not state.lr_pending:
            return Violation("impossible-card", "a second last-round card: it has already come out")
        if turned + 1 >= state.total:
            return Violation("deck-empty", f"no card is left after the last-round card for the {what}")
    if card == LAST_ROUND:
        return Violation(
            "impossible-card",
            f'the last-round card is not placed; mark it with "last_round": true and name the {what} after it',
        )
    if card not in state.rules.edition.card_names():
        return Violation("impossible-card", f"{card} is not a card of the {state.rules.edition.name} edition")
    if card in state.removed:
        return Violation("impossible-card", f"{card} was removed from this game at setup")
    if state.remaining[KIND_INDEX[card]] == 0:
        return Violation("impossible-card", f"one {card} too many: every {card} of the deck is already out")
    return None


def check(state: GameState, move: Move) -> Violation | None:
    """The first rule ``move`` breaks, in the order of LOG_FORMAT.md §3, or None."""
    if state.over:
        return Violation("game-over", "the game is over: its last round has ended")
    seat = move.seat
    if not 0 <= seat < state.players:
        return Violation("unknown-player", f"seat {seat} is not at this table")
    if state.done[seat]:
        return Violation("not-your-turn", "this player has already taken a row this round")
    if seat != state.current:
        return Violation("not-your-turn", "it is not this player's turn")
    row = move.row
    rows, limits, taken = state.rows, state.limits, state.taken
    if not 1 <= row <= len(rows):
        return Violation("unknown-row", f"row {row} does not exist: rows are 1 to {len(rows)}")
    i = row - 1
    if isinstance(move, Draw):
        if all(taken[k] or len(rows[k]) >= limits[k] for k in range(len(rows))):
            return Violation("must-take", "every remaining row is full: the player must take one")
        if taken[i]:
            return Violation("row-taken", f"row {row} has already been taken this round")
        if len(rows[i]) >= limits[i]:
            n = limits[i]
            return Violation("row-full", f"row {row} already holds {n} card{'s' if n != 1 else ''}")
        violation = _check_card(state, move.card, move.last_round, "card drawn")
        if violation is None and state.deck is None and move.card is None:
            return Violation("missing-card", 'a draw in a recorded game must name its "card"')
        return violation
    if taken[i]:
        return Violation("row-taken", f"row {row} has already been taken this round")
    if not rows[i]:
        return Violation("row-empty", f"row {row} is empty and cannot be taken")
    if GOLDEN_JOKER not in rows[i]:
        if move.extra is not None or move.last_round is not None:
            field = "extra" if move.extra is not None else "last_round"
            return Violation("unexpected-extra", f'"{field}" on a take of row {row}, which holds no golden joker')
        return None
    violation = _check_card(state, move.extra, move.last_round, "golden joker's extra card")
    if violation is None and state.deck is None and move.extra is None:
        return Violation("missing-extra", f'row {row} holds the golden joker: the take must name its "extra" card')
    return violation


def resolve(state: GameState, move: Move) -> Move:
    """The move with its card (or extra) and last-round flag filled in.

    In a seeded game they come from the deck; in a recorded game they are the
    move's own (an absent flag means False). Call after ``check``.
    """
    if isinstance(move, Take):
        if GOLDEN_JOKER not in state.rows[move.row - 1]:
            return move  # check() refuses an extra or last_round on such a take
        card, lr = _turn_over(state, move.extra, move.last_round)
        return move._replace(extra=card, last_round=lr)
    card, lr = _turn_over(state, move.card, move.last_round)
    return move._replace(card=card, last_round=lr)


def next_card(state: GameState) -> tuple[str, bool]:
    """The card a seeded game turns over next, and whether the last-round card comes out first."""
    return _turn_over(state, None, None)


def _turn_over(state: GameState, card: str | None, last_round: bool | None) -> tuple[str, bool]:
    deck = state.deck
    if deck is None:
        assert card is not None, "a recorded move must name its card"
        return card, bool(last_round)
    t = state.turned
    if deck[t] == LAST_ROUND:
        return deck[t + 1], True
    return deck[t], False


def apply(state: GameState, move: Move) -> GameState:
    """The state after a resolved, legal ``move`` (trusted: no checks).

    Hot path of replay and simulation: states are built positionally.
    """
    (rules, players, removed, limits, rows, taken, done, collections, remaining,
     lr_pending, turned, total, deck, _current, round_, last_round, over, discarded) = state
    seat = move.seat
    i = move.row - 1
    if type(move) is Draw:
        card = move.card
        assert card is not None, "apply needs a resolved move"
        if move.last_round:
            turned += 1
            lr_pending = False
            last_round = True
        k = KIND_INDEX[card]
        remaining = remaining[:k] + (remaining[k] - 1,) + remaining[k + 1 :]
        rows = rows[:i] + (rows[i] + (card,),) + rows[i + 1 :]
        return _new(GameState, (
            rules, players, removed, limits, rows, taken, done, collections, remaining,
            lr_pending, turned + 1, total, deck, _next_seat(done, seat), round_, last_round, over, discarded,
        ))

    got = list(collections[seat])
    for c in rows[i]:
        got[KIND_INDEX[c]] += 1
    extra = move.extra  # type: ignore[union-attr]
    if extra is not None:
        if move.last_round:
            turned += 1
            lr_pending = False
            last_round = True
        k = KIND_INDEX[extra]
        remaining = remaining[:k] + (remaining[k] - 1,) + remaining[k + 1 :]
        got[k] += 1
        turned += 1
    collections = collections[:seat] + (tuple(got),) + collections[seat + 1 :]
    done = done[:seat] + (True,) + done[seat + 1 :]
    taken = taken[:i] + (True,) + taken[i + 1 :]
    rows = rows[:i] + ((),) + rows[i + 1 :]
    if not all(done):
        return _new(GameState, (
            rules, players, removed, limits, rows, taken, done, collections, remaining,
            lr_pending, turned, total, deck, _next_seat(done, seat), round_, last_round, over, discarded,
        ))
    # The round ends: rows not taken (2 players) leave the game.
    leftovers = [c for cards in rows for c in cards]
    if leftovers:
        d = list(discarded)
        for c in leftovers:
            d[KIND_INDEX[c]] += 1
        discarded = tuple(d)
    n_rows = len(limits)
    return _new(GameState, (
        rules, players, removed, limits, ((),) * n_rows, (False,) * n_rows, (False,) * players, collections,
        remaining, lr_pending, turned, total, deck, seat, round_ if last_round else round_ + 1, last_round,
        last_round, discarded,
    ))


_new = tuple.__new__


def _next_seat(done: tuple[bool, ...], seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not taken a row this round."""
    n = len(done)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not done[s]:
            return s
    return seat


def fast_forward(state: GameState, moves: Sequence[Move], start: int, out: list[Move]) -> tuple[GameState, int]:
    """Apply ``moves[start:]`` while each is plainly legal; stop before the first that is not.

    The fast path of replay (python-chess's ``push`` beside ``parse_san``):
    one loop over mutable locals instead of ``check`` + ``resolve`` +
    ``apply`` per move. It stops, without applying, at any move that breaks a
    rule *or* needs a closer look: the last-round card, a golden joker's row,
    anything unusual. The caller handles that move with ``check`` and goes on.
    Resolved moves are appended to ``out``; returns the state reached and the
    index of the first move not applied. Equal to the checked path by test.
    """
    (rules, players, removed, limits, rows_t, taken_t, done_t, collections_t, remaining_t,
     lr_pending, turned, total, deck, current, round_, last_round, over, discarded) = state
    rows = [list(r) for r in rows_t]
    taken = list(taken_t)
    done = list(done_t)
    cols = [list(c) for c in collections_t]
    rem = list(remaining_t)
    n_rows = len(limits)
    kind_index = KIND_INDEX
    deck_len = len(deck) if deck is not None else 0
    i = start
    n = len(moves)
    draw_type = Draw
    while i < n and not over:
        m = moves[i]
        seat, row_no, given, lr_given = m  # a Take's third field is its extra card
        if seat != current:
            break
        r = row_no - 1
        if r < 0 or r >= n_rows or taken[r]:
            break
        row = rows[r]
        if type(m) is draw_type:
            if len(row) >= limits[r] or lr_given:
                break
            if deck is not None:
                if turned >= deck_len:
                    break
                card = deck[turned]
                if card == LAST_ROUND or (given is not None and given != card):
                    break
            else:
                card = given  # type: ignore[assignment]
                if card is None or turned >= total:
                    break
            k = kind_index.get(card)
            if k is None or rem[k] == 0:
                break
            rem[k] -= 1
            turned += 1
            row.append(card)
            out.append(_new(draw_type, (seat, row_no, card, False)))
        else:
            if not row or given is not None or lr_given is not None or GOLDEN_JOKER in row:
                break
            got = cols[seat]
            for c in row:
                got[kind_index[c]] += 1
            rows[r] = []
            taken[r] = True
            done[seat] = True
            out.append(m)
            if all(done):
                leftovers = [c for cards in rows for c in cards]
                if leftovers:
                    d = list(discarded)
                    for c in leftovers:
                        d[kind_index[c]] += 1
                    discarded = tuple(d)
                rows = [[] for _ in range(n_rows)]
                taken = [False] * n_rows
                done = [False] * players
                if last_round:
                    over = True
                else:
                    round_ += 1
                current = seat
                i += 1
                continue
        # next seat clockwise that has not taken a row this round
        s = seat
        for _ in range(players):
            s = s + 1 if s + 1 < players else 0
            if not done[s]:
                break
        current = s
        i += 1
    new = _new(GameState, (
        rules, players, removed, limits, tuple(map(tuple, rows)), tuple(taken), tuple(done),
        tuple(map(tuple, cols)), tuple(rem), lr_pending, turned, total, deck, current, round_,
        last_round, over, discarded,
    ))
    return new, i


def play(state: GameState, move: Move) -> tuple[GameState, Move]:
    """Check, resolve and apply ``move``; raise ``IllegalMove`` if it breaks a rule."""
    violation = check(state, move)
    if violation is not None:
        raise IllegalMove(violation)
    resolved = resolve(state, move)
    return apply(state, resolved), resolved


def card_total(state: GameState) -> tuple[int, ...]:
    """Every card accounted for, by kind: unturned, rows, collections, discarded (conservation)."""
    total = list(state.remaining)
    for cards in state.rows:
        for c in cards:
            total[KIND_INDEX[c]] += 1
    for counts in (*state.collections, state.discarded):
        for k, n in enumerate(counts):
            total[k] += n
    return tuple(total)
