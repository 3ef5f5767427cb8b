"""The rules engine: an immutable game state and four functions over it.

``GameState`` is a value (a named tuple). The API, in the spirit of OpenSpiel
and python-chess:

- ``new_game(...)``: the state before the first move;
- ``legal_actions(state)``: the decisions open to the player to move;
- ``check(state, move)``: ``None`` or the ``Violation`` (rule id, message)
  that the move breaks, in the precedence order of docs/format.md §3;
- ``resolve(state, move)``: the move with the cards it turns over filled in
  from the known deck (seeded games);
- ``apply(state, move)``: the next state (trusted: call ``check`` first);
- ``play(state, move)``: checked ``resolve`` + ``apply``, raising
  ``IllegalMove``.

Every state change goes through ``Table``, a game in progress as mutable
lists: ``turn_over`` and ``place`` (a draw), ``take`` (and the end of a
round). ``apply`` is one step on a table made from the state;
``fast_forward`` (replay's trusted path) and the bots' game loop
(``bots.players.play_to_end``) run many steps on one table. ``View`` is what a
player reads: a ``GameState`` or a ``Table``.

The engine knows the deck's order only in a seeded game. In a recorded game
it knows the deck's composition and checks that every card named could still
be in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

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
    """A broken rule: its stable id (docs/format.md §3) and a one-line message."""

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


_new = tuple.__new__  # a named tuple's own constructor, without its keyword handling
_new_table = object.__new__


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
    limits = LAYOUTS[players].row_limits
    starting_cards = [c for cards in starting for c in cards]
    remaining = deck_counts(rules.edition, removed, starting_cards)
    table = Table.__new__(Table)
    table.rules = rules
    table.players = players
    table.removed = tuple(removed)
    table.limits = limits
    table.rows = [()] * len(limits)
    table.taken = [False] * len(limits)
    table.done = [False] * players
    table.collections = [counts_of(cards) for cards in starting]
    table.remaining = list(remaining)
    table.lr_pending = True
    table.turned = 0
    table.total = sum(remaining) + 1
    table.deck = deck
    table.current = first
    table.round = 1
    table.last_round = False
    table.over = False
    table.discarded = EMPTY_COUNTS
    return table.state()


class Table:
    """A game in progress as one mutable working copy: the engine's only bookkeeping.

    The state changes of the game exist here and nowhere else: ``turn_over``
    (a card comes off the deck, the last-round card first if it lies on top),
    ``place`` (the card goes to a row: the rest of a draw), ``take`` (a row,
    and the golden joker's extra card, go to a player) and the end of a round
    inside ``take``. ``apply``, ``fast_forward``, the bots' view of a card
    just turned over and every playout (``bots.players``) go through them.

    It holds the same fields as ``GameState``, with ``rows``, ``taken``,
    ``done``, ``collections`` and ``remaining`` as lists changed in place;
    each row and each collection is still a tuple, replaced when it changes,
    and ``collections`` is a new list after every take, so that a reader may
    keep what it computed from them while they stay the same objects (the
    bots do). ``Table(state)`` starts from a state, ``state()`` gives the
    state reached. A bot may read a table as its view of the game (with
    ``deck`` None): it never writes to it. Nothing here checks a rule: call
    ``check`` first, or test as ``fast_forward`` does.
    """

    __slots__ = (
        "collections",
        "current",
        "deck",
        "discarded",
        "done",
        "last_round",
        "limits",
        "lr_pending",
        "over",
        "players",
        "remaining",
        "removed",
        "round",
        "rows",
        "rules",
        "taken",
        "total",
        "turned",
    )  # fmt: skip

    rules: RuleSet
    players: int
    removed: tuple[str, ...]
    limits: tuple[int, ...]
    rows: list[tuple[str, ...]]
    taken: list[bool]
    done: list[bool]
    collections: list[tuple[int, ...]]
    remaining: list[int]
    lr_pending: bool
    turned: int
    total: int
    deck: tuple[str, ...] | None
    current: int
    round: int
    last_round: bool
    over: bool
    discarded: tuple[int, ...]

    def __init__(self, state: GameState) -> None:
        # By position: with ``state()`` the one place that spells GameState's field
        # order. Both run once per ``apply``, the engine's hot path (by name costs
        # a third of ``apply``).
        (self.rules, self.players, self.removed, self.limits, rows, taken, done, collections, remaining,
         self.lr_pending, self.turned, self.total, self.deck, self.current, self.round, self.last_round,
         self.over, self.discarded) = state  # fmt: skip
        self.rows = list(rows)
        self.taken = list(taken)
        self.done = list(done)
        self.collections = list(collections)
        self.remaining = list(remaining)

    def copy(self) -> Table:
        """A second table at the same point, changed independently of this one (a look-ahead's)."""
        other = _new_table(Table)
        (other.rules, other.players, other.removed, other.limits, other.lr_pending, other.turned, other.total,
         other.deck, other.current, other.round, other.last_round, other.over, other.discarded) = (
            self.rules, self.players, self.removed, self.limits, self.lr_pending, self.turned, self.total,
            self.deck, self.current, self.round, self.last_round, self.over, self.discarded)  # fmt: skip
        other.rows = self.rows[:]
        other.taken = self.taken[:]
        other.done = self.done[:]
        other.collections = self.collections  # replaced, never changed in place (see above)
        other.remaining = self.remaining[:]
        return other

    def state(self) -> GameState:
        """The state this table has reached (the only place a ``GameState`` is built)."""
        return _new(GameState, (
            self.rules, self.players, self.removed, self.limits, tuple(self.rows), tuple(self.taken),
            tuple(self.done), tuple(self.collections), tuple(self.remaining), self.lr_pending, self.turned,
            self.total, self.deck, self.current, self.round, self.last_round, self.over, self.discarded,
        ))  # fmt: skip

    @property
    def colours(self) -> tuple[str, ...]:
        """Colours in play in this game, edition order."""
        return colours_in_play(self.rules.edition, self.removed)

    @property
    def lr_expected_at(self) -> int:
        """How many cards should be turned over before the last-round card."""
        return self.total - 1 - self.rules.under

    @property
    def cards_left(self) -> int:
        """Cards not yet turned over (the last-round card included while it is pending)."""
        return self.total - self.turned

    def is_over(self) -> bool:
        return self.over

    def turn_over(self, card: str, last_round: bool) -> None:
        """``card`` comes off the deck; ``last_round``: the last-round card came off first."""
        if last_round:
            self.turned += 2
            self.lr_pending = False
            self.last_round = True
        else:
            self.turned += 1
        self.remaining[KIND_INDEX[card]] -= 1

    def place(self, seat: int, i: int, card: str) -> None:
        """The rest of ``seat``'s draw: ``card``, just turned over, goes to row index ``i``."""
        rows = self.rows
        rows[i] = rows[i] + (card,)
        # the next seat clockwise still in the round (``take`` says the same: a call here
        # would cost fast_forward 15%)
        done = self.done
        n = len(done)
        s = seat + 1 if seat + 1 < n else 0
        while done[s] and s != seat:
            s = s + 1 if s + 1 < n else 0
        self.current = s

    def draw(self, seat: int, i: int, card: str, last_round: bool) -> None:
        """``seat`` draws ``card`` into row index ``i`` (``turn_over`` then ``place``)."""
        self.turn_over(card, last_round)
        self.place(seat, i, card)

    def take(self, seat: int, i: int, extra: str | None, last_round: bool) -> None:
        """``seat`` takes row index ``i`` (and ``extra``, a golden joker's extra card); may end the round."""
        rows = self.rows
        got = list(self.collections[seat])
        for c in rows[i]:
            got[KIND_INDEX[c]] += 1
        if extra is not None:
            self.turn_over(extra, last_round)
            got[KIND_INDEX[extra]] += 1
        collections = self.collections[:]
        collections[seat] = tuple(got)
        self.collections = collections
        rows[i] = ()
        self.taken[i] = True
        done = self.done
        done[seat] = True
        if False in done:
            n = len(done)  # the next seat clockwise still in the round (as in ``place``)
            s = seat + 1 if seat + 1 < n else 0
            while done[s]:
                s = s + 1 if s + 1 < n else 0
            self.current = s
            return
        # The round ends: rows not taken (2 players) leave the game; the last taker starts the next.
        leftovers = [c for cards in rows for c in cards]
        if leftovers:
            discarded = list(self.discarded)
            for c in leftovers:
                discarded[KIND_INDEX[c]] += 1
            self.discarded = tuple(discarded)
        rows[:] = [()] * len(rows)
        self.taken[:] = [False] * len(rows)
        done[:] = [False] * len(done)
        self.current = seat
        if self.last_round:
            self.over = True
        else:
            self.round += 1


class View(Protocol):
    """A game as a player reads it: a ``GameState`` or a ``Table`` (read, never written)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def players(self) -> int: ...
    @property
    def removed(self) -> tuple[str, ...]: ...
    @property
    def limits(self) -> tuple[int, ...]: ...
    @property
    def rows(self) -> Sequence[tuple[str, ...]]: ...
    @property
    def taken(self) -> Sequence[bool]: ...
    @property
    def done(self) -> Sequence[bool]: ...
    @property
    def collections(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def remaining(self) -> Sequence[int]: ...
    @property
    def lr_pending(self) -> bool: ...
    @property
    def turned(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def deck(self) -> tuple[str, ...] | None: ...
    @property
    def current(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def last_round(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def discarded(self) -> tuple[int, ...]: ...
    @property
    def colours(self) -> tuple[str, ...]: ...
    @property
    def lr_expected_at(self) -> int: ...
    @property
    def cards_left(self) -> int: ...
    def is_over(self) -> bool: ...


def legal_rows(view: View) -> tuple[list[int], list[int]]:
    """The rows (indices) the player to move may draw into, and those it may take."""
    taken, limits = view.taken, view.limits
    draws: list[int] = []
    takes: list[int] = []
    for i, r in enumerate(view.rows):
        if not taken[i]:
            if len(r) < limits[i]:
                draws.append(i)
            if r:
                takes.append(i)
    return draws, takes


def legal_actions(state: View) -> tuple[Move, ...]:
    """Every decision open to the player to move, draws first, rows in order.

    The moves carry no cards: ``resolve`` fills them in a seeded game.
    """
    if state.over:
        return ()
    seat = state.current
    draws, takes = legal_rows(state)
    return tuple(Draw(seat, i + 1) for i in draws) + tuple(Take(seat, i + 1) for i in takes)


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
    """The first rule ``move`` breaks, in the order of docs/format.md §3, or None."""
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
    """The state after a resolved, legal ``move`` (trusted: no checks), through ``Table``."""
    table = Table(state)
    if type(move) is Draw:
        card = move.card
        assert card is not None, "apply needs a resolved move"
        table.turn_over(card, bool(move.last_round))  # Table.draw, without its call
        table.place(move.seat, move.row - 1, card)
    else:
        table.take(move.seat, move.row - 1, move.extra, bool(move.last_round))  # type: ignore[union-attr]
    return table.state()


def fast_forward(
    state: GameState, moves: Sequence[Move], start: int, out: list[Move], states: list[GameState] | None = None
) -> tuple[GameState, int]:
    """Apply ``moves[start:]`` while each is plainly legal; stop before the first that is not.

    The fast path of replay (python-chess's ``push`` beside ``parse_san``):
    one ``Table`` for the whole run instead of ``check`` + ``resolve`` +
    ``apply`` per move, with a few plain tests before each move. It stops,
    without applying, at any move that breaks a rule *or* needs a closer
    look: the last-round card, a golden joker's row, anything unusual. The
    caller handles that move with ``check`` and goes on. Resolved moves are
    appended to ``out`` and, when ``states`` is given, the state after each
    to it; returns the state reached and the index of the first move not
    applied. Equal to the checked path by test.
    """
    table = Table(state)
    rows, taken, remaining = table.rows, table.taken, table.remaining  # changed in place, never replaced
    limits, deck, total = table.limits, table.deck, table.total
    n_rows = len(limits)
    deck_len = len(deck) if deck is not None else 0
    kind_index = KIND_INDEX
    turn_over, place, take = table.turn_over, table.place, table.take
    snapshot = None if states is None else table.state
    draw_type = Draw
    i = start
    n = len(moves)
    while i < n and not table.over:
        m = moves[i]
        seat, row_no, given, lr_given = m  # a Take's third field is its extra card
        if seat != table.current:
            break
        r = row_no - 1
        if r < 0 or r >= n_rows or taken[r]:
            break
        row = rows[r]
        if type(m) is draw_type:
            if len(row) >= limits[r] or lr_given:
                break
            if deck is not None:  # a seeded deck holds what ``remaining`` counts: no card check
                if table.turned >= deck_len:
                    break
                card = deck[table.turned]
                if card == LAST_ROUND or (given is not None and given != card):
                    break
            else:
                card = given  # type: ignore[assignment]
                if card is None or table.turned >= total:
                    break
                k = kind_index.get(card)
                if k is None or remaining[k] == 0:
                    break
            turn_over(card, False)
            place(seat, r, card)
            out.append(_new(draw_type, (seat, row_no, card, False)))
        else:
            if not row or given is not None or lr_given is not None or GOLDEN_JOKER in row:
                break
            take(seat, r, None, False)
            out.append(m)
        if snapshot is not None:
            states.append(snapshot())  # type: ignore[union-attr]
        i += 1
    return table.state(), i


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
