"""The replay timeline: states, narrative lines and scores, move by move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core.cards import KIND_INDEX
from coloretto_log.core.engine import Take
from coloretto_log.core.scoring import best_from_counts
from coloretto_log.log.replay import check_match
from coloretto_log.report.timeline import build, scores_line, standings_json, step_json

from ..builders.viewer import (
    GOLDEN,
    GOLDEN_NARRATIVE,
    TWO_PLAYER,
    TWO_PLAYER_NARRATIVE,
    random_match,
    with_claims,
)


def timeline_of(data: dict[str, Any], label: str = "t.json") -> Any:
    return build(check_match(data), label=label, file=label)


def counts(**kinds: int) -> tuple[int, ...]:
    out = [0] * len(KIND_INDEX)
    for kind, n in kinds.items():
        out[KIND_INDEX[kind]] = n
    return tuple(out)


def test_two_player_narrative_line_by_line() -> None:
    t = timeline_of(TWO_PLAYER)
    (g,) = t.games
    assert [s.narrative for s in g.steps] == TWO_PLAYER_NARRATIVE
    assert g.complete and g.moves == 10 and g.error is None
    # Hand-checked: Aiko orange 2, blue, green, +2 = 3 + 1 + 1 + 2; Boris's joker goes to blue
    # (blue 2 = 3, brown 1, yellow 1; brown would tie, blue comes first in edition order).
    assert g.final_scores == (7, 5)
    assert scores_line(t.players, (7, 5)) == "Aiko 7 · Boris 5 — Aiko wins"
    assert g.steps[-1].scores[1].jokers == ("blue",)


def test_two_player_states_by_hand() -> None:
    (g,) = timeline_of(TWO_PLAYER).games
    players = ("Aiko", "Boris")
    # After move 4 (Boris took the joker): 54 cards + the last-round card, 3 turned over.
    s4 = step_json(g.steps[4], players)
    assert s4["round"] == 1 and s4["next"] == "Aiko" and s4["deck"] == 52 and not s4["last_round"]
    assert s4["rows"] == [
        {"row": 1, "limit": 1, "cards": ["green"], "taken": False, "taken_by": None},
        {"row": 2, "limit": 2, "cards": ["plus2"], "taken": False, "taken_by": None},
        {"row": 3, "limit": 3, "cards": [], "taken": True, "taken_by": "Boris"},
    ]
    assert s4["action"] == {
        "player": "Boris",
        "action": "take",
        "row": 3,
        "cards": ["joker"],
        "extra": None,
        "last_round": False,
    }
    boris = s4["players"][1]
    assert boris["collection"] == {
        "orange": 0,
        "blue": 0,
        "brown": 1,
        "yellow": 1,
        "green": 0,
        "joker": 1,
        "plus2": 0,
    }
    assert boris["taken"] is True and boris["score"] == 4 and boris["jokers"] == ["brown"]
    # After move 6 the round is over: fresh rows, the leftover green discarded, Aiko (the later taker) starts.
    s6 = step_json(g.steps[6], players)
    assert s6["round"] == 2 and s6["next"] == "Aiko" and s6["deck"] == 51
    assert [r["cards"] for r in s6["rows"]] == [[], [], []] and not any(
        r["taken"] for r in s6["rows"]
    )
    assert s6["discarded"] == ["green"]
    assert s6["players"][0]["collection"] == {
        "orange": 1,
        "blue": 1,
        "brown": 0,
        "yellow": 0,
        "green": 1,
        "joker": 0,
        "plus2": 1,
    }
    assert s6["players"][0]["score"] == 5
    # Move 7 turns over the last-round card, then blue: two cards.
    s7 = step_json(g.steps[7], players)
    assert s7["last_round"] is True and s7["deck"] == 49 and s7["action"]["last_round"] is True
    assert s7["action"]["card"] == "blue" and s7["next"] == "Boris"
    end = step_json(g.steps[-1], players)
    assert end["over"] is True and end["next"] is None
    assert [p["score"] for p in end["players"]] == [7, 5]


def test_golden_joker_extra_after_the_last_round_card() -> None:
    t = timeline_of(GOLDEN)
    (g,) = t.games
    assert [s.narrative for s in g.steps] == GOLDEN_NARRATIVE
    s2 = step_json(g.steps[2], t.players)
    assert s2["action"] == {
        "player": "Boris",
        "action": "take",
        "row": 1,
        "cards": ["golden_joker"],
        "extra": "red",
        "last_round": True,
    }
    assert s2["last_round"] is True
    assert (
        s2["players"][1]["collection"]["golden_joker"] == 1
        and s2["players"][1]["collection"]["red"] == 1
    )
    # Boris: blue, red and the golden joker, which goes to blue (ties with red; blue first): 3 + 1.
    assert g.final_scores == (3, 4, 2, 2)
    assert t.as_json()["games"][0]["winners"] == ["Boris"]
    # the anniversary collection keys include the golden joker and purple, not grey
    assert list(s2["players"][0]["collection"]) == [
        "orange",
        "blue",
        "brown",
        "yellow",
        "green",
        "red",
        "purple",
        "joker",
        "golden_joker",
        "plus2",
    ]


def test_scores_at_every_step_are_the_best_assignment() -> None:
    t = timeline_of(GOLDEN)
    for step in t.games[0].steps:
        s = step.state
        for seat, a in enumerate(step.scores):
            assert a == best_from_counts(s.collections[seat], s.colours, table=s.rules.table)


def test_invalid_game_replays_up_to_its_first_error_and_the_next_game_goes_on() -> None:
    data = json.loads(json.dumps(TWO_PLAYER))
    data["rules"]["games"] = 2
    broken = json.loads(json.dumps(data["games"][0]))
    broken["moves"][4] = {
        "player": "Aiko",
        "action": "draw",
        "row": 1,
        "card": "green",
    }  # row 1 holds 1 card
    data["games"] = [broken, TWO_PLAYER["games"][0]]
    t = timeline_of(data, "bad.json")
    first, second = t.games
    assert first.moves == 4 and not first.complete
    assert first.error is not None and first.error.rule == "row-full" and first.error.move == 5
    assert t.as_json()["games"][0]["error"] == {
        "game": 1,
        "move": 5,
        "rule": "row-full",
        "message": "row 1 already holds 1 card",
        "line": "bad.json: game 1, move 5: error [row-full] row 1 already holds 1 card",
    }
    assert first.final_scores is None and t.as_json()["games"][0]["scores"] is None
    # Hand-checked after move 4: Aiko orange + blue = 2, Boris brown 2 with the joker = 3 + yellow 1.
    assert t.as_json()["games"][0]["scores_so_far"] == [
        {"player": "Aiko", "score": 2, "rank": 2},
        {"player": "Boris", "score": 4, "rank": 1},
    ]
    assert t.as_json()["games"][0]["leaders"] == ["Boris"]
    assert not t.valid
    # The second game (complete and valid) still replays in full.
    assert second.complete and second.moves == 10 and second.final_scores == (7, 5)
    assert t.totals() == ((7, 5), 1)


def test_a_match_that_cannot_be_read_has_no_game() -> None:
    t = timeline_of({"format": "coloretto-log", "version": 2, "players": ["A", "B"], "games": []})
    assert t.games == () and not t.valid
    assert t.match_error is not None and t.match_error.rule == "bad-version"
    assert t.as_json()["error"]["line"].startswith("t.json: error [bad-version]")


def test_a_bad_setup_gives_a_game_with_no_step() -> None:
    data = json.loads(json.dumps(TWO_PLAYER))
    data["games"][0]["setup"]["first"] = "Zed"
    (g,) = timeline_of(data).games
    assert g.steps == () and g.error is not None and g.error.rule == "bad-first"
    assert timeline_of(data).as_json()["games"][0]["states"] == []


def test_claims_and_their_verdicts_at_the_end_of_a_game() -> None:
    # Hand-checked (see test_two_player_narrative_line_by_line): Aiko 7 with orange, blue, green
    # positive and no joker; Boris 5 with his joker on blue.
    log = with_claims({
        "Boris": {"score": 5, "jokers": ["blue"], "positive": ["blue", "brown", "yellow"]},
        "Aiko": {"score": 9},
    })
    t = timeline_of(log)
    (g,) = t.games
    assert [(v.player, v.status) for v in g.claims] == [("Aiko", "over-claimed"), ("Boris", "agrees")]
    aiko, boris = t.as_json()["games"][0]["claims"]
    assert aiko["claimed_score"] == 9 and aiko["optimal_score"] == 7 and aiko["difference"] == 2
    assert aiko["optimal_jokers"] == [] and aiko["optimal_positive"] == ["orange", "blue", "green"]
    assert aiko["claimed_jokers"] is None and not aiko["agrees"]
    assert [p["status"] for p in aiko["problems"]] == ["over-claimed"]
    assert "claims 9 but the optimum is 7" in aiko["problems"][0]["message"]
    assert boris["agrees"] and boris["choice_score"] == 5 and boris["optimal_jokers"] == ["blue"]
    assert boris["claimed_positive"] == ["blue", "brown", "yellow"]
    # no claim: an empty list; a game not complete: null (its claims are not checked)
    assert timeline_of(TWO_PLAYER).as_json()["games"][0]["claims"] == []
    cut = with_claims({"Aiko": {"score": 9}})
    del cut["games"][0]["moves"][-1]
    assert timeline_of(cut).as_json()["games"][0]["claims"] is None


def test_ties_share_the_win() -> None:
    assert scores_line(("A", "B", "C"), (5, 9, 9)) == "A 5 · B 9 · C 9 — B and C tie"
    assert scores_line(("A", "B", "C"), (9, 9, 9)) == "A 9 · B 9 · C 9 — A, B and C tie"
    # Tied players share a rank and the next rank is skipped (39, 39, 35: 1, 1, 3).
    assert standings_json(("A", "B", "C", "D"), (35, 39, 12, 39)) == [
        {"player": "A", "score": 35, "rank": 3},
        {"player": "B", "score": 39, "rank": 1},
        {"player": "C", "score": 12, "rank": 4},
        {"player": "D", "score": 39, "rank": 1},
    ]


# --------------------------------------------------------------------------- seeded logs by random play


CASES = [
    (seed, players, edition)
    for seed in range(15)
    for players, edition in ((2, "classic"), (3, "anniversary"), (4, "classic"), (5, "anniversary"))
]


@pytest.mark.parametrize(("seed", "players", "edition"), CASES)
def test_seeded_logs_with_and_without_cards_replay_to_the_same_states(
    seed: int, players: int, edition: str
) -> None:
    rng = random.Random(seed * 31 + players)
    a, b, states, moves = random_match(seed, players, edition, 2, rng, explicit_setup=seed % 2 == 1)
    assert any("card" in m for g in a["games"] for m in g["moves"])
    assert not any("card" in m or "extra" in m for g in b["games"] for m in g["moves"])
    ta, tb = timeline_of(a, "x.json"), timeline_of(b, "x.json")
    assert ta.valid and tb.valid
    assert ta.as_json() == tb.as_json()
    for g, timeline in enumerate(ta.games):
        assert timeline.complete and timeline.seeded
        # every state is the one the engine reached while the game was played
        assert [s.state for s in timeline.steps] == states[g]
        assert [s.move for s in timeline.steps[1:]] == moves[g]
        assert [s.state for s in tb.games[g].steps] == states[g]
        js = ta.as_json()["games"][g]["states"]
        assert [s["move"] for s in js] == list(range(len(states[g])))
        for s, state in zip(js, states[g]):
            assert [r["cards"] for r in s["rows"]] == [list(r) for r in state.rows]
            assert s["deck"] == state.cards_left and s["round"] == state.round
            assert s["next"] == (None if state.over else a["players"][state.current])
    assert ta.totals() is not None


def test_narrative_of_a_seeded_game_follows_the_moves() -> None:
    rng = random.Random(7)
    a, _, all_states, all_moves = random_match(11, 2, "classic", 1, rng)
    states, moves = all_states[0], all_moves[0]
    (g,) = timeline_of(a).games
    lines = [s.narrative for s in g.steps[1:]]
    assert len(lines) == len(moves)
    names = a["players"]
    for line, move, before in zip(lines, moves, states):
        assert line.startswith(f"round {before.round} · ")
        if isinstance(move, Take):
            assert f"{names[move.seat]} takes row {move.row}: " in line
        elif move.last_round:
            assert f"last-round card! {names[move.seat]} draws again: " in line
        else:
            assert line.endswith(
                f"{names[move.seat]} draws {move.card.replace('plus2', '+2').replace('_', ' ')} → row {move.row}"
            )  # type: ignore[union-attr]
    assert sum("last-round card!" in line for line in lines) == 1
    assert lines[-1].endswith(" · end of the game")
    rounds = states[-1].round
    assert (
        sum(line.endswith(" · end of round " + line.split(" ")[1]) for line in lines) == rounds - 1
    )


def test_json_is_plain_and_stable() -> None:
    t = timeline_of(TWO_PLAYER)
    text = json.dumps(t.as_json())
    assert json.loads(text) == t.as_json()
    assert list(t.as_json()) == [
        "file",
        "line",
        "match_id",
        "players",
        "rules",
        "valid",
        "error",
        "findings",
        "games",
        "totals",
    ]
    game = t.as_json()["games"][0]
    assert list(game) == [
        "game",
        "seeded",
        "complete",
        "setup",
        "colours",
        "moves",
        "error",
        "findings",
        "states",
        "scores",
        "winners",
        "scores_so_far",
        "leaders",
        "claims",
    ]
    assert list(game["states"][0]) == [
        "move",
        "action",
        "narrative",
        "story",
        "round",
        "last_round",
        "over",
        "next",
        "deck",
        "rows",
        "discarded",
        "players",
    ]
    assert list(game["states"][0]["players"][0]) == [
        "player",
        "collection",
        "taken",
        "score",
        "jokers",
        "positive",
    ]
    assert game["states"][0]["action"] is None


def test_hand_checked_collections_match_the_engine() -> None:
    (g,) = timeline_of(TWO_PLAYER).games
    assert g.steps[-1].state.collections == (
        counts(orange=2, blue=1, green=1, plus2=1),
        counts(brown=1, yellow=1, joker=1, blue=1),
    )


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, (1 << 64) - 1),
    players=st.integers(2, 5),
    edition=st.sampled_from(["classic", "anniversary"]),
    policy=st.integers(0, 1 << 30),
)
def test_any_seed_replays_the_same_without_cards(
    seed: int, players: int, edition: str, policy: int
) -> None:
    a, b, states, _ = random_match(seed, players, edition, 1, random.Random(policy))
    ta, tb = timeline_of(a), timeline_of(b)
    assert ta.as_json() == tb.as_json()
    assert [s.state for s in tb.games[0].steps] == states[0]
    # scores in the JSON are the best assignment of the engine's collections
    last = ta.as_json()["games"][0]["states"][-1]
    final = states[0][-1]
    assert [p["score"] for p in last["players"]] == [
        best_from_counts(c, final.colours, table=final.rules.table).score for c in final.collections
    ]
