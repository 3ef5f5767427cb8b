"""validate's fast paths give exactly the reference path's report, on random and corrupted logs.

``check_match`` takes the plain moves of a seeded game (exactly player,
action and row) without a model per move (``replay._plain_moves``, then
``Match`` with ``MOVES_CHECKED``) and replays with ``engine.fast_forward``.
``check_match(data, fast=False)`` is the reference: every move through the
models and ``engine.check``. Whatever the log, the two reports must be the
same: findings (rule ids and messages), the validated match, each game's
setup, resolved moves and final state.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.log import limits, replay
from coloretto_log.log.replay import MatchReport, check_match

from ..conftest import INVALID, SAMPLES, load_json

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from _logs import random_match

#: Values that look like a plain move's and are not one (a row of True or 1.0 is found as 1 by a dict).
ODD_ROWS = [True, False, 1.0, 2.0, "1", None, [1], {"r": 1}, 0, 6, -1, 10**30, 3]
ODD_PLAYERS = [5, None, "", "x" * 41, "Zed", ["Aiko"], "aiko", "Aiko "]
ODD_ACTIONS = ["Draw", "TAKE", None, 1, "draw ", "take", "draw"]
#: Fields of the match, the rules and a game, each with values the models accept and values they refuse.
MATCH_VALUES: dict[str, list[Any]] = {
    "format": ["coloretto-log", "Coloretto-log", None, 1],
    "version": [1, True, 1.0, 2, "1"],
    "id": ["m1", "", "x" * 200, "x" * 201, None, 5],
    "date": ["2024-01-01", "2024-02-30", "2024-1-01", "2024-01-01\n", "\uff12024-01-01", "2024-01-01T10:00", None, 20240101],
    "notes": ["", "ok", "n" * 100_000, "n" * 100_001, None, 3],
    "seed": [0, 7, 2**64 - 1, 2**64, -1, True, 1.0, None, "7"],
    "event": [
        {"name": "Autumn open", "round": 2, "table": 3},
        {"name": "Club night"},
        {"name": "e" * 100, "round": 1000, "table": 1},
        {"name": "e" * 101},
        {"name": ""},
        {"round": 1},
        {"name": "x", "round": 0},
        {"name": "x", "table": 1001},
        {"name": "x", "round": True},
        {"name": "x", "round": 1.0},
        {"name": "x", "round": None},
        {"name": "x", "seat": 1},
        {"name": 5},
        "Club night",
        None,
    ],
    "extra": [None, 1],
}
RULES_VALUES: dict[str, list[Any]] = {
    "edition": ["classic", "anniversary", "Classic", None, 1],
    "scoring": ["standard", "alternative", "alt", None],
    "games": [1, 2, 4, 100, 101, 0, True, 4.0, None],
    "under_last_round": [15, 16, 14, 40, True, 15.0, None],
    "extra": [1],
}
GAME_VALUES: dict[str, list[Any]] = {
    "setup": [{}, [], None, {"removed": []}, {"first": "Aiko"}, {"deck": None}],
    "notes": ["", "ok", "n" * 100_001, None],
    "claims": [{}, None, {"Aiko": {"score": 5}}, {"Zed": {}}],
    "extra": [1],
}


def corrupt(match: dict[str, Any], rng: random.Random, n: int) -> dict[str, Any]:
    """``match`` with ``n`` small corruptions, most aimed at what the plain-move test looks at."""
    match = copy.deepcopy(match)
    for _ in range(n):
        kind = rng.randrange(20)
        games = match["games"]
        game = rng.choice(games)
        if not isinstance(game, dict):
            game = {}  # corrupted already: what is done to it is not in the match
        moves = game.get("moves")
        if kind >= 16:  # the fields around the moves
            table, target = [(MATCH_VALUES, match), (RULES_VALUES, match.get("rules")), (GAME_VALUES, game)][kind % 3]
            if not isinstance(target, dict):
                continue
            key = rng.choice(sorted(table))
            if rng.random() < 0.15:
                target.pop(key, None)
            else:
                target[key] = copy.deepcopy(rng.choice(table[key]))
            continue
        if kind >= 10 or not isinstance(moves, list) or not moves:
            if kind == 10:
                match["players"][rng.randrange(len(match["players"]))] = rng.choice(ODD_PLAYERS)
            elif kind == 11:
                match["players"].append(rng.choice([*match["players"], "Zoe", 7]))
            elif kind == 12:
                games[rng.randrange(len(games))] = rng.choice([None, [], "game", {}])
            elif kind == 13:
                game["moves"] = rng.choice([None, {}, "moves", 5]) if rng.random() < 0.7 else (moves or []) * 40
            elif kind == 14:
                game.pop("moves", None)
            else:
                match[rng.choice(["seed", "rules", "version", "extra"])] = rng.choice([None, -1, "x", {"games": 0}, 2])
            continue
        i = rng.randrange(len(moves))
        m = moves[i]
        if not isinstance(m, dict):
            m = {}
        if kind == 0:
            m["row"] = rng.choice(ODD_ROWS)
        elif kind == 1:
            m["player"] = rng.choice(ODD_PLAYERS + match["players"])
        elif kind == 2:
            m["action"] = rng.choice(ODD_ACTIONS)
        elif kind == 3:
            m[rng.choice(["notes", "card", "extra", "last_round", "foo"])] = rng.choice(["red", True, "x", None])
        elif kind == 4:
            m.pop(rng.choice(["player", "action", "row"]), None)
        elif kind == 5:
            moves[i] = rng.choice([None, [], "draw", 3, {}])
        elif kind == 6:
            del moves[i]
        elif kind == 7:
            moves.insert(i, copy.deepcopy(m))
        elif kind == 8:
            j = rng.randrange(len(moves))
            moves[i], moves[j] = moves[j], moves[i]
        else:
            m["player"], m["row"] = rng.choice(match["players"]), rng.randint(1, 5)
    return match


def assert_same(a: MatchReport, b: MatchReport) -> None:
    assert a.all_findings() == b.all_findings()
    assert a.match == b.match
    assert a.rules == b.rules and a.players == b.players
    assert len(a.games) == len(b.games)
    for ga, gb in zip(a.games, b.games):
        assert (ga.setup, ga.seeded, ga.moves, ga.final, ga.claims) == (gb.setup, gb.seeded, gb.moves, gb.final, gb.claims)


def check_all_ways(match: Any) -> MatchReport:
    """The fast report, checked against the reference, the models with plain moves, and the models alone."""
    fast = check_match(match)
    assert_same(fast, check_match(match, fast=False))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(replay, "_plain_match", lambda data: None)
        assert_same(fast, check_match(match))
        m.setattr(replay, "_plain_moves", lambda data: None)
        assert_same(fast, check_match(match))
    return fast


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "anniversary"]),
    recorded=st.sampled_from([False, False, True]),
    corruptions=st.integers(0, 3),
)
def test_fast_check_equals_the_reference(
    seed: int, players: int, edition: str, recorded: bool, corruptions: int
) -> None:
    match = random_match(seed, players=players, games=2, edition=edition, recorded=recorded)
    match = corrupt(match, random.Random(seed), corruptions)
    check_all_ways(match)


def test_plain_moves_take_the_fast_path_and_odd_ones_do_not() -> None:
    """The test can fail: a seeded log's moves are plain; each odd value sends the match to the reference path."""
    match = random_match(7, players=3, games=2)
    plain = replay._plain_moves(match)
    assert plain is not None and [len(p) for p in plain] == [len(g["moves"]) for g in match["games"]]
    report = check_all_ways(match)
    assert report.valid and report.complete
    for field, odd in [("row", True), ("row", 1.0), ("row", 9), ("player", "Zed"), ("action", "Draw"), ("card", "red")]:
        bad = copy.deepcopy(match)
        bad["games"][1]["moves"][4][field] = odd
        assert replay._plain_moves(bad) is None, (field, odd)
        report = check_all_ways(bad)
        assert not report.valid or field == "card", (field, odd)


def test_a_row_of_true_is_a_type_error_as_before() -> None:
    """``True == 1`` for a dict, not for the log format: the move is refused as bad-type, by the models."""
    match = random_match(3, players=4, games=1)
    match["games"][0]["moves"][0]["row"] = True
    report = check_all_ways(match)
    assert [(f.rule, f.move) for f in report.all_findings()] == [("bad-type", 1)]


def test_too_many_moves_is_refused_by_the_model() -> None:
    """The models' bound on moves in a game holds on the fast path too (plain moves, one too many)."""
    match = random_match(5, players=4, games=1)
    moves = match["games"][0]["moves"]
    match["games"][0]["moves"] = (moves * (limits.MAX_MOVES // len(moves) + 1))[: limits.MAX_MOVES + 1]
    assert replay._plain_moves(match) is None
    report = check_all_ways(match)
    assert [f.rule for f in report.all_findings()] == ["bad-value"]


def _json_logs() -> list[Path]:
    """The sample and invalid logs that are JSON (those broken at the byte level are the reader's tests)."""
    found = []
    for path in sorted([*SAMPLES.glob("*.json"), *INVALID.glob("*.json")]):
        try:
            load_json(path)
        except ValueError:
            continue
        found.append(path)
    return found


@pytest.mark.parametrize("path", _json_logs(), ids=lambda p: p.name)
def test_every_sample_and_invalid_log(path: Path) -> None:
    check_all_ways(load_json(path))


def test_the_plain_check_reads_the_models_bounds() -> None:
    """``_plain_match`` and the models take their bounds and names from one place (log.limits, core.ruleset)."""
    from typing import get_args

    from coloretto_log.core.ruleset import EDITIONS, TABLES
    from coloretto_log.log import models

    assert set(limits.SCORING_TABLES) == set(TABLES) == set(get_args(models.Rules.model_fields["scoring"].annotation))
    assert set(get_args(models.Rules.model_fields["edition"].annotation)) == set(EDITIONS)
    assert set(models.Match.model_fields) >= replay._MATCH_FIELDS
    assert set(models.Rules.model_fields) >= replay._RULES_FIELDS
    assert set(models.Game.model_fields) >= replay._GAME_FIELDS
    # at the bound and one past it, as the models see them
    base = random_match(11, players=2, games=1)
    for path, ok, too_far in [
        (("id",), "x" * limits.MAX_ID, "x" * (limits.MAX_ID + 1)),
        (("notes",), "n" * limits.MAX_NOTES, "n" * (limits.MAX_NOTES + 1)),
        (("seed",), limits.SEED_LIMIT - 1, limits.SEED_LIMIT),
        (("rules", "games"), limits.MAX_GAMES, limits.MAX_GAMES + 1),
        (("rules", "under_last_round"), limits.MIN_UNDER_LAST_ROUND, limits.MIN_UNDER_LAST_ROUND - 1),
        (("players", 0), "A" * limits.MAX_NAME, "A" * (limits.MAX_NAME + 1)),
    ]:
        for value, accepted in [(ok, True), (too_far, False)]:
            match = copy.deepcopy(base)
            target = match
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            if path == ("players", 0):
                for game in match["games"]:
                    for move in game["moves"]:
                        if move["player"] == base["players"][0]:
                            move["player"] = value
            assert (replay._plain_match(match) is not None) == accepted, (path, accepted)
            report = check_all_ways(match)
            assert (report.findings == []) == accepted, (path, accepted)  # an error of the match itself, or none


def test_a_plain_match_is_checked_without_the_models() -> None:
    """validate's fast start: a seeded log is checked in a fresh interpreter that never imports log.models."""
    code = (
        "import json, sys\n"
        "sys.path.insert(0, 'benchmarks')\n"
        "from _logs import random_match\n"
        "from coloretto_log.log.replay import check_match\n"
        "report = check_match(random_match(3))\n"
        "before = 'coloretto_log.log.models' in sys.modules\n"
        "built = report.match is not None\n"
        "print(json.dumps([report.valid, before, built, 'coloretto_log.log.models' in sys.modules]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    # valid; the models not imported by the check; the Match built (and the models imported) on first use
    assert json.loads(out.stdout) == [True, False, True, True]
