"""A game's states as ``GameRecord.states`` gives them (a site replays every game of the club again): the fold of
``engine.apply`` over its resolved moves, state for state, whatever the table, edition or end of the game; the same
when the check kept them as it replayed the game (``check_match(keep_states=True)``, by its fast path or the
reference one)."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core import engine
from coloretto_log.core.engine import GameState
from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.log.replay import GameRecord, check_match

from ..builders.viewer import TWO_PLAYER, random_match
from ..conftest import SAMPLES


def applied(record: GameRecord) -> list[GameState]:
    """The state before the first move and after each, by ``engine.apply`` one move at a time."""
    if record.setup is None or record.final is None:
        return []
    states = [record.initial_state()]
    for move in record.moves:
        states.append(engine.apply(states[-1], move))
    return states


def kept_states(data: object) -> list[list[GameState]]:
    """Each game's states as the check kept them, by the fast path; the same by the reference path."""
    found = []
    for fast in (True, False):
        games = check_match(data, fast=fast, keep_states=True).games
        assert all(g.kept is not None for g in games if g.setup is not None)
        found.append([list(g.states()) for g in games])
    assert found[0] == found[1]
    return found[0]


def test_every_sample_game_gives_the_states_of_apply() -> None:
    games = 0
    for path in sorted(p for p in Path(SAMPLES).iterdir() if p.suffix in (".json", ".jsonl")):
        for item in load([str(path)]):
            assert isinstance(item, LoadedMatch), item
            kept = kept_states(item.report.data)
            for record, states_kept in zip(item.report.games, kept, strict=True):
                states = list(record.states())
                assert states == applied(record) == states_kept
                if states:
                    assert states[-1] == record.final
                    games += 1
    assert games >= 5


def test_a_game_broken_off_gives_its_states_up_to_the_break_and_one_without_setup_none() -> None:
    broken = json.loads(json.dumps(TWO_PLAYER))
    broken["games"][0]["moves"][4] = {"player": "Aiko", "action": "draw", "row": 1, "card": "green"}
    record = check_match(broken).games[0]
    assert record.error and len(record.moves) == 4
    states = list(record.states())
    assert len(states) == 5 and states == applied(record) and states[-1] == record.final
    assert kept_states(broken) == [states]
    no_setup = json.loads(json.dumps(TWO_PLAYER))
    no_setup["games"][0]["setup"]["first"] = "Nobody"
    assert list(check_match(no_setup).games[0].states()) == [] == kept_states(no_setup)[0]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       games=st.integers(1, 2))
def test_random_games_give_the_states_they_were_played_through(seed: int, players: int, edition: str, games: int) -> None:
    log, _, played, _ = random_match(seed, players, edition, games, random.Random(seed))
    report = check_match(log)
    assert report.valid
    for record, states, kept in zip(report.games, played, kept_states(log), strict=True):
        got = list(record.states())
        assert got == applied(record) == states == kept
        # each state its own: the tables' lists were not shared with a state given before
        assert all(a.rows is not b.rows for a, b in pairwise(got))
