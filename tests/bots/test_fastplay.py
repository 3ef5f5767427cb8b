"""The fast playout path (``bots.fastplay``) plays as the pure one, move for move, and steps aside when it cannot load.

The kernel is compiled once per machine (numba's cache, ``cache=True``); in
a session it is loaded once. ``benchmarks/bench_fastplay.py`` runs the same
check on many more games and times both paths.
"""

from __future__ import annotations

import sys
import warnings

import pytest

from coloretto_log.bots import fastplay
from coloretto_log.bots import players as bots
from coloretto_log.bots.players import GreedyBot, StrongBot, play_to_end
from coloretto_log.bots.playout import Start
from coloretto_log.core import engine
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

needs_kernel = pytest.mark.skipif(not fastplay.available(), reason=f"the kernel did not load: {fastplay.reason()}")

COMBINATIONS = [(e, t, p) for e in ("classic", "anniversary") for t in ("standard", "alternative") for p in (2, 3, 4, 5)]


@needs_kernel
@pytest.mark.parametrize(("edition", "table", "players"), COMBINATIONS)
def test_the_kernel_plays_every_playout_as_the_pure_path(edition: str, table: str, players: int) -> None:
    # 16 combinations x 60 seeds x 3 playouts (a game, its first round, a cut order from mid-game): 2,880
    agreed = fastplay.agreement(RuleSet.of(edition=edition, scoring=table), players, range(60))
    assert agreed.playouts == 180
    assert agreed.equal == agreed.playouts, agreed.first_differing


@needs_kernel
def test_the_check_sees_a_kernel_that_plays_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Held against a pure path that takes at 5 points instead of 4, the kernel disagrees, and the check says so."""
    pure = bots.play_greedy_pure
    monkeypatch.setattr(fastplay, "play_greedy_pure", lambda t, c, b, take_at, *rest: pure(t, c, b, take_at + 1, *rest))
    agreed = fastplay.agreement(RuleSet.of(), 4, range(10))
    assert agreed.equal < agreed.playouts
    assert agreed.first_differing is not None and agreed.first_differing.startswith("classic standard 4 players seed")


def test_every_start_is_a_legal_position_and_the_cut_orders_run_out() -> None:
    todo = fastplay.starts(RuleSet.of(edition="anniversary"), 3, range(12))
    assert [stop for _, _, stop in todo] == [0, 2, 0] * 12
    mids = todo[2::3]
    assert any(state.turned > 0 for state, _, _ in mids)
    # the cut order holds fewer cards than are unseen (with the last-round card while it is pending)
    assert any(len(cards) < sum(state.remaining) + state.lr_pending for state, cards, _ in mids)


def _greedy_game(seed: int, players: int = 4) -> tuple[engine.GameState, list[engine.Move], engine.GameState]:
    """A seeded game of greedy self-play through ``play_to_end``: the start, the moves, the end."""
    rules = RuleSet.of()
    s = seeded_setup(rules, players, seed, 0)
    state = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    moves: list[engine.Move] = []
    end = play_to_end(state, [GreedyBot()] * players, [SplitMix64(0)] * players, moves=moves)
    return state, moves, end


@needs_kernel
def test_play_to_end_runs_on_the_kernel_and_replays_through_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fastplay, "WARM_UP", 0)  # no warm-up on the pure path first
    start, fast, end = _greedy_game(5)
    assert fastplay.used()
    state = start
    for move in fast:
        state, _ = engine.play(state, move)  # every move checked by the engine
    assert state == end and end.over
    monkeypatch.setenv(fastplay.ENV_PURE, "1")
    assert not fastplay.available() and fastplay.reason() == "COLORETTO_PURE is set"
    assert _greedy_game(5) == (start, fast, end)


@needs_kernel
def test_the_strong_bot_chooses_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.of(edition="anniversary")
    s = seeded_setup(rules, 3, 11, 0)
    state = engine.new_game(rules, 3, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    seats = [StrongBot(samples=4), GreedyBot(), StrongBot(samples=4)]
    monkeypatch.setattr(fastplay, "WARM_UP", 0)

    def game() -> list[engine.Move]:
        moves: list[engine.Move] = []
        play_to_end(state, seats, [SplitMix64(i) for i in range(3)], moves=moves)
        return moves

    fast = game()
    monkeypatch.setenv(fastplay.ENV_PURE, "1")
    assert game() == fast


def test_the_kernel_waits_until_a_process_has_played_enough_to_pay_for_its_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fastplay.ENV_PURE, raising=False)
    monkeypatch.setattr(fastplay, "_state", {})  # not loaded yet
    monkeypatch.setattr(fastplay, "_played", [0])
    monkeypatch.setattr(fastplay, "WARM_UP", 100)
    assert not fastplay.ready(60) and not fastplay.used()
    assert fastplay.ready(60) is fastplay.available()  # 120 cards: past the warm-up, the kernel loads
    assert fastplay.used() is fastplay.available()
    monkeypatch.setenv(fastplay.ENV_PURE, "1")
    assert not fastplay.ready(1) and not fastplay.used() and fastplay.off() == "COLORETTO_PURE is set"


def test_without_numba_everything_plays_on_the_pure_path_and_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fastplay.ENV_PURE, raising=False)
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba fails
    monkeypatch.delitem(sys.modules, "coloretto_log.bots._kernel", raising=False)
    monkeypatch.setattr(fastplay, "_state", {})
    assert fastplay.off() is None  # not tried yet
    with pytest.warns(RuntimeWarning, match="fast playout path is off, numba did not load"):
        assert not fastplay.available()
    assert (fastplay.off() or "").startswith("numba did not load (")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a second warning would fail here
        assert not fastplay.available()
        _, moves, end = _greedy_game(3, players=2)
    assert end.over and moves
    assert (fastplay.reason() or "").startswith("numba did not load (")


@needs_kernel
@pytest.mark.parametrize(("edition", "players"), [("classic", 2), ("anniversary", 3), ("classic", 4), ("anniversary", 5)])
def test_a_first_decision_then_greedy_play_is_start_play_to(edition: str, players: int) -> None:
    """``play_from``: every choice of every decision of a game of random play, on orders drawn as the analysis
    draws them, to where the analysis stops and to the end, is the table ``Start.play_to`` reaches."""
    rules = RuleSet.of(edition=edition)
    s = seeded_setup(rules, players, 3, 0)
    state = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    random_bot, rng = bots.RandomBot(), SplitMix64(3)
    compared = 0
    while not state.over:
        move = bots.turn(random_bot, state, rng)
        if isinstance(move, engine.Draw):
            starts = [Start(state), Start(state, move.card, bool(move.last_round))]
        else:
            starts = [Start(state)]
        for start in starts:
            for stop in {0, start.stop_round()}:
                need = start.need(stop)
                decks = [start.deal(seed, need) for seed in range(3)] + [[]]  # and an order with no card at all
                choices = start.choices()
                firsts = [fastplay.place(i) if kind == "row" else fastplay.DRAW if kind == "draw" else i
                          for kind, i in choices]
                tables = fastplay.play_from(start.state, firsts, decks, start.state.turned, bots.TAKE_AT,
                                            stop_round=stop, hand=start.card)
                for f, choice in enumerate(choices):
                    for d, deck in enumerate(decks):
                        assert tables[f * len(decks) + d].state() == start.play_to(choice, deck, stop).state()
                        compared += 1
        state = engine.apply(state, move)
    assert compared > 500
