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
from coloretto_log.play.simulate import play_game


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


def _game(seed: int) -> tuple[list[tuple[engine.Move, engine.GameState]], engine.GameState]:
    rules = RuleSet.of()
    setup = seeded_setup(rules, 3, seed, 0)
    played = play_game(rules, [bots.make_bot(b) for b in ("strong", "greedy", "random")], setup,
                       [SplitMix64(seed * 7 + s) for s in range(3)])
    state = engine.new_game(rules, 3, removed=setup.removed, starting=setup.starting, first=setup.first,
                            deck=setup.deck)
    pairs = []
    for move in played.moves:
        pairs.append((move, state))
        state = engine.apply(state, move)
    return pairs, state


def test_luck_plus_skill_tracks_the_final_margin_and_random_errs_most() -> None:
    points = []
    rates: dict[int, list[float]] = {0: [], 1: [], 2: []}
    losses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for seed in (100, 101, 102):
        pairs, final = _game(seed)
        decisions = list(A.analyze(A.tasks_of_game(pairs, 1, 1, 0), A.Settings(samples=32, max_se=2.0)))
        margins = final_margins(bots.final_scores(final))
        summaries = A.summarise(decisions, 3, games={1: A.GameOutcome(tuple(m for m, _ in pairs), margins)})
        for s in summaries:
            st = s.standing
            assert st is not None and st.margin == pytest.approx(margins[s.seat])
            points.append((st.luck + st.skill, st.margin))
            rates[s.seat].append(st.error_rate)
            losses[s.seat].append(s.mean_loss)
    assert statistics.correlation([p[0] for p in points], [p[1] for p in points]) > 0.5
    # the random bot errs most and loses most; the strong bot loses least
    assert statistics.mean(rates[2]) > max(statistics.mean(rates[0]), statistics.mean(rates[1]))
    assert statistics.mean(losses[0]) < statistics.mean(losses[2]) and statistics.mean(losses[1]) < statistics.mean(
        losses[2])
