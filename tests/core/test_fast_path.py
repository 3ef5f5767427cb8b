"""The fast paths are optimisations only.

``engine.fast_forward``: replay with it equals replay with ``check()`` on
every move. The bots' loop (``bots.play_to_end``, ``playout``), which runs a
whole game on one ``engine.Table``: its moves pass ``engine.play`` and fold
to the same final state.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.bots.players import final_scores, make_bot, play_to_end, playout, turn
from coloretto_log.core import engine
from coloretto_log.core.engine import Draw
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.replay import check_match

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from _logs import random_match

CARDS = ["red", "blue", "purple", "joker", "golden_joker", "plus2", "last_round", "grey"]


def mutate(match: dict[str, Any], rng: random.Random, n: int) -> dict[str, Any]:
    match = copy.deepcopy(match)
    for _ in range(n):
        game = rng.choice(match["games"])
        moves = game["moves"]
        if not moves:
            continue
        i = rng.randrange(len(moves))
        m = moves[i]
        kind = rng.randrange(8)
        if kind == 0:
            m["row"] = rng.randint(0, 6)
        elif kind == 1:
            m["player"] = rng.choice(match["players"] + ["Zed"])
        elif kind == 2:
            key = "card" if m["action"] == "draw" else "extra"
            m[key] = rng.choice(CARDS)
        elif kind == 3:
            m["action"] = "take" if m["action"] == "draw" else "draw"
            m.pop("card", None)
            m.pop("extra", None)
        elif kind == 4:
            del moves[i]
        elif kind == 5:
            moves.insert(i, copy.deepcopy(m))
        elif kind == 6:
            j = rng.randrange(len(moves))
            moves[i], moves[j] = moves[j], moves[i]
        else:
            m["last_round"] = rng.choice([True, False])
    return match


def same(a: Any, b: Any) -> None:
    assert a.all_findings() == b.all_findings()
    assert len(a.games) == len(b.games)
    for ga, gb in zip(a.games, b.games):
        assert ga.moves == gb.moves
        assert ga.final == gb.final


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "anniversary"]),
    recorded=st.booleans(),
    mutations=st.integers(0, 3),
)
def test_fast_path_equals_checked_path(seed: int, players: int, edition: str, recorded: bool, mutations: int) -> None:
    match = random_match(seed, players=players, games=2, edition=edition, recorded=recorded)
    match = mutate(match, random.Random(seed), mutations)
    same(check_match(match, fast=True), check_match(match, fast=False))


# --------------------------------------------------------------------------- the bots' loop


BOT_NAMES = ["random", "greedy", "strong"]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "anniversary"]),
    seats=st.lists(st.sampled_from(BOT_NAMES[:2]), min_size=5, max_size=5),
)
def test_bots_loop_equals_the_checked_path(seed: int, players: int, edition: str, seats: list[str]) -> None:
    """``bots.play_to_end`` (one ``Table``, no state per move) ends where ``engine.play`` of its moves ends."""
    rules = RuleSet.of(edition=edition)
    s = seeded_setup(rules, players, seed, 0)
    start = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    moves: list[engine.Move] = []
    players_ = [make_bot(name) for name in seats[:players]]
    final = play_to_end(start, players_, [SplitMix64(seed + i) for i in range(players)], moves=moves)
    state = start
    for move in moves:
        unresolved = move._replace(card=None) if type(move) is Draw else move._replace(extra=None, last_round=None)
        state, resolved = engine.play(state, unresolved)  # checked, and resolved from the deck again
        assert resolved == move
    assert state == final and final.over
    # the same, one turn at a time through turn() and apply()
    state = start
    rngs = [SplitMix64(seed + i) for i in range(players)]
    for move in moves:
        assert turn(players_[state.current], state, rngs[state.current]) == move
        state = engine.apply(state, move)
    assert state == final
    # and fast_forward replays them to the same end
    out: list[engine.Move] = []
    reached, i = engine.fast_forward(start, moves, 0, out)
    assert out == moves[:i]
    for move in moves[i:]:
        reached = engine.apply(reached, move)
    assert reached == final


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), stop=st.integers(0, 60))
def test_playout_from_any_state_with_the_rest_of_the_deck(seed: int, players: int, stop: int) -> None:
    """``playout`` from a state part-way, given the rest of the deck, scores what the whole game scores."""
    rules = RuleSet.of(edition="anniversary")
    s = seeded_setup(rules, players, seed, 0)
    start = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    greedy = [make_bot("greedy")] * players
    rngs = [SplitMix64(0)] * players  # greedy draws no random numbers
    moves: list[engine.Move] = []
    final = play_to_end(start, greedy, rngs, moves=moves)
    state = start
    for move in moves[: min(stop, len(moves) - 1)]:
        state = engine.apply(state, move)
    assert s.deck is not None
    blind = state._replace(deck=None)
    assert playout(blind, greedy, rngs, s.deck[state.turned :]) == final_scores(final)
    assert playout(state, greedy, rngs) == final_scores(final)
