"""Match values (``coach.match``), the best choice by the chance of what is played (``marks.pick``), the marks
near a line (``marks.mark_label``) and the match's own chain of luck and skill (``analyze.match_standing``)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.coach import analyze as A
from coloretto_log.coach.luck import Standing
from coloretto_log.coach.marks import EQUAL_CHANCE, mark_certain, mark_for, mark_label, pick
from coloretto_log.coach.match import NODES, MatchContext, context_for, game_sd, share_left
from coloretto_log.core.ruleset import RuleSet


def test_the_quadrature_is_numpys_gauss_hermite() -> None:
    x, w = np.polynomial.hermite.hermgauss(10)
    mine = sorted(NODES)
    assert [a for a, _ in mine] == pytest.approx(list(x), abs=1e-12)
    assert [b for _, b in mine] == pytest.approx(list(w / math.sqrt(math.pi)), abs=1e-12)
    assert sum(b for _, b in NODES) == pytest.approx(1.0, abs=1e-12)


def test_two_players_hand_worked() -> None:
    # Aiko leads by 10 before game 3 of 4, this game even (margins 0): the rest is this game's half and one more
    # game, each seat's noise of variance 8² × 1.5 / 2 = 48, the difference's 96: P = Φ(10 / √96) = Φ(1.0206)
    ctx = MatchContext((10.0, 0.0), 3, 4, 8.0)
    assert ctx.chance((0.0, 0.0), 0, 0.5) == pytest.approx(0.8463, abs=1e-4)
    assert ctx.chance((0.0, 0.0), 1, 0.5) == pytest.approx(1 - 0.8463, abs=1e-4)
    # margins +3 / -3: a score difference of (3 - (-3)) × (n - 1) / n = 3 this game, a match lead of 13
    assert ctx.chance((3.0, -3.0), 0, 0.5) == pytest.approx(0.5 * math.erfc(-(10 + 6 * 0.5) / math.sqrt(96) / math.sqrt(2)))
    # nothing left to come: the most points win, a shared first place counts (as for a game)
    last = MatchContext((10.0, 0.0), 4, 4, 8.0)
    assert last.chance((-10.0, 10.0), 0, 0.0) == 1.0  # this game -10: the totals level, a shared first place
    assert last.chance((-10.0, 10.0), 1, 0.0) == 1.0
    assert last.chance((-12.0, 12.0), 0, 0.0) == 0.0


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), totals=st.lists(st.integers(0, 60), min_size=5, max_size=5),
       margins=st.lists(st.floats(-15, 15), min_size=5, max_size=5), left=st.integers(0, 3),
       share=st.floats(0.05, 1.0))
def test_the_seats_chances_add_up_to_one_and_rise_with_the_margin(players: int, totals: list[int], margins: list[float],
                                                                  left: int, share: float) -> None:
    ctx = MatchContext(tuple(float(t) for t in totals[:players]), 4 - left, 4, 9.0)
    m = margins[:players]
    mean = sum(m) / players
    m = [x - mean for x in m]  # margins add up to 0
    chances = [ctx.chance(m, s, share) for s in range(players)]
    assert all(0 <= c <= 1 for c in chances)
    assert sum(chances) == pytest.approx(1.0, abs=2e-3)  # one seat wins the match (the quadrature's error apart)
    better = list(m)
    better[0] += 1.0
    assert ctx.chance(better, 0, share) >= chances[0] - 1e-12


def test_a_single_game_or_a_level_last_game_is_the_game_itself() -> None:
    one = RuleSet.of(games=1)
    four = RuleSet.of(games=4)
    assert context_for(one, 3, 1, (0, 0, 0)) is None
    assert context_for(four, 3, 4, (20, 20, 20)) is None  # the last game with level totals: the game decides
    ctx = context_for(four, 3, 1, (0, 0, 0))
    assert ctx is not None and ctx.left == 3 and ctx.sd == game_sd(four, 3) > 0
    last = context_for(four, 3, 4, (30, 18, 20))
    assert last is not None and last.left == 0 and last.lead(0) == 10 and last.lead(1) == -12
    assert last.margin(0) == pytest.approx(30 - 19)


@settings(max_examples=30, deadline=None)
@given(scores=st.lists(st.integers(-10, 40), min_size=3, max_size=3))
def test_level_totals_at_the_end_reduce_to_the_games_win_exactly(scores: list[int]) -> None:
    # a finished sample (nothing left to come) with level totals: the match chance is the game's win, 1 or 0
    ctx = MatchContext((7.0, 7.0, 7.0), 4, 4, 9.0)
    margins = [s - (sum(scores) - s) / 2 for s in scores]
    for seat in range(3):
        assert ctx.chance(margins, seat, 0.0) == (1.0 if scores[seat] == max(scores) else 0.0)


def test_the_share_of_a_game_left() -> None:
    assert share_left(0, 60, False) == 1.0
    assert share_left(30, 60, False) == 0.5
    assert share_left(70, 60, False) == 0.0 and share_left(10, 60, True) == 0.0


def test_pick_goes_by_chance_and_breaks_ties_by_margin() -> None:
    widths = [0.02, 0.02, 0.02]
    # the move 54: take row 3 (+7.1, 61%) against take row 2 (68%): the chance decides
    assert pick([7.1, 5.0, 1.0], [0.61, 0.68, 0.2], widths) == 1
    # within the noise of the highest chance, the best margin
    assert pick([7.1, 5.0, 1.0], [0.67, 0.68, 0.2], widths) == 0
    # ... but never a best that the played choice beats on the chance the mark reads
    assert pick([7.1, 5.0, 1.0], [0.67, 0.68, 0.2], widths, played=1) == 1
    assert pick([7.1, 5.0, 1.0], [0.69, 0.68, 0.2], widths, played=1) == 0
    # exact ties go to the first (the stated order); -inf is out of the race
    assert pick([2.0, 2.0], [0.5, 0.5], [EQUAL_CHANCE] * 2) == 0
    assert pick([9.0, 2.0], [-math.inf, 0.5], [EQUAL_CHANCE] * 2) == 1


def test_marks_near_a_line_say_so() -> None:
    assert mark_label(0.08, 0.04) == "inaccuracy\u2013mistake" and not mark_certain(0.08, 0.04)
    assert mark_label(0.04, 0.02) == "inaccuracy?" and mark_for(0.04) is None
    assert mark_label(0.12, 0.01) == "mistake" and mark_certain(0.12, 0.01)
    assert mark_label(0.09, 0.005) == "inaccuracy" and mark_certain(0.09, 0.005)
    assert mark_label(0.15, 0.08) == "inaccuracy\u2013mistake"  # two lines within: the nearer, the lower on a tie
    assert mark_label(0.19, 0.02) == "mistake\u2013blunder" and mark_label(0.21, 0.02) == "mistake\u2013blunder"
    assert mark_label(0.3, 0.0) == "blunder" and mark_certain(0.3, 0.0)  # exact: always certain


def test_the_match_chain_adds_up_to_the_match_margin() -> None:
    # two games: game 1 starts at +0.5, ends at +4 (luck +5, skill -1.5); game 2 starts at -0.3 (the deal: luck
    # of the match), ends at -1 (luck +1.2, skill -0.4, others -1.5). Before game 1 the match margin is 0
    g1 = Standing(0, 10, 1, 900.0, 0.5, 5.0, -1.5, 0.0, 4.0, 4.0)
    g2 = Standing(0, 8, 0, 780.0, -0.3, 1.2, -0.4, -1.5, -1.0, -1.0)
    whole = A.match_standing(0.0, [g1, g2])
    assert (whole.start, whole.luck, whole.skill, whole.others) == (0.5, 5.0 + 1.2 - 0.3, -1.9, -1.5)
    assert whole.margin == whole.end == 3.0
    assert whole.start + whole.luck + whole.skill + whole.others == pytest.approx(whole.end)
    # from game 2 on (``--game 2``), the match margin before it is the start's
    assert A.match_standing(4.0, [g2]).start == pytest.approx(3.7)


@pytest.fixture(scope="module")
def simulated_matches() -> list[A.MatchAnalysis]:
    """Two simulated 4-game matches of two players (strong against greedy), every decision analysed at low
    precision (8 samples, no search and no counting): the chain adds up whatever the noise of the values."""
    from coloretto_log.bots.simulate import make_plan, match_log, play_match
    from coloretto_log.log.load import LoadedMatch
    from coloretto_log.log.replay import check_match

    plan = make_plan(players=2, bots=["strong", "greedy"], games=4, seed=43)
    out = []
    for i in range(2):
        report = check_match(match_log(plan, play_match(plan, i)))
        out.append(A.analyze_match(LoadedMatch("sim", "sim", None, report), i + 1, A.Settings(samples=8, max_se=0, exact=False)))
    return out


def test_simulated_matches_value_the_match_and_their_chains_add_up(simulated_matches: list[A.MatchAnalysis]) -> None:
    for analysis in simulated_matches:
        report_totals = [0.0, 0.0]
        games = sorted({d.game for d in analysis.decisions})
        assert games == [1, 2, 3, 4]
        for d in analysis.decisions:
            if d.forced:
                continue
            ev = d.evaluation
            played, best = ev.choices[ev.played], ev.choices[ev.best]
            if d.game < 4:  # a match under way: every choice has its match chance, and the marks read it
                assert d.match is not None and d.match.left == 4 - d.game
                assert all(0 <= c.match_chance <= 1 for c in ev.choices)
            if d.match is not None:
                assert not math.isnan(played.match_chance)
            # never a best that the played choice beats on the number the mark reads
            assert ev.best == ev.played or best.chance >= played.chance
            assert d.mark == mark_for(d.chance_loss)
        for s in analysis.summaries:
            whole = s.match
            assert whole is not None and whole.margin is not None
            assert whole.start + whole.luck + whole.skill + whole.others == pytest.approx(whole.end, abs=1e-9)
            assert whole.end == pytest.approx(whole.margin)
            games_margin = sum(st.margin for _, st in s.games if st.margin is not None)
            assert whole.margin == pytest.approx(games_margin)  # the final match margin: the games' added up
            assert whole.skill == pytest.approx(sum(st.skill for _, st in s.games))
            report_totals[s.seat] = whole.margin
        assert report_totals[0] == pytest.approx(-report_totals[1])
        data = analysis.as_json()
        d = next(x for x in data["decisions"] if not x["forced"] and x["game"] == 1)
        assert {"mark_certain", "mark_label", "match_chance_played", "match_chance_best", "match_margin_played",
                "match_margin_best", "match_lead"} <= d.keys()
        assert isinstance(d["match_chance_played"], float) and d["match_lead"] == 0
        assert data["summary"][0]["match"]["end"] == pytest.approx(data["summary"][0]["match"]["margin"], abs=0.01)


def test_game_four_with_a_lead_keeps_the_lead() -> None:
    """A hand-checked position where the best for the match is not the best for the game's margin.

    Game 4 of 4 of a three-player classic match (the position: ``simulate --players 3 --bots strong --seed 43``,
    match 1, move 60). Boris led the match by 12 before this game and is 2 points behind Aiko in it (Aiko 23,
    Boris 21, Chloe 19): 10 ahead of Aiko, 14 of Chloe. Row 1 is taken; row 3 holds +2, grey and red, row 2
    nothing. For Boris (orange 3, blue 2, green 2, brown 1, a joker, three +2) row 3 is worth +0: grey and red
    would be a fifth and sixth colour, -1 each, against the +2. For Aiko (green 4, red 4, grey 2, brown 2,
    orange 1, two +2) it is worth +10: red 10 → 15, grey 3 → 6 (taking brown's place among the three that
    count, brown then -3 as grey was), and +2. If Boris
    draws, Aiko, next, takes it. Boris's margin (against the mean of the others) is better after a draw, since
    Chloe falls back as Aiko comes on (-2.2 against -3.9); but the match is against Aiko, 10 behind: taking row
    3 keeps it from them, and the chance of winning the match is about 11 points higher (75% against 64%)."""
    from coloretto_log.bots.simulate import make_plan, moves_with_states, play_match

    plan = make_plan(players=3, bots=["strong"], games=1, seed=43)
    game = play_match(plan, 0).games[0]
    (task,) = [t for t in A.tasks_of_game(moves_with_states(plan.rules, game), 4, 1, 0)
               if t.move == 60 and t.decision == "draw-or-take"]
    state = task.state
    assert task.seat == 1 and task.played == ("take", 2)
    assert state.rows[2] == ("plus2", "grey", "red") and state.taken[0] and not state.rows[1]
    context = MatchContext((0.0, 12.0, 0.0), 4, 4, game_sd(plan.rules, 3))
    drew = replace(task, played=("draw", -1), match=context)  # as if Boris had drawn: the best for the margin
    (d,) = A.analyze([drew], A.Settings())
    ev = d.evaluation
    draw, take = ev.choices
    assert (draw.choice, take.choice) == ("draw", "take row 3")
    assert draw.margin > take.margin + 1  # the game's margin says draw
    assert take.match_chance > draw.match_chance + 0.05  # the match says take row 3
    assert d.best == "take row 3" and d.played == "draw" and d.loss == 0.0
    assert d.chance_loss == pytest.approx(take.match_chance - draw.match_chance, abs=0.03) and d.mark is not None
    # Aiko comes on after a draw: their expected margin is higher than after the take
    assert draw.margins[0] > take.margins[0] + 2
    why = A.explanation_of(d, ("Aiko", "Boris", "Chloe"))
    assert "Take row 3 was worth 1.6 points less of expected margin (-3.8 against -2.2), but a better chance" in why
    assert ("Boris leads the match by 10: take row 3 keeps the lead best, match chance "
            f"{100 * take.match_chance:.0f}% against {100 * draw.match_chance:.0f}%.") in why
    # without the match (a single game) the decision is the game's: no match chance
    (alone,) = A.analyze([replace(task, played=("draw", -1))], A.Settings())
    assert math.isnan(alone.evaluation.choices[0].match_chance) and alone.match is None
