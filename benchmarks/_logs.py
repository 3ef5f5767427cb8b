"""Reproducible match logs for the benchmarks: random legal play from fixed seeds."""

from __future__ import annotations

import random
from typing import Any

from coloretto_log.bots.simulate import match_seed
from coloretto_log.core import engine
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.writer import match_json, move_json, setup_json

NAMES = ("Aiko", "Boris", "Chloe", "Dae", "Emil")


def random_match(seed: int, *, players: int = 4, games: int = 4, edition: str = "classic", recorded: bool = False,
                 moves: int | None = None) -> dict[str, Any]:
    """A complete match played by uniformly random legal moves (cards left out unless ``recorded``); with
    ``moves``, each game stops after that many moves (an unfinished game)."""
    rules = RuleSet.of(edition=edition, games=games)
    names = NAMES[:players]
    rng = random.Random(seed)
    out_games = []
    for g in range(games):
        setup = seeded_setup(rules, players, seed, g)
        state = engine.new_game(rules, players, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck)
        moves_out: list[dict[str, Any]] = []
        while not state.over and (moves is None or len(moves_out) < moves):
            actions = engine.legal_actions(state)
            move = rng.choice(actions)
            state, resolved = engine.play(state, move)
            moves_out.append(move_json(resolved, names, cards=recorded))
        out_games.append({"setup": setup_json(setup, names, explicit=recorded), "moves": moves_out})
    return match_json(rules=rules, players=names, games=out_games, seed=None if recorded else seed)


def match_seeds(seed: int, n: int) -> list[int]:
    """The seeds ``simulate --seed SEED`` gives its first ``n`` matches."""
    return [match_seed(seed, i) for i in range(n)]
