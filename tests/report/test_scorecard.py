"""The scoring library behind ``coloretto-log score``: rankings, scored matches, the hand parser.

Hand-checked values come from docs/rules-of-play.md §5 (the worked examples, 41 and 37),
the issue (BoardGameArena's jokers-to-the-largest-set: 25 where 28 is best)
and tests/data/recorded-3p-game.json (a copy of the shared example, whose
claims agree: Aiko 35, Boris 38, Chloe 39).
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core.cards import KIND_INDEX, KINDS, N_KINDS
from coloretto_log.core.ruleset import ALTERNATIVE, ANNIVERSARY, CLASSIC, EDITIONS, STANDARD, TABLES
from coloretto_log.core.scoring import Hand, evaluate_choice, exhaustive_best
from coloretto_log.log.load import LoadedMatch
from coloretto_log.log.replay import check_match
from coloretto_log.report.scorecard import (
    HandError,
    MatchScore,
    calculate,
    parse_hand,
    parse_removed,
    ranks,
    score_hand,
    score_match,
)

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLE = DATA / "recorded-3p-game.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def scored(data: dict[str, Any], label: str = "t.json") -> MatchScore:
    return score_match(LoadedMatch(label, label, None, check_match(copy.deepcopy(data))))


def counts(**cards: int) -> tuple[int, ...]:
    out = [0] * N_KINDS
    for name, n in cards.items():
        out[KIND_INDEX[name]] = n
    return tuple(out)


# --------------------------------------------------------------------------- rankings


def test_ranks_ties_share_and_skip() -> None:
    assert ranks([39, 38, 35]) == (1, 2, 3)
    assert ranks([35, 39, 39]) == (3, 1, 1)
    assert ranks([10, 20, 20, 5]) == (3, 1, 1, 4)
    assert ranks([7, 7, 7]) == (1, 1, 1)
    assert ranks([-3, 0]) == (2, 1)
    assert ranks([]) == ()


@given(st.lists(st.integers(-60, 120), max_size=5))
def test_ranks_invariants(values: list[int]) -> None:
    r = ranks(values)
    assert len(r) == len(values)
    for i, v in enumerate(values):
        assert r[i] == 1 + sum(1 for w in values if w > v)
        for j, w in enumerate(values):
            assert (r[i] == r[j]) == (v == w)
            assert (r[i] < r[j]) == (v > w)
    if values:
        assert min(r) == 1


# --------------------------------------------------------------------------- the calculator


def test_worked_example_seed_000_scores_41() -> None:
    h = calculate("green=6 yellow=4 red=3 blue=2 joker=1 +2=1")
    assert h.score == 41
    assert h.optimal.jokers == ("yellow",)
    assert set(h.optimal.positive) == {"green", "yellow", "red"}
    points = {row.colour: row.points for row in h.optimal.breakdown}
    assert points == {"green": 21, "yellow": 15, "red": 6, "blue": -3}
    assert h.optimal.plus2_points == 2


def test_worked_example_seed_001_scores_37() -> None:
    h = calculate("orange=6 blue=3 brown=3 yellow=2 grey=1 joker=1 +2=2")
    assert h.score == 37
    assert h.optimal.jokers == ("blue",)
    assert set(h.optimal.positive) == {"orange", "blue", "brown"}
    points = {row.colour: row.points for row in h.optimal.breakdown}
    assert points == {"orange": 21, "blue": 10, "brown": 6, "yellow": -3, "grey": -1}


def test_bga_largest_set_rule_loses_three_points() -> None:
    h = calculate("red=6 blue=2 green=1 joker=1")
    assert h.score == 28
    assert h.optimal.jokers == ("blue",)
    # BoardGameArena's rule puts the joker on the largest set (red, already at 6):
    largest = evaluate_choice(
        Hand.of({"red": 6, "blue": 2, "green": 1}, jokers=1), CLASSIC.colours, jokers=["red"], positive=None
    )
    assert largest.score == 25


def test_alternative_table_joker_on_a_negative_colour() -> None:
    # Four colours of 3 (8 points each under the alternative table): one must be negative,
    # and the joker is best spent on it (3 -> 4 cards: -8 becomes -7).
    h = calculate("blue=3 yellow=3 green=3 red=3 joker=1", table="alternative")
    assert h.score == 8 + 8 + 8 - 7 == 17
    (joker,) = h.optimal.jokers
    assert joker not in h.optimal.positive
    (negative,) = [row for row in h.optimal.breakdown if row.sign < 0]
    assert (negative.colour, negative.jokers, negative.points) == (joker, 1, -7)


def test_anniversary_golden_joker_and_removed_colours() -> None:
    h = calculate("red=5 purple=2 golden=1 j=2", edition="anniversary", removed=["blue", "green"])
    assert h.edition is ANNIVERSARY
    assert h.removed == ("blue", "green")
    assert h.colours == ("orange", "brown", "yellow", "red", "purple")
    assert h.counts[KIND_INDEX["golden_joker"]] == 1 and h.counts[KIND_INDEX["joker"]] == 2
    assert len(h.optimal.jokers) == 3
    assert h.score == exhaustive_best(Hand.of({"red": 5, "purple": 2}, jokers=3), h.colours).score
    # red 5 + 1 joker = 21, purple 2 + 2 jokers = 10
    assert h.score == 31


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("green=6 yellow=4", {"green": 6, "yellow": 4}),
        ("Green = 6, YELLOW:4", {"green": 6, "yellow": 4}),
        ("gray=2", {"grey": 2}),
        ("GREY=3", {"grey": 3}),
        ("j=1", {"joker": 1}),
        ("J", {"joker": 1}),
        ("jokers=2", {"joker": 2}),
        ("joker", {"joker": 1}),
        ("+2=3", {"plus2": 3}),
        ("plus2=3", {"plus2": 3}),
        ("PLUS2", {"plus2": 1}),
        ("p2=1 red", {"plus2": 1, "red": 1}),
        ("red=0 blue=1", {"blue": 1}),
        ("red=09", {"red": 9}),
        # issue 30: cards typed one at a time add up, as at a table
        ("blue=4 brown=4 j j j +2 +2", {"blue": 4, "brown": 4, "joker": 3, "plus2": 2}),
        ("joker joker joker", {"joker": 3}),
        ("3j", {"joker": 3}),
        ("j3", {"joker": 3}),
        ("3xj", {"joker": 3}),
        ("3 j", {"joker": 3}),
        ("3 jokers", {"joker": 3}),
        ("2x+2", {"plus2": 2}),
        ("2+2 p2", {"plus2": 3}),
        ("2 reds, red", {"red": 3}),
        ("green=3 green=3", {"green": 3}),  # the same count twice: no disagreement
        ("j=1 joker=1", {"joker": 1}),
    ],
)
def test_parse_hand_accepts_what_people_type(text: str, expected: dict[str, int]) -> None:
    assert parse_hand(text, edition=CLASSIC) == counts(**expected)


@given(st.lists(st.sampled_from(["red", "r", "blue", "bl", "j", "joker", "+2", "p2"]), max_size=12), st.randoms())
def test_cards_typed_one_at_a_time_add_up(words: list[str], rnd: random.Random) -> None:
    """A hand typed card by card, in any order, is the hand typed as name=count (issue 30)."""
    kinds = {"r": "red", "bl": "blue", "j": "joker", "+2": "plus2", "p2": "plus2"}
    tally: dict[str, int] = {}
    for w in words:
        tally[kinds.get(w, w)] = tally.get(kinds.get(w, w), 0) + 1
    rnd.shuffle(words)
    if tally.get("joker", 0) > CLASSIC.jokers:
        with pytest.raises(HandError, match="jokers: the classic edition has only 3"):
            parse_hand(" ".join(words), edition=CLASSIC)
        return
    if not words:
        return
    as_counts = " ".join(f"{k}={n}" for k, n in tally.items())
    assert parse_hand(" ".join(words), edition=CLASSIC) == parse_hand(as_counts, edition=CLASSIC) == counts(**tally)


@pytest.mark.parametrize("name", ["golden", "gj", "GJ", "gold", "golden_joker", "golden-joker", "goldenjoker"])
def test_parse_hand_golden_joker_names(name: str) -> None:
    assert parse_hand(f"purple=2 {name}=1", edition=ANNIVERSARY) == counts(purple=2, golden_joker=1)


@pytest.mark.parametrize(
    ("text", "edition", "removed", "message"),
    [
        ("green=10", CLASSIC, (), "10 green: the game has only 9 green cards"),
        ("red=99", ANNIVERSARY, (), "99 red: the game has only 9 red cards"),
        ("joker=4", CLASSIC, (), "4 jokers: the classic edition has only 3"),
        (
            "joker=3",
            ANNIVERSARY,
            (),
            "3 jokers: the anniversary edition has only 2 (and 1 golden joker: give it as golden=1)",
        ),
        ("gj=2", ANNIVERSARY, (), "2 golden jokers: the anniversary edition has only 1"),
        ("golden=1", CLASSIC, (), "the classic edition has no golden joker (use --edition anniversary)"),
        ("+2=11", CLASSIC, (), '11 "+2" cards: the game has only 10'),
        ("grey=1", CLASSIC, ("grey",), "grey is removed from this game (--removed), so no hand holds it"),
        ("gray=1", CLASSIC, ("grey",), "grey is removed from this game (--removed), so no hand holds it"),
        (
            "purple=1",
            CLASSIC,
            (),
            "purple is not a colour of the classic edition (orange, blue, brown, yellow, grey, green, red)",
        ),
        (
            "grey=2",
            ANNIVERSARY,
            (),
            "grey is not a colour of the anniversary edition (orange, blue, brown, yellow, green, red, purple)",
        ),
        ("pink=2", CLASSIC, (), '"pink" is not a card name; use a colour, joker (j), golden (gj) or +2 (plus2)'),
        ("green=3 green=2", CLASSIC, (), ('green is given twice, as "green=3" and as "green=2": give one count, '
         "e.g. green=3 for 3 green or green=2 for 2 green")),
        ("joker=2 j", CLASSIC, (), ('joker is given as "joker=2" and also as "j": did you mean 3 jokers (joker=3) '
         "or 2 jokers (joker=2)? give the joker cards once")),
        ("+2=1 2x+2", CLASSIC, (), ('+2 is given as "+2=1" and also as "2x+2": did you mean 3 "+2" cards (+2=3) '
         'or 1 "+2" card (+2=1)? give the +2 cards once')),
        ("j j j j", CLASSIC, (), "4 jokers: the classic edition has only 3"),
        ("3", CLASSIC, (), '"3": a count with no card after it; write e.g. "3 j" or "j=3"'),
        ("3 4 j", CLASSIC, (), '"3 4": two counts in a row; give a card after a count, e.g. "3 j"'),
        ("green=x", CLASSIC, (), '"green=x": the count must be a whole number, 0 or more'),
        ("green=-1", CLASSIC, (), '"green=-1": the count must be a whole number, 0 or more'),
        ("green=2.5", CLASSIC, (), '"green=2.5": the count must be a whole number, 0 or more'),
        ("green=", CLASSIC, (), '"green=": the count must be a whole number, 0 or more'),
        ("=3", CLASSIC, (), '"=3": a card name is missing before the count'),
        ("   ", CLASSIC, (), 'the hand is empty; give cards as name=count, e.g. "green=6 yellow=4 joker=1 +2=1"'),
    ],
)
def test_parse_hand_rejects_impossible_hands(
    text: str, edition: Any, removed: tuple[str, ...], message: str
) -> None:
    with pytest.raises(HandError) as info:
        parse_hand(text, edition=edition, removed=removed)
    assert str(info.value) == message


def test_parse_removed() -> None:
    assert parse_removed(["grey"], edition=CLASSIC) == ("grey",)
    assert parse_removed(["red, Gray"], edition=CLASSIC) == ("grey", "red")  # edition order
    assert parse_removed(["red", "blue"], edition=CLASSIC) == ("blue", "red")
    assert parse_removed([], edition=CLASSIC) == ()
    for names, message in [
        (["grey", "gray"], "--removed: grey is given twice"),
        (["pink"], '--removed: "pink" is not a colour'),
        (["joker"], '--removed: "joker" is not a colour'),
        (
            ["purple"],
            "--removed: purple is not a colour of the classic edition (orange, blue, brown, yellow, grey, green, red)",
        ),
        (
            ["red,blue,green"],
            "--removed: 3 colours; at most 2 are removed (2 players), one with 3 players, none with 4 or 5",
        ),
    ]:
        with pytest.raises(HandError) as info:
            parse_removed(names, edition=CLASSIC)
        assert str(info.value) == message


def test_calculate_rejects_unknown_edition_and_table() -> None:
    with pytest.raises(HandError, match=r'^--edition: "deluxe" is not an edition; use classic or anniversary$'):
        calculate("red=1", edition="deluxe")
    with pytest.raises(HandError, match=r'^--table: "other" is not a scoring table; use standard or alternative$'):
        calculate("red=1", table="other")
    assert calculate("red=1", edition=" Anniversary ", table="ALTERNATIVE").table is ALTERNATIVE


def test_hand_json_shape() -> None:
    h = calculate("green=6 yellow=4 red=3 blue=2 joker=1 +2=1")
    j = h.as_json()
    assert list(j) == [
        "edition", "table", "removed", "colours", "cards",
        "score", "jokers", "positive", "breakdown", "plus2_points",
    ]
    assert j["cards"] == {
        "orange": 0, "blue": 2, "brown": 0, "yellow": 4, "grey": 0, "green": 6, "red": 3,
        "joker": 1, "plus2": 1,
    }
    assert j["score"] == 41 and j["jokers"] == ["yellow"] and j["positive"] == ["yellow", "green", "red"]
    assert j["breakdown"][1] == {
        "colour": "yellow", "cards": 4, "jokers": 1, "effective": 5, "sign": 1, "points": 15,
    }
    anniversary = calculate("red=1", edition="anniversary").as_json()
    assert list(anniversary["cards"])[-3:] == ["joker", "golden_joker", "plus2"]
    json.dumps(j)  # plain values only


LIMITS = {
    "classic": {"joker": 3, "golden_joker": 0, "plus2": 10},
    "anniversary": {"joker": 2, "golden_joker": 1, "plus2": 10},
}
SPELLINGS = {
    "grey": ["grey", "gray", "GRAY"],
    "joker": ["joker", "j", "J", "jokers"],
    "golden_joker": ["golden_joker", "golden", "gj", "gold"],
    "plus2": ["plus2", "+2", "p2"],
}


@st.composite
def typed_hands(draw: st.DrawFn) -> tuple[str, str, tuple[int, ...], tuple[str, ...]]:
    """A possible hand, the rules it is for, and one way a person might type it."""
    edition = draw(st.sampled_from(sorted(EDITIONS)))
    colours = EDITIONS[edition].colours
    removed = tuple(draw(st.lists(st.sampled_from(colours), max_size=2, unique=True)))
    out = [0] * N_KINDS
    for c in colours:
        if c not in removed:
            out[KIND_INDEX[c]] = draw(st.integers(0, 9))
    for kind, most in LIMITS[edition].items():
        out[KIND_INDEX[kind]] = draw(st.integers(0, most))
    rng = random.Random(draw(st.integers(0, 2**32)))
    items = []
    for kind, n in zip(KINDS, out):
        if n or (rng.random() < 0.1 and kind in colours and kind not in removed):
            name = rng.choice(SPELLINGS.get(kind, [kind, kind.upper()]))
            sep = rng.choice(["=", ":", " = "])
            items.append(name if n == 1 and rng.random() < 0.3 else f"{name}{sep}{n}")
    rng.shuffle(items)
    text = rng.choice([" ", ", ", "  "]).join(items) or "red=0"
    return edition, text, tuple(out), removed


@settings(max_examples=150, deadline=None)
@given(typed_hands(), st.sampled_from(sorted(TABLES)))
def test_typed_hands_parse_back_and_score_like_the_reference(
    case: tuple[str, str, tuple[int, ...], tuple[str, ...]], table: str
) -> None:
    edition, text, expected, removed = case
    h = calculate(text, edition=edition, table=table, removed=list(removed))
    assert h.counts == expected
    reference = exhaustive_best(Hand.from_counts(expected), h.colours, table=TABLES[table])
    assert h.score == reference.score
    assert h.optimal == score_hand(expected, edition=EDITIONS[edition], table=TABLES[table], removed=removed).optimal
    assert all(c not in removed for c in h.optimal.jokers)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["orange", "blue", "red", "joker", "plus2", "golden_joker"]),
    st.integers(0, 999),
    st.sampled_from(sorted(EDITIONS)),
)
def test_counts_beyond_the_box_are_refused_in_one_line(kind: str, n: int, edition: str) -> None:
    ed = EDITIONS[edition]
    most = {"joker": ed.jokers, "golden_joker": ed.golden_jokers, "plus2": ed.plus2}.get(kind, 9)
    try:
        got = parse_hand(f"{kind}={n}", edition=ed)
    except HandError as e:
        assert n > most
        assert "\n" not in str(e) and str(e)
    else:
        assert n <= most
        assert got[KIND_INDEX[kind]] == n


# --------------------------------------------------------------------------- scored matches


def test_example_match_scored() -> None:
    m = scored(example())
    assert m.valid and m.complete and m.agrees
    (game,) = m.games
    assert game.complete and game.removed == ("orange",)
    assert [(p.player, p.score, p.rank) for p in game.players] == [("Aiko", 35, 3), ("Boris", 38, 2), ("Chloe", 39, 1)]
    assert [p.player for p in game.ranking()] == ["Chloe", "Boris", "Aiko"]
    assert game.winners() == ("Chloe",)
    assert [(s.player, s.total, s.rank) for s in m.standings] == [("Aiko", 35, 3), ("Boris", 38, 2), ("Chloe", 39, 1)]
    assert all(p.verdict is not None and p.verdict.status == "agrees" for p in game.players)
    chloe = game.players[2]
    assert chloe.optimal.jokers == ("blue", "blue")
    assert chloe.counts[KIND_INDEX["joker"]] == 2
    assert m.findings == ()


def test_totals_add_up_games_and_match_is_complete_when_all_are_played() -> None:
    data = example()
    data["rules"]["games"] = 2
    data["games"] = [data["games"][0], copy.deepcopy(data["games"][0])]
    m = scored(data)
    assert m.valid and m.complete and m.games_counted == 2
    assert [s.total for s in m.standings] == [70, 76, 78]
    assert [s.rank for s in m.standings] == [3, 2, 1]
    assert m.winners() == ("Chloe",)


def test_match_with_games_missing_is_incomplete() -> None:
    data = example()
    data["rules"]["games"] = 3
    m = scored(data)
    assert m.valid and not m.complete
    assert m.games_counted == 1
    assert [s.total for s in m.standings] == [35, 38, 39]
    assert m.as_json()["complete"] is False


def test_game_in_progress_is_provisional_and_its_claims_unchecked() -> None:
    data = example()
    data["games"][0]["moves"] = data["games"][0]["moves"][:30]
    data["games"][0]["claims"]["Aiko"]["score"] = 99  # would be over-claimed if checked
    m = scored(data)
    assert m.valid and not m.complete
    (game,) = m.games
    assert not game.complete and game.unchecked_claims
    assert all(p.verdict is None for p in game.players)
    assert m.agrees and m.disputes == 0
    assert [s.total for s in m.standings] == [0, 0, 0]  # nothing finished yet
    assert [s.rank for s in m.standings] == [1, 1, 1]  # tied players share the rank
    assert [f.rule for f in m.findings] == ["incomplete-game"]
    # the provisional scores are those of the cards held so far
    for p in game.players:
        assert p.score == exhaustive_best(Hand.from_counts(p.counts), game.colours).score
    j = m.as_json()["games"][0]
    assert j["complete"] is False and j["claims_checked"] is False


def test_disputed_claims_counted() -> None:
    data = example()
    claims = data["games"][0]["claims"]
    claims["Aiko"]["score"] = 33
    claims["Boris"]["positive"] = ["blue", "blue", "yellow"]
    m = scored(data)
    assert m.valid and not m.agrees and m.disputes == 2
    statuses = [p.verdict.status if p.verdict else None for p in m.games[0].players]
    assert statuses == ["under-claimed", "illegal-choice", "agrees"]
    assert [p.disputed for p in m.games[0].players] == [True, True, False]


def test_player_without_claim_has_no_verdict() -> None:
    data = example()
    del data["games"][0]["claims"]["Boris"]
    m = scored(data)
    assert [p.verdict is None for p in m.games[0].players] == [False, True, False]
    assert len(m.verdicts()) == 2


def test_invalid_match_is_not_scored() -> None:
    data = example()
    data["games"][0]["moves"][0]["row"] = 9
    m = scored(data)
    assert not m.valid and m.games == () and m.standings == ()
    assert [f.rule for f in m.findings] == ["unknown-row"]
    j = m.as_json()
    assert j["valid"] is False and j["games"] == [] and j["totals"] == []
    assert j["findings"][0]["rule"] == "unknown-row"


def test_match_json_shape() -> None:
    j = scored(example()).as_json()
    assert list(j) == [
        "file", "line", "match_id", "valid", "complete", "rules", "players", "games",
        "totals", "winners", "games_counted", "claims", "disputes", "findings",
    ]
    assert j["rules"] == {"edition": "classic", "scoring": "standard", "games": 1}
    game = j["games"][0]
    assert list(game) == ["game", "complete", "removed", "colours", "players", "winners", "claims_checked"]
    player = game["players"][0]
    assert list(player) == [
        "player", "seat", "rank", "cards", "score", "jokers", "positive", "breakdown",
        "plus2_points", "verdict",
    ]
    assert player["cards"] == {
        "blue": 0, "brown": 4, "yellow": 2, "grey": 6, "green": 2, "red": 3, "joker": 0, "plus2": 2,
    }
    assert player["verdict"]["status"] == "agrees"
    assert j["totals"] == [
        {"player": "Aiko", "total": 35, "rank": 3},
        {"player": "Boris", "total": 38, "rank": 2},
        {"player": "Chloe", "total": 39, "rank": 1},
    ]
    assert json.loads(json.dumps(j)) == j


def test_standard_table_default_and_alternative_from_the_log() -> None:
    data = example()
    data["rules"]["scoring"] = "alternative"
    del data["games"][0]["claims"]
    m = scored(data)
    assert m.rules is not None and m.rules.table is ALTERNATIVE
    for p in m.games[0].players:
        assert p.score == exhaustive_best(Hand.from_counts(p.counts), m.games[0].colours, table=ALTERNATIVE).score
    assert scored(example()).rules.table is STANDARD  # type: ignore[union-attr]
