"""Scoring: worked examples with their source, the tie-break, the reference, declared choices."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core import scoring
from coloretto_log.core.cards import GOLDEN_JOKER, JOKER, KIND_INDEX, N_KINDS, PLUS2
from coloretto_log.core.ruleset import (
    ALTERNATIVE,
    ANNIVERSARY,
    CLASSIC,
    STANDARD,
    Edition,
    ScoringTable,
    colours_in_play,
)
from coloretto_log.core.scoring import (
    Assignment,
    ChoiceResult,
    ColourScore,
    Hand,
    best_assignment,
    best_from_counts,
    evaluate_choice,
    exhaustive_best,
)

CLASSIC_COLOURS = CLASSIC.colours  # orange blue brown yellow grey green red
ANNIVERSARY_COLOURS = ANNIVERSARY.colours  # orange blue brown yellow green red purple


def solve_all(hand: Hand, colours: tuple[str, ...], table: ScoringTable = STANDARD) -> Assignment:
    """best_assignment with and without the caches, checked equal to the reference."""
    want = exhaustive_best(hand, colours, table=table)
    assert best_assignment(hand, colours, table=table, cache=False) == want
    assert best_assignment(hand, colours, table=table) == want
    return want


# --------------------------------------------------------------------------- worked examples


def test_rules_example_seed_000() -> None:
    # docs/rules-of-play.md §5, seed 000 (ja, line 37): green 6, yellow 4, red 3, blue 2, 1 joker,
    # one "+2": joker to yellow; green, yellow, red positive: 21 + 15 + 6 - 3 + 2 = 41.
    hand = Hand.of({"green": 6, "yellow": 4, "red": 3, "blue": 2}, jokers=1, plus2=1)
    got = solve_all(hand, CLASSIC_COLOURS)
    assert got.score == 41
    assert got.jokers == ("yellow",)
    assert got.positive == ("yellow", "green", "red")  # edition order
    assert got.plus2_points == 2
    assert got.breakdown == (
        ColourScore("blue", 2, 0, 2, -1, -3),
        ColourScore("yellow", 4, 1, 5, 1, 15),
        ColourScore("green", 6, 0, 6, 1, 21),
        ColourScore("red", 3, 0, 3, 1, 6),
    )


def test_rules_example_seed_001() -> None:
    # docs/rules-of-play.md §5, seed 001 (ja, line 66): orange 6, blue 3, brown 3, yellow 2, grey 1,
    # 1 joker, two "+2": 21 + 10 + 6 - 3 - 1 + 4 = 37. The joker on brown also gives 37;
    # the tie-break puts it on blue, the earlier colour.
    hand = Hand.of({"orange": 6, "blue": 3, "brown": 3, "yellow": 2, "grey": 1}, jokers=1, plus2=2)
    got = solve_all(hand, CLASSIC_COLOURS)
    assert got.score == 37
    assert got.jokers == ("blue",)
    assert got.positive == ("orange", "blue", "brown")
    assert [row.points for row in got.breakdown] == [21, 10, 6, -3, -1]
    assert got.plus2_points == 4
    on_brown = evaluate_choice(
        hand, CLASSIC_COLOURS, jokers=["brown"], positive=["orange", "blue", "brown"]
    )
    assert on_brown == ChoiceResult(37)


def test_bga_case_joker_not_on_the_largest_set() -> None:
    # red 6, blue 2, green 1, one joker. The joker on the 6 adds nothing: 21 + 3 + 1 = 25.
    # On blue: 21 + 6 + 1 = 28; on green: 21 + 3 + 3 = 27; on a new colour: 21 + 3 + 1 - 1 = 24.
    hand = Hand.of({"red": 6, "blue": 2, "green": 1}, jokers=1)
    got = solve_all(hand, CLASSIC_COLOURS)
    assert (got.score, got.jokers, got.positive) == (28, ("blue",), ("blue", "green", "red"))
    largest = evaluate_choice(
        hand, CLASSIC_COLOURS, jokers=["red"], positive=["blue", "green", "red"]
    )
    assert largest.score == 25
    new_colour = evaluate_choice(hand, CLASSIC_COLOURS, jokers=["orange"], positive=None)
    assert new_colour.score == 24


# --------------------------------------------------------------------------- alternative table


def test_alternative_best_joker_goes_on_a_negative_colour() -> None:
    # Alternative table: 1, 4, 8, 7, 6, 5. orange 3, blue 3, brown 3, yellow 4, one joker.
    # Without a joker: 8 + 8 + 8 - 7 = 17. Hand-checked options:
    #   yellow 4 -> 5 (negative, 7 -> 6):           8 + 8 + 8 - 6 = 18   <- best
    #   orange 3 -> 4 (8 -> 7; yellow 7 or orange 7 negative): 8 + 8 + 7 - 7 = 16
    #   an unheld colour (a new negative 1):        8 + 8 + 8 - 7 - 1 = 16
    hand = Hand.of({"orange": 3, "blue": 3, "brown": 3, "yellow": 4}, jokers=1)
    got = solve_all(hand, CLASSIC_COLOURS, ALTERNATIVE)
    assert got.score == 18
    assert got.jokers == ("yellow",)
    assert got.positive == ("orange", "blue", "brown")
    assert got.breakdown[-1] == ColourScore("yellow", 4, 1, 5, -1, -6)


def test_alternative_two_jokers_both_on_the_negative_colour() -> None:
    # Same hand, two jokers: yellow 4 -> 6 scores -5, so 24 - 5 = 19; any joker elsewhere
    # costs at least 1 (a 3 becomes a 7, or a new colour scores -1).
    hand = Hand.of({"orange": 3, "blue": 3, "brown": 3, "yellow": 4}, jokers=2)
    got = solve_all(hand, CLASSIC_COLOURS, ALTERNATIVE)
    assert (got.score, got.jokers) == (19, ("yellow", "yellow"))


def test_alternative_joker_lowers_the_score_but_is_assigned() -> None:
    # orange 3, blue 3, brown 3 = 24 with no joker; one joker must go somewhere:
    # on a 3 makes a 7 (23), on a new colour -1 (23). Tie: the earliest colour, orange.
    hand = Hand.of({"orange": 3, "blue": 3, "brown": 3}, jokers=1)
    got = solve_all(hand, CLASSIC_COLOURS, ALTERNATIVE)
    assert (got.score, got.jokers) == (23, ("orange",))
    assert got.positive == ("orange", "blue", "brown")


def test_positive_colours_are_chosen_by_points_not_by_count() -> None:
    # Alternative: 6 cards score 5, 5 cards 6, 4 cards 7, 3 cards 8.
    hand = Hand.of({"orange": 6, "blue": 5, "brown": 3, "yellow": 4})
    got = solve_all(hand, CLASSIC_COLOURS, ALTERNATIVE)
    assert got.positive == ("blue", "brown", "yellow")
    assert got.score == 6 + 8 + 7 - 5


# --------------------------------------------------------------------------- tie-break and edges


def test_positive_ties_go_to_the_earlier_colour() -> None:
    hand = Hand.of({"orange": 2, "blue": 2, "brown": 2, "yellow": 2})
    got = solve_all(hand, CLASSIC_COLOURS)
    assert got.positive == ("orange", "blue", "brown")
    assert got.score == 3 + 3 + 3 - 3


def test_joker_ties_go_to_the_earliest_colours() -> None:
    # Two jokers, three colours of 4: any two of them to 5 scores the same; the earliest win.
    hand = Hand.of({"blue": 4, "yellow": 4, "red": 4, "grey": 1}, jokers=2)
    got = solve_all(hand, CLASSIC_COLOURS)
    assert got.jokers == ("blue", "blue")
    assert got.score == 21 + 10 + 10 - 1


def test_empty_hand() -> None:
    got = solve_all(Hand(), CLASSIC_COLOURS)
    assert got == Assignment(0, (), (), (), 0)


def test_only_plus2() -> None:
    assert solve_all(Hand(plus2=3), CLASSIC_COLOURS).score == 6


@pytest.mark.parametrize("table", [STANDARD, ALTERNATIVE])
@pytest.mark.parametrize(("jokers", "score"), [(1, 1), (2, None), (3, None)])
def test_only_jokers_go_together_on_the_first_colour_in_play(
    table: ScoringTable, jokers: int, score: int | None
) -> None:
    # Orange removed (a 3-player game): the jokers may not become orange.
    colours = colours_in_play(CLASSIC, ["orange"])
    got = solve_all(Hand(jokers=jokers), colours, table)
    assert got.jokers == ("blue",) * jokers
    assert got.positive == ("blue",)
    assert got.score == table.value(jokers)


def test_more_than_six_cards_score_the_six_column() -> None:
    hand = Hand.of({"orange": 9, "blue": 7}, jokers=1)
    got = solve_all(hand, CLASSIC_COLOURS)
    # The joker adds nothing to a 6+: a new colour scores +1 as the third positive.
    assert got.jokers == ("brown",)
    assert got.score == 21 + 21 + 1
    assert got.breakdown[0] == ColourScore("orange", 9, 0, 9, 1, 21)


def test_fewer_than_three_colours_held() -> None:
    got = solve_all(Hand.of({"red": 2}), CLASSIC_COLOURS)
    assert (got.score, got.positive) == (3, ("red",))


def test_jokers_never_go_to_a_removed_colour() -> None:
    colours = colours_in_play(CLASSIC, ["blue", "grey"])  # a 2-player game
    hand = Hand.of({"orange": 2, "brown": 2, "yellow": 2, "green": 5}, jokers=3)
    got = solve_all(hand, colours)
    assert "blue" not in got.jokers and "grey" not in got.jokers
    assert all(colour in colours for colour in got.jokers)


def test_anniversary_golden_joker_counts_as_a_joker() -> None:
    counts = [0] * N_KINDS
    counts[KIND_INDEX["purple"]] = 4
    counts[KIND_INDEX["green"]] = 2
    counts[KIND_INDEX[JOKER]] = 1
    counts[KIND_INDEX[GOLDEN_JOKER]] = 1
    counts[KIND_INDEX[PLUS2]] = 1
    hand = Hand.from_counts(counts)
    assert hand == Hand.of({"green": 2, "purple": 4}, jokers=2, plus2=1)
    got = best_from_counts(counts, ANNIVERSARY_COLOURS)
    assert got == solve_all(hand, ANNIVERSARY_COLOURS)
    assert got == best_from_counts(tuple(counts), ANNIVERSARY_COLOURS, cache=False)
    assert got.jokers == ("purple", "purple")  # 4 -> 6: +11, more than anything else
    assert got.score == 21 + 3 + 2


# --------------------------------------------------------------------------- bad input


def test_hand_values_are_checked() -> None:
    with pytest.raises(ValueError, match="not a colour"):
        Hand((("pink", 1),))
    with pytest.raises(ValueError, match="colour order"):
        Hand((("blue", 1), ("orange", 1)))
    with pytest.raises(ValueError, match="at least 1"):
        Hand((("blue", 0),))
    with pytest.raises(ValueError, match="negative"):
        Hand(jokers=-1)
    with pytest.raises(ValueError, match="cards.KINDS"):
        Hand.from_counts((1, 2))
    assert Hand.of({"red": 1, "orange": 2, "blue": 0}).cards == (("orange", 2), ("red", 1))
    assert Hand.of({"red": 1}).count("red") == 1
    assert Hand.of({"red": 1}).count("blue") == 0


def test_input_that_does_not_fit_the_game_is_refused() -> None:
    colours = colours_in_play(CLASSIC, ["grey"])
    for solve in (best_assignment, exhaustive_best):
        with pytest.raises(ValueError, match="holds grey, which is not in play"):
            solve(Hand.of({"grey": 1}), colours)
        with pytest.raises(ValueError, match="edition order"):
            solve(Hand(), ("blue", "orange"))
        with pytest.raises(ValueError, match="not a colour"):
            solve(Hand(), ("orange", "pink"))
        with pytest.raises(ValueError, match="no colour is in play"):
            solve(Hand(jokers=1), ())
    counts = [0] * N_KINDS
    counts[KIND_INDEX["purple"]] = 1
    with pytest.raises(ValueError, match="holds purple, which is not in play"):
        best_from_counts(counts, CLASSIC_COLOURS)
    with pytest.raises(ValueError, match="holds purple, which is not in play"):
        best_from_counts(counts, CLASSIC_COLOURS, cache=False)


# --------------------------------------------------------------------------- declared choices

EXAMPLE_1 = Hand.of({"green": 6, "yellow": 4, "red": 3, "blue": 2}, jokers=1, plus2=1)


def choice(
    jokers: list[str] | None,
    positive: list[str] | None,
    hand: Hand = EXAMPLE_1,
    colours: tuple[str, ...] = CLASSIC_COLOURS,
) -> ChoiceResult:
    return evaluate_choice(hand, colours, jokers=jokers, positive=positive)


def test_declared_choices_that_are_legal() -> None:
    # docs/format.md §1 example claim of Aiko: 41, joker yellow, green yellow red positive.
    assert choice(["yellow"], ["green", "yellow", "red"]) == ChoiceResult(41, None)
    assert choice(["yellow"], ["red", "yellow", "green"]).score == 41  # order does not matter
    assert choice(["red"], ["green", "yellow", "red"]).score == 21 + 10 + 10 - 3 + 2
    # Fewer positive colours: the rest are negative.
    assert choice(["yellow"], ["green"]).score == 21 - 15 - 6 - 3 + 2
    # A positive colour the player does not hold is allowed and scores 0.
    assert choice(["yellow"], ["green", "yellow", "orange"]).score == 21 + 15 - 6 - 3 + 2
    # A joker on an unheld colour makes it held (one card).
    assert choice(["orange"], ["green", "yellow", "red"]).score == 21 + 10 + 6 - 3 - 1 + 2
    assert choice(["orange"], ["green", "yellow", "red"]).legal
    # Parts left out: the best for the rest.
    assert choice(["yellow"], None).score == 41
    assert choice(None, ["green", "yellow", "red"]).score == 41
    assert choice(None, ["blue"]).score == 6 - 21 - 10 - 6 + 2  # joker on blue, positive blue
    assert choice(None, None).score == 41


def test_declared_choices_that_are_illegal() -> None:
    three = ["green", "yellow", "red"]
    assert choice([], three) == ChoiceResult(None, "0 joker colour(s) given for 1 joker(s)")
    assert choice(["yellow", "red"], three).illegal == "2 joker colour(s) given for 1 joker(s)"
    assert choice(["pink"], three).illegal == "joker colour 'pink' is not a colour"
    assert choice(["purple"], three).illegal == "joker colour purple is not in play"
    removed = colours_in_play(CLASSIC, ["orange"])
    assert (
        choice(["orange"], three, colours=removed).illegal == "joker colour orange is not in play"
    )
    assert choice(["yellow"], ["orange"], colours=removed).illegal == (
        "positive colour orange is not in play"
    )
    assert choice(["yellow"], [*three, "blue"]).illegal == "4 positive colours, at most 3"
    assert choice(["yellow"], ["green", "green"]).illegal == "positive colour green given twice"
    assert not choice(["yellow"], ["green", "green"]).legal
    # Every problem is named, in a fixed order.
    assert choice(["pink", "yellow"], ["red", "red", "x", "y"]).illegal == (
        "2 joker colour(s) given for 1 joker(s); joker colour 'pink' is not a colour; "
        "4 positive colours, at most 3; positive colour 'x' is not a colour; "
        "positive colour 'y' is not a colour; positive colour red given twice"
    )


def test_declared_choice_with_a_hand_that_does_not_fit() -> None:
    with pytest.raises(ValueError, match="not in play"):
        evaluate_choice(Hand.of({"purple": 1}), CLASSIC_COLOURS, jokers=[], positive=[])
    with pytest.raises(TypeError, match="not a string"):
        evaluate_choice(EXAMPLE_1, CLASSIC_COLOURS, jokers="yellow", positive=None)


# --------------------------------------------------------------------------- properties

COUNT = st.one_of(st.just(0), st.integers(1, 4), st.integers(0, 9))


@st.composite
def games(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[str, ...], ScoringTable]:
    """A collection as the engine stores it, the colours in play, and the table."""
    edition: Edition = draw(st.sampled_from([CLASSIC, ANNIVERSARY]))
    table = draw(st.sampled_from([STANDARD, ALTERNATIVE]))
    removed = draw(st.lists(st.sampled_from(edition.colours), max_size=2, unique=True))
    colours = colours_in_play(edition, removed)
    # Half the hands draw their counts from a small palette, so that equal counts
    # (where the tie-break decides) are common.
    palette = draw(st.one_of(st.none(), st.lists(COUNT, min_size=1, max_size=3)))
    counts = [0] * N_KINDS
    for colour in colours:
        counts[KIND_INDEX[colour]] = draw(COUNT if palette is None else st.sampled_from(palette))
    counts[KIND_INDEX[JOKER]] = draw(st.integers(0, edition.jokers))
    counts[KIND_INDEX[GOLDEN_JOKER]] = draw(st.integers(0, edition.golden_jokers))
    counts[KIND_INDEX[PLUS2]] = draw(st.integers(0, 4))
    return tuple(counts), colours, table


@settings(max_examples=1500, deadline=None)
@given(games())
def test_fast_solver_equals_the_reference(
    game: tuple[tuple[int, ...], tuple[str, ...], ScoringTable],
) -> None:
    counts, colours, table = game
    hand = Hand.from_counts(counts)
    want = exhaustive_best(hand, colours, table=table)
    assert best_assignment(hand, colours, table=table, cache=False) == want
    assert best_assignment(hand, colours, table=table) == want
    assert best_from_counts(counts, colours, table=table) == want
    # The answer is consistent with itself and with the declared-choice scorer.
    assert want.score == sum(row.points for row in want.breakdown) + want.plus2_points
    assert len(want.jokers) == hand.jokers
    assert len(want.positive) == min(3, len(want.breakdown))
    assert all(
        row.effective > 0 and row.effective == row.cards + row.jokers for row in want.breakdown
    )
    assert evaluate_choice(
        hand, colours, jokers=want.jokers, positive=want.positive, table=table
    ) == ChoiceResult(want.score)
    assert (
        evaluate_choice(hand, colours, jokers=None, positive=None, table=table).score == want.score
    )


@settings(max_examples=150, deadline=None)
@given(games(), st.data())
def test_no_declared_choice_beats_the_optimum(
    game: tuple[tuple[int, ...], tuple[str, ...], ScoringTable], data: st.DataObject
) -> None:
    counts, colours, table = game
    hand = Hand.from_counts(counts)
    best = best_assignment(hand, colours, table=table)
    jokers = data.draw(
        st.lists(st.sampled_from(colours), min_size=hand.jokers, max_size=hand.jokers)
    )
    positive = data.draw(st.lists(st.sampled_from(colours), max_size=3, unique=True))
    got = evaluate_choice(hand, colours, jokers=jokers, positive=positive, table=table)
    assert got.legal
    assert got.score is not None and got.score <= best.score


def test_random_sweep_of_dense_hands() -> None:
    # Many colours of similar size (where ties abound), both tables, up to 3 jokers.
    rng = random.Random(7)
    for _ in range(400):
        edition = rng.choice([CLASSIC, ANNIVERSARY])
        colours = colours_in_play(edition, rng.sample(edition.colours, rng.choice([0, 0, 1, 2])))
        cards = {c: rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 6, 7]) for c in colours}
        hand = Hand.of(cards, jokers=rng.randint(0, 3), plus2=rng.randint(0, 3))
        solve_all(hand, colours, rng.choice([STANDARD, ALTERNATIVE]))


# --------------------------------------------------------------------------- module hygiene


def test_caches_never_change_a_result() -> None:
    hand = Hand.of({"orange": 6, "blue": 3, "brown": 3, "yellow": 2, "grey": 1}, jokers=1, plus2=2)
    scoring.clear_cache()
    first = best_assignment(hand, CLASSIC_COLOURS)
    assert best_assignment(hand, CLASSIC_COLOURS) is first  # served from the cache
    assert scoring.cache_info()["hand"][:2] == (1, 1)  # one hit, one miss
    scoring.clear_cache()
    assert all(info[3] == 0 for info in scoring.cache_info().values())
    assert best_assignment(hand, CLASSIC_COLOURS, cache=False) == first
    assert best_from_counts(_counts_of(hand), CLASSIC_COLOURS, cache=False) == first
    assert all(info[3] == 0 for info in scoring.cache_info().values())  # nothing filled
    assert best_from_counts(_counts_of(hand), CLASSIC_COLOURS) == first
    assert scoring.cache_info()["counts"][3] == 1


def _counts_of(hand: Hand) -> tuple[int, ...]:
    counts = [0] * N_KINDS
    for colour, n in hand.cards:
        counts[KIND_INDEX[colour]] = n
    counts[KIND_INDEX[JOKER]] = hand.jokers
    counts[KIND_INDEX[PLUS2]] = hand.plus2
    return tuple(counts)


def test_scoring_is_a_pure_module() -> None:
    code = (
        "import sys, coloretto_log.core.scoring\n"
        "heavy = {'pydantic', 'duckdb', 'typer', 'rich'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@given(
    counts=st.lists(st.integers(0, 7), min_size=7, max_size=7),
    jokers=st.integers(0, 3),
    plus2=st.integers(0, 3),
    positive=st.integers(1, 4),
    bonus=st.integers(0, 5),
)
@settings(max_examples=60, deadline=None)
def test_the_table_says_how_many_colours_score_and_what_a_plus2_is_worth(
    counts: list[int], jokers: int, plus2: int, positive: int, bonus: int
) -> None:
    """A made-up table (two positive colours, "+2" worth 5 ...): the solver and the reference read it."""
    table = ScoringTable("made-up", STANDARD.points, positive=positive, plus2=bonus)
    hand = Hand.of(dict(zip(CLASSIC_COLOURS, counts)), jokers=jokers, plus2=plus2)
    best = solve_all(hand, CLASSIC_COLOURS, table)
    assert len(best.positive) <= positive and best.plus2_points == bonus * plus2
    assert evaluate_choice(hand, CLASSIC_COLOURS, jokers=None, positive=None, table=table).score == best.score


def test_plus2_points_is_the_standard_tables() -> None:
    assert scoring.PLUS2_POINTS == STANDARD.plus2 == 2 and scoring.MAX_POSITIVE == STANDARD.positive == 3
    # red 3 (6), blue 1 (1): one positive colour at most gives 6 - 1, and "+2" worth 5
    table = ScoringTable("one", STANDARD.points, positive=1, plus2=5)
    assert best_assignment(Hand.of({"red": 3, "blue": 1}, plus2=1), CLASSIC_COLOURS, table=table).score == 6 - 1 + 5
