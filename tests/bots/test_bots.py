"""Computer players: legal, reproducible, blind to the deck's order, and greedy by hand-checked values."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.bots import players as bots
from coloretto_log.bots.expert import ExpertBot, PlayoutExpertBot
from coloretto_log.bots.players import (
    BOTS,
    Bot,
    BotError,
    GreedyBot,
    RandomBot,
    StrongBot,
    hidden,
    make_bot,
    play_out,
    turn,
)
from coloretto_log.core import engine
from coloretto_log.core.cards import KIND_INDEX, LAST_ROUND, N_KINDS, counts_of
from coloretto_log.core.engine import Draw, GameState, Table, Take
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.scoring import best_from_counts
from coloretto_log.core.setup import seeded_setup

CLASSIC_4 = ("orange", "blue", "brown", "yellow", "grey", "green", "red")


def quick_bot(name: str) -> Bot:
    """The bot of that name; ``expert-mc`` and ``expert`` with few samples, to keep these tests quick (the same
    code: ``expert``'s playouts on 8 orders of the unseen cards instead of 32; its default is pinned by
    tests/bots/test_evaluate.py)."""
    if name == "expert-mc":
        return PlayoutExpertBot(samples=16, batch=8, min_samples=8)
    return ExpertBot(samples=8) if name == "expert" else make_bot(name)


def new_state(seed: int, players: int = 4, edition: str = "classic", scoring: str = "standard") -> GameState:
    rules = RuleSet.of(edition=edition, scoring=scoring)
    s = seeded_setup(rules, players, seed, 0)
    return engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def states_of_a_game(seed: int, players: int = 4, edition: str = "classic") -> list[GameState]:
    """Every state of one game played by greedy and random bots in turn."""
    state = new_state(seed, players, edition)
    players_bots: list[Bot] = [GreedyBot() if s % 2 else RandomBot() for s in range(players)]
    rngs = [SplitMix64(seed * 10 + s) for s in range(players)]
    out = [state]
    while not state.over:
        move = turn(players_bots[state.current], state, rngs[state.current])
        state = engine.apply(state, move)
        out.append(state)
    return out


def reorder_hidden(state: GameState, seed: int, *, keep_next: bool) -> GameState:
    """The same state with the unturned cards in another order (the last-round card stays put;
    with ``keep_next``, so does the next card to come)."""
    assert state.deck is not None
    deck = list(state.deck)
    fixed = {i for i, c in enumerate(deck) if c == LAST_ROUND}
    if keep_next:
        t = state.turned
        fixed |= {t, t + 1} if t < len(deck) and deck[t] == LAST_ROUND else {t}
    free = [i for i in range(state.turned, len(deck)) if i not in fixed]
    shuffled = SplitMix64(seed).shuffle([deck[i] for i in free])
    for i, card in zip(free, shuffled):
        deck[i] = card
    return state._replace(deck=tuple(deck))


class NoPeeking(tuple):  # type: ignore[type-arg]
    """A deck that fails the test if anybody looks at it."""

    def _fail(self, *args: Any) -> Any:
        raise AssertionError("a bot looked at the deck")

    __getitem__ = __iter__ = __len__ = __contains__ = _fail


# --------------------------------------------------------------------------- the interface


def test_registry_names_every_bot() -> None:
    assert list(BOTS) == ["random", "greedy", "strong", "expert-mc", "expert"]
    for name in BOTS:
        assert make_bot(name).name == name
    with pytest.raises(KeyError):
        make_bot("oracle")


def test_hidden_removes_only_the_deck() -> None:
    state = new_state(3)
    view = hidden(state)
    assert view.deck is None and type(view) is GameState
    assert view._replace(deck=state.deck) == state
    assert hidden(view) is view


def test_turned_over_accounts_for_the_card_and_the_last_round_card() -> None:
    state = hidden(new_state(5))
    after = bots.turned_over(state, "red", False)
    assert after.remaining[KIND_INDEX["red"]] == state.remaining[KIND_INDEX["red"]] - 1
    assert (after.turned, after.lr_pending, after.last_round) == (state.turned + 1, True, False)
    after = bots.turned_over(state, "plus2", True)
    assert (after.turned, after.lr_pending, after.last_round) == (state.turned + 2, False, True)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("edition", ["classic", "anniversary"])
def test_every_bot_plays_legal_games_to_the_end(players: int, edition: str) -> None:
    rules = RuleSet.of(edition=edition, scoring="alternative" if players == 3 else "standard")
    names = ["strong", "greedy", "random", "greedy", "strong"][:players]
    for seed in (1, 2):
        s = seeded_setup(rules, players, seed, 0)
        state = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
        table = [make_bot(n) for n in names]
        rngs = [SplitMix64(seed + 100 * i) for i in range(players)]
        start = state
        while not state.over:
            move = turn(table[state.current], state, rngs[state.current])
            assert engine.check(state, move) is None
            assert engine.resolve(state, move) == move  # cards filled in from the deck
            state = engine.apply(state, move)
        assert engine.card_total(state) == engine.card_total(start)  # no card made or lost


@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]))
@settings(max_examples=25, deadline=None)
def test_random_and_greedy_games_always_end_legally(seed: int, players: int, edition: str) -> None:
    states = states_of_a_game(seed % 10**6, players, edition)
    assert states[-1].over
    assert all(sum(s.remaining) >= 0 for s in states)


def test_a_bot_answering_an_illegal_action_is_caught() -> None:
    class Cheater:
        name = "cheater"

        def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
            return Take(view.current, 1)  # row 1 is empty at the start

        def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
            return 9

    class Misplacer(Cheater):
        def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
            return None

    state = new_state(1)
    with pytest.raises(BotError, match="row 1 is empty"):
        turn(Cheater(), state, SplitMix64(0))
    with pytest.raises(BotError, match="row 9"):
        turn(Misplacer(), state, SplitMix64(0))
    with pytest.raises(ValueError):
        turn(GreedyBot(), hidden(state), SplitMix64(0))


# --------------------------------------------------------------------------- no peeking


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_chooses_the_same_whatever_the_hidden_order(name: str) -> None:
    bot = quick_bot(name)
    checked = 0
    for seed in (11, 12):
        for i, state in enumerate(states_of_a_game(seed)[:-1]):
            if i % 3:
                continue  # every third state keeps the test quick
            other = reorder_hidden(state, seed * 1000 + i, keep_next=False)
            assert other != state or sum(state.remaining) < 2
            # the decision to draw or take: the next card may differ too
            assert bot.choose(state, SplitMix64(i)) == bot.choose(other, SplitMix64(i))
            # a whole turn through the table: the same card comes next, the rest differs
            same_next = reorder_hidden(state, seed * 1000 + i, keep_next=True)
            assert turn(bot, state, SplitMix64(i)) == turn(bot, same_next, SplitMix64(i))
            # and where the card goes, for any card the deck may still hold
            if any(type(m) is Draw for m in engine.legal_actions(state)):
                for card in ("red", "plus2", "joker"):
                    if state.remaining[KIND_INDEX[card]]:
                        a = bot.place(bots.turned_over(state, card, False), card, SplitMix64(i))
                        b = bot.place(bots.turned_over(other, card, False), card, SplitMix64(i))
                        assert a == b
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_never_reads_the_deck(name: str) -> None:
    bot = quick_bot(name)
    for state in states_of_a_game(21)[:-1:4]:
        blind = state._replace(deck=NoPeeking())
        bot.choose(blind, SplitMix64(1))
        if any(type(m) is Draw for m in engine.legal_actions(hidden(state))):
            bot.place(bots.turned_over(blind, "green", False), "green", SplitMix64(1))


def test_turn_shows_the_bot_a_view_without_the_deck() -> None:
    seen: list[GameState] = []

    class Spy(GreedyBot):
        def choose(self, view: GameState, rng: SplitMix64) -> Take | None:
            seen.append(view)
            return super().choose(view, rng)

        def place(self, view: GameState, card: str, rng: SplitMix64) -> int:
            seen.append(view)
            return super().place(view, card, rng)

    state = new_state(4)
    for _ in range(30):
        state = engine.apply(state, turn(Spy(), state, SplitMix64(0)))
    assert seen and all(v.deck is None for v in seen)


# --------------------------------------------------------------------------- randomness


def test_random_bot_is_uniform_over_the_legal_actions() -> None:
    state = new_state(8)
    # play a few moves so that the table holds draws and takes
    rng = SplitMix64(3)
    for _ in range(5):
        state = engine.apply(state, turn(GreedyBot(), state, rng))
    legal = engine.legal_actions(state)
    assert any(type(m) is Take for m in legal) and any(type(m) is Draw for m in legal)
    counts: Counter[tuple[str, int]] = Counter()
    bot = RandomBot()
    n = 6000
    for i in range(n):
        move = turn(bot, state, SplitMix64(i))
        counts[(type(move).__name__, move.row)] += 1
    assert set(counts) == {(type(m).__name__, m.row) for m in legal}
    expected = n / len(legal)
    for k in counts.values():
        assert abs(k - expected) < 5 * (expected * (1 - 1 / len(legal))) ** 0.5


@pytest.mark.parametrize("name", list(BOTS))
def test_the_same_generator_gives_the_same_game(name: str) -> None:
    def play(seed: int) -> list[Any]:
        state = new_state(seed)
        table = [quick_bot(name) for _ in range(4)]
        rngs = [SplitMix64(seed + s) for s in range(4)]
        moves = []
        for _ in range(40):
            move = turn(table[state.current], state, rngs[state.current])
            moves.append(move)
            state = engine.apply(state, move)
        return moves

    assert play(30) == play(30)


def test_random_bots_follow_their_generator_and_nothing_else() -> None:
    state = new_state(9)
    a = [turn(RandomBot(), state, SplitMix64(s)).row for s in range(40)]
    b = [turn(RandomBot(), state, SplitMix64(s)).row for s in range(40)]
    assert a == b and len(set(a)) > 1


# --------------------------------------------------------------------------- packed scores


def test_packing_round_trips_and_adds_rows() -> None:
    counts = (9, 0, 3, 1, 0, 0, 2, 0, 3, 1, 10)
    assert bots.unpack(bots.pack(counts)) == counts
    row = ("red", "red", "plus2")
    assert bots.unpack(bots.pack(counts) + bots.pack_cards(row)) == tuple(
        a + b for a, b in zip(counts, counts_of(list(row)))
    )


@given(st.lists(st.integers(0, 9), min_size=7, max_size=7), st.integers(0, 3), st.integers(0, 10))
@settings(max_examples=200, deadline=None)
def test_memoised_scores_equal_the_optimiser(colours: list[int], jokers: int, plus2: int) -> None:
    counts = tuple(colours) + (0, jokers, 0, plus2)
    view = hidden(new_state(1))
    assert bots.scores_for(view)[bots.pack(counts)] == best_from_counts(counts, CLASSIC_4).score


# --------------------------------------------------------------------------- greedy, by hand


def table_state(
    collections: dict[int, dict[str, int]],
    rows: list[list[str]],
    taken: list[bool],
    done: list[bool],
    current: int = 0,
) -> GameState:
    base = new_state(1)
    colls = []
    for seat in range(4):
        c = [0] * N_KINDS
        for card, n in collections.get(seat, {}).items():
            c[KIND_INDEX[card]] = n
        colls.append(tuple(c))
    return hidden(base)._replace(
        collections=tuple(colls),
        rows=tuple(tuple(r) for r in rows),
        taken=tuple(taken),
        done=tuple(done),
        current=current,
    )


def test_greedy_takes_a_row_worth_at_least_four_points() -> None:
    # red 2 (3 points); row 1 makes red 4 (10 points): +7; row 2 adds a blue: +1
    view = table_state({0: {"red": 2}}, [["red", "red"], ["blue"], [], []], [False] * 4, [False] * 4)
    assert GreedyBot().choose(view, SplitMix64(0)) == Take(0, 1)


def test_greedy_draws_when_no_row_is_worth_four_points() -> None:
    view = table_state({0: {"red": 2}}, [["blue"], ["green"], [], []], [False] * 4, [False] * 4)
    assert GreedyBot().choose(view, SplitMix64(0)) is None
    # with take_at=1 it takes the first row that raises its score (+1)
    assert GreedyBot(take_at=1).choose(view, SplitMix64(0)) == Take(0, 1)


def test_greedy_takes_the_cheapest_row_when_every_row_is_full() -> None:
    # red 2, blue 2, brown 2: 9 points.
    # row 1 (yellow yellow grey): red, blue, brown, yellow 2 positive... best 3+3+3 - 3 - 1 = 5: -4
    # row 2 (green grey yellow): 3+3+3 - 1 - 1 - 1 = 6: -3, the least cost
    view = table_state(
        {0: {"red": 2, "blue": 2, "brown": 2}},
        [["yellow", "yellow", "grey"], ["green", "grey", "yellow"], [], []],
        [False, False, True, True],
        [False, True, True, False],
    )
    assert best_from_counts(counts_of(["red"] * 2 + ["blue"] * 2 + ["brown"] * 2 + ["yellow"] * 2 + ["grey"]), CLASSIC_4).score == 5
    assert GreedyBot().choose(view, SplitMix64(0)) == Take(0, 2)


def test_greedy_places_where_it_helps_itself_less_what_it_gives_a_rival() -> None:
    # Seat 0 (red 2) holds a red. Seat 3, still in the round, holds blue, brown, yellow.
    # Row 1 (red red): for seat 0, 15 - 10 = +5; for seat 3, red 3 vs red 2 beyond
    #   its three colours: (6+1+1-1) - (3+1+1-1) = +3.  Value 5 - 3 = 2.
    # Row 2 (blue): for seat 0, (6+1) - (3+1) = +3; for seat 3 the red is a 4th colour:
    #   (3+1+1-1) - (3+1+1) = -1.  Value 3 - (-1) = 4: row 2.
    view = table_state(
        {0: {"red": 2}, 3: {"blue": 1, "brown": 1, "yellow": 1}},
        [["red", "red"], ["blue"], [], []],
        [False, False, True, True],
        [False, True, True, False],
    )
    after = bots.turned_over(view, "red", False)
    assert GreedyBot().place(after, "red", SplitMix64(0)) == 2
    # With seat 3 out of the round, only its own gain counts: row 1 (+5 against +3).
    alone = after._replace(done=(False, True, True, True))
    assert GreedyBot().place(alone, "red", SplitMix64(0)) == 1


def test_strong_takes_an_outstanding_row() -> None:
    # red 4 (10 points) and a row of three reds (red 7: 21 points): +11, nothing can beat it.
    view = table_state({0: {"red": 4}}, [["red", "red", "red"], ["blue"], [], []], [False] * 4, [False] * 4)
    assert StrongBot(samples=4).choose(view, SplitMix64(0)) == Take(0, 1)


def test_strong_needs_one_sample() -> None:
    with pytest.raises(ValueError):
        StrongBot(samples=0)


def test_greedy_takes_rather_than_draw_when_no_card_is_left() -> None:
    # the same table as when greedy draws, but every card has been turned over (a playout's order ran out)
    view = table_state({0: {"red": 2}}, [["blue"], ["green"], [], []], [False] * 4, [False] * 4)
    empty = view._replace(remaining=(0,) * len(view.remaining), lr_pending=False, last_round=True,
                          turned=view.total)
    assert GreedyBot().choose(empty, SplitMix64(0)) == Take(0, 1)
    # only the last-round card left: no card to draw either
    assert GreedyBot().choose(empty._replace(lr_pending=True, last_round=False, turned=view.total - 1),
                              SplitMix64(0)) == Take(0, 1)


def test_the_loop_stops_where_it_is_when_the_order_given_runs_out() -> None:
    state = engine.new_game(RuleSet.of(), 4, removed=(), starting=(("red",), ("blue",), ("green",), ("grey",)),
                            first=0)
    table = Table(state)
    play_out(table, ["red", "blue"], table.turned, [GreedyBot()] * 4, [SplitMix64(0)] * 4)
    assert table.turned == 2 and not table.over  # two cards turned over, then no card to turn over
    assert sum(len(r) for r in table.rows) + sum(sum(c) for c in table.collections) == 4 + 2


def test_a_copied_table_changes_apart_from_its_original() -> None:
    state = engine.new_game(RuleSet.of(), 3, removed=("orange",), starting=(("red",), ("blue",), ("green",)),
                            first=0)
    table = Table(state)
    table.draw(0, 0, "red", False)
    before = table.state()
    other = table.copy()
    other.draw(1, 1, "blue", False)
    other.take(2, 0, None, False)
    assert table.state() == before
    assert other.state() != before and other.collections[2] != before.collections[2]


# --------------------------------------------------------------------------- the greedy loop's fast path


class _SlowGreedy(GreedyBot):
    """``GreedyBot`` by another type: the bots' loop then asks it move by move, as any bot
    (``bots._play``), instead of running its own greedy loop (``players._play_greedy``)."""


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "anniversary"]),
    scoring=st.sampled_from(["standard", "alternative"]),
    take_at=st.integers(0, 6),
)
def test_the_greedy_loop_plays_the_moves_greedy_chooses_one_at_a_time(
    seed: int, players: int, edition: str, scoring: str, take_at: int
) -> None:
    state = new_state(seed, players, edition, scoring)
    fast: list[engine.Move] = []
    slow: list[engine.Move] = []
    rngs = [SplitMix64(0)] * players
    end = bots.play_to_end(state, [GreedyBot(take_at)] * players, rngs, moves=fast)
    bots.play_to_end(state, [_SlowGreedy(take_at)] * players, rngs, moves=slow)
    assert fast == slow
    # and the same game one checked move at a time through the engine
    replayed = state
    for move in fast:
        replayed, _ = engine.play(replayed, move)
    assert replayed == end and end.over


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), cut=st.integers(0, 80),
       short=st.integers(0, 40), stop=st.booleans())
def test_the_greedy_loop_agrees_mid_game_on_short_orders_and_at_the_end_of_a_round(
    seed: int, players: int, cut: int, short: int, stop: bool
) -> None:
    states = states_of_a_game(seed % 1000, players)
    state = states[min(cut, len(states) - 1)]
    assert state.deck is not None
    cards = list(state.deck[state.turned: state.turned + short])  # an order that may run out
    ends = []
    for bot in (GreedyBot(), _SlowGreedy()):
        table = Table(state)
        table.deck = None
        moves: list[engine.Move] = []
        bots._play(table, cards, state.turned, [bot] * players, [SplitMix64(0)] * players, moves, -1,
                   state.round + 1 if stop else 0)
        ends.append((moves, table.state()))
    assert ends[0] == ends[1]
