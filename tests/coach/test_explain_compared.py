"""Explanations that compare, on positions worked out by hand: the rows, the values and the players the words name
are the right ones (issue 27: "for each marked decision, what the played choice and the best one each take or leave,
for whom, and the likely next moves after each"), and the numbers carry a sensible precision."""

from __future__ import annotations

from coloretto_log.coach import analyze as A
from coloretto_log.coach.estimate import ChoiceValue, Evaluation
from coloretto_log.coach.explain import decimals, explain, plus_minus
from coloretto_log.core.engine import GameState

from ..builders.hand import table_state

# Four players, the last round: A (seat 0) and B (seat 1) are still in it, C and D have taken their rows. A holds
# 3 reds (6 points), B 3 blues (6), C 5 oranges (15), D 2 greens (3).
PLAYERS = ("Aiko", "Boris", "Chloe", "Dan")
HANDS = [{"red": 3}, {"blue": 3}, {"orange": 5}, {"green": 2}]
IN_ROUND = {"done": [False, False, True, True], "taken": [False, False, True, True], "current": 0}


def _decision(state: GameState, played: tuple[str, int], card: str | None = None) -> A.Decision:
    t = A.Task(1, 1, state.current, "draw-or-take" if card is None else "row", state, card, False, played, 1)
    return A._decision(t, A.evaluate(t, A.Settings(samples=64)))


def test_a_take_that_gives_the_next_player_their_row_and_leaves_ones_own() -> None:
    # Rows 1 (red ×3) and 2 (blue ×3) are full: A must take one. Taking row 2 adds 3 blues to A (+6: 12 in all,
    # under Chloe's 15: no win), leaves row 1 to Boris (3 reds, +6: 12). Taking row 1 makes A's reds 6 (+15: 21,
    # a shared win), leaves row 2 to Boris (blues 3 -> 6: 6 -> 21, +15). Margins: played 12 - (12 + 15 + 3) / 3 = 2,
    # best 21 - (21 + 15 + 3) / 3 = 8: a loss of exactly 6 points and of every chance of winning (a blunder).
    state = table_state(collections=HANDS, rows=[["red"] * 3, ["blue"] * 3, [], []], remaining={"yellow": 8},
                        **IN_ROUND)
    d = _decision(state, ("take", 1))
    assert d.evaluation.exact and d.best == "take row 1" and d.loss == 6.0
    assert d.chance_loss == 1.0 and d.mark == "blunder" and not d.about_equal
    text = A.explanation_of(d, PLAYERS)
    assert text.startswith("Aiko took row 2 (blue, blue, blue), +6 to their score now, leaving row 1 "
                           "(red, red, red) to Boris, worth +6 to them.")
    assert ("Taking row 1 instead (red, red, red) would have added +15 to Aiko's score, leaving row 2 "
            "(blue, blue, blue) to Boris, worth +15 to them.") in text
    assert "Take row 1 was worth exactly 6.0 points more of expected margin (+8.0 against +2.0); " \
           "win chance 100% against 0%." in text
    # what comes next: Boris takes the row left to him either way
    assert "After take row 2, likely next: Boris takes row 1 (red, red, red): +6 to them." in text
    assert "After take row 1, likely next: Boris takes row 2 (blue, blue, blue): +15 to them." in text


def test_a_card_put_where_the_next_player_wants_it_when_no_choice_could_win() -> None:
    # A turns over a blue: row 1 (blue, blue) would make it three blues for Boris (blue 3 -> 6: 6 -> 21, +15);
    # row 2 (red) makes it red, blue (+1 red, blue 3 -> 4: +4; +5 to Boris). Chloe's 21 (6 oranges) is out of A's
    # reach whatever A does: a win chance of 0 either way, said as such, not as "0% against 0%". Next, Boris takes
    # his blues either way; after row 1, A is left to draw, after row 2 to take the red and blue.
    state = table_state(collections=[{"red": 2}, {"blue": 3}, {"orange": 6}, {"green": 2}],
                        rows=[["blue", "blue"], ["red"], [], []], remaining={"yellow": 8}, **IN_ROUND)
    d = _decision(state, ("row", 0), card="blue")
    assert d.evaluation.exact and d.best == "row 2"
    ev = d.evaluation
    assert ev.choices[ev.played].win_prob == ev.choices[ev.best].win_prob == 0.0
    assert d.chance_loss == 0 and d.mark is None  # no chance lost: no mark, however many points
    text = A.explanation_of(d, PLAYERS)
    assert text.startswith("Aiko put blue in row 1, making it blue, blue, blue, worth +15 to Boris who plays next")
    assert "Row 2 instead would have made it red, blue, worth +5 to Boris who plays next." in text
    assert "no winning chance either way" in text and "0% against 0%" not in text
    assert "After row 1, likely next: Boris takes row 1 (blue, blue, blue): +15 to them, Aiko draws." in text
    assert ("After row 2, likely next: Boris takes row 1 (blue, blue): +9 to them, Aiko takes row 2 (red, blue): "
            "+4 to them.") in text


def _made(best: tuple[float, float], played: tuple[float, float], loss: float, se: float, chance: float,
          chance_se: float) -> Evaluation:
    values = (ChoiceValue("draw", best[0], 0.5, best[1], 0.01, ()),
              ChoiceValue("take row 1", played[0], 0.5, played[1], 0.01, ()))
    return Evaluation(values, 1, 0, loss, se, 2000, False, loss, chance, chance_se)


def test_about_equal_names_no_best() -> None:
    state = table_state(collections=HANDS, rows=[["red"], ["blue"], [], []], remaining={"yellow": 8}, **IN_ROUND)
    ev = _made((1.3, 0.31), (1.1, 0.30), 0.2, 0.3, 0.01, 0.02)
    chance, equal, mark = A.judge(ev)
    assert equal and chance == 0 and mark is None
    text = explain(ev, state, None, 0, PLAYERS, 0.2, 0.3, about_equal=True).text
    assert "About equal: take row 1 and draw are 0.2 ± 0.3 points of expected margin apart, within their noise" \
        in text
    assert "was worth" not in text  # no best named


def test_a_best_with_a_lower_win_chance_says_why_and_numbers_keep_their_precision() -> None:
    state = table_state(collections=HANDS, rows=[["red"], ["blue"], [], []], remaining={"yellow": 8}, **IN_ROUND)
    ev = _made((2.0, 0.40), (1.0, 0.45), 1.0, 0.045, -0.05, 0.01)
    text = explain(ev, state, None, 0, PLAYERS, 1.0, 0.045).text
    assert "win chance 40% against 45%: more points on average, but fewer wins" in text
    assert "± 0.0 " not in text and "1.00 ± 0.04" in text or "1.00 ± 0.05" in text
    assert decimals(0.045) == 2 and decimals(0.3) == 1 and plus_minus(9.2, 0.045) in ("9.20 ± 0.04", "9.20 ± 0.05")
    assert "exactly point" not in text
