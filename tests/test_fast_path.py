"""engine.fast_forward is an optimisation only: replay with it equals replay with check() on every move."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.log.replay import check_match

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
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
