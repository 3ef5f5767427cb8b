"""Per player: error rate, accuracy, luck and skill; hand-worked chains and simulated games."""

from __future__ import annotations

import statistics

import pytest

from coloretto_log.bots import players
from coloretto_log.bots.simulate import moves_with_states, play_game
from coloretto_log.coach import analyze as A
from coloretto_log.coach.estimate import ChoiceValue, Evaluation
from coloretto_log.coach.luck import accuracy_of, final_margins, standings
from coloretto_log.core import engine
from coloretto_log.core.engine import Draw, Take
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup


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
    # move 1: seat 0 draws (worth 0 before the card and after it is chosen); the card makes its row decision
    # worth +4 / -4 (luck +4, -4); it plays a row worth 3 instead of 4 (loss 1: skill -1; seat 1 gains +1 from
    # it, its others). Move 2: seat 1 takes a row, worth -3 for itself where the best was -2 (skill -1; seat 0
    # gains +1 against the best's +2, others); before it the position is worth +2 / -2, not the +3 / -3 move 1
    # left (no card between: the values' own disagreement, luck -1 / +1). The game ends at +5 / -5 (luck +2, -2).
    moves = [Draw(0, 1, "red", False), Take(1, 1)]
    decisions = [
        _decision(1, "draw-or-take", 0, (0.0, 0.0), (0.0, 0.0), 0.0),
        _decision(1, "row", 0, (4.0, -4.0), (3.0, -3.0), 1.0, "inaccuracy"),
        _decision(2, "draw-or-take", 1, (2.0, -2.0), (3.0, -3.0), 1.0),
    ]
    a, b = standings(decisions, 2, moves, (5.0, -5.0))
    assert (a.start, b.start) == (0.0, 0.0)
    assert (a.luck, b.luck) == (4.0 - 1.0 + 2.0, -4.0 + 1.0 - 2.0)
    assert (a.skill, b.skill) == (-1.0, -1.0)
    assert (a.others, b.others) == (1.0, 1.0)
    for st, margin in ((a, 5.0), (b, -5.0)):
        assert st.start + st.luck + st.skill + st.others == st.margin == st.end == margin
    assert (a.decisions, a.errors, a.error_rate) == (2, 1, 0.5)
    assert a.accuracy == pytest.approx((100 + accuracy_of(1.0)) / 2)
    # with only seat 0 analysed (--player), seat 1's move between its last decision and the end is others'
    a, b = standings(decisions[:2], 2, moves, (5.0, -5.0), seats={0})
    assert (a.luck, a.skill, a.others) == (4.0, -1.0, 2.0)
    assert (b.luck, b.skill, b.others) == (-4.0, 0.0, 1.0 - 2.0)
    assert a.start + a.luck + a.skill + a.others == 5.0 and b.start + b.luck + b.skill + b.others == -5.0
    # an unfinished game ends its chain on the last valued decision: no margin, the terms add up to that value
    a, _ = standings(decisions, 2, moves, None)
    assert a.margin is None and a.end == 3.0 and a.start + a.luck + a.skill + a.others == 3.0
    # a start of +0.5 / -0.5 (the evaluator's, the first player's edge) comes out of the first luck, nothing else
    a, b = standings(decisions, 2, moves, (5.0, -5.0), start=(0.5, -0.5))
    assert (a.start, b.start) == (0.5, -0.5)
    assert (a.luck, b.luck) == (4.0 - 0.5 - 1.0 + 2.0, -4.0 + 0.5 + 1.0 - 2.0)
    assert (a.skill, a.others, b.skill, b.others) == (-1.0, 1.0, -1.0, 1.0)
    assert a.start + a.luck + a.skill + a.others == 5.0 and b.start + b.luck + b.skill + b.others == -5.0


BOTS = ("strong", "greedy", "random")


def _game(seed: int, order: tuple[str, ...] = BOTS) -> tuple[list[tuple[engine.Move, engine.GameState]], engine.GameState]:
    rules = RuleSet.of()
    setup = seeded_setup(rules, 3, seed, 0)
    played = play_game(rules, [players.make_bot(b) for b in order], setup,
                       [SplitMix64(seed * 7 + s) for s in range(3)])
    return moves_with_states(rules, played), played.final


def test_start_luck_skill_and_others_add_up_to_the_margin_and_losses_order_the_bots() -> None:
    # twelve three-player games, strong, greedy and random, the seats rotated from game to game, every
    # decision analysed at low precision (32 samples): about 16 s of one core. In every game and for every
    # player the four terms add up to the final margin, whatever the noise of the values, and skill is at most 0
    points = []
    decisions_of = dict.fromkeys(BOTS, 0)
    marks_of = dict.fromkeys(BOTS, 0)
    loss_of = dict.fromkeys(BOTS, 0.0)
    for g in range(12):
        order = BOTS[g % 3:] + BOTS[:g % 3]
        pairs, final = _game(1000 + g, order)
        decisions = list(A.analyze(A.tasks_of_game(pairs, 1, 1, 0), A.Settings(samples=32, max_se=2.0)))
        margins = final_margins(players.final_scores(final))
        start = A.start_margins(pairs[0][1], A.Settings(), g)  # before the first move, as every decision is valued
        assert sum(start) == pytest.approx(0, abs=1e-6) and any(abs(x) > 1e-3 for x in start)
        summaries = A.summarise(decisions, 3, games={1: A.GameOutcome(tuple(m for m, _ in pairs), margins, start)})
        for s in summaries:
            st = s.standing
            assert st is not None and st.margin == pytest.approx(margins[s.seat])
            assert st.start == start[s.seat]
            assert st.start + st.luck + st.skill + st.others == pytest.approx(st.margin, abs=1e-9)
            assert st.skill <= 0
            points.append((st.luck + st.skill, st.margin))
            name = order[s.seat]
            decisions_of[name] += st.decisions
            marks_of[name] += st.errors
            loss_of[name] -= st.skill  # the losses added up, as they came out
    assert statistics.correlation([p[0] for p in points], [p[1] for p in points]) > 0.3
    rate = {b: marks_of[b] / decisions_of[b] for b in BOTS}
    mean_loss = {b: loss_of[b] / decisions_of[b] for b in BOTS}
    # the order of the issue: strong errs least, random most (benchmarks/bench_analyze.py --only errors gives
    # the figures with their intervals over more games)
    # marks by the chance lost need more than 32 samples to be told from noise (a chance is a mean of 0s and 1s):
    # at 32 samples greedy and random are marked about as often (0.108, 0.107; strong 0.040), so the order of the
    # error rates is left to the benchmark (--only errors); the losses order the bots here
    assert rate["strong"] < min(rate["greedy"], rate["random"])
    assert mean_loss["strong"] < mean_loss["greedy"] < mean_loss["random"]
