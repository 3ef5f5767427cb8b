"""Per player: error rate, accuracy, luck and skill; hand-worked chains and simulated games."""

from __future__ import annotations

import statistics

import pytest

from coloretto_log.core import engine
from coloretto_log.core.engine import Draw, Take
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.play import analyze as A
from coloretto_log.play import bots
from coloretto_log.play.estimate import ChoiceValue, Evaluation
from coloretto_log.play.luck import accuracy_of, final_margins, standings
from coloretto_log.play.simulate import moves_with_states, play_game


def test_accuracy_halves_every_three_points() -> None:
    assert accuracy_of(0) == 100
    assert accuracy_of(3) == pytest.approx(50)
    assert accuracy_of(6) == pytest.approx(25)
    assert accuracy_of(-1) == 100  # a negative estimate is no better than the best


def test_final_margins_are_own_score_less_the_mean_of_the_others() -> None:
    assert final_margins([10, 4, 7]) == (4.5, -4.5, 0.0)


def _decision(move: int, kind: str, seat: int, best: tuple[float, ...], played: tuple[float, ...], loss: float,
              mark: str | None = None) -> A.Decision:
    values = (ChoiceValue("a", best[seat], 0.1, 0.5, 0.0, best), ChoiceValue("b", played[seat], 0.1, 0.5, 0.0, played))
    ev = Evaluation(values, 1, 0, loss, 0.1, 64, False, loss)
    state = engine.new_game(RuleSet.of(), 2, removed=(), starting=((), ()), first=0)
    return A.Decision(1, move, seat, kind, state, None, "b", "a", loss, 0.1, mark, ev)


def test_a_hand_worked_chain_of_luck_and_skill() -> None:
    # move 1: seat 0 draws (worth 0 before the card), the card makes its row decision worth +4 (luck +4, -4);
    # it plays a row worth 3 instead of 4 (loss 1). Move 2: seat 1 takes a row without a golden joker,
    # worth -3 for itself instead of -2 (loss 1). The game ends at +5 / -5: from move 1's row to move 2
    # and from move 2 to the end no card was turned over, so neither span is luck.
    moves = [Draw(0, 1, "red", False), Take(1, 1)]
    decisions = [
        _decision(1, "draw-or-take", 0, (0.0, 0.0), (0.0, 0.0), 0.0),
        _decision(1, "row", 0, (4.0, -4.0), (3.0, -3.0), 1.0, "inaccuracy"),
        _decision(2, "draw-or-take", 1, (2.0, -2.0), (3.0, -3.0), 1.0),
    ]
    a, b = standings(decisions, 2, moves, (5.0, -5.0))
    assert (a.luck, b.luck) == (4.0, -4.0)
    assert (a.skill, b.skill) == (-1.0, -1.0)
    assert (a.decisions, a.errors, a.error_rate) == (2, 1, 0.5)
    assert a.accuracy == pytest.approx((100 + accuracy_of(1.0)) / 2)
    # a card turned over at the end (a draw as the last move) makes the last span luck
    moves = [Draw(0, 1, "red", False), Draw(1, 1, "blue", False)]
    a, b = standings(decisions[:2], 2, moves, (6.0, -6.0))
    assert (a.luck, b.luck) == (4.0 + 3.0, -4.0 - 3.0)


BOTS = ("strong", "greedy", "random")


def _game(seed: int, order: tuple[str, ...] = BOTS) -> tuple[list[tuple[engine.Move, engine.GameState]], engine.GameState]:
    rules = RuleSet.of()
    setup = seeded_setup(rules, 3, seed, 0)
    played = play_game(rules, [bots.make_bot(b) for b in order], setup,
                       [SplitMix64(seed * 7 + s) for s in range(3)])
    return moves_with_states(rules, played), played.final


def test_luck_plus_skill_tracks_the_final_margin_and_error_rates_order_the_bots() -> None:
    # twelve three-player games, strong, greedy and random, the seats rotated from game to game, every
    # decision analysed at low precision (32 samples): about 16 s of one core
    points = []
    decisions_of = dict.fromkeys(BOTS, 0)
    marks_of = dict.fromkeys(BOTS, 0)
    loss_of = dict.fromkeys(BOTS, 0.0)
    for g in range(12):
        order = BOTS[g % 3:] + BOTS[:g % 3]
        pairs, final = _game(1000 + g, order)
        decisions = list(A.analyze(A.tasks_of_game(pairs, 1, 1, 0), A.Settings(samples=32, max_se=2.0)))
        margins = final_margins(bots.final_scores(final))
        summaries = A.summarise(decisions, 3, games={1: A.GameOutcome(tuple(m for m, _ in pairs), margins)})
        for s in summaries:
            st = s.standing
            assert st is not None and st.margin == pytest.approx(margins[s.seat])
            points.append((st.luck + st.skill, st.margin))
            name = order[s.seat]
            decisions_of[name] += st.decisions
            marks_of[name] += st.errors
            loss_of[name] -= st.skill  # the losses added up, as they came out
    assert statistics.correlation([p[0] for p in points], [p[1] for p in points]) > 0.5
    rate = {b: marks_of[b] / decisions_of[b] for b in BOTS}
    mean_loss = {b: loss_of[b] / decisions_of[b] for b in BOTS}
    # the order of the issue: strong errs least, random most (benchmarks/bench_analyze.py --only errors gives
    # the figures with their intervals over more games)
    assert rate["strong"] < rate["greedy"] < rate["random"]
    assert mean_loss["strong"] < mean_loss["greedy"] < mean_loss["random"]
